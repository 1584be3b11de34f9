//! Crash consistency of the built binary: scripted games in many channels are fed to
//! `muster console` on the sled store and a manual clock, and the process is killed again and
//! again — with SIGKILL at random moments, and at exact ones (`MUSTER_FAULT_AFTER_WRITES`: just
//! after a write committed, before anything was said about it). After each kill the store is
//! read and compared with what was acknowledged, then Muster is started again on it and the
//! scripts go on from where the store says. Nothing acknowledged may be lost, nothing applied
//! twice, and every record must replay. Some games have a clock that runs out while Muster is
//! down or being killed, and a Swiss event pairs its rounds as its games time out.
//!
//! `MUSTER_CRASH_GAMES` sets how many games (100 by default), for longer runs by hand.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use muster_core::kernel::replayable::Replayable;
use muster_core::store::{ChannelKey, GameRecord, SledStore, Status};
use muster_core::store::{Lists, Live};
use muster_rules::search::Rng;
use muster_rules::{AnyGame, GameId};

/// The manual clock's start, 2026-11-25T10:00:00Z, in Unix seconds.
const START: u64 = 1_795_600_800;
/// How far the clock moves after each line.
const STEP: u64 = 60;
/// Channels the games are spread over.
const CHANNELS: usize = 20;

/// One game as the harness plays it: where, the lines that seat it, and its decisions with
/// the player who makes each.
struct Script {
    channel: String,
    game: GameId,
    timed: bool,
    setup: Vec<String>,
    moves: Vec<(String, String)>,
    /// Whether its last decision ends it (otherwise it ends by resignation).
    ends: bool,
}

/// A random game of `id` (decisions chosen from the listed ones, at most `plies`), seated by
/// `players` in order.
fn script(rng: &mut Rng, n: usize, id: GameId, timed: bool) -> Script {
    let channel = format!("k{}", n % CHANNELS);
    let seats = AnyGame::new(id).table().len();
    let players: Vec<String> = (0..seats)
        .map(|s| format!("{}{n}", ["ann", "bob", "cat", "dan"][s]))
        .collect();
    let mentions: Vec<String> = players[1..].iter().map(|p| format!("@{p}")).collect();
    let clock = if timed { " clock 20m" } else { "" };
    let mut setup = vec![format!(
        "{} {channel} new {} {}{clock}",
        players[0],
        id.as_str(),
        mentions.join(" ")
    )];
    for p in &players[1..] {
        setup.push(format!("{p} {channel} accept"));
    }
    let mut game = AnyGame::new(id);
    let mut moves = Vec::new();
    for _ in 0..6 + rng.below(8) {
        let Some(seat) = game.to_move() else { break };
        let listed = game.legal_moves_text();
        let chosen = if listed.is_empty() {
            "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7".to_string()
        } else {
            listed[rng.below(listed.len())].clone()
        };
        game.play_text(seat, &chosen).expect("listed, so accepted");
        moves.push((players[seat.index()].clone(), chosen));
    }
    Script {
        channel,
        game: id,
        timed,
        setup,
        moves,
        ends: game.outcome().is_some(),
    }
}

/// Muster running the console on `dir`.
struct Muster {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Muster {
    fn start(dir: &Path, at: u64, fault_after: Option<u64>) -> Muster {
        let start = time(at);
        let mut command = Command::new(muster_tests::muster_binary!());
        command
            .args([
                "console",
                "--data",
                dir.to_str().expect("UTF-8"),
                "--clock",
                "manual",
            ])
            .args(["--start", &start, "--script", "-"])
            .env_remove(muster_core::store::fault::VARIABLE)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(n) = fault_after {
            command.env(muster_core::store::fault::VARIABLE, n.to_string());
        }
        let mut child = command.spawn().expect("muster starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Muster {
            child,
            stdin,
            lines,
        }
    }

    /// Sends `line` and moves the clock to `to` after it; the lines printed up to the clock's
    /// line for `to` (it may stop earlier, where a deadline falls), or `None` if Muster died
    /// first.
    fn send(&mut self, line: &str, to: u64) -> Option<Vec<String>> {
        let to = time(to);
        writeln!(self.stdin, "{line}\n~ {to}").ok()?;
        self.stdin.flush().ok()?;
        let marker = format!("[clock] {to}");
        let mut out = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_secs(60)) {
                Ok(l) if l == marker => return Some(out),
                Ok(l) => out.push(l),
                Err(RecvTimeoutError::Disconnected) => return None,
                Err(RecvTimeoutError::Timeout) => panic!("muster stopped answering at {line:?}"),
            }
        }
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `at` as the console's clock reads it.
fn time(at: u64) -> String {
    muster_core::clock::rfc3339(at)
}

/// Every game the store holds, live or finished, by channel in the order they were made.
fn stored(dir: &Path) -> BTreeMap<String, Vec<GameRecord>> {
    // sled lets go of its lock a moment after the killed process is reaped.
    let mut tries = 0;
    let store = loop {
        match SledStore::open(&dir.join("store")) {
            Ok(s) => break s,
            Err(e) if tries < 100 => {
                tries += 1;
                let _ = e;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("the store does not open after a kill: {e:?}"),
        }
    };
    let mut games: BTreeMap<String, Vec<GameRecord>> = BTreeMap::new();
    for id in store.archive_ids().expect("the archive reads") {
        let r = store.archived(&id).expect("reads").expect("listed");
        games.entry(r.channel.clone()).or_default().push(r);
    }
    for c in 0..CHANNELS {
        let key = ChannelKey::new("console", format!("k{c}"));
        if let Some(r) = store.load(&key).expect("the store reads") {
            games.entry(r.channel.clone()).or_default().push(r);
        }
    }
    for list in games.values_mut() {
        list.sort_by_key(|r| muster_core::store::record::id_number(&r.id));
    }
    games
}

/// What the harness knows of one scripted game: how far it has been acknowledged.
#[derive(Default, Clone)]
struct Progress {
    /// Set-up lines acknowledged.
    setup: usize,
    /// Decisions acknowledged as played.
    moves: usize,
    /// The game ended (ran out of time, or its script is done and it was resigned).
    over: bool,
    /// A decision was refused: the game must have run out of time.
    ran_out: bool,
}

/// The Swiss event whose rounds are paired as its games run out of time.
const EVENT: [&str; 6] = [
    "org hall tournament new cup croquet swiss rounds 3 clock 20m timeout auto",
    "tia hall tournament join cup",
    "uma hall tournament join cup",
    "val hall tournament join cup",
    "wes hall tournament join cup",
    "org hall tournament start cup",
];

/// The event as `tournament export` wrote it, if it printed where.
fn export(out: &[String]) -> Option<serde_json::Value> {
    let path = out.iter().find_map(|l| l.strip_prefix("[hall] file: "))?;
    serde_json::from_str(&std::fs::read_to_string(path.trim()).ok()?).ok()
}

#[test]
fn killed_at_random_and_exact_moments_muster_loses_and_doubles_nothing() {
    let games: usize = std::env::var("MUSTER_CRASH_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let dir = muster_tests::data_dir("crash", "games");
    let mut rng = Rng::new(0xc4a5_0001);
    let ids = GameId::ALL;
    let scripts: Vec<Script> = (0..games)
        .map(|n| script(&mut rng, n, ids[n % ids.len()], n % 4 == 1))
        .collect();
    // Each channel plays its games one after another.
    let mut queue: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (n, s) in scripts.iter().enumerate() {
        queue.entry(s.channel.clone()).or_default().push(n);
    }
    let mut progress = vec![Progress::default(); games];
    let mut event_at = 0;
    let mut event: Option<serde_json::Value> = None;
    let mut now = START;
    let (mut kills, mut exact, mut lines_sent) = (0, 0, 0);
    let mut muster = Muster::start(&dir, now, None);
    let mut until_kill = 5 + rng.below(40);
    while lines_sent < 40 * games + 2000 {
        // The next line: the event's set-up now and then, else some channel's current game;
        // once every game is done, the event's standings until it is over.
        let busy: Vec<usize> = queue
            .values()
            .filter_map(|q| q.iter().copied().find(|&n| !progress[n].over))
            .collect();
        let pick = if event_at < EVENT.len() && (busy.is_empty() || rng.below(8) == 0) {
            None
        } else if let Some(&n) = busy.get(rng.below(busy.len())) {
            Some(n)
        } else if event.as_ref().is_some_and(|e| e["state"] == "finished") {
            break;
        } else {
            None
        };
        let line = match pick {
            Some(n) => {
                let s = &scripts[n];
                let p = &progress[n];
                if p.setup < s.setup.len() {
                    s.setup[p.setup].clone()
                } else if p.moves < s.moves.len() {
                    let (who, m) = &s.moves[p.moves];
                    format!("{who} {} move {m}", s.channel)
                } else {
                    let who = s.setup[0].split(' ').next().unwrap_or("ann");
                    format!("{who} {} resign", s.channel)
                }
            }
            None if event_at < EVENT.len() => EVENT[event_at].to_string(),
            None => "org hall tournament export cup".to_string(),
        };
        now += STEP;
        lines_sent += 1;
        until_kill = until_kill.saturating_sub(1);
        let answer = muster.send(&line, now);
        match (&answer, pick) {
            (Some(out), Some(n)) => {
                let s = &scripts[n];
                let p = &mut progress[n];
                // A timed game that ran out refuses its next decisions (checked in the store).
                if out.iter().any(|l| l.contains("(to ")) {
                    assert!(
                        s.timed && p.setup == s.setup.len(),
                        "{line:?} refused: {out:?}"
                    );
                    p.over = true;
                    p.ran_out = true;
                } else if p.setup < s.setup.len() {
                    p.setup += 1;
                } else if line.contains(" move ") {
                    p.moves += 1;
                    p.over = s.ends && p.moves == s.moves.len();
                } else {
                    p.over = true;
                }
            }
            // The event's lines: one sent again after a kill may be refused as done already.
            (Some(out), None) => {
                if event_at < EVENT.len() {
                    event_at += 1;
                } else {
                    event = export(out).or(event);
                }
            }
            (None, _) => exact += 1,
        }
        if answer.is_none() || until_kill == 0 {
            if answer.is_some() {
                // SIGKILL while it works on a line just sent.
                let _ = writeln!(muster.stdin, "org hall tournament standings cup");
                let _ = muster.stdin.flush();
                std::thread::sleep(Duration::from_micros(rng.below(3000) as u64));
            }
            muster.kill();
            kills += 1;
            check(&scripts, &mut progress, &stored(&dir));
            // Half the restarts die again just after a chosen write.
            let fault = (rng.below(2) == 0).then(|| 1 + rng.below(12) as u64);
            muster = Muster::start(&dir, now, fault);
            until_kill = 5 + rng.below(40);
        }
    }
    muster.kill();
    let stored = stored(&dir);
    check(&scripts, &mut progress, &stored);
    assert!(
        progress.iter().all(|p| p.over),
        "the scripts did not finish"
    );
    // The event played its three rounds once each, every game stored once.
    let event = event.expect("the event was exported");
    assert_eq!(event["state"], "finished", "{event}");
    assert_eq!(event["rounds_completed"], 3, "{event}");
    let mut event_games = Vec::new();
    for round in event["rounds"].as_array().expect("rounds") {
        let pairings = round["pairings"].as_array().expect("pairings");
        assert_eq!(pairings.len(), 2, "{round}");
        for p in pairings {
            assert!(p["result"].is_string(), "{p}");
            if let Some(id) = p["game_id"].as_str() {
                event_games.push(id.to_string());
            }
        }
    }
    let archived_event_games: Vec<&GameRecord> = stored
        .values()
        .flatten()
        .filter(|r| r.tournament.is_some())
        .collect();
    let mut ids: Vec<String> = archived_event_games.iter().map(|r| r.id.clone()).collect();
    ids.sort();
    event_games.sort();
    assert_eq!(ids, event_games, "the event's games in the store");
    let kept: usize = stored.values().map(Vec::len).sum();
    assert_eq!(kept, games + ids.len(), "games kept");
    let timeouts = stored
        .values()
        .flatten()
        .filter(|r| matches!(r.termination(), Some("time" | "forfeit")))
        .count();
    let decisions: usize = stored.values().flatten().map(|r| r.moves.len()).sum();
    eprintln!(
        "crash: {games} games and a 3-round event ({} games), {lines_sent} lines, {decisions} \
         decisions stored, {timeouts} games lost on time, {kills} kills ({exact} just after a \
         chosen write), nothing lost or doubled",
        ids.len()
    );
    // The run went through what it is for.
    assert!(timeouts >= games / 10, "only {timeouts} timeouts");
    assert!(exact >= kills / 5, "only {exact} exact kills of {kills}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Compares the store with what was acknowledged, and brings the harness's idea of each game
/// up to the store (a decision stored but not acknowledged counts as played).
fn check(
    scripts: &[Script],
    progress: &mut [Progress],
    stored: &BTreeMap<String, Vec<GameRecord>>,
) {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (n, s) in scripts.iter().enumerate() {
        let p = &mut progress[n];
        let at = seen.entry(&s.channel).or_default();
        let record = stored.get(&s.channel).and_then(|l| l.get(*at));
        let Some(record) = record else {
            assert!(
                p.setup == 0,
                "game {n} in {}: acknowledged, and not in the store",
                s.channel
            );
            continue;
        };
        *at += 1;
        assert_eq!(
            record.game,
            s.game.as_str(),
            "game {n}: another game in its place"
        );
        record
            .rebuild()
            .unwrap_or_else(|e| panic!("game {n} ({}) does not replay: {e:?}", record.id));
        let played: Vec<&String> = s.moves.iter().map(|(_, m)| m).collect();
        assert!(
            record.moves.len() <= played.len()
                && record.moves.iter().zip(&played).all(|(a, b)| a == *b),
            "game {n}: stored {:?}, scripted {:?}",
            record.moves,
            played
        );
        assert!(
            record.moves.len() >= p.moves,
            "game {n}: {} decisions acknowledged, {} stored",
            p.moves,
            record.moves.len()
        );
        assert!(
            record.moves.len() <= p.moves + 1,
            "game {n}: {} stored, only {} sent",
            record.moves.len(),
            p.moves
        );
        p.moves = record.moves.len();
        // Every acknowledged acceptance is stored; one in flight may be too.
        let accepted = record.seats.iter().filter(|s| s.accepted).count();
        assert!(
            accepted >= p.setup.min(s.setup.len()),
            "game {n}: {} set-up lines acknowledged, {accepted} seats accepted",
            p.setup
        );
        p.setup = accepted;
        if record.status == Status::Open {
            assert!(
                !p.over && p.moves == 0,
                "game {n}: acknowledged moves, yet open"
            );
        } else if record.status == Status::Active {
            assert!(!p.ran_out, "game {n}: refused a decision, yet runs");
            assert!(
                !p.over || !s.ends,
                "game {n}: its last decision was acknowledged, yet it runs"
            );
            p.over = false;
        } else {
            if !s.timed {
                assert_eq!(record.moves.len(), s.moves.len(), "game {n} ended early");
            }
            p.over = true;
        }
    }
}
