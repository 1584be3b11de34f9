//! The rating maths, from the `skillratings` crate: Glicko-2 for the two-seat games, configured
//! as Lichess configures it, with its deviation growing with inactivity; Weng-Lin (a Bayesian
//! approximation of TrueSkill) for Lanko's sides, whatever the pairs. Pure functions; the
//! constants are those of docs/ratings.md.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_two_teams};

/// A new player's Glicko-2 rating.
pub const START: f64 = 1500.0;
/// A new player's (and the largest) deviation.
pub const MAX_DEVIATION: f64 = 350.0;
/// A new player's volatility.
pub const VOLATILITY: f64 = 0.06;
/// The system constant τ.
pub const TAU: f64 = 0.75;
/// Rating periods a day of inactivity counts for (Lichess's figure): the deviation grows as
/// √(φ² + n·σ²) over `n` periods.
pub const PERIODS_PER_DAY: f64 = 0.21436;
/// A Glicko-2 rating is provisional while its deviation is above this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// A Weng-Lin rating is provisional while its uncertainty is above this.
pub const PROVISIONAL_UNCERTAINTY: f64 = 4.0;
/// The Glicko-2 scale factor.
const SCALE: f64 = 173.7178;

/// Which system a table uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// Glicko-2 (two-seat games).
    Glicko2,
    /// Weng-Lin (Lanko, by sides).
    WengLin,
}

/// A rating: Glicko-2's rating, deviation and volatility, or Weng-Lin's μ and σ (volatility
/// unused).
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct Rating {
    /// The rating (μ for Weng-Lin).
    pub rating: f64,
    /// The deviation (σ for Weng-Lin).
    pub deviation: f64,
    /// The volatility (Glicko-2).
    #[serde(default)]
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating in `system`.
    pub fn new(system: System) -> Rating {
        match system {
            System::Glicko2 => Rating {
                rating: START,
                deviation: MAX_DEVIATION,
                volatility: VOLATILITY,
            },
            System::WengLin => {
                let w = WengLinRating::new();
                Rating {
                    rating: w.rating,
                    deviation: w.uncertainty,
                    volatility: 0.0,
                }
            }
        }
    }

    /// Whether it is provisional.
    pub fn provisional(&self, system: System) -> bool {
        match system {
            System::Glicko2 => self.deviation > PROVISIONAL_DEVIATION,
            System::WengLin => self.deviation > PROVISIONAL_UNCERTAINTY,
        }
    }

    /// As shown: `1532`, `1532?` while provisional; Weng-Lin with one decimal (`27.4?`).
    pub fn shown(&self, system: System) -> String {
        let mark = if self.provisional(system) { "?" } else { "" };
        match system {
            System::Glicko2 => format!("{}{mark}", self.rating.round() as i64),
            System::WengLin => format!("{:.1}{mark}", self.rating),
        }
    }

    /// The rating after `days` without a rated game: Glicko-2's deviation grows as
    /// √(φ² + n·σ²) for `n` = days × [`PERIODS_PER_DAY`], up to [`MAX_DEVIATION`]; Weng-Lin's
    /// does not change.
    pub fn idle(self, system: System, days: f64) -> Rating {
        if system == System::WengLin || days <= 0.0 {
            return self;
        }
        let phi = self.deviation / SCALE;
        let n = days * PERIODS_PER_DAY;
        let grown = (phi * phi + n * self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            deviation: grown.min(MAX_DEVIATION),
            ..self
        }
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn weng_lin(self) -> WengLinRating {
        WengLinRating {
            rating: self.rating,
            uncertainty: self.deviation,
        }
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

impl From<WengLinRating> for Rating {
    fn from(w: WengLinRating) -> Rating {
        Rating {
            rating: w.rating,
            deviation: w.uncertainty,
            volatility: 0.0,
        }
    }
}

/// How a game ended, from the first side's view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Result {
    /// The first side won.
    First,
    /// The second side won.
    Second,
    /// Drawn.
    Draw,
}

impl Result {
    fn outcome(self) -> Outcomes {
        match self {
            Result::First => Outcomes::WIN,
            Result::Second => Outcomes::LOSS,
            Result::Draw => Outcomes::DRAW,
        }
    }
}

/// The Glicko-2 configuration: τ = 0.75.
pub fn glicko_config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// One game as a rating period of its own: the two players' new ratings.
pub fn two_players(first: Rating, second: Rating, result: Result) -> (Rating, Rating) {
    let (a, b) = glicko2(
        &first.glicko(),
        &second.glicko(),
        &result.outcome(),
        &glicko_config(),
    );
    (a.into(), b.into())
}

/// One game between two sides of one or more players each: their new ratings.
pub fn two_sides(
    first: &[Rating],
    second: &[Rating],
    result: Result,
) -> (Vec<Rating>, Vec<Rating>) {
    let a: Vec<WengLinRating> = first.iter().map(|r| r.weng_lin()).collect();
    let b: Vec<WengLinRating> = second.iter().map(|r| r.weng_lin()).collect();
    let (a, b) = weng_lin_two_teams(&a, &b, &result.outcome(), &WengLinConfig::new());
    (
        a.into_iter().map(Rating::from).collect(),
        b.into_iter().map(Rating::from).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    #[test]
    fn glickmans_example_player_after_three_games() {
        // Glickman, "Example of the Glicko-2 system" (2013): a player rated 1500, RD 200,
        // σ 0.06 beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), with
        // τ = 0.5: 1464.06, RD 151.52, σ 0.05999.
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let after = glicko2_rating_period(&player, &results, &config);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn one_game_between_new_players_by_hand() {
        // Both new: μ = 0, φ = 350/173.7178 = 2.01476. g(φ) = 1/√(1 + 3φ²/π²) = 0.66906,
        // E = 0.5, v = 1/(g²·E(1−E)) = 8.9357. The winner's φ* = √(φ² + σ²) = 2.01565 (σ
        // barely moves), φ' = 1/√(1/φ*² + 1/v) = 1.67120, μ' = φ'²·g·(1−E) = 0.93430:
        // 1500 + 173.7178 × 0.93430 = 1662.3, RD 173.7178 × 1.67120 = 290.3; the loser
        // mirrors him at 1337.7.
        let new = Rating::new(System::Glicko2);
        let (w, l) = two_players(new, new, Result::First);
        assert!(close(w.rating, 1662.3, 0.1), "{w:?}");
        assert!(close(w.deviation, 290.3, 0.1), "{w:?}");
        assert!(close(l.rating, 1337.7, 0.1), "{l:?}");
        assert!(close(w.volatility, 0.06, 0.0001), "{w:?}");
        let (a, b) = two_players(new, new, Result::Draw);
        assert!(close(a.rating, 1500.0, 1e-9) && close(b.rating, 1500.0, 1e-9));
        assert!(a.deviation < 350.0);
    }

    #[test]
    fn the_deviation_grows_with_inactivity_up_to_350() {
        let r = Rating {
            rating: 1800.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        // A year idle: n = 365 × 0.21436 = 78.24 periods; √(0.34539² + 78.24 × 0.0036)
        // = √(0.11929 + 0.28166) = 0.63321 → RD 110.0.
        let year = r.idle(System::Glicko2, 365.0);
        assert!(close(year.deviation, 110.0, 0.1), "{year:?}");
        assert_eq!(year.rating, 1800.0);
        assert_eq!(r.idle(System::Glicko2, 0.0), r);
        assert_eq!(r.idle(System::Glicko2, 100_000.0).deviation, MAX_DEVIATION);
        assert!(
            !r.provisional(System::Glicko2)
                && year.idle(System::Glicko2, 1.0).provisional(System::Glicko2)
        );
        assert_eq!(r.shown(System::Glicko2), "1800");
        assert_eq!(Rating::new(System::Glicko2).shown(System::Glicko2), "1500?");
    }

    #[test]
    fn a_lanko_side_moves_together() {
        let new = Rating::new(System::WengLin);
        let (winners, losers) = two_sides(&[new, new], &[new], Result::First);
        assert_eq!((winners.len(), losers.len()), (2, 1));
        assert!(
            winners
                .iter()
                .all(|w| w.rating > 25.0 && w.deviation < new.deviation)
        );
        assert!(losers[0].rating < 25.0);
        assert!(close(winners[0].rating, winners[1].rating, 1e-9));
        assert_eq!(new.shown(System::WengLin), "25.0?");
    }
}
