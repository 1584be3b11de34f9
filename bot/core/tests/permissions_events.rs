//! The permission matrix of the commands about events (docs/tournaments.md): who may use each
//! `tournament` command in each state of an event, run row by row against a fresh core over the
//! in-memory store. The game commands have theirs in permissions.rs; `notify`, `vacation`,
//! `rating`, `ratings` and `leaderboard` act on the asker only, and are checked below for
//! every role too.
//!
//! The event is `cup`, a Swiss event of Croquet opened in `#hall` by olive. The roles:
//! - the event's organiser: olive, who opened it;
//! - a community organiser: olga, `Policy { organiser: true, .. }`;
//! - an entrant: ann (with bob, cat and dan in a running event; with bob in an open one);
//! - a spectator: carol, not entered, with a game of her own in `#elsewhere`;
//! - a stranger: sam, with nothing anywhere.
//!
//! Allowed: something said in the channel and nothing refused. Refused: only private replies,
//! readable, and the event exactly as it was (its export compared before and after). Told: an
//! answer to the asker alone, the event unchanged.

use std::sync::Arc;

use muster_core::desk::{Core, Policy, Reply, Request, User};
use muster_core::store::MemoryStore;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    Organiser,
    Community,
    Entrant,
    Spectator,
    Stranger,
}

const ROLES: [Role; 5] = [
    Role::Organiser,
    Role::Community,
    Role::Entrant,
    Role::Spectator,
    Role::Stranger,
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Opened; ann and bob entered.
    Open,
    /// ann, bob, cat and dan entered and started: round 1 paired, its games under way.
    Running,
    /// `Running`, then paused by olive.
    Paused,
    /// `Running`, then cancelled by olive.
    Cancelled,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    Allowed,
    Refused,
    /// Answered to the asker alone (a listing, as `help` and `games` are), nothing changed.
    Told,
}

use Outcome::{Allowed, Refused, Told};
use State::{Cancelled, Open, Paused, Running};

type Row = (&'static str, State, [Outcome; 5]);

#[rustfmt::skip]
const MATRIX: &[Row] = &[
    // command                       state       organiser community entrant spectator stranger
    // Entering is for anyone not entered, while entries are open.
    ("tournament join cup",          Open,      [Allowed, Allowed, Refused, Allowed, Allowed]),
    ("tournament join cup",          Running,   [Refused, Refused, Refused, Refused, Refused]),
    ("tournament join cup",          Paused,    [Refused, Refused, Refused, Refused, Refused]),
    ("tournament join cup",          Cancelled, [Refused, Refused, Refused, Refused, Refused]),
    // Leaving is for entrants, until the event is over.
    ("tournament leave cup",         Open,      [Refused, Refused, Allowed, Refused, Refused]),
    ("tournament leave cup",         Running,   [Refused, Refused, Allowed, Refused, Refused]),
    ("tournament leave cup",         Paused,    [Refused, Refused, Allowed, Refused, Refused]),
    ("tournament leave cup",         Cancelled, [Refused, Refused, Refused, Refused, Refused]),
    // Running the event is for its organisers.
    ("tournament start cup",         Open,      [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament start cup",         Running,   [Refused, Refused, Refused, Refused, Refused]),
    ("tournament start cup",         Paused,    [Refused, Refused, Refused, Refused, Refused]),
    ("tournament start cup",         Cancelled, [Refused, Refused, Refused, Refused, Refused]),
    ("tournament add cup @zed",      Open,      [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament add cup @zed",      Running,   [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament add cup @zed",      Paused,    [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament add cup @zed",      Cancelled, [Refused, Refused, Refused, Refused, Refused]),
    ("tournament kick cup @bob",     Open,      [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament kick cup @bob",     Running,   [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament kick cup @bob",     Paused,    [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament kick cup @bob",     Cancelled, [Refused, Refused, Refused, Refused, Refused]),
    ("tournament result cup 1 1-0",  Open,      [Refused, Refused, Refused, Refused, Refused]),
    ("tournament result cup 1 1-0",  Running,   [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament result cup 1 1-0",  Paused,    [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament result cup 1 1-0",  Cancelled, [Refused, Refused, Refused, Refused, Refused]),
    ("tournament pause cup",         Open,      [Refused, Refused, Refused, Refused, Refused]),
    ("tournament pause cup",         Running,   [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament pause cup",         Paused,    [Refused, Refused, Refused, Refused, Refused]),
    ("tournament pause cup",         Cancelled, [Refused, Refused, Refused, Refused, Refused]),
    ("tournament resume cup",        Open,      [Refused, Refused, Refused, Refused, Refused]),
    ("tournament resume cup",        Running,   [Refused, Refused, Refused, Refused, Refused]),
    ("tournament resume cup",        Paused,    [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament resume cup",        Cancelled, [Refused, Refused, Refused, Refused, Refused]),
    ("tournament cancel cup",        Open,      [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament cancel cup",        Running,   [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament cancel cup",        Paused,    [Allowed, Allowed, Refused, Refused, Refused]),
    ("tournament cancel cup",        Cancelled, [Refused, Refused, Refused, Refused, Refused]),
    // Reading the event is for everyone, in every state.
    ("tournament standings cup",     Open,      [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("tournament standings cup",     Running,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("tournament standings cup",     Paused,    [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("tournament standings cup",     Cancelled, [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("tournament pairings cup",      Running,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("tournament pairings cup",      Paused,    [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("tournament export cup",        Open,      [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("tournament export cup",        Running,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("tournament export cup",        Cancelled, [Allowed, Allowed, Allowed, Allowed, Allowed]),
    // The list of events answers the asker alone.
    ("tournament list",              Open,      [Told, Told, Told, Told, Told]),
    ("tournament list",              Running,   [Told, Told, Told, Told, Told]),
    // A second event of the same name is refused to everyone; another name is anyone's.
    ("tournament new cup croquet swiss",  Open, [Refused, Refused, Refused, Refused, Refused]),
    ("tournament new bowl croquet swiss", Open, [Allowed, Allowed, Allowed, Allowed, Allowed]),
];

fn actor(role: Role) -> (User, Policy) {
    let name = match role {
        Role::Organiser => "olive",
        Role::Community => "olga",
        Role::Entrant => "ann",
        Role::Spectator => "carol",
        Role::Stranger => "sam",
    };
    let policy = Policy {
        organiser: role == Role::Community,
        ..Policy::default()
    };
    (User::named(name), policy)
}

use muster_core::testing as common;
use muster_core::testing::tell as say;

fn request(user: User, policy: Policy, channel: &str, text: &str) -> Request {
    Request {
        user,
        policy,
        ..common::mentioning("", channel, text)
    }
}

fn world(state: State) -> Core {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store, "!");
    let mut script = vec![
        ("carol", "elsewhere", "new croquet @dave"),
        ("dave", "elsewhere", "accept"),
        ("olive", "hall", "tournament new cup croquet swiss rounds 2"),
        ("ann", "hall", "tournament join cup"),
        ("bob", "hall", "tournament join cup"),
    ];
    if state != Open {
        script.extend([
            ("cat", "hall", "tournament join cup"),
            ("dan", "hall", "tournament join cup"),
            ("olive", "hall", "tournament start cup"),
        ]);
    }
    match state {
        Paused => script.push(("olive", "hall", "tournament pause cup")),
        Cancelled => script.push(("olive", "hall", "tournament cancel cup")),
        _ => {}
    }
    for (user, channel, text) in script {
        let out = say(&core, user, channel, text);
        assert!(
            out.iter().all(|r| !matches!(r, Reply::Private(_))),
            "{text}: {out:?}"
        );
        common::open_places(&core);
    }
    core
}

/// The event as its export has it (what any change would show in).
fn event(core: &Core) -> String {
    say(core, "olive", "hall", "tournament export cup")
        .into_iter()
        .find_map(|r| match r {
            Reply::File { content, .. } => Some(content),
            _ => None,
        })
        .expect("the event exports")
}

fn check(command: &str, role: Role, state: State, expected: Outcome) -> Result<(), String> {
    let core = world(state);
    let before = event(&core);
    let (user, policy) = actor(role);
    let replies = core.handle(&request(user, policy, "hall", command));
    common::open_places(&core);
    let private = common::privates(&replies);
    let public = replies.iter().any(|r| !matches!(r, Reply::Private(_)));
    for t in &private {
        if t.trim().is_empty() || t.contains("Err(") || t.contains("Some(") {
            return Err(format!("an unreadable refusal: {t:?}"));
        }
    }
    match expected {
        Allowed if public && private.is_empty() => Ok(()),
        Allowed => Err(format!("refused: {private:?}")),
        Refused if public => Err(format!("allowed: {replies:?}")),
        Refused if private.is_empty() => Err("no answer".into()),
        Refused if event(&core) != before => Err("refused, yet the event changed".into()),
        Refused => Ok(()),
        Told if public || private.is_empty() => Err(format!("not told privately: {replies:?}")),
        Told if event(&core) != before => Err("the event changed".into()),
        Told => Ok(()),
    }
}

#[test]
fn each_role_may_do_exactly_what_the_event_table_says() {
    let mut failures = Vec::new();
    for &(command, state, outcomes) in MATRIX {
        for (role, expected) in ROLES.into_iter().zip(outcomes) {
            if let Err(why) = check(command, role, state, expected) {
                failures.push(format!("{command:?} by {role:?} in {state:?}: {why}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows fail:\n{}",
        failures.len(),
        MATRIX.len() * ROLES.len(),
        failures.join("\n")
    );
}

/// The commands about oneself are everyone's, in every state of the event, and change nothing
/// of it.
#[test]
fn personal_commands_are_everyones() {
    for command in [
        "notify dm",
        "notify remind 12h",
        "vacation 2d",
        "rating",
        "leaderboard croquet",
    ] {
        for state in [Open, Running] {
            for role in ROLES {
                let core = world(state);
                let before = event(&core);
                let (user, policy) = actor(role);
                let replies = core.handle(&request(user, policy, "hall", command));
                assert!(!replies.is_empty(), "{command} by {role:?}: no answer");
                for r in &replies {
                    if let Reply::Private(t) | Reply::Text(t) = r {
                        assert!(!t.trim().is_empty() && !t.contains("Err("), "{t:?}");
                    }
                }
                assert_eq!(
                    event(&core),
                    before,
                    "{command} by {role:?} changed the event"
                );
            }
        }
    }
}
