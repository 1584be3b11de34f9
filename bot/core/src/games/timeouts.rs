//! Games ended on time: by the scheduler at the deadline (the announcement stored with the
//! game's end), by a command that comes after the deadline (the game is lost on time, the
//! command not applied), or by the opponent's `claim` in games whose timeouts are claimed.

use muster_rules::{AnyGame, Seat};

use super::away;
use super::play::{player_seat, replay_board, worth_replaying};
use super::words;
use crate::kernel::clock::{duration, rfc3339};
use crate::kernel::context::Context;
use crate::kernel::outbox::NOTICE;
use crate::kernel::receipt::Receipt;
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::{Replies, Reply, not_saved, private};
use crate::kernel::request::{Request, User};
use crate::kernel::store::{Change, ChannelKey, Ending, GameRecord, GameStore, Status, StoreError};
use crate::players::appearance::style_boards;
use crate::players::profile::Profiles;

/// The id under which a game's timeout is announced.
pub fn notice_id(game: &str) -> String {
    format!("{NOTICE}timeout.{game}")
}

/// Ends `record`'s game with `ending` (a timeout) as of `at`, in `store`: the announcement
/// (kept in the same write as a receipt under `keep` when given, so that a crash before it is
/// posted does not lose it) and the finished record.
#[allow(clippy::too_many_arguments)]
pub fn finish_on_time(
    core: &Context,
    store: &dyn GameStore,
    key: &ChannelKey,
    mut record: GameRecord,
    game: &AnyGame,
    ending: Ending,
    at: u64,
    keep: Option<&str>,
) -> Result<(Replies, GameRecord), StoreError> {
    let (Ending::Time { seat } | Ending::Forfeit { seat }) = ending else {
        return Err(StoreError::Io("not an end on time".into()));
    };
    let expected = record.version;
    let who = Seat::new(seat).map_or_else(|| "?".into(), |s| words::who(&record, game, s));
    record.status = Status::Finished;
    record.ending = Some(ending);
    record.draw_offer = None;
    record.takeback = None;
    record.version += 1;
    record.updated = at;
    record.wait = None;
    let mut ended = game.clone();
    if let Some(s) = Seat::new(seat) {
        let _ = ended.time_out(s);
    }
    let replies = ran_out(core, &record, &ended, seat, &who);
    let receipt = keep.map(|id| {
        let loser = record
            .player(seat)
            .map_or_else(|| User::named("?"), User::from);
        let r = Receipt::notice(&key.channel, loser, core.clock.now(), replies.clone());
        (id.to_string(), r.encode())
    });
    let change = Change::Archive {
        expected: Some(expected),
        record: record.clone(),
    };
    // A game played in two places: the other place is told in the same write.
    let elsewhere = keep.and_then(|id| {
        let loser = record
            .player(seat)
            .map_or_else(|| User::named("?"), User::from);
        let id = format!("{id}.away");
        away::other_place(core, &record, &key.platform, &replies, &id, loser).map(|n| (id, n))
    });
    let mut kept: Vec<(&str, &str, &str)> = receipt
        .as_ref()
        .map(|(id, body)| (key.platform.as_str(), id.as_str(), body.as_str()))
        .into_iter()
        .collect();
    if let Some((id, (notice, body))) = &elsewhere {
        kept.push((notice.platform.as_str(), id.as_str(), body.as_str()));
    }
    store.commit(key, Some(&change), &kept)?;
    if let Some((_, (notice, _))) = elsewhere {
        core.timers.post(notice);
    }
    let replies = away::localised(replies, &record, &key.platform);
    Ok((replies, record))
}

/// What is said when the clock of `seat` (`who`) ran out in `record` (finished, `game` as it
/// ended): the result, the final board and the replay, as the player who ran out of time likes
/// them.
fn ran_out(core: &Context, record: &GameRecord, game: &AnyGame, seat: usize, who: &str) -> Replies {
    let control = record.clock.map(|c| c.to_string()).unwrap_or_default();
    let how = if matches!(record.ending, Some(Ending::Forfeit { .. })) {
        " without having moved: the game is forfeited"
    } else {
        ""
    };
    let mut replies = vec![
        Reply::Text(format!(
            "{who}'s time ran out ({control}){how}. {} `{}export {}` gives the record.",
            words::result(record, game),
            core.prefix_in(&record.platform, &record.channel),
            record.id
        )),
        Reply::played_board(record, record.moves.len(), game, Vec::new()),
    ];
    if worth_replaying(record) {
        replies.push(replay_board(core, record));
    }
    let loser = record.player(seat).map(|p| p.id.clone());
    let mut profiles = Profiles::new(core.base.as_ref());
    style_boards(&mut profiles, &mut replies, loser.as_deref());
    replies
}

/// In the command path: a timed game whose clock ran out before this command came is ended
/// on time first (unless it waits for a claim); the command is then not applied.
pub fn overdue(core: &Context, key: &ChannelKey, record: &GameRecord) -> Option<Replies> {
    let deadline = record.deadline()?;
    let now = core.clock.now();
    if deadline > now || record.clock.is_some_and(|c| c.claim()) {
        return None;
    }
    let game = record.rebuild().ok()?;
    let ending = record.ran_out(record.wait?.seat);
    let store = core.store.as_ref();
    Some(
        match finish_on_time(
            core,
            store,
            key,
            record.clone(),
            &game,
            ending,
            deadline,
            None,
        ) {
            Ok((mut replies, _)) => {
                replies.push(Reply::Private(format!(
                    "Your command came after the deadline ({}), so it was not applied.",
                    rfc3339(deadline)
                )));
                replies
            }
            Err(e) => not_saved(&e),
        },
    )
}

/// `claim`: the win, when the opponent's clock ran out in a game whose timeouts are claimed.
pub fn claim(
    core: &Context,
    req: &Request,
    key: &ChannelKey,
    record: GameRecord,
    game: &AnyGame,
) -> Replies {
    let seat = match player_seat(core, req, &record) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let Some(control) = record.clock else {
        return private("This game has no clock, so there is nothing to claim.");
    };
    let Some(wait) = record.wait else {
        return private("Nobody's clock is running in this game.");
    };
    let (Some(mine), Some(theirs)) = (Seat::new(seat), Seat::new(wait.seat)) else {
        return Vec::new();
    };
    let table = game.table();
    if table.team_of(mine) == table.team_of(theirs) {
        return private("It is your side's clock that is running: move instead.");
    }
    let now = core.clock.now();
    let left = record.deadline().map_or(0, |d| d.saturating_sub(now));
    if left > 0 {
        return private(format!(
            "{}'s time has not run out: {} left. You can claim the win once it has.",
            words::who(&record, game, theirs),
            duration(left)
        ));
    }
    if !control.claim() {
        // Timeouts end such games by themselves; the scheduler is about to.
        return overdue(core, key, &record).unwrap_or_default();
    }
    let ending = record.ran_out(wait.seat);
    let store = core.store.as_ref();
    match finish_on_time(core, store, key, record, game, ending, now, None) {
        Ok((replies, _)) => replies,
        Err(e) => not_saved(&e),
    }
}
