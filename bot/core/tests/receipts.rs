//! Requests handled once (`Core::handle_once`): a request with an id on its platform runs once,
//! its receipt — the very replies it made — is kept in the same write as its move, and an
//! adapter that stopped between storing and sending finds the answers it still owes, boards
//! included. On the sled store, reopened as after a crash.

use std::sync::Arc;

use muster_core::desk::{Core, Reply, Request, User};
use muster_core::store::{ChannelKey, GameStore, SledStore};

fn request(user: &str, text: &str) -> Request {
    Request {
        platform: "matrix".into(),
        channel: "!room:example.org".into(),
        user: User::named(user),
        text: text.into(),
        mentions: vec![User::named("bob")],
        policy: Default::default(),
    }
}

fn open(dir: &std::path::Path) -> (Arc<dyn GameStore>, Core) {
    // sled lets go of its lock only once its flusher thread has stopped, a moment after the
    // store is dropped: a restart in the same process waits for it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let store = loop {
        match SledStore::open(dir) {
            Ok(s) => break s,
            Err(e) if std::time::Instant::now() < deadline && format!("{e:?}").contains("lock") => {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Err(e) => panic!("{e:?}"),
        }
    };
    let store: Arc<dyn GameStore> = Arc::new(store);
    let core = Core::new(Arc::clone(&store), "!");
    (store, core)
}

fn boards(replies: &[Reply]) -> Vec<String> {
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Board(b) => Some(b.name()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_request_runs_once_and_its_answer_survives_a_crash_before_it_is_sent() {
    let dir = std::env::temp_dir().join(format!("muster-receipts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let key = ChannelKey::new("matrix", "!room:example.org");
    {
        let (_, core) = open(&dir);
        let new = core
            .handle_once(&request("alice", "new lanrick @bob"), "$e1", None)
            .unwrap();
        assert!(new.fresh);
        let accept = core
            .handle_once(&request("bob", "accept"), "$e2", Some("$thread"))
            .unwrap();
        assert_eq!(boards(&accept.receipt.replies).len(), 1);
        assert_eq!(accept.receipt.place.as_deref(), Some("$thread"));
        // The first move is stored with its receipt; the process then dies before sending.
        let moved = core
            .handle_once(&request("alice", "move b1"), "$e3", None)
            .unwrap();
        assert!(moved.fresh);
        assert_eq!(boards(&moved.receipt.replies), vec!["g0-001.png"]);
    }
    let (store, core) = open(&dir);
    assert_eq!(store.load(&key).unwrap().unwrap().moves, vec!["b1"]);
    // Every answer is owed (none was marked sent), oldest first, the move's with its board,
    // drawn from the receipt alone as it would have been.
    let owed = core.owed("matrix").unwrap();
    let ids: Vec<&str> = owed.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, vec!["$e1", "$e2", "$e3"]);
    let (_, receipt) = &owed[2];
    assert_eq!(receipt.user.id, "alice");
    let Some(Reply::Board(board)) = receipt
        .replies
        .iter()
        .find(|r| matches!(r, Reply::Board(_)))
    else {
        panic!("no board in {receipt:?}");
    };
    let drawn = board.drawn().expect("the board is drawn from the receipt");
    assert!(drawn.png.starts_with(b"\x89PNG"));
    assert!(
        receipt
            .replies
            .iter()
            .any(|r| matches!(r, Reply::Mention { user, .. } if user.id == "bob")),
        "the player to move is pinged: {receipt:?}"
    );
    // The same request met again does not run again: the move is not played twice.
    let again = core
        .handle_once(&request("alice", "move b1"), "$e3", None)
        .unwrap();
    assert!(!again.fresh);
    assert_eq!(&again.receipt, receipt);
    assert_eq!(store.load(&key).unwrap().unwrap().moves, vec!["b1"]);
    // Marked as sent, it is owed no more; finished receipts are forgotten when old.
    for (id, mut r) in owed {
        r.sent = r.replies.len();
        r.done = true;
        store.set_receipt("matrix", &id, Some(&r.encode())).unwrap();
    }
    assert!(core.owed("matrix").unwrap().is_empty());
    assert_eq!(core.forget_receipts("matrix", core.now() + 1).unwrap(), 3);
    assert_eq!(core.receipt("matrix", "$e3").unwrap(), None);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_command_keeps_its_refusal_and_is_not_run_again() {
    let dir = std::env::temp_dir().join(format!("muster-receipts-race-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (store, core) = open(&dir);
    let key = ChannelKey::new("matrix", "!room:example.org");
    core.handle_once(&request("alice", "new lanrick @bob"), "$a", None)
        .unwrap();
    core.handle_once(&request("bob", "accept"), "$b", None)
        .unwrap();
    // A refused command keeps its refusal, and is not run again either.
    let wrong = core
        .handle_once(&request("bob", "move b1"), "$c", None)
        .unwrap();
    assert!(
        matches!(wrong.receipt.replies.as_slice(), [Reply::Private(t)] if t.contains("alice")),
        "{:?}",
        wrong.receipt
    );
    let record = store.load(&key).unwrap().unwrap();
    assert!(record.moves.is_empty());
    let again = core
        .handle_once(&request("bob", "move b1"), "$c", None)
        .unwrap();
    assert!(!again.fresh);
    assert_eq!(again.receipt, wrong.receipt);
    let _ = std::fs::remove_dir_all(&dir);
}
