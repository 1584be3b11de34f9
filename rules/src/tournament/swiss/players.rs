//! What the Dutch system needs to know of each player to be paired (FIDE Handbook C.04.3,
//! section A): score, colour difference and preference, floats, and whether he may have the
//! pairing-allocated bye. Only games played over the board count for colours and floats'
//! opponents; a round not played counts as FIDE counts it (C.04.1).

use super::super::{Entry, Field};

/// A float in a past round (A.4).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Float {
    /// Paired with a lower score, or scored points without playing.
    Down,
    /// Paired with a higher score.
    Up,
    /// Neither.
    None,
}

/// A player to be paired, as the criteria see him.
#[derive(Clone, Debug)]
pub(super) struct Player {
    /// The entrant (pairing number − 1), also his rank among equal scores.
    pub id: usize,
    /// His score, in half points.
    pub score: u32,
    /// The colours of his games played over the board, in order (`true` White).
    pub colours: Vec<bool>,
    /// The colour he prefers (A.6), `true` White.
    pub preference: Option<bool>,
    /// |Whites − Blacks|.
    pub imbalance: u32,
    /// The colour of his last two games when they had the same one.
    pub repeated: Option<bool>,
    /// A strong preference (A.6.b): the colour difference is one, and not absolute.
    pub strong: bool,
    /// Games played over the board.
    pub played: usize,
    /// Whether he may have the pairing-allocated bye (C.2): not after a bye, nor after any
    /// round scored as a win without playing.
    pub bye_eligible: bool,
    /// His floats one and two rounds ago (A.4).
    pub floats: [Float; 2],
}

impl Player {
    /// An absolute colour imbalance: the colour difference is more than one (A.6.a).
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// An absolute colour preference: an absolute imbalance, or the same colour in the last
    /// two games played (A.6.a).
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }

    /// His float `back` rounds ago (1 or 2), or none when the event is younger.
    pub fn float(&self, back: usize) -> Float {
        self.floats.get(back - 1).copied().unwrap_or(Float::None)
    }
}

/// A colour history's preference (A.6).
pub(super) struct Colour {
    pub preference: Option<bool>,
    pub imbalance: u32,
    pub repeated: Option<bool>,
    pub strong: bool,
}

impl Colour {
    /// The preference after `colours` (`true` White), the games played in order: an absolute
    /// one for an imbalance over one or the same colour twice running, a strong one for an
    /// imbalance of one, else a mild one for the other colour than last time.
    pub fn of(colours: &[bool]) -> Colour {
        let whites = colours.iter().filter(|w| **w).count() as u32;
        let blacks = colours.len() as u32 - whites;
        let lower = whites <= blacks;
        let imbalance = whites.abs_diff(blacks);
        let last = colours.last().copied();
        let run = colours
            .iter()
            .rev()
            .take_while(|c| Some(**c) == last)
            .count();
        let preference = if imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            last.map(|c| !c)
        } else if imbalance > 0 {
            Some(lower)
        } else {
            last.map(|c| !c)
        };
        let repeated = if run > 1 { last } else { None };
        let absolute = imbalance > 1 || repeated.is_some();
        Colour {
            preference,
            imbalance,
            repeated,
            strong: !absolute && imbalance > 0,
        }
    }
}

/// The players of `field` to be paired in its next round, by entrant.
pub(super) fn players(field: &Field) -> Vec<Player> {
    let n = field.entrants();
    let rounds = field.rounds.len();
    // Scores before each round: before[r][e].
    let mut before = vec![vec![0u32; n]];
    for round in &field.rounds {
        let last = before.last().cloned().unwrap_or_default();
        before.push(
            (0..n)
                .map(|e| last[e] + round.get(e).map_or(0, Entry::points))
                .collect(),
        );
    }
    (0..n)
        .filter(|e| !field.out[*e])
        .map(|e| {
            let entries: Vec<Entry> = field
                .rounds
                .iter()
                .map(|r| r.get(e).copied().unwrap_or(Entry::Absent))
                .collect();
            let colours: Vec<bool> = entries
                .iter()
                .filter_map(|x| x.played().map(|(_, w)| w))
                .collect();
            let colour = Colour::of(&colours);
            let float = |back: usize| -> Float {
                let Some(r) = rounds.checked_sub(back) else {
                    return Float::None;
                };
                match entries[r] {
                    Entry::Game {
                        opponent,
                        forfeit: false,
                        ..
                    } => match before[r][e].cmp(&before[r][opponent]) {
                        std::cmp::Ordering::Greater => Float::Down,
                        std::cmp::Ordering::Less => Float::Up,
                        std::cmp::Ordering::Equal => Float::None,
                    },
                    // Points without playing are a downfloat; none is no float (A.4.b).
                    other if other.points() > 0 => Float::Down,
                    _ => Float::None,
                }
            };
            Player {
                id: e,
                score: before[rounds][e],
                preference: colour.preference,
                imbalance: colour.imbalance,
                repeated: colour.repeated,
                strong: colour.strong,
                played: colours.len(),
                bye_eligible: !entries
                    .iter()
                    .any(|x| x.played().is_none() && x.points() >= 2),
                floats: [float(1), float(2)],
                colours,
            }
        })
        .collect()
}
