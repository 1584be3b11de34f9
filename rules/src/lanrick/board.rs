//! The chess-board of Lanrick: squares, lines of squares, the border and the field (Rule 1).
//!
//! Sets of squares are 64-bit masks, bit `rank * 8 + file`, so a1 is bit 0 and h8 bit 63.

use std::fmt;
use std::str::FromStr;

/// A set of squares, one bit per square.
pub type Squares = u64;

/// One square of the board; a1 is bottom-left (White's side).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// The bottom-left corner.
    pub const A1: Square = Square(0);

    /// The square on `file` (0 = a) and `rank` (0 = 1).
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The square with index `rank * 8 + file`.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Index `rank * 8 + file` (a1 = 0, b1 = 1, …, h8 = 63).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 7 (h).
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// The rank, 0 (rank 1) to 7 (rank 8).
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// This square as a one-square set.
    pub const fn bit(self) -> Squares {
        1 << self.0
    }

    /// Whether the square is one of the 28 border squares (Rule 1).
    pub const fn is_border(self) -> bool {
        BORDER & self.bit() != 0
    }

    /// The square `steps` squares away in direction `dir`, if it is on the board.
    pub fn go(self, dir: Direction, steps: u8) -> Option<Square> {
        let (df, dr) = dir.delta();
        let f = self.file() as i16 + df as i16 * steps as i16;
        let r = self.rank() as i16 + dr as i16 * steps as i16;
        if (0..8).contains(&f) && (0..8).contains(&r) {
            Square::new(f as u8, r as u8)
        } else {
            None
        }
    }

    /// All 64 squares in index order (a1, b1, … h1, a2, … h8).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The corners of the 3×3 block around this square, as players name a rendezvous: `c3–e5`.
    pub fn block_name(self) -> String {
        let corner = |d: i8| {
            let f = (self.file() as i8 + d).clamp(0, 7) as u8;
            let r = (self.rank() as i8 + d).clamp(0, 7) as u8;
            Square::new(f, r).map(|s| s.to_string()).unwrap_or_default()
        };
        format!("{}–{}", corner(-1), corner(1))
    }

    /// The square and its eight neighbours (a rendezvous when the square is the mark).
    pub fn zone(self) -> Squares {
        let mut zone = self.bit();
        for dir in Direction::ALL {
            if let Some(n) = self.go(dir, 1) {
                zone |= n.bit();
            }
        }
        zone
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl FromStr for Square {
    type Err = ();

    /// Reads `a1`…`h8` (lower case, as the notation writes them).
    fn from_str(s: &str) -> Result<Square, ()> {
        match s.as_bytes() {
            &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Square::new(f - b'a', r - b'1').ok_or(()),
            _ => Err(()),
        }
    }
}

/// The 28 border squares (Rule 1).
pub const BORDER: Squares = 0xFF81_8181_8181_81FF;
/// The 36 field squares b2–g7 (Rule 1).
pub const FIELD: Squares = !BORDER;

/// The squares of a set, in index order.
pub fn squares(set: Squares) -> impl Iterator<Item = Square> {
    let mut rest = set;
    std::iter::from_fn(move || {
        if rest == 0 {
            None
        } else {
            let i = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            Some(Square(i))
        }
    })
}

/// One of the eight ways along a line of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    /// Up a file.
    N,
    /// Up and right.
    NE,
    /// Right along a rank.
    E,
    /// Down and right.
    SE,
    /// Down a file.
    S,
    /// Down and left.
    SW,
    /// Left along a rank.
    W,
    /// Up and left.
    NW,
}

/// A line of squares through a square, without its sense: a file, a rank or a diagonal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Axis {
    /// The man's file.
    File,
    /// The man's rank.
    Rank,
    /// The diagonal rising to the right.
    Diagonal,
    /// The diagonal falling to the right.
    AntiDiagonal,
}

impl Direction {
    /// All eight, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// (file, rank) change of one square.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::N => (0, 1),
            Direction::NE => (1, 1),
            Direction::E => (1, 0),
            Direction::SE => (1, -1),
            Direction::S => (0, -1),
            Direction::SW => (-1, -1),
            Direction::W => (-1, 0),
            Direction::NW => (-1, 1),
        }
    }

    /// The line this direction runs along.
    pub const fn axis(self) -> Axis {
        match self {
            Direction::N | Direction::S => Axis::File,
            Direction::E | Direction::W => Axis::Rank,
            Direction::NE | Direction::SW => Axis::Diagonal,
            Direction::SE | Direction::NW => Axis::AntiDiagonal,
        }
    }
}

impl Axis {
    /// The two directions along this line.
    pub const fn directions(self) -> [Direction; 2] {
        match self {
            Axis::File => [Direction::N, Direction::S],
            Axis::Rank => [Direction::E, Direction::W],
            Axis::Diagonal => [Direction::NE, Direction::SW],
            Axis::AntiDiagonal => [Direction::SE, Direction::NW],
        }
    }

    /// How a player would name the line through `sq`.
    pub fn describe(self, sq: Square) -> String {
        let file = (b'a' + sq.file()) as char;
        match self {
            Axis::File => format!("the {file}-file"),
            Axis::Rank => format!("rank {}", sq.rank() + 1),
            Axis::Diagonal | Axis::AntiDiagonal => format!("the {} diagonal through {sq}", {
                if self == Axis::Diagonal {
                    "rising"
                } else {
                    "falling"
                }
            }),
        }
    }
}

/// The direction and number of squares from `from` to `to`, if they share a line.
pub fn line_between(from: Square, to: Square) -> Option<(Direction, u8)> {
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    let unit = (df.signum(), dr.signum());
    let dir = Direction::ALL.into_iter().find(|d| d.delta() == unit)?;
    Some((dir, df.abs().max(dr.abs()) as u8))
}

/// The squares strictly between `from` and `from + n·dir`.
pub fn between(from: Square, dir: Direction, n: u8) -> Squares {
    (1..n)
        .filter_map(|k| from.go(dir, k))
        .fold(0, |acc, s| acc | s.bit())
}

/// Where the line from `from` in direction `dir` meets the border, and the squares before it.
/// For a field square this is the last square of the line on the board (L3-6).
pub fn border_end(from: Square, dir: Direction) -> Option<(Square, Squares)> {
    let mut path = 0;
    let mut k = 1;
    while let Some(sq) = from.go(dir, k) {
        if sq.is_border() {
            return Some((sq, path));
        }
        path |= sq.bit();
        k += 1;
    }
    None
}

/// The squares a man on `from` may be moved to when it must go to the border (L3-6): the
/// empty ends of its lines with a clear path; failing those, any empty end, passing over men;
/// failing those, any empty border square.
pub fn border_destinations(from: Square, occupied: Squares) -> Squares {
    let mut clear = 0;
    let mut ends = 0;
    for dir in Direction::ALL {
        if let Some((end, path)) = border_end(from, dir)
            && occupied & end.bit() == 0
        {
            ends |= end.bit();
            if occupied & path == 0 {
                clear |= end.bit();
            }
        }
    }
    if clear != 0 {
        clear
    } else if ends != 0 {
        ends
    } else {
        BORDER & !occupied
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn border_and_field_split_the_board_28_36() {
        // Rule 1, L3-1
        assert_eq!(BORDER.count_ones(), 28);
        assert_eq!(FIELD.count_ones(), 36);
        assert!(sq("a1").is_border() && sq("h5").is_border() && sq("d8").is_border());
        assert!(!sq("b2").is_border() && !sq("g7").is_border());
    }

    #[test]
    fn squares_read_and_print() {
        assert_eq!(sq("a1").index(), 0);
        assert_eq!(sq("h8").index(), 63);
        assert_eq!(sq("e5").to_string(), "e5");
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }

    #[test]
    fn lines_are_ranks_files_and_diagonals() {
        // Rule 2
        assert_eq!(line_between(sq("c1"), sq("c5")), Some((Direction::N, 4)));
        assert_eq!(line_between(sq("c1"), sq("f4")), Some((Direction::NE, 3)));
        assert_eq!(line_between(sq("h8"), sq("a1")), Some((Direction::SW, 7)));
        assert_eq!(line_between(sq("c1"), sq("d3")), None);
        assert_eq!(line_between(sq("c1"), sq("c1")), None);
        assert_eq!(
            between(sq("c1"), Direction::N, 3),
            sq("c2").bit() | sq("c3").bit()
        );
    }

    #[test]
    fn a_rendezvous_is_the_mark_and_its_eight_neighbours() {
        // L3-1
        assert_eq!(sq("d4").zone().count_ones(), 9);
        assert_eq!(
            sq("b2").zone() & BORDER,
            [sq("a1"), sq("a2"), sq("a3"), sq("b1"), sq("c1")]
                .iter()
                .fold(0, |a, s| a | s.bit())
        );
    }

    #[test]
    fn a_field_squares_lines_end_on_the_border() {
        // L3-6: the eight line ends of c3.
        let ends: Vec<String> = Direction::ALL
            .iter()
            .map(|d| border_end(sq("c3"), *d).unwrap().0.to_string())
            .collect();
        assert_eq!(ends, ["c8", "h8", "h3", "e1", "c1", "a1", "a3", "a5"]);
    }

    fn names(set: Squares) -> Vec<String> {
        squares(set).map(|s| s.to_string()).collect()
    }

    fn set(names: &[&str]) -> Squares {
        names.iter().fold(0, |acc, n| acc | sq(n).bit())
    }

    #[test]
    fn border_destinations_fall_back_as_l3_6_says() {
        // L3-6: the empty ends of clear lines...
        let from = sq("b2");
        assert_eq!(
            names(border_destinations(from, 0)),
            ["a1", "b1", "c1", "a2", "h2", "a3", "b8", "h8"]
        );
        // ...a man on d4 blocks the diagonal to h8, a man on a1 fills that end.
        assert_eq!(
            names(border_destinations(from, set(&["d4", "a1"]))),
            ["b1", "c1", "a2", "h2", "a3", "b8"]
        );
        // No clear line: any empty end, passing over men.
        let ring = sq("d4").zone() & !sq("d4").bit();
        assert_eq!(
            names(border_destinations(sq("d4"), ring)),
            ["a1", "d1", "g1", "a4", "h4", "a7", "d8", "h8"]
        );
        // No empty end: any empty border square.
        let ends = set(&["a1", "d1", "g1", "a4", "h4", "a7", "d8", "h8"]);
        assert_eq!(border_destinations(sq("d4"), ring | ends), BORDER & !ends);
    }
}
