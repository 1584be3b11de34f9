//! A Discord move's walk (docs/architecture.md, "A move's walk"), counted: a slash command
//! answered through the adapter, against Discord's stand-in, reads the channel's game once and
//! writes once; keeping the newest board's buttons costs the store nothing (the adapter reads
//! the channel's history from Discord instead).

use std::sync::Arc;

use muster_config::discord::{Discord, Mode, Register, Secret};
use muster_core::clock::ManualClock;
use muster_core::desk::Core;
use muster_core::store::MemoryStore;
use muster_core::store::counted::{Counted, Counts};
use muster_discord::Shared;
use muster_discord::dispatch::dispatch;
use muster_discord::surface::DiscordSurface;
use muster_tests::discord::{Person, StandIn, command};
use serde_json::{Value, json};
use serenity::all::{ApplicationId, HttpBuilder, Interaction};

const APP: u64 = 1_600_000_000_000_000_001;
const GUILD: &str = "1600000000000000100";
const CHANNEL: &str = "1600000000000000200";

fn settings(api: &str) -> Discord {
    Discord {
        token: Secret::new("test-token"),
        application_id: APP,
        mode: Mode::Http,
        public_key: None,
        listen: "127.0.0.1:0".into(),
        register: Register::Global,
        api_url: Some(api.into()),
        defer_after_ms: 1000,
        guilds: Default::default(),
        clock: None,
        timeout_claim: false,
        channel_clocks: Default::default(),
        shards: None,
        games_channel: None,
    }
}

/// Runs the slash command `name` with `options` by `who` through the adapter, as either
/// transport hands it over.
async fn slash(standin: &StandIn, shared: &Shared, who: &Person, name: &str, options: Value) {
    let v = command(name, options, who, CHANNEL, Some(GUILD));
    standin.expect_interaction(&v);
    let interaction: Interaction = serde_json::from_value(v).expect("an interaction");
    let http = HttpBuilder::new("Bot test-token")
        .proxy(standin.api_url())
        .ratelimiter_disabled(true)
        .application_id(ApplicationId::new(APP))
        .build();
    dispatch(shared, &http, &interaction).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discord_move_reads_its_game_once_and_writes_once() {
    let standin = StandIn::start(APP).await;
    let counts = Arc::new(Counts::default());
    let store = Counted::new(Arc::new(MemoryStore::default()), Arc::clone(&counts));
    let clock = Arc::new(ManualClock::starting_at(1_800_000_000));
    let core = Core::with_clock(Arc::new(store), "/", clock)
        .with_surface(Arc::new(DiscordSurface::default()));
    let shared = Shared::with_core(&core, settings(&standin.api_url()));
    let (alice, bob) = (Person::new("alice"), Person::new("bob"));
    let game = json!([
        {"name": "game", "type": 4, "value": 0},
        {"name": "opponent", "type": 6, "value": bob.id},
    ]);
    slash(&standin, &shared, &alice, "new", game).await;
    slash(&standin, &shared, &bob, "accept", json!([])).await;
    counts.take();
    let b1 = json!([{"name": "notation", "type": 3, "value": "b1"}]);
    slash(&standin, &shared, &alice, "move", b1).await;
    let [loads, notes, commits, writes, reads] = counts.take();
    assert_eq!(loads, 1, "the channel's game is read once");
    assert_eq!(commits, 1, "the move is one write");
    assert_eq!(
        writes, 0,
        "nothing else is written: no note of the newest buttons"
    );
    assert_eq!(reads, 0, "nothing else is read");
    assert!(notes <= 1, "the next player's settings, read once: {notes}");
    // The board was posted, and only the newest message keeps its buttons.
    let shown: Vec<_> = standin
        .messages()
        .into_iter()
        .filter(|m| m.channel_id == CHANNEL && m.flags & 64 == 0)
        .filter(|m| m.components != json!([]) && !m.components.is_null())
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        !shown[0].attachments.is_empty(),
        "the newest board keeps them"
    );
}
