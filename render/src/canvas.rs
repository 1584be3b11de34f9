//! Drawing primitives over a tiny-skia pixmap: filled and stroked shapes, arrows, sprites and
//! text with the embedded font. Everything is anti-aliased and deterministic.
//!
//! A canvas has a scale: callers draw in the coordinates of a normal-sized board, and the
//! canvas draws every shape, line width, sprite position and glyph that much larger or smaller,
//! so that a small or large board is drawn natively rather than resampled.
//!
//! A canvas may begin as a copy of a [`Backdrop`] (what every board of a style shows, drawn
//! once); it then notes the columns of each row it draws on, so that an encoder need look again
//! only at those.
//!
//! Discs, rings, lines, arrows and rectangles are shaded here without tiny-skia's pipeline: each
//! pixel by the part of it the shape covers, taken from how far its centre lies inside the
//! shape's edge (the geometry is in canvas/geometry.rs); tiny-skia fills the few polygons.
//! Text is blended glyph by glyph from the embedded font's glyphs, each rasterised once
//! (canvas/glyph.rs).

mod backdrop;
mod geometry;
mod glyph;
mod sprite;

use ab_glyph::{Font, PxScale, ScaleFont};
use tiny_skia::{Color, FillRule, Paint, Path, PathBuilder, Pixmap, Stroke, Transform};

pub use crate::style::{rgb, rgba};
pub use backdrop::Backdrop;
use geometry::{Segment, Triangle, round_span};
pub use glyph::font;
use glyph::glyph;
pub use sprite::Sprite;

fn paint(c: [u8; 4]) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(Color::from_rgba8(c[0], c[1], c[2], c[3]));
    p.anti_alias = true;
    p
}

/// A pixmap with drawing helpers, at a scale.
pub struct Canvas {
    /// The pixels.
    pub pixmap: Pixmap,
    scale: f32,
    /// What it was drawn on, if it began as a copy of a backdrop.
    backdrop: Option<&'static Backdrop>,
    /// For a canvas on a backdrop, each pixel row's columns drawn on since (from, to; empty
    /// when from ≥ to): the encoder takes the rest from the backdrop.
    dirty: Vec<(u32, u32)>,
}

/// Horizontal placement of text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Align {
    /// Starting at x.
    Left,
    /// Centred on x.
    Center,
}

impl Canvas {
    /// A canvas of the given size filled with `background`.
    pub fn new(width: u32, height: u32, background: [u8; 4]) -> Canvas {
        Canvas::scaled(width as f32, height as f32, background, 1.0)
    }

    /// A canvas for drawing `width` × `height` at `scale`: its pixmap is that much larger or
    /// smaller, and so is everything drawn on it.
    pub fn scaled(width: f32, height: f32, background: [u8; 4], scale: f32) -> Canvas {
        let (w, h) = (
            ((width * scale).round() as u32).max(1),
            ((height * scale).round() as u32).max(1),
        );
        let mut pixmap = Pixmap::new(w, h).expect("a non-empty canvas");
        let [r, g, b, a] = background;
        pixmap.fill(Color::from_rgba8(r, g, b, a));
        Canvas {
            pixmap,
            scale,
            backdrop: None,
            dirty: Vec::new(),
        }
    }

    /// A canvas beginning as a copy of `backdrop` (drawn once at `scale`), drawn on at `scale`.
    pub fn on(backdrop: &'static Backdrop, scale: f32) -> Canvas {
        Canvas {
            pixmap: backdrop.pixmap.clone(),
            scale,
            backdrop: Some(backdrop),
            dirty: vec![(u32::MAX, 0); backdrop.pixmap.height() as usize],
        }
    }

    /// The backdrop the canvas began as, if any, with the columns of each row drawn on since.
    pub fn backdrop(&self) -> Option<(&'static Backdrop, &[(u32, u32)])> {
        self.backdrop.map(|b| (b, self.dirty.as_slice()))
    }

    /// Notes the pixels from (`x0`, `y0`) to (`x1`, `y1`) (exclusive, clamped to the pixmap)
    /// as drawn on.
    fn touch(&mut self, x0: i32, y0: i32, x1: i32, y1: i32) {
        if self.dirty.is_empty() {
            return;
        }
        let (w, h) = (self.pixmap.width() as i32, self.pixmap.height() as i32);
        let (x0, x1) = (x0.clamp(0, w) as u32, x1.clamp(0, w) as u32);
        if x0 >= x1 {
            return;
        }
        for y in y0.clamp(0, h)..y1.clamp(0, h) {
            let d = &mut self.dirty[y as usize];
            *d = (d.0.min(x0), d.1.max(x1));
        }
    }

    /// Notes what a path drawn with `grow` pixels either side of its outline covers.
    fn touch_path(&mut self, path: &Path, grow: f32) {
        let b = path.bounds();
        let s = self.scale;
        let g = grow * s + 2.0;
        self.touch(
            (b.left() * s - g).floor() as i32,
            (b.top() * s - g).floor() as i32,
            (b.right() * s + g).ceil() as i32,
            (b.bottom() * s + g).ceil() as i32,
        );
    }

    /// The scale everything is drawn at.
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// A length in pixels.
    pub fn px(&self, length: f32) -> f32 {
        length * self.scale
    }

    fn transform(&self) -> Transform {
        Transform::from_scale(self.scale, self.scale)
    }

    fn fill(&mut self, path: &Path, c: [u8; 4]) {
        self.touch_path(path, 0.0);
        let t = self.transform();
        self.pixmap
            .fill_path(path, &paint(c), FillRule::Winding, t, None);
    }

    fn stroke(&mut self, path: &Path, stroke: &Stroke, c: [u8; 4]) {
        self.touch_path(path, stroke.width / 2.0);
        let t = self.transform();
        self.pixmap.stroke_path(path, &paint(c), stroke, t, None);
    }

    /// Fills a rectangle, its edges anti-aliased by the part of each pixel they cover. At a
    /// scale other than 1 its edges are rounded to whole pixels, so that squares side by side
    /// meet without a seam.
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, c: [u8; 4]) {
        let s = self.scale;
        if s == 1.0 {
            self.area(x, y, x + w, y + h, c);
        } else {
            let snap = |v: f32| (v * s).round();
            self.area(snap(x), snap(y), snap(x + w), snap(y + h), c);
        }
    }

    /// Strokes a rectangle's outline: the line `width` wide centred on its edges.
    pub fn frame(&mut self, x: f32, y: f32, w: f32, h: f32, width: f32, c: [u8; 4]) {
        let s = self.scale;
        let (x0, y0, x1, y1, half) = (x * s, y * s, (x + w) * s, (y + h) * s, width * s / 2.0);
        // Top and bottom across the whole width, the sides between them.
        self.area(x0 - half, y0 - half, x1 + half, y0 + half, c);
        self.area(x0 - half, y1 - half, x1 + half, y1 + half, c);
        self.area(x0 - half, y0 + half, x0 + half, y1 - half, c);
        self.area(x1 - half, y0 + half, x1 + half, y1 - half, c);
    }

    /// Fills a circle.
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, c: [u8; 4]) {
        let s = self.scale;
        let (cx, cy, r) = (cx * s, cy * s, r * s);
        self.shade(
            (cx - r, cy - r, cx + r, cy + r),
            c,
            |y| round_span(cx, cy, r + 1.0, y),
            |x, y| r - ((x - cx) * (x - cx) + (y - cy) * (y - cy)).sqrt(),
        );
    }

    /// Strokes a circle: a ring `width` wide centred on radius `r`.
    pub fn ring(&mut self, cx: f32, cy: f32, r: f32, width: f32, c: [u8; 4]) {
        let s = self.scale;
        let (cx, cy, r, half) = (cx * s, cy * s, r * s, width * s / 2.0);
        let out = r + half;
        let hole = (r - half - 1.0).max(0.0);
        self.shade_holed(
            (cx - out, cy - out, cx + out, cy + out),
            c,
            |y| {
                (
                    round_span(cx, cy, out + 1.0, y),
                    round_span(cx, cy, hole, y),
                )
            },
            |x, y| half - (((x - cx) * (x - cx) + (y - cy) * (y - cy)).sqrt() - r).abs(),
        );
    }

    /// Strokes a circle with an `edge` either side (when it is not transparent), for a colour
    /// too light for what lies under it.
    pub fn ring_edged(
        &mut self,
        (cx, cy): (f32, f32),
        r: f32,
        width: f32,
        c: [u8; 4],
        edge: [u8; 4],
    ) {
        if edge[3] > 0 {
            self.ring(cx, cy, r, width + 3.0, edge);
        }
        self.ring(cx, cy, r, width, c);
    }

    /// A line with round ends.
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, c: [u8; 4]) {
        let s = self.scale;
        let seg = Segment::new((from.0 * s, from.1 * s), (to.0 * s, to.1 * s));
        let half = width * s / 2.0;
        self.shade(
            seg.bounds(half),
            c,
            |y| seg.span(y, half + 1.0),
            |x, y| half - seg.distance(x, y),
        );
    }

    /// An arrow from `from` to `to` with a filled head, shaft and head one shape (drawn once
    /// where they overlap).
    pub fn arrow(&mut self, from: (f32, f32), to: (f32, f32), width: f32, c: [u8; 4]) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1.0 {
            return;
        }
        let s = self.scale;
        let (ux, uy) = (dx / len, dy / len);
        let head = width * 2.6;
        let base = (to.0 - ux * head, to.1 - uy * head);
        let p = |(x, y): (f32, f32)| (x * s, y * s);
        let tip = p(to);
        let corners = [
            tip,
            p((base.0 - uy * head * 0.6, base.1 + ux * head * 0.6)),
            p((base.0 + uy * head * 0.6, base.1 - ux * head * 0.6)),
        ];
        let shaft = Segment::new(p(from), p(base));
        let half = width * s / 2.0;
        let triangle = Triangle::new(corners);
        let (a, b) = (shaft.bounds(half), triangle.bounds());
        let bounds = (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3));
        self.shade(
            bounds,
            c,
            |y| {
                let (a, b) = (shaft.span(y, half + 1.0), triangle.span(y));
                (a.0.min(b.0), a.1.max(b.1))
            },
            |x, y| (half - shaft.distance(x, y)).max(triangle.inside(x, y)),
        );
    }

    /// [`Canvas::shade`] for a shape with a hole: `spans` gives a row's outer span and the
    /// span of the hole, whose pixels are left alone.
    fn shade_holed(
        &mut self,
        bounds: (f32, f32, f32, f32),
        c: [u8; 4],
        spans: impl Fn(f32) -> ((f32, f32), (f32, f32)),
        signed: impl Fn(f32, f32) -> f32,
    ) {
        let (l, r) = (bounds.0, bounds.2);
        // The part left of the hole, then the part right of it.
        self.shade(
            bounds,
            c,
            |y| {
                let (outer, hole) = spans(y);
                if hole.0 < hole.1 {
                    (outer.0, hole.0.min(r))
                } else {
                    outer
                }
            },
            &signed,
        );
        self.shade(
            bounds,
            c,
            |y| {
                let (outer, hole) = spans(y);
                if hole.0 < hole.1 {
                    (hole.1.max(l), outer.1)
                } else {
                    (f32::INFINITY, f32::NEG_INFINITY)
                }
            },
            &signed,
        );
    }

    /// Blends `c` over the pixels of `bounds` (x0, y0, x1, y1, in pixels) whose centre row
    /// `span` says the shape may reach (from, to), with the coverage `signed` gives: the
    /// distance of the pixel's centre inside the shape's edge (negative outside), taken as the
    /// part of the pixel covered.
    fn shade(
        &mut self,
        bounds: (f32, f32, f32, f32),
        c: [u8; 4],
        span: impl Fn(f32) -> (f32, f32),
        signed: impl Fn(f32, f32) -> f32,
    ) {
        let (w, h) = (self.pixmap.width() as i32, self.pixmap.height() as i32);
        let y0 = ((bounds.1 - 1.0).floor() as i32).clamp(0, h);
        let y1 = ((bounds.3 + 1.0).ceil() as i32).clamp(0, h);
        let data = self.pixmap.data_mut();
        let dirty = &mut self.dirty;
        for py in y0..y1 {
            let y = py as f32 + 0.5;
            // The pixels whose centres lie in the span (which has a pixel's margin already),
            // within the bounds grown by a pixel.
            let (from, to) = span(y);
            let (from, to) = (from.max(bounds.0 - 1.0), to.min(bounds.2 + 1.0));
            let x0 = ((from - 0.5).ceil() as i32).clamp(0, w);
            let x1 = ((to - 0.5).floor() as i32 + 1).clamp(0, w);
            if x0 >= x1 {
                continue;
            }
            if let Some(d) = dirty.get_mut(py as usize) {
                *d = (d.0.min(x0 as u32), d.1.max(x1 as u32));
            }
            let row = &mut data[((py * w + x0) * 4) as usize..((py * w + x1) * 4) as usize];
            for (i, px) in row.chunks_exact_mut(4).enumerate() {
                let cover = (signed((x0 + i as i32) as f32 + 0.5, y) + 0.5).clamp(0.0, 1.0);
                if cover > 0.0 {
                    over(px, c, (cover * c[3] as f32 + 0.5) as u32);
                }
            }
        }
    }

    /// Fills the rectangle from (`x0`, `y0`) to (`x1`, `y1`), in pixels: each pixel by the part
    /// of it the rectangle covers.
    fn area(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, c: [u8; 4]) {
        if x1 <= x0 || y1 <= y0 {
            return;
        }
        let (w, h) = (self.pixmap.width() as i32, self.pixmap.height() as i32);
        let (px0, px1) = (
            (x0.floor() as i32).clamp(0, w),
            (x1.ceil() as i32).clamp(0, w),
        );
        let (py0, py1) = (
            (y0.floor() as i32).clamp(0, h),
            (y1.ceil() as i32).clamp(0, h),
        );
        // How much of pixel `i` the span from `a` to `b` covers.
        let part =
            |i: i32, a: f32, b: f32| (b.min(i as f32 + 1.0) - a.max(i as f32)).clamp(0.0, 1.0);
        self.touch(px0, py0, px1, py1);
        // The whole columns, and the partly covered ones at either end.
        let (inner0, inner1) = (
            (x0.ceil() as i32).clamp(px0, px1),
            (x1.floor() as i32).clamp(px0, px1),
        );
        let data = self.pixmap.data_mut();
        for py in py0..py1 {
            let rows = part(py, y0, y1);
            let row = &mut data[((py * w) * 4) as usize..((py * w + w) * 4) as usize];
            for x in (px0..inner0.min(px1)).chain(inner1.max(inner0)..px1) {
                let a = (rows * part(x, x0, x1) * c[3] as f32 + 0.5) as u32;
                if a > 0 {
                    over(&mut row[(x * 4) as usize..(x * 4 + 4) as usize], c, a);
                }
            }
            let inside = &mut row[(inner0 * 4) as usize..(inner1.max(inner0) * 4) as usize];
            let a = (rows * c[3] as f32 + 0.5) as u32;
            if a >= 255 {
                for px in inside.chunks_exact_mut(4) {
                    px.copy_from_slice(&c);
                }
            } else if a > 0 {
                over_run(inside, c, a);
            }
        }
    }

    /// Fills a closed polygon and, if asked, strokes its outline (`width`, colour) with round
    /// joins.
    pub fn polygon(&mut self, pts: &[(f32, f32)], fill: [u8; 4], edge: Option<(f32, [u8; 4])>) {
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
        self.fill(&path, fill);
        if let Some((width, colour)) = edge {
            let stroke = Stroke {
                width,
                line_join: tiny_skia::LineJoin::Round,
                ..Stroke::default()
            };
            self.stroke(&path, &stroke, colour);
        }
    }

    /// Draws a sprite (drawn at this canvas's scale) with its top-left corner at (`x`, `y`),
    /// at `opacity` out of 255.
    pub fn stamp(&mut self, sprite: &Sprite, x: f32, y: f32, opacity: u32) {
        let (px, py) = (
            (x * self.scale).round() as i32,
            (y * self.scale).round() as i32,
        );
        let pixels = sprite.pixmap();
        let (w, h) = (pixels.width() as i32, pixels.height() as i32);
        self.touch(px, py, px + w, py + h);
        sprite.stamp(&mut self.pixmap, px, py, opacity);
    }

    /// The width of `text` at `size` pixels.
    pub fn text_width(text: &str, size: f32) -> f32 {
        let scaled = font().as_scaled(PxScale::from(size));
        let mut width = 0.0;
        let mut prev = None;
        for ch in text.chars() {
            let id = scaled.glyph_id(ch);
            if let Some(p) = prev {
                width += scaled.kern(p, id);
            }
            width += scaled.h_advance(id);
            prev = Some(id);
        }
        width
    }

    /// The largest size up to `size` at which `text` fits an image `width` pixels wide, with a
    /// margin; never below 12 px.
    pub fn fit(width: u32, text: &str, size: f32) -> f32 {
        let room = width as f32 - 24.0;
        let w = Self::text_width(text, size);
        if w <= room {
            size
        } else {
            (size * room / w).floor().max(12.0)
        }
    }

    /// Draws a caption line centred on an image `width` wide, its baseline at `y`, at `size`
    /// or smaller if that is what fits; a line that does not fit even at the smallest size is
    /// cut with "…", so that nothing is drawn past the picture's edges.
    pub fn caption(&mut self, text: &str, width: u32, y: f32, size: f32, c: [u8; 4]) {
        let size = Canvas::fit(width, text, size);
        let room = width as f32 - 24.0;
        let text = if Self::text_width(text, size) > room {
            shorten(text, size, room)
        } else {
            text.to_string()
        };
        self.text(&text, width as f32 / 2.0, y, size, Align::Center, c);
    }

    /// Draws `text` with its baseline at `y`. Glyphs are rasterised once per character, size
    /// and quarter-pixel offset, then blended from the cache.
    pub fn text(&mut self, text: &str, x: f32, y: f32, size: f32, align: Align, c: [u8; 4]) {
        let s = self.scale;
        let (x, y, size) = (x * s, y * s, size * s);
        let scaled = font().as_scaled(PxScale::from(size));
        let mut pen = match align {
            Align::Left => x,
            Align::Center => x - Self::text_width(text, size) / 2.0,
        };
        let (w, h) = (self.pixmap.width() as i32, self.pixmap.height() as i32);
        let base = y.floor();
        let mut prev = None;
        for ch in text.chars() {
            let id = scaled.glyph_id(ch);
            if let Some(p) = prev {
                pen += scaled.kern(p, id);
            }
            let left = pen.floor();
            let bitmap = glyph(ch, size, pen - left, y - base);
            pen += scaled.h_advance(id);
            prev = Some(id);
            let Some(g) = bitmap else { continue };
            let (gx0, gy0) = (left as i32 + g.dx, base as i32 + g.dy);
            self.touch(gx0, gy0, gx0 + g.w as i32, gy0 + g.h as i32);
            let alpha = c[3] as u32;
            let data = self.pixmap.data_mut();
            for gy in 0..g.h {
                let py = base as i32 + g.dy + gy as i32;
                if py < 0 || py >= h {
                    continue;
                }
                for gx in 0..g.w {
                    let px = left as i32 + g.dx + gx as i32;
                    let cov = g.cov[(gy * g.w + gx) as usize] as u32;
                    if px < 0 || px >= w || cov == 0 {
                        continue;
                    }
                    let a = cov * alpha / 255;
                    let i = ((py * w + px) * 4) as usize;
                    for k in 0..3 {
                        let under = data[i + k] as u32;
                        data[i + k] = ((under * (255 - a) + c[k] as u32 * a + 127) / 255) as u8;
                    }
                }
            }
        }
    }
}

/// Blends the colour `c` at `alpha` (0–255) over the premultiplied pixel `px`.
#[inline]
fn over(px: &mut [u8], c: [u8; 4], alpha: u32) {
    let a = alpha.min(255);
    let keep = 255 - a;
    for k in 0..3 {
        px[k] = ((c[k] as u32 * a + px[k] as u32 * keep + 127) / 255) as u8;
    }
    px[3] = (a + (px[3] as u32 * keep + 127) / 255).min(255) as u8;
}

/// Blends `c` at `alpha` (0–254) over a run of premultiplied pixels, four pixels at a time
/// with a fixed pattern, so that the compiler vectorises it.
fn over_run(run: &mut [u8], c: [u8; 4], alpha: u32) {
    let keep = 255 - alpha;
    // Colour and alpha alike: out = (c·a + d·(255 − a)) / 255, the alpha's c being 255.
    let one = [
        c[0] as u32 * alpha + 127,
        c[1] as u32 * alpha + 127,
        c[2] as u32 * alpha + 127,
        255 * alpha + 127,
    ];
    let add: [u32; 16] = std::array::from_fn(|i| one[i % 4]);
    let blend = |d: &mut u8, add: u32| {
        let v = add + *d as u32 * keep;
        // v / 255 for v below 2^17.
        *d = ((v + (v >> 8) + 1) >> 8) as u8;
    };
    let mut chunks = run.chunks_exact_mut(16);
    for chunk in chunks.by_ref() {
        let chunk: &mut [u8; 16] = chunk.try_into().unwrap_or_else(|_| unreachable!());
        for j in 0..16 {
            blend(&mut chunk[j], add[j]);
        }
    }
    for (j, d) in chunks.into_remainder().iter_mut().enumerate() {
        blend(d, add[j]);
    }
}

/// Whether `c` steers the direction of the text around it (an embedding, override, isolate or
/// mark): the boards' text is drawn left to right, where such a character shows as nothing
/// but a missing glyph; in a name kept or shown elsewhere, it could reverse whatever follows
/// the name on its line (the bot's names are cleaned of it too).
pub fn steers_direction(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// `text` on one line (control characters as spaces, none that steers the direction of text),
/// shortened with "…" to fit `room` px.
pub(crate) fn shorten(text: &str, size: f32, room: f32) -> String {
    let chars: Vec<char> = (text.chars())
        .filter(|&c| !steers_direction(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let whole: String = chars.iter().collect();
    if Canvas::text_width(&whole, size) <= room {
        return whole;
    }
    let cut = |n: usize| format!("{}…", chars[..n].iter().collect::<String>().trim_end());
    // The longest prefix that fits with the ellipsis, by bisection (widths grow with length).
    let (mut lo, mut hi) = (0, chars.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if Canvas::text_width(&cut(mid), size) <= room {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(cut(lo))
        .filter(|s| Canvas::text_width(s, size) <= room)
        .unwrap_or_default()
}
