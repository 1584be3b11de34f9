//! An event at work: results taken from the games' records, rounds paired, places opened
//! ([`super::places`]), and what happened announced. Every step can be repeated after a crash:
//! results are read again from the archive, a round is paired in the write that records the
//! last result of the one before, a place is asked for until one is recorded, and a board's
//! game is created only where neither the channel nor the archive holds it. Whatever cannot be
//! done now is logged with its event and done at the next tending (a game of the event ending,
//! any tournament command, a restart).

use muster_rules::Outcome;
use muster_rules::Seat;
use muster_rules::tournament::swiss::{self, NoPairing};
use muster_rules::tournament::{Pairing, Round, knockout, round_robin};

use super::places::{flush, open_places};
use super::{Board, Event, KNOCKOUT_GAMES, Played, RoundRecord, Score, State, System, change};
use super::{winners, withdrawn};
use crate::kernel::context::Context;
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::Reply;
use crate::kernel::store::{Ending, EventTag, GameRecord, Status};

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
pub fn tend(core: &Context, platform: &str, community: &str, name: &str) {
    tend_event(core, platform, community, name, false);
}

/// [`tend`]; `resuming` (at start) asks again for the places of boards that have none.
pub fn tend_event(core: &Context, platform: &str, community: &str, name: &str, resuming: bool) {
    let store = core.base.as_ref();
    let done = change(store, platform, community, name, |event| {
        let mut t = Tended::default();
        if !matches!(event.state, State::Running | State::Paused) {
            return Ok(t);
        }
        learn(core, event, &mut t);
        advance(core, event, &mut t)?;
        // What happened is told in the same write.
        let replies = results_words(event, &t);
        let channel = event.channel.clone();
        if let Some(away) = event.away.clone() {
            // The event's channel on another platform hears the same.
            event.tell_on(Some(&away.platform), &away.channel, replies.clone());
        }
        event.tell(&channel, replies);
        Ok(t)
    });
    let (event, t) = match done {
        Ok(done) => done,
        Err(e) => {
            tracing::error!(
                event = name,
                community,
                "the event could not be brought up to date: {e}; it is tried again when a game \
                 of it ends, at any tournament command and at start"
            );
            return;
        }
    };
    flush(core, &event);
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
fn learn(core: &Context, event: &mut Event, t: &mut Tended) {
    let r = event.played.len();
    let event_name = event.name.clone();
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
        let record = match core.base.archived(&game.id) {
            Ok(Some(record)) => record,
            Ok(None) => continue,
            Err(e) => {
                tracing::warn!(
                    event = %event_name,
                    game = %game.id,
                    "a game's result could not be read: {e}; it is read again when the event is \
                     next tended"
                );
                continue;
            }
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
fn advance(core: &Context, event: &mut Event, t: &mut Tended) -> Result<(), String> {
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
        Ok(round) => {
            let round = with_games(core, event, round)?;
            event.played.push(round);
            t.paired = Some(event.played.len());
        }
        Err(NoPairing::Impossible) => {
            event.state = State::Finished;
            t.finished = true;
            t.no_pairing = true;
        }
    }
    Ok(())
}

/// The next round's pairings, without games yet.
fn pair_next(event: &Event) -> Result<RoundRecord, NoPairing> {
    let n = event.entrants.len();
    let r = event.played.len();
    let (round, relaxed) = match event.system {
        System::Swiss => {
            let paired = swiss::pair(&super::field::field(event))?;
            (paired.round, paired.colours_relaxed)
        }
        System::RoundRobin | System::Double => {
            let all = round_robin::rounds(n, event.system == System::Double);
            let round = all.get(r).ok_or(NoPairing::Impossible)?;
            (round.clone(), false)
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
                return Ok(RoundRecord {
                    boards: boards_of(&round),
                    byes,
                    ..RoundRecord::default()
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
    Ok(RoundRecord {
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
pub fn with_games(
    core: &Context,
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

/// Results, completed rounds and the end, for the event's channel.
fn results_words(event: &Event, t: &Tended) -> Vec<Reply> {
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
        replies.extend(super::charts::standings_replies(event));
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
    replies
}

/// A tournament game in `key` ended (its record archived): the event takes the result and
/// pairs the next round when this was the last game of the round. Messages go to the
/// outbox.
pub fn game_over(core: &Context, tag: &EventTag, platform: &str) {
    tend(core, platform, &tag.community, &tag.event);
}

/// Brings every running event of `platform` up to date (at start, after a restart): results
/// of games that ended meanwhile, rounds to pair, places to open, announcements owed.
pub fn resume(core: &Context, platform: &str) {
    for l in super::index(core.base.as_ref(), platform) {
        if l.live {
            tend_event(core, platform, &l.community, &l.name, true);
        } else if let Some(event) =
            super::reload(core.base.as_ref(), platform, &l.community, &l.name)
        {
            // Its last words ("… is over") may be waiting in its record.
            flush(core, &event);
        }
    }
}
