//! `games`: a player's dashboard. His live games across every channel of the platform, those
//! where it is his move first, each with a link to its channel, the opponents, the game, the
//! moves played and the time left on the running clock (the least first) or, untimed, how long
//! the game has waited for its next decision (the longest-waiting first); then his last
//! finished games with their ids for `export`.

use muster_rules::AnyGame;

use crate::kernel::clock::duration;
use crate::kernel::context::Core;
use crate::kernel::reply::Reply;
use crate::kernel::request::Request;
use crate::kernel::store::{GameRecord, Status};
use crate::kernel::surface::Surface;
use crate::kernel::text::{capitalised, excerpt};
use crate::players::profile::profile;

/// How many finished games are listed.
const FINISHED_SHOWN: usize = 10;
/// How many live games are listed (the rest are counted).
const LIVE_SHOWN: usize = 25;

/// One live game as the dashboard lists it.
struct Live {
    /// Whether the player decides next.
    his_move: bool,
    /// Since when the game has waited (seconds since the Unix epoch).
    since: u64,
    /// When the clock of the seat to move runs out, in a timed game.
    deadline: Option<u64>,
    line: String,
}

/// `away`: until when the player to move is on vacation, if he is.
fn row(
    surface: &dyn Surface,
    record: &GameRecord,
    who: &str,
    whose: &str,
    now: u64,
    away: Option<u64>,
) -> Live {
    let game = record.rebuild().ok();
    let title = record
        .game_id()
        .map_or("(an unknown game)", |id| id.title());
    let others: Vec<&str> = record
        .seats
        .iter()
        .filter_map(|s| s.player.as_ref())
        .filter(|p| p.id != who)
        .map(|p| p.name.as_str())
        .collect();
    let against = if others.is_empty() {
        String::from("alone so far")
    } else {
        format!("against {}", others.join(", "))
    };
    let to_move = game
        .as_ref()
        .and_then(AnyGame::to_move)
        .and_then(|s| record.player(s.index()));
    // A challenge waiting for his answer is his to act on, as a move is.
    let challenged = record.status == Status::Open
        && record
            .seats
            .iter()
            .any(|s| !s.accepted && s.player.as_ref().is_some_and(|p| p.id == who));
    let his_move =
        challenged || record.status == Status::Active && to_move.is_some_and(|p| p.id == who);
    let state = match (record.status, to_move, game.is_some()) {
        (_, _, false) => "its record cannot be read".to_string(),
        _ if challenged => format!("{whose} answer to the challenge"),
        (Status::Open, _, _) => "waiting for players".to_string(),
        _ if his_move => format!("{whose} move"),
        (_, Some(p), _) => format!("{} to move", p.name),
        (_, None, _) => "waiting".to_string(),
    };
    let since = record
        .times
        .last()
        .copied()
        .or(record.started)
        .unwrap_or(record.created);
    let deadline = record
        .deadline()
        .filter(|_| record.status == Status::Active);
    let mut time = match deadline {
        Some(d) if d <= now => "time has run out".to_string(),
        Some(d) => format!("{} left", duration(d - now)),
        None => format!("waiting {}", duration(now.saturating_sub(since))),
    };
    if let Some(to) = away.filter(|_| deadline.is_some()) {
        let who = if his_move {
            "you are".to_string()
        } else {
            to_move.map_or("the player to move is".into(), |p| format!("{} is", p.name))
        };
        time.push_str(&format!(
            " (the clock stands still: {who} on vacation until {})",
            surface.time(to, now)
        ));
    }
    let line = format!(
        "• {} — {} · {title} {against} · {} · {time}",
        capitalised(&state),
        surface.channel_link(&record.channel),
        moves(record.moves.len()),
    );
    Live {
        his_move,
        since,
        deadline,
        line,
    }
}

fn moves(n: usize) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}

/// The dashboard of the asker, or of the player `name` (a name or id he is mentioned by).
pub fn games(core: &Core, req: &Request, name: Option<String>) -> Vec<Reply> {
    let (who, shown) = match &name {
        Some(n) => req
            .mentions
            .iter()
            .find(|m| m.name == *n || m.id == *n)
            .map_or((n.clone(), n.clone()), |m| (m.id.clone(), m.name.clone())),
        None => (req.user.id.clone(), req.user.name.clone()),
    };
    let (mine, whose) = if who == req.user.id {
        (true, "your")
    } else {
        (false, "their")
    };
    let live = match core.store.live_games_of(&req.platform, &who) {
        Ok(l) => l,
        Err(e) => {
            return vec![Reply::Private(format!(
                "The game store is not available ({e})."
            ))];
        }
    };
    let finished = match core.store.games_of(&who) {
        Ok(f) => f,
        Err(e) => {
            return vec![Reply::Private(format!(
                "The game store is not available ({e})."
            ))];
        }
    };
    let shown = excerpt(&shown, 64);
    if live.is_empty() && finished.is_empty() {
        return vec![Reply::Private(if mine {
            format!(
                "You have no games yet. `{}new <game> @opponent` starts one here.",
                core.prefix
            )
        } else {
            format!("{shown} has no games here.")
        })];
    }
    let now = core.clock.now();
    let surface = core.surface(&req.platform);
    let mut lines = Vec::new();
    if live.is_empty() {
        lines.push(if mine {
            "No live games.".to_string()
        } else {
            format!("{shown} has no live games.")
        });
    } else {
        let away = |r: &GameRecord| {
            let player = r.wait.and_then(|w| r.player(w.seat))?;
            profile(core.base.as_ref(), &r.platform, &player.id).away_until(now)
        };
        let mut rows: Vec<Live> = live
            .iter()
            .map(|r| row(surface.as_ref(), r, &who, whose, now, away(r)))
            .collect();
        // His moves first; the least time left first (timed games before untimed ones),
        // then the longest waiting.
        rows.sort_by(|a, b| {
            b.his_move
                .cmp(&a.his_move)
                .then(
                    a.deadline
                        .unwrap_or(u64::MAX)
                        .cmp(&b.deadline.unwrap_or(u64::MAX)),
                )
                .then(a.since.cmp(&b.since))
        });
        let waiting = rows.iter().filter(|r| r.his_move).count();
        lines.push(if mine {
            format!("Your live games ({}, your move in {waiting}):", live.len())
        } else {
            format!(
                "Live games of {shown} ({}, their move in {waiting}):",
                live.len()
            )
        });
        let more = rows.len().saturating_sub(LIVE_SHOWN);
        lines.extend(rows.into_iter().take(LIVE_SHOWN).map(|r| r.line));
        if more > 0 {
            lines.push(format!("… and {more} more, waiting on others."));
        }
    }
    if !finished.is_empty() {
        lines.push("Finished games (newest first):".into());
        for r in finished.iter().take(FINISHED_SHOWN) {
            let (title, result) = match r.rebuild() {
                Ok(g) => (g.id().title(), r.result_word(&g)),
                Err(_) => ("(unreadable)", "?".into()),
            };
            let players: Vec<&str> = r
                .seats
                .iter()
                .filter_map(|s| s.player.as_ref().map(|p| p.name.as_str()))
                .collect();
            lines.push(format!(
                "• {} — {title}, {} — {result}, {} (`{}export {}`)",
                r.id,
                players.join(" vs "),
                moves(r.moves.len()),
                core.prefix,
                r.id
            ));
        }
    }
    vec![Reply::Private(lines.join("\n"))]
}
