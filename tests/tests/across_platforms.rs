//! One game played from two chat networks through one `muster serve` process: dan on Discord
//! (the stand-in) challenges alice on Matrix (a real Synapse, behind a proxy that can take it
//! away) by her Matrix id. Muster makes a room for the game on Matrix and invites her; she
//! accepts there, and the game is played from both places, each shown what the other was told.
//! Muster is restarted in the middle, then Discord is cut off while alice moves and Matrix while
//! dan moves: the side that was down is told what it missed when it is back, once.
//! (docs/guide.md, "Games across platforms".)

mod matrix_play;

use std::time::Duration;

use matrix_play::{CROQUET, LANRICK, invite_bot, open_room, record};
use muster_tests::discord::bot::{
    self, Bot, CHANNEL, GUILD, Mode, callback, interact, runtime, slash, text,
};
use muster_tests::discord::{Person, StandIn, StoredMessage, command};
use muster_tests::matrix::Seen;
use muster_tests::matrix_bot::{Table, table};
use muster_tests::proxy::{Proxy, Trap};
use muster_tests::{data_dir, muster_binary};
use serde_json::json;

const WAIT: Duration = Duration::from_secs(60);

/// The Discord channel under which games challenged from Matrix get their threads.
const GAMES: &str = "1300000000000000300";

/// Starts Muster serving the stand-in and the homeserver (through `proxy`), and waits until
/// the Matrix adapter listens.
async fn start(standin: &StandIn, t: &Table, proxy: &Proxy, dir: &std::path::Path) -> Bot {
    let homeserver = proxy.url();
    let alice = t.alice.user_id();
    let matrix = [
        ("MUSTER_MATRIX_HOMESERVER", homeserver.as_str()),
        ("MUSTER_MATRIX_USER", t.bot.user_id.as_str()),
        ("MUSTER_MATRIX_PASSWORD", t.bot.password.as_str()),
        ("MUSTER_MATRIX_AUTO_JOIN", alice.as_str()),
        ("MUSTER_DISCORD_GAMES_CHANNEL", GAMES),
    ];
    let muster = bot::start(standin, &muster_binary!(), dir, Mode::Gateway, &matrix).await;
    muster
        .wait_log("the Matrix adapter to listen", |l| {
            l.contains("listening as").then_some(())
        })
        .await;
    muster
}

/// A data directory `name` whose settings make the stand-in's server and every Matrix room one
/// community.
fn club(name: &str) -> std::path::PathBuf {
    let dir = data_dir("across-platforms", name);
    std::fs::create_dir_all(&dir).expect("a data directory");
    std::fs::write(
        dir.join("muster.toml"),
        format!("[communities.club]\ndiscord = [\"{GUILD}\"]\nmatrix = [\"*\"]\n"),
    )
    .expect("the settings");
    dir
}

/// The bot's messages in the Discord channel.
fn on_discord(standin: &StandIn) -> Vec<StoredMessage> {
    standin
        .messages()
        .into_iter()
        .filter(|m| m.channel_id == CHANNEL)
        .collect()
}

/// How many of alice's decisions Discord was told of: messages posted in the channel (not
/// answers to dan's commands) that ask for the next decision.
fn told_on_discord(standin: &StandIn) -> usize {
    on_discord(standin)
        .into_iter()
        .filter(|m| m.interaction_token.is_none() && m.content.contains("your turn"))
        .count()
}

/// How many of dan's decisions the room was told of: the bot's messages there that answer no
/// one and ask for the next decision.
fn told_on_matrix(t: &Table, room: &str) -> usize {
    t.alice
        .messages(room)
        .into_iter()
        .filter(|s| {
            s.sender == t.bot.user_id && s.in_reply_to.is_none() && s.body.contains("your turn")
        })
        .count()
}

/// The first message in `room` that alice sees matching `pred`, waited for up to [`WAIT`];
/// panics with Muster's log.
async fn seen_in(t: &Table, muster: &Bot, room: &str, pred: impl Fn(&Seen) -> bool) -> Seen {
    seen_after(t, muster, 0, room, pred).await
}

/// As [`seen_in`], among the messages after alice's `mark`.
async fn seen_after(
    t: &Table,
    muster: &Bot,
    mark: usize,
    room: &str,
    pred: impl Fn(&Seen) -> bool,
) -> Seen {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let all = t.alice.all_messages();
        if let Some(s) = all
            .into_iter()
            .skip(mark)
            .find(|s| s.room == room && pred(s))
        {
            return s;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not seen in {room}:\n{}\nMuster's log:\n{}",
            t.alice.describe(room),
            muster.log()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Waits up to [`WAIT`] until `done`, polling; panics naming `what`.
async fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The bot's messages in `room` that say `what`.
fn on_matrix(t: &Table, room: &str, what: &str) -> Vec<Seen> {
    t.alice
        .messages(room)
        .into_iter()
        .filter(|s| s.sender == t.bot.user_id && s.body.contains(what))
        .collect()
}

/// dan plays `mv` with `/move` on Discord (shown as Dan); the Matrix room is told. Whose turn
/// it is then: alice's (`true`) or dan's again; `None` once the game is over.
async fn dan_moves(
    (standin, muster, dan): (&StandIn, &Bot, &Person),
    t: &Table,
    room: &str,
    mv: &str,
) -> Option<bool> {
    let mark = t.alice.mark();
    let said = text(&callback(
        &slash(
            standin,
            muster,
            dan,
            "move",
            json!([{"name": "notation", "type": 3, "value": mv}]),
        )
        .await,
    ));
    assert!(
        !said.contains("not legal") && !said.contains("not yours"),
        "{said}"
    );
    let told = seen_after(t, muster, mark, room, |s| {
        s.sender == t.bot.user_id && (s.body.contains("your turn") || s.body.contains("Game over"))
    })
    .await;
    (!told.body.contains("Game over")).then(|| told.body.contains("your turn (Black)"))
}

/// alice plays `mv` in the room; Discord is told (waited for while `discord_up`). Whose turn
/// it is then: alice's again (`true`) or dan's; `None` once the game is over.
async fn alice_moves(
    standin: &StandIn,
    t: &Table,
    room: &str,
    mv: &str,
    discord_up: bool,
) -> Option<bool> {
    let before: Vec<String> = on_discord(standin).into_iter().map(|m| m.id).collect();
    let ev = t.alice.send_text(room, &format!("!move {mv}")).await;
    let answer = t
        .alice
        .wait_for(room, 60, |s| {
            s.sender == t.bot.user_id
                && s.in_reply_to.as_deref() == Some(ev.as_str())
                && (s.body.contains("your turn") || s.body.contains("Game over"))
        })
        .await;
    if discord_up {
        standin
            .wait_message(
                "alice's move told on Discord",
                |m| {
                    m.channel_id == CHANNEL
                        && !before.contains(&m.id)
                        && (m.content.contains("your turn") || m.content.contains("Game over"))
                },
                WAIT,
            )
            .await;
    }
    (!answer.body.contains("Game over")).then(|| !answer.body.contains("Dan, your turn"))
}

#[test]
fn a_discord_player_and_a_matrix_player_play_one_game_across_restarts_and_outages() {
    runtime().block_on(async {
        let t = table().await;
        let standin = StandIn::start(bot::APP).await;
        let proxy = Proxy::start(&t.synapse.url()).await;
        let dir = club("game");
        let mut muster = start(&standin, &t, &proxy, &dir).await;
        let alice_mx = t.alice.user_id();
        let dan = Person::new("dan");

        // An account Matrix does not know: refused privately, nothing made.
        let asked = callback(
            &slash(
                &standin,
                &muster,
                &dan,
                "new",
                json!([{"name": "game", "type": 4, "value": 2},
                       {"name": "elsewhere", "type": 3, "value": "@nobody:localhost"}]),
            )
            .await,
        );
        assert!(bot::ephemeral(&asked), "{}", text(&asked));
        assert!(
            text(&asked).contains("no Matrix account"),
            "{}",
            text(&asked)
        );

        // dan challenges alice by her Matrix id, while the homeserver makes no rooms: Discord
        // answers at once; then Muster is killed (at the proxy's trap) right after the
        // homeserver has made the game's room, before it hears of it.
        proxy.hold_rooms(true);
        let asked = callback(
            &slash(
                &standin,
                &muster,
                &dan,
                "new",
                json!([{"name": "game", "type": 4, "value": 2},
                       {"name": "elsewhere", "type": 3, "value": alice_mx}]),
            )
            .await,
        );
        let said = text(&asked);
        assert!(said.contains("alice is challenged on Matrix"), "{said}");
        proxy.arm(Trap::AfterCreateRoom, muster.pid());
        proxy.hold_rooms(false);
        proxy.fired(90).await;
        muster.exit_status(WAIT).await;
        // Started again, Muster finds the room it made rather than making another.
        muster = start(&standin, &t, &proxy, &dir).await;
        // Matrix: one room for the game, alice invited; she joins and accepts there.
        let room = t.alice.wait_for_invitation(60).await;
        t.alice.join(&room).await;
        seen_in(&t, &muster, &room, |s| {
            s.body.contains("you are challenged")
        })
        .await;
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(t.alice.invitations(), Vec::<String>::new(), "one room");
        assert_eq!(on_matrix(&t, &room, "you are challenged").len(), 1);
        let ev = t.alice.send_text(&room, "!accept").await;
        t.alice
            .wait_for(&room, 60, |s| {
                s.in_reply_to.as_deref() == Some(ev.as_str()) && s.body.contains("The game begins")
            })
            .await;
        standin
            .wait_message(
                "the game's start told on Discord",
                |m| m.channel_id == CHANNEL && m.content.contains("The game begins"),
                WAIT,
            )
            .await;

        // Play, dan on Discord and alice on Matrix, with a restart, then each side cut off.
        // Each of alice's decisions (her acceptance first) is told on Discord, each of dan's on
        // Matrix, as a message of its own that asks for the next decision.
        let moves = record(CROQUET);
        let (mut alice_next, mut by_alice, mut by_dan) = (false, 1, 0);
        let (mut discord_cut, mut matrix_cut) = (false, false);
        for (i, mv) in moves.iter().take(10).enumerate() {
            if i == 2 {
                muster.terminate();
                muster.exit_status(WAIT).await;
                muster = start(&standin, &t, &proxy, &dir).await;
            }
            if alice_next {
                let discord_down = i >= 3 && !discord_cut;
                if discord_down {
                    standin.rest_outage(true);
                    discord_cut = true;
                }
                alice_next = alice_moves(&standin, &t, &room, mv, !discord_down)
                    .await
                    .expect("the game goes on");
                by_alice += 1;
                if discord_down {
                    // Nothing reached Discord meanwhile; it is told once it is back.
                    tokio::time::sleep(Duration::from_secs(2)).await;
                    assert_eq!(told_on_discord(&standin), by_alice - 1);
                    standin.rest_outage(false);
                    wait_until("Discord told what it missed", || {
                        told_on_discord(&standin) == by_alice
                    })
                    .await;
                }
            } else if i >= 3 && !matrix_cut {
                // Matrix away: Discord answers dan at once; Matrix hears of it when it is back.
                proxy.set_away(true);
                matrix_cut = true;
                let said = text(&callback(
                    &slash(
                        &standin,
                        &muster,
                        &dan,
                        "move",
                        json!([{"name": "notation", "type": 3, "value": mv}]),
                    )
                    .await,
                ));
                assert!(said.contains("your turn"), "{said}");
                alice_next = said.contains("alice, your turn");
                by_dan += 1;
                tokio::time::sleep(Duration::from_secs(2)).await;
                assert_eq!(told_on_matrix(&t, &room), by_dan - 1);
                proxy.set_away(false);
                wait_until("Matrix told what it missed", || {
                    told_on_matrix(&t, &room) == by_dan
                })
                .await;
            } else {
                alice_next = dan_moves((&standin, &muster, &dan), &t, &room, mv)
                    .await
                    .expect("the game goes on");
                by_dan += 1;
            }
        }
        assert!(discord_cut && matrix_cut, "each side was cut off once");

        // Killed between storing and telling: dan's move is stored with what Matrix is to be
        // told; the homeserver stores that, and Muster dies before it hears so. Started again,
        // it tells Matrix once (the same transaction), not twice.
        let mut next = 10;
        while alice_next {
            alice_next = alice_moves(&standin, &t, &room, moves[next], true)
                .await
                .expect("the game goes on");
            by_alice += 1;
            next += 1;
        }
        proxy.set_away(true);
        let said = text(&callback(
            &slash(
                &standin,
                &muster,
                &dan,
                "move",
                json!([{"name": "notation", "type": 3, "value": moves[next]}]),
            )
            .await,
        ));
        assert!(said.contains("your turn"), "{said}");
        alice_next = said.contains("alice, your turn");
        by_dan += 1;
        next += 1;
        proxy.arm(Trap::AfterText("your turn"), muster.pid());
        proxy.set_away(false);
        proxy.fired(90).await;
        muster.exit_status(WAIT).await;
        muster = start(&standin, &t, &proxy, &dir).await;
        wait_until("Matrix told of the move once, after the kill", || {
            told_on_matrix(&t, &room) == by_dan
        })
        .await;

        // The rest of the recorded game, to its end by the rules.
        let mut last_by_alice;
        loop {
            assert!(next < moves.len(), "the recorded game ends");
            let goes_on = if alice_next {
                last_by_alice = true;
                by_alice += 1;
                alice_moves(&standin, &t, &room, moves[next], true).await
            } else {
                last_by_alice = false;
                by_dan += 1;
                dan_moves((&standin, &muster, &dan), &t, &room, moves[next]).await
            };
            next += 1;
            match goes_on {
                Some(n) => alice_next = n,
                None => break,
            }
        }
        // Both places are told the end, once.
        standin
            .wait_message(
                "the end on Discord",
                |m| m.channel_id == CHANNEL && m.content.contains("Game over"),
                WAIT,
            )
            .await;
        seen_in(&t, &muster, &room, |s| s.body.contains("Game over")).await;

        // Nothing told twice in either place, nothing lost: every decision but the last asked
        // for the next one in the other place; the last told the end.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let (alice_told, dan_told) = if last_by_alice {
            (by_alice - 1, by_dan)
        } else {
            (by_alice, by_dan - 1)
        };
        assert_eq!(told_on_discord(&standin), alice_told);
        assert_eq!(told_on_matrix(&t, &room), dan_told);
        assert_eq!(said_on_discord(&standin, "Game over").len(), 1);
        for what in ["The game begins", "Game over", "you are challenged"] {
            assert_eq!(
                on_matrix(&t, &room, what).len(),
                1,
                "{what}: {}",
                t.alice.describe(&room)
            );
        }
        // dan's rating is the community's: one game.
        let asked = callback(
            &slash(
                &standin,
                &muster,
                &dan,
                "rating",
                json!([{"name": "game", "type": 4, "value": 2}]),
            )
            .await,
        );
        assert!(text(&asked).contains("1 game"), "{}", text(&asked));
        muster.terminate();
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// `/name` with `options` by `who` in the Discord channel `channel` (a thread).
async fn slash_in(
    standin: &StandIn,
    muster: &Bot,
    who: &Person,
    channel: &str,
    name: &str,
    options: serde_json::Value,
) -> String {
    let interaction = command(name, options, who, channel, Some(GUILD));
    text(&callback(&interact(standin, muster, interaction).await))
}

#[test]
fn a_matrix_player_challenges_a_linked_player_who_plays_in_a_discord_thread() {
    runtime().block_on(async {
        let t = table().await;
        let standin = StandIn::start(bot::APP).await;
        standin.add_channel(GAMES, GUILD);
        let proxy = Proxy::start(&t.synapse.url()).await;
        let dir = data_dir("across-platforms", "thread");
        let muster = start(&standin, &t, &proxy, &dir).await;
        let room = open_room(&t, "From Matrix", false).await;
        invite_bot(&t, &room).await;

        // dan on Discord and bob on Matrix are one player.
        let dan = Person::new("dan");
        let said = text(&callback(
            &slash(&standin, &muster, &dan, "link", json!([])).await,
        ));
        let code = said
            .split('`')
            .find_map(|w| w.strip_prefix("!link "))
            .unwrap_or_else(|| panic!("what to say on Matrix: {said}"))
            .to_string();
        let ev = t.bob.send_text(&room, &format!("!link {code}")).await;
        t.bob
            .wait_for(&room, 60, |s| {
                s.in_reply_to.as_deref() == Some(ev.as_str()) && s.body.contains("one player")
            })
            .await;

        // alice names him: he is challenged on Discord, in a thread under the games channel.
        let ev = t.alice.send_text(&room, "!new lanrick Dan").await;
        let asked = seen_in(&t, &muster, &room, |s| {
            s.in_reply_to.as_deref() == Some(ev.as_str())
        })
        .await;
        assert!(
            asked.body.contains("Dan is challenged on Discord"),
            "{asked:?}"
        );
        let first = standin
            .wait_message(
                "the challenge in the game's thread",
                |m| m.content.contains("you are challenged"),
                WAIT,
            )
            .await;
        let threads = standin.threads();
        assert_eq!(threads.len(), 1, "{threads:?}");
        assert_eq!(threads[0]["parent_id"], GAMES);
        let thread = threads[0]["id"].as_str().expect("an id").to_string();
        assert_eq!(first.channel_id, thread);
        assert!(
            first.content.contains(&format!("<@{}>", dan.id)),
            "{}",
            first.content
        );

        // He accepts there; alice hears of it in her room, and moves.
        let said = slash_in(&standin, &muster, &dan, &thread, "accept", json!([])).await;
        assert!(said.contains("The game begins"), "{said}");
        seen_in(&t, &muster, &room, |s| {
            s.in_reply_to.is_none() && s.body.contains("The game begins")
        })
        .await;
        let mark = standin.messages().len();
        let first_move = record(LANRICK)[0];
        let ev = t
            .alice
            .send_text(&room, &format!("!move {first_move}"))
            .await;
        seen_in(&t, &muster, &room, |s| {
            s.in_reply_to.as_deref() == Some(ev.as_str()) && s.body.contains("Dan, your turn")
        })
        .await;
        standin
            .wait_message(
                "alice's move told in the thread",
                |m| {
                    m.channel_id == thread
                        && m.content.contains("your turn")
                        && m.content.contains(&format!("<@{}>", dan.id))
                },
                WAIT,
            )
            .await;
        assert!(standin.messages().len() > mark);
        // dan resigns in the thread; alice's room is told.
        let said = slash_in(&standin, &muster, &dan, &thread, "resign", json!([])).await;
        assert!(said.contains("resigns"), "{said}");
        seen_in(&t, &muster, &room, |s| {
            s.in_reply_to.is_none() && s.body.contains("Dan (Black) resigns")
        })
        .await;
        muster.terminate();
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// `/tournament <sub>` with `options` by `who` in the suites' channel; the answer's words.
async fn tournament(
    standin: &StandIn,
    muster: &Bot,
    who: &Person,
    sub: &str,
    options: serde_json::Value,
) -> String {
    slash_in(
        standin,
        muster,
        who,
        CHANNEL,
        "tournament",
        json!([{"name": sub, "type": 1, "options": options}]),
    )
    .await
}

/// Waits until the Discord channel and the Matrix room `room` were both told `what`; the
/// Discord message.
async fn told_both(
    (standin, t, muster): (&StandIn, &Table, &Bot),
    room: &str,
    what: &str,
) -> StoredMessage {
    let on_discord = standin
        .wait_message(
            &format!("{what:?} on Discord"),
            |m| m.channel_id == CHANNEL && m.content.contains(what),
            WAIT,
        )
        .await;
    seen_in(t, muster, room, |s| s.body.contains(what)).await;
    on_discord
}

/// The bot's messages in the Discord channel that say `what`.
fn said_on_discord(standin: &StandIn, what: &str) -> Vec<String> {
    on_discord(standin)
        .into_iter()
        .map(|m| m.content)
        .filter(|c| c.contains(what))
        .collect()
}

#[test]
fn a_swiss_event_takes_entrants_from_discord_and_matrix_and_is_posted_on_both() {
    runtime().block_on(async {
        let t = table().await;
        let standin = StandIn::start(bot::APP).await;
        let proxy = Proxy::start(&t.synapse.url()).await;
        let dir = club("swiss");
        let muster = start(&standin, &t, &proxy, &dir).await;
        let lobby = open_room(&t, "Club", false).await;
        invite_bot(&t, &lobby).await;

        let org = Person::new("org");
        let opened = tournament(
            &standin,
            &muster,
            &org,
            "new",
            json!([{"name": "name", "type": 3, "value": "open"},
                   {"name": "game", "type": 4, "value": 0},
                   {"name": "system", "type": 4, "value": 0},
                   {"name": "rounds", "type": 4, "value": 2}]),
        )
        .await;
        assert!(opened.contains("opened the event **open**"), "{opened}");
        let (dan, erin) = (Person::new("dan"), Person::new("erin"));
        for p in [&dan, &erin] {
            let joined = tournament(&standin, &muster, p, "join", json!([])).await;
            assert!(joined.contains("entered in open"), "{joined}");
        }
        // alice and bob enter from a Matrix room of the community.
        for player in [&t.alice, &t.bob] {
            let ev = player.send_text(&lobby, "!tournament join open").await;
            let joined = seen_in(&t, &muster, &lobby, |s| {
                s.in_reply_to.as_deref() == Some(ev.as_str())
            })
            .await;
            assert!(joined.body.contains("entered in open"), "{joined:?}");
        }
        let started = tournament(&standin, &muster, &org, "start", json!([])).await;
        assert!(started.contains("starts open"), "{started}");

        let matrix_players = [("alice", &t.alice), ("bob", &t.bob)];
        let (mut from_matrix, mut from_discord) = (0, 0);
        for round in 1..=2 {
            let heading = format!("open · round {round} of 2:");
            let announced = told_both((&standin, &t, &muster), &lobby, &heading).await;
            // Board by board, Black resigns from wherever he plays.
            for board in 1..=2 {
                let line = announced
                    .content
                    .lines()
                    .find(|l| l.starts_with(&format!("Board {board}: ")))
                    .unwrap_or_else(|| panic!("board {board}: {}", announced.content))
                    .to_string();
                let black = line
                    .split(" v ")
                    .nth(1)
                    .and_then(|b| b.split(" (Black)").next())
                    .expect("Black's name")
                    .to_string();
                let tag = format!("open · round {round} · board {board}");
                match matrix_players.iter().find(|(n, _)| *n == black) {
                    Some((_, player)) => {
                        // His place on Matrix: a room he is invited to, that names the board.
                        let deadline = tokio::time::Instant::now() + WAIT;
                        let room = loop {
                            for invited in player.invitations() {
                                player.join(&invited).await;
                            }
                            let found = player
                                .all_messages()
                                .into_iter()
                                .find(|s| s.room != lobby && s.body.contains(&tag))
                                .map(|s| s.room);
                            if let Some(room) = found {
                                break room;
                            }
                            assert!(
                                tokio::time::Instant::now() < deadline,
                                "no room for {tag} on Matrix:\n{}",
                                muster.log()
                            );
                            tokio::time::sleep(Duration::from_millis(200)).await;
                        };
                        from_matrix += 1;
                        let ev = player.send_text(&room, "!resign").await;
                        player
                            .wait_for(&room, 60, |s| {
                                s.in_reply_to.as_deref() == Some(ev.as_str())
                                    && s.body.contains("resigns")
                            })
                            .await;
                    }
                    None => {
                        let who = [&dan, &erin]
                            .into_iter()
                            .find(|p| black.eq_ignore_ascii_case(&p.name))
                            .unwrap_or_else(|| panic!("who is {black}? {line}"));
                        let name = format!("open-{round}-{board}");
                        let deadline = tokio::time::Instant::now() + WAIT;
                        let thread = loop {
                            if let Some(t) = standin
                                .threads()
                                .into_iter()
                                .find(|t| t["name"] == name.as_str())
                            {
                                break t["id"].as_str().expect("an id").to_string();
                            }
                            assert!(tokio::time::Instant::now() < deadline, "no thread {name}");
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        };
                        from_discord += 1;
                        let said =
                            slash_in(&standin, &muster, who, &thread, "resign", json!([])).await;
                        assert!(said.contains("resigns"), "{said}");
                    }
                }
                told_both((&standin, &t, &muster), &lobby, &format!("{tag}: ")).await;
            }
        }
        assert!(
            from_matrix > 0 && from_discord > 0,
            "games ended from both platforms"
        );
        // The final standings, on both; every announcement once on each.
        let last = "Standings of open after round 2 of 2";
        told_both((&standin, &t, &muster), &lobby, last).await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        for what in ["open · round 1 of 2:", "open · round 2 of 2:", last] {
            assert_eq!(said_on_discord(&standin, what).len(), 1, "{what}");
            assert_eq!(on_matrix(&t, &lobby, what).len(), 1, "{what}");
        }
        muster.terminate();
        let _ = std::fs::remove_dir_all(&dir);
    });
}

#[test]
fn an_event_opened_on_matrix_plays_its_discord_entrant_in_a_thread_under_its_discord_channel() {
    runtime().block_on(async {
        let t = table().await;
        let standin = StandIn::start(bot::APP).await;
        let proxy = Proxy::start(&t.synapse.url()).await;
        let dir = club("from-matrix");
        let muster = start(&standin, &t, &proxy, &dir).await;
        let lobby = open_room(&t, "Club", false).await;
        invite_bot(&t, &lobby).await;
        let say = |player: &'static str, text: &'static str| {
            let (t, lobby, muster) = (&t, &lobby, &muster);
            async move {
                let who = if player == "alice" { &t.alice } else { &t.bob };
                let ev = who.send_text(lobby, text).await;
                seen_in(t, muster, lobby, |s| {
                    s.in_reply_to.as_deref() == Some(ev.as_str())
                })
                .await
                .body
            }
        };
        let opened = say("alice", "!tournament new cup lanrick roundrobin").await;
        assert!(opened.contains("opened the event **cup**"), "{opened}");
        let joined = say("bob", "!tournament join cup").await;
        assert!(joined.contains("entered in cup"), "{joined}");
        // dan enters from Discord: the channel he says it in becomes the event's there.
        let dan = Person::new("dan");
        let joined = tournament(
            &standin,
            &muster,
            &dan,
            "join",
            json!([{"name": "name", "type": 3, "value": "cup"}]),
        )
        .await;
        assert!(joined.contains("entered in cup"), "{joined}");
        let started = say("alice", "!tournament start cup").await;
        assert!(started.contains("starts cup"), "{started}");

        // The pairing, on both; dan's game is a thread under the Discord channel.
        told_both((&standin, &t, &muster), &lobby, "cup · round 1 of 1").await;
        let first = standin
            .wait_message(
                "dan's game in its thread",
                |m| m.content.contains("cup · round 1 · board 1") && m.channel_id != CHANNEL,
                WAIT,
            )
            .await;
        let threads = standin.threads();
        assert_eq!(threads.len(), 1, "{threads:?}");
        assert_eq!(threads[0]["parent_id"], CHANNEL);
        assert_eq!(first.channel_id, threads[0]["id"].as_str().expect("an id"));
        // dan resigns there; the result reaches both channels.
        let said = slash_in(
            &standin,
            &muster,
            &dan,
            &first.channel_id,
            "resign",
            json!([]),
        )
        .await;
        assert!(said.contains("Dan") && said.contains("resigns"), "{said}");
        told_both((&standin, &t, &muster), &lobby, "cup · round 1 · board 1: ").await;
        muster.terminate();
        let _ = std::fs::remove_dir_all(&dir);
    });
}
