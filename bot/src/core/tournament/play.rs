//! An event at work: results taken from the games' records, rounds paired, places opened,
//! games created and rounds announced. Every step can be repeated after a crash: results are
//! read again from the archive, a round is paired in the write that records the last result
//! of the one before, a place is asked for until one is recorded, and a board's game is created
//! only where neither the channel nor the archive holds it.

use muster_rules::tournament::{Pairing, Round, knockout, round_robin, swiss};
use muster_rules::{AnyGame, Outcome, Seat, Team};

use super::{Board, Event, Played, RoundRecord, Score, State, System, change, load};
use crate::core::dashboard::channel_link;
use crate::core::timers::{Notice, Target};
use crate::core::{Core, Reply};
use crate::store::{ChannelKey, Ending, EventTag, GameRecord, SCHEMA, Status};

/// A knockout match is at most this many games: the first and two replays with colours
/// reversed; if the last is drawn too, the higher seed goes through.
pub const KNOCKOUT_GAMES: usize = 3;

/// A board that needs a place: the adapter opens one (a thread, a room) and answers with
/// [`Core::place_opened`].
#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Opening {
    /// The platform.
    pub platform: String,
    /// The event's community.
    pub community: String,
    /// The event's name.
    pub event: String,
    /// The round, from 1.
    pub round: usize,
    /// The board, from 1.
    pub board: usize,
    /// The place's name: `<event>-<round>-<board>`.
    pub name: String,
    /// The event's channel (a thread's parent).
    pub parent: String,
    /// The players to invite.
    pub players: Vec<crate::core::User>,
}

/// What a game's archived record says of its result: `None` while it is not over (or was
/// called off), else the result from the first seat's side and whether it was a forfeit.
fn result_of(record: &GameRecord) -> Option<(Score, bool)> {
    if record.status != Status::Finished || record.ending == Some(Ending::Aborted) {
        return None;
    }
    let game = record.rebuild().ok()?;
    let score = match game.outcome()? {
        Outcome::Draw { .. } => Score::Draw,
        Outcome::Winner { team, .. } => {
            let first = Seat::new(0).map(|s| game.table().team_of(s));
            if first == Some(team) {
                Score::White
            } else {
                Score::Black
            }
        }
    };
    Some((score, matches!(record.ending, Some(Ending::Forfeit { .. }))))
}

/// A result learnt while tending an event, for the announcement.
struct Learnt {
    round: usize,
    board: usize,
    text: String,
}

/// What tending changed, for the messages that follow the write.
#[derive(Default)]
struct Tended {
    learnt: Vec<Learnt>,
    /// A round completed (1-based).
    completed: Option<usize>,
    /// A new round was paired (1-based).
    paired: Option<usize>,
    /// The event finished.
    finished: bool,
    /// Knockout replays started: (round, board).
    replays: Vec<(usize, usize)>,
    /// Pairing failed: the event ended early.
    no_pairing: bool,
}

/// Brings the event up to date and posts what follows to the outbox.
pub(super) fn tend(core: &Core, platform: &str, community: &str, name: &str) {
    tend_event(core, platform, community, name, false);
}

/// [`tend`]; `resuming` (at start) asks again for the places of boards that have none.
pub(super) fn tend_event(core: &Core, platform: &str, community: &str, name: &str, resuming: bool) {
    let store = core.base.as_ref();
    let done = change(store, platform, community, name, |event| {
        let mut t = Tended::default();
        if !matches!(event.state, State::Running | State::Paused) {
            return Ok(t);
        }
        learn(core, event, &mut t);
        advance(core, event, &mut t)?;
        Ok(t)
    });
    let Ok((event, t)) = done else { return };
    announce_results(core, &event, &t);
    open_places(
        core,
        &event,
        resuming || t.paired.is_some() || !t.replays.is_empty(),
    );
    // A round paired with every board decided at once (all forfeits) is over already.
    if t.paired.is_some() && super::report::completed(&event) == event.played.len() {
        tend_event(core, platform, community, name, false);
    }
}

/// Reads the results of the current round's games from their records.
fn learn(core: &Core, event: &mut Event, t: &mut Tended) {
    let r = event.played.len();
    let names: Vec<String> = event.entrants.iter().map(|e| e.name()).collect();
    let Some(round) = event.played.last_mut() else {
        return;
    };
    for (b, board) in round.boards.iter_mut().enumerate() {
        let Some(game) = board.games.last_mut() else {
            continue;
        };
        if game.result.is_some() || game.id.is_empty() {
            continue;
        }
        let Ok(Some(record)) = core.base.archived(&game.id) else {
            continue;
        };
        let Some((score, forfeit)) = result_of(&record) else {
            continue;
        };
        game.result = Some(score);
        game.forfeit = forfeit;
        let black = if game.white == board.white {
            board.black
        } else {
            board.white
        };
        t.learnt.push(Learnt {
            round: r,
            board: b + 1,
            text: format!(
                "{} {} {}{}",
                names[game.white],
                score.code(),
                names[black],
                if forfeit { " (forfeit)" } else { "" }
            ),
        });
    }
}

/// Starts knockout replays, and pairs the next round (or ends the event) once every board of
/// the current one is decided.
fn advance(core: &Core, event: &mut Event, t: &mut Tended) -> Result<(), String> {
    let knockout = event.knockout();
    let r = event.played.len();
    if let Some(round) = event.played.last_mut() {
        for (b, board) in round.boards.iter_mut().enumerate() {
            let replay = knockout
                && board.result() == Some(Score::Draw)
                && board.games.len() < KNOCKOUT_GAMES;
            if replay {
                let last_white = board.last().map_or(board.white, |g| g.white);
                let white = if last_white == board.white {
                    board.black
                } else {
                    board.white
                };
                let id = core.base.next_id().map_err(|e| e.to_string())?;
                board.games.push(Played {
                    id,
                    white,
                    result: None,
                    forfeit: false,
                    adjudicated: false,
                });
                t.replays.push((r, b + 1));
            }
        }
        if round.boards.iter().any(|b| !b.done(knockout)) {
            return Ok(());
        }
        t.completed = Some(r);
    }
    if event.state != State::Running {
        return Ok(());
    }
    if r >= event.total_rounds() || (knockout && r > 0 && winners(event).len() < 2) {
        event.state = State::Finished;
        t.finished = true;
        return Ok(());
    }
    match pair_next(event) {
        Some(round) => {
            let round = with_games(core, event, round)?;
            event.played.push(round);
            t.paired = Some(event.played.len());
        }
        None => {
            event.state = State::Finished;
            t.finished = true;
            t.no_pairing = true;
        }
    }
    Ok(())
}

/// Whether entrant `e` no longer plays from round `r` (from 0).
fn withdrawn(event: &Event, e: usize, r: usize) -> bool {
    event.entrants[e].withdrawn_from.is_some_and(|w| w <= r)
}

/// The knockout's entrants still in, in bracket order.
pub(super) fn winners(event: &Event) -> Vec<usize> {
    match event.played.len() {
        0 => Vec::new(),
        r => through(event, r - 1).into_iter().flatten().collect(),
    }
}

/// Who goes through from each match of knockout round `r` (from 0), in bracket order (a bye's
/// entrant in round 1), `None` while a match is undecided.
pub(super) fn through(event: &Event, r: usize) -> Vec<Option<usize>> {
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

/// The next round's pairings, without games yet.
fn pair_next(event: &Event) -> Option<RoundRecord> {
    let n = event.entrants.len();
    let r = event.played.len();
    let (round, relaxed) = match event.system {
        System::Swiss => {
            let history: Vec<Round> = event
                .played
                .iter()
                .map(|p| Round {
                    pairings: p
                        .boards
                        .iter()
                        .map(|b| Pairing {
                            white: b.white,
                            black: b.black,
                        })
                        .collect(),
                    rest: p.byes.first().copied(),
                })
                .collect();
            let points = super::report::points(event);
            let out: Vec<bool> = (0..n).map(|e| withdrawn(event, e, r)).collect();
            let paired = swiss::pair(n, &out, &history, &points).ok()?;
            (paired.round, paired.colours_relaxed)
        }
        System::RoundRobin | System::Double => {
            let all = round_robin::rounds(n, event.system == System::Double);
            (all.get(r)?.clone(), false)
        }
        System::Knockout => {
            if r == 0 {
                let mut round = Round::default();
                let mut byes = Vec::new();
                for (a, b) in knockout::first_round(n) {
                    match b {
                        Some(b) => round.pairings.push(Pairing { white: a, black: b }),
                        None => byes.push(a),
                    }
                }
                return Some(RoundRecord {
                    boards: boards_of(&round),
                    byes,
                    announced: false,
                    colours_relaxed: false,
                });
            }
            let w = winners(event);
            let pairings = w
                .chunks(2)
                .filter(|c| c.len() == 2)
                .map(|c| Pairing {
                    white: c[0].min(c[1]),
                    black: c[0].max(c[1]),
                })
                .collect();
            (
                Round {
                    pairings,
                    rest: None,
                },
                false,
            )
        }
    };
    Some(RoundRecord {
        boards: boards_of(&round),
        byes: round.rest.into_iter().collect(),
        announced: false,
        colours_relaxed: relaxed,
    })
}

fn boards_of(round: &Round) -> Vec<Board> {
    round
        .pairings
        .iter()
        .map(|p| Board {
            white: p.white,
            black: p.black,
            channel: None,
            games: Vec::new(),
        })
        .collect()
}

/// Gives each board its first game: an id for the game to come, or — where an entrant has
/// withdrawn — the result by forfeit at once.
pub(super) fn with_games(
    core: &Core,
    event: &Event,
    mut round: RoundRecord,
) -> Result<RoundRecord, String> {
    let r = event.played.len();
    for board in &mut round.boards {
        let (w, b) = (
            withdrawn(event, board.white, r),
            withdrawn(event, board.black, r),
        );
        if w || b {
            board.games.push(Played {
                id: String::new(),
                white: board.white,
                result: Some(match (w, b) {
                    (true, false) => Score::Black,
                    (false, true) => Score::White,
                    _ => Score::Draw,
                }),
                forfeit: true,
                adjudicated: false,
            });
            continue;
        }
        let id = core.base.next_id().map_err(|e| e.to_string())?;
        board.games.push(Played {
            id,
            white: board.white,
            result: None,
            forfeit: false,
            adjudicated: false,
        });
    }
    Ok(round)
}

/// Leaves a message of the event's for its platform's adapter.
pub(super) fn say(core: &Core, event: &Event, target: Target, replies: Vec<Reply>) {
    core.timers.post(Notice {
        platform: event.platform.clone(),
        target,
        replies,
        fallback: None,
        receipt: None,
    });
}

/// Results, completed rounds and the end, in the event's channel.
fn announce_results(core: &Core, event: &Event, t: &Tended) {
    let mut replies = Vec::new();
    for l in &t.learnt {
        replies.push(Reply::Text(format!(
            "{} · round {} · board {}: {}.",
            event.name, l.round, l.board, l.text
        )));
    }
    for (r, b) in &t.replays {
        let board = &event.played[r - 1].boards[b - 1];
        replies.push(Reply::Text(format!(
            "{} · round {r} · board {b} was drawn: game {} of {KNOCKOUT_GAMES} is played with colours \
             reversed{}.",
            event.name,
            board.games.len(),
            if board.games.len() == KNOCKOUT_GAMES {
                "; if it is drawn too, the higher seed goes through"
            } else {
                ""
            }
        )));
    }
    if t.completed.is_some() {
        replies.extend(super::report::standings_replies(event));
    }
    if t.finished {
        let why = if t.no_pairing {
            " (no further round can be paired without a pair meeting twice)"
        } else {
            ""
        };
        replies.push(Reply::Text(format!(
            "{} is over{why}. {}",
            event.name,
            super::report::winner_line(event)
        )));
    }
    if !replies.is_empty() {
        say(core, event, Target::Channel(event.channel.clone()), replies);
    }
}

/// Asks for the places of the current round's boards that have none (all of them when `ask`
/// — a round just paired, or after a restart — else none), creates the games of boards whose
/// place is open, and announces the round once every board has its place.
fn open_places(core: &Core, event: &Event, ask: bool) {
    let Some(round) = event.played.last() else {
        return;
    };
    if !matches!(event.state, State::Running | State::Paused) {
        return;
    }
    let r = event.played.len();
    for (b, board) in round.boards.iter().enumerate() {
        let Some(game) = board.last().filter(|g| !g.id.is_empty()) else {
            continue;
        };
        match &board.channel {
            None if ask => say(
                core,
                event,
                Target::Open(Box::new(opening(event, r, b + 1))),
                Vec::new(),
            ),
            None => {}
            Some(channel) if game.result.is_none() => start_game(core, event, r, b + 1, channel),
            Some(_) => {}
        }
    }
    announce_round(core, event);
}

fn opening(event: &Event, round: usize, board: usize) -> Opening {
    let b = &event.played[round - 1].boards[board - 1];
    let players = [b.white, b.black]
        .iter()
        .flat_map(|e| {
            event.entrants[*e]
                .players
                .iter()
                .map(crate::core::User::from)
        })
        .collect();
    Opening {
        platform: event.platform.clone(),
        community: event.community.clone(),
        event: event.name.clone(),
        round,
        board,
        name: format!("{}-{round}-{board}", event.name),
        parent: event.channel.clone(),
        players,
    }
}

/// The place of `opening` is open as `channel`: recorded, and the board's game started.
pub(super) fn opened(core: &Core, opening: &Opening, channel: &str) {
    let store = core.base.as_ref();
    let (r, b) = (opening.round, opening.board);
    let done = change(
        store,
        &opening.platform,
        &opening.community,
        &opening.event,
        |event| {
            let board = event
                .played
                .get_mut(r.wrapping_sub(1))
                .and_then(|round| round.boards.get_mut(b.wrapping_sub(1)))
                .ok_or("no such board")?;
            if board.channel.is_none() {
                board.channel = Some(channel.to_string());
            }
            Ok(board.channel.clone())
        },
    );
    let Ok((event, Some(channel))) = done else {
        return;
    };
    if r == event.played.len() {
        start_game(core, &event, r, b, &channel);
        announce_round(core, &event);
    }
}

/// Creates the board's current game in `channel` unless it exists, and announces it there.
fn start_game(core: &Core, event: &Event, r: usize, b: usize, channel: &str) {
    let board = &event.played[r - 1].boards[b - 1];
    let Some(game) = board.last() else { return };
    let key = ChannelKey::new(&event.platform, channel);
    match core.base.load(&key) {
        Ok(Some(live)) if live.id == game.id => return,
        Ok(_) => {}
        Err(_) => return,
    }
    if matches!(core.base.archived(&game.id), Ok(Some(_))) {
        return;
    }
    let black = if game.white == board.white {
        board.black
    } else {
        board.white
    };
    let Ok(record) = new_record(core, event, game, black, channel, (r, b)) else {
        return;
    };
    let Ok(rules) = record.rebuild() else { return };
    let replies = match core.base.create(&key, &record) {
        Ok(()) => {
            core.reschedule(&key);
            game_opening(core, event, &record, &rules, (r, b, board.games.len()))
        }
        Err(e) => vec![Reply::Text(format!(
            "{} · round {r} · board {b} cannot start in {}: {}. The organiser can give its result \
             with `tournament result {} {b} …`.",
            event.name,
            channel_link(&event.platform, channel),
            match e {
                crate::store::StoreError::Exists =>
                    "another game is being played there".to_string(),
                e => e.to_string(),
            },
            event.name
        ))],
    };
    say(core, event, Target::Channel(channel.to_string()), replies);
}

/// The words that open a board's game in its place.
fn game_opening(
    core: &Core,
    event: &Event,
    record: &GameRecord,
    rules: &AnyGame,
    (r, b, nth): (usize, usize, usize),
) -> Vec<Reply> {
    let sides: Vec<String> = if rules.table().len() > 2 {
        [Team::WHITE, Team::BLACK]
            .into_iter()
            .map(|t| crate::core::words::team_players(record, rules, t))
            .collect()
    } else {
        rules
            .table()
            .all()
            .map(|s| crate::core::words::who(record, rules, s))
            .collect()
    };
    let clock = record
        .clock
        .map_or_else(|| " Untimed.".to_string(), |c| format!(" Clock: {c}."));
    let game = if nth > 1 {
        format!(" (game {nth}, colours reversed)")
    } else {
        String::new()
    };
    let mut out = vec![Reply::Text(format!(
        "{} · round {r} · board {b}{game}: {}.{clock} The result counts for the event.",
        event.name,
        sides.join(" vs ")
    ))];
    // The other players are told too: the game is theirs as much as the mover's.
    let mover = rules.to_move().and_then(|s| record.player(s.index()));
    let first = mover.map_or_else(String::new, |p| p.name.clone());
    let mut told: Vec<String> = mover.iter().map(|p| p.id.clone()).collect();
    for seat in rules.table().all() {
        let Some(p) = record.player(seat.index()) else {
            continue;
        };
        if told.contains(&p.id) {
            continue;
        }
        told.push(p.id.clone());
        let seats: Vec<usize> = crate::core::seating::hand_of(record, seat.index());
        out.push(Reply::Mention {
            user: crate::core::User::from(p),
            text: format!(
                "you play {} here; {first} decides first.",
                crate::core::seating::hand_title(rules, &seats)
            ),
        });
    }
    out.push(Reply::board(record, 0));
    out.extend(core.next_up(record, rules));
    core.style_boards(&record.platform, &mut out, None);
    out
}

/// A board's game as a new record: both sides seated and accepted, the event's clock running.
fn new_record(
    core: &Core,
    event: &Event,
    game: &Played,
    black: usize,
    channel: &str,
    (round, board): (usize, usize),
) -> Result<GameRecord, String> {
    let id: muster_rules::GameId = event.game.parse().map_err(|e| format!("{e}"))?;
    let rules = AnyGame::new(id);
    let (w, b) = (&event.entrants[game.white], &event.entrants[black]);
    let seat = |i: usize| Seat::new(i).expect("a seat");
    let (hands, holders) = if rules.table().len() == 4 {
        // Seats in turn order S, W, N, E: the first side holds S and N.
        let mut hands = Vec::new();
        let mut holders = Vec::new();
        for (side, seats) in [(w, [0, 2]), (b, [1, 3])] {
            if side.players.len() >= 2 && side.players[0].id != side.players[1].id {
                hands.push(vec![seat(seats[0])]);
                hands.push(vec![seat(seats[1])]);
                holders.push(side.players[0].clone());
                holders.push(side.players[1].clone());
            } else {
                hands.push(vec![seat(seats[0]), seat(seats[1])]);
                holders.push(side.players[0].clone());
            }
        }
        (hands, holders)
    } else {
        (
            vec![vec![seat(0)], vec![seat(1)]],
            vec![w.players[0].clone(), b.players[0].clone()],
        )
    };
    let mut seats = crate::core::seating::empty_table(&rules, &hands);
    for (hand, player) in hands.iter().zip(holders) {
        for s in hand {
            seats[s.index()].player = Some(player.clone());
            seats[s.index()].accepted = true;
        }
    }
    let now = core.clock.now();
    let mut record = GameRecord {
        schema: SCHEMA,
        id: game.id.clone(),
        game: event.game.clone(),
        platform: event.platform.clone(),
        channel: channel.to_string(),
        created: now,
        updated: now,
        started: Some(now),
        version: 1,
        seats,
        status: Status::Active,
        moves: Vec::new(),
        times: Vec::new(),
        ending: None,
        draw_offer: None,
        takeback: None,
        clock: event.clock,
        pauses: Vec::new(),
        wait: None,
        tournament: Some(EventTag {
            community: event.community.clone(),
            event: event.name.clone(),
            round,
            board,
        }),
        community: Some(event.community.clone()).filter(|c| !c.is_empty()),
        casual: false,
    };
    crate::core::actions::pause_the_away(core, &mut record, now);
    record.refresh_clock();
    Ok(record)
}

/// Announces the current round in the event's channel once every board has its place (marked
/// in the record first, so it is said once).
fn announce_round(core: &Core, event: &Event) {
    let Some(round) = event.played.last() else {
        return;
    };
    if round.announced
        || round
            .boards
            .iter()
            .any(|b| b.channel.is_none() && !b.forfeit())
    {
        return;
    }
    let r = event.played.len();
    let marked = change(
        core.base.as_ref(),
        &event.platform,
        &event.community,
        &event.name,
        |e| {
            let fresh = e.played.len() == r && !e.played[r - 1].announced;
            if fresh {
                e.played[r - 1].announced = true;
            }
            Ok(fresh)
        },
    );
    let Ok((event, true)) = marked else { return };
    let mut replies = vec![Reply::Text(super::report::pairings_text(&event, r))];
    // Each player is told where his game is (a ping where the platform has them).
    let round = &event.played[r - 1];
    for (b, board) in round.boards.iter().enumerate() {
        let Some(channel) = &board.channel else {
            continue;
        };
        for (me, other, colour) in [
            (board.white, board.black, "White"),
            (board.black, board.white, "Black"),
        ] {
            for p in &event.entrants[me].players {
                replies.push(Reply::Mention {
                    user: crate::core::User::from(p),
                    text: format!(
                        "your round {r} game (board {}, {colour}, against {}) is in {}.",
                        b + 1,
                        event.entrants[other].name(),
                        channel_link(&event.platform, channel)
                    ),
                });
            }
        }
    }
    say(
        core,
        &event,
        Target::Channel(event.channel.clone()),
        replies,
    );
}

/// Reloads the event (for callers that hold only its name).
pub(super) fn reload(core: &Core, platform: &str, community: &str, name: &str) -> Option<Event> {
    load(core.base.as_ref(), platform, community, name)
        .ok()
        .flatten()
        .map(|l| l.event)
}
