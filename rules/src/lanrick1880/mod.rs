//! Lanrick, first version (Lewis Carroll, The Monthly Packet, December 1880), with Carroll's
//! answers of March and June 1881, as ruled in docs/rules/lanrick1880.md (L0-1 … L0-7). It
//! shares the board, lines, turn search and moves to the border with the Third Edition
//! ([`crate::lanrick`]).
//!
//! ```
//! use muster_rules::lanrick1880::Lanrick1880;
//! use muster_rules::{Game, Seat};
//!
//! let mut game = Lanrick1880::new();
//! game.play_text(Seat::WHITE, "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7").unwrap();
//! game.play_text(Seat::BLACK, "d4").unwrap();          // Black chooses the rendezvous
//! game.play_text(Seat::WHITE, "*d5").unwrap();         // White shifts the mark instead of moving
//! assert_eq!(game.phase_name(), "play");
//! ```

mod notation;
mod play;

use serde::Serialize;
use serde_json::json;

use crate::game::{EndReason, Game, NotationError, Outcome, PlayError};
use crate::lanrick::common::{self, Common, list};
use crate::lanrick::position::{board_field, read_board};
use crate::lanrick::turns::{self, ManRule};
use crate::lanrick::{Direction, FIELD, Square, Squares, Step, squares};
use crate::seat::{Seat, Table};

/// Men each player has (Rule 1).
pub const MEN: u32 = 5;

/// What the game is waiting for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// White sets all ten men on the border (Rule 2, L0-1).
    Setup,
    /// The chooser picks the rendezvous (Rule 3, L0-2, L0-6).
    Choose,
    /// Playing for the rendezvous (Rules 4, 5).
    Play,
    /// The winner takes a man (Rule 6).
    Capture,
    /// The winner moves the loser's wanderers to the border (Rule 6).
    Wanderers,
    /// The game is over.
    Over,
}

impl Phase {
    /// The machine interface's name.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Choose => "choose",
            Phase::Play => "play",
            Phase::Capture => "capture",
            Phase::Wanderers => "wanderers",
            Phase::Over => "over",
        }
    }

    fn from_name(name: &str) -> Option<Phase> {
        [
            Phase::Setup,
            Phase::Choose,
            Phase::Play,
            Phase::Capture,
            Phase::Wanderers,
            Phase::Over,
        ]
        .into_iter()
        .find(|p| p.name() == name)
    }

    /// What a move looks like in this phase.
    pub fn asks(self) -> &'static str {
        match self {
            Phase::Setup => {
                "set all ten men on the border, such as W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7"
            }
            Phase::Choose => "choose the rendezvous by its centre square, such as d4",
            Phase::Play => {
                "play a turn as steps from-to, each man once, such as c1-c3 d1-e2; or shift the mark, such as *e5"
            }
            Phase::Capture => "take a man with x and his square, such as xe5",
            Phase::Wanderers => "move a wanderer to the border with one step, such as e5-e1",
            Phase::Over => "nothing: the game is over",
        }
    }
}

/// One decision.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// All ten men set on the border (L0-1).
    Setup {
        /// White's five.
        white: Squares,
        /// Black's five.
        black: Squares,
    },
    /// The rendezvous chosen by its centre (L0-2).
    Choose(Square),
    /// Steps, each man at most once (L0-3).
    Turn(Vec<Step>),
    /// The mark shifted one square, to this new centre (L0-4).
    Shift(Square),
    /// The winner takes the man on this square (L0-5).
    Take(Square),
    /// A wanderer moved to the border (L0-5).
    ToBorder(Step),
}

/// What happened.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// White set up the men.
    SetUp,
    /// The rendezvous was chosen.
    Chosen { seat: Seat, square: Square },
    /// The mark was shifted, carrying the men in the rendezvous (from, to).
    Shifted {
        seat: Seat,
        from: Square,
        to: Square,
        carried: Vec<(Square, Square)>,
    },
    /// One step of a turn.
    Stepped {
        seat: Seat,
        from: Square,
        to: Square,
    },
    /// No legal step or shift: a pass.
    Passed { seat: Seat },
    /// All the player's men are in the rendezvous.
    RendezvousWon { seat: Seat },
    /// The winner took a man.
    Took { seat: Seat, square: Square },
    /// The winner moved a wanderer to the border.
    ToBorder {
        seat: Seat,
        from: Square,
        to: Square,
    },
    /// The other has no men left.
    GameWon { seat: Seat },
    /// Drawn by repetition.
    Drawn { reason: EndReason },
}

/// A position counted for repetition (L0-7, L3-12), with the shifting privilege.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Counted {
    men: [Squares; 2],
    mark: Option<Square>,
    side: Seat,
    shifter: Option<Seat>,
}

/// A game of Lanrick, first version.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Lanrick1880 {
    /// What both editions keep: men, mark, taken, side, result, positions counted.
    c: Common<Counted>,
    phase: Phase,
    shifter: Option<Seat>,
}

impl Default for Lanrick1880 {
    fn default() -> Self {
        Lanrick1880::new()
    }
}

/// `man on e4` or `men on e4, e5`.
fn men_on(set: Squares) -> String {
    let men = if set.count_ones() == 1 { "man" } else { "men" };
    format!("{men} on {}", list(set))
}

fn illegal(reason: String) -> PlayError {
    PlayError::Illegal(reason)
}

/// The direction of a one-square move from `from` to `to`, if they are neighbours.
fn one_step(from: Square, to: Square) -> Option<Direction> {
    Direction::ALL
        .into_iter()
        .find(|d| from.go(*d, 1) == Some(to))
}

/// A seat field of a position string: `w`, `b`, or `-` for none.
fn seat_field(c: &str) -> Result<Option<Seat>, String> {
    match c {
        "w" => Ok(Some(Seat::WHITE)),
        "b" => Ok(Some(Seat::BLACK)),
        "-" => Ok(None),
        o => Err(format!("`{o}` is not w, b or -")),
    }
}

/// The mark field of a position string: a square, or `-` for none.
fn mark_field(m: &str) -> Result<Option<Square>, String> {
    match m {
        "-" => Ok(None),
        m => Ok(Some(
            m.parse::<Square>()
                .map_err(|()| format!("mark `{m}` is not a square"))?,
        )),
    }
}

/// The taken field of a position string: men taken by White and by Black, such as `1-0`.
fn taken_field(t: &str) -> Result<[u8; 2], String> {
    match t
        .split_once('-')
        .map(|(a, b)| (a.parse::<u8>(), b.parse::<u8>()))
    {
        Some((Ok(a), Ok(b))) if a <= 5 && b <= 5 => Ok([a, b]),
        _ => Err(format!("taken `{t}` is not two counts such as 1-0")),
    }
}

/// After the set-up, each player has five men less those the other has taken.
fn check_men_count(phase: Phase, men: [Squares; 2], taken: [u8; 2]) -> Result<(), String> {
    for (i, s) in [Seat::WHITE, Seat::BLACK].into_iter().enumerate() {
        let expected = MEN - taken[1 - i] as u32;
        if phase != Phase::Setup && men[i].count_ones() != expected {
            return Err(format!(
                "{} has {} men but should have {expected}",
                s.colour(),
                men[i].count_ones()
            ));
        }
    }
    Ok(())
}

/// The result a position string gives: in the over phase, the winner named by the side field,
/// or a draw for `=`.
fn outcome_field(phase: Phase, side_field: &str, side: Seat) -> Option<Outcome> {
    match (phase, side_field) {
        (Phase::Over, "=") => Some(Outcome::Draw {
            reason: EndReason::Repetition,
        }),
        (Phase::Over, _) => Some(Outcome::Winner {
            team: Table::TWO_PLAYERS.team_of(side),
            reason: EndReason::Goal,
        }),
        _ => None,
    }
}

impl Lanrick1880 {
    common::accessors!();

    /// A new game: White sets up the men (L0-1).
    pub fn new() -> Lanrick1880 {
        Lanrick1880 {
            c: Common::new(),
            phase: Phase::Setup,
            shifter: None,
        }
    }

    /// Who may still shift the mark this round (L0-4).
    pub fn shifter(&self) -> Option<Seat> {
        self.shifter
    }

    /// The budget of the player to move in play: his men on the board (L0-3).
    pub fn budget(&self) -> Option<u8> {
        (self.phase == Phase::Play).then(|| self.men(self.c.side).count_ones() as u8)
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
            self.men(seat.opponent()),
            self.budget().unwrap_or(0),
            self.rendezvous().unwrap_or(0),
            prefix,
            ManRule::Once,
        )
    }

    /// The men a shift of the mark would carry: every man in the rendezvous (L0-4).
    pub fn carried(&self) -> Squares {
        self.rendezvous().unwrap_or(0) & self.occupied()
    }

    /// Where the player to move could shift the mark now, with why not for the others.
    fn shift_refusal(&self, to: Square) -> Option<String> {
        let seat = self.c.side;
        let Some(mark) = self.c.mark else {
            return Some("there is no mark to shift".into());
        };
        if self.phase != Phase::Play || self.shifter != Some(seat) {
            return Some(
                "the mark cannot be shifted now: only the player who did not choose the rendezvous may shift it, and only until he first moves one of his men this round (Rule 5)"
                    .into(),
            );
        }
        let Some(dir) = one_step(mark, to) else {
            return Some(format!(
                "*{to}: the mark moves one square, to a neighbour of {mark} (Rule 5)"
            ));
        };
        if to.is_border() {
            return Some(format!(
                "*{to}: the mark may not go to a border square (Rule 5)"
            ));
        }
        let old = mark.zone();
        let mine = self.men(seat);
        if mine & old != 0 {
            let verb = if (mine & old).count_ones() == 1 {
                "is"
            } else {
                "are"
            };
            return Some(format!(
                "*{to}: your {} {verb} in the rendezvous and would be carried into the new one, which may not include your men (Rule 5)",
                men_on(mine & old)
            ));
        }
        let new = to.zone();
        if mine & new != 0 {
            return Some(format!(
                "*{to}: the new rendezvous would include your {} (Rule 5)",
                men_on(mine & new)
            ));
        }
        let carried = old & self.occupied();
        let stay = self.occupied() & !carried;
        for s in squares(carried) {
            if let Some(t) = s.go(dir, 1)
                && stay & t.bit() != 0
            {
                return Some(format!(
                    "*{to}: the man on {s} would be carried onto the man on {t}; the mark may not move that way (Rule 5)"
                ));
            }
        }
        None
    }

    /// The squares the mark may be shifted to now (L0-4).
    pub fn legal_shifts(&self) -> Vec<Square> {
        let Some(mark) = self.c.mark else {
            return Vec::new();
        };
        let mut out: Vec<Square> = Direction::ALL
            .into_iter()
            .filter_map(|d| mark.go(d, 1))
            .filter(|to| self.shift_refusal(*to).is_none())
            .collect();
        out.sort();
        out
    }

    /// Centres the chooser may pick: blocks holding none of his men; if every block holds one,
    /// any block (our decision, docs/rules/lanrick1880.md).
    pub fn legal_centres(&self) -> Squares {
        if self.phase != Phase::Choose {
            return 0;
        }
        let mine = self.men(self.c.side);
        let free = squares(FIELD)
            .filter(|c| c.zone() & mine == 0)
            .fold(0, |a, c| a | c.bit());
        if free != 0 { free } else { FIELD }
    }

    fn all_in(&self, seat: Seat) -> bool {
        self.c.all_in(seat)
    }

    fn wanderers(&self) -> Squares {
        self.c.wanderers(self.c.side.opponent())
    }

    fn finish(&mut self, outcome: Outcome) {
        self.c.outcome = Some(outcome);
        self.phase = Phase::Over;
    }

    fn count_position(&mut self, events: &mut Vec<Event>) {
        let now = Counted {
            men: self.c.men,
            mark: self.c.mark,
            side: self.c.side,
            shifter: self.shifter,
        };
        if self.c.count(now) {
            self.finish(Outcome::Draw {
                reason: EndReason::Repetition,
            });
            events.push(Event::Drawn {
                reason: EndReason::Repetition,
            });
        }
    }

    fn win_rendezvous(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.phase = Phase::Capture;
        self.c.side = seat;
        self.shifter = None;
        events.push(Event::RendezvousWon { seat });
    }

    /// After a turn or shift by the side to move: checks the rendezvous (L0-5) and passes on.
    fn after_turn(&mut self, events: &mut Vec<Event>) {
        let (me, them) = (self.c.side, self.c.side.opponent());
        if self.all_in(me) {
            return self.win_rendezvous(me, events);
        }
        if self.all_in(them) {
            return self.win_rendezvous(them, events);
        }
        self.c.side = them;
        self.count_position(events);
        self.settle(events);
    }

    /// Passes for a player with neither a step nor a shift, and skipped wanderer phases.
    fn settle(&mut self, events: &mut Vec<Event>) {
        loop {
            match self.phase {
                Phase::Wanderers if self.wanderers() == 0 => {
                    self.phase = Phase::Choose;
                    self.c.side = self.c.side.opponent();
                    return;
                }
                Phase::Play if !self.c.can_step(self.c.side) && self.legal_shifts().is_empty() => {
                    events.push(Event::Passed { seat: self.c.side });
                    self.c.side = self.c.side.opponent();
                    self.count_position(events);
                }
                _ => return,
            }
        }
    }

    fn moves(&self) -> Vec<Move> {
        let seat = self.c.side;
        match self.phase {
            // Every way of setting ten men on 28 squares: far too many to list (see the rules
            // document); `legal_move_count` gives their number.
            Phase::Setup => Vec::new(),
            Phase::Choose => squares(self.legal_centres()).map(Move::Choose).collect(),
            Phase::Play => {
                let zone = self.rendezvous().unwrap_or(0);
                let budget = self.budget().unwrap_or(0);
                let mut out: Vec<Move> = self.legal_shifts().into_iter().map(Move::Shift).collect();
                out.extend(
                    turns::distinct_turns(
                        self.men(seat),
                        self.men(seat.opponent()),
                        budget,
                        zone,
                        ManRule::Once,
                    )
                    .into_iter()
                    .map(|(_, p)| Move::Turn(p.steps().to_vec())),
                );
                out
            }
            Phase::Capture => squares(self.c.takeable(seat.opponent()))
                .map(Move::Take)
                .collect(),
            Phase::Wanderers => self
                .c
                .border_moves(self.wanderers())
                .into_iter()
                .map(Move::ToBorder)
                .collect(),
            Phase::Over => Vec::new(),
        }
    }

    /// How many legal moves there are (in the set-up phase, the number of ways to set the men).
    pub fn legal_move_count(&self) -> u64 {
        if self.phase == Phase::Setup {
            // C(28, 5) places for White's men, then C(23, 5) for Black's.
            98_280 * 33_649
        } else {
            self.moves().len() as u64
        }
    }

    /// Reads a position string: `<board> <phase> <side> <mark> <taken> <shifter>`.
    pub fn from_position(text: &str) -> Result<Lanrick1880, String> {
        let f: Vec<&str> = text.split_whitespace().collect();
        if f.len() != 6 {
            return Err(format!(
                "expected 6 fields (board phase side mark taken shifter), found {}",
                f.len()
            ));
        }
        let mut errors = Vec::new();
        let men = read_board(f[0], &mut errors);
        let phase = Phase::from_name(f[1]).ok_or_else(|| format!("unknown phase `{}`", f[1]))?;
        let side = if phase == Phase::Over && f[2] == "=" {
            Seat::WHITE
        } else {
            seat_field(f[2])?.ok_or("the side to move is w or b")?
        };
        let mark = mark_field(f[3])?;
        let taken = taken_field(f[4])?;
        let shifter = seat_field(f[5])?;
        if !errors.is_empty() {
            return Err(errors.join("; "));
        }
        check_men_count(phase, men, taken)?;
        let mut game = Lanrick1880 {
            c: Common {
                men,
                mark,
                taken,
                side,
                outcome: outcome_field(phase, f[2], side),
                seen: Vec::new(),
            },
            phase,
            shifter,
        };
        game.validate()?;
        if phase == Phase::Play {
            game.c.seen.push(Counted {
                men,
                mark,
                side,
                shifter,
            });
        }
        Ok(game)
    }

    /// Checks that a position read from a string is one the rules can reach in its phase.
    fn validate(&self) -> Result<(), String> {
        let phase = self.phase;
        if let Some(m) = self.c.mark
            && m.is_border()
        {
            return Err(format!(
                "the mark {m} is on the border; centres are b2 to g7"
            ));
        }
        if phase == Phase::Setup {
            let empty = self.occupied() == 0 && self.c.mark.is_none() && self.c.taken == [0, 0];
            if !empty || self.c.side != Seat::WHITE || self.shifter.is_some() {
                return Err(
                    "before the set-up the board is empty, there is no mark, and White is to move"
                        .into(),
                );
            }
            return Ok(());
        }
        if self.c.men[0] & self.c.men[1] != 0 {
            return Err("a square holds two men".into());
        }
        let needs_mark = matches!(phase, Phase::Play | Phase::Capture | Phase::Wanderers);
        if needs_mark && self.c.mark.is_none() {
            return Err(format!("the {} phase needs a mark", phase.name()));
        }
        if phase != Phase::Over && (self.c.men[0] == 0 || self.c.men[1] == 0) {
            return Err("a player with no men has lost: the phase must be over".into());
        }
        match phase {
            Phase::Play if self.all_in(Seat::WHITE) || self.all_in(Seat::BLACK) => {
                Err("a player has all his men in the rendezvous: it has been won".into())
            }
            Phase::Capture | Phase::Wanderers if !self.all_in(self.c.side) => Err(format!(
                "in the {} phase the side to move has won the rendezvous: all his men are in it",
                phase.name()
            )),
            Phase::Capture | Phase::Wanderers | Phase::Choose if self.shifter.is_some() => {
                Err("only during play may someone hold the right to shift the mark".into())
            }
            Phase::Wanderers if self.wanderers() == 0 => {
                Err("no wanderer is left to move to the border".into())
            }
            _ => Ok(()),
        }
    }

    fn write_position(&self) -> String {
        let letter = |s: Seat| if s == Seat::WHITE { "w" } else { "b" };
        let side = match self.c.outcome {
            Some(Outcome::Winner { team, .. }) => {
                if team.index() == 0 {
                    "w"
                } else {
                    "b"
                }
            }
            Some(Outcome::Draw { .. }) => "=",
            None => letter(self.c.side),
        };
        format!(
            "{} {} {side} {} {}-{} {}",
            board_field(self.c.men),
            self.phase.name(),
            self.c.mark.map_or("-".into(), |m| m.to_string()),
            self.c.taken[0],
            self.c.taken[1],
            self.shifter.map_or("-", letter)
        )
    }
}

impl Game for Lanrick1880 {
    type Move = Move;
    type Event = Event;

    common::game_methods!();

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        notation::parse(self.phase, text)
    }

    fn position(&self) -> String {
        self.write_position()
    }

    fn state_json(&self) -> serde_json::Value {
        let mut state = self.c.state_json();
        state.insert("budget".into(), json!(self.budget()));
        state.insert(
            "shifter".into(),
            json!(self.shifter.map(|s| self.table().seat_name(s))),
        );
        serde_json::Value::Object(state)
    }
}
