//! Lanrick, Third Edition: one scenario per rule and ruling (seed 000; docs/rules/lanrick.md,
//! L3-1 … L3-13).

mod common;

use common::{at, moves, play, play_all, refused};
use muster_rules::lanrick::{BorderReason, Lanrick, LanrickEvent, Phase, Square};
use muster_rules::{EndReason, Game, Outcome, Seat, Team};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn events(game: &mut Lanrick, text: &str) -> Vec<LanrickEvent> {
    let seat = game.to_move().unwrap();
    game.play_text(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

const PLACED: &str = "a8\na1\nc8\nb1\ne8\nd1\ng8\nf1\nh8\nh1";
const OPENING: &str = "W1W1W1WW/8/8/8/8/8/8/BB1B1B1B play b d4 0-0 2 -";

#[test]
fn placement_alternates_five_each_on_the_border() {
    // Rule 5, L3-10: White places first, then Black, alternately, five men each, on the border.
    let mut g = Lanrick::new();
    assert_eq!(g.to_move(), Some(Seat::WHITE));
    assert!(refused(&g, "d4").contains("men are placed on the border"));
    play(&mut g, "a8").unwrap();
    assert_eq!(g.to_move(), Some(Seat::BLACK));
    assert!(refused(&g, "a8").contains("already occupied"));
    assert_eq!(moves(&g).len(), 27);
    let mut g = Lanrick::new();
    play_all(&mut g, PLACED);
    // L3-10: White sets the first mark.
    assert_eq!((g.phase(), g.to_move()), (Phase::Mark, Some(Seat::WHITE)));
    assert_eq!(g.men(Seat::WHITE).count_ones(), 5);
    assert_eq!(g.men(Seat::BLACK).count_ones(), 5);
}

#[test]
fn black_plays_first_with_two_squares() {
    // Rule 5 (he who did not set the mark plays first), Rule 4 and L3-3 (two squares).
    let mut g = Lanrick::new();
    play_all(&mut g, PLACED);
    play(&mut g, "d4").unwrap();
    assert_eq!(
        (g.phase(), g.to_move(), g.budget()),
        (Phase::Play, Some(Seat::BLACK), Some(2))
    );
    assert_eq!(g.position(), OPENING);
    assert!(refused(&g, "a1-a4").contains("3 squares exceed this turn's budget of 2"));
    assert!(refused(&g, "a1-a2 b1-b3").contains("3 squares exceed this turn's budget of 2"));
    play(&mut g, "a1-a2 b1-b2").unwrap();
    // Rule 4: in any other turn, as many squares as men on the board.
    assert_eq!((g.to_move(), g.budget()), (Some(Seat::WHITE), Some(5)));
}

#[test]
fn the_mark_goes_on_the_field() {
    // Rule 3, L3-1
    let mut g = Lanrick::new();
    play_all(&mut g, PLACED);
    assert!(refused(&g, "a4").contains("the mark goes on a field square"));
    assert!(refused(&g, "h8").contains("the mark goes on a field square"));
}

#[test]
fn the_setter_keeps_his_men_out_of_the_rendezvous() {
    // Rule 5, L3-9 first condition.
    let mut g = Lanrick::new();
    play_all(&mut g, PLACED);
    let err = refused(&g, "d7");
    assert!(
        err.contains("your men on c8, e8 would be in the rendezvous around d7"),
        "{err}"
    );
    let err = refused(&g, "c7");
    assert!(
        err.contains("your man on c8 would be in the rendezvous around c7"),
        "{err}"
    );
}

#[test]
fn the_setter_may_not_be_able_to_bring_all_his_men_in() {
    // Rule 5, L3-9 second condition: White's three men on c1, d1, e1 could step into d3's
    // rendezvous in one turn of three squares.
    let g = at("B1B1B1BB/8/8/8/8/8/8/2WWW3 mark w - 0-2 - w");
    let err = refused(&g, "d3");
    assert!(err.contains("you could bring all your men into the rendezvous around d3 in one turn (c1-c2 d1-d2 e1-e2)"), "{err}");
    // One rank further up they cannot: one square each does not reach it.
    let mut ok = g.clone();
    play(&mut ok, "d4").unwrap();
    assert_eq!(ok.mark(), Some(sq("d4")));
    let legal = moves(&g);
    assert!(!legal.contains(&"d3".to_string()) && !legal.contains(&"c3".to_string()));
    assert!(legal.contains(&"d4".to_string()) && legal.contains(&"g3".to_string()));
    // A man on a1 is two squares from d3's rendezvous: then d3 is legal.
    let g = at("B1B1B1BB/8/8/8/8/8/8/W3W3 mark w - 0-3 - w");
    assert!(moves(&g).contains(&"d3".to_string()));
}

#[test]
fn a_man_moves_along_one_line_more_than_once() {
    // Rule 2, Rule 4, L3-3: several steps of one man keep to his line; he may come back.
    let g = at("W1W1W1WW/8/8/8/8/8/8/BB1B1B1B play b d4 0-0 - w");
    assert_eq!(g.budget(), Some(5));
    let mut ok = g.clone();
    play(&mut ok, "d1-d2 d2-d4 d4-d3").unwrap();
    assert_eq!(ok.men(Seat::BLACK) & sq("d3").bit(), sq("d3").bit());
    let err = refused(&g, "d1-d2 d2-e3");
    assert!(err.contains("must keep to that line"), "{err}");
    let mut back = g.clone();
    play(&mut back, "a1-a2 a2-a1").unwrap();
    assert_eq!(back.men(Seat::BLACK), g.men(Seat::BLACK));
    // L3-4: a turn moves at least one square.
    assert!(refused(&g, "a1-a1").contains("does not move"));
}

#[test]
fn men_do_not_pass_over_men_but_the_mark_is_vacant() {
    // Rule 2, Rule 3, L3-2
    let g = at("W1W1W1WW/8/8/8/8/8/8/BB1B1B1B play b d4 0-0 - w");
    assert!(refused(&g, "a1-c1").contains("passes over the man on b1"));
    assert!(refused(&g, "a1-b1").contains("b1 is occupied"));
    assert!(refused(&g, "a8-a7").contains("the man on a8 is White's"));
    assert!(refused(&g, "c4-c5").contains("there is no man of yours on c4"));
    assert!(refused(&g, "d1-e3").contains("not on a rank, file or diagonal"));
    // The mark's square d4 counts as vacant: a man may stop on it or pass over it.
    let mut g2 = g.clone();
    play(&mut g2, "d1-d5").unwrap();
    let mut g3 = g.clone();
    play(&mut g3, "d1-d4").unwrap();
}

#[test]
fn obstruction_is_checked_step_by_step() {
    // L3-3: a man may step onto a square another left earlier in the same turn.
    let g = at("W1W1W1WW/8/8/8/8/8/8/BB1B1B1B play b d4 0-0 - w");
    let mut ok = g.clone();
    play(&mut ok, "b1-b2 a1-c1").unwrap();
    assert!(refused(&g, "a1-c1 b1-b2").contains("passes over the man on b1"));
}

#[test]
fn the_rendezvous_is_won_as_soon_as_all_men_are_in() {
    // Rule 6, L3-5: won at the step that brings the last man in; nothing may follow.
    let g = at("W1W1W1WW/8/8/8/8/2BB4/4B3/8 play b d4 2-0 - w");
    let err = refused(&g, "e2-e3 e3-e4");
    assert!(
        err.contains("the turn ends there") && err.contains("leave out e3-e4"),
        "{err}"
    );
    let mut won = g.clone();
    let ev = events(&mut won, "e2-e3");
    assert_eq!(
        ev.last(),
        Some(&LanrickEvent::RendezvousWon { seat: Seat::BLACK })
    );
    assert_eq!(
        (won.phase(), won.to_move()),
        (Phase::Capture, Some(Seat::BLACK))
    );
    assert_eq!(won.last_loser(), Some(Seat::WHITE));
}

#[test]
fn the_non_setter_can_win_when_the_mark_is_set() {
    // L3-5, L3-1: Black's men on a1 and a2 are in the rendezvous of b2, border squares included;
    // Black wins it without a turn.
    let mut g = at("5WWW/7W/8/8/8/8/B7/B7 mark w - 3-1 - w");
    let ev = events(&mut g, "b2");
    assert_eq!(
        ev,
        vec![
            LanrickEvent::MarkSet {
                seat: Seat::WHITE,
                square: sq("b2")
            },
            LanrickEvent::RendezvousWon { seat: Seat::BLACK },
        ]
    );
    assert_eq!(
        (g.phase(), g.to_move()),
        (Phase::Capture, Some(Seat::BLACK))
    );
    // Rule 6: he takes a man; no wanderer, fields equal (none): Rule 8's first player, the one
    // with fewer men on the board (Black, 2 against 3), sets the next mark (L3-8).
    play(&mut g, "xh8").unwrap();
    assert_eq!((g.phase(), g.to_move()), (Phase::Mark, Some(Seat::BLACK)));
    // L3-13: the old mark stays until the next is set.
    assert_eq!(g.mark(), Some(sq("b2")));
    play(&mut g, "e5").unwrap();
    // The other, White, plays first, with two squares.
    assert_eq!(
        (g.phase(), g.to_move(), g.budget()),
        (Phase::Play, Some(Seat::WHITE), Some(2))
    );
}

#[test]
fn the_winner_takes_a_man_who_is_not_in() {
    // Rule 6, L3-6: any adversary man not in the rendezvous, on the border or not.
    let g = at("7B/8/5B2/3B4/2W1W3/2WWW3/1B6/B7 capture w d4 0-0 - b");
    assert!(refused(&g, "xd5").contains("is in the rendezvous"));
    assert!(refused(&g, "xc3").contains("is your own"));
    assert!(refused(&g, "xb8").contains("there is no man on b8"));
    assert_eq!(moves(&g), ["xa1", "xb2", "xf6", "xh8"]);
    let mut g2 = g.clone();
    let ev = events(&mut g2, "xa1");
    assert_eq!(
        ev,
        vec![LanrickEvent::Took {
            seat: Seat::WHITE,
            square: sq("a1")
        }]
    );
    assert_eq!(
        (g2.taken(Seat::WHITE), g2.phase(), g2.to_move()),
        (1, Phase::Wanderers, Some(Seat::WHITE))
    );
}

#[test]
fn wanderers_go_to_the_border_along_a_clear_line() {
    // Rule 6, L3-6: the winner moves each wanderer (not in, not on the border) to an empty end
    // of one of its lines with a clear path.
    let mut g = at("7B/8/5B2/3B4/2W1W3/2WWW3/1B6/B7 capture w d4 0-0 - b");
    play(&mut g, "xa1").unwrap();
    let f6: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("f6"))
        .collect();
    // h8 is occupied; the diagonal to a1 is blocked by c3; the others are clear.
    assert_eq!(f6, ["f6-f1", "f6-h4", "f6-a6", "f6-h6", "f6-d8", "f6-f8"]);
    assert!(refused(&g, "f6-f4").contains("f4 is not a border square"));
    assert!(refused(&g, "f6-h8").contains("h8 is occupied"));
    assert!(refused(&g, "f6-a1").contains("must go along one of his lines"));
    assert!(refused(&g, "d5-d8").contains("in the rendezvous and stays there"));
    assert!(refused(&g, "h8-h7").contains("already on the border"));
    let ev = events(&mut g, "b2-a1");
    assert_eq!(
        ev,
        vec![LanrickEvent::ToBorder {
            seat: Seat::WHITE,
            owner: Seat::BLACK,
            from: sq("b2"),
            to: sq("a1"),
            reason: BorderReason::Wanderer
        }]
    );
    play(&mut g, "f6-f8").unwrap();
    // Rule 7, L3-7: White has five men in the field, Black one (d5): White equalises.
    assert_eq!(
        (g.phase(), g.to_move()),
        (Phase::Equalise, Some(Seat::WHITE))
    );
    assert!(refused(&g, "d5-d8").contains("the man on d5 is not White's"));
}

#[test]
fn the_player_with_more_field_men_equalises_even_the_loser() {
    // Rule 7, L3-7: White won with his men on border squares of the rendezvous around b2, so
    // Black, the loser, has more men in the field and moves his own to the border.
    let mut g = at("7B/7B/8/4B3/8/8/1BB5/WW6 capture w b2 0-3 - b");
    play_all(&mut g, "xh8\ne5-e1");
    assert_eq!(
        (g.phase(), g.to_move()),
        (Phase::Equalise, Some(Seat::BLACK))
    );
    // b2's clear ends: b8, h8 (taken just now), c1, a2, a3; c2 and the men on a1, b1 block the rest.
    let b2: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("b2"))
        .collect();
    assert_eq!(
        b2,
        ["b2-c1", "b2-a2", "b2-a3", "b2-b8", "b2-h8"].map(String::from)
    );
    play_all(&mut g, "b2-b8\nc2-h2");
    // Rule 8: all men on the border; White has fewer (2 against 4) and sets the mark.
    assert_eq!((g.phase(), g.to_move()), (Phase::Mark, Some(Seat::WHITE)));
}

#[test]
fn returns_alternate_from_the_loser_on_equal_numbers() {
    // Rule 8, L3-8: three men each after the taking, so the loser (Black) returns first; then
    // White; the same player, Black, then sets the mark and White plays first.
    let mut g = at("B7/8/8/4B3/8/2WWW3/1B6/7B capture w d4 1-2 - b");
    play_all(&mut g, "xa8\nb2-a1");
    assert_eq!(
        (g.phase(), g.to_move()),
        (Phase::Equalise, Some(Seat::WHITE))
    );
    play_all(&mut g, "c3-c1\ne3-e1");
    assert_eq!((g.phase(), g.to_move()), (Phase::Return, Some(Seat::BLACK)));
    assert!(refused(&g, "d3-d1").contains("your men in the field: e5"));
    let ev = events(&mut g, "e5-e8");
    assert!(matches!(
        ev[0],
        LanrickEvent::ToBorder {
            reason: BorderReason::Return,
            ..
        }
    ));
    assert_eq!((g.phase(), g.to_move()), (Phase::Return, Some(Seat::WHITE)));
    play(&mut g, "d3-d1").unwrap();
    assert_eq!((g.phase(), g.to_move()), (Phase::Mark, Some(Seat::BLACK)));
    assert_eq!(
        g.mark(),
        Some(sq("d4")),
        "L3-13: the mark stays until the next is set"
    );
    play(&mut g, "e5").unwrap();
    assert_eq!((g.to_move(), g.budget()), (Some(Seat::WHITE), Some(2)));
}

#[test]
fn the_player_with_fewer_men_returns_first() {
    // Rule 8, L3-8: after the taking White has 2 men and Black 3, so White returns first.
    // (After equalising both fields hold the same number, so the returns simply alternate.)
    let mut g = at("8/8/8/8/8/2WW4/1BB5/BB6 capture w d3 1-3 - b");
    play(&mut g, "xb1").unwrap();
    // Wanderers: b2 only; c2 is in the rendezvous of d3.
    assert_eq!(g.men_for_border(), sq("b2").bit());
    play(&mut g, "b2-b8").unwrap();
    // Fields: White 2 (c3, d3), Black 1 (c2): White equalises one.
    assert_eq!(
        (g.phase(), g.to_move()),
        (Phase::Equalise, Some(Seat::WHITE))
    );
    play(&mut g, "c3-a5").unwrap();
    assert_eq!((g.phase(), g.to_move()), (Phase::Return, Some(Seat::WHITE)));
    play(&mut g, "d3-d8").unwrap();
    assert_eq!((g.phase(), g.to_move()), (Phase::Return, Some(Seat::BLACK)));
    play(&mut g, "c2-c1").unwrap();
    assert_eq!((g.phase(), g.to_move()), (Phase::Mark, Some(Seat::WHITE)));
}

#[test]
fn four_men_taken_win_at_once() {
    // Rule 8, L3-11: the fourth taking ends the game; the wanderer on g7 is not moved.
    let mut g = at("8/6B1/8/8/2W1W3/2WWW3/1B6/8 capture w d4 3-0 - b");
    let ev = events(&mut g, "xb2");
    assert_eq!(
        ev.last(),
        Some(&LanrickEvent::GameWon { seat: Seat::WHITE })
    );
    assert_eq!(
        g.outcome(),
        Some(Outcome::Winner {
            team: Team::WHITE,
            reason: EndReason::Goal
        })
    );
    assert_eq!(g.to_move(), None);
    assert_eq!(g.men(Seat::BLACK), sq("g7").bit());
    assert!(g.legal_moves().is_empty());
    assert_eq!(refused(&g, "g7-g8"), "the game is over");
}

#[test]
fn a_player_who_cannot_step_passes() {
    // L3-4: after d1-c1 Black's men on a1 and b1 have no empty neighbour: Black passes and
    // White plays again, with his full budget.
    let mut g = at("8/8/8/8/8/8/WWW5/BB1W4 play w f6 3-1 - b");
    let ev = events(&mut g, "d1-c1");
    assert_eq!(ev.last(), Some(&LanrickEvent::Passed { seat: Seat::BLACK }));
    assert_eq!((g.to_move(), g.budget()), (Some(Seat::WHITE), Some(4)));
}

#[test]
fn the_third_repetition_in_a_round_draws() {
    // L3-12: positions counted after the mark and after every turn; the opening position is the
    // first occurrence even though its budget was 2.
    let mut g = at(OPENING);
    play_all(&mut g, "a1-a2\na8-a7\na2-a1\na7-a8\na1-a2\na8-a7\na2-a1");
    assert_eq!(g.outcome(), None);
    let ev = events(&mut g, "a7-a8");
    assert_eq!(
        ev.last(),
        Some(&LanrickEvent::Drawn {
            reason: EndReason::Repetition
        })
    );
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Repetition
        })
    );
    assert_eq!(g.phase(), Phase::Over);
}

#[test]
fn a_draw_by_agreement_or_a_resignation_ends_the_game() {
    // L3-12 (agreement)
    let mut g = at(OPENING);
    g.agree_draw().unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Agreement
        })
    );
    assert!(g.agree_draw().is_err());
    let mut g = at(OPENING);
    g.resign(Seat::BLACK).unwrap();
    assert_eq!(g.outcome().and_then(Outcome::winner), Some(Team::WHITE));
}

#[test]
fn only_the_player_to_decide_may_move() {
    let mut g = at(OPENING);
    let err = g.play_text(Seat::WHITE, "a8-a7").unwrap_err();
    assert_eq!(err.to_string(), "it is black's decision, not yours");
    assert_eq!(g.position(), OPENING);
}

#[test]
fn notation_errors_name_the_token() {
    let g = at(OPENING);
    assert!(refused(&g, "a1-a9").contains("`a9` is not a square"));
    assert!(refused(&g, "d4").contains("in the play phase, play a turn as steps from-to"));
    assert!(refused(&g, "xa8").contains("in the play phase"));
    let mut placing = Lanrick::new();
    assert!(refused(&placing, "a1-a2").contains("in the placement phase, place a man"));
    assert!(
        refused(&placing, "A1").contains("not a square"),
        "the notation is lower case"
    );
    play(&mut placing, "a1").unwrap();
}
