//! The web pages beside several instances on one PostgreSQL store (docs/web.md, "Several
//! instances"): any instance serves any page, and a move made through one reaches a live stream
//! held by another, told by the database's notifications (not by polling).

use muster_tests::postgres::Postgres;
use muster_tests::web::{Console, Stream};

#[test]
fn a_move_made_through_one_instance_reaches_a_stream_held_by_another() {
    let pg = Postgres::start();
    let url = pg.database();
    let store = [("MUSTER_STORE", url.as_str())];
    let mut a = Console::start_with(&muster_tests::muster_binary!(), "instance-a", &store);
    let mut b = Console::start_with(&muster_tests::muster_binary!(), "instance-b", &store);
    a.say("alice general new lanrick");
    a.say("bob general join");
    let page = a.link("general", "watch");
    let mut stream = Stream::open(&format!("{page}/events")).expect("a stream at a");
    let first = stream.update();
    assert!(
        first["html"]
            .as_str()
            .unwrap()
            .contains("<bdi>alice</bdi> (White) to decide."),
        "{first}"
    );
    // The move is made through b; a's stream hears of it.
    b.say("alice general move b1");
    b.wait_for("[general] @bob");
    let moved = stream.until("White b1");
    assert!(
        moved["html"]
            .as_str()
            .unwrap()
            .contains("<bdi>bob</bdi> (Black) to decide."),
        "{moved}"
    );
    assert_ne!(moved["version"], first["version"]);
    // And b serves the page too, by the same token.
    let token = page.rsplit('/').next().unwrap();
    let at_b = b.base();
    let mut stream_b = Stream::open(&format!("{at_b}/g/{token}/events")).expect("a stream at b");
    assert!(
        stream_b.update()["html"]
            .as_str()
            .unwrap()
            .contains("White b1")
    );
    a.say("bob general move g8");
    stream_b.until("Black g8");
    stream.until("Black g8");
    // The listening connections lost: a move made meanwhile reaches the stream once its
    // instance listens again.
    pg.psql(
        &url,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN muster_changes'",
    );
    b.say("alice general move c1");
    b.wait_for("[general] @bob");
    stream.until("White c1");
}
