//! Two Muster instances in Discord's HTTP-interactions mode on one PostgreSQL store, as behind a
//! load balancer: any instance answers any interaction; the same move sent to both at once is
//! applied once; an instance killed mid-game loses nothing, and the other plays on.

use muster_core::store::Live;
use muster_core::store::{ChannelKey, PgStore};
use muster_tests::discord::bot::{
    self, CHANNEL, GUILD, Mode, WAIT, answered, callback, ephemeral, press, runtime, slash, text,
};
use muster_tests::discord::{Person, StandIn, command};
use muster_tests::postgres::Postgres;
use muster_tests::{data_dir, muster_binary};
use serde_json::json;

const WHOLE_GAME: &str = include_str!("../../docs/examples/lanrick-whole-game.txt");

/// Who the newest public message asks to move.
fn to_move<'a>(standin: &StandIn, players: &[&'a Person]) -> &'a Person {
    let content = standin
        .messages()
        .into_iter()
        .rev()
        .find(|m| m.channel_id == CHANNEL && m.flags & 64 == 0 && m.content.contains("your turn"))
        .expect("a message calling a player")
        .content;
    let line = content.lines().find(|l| l.contains("your turn")).unwrap();
    players
        .iter()
        .copied()
        .find(|p| line.starts_with(&p.mention()))
        .expect("one of the players")
}

fn move_options(mv: &str) -> serde_json::Value {
    json!([{"name": "notation", "type": 3, "value": mv}])
}

#[test]
fn two_http_instances_share_games_race_once_and_survive_a_kill() {
    runtime().block_on(async {
        let pg = Postgres::start();
        let url = pg.database();
        let standin = StandIn::start(bot::APP).await;
        let (dir_a, dir_b) = (
            data_dir("discord-instances", "a"),
            data_dir("discord-instances", "b"),
        );
        let extra = [("MUSTER_STORE", url.as_str())];
        let a = bot::start(&standin, &muster_binary!(), &dir_a, Mode::Http, &extra).await;
        let b = bot::start(&standin, &muster_binary!(), &dir_b, Mode::Http, &extra).await;
        let (alice, bob) = (Person::new("alice"), Person::new("bob"));
        let players = [&alice, &bob];
        // A challenge made at one instance is accepted at the other.
        let options = json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "opponent", "type": 6, "value": bob.id},
        ]);
        slash(&standin, &a, &alice, "new", options).await;
        let challenge = bot::newest_saying(&standin, "challenges you");
        let out = press(&standin, &b, &bob, "muster:accept", &challenge).await;
        assert!(!ephemeral(&callback(&out)), "{}", text(&callback(&out)));

        let moves: Vec<&str> = WHOLE_GAME
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .take(24)
            .collect();
        let mut a = Some(a);
        let mut races = 0;
        for (i, mv) in moves.iter().enumerate() {
            if i == 16 {
                // One instance dies mid-game, at once (SIGKILL); the other plays on.
                drop(a.take());
            }
            let mover = to_move(&standin, &players);
            let endpoints: Vec<String> = [a.as_ref(), Some(&b)]
                .into_iter()
                .flatten()
                .map(|bot| bot.endpoint.clone().unwrap())
                .collect();
            if i == 0 {
                // One interaction delivered to both instances, as a proxy's retry would: the
                // first to claim its id in the store answers it, the other leaves it — one
                // response to Discord, the move applied once.
                let one = command("move", move_options(mv), mover, CHANNEL, Some(GUILD));
                let token = one["token"].as_str().unwrap().to_string();
                let mark = standin.mark();
                let (x, y) = tokio::join!(
                    standin.post_interaction(&endpoints[0], one.clone()),
                    standin.post_interaction(&endpoints[1], one)
                );
                assert_eq!((x.0, y.0), (202, 202));
                standin
                    .wait_for_since(
                        mark,
                        "the answer to the interaction",
                        |r| r.path.contains(&token) && r.callback_type().is_some_and(|t| t != 5),
                        WAIT,
                    )
                    .await;
                tokio::time::sleep(std::time::Duration::from_secs(2)).await;
                let responses = standin.requests()[mark..]
                    .iter()
                    .filter(|r| r.path.contains(&token) && r.path.ends_with("/callback"))
                    .count();
                assert_eq!(responses, 1, "{}\n{}", a.as_ref().unwrap().log(), b.log());
            } else if endpoints.len() == 2 && i % 3 == 1 {
                // The same move, clicked twice: once at each instance, at the same moment.
                races += 1;
                let one = command("move", move_options(mv), mover, CHANNEL, Some(GUILD));
                let two = command("move", move_options(mv), mover, CHANNEL, Some(GUILD));
                let (first, second) = tokio::join!(
                    answered(&standin, &endpoints[0], one),
                    answered(&standin, &endpoints[1], two)
                );
                let applied = [&first, &second]
                    .iter()
                    .filter(|(private, _)| !private)
                    .count();
                assert_eq!(applied, 1, "{mv}: {first:?} / {second:?}");
                let refusal = if first.0 { &first.1 } else { &second.1 };
                assert!(!refusal.trim().is_empty(), "a refusal says why");
            } else {
                let endpoint = &endpoints[i % endpoints.len()];
                let one = command("move", move_options(mv), mover, CHANNEL, Some(GUILD));
                let (private, said) = answered(&standin, endpoint, one).await;
                assert!(!private, "{mv} refused: {said}\n{}", b.log());
            }
        }
        assert!(races >= 4);
        // Every move once, in order: none lost, none applied twice.
        let store = PgStore::open(&url).unwrap();
        let game = store
            .load(&ChannelKey::new("discord", CHANNEL))
            .unwrap()
            .expect("the game lives");
        assert_eq!(game.moves, moves);
        drop(b);
        let _ = std::fs::remove_dir_all(dir_a);
        let _ = std::fs::remove_dir_all(dir_b);
    });
}

#[test]
fn gateway_shards_split_between_two_instances() {
    runtime().block_on(async {
        let pg = Postgres::start();
        let url = pg.database();
        let standin = StandIn::start(bot::APP).await;
        let (dir_a, dir_b) = (
            data_dir("discord-shards", "a"),
            data_dir("discord-shards", "b"),
        );
        let a = bot::start(
            &standin,
            &muster_binary!(),
            &dir_a,
            Mode::Gateway,
            &[
                ("MUSTER_STORE", url.as_str()),
                ("MUSTER_DISCORD_SHARDS", "0/2"),
            ],
        )
        .await;
        let b = bot::start(
            &standin,
            &muster_binary!(),
            &dir_b,
            Mode::Gateway,
            &[
                ("MUSTER_STORE", url.as_str()),
                ("MUSTER_DISCORD_SHARDS", "1/2"),
            ],
        )
        .await;
        standin.wait_connections(2, WAIT).await;
        let mut shards: Vec<serde_json::Value> = standin
            .identifies()
            .iter()
            .map(|d| d["shard"].clone())
            .collect();
        shards.sort_by_key(|s| s[0].as_u64());
        assert_eq!(shards, vec![json!([0, 2]), json!([1, 2])]);
        // The commands are registered once, by shard 0.
        standin
            .wait_for("command registration", |r| r.is("PUT", "/commands"), WAIT)
            .await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let registrations = standin
            .requests()
            .iter()
            .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
            .count();
        assert_eq!(registrations, 1, "{}", a.log());
        // An interaction dispatched to the newest session (shard 1's) is answered by its
        // instance.
        let alice = Person::new("alice");
        let out = slash(&standin, &b, &alice, "rules", json!([])).await;
        assert!(!text(&callback(&out)).is_empty());
        drop((a, b));
        let _ = std::fs::remove_dir_all(dir_a);
        let _ = std::fs::remove_dir_all(dir_b);
    });
}

#[test]
fn an_outage_of_the_database_is_told_and_nothing_is_lost() {
    runtime().block_on(async {
        let pg = Postgres::start();
        let url = pg.database();
        let standin = StandIn::start(bot::APP).await;
        let dir = data_dir("discord-instances", "outage");
        let ops = muster_tests::free_addr();
        let extra = [
            ("MUSTER_STORE", url.as_str()),
            ("MUSTER_OPS_LISTEN", ops.as_str()),
        ];
        let one = bot::start(&standin, &muster_binary!(), &dir, Mode::Http, &extra).await;
        let log = || one.log();
        let ready = muster_tests::wait_http(&ops, "/readyz", 200, WAIT, log).await;
        assert!(ready.contains("store: ready"), "{ready}");
        let (alice, bob) = (Person::new("alice"), Person::new("bob"));
        let options = json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "opponent", "type": 6, "value": bob.id},
        ]);
        slash(&standin, &one, &alice, "new", options).await;
        let challenge = bot::newest_saying(&standin, "challenges you");
        press(&standin, &one, &bob, "muster:accept", &challenge).await;
        let endpoint = one.endpoint.clone().unwrap();
        let first = WHOLE_GAME
            .lines()
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap();

        // The database goes away: the move is refused privately, saying why; readiness
        // follows within the scheduler's look at the store (15 s).
        pg.pause();
        let mv = command("move", move_options(first), &alice, CHANNEL, Some(GUILD));
        let (private, said) = answered(&standin, &endpoint, mv).await;
        assert!(private, "{said}");
        assert!(said.contains("store"), "{said}");
        let wait = std::time::Duration::from_secs(40);
        let down = muster_tests::wait_http(&ops, "/readyz", 503, wait, log).await;
        assert!(down.contains("store: "), "{down}");

        // Back: ready again, and the move goes through, once.
        pg.resume();
        muster_tests::wait_http(&ops, "/readyz", 200, wait, log).await;
        let mv = command("move", move_options(first), &alice, CHANNEL, Some(GUILD));
        let (private, said) = answered(&standin, &endpoint, mv).await;
        assert!(!private, "{said}\n{}", one.log());
        let store = PgStore::open(&url).unwrap();
        let game = store
            .load(&ChannelKey::new("discord", CHANNEL))
            .unwrap()
            .unwrap();
        assert_eq!(game.moves, vec![first]);
        drop(one);
        let _ = std::fs::remove_dir_all(dir);
    });
}
