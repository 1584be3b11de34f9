//! Swiss pairing by the Dutch system (FIDE Handbook C.04.3, the rules in force since
//! February 2026), in full:
//!
//! - the absolute criteria: no two players meet twice over the board (C.1); nobody has the
//!   pairing-allocated bye twice, nor after a round won without playing (C.2); two players
//!   who must both have the same colour do not meet, unless one of them is a topscorer in the
//!   last round (C.3);
//! - the completion criterion (C.4) and the quality criteria in their order (C.5–C.21): as
//!   many pairs as possible in each bracket, the highest scores first, a look-ahead so that
//!   the next bracket pairs as well; the bye to the lowest score, then to the player with the
//!   fewest unplayed games; colour preferences; no player floating the same way as in the last
//!   two rounds;
//! - brackets paired from the top score down, with their exchanges and transpositions
//!   (section D) as a maximum-weight matching finds them ([`dutch`]);
//! - colours (section E, [`colours`]), the ranking being score then pairing number;
//! - unplayed games as FIDE counts them: a forfeit is no meeting and gives no colour, and a
//!   point won without playing is a downfloat (C.04.1, A.4);
//! - withdrawn players are not paired; late entrants are paired by their score like anyone.
//!
//! When the absolute colour criterion makes a round impossible (tiny fields late in an
//! event), the round is paired with it left out, and says so ([`Paired::colours_relaxed`]);
//! the rule against meeting twice is never relaxed, and when even that cannot be kept there
//! is no pairing and the event should end. The answer is exact: the matching proves that no
//! pairing exists before saying so.

mod colours;
mod dutch;
mod players;
mod weight;

#[cfg(test)]
mod tests;

use super::{Field, Round};

/// Why no round could be paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NoPairing {
    /// No pairing exists without two players meeting again, or fewer than two are left.
    Impossible,
}

/// A paired round, and whether the colour rules had to be relaxed to pair it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Paired {
    /// The round.
    pub round: Round,
    /// Whether the absolute colour criterion (C.3) was left out: no pairing keeps it.
    pub colours_relaxed: bool,
}

/// Pairs the next round of a Swiss event.
pub fn pair(field: &Field) -> Result<Paired, NoPairing> {
    let players = players::players(field);
    if players.len() < 2 {
        return Err(NoPairing::Impossible);
    }
    for strict in [true, false] {
        if let Some((order, (games, bye))) = dutch::pair(field, players.clone(), strict) {
            return Ok(Paired {
                round: Round {
                    pairings: colours::boards(&order, &games),
                    rest: bye.map(|b| order[b].id),
                },
                colours_relaxed: !strict,
            });
        }
    }
    Err(NoPairing::Impossible)
}

/// Rounds enough to separate a field of `entrants`: ⌈log2 n⌉ + 1.
pub fn default_rounds(entrants: usize) -> usize {
    let n = entrants.max(2);
    (usize::BITS - (n - 1).leading_zeros()) as usize + 1
}
