//! Arithmetical Croquet (Lewis Carroll, 1889), in the variant where a player names how far he
//! moves, as ruled in docs/rules/croquet.md (C-1 … C-8).
//!
//! ```
//! use muster_rules::croquet::Croquet;
//! use muster_rules::{Game, Seat};
//!
//! let mut game = Croquet::new();
//! game.play_text(Seat::WHITE, "8").unwrap();   // White to 8
//! game.play_text(Seat::BLACK, "5").unwrap();   // Black to 5; White may not now play 5 or 4
//! assert!(game.play_text(Seat::WHITE, "4").is_err());
//! ```

mod position;
pub mod solve;

use serde::Serialize;
use serde_json::json;

use crate::game::{EndReason, Game, NotationError, Outcome, PlayError};
use crate::seat::{Seat, Table};

/// The winning peg (C-2).
pub const PEG: u8 = 100;
/// The longest step (C-1).
pub const MAX_STEP: u8 = 8;

/// Where a ball stands with respect to its target.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Below its target, free to advance.
    Normal,
    /// In the hoop it is aiming at; it must come out with the step that took it in (C-3).
    InHoop,
    /// Past its target after a miss; it must go back below it (C-4).
    Missed,
}

/// One player's ball.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Ball {
    /// The number it stands on.
    pub pos: u8,
    /// The hoop it must take next (10 … 90), or the peg (100).
    pub target: u8,
    /// Its status.
    pub status: Status,
    /// In a hoop: the step that took it in, the only one that takes it out (C-3).
    pub need: u8,
    /// Whether it has missed its current target once already (C-5).
    pub missed_once: bool,
}

impl Ball {
    const START: Ball = Ball {
        pos: 0,
        target: 10,
        status: Status::Normal,
        need: 0,
        missed_once: false,
    };

    /// Hoops taken so far.
    pub fn hoops_taken(&self) -> u8 {
        self.target / 10 - 1
    }
}

/// A step: how far a ball moves, forward (1 … 8) or back (-1 … -8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Step(pub i8);

impl Step {
    /// How many numbers the step covers, whatever its direction.
    pub fn size(self) -> u8 {
        self.0.unsigned_abs()
    }
}

/// Why a player had no legal step and passed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PassReason {
    /// His ball is in `hoop`, and the one step out is barred: he is kept in (C-3).
    KeptIn { hoop: u8 },
    /// His ball missed `target`, and every back step to below it is barred (C-4).
    MustGoBack { target: u8 },
    /// Every step he could play is barred (C-8).
    Barred,
}

/// What happened.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CroquetEvent {
    /// A ball moved from one number to another.
    Stepped {
        seat: Seat,
        step: i8,
        from: u8,
        to: u8,
    },
    /// The ball went into its hoop (C-2, C-3).
    InHoop { seat: Seat, hoop: u8 },
    /// The ball took its hoop (C-2, C-3).
    TookHoop { seat: Seat, hoop: u8 },
    /// The ball missed its hoop or the peg (C-2).
    Missed { seat: Seat, target: u8 },
    /// The player could not move and passed (C-3, C-4, C-8), for `why`.
    Passed { seat: Seat, why: PassReason },
    /// The game was won: on the peg, or by the other's second miss.
    Won { seat: Seat },
}

/// A game of Arithmetical Croquet.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Croquet {
    balls: [Ball; 2],
    side: Seat,
    /// The step size barred (with 9 − it) for the side to move this turn; 0 for none (C-6).
    bar: u8,
    /// Per seat: the size of his previous step, if it was made while the other was in a hoop
    /// and was one of the two steps that keep him in (C-7); else 0.
    run: [u8; 2],
    outcome: Option<Outcome>,
}

impl Default for Croquet {
    fn default() -> Self {
        Croquet::new()
    }
}

fn other(seat: Seat) -> Seat {
    seat.opponent()
}

fn name(seat: Seat) -> &'static str {
    seat.colour()
}

fn between_90_and_100(n: u8) -> bool {
    (91..=99).contains(&n)
}

/// A ball (`before`, of `me`) in its hoop coming out with its step to `to`: it has taken the
/// hoop and aims at the next.
fn came_out(me: Seat, before: Ball, to: u8, events: &mut Vec<CroquetEvent>) -> Ball {
    events.push(CroquetEvent::TookHoop {
        seat: me,
        hoop: before.target,
    });
    Ball {
        pos: to,
        target: before.target + 10,
        status: Status::Normal,
        need: 0,
        missed_once: false,
    }
}

impl Croquet {
    /// Both balls at 0, White to play.
    pub fn new() -> Croquet {
        Croquet {
            balls: [Ball::START; 2],
            side: Seat::WHITE,
            bar: 0,
            run: [0, 0],
            outcome: None,
        }
    }

    /// A seat's ball.
    pub fn ball(&self, seat: Seat) -> Ball {
        self.balls[seat.index()]
    }

    /// Step sizes the player to move may not use this turn because of the other's last step
    /// (C-6), as the pair {s, 9 − s}; empty when nothing is barred.
    pub fn barred(&self) -> Vec<u8> {
        if self.bar == 0 {
            Vec::new()
        } else {
            vec![self.bar.min(9 - self.bar), self.bar.max(9 - self.bar)]
        }
    }

    /// The step size the player to move may not repeat while the other is in a hoop (C-7).
    pub fn run_forbidden(&self) -> Option<u8> {
        let me = self.side.index();
        let them = self.balls[1 - me];
        (them.status == Status::InHoop && self.run[me] != 0).then_some(self.run[me])
    }

    fn is_barred(&self, size: u8) -> bool {
        self.bar != 0 && (size == self.bar || size == 9 - self.bar)
    }

    /// Every step the rules allow the player to move, before bars (C-1 … C-4).
    fn candidate_steps(&self) -> Vec<Step> {
        let ball = self.ball(self.side);
        match ball.status {
            Status::InHoop => vec![Step(ball.need as i8)],
            Status::Missed => (1..=MAX_STEP as i8)
                .map(|s| Step(-s))
                .filter(|s| (ball.pos as i16 + s.0 as i16) < ball.target as i16)
                .collect(),
            Status::Normal => (1..=MAX_STEP as i8).map(Step).collect(),
        }
    }

    /// Why `step` may not be played now, if it may not.
    fn refusal(&self, step: Step) -> Option<String> {
        let ball = self.ball(self.side);
        let size = step.size();
        if size == 0 || size > MAX_STEP {
            return Some(format!(
                "a step is 1 to {MAX_STEP} forward or -1 to -{MAX_STEP} back (C-1)"
            ));
        }
        match ball.status {
            Status::InHoop if step.0 != ball.need as i8 => {
                return Some(format!(
                    "your ball is in hoop {} and can come out only with {}, the step that took it in (C-3)",
                    ball.target, ball.need
                ));
            }
            Status::Missed if step.0 > 0 => {
                return Some(format!(
                    "your ball missed {}: it must first go back below {} with a back step, -1 to -8 (C-4)",
                    target_name(ball.target),
                    ball.target
                ));
            }
            Status::Missed if ball.pos as i16 + step.0 as i16 >= ball.target as i16 => {
                return Some(format!(
                    "{} would leave your ball on {}, not below {} (C-4)",
                    step.0,
                    ball.pos as i16 + step.0 as i16,
                    ball.target
                ));
            }
            Status::Normal | Status::InHoop if step.0 < 0 => {
                return Some(
                    "a back step is played only to return below a missed hoop or peg (C-4)".into(),
                );
            }
            _ => {}
        }
        if self.is_barred(size) {
            return Some(format!(
                "{} and {} are barred this turn by {}'s last step (C-6)",
                self.bar.min(9 - self.bar),
                self.bar.max(9 - self.bar),
                name(other(self.side))
            ));
        }
        if self.run_forbidden() == Some(size) {
            return Some(format!(
                "you played {size} last turn while {} was in the hoop: you may not play it twice running; play {} or another step (C-7)",
                name(other(self.side)),
                9 - size
            ));
        }
        None
    }

    /// The legal steps of the player to move, in a fixed order: forward steps 1 … 8, then back
    /// steps -1 … -8.
    pub fn legal_steps(&self) -> Vec<Step> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let mut steps: Vec<Step> = self
            .candidate_steps()
            .into_iter()
            .filter(|s| self.refusal(*s).is_none())
            .collect();
        steps.sort_by_key(|s| (s.0 < 0, s.0.unsigned_abs()));
        steps
    }

    fn finish(&mut self, winner: Seat, events: &mut Vec<CroquetEvent>) {
        self.outcome = Some(Outcome::Winner {
            team: Table::TWO_PLAYERS.team_of(winner),
            reason: EndReason::Goal,
        });
        events.push(CroquetEvent::Won { seat: winner });
    }

    /// Plays `step` for the side to move, which must be legal.
    fn apply(&mut self, step: Step, events: &mut Vec<CroquetEvent>) {
        let me = self.side;
        let them = other(me);
        let before = self.ball(me);
        let opponent = self.ball(them);
        let to = (before.pos as i16 + step.0 as i16) as u8;
        events.push(CroquetEvent::Stepped {
            seat: me,
            step: step.0,
            from: before.pos,
            to,
        });
        let (ball, into_hoop) = match before.status {
            Status::InHoop => (came_out(me, before, to, events), false),
            Status::Missed => {
                let mut ball = before;
                ball.pos = to;
                ball.status = Status::Normal;
                (ball, false)
            }
            Status::Normal => match self.advance(me, before, step, to, events) {
                Some(moved) => moved,
                None => return,
            },
        };
        self.balls[me.index()] = ball;
        // C-6: what this step bars on the other's next turn.
        let bars =
            !into_hoop && (!between_90_and_100(before.pos) || between_90_and_100(opponent.pos));
        self.bar = if bars { step.size() } else { 0 };
        // C-7: remember a keeping-in step made while the other was already in his hoop.
        let keeps_in = opponent.status == Status::InHoop
            && (step.size() == opponent.need || step.size() == 9 - opponent.need);
        self.run[me.index()] = if keeps_in { step.size() } else { 0 };
        if ball.status != Status::InHoop {
            self.run[them.index()] = 0;
        }
        self.side = them;
        self.settle(events);
    }

    /// A free ball (`before`, of `me`) stepping `step` to `to`: short of its target, into its
    /// hoop, through it, or a miss. The ball and whether it went into its hoop; `None` once
    /// the step has ended the game (on the peg, or a second miss), the ball then put down.
    fn advance(
        &mut self,
        me: Seat,
        before: Ball,
        step: Step,
        to: u8,
        events: &mut Vec<CroquetEvent>,
    ) -> Option<(Ball, bool)> {
        let mut ball = before;
        let t = before.target;
        ball.pos = to;
        if to < t {
        } else if to == t {
            if t == PEG {
                self.balls[me.index()] = ball;
                self.finish(me, events);
                return None;
            }
            ball.status = Status::InHoop;
            ball.need = step.0 as u8;
            events.push(CroquetEvent::InHoop { seat: me, hoop: t });
            return Some((ball, true));
        } else if t < PEG && to as u16 == 2 * t as u16 - before.pos as u16 {
            ball = Ball {
                pos: to,
                target: t + 10,
                status: Status::Normal,
                need: 0,
                missed_once: false,
            };
            events.push(CroquetEvent::TookHoop { seat: me, hoop: t });
        } else {
            events.push(CroquetEvent::Missed {
                seat: me,
                target: t,
            });
            ball.status = Status::Missed;
            if before.missed_once {
                self.balls[me.index()] = ball;
                self.finish(other(me), events);
                return None;
            }
            ball.status = Status::Missed;
            ball.missed_once = true;
        }
        Some((ball, false))
    }

    /// Passes for players who have no legal step (C-3, C-4, C-8). Two passes can follow each
    /// other: a ball at T−1 that misses with 8 bars the other, in his hoop needing 1 or 8, who
    /// passes; its only way back, −8, is then forbidden by C-7, so it passes too. After two passes
    /// the bar is lifted and both runs are broken, so the first passer can move: never three.
    fn settle(&mut self, events: &mut Vec<CroquetEvent>) {
        for _ in 0..2 {
            if self.outcome.is_some() || !self.legal_steps().is_empty() {
                return;
            }
            let ball = self.ball(self.side);
            let why = match ball.status {
                Status::InHoop => PassReason::KeptIn { hoop: ball.target },
                Status::Missed => PassReason::MustGoBack {
                    target: ball.target,
                },
                Status::Normal => PassReason::Barred,
            };
            events.push(CroquetEvent::Passed {
                seat: self.side,
                why,
            });
            self.run[self.side.index()] = 0;
            self.bar = 0;
            self.side = other(self.side);
        }
    }

    /// The value of a finished game for the side that would move next.
    fn state_ball(&self, seat: Seat) -> serde_json::Value {
        let b = self.ball(seat);
        let status = match b.status {
            Status::Normal => "normal",
            Status::InHoop => "in-hoop",
            Status::Missed => "missed",
        };
        json!({
            "pos": b.pos,
            "target": b.target,
            "status": status,
            "need": (b.status == Status::InHoop).then_some(b.need),
            "missed_once": b.missed_once,
            "hoops_taken": b.hoops_taken(),
        })
    }
}

/// `hoop 20` or `the peg`.
pub fn target_name(target: u8) -> String {
    if target == PEG {
        "the peg".into()
    } else {
        format!("hoop {target}")
    }
}

/// Reads a step: exactly `1` … `8`, or `-1` … `-8` (surrounding spaces are ignored).
pub fn parse_step(text: &str) -> Result<Step, NotationError> {
    let t = text.trim();
    let (sign, digit) = match t.as_bytes() {
        [d] => (1, *d),
        [b'-', d] => (-1, *d),
        _ => (0, 0),
    };
    match digit {
        b'1'..=b'8' => Ok(Step(sign * (digit - b'0') as i8)),
        b'0' | b'9' => Err(NotationError::new(
            t,
            "a step is 1 to 8 forward or -1 to -8 back (C-1)",
        )),
        _ => Err(NotationError::new(
            t,
            "not a step: write how far to move, 1 to 8, or -1 to -8 back after a miss",
        )),
    }
}

impl Game for Croquet {
    type Move = Step;
    type Event = CroquetEvent;

    fn table(&self) -> &'static Table {
        &Table::TWO_PLAYERS
    }

    fn to_move(&self) -> Option<Seat> {
        self.outcome.is_none().then_some(self.side)
    }

    fn phase_name(&self) -> &'static str {
        if self.outcome.is_some() {
            "over"
        } else {
            "play"
        }
    }

    fn legal_moves(&self) -> Vec<Step> {
        self.legal_steps()
    }

    fn play(&mut self, seat: Seat, step: &Step) -> Result<Vec<CroquetEvent>, PlayError> {
        crate::game::play_checked(self, seat, |next| {
            if let Some(why) = next.refusal(*step) {
                return Err(PlayError::Illegal(why));
            }
            let mut events = Vec::new();
            next.apply(*step, &mut events);
            Ok(events)
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn parse_move(&self, text: &str) -> Result<Step, NotationError> {
        parse_step(text)
    }

    fn format_move(&self, step: &Step) -> String {
        step.0.to_string()
    }

    fn position(&self) -> String {
        position::write(self)
    }

    fn state_json(&self) -> serde_json::Value {
        json!({
            "balls": {"white": self.state_ball(Seat::WHITE), "black": self.state_ball(Seat::BLACK)},
            "barred": self.barred(),
            "run_forbidden": self.run_forbidden(),
        })
    }

    fn agree_draw(&mut self) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        self.outcome = Some(Outcome::AGREED);
        Ok(())
    }

    fn resign(&mut self, seat: Seat) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        self.outcome = Some(Outcome::resignation(self.table(), seat));
        Ok(())
    }

    fn time_out(&mut self, seat: Seat) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        self.outcome = Some(Outcome::time(self.table(), seat));
        Ok(())
    }
}
