//! How each player likes his boards drawn — which side at the bottom, the colour theme, the
//! size — kept with his other settings on each platform (`board flip|white|black`,
//! `board theme classic|dark|contrast`, `board size small|normal|large`), and the style every
//! board the core sends is drawn in: the asker's own for `board`, otherwise the player to
//! move's, since he is the one who must read it (docs/guide.md, "Your view of the board").

use muster_render::{Size, Style, Theme};
use muster_rules::AnyGame;

use super::profile::{Appearance, Profiles, Side, update};
use crate::kernel::board::Board;
use crate::kernel::context::Context;
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::{Replies, Reply};
use crate::kernel::request::Request;
use crate::kernel::store::{GameRecord, Status};
use crate::kernel::text::excerpt;

/// One change `board` makes to the settings.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardSetting {
    /// Turn the boards over: the other colour at the bottom from now on.
    Flip,
    /// This colour at the bottom.
    Side(Side),
    /// This theme.
    Theme(Theme),
    /// This size.
    Size(Size),
}

/// What `board` says when it cannot read a setting.
fn usage() -> String {
    "say `board` (your view of the board), or change how your boards look with \
     `board flip`, `board white|black` (the colour at the bottom), \
     `board theme classic|dark|contrast` or `board size small|normal|large`; several at once are fine"
        .into()
}

/// The settings of `board …`, in order (none: just show the board). Each word is a setting's
/// value; `theme` and `size` may come before theirs.
pub fn parse(args: &[&str]) -> Result<Vec<BoardSetting>, String> {
    let mut changes = Vec::new();
    let mut expect: Option<&str> = None;
    for word in args {
        let w = word.to_ascii_lowercase();
        let setting = match (expect, w.as_str()) {
            (None, "theme" | "colours" | "colors" | "size") => {
                expect = Some(if w == "size" { "size" } else { "theme" });
                continue;
            }
            (None, "flip" | "turn" | "flipped") => BoardSetting::Flip,
            (None, "white") => BoardSetting::Side(Side::White),
            (None, "black") => BoardSetting::Side(Side::Black),
            (Some("size"), _) | (None, _) if Size::from_name(&w).is_some() => {
                BoardSetting::Size(Size::from_name(&w).unwrap_or_default())
            }
            (Some("theme"), _) | (None, _) if Theme::from_name(&w).is_some() => {
                BoardSetting::Theme(Theme::from_name(&w).unwrap_or_default())
            }
            (Some(what), _) => {
                let values = if what == "size" {
                    "small, normal or large"
                } else {
                    "classic, dark or contrast"
                };
                return Err(format!(
                    "`board {what} {}`: the {what} is {values}",
                    excerpt(word, 24)
                ));
            }
            (None, _) => return Err(format!("`board {}`: {}", excerpt(word, 24), usage())),
        };
        expect = None;
        changes.push(setting);
    }
    if let Some(what) = expect {
        return Err(format!(
            "`board {what}` needs a value: {}",
            if what == "size" {
                "`board size small|normal|large`"
            } else {
                "`board theme classic|dark|contrast`"
            }
        ));
    }
    Ok(changes)
}

/// The settings as a sentence: `White's side at the bottom, the dark theme, normal size`.
fn described(a: &Appearance) -> String {
    let side = match a.side {
        None | Some(Side::White) => "White's side at the bottom",
        Some(Side::Black) => "Black's side at the bottom",
    };
    format!(
        "{side}, the {} theme, {} size",
        a.theme.name(),
        a.size.name()
    )
}

/// `board <settings>`: the asker's settings changed, all together; what they are now.
pub fn change(core: &Context, req: &Request, changes: &[BoardSetting]) -> Replies {
    let result = update(core.base.as_ref(), &req.platform, &req.user.id, |p| {
        for change in changes {
            let a = &mut p.board;
            match change {
                BoardSetting::Flip => {
                    a.side = Some(match a.side {
                        Some(Side::Black) => Side::White,
                        _ => Side::Black,
                    })
                }
                BoardSetting::Side(s) => a.side = Some(*s),
                BoardSetting::Theme(t) => a.theme = *t,
                BoardSetting::Size(s) => a.size = *s,
            }
        }
        Ok(())
    });
    match result {
        Ok((p, ())) => vec![Reply::Private(format!(
            "Your boards from now on: {}. The board in a channel is drawn as the player to move likes it; `{}board` shows you your own view.",
            described(&p.board),
            core.prefix
        ))],
        Err(e) => vec![Reply::Private(format!(
            "Your board settings could not be saved: {e}."
        ))],
    }
}

/// The style `viewer` (a user id on `record`'s platform) sees `record`'s boards in, with his
/// settings `a`.
pub fn style_for(a: &Appearance, record: &GameRecord, viewer: &str) -> Style {
    let lanko = record.game_id().ok().and_then(|g| g.lanko()).is_some();
    let own: Vec<usize> = (0..record.seats.len())
        .filter(|i| record.player(*i).is_some_and(|p| p.id == viewer))
        .collect();
    let bottom = match a.side {
        None | Some(Side::White) if !lanko => 0,
        Some(Side::Black) if !lanko => 1,
        None => 0,
        Some(side) => {
            // Lanko: White's seats are s and n (0, 2), Black's w and e (1, 3).
            let first = usize::from(side == Side::Black);
            own.iter()
                .copied()
                .find(|i| i % 2 == first)
                .unwrap_or(first)
        }
    };
    Style {
        theme: a.theme,
        bottom,
        size: a.size,
    }
}

/// Who a board of `record` is drawn for when nobody asked for his own view: the player to
/// move, or else `asker` (the player who ended the game, say).
fn viewer<'a>(
    record: &'a GameRecord,
    game: Option<&AnyGame>,
    asker: Option<&'a str>,
) -> Option<&'a str> {
    let to_move = (record.status == Status::Active)
        .then(|| match game {
            Some(g) => g.to_move(),
            None => record.rebuild().ok()?.to_move(),
        })
        .flatten()
        .and_then(|seat| record.player(seat.index()))
        .map(|p| p.id.as_str());
    to_move.or(asker)
}

/// Gives every board in `replies` that has no style yet the style of its viewer (see
/// [`viewer`]); `asker` is who sent the command, if anyone.
pub fn style_boards(profiles: &mut Profiles<'_>, replies: &mut [Reply], asker: Option<&str>) {
    for reply in replies {
        let Reply::Board(board) = reply else { continue };
        if board.style().is_some() {
            continue;
        }
        let Some(record) = board.record() else {
            continue;
        };
        let style = match viewer(record, board.game(), asker) {
            Some(id) => style_for(&profiles.of(record.platform_of(id), id).board, record, id),
            None => Style::default(),
        };
        board.set_style(style);
    }
}

/// The board of `record` (as `game` stands after it) as `user` likes to see it, for him alone.
pub fn own_board(core: &Context, user: &str, record: &GameRecord, game: &AnyGame) -> Board {
    let a = Profiles::new(core.base.as_ref())
        .of(record.platform_of(user), user)
        .board;
    let len = record.moves.len();
    Board::played(record, len, game, Vec::new())
        .at(core.clock.now())
        .styled(style_for(&a, record, user))
        .private()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read_in_any_order_with_or_without_their_word() {
        assert_eq!(parse(&[]), Ok(vec![]));
        assert_eq!(
            parse(&["flip", "DARK", "size", "large"]),
            Ok(vec![
                BoardSetting::Flip,
                BoardSetting::Theme(Theme::Dark),
                BoardSetting::Size(Size::Large),
            ])
        );
        assert_eq!(
            parse(&["theme", "contrast", "black", "small"]),
            Ok(vec![
                BoardSetting::Theme(Theme::Contrast),
                BoardSetting::Side(Side::Black),
                BoardSetting::Size(Size::Small),
            ])
        );
        for (args, says) in [
            (&["neon"][..], "`board neon`: say `board`"),
            (
                &["theme", "large"][..],
                "the theme is classic, dark or contrast",
            ),
            (&["size", "dark"][..], "the size is small, normal or large"),
            (&["size"][..], "`board size small|normal|large`"),
        ] {
            let e = parse(args).expect_err("refused");
            assert!(e.contains(says), "{args:?}: {e}");
        }
    }
}
