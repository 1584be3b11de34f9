//! Arithmetical Croquet: scenarios for each rule and ruling (seed 002; rulings C-1 … C-8 in
//! docs/rules/croquet.md).

use muster_rules::croquet::{Croquet, CroquetEvent, PassReason, Status};
use muster_rules::{EndReason, Game, Outcome, Seat, Team};

fn at(position: &str) -> Croquet {
    Croquet::from_position(position).unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn play(g: &mut Croquet, text: &str) -> Vec<CroquetEvent> {
    let seat = g.to_move().expect("a player to move");
    g.play_text(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e} at {}", g.position()))
}

fn refused(g: &Croquet, text: &str) -> String {
    let mut copy = g.clone();
    let seat = g.to_move().expect("a player to move");
    let err = copy.play_text(seat, text).expect_err(text).to_string();
    assert_eq!(&copy, g, "a refused step changed the game");
    err
}

fn moves(g: &Croquet) -> Vec<String> {
    g.legal_moves().iter().map(|s| g.format_move(s)).collect()
}

#[test]
fn a_step_is_one_to_eight() {
    // C-1, Rule 1: White first, both at 0.
    let g = Croquet::new();
    assert_eq!(g.to_move(), Some(Seat::WHITE));
    assert_eq!(moves(&g), ["1", "2", "3", "4", "5", "6", "7", "8"]);
    assert!(refused(&g, "9").contains("1 to 8"));
    assert!(refused(&g, "0").contains("1 to 8"));
    assert!(refused(&g, "x").contains("not a step"));
    assert!(refused(&g, "-2").contains("only to return below a missed hoop"));
    assert_eq!(g.position(), "0/10/n 0/10/n w - 0,0");
}

#[test]
fn seventeen_to_twenty_three_takes_hoop_twenty() {
    // Rule 2, C-2: from 17, 6 lands on 23, the same distance above 20: the hoop is taken.
    let mut g = at("17/20/n 5/10/n w - 0,0");
    let ev = play(&mut g, "6");
    assert!(ev.contains(&CroquetEvent::TookHoop {
        seat: Seat::WHITE,
        hoop: 20
    }));
    let b = g.ball(Seat::WHITE);
    assert_eq!((b.pos, b.target, b.status), (23, 30, Status::Normal));
}

#[test]
fn into_the_hoop_and_out_only_with_the_same_step() {
    // Rule 3, C-2, C-3: 17 → 20 is in the hoop; only 3 comes out, and takes it.
    let mut g = at("17/20/n 5/10/n w - 0,0");
    let ev = play(&mut g, "3");
    assert!(ev.contains(&CroquetEvent::InHoop {
        seat: Seat::WHITE,
        hoop: 20
    }));
    assert_eq!(g.ball(Seat::WHITE).status, Status::InHoop);
    play(&mut g, "1");
    assert_eq!(moves(&g), ["3"]);
    assert!(refused(&g, "4").contains("can come out only with 3"));
    let ev = play(&mut g, "3");
    assert!(ev.contains(&CroquetEvent::TookHoop {
        seat: Seat::WHITE,
        hoop: 20
    }));
    assert_eq!(g.ball(Seat::WHITE).pos, 23);
}

#[test]
fn any_other_step_past_the_hoop_misses_and_must_go_back() {
    // Rule 2, C-2, C-4: 17 → 22 misses 20; next turn only a back step below 20.
    let mut g = at("17/20/n 5/10/n w - 0,0");
    let ev = play(&mut g, "5");
    assert!(ev.contains(&CroquetEvent::Missed {
        seat: Seat::WHITE,
        target: 20
    }));
    assert_eq!(g.ball(Seat::WHITE).status, Status::Missed);
    play(&mut g, "1");
    // Black's 1 bars 1 and 8: from 22, -3 … -7 remain.
    assert_eq!(moves(&g), ["-3", "-4", "-5", "-6", "-7"]);
    assert!(refused(&g, "2").contains("must first go back below 20"));
    assert!(refused(&g, "-2").contains("not below 20"));
    play(&mut g, "-4");
    assert_eq!(g.ball(Seat::WHITE).status, Status::Normal);
}

#[test]
fn a_second_miss_of_the_same_hoop_loses() {
    // Rule 2, C-5: having missed 20 once, 13 → 21 misses it again.
    let mut g = at("13/20/n! 5/10/n w - 0,0");
    play(&mut g, "8");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Winner {
            team: Team::BLACK,
            reason: EndReason::Goal
        })
    );
    assert_eq!(g.to_move(), None);
}

#[test]
fn the_peg_is_won_exactly_and_missed_past_it() {
    // Rule 5, C-2, C-8: exactly 100 wins; anything above misses (no taking from the far side).
    let mut g = at("96/100/n 50/60/n w - 0,0");
    play(&mut g, "4");
    assert_eq!(g.outcome().and_then(Outcome::winner), Some(Team::WHITE));
    let mut g = at("96/100/n 50/60/n w - 0,0");
    let ev = play(&mut g, "8");
    assert!(
        ev.contains(&CroquetEvent::Missed {
            seat: Seat::WHITE,
            target: 100
        }),
        "104 = 2·100 − 96 still misses"
    );
    let mut g = at("103/100/m! 50/60/n w - 0,0");
    assert_eq!(moves(&g), ["-4", "-5", "-6", "-7", "-8"]);
    play(&mut g, "-5");
    let mut g2 = at("96/100/n! 50/60/n w - 0,0");
    play(&mut g2, "7");
    assert_eq!(
        g2.outcome().and_then(Outcome::winner),
        Some(Team::BLACK),
        "a second miss of the peg loses"
    );
    let _ = &mut g;
}

#[test]
fn a_step_bars_the_same_step_and_nine_minus_it() {
    // Rule 4, C-6: playing 2 bars 2 and 7, forward or back.
    let mut g = Croquet::new();
    play(&mut g, "2");
    assert_eq!(g.barred(), [2, 7]);
    assert_eq!(moves(&g), ["1", "3", "4", "5", "6", "8"]);
    assert!(refused(&g, "7").contains("2 and 7 are barred this turn by White's last step (C-6)"));
    // The bar lasts one turn.
    play(&mut g, "3");
    assert_eq!(moves(&g), ["1", "2", "4", "5", "7", "8"]);
}

#[test]
fn a_step_into_a_hoop_bars_nothing() {
    // Rule 4, C-6
    let mut g = at("17/20/n 5/10/n w - 0,0");
    play(&mut g, "3");
    assert!(g.barred().is_empty());
    assert_eq!(moves(&g).len(), 8);
}

#[test]
fn steps_from_91_to_99_bar_only_a_ball_also_there() {
    // Rule 4, C-6: from 91–99 no bar, unless the other is also at 91–99; 90 is not "between".
    let mut g = at("93/100/n 50/60/n w - 0,0");
    play(&mut g, "2");
    assert!(g.barred().is_empty());
    let mut g = at("93/100/n 94/100/n w - 0,0");
    play(&mut g, "2");
    assert_eq!(g.barred(), [2, 7]);
    let mut g = at("90/90/h3 50/60/n w - 0,0");
    play(&mut g, "3");
    assert_eq!(g.barred(), [3, 6], "a step from 90 bars");
    // A back step from above 100 is not "from 91–99" either.
    let mut g = at("103/100/m! 50/60/n w - 0,0");
    play(&mut g, "-5");
    assert_eq!(g.barred(), [4, 5]);
}

#[test]
fn a_ball_kept_in_its_hoop_passes_and_the_bar_lapses() {
    // Rule 6, C-3, C-6, C-8: White in 20 needing 3; Black plays 3, White cannot come out.
    let mut g = at("20/20/h3 5/10/n b - 0,0");
    let ev = play(&mut g, "3");
    assert_eq!(
        ev.last(),
        Some(&CroquetEvent::Passed {
            seat: Seat::WHITE,
            why: PassReason::KeptIn { hoop: 20 }
        })
    );
    assert_eq!(g.to_move(), Some(Seat::BLACK));
    // White's pass lifted the bar: Black is free, except Rule 6's alternation.
    assert!(g.barred().is_empty());
}

#[test]
fn keeping_in_alternates_the_two_barring_steps() {
    // Rule 6, C-7: 3, 6, 3 … but never the same twice running.
    let mut g = at("20/20/h3 0/10/n b - 0,0");
    play(&mut g, "3");
    assert!(refused(&g, "3").contains("may not play it twice running"));
    assert!(moves(&g).contains(&"6".to_string()));
    assert!(moves(&g).contains(&"1".to_string()), "other steps are free");
    let ev = play(&mut g, "6");
    assert_eq!(
        ev.last(),
        Some(&CroquetEvent::Passed {
            seat: Seat::WHITE,
            why: PassReason::KeptIn { hoop: 20 }
        })
    );
    assert!(refused(&g, "6").contains("twice running"));
    // 9 → 12 misses hoop 10 but still keeps White in.
    let ev = play(&mut g, "3");
    assert_eq!(
        ev.last(),
        Some(&CroquetEvent::Passed {
            seat: Seat::WHITE,
            why: PassReason::KeptIn { hoop: 20 }
        })
    );
    // Back steps count (C-7): -3 would repeat 3; -4 breaks the run, and White comes out.
    assert!(refused(&g, "-3").contains("twice running"));
    play(&mut g, "-4");
    assert_eq!(moves(&g), ["3"]);
}

#[test]
fn only_steps_made_while_the_other_was_in_count() {
    // C-7: Black's 3 was played before White went in, so it does not start a run.
    let mut g = at("16/20/n 5/10/n b - 0,0");
    play(&mut g, "3");
    play(&mut g, "4");
    assert_eq!(g.ball(Seat::WHITE).status, Status::InHoop);
    assert!(moves(&g).contains(&"4".to_string()) && moves(&g).contains(&"5".to_string()));
    // Black keeps White in with 4 (8 → 12 takes hoop 10), then may not repeat 4 but may play 5.
    let ev = play(&mut g, "4");
    assert!(ev.contains(&CroquetEvent::TookHoop {
        seat: Seat::BLACK,
        hoop: 10
    }));
    assert_eq!(
        ev.last(),
        Some(&CroquetEvent::Passed {
            seat: Seat::WHITE,
            why: PassReason::KeptIn { hoop: 20 }
        })
    );
    assert!(refused(&g, "4").contains("twice running"));
    assert!(moves(&g).contains(&"5".to_string()));
}

#[test]
fn a_missed_ball_barred_from_every_way_back_passes_and_stays_missed() {
    // C-4: at 27 after missing 20 only -8 gets below 20; Black's 1 bars 1 and 8.
    let mut g = at("27/20/m! 5/10/n b - 0,0");
    let ev = play(&mut g, "1");
    assert_eq!(
        ev.last(),
        Some(&CroquetEvent::Passed {
            seat: Seat::WHITE,
            why: PassReason::MustGoBack { target: 20 }
        })
    );
    assert_eq!(g.to_move(), Some(Seat::BLACK));
    assert_eq!(g.ball(Seat::WHITE).status, Status::Missed);
    play(&mut g, "2");
    assert_eq!(moves(&g), ["-8"]);
}

#[test]
fn taking_the_ninety_hoop_aims_at_the_peg() {
    // C-2, C-8
    let mut g = at("87/90/n 50/60/n w - 0,0");
    play(&mut g, "6");
    let b = g.ball(Seat::WHITE);
    assert_eq!((b.pos, b.target), (93, 100));
    assert_eq!(b.hoops_taken(), 9);
}

#[test]
fn errors_leave_the_game_as_it_was_and_only_the_mover_moves() {
    let mut g = Croquet::new();
    assert!(g.play_text(Seat::BLACK, "3").is_err());
    assert_eq!(g, Croquet::new());
    g.agree_draw().unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Agreement
        })
    );
}

#[test]
fn steps_are_read_strictly() {
    // C-1: one optional sign, one digit 1–8.
    let g = Croquet::new();
    assert!(refused(&g, "++3").contains("not a step"));
    assert!(refused(&g, "+-3").contains("not a step"));
    assert!(refused(&g, "3.0").contains("not a step"));
    assert!(
        refused(&g, "+3").contains("not a step"),
        "the notation is exactly 1–8 and -1–-8"
    );
    assert!(refused(&g, "03").contains("not a step"));
    let mut ok = g.clone();
    play(&mut ok, " 3 ");
    assert_eq!(ok.ball(Seat::WHITE).pos, 3);
    assert!(Croquet::from_position("0/10/n 0/10/n w - 0,x,3").is_err());
}

#[test]
fn two_passes_can_follow_each_other_but_not_three() {
    // C-3, C-4, C-7, C-8: White misses 10 with 8 from 9 while Black is in hoop 10 needing 8:
    // Black is barred (8 and 1) and passes; White's only way back, -8, would repeat 8 while
    // Black is in the hoop, so White passes too; then Black comes out.
    let mut g = at("9/10/n 10/10/h8 w - 0,0");
    let ev = play(&mut g, "8");
    let passes: Vec<&CroquetEvent> = ev
        .iter()
        .filter(|e| matches!(e, CroquetEvent::Passed { .. }))
        .collect();
    assert_eq!(passes.len(), 2, "{ev:?}");
    assert_eq!(g.to_move(), Some(Seat::BLACK));
    assert_eq!(moves(&g), ["8"]);
}
