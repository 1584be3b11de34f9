//! One player on two platforms, end to end: one `muster serve` process serving Discord (the
//! stand-in) and Matrix (a real Synapse). alice asks for a code with `/link` on Discord, which
//! only she sees, says `!link CODE` in a Matrix room as her Matrix account, and both platforms'
//! `whoami` then show the two accounts as one player; the code does not work twice. The
//! settings make the stand-in's server and the homeserver's rooms one community: the game she
//! then plays on Matrix counts for her one rating, which Discord shows her, and her dashboard on
//! Discord lists it.

mod matrix_play;

use matrix_play::{CROQUET, answer, challenge, invite_bot, open_room, play, record, to_move};
use muster_tests::discord::bot::{self, Mode, callback, ephemeral, runtime, slash, text};
use muster_tests::discord::{Person, StandIn};
use muster_tests::matrix_bot::table;
use muster_tests::{data_dir, muster_binary};
use serde_json::json;

#[test]
fn a_discord_account_and_a_matrix_account_are_linked_with_a_code() {
    runtime().block_on(async {
        let t = table().await;
        let standin = StandIn::start(bot::APP).await;
        let dir = data_dir("linked-accounts", "both");
        let homeserver = t.synapse.url();
        let alice_mx = t.alice.user_id();
        let matrix = [
            ("MUSTER_MATRIX_HOMESERVER", homeserver.as_str()),
            ("MUSTER_MATRIX_USER", t.bot.user_id.as_str()),
            ("MUSTER_MATRIX_PASSWORD", t.bot.password.as_str()),
            ("MUSTER_MATRIX_AUTO_JOIN", alice_mx.as_str()),
        ];
        std::fs::create_dir_all(&dir).expect("a data directory");
        std::fs::write(
            dir.join("muster.toml"),
            format!(
                "[communities.club]\ndiscord = [\"{}\"]\nmatrix = [\"*\"]\n",
                bot::GUILD
            ),
        )
        .expect("the settings");
        let muster = bot::start(&standin, &muster_binary!(), &dir, Mode::Gateway, &matrix).await;
        muster
            .wait_log("the Matrix adapter to listen", |l| {
                l.contains("listening as").then_some(())
            })
            .await;
        let room = open_room(&t, "Linking", false).await;
        invite_bot(&t, &room).await;

        // On Discord: a code, for alice's eyes only.
        let alice = Person::new("alice");
        let asked = callback(&slash(&standin, &muster, &alice, "link", json!([])).await);
        assert!(ephemeral(&asked), "{}", text(&asked));
        let said = text(&asked);
        let code = said
            .split('`')
            .find_map(|w| w.strip_prefix("!link "))
            .unwrap_or_else(|| panic!("what to say on Matrix: {said}"))
            .to_string();
        assert!(said.contains("on Matrix"), "{said}");

        // On Matrix, as her Matrix account: linked.
        let ev = t.alice.send_text(&room, &format!("!link {code}")).await;
        let linked = answer(&t.alice, &room, &t.bot.user_id, &ev).await;
        assert!(linked.body.contains("are one player now"), "{linked:?}");
        assert!(linked.body.contains("on Discord"), "{linked:?}");
        let ev = t.alice.send_text(&room, "!whoami").await;
        let who = answer(&t.alice, &room, &t.bot.user_id, &ev).await;
        assert!(who.body.contains("Linked with Alice on Discord"), "{who:?}");
        let who = callback(&slash(&standin, &muster, &alice, "whoami", json!([])).await);
        let who = text(&who);
        assert!(who.contains("Linked with"), "{who}");
        assert!(
            who.contains(&format!("on Matrix (id `{alice_mx}`)")),
            "{who}"
        );

        // The code was used: bob cannot use it again.
        let ev = t.bob.send_text(&room, &format!("!link {code}")).await;
        let refused = answer(&t.bob, &room, &t.bot.user_id, &ev).await;
        assert!(refused.body.contains("used already"), "{refused:?}");

        // A rated game on Matrix: two moves each, then bob resigns.
        let mut board = challenge(&t, &room, "croquet").await;
        for mv in record(CROQUET).into_iter().take(4) {
            board = play(&t, &room, &t.bot.user_id, &board, mv).await;
        }
        let mover = to_move(&board, &[&t.alice, &t.bob]);
        let loser = if mover.user_id() == alice_mx {
            &t.alice
        } else {
            &t.bob
        };
        let ev = loser.send_text(&room, "!resign").await;
        let over = answer(loser, &room, &t.bot.user_id, &ev).await;
        assert!(over.body.contains("resign"), "{over:?}");
        // On Discord, alice's rating is the community's, made by her game on Matrix.
        let asked = callback(
            &slash(
                &standin,
                &muster,
                &alice,
                "rating",
                json!([{"name": "game", "type": 4, "value": 2}]),
            )
            .await,
        );
        let said = text(&asked);
        assert!(
            said.contains("Arithmetical Croquet") && said.contains("1 game"),
            "{said}"
        );
        // Her dashboard on Discord lists the game she played on Matrix.
        let asked = callback(&slash(&standin, &muster, &alice, "games", json!([])).await);
        let said = text(&asked);
        assert!(said.contains("Finished games"), "{said}");
        assert!(
            said.contains("croquet") || said.contains("Croquet"),
            "{said}"
        );
        muster.terminate();
        let _ = std::fs::remove_dir_all(&dir);
    });
}
