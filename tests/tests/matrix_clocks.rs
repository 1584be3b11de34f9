//! Muster's clocks on Matrix, end to end: the real `muster serve` binary on a manual clock
//! against a real Synapse, with the players as real Matrix clients — reminders where each
//! player wants them, in his room or his direct room, and a game forfeited on time.

use std::time::{Duration, Instant};

use muster_tests::data_dir;
use muster_tests::matrix_bot::{WAIT, table};

mod matrix_play;
use matrix_play::*;

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
