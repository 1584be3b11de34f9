//! PNG encoding of a finished canvas.
//!
//! Boards are mostly flat colours: the 256 most common colours of an image cover about 99% of
//! its pixels, and the rest are anti-aliased edges. [`png`] writes an 8-bit indexed PNG whose
//! palette is those colours, mapping every other colour to its nearest palette entry; runs of
//! one colour are mapped once. That is about half the size of the RGB encoding
//! (docs/performance.md). [`png_rgb`] keeps the exact colours.
//!
//! A board drawn on a [`Backdrop`] is encoded by [`png_of`]: what still shows the backdrop takes
//! the backdrop's indices, worked out once and kept with it, and only the columns the canvas
//! drew on are looked up.

mod deflate;

use std::collections::HashMap;
use std::sync::OnceLock;

use tiny_skia::Pixmap;

use crate::canvas::{Backdrop, Canvas};

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

/// The palette of `theme` kept in `cache` (one for each theme), made the first time from the
/// boards `samples` draws in that theme: every colour a game's boards and replays use.
pub(crate) fn themed(
    cache: &'static [OnceLock<Palette>; 3],
    theme: crate::style::Theme,
    samples: impl FnOnce(crate::style::Style) -> Vec<Pixmap>,
) -> &'static Palette {
    cache[theme as usize].get_or_init(|| {
        let style = crate::style::Style {
            theme,
            ..Default::default()
        };
        Palette::from_samples(&samples(style).iter().collect::<Vec<_>>())
    })
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
/// the index of its left or upper neighbour when it has the same colour, else the table's; the
/// rows unfiltered, compressed by [`deflate::zlib`], made for boards.
pub fn png_with(pixmap: &Pixmap, palette: &Palette) -> Vec<u8> {
    png_over(pixmap, palette, None)
}

/// [`png_with`] for a board drawn on a [`Backdrop`] (if the canvas has one): what still shows
/// the backdrop takes the backdrop's indices, worked out once.
pub fn png_of(canvas: &Canvas, palette: &Palette) -> Vec<u8> {
    png_over(&canvas.pixmap, palette, canvas.backdrop())
}

fn png_over(
    pixmap: &Pixmap,
    palette: &Palette,
    backdrop: Option<(&Backdrop, &[(u32, u32)])>,
) -> Vec<u8> {
    let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
    // Each row after its filter byte (none).
    let mut rows = Vec::new();
    let base = backdrop
        .filter(|(b, _)| b.pixmap.width() == pixmap.width() && b.pixmap.height() == pixmap.height())
        .map(|(b, dirty)| Base {
            pixmap: &b.pixmap,
            // The backdrop's indices, each row after a filter byte as a PNG's are.
            index: b.index(|pixels| {
                let mut index = Vec::new();
                indices_into(pixels, palette, &mut index, 1, None);
                index
            }),
            dirty,
        });
    indices_into(pixmap, palette, &mut rows, 1, base);
    let stream = deflate::zlib(&rows, w + 1);
    let mut out = Vec::with_capacity(stream.len() + palette.len() * 3 + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&(w as u32).to_be_bytes());
    header.extend_from_slice(&(h as u32).to_be_bytes());
    // 8 bits a pixel, palette colour, deflate, adaptive filtering's method, no interlace.
    header.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"PLTE", &palette.bytes());
    chunk(&mut out, b"IDAT", &stream);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// Appends a PNG chunk: its length, type, data and CRC-32.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// Whether two stretches of [`STRETCH`] pixels are equal: their words' differences or-ed
/// together, without a branch or a call (comparing the arrays calls `memcmp`, which cost more
/// than the comparison).
#[inline]
fn same(p: &[u8], q: &[u8]) -> bool {
    let mut diff = 0u64;
    for (a, b) in p.chunks_exact(8).zip(q.chunks_exact(8)) {
        let a = u64::from_le_bytes(a.try_into().unwrap_or([0; 8]));
        let b = u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
        diff |= a ^ b;
    }
    diff == 0 && p.len() == q.len()
}

/// Pixels compared at once.
const STRETCH: usize = 16;

/// What a board was drawn on: the backdrop's pixels and indices (laid out as the board's, a
/// filter byte before each row), and each row's columns drawn on since (from, to).
#[derive(Clone, Copy)]
pub(crate) struct Base<'a> {
    pixmap: &'a Pixmap,
    index: &'a [u8],
    dirty: &'a [(u32, u32)],
}

/// The palette index of every pixel, row by row, into `data`, which is resized and keeps its
/// allocation (a replay maps one frame after another into the same buffer); each row begins
/// with `lead` zero bytes (PNG's filter byte). A stretch of pixels equal to the same stretch of
/// `base` (a backdrop's pixels and indices, laid out as `data`) takes its indices; one equal to
/// the row above takes that row's; others are looked up in the palette's table, a run of one
/// colour once.
pub(crate) fn indices_into(
    pixmap: &Pixmap,
    palette: &Palette,
    data: &mut Vec<u8>,
    lead: usize,
    base: Option<Base<'_>>,
) {
    let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
    let stride = w + lead;
    let px = pixmap.data();
    data.clear();
    data.resize(stride * h, 0);
    // Looks each pixel up in the table: no pixel waits for the one before, so the lookups
    // overlap.
    let lookup = |out: &mut [u8], pixels: &[u8]| {
        for (o, p) in out.iter_mut().zip(pixels.chunks_exact(4)) {
            let bucket =
                (p[0] as usize >> 3) << 10 | (p[1] as usize >> 3) << 5 | (p[2] as usize >> 3);
            *o = palette.lut[bucket];
        }
    };
    let row_bytes = w * 4;
    for y in 0..h {
        let (done, rest) = data.split_at_mut(y * stride);
        let out = &mut rest[lead..lead + w];
        let pixels = &px[y * row_bytes..(y + 1) * row_bytes];
        // What the row can copy: the backdrop's row, and the row above.
        let backdrop = base.map(|b| {
            (
                &b.pixmap.data()[y * row_bytes..(y + 1) * row_bytes],
                &b.index[y * stride + lead..y * stride + lead + w],
            )
        });
        // Only what was drawn on differs from the backdrop.
        let (mut from, mut to) = (0, w);
        if let (Some(b), Some((_, index))) = (base, backdrop) {
            let (a, z) = b.dirty.get(y).copied().unwrap_or((0, w as u32));
            out.copy_from_slice(index);
            if a >= z {
                continue;
            }
            (from, to) = ((a as usize) / STRETCH * STRETCH, (z as usize).min(w));
        }
        let above = (y > 0).then(|| {
            (
                &px[(y - 1) * row_bytes..y * row_bytes],
                &done[(y - 1) * stride + lead..(y - 1) * stride + lead + w],
            )
        });
        if from == 0 && to == w {
            // Whole rows first (one `memcmp` each).
            if let Some((_, i)) = backdrop.filter(|(p, _)| pixels == *p) {
                out.copy_from_slice(i);
                continue;
            }
            if let Some((_, i)) = above.filter(|(p, _)| pixels == *p) {
                out.copy_from_slice(i);
                continue;
            }
        }
        let mut x = from;
        while x + STRETCH <= to {
            let (bytes, cells) = (x * 4..(x + STRETCH) * 4, x..x + STRETCH);
            let p = &pixels[bytes.clone()];
            if let Some((_, i)) = backdrop.filter(|(b, _)| same(p, &b[bytes.clone()])) {
                out[cells.clone()].copy_from_slice(&i[cells]);
            } else if let Some((_, i)) = above.filter(|(a, _)| same(p, &a[bytes.clone()])) {
                out[cells.clone()].copy_from_slice(&i[cells]);
            } else {
                lookup(&mut out[cells], p);
            }
            x += STRETCH;
        }
        lookup(&mut out[x..to], &pixels[x * 4..to * 4]);
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
                indices_into(&pixmap, palette, &mut data, 0, None);
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
                indices_into(&pixmap, palette, &mut data, 0, None);
                assert!(data == reference(&pixmap, palette), "{w}×{h}");
            }
        }
    }
}
