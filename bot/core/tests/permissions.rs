//! The permission matrix of the command core: who may use each command in each state of a
//! channel's game (docs/guide.md, "Commands", the "who" column), run row by row against a fresh
//! core over the in-memory store.
//!
//! The game is Arithmetical Croquet between alice (White, seat 0) and bob (Black, seat 1) in
//! `#general`. The roles:
//! - the seat to move: bob once the game runs (alice played `move 1`); in the open challenge,
//!   alice, the challenger, whose seat (White) moves first; in a finished game bob, who was to
//!   move when it ended;
//! - the other seat: alice once the game runs; bob, the challenged player, in the challenge;
//! - a spectator: carol, not seated here, with a game of her own in `#elsewhere`;
//! - an organiser: olga, not seated, `Policy { organiser: true, .. }`;
//! - a stranger: sam, with no game anywhere.
//!
//! With no game in the channel, the "seats" are alice and bob with no game anywhere.
//!
//! Allowed: the stored game changed as the command means (checked per command), or for a
//! read-only command a public answer (`help`, `rules`, `notation` and `games` answer only the
//! asker, by design: docs/matrix.md, "Errors and help cannot be private in a room"). Refused:
//! only private replies, readable, saying what to do instead where the guide implies one, and
//! the store byte-for-byte as it was. Having nothing to show (no game here, no move to replay)
//! counts as Refused. Either way nothing touches carol's game in `#elsewhere`.

use std::sync::Arc;

use muster_core::desk::{Core, Policy, Reply, Request, User};
use muster_core::store::record::encode;
use muster_core::store::{ChannelKey, Ending, GameRecord, MemoryStore, Status};

use common::privates;
use muster_core::testing as common;

const GENERAL: &str = "general";
const ELSEWHERE: &str = "elsewhere";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    Mover,
    Other,
    Spectator,
    Organiser,
    Stranger,
}

/// The columns of [`MATRIX`], in order.
const ROLES: [Role; 5] = [
    Role::Mover,
    Role::Other,
    Role::Spectator,
    Role::Organiser,
    Role::Stranger,
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// alice: `new croquet @bob`; bob has not answered.
    Challenge,
    /// bob accepted and alice played `move 1`: bob is to move.
    Active,
    /// `Active`, then alice (not to move) offered a draw.
    DrawOffered,
    /// `Active`, then alice asked to take back her move.
    TakebackAsked,
    /// `Active`, then alice resigned: archived, the channel empty.
    Finished,
    /// Nothing was ever played in the channel.
    NoGame,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    Allowed,
    Refused,
}

use Outcome::{Allowed, Refused};
use State::{Active, Challenge, DrawOffered, Finished, NoGame, TakebackAsked};
use muster_core::kernel::replayable::Replayable;
use muster_core::store::{Lists, Live};

/// `{step}` is a legal step for the seat to move; `{id}` the id of the channel's game, or with
/// the channel empty of the game that finished there.
type Row = (&'static str, State, [Outcome; 5]);

#[rustfmt::skip]
const MATRIX: &[Row] = &[
    // command             state           mover    other    spectator organiser stranger
    // One game per channel: `new` only where there is none (the guide: "in a channel without a
    // game"); an organiser is no exception.
    ("new croquet",        Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("new croquet",        Active,        [Refused, Refused, Refused, Refused, Refused]),
    ("new croquet",        DrawOffered,   [Refused, Refused, Refused, Refused, Refused]),
    ("new croquet",        TakebackAsked, [Refused, Refused, Refused, Refused, Refused]),
    ("new croquet",        Finished,      [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("new croquet",        NoGame,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    // The challenge names both players, so no seat is open to join.
    ("join",               Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("join",               Active,        [Refused, Refused, Refused, Refused, Refused]),
    ("join",               DrawOffered,   [Refused, Refused, Refused, Refused, Refused]),
    ("join",               TakebackAsked, [Refused, Refused, Refused, Refused, Refused]),
    ("join",               Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("join",               NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    // Only the challenged player answers a challenge (the challenger withdraws with `abort`).
    ("accept",             Challenge,     [Refused, Allowed, Refused, Refused, Refused]),
    ("accept",             Active,        [Refused, Refused, Refused, Refused, Refused]),
    ("accept",             DrawOffered,   [Refused, Refused, Refused, Refused, Refused]),
    ("accept",             TakebackAsked, [Refused, Refused, Refused, Refused, Refused]),
    ("accept",             Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("accept",             NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    ("decline",            Challenge,     [Refused, Allowed, Refused, Refused, Refused]),
    ("decline",            Active,        [Refused, Refused, Refused, Refused, Refused]),
    ("decline",            DrawOffered,   [Refused, Refused, Refused, Refused, Refused]),
    ("decline",            TakebackAsked, [Refused, Refused, Refused, Refused, Refused]),
    ("decline",            Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("decline",            NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    // Players before the first move (the challenged one counts: he sits at the table).
    // The guide's column says "players"; an organiser may call off any game in the channel,
    // also after the first move (`Policy::organiser`'s documentation): the organiser column.
    ("abort",              Challenge,     [Allowed, Allowed, Refused, Allowed, Refused]),
    ("abort",              Active,        [Refused, Refused, Refused, Allowed, Refused]),
    ("abort",              DrawOffered,   [Refused, Refused, Refused, Allowed, Refused]),
    ("abort",              TakebackAsked, [Refused, Refused, Refused, Allowed, Refused]),
    ("abort",              Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("abort",              NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    // The seat to move only. A move also declines a pending draw (the guide) and, as a referee
    // would take it, a pending takeback request.
    ("move {step}",        Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("move {step}",        Active,        [Allowed, Refused, Refused, Refused, Refused]),
    ("move {step}",        DrawOffered,   [Allowed, Refused, Refused, Refused, Refused]),
    ("move {step}",        TakebackAsked, [Allowed, Refused, Refused, Refused, Refused]),
    ("move {step}",        Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("move {step}",        NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    // Players, once the game runs (before that, `abort` or `decline` calls it off).
    ("resign",             Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("resign",             Active,        [Allowed, Allowed, Refused, Refused, Refused]),
    ("resign",             DrawOffered,   [Allowed, Allowed, Refused, Refused, Refused]),
    ("resign",             TakebackAsked, [Allowed, Allowed, Refused, Refused, Refused]),
    ("resign",             Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("resign",             NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    // Either player offers; `draw` facing the opponent's offer accepts it; the side that
    // offered cannot answer its own offer. Offering while a takeback waits is allowed.
    ("draw",               Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("draw",               Active,        [Allowed, Allowed, Refused, Refused, Refused]),
    ("draw",               DrawOffered,   [Allowed, Refused, Refused, Refused, Refused]),
    ("draw",               TakebackAsked, [Allowed, Allowed, Refused, Refused, Refused]),
    ("draw",               Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("draw",               NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    ("draw accept",        Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("draw accept",        Active,        [Refused, Refused, Refused, Refused, Refused]),
    ("draw accept",        DrawOffered,   [Allowed, Refused, Refused, Refused, Refused]),
    ("draw accept",        TakebackAsked, [Refused, Refused, Refused, Refused, Refused]),
    ("draw accept",        Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("draw accept",        NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    ("draw decline",       Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("draw decline",       Active,        [Refused, Refused, Refused, Refused, Refused]),
    ("draw decline",       DrawOffered,   [Allowed, Refused, Refused, Refused, Refused]),
    ("draw decline",       TakebackAsked, [Refused, Refused, Refused, Refused, Refused]),
    ("draw decline",       Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("draw decline",       NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    // "players" may ask to take back "the last move" (the guide), so the seat to move may ask
    // to take back the opponent's last move (the mover column), though against the bot the
    // same request is refused ("There is no move of yours to take back"): decided by the guide.
    ("takeback",           Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("takeback",           Active,        [Allowed, Allowed, Refused, Refused, Refused]),
    ("takeback",           DrawOffered,   [Allowed, Allowed, Refused, Refused, Refused]),
    ("takeback",           TakebackAsked, [Allowed, Refused, Refused, Refused, Refused]),
    ("takeback",           Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("takeback",           NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    ("takeback accept",    Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("takeback accept",    Active,        [Refused, Refused, Refused, Refused, Refused]),
    ("takeback accept",    DrawOffered,   [Refused, Refused, Refused, Refused, Refused]),
    ("takeback accept",    TakebackAsked, [Allowed, Refused, Refused, Refused, Refused]),
    ("takeback accept",    Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("takeback accept",    NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    ("takeback decline",   Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("takeback decline",   Active,        [Refused, Refused, Refused, Refused, Refused]),
    ("takeback decline",   DrawOffered,   [Refused, Refused, Refused, Refused, Refused]),
    ("takeback decline",   TakebackAsked, [Allowed, Refused, Refused, Refused, Refused]),
    ("takeback decline",   Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("takeback decline",   NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    // The game is untimed: nothing to claim, for anyone.
    ("claim",              Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("claim",              Active,        [Refused, Refused, Refused, Refused, Refused]),
    ("claim",              DrawOffered,   [Refused, Refused, Refused, Refused, Refused]),
    ("claim",              TakebackAsked, [Refused, Refused, Refused, Refused, Refused]),
    ("claim",              Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("claim",              NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    // Hints only against the bot (the guide); between people they would be outside help.
    ("hint",               Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("hint",               Active,        [Refused, Refused, Refused, Refused, Refused]),
    ("hint",               DrawOffered,   [Refused, Refused, Refused, Refused, Refused]),
    ("hint",               TakebackAsked, [Refused, Refused, Refused, Refused, Refused]),
    ("hint",               Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("hint",               NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    // Read-only: anyone, wherever there is something to show.
    ("board",              Challenge,     [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("board",              Active,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("board",              DrawOffered,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("board",              TakebackAsked, [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("board",              Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("board",              NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    ("moves",              Challenge,     [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("moves",              Active,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("moves",              DrawOffered,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("moves",              TakebackAsked, [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("moves",              Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("moves",              NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    ("history",            Challenge,     [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("history",            Active,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("history",            DrawOffered,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("history",            TakebackAsked, [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("history",            Finished,      [Refused, Refused, Refused, Refused, Refused]),
    ("history",            NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    // With the channel empty, `export` and `replay` give the asker's last finished game: the
    // players have one, the others none. By id, anyone gets a finished game.
    ("export",             Challenge,     [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("export",             Active,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("export",             DrawOffered,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("export",             TakebackAsked, [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("export",             Finished,      [Allowed, Allowed, Refused, Refused, Refused]),
    ("export",             NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    ("export {id}",        Finished,      [Allowed, Allowed, Allowed, Allowed, Allowed]),
    // A game without a move has nothing to replay.
    ("replay",             Challenge,     [Refused, Refused, Refused, Refused, Refused]),
    ("replay",             Active,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("replay",             DrawOffered,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("replay",             TakebackAsked, [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("replay",             Finished,      [Allowed, Allowed, Refused, Refused, Refused]),
    ("replay",             NoGame,        [Refused, Refused, Refused, Refused, Refused]),
    ("replay {id}",        Active,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("replay {id}",        Finished,      [Allowed, Allowed, Allowed, Allowed, Allowed]),
    // Explanations and the dashboard: anyone, always (answered to the asker alone).
    ("rules",              Challenge,     [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("rules",              Active,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("rules",              DrawOffered,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("rules",              TakebackAsked, [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("rules",              Finished,      [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("rules",              NoGame,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("notation",           Challenge,     [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("notation",           Active,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("notation",           DrawOffered,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("notation",           TakebackAsked, [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("notation",           Finished,      [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("notation",           NoGame,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("help",               Challenge,     [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("help",               Active,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("help",               DrawOffered,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("help",               TakebackAsked, [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("help",               Finished,      [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("help",               NoGame,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("games",              Challenge,     [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("games",              Active,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("games",              DrawOffered,   [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("games",              TakebackAsked, [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("games",              Finished,      [Allowed, Allowed, Allowed, Allowed, Allowed]),
    ("games",              NoGame,        [Allowed, Allowed, Allowed, Allowed, Allowed]),
];

/// Rows whose expectation above is what should happen but the core does otherwise today, left
/// out of the assertion until fixed: `(command, role, state)`, each under a `// BUG:` comment
/// saying what happens instead (and the row in [`MATRIX`] marked `// BUG:` too). None today.
const KNOWN_BUGS: &[(&str, Role, State)] = &[];

/// The user playing `role` in `state`, with what the place allows him.
fn actor(role: Role, state: State) -> (User, Policy) {
    let challenge = matches!(state, Challenge | NoGame);
    let name = match role {
        Role::Mover if challenge => "alice",
        Role::Mover => "bob",
        Role::Other if challenge => "bob",
        Role::Other => "alice",
        Role::Spectator => "carol",
        Role::Organiser => "olga",
        Role::Stranger => "sam",
    };
    let policy = Policy {
        organiser: role == Role::Organiser,
        ..Policy::default()
    };
    (User::named(name), policy)
}

fn request(user: User, policy: Policy, channel: &str, text: &str) -> Request {
    Request {
        platform: "console".into(),
        channel: channel.into(),
        user,
        text: text.into(),
        mentions: vec![],
        policy,
    }
}

fn live(store: &MemoryStore, channel: &str) -> Option<GameRecord> {
    store.load(&ChannelKey::new("console", channel)).unwrap()
}

/// A fresh core and store, with carol's game in `#elsewhere` and `#general` in `state`.
fn world(state: State) -> (Arc<MemoryStore>, Core) {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    let mut script = vec![
        ("carol", ELSEWHERE, "new croquet @dave"),
        ("dave", ELSEWHERE, "accept"),
    ];
    let game = [
        ("alice", GENERAL, "new croquet @bob"),
        ("bob", GENERAL, "accept"),
        ("alice", GENERAL, "move 1"),
    ];
    script.extend(match state {
        NoGame => &game[..0],
        Challenge => &game[..1],
        _ => &game[..],
    });
    script.extend(match state {
        DrawOffered => Some(("alice", GENERAL, "draw")),
        TakebackAsked => Some(("alice", GENERAL, "takeback")),
        Finished => Some(("alice", GENERAL, "resign")),
        _ => None,
    });
    for (user, channel, text) in script {
        let out = core.handle(&request(
            User::named(user),
            Policy::default(),
            channel,
            text,
        ));
        assert!(!out.is_empty() && out.iter().all(|r| !matches!(r, Reply::Private(_))));
    }
    (store, core)
}

/// The row's command with `{step}` and `{id}` filled in.
fn command_text(template: &str, store: &MemoryStore) -> String {
    let game = live(store, GENERAL);
    let step = game
        .as_ref()
        .and_then(|r| r.rebuild().ok())
        .and_then(|g| g.legal_moves_text().into_iter().next())
        .unwrap_or_else(|| "1".into());
    let id = game
        .map(|r| r.id)
        .or_else(|| {
            store
                .games_of("alice")
                .unwrap()
                .first()
                .map(|r| r.id.clone())
        })
        .unwrap_or_else(|| "g999".into());
    template.replace("{step}", &step).replace("{id}", &id)
}

/// The whole store as bytes: both channels' live records and every archived one.
fn snapshot(store: &MemoryStore) -> Vec<Vec<u8>> {
    let mut ids = store.archive_ids().unwrap();
    ids.sort();
    let mut all: Vec<Vec<u8>> = [GENERAL, ELSEWHERE]
        .iter()
        .map(|c| live(store, c).map_or_else(Vec::new, |r| encode(&r)))
        .collect();
    all.extend(
        ids.iter()
            .map(|id| encode(&store.archived(id).unwrap().unwrap())),
    );
    all
}

/// Whether everyone in the channel sees the reply (a board for the asker alone does not).
fn is_public(r: &Reply) -> bool {
    match r {
        Reply::Private(_) => false,
        Reply::Board(b) => !b.is_private(),
        _ => true,
    }
}

/// Whether the reply shows a board, to the channel or to the asker.
fn shows_board(r: &Reply) -> bool {
    matches!(r, Reply::Board(_))
}

/// What a refusal should point to instead (any one of these commands), where the guide implies
/// one; `&[]` where it implies none (it is not your turn; only the challenged may answer).
fn instead(command: &str, role: Role, state: State) -> &'static [&'static str] {
    let word = command.split_whitespace().next().unwrap_or_default();
    let seated = matches!(role, Role::Mover | Role::Other) && state != NoGame;
    let live = !matches!(state, Finished | NoGame);
    match word {
        "new" => &["abort"],
        "board" | "moves" | "history" | "export" | "replay" | "join" | "accept" | "decline"
        | "abort" | "move" | "resign" | "draw" | "takeback" | "claim" | "hint"
            if !live =>
        {
            &["new"]
        }
        "join" if state != Challenge => &["board"],
        "move" | "resign" | "draw" | "takeback" | "claim" if state == Challenge => {
            &["board", "accept", "abort"]
        }
        "move" | "resign" | "draw" | "takeback" | "claim" if !seated => &["board"],
        "abort" if seated => &["resign", "draw"],
        "draw" if command.contains(' ') && state != DrawOffered => &["draw"],
        "takeback" if command.contains(' ') && state != TakebackAsked => &["takeback"],
        _ => &[],
    }
}

/// Why a refusal's private reply is not what the players should read, if it is not.
fn unreadable(text: &str, hints: &[&str]) -> Option<String> {
    let debug = ["{", "}", "Some(", "None", "Ok(", "Err(", "::", "\\\""];
    if text.trim().is_empty() || text.chars().count() >= 2000 {
        return Some(format!("empty or too long ({} chars)", text.len()));
    }
    if let Some(d) = debug.iter().find(|d| text.contains(*d)) {
        return Some(format!("looks like debug output ({d})"));
    }
    let points = |w: &&str| text.contains(&format!("`{w}")) || text.contains(&format!("`!{w}"));
    if !hints.is_empty() && !hints.iter().any(points) {
        return Some(format!("says nothing to do instead (one of {hints:?})"));
    }
    None
}

/// Whether an allowed command did what it means: `before` is the channel's game before it,
/// `seat` the asker's seat there.
fn did_what_it_means(
    command: &str,
    store: &MemoryStore,
    before: Option<&GameRecord>,
    seat: Option<usize>,
    replies: &[Reply],
    unchanged: bool,
) -> Result<(), String> {
    let after = live(store, GENERAL);
    let ended = before.and_then(|b| store.archived(&b.id).unwrap());
    let ending = ended.as_ref().and_then(|r| r.ending);
    let moves = |r: &Option<GameRecord>| r.as_ref().map(|r| r.moves.len());
    let before_moves = before.map(|b| b.moves.len());
    let read_only = [
        "board", "moves", "history", "export", "replay", "rules", "notation", "help", "games",
    ];
    let word = command.split_whitespace().next().unwrap_or_default();
    if read_only.contains(&word) {
        // What an answer given to the asker alone says (not a refusal).
        let marks: &[&str] = match word {
            "help" => &["Commands"],
            "rules" => &["Croquet", "Lanrick"],
            "notation" => &["notation"],
            "games" => &["games"],
            _ => &[],
        };
        let answered = privates(replies)
            .iter()
            .any(|t| marks.iter().any(|m| t.contains(m)));
        return match (unchanged, marks.is_empty()) {
            (false, _) => Err("a read-only command changed the store".into()),
            // `board` answers the asker alone, with his own view.
            (true, true) if word == "board" && replies.iter().any(shows_board) => Ok(()),
            (true, true) if replies.iter().any(is_public) => Ok(()),
            (true, false) if answered => Ok(()),
            _ => Err("no answer of the expected kind".into()),
        };
    }
    if !replies.iter().any(is_public) {
        return Err("a change with nothing said in the channel".into());
    }
    let version_ok = match (before, &after) {
        (Some(b), Some(a)) if a.id == b.id => a.version == b.version + 1,
        _ => true,
    };
    let offered = before.is_some_and(|b| b.draw_offer.is_some());
    let asked = before.is_some_and(|b| b.takeback.is_some());
    let done = match command.split_whitespace().take(2).collect::<Vec<_>>()[..] {
        ["new", ..] => after
            .as_ref()
            .is_some_and(|a| before.is_none() && a.status == Status::Open && a.version == 1),
        ["accept"] => after.is_some_and(|a| a.status == Status::Active),
        ["decline"] | ["abort"] => after.is_none() && ending == Some(Ending::Aborted),
        ["move", _] => {
            moves(&after) == before_moves.map(|n| n + 1)
                && after
                    .as_ref()
                    .is_some_and(|a| a.draw_offer.is_none() && a.takeback.is_none())
        }
        ["resign"] => {
            after.is_none() && seat.is_some_and(|seat| ending == Some(Ending::Resigned { seat }))
        }
        ["draw"] if offered => after.is_none() && ending == Some(Ending::DrawAgreed),
        ["draw"] => after.is_some_and(|a| a.draw_offer == seat),
        ["draw", "accept"] => after.is_none() && ending == Some(Ending::DrawAgreed),
        ["draw", "decline"] => {
            moves(&after) == before_moves && after.is_some_and(|a| a.draw_offer.is_none())
        }
        ["takeback"] if asked => moves(&after).map(|n| n + 1) == before_moves,
        ["takeback"] => after.is_some_and(|a| a.takeback == seat),
        ["takeback", "accept"] => moves(&after).map(|n| n + 1) == before_moves,
        ["takeback", "decline"] => {
            moves(&after) == before_moves && after.is_some_and(|a| a.takeback.is_none())
        }
        _ => false,
    };
    if done && version_ok {
        Ok(())
    } else {
        Err("the stored game did not change as the command means".into())
    }
}

/// Runs one row for one role; `Err` says how the core's behaviour differs from the row.
fn check(template: &str, role: Role, state: State, expected: Outcome) -> Result<(), String> {
    let (store, core) = world(state);
    let text = command_text(template, &store);
    let (user, policy) = actor(role, state);
    let before = live(&store, GENERAL);
    let seat = before.as_ref().and_then(|b| b.seat_of(&user.id));
    let elsewhere = live(&store, ELSEWHERE).map(|r| encode(&r));
    let bytes = snapshot(&store);
    let replies = core.handle(&request(user.clone(), policy, GENERAL, &text));
    let unchanged = snapshot(&store) == bytes;
    let shown = format!("{replies:?}");
    if live(&store, ELSEWHERE).map(|r| encode(&r)) != elsewhere {
        return Err(format!("it touched the game in #{ELSEWHERE}: {shown}"));
    }
    let refused =
        !replies.is_empty() && !replies.iter().any(|r| is_public(r) || shows_board(r)) && unchanged;
    match expected {
        Refused if refused => {
            let hints = instead(&text, role, state);
            match privates(&replies).iter().find_map(|t| unreadable(t, hints)) {
                Some(why) => Err(format!("refused, but the reply {why}: {shown}")),
                None => Ok(()),
            }
        }
        Refused => Err(format!(
            "expected Refused, got (changed: {}): {shown}",
            !unchanged
        )),
        Allowed => {
            let new_seated = live(&store, GENERAL).is_some_and(|a| a.is_player(&user.id));
            if text.starts_with("new") && !new_seated {
                return Err(format!("`new` did not seat its asker: {shown}"));
            }
            did_what_it_means(&text, &store, before.as_ref(), seat, &replies, unchanged)
                .map_err(|why| format!("expected Allowed, but {why}: {shown}"))
        }
    }
}

#[test]
fn every_role_may_do_what_the_guide_says_and_nothing_else() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for &(command, state, outcomes) in MATRIX {
        for (role, expected) in ROLES.into_iter().zip(outcomes) {
            if KNOWN_BUGS.contains(&(command, role, state)) {
                continue;
            }
            checked += 1;
            if let Err(why) = check(command, role, state, expected) {
                failures.push(format!("{command:?} by {role:?} in {state:?}: {why}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} rows fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked + KNOWN_BUGS.len(), MATRIX.len() * ROLES.len());
}

#[test]
fn the_matrix_covers_every_command_in_every_state() {
    let states = [
        Challenge,
        Active,
        DrawOffered,
        TakebackAsked,
        Finished,
        NoGame,
    ];
    let word = |c: &str| c.split_whitespace().next().unwrap_or_default().to_string();
    // Each command (without an id) has one row per state.
    for &(command, ..) in MATRIX.iter().filter(|(c, ..)| !c.contains("{id}")) {
        for state in states {
            let rows = MATRIX
                .iter()
                .filter(|(c, s, _)| *c == command && *s == state);
            assert_eq!(rows.count(), 1, "{command:?} in {state:?}");
        }
    }
    // Every command word the core knows is in the matrix, or is about the user himself or an
    // event rather than the channel's game (`play` is `move`): permissions_events.rs has those.
    let elsewhere = [
        "play",
        "notify",
        "vacation",
        "tournament",
        "rating",
        "leaderboard",
        "ratings",
        // A player's own accounts: anyone, for himself only (bot/core/tests/links.rs).
        "link",
        "unlink",
        "whoami",
        // A player's own lessons: anyone, for himself, never the channel's game
        // (bot/core/tests/learn.rs).
        "learn",
        // A player's own puzzles: anyone, for himself (bot/core/tests/puzzles.rs).
        "puzzle",
    ];
    for w in muster_core::desk::command::WORDS {
        let covered = MATRIX.iter().any(|(c, ..)| word(c) == w);
        assert!(covered || elsewhere.contains(&w), "`{w}` has no row");
    }
}
