//! Applying a move of the first version, one helper for each phase's move.

use crate::game::{EndReason, Outcome, PlayError};
use crate::lanrick::common::list;
use crate::lanrick::turns::{self, ManRule};
use crate::lanrick::{BORDER, Direction, Square, Squares, Step, border_destinations, squares};
use crate::seat::{Seat, Table};

use super::{Event, Lanrick1880, MEN, Move, Phase, illegal, men_on, one_step};

impl Lanrick1880 {
    /// Plays `mv` for the side to move, or says why it may not be played.
    pub(super) fn apply(&mut self, mv: &Move) -> Result<Vec<Event>, PlayError> {
        let mut events = Vec::new();
        match (self.phase, mv) {
            (Phase::Setup, Move::Setup { white, black }) => {
                self.set_up(*white, *black, &mut events)?;
            }
            (Phase::Choose, Move::Choose(centre)) => self.choose(*centre, &mut events)?,
            (Phase::Play, Move::Shift(to)) => self.shift_mark(*to, &mut events)?,
            (Phase::Play, Move::Turn(steps)) => self.play_turn(steps, &mut events)?,
            (Phase::Capture, Move::Take(sq)) => self.take_man(*sq, &mut events)?,
            (Phase::Wanderers, Move::ToBorder(step)) => self.move_wanderer(*step, &mut events)?,
            (Phase::Over, _) => return Err(PlayError::GameOver),
            (phase, _) => {
                return Err(illegal(format!(
                    "this is not a move for the {} phase: {}",
                    phase.name(),
                    phase.asks()
                )));
            }
        }
        Ok(events)
    }

    /// White sets all ten men on the border (L0-1); Black then chooses the rendezvous.
    fn set_up(
        &mut self,
        white: Squares,
        black: Squares,
        events: &mut Vec<Event>,
    ) -> Result<(), PlayError> {
        for (who, men) in [("White", white), ("Black", black)] {
            if men.count_ones() != MEN {
                return Err(illegal(format!(
                    "{who} has {} men; each player has five (Rule 1)",
                    men.count_ones()
                )));
            }
            if men & !BORDER != 0 {
                return Err(illegal(format!(
                    "{} is not a border square: all men start on the border (Rule 2)",
                    list(men & !BORDER)
                )));
            }
        }
        if white & black != 0 {
            return Err(illegal(format!(
                "{} would hold two men",
                list(white & black)
            )));
        }
        self.c.men = [white, black];
        self.phase = Phase::Choose;
        self.c.side = Seat::BLACK;
        events.push(Event::SetUp);
        Ok(())
    }

    /// The chooser picks the rendezvous by its centre (L0-2) and the other begins to play.
    fn choose(&mut self, centre: Square, events: &mut Vec<Event>) -> Result<(), PlayError> {
        let seat = self.c.side;
        let rival = seat.opponent();
        if centre.is_border() {
            return Err(illegal(format!(
                "{centre} is on the border: the rendezvous's centre is b2 to g7, so the block fits on the board (Rule 3)"
            )));
        }
        if self.legal_centres() & centre.bit() == 0 {
            let mine = self.men(seat) & centre.zone();
            return Err(illegal(format!(
                "the rendezvous around {centre} would include your {}; it may not include the chooser's men (Rule 3)",
                men_on(mine)
            )));
        }
        self.c.mark = Some(centre);
        self.c.seen.clear();
        self.phase = Phase::Play;
        self.c.side = rival;
        self.shifter = Some(rival);
        events.push(Event::Chosen {
            seat,
            square: centre,
        });
        // As soon as: the first player may already have every man in (our decision, as L3-5).
        if self.all_in(rival) {
            self.win_rendezvous(rival, events);
        } else {
            self.count_position(events);
            self.settle(events);
        }
        Ok(())
    }

    /// Shifts the mark one square to `to`, carrying the men in the rendezvous (L0-4).
    fn shift_mark(&mut self, to: Square, events: &mut Vec<Event>) -> Result<(), PlayError> {
        let seat = self.c.side;
        if let Some(why) = self.shift_refusal(to) {
            return Err(illegal(why));
        }
        let from = self.c.mark.unwrap_or(to);
        let dir = one_step(from, to).unwrap_or(Direction::N);
        let carried_men = self.carried();
        let mut carried = Vec::new();
        for side in [Seat::WHITE, Seat::BLACK] {
            let moving = self.men(side) & carried_men;
            let moved = squares(moving)
                .filter_map(|s| s.go(dir, 1))
                .fold(0, |a, t| a | t.bit());
            self.c.men[side.index()] = (self.men(side) & !moving) | moved;
        }
        for s in squares(carried_men) {
            if let Some(t) = s.go(dir, 1) {
                carried.push((s, t));
            }
        }
        self.c.mark = Some(to);
        events.push(Event::Shifted {
            seat,
            from,
            to,
            carried,
        });
        self.after_turn(events);
        Ok(())
    }

    /// Plays a turn of steps, each man at most once (L0-3).
    fn play_turn(&mut self, steps: &[Step], events: &mut Vec<Event>) -> Result<(), PlayError> {
        let seat = self.c.side;
        let rival = seat.opponent();
        let budget = self.budget().unwrap_or(0);
        let zone = self.rendezvous().unwrap_or(0);
        let checked = turns::check_turn(
            self.men(seat),
            self.men(rival),
            budget,
            zone,
            steps,
            rival.colour(),
            ManRule::Once,
        )
        .map_err(illegal)?;
        self.c.men[seat.index()] = checked.own;
        if self.shifter == Some(seat) {
            self.shifter = None;
        }
        events.extend(steps.iter().map(|s| Event::Stepped {
            seat,
            from: s.from,
            to: s.to,
        }));
        self.after_turn(events);
        Ok(())
    }

    /// The winner of the rendezvous takes the man on `sq` (L0-5); the last man taken wins.
    fn take_man(&mut self, sq: Square, events: &mut Vec<Event>) -> Result<(), PlayError> {
        let seat = self.c.side;
        if let Some(why) = self.c.take_refusal(seat, sq) {
            return Err(illegal(why));
        }
        self.c.take(seat, sq);
        events.push(Event::Took { seat, square: sq });
        if self.men(seat.opponent()) == 0 {
            self.finish(Outcome::Winner {
                team: Table::TWO_PLAYERS.team_of(seat),
                reason: EndReason::Goal,
            });
            events.push(Event::GameWon { seat });
        } else {
            self.phase = Phase::Wanderers;
            self.settle(events);
        }
        Ok(())
    }

    /// The winner moves one of the loser's wanderers to the border (L0-5).
    fn move_wanderer(&mut self, step: Step, events: &mut Vec<Event>) -> Result<(), PlayError> {
        let seat = self.c.side;
        let rival = seat.opponent();
        let wanderers = self.wanderers();
        if wanderers & step.from.bit() == 0 {
            return Err(illegal(format!(
                "{step}: the men to move to the border are {}'s wanderers: {}",
                rival.colour(),
                list(wanderers)
            )));
        }
        let allowed = border_destinations(step.from, self.occupied());
        if allowed & step.to.bit() == 0 {
            return Err(illegal(format!(
                "{step}: the wanderer on {} may go to {} (Rule 6)",
                step.from,
                list(allowed)
            )));
        }
        self.c.shift_man(rival, step);
        events.push(Event::ToBorder {
            seat,
            from: step.from,
            to: step.to,
        });
        self.settle(events);
        Ok(())
    }
}
