//! What an event says: its list, pairings, standings (with every tie-break), the knockout
//! bracket, and the export (docs/machine-interface.md).

use muster_rules::tournament::standings::{self, Line, RoundResult};
use serde_json::{Value, json};

use super::{Event, RoundRecord, Score, State, System, index};
use crate::kernel::context::Context;
use crate::kernel::reply::Reply;
use crate::kernel::request::Request;
use crate::kernel::surface::Surface;

/// Whether every board of round `r` (from 0) is decided.
fn complete(event: &Event, r: usize) -> bool {
    event.played[r]
        .boards
        .iter()
        .all(|b| b.done(event.knockout()))
}

/// The rounds whose every board is decided, from the first.
pub(super) fn completed(event: &Event) -> usize {
    (0..event.played.len())
        .take_while(|r| complete(event, *r))
        .count()
}

/// Each entrant's rounds, over the completed rounds, as the tie-break rules read them.
pub(super) fn table(event: &Event) -> Vec<standings::Entrant> {
    let rounds = completed(event);
    let mut all: Vec<standings::Entrant> = event
        .entrants
        .iter()
        .map(|e| standings::Entrant {
            rounds: Vec::new(),
            withdrawn_from: e.withdrawn_from.filter(|w| *w < rounds),
        })
        .collect();
    for round in &event.played[..rounds] {
        let mut seen = vec![false; all.len()];
        for board in &round.boards {
            let Some(result) = board.result() else {
                continue;
            };
            let w = result.white_points();
            let b = 2 - w;
            for (me, other, points) in
                [(board.white, board.black, w), (board.black, board.white, b)]
            {
                seen[me] = true;
                all[me].rounds.push(if board.forfeit() {
                    RoundResult::Unplayed {
                        points,
                        voluntary: points == 0,
                    }
                } else {
                    RoundResult::Played {
                        opponent: other,
                        points,
                    }
                });
            }
        }
        for &e in &round.byes {
            seen[e] = true;
            all[e].rounds.push(match event.system {
                System::Swiss => RoundResult::Unplayed {
                    points: 2,
                    voluntary: false,
                },
                _ => RoundResult::Rest,
            });
        }
        for (e, s) in seen.iter().enumerate() {
            if !s {
                // Absent: withdrawn, or entered after the round.
                all[e].rounds.push(RoundResult::Unplayed {
                    points: 0,
                    voluntary: true,
                });
            }
        }
    }
    all
}

pub(super) fn half(points: u32) -> String {
    if points.is_multiple_of(2) {
        format!("{}", points / 2)
    } else if points == 1 {
        "½".into()
    } else {
        format!("{}½", points / 2)
    }
}

fn quarter(q: u32) -> String {
    let whole = q / 4;
    let part = ["", "¼", "½", "¾"][(q % 4) as usize];
    match (whole, part) {
        (_, "") => format!("{whole}"),
        (0, part) => part.to_string(),
        (whole, part) => format!("{whole}{part}"),
    }
}

/// The names of the tie-breaks of `system`, in order.
pub(super) fn tiebreak_names(system: System) -> &'static [&'static str] {
    match system {
        System::Swiss => &["buchholz_cut1", "buchholz", "sonneborn_berger", "wins"],
        _ => &["sonneborn_berger", "direct_encounter", "wins"],
    }
}

fn tiebreak_value(name: &str, v: u32) -> Value {
    match name {
        "sonneborn_berger" => json!(f64::from(v) / 4.0),
        "wins" => json!(v),
        _ => json!(f64::from(v) / 2.0),
    }
}

pub(super) fn tiebreak_text(name: &str, v: u32) -> String {
    match name {
        "sonneborn_berger" => quarter(v),
        "wins" => v.to_string(),
        _ => half(v),
    }
}

/// A tie-break's short heading.
pub(super) fn tiebreak_head(name: &str) -> &'static str {
    match name {
        "buchholz_cut1" => "BhC1",
        "buchholz" => "Bh",
        "sonneborn_berger" => "SB",
        "direct_encounter" => "DE",
        _ => "Wins",
    }
}

/// Games an entrant played over the board.
pub(super) fn games(entrant: &standings::Entrant) -> usize {
    entrant
        .rounds
        .iter()
        .filter(|r| matches!(r, RoundResult::Played { .. }))
        .count()
}

/// Half points an entrant won without playing: pairing byes and forfeits won.
pub(super) fn unplayed(entrant: &standings::Entrant) -> u32 {
    entrant
        .rounds
        .iter()
        .map(|r| match r {
            RoundResult::Unplayed { points, .. } => *points,
            _ => 0,
        })
        .sum()
}

/// The mark beside a score that includes points won without playing.
pub(super) const UNPLAYED_MARK: char = '*';

/// A score (half points) as the standings image shows it: `2½*` when `unplayed` half points of
/// it were won without playing.
pub(super) fn marked(score: u32, unplayed: u32) -> String {
    let mut text = half(score);
    if unplayed > 0 {
        text.push(UNPLAYED_MARK);
    }
    text
}

/// The note under standings whose scores carry the mark: the `marked` entrants (name and half
/// points won without playing, in the standings' order), in lines of at most `width`
/// characters; nothing when no score is marked.
pub(super) fn unplayed_note(marked: &[(String, u32)], width: usize) -> Vec<String> {
    if marked.is_empty() {
        return Vec::new();
    }
    let items: Vec<String> = marked
        .iter()
        .map(|(name, u)| format!("{name} {}", half(*u)))
        .collect();
    let head = format!("{UNPLAYED_MARK} points won without playing (bye or forfeit):");
    let mut lines = vec![head];
    let last = items.len() - 1;
    for (i, item) in items.into_iter().enumerate() {
        let item = if i < last { format!("{item},") } else { item };
        let line = lines.last_mut().expect("a line");
        if line.chars().count() + 1 + item.chars().count() <= width {
            line.push(' ');
            line.push_str(&item);
        } else {
            lines.push(format!("  {item}"));
        }
    }
    lines
}

/// The entrants whose scores carry the mark, in the standings' order: each one's name, cut to
/// `cut` characters, and his half points won without playing.
pub(super) fn marked_entrants(
    event: &Event,
    lines: &[Line],
    table: &[standings::Entrant],
    cut: usize,
) -> Vec<(String, u32)> {
    lines
        .iter()
        .map(|l| (l.entrant, unplayed(&table[l.entrant])))
        .filter(|(_, u)| *u > 0)
        .map(|(e, u)| (event.entrants[e].name().chars().take(cut).collect(), u))
        .collect()
}

/// How wide the standings' text and notes are, in characters (a code block on a phone).
const TEXT_WIDTH: usize = 60;

/// The standings' lines from the event's `table` ([`table`]).
pub(super) fn lines(event: &Event, table: &[standings::Entrant]) -> Vec<Line> {
    let system = match event.system {
        System::Swiss => standings::System::Swiss,
        _ => standings::System::RoundRobin,
    };
    standings::standings(table, system)
}

/// The standings as text: rank, name, points, games, tie-breaks, in at most [`TEXT_WIDTH`]
/// characters a line; a score that includes points won without playing is marked, and a note
/// under the table says whose and how many.
pub(super) fn standings_text(event: &Event) -> String {
    if event.knockout() {
        return bracket_text(event);
    }
    let rounds = completed(event);
    let table = table(event);
    let names = tiebreak_names(event.system);
    let heads: Vec<&str> = names.iter().map(|n| tiebreak_head(n)).collect();
    // The mark sits right of the points, in the space before the games.
    let mut text = format!(
        "Standings of {} after round {rounds} of {}:\n```\n{:>3} {:<20} {:>4}  {:>5}",
        event.name,
        event.total_rounds(),
        "#",
        "Name",
        "Pts",
        "Games"
    );
    for h in &heads {
        text.push_str(&format!(" {h:>5}"));
    }
    text.push('\n');
    let lines = lines(event, &table);
    for line in &lines {
        let e = &event.entrants[line.entrant];
        let games = games(&table[line.entrant]);
        let mut name = e.name();
        if e.withdrawn_from.is_some() {
            name.push_str(" (w)");
        }
        let name: String = name.chars().take(20).collect();
        let mark = if unplayed(&table[line.entrant]) > 0 {
            UNPLAYED_MARK
        } else {
            ' '
        };
        text.push_str(&format!(
            "{:>3} {:<20} {:>4}{mark} {:>5}",
            line.rank,
            name,
            half(line.score),
            games
        ));
        for (n, v) in names.iter().zip(&line.tiebreaks) {
            text.push_str(&format!(" {:>5}", tiebreak_text(n, *v)));
        }
        text.push('\n');
    }
    let marked = marked_entrants(event, &lines, &table, 20);
    for note in unplayed_note(&marked, TEXT_WIDTH) {
        text.push_str(&note);
        text.push('\n');
    }
    text.push_str("```");
    text
}

/// The knockout bracket as text: each round's matches and who went through.
pub(super) fn bracket_text(event: &Event) -> String {
    let mut text = format!("Bracket of {}:\n", event.name);
    let seed = |e: usize| format!("{} ({})", event.entrants[e].name(), e + 1);
    for (r, round) in event.played.iter().enumerate() {
        let title = match event.total_rounds() - r {
            1 => "Final".to_string(),
            2 => "Semi-finals".to_string(),
            3 => "Quarter-finals".to_string(),
            _ => format!("Round {}", r + 1),
        };
        text.push_str(&format!("{title}:\n"));
        // The first round in bracket order, its byes among the matches.
        let mut byes = Vec::new();
        let mut boards: Vec<&super::Board> = Vec::new();
        if r == 0 {
            let mut played = round.boards.iter();
            for (a, b) in muster_rules::tournament::knockout::first_round(event.entrants.len()) {
                match b {
                    None => byes.push((boards.len(), a)),
                    Some(_) => boards.extend(played.next()),
                }
            }
        } else {
            boards.extend(round.boards.iter());
        }
        for (i, board) in boards.iter().enumerate() {
            for (_, b) in byes.iter().filter(|(at, _)| *at == i) {
                text.push_str(&format!("  {} — bye\n", seed(*b)));
            }
            let games: Vec<String> = board
                .games
                .iter()
                .map(|g| match g.result {
                    Some(s) if g.white == board.white => s.code().to_string(),
                    Some(s) => s.flipped().code().to_string(),
                    None => "…".to_string(),
                })
                .collect();
            let through = match board.through() {
                Some(w) if board.result() == Some(Score::Draw) => {
                    format!(" → {} through as the higher seed", event.entrants[w].name())
                }
                Some(w) => format!(" → {}", event.entrants[w].name()),
                None => String::new(),
            };
            text.push_str(&format!(
                "  {} v {}: {}{through}\n",
                seed(board.white),
                seed(board.black),
                games.join(", ")
            ));
        }
        for (_, b) in byes.iter().filter(|(at, _)| *at >= boards.len()) {
            text.push_str(&format!("  {} — bye\n", seed(*b)));
        }
    }
    if event.played.is_empty() {
        text.push_str("  (not started)\n");
    }
    text.trim_end().to_string()
}

/// Who won, once the event is over.
pub(super) fn winner_line(event: &Event) -> String {
    if event.knockout() {
        return match super::winners(event).as_slice() {
            [w] => format!("The winner: {}.", event.entrants[*w].name()),
            _ => String::new(),
        };
    }
    let lines = lines(event, &table(event));
    let first: Vec<String> = lines
        .iter()
        .filter(|l| l.rank == 1)
        .map(|l| event.entrants[l.entrant].name())
        .collect();
    match first.as_slice() {
        [] => String::new(),
        [one] => format!("The winner: {one}."),
        many => format!("Shared first place: {}.", many.join(", ")),
    }
}

/// Round `r`'s (from 1) pairings as text, each board linked to its place through `surface`
/// (`None`: the places left out, for a channel on another platform, whose players do not play
/// there).
pub fn pairings_text(event: &Event, r: usize, surface: Option<&dyn Surface>) -> String {
    let Some(round) = event.played.get(r - 1) else {
        return format!("{} has no round {r}.", event.name);
    };
    let name = |e: usize| event.entrants[e].name();
    let mut text = format!(
        "{} · round {r} of {}{}:\n",
        event.name,
        event.total_rounds(),
        if round.colours_relaxed {
            " (colour rules relaxed to pair it)"
        } else {
            ""
        }
    );
    for (b, board) in round.boards.iter().enumerate() {
        let result = match (board.result(), board.forfeit()) {
            (Some(s), true) => format!(" — {} (forfeit)", s.code()),
            (Some(s), false) if board.done(event.knockout()) => format!(" — {}", s.code()),
            _ => String::new(),
        };
        let place = board
            .channel
            .as_deref()
            .zip(surface)
            .map(|(c, s)| format!(" in {}", s.channel_link(c)))
            .unwrap_or_default();
        text.push_str(&format!(
            "Board {}: {} (White) v {} (Black){place}{result}\n",
            b + 1,
            name(board.white),
            name(board.black)
        ));
    }
    for e in &round.byes {
        let what = match event.system {
            System::Swiss => "bye (1 point)",
            System::Knockout => "bye (through to the next round)",
            _ => "rests this round",
        };
        text.push_str(&format!("{}: {what}\n", event.entrants[*e].name()));
    }
    text.trim_end().to_string()
}

/// `tournament list`: the community's events.
pub fn list(core: &Context, req: &Request) -> Vec<Reply> {
    let community = req.policy.community.clone();
    let surface = core.surface(&req.platform);
    let listed: Vec<String> = index(core.base.as_ref(), &req.platform)
        .into_iter()
        .filter(|l| l.community == community)
        .filter_map(|l| {
            let e = super::reload(core.base.as_ref(), &req.platform, &l.community, &l.name)?;
            let state = match e.state {
                State::Open => format!("open for entries ({})", e.entrants.len()),
                State::Running => format!("round {} of {}", e.played.len(), e.total_rounds()),
                State::Paused => "paused".into(),
                State::Finished => "finished".into(),
                State::Cancelled => "cancelled".into(),
            };
            Some(format!(
                "{} — {} {} in {}: {state}",
                e.name,
                e.system.title(),
                e.game,
                surface.channel_link(&e.channel)
            ))
        })
        .collect();
    if listed.is_empty() {
        return vec![Reply::Private(format!(
            "No events here yet. An organiser opens one with `{}tournament new spring lanrick swiss`.",
            core.prefix
        ))];
    }
    vec![Reply::Private(format!("Events:\n{}", listed.join("\n")))]
}

/// The event as JSON (docs/machine-interface.md, "Tournament export").
pub fn export(event: &Event) -> Value {
    let names = tiebreak_names(event.system);
    let mut out = json!({
        "format": "muster-tournament",
        "version": 1,
        "name": event.name,
        "game": event.game,
        "system": event.system.word(),
        "pairs": event.pairs,
        "clock": event.clock.map(|c| c.typed()),
        "state": state_word(event.state),
        "rounds_planned": (event.state != State::Open).then(|| event.total_rounds()),
        "rounds_completed": completed(event),
        "entrants": (0..event.entrants.len())
            .map(|e| entrant_json(event, e))
            .collect::<Vec<_>>(),
        "rounds": event
            .played
            .iter()
            .enumerate()
            .map(|(r, round)| round_json(event, r, round))
            .collect::<Vec<_>>(),
        "tiebreaks": names,
        "standings": standings_json(event, names),
    });
    if event.knockout() {
        out["winner"] = json!(match super::winners(event).as_slice() {
            [w] if event.state == State::Finished => Some(w + 1),
            _ => None,
        });
    }
    out
}

/// The event's state as the export words it.
fn state_word(state: State) -> &'static str {
    match state {
        State::Open => "open",
        State::Running => "running",
        State::Paused => "paused",
        State::Finished => "finished",
        State::Cancelled => "cancelled",
    }
}

/// Entrant `e` (from 0) in the export: seed, name, players, rating, withdrawal.
fn entrant_json(event: &Event, e: usize) -> Value {
    let x = &event.entrants[e];
    json!({
        "seed": e + 1,
        "name": x.name(),
        "players": x.players.iter().map(|p| json!({"id": p.id, "name": p.name})).collect::<Vec<_>>(),
        "rating": x.rating,
        "withdrawn": x.withdrawn_from.is_some(),
        "withdrawn_from_round": x.withdrawn_from.map(|r| r + 1),
    })
}

/// Round `r` (from 0) in the export: its pairings, and who did not play as the system says
/// it (a Swiss `bye`, a round robin's `rest`, a knockout's `byes` beside its `matches`).
fn round_json(event: &Event, r: usize, round: &RoundRecord) -> Value {
    let mut value = json!({
        "round": r + 1,
        "pairings": pairings_json(event, round),
        "colours_relaxed": round.colours_relaxed,
    });
    let byes: Vec<usize> = round.byes.iter().map(|e| e + 1).collect();
    match event.system {
        System::Swiss => value["bye"] = json!(byes.first()),
        System::Knockout => {
            value["byes"] = json!(byes);
            value["matches"] = matches_json(round);
        }
        _ => value["rest"] = json!(byes.first()),
    }
    value
}

/// Every game of a round's boards in the export, board by board, each with its colours.
fn pairings_json(event: &Event, round: &RoundRecord) -> Vec<Value> {
    let mut pairings = Vec::new();
    for (b, board) in round.boards.iter().enumerate() {
        for (g, game) in board.games.iter().enumerate() {
            let black = if game.white == board.white {
                board.black
            } else {
                board.white
            };
            pairings.push(json!({
                "board": b + 1,
                "game": g + 1,
                "white": game.white + 1,
                "black": black + 1,
                "white_name": event.entrants[game.white].name(),
                "black_name": event.entrants[black].name(),
                "channel": board.channel,
                "game_id": (!game.id.is_empty()).then_some(&game.id),
                "result": game.result.map(Score::code),
                "forfeit": game.forfeit,
                "adjudicated": game.adjudicated,
            }));
        }
    }
    pairings
}

/// A knockout round's matches in the export: the seeds on each board and who went through.
fn matches_json(round: &RoundRecord) -> Value {
    round
        .boards
        .iter()
        .enumerate()
        .map(|(b, board)| {
            json!({
                "board": b + 1,
                "higher": board.white.min(board.black) + 1,
                "lower": board.white.max(board.black) + 1,
                "through": board.through().map(|w| w + 1),
                "by_seed": board.through().is_some() && board.result() == Some(Score::Draw),
            })
        })
        .collect()
}

/// The standings in the export (none for a knockout), each line with its tie-breaks `names`
/// and the points of its score won without playing.
fn standings_json(event: &Event, names: &[&str]) -> Vec<Value> {
    if event.knockout() {
        return Vec::new();
    }
    let table = table(event);
    lines(event, &table)
        .iter()
        .map(|l| {
            let tiebreaks: serde_json::Map<String, Value> = names
                .iter()
                .zip(&l.tiebreaks)
                .map(|(n, v)| (n.to_string(), tiebreak_value(n, *v)))
                .collect();
            json!({
                "rank": l.rank,
                "seed": l.entrant + 1,
                "name": event.entrants[l.entrant].name(),
                "points": f64::from(l.score) / 2.0,
                "unplayed_points": f64::from(unplayed(&table[l.entrant])) / 2.0,
                "tiebreaks": tiebreaks,
            })
        })
        .collect()
}

/// The event names of `req`'s community beginning with `typed`, for completion.
pub fn names(core: &Context, platform: &str, community: &str, typed: &str) -> Vec<String> {
    index(core.base.as_ref(), platform)
        .into_iter()
        .filter(|l| l.community == community && l.name.starts_with(typed))
        .map(|l| l.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_on_unplayed_points_wraps_within_its_width_and_names_everyone() {
        assert!(unplayed_note(&[], TEXT_WIDTH).is_empty());
        let one = unplayed_note(&[("gus".into(), 2)], TEXT_WIDTH);
        assert_eq!(
            one,
            ["* points won without playing (bye or forfeit): gus 1"]
        );
        let many: Vec<(String, u32)> = (0..7)
            .map(|i| (format!("{i}-featherstonehaugh-x"), 1 + i))
            .collect();
        let note = unplayed_note(&many, TEXT_WIDTH);
        assert!(note.len() > 2, "{note:?}");
        for line in &note {
            assert!(line.chars().count() <= TEXT_WIDTH, "{line}");
        }
        assert!(note[1..].iter().all(|l| l.starts_with("  ")), "{note:?}");
        let all = note.join(" ");
        for (i, (name, u)) in many.iter().enumerate() {
            let comma = if i + 1 < many.len() { "," } else { "" };
            assert!(
                all.contains(&format!("{name} {}{comma}", half(*u))),
                "{all}"
            );
        }
    }
}
