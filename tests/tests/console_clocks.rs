//! Correspondence clocks end to end through the console on a manual clock: reminders,
//! timeouts and their records, claims, catch-up after a restart, vacations, quiet hours, the
//! dashboard, and bad input. Time moves only by the scripts' `~` lines; nothing sleeps.

use std::path::{Path, PathBuf};

fn data_dir(name: &str) -> PathBuf {
    muster_tests::data_dir("clocks", name)
}

/// Runs a console script on a manual clock starting at `start`; what it printed.
fn at(dir: &Path, start: &str, script: &str) -> String {
    muster_tests::console_at(&muster_tests::muster_binary!(), dir, start, script)
}

/// The text of the record `export` printed for `id` (its `| ` lines).
fn record(out: &str, channel: &str) -> String {
    out.lines()
        .filter_map(|l| l.strip_prefix(&format!("[{channel}] | ")))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// What was printed after the clock line `[clock] <time>` (up to the next clock line).
fn after_clock<'a>(out: &'a str, time: &str) -> Vec<&'a str> {
    out.lines()
        .skip_while(|l| *l != format!("[clock] {time}"))
        .skip(1)
        .take_while(|l| !l.starts_with("[clock]"))
        .collect()
}

const START: &str = "2026-11-25T10:00:00Z";

#[test]
fn a_per_move_clock_reminds_at_a_day_and_an_hour_once_each_then_forfeits_at_the_deadline() {
    let dir = data_dir("per-move");
    let out = at(
        &dir,
        START,
        "alice general new lanrick @bob clock 3d\n\
         bob general accept\n\
         ~ +2d\n\
         bob general board\n\
         ~ +12h\n\
         ~ +10h\n\
         ~ +30m\n\
         ~ +1h\n\
         ~ +30m\n\
         bob general export g0\n",
    );
    // The game says its clock.
    assert!(out.contains("Clock: 3d per move."), "{out}");
    // Reminders at 1d and 1h left, each once, mentioning alice (the seat to move).
    let day: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("1d left for your move"))
        .collect();
    assert_eq!(day.len(), 1, "{out}");
    assert!(day[0].starts_with("[general] @alice:"), "{out}");
    // The reminder is what happened at that moment; the board asked for then reads the clock
    // then, in its caption and its text.
    assert_eq!(after_clock(&out, "2026-11-27T10:00:00Z")[0], day[0]);
    assert!(
        out.contains("Clocks: alice (White) 1d ⏳ · bob (Black) 3d — deadline 2026-11-28 10:00:00 UTC (in 1d)"),
        "{out}"
    );
    assert!(
        out.contains("Taken: White 0, Black 0. Clocks: alice 1d · bob 3d."),
        "{out}"
    );
    let hour: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("1h left for your move"))
        .collect();
    assert_eq!(hour.len(), 1, "{out}");
    assert_eq!(after_clock(&out, "2026-11-28T09:00:00Z"), hour);
    // At the deadline alice, who never moved, forfeits; the board goes with the news.
    let end = after_clock(&out, "2026-11-28T10:00:00Z");
    assert!(
        end.iter().any(|l| l
            .contains("alice (White)'s time ran out (3d per move) without having moved")
            && l.contains("bob (Black) wins by forfeit")),
        "{out}"
    );
    assert!(end.iter().any(|l| l.contains("board: ")), "{out}");
    let rec = record(&out, "general");
    assert!(rec.contains("# Clock: 3d\n"), "{rec}");
    assert!(rec.contains("# Result: 0-1\n"), "{rec}");
    assert!(rec.contains("# Termination: forfeit\n"), "{rec}");
    assert!(rec.contains("# Ended: 2026-11-28T10:00:00Z\n"), "{rec}");
    assert!(rec.contains("# Started: 2026-11-25T10:00:00Z\n"), "{rec}");
}

#[test]
fn a_player_who_moved_loses_on_time_and_the_record_says_so() {
    let dir = data_dir("time");
    let out = at(
        &dir,
        START,
        "alice general new lanrick @bob clock 1d\n\
         bob general accept\n\
         ~ +3h\n\
         alice general move b1\n\
         ~ +23h59m59s\n\
         bob general move h8\n\
         ~ +1d\n\
         alice general export\n",
    );
    // A move one second before its deadline lands.
    assert!(out.contains("bob placed a man on h8."), "{out}");
    let end = after_clock(&out, "2026-11-27T12:59:59Z");
    assert!(
        end.iter()
            .any(|l| l
                .contains("alice (White)'s time ran out (1d per move). bob (Black) wins on time.")),
        "{out}"
    );
    let rec = record(&out, "general");
    assert!(rec.contains("# Termination: time\n"), "{rec}");
    assert!(rec.contains("# Ended: 2026-11-27T12:59:59Z\n"), "{rec}");
    assert!(rec.contains("# Result: 0-1\n"), "{rec}");
    // A 1-day clock has no 1-day reminder, only the 1-hour one, once per move.
    assert!(!out.contains("1d left for your move"), "{out}");
    assert_eq!(out.matches("1h left for your move").count(), 2, "{out}");
}

#[test]
fn a_bank_keeps_the_time_not_used_plus_the_increment_never_above_its_start() {
    let dir = data_dir("bank");
    let out = at(
        &dir,
        START,
        "alice general new lanrick @bob clock 2d+12h\n\
         bob general accept\n\
         ~ +1d\n\
         alice general move b1\n\
         ~ +1h\n\
         bob general move h8\n\
         alice general games\n",
    );
    assert!(out.contains("Clock: 2d + 12h per move."), "{out}");
    // alice used a day of two and got 12 hours: 1d 12h. bob used an hour and is capped at 2d.
    assert!(
        out.contains(
            "Clocks: alice (White) 1d 12h ⏳ · bob (Black) 2d — deadline 2026-11-27 23:00:00 UTC"
        ),
        "{out}"
    );
    assert!(out.contains("· 2 moves · 1d 12h left"), "{out}");
}

#[test]
fn after_a_restart_what_fell_due_is_done_at_once_and_the_game_ends_at_its_deadline() {
    let dir = data_dir("restart");
    let first = at(
        &dir,
        START,
        "alice general new lanrick @bob clock 2d\n\
         bob general accept\n\
         ~ +1d\n",
    );
    assert_eq!(first.matches("1d left for your move").count(), 1, "{first}");
    // Muster was down for a week: at start the game is over, ended at its deadline, and the
    // reminder sent before the restart is not sent again.
    let second = at(&dir, "2026-12-02T08:00:00Z", "bob general export g0\n");
    assert!(!second.contains("1d left for your move"), "{second}");
    let first_line = second.lines().next().unwrap_or_default();
    assert!(
        first_line.contains("alice (White)'s time ran out (2d per move) without having moved"),
        "{second}"
    );
    let rec = record(&second, "general");
    assert!(rec.contains("# Ended: 2026-11-27T10:00:00Z\n"), "{rec}");
    assert!(rec.contains("# Termination: forfeit\n"), "{rec}");
}

#[test]
fn with_timeout_claim_the_opponent_claims_the_win_and_a_late_move_still_counts_until_then() {
    let dir = data_dir("claim");
    let out = at(
        &dir,
        START,
        "alice general new lanrick @bob clock 1d timeout claim\n\
         bob general accept\n\
         ~ +12h\n\
         bob general claim\n\
         ~ +12h\n\
         alice general move b1\n\
         ~ +1d\n\
         alice general claim\n\
         bob general claim\n\
         bob general export\n",
    );
    assert!(
        out.contains("(to bob) alice (White)'s time has not run out: 12h left."),
        "{out}"
    );
    let run_out = after_clock(&out, "2026-11-26T10:00:00Z");
    assert!(
        run_out
            .iter()
            .any(|l| l.contains("alice (White)'s time ran out")
                && l.contains("bob may `!claim` the win")),
        "{out}"
    );
    // Nobody claimed: alice's late move counts.
    assert!(out.contains("alice placed a man on b1."), "{out}");
    // Then bob runs out without having moved: alice is told she may claim, and her claim
    // ends the game as a forfeit; nothing is left for bob to claim.
    assert!(
        out.contains(
            "[general] bob (Black)'s time ran out at 2026-11-27 10:00:00 UTC. alice may `!claim` the win"
        ),
        "{out}"
    );
    assert!(out.contains("alice (White) wins by forfeit."), "{out}");
    assert!(
        out.contains("(to bob) There is no game in this channel."),
        "{out}"
    );
    let rec = record(&out, "general");
    assert!(rec.contains("# Termination: forfeit\n"), "{rec}");
    assert!(rec.contains("# Result: 1-0\n"), "{rec}");
    assert!(rec.contains("# Ended: 2026-11-27T10:00:00Z\n"), "{rec}");
}

#[test]
fn on_vacation_a_players_clocks_stand_still_and_the_allowance_is_kept() {
    let dir = data_dir("vacation");
    let out = at(
        &dir,
        START,
        "alice general new lanrick @bob clock 1d\n\
         bob general accept\n\
         alice general vacation start 40\n\
         alice general vacation start 3\n\
         alice general vacation\n\
         ~ +2d\n\
         bob general games\n\
         alice general vacation end\n\
         alice general vacation\n\
         ~ +23h\n\
         ~ +1h\n",
    );
    assert!(
        out.contains(
            "(to alice) No vacation was started: you have 30d of vacation left this year, not 40d"
        ),
        "{out}"
    );
    assert!(
        out.contains("(to alice) Your vacation runs until 2026-11-28 10:00:00 UTC"),
        "{out}"
    );
    // Her opponent is told, in the game's channel.
    assert!(
        out.contains("[general] alice is on vacation until 2026-11-28 10:00:00 UTC"),
        "{out}"
    );
    assert!(
        out.contains("Vacation left this year: 27d (of 30d)"),
        "{out}"
    );
    // Two days later her clock has not moved: nothing ran out, nothing reminded.
    assert!(
        !after_clock(&out, "2026-11-27T10:00:00Z")
            .iter()
            .any(|l| l.contains("ran out")),
        "{out}"
    );
    // Her day's clock waits for her return: two days left, one of them vacation; bob's
    // dashboard says why.
    assert!(
        out.contains(
            "· 0 moves · 2d left (the clock stands still: alice is on vacation until 2026-11-28 10:00:00 UTC"
        ),
        "{out}"
    );
    // Back early: the unused day returns to the allowance and the clock runs again.
    assert!(
        out.contains("Welcome back: your clocks run again in 1 timed game."),
        "{out}"
    );
    assert!(
        out.contains("Vacation left this year: 28d (of 30d)"),
        "{out}"
    );
    let hour = after_clock(&out, "2026-11-28T09:00:00Z");
    assert!(
        hour.iter().any(|l| l.contains("1h left for your move")),
        "{out}"
    );
    let end = after_clock(&out, "2026-11-28T10:00:00Z");
    assert!(
        end.iter()
            .any(|l| l.contains("alice (White)'s time ran out")),
        "{out}"
    );
}

#[test]
fn quiet_hours_hold_a_reminder_until_morning_across_the_change_to_summer_time() {
    let dir = data_dir("quiet");
    // The 1-day reminder of a 2-day clock started at 21:30Z on 27 March falls at 22:30 Berlin
    // winter time on the 28th; the night ends at 07:00 summer time on the 29th: 05:00Z.
    let out = at(
        &dir,
        "2026-03-27T21:30:00Z",
        "alice general notify quiet 22:00-07:00 Europe/Berlin\n\
         alice general new lanrick @bob clock 2d\n\
         bob general accept\n\
         ~ +1d\n\
         ~ +10h\n",
    );
    assert!(
        out.contains("quiet hours: 22:00-07:00 Europe/Berlin"),
        "{out}"
    );
    assert!(
        !after_clock(&out, "2026-03-28T21:30:00Z")
            .iter()
            .any(|l| l.contains("left for your move")),
        "{out}"
    );
    let morning = after_clock(&out, "2026-03-29T05:00:00Z");
    assert!(
        morning
            .iter()
            .any(|l| l.contains("@alice: 16h 30m left for your move")),
        "{out}"
    );
}

#[test]
fn reminders_due_close_together_come_as_one_message_and_the_dashboard_orders_by_time_left() {
    let dir = data_dir("coalesce");
    let out = at(
        &dir,
        START,
        "alice x new lanrick @bob clock 3d\n\
         bob x accept\n\
         ~ +5m\n\
         alice y new croquet @carol clock 3d\n\
         carol y accept\n\
         ~ +5m\n\
         alice z new lanrick1880 @dave clock 2d\n\
         dave z accept\n\
         alice w new lanrick @erin\n\
         erin w accept\n\
         alice x games\n\
         ~ +2d\n\
         ~ +1h\n",
    );
    // The dashboard: her moves, the least time left first, the untimed game last.
    let dash: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("[x] (to alice) • "))
        .collect();
    assert_eq!(dash.len(), 4, "{out}");
    assert!(
        dash[0].contains("#z") && dash[0].contains("2d left"),
        "{out}"
    );
    assert!(
        dash[1].contains("#x") && dash[1].contains("2d 23h left"),
        "{out}"
    );
    assert!(dash[2].contains("#y"), "{out}");
    assert!(
        dash[3].contains("#w") && dash[3].contains("waiting"),
        "{out}"
    );
    // Day reminders of x (due at +2d) and y (+2d 5m) go out together; z's day reminder came
    // on its own at +1d 10m.
    let together: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("your move is due soon in 2 games"))
        .collect();
    assert_eq!(together.len(), 1, "{out}");
    assert_eq!(out.matches("1d left for your move").count(), 3, "{out}");
}

#[test]
fn in_lanko_the_pair_of_the_seat_that_ran_out_loses() {
    let dir = data_dir("lanko");
    let out = at(
        &dir,
        START,
        "alice t new lanko88 @bob @carol @dave clock 1d\n\
         bob t accept\n\
         carol t accept\n\
         dave t accept\n\
         ~ +1d\n\
         alice t export\n",
    );
    assert!(out.contains("win by forfeit"), "{out}");
    let rec = record(&out, "t");
    assert!(rec.contains("# Result: W+E\n"), "{rec}");
    assert!(rec.contains("# Termination: forfeit\n"), "{rec}");
}

#[test]
fn bad_clocks_and_settings_are_refused_with_what_is_accepted_and_nothing_is_created() {
    let dir = data_dir("bad");
    let out = at(
        &dir,
        START,
        "alice general new lanrick @bob clock 3x\n\
         alice general new lanrick @bob clock 0d\n\
         alice general new lanrick @bob clock 400d\n\
         alice general board\n\
         alice general notify remind 90d\n\
         alice general vacation start 31\n\
         alice general vacation end\n\
         alice general claim\n",
    );
    assert!(
        out.contains("(to alice) `clock 3x`: that is not a duration;"),
        "{out}"
    );
    assert!(
        out.contains("(to alice) `clock 0d`: the time must be at least 30s;"),
        "{out}"
    );
    assert!(
        out.contains("(to alice) `clock 400d`: the time may be at most 60d;"),
        "{out}"
    );
    assert!(
        out.contains("(to alice) There is no game in this channel."),
        "{out}"
    );
    assert!(out.contains("less than 60d (the longest clock)"), "{out}");
    assert!(
        out.contains("you have 30d of vacation left this year, not 31d"),
        "{out}"
    );
    assert!(out.contains("you are not on vacation"), "{out}");
    // Every refusal is private.
    for line in out
        .lines()
        .filter(|l| l.contains("clock ") || l.contains("vacation"))
    {
        assert!(line.contains("(to alice)"), "{line}");
    }
}
