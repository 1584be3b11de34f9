//! What each fuzz target does with its input, and what it checks. The fuzz targets
//! (`fuzz/fuzz_targets`) call these, and so does the stable test that replays the kept corpora
//! and crashes (`tests/tests/fuzz_corpora.rs`), so that every input a fuzzer kept runs again in
//! every test run. A panic is a finding: the checks below are `assert!`s.

use std::sync::{Arc, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

use ed25519_dalek::{Signer, SigningKey};
use muster_core::desk::{Core, Reply, Request, User};
use muster_core::kernel::replayable::Replayable;
use muster_core::store::{GameStore, MemoryStore, record};
use muster_discord::endpoint::{Signed, Triage, triage};
use muster_rules::{AnyGame, GameId};
use serenity::all::Interaction;
use serenity::interactions_endpoint::Verifier;

/// Inputs longer than this are cut (the fuzzers look for depth, not length).
const MAX_INPUT: usize = 4096;
/// Decisions tried per input at most.
const MAX_LINES: usize = 64;

/// The game a byte picks.
fn game_id(byte: u8) -> GameId {
    GameId::ALL[usize::from(byte) % GameId::ALL.len()]
}

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(&data[..data.len().min(MAX_INPUT)]).into_owned()
}

/// `play`: the first byte picks the game; each further line is a decision typed by the seat to
/// move. A refused line leaves the game exactly as it was; an accepted one has a canonical
/// form that leads to the same position; and the accepted lines, replayed from the start, give
/// the same game. The helpers typing goes through (suggestions, recognising notation) never
/// panic.
pub fn play(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let id = game_id(first);
    let mut game = AnyGame::new(id);
    let mut accepted: Vec<String> = Vec::new();
    for line in text(rest).lines().take(MAX_LINES) {
        let Some(seat) = game.to_move() else { break };
        let _ = game.is_notation(&game.normalise(line));
        let _ = game.suggest(line, 5);
        let canonical = game.canonical(line);
        let before = game.clone();
        match game.play_text(seat, line) {
            Ok(_) => {
                let canonical = canonical.unwrap_or_else(|e| {
                    panic!("{id:?}: {line:?} was accepted but has no canonical form: {e:?}")
                });
                let mut again = before;
                again.play_text(seat, &canonical).unwrap_or_else(|e| {
                    panic!("{id:?}: canonical {canonical:?} of {line:?} refused: {e:?}")
                });
                assert_eq!(again.position(), game.position(), "{id:?}: {line:?}");
                accepted.push(line.to_string());
            }
            Err(_) => assert!(game == before, "{id:?}: refused {line:?} changed the game"),
        }
    }
    let mut replayed = AnyGame::new(id);
    for line in &accepted {
        let seat = replayed.to_move().expect("a seat to move on replay");
        replayed
            .play_text(seat, line)
            .unwrap_or_else(|e| panic!("{id:?}: accepted {line:?} refused on replay: {e:?}"));
    }
    assert!(replayed == game, "{id:?}: the replay differs: {accepted:?}");
    assert_eq!(replayed.position(), game.position());
}

/// `position`: the first byte picks the game; the rest is a position string. One that reads
/// is written back the same and reads again to the same game; its listed decisions (the first
/// few) are accepted.
pub fn position(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let id = game_id(first);
    let Ok(game) = AnyGame::from_position(id, &text(rest)) else {
        return;
    };
    let written = game.position();
    let again = AnyGame::from_position(id, &written)
        .unwrap_or_else(|e| panic!("{id:?}: {written:?} does not read back: {e}"));
    assert_eq!(again.position(), written, "{id:?}");
    let _ = game.state_json();
    let _ = game.outcome();
    if let Some(seat) = game.to_move() {
        for m in game.legal_moves_text().iter().take(4) {
            let mut next = game.clone();
            next.play_text(seat, m)
                .unwrap_or_else(|e| panic!("{id:?} {written:?}: listed {m:?} refused: {e:?}"));
        }
    }
}

/// `command`: the text of a chat command, through every parser a user's words reach: the
/// command parser (and the tournament, rating, appearance and bot-level words it calls), the
/// clock control, durations, times, quiet hours and store names.
pub fn command(data: &[u8]) {
    let text = text(data);
    let _ = muster_core::desk::command::parse(&text);
    let _ = muster_core::clock::control::Control::parse(&text);
    let _ = muster_core::clock::parse_duration(&text);
    let _ = muster_core::clock::parse_rfc3339(&text);
    let (hours, zone) = text.split_once('\n').unwrap_or((&text, ""));
    let _ = muster_core::clock::quiet::Quiet::parse(hours, Some(zone).filter(|z| !z.is_empty()));
    let _ = muster_core::store::named::Named::parse(&text);
    let _ = muster_config::Store::parse(&text);
    let _ = muster_config::discord::Shards::parse(&text);
    if let Ok(control) = muster_core::clock::control::Control::parse(&text)
        && let Some(control) = control
    {
        // What the game's header shows reads back as the same control.
        let typed = control.typed();
        let back = muster_core::clock::control::Control::parse(&typed)
            .unwrap_or_else(|e| panic!("{typed:?} (from {text:?}) does not read back: {e}"));
        assert_eq!(back.map(|c| c.typed()), Some(typed));
    }
}

/// Replies a user can read: none is empty.
fn readable(replies: &[Reply]) {
    for r in replies {
        match r {
            Reply::Text(t) | Reply::Private(t) => assert!(!t.trim().is_empty(), "{replies:?}"),
            Reply::Mention { text, .. } => assert!(!text.trim().is_empty(), "{replies:?}"),
            _ => {}
        }
    }
}

/// A core over a memory store with a game of Lanrick under way in `channel` between the two
/// users the Discord fixtures name, and the same in a Matrix room.
fn core() -> Core {
    let store: Arc<dyn GameStore> = Arc::new(MemoryStore::default());
    let core = Core::new(store, "!");
    for (platform, channel, a, b) in [
        (
            "discord",
            "1300000000000000200",
            "1300000000000000300",
            "1300000000000000301",
        ),
        (
            "matrix",
            "!room:example.org",
            "@alice:example.org",
            "@bob:example.org",
        ),
    ] {
        let request = |user: &str, text: &str, mentions: Vec<User>| Request {
            platform: platform.into(),
            channel: channel.into(),
            user: User::named(user),
            text: text.into(),
            mentions,
            policy: Default::default(),
        };
        core.handle(&request(
            a,
            &format!("new lanrick {b}"),
            vec![User::named(b)],
        ));
        core.handle(&request(b, "accept", Vec::new()));
    }
    core
}

/// The key Discord's requests are signed with here (stands in for Discord's own).
fn key() -> &'static SigningKey {
    static KEY: OnceLock<SigningKey> = OnceLock::new();
    KEY.get_or_init(|| SigningKey::from_bytes(b"muster-fuzz-interactions-key-01!"))
}

/// `discord`: the body of an interaction, signed as Discord signs it, through the endpoint's
/// request handling (signature, age, reading the interaction), the mapping of commands and
/// buttons to the core's words, and the core. Anything unreadable is refused with a status,
/// never a panic; every reply is readable.
pub fn discord(data: &[u8]) {
    let body = &data[..data.len().min(MAX_INPUT)];
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let verifier = Verifier::try_new(key().verifying_key().to_bytes()).expect("a public key");
    let now = SystemTime::now();
    let timestamp = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
        .to_string();
    let mut message = timestamp.as_bytes().to_vec();
    message.extend_from_slice(body);
    let signature = hex(&key().sign(&message).to_bytes());
    // The same body unsigned, or signed for another body, is refused.
    let forged = Signed {
        signature: Some(&signature),
        timestamp: Some("0"),
        body,
    };
    assert!(matches!(
        triage(&verifier, &forged, now),
        Triage::Refused(..)
    ));
    let signed = Signed {
        signature: Some(&signature),
        timestamp: Some(&timestamp),
        body,
    };
    let Triage::Answer(interaction) = triage(&verifier, &signed, now) else {
        return;
    };
    let (text, mentions, user, channel) = match &*interaction {
        Interaction::Command(c) => {
            let Some((text, mentions)) = muster_discord::words::text(&c.data) else {
                return;
            };
            let user = muster_discord::user(&c.user, c.member.as_deref());
            (text, mentions, user, c.channel_id.to_string())
        }
        Interaction::Autocomplete(c) => {
            let _ = muster_discord::complete::focused(&c.data);
            return;
        }
        Interaction::Component(c) => {
            let Some(text) = c
                .data
                .custom_id
                .strip_prefix(muster_discord::respond::BUTTON_PREFIX)
            else {
                return;
            };
            let user = muster_discord::user(&c.user, c.member.as_ref());
            (text.to_string(), Vec::new(), user, c.channel_id.to_string())
        }
        _ => return,
    };
    let request = Request {
        platform: "discord".into(),
        channel,
        user,
        text,
        mentions,
        policy: Default::default(),
    };
    readable(&core().handle(&request));
}

/// `matrix`: the JSON of one timeline event as a homeserver sends it, through the inbound path:
/// what the sync keeps of it, the command it carries (prefix, or a bare move of the player to
/// move), and the core, once by its event id. Every reply is readable; the same event again
/// runs nothing and answers the same.
pub fn matrix(data: &[u8]) {
    let json = text(data);
    let messages = muster_matrix::inbound::messages_in_json("@muster:example.org", &[&json]);
    if messages.is_empty() {
        return;
    }
    let core = core();
    for m in messages {
        let user = User {
            id: m.sender.to_string(),
            name: String::new(),
        };
        // As the adapter walks a message: met before, it is not run again.
        let id = m.event_id.as_str();
        if core
            .receipt("matrix", id)
            .expect("a memory store reads")
            .is_some()
        {
            continue;
        }
        let Some(found) = core.command_in("matrix", "!room:example.org", &user, &m.body) else {
            continue;
        };
        let request = Request {
            platform: "matrix".into(),
            channel: "!room:example.org".into(),
            user,
            text: found.text().to_string(),
            mentions: Vec::new(),
            policy: Default::default(),
        };
        let first = core.handle_unmet(&request, found, id, None);
        readable(&first.receipt.replies);
        let again = core
            .handle_once(&request, m.event_id.as_str(), None)
            .expect("a memory store reads");
        assert!(!again.fresh, "{} ran twice", m.event_id);
    }
}

/// `record`: bytes as the store might hold them for a game. Whatever decodes encodes and
/// decodes again to the same record, and rebuilding its game gives an answer, not a panic.
pub fn record(data: &[u8]) {
    let Ok(decoded) = record::decode(data) else {
        return;
    };
    let _ = decoded.rebuild();
    let _ = decoded.game_id();
    let _ = decoded.clocks();
    let _ = decoded.deadline();
    let encoded = record::encode(&decoded);
    let again = record::decode(&encoded).expect("an encoded record decodes");
    assert_eq!(record::encode(&again), encoded);
}
