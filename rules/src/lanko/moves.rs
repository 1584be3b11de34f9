//! The moves of Lanko: steps, jumps and leaps, capture sequences, castles reaching the middle or
//! end squares, standby pawns and passes (K-2 … K-7).

use super::board::{Board, Kind, Layout, Piece, Role, Sq, forward, is_diagonal, plays_white, turn};
use crate::seat::Seat;

/// One decision of a Lanko seat.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum LankoMove {
    /// No legal move: the seat passes (K-7), written `---`.
    Pass,
    /// The seat declares it will not move its castles into the middle (end) squares (K-8),
    /// written `===`. It is not a move: the seat still moves afterwards.
    Declare,
    /// A piece moves to a neighbouring square, `a-b`.
    Step {
        /// Where it stood.
        from: Sq,
        /// Where it goes.
        to: Sq,
    },
    /// A jump (Lanko-88/68) or leap (Lanko-103) over a piece of the same colour, `a-b`.
    Jump {
        /// Where it stood.
        from: Sq,
        /// The piece jumped over.
        over: Sq,
        /// Where it lands.
        to: Sq,
    },
    /// A capture, by its start and landing squares, `a;b;c`.
    Capture(Vec<Sq>),
}

impl LankoMove {
    /// The square the move starts from, if it moves a piece.
    pub fn from(&self) -> Option<Sq> {
        match self {
            LankoMove::Step { from, .. } | LankoMove::Jump { from, .. } => Some(*from),
            LankoMove::Capture(path) => path.first().copied(),
            LankoMove::Pass | LankoMove::Declare => None,
        }
    }

    /// The square where the moving piece ends.
    pub fn to(&self) -> Option<Sq> {
        match self {
            LankoMove::Step { to, .. } | LankoMove::Jump { to, .. } => Some(*to),
            LankoMove::Capture(path) => path.last().copied(),
            LankoMove::Pass | LankoMove::Declare => None,
        }
    }
}

/// The cells of a position: the piece on each square.
pub type Cells = Vec<Option<Piece>>;

/// Whether the piece on `sq` is a castle fixed on a middle or end square.
pub fn fixed(board: &Board, cells: &Cells, sq: Sq) -> bool {
    board.info(sq).role.is_goal() && cells[sq as usize].is_some()
}

/// Whether `seat` may move the piece on `sq` at all (its colour, its side or common strip, not
/// fixed).
pub fn movable(board: &Board, cells: &Cells, seat: Seat, sq: Sq) -> bool {
    let Some(p) = cells[sq as usize] else {
        return false;
    };
    p.white == plays_white(seat)
        && board.moves_from(seat, p.white, sq)
        && !board.info(sq).role.is_goal()
}

/// Whether a square can hold a moving piece: on Lanko-103 only dark squares in play.
fn open_ground(board: &Board, sq: Sq) -> bool {
    let role = board.info(sq).role;
    match board.layout {
        Layout::Orthogonal => role != Role::Unused,
        Layout::Diagonal => board.info(sq).dark,
    }
}

/// The directions in which pieces capture: the four straight ones (K-4) or the four diagonal
/// ones (K-6).
fn capture_dirs(board: &Board) -> [usize; 4] {
    match board.layout {
        Layout::Orthogonal => [0, 2, 4, 6],
        Layout::Diagonal => [1, 3, 5, 7],
    }
}

/// The step from `sq` in `dir` to the next square, if no barrier closes it.
fn step(board: &Board, sq: Sq, dir: usize) -> Option<Sq> {
    if !is_diagonal(dir) && board.barred(sq, dir) {
        return None;
    }
    board.neighbour(sq, dir)
}

/// Every capture sequence `seat` can make, to the end (K-4, K-5, K-6): free choice among them,
/// each captured piece removed at once, and entering a middle square ends the sequence.
/// `declared` keeps castles out of the middle (end) squares.
pub fn captures(board: &Board, cells: &Cells, seat: Seat, declared: bool) -> Vec<Vec<Sq>> {
    let mut out = Vec::new();
    // One working copy: `extend` puts every piece it takes back before returning.
    let mut work = cells.clone();
    for from in 0..board.len() as Sq {
        if !movable(board, cells, seat, from) || board.info(from).role == Role::Standby {
            continue;
        }
        let piece = work[from as usize].take();
        let mut path = vec![from];
        extend(
            board,
            &mut work,
            piece.unwrap(),
            declared,
            &mut path,
            &mut out,
        );
        work[from as usize] = piece;
    }
    out
}

fn extend(
    board: &Board,
    cells: &mut Cells,
    piece: Piece,
    declared: bool,
    path: &mut Vec<Sq>,
    out: &mut Vec<Vec<Sq>>,
) {
    let at = *path.last().unwrap();
    let mut went_on = false;
    for dir in capture_dirs(board) {
        let Some(over) = step(board, at, dir) else {
            continue;
        };
        let Some(victim) = cells[over as usize] else {
            continue;
        };
        if victim.white == piece.white || fixed(board, cells, over) {
            continue;
        }
        let Some(land) = step(board, over, dir) else {
            continue;
        };
        if cells[land as usize].is_some() || !open_ground(board, land) {
            continue;
        }
        let goal = board.info(land).role.is_goal();
        if goal && declared && piece.kind.is_castle() {
            continue;
        }
        went_on = true;
        cells[over as usize] = None;
        path.push(land);
        if goal {
            out.push(path.clone());
        } else {
            extend(board, cells, piece, declared, path, out);
        }
        path.pop();
        cells[over as usize] = Some(victim);
    }
    if !went_on && path.len() > 1 {
        out.push(path.clone());
    }
}

/// The non-capturing moves `seat` can make: steps, jumps or leaps, castles entering end squares
/// and standby pawns coming into play.
pub fn quiet_moves(board: &Board, cells: &Cells, seat: Seat, declared: bool) -> Vec<LankoMove> {
    let mut out = Vec::new();
    let f = forward(seat);
    for from in 0..board.len() as Sq {
        if !movable(board, cells, seat, from) {
            continue;
        }
        let mover = Mover {
            board,
            cells,
            from,
            piece: cells[from as usize].unwrap(),
            f,
            declared,
        };
        match board.layout {
            Layout::Orthogonal => {
                mover.orthogonal_steps(&mut out);
                if mover.piece.kind == Kind::Pawn {
                    mover.orthogonal_jumps(&mut out);
                }
            }
            Layout::Diagonal => {
                if board.info(from).role == Role::Standby {
                    mover.standby_entries(&mut out);
                    continue;
                }
                mover.diagonal_steps_and_leaps(&mut out);
                mover.end_entries(&mut out);
            }
        }
    }
    out
}

/// A piece `seat` may move, whose quiet moves are being listed.
struct Mover<'a> {
    /// The board.
    board: &'a Board,
    /// The position.
    cells: &'a Cells,
    /// Where the piece stands.
    from: Sq,
    /// The piece.
    piece: Piece,
    /// The seat's forward direction.
    f: usize,
    /// Whether the seat has declared it will not move its castles in.
    declared: bool,
}

impl Mover<'_> {
    /// Whether `sq` is empty.
    fn empty(&self, sq: Sq) -> bool {
        self.cells[sq as usize].is_none()
    }

    /// Whether the piece may go to `to`: not a castle of a declared seat onto a goal square.
    fn castle_may_enter(&self, to: Sq) -> bool {
        let enters = |to: Sq| self.board.info(to).role.is_goal();
        !(self.declared && self.piece.kind.is_castle() && enters(to))
    }

    /// The steps on Lanko-88 and Lanko-68.
    fn orthogonal_steps(&self, out: &mut Vec<LankoMove>) {
        let (board, from, f) = (self.board, self.from, self.f);
        // K-3: pawn forward, left, right, forward-left, forward-right; castle forward,
        // left, right.
        let dirs: &[usize] = if self.piece.kind == Kind::Pawn {
            &[0, 6, 2, 7, 1]
        } else {
            &[0, 6, 2]
        };
        for &rel in dirs {
            if let Some(to) = step(board, from, turn(f, rel))
                && self.empty(to)
                && self.castle_may_enter(to)
            {
                out.push(LankoMove::Step { from, to });
            }
        }
    }

    /// A pawn's jumps on Lanko-88 and Lanko-68, forward, left or right over a pawn of its own
    /// colour.
    fn orthogonal_jumps(&self, out: &mut Vec<LankoMove>) {
        let (board, from) = (self.board, self.from);
        for rel in [0, 6, 2] {
            let dir = turn(self.f, rel);
            let Some(over) = step(board, from, dir) else {
                continue;
            };
            let Some(mid) = self.cells[over as usize] else {
                continue;
            };
            if mid.white != self.piece.white || mid.kind != Kind::Pawn {
                continue;
            }
            if let Some(to) = step(board, over, dir)
                && self.empty(to)
            {
                out.push(LankoMove::Jump { from, over, to });
            }
        }
    }

    /// A standby pawn's ways into play on Lanko-103.
    fn standby_entries(&self, out: &mut Vec<LankoMove>) {
        let (board, from) = (self.board, self.from);
        // K-6: the standby pawn comes onto an empty dark square in front or to the
        // side.
        for rel in [0, 6, 2] {
            if let Some(to) = board.neighbour(from, turn(self.f, rel))
                && self.empty(to)
                && open_ground(board, to)
            {
                out.push(LankoMove::Step { from, to });
            }
        }
    }

    /// The diagonal forward steps and leaps on Lanko-103.
    fn diagonal_steps_and_leaps(&self, out: &mut Vec<LankoMove>) {
        let (board, from) = (self.board, self.from);
        for rel in [7, 1] {
            let dir = turn(self.f, rel);
            let Some(next) = board.neighbour(from, dir) else {
                continue;
            };
            if !open_ground(board, next) {
                continue;
            }
            match self.cells[next as usize] {
                None => out.push(LankoMove::Step { from, to: next }),
                Some(other) if other.white == self.piece.white => {
                    if let Some(to) = board.neighbour(next, dir)
                        && open_ground(board, to)
                        && self.empty(to)
                    {
                        out.push(LankoMove::Jump {
                            from,
                            over: next,
                            to,
                        });
                    }
                }
                Some(_) => {}
            }
        }
    }

    /// A castle's steps from a manoeuvre square onto an end square on Lanko-103.
    fn end_entries(&self, out: &mut Vec<LankoMove>) {
        let (board, from) = (self.board, self.from);
        let role = board.info(from).role;
        if role == Role::Manoeuvre && self.piece.kind.is_castle() && !self.declared {
            // K-6: from a manoeuvre square a castle steps forward or sideways onto an
            // empty end square.
            for rel in [0, 6, 2] {
                if let Some(to) = board.neighbour(from, turn(self.f, rel))
                    && board.info(to).role == Role::End
                    && self.empty(to)
                {
                    out.push(LankoMove::Step { from, to });
                }
            }
        }
    }
}

/// Every legal move of `seat`, in the fixed order: captures when there are any (compulsory),
/// else the quiet moves, else the pass.
pub fn legal(board: &Board, cells: &Cells, seat: Seat, declared: bool) -> Vec<LankoMove> {
    let caps = captures(board, cells, seat, declared);
    if !caps.is_empty() {
        return caps.into_iter().map(LankoMove::Capture).collect();
    }
    let quiet = quiet_moves(board, cells, seat, declared);
    if quiet.is_empty() {
        vec![LankoMove::Pass]
    } else {
        quiet
    }
}

/// Whether any seat could capture a castle now, by a capture legal for it (a seat that has
/// declared cannot capture onto a middle square with a castle), for the end by declaration, K-8.
pub fn castle_capturable(board: &Board, cells: &Cells, declared: [bool; 4]) -> bool {
    (0..4).filter_map(Seat::new).any(|seat| {
        captures(board, cells, seat, declared[seat.index()])
            .iter()
            .any(|path| {
                let mut work = cells.clone();
                taken(board, &mut work, path)
                    .iter()
                    .any(|(_, p)| p.kind.is_castle())
            })
    })
}

/// Plays a capture path on `cells`, returning the pieces taken (square, piece) in order. The
/// moving piece ends on the last square (or is burned there, a pawn on a middle square).
pub fn taken(board: &Board, cells: &mut Cells, path: &[Sq]) -> Vec<(Sq, Piece)> {
    let mut out = Vec::new();
    let piece = cells[path[0] as usize].take();
    for pair in path.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let over = between(board, a, b).expect("capture path squares two apart");
        if let Some(p) = cells[over as usize].take() {
            out.push((over, p));
        }
    }
    let last = *path.last().unwrap();
    cells[last as usize] = piece;
    out
}

/// The square between two squares two apart in a straight or diagonal line.
pub fn between(board: &Board, a: Sq, b: Sq) -> Option<Sq> {
    (0..8).find_map(|d| {
        let mid = board.neighbour(a, d)?;
        (board.neighbour(mid, d) == Some(b)).then_some(mid)
    })
}

/// The direction from `a` to its neighbour `b`.
pub fn direction(board: &Board, a: Sq, b: Sq) -> Option<usize> {
    (0..8).find(|d| board.neighbour(a, *d) == Some(b))
}
