//! The web pages linked from Discord (docs/web.md): the message that starts a game carries a
//! link button to its page, which stays when the newer boards take the other buttons away; the
//! page it opens shows the game.

use std::io::{Read, Write};

use muster_tests::discord::bot::{self, Mode, callback, press, runtime, slash};
use muster_tests::discord::{Person, StandIn, StoredMessage};
use muster_tests::{data_dir, muster_binary};
use serde_json::{Value, json};

/// The link buttons of a message: label and address.
fn links(components: &Value) -> Vec<(String, String)> {
    components
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|b| b["style"] == 5)
        .map(|b| {
            (
                b["label"].as_str().unwrap_or_default().to_string(),
                b["url"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// The action buttons' custom ids of a message.
fn actions(m: &StoredMessage) -> usize {
    m.components
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|b| b["style"] != 5)
        .count()
}

/// The page at `url`: its status line and body.
fn fetch(url: &str) -> (String, String) {
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_once('/').unwrap();
    let mut s = std::net::TcpStream::connect(host).unwrap();
    write!(
        s,
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let status = raw.lines().next().unwrap_or_default().to_string();
    (status, raw)
}

#[test]
fn the_message_that_starts_a_game_has_a_link_button_to_its_page() {
    runtime().block_on(async {
        let standin = StandIn::start(bot::APP).await;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let listen = format!("127.0.0.1:{port}");
        let dir = data_dir("discord-web", "a");
        let extra = [("MUSTER_WEB_LISTEN", listen.as_str())];
        let bot = bot::start(&standin, &muster_binary!(), &dir, Mode::Http, &extra).await;
        let (alice, bob) = (Person::new("alice"), Person::new("bob"));
        slash(
            &standin,
            &bot,
            &alice,
            "new",
            json!([
                {"name": "game", "type": 4, "value": 0},
                {"name": "opponent", "type": 6, "value": bob.id},
            ]),
        )
        .await;
        let challenge = bot::newest_saying(&standin, "challenges you");
        let out = press(&standin, &bot, &bob, "muster:accept", &challenge).await;
        let started = callback(&out);
        let found = links(&started.data["components"]);
        let [(label, url)] = found.as_slice() else {
            panic!("not one link button: {}", started.data["components"]);
        };
        assert_eq!(label, "Watch on the web");
        assert!(url.starts_with(&format!("http://{listen}/g/")), "{url}");
        let (status, page) = fetch(url);
        assert!(status.contains("200"), "{status}");
        assert!(page.contains("Lanrick (Third Edition, 1881)"), "{page}");
        // The first move's board takes the older message's action buttons, not its link.
        let begun = bot::newest_saying(&standin, "The game begins");
        assert!(actions(&begun) > 0, "{}", begun.components);
        slash(
            &standin,
            &bot,
            &alice,
            "move",
            json!([{"name": "notation", "type": 3, "value": "b1"}]),
        )
        .await;
        let mut kept = standin.message(&begun.id).unwrap();
        for _ in 0..100 {
            if actions(&kept) == 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            kept = standin.message(&begun.id).unwrap();
        }
        assert_eq!(actions(&kept), 0, "{}", kept.components);
        assert_eq!(links(&kept.components), found);
        let (_, page) = fetch(url);
        assert!(page.contains("White b1"), "{page}");
    });
}
