//! Exactly once on Matrix for what the bot posts or opens on its own, against a real Synapse:
//! the bot is killed (SIGKILL, by the proxy in front of the homeserver, or by its own fault
//! hook at a store write) at the exact moments that used to lose or double something — a
//! direct room made but not recorded, a reminder stored by the homeserver but not marked sent,
//! a reminder kept but not yet sent, a claim notice kept but not sent and sent but not marked,
//! a board's room asked for and made but not recorded, a round's announcement kept but not
//! sent, and sent but not marked — then started again. Each room is
//! made once (the bot finds the one it made by the mark in its creation) and each message is
//! posted once (sent again under the same transaction id, the homeserver keeps one).

mod matrix_play;

use std::time::Duration;

use matrix_play::{CLOCK_START, answer, invite_bot, notices_after, open_room, timed_challenge};
use muster_tests::matrix::Player;
use muster_tests::matrix_bot::{Bot, Table, WAIT, spawn_on, table};
use muster_tests::proxy::{Proxy, Trap};
use muster_tests::{data_dir, muster_binary};

/// `muster serve` through `proxy` on a manual clock showing `at`, waited for.
async fn serve(t: &Table, proxy: &Proxy, dir: &std::path::Path, at: &str) -> Bot {
    let via = proxy.url();
    let extra = [("MUSTER_MATRIX_HOMESERVER", via.as_str())];
    let mut bot = spawn_on(&muster_binary!(), &t.synapse, &t.bot, dir, &extra, Some(at));
    bot.listening().await;
    bot
}

/// Kills `bot` at `trap` while its clock moves by `by`, and waits until it has died.
async fn killed(proxy: &Proxy, mut bot: Bot, trap: Trap, by: &str) {
    proxy.arm(trap, bot.child.id());
    bot.input(&format!("~ {by}"));
    proxy.fired(WAIT).await;
    bot.ended().await;
}

/// Kills `bot` by its own fault hook just after the `n`-th store write from when its clock
/// moves by `by`, and waits until it has died.
async fn faulted(mut bot: Bot, n: u64, by: &str) {
    bot.input(&format!("~ fault after {n}"));
    bot.input(&format!("~ {by}"));
    bot.ended().await;
}

/// The rooms `player` is invited to (not joined) whose name is `name`.
fn invited_named(player: &Player, name: &str) -> Vec<String> {
    player
        .client()
        .invited_rooms()
        .into_iter()
        .filter(|r| r.name().as_deref() == Some(name))
        .map(|r| r.room_id().to_string())
        .collect()
}

/// Waits until `player` is invited to a room named `name`; then, a moment later, all such
/// rooms.
async fn invitations_to(player: &Player, name: &str) -> Vec<String> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(WAIT);
    while invited_named(player, name).is_empty() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no invitation to {name}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    invited_named(player, name)
}

/// Lets a restarted bot finish what it owed: its clock moves once more, and a moment passes.
async fn settle(bot: &mut Bot) {
    bot.advance("+1m").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_direct_room_and_reminders_are_made_once_across_kills() {
    let t = table().await;
    let dir = data_dir("matrix-once", "direct");
    let bot_id = t.bot.user_id.clone();
    let proxy = Proxy::start(&t.synapse.url()).await;
    let bot = serve(&t, &proxy, &dir, CLOCK_START).await;
    let room = open_room(&t, "By post", false).await;
    invite_bot(&t, &room).await;
    let ev = t.alice.send_text(&room, "!notify dm").await;
    answer(&t.alice, &room, &bot_id, &ev).await;
    timed_challenge(&t, &room, "3d").await;

    // The direct room is made by the homeserver, and the bot dies before it hears its id: it
    // is found again at the restart, not made twice; the reminder is in it once.
    let mark = t.alice.mark();
    killed(&proxy, bot, Trap::AfterCreateRoom, "+2d").await;
    let mut bot = serve(&t, &proxy, &dir, "2026-11-27T10:00:00Z").await;
    let direct = t.alice.wait_for_invitation(WAIT).await;
    settle(&mut bot).await;
    assert_eq!(
        t.alice.invitations(),
        vec![direct.clone()],
        "one direct room"
    );
    assert!(
        bot.log()
            .contains(&format!("found {direct}, a direct room")),
        "the room made before the kill is the one used:\n{}",
        bot.log()
    );
    t.alice.join(&direct).await;
    t.alice
        .wait_for_after(mark, &direct, WAIT, |s| s.sender == bot_id)
        .await;
    let reminders = notices_after(&t.alice, mark, &direct, &bot_id);
    assert_eq!(reminders.len(), 1, "{reminders:?}");
    assert!(reminders[0].body.contains("1d left"), "{reminders:?}");

    // The last hour's reminder is stored by the homeserver, and the bot dies before it hears
    // so (before it marks it sent): sent again with the same transaction id, it is one event.
    let mark = t.alice.mark();
    killed(&proxy, bot, Trap::AfterEncrypted, "+23h").await;
    let mut bot = serve(&t, &proxy, &dir, "2026-11-28T09:01:00Z").await;
    t.alice
        .wait_for_after(mark, &direct, WAIT, |s| s.sender == bot_id)
        .await;
    settle(&mut bot).await;
    let reminders = notices_after(&t.alice, mark, &direct, &bot_id);
    assert_eq!(reminders.len(), 1, "{reminders:?}");
    assert!(reminders[0].body.contains("1h left"), "{reminders:?}");

    // The game ends on time; a new one's first reminder is kept (the first write) and the bot
    // dies before it sends it or marks its points: sent once after the restart.
    bot.advance("+1h").await;
    timed_challenge(&t, &room, "3d").await;
    let mark = t.alice.mark();
    faulted(bot, 1, "+2d").await;
    let mut bot = serve(&t, &proxy, &dir, "2026-11-30T10:02:00Z").await;
    t.alice
        .wait_for_after(mark, &direct, WAIT, |s| s.sender == bot_id)
        .await;
    settle(&mut bot).await;
    let reminders = notices_after(&t.alice, mark, &direct, &bot_id);
    assert_eq!(reminders.len(), 1, "{reminders:?}");
    assert!(t.alice.invitations().is_empty(), "no second direct room");
    bot.stop();
}

/// Opens the event `name` in `hall` (a Swiss of alice and bob, two rounds, a day per game),
/// enters both and starts it; waits for round 1's announcement.
async fn swiss(t: &Table, hall: &str, name: &str) {
    let bot_id = t.bot.user_id.clone();
    let ev = t
        .alice
        .send_text(
            hall,
            &format!("!tournament new {name} lanrick swiss rounds 2 clock 1d"),
        )
        .await;
    let said = answer(&t.alice, hall, &bot_id, &ev).await;
    assert!(
        said.body.contains(&format!("opened the event **{name}**")),
        "{said:?}"
    );
    for p in [&t.alice, &t.bob] {
        let ev = p.send_text(hall, &format!("!tournament join {name}")).await;
        answer(p, hall, &bot_id, &ev).await;
    }
    t.alice
        .send_text(hall, &format!("!tournament start {name}"))
        .await;
    t.alice
        .wait_for(hall, WAIT, |s| {
            s.body.contains(&format!("{name} · round 1 of 2"))
        })
        .await;
}

/// What a round 2 left in `hall` and its board's room, as alice sees them: the result of round
/// 1, the announcement of round 2, and the opening in the board's room (joined here), each of
/// which must be there once.
async fn audit_round_two(t: &Table, hall: &str, name: &str, mark: usize) {
    let bot_id = t.bot.user_id.clone();
    let rooms = invitations_to(&t.alice, &format!("{name}-2-1")).await;
    assert_eq!(rooms.len(), 1, "one room for the board: {rooms:?}");
    t.alice.join(&rooms[0]).await;
    t.alice
        .wait_for(&rooms[0], WAIT, |s| {
            s.body.contains(&format!("{name} · round 2 · board 1"))
        })
        .await;
    t.alice
        .wait_for_after(mark, hall, WAIT, |s| {
            s.body.contains(&format!("{name} · round 2 of 2"))
        })
        .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let said = notices_after(&t.alice, mark, hall, &bot_id);
    let count = |text: &str| said.iter().filter(|s| s.body.contains(text)).count();
    assert_eq!(
        count(&format!("{name} · round 1 · board 1:")),
        1,
        "{said:?}"
    );
    assert_eq!(count(&format!("{name} · round 2 of 2")), 1, "{said:?}");
    let opening = t
        .alice
        .messages(&rooms[0])
        .into_iter()
        .filter(|s| s.sender == bot_id && s.body.contains(&format!("{name} · round 2 · board 1")))
        .count();
    assert_eq!(opening, 1, "the game's opening once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_rounds_room_and_announcement_are_made_once_across_kills() {
    let t = table().await;
    let dir = data_dir("matrix-once", "swiss");
    let proxy = Proxy::start(&t.synapse.url()).await;
    let bot = serve(&t, &proxy, &dir, CLOCK_START).await;
    let hall = open_room(&t, "Hall", false).await;
    invite_bot(&t, &hall).await;

    // Round 1's game is lost on time; round 2's room is made by the homeserver and the bot
    // dies before it hears the room's id: the room is found again, not made twice.
    swiss(&t, &hall, "cup").await;
    let mark = t.alice.mark();
    killed(&proxy, bot, Trap::AfterCreateRoom, "+1d").await;
    let bot = serve(&t, &proxy, &dir, "2026-11-26T10:00:00Z").await;
    audit_round_two(&t, &hall, "cup", mark).await;
    assert!(
        bot.log().contains("made for cup-2-1 before a restart"),
        "the room made before the kill is the one used:\n{}",
        bot.log()
    );

    // The next event's round 2 announcement is kept and the bot dies as it sends it, before
    // the homeserver has it: sent once after the restart.
    swiss(&t, &hall, "vase").await;
    let mark = t.alice.mark();
    killed(&proxy, bot, Trap::BeforeText("vase · round 2 of 2"), "+1d").await;
    let bot = serve(&t, &proxy, &dir, "2026-11-27T10:00:00Z").await;
    audit_round_two(&t, &hall, "vase", mark).await;

    // And one more, whose announcement the homeserver stores before the bot dies: sent again
    // under the same transaction id, it is one message.
    swiss(&t, &hall, "bowl").await;
    let mark = t.alice.mark();
    killed(&proxy, bot, Trap::AfterText("bowl · round 2 of 2"), "+1d").await;
    let bot = serve(&t, &proxy, &dir, "2026-11-28T10:00:00Z").await;
    audit_round_two(&t, &hall, "bowl", mark).await;

    // The bot dies as it asks for round 2's room: asked for again at the restart, made once.
    swiss(&t, &hall, "jug").await;
    let mark = t.alice.mark();
    killed(&proxy, bot, Trap::BeforeCreateRoom, "+1d").await;
    let bot = serve(&t, &proxy, &dir, "2026-11-29T10:00:00Z").await;
    audit_round_two(&t, &hall, "jug", mark).await;
    bot.stop();
}

/// A game with claimed timeouts in `room`; alice's clock runs out while the bot is killed at
/// `trap`; started again at `at`, the notice that bob may claim is in the room once.
async fn claim_notice_once(
    t: &Table,
    (proxy, dir): (&Proxy, &std::path::Path),
    bot: Bot,
    (room, trap, at): (&str, Trap, &str),
) -> Bot {
    let bot_id = t.bot.user_id.clone();
    let notice = "may `!claim` the win";
    timed_challenge(t, room, "1d timeout claim").await;
    let mark = t.alice.mark();
    killed(proxy, bot, trap, "+1d").await;
    let mut bot = serve(t, proxy, dir, at).await;
    t.alice
        .wait_for_after(mark, room, WAIT, |s| s.body.contains(notice))
        .await;
    settle(&mut bot).await;
    let said = notices_after(&t.alice, mark, room, &bot_id);
    let count = said.iter().filter(|s| s.body.contains(notice)).count();
    assert_eq!(count, 1, "{trap:?}: {said:?}");
    bot
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_notice_is_posted_once_across_kills() {
    let t = table().await;
    let dir = data_dir("matrix-once", "claim");
    let proxy = Proxy::start(&t.synapse.url()).await;
    let bot = serve(&t, &proxy, &dir, CLOCK_START).await;
    let room = open_room(&t, "Claims", false).await;
    invite_bot(&t, &room).await;

    // The notice is kept, and the bot dies as it sends it: sent once after the restart.
    let trap = Trap::BeforeText("may `!claim` the win");
    let at = "2026-11-26T10:00:00Z";
    let bot = claim_notice_once(&t, (&proxy, &dir), bot, (&room, trap, at)).await;
    let ev = t.bob.send_text(&room, "!claim").await;
    answer(&t.bob, &room, &t.bot.user_id, &ev).await;

    // Another game: the homeserver stores the notice and the bot dies before it marks it
    // sent: sent again under the same transaction id, it is one message.
    let trap = Trap::AfterText("may `!claim` the win");
    let at = "2026-11-27T10:01:00Z";
    let bot = claim_notice_once(&t, (&proxy, &dir), bot, (&room, trap, at)).await;
    bot.stop();
}
