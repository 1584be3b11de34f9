//! Players' board settings (`board flip|white|black`, `board theme …`, `board size …`): kept
//! per player, shown to the asker alone with `board`, and followed by every board the channel
//! gets — drawn as the player to move likes it.

use std::sync::Arc;

use muster_core::desk::{Core, Reply};
use muster_core::store::{GameStore, MemoryStore, SledStore};
use muster_render::{Size, Style, Theme};

use common::say;
use muster_core::testing as common;

/// The boards among the replies: (style, private).
fn boards(replies: &[Reply]) -> Vec<(Style, bool)> {
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Board(b) if !b.is_replay() => {
                Some((b.style().unwrap_or_default(), b.is_private()))
            }
            _ => None,
        })
        .collect()
}

fn privates(replies: &[Reply]) -> String {
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Private(t) => Some(t.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn lanrick(store: Arc<dyn GameStore>) -> Core {
    let core = Core::new(store, "!");
    say(&core, "alice", "general", "new lanrick @bob");
    say(&core, "bob", "general", "accept");
    core
}

fn style(theme: Theme, bottom: usize, size: Size) -> Style {
    Style {
        theme,
        bottom,
        size,
    }
}

#[test]
fn settings_are_kept_and_the_board_is_the_askers_own_view_for_him_alone() {
    let core = lanrick(Arc::new(MemoryStore::default()));
    let out = say(&core, "bob", "general", "board theme dark size large black");
    assert!(
        privates(&out).contains(
            "Your boards from now on: Black's side at the bottom, the dark theme, large size."
        ),
        "{out:?}"
    );
    // Everything bob is told is for him: the settings, his view, whose turn it is.
    assert!(
        out.iter()
            .all(|r| matches!(r, Reply::Private(_) | Reply::Board(_)))
    );
    assert_eq!(
        boards(&out),
        vec![(style(Theme::Dark, 1, Size::Large), true)]
    );
    // The view is drawn that way: larger than a normal board, in the dark theme's paper.
    let Some(Reply::Board(b)) = out.iter().find(|r| matches!(r, Reply::Board(_))) else {
        panic!("no board");
    };
    let drawn = b.drawn().expect("drawn");
    let (w, h, rgb) = muster_render::encode::decode_rgb(&drawn.png).expect("a PNG");
    assert_eq!((w, h), (749, 859));
    assert_eq!(rgb[..3], Theme::Dark.colours().paper[..3]);

    // Kept: a plain `board` later shows the same view; alice's is still the default.
    assert_eq!(
        boards(&say(&core, "bob", "general", "board")),
        vec![(style(Theme::Dark, 1, Size::Large), true)]
    );
    assert_eq!(
        boards(&say(&core, "alice", "general", "board")),
        vec![(Style::default(), true)]
    );
    // A spectator sees his own view too.
    say(&core, "carol", "general", "board contrast");
    assert_eq!(
        boards(&say(&core, "carol", "general", "board")),
        vec![(style(Theme::Contrast, 0, Size::Normal), true)]
    );
    // flip turns the boards over, and over again.
    assert_eq!(
        boards(&say(&core, "bob", "general", "board flip"))[0]
            .0
            .bottom,
        0
    );
    assert_eq!(
        boards(&say(&core, "bob", "general", "board flip"))[0]
            .0
            .bottom,
        1
    );
    assert_eq!(
        boards(&say(&core, "alice", "general", "board flip"))[0]
            .0
            .bottom,
        1
    );
}

#[test]
fn the_channels_board_follows_the_player_to_moves_settings() {
    let core = lanrick(Arc::new(MemoryStore::default()));
    say(&core, "bob", "general", "board black dark");
    // Alice places a man: bob is to move, and the channel's board is drawn his way.
    let out = say(&core, "alice", "general", "move b1");
    assert_eq!(
        boards(&out),
        vec![(style(Theme::Dark, 1, Size::Normal), false)]
    );
    // Bob places one: alice is to move, with her (default) settings.
    let out = say(&core, "bob", "general", "move b8");
    assert_eq!(boards(&out), vec![(Style::default(), false)]);
}

#[test]
fn a_finished_games_last_board_and_replay_follow_the_player_who_ended_it() {
    let core = lanrick(Arc::new(MemoryStore::default()));
    say(&core, "alice", "general", "board contrast small");
    say(&core, "alice", "general", "move b1");
    say(&core, "bob", "general", "move b8");
    let out = say(&core, "alice", "general", "resign");
    let styles: Vec<Style> = out
        .iter()
        .filter_map(|r| match r {
            Reply::Board(b) => Some(b.style().unwrap_or_default()),
            _ => None,
        })
        .collect();
    assert!(!styles.is_empty(), "{out:?}");
    assert!(
        styles
            .iter()
            .all(|s| *s == style(Theme::Contrast, 0, Size::Small)),
        "{styles:?}"
    );
}

#[test]
fn a_lanko_player_sees_his_own_seat_at_the_bottom_of_his_colour() {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    let out = say(&core, "sam", "general", "new lanko88 @wes @nat @eve");
    assert!(!privates(&out).contains("not"), "{out:?}");
    for who in ["wes", "nat", "eve"] {
        say(&core, who, "general", "accept");
    }
    // Seats in turn order: sam s, wes w, nat n, eve e.
    let bottom = |who: &str, setting: &str| {
        boards(&say(&core, who, "general", &format!("board {setting}")))[0]
            .0
            .bottom
    };
    assert_eq!(bottom("nat", "white"), 2, "N's own seat: a White one");
    assert_eq!(bottom("nat", "black"), 1, "no Black seat of his: W");
    assert_eq!(bottom("eve", "black"), 3);
    assert_eq!(bottom("wes", "black"), 1);
    assert_eq!(bottom("sam", "white"), 0);
    assert_eq!(bottom("zed", "black"), 1, "a spectator: W");
    assert_eq!(bottom("zed", "white"), 0, "a spectator: S");
}

#[test]
fn settings_are_changed_anywhere_and_a_bad_one_changes_nothing() {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    // No game here: the settings are kept all the same, and said.
    let out = say(&core, "alice", "general", "board dark");
    assert_eq!(boards(&out), vec![]);
    assert!(privates(&out).contains("the dark theme"), "{out:?}");
    let out = say(&core, "alice", "general", "board neon");
    assert!(
        privates(&out).contains("`board neon`: say `board` (your view of the board)"),
        "{out:?}"
    );
    let out = say(&core, "alice", "general", "board size huge");
    assert!(
        privates(&out).contains("the size is small, normal or large"),
        "{out:?}"
    );
    // Neither touched what was kept.
    say(&core, "alice", "general", "new lanrick @bob");
    say(&core, "bob", "general", "accept");
    assert_eq!(
        boards(&say(&core, "alice", "general", "board")),
        vec![(style(Theme::Dark, 0, Size::Normal), true)]
    );
}

#[test]
fn settings_and_styled_boards_survive_a_restart_on_sled() {
    let dir = std::env::temp_dir().join(format!("muster-appearance-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    {
        let store: Arc<dyn GameStore> = Arc::new(SledStore::open(&dir).expect("open"));
        let core = lanrick(store);
        say(&core, "bob", "general", "board black large");
    }
    // sled lets go of its lock a moment after the last handle is dropped.
    let store = (0..50)
        .find_map(|_| {
            SledStore::open(&dir).ok().or_else(|| {
                std::thread::sleep(std::time::Duration::from_millis(100));
                None
            })
        })
        .expect("reopen");
    let core = Core::new(Arc::new(store), "!");
    let out = say(&core, "alice", "general", "move b1");
    assert_eq!(
        boards(&out),
        vec![(style(Theme::Classic, 1, Size::Large), false)]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
