//! What the Matrix suites share: starting `muster serve` against a Synapse, rooms opened and
//! the bot invited, challenges, and the answers and boards as the players see them.
#![allow(dead_code)]

use muster_tests::matrix::{Player, Seen};
use muster_tests::matrix_bot::{Bot, Table, WAIT};
use muster_tests::muster_binary;
use muster_tests::synapse::{Account, Synapse};

pub const LANRICK: &str = include_str!("../../../docs/examples/lanrick-whole-game.txt");

pub const CROQUET: &str = include_str!("../../../docs/examples/croquet-game.txt");

pub fn record(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The squares a move names (`xd2` → `d2`).
pub fn squares(mv: &str) -> Vec<String> {
    let b = mv.as_bytes();
    (0..b.len().saturating_sub(1))
        .filter(|&i| (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1]))
        .map(|i| mv[i..i + 2].to_string())
        .collect()
}

/// Starts `muster serve` as `bot` on `synapse`, accepting invitations from alice, and waits
/// until it listens.
pub async fn start(
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
pub fn spawn(
    synapse: &Synapse,
    bot: &Account,
    dir: &std::path::Path,
    extra: &[(&str, &str)],
) -> Bot {
    muster_tests::matrix_bot::spawn_on(&muster_binary!(), synapse, bot, dir, extra, None)
}

/// Starts `muster serve` as [`start`] does, on a manual clock showing `start` (RFC 3339),
/// moved by [`Bot::advance`].
pub async fn start_manual(
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
pub async fn answer(player: &Player, room: &str, bot: &str, to: &str) -> Seen {
    player
        .wait_for(room, WAIT, |s| {
            s.sender == bot && s.in_reply_to.as_deref() == Some(to)
        })
        .await
}

/// The bot's board in reply to the move `ev`, as `player` sees it after `mark`.
pub async fn board_reply(
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

/// Plays `mv` by whoever `board` (the latest board) calls to move, and returns the board the bot
/// answers with, as his opponent sees it.
pub async fn play(t: &Table, room: &str, bot: &str, board: &Seen, mv: &str) -> Seen {
    let mover = to_move(board, &[&t.alice, &t.bob]);
    let other = opponent(t, mover);
    let mark = other.mark();
    let ev = mover.send_text(room, mv).await;
    let board = board_reply(other, mark, room, bot, &ev, 60).await;
    assert_board(&board);
    board
}

/// The other player of alice and bob.
pub fn opponent<'a>(t: &'a Table, player: &Player) -> &'a Player {
    if std::ptr::eq(player, &t.alice) {
        &t.bob
    } else {
        &t.alice
    }
}

/// Every answer of the bot to the event `to` seen so far.
pub fn answers(player: &Player, room: &str, bot: &str, to: &str) -> Vec<Seen> {
    player
        .messages(room)
        .into_iter()
        .filter(|s| s.sender == bot && s.in_reply_to.as_deref() == Some(to))
        .collect()
}

/// A board as Matrix clients show it: an `m.image` PNG with its size and dimensions.
pub fn assert_board(seen: &Seen) {
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
pub fn to_move<'a>(board: &Seen, players: &[&'a Player]) -> &'a Player {
    players
        .iter()
        .copied()
        .find(|p| board.mentions.contains(&p.user_id()))
        .unwrap_or_else(|| panic!("the board mentions nobody to move: {board:?}"))
}

/// Alice opens a room with bob (encrypted or not) and invites the bot, which joins.
pub async fn open_room(t: &Table, name: &str, encrypted: bool) -> String {
    let bob = t.bob.user_id();
    let room = t.alice.create_room(name, &[&bob], encrypted).await;
    t.bob.join(&room).await;
    t.alice.wait_until_joined(&room, &bob, WAIT).await;
    room
}

pub async fn invite_bot(t: &Table, room: &str) {
    t.alice.invite(room, &t.bot.user_id).await;
    t.alice.wait_until_joined(room, &t.bot.user_id, WAIT).await;
}

/// Alice challenges bob to `game`; bob accepts; returns the first board.
pub async fn challenge(t: &Table, room: &str, game: &str) -> Seen {
    let bob = t.bob.user_id();
    // Bob named by his Matrix id with a mention, or (Croquet) by his bare name.
    let ev = if game == "croquet" {
        t.alice.send_text(room, &format!("!new {game} bob")).await
    } else {
        t.alice
            .send_with_mentions(room, &format!("!new {game} {bob}"), &[&bob])
            .await
    };
    let (said, board) = accepted(t, room, &ev).await;
    assert!(said.mentions.contains(&bob), "bob is notified: {said:?}");
    board
}

/// The bot's answer to alice's challenge `challenge` in `room`, and the first board once bob
/// has accepted it.
async fn accepted(t: &Table, room: &str, challenge: &str) -> (Seen, Seen) {
    let said = answer(&t.bob, room, &t.bot.user_id, challenge).await;
    assert!(said.body.contains("challenges you"), "{said:?}");
    let ev = t.bob.send_text(room, "!accept").await;
    let board = t
        .alice
        .wait_for(room, WAIT, |s| {
            s.in_reply_to.as_deref() == Some(ev.as_str()) && s.msgtype == "m.image"
        })
        .await;
    assert_board(&board);
    (said, board)
}

/// When the games on a manual clock begin.
pub const CLOCK_START: &str = "2026-11-25T10:00:00Z";

/// Alice challenges bob to a Lanrick game with `clock` in `room`; bob accepts; returns the first
/// board (alice, White, to move).
pub async fn timed_challenge(t: &Table, room: &str, clock: &str) -> Seen {
    let bob = t.bob.user_id();
    let ev = t
        .alice
        .send_with_mentions(room, &format!("!new lanrick {bob} clock {clock}"), &[&bob])
        .await;
    let (_, board) = accepted(t, room, &ev).await;
    assert!(
        board.mentions.contains(&t.alice.user_id()),
        "alice moves first: {board:?}"
    );
    board
}

/// The bot's messages in `room` that answer nothing (notices), as `player` saw them after
/// `mark`.
pub fn notices_after(player: &Player, mark: usize, room: &str, bot: &str) -> Vec<Seen> {
    player.all_messages()[mark..]
        .iter()
        .filter(|s| s.room == room && s.sender == bot && s.in_reply_to.is_none())
        .cloned()
        .collect()
}
