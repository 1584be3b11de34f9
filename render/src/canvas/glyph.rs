//! The embedded font, and its glyphs rasterised once for each character, size and
//! quarter-pixel offset, then kept for every board after.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};

/// DejaVu Sans Bold (see assets/DejaVu-LICENSE.txt).
static FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans-Bold.ttf");

/// The embedded font, parsed once.
pub fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_BYTES).expect("the embedded font parses"))
}

/// A rasterised glyph: its coverage and where it sits from the pen's pixel and the baseline.
pub(super) struct GlyphBitmap {
    pub(super) dx: i32,
    pub(super) dy: i32,
    pub(super) w: u32,
    pub(super) h: u32,
    pub(super) cov: Vec<u8>,
}

type GlyphKey = (char, u32, u8, u8);

/// The glyph for `ch` at `size` px with the pen `fx`, `fy` pixels past a whole pixel (to a
/// quarter pixel), from the cache or rasterised once.
pub(super) fn glyph(ch: char, size: f32, fx: f32, fy: f32) -> Option<Arc<GlyphBitmap>> {
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
