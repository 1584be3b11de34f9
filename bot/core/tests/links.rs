//! Linked accounts (docs/guide.md, "One player on two platforms"): a code given on one platform
//! and said on the other makes the two accounts one player; every wrong turn is a clear, private
//! answer, and nothing is half made.

use std::sync::Arc;

use muster_core::clock::ManualClock;
use muster_core::desk::{Core, Reply, Request, Target, User};
use muster_core::kernel::surface::Surface;
use muster_core::store::MemoryStore;

use common::{Named, code_in, privates};
use muster_core::testing as common;

const START: u64 = 1_795_600_800; // 2026-11-25T10:00:00Z

/// A platform whose private answers are mentions in the room (as on Matrix).
struct Rooms(&'static str);

impl Surface for Rooms {
    fn platform(&self) -> &str {
        self.0
    }
    fn private_replies(&self) -> bool {
        false
    }
}

fn core() -> (Arc<Core>, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::starting_at(START));
    let core = Arc::new(Core::with_clock(
        Arc::new(MemoryStore::default()),
        "!",
        clock.clone(),
    ));
    core.add_surface(Arc::new(Named("chat")));
    core.add_surface(Arc::new(Rooms("rooms")));
    (core, clock)
}

fn said(core: &Core, platform: &str, user: &str, text: &str) -> String {
    let req = Request {
        platform: platform.into(),
        channel: "general".into(),
        user: User {
            id: format!("{user}-id"),
            name: user.into(),
        },
        text: text.into(),
        mentions: vec![],
        policy: Default::default(),
    };
    let replies = core.handle(&req);
    let private = privates(&replies);
    assert_eq!(
        private.len(),
        replies.len(),
        "every answer is private: {replies:?}"
    );
    private.join("\n")
}

#[test]
fn a_code_from_one_platform_said_on_the_other_makes_one_player_and_unlink_parts_them() {
    let (core, _) = core();
    let asked = said(&core, "chat", "alice", "link");
    assert!(asked.contains("Within 10 minutes"), "{asked}");
    let code = code_in(&asked);
    assert!(
        asked.contains(&format!("`!link {code}` on Rooms")),
        "what to say where: {asked}"
    );
    // Typed in lower case and with a space for the dash, it still reads.
    let typed = code.to_lowercase().replace('-', " ");
    let linked = said(&core, "rooms", "al", &format!("link {typed}"));
    assert!(
        linked.contains("Linked: alice on Chat and al on Rooms are one player now"),
        "{linked}"
    );
    for (platform, me, other) in [
        ("chat", "alice", "al on Rooms"),
        ("rooms", "al", "alice on Chat"),
    ] {
        let who = said(&core, platform, me, "whoami");
        assert!(who.contains(&format!("Linked with {other}")), "{who}");
    }
    // Used once only.
    let again = said(&core, "rooms", "bob", &format!("link {code}"));
    assert!(again.contains("used already"), "{again}");
    // Linked, neither may link again until unlinked.
    let more = said(&core, "chat", "alice", "link");
    assert!(
        more.contains("linked already") && more.contains("`unlink`"),
        "{more}"
    );
    let parted = said(&core, "rooms", "al", "unlink");
    assert!(parted.contains("separate players again"), "{parted}");
    let who = said(&core, "chat", "alice", "whoami");
    assert!(who.contains("Not linked"), "{who}");
    let none = said(&core, "chat", "alice", "unlink");
    assert!(none.contains("not linked"), "{none}");
}

#[test]
fn where_private_answers_are_seen_by_all_the_code_goes_to_a_direct_message() {
    let (core, _) = core();
    let asked = said(&core, "rooms", "al", "link");
    assert!(asked.contains("direct message"), "{asked}");
    assert!(!asked.contains('-'), "no code in the room: {asked}");
    let notices = core.notices("rooms");
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(
        notices[0].target,
        Target::Direct(User {
            id: "al-id".into(),
            name: "al".into()
        })
    );
    assert!(
        notices[0].fallback.is_none(),
        "never posted in a room instead"
    );
    let Reply::Text(text) = &notices[0].replies[0] else {
        panic!("{notices:?}");
    };
    let linked = said(&core, "chat", "alice", &format!("link {}", code_in(text)));
    assert!(linked.contains("Linked"), "{linked}");
}

#[test]
fn wrong_expired_same_platform_and_malformed_codes_are_refused_and_wrong_ones_counted() {
    let (core, clock) = core();
    let code = code_in(&said(&core, "chat", "alice", "link"));
    // Said on the platform that gave it: refused, and spent.
    let here = said(&core, "chat", "bob", &format!("link {code}"));
    assert!(here.contains("was made here on Chat"), "{here}");
    let spent = said(&core, "rooms", "al", &format!("link {code}"));
    assert!(spent.contains("used already"), "{spent}");
    // Expired after ten minutes.
    let code = code_in(&said(&core, "chat", "alice", "link"));
    clock.set(START + 601).unwrap();
    let late = said(&core, "rooms", "al", &format!("link {code}"));
    assert!(late.contains("expired"), "{late}");
    // Not a code at all: said so, and not counted.
    let odd = said(&core, "rooms", "al", "link hello");
    assert!(odd.contains("is not a code"), "{odd}");
    // Five wrong codes, then a wait, even for the right one.
    let code = code_in(&said(&core, "chat", "alice", "link"));
    for left in (0..5).rev() {
        let wrong = said(&core, "rooms", "eve", "link ZZZZ-ZZZZ");
        assert!(wrong.contains("There is no code"), "{wrong}");
        assert!(wrong.contains(&format!("{left} wrong code")), "{wrong}");
    }
    let blocked = said(&core, "rooms", "eve", &format!("link {code}"));
    assert!(blocked.contains("Too many wrong codes"), "{blocked}");
    // The code was not spent by the refusal: alice's other account may still use it.
    let linked = said(&core, "rooms", "al", &format!("link {code}"));
    assert!(linked.contains("Linked"), "{linked}");
    // An account linked already cannot take another's code.
    let code = code_in(&said(&core, "chat", "carol", "link"));
    let taken = said(&core, "rooms", "al", &format!("link {code}"));
    assert!(taken.contains("linked already"), "{taken}");
}

#[test]
fn with_one_platform_there_is_nothing_to_link_with() {
    let clock = Arc::new(ManualClock::starting_at(START));
    let core = Core::with_clock(Arc::new(MemoryStore::default()), "!", clock);
    core.add_surface(Arc::new(Named("chat")));
    let asked = said(&core, "chat", "alice", "link");
    assert!(asked.contains("serves only Chat"), "{asked}");
}
