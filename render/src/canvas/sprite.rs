//! Sprites: what boards show many times over (men, pieces, seat plates), drawn once and then
//! stamped row by row, the opaque stretches copied and the translucent ones blended.

use tiny_skia::Pixmap;

/// A picture drawn once and stamped on many boards (a man, a piece, a seat's plate): its
/// pixels, and each row cut into stretches that are opaque (copied as they are) or partly
/// transparent (blended), the transparent rest left out.
pub struct Sprite {
    pixmap: Pixmap,
    /// Row, first column, length, and whether the stretch is opaque.
    runs: Vec<(u32, u32, u32, bool)>,
}

impl Sprite {
    /// The sprite of these (premultiplied) pixels.
    pub fn new(pixmap: Pixmap) -> Sprite {
        let w = pixmap.width();
        let mut runs = Vec::new();
        for (y, row) in pixmap.data().chunks_exact(w as usize * 4).enumerate() {
            let kind = |x: u32| match row[x as usize * 4 + 3] {
                0 => 0,
                255 => 2,
                _ => 1,
            };
            let mut x = 0;
            while x < w {
                let k = kind(x);
                let start = x;
                while x < w && kind(x) == k {
                    x += 1;
                }
                if k > 0 {
                    runs.push((y as u32, start, x - start, k == 2));
                }
            }
        }
        Sprite { pixmap, runs }
    }

    /// Its pixels.
    pub fn pixmap(&self) -> &Pixmap {
        &self.pixmap
    }

    /// Draws it over `dst` with its top-left corner at (`x`, `y`), at `opacity` out of 255:
    /// opaque stretches copied (at full opacity), the others blended source-over.
    pub(super) fn stamp(&self, dst: &mut Pixmap, x: i32, y: i32, opacity: u32) {
        let (dw, dh) = (dst.width() as i32, dst.height() as i32);
        let sw = self.pixmap.width() as usize;
        let (from, to) = (self.pixmap.data(), dst.data_mut());
        for &(ry, rx, len, opaque) in &self.runs {
            let ty = y + ry as i32;
            if ty < 0 || ty >= dh {
                continue;
            }
            // The part of the stretch that lands on the pixmap.
            let (a, b) = ((x + rx as i32).max(0), (x + (rx + len) as i32).min(dw));
            if a >= b {
                continue;
            }
            let sx = (a - x) as usize;
            let src =
                &from[(ry as usize * sw + sx) * 4..(ry as usize * sw + sx + (b - a) as usize) * 4];
            let start = ((ty * dw + a) * 4) as usize;
            let d = &mut to[start..start + src.len()];
            if opaque && opacity >= 255 {
                d.copy_from_slice(src);
                continue;
            }
            for (sp, dp) in src.chunks_exact(4).zip(d.chunks_exact_mut(4)) {
                let a = sp[3] as u32 * opacity / 255;
                for k in 0..3 {
                    let s = sp[k] as u32 * opacity / 255;
                    dp[k] = (s + (dp[k] as u32 * (255 - a) + 127) / 255).min(255) as u8;
                }
            }
        }
    }
}
