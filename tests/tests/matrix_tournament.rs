//! A tournament on Matrix, end to end: the real `muster serve` against a real Synapse. The
//! organiser opens an event in a room, players enter with text commands, and when the event
//! starts the bot creates a room for the board with both players invited, links it from the
//! event's room with a mention of each player, and takes the result when the game ends there.

use muster_tests::matrix_bot::{WAIT, spawn_on, table};
use muster_tests::{data_dir, muster_binary};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_creates_a_room_per_board_and_takes_its_result() {
    let t = table().await;
    let dir = data_dir("matrix-tournament", "roundrobin");
    let mut bot = spawn_on(&muster_binary!(), &t.synapse, &t.bot, &dir, &[], None);
    bot.listening().await;
    let (alice, bob) = (t.alice.user_id(), t.bob.user_id());
    let hall = t.alice.create_room("hall", &[&bob], false).await;
    t.bob.join(&hall).await;
    t.alice.invite(&hall, &t.bot.user_id).await;
    t.alice.wait_until_joined(&hall, &t.bot.user_id, WAIT).await;

    t.alice
        .send_text(&hall, "!tournament new spring croquet roundrobin")
        .await;
    t.alice
        .wait_for(&hall, WAIT, |s| {
            s.body.contains("opened the event **spring**")
        })
        .await;
    t.alice.send_text(&hall, "!tournament join spring").await;
    t.bob.send_text(&hall, "!tournament join").await;
    t.alice
        .wait_for(&hall, WAIT, |s| s.body.contains("(2 entrants)"))
        .await;
    t.alice.send_text(&hall, "!tournament start").await;

    // The bot creates the board's room and invites both players.
    let room = t.bob.wait_for_invitation(WAIT).await;
    assert_eq!(t.alice.wait_for_invitation(WAIT).await, room);
    t.bob.join(&room).await;
    t.alice.join(&room).await;
    let opening = t
        .bob
        .wait_for(&room, WAIT, |s| {
            s.body.contains("spring · round 1 · board 1")
        })
        .await;
    assert_eq!(opening.sender, t.bot.user_id);
    let turn = t
        .alice
        .wait_for(&room, WAIT, |s| s.body.contains("your turn"))
        .await;
    assert!(turn.mentions.contains(&alice), "{turn:?}");

    // The event's room lists the round with a link to the board's room, and each player is
    // mentioned with where his game is.
    let listed = t
        .bob
        .wait_for(&hall, WAIT, |s| s.body.contains("spring · round 1 of 1"))
        .await;
    assert!(
        listed.body.contains(&format!("https://matrix.to/#/{room}")),
        "{listed:?}"
    );
    let told = t
        .bob
        .wait_for(&hall, WAIT, |s| s.body.contains("your round 1 game"))
        .await;
    assert!(
        told.mentions.contains(&bob) || told.mentions.contains(&alice),
        "{told:?}"
    );

    // alice (White) resigns in the board's room: the event takes the result and ends.
    t.alice.send_text(&room, "!resign").await;
    t.bob
        .wait_for(&room, WAIT, |s| s.body.contains("resigns"))
        .await;
    let result = t
        .alice
        .wait_for(&hall, WAIT, |s| {
            s.body.contains("spring · round 1 · board 1:")
        })
        .await;
    assert!(result.body.contains("0-1"), "{result:?}");
    t.alice
        .wait_for(&hall, WAIT, |s| {
            s.body.contains("spring is over. The winner:")
        })
        .await;
    bot.stop();
}
