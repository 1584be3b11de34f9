//! What the bot's test suites share: requests made as an adapter makes them, a game played
//! to its end, places opened, replies read. Built only with the `test-support` feature, which
//! only the suites enable; the product carries none of it.

use crate::desk::{Core, Policy, Reply, Request, Target, User};
use crate::kernel::store::{ChannelKey, Ending, GameRecord, GameStore, Status};
use crate::kernel::surface::Surface;

/// A console command by `user` in `channel`, answered by the core.
pub fn say(core: &Core, user: &str, channel: &str, text: &str) -> Vec<Reply> {
    core.handle(&request(user, channel, text))
}

/// An account written `name@platform`: its platform, and the user — `name-id` on the platform
/// `chat` (ids as Discord's are opaque), `@name:hs` on any other (as Matrix's are).
pub fn account(who: &str) -> (String, User) {
    let (name, platform) = who.split_once('@').expect("user@platform");
    let id = if platform == "chat" {
        format!("{name}-id")
    } else {
        format!("@{name}:hs")
    };
    let user = User {
        id,
        name: name.into(),
    };
    (platform.to_string(), user)
}

/// A command by the account `who` (`name@platform`, see [`account`]) in `channel`, with no
/// mentions; on `chat`, whose ids are Discord's, said in the server `g1`.
pub fn by(who: &str, channel: &str, text: &str) -> Request {
    let (platform, user) = account(who);
    let community = if platform == "chat" { "g1" } else { "" };
    Request {
        platform,
        channel: channel.into(),
        user,
        text: text.into(),
        mentions: Vec::new(),
        policy: Policy {
            community: community.into(),
            ..Policy::default()
        },
    }
}

/// [`by`], naming people as `@name`, who are its mentions: accounts on the same platform.
pub fn mentioning_as(who: &str, channel: &str, text: &str) -> Request {
    let req = by(who, channel, text);
    let mentions = text
        .split_whitespace()
        .filter_map(|w| w.strip_prefix('@'))
        .map(|n| account(&format!("{n}@{}", req.platform)).1)
        .collect();
    Request { mentions, ..req }
}

/// [`by`], answered by the core.
pub fn ask_as(core: &Core, who: &str, channel: &str, text: &str) -> Vec<Reply> {
    core.handle(&by(who, channel, text))
}

/// [`by`], answered by the core: what its reader sees ([`words`]).
pub fn say_as(core: &Core, who: &str, channel: &str, text: &str) -> String {
    words(&ask_as(core, who, channel, text))
}

/// [`mentioning_as`], answered by the core: what its reader sees ([`words`]).
pub fn say_mentioning_as(core: &Core, who: &str, channel: &str, text: &str) -> String {
    words(&core.handle(&mentioning_as(who, channel, text)))
}

/// A console command by `user` in `channel` naming people as `@name` ([`mentioning`]),
/// answered by the core.
pub fn tell(core: &Core, user: &str, channel: &str, text: &str) -> Vec<Reply> {
    core.handle(&mentioning(user, channel, text))
}

/// [`say`], then every place the command asked for opened ([`open_places`]), as the console
/// opens them.
pub fn say_and_open(core: &Core, user: &str, channel: &str, text: &str) -> Vec<Reply> {
    let out = say(core, user, channel, text);
    open_places(core);
    out
}

/// The replies' text as their reader sees it, one a line; a mention as `<@id> text`.
pub fn words(replies: &[Reply]) -> String {
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Text(t) | Reply::Private(t) => Some(t.clone()),
            Reply::Mention { user, text } => Some(format!("<@{}> {text}", user.id)),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A console command by `user` in `channel`.
pub fn request(user: &str, channel: &str, text: &str) -> Request {
    Request {
        platform: "console".into(),
        channel: channel.into(),
        user: User::named(user),
        text: text.into(),
        mentions: vec![],
        policy: Default::default(),
    }
}

/// A console command by `user` in `channel` naming people as `@name`, who are its mentions (as
/// the console resolves them).
pub fn mentioning(user: &str, channel: &str, text: &str) -> Request {
    Request {
        mentions: text
            .split_whitespace()
            .filter_map(|w| w.strip_prefix('@'))
            .map(User::named)
            .collect(),
        ..request(user, channel, text)
    }
}

/// The texts of the private replies among `replies`.
pub fn privates(replies: &[Reply]) -> Vec<&str> {
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Private(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

/// The board of a Lanrick game `id` between alice and bob, before its first move.
pub fn lanrick(id: &str) -> Reply {
    use crate::kernel::store::{GameRecord, Player, SCHEMA, SeatEntry, Status};
    let seat = |id: &str| SeatEntry {
        player: Some(Player {
            id: id.into(),
            name: id.into(),
        }),
        accepted: true,
        hand: None,
    };
    let record = GameRecord {
        schema: SCHEMA,
        id: id.into(),
        game: "lanrick".into(),
        platform: "console".into(),
        channel: "general".into(),
        created: 1,
        updated: 1,
        started: None,
        version: 1,
        seats: vec![seat("alice"), seat("bob")],
        status: Status::Active,
        moves: Vec::new(),
        times: Vec::new(),
        ending: None,
        draw_offer: None,
        takeback: None,
        clock: None,
        pauses: Vec::new(),
        wait: None,
        tournament: None,
        community: None,
        casual: false,
        away: None,
    };
    Reply::board(&record, 0)
}

/// A Croquet game between `a` and `b` in `channel` (two steps each), then stored as finished
/// with `a` resigned directly in `store` — as a command's write leaves it if Muster dies
/// before anything follows it.
pub fn croquet_ended(
    core: &Core,
    store: &dyn GameStore,
    channel: &str,
    (a, b): (&str, &str),
    new: &str,
) -> GameRecord {
    for (who, text) in [
        (a, format!("{new} @{b}")),
        (b, "accept".to_string()),
        (a, "move 1".to_string()),
        (b, "move 2".to_string()),
        (a, "move 3".to_string()),
        (b, "move 4".to_string()),
    ] {
        core.handle(&request(who, channel, &text));
    }
    let key = ChannelKey::new("console", channel);
    let mut game = store.load(&key).unwrap().unwrap();
    let expected = game.version;
    game.version += 1;
    game.status = Status::Finished;
    game.ending = Some(Ending::Resigned { seat: 0 });
    store.archive(&key, expected, &game).unwrap();
    game
}

/// Opens the places the core asked for (as the console does: a place is the channel of its
/// name), until the outbox is empty, so that paired games start.
pub fn open_places(core: &Core) {
    loop {
        let notices = core.notices("console");
        if notices.is_empty() {
            return;
        }
        for n in notices {
            if let Target::Open(o) = &n.target {
                core.place_opened(o, &o.name);
            }
        }
    }
}

/// A platform named `.0`, shown the plain way, whose private answers are private.
pub struct Named(pub &'static str);

impl Surface for Named {
    fn platform(&self) -> &str {
        self.0
    }
}

/// The link code in `text` (`ABCD-EFGH`, between backquotes).
pub fn code_in(text: &str) -> String {
    text.split('`')
        .find(|w| w.len() == 9 && w.as_bytes()[4] == b'-')
        .unwrap_or_else(|| panic!("no code in {text:?}"))
        .to_string()
}

/// alice's accounts on `chat` and `rooms` linked: `say(who, channel, text)` says `text` as
/// `who` (`alice@chat`) in `channel` and gives the answer's words.
pub fn link_alice(say: impl Fn(&str, &str, &str) -> String) {
    let code = code_in(&say("alice@chat", "c1", "link"));
    let out = say("alice@rooms", "!r1", &format!("link {code}"));
    assert!(out.starts_with("Linked"), "{out}");
}

/// The JSON file among `replies` (an export).
pub fn file_json(replies: &[Reply]) -> serde_json::Value {
    let content = replies
        .iter()
        .find_map(|r| match r {
            Reply::File { content, .. } => Some(content.clone()),
            _ => None,
        })
        .expect("an export");
    serde_json::from_str(&content).expect("JSON")
}
