//! A game in words: who sits where, what the player to decide is asked, what each decision did,
//! and the result. Adapters use these words as they are; only the core decides wording.

use muster_rules::croquet::{
    Croquet, CroquetEvent, PassReason, Status, Step as CroquetStep, target_name,
};
use muster_rules::lanrick::{
    BorderReason, Lanrick, LanrickEvent, Phase, Square, Squares, Written, parse_written, squares,
};
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
        AnyGame::Lanrick(g) => lanrick_prompt(game, g),
        AnyGame::Croquet(g) => croquet_prompt(g),
        AnyGame::Lanrick1880(g) => lanrick1880_prompt(game, g),
        AnyGame::Lanko(g) => super::lanko_words::prompt(g),
    };
    text.replace("`move ", &format!("`{prefix}move "))
}

fn lanrick1880_prompt(game: &AnyGame, g: &Lanrick1880) -> String {
    use muster_rules::lanrick1880::{Move, Phase as P};
    let eg = || example(g.legal_moves().first().map(|m| g.format_move(m)));
    match g.phase() {
        // Far too many set-ups to list; the set-up is the game's first decision, from an empty
        // board, so this one is always legal (ten men on border squares, L0-1).
        P::Setup => {
            "set all ten men on the border, e.g. `move W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7`".into()
        }
        P::Choose => format!(
            "choose the rendezvous by its centre{} (none of your men may be in it)",
            eg()
        ),
        P::Play => {
            let b = g.budget().unwrap_or(0);
            let shift = match g.legal_shifts().first() {
                Some(to) => format!(
                    ", or shift the mark one square, e.g. `move {}`",
                    g.format_move(&Move::Shift(*to))
                ),
                None => String::new(),
            };
            let example = example(turn_example(game, g.rendezvous().unwrap_or(0)));
            format!("play up to {b} squares, each man once{example}{shift}")
        }
        P::Capture => format!("take one of the ringed men{}", eg()),
        P::Wanderers => format!("move a ringed wanderer to the border{}", eg()),
        P::Over => "nothing: the game is over".into(),
    }
}

/// `, e.g. `move …`` for a prompt's example, or nothing when there is none.
fn example(notation: Option<String>) -> String {
    notation.map_or_else(String::new, |n| format!(", e.g. `move {n}`"))
}

/// The turn a prompt shows as its example: a legal step that completion offers (it lists next
/// steps, not whole turns, so this costs microseconds where listing every turn can take tens of
/// milliseconds), the one ending nearest the rendezvous (`zone`) — what every turn of the game
/// is about — followed, when one is legal, by the nearest such step of another man, so that the
/// example also shows how steps are written together. Each is checked by the rules on a copy.
/// Nearness is all that decides, not whether the turn is a good one: an example is not advice.
fn turn_example(game: &AnyGame, zone: Squares) -> Option<String> {
    let seat = game.to_move()?;
    let legal = |turn: &str| game.clone().play_text(seat, turn).is_ok();
    // The legal turn of `count` steps, each of its own man, among `turns`, whose last step
    // ends nearest the rendezvous.
    let nearest = |turns: Vec<String>, count: usize| {
        let mut near: Vec<(u8, String)> = turns
            .into_iter()
            .filter_map(|turn| {
                let Ok(Written::Steps(steps)) = parse_written(&turn) else {
                    return None;
                };
                let apart = steps
                    .windows(2)
                    .all(|w| w[1].from != w[0].from && w[1].from != w[0].to);
                let last = steps.last().filter(|_| steps.len() == count && apart)?;
                Some((distance(last.to, zone), turn))
            })
            .collect();
        near.sort_by_key(|(d, _)| *d);
        near.into_iter().map(|(_, t)| t).find(|t| legal(t))
    };
    let first = nearest(game.suggest("", 64), 1)?;
    Some(nearest(game.suggest(&format!("{first} "), 64), 2).unwrap_or(first))
}

/// How far `square` is from the nearest square of `zone`, in king's steps (0 inside it).
fn distance(square: Square, zone: Squares) -> u8 {
    squares(zone)
        .map(|z| {
            square
                .file()
                .abs_diff(z.file())
                .max(square.rank().abs_diff(z.rank()))
        })
        .min()
        .unwrap_or(u8::MAX)
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
        E::Passed { seat } => format!(
            "{} cannot move a man (nor shift the mark) and passes.",
            name(*seat)
        ),
        E::RendezvousWon { seat } => format!(
            "{} has every man in the rendezvous and wins it!",
            name(*seat)
        ),
        E::Took { seat, square } => format!("{} takes the man on {square}.", name(*seat)),
        // Said with the others moved to the border (`Steps`).
        E::ToBorder { .. } => return None,
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
    let eg = example(croquet_example(&g.legal_steps()));
    let mut text = match ball.status {
        Status::InHoop => format!(
            "you are in hoop {}: come out with `move {}`",
            ball.target, ball.need
        ),
        Status::Missed => format!(
            "you missed {}: go back below {} with a back step{eg}",
            target_name(ball.target),
            ball.target,
        ),
        Status::Normal => format!(
            "step 1 to 8 towards {} (from {}){eg}",
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

/// The step a Croquet prompt shows as its example: a legal step of 5 where there is one, else
/// the legal step nearest that size (forward steps first; after a miss only back steps are
/// legal). The size alone decides, never the step's merits.
fn croquet_example(steps: &[CroquetStep]) -> Option<String> {
    steps
        .iter()
        .min_by_key(|s| (s.0 < 0, (i16::from(s.size()) - 5).abs()))
        .map(|s| s.0.to_string())
}

fn lanrick_prompt(game: &AnyGame, g: &Lanrick) -> String {
    let eg = || example(g.legal_moves().first().map(|m| g.format_move(m)));
    match g.phase() {
        Phase::Placement => format!("place a man on an empty border square{}", eg()),
        Phase::Mark => format!(
            "set the mark on a field square{} (the board shows where it may go)",
            eg()
        ),
        Phase::Play => {
            let budget = g.budget().unwrap_or(0);
            let opening = if g.is_opening_turn() {
                ", the round's first turn"
            } else {
                ""
            };
            let example = example(turn_example(game, g.rendezvous().unwrap_or(0)));
            format!("play up to {budget} squares{opening}{example}")
        }
        Phase::Capture => format!("take one of the ringed men{}", eg()),
        Phase::Wanderers => format!("move a ringed wanderer to the border{}", eg()),
        Phase::Equalise => format!(
            "equalise the field: move one of your ringed men to the border{}",
            eg()
        ),
        Phase::Return => format!("return one of your ringed field men to the border{}", eg()),
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

/// The steps of a turn, or the men one player moves to the border one after another for one
/// reason, gathered until something else happens, to be said in one sentence (`alice (White)
/// played c1-c3 d1-e2.`, `bob (Black) equalises the field: c3-c1 d4-a4.`).
#[derive(Default)]
struct Steps {
    /// Who steps.
    seat: Option<Seat>,
    /// Why the men go to the border; `None` for a turn's steps.
    border: Option<BorderReason>,
    /// Whose men go to the border (the other player's wanderers), when they are not `seat`'s.
    owner: Option<Seat>,
    /// The steps so far (`c1-c3`).
    steps: Vec<String>,
}

impl Steps {
    /// Gathers a step of `seat`'s from `from` to `to`, to the border for `border` (`None`: a
    /// turn's step); what was gathered for another player or reason is said first.
    fn gather(
        &mut self,
        (seat, border): (Seat, Option<BorderReason>),
        step: String,
        out: &mut Vec<String>,
        name: &dyn Fn(Seat) -> String,
    ) {
        if self.seat.is_some_and(|s| s != seat) || self.border != border {
            self.said(out, name);
        }
        self.seat = Some(seat);
        self.border = border;
        self.owner = None;
        self.steps.push(step);
    }

    /// Gathers a man of `owner`'s that `seat` moves from `from` to the border at `to`, for
    /// `reason`.
    fn bordered(
        &mut self,
        (seat, owner, reason): (Seat, Seat, BorderReason),
        (from, to): (impl std::fmt::Display, impl std::fmt::Display),
        out: &mut Vec<String>,
        name: &dyn Fn(Seat) -> String,
    ) {
        self.gather((seat, Some(reason)), format!("{from}-{to}"), out, name);
        self.owner = (owner != seat).then_some(owner);
    }

    /// Gathers a turn's step of `seat`'s from `from` to `to`.
    fn step(
        &mut self,
        seat: Seat,
        (from, to): (impl std::fmt::Display, impl std::fmt::Display),
        out: &mut Vec<String>,
        name: &dyn Fn(Seat) -> String,
    ) {
        self.gather((seat, None), format!("{from}-{to}"), out, name);
    }

    /// Says what was gathered, if anything, in one sentence into `out`, and gathers afresh.
    fn said(&mut self, out: &mut Vec<String>, name: &dyn Fn(Seat) -> String) {
        let Some(s) = self.seat.take() else {
            return;
        };
        let list = self.steps.join(" ");
        out.push(match self.border.take() {
            None => format!("{} played {list}.", name(s)),
            Some(BorderReason::Wanderer) => format!(
                "{} moves {}'s wanderer{} {list} to the border.",
                name(s),
                name(self.owner.take().unwrap_or(s)),
                if self.steps.len() == 1 { "" } else { "s" }
            ),
            Some(BorderReason::Equalise) => format!("{} equalises the field: {list}.", name(s)),
            Some(BorderReason::Return) => format!("{} returns {list} to the border.", name(s)),
        });
        self.steps.clear();
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
    match e {
        LanrickEvent::Stepped { seat, from, to } => steps.step(*seat, (from, to), out, name),
        LanrickEvent::ToBorder {
            seat,
            owner,
            from,
            to,
            reason,
        } => steps.bordered((*seat, *owner, *reason), (from, to), out, name),
        _ => {
            steps.said(out, name);
            out.push(lanrick_event(e, name, game));
        }
    }
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
            owner,
            from,
            to,
            reason,
        } => {
            // Said as the men gathered are (`Steps`), one alone.
            let (mut one, mut said) = (Steps::default(), Vec::new());
            one.bordered((*seat, *owner, *reason), (from, to), &mut said, name);
            one.said(&mut said, name);
            said.concat()
        }
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
    match e {
        Lanrick1880Event::Stepped { seat, from, to } => steps.step(*seat, (from, to), out, name),
        Lanrick1880Event::ToBorder { seat, from, to } => steps.bordered(
            (*seat, seat.opponent(), BorderReason::Wanderer),
            (from, to),
            out,
            name,
        ),
        _ => {
            steps.said(out, name);
            out.extend(lanrick1880_event(e, name));
        }
    }
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
        CroquetEvent::Passed { seat, why } => {
            let who = name(*seat);
            match why {
                PassReason::KeptIn { hoop } => {
                    format!(
                        "{who} is kept in hoop {hoop}: the one step out is barred, so {who} passes."
                    )
                }
                PassReason::MustGoBack { target } => format!(
                    "{who} must go back below {}, but every step back is barred: {who} passes.",
                    target_name(*target)
                ),
                PassReason::Barred => format!("{who} has no step that is not barred, and passes."),
            }
        }
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

#[cfg(test)]
mod tests {
    use muster_rules::lanrick::{BorderReason, LanrickEvent, Square};
    use muster_rules::{AnyEvent, AnyGame, GameId, Seat};

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::new(b[0] - b'a', b[1] - b'1').expect("a square")
    }

    fn to_border(seat: Seat, owner: Seat, from: &str, to: &str, reason: BorderReason) -> AnyEvent {
        AnyEvent::Lanrick(LanrickEvent::ToBorder {
            seat,
            owner,
            from: sq(from),
            to: sq(to),
            reason,
        })
    }

    // Rules 6–8: the winner sends the other's wanderers to the border, then the fields are
    // equalised: each player's men moved one after another are said in one line, and whose
    // wanderers they are.
    #[test]
    fn men_sent_to_the_border_one_after_another_are_said_in_one_line() {
        let (w, b) = (Seat::WHITE, Seat::BLACK);
        let name = |s: Seat| {
            if s == w {
                "alice".to_string()
            } else {
                "Muster".to_string()
            }
        };
        let events = [
            to_border(b, w, "c3", "h3", BorderReason::Wanderer),
            to_border(b, w, "d4", "d1", BorderReason::Wanderer),
            to_border(b, b, "e5", "e8", BorderReason::Equalise),
            to_border(b, b, "f5", "h5", BorderReason::Equalise),
            to_border(w, w, "c5", "a5", BorderReason::Return),
        ];
        let said = super::events(&events, &name, &AnyGame::new(GameId::Lanrick));
        assert_eq!(
            said,
            [
                "Muster moves alice's wanderers c3-h3 d4-d1 to the border.",
                "Muster equalises the field: e5-e8 f5-h5.",
                "alice returns c5-a5 to the border.",
            ]
        );
    }

    // C-3, C-4, C-8: a pass says why.
    #[test]
    fn a_croquet_pass_says_why() {
        use muster_rules::croquet::{CroquetEvent, PassReason};
        let name = |_: Seat| "alice".to_string();
        let said = |why| {
            super::croquet_event(
                &CroquetEvent::Passed {
                    seat: Seat::WHITE,
                    why,
                },
                &name,
            )
        };
        assert_eq!(
            said(PassReason::KeptIn { hoop: 20 }),
            "alice is kept in hoop 20: the one step out is barred, so alice passes."
        );
        assert_eq!(
            said(PassReason::MustGoBack { target: 100 }),
            "alice must go back below the peg, but every step back is barred: alice passes."
        );
    }
}
