//! The words of the clocks' commands: `notify …` (how and when a player is reminded),
//! `vacation …` and `games [player]` (the dashboard).

use crate::kernel::clock::control::LONGEST;
use crate::kernel::clock::quiet::Quiet;
use crate::kernel::clock::{duration, parse_duration};
use crate::kernel::text::excerpt;
use crate::players::profile::Mode;

/// A command of the clocks.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ClockCommand {
    /// How and when the player is reminded: the settings to change, in order (none: show
    /// them).
    Notify(Vec<NotifyCommand>),
    /// The player's vacation.
    Vacation(VacationCommand),
    /// The live and finished games of a player (`games [name]`).
    Games(Option<String>),
}

impl ClockCommand {
    /// The command's name, as logs and metrics label it.
    pub fn name(&self) -> &'static str {
        match self {
            ClockCommand::Notify(_) => "notify",
            ClockCommand::Vacation(_) => "vacation",
            ClockCommand::Games(_) => "games",
        }
    }
}

/// One setting `notify` changes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotifyCommand {
    /// Where reminders go.
    Mode(Mode),
    /// Remind at these times left, largest first (empty: no reminders).
    Remind(Vec<u64>),
    /// Remind at the default times.
    RemindDefault,
    /// Quiet hours (`None`: none).
    Quiet(Option<Quiet>),
    /// For linked accounts: the platform every reminder goes to (`None`: each game's own).
    Route(Option<String>),
}

/// What `vacation` asks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VacationCommand {
    /// How much is left, and whether one is running.
    Show,
    /// Start one, for this long (seconds) or for the whole allowance left.
    Start(Option<u64>),
    /// End the running one.
    End,
}

/// Words that begin a setting of `notify`.
const NOTIFY_WORDS: [&str; 8] = [
    "on",
    "mention",
    "mentions",
    "dm",
    "direct",
    "remind",
    "reminders",
    "quiet",
];

/// `notify`, with any number of settings in one command (`notify dm remind 12h 2h quiet
/// 22:00-07:00 Europe/Berlin`); none of them applies unless all can be read.
pub fn parse_notify(args: &[&str]) -> Result<ClockCommand, String> {
    let usage = "say `notify` (your settings), `notify mention|dm|off`, `notify remind 24h 1h` (or `off`, \
                 `default`), `notify quiet 22:00-07:00 Europe/Berlin` (or `off`), or, with linked \
                 accounts, `notify on <platform>` (or `on each`); several at once are fine";
    let mut changes = Vec::new();
    let mut rest = args;
    while let Some((first, after)) = rest.split_first() {
        // A setting's values run to the next setting's word.
        let end = after
            .iter()
            .position(|w| NOTIFY_WORDS.contains(&w.to_ascii_lowercase().as_str()))
            .unwrap_or(after.len());
        let (values, next) = after.split_at(end);
        let change = match first.to_ascii_lowercase().as_str() {
            "mention" | "mentions" if values.is_empty() => NotifyCommand::Mode(Mode::Mention),
            "dm" | "direct" if values.is_empty() => NotifyCommand::Mode(Mode::Dm),
            "off" | "none" if values.is_empty() => NotifyCommand::Mode(Mode::Off),
            "remind" | "reminders" => remind(values, usage)?,
            "on" => match values {
                [w] if ["each", "own", "both", "all"]
                    .contains(&w.to_ascii_lowercase().as_str()) =>
                {
                    NotifyCommand::Route(None)
                }
                [w] => NotifyCommand::Route(Some(w.to_ascii_lowercase())),
                _ => {
                    return Err(format!(
                        "`notify on` takes one platform of your linked accounts (`notify on <platform>`), or `each`; {usage}"
                    ));
                }
            },
            "quiet" => match values {
                [w] if w.eq_ignore_ascii_case("off") || w.eq_ignore_ascii_case("none") => {
                    NotifyCommand::Quiet(None)
                }
                [hours] => NotifyCommand::Quiet(Some(Quiet::parse(hours, None)?)),
                [hours, zone] => NotifyCommand::Quiet(Some(Quiet::parse(hours, Some(zone))?)),
                _ => {
                    return Err(format!(
                        "`notify quiet` takes the hours and a time zone; {usage}"
                    ));
                }
            },
            other => return Err(format!("`notify {}`: {usage}", excerpt(other, 24))),
        };
        changes.push(change);
        rest = next;
    }
    Ok(ClockCommand::Notify(changes))
}

/// The values of `notify remind`.
fn remind(values: &[&str], usage: &str) -> Result<NotifyCommand, String> {
    Ok(match values {
        [] => {
            return Err(format!(
                "`notify remind` needs the times left to remind you at, such as `notify remind 24h 1h`; {usage}"
            ));
        }
        [w] if w.eq_ignore_ascii_case("off") => NotifyCommand::Remind(Vec::new()),
        [w] if w.eq_ignore_ascii_case("default") => NotifyCommand::RemindDefault,
        points => {
            if points.len() > 5 {
                return Err("at most five reminder points, such as `notify remind 24h 1h`".into());
            }
            let mut seconds = Vec::new();
            for p in points {
                let s = parse_duration(p)?;
                if s == 0 || s >= LONGEST {
                    return Err(format!(
                        "a reminder point must be more than 0s and less than {} (the longest clock); `{}` is not",
                        duration(LONGEST),
                        excerpt(p, 24)
                    ));
                }
                seconds.push(s);
            }
            seconds.sort_unstable_by(|a, b| b.cmp(a));
            seconds.dedup();
            NotifyCommand::Remind(seconds)
        }
    })
}

pub fn parse_vacation(args: &[&str]) -> Result<ClockCommand, String> {
    let usage = "say `vacation` (what is left), `vacation start [days]` or `vacation end`";
    let what = match args {
        [] => VacationCommand::Show,
        [w] if w.eq_ignore_ascii_case("end") || w.eq_ignore_ascii_case("stop") => {
            VacationCommand::End
        }
        [w] if w.eq_ignore_ascii_case("start") => VacationCommand::Start(None),
        [w, days] if w.eq_ignore_ascii_case("start") => {
            let seconds = match days.parse::<u64>() {
                Ok(n) => n.checked_mul(86_400),
                Err(_) => parse_duration(days).ok(),
            }
            .filter(|s| *s >= 3_600)
            .ok_or_else(|| {
                format!(
                    "`vacation start {}`: say how many days, such as `vacation start 7` (at least an hour, as `1h`)",
                    excerpt(days, 24)
                )
            })?;
            VacationCommand::Start(Some(seconds))
        }
        _ => return Err(usage.into()),
    };
    Ok(ClockCommand::Vacation(what))
}
