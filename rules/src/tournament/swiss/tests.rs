//! The Dutch system's rules, each test citing the article it checks (FIDE Handbook C.04.3).

use super::*;
use crate::tournament::Pairing;

/// What an entrant has had so far, as the rules count it.
#[derive(Default)]
struct Past {
    met: Vec<usize>,
    colours: Vec<bool>,
    bye: bool,
}

impl Past {
    fn difference(&self) -> i32 {
        self.colours.iter().map(|&w| if w { 1 } else { -1 }).sum()
    }
}

fn pasts(field: &Field) -> Vec<Past> {
    let mut past: Vec<Past> = (0..field.entrants()).map(|_| Past::default()).collect();
    for round in &field.rounds {
        for (e, entry) in round.iter().enumerate() {
            if let Some((opponent, white)) = entry.played() {
                past[e].met.push(opponent);
                past[e].colours.push(white);
            } else if entry.points() >= 2 {
                past[e].bye = true;
            }
        }
    }
    past
}

fn round(pairs: &[(usize, usize)], rest: Option<usize>) -> Round {
    Round {
        pairings: pairs
            .iter()
            .map(|&(white, black)| Pairing { white, black })
            .collect(),
        rest,
    }
}

/// A field of `n` after `rounds`, each game won by White.
fn field(n: usize, rounds: &[Round]) -> Field {
    let mut field = Field::new(n, 9);
    for r in rounds {
        field.push(r, |_, _| (2, false));
    }
    field
}

#[test]
fn the_first_round_pairs_the_top_half_against_the_bottom_half_with_alternating_colours() {
    let paired = pair(&field(8, &[])).unwrap();
    let games = games(&paired);
    assert_eq!(games, [(0, 4), (5, 1), (2, 6), (7, 3)]);
    assert_eq!(paired.round.rest, None);
    // An odd field: the lowest seed rests.
    let odd = pair(&field(7, &[])).unwrap();
    assert_eq!(odd.round.rest, Some(6));
    assert_eq!(odd.round.pairings[0], Pairing { white: 0, black: 3 });
}

#[test]
fn score_groups_pair_within_themselves_and_the_odd_one_floats_down() {
    // After round 1 of six: 0, 4 (White) and 2 won, 3, 1, 5 lost.
    let paired = pair(&field(6, &[round(&[(0, 3), (4, 1), (2, 5)], None)])).unwrap();
    let meets = |a: usize, b: usize| {
        paired
            .round
            .pairings
            .iter()
            .any(|p| (p.white, p.black) == (a, b) || (p.white, p.black) == (b, a))
    };
    // Winners 0, 2, 4: 0 v 4 would repeat nothing; the odd one floats down.
    assert!(meets(0, 4) || meets(0, 2), "{paired:?}");
    assert!(!paired.colours_relaxed);
}

#[test]
fn a_forfeit_is_no_meeting_and_gives_no_colour() {
    // C.04.1: a game not played does not count as played; 0 won by forfeit against 1.
    let mut f = Field::new(2, 3);
    f.push(&round(&[(0, 1)], None), |_, _| (2, true));
    let paired = pair(&f).expect("the two may meet again");
    assert_eq!(paired.round.pairings.len(), 1);
    assert!(!paired.colours_relaxed);
    // Played over the board, they may not.
    let mut f = Field::new(2, 3);
    f.push(&round(&[(0, 1)], None), |_, _| (2, false));
    assert_eq!(pair(&f), Err(NoPairing::Impossible));
}

#[test]
fn no_bye_for_a_player_who_won_a_round_without_playing() {
    // C.04.3 C.2: round 1, 0 beat 3, 4 won by forfeit against 1, 2 had the bye; 1 and 3
    // then withdraw. 0, 2 and 4 have a point each: 4, the lowest, won without playing and
    // 2 has had the bye, so the bye goes to 0.
    let mut f = Field::new(5, 3);
    f.push(&round(&[(0, 3), (1, 4)], Some(2)), |w, _| {
        if w == 0 { (2, false) } else { (0, true) }
    });
    f.out[1] = true;
    f.out[3] = true;
    let paired = pair(&f).unwrap();
    assert_eq!(paired.round.rest, Some(0), "{paired:?}");
    assert_eq!(paired.round.pairings.len(), 1);
}

#[test]
fn the_bye_goes_to_the_one_with_fewest_rounds_unplayed_in_the_lowest_group() {
    // C.04.3 (as from 2026), the pairing-allocated bye: in the lowest score group, the
    // player with the fewest unplayed rounds. Round 1: 2 beat 0 over the board, 3 won by
    // forfeit against 1, and 4 entered late (absent). 0, 1 and 4 have nothing; only 0 has
    // played every round, so he rests, though he is the highest ranked of the three.
    let mut f = Field::new(5, 3);
    f.push(&round(&[(0, 2), (3, 1)], None), |w, _| {
        if w == 0 { (0, false) } else { (2, true) }
    });
    let paired = pair(&f).unwrap();
    assert_eq!(paired.round.rest, Some(0), "{paired:?}");
}

#[test]
fn default_rounds_separate_the_field() {
    assert_eq!(default_rounds(2), 2);
    assert_eq!(default_rounds(7), 4);
    assert_eq!(default_rounds(8), 4);
    assert_eq!(default_rounds(9), 5);
    assert_eq!(default_rounds(64), 7);
}

#[test]
fn random_events_keep_every_pairing_rule() {
    let mut rng = crate::search::Rng::new(0x2545_f491_4f6c_dd1d);
    for _ in 0..300 {
        let n = 2 + rng.below(29);
        // One round more than played, so that the last round's exception (C.3) never applies.
        let mut f = Field::new(n, default_rounds(n) + 1);
        let mut relaxed = false;
        for _ in 0..default_rounds(n) {
            if rng.below(10) == 0 {
                let w = rng.below(n);
                f.out[w] = true;
            }
            let Ok(paired) = pair(&f) else {
                // Only a field too small for another round without a rematch stops.
                let active = f.out.iter().filter(|w| !**w).count();
                assert!(active < 2 || active <= 6, "n={n}: no pairing for {active}");
                break;
            };
            let past = pasts(&f);
            let round = paired.round;
            let mut seen = vec![false; n];
            for p in &round.pairings {
                for e in [p.white, p.black] {
                    assert!(!f.out[e], "a withdrawn player was paired");
                    assert!(!seen[e], "paired twice");
                    seen[e] = true;
                }
                // C.1: no two players meet twice over the board.
                assert!(
                    !past[p.white].met.contains(&p.black),
                    "n={n}: a rematch {p:?}"
                );
            }
            if let Some(r) = round.rest {
                assert!(!seen[r] && !f.out[r]);
                seen[r] = true;
                // C.2: no second bye, nor one after a point won without playing.
                assert!(!past[r].bye, "n={n}: a second bye for {r}");
                // C.5 and C.9's bye: nobody of a lower score could have had it, the rest of
                // the field paired without him as strictly as this round.
                let lower =
                    (0..n).filter(|e| !f.out[*e] && !past[*e].bye && f.points(*e) < f.points(r));
                for e in lower {
                    let mut without = f.clone();
                    without.out[e] = true;
                    let with = pair(&without);
                    assert!(
                        with.is_err()
                            || with.is_ok_and(|p| p.colours_relaxed) && !paired.colours_relaxed,
                        "n={n}: the bye went to {r}, though {e} could have had it"
                    );
                }
            }
            assert!(
                (0..n).all(|e| f.out[e] || seen[e]),
                "n={n}: someone left out"
            );
            f.push(&round, |_, _| match rng.below(7) {
                0 => (2, true),
                1 | 2 => (2, false),
                3 | 4 => (0, false),
                _ => (1, false),
            });
            relaxed |= paired.colours_relaxed;
            if !relaxed {
                // Colours: never three in a row, never two apart by more than two.
                for (e, p) in pasts(&f).iter().enumerate() {
                    assert!(p.difference().abs() <= 2, "n={n}: {e} has {:?}", p.colours);
                    assert!(
                        !p.colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                        "n={n}: {e} has {:?}",
                        p.colours
                    );
                }
            }
        }
    }
}

/// The games of `paired`, `(white, black)`, in board order.
fn games(paired: &Paired) -> Vec<(usize, usize)> {
    paired
        .round
        .pairings
        .iter()
        .map(|p| (p.white, p.black))
        .collect()
}

/// The games of `paired` as sets of two, colours aside.
fn meets(paired: &Paired, a: usize, b: usize) -> bool {
    paired
        .round
        .pairings
        .iter()
        .any(|p| (p.white, p.black) == (a, b) || (p.white, p.black) == (b, a))
}

#[test]
fn colour_preferences_are_met_by_transposing_in_the_score_group() {
    // C.12 and D.1: after round 1 of eight (0 v 4, 5 v 1, 2 v 6, 7 v 3, the higher seed
    // winning), the winners 0 and 2 had White and 1 and 3 Black. S1 {0, 1} against S2 {2, 3}
    // in order would give 0 v 2 and 1 v 3, four preferences unmet; the transposition 0 v 3,
    // 1 v 2 meets all of them. The same in the losers' group: 4 v 7 and 6 v 5.
    let f = field(8, &[round(&[(0, 4), (5, 1), (2, 6), (7, 3)], None)]);
    let mut f2 = Field::new(8, 9);
    f2.push(&f_round(&f, 0), |w, _| {
        if w == 0 || w == 2 {
            (2, false)
        } else {
            (0, false)
        }
    });
    let paired = pair(&f2).unwrap();
    let games = games(&paired);
    assert_eq!(games, [(3, 0), (1, 2), (4, 7), (6, 5)]);
}

/// Round `r` of `field` as it was paired.
fn f_round(field: &Field, r: usize) -> Round {
    let mut pairings = Vec::new();
    let mut rest = None;
    for (e, entry) in field.rounds[r].iter().enumerate() {
        match *entry {
            crate::tournament::Entry::Game {
                opponent,
                white: true,
                ..
            } => pairings.push(Pairing {
                white: e,
                black: opponent,
            }),
            crate::tournament::Entry::Bye => rest = Some(e),
            _ => {}
        }
    }
    Round { pairings, rest }
}

#[test]
fn a_player_does_not_float_down_twice_running_when_another_can() {
    // C.14 (A.4: a bye is a downfloat): round 1 of five, 0 beat 3, 1 beat 4, 2 had the bye.
    // The three on a point are an odd group: one floats down. 2, its lowest, floated down last
    // round, so 1 floats instead: 0 v 2, 1 v 3, and the bye to 4.
    let mut f = Field::new(5, 9);
    f.push(&round(&[(3, 0), (1, 4)], Some(2)), |w, _| {
        if w == 1 { (2, false) } else { (0, false) }
    });
    let paired = pair(&f).unwrap();
    assert!(meets(&paired, 0, 2), "{paired:?}");
    assert!(meets(&paired, 1, 3), "{paired:?}");
    assert_eq!(paired.round.rest, Some(4));
}

/// Six players after two rounds: 0 and 1 won both with Black and must have White; 3 and 4
/// had White twice and must have Black.
fn must_have_white(total_rounds: usize) -> Field {
    let mut f = Field::new(6, total_rounds);
    f.push(&round(&[(2, 0), (3, 1), (4, 5)], None), |w, _| {
        if w == 4 { (2, false) } else { (0, false) }
    });
    f.push(&round(&[(4, 0), (5, 1), (3, 2)], None), |w, _| {
        if w == 3 { (2, false) } else { (0, false) }
    });
    f
}

#[test]
fn two_players_who_must_have_the_same_colour_do_not_meet_but_in_the_last_round_for_a_topscorer() {
    // C.3: 0 and 1 lead with two wins, but both must have White: they do not meet.
    let paired = pair(&must_have_white(9)).unwrap();
    assert!(!paired.colours_relaxed);
    assert!(!meets(&paired, 0, 1), "{paired:?}");
    // In the last round they are topscorers (more than half the points possible): they meet,
    // and the higher ranked has the colour both want (E.4).
    let paired = pair(&must_have_white(3)).unwrap();
    assert_eq!(paired.round.pairings[0], Pairing { white: 0, black: 1 });
}

fn player(id: usize, score: u32, colours: &[bool]) -> players::Player {
    let c = players::Colour::of(colours);
    players::Player {
        id,
        score,
        colours: colours.to_vec(),
        preference: c.preference,
        imbalance: c.imbalance,
        repeated: c.repeated,
        strong: c.strong,
        played: colours.len(),
        bye_eligible: true,
        floats: [players::Float::None; 2],
    }
}

#[test]
fn colours_are_allocated_by_section_e() {
    const W: bool = true;
    const B: bool = false;
    // E.1: both preferences met.
    assert!(colours::white(&player(0, 2, &[B]), &player(1, 2, &[W])));
    // E.2: both want Black; an absolute preference beats a strong one, whoever ranks higher.
    assert!(!colours::white(
        &player(0, 2, &[B, W, W, W]),
        &player(1, 4, &[W, B, W])
    ));
    // E.2: both must have White; of two absolute preferences, the wider imbalance wins.
    assert!(colours::white(
        &player(5, 0, &[B, B, W, B]),
        &player(1, 4, &[W, B, B])
    ));
    // E.2: both want White; a strong preference beats a mild one.
    assert!(colours::white(&player(3, 0, &[B]), &player(1, 4, &[W, B])));
    // E.3: alternate from the latest round in which their colours differed: both want White,
    // and in their second game 0 had White and 1 Black, so 0 has Black now.
    assert!(!colours::white(
        &player(0, 2, &[B, W, W, B]),
        &player(1, 2, &[W, B, W, B])
    ));
    // E.4: no difference: the higher ranked has his preference.
    assert!(colours::white(&player(2, 2, &[B]), &player(1, 0, &[B])));
    assert!(!colours::white(&player(0, 0, &[B]), &player(1, 2, &[B])));
    // E.5: no preference: the higher ranked has White with an odd pairing number (index 0,
    // 2, …), Black with an even one.
    assert!(colours::white(&player(2, 0, &[]), &player(7, 0, &[])));
    assert!(!colours::white(&player(1, 0, &[]), &player(6, 0, &[])));
}

#[test]
fn colour_preferences_come_before_the_fewest_exchanges_and_then_the_nearest() {
    // C.12 before section D: round 1 of six drawn (0 v 3, 4 v 1, 2 v 5), all on half a point.
    // 0, 2 and 4 had White and want Black; 1, 3 and 5 the reverse. No transposition of S2
    // {3, 4, 5} against S1 {0, 1, 2} meets every preference without a rematch, so players are
    // exchanged: one exchange (D.2), of the nearest numbers, 2 for 3 — 0 v 5, 1 v 2, 3 v 4.
    // (bbpPairings pairs this round the same.)
    let mut f = Field::new(6, 9);
    f.push(&round(&[(0, 3), (4, 1), (2, 5)], None), |_, _| (1, false));
    let paired = pair(&f).unwrap();
    let games = games(&paired);
    assert_eq!(games, [(5, 0), (1, 2), (3, 4)]);
}
