//! Tournament images: a table such as the standings (a title, a header row, rows of cells, an
//! optional footer) and a knockout bracket (rounds left to right, match boxes joined by connector
//! lines), drawn with the boards' font and colours and encoded as PNG. Both read on a phone:
//! 640 to 900 px wide, text at 18 px or more, a cell too long for its column shortened with "…".
//! The same input always gives the same bytes.

use crate::canvas::{Align as Place, Canvas, rgb, rgba, shorten};

/// How a column's cells are aligned: from its left edge (names), or up to its right edge
/// (numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A table's column: its heading, and where the heading and the cells sit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub head: String,
    pub align: Align,
}

/// A table such as a tournament's standings: a title, a header row, rows of cells, and an
/// optional footer (a line for each `\n`-separated part). An empty title is not drawn; a row may
/// have fewer cells than there are columns (the rest are blank), not more; at most 64 rows. A
/// mark `*` ending a right-aligned cell hangs in the column's padding, so that the numbers
/// above and below it stay aligned.
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
const FOOTER_LINE: f32 = 26.0;
const MAX_ROWS: usize = 64;

const LINE_H: f32 = 32.0;
const BOX_GAP: f32 = 18.0;
const SLOT: f32 = 2.0 * LINE_H + BOX_GAP;
const CONNECT: f32 = 36.0;
const BOX_PAD: f32 = 10.0;
const BOX_MAX: f32 = 300.0;
const ROUND_BAND: f32 = 34.0;
const MAX_FIRST: usize = 16;

/// A text's size and colour.
type Style = (f32, [u8; 4]);

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

/// The mark that hangs past a right-aligned cell's edge.
const HANGING: char = '*';

/// Draws `text` at baseline `y`, shortened to `room` and aligned in the span from `x`; a
/// right-aligned text's final [`HANGING`] mark goes past the span's right edge, into the
/// padding.
fn put(c: &mut Canvas, text: &str, span: (f32, f32, Align), y: f32, style: Style) {
    let ((x, room, al), (size, ink)) = (span, style);
    let hang = match al {
        Align::Right if text.ends_with(HANGING) => width(&HANGING.to_string(), size).min(PAD),
        _ => 0.0,
    };
    let s = shorten(text, size, room + hang);
    let left = match al {
        Align::Left => x,
        Align::Right if s.ends_with(HANGING) => x + room + hang - width(&s, size),
        Align::Right => x + room - width(&s, size),
    };
    c.text(&s, left, y, size, Place::Left, ink);
}

/// The footer's lines.
fn footer_lines(t: &Table) -> Vec<&str> {
    t.footer
        .as_deref()
        .map_or(Vec::new(), |f| f.split('\n').collect())
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
        .ok_or("PNG encoding failed".into())
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

/// Takes up to `excess` px from the widest of the columns `idx`, cutting them to one width but
/// none below `floor`; returns what could not be taken.
fn trim(w: &mut [f32], idx: &[usize], excess: f32, floor: f32) -> f32 {
    let mut sizes: Vec<f32> = idx.iter().map(|&i| w[i]).collect();
    sizes.sort_by(|a, b| b.total_cmp(a));
    let (mut cap, mut sum) = (floor, 0.0);
    for (k, s) in sizes.iter().enumerate() {
        // The width the widest k + 1 columns would share to give up the whole excess.
        sum += s;
        let even = (sum - excess) / (k + 1) as f32;
        if even >= sizes.get(k + 1).copied().unwrap_or(0.0) {
            cap = even.max(floor);
            break;
        }
    }
    let taken: f32 = idx.iter().map(|&i| (w[i] - cap).max(0.0)).sum();
    idx.iter().for_each(|&i| w[i] = w[i].min(cap));
    excess - taken
}

/// Column widths summing to `room`: the natural widths, with the slack given to the flexible
/// columns; or the excess taken from the widest flexible columns (down to a floor), then from
/// the widest of all, so that short numbers keep their room.
fn share(natural: &[f32], flexible: &[bool], room: f32) -> Vec<f32> {
    let mut w = natural.to_vec();
    let all: Vec<usize> = (0..w.len()).collect();
    let flex: Vec<usize> = all.iter().copied().filter(|&i| flexible[i]).collect();
    let total: f32 = w.iter().sum();
    if total <= room {
        let flex = if flex.is_empty() { &all } else { &flex };
        let extra = (room - total) / flex.len() as f32;
        flex.iter().for_each(|&i| w[i] += extra);
        return w;
    }
    let excess = trim(&mut w, &flex, total - room, 10.0 * PAD);
    if excess > 0.0 {
        trim(&mut w, &all, excess, 0.0);
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
            "at most {MAX_ROWS} rows fit a table image, not {rows}"
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
    let bottom = match footer_lines(t).len() {
        0 => MARGIN,
        n => FOOTER_BAND + FOOTER_LINE * (n - 1) as f32,
    };
    Ok(TableLayout {
        width: w,
        height: top + HEAD_H + ROW_H * rows as f32 + bottom,
        cols: share(&natural, &flexible, w - 2.0 * MARGIN),
        top,
    })
}

/// One row of cells (the header's or a body row's) with its baseline at `y`.
fn cells(c: &mut Canvas, t: &Table, l: &TableLayout, row: &[String], y: f32, style: Style) {
    let mut x = MARGIN;
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
    let y = baseline(l.top, HEAD_H, SMALL_SIZE);
    cells(&mut c, t, &l, &heads, y, (SMALL_SIZE, PAPER));
    for (i, row) in t.rows.iter().enumerate() {
        let y = l.row_top(i);
        c.rect(MARGIN, y, inner, ROW_H, ROW_FILL[i % 2]);
        let base = baseline(y, ROW_H, TEXT_SIZE);
        cells(&mut c, t, &l, row, base, (TEXT_SIZE, INK));
    }
    let end = l.row_top(t.rows.len());
    let edge = (MARGIN + 0.5, l.top + 0.5);
    c.frame(edge.0, edge.1, inner - 1.0, end - l.top - 1.0, 1.0, RULE);
    for (i, line) in footer_lines(t).into_iter().enumerate() {
        let y = end + FOOTER_BAND - 16.0 + FOOTER_LINE * i as f32;
        put(
            &mut c,
            line,
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
    let rounds = b.rounds.len();
    if rounds == 0 {
        return Err("a bracket needs at least one round".into());
    }
    // Enough slots for every round listed and every match in it (counted no further than
    // needed to see that there are too many).
    let mut first = 1usize << (rounds - 1).min(8);
    for (r, round) in b.rounds.iter().enumerate().take(8) {
        first = first.max((round.matches.len() << r).next_power_of_two());
    }
    if first > MAX_FIRST {
        let (most, players) = (2 * MAX_FIRST, 2 * first);
        return Err(format!(
            "a bracket image holds at most {most} players, not {players}"
        ));
    }
    let all = || b.rounds.iter().flat_map(|r| &r.matches);
    let widest = |s: f32, t: &String| s.max(width(t, SMALL_SIZE));
    let name_w = all().flat_map(|m| [&m.top, &m.bottom]).fold(0.0, widest);
    let scores = all().flat_map(|m| [&m.top_score, &m.bottom_score]);
    let score_w = scores.fold(0.0, widest).ceil();
    let score_w = score_w + if score_w > 0.0 { 2.0 * BOX_PAD } else { 0.0 };
    let heads = b.rounds.iter().map(|r| &r.title).fold(0.0, widest);
    let natural = f32::max(name_w.ceil() + score_w + 2.0 * BOX_PAD, heads.max(120.0));
    let joins = CONNECT * (rounds - 1) as f32;
    let wanted = 2.0 * MARGIN + natural * rounds as f32 + joins;
    let w = wanted.clamp(MIN_WIDTH, MAX_WIDTH).ceil();
    let box_w = f32::min(BOX_MAX, (w - 2.0 * MARGIN - joins) / rounds as f32).floor();
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
    let fill = if m.is_some() { ROW_FILL[0] } else { EMPTY_BOX };
    c.rect(x, y, w, 2.0 * LINE_H, fill);
    let winner = m.and_then(|m| m.winner);
    let blank = |s: &str| s.trim().is_empty();
    let scored = m.is_some_and(|m| !blank(&m.top_score) || !blank(&m.bottom_score));
    for k in 0..2 {
        let side = m.map(|m| [(&m.top, &m.top_score), (&m.bottom, &m.bottom_score)][k]);
        let (name, score) = side.map_or(("", ""), |(n, s)| (n.trim(), s.trim()));
        let top = y + LINE_H * k as f32;
        let won = winner == Some(k == 0);
        if won {
            c.rect(x, top, w, LINE_H, WON);
        }
        if scored && l.score_w > 0.0 {
            c.rect(x + w - l.score_w, top, l.score_w, LINE_H, SCORE_SHADE);
        }
        let quiet = name.is_empty() || name.eq_ignore_ascii_case("bye");
        let faint = quiet || (winner.is_some() && !won);
        let ink = if faint { SOFT_INK } else { INK };
        let name = if name.is_empty() { "…" } else { name };
        let (base, style) = (baseline(top, LINE_H, SMALL_SIZE), (SMALL_SIZE, ink));
        let room = w - l.score_w - 2.0 * BOX_PAD;
        put(c, name, (x + BOX_PAD, room, Align::Left), base, style);
        let sx = x + w - l.score_w + BOX_PAD;
        put(
            c,
            score,
            (sx, l.score_w - 2.0 * BOX_PAD, Align::Right),
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
        let style = (SMALL_SIZE, SOFT_INK);
        put(&mut c, &round.title, span, l.top - 12.0, style);
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

    /// The standings of a Swiss of seven, the first `rows` lines of them (repeated past 7).
    fn standings(rows: usize) -> Table {
        let heads = ["#", "Name", "Pts", "Games", "BhC1", "Bh", "SB", "Wins"];
        let players = [
            "1|alice|4.5|5|12|14.5|12.25|4",
            "2|Bartholomew Featherstonehaugh|4|5|11.5|13|10|3",
            "3|cara|3.5|5|12.5|15|9.75|3",
            "4|dora|2.5|5|11|12.5|5.5|2",
            "5|ed|2|5|10|11|3|1",
            "6|fay (w)|1.5|3|7.5|8|1.75|1",
            "7|gus|1|4|9.5|10.5|0.5|0",
        ];
        let row = |i: usize| players[i % 7].split('|').map(String::from).collect();
        let column = |h: &&str| Column {
            head: h.to_string(),
            align: Align::Right,
        };
        let mut columns: Vec<Column> = heads.iter().map(column).collect();
        columns[1].align = Align::Left;
        let footer = "Tie-breaks: Buchholz cut-1, Buchholz, Sonneborn-Berger, wins";
        Table {
            title: "Spring Lanrick: standings after round 5 of 5".into(),
            columns,
            rows: (0..rows).map(row).collect(),
            footer: Some(footer.into()),
        }
    }

    fn game(top: &str, bottom: &str, scores: [&str; 2], winner: Option<bool>) -> BracketMatch {
        let [top_score, bottom_score] = scores.map(String::from);
        BracketMatch {
            top: top.into(),
            bottom: bottom.into(),
            top_score,
            bottom_score,
            winner,
        }
    }

    fn round(title: &str, matches: Vec<BracketMatch>) -> BracketRound {
        BracketRound {
            title: title.into(),
            matches,
        }
    }

    /// Seven players on eight slots: the first round played, one semi-final under way.
    fn eight() -> Bracket {
        let quarters = vec![
            game("ann (1)", "bye", ["", ""], Some(true)),
            game("dora (4)", "ed (5)", ["1 ½", "0 ½"], Some(true)),
            game("bob (2)", "gus (7)", ["0 1 1", "1 0 0"], Some(true)),
            game("cara (3)", "fay (6)", ["½ 0", "½ 1"], Some(false)),
        ];
        let semis = vec![
            game("ann (1)", "dora (4)", ["1", "0"], None),
            game("bob (2)", "fay (6)", ["", ""], None),
        ];
        let rounds = vec![
            round("Quarter-finals", quarters),
            round("Semi-finals", semis),
            round("Final", vec![]),
        ];
        Bracket {
            title: "Spring Knockout".into(),
            rounds,
        }
    }

    /// A bracket of `slots` players, only the first round paired.
    fn paired(slots: usize) -> Bracket {
        let name = |i: usize| format!("Player {} ({})", i + 1, i + 1);
        let first = (0..slots / 2)
            .map(|i| game(&name(i), &name(slots - 1 - i), ["", ""], None))
            .collect();
        let mut rounds = vec![round("Round 1", first)];
        let later = (2..=slots.trailing_zeros()).map(|r| round(&format!("Round {r}"), vec![]));
        rounds.extend(later);
        Bracket {
            title: "Knockout".into(),
            rounds,
        }
    }

    fn size(png: Result<Vec<u8>, String>) -> (u32, u32) {
        let (w, h, _) = decode_rgb(&png.expect("drawn")).expect("the PNG decodes");
        (w, h)
    }

    #[test]
    fn a_table_grows_with_its_rows() {
        let sizes = [0, 1, 7, 8, 20, 64].map(|n| (n, size(table_png(&standings(n)))));
        for pair in sizes.windows(2) {
            let [(n0, (w0, h0)), (n1, (w1, h1))] = pair else {
                continue;
            };
            assert!((640..=900).contains(w1), "{w1}");
            assert_eq!(h1 - h0, ROW_H as u32 * (n1 - n0) as u32, "{n1} rows");
            if *n0 >= 7 {
                assert_eq!(w1, w0, "the width follows the cells, not their number");
            }
        }
        let mut bare = standings(3);
        (bare.title, bare.footer) = (String::new(), None);
        let (_, h) = size(table_png(&bare));
        assert_eq!(h as f32, MARGIN + HEAD_H + 3.0 * ROW_H + MARGIN);
    }

    #[test]
    fn each_footer_line_makes_the_table_taller_and_shows() {
        let one = standings(3);
        let mut two = standings(3);
        two.footer = Some("* points won without playing: alice 1\nBh Buchholz".into());
        let (canvas, l) = draw_table(&two).expect("drawn");
        let (_, h1) = size(table_png(&one));
        assert_eq!(l.height as u32, h1 + FOOTER_LINE as u32);
        let (w, _, px) = decode_rgb(&encode(&canvas).expect("encoded")).expect("decodes");
        let paper = &PAPER[..3];
        let end = l.row_top(3) as u32;
        for line in 0..2 {
            let base = end + FOOTER_BAND as u32 - 16 + FOOTER_LINE as u32 * line;
            let inked = (base - 12..base)
                .flat_map(|y| (MARGIN as u32..w / 2).map(move |x| (x, y)))
                .filter(|&(x, y)| px[((y * w + x) * 3) as usize..][..3] != *paper)
                .count();
            assert!(
                inked > 100,
                "footer line {line}: only {inked} pixels of text"
            );
        }
    }

    #[test]
    fn a_mark_ending_a_number_hangs_past_its_column_and_keeps_the_digits_aligned() {
        let t = Table {
            title: String::new(),
            columns: vec![Column {
                head: "Pts".into(),
                align: Align::Right,
            }],
            rows: vec![vec!["1".into()], vec!["1*".into()]],
            footer: None,
        };
        let (canvas, l) = draw_table(&t).expect("drawn");
        let (w, _, px) = decode_rgb(&encode(&canvas).expect("encoded")).expect("decodes");
        // The digit's foot (below the asterisk, which sits high): the same pixels in both rows.
        let foot = |i: usize| -> Vec<u32> {
            let (base, fill) = (
                baseline(l.row_top(i), ROW_H, TEXT_SIZE) as u32,
                ROW_FILL[i % 2],
            );
            (MARGIN as u32 + 2..w - MARGIN as u32 - 2)
                .filter(|&x| {
                    (base - 3..base).any(|y| px[((y * w + x) * 3) as usize..][..3] != fill[..3])
                })
                .collect()
        };
        assert!(!foot(0).is_empty());
        assert_eq!(foot(0), foot(1));
        // The mark is drawn, right of the digit.
        let top = |i: usize| -> Vec<u32> {
            let (y0, fill) = (l.row_top(i) as u32, ROW_FILL[i % 2]);
            (MARGIN as u32 + 2..w - MARGIN as u32 - 2)
                .filter(|&x| {
                    (y0 + 4..y0 + ROW_H as u32 / 2)
                        .any(|y| px[((y * w + x) * 3) as usize..][..3] != fill[..3])
                })
                .collect()
        };
        let digit_right = *foot(0).last().expect("a digit");
        assert!(top(1).iter().any(|&x| x > digit_right), "{:?}", top(1));
    }

    #[test]
    fn standings_and_an_eight_bracket_fit_a_phone_and_are_deterministic() {
        let (t, b) = (standings(7), eight());
        assert_eq!(table_png(&t), table_png(&t.clone()));
        assert_eq!(bracket_png(&b), bracket_png(&b.clone()));
        // To look at them, as the golden images are looked at: MUSTER_RENDER_OUT=<dir>.
        if let Some(dir) = std::env::var_os("MUSTER_RENDER_OUT") {
            let dir = std::path::Path::new(&dir);
            let (table, bracket) = (
                table_png(&t).expect("drawn"),
                bracket_png(&b).expect("drawn"),
            );
            std::fs::write(dir.join("table.png"), table).expect("written");
            std::fs::write(dir.join("bracket.png"), bracket).expect("written");
        }
        for (w, h) in [size(table_png(&t)), size(bracket_png(&b))] {
            assert!((640..=900).contains(&w), "{w}x{h}");
        }
        // Very long cells and titles are shortened, never widen the image past 900 px.
        let mut t = standings(7);
        t.rows[0][1] = "x".repeat(300);
        t.title = "y".repeat(300);
        assert_eq!(size(table_png(&t)).0, 900);
        let cut = shorten(&"Featherstonehaugh ".repeat(5), TEXT_SIZE, 150.0);
        assert!(cut.ends_with('…'), "{cut}");
        assert!(width(&cut, TEXT_SIZE) <= 150.0, "{cut}");
        assert_eq!(shorten("Pts", TEXT_SIZE, 100.0), "Pts");
        assert_eq!(shorten("Pts", TEXT_SIZE, 2.0), "");
    }

    #[test]
    fn table_rows_show_their_text_on_their_shading() {
        let mut t = standings(7);
        t.rows[4] = vec![String::new(); 8];
        let (canvas, l) = draw_table(&t).expect("drawn");
        let (w, _, px) = decode_rgb(&encode(&canvas).expect("encoded")).expect("decodes");
        let at = |x: u32, y: u32| px[((y * w + x) * 3) as usize..][..3].to_vec();
        for i in 0..7 {
            let (top, fill) = (l.row_top(i) as u32, &ROW_FILL[i % 2][..3]);
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
    fn brackets_of_two_to_thirty_two_slots_draw_and_grow() {
        let mut last = 0;
        for slots in [2, 4, 8, 16, 32] {
            let (w, h) = size(bracket_png(&paired(slots)));
            assert!((640..=900).contains(&w) && h > last, "{slots}: {w}x{h}");
            last = h;
        }
        // Rounds listed but none paired: the bracket's shape still shows.
        let mut blank = eight();
        blank.rounds.iter_mut().for_each(|r| r.matches.clear());
        assert_eq!(bracket_layout(&blank).expect("laid out").first, 4);
        assert!(bracket_png(&blank).is_ok());
    }

    #[test]
    fn tables_and_brackets_refuse_what_they_cannot_draw() {
        let err = table_png(&standings(65)).expect_err("65 rows");
        assert!(err.contains("64") && err.contains("65"), "{err}");
        let mut none = standings(3);
        none.columns.clear();
        assert!(table_png(&none).expect_err("no columns").contains("column"));
        let mut t = standings(3);
        t.rows[1].push("extra".into());
        assert!(table_png(&t).expect_err("a long row").contains("row 2"));
        t.rows[1].truncate(2);
        assert!(table_png(&t).is_ok(), "a short row is padded with blanks");
        let mut none = eight();
        none.rounds.clear();
        assert!(bracket_png(&none).expect_err("no rounds").contains("round"));
        let err = bracket_png(&paired(64)).expect_err("64 players");
        assert!(err.contains("32"), "{err}");
        let mut wide = paired(32);
        wide.rounds.truncate(1);
        wide.rounds[0].matches.push(game("a", "b", ["", ""], None));
        assert!(bracket_png(&wide).expect_err("17 matches").contains("32"));
    }

    #[test]
    fn a_bracket_draws_the_winners_line_in_bold_green() {
        let (canvas, l) = draw_bracket(&eight()).expect("drawn");
        let (w, _, px) = decode_rgb(&encode(&canvas).expect("encoded")).expect("decodes");
        let at = |x: f32, y: f32| px[((y as u32 * w + x as u32) * 3) as usize..][..3].to_vec();
        let (green, paper) = (&GO[..3], &PAPER[..3]);
        // Quarter-final 2 was won by its top side: the line leaves from that side.
        let (x, y) = l.at(0, 1);
        let x = x + l.box_w + CONNECT / 4.0;
        assert_eq!(at(x, y + LINE_H / 2.0), green);
        assert_eq!(at(x, y + LINE_H * 1.5), paper);
        // Semi-final 1 is undecided: a thin line from its middle, not green.
        let (x, y) = l.at(1, 0);
        let p = at(x + l.box_w + CONNECT / 4.0, y + LINE_H);
        assert!(p != green && p != paper, "{p:?}");
        // The winner's side is shaded.
        let (x, y) = l.at(0, 3);
        assert_eq!(at(x + 4.0, y + LINE_H * 1.5), &WON[..3]);
    }
}
