//! Drawing primitives over a tiny-skia pixmap: filled and stroked shapes, arrows and text with
//! the embedded font. Everything is anti-aliased and deterministic.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use tiny_skia::{Color, FillRule, LineCap, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

/// DejaVu Sans Bold (see assets/DejaVu-LICENSE.txt).
static FONT_BYTES: &[u8] = include_bytes!("../assets/DejaVuSans-Bold.ttf");

/// The embedded font, parsed once.
pub fn font() -> &'static FontRef<'static> {
    static FONT: std::sync::OnceLock<FontRef<'static>> = std::sync::OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_BYTES).expect("the embedded font parses"))
}

/// An opaque colour from its hex code.
pub const fn rgb(hex: u32) -> [u8; 4] {
    [(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, 255]
}

/// A colour with an alpha.
pub const fn rgba(hex: u32, alpha: u8) -> [u8; 4] {
    [(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, alpha]
}

fn paint(c: [u8; 4]) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(Color::from_rgba8(c[0], c[1], c[2], c[3]));
    p.anti_alias = true;
    p
}

/// A pixmap with drawing helpers.
pub struct Canvas {
    /// The pixels.
    pub pixmap: Pixmap,
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
        let mut pixmap = Pixmap::new(width, height).expect("a non-empty canvas");
        let [r, g, b, a] = background;
        pixmap.fill(Color::from_rgba8(r, g, b, a));
        Canvas { pixmap }
    }

    /// Fills a rectangle.
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, c: [u8; 4]) {
        if let Some(r) = Rect::from_xywh(x, y, w, h) {
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
            self.pixmap
                .stroke_path(&path, &paint(c), &stroke, Transform::identity(), None);
        }
    }

    /// Fills a circle.
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, c: [u8; 4]) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
            self.pixmap.fill_path(
                &path,
                &paint(c),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }

    /// Strokes a circle.
    pub fn ring(&mut self, cx: f32, cy: f32, r: f32, width: f32, c: [u8; 4]) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
            let stroke = Stroke {
                width,
                ..Stroke::default()
            };
            self.pixmap
                .stroke_path(&path, &paint(c), &stroke, Transform::identity(), None);
        }
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
            self.pixmap
                .stroke_path(&path, &paint(c), &stroke, Transform::identity(), None);
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
        let mut pb = PathBuilder::new();
        pb.move_to(to.0, to.1);
        pb.line_to(base.0 - uy * head * 0.6, base.1 + ux * head * 0.6);
        pb.line_to(base.0 + uy * head * 0.6, base.1 - ux * head * 0.6);
        pb.close();
        if let Some(path) = pb.finish() {
            self.pixmap.fill_path(
                &path,
                &paint(c),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
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
