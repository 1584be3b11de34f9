//! The board files: the facts docs/rules/lanko.md says each reconstruction meets (and the
//! counts it says it cannot), and the errors an edited file gets, naming its line.

use muster_rules::lanko::{Board, Role, Variant};

fn count(board: &Board, role: Role) -> usize {
    board.squares.iter().filter(|s| s.role == role).count()
}

#[test]
fn lanko88_has_88_squares_4_middle_squares_and_4_barriers_on_the_outer_ring() {
    let b = Variant::L88.board();
    assert_eq!(b.len(), 88);
    assert_eq!(count(b, Role::Middle), 4);
    // The text's 20 border squares cannot be met by whole two-wide strips (32).
    assert_eq!(count(b, Role::StripWe) + count(b, Role::StripNs), 32);
    assert_eq!(b.barriers.len(), 4);
    // Every barrier touches a square on the outer ring: one with a missing neighbour.
    for (a, c) in &b.barriers {
        let outer = |sq: u8| (0..8).step_by(2).any(|d| b.neighbour(sq, d).is_none());
        assert!(outer(*a) || outer(*c), "{} {}", b.label(*a), b.label(*c));
    }
    // Middle and border squares share the marked colour; the field is the other.
    for s in &b.squares {
        assert_eq!(s.dark, s.role != Role::Field, "{}", s.label);
    }
}

#[test]
fn lanko68_has_68_squares() {
    let b = Variant::L68.board();
    assert_eq!(b.len(), 68);
    assert_eq!(count(b, Role::Middle), 4);
    assert_eq!(b.barriers.len(), 4);
}

#[test]
fn lanko103_has_53_dark_squares_and_a_centre_of_5_manoeuvre_and_4_end_squares() {
    let b = Variant::L103.board();
    let dark = b.squares.iter().filter(|s| s.dark).count();
    assert_eq!(dark, 53);
    // 50 light squares cannot be met by a board alike for all four seats: 52.
    assert_eq!(b.len() - dark, 52);
    assert_eq!(count(b, Role::Manoeuvre), 5);
    assert_eq!(count(b, Role::End), 4);
    assert_eq!(count(b, Role::Standby), 4);
    // The 8 light squares in play.
    let light_in_play = b
        .squares
        .iter()
        .filter(|s| !s.dark && s.role != Role::Unused)
        .count();
    assert_eq!(light_in_play, 8);
    // The centre is a 3×3 block: manoeuvre squares dark, end squares light.
    for s in &b.squares {
        match s.role {
            Role::Manoeuvre => assert!(s.dark),
            Role::End | Role::Standby => assert!(!s.dark),
            _ => {}
        }
    }
}

#[test]
fn every_board_is_the_same_for_each_seat_under_a_quarter_turn() {
    for v in Variant::ALL {
        let b = v.board();
        let n = b.rows;
        for s in &b.squares {
            // Turning S's view to W's: (row, col) -> (col, n - 1 - row).
            let t = b
                .cell(s.col, n - 1 - s.row)
                .expect("the turned square exists");
            assert_eq!(b.info(t).role == Role::Unused, s.role == Role::Unused);
            let here = b.cell(s.row, s.col).unwrap();
            let (p, q) = (b.start[here as usize], b.start[t as usize]);
            assert_eq!(
                p.map(|p| (p.kind, !p.white)),
                q.map(|q| (q.kind, q.white)),
                "{} {}",
                v.id(),
                s.label
            );
        }
    }
}

#[test]
fn an_edited_board_file_with_a_mistake_is_refused_with_its_line() {
    let text = Variant::L88.source();
    let broken = text.replacen(": = = = = M M = = = =", ": = = = = M Q = = = =", 1);
    let e = Board::parse(&broken).unwrap_err();
    assert!(e.reason.contains("`Q` is not a square character"), "{e}");
    assert!(e.line > 0);
    let twice = text.replacen("W1 W2", "W2 W2", 1);
    let e = Board::parse(&twice).unwrap_err();
    assert!(
        e.to_string().contains("the label `W2` is used twice"),
        "{e}"
    );
    let far = text.replacen("  43 44", "  43 52", 1);
    let e = Board::parse(&far).unwrap_err();
    assert!(e.to_string().contains("are not side by side"), "{e}");
    // A corrected board (here: one barrier removed) is read and played on.
    let fewer = text.replacen("  43 44\n", "", 1);
    assert_eq!(Board::parse(&fewer).unwrap().barriers.len(), 3);
}
