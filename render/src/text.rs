//! Plain-text boards, for terminals and transcripts.

use muster_rules::lanko::{Lanko, Piece, Role};
use muster_rules::lanrick::{Lanrick, Square};
use muster_rules::{Game, Seat};

/// The Lanrick board as text: `W`/`B` men, `+` for the mark, `:` for the other squares of the
/// rendezvous, `·` for empty squares; coordinates on the edges and a caption line.
pub fn lanrick(game: &Lanrick) -> String {
    board(
        game.men(Seat::WHITE),
        game.men(Seat::BLACK),
        game.mark(),
        &caption(game),
    )
}

/// The first version's board as text, with the same signs and a caption.
pub fn lanrick1880(game: &muster_rules::lanrick1880::Lanrick1880) -> String {
    let view = crate::lanrick1880::view(game, &[], ["", ""]);
    let caption = format!("{}. {}", view.headline, view.detail);
    board(
        game.men(Seat::WHITE),
        game.men(Seat::BLACK),
        game.mark(),
        &caption,
    )
}

/// A board of men and a mark as text, with coordinates and a caption line.
fn board(
    white: muster_rules::lanrick::Squares,
    black: muster_rules::lanrick::Squares,
    mark: Option<Square>,
    caption: &str,
) -> String {
    let files = "  a b c d e f g h\n";
    let zone = mark.map_or(0, Square::zone);
    let mut out = String::from(files);
    for rank in (0..8u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8u8 {
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            let c = if white & sq.bit() != 0 {
                'W'
            } else if black & sq.bit() != 0 {
                'B'
            } else if mark == Some(sq) {
                '+'
            } else if zone & sq.bit() != 0 {
                ':'
            } else {
                '·'
            };
            out.push(c);
            out.push(' ');
        }
        out.push_str(&format!("{}\n", rank + 1));
    }
    out.push_str(files);
    out.push_str(caption);
    out
}

/// The Lanko board as text: the rows from north to south, one character per cell as in the
/// machine interface (` ` no square, `-` a light square that plays no part, `.` an empty square,
/// `B S P` White's big castle, small castle and pawn, `b s p` Black's), cells a space apart;
/// then a caption line with whose turn it is (or the result) and the score.
pub fn lanko(game: &Lanko) -> String {
    let board = game.board();
    let mut out = String::new();
    for r in 0..board.rows {
        let row: Vec<String> = (0..board.cols)
            .map(|c| {
                let ch = match board.cell(r, c) {
                    None => ' ',
                    Some(sq) if board.info(sq).role == Role::Unused => '-',
                    Some(sq) => game.cells()[sq as usize].map_or('.', Piece::to_char),
                };
                ch.to_string()
            })
            .collect();
        out.push_str(row.join(" ").trim_end());
        out.push('\n');
    }
    let view = crate::lanko::LankoView::new(game, &[], ["", "", "", ""]);
    out.push_str(&format!("{}. {}", view.headline, view.detail));
    out
}

/// One line: whose decision, what it is, the budget and the men taken.
pub fn caption(game: &Lanrick) -> String {
    let taken = format!(
        "taken: White {}, Black {}",
        game.taken(Seat::WHITE),
        game.taken(Seat::BLACK)
    );
    match (game.to_move(), game.outcome()) {
        (_, Some(outcome)) => {
            let result = match outcome.winner() {
                Some(team) => format!("{} wins", title(game.table().team_name(team))),
                None => "drawn".to_string(),
            };
            format!("Game over: {result}. {taken}")
        }
        (Some(seat), None) => {
            let who = title(game.table().seat_name(seat));
            let what = match game.budget() {
                Some(b) => format!("to play, budget {b}"),
                None => format!("to decide ({})", game.phase().name()),
            };
            format!("{who} {what}. {taken}")
        }
        (None, None) => taken,
    }
}

fn title(name: &str) -> String {
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_board_shows_men_mark_and_caption() {
        let g = Lanrick::from_position("W1W1W1WW/8/8/8/8/8/8/BB1B1B1B play b d4 0-0 2 -");
        let g = g.unwrap_or_else(|e| panic!("{e}"));
        let text = lanrick(&g);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "8 W · W · W · W W 8");
        assert_eq!(lines[5], "4 · · : + : · · · 4");
        assert_eq!(lines[8], "1 B B · B · B · B 1");
        assert_eq!(
            lines[10],
            "Black to play, budget 2. taken: White 0, Black 0"
        );
    }

    #[test]
    fn the_lanko_text_board_follows_the_machine_interface() {
        use muster_rules::lanko::Variant;
        // Each row is the machine interface's row with the cells a space apart.
        for variant in Variant::ALL {
            let game = Lanko::new(variant);
            let text = lanko(&game);
            let lines: Vec<&str> = text.lines().collect();
            let state = game.state_json();
            let rows = state["board"].as_array().unwrap();
            assert_eq!(lines.len(), rows.len() + 1);
            for (line, row) in lines.iter().zip(rows) {
                let cells: String = line.chars().step_by(2).collect();
                assert_eq!(cells.trim_end(), row.as_str().unwrap().trim_end());
                assert!(
                    line.chars().skip(1).step_by(2).all(|c| c == ' '),
                    "{line:?}"
                );
            }
        }
        let game = Lanko::from_position(
            Variant::L103,
            "P...P/.../....../...../......./.b......./......./...../....../.../P.... w - 0",
        );
        let game = game.unwrap_or_else(|e| panic!("{e}"));
        let text = lanko(&game);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    P - . . . - P");
        assert_eq!(lines[1], "    - . - . - . -");
        assert_eq!(lines[5], ". b - . . . . . - . .");
        assert_eq!(lines[11], "W to move — Black. White 6 · Black 12");
    }
}
