//! Seating a game: `new` (a challenge, open seats, the bot), `join`, `accept`, `decline`, and
//! `abort` before the first move; the game starts when every seat is taken and accepted.

use muster_rules::{AnyGame, Seat, Team};

use super::command::NewGame;
use super::play::{bot_turns, next_up, said, save};
use super::words::{self, who};
use super::{away, bot, seating};
use crate::kernel::clock::control::Control;
use crate::kernel::clock::timing::Pause;
use crate::kernel::context::Context;
use crate::kernel::reply::{Button, Replies, Reply, not_saved, private};
use crate::kernel::request::{Request, THREAD, User, resolve_user};
use crate::kernel::store::{
    Away, ChannelKey, Ending, GameRecord, Player, SCHEMA, SeatEntry, Status,
};
use crate::kernel::text::excerpt;
use crate::players::profile::Profiles;

/// `new`: a game in this channel, the asker seated, the players named challenged (or the bot
/// seated), the other seats open.
pub fn new(
    core: &Context,
    req: &Request,
    key: &ChannelKey,
    existing: Option<&GameRecord>,
    want: &NewGame,
) -> Replies {
    if let Some(refused) = not_here(req, want) {
        return refused;
    }
    if let Some(r) = existing {
        return occupied(core, req, r);
    }
    let game = AnyGame::new(want.game);
    let seated = match seat(core, req, &game, want) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let clock = new_clock(core, req, want);
    let record = match open_record(core, req, key, want, clock, seated.seats, seated.away) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let mut out = vec![Reply::Text(table_text(&record, &game, &seated.hands))];
    out.extend(challenged_away(&record, &seated.invited, want));
    let here = |u: &User| record.platform_of(&u.id) == record.platform;
    for user in seated.invited.into_iter().filter(here) {
        out.extend(challenge(core, req, want, user));
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

/// The new game's time control: the one asked for, else the place's, with its claim set.
fn new_clock(core: &Context, req: &Request, want: &NewGame) -> Option<Control> {
    let policy = &core.timers.policy;
    want.clock
        .unwrap_or_else(|| policy.clock_for(&req.platform, &req.channel))
        .map(|c| {
            c.with_claim(
                want.claim
                    .unwrap_or_else(|| policy.claim_for(&req.platform)),
            )
        })
}

/// The line telling who was challenged on another platform, for a game with another place.
fn challenged_away(record: &GameRecord, invited: &[User], want: &NewGame) -> Option<Reply> {
    let away = record.away.as_ref()?;
    // Challenged on another platform: asked there, in the game's place that opens for them.
    let names: Vec<&str> = invited
        .iter()
        .filter(|u| away.players.contains(&u.id))
        .map(|u| u.name.as_str())
        .collect();
    Some(Reply::Text(format!(
        "{} {} challenged on {}: Muster opens the game's place there, where {} \
         the challenge; the game is shown in both places.{}",
        names.join(" and "),
        if names.len() == 1 { "is" } else { "are" },
        crate::kernel::text::capitalised(&away.platform),
        if names.len() == 1 {
            "they answer"
        } else {
            "each answers"
        },
        if record.casual && !want.casual {
            " Casual — not rated: only a community across platforms rates games between them."
        } else {
            ""
        }
    )))
}

/// The challenge to one player here: a mention, and the buttons to accept or decline.
fn challenge(core: &Context, req: &Request, want: &NewGame, user: User) -> [Reply; 2] {
    [
        Reply::Mention {
            user,
            text: format!(
                "{} challenges you to {}: `{p}accept` or `{p}decline`.",
                req.user.name,
                want.game.title(),
                p = core.prefix
            ),
        },
        Reply::Buttons(vec![
            Button {
                label: "Accept".into(),
                command: "accept".into(),
            },
            Button {
                label: "Decline".into(),
                command: "decline".into(),
            },
        ]),
    ]
}

/// Why the game asked for may not be started here, if it may not.
fn not_here(req: &Request, want: &NewGame) -> Option<Replies> {
    let allowed = req
        .policy
        .games
        .as_ref()
        .filter(|g| !g.contains(&want.game))?;
    let names: Vec<&str> = allowed.iter().map(|g| g.as_str()).collect();
    Some(private(if names.is_empty() {
        "No games are enabled here; an administrator can enable them in Muster's settings."
            .to_string()
    } else {
        format!(
            "{} is not played here. The games here: {}.",
            want.game.title(),
            names.join(", ")
        )
    }))
}

/// The answer to `new` in a channel that has a game: one game per channel, and where the
/// platform can, a button to start it in a new thread.
fn occupied(core: &Context, req: &Request, r: &GameRecord) -> Replies {
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
            command: format!("{THREAD} {}", req.text.trim()),
        }]));
    }
    out
}

/// A new game's table: the seats, who was challenged, and the hands (the seats each player
/// holds).
struct Seated {
    seats: Vec<SeatEntry>,
    invited: Vec<User>,
    hands: Vec<Vec<Seat>>,
    /// Players challenged on another platform, and that platform.
    away: Option<Away>,
}

/// The hands of the game `new` asks for, and the asker's.
fn hands(game: &AnyGame, want: &NewGame) -> Result<(Vec<Vec<Seat>>, usize), Replies> {
    let (id, opponents) = (want.game, &want.opponents);
    let table = game.table();
    if opponents.len() >= table.len() {
        return Err(private(format!(
            "{} has {} seats: name at most {} other player(s).",
            id.title(),
            table.len(),
            table.len() - 1
        )));
    }
    let count = match want.players {
        Some(n) if n < opponents.len() + 1 => {
            return Err(private(format!(
                "`for {n}` but you named {} other player(s).",
                opponents.len()
            )));
        }
        Some(n) => n,
        None if opponents.is_empty() => table.len(),
        None if table.len() == 4 => opponents.len() + 1,
        None => table.len(),
    };
    let hands = seating::hands(game, count).map_err(private)?;
    let mine = match &want.seat {
        None => Seat::WHITE,
        Some(name) => table.seat_named(name).ok_or_else(|| {
            private(format!(
                "`as {}`: the seats are {}.",
                excerpt(name, 24),
                table.seats.join(", ")
            ))
        })?,
    };
    let my_hand = hands
        .iter()
        .position(|h| h.contains(&mine))
        .unwrap_or_default();
    Ok((hands, my_hand))
}

/// Seats the asker, the bot where it is named, and the players challenged (here, or on another
/// platform by an account's id).
fn seat(core: &Context, req: &Request, game: &AnyGame, want: &NewGame) -> Result<Seated, Replies> {
    let (hands, my_hand) = hands(game, want)?;
    let mut seats = seating::empty_table(game, &hands);
    let sit = |seats: &mut Vec<SeatEntry>, hand: &[Seat], player: Player, accepted: bool| {
        for s in hand {
            seats[s.index()].player = Some(player.clone());
            seats[s.index()].accepted = accepted;
        }
    };
    sit(&mut seats, &hands[my_hand], Player::from(&req.user), true);
    let mut invited: Vec<User> = Vec::new();
    let mut away: Option<Away> = None;
    let mut free = hands
        .iter()
        .enumerate()
        .filter(|(h, _)| *h != my_hand)
        .map(|(_, hand)| hand.clone());
    for token in &want.opponents {
        if let Some(level) = bot::parse(&token.to_ascii_lowercase()) {
            let level = level.map_err(private)?;
            let level = level.unwrap_or_else(|| bot::default_level(want.game));
            let Some(hand) = free.next() else { break };
            sit(&mut seats, &hand, bot::player(level, want.game), true);
            continue;
        }
        let mut user = resolve_user(req, token);
        let mentioned = req.mentions.iter().any(|m| m.id == user.id);
        let elsewhere = match mentioned {
            true => None,
            false => away::challenged(core, req, token)?,
        };
        if let Some((platform, there)) = elsewhere {
            match &mut away {
                Some(a) if a.platform != platform => {
                    return Err(private(format!(
                        "A game is played in two places at most: {} and {} are on different \
                         platforms. Challenge players of one other platform.",
                        excerpt(&a.players[0], 40),
                        excerpt(token, 40)
                    )));
                }
                Some(a) => a.players.push(there.id.clone()),
                None => {
                    away = Some(Away {
                        platform: platform.clone(),
                        channel: None,
                        players: vec![there.id.clone()],
                        parent: None,
                    })
                }
            }
            user = there;
        }
        if user.id == req.user.id {
            return Err(private(
                "You cannot challenge yourself: name another player, or leave the seat open.",
            ));
        }
        if invited.iter().any(|u| u.id == user.id) {
            return Err(private(format!(
                "{} is named twice: name each player once.",
                user.name
            )));
        }
        let Some(hand) = free.next() else { break };
        sit(&mut seats, &hand, Player::from(&user), false);
        invited.push(user);
    }
    Ok(Seated {
        seats,
        invited,
        hands,
        away,
    })
}

/// The new game's record, created in the channel.
fn open_record(
    core: &Context,
    req: &Request,
    key: &ChannelKey,
    want: &NewGame,
    clock: Option<Control>,
    seats: Vec<SeatEntry>,
    away: Option<Away>,
) -> Result<GameRecord, Replies> {
    let id = core
        .store
        .next_id()
        .map_err(|e| private(format!("The game store is not available ({e}).")))?;
    let now = core.clock.now();
    let record = GameRecord {
        schema: SCHEMA,
        id,
        game: want.game.as_str().into(),
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
        // Between platforms, only a community across them has one table for both players
        // (docs/ratings.md).
        casual: want.casual
            || (away.is_some()
                && core
                    .communities()
                    .of(&req.platform, &req.policy.community, &req.channel)
                    .is_none()),
        away,
    };
    core.store.create(key, &record).map_err(|e| not_saved(&e))?;
    Ok(record)
}

/// `New game of Lanrick (g12): alice plays White, Black is open. Untimed.`
fn table_text(record: &GameRecord, game: &AnyGame, hands: &[Vec<Seat>]) -> String {
    let table: Vec<String> = hands
        .iter()
        .map(|hand| {
            let seats: Vec<usize> = hand.iter().map(|s| s.index()).collect();
            let title = seating::hand_title(game, &seats);
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
    format!(
        "New game of {} ({}): {}.{clock}",
        game.id().title(),
        record.id,
        table.join(", ")
    )
}

/// Players away when a timed game begins have their clocks stand still until they return.
pub fn pause_the_away(core: &Context, record: &mut GameRecord, now: u64) {
    if record.clock.is_none() {
        return;
    }
    let mut profiles = Profiles::new(core.base.as_ref());
    for id in record.player_ids() {
        let away = profiles.of(record.platform_of(&id), &id).away_until(now);
        if let Some(to) = away {
            record.pauses.push(Pause {
                player: id,
                from: now,
                to,
            });
        }
    }
}

/// Starts the game if every seat is taken and accepted; the replies announce it.
fn start_if_ready(
    core: &Context,
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
        bot_events = bot_turns(&mut record, &mut game, None);
    }
    let record = match save(core, key, record, &game) {
        Ok(r) => r,
        Err(e) => return e,
    };
    if ready {
        let table: Vec<String> = if game.table().len() > 2 {
            [Team::WHITE, Team::BLACK]
                .into_iter()
                .map(|t| words::team_players(&record, &game, t))
                .collect()
        } else {
            game.table().all().map(|s| who(&record, &game, s)).collect()
        };
        let clock = record
            .clock
            .map_or_else(String::new, |c| format!(" Clock: {c}."));
        // What the ratings will not count, said before the first move (docs/ratings.md).
        let unrated = if record.casual {
            " Casual — not rated.".to_string()
        } else if let Some(level) = bot::level_word(&record) {
            let perfect = if game.id() == muster_rules::GameId::Croquet {
                " (perfect play)"
            } else {
                ""
            };
            format!(
                " Not rated: the bot plays. It plays at `{level}`; `new` names another level: \
                 `bot:easy`, `bot:good` or `bot:strong`{perfect}."
            )
        } else {
            String::new()
        };
        out.push(Reply::Text(format!(
            "The game begins: {}.{clock}{unrated}",
            table.join(" vs ")
        )));
        out.extend(core.game_link(&record));
        out.extend(said(&record, &game, &bot_events));
        out.push(Reply::played_board(&record, before, &game, bot_events));
        out.extend(next_up(core, &record, &game));
    }
    out
}

pub fn join(
    core: &Context,
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
            Some(_) => return private(format!("The {} seat is taken.", excerpt(name, 24))),
            None => {
                return private(format!(
                    "`{}` is not a seat; the seats are {}.",
                    excerpt(name, 24),
                    table.seats.join(", ")
                ));
            }
        },
        None => match table.all().find(|s| record.player(s.index()).is_none()) {
            Some(s) => s,
            None => return private("Every seat of this game is taken."),
        },
    };
    let hand = seating::hand_of(&record, wanted.index());
    if req.platform != record.platform
        && let Some(away) = record.away.as_mut()
    {
        // Taken from the game's place on the other platform: played from there.
        away.players.push(req.user.id.clone());
    }
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
            format!("the {} seats", seating::hand_title(game, &hand))
        }
    ))];
    start_if_ready(core, key, record, game, out)
}

pub fn accept(
    core: &Context,
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
    for s in seating::hand_of(&record, i) {
        record.seats[s].accepted = true;
    }
    let out = vec![Reply::Text(format!(
        "{} accepts the challenge.",
        req.user.name
    ))];
    start_if_ready(core, key, record, game, out)
}

pub fn decline(
    core: &Context,
    req: &Request,
    key: &ChannelKey,
    mut record: GameRecord,
    game: &AnyGame,
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
    match save(core, key, record, game) {
        Ok(_) => vec![Reply::Text(format!(
            "{} declines; the challenge is withdrawn and the channel is free.",
            req.user.name
        ))],
        Err(e) => e,
    }
}

pub fn abort(
    core: &Context,
    req: &Request,
    key: &ChannelKey,
    mut record: GameRecord,
    game: &AnyGame,
) -> Replies {
    if let Some(tag) = &record.tournament {
        let what = if req.policy.organiser {
            "As an organiser, give its result"
        } else {
            "Resign, or ask the organiser to give its result"
        };
        return private(format!(
            "This is board {} of round {} of the event {}: it cannot be called off. {what} with \
             `{}tournament result {} {} …`.",
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
    match save(core, key, record, game) {
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
