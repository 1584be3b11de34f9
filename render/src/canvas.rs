//! Drawing primitives over a tiny-skia pixmap: filled and stroked shapes, arrows, sprites and
//! text with the embedded font. Everything is anti-aliased and deterministic.
//!
//! A canvas has a scale: callers draw in the coordinates of a normal-sized board, and the
//! canvas draws every shape, line width, sprite position and glyph that much larger or smaller,
//! so that a small or large board is drawn natively rather than resampled.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use tiny_skia::{
    Color, FillRule, LineCap, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, Transform,
};

pub use crate::style::{rgb, rgba};

/// DejaVu Sans Bold (see assets/DejaVu-LICENSE.txt).
static FONT_BYTES: &[u8] = include_bytes!("../assets/DejaVuSans-Bold.ttf");

/// The embedded font, parsed once.
pub fn font() -> &'static FontRef<'static> {
    static FONT: std::sync::OnceLock<FontRef<'static>> = std::sync::OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_BYTES).expect("the embedded font parses"))
}

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
        Canvas { pixmap, scale }
    }

    /// A canvas over `pixmap` (a background drawn once, copied), drawn on at `scale`.
    pub fn over(pixmap: Pixmap, scale: f32) -> Canvas {
        Canvas { pixmap, scale }
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
        let t = self.transform();
        self.pixmap
            .fill_path(path, &paint(c), FillRule::Winding, t, None);
    }

    fn stroke(&mut self, path: &Path, stroke: &Stroke, c: [u8; 4]) {
        let t = self.transform();
        self.pixmap.stroke_path(path, &paint(c), stroke, t, None);
    }

    /// Fills a rectangle. At a scale other than 1 its edges are rounded to whole pixels, so
    /// that squares side by side meet without a seam.
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, c: [u8; 4]) {
        let s = self.scale;
        let r = if s == 1.0 {
            Rect::from_xywh(x, y, w, h)
        } else {
            let snap = |v: f32| (v * s).round();
            Rect::from_ltrb(snap(x), snap(y), snap(x + w), snap(y + h))
        };
        if let Some(r) = r {
            self.pixmap
                .fill_rect(r, &paint(c), Transform::identity(), None);
        }
    }

    /// Strokes a rectangle's outline.
    pub fn frame(&mut self, x: f32, y: f32, w: f32, h: f32, width: f32, c: [u8; 4]) {
        if let Some(r) = Rect::from_xywh(x, y, w, h) {
            let path = PathBuilder::from_rect(r);
            let stroke = Stroke {
                width,
                ..Stroke::default()
            };
            self.stroke(&path, &stroke, c);
        }
    }

    /// Fills a circle.
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, c: [u8; 4]) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
            self.fill(&path, c);
        }
    }

    /// Strokes a circle.
    pub fn ring(&mut self, cx: f32, cy: f32, r: f32, width: f32, c: [u8; 4]) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
            let stroke = Stroke {
                width,
                ..Stroke::default()
            };
            self.stroke(&path, &stroke, c);
        }
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
        let mut pb = PathBuilder::new();
        pb.move_to(from.0, from.1);
        pb.line_to(to.0, to.1);
        if let Some(path) = pb.finish() {
            let stroke = Stroke {
                width,
                line_cap: LineCap::Round,
                ..Stroke::default()
            };
            self.stroke(&path, &stroke, c);
        }
    }

    /// An arrow from `from` to `to` with a filled head.
    pub fn arrow(&mut self, from: (f32, f32), to: (f32, f32), width: f32, c: [u8; 4]) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1.0 {
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let head = width * 2.6;
        let base = (to.0 - ux * head, to.1 - uy * head);
        self.line(from, base, width, c);
        self.polygon(
            &[
                to,
                (base.0 - uy * head * 0.6, base.1 + ux * head * 0.6),
                (base.0 + uy * head * 0.6, base.1 - ux * head * 0.6),
            ],
            c,
            None,
        );
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
    pub fn stamp(&mut self, sprite: &Pixmap, x: f32, y: f32, opacity: u32) {
        let (px, py) = (
            (x * self.scale).round() as i32,
            (y * self.scale).round() as i32,
        );
        blit(&mut self.pixmap, sprite, px, py, opacity);
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

/// A rasterised glyph: its coverage and where it sits from the pen's pixel and the baseline.
struct GlyphBitmap {
    dx: i32,
    dy: i32,
    w: u32,
    h: u32,
    cov: Vec<u8>,
}

type GlyphKey = (char, u32, u8, u8);

/// The glyph for `ch` at `size` px with the pen `fx`, `fy` pixels past a whole pixel (to a
/// quarter pixel), from the cache or rasterised once.
fn glyph(ch: char, size: f32, fx: f32, fy: f32) -> Option<std::sync::Arc<GlyphBitmap>> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<GlyphKey, Option<Arc<GlyphBitmap>>>>> = OnceLock::new();
    let key = (
        ch,
        (size * 4.0).round() as u32,
        (fx * 4.0).floor() as u8,
        (fy * 4.0).floor() as u8,
    );
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(found) = cache.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return found.clone();
    }
    let scale = PxScale::from(key.1 as f32 / 4.0);
    let id = font().as_scaled(scale).glyph_id(ch);
    let at = ab_glyph::point(key.2 as f32 / 4.0, key.3 as f32 / 4.0);
    let made = font()
        .outline_glyph(id.with_scale_and_position(scale, at))
        .map(|outline| {
            let b = outline.px_bounds();
            let (w, h) = (
                b.width().ceil().max(0.0) as u32,
                b.height().ceil().max(0.0) as u32,
            );
            let mut cov = vec![0u8; (w * h) as usize];
            outline.draw(|gx, gy, c| {
                if gx < w && gy < h {
                    cov[(gy * w + gx) as usize] = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
                }
            });
            Arc::new(GlyphBitmap {
                dx: b.min.x.floor() as i32,
                dy: b.min.y.floor() as i32,
                w,
                h,
                cov,
            })
        });
    cache
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(key, made.clone());
    made
}
