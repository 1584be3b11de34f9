//! A game's replay as an animated GIF: one frame for the start and one for every decision, each
//! drawn as the board images are and mapped to the game's fixed palette (the same colour → index
//! mapping as the PNG boards), so that a replay's frames look exactly like the boards the
//! players saw.
//!
//! Frames are written as they come: the first whole, each later one as the smallest rectangle
//! that differs from the frame before (kept underneath), its unchanged pixels made transparent
//! (less than half the size of the rectangle written out). A Lanrick decision takes 5–8 KB,
//! most of it the new caption and arrows; the first board about 20 KB. Only the previous
//! frame's palette indices are kept, never the whole game.
//!
//! ```
//! use muster_render::animation::{Timing, Writer};
//! use muster_render::lanrick::{self, HEIGHT, LanrickView, WIDTH};
//! use muster_render::{Style, Theme};
//! use muster_rules::Game;
//! use muster_rules::lanrick::Lanrick;
//!
//! let mut game = Lanrick::new();
//! let mut gif = Writer::new(WIDTH, HEIGHT, lanrick::palette(Theme::Classic), Timing::default());
//! let style = Style::default();
//! gif.push(&lanrick::draw(&LanrickView::new(&game, &[], ["Alice", "Bob"]), style).pixmap)?;
//! let seat = game.to_move().expect("to move");
//! let events = game.play_text(seat, "h7").expect("legal");
//! gif.push(&lanrick::draw(&LanrickView::new(&game, &events, ["Alice", "Bob"]), style).pixmap)?;
//! assert_eq!(gif.frames(), 2);
//! assert_eq!(&gif.finish()[..6], b"GIF89a");
//! # Ok::<(), String>(())
//! ```

mod lzw;

use std::borrow::Cow;

use gif::{DisposalMethod, Encoder, Frame, Repeat};
use tiny_skia::Pixmap;

use crate::encode::{Palette, indices_into};

/// How much smaller than a board a replay's frames are drawn: a GIF grows with every pixel that
/// changes, and a replay is watched at the width of a chat message (a 100-decision Lanrick game
/// takes about 330 KB at 80 %, 790 KB at full size).
pub const SCALE: f32 = 0.8;

/// `pixmap` shrunk by `scale` (0 < `scale` ≤ 1), each pixel taken from the nearest one: no
/// colour is made that the board does not have, so the frames stay in its palette and compress
/// as well as the board (bilinear filtering made a fifth more bytes, for no visible gain at
/// 80 %), and it takes a tenth of a millisecond.
pub fn shrunk(pixmap: &Pixmap, scale: f32) -> Pixmap {
    let scale = scale.clamp(0.05, 1.0);
    let (sw, sh) = (pixmap.width() as usize, pixmap.height() as usize);
    let w = ((sw as f32 * scale).round() as usize).max(1);
    let h = ((sh as f32 * scale).round() as usize).max(1);
    let mut out = Pixmap::new(w as u32, h as u32).expect("a non-empty frame");
    // The source column of each column, the centre of its span (as nearest filtering takes).
    let columns: Vec<usize> = (0..w)
        .map(|x| ((2 * x + 1) * sw / (2 * w)).min(sw - 1))
        .collect();
    let source = pixmap.data();
    let data = out.data_mut();
    for y in 0..h {
        let sy = ((2 * y + 1) * sh / (2 * h)).min(sh - 1);
        let from = &source[sy * sw * 4..(sy + 1) * sw * 4];
        let to = &mut data[y * w * 4..(y + 1) * w * 4];
        for (x, sx) in columns.iter().enumerate() {
            to[x * 4..x * 4 + 4].copy_from_slice(&from[sx * 4..sx * 4 + 4]);
        }
    }
    out
}

/// How long frames show.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Timing {
    /// Each frame but the last, in milliseconds.
    pub frame_ms: u32,
    /// The last frame (the final position), in milliseconds.
    pub last_ms: u32,
}

impl Default for Timing {
    /// 1.2 seconds a decision, 5 seconds on the final position.
    fn default() -> Timing {
        Timing {
            frame_ms: 1200,
            last_ms: 5000,
        }
    }
}

/// GIF's delay unit, a hundredth of a second, rounded to the nearest.
fn centiseconds(ms: u32) -> u16 {
    u16::try_from(ms.saturating_add(5) / 10).unwrap_or(u16::MAX)
}

/// A frame compressed and waiting for its delay (the last frame shows longer).
struct Pending {
    rect: Rect,
    transparent: Option<u8>,
    /// The minimum code size, then the LZW codes.
    data: Vec<u8>,
}

/// An animated GIF being written, one frame per position.
pub struct Writer {
    width: usize,
    height: usize,
    palette: &'static Palette,
    timing: Timing,
    /// The GIF so far, or why nothing can be written (a size GIF cannot hold).
    encoder: Result<Encoder<Vec<u8>>, String>,
    pending: Option<Pending>,
    /// The palette indices of the frame before (empty before the first).
    previous: Vec<u8>,
    /// The frame being added, as palette indices.
    current: Vec<u8>,
    /// The changed rectangle's pixels, handed to the LZW encoder.
    rect: Vec<u8>,
    /// A compressed frame's buffer, free for the next one.
    spare: Vec<u8>,
    lzw: lzw::Lzw,
    frames: usize,
}

impl Writer {
    /// A GIF of `width`×`height` frames against `palette` (one global palette: the game's fixed
    /// palette, see [`crate::encode::Palette`]).
    pub fn new(width: u32, height: u32, palette: &'static Palette, timing: Timing) -> Writer {
        let encoder = match (u16::try_from(width), u16::try_from(height)) {
            (Ok(w), Ok(h)) if w > 0 && h > 0 => Encoder::new(Vec::new(), w, h, &palette.bytes())
                .and_then(|mut e| e.set_repeat(Repeat::Infinite).map(|()| e))
                .map_err(|e| format!("the GIF's header: {e}")),
            _ => Err(format!(
                "a GIF holds frames of 1 to 65535 pixels a side, not {width}×{height}"
            )),
        };
        Writer {
            width: width as usize,
            height: height as usize,
            palette,
            timing,
            encoder,
            pending: None,
            previous: Vec::new(),
            current: Vec::new(),
            rect: Vec::new(),
            spare: Vec::new(),
            lzw: lzw::Lzw::new(),
            frames: 0,
        }
    }

    /// Adds a frame: an opaque pixmap of the writer's size (any other size is an `Err`, and
    /// nothing is added). A frame identical to the one before still counts, as a 1×1 frame
    /// that changes nothing.
    pub fn push(&mut self, pixmap: &Pixmap) -> Result<(), String> {
        let encoder = self.encoder.as_mut().map_err(|e| e.clone())?;
        let (w, h) = (self.width, self.height);
        if (pixmap.width() as usize, pixmap.height() as usize) != (w, h) {
            return Err(format!(
                "a {}×{} frame for a {w}×{h} replay",
                pixmap.width(),
                pixmap.height()
            ));
        }
        indices_into(pixmap, self.palette, &mut self.current, 0, None);
        let (rect, transparent, pixels) = if self.previous.is_empty() {
            let whole = Rect {
                left: 0,
                top: 0,
                width: w,
                height: h,
            };
            (whole, None, &self.current[..])
        } else {
            match changed(&self.previous, &self.current, w) {
                // Nothing changed: one pixel, as it was.
                None => {
                    let one = Rect {
                        left: 0,
                        top: 0,
                        width: 1,
                        height: 1,
                    };
                    (one, None, &self.current[..1])
                }
                Some(r) => {
                    let t = cut(
                        &self.previous,
                        &self.current,
                        w,
                        r,
                        self.palette.len(),
                        &mut self.rect,
                    );
                    (r, t, &self.rect[..])
                }
            }
        };
        let mut data = std::mem::take(&mut self.spare);
        self.lzw.encode(pixels, &mut data);
        // The frame before is not the last: it shows for `frame_ms`.
        if let Some(before) = self.pending.take() {
            write(encoder, &before, centiseconds(self.timing.frame_ms))
                .map_err(|e| format!("frame {}: {e}", self.frames))?;
            self.spare = before.data;
        }
        self.pending = Some(Pending {
            rect,
            transparent,
            data,
        });
        std::mem::swap(&mut self.previous, &mut self.current);
        self.frames += 1;
        Ok(())
    }

    /// Frames pushed so far.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Bytes written so far (roughly the GIF's size), so that a caller can stop early under a
    /// size cap. It is the size [`Writer::finish`] would return now.
    pub fn len(&self) -> usize {
        let Ok(encoder) = &self.encoder else {
            return 0;
        };
        let written = encoder.get_ref().len();
        // The last frame: its control block (8 bytes) and descriptor (10), the code size, its
        // data in blocks of up to 255 bytes each with a length byte, and the closing zero.
        let pending = self.pending.as_ref().map_or(0, |f| {
            let data = f.data.len().saturating_sub(1);
            18 + 1 + data + data.div_ceil(255) + 1
        });
        // And the trailer.
        written + pending + 1
    }

    /// Whether nothing has been written: only when the writer cannot make a GIF of its size (the
    /// header is written at once).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The GIF: loops forever; the last frame held `last_ms`. Empty if the writer could not
    /// make a GIF of its size.
    pub fn finish(self) -> Vec<u8> {
        let Ok(mut encoder) = self.encoder else {
            return Vec::new();
        };
        if let Some(last) = &self.pending {
            // Writing to a Vec fails only on a malformed frame, which push never makes.
            let _ = write(&mut encoder, last, centiseconds(self.timing.last_ms));
        }
        encoder.into_inner().unwrap_or_default()
    }
}

/// Writes a compressed frame, kept underneath the next one, shown for `delay` centiseconds.
fn write(
    encoder: &mut Encoder<Vec<u8>>,
    f: &Pending,
    delay: u16,
) -> Result<(), gif::EncodingError> {
    encoder.write_lzw_pre_encoded_frame(&Frame {
        delay,
        dispose: DisposalMethod::Keep,
        transparent: f.transparent,
        left: f.rect.left as u16,
        top: f.rect.top as u16,
        width: f.rect.width as u16,
        height: f.rect.height as u16,
        buffer: Cow::Borrowed(&f.data),
        ..Frame::default()
    })
}

/// A rectangle of the canvas, in pixels.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Rect {
    left: usize,
    top: usize,
    width: usize,
    height: usize,
}

/// The smallest rectangle holding every pixel that differs between `a` and `b` (rows of `w`),
/// or `None` when they are the same.
fn changed(a: &[u8], b: &[u8], w: usize) -> Option<Rect> {
    let rows = || a.chunks_exact(w).zip(b.chunks_exact(w));
    let top = rows().position(|(x, y)| x != y)?;
    let bottom = a.len() / w - 1 - rows().rev().position(|(x, y)| x != y)?;
    let (mut left, mut right) = (w, 0);
    for (x, y) in rows().skip(top).take(bottom + 1 - top) {
        if let Some(l) = first_difference(&x[..left], &y[..left]) {
            left = l;
        }
        if let Some(r) = last_difference(&x[right..], &y[right..]) {
            right += r;
        }
        if left == 0 && right == w - 1 {
            break;
        }
    }
    Some(Rect {
        left,
        top,
        width: right + 1 - left,
        height: bottom + 1 - top,
    })
}

/// Bytes compared at once when looking for a difference: wide enough for the compiler's vector
/// compare, narrow enough that a difference is refined quickly.
const CHUNK: usize = 32;

fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    let skip = a
        .chunks(CHUNK)
        .zip(b.chunks(CHUNK))
        .position(|(x, y)| x != y)?
        * CHUNK;
    a[skip..]
        .iter()
        .zip(&b[skip..])
        .position(|(x, y)| x != y)
        .map(|i| skip + i)
}

fn last_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    let chunk = a
        .rchunks(CHUNK)
        .zip(b.rchunks(CHUNK))
        .position(|(x, y)| x != y)?;
    let end = a.len() - chunk * CHUNK;
    let start = end.saturating_sub(CHUNK);
    a[start..end]
        .iter()
        .zip(&b[start..end])
        .rposition(|(x, y)| x != y)
        .map(|i| start + i)
}

/// Copies rectangle `r` of `now` into `out`, each pixel equal to `before`'s made transparent,
/// and returns the transparent index: one that no changed pixel uses — the first past the
/// palette's `colours` when there is room, else the last (the palette's rarest colour) or the
/// highest other unused one — or `None`, with every pixel copied as it is, when the changed
/// pixels use all 256.
fn cut(
    before: &[u8],
    now: &[u8],
    w: usize,
    r: Rect,
    colours: usize,
    out: &mut Vec<u8>,
) -> Option<u8> {
    let rows = || {
        (r.top..r.top + r.height).map(move |y| {
            let span = y * w + r.left..y * w + r.left + r.width;
            (&before[span.clone()], &now[span])
        })
    };
    out.clear();
    out.resize(r.width * r.height, 0);
    // Writes the rectangle with `t` for the unchanged pixels; whether a changed one is `t`.
    let fill = |out: &mut Vec<u8>, t: u8| {
        let mut clash = false;
        for (o, (a, b)) in out.chunks_exact_mut(r.width).zip(rows()) {
            for (o, (x, y)) in o.iter_mut().zip(a.iter().zip(b)) {
                let same = x == y;
                *o = if same { t } else { *y };
                clash |= !same & (*y == t);
            }
        }
        clash
    };
    let first = u8::try_from(colours).unwrap_or(u8::MAX);
    if !fill(out, first) {
        return Some(first);
    }
    let mut used = [false; 256];
    for (a, b) in rows() {
        for (x, y) in a.iter().zip(b) {
            if x != y {
                used[*y as usize] = true;
            }
        }
    }
    match used.iter().rposition(|u| !u) {
        Some(t) => {
            fill(out, t as u8);
            Some(t as u8)
        }
        None => {
            for (o, (_, b)) in out.chunks_exact_mut(r.width).zip(rows()) {
                o.copy_from_slice(b);
            }
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Style, Theme};
    use muster_rules::Game;

    /// A replay's frames, and the palette indices each is expected to show.
    struct Replay {
        gif: Vec<u8>,
        expected: Vec<Vec<u8>>,
    }

    fn replay(
        width: u32,
        height: u32,
        palette: &'static Palette,
        timing: Timing,
        frames: impl IntoIterator<Item = Pixmap>,
    ) -> Replay {
        let mut writer = Writer::new(width, height, palette, timing);
        let mut expected = Vec::new();
        for pixmap in frames {
            writer.push(&pixmap).expect("a frame of the right size");
            let mut index = Vec::new();
            indices_into(&pixmap, palette, &mut index, 0, None);
            expected.push(index);
            assert_eq!(writer.frames(), expected.len());
        }
        let len = writer.len();
        let gif = writer.finish();
        assert_eq!(len, gif.len(), "len() is the size finish() gives");
        Replay { gif, expected }
    }

    /// Decodes `r.gif` and checks it frame by frame: the canvas, the loop, the delays, and
    /// that compositing each frame (kept underneath, transparency honoured) gives exactly the
    /// palette indices of the position pushed.
    fn check(r: &Replay, width: u32, height: u32, timing: Timing) {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(&r.gif[..]).expect("a GIF");
        assert_eq!(
            (decoder.width() as u32, decoder.height() as u32),
            (width, height)
        );
        assert_eq!(decoder.repeat(), Repeat::Infinite);
        let (w, h) = (width as usize, height as usize);
        let mut canvas = vec![0u8; w * h];
        let mut n = 0;
        while let Some(frame) = decoder.read_next_frame().expect("a frame") {
            let want = &r.expected[n];
            let last = n + 1 == r.expected.len();
            let delay = if last {
                timing.last_ms / 10
            } else {
                timing.frame_ms / 10
            };
            assert_eq!(u32::from(frame.delay), delay, "frame {n}'s delay");
            assert_eq!(frame.dispose, DisposalMethod::Keep);
            let (left, top) = (frame.left as usize, frame.top as usize);
            let (fw, fh) = (frame.width as usize, frame.height as usize);
            assert!(
                left + fw <= w && top + fh <= h,
                "frame {n} inside the canvas"
            );
            if n == 0 {
                assert_eq!((fw, fh), (w, h), "the first frame is whole");
            }
            for (y, row) in frame.buffer.chunks_exact(fw).enumerate() {
                for (x, p) in row.iter().enumerate() {
                    if frame.transparent != Some(*p) {
                        canvas[(top + y) * w + left + x] = *p;
                    }
                }
            }
            assert!(canvas == *want, "frame {n} composites to its position");
            n += 1;
        }
        assert_eq!(n, r.expected.len(), "one frame per position");
    }

    const NAMES: [&str; 2] = ["Alice", "Bob"];

    fn moves(record: &str) -> impl Iterator<Item = &str> {
        record
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
    }

    #[test]
    fn a_whole_lanrick_game_replays_exactly_and_small() {
        use crate::lanrick::{HEIGHT, LanrickView, WIDTH, draw, palette};
        use muster_rules::lanrick::Lanrick;
        let record = include_str!("../../docs/examples/lanrick-whole-game.txt");
        let mut game = Lanrick::new();
        let mut frames = vec![draw(&LanrickView::new(&game, &[], NAMES), Style::default()).pixmap];
        for text in moves(record) {
            let seat = game.to_move().expect("the game goes on");
            let events = game.play_text(seat, text).expect("legal");
            frames.push(draw(&LanrickView::new(&game, &events, NAMES), Style::default()).pixmap);
        }
        let decisions = moves(record).count();
        assert!(game.outcome().is_some());
        let timing = Timing::default();
        let r = replay(WIDTH, HEIGHT, palette(Theme::Classic), timing, frames);
        assert_eq!(r.expected.len(), decisions + 1);
        check(&r, WIDTH, HEIGHT, timing);
        // About 790 KB, 7.5 KB a decision: the caption's first line is new on every board, and
        // so are the last decision's arrows. (400 KB was hoped for; exact frames of this size
        // do not get there.)
        assert!(r.gif.len() <= 860 * 1024, "{} bytes", r.gif.len());
    }

    #[test]
    fn shrinking_keeps_the_colours_and_takes_the_nearest_pixel() {
        let mut p = Pixmap::new(10, 10).expect("a pixmap");
        p.fill(tiny_skia::Color::from_rgba8(10, 20, 30, 255));
        // The right half another colour.
        for y in 0..10 {
            for x in 5..10 {
                let i = (y * 10 + x) * 4;
                p.data_mut()[i..i + 4].copy_from_slice(&[200, 100, 50, 255]);
            }
        }
        let s = shrunk(&p, 0.8);
        assert_eq!((s.width(), s.height()), (8, 8));
        for y in 0..8 {
            for x in 0..8 {
                let i = (y * 8 + x) * 4;
                let want: [u8; 4] = if x < 4 {
                    [10, 20, 30, 255]
                } else {
                    [200, 100, 50, 255]
                };
                assert_eq!(s.data()[i..i + 4], want, "({x}, {y})");
            }
        }
    }

    #[test]
    fn a_croquet_game_replays_exactly() {
        use crate::croquet::{HEIGHT, WIDTH, draw, palette};
        use muster_rules::croquet::Croquet;
        let record = include_str!("../../docs/examples/croquet-game.txt");
        let mut game = Croquet::new();
        let mut frames = vec![draw(&game, &[], NAMES).pixmap];
        for text in moves(record) {
            let seat = game.to_move().expect("the game goes on");
            let events = game.play_text(seat, text).expect("legal");
            frames.push(draw(&game, &events, NAMES).pixmap);
        }
        let timing = Timing {
            frame_ms: 700,
            last_ms: 3000,
        };
        let r = replay(WIDTH, HEIGHT, palette(Theme::Classic), timing, frames);
        assert_eq!(r.expected.len(), moves(record).count() + 1);
        check(&r, WIDTH, HEIGHT, timing);
        // About 620 KB: 8.5 KB a step (the rings of the next steps move with the ball).
        assert!(r.gif.len() <= 700 * 1024, "{} bytes", r.gif.len());
    }

    #[test]
    fn a_lanko88_game_replays_exactly() {
        use crate::lanko::{HEIGHT, LankoView, WIDTH, draw, palette};
        use muster_rules::lanko::{Lanko, Variant};
        let names = ["Alice", "Bob", "Carol", "Dave"];
        let mut game = Lanko::new(Variant::L88);
        let mut frames = vec![draw(&LankoView::new(&game, &[], names), Style::default()).pixmap];
        // Thirty decisions, each a legal move picked by a fixed rule.
        for i in 0..30 {
            let Some(seat) = game.to_move() else { break };
            let legal = game.legal_moves();
            let mv = &legal[(i * 7) % legal.len()];
            let events = game.play(seat, mv).expect("legal");
            frames.push(draw(&LankoView::new(&game, &events, names), Style::default()).pixmap);
        }
        assert!(frames.len() > 10);
        let timing = Timing::default();
        let r = replay(WIDTH, HEIGHT, palette(Theme::Classic), timing, frames);
        check(&r, WIDTH, HEIGHT, timing);
        assert!(r.gif.len() <= 400 * 1024, "{} bytes", r.gif.len());
    }

    #[test]
    fn an_unchanged_position_is_still_a_frame() {
        use crate::lanrick::{HEIGHT, LanrickView, WIDTH, draw, palette};
        use muster_rules::lanrick::Lanrick;
        let start = draw(
            &LanrickView::new(&Lanrick::new(), &[], NAMES),
            Style::default(),
        )
        .pixmap;
        let timing = Timing::default();
        let r = replay(
            WIDTH,
            HEIGHT,
            palette(Theme::Classic),
            timing,
            [start.clone(), start.clone(), start],
        );
        check(&r, WIDTH, HEIGHT, timing);
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(&r.gif[..]).expect("a GIF");
        let mut sizes = Vec::new();
        while let Some(f) = decoder.read_next_frame().expect("a frame") {
            sizes.push((f.width, f.height));
        }
        assert_eq!(sizes[1..], [(1, 1), (1, 1)]);
    }

    #[test]
    fn a_frame_of_another_size_is_refused() {
        use crate::lanrick::{HEIGHT, WIDTH, palette};
        let mut writer = Writer::new(WIDTH, HEIGHT, palette(Theme::Classic), Timing::default());
        let small = Pixmap::new(WIDTH, HEIGHT - 1).expect("a pixmap");
        assert!(writer.push(&small).is_err());
        assert_eq!(writer.frames(), 0);
        let mut right = Pixmap::new(WIDTH, HEIGHT).expect("a pixmap");
        right.fill(tiny_skia::Color::WHITE);
        writer.push(&right).expect("the right size");
        assert!(writer.push(&small).is_err());
        assert_eq!(writer.frames(), 1);
        assert!(!writer.finish().is_empty());

        // Too large for GIF at all: every frame is refused, and there is no GIF.
        let mut huge = Writer::new(70_000, 1, palette(Theme::Classic), Timing::default());
        let wide = Pixmap::new(70_000, 1).expect("a pixmap");
        assert!(huge.push(&wide).is_err());
        assert!(huge.is_empty());
        assert!(huge.finish().is_empty());
    }

    #[test]
    fn the_changed_rectangle_is_the_smallest() {
        let w = 40;
        let a = vec![3u8; w * 30];
        assert_eq!(changed(&a, &a, w), None);
        let mut b = a.clone();
        b[5 * w + 33] = 1;
        b[9 * w + 2] = 1;
        b[7 * w + 39] = 1;
        assert_eq!(
            changed(&a, &b, w),
            Some(Rect {
                left: 2,
                top: 5,
                width: 38,
                height: 5
            })
        );
        let mut c = a.clone();
        c[29 * w] = 0;
        assert_eq!(
            changed(&a, &c, w),
            Some(Rect {
                left: 0,
                top: 29,
                width: 1,
                height: 1
            })
        );
    }

    #[test]
    fn a_full_palette_still_finds_a_transparent_index_or_goes_without() {
        let w = 16;
        let mut out = Vec::new();
        // The changes use every index but 200: 200 is transparent.
        let before = vec![0u8; 256];
        let mut now: Vec<u8> = (0..=255).collect();
        now[200] = 1;
        let r = changed(&before, &now, w).expect("changed");
        assert_eq!(cut(&before, &now, w, r, 256, &mut out), Some(200));
        // Index 0 stays where it is, so only 1 to 255 are new: 0 is transparent.
        let now: Vec<u8> = (0..=255).collect();
        assert_eq!(cut(&before, &now, w, r, 256, &mut out), Some(0));
        assert_eq!(out, now);
        // With room in the palette, the first index past its colours.
        let now: Vec<u8> = (0..=255).map(|i| i % 42).collect();
        assert_eq!(cut(&before, &now, w, r, 42, &mut out), Some(42));
        assert_eq!(out[..3], [42, 1, 2]);
        // Every pixel changes, to all 256 indices: no transparency, the pixels as they are.
        let now: Vec<u8> = (0..512).map(|i| i as u8).collect();
        let before: Vec<u8> = now.iter().map(|p| p.wrapping_add(1)).collect();
        let r = changed(&before, &now, w).expect("changed");
        assert_eq!(cut(&before, &now, w, r, 256, &mut out), None);
        assert_eq!(out, now);
    }
}
