//! An event as the Swiss pairing rules and FIDE's report file read it: every completed round's
//! games with their results (a forfeit as unplayed), byes and absences
//! (`muster_rules::tournament::Field`), and the event as a TRF-16 file; `tournament export`'s
//! file in either format.

use muster_rules::tournament::trf::{self, Player, Report};
use muster_rules::tournament::{Field, Pairing, Round};

use super::report::{self, completed, lines};
use super::{Event, State, System, withdrawn};
use crate::kernel::reply::Reply;

/// The event's completed rounds as the pairing rules read them, with who is out of the next.
pub(super) fn field(event: &Event) -> Field {
    let n = event.entrants.len();
    let rounds = completed(event);
    let mut field = Field::new(n, event.total_rounds());
    for round in &event.played[..rounds] {
        // The decided boards (all of a completed round's), with White's points and whether
        // each was a forfeit; a Swiss bye (a round robin's rest is no bye: absent).
        let decided: Vec<(Pairing, (u32, bool))> = round
            .boards
            .iter()
            .filter_map(|b| {
                let result = (b.result()?.white_points(), b.forfeit());
                Some((
                    Pairing {
                        white: b.white,
                        black: b.black,
                    },
                    result,
                ))
            })
            .collect();
        let paired = Round {
            pairings: decided.iter().map(|(p, _)| *p).collect(),
            rest: round
                .byes
                .first()
                .copied()
                .filter(|_| event.system == System::Swiss),
        };
        field.push(&paired, |white, black| {
            decided
                .iter()
                .find(|(p, _)| (p.white, p.black) == (white, black))
                .map_or((0, false), |(_, result)| *result)
        });
    }
    field.out = (0..n).map(|e| withdrawn(event, e, rounds)).collect();
    field
}

/// The event as FIDE's Tournament Report File (TRF-16): its completed rounds, points and
/// ranks; a knockout's matches do not fit it (`None`).
pub(super) fn trf(event: &Event, start: Option<String>) -> Option<String> {
    let kind = match event.system {
        System::Swiss => "Swiss (FIDE Dutch system)",
        System::RoundRobin => "Round robin",
        System::Double => "Double round robin",
        System::Knockout => return None,
    };
    let field = field(event);
    let mut ranks = vec![0; event.entrants.len()];
    for line in lines(event, &report::table(event)) {
        ranks[line.entrant] = line.rank;
    }
    let report = Report {
        name: event.name.clone(),
        kind: kind.into(),
        start,
        players: event
            .entrants
            .iter()
            .map(|e| Player {
                name: e.name(),
                rating: e.rating.map(|r| r.round().clamp(0.0, 9999.0) as u32),
            })
            .collect(),
        ranks,
        running: matches!(event.state, State::Running | State::Paused)
            && field.rounds.len() < event.total_rounds(),
        field,
    };
    Some(trf::write(&report))
}

/// `tournament export <name> [json|trf]`: the event `name` as a file, JSON unless the word
/// after the name is `trf`; `p` is the command prefix. Refusals are the `Err`.
pub(super) fn export(
    event: &Event,
    name: &str,
    rest: &[String],
    p: &str,
) -> Result<Vec<Reply>, String> {
    let word = match rest {
        [] => "json".to_string(),
        [w] => w.to_ascii_lowercase(),
        _ => rest.join(" "),
    };
    let json = format!("`{p}tournament export {name}` gives the event as JSON");
    let knockout = format!(
        "{name} is a knockout: its matches (replays, byes, a higher seed going through on draws) \
         do not fit FIDE's report file (TRF). {json}."
    );
    let content = match word.as_str() {
        "json" => {
            serde_json::to_string_pretty(&report::export(event)).map_err(|e| e.to_string())?
        }
        "trf" if event.knockout() => return Err(knockout),
        "trf" if event.played.is_empty() => {
            return Err(format!(
                "{name} has no round paired yet: its report file would have nothing in it. {json}."
            ));
        }
        "trf" => trf(event, Some(day(event.created))).ok_or(knockout)?,
        _ => {
            return Err(format!(
                "`{}` is not an export format: say `json` (the default: `{p}tournament export \
                 {name}`) or `trf`, FIDE's Tournament Report File (`{p}tournament export {name} \
                 trf`).",
                crate::kernel::text::excerpt(&word, 24)
            ));
        }
    };
    Ok(vec![Reply::File {
        name: format!("{name}.{word}"),
        content,
    }])
}

/// The event's report file as `tournament export <name> trf` gives it, dated by its creation;
/// `None` for a knockout, or before a round is paired.
pub fn trf_file(event: &Event) -> Option<String> {
    if event.played.is_empty() {
        return None;
    }
    trf(event, Some(day(event.created)))
}

/// The day of `at` (seconds since the Unix epoch) in UTC, as the report file dates: `2026/11/25`.
fn day(at: u64) -> String {
    let at = i64::try_from(at).unwrap_or(i64::MAX);
    chrono::DateTime::from_timestamp(at, 0)
        .unwrap_or_default()
        .format("%Y/%m/%d")
        .to_string()
}
