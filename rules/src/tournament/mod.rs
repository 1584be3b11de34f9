//! Tournament systems as pure functions of the entrants (numbered by seed, from 0) and, later,
//! their results: who meets whom, with which colours, in which round. No I/O: the bot keeps the
//! events and plays the games; these functions only decide the pairings, so that they can be
//! checked over many random fields without a bot.

pub mod knockout;
pub mod round_robin;
pub mod standings;
pub mod swiss;

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
