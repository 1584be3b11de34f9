//! Lanko's notation, after the source's way of recording: a move, jump or leap `a-b`, a capture
//! by its landing squares `a;b;c`, `(X)` after a castle's move onto a middle (end) square, `---`
//! for a pass and `===` for the declaration of K-8. Squares are named by the board's labels.

use super::board::{Board, Layout, Piece, Role, Sq, forward, is_diagonal, plays_white};
use super::moves::{self, LankoMove, between, direction};
use super::{Lanko, TABLE};
use crate::game::NotationError;
use crate::seat::Seat;

/// The mark after a castle's move onto a middle (end) square.
pub const ENTERS: &str = "(X)";

/// Reads `text` as a move in `game`'s position: the syntax, then the squares against the board.
pub fn parse(game: &Lanko, text: &str) -> Result<LankoMove, NotationError> {
    if let Some(read) = parse_word(text) {
        return read;
    }
    let (body, marked) = match text.strip_suffix(ENTERS) {
        Some(b) => (b, true),
        None => (text, false),
    };
    let board = game.board();
    let mv = if body.contains(';') {
        parse_capture(board, text, body)?
    } else {
        parse_move(board, text, body)?
    };
    if marked && !enters(game, &mv) {
        return Err(NotationError::new(
            text,
            format!(
                "`(X)` marks a castle moving onto a {} square, which this move does not do",
                game.variant.goal_word()
            ),
        ));
    }
    Ok(mv)
}

/// The texts that name no square: a pass, a declaration, the end mark and nothing at all.
fn parse_word(text: &str) -> Option<Result<LankoMove, NotationError>> {
    match text {
        "---" => Some(Ok(LankoMove::Pass)),
        "===" => Some(Ok(LankoMove::Declare)),
        "+++" => Some(Err(NotationError::new(
            text,
            "`+++` marks the end of a finished game, and this game is not over",
        ))),
        "" => Some(Err(NotationError::new("", "write a move, such as 12-13"))),
        _ => None,
    }
}

/// The square `board` labels `label`, or why there is none.
fn parse_square(board: &Board, label: &str) -> Result<Sq, NotationError> {
    board.square(label).ok_or_else(|| {
        let hint = if label.chars().any(|c| c.is_ascii_lowercase()) {
            " (labels are written in capitals)"
        } else {
            ""
        };
        NotationError::new(
            label,
            format!(
                "not a square of {}{hint}; the board's labels are in `rules lanko` and on the board image",
                board.title
            ),
        )
    })
}

/// A capture `a;b;c` (the `body` of `text`), each landing two squares in a capture line.
fn parse_capture(board: &Board, text: &str, body: &str) -> Result<LankoMove, NotationError> {
    let path: Vec<Sq> = body
        .split(';')
        .map(|label| parse_square(board, label))
        .collect::<Result<_, _>>()?;
    if path.len() < 2 {
        return Err(NotationError::new(
            text,
            "a capture names its start square and every landing square: 12;34;56",
        ));
    }
    for pair in path.windows(2) {
        let straight = between(board, pair[0], pair[1])
            .and_then(|mid| direction(board, pair[0], mid))
            .is_some_and(|d| is_diagonal(d) == (board.layout == Layout::Diagonal));
        if !straight {
            return Err(NotationError::new(
                format!("{};{}", board.label(pair[0]), board.label(pair[1])),
                capture_shape(board.layout),
            ));
        }
    }
    Ok(LankoMove::Capture(path))
}

/// A move, jump or leap `a-b` (the `body` of `text`): a step to a neighbour or two in a line.
fn parse_move(board: &Board, text: &str, body: &str) -> Result<LankoMove, NotationError> {
    let parts: Vec<&str> = body.split('-').collect();
    let [a, b] = parts[..] else {
        return Err(NotationError::new(
            text,
            "write a move or jump as from-to (12-13), a capture as its squares (12;34;56), or --- to pass",
        ));
    };
    let (from, to) = (parse_square(board, a)?, parse_square(board, b)?);
    if direction(board, from, to).is_some() {
        Ok(LankoMove::Step { from, to })
    } else if let Some(over) = between(board, from, to) {
        Ok(LankoMove::Jump { from, over, to })
    } else {
        Err(NotationError::new(
            text,
            "a move goes to a neighbouring square, a jump or leap two squares in a line",
        ))
    }
}

fn capture_shape(layout: Layout) -> &'static str {
    match layout {
        Layout::Orthogonal => {
            "each capture jump lands two squares away in a straight line (not diagonally)"
        }
        Layout::Diagonal => "each capture jump lands two squares away diagonally",
    }
}

/// Whether `mv` takes a castle onto a middle (end) square.
fn enters(game: &Lanko, mv: &LankoMove) -> bool {
    let (Some(from), Some(to)) = (mv.from(), mv.to()) else {
        return false;
    };
    game.cells[from as usize].is_some_and(|p| p.kind.is_castle())
        && game.board().info(to).role.is_goal()
}

/// The canonical text of `mv` in `game`'s position.
pub fn format(game: &Lanko, mv: &LankoMove) -> String {
    let board = game.board();
    let mut out = match mv {
        LankoMove::Pass => return "---".into(),
        LankoMove::Declare => return "===".into(),
        LankoMove::Step { from, to } | LankoMove::Jump { from, to, .. } => {
            format!("{}-{}", board.label(*from), board.label(*to))
        }
        LankoMove::Capture(path) => path
            .iter()
            .map(|s| board.label(*s))
            .collect::<Vec<_>>()
            .join(";"),
    };
    if enters(game, mv) {
        out.push_str(ENTERS);
    }
    out
}

/// Why `mv`, which is not among `seat`'s legal moves, is refused: the first rule it breaks.
pub fn refusal(game: &Lanko, seat: Seat, mv: &LankoMove) -> String {
    let board = game.board();
    let declared = game.declared[seat.index()];
    let legal = moves::legal(board, &game.cells, seat, declared);
    let (from, piece) = match own_piece(game, seat, mv) {
        Ok(found) => found,
        Err(why) => return why,
    };
    if let Some(LankoMove::Capture(example)) = legal.first() {
        return capture_refusal(game, &legal, example, mv);
    }
    let to = mv.to().unwrap();
    if let LankoMove::Capture(_) = mv {
        return "there is no capture here: a capture jumps over a neighbouring piece of the other colour onto the empty square behind it".into();
    }
    let forward = forward(seat);
    let first = match mv {
        LankoMove::Jump { over, .. } => *over,
        _ => to,
    };
    let attempt = Attempt {
        game,
        board,
        mv,
        piece,
        from,
        to,
        name: TABLE.seat_name(seat).to_ascii_uppercase(),
        forward,
        dir: direction(board, from, first).unwrap_or(forward),
    };
    if let Some(why) = attempt.blocked(declared) {
        return why;
    }
    match board.layout {
        Layout::Orthogonal => attempt.orthogonal_shape(),
        Layout::Diagonal => attempt.diagonal_shape(),
    }
}

/// The square and piece `mv` moves, or why `seat` may not move from there: no square (a pass),
/// no piece, the other colour's, a fixed castle, or off the seat's side.
fn own_piece(game: &Lanko, seat: Seat, mv: &LankoMove) -> Result<(Sq, Piece), String> {
    let board = game.board();
    let name = TABLE.seat_name(seat).to_ascii_uppercase();
    let label = |s: Sq| board.label(s).to_string();
    let Some(from) = mv.from() else {
        return Err(
            "you can move, so you may not pass: `---` is only for a seat with no legal move".into(),
        );
    };
    let Some(piece) = game.cells[from as usize] else {
        return Err(format!("there is no piece on {}", label(from)));
    };
    let white = plays_white(seat);
    if piece.white != white {
        return Err(format!(
            "the {} on {} is {}; {name} moves {} pieces",
            piece.kind.word(),
            label(from),
            piece.colour(),
            if white { "white" } else { "black" }
        ));
    }
    if board.info(from).role.is_goal() {
        return Err(format!(
            "the castle on {} stays on its {} square to the end of the game",
            label(from),
            game.variant.goal_word()
        ));
    }
    if !moves::movable(board, &game.cells, seat, from) {
        let (strip, side) = if white {
            ("W-E", if seat.index() == 0 { "south" } else { "north" })
        } else {
            ("N-S", if seat.index() == 1 { "west" } else { "east" })
        };
        return Err(format!(
            "{name} moves only pieces on the {side} side of the {strip} strip or on that strip, and {} is not",
            label(from)
        ));
    }
    Ok((from, piece))
}

/// Why `mv` is refused when a capture is on (`legal` holds the captures, `example` the first):
/// a capture stopped short, another move that is no capture, or a move instead of a capture.
fn capture_refusal(game: &Lanko, legal: &[LankoMove], example: &[Sq], mv: &LankoMove) -> String {
    let board = game.board();
    if let LankoMove::Capture(path) = mv {
        if legal
            .iter()
            .any(|m| matches!(m, LankoMove::Capture(p) if p.starts_with(path)))
        {
            return format!(
                "the capture must go on to the end: from {} the piece can capture again",
                board.label(*path.last().unwrap())
            );
        }
        return format!(
            "that is not a capture here; you can capture with {} (`moves` lists every capture)",
            format(game, &LankoMove::Capture(example.to_vec()))
        );
    }
    format!(
        "capturing is compulsory: capture first, for example {} (`moves` lists every capture)",
        format(game, &LankoMove::Capture(example.to_vec()))
    )
}

/// A refused move, jump or leap of a seat's own movable piece, when no capture is on: what its
/// explanation cites.
struct Attempt<'a> {
    /// The game.
    game: &'a Lanko,
    /// Its board.
    board: &'static Board,
    /// The move.
    mv: &'a LankoMove,
    /// The piece moved.
    piece: Piece,
    /// Where it stands.
    from: Sq,
    /// Where the move takes it.
    to: Sq,
    /// The seat's name, in capitals.
    name: String,
    /// The seat's forward direction.
    forward: usize,
    /// The direction of the move's first square (the square jumped over, for a jump).
    dir: usize,
}

impl Attempt<'_> {
    /// The label of `sq`.
    fn label(&self, sq: Sq) -> String {
        self.board.label(sq).to_string()
    }

    /// The forward direction's name.
    fn forward_name(&self) -> &'static str {
        compass(self.forward)
    }

    /// Why the way is shut, whatever the move's shape: the square taken, a declaration that
    /// keeps castles out, or a barrier across.
    fn blocked(&self, declared: bool) -> Option<String> {
        let (game, board, to) = (self.game, self.board, self.to);
        if game.cells[to as usize].is_some() {
            return Some(format!("{} is occupied", self.label(to)));
        }
        if declared && board.info(to).role.is_goal() && self.piece.kind.is_castle() {
            return Some(format!(
                "you declared that you will not move your castles onto the {} squares",
                game.variant.goal_word()
            ));
        }
        let dir = self.dir;
        if !is_diagonal(dir)
            && (board.barred(self.from, dir)
                || matches!(self.mv, LankoMove::Jump { over, .. } if board.barred(*over, dir)))
        {
            return Some(format!(
                "a barrier lies across the way from {} to {}; only a pawn's diagonal step passes a barrier",
                self.label(self.from),
                self.label(to)
            ));
        }
        None
    }

    /// Why the move's shape is wrong on Lanko-88 and Lanko-68: what may jump over what, and
    /// where a castle or pawn may step.
    fn orthogonal_shape(&self) -> String {
        let (game, piece, name) = (self.game, self.piece, &self.name);
        let rel = (self.dir + 8 - self.forward) % 8;
        match self.mv {
            LankoMove::Jump { over, .. } => {
                if piece.kind.is_castle() {
                    "castles do not jump".into()
                } else if game.cells[*over as usize].is_none_or(|p| p.white != piece.white) {
                    format!(
                        "a pawn jumps only over a pawn of its own colour, and {} holds none",
                        self.label(*over)
                    )
                } else if game.cells[*over as usize].is_some_and(|p| p.kind.is_castle()) {
                    "nothing jumps over a castle".into()
                } else {
                    format!(
                        "a pawn jumps forward, left or right ({name}'s forward is {}), never backward or diagonally",
                        self.forward_name()
                    )
                }
            }
            _ => {
                if piece.kind.is_castle() && ![0, 2, 6].contains(&rel) {
                    format!(
                        "a castle moves one square forward, left or right ({name}'s forward is {}); it never moves diagonally or backward",
                        self.forward_name()
                    )
                } else {
                    format!(
                        "a pawn moves one square forward, left, right or diagonally forward ({name}'s forward is {}), never backward",
                        self.forward_name()
                    )
                }
            }
        }
    }

    /// Why the move's shape is wrong on Lanko-103: end squares, standby pawns, leaps and
    /// diagonal steps.
    fn diagonal_shape(&self) -> String {
        let (game, board, piece, name) = (self.game, self.board, self.piece, &self.name);
        match self.mv {
            _ if board.info(self.to).role == Role::End => {
                if board.info(self.from).role != Role::Manoeuvre {
                    "a castle reaches an end square only from a manoeuvre square (marked with a cross)"
                        .into()
                } else if !piece.kind.is_castle() {
                    "pawns never enter end squares".into()
                } else {
                    format!(
                        "from a manoeuvre square a castle steps forward or sideways onto an end square, never backward ({name}'s forward is {})",
                        self.forward_name()
                    )
                }
            }
            _ if board.info(self.from).role == Role::Standby => format!(
                "a standby pawn comes into play on an empty dark square in front of it or beside it ({name}'s forward is {})",
                self.forward_name()
            ),
            LankoMove::Jump { over, .. } => {
                if game.cells[*over as usize].is_none_or(|p| p.white != piece.white) {
                    format!(
                        "a leap goes over a piece of its own colour, and {} holds none",
                        self.label(*over)
                    )
                } else {
                    format!(
                        "a piece leaps diagonally forward only ({name}'s forward is {})",
                        self.forward_name()
                    )
                }
            }
            _ => format!(
                "a piece moves one square diagonally forward onto a dark square ({name}'s forward is {})",
                self.forward_name()
            ),
        }
    }
}

fn compass(dir: usize) -> &'static str {
    ["north", "", "east", "", "south", "", "west", ""][dir]
}
