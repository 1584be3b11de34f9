//! Who has White in a pair (FIDE Handbook C.04.3, section E), and the order of the boards.

use super::super::Pairing;
use super::players::Player;

/// The colour of the first round's top seed: White (the initial colour, E.5).
const INITIAL: bool = true;

/// Whether `a` ranks above `b`: a higher score, then a lower pairing number.
fn above(a: &Player, b: &Player) -> bool {
    (a.score, std::cmp::Reverse(a.id)) > (b.score, std::cmp::Reverse(b.id))
}

/// The colour `a` has against `b` when their preferences or their histories decide it
/// (E.1–E.4), `None` when they leave it to the ranking (E.5).
fn decided(a: &Player, b: &Player) -> Option<bool> {
    let compatible =
        a.preference != b.preference || a.preference.is_none() || b.preference.is_none();
    if compatible {
        // E.1: both preferences are met.
        return a.preference.or(b.preference.map(|c| !c));
    }
    // E.2: the stronger preference is met — an absolute one first, the wider imbalance among
    // two absolute ones; then a strong one.
    if a.absolute() && (a.imbalance > b.imbalance || !b.absolute()) {
        return a.preference;
    }
    if b.absolute() && (b.imbalance > a.imbalance || !a.absolute()) {
        return b.preference.map(|c| !c);
    }
    if a.strong && !b.strong {
        return a.preference;
    }
    if b.strong && !a.strong {
        return b.preference.map(|c| !c);
    }
    // E.3: alternate from the latest round in which they had different colours.
    let (mut x, mut y) = (a.colours.iter().rev(), b.colours.iter().rev());
    loop {
        match (x.next(), y.next()) {
            (Some(ca), Some(cb)) if ca != cb => return Some(*cb),
            (Some(_), Some(_)) => {}
            _ => return None,
        }
    }
}

/// Whether `a` has White against `b`.
pub(super) fn white(a: &Player, b: &Player) -> bool {
    if let Some(c) = decided(a, b) {
        return c;
    }
    let (higher, a_higher) = if above(a, b) { (a, true) } else { (b, false) };
    // E.4: the higher-ranked player's preference; E.5: with none, the higher-ranked player
    // has the initial colour if his rank (pairing number) is odd, the other if even.
    let higher_white = match higher.preference {
        Some(c) => c,
        None => (higher.id % 2 == 0) == INITIAL,
    };
    higher_white == a_higher
}

/// The games of a round in board order: the pair with the higher top score first, then the
/// higher lower score, then the better rank of the pair's higher player.
pub(super) fn boards(players: &[Player], games: &[(usize, usize)]) -> Vec<Pairing> {
    let mut boards: Vec<(u32, u32, usize, Pairing)> = games
        .iter()
        .map(|&(i, j)| {
            // The pair's colours are asked of the one with the lower pairing number.
            let (a, b) = if players[i].id < players[j].id {
                (&players[i], &players[j])
            } else {
                (&players[j], &players[i])
            };
            let (hi, lo) = if above(a, b) { (a, b) } else { (b, a) };
            let pairing = if white(a, b) {
                Pairing {
                    white: a.id,
                    black: b.id,
                }
            } else {
                Pairing {
                    white: b.id,
                    black: a.id,
                }
            };
            (hi.score, lo.score, hi.id, pairing)
        })
        .collect();
    boards.sort_by(|x, y| y.0.cmp(&x.0).then(y.1.cmp(&x.1)).then(x.2.cmp(&y.2)));
    boards.into_iter().map(|b| b.3).collect()
}
