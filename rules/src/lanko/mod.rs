//! Lanko-88, Lanko-68 and Lanko-103, as ruled in docs/rules/lanko.md (K-1 … K-9), on the
//! boards reconstructed in `rules/boards/`.
//!
//! ```
//! use muster_rules::lanko::{Lanko, Variant};
//! use muster_rules::{Game, Seat};
//!
//! let mut game = Lanko::new(Variant::L88);
//! assert_eq!(game.table().seat_name(game.to_move().unwrap()), "s");
//! let first = game.format_move(&game.legal_moves()[0]);
//! game.play_text(Seat::new(0).unwrap(), &first).unwrap();
//! assert_eq!(game.table().seat_name(game.to_move().unwrap()), "w");
//! ```

mod board;
mod moves;
mod notation;
mod position;

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Serialize;

pub use board::{
    Board, BoardError, DIRS, Kind, Layout, Piece, Role, Sq, SquareInfo, forward, plays_white,
};
pub use moves::{Cells, LankoMove, between, captures, legal, movable};

use crate::game::{EndReason, Game, NotationError, Outcome, PlayError, play_checked};
use crate::seat::{Seat, Table, Team};

/// The four seats in turn order, S and N playing White, W and E Black (K-1).
pub const TABLE: Table = Table {
    seats: &["s", "w", "n", "e"],
    teams: &[Team::WHITE, Team::BLACK, Team::WHITE, Team::BLACK],
    team_names: ["white", "black"],
};

/// The three boards.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// Lanko-88.
    L88,
    /// Lanko-68.
    L68,
    /// Lanko-103.
    L103,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 3] = [Variant::L88, Variant::L68, Variant::L103];

    /// The board's data file, as shipped.
    pub fn source(self) -> &'static str {
        match self {
            Variant::L88 => include_str!("../../boards/lanko88.board"),
            Variant::L68 => include_str!("../../boards/lanko68.board"),
            Variant::L103 => include_str!("../../boards/lanko103.board"),
        }
    }

    /// The board, read once from its data file.
    pub fn board(self) -> &'static Board {
        static BOARDS: [OnceLock<Board>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        BOARDS[self as usize].get_or_init(|| match Board::parse(self.source()) {
            Ok(b) => b,
            // The shipped files are checked by the tests; an edited one that breaks is a
            // build-time mistake, reported with its line.
            Err(e) => panic!("rules/boards/{}.board: {e}", self.id()),
        })
    }

    /// The game id.
    pub fn id(self) -> &'static str {
        match self {
            Variant::L88 => "lanko88",
            Variant::L68 => "lanko68",
            Variant::L103 => "lanko103",
        }
    }

    /// What castles aim for: `middle` squares, or `end` squares on Lanko-103.
    pub fn goal_word(self) -> &'static str {
        if self == Variant::L103 {
            "end"
        } else {
            "middle"
        }
    }
}

/// Why a game of Lanko ended (K-8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Every middle (end) square holds a castle.
    GoalsFull,
    /// No castle is left off the middle (end) squares.
    NoCastleLeft,
    /// Every piece of one colour is gone.
    ColourGone,
    /// Every seat holding castles declared it will not move them in, and no castle can be taken.
    Declared,
    /// No seat could move: four passes in a row.
    NoMoves,
    /// The same position, with the same seat to move, for the third time.
    Repetition,
    /// The players agreed to end the game.
    Agreement,
    /// A team resigned.
    Resignation,
    /// A seat's clock ran out; its team lost.
    Time,
}

/// What happened; the bot words these and the renderer highlights them.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LankoEvent {
    /// A piece moved, jumped or leapt.
    Moved {
        /// Who moved it.
        seat: Seat,
        /// The piece.
        piece: Piece,
        /// From where.
        from: Sq,
        /// The piece jumped or leapt over, if any.
        over: Option<Sq>,
        /// To where.
        to: Sq,
    },
    /// A capture sequence.
    Captured {
        /// Who captured.
        seat: Seat,
        /// The capturing piece.
        piece: Piece,
        /// Start and landing squares.
        path: Vec<Sq>,
        /// The pieces taken, where they stood.
        taken: Vec<(Sq, Piece)>,
    },
    /// A castle reached a middle (end) square, where it stays and counts triple.
    Entered {
        /// The castle.
        piece: Piece,
        /// The square.
        square: Sq,
    },
    /// A pawn entered a middle square and was burned.
    Burned {
        /// The pawn.
        piece: Piece,
        /// The square.
        square: Sq,
    },
    /// The seat had no legal move.
    Passed {
        /// Who passed.
        seat: Seat,
    },
    /// The seat declared it will not move its castles in.
    Declared {
        /// Who declared.
        seat: Seat,
    },
    /// The game ended.
    Ended {
        /// Why.
        ending: Ending,
        /// The result.
        outcome: Outcome,
        /// White's and Black's points.
        score: [u32; 2],
    },
}

/// A game of Lanko on one of its boards.
#[derive(Clone, PartialEq, Debug)]
pub struct Lanko {
    variant: Variant,
    cells: Cells,
    to_move: Seat,
    declared: [bool; 4],
    passes: u8,
    seen: HashMap<Vec<u8>, u8>,
    ended: Option<(Ending, Outcome)>,
}

impl Lanko {
    /// A new game in the board's start position, S to move.
    pub fn new(variant: Variant) -> Lanko {
        let board = variant.board();
        let mut game = Lanko {
            variant,
            cells: board.start.clone(),
            to_move: Seat::new(0).unwrap(),
            declared: [false; 4],
            passes: 0,
            seen: HashMap::new(),
            ended: None,
        };
        game.remember();
        game
    }

    /// The board.
    pub fn board(&self) -> &'static Board {
        self.variant.board()
    }

    /// Which board.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The piece on each square.
    pub fn cells(&self) -> &Cells {
        &self.cells
    }

    /// The seats that have declared they will not move their castles in.
    pub fn declared(&self) -> [bool; 4] {
        self.declared
    }

    /// Why the game ended, once it has.
    pub fn ending(&self) -> Option<Ending> {
        self.ended.map(|(e, _)| e)
    }

    /// Passes in a row just made.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// White's and Black's points as the board stands (K-9).
    pub fn score(&self) -> [u32; 2] {
        let board = self.board();
        let mut score = [0, 0];
        for (sq, cell) in self.cells.iter().enumerate() {
            if let Some(p) = cell {
                let goal = board.info(sq as Sq).role.is_goal();
                score[usize::from(!p.white)] += p.kind.points(goal);
            }
        }
        score
    }

    /// The result the points give, ended for `reason` (K-9).
    fn scored(&self, reason: EndReason) -> Outcome {
        let [w, b] = self.score();
        match w.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Winner {
                team: Team::WHITE,
                reason,
            },
            std::cmp::Ordering::Less => Outcome::Winner {
                team: Team::BLACK,
                reason,
            },
            std::cmp::Ordering::Equal => Outcome::Draw { reason },
        }
    }

    /// Whether `seat` still holds a castle off the middle (end) squares (K-8).
    pub fn holds_castles(&self, seat: Seat) -> bool {
        let board = self.board();
        (0..board.len() as Sq).any(|sq| {
            self.cells[sq as usize].is_some_and(|p| p.kind.is_castle())
                && movable(board, &self.cells, seat, sq)
        })
    }

    /// Whether `seat` may declare now and its declaration would end the game at once (K-8):
    /// it holds castles and has not declared, every other seat holding castles has declared,
    /// and no castle can then be taken.
    pub fn declaring_ends(&self, seat: Seat) -> bool {
        if self.ended.is_some() || self.declared[seat.index()] || !self.holds_castles(seat) {
            return false;
        }
        let others_done = (0..4)
            .filter_map(Seat::new)
            .filter(|s| *s != seat)
            .all(|s| self.declared[s.index()] || !self.holds_castles(s));
        let mut declared = self.declared;
        declared[seat.index()] = true;
        others_done && !moves::castle_capturable(self.board(), &self.cells, declared)
    }

    fn key(&self) -> Vec<u8> {
        let mut key: Vec<u8> = self
            .cells
            .iter()
            .map(|c| c.map_or(b'.', |p| p.to_char() as u8))
            .collect();
        key.push(self.to_move.index() as u8);
        key.extend(self.declared.iter().map(|d| *d as u8));
        key
    }

    /// Counts the position; returns how often it has now occurred.
    fn remember(&mut self) -> u8 {
        let n = self.seen.entry(self.key()).or_insert(0);
        *n += 1;
        *n
    }

    /// Plays `mv`, one of [`Game::legal_moves`], without checking it again (the search's
    /// moves come from the move generator).
    pub(crate) fn play_unchecked(&mut self, mv: &LankoMove) {
        self.apply(mv);
    }

    /// The legal moves of `seat`, as its declaration allows.
    fn legal_for(&self, seat: Seat) -> Vec<LankoMove> {
        legal(self.board(), &self.cells, seat, self.declared[seat.index()])
    }

    /// Applies a legal move for the seat to move and checks the end (K-8).
    fn apply(&mut self, mv: &LankoMove) -> Vec<LankoEvent> {
        let board = self.board();
        let seat = self.to_move;
        let mut events = Vec::new();
        let landed = match mv {
            LankoMove::Declare => {
                // Not a move: the same seat still moves, and no position is counted.
                self.declared[seat.index()] = true;
                events.push(LankoEvent::Declared { seat });
                self.check_end(&mut events, false);
                return events;
            }
            LankoMove::Pass => {
                events.push(LankoEvent::Passed { seat });
                None
            }
            LankoMove::Step { from, to } | LankoMove::Jump { from, to, .. } => {
                let piece = self.cells[*from as usize].take().expect("a piece moves");
                self.cells[*to as usize] = Some(piece);
                let over = match mv {
                    LankoMove::Jump { over, .. } => Some(*over),
                    _ => None,
                };
                events.push(LankoEvent::Moved {
                    seat,
                    piece,
                    from: *from,
                    over,
                    to: *to,
                });
                Some((*to, piece))
            }
            LankoMove::Capture(path) => {
                let piece = self.cells[path[0] as usize].expect("a piece captures");
                let taken = moves::taken(board, &mut self.cells, path);
                events.push(LankoEvent::Captured {
                    seat,
                    piece,
                    path: path.clone(),
                    taken,
                });
                Some((*path.last().unwrap(), piece))
            }
        };
        if let Some((square, piece)) = landed
            && board.info(square).role.is_goal()
        {
            if piece.kind.is_castle() {
                events.push(LankoEvent::Entered { piece, square });
            } else {
                self.cells[square as usize] = None;
                events.push(LankoEvent::Burned { piece, square });
            }
        }
        self.passes = if *mv == LankoMove::Pass {
            self.passes + 1
        } else {
            0
        };
        self.to_move = Seat::new((seat.index() + 1) % 4).unwrap();
        let times = self.remember();
        self.check_end(&mut events, times >= 3);
        events
    }

    /// Ends the game if one of K-8's conditions holds.
    fn check_end(&mut self, events: &mut Vec<LankoEvent>, third_time: bool) {
        let board = self.board();
        let pieces = |white: bool| {
            self.cells
                .iter()
                .flatten()
                .filter(|p| p.white == white)
                .count()
        };
        let castles_off = (0..board.len() as Sq).any(|sq| {
            self.cells[sq as usize].is_some_and(|p| p.kind.is_castle())
                && !board.info(sq).role.is_goal()
        });
        let goals_full = board.goals().all(|sq| self.cells[sq as usize].is_some());
        let ending = if goals_full {
            Some(Ending::GoalsFull)
        } else if pieces(true) == 0 || pieces(false) == 0 {
            Some(Ending::ColourGone)
        } else if !castles_off {
            Some(Ending::NoCastleLeft)
        } else if (0..4)
            .filter_map(Seat::new)
            .all(|s| self.declared[s.index()] || !self.holds_castles(s))
            && !moves::castle_capturable(board, &self.cells, self.declared)
        {
            Some(Ending::Declared)
        } else if self.passes >= 4 {
            Some(Ending::NoMoves)
        } else if third_time {
            Some(Ending::Repetition)
        } else {
            None
        };
        if let Some(ending) = ending {
            let reason = match ending {
                Ending::Repetition => EndReason::Repetition,
                _ => EndReason::Goal,
            };
            self.finish(ending, reason, events);
        }
    }

    fn finish(&mut self, ending: Ending, reason: EndReason, events: &mut Vec<LankoEvent>) {
        let outcome = self.scored(reason);
        self.ended = Some((ending, outcome));
        events.push(LankoEvent::Ended {
            ending,
            outcome,
            score: self.score(),
        });
    }

    /// Why `mv` is not legal for `seat` here, in words (the move is not in the legal list).
    fn refusal(&self, seat: Seat, mv: &LankoMove) -> String {
        notation::refusal(self, seat, mv)
    }
}

impl Game for Lanko {
    type Move = LankoMove;
    type Event = LankoEvent;

    fn table(&self) -> &'static Table {
        &TABLE
    }

    fn to_move(&self) -> Option<Seat> {
        if self.ended.is_some() {
            None
        } else {
            Some(self.to_move)
        }
    }

    fn phase_name(&self) -> &'static str {
        if self.ended.is_some() { "over" } else { "play" }
    }

    fn legal_moves(&self) -> Vec<LankoMove> {
        if self.ended.is_some() {
            return Vec::new();
        }
        self.legal_for(self.to_move)
    }

    fn play(&mut self, seat: Seat, mv: &LankoMove) -> Result<Vec<LankoEvent>, PlayError> {
        play_checked(self, seat, |game| {
            if *mv == LankoMove::Declare {
                if game.declared[seat.index()] {
                    return Err(PlayError::Illegal(
                        "you have already declared that you will not move your castles in".into(),
                    ));
                }
                if !game.holds_castles(seat) {
                    return Err(PlayError::Illegal(format!(
                        "you hold no castle off the {} squares, so there is nothing to declare",
                        game.variant.goal_word()
                    )));
                }
                return Ok(game.apply(mv));
            }
            if !game.legal_for(seat).contains(mv) {
                return Err(PlayError::Illegal(game.refusal(seat, mv)));
            }
            Ok(game.apply(mv))
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        self.ended.map(|(_, o)| o)
    }

    fn parse_move(&self, text: &str) -> Result<LankoMove, NotationError> {
        notation::parse(self, text)
    }

    fn format_move(&self, mv: &LankoMove) -> String {
        notation::format(self, mv)
    }

    fn position(&self) -> String {
        position::write(self)
    }

    fn state_json(&self) -> serde_json::Value {
        position::state_json(self)
    }

    fn agree_draw(&mut self) -> Result<(), PlayError> {
        if self.ended.is_some() {
            return Err(PlayError::GameOver);
        }
        let mut events = Vec::new();
        self.finish(Ending::Agreement, EndReason::Agreement, &mut events);
        Ok(())
    }

    fn resign(&mut self, seat: Seat) -> Result<(), PlayError> {
        if self.ended.is_some() {
            return Err(PlayError::GameOver);
        }
        self.ended = Some((Ending::Resignation, Outcome::resignation(&TABLE, seat)));
        Ok(())
    }

    fn time_out(&mut self, seat: Seat) -> Result<(), PlayError> {
        if self.ended.is_some() {
            return Err(PlayError::GameOver);
        }
        self.ended = Some((Ending::Time, Outcome::time(&TABLE, seat)));
        Ok(())
    }
}
