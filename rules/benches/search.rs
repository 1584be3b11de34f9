//! The search (docs/ai.md): one decision of 1,000 iterations from a position in the middle of
//! a game of each searched game, reached by seeded random play, so that the figure is the cost
//! of an iteration (tree walk, widening, a playout — 40 choices in Lanrick, 6 moves in Lanko —
//! and its valuation); and the puzzles' proofs (`puzzle`). Figures go in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use muster_rules::search::{Budget, Rng, best_any, random_any};
use muster_rules::{AnyGame, GameId};
use std::hint::black_box;

/// The position after `plies` random decisions from the start (seeded).
fn middle(id: GameId, plies: usize) -> AnyGame {
    let mut game = AnyGame::new(id);
    let mut rng = Rng::new(7);
    for _ in 0..plies {
        let Some(seat) = game.to_move() else { break };
        let text = random_any(&game, rng.next_u64()).expect("a decision");
        game.play_text(seat, &text).expect("a legal decision");
    }
    assert!(game.to_move().is_some(), "the game goes on");
    game
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (id, plies) in [
        (GameId::Lanrick, 30),
        (GameId::Lanrick1880, 30),
        (GameId::Lanko88, 40),
    ] {
        let game = middle(id, plies);
        group.bench_function(format!("{id}: 1,000 iterations"), |b| {
            b.iter(|| best_any(black_box(&game), Budget::iterations(1_000), 1))
        });
    }
    group.finish();
}

/// Puzzles (docs/puzzles.md): proving a shipped puzzle again (every legal decision played and
/// measured), for the set's puzzle of each game with the most legal decisions, and judging one
/// answer.
fn puzzles(c: &mut Criterion) {
    use muster_rules::puzzle::{self, Entry};
    let set = puzzle::read_set(include_str!("../../bot/core/puzzles/set.txt")).expect("the set");
    let mut group = c.benchmark_group("puzzle");
    group.sample_size(10);
    for id in [
        GameId::Lanrick,
        GameId::Lanrick1880,
        GameId::Croquet,
        GameId::Lanko88,
    ] {
        let Some(entry): Option<&Entry> = set
            .iter()
            .filter(|e| e.game == id)
            .max_by_key(|e| e.decisions)
        else {
            continue;
        };
        let game = entry.position().expect("it replays");
        group.bench_function(format!("prove {id} ({} decisions)", entry.decisions), |b| {
            b.iter(|| puzzle::prove(black_box(&game), entry.theme).expect("proved"))
        });
        group.bench_function(format!("judge {id}"), |b| {
            b.iter(|| puzzle::gain(black_box(&game), entry.theme, &entry.answer))
        });
    }
    group.finish();
}

criterion_group!(benches, search, puzzles);
criterion_main!(benches);
