//! The fixed parts of the Lanko boards, drawn once per board and then copied: the squares with
//! their marks, labels, rims and barriers, and the six pieces. Also the geometry shared with
//! the per-move drawing, and the seat plates around the board.

use std::sync::OnceLock;

use muster_rules::lanko::{Board, Kind, Layout, Piece, Role, Sq, Variant};
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

use crate::canvas::{Align, Canvas, rgb, rgba};

/// Room for the board: 10 columns of 56 px, or 11 of 51 px.
const BOARD: f32 = 561.0;
/// The band around the board that holds the seat plates.
pub const BAND: f32 = 50.0;
/// Height of the two caption lines under the board.
pub const CAPTION: f32 = 78.0;
/// Image width.
pub const WIDTH: u32 = (BAND * 2.0 + BOARD) as u32 + 4;
/// Image height.
pub const HEIGHT: u32 = (BAND * 2.0 + BOARD + CAPTION) as u32;

pub const PAPER: [u8; 4] = rgb(0xF4EFE6);
pub const INK: [u8; 4] = rgb(0x3B2F22);
pub const SOFT_INK: [u8; 4] = rgb(0x6B5A45);
/// Field squares (Lanko-88/68) and light squares (Lanko-103).
const LIGHT: [u8; 4] = rgb(0xF1E6CE);
/// Dark field squares of Lanko-103.
const DARK: [u8; 4] = rgb(0xB8916B);
/// The marked colour of the border strips, and the stronger one of the middle (manoeuvre)
/// squares.
const STRIP: [u8; 4] = rgb(0x9FC3B6);
const STRIP_DARK: [u8; 4] = rgb(0x6E9E8E);
const MIDDLE: [u8; 4] = rgb(0x4E8A78);
const MARK: [u8; 4] = rgba(0x1F3F36, 150);
const BARRIER: [u8; 4] = rgb(0x1C140C);
pub const GOLD: [u8; 4] = rgb(0xD4A017);
/// The seat to move.
pub const TURN: [u8; 4] = rgb(0x2E9E4F);
pub const WHITE_FILL: [u8; 4] = rgb(0xFBFAF4);
pub const BLACK_FILL: [u8; 4] = rgb(0x1B1B1B);

/// Where a board's grid sits in the image.
#[derive(Clone, Copy, Debug)]
pub struct Geo {
    /// Side of one square.
    pub cell: f32,
    /// The grid's top-left corner.
    pub x0: f32,
    pub y0: f32,
    /// The grid's size in pixels.
    pub w: f32,
    pub h: f32,
}

impl Geo {
    pub fn of(board: &Board) -> Geo {
        let cell = (BOARD / board.rows.max(board.cols) as f32).floor();
        let (w, h) = (cell * board.cols as f32, cell * board.rows as f32);
        Geo {
            cell,
            x0: ((WIDTH as f32 - w) / 2.0).round(),
            y0: BAND + ((BOARD - h) / 2.0).round(),
            w,
            h,
        }
    }

    /// The top-left corner of a grid cell.
    pub fn corner(&self, row: u8, col: u8) -> (f32, f32) {
        (
            self.x0 + col as f32 * self.cell,
            self.y0 + row as f32 * self.cell,
        )
    }

    /// The centre of a square.
    pub fn centre(&self, board: &Board, sq: Sq) -> (f32, f32) {
        let info = board.info(sq);
        let (x, y) = self.corner(info.row, info.col);
        (x + self.cell / 2.0, y + self.cell / 2.0)
    }
}

/// A board's background and pieces, drawn once.
pub struct Art {
    pub geo: Geo,
    pub background: Pixmap,
    /// The pieces, White's then Black's, in the order big, small, pawn.
    pub pieces: [[Pixmap; 3]; 2],
}

impl Art {
    pub fn piece(&self, p: Piece) -> &Pixmap {
        let k = match p.kind {
            Kind::Big => 0,
            Kind::Small => 1,
            Kind::Pawn => 2,
        };
        &self.pieces[usize::from(!p.white)][k]
    }
}

/// The art of `variant`'s board.
pub fn art(variant: Variant) -> &'static Art {
    static ART: [OnceLock<Art>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    ART[variant as usize].get_or_init(|| {
        let board = variant.board();
        let geo = Geo::of(board);
        let piece = |white, kind| piece_sprite(geo.cell, Piece { white, kind });
        let set = |white| {
            [
                piece(white, Kind::Big),
                piece(white, Kind::Small),
                piece(white, Kind::Pawn),
            ]
        };
        Art {
            geo,
            background: background(board, geo),
            pieces: [set(true), set(false)],
        }
    })
}

fn paint(c: [u8; 4]) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c[0], c[1], c[2], c[3]);
    p.anti_alias = true;
    p
}

/// Fills a closed polygon and, if asked, strokes its outline.
pub fn polygon(c: &mut Canvas, pts: &[(f32, f32)], fill: [u8; 4], edge: Option<(f32, [u8; 4])>) {
    let mut pb = PathBuilder::new();
    for (i, (x, y)) in pts.iter().enumerate() {
        if i == 0 {
            pb.move_to(*x, *y);
        } else {
            pb.line_to(*x, *y);
        }
    }
    pb.close();
    let Some(path) = pb.finish() else { return };
    let id = Transform::identity();
    c.pixmap
        .fill_path(&path, &paint(fill), FillRule::Winding, id, None);
    if let Some((width, colour)) = edge {
        let stroke = Stroke {
            width,
            line_join: tiny_skia::LineJoin::Round,
            ..Stroke::default()
        };
        c.pixmap
            .stroke_path(&path, &paint(colour), &stroke, id, None);
    }
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
fn piece_sprite(cell: f32, p: Piece) -> Pixmap {
    let mut c = Canvas::new(cell as u32, cell as u32, [0, 0, 0, 0]);
    let (cx, cy) = (cell / 2.0, cell / 2.0 + lower(p.kind));
    if p.white {
        let shape = outline(p.kind, cell, cx, cy, 0.0);
        polygon(&mut c, &shape, WHITE_FILL, Some((3.0, rgb(0x222222))));
    } else {
        let shape = outline(p.kind, cell, cx, cy, 0.5);
        polygon(&mut c, &shape, BLACK_FILL, Some((1.5, rgb(0x000000))));
        let inner = outline(p.kind, cell, cx, cy, -3.0);
        polygon(&mut c, &inner, BLACK_FILL, Some((2.2, rgb(0xE8E0CC))));
    }
    c.pixmap
}

/// A five-pointed star, for a castle at home.
pub fn star(c: &mut Canvas, cx: f32, cy: f32, r: f32, fill: [u8; 4]) {
    let pts: Vec<(f32, f32)> = (0..10)
        .map(|i| {
            let a = -std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::PI / 5.0;
            let rr = if i % 2 == 0 { r } else { r * 0.45 };
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    polygon(c, &pts, fill, Some((1.2, rgb(0x5A4300))));
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
    for r in 0..board.rows {
        for col in 0..board.cols {
            if !is_in(r as i32, col as i32) {
                continue;
            }
            let (x, y) = geo.corner(r, col);
            let s = geo.cell;
            let sides = [
                ((-1, 0), (x, y), (x + s, y)),
                ((1, 0), (x, y + s), (x + s, y + s)),
                ((0, -1), (x, y), (x, y + s)),
                ((0, 1), (x + s, y), (x + s, y + s)),
            ];
            for ((dr, dc), a, b) in sides {
                if !is_in(r as i32 + dr, col as i32 + dc) {
                    c.line(a, b, width, colour);
                }
            }
        }
    }
}

/// The board without pieces.
fn background(board: &Board, geo: Geo) -> Pixmap {
    let mut c = Canvas::new(WIDTH, HEIGHT, PAPER);
    let s = geo.cell;
    let diagonal = board.layout == Layout::Diagonal;
    for info in &board.squares {
        let (x, y) = geo.corner(info.row, info.col);
        let fill = match info.role {
            Role::Field if diagonal && info.dark => DARK,
            Role::Field | Role::End | Role::Standby | Role::Unused => LIGHT,
            Role::StripWe | Role::StripNs if diagonal => STRIP_DARK,
            Role::StripWe | Role::StripNs => STRIP,
            Role::Middle | Role::Manoeuvre => MIDDLE,
        };
        c.rect(x, y, s, s, fill);
        c.frame(x + 0.5, y + 0.5, s - 1.0, s - 1.0, 1.0, rgba(0x3B2F22, 50));
        let (cx, cy) = (x + s / 2.0, y + s / 2.0);
        match info.role {
            Role::Manoeuvre => {
                let d = s * 0.36;
                c.line((cx - d, cy - d), (cx + d, cy + d), 2.5, MARK);
                c.line((cx - d, cy + d), (cx + d, cy - d), 2.5, MARK);
            }
            Role::End => c.ring(cx, cy, s * 0.38, 3.0, rgba(0x2F5E50, 230)),
            Role::Standby => {
                let (d, g) = (s * 0.34, s * 0.13);
                let ink = rgba(0x6B5A45, 190);
                for k in [-g, g] {
                    c.line((cx + k, cy - d), (cx + k, cy + d), 2.5, ink);
                    c.line((cx - d, cy + k), (cx + d, cy + k), 2.5, ink);
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
    rim(&mut c, board, geo, 4.0, rgb(0x2A5A4C), arm);
    rim(&mut c, board, geo, 4.0, INK, goal);
    rim(&mut c, board, geo, 4.0, INK, |r, col| {
        board.cell(r, col).is_some()
    });
    for sq in 0..board.len() as Sq {
        label(&mut c, board, geo, sq);
    }
    // Barriers: thick bars on the edges they close.
    for (a, b) in &board.barriers {
        let (ia, ib) = (board.info(*a), board.info(*b));
        let (x, y) = geo.corner(ia.row.max(ib.row), ia.col.max(ib.col));
        let inset = 3.0;
        let (p, q) = if ia.row == ib.row {
            ((x, y + inset), (x, y + s - inset))
        } else {
            ((x + inset, y), (x + s - inset, y))
        };
        c.line(p, q, 10.0, rgb(0xF4EFE6));
        c.line(p, q, 8.0, BARRIER);
    }
    c.pixmap
}

/// A square's label, small in its top-left corner (none on unused squares).
pub fn label(c: &mut Canvas, board: &Board, geo: Geo, sq: Sq) {
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
    let colour = match info.role {
        Role::Middle | Role::Manoeuvre => rgb(0xF4EFE6),
        _ if light => SOFT_INK,
        _ => rgb(0x241B12),
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
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
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
pub fn plate(c: &mut Canvas, geo: Geo, side: Side, text: &str, white: bool, to_move: bool) {
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
    let mut p = Canvas::new(
        (len + 2.0 * pad) as u32,
        (thick + 2.0 * pad) as u32,
        [0, 0, 0, 0],
    );
    let (fill, ink, edge) = if white {
        (WHITE_FILL, rgb(0x1B1B1B), rgb(0x2B2B2B))
    } else {
        (BLACK_FILL, rgb(0xF4EFE6), rgb(0x000000))
    };
    if to_move {
        pill(
            &mut p,
            pad - 7.0,
            pad - 7.0,
            len + 14.0,
            thick + 14.0,
            rgba(0x2E9E4F, 90),
        );
        pill(&mut p, pad - 5.0, pad - 5.0, len + 10.0, thick + 10.0, TURN);
    }
    pill(&mut p, pad, pad, len, thick, edge);
    pill(&mut p, pad + 2.0, pad + 2.0, len - 4.0, thick - 4.0, fill);
    let baseline = pad + thick / 2.0 + size * 0.36;
    p.text(text, pad + len / 2.0, baseline, size, Align::Center, ink);
    let (pw, ph) = (p.pixmap.width() as f32, p.pixmap.height() as f32);
    let (mid_x, mid_y) = (geo.x0 + geo.w / 2.0, geo.y0 + geo.h / 2.0);
    // Where the plate goes, at whole pixels so that nothing blurs.
    let reach = pad + thick;
    let (x, y, turned) = match side {
        Side::North => (mid_x - pw / 2.0, geo.y0 - 4.0 - reach, p.pixmap),
        Side::South => (mid_x - pw / 2.0, geo.y0 + geo.h + 4.0 - pad, p.pixmap),
        // Turned a quarter left: reads from bottom to top.
        Side::West => (
            geo.x0 - 4.0 - reach,
            mid_y - pw / 2.0,
            turn(&p.pixmap, false),
        ),
        // Turned a quarter right: reads from top to bottom.
        Side::East => (
            geo.x0 + geo.w + 4.0 + reach - ph,
            mid_y - pw / 2.0,
            turn(&p.pixmap, true),
        ),
    };
    blit(
        &mut c.pixmap,
        &turned,
        x.round() as i32,
        y.round() as i32,
        255,
    );
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

/// Draws a (premultiplied) sprite over an opaque pixmap with its top-left corner at (`x`, `y`),
/// at `opacity` out of 255: a plain source-over loop, several times faster than a pattern fill
/// for the many small sprites of a board.
pub fn blit(dst: &mut Pixmap, src: &Pixmap, x: i32, y: i32, opacity: u32) {
    let (dw, dh) = (dst.width() as i32, dst.height() as i32);
    let (sw, sh) = (src.width() as i32, src.height() as i32);
    let (from, to) = (src.data(), dst.data_mut());
    for sy in 0..sh {
        let ty = y + sy;
        if ty < 0 || ty >= dh {
            continue;
        }
        for sx in 0..sw {
            let tx = x + sx;
            let i = ((sy * sw + sx) * 4) as usize;
            let a = from[i + 3] as u32 * opacity / 255;
            if a == 0 || tx < 0 || tx >= dw {
                continue;
            }
            let j = ((ty * dw + tx) * 4) as usize;
            for k in 0..3 {
                let s = from[i + k] as u32 * opacity / 255;
                to[j + k] = (s + (to[j + k] as u32 * (255 - a) + 127) / 255).min(255) as u8;
            }
        }
    }
}

/// A filled rounded bar (a pill).
fn pill(c: &mut Canvas, x: f32, y: f32, w: f32, h: f32, fill: [u8; 4]) {
    let r = h / 2.0;
    c.disc(x + r, y + r, r, fill);
    c.disc(x + w - r, y + r, r, fill);
    c.rect(x + r, y, w - 2.0 * r, h, fill);
}
