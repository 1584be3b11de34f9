//! Games ended on time: by the scheduler at the deadline (the announcement stored with the
//! game's end), by a command that comes after the deadline (the game is lost on time, the
//! command not applied), or by the opponent's `claim` in games whose timeouts are claimed.

use muster_rules::{AnyGame, Seat};

use super::actions::{self, Replies, private};
use super::timers::NOTICE;
use super::{Core, Reply, Request, User, words};
use crate::clock::{duration, rfc3339};
use crate::store::{ChannelKey, Ending, GameRecord, Status};

/// The id under which a game's timeout is announced.
pub(super) fn notice_id(game: &str) -> String {
    format!("{NOTICE}timeout.{game}")
}

/// Ends `record`'s game with `ending` (a timeout) as of `at`, in `store`; the announcement,
/// kept in the same write as a receipt under `keep` when given (see [`Notice::receipt`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn finish_on_time(
    core: &Core,
    store: &dyn crate::store::GameStore,
    key: &ChannelKey,
    mut record: GameRecord,
    game: &AnyGame,
    ending: Ending,
    at: u64,
    keep: Option<&str>,
) -> Result<Replies, Replies> {
    let (Ending::Time { seat } | Ending::Forfeit { seat }) = ending else {
        return Err(Vec::new());
    };
    let expected = record.version;
    let who = Seat::new(seat).map_or_else(|| "?".into(), |s| words::who(&record, game, s));
    let control = record.clock.map(|c| c.to_string()).unwrap_or_default();
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
    let how = if matches!(ending, Ending::Forfeit { .. }) {
        " without having moved: the game is forfeited"
    } else {
        ""
    };
    let mut replies = vec![
        Reply::Text(format!(
            "{who}'s time ran out ({control}){how}. {} `{}export {}` gives the record.",
            words::result(&record, &ended),
            core.prefix_in(&record.platform, &record.channel),
            record.id
        )),
        Reply::board(&record, record.moves.len()),
    ];
    if super::replay::worth_posting(&record) {
        replies.push(Reply::Board(Box::new(super::board::Board::replay(
            &record,
            super::replay::cap(&record.platform),
        ))));
    }
    // The final board and the replay, as the player who ran out of time likes them.
    let loser_id = record.player(seat).map(|p| p.id.clone());
    core.style_boards(&record.platform, &mut replies, loser_id.as_deref());
    let loser = record
        .player(seat)
        .map_or_else(|| User::named("?"), User::from);
    let change = crate::store::Change::Archive {
        expected: Some(expected),
        record,
    };
    let receipt = keep.map(|id| {
        let r = super::Receipt {
            channel: key.channel.clone(),
            user: loser,
            place: None,
            at: core.clock.now(),
            replies: replies.clone(),
            sent: 0,
            media: Default::default(),
            done: false,
        };
        (id.to_string(), r.encode())
    });
    store
        .commit(
            key,
            Some(&change),
            receipt
                .as_ref()
                .map(|(id, body)| (id.as_str(), body.as_str())),
        )
        .map_err(|e| actions::not_saved(&e))?;
    Ok(replies)
}

/// In the command path: a timed game whose clock ran out before this command came is ended
/// on time first (unless it waits for a claim); the command is then not applied.
pub(super) fn overdue(core: &Core, key: &ChannelKey, record: &GameRecord) -> Option<Replies> {
    let deadline = record.deadline()?;
    let now = core.clock.now();
    if deadline > now || record.clock.is_some_and(|c| c.claim()) {
        return None;
    }
    let game = record.rebuild().ok()?;
    let ending = record.ran_out(record.wait?.seat);
    Some(
        match finish_on_time(
            core,
            core.store.as_ref(),
            key,
            record.clone(),
            &game,
            ending,
            deadline,
            None,
        ) {
            Ok(mut replies) => {
                replies.push(Reply::Private(format!(
                    "Your command came after the deadline ({}), so it was not applied.",
                    rfc3339(deadline)
                )));
                replies
            }
            Err(e) => e,
        },
    )
}

/// `claim`: the win, when the opponent's clock ran out in a game whose timeouts are claimed.
pub(super) fn claim(core: &Core, req: &Request, key: &ChannelKey, record: GameRecord) -> Replies {
    let seat = match actions::player_seat(core, req, &record) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let Some(control) = record.clock else {
        return private("This game has no clock, so there is nothing to claim.");
    };
    let Some(wait) = record.wait else {
        return private("Nobody's clock is running in this game.");
    };
    let Ok(game) = record.rebuild() else {
        return private("This game's record does not replay.");
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
            words::who(&record, &game, theirs),
            duration(left)
        ));
    }
    if !control.claim() {
        // Timeouts end such games by themselves; the scheduler is about to.
        return overdue(core, key, &record).unwrap_or_default();
    }
    let ending = record.ran_out(wait.seat);
    match finish_on_time(
        core,
        core.store.as_ref(),
        key,
        record,
        &game,
        ending,
        now,
        None,
    ) {
        Ok(r) | Err(r) => r,
    }
}
