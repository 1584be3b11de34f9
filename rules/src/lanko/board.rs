//! A Lanko board, read from its data file (`rules/boards/<id>.board`).
//!
//! The drawings of the three boards are lost; the data files hold Muster's reconstruction, one
//! fact per layer, so that a player with the original drawings can correct a board by editing
//! its file. docs/rules/lanko.md explains the format and every choice made.

use std::collections::HashMap;
use std::fmt;

use crate::seat::Seat;

/// A square's index on its board (reading order of the cells that are squares).
pub type Sq = u8;

/// How pieces move on a board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Layout {
    /// Lanko-88 and Lanko-68: straight moves, diagonal pawn steps (K-3, K-4).
    Orthogonal,
    /// Lanko-103: diagonal moves on the dark squares (K-6).
    Diagonal,
}

/// What a square is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    /// A plain field square.
    Field,
    /// A square of the border strip on the W–E axis, common to S and N (K-2).
    StripWe,
    /// A square of the border strip on the N–S axis, common to W and E (K-2).
    StripNs,
    /// A middle square, where castles end (Lanko-88/68, K-5).
    Middle,
    /// A manoeuvre square, from which castles enter end squares (Lanko-103, K-6).
    Manoeuvre,
    /// An end square, where castles end (Lanko-103, K-6).
    End,
    /// A light square holding a seat's standby pawn (Lanko-103, K-6).
    Standby,
    /// A light square of Lanko-103 that plays no part.
    Unused,
}

impl Role {
    fn from_char(c: char) -> Option<Role> {
        Some(match c {
            '.' => Role::Field,
            '=' => Role::StripWe,
            '|' => Role::StripNs,
            'M' => Role::Middle,
            'X' => Role::Manoeuvre,
            'O' => Role::End,
            '#' => Role::Standby,
            '-' => Role::Unused,
            _ => return None,
        })
    }

    /// Whether a castle that reaches the square stays there and counts triple.
    pub fn is_goal(self) -> bool {
        matches!(self, Role::Middle | Role::End)
    }
}

/// The kinds of piece (the source's □ △ ○).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A big castle: 12 points, 36 on a middle or end square.
    Big,
    /// A small castle: 6 points, 18 on a middle or end square.
    Small,
    /// A pawn: 2 points.
    Pawn,
}

impl Kind {
    /// Whether the piece is a castle.
    pub fn is_castle(self) -> bool {
        self != Kind::Pawn
    }

    /// The piece's value in points (K-9), tripled on a middle or end square.
    pub fn points(self, on_goal: bool) -> u32 {
        let base = match self {
            Kind::Big => 12,
            Kind::Small => 6,
            Kind::Pawn => 2,
        };
        if on_goal && self.is_castle() {
            base * 3
        } else {
            base
        }
    }

    /// The word for the piece.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Big => "big castle",
            Kind::Small => "small castle",
            Kind::Pawn => "pawn",
        }
    }
}

/// A piece: its colour (White for S and N, Black for W and E) and kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize)]
pub struct Piece {
    /// Whether the piece is White's.
    pub white: bool,
    /// Its kind.
    pub kind: Kind,
}

impl Piece {
    /// The character for the piece in the board files and the machine interface:
    /// `B S P` for White, `b s p` for Black.
    pub fn to_char(self) -> char {
        let c = match self.kind {
            Kind::Big => 'B',
            Kind::Small => 'S',
            Kind::Pawn => 'P',
        };
        if self.white {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }

    /// The piece for a character, if it is one.
    pub fn from_char(c: char) -> Option<Piece> {
        let kind = match c.to_ascii_uppercase() {
            'B' => Kind::Big,
            'S' => Kind::Small,
            'P' => Kind::Pawn,
            _ => return None,
        };
        Some(Piece {
            white: c.is_ascii_uppercase(),
            kind,
        })
    }

    /// The colour as a word.
    pub fn colour(self) -> &'static str {
        if self.white { "white" } else { "black" }
    }
}

/// One square of a board.
#[derive(Clone, Debug)]
pub struct SquareInfo {
    /// Its name in the notation.
    pub label: String,
    /// Row, from 0 at the north edge.
    pub row: u8,
    /// Column, from 0 at the west edge.
    pub col: u8,
    /// What it is for.
    pub role: Role,
    /// Whether it is drawn dark.
    pub dark: bool,
    /// The seats that may move a white piece standing here, as a bit per seat index.
    pub white_movers: u8,
    /// The seats that may move a black piece standing here.
    pub black_movers: u8,
}

/// Whether a piece of `kind` may stand on a square of this role and colour: castles only on
/// middle (end) squares, pawns only on standby squares, and on Lanko-103 only dark squares
/// otherwise.
pub fn can_stand(layout: Layout, role: Role, dark: bool, kind: Kind) -> bool {
    match role {
        Role::Unused => false,
        Role::Middle | Role::End => kind.is_castle(),
        Role::Standby => kind == Kind::Pawn,
        _ => layout == Layout::Orthogonal || dark,
    }
}

/// The eight directions, clockwise from north, as (row, column) steps.
pub const DIRS: [(i8, i8); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// Whether the seat plays White (S and N) rather than Black (W and E), K-1.
pub fn plays_white(seat: Seat) -> bool {
    seat.index().is_multiple_of(2)
}

/// The direction each seat calls forward (K-2): S north, W east, N south, E west.
pub fn forward(seat: Seat) -> usize {
    [0, 2, 4, 6][seat.index() & 3]
}

/// The direction `turn` eighths of a turn clockwise from `dir`.
pub fn turn(dir: usize, eighths: usize) -> usize {
    (dir + eighths) % 8
}

/// Whether a direction is diagonal.
pub fn is_diagonal(dir: usize) -> bool {
    dir % 2 == 1
}

/// A board: its squares, their neighbours, barriers and the start position.
#[derive(Clone, Debug)]
pub struct Board {
    /// The game id (`lanko88`).
    pub id: String,
    /// The board's title (`Lanko-88`).
    pub title: String,
    /// Rows of the grid.
    pub rows: u8,
    /// Columns of the grid.
    pub cols: u8,
    /// How pieces move.
    pub layout: Layout,
    /// The squares, in reading order.
    pub squares: Vec<SquareInfo>,
    /// The square at each grid cell.
    grid: Vec<Option<Sq>>,
    /// Each square's neighbour in each direction.
    neighbours: Vec<[Option<Sq>; 8]>,
    /// Per square, a bit per direction whose edge a barrier closes.
    blocked: Vec<u8>,
    /// The barriers, as pairs of squares.
    pub barriers: Vec<(Sq, Sq)>,
    /// The start position.
    pub start: Vec<Option<Piece>>,
    by_label: HashMap<String, Sq>,
}

/// A board file that cannot be used, with the line at fault.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BoardError {
    /// The 1-based line number (0 when the fault is not on one line).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "line {}: {}", self.line, self.reason)
        }
    }
}

impl std::error::Error for BoardError {}

fn err<T>(line: usize, reason: impl Into<String>) -> Result<T, BoardError> {
    Err(BoardError {
        line,
        reason: reason.into(),
    })
}

/// The layers a board file must have, in any order.
const LAYERS: [&str; 6] = ["squares", "colours", "labels", "white", "black", "start"];

/// A board file's lines sorted by what they are, each with its 1-based line number.
#[derive(Default)]
struct Sections<'t> {
    /// The header's `game`, `title`, `size` and `moves` lines, by key.
    keys: HashMap<&'t str, (usize, String)>,
    /// Each grid layer's rows, by layer.
    layers: HashMap<&'static str, Vec<(usize, String)>>,
    /// The lines of the `barriers` section.
    barriers: Vec<(usize, String)>,
}

/// A character layer's rows: each with its line number and one character a column.
type CharRows = Vec<(usize, Vec<char>)>;

/// The grid layers read cell by cell.
struct Grids {
    squares: CharRows,
    colours: CharRows,
    white: CharRows,
    black: CharRows,
    start: CharRows,
    /// The labels' rows: each with its line number and its words.
    labels: Vec<(usize, Vec<String>)>,
}

impl Board {
    /// Reads a board file.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let sections = Sections::read(text)?;
        let key = |k: &str| {
            sections.keys.get(k).cloned().ok_or_else(|| BoardError {
                line: 0,
                reason: format!("the `{k}` line is missing"),
            })
        };
        let (_, id) = key("game")?;
        let (_, title) = key("title")?;
        let (size_line, size) = key("size")?;
        let (rows, cols) = grid_size(size_line, &size)?;
        let (moves_line, moves) = key("moves")?;
        let layout = match moves.as_str() {
            "orthogonal" => Layout::Orthogonal,
            "diagonal" => Layout::Diagonal,
            _ => return err(moves_line, "`moves` is `orthogonal` or `diagonal`"),
        };
        let grids = sections.grids(rows, cols)?;
        let mut board = Board {
            id,
            title,
            rows,
            cols,
            layout,
            squares: Vec::new(),
            grid: vec![None; rows as usize * cols as usize],
            neighbours: Vec::new(),
            blocked: Vec::new(),
            barriers: Vec::new(),
            start: Vec::new(),
            by_label: HashMap::new(),
        };
        for r in 0..rows as usize {
            board.read_row(&grids, r)?;
        }
        let count = board.squares.len();
        board.neighbours = (0..count)
            .map(|s| {
                let info = &board.squares[s];
                std::array::from_fn(|d| {
                    board.at(
                        info.row as i32 + DIRS[d].0 as i32,
                        info.col as i32 + DIRS[d].1 as i32,
                    )
                })
            })
            .collect();
        board.blocked = vec![0; count];
        for (n, line) in sections.barriers {
            board.add_barrier(n, &line)?;
        }
        Ok(board)
    }

    /// Adds row `r` of the grid's squares, checking every layer's cell in it.
    #[allow(clippy::needless_range_loop)] // every layer is indexed by the same column
    fn read_row(&mut self, grids: &Grids, r: usize) -> Result<(), BoardError> {
        let cols = self.cols;
        let (n_labels, row_labels) = &grids.labels[r];
        if row_labels.len() != cols as usize {
            return err(
                *n_labels,
                format!(
                    "the row has {} labels; the board has {cols} columns (write - for none)",
                    row_labels.len()
                ),
            );
        }
        for c in 0..cols as usize {
            let (n, cell) = (grids.squares[r].0, grids.squares[r].1[c]);
            if cell == ' ' {
                no_square(grids, r, c)?;
                continue;
            }
            let Some(role) = Role::from_char(cell) else {
                return err(
                    n,
                    format!("`{cell}` is not a square character (. = | M X O # -)"),
                );
            };
            let dark = match grids.colours[r].1[c] {
                'd' => true,
                'l' => false,
                other => {
                    return err(
                        grids.colours[r].0,
                        format!("`{other}` is not a colour (d or l)"),
                    );
                }
            };
            let (white, black) = (&grids.white[r], &grids.black[r]);
            let white_movers = movers(white.1[c], 0, 2, white.0)?;
            let black_movers = movers(black.1[c], 1, 3, black.0)?;
            let label = row_labels[c].clone();
            self.check_label(*n_labels, c, &label, role)?;
            let sq = self.squares.len() as Sq;
            if role != Role::Unused {
                self.by_label.insert(label.clone(), sq);
            }
            let piece = start_piece(self.layout, &grids.start[r], c, role, dark, &label)?;
            self.grid[r * cols as usize + c] = Some(sq);
            self.start.push(piece);
            self.squares.push(SquareInfo {
                label,
                row: r as u8,
                col: c as u8,
                role,
                dark,
                white_movers,
                black_movers,
            });
        }
        Ok(())
    }

    /// Whether `label`, on line `n` in column `c`, may name a square of `role`: a playable
    /// square needs a label of its own, of capital letters and digits; one that plays no part
    /// has none.
    fn check_label(&self, n: usize, c: usize, label: &str, role: Role) -> Result<(), BoardError> {
        if role != Role::Unused {
            if label == "-" {
                return err(n, format!("the square in column {} needs a label", c + 1));
            }
            if !label.chars().all(|ch| ch.is_ascii_alphanumeric())
                || label.chars().any(|ch| ch.is_ascii_lowercase())
            {
                return err(
                    n,
                    format!("`{label}`: labels are capital letters and digits"),
                );
            }
            if self.by_label.contains_key(label) {
                return err(n, format!("the label `{label}` is used twice"));
            }
        } else if label != "-" {
            return err(n, format!("`{label}` labels a square that plays no part"));
        }
        Ok(())
    }

    /// Adds the barrier of line `n`, `line`: two labels of squares side by side.
    fn add_barrier(&mut self, n: usize, line: &str) -> Result<(), BoardError> {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [a, b] = parts[..] else {
            return err(n, "a barrier is two square labels");
        };
        let (Some(x), Some(y)) = (self.square(a), self.square(b)) else {
            return err(
                n,
                format!("`{line}`: both squares must be labels of this board"),
            );
        };
        let Some(d) = (0..8)
            .step_by(2)
            .find(|d| self.neighbours[x as usize][*d] == Some(y))
        else {
            return err(n, format!("`{a}` and `{b}` are not side by side"));
        };
        self.blocked[x as usize] |= 1 << d;
        self.blocked[y as usize] |= 1 << turn(d, 4);
        self.barriers.push((x, y));
        Ok(())
    }

    fn at(&self, r: i32, c: i32) -> Option<Sq> {
        if r < 0 || c < 0 || r >= self.rows as i32 || c >= self.cols as i32 {
            return None;
        }
        self.grid[r as usize * self.cols as usize + c as usize]
    }

    /// The square at a grid cell, if the cell is a square.
    pub fn cell(&self, row: u8, col: u8) -> Option<Sq> {
        self.at(row as i32, col as i32)
    }

    /// The square with this label.
    pub fn square(&self, label: &str) -> Option<Sq> {
        self.by_label.get(label).copied()
    }

    /// The square's facts.
    pub fn info(&self, sq: Sq) -> &SquareInfo {
        &self.squares[sq as usize]
    }

    /// The square's label.
    pub fn label(&self, sq: Sq) -> &str {
        &self.squares[sq as usize].label
    }

    /// The neighbour of `sq` in direction `dir`, if there is one (of any role).
    pub fn neighbour(&self, sq: Sq, dir: usize) -> Option<Sq> {
        self.neighbours[sq as usize][dir]
    }

    /// Whether a barrier closes the edge of `sq` in (straight) direction `dir`.
    pub fn barred(&self, sq: Sq, dir: usize) -> bool {
        self.blocked[sq as usize] & (1 << dir) != 0
    }

    /// Whether `seat` may move a piece of the given colour standing on `sq` (K-2).
    pub fn moves_from(&self, seat: Seat, white: bool, sq: Sq) -> bool {
        let info = &self.squares[sq as usize];
        let mask = if white {
            info.white_movers
        } else {
            info.black_movers
        };
        mask & (1 << seat.index()) != 0
    }

    /// The squares where castles end (middle or end squares).
    pub fn goals(&self) -> impl Iterator<Item = Sq> + '_ {
        (0..self.squares.len() as Sq).filter(|s| self.squares[*s as usize].role.is_goal())
    }

    /// How many squares the board has, counting unused light squares.
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// Whether the board has no squares (never for a real board).
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }
}

impl<'t> Sections<'t> {
    /// Sorts the lines of a board file: comments and blank lines left out, a section's name
    /// opening it, grid rows (`:`) and barriers going to the open section, the rest header keys.
    fn read(text: &'t str) -> Result<Sections<'t>, BoardError> {
        let mut out = Sections::default();
        let mut section: Option<&str> = None;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
                continue;
            }
            if let Some(row) = raw.strip_prefix(':') {
                let Some(s) = section.filter(|s| *s != "barriers") else {
                    return err(n, "a grid row (starting with ':') outside a grid section");
                };
                out.layers
                    .entry(s)
                    .or_default()
                    .push((n, row.strip_prefix(' ').unwrap_or(row).to_string()));
                continue;
            }
            let line = raw.trim();
            if let Some(s) = LAYERS.iter().find(|s| **s == line) {
                if out.layers.contains_key(s) {
                    return err(n, format!("the `{s}` section appears twice"));
                }
                out.layers.insert(s, Vec::new());
                section = Some(s);
                continue;
            }
            if line == "barriers" {
                section = Some("barriers");
                continue;
            }
            if section == Some("barriers") {
                out.barriers.push((n, line.to_string()));
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "game" | "title" | "size" | "moves" => {
                    out.keys.insert(key, (n, value.trim().to_string()));
                }
                _ => return err(n, format!("unknown line `{line}`")),
            }
        }
        Ok(out)
    }

    /// The grid layers, each checked to have the board's `rows`, and each character layer's
    /// rows at most `cols` cells (padded with blanks to `cols`).
    fn grids(&self, rows: u8, cols: u8) -> Result<Grids, BoardError> {
        for s in LAYERS {
            let got = self.layers.get(s).map_or(0, |v| v.len());
            if got != rows as usize {
                return err(
                    0,
                    format!("the `{s}` section has {got} rows; the board has {rows}"),
                );
            }
        }
        // Character layers: one character per cell, separated by single spaces.
        let chars = |s: &str| -> Result<CharRows, BoardError> {
            self.layers[s]
                .iter()
                .map(|(n, row)| {
                    let cells: Vec<char> = row.chars().step_by(2).collect();
                    if cells.len() > cols as usize {
                        return err(*n, format!("the row has more than {cols} cells"));
                    }
                    let mut cells = cells;
                    cells.resize(cols as usize, ' ');
                    Ok((*n, cells))
                })
                .collect()
        };
        Ok(Grids {
            squares: chars("squares")?,
            colours: chars("colours")?,
            white: chars("white")?,
            black: chars("black")?,
            start: chars("start")?,
            labels: self.layers["labels"]
                .iter()
                .map(|(n, row)| (*n, row.split_whitespace().map(str::to_string).collect()))
                .collect(),
        })
    }
}

/// The grid's rows and columns from the `size` line (line `n`): two numbers, 1 to 250 cells.
fn grid_size(n: usize, size: &str) -> Result<(u8, u8), BoardError> {
    let dims: Vec<u8> = size
        .split_whitespace()
        .map(|t| t.parse::<u8>())
        .collect::<Result<_, _>>()
        .map_err(|_| BoardError {
            line: n,
            reason: "`size` takes two numbers: rows and columns".into(),
        })?;
    let [rows, cols] = dims[..] else {
        return err(n, "`size` takes two numbers: rows and columns");
    };
    if rows == 0 || cols == 0 || rows as usize * cols as usize > 250 {
        return err(n, "the grid must have 1 to 250 cells");
    }
    Ok((rows, cols))
}

/// Whether the cell in row `r`, column `c`, which is no square, is blank in every other layer
/// and has no label.
fn no_square(grids: &Grids, r: usize, c: usize) -> Result<(), BoardError> {
    for (layer, name) in [
        (&grids.colours, "colours"),
        (&grids.white, "white"),
        (&grids.black, "black"),
        (&grids.start, "start"),
    ] {
        if layer[r].1[c] != ' ' {
            return err(
                layer[r].0,
                format!(
                    "the `{name}` layer has a character in column {} where there is no square",
                    c + 1
                ),
            );
        }
    }
    let (n_labels, labels) = &grids.labels[r];
    if labels[c] != "-" {
        return err(
            *n_labels,
            format!("`{}` labels a cell that is not a square", labels[c]),
        );
    }
    Ok(())
}

/// The seats that may move a piece of one colour from a square, as a bit per seat index, by
/// its character `ch` in that colour's layer (line `line`): seat `a`'s letter, seat `b`'s, or
/// `*` for both.
fn movers(ch: char, a: usize, b: usize, line: usize) -> Result<u8, BoardError> {
    let (x, y) = (Seat::new(a).unwrap(), Seat::new(b).unwrap());
    let names = ["s", "w", "n", "e"];
    match ch {
        '*' => Ok(1 << x.index() | 1 << y.index()),
        _ if ch.to_string() == names[a] => Ok(1 << x.index()),
        _ if ch.to_string() == names[b] => Ok(1 << y.index()),
        _ => err(
            line,
            format!("`{ch}` is not {}, {} or *", names[a], names[b]),
        ),
    }
}

/// The piece the start layer's `row` puts in column `c` on a square of `role` and colour
/// (`dark`) labelled `label`, if any: one that may stand there, and no castle on a goal.
fn start_piece(
    layout: Layout,
    row: &(usize, Vec<char>),
    c: usize,
    role: Role,
    dark: bool,
    label: &str,
) -> Result<Option<Piece>, BoardError> {
    let piece = match row.1[c] {
        '.' => None,
        ch => match Piece::from_char(ch) {
            Some(p) => Some(p),
            None => {
                return err(row.0, format!("`{ch}` is not a piece (B S P b s p) or ."));
            }
        },
    };
    if let Some(p) = piece {
        // Castles begin off the middle (end) squares.
        if role.is_goal() || !can_stand(layout, role, dark, p.kind) {
            return err(
                row.0,
                format!("a {} cannot start on `{label}`", p.kind.word()),
            );
        }
    }
    Ok(piece)
}
