//! Who holds which seats. Most games give each player one seat; Lanko (K-1) seats two, three
//! or four players at its four seats: two players each hold both seats of a colour, three
//! players are a pair (S, N) against a solo player holding W and E.

use muster_rules::{AnyGame, Seat};

use crate::kernel::store::{GameRecord, SeatEntry};

/// The hands of a game for `players` players: each hand is the seats one player holds.
pub fn hands(game: &AnyGame, players: usize) -> Result<Vec<Vec<Seat>>, String> {
    let seats = game.table().len();
    let seat = |i: usize| Seat::new(i).expect("a seat");
    if seats != 4 {
        if players != seats {
            return Err(format!("{} is for {seats} players.", game.id().title()));
        }
        return Ok((0..seats).map(|i| vec![seat(i)]).collect());
    }
    // Seats in turn order: S, W, N, E.
    match players {
        2 => Ok(vec![vec![seat(0), seat(2)], vec![seat(1), seat(3)]]),
        3 => Ok(vec![vec![seat(0)], vec![seat(2)], vec![seat(1), seat(3)]]),
        4 => Ok((0..4).map(|i| vec![seat(i)]).collect()),
        _ => Err(format!(
            "{} is for 2, 3 or 4 players (you named {}).",
            game.id().title(),
            players
        )),
    }
}

/// The seat entries of a new game: the hands numbered, nobody seated yet.
pub fn empty_table(game: &AnyGame, hands: &[Vec<Seat>]) -> Vec<SeatEntry> {
    let mut seats = vec![SeatEntry::default(); game.table().len()];
    if hands.len() < seats.len() {
        for (h, hand) in hands.iter().enumerate() {
            for s in hand {
                seats[s.index()].hand = Some(h as u8);
            }
        }
    }
    seats
}

/// The seats held together with `seat` (itself included).
pub fn hand_of(record: &GameRecord, seat: usize) -> Vec<usize> {
    match record.seats.get(seat).and_then(|s| s.hand) {
        None => vec![seat],
        Some(h) => (0..record.seats.len())
            .filter(|i| record.seats[*i].hand == Some(h))
            .collect(),
    }
}

/// `S and N`, or `W`.
pub fn hand_title(game: &AnyGame, seats: &[usize]) -> String {
    seats
        .iter()
        .filter_map(|i| Seat::new(*i))
        .map(|s| super::words::seat_title(game, s))
        .collect::<Vec<_>>()
        .join(" and ")
}
