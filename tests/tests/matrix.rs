//! Muster on Matrix, end to end: the real `muster serve` binary against a real Synapse
//! started on 127.0.0.1 (`muster_tests::synapse`), with the players as real Matrix clients
//! (`muster_tests::matrix::Player`, matrix-sdk). Everything is checked as the players see it.

use std::time::{Duration, Instant};

use muster_tests::matrix::{Player, Seen};
use muster_tests::matrix_bot::{Bot, Table, WAIT, table};
use muster_tests::proxy::{Proxy, Trap};
use muster_tests::synapse::{Account, Synapse};
use muster_tests::{data_dir, muster_binary};
const LANRICK: &str = include_str!("../../docs/examples/lanrick-whole-game.txt");
const CROQUET: &str = include_str!("../../docs/examples/croquet-game.txt");

fn record(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The squares a move names (`xd2` → `d2`).
fn squares(mv: &str) -> Vec<String> {
    let b = mv.as_bytes();
    (0..b.len().saturating_sub(1))
        .filter(|&i| (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1]))
        .map(|i| mv[i..i + 2].to_string())
        .collect()
}

/// Starts `muster serve` as `bot` on `synapse`, accepting invitations from alice, and waits
/// until it listens.
async fn start(
    synapse: &Synapse,
    bot: &Account,
    dir: &std::path::Path,
    extra: &[(&str, &str)],
) -> Bot {
    let mut bot = spawn(synapse, bot, dir, extra);
    bot.listening().await;
    bot
}

/// Starts `muster serve` as `bot` on `synapse` (`extra` settings last, so that they may
/// override the others), without waiting.
fn spawn(synapse: &Synapse, bot: &Account, dir: &std::path::Path, extra: &[(&str, &str)]) -> Bot {
    muster_tests::matrix_bot::spawn_on(&muster_binary!(), synapse, bot, dir, extra, None)
}

/// Starts `muster serve` as [`start`] does, on a manual clock showing `start` (RFC 3339),
/// moved by [`Bot::advance`].
async fn start_manual(
    synapse: &Synapse,
    bot: &Account,
    dir: &std::path::Path,
    extra: &[(&str, &str)],
    start: &str,
) -> Bot {
    let mut bot = muster_tests::matrix_bot::spawn_on(
        &muster_binary!(),
        synapse,
        bot,
        dir,
        extra,
        Some(start),
    );
    bot.listening().await;
    bot
}

/// The bot's first answer to the event `to` in `room`, as `player` sees it.
async fn answer(player: &Player, room: &str, bot: &str, to: &str) -> Seen {
    player
        .wait_for(room, WAIT, |s| {
            s.sender == bot && s.in_reply_to.as_deref() == Some(to)
        })
        .await
}

/// The bot's board in reply to the move `ev`, as `player` sees it after `mark`.
async fn board_reply(
    player: &Player,
    mark: usize,
    room: &str,
    bot: &str,
    ev: &str,
    secs: u64,
) -> Seen {
    player
        .wait_for_after(mark, room, secs, |s| {
            s.sender == bot && s.in_reply_to.as_deref() == Some(ev) && s.msgtype == "m.image"
        })
        .await
}

/// The other player of alice and bob.
fn opponent<'a>(t: &'a Table, player: &Player) -> &'a Player {
    if std::ptr::eq(player, &t.alice) {
        &t.bob
    } else {
        &t.alice
    }
}

/// Every answer of the bot to the event `to` seen so far.
fn answers(player: &Player, room: &str, bot: &str, to: &str) -> Vec<Seen> {
    player
        .messages(room)
        .into_iter()
        .filter(|s| s.sender == bot && s.in_reply_to.as_deref() == Some(to))
        .collect()
}

/// A board as Matrix clients show it: an `m.image` PNG with its size and dimensions.
fn assert_board(seen: &Seen) {
    assert_eq!(seen.msgtype, "m.image", "{seen:?}");
    let image = seen.image.as_ref().expect("image info");
    assert_eq!(image.mimetype.as_deref(), Some("image/png"), "{seen:?}");
    assert!(image.size.unwrap_or(0) > 1000, "{seen:?}");
    assert!(
        (600..=1000).contains(&image.width.unwrap_or(0)) && image.height.unwrap_or(0) >= 400,
        "{seen:?}"
    );
    assert!(
        seen.filename
            .as_deref()
            .is_some_and(|f| f.ends_with(".png")),
        "{seen:?}"
    );
}

/// The player a board's caption asks to move (the one it mentions).
fn to_move<'a>(board: &Seen, players: &[&'a Player]) -> &'a Player {
    players
        .iter()
        .copied()
        .find(|p| board.mentions.contains(&p.user_id()))
        .unwrap_or_else(|| panic!("the board mentions nobody to move: {board:?}"))
}

/// Alice opens a room with bob (encrypted or not) and invites the bot, which joins.
async fn open_room(t: &Table, name: &str, encrypted: bool) -> String {
    let bob = t.bob.user_id();
    let room = t.alice.create_room(name, &[&bob], encrypted).await;
    t.bob.join(&room).await;
    t.alice.wait_until_joined(&room, &bob, WAIT).await;
    room
}

async fn invite_bot(t: &Table, room: &str) {
    t.alice.invite(room, &t.bot.user_id).await;
    t.alice.wait_until_joined(room, &t.bot.user_id, WAIT).await;
}

/// Alice challenges bob to `game`; bob accepts; returns the first board.
async fn challenge(t: &Table, room: &str, game: &str) -> Seen {
    let bob = t.bob.user_id();
    // Bob named by his Matrix id with a mention, or (Croquet) by his bare name.
    let ev = if game == "croquet" {
        t.alice.send_text(room, &format!("!new {game} bob")).await
    } else {
        t.alice
            .send_with_mentions(room, &format!("!new {game} {bob}"), &[&bob])
            .await
    };
    let said = answer(&t.bob, room, &t.bot.user_id, &ev).await;
    assert!(said.body.contains("challenges you"), "{said:?}");
    assert!(said.mentions.contains(&bob), "bob is notified: {said:?}");
    let ev = t.bob.send_text(room, "!accept").await;
    let board = t
        .alice
        .wait_for(room, WAIT, |s| {
            s.in_reply_to.as_deref() == Some(ev.as_str()) && s.msgtype == "m.image"
        })
        .await;
    assert_board(&board);
    board
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_lanrick_game_by_room_messages_survives_restarts() {
    let t = table().await;
    let dir = data_dir("matrix", "lanrick");
    let bot_id = t.bot.user_id.clone();
    let room = open_room(&t, "Lanrick", false).await;
    // History from before the bot was there is never answered.
    let old = t.alice.send_text(&room, "!help").await;
    let mut bot = start(&t.synapse, &t.bot, &dir, &[]).await;
    invite_bot(&t, &room).await;
    let mut board = challenge(&t, &room, "lanrick").await;
    // The board can be downloaded and is the PNG its info describes.
    let png = t.bob.download(&board.image.as_ref().unwrap().url).await;
    assert!(png.starts_with(b"\x89PNG"));
    assert_eq!(
        png.len() as u64,
        board.image.as_ref().unwrap().size.unwrap()
    );
    let players = [&t.alice, &t.bob];
    let moves = record(LANRICK);
    let mut events = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let mover = to_move(&board, &players);
        let other = opponent(&t, mover);
        if i == 3 {
            // The wrong player is answered with a reply that mentions him; nothing changes.
            let ev = other.send_text(&room, &format!("!move {mv}")).await;
            let said = answer(other, &room, &bot_id, &ev).await;
            assert_eq!(said.msgtype, "m.text");
            assert!(said.mentions.contains(&other.user_id()), "{said:?}");
            let ev = mover.send_text(&room, "!move z9").await;
            let said = answer(mover, &room, &bot_id, &ev).await;
            assert!(
                said.body.contains("z9") && said.mentions.contains(&mover.user_id()),
                "{said:?}"
            );
        }
        if i + 1 == moves.len() {
            // Before the last move, the record holds every move so far exactly once.
            let ev = t.bob.send_text(&room, "!export").await;
            let export = answer(&t.bob, &room, &bot_id, &ev).await;
            assert_eq!(export.msgtype, "m.file", "{export:?}");
            let url = export.content["url"].as_str().unwrap_or_default();
            let file = String::from_utf8(t.bob.download(url).await).unwrap();
            assert_eq!(record(&file), moves[..i].to_vec(), "{file}");
        }
        // Half the moves are written on their own, half as commands.
        let text = if i % 2 == 0 {
            format!("!move {mv}")
        } else {
            mv.to_string()
        };
        let mark = other.mark();
        let ev = if i == moves.len() / 2 {
            // The bot is stopped; the move is sent while it is away; it answers on its return.
            bot.stop();
            let ev = mover.send_text(&room, &text).await;
            bot = start(&t.synapse, &t.bot, &dir, &[]).await;
            ev
        } else if i == moves.len() / 2 + 6 {
            // The bot is killed just after a move arrives; the move counts once.
            let ev = mover.send_text(&room, &text).await;
            tokio::time::sleep(Duration::from_millis(5)).await;
            drop(bot);
            bot = start(&t.synapse, &t.bot, &dir, &[]).await;
            ev
        } else {
            mover.send_text(&room, &text).await
        };
        // The opponent sees the board, in reply to the move, naming the move.
        board = board_reply(other, mark, &room, &bot_id, &ev, WAIT).await;
        assert_board(&board);
        assert!(
            squares(mv)
                .iter()
                .all(|sq| board.body.contains(sq.as_str())),
            "the caption names the move {mv}: {board:?}"
        );
        events.push(ev);
        if i + 1 == moves.len() {
            assert!(
                board.mentions.is_empty() || board.body.to_lowercase().contains("win"),
                "{board:?}"
            );
        }
    }
    // Each move was answered once, the old `!help` never. (The last move is followed by the
    // game's replay too, a GIF, whenever it has been drawn: matrix_operations.rs checks it.)
    for ev in &events {
        let boards: Vec<Seen> = answers(&t.alice, &room, &bot_id, ev)
            .into_iter()
            .filter(|s| {
                s.msgtype == "m.image"
                    && s.image.as_ref().and_then(|i| i.mimetype.as_deref()) == Some("image/png")
            })
            .collect();
        assert_eq!(boards.len(), 1, "each move has one board: {boards:?}");
    }
    assert!(answers(&t.alice, &room, &bot_id, &old).is_empty());
    bot.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn croquet_in_an_encrypted_room_while_synapse_restarts() {
    let mut t = table().await;
    let dir = data_dir("matrix", "croquet");
    let bot_id = t.bot.user_id.clone();
    let bot = start(&t.synapse, &t.bot, &dir, &[]).await;
    let room = open_room(&t, "Croquet", true).await;
    invite_bot(&t, &room).await;
    let mut board = challenge(&t, &room, "croquet").await;
    let players = [&t.alice, &t.bob];
    let moves = record(CROQUET);
    for (i, mv) in moves.iter().enumerate() {
        if i == moves.len() / 2 {
            // Synapse goes away and comes back; the bot carries on.
            t.synapse.restart();
        }
        let mover = to_move(&board, &players);
        let other = opponent(&t, mover);
        let mark = other.mark();
        let ev = mover.send_text(&room, mv).await;
        board = board_reply(other, mark, &room, &bot_id, &ev, 60).await;
        assert_board(&board);
    }
    assert!(board.body.to_lowercase().contains("win"), "{board:?}");
    // A command in a thread is answered in that thread.
    let root = t.alice.send_text(&room, "Good game!").await;
    let ev = t.alice.send_text_in_thread(&room, &root, "!history").await;
    let said = answer(&t.alice, &room, &bot_id, &ev).await;
    assert_eq!(said.thread_root.as_deref(), Some(root.as_str()), "{said:?}");
    drop(t.carol);
    bot.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invitations_and_rate_limits() {
    let t = table().await;
    let dir = data_dir("matrix", "invitations");
    let bot_id = t.bot.user_id.clone();
    // This room has its own prefix, `?`.
    let room = open_room(&t, "Limits", false).await;
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("muster.toml"),
        format!("[matrix.rooms.\"{room}\"]\nprefix = \"?\"\n"),
    )
    .unwrap();
    let bot = start(
        &t.synapse,
        &t.bot,
        &dir,
        &[
            ("MUSTER_MATRIX_RATE_BURST", "3"),
            ("MUSTER_MATRIX_RATE_PER_MINUTE", "6"),
        ],
    )
    .await;
    // A stranger's invitation is declined.
    let theirs = t.carol.create_room("Carol's", &[&bot_id], false).await;
    let deadline = Instant::now() + Duration::from_secs(WAIT);
    loop {
        let room = t
            .carol
            .client()
            .get_room(&matrix_sdk::ruma::OwnedRoomId::try_from(theirs.as_str()).unwrap())
            .unwrap();
        let member = room
            .get_member(&matrix_sdk::ruma::OwnedUserId::try_from(bot_id.as_str()).unwrap())
            .await
            .unwrap();
        if member.is_some_and(|m| {
            m.membership() == &matrix_sdk::ruma::events::room::member::MembershipState::Leave
        }) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the bot did not decline carol's invitation"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        bot.log().contains("declined an invitation"),
        "{}",
        bot.log()
    );
    // Alice's is accepted.
    invite_bot(&t, &room).await;
    let ignored = t.alice.send_text(&room, "!board").await;
    // Three commands at once are answered, the fourth is refused with a reason, the fifth
    // silently.
    let mut events = Vec::new();
    for _ in 0..5 {
        events.push(t.alice.send_text(&room, "?rules croquet").await);
    }
    for ev in &events[..3] {
        let said = answer(&t.alice, &room, &bot_id, ev).await;
        assert!(said.body.contains("Croquet"), "{said:?}");
    }
    let said = answer(&t.alice, &room, &bot_id, &events[3]).await;
    assert!(
        said.body.contains("Slow down") && said.mentions.contains(&t.alice.user_id()),
        "{said:?}"
    );
    // Bob has his own budget; his command also shows alice's fifth was not answered.
    let ev = t.bob.send_text(&room, "?help").await;
    let help = answer(&t.bob, &room, &bot_id, &ev).await;
    // The help speaks the room's prefix.
    assert!(help.body.contains("?move"), "{help:?}");
    assert!(answers(&t.alice, &room, &bot_id, &events[4]).is_empty());
    // The usual prefix means nothing in this room.
    assert!(answers(&t.alice, &room, &bot_id, &ignored).is_empty());
    bot.stop();
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Not a check but a measurement: how long a board takes to reach the opponent, against a
/// plain message between the two players on the same Synapse; and the bot's memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn latency_and_memory() {
    let t = table().await;
    let dir = data_dir("matrix", "latency");
    let bot_id = t.bot.user_id.clone();
    let bot = start(&t.synapse, &t.bot, &dir, &[]).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle = bot.rss_kib();
    let room = open_room(&t, "Latency", false).await;
    invite_bot(&t, &room).await;
    let mut board = challenge(&t, &room, "lanrick").await;
    let players = [&t.alice, &t.bob];
    let (mut text, mut boards) = (Vec::new(), Vec::new());
    for (i, mv) in record(LANRICK).iter().take(60).enumerate() {
        let mover = to_move(&board, &players);
        let other = opponent(&t, mover);
        let mark = other.mark();
        let sent = Instant::now();
        let ev = mover.send_text(&room, &format!("chat {i}")).await;
        let seen = other
            .wait_for_after(mark, &room, WAIT, |s| s.event_id == ev)
            .await;
        text.push(seen.seen_at.duration_since(sent).as_secs_f64() * 1000.0);
        tokio::time::sleep(Duration::from_millis(50)).await;
        let mark = other.mark();
        let sent = Instant::now();
        let ev = mover.send_text(&room, mv).await;
        board = board_reply(other, mark, &room, &bot_id, &ev, WAIT).await;
        boards.push(board.seen_at.duration_since(sent).as_secs_f64() * 1000.0);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A few more games live, in rooms of their own.
    for n in 0..3 {
        let room = open_room(&t, &format!("Game {n}"), false).await;
        invite_bot(&t, &room).await;
        challenge(&t, &room, if n == 1 { "croquet" } else { "lanrick" }).await;
    }
    let busy = bot.rss_kib();
    let (text, boards) = (median(text[10..].to_vec()), median(boards[10..].to_vec()));
    eprintln!(
        "matrix latency (median of 50): plain message {text:.1} ms, move → board seen by the opponent {boards:.1} ms, ratio {:.2}",
        boards / text
    );
    eprintln!(
        "matrix memory: idle {} MiB, with four games live {} MiB",
        idle / 1024,
        busy / 1024
    );
    let log = bot.log();
    let timings: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("answered in"))
        .map(|l| l.split("answered in").nth(1).unwrap_or(""))
        .collect();
    eprintln!(
        "bot's own handling (last 5): {:?}",
        &timings[timings.len().saturating_sub(5)..]
    );
    bot.stop();
}

/// The bot is killed at the worst moments of sending a board — as the board's message leaves
/// it, after the homeserver stored it but before the bot heard so, and half-way through the
/// board's upload — each time with another command waiting in the same batch, and started
/// again at once (within the homeserver's sync cache). Each move's board is posted exactly
/// once, as the move's own board (its caption and mention), with an image that loads; the
/// other command is answered once; media addresses reserved ahead are not leaked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_survive_a_crash_at_every_moment_of_sending() {
    let t = table().await;
    let dir = data_dir("matrix", "crashes");
    let bot_id = t.bot.user_id.clone();
    let proxy = Proxy::start(&t.synapse.url()).await;
    let via = proxy.url();
    let through = [("MUSTER_MATRIX_HOMESERVER", via.as_str())];
    let mut bot = start(&t.synapse, &t.bot, &dir, &through).await;
    let room = open_room(&t, "Crashes", false).await;
    invite_bot(&t, &room).await;
    let mut board = challenge(&t, &room, "lanrick").await;
    let players = [&t.alice, &t.bob];
    let moves = record(LANRICK);
    let mut checked = Vec::new();
    for (i, trap) in [Trap::BeforeBoard, Trap::AfterBoard, Trap::MidUpload]
        .into_iter()
        .enumerate()
    {
        let mv = moves[i];
        let mover = to_move(&board, &players);
        let other = opponent(&t, mover);
        // The move and another command wait for the bot together, so one sync brings both.
        bot.stop();
        let mark = other.mark();
        let ev = mover.send_text(&room, &format!("!move {mv}")).await;
        let asked = other.send_text(&room, "!history").await;
        let mut trapped = spawn(&t.synapse, &t.bot, &dir, &through);
        proxy.arm(trap, trapped.child.id());
        proxy.fired(WAIT).await;
        trapped.ended().await;
        drop(trapped);
        bot = start(&t.synapse, &t.bot, &dir, &through).await;
        // The move's board: in reply to the move, naming it, pinging the player to move.
        board = board_reply(other, mark, &room, &bot_id, &ev, WAIT).await;
        assert_board(&board);
        assert!(
            squares(mv)
                .iter()
                .all(|sq| board.body.contains(sq.as_str())),
            "{trap:?}: the caption names the move {mv}: {board:?}"
        );
        assert!(
            board.mentions.contains(&other.user_id()),
            "{trap:?}: the player to move is pinged: {board:?}"
        );
        let png = other.download(&board.image.as_ref().unwrap().url).await;
        assert!(png.starts_with(b"\x89PNG"), "{trap:?}: the image loads");
        // The other command of the batch is answered too.
        let said = answer(other, &room, &bot_id, &asked).await;
        assert!(said.body.contains(mv), "{trap:?}: {said:?}");
        checked.push((trap, ev, asked));
    }
    // One more move after it all, so that anything sent late would be seen by now.
    let mover = to_move(&board, &players);
    let other = opponent(&t, mover);
    let mark = other.mark();
    let ev = mover.send_text(&room, moves[3]).await;
    board_reply(other, mark, &room, &bot_id, &ev, WAIT).await;
    for (trap, ev, asked) in &checked {
        let boards: Vec<Seen> = answers(&t.alice, &room, &bot_id, ev);
        assert_eq!(boards.len(), 1, "{trap:?}: one board per move: {boards:?}");
        let said = answers(&t.alice, &room, &bot_id, asked);
        assert_eq!(said.len(), 1, "{trap:?}: one answer per command: {said:?}");
    }
    // Every image the bot posted loads.
    for seen in t.alice.messages(&room) {
        if seen.sender == bot_id && seen.msgtype == "m.image" {
            let png = t.alice.download(&seen.image.as_ref().unwrap().url).await;
            assert!(png.starts_with(b"\x89PNG"), "a broken image: {seen:?}");
        }
    }
    // Media addresses reserved ahead are kept across restarts and used: the bot reserves no
    // more than the boards it posted and a small reserve, however often it restarts.
    let seen = proxy.seen();
    let reserved = seen
        .iter()
        .filter(|r| r.path.contains("/media/v1/create"))
        .count();
    let images = t
        .alice
        .messages(&room)
        .into_iter()
        .filter(|s| s.sender == bot_id && s.msgtype == "m.image")
        .count();
    assert!(
        reserved > 0 && reserved <= images + 3,
        "{reserved} reservations for {images} boards"
    );
    assert!(
        seen.iter().all(|r| r.status != 429),
        "the homeserver refused: {seen:?}"
    );
    bot.stop();
}

/// When the games on a manual clock begin.
const CLOCK_START: &str = "2026-11-25T10:00:00Z";

/// Alice challenges bob to a Lanrick game with `clock` in `room`; bob accepts; returns the first
/// board (alice, White, to move).
async fn timed_challenge(t: &Table, room: &str, clock: &str) -> Seen {
    let bob = t.bob.user_id();
    let ev = t
        .alice
        .send_with_mentions(room, &format!("!new lanrick {bob} clock {clock}"), &[&bob])
        .await;
    let said = answer(&t.bob, room, &t.bot.user_id, &ev).await;
    assert!(said.body.contains("challenges you"), "{said:?}");
    let ev = t.bob.send_text(room, "!accept").await;
    let board = t
        .alice
        .wait_for(room, WAIT, |s| {
            s.in_reply_to.as_deref() == Some(ev.as_str()) && s.msgtype == "m.image"
        })
        .await;
    assert_board(&board);
    assert!(
        board.mentions.contains(&t.alice.user_id()),
        "alice moves first: {board:?}"
    );
    board
}

/// The bot's messages in `room` that answer nothing (notices), as `player` saw them after
/// `mark`.
fn notices_after(player: &Player, mark: usize, room: &str, bot: &str) -> Vec<Seen> {
    player.all_messages()[mark..]
        .iter()
        .filter(|s| s.room == room && s.sender == bot && s.in_reply_to.is_none())
        .cloned()
        .collect()
}

/// A correspondence game on the bot's manual clock: alice is reminded in the room a day before
/// her deadline (a mention that notifies her), and when her time runs out without a move the
/// game is bob's by forfeit, announced with the final board; the record is dated by the clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_and_a_forfeit_on_a_manual_clock() {
    let t = table().await;
    let dir = data_dir("matrix", "clock");
    let bot_id = t.bot.user_id.clone();
    let (alice, bob) = (t.alice.user_id(), t.bob.user_id());
    let mut bot = start_manual(&t.synapse, &t.bot, &dir, &[], CLOCK_START).await;
    let room = open_room(&t, "Correspondence", false).await;
    invite_bot(&t, &room).await;
    let board = timed_challenge(&t, &room, "3d").await;
    assert!(
        board.body.contains("Clocks:") && board.body.contains("2026-11-28 10:00:00 UTC"),
        "the caption shows the clocks and the deadline: {board:?}"
    );

    // Two days on: alice, to move, is reminded in the room that a day is left.
    let mark = t.alice.mark();
    bot.advance("+2d").await;
    let reminder = t
        .alice
        .wait_for_after(mark, &room, WAIT, |s| {
            s.sender == bot_id && s.mentions.contains(&alice)
        })
        .await;
    assert_eq!(reminder.msgtype, "m.text", "{reminder:?}");
    assert_eq!(
        reminder.in_reply_to, None,
        "a notice answers nothing: {reminder:?}"
    );
    assert_eq!(reminder.mentions, vec![alice.clone()], "{reminder:?}");
    assert!(
        reminder.body.contains("1d left for your move") && reminder.body.contains("2026-11-28"),
        "{reminder:?}"
    );
    let html = reminder.formatted_body.as_deref().unwrap_or_default();
    assert!(
        html.contains(&format!("https://matrix.to/#/{alice}")),
        "alice's name is a pill: {reminder:?}"
    );

    // One day more: her time has run out; bob wins by forfeit, and everyone sees the board.
    t.bob
        .wait_for(&room, WAIT, |s| s.event_id == reminder.event_id)
        .await;
    let mark = t.bob.mark();
    bot.advance("+1d").await;
    let ended = t
        .bob
        .wait_for_after(mark, &room, WAIT, |s| {
            s.sender == bot_id && s.body.contains("time ran out")
        })
        .await;
    assert_board(&ended);
    assert_eq!(ended.in_reply_to, None, "{ended:?}");
    assert!(
        ended.body.contains("alice") && ended.body.contains("bob (Black) wins by forfeit"),
        "{ended:?}"
    );
    let png = t.bob.download(&ended.image.as_ref().unwrap().url).await;
    assert!(png.starts_with(b"\x89PNG"));
    // On the way, the last hour's reminder came before the end; each notice came once.
    let notices = notices_after(&t.bob, mark, &room, &bot_id);
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert!(
        notices[0].body.contains("1h left") && notices[0].mentions == vec![alice.clone()],
        "{notices:?}"
    );

    // The record says how and when the game ended, by the bot's clock.
    let ev = t.bob.send_text(&room, "!export").await;
    let export = answer(&t.bob, &room, &bot_id, &ev).await;
    assert_eq!(export.msgtype, "m.file", "{export:?}");
    let url = export.content["url"].as_str().unwrap_or_default();
    let file = String::from_utf8(t.bob.download(url).await).unwrap();
    assert!(file.contains("# Termination: forfeit\n"), "{file}");
    assert!(file.contains("# Ended: 2026-11-28T10:00:00Z\n"), "{file}");
    assert!(
        file.contains("# White: alice\n# Black: bob\n"),
        "{file} ({bob})"
    );
    bot.stop();
}

/// With `!notify dm`, alice's reminders come in a direct room: the bot invites her to a private
/// room marked as direct, encrypted, and the reminder (naming the game's room) is there when
/// she joins; the next reminder comes to the same room. The timeout itself is announced in the
/// game's room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_by_direct_message() {
    let t = table().await;
    let dir = data_dir("matrix", "direct");
    let bot_id = t.bot.user_id.clone();
    let alice = t.alice.user_id();
    let mut bot = start_manual(&t.synapse, &t.bot, &dir, &[], CLOCK_START).await;
    let room = open_room(&t, "By post", false).await;
    invite_bot(&t, &room).await;
    let ev = t.alice.send_text(&room, "!notify dm").await;
    let said = answer(&t.alice, &room, &bot_id, &ev).await;
    assert!(said.body.contains("direct message"), "{said:?}");
    timed_challenge(&t, &room, "3d").await;
    assert!(t.alice.invitations().is_empty());

    let mark = t.alice.mark();
    bot.advance("+2d").await;
    let direct = t.alice.wait_for_invitation(WAIT).await;
    assert_ne!(direct, room);
    {
        // The invitation is to a direct chat with the bot.
        let invited = t
            .alice
            .client()
            .get_room(&matrix_sdk::ruma::OwnedRoomId::try_from(direct.as_str()).unwrap())
            .unwrap();
        // The invitation's member event and the inviter's profile may reach the client a
        // moment after the invitation itself.
        let deadline = Instant::now() + Duration::from_secs(WAIT);
        let details = loop {
            match invited.invite_details().await {
                Ok(details) if details.inviter.is_some() || Instant::now() > deadline => {
                    break details;
                }
                Err(e) if Instant::now() > deadline => panic!("the invitation's details: {e:?}"),
                _ => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        };
        let inviter = details.inviter.expect("the inviter");
        assert_eq!(inviter.user_id().as_str(), bot_id);
        let me = details.invitee;
        let is_direct = match me.event().as_ref() {
            matrix_sdk::deserialized_responses::MemberEvent::Stripped(e) => e.content.is_direct,
            matrix_sdk::deserialized_responses::MemberEvent::Sync(e) => {
                e.as_original().and_then(|o| o.content.is_direct)
            }
        };
        assert_eq!(is_direct, Some(true), "the invitation is marked direct");
    }
    t.alice.join(&direct).await;
    let reminder = t
        .alice
        .wait_for_after(mark, &direct, WAIT, |s| s.sender == bot_id)
        .await;
    assert_eq!(
        reminder.msgtype, "m.text",
        "readable by alice: {reminder:?}"
    );
    assert!(
        reminder.body.starts_with("Reminder: 1d left for your move")
            && reminder.body.contains(&room),
        "{reminder:?}"
    );
    assert!(
        notices_after(&t.alice, mark, &room, &bot_id).is_empty(),
        "nothing about it in the game's room"
    );
    let mut members = t.alice.joined_members(&direct).await;
    members.sort();
    let mut expected = vec![alice.clone(), bot_id.clone()];
    expected.sort();
    assert_eq!(members, expected, "a room of her own with the bot");
    let encrypted = t
        .alice
        .client()
        .get_room(&matrix_sdk::ruma::OwnedRoomId::try_from(direct.as_str()).unwrap())
        .unwrap()
        .latest_encryption_state()
        .await
        .unwrap()
        .is_encrypted();
    assert!(encrypted, "the direct room is encrypted");

    // The last hour's reminder: the same room, no new invitation.
    let mark = t.alice.mark();
    bot.advance("+23h").await;
    let reminder = t
        .alice
        .wait_for_after(mark, &direct, WAIT, |s| s.sender == bot_id)
        .await;
    assert!(reminder.body.contains("1h left"), "{reminder:?}");
    assert!(
        t.alice.invitations().is_empty(),
        "{:?}",
        t.alice.invitations()
    );

    // The timeout is for everyone: in the game's room.
    let mark = t.alice.mark();
    bot.advance("+1h").await;
    let ended = t
        .alice
        .wait_for_after(mark, &room, WAIT, |s| {
            s.sender == bot_id && s.body.contains("time ran out")
        })
        .await;
    assert_board(&ended);
    // After a restart, a new game's reminder goes to the same direct room (kept in the store),
    // and nothing from before is sent again.
    let mark = t.alice.mark();
    bot.stop();
    let mut bot = start_manual(&t.synapse, &t.bot, &dir, &[], "2026-11-28T10:00:00Z").await;
    timed_challenge(&t, &room, "3d").await;
    bot.advance("+2d").await;
    let reminder = t
        .alice
        .wait_for_after(mark, &direct, WAIT, |s| s.sender == bot_id)
        .await;
    assert!(
        reminder.body.contains("1d left") && reminder.body.contains("2026-12-01"),
        "{reminder:?}"
    );
    assert!(
        t.alice.invitations().is_empty(),
        "{:?}",
        t.alice.invitations()
    );
    assert_eq!(notices_after(&t.alice, mark, &direct, &bot_id).len(), 1);
    assert!(notices_after(&t.alice, mark, &room, &bot_id).is_empty());
    bot.stop();
}
