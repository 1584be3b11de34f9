//! Tournament systems as pure functions of the entrants (numbered by seed, from 0) and, later,
//! their results: who meets whom, with which colours, in which round. No I/O: the bot keeps the
//! events and plays the games; these functions only decide the pairings, so that they can be
//! checked over many random fields without a bot.

pub mod knockout;
pub mod round_robin;
pub mod standings;
pub mod swiss;
pub mod trf;

/// One game of a round: entrants by seed index, the first with the first seat (White).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pairing {
    /// The entrant with the first seat.
    pub white: usize,
    /// The entrant with the second seat.
    pub black: usize,
}

/// A round: its games in board order, and the entrant who rests (an odd field).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Round {
    /// The games, board 1 first.
    pub pairings: Vec<Pairing>,
    /// The entrant without a game this round, if any.
    pub rest: Option<usize>,
}

/// One entrant's round as the pairing rules and FIDE's report file see it. A game not played
/// over the board (a forfeit) is unplayed to the pairing rules: the two have not met, and it
/// gives no colour (FIDE Handbook C.04.1; docs/tournaments.md).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Entry {
    /// A game against `opponent`.
    Game {
        /// The opponent (entrant index).
        opponent: usize,
        /// Whether this entrant had the first seat (White).
        white: bool,
        /// His points in half points: 2 a win, 1 a draw, 0 a loss.
        points: u32,
        /// Whether it was decided without being played (a forfeit).
        forfeit: bool,
    },
    /// The pairing-allocated bye: a win's points, no opponent, no colour.
    Bye,
    /// Not paired: absent, withdrawn or not yet entered; nothing scored.
    Absent,
}

impl Entry {
    /// The points it gave, in half points.
    pub fn points(&self) -> u32 {
        match self {
            Entry::Game { points, .. } => *points,
            Entry::Bye => 2,
            Entry::Absent => 0,
        }
    }

    /// The opponent met over the board, with this entrant's colour (`true` for White).
    pub fn played(&self) -> Option<(usize, bool)> {
        match *self {
            Entry::Game {
                opponent,
                white,
                forfeit: false,
                ..
            } => Some((opponent, white)),
            _ => None,
        }
    }
}

/// A Swiss event as its next round is paired: the entrants by pairing number (0 the first),
/// what each did in every round so far, and who is not to be paired.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Field {
    /// The rounds played, each with one entry an entrant (index = pairing number − 1).
    pub rounds: Vec<Vec<Entry>>,
    /// Entrants not to be paired in the next round (withdrawn), one flag an entrant.
    pub out: Vec<bool>,
    /// The rounds the event has (the last round is paired with the topscorers' exception).
    pub total_rounds: usize,
}

impl Field {
    /// A field of `entrants` before its first round.
    pub fn new(entrants: usize, total_rounds: usize) -> Field {
        Field {
            rounds: Vec::new(),
            out: vec![false; entrants],
            total_rounds,
        }
    }

    /// The number of entrants.
    pub fn entrants(&self) -> usize {
        self.out.len()
    }

    /// Entrant `e`'s score in half points.
    pub fn points(&self, e: usize) -> u32 {
        self.rounds
            .iter()
            .filter_map(|r| r.get(e))
            .map(Entry::points)
            .sum()
    }

    /// Adds a round paired as `round`, every game with its result from `result(white, black)`
    /// (White's half points, and whether it was a forfeit); entrants neither paired nor resting
    /// are absent.
    pub fn push(&mut self, round: &Round, mut result: impl FnMut(usize, usize) -> (u32, bool)) {
        let mut entries = vec![Entry::Absent; self.entrants()];
        for p in &round.pairings {
            let (points, forfeit) = result(p.white, p.black);
            entries[p.white] = Entry::Game {
                opponent: p.black,
                white: true,
                points,
                forfeit,
            };
            entries[p.black] = Entry::Game {
                opponent: p.white,
                white: false,
                points: 2 - points,
                forfeit,
            };
        }
        if let Some(r) = round.rest {
            entries[r] = Entry::Bye;
        }
        self.rounds.push(entries);
    }
}
