//! Lanrick, first version (seed 001; docs/rules/lanrick1880.md, L0-1 … L0-7): one scenario per
//! rule, ruling and Carroll's clarifications of 1881.

use muster_rules::lanrick::Square;
use muster_rules::lanrick1880::{Event, Lanrick1880, Phase};
use muster_rules::{EndReason, Game, Outcome, Seat, Team};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn at(position: &str) -> Lanrick1880 {
    Lanrick1880::from_position(position).unwrap_or_else(|e| panic!("{position}: {e}"))
}

/// A position from the men's squares: `rest` is `<phase> <side> <mark> <taken> <shifter>`.
fn with(white: &[&str], black: &[&str], rest: &str) -> Lanrick1880 {
    let (w, b): (u64, u64) = (
        white.iter().fold(0, |a, s| a | sq(s).bit()),
        black.iter().fold(0, |a, s| a | sq(s).bit()),
    );
    let mut board = String::new();
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            let bit = Square::new(file, rank).unwrap().bit();
            let c = if w & bit != 0 {
                'W'
            } else if b & bit != 0 {
                'B'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            board.push(c);
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if rank > 0 {
            board.push('/');
        }
    }
    at(&format!("{board} {rest}"))
}

fn play(g: &mut Lanrick1880, text: &str) -> Vec<Event> {
    let seat = g.to_move().expect("someone to move");
    g.play_text(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e} at {}", g.position()))
}

fn refused(g: &Lanrick1880, text: &str) -> String {
    let mut copy = g.clone();
    let seat = g.to_move().expect("someone to move");
    let err = copy.play_text(seat, text).expect_err(text).to_string();
    assert_eq!(&copy, g, "a refused move changed the game");
    err
}

const SETUP: &str = "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7";

fn started() -> Lanrick1880 {
    let mut g = Lanrick1880::new();
    play(&mut g, SETUP);
    g
}

#[test]
fn white_sets_all_ten_men_on_the_border() {
    // Rule 2, L0-1
    let g = Lanrick1880::new();
    assert_eq!((g.phase(), g.to_move()), (Phase::Setup, Some(Seat::WHITE)));
    assert!(refused(&g, "W:a1,c1,e1,g1,d4 B:a8,c8,e8,g8,h7").contains("d4 is not a border square"));
    assert!(refused(&g, "W:a1,c1,e1,g1 B:a8,c8,e8,g8,h7").contains("White has 4 men"));
    assert!(refused(&g, "W:a1,c1,e1,g1,h2 B:a1,c8,e8,g8,h7").contains("a1 would hold two men"));
    assert!(refused(&g, "d4").contains("in the setup phase"));
    let mut g2 = g.clone();
    // Any order of the squares; the canonical text lists them by name.
    let mv = g2
        .parse_move("W:h2,g1,e1,c1,a1 B:h7,g8,e8,c8,a8")
        .expect("any order");
    assert_eq!(g2.format_move(&mv), SETUP);
    assert!(
        g2.parse_move("w:h2,g1,e1,c1,a1 b:h7,g8,e8,c8,a8").is_err(),
        "exactly W: and B:"
    );
    play(&mut g2, "W:h2,g1,e1,c1,a1 B:h7,g8,e8,c8,a8");
    assert_eq!(g.clone().legal_move_count(), 98_280 * 33_649);
    // L0-2: then Black chooses.
    assert_eq!(
        (g2.phase(), g2.to_move()),
        (Phase::Choose, Some(Seat::BLACK))
    );
}

#[test]
fn the_chooser_keeps_his_own_men_out_of_the_rendezvous() {
    // Rule 3, L0-2 (June 1881: it may hold the other's men)
    let g = started();
    assert!(refused(&g, "d7").contains("would include your men on c8, e8"));
    assert!(refused(&g, "a4").contains("on the border"));
    let mut ok = g.clone();
    play(&mut ok, "b2");
    assert_eq!(ok.mark(), Some(sq("b2")));
    assert_eq!(
        ok.men(Seat::WHITE) & sq("b2").zone(),
        sq("a1").bit() | sq("c1").bit(),
        "White's men may be in it"
    );
}

#[test]
fn the_other_plays_first_with_a_budget_of_his_men_each_man_once() {
    // Rules 4, 5, L0-3 (March and June 1881)
    let mut g = started();
    play(&mut g, "d4");
    assert_eq!(
        (g.to_move(), g.budget(), g.shifter()),
        (Some(Seat::WHITE), Some(5), Some(Seat::WHITE))
    );
    assert!(refused(&g, "c1-c2 c2-c3").contains("each man is moved at most once a turn"));
    assert!(refused(&g, "a1-a7").contains("6 squares exceed this turn's budget of 5"));
    assert!(refused(&g, "a1-d1").contains("passes over the man on c1"));
    play(&mut g, "c1-c4 e1-e2");
    assert_eq!((g.to_move(), g.budget()), (Some(Seat::BLACK), Some(5)));
}

#[test]
fn shifting_the_mark_carries_the_men_inside() {
    // Rule 5, L0-4 (March 1881: "any" men means all; the carrying costs them nothing)
    let mut g = with(
        &["a1", "c1", "e1", "g1", "h2"],
        &["a8", "c8", "e8", "h7", "c6"],
        "play w d5 0-0 w",
    );
    // Black's man on c6 is in the rendezvous c4–e6; shifting to c5 carries it to b6.
    let ev = play(&mut g, "*c5");
    assert_eq!(
        ev[0],
        Event::Shifted {
            seat: Seat::WHITE,
            from: sq("d5"),
            to: sq("c5"),
            carried: vec![(sq("c6"), sq("b6"))]
        }
    );
    assert_eq!(g.men(Seat::BLACK) & sq("b6").bit(), sq("b6").bit());
    assert_eq!(g.mark(), Some(sq("c5")));
    assert_eq!(g.to_move(), Some(Seat::BLACK));
    // Shifting is not moving a man: White keeps the privilege.
    assert_eq!(g.shifter(), Some(Seat::WHITE));
}

#[test]
fn a_shift_that_would_put_two_men_on_one_square_is_refused() {
    // Rule 5, L0-4: the man on c6 would be carried onto the man on b6.
    let g = with(
        &["a1", "c1", "e1", "g1", "h2"],
        &["a8", "c8", "e8", "c6", "b6"],
        "play w d5 0-0 w",
    );
    assert!(refused(&g, "*c5").contains("the man on c6 would be carried onto the man on b6"));
    assert!(!g.legal_shifts().contains(&sq("c5")));
    assert!(g.legal_shifts().contains(&sq("e5")));
}

#[test]
fn a_shift_may_not_bring_the_shifters_men_in() {
    // Rule 5, L0-4
    let g = with(
        &["a1", "c1", "e1", "g1", "d3"],
        &["a8", "c8", "e8", "g8", "h7"],
        "play w d5 0-0 w",
    );
    assert!(refused(&g, "*d4").contains("the new rendezvous would include your man on d3"));
    // A man already inside would be carried in: no shift at all.
    let g2 = with(
        &["a1", "c1", "e1", "g1", "d5"],
        &["a8", "c8", "e8", "g8", "h7"],
        "play w d5 0-0 w",
    );
    assert_eq!(
        refused(&g2, "*e5"),
        "*e5: your man on d5 is in the rendezvous and would be carried into the new one, which \
         may not include your men (Rule 5)"
    );
    assert!(g2.legal_shifts().is_empty());
    // Two men inside are said as two.
    let g4 = with(
        &["a1", "c1", "e1", "d4", "d5"],
        &["a8", "c8", "e8", "g8", "h7"],
        "play w d5 0-0 w",
    );
    assert!(
        refused(&g4, "*e5").starts_with("*e5: your men on d4, d5 are in the rendezvous"),
        "{}",
        refused(&g4, "*e5")
    );
    // Not to the border, and one square only.
    let g3 = with(
        &["a1", "c1", "e1", "g1", "h2"],
        &["a8", "c8", "e8", "g8", "h7"],
        "play w b5 0-0 w",
    );
    assert!(refused(&g3, "*a5").contains("may not go to a border square"));
    assert!(refused(&g3, "*d5").contains("one square"));
}

#[test]
fn the_privilege_ends_once_he_moves_a_man() {
    // Rule 5, L0-4: "so long as he has not moved any of his own men"; the chooser never has it.
    let mut g = started();
    play(&mut g, "d4");
    play(&mut g, "*d5");
    assert_eq!(g.shifter(), Some(Seat::WHITE));
    assert!(refused(&g, "*d4").contains("only the player who did not choose"));
    play(&mut g, "a8-a7");
    play(&mut g, "*d4");
    play(&mut g, "h7-h6");
    play(&mut g, "a1-a2");
    assert_eq!(g.shifter(), None);
    play(&mut g, "h6-h5");
    assert!(refused(&g, "*d5").contains("the mark cannot be shifted now"));
}

#[test]
fn a_won_rendezvous_a_taking_wanderers_and_the_next_round() {
    // Rule 6, L0-5, L0-6 (June 1881: any man not in, border or not): White wins with c2-d3,
    // takes a border man, sends Black's wanderer on b2 home; Black, the loser, chooses the next
    // rendezvous; White, the winner, plays first and may shift.
    let mut g = with(
        &["c5", "e5", "e4", "c4", "c2"],
        &["a8", "c8", "e8", "c3", "b2"],
        "play w d4 0-0 -",
    );
    let ev = play(&mut g, "c2-d3");
    assert!(ev.contains(&Event::RendezvousWon { seat: Seat::WHITE }));
    assert_eq!(
        (g.phase(), g.to_move()),
        (Phase::Capture, Some(Seat::WHITE))
    );
    assert!(refused(&g, "xc3").contains("is in the rendezvous"));
    play(&mut g, "xa8");
    assert_eq!(
        (g.phase(), g.to_move()),
        (Phase::Wanderers, Some(Seat::WHITE))
    );
    assert!(refused(&g, "b2-b5").contains("may go to"));
    play(&mut g, "b2-a1");
    assert_eq!((g.phase(), g.to_move()), (Phase::Choose, Some(Seat::BLACK)));
    // Every other man stays where he is (Rule 6): c3 is still Black's, in the field.
    assert_eq!(g.men(Seat::BLACK) & sq("c3").bit(), sq("c3").bit());
    play(&mut g, "f6");
    assert_eq!(
        (g.to_move(), g.shifter()),
        (Some(Seat::WHITE), Some(Seat::WHITE))
    );
}

#[test]
fn a_player_with_no_men_left_loses() {
    // Rule 6, L0-7: Black's last man is taken.
    let mut g = with(
        &["c3", "c4", "c5", "e4", "e5"],
        &["a1"],
        "capture w d4 4-0 -",
    );
    let ev = play(&mut g, "xa1");
    assert_eq!(ev.last(), Some(&Event::GameWon { seat: Seat::WHITE }));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Winner {
            team: Team::WHITE,
            reason: EndReason::Goal
        })
    );
}

#[test]
fn the_first_player_can_win_when_the_rendezvous_is_chosen() {
    // L0-5 read as L3-5 (our decision): White's two men are both in b2's block.
    let mut g = with(&["a1", "a2"], &["e8", "h7"], "choose b - 3-3 -");
    let ev = play(&mut g, "b2");
    assert!(ev.contains(&Event::RendezvousWon { seat: Seat::WHITE }));
    assert_eq!(
        (g.phase(), g.to_move()),
        (Phase::Capture, Some(Seat::WHITE))
    );
}

#[test]
fn position_strings_are_checked_and_finished_games_read_back() {
    assert!(Lanrick1880::from_position("8/8/8/8/8/8/8/8 play w a1 0-0 w").is_err());
    assert!(Lanrick1880::from_position("8/8/8/8/8/8/8/W7 setup w - 0-0 -").is_err());
    assert!(
        with(
            &["c5", "e5", "e4", "c4", "c2"],
            &["a8", "c8", "e8", "c3", "b2"],
            "play w d4 0-0 -"
        )
        .phase()
            == Phase::Play
    );
    assert!(
        Lanrick1880::from_position("B1B1B3/8/8/2W1W3/2W1W3/2B5/1BW5/8 capture w d4 0-0 -").is_err(),
        "c2 is out"
    );
    // A finished game's string reads back.
    let mut g = with(
        &["c3", "c4", "c5", "e4", "e5"],
        &["a1"],
        "capture w d4 4-0 -",
    );
    play(&mut g, "xa1");
    let back = at(&g.position());
    assert_eq!(
        (back.position(), back.outcome()),
        (g.position(), g.outcome())
    );
}
