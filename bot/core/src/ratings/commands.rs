//! `rating`, `leaderboard` and `ratings export`.

use muster_rules::{GameId, Seat};
use serde_json::{Value, json};

use super::maths::{self, System};
use super::scope::Scope;
use super::{Entry, Standing, entry, system_of, table};
use crate::kernel::board::{Board, Chart, ChartKind};
use crate::kernel::context::Context;
use crate::kernel::pages::Page;
use crate::kernel::reply::{LinkKind, Reply};
use crate::kernel::request::{Request, resolve_user};
use crate::kernel::text::excerpt;

/// What a ratings command asks.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RatingsCommand {
    /// A player's ratings (`None`: the asker's), in one game or all.
    Rating {
        /// Whose, as typed.
        player: Option<String>,
        /// Which game.
        game: Option<GameId>,
    },
    /// The top of a game's table.
    Leaderboard(GameId),
    /// The community's rated games and ratings as JSON.
    Export(Option<GameId>),
}

/// Parses `rating …`, `leaderboard …` and `ratings …` (`word` is the command word).
pub fn parse(word: &str, args: &[&str]) -> Result<RatingsCommand, String> {
    match word {
        "rating" => {
            let mut player = None;
            let mut game = None;
            for a in args {
                match a.parse::<GameId>() {
                    Ok(g) if game.is_none() => game = Some(g),
                    _ if player.is_none() => player = Some(a.trim_start_matches('@').to_string()),
                    _ => {
                        return Err(format!(
                            "`rating` takes a player and a game, such as `rating @bob lanrick`; `{}` is one word too many",
                            excerpt(a, 24)
                        ));
                    }
                }
            }
            Ok(RatingsCommand::Rating { player, game })
        }
        "leaderboard" | "top" => match args {
            [g] => Ok(RatingsCommand::Leaderboard(
                g.parse::<GameId>().map_err(|e| e.to_string())?,
            )),
            _ => Err("say which game: `leaderboard lanrick`".into()),
        },
        _ => {
            let args = match args {
                [first, rest @ ..] if first.eq_ignore_ascii_case("export") => rest,
                _ => args,
            };
            match args {
                [] => Ok(RatingsCommand::Export(None)),
                [g] => Ok(RatingsCommand::Export(Some(
                    g.parse::<GameId>().map_err(|e| e.to_string())?,
                ))),
                _ => Err("say `ratings export` (or `ratings export lanrick`)".into()),
            }
        }
    }
}

/// Runs a ratings command.
pub(crate) fn run(core: &Context, req: &Request, command: RatingsCommand) -> Vec<Reply> {
    match command {
        RatingsCommand::Rating { player, game } => rating(core, req, player, game),
        RatingsCommand::Leaderboard(game) => leaderboard(core, req, game),
        RatingsCommand::Export(game) => export(core, req, game),
    }
}

fn line(s: &Standing, system: System, now: u64) -> String {
    let r = s.now(system, now);
    let delta = match system {
        System::Glicko2 => format!("{:+}", s.last_change.round() as i64),
        System::WengLin => format!("{:+.1}", s.last_change),
    }
    .replace('-', "−");
    // Established ratings only: a newcomer's first wins are no best.
    let best = match (s.best_established, system) {
        (None, _) => "no best yet while provisional".to_string(),
        (Some(b), System::Glicko2) => format!("best {}", b.round() as i64),
        (Some(b), System::WengLin) => format!("best {b:.1}"),
    };
    let deviation = match system {
        System::Glicko2 => format!("deviation {}", r.deviation.round() as i64),
        System::WengLin => format!("uncertainty {:.1}", r.deviation),
    };
    format!(
        "{} ({deviation}), {} game{}, {best}, last change {delta}",
        r.shown(system),
        s.games,
        if s.games == 1 { "" } else { "s" }
    )
}

fn rating(
    core: &Context,
    req: &Request,
    player: Option<String>,
    game: Option<GameId>,
) -> Vec<Reply> {
    let who = match &player {
        Some(token) => resolve_user(req, token),
        None => req.user.clone(),
    };
    let store = core.base.as_ref();
    let scope = Scope::of_request(core, req);
    let key = scope.key(store, &req.platform, &who.id);
    let now = core.clock.now();
    let games: Vec<GameId> = game.map_or_else(|| GameId::ALL.to_vec(), |g| vec![g]);
    let mut lines = Vec::new();
    for g in games {
        let (t, _) = table(store, &scope, g.as_str());
        // In a community across platforms, a player of another platform is found by his name
        // (when one player of the table has it).
        let by_name = || {
            let mut named = t
                .players
                .values()
                .filter(|s| player.is_some() && s.name.eq_ignore_ascii_case(&who.name));
            match (named.next(), named.next()) {
                (Some(s), None) if scope.shared.is_some() => Some(s),
                _ => None,
            }
        };
        if let Some(s) = t.players.get(&key).or_else(by_name) {
            lines.push(format!("{}: {}", g.title(), line(s, system_of(g), now)));
        }
    }
    if lines.is_empty() {
        let what = game.map_or("any game".to_string(), |g| g.title().to_string());
        return vec![Reply::Private(format!(
            "{} has no rated game of {what} here yet: games between people are rated unless \
             started `casual` (see `help rating`).",
            who.name
        ))];
    }
    let mut out = vec![Reply::Text(format!(
        "{}'s ratings:\n{}",
        who.name,
        lines.join("\n")
    ))];
    let page = Page::Player {
        platform: req.platform.clone(),
        community: req.policy.community.clone(),
        channel: req.channel.clone(),
        user: who.id.clone(),
    };
    out.extend(link(core, req, &page, LinkKind::Player));
    out
}

/// The link to `page`, linked from `req`'s place.
fn link(core: &Context, req: &Request, page: &Page, kind: LinkKind) -> Option<Reply> {
    let place = (
        req.platform.as_str(),
        req.policy.community.as_str(),
        req.channel.as_str(),
    );
    let url = core.page_link(page, place)?;
    Some(Reply::Link { kind, url })
}

/// The table's players in order: established ones by rating, then the provisional ones.
fn ranked(
    core: &Context,
    req: &Request,
    game: GameId,
) -> Vec<(String, Standing, maths::Rating, bool)> {
    let system = system_of(game);
    let now = core.clock.now();
    let (t, _) = table(
        core.base.as_ref(),
        &Scope::of_request(core, req),
        game.as_str(),
    );
    let mut all: Vec<(String, Standing, maths::Rating, bool)> = t
        .players
        .into_iter()
        .map(|(id, s)| {
            let r = s.now(system, now);
            let p = r.provisional(system);
            (id, s, r, p)
        })
        .collect();
    all.sort_by(|a, b| {
        a.3.cmp(&b.3)
            .then(b.2.rating.total_cmp(&a.2.rating))
            .then(a.0.cmp(&b.0))
    });
    all
}

/// Under the leaderboard's image, which ranks established players only: provisional ratings are
/// not in its table, so it promises no mark for them.
const LEADERBOARD_FOOTER: &str = "Established ratings only; provisional ones are not ranked";

fn leaderboard(core: &Context, req: &Request, game: GameId) -> Vec<Reply> {
    let system = system_of(game);
    let all = ranked(core, req, game);
    let established: Vec<_> = all.iter().filter(|x| !x.3).collect();
    if all.is_empty() {
        return vec![Reply::Private(format!(
            "Nobody has a rated game of {} here yet.",
            game.title()
        ))];
    }
    let mut text = format!("Leaderboard of {}:\n", game.title());
    let mut rows = Vec::new();
    for (i, (_, s, r, _)) in established.iter().take(10).enumerate() {
        text.push_str(&format!(
            "{}. {} {} ({} games)\n",
            i + 1,
            s.name,
            r.shown(system),
            s.games
        ));
        rows.push(vec![
            (i + 1).to_string(),
            s.name.clone(),
            r.shown(system),
            s.games.to_string(),
        ]);
    }
    if established.is_empty() {
        text.push_str("(nobody is established yet: a rating is provisional, shown with ?, until enough games have been played)\n");
    }
    let me = Scope::of_request(core, req).key(core.base.as_ref(), &req.platform, &req.user.id);
    let mine = all.iter().position(|x| x.0 == me);
    match mine {
        Some(i) if all[i].3 => text.push_str(&format!(
            "You: {} — provisional, so not ranked yet.",
            all[i].2.shown(system)
        )),
        Some(i) => text.push_str(&format!(
            "You: {} of {}, {}.",
            ordinal(i + 1),
            established.len(),
            all[i].2.shown(system)
        )),
        None => text.push_str("You have no rated game of it here yet."),
    }
    let mut out = vec![Reply::Text(text.trim_end().to_string())];
    let page = Page::Leaders {
        platform: req.platform.clone(),
        community: req.policy.community.clone(),
        channel: req.channel.clone(),
        game: game.as_str().to_string(),
    };
    out.extend(link(core, req, &page, LinkKind::Leaders));
    if !rows.is_empty() {
        out.push(Reply::Board(Box::new(Board::chart(Chart {
            name: format!("leaderboard-{}.png", game.as_str()),
            alt: format!(
                "Leaderboard of {}: {}.",
                game.title(),
                rows.iter()
                    .map(|r| format!("{}. {} {}", r[0], r[1], r[2]))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            kind: ChartKind::Table {
                title: format!("{} · leaderboard", game.title()),
                columns: vec![
                    ("#".into(), true),
                    ("Name".into(), false),
                    ("Rating".into(), true),
                    ("Games".into(), true),
                ],
                rows,
                footer: Some(LEADERBOARD_FOOTER.into()),
            },
        }))));
    }
    out
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn rating_json(r: &maths::Rating) -> Value {
    json!({"rating": r.rating, "deviation": r.deviation, "volatility": r.volatility})
}

/// `ratings export`: the community's rated games and ratings, of one game or all, as a JSON
/// file (docs/ratings.md).
fn export(core: &Context, req: &Request, game: Option<GameId>) -> Vec<Reply> {
    let now = core.clock.now();
    let games: Vec<GameId> = game.map_or_else(|| GameId::ALL.to_vec(), |g| vec![g]);
    let (mut rated, players) = gathered(core, req, games, now);
    rated.sort_by(|a, b| a.ended.cmp(&b.ended).then(a.seq.cmp(&b.seq)));
    let games_json: Vec<Value> = rated.iter().map(rated_json).collect();
    let body = json!({
        "format": "muster-ratings",
        "version": 1,
        "exported": crate::kernel::clock::rfc3339(now),
        "glicko2": {
            "rating": maths::START,
            "deviation": maths::MAX_DEVIATION,
            "volatility": maths::VOLATILITY,
            "tau": maths::TAU,
            "periods_per_day": maths::PERIODS_PER_DAY,
            "max_deviation": maths::MAX_DEVIATION,
            "provisional_above": maths::PROVISIONAL_DEVIATION,
        },
        "weng_lin": {
            "rating": 25.0,
            "uncertainty": 25.0 / 3.0,
            "provisional_above": maths::PROVISIONAL_UNCERTAINTY,
        },
        "games": games_json,
        "players": players,
    });
    let name = match game {
        Some(g) => format!("ratings-{}.json", g.as_str()),
        None => "ratings.json".into(),
    };
    match serde_json::to_string_pretty(&body) {
        Ok(content) => vec![Reply::File { name, content }],
        Err(e) => vec![Reply::Private(format!(
            "The ratings could not be written: {e}"
        ))],
    }
}

/// The rated games of `games` in the request's community, and each of their players as the
/// export lists him, read table by table.
fn gathered(
    core: &Context,
    req: &Request,
    games: Vec<GameId>,
    now: u64,
) -> (Vec<Entry>, Vec<Value>) {
    let store = core.base.as_ref();
    let scope = Scope::of_request(core, req);
    let mut rated = Vec::new();
    let mut players = Vec::new();
    for g in games {
        let system = system_of(g);
        let (t, _) = table(store, &scope, g.as_str());
        for seq in 1..=t.seq {
            if let Some(e) = entry(store, &scope, g.as_str(), seq) {
                rated.push(e);
            }
        }
        for (id, s) in &t.players {
            players.push(player_json(g, system, id, s, now));
        }
    }
    (rated, players)
}

/// A player of game `g` in the export: his rating as last rated, and his deviation `now`.
fn player_json(g: GameId, system: System, id: &str, s: &Standing, now: u64) -> Value {
    let current = s.now(system, now);
    json!({
        "game": g.as_str(),
        "system": system,
        "id": id,
        "name": s.name,
        "rating": s.rating.rating,
        "deviation": s.rating.deviation,
        "volatility": s.rating.volatility,
        "deviation_now": current.deviation,
        "games": s.games,
        "best": s.best,
        "best_established": s.best_established,
        "last_played": crate::kernel::clock::rfc3339(s.last_at),
        "provisional": current.provisional(system),
    })
}

/// A rated game in the export, with each player's rating before and after it.
fn rated_json(e: &Entry) -> Value {
    let mut game = json!({
        "seq": e.seq,
        "game": e.game,
        "id": e.id,
        "ended": crate::kernel::clock::rfc3339(e.ended),
        "result": e.result,
        "players": e.players.iter().map(|p| json!({
            "id": p.id,
            "name": p.name,
            "side": side_shown(&e.game, &p.side),
            "before": rating_json(&p.before),
            "after": rating_json(&p.after),
        })).collect::<Vec<_>>(),
    });
    // A game whose sides became one player by linked accounts: kept, not counted.
    if e.void {
        game["void"] = Value::Bool(true);
    }
    game
}

/// A player's side as the export names it: `white` or `black`, as the log keeps it (the first
/// seat's side, the other); in a game of more than two seats (Lanko) the side's seats, `S+N` or
/// `W+E`, as a Lanko record's result names them.
fn side_shown(game: &str, side: &str) -> String {
    let Some(table) = game.parse::<GameId>().ok().map(GameId::table) else {
        return side.to_string();
    };
    if table.len() <= 2 {
        return side.to_string();
    }
    let first = table.team_of(Seat::WHITE);
    table.team_seats(if side == "white" {
        first
    } else {
        first.other()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanko_sides_are_named_by_their_seats_and_the_others_white_and_black() {
        assert_eq!(side_shown("lanko88", "white"), "S+N");
        assert_eq!(side_shown("lanko68", "black"), "W+E");
        assert_eq!(side_shown("lanrick", "black"), "black");
        assert_eq!(side_shown("croquet", "white"), "white");
    }

    #[test]
    fn the_leaderboard_footer_promises_no_mark_its_table_cannot_show() {
        // The table holds established players only, whose ratings are shown without `?`.
        assert!(!LEADERBOARD_FOOTER.contains('?'), "{LEADERBOARD_FOOTER}");
        assert!(LEADERBOARD_FOOTER.contains("not ranked"));
    }
}
