//! Every position of a game is drawn as it was played (docs/web.md, "The pages and their
//! addresses"): after a game of each kind has ended, each earlier position's board, status and
//! clocks are what they were while it was the newest, the result shows only on the last, and
//! the replay's frames before the last are those of the game while it ran.

mod common;

use common::site::*;
use muster_core::kernel::replayable::Replayable;
use muster_core::kernel::reply::LinkKind;
use muster_core::store::{ChannelKey, GameRecord};

/// The game in `channel` as stored.
fn record(site: &Site, channel: &str) -> GameRecord {
    site.core
        .store_arc()
        .load(&ChannelKey::new("console", channel))
        .unwrap()
        .expect("a game in the channel")
}

/// The status line of a game's page (`<p class="status" role="status">…</p>`).
fn status_line(html: &str) -> String {
    let start = html.find("role=\"status\">").expect("a status line") + 14;
    html[start..][..html[start..].find("</p>").unwrap()].to_string()
}

/// The frames of a GIF, as RGBA, each composed over the last.
fn frames(gif: &[u8]) -> Vec<Vec<u8>> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(gif).expect("a GIF");
    let (w, h) = (decoder.width() as usize, decoder.height() as usize);
    let mut canvas = vec![0u8; w * h * 4];
    let mut out = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        let (fw, fl, ft) = (
            frame.width as usize,
            frame.left as usize,
            frame.top as usize,
        );
        for (i, px) in frame.buffer.chunks(4).enumerate() {
            if px[3] == 0 {
                continue;
            }
            let (x, y) = (fl + i % fw, ft + i / fw);
            canvas[(y * w + x) * 4..][..4].copy_from_slice(px);
        }
        out.push(canvas.clone());
    }
    out
}

/// A game of `new` among `players` in `channel`, `decisions` decisions played (the first legal
/// one each time, a day apart), then resigned by the player to move. While it runs, each
/// position's board, status line and replay are kept; after, each earlier position must be as
/// it was.
fn played_then_resigned(site: &Site, channel: &str, new: &str, players: &[&str], decisions: usize) {
    let mut begun = say(&site.core, players[0], channel, new);
    for p in &players[1..] {
        begun = say(&site.core, p, channel, "accept");
    }
    // The last acceptance begins the game, and links its page.
    let path = link(site, &begun, LinkKind::Watch);
    let mut boards = Vec::new();
    let mut statuses = Vec::new();
    let mut replay = Vec::new();
    for n in 0..=decisions {
        boards.push(get(site, &format!("{path}/board.png")).body);
        statuses.push(status_line(&get(site, &path).text()));
        if n == decisions {
            if n > 0 {
                replay = frames(&get(site, &format!("{path}/replay.gif")).body);
            }
            break;
        }
        let r = record(site, channel);
        let game = r.rebuild().unwrap();
        let seat = game.to_move().expect("a seat to decide").index();
        let mover = r.player(seat).unwrap().id.clone();
        // Lanrick 1880's set-ups are counted, not listed (docs/rules/lanrick1880.md, h).
        let decision = match game.phase_name() {
            "setup" => "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7".to_string(),
            _ => game.legal_moves_text()[0].clone(),
        };
        site.clock.advance(86_400);
        let out = say(&site.core, &mover, channel, &format!("move {decision}"));
        assert!(
            common::privates(&out).is_empty(),
            "{channel}: {mover} `{decision}`: {out:?}"
        );
    }
    let r = record(site, channel);
    let to_move = r.rebuild().unwrap().to_move().unwrap().index();
    let resigner = r.player(to_move).unwrap().id.clone();
    site.clock.advance(3_600);
    say(&site.core, &resigner, channel, "resign");
    let over = get(site, &path).text();
    let result = status_line(&over);
    assert!(result.contains("win"), "{channel}: {result}");
    // The resignation is no decision: the last position is the one it ended in.
    for ply in 0..decisions {
        let board = get(site, &format!("{path}/board.png?ply={ply}")).body;
        assert!(
            board == boards[ply],
            "{channel}: the board at {ply} is not as it was played"
        );
        let page = get(site, &format!("{path}?ply={ply}")).text();
        assert_eq!(status_line(&page), statuses[ply], "{channel} at {ply}");
    }
    // The result only on the last position: the page and board that follow the game.
    let last = get(site, &format!("{path}/board.png?ply={decisions}")).body;
    assert_eq!(last, get(site, &format!("{path}/board.png")).body);
    assert_ne!(last, boards[decisions]);
    let last_page = get(site, &format!("{path}?ply={decisions}")).text();
    assert_eq!(status_line(&last_page), result);
    let ended = frames(&get(site, &format!("{path}/replay.gif")).body);
    assert_eq!(ended.len(), decisions + 1, "{channel}");
    for (i, frame) in replay.iter().enumerate().take(decisions) {
        assert!(
            *frame == ended[i],
            "{channel}: the replay's frame {i} changed"
        );
    }
}

#[test]
fn every_earlier_position_of_a_finished_game_of_each_kind_is_drawn_as_it_was_played() {
    let site = site();
    for (channel, new, players, decisions) in [
        (
            "lanrick",
            "new lanrick @bob clock 3d",
            &["alice", "bob"][..],
            14,
        ),
        ("first", "new lanrick1880 @bob", &["alice", "bob"][..], 8),
        (
            "croquet",
            "new croquet @bob clock 10d+1d",
            &["alice", "bob"][..],
            4,
        ),
        (
            "l88",
            "new lanko88 @bob @carol @dan",
            &["alice", "bob", "carol", "dan"][..],
            9,
        ),
        ("l68", "new lanko68 @bob", &["alice", "bob"][..], 6),
        (
            "l103",
            "new lanko103 @bob @carol",
            &["alice", "bob", "carol"][..],
            7,
        ),
    ] {
        played_then_resigned(&site, channel, new, players, decisions);
    }
}
