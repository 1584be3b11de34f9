//! An event as the Swiss pairing rules and FIDE's report file read it: every completed round's
//! games with their results (a forfeit as unplayed), byes and absences
//! (`muster_rules::tournament::Field`), and the event as a TRF-16 file.

use muster_rules::tournament::trf::{self, Player, Report};
use muster_rules::tournament::{Entry, Field};

use super::report::{completed, lines};
use super::{Event, Score, State, System, withdrawn};

/// The event's completed rounds as the pairing rules read them, with who is out of the next.
pub(super) fn field(event: &Event) -> Field {
    let n = event.entrants.len();
    let rounds = completed(event);
    let mut field = Field::new(n, event.total_rounds());
    for round in &event.played[..rounds] {
        let mut entries = vec![Entry::Absent; n];
        for board in &round.boards {
            let Some(result) = board.result() else {
                continue;
            };
            let white = match result {
                Score::White => 2,
                Score::Black => 0,
                Score::Draw => 1,
            };
            let forfeit = board.forfeit();
            entries[board.white] = Entry::Game {
                opponent: board.black,
                white: true,
                points: white,
                forfeit,
            };
            entries[board.black] = Entry::Game {
                opponent: board.white,
                white: false,
                points: 2 - white,
                forfeit,
            };
        }
        if event.system == System::Swiss {
            for &e in &round.byes {
                entries[e] = Entry::Bye;
            }
        }
        field.rounds.push(entries);
    }
    field.out = (0..n).map(|e| withdrawn(event, e, rounds)).collect();
    field
}

/// The event as FIDE's Tournament Report File (TRF-16): its completed rounds, points and
/// ranks; a knockout's matches do not fit it (`None`).
#[allow(dead_code)] // the export command uses it next
pub(super) fn trf(event: &Event, start: Option<String>) -> Option<String> {
    let kind = match event.system {
        System::Swiss => "Swiss (FIDE Dutch system)",
        System::RoundRobin => "Round robin",
        System::Double => "Double round robin",
        System::Knockout => return None,
    };
    let field = field(event);
    let mut ranks = vec![0; event.entrants.len()];
    for line in lines(event) {
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
        running: event.state != State::Finished && field.rounds.len() < event.total_rounds(),
        field,
    };
    Some(trf::write(&report))
}
