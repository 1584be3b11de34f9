//! The claims of Carroll's correspondents about the first version (March 1881), tested by
//! self-play (docs/analysis.md):
//!
//! 1. "The Player who both places the men and has the first move may always win." In the
//!    first version that player is White: he sets out all ten men and, since Black chooses the
//!    first rendezvous, moves first.
//! 2. "When the game comes near the end, it seems impossible to avoid its being won by the
//!    player who has the last turn to choose the rendezvous."
//!
//! Both sides play the same search. White's set-up is his own search's (`own`) or a uniformly
//! random one (`random`, for varied set-ups). Every round is recorded: who chose the rendezvous,
//! how many men each side had, who won it. One line per game goes to standard output
//! (`game <n> <white's score> <plies> <rounds>`, a round as `<chooser><white's men><black's
//! men><winner>` such as `b55w`, `=` for a drawn last round), the summary at the end.
//!
//! `cargo run --release -p muster-rules --example claims1880 -- it400 own 500 [seed]`

use muster_rules::lanrick1880::{Lanrick1880, Phase};
use muster_rules::search::Rng;
use muster_rules::search::self_play::{Player, Score};
use muster_rules::{AnyGame, Seat, Team};

/// One round: its chooser, the men each side had when it was chosen, its winner.
struct Round {
    chooser: Seat,
    men: [u32; 2],
    winner: Option<Seat>,
}

fn letter(seat: Seat) -> char {
    if seat == Seat::WHITE { 'w' } else { 'b' }
}

fn first_version(game: &AnyGame) -> &Lanrick1880 {
    match game {
        AnyGame::Lanrick1880(g) => g,
        _ => unreachable!("the first version is played"),
    }
}

/// Plays one game; returns White's score, the plies and the rounds.
fn play_one(player: Player, random_setup: bool, seed: u64) -> (f64, usize, Vec<Round>) {
    let mut rng = Rng::new(seed);
    let mut game = AnyGame::new(muster_rules::GameId::Lanrick1880);
    let mut rounds: Vec<Round> = Vec::new();
    let mut plies = 0;
    while let Some(seat) = game.to_move() {
        if plies >= 600 {
            break;
        }
        let g = first_version(&game);
        match g.phase() {
            Phase::Choose => rounds.push(Round {
                chooser: seat,
                men: [
                    g.men(Seat::WHITE).count_ones(),
                    g.men(Seat::BLACK).count_ones(),
                ],
                winner: None,
            }),
            Phase::Capture => {
                if let Some(round) = rounds.last_mut() {
                    round.winner.get_or_insert(seat);
                }
            }
            _ => {}
        }
        let who = if random_setup && g.phase() == Phase::Setup {
            Player::Random
        } else {
            player
        };
        let text = who.decide(&game, rng.next_u64()).expect("a decision");
        game.play_text(seat, &text).expect("a legal decision");
        plies += 1;
    }
    let score = game
        .outcome()
        .map_or(0.5, |o| o.result_for(Team::WHITE).score());
    (score, plies, rounds)
}

/// `hits` of `n`, with its 95 % interval, as percentages.
fn rate(hits: u32, n: u32) -> String {
    let s = Score::of(f64::from(hits), n);
    format!(
        "{hits}/{n} = {:.1} % ({:.1}–{:.1})",
        100.0 * s.mean,
        100.0 * s.low,
        100.0 * s.high
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: claims1880 <player> own|random [games] [seed]";
    let player = args.first().and_then(|w| Player::parse(w)).expect(usage);
    let random_setup = match args.get(1).map(String::as_str) {
        Some("own") => false,
        Some("random") => true,
        _ => panic!("{usage}"),
    };
    let games: u32 = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut rng = Rng::new(seed);
    let (mut white_points, mut white_first, mut decided_first) = (0.0, 0, 0);
    // Rounds by the men the chooser and the other had: rounds, won by the chooser.
    let mut by_men = [[(0u32, 0u32); 6]; 6];
    let (mut last_chooser_won, mut decided_games) = (0, 0);
    for n in 0..games {
        let (score, plies, rounds) = play_one(player, random_setup, rng.next_u64());
        white_points += score;
        if let Some(first) = rounds.first().and_then(|r| r.winner) {
            decided_first += 1;
            white_first += u32::from(first == Seat::WHITE);
        }
        for r in &rounds {
            let Some(winner) = r.winner else { continue };
            let (mine, theirs) = if r.chooser == Seat::WHITE {
                (r.men[0], r.men[1])
            } else {
                (r.men[1], r.men[0])
            };
            let cell = &mut by_men[mine as usize][theirs as usize];
            cell.0 += 1;
            cell.1 += u32::from(winner == r.chooser);
        }
        if score != 0.5
            && let Some(last) = rounds.last()
        {
            decided_games += 1;
            let white_won = score == 1.0;
            last_chooser_won += u32::from((last.chooser == Seat::WHITE) == white_won);
        }
        let text: Vec<String> = rounds
            .iter()
            .map(|r| {
                format!(
                    "{}{}{}{}",
                    letter(r.chooser),
                    r.men[0],
                    r.men[1],
                    r.winner.map_or('=', letter)
                )
            })
            .collect();
        println!("game {} {score} {plies} {}", n + 1, text.join(" "));
    }
    let s = Score::of(white_points, games);
    println!(
        "{} self-play, {} set-ups, {games} games",
        args[0],
        if random_setup {
            "random"
        } else {
            "White's own"
        }
    );
    println!(
        "White's score (sets the men, moves first): {:.3} (95 % {:.3}–{:.3})",
        s.mean, s.low, s.high
    );
    println!(
        "White wins the first rendezvous: {}",
        rate(white_first, decided_first)
    );
    println!(
        "the chooser of the last rendezvous wins the game: {}",
        rate(last_chooser_won, decided_games)
    );
    println!("the chooser wins the rendezvous, by his men and the other's:");
    for (mine, row) in by_men.iter().enumerate() {
        for (theirs, &(n, won)) in row.iter().enumerate() {
            if n > 0 {
                println!("  {mine} v {theirs}: {}", rate(won, n));
            }
        }
    }
}
