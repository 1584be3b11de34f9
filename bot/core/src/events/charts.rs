//! The event's pictures: the standings as a table and the knockout bracket, described as
//! [`Chart`]s that the adapters draw and send as they send boards.

use muster_rules::tournament::knockout;
use muster_rules::tournament::standings::{self, Line};

use super::{Event, Score, System, report};
use crate::kernel::board::{Board, Chart, ChartKind, ChartMatch};
use crate::kernel::reply::Reply;

/// How many of the leaders a standings image's description names.
const SAID: usize = 8;

/// The longest line of the image's note on scores won without playing, in characters (about
/// 560 px of its small text, within the narrowest image), and the longest name in it.
const NOTE_WIDTH: usize = 60;
const NOTE_NAME: usize = 20;

/// The standings table after the completed rounds; its description names the leaders and says
/// how many more there are.
pub(super) fn standings(event: &Event) -> Reply {
    let rounds = report::completed(event);
    let table = report::table(event);
    let names = report::tiebreak_names(event.system);
    let lines = report::lines(event, &table);
    Reply::Board(Box::new(Board::chart(Chart {
        name: format!("{}-standings-{rounds}.png", event.name),
        alt: format!(
            "Standings of {} after round {rounds} of {}: {}.",
            event.name,
            event.total_rounds(),
            leaders(event, &lines, &table).join(", ")
        ),
        kind: ChartKind::Table {
            title: format!(
                "{} · {} · after round {rounds} of {}",
                event.name,
                event.system.title(),
                event.total_rounds()
            ),
            columns: standings_columns(names),
            rows: standings_rows(event, &lines, &table, names),
            footer: Some(standings_footer(event, &lines, &table)),
        },
    })))
}

/// The standings table's columns (with whether each is numeric): rank, name, points, games and
/// the tiebreaks `names`.
fn standings_columns(names: &[&str]) -> Vec<(String, bool)> {
    let mut columns: Vec<(String, bool)> = vec![
        ("#".into(), true),
        ("Name".into(), false),
        ("Pts".into(), true),
        ("Games".into(), true),
    ];
    columns.extend(
        names
            .iter()
            .map(|n| (report::tiebreak_head(n).to_string(), true)),
    );
    columns
}

/// The standings table's rows, one per line of the standings.
fn standings_rows(
    event: &Event,
    lines: &[Line],
    table: &[standings::Entrant],
    names: &[&str],
) -> Vec<Vec<String>> {
    lines
        .iter()
        .map(|l| {
            let e = &event.entrants[l.entrant];
            let mut name = e.name();
            if e.withdrawn_from.is_some() {
                name.push_str(" (withdrawn)");
            }
            let mut row = vec![
                l.rank.to_string(),
                name,
                report::marked(l.score, report::unplayed(&table[l.entrant])),
                report::games(&table[l.entrant]).to_string(),
            ];
            row.extend(
                names
                    .iter()
                    .zip(&l.tiebreaks)
                    .map(|(n, v)| report::tiebreak_text(n, *v)),
            );
            row
        })
        .collect()
}

/// The standings table's footer: the note on marked scores and the tiebreaks' legend.
fn standings_footer(event: &Event, lines: &[Line], table: &[standings::Entrant]) -> String {
    let legend = match event.system {
        System::Swiss => "BhC1 Buchholz cut-1 · Bh Buchholz · SB Sonneborn-Berger",
        _ => "SB Sonneborn-Berger · DE direct encounter",
    };
    // The note on marked scores (a line each, as in the text), then the legend.
    let marked = report::marked_entrants(event, lines, table, NOTE_NAME);
    let mut footer = report::unplayed_note(&marked, NOTE_WIDTH);
    footer.push(legend.to_string());
    footer.join("\n")
}

/// The first [`SAID`] lines of the standings in words, and how many more there are.
fn leaders(event: &Event, lines: &[Line], table: &[standings::Entrant]) -> Vec<String> {
    let mut top: Vec<String> = lines
        .iter()
        .take(SAID)
        .map(|l| {
            let unplayed = report::unplayed(&table[l.entrant]);
            format!(
                "{}. {} {}{}",
                l.rank,
                event.entrants[l.entrant].name(),
                report::half(l.score),
                if unplayed > 0 {
                    format!(" ({} without playing)", report::half(unplayed))
                } else {
                    String::new()
                }
            )
        })
        .collect();
    if lines.len() > SAID {
        top.push(format!(
            "and {} more (the command tournament standings {} lists everyone)",
            lines.len() - SAID,
            event.name
        ));
    }
    top
}

/// One side's results in a match: `1`, `½`, `0` a game, `…` for one being played.
fn scores(board: &super::Board, side: usize) -> String {
    board
        .games
        .iter()
        .map(|g| match g.result {
            None => "…",
            Some(Score::Draw) => "½",
            Some(s) => {
                let white_won = s == Score::White;
                if (g.white == side) == white_won {
                    "1"
                } else {
                    "0"
                }
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The knockout bracket: every round, those not paired yet empty.
pub(super) fn bracket(event: &Event) -> Reply {
    let seeded = |e: usize| format!("{} ({})", event.entrants[e].name(), e + 1);
    let total = event.total_rounds();
    let mut rounds = Vec::new();
    for r in 0..total {
        let title = match total - r {
            1 => "Final".to_string(),
            2 => "Semi-finals".to_string(),
            3 => "Quarter-finals".to_string(),
            _ => format!("Round {}", r + 1),
        };
        let Some(round) = event.played.get(r) else {
            rounds.push((title, Vec::new()));
            continue;
        };
        // Each match's upper side is the one from the upper match before it.
        let above: Vec<Option<usize>> = if r == 0 {
            Vec::new()
        } else {
            super::through(event, r - 1)
        };
        let mut matches = Vec::new();
        let mut boards = round.boards.iter();
        let slots: Vec<(usize, Option<usize>)> = if r == 0 {
            knockout::first_round(event.entrants.len())
        } else {
            round
                .boards
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let top = above.get(2 * i).copied().flatten().unwrap_or(b.white);
                    (top, Some(if top == b.white { b.black } else { b.white }))
                })
                .collect()
        };
        for (top, bottom) in slots {
            match bottom {
                None => matches.push(ChartMatch {
                    top: seeded(top),
                    bottom: "bye".into(),
                    top_score: String::new(),
                    bottom_score: String::new(),
                    winner: Some(true),
                }),
                Some(bottom) => {
                    let Some(board) = boards.next() else { break };
                    matches.push(ChartMatch {
                        top: seeded(top),
                        bottom: seeded(bottom),
                        top_score: scores(board, top),
                        bottom_score: scores(board, bottom),
                        winner: board.through().map(|w| w == top),
                    });
                }
            }
        }
        rounds.push((title, matches));
    }
    let winner = match super::winners(event).as_slice() {
        [w] if event.state == super::State::Finished => {
            format!(" The winner: {}.", event.entrants[*w].name())
        }
        _ => String::new(),
    };
    Reply::Board(Box::new(Board::chart(Chart {
        name: format!("{}-bracket-{}.png", event.name, report::completed(event)),
        alt: format!(
            "Knockout bracket of {}, {} of {total} rounds played.{winner}",
            event.name,
            report::completed(event)
        ),
        kind: ChartKind::Bracket {
            title: format!("{} · knockout", event.name),
            rounds,
        },
    })))
}

/// The standings as replies: the text and the table as an image (the bracket, in a
/// knockout).
pub fn standings_replies(event: &Event) -> Vec<Reply> {
    if event.knockout() {
        return vec![Reply::Text(report::bracket_text(event)), bracket(event)];
    }
    vec![Reply::Text(report::standings_text(event)), standings(event)]
}
