//! The strength ladder (docs/ai.md): two players play `games` games of one game, each side
//! half of them, and the score, its 95 % interval and the Elo difference are printed, with the
//! time per decision. A player is `random` (a uniformly random legal decision), a level
//! (`easy`, `good`, `strong`, or a number of milliseconds) or `it<N>` (a search of N
//! iterations). Each game is printed on standard error as it ends.
//!
//! `cargo run --release -p muster-rules --example ladder -- lanrick good easy 100 [seed]`

use std::time::Duration;

use muster_rules::search::Rng;
use muster_rules::search::self_play::{Player, Score, play};
use muster_rules::{GameId, Team};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: ladder <game> <player> <player> [games] [seed]";
    let id: GameId = args.first().and_then(|g| g.parse().ok()).expect(usage);
    let player = |i: usize| args.get(i).and_then(|w| Player::parse(w)).expect(usage);
    let (a, b) = (player(1), player(2));
    let games: u32 = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(4).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut rng = Rng::new(seed);
    let (mut points, mut draws, mut stopped) = (0.0, 0, 0);
    let mut time = [(Duration::ZERO, 0u32); 2];
    let per = |t: (Duration, u32)| t.0.as_secs_f64() * 1000.0 / f64::from(t.1.max(1));
    for g in 0..games {
        // The first player takes White's side (or team) in even games.
        let a_team = if g % 2 == 0 { Team::WHITE } else { Team::BLACK };
        let (white, black) = if a_team == Team::WHITE {
            (a, b)
        } else {
            (b, a)
        };
        let played = play(id, white, black, rng.next_u64(), 600);
        let s = played.score(a_team);
        stopped += u32::from(played.outcome.is_none());
        draws += u32::from(s == 0.5);
        points += s;
        let (mine, theirs) = if a_team == Team::WHITE {
            (0, 1)
        } else {
            (1, 0)
        };
        for (into, from) in [(0, mine), (1, theirs)] {
            time[into].0 += played.thinking[from].0;
            time[into].1 += played.thinking[from].1;
        }
        eprintln!(
            "game {} {} plies: {s} for {}; ms a decision so far: {:.1} / {:.1}",
            g + 1,
            played.plies,
            args[1],
            per(time[0]),
            per(time[1])
        );
    }
    let s = Score::of(points, games);
    println!(
        "{id} {} vs {}: {games} games, score {:.3} (95 % {:.3}–{:.3}), {draws} drawn ({stopped} stopped at 600 plies), Elo {:+.0} ({:+.0} to {:+.0}); ms a decision: {:.1} / {:.1}",
        args[1],
        args[2],
        s.mean,
        s.low,
        s.high,
        Score::elo(s.mean),
        Score::elo(s.low),
        Score::elo(s.high),
        per(time[0]),
        per(time[1])
    );
}
