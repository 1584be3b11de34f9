//! The one-line position string (docs/rules/croquet.md): `<white> <black> <side> <bar> <runs>`.
//!
//! - a ball: `pos/target/status`, status `n` (normal), `h<need>` (in its hoop, needing that step
//!   to come out) or `m` (missed), followed by `!` if it has missed its current target once;
//! - side: `w` or `b` to move; once the game is over, the winner or `=`;
//! - bar: the step size barred this turn (with 9 − it), or `-`;
//! - runs: White's and Black's remembered keeping-in step (C-7), `0` for none, as `0,3`.
//!
//! The start is `0/10/n 0/10/n w - 0,0`.

use super::{Ball, Croquet, PEG, Status};
use crate::game::Outcome;
use crate::seat::{Seat, Team};

fn ball(b: &Ball) -> String {
    let status = match b.status {
        Status::Normal => "n".to_string(),
        Status::InHoop => format!("h{}", b.need),
        Status::Missed => "m".to_string(),
    };
    format!(
        "{}/{}/{status}{}",
        b.pos,
        b.target,
        if b.missed_once { "!" } else { "" }
    )
}

pub(super) fn write(g: &Croquet) -> String {
    let side = match g.outcome {
        Some(Outcome::Winner { team, .. }) => {
            if team == Team::WHITE {
                "w"
            } else {
                "b"
            }
        }
        Some(Outcome::Draw { .. }) => "=",
        None => {
            if g.side == Seat::WHITE {
                "w"
            } else {
                "b"
            }
        }
    };
    let bar = if g.bar == 0 {
        "-".to_string()
    } else {
        g.bar.to_string()
    };
    format!(
        "{} {} {side} {bar} {},{}",
        ball(&g.balls[0]),
        ball(&g.balls[1]),
        g.run[0],
        g.run[1]
    )
}

fn read_ball(text: &str, who: &str) -> Result<Ball, String> {
    let bad =
        || format!("{who}'s ball `{text}` is not pos/target/status, such as 17/20/n or 20/20/h3");
    let mut parts = text.split('/');
    let (Some(pos), Some(target), Some(status), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let pos: u8 = pos.parse().map_err(|_| bad())?;
    let target: u8 = target.parse().map_err(|_| bad())?;
    let (status, missed_once) = match status.strip_suffix('!') {
        Some(s) => (s, true),
        None => (status, false),
    };
    let (status, need) = match status {
        "n" => (Status::Normal, 0),
        "m" => (Status::Missed, 0),
        s => match s.strip_prefix('h').and_then(|n| n.parse::<u8>().ok()) {
            Some(n) if (1..=8).contains(&n) => (Status::InHoop, n),
            _ => return Err(bad()),
        },
    };
    if !target.is_multiple_of(10) || !(10..=PEG).contains(&target) {
        return Err(format!(
            "{who}'s target {target} is not a hoop 10–90 or the peg 100"
        ));
    }
    let ok = match status {
        Status::Normal => pos < target,
        Status::InHoop => pos == target && target < PEG,
        Status::Missed => pos > target && pos <= target + 7 && missed_once,
    };
    if !ok {
        return Err(format!(
            "{who}'s ball on {pos} cannot be {status:?} with target {target}"
        ));
    }
    Ok(Ball {
        pos,
        target,
        status,
        need,
        missed_once,
    })
}

impl Croquet {
    /// Reads a position string, checking each part.
    pub fn from_position(text: &str) -> Result<Croquet, String> {
        let f: Vec<&str> = text.split_whitespace().collect();
        if f.len() != 5 {
            return Err(format!(
                "expected 5 fields (white black side bar runs), found {}",
                f.len()
            ));
        }
        let balls = [read_ball(f[0], "White")?, read_ball(f[1], "Black")?];
        let (side, outcome) = match f[2] {
            "w" => (Seat::WHITE, None),
            "b" => (Seat::BLACK, None),
            s => return Err(format!("side `{s}` is not w or b")),
        };
        let bar = match f[3] {
            "-" => 0,
            b => match b.parse::<u8>() {
                Ok(n) if (1..=8).contains(&n) => n,
                _ => return Err(format!("bar `{b}` is not 1–8 or -")),
            },
        };
        let runs: Vec<u8> = f[4]
            .split(',')
            .map(|r| r.parse::<u8>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("runs `{}` are not two numbers such as 0,3", f[4]))?;
        let [a, b] = runs[..] else {
            return Err(format!("runs `{}` are not two numbers such as 0,3", f[4]));
        };
        if a > 8 || b > 8 {
            return Err(format!("runs `{}` must be 0–8", f[4]));
        }
        let game = Croquet {
            balls,
            side,
            bar,
            run: [a, b],
            outcome,
        };
        if game.legal_steps().is_empty() {
            return Err("the side to move has no legal step: he would have passed".into());
        }
        Ok(game)
    }
}
