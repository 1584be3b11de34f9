//! Lanrick, Third Edition (Lewis Carroll, October 1881), as ruled in docs/rules/lanrick.md
//! (L3-1 … L3-13).
//!
//! ```
//! use muster_rules::lanrick::Lanrick;
//! use muster_rules::{Game, Seat};
//!
//! let mut game = Lanrick::new();
//! game.play_text(Seat::WHITE, "b1").unwrap();   // White places a man on the border
//! game.play_text(Seat::BLACK, "b8").unwrap();   // then Black
//! assert_eq!(game.phase_name(), "placement");
//! assert_eq!(game.legal_moves().len(), 26);     // the empty border squares
//! ```

mod board;
pub(crate) mod common;
mod notation;
pub(crate) mod position;
pub(crate) mod turns;

use serde::Serialize;
use serde_json::json;

pub use board::{Axis, BORDER, Direction, FIELD, Square, Squares, border_destinations, squares};
pub use notation::{Written, parse_written};
pub use turns::{MAX_STEPS, ManRule, Path, Step};

use crate::game::{EndReason, Game, NotationError, Outcome, PlayError};
use crate::seat::{Seat, Table, Team};
use common::{Common, list};

/// Men each player has (Rule 1).
pub const MEN: u32 = 5;
/// Men a player must take to win (Rule 8).
pub const TO_WIN: u8 = 4;
/// Budget of the first turn of a rendezvous round (Rule 4).
pub const OPENING_BUDGET: u8 = 2;

/// What the game is waiting for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Placing the men on the border, one at a time, alternately (Rule 5).
    Placement,
    /// Setting the mark (Rules 5, 8).
    Mark,
    /// Playing for the rendezvous (Rules 2–4).
    Play,
    /// The winner of the rendezvous takes an adversary man (Rule 6).
    Capture,
    /// The winner moves the adversary's wanderers to the border (Rule 6).
    Wanderers,
    /// The player with more men in the field moves some to the border (Rule 7).
    Equalise,
    /// Alternate returns of field men to the border (Rule 8).
    Return,
    /// The game is over.
    Over,
}

impl Phase {
    /// The name the machine interface prints.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Placement => "placement",
            Phase::Mark => "mark",
            Phase::Play => "play",
            Phase::Capture => "capture",
            Phase::Wanderers => "wanderers",
            Phase::Equalise => "equalise",
            Phase::Return => "return",
            Phase::Over => "over",
        }
    }

    fn from_name(name: &str) -> Option<Phase> {
        [
            Phase::Placement,
            Phase::Mark,
            Phase::Play,
            Phase::Capture,
            Phase::Wanderers,
            Phase::Equalise,
            Phase::Return,
            Phase::Over,
        ]
        .into_iter()
        .find(|p| p.name() == name)
    }

    /// What a move looks like in this phase, for error messages and help.
    pub fn asks(self) -> &'static str {
        match self {
            Phase::Placement => "place a man with a border square, such as b1",
            Phase::Mark => "set the mark with a field square, such as d4",
            Phase::Play => "play a turn as steps from-to, such as c1-c3 d1-e2",
            Phase::Capture => "take a man with x and his square, such as xe5",
            Phase::Wanderers | Phase::Equalise | Phase::Return => {
                "move one man to the border with one step, such as e5-e1"
            }
            Phase::Over => "nothing: the game is over",
        }
    }
}

/// One decision of a Lanrick player.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum LanrickMove {
    /// Place a man on a border square (Rule 5).
    Place(Square),
    /// Set the mark on a field square (Rules 3, 5).
    Mark(Square),
    /// A play turn: steps applied in order (Rule 4).
    Turn(Vec<Step>),
    /// Take the adversary man on this square (Rule 6).
    Take(Square),
    /// Move one man to the border (Rules 6–8).
    ToBorder(Step),
}

/// Why a man was moved to the border.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BorderReason {
    /// A wanderer moved by the winner (Rule 6).
    Wanderer,
    /// Equalising the field (Rule 7).
    Equalise,
    /// The alternate returns (Rule 8).
    Return,
}

/// What happened; the bot words these and the renderer highlights them.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LanrickEvent {
    /// A man was placed.
    Placed { seat: Seat, square: Square },
    /// The mark was set; a new round begins.
    MarkSet { seat: Seat, square: Square },
    /// One step of a turn.
    Stepped {
        seat: Seat,
        from: Square,
        to: Square,
    },
    /// The player had no legal step and passed (L3-4).
    Passed { seat: Seat },
    /// All the player's men are in the rendezvous (Rule 6).
    RendezvousWon { seat: Seat },
    /// The winner took an adversary man.
    Took { seat: Seat, square: Square },
    /// `seat` moved `owner`'s man to the border.
    ToBorder {
        seat: Seat,
        owner: Seat,
        from: Square,
        to: Square,
        reason: BorderReason,
    },
    /// The game was won (four men taken, L3-11).
    GameWon { seat: Seat },
    /// The game was drawn.
    Drawn { reason: EndReason },
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A position counted for the repetition rule (L3-12): board, mark and player to move, in play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Counted {
    men: [Squares; 2],
    mark: Option<Square>,
    side: Seat,
}

/// A game of Lanrick, Third Edition.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Lanrick {
    /// What both editions keep: men, mark, taken, side, result, positions counted.
    c: Common<Counted>,
    phase: Phase,
    opening: bool,
    last_loser: Option<Seat>,
}

impl Default for Lanrick {
    fn default() -> Self {
        Lanrick::new()
    }
}

/// The other player.
pub fn other(seat: Seat) -> Seat {
    seat.opponent()
}

fn name(seat: Seat) -> &'static str {
    seat.colour()
}

fn team(seat: Seat) -> Team {
    Table::TWO_PLAYERS.team_of(seat)
}

impl Lanrick {
    common::accessors!();

    /// A new game: White places the first man (L3-10).
    pub fn new() -> Lanrick {
        Lanrick {
            c: Common::new(),
            phase: Phase::Placement,
            opening: false,
            last_loser: None,
        }
    }

    /// Who lost the last rendezvous, once one has been won.
    pub fn last_loser(&self) -> Option<Seat> {
        self.last_loser
    }

    /// Whether the round's two-square first turn is the one to be played (Rule 4).
    pub fn is_opening_turn(&self) -> bool {
        self.phase == Phase::Play && self.opening
    }

    /// Squares the player to move may use this turn, in the play phase (Rule 4, L3-3).
    pub fn budget(&self) -> Option<u8> {
        (self.phase == Phase::Play).then(|| {
            if self.opening {
                OPENING_BUDGET
            } else {
                self.men(self.c.side).count_ones() as u8
            }
        })
    }

    /// Men that must still be moved to the border in this phase, and may be chosen now.
    pub fn men_for_border(&self) -> Squares {
        match self.phase {
            Phase::Wanderers => self.wanderers(),
            Phase::Equalise | Phase::Return => self.men(self.c.side) & FIELD,
            _ => 0,
        }
    }

    /// In the play phase, the steps that may follow `prefix` in the turn of the player to move
    /// (so a turn can be built up a step at a time); empty in other phases.
    pub fn next_steps(&self, prefix: &[Step]) -> Vec<Step> {
        if self.phase != Phase::Play {
            return Vec::new();
        }
        let seat = self.c.side;
        turns::next_steps(
            self.men(seat),
            self.men(other(seat)),
            self.budget().unwrap_or(0),
            self.rendezvous().unwrap_or(0),
            prefix,
            ManRule::SameLine,
        )
    }

    /// Where the mark may go now (Rule 5, L3-9); empty outside the mark phase.
    pub fn legal_marks(&self) -> Squares {
        if self.phase != Phase::Mark {
            return 0;
        }
        let own = self.men(self.c.side);
        let first = squares(FIELD)
            .filter(|m| m.zone() & own == 0)
            .fold(0, |a, m| a | m.bit());
        let reach = turns::reachable_marks(own, self.men(other(self.c.side)));
        match first & !reach {
            0 if first == 0 => FIELD,
            0 => first,
            both => both,
        }
    }

    fn all_in(&self, seat: Seat) -> bool {
        self.c.all_in(seat)
    }

    /// The loser's men that are neither in the rendezvous nor on the border (Rule 6).
    fn wanderers(&self) -> Squares {
        self.c.wanderers(other(self.c.side))
    }

    /// The player named first in Rule 8: fewer men on the board, else the last loser (L3-8).
    fn rule8_first(&self) -> Seat {
        let (w, b) = (self.c.men[0].count_ones(), self.c.men[1].count_ones());
        match w.cmp(&b) {
            std::cmp::Ordering::Less => Seat::WHITE,
            std::cmp::Ordering::Greater => Seat::BLACK,
            std::cmp::Ordering::Equal => self.last_loser.unwrap_or(Seat::WHITE),
        }
    }

    fn counted(&self) -> Counted {
        Counted {
            men: self.c.men,
            mark: self.c.mark,
            side: self.c.side,
        }
    }

    /// Counts the current position; a third occurrence in the round draws (L3-12).
    fn count_position(&mut self, events: &mut Vec<LanrickEvent>) {
        if self.c.count(self.counted()) {
            self.finish(Outcome::Draw {
                reason: EndReason::Repetition,
            });
            events.push(LanrickEvent::Drawn {
                reason: EndReason::Repetition,
            });
        }
    }

    fn finish(&mut self, outcome: Outcome) {
        self.c.outcome = Some(outcome);
        self.phase = Phase::Over;
    }

    fn win_rendezvous(&mut self, seat: Seat, events: &mut Vec<LanrickEvent>) {
        self.last_loser = Some(other(seat));
        self.phase = Phase::Capture;
        self.c.side = seat;
        events.push(LanrickEvent::RendezvousWon { seat });
    }

    /// Gives the decision for the returns to `preferred`, or the other if `preferred` has no
    /// field man; with none left, Rule 8's first player sets the next mark (L3-8).
    fn next_return(&mut self, preferred: Seat) {
        self.phase = Phase::Return;
        if self.men(preferred) & FIELD != 0 {
            self.c.side = preferred;
        } else if self.men(other(preferred)) & FIELD != 0 {
            self.c.side = other(preferred);
        } else {
            self.phase = Phase::Mark;
            self.c.side = self.rule8_first();
        }
    }

    /// Makes the decisions nobody has a choice about: passes, skipped phases and seats.
    fn settle(&mut self, events: &mut Vec<LanrickEvent>) {
        loop {
            match self.phase {
                Phase::Wanderers if self.wanderers() == 0 => self.phase = Phase::Equalise,
                Phase::Equalise => {
                    let (w, b) = (
                        (self.c.men[0] & FIELD).count_ones(),
                        (self.c.men[1] & FIELD).count_ones(),
                    );
                    if w == b {
                        // Equal fields: on to the returns, or the next mark (Rule 8).
                        self.next_return(self.rule8_first());
                    } else {
                        self.c.side = if w > b { Seat::WHITE } else { Seat::BLACK };
                    }
                    return;
                }
                Phase::Play if !self.c.can_step(self.c.side) => {
                    events.push(LanrickEvent::Passed { seat: self.c.side });
                    self.opening = false;
                    self.c.side = other(self.c.side);
                    self.count_position(events);
                }
                _ => return,
            }
        }
    }

    fn illegal(reason: String) -> PlayError {
        PlayError::Illegal(reason)
    }

    /// Plays `mv` for the side to move, or says why it may not be played.
    fn apply(&mut self, mv: &LanrickMove) -> Result<Vec<LanrickEvent>, PlayError> {
        let mut events = Vec::new();
        match (self.phase, mv) {
            (Phase::Placement, LanrickMove::Place(sq)) => self.place(*sq, &mut events)?,
            (Phase::Mark, LanrickMove::Mark(sq)) => self.set_mark(*sq, &mut events)?,
            (Phase::Play, LanrickMove::Turn(steps)) => self.play_turn(steps, &mut events)?,
            (Phase::Capture, LanrickMove::Take(sq)) => self.take_man(*sq, &mut events)?,
            (Phase::Wanderers | Phase::Equalise | Phase::Return, LanrickMove::ToBorder(step)) => {
                self.move_to_border(*step, &mut events)?;
            }
            (Phase::Over, _) => return Err(PlayError::GameOver),
            (phase, _) => {
                return Err(Self::illegal(format!(
                    "this is not a move for the {} phase: {}",
                    phase.name(),
                    phase.asks()
                )));
            }
        }
        Ok(events)
    }

    /// Places a man on an empty border square (Rule 5); with all ten placed, White marks.
    fn place(&mut self, sq: Square, events: &mut Vec<LanrickEvent>) -> Result<(), PlayError> {
        let seat = self.c.side;
        if !sq.is_border() {
            return Err(Self::illegal(format!(
                "{sq} is in the field: men are placed on the border, the 28 edge squares (Rule 5)"
            )));
        }
        if self.occupied() & sq.bit() != 0 {
            return Err(Self::illegal(format!(
                "{sq} is already occupied; choose an empty border square"
            )));
        }
        self.c.men[seat.index()] |= sq.bit();
        events.push(LanrickEvent::Placed { seat, square: sq });
        if self.c.men.iter().all(|m| m.count_ones() == MEN) {
            self.phase = Phase::Mark;
            self.c.side = Seat::WHITE;
        } else {
            self.c.side = other(seat);
        }
        Ok(())
    }

    /// Sets the mark (Rules 3, 5) and begins a round with the other's opening turn (Rule 4).
    fn set_mark(&mut self, sq: Square, events: &mut Vec<LanrickEvent>) -> Result<(), PlayError> {
        let seat = self.c.side;
        let rival = other(seat);
        self.check_mark(sq)?;
        self.c.mark = Some(sq);
        self.c.seen.clear();
        self.phase = Phase::Play;
        self.c.side = rival;
        self.opening = true;
        events.push(LanrickEvent::MarkSet { seat, square: sq });
        if self.all_in(rival) {
            self.win_rendezvous(rival, events);
        } else {
            self.count_position(events);
            self.settle(events);
        }
        Ok(())
    }

    /// Plays a turn of steps (Rule 4), which may win the rendezvous (L3-5).
    fn play_turn(
        &mut self,
        steps: &[Step],
        events: &mut Vec<LanrickEvent>,
    ) -> Result<(), PlayError> {
        let seat = self.c.side;
        let rival = other(seat);
        let budget = self.budget().unwrap_or(0);
        let zone = self.rendezvous().unwrap_or(0);
        let checked = turns::check_turn(
            self.men(seat),
            self.men(rival),
            budget,
            zone,
            steps,
            name(rival),
            ManRule::SameLine,
        )
        .map_err(Self::illegal)?;
        self.c.men[seat.index()] = checked.own;
        self.opening = false;
        events.extend(steps.iter().map(|s| LanrickEvent::Stepped {
            seat,
            from: s.from,
            to: s.to,
        }));
        if checked.won {
            self.win_rendezvous(seat, events);
        } else {
            self.c.side = rival;
            self.count_position(events);
            self.settle(events);
        }
        Ok(())
    }

    /// The winner of the rendezvous takes the man on `sq` (Rule 6); the fourth wins (L3-11).
    fn take_man(&mut self, sq: Square, events: &mut Vec<LanrickEvent>) -> Result<(), PlayError> {
        let seat = self.c.side;
        if let Some(why) = self.c.take_refusal(seat, sq) {
            return Err(Self::illegal(why));
        }
        self.c.take(seat, sq);
        events.push(LanrickEvent::Took { seat, square: sq });
        if self.taken(seat) >= TO_WIN {
            self.finish(Outcome::Winner {
                team: team(seat),
                reason: EndReason::Goal,
            });
            events.push(LanrickEvent::GameWon { seat });
        } else {
            self.phase = Phase::Wanderers;
            self.settle(events);
        }
        Ok(())
    }

    /// Moves a man to the border: a wanderer (Rule 6), to equalise (Rule 7) or a return (Rule 8).
    fn move_to_border(
        &mut self,
        step: Step,
        events: &mut Vec<LanrickEvent>,
    ) -> Result<(), PlayError> {
        let seat = self.c.side;
        let rival = other(seat);
        let owner = if self.phase == Phase::Wanderers {
            rival
        } else {
            seat
        };
        self.check_to_border(step, owner)?;
        self.c.shift_man(owner, step);
        let reason = match self.phase {
            Phase::Wanderers => BorderReason::Wanderer,
            Phase::Equalise => BorderReason::Equalise,
            _ => BorderReason::Return,
        };
        events.push(LanrickEvent::ToBorder {
            seat,
            owner,
            from: step.from,
            to: step.to,
            reason,
        });
        if self.phase == Phase::Return {
            self.next_return(rival);
        }
        self.settle(events);
        Ok(())
    }

    fn check_mark(&self, sq: Square) -> Result<(), PlayError> {
        if sq.is_border() {
            return Err(Self::illegal(format!(
                "{sq} is on the border: the mark goes on a field square, b2 to g7 (Rule 3)"
            )));
        }
        if self.legal_marks() & sq.bit() != 0 {
            return Ok(());
        }
        let own = self.men(self.c.side);
        let inside = own & sq.zone();
        if inside != 0 {
            let men = if inside.count_ones() == 1 {
                "man"
            } else {
                "men"
            };
            return Err(Self::illegal(format!(
                "your {men} on {} would be in the rendezvous around {sq}; none of the setter's men may be in it (Rule 5)",
                list(inside)
            )));
        }
        let how = turns::winning_turn(own, self.men(other(self.c.side)), sq)
            .map(|steps| {
                steps
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        Err(Self::illegal(format!(
            "you could bring all your men into the rendezvous around {sq} in one turn ({how}); the setter must not be able to (Rule 5)"
        )))
    }

    fn check_to_border(&self, step: Step, owner: Seat) -> Result<(), PlayError> {
        let from = step.from;
        let candidates = self.men_for_border();
        if candidates & from.bit() == 0 {
            let whose = if self.phase == Phase::Wanderers {
                format!("{}'s wanderers: {}", name(owner), list(candidates))
            } else {
                format!("your men in the field: {}", list(candidates))
            };
            let why = if self.occupied() & from.bit() == 0 {
                format!("there is no man on {from}")
            } else if from.is_border() {
                format!("the man on {from} is already on the border")
            } else if self.men(owner) & from.bit() == 0 {
                format!("the man on {from} is not {}'s", name(owner))
            } else {
                format!("the man on {from} is in the rendezvous and stays there")
            };
            return Err(Self::illegal(format!(
                "{why}; the men to move to the border now are {whose}"
            )));
        }
        let allowed = border_destinations(from, self.occupied());
        if allowed & step.to.bit() == 0 {
            let why = if !step.to.is_border() {
                format!("{} is not a border square", step.to)
            } else if self.occupied() & step.to.bit() != 0 {
                format!("{} is occupied", step.to)
            } else {
                format!(
                    "the man on {from} must go along one of his lines to its end at the border, with the path clear if any line is (Rule 6)"
                )
            };
            return Err(Self::illegal(format!(
                "{step}: {why}; it may go to {}",
                list(allowed)
            )));
        }
        Ok(())
    }

    /// Every legal move in a fixed order (see the rules document).
    fn moves(&self) -> Vec<LanrickMove> {
        let seat = self.c.side;
        match self.phase {
            Phase::Placement => squares(BORDER & !self.occupied())
                .map(LanrickMove::Place)
                .collect(),
            Phase::Mark => squares(self.legal_marks()).map(LanrickMove::Mark).collect(),
            Phase::Play => {
                let zone = self.rendezvous().unwrap_or(0);
                let budget = self.budget().unwrap_or(0);
                turns::distinct_turns(
                    self.men(seat),
                    self.men(other(seat)),
                    budget,
                    zone,
                    ManRule::SameLine,
                )
                .into_iter()
                .map(|(_, p)| LanrickMove::Turn(p.steps().to_vec()))
                .collect()
            }
            Phase::Capture => squares(self.c.takeable(other(seat)))
                .map(LanrickMove::Take)
                .collect(),
            Phase::Wanderers | Phase::Equalise | Phase::Return => self
                .c
                .border_moves(self.men_for_border())
                .into_iter()
                .map(LanrickMove::ToBorder)
                .collect(),
            Phase::Over => Vec::new(),
        }
    }
}

impl Game for Lanrick {
    type Move = LanrickMove;
    type Event = LanrickEvent;

    common::game_methods!();

    fn parse_move(&self, text: &str) -> Result<LanrickMove, NotationError> {
        notation::resolve(self.phase, &parse_written(text)?, text)
    }

    fn position(&self) -> String {
        position::write(self)
    }

    fn state_json(&self) -> serde_json::Value {
        let mut state = self.c.state_json();
        state.insert("budget".into(), json!(self.budget()));
        state.insert(
            "last_loser".into(),
            json!(self.last_loser.map(|s| self.table().seat_name(s))),
        );
        serde_json::Value::Object(state)
    }
}
