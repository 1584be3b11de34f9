//! The load test of several instances (docs/performance.md, "Several instances"): hundreds of
//! channels, each a Lanrick game played by signed interactions in Discord's HTTP mode, every
//! move sent twice at the same moment (a doubled click, once to each instance) — on two
//! instances sharing a PostgreSQL store, and on one instance on sled for comparison. It prints
//! moves per second, the latency of the answers (p50, p99), and counts the moves applied twice
//! or lost, which must be 0.
//!
//! Not part of the test run (it measures; it asserts only that nothing was lost or doubled):
//! `scripts/load-test` runs it in a release build. `MUSTER_LOAD_CHANNELS` (default 200) and
//! `MUSTER_LOAD_MOVES` (moves per game, default 20) size it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use muster_core::store::{ChannelKey, GameStore, PgStore, SledStore};
use muster_rules::{AnyGame, GameId};
use muster_tests::discord::bot::{self, GUILD, Mode, callback, ephemeral, runtime, text};
use muster_tests::discord::{Person, StandIn, button, command};
use muster_tests::postgres::Postgres;
use muster_tests::{data_dir, muster_binary};
use serde_json::json;

const WHOLE_GAME: &str = include_str!("../../docs/examples/lanrick-whole-game.txt");
const ANSWER_WITHIN: Duration = Duration::from_secs(120);

fn sized(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Posts `interaction` to `endpoint`; once answered, whether only its sender saw the answer
/// (a refusal), its text, and how long the answer took.
async fn send(
    standin: &StandIn,
    endpoint: &str,
    interaction: serde_json::Value,
) -> (bool, String, Duration) {
    let token = interaction["token"].as_str().unwrap().to_string();
    let mark = standin.mark();
    let sent = Instant::now();
    let (status, body) = standin.post_interaction(endpoint, interaction).await;
    assert_eq!(status, 202, "{body}");
    let first = standin
        .wait_for_since(
            mark,
            &format!("the answer to {token}"),
            |r| r.path.contains(&token) && r.callback_type().is_some(),
            ANSWER_WITHIN,
        )
        .await;
    let (private, mut said) = {
        let a = callback(std::slice::from_ref(&first));
        (ephemeral(&a), text(&a))
    };
    if first.callback_type() == Some(5) {
        // Deferred while the board was drawn: the answer is the edit that follows.
        let edit = standin
            .wait_for_since(
                mark,
                &format!("the deferred answer to {token}"),
                |r| r.path.contains(&token) && r.is("PATCH", "/messages/@original"),
                ANSWER_WITHIN,
            )
            .await;
        said = edit.json["content"].as_str().unwrap_or("").to_string();
    }
    (private, said, sent.elapsed())
}

struct Table {
    channel: String,
    players: [Person; 2],
}

/// Makes `n` games, one a channel, each challenged at one endpoint and accepted at another.
async fn tables(standin: &StandIn, endpoints: &[String], n: usize) -> Vec<Table> {
    let mut out = Vec::new();
    for i in 0..n {
        let channel = format!("{}", 1_300_000_000_001_000_000u64 + i as u64);
        let white = Person::new(&format!("white{i}"));
        let black = Person::new(&format!("black{i}"));
        let options = json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "opponent", "type": 6, "value": black.id},
        ]);
        let new = command("new", options, &white, &channel, Some(GUILD));
        let (private, said, _) = send(standin, &endpoints[i % endpoints.len()], new).await;
        assert!(!private, "{said}");
        let challenge = standin
            .messages()
            .into_iter()
            .rev()
            .find(|m| m.channel_id == channel && m.content.contains("challenges you"))
            .expect("the challenge");
        let accept = button("muster:accept", challenge, &black, &channel, Some(GUILD));
        let (private, said, _) = send(standin, &endpoints[(i + 1) % endpoints.len()], accept).await;
        assert!(!private, "{said}");
        out.push(Table {
            channel,
            players: [white, black],
        });
    }
    out
}

struct Figures {
    applied: usize,
    refused: usize,
    seconds: f64,
    latencies: Vec<Duration>,
}

/// Plays `moves` in every game at once, each move sent to both endpoints (the same one twice
/// when there is one) at the same moment.
async fn play(
    standin: &Arc<StandIn>,
    endpoints: &[String],
    tables: Vec<Table>,
    moves: &[&'static str],
) -> (Figures, Vec<Table>) {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for table in tables {
        let standin = Arc::clone(standin);
        let endpoints = endpoints.to_vec();
        let moves: Vec<&'static str> = moves.to_vec();
        tasks.push(tokio::spawn(async move {
            let mut game = AnyGame::new(GameId::Lanrick);
            let (mut applied, mut refused, mut latencies) = (0, 0, Vec::new());
            for mv in moves {
                let seat = game.to_move().expect("a seat to move");
                let mover = &table.players[seat.index()];
                let options = json!([{"name": "notation", "type": 3, "value": mv}]);
                let one = command("move", options.clone(), mover, &table.channel, Some(GUILD));
                let two = command("move", options, mover, &table.channel, Some(GUILD));
                let (a, b) = tokio::join!(
                    send(&standin, &endpoints[0], one),
                    send(&standin, &endpoints[endpoints.len() - 1], two)
                );
                let won: Vec<_> = [&a, &b].into_iter().filter(|r| !r.0).collect();
                assert_eq!(won.len(), 1, "{mv} in {}: {a:?} / {b:?}", table.channel);
                applied += 1;
                refused += 1;
                latencies.push(won[0].2);
                game.play_text(seat, mv).expect("the record's move");
            }
            (table, applied, refused, latencies)
        }));
    }
    let mut figures = Figures {
        applied: 0,
        refused: 0,
        seconds: 0.0,
        latencies: Vec::new(),
    };
    let mut tables = Vec::new();
    for t in tasks {
        let (table, applied, refused, latencies) = t.await.expect("a game's task");
        figures.applied += applied;
        figures.refused += refused;
        figures.latencies.extend(latencies);
        tables.push(table);
    }
    figures.seconds = started.elapsed().as_secs_f64();
    figures.latencies.sort();
    (figures, tables)
}

/// Compares every game in `store` with the moves sent: the count of moves applied twice or
/// lost.
fn audit(store: &dyn GameStore, tables: &[Table], moves: &[&str]) -> (usize, usize) {
    let (mut doubled, mut lost) = (0, 0);
    for t in tables {
        let record = store
            .load(&ChannelKey::new("discord", &t.channel))
            .unwrap()
            .expect("the game lives");
        doubled += record.moves.len().saturating_sub(moves.len());
        lost += moves.len().saturating_sub(record.moves.len());
        let same = record.moves.iter().zip(moves).all(|(a, b)| a == b);
        assert!(same, "{}: {:?}", t.channel, record.moves);
    }
    (doubled, lost)
}

fn report(what: &str, channels: usize, f: &Figures, doubled: usize, lost: usize) {
    let at = |q: f64| {
        let i = ((f.latencies.len() as f64 - 1.0) * q).round() as usize;
        f.latencies[i].as_secs_f64() * 1000.0
    };
    println!(
        "{what}: {channels} channels, {} moves applied ({} doubled clicks refused) in {:.1} s: \
         {:.1} moves/s; latency p50 {:.0} ms, p99 {:.0} ms; applied twice {doubled}, lost {lost}",
        f.applied,
        f.refused,
        f.seconds,
        f.applied as f64 / f.seconds,
        at(0.5),
        at(0.99),
    );
}

fn moves() -> Vec<&'static str> {
    let n = sized("MUSTER_LOAD_MOVES", 20);
    WHOLE_GAME
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(n)
        .collect()
}

/// Settings for every instance: answers are not deferred unless they take 2.5 s.
const PATIENT: (&str, &str) = ("MUSTER_DISCORD_DEFER_AFTER_MS", "2500");

#[test]
#[ignore = "a measurement: run by scripts/load-test"]
fn load_two_instances_on_postgres() {
    runtime().block_on(async {
        let channels = sized("MUSTER_LOAD_CHANNELS", 200);
        let pg = Postgres::start_durable();
        let url = pg.database();
        let standin = Arc::new(StandIn::start(bot::APP).await);
        let (dir_a, dir_b) = (data_dir("load", "a"), data_dir("load", "b"));
        let extra = [("MUSTER_STORE", url.as_str()), PATIENT];
        let a = bot::start(&standin, &muster_binary!(), &dir_a, Mode::Http, &extra).await;
        let b = bot::start(&standin, &muster_binary!(), &dir_b, Mode::Http, &extra).await;
        let endpoints = vec![a.endpoint.clone().unwrap(), b.endpoint.clone().unwrap()];
        let tables = tables(&standin, &endpoints, channels).await;
        let moves = moves();
        let (figures, tables) = play(&standin, &endpoints, tables, &moves).await;
        let store = PgStore::open(&url).unwrap();
        let (doubled, lost) = audit(&store, &tables, &moves);
        report(
            "two instances on PostgreSQL",
            channels,
            &figures,
            doubled,
            lost,
        );
        assert_eq!((doubled, lost), (0, 0));
        drop((a, b));
        let _ = std::fs::remove_dir_all(dir_a);
        let _ = std::fs::remove_dir_all(dir_b);
    });
}

#[test]
#[ignore = "a measurement: run by scripts/load-test"]
fn load_one_instance_on_sled() {
    runtime().block_on(async {
        let channels = sized("MUSTER_LOAD_CHANNELS", 200);
        let standin = Arc::new(StandIn::start(bot::APP).await);
        let dir = data_dir("load", "sled");
        let one = bot::start(&standin, &muster_binary!(), &dir, Mode::Http, &[PATIENT]).await;
        let endpoints = vec![one.endpoint.clone().unwrap()];
        let tables = tables(&standin, &endpoints, channels).await;
        let moves = moves();
        let (figures, tables) = play(&standin, &endpoints, tables, &moves).await;
        drop(one);
        // The store is read once the instance is gone (sled is one process's).
        let store = (0..100)
            .find_map(|_| {
                std::thread::sleep(Duration::from_millis(50));
                SledStore::open(&dir.join("data").join("store")).ok()
            })
            .expect("the store opens");
        let (doubled, lost) = audit(&store, &tables, &moves);
        report("one instance on sled", channels, &figures, doubled, lost);
        assert_eq!((doubled, lost), (0, 0));
        let _ = std::fs::remove_dir_all(dir);
    });
}
