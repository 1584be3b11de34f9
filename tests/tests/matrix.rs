//! Muster on Matrix, end to end: the real `muster serve` binary against a real Synapse
//! started on 127.0.0.1 (`muster_tests::synapse`), with the players as real Matrix clients
//! (`muster_tests::matrix::Player`, matrix-sdk). Everything is checked as the players see it.

use std::time::{Duration, Instant};

use muster_tests::data_dir;
use muster_tests::matrix::Seen;
use muster_tests::matrix_bot::{WAIT, table};
use muster_tests::proxy::{Proxy, Trap};

mod matrix_play;
use matrix_play::*;
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
    let moves = record(CROQUET);
    for (i, mv) in moves.iter().enumerate() {
        if i == moves.len() / 2 {
            // Synapse goes away and comes back; the bot carries on.
            t.synapse.restart();
        }
        board = play(&t, &room, &bot_id, &board, mv).await;
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
/// plain message between the two players on the same Synapse; and the bot's memory. Run by
/// `scripts/matrix-latency`, with the bot built in release.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run by scripts/matrix-latency"]
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

/// The bot's answer to `ev` that says `words`, as `player` sees it: addressed to him.
async fn said(
    player: &muster_tests::matrix::Player,
    room: &str,
    bot: &str,
    ev: &str,
    words: &str,
) -> Seen {
    let seen = player
        .wait_for(room, WAIT, |s| {
            s.sender == bot && s.in_reply_to.as_deref() == Some(ev) && s.body.contains(words)
        })
        .await;
    assert!(seen.mentions.contains(&player.user_id()), "{seen:?}");
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_and_a_puzzle_are_solved_by_room_messages() {
    let t = table().await;
    let dir = data_dir("matrix", "learning");
    let bot_id = t.bot.user_id.clone();
    let bot = start(&t.synapse, &t.bot, &dir, &[]).await;
    let room = open_room(&t, "Lessons", false).await;
    invite_bot(&t, &room).await;
    // Asked in a room, a lesson goes to alice's direct room with the bot, made for it; the
    // room is told so, and nothing of the lesson is said there.
    let ev = t.alice.send_text(&room, "!learn croquet 1").await;
    said(&t.alice, &room, &bot_id, &ev, "in a direct message from me").await;
    let direct = t.alice.wait_for_invitation(WAIT).await;
    t.alice.join(&direct).await;
    let board = t
        .alice
        .wait_for(&direct, WAIT, |s| {
            s.sender == bot_id && s.msgtype == "m.image"
        })
        .await;
    assert_board(&board);
    t.alice
        .wait_for(&direct, WAIT, |s| {
            s.sender == bot_id && s.body.contains("lesson 1 of 7: Steps")
        })
        .await;
    assert!(
        t.alice
            .messages(&room)
            .iter()
            .all(|m| !m.body.contains("lesson 1 of 7")),
        "the lesson is not in the room"
    );
    // In the direct room, answers are answered there: a wrong try, then solved.
    let room = direct;
    let ev = t.alice.send_text(&room, "!learn 5").await;
    said(&t.alice, &room, &bot_id, &ev, "The task:").await;
    let ev = t.alice.send_text(&room, "!learn 8").await;
    said(&t.alice, &room, &bot_id, &ev, "Solved ★★☆!").await;
    // A puzzle, answered with its solution: solved and rated.
    let ev = t.alice.send_text(&room, "!puzzle croquet").await;
    let given = said(&t.alice, &room, &bot_id, &ev, "Puzzle croquet-").await;
    let id = given
        .body
        .split("Puzzle ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap();
    let entry = muster_core::learn::puzzles::find(id).unwrap();
    let ev = t
        .alice
        .send_text(&room, &format!("!puzzle {}", entry.answer))
        .await;
    said(&t.alice, &room, &bot_id, &ev, "Your puzzle rating: 1500 → ").await;
    bot.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_lesson_is_solved_by_room_messages_after_a_wrong_try() {
    let t = table().await;
    let dir = data_dir("matrix", "every-lesson");
    let bot_id = t.bot.user_id.clone();
    // Some hundred commands in a row: the room's rate limit is lifted for the run.
    let unlimited = [("MUSTER_MATRIX_RATE_PER_MINUTE", "0")];
    let bot = start(&t.synapse, &t.bot, &dir, &unlimited).await;
    let room = open_room(&t, "Every lesson", false).await;
    invite_bot(&t, &room).await;
    // Lessons are taken in the direct room the first `learn` opens.
    let ev = t.alice.send_text(&room, "!learn").await;
    said(&t.alice, &room, &bot_id, &ev, "in a direct message from me").await;
    let room = t.alice.wait_for_invitation(WAIT).await;
    t.alice.join(&room).await;
    t.alice
        .wait_for(&room, WAIT, |s| {
            s.sender == bot_id && s.body.contains("Lessons:")
        })
        .await;
    for game in ["lanrick", "lanrick1880", "croquet", "lanko88"] {
        let lessons = muster_core::learn::course(game.parse().unwrap());
        for (i, lesson) in lessons.iter().enumerate() {
            let n = i + 1;
            let ev = t
                .alice
                .send_text(&room, &format!("!learn {game} {n}"))
                .await;
            said(
                &t.alice,
                &room,
                &bot_id,
                &ev,
                &format!("lesson {n} of {}", lessons.len()),
            )
            .await;
            let ev = t
                .alice
                .send_text(&room, &format!("!learn {}", lesson.wrong))
                .await;
            said(&t.alice, &room, &bot_id, &ev, "The task:").await;
            for (k, a) in lesson.answers.iter().enumerate() {
                let ev = t.alice.send_text(&room, &format!("!learn {a}")).await;
                let words = if k + 1 == lesson.answers.len() {
                    "Solved ★★☆!"
                } else {
                    "Answer with"
                };
                said(&t.alice, &room, &bot_id, &ev, words).await;
            }
        }
    }
    bot.stop();
}
