//! `rules <game>` in a chat: the short rules of [`help::rules`] in their steps, each step that
//! happens on the board shown by a board (the position after a few decisions of the worked
//! examples in docs/rules/<game>.md), all for the asker alone. Each board comes before its
//! step's words, so that a platform gathering a board with the words after it shows
//! each step as one message.

use muster_rules::GameId;

use super::help;
use crate::kernel::board::Board;
use crate::kernel::reply::Reply;
use crate::learn::lanrick::LANRICK;
use crate::learn::lanrick1880::LANRICK1880;

/// After how many decisions of `game`'s record each numbered step of its short rules is shown
/// (`None`: a step with no board), and the record.
fn steps(game: GameId) -> (&'static [&'static str], &'static [Option<usize>]) {
    match game {
        // 1 placement, 2 the mark, 3 play, 4 the rendezvous won (and the next round set, which
        // the Lanrick rules page draws).
        GameId::Lanrick => (&LANRICK[..15], &[Some(10), Some(11), Some(14), Some(15)]),
        // 1 the set-up, 2 the rendezvous, 3 a turn, 4 a shift, 5 the rendezvous won.
        GameId::Lanrick1880 => (
            &LANRICK1880[..11],
            &[Some(1), Some(2), Some(4), Some(5), Some(10)],
        ),
        // 1 a hoop taken (7 1 6: 7 → 13), 2 a miss, 3 a bar, 4 kept in a hoop, 5 the peg.
        GameId::Croquet => (
            &["7", "1", "6", "1", "4", "2", "5"],
            &[Some(3), Some(7), Some(6), None, None],
        ),
        // 1 the board at the start.
        GameId::Lanko88 | GameId::Lanko68 | GameId::Lanko103 => (&[], &[Some(0)]),
    }
}

/// The board of `game` after the first `after` decisions of `moves`, its last one marked.
fn board(game: GameId, moves: &[&str], after: usize, platform: &str, channel: &str) -> Board {
    let moves = moves[..after].iter().map(|m| m.to_string()).collect();
    let id = format!("rules-{game}");
    Board::shown(
        game,
        &id,
        moves,
        after.saturating_sub(1),
        (platform, channel),
    )
    .private()
}

/// `rules <game>`, asked in `channel` of `platform`: the short rules in their steps, each
/// step on the board after its board, the whole rules' page last while the web pages are
/// served at `web`.
pub fn rules(game: GameId, web: Option<&str>, platform: &str, channel: &str) -> Vec<Reply> {
    let text = help::rules(game, web);
    let (moves, shown) = steps(game);
    let mut out = Vec::new();
    let mut words = String::new();
    for line in text.lines() {
        let step = line
            .split_once(". ")
            .and_then(|(n, _)| n.parse::<usize>().ok());
        match step.and_then(|n| shown.get(n - 1).copied().flatten()) {
            Some(after) => {
                // The words so far go first; this step goes with its board.
                if !words.is_empty() {
                    out.push(Reply::Private(std::mem::take(&mut words)));
                }
                out.push(Reply::Board(Box::new(board(
                    game, moves, after, platform, channel,
                ))));
                out.push(Reply::Private(line.to_string()));
            }
            None => {
                if !words.is_empty() {
                    words.push('\n');
                }
                words.push_str(line);
            }
        }
    }
    if !words.is_empty() {
        out.push(Reply::Private(words));
    }
    out
}
