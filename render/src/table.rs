//! Tournament images: a table such as the standings (a title, a header row, rows of cells, an
//! optional footer) and a knockout bracket (rounds left to right, match boxes joined by connector
//! lines), drawn with the boards' font and colours and encoded as PNG. Both read on a phone:
//! 640 to 900 px wide, text at 18 px or more, a cell too long for its column shortened with "…".
//! The same input always gives the same bytes.

use crate::canvas::{Align as Place, Canvas, rgb, rgba};

/// How a column's cells are aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// From the column's left edge (names).
    Left,
    /// Up to the column's right edge (numbers).
    Right,
}

/// A table's column: its heading, and where the heading and the cells sit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub head: String,
    pub align: Align,
}

/// A table such as a tournament's standings: a title, a header row, rows of cells, and an
/// optional footer line. An empty title is not drawn; a row may have fewer cells than there are
/// columns (the rest are blank), not more; at most 64 rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub title: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<String>>,
    pub footer: Option<String>,
}

/// A knockout bracket: rounds left to right, each with its matches top to bottom; match `i` of
/// a round feeds match `i / 2` of the next (as its top side when `i` is even).
///
/// The bracket's size comes from its first round, or from the number of rounds if that is more:
/// a round with fewer matches than its place in the bracket has (not yet paired, or not yet
/// complete) is drawn with empty boxes where they are missing. At most 32 players (five rounds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    pub title: String,
    pub rounds: Vec<BracketRound>,
}

/// One round of a bracket: its heading ("Semi-finals") and its matches, top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BracketRound {
    pub title: String,
    pub matches: Vec<BracketMatch>,
}

/// One match: the two sides (a name with its seed, e.g. "ann (1)"; "bye" where there is none;
/// empty, drawn "…", while not known), the games' results as short text for each side (e.g.
/// "1 ½ 0"), and which side went through (Some(true) = top), None while undecided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BracketMatch {
    pub top: String,
    pub bottom: String,
    pub top_score: String,
    pub bottom_score: String,
    pub winner: Option<bool>,
}

const PAPER: [u8; 4] = rgb(0xF4EFE6);
const INK: [u8; 4] = rgb(0x3B2F22);
const SOFT_INK: [u8; 4] = rgb(0x7A6852);
const HEAD: [u8; 4] = rgb(0x5B4A36);
const ROW_FILL: [[u8; 4]; 2] = [rgb(0xFCFAF5), rgb(0xEADFC8)];
const RULE: [u8; 4] = rgba(0x3B2F22, 80);
const EMPTY_BOX: [u8; 4] = rgb(0xECE5D8);
const SCORE_SHADE: [u8; 4] = rgba(0x3B2F22, 20);
const WON: [u8; 4] = rgb(0xD9E8C4);
const GO: [u8; 4] = rgb(0x2E7D32);
const LINK: [u8; 4] = rgba(0x3B2F22, 120);

const MIN_WIDTH: f32 = 640.0;
const MAX_WIDTH: f32 = 900.0;
const MARGIN: f32 = 20.0;
const TITLE_SIZE: f32 = 26.0;
const TITLE_BAND: f32 = 58.0;
const TEXT_SIZE: f32 = 20.0;
const SMALL_SIZE: f32 = 18.0;
const PAD: f32 = 12.0;
const HEAD_H: f32 = 40.0;
const ROW_H: f32 = 38.0;
const FOOTER_BAND: f32 = 46.0;
const MAX_ROWS: usize = 64;

const LINE_H: f32 = 32.0;
const BOX_GAP: f32 = 18.0;
const SLOT: f32 = 2.0 * LINE_H + BOX_GAP;
const CONNECT: f32 = 36.0;
const BOX_PAD: f32 = 10.0;
const BOX_MAX: f32 = 300.0;
const ROUND_BAND: f32 = 34.0;
const MAX_FIRST: usize = 16;

fn width(text: &str, size: f32) -> f32 {
    Canvas::text_width(text, size)
}

/// The baseline that centres capitals of `size` px in the band from `top`, `h` high.
fn baseline(top: f32, h: f32, size: f32) -> f32 {
    (top + h / 2.0 + size * 0.36).round()
}

/// The space above a table or bracket: room for its title, or a margin.
fn top_band(title: &str) -> f32 {
    if title.trim().is_empty() {
        MARGIN
    } else {
        TITLE_BAND
    }
}

/// `text` on one line (control characters as spaces), shortened with "…" to fit `room` px.
fn shorten(text: &str, size: f32, room: f32) -> String {
    let chars: Vec<char> = (text.chars())
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let whole: String = chars.iter().collect();
    if width(&whole, size) <= room {
        return whole;
    }
    let cut = |n: usize| format!("{}…", chars[..n].iter().collect::<String>().trim_end());
    // The longest prefix that fits with the ellipsis, by bisection (widths grow with length).
    let (mut lo, mut hi) = (0, chars.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if width(&cut(mid), size) <= room {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(cut(lo))
        .filter(|s| width(s, size) <= room)
        .unwrap_or_default()
}

/// Draws `text` at baseline `y`, shortened to `room` and aligned in the span from `x`.
fn put(
    c: &mut Canvas,
    text: &str,
    (x, room, al): (f32, f32, Align),
    y: f32,
    style: (f32, [u8; 4]),
) {
    let (size, ink) = style;
    let s = shorten(text, size, room);
    let left = match al {
        Align::Left => x,
        Align::Right => x + room - width(&s, size),
    };
    c.text(&s, left, y, size, Place::Left, ink);
}

/// A canvas `w` by `h` with `text` centred at the top (shrunk to 18 px, then shortened to fit).
fn canvas(w: f32, h: f32, text: &str) -> Canvas {
    let mut c = Canvas::new(w as u32, h as u32, PAPER);
    if !text.trim().is_empty() {
        let size = Canvas::fit(w as u32, text, TITLE_SIZE).max(SMALL_SIZE);
        let s = shorten(text, size, w - 2.0 * MARGIN);
        c.text(&s, w / 2.0, 38.0, size, Place::Center, INK);
    }
    c
}

fn encode(c: &Canvas) -> Result<Vec<u8>, String> {
    let bytes = crate::encode::png(&c.pixmap);
    Some(bytes)
        .filter(|b| !b.is_empty())
        .ok_or_else(|| "PNG encoding failed".into())
}

/// Where a table's parts go: the image's size, the columns' widths, the header row's top.
struct TableLayout {
    width: f32,
    height: f32,
    cols: Vec<f32>,
    top: f32,
}

impl TableLayout {
    fn row_top(&self, i: usize) -> f32 {
        self.top + HEAD_H + ROW_H * i as f32
    }
}

/// Column widths summing to `room`: the natural widths, with the slack given to (or the excess
/// taken first from) the flexible columns, then from all columns alike.
fn share(natural: &[f32], flexible: &[bool], room: f32) -> Vec<f32> {
    let mut w = natural.to_vec();
    let mut flex: Vec<usize> = (0..w.len()).filter(|&i| flexible[i]).collect();
    if flex.is_empty() {
        flex = (0..w.len()).collect();
    }
    let total: f32 = w.iter().sum();
    if total <= room {
        let extra = (room - total) / flex.len() as f32;
        flex.iter().for_each(|&i| w[i] += extra);
        return w;
    }
    let floor = 7.0 * PAD;
    let give: f32 = flex.iter().map(|&i| (w[i] - floor).max(0.0)).sum();
    let k = if give > 0.0 {
        ((total - room) / give).min(1.0)
    } else {
        0.0
    };
    flex.iter()
        .for_each(|&i| w[i] -= (w[i] - floor).max(0.0) * k);
    let now: f32 = w.iter().sum();
    if now > room {
        w.iter_mut().for_each(|x| *x *= room / now);
    }
    w
}

fn table_layout(t: &Table) -> Result<TableLayout, String> {
    let (n, rows) = (t.columns.len(), t.rows.len());
    if n == 0 {
        return Err("a table needs at least one column".into());
    }
    if rows > MAX_ROWS {
        return Err(format!(
            "a table image holds at most {MAX_ROWS} rows, not {rows}"
        ));
    }
    if let Some(i) = t.rows.iter().position(|r| r.len() > n) {
        let cells = t.rows[i].len();
        return Err(format!("row {} has {cells} cells for {n} columns", i + 1));
    }
    let natural: Vec<f32> = (t.columns.iter().enumerate())
        .map(|(i, col)| {
            let cells = t.rows.iter().filter_map(|r| r.get(i));
            let head = width(&col.head, SMALL_SIZE);
            cells.fold(head, |m, s| m.max(width(s, TEXT_SIZE))).ceil() + 2.0 * PAD
        })
        .collect();
    let flexible: Vec<bool> = t.columns.iter().map(|c| c.align == Align::Left).collect();
    let total: f32 = natural.iter().sum();
    let w = (total + 2.0 * MARGIN).clamp(MIN_WIDTH, MAX_WIDTH).ceil();
    let top = top_band(&t.title);
    let bottom = if t.footer.is_some() {
        FOOTER_BAND
    } else {
        MARGIN
    };
    Ok(TableLayout {
        width: w,
        height: top + HEAD_H + ROW_H * rows as f32 + bottom,
        cols: share(&natural, &flexible, w - 2.0 * MARGIN),
        top,
    })
}

/// One row of cells (the header's or a body row's) in the band from `top`, `h` high.
fn cells(
    c: &mut Canvas,
    t: &Table,
    l: &TableLayout,
    row: &[String],
    (top, h): (f32, f32),
    style: (f32, [u8; 4]),
) {
    let (mut x, y) = (MARGIN, baseline(top, h, style.0));
    for ((col, w), text) in t.columns.iter().zip(&l.cols).zip(row) {
        put(c, text, (x + PAD, w - 2.0 * PAD, col.align), y, style);
        x += w;
    }
}

fn draw_table(t: &Table) -> Result<(Canvas, TableLayout), String> {
    let l = table_layout(t)?;
    let mut c = canvas(l.width, l.height, &t.title);
    let inner = l.width - 2.0 * MARGIN;
    c.rect(MARGIN, l.top, inner, HEAD_H, HEAD);
    let heads: Vec<String> = t.columns.iter().map(|col| col.head.clone()).collect();
    cells(&mut c, t, &l, &heads, (l.top, HEAD_H), (SMALL_SIZE, PAPER));
    for (i, row) in t.rows.iter().enumerate() {
        let y = l.row_top(i);
        c.rect(MARGIN, y, inner, ROW_H, ROW_FILL[i % 2]);
        cells(&mut c, t, &l, row, (y, ROW_H), (TEXT_SIZE, INK));
    }
    let end = l.row_top(t.rows.len());
    let edge = (MARGIN + 0.5, l.top + 0.5);
    c.frame(edge.0, edge.1, inner - 1.0, end - l.top - 1.0, 1.0, RULE);
    if let Some(footer) = &t.footer {
        let y = end + FOOTER_BAND - 16.0;
        put(
            &mut c,
            footer,
            (MARGIN, inner, Align::Left),
            y,
            (SMALL_SIZE, SOFT_INK),
        );
    }
    Ok((c, l))
}

/// The table as a PNG: as wide as its columns need (640 to 900 px; the left-aligned columns
/// take the slack, or give up room first), as tall as its rows. An error for a table without
/// columns, with more than 64 rows, or with a row longer than the header.
pub fn table_png(t: &Table) -> Result<Vec<u8>, String> {
    encode(&draw_table(t)?.0)
}

/// Where a bracket's parts go: the image's size, the first round's matches, the first column's
/// left edge, a box's width and that of its results (none when no match has any), the first
/// slot's top.
struct BracketLayout {
    width: f32,
    height: f32,
    first: usize,
    left: f32,
    box_w: f32,
    score_w: f32,
    top: f32,
}

impl BracketLayout {
    /// The top left corner of round `r`'s match `i`.
    fn at(&self, r: usize, i: usize) -> (f32, f32) {
        let centre = self.top + SLOT * (1 << r) as f32 * (i as f32 + 0.5);
        let x = self.left + r as f32 * (self.box_w + CONNECT);
        (x, centre - LINE_H)
    }
}

fn bracket_layout(b: &Bracket) -> Result<BracketLayout, String> {
    let (rounds, most) = (b.rounds.len(), 2 * MAX_FIRST);
    if rounds == 0 {
        return Err("a bracket needs at least one round".into());
    }
    if rounds > MAX_FIRST.trailing_zeros() as usize + 1 {
        return Err(format!(
            "a bracket image holds at most {most} players, not {rounds} rounds"
        ));
    }
    let mut first = 1usize << (rounds - 1);
    for (r, round) in b.rounds.iter().enumerate() {
        let n = round.matches.len();
        if n > MAX_FIRST >> r {
            let r = r + 1;
            return Err(format!(
                "a bracket image holds at most {most} players: round {r} has {n} matches"
            ));
        }
        first = first.max((n << r).next_power_of_two());
    }
    let all = || b.rounds.iter().flat_map(|r| &r.matches);
    let widest = |s: f32, t: &String| s.max(width(t, SMALL_SIZE));
    let name_w = all().flat_map(|m| [&m.top, &m.bottom]).fold(0.0, widest);
    let score_w = all()
        .flat_map(|m| [&m.top_score, &m.bottom_score])
        .fold(0.0, widest);
    let score_w = if score_w > 0.0 {
        score_w.ceil() + 2.0 * BOX_PAD
    } else {
        0.0
    };
    let heads = b.rounds.iter().map(|r| &r.title).fold(0.0, widest);
    let natural = (name_w.ceil() + score_w + 2.0 * BOX_PAD)
        .max(heads)
        .max(120.0);
    let joins = CONNECT * (rounds - 1) as f32;
    let w = (2.0 * MARGIN + natural * rounds as f32 + joins)
        .clamp(MIN_WIDTH, MAX_WIDTH)
        .ceil();
    let box_w = ((w - 2.0 * MARGIN - joins) / rounds as f32)
        .min(BOX_MAX)
        .floor();
    let top = top_band(&b.title) + ROUND_BAND;
    Ok(BracketLayout {
        width: w,
        height: top + SLOT * first as f32 - BOX_GAP / 2.0 + MARGIN,
        first,
        left: ((w - box_w * rounds as f32 - joins) / 2.0).floor(),
        box_w,
        score_w: score_w.min((box_w * 0.4).floor()),
        top,
    })
}

/// One match's box: the two sides with their results (shaded when there are any), the winner's
/// side in green; an empty box with "…" for a match not yet paired.
fn match_box(c: &mut Canvas, l: &BracketLayout, (x, y): (f32, f32), m: Option<&BracketMatch>) {
    let w = l.box_w;
    c.rect(
        x,
        y,
        w,
        2.0 * LINE_H,
        if m.is_some() { ROW_FILL[0] } else { EMPTY_BOX },
    );
    let sides = m.map_or([("", ""); 2], |m| {
        [
            (&m.top[..], &m.top_score[..]),
            (&m.bottom[..], &m.bottom_score[..]),
        ]
    });
    let winner = m.and_then(|m| m.winner);
    let scored =
        m.is_some_and(|m| !(m.top_score.trim().is_empty() && m.bottom_score.trim().is_empty()));
    for (k, (name, score)) in sides.into_iter().enumerate() {
        let top = y + LINE_H * k as f32;
        let won = winner == Some(k == 0);
        if won {
            c.rect(x, top, w, LINE_H, WON);
        }
        if scored && l.score_w > 0.0 {
            c.rect(x + w - l.score_w, top, l.score_w, LINE_H, SCORE_SHADE);
        }
        let (name, score) = (name.trim(), score.trim());
        let quiet = name.is_empty() || name.eq_ignore_ascii_case("bye");
        let ink = if quiet || (winner.is_some() && !won) {
            SOFT_INK
        } else {
            INK
        };
        let name = if name.is_empty() { "…" } else { name };
        let (base, style) = (baseline(top, LINE_H, SMALL_SIZE), (SMALL_SIZE, ink));
        let room = w - l.score_w - 2.0 * BOX_PAD;
        put(c, name, (x + BOX_PAD, room, Align::Left), base, style);
        let room = l.score_w - 2.0 * BOX_PAD;
        put(
            c,
            score,
            (x + w - l.score_w + BOX_PAD, room, Align::Right),
            base,
            style,
        );
    }
    c.rect(x, y + LINE_H, w, 1.0, RULE);
    c.frame(x + 0.5, y + 0.5, w - 1.0, 2.0 * LINE_H - 1.0, 1.0, RULE);
}

fn draw_bracket(b: &Bracket) -> Result<(Canvas, BracketLayout), String> {
    let l = bracket_layout(b)?;
    let mut c = canvas(l.width, l.height, &b.title);
    // The connectors first, the winners' over the others, then the boxes over their ends.
    for bold in [false, true] {
        for (r, round) in b.rounds.iter().enumerate().take(b.rounds.len() - 1) {
            for i in 0..l.first >> r {
                let winner = round.matches.get(i).and_then(|m| m.winner);
                if winner.is_some() != bold {
                    continue;
                }
                let (x, y) = l.at(r, i);
                let from = y + LINE_H * winner.map_or(1.0, |top| if top { 0.5 } else { 1.5 });
                let (nx, ny) = l.at(r + 1, i / 2);
                let to = ny + LINE_H * if i % 2 == 0 { 0.5 } else { 1.5 };
                let (a, mid) = (x + l.box_w, x + l.box_w + CONNECT / 2.0);
                let (pen, ink) = if bold { (3.5, GO) } else { (1.5, LINK) };
                c.line((a, from), (mid, from), pen, ink);
                c.line((mid, from), (mid, to), pen, ink);
                c.line((mid, to), (nx, to), pen, ink);
            }
        }
    }
    for (r, round) in b.rounds.iter().enumerate() {
        let span = (l.at(r, 0).0, l.box_w, Align::Left);
        put(
            &mut c,
            &round.title,
            span,
            l.top - 12.0,
            (SMALL_SIZE, SOFT_INK),
        );
        for i in 0..l.first >> r {
            match_box(&mut c, &l, l.at(r, i), round.matches.get(i));
        }
    }
    Ok((c, l))
}

/// The bracket as a PNG: a column of match boxes a round, each match joined to the one it
/// feeds, the winner's line in bold green. An error for a bracket without rounds, or of more
/// than 32 players.
pub fn bracket_png(b: &Bracket) -> Result<Vec<u8>, String> {
    encode(&draw_bracket(b)?.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::decode_rgb;

    fn s(v: &str) -> String {
        v.to_string()
    }

    fn standings(rows: usize) -> Table {
        let heads = ["#", "Name", "Pts", "Games", "BhC1", "Bh", "SB", "Wins"];
        let players = [
            ["1", "alice", "4.5", "5", "12", "14.5", "12.25", "4"],
            [
                "2",
                "Bartholomew Featherstonehaugh",
                "4",
                "5",
                "11.5",
                "13",
                "10",
                "3",
            ],
            ["3", "cara", "3.5", "5", "12.5", "15", "9.75", "3"],
            ["4", "dora", "2.5", "5", "11", "12.5", "5.5", "2"],
            ["5", "ed", "2", "5", "10", "11", "3", "1"],
            ["6", "fay (w)", "1.5", "3", "7.5", "8", "1.75", "1"],
            ["7", "gus", "1", "4", "9.5", "10.5", "0.5", "0"],
        ];
        Table {
            title: s("Spring Lanrick: standings after round 5 of 5"),
            columns: (heads.iter())
                .map(|h| Column {
                    head: s(h),
                    align: if *h == "Name" {
                        Align::Left
                    } else {
                        Align::Right
                    },
                })
                .collect(),
            rows: (0..rows)
                .map(|i| players[i % 7].iter().map(|c| s(c)).collect())
                .collect(),
            footer: Some(s(
                "Tie-breaks: Buchholz cut-1, Buchholz, Sonneborn-Berger, wins",
            )),
        }
    }

    fn game(top: &str, bottom: &str, scores: [&str; 2], winner: Option<bool>) -> BracketMatch {
        BracketMatch {
            top: s(top),
            bottom: s(bottom),
            top_score: s(scores[0]),
            bottom_score: s(scores[1]),
            winner,
        }
    }

    fn round(title: &str, matches: Vec<BracketMatch>) -> BracketRound {
        BracketRound {
            title: s(title),
            matches,
        }
    }

    /// Seven players on eight slots: the first round played, one semi-final under way.
    fn eight() -> Bracket {
        Bracket {
            title: s("Spring Knockout"),
            rounds: vec![
                round(
                    "Quarter-finals",
                    vec![
                        game("ann (1)", "bye", ["", ""], Some(true)),
                        game("dora (4)", "ed (5)", ["1 ½", "0 ½"], Some(true)),
                        game("bob (2)", "gus (7)", ["0 1 1", "1 0 0"], Some(true)),
                        game("cara (3)", "fay (6)", ["½ 0", "½ 1"], Some(false)),
                    ],
                ),
                round(
                    "Semi-finals",
                    vec![
                        game("ann (1)", "dora (4)", ["1", "0"], None),
                        game("bob (2)", "fay (6)", ["", ""], None),
                    ],
                ),
                round("Final", vec![]),
            ],
        }
    }

    /// A bracket of `slots` players with nothing played beyond the first round's pairing.
    fn empty(slots: usize) -> Bracket {
        let rounds = slots.trailing_zeros() as usize;
        let first = (0..slots / 2)
            .map(|i| game(&format!("p{} ({})", i, i + 1), "bye", ["", ""], None))
            .collect();
        let mut all = vec![round("Round 1", first)];
        all.extend((1..rounds).map(|r| round(&format!("Round {}", r + 1), vec![])));
        Bracket {
            title: s("Knockout"),
            rounds: all,
        }
    }

    fn size(png: &[u8]) -> (u32, u32) {
        let (w, h, _) = decode_rgb(png).expect("the PNG decodes");
        (w, h)
    }

    #[test]
    fn a_table_grows_with_its_rows() {
        let mut last = None;
        for n in [0, 1, 7, 20, 64] {
            let (w, h) = size(&table_png(&standings(n)).expect("drawn"));
            assert!((640..=900).contains(&w), "{w}");
            if let Some((lw, lh, ln)) = last {
                assert_eq!(w, lw, "the width follows the cells, not the count");
                assert_eq!(h - lh, ROW_H as u32 * (n - ln) as u32);
            }
            last = Some((w, h, n));
        }
        let mut bare = standings(3);
        bare.footer = None;
        bare.title.clear();
        let (_, h) = size(&table_png(&bare).expect("drawn"));
        assert_eq!(h as f32, MARGIN + HEAD_H + 3.0 * ROW_H + MARGIN);
    }

    #[test]
    fn a_table_refuses_too_many_rows_no_columns_and_long_rows() {
        let err = table_png(&standings(65)).expect_err("65 rows");
        assert!(err.contains("64") && err.contains("65"), "{err}");
        let mut t = standings(3);
        t.columns.clear();
        let err = table_png(&t).expect_err("no columns");
        assert!(err.contains("column"), "{err}");
        let mut t = standings(3);
        t.rows[1].push(s("extra"));
        let err = table_png(&t).expect_err("a long row");
        assert!(err.contains("row 2"), "{err}");
        let mut t = standings(3);
        t.rows[2].truncate(2);
        assert!(table_png(&t).is_ok(), "a short row is padded with blanks");
    }

    #[test]
    fn table_and_bracket_images_are_deterministic() {
        let t = standings(7);
        assert_eq!(table_png(&t), table_png(&t.clone()));
        let b = eight();
        assert_eq!(bracket_png(&b), bracket_png(&b.clone()));
    }

    #[test]
    fn standings_table_and_eight_bracket_fit_a_phone() {
        let (w, h) = size(&table_png(&standings(7)).expect("drawn"));
        assert!((640..=900).contains(&w), "{w}x{h}");
        let (w, h) = size(&bracket_png(&eight()).expect("drawn"));
        assert!((640..=900).contains(&w), "{w}x{h}");
        // Very long cells are shortened, never widen the image past 900 px.
        let mut t = standings(7);
        t.rows[0][1] = "x".repeat(300);
        t.title = "y".repeat(300);
        let (w, _) = size(&table_png(&t).expect("drawn"));
        assert_eq!(w, 900);
        let cut = shorten(&"Featherstonehaugh ".repeat(5), TEXT_SIZE, 150.0);
        assert!(
            cut.ends_with('…') && width(&cut, TEXT_SIZE) <= 150.0,
            "{cut}"
        );
        assert_eq!(shorten("Pts", TEXT_SIZE, 100.0), "Pts");
        assert_eq!(shorten("Pts", TEXT_SIZE, 2.0), "");
    }

    #[test]
    fn table_rows_show_their_text_on_their_shading() {
        let mut t = standings(7);
        t.rows[4] = vec![String::new(); 8];
        let (canvas, l) = draw_table(&t).expect("drawn");
        let png = encode(&canvas).expect("encoded");
        let (w, _, px) = decode_rgb(&png).expect("decodes");
        let at = |x: u32, y: u32| {
            let i = ((y * w + x) * 3) as usize;
            [px[i], px[i + 1], px[i + 2]]
        };
        for i in 0..7 {
            let (top, fill) = (l.row_top(i) as u32, ROW_FILL[i % 2]);
            let fill = [fill[0], fill[1], fill[2]];
            assert_eq!(at(w / 2, top + 1), fill, "row {i} is shaded");
            let inked = (top + 2..top + ROW_H as u32 - 2)
                .flat_map(|y| (MARGIN as u32 + 2..w - MARGIN as u32 - 2).map(move |x| (x, y)))
                .filter(|&(x, y)| at(x, y) != fill)
                .count();
            if i == 4 {
                assert_eq!(inked, 0, "a blank row shows nothing");
            } else {
                assert!(inked > 200, "row {i}: only {inked} pixels of text");
            }
        }
        assert_ne!(ROW_FILL[0], ROW_FILL[1]);
    }

    #[test]
    fn brackets_of_two_to_sixteen_slots_draw_and_grow() {
        let mut last = 0;
        for slots in [2, 4, 8, 16] {
            let (w, h) = size(&bracket_png(&empty(slots)).expect("drawn"));
            assert!((640..=900).contains(&w), "{slots}: {w}x{h}");
            assert!(h > last, "{slots}: {h}");
            last = h;
        }
        // 32 players fit too, their names shortened.
        let (w, _) = size(&bracket_png(&empty(32)).expect("drawn"));
        assert!(w <= 900);
        // Rounds listed but none paired: the bracket's shape still shows.
        let blank = Bracket {
            title: String::new(),
            rounds: vec![round("R1", vec![]), round("R2", vec![]), round("F", vec![])],
        };
        let l = bracket_layout(&blank).expect("laid out");
        assert_eq!(l.first, 4);
        assert!(bracket_png(&blank).is_ok());
    }

    #[test]
    fn a_bracket_refuses_no_rounds_and_more_than_thirty_two_players() {
        let none = Bracket {
            title: s("x"),
            rounds: vec![],
        };
        assert!(bracket_png(&none).expect_err("no rounds").contains("round"));
        let err = bracket_png(&empty(64)).expect_err("64 players");
        assert!(err.contains("32"), "{err}");
    }

    #[test]
    fn a_bracket_draws_the_winners_line_in_bold_green() {
        let b = eight();
        let (canvas, l) = draw_bracket(&b).expect("drawn");
        let (w, _, px) = decode_rgb(&encode(&canvas).expect("encoded")).expect("decodes");
        let at = |x: f32, y: f32| {
            let i = ((y as u32 * w + x as u32) * 3) as usize;
            [px[i], px[i + 1], px[i + 2]]
        };
        let green = [GO[0], GO[1], GO[2]];
        // Quarter-final 2 was won by its top side: the line leaves from that side.
        let (x, y) = l.at(0, 1);
        let x = x + l.box_w + CONNECT / 4.0;
        assert_eq!(at(x, y + LINE_H / 2.0), green);
        assert_ne!(at(x, y + LINE_H * 1.5), green);
        // Semi-final 1 is undecided: a thin line from its middle, not green.
        let (x, y) = l.at(1, 0);
        let p = at(x + l.box_w + CONNECT / 4.0, y + LINE_H);
        assert!(p != green && p != [PAPER[0], PAPER[1], PAPER[2]], "{p:?}");
        // The winner's side is shaded.
        let (x, y) = l.at(0, 3);
        assert_eq!(at(x + 4.0, y + LINE_H * 1.5), [WON[0], WON[1], WON[2]]);
    }

    /// Writes the sample images to the temporary directory when MUSTER_SAMPLES is set, to look
    /// at: `MUSTER_SAMPLES=1 cargo test -p muster-render table::tests::samples`.
    #[test]
    fn samples() {
        if std::env::var_os("MUSTER_SAMPLES").is_none() {
            return;
        }
        let dir = std::env::temp_dir();
        let table = table_png(&standings(7)).expect("drawn");
        std::fs::write(dir.join("muster-table.png"), table).expect("written");
        let bracket = bracket_png(&eight()).expect("drawn");
        std::fs::write(dir.join("muster-bracket.png"), bracket).expect("written");
    }
}
