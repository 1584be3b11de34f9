//! The commands of `tournament …` that read or change one event.

use super::command::{Action, NewEvent, TournamentCommand, is_slug, may_name};
use super::entries::{Origin, added, enter, partner, resolve_user, withdraw};
use super::places::close_game;
use super::{
    Board, Entrant, Event, Listed, SCHEMA, Score, State, System, change, charts, index, load, play,
    report, save,
};
use crate::kernel::context::Context;
use crate::kernel::reply::Reply;
use crate::kernel::request::Request;
use crate::kernel::store::{ChannelKey, GameStore, Player};

type Replies = Vec<Reply>;

/// Handles `tournament …`.
pub fn run(core: &Context, req: &Request, command: TournamentCommand) -> Vec<Reply> {
    let result = match &command.action {
        Action::New(e) => open_event(core, req, e.clone()),
        Action::List => Ok(report::list(core, req)),
        _ => on_event(core, req, &command),
    };
    result.unwrap_or_else(|e| vec![Reply::Private(e)])
}

/// `tournament new …`: the event opened, its name claimed in its community.
pub(super) fn open_event(core: &Context, req: &Request, e: NewEvent) -> Result<Replies, String> {
    let store = core.base.as_ref();
    check_new(store, req, &e)?;
    let event = new_event(core, req, &e);
    if let Some(shared) = core
        .communities()
        .of(&req.platform, &event.community, &req.channel)
    {
        super::claim_name(
            store,
            &shared.name,
            &req.platform,
            &event.community,
            &e.name,
        )?;
    }
    if !save(store, None, &event)? {
        return Err(format!(
            "Someone opened an event named `{}` a moment ago; choose another name.",
            e.name
        ));
    }
    let mut out = vec![Reply::Text(opened(core, req, &e, &event))];
    out.extend(event.link(core));
    Ok(out)
}

/// Refuses a new event whose name is taken here or whose game is not played here.
fn check_new(store: &dyn GameStore, req: &Request, e: &NewEvent) -> Result<(), String> {
    if let Some(found) = load(store, &req.platform, &req.policy.community, &e.name)? {
        return Err(format!(
            "The name `{}` is taken here (a {} event of {}); choose another, such as `{}-2`.",
            e.name,
            found.event.system.title(),
            found.event.game,
            e.name
        ));
    }
    if let Some(allowed) = req.policy.games.as_ref().filter(|g| !g.contains(&e.game)) {
        let names: Vec<&str> = allowed.iter().map(|g| g.as_str()).collect();
        return Err(format!(
            "{} is not played here. The games here: {}.",
            e.game.title(),
            names.join(", ")
        ));
    }
    Ok(())
}

/// The new event's record, open, its organiser the asker, its clock the one asked for or the
/// place's.
fn new_event(core: &Context, req: &Request, e: &NewEvent) -> Event {
    let policy = &core.timers.policy;
    let clock = e
        .clock
        .unwrap_or_else(|| policy.clock_for(&req.platform, &req.channel))
        .map(|c| c.with_claim(e.claim.unwrap_or_else(|| policy.claim_for(&req.platform))));
    Event {
        schema: SCHEMA,
        name: e.name.clone(),
        community: req.policy.community.clone(),
        platform: req.platform.clone(),
        channel: req.channel.clone(),
        organiser: Player::from(&req.user),
        game: e.game.as_str().to_string(),
        system: e.system,
        rounds: e.rounds,
        clock,
        pairs: e.pairs,
        state: State::Open,
        created: core.clock.now(),
        entrants: Vec::new(),
        played: Vec::new(),
        tell: Vec::new(),
        told: 0,
        away: None,
    }
}

/// The announcement of an opened event: what it is, and how to enter and start it.
fn opened(core: &Context, req: &Request, e: &NewEvent, event: &Event) -> String {
    let p = &core.prefix;
    let rounds = match (e.system, e.rounds) {
        (System::Swiss, Some(n)) => format!(", {n} rounds"),
        (System::Swiss, None) => ", rounds enough to separate the field".to_string(),
        _ => String::new(),
    };
    let clock = event
        .clock
        .map_or_else(|| "untimed".to_string(), |c| format!("clock {c}"));
    let entry = if e.pairs {
        format!(
            "`{p}tournament join {} @partner` (or alone, to hold both seats of a side)",
            e.name
        )
    } else {
        format!("`{p}tournament join {}`", e.name)
    };
    format!(
        "{} opened the event **{}**: {} {}{rounds}, {clock}{}. Enter with {entry}; {} starts it with \
         `{p}tournament start {}`.",
        req.user.name,
        e.name,
        e.game.title(),
        e.system.title(),
        if e.pairs { ", for pairs" } else { "" },
        req.user.name,
        e.name
    )
}

/// Finds the event a command is about: its name as the first word, else the event of this
/// channel (or of this game's board). Returns the name and the other words.
fn resolve(
    core: &Context,
    req: &Request,
    (action, args): (&str, &[String]),
) -> Result<(String, Vec<String>), String> {
    let community = req.policy.community.clone();
    let store = core.base.as_ref();
    if let Some(first) = args.first() {
        let lower = first.to_ascii_lowercase();
        if is_slug(&lower) && load(store, &req.platform, &community, &lower)?.is_some() {
            return Ok((lower, args[1..].to_vec()));
        }
    }
    let key = ChannelKey::new(&req.platform, &req.channel);
    if let Ok(Some(record)) = core.base.load(&key)
        && let Some(tag) = record.tournament
        && tag.community == community
    {
        return Ok((tag.event, args.to_vec()));
    }
    let here: Vec<Listed> = index(store, &req.platform)
        .into_iter()
        .filter(|l| l.community == community && l.channel == req.channel)
        .collect();
    let live: Vec<&Listed> = here.iter().filter(|l| l.live).collect();
    let chosen = match (live.as_slice(), here.as_slice()) {
        ([one], _) => Some(one.name.clone()),
        ([], [one]) => Some(one.name.clone()),
        _ => None,
    };
    if let Some(name) = chosen {
        return Ok((name, args.to_vec()));
    }
    let p = &core.prefix;
    match (args.first(), here.is_empty()) {
        (Some(first), _) if may_name(first) => Err(format!(
            "There is no event named `{}`. `{p}tournament list` shows the events here.",
            first.to_ascii_lowercase()
        )),
        (_, true) => Err(format!(
            "Name the event (`{p}tournament {action} <name>`): no event was opened in this \
             channel. `{p}tournament list` shows the events here."
        )),
        _ => Err(format!(
            "Name the event: this channel has several ({}).",
            here.iter()
                .map(|l| l.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// A tournament command about one event: one of this platform's, or one a community across
/// platforms holds on another platform.
pub(super) fn on_event(
    core: &Context,
    req: &Request,
    command: &TournamentCommand,
) -> Result<Replies, String> {
    match elsewhere(core, req, &command.args)? {
        Some((there, origin)) => on_event_at(core, &there, command, Some(&origin)),
        None => on_event_at(core, req, command, None),
    }
}

/// The request made for the event `args` names when this platform has none of that name and
/// the community across platforms that this place belongs to holds one on another: as if
/// said there, with where it came from.
fn elsewhere(
    core: &Context,
    req: &Request,
    args: &[String],
) -> Result<Option<(Request, Origin)>, String> {
    let Some(first) = args.first().map(|a| a.to_ascii_lowercase()) else {
        return Ok(None);
    };
    let Some(shared) = core
        .communities()
        .of(&req.platform, &req.policy.community, &req.channel)
    else {
        return Ok(None);
    };
    let store = core.base.as_ref();
    if !is_slug(&first) || load(store, &req.platform, &req.policy.community, &first)?.is_some() {
        return Ok(None);
    }
    let Some((platform, community)) = super::claimed(store, &shared.name, &first)? else {
        return Ok(None);
    };
    if platform == req.platform {
        return Ok(None);
    }
    let mut there = req.clone();
    there.platform = platform;
    there.policy.community = community;
    let origin = Origin {
        platform: req.platform.clone(),
        channel: req.channel.clone(),
    };
    Ok(Some((there, origin)))
}

/// [`on_event`] on this platform (`origin`: where a command from another came from).
fn on_event_at(
    core: &Context,
    req: &Request,
    command: &TournamentCommand,
    origin: Option<&Origin>,
) -> Result<Replies, String> {
    let (name, rest) = resolve(core, req, (command.action.word(), &command.args))?;
    let community = req.policy.community.clone();
    let Some(loaded) = load(core.base.as_ref(), &req.platform, &community, &name)? else {
        return Err(format!("There is no event named `{name}`."));
    };
    let event = loaded.event;
    allowed(core, req, &command.action, &event, &name)?;
    // The event learns of results that came in meanwhile before anything is shown or changed.
    play::tend(core, &req.platform, &community, &name);
    let event =
        super::reload(core.base.as_ref(), &req.platform, &community, &name).unwrap_or(event);
    act(core, req, (&command.action, origin), &event, &name, &rest)
}

/// Refuses `action` on the event `name` to whom it is not for (the organisers' commands to
/// others), and any change to an event that is over.
fn allowed(
    core: &Context,
    req: &Request,
    action: &Action,
    event: &Event,
    name: &str,
) -> Result<(), String> {
    let p = &core.prefix;
    let organiser = req.policy.organiser || req.user.id == event.organiser.id;
    if action.organisers_only() && !organiser {
        return Err(format!(
            "Only the event's organisers ({} and the community's organisers) may `tournament {}`.",
            event.organiser.name,
            action.word()
        ));
    }
    let changing = !matches!(
        action,
        Action::Standings | Action::Pairings | Action::Export
    );
    if changing && !event.live() {
        return Err(format!(
            "{} is {}: nothing about it can change any more. `{p}tournament standings {name}` shows how it ended.",
            name,
            if event.state == State::Finished {
                "over"
            } else {
                "cancelled"
            }
        ));
    }
    Ok(())
}

/// Does `action` to the event `name` with the command's other words `rest`.
fn act(
    core: &Context,
    req: &Request,
    (action, origin): (&Action, Option<&Origin>),
    event: &Event,
    name: &str,
    rest: &[String],
) -> Result<Replies, String> {
    let p = &core.prefix;
    match action {
        Action::Standings => Ok(standings(event)),
        Action::Pairings => pairings(core, event, rest),
        Action::Export => super::field::export(event, name, rest, p),
        Action::Join => {
            let partner = partner(req, event, rest)?;
            enter(
                core,
                req,
                event,
                (req.user.clone(), partner),
                (false, origin),
            )
        }
        Action::Add => {
            let entry = added(core, req, event, name, rest)?;
            enter(core, req, event, entry, (true, origin))
        }
        Action::Leave => withdraw(core, req, event, &req.user.id, false),
        Action::Kick => {
            let [who] = rest else {
                return Err(format!(
                    "Say whom to withdraw: `{p}tournament kick {name} @player`."
                ));
            };
            let who = resolve_user(req, who);
            withdraw(core, req, event, &who.id, true)
        }
        Action::Start => start(core, req, event),
        Action::Result => adjudicate(core, req, event, rest),
        Action::Pause | Action::Resume | Action::Cancel => set_state(core, req, event, action),
        Action::New(_) | Action::List => Ok(Vec::new()),
    }
}

fn standings(event: &Event) -> Replies {
    let mut out = charts::standings_replies(event);
    if event.state == State::Finished {
        out.push(Reply::Text(report::winner_line(event)));
    }
    if event.state == State::Open {
        let names: Vec<String> = event.entrants.iter().map(Entrant::name).collect();
        return vec![Reply::Text(format!(
            "{} has not started. Entrants ({}): {}.",
            event.name,
            names.len(),
            if names.is_empty() {
                "none yet".to_string()
            } else {
                names.join(", ")
            }
        ))];
    }
    out
}

fn pairings(core: &Context, event: &Event, rest: &[String]) -> Result<Replies, String> {
    if event.played.is_empty() {
        return Err(format!(
            "{} has not started: no round is paired yet.",
            event.name
        ));
    }
    let r = match rest {
        [] => event.played.len(),
        [n] => n
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=event.played.len()).contains(n))
            .ok_or_else(|| {
                format!(
                    "`{n}`: say a round from 1 to {} (the rounds paired so far).",
                    event.played.len()
                )
            })?,
        _ => return Err("`tournament pairings` takes the event's name and a round.".into()),
    };
    let surface = core.surface(&event.platform);
    let mut out = vec![Reply::Text(report::pairings_text(
        event,
        r,
        Some(surface.as_ref()),
    ))];
    out.extend(event.calendar_link(core));
    Ok(out)
}

/// The current ratings of the event's game in its community, by its entrants' player ids.
fn ratings_of(core: &Context, event: &Event) -> std::collections::HashMap<String, f64> {
    let Ok(game) = event.game.parse::<muster_rules::GameId>() else {
        return Default::default();
    };
    let system = crate::ratings::system_of(game);
    let now = core.clock.now();
    let store = core.base.as_ref();
    let scope =
        crate::ratings::scope::Scope::of(core, &event.platform, &event.community, &event.channel);
    let (table, _) = crate::ratings::table(store, &scope, &event.game);
    event
        .entrants
        .iter()
        .flat_map(|e| e.players.iter())
        .filter_map(|p| {
            let key = scope.key(store, event.platform_of(&p.id), &p.id);
            let s = table.players.get(&key)?;
            Some((p.id.clone(), s.now(system, now).rating))
        })
        .collect()
}

/// An entrant's rating: his player's, or the mean of a pair's, when all are rated.
fn rating_of(ratings: &std::collections::HashMap<String, f64>, e: &Entrant) -> Option<f64> {
    let mut ids: Vec<&str> = e.players.iter().map(|p| p.id.as_str()).collect();
    ids.dedup();
    let values: Option<Vec<f64>> = ids.iter().map(|id| ratings.get(*id).copied()).collect();
    values.map(|v| v.iter().sum::<f64>() / v.len() as f64)
}

fn start(core: &Context, req: &Request, event: &Event) -> Result<Replies, String> {
    if event.state != State::Open {
        return Err(format!("{} has already started.", event.name));
    }
    let least = if event.system == System::Knockout {
        4
    } else {
        2
    };
    if event.entrants.len() < least {
        return Err(format!(
            "{} needs at least {least} entrants to start a {}; it has {}.",
            event.name,
            event.system.title(),
            event.entrants.len()
        ));
    }
    let ratings = ratings_of(core, event);
    let (event, ()) = change(
        core.base.as_ref(),
        &event.platform,
        &event.community,
        &event.name,
        |e| {
            if e.state != State::Open {
                return Err(format!("{} has already started.", e.name));
            }
            // Seeds by rating, the rated first; then by joining order.
            for x in &mut e.entrants {
                x.rating = rating_of(&ratings, x);
            }
            e.entrants.sort_by(|a, b| match (a.rating, b.rating) {
                (Some(x), Some(y)) => y.total_cmp(&x).then(a.joined.cmp(&b.joined)),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => a.joined.cmp(&b.joined),
            });
            // A Swiss event's length is fixed now: late entries do not lengthen it.
            if e.system == System::Swiss {
                e.rounds = Some(e.total_rounds());
            }
            e.state = State::Running;
            Ok(())
        },
    )?;
    let seeds: Vec<String> = event
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| match e.rating {
            Some(r) => format!("{}. {} ({})", i + 1, e.name(), r.round() as i64),
            None => format!("{}. {}", i + 1, e.name()),
        })
        .collect();
    let out = vec![Reply::Text(format!(
        "{} starts {}: {} entrants, {} rounds. Seeds: {}. The first round is being paired.",
        req.user.name,
        event.name,
        event.entrants.len(),
        event.total_rounds(),
        seeds.join(", ")
    ))];
    play::tend(core, &event.platform, &event.community, &event.name);
    Ok(out)
}

/// `tournament result <board> 1-0|0-1|1/2-1/2|forfeit <white|black|player>`: the organiser's
/// result for a board of the current round; a game still being played there is closed.
fn adjudicate(
    core: &Context,
    req: &Request,
    event: &Event,
    rest: &[String],
) -> Result<Replies, String> {
    let usage = format!(
        "say `{}tournament result {} <board> 1-0|0-1|1/2-1/2`, or `… <board> forfeit white|black` \
         for the side that forfeits",
        core.prefix, event.name
    );
    let given = given(req, event, rest, &usage)?;
    let (r, b, score, forfeit) = (given.round, given.board, given.score, given.forfeit);
    let bd = &event.played[r - 1].boards[b - 1];
    let (event, live) = change(
        core.base.as_ref(),
        &event.platform,
        &event.community,
        &event.name,
        |e| write_given(e, &given),
    )?;
    // A game still being played on the board is closed: its result is the organiser's.
    if let Some((channel, id)) = live {
        close_game(core, &event, channel, &id, (given.score, given.forfeit));
    }
    let (w, k) = (
        event.entrants[bd.white].name(),
        event.entrants[bd.black].name(),
    );
    let out = vec![Reply::Text(format!(
        "{} · round {r} · board {b}: {w} {} {k}{}, as {} gave it.",
        event.name,
        score.code(),
        if forfeit { " (forfeit)" } else { "" },
        req.user.name
    ))];
    play::tend(core, &event.platform, &event.community, &event.name);
    Ok(out)
}

/// A result the organiser gives: board `board` of round `round` (both from 1), from the
/// board's White's side, and whether by forfeit.
struct Given {
    round: usize,
    board: usize,
    score: Score,
    forfeit: bool,
}

/// The result `rest` gives for a board of the event's current round (`usage` says how to
/// write one).
fn given(req: &Request, event: &Event, rest: &[String], usage: &str) -> Result<Given, String> {
    let r = event.played.len();
    if r == 0 {
        return Err(format!(
            "{} has not started: there is no board to give a result for.",
            event.name
        ));
    }
    let (board, what) = match rest {
        [b, what @ ..] if !what.is_empty() => (b, what),
        _ => return Err(usage.to_string()),
    };
    let boards = event.played[r - 1].boards.len();
    let b = board
        .trim_start_matches('#')
        .parse::<usize>()
        .ok()
        .filter(|b| (1..=boards).contains(b))
        .ok_or_else(|| {
            format!("Round {r} has boards 1 to {boards}; there is no board `{board}`.")
        })?;
    let bd = &event.played[r - 1].boards[b - 1];
    let (score, forfeit) = match what {
        [s] => (Score::parse(s).ok_or_else(|| usage.to_string())?, false),
        [f, who] if f.eq_ignore_ascii_case("forfeit") => {
            (forfeited(req, event, bd, b, who, usage)?, true)
        }
        _ => return Err(usage.to_string()),
    };
    Ok(Given {
        round: r,
        board: b,
        score,
        forfeit,
    })
}

/// The score of board `bd` (board `b`) when the side `who` names forfeits: `white`, `black`,
/// or a player on the board.
fn forfeited(
    req: &Request,
    event: &Event,
    bd: &Board,
    b: usize,
    who: &str,
    usage: &str,
) -> Result<Score, String> {
    let loser = match who.to_ascii_lowercase().as_str() {
        "white" => bd.white,
        "black" => bd.black,
        _ => {
            let u = resolve_user(req, who);
            event
                .entrant_of(&u.id)
                .filter(|e| *e == bd.white || *e == bd.black)
                .ok_or_else(|| format!("{} does not play on board {b}; {usage}.", u.name))?
        }
    };
    Ok(if loser == bd.white {
        Score::Black
    } else {
        Score::White
    })
}

/// Writes the organiser's result into the board's last game of the event `e`; the board's
/// place and that game's id, when it has a place.
fn write_given(e: &mut Event, given: &Given) -> Result<Option<(String, String)>, String> {
    let board = &mut e.played[given.round - 1].boards[given.board - 1];
    let (bw, channel) = (board.white, board.channel.clone());
    let game = board.games.last_mut().ok_or("no game")?;
    game.result = Some(if game.white == bw {
        given.score
    } else {
        given.score.flipped()
    });
    game.forfeit = given.forfeit;
    game.adjudicated = true;
    Ok(channel.map(|c| (c, game.id.clone())))
}

fn set_state(
    core: &Context,
    req: &Request,
    event: &Event,
    action: &Action,
) -> Result<Replies, String> {
    let (event, said) = change(
        core.base.as_ref(),
        &event.platform,
        &event.community,
        &event.name,
        |e| match (action, e.state) {
            (Action::Pause, State::Running) => {
                e.state = State::Paused;
                Ok("paused: games under way go on, but no new round is paired until it resumes")
            }
            (Action::Pause, _) => Err(format!("{} is not running.", e.name)),
            (Action::Resume, State::Paused) => {
                e.state = State::Running;
                Ok("resumed")
            }
            (Action::Resume, _) => Err(format!("{} is not paused.", e.name)),
            _ => {
                e.state = State::Cancelled;
                Ok("cancelled: games under way may be played out but count for nothing")
            }
        },
    )?;
    if event.state == State::Running {
        play::tend(core, &event.platform, &event.community, &event.name);
    }
    Ok(vec![Reply::Text(format!(
        "{} {said} ({}).",
        event.name, req.user.name
    ))])
}
