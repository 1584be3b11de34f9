//! How good each decision of a game was, from the bot's winning chances (docs/game-analysis.md):
//! a decision's class by the Win % its decider lost with it, and each side's accuracy, after
//! Lichess's thresholds and formulas (lila: `modules/tree/src/main/Advice.scala` for the
//! classes; `modules/analyse/src/main/AccuracyPercent.scala` and `modules/common/src/main/
//! Maths.scala` for the accuracy). One difference from chess: the sides need not alternate (a
//! Lanrick player may make several decisions in a row), so each decision names its decider.
//!
//! A Win % is White's side's chance of winning, 0 to 100, before the first decision and after
//! each one.

/// What a decision lost, by the thresholds of Lichess's analysis.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Class {
    /// 5 Win % points or more (`?!`).
    Inaccuracy,
    /// 10 or more (`?`).
    Mistake,
    /// 15 or more (`??`).
    Blunder,
}

impl Class {
    /// The class of a decision that lost `drop` Win % points for its decider, if it has one.
    pub fn of(drop: f64) -> Option<Class> {
        match drop {
            d if d >= 15.0 => Some(Class::Blunder),
            d if d >= 10.0 => Some(Class::Mistake),
            d if d >= 5.0 => Some(Class::Inaccuracy),
            _ => None,
        }
    }

    /// Its glyph beside the decision.
    pub fn glyph(self) -> &'static str {
        match self {
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
        }
    }
}

/// A decision's accuracy, 0 to 100, from its decider's Win % before and after it: 100 when
/// nothing was lost, else the curve Lichess fitted, with its one point of allowance.
pub fn of_decision(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let lost = before - after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * lost).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// The Win % of `side` (0 White, 1 Black) when White's is `white`.
fn for_side(white: f64, side: usize) -> f64 {
    if side == 0 { white } else { 100.0 - white }
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The population standard deviation.
fn deviation(xs: &[f64]) -> f64 {
    let m = mean(xs);
    (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / xs.len() as f64).sqrt()
}

/// Each decision's weight: how much the chances moved around it (the standard deviation of a
/// window of the series, kept within 0.5–12). The window is a tenth of the game, 2 to 8 values;
/// the first decisions, before a whole window has passed, share the first window.
pub fn weights(series: &[f64]) -> Vec<f64> {
    let decisions = series.len().saturating_sub(1);
    let size = (decisions / 10).clamp(2, 8);
    let mut windows: Vec<&[f64]> = Vec::new();
    if series.len() >= size {
        windows.extend(std::iter::repeat_n(&series[..size], size - 2));
        windows.extend(series.windows(size));
    } else {
        windows.push(series);
    }
    windows
        .into_iter()
        .take(decisions)
        .map(|w| deviation(w).clamp(0.5, 12.0))
        .collect()
}

/// Each side's accuracy in a game (0 White, 1 Black): the mean of the weighted mean and the
/// harmonic mean of its decisions' accuracies; `None` for a side that made no decision.
/// `series` holds White's Win % before the first decision and after each; `deciders` the side
/// of each decision.
pub fn of_game(series: &[f64], deciders: &[usize]) -> [Option<f64>; 2] {
    let weights = weights(series);
    let mut sides: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (&side, &weight)) in deciders.iter().zip(&weights).enumerate() {
        let (Some(&before), Some(&after)) = (series.get(i), series.get(i + 1)) else {
            break;
        };
        let accuracy = of_decision(for_side(before, side), for_side(after, side));
        sides[side.min(1)].push((accuracy, weight));
    }
    sides.map(|decisions| {
        if decisions.is_empty() {
            return None;
        }
        let total: f64 = decisions.iter().map(|(_, w)| w).sum();
        let weighted = decisions.iter().map(|(a, w)| a * w).sum::<f64>() / total;
        let harmonic =
            decisions.len() as f64 / decisions.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        Some((weighted + harmonic) / 2.0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classes_begin_at_lichess_thresholds() {
        assert_eq!(Class::of(4.99), None);
        assert_eq!(Class::of(5.0), Some(Class::Inaccuracy));
        assert_eq!(Class::of(10.0), Some(Class::Mistake));
        assert_eq!(Class::of(14.99), Some(Class::Mistake));
        assert_eq!(Class::of(15.0), Some(Class::Blunder));
        assert_eq!(Class::Blunder.glyph(), "??");
    }

    #[test]
    fn a_decision_that_loses_nothing_is_perfect_and_one_that_loses_all_is_worthless() {
        assert_eq!(of_decision(50.0, 50.0), 100.0);
        assert_eq!(of_decision(40.0, 70.0), 100.0);
        assert_eq!(of_decision(100.0, 0.0), 0.0);
        // 10 points lost: 103.1668… · e^(−0.4354…) − 3.1669… + 1 = 64.5798…
        assert!((of_decision(60.0, 50.0) - 64.579_8).abs() < 1e-3);
    }

    #[test]
    fn the_worked_example_of_the_document_comes_out_as_reckoned_by_hand() {
        // docs/game-analysis.md, "A worked example": White, White, Black, White, Black.
        let series = [50.0, 55.0, 40.0, 60.0, 60.0, 90.0];
        let deciders = [0, 0, 1, 0, 1];
        // Windows of 2 values: deviations 2.5, 7.5, 10, 0 (kept at 0.5) and 15 (kept at 12).
        let w = weights(&series);
        assert_eq!(w, vec![2.5, 7.5, 10.0, 0.5, 12.0]);
        // White: 100 (2.5), 51.5208 (7.5), 100 (0.5): weighted 65.3720, harmonic 76.1235.
        // Black: 41.0168 (10), 25.7720 (12): weighted 32.7015, harmonic 31.6546.
        let [white, black] = of_game(&series, &deciders);
        assert!((white.unwrap() - 70.747_8).abs() < 1e-3, "{white:?}");
        assert!((black.unwrap() - 32.178_0).abs() < 1e-3, "{black:?}");
        // A side that never decided has no accuracy.
        assert_eq!(of_game(&[50.0, 60.0], &[0])[1], None);
    }
}
