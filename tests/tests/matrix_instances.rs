//! Two Muster instances on one PostgreSQL store and one Matrix account, end to end with a real
//! Synapse: exactly one syncs at a time (a lease in the store); when it is killed, the other
//! takes over within seconds, and every command is answered once — none lost, none twice.

use std::time::Duration;

use muster_core::store::Live;
use muster_core::store::{ChannelKey, PgStore};
use muster_tests::matrix::Seen;
use muster_tests::matrix_bot::{Bot, WAIT, spawn_on, table};
use muster_tests::postgres::Postgres;
use muster_tests::{data_dir, muster_binary};

/// Waits until the bot's log has a line containing `text`.
async fn logged(bot: &Bot, text: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(WAIT);
    while !bot.log().contains(text) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no {text:?} in the log:\n{}",
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_instance_syncs_and_the_other_takes_over_when_it_dies() {
    let t = table().await;
    let pg = Postgres::start();
    let url = pg.database();
    let store = [("MUSTER_STORE", url.as_str())];
    let (dir_a, dir_b) = (
        data_dir("matrix-instances", "a"),
        data_dir("matrix-instances", "b"),
    );
    let mut a = spawn_on(&muster_binary!(), &t.synapse, &t.bot, &dir_a, &store, None);
    a.listening().await;
    // The second instance is another device of the account: given the recovery key the first
    // wrote, it adopts the account's cross-signing identity when it takes over.
    let key = std::fs::read_to_string(dir_a.join("data/matrix/recovery-key")).unwrap();
    let with_key = [
        ("MUSTER_STORE", url.as_str()),
        ("MUSTER_MATRIX_RECOVERY_KEY", key.trim()),
    ];
    let b = spawn_on(
        &muster_binary!(),
        &t.synapse,
        &t.bot,
        &dir_b,
        &with_key,
        None,
    );
    logged(&b, "standing by").await;

    let bob = t.bob.user_id();
    let room = t.alice.create_room("two instances", &[&bob], false).await;
    t.bob.join(&room).await;
    t.alice.invite(&room, &t.bot.user_id).await;
    t.alice.wait_until_joined(&room, &t.bot.user_id, WAIT).await;
    let from_bot = |s: &Seen| s.sender == t.bot.user_id;
    let answers_since = |mark: usize| -> Vec<Seen> {
        t.alice
            .all_messages()
            .into_iter()
            .skip(mark)
            .filter(|s| s.room == room && s.sender == t.bot.user_id)
            .collect()
    };
    for (who, says) in [(&t.alice, "!new croquet bob"), (&t.bob, "!accept")] {
        let mark = t.alice.mark();
        who.send_text(&room, says).await;
        t.alice.wait_for_after(mark, &room, WAIT, from_bot).await;
    }
    // With both instances up, a move is answered by one of them, once.
    let mark = t.alice.mark();
    t.alice.send_text(&room, "!move 3").await;
    t.alice.wait_for_after(mark, &room, WAIT, from_bot).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let once = answers_since(mark).len();
    assert!(once >= 1);
    assert!(
        !b.log().contains("this instance syncs Matrix now"),
        "{}",
        b.log()
    );

    // The syncer dies at once (SIGKILL); a command sent meanwhile is answered by the other,
    // once, after it takes the lease over.
    a.child.kill().unwrap();
    a.ended().await;
    let mark = t.alice.mark();
    t.bob.send_text(&room, "!move 4").await;
    t.alice.wait_for_after(mark, &room, WAIT, from_bot).await;
    logged(&b, "this instance syncs Matrix now").await;
    logged(&b, "adopted the cross-signing identity").await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = answers_since(mark);
    assert_eq!(
        after.len(),
        once,
        "answered as often as the move before: {:?}",
        after.iter().map(|s| &s.body).collect::<Vec<_>>()
    );
    let pg_store = PgStore::open(&url).unwrap();
    let game = pg_store
        .load(&ChannelKey::new("matrix", &room))
        .unwrap()
        .expect("the game lives");
    assert_eq!(game.moves, vec!["3", "4"]);
    // And the game goes on with the new syncer.
    let mark = t.alice.mark();
    t.alice.send_text(&room, "!board").await;
    t.alice.wait_for_after(mark, &room, WAIT, from_bot).await;
    b.stop();
    let _ = std::fs::remove_dir_all(dir_a);
    let _ = std::fs::remove_dir_all(dir_b);
}
