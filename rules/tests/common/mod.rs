//! Helpers shared by the rules' integration tests.
#![allow(dead_code)]

use muster_rules::lanrick::Lanrick;
use muster_rules::{Game, PlayError};

/// A small seeded generator (SplitMix64), so every random test is repeatable.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// Plays `text` for whoever is to move.
pub fn play(game: &mut Lanrick, text: &str) -> Result<(), PlayError> {
    let seat = game.to_move().ok_or(PlayError::GameOver)?;
    game.play_text(seat, text).map(|_| ())
}

/// Plays every line of a record, panicking with the line on failure.
pub fn play_all(game: &mut Lanrick, record: &str) {
    for line in record
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        if let Err(e) = play(game, line) {
            panic!("`{line}` refused in {}: {e}", game.position());
        }
    }
}

/// A position from its string, panicking with the reasons if it is invalid.
pub fn at(position: &str) -> Lanrick {
    Lanrick::from_position(position).unwrap_or_else(|e| panic!("{e}"))
}

/// The refusal of `text`, checking that the game is unchanged by it.
pub fn refused(game: &Lanrick, text: &str) -> String {
    let mut copy = game.clone();
    let err = play(&mut copy, text).expect_err(text);
    assert_eq!(&copy, game, "a refused move changed the game");
    err.to_string()
}

/// The canonical moves as text.
pub fn moves(game: &Lanrick) -> Vec<String> {
    game.legal_moves()
        .iter()
        .map(|m| game.format_move(m))
        .collect()
}

/// The rows part of a Lanko position string (north first, `/` between rows), each square's
/// character given by `piece`; light squares that play no part are left out, as the position
/// string does.
pub fn lanko_rows(
    variant: muster_rules::lanko::Variant,
    mut piece: impl FnMut(&muster_rules::lanko::SquareInfo) -> char,
) -> String {
    let board = variant.board();
    let rows: Vec<String> = (0..board.rows)
        .map(|r| {
            (0..board.cols)
                .filter_map(|c| board.cell(r, c))
                .map(|sq| board.info(sq))
                .filter(|info| info.role != muster_rules::lanko::Role::Unused)
                .map(&mut piece)
                .collect()
        })
        .collect();
    rows.join("/")
}
