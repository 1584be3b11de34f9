//! Lanko's one-line position string and the machine interface's `state`.
//!
//! The position string is `<rows> <seat to move> <declared seats or -> <passes in a row>`: the
//! rows from north to south joined by `/`, each the characters of its squares in play from west
//! to east (`.` empty, `B S P` White's big castle, small castle and pawn, `b s p` Black's).
//! For example the start of Lanko-68 is
//! `PSBP/P..P/....../pp......pp/b........s/…/PBSP s - 0`.

use std::collections::HashMap;

use serde_json::json;

use super::board::{Piece, Role, Sq, can_stand};
use super::{Lanko, TABLE, Variant};
use crate::seat::Seat;

/// The position string.
pub fn write(game: &Lanko) -> String {
    let board = game.board();
    let rows: Vec<String> = (0..board.rows)
        .map(|r| {
            (0..board.cols)
                .filter_map(|c| board.cell(r, c))
                .filter(|sq| board.info(*sq).role != Role::Unused)
                .map(|sq| game.cells[sq as usize].map_or('.', Piece::to_char))
                .collect()
        })
        .collect();
    let declared: String = (0..4)
        .filter(|i| game.declared[*i])
        .map(|i| TABLE.seats[i])
        .collect();
    format!(
        "{} {} {} {}",
        rows.join("/"),
        TABLE.seats[game.to_move.index()],
        if declared.is_empty() { "-" } else { &declared },
        game.passes
    )
}

/// Reads a position string for `variant`, checking every field; the errors say what is wrong.
/// The position is one in play: the game's end (K-8) is looked for after the next move.
pub fn read(variant: Variant, text: &str) -> Result<Lanko, String> {
    let board = variant.board();
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [rows, seat, declared, passes] = fields[..] else {
        return Err(
            "a Lanko position has four fields: rows, seat to move, declared seats (or -), passes"
                .into(),
        );
    };
    let rows: Vec<&str> = rows.split('/').collect();
    if rows.len() != board.rows as usize {
        return Err(format!(
            "{} has {} rows; the position gives {}",
            board.title,
            board.rows,
            rows.len()
        ));
    }
    let mut cells = vec![None; board.len()];
    for (r, row) in rows.iter().enumerate() {
        let squares: Vec<Sq> = (0..board.cols)
            .filter_map(|c| board.cell(r as u8, c))
            .filter(|sq| board.info(*sq).role != Role::Unused)
            .collect();
        let chars: Vec<char> = row.chars().collect();
        if chars.len() != squares.len() {
            return Err(format!(
                "row {} has {} squares; the position gives {}",
                r + 1,
                squares.len(),
                chars.len()
            ));
        }
        for (sq, ch) in squares.into_iter().zip(chars) {
            if ch == '.' {
                continue;
            }
            let p = Piece::from_char(ch)
                .ok_or_else(|| format!("`{ch}` in row {} is not a piece or .", r + 1))?;
            let info = board.info(sq);
            if !can_stand(board.layout, info.role, info.dark, p.kind) {
                return Err(format!(
                    "a {} cannot stand on {}",
                    p.kind.word(),
                    board.label(sq)
                ));
            }
            cells[sq as usize] = Some(p);
        }
    }
    let to_move = TABLE
        .seat_named(seat)
        .ok_or_else(|| format!("`{seat}` is not a seat (s, w, n, e)"))?;
    let mut decl = [false; 4];
    if declared != "-" {
        for ch in declared.chars() {
            let s = TABLE
                .seat_named(&ch.to_string())
                .ok_or_else(|| format!("`{ch}` in the declared seats is not a seat"))?;
            decl[s.index()] = true;
        }
    }
    let passes: u8 = passes
        .parse()
        .ok()
        .filter(|p| *p < 4)
        .ok_or("passes in a row is a number from 0 to 3")?;
    let mut game = Lanko {
        variant,
        cells,
        to_move,
        declared: decl,
        passes,
        seen: HashMap::new(),
        ended: None,
    };
    // The position is taken as one in play: the end (K-8) is checked after each move.
    game.remember();
    Ok(game)
}

/// The machine interface's `state` for Lanko (docs/rules/lanko.md).
pub fn state_json(game: &Lanko) -> serde_json::Value {
    let board = game.board();
    let rows: Vec<String> = (0..board.rows)
        .map(|r| {
            let row: String = (0..board.cols)
                .map(|c| match board.cell(r, c) {
                    None => ' ',
                    Some(sq) if board.info(sq).role == Role::Unused => '-',
                    Some(sq) => game.cells[sq as usize].map_or('.', Piece::to_char),
                })
                .collect();
            row
        })
        .collect();
    let [white, black] = game.score();
    let declared: Vec<&str> = (0..4)
        .filter(|i| game.declared[*i])
        .map(|i| TABLE.seats[i])
        .collect();
    json!({
        "board": rows,
        "score": {"white": white, "black": black},
        "declared": declared,
        "passes": game.passes,
        "ending": game.ending(),
    })
}

impl Lanko {
    /// A game set up from a position string (for fixtures and analysis).
    pub fn from_position(variant: Variant, text: &str) -> Result<Lanko, String> {
        read(variant, text)
    }

    /// The seat to move, even once the game is over (the seat that would move next).
    pub fn next_seat(&self) -> Seat {
        self.to_move
    }
}
