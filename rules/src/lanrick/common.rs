//! What both editions of Lanrick keep of a game and decide alike: each side's men, the mark and
//! its rendezvous, the men each side has taken, whose decision it is, the result, and the
//! positions counted for the repetition rule; taking a man after a won rendezvous, the men that
//! can still step, the loser's wanderers and where a man may go to the border. Each edition
//! keeps its phases and its own rules on top ([`crate::lanrick`], [`crate::lanrick1880`]); the
//! search ([`crate::search`]) reads both through this part.

use serde_json::json;

use super::board::{FIELD, Square, Squares, border_destinations, squares};
use super::turns::Step;
use crate::game::{Outcome, PlayError};
use crate::seat::Seat;

/// Where a round stands, in words both editions share (the search values a position by it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Stage {
    /// Playing for the rendezvous.
    Racing,
    /// The winner of the rendezvous is to take a man.
    Taking,
    /// The winner is to move the loser's wanderers to the border.
    Wanderers,
    /// Anything else: placing or setting out men, choosing the rendezvous, the end.
    Between,
}

/// The state both editions share; `K` is what an edition counts for the repetition rule.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Common<K> {
    /// Each side's men, White's first.
    pub(crate) men: [Squares; 2],
    /// The mark, the centre of the rendezvous.
    pub(crate) mark: Option<Square>,
    /// The men each side has taken.
    pub(crate) taken: [u8; 2],
    /// Whose decision it is (the winner, once the game is over).
    pub(crate) side: Seat,
    /// The result, once the game is over.
    pub(crate) outcome: Option<Outcome>,
    /// The positions counted since the mark was last set.
    pub(crate) seen: Vec<K>,
}

/// `a1, c3, e5`: squares as a list.
pub(crate) fn list(set: Squares) -> String {
    squares(set)
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl<K: PartialEq + Copy> Common<K> {
    /// An empty board, White to decide.
    pub(crate) fn new() -> Common<K> {
        Common {
            men: [0, 0],
            mark: None,
            taken: [0, 0],
            side: Seat::WHITE,
            outcome: None,
            seen: Vec::new(),
        }
    }

    /// The squares of `seat`'s men.
    pub(crate) fn men(&self, seat: Seat) -> Squares {
        self.men[seat.index()]
    }

    /// Every occupied square.
    pub(crate) fn occupied(&self) -> Squares {
        self.men[0] | self.men[1]
    }

    /// The rendezvous: the mark's square and its eight neighbours.
    pub(crate) fn rendezvous(&self) -> Option<Squares> {
        self.mark.map(Square::zone)
    }

    /// Whether all of `seat`'s men are in the rendezvous (Rule 6: he has won it).
    pub(crate) fn all_in(&self, seat: Seat) -> bool {
        let men = self.men(seat);
        self.rendezvous().is_some_and(|z| men != 0 && men & !z == 0)
    }

    /// Whether any of `seat`'s men has an empty neighbour to step to.
    pub(crate) fn can_step(&self, seat: Seat) -> bool {
        let free = !self.occupied();
        squares(self.men(seat)).any(|s| s.zone() & free != 0)
    }

    /// The men of `loser` that the winner of the rendezvous may take: those outside it.
    pub(crate) fn takeable(&self, loser: Seat) -> Squares {
        self.men(loser) & !self.rendezvous().unwrap_or(0)
    }

    /// `loser`'s wanderers: his men neither in the rendezvous nor on the border (Rule 6).
    pub(crate) fn wanderers(&self, loser: Seat) -> Squares {
        self.takeable(loser) & FIELD
    }

    /// Why `seat` (who won the rendezvous) may not take the man on `sq`, if he may not.
    pub(crate) fn take_refusal(&self, seat: Seat, sq: Square) -> Option<String> {
        let rival = seat.opponent();
        if self.men(rival) & sq.bit() == 0 {
            return Some(if self.men(seat) & sq.bit() != 0 {
                format!(
                    "the man on {sq} is your own: take one of {}'s men",
                    rival.colour()
                )
            } else {
                format!(
                    "there is no man on {sq}: take one of {}'s men",
                    rival.colour()
                )
            });
        }
        if self.takeable(rival) & sq.bit() == 0 {
            return Some(format!(
                "the man on {sq} is in the rendezvous: take one who is not in ({}) (Rule 6)",
                list(self.takeable(rival))
            ));
        }
        None
    }

    /// `seat` takes the man on `sq` (checked by [`Common::take_refusal`]).
    pub(crate) fn take(&mut self, seat: Seat, sq: Square) {
        self.men[seat.opponent().index()] &= !sq.bit();
        self.taken[seat.index()] += 1;
    }

    /// Moves `owner`'s man along `step`.
    pub(crate) fn shift_man(&mut self, owner: Seat, step: Step) {
        self.men[owner.index()] ^= step.from.bit() ^ step.to.bit();
    }

    /// Every move to the border of the men on `from` (each along its lines, Rule 6), in order.
    pub(crate) fn border_moves(&self, from: Squares) -> Vec<Step> {
        squares(from)
            .flat_map(|from| {
                squares(border_destinations(from, self.occupied())).map(move |to| Step { from, to })
            })
            .collect()
    }

    /// Counts `now`; whether it is its third occurrence since the mark was set (a draw by
    /// repetition, L3-12, L0-7).
    pub(crate) fn count(&mut self, now: K) -> bool {
        self.seen.push(now);
        self.seen.iter().filter(|p| **p == now).count() >= 3
    }

    /// Whether the game may still end by an agreement, a resignation or the clock.
    pub(crate) fn still_on(&self) -> Result<(), PlayError> {
        match self.outcome {
            Some(_) => Err(PlayError::GameOver),
            None => Ok(()),
        }
    }

    /// The ranks from 8 to 1, a character a square: `W`, `B` or `.`.
    pub(crate) fn board_rows(&self) -> Vec<String> {
        (0..8u8)
            .rev()
            .map(|rank| {
                (0..8u8)
                    .map(|file| {
                        let bit = Square::new(file, rank).map_or(0, Square::bit);
                        if self.men[0] & bit != 0 {
                            'W'
                        } else if self.men[1] & bit != 0 {
                            'B'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// The machine interface's state fields both editions have (docs/machine-interface.md):
    /// the board, the mark and the men taken.
    pub(crate) fn state_json(&self) -> serde_json::Map<String, serde_json::Value> {
        let value = json!({
            "board": self.board_rows(),
            "mark": self.mark.map(|m| m.to_string()),
            "taken": {"white": self.taken[0], "black": self.taken[1]},
        });
        match value {
            serde_json::Value::Object(map) => map,
            _ => serde_json::Map::new(),
        }
    }
}

/// The methods of `impl Game` both editions write alike, for a type with a `c: Common<_>`, a
/// `phase` with an `Over` and a `name()`, and `moves`, `apply` and `finish` methods of its own.
macro_rules! game_methods {
    () => {
        fn table(&self) -> &'static crate::seat::Table {
            &crate::seat::Table::TWO_PLAYERS
        }

        fn to_move(&self) -> Option<crate::seat::Seat> {
            (self.phase != Phase::Over).then_some(self.c.side)
        }

        fn phase_name(&self) -> &'static str {
            self.phase.name()
        }

        fn legal_moves(&self) -> Vec<Self::Move> {
            self.moves()
        }

        fn play(
            &mut self,
            seat: crate::seat::Seat,
            mv: &Self::Move,
        ) -> Result<Vec<Self::Event>, crate::game::PlayError> {
            crate::game::play_checked(self, seat, |next| next.apply(mv))
        }

        fn outcome(&self) -> Option<crate::game::Outcome> {
            self.c.outcome
        }

        fn format_move(&self, mv: &Self::Move) -> String {
            notation::format(mv)
        }

        fn agree_draw(&mut self) -> Result<(), crate::game::PlayError> {
            self.c.still_on()?;
            self.finish(crate::game::Outcome::AGREED);
            Ok(())
        }

        fn resign(&mut self, seat: crate::seat::Seat) -> Result<(), crate::game::PlayError> {
            self.c.still_on()?;
            self.finish(crate::game::Outcome::resignation(self.table(), seat));
            Ok(())
        }

        fn time_out(&mut self, seat: crate::seat::Seat) -> Result<(), crate::game::PlayError> {
            self.c.still_on()?;
            self.finish(crate::game::Outcome::time(self.table(), seat));
            Ok(())
        }
    };
}
pub(crate) use game_methods;

/// The accessors both editions offer, reading their `c: Common<_>`.
macro_rules! accessors {
    () => {
        /// The squares of `seat`'s men.
        pub fn men(&self, seat: Seat) -> Squares {
            self.c.men(seat)
        }

        /// All occupied squares.
        pub fn occupied(&self) -> Squares {
            self.c.occupied()
        }

        /// The mark, the rendezvous's centre; it stays until the next is set.
        pub fn mark(&self) -> Option<Square> {
            self.c.mark
        }

        /// The rendezvous: the mark's square and its eight neighbours.
        pub fn rendezvous(&self) -> Option<Squares> {
            self.c.rendezvous()
        }

        /// How many of the adversary's men `seat` has taken.
        pub fn taken(&self, seat: Seat) -> u8 {
            self.c.taken[seat.index()]
        }

        /// The current phase.
        pub fn phase(&self) -> Phase {
            self.phase
        }

        /// The state both editions share.
        pub(crate) fn common(&self) -> &common::Common<Counted> {
            &self.c
        }

        /// Where the round stands.
        pub(crate) fn stage(&self) -> common::Stage {
            match self.phase {
                Phase::Play => common::Stage::Racing,
                Phase::Capture => common::Stage::Taking,
                Phase::Wanderers => common::Stage::Wanderers,
                _ => common::Stage::Between,
            }
        }
    };
}
pub(crate) use accessors;
