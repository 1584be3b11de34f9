//! Seats and teams: who sits at the table, and who plays with whom.
//!
//! Every game of Muster has two to four seats. A seat is a place at the table (Lanrick's White
//! and Black, Lanko's S, W, N and E); a team is the side a seat plays for (Lanko's S and N play
//! White together). Results are given per team, and so per seat.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A place at the table, numbered from 0 in the game's turn order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(u8);

impl Seat {
    /// The most seats any game of Muster has.
    pub const MAX: usize = 4;
    /// Lanrick's and Croquet's first player.
    pub const WHITE: Seat = Seat(0);
    /// Lanrick's and Croquet's second player.
    pub const BLACK: Seat = Seat(1);

    /// The seat with this index, if it is below [`Seat::MAX`].
    pub const fn new(index: usize) -> Option<Seat> {
        if index < Seat::MAX {
            Some(Seat(index as u8))
        } else {
            None
        }
    }

    /// The seat's index in turn order.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// In a two-seat game (Lanrick, Croquet), the other seat.
    pub const fn opponent(self) -> Seat {
        Seat(1 - (self.0 & 1))
    }

    /// In a two-seat game, the seat's colour as a word: `White` or `Black`.
    pub const fn colour(self) -> &'static str {
        if self.0 == 0 { "White" } else { "Black" }
    }
}

/// A side that wins or loses together: one seat in two-seat games, a pair in Lanko.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Team(u8);

impl Team {
    /// The team that plays white (Lanrick's White; Lanko's S and N).
    pub const WHITE: Team = Team(0);
    /// The team that plays black.
    pub const BLACK: Team = Team(1);

    /// The team with this index (0 or 1).
    pub const fn new(index: usize) -> Option<Team> {
        if index < 2 {
            Some(Team(index as u8))
        } else {
            None
        }
    }

    /// The team's index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other team.
    pub const fn other(self) -> Team {
        Team(1 - self.0)
    }
}

/// One value per seat of a game with `N` seats, indexed by [`Seat`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BySeat<T, const N: usize>(pub [T; N]);

impl<T, const N: usize> BySeat<T, N> {
    /// Builds the values from a function of the seat.
    pub fn new_with(mut f: impl FnMut(Seat) -> T) -> Self {
        BySeat(std::array::from_fn(|i| f(Seat(i as u8))))
    }

    /// The value of `seat`. Panics if the seat is not one of the game's `N`.
    pub fn get(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }

    /// The value of `seat`, mutably.
    pub fn get_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }

    /// The same container with every value mapped.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> BySeat<U, N> {
        BySeat(self.0.map(f))
    }

    /// Seats with their values, in turn order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Seat(i as u8), v))
    }
}

/// The static facts about a game's table: its seats, their names and their teams.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    /// Seat names in turn order, as used in commands and the machine interface.
    pub seats: &'static [&'static str],
    /// The team of each seat.
    pub teams: &'static [Team],
    /// Team names, indexed by [`Team::index`].
    pub team_names: [&'static str; 2],
}

impl Table {
    /// Two players, each his own team: `white` and `black`.
    pub const TWO_PLAYERS: Table = Table {
        seats: &["white", "black"],
        teams: &[Team::WHITE, Team::BLACK],
        team_names: ["white", "black"],
    };

    /// How many seats the game has.
    pub fn len(&self) -> usize {
        self.seats.len()
    }

    /// Whether the table has no seats (never true for a real game).
    pub fn is_empty(&self) -> bool {
        self.seats.is_empty()
    }

    /// All seats, in turn order.
    pub fn all(&self) -> impl Iterator<Item = Seat> + use<> {
        (0..self.seats.len()).map(|i| Seat(i as u8))
    }

    /// The seat's name (`white`, `s`, …).
    pub fn seat_name(&self, seat: Seat) -> &'static str {
        self.seats.get(seat.index()).copied().unwrap_or("?")
    }

    /// The seat's name as a title: `White`, `Black`; Lanko's `S`, `W`, `N`, `E`.
    pub fn seat_title(&self, seat: Seat) -> String {
        let mut chars = self.seat_name(seat).chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    }

    /// The seat with this name, ignoring case.
    pub fn seat_named(&self, name: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.eq_ignore_ascii_case(name))
            .map(|i| Seat(i as u8))
    }

    /// The seat's team.
    pub fn team_of(&self, seat: Seat) -> Team {
        self.teams.get(seat.index()).copied().unwrap_or(Team::WHITE)
    }

    /// The team's seats by name, in turn order: `S+N`, `W+E` (a Lanko side, as its records
    /// give a result); `WHITE` for a team of one seat.
    pub fn team_seats(&self, team: Team) -> String {
        self.all()
            .filter(|s| self.team_of(*s) == team)
            .map(|s| self.seat_name(s).to_uppercase())
            .collect::<Vec<_>>()
            .join("+")
    }

    /// The team's name.
    pub fn team_name(&self, team: Team) -> &'static str {
        self.team_names[team.index()]
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AnyGame, GameId};

    #[test]
    fn seat_titles_are_the_names_capitalised() {
        let lanrick = AnyGame::new(GameId::Lanrick).table();
        assert_eq!(lanrick.seat_title(Seat::WHITE), "White");
        assert_eq!(lanrick.seat_title(Seat::BLACK), "Black");
        let lanko = AnyGame::new(GameId::Lanko88).table();
        let titles: Vec<String> = lanko.all().map(|s| lanko.seat_title(s)).collect();
        assert_eq!(titles, ["S", "W", "N", "E"]);
    }

    #[test]
    fn by_seat_indexes_and_maps() {
        let mut counts: BySeat<u8, 2> = BySeat::new_with(|s| s.index() as u8 * 10);
        *counts.get_mut(Seat::BLACK) += 1;
        assert_eq!(*counts.get(Seat::WHITE), 0);
        assert_eq!(*counts.get(Seat::BLACK), 11);
        assert_eq!(counts.map(|c| c * 2).0, [0, 22]);
    }

    #[test]
    fn each_kind_of_game_has_the_table_its_games_have_and_names_its_sides_by_their_seats() {
        for id in GameId::ALL {
            assert_eq!(id.table().seats, AnyGame::new(id).table().seats, "{id:?}");
        }
        let lanko = GameId::Lanko103.table();
        assert_eq!(lanko.team_seats(Team::WHITE), "S+N");
        assert_eq!(lanko.team_seats(Team::BLACK), "W+E");
        assert_eq!(GameId::Croquet.table().team_seats(Team::BLACK), "BLACK");
    }

    #[test]
    fn two_player_table_names_its_seats() {
        let t = Table::TWO_PLAYERS;
        assert_eq!(t.seat_named("Black"), Some(Seat::BLACK));
        assert_eq!(t.seat_named("s"), None);
        assert_eq!(t.team_name(t.team_of(Seat::WHITE)), "white");
        assert_eq!(t.all().count(), 2);
    }
}
