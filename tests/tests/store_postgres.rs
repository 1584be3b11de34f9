//! The store's contract on a real PostgreSQL server (a throwaway cluster, tests/src/postgres.rs),
//! the same suite the memory and sled stores pass, and copies between sled and PostgreSQL.

use muster_bot::store::contract::{copies_whole, keeps_the_contract, races_have_one_winner};
use muster_bot::store::{ChannelKey, GameStore, PgStore, SledStore, StoreError};
use muster_tests::postgres::Postgres;

#[test]
fn postgres_keeps_the_store_contract() {
    let pg = Postgres::start();
    let url = pg.database();
    {
        let store = PgStore::open(&url).unwrap();
        keeps_the_contract(&store);
    }
    // Reopened (the migrations found applied), everything is still there.
    let store = PgStore::open(&url).unwrap();
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
    // Two instances on one database race as two threads of one do.
    let a = PgStore::open(&url).unwrap();
    let b = PgStore::open(&url).unwrap();
    let key = ChannelKey::new("discord", "race");
    let base = muster_bot::store::contract::record(&a, "race");
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
