//! Time controls, as players choose them with `clock …`: a time per move (`3d`), a bank with
//! an increment (`10d+1d`, `5m+3s`), or none. With `claim`, a seat whose time runs out does not
//! lose at once: its opponents may `claim` the win.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{duration, parse_duration};
use crate::text::excerpt;

/// The shortest time a control may give (per move, or a bank's start).
pub const SHORTEST: u64 = 30;
/// The longest time a control may give (per move, or a bank's start): 60 days.
pub const LONGEST: u64 = 60 * 86_400;

/// How a game's time is kept.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Control {
    /// Each move must be made within `per` seconds; the mover's clock is reset to the full time
    /// after each of his moves.
    PerMove {
        /// Seconds per move.
        per: u64,
        /// Whether a run-out clock waits for the opponent's `claim`.
        #[serde(default)]
        claim: bool,
    },
    /// A bank of `start` seconds, `increment` added after each move, never above `start`.
    Bank {
        /// The bank at the start, and its ceiling.
        start: u64,
        /// Seconds added after each move.
        increment: u64,
        /// Whether a run-out clock waits for the opponent's `claim`.
        #[serde(default)]
        claim: bool,
    },
}

impl Control {
    /// Reads a control as typed after `clock`: `3d`, `1d12h`, `10d+1d`, `5m+3s`. `none` (no
    /// clock) reads as `Ok(None)`.
    pub fn parse(text: &str) -> Result<Option<Control>, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("none") || text.eq_ignore_ascii_case("off") {
            return Ok(None);
        }
        let accepted = "write a time per move such as `clock 3d` or `clock 1d12h`, a bank and an increment \
                        such as `clock 10d+1d` or `clock 5m+3s`, or `clock none`";
        let bad = |why: String| format!("`clock {}`: {why}; {accepted}", excerpt(text, 24));
        let (base, increment) = match text.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (text, None),
        };
        let base = parse_duration(base).map_err(|_| bad("that is not a duration".into()))?;
        if base < SHORTEST {
            return Err(bad(format!(
                "the time must be at least {}",
                duration(SHORTEST)
            )));
        }
        if base > LONGEST {
            return Err(bad(format!(
                "the time may be at most {}",
                duration(LONGEST)
            )));
        }
        Ok(Some(match increment {
            None => Control::PerMove {
                per: base,
                claim: false,
            },
            Some(i) => {
                let increment =
                    parse_duration(i).map_err(|_| bad("the increment is not a duration".into()))?;
                if increment > base {
                    return Err(bad("the increment may not be more than the bank".into()));
                }
                Control::Bank {
                    start: base,
                    increment,
                    claim: false,
                }
            }
        }))
    }

    /// The same control, with or without waiting for a claim.
    pub fn with_claim(self, on: bool) -> Control {
        match self {
            Control::PerMove { per, .. } => Control::PerMove { per, claim: on },
            Control::Bank {
                start, increment, ..
            } => Control::Bank {
                start,
                increment,
                claim: on,
            },
        }
    }

    /// Whether a run-out clock waits for a claim.
    pub fn claim(&self) -> bool {
        match self {
            Control::PerMove { claim, .. } | Control::Bank { claim, .. } => *claim,
        }
    }

    /// The most time a seat can have: the time per move, or the bank's ceiling.
    pub fn full(&self) -> u64 {
        match self {
            Control::PerMove { per, .. } => *per,
            Control::Bank { start, .. } => *start,
        }
    }

    /// The control as typed (`3d`, `10d+1d`), without the claim.
    pub fn typed(&self) -> String {
        let compact = |s: u64| duration_compact(s);
        match self {
            Control::PerMove { per, .. } => compact(*per),
            Control::Bank {
                start, increment, ..
            } => format!("{}+{}", compact(*start), compact(*increment)),
        }
    }
}

/// A duration as it can be typed back (`1d12h`, `5m30s`, `0s`): every unit, no spaces.
pub fn duration_compact(mut seconds: u64) -> String {
    if seconds == 0 {
        return "0s".into();
    }
    let mut out = String::new();
    for (unit, size) in [('d', 86_400), ('h', 3_600), ('m', 60), ('s', 1)] {
        if seconds >= size {
            out.push_str(&format!("{}{unit}", seconds / size));
            seconds %= size;
        }
    }
    out
}

impl fmt::Display for Control {
    /// As players read it: `3d per move`, `10d + 1d per move`, with `(claim)` when it waits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Control::PerMove { per, .. } => write!(f, "{} per move", duration(*per))?,
            Control::Bank {
                start, increment, ..
            } => write!(
                f,
                "{} + {} per move",
                duration(*start),
                duration(*increment)
            )?,
        }
        if self.claim() {
            f.write_str(", timeouts claimed")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_read_as_typed() {
        assert_eq!(
            Control::parse("3d"),
            Ok(Some(Control::PerMove {
                per: 3 * 86_400,
                claim: false
            }))
        );
        assert_eq!(
            Control::parse("10d+1d"),
            Ok(Some(Control::Bank {
                start: 10 * 86_400,
                increment: 86_400,
                claim: false
            }))
        );
        assert_eq!(
            Control::parse("5m+3s"),
            Ok(Some(Control::Bank {
                start: 300,
                increment: 3,
                claim: false
            }))
        );
        assert_eq!(Control::parse("none"), Ok(None));
        assert_eq!(Control::parse("1d12h").unwrap().unwrap().typed(), "1d12h");
        assert_eq!(Control::parse("10d+1d").unwrap().unwrap().typed(), "10d+1d");
        assert_eq!(
            Control::parse("10d+1d").unwrap().unwrap().to_string(),
            "10d + 1d per move"
        );
    }

    #[test]
    fn malformed_controls_say_what_is_accepted() {
        for (bad, why) in [
            ("3x", "not a duration"),
            ("0d", "at least 30s"),
            ("400d", "at most 60d"),
            ("10s", "at least"),
            ("1d+2d", "not be more than the bank"),
            ("1d+x", "increment is not a duration"),
        ] {
            let err = Control::parse(bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
            assert!(err.contains("clock 10d+1d"), "{bad}: {err}");
        }
    }
}
