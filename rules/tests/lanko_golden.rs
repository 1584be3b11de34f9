//! Golden transcripts: one whole game per board, played by a simple greedy player (points,
//! then castles towards the middle), kept in rules/tests/golden/lanko*-game.txt as a record
//! that `muster replay` reads, with the position after every move as a comment. The test
//! replays each record and compares every position and the end; `MUSTER_BLESS=1` rewrites them.

mod common;

use common::Rng;
use muster_rules::lanko::{Lanko, Variant};
use muster_rules::{Game, Seat};

fn progress(g: &Lanko, white: bool) -> i32 {
    let board = g.board();
    let goals: Vec<_> = board.goals().collect();
    let mut total = 0;
    for (sq, cell) in g.cells().iter().enumerate() {
        let Some(p) = cell else { continue };
        if p.white != white || !p.kind.is_castle() {
            continue;
        }
        let a = board.info(sq as u8);
        let d = goals
            .iter()
            .map(|t| {
                let b = board.info(*t);
                (a.row as i32 - b.row as i32).abs() + (a.col as i32 - b.col as i32).abs()
            })
            .min()
            .unwrap_or(0);
        total -= d;
    }
    total
}

fn value(g: &Lanko, seat: Seat) -> i32 {
    let white = muster_rules::lanko::plays_white(seat);
    let [w, b] = g.score();
    let diff = w as i32 - b as i32;
    let side = if white { diff } else { -diff };
    side * 4 + progress(g, white) - progress(g, !white)
}

fn greedy_game(variant: Variant, seed: u64) -> (Lanko, String) {
    let mut rng = Rng::new(seed);
    let mut g = Lanko::new(variant);
    let mut out = format!(
        "# Lanko golden game on {}: one move per line, the position after it as a comment.\n",
        variant.id()
    );
    while let Some(seat) = g.to_move() {
        let moves = g.legal_moves();
        let mut best = Vec::new();
        let mut best_value = i32::MIN;
        for mv in &moves {
            let mut trial = g.clone();
            trial.play(seat, mv).unwrap();
            let v = value(&trial, seat);
            if v > best_value {
                best_value = v;
                best.clear();
            }
            if v == best_value {
                best.push(mv.clone());
            }
        }
        let mv = best[rng.below(best.len())].clone();
        let text = g.format_move(&mv);
        g.play(seat, &mv).unwrap();
        out.push_str(&format!("{text}\n# {}\n", g.position()));
        if out.lines().count() > 2000 {
            break;
        }
    }
    if g.outcome().is_some() {
        out.push_str(&format!(
            "# ended: {:?}, score {:?}\n+++\n",
            g.ending().unwrap(),
            g.score()
        ));
    }
    (g, out)
}

fn check(variant: Variant, seed: u64) {
    let path = format!("tests/golden/{}-game.txt", variant.id());
    let (game, text) = greedy_game(variant, seed);
    if std::env::var_os("MUSTER_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let golden = std::fs::read_to_string(&path).expect("golden transcript (MUSTER_BLESS=1)");
    assert!(game.outcome().is_some(), "the golden game reaches its end");
    // Replay the record line by line and compare each position with its comment.
    let mut g = Lanko::new(variant);
    let mut lines = golden.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with('#') || line == "+++" {
            continue;
        }
        let seat = g.to_move().expect("the record goes on after the end");
        g.play_text(seat, line)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let expected = lines.next().and_then(|l| l.strip_prefix("# ")).unwrap();
        assert_eq!(g.position(), expected, "after {line}");
    }
    assert_eq!(g, game);
    assert_eq!(golden, text, "the greedy player still plays the same game");
}

#[test]
fn golden_game_lanko88() {
    check(Variant::L88, 88);
}

#[test]
fn golden_game_lanko68() {
    check(Variant::L68, 68);
}

#[test]
fn golden_game_lanko103() {
    check(Variant::L103, 103);
}
