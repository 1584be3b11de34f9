//! A game played in two places (docs/guide.md, "Games across platforms"): a player challenges
//! an account of another platform that Muster also serves. The record lives in the challenger's
//! channel, its home; the other platform's adapter opens a place there (a room, a thread) for
//! the players who play from it. Each place takes its own players' commands, and whatever one
//! place is told of the game, the other is told too, in the same write as the change
//! ([`mirror`]): a kept notice, posted once even across a restart or while that platform is
//! down. Times are shown the plain way (UTC, with the time left) in both places, and a player
//! of the other platform is named rather than mentioned.

use crate::kernel::context::Context;
use crate::kernel::kept;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::{Replies, Reply, private};
use crate::kernel::request::{Request, User};
use crate::kernel::store::{
    Change, ChannelKey, Ending, GameRecord, GameStore, Player, Staged, Status, StoreError,
};
use crate::kernel::surface::{Home, Opening};
use crate::kernel::text::excerpt;
use crate::players::links;

/// The note, in a game's other place, naming its home: `<platform>␟<channel>␟<game id>`.
const NOTE: &str = "away";

/// The account of another platform that `token` names in a challenge (by its id's shape, or a
/// linked player's name), with its platform, checked: not the challenger's own linked account,
/// and one its platform can reach. `Ok(None)` when `token` names no account elsewhere.
pub fn challenged(
    core: &Context,
    req: &Request,
    token: &str,
) -> Result<Option<(String, User)>, Replies> {
    let found = match elsewhere(core, req, token) {
        Some(found) => Some(found),
        None => linked(core, req, token).map_err(private)?,
    };
    let Some((platform, there)) = found else {
        return Ok(None);
    };
    let mine = links::accounts_of(core.base.as_ref(), &req.platform, &req.user.id);
    if mine
        .iter()
        .any(|a| a.platform == platform && a.id == there.id)
    {
        return Err(private(
            "That account is linked with yours: you cannot challenge yourself. Name another \
             player.",
        ));
    }
    if let Err(why) = core.surface(&platform).reachable(&there) {
        return Err(private(format!(
            "{} cannot be challenged: {why}. Nothing was started.",
            excerpt(&there.id, 80)
        )));
    }
    Ok(Some((platform, there)))
}

/// The account of another platform served here that `token` names by its shape (`@alice:
/// example.org`; the command's words come without the `@`), with that platform; `None` when
/// no other platform claims it.
fn elsewhere(core: &Context, req: &Request, token: &str) -> Option<(String, User)> {
    let mut surfaces = core.surfaces();
    surfaces.sort_by(|a, b| a.platform().cmp(b.platform()));
    let at = format!("@{}", token.trim_start_matches('@'));
    surfaces
        .iter()
        .filter(|s| s.platform() != req.platform)
        .find_map(|s| {
            s.account(token)
                .or_else(|| s.account(&at))
                .map(|u| (s.platform().to_string(), u))
        })
}

/// The account on another platform of the linked player called `token` (docs/guide.md, "One
/// player on two platforms"): how a player of a platform whose ids cannot be typed is named
/// from another. `Err` when two linked players have that name.
fn linked(core: &Context, req: &Request, token: &str) -> Result<Option<(String, User)>, String> {
    let found: Vec<(String, User)> = links::named(core.base.as_ref(), token)
        .into_iter()
        .filter_map(|accounts| {
            accounts
                .into_iter()
                .find(|a| a.platform != req.platform)
                .map(|a| (a.platform, User::new(a.id, &a.name)))
        })
        .collect();
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.into_iter().next()),
        _ => Err(format!(
            "{} linked players are called {}: name the one you mean by his id on his platform.",
            found.len(),
            excerpt(token, 40)
        )),
    }
}

/// The request for the other place of `record` (a game just challenged across platforms), for
/// that platform's adapter to open: named after the game, its players there invited.
pub fn opening(record: &GameRecord) -> Option<Notice> {
    let away = record.away.as_ref().filter(|a| a.channel.is_none())?;
    let players = players(record)
        .into_iter()
        .filter(|p| away.players.contains(&p.id))
        .map(User::from)
        .collect();
    let created = record.created.to_string();
    let opening = Opening {
        platform: away.platform.clone(),
        community: String::new(),
        event: String::new(),
        round: 0,
        board: 0,
        name: format!("{}-{}", record.game, record.id),
        parent: away.parent.clone().unwrap_or_default(),
        players,
        intent: kept::intent("place", &[&record.id, &created]),
        since: record.created,
        home: Some(Home {
            platform: record.platform.clone(),
            channel: record.channel.clone(),
            game: record.id.clone(),
        }),
    };
    Some(Notice {
        platform: away.platform.clone(),
        target: Target::Open(Box::new(opening)),
        replies: Vec::new(),
        fallback: None,
        receipt: None,
    })
}

/// The adapter opened the other place of `home`'s game as `channel`: it is noted there, the
/// record learns it, and the place is told of the game (once: in the record's write).
pub fn opened(core: &Context, home: &Home, platform: &str, channel: &str) {
    let store = core.base.as_ref();
    let place = ChannelKey::new(platform, channel);
    let note = format!("{}\u{1f}{}\u{1f}{}", home.platform, home.channel, home.game);
    if let Err(e) = store.set_note(&place, NOTE, Some(&note)) {
        tracing::error!(game = %home.game, channel, "the other place of a game could not be noted: {e}; it is asked for again at the next start");
        return;
    }
    let key = ChannelKey::new(&home.platform, &home.channel);
    for _ in 0..3 {
        match record_place(core, &key, home, platform, channel) {
            Err(StoreError::Conflict) => continue,
            Err(e) => {
                tracing::error!(game = %home.game, channel, "the other place of a game could not be recorded: {e}; it is asked for again at the next start");
                return;
            }
            Ok(()) => return,
        }
    }
}

/// Writes `channel` into the live record of `home` (if it is still that game's and has no
/// other place yet), with the place's opening words kept in the same write; then posts them.
fn record_place(
    core: &Context,
    key: &ChannelKey,
    home: &Home,
    platform: &str,
    channel: &str,
) -> Result<(), StoreError> {
    let Some(mut record) = core.base.load(key)? else {
        return Ok(());
    };
    let Some(away) = record.away.as_mut().filter(|_| record.id == home.game) else {
        return Ok(());
    };
    if away.platform != platform || away.channel.is_some() {
        if away.channel.as_deref() != Some(channel) {
            tracing::warn!(game = %home.game, channel, "a second place was opened for a game; the first is kept");
        }
        return Ok(());
    }
    away.channel = Some(channel.to_string());
    let expected = record.version;
    record.version += 1;
    let words = first_words(core, &record);
    let notice = Notice {
        platform: platform.to_string(),
        target: Target::Channel(channel.to_string()),
        replies: localised(words, &record, platform),
        fallback: None,
        receipt: Some(kept::intent("place", &[&record.id, "opened"])),
    };
    let by = player_on(&record, platform).unwrap_or_else(|| User::named("?"));
    let body = kept::receipt_of(&notice, by, core.clock.now(), Vec::new()).encode();
    let id = notice.receipt.clone().unwrap_or_default();
    let change = Change::Update {
        expected,
        record: record.clone(),
    };
    core.base
        .commit(key, Some(&change), &[(platform, &id, &body)])?;
    core.timers.post(notice);
    Ok(())
}

/// The other place of `home`'s game could not be opened on `platform` (`why`): a game not
/// begun is called off (nothing else could be done with it), and its channel told, once.
pub fn failed(core: &Context, home: &Home, platform: &str, why: &str) {
    let key = ChannelKey::new(&home.platform, &home.channel);
    for _ in 0..3 {
        let record = match core.base.load(&key) {
            Ok(Some(r)) if r.id == home.game => r,
            Ok(_) => return,
            Err(e) => {
                tracing::error!(game = %home.game, "a game whose other place failed could not be read: {e}");
                return;
            }
        };
        let open = record.away.as_ref().is_some_and(|a| a.channel.is_none());
        if !open || record.status != Status::Open {
            // Begun, or its place found meanwhile: it goes on.
            tracing::warn!(game = %home.game, platform, "a game's other place could not be opened: {why}");
            return;
        }
        let mut ended = record.clone();
        ended.version += 1;
        ended.status = Status::Finished;
        ended.ending = Some(Ending::Aborted);
        ended.updated = core.clock.now();
        let notice = Notice {
            platform: home.platform.clone(),
            target: Target::Channel(home.channel.clone()),
            replies: vec![Reply::Text(format!(
                "Game {} is called off: its place on {} could not be opened ({why}). Nothing \
                 was played.",
                record.id,
                crate::kernel::text::capitalised(platform)
            ))],
            fallback: None,
            receipt: Some(kept::intent("place", &[&record.id, "failed"])),
        };
        let by = player_on(&record, &home.platform).unwrap_or_else(|| User::named("?"));
        let body = kept::receipt_of(&notice, by, core.clock.now(), Vec::new()).encode();
        let id = notice.receipt.clone().unwrap_or_default();
        let change = Change::Archive {
            expected: Some(record.version),
            record: ended,
        };
        match core
            .base
            .commit(&key, Some(&change), &[(&home.platform, &id, &body)])
        {
            Ok(()) => {
                core.timers.post(notice);
                return;
            }
            Err(StoreError::Conflict) => continue,
            Err(e) => {
                tracing::error!(game = %home.game, "a game whose other place failed could not be called off: {e}");
                return;
            }
        }
    }
}

/// What the other place is told when it opens: the game, where its home is, for a game still
/// waiting the challenge to its players, and for one under way its board and whose turn it is.
fn first_words(core: &Context, record: &GameRecord) -> Vec<Reply> {
    let home = core.surface(&record.platform);
    let link = home.address(record.community.as_deref(), &record.channel);
    let table: Vec<&str> = players(record).iter().map(|p| p.name.as_str()).collect();
    let event = record.tournament.as_ref().map_or_else(String::new, |t| {
        format!(", {} · round {} · board {}", t.event, t.round, t.board)
    });
    let mut out = vec![Reply::Text(format!(
        "{} ({}{event}) between {}, played here and on {} ({link}). Commands here work as in \
         any game's channel; what happens there is shown here too.",
        record
            .game_id()
            .map_or(record.game.clone(), |g| g.title().to_string()),
        record.id,
        table.join(" and "),
        crate::kernel::text::capitalised(&record.platform),
    ))];
    if record.status == Status::Active
        && let Ok(game) = record.rebuild()
    {
        // A game under way (an event's): the board, and whoever is to move hears so here too.
        out.push(Reply::played_board(record, 0, &game, Vec::new()));
        out.extend(super::play::next_up(core, record, &game));
    }
    let p = core.prefix_in(
        record.away.as_ref().map_or("", |a| a.platform.as_str()),
        record
            .away
            .as_ref()
            .and_then(|a| a.channel.as_deref())
            .unwrap_or(""),
    );
    for seat in record.seats.iter().filter(|s| !s.accepted) {
        if let Some(player) = &seat.player {
            out.push(Reply::Mention {
                user: User::from(player),
                text: format!("you are challenged: `{p}accept` or `{p}decline`."),
            });
        }
    }
    out
}

/// The home of the game whose other place is `key`, if `key` is one: the home's key, read
/// from the note (the live record there is checked by the caller).
fn home_of(store: &dyn GameStore, key: &ChannelKey) -> Result<Option<Home>, StoreError> {
    let Some(note) = store.note(key, NOTE)? else {
        return Ok(None);
    };
    let mut parts = note.splitn(3, '\u{1f}');
    Ok(match (parts.next(), parts.next(), parts.next()) {
        (Some(platform), Some(channel), Some(game)) => Some(Home {
            platform: platform.to_string(),
            channel: channel.to_string(),
            game: game.to_string(),
        }),
        _ => None,
    })
}

/// The live game whose other place is `key`, with its home's key: `None` when `key` is no
/// game's other place, or that game is over.
pub fn game_of(
    store: &dyn GameStore,
    key: &ChannelKey,
) -> Result<Option<(ChannelKey, GameRecord)>, StoreError> {
    let Some(home) = home_of(store, key)? else {
        return Ok(None);
    };
    let home_key = ChannelKey::new(&home.platform, &home.channel);
    Ok(store.load(&home_key)?.and_then(|r| {
        let here = r.away.as_ref().is_some_and(|a| {
            a.platform == key.platform && a.channel.as_deref() == Some(key.channel.as_str())
        });
        (r.id == home.game && here).then_some((home_key, r))
    }))
}

/// Replies for the place on `platform`: a player who plays from another platform is named,
/// not mentioned (he is pinged in his own place).
pub fn localised(replies: Vec<Reply>, record: &GameRecord, platform: &str) -> Vec<Reply> {
    if record.away.is_none() {
        return replies;
    }
    replies
        .into_iter()
        .map(|r| match r {
            Reply::Mention { user, text } if record.platform_of(&user.id) != platform => {
                Reply::Text(format!("{}, {text}", user.name))
            }
            other => other,
        })
        .collect()
}

/// What the other place of the request's game is told of `replies` (the command's answer, its
/// change held in `staged`): what the channel was told, kept in the change's write as a notice
/// for that place, returned to be posted once the change is stored. The requester's own
/// replies are localised for his place.
pub fn mirror(
    core: &Context,
    req: &Request,
    staged: &Staged,
    replies: &mut Vec<Reply>,
) -> Option<Notice> {
    let record = staged.held_record()?;
    record.away.as_ref()?;
    let version = record.version.to_string();
    let id = kept::intent("mirror", &[&record.id, &version]);
    let told = other_place(core, &record, &req.platform, replies, &id, req.user.clone());
    *replies = localised(std::mem::take(replies), &record, &req.platform);
    let (notice, body) = told?;
    staged.keep_notice(&notice.platform, &id, body);
    Some(notice)
}

/// The notice that tells the place of `record` other than the one on `from` what that one
/// was told (`replies`, its private answers left out), to be kept as the receipt `id` (on
/// behalf of `by`): the notice and the receipt's body. `None` for a game played in one place,
/// one whose other place is not open yet, or nothing public to tell.
pub fn other_place(
    core: &Context,
    record: &GameRecord,
    from: &str,
    replies: &[Reply],
    id: &str,
    by: User,
) -> Option<(Notice, String)> {
    let away = record.away.as_ref()?;
    let (platform, channel) = if from == record.platform {
        (away.platform.clone(), away.channel.clone()?)
    } else {
        (record.platform.clone(), record.channel.clone())
    };
    let told: Vec<Reply> = replies
        .iter()
        .filter(|r| !matches!(r, Reply::Private(_)))
        .cloned()
        .collect();
    if told.is_empty() {
        return None;
    }
    let notice = Notice {
        platform: platform.clone(),
        target: Target::Channel(channel),
        replies: localised(told, record, &platform),
        fallback: None,
        receipt: Some(id.to_string()),
    };
    let by = player_on(record, &platform).unwrap_or(by);
    let body = kept::receipt_of(&notice, by, core.clock.now(), Vec::new()).encode();
    Some((notice, body))
}

/// A player of `record` who plays from `platform`: a notice kept there is kept on his behalf
/// (an adapter reads the account of its own platform from it).
fn player_on(record: &GameRecord, platform: &str) -> Option<User> {
    players(record)
        .into_iter()
        .find(|p| record.platform_of(&p.id) == platform)
        .map(User::from)
}

/// The players at `record`'s table, each once (a Lanko player may hold two seats), in seat
/// order.
fn players(record: &GameRecord) -> Vec<&Player> {
    let mut all: Vec<&Player> = Vec::new();
    for p in record.seats.iter().filter_map(|s| s.player.as_ref()) {
        if !all.iter().any(|q| q.id == p.id) {
            all.push(p);
        }
    }
    all
}

/// [`other_place`]'s notice kept (as [`kept::keep`] keeps a notice: not again if it is kept
/// already, `Ok(None)` then) on behalf of a player of its platform: for what is told outside a
/// command (a run-out clock, a rating taken later).
pub fn keep_other_place(
    core: &Context,
    record: &GameRecord,
    (from, replies): (&str, &[Reply]),
    id: &str,
    by: User,
) -> Result<Option<Notice>, StoreError> {
    let Some((notice, _)) = other_place(core, record, from, replies, id, by.clone()) else {
        return Ok(None);
    };
    let by = player_on(record, &notice.platform).unwrap_or(by);
    let kept = kept::keep(
        core.base.as_ref(),
        &notice,
        by,
        core.clock.now(),
        Vec::new(),
    )?;
    Ok(kept.map(|_| notice))
}
