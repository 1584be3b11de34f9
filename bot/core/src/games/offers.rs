//! Offers that need the other side's answer (draws, takebacks) and hints.

use muster_rules::{AnyEvent, AnyGame, Seat};

use super::bot;
use super::command::Answer;
use super::play::{finish, next_up, player_seat, save};
use super::words;
use crate::kernel::context::Context;
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::{Button, Replies, Reply, private};
use crate::kernel::request::{Request, User};
use crate::kernel::store::{ChannelKey, Ending, GameRecord};

fn opponents(record: &GameRecord, game: &AnyGame, seat: usize) -> Vec<User> {
    let team = Seat::new(seat).map(|s| game.table().team_of(s));
    game.table()
        .all()
        .filter(|s| Some(game.table().team_of(*s)) != team)
        .filter_map(|s| record.player(s.index()))
        .map(User::from)
        .collect()
}

fn same_side(game: &AnyGame, a: usize, b: usize) -> bool {
    match (Seat::new(a), Seat::new(b)) {
        (Some(a), Some(b)) => game.table().team_of(a) == game.table().team_of(b),
        _ => false,
    }
}

pub fn draw(
    core: &Context,
    req: &Request,
    key: &ChannelKey,
    mut record: GameRecord,
    mut game: AnyGame,
    answer: Option<Answer>,
) -> Replies {
    let seat = match player_seat(core, req, &record) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let p = &core.prefix;
    match (record.draw_offer, answer) {
        (Some(by), None | Some(Answer::Accept)) if !same_side(&game, by, seat) => {
            if let Err(e) = game.agree_draw() {
                return private(format!("{e}."));
            }
            let said = if matches!(game, AnyGame::Lanko(_)) {
                format!("{} agrees to end the game.", req.user.name)
            } else {
                format!("{} accepts the draw.", req.user.name)
            };
            finish(core, key, record, &game, Ending::DrawAgreed, said)
        }
        (Some(by), Some(Answer::Decline)) if !same_side(&game, by, seat) => {
            record.draw_offer = None;
            match save(core, key, record, &game) {
                Ok(_) => vec![Reply::Text(format!(
                    "{} declines the draw; play on.",
                    req.user.name
                ))],
                Err(e) => e,
            }
        }
        (Some(_), _) => private("Your side has already offered a draw; the opponent answers it."),
        (None, Some(_)) => private(format!("No draw has been offered. `{p}draw` offers one.")),
        (None, None) if has_bot(&record) => {
            private("Muster declines the draw: it plays every game out. You may `resign`.")
        }
        (None, None) => {
            record.draw_offer = Some(seat);
            let rivals = opponents(&record, &game, seat);
            match save(core, key, record, &game) {
                Ok(_) => {
                    let offer = if matches!(game, AnyGame::Lanko(_)) {
                        // Lanko has no draw by agreement: the agreed end is scored (K-8, K-9).
                        format!(
                            "{} offers to end the game now, scored as the board stands.",
                            req.user.name
                        )
                    } else {
                        format!("{} offers a draw.", req.user.name)
                    };
                    let mut out = vec![Reply::Text(offer)];
                    for user in rivals {
                        out.push(Reply::Mention {
                            user,
                            text: format!(
                                "`{p}draw accept` or `{p}draw decline`; a move also declines."
                            ),
                        });
                    }
                    out.push(Reply::Buttons(vec![
                        Button {
                            label: "Accept draw".into(),
                            command: "draw accept".into(),
                        },
                        Button {
                            label: "Decline draw".into(),
                            command: "draw decline".into(),
                        },
                    ]));
                    out
                }
                Err(e) => e,
            }
        }
    }
}

/// `takeback`: ask to take the last move back, or answer the other side's request; against the
/// bot, taken back at once to the asker's last decision.
pub fn takeback(
    core: &Context,
    req: &Request,
    key: &ChannelKey,
    mut record: GameRecord,
    game: AnyGame,
    answer: Option<Answer>,
) -> Replies {
    let seat = match player_seat(core, req, &record) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let p = &core.prefix;
    match (record.takeback, answer) {
        (Some(by), None | Some(Answer::Accept)) if !same_side(&game, by, seat) => {
            take_back(core, req, key, record)
        }
        (Some(by), Some(Answer::Decline)) if !same_side(&game, by, seat) => {
            record.takeback = None;
            match save(core, key, record, &game) {
                Ok(_) => vec![Reply::Text(format!(
                    "{} declines the takeback.",
                    req.user.name
                ))],
                Err(e) => e,
            }
        }
        (Some(_), _) => {
            private("Your side has already asked for a takeback; the opponent answers it.")
        }
        (None, Some(_)) => private(format!(
            "Nobody has asked for a takeback. `{p}takeback` asks for one."
        )),
        (None, None) if has_bot(&record) => bot_takes_back(core, key, record, seat),
        (None, None) => ask_takeback(core, req, key, record, &game, seat),
    }
}

/// The takeback agreed: the last move goes, with the passes played after it for seats that had
/// no choice.
fn take_back(core: &Context, req: &Request, key: &ChannelKey, mut record: GameRecord) -> Replies {
    let Some(mut undone) = record.moves.pop() else {
        return private("There is no move to take back.");
    };
    // Passes the bot played for seats with no choice go back with the move before them.
    while undone == "---" {
        match record.moves.pop() {
            Some(m) => undone = m,
            None => break,
        }
    }
    record.takeback = None;
    record.draw_offer = None;
    let game = match record.rebuild() {
        Ok(g) => g,
        Err(e) => {
            return private(format!(
                "The game does not replay without that move: {}",
                e.0
            ));
        }
    };
    let said = format!("{} agrees: `{undone}` is taken back.", req.user.name);
    taken_back(core, key, record, &game, said)
}

/// Against the bot, which agrees at once: back to the asker's (`seat`) last decision, taking
/// the bot's replies back with it.
fn bot_takes_back(
    core: &Context,
    key: &ChannelKey,
    mut record: GameRecord,
    seat: usize,
) -> Replies {
    // Who was to decide after each number of decisions.
    let start = record.game_id().ok().map(AnyGame::new);
    let mut to_move = vec![start.and_then(|g| g.to_move())];
    let replayed = record.play_through(|g, _, _| {
        to_move.push(g.to_move());
        Ok(())
    });
    let back = replayed.ok().and_then(|_| {
        (0..record.moves.len())
            .rev()
            .find(|k| to_move[*k].map(|s| s.index()) == Some(seat))
    });
    let Some(back) = back else {
        return private("There is no move of yours to take back.");
    };
    let undone = record.moves.split_off(back);
    let game = match record.rebuild() {
        Ok(g) => g,
        Err(e) => {
            return private(format!(
                "The game does not replay without those moves: {}",
                e.0
            ));
        }
    };
    let said = format!("Muster agrees: `{}` taken back.", undone.join("`, `"));
    taken_back(core, key, record, &game, said)
}

/// Stores a game with moves taken back: what was `said`, the board and who decides now.
fn taken_back(
    core: &Context,
    key: &ChannelKey,
    record: GameRecord,
    game: &AnyGame,
    said: String,
) -> Replies {
    match save(core, key, record, game) {
        Ok(record) => {
            let mut out = vec![Reply::Text(said)];
            out.push(Reply::played_board(
                &record,
                record.moves.len(),
                game,
                Vec::new(),
            ));
            out.extend(next_up(core, &record, game));
            out
        }
        Err(e) => e,
    }
}

/// Asks the other side to agree to take the last move back.
fn ask_takeback(
    core: &Context,
    req: &Request,
    key: &ChannelKey,
    mut record: GameRecord,
    game: &AnyGame,
    seat: usize,
) -> Replies {
    let p = &core.prefix;
    let Some(last) = record.moves.last().cloned() else {
        return private("There is no move to take back.");
    };
    record.takeback = Some(seat);
    let rivals = opponents(&record, game, seat);
    if let Err(e) = save(core, key, record, game) {
        return e;
    }
    let mut out = vec![Reply::Text(format!(
        "{} asks to take back the last move, `{last}`.",
        req.user.name
    ))];
    for user in rivals {
        out.push(Reply::Mention {
            user,
            text: format!("`{p}takeback accept` or `{p}takeback decline`."),
        });
    }
    out.push(Reply::Buttons(vec![
        Button {
            label: "Allow takeback".into(),
            command: "takeback accept".into(),
        },
        Button {
            label: "Refuse takeback".into(),
            command: "takeback decline".into(),
        },
    ]));
    out
}

pub fn has_bot(record: &GameRecord) -> bool {
    record.seats.iter().any(|s| {
        s.player
            .as_ref()
            .is_some_and(|p| bot::level_of(&p.id).is_some())
    })
}

pub fn hint(core: &Context, req: &Request, record: &GameRecord, game: &AnyGame) -> Replies {
    if record.tournament.is_some() {
        return private("There are no hints in tournament games: they would be help from outside.");
    }
    if !has_bot(record) && !record.casual {
        return private(format!(
            "Hints are given in games against the bot and in casual games (`{}new … casual`); in a rated game they would be help from outside.",
            core.prefix
        ));
    }
    let Some(seat) = game.to_move() else {
        return private("The game is over.");
    };
    if record
        .player(seat.index())
        .is_some_and(|p| p.id != req.user.id)
        && record.is_player(&req.user.id)
    {
        return private("Hints are for your own decision; it is not your turn.");
    }
    let name = |s: Seat| {
        record
            .player(s.index())
            .map_or_else(|| words::seat_title(game, s), |p| p.name.clone())
    };
    if let AnyGame::Croquet(g) = game {
        let Some((step, value, _)) = bot::hint(g) else {
            return private("There is no step to hint at.");
        };
        let mut probe = g.clone();
        let events: Vec<AnyEvent> = match muster_rules::Game::play(&mut probe, seat, &step) {
            Ok(ev) => ev.into_iter().map(AnyEvent::Croquet).collect(),
            Err(_) => Vec::new(),
        };
        let what = words::events(&events, &name, game).join(" ");
        let other = if has_bot(record) {
            "the bot"
        } else {
            "your opponent"
        };
        let outlook = match value {
            muster_rules::croquet::solve::Value::Win => {
                format!("With it you can force a win, whatever {other} does.")
            }
            muster_rules::croquet::solve::Value::Loss => {
                let mut who = other.to_string();
                if let Some(first) = who.get_mut(..1) {
                    first.make_ascii_uppercase();
                }
                format!("{who} can force a win whatever you play; this is among the best tries.")
            }
            muster_rules::croquet::solve::Value::Draw => {
                "With best play on both sides the game is drawn.".to_string()
            }
        };
        return private(format!(
            "Hint: `{}move {}` — {what} {outlook}",
            core.prefix, step.0
        ));
    }
    // A few hundred milliseconds of search (docs/ai.md, "Hints").
    let seed = bot::seed(&record.id, record.moves.len()) ^ 0x4849_4E54;
    let budget = muster_rules::search::Budget::millis(HINT_MILLIS, 200_000);
    let Some(found) = muster_rules::search::best_any(game, budget, seed) else {
        return private("There is no decision to hint at.");
    };
    let mut probe = game.clone();
    let events = probe.play_text(seat, &found.decision).unwrap_or_default();
    let what = words::events(&events, &name, game).join(" ");
    private(format!(
        "Hint: `{}move {}` — {what} The search gives it {} in {} playouts.",
        core.prefix,
        found.decision,
        chance(found.value),
        found.iterations
    ))
}

/// How long a hint searches, in milliseconds.
const HINT_MILLIS: u64 = 300;

/// A value for the player as words: `a 63 % chance`.
fn chance(value: f64) -> String {
    format!("a {:.0} % chance", (value * 100.0).clamp(0.0, 100.0))
}
