//! Lanrick benchmarks: distinct-turn generation from typical positions, legal marks, checking a
//! written turn, and random whole games per second. Figures go in docs/performance.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use muster_rules::lanrick::{Lanrick, Phase};
use muster_rules::{Game, Seat};
use std::hint::black_box;

/// Typical positions: the round's first turn, a later turn with men still on the border, and
/// the middle of a round with men spread over the field.
const POSITIONS: [(&str, &str); 5] = [
    (
        "opening budget 2",
        "W1W1W1WW/8/8/8/8/8/8/BB1B1B1B play b d4 0-0 2 -",
    ),
    (
        "border men budget 5",
        "W1W1W1WW/8/8/8/8/8/8/BB1B1B1B play b d4 0-0 - w",
    ),
    (
        "mid-round budget 5 (67,613 turns)",
        "8/2W5/3W4/1B2W3/2B2B2/3B1W2/2W5/B7 play w e5 0-0 - -",
    ),
    (
        "near the rendezvous budget 3",
        "W1W1W1WW/8/8/8/8/2BB4/4B3/8 play b d4 2-0 - w",
    ),
    (
        "four men budget 4",
        "8/8/8/8/8/8/WWW5/BB1W4 play w f6 3-1 - b",
    ),
];

fn turn_generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("lanrick/distinct turns");
    for (name, position) in POSITIONS {
        let game = Lanrick::from_position(position).expect("valid position");
        group.throughput(Throughput::Elements(game.legal_moves().len() as u64));
        group.bench_function(name, |b| b.iter(|| black_box(&game).legal_moves()));
    }
    group.finish();
}

fn marks_and_checks(c: &mut Criterion) {
    let setting =
        Lanrick::from_position("W1W1W1WW/8/8/8/8/8/8/BB1B1B1B mark w - 0-0 - -").expect("valid");
    c.bench_function("lanrick/legal marks", |b| {
        b.iter(|| black_box(&setting).legal_moves())
    });
    let play = Lanrick::from_position(POSITIONS[1].1).expect("valid");
    c.bench_function("lanrick/parse and play a written turn", |b| {
        b.iter(|| {
            let mut g = play.clone();
            g.play_text(Seat::BLACK, black_box("d1-d2 d2-d4 b1-b2 f1-f2"))
                .expect("legal")
        })
    });
}

/// Completion as a player types a move (chat autocomplete): the first step, then the steps
/// after one typed step, in the largest known position.
fn suggestions(c: &mut Criterion) {
    let game =
        muster_rules::AnyGame::Lanrick(Lanrick::from_position(POSITIONS[2].1).expect("valid"));
    let mut group = c.benchmark_group("lanrick/suggest (25 at most)");
    group.bench_function("nothing typed yet", |b| {
        b.iter(|| black_box(&game).suggest("", 25))
    });
    let first = game.suggest("", 1)[0].clone();
    let typed = format!("{first} ");
    group.bench_function("after one step", |b| {
        b.iter(|| black_box(&game).suggest(black_box(&typed), 25))
    });
    group.finish();
}

/// A small seeded generator, so every run plays the same games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A whole game of random decisions; play turns are drawn from the legal turns of the first
/// turn of each round and otherwise built from random one-square steps towards the mark.
fn random_game(seed: u64) -> usize {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut game = Lanrick::new();
    let mut decisions = 0;
    while let Some(seat) = game.to_move() {
        if decisions > 400 {
            break;
        }
        let text = if game.phase() == Phase::Play && !game.is_opening_turn() {
            let mark = game.mark().expect("a mark in play");
            let men: Vec<_> = muster_rules::lanrick::squares(game.men(seat)).collect();
            let mut best: Option<(u8, String)> = None;
            for _ in 0..12 {
                let from = men[rng.below(men.len())];
                let dir = muster_rules::lanrick::Direction::ALL[rng.below(8)];
                let Some(to) = from.go(dir, 1) else { continue };
                let d = to
                    .file()
                    .abs_diff(mark.file())
                    .max(to.rank().abs_diff(mark.rank()));
                if game.occupied() & to.bit() == 0 && best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                    best = Some((d, format!("{from}-{to}")));
                }
            }
            match best {
                Some((_, t)) => t,
                None => game.format_move(&game.legal_moves()[0]),
            }
        } else {
            let moves = game.legal_moves();
            game.format_move(&moves[rng.below(moves.len())])
        };
        game.play_text(seat, &text).expect("legal");
        decisions += 1;
    }
    decisions
}

fn whole_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("lanrick/random whole games");
    group.sample_size(20);
    group.throughput(Throughput::Elements(10));
    group.bench_function("10 games", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 10;
            (seed..seed + 10).map(random_game).sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    turn_generation,
    marks_and_checks,
    suggestions,
    whole_games
);
criterion_main!(benches);
