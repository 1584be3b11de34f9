//! FIDE's Tournament Report File (TRF-16), written and read: the format pairing programs and
//! rating officers exchange. Muster writes an event's players with every round's opponent,
//! colour and result, their points and rank; `XXR` (the number of rounds) and `XXC white1`
//! (the first seed had White in round 1) for the pairing engines that read it.
//!
//! Columns of a player line (`001`), counted from 1: 5–8 pairing number, 15–47 name, 49–52
//! rating, 81–84 points, 86–89 rank, then ten columns a round from 90: the opponent (92–95,
//! `0000` for none), the colour (97: `w`, `b`, `-`) and the result (99):
//! `1 = 0` a game played, `+ -` a forfeit, `U` the pairing-allocated bye, `Z` not paired.

use super::{Entry, Field};

/// An entrant as the report names him.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Player {
    /// The name shown.
    pub name: String,
    /// The rating he was seeded by, if he had one.
    pub rating: Option<u32>,
}

/// What a report file holds.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Report {
    /// The event's name (`012`).
    pub name: String,
    /// The system (`092`).
    pub kind: String,
    /// The first day (`042`), `YYYY/MM/DD`.
    pub start: Option<String>,
    /// The entrants by pairing number.
    pub players: Vec<Player>,
    /// Each entrant's place in the standings (from 1).
    pub ranks: Vec<usize>,
    /// The rounds played, and who is out of the next (a running event's withdrawn entrants are
    /// listed with a `Z` for it, so that a pairing engine leaves them out).
    pub field: Field,
    /// Whether the next round is still to come.
    pub running: bool,
}

/// The half points `p` as the file writes them: `3.5`.
fn points(p: u32) -> String {
    format!("{}.{}", p / 2, if p % 2 == 1 { 5 } else { 0 })
}

/// A name as it fits its 33 columns: no control characters, at most 33 characters.
fn name_field(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(33)
        .collect()
}

fn round_field(entry: &Entry) -> String {
    let (opponent, colour, result) = match *entry {
        Entry::Game {
            opponent,
            white,
            points,
            forfeit,
        } => {
            let result = match (forfeit, points) {
                (false, 2) => '1',
                (false, 1) => '=',
                (false, _) => '0',
                (true, 2) => '+',
                (true, _) => '-',
            };
            (opponent + 1, if white { 'w' } else { 'b' }, result)
        }
        Entry::Bye => (0, '-', 'U'),
        Entry::Absent => (0, '-', 'Z'),
    };
    let opponent = match opponent {
        0 => "0000".to_string(),
        o => format!("{o:>4}"),
    };
    format!("  {opponent} {colour} {result}")
}

/// The report as TRF-16 text, one line each, ending with a newline.
pub fn write(report: &Report) -> String {
    let field = &report.field;
    let n = field.entrants();
    let mut out = String::new();
    out.push_str(&format!("012 {}\n", name_field(&report.name)));
    if let Some(start) = &report.start {
        out.push_str(&format!("042 {start}\n"));
    }
    out.push_str(&format!("062 {n}\n"));
    out.push_str(&format!("092 {}\n", report.kind));
    out.push_str(&format!("XXR {}\n", field.total_rounds));
    out.push_str("XXC white1\n");
    for (e, player) in report.players.iter().enumerate().take(n) {
        let rating = player.rating.map(|r| r.min(9999).to_string());
        let mut line = format!(
            "001 {:>4}      {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            e + 1,
            name_field(&player.name),
            rating.unwrap_or_default(),
            "",
            "",
            "",
            points(field.points(e)),
            report.ranks.get(e).copied().unwrap_or(0),
        );
        for round in &field.rounds {
            line.push_str(&round_field(round.get(e).unwrap_or(&Entry::Absent)));
        }
        if report.running && field.out.get(e).copied().unwrap_or(false) {
            line.push_str(&round_field(&Entry::Absent));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Why a file could not be read: the line (from 1) and what was wrong.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Unreadable {
    /// The line, from 1.
    pub line: usize,
    /// What was wrong with it.
    pub what: String,
}

/// Reads a report file as [`write`] writes it (and as pairing programs write the same lines).
pub fn read(text: &str) -> Result<Report, Unreadable> {
    let mut report = Report::default();
    let mut lines: Vec<PlayerLine> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let row = Row {
            line: i + 1,
            chars: line.chars().collect(),
        };
        let rest = || row.cols(5, row.chars.len());
        match line.get(..3) {
            Some("012") => report.name = rest(),
            Some("042") => report.start = Some(rest()),
            Some("092") => report.kind = rest(),
            Some("XXR") => {
                report.field.total_rounds =
                    rest().parse().map_err(|_| row.bad("XXR is no number"))?;
            }
            Some("001") => lines.push(row.player_line()?),
            _ => {}
        }
    }
    lines.sort_by_key(|l| l.id);
    in_order(&lines)?;
    let played = lines.iter().map(|l| l.entries.len()).max().unwrap_or(0);
    fill(&mut report, &lines, played);
    // A round only some players have (withdrawn entrants' next round) is the next round's
    // absences, not a round played.
    if let Some(last) = report.field.rounds.last()
        && lines.iter().any(|l| l.entries.len() < played)
        && last.iter().all(|e| *e == Entry::Absent)
    {
        report.field.rounds.pop();
        for (e, l) in lines.iter().enumerate() {
            report.field.out[e] = l.entries.len() == played;
        }
        report.running = true;
    }
    sums_hold(&report, &lines)?;
    Ok(report)
}

/// A player line (`001`) as read.
struct PlayerLine {
    /// The pairing number.
    id: usize,
    /// The line of the file, from 1.
    line: usize,
    /// The entrant.
    player: Player,
    /// The points written, in half points.
    points: u32,
    /// The rank written (0 if none).
    rank: usize,
    /// The rounds, in order.
    entries: Vec<Entry>,
}

/// One line of a report file, by its columns.
struct Row {
    /// The line, from 1.
    line: usize,
    /// Its characters.
    chars: Vec<char>,
}

impl Row {
    /// What is wrong with the line.
    fn bad(&self, what: &str) -> Unreadable {
        Unreadable {
            line: self.line,
            what: what.to_string(),
        }
    }

    /// Columns `from` to `to` (counted from 1, both included, as far as the line goes), trimmed.
    fn cols(&self, from: usize, to: usize) -> String {
        self.chars
            .get(from - 1..to.min(self.chars.len()))
            .map(|c| c.iter().collect::<String>())
            .unwrap_or_default()
            .trim()
            .to_string()
    }

    /// The line read as a player line: pairing number, rating, points, rank, rounds and name.
    fn player_line(&self) -> Result<PlayerLine, Unreadable> {
        let bad = |what: &str| self.bad(what);
        let id: usize = self
            .cols(5, 8)
            .parse()
            .map_err(|_| bad("no pairing number"))?;
        let rating = match self.cols(49, 52) {
            r if r.is_empty() => None,
            r => Some(r.parse().map_err(|_| bad("the rating is no number"))?),
        };
        let score = self.cols(81, 84);
        let (whole, half) = score.split_once('.').unwrap_or((&score, "0"));
        let whole: u32 = whole.parse().map_err(|_| bad("the points are no number"))?;
        let points = whole * 2 + u32::from(half == "5");
        let rank: usize = self.cols(86, 89).parse().unwrap_or(0);
        let mut entries = Vec::new();
        let mut at = 92;
        while at + 7 <= self.chars.len() {
            entries.push(self.entry(at)?);
            at += 10;
        }
        let name = self.cols(15, 47);
        Ok(PlayerLine {
            id,
            line: self.line,
            player: Player { name, rating },
            points,
            rank,
            entries,
        })
    }

    /// The round whose opponent's columns start at `at`: opponent, colour and result.
    fn entry(&self, at: usize) -> Result<Entry, Unreadable> {
        let bad = |what: &str| self.bad(what);
        let opponent: usize = self
            .cols(at, at + 3)
            .parse()
            .map_err(|_| bad("a round's opponent is no number"))?;
        let colour = self.chars[at + 4];
        let result = self.chars[at + 6];
        let white = colour == 'w';
        let game = |points: u32, forfeit: bool| -> Result<Entry, Unreadable> {
            if opponent == 0 || !matches!(colour, 'w' | 'b') {
                return Err(bad("a game without an opponent or a colour"));
            }
            Ok(Entry::Game {
                opponent: opponent - 1,
                white,
                points,
                forfeit,
            })
        };
        Ok(match result {
            '1' => game(2, false)?,
            '=' => game(1, false)?,
            '0' => game(0, false)?,
            '+' => game(2, true)?,
            '-' => game(0, true)?,
            'U' => Entry::Bye,
            'Z' => Entry::Absent,
            _ => return Err(bad("a result this file does not use")),
        })
    }
}

/// Whether the player lines, sorted, are numbered 1, 2, 3 … with none missing or twice.
fn in_order(lines: &[PlayerLine]) -> Result<(), Unreadable> {
    for (k, l) in lines.iter().enumerate() {
        if l.id != k + 1 {
            return Err(Unreadable {
                line: l.line,
                what: format!("pairing number {} out of order (expected {})", l.id, k + 1),
            });
        }
    }
    Ok(())
}

/// Puts the player lines' entrants, ranks and `played` rounds into `report` (an entrant
/// without a round is absent from it).
fn fill(report: &mut Report, lines: &[PlayerLine], played: usize) {
    let n = lines.len();
    report.field.out = vec![false; n];
    report.field.rounds = vec![vec![Entry::Absent; n]; played];
    for (e, l) in lines.iter().enumerate() {
        report.players.push(l.player.clone());
        report.ranks.push(l.rank);
        for (r, entry) in l.entries.iter().enumerate() {
            report.field.rounds[r][e] = *entry;
        }
    }
}

/// Whether every player line's points are its rounds' sum.
fn sums_hold(report: &Report, lines: &[PlayerLine]) -> Result<(), Unreadable> {
    for (e, l) in lines.iter().enumerate() {
        if report.field.points(e) != l.points {
            return Err(Unreadable {
                line: l.line,
                what: format!(
                    "the points ({}) are not the rounds' sum ({})",
                    points(l.points),
                    points(report.field.points(e))
                ),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{Pairing, Round};

    fn report() -> Report {
        let mut field = Field::new(3, 3);
        field.push(
            &Round {
                pairings: vec![Pairing { white: 0, black: 1 }],
                rest: Some(2),
            },
            |_, _| (1, false),
        );
        field.push(
            &Round {
                pairings: vec![Pairing { white: 2, black: 0 }],
                rest: None,
            },
            |_, _| (0, true),
        );
        field.out[1] = true;
        Report {
            name: "Autumn Swiss".into(),
            kind: "Swiss (FIDE Dutch system)".into(),
            start: Some("2026/11/27".into()),
            players: vec![
                Player {
                    name: "alice".into(),
                    rating: Some(1712),
                },
                Player {
                    name: "bob".into(),
                    rating: None,
                },
                Player {
                    name: "carol".into(),
                    rating: Some(1500),
                },
            ],
            ranks: vec![1, 3, 2],
            field,
            running: true,
        }
    }

    #[test]
    fn a_player_line_puts_every_field_in_its_columns() {
        let text = write(&report());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "012 Autumn Swiss");
        assert!(lines.contains(&"XXR 3"));
        assert!(lines.contains(&"XXC white1"));
        let alice = lines.iter().find(|l| l.contains("alice")).unwrap();
        assert_eq!(&alice[4..8], "   1");
        assert_eq!(&alice[14..19], "alice");
        assert_eq!(&alice[48..52], "1712");
        assert_eq!(&alice[80..84], " 1.5");
        assert_eq!(&alice[85..89], "   1");
        // Round 1: a draw with White against 2; round 2: a forfeit won with Black against 3.
        assert_eq!(&alice[89..99], "     2 w =");
        assert_eq!(&alice[99..109], "     3 b +");
        let carol = lines.iter().find(|l| l.contains("carol")).unwrap();
        assert_eq!(&carol[89..], "  0000 - U     1 w -");
        // Bob withdrew: absent from round 2, and out of the next.
        let bob = lines.iter().find(|l| l.contains("bob")).unwrap();
        assert_eq!(&bob[89..], "     1 b =  0000 - Z  0000 - Z");
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        let report = report();
        assert_eq!(read(&write(&report)), Ok(report));
    }

    #[test]
    fn points_that_are_not_the_rounds_sum_are_refused() {
        let text = write(&report()).replace(" 1.5    1", " 3.0    1");
        let err = read(&text).unwrap_err();
        assert!(err.what.contains("not the rounds' sum"), "{err:?}");
    }
}
