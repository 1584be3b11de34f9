//! The store's contract on a real PostgreSQL server (a throwaway cluster, tests/src/postgres.rs),
//! the same suite the memory and sled stores pass, and copies between sled and PostgreSQL.

use muster_core::store::contract::{
    copies_whole, keeps_the_contract, leases_have_one_holder, races_have_one_winner,
};
use muster_core::store::{ChannelKey, GameStore, PgStore, SledStore, StoreError};
use muster_core::store::{Lists, Live, Receipts, Upkeep};
use muster_tests::postgres::Postgres;

#[test]
fn postgres_keeps_the_store_contract() {
    let pg = Postgres::start();
    let url = pg.database();
    {
        let store = PgStore::open(&url).unwrap();
        keeps_the_contract(&store);
    }
    // Reopened (the migrations found applied), through the Unix socket this time, everything
    // is still there.
    let name = url.rsplit('/').next().unwrap();
    let store = PgStore::open(&pg.socket_url(name)).unwrap();
    assert_eq!(store.games_of("alice").unwrap().len(), 2);
    assert_eq!(
        store.receipt("console", "ev3").unwrap().as_deref(),
        Some("third")
    );
    // A damaged record breaks its channel only, and can be set aside.
    let key = ChannelKey::new("console", "other");
    store
        .put_raw(&key, b"{\"schema\":1,\"broken\":true}")
        .unwrap();
    assert!(matches!(store.load(&key), Err(StoreError::Corrupt(_))));
    assert!(store.games_of("alice").is_ok());
    store.set_aside(&key).unwrap();
    assert_eq!(store.load(&key).unwrap(), None);
    let aside = store.entries().unwrap();
    assert_eq!(aside.iter().filter(|e| e.tree == "aside").count(), 1);
}

#[test]
fn postgres_races_have_one_winner_across_instances() {
    let pg = Postgres::start();
    let url = pg.database();
    races_have_one_winner(&PgStore::open(&url).unwrap());
    leases_have_one_holder(&PgStore::open(&url).unwrap());
    // Two instances on one database race as two threads of one do.
    let a = PgStore::open(&url).unwrap();
    let b = PgStore::open(&url).unwrap();
    let key = ChannelKey::new("discord", "race");
    let base = muster_core::store::contract::record(&a, "race");
    a.create(&key, &base).unwrap();
    let mut wins = 0;
    for (n, store) in [&a, &b].into_iter().enumerate() {
        let mut mine = base.clone();
        mine.moves.push(format!("m{n}"));
        mine.version += 1;
        match store.update(&key, base.version, &mine) {
            Ok(()) => wins += 1,
            Err(e) => assert_eq!(e, StoreError::Conflict),
        }
    }
    assert_eq!(wins, 1);
    assert_eq!(b.load(&key).unwrap().unwrap().moves, vec!["m0"]);
}

#[test]
fn copies_between_sled_and_postgres_compare_entry_for_entry() {
    let pg = Postgres::start();
    let dir = muster_tests::data_dir("store-postgres", "copies");
    let sled = SledStore::open(&dir.join("store")).unwrap();
    keeps_the_contract(&sled);
    let there = PgStore::open(&pg.database()).unwrap();
    copies_whole(&sled, &there);
    let back_dir = dir.join("back");
    let back = SledStore::open(&back_dir).unwrap();
    copies_whole(&there, &back);
    drop((sled, back));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_store_that_cannot_be_reached_says_so() {
    let port = muster_tests::free_addr();
    let url = format!("postgres://muster@{port}/muster");
    let Err(e) = PgStore::open(&url) else {
        panic!("opened a store where no server listens");
    };
    assert!(
        e.to_string().contains("cannot reach the PostgreSQL store"),
        "{e}"
    );
    let Err(e) = PgStore::open("postgres://[oops") else {
        panic!("opened a store at a malformed address");
    };
    assert!(e.to_string().contains("cannot be read"), "{e}");
}

/// Runs `muster` with `args`, `input` on standard input, and `MUSTER_STORE` set to `store`
/// when given.
fn muster(args: &[&str], input: &str, store: Option<&str>) -> muster_tests::Run {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut command = Command::new(muster_tests::muster_binary!());
    command.args(args).env_remove("MUSTER_STORE");
    if let Some(url) = store {
        command.env("MUSTER_STORE", url);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("muster starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    muster_tests::Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn console_on(dir: &std::path::Path, url: Option<&str>, script: &str) -> String {
    let dir = dir.to_str().unwrap();
    let out = muster(&["console", "--data", dir, "--script", "-"], script, url);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

#[test]
fn two_consoles_on_one_database_play_one_game() {
    let pg = Postgres::start();
    let url = pg.database();
    let one = muster_tests::data_dir("store-postgres", "one");
    let two = muster_tests::data_dir("store-postgres", "two");
    let out = console_on(
        &one,
        Some(&url),
        "alice g new lanrick @bob\nbob g accept\nalice g a8\n",
    );
    assert!(out.contains("[g] alice placed a man on a8."), "{out}");
    // The second instance sees the game the first one made, and the move it stored.
    let out = console_on(&two, Some(&url), "alice g move a7\nbob g move a1\n");
    assert!(
        out.contains("[g] (to alice) It is bob (Black)'s decision, not yours."),
        "{out}"
    );
    assert!(out.contains("[g] bob placed a man on a1."), "{out}");
    // Nothing was kept in either data directory's sled store.
    assert!(!one.join("store").exists() && !two.join("store").exists());
    let store = PgStore::open(&url).unwrap();
    let game = store
        .load(&ChannelKey::new("console", "g"))
        .unwrap()
        .unwrap();
    assert_eq!(game.moves, vec!["a8", "a1"]);
    let _ = std::fs::remove_dir_all(one);
    let _ = std::fs::remove_dir_all(two);
}

#[test]
fn migrate_goes_from_sled_to_postgres_and_back_record_for_record() {
    let pg = Postgres::start();
    let url = pg.database();
    let dir = muster_tests::data_dir("store-postgres", "migrate");
    // Live games, a finished one, notes and a tournament's standing, on sled.
    let script = "alice g new lanrick @bob\nbob g accept\nalice g a8\n\
                  carol h new croquet @dave\ndave h accept\ncarol h resign\n\
                  alice k new lanko88 @bob @carol @dave\n";
    console_on(&dir, None, script);
    let sled_name = format!("sled:{}", dir.display());
    let out = muster(&["migrate", "--from", &sled_name, "--to", &url], "", None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("compared, every one the same"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("live 2"), "{}", out.stderr);
    // The games go on on PostgreSQL.
    let out = console_on(&dir, Some(&url), "bob g move a1\n");
    assert!(out.contains("[g] bob placed a man on a1."), "{out}");
    // Into a store that already holds games: refused, unless told.
    let out = muster(&["migrate", "--from", &url, "--to", &sled_name], "", None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("is not empty (2 live games, 1 finished"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("--replace"), "{}", out.stderr);
    let back = dir.join("back");
    let back_name = format!("sled:{}", back.display());
    let out = muster(&["migrate", "--from", &url, "--to", &back_name], "", None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Record for record: the sled copy holds exactly what PostgreSQL holds.
    let there = PgStore::open(&url).unwrap().entries().unwrap();
    let here = SledStore::open(&back.join("store"))
        .unwrap()
        .entries()
        .unwrap();
    assert_eq!(here, there);
    assert!(here.iter().any(|e| e.tree == "archive"));
    let out = muster(
        &["migrate", "--from", &url, "--to", &sled_name, "--replace"],
        "",
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = console_on(&dir, None, "alice g a7\n");
    assert!(out.contains("[g] alice placed a man on a7."), "{out}");
    // Names that are not stores are usage errors.
    let out = muster(&["migrate", "--from", "mysql://x", "--to", &url], "", None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("names no store"), "{}", out.stderr);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_postgres_backup_restores_into_sled_and_back() {
    let pg = Postgres::start();
    let url = pg.database();
    let dir = muster_tests::data_dir("store-postgres", "backup");
    console_on(
        &dir,
        Some(&url),
        "alice g new lanrick @bob\nbob g accept\nalice g a8\n",
    );
    let file = dir.join("games.backup");
    let file = file.to_str().unwrap();
    let out = muster(&["backup", "--out", file], "", Some(&url));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let restored = dir.join("restored");
    let out = muster(
        &["restore", "--data", restored.to_str().unwrap(), file],
        "",
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = console_on(&restored, None, "bob g move a1\n");
    assert!(out.contains("[g] bob placed a man on a1."), "{out}");
    // Back into a fresh database; not into one that holds games.
    let out = muster(&["restore", file], "", Some(&url));
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("not empty"), "{}", out.stderr);
    let fresh = pg.database();
    let out = muster(&["restore", file], "", Some(&fresh));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("and checked"), "{}", out.stderr);
    let _ = std::fs::remove_dir_all(dir);
}

/// `n` instances' cores on the database at `url`, each on its own manual clock at `start`.
fn cores(
    url: &str,
    n: usize,
    start: u64,
) -> Vec<(
    muster_core::desk::Core,
    std::sync::Arc<muster_core::clock::ManualClock>,
)> {
    use std::sync::Arc;
    (0..n)
        .map(|_| {
            let store: Arc<dyn GameStore> = Arc::new(PgStore::open(url).unwrap());
            let clock = Arc::new(muster_core::clock::ManualClock::starting_at(start));
            // As `muster serve` makes it: Discord's surface given to the core.
            let core = muster_core::desk::Core::with_clock(store, "!", clock.clone())
                .with_surface(Arc::new(muster_discord::surface::DiscordSurface::default()));
            (core, clock)
        })
        .collect()
}

/// A request in `channel` on Discord.
fn said(core: &muster_core::desk::Core, who: &str, channel: &str, text: &str) {
    let request = muster_core::desk::Request {
        platform: "discord".into(),
        channel: channel.into(),
        user: muster_core::desk::User::named(who),
        text: text.into(),
        mentions: Vec::new(),
        policy: Default::default(),
    };
    core.handle(&request);
}

#[test]
fn timeouts_and_reminders_fire_once_across_instances() {
    use muster_core::clock::Clock;
    let pg = Postgres::start();
    let url = pg.database();
    let start = 1_800_000_000;
    let instances = cores(&url, 3, start);
    let first = &instances[0].0;
    // Twenty timed games, made at one instance; the others learn of them from the store.
    for n in 0..20 {
        let channel = format!("c{n}");
        said(first, "alice", &channel, "new croquet @bob clock 3d");
        said(first, "bob", &channel, "accept");
    }
    for (core, _) in &instances {
        core.load_agenda();
    }
    // Two days on, every game's reminder is due; three days on, every game's deadline.
    let mut notices = 0;
    for step in [2 * 86_400 + 60, 86_400] {
        for (_, clock) in &instances {
            clock.advance(step);
        }
        let fired: Vec<usize> = std::thread::scope(|s| {
            let runs: Vec<_> = instances
                .iter()
                .map(|(core, _)| s.spawn(move || core.fire_due()))
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        notices += fired.iter().sum::<usize>();
    }
    // Each game's reminder (to alice, whose move it is) and its timeout went out once,
    // whichever instance sent it. (Reminders due together are one message per instance that
    // sends some of them.)
    // Each game forfeited (no move made) is said once not to be rated, after its timeout.
    let (unrated, sent): (Vec<_>, Vec<_>) = instances
        .iter()
        .flat_map(|(core, _)| core.notices("discord"))
        .map(|n| (format!("{:?}", n.target), format!("{:?}", n.replies)))
        .partition(|(_, text)| text.contains("Not rated"));
    assert_eq!(unrated.len(), 20, "{unrated:?}");
    let unrated: std::collections::BTreeSet<String> = unrated
        .iter()
        .map(|(target, text)| {
            assert!(
                text.contains("Not rated: it was forfeited before a move."),
                "{text}"
            );
            target.clone()
        })
        .collect();
    assert_eq!(unrated.len(), 20, "{unrated:?}");
    let sent: Vec<String> = sent.into_iter().map(|(_, text)| text).collect();
    assert_eq!(sent.len(), notices);
    let mut reminded = std::collections::BTreeMap::new();
    let mut timed_out = std::collections::BTreeMap::new();
    for text in &sent {
        if text.contains("time ran out") {
            let game = text
                .split("`!export ")
                .nth(1)
                .unwrap()
                .split('`')
                .next()
                .unwrap();
            *timed_out.entry(game.to_string()).or_insert(0) += 1;
        } else {
            assert!(text.contains("left for your move"), "{text}");
            for channel in text.split("<#").skip(1) {
                let channel = channel.split('>').next().unwrap();
                *reminded.entry(channel.to_string()).or_insert(0) += 1;
            }
        }
    }
    assert_eq!(reminded.len(), 20, "{reminded:?}");
    assert!(reminded.values().all(|n| *n == 1), "{reminded:?}");
    assert_eq!(timed_out.len(), 20, "{timed_out:?}");
    assert!(timed_out.values().all(|n| *n == 1), "{timed_out:?}");
    let store = PgStore::open(&url).unwrap();
    assert_eq!(store.live_count().unwrap(), 0);
    assert_eq!(store.games_of("bob").unwrap().len(), 20);
    assert_eq!(instances[0].1.now(), start + 3 * 86_400 + 60);
}

#[test]
fn an_announcement_a_dead_instance_never_posted_is_posted_once_by_another() {
    let pg = Postgres::start();
    let url = pg.database();
    let start = 1_800_000_000;
    let instances = cores(&url, 3, start);
    let (dead, _) = &instances[0];
    said(dead, "alice", "g", "new croquet @bob clock 1d");
    said(dead, "bob", "g", "accept");
    for (_, clock) in &instances {
        clock.advance(86_400 + 1);
    }
    // The first instance ends the game on time and stores the announcement, then dies before
    // posting it.
    dead.load_agenda();
    assert_eq!(dead.fire_due(), 1);
    // Taken from the outbox, never posted: the announcement, and the line saying that the game
    // (forfeited) is not rated, kept too.
    let taken: Vec<String> = dead
        .notices("discord")
        .iter()
        .map(|n| format!("{:?}", n.replies))
        .collect();
    assert_eq!(taken.len(), 2, "{taken:?}");
    assert!(taken[0].contains("time ran out"), "{taken:?}");
    assert!(taken[1].contains("Not rated"), "{taken:?}");
    let (second, third) = (&instances[1].0, &instances[2].0);
    // Not at once: the instance that stored it may be posting it.
    assert_eq!(second.recover_notices("discord", 60), 0);
    for (_, clock) in &instances {
        clock.advance(61);
    }
    let taken = std::thread::scope(|s| {
        let a = s.spawn(|| second.recover_notices("discord", 60));
        let b = s.spawn(|| third.recover_notices("discord", 60));
        a.join().unwrap() + b.join().unwrap()
    });
    assert_eq!(taken, 2);
    let mut posted: Vec<_> = [second, third]
        .iter()
        .flat_map(|c| c.notices("discord"))
        .collect();
    posted.sort_by_key(|n| n.receipt.clone());
    assert_eq!(posted.len(), 2);
    assert!(format!("{:?}", posted[0].replies).contains("time ran out"));
    assert!(format!("{:?}", posted[1].replies).contains("Not rated"));
    // Once posted they are marked done (and so never posted again), claims dropped.
    let store = PgStore::open(&url).unwrap();
    for notice in &posted {
        let id = notice.receipt.clone().unwrap();
        second.notice_sent("discord", &id);
        let kept = store.receipt("discord", &id).unwrap().expect("kept, done");
        assert!(kept.contains("\"done\":true"), "{kept}");
    }
    assert!(second.owed_notices("discord").is_empty());
    assert_eq!(third.recover_notices("discord", 0), 0);
    let left: Vec<_> = store
        .entries()
        .unwrap()
        .into_iter()
        .filter(|e| e.tree == "notes" && String::from_utf8_lossy(&e.key).contains("claim"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn instances_starting_together_set_the_database_up_once_and_a_newer_one_is_refused() {
    let pg = Postgres::start();
    let url = pg.database();
    let opened: Vec<bool> = std::thread::scope(|s| {
        let starts: Vec<_> = (0..4)
            .map(|_| s.spawn(|| PgStore::open(&url).is_ok()))
            .collect();
        starts.into_iter().map(|t| t.join().unwrap()).collect()
    });
    assert_eq!(opened, vec![true; 4]);
    let store = PgStore::open(&url).unwrap();
    assert_eq!(store.live_count().unwrap(), 0);
    // Records an older Muster wrote are rewritten in the current layout at start, as in sled.
    let key = ChannelKey::new("console", "old");
    let record = muster_core::store::contract::record(&store, "old");
    let old = String::from_utf8(muster_core::store::record::encode(&record))
        .unwrap()
        .replace(
            &format!("\"schema\":{}", muster_core::store::SCHEMA),
            "\"schema\":2",
        );
    store.put_raw(&key, old.as_bytes()).unwrap();
    pg.psql(&url, "UPDATE meta SET value = '2' WHERE key = 'schema'");
    drop(store);
    let store = PgStore::open(&url).unwrap();
    let live = store.entries().unwrap();
    let stored = String::from_utf8_lossy(&live.iter().find(|e| e.tree == "live").unwrap().value)
        .into_owned();
    let current = format!("\"schema\":{}", muster_core::store::SCHEMA);
    assert!(stored.contains(&current), "{stored}");
    assert_eq!(store.load(&key).unwrap(), Some(record));
    // A database a newer Muster set up (a migration this one does not know) is refused.
    pg.psql(&url, "INSERT INTO muster_migrations (version) VALUES (999)");
    let Err(e) = PgStore::open(&url) else {
        panic!("a newer database was opened");
    };
    assert!(e.to_string().contains("newer Muster (migration 999"), "{e}");
}
