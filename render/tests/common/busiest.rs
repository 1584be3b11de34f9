//! The busiest position of each game, as the style goldens (tests/styles.rs) and the render
//! benchmarks (benches/render.rs) draw them: Lanrick's whole example game at its 28th decision
//! (Black has won the rendezvous: three steps drawn, four men ringed), the first version with
//! White free to shift the mark, Croquet after four steps (a barred step, a missed hoop), and a
//! capture on each Lanko board (Lanko-68 a finished game with castles of both colours at home).

use muster_render::Style;
use muster_rules::Game;
use muster_rules::lanko::{Lanko, LankoEvent, Variant};

pub const NAMES: [&str; 2] = ["Alice", "Bob"];
pub const LANKO_NAMES: [&str; 4] = ["Alice", "Bob", "Carol", "Dave"];

/// Plays `moves` from the start of a game; the game and the last decision's events.
pub fn played<G: Game>(mut game: G, moves: &[&str]) -> (G, Vec<G::Event>) {
    let mut events = Vec::new();
    for text in moves {
        let seat = game.to_move().expect("to move");
        events = game.play_text(seat, text).expect("legal");
    }
    (game, events)
}

/// The first `n` decisions of a record in docs/examples.
fn record(text: &str, n: usize) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(n)
        .collect()
}

pub fn lanrick() -> (
    muster_rules::lanrick::Lanrick,
    Vec<muster_rules::lanrick::LanrickEvent>,
) {
    let moves = record(
        include_str!("../../../docs/examples/lanrick-whole-game.txt"),
        28,
    );
    played(muster_rules::lanrick::Lanrick::new(), &moves)
}

pub fn lanrick1880() -> (
    muster_rules::lanrick1880::Lanrick1880,
    Vec<muster_rules::lanrick1880::Event>,
) {
    played(
        muster_rules::lanrick1880::Lanrick1880::new(),
        &["W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7", "d4", "*d5", "c8-c6"],
    )
}

pub fn croquet() -> (
    muster_rules::croquet::Croquet,
    Vec<muster_rules::croquet::CroquetEvent>,
) {
    let steps = record(include_str!("../../../docs/examples/croquet-game.txt"), 4);
    played(muster_rules::croquet::Croquet::new(), &steps)
}

pub fn lanko(variant: Variant) -> (Lanko, Vec<LankoEvent>) {
    let (position, text) = match variant {
        Variant::L88 => (
            "P.SBSP/...P..Pp/...P....ps/spP..P..p./.b.......p/p......p.b/s........s/p........./......../.SBPSP w - 0",
            Some("20;22;7;N4"),
        ),
        Variant::L103 => (
            "PS.S./.P./p.P.../..PBp/.....p./.....Bpbp/p....sS/pb.../ps...p/PP./PS..P e - 0",
            Some("E1;N5;X1"),
        ),
        Variant::L68 => (
            ".P.S/..B./....../P........./.....b..../....sB..../......s.../....../..../.... n - 0",
            None,
        ),
    };
    let mut game = Lanko::from_position(variant, position).expect("position");
    match text {
        Some(text) => {
            let seat = game.to_move().expect("to move");
            let events = game.play_text(seat, text).expect("legal");
            (game, events)
        }
        None => {
            game.agree_draw().expect("not over yet");
            (game, Vec::new())
        }
    }
}

/// A board drawn and encoded in a style.
pub type Board = Box<dyn Fn(Style) -> Vec<u8>>;

/// Each game's busiest board, by name.
pub fn boards() -> Vec<(&'static str, Board)> {
    let (lr, lr_events) = lanrick();
    let (old, old_events) = lanrick1880();
    let (cq, cq_events) = croquet();
    let mut out: Vec<(&'static str, Board)> = vec![
        (
            "lanrick",
            Box::new(move |s| muster_render::lanrick::png_noted(&lr, &lr_events, NAMES, "", s)),
        ),
        (
            "lanrick1880",
            Box::new(move |s| {
                muster_render::lanrick1880::png_noted(&old, &old_events, NAMES, "", s)
            }),
        ),
        (
            "croquet",
            Box::new(move |s| muster_render::croquet::png_noted(&cq, &cq_events, NAMES, "", s)),
        ),
    ];
    for (name, variant) in [
        ("lanko88", Variant::L88),
        ("lanko68", Variant::L68),
        ("lanko103", Variant::L103),
    ] {
        let (game, events) = lanko(variant);
        out.push((
            name,
            Box::new(move |s| muster_render::lanko::png_noted(&game, &events, LANKO_NAMES, "", s)),
        ));
    }
    out
}
