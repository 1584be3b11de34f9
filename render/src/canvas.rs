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

    /// Draws `text` with its baseline at `y`.
    pub fn text(&mut self, text: &str, x: f32, y: f32, size: f32, align: Align, c: [u8; 4]) {
        let scaled = font().as_scaled(PxScale::from(size));
        let mut pen = match align {
            Align::Left => x,
            Align::Center => x - Self::text_width(text, size) / 2.0,
        };
        let (w, h) = (self.pixmap.width() as i32, self.pixmap.height() as i32);
        let mut prev = None;
        for ch in text.chars() {
            let id = scaled.glyph_id(ch);
            if let Some(p) = prev {
                pen += scaled.kern(p, id);
            }
            let glyph = id.with_scale_and_position(PxScale::from(size), ab_glyph::point(pen, y));
            pen += scaled.h_advance(id);
            prev = Some(id);
            let Some(outline) = font().outline_glyph(glyph) else {
                continue;
            };
            let bounds = outline.px_bounds();
            let data = self.pixmap.data_mut();
            outline.draw(|gx, gy, coverage| {
                let px = bounds.min.x as i32 + gx as i32;
                let py = bounds.min.y as i32 + gy as i32;
                if px < 0 || py < 0 || px >= w || py >= h {
                    return;
                }
                let alpha = coverage.clamp(0.0, 1.0) * c[3] as f32 / 255.0;
                let i = ((py * w + px) * 4) as usize;
                for k in 0..3 {
                    let under = data[i + k] as f32;
                    data[i + k] = (under + (c[k] as f32 - under) * alpha).round() as u8;
                }
            });
        }
    }
}
