//! Looking at a game: `board` (the asker's own view), `moves`, `history`, `export` and `replay`
//! (this channel's game or a finished one), the clocks in words, and the moves offered as a
//! player types.

use muster_rules::{AnyGame, Seat};

use super::words::{self, who};
use crate::kernel::board::Board;
use crate::kernel::clock::duration;
use crate::kernel::context::Context;
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::{Replies, Reply, private};
use crate::kernel::request::{Request, Suggestion, User};
use crate::kernel::store::{ChannelKey, GameRecord, Status};
use crate::kernel::text::excerpt;
use crate::players::appearance::own_board;

/// `board`: the board as the asker likes to see it, and what is to be decided, for him alone.
pub fn board(core: &Context, req: &Request, record: &GameRecord, game: &AnyGame) -> Replies {
    let board = own_board(core, &req.user.id, record, game);
    let mut out = vec![Reply::Board(Box::new(board))];
    match record.status {
        Status::Open => out.push(Reply::Private("The game has not started yet.".into())),
        _ => {
            if let Some(seat) = game.to_move() {
                let mut text = format!(
                    "{} to decide: {}.",
                    who(record, game, seat),
                    words::prompt(game, &core.prefix)
                );
                if let Some(line) = clock_words(core, record, game) {
                    text.push_str(&format!("\n{line}"));
                }
                out.push(Reply::Private(text));
            }
        }
    }
    out
}

pub fn moves(record: &GameRecord, game: &AnyGame) -> Replies {
    let Some(seat) = game.to_move() else {
        return private("The game is over.");
    };
    let all = game.legal_moves_text();
    // Up to three dozen are listed; past that, the first two dozen (shortest first).
    let shown = if all.len() <= 36 { all.len() } else { 24 };
    let head = format!(
        "{} has {} legal move{} ({}):",
        who(record, game, seat),
        all.len(),
        if all.len() == 1 { "" } else { "s" },
        game.phase_name()
    );
    let mut text = vec![
        head,
        all.iter()
            .take(shown)
            .cloned()
            .collect::<Vec<_>>()
            .join(", "),
    ];
    if all.len() > shown {
        let why = if game.phase_name() == "play" {
            " Turns reaching the same position are listed once, shortest first."
        } else {
            ""
        };
        text.push(format!("… and {} more.{why}", all.len() - shown));
    }
    vec![Reply::Text(text.join("\n"))]
}

pub fn history(record: &GameRecord, game: &AnyGame) -> Replies {
    if record.moves.is_empty() {
        return vec![Reply::Text("No moves yet.".into())];
    }
    let mut replay = AnyGame::new(game.id());
    let mut lines = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        let seat = replay.to_move();
        let who = seat.map_or("?".to_string(), |s| words::seat_title(&replay, s));
        lines.push(format!("{:>3}. {who} {m}", i + 1));
        if let Some(s) = seat {
            let _ = replay.play_text(s, m);
        }
    }
    const LAST: usize = 40;
    let skipped = lines.len().saturating_sub(LAST);
    let mut text = format!("Moves of game {} ({}):\n", record.id, record.moves.len());
    if skipped > 0 {
        text.push_str(&format!(
            "… {skipped} earlier moves (`export` has them all)\n"
        ));
    }
    text.push_str(&lines[skipped..].join("\n"));
    vec![Reply::Text(text)]
}

pub fn export(record: &GameRecord, game: &AnyGame) -> Replies {
    let name = format!("{}-{}.txt", record.game, record.id);
    vec![
        Reply::Text(format!(
            "The record of game {}, one decision per line, as Muster replays it:",
            record.id
        )),
        Reply::File {
            name,
            content: record.export(game),
        },
    ]
}

/// `export <id>`: this channel's game by its id (as `export` without one gives it), a game the
/// asker plays in elsewhere (while it runs, its result `*`), or a finished game.
pub fn export_by_id(core: &Context, req: &Request, live: Option<&GameRecord>, id: &str) -> Replies {
    match live.filter(|r| r.id == id) {
        Some(live) => export_replayed(live),
        None => match seen(core, req, id) {
            Ok(r) => export_replayed(&r),
            Err(refusal) => refusal,
        },
    }
}

/// [`export`] of a record read from the store, replayed first.
fn export_replayed(record: &GameRecord) -> Replies {
    match record.rebuild() {
        Ok(g) => export(record, &g),
        Err(e) => private(format!("Game {} does not replay: {}", record.id, e.0)),
    }
}

/// `replay <id>`: this channel's game by its id, a game the asker plays in elsewhere, or a
/// finished game.
pub fn replay_by_id(core: &Context, req: &Request, live: Option<&GameRecord>, id: &str) -> Replies {
    match live.filter(|r| r.id == id) {
        Some(live) => replay(core, live),
        None => match seen(core, req, id) {
            Ok(r) => replay(core, &r),
            Err(refusal) => refusal,
        },
    }
}

/// The game `id` as the asker may see it from anywhere: a finished game, or a live one he plays
/// in on this platform (a live game of others is seen only in its own channel, which may be
/// private). `Err` is the refusal to give.
fn seen(core: &Context, req: &Request, id: &str) -> Result<GameRecord, Replies> {
    let unavailable = |e| private(format!("The game store is not available ({e})."));
    if let Some(r) = core.store.archived(id).map_err(unavailable)? {
        return Ok(r);
    }
    let live = core
        .store
        .live_games_of(&req.platform, &req.user.id)
        .map_err(unavailable)?;
    live.into_iter().find(|r| r.id == id).ok_or_else(|| {
        private(format!(
            "There is no finished game `{}`, nor a game of yours by that id; `games` lists yours.",
            excerpt(id, 24)
        ))
    })
}

/// A game's replay, for `replay`: the game so far, or a finished one.
pub fn replay(core: &Context, record: &GameRecord) -> Replies {
    if record.moves.is_empty() {
        return private(format!(
            "Game {} has no move yet: there is nothing to replay.",
            record.id
        ));
    }
    let title = record.game_id().map_or("a game", |g| g.title());
    // A Lanko player holding two seats is named once.
    let mut players: Vec<String> = Vec::new();
    for p in record.seats.iter().filter_map(|s| s.player.as_ref()) {
        if !players.contains(&p.name) {
            players.push(p.name.clone());
        }
    }
    vec![
        Reply::Text(format!(
            "The replay of {} ({title}, {}; {} decision{}):",
            record.id,
            players.join(" vs "),
            record.moves.len(),
            if record.moves.len() == 1 { "" } else { "s" }
        )),
        Reply::Board(Box::new(Board::replay(
            record,
            core.surface_of(record).upload_limit(),
        ))),
    ]
}

pub fn replay_last(core: &Context, req: &Request) -> Replies {
    match core.store.games_of(&req.user.id) {
        Ok(games) => match games.first() {
            Some(r) => replay(core, r),
            None => no_game(core),
        },
        Err(e) => private(format!("The game store is not available ({e}).")),
    }
}

pub fn export_last(core: &Context, req: &Request) -> Replies {
    match core.store.games_of(&req.user.id) {
        Ok(games) => match games.first() {
            Some(r) => export_replayed(r),
            None => no_game(core),
        },
        Err(e) => private(format!("The game store is not available ({e}).")),
    }
}

/// The clocks of a timed game in a line, with the running clock's deadline and, when its
/// player is on vacation (his stretch is among the record's pauses), why it stands still.
pub fn clock_words(core: &Context, record: &GameRecord, game: &AnyGame) -> Option<String> {
    let now = core.clock.now();
    let line = clocks_line(record, game, now)?;
    let surface = core.surface_of(record);
    let mut text = format!("Clocks: {line}");
    if let Some(deadline) = record.deadline() {
        text.push_str(&format!(" — deadline {}", surface.time(deadline, now)));
    }
    let mover = record.wait.and_then(|w| record.player(w.seat));
    if let Some(player) = mover
        && let Some(to) = record
            .pauses
            .iter()
            .filter(|p| p.player == player.id && p.from <= now && now < p.to)
            .map(|p| p.to)
            .max()
    {
        text.push_str(&format!(
            "; {} is on vacation until {}, so the clock stands still",
            player.name,
            surface.time(to, now)
        ));
    }
    Some(text)
}

/// The state of a timed game's clocks at a moment, in words: `alice (White) 2d 4h ⏳ · bob
/// (Black) 3d`, the running clock marked.
pub fn clocks_line(record: &GameRecord, game: &AnyGame, at: u64) -> Option<String> {
    let (left, running) = record.time_left(at)?;
    let parts: Vec<String> = left
        .iter()
        .enumerate()
        .filter_map(|(i, left)| {
            let seat = Seat::new(i)?;
            let name = record.player(i).map_or("?", |p| p.name.as_str());
            let mark = if running == Some(i) { " ⏳" } else { "" };
            let title = words::seat_title(game, seat);
            Some(format!("{name} ({title}) {}{mark}", duration(*left)))
        })
        .collect();
    Some(parts.join(" · "))
}

/// Moves to offer `user` in `channel` for what he has typed so far (at most `limit`): the
/// legal moves of the channel's game that match, or one entry saying why there are none
/// (whose value is what was typed, so choosing it changes nothing).
pub fn suggest(
    core: &Context,
    key: &ChannelKey,
    user: &User,
    typed: &str,
    limit: usize,
) -> Vec<Suggestion> {
    let why = |label: String| {
        vec![Suggestion {
            label,
            value: typed.to_string(),
        }]
    };
    let record = match core.store.load(key) {
        Ok(Some(r)) => r,
        Ok(None) => return why("No game in this channel — start one with new".into()),
        Err(_) => return Vec::new(),
    };
    let Ok(game) = record.rebuild() else {
        return Vec::new();
    };
    if record.status != Status::Active {
        return why("The game has not started yet".into());
    }
    let Some(seat) = game.to_move() else {
        return why("The game is over".into());
    };
    let mover = record.player(seat.index());
    if mover.is_none_or(|p| p.id != user.id) {
        let name = mover.map_or("the other side".to_string(), |p| p.name.clone());
        return why(format!(
            "Not your turn: {name} ({}) is to move",
            words::seat_title(&game, seat)
        ));
    }
    let moves = game.suggest(typed, limit);
    if moves.is_empty() {
        return why(format!(
            "No legal move begins `{}` — see {}moves",
            excerpt(typed, 40),
            core.prefix
        ));
    }
    moves
        .into_iter()
        .map(|m| Suggestion {
            label: m.clone(),
            value: m,
        })
        .collect()
}

/// The answer to a game's command in a channel without a game.
pub fn no_game(core: &Context) -> Replies {
    private(format!(
        "There is no game in this channel. Start one with `{}new lanrick @opponent`.",
        core.prefix
    ))
}
