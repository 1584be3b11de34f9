//! Pairs the next round of a Tournament Report File (TRF-16) with Muster's Dutch system, and
//! prints it as pairing engines do: the number of games, then one line a game (White's and
//! Black's pairing numbers), the bye as `N 0`.
//!
//!     cargo run -p muster-rules --example pair_trf -- FILE.trf

use muster_rules::tournament::{swiss, trf};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: pair_trf FILE.trf");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let report = trf::read(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {e:?}");
        std::process::exit(1);
    });
    match swiss::pair(&report.field) {
        Ok(paired) => {
            let round = paired.round;
            println!(
                "{}",
                round.pairings.len() + usize::from(round.rest.is_some())
            );
            for p in &round.pairings {
                println!("{} {}", p.white + 1, p.black + 1);
            }
            if let Some(r) = round.rest {
                println!("{} 0", r + 1);
            }
            if paired.colours_relaxed {
                eprintln!("the absolute colour criterion (C.3) was left out: no pairing keeps it");
            }
        }
        Err(e) => {
            eprintln!("no pairing: {e:?}");
            std::process::exit(1);
        }
    }
}
