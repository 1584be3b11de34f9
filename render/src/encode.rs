//! PNG encoding of a finished canvas.
//!
//! Boards are mostly flat colours: the 256 most common colours of an image cover about 99% of
//! its pixels, and the rest are anti-aliased edges. [`png`] writes an 8-bit indexed PNG whose
//! palette is those colours, mapping every other colour to its nearest palette entry; runs of
//! one colour are mapped once. That is about half the size of the RGB encoding
//! (docs/performance.md). [`png_rgb`] keeps the exact colours.

use std::collections::HashMap;

use tiny_skia::Pixmap;

fn write(
    w: u32,
    h: u32,
    data: &[u8],
    color: png::ColorType,
    palette: Option<Vec<u8>>,
    filter: png::Filter,
    deflate: png::DeflateCompression,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 * 1024);
    {
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(color);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_deflate_compression(deflate);
        encoder.set_filter(filter);
        if let Some(p) = palette {
            encoder.set_palette(p);
        }
        let Ok(mut writer) = encoder.write_header() else {
            return Vec::new();
        };
        if writer.write_image_data(data).is_err() {
            return Vec::new();
        }
    }
    out
}

/// The palette split into channels, so that the distance loop vectorises.
struct Channels {
    r: [i32; 256],
    g: [i32; 256],
    b: [i32; 256],
    len: usize,
}

impl Channels {
    fn new(palette: &[u32]) -> Channels {
        let mut ch = Channels {
            r: [i32::MAX / 4; 256],
            g: [0; 256],
            b: [0; 256],
            len: palette.len(),
        };
        for (i, c) in palette.iter().enumerate() {
            ch.r[i] = (c >> 16 & 0xFF) as i32;
            ch.g[i] = (c >> 8 & 0xFF) as i32;
            ch.b[i] = (c & 0xFF) as i32;
        }
        ch
    }

    fn nearest(&self, c: u32) -> u8 {
        let (r, g, b) = (
            (c >> 16 & 0xFF) as i32,
            (c >> 8 & 0xFF) as i32,
            (c & 0xFF) as i32,
        );
        let mut d = [0i32; 256];
        for (((d, pr), pg), pb) in d.iter_mut().zip(&self.r).zip(&self.g).zip(&self.b) {
            let (dr, dg, db) = (pr - r, pg - g, pb - b);
            *d = dr.saturating_mul(dr) + dg * dg + db * db;
        }
        let mut best = 0;
        for (i, di) in d.iter().enumerate().take(self.len).skip(1) {
            if *di < d[best] {
                best = i;
            }
        }
        best as u8
    }
}

/// A cheap, well-mixed hash for 24-bit colours.
#[derive(Default)]
struct ColourHasher(u64);

impl std::hash::Hasher for ColourHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u32(*b as u32);
        }
    }
    fn write_u32(&mut self, n: u32) {
        let h = (n as u64 ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

type Colours<V> = HashMap<u32, V, std::hash::BuildHasherDefault<ColourHasher>>;

/// Encodes an opaque pixmap as an 8-bit indexed PNG (see the module documentation).
pub fn png(pixmap: &Pixmap) -> Vec<u8> {
    let (w, h) = (pixmap.width(), pixmap.height());
    let colour = |p: &[u8]| (p[0] as u32) << 16 | (p[1] as u32) << 8 | p[2] as u32;
    let mut counts: Colours<u32> = Colours::with_capacity_and_hasher(4096, Default::default());
    let mut run = (u32::MAX, 0u32);
    for c in pixmap.data().chunks_exact(4).map(colour) {
        if c == run.0 {
            run.1 += 1;
        } else {
            if run.1 > 0 {
                *counts.entry(run.0).or_insert(0) += run.1;
            }
            run = (c, 1);
        }
    }
    *counts.entry(run.0).or_insert(0) += run.1;
    let mut by_count: Vec<(u32, u32)> = counts.into_iter().collect();
    by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<u32> = by_count.iter().take(256).map(|(c, _)| *c).collect();
    let channels = Channels::new(&palette);
    let mut index: Colours<u8> = palette
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, i as u8))
        .collect();
    let mut data = Vec::with_capacity((w * h) as usize);
    let mut last = (u32::MAX, 0u8);
    for c in pixmap.data().chunks_exact(4).map(colour) {
        if c != last.0 {
            let i = *index.entry(c).or_insert_with(|| channels.nearest(c));
            last = (c, i);
        }
        data.push(last.1);
    }
    let bytes = palette
        .iter()
        .flat_map(|c| [(c >> 16) as u8, (c >> 8) as u8, *c as u8])
        .collect();
    write(
        w,
        h,
        &data,
        png::ColorType::Indexed,
        Some(bytes),
        png::Filter::Adaptive,
        png::DeflateCompression::FdeflateUltraFast,
    )
}

/// A fixed palette for a theme: its colours and, for every 15-bit colour, the nearest entry.
pub struct Palette {
    colours: Vec<u32>,
    lut: Vec<u8>,
}

fn bucket(c: u32) -> usize {
    (((c >> 19) & 0x1F) << 10 | ((c >> 11) & 0x1F) << 5 | ((c >> 3) & 0x1F)) as usize
}

impl Palette {
    /// The 256 most common colours of `samples` (images showing everything the theme draws),
    /// with a lookup table sending every colour to its nearest entry; each palette colour maps
    /// to itself (the commonest wins where two share a table cell).
    pub fn from_samples(samples: &[&Pixmap]) -> Palette {
        let mut counts: Colours<u32> = Colours::default();
        for p in samples {
            for c in p.data().chunks_exact(4) {
                *counts
                    .entry((c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32)
                    .or_insert(0) += 1;
            }
        }
        let mut by_count: Vec<(u32, u32)> = counts.into_iter().collect();
        by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let colours: Vec<u32> = by_count.iter().take(256).map(|(c, _)| *c).collect();
        let channels = Channels::new(&colours);
        let mut lut: Vec<u8> = (0..32768u32)
            .map(|i| {
                let centre = ((i >> 10) & 0x1F) << 19
                    | ((i >> 5) & 0x1F) << 11
                    | (i & 0x1F) << 3
                    | 0x04_0404;
                channels.nearest(centre)
            })
            .collect();
        for (i, c) in colours.iter().enumerate().rev() {
            lut[bucket(*c)] = i as u8;
        }
        Palette { colours, lut }
    }
}

/// Encodes an opaque pixmap as an 8-bit indexed PNG against a fixed [`Palette`]: a pixel takes
/// the index of its left or upper neighbour when it has the same colour, else the table's.
pub fn png_with(pixmap: &Pixmap, palette: &Palette) -> Vec<u8> {
    write(
        pixmap.width(),
        pixmap.height(),
        &indices(pixmap, palette),
        png::ColorType::Indexed,
        Some(palette.bytes()),
        png::Filter::Adaptive,
        png::DeflateCompression::FdeflateUltraFast,
    )
}

/// [`png_with`], compressed with zlib at `level` (1 to 9) on unfiltered rows instead of the
/// fast PNG-tuned compressor. Boards full of small text (Lanko's square labels) come out about a
/// quarter smaller, for about half a millisecond more at level 1.
pub fn png_with_zlib(pixmap: &Pixmap, palette: &Palette, level: u8) -> Vec<u8> {
    write(
        pixmap.width(),
        pixmap.height(),
        &indices(pixmap, palette),
        png::ColorType::Indexed,
        Some(palette.bytes()),
        png::Filter::NoFilter,
        png::DeflateCompression::Level(level.clamp(1, 9)),
    )
}

/// The palette index of every pixel, row by row.
pub(crate) fn indices(pixmap: &Pixmap, palette: &Palette) -> Vec<u8> {
    let mut data = Vec::new();
    indices_into(pixmap, palette, &mut data);
    data
}

/// [`indices`] into `data`, which is resized to the pixmap's and keeps its allocation (a replay
/// maps one frame after another into the same buffer). A colour's index is the table's, so a
/// stretch of pixels equal to the row above takes that row's indices, and a run of one colour
/// is looked up once.
pub(crate) fn indices_into(pixmap: &Pixmap, palette: &Palette, data: &mut Vec<u8>) {
    /// Pixels compared with the row above at once.
    const STRETCH: usize = 16;
    let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
    let px = pixmap.data();
    data.clear();
    data.resize(w * h, 0);
    let mut last = (u32::MAX, 0u8);
    // Looks each pixel up, but once for a run of one colour.
    let mut lookup = |out: &mut [u8], pixels: &[u8]| {
        for (o, p) in out.iter_mut().zip(pixels.chunks_exact(4)) {
            // Red, green and blue as a little-endian word, alpha masked off.
            let c = u32::from_le_bytes([p[0], p[1], p[2], 0]);
            if c != last.0 {
                let bucket = (c >> 3 & 0x1F) << 10 | (c >> 11 & 0x1F) << 5 | (c >> 19 & 0x1F);
                last = (c, palette.lut[bucket as usize]);
            }
            *o = last.1;
        }
    };
    lookup(&mut data[..w], &px[..w * 4]);
    for y in 1..h {
        let (done, rest) = data.split_at_mut(y * w);
        let (above, out) = (&done[(y - 1) * w..], &mut rest[..w]);
        let (pixels_above, pixels) = (
            &px[(y - 1) * w * 4..y * w * 4],
            &px[y * w * 4..(y + 1) * w * 4],
        );
        let mut stretches = out
            .chunks_exact_mut(STRETCH)
            .zip(above.chunks_exact(STRETCH))
            .zip(
                pixels
                    .chunks_exact(STRETCH * 4)
                    .zip(pixels_above.chunks_exact(STRETCH * 4)),
            );
        for ((out, above), (p, q)) in stretches.by_ref() {
            let (p, q): (&[u8; STRETCH * 4], &[u8; STRETCH * 4]) = (
                p.try_into().expect("a stretch"),
                q.try_into().expect("a stretch"),
            );
            if p == q {
                out.copy_from_slice(above);
            } else {
                lookup(out, p);
            }
        }
        let tail = w / STRETCH * STRETCH;
        lookup(&mut out[tail..], &pixels[tail * 4..]);
    }
}

impl Palette {
    /// The number of colours (at most 256).
    pub(crate) fn len(&self) -> usize {
        self.colours.len()
    }

    /// The palette as PNG's PLTE bytes (red, green, blue for each colour), which is also GIF's
    /// colour table.
    pub(crate) fn bytes(&self) -> Vec<u8> {
        self.colours
            .iter()
            .flat_map(|c| [(c >> 16) as u8, (c >> 8) as u8, *c as u8])
            .collect()
    }
}

/// Encodes an opaque pixmap as an RGB PNG with its exact colours.
pub fn png_rgb(pixmap: &Pixmap) -> Vec<u8> {
    let (w, h) = (pixmap.width(), pixmap.height());
    let mut rgb = Vec::with_capacity((w * h * 3) as usize);
    for px in pixmap.data().chunks_exact(4) {
        rgb.extend_from_slice(&px[..3]);
    }
    write(
        w,
        h,
        &rgb,
        png::ColorType::Rgb,
        None,
        png::Filter::Adaptive,
        png::DeflateCompression::FdeflateUltraFast,
    )
}

/// Decodes a PNG into (width, height, RGB bytes), for tests that compare images.
pub fn decode_rgb(bytes: &[u8]) -> Option<(u32, u32, Vec<u8>)> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().ok()?;
    let mut buf = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut buf).ok()?;
    buf.truncate(info.buffer_size());
    let rgb = match info.color_type {
        png::ColorType::Rgb => buf,
        png::ColorType::Rgba => buf
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect(),
        _ => return None,
    };
    Some((info.width, info.height, rgb))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pixel's index straight from the table, as the indexed PNGs have always had them.
    fn reference(pixmap: &Pixmap, palette: &Palette) -> Vec<u8> {
        pixmap
            .data()
            .chunks_exact(4)
            .map(|p| palette.lut[bucket((p[0] as u32) << 16 | (p[1] as u32) << 8 | p[2] as u32)])
            .collect()
    }

    #[test]
    fn the_fast_mapping_gives_the_tables_index_for_every_pixel() {
        use muster_rules::Game;
        use muster_rules::lanrick::Lanrick;
        let record = include_str!("../../docs/examples/lanrick-whole-game.txt");
        let mut game = Lanrick::new();
        let palette = crate::lanrick::palette(crate::Theme::Classic);
        let mut data = Vec::new();
        for (i, text) in record
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .enumerate()
        {
            let seat = game.to_move().expect("the game goes on");
            let events = game.play_text(seat, text).expect("legal");
            if i % 9 == 0 {
                let view = crate::lanrick::LanrickView::new(&game, &events, ["Alice", "Bob"]);
                let pixmap = crate::lanrick::draw(&view, crate::Style::default()).pixmap;
                indices_into(&pixmap, palette, &mut data);
                assert!(
                    data == reference(&pixmap, palette),
                    "after decision {}",
                    i + 1
                );
            }
        }
        // Widths that are not a whole number of compared stretches, and odd colours.
        for (w, h) in [(1, 1), (17, 3), (33, 40), (720, 2)] {
            let mut pixmap = Pixmap::new(w, h).expect("a pixmap");
            for (k, p) in pixmap.data_mut().chunks_exact_mut(4).enumerate() {
                let c = if k % 7 < 3 {
                    0x123456
                } else {
                    (k as u32).wrapping_mul(0x9E3779B1)
                };
                p.copy_from_slice(&[(c >> 16) as u8, (c >> 8) as u8, c as u8, 255]);
            }
            for palette in [
                crate::lanko::palette(crate::Theme::Classic),
                crate::croquet::palette(crate::Theme::Classic),
            ] {
                indices_into(&pixmap, palette, &mut data);
                assert!(data == reference(&pixmap, palette), "{w}×{h}");
            }
        }
    }
}
