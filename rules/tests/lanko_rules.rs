//! Lanko's rules, one scenario per ruling (docs/rules/lanko.md, K-1 … K-9) on each board where
//! it applies.
//! Positions are set up with `setup`, which places pieces by their labels on an empty board.

mod common;

use muster_rules::lanko::{Ending, Lanko, LankoMove, Variant};
use muster_rules::{Game, Outcome, Seat, Team};

const L88: Variant = Variant::L88;
const L68: Variant = Variant::L68;
const L103: Variant = Variant::L103;

fn seat(name: &str) -> Seat {
    Seat::new(
        ["s", "w", "n", "e"]
            .iter()
            .position(|s| *s == name)
            .unwrap(),
    )
    .unwrap()
}

/// A position with the given pieces (`label`, piece char) on an otherwise empty board.
fn setup(variant: Variant, pieces: &[(&str, char)], to_move: &str) -> Lanko {
    setup_with(variant, pieces, to_move, "-")
}

fn setup_with(variant: Variant, pieces: &[(&str, char)], to_move: &str, declared: &str) -> Lanko {
    setup_full(variant, pieces, to_move, declared, 0)
}

fn setup_full(
    variant: Variant,
    pieces: &[(&str, char)],
    to_move: &str,
    declared: &str,
    passes: u8,
) -> Lanko {
    for (label, _) in pieces {
        assert!(variant.board().square(label).is_some(), "no square {label}");
    }
    let rows = common::lanko_rows(variant, |info| {
        pieces
            .iter()
            .find(|(l, _)| *l == info.label)
            .map_or('.', |(_, p)| *p)
    });
    let text = format!("{rows} {to_move} {declared} {passes}");
    Lanko::from_position(variant, &text).unwrap()
}

fn moves(g: &Lanko) -> Vec<String> {
    g.legal_moves().iter().map(|m| g.format_move(m)).collect()
}

fn from(g: &Lanko, label: &str) -> Vec<String> {
    moves(g)
        .into_iter()
        .filter(|m| m.starts_with(&format!("{label}-")) || m.starts_with(&format!("{label};")))
        .collect()
}

fn play(g: &mut Lanko, text: &str) {
    let s = g.to_move().unwrap();
    if let Err(e) = g.play_text(s, text) {
        panic!("{text}: {e}");
    }
}

fn refused(g: &Lanko, text: &str) -> String {
    let mut trial = g.clone();
    let s = g.to_move().unwrap();
    let err = trial.play_text(s, text).unwrap_err().to_string();
    assert_eq!(&trial, g, "a refused move changes nothing");
    err
}

fn piece_at(g: &Lanko, label: &str) -> Option<char> {
    let sq = g.board().square(label).unwrap();
    g.cells()[sq as usize].map(|p| p.to_char())
}

// K-1: S moves first, then W, N, E, clockwise; S and N play White, W and E Black.
#[test]
fn k1_turns_go_s_w_n_e_from_s() {
    for v in Variant::ALL {
        let mut g = Lanko::new(v);
        let mut order = Vec::new();
        for _ in 0..8 {
            let s = g.to_move().unwrap();
            order.push(g.table().seat_name(s));
            let first = moves(&g)[0].clone();
            play(&mut g, &first);
        }
        assert_eq!(
            order,
            ["s", "w", "n", "e", "s", "w", "n", "e"],
            "{}",
            v.id()
        );
        let t = g.table();
        assert_eq!(t.team_of(seat("s")), Team::WHITE);
        assert_eq!(t.team_of(seat("n")), Team::WHITE);
        assert_eq!(t.team_of(seat("w")), Team::BLACK);
        assert_eq!(t.team_of(seat("e")), Team::BLACK);
    }
}

// K-1: only the seat to move may move.
#[test]
fn k1_only_the_seat_to_move_moves() {
    let g = Lanko::new(L88);
    let mv = g.legal_moves()[0].clone();
    let err = g.clone().play(seat("n"), &mv).unwrap_err().to_string();
    assert!(err.contains("s's decision"), "{err}");
}

// K-2: S moves white pieces south of the W–E strip or on it, never on N's side; forward is
// away from the seat.
#[test]
fn k2_a_seat_moves_its_colour_on_its_side_or_its_common_strip() {
    // 21 is north of the W–E strip (N's side); W3 is on the strip.
    let g = setup(L88, &[("21", 'P'), ("W3", 'P'), ("29", 'p')], "s");
    assert!(from(&g, "21").is_empty());
    let err = refused(&g, "21-13");
    assert!(err.contains("south side of the W-E strip"), "{err}");
    assert_eq!(
        from(&g, "W3"),
        ["W3-W2", "W3-W4", "W3-20", "W3-22", "W3-13"]
    );
    let err = refused(&g, "29-W7");
    assert!(err.contains("black"), "{err}");
    // Lanko-68: 12 is N's, 20 is S's.
    let g = setup(L68, &[("12", 'P'), ("20", 'P'), ("9", 'p')], "s");
    assert!(from(&g, "12").is_empty());
    assert_eq!(from(&g, "20").len(), 5);
    let g = setup(L88, &[("W3", 'S'), ("37", 'P')], "s");
    assert_eq!(from(&g, "W3"), ["W3-21", "W3-W2", "W3-W4"]);
    let g = setup(L88, &[("W3", 'S'), ("37", 'P')], "n");
    assert_eq!(from(&g, "W3"), ["W3-W7", "W3-W4", "W3-W2"]);
    // W moves east: its left is north.
    let g = setup(L88, &[("28", 'p')], "w");
    assert_eq!(
        from(&g, "28"),
        ["28-29", "28-W6", "28-36", "28-W7", "28-37"]
    );
    // E moves black pieces east of the N–S strip or on it; W does not move them there.
    let g = setup(L88, &[("31", 'p'), ("S1", 'p')], "w");
    assert!(from(&g, "31").is_empty());
    assert!(!from(&g, "S1").is_empty());
}

// K-2 on Lanko-103: W moves black pieces west of the N–S strip, forward is east.
#[test]
fn k2_on_lanko103_forward_is_away_from_the_seat() {
    let g = setup(L103, &[("13", 'p'), ("15", 'p')], "w");
    assert_eq!(from(&g, "13"), ["13-W6", "13-18"]);
    assert!(from(&g, "15").is_empty());
    let g = setup(L103, &[("15", 'p')], "e");
    assert_eq!(from(&g, "15"), ["15-S3", "15-X5"]);
}

// K-3: a pawn steps forward, left, right, forward-left or forward-right; never back.
#[test]
fn k3_pawn_steps_five_ways_and_castle_three() {
    for v in [L88, L68] {
        let square = if v == L88 { "37" } else { "19" };
        let g = setup(v, &[(square, 'P')], "s");
        assert_eq!(
            from(&g, square).len(),
            5,
            "{}: {:?}",
            v.id(),
            from(&g, square)
        );
        let g = setup(v, &[(square, 'B')], "s");
        assert_eq!(from(&g, square).len(), 3, "{}", v.id());
        let g = setup(v, &[(square, 'S')], "s");
        assert_eq!(from(&g, square).len(), 3, "{}", v.id());
    }
    let g = setup(L88, &[("37", 'P')], "s");
    assert_eq!(
        from(&g, "37"),
        ["37-29", "37-36", "37-38", "37-28", "37-30"]
    );
    let err = refused(&g, "37-44");
    assert!(err.contains("never backward"), "{err}");
    let g = setup(L88, &[("37", 'B')], "s");
    assert_eq!(from(&g, "37"), ["37-29", "37-36", "37-38"]);
    let err = refused(&g, "37-28");
    assert!(err.contains("never moves diagonally"), "{err}");
}

// K-3: a pawn jumps over a pawn of its own colour (its partner's too), forward, left or
// right; castles neither jump nor are jumped; one jump a turn.
#[test]
fn k3_pawn_jumps_over_own_colour_pawns_only() {
    let g = setup(
        L88,
        &[("37", 'P'), ("29", 'P'), ("38", 'P'), ("36", 'B')],
        "s",
    );
    let m = from(&g, "37");
    assert!(m.contains(&"37-W7".to_string()), "{m:?}");
    assert!(m.contains(&"37-S3".to_string()), "{m:?}");
    assert!(!m.contains(&"37-35".to_string()), "over a castle: {m:?}");
    let err = refused(&g, "37-35");
    assert!(err.contains("nothing jumps over a castle"), "{err}");
    // A pawn of its colour on the common strip is jumped as well.
    let g = setup(L88, &[("30", 'P'), ("W8", 'P')], "s");
    assert!(from(&g, "30").contains(&"30-W4".to_string()));
    // A castle does not jump.
    let g = setup(L88, &[("37", 'B'), ("29", 'P')], "s");
    assert!(!from(&g, "37").iter().any(|m| m == "37-W7"));
    // One jump per turn: over 29, then over W3, is not one move.
    let g = setup(L88, &[("37", 'P'), ("29", 'P'), ("W3", 'P')], "s");
    assert!(refused(&g, "37-21").contains("neighbouring square"));
}

// K-4: captures go straight, forward, backward and sideways, over an adjacent enemy onto the
// empty square behind; capturing is compulsory.
#[test]
fn k4_captures_are_straight_in_four_directions_and_compulsory() {
    let g = setup(L88, &[("29", 'P'), ("37", 'p'), ("50", 'P')], "s");
    assert_eq!(moves(&g), ["29;44"], "backward capture, and only captures");
    let err = refused(&g, "50-S7");
    assert!(err.contains("capturing is compulsory"), "{err}");
    // No diagonal capture.
    let g = setup(L88, &[("37", 'P'), ("28", 'p')], "s");
    assert!(!moves(&g).iter().any(|m| m.contains(';')));
    // Any piece captures any piece: a pawn takes a castle, a castle a pawn.
    let g = setup(L88, &[("37", 'P'), ("29", 'b')], "s");
    assert_eq!(moves(&g), ["37;W7"]);
    let g = setup(L88, &[("37", 'S'), ("36", 'p')], "s");
    assert_eq!(moves(&g), ["37;35"]);
    // On Lanko-68 too.
    let g = setup(L68, &[("19", 'P'), ("20", 'p')], "s");
    assert_eq!(moves(&g), ["19;S1"]);
}

// K-4: a capture goes on while it can, each captured piece removed at once; among captures
// the choice is free (a shorter sequence may be chosen over a longer one).
#[test]
fn k4_multiple_captures_go_to_the_end_with_free_choice() {
    // Around 13, 7, N5 and 22: the capturing pawn comes back to its own start square.
    let g = setup(
        L88,
        &[
            ("21", 'P'),
            ("13", 'p'),
            ("7", 'p'),
            ("N5", 's'),
            ("22", 'p'),
        ],
        "n",
    );
    assert_eq!(moves(&g), ["21;6;N3;N7;21", "21;N7;N3;6;21"]);
    let mut after = g.clone();
    play(&mut after, "21;6;N3;N7;21");
    for l in ["13", "7", "N5", "22"] {
        assert_eq!(piece_at(&after, l), None, "{l} taken");
    }
    assert_eq!(piece_at(&after, "21"), Some('P'));
    // Stopping early is refused.
    let err = refused(&g, "21;6");
    assert!(err.contains("must go on"), "{err}");
    // Free choice: the one-piece capture to 35 is as legal as the two-piece one.
    let g = setup(
        L88,
        &[("37", 'P'), ("36", 'p'), ("29", 'p'), ("W3", 'p')],
        "s",
    );
    assert_eq!(moves(&g), ["37;W7;21", "37;35"]);
}

// K-5: a castle entering a middle square stays there, counts triple, cannot be captured; a
// pawn entering one is burned.
#[test]
fn k5_castles_stay_on_middle_squares_and_pawns_burn() {
    for v in [L88, L68] {
        let mut g = setup(
            v,
            &[("S1", 'B'), ("S2", 'P'), ("W1", 'p'), ("E4", 's')],
            "s",
        );
        let before = g.score();
        assert!(
            moves(&g).contains(&"S1-M3(X)".to_string()),
            "{:?}",
            moves(&g)
        );
        play(&mut g, "S1-M3(X)");
        assert_eq!(g.score()[0], before[0] + 24, "12 becomes 36");
        assert_eq!(piece_at(&g, "M3"), Some('B'));
        // It never moves again: not even the seat holding it lists it.
        for _ in 0..3 {
            let first = moves(&g)[0].clone();
            play(&mut g, &first);
        }
        assert!(from(&g, "M3").is_empty());
        let err = refused(&g, "M3-M1");
        assert!(err.contains("stays on its middle square"), "{err}");
        // A pawn that enters is burned.
        let mut g = setup(v, &[("S2", 'P'), ("W1", 'p')], "s");
        play(&mut g, "S2-M4");
        assert_eq!(piece_at(&g, "M4"), None);
        assert_eq!(g.score()[0], 0);
    }
    // A castle on a middle square cannot be captured.
    let g = setup(
        L88,
        &[("M3", 'B'), ("M1", 's'), ("W8", 'p'), ("50", 'P')],
        "w",
    );
    assert!(
        !moves(&g).iter().any(|m| m.contains(';')),
        "{:?}",
        moves(&g)
    );
    // `(X)` is written only for a castle entering.
    let g = setup(L88, &[("S2", 'P'), ("W1", 'p')], "s");
    assert!(g.parse_move("S2-M4(X)").is_err());
    assert!(g.parse_move("S2-M4").is_ok());
}

// K-5: entering a middle square ends a capture sequence, even where the castle could capture
// again from there.
#[test]
fn k5_entering_a_middle_square_ends_the_capture() {
    let g = setup(L88, &[("S3", 'B'), ("S1", 'p'), ("W8", 'p')], "s");
    assert_eq!(moves(&g), ["S3;M3(X)"]);
    let mut after = g.clone();
    play(&mut after, "S3;M3(X)");
    assert_eq!(
        piece_at(&after, "W8"),
        Some('p'),
        "not captured: the sequence ended"
    );
    // A pawn capturing onto a middle square is burned there.
    let mut g = setup(L88, &[("S3", 'P'), ("S1", 'p'), ("W8", 'p')], "s");
    play(&mut g, "S3;M3");
    assert_eq!(piece_at(&g, "M3"), None);
}

// K-5: barriers stop every move but a pawn's diagonal step.
#[test]
fn k5_barriers_stop_straight_moves_jumps_and_captures() {
    // Lanko-88: a barrier between 43 and 44 (the south-west corner).
    let g = setup(L88, &[("43", 'p')], "w");
    assert_eq!(
        from(&g, "43"),
        ["43-36", "43-37", "43-49"],
        "east is barred, the diagonals are not"
    );
    let err = refused(&g, "43-44");
    assert!(err.contains("barrier"), "{err}");
    let g = setup(L88, &[("43", 's')], "w");
    assert_eq!(from(&g, "43"), ["43-36"]);
    // No capture across it.
    let g = setup(L88, &[("43", 'p'), ("44", 'P')], "w");
    assert!(
        !moves(&g).iter().any(|m| m.contains(';')),
        "{:?}",
        moves(&g)
    );
    // No jump across it.
    let g = setup(L88, &[("45", 'P'), ("44", 'P')], "s");
    assert!(!from(&g, "45").contains(&"45-43".to_string()));
    let g = setup(L88, &[("44", 'P'), ("49", 'P')], "s");
    assert!(from(&g, "44").contains(&"44-36".to_string()));
    assert!(!from(&g, "44").contains(&"44-43".to_string()));
    // Lanko-68: between 25 and 26.
    let g = setup(L68, &[("25", 'p')], "w");
    assert!(!from(&g, "25").contains(&"25-26".to_string()));
    assert!(from(&g, "25").contains(&"25-20".to_string()));
}

// K-6: on Lanko-103 a piece steps diagonally forward, leaps diagonally forward over a piece
// of its own colour (castles too), and captures diagonally forward or backward.
#[test]
fn k6_lanko103_moves_leaps_and_captures_diagonally() {
    let g = setup(L103, &[("14", 'P')], "s");
    assert_eq!(from(&g, "14"), ["14-W6", "14-X4"]);
    // A castle leaps over a pawn, a pawn over a castle.
    let g = setup(L103, &[("14", 'B'), ("X4", 'P')], "s");
    assert!(from(&g, "14").contains(&"14-X3".to_string()));
    let g = setup(L103, &[("14", 'P'), ("X4", 'S')], "s");
    assert!(from(&g, "14").contains(&"14-X3".to_string()));
    // No leap backward, none over the other colour.
    let g = setup(L103, &[("X4", 'P'), ("14", 'P')], "s");
    assert!(!from(&g, "X4").contains(&"X4-18".to_string()));
    // Capture backward.
    let g = setup(L103, &[("X4", 'P'), ("14", 'p'), ("2", 'P')], "s");
    assert_eq!(moves(&g), ["X4;18"]);
    // Multiple capture, to the end.
    let g = setup(L103, &[("18", 'P'), ("14", 'p'), ("W4", 'p')], "s");
    assert_eq!(moves(&g), ["18;X4;W2"]);
}

// K-6: castles reach an end square only from a manoeuvre square, forward or sideways; pawns
// never enter end squares.
#[test]
fn k6_end_squares_only_from_manoeuvre_squares() {
    let g = setup(L103, &[("X4", 'B')], "s");
    let m = from(&g, "X4");
    assert!(m.contains(&"X4-O2(X)".to_string()), "forward: {m:?}");
    assert!(m.contains(&"X4-O4(X)".to_string()), "right: {m:?}");
    let g = setup(L103, &[("X1", 'S')], "s");
    let m = from(&g, "X1");
    assert!(m.contains(&"X1-O1(X)".to_string()), "right: {m:?}");
    assert!(!m.iter().any(|x| x.starts_with("X1-O2")), "backward: {m:?}");
    let err = refused(&g, "X1-O2");
    assert!(err.contains("never backward"), "{err}");
    let g = setup(L103, &[("X3", 'S')], "s");
    let m = from(&g, "X3");
    for ok in ["X3-O1(X)", "X3-O2(X)", "X3-O3(X)"] {
        assert!(m.contains(&ok.to_string()), "{ok}: {m:?}");
    }
    assert!(!m.iter().any(|x| x.starts_with("X3-O4")));
    let g = setup(L103, &[("X4", 'P')], "s");
    assert!(!from(&g, "X4").iter().any(|x| x.contains('O')));
    assert!(refused(&g, "X4-O2").contains("pawns never enter"));
    // Entering triples the castle and fixes it; it cannot be captured.
    let mut g = setup(L103, &[("X4", 'B'), ("2", 'p')], "s");
    play(&mut g, "X4-O2(X)");
    assert_eq!(g.score()[0], 36);
    let g = setup(L103, &[("11", 'P')], "s");
    assert!(refused(&g, "11-O3").contains("manoeuvre square") || g.parse_move("11-O3").is_err());
}

// K-6: a standby pawn stays on its light square, immune, until a dark square in front of it or
// beside it is empty; coming into play is a move.
#[test]
fn k6_standby_pawns_wait_then_come_into_play() {
    let mut g = Lanko::new(L103);
    assert!(from(&g, "S0").is_empty(), "hemmed in at the start");
    // Open S4 (in front of S0): S's big castle leaves it.
    play(&mut g, "S4-14");
    let first = |g: &Lanko| moves(g)[0].clone();
    for _ in 0..3 {
        let m = first(&g);
        play(&mut g, &m);
    }
    assert_eq!(g.table().seat_name(g.to_move().unwrap()), "s");
    assert!(
        from(&g, "S0").contains(&"S0-S4".to_string()),
        "{:?}",
        moves(&g)
    );
    // It cannot be captured: no diagonal neighbour.
    let g = setup(L103, &[("S0", 'P'), ("S4", 'p'), ("2", 'P')], "e");
    assert!(
        !moves(&g).iter().any(|m| m.contains("S0")),
        "{:?}",
        moves(&g)
    );
}

// K-7: a seat with no legal move passes with `---`; `---` is refused when it can move.
#[test]
fn k7_no_move_means_a_pass() {
    // S has no white piece on its side or on the W–E strip.
    let mut g = setup(L88, &[("1", 'P'), ("2", 'S'), ("49", 'p')], "s");
    assert_eq!(moves(&g), ["---"]);
    play(&mut g, "---");
    assert_eq!(g.table().seat_name(g.to_move().unwrap()), "w");
    assert_eq!(g.passes(), 1);
    let g = setup(L88, &[("49", 'P'), ("21", 'p'), ("1", 'S')], "s");
    assert!(refused(&g, "---").contains("may not pass"));
    // Lanko-103: a standby pawn hemmed in has no move.
    let g = setup(
        L103,
        &[
            ("S0", 'P'),
            ("S4", 'P'),
            ("S5", 'P'),
            ("S6", 'P'),
            ("2", 'S'),
        ],
        "s",
    );
    assert!(from(&g, "S0").is_empty(), "{:?}", moves(&g));
}

// K-8: the game ends when every middle square holds a castle.
#[test]
fn k8_ends_when_every_middle_square_is_taken() {
    let mut g = setup(
        L88,
        &[
            ("M1", 'B'),
            ("M2", 'b'),
            ("M4", 's'),
            ("S1", 'S'),
            ("21", 'p'),
        ],
        "s",
    );
    play(&mut g, "S1-M3(X)");
    assert_eq!(g.ending(), Some(Ending::GoalsFull));
    // White 36 + 18 = 54, Black 36 + 18 + 2 = 56.
    assert_eq!(g.score(), [54, 56]);
    assert_eq!(g.outcome().unwrap().winner(), Some(Team::BLACK));
    let mut g = setup(
        L103,
        &[
            ("O1", 'B'),
            ("O3", 'b'),
            ("O4", 's'),
            ("X4", 'S'),
            ("2", 'p'),
        ],
        "s",
    );
    play(&mut g, "X4-O2(X)");
    assert_eq!(g.ending(), Some(Ending::GoalsFull));
}

// K-8: the game ends when no castle is left off the middle (end) squares.
#[test]
fn k8_ends_when_no_castle_is_left_off_them() {
    let mut g = setup(
        L88,
        &[("37", 'P'), ("29", 's'), ("M1", 'B'), ("52", 'p')],
        "s",
    );
    play(&mut g, "37;W7");
    assert_eq!(g.ending(), Some(Ending::NoCastleLeft));
    assert_eq!(g.score(), [38, 2]);
}

// K-8: the game ends when every piece of one colour is gone.
#[test]
fn k8_ends_when_a_colour_is_wiped_out() {
    let mut g = setup(L68, &[("19", 'B'), ("W7", 'p'), ("20", 'S')], "s");
    play(&mut g, "19;W3");
    assert_eq!(g.ending(), Some(Ending::ColourGone));
    assert_eq!(g.outcome().unwrap().winner(), Some(Team::WHITE));
}

// K-8: the game ends when every seat holding castles has declared and no castle can be taken.
#[test]
fn k8_ends_by_declaration() {
    // White's castles are held by S (south) and N (north); Black holds none.
    let mut g = setup(
        L88,
        &[("49", 'B'), ("1", 'S'), ("27", 'p'), ("26", 'p')],
        "s",
    );
    play(&mut g, "===");
    assert_eq!(g.ending(), None, "N still holds a castle");
    assert_eq!(
        g.table().seat_name(g.to_move().unwrap()),
        "s",
        "a declaration is not a move"
    );
    // Having declared, S may not bring a castle in.
    play(&mut g, "49-50");
    for _ in 0..1 {
        let m = moves(&g)[0].clone();
        play(&mut g, &m);
    }
    assert_eq!(g.table().seat_name(g.to_move().unwrap()), "n");
    play(&mut g, "===");
    assert_eq!(g.ending(), Some(Ending::Declared));
    // A second declaration is refused; so is one without castles.
    let g = setup_with(L88, &[("49", 'B'), ("1", 'S'), ("27", 'p')], "s", "s");
    assert!(refused(&g, "===").contains("already declared"));
    let g = setup(L88, &[("49", 'P'), ("1", 'S'), ("27", 'p')], "s");
    assert!(refused(&g, "===").contains("no castle"));
    // A declared seat's castle may not enter.
    let g = setup_with(L88, &[("S1", 'B'), ("1", 'S'), ("27", 'p')], "s", "s");
    assert!(!moves(&g).iter().any(|m| m.contains("(X)")));
    assert!(refused(&g, "S1-M3").contains("declared"));
}

// K-8: a capture the declared seat may not make (its castle onto a middle square) does not
// keep the game going.
#[test]
fn k8_a_capture_forbidden_by_the_declaration_does_not_count() {
    let mut g = setup_with(
        L88,
        &[("S3", 'B'), ("S1", 's'), ("S5", 'P'), ("1", 'P')],
        "s",
        "we",
    );
    play(&mut g, "===");
    assert_eq!(g.ending(), Some(Ending::Declared));
}

// K-8: a position repeated for the third time with the same seat to move ends the game.
#[test]
fn k8_ends_on_the_third_repetition() {
    let mut g = setup(
        L88,
        &[("S3", 'S'), ("E4", 's'), ("4", 'S'), ("W1", 's')],
        "s",
    );
    let cycle = [
        "S3-S4", "W1-W5", "4-3", "E4-E8", "S4-S3", "W5-W1", "3-4", "E8-E4",
    ];
    for round in 0..2 {
        for m in cycle {
            assert_eq!(g.ending(), None, "round {round}");
            play(&mut g, m);
        }
    }
    assert_eq!(g.ending(), Some(Ending::Repetition));
    assert_eq!(
        g.outcome().unwrap().reason(),
        muster_rules::EndReason::Repetition
    );
    assert!(
        matches!(g.outcome(), Some(Outcome::Draw { .. })),
        "24 points each"
    );
}

// K-8 (our decision): the fourth pass in a row ends the game, since nothing can move again.
#[test]
fn k8_ends_when_no_seat_can_move() {
    let mut g = setup_full(L88, &[("1", 'P'), ("2", 'S'), ("52", 'p')], "w", "-", 3);
    assert_eq!(moves(&g), ["---"]);
    play(&mut g, "---");
    assert_eq!(g.ending(), Some(Ending::NoMoves));
}

// K-8: by agreement, scored as the board stands (K-9).
#[test]
fn k8_agreement_is_scored_by_points() {
    let mut g = setup(L88, &[("49", 'B'), ("27", 'p')], "s");
    g.agree_draw().unwrap();
    assert_eq!(g.ending(), Some(Ending::Agreement));
    assert_eq!(g.outcome().unwrap().winner(), Some(Team::WHITE));
}

// K-9: pawn 2, small castle 6, big castle 12, a castle on a middle (end) square triple; the
// start is even.
#[test]
fn k9_scores_and_the_start_is_even() {
    for v in Variant::ALL {
        let g = Lanko::new(v);
        let [w, b] = g.score();
        assert_eq!(w, b, "{}", v.id());
    }
    assert_eq!(Lanko::new(L88).score(), [76, 76]);
    assert_eq!(Lanko::new(L68).score(), [52, 52]);
    assert_eq!(Lanko::new(L103).score(), [76, 76]);
    let g = setup(
        L88,
        &[
            ("M1", 'B'),
            ("M2", 'S'),
            ("M3", 'b'),
            ("1", 'P'),
            ("2", 'p'),
            ("3", 'S'),
        ],
        "s",
    );
    assert_eq!(g.score(), [36 + 18 + 2 + 6, 36 + 2]);
}

// Resignation: the other pair wins.
#[test]
fn resigning_gives_the_game_to_the_other_pair() {
    let mut g = Lanko::new(L103);
    g.resign(seat("w")).unwrap();
    assert_eq!(g.outcome().unwrap().winner(), Some(Team::WHITE));
    assert_eq!(g.ending(), Some(Ending::Resignation));
}

// Notation: labels exactly as the board writes them; errors say what to write instead.
#[test]
fn notation_errors_are_specific() {
    let g = Lanko::new(L88);
    let e = g.parse_move("q9-q10").unwrap_err().to_string();
    assert!(e.contains("not a square of Lanko-88"), "{e}");
    let e = g.parse_move("s1-m3").unwrap_err().to_string();
    assert!(e.contains("capitals"), "{e}");
    let e = g.parse_move("44-30").unwrap_err().to_string();
    assert!(e.contains("neighbouring square"), "{e}");
    let e = g.parse_move("37;38").unwrap_err().to_string();
    assert!(e.contains("two squares away"), "{e}");
    let e = g.parse_move("+++").unwrap_err().to_string();
    assert!(e.contains("not over"), "{e}");
    assert_eq!(g.parse_move("---"), Ok(LankoMove::Pass));
    assert_eq!(g.parse_move("==="), Ok(LankoMove::Declare));
}
