//! Muster's boards as a person sees them in a Matrix client (docs/matrix.md, "What players
//! see"): a whole Croquet game between alice (a protocol client) and bob playing from
//! Hydrogen, a web client people use, in headless Chromium against a real Synapse — in a plain
//! room and in an encrypted one. Every board, chart and replay the bot posts must show in bob's
//! timeline, and stay shown: a client asks for an image's thumbnail the moment it sees the
//! message, and never again if it is refused. The homeserver's access log must show no
//! thumbnail refused.
//!
//! It also measures, in the same run, how long a move sent by alice takes to show as a board in
//! bob's client, against a plain message shown the same way (docs/performance.md); printed,
//! not asserted.

use muster_rules::{AnyGame, GameId};
use muster_tests::data_dir;
use muster_tests::hydrogen::{Hydrogen, Site, now_ms};
use muster_tests::matrix::Seen;
use muster_tests::matrix_bot::{Table, WAIT, table};

mod matrix_play;
use matrix_play::*;

/// Decisions played in each game before alice resigns.
const DECISIONS: usize = 16;

/// What one game measured: each board's and each message's time to show in bob's client,
/// from alice's send (milliseconds).
#[derive(Default)]
struct Shown {
    boards: Vec<u64>,
    texts: Vec<u64>,
}

/// The decision to play: the longest step after which the game goes on (so that it lasts its
/// [`DECISIONS`]).
fn decision(game: &AnyGame) -> String {
    let seat = game.to_move().expect("the game goes on");
    let mut moves = game.legal_moves_text();
    moves.sort_by_key(|m| std::cmp::Reverse(m.parse::<i32>().unwrap_or(i32::MIN)));
    moves
        .iter()
        .find(|m| {
            let mut next = game.clone();
            next.play_text(seat, m).is_ok() && next.to_move().is_some()
        })
        .or(moves.first())
        .cloned()
        .unwrap_or_else(|| panic!("no legal move in {}", game.position()))
}

/// The bot's images in `room`, as alice received them.
fn images(t: &Table, room: &str) -> Vec<Seen> {
    t.alice
        .messages(room)
        .into_iter()
        .filter(|s| s.sender == t.bot.user_id && s.msgtype == "m.image")
        .collect()
}

/// Waits until bob's client shows `n` images, and checks none is broken.
async fn all_shown(hydrogen: &Hydrogen, n: usize, what: &str) {
    let [shown, broken, _] = hydrogen.wait_for_images(n as u64).await;
    assert!(
        broken == 0 && shown as usize >= n,
        "{what}: {shown} images shown, {broken} broken of {n}; the timeline:\n{}",
        hydrogen.timeline().await
    );
}

/// A Croquet game in `room` (which bob's client has open): alice challenges, bob accepts from
/// his client, they play [`DECISIONS`] decisions (bob typing his), alice resigns. Checks every
/// image shows; returns the times measured.
async fn game(t: &Table, hydrogen: &Hydrogen, room: &str, encrypted: bool) -> Shown {
    let bot = t.bot.user_id.clone();
    let mut shown = Shown::default();
    let ev = t.alice.send_text(room, "!new croquet bob").await;
    answer(&t.alice, room, &bot, &ev).await;
    let mark = t.alice.mark();
    hydrogen.say("!accept").await;
    let mut board = t
        .alice
        .wait_for_after(mark, room, WAIT, |s| {
            s.sender == bot && s.msgtype == "m.image"
        })
        .await;
    all_shown(hydrogen, images(t, room).len(), "the first board").await;
    let mut game = AnyGame::new(GameId::Croquet);
    for n in 0..DECISIONS {
        let seat = game.to_move().expect("the game goes on");
        let step = decision(&game);
        let mover = to_move(&board, &[&t.alice, &t.bob]);
        let mark = t.alice.mark();
        let sent = if std::ptr::eq(mover, &t.alice) {
            let at = now_ms();
            t.alice.send_text(room, &format!("!move {step}")).await;
            Some(at)
        } else {
            hydrogen.say(&format!("!move {step}")).await;
            None
        };
        board = t
            .alice
            .wait_for_after(mark, room, WAIT, |s| {
                s.sender == bot && s.msgtype == "m.image"
            })
            .await;
        game.play_text(seat, &step).expect("a legal step");
        let count = images(t, room).len();
        all_shown(
            hydrogen,
            count,
            &format!("the board after decision {}", n + 1),
        )
        .await;
        if let Some(at) = sent {
            let newest = hydrogen.shown_at().await.last().copied().unwrap_or(at);
            shown.boards.push(newest.saturating_sub(at));
        }
        // Now and then a plain message, shown the same way.
        if n % 4 == 1 {
            let needle = format!("a note from alice in {room}, {n}");
            let at = now_ms();
            t.alice.send_text(room, &needle).await;
            shown
                .texts
                .push(hydrogen.text_seen(&needle).await.saturating_sub(at));
        }
    }
    // Alice resigns: the result, and the replay the game ends with.
    let mark = t.alice.mark();
    t.alice.send_text(room, "!resign").await;
    t.alice
        .wait_for_after(mark, room, WAIT, |s| {
            s.sender == bot
                && s.image.as_ref().and_then(|i| i.mimetype.as_deref()) == Some("image/gif")
        })
        .await;
    let count = images(t, room).len();
    all_shown(hydrogen, count, "the replay").await;
    for image in images(t, room) {
        thumbnailed(&image, encrypted);
    }
    // And they stay shown.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let [now_shown, broken, _] = hydrogen.images().await;
    assert!(
        now_shown as usize >= count && broken == 0,
        "after a while: {now_shown} shown, {broken} broken of {count}"
    );
    shown
}

/// Checks that an image message says what a client lays its tile out with — its size, type
/// and dimensions — and names a thumbnail with its own, so that no client need make one: for a
/// replay (a GIF) a still of it (a PNG), for a board the board.
fn thumbnailed(image: &Seen, encrypted: bool) {
    let info = &image.content["info"];
    for key in ["w", "h", "size"] {
        assert!(info[key].as_u64().is_some_and(|v| v > 0), "{key}: {info}");
    }
    let gif = info["mimetype"] == "image/gif";
    assert!(gif || info["mimetype"] == "image/png", "{info}");
    let thumb = &info["thumbnail_info"];
    for key in ["w", "h", "size"] {
        assert!(
            thumb[key].as_u64().is_some_and(|v| v > 0),
            "thumbnail {key}: {info}"
        );
    }
    assert_eq!(thumb["mimetype"], "image/png", "{info}");
    let source = if encrypted {
        info["thumbnail_file"]["url"].as_str()
    } else {
        info["thumbnail_url"].as_str()
    };
    assert!(source.is_some_and(|u| u.starts_with("mxc://")), "{info}");
    if !gif {
        assert_eq!(
            (thumb["w"].clone(), thumb["h"].clone()),
            (info["w"].clone(), info["h"].clone())
        );
    }
}

/// The median of `values`.
fn median(values: &[u64]) -> u64 {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

/// The thumbnail requests the homeserver answered with anything but 200, in its access log `log`.
fn thumbnails_refused(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains("/media/thumbnail/") && l.contains("Processed request"))
        .filter(|l| !l.contains("B 200 \""))
        .map(str::to_string)
        .collect()
}

/// Where a board's time goes, from the homeserver's access log `log`: how long it took to answer the
/// bot's uploads to reserved addresses (a plain room's images, whose thumbnails it makes before
/// answering), its new uploads (the encrypted room's, which it cannot thumbnail, and a replay's
/// still), the bot's messages, and the client's thumbnail requests — medians in milliseconds.
fn where_the_time_goes(log: &str) -> String {
    let took = |keep: &dyn Fn(&str) -> bool| -> String {
        let ms: Vec<u64> = log
            .lines()
            .filter(|l| l.contains("Processed request: ") && keep(l))
            .filter_map(|l| {
                let after = l.split("Processed request: ").nth(1)?;
                let secs: f64 = after.split("sec").next()?.parse().ok()?;
                Some((secs * 1000.0).round() as u64)
            })
            .collect();
        format!("{} ms (median of {})", median(&ms), ms.len())
    };
    let bot = |l: &str| l.contains("{@muster:");
    let upload = |l: &str| l.contains("/_matrix/media/v3/upload");
    format!(
        "the homeserver answered the bot's uploads to reserved addresses in {}, its new \
         uploads in {}, its messages in {}, and thumbnails in {}",
        took(&|l| bot(l) && upload(l) && l.contains(" 200 \"PUT")),
        took(&|l| bot(l) && upload(l) && l.contains(" 200 \"POST")),
        took(&|l| bot(l) && l.contains("/send/m.room.message/")),
        took(&|l| l.contains("/media/thumbnail/")),
    )
}

/// The bot's own part, from its log (`MUSTER_MATRIX_TIMINGS`): from a command's event to its
/// answer accepted by the homeserver, and of that the core (parse, play, store, draw) —
/// medians in milliseconds.
fn the_bots_part(log: &str) -> String {
    let (mut answered, mut core) = (Vec::new(), Vec::new());
    for line in log.lines().filter(|l| l.contains(" answered in ")) {
        let ms = |after: &str| -> Option<u64> {
            let v: f64 = line
                .split(after)
                .nth(1)?
                .split(" ms")
                .next()?
                .parse()
                .ok()?;
            Some(v.round() as u64)
        };
        answered.extend(ms(" answered in "));
        core.extend(ms("(core "));
    }
    format!(
        "the bot answered a command in {} ms, its core in {} ms (medians of {})",
        median(&answered),
        median(&core),
        answered.len()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_board_shows_in_a_real_client_in_plain_and_encrypted_rooms() {
    let t = table().await;
    let Some(site) = Site::serve(&t.synapse.url()) else {
        return;
    };
    let dir = data_dir("matrix_client", "boards");
    let bot = start(&t.synapse, &t.bot, &dir, &[]).await;
    let hydrogen = Hydrogen::start(&site, "bob", "bob-password")
        .await
        .expect("a browser, as the site is served");
    let mut figures = Vec::new();
    for (name, encrypted) in [("Croquet in the open", false), ("Croquet in secret", true)] {
        let room = open_room(&t, name, encrypted).await;
        invite_bot(&t, &room).await;
        hydrogen.open_room(name).await;
        let shown = game(&t, &hydrogen, &room, encrypted).await;
        figures.push((name, shown));
        let shot = std::env::temp_dir().join(format!("muster-hydrogen-{encrypted}.png"));
        hydrogen.screenshot_to(&shot).await;
    }
    let log =
        std::fs::read_to_string(t.synapse.data_dir().join("homeserver.log")).unwrap_or_default();
    let refused = thumbnails_refused(&log);
    assert!(
        refused.is_empty(),
        "thumbnails refused:\n{}",
        refused.join("\n")
    );
    for (name, shown) in &figures {
        eprintln!(
            "{name}: a board shown in bob's client {} ms (median of {}) after alice sent her \
             move, a plain message {} ms (median of {})",
            median(&shown.boards),
            shown.boards.len(),
            median(&shown.texts),
            shown.texts.len()
        );
    }
    eprintln!("{}", where_the_time_goes(&log));
    eprintln!("{}", the_bots_part(&bot.log()));
    hydrogen.close().await;
    bot.stop();
}
