//! The fixed parts of the Lanko boards, drawn once per board and then copied: the squares with
//! their marks, labels, rims and barriers, and the six pieces. Also the geometry shared with
//! the per-move drawing, and the seat plates around the board.

use std::sync::OnceLock;

use muster_rules::lanko::{Board, Kind, Layout, Piece, Role, Sq, Variant};
use tiny_skia::Pixmap;

use crate::canvas::{Align, Backdrop, Canvas, Sprite};
use crate::style::{Colours, Style, Turn, alpha};

/// Room for the board: 10 columns of 56 px, or 11 of 51 px.
const BOARD: f32 = 561.0;
/// The band around the board that holds the seat plates.
pub const BAND: f32 = 50.0;
/// Height of the two caption lines under the board.
pub const CAPTION: f32 = 78.0;
/// Image width (at the normal size).
pub const WIDTH: u32 = (BAND * 2.0 + BOARD) as u32 + 4;
/// Image height (at the normal size).
pub const HEIGHT: u32 = (BAND * 2.0 + BOARD + CAPTION) as u32;

/// Where a board's grid sits in the image, and which way it is turned.
#[derive(Clone, Copy, Debug)]
pub struct Geo {
    /// Side of one square.
    pub cell: f32,
    /// The grid's top-left corner.
    pub x0: f32,
    pub y0: f32,
    /// The grid's size in pixels, as turned.
    pub w: f32,
    pub h: f32,
    /// The turn, and the grid's rows and columns before it.
    turn: Turn,
    rows: u8,
    cols: u8,
}

impl Geo {
    pub fn of(board: &Board, turn: Turn) -> Geo {
        let cell = (BOARD / board.rows.max(board.cols) as f32).floor();
        let (rows, cols) = turn.dims(board.rows, board.cols);
        let (w, h) = (cell * cols as f32, cell * rows as f32);
        Geo {
            cell,
            x0: ((WIDTH as f32 - w) / 2.0).round(),
            y0: BAND + ((BOARD - h) / 2.0).round(),
            w,
            h,
            turn,
            rows: board.rows,
            cols: board.cols,
        }
    }

    /// The top-left corner of the board's grid cell (`row`, `col`) in the picture.
    pub fn corner(&self, row: u8, col: u8) -> (f32, f32) {
        let (r, c) = self.turn.cell(row, col, self.rows, self.cols);
        (
            self.x0 + c as f32 * self.cell,
            self.y0 + r as f32 * self.cell,
        )
    }

    /// The centre of a square.
    pub fn centre(&self, board: &Board, sq: Sq) -> (f32, f32) {
        let info = board.info(sq);
        let (x, y) = self.corner(info.row, info.col);
        (x + self.cell / 2.0, y + self.cell / 2.0)
    }

    /// The way (rows, columns) a step in the board's grid goes in the picture.
    fn way(&self, (dr, dc): (i32, i32)) -> (i32, i32) {
        (0..self.turn.count()).fold((dr, dc), |(r, c), _| (c, -r))
    }

    /// Which side of the picture the side of seat `seat` (s, w, n, e) is on.
    pub fn side(&self, seat: usize) -> Side {
        Side::of(self.turn.side(seat))
    }
}

/// A board's background and pieces, drawn once per style.
pub struct Art {
    pub geo: Geo,
    pub background: Backdrop,
    /// The pieces, White's then Black's, in the order big, small, pawn.
    pub pieces: [[Sprite; 3]; 2],
}

impl Art {
    pub fn piece(&self, p: Piece) -> &Sprite {
        let k = match p.kind {
            Kind::Big => 0,
            Kind::Small => 1,
            Kind::Pawn => 2,
        };
        &self.pieces[usize::from(!p.white)][k]
    }
}

/// The art of `variant`'s board in `style`.
pub fn art(variant: Variant, style: Style) -> &'static Art {
    const SLOTS: usize = 3 * 3 * 4 * 3;
    static ART: [OnceLock<Art>; SLOTS] = [const { OnceLock::new() }; SLOTS];
    let turn = Turn::bringing_down(style.bottom, 4);
    let slot =
        ((variant as usize * 3 + style.theme as usize) * 4 + turn.count()) * 3 + style.size.index();
    ART[slot].get_or_init(|| {
        let board = variant.board();
        let geo = Geo::of(board, turn);
        let k = style.theme.colours();
        let scale = style.size.scale();
        let piece = |white, kind| piece_sprite(k, geo.cell, scale, Piece { white, kind });
        let set = |white| {
            [
                piece(white, Kind::Big),
                piece(white, Kind::Small),
                piece(white, Kind::Pawn),
            ]
        };
        Art {
            geo,
            background: Backdrop::new(background(board, geo, k, scale)),
            pieces: [set(true), set(false)],
        }
    })
}

/// The outline of a piece's shape around (`cx`, `cy`), `grow` pixels larger than its size.
fn outline(kind: Kind, cell: f32, cx: f32, cy: f32, grow: f32) -> Vec<(f32, f32)> {
    match kind {
        Kind::Big => {
            let h = cell * 0.255 + grow;
            vec![
                (cx - h, cy - h),
                (cx + h, cy - h),
                (cx + h, cy + h),
                (cx - h, cy + h),
            ]
        }
        Kind::Small => {
            // An upright triangle whose centre of gravity is the square's centre; growing it
            // moves every side out by `grow`.
            let r = cell * 0.36 + grow * 2.0;
            let (s, c) = (r * 0.866, r * 0.5);
            vec![(cx, cy - r), (cx + s, cy + c), (cx - s, cy + c)]
        }
        Kind::Pawn => {
            let r = cell * 0.19 + grow;
            (0..32)
                .map(|i| {
                    let a = i as f32 * std::f32::consts::TAU / 32.0;
                    (cx + r * a.cos(), cy + r * a.sin())
                })
                .collect()
        }
    }
}

/// How far below the square's centre a piece's shape is centred: clear of the label in the
/// corner, and a triangle's centre of gravity lower still so that it looks centred.
pub fn lower(kind: Kind) -> f32 {
    if kind == Kind::Small { 3.5 } else { 2.0 }
}

/// One piece on a transparent square: White light with a dark outline, Black dark with a light
/// one.
fn piece_sprite(k: &Colours, cell: f32, scale: f32, p: Piece) -> Sprite {
    let mut c = Canvas::scaled(cell, cell, [0, 0, 0, 0], scale);
    let (cx, cy) = (cell / 2.0, cell / 2.0 + lower(p.kind));
    if p.white {
        let shape = outline(p.kind, cell, cx, cy, 0.0);
        c.polygon(&shape, k.white[0], Some((3.0, k.white[1])));
    } else {
        let shape = outline(p.kind, cell, cx, cy, 0.5);
        c.polygon(&shape, k.black[0], Some((1.5, k.black[1])));
        let inner = outline(p.kind, cell, cx, cy, -3.0);
        c.polygon(&inner, k.black[0], Some((2.2, k.lanko.piece_inner)));
    }
    Sprite::new(c.pixmap)
}

/// A five-pointed star, for a castle at home.
pub fn star(c: &mut Canvas, cx: f32, cy: f32, r: f32, fill: [u8; 4], edge: [u8; 4]) {
    let pts: Vec<(f32, f32)> = (0..10)
        .map(|i| {
            let a = -std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::PI / 5.0;
            let rr = if i % 2 == 0 { r } else { r * 0.45 };
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    c.polygon(&pts, fill, Some((1.2, edge)));
}

/// Strokes the outline of a region of grid cells: every cell edge with the region on one side
/// only.
fn rim(
    c: &mut Canvas,
    board: &Board,
    geo: Geo,
    width: f32,
    colour: [u8; 4],
    inside: impl Fn(u8, u8) -> bool,
) {
    let is_in = |r: i32, col: i32| {
        r >= 0
            && col >= 0
            && r < board.rows as i32
            && col < board.cols as i32
            && inside(r as u8, col as u8)
    };
    let s = geo.cell;
    for r in 0..board.rows {
        for col in 0..board.cols {
            if !is_in(r as i32, col as i32) {
                continue;
            }
            let (x, y) = geo.corner(r, col);
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                if is_in(r as i32 + dr, col as i32 + dc) {
                    continue;
                }
                // The edge towards that neighbour, on the side of the picture it turned to.
                let (a, b) = match geo.way((dr, dc)) {
                    (-1, 0) => ((x, y), (x + s, y)),
                    (1, 0) => ((x, y + s), (x + s, y + s)),
                    (0, -1) => ((x, y), (x, y + s)),
                    _ => ((x + s, y), (x + s, y + s)),
                };
                c.line(a, b, width, colour);
            }
        }
    }
}

/// The board without pieces.
fn background(board: &Board, geo: Geo, k: &Colours, scale: f32) -> Pixmap {
    let mut c = Canvas::scaled(WIDTH as f32, HEIGHT as f32, k.paper, scale);
    let l = &k.lanko;
    let s = geo.cell;
    let diagonal = board.layout == Layout::Diagonal;
    for info in &board.squares {
        let (x, y) = geo.corner(info.row, info.col);
        let fill = match info.role {
            Role::Field if diagonal && info.dark => l.dark,
            Role::Field | Role::End | Role::Standby | Role::Unused => l.light,
            Role::StripWe | Role::StripNs if diagonal => l.strip[1],
            Role::StripWe | Role::StripNs => l.strip[0],
            Role::Middle | Role::Manoeuvre => l.middle,
        };
        c.rect(x, y, s, s, fill);
        c.frame(x + 0.5, y + 0.5, s - 1.0, s - 1.0, 1.0, l.square_edge);
        let (cx, cy) = (x + s / 2.0, y + s / 2.0);
        match info.role {
            Role::Manoeuvre => {
                let d = s * 0.36;
                c.line((cx - d, cy - d), (cx + d, cy + d), 2.5, l.mark);
                c.line((cx - d, cy + d), (cx + d, cy - d), 2.5, l.mark);
            }
            Role::End => c.ring(cx, cy, s * 0.38, 3.0, l.end_ring),
            Role::Standby => {
                let (d, g) = (s * 0.34, s * 0.13);
                for k in [-g, g] {
                    c.line((cx + k, cy - d), (cx + k, cy + d), 2.5, l.standby);
                    c.line((cx - d, cy + k), (cx + d, cy + k), 2.5, l.standby);
                }
            }
            _ => {}
        }
    }
    // The strips with the centre, then the centre, rimmed; then the board's edge.
    let goal = |r: u8, col: u8| {
        board.cell(r, col).is_some_and(|q| {
            matches!(
                board.info(q).role,
                Role::Middle | Role::Manoeuvre | Role::End
            )
        })
    };
    let rows_we = span(board, Role::StripWe, |i| i.row);
    let cols_ns = span(board, Role::StripNs, |i| i.col);
    let arm = |r: u8, col: u8| {
        board.cell(r, col).is_some() && (rows_we.contains(&r) || cols_ns.contains(&col))
    };
    rim(&mut c, board, geo, 4.0, l.strip_rim, arm);
    rim(&mut c, board, geo, 4.0, k.ink, goal);
    rim(&mut c, board, geo, 4.0, k.ink, |r, col| {
        board.cell(r, col).is_some()
    });
    for sq in 0..board.len() as Sq {
        label(&mut c, board, geo, k, sq);
    }
    // Barriers: thick bars on the edges they close, as the picture is turned.
    for (a, b) in &board.barriers {
        let (ia, ib) = (board.info(*a), board.info(*b));
        let (pa, pb) = (geo.corner(ia.row, ia.col), geo.corner(ib.row, ib.col));
        let (x, y) = (pa.0.max(pb.0), pa.1.max(pb.1));
        let inset = 3.0;
        let (p, q) = if pa.1 == pb.1 {
            ((x, y + inset), (x, y + s - inset))
        } else {
            ((x + inset, y), (x + s - inset, y))
        };
        c.line(p, q, 10.0, k.paper);
        c.line(p, q, 8.0, l.barrier);
    }
    c.pixmap
}

/// A square's label, small in its top-left corner (none on unused squares).
pub fn label(c: &mut Canvas, board: &Board, geo: Geo, k: &Colours, sq: Sq) {
    let info = board.info(sq);
    if info.role == Role::Unused {
        return;
    }
    let size = (geo.cell * 0.25).round();
    let (x, y) = geo.corner(info.row, info.col);
    let light = match info.role {
        Role::Field => board.layout == Layout::Orthogonal || !info.dark,
        Role::End | Role::Standby => true,
        _ => false,
    };
    let [on_light, on_dark, on_middle] = k.lanko.labels;
    let colour = match info.role {
        Role::Middle | Role::Manoeuvre => on_middle,
        _ if light => on_light,
        _ => on_dark,
    };
    c.text(&info.label, x + 4.0, y + size, size, Align::Left, colour);
}

/// The rows (or columns) the squares of a role span, from first to last.
fn span(
    board: &Board,
    role: Role,
    at: impl Fn(&muster_rules::lanko::SquareInfo) -> u8,
) -> std::ops::RangeInclusive<u8> {
    let on: Vec<u8> = board
        .squares
        .iter()
        .filter(|i| i.role == role)
        .map(at)
        .collect();
    let lo = on.iter().copied().min().unwrap_or(1);
    let hi = on.iter().copied().max().unwrap_or(0);
    lo..=hi
}

/// Which side of the board a seat sits on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    South,
    West,
    North,
    East,
}

impl Side {
    /// The seat of each index (s, w, n, e in turn order).
    pub fn of(seat: usize) -> Side {
        [Side::South, Side::West, Side::North, Side::East][seat & 3]
    }
}

/// A seat's plate beside its side of the board: the seat and name on its team's colour, ringed
/// with a pointer at the board when the seat is to move. West's and East's read along the side.
pub fn plate(
    c: &mut Canvas,
    k: &Colours,
    geo: Geo,
    side: Side,
    text: &str,
    white: bool,
    to_move: bool,
) {
    let size = 19.0;
    let max_len = geo.w.min(geo.h) - 40.0;
    let size = if Canvas::text_width(text, size) + 28.0 > max_len {
        (size * (max_len - 28.0) / Canvas::text_width(text, size))
            .floor()
            .max(11.0)
    } else {
        size
    };
    let (len, thick) = ((Canvas::text_width(text, size) + 28.0).ceil(), 34.0);
    let pad = 8.0;
    let (pw, ph) = (len + 2.0 * pad, thick + 2.0 * pad);
    let sprite = plate_sprite(
        PlateKey {
            text: text.to_string(),
            size: size.to_bits(),
            colours: k as *const Colours as usize,
            scale: c.scale().to_bits(),
            side,
            white,
            to_move,
        },
        || {
            let mut p = Canvas::scaled(pw, ph, [0, 0, 0, 0], c.scale());
            let (fill, ink, edge) = if white {
                (k.white[0], k.lanko.plate_ink[0], k.white[1])
            } else {
                (k.black[0], k.lanko.plate_ink[1], k.black[1])
            };
            if to_move {
                let glow = alpha(k.lanko.turn, 90);
                pill(&mut p, pad - 7.0, pad - 7.0, len + 14.0, thick + 14.0, glow);
                let ring = k.lanko.turn;
                pill(&mut p, pad - 5.0, pad - 5.0, len + 10.0, thick + 10.0, ring);
            }
            pill(&mut p, pad, pad, len, thick, edge);
            pill(&mut p, pad + 2.0, pad + 2.0, len - 4.0, thick - 4.0, fill);
            let baseline = pad + thick / 2.0 + size * 0.36;
            p.text(text, pad + len / 2.0, baseline, size, Align::Center, ink);
            Sprite::new(match side {
                // Turned a quarter left: reads from bottom to top.
                Side::West => turn(&p.pixmap, false),
                // Turned a quarter right: reads from top to bottom.
                Side::East => turn(&p.pixmap, true),
                Side::North | Side::South => p.pixmap,
            })
        },
    );
    let (mid_x, mid_y) = (geo.x0 + geo.w / 2.0, geo.y0 + geo.h / 2.0);
    // Where the plate goes, at whole pixels so that nothing blurs.
    let reach = pad + thick;
    let (x, y) = match side {
        Side::North => (mid_x - pw / 2.0, geo.y0 - 4.0 - reach),
        Side::South => (mid_x - pw / 2.0, geo.y0 + geo.h + 4.0 - pad),
        Side::West => (geo.x0 - 4.0 - reach, mid_y - pw / 2.0),
        Side::East => (geo.x0 + geo.w + 4.0 + reach - ph, mid_y - pw / 2.0),
    };
    c.stamp(&sprite, x.round(), y.round(), 255);
}

/// What a seat's plate looks like: its text and size, the theme's colours (by address: the
/// themes are constants), the scale, which side it is on, its team and whether it is to move.
#[derive(Clone, PartialEq, Eq, Hash)]
struct PlateKey {
    text: String,
    size: u32,
    colours: usize,
    scale: u32,
    side: Side,
    white: bool,
    to_move: bool,
}

/// The plate of `key`, drawn by `make` the first time it is asked for. A game's plates change
/// only with the seat to move and a declaration, so a few hundred kept cover every game being
/// played; past that the cache starts again.
fn plate_sprite(key: PlateKey, make: impl FnOnce() -> Sprite) -> std::sync::Arc<Sprite> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};
    const KEPT: usize = 512;
    static CACHE: OnceLock<Mutex<HashMap<PlateKey, Arc<Sprite>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(found) = cache.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Arc::clone(found);
    }
    let made = Arc::new(make());
    let mut cache = cache.lock().unwrap_or_else(|p| p.into_inner());
    if cache.len() >= KEPT {
        cache.clear();
    }
    cache.insert(key, Arc::clone(&made));
    made
}

/// The pixmap turned a quarter right (`clockwise`) or left, pixel for pixel.
fn turn(src: &Pixmap, clockwise: bool) -> Pixmap {
    let (w, h) = (src.width() as usize, src.height() as usize);
    let mut out = Pixmap::new(h as u32, w as u32).expect("a non-empty pixmap");
    let (from, to) = (src.data(), out.data_mut());
    for y in 0..h {
        for x in 0..w {
            // Quarter right: (x, y) goes to column h-1-y, row x; quarter left: column y, row w-1-x.
            let (tx, ty) = if clockwise {
                (h - 1 - y, x)
            } else {
                (y, w - 1 - x)
            };
            let (i, j) = ((y * w + x) * 4, (ty * h + tx) * 4);
            to[j..j + 4].copy_from_slice(&from[i..i + 4]);
        }
    }
    out
}

/// A filled rounded bar (a pill).
fn pill(c: &mut Canvas, x: f32, y: f32, w: f32, h: f32, fill: [u8; 4]) {
    let r = h / 2.0;
    c.disc(x + r, y + r, r, fill);
    c.disc(x + w - r, y + r, r, fill);
    c.rect(x + r, y, w - 2.0 * r, h, fill);
}
