//! The Matrix test harness checks itself: a real Synapse (tests/src/synapse.rs) and two
//! matrix-sdk players (tests/src/matrix.rs) exchange plain, mentioning, threaded, encrypted and
//! image messages, across a server restart.

use std::time::Instant;

use muster_tests::matrix::Player;
use muster_tests::synapse::Synapse;

/// A 2×1 PNG (one red, one blue pixel), small enough to write out.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x7b, 0x40, 0xe8,
    0xdd, 0x00, 0x00, 0x00, 0x0f, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x42, 0x0c, 0xff, 0x01, 0x07, 0xfe, 0x01, 0xfe, 0xb6, 0x2e, 0x33, 0x0d, 0x00, 0x00, 0x00, 0x00,
    0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

fn lap(what: &str, since: &mut Instant) {
    eprintln!("harness: {what}: {:.2?}", since.elapsed());
    *since = Instant::now();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn synapse_and_players_exchange_messages() {
    let mut t = Instant::now();
    let mut synapse = Synapse::start();
    lap("synapse started", &mut t);
    let accounts = synapse.register_many(&[("alice", "alice-password"), ("bob", "bob-password")]);
    assert_eq!(accounts[0].user_id, synapse.user_id("alice"));
    assert!(!format!("{:?}", accounts[0]).contains("alice-password"));
    lap("two users registered", &mut t);
    let alice = Player::login(&synapse, &accounts[0]).await;
    let bob = Player::login(&synapse, &accounts[1]).await;
    let (a, b) = (alice.user_id(), bob.user_id());
    lap("two players logged in", &mut t);

    // A plain room: invitation, join, a round trip each way, mentions, a thread.
    let room = alice.create_room("plain", &[&b], false).await;
    assert_eq!(bob.wait_for_invitation(10).await, room);
    bob.join(&room).await;
    alice.wait_until_joined(&room, &b, 10).await;
    assert_eq!(bob.joined_members(&room).await.len(), 2);
    let mark = bob.mark();
    let hello = alice.send_text(&room, "hello bob").await;
    let seen = bob
        .wait_for_after(mark, &room, 10, |s| s.body == "hello bob")
        .await;
    assert_eq!(
        (seen.sender.as_str(), seen.msgtype.as_str()),
        (a.as_str(), "m.text")
    );
    assert_eq!(seen.event_id, hello);
    assert!(seen.mentions.is_empty() && seen.ts_ms > 0);
    let mark = alice.mark();
    bob.send_with_mentions(&room, "hi alice", &[&a]).await;
    let seen = alice
        .wait_for_after(mark, &room, 10, |s| s.body == "hi alice")
        .await;
    assert_eq!(
        (seen.sender.as_str(), seen.mentions.clone()),
        (b.as_str(), vec![a.clone()])
    );
    bob.send_text_in_thread(&room, &hello, "in the thread")
        .await;
    let seen = alice
        .wait_for_after(mark, &room, 10, |s| s.body == "in the thread")
        .await;
    assert_eq!(seen.thread_root.as_deref(), Some(hello.as_str()));
    lap("plain room round trips", &mut t);

    // An encrypted room: each side reads the other's messages decrypted.
    let secret = alice.create_room("secret", &[&b], true).await;
    bob.join(&secret).await;
    alice.wait_until_joined(&secret, &b, 10).await;
    let mark = bob.mark();
    alice.send_text(&secret, "encrypted hello").await;
    let seen = bob
        .wait_for_after(mark, &secret, 10, |s| s.sender == a)
        .await;
    assert_eq!(
        (seen.msgtype.as_str(), seen.body.as_str()),
        ("m.text", "encrypted hello")
    );
    let mark = alice.mark();
    bob.send_with_mentions(&secret, "encrypted reply", &[&a])
        .await;
    let seen = alice
        .wait_for_after(mark, &secret, 10, |s| s.sender == b)
        .await;
    assert_eq!(
        (seen.body.as_str(), seen.mentions.clone()),
        ("encrypted reply", vec![a.clone()])
    );
    lap("encrypted room round trips", &mut t);

    // An image, in the plain room and in the encrypted one.
    for (room, name) in [(&room, "board.png"), (&secret, "secret-board.png")] {
        let mark = bob.mark();
        alice
            .send_image(room, name, "image/png", PNG.to_vec(), (2, 1))
            .await;
        let seen = bob
            .wait_for_after(mark, room, 10, |s| s.msgtype == "m.image")
            .await;
        let image = seen.image.expect("image info");
        assert!(image.url.starts_with("mxc://localhost/"), "{image:?}");
        assert_eq!(image.mimetype.as_deref(), Some("image/png"));
        assert_eq!(
            (image.width, image.height, image.size),
            (Some(2), Some(1), Some(PNG.len() as u64))
        );
        assert_eq!(seen.body, name);
        assert_eq!(bob.download(&image.url).await, PNG);
    }
    lap("images sent, received and downloaded", &mut t);

    // A restart: the same URL, the players carry on.
    synapse.restart();
    lap("synapse restarted", &mut t);
    for (from, to, room) in [(&alice, &bob, &room), (&bob, &alice, &secret)] {
        let mark = to.mark();
        from.send_text(room, "after the restart").await;
        to.wait_for_after(mark, room, 20, |s| s.body == "after the restart")
            .await;
    }
    lap("round trips after the restart", &mut t);
    assert_eq!(
        alice
            .messages(&room)
            .iter()
            .filter(|s| s.body == "hello bob")
            .count(),
        1
    );
}
