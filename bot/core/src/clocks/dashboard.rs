//! `games`: a player's dashboard. His live games across every channel of the platform (and of
//! the other platforms his account is linked with), those
//! where it is his move first, each with a link to its channel, the opponents, the game, the
//! moves played and the time left on the running clock (the least first) or, untimed, how long
//! the game has waited for its next decision (the longest-waiting first); then his last
//! finished games with their ids for `export`.

use muster_rules::AnyGame;

use crate::kernel::clock::duration;
use crate::kernel::context::Context;
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::Reply;
use crate::kernel::request::Request;
use crate::kernel::store::{GameRecord, Player, Status};
use crate::kernel::surface::Surface;
use crate::kernel::text::{capitalised, excerpt};
use crate::players::links;
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

/// The dashboard's line for `record`, a live game of the player `who` (`whose`: `your` or
/// `their`), played at `place` (a link to it). `away`: until when the player to move is on vacation, if he is.
fn row(
    surface: &dyn Surface,
    record: &GameRecord,
    place: &str,
    who: &str,
    whose: &str,
    now: u64,
    away: Option<u64>,
) -> Live {
    let game = record.rebuild().ok();
    let title = record
        .game_id()
        .map_or("(an unknown game)", |id| id.title());
    let to_move = game
        .as_ref()
        .and_then(AnyGame::to_move)
        .and_then(|s| record.player(s.index()));
    // A challenge waiting for his answer is his to act on, as a move is.
    let challenged = challenged(record, who);
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
        time.push_str(&standing_still(surface, his_move, to_move, to, now));
    }
    let line = format!(
        "• {} — {} · {title} {} · {} · {time}",
        capitalised(&state),
        place,
        against(record, who),
        moves(record.moves.len()),
    );
    Live {
        his_move,
        since,
        deadline,
        line,
    }
}

/// Whether `record` is a challenge that waits for `who`'s answer.
fn challenged(record: &GameRecord, who: &str) -> bool {
    record.status == Status::Open
        && record
            .seats
            .iter()
            .any(|s| !s.accepted && s.player.as_ref().is_some_and(|p| p.id == who))
}

/// Whom `who` plays against in `record`: `against bob, carol`, or `alone so far`.
fn against(record: &GameRecord, who: &str) -> String {
    let others: Vec<&str> = record
        .seats
        .iter()
        .filter_map(|s| s.player.as_ref())
        .filter(|p| p.id != who)
        .map(|p| p.name.as_str())
        .collect();
    if others.is_empty() {
        String::from("alone so far")
    } else {
        format!("against {}", others.join(", "))
    }
}

/// What the time left says when the player to move (`to_move`; the dashboard's player when
/// `his_move`) is on vacation until `to`.
fn standing_still(
    surface: &dyn Surface,
    his_move: bool,
    to_move: Option<&Player>,
    to: u64,
    now: u64,
) -> String {
    let who = if his_move {
        "you are".to_string()
    } else {
        to_move.map_or("the player to move is".into(), |p| format!("{} is", p.name))
    };
    format!(
        " (the clock stands still: {who} on vacation until {})",
        surface.time(to, now)
    )
}

fn moves(n: usize) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}

/// The dashboard of the asker, or of the player `name` (a name or id he is mentioned by); with
/// his games under every account linked with his (docs/guide.md, "One player on two
/// platforms").
pub fn games(core: &Context, req: &Request, name: Option<String>) -> Vec<Reply> {
    let (who, shown) = player_asked(req, name.as_deref());
    let mine = who == req.user.id;
    let accounts = links::accounts_of(core.base.as_ref(), &req.platform, &who);
    let linked = accounts.len() > 1;
    let mut live: Vec<(String, GameRecord)> = Vec::new();
    let mut finished: Vec<GameRecord> = Vec::new();
    for account in &accounts {
        match core.store.live_games_of(&account.platform, &account.id) {
            Ok(l) => live.extend(l.into_iter().map(|r| (account.id.clone(), r))),
            Err(e) => return unavailable(e),
        }
        match core.store.games_of(&account.id) {
            // An account of another platform: only its games there (ids of two platforms may
            // look alike).
            Ok(f) => finished.extend(
                f.into_iter()
                    .filter(|r| !linked || r.platform_of(&account.id) == account.platform),
            ),
            Err(e) => return unavailable(e),
        }
    }
    finished.sort_by(|a, b| b.updated.cmp(&a.updated).then_with(|| b.id.cmp(&a.id)));
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
    let mut lines = Vec::new();
    if live.is_empty() {
        lines.push(if mine {
            "No live games.".to_string()
        } else {
            format!("{shown} has no live games.")
        });
    } else {
        live_lines(core, req, &live, mine, &shown, &mut lines);
    }
    if !finished.is_empty() {
        finished_lines(&core.prefix, &finished, &mut lines);
    }
    // The deadlines of his games here, as a calendar to subscribe to (docs/web.md).
    let page = crate::kernel::pages::Page::Player {
        platform: req.platform.clone(),
        community: req.policy.community.clone(),
        channel: req.channel.clone(),
        user: who.clone(),
    };
    let place = (
        req.platform.as_str(),
        req.policy.community.as_str(),
        req.channel.as_str(),
    );
    if let Some(url) = core.page_link(&page, place) {
        let whose = if mine {
            "Your".to_string()
        } else {
            format!("{shown}'s")
        };
        lines.push(format!(
            "{whose} deadlines here, as a calendar to subscribe to: {url}/calendar.ics"
        ));
    }
    vec![Reply::Private(lines.join("\n"))]
}

/// The id and name of the player whose dashboard is asked for: the one `name` names (a
/// mention's name or id, or the word as typed), else the asker.
fn player_asked(req: &Request, name: Option<&str>) -> (String, String) {
    match name {
        Some(n) => req
            .mentions
            .iter()
            .find(|m| m.name == n || m.id == n)
            .map_or((n.to_string(), n.to_string()), |m| {
                (m.id.clone(), m.name.clone())
            }),
        None => (req.user.id.clone(), req.user.name.clone()),
    }
}

/// The answer when the store cannot be read.
fn unavailable(e: impl std::fmt::Display) -> Vec<Reply> {
    vec![Reply::Private(format!(
        "The game store is not available ({e})."
    ))]
}

/// The live games of a player (each with his id at its table; `mine`: the asker's own; shown as
/// `shown`) into `lines`: a heading, then his moves first, the least time left first (timed
/// games before untimed ones), then the longest waiting; at most [`LIVE_SHOWN`], the rest
/// counted. A game on another platform than the asker's is linked by its address there.
fn live_lines(
    core: &Context,
    req: &Request,
    live: &[(String, GameRecord)],
    mine: bool,
    shown: &str,
    lines: &mut Vec<String>,
) {
    let whose = if mine { "your" } else { "their" };
    let now = core.clock.now();
    let surface = core.surface(&req.platform);
    let away = |r: &GameRecord| {
        let player = r.wait.and_then(|w| r.player(w.seat))?;
        profile(core.base.as_ref(), r.platform_of(&player.id), &player.id).away_until(now)
    };
    let mut rows: Vec<Live> = live
        .iter()
        .map(|(who, r)| {
            // Where he plays it: the game's channel, or its other place (a game on two
            // platforms).
            let platform = r.platform_of(who);
            let channel = r.place_on(platform).unwrap_or(&r.channel);
            let community = (platform == r.platform)
                .then_some(r.community.as_deref())
                .flatten();
            let place = if platform == req.platform {
                surface.channel_link(channel)
            } else {
                let there = core.surface(platform);
                format!(
                    "{} on {}",
                    there.address(community, channel),
                    capitalised(platform)
                )
            };
            row(surface.as_ref(), r, &place, who, whose, now, away(r))
        })
        .collect();
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

/// The last [`FINISHED_SHOWN`] finished games into `lines`, newest first, each with its id for
/// `export` (`prefix`: the command prefix).
fn finished_lines(prefix: &str, finished: &[GameRecord], lines: &mut Vec<String>) {
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
            prefix,
            r.id
        ));
    }
}
