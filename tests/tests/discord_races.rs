//! Races through Discord's HTTP-interactions endpoint: signed interactions of the shape Discord
//! sends, two at the same moment, to the built binary on the sled store — two different moves
//! by the player to move, the same move clicked twice, a move and the opponent's resignation.
//! Exactly one of each pair wins; the other is answered privately with why; and the store then
//! holds exactly the moves that were answered as played. `MUSTER_RACES` sets how many pairs
//! (1,000 by default). The same in the core: bot/core/tests/races.rs.

use muster_core::store::{ChannelKey, SledStore, Status};
use muster_core::store::{Lists, Live};
use muster_rules::search::Rng;
use muster_rules::{AnyGame, GameId};
use muster_tests::discord::bot::{self, GUILD, Mode, answered, runtime};
use muster_tests::discord::{Person, StandIn, command};
use muster_tests::{data_dir, muster_binary};
use serde_json::json;

/// One channel's game as the players know it from the answers they got.
struct Table {
    channel: String,
    players: [Person; 2],
    game: AnyGame,
    moves: Vec<String>,
    /// Every game this channel had, as the answers left them: its moves, and whether it ended.
    done: Vec<(Vec<String>, bool)>,
}

fn play(mv: &str) -> serde_json::Value {
    json!([{"name": "notation", "type": 3, "value": mv}])
}

#[test]
fn a_thousand_races_through_the_endpoint_each_have_one_winner() {
    let races: usize = std::env::var("MUSTER_RACES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    runtime().block_on(async {
        let standin = StandIn::start(bot::APP).await;
        let dir = data_dir("discord-races", "sled");
        let muster = bot::start(&standin, &muster_binary!(), &dir, Mode::Http, &[]).await;
        let endpoint = muster.endpoint.clone().expect("HTTP mode");
        let mut rng = Rng::new(0xd15c_0001);
        let mut tables: Vec<Table> = (0..16)
            .map(|i| Table {
                channel: format!("13000000000000{:05}", 90_000 + i),
                players: [Person::new(&format!("w{i}")), Person::new(&format!("b{i}"))],
                game: AnyGame::new(GameId::Lanrick),
                moves: Vec::new(),
                done: Vec::new(),
            })
            .collect();
        let (mut two_moves, mut doubled, mut resigns, mut resign_won) = (0, 0, 0, 0);
        for n in 0..races {
            let t = &mut tables[n % 16];
            if t.moves.is_empty() && t.done.len() == t.done.iter().filter(|d| d.1).count() {
                // A new game: challenged and accepted.
                let options = json!([
                    {"name": "game", "type": 4, "value": 0},
                    {"name": "opponent", "type": 6, "value": t.players[1].id},
                ]);
                let new = command("new", options, &t.players[0], &t.channel, Some(GUILD));
                let (private, said) = answered(&standin, &endpoint, new).await;
                assert!(!private, "{said}");
                let accept = command("accept", json!([]), &t.players[1], &t.channel, Some(GUILD));
                let (private, said) = answered(&standin, &endpoint, accept).await;
                assert!(!private, "{said}");
                t.done.push((Vec::new(), false));
            }
            let seat = t.game.to_move().expect("a seat to move").index();
            let listed = t.game.legal_moves_text();
            let one = listed[rng.below(listed.len())].clone();
            let mut kind = rng.below(3);
            // Where the player is still to move after his first move (a Lanrick player moving
            // several wanderers in a row), two different moves could both land, one after the
            // other, in an order the answers do not tell: there he clicks one move twice.
            let mut after_one = t.game.clone();
            after_one
                .play_text(after_one.to_move().expect("a seat to move"), &one)
                .expect("listed");
            if kind == 0 && after_one.to_move().map(|s| s.index()) == Some(seat) {
                kind = 1;
            }
            let (second_player, second) = match kind {
                0 => (seat, listed[rng.below(listed.len())].clone()),
                1 => (seat, one.clone()),
                _ => (1 - seat, String::new()),
            };
            let a = command(
                "move",
                play(&one),
                &t.players[seat],
                &t.channel,
                Some(GUILD),
            );
            let b = if kind == 2 {
                command(
                    "resign",
                    json!([]),
                    &t.players[second_player],
                    &t.channel,
                    Some(GUILD),
                )
            } else {
                command(
                    "move",
                    play(&second),
                    &t.players[second_player],
                    &t.channel,
                    Some(GUILD),
                )
            };
            let ((a_private, a_said), (b_private, b_said)) = tokio::join!(
                answered(&standin, &endpoint, a),
                answered(&standin, &endpoint, b)
            );
            let ctx = format!("race {n} in {}: {a_said:?} / {b_said:?}", t.channel);
            assert!(!(a_private && b_private), "both refused: {ctx}");
            for (private, said) in [(a_private, &a_said), (b_private, &b_said)] {
                if private {
                    assert!(!said.trim().is_empty(), "an empty refusal: {ctx}");
                }
            }
            if !a_private {
                let s = t.game.to_move().expect("a seat to move");
                t.game.play_text(s, &one).expect("listed");
                t.moves.push(one.clone());
            }
            match kind {
                2 => {
                    resigns += 1;
                    if !b_private {
                        resign_won += 1;
                        let entry = t.done.last_mut().expect("a game");
                        *entry = (t.moves.clone(), true);
                        t.moves.clear();
                        t.game = AnyGame::new(GameId::Lanrick);
                        continue;
                    }
                }
                _ => {
                    // Two moves by the same player: exactly one lands.
                    assert!(a_private != b_private, "{ctx}");
                    if !b_private {
                        let s = t.game.to_move().expect("a seat to move");
                        t.game.play_text(s, &second).expect("listed");
                        t.moves.push(second.clone());
                    }
                    if kind == 0 {
                        two_moves += 1;
                    } else {
                        doubled += 1;
                    }
                }
            }
            let entry = t.done.last_mut().expect("a game");
            entry.0 = t.moves.clone();
            if t.game.outcome().is_some() {
                entry.1 = true;
                t.moves.clear();
                t.game = AnyGame::new(GameId::Lanrick);
            }
        }
        drop(muster);
        // The store holds exactly what the answers said: nothing lost, nothing applied twice.
        let store = open(&dir.join("data").join("store"));
        let mut by_channel: std::collections::BTreeMap<String, Vec<_>> = Default::default();
        for id in store.archive_ids().unwrap() {
            let r = store.archived(&id).unwrap().unwrap();
            by_channel.entry(r.channel.clone()).or_default().push(r);
        }
        for t in &tables {
            let mut kept = by_channel.remove(&t.channel).unwrap_or_default();
            if let Some(r) = store.load(&ChannelKey::new("discord", &t.channel)).unwrap() {
                kept.push(r);
            }
            kept.sort_by_key(|r| muster_core::store::record::id_number(&r.id));
            let stored: Vec<(Vec<String>, bool)> = kept
                .iter()
                .map(|r| (r.moves.clone(), r.status == Status::Finished))
                .collect();
            assert_eq!(stored, t.done, "channel {}", t.channel);
        }
        eprintln!(
            "races through the endpoint: {races} ({two_moves} two moves, {doubled} one move \
             clicked twice, {resigns} move and resignation — the resignation won {resign_won})"
        );
        let _ = std::fs::remove_dir_all(dir);
    });
}

/// The store, once the killed process has let go of it.
fn open(path: &std::path::Path) -> SledStore {
    for _ in 0..100 {
        if let Ok(s) = SledStore::open(path) {
            return s;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    SledStore::open(path).expect("the store opens")
}
