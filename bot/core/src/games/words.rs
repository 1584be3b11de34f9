//! A game in words: who sits where, what the player to decide is asked, what each decision did,
//! and the result. Adapters use these words as they are; only the core decides wording.

use muster_rules::croquet::{Croquet, CroquetEvent, Status, target_name};
use muster_rules::lanrick::{BorderReason, Lanrick, LanrickEvent, Phase};
use muster_rules::lanrick1880::{Event as Lanrick1880Event, Lanrick1880};
use muster_rules::{AnyEvent, AnyGame, EndReason, Game, Outcome, Seat};

use crate::kernel::store::GameRecord;
use crate::kernel::text::capitalised;

/// The seat's colour or name, capitalised (`White`).
pub fn seat_title(game: &AnyGame, seat: Seat) -> String {
    game.table().seat_title(seat)
}

/// `Alice (White)`.
pub fn who(record: &GameRecord, game: &AnyGame, seat: Seat) -> String {
    let name = record
        .player(seat.index())
        .map_or("nobody".to_string(), |p| p.name.clone());
    format!("{name} ({})", seat_title(game, seat))
}

/// What the player to decide is asked to do, in one sentence with an example.
pub fn prompt(game: &AnyGame, prefix: &str) -> String {
    let text = match game {
        AnyGame::Lanrick(g) => lanrick_prompt(g),
        AnyGame::Croquet(g) => croquet_prompt(g),
        AnyGame::Lanrick1880(g) => lanrick1880_prompt(g),
        AnyGame::Lanko(g) => super::lanko_words::prompt(g),
    };
    text.replace("`move ", &format!("`{prefix}move "))
}

fn lanrick1880_prompt(g: &Lanrick1880) -> String {
    use muster_rules::lanrick1880::Phase as P;
    match g.phase() {
        P::Setup => {
            "set all ten men on the border, e.g. `move W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7`".into()
        }
        P::Choose => {
            "choose the rendezvous by its centre, e.g. `move d4` (none of your men may be in it)"
                .into()
        }
        P::Play => {
            let b = g.budget().unwrap_or(0);
            let shift = if !g.legal_shifts().is_empty() {
                ", or shift the mark one square, e.g. `move *e5`"
            } else {
                ""
            };
            format!("play up to {b} squares, each man once, e.g. `move c1-c3 d1-e2`{shift}")
        }
        P::Capture => "take one of the ringed men, e.g. `move xe5`".into(),
        P::Wanderers => "move a ringed wanderer to the border, e.g. `move e5-e1`".into(),
        P::Over => "nothing: the game is over".into(),
    }
}

fn lanrick1880_event(e: &Lanrick1880Event, name: &dyn Fn(Seat) -> String) -> Option<String> {
    use Lanrick1880Event as E;
    Some(match e {
        E::SetUp => "White has set up the men.".into(),
        E::Chosen { seat, square } => {
            format!("{} chose the rendezvous around {square}.", name(*seat))
        }
        E::Shifted {
            seat,
            from,
            to,
            carried,
        } => {
            let with = if carried.is_empty() {
                String::new()
            } else {
                format!(
                    ", carrying {}",
                    carried
                        .iter()
                        .map(|(a, b)| format!("{a}-{b}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            };
            format!("{} shifted the mark {from}-{to}{with}.", name(*seat))
        }
        E::Stepped { .. } => return None,
        E::Passed { seat } => format!("{} cannot move and passes.", name(*seat)),
        E::RendezvousWon { seat } => format!(
            "{} has every man in the rendezvous and wins it!",
            name(*seat)
        ),
        E::Took { seat, square } => format!("{} takes the man on {square}.", name(*seat)),
        E::ToBorder { seat, from, to } => format!(
            "{} moves the wanderer {from}-{to} to the border.",
            name(*seat)
        ),
        E::GameWon { seat } => format!("{} has taken the last man and wins the game!", name(*seat)),
        E::Drawn { .. } => {
            "The same position has occurred three times this round: the game is drawn.".into()
        }
    })
}

fn croquet_prompt(g: &Croquet) -> String {
    let Some(seat) = g.to_move() else {
        return "nothing: the game is over".into();
    };
    let ball = g.ball(seat);
    let mut text = match ball.status {
        Status::InHoop => format!(
            "you are in hoop {}: come out with `move {}`",
            ball.target, ball.need
        ),
        Status::Missed => format!(
            "you missed {}: go back below {} with a back step, e.g. `move -{}`",
            target_name(ball.target),
            ball.target,
            (ball.pos - ball.target + 1).min(8)
        ),
        Status::Normal => format!(
            "step 1 to 8 towards {} (from {}), e.g. `move 5`",
            target_name(ball.target),
            ball.pos
        ),
    };
    let barred = g.barred();
    if !barred.is_empty() {
        text.push_str(&format!("; {} and {} are barred", barred[0], barred[1]));
    }
    if let Some(n) = g.run_forbidden() {
        text.push_str(&format!("; you may not play {n} twice running"));
    }
    text
}

fn lanrick_prompt(g: &Lanrick) -> String {
    match g.phase() {
        Phase::Placement => "place a man on an empty border square, e.g. `move b1`".into(),
        Phase::Mark => {
            "set the mark on a field square, e.g. `move d4` (the board shows where it may go)"
                .into()
        }
        Phase::Play => {
            let budget = g.budget().unwrap_or(0);
            let first = if g.is_opening_turn() {
                ", the round's first turn"
            } else {
                ""
            };
            format!("play up to {budget} squares{first}, e.g. `move c1-c3 d1-e2`")
        }
        Phase::Capture => "take one of the ringed men, e.g. `move xe5`".into(),
        Phase::Wanderers => "move a ringed wanderer to the border, e.g. `move e5-e1`".into(),
        Phase::Equalise => {
            "equalise the field: move one of your ringed men to the border, e.g. `move e5-e1`"
                .into()
        }
        Phase::Return => {
            "return one of your ringed field men to the border, e.g. `move e5-e1`".into()
        }
        Phase::Over => "nothing: the game is over".into(),
    }
}

/// Events of one decision, in sentences, naming players by `name(seat)`.
pub fn events(events: &[AnyEvent], name: &dyn Fn(Seat) -> String, game: &AnyGame) -> Vec<String> {
    let mut out = Vec::new();
    let mut steps = Steps::default();
    for e in events {
        match e {
            AnyEvent::Lanrick(e) => say_lanrick(e, name, game, &mut steps, &mut out),
            AnyEvent::Croquet(e) => out.push(croquet_event(e, name)),
            AnyEvent::Lanko(e) => {
                if let AnyGame::Lanko(g) = game {
                    out.push(super::lanko_words::event(e, g, name));
                }
            }
            AnyEvent::Lanrick1880(e) => say_lanrick1880(e, name, &mut steps, &mut out),
        }
    }
    steps.said(&mut out, name);
    out
}

/// The steps of a turn, gathered until something else happens, to be said in one sentence
/// (`alice (White) played c1-c3 d1-e2.`).
#[derive(Default)]
struct Steps {
    /// Who steps.
    seat: Option<Seat>,
    /// The steps so far (`c1-c3`).
    steps: Vec<String>,
}

impl Steps {
    /// Gathers a step of `seat`'s from `from` to `to`.
    fn step(&mut self, seat: Seat, from: impl std::fmt::Display, to: impl std::fmt::Display) {
        self.seat = Some(seat);
        self.steps.push(format!("{from}-{to}"));
    }

    /// Says the steps gathered, if any, in one sentence into `out`, and gathers afresh.
    fn said(&mut self, out: &mut Vec<String>, name: &dyn Fn(Seat) -> String) {
        if let Some(s) = self.seat.take() {
            out.push(format!("{} played {}.", name(s), self.steps.join(" ")));
            self.steps.clear();
        }
    }
}

/// Says a Lanrick event into `out`: a step is gathered into its turn's sentence; anything else
/// first says the steps gathered, then itself.
fn say_lanrick(
    e: &LanrickEvent,
    name: &dyn Fn(Seat) -> String,
    game: &AnyGame,
    steps: &mut Steps,
    out: &mut Vec<String>,
) {
    if let LanrickEvent::Stepped { seat, from, to } = e {
        steps.step(*seat, from, to);
        return;
    }
    steps.said(out, name);
    out.push(lanrick_event(e, name, game));
}

/// A Lanrick event other than a step, in a sentence.
fn lanrick_event(e: &LanrickEvent, name: &dyn Fn(Seat) -> String, game: &AnyGame) -> String {
    match e {
        LanrickEvent::Placed { seat, square } => {
            format!("{} placed a man on {square}.", name(*seat))
        }
        LanrickEvent::MarkSet { seat, square } => {
            let zone = match game {
                AnyGame::Lanrick(g) => span(g),
                _ => String::new(),
            };
            format!(
                "{} set the mark on {square}: the rendezvous is {zone}.",
                name(*seat)
            )
        }
        LanrickEvent::Passed { seat } => {
            format!("{} has no legal step and passes.", name(*seat))
        }
        LanrickEvent::RendezvousWon { seat } => {
            format!(
                "{} has every man in the rendezvous and wins it!",
                name(*seat)
            )
        }
        LanrickEvent::Took { seat, square } => {
            format!("{} takes the man on {square}.", name(*seat))
        }
        LanrickEvent::ToBorder {
            seat,
            from,
            to,
            reason,
            ..
        } => match reason {
            BorderReason::Wanderer => format!(
                "{} moves the wanderer {from}-{to} to the border.",
                name(*seat)
            ),
            BorderReason::Equalise => {
                format!("{} equalises the field: {from}-{to}.", name(*seat))
            }
            BorderReason::Return => {
                format!("{} returns {from}-{to} to the border.", name(*seat))
            }
        },
        LanrickEvent::GameWon { seat } => {
            format!("{} has taken four men and wins the game!", name(*seat))
        }
        LanrickEvent::Drawn { reason } => match reason {
            EndReason::Repetition => {
                "The same position has occurred three times this round: the game is drawn.".into()
            }
            _ => "The game is drawn.".into(),
        },
        LanrickEvent::Stepped { .. } => String::new(),
    }
}

/// Says a Lanrick (1880) event into `out`, as [`say_lanrick`] does.
fn say_lanrick1880(
    e: &Lanrick1880Event,
    name: &dyn Fn(Seat) -> String,
    steps: &mut Steps,
    out: &mut Vec<String>,
) {
    if let Lanrick1880Event::Stepped { seat, from, to } = e {
        steps.step(*seat, from, to);
        return;
    }
    steps.said(out, name);
    out.extend(lanrick1880_event(e, name));
}

fn croquet_event(e: &CroquetEvent, name: &dyn Fn(Seat) -> String) -> String {
    match e {
        CroquetEvent::Stepped {
            seat,
            step,
            from,
            to,
        } => format!("{} plays {step}: {from} → {to}.", name(*seat)),
        CroquetEvent::InHoop { seat, hoop } => format!("{} is in hoop {hoop}.", name(*seat)),
        CroquetEvent::TookHoop { seat, hoop } => format!("{} takes hoop {hoop}.", name(*seat)),
        CroquetEvent::Missed { seat, target } => {
            format!("{} misses {}.", name(*seat), target_name(*target))
        }
        CroquetEvent::Passed { seat } => format!("{} cannot move and passes.", name(*seat)),
        CroquetEvent::Won { seat } => format!("{} wins the game!", name(*seat)),
    }
}

fn span(g: &Lanrick) -> String {
    g.mark().map(|m| m.block_name()).unwrap_or_default()
}

/// The result in a sentence.
pub fn result(record: &GameRecord, game: &AnyGame) -> String {
    if let Some(
        crate::kernel::store::Ending::Time { seat }
        | crate::kernel::store::Ending::Forfeit { seat },
    ) = record.ending
        && let Some(lost) = Seat::new(seat)
    {
        let table = game.table();
        let losing = table.team_of(lost);
        let how = if matches!(
            record.ending,
            Some(crate::kernel::store::Ending::Forfeit { .. })
        ) {
            "by forfeit"
        } else {
            "on time"
        };
        if table.len() > 2 {
            let team = [muster_rules::Team::WHITE, muster_rules::Team::BLACK]
                .into_iter()
                .find(|t| *t != losing)
                .unwrap_or(losing);
            return format!("{} win {how}.", team_players(record, game, team));
        }
        let winners: Vec<String> = table
            .all()
            .filter(|s| table.team_of(*s) != losing)
            .map(|s| who(record, game, s))
            .collect();
        return format!("{} wins {how}.", winners.join(" and "));
    }
    if let AnyGame::Lanko(g) = game {
        let team_names = |team: muster_rules::Team| team_players(record, game, team);
        return super::lanko_words::result(g, &team_names);
    }
    match game.outcome() {
        Some(Outcome::Winner { team, reason }) => {
            let seats: Vec<String> = game
                .table()
                .all()
                .filter(|s| game.table().team_of(*s) == team)
                .map(|s| who(record, game, s))
                .collect();
            let how = match reason {
                EndReason::Resignation => " by resignation",
                EndReason::Time => " on time",
                EndReason::Goal => "",
                _ => "",
            };
            format!("{} wins{how}.", seats.join(" and "))
        }
        Some(Outcome::Draw {
            reason: EndReason::Agreement,
        }) => "Drawn by agreement.".into(),
        Some(Outcome::Draw { .. }) => "The game is drawn.".into(),
        None => "The game is in progress.".into(),
    }
}

/// The players of a team: `White (Alice and Carol)`, or `Alice (S, N)` when one player holds
/// both seats.
pub fn team_players(record: &GameRecord, game: &AnyGame, team: muster_rules::Team) -> String {
    let mut names: Vec<(String, Vec<String>)> = Vec::new();
    for s in game
        .table()
        .all()
        .filter(|s| game.table().team_of(*s) == team)
    {
        let name = record
            .player(s.index())
            .map_or("nobody".to_string(), |p| p.name.clone());
        let seat = seat_title(game, s);
        match names.iter_mut().find(|(n, _)| *n == name) {
            Some((_, seats)) => seats.push(seat),
            None => names.push((name, vec![seat])),
        }
    }
    let team_title = capitalised(game.table().team_name(team));
    let people: Vec<String> = names
        .iter()
        .map(|(n, seats)| format!("{n} ({})", seats.join(", ")))
        .collect();
    format!("{team_title}: {}", people.join(" and "))
}
