//! Link cards: the landscape picture a chat shows when a page's link is posted (OpenGraph's
//! `og:image`), 1200 × 630 px as the large previews of Discord, Matrix clients and others are
//! laid out. A game's card has its board on the left and, beside it, the game, the players and
//! whose move it is or how it ended; a card without a board (an event's standings, a player's
//! ratings) has its lines across the whole width. Lines too long are wrapped, then cut with
//! "…", so that nothing leaves the picture. The same input always gives the same bytes.

use crate::canvas::{Align, Canvas};
use crate::style::Theme;

/// A card's width, in pixels.
pub const WIDTH: u32 = 1200;
/// A card's height, in pixels.
pub const HEIGHT: u32 = 630;

/// The space around the card's contents, and between the board and the words.
const MARGIN: f32 = 40.0;
/// The board's box: the card's height less its margins.
const BOARD: f32 = HEIGHT as f32 - 2.0 * MARGIN;

/// What a card says.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Card {
    /// The first line, largest: the game or the page (`Lanrick · g12`).
    pub title: String,
    /// The line that matters most, in the theme's strong colour: whose move, the result, the
    /// leader.
    pub status: String,
    /// The lines under it: the players, the standings, the ratings.
    pub lines: Vec<String>,
    /// The last line, small: where it is from.
    pub footer: String,
}

/// A decoded picture: width, height, and its pixels as RGB bytes.
pub struct Picture<'a> {
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// Three bytes a pixel, row by row.
    pub rgb: &'a [u8],
}

/// The card as a PNG: `board`, if there is one, on the left (scaled to fit its box), and the
/// words of `card`, in `theme`'s colours.
pub fn png(board: Option<&Picture<'_>>, card: &Card, theme: Theme) -> Vec<u8> {
    let colours = theme.colours();
    let mut canvas = Canvas::new(WIDTH, HEIGHT, colours.paper);
    let left = match board {
        Some(picture) => {
            place(&mut canvas, picture);
            MARGIN * 2.0 + BOARD
        }
        None => MARGIN * 1.5,
    };
    let room = WIDTH as f32 - left - MARGIN;
    let mut y = MARGIN;
    let mut write = |canvas: &mut Canvas, text: &str, size: f32, most: usize, c: [u8; 4]| {
        for line in wrapped(text, size, room, most) {
            y += size * 1.25;
            if y > HEIGHT as f32 - MARGIN - 34.0 {
                return;
            }
            canvas.text(&line, left, y, size, Align::Left, c);
        }
        y += size * 0.45;
    };
    write(&mut canvas, &card.title, 46.0, 2, colours.ink);
    write(&mut canvas, &card.status, 36.0, 3, colours.call);
    for line in &card.lines {
        write(&mut canvas, line, 30.0, 2, colours.ink);
    }
    let footer = crate::canvas::shorten(&card.footer, 24.0, room);
    canvas.text(
        &footer,
        left,
        HEIGHT as f32 - MARGIN,
        24.0,
        Align::Left,
        colours.soft_ink,
    );
    crate::encode::png_rgb(&canvas.pixmap)
}

/// `text` in lines of at most `room` px at `size`, broken between words; at most `most` lines,
/// the last cut with "…" if there is more.
fn wrapped(text: &str, size: f32, room: f32, most: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut words = text.split_whitespace().peekable();
    while let Some(word) = words.next() {
        let tried = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if line.is_empty() || Canvas::text_width(&tried, size) <= room {
            line = tried;
            continue;
        }
        lines.push(std::mem::take(&mut line));
        line = word.to_string();
        if lines.len() == most {
            let rest: Vec<&str> = std::iter::once(word).chain(words.by_ref()).collect();
            let last = lines.pop().unwrap_or_default();
            lines.push(format!("{last} {}", rest.join(" ")));
            line.clear();
            break;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.truncate(most);
    lines
        .into_iter()
        .map(|l| crate::canvas::shorten(&l, size, room))
        .collect()
}

/// Draws `picture` scaled to fit the board's box (its longer side the box's), centred in it.
fn place(canvas: &mut Canvas, picture: &Picture<'_>) {
    let (sw, sh) = (picture.width as f32, picture.height as f32);
    if sw < 1.0 || sh < 1.0 || picture.rgb.len() < (picture.width * picture.height * 3) as usize {
        return;
    }
    let scale = (BOARD / sw).min(BOARD / sh);
    let (w, h) = ((sw * scale).round() as u32, (sh * scale).round() as u32);
    let x0 = (MARGIN + (BOARD - w as f32) / 2.0).round() as u32;
    let y0 = (MARGIN + (BOARD - h as f32) / 2.0).round() as u32;
    let stride = canvas.pixmap.width() as usize;
    let data = canvas.pixmap.data_mut();
    for y in 0..h {
        for x in 0..w {
            let [r, g, b] = sample(picture, (x as f32 + 0.5) / scale, (y as f32 + 0.5) / scale);
            let i = ((y0 + y) as usize * stride + (x0 + x) as usize) * 4;
            data[i..i + 4].copy_from_slice(&[r, g, b, 255]);
        }
    }
}

/// The colour of `picture` around (`x`, `y`), in its own pixels: the mean of the pixels a card's
/// pixel covers when shrinking, interpolated between the nearest four when growing.
fn sample(picture: &Picture<'_>, x: f32, y: f32) -> [u8; 3] {
    let (w, h) = (picture.width as i64, picture.height as i64);
    let at = |px: i64, py: i64| {
        let (px, py) = (px.clamp(0, w - 1), py.clamp(0, h - 1));
        let i = ((py * w + px) * 3) as usize;
        [
            picture.rgb[i] as f32,
            picture.rgb[i + 1] as f32,
            picture.rgb[i + 2] as f32,
        ]
    };
    let (fx, fy) = (x - 0.5, y - 0.5);
    let (x0, y0) = (fx.floor() as i64, fy.floor() as i64);
    let (tx, ty) = (fx - fx.floor(), fy - fy.floor());
    let mix = |a: [f32; 3], b: [f32; 3], t: f32| std::array::from_fn(|k| a[k] + (b[k] - a[k]) * t);
    let top = mix(at(x0, y0), at(x0 + 1, y0), tx);
    let bottom = mix(at(x0, y0 + 1), at(x0 + 1, y0 + 1), tx);
    let c: [f32; 3] = mix(top, bottom, ty);
    c.map(|v| v.round().clamp(0.0, 255.0) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_is_the_size_a_chat_lays_out_and_the_same_input_gives_the_same_bytes() {
        let card = Card {
            title: "Lanrick · g12".into(),
            status: "bob (Black) to play".into(),
            lines: vec!["alice (White)".into(), "bob (Black)".into()],
            footer: "Muster · after 14 decisions".into(),
        };
        let rgb = vec![200u8; 600 * 640 * 3];
        let board = Picture {
            width: 600,
            height: 640,
            rgb: &rgb,
        };
        let one = png(Some(&board), &card, Theme::Classic);
        let (w, h, _) = crate::encode::decode_rgb(&one).expect("a PNG");
        assert_eq!((w, h), (WIDTH, HEIGHT));
        assert_eq!(one, png(Some(&board), &card, Theme::Classic));
        assert_ne!(one, png(None, &card, Theme::Classic));
    }

    #[test]
    fn a_line_too_long_is_wrapped_then_cut() {
        let long = "word ".repeat(80);
        let lines = wrapped(&long, 30.0, 500.0, 2);
        assert_eq!(lines.len(), 2);
        assert!(lines[1].ends_with('…'), "{lines:?}");
        for l in &lines {
            assert!(Canvas::text_width(l, 30.0) <= 500.0, "{l}");
        }
        let one = "W".repeat(300);
        let cut = wrapped(&one, 36.0, 500.0, 3);
        assert_eq!(cut.len(), 1);
        assert!(cut[0].ends_with('…') && Canvas::text_width(&cut[0], 36.0) <= 500.0);
        assert_eq!(
            wrapped("bob (Black) to play", 36.0, 500.0, 3),
            ["bob (Black) to play"]
        );
    }
}
