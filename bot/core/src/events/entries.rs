//! Who plays in an event: `tournament join` and the organiser's `add` (a player, or a pair),
//! `leave` and the organiser's `kick`; an entry from another platform of a community across
//! platforms (see [`Origin`]) is of that platform's players.

use super::command::is_slug;
use super::{Entrant, Event, State, System, change, play};
use crate::kernel::context::Context;
use crate::kernel::reply::Reply;
use crate::kernel::request::{Request, User};
use crate::kernel::store::Player;

type Replies = Vec<Reply>;

/// Where a command about an event of another platform came from (an event of a community
/// across platforms, named from that community's place on this platform): its platform and
/// channel.
pub(super) struct Origin {
    /// The platform.
    pub(super) platform: String,
    /// The channel there.
    pub(super) channel: String,
}

/// Whom the organiser's `tournament add` enters into the event `name`: a player, or a pair.
pub(super) fn added(
    core: &Context,
    req: &Request,
    event: &Event,
    name: &str,
    rest: &[String],
) -> Result<(User, Option<User>), String> {
    let p = &core.prefix;
    match rest {
        [] => Err(format!(
            "Say whom to enter: `{p}tournament add {name} @player`."
        )),
        [a] => Ok((resolve_user(req, a), None)),
        [a, b] if event.pairs => Ok((resolve_user(req, a), Some(resolve_user(req, b)))),
        _ => Err(format!(
            "`tournament add` takes one player{}.",
            if event.pairs { " (or a pair)" } else { "" }
        )),
    }
}

/// The user a word names, read as `new` reads its opponents (without the `@`).
pub(super) fn resolve_user(req: &Request, token: &str) -> User {
    crate::kernel::request::resolve_user(req, token.trim_start_matches('@'))
}

pub(super) fn partner(
    req: &Request,
    event: &Event,
    rest: &[String],
) -> Result<Option<User>, String> {
    match rest {
        [] => Ok(None),
        [who] if event.pairs => {
            let u = resolve_user(req, who);
            if u.id == req.user.id {
                return Err(
                    "Name your partner, or join alone to hold both seats of a side.".into(),
                );
            }
            Ok(Some(u))
        }
        [first, ..] if !event.pairs && is_slug(&first.to_ascii_lowercase()) => Err(format!(
            "There is no event named `{}`.",
            first.to_ascii_lowercase()
        )),
        _ => Err(format!(
            "`tournament join` takes the event's name{}.",
            if event.pairs { " and your partner" } else { "" }
        )),
    }
}

/// Enters `first` (with `second`, a pair) into the event: `join` or the organiser's `add`;
/// from another platform (`origin`), as players of that platform, the event then announced in
/// the channel there too.
pub(super) fn enter(
    core: &Context,
    req: &Request,
    event: &Event,
    (first, second): (User, Option<User>),
    (by_organiser, origin): (bool, Option<&Origin>),
) -> Result<Replies, String> {
    taking_entries(event, by_organiser)?;
    let mut players = vec![Player::from(&first)];
    players.extend(second.as_ref().map(Player::from));
    let now = core.clock.now();
    let (_, _) = change(
        core.base.as_ref(),
        &event.platform,
        &event.community,
        &event.name,
        |e| {
            admit(e, &players, &req.user.id, now)?;
            if let Some(o) = origin {
                if let Some(entrant) = e.entrants.last_mut() {
                    entrant.platform = Some(o.platform.clone());
                }
                if e.away.is_none() {
                    e.away = Some(super::EventAway {
                        platform: o.platform.clone(),
                        channel: o.channel.clone(),
                    });
                }
            }
            Ok(())
        },
    )?;
    let who = players
        .iter()
        .map(|p| p.name.clone())
        .collect::<Vec<_>>()
        .join(" & ");
    let count = super::reload(
        core.base.as_ref(),
        &event.platform,
        &event.community,
        &event.name,
    )
    .map_or(0, |e| e.entrants.len());
    let when = if event.state == State::Open {
        String::new()
    } else {
        " from the next round".to_string()
    };
    Ok(vec![Reply::Text(format!(
        "{who} {} entered in {}{when} ({count} entrant{}).",
        if players.len() > 1 { "are" } else { "is" },
        event.name,
        if count == 1 { "" } else { "s" }
    ))])
}

/// Refuses an entry once the event has started, but for an organiser's into a Swiss, which
/// counts from the next round.
fn taking_entries(event: &Event, by_organiser: bool) -> Result<(), String> {
    let late_swiss = event.system == System::Swiss && event.state != State::Open;
    if event.state != State::Open && !(late_swiss && by_organiser) {
        return Err(format!(
            "{} has started; entries are closed{}.",
            event.name,
            if event.system == System::Swiss {
                " (an organiser can still add a player to the next round with `tournament add`)"
            } else {
                ""
            }
        ));
    }
    Ok(())
}

/// Adds `players` (who entered at `now`) to the event `e` as one entrant, unless one of them
/// is entered already or withdrew (`asker`: the id of who asked, told of his own entry).
fn admit(e: &mut Event, players: &[Player], asker: &str, now: u64) -> Result<(), String> {
    for p in players {
        if let Some(i) = e.entrant_of(&p.id)
            && e.entrants[i].withdrawn_from.is_some()
        {
            return Err(format!(
                "{} withdrew from {} and cannot enter it again.",
                p.name, e.name
            ));
        }
        if let Some(i) = e.entrant_of(&p.id) {
            return Err(if p.id == asker {
                format!(
                    "You are already entered in {} (as {}).",
                    e.name,
                    e.entrants[i].name()
                )
            } else {
                format!("{} is already entered in {}.", p.name, e.name)
            });
        }
    }
    e.entrants.push(Entrant {
        players: players.to_vec(),
        joined: now,
        withdrawn_from: None,
        rating: None,
        platform: None,
    });
    Ok(())
}

/// Withdraws the entrant `user` plays for: before the start the entry is struck out; later he
/// is not paired again (his game under way is played out).
pub(super) fn withdraw(
    core: &Context,
    req: &Request,
    event: &Event,
    user: &str,
    by_organiser: bool,
) -> Result<Replies, String> {
    let (event, name) = change(
        core.base.as_ref(),
        &event.platform,
        &event.community,
        &event.name,
        |e| {
            let Some(i) = e
                .entrant_of(user)
                .filter(|i| e.entrants[*i].withdrawn_from.is_none())
            else {
                return Err(if by_organiser {
                    format!("That player is not entered in {}.", e.name)
                } else {
                    format!("You are not entered in {}.", e.name)
                });
            };
            let name = e.entrants[i].name();
            if e.state == State::Open {
                e.entrants.remove(i);
            } else {
                e.entrants[i].withdrawn_from = Some(e.played.len());
            }
            Ok(name)
        },
    )?;
    let by = if by_organiser {
        format!(" by {}", req.user.name)
    } else {
        String::new()
    };
    let tail = if event.state == State::Open {
        String::new()
    } else {
        " A game under way is played out; from the next round there are no more pairings for them."
            .to_string()
    };
    play::tend(core, &event.platform, &event.community, &event.name);
    Ok(vec![Reply::Text(format!(
        "{name} withdrawn from {}{by}.{tail}",
        event.name
    ))])
}
