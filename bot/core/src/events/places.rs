//! An event's places: each board's game gets a place of its own (a thread, a room, a console
//! channel) — named at once where the platform's surface can, else opened by the adapter, which
//! answers with [`opened`] — and its game is created there unless the channel or the archive
//! already holds it; once every board has its place, the round is announced. Every step can be
//! repeated after a crash, and every failure is logged with its event and board: the next
//! tending of the event tries again. What the event says is said once: a game's opening words
//! are kept in the write that creates the game, and the event's own messages in the write of
//! the event that decides them ([`Event::tell`]), then kept as notices ([`flush`]).

use muster_rules::{AnyGame, Seat, Team};

use super::{Entrant, Event, Played, State, change, report};
use crate::clocks::schedule::reschedule;
use crate::games::away;
use crate::games::play::next_up;
use crate::games::table::pause_the_away;
use crate::games::{seating, words};
use crate::kernel::context::Context;
use crate::kernel::kept;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::Reply;
use crate::kernel::request::User;
use crate::kernel::store::{
    Away, Change, ChannelKey, Ending, EventTag, GameRecord, SCHEMA, SeatEntry, Status, StoreError,
};
use crate::kernel::surface::{Opening, Place};
use crate::players::appearance::style_boards;
use crate::players::profile::Profiles;

/// Keeps the messages waiting in the event's record as notices (each under an id of the event
/// and its number, so that one kept before a crash is not kept again), takes them out of the
/// record, and leaves those kept now in the outbox. What cannot be done now is done when the
/// event is next tended.
pub fn flush(core: &Context, event: &Event) {
    if event.tell.is_empty() {
        return;
    }
    let store = core.base.as_ref();
    let organiser = User::from(&event.organiser);
    let created = event.created.to_string();
    let mut fresh = Vec::new();
    let mut kept = Vec::new();
    for told in &event.tell {
        let seq = told.seq.to_string();
        let id = kept::intent("event", &[&event.community, &event.name, &created, &seq]);
        let platform = told.platform.as_deref().unwrap_or(&event.platform);
        let notice = Notice {
            platform: platform.to_string(),
            target: Target::Channel(told.channel.clone()),
            replies: told.replies.clone(),
            fallback: None,
            receipt: Some(id),
        };
        // Kept on behalf of someone of its platform (an adapter reads its own kind of account).
        let by = match &told.platform {
            None => organiser.clone(),
            Some(p) => event
                .entrants
                .iter()
                .filter(|e| e.platform.as_deref() == Some(p.as_str()))
                .find_map(|e| e.players.first())
                .map_or_else(|| organiser.clone(), User::from),
        };
        match kept::keep(store, &notice, by, core.clock.now(), Vec::new()) {
            Ok(Some(_)) => fresh.push(notice),
            Ok(None) => {}
            Err(e) => {
                tracing::error!(event = %event.name, "an event's message could not be kept: {e}; it is kept when the event is next tended");
                break;
            }
        }
        kept.push(told.seq);
    }
    let taken = change(store, &event.platform, &event.community, &event.name, |e| {
        e.tell.retain(|t| !kept.contains(&t.seq));
        Ok(())
    });
    if let Err(e) = taken {
        tracing::warn!(event = %event.name, "an event's kept messages could not be taken out of its record: {e}; they are not said twice");
    }
    for notice in fresh {
        core.timers.post(notice);
    }
}

/// Leaves a message of the event's for its platform's adapter (one whose loss in a crash
/// costs nothing: a request for a place, a refusal).
pub fn say(core: &Context, event: &Event, target: Target, replies: Vec<Reply>) {
    core.timers.post(Notice {
        platform: event.platform.clone(),
        target,
        replies,
        fallback: None,
        receipt: None,
    });
}

/// Asks for the places of the current round's boards that have none (all of them when `ask`
/// — a round just paired, or after a restart — else none), creates the games of boards whose
/// place is open, and announces the round once every board has its place. A platform whose
/// places are named at once (the console) has them used at once; another opens them (a
/// thread, a room) and answers with [`opened`].
pub fn open_places(core: &Context, event: &Event, ask: bool) {
    let Some(round) = event.played.last() else {
        return;
    };
    if !matches!(event.state, State::Running | State::Paused) {
        return;
    }
    let r = event.played.len();
    let surface = core.surface(&event.platform);
    for (b, board) in round.boards.iter().enumerate() {
        let Some(game) = board.last().filter(|g| !g.id.is_empty()) else {
            continue;
        };
        match &board.channel {
            None if ask => {
                let opening = opening(event, r, b + 1);
                match surface.place(&opening) {
                    Place::Named(name) => opened(core, &opening, &name),
                    Place::Opened => say(core, event, Target::Open(Box::new(opening)), Vec::new()),
                }
            }
            None => {}
            Some(channel) if game.result.is_none() => start_game(core, event, r, b + 1, channel),
            Some(_) => {}
        }
    }
    announce_round(core, event);
}

/// The place of `opening` is open as `channel`: recorded, and the board's game started.
pub fn opened(core: &Context, opening: &Opening, channel: &str) {
    let store = core.base.as_ref();
    let (r, b) = (opening.round, opening.board);
    let done = change(
        store,
        &opening.platform,
        &opening.community,
        &opening.event,
        |event| {
            let board = event
                .played
                .get_mut(r.wrapping_sub(1))
                .and_then(|round| round.boards.get_mut(b.wrapping_sub(1)))
                .ok_or("no such board")?;
            if board.channel.is_none() {
                board.channel = Some(channel.to_string());
            }
            Ok(board.channel.clone())
        },
    );
    let (event, channel) = match done {
        Ok((event, Some(channel))) => (event, channel),
        Ok((_, None)) => return,
        Err(e) => {
            tracing::error!(
                event = %opening.event,
                round = r,
                board = b,
                channel,
                "the place opened for a board could not be recorded: {e}; it is asked for again \
                 when the event is next tended"
            );
            return;
        }
    };
    if r == event.played.len() {
        start_game(core, &event, r, b, &channel);
        announce_round(core, &event);
    }
}

/// Creates the board's current game in `channel` unless it exists, and announces it there.
fn start_game(core: &Context, event: &Event, r: usize, b: usize, channel: &str) {
    let board = &event.played[r - 1].boards[b - 1];
    let Some(game) = board.last() else { return };
    let key = ChannelKey::new(&event.platform, channel);
    let failed = |why: String| {
        tracing::error!(
            event = %event.name,
            round = r,
            board = b,
            game = %game.id,
            "a board's game could not be started: {why}; it is tried again when the event is \
             next tended"
        );
    };
    match core.base.load(&key) {
        Ok(Some(live)) if live.id == game.id => return,
        Ok(_) => {}
        Err(e) => return failed(format!("its place cannot be read ({e})")),
    }
    match core.base.archived(&game.id) {
        Ok(Some(_)) => return,
        Ok(None) => {}
        Err(e) => return failed(format!("the archive cannot be read ({e})")),
    }
    let black = if game.white == board.white {
        board.black
    } else {
        board.white
    };
    let record = match new_record(core, event, game, black, channel, (r, b)) {
        Ok(record) => record,
        Err(e) => return failed(e),
    };
    let rules = match record.rebuild() {
        Ok(rules) => rules,
        Err(e) => return failed(e.0),
    };
    // The opening words are kept in the write that creates the game.
    let id = kept::intent("opening", &[&game.id]);
    let notice = Notice {
        platform: event.platform.clone(),
        target: Target::Channel(channel.to_string()),
        replies: game_opening(core, event, &record, &rules, (r, b, board.games.len())),
        fallback: None,
        receipt: Some(id.clone()),
    };
    let organiser = User::from(&event.organiser);
    let receipt = kept::receipt_of(&notice, organiser, core.clock.now(), Vec::new()).encode();
    let created = core.base.commit(
        &key,
        Some(&Change::Create(record.clone())),
        &[(&event.platform, &id, &receipt)],
    );
    match created {
        Ok(()) => {
            reschedule(core, &key);
            core.timers.post(notice);
            if let Some(opening) = away::opening(&record) {
                core.timers.post(opening);
            }
        }
        Err(e) => {
            failed(e.to_string());
            let why = vec![Reply::Text(format!(
                "{} · round {r} · board {b} cannot start in {}: {}. The organiser can give its \
                 result with `tournament result {} {b} …`.",
                event.name,
                core.surface(&event.platform).channel_link(channel),
                match e {
                    StoreError::Exists => "another game is being played there".to_string(),
                    e => e.to_string(),
                },
                event.name
            ))];
            say(core, event, Target::Channel(channel.to_string()), why);
        }
    }
}

/// Announces the current round in the event's channel once every board has its place (marked
/// in the record first, so it is said once).
fn announce_round(core: &Context, event: &Event) {
    let Some(round) = event.played.last() else {
        return;
    };
    if round.announced
        || round
            .boards
            .iter()
            .any(|b| b.channel.is_none() && !b.forfeit())
    {
        return;
    }
    let r = event.played.len();
    let marked = change(
        core.base.as_ref(),
        &event.platform,
        &event.community,
        &event.name,
        |e| {
            let fresh = e.played.len() == r && !e.played[r - 1].announced;
            if fresh {
                e.played[r - 1].announced = true;
                let replies = round_words(core, e, r, &e.platform);
                let channel = e.channel.clone();
                e.tell(&channel, replies);
                if let Some(away) = e.away.clone() {
                    let replies = round_words(core, e, r, &away.platform);
                    e.tell_on(Some(&away.platform), &away.channel, replies);
                }
            }
            Ok(fresh)
        },
    );
    match marked {
        Ok((event, true)) => flush(core, &event),
        Ok((_, false)) => {}
        Err(e) => {
            tracing::error!(
                event = %event.name,
                round = r,
                "a round could not be announced: {e}; it is announced when the event is next \
                 tended"
            );
        }
    }
}

/// The announcement of round `r` in the event's channel on `platform` (its own, or its
/// channel on another): its pairings, and each player of that platform told where his game is
/// (a ping where the platform has them). On another platform the boards' places are the
/// event's, which its players do not play in: they are left out, and each player there is told
/// that his game's place opens for him.
fn round_words(core: &Context, event: &Event, r: usize, platform: &str) -> Vec<Reply> {
    let home = platform == event.platform;
    let surface = core.surface(platform);
    let mut replies = vec![Reply::Text(report::pairings_text(
        event,
        r,
        home.then_some(surface.as_ref()),
    ))];
    replies.extend(event.link(core));
    let round = &event.played[r - 1];
    for (b, board) in round.boards.iter().enumerate() {
        let Some(channel) = &board.channel else {
            continue;
        };
        for (me, other, colour) in [
            (board.white, board.black, "White"),
            (board.black, board.white, "Black"),
        ] {
            for p in &event.entrants[me].players {
                if event.platform_of(&p.id) != platform {
                    continue;
                }
                let place = if home {
                    format!("is in {}", surface.channel_link(channel))
                } else {
                    "is played in a place Muster opens for it here".to_string()
                };
                replies.push(Reply::Mention {
                    user: User::from(p),
                    text: format!(
                        "your round {r} game (board {}, {colour}, against {}) {place}.",
                        b + 1,
                        event.entrants[other].name(),
                    ),
                });
            }
        }
    }
    replies
}

/// The words that open a board's game in its place.
fn game_opening(
    core: &Context,
    event: &Event,
    record: &GameRecord,
    rules: &AnyGame,
    (r, b, nth): (usize, usize, usize),
) -> Vec<Reply> {
    let sides: Vec<String> = if rules.table().len() > 2 {
        [Team::WHITE, Team::BLACK]
            .into_iter()
            .map(|t| words::team_players(record, rules, t))
            .collect()
    } else {
        rules
            .table()
            .all()
            .map(|s| words::who(record, rules, s))
            .collect()
    };
    let clock = record
        .clock
        .map_or_else(|| " Untimed.".to_string(), |c| format!(" Clock: {c}."));
    let game = if nth > 1 {
        format!(" (game {nth}, colours reversed)")
    } else {
        String::new()
    };
    let mut out = vec![Reply::Text(format!(
        "{} · round {r} · board {b}{game}: {}.{clock} The result counts for the event.",
        event.name,
        sides.join(" vs ")
    ))];
    out.extend(core.game_link(record));
    // The other players are told too: the game is theirs as much as the mover's.
    let mover = rules.to_move().and_then(|s| record.player(s.index()));
    let first = mover.map_or_else(String::new, |p| p.name.clone());
    let mut told: Vec<String> = mover.iter().map(|p| p.id.clone()).collect();
    for seat in rules.table().all() {
        let Some(p) = record.player(seat.index()) else {
            continue;
        };
        if told.contains(&p.id) {
            continue;
        }
        told.push(p.id.clone());
        let seats: Vec<usize> = seating::hand_of(record, seat.index());
        out.push(Reply::Mention {
            user: User::from(p),
            text: format!(
                "you play {} here; {first} decides first.",
                seating::hand_title(rules, &seats)
            ),
        });
    }
    out.push(Reply::board(record, 0));
    out.extend(next_up(core, record, rules));
    style_boards(&mut Profiles::new(core.base.as_ref()), &mut out, None);
    out
}

/// A board's game as a new record: both sides seated and accepted, the event's clock running.
fn new_record(
    core: &Context,
    event: &Event,
    game: &Played,
    black: usize,
    channel: &str,
    (round, board): (usize, usize),
) -> Result<GameRecord, String> {
    let id: muster_rules::GameId = event.game.parse().map_err(|e| format!("{e}"))?;
    let rules = AnyGame::new(id);
    let (w, b) = (&event.entrants[game.white], &event.entrants[black]);
    let seats = board_seats(&rules, w, b);
    let now = core.clock.now();
    let mut record = GameRecord {
        schema: SCHEMA,
        id: game.id.clone(),
        game: event.game.clone(),
        platform: event.platform.clone(),
        channel: channel.to_string(),
        created: now,
        updated: now,
        started: Some(now),
        version: 1,
        seats,
        status: Status::Active,
        moves: Vec::new(),
        times: Vec::new(),
        ending: None,
        draw_offer: None,
        takeback: None,
        clock: event.clock,
        pauses: Vec::new(),
        wait: None,
        tournament: Some(EventTag {
            community: event.community.clone(),
            event: event.name.clone(),
            round,
            board,
        }),
        community: Some(event.community.clone()).filter(|c| !c.is_empty()),
        casual: false,
        away: None,
    };
    record.away = away_place(event, &record);
    pause_the_away(core, &mut record, now);
    record.refresh_clock();
    Ok(record)
}

/// The seats of a board's game, every one taken and accepted: the white side `w` and the black
/// side `b`, each pair's players a hand apiece in a game of four seats.
fn board_seats(rules: &AnyGame, w: &Entrant, b: &Entrant) -> Vec<SeatEntry> {
    let seat = |i: usize| Seat::new(i).expect("a seat");
    let (hands, holders) = if rules.table().len() == 4 {
        // Seats in turn order S, W, N, E: the first side holds S and N.
        let mut hands = Vec::new();
        let mut holders = Vec::new();
        for (side, seats) in [(w, [0, 2]), (b, [1, 3])] {
            if side.players.len() >= 2 && side.players[0].id != side.players[1].id {
                hands.push(vec![seat(seats[0])]);
                hands.push(vec![seat(seats[1])]);
                holders.push(side.players[0].clone());
                holders.push(side.players[1].clone());
            } else {
                hands.push(vec![seat(seats[0]), seat(seats[1])]);
                holders.push(side.players[0].clone());
            }
        }
        (hands, holders)
    } else {
        (
            vec![vec![seat(0)], vec![seat(1)]],
            vec![w.players[0].clone(), b.players[0].clone()],
        )
    };
    let mut seats = seating::empty_table(rules, &hands);
    for (hand, player) in hands.iter().zip(holders) {
        for s in hand {
            seats[s.index()].player = Some(player.clone());
            seats[s.index()].accepted = true;
        }
    }
    seats
}

/// The board's other place, when some of its players entered from another platform.
fn away_place(event: &Event, record: &GameRecord) -> Option<Away> {
    // Players who entered from another platform play from a place there (docs/guide.md,
    // "Tournaments across platforms"), opened under the event's channel on that platform.
    let others: Vec<String> = record
        .player_ids()
        .into_iter()
        .filter(|id| event.platform_of(id) != event.platform)
        .collect();
    let first = others.first()?;
    Some(Away {
        platform: event.platform_of(first).to_string(),
        channel: None,
        players: others,
        parent: event.away.as_ref().map(|a| a.channel.clone()),
    })
}

fn opening(event: &Event, round: usize, board: usize) -> Opening {
    let b = &event.played[round - 1].boards[board - 1];
    // The players of the event's platform: those of another play from a place there.
    let players = [b.white, b.black]
        .iter()
        .flat_map(|e| event.entrants[*e].players.iter())
        .filter(|p| event.platform_of(&p.id) == event.platform)
        .map(User::from)
        .collect();
    Opening {
        platform: event.platform.clone(),
        community: event.community.clone(),
        event: event.name.clone(),
        round,
        board,
        name: format!("{}-{round}-{board}", event.name),
        parent: event.channel.clone(),
        players,
        intent: format!(
            "{:016x}",
            kept::fnv1a(&[
                &event.platform,
                &event.community,
                &event.name,
                &event.created.to_string(),
                &round.to_string(),
                &board.to_string(),
            ])
        ),
        since: event.created,
        home: None,
    }
}

/// Closes the game `id` if it is still being played in the board's place `channel`, and says
/// there that the organiser gave its result (`score`, by `forfeit`).
pub(super) fn close_game(
    core: &Context,
    event: &Event,
    channel: String,
    id: &str,
    (score, forfeit): (super::Score, bool),
) {
    let key = ChannelKey::new(&event.platform, &channel);
    if let Ok(Some(mut record)) = core.base.load(&key)
        && record.id == id
        && record.status != Status::Finished
    {
        let expected = record.version;
        record.version += 1;
        record.status = Status::Finished;
        record.ending = Some(Ending::Aborted);
        record.updated = core.clock.now();
        record.wait = None;
        // Said once: kept in the write that closes the game.
        let notice = Notice {
            platform: event.platform.clone(),
            target: Target::Channel(channel.clone()),
            replies: vec![Reply::Text(format!(
                "The organiser gave this board's result ({}{}); the game is closed.",
                score.code(),
                if forfeit { ", by forfeit" } else { "" }
            ))],
            fallback: None,
            receipt: Some(kept::intent("closed", &[id])),
        };
        let receipt = kept::receipt_of(
            &notice,
            User::from(&event.organiser),
            core.clock.now(),
            Vec::new(),
        )
        .encode();
        let change = Change::Archive {
            expected: Some(expected),
            record: record.clone(),
        };
        let kept_id = notice.receipt.clone().unwrap_or_default();
        if core
            .base
            .commit(&key, Some(&change), &[(&key.platform, &kept_id, &receipt)])
            .is_ok()
        {
            reschedule(core, &key);
            core.timers.post(notice);
        }
    }
}
