//! Exact counts of capture sequences (K-4, K-5, K-6) from crowded positions on each board, kept
//! in rules/tests/data/lanko-captures.txt as `<game> <count> <position>`. The positions are
//! made by a seeded generator (a few pieces of the side to move among many enemy pieces);
//! `MUSTER_BLESS=1` rewrites the file. The counts were confirmed by an independent
//! implementation of the rulings in docs/rules/lanko.md.

mod common;

use common::Rng;
use muster_rules::Game;
use muster_rules::lanko::{Lanko, LankoMove, Role, Variant};

fn crowded(variant: Variant, rng: &mut Rng) -> String {
    let rows = common::lanko_rows(variant, |info| match info.role {
        Role::Standby | Role::End => '.',
        Role::Middle if rng.chance(30) => 'B',
        Role::Middle => '.',
        _ if variant == Variant::L103 && !info.dark => '.',
        _ => match rng.below(100) {
            0..=44 => ['p', 's', 'p', 'b'][rng.below(4)],
            45..=52 => ['P', 'S', 'B'][rng.below(3)],
            _ => '.',
        },
    });
    format!("{rows} s - 0")
}

fn count(variant: Variant, position: &str) -> usize {
    let g = Lanko::from_position(variant, position).unwrap();
    let moves = g.legal_moves();
    moves
        .iter()
        .filter(|m| matches!(m, LankoMove::Capture(_)))
        .count()
}

#[test]
fn capture_sequence_counts_are_exact() {
    let path = "tests/data/lanko-captures.txt".to_string();
    if std::env::var_os("MUSTER_BLESS").is_some() {
        let mut out = String::from(
            "# Capture sequences of S from crowded positions: <game> <count> <position>\n",
        );
        for variant in Variant::ALL {
            let mut rng = Rng::new(variant as u64 + 11);
            let mut kept = 0;
            while kept < 8 {
                let pos = crowded(variant, &mut rng);
                let n = count(variant, &pos);
                if n >= 3 {
                    out.push_str(&format!("{} {n} {pos}\n", variant.id()));
                    kept += 1;
                }
            }
        }
        std::fs::write(&path, out).unwrap();
    }
    let data = std::fs::read_to_string(&path).unwrap();
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let mut parts = line.splitn(3, ' ');
        let id = parts.next().unwrap();
        let expected: usize = parts.next().unwrap().parse().unwrap();
        let position = parts.next().unwrap();
        let variant = Variant::ALL.into_iter().find(|v| v.id() == id).unwrap();
        assert_eq!(count(variant, position), expected, "{line}");
        checked += 1;
    }
    assert_eq!(checked, 24);
}
