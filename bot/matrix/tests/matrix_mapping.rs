//! How the core's replies become Matrix messages (the adapter's mapping, without a server).

use muster_core::desk::{Button, Reply, User};
use muster_matrix::outbound::{html, plan, png_size};

use common::lanrick;
use muster_core::testing as common;

fn board() -> Reply {
    lanrick("g0")
}

#[test]
fn a_move_is_one_image_captioned_with_the_move_mentioning_the_player_to_move() {
    let bob = User {
        id: "@bob:example.org".into(),
        name: "Bob <the> Bold".into(),
    };
    let out = plan(
        vec![
            Reply::Text("alice played c1-c3 d1-e2.".into()),
            board(),
            Reply::Mention {
                user: bob.clone(),
                text: "your turn (Black) — e.g. `!move b1`.".into(),
            },
            Reply::Buttons(vec![Button {
                label: "Board".into(),
                command: "board".into(),
            }]),
        ],
        ("@alice:example.org", "alice"),
    );
    assert_eq!(out.len(), 1, "{out:?}");
    let m = &out[0];
    assert_eq!(m.image.as_ref().unwrap().0, "g0-000.png");
    assert_eq!(
        m.body,
        "alice played c1-c3 d1-e2.\nBob <the> Bold: your turn (Black) — e.g. `!move b1`."
    );
    // The pill and the mention name bob only; his name is escaped; code is code.
    assert_eq!(m.mentions.len(), 1);
    assert_eq!(m.mentions[0].as_str(), "@bob:example.org");
    assert!(
        m.html.contains(
            "<a href=\"https://matrix.to/#/@bob:example.org\">Bob &lt;the&gt; Bold</a>: your turn"
        ),
        "{}",
        m.html
    );
    assert!(m.html.contains("<code>!move b1</code>"), "{}", m.html);
    assert_eq!(
        png_size(&m.image.as_ref().unwrap().1),
        Some((624, 716)),
        "the Lanrick board is 624 × 716"
    );
}

#[test]
fn errors_answer_the_sender_by_name_and_mention_only_him() {
    let out = plan(
        vec![Reply::Private("`z9`: not a square.".into())],
        ("@alice:example.org", "alice"),
    );
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].body, "alice: `z9`: not a square.");
    assert_eq!(out[0].mentions.len(), 1);
    assert_eq!(out[0].mentions[0].as_str(), "@alice:example.org");
    assert!(out[0].image.is_none() && out[0].file.is_none());
}

#[test]
fn the_askers_own_board_is_the_image_of_the_message_addressed_to_him() {
    let Reply::Board(own) = board() else {
        unreachable!()
    };
    let out = plan(
        vec![
            Reply::Board(Box::new(own.private())),
            Reply::Private("alice (White) to decide: place a man.".into()),
        ],
        ("@bob:example.org", "bob"),
    );
    // Matrix has no message for one member's eyes: it is addressed to him, and only he is
    // mentioned; the board is its image.
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].body, "bob: alice (White) to decide: place a man.");
    assert_eq!(out[0].mentions.len(), 1);
    assert_eq!(out[0].mentions[0].as_str(), "@bob:example.org");
    let (name, png, _) = out[0].image.as_ref().expect("the board");
    assert_eq!(name, "g0-000.png");
    assert!(png.starts_with(b"\x89PNG"));
}

#[test]
fn two_boards_are_two_images_and_text_captions_what_it_follows_or_precedes() {
    let out = plan(
        vec![
            Reply::Text("first".into()),
            board(),
            Reply::Text("second".into()),
            board(),
            Reply::Text("The record:".into()),
            Reply::File {
                name: "g0.txt".into(),
                content: "a1\nh8\n".into(),
            },
        ],
        ("@a:x", "a"),
    );
    // The text after a board belongs to it, as on Discord.
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[0].body, "first\nsecond");
    assert!(out[1].image.is_some() && out[1].body == "The record:");
    assert_eq!(out[2].file.as_ref().unwrap().1, b"a1\nh8\n");
    // Without a board before it, the text captions the file (`export`).
    let out = plan(
        vec![
            Reply::Text("The record:".into()),
            Reply::File {
                name: "g0.txt".into(),
                content: "a1\n".into(),
            },
        ],
        ("@a:x", "a"),
    );
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].body, "The record:");
    assert_eq!(out[0].file.as_ref().unwrap().0, "g0.txt");
    assert_eq!(html("a < b & `c`"), "a &lt; b &amp; <code>c</code>");
    assert_eq!(html("one ` tick"), "one ` tick");
}

#[test]
fn a_games_page_is_a_link_in_the_message_that_starts_it() {
    let url = "https://games.example.org/g/00112233445566778899aabbccddeeff";
    let out = plan(
        vec![
            Reply::Text("The game begins: alice (White) vs bob (Black).".into()),
            Reply::Link {
                kind: muster_core::kernel::reply::LinkKind::Watch,
                url: url.into(),
            },
            board(),
        ],
        ("@alice:example.org", "alice"),
    );
    assert_eq!(out.len(), 1, "{out:?}");
    let m = &out[0];
    assert_eq!(
        m.body,
        format!("The game begins: alice (White) vs bob (Black).\nWatch on the web: {url}")
    );
    assert!(
        m.html
            .contains(&format!("<a href=\"{url}\">Watch on the web</a>")),
        "{}",
        m.html
    );
}

#[test]
fn each_further_board_for_the_asker_is_a_message_of_its_own_with_its_words() {
    let Reply::Board(own) = board() else {
        unreachable!()
    };
    let private = || Reply::Board(Box::new(own.clone().private()));
    // The rules in steps: words, then each step's board before its words.
    let out = plan(
        vec![
            Reply::Private("Lanrick.".into()),
            private(),
            Reply::Private("1. Placement.".into()),
            private(),
            Reply::Private("2. The mark.".into()),
        ],
        ("@bob:example.org", "bob"),
    );
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0].body, "bob: Lanrick.\n1. Placement.");
    assert_eq!(out[1].body, "bob: 2. The mark.");
    for m in &out {
        assert!(m.image.is_some(), "{m:?}");
        assert_eq!(m.mentions.len(), 1);
        assert_eq!(m.mentions[0].as_str(), "@bob:example.org");
    }
}
