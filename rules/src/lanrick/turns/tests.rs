//! Tests of the play phase's turns.

use super::*;

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn set(names: &[&str]) -> Squares {
    names.iter().fold(0, |acc, n| acc | sq(n).bit())
}

fn steps(text: &str) -> Vec<Step> {
    text.split(' ')
        .map(|s| {
            let (a, b) = s.split_once('-').unwrap();
            Step {
                from: sq(a),
                to: sq(b),
            }
        })
        .collect()
}

#[test]
fn a_man_may_go_back_along_his_line() {
    // L3-3: `c1-c2 c2-c1` is a legal turn.
    let own = set(&["c1"]);
    let r = check_turn(
        own,
        0,
        2,
        sq("d4").zone(),
        &steps("c1-c2 c2-c1"),
        "Black",
        ManRule::SameLine,
    )
    .unwrap();
    assert_eq!(r, Checked { own, won: false });
}

#[test]
fn a_man_moved_twice_keeps_to_one_line() {
    // Rule 4, L3-3
    let err = check_turn(
        set(&["c1"]),
        0,
        5,
        sq("d4").zone(),
        &steps("c1-c2 c2-d3"),
        "Black",
        ManRule::SameLine,
    )
    .unwrap_err();
    assert!(err.contains("must keep to that line"), "{err}");
}

#[test]
fn under_the_once_rule_a_man_moves_once() {
    // L0-3 (Carroll, June 1881): each man is touched at most once a turn.
    let own = set(&["c1", "d1"]);
    let err = check_turn(own, 0, 5, 0, &steps("c1-c2 c2-c3"), "Black", ManRule::Once).unwrap_err();
    assert!(
        err.contains("each man is moved at most once a turn"),
        "{err}"
    );
    assert!(check_turn(own, 0, 5, 0, &steps("c1-c3 d1-d2"), "Black", ManRule::Once).is_ok());
    // Without second moves, going out and back is impossible: the start is not a result.
    let turns = distinct_turns(set(&["a1"]), 0, 2, sq("d5").zone(), ManRule::Once);
    assert_eq!(turns.len(), 6);
}

#[test]
fn the_mark_is_no_obstacle_but_men_are() {
    // Rule 3, L3-2
    let own = set(&["d1"]);
    let r = check_turn(
        own,
        0,
        4,
        sq("d3").zone(),
        &steps("d1-d5"),
        "Black",
        ManRule::SameLine,
    )
    .unwrap();
    assert_eq!(r.own, set(&["d5"]));
    let err = check_turn(
        own,
        set(&["d3"]),
        4,
        0,
        &steps("d1-d5"),
        "Black",
        ManRule::SameLine,
    )
    .unwrap_err();
    assert!(err.contains("passes over the man on d3"), "{err}");
}

#[test]
fn a_square_left_earlier_in_the_turn_may_be_entered() {
    // L3-3: obstruction is checked step by step, in order.
    let own = set(&["d1", "d2"]);
    let ok = check_turn(
        own,
        0,
        3,
        0,
        &steps("d2-e3 d1-d3"),
        "Black",
        ManRule::SameLine,
    )
    .unwrap();
    assert_eq!(ok.own, set(&["e3", "d3"]));
    let err = check_turn(
        own,
        0,
        3,
        0,
        &steps("d1-d3 d2-e3"),
        "Black",
        ManRule::SameLine,
    )
    .unwrap_err();
    assert!(err.contains("passes over the man on d2"), "{err}");
}

#[test]
fn budget_counts_every_square_of_every_step() {
    // Rule 4, L3-3
    let err = check_turn(
        set(&["c1", "d1"]),
        0,
        2,
        0,
        &steps("c1-c3 d1-e2"),
        "Black",
        ManRule::SameLine,
    )
    .unwrap_err();
    assert!(
        err.contains("3 squares exceed this turn's budget of 2"),
        "{err}"
    );
}

#[test]
fn the_turn_ends_when_the_rendezvous_is_won() {
    // L3-5
    let zone = sq("d4").zone();
    let own = set(&["c2", "e2"]);
    let won = check_turn(
        own,
        0,
        2,
        zone,
        &steps("c2-c3 e2-e3"),
        "Black",
        ManRule::SameLine,
    )
    .unwrap();
    assert!(won.won);
    let err = check_turn(
        own,
        0,
        4,
        zone,
        &steps("c2-c3 e2-e3 e3-e4"),
        "Black",
        ManRule::SameLine,
    )
    .unwrap_err();
    assert!(err.contains("leave out e3-e4"), "{err}");
}

#[test]
fn distinct_turns_merge_orders_of_the_same_steps() {
    // Two men, budget 2: each may step once (or one man twice).
    let own = set(&["a1", "h1"]);
    let turns = distinct_turns(own, 0, 2, sq("d5").zone(), ManRule::SameLine);
    let canon: Vec<String> = turns
        .iter()
        .map(|(_, p)| {
            p.steps()
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert!(canon.contains(&"a1-a2 h1-h2".to_string()));
    assert!(!canon.contains(&"h1-h2 a1-a2".to_string()));
    // a1 alone: 3 lines × 2 squares = 6; h1 alone 6; both one square: 3 × 3 = 9;
    // and the start position again by going there and back: 1.
    assert_eq!(turns.len(), 6 + 6 + 9 + 1);
}

#[test]
fn marks_within_one_square_of_every_man_can_be_reached() {
    // L3-9: with budget = men, every man must step one square into the rendezvous.
    let own = set(&["a1", "c1"]);
    let marks = reachable_marks(own, 0);
    assert!(marks & sq("b3").bit() != 0);
    assert!(marks & sq("c3").bit() != 0);
    assert!(marks & sq("e3").bit() == 0);
    let turn = winning_turn(own, 0, sq("b3")).unwrap();
    assert_eq!(turn.len(), 2);
    assert!(turn.iter().all(|s| sq("b3").zone() & s.to.bit() != 0));
    assert!(winning_turn(own, set(&["a2", "b2"]), sq("b3")).is_none());
}

/// The marks found by the full search over every turn, for comparison.
fn marks_by_full_search(own: Squares, opp: Squares) -> Squares {
    let outside = FIELD & !squares(own).fold(0, |acc, s| acc | s.zone());
    let mut marks = 0;
    search(
        own,
        opp,
        own.count_ones() as u8,
        None,
        ManRule::SameLine,
        |after, _| marks |= covering_marks(after),
    );
    marks & outside
}

#[test]
fn one_square_search_agrees_with_the_full_search() {
    // L3-9: the one-square argument of `reachable_marks`, checked on many positions.
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let border: Vec<Square> = squares(super::super::board::BORDER).collect();
    let mut checked_some = 0;
    for _ in 0..150 {
        let (mut own, mut opp): (Squares, Squares) = (0, 0);
        let n_own = 1 + next() % 5;
        while own.count_ones() < n_own as u32 {
            // Mostly border squares, as when a mark is set; some field squares too.
            let sq = if next() % 4 == 0 {
                Square::from_index((next() % 64) as usize).unwrap()
            } else {
                border[(next() % 28) as usize]
            };
            own |= sq.bit();
        }
        while opp.count_ones() < 5 {
            opp |= border[(next() % 28) as usize].bit() & !own;
        }
        let fast = reachable_marks(own, opp);
        assert_eq!(
            fast,
            marks_by_full_search(own, opp),
            "own {own:x} opp {opp:x}"
        );
        checked_some += usize::from(fast != 0);
    }
    assert!(
        checked_some > 10,
        "the positions should include reachable marks"
    );
}
