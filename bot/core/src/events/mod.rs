//! Tournaments: an organiser opens an event in a channel, players join, and the core pairs every
//! round (the pure systems of `muster_rules::tournament`), opens a place per game, plays the
//! games there on the event's clock, takes each result as its game ends, and publishes pairings
//! and standings.
//!
//! An event is one record, kept as a note and changed by compare-and-swap. A game's result is
//! the game's own archived record: the event learns it whenever it is tended (when a game of it
//! ends, at any tournament command, at start), so a crash between a game's end and the event's
//! write loses nothing, and a round is paired in the same write that records the last result,
//! so it is never paired twice.

//!
//! The commands ([`command`] reads them, [`manage`] runs them), the runner that takes results
//! and pairs rounds ([`play`]), and what is shown of an event ([`report`], [`charts`]) live
//! beside this module, which holds the event's record.

pub mod charts;
pub mod command;
pub mod entries;
pub mod field;
pub mod follow;
pub mod manage;
pub mod places;
pub mod play;
pub mod report;

use muster_rules::tournament::knockout;
use serde::{Deserialize, Serialize};

use crate::kernel::clock::control::Control;
use crate::kernel::store::{ChannelKey, GameStore, Player, StoreError};

/// A knockout match is at most this many games: the first and two replays with colours
/// reversed; if the last is drawn too, the higher seed goes through.
pub const KNOCKOUT_GAMES: usize = 3;

/// The layout version of an event record.
pub const SCHEMA: u32 = 1;

/// Where event records are kept (a note per event, named `<community>/<name>`), and the index.
pub const HOME: &str = "\u{1e}tournaments";

/// The tournament system.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum System {
    /// Swiss (Dutch system's essentials).
    Swiss,
    /// Round robin by Berger tables.
    #[serde(rename = "roundrobin")]
    RoundRobin,
    /// Double round robin.
    Double,
    /// Seeded knockout.
    Knockout,
}

impl System {
    /// The word for it.
    pub fn word(self) -> &'static str {
        match self {
            System::Swiss => "swiss",
            System::RoundRobin => "roundrobin",
            System::Double => "double",
            System::Knockout => "knockout",
        }
    }

    /// How it reads in a sentence.
    pub fn title(self) -> &'static str {
        match self {
            System::Swiss => "Swiss",
            System::RoundRobin => "round robin",
            System::Double => "double round robin",
            System::Knockout => "knockout",
        }
    }
}

/// Where an event is in its life.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Taking entries.
    Open,
    /// Rounds being played.
    Running,
    /// Rounds being played; no new round is paired until it resumes.
    Paused,
    /// Over, with a final standing.
    Finished,
    /// Called off.
    Cancelled,
}

/// A result of one game, from the first seat's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Score {
    /// The first seat's side won.
    #[serde(rename = "1-0")]
    White,
    /// The second seat's side won.
    #[serde(rename = "0-1")]
    Black,
    /// Drawn.
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl Score {
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub fn code(self) -> &'static str {
        match self {
            Score::White => "1-0",
            Score::Black => "0-1",
            Score::Draw => "1/2-1/2",
        }
    }

    /// Reads `1-0`, `0-1`, `1/2-1/2` (also `½-½`, `draw`).
    pub fn parse(text: &str) -> Option<Score> {
        match text.to_ascii_lowercase().as_str() {
            "1-0" => Some(Score::White),
            "0-1" => Some(Score::Black),
            "1/2-1/2" | "½-½" | "draw" | "0.5-0.5" => Some(Score::Draw),
            _ => None,
        }
    }

    /// The first seat's points, in half points: 2 a win, 1 a draw, 0 a loss.
    pub fn white_points(self) -> u32 {
        match self {
            Score::White => 2,
            Score::Black => 0,
            Score::Draw => 1,
        }
    }

    /// The same result seen from the other side.
    pub fn flipped(self) -> Score {
        match self {
            Score::White => Score::Black,
            Score::Black => Score::White,
            Score::Draw => Score::Draw,
        }
    }
}

/// An entrant: one player, or a pair (Lanko `pairs` events; one player may hold both seats).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Entrant {
    /// The players, the one who entered first.
    pub players: Vec<Player>,
    /// When the entry was made (seconds since the Unix epoch).
    pub joined: u64,
    /// The first round (from 0) he no longer plays, once withdrawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_from: Option<usize>,
    /// His rating in the event's game when it started (a pair's, the mean of its players'),
    /// if every player of his had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// The platform he entered from, when it is not the event's (an event of a community
    /// across platforms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
}

impl Entrant {
    /// The name shown: `alice`, or `alice & bob` for a pair.
    pub fn name(&self) -> String {
        let mut names: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
        names.dedup();
        names.join(" & ")
    }

    /// Whether `user` plays for this entrant.
    pub fn has(&self, user: &str) -> bool {
        self.players.iter().any(|p| p.id == user)
    }
}

/// One game played for a board (a knockout match may need several).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Played {
    /// The game's id.
    pub id: String,
    /// The entrant with the first seat.
    pub white: usize,
    /// The result, once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Score>,
    /// Whether it was won by forfeit (lost on time without a move, or adjudicated so).
    #[serde(default)]
    pub forfeit: bool,
    /// Whether the organiser gave the result.
    #[serde(default)]
    pub adjudicated: bool,
}

/// One board of a round: two entrants, their place, and the games they played there.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Board {
    /// The entrant with the first seat in the first game.
    pub white: usize,
    /// The other.
    pub black: usize,
    /// The place the games are played in, once it is open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// The games, in order.
    pub games: Vec<Played>,
}

impl Board {
    /// The last game.
    pub fn last(&self) -> Option<&Played> {
        self.games.last()
    }

    /// Whether the board has a final result.
    pub fn done(&self, knockout: bool) -> bool {
        match self.last().and_then(|g| g.result) {
            None => false,
            Some(Score::Draw) if knockout => self.games.len() >= KNOCKOUT_GAMES,
            Some(_) => true,
        }
    }

    /// The result of the board from `white`'s side (the last game's, turned to the board's
    /// colours).
    pub fn result(&self) -> Option<Score> {
        let g = self.last()?;
        let r = g.result?;
        Some(if g.white == self.white {
            r
        } else {
            r.flipped()
        })
    }

    /// Whether the last game was won by forfeit.
    pub fn forfeit(&self) -> bool {
        self.last().is_some_and(|g| g.forfeit)
    }

    /// Who goes through (a knockout match decided): the winner of the last game, or after the
    /// last replay drawn too, the higher seed.
    pub fn through(&self) -> Option<usize> {
        match self.result()? {
            Score::White => Some(self.white),
            Score::Black => Some(self.black),
            Score::Draw if self.games.len() >= KNOCKOUT_GAMES => Some(self.white.min(self.black)),
            Score::Draw => None,
        }
    }
}

/// One round: its boards and who did not play.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, Default)]
pub struct RoundRecord {
    /// The boards, board 1 first.
    pub boards: Vec<Board>,
    /// Entrants without a game: a Swiss bye (1 point), a round-robin rest (nothing), knockout
    /// byes (through to the next round).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub byes: Vec<usize>,
    /// Whether the round was announced.
    #[serde(default)]
    pub announced: bool,
    /// Whether the Swiss colour rules had to be relaxed to pair it (no pairing keeps them).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub colours_relaxed: bool,
}

/// A tournament as stored.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Event {
    /// Layout version ([`SCHEMA`]).
    pub schema: u32,
    /// The slug, unique in its community.
    pub name: String,
    /// The community (a chat server; empty where the platform is one community).
    pub community: String,
    /// The platform.
    pub platform: String,
    /// The channel it was opened in, where it is announced.
    pub channel: String,
    /// Who opened it.
    pub organiser: Player,
    /// The game id.
    pub game: String,
    /// The system.
    pub system: System,
    /// The rounds asked for (Swiss), else worked out at the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<usize>,
    /// The time control of its games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Control>,
    /// Lanko pairs.
    #[serde(default)]
    pub pairs: bool,
    /// Where it is in its life.
    pub state: State,
    /// Created (seconds since the Unix epoch).
    pub created: u64,
    /// The entrants; once started, in seed order.
    pub entrants: Vec<Entrant>,
    /// The rounds paired so far.
    pub played: Vec<RoundRecord>,
    /// Messages decided in a write of the event (results, a round's announcement) and not yet
    /// kept for posting: stored with the change they tell of, then kept and taken out
    /// ([`places::flush`]), so that a crash in between neither loses nor repeats one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tell: Vec<Told>,
    /// How many messages the event has decided so far (each [`Told`]'s number).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub told: u64,
    /// For an event of a community across platforms with entrants from another platform: the
    /// channel there where the first of them entered, where the event is announced too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub away: Option<EventAway>,
}

/// An event's channel on another platform (see [`Event::away`]).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct EventAway {
    /// The platform.
    pub platform: String,
    /// The channel there.
    pub channel: String,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A message an event decided to post, waiting in its record (see [`Event::tell`]).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Told {
    /// Its number in the event, from 1.
    pub seq: u64,
    /// Where it goes.
    pub channel: String,
    /// What it says.
    pub replies: Vec<crate::kernel::reply::Reply>,
    /// The platform it goes to, when it is not the event's (its channel on another platform).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
}

impl Event {
    /// The link to the event's page, as a reply (while the web is served and its place shows
    /// pages).
    pub fn link(
        &self,
        core: &crate::kernel::context::Context,
    ) -> Option<crate::kernel::reply::Reply> {
        let page = crate::kernel::pages::Page::Event {
            platform: self.platform.clone(),
            community: self.community.clone(),
            name: self.name.clone(),
        };
        let url = core.page_link(&page, (&self.platform, &self.community, &self.channel))?;
        Some(crate::kernel::reply::Reply::Link {
            kind: crate::kernel::reply::LinkKind::Event,
            url,
        })
    }

    /// The link to the event's calendar (its rounds and its games' deadlines), while the web is
    /// served and its place shows it.
    pub fn calendar_link(
        &self,
        core: &crate::kernel::context::Context,
    ) -> Option<crate::kernel::reply::Reply> {
        let crate::kernel::reply::Reply::Link { url, .. } = self.link(core)? else {
            return None;
        };
        Some(crate::kernel::reply::Reply::Link {
            kind: crate::kernel::reply::LinkKind::Calendar,
            url: format!("{url}/calendar.ics"),
        })
    }

    /// The event's note name.
    fn note_name(&self) -> String {
        note_name(&self.community, &self.name)
    }

    /// Whether it is a knockout.
    pub fn knockout(&self) -> bool {
        self.system == System::Knockout
    }

    /// The entrant `user` plays for.
    pub fn entrant_of(&self, user: &str) -> Option<usize> {
        self.entrants.iter().position(|e| e.has(user))
    }

    /// How many rounds the event has, once started.
    pub fn total_rounds(&self) -> usize {
        let n = self.entrants.len();
        match self.system {
            System::Swiss => self
                .rounds
                .unwrap_or_else(|| muster_rules::tournament::swiss::default_rounds(n)),
            System::RoundRobin => n + n % 2 - 1,
            System::Double => 2 * (n + n % 2 - 1),
            System::Knockout => n.max(2).next_power_of_two().trailing_zeros() as usize,
        }
    }

    /// Decides to post `replies` in `channel`, in the write being made (see [`Event::tell`]).
    pub fn tell(&mut self, channel: &str, replies: Vec<crate::kernel::reply::Reply>) {
        self.tell_on(None, channel, replies);
    }

    /// As [`Event::tell`], in `channel` of `platform` (`None`: the event's own).
    pub fn tell_on(
        &mut self,
        platform: Option<&str>,
        channel: &str,
        replies: Vec<crate::kernel::reply::Reply>,
    ) {
        if replies.is_empty() {
            return;
        }
        self.told += 1;
        self.tell.push(Told {
            seq: self.told,
            channel: channel.to_string(),
            replies,
            platform: platform.filter(|p| *p != self.platform).map(str::to_string),
        });
    }

    /// The platform `user` plays from: the event's, or the one he entered from.
    pub fn platform_of(&self, user: &str) -> &str {
        self.entrant_of(user)
            .and_then(|i| self.entrants[i].platform.as_deref())
            .unwrap_or(&self.platform)
    }

    /// Whether the event still takes commands that change it.
    pub fn live(&self) -> bool {
        matches!(self.state, State::Open | State::Running | State::Paused)
    }
}

/// The note an event is kept under: `<community>/<name>`.
pub fn note_name(community: &str, name: &str) -> String {
    format!("{community}/{name}")
}

fn home(platform: &str) -> ChannelKey {
    ChannelKey::new(platform, HOME)
}

/// One line of the index of a platform's events.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Listed {
    /// The community.
    pub community: String,
    /// The name.
    pub name: String,
    /// The channel it was opened in.
    pub channel: String,
    /// Whether it still runs (open, running or paused).
    pub live: bool,
}

/// The index of `platform`'s events.
pub fn index(store: &dyn GameStore, platform: &str) -> Vec<Listed> {
    store
        .note(&home(platform), "index")
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Changes the index by compare-and-swap.
fn change_index(
    store: &dyn GameStore,
    platform: &str,
    mut f: impl FnMut(&mut Vec<Listed>),
) -> Result<(), StoreError> {
    for _ in 0..20 {
        let old = store.note(&home(platform), "index")?;
        let mut list: Vec<Listed> = old
            .as_deref()
            .and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_default();
        f(&mut list);
        let new = serde_json::to_string(&list).map_err(|e| StoreError::Io(e.to_string()))?;
        if store.swap_note(&home(platform), "index", old.as_deref(), Some(&new))? {
            return Ok(());
        }
    }
    Err(StoreError::Conflict)
}

/// An event record and the text it was read from (the compare-and-swap token).
pub(crate) struct Loaded {
    pub event: Event,
    pub text: String,
}

/// The event `name` of `community` on `platform`.
pub(crate) fn load(
    store: &dyn GameStore,
    platform: &str,
    community: &str,
    name: &str,
) -> Result<Option<Loaded>, String> {
    let text = store
        .note(&home(platform), &note_name(community, name))
        .map_err(|e| format!("The store is not available ({e}); nothing was changed."))?;
    let Some(text) = text else { return Ok(None) };
    let event: Event = serde_json::from_str(&text)
        .map_err(|e| format!("The record of the event `{name}` cannot be read ({e})."))?;
    if event.schema > SCHEMA {
        return Err(format!(
            "The event `{name}` was written by a newer Muster (layout {}); this one reads up to {SCHEMA}.",
            event.schema
        ));
    }
    Ok(Some(Loaded { event, text }))
}

/// Claims `name` in the community across platforms `shared` for a new event of `platform`'s
/// own `community`, so that no two of its places open events of one name (a name is claimed by
/// compare-and-swap, beside every platform; a claim whose event was never saved is taken over).
pub(crate) fn claim_name(
    store: &dyn GameStore,
    shared: &str,
    platform: &str,
    community: &str,
    name: &str,
) -> Result<(), String> {
    let unavailable =
        |e: StoreError| format!("The store is not available ({e}); nothing was changed.");
    let home = ChannelKey::new("", HOME);
    let note = note_name(shared, name);
    let mine = format!("{platform}\u{1f}{community}");
    let held = store.note(&home, &note).map_err(unavailable)?;
    if let Some(held) = held.as_deref().filter(|h| *h != mine) {
        let (p, c) = held.split_once('\u{1f}').unwrap_or((held, ""));
        if let Some(found) = load(store, p, c, name)? {
            return Err(format!(
                "The name `{name}` is taken in this community (a {} event of {} on {}); choose \
                 another, such as `{name}-2`.",
                found.event.system.title(),
                found.event.game,
                crate::kernel::text::capitalised(p)
            ));
        }
    }
    if !store
        .swap_note(&home, &note, held.as_deref(), Some(&mine))
        .map_err(unavailable)?
    {
        return Err(format!(
            "Someone opened an event named `{name}` a moment ago; choose another name."
        ));
    }
    Ok(())
}

/// The platform and community of the event `name` of the community across platforms
/// `shared` (its claim; see [`claim_name`]), if one was opened.
pub(crate) fn claimed(
    store: &dyn GameStore,
    shared: &str,
    name: &str,
) -> Result<Option<(String, String)>, String> {
    let home = ChannelKey::new("", HOME);
    let held = store
        .note(&home, &note_name(shared, name))
        .map_err(|e| format!("The store is not available ({e}); nothing was changed."))?;
    Ok(held.map(|h| match h.split_once('\u{1f}') {
        Some((p, c)) => (p.to_string(), c.to_string()),
        None => (h, String::new()),
    }))
}

/// Writes `event` over `old` (`None`: a new event) by compare-and-swap; `Ok(false)` if it had
/// changed meanwhile.
pub(crate) fn save(
    store: &dyn GameStore,
    old: Option<&str>,
    event: &Event,
) -> Result<bool, String> {
    let text = serde_json::to_string(event).map_err(|e| e.to_string())?;
    let swapped = store
        .swap_note(&home(&event.platform), &event.note_name(), old, Some(&text))
        .map_err(|e| format!("The store is not available ({e}); nothing was changed."))?;
    if swapped {
        let live = event.live();
        let entry = Listed {
            community: event.community.clone(),
            name: event.name.clone(),
            channel: event.channel.clone(),
            live,
        };
        let indexed = change_index(store, &event.platform, |list| {
            match list
                .iter_mut()
                .find(|l| l.community == entry.community && l.name == entry.name)
            {
                Some(l) if *l == entry => {}
                Some(l) => *l = entry.clone(),
                None => list.push(entry.clone()),
            }
        });
        // The event itself is stored; the index (for `tournament list` and the start) is put
        // right at its next write.
        if let Err(e) = indexed {
            tracing::warn!(event = %event.name, "the index of events could not be updated: {e}");
        }
    }
    Ok(swapped)
}

/// Changes an event by compare-and-swap, re-reading it after a lost race: `f` decides over the
/// current record and returns its replies, or an error (nothing stored). Returns the stored
/// event with the replies.
pub(crate) fn change<T>(
    store: &dyn GameStore,
    platform: &str,
    community: &str,
    name: &str,
    mut f: impl FnMut(&mut Event) -> Result<T, String>,
) -> Result<(Event, T), String> {
    for _ in 0..20 {
        let Some(Loaded { mut event, text }) = load(store, platform, community, name)? else {
            return Err(format!("There is no event named `{name}`."));
        };
        let out = f(&mut event)?;
        if event == serde_json::from_str::<Event>(&text).map_err(|e| e.to_string())? {
            return Ok((event, out));
        }
        if save(store, Some(&text), &event)? {
            return Ok((event, out));
        }
    }
    Err("The event changed many times while your command was handled; nothing was changed. Try again.".into())
}

/// Whether entrant `e` no longer plays from round `r` (from 0).
pub fn withdrawn(event: &Event, e: usize, r: usize) -> bool {
    event.entrants[e].withdrawn_from.is_some_and(|w| w <= r)
}

/// The knockout's entrants still in, in bracket order.
pub fn winners(event: &Event) -> Vec<usize> {
    match event.played.len() {
        0 => Vec::new(),
        r => through(event, r - 1).into_iter().flatten().collect(),
    }
}

/// Who goes through from each match of knockout round `r` (from 0), in bracket order (a bye's
/// entrant in round 1), `None` while a match is undecided.
pub fn through(event: &Event, r: usize) -> Vec<Option<usize>> {
    let Some(round) = event.played.get(r) else {
        return Vec::new();
    };
    if r == 0 {
        let mut boards = round.boards.iter();
        knockout::first_round(event.entrants.len())
            .into_iter()
            .map(|(a, b)| match b {
                None => Some(a),
                Some(_) => boards.next().and_then(Board::through),
            })
            .collect()
    } else {
        round.boards.iter().map(Board::through).collect()
    }
}

/// Reloads the event (for callers that hold only its name).
pub fn reload(store: &dyn GameStore, platform: &str, community: &str, name: &str) -> Option<Event> {
    load(store, platform, community, name)
        .ok()
        .flatten()
        .map(|l| l.event)
}
