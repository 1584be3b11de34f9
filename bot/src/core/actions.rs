//! The commands that read or change a channel's game.

use muster_rules::{AnyEvent, AnyGame, GameId, Seat};

use super::words::{self, who};
use super::{Button, Command, Core, Reply, Request, User};
use crate::store::{ChannelKey, Ending, GameRecord, Player, SCHEMA, SeatEntry, Status, StoreError};

pub(super) type Replies = Vec<Reply>;

pub(super) fn private(text: impl Into<String>) -> Replies {
    vec![Reply::Private(text.into())]
}

fn no_game(core: &Core) -> Replies {
    private(format!(
        "There is no game in this channel. Start one with `{}new lanrick @opponent`.",
        core.prefix
    ))
}

/// Runs a command that concerns the channel's game (`record` is its live record, if any).
pub(super) fn run(
    core: &Core,
    req: &Request,
    key: &ChannelKey,
    record: Option<GameRecord>,
    command: Command,
) -> Replies {
    if let Command::New {
        game,
        opponents,
        seat,
        players,
        clock,
        claim,
        casual,
    } = command
    {
        if let Some(allowed) = req.policy.games.as_ref().filter(|g| !g.contains(&game)) {
            let names: Vec<&str> = allowed.iter().map(|g| g.as_str()).collect();
            return private(if names.is_empty() {
                "No games are enabled here; an administrator can enable them in Muster's settings."
                    .to_string()
            } else {
                format!(
                    "{} is not played here. The games here: {}.",
                    game.title(),
                    names.join(", ")
                )
            });
        }
        let policy = &core.timers.policy;
        let clock = clock
            .unwrap_or_else(|| policy.clock_for(&req.platform, &req.channel))
            .map(|c| c.with_claim(claim.unwrap_or_else(|| policy.claim_for(&req.platform))));
        let want = NewGame {
            id: game,
            opponents: &opponents,
            seat: seat.as_deref(),
            players,
            clock,
            casual,
        };
        return new(core, req, key, record.as_ref(), want);
    }
    if let Command::Export(Some(id)) = &command {
        // The channel's own game by its id, as `export` without one gives it.
        if let Some(live) = record.as_ref().filter(|r| r.id == *id) {
            return match live.rebuild() {
                Ok(g) => export(live, &g),
                Err(e) => private(format!("Game {id} does not replay: {}", e.0)),
            };
        }
        return export_archived(core, id);
    }
    if let Command::Replay(Some(id)) = &command {
        if let Some(live) = record.as_ref().filter(|r| r.id == *id) {
            return replay(req, live);
        }
        return replay_archived(core, req, id);
    }
    let Some(record) = record else {
        return match command {
            Command::Export(None) => export_last(core, req),
            Command::Replay(None) => replay_last(core, req),
            _ => no_game(core),
        };
    };
    if record.status == Status::Active
        && !matches!(
            command,
            Command::Export(_) | Command::Replay(_) | Command::History | Command::Hint
        )
        && let Some(replies) = super::timeouts::overdue(core, key, &record)
    {
        return replies;
    }
    let game = match record.rebuild() {
        Ok(g) => g,
        Err(_) if command == Command::Abort => {
            return match core.store.set_aside(key) {
                Ok(()) => vec![Reply::Text(
                    "The game record that did not replay was set aside (an operator can still inspect it). \
                     The channel is free: start a new game with `new`."
                        .into(),
                )],
                Err(e) => private(format!("The record could not be set aside: {e}")),
            };
        }
        Err(e) => {
            return private(format!(
                "This channel's game record does not replay ({}). Say `{}abort` to set it aside.",
                e.0, core.prefix
            ));
        }
    };
    match command {
        Command::Join { seat } => join(core, req, key, record, &game, seat.as_deref()),
        Command::Accept => accept(core, req, key, record, &game),
        Command::Decline => decline(core, req, key, record, &game),
        Command::Abort => abort(core, req, key, record),
        Command::Move(text) => play(core, req, key, record, game, &text),
        Command::Board(_) => board(core, req, &record, &game),
        Command::Moves => moves(&record, &game),
        Command::History => history(&record, &game),
        Command::Export(_) => export(&record, &game),
        Command::Replay(_) => replay(req, &record),
        Command::Resign => resign(core, req, key, record, game),
        Command::Draw(answer) => super::offers::draw(core, req, key, record, game, answer),
        Command::Takeback(answer) => super::offers::takeback(core, req, key, record, game, answer),
        Command::Hint => super::offers::hint(core, req, &record, &game),
        Command::Claim => super::timeouts::claim(core, req, key, record),
        _ => Vec::new(),
    }
}

/// Writes `record` as the next version of the channel's game (archiving it when finished);
/// durable before it returns. A lost race gives the user a reply instead.
pub(super) fn save(
    core: &Core,
    key: &ChannelKey,
    mut record: GameRecord,
) -> Result<GameRecord, Replies> {
    let expected = record.version;
    record.version += 1;
    record.updated = core.clock.now();
    record.time_moves(record.updated);
    record.refresh_clock();
    let result = if record.status == Status::Finished {
        core.store.archive(key, expected, &record)
    } else {
        core.store.update(key, expected, &record)
    };
    match result {
        Ok(()) => Ok(record),
        Err(e) => Err(not_saved(&e)),
    }
}

/// What the user is told when his command's change could not be stored.
pub(super) fn not_saved(e: &StoreError) -> Replies {
    match e {
        StoreError::Conflict => private(
            "The board changed while your command was being handled (someone else moved first); nothing of yours \
             was applied. Look at the `board` and try again.",
        ),
        StoreError::Exists => {
            private("Someone started a game in this channel a moment ago; look at the `board`.")
        }
        e => private(format!(
            "Your command could not be saved ({e}); nothing was changed. Try again."
        )),
    }
}

pub(super) fn resolve_user(req: &Request, token: &str) -> User {
    req.mentions
        .iter()
        .find(|m| {
            m.id == token
                || m.id.strip_prefix('@') == Some(token)
                || m.name.eq_ignore_ascii_case(token)
                // A Matrix id's localpart (`bob` for `@bob:example.org`).
                || m.id.strip_prefix('@').and_then(|r| r.split_once(':')).is_some_and(
                    |(local, _)| local.eq_ignore_ascii_case(token),
                )
        })
        .cloned()
        .unwrap_or_else(|| User::named(token))
}

/// What `new` asked for.
struct NewGame<'a> {
    id: GameId,
    opponents: &'a [String],
    seat: Option<&'a str>,
    players: Option<usize>,
    clock: Option<crate::clock::control::Control>,
    casual: bool,
}

fn new(
    core: &Core,
    req: &Request,
    key: &ChannelKey,
    existing: Option<&GameRecord>,
    want: NewGame<'_>,
) -> Replies {
    let NewGame {
        id,
        opponents,
        seat,
        players,
        clock,
        casual,
    } = want;
    if let Some(r) = existing {
        let state = if r.status == Status::Open {
            "waiting for players"
        } else {
            "being played"
        };
        let mut out = private(format!(
            "This channel already has a game ({} {}, {state}). One game per channel: finish or `{}abort` it, or start yours in another channel or thread.",
            r.game, r.id, core.prefix
        ));
        if req.policy.threads {
            out.push(Reply::Buttons(vec![Button {
                label: "Start it in a new thread".into(),
                command: format!("{} {}", super::THREAD, req.text.trim()),
            }]));
        }
        return out;
    }
    let game = AnyGame::new(id);
    let table = game.table();
    if opponents.len() >= table.len() {
        return private(format!(
            "{} has {} seats: name at most {} other player(s).",
            id.title(),
            table.len(),
            table.len() - 1
        ));
    }
    let count = match players {
        Some(n) if n < opponents.len() + 1 => {
            return private(format!(
                "`for {n}` but you named {} other player(s).",
                opponents.len()
            ));
        }
        Some(n) => n,
        None if opponents.is_empty() => table.len(),
        None if table.len() == 4 => opponents.len() + 1,
        None => table.len(),
    };
    let hands = match super::seating::hands(&game, count) {
        Ok(h) => h,
        Err(e) => return private(e),
    };
    let mine = match seat {
        None => Seat::WHITE,
        Some(name) => match table.seat_named(name) {
            Some(s) => s,
            None => {
                return private(format!(
                    "`as {}`: the seats are {}.",
                    words::excerpt(name, 24),
                    table.seats.join(", ")
                ));
            }
        },
    };
    let me = Player::from(&req.user);
    let mut seats = super::seating::empty_table(&game, &hands);
    let my_hand = hands
        .iter()
        .position(|h| h.contains(&mine))
        .unwrap_or_default();
    let sit = |seats: &mut Vec<SeatEntry>, hand: &[Seat], player: Player, accepted: bool| {
        for s in hand {
            seats[s.index()].player = Some(player.clone());
            seats[s.index()].accepted = accepted;
        }
    };
    sit(&mut seats, &hands[my_hand], me, true);
    let mut invited = Vec::new();
    let mut free = hands
        .iter()
        .enumerate()
        .filter(|(h, _)| *h != my_hand)
        .map(|(_, hand)| hand.clone());
    for token in opponents {
        if let Some(level) = super::bot::parse(&token.to_ascii_lowercase()) {
            let level = match level {
                Ok(l) => l.unwrap_or_else(|| super::bot::default_level(id)),
                Err(e) => return private(e),
            };
            let Some(hand) = free.next() else { break };
            sit(&mut seats, &hand, super::bot::player(level, id), true);
            continue;
        }
        let user = resolve_user(req, token);
        if user.id == req.user.id {
            return private(
                "You cannot challenge yourself: name another player, or leave the seat open.",
            );
        }
        if invited.iter().any(|u: &User| u.id == user.id) {
            return private(format!(
                "{} is named twice: name each player once.",
                user.name
            ));
        }
        let Some(hand) = free.next() else { break };
        let player = Player::from(&user);
        sit(&mut seats, &hand, player, false);
        invited.push(user);
    }
    let id_text = match core.store.next_id() {
        Ok(i) => i,
        Err(e) => return private(format!("The game store is not available ({e}).")),
    };
    let now = core.clock.now();
    let record = GameRecord {
        schema: SCHEMA,
        id: id_text,
        game: id.as_str().into(),
        platform: key.platform.clone(),
        channel: key.channel.clone(),
        created: now,
        updated: now,
        started: None,
        version: 1,
        seats,
        status: Status::Open,
        moves: Vec::new(),
        times: Vec::new(),
        ending: None,
        draw_offer: None,
        takeback: None,
        clock,
        pauses: Vec::new(),
        wait: None,
        tournament: None,
        community: Some(req.policy.community.clone()).filter(|c| !c.is_empty()),
        casual,
    };
    if let Err(e) = core.store.create(key, &record) {
        return not_saved(&e);
    }
    let table_text: Vec<String> = hands
        .iter()
        .map(|hand| {
            let seats: Vec<usize> = hand.iter().map(|s| s.index()).collect();
            let title = super::seating::hand_title(&game, &seats);
            match record.player(seats[0]) {
                Some(p) => format!("{} plays {title}", p.name),
                None if seats.len() > 1 => format!("{title} are open"),
                None => format!("{title} is open"),
            }
        })
        .collect();
    let clock = match record.clock {
        Some(c) => format!(" Clock: {c}."),
        None => " Untimed.".to_string(),
    };
    let mut out = vec![Reply::Text(format!(
        "New game of {} ({}): {}.{clock}",
        id.title(),
        record.id,
        table_text.join(", ")
    ))];
    for user in invited {
        out.push(Reply::Mention {
            user: user.clone(),
            text: format!(
                "{} challenges you to {}: `{p}accept` or `{p}decline`.",
                req.user.name,
                id.title(),
                p = core.prefix
            ),
        });
        out.push(Reply::Buttons(vec![
            Button {
                label: "Accept".into(),
                command: "accept".into(),
            },
            Button {
                label: "Decline".into(),
                command: "decline".into(),
            },
        ]));
    }
    if record
        .seats
        .iter()
        .all(|s| s.player.is_some() && s.accepted)
    {
        // Against the bot nobody needs to accept: the game starts at once.
        return start_if_ready(core, key, record, &game, out);
    }
    if record.seats.iter().any(|s| s.player.is_none()) {
        out.push(Reply::Text(format!(
            "Anyone may take the open seat with `{}join`.",
            core.prefix
        )));
        out.push(Reply::Buttons(vec![Button {
            label: "Join".into(),
            command: "join".into(),
        }]));
    }
    out
}

/// Players away when a timed game begins have their clocks stand still until they return.
pub(super) fn pause_the_away(core: &Core, record: &mut GameRecord, now: u64) {
    if record.clock.is_none() {
        return;
    }
    for id in record.player_ids() {
        let away =
            super::notify::profile(core.base.as_ref(), &record.platform, &id).away_until(now);
        if let Some(to) = away {
            record.pauses.push(crate::clock::timing::Pause {
                player: id,
                from: now,
                to,
            });
        }
    }
}

/// Starts the game if every seat is taken and accepted; the replies announce it.
fn start_if_ready(
    core: &Core,
    key: &ChannelKey,
    mut record: GameRecord,
    game: &AnyGame,
    mut out: Replies,
) -> Replies {
    let ready = record
        .seats
        .iter()
        .all(|s| s.player.is_some() && s.accepted);
    let mut game = game.clone();
    let mut bot_events = Vec::new();
    let before = record.moves.len();
    if ready {
        record.status = Status::Active;
        let now = core.clock.now();
        record.started = Some(now);
        pause_the_away(core, &mut record, now);
        bot_events = bot_turns(&mut record, &mut game);
    }
    let record = match save(core, key, record) {
        Ok(r) => r,
        Err(e) => return e,
    };
    if ready {
        let table: Vec<String> = if game.table().len() > 2 {
            [muster_rules::Team::WHITE, muster_rules::Team::BLACK]
                .into_iter()
                .map(|t| words::team_players(&record, &game, t))
                .collect()
        } else {
            game.table().all().map(|s| who(&record, &game, s)).collect()
        };
        let clock = record
            .clock
            .map_or_else(String::new, |c| format!(" Clock: {c}."));
        out.push(Reply::Text(format!(
            "The game begins: {}.{clock}",
            table.join(" vs ")
        )));
        out.extend(said(&record, &game, &bot_events));
        out.push(Reply::board(&record, before));
        out.extend(core.next_up(&record, &game));
    }
    out
}

/// Plays the bot's decisions while it is the one to decide; returns their events in order.
fn bot_turns(record: &mut GameRecord, game: &mut AnyGame) -> Vec<AnyEvent> {
    let mut events = Vec::new();
    for _ in 0..32 {
        let Some(seat) = game.to_move() else { break };
        if let Some(text) = game.forced_move() {
            // A seat with no choice (a Lanko pass) is moved for, so that nobody waits on it.
            match game.play_text(seat, &text) {
                Ok(ev) => {
                    record.moves.push(text);
                    events.extend(ev);
                    continue;
                }
                Err(_) => break,
            }
        }
        let Some(level) = record
            .player(seat.index())
            .and_then(|p| super::bot::level_of(&p.id))
        else {
            break;
        };
        // A search takes a while: the bot decides after this command is answered.
        if super::bot::searches(game.id()) {
            break;
        }
        let Some(text) = super::bot::decide(game, level, &record.id, record.moves.len())
            .map(|found| found.decision)
        else {
            break;
        };
        match game.play_text(seat, &text) {
            Ok(ev) => {
                record.moves.push(text);
                events.extend(ev);
            }
            Err(_) => break,
        }
    }
    if game.outcome().is_some() {
        record.status = Status::Finished;
        record.ending = Some(Ending::Rules);
    }
    events
}

/// Events put into words, as one message (none if there are no events).
fn said(record: &GameRecord, game: &AnyGame, events: &[AnyEvent]) -> Replies {
    if events.is_empty() {
        return Vec::new();
    }
    let name = |s: Seat| match record.player(s.index()) {
        // With more than two seats, a player may hold several: say which one acted.
        Some(_) if game.table().len() > 2 => who(record, game, s),
        Some(p) => p.name.clone(),
        None => Core::seat_name(game, s),
    };
    vec![Reply::Text(words::events(events, &name, game).join(" "))]
}

fn join(
    core: &Core,
    req: &Request,
    key: &ChannelKey,
    mut record: GameRecord,
    game: &AnyGame,
    seat: Option<&str>,
) -> Replies {
    if record.status != Status::Open {
        return private("This game has already started; you can watch it with `board`.");
    }
    if record.is_player(&req.user.id) {
        return private("You already have a seat at this game.");
    }
    let table = game.table();
    let wanted = match seat {
        Some(name) => match table.seat_named(name) {
            Some(s) if record.player(s.index()).is_none() => s,
            Some(_) => return private(format!("The {} seat is taken.", words::excerpt(name, 24))),
            None => {
                return private(format!(
                    "`{}` is not a seat; the seats are {}.",
                    words::excerpt(name, 24),
                    table.seats.join(", ")
                ));
            }
        },
        None => match table.all().find(|s| record.player(s.index()).is_none()) {
            Some(s) => s,
            None => return private("Every seat of this game is taken."),
        },
    };
    let hand = super::seating::hand_of(&record, wanted.index());
    for i in &hand {
        record.seats[*i].player = Some(Player::from(&req.user));
        record.seats[*i].accepted = true;
    }
    let out = vec![Reply::Text(format!(
        "{} takes {}.",
        req.user.name,
        if hand.len() == 1 {
            format!("the {} seat", words::seat_title(game, wanted))
        } else {
            format!("the {} seats", super::seating::hand_title(game, &hand))
        }
    ))];
    start_if_ready(core, key, record, game, out)
}

fn accept(
    core: &Core,
    req: &Request,
    key: &ChannelKey,
    mut record: GameRecord,
    game: &AnyGame,
) -> Replies {
    let Some(i) = record
        .seats
        .iter()
        .position(|s| s.player.as_ref().is_some_and(|p| p.id == req.user.id) && !s.accepted)
    else {
        return private("There is no challenge to you in this channel.");
    };
    for s in super::seating::hand_of(&record, i) {
        record.seats[s].accepted = true;
    }
    let out = vec![Reply::Text(format!(
        "{} accepts the challenge.",
        req.user.name
    ))];
    start_if_ready(core, key, record, game, out)
}

fn decline(
    core: &Core,
    req: &Request,
    key: &ChannelKey,
    mut record: GameRecord,
    _game: &AnyGame,
) -> Replies {
    let invited = record
        .seats
        .iter()
        .any(|s| s.player.as_ref().is_some_and(|p| p.id == req.user.id) && !s.accepted);
    let seated = record.player_ids().contains(&req.user.id);
    if !invited && seated && record.status == Status::Open {
        return private(format!(
            "You made this challenge, so there is nothing for you to decline; `{}abort` calls it off.",
            core.prefix
        ));
    }
    if !invited {
        return private("There is no challenge to you in this channel.");
    }
    record.status = Status::Finished;
    record.ending = Some(Ending::Aborted);
    match save(core, key, record) {
        Ok(_) => vec![Reply::Text(format!(
            "{} declines; the challenge is withdrawn and the channel is free.",
            req.user.name
        ))],
        Err(e) => e,
    }
}

fn abort(core: &Core, req: &Request, key: &ChannelKey, mut record: GameRecord) -> Replies {
    if let Some(tag) = &record.tournament {
        return private(format!(
            "This is board {} of round {} of the event {}: it cannot be called off. Resign, or ask \
             the organiser to give its result with `{}tournament result {} {} …`.",
            tag.board, tag.round, tag.event, core.prefix, tag.event, tag.board
        ));
    }
    let organiser = req.policy.organiser;
    if !record.is_player(&req.user.id) && !organiser {
        return private("Only a player at this game (or an organiser) may abort it.");
    }
    if !record.moves.is_empty() && !organiser {
        return private(format!(
            "The game has started: `{p}resign`, or offer a `{p}draw`.",
            p = core.prefix
        ));
    }
    let by_organiser = !record.is_player(&req.user.id) || !record.moves.is_empty();
    record.status = Status::Finished;
    record.ending = Some(Ending::Aborted);
    match save(core, key, record) {
        Ok(_) if by_organiser => vec![Reply::Text(format!(
            "{} called the game off as an organiser; no result is recorded and the channel is free.",
            req.user.name
        ))],
        Ok(_) => vec![Reply::Text(format!(
            "{} called the game off; the channel is free.",
            req.user.name
        ))],
        Err(e) => e,
    }
}

/// Checks that `req.user` is at the table of an active game.
pub(super) fn player_seat(
    core: &Core,
    req: &Request,
    record: &GameRecord,
) -> Result<usize, Replies> {
    if record.status == Status::Open {
        return Err(private(format!(
            "The game has not started: seats are still open or challenges unanswered (`{}board`).",
            core.prefix
        )));
    }
    record
        .seat_of(&req.user.id)
        .ok_or_else(|| private("You are not playing in this game; you can watch it with `board`."))
}

fn play(
    core: &Core,
    req: &Request,
    key: &ChannelKey,
    mut record: GameRecord,
    mut game: AnyGame,
    text: &str,
) -> Replies {
    if let Err(e) = player_seat(core, req, &record) {
        return e;
    }
    let Some(seat) = game.to_move() else {
        return private("The game is over.");
    };
    let mover = record.player(seat.index()).map(|p| p.id.as_str());
    if mover != Some(req.user.id.as_str()) {
        return private(format!(
            "It is {}'s decision, not yours.",
            who(&record, &game, seat)
        ));
    }
    let canonical = match game.canonical(&game.normalise(text)) {
        Ok(c) => c,
        Err(e) => return private(format!("{e}. See `{}notation`.", core.prefix)),
    };
    let events = match game.play_text(seat, &canonical) {
        Ok(ev) => ev,
        Err(e) => return private(format!("`{canonical}` is not legal: {e}.")),
    };
    let before = record.moves.len();
    record.moves.push(canonical);
    record.draw_offer = None;
    record.takeback = None;
    if game.outcome().is_some() {
        record.status = Status::Finished;
        record.ending = Some(Ending::Rules);
    }
    let bot_events = bot_turns(&mut record, &mut game);
    let record = match save(core, key, record) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let mut out = said(&record, &game, &events);
    out.extend(said(&record, &game, &bot_events));
    out.push(Reply::board(&record, before));
    if game.outcome().is_some() {
        out.push(Reply::Text(format!(
            "Game over: {} `{}export {}` gives the record.",
            words::result(&record, &game),
            core.prefix,
            record.id
        )));
    } else {
        out.extend(core.next_up(&record, &game));
    }
    out
}

/// `board`: the board as the asker likes to see it, and what is to be decided, for him alone.
fn board(core: &Core, req: &Request, record: &GameRecord, game: &AnyGame) -> Replies {
    let board = core.own_board(&req.platform, &req.user.id, record);
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
                if let Some(line) = core.clock_words(record, game) {
                    text.push_str(&format!("\n{line}"));
                }
                out.push(Reply::Private(text));
            }
        }
    }
    out
}

fn moves(record: &GameRecord, game: &AnyGame) -> Replies {
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
        text.push(format!(
            "… and {} more.{why} `muster moves` lists them all.",
            all.len() - shown
        ));
    }
    vec![Reply::Text(text.join("\n"))]
}

fn history(record: &GameRecord, game: &AnyGame) -> Replies {
    if record.moves.is_empty() {
        return vec![Reply::Text("No moves yet.".into())];
    }
    let mut replay = AnyGame::new(game.id());
    let mut lines = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        let seat = replay.to_move();
        let who = seat.map_or("?".to_string(), |s| Core::seat_name(&replay, s));
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

fn export(record: &GameRecord, game: &AnyGame) -> Replies {
    let name = format!("{}-{}.txt", record.game, record.id);
    vec![
        Reply::Text(format!(
            "The record of game {}, replayable with `muster replay --game {}`:",
            record.id, record.game
        )),
        Reply::File {
            name,
            content: record.export(game),
        },
    ]
}

fn export_archived(core: &Core, id: &str) -> Replies {
    match core.store.archived(id) {
        Ok(Some(r)) => match r.rebuild() {
            Ok(g) => export(&r, &g),
            Err(e) => private(format!("Game {id} does not replay: {}", e.0)),
        },
        Ok(None) => private(format!(
            "There is no finished game `{}`; `games` lists yours.",
            words::excerpt(id, 24)
        )),
        Err(e) => private(format!("The game store is not available ({e}).")),
    }
}

/// A game's replay, for `replay`: the game so far, or a finished one.
fn replay(req: &Request, record: &GameRecord) -> Replies {
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
        Reply::Board(Box::new(super::board::Board::replay(
            record,
            super::replay::cap(&req.platform),
        ))),
    ]
}

fn replay_archived(core: &Core, req: &Request, id: &str) -> Replies {
    match core.store.archived(id) {
        Ok(Some(r)) => replay(req, &r),
        Ok(None) => private(format!(
            "There is no finished game `{}`; `games` lists yours.",
            words::excerpt(id, 24)
        )),
        Err(e) => private(format!("The game store is not available ({e}).")),
    }
}

fn replay_last(core: &Core, req: &Request) -> Replies {
    match core.store.games_of(&req.user.id) {
        Ok(games) => match games.first() {
            Some(r) => replay(req, r),
            None => no_game(core),
        },
        Err(e) => private(format!("The game store is not available ({e}).")),
    }
}

fn export_last(core: &Core, req: &Request) -> Replies {
    match core.store.games_of(&req.user.id) {
        Ok(games) => match games.first() {
            Some(r) => export_archived(core, &r.id),
            None => no_game(core),
        },
        Err(e) => private(format!("The game store is not available ({e}).")),
    }
}

pub(super) fn finish(
    core: &Core,
    key: &ChannelKey,
    mut record: GameRecord,
    game: &AnyGame,
    ending: Ending,
    said: String,
) -> Replies {
    record.status = Status::Finished;
    record.ending = Some(ending);
    record.draw_offer = None;
    record.takeback = None;
    match save(core, key, record) {
        Ok(record) => vec![
            Reply::Text(said),
            Reply::board(&record, record.moves.len()),
            Reply::Text(format!(
                "Game over: {} `{}export {}` gives the record.",
                words::result(&record, game),
                core.prefix,
                record.id
            )),
        ],
        Err(e) => e,
    }
}

fn resign(
    core: &Core,
    req: &Request,
    key: &ChannelKey,
    record: GameRecord,
    mut game: AnyGame,
) -> Replies {
    let seat = match player_seat(core, req, &record) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let Some(s) = Seat::new(seat) else {
        return Vec::new();
    };
    if let Err(e) = game.resign(s) {
        return private(format!("{e}."));
    }
    // The bot resigns a hopeless game (docs/ai.md) as a good loser.
    let bot = record
        .player(seat)
        .is_some_and(|p| super::bot::level_of(&p.id).is_some());
    let said = if bot {
        format!("{} resigns. Well played!", who(&record, &game, s))
    } else {
        format!("{} resigns.", who(&record, &game, s))
    };
    finish(core, key, record, &game, Ending::Resigned { seat }, said)
}
