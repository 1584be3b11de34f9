//! The words of `tournament …`. Parsing knows no store: the event's name may be left out in
//! the event's own channel, so arguments that may be a name or something else (a player, a
//! round) are kept as typed and resolved by the core against the events that exist.

use muster_rules::GameId;

use super::System;
use crate::kernel::clock::control::Control;
use crate::kernel::text::excerpt;

/// What `tournament` asks.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Action {
    /// Open an event.
    New(NewEvent),
    /// The events of this community.
    List,
    /// Enter (optionally with a partner, in a pairs event).
    Join,
    /// Withdraw.
    Leave,
    /// Pair the first round.
    Start,
    /// The standings (or the bracket).
    Standings,
    /// A round's pairings (the current one unless a number is given).
    Pairings,
    /// The event as a file: JSON, or FIDE's Tournament Report File (`trf` after the name).
    Export,
    /// Enter someone else (organiser).
    Add,
    /// Withdraw someone (organiser).
    Kick,
    /// Adjudicate a board (organiser).
    Result,
    /// Stop pairing new rounds (organiser).
    Pause,
    /// Go on pairing (organiser).
    Resume,
    /// Call the event off (organiser).
    Cancel,
}

impl Action {
    /// The word that names the action.
    pub fn word(&self) -> &'static str {
        match self {
            Action::New(_) => "new",
            Action::List => "list",
            Action::Join => "join",
            Action::Leave => "leave",
            Action::Start => "start",
            Action::Standings => "standings",
            Action::Pairings => "pairings",
            Action::Export => "export",
            Action::Add => "add",
            Action::Kick => "kick",
            Action::Result => "result",
            Action::Pause => "pause",
            Action::Resume => "resume",
            Action::Cancel => "cancel",
        }
    }

    /// Whether only the event's organisers may ask it.
    pub fn organisers_only(&self) -> bool {
        matches!(
            self,
            Action::Start
                | Action::Add
                | Action::Kick
                | Action::Result
                | Action::Pause
                | Action::Resume
                | Action::Cancel
        )
    }
}

/// `tournament new …`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewEvent {
    /// The slug.
    pub name: String,
    /// The game.
    pub game: GameId,
    /// The system.
    pub system: System,
    /// Rounds asked for (Swiss).
    pub rounds: Option<usize>,
    /// The time control (`Some(None)`: untimed).
    pub clock: Option<Option<Control>>,
    /// Whether a run-out clock waits for a claim.
    pub claim: Option<bool>,
    /// Entrants are pairs (Lanko).
    pub pairs: bool,
}

/// A parsed `tournament` command: the action and its other words, as typed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TournamentCommand {
    /// What is asked.
    pub action: Action,
    /// The words after the action (for `new`, none).
    pub args: Vec<String>,
}

/// The subcommands, for help and completion.
pub const ACTIONS: [&str; 14] = [
    "new",
    "list",
    "join",
    "leave",
    "start",
    "standings",
    "pairings",
    "export",
    "add",
    "kick",
    "result",
    "pause",
    "resume",
    "cancel",
];

/// The formats of `tournament export`, the first the default.
pub const FORMATS: [&str; 2] = ["json", "trf"];

const USAGE: &str = "say `tournament new <name> <game> swiss|roundrobin|double|knockout`, or \
                     `tournament join|leave|start|standings|pairings|export [name]` \
                     (`export [name] trf`: FIDE's report file); `help tournament` lists them all";

/// Whether `name` is a valid event name: 2 to 24 lowercase letters, digits and hyphens,
/// beginning with a letter.
pub fn is_slug(name: &str) -> bool {
    (2..=24).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.ends_with('-')
}

/// Whether `word`, naming no event, is taken for a mistyped name rather than left for the
/// command: a possible name that is not an export's format (`tournament export trf`).
pub fn may_name(word: &str) -> bool {
    let word = word.to_ascii_lowercase();
    is_slug(&word) && !FORMATS.contains(&word.as_str())
}

/// Parses the words after `tournament`.
pub fn parse(args: &[&str]) -> Result<TournamentCommand, String> {
    let Some((word, rest)) = args.split_first() else {
        return Err(USAGE.into());
    };
    let rest: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
    let action = match word.to_ascii_lowercase().as_str() {
        "new" | "create" => {
            return Ok(TournamentCommand {
                action: Action::New(read_new_event(&rest)?),
                args: Vec::new(),
            });
        }
        "list" | "events" => Action::List,
        "join" | "enter" => Action::Join,
        "leave" | "withdraw" => Action::Leave,
        "start" => Action::Start,
        "standings" | "table" | "bracket" => Action::Standings,
        "pairings" | "round" => Action::Pairings,
        "export" => Action::Export,
        "add" => Action::Add,
        "kick" | "remove" => Action::Kick,
        "result" | "adjudicate" => Action::Result,
        "pause" => Action::Pause,
        "resume" => Action::Resume,
        "cancel" => Action::Cancel,
        other => {
            return Err(format!(
                "`tournament {}` is not a tournament command; {USAGE}",
                excerpt(other, 24)
            ));
        }
    };
    Ok(TournamentCommand { action, args: rest })
}

/// The words of `tournament new …` read into the event to open.
fn read_new_event(args: &[String]) -> Result<NewEvent, String> {
    let usage = "`tournament new <name> <game> swiss|roundrobin|double|knockout [rounds N] [clock 3d] \
                 [timeout claim|auto] [pairs]`, such as `tournament new spring lanrick swiss`";
    let [name, game, system, options @ ..] = args else {
        return Err(format!("say {usage}"));
    };
    let name = name.to_ascii_lowercase();
    if !is_slug(&name) {
        return Err(format!(
            "`{}` cannot be an event's name: use 2 to 24 lowercase letters, digits and hyphens, \
             beginning with a letter (such as `spring-2026`)",
            excerpt(&name, 30)
        ));
    }
    let game = game.parse::<GameId>().map_err(|e| e.to_string())?;
    let system = read_system(system)?;
    let mut event = NewEvent {
        name,
        game,
        system,
        rounds: None,
        clock: None,
        claim: None,
        pairs: false,
    };
    let mut it = options.iter();
    while let Some(word) = it.next() {
        read_option(&mut event, word, &mut it, usage)?;
    }
    Ok(event)
}

/// A tournament system by one of its names.
fn read_system(word: &str) -> Result<System, String> {
    Ok(match word.to_ascii_lowercase().as_str() {
        "swiss" => System::Swiss,
        "roundrobin" | "round-robin" | "rr" => System::RoundRobin,
        "double" | "doubleroundrobin" | "double-round-robin" => System::Double,
        "knockout" | "ko" | "cup" => System::Knockout,
        other => {
            return Err(format!(
                "`{}` is not a tournament system: say swiss, roundrobin, double or knockout",
                excerpt(other, 24)
            ));
        }
    })
}

/// One option of `tournament new` (`word`, and its value taken from `rest`) set in `event`.
fn read_option(
    event: &mut NewEvent,
    word: &str,
    rest: &mut std::slice::Iter<'_, String>,
    usage: &str,
) -> Result<(), String> {
    match word.to_ascii_lowercase().as_str() {
        "rounds" => {
            let n = rest
                .next()
                .ok_or("`rounds` needs a number, such as `rounds 5`")?;
            let n: usize = n
                .parse()
                .ok()
                .filter(|n| (1..=30).contains(n))
                .ok_or_else(|| {
                    format!("`rounds {}`: give a number from 1 to 30", excerpt(n, 12))
                })?;
            if event.system != System::Swiss {
                return Err(
                    "only a Swiss event takes a number of rounds: a round robin plays every \
                     pairing and a knockout plays until one is left"
                        .into(),
                );
            }
            event.rounds = Some(n);
        }
        "clock" => {
            let c = rest
                .next()
                .ok_or("`clock` needs a time, such as `clock 3d`")?;
            event.clock = Some(Control::parse(c)?);
        }
        "timeout" => {
            event.claim = Some(
                match rest.next().map(|s| s.to_ascii_lowercase()).as_deref() {
                    Some("claim" | "claimed") => true,
                    Some("auto" | "automatic") => false,
                    _ => return Err("say `timeout claim` or `timeout auto`".into()),
                },
            );
        }
        "pairs" | "teams" => {
            if !event.game.title().starts_with("Lanko") {
                return Err(format!(
                    "`pairs` is for Lanko events, where two players share a side; {} is \
                     played one against one",
                    event.game.title()
                ));
            }
            event.pairs = true;
        }
        other => {
            return Err(format!(
                "`{}` is not an option of `tournament new`; say {usage}",
                excerpt(other, 24)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn a_new_event_reads_its_options() {
        let c = parse(&words("new spring lanrick swiss rounds 4 clock 2d pairs"));
        assert!(c.unwrap_err().contains("Lanko"));
        let c = parse(&words(
            "new spring lanko88 knockout clock 2d timeout claim pairs",
        ))
        .unwrap();
        let Action::New(e) = c.action else {
            panic!("not new")
        };
        assert_eq!(e.system, System::Knockout);
        assert!(e.pairs);
        assert_eq!(e.claim, Some(true));
        assert!(e.clock.is_some_and(|c| c.is_some()));
    }

    #[test]
    fn bad_names_systems_and_rounds_are_refused_with_what_to_say() {
        for (text, says) in [
            ("new Spring! lanrick swiss", "cannot be an event's name"),
            ("new 2026 lanrick swiss", "beginning with a letter"),
            ("new spring lanrick league", "not a tournament system"),
            ("new spring chess swiss", "chess"),
            ("new spring lanrick swiss rounds 0", "from 1 to 30"),
            ("new spring lanrick knockout rounds 3", "only a Swiss event"),
            ("new spring lanrick swiss clock 3x", "3x"),
            ("new spring", "tournament new <name>"),
            ("sing", "not a tournament command"),
        ] {
            let e = parse(&words(text)).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn other_actions_keep_their_words() {
        let c = parse(&words("result spring 3 1/2-1/2")).unwrap();
        assert_eq!(c.action, Action::Result);
        assert_eq!(c.args, vec!["spring", "3", "1/2-1/2"]);
        assert!(Action::Kick.organisers_only() && !Action::Join.organisers_only());
        // The format is the word after the name (or alone, the name left out); the core reads it.
        for (text, args) in [
            ("export spring trf", vec!["spring", "trf"]),
            ("export trf", vec!["trf"]),
            ("export spring", vec!["spring"]),
        ] {
            let c = parse(&words(text)).unwrap();
            assert_eq!(c.action, Action::Export, "{text}");
            assert_eq!(c.args, args, "{text}");
        }
        // `trf` where no event is found is not taken for a mistyped name; `trfx` is.
        assert!(!may_name("trf") && !may_name("JSON") && may_name("trfx") && !may_name("3"));
    }
}
