//! Quiet hours: a daily stretch of a player's local time (`22:00-07:00 Europe/Berlin`) during
//! which reminders wait. Local time follows the zone's rules, summer time included, so quiet
//! hours stay at the same local hours across a change of the clocks.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, TimeZone, Timelike};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use crate::kernel::text::excerpt;

/// Quiet hours in a time zone.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Quiet {
    /// Start, in minutes after local midnight.
    pub from: u32,
    /// End, in minutes after local midnight (earlier than `from` when they span midnight).
    pub to: u32,
    /// The IANA zone (`Europe/Berlin`).
    pub zone: String,
}

fn minutes(text: &str) -> Option<u32> {
    let (h, m) = text.split_once(':')?;
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    // Worked out only once in range: `99999999:00` must be refused, not overflow (found by
    // the `command` fuzz target).
    (h < 24 && m < 60 && text.len() <= 5).then(|| h * 60 + m)
}

/// The zone named `name` (as the IANA database spells it, in any case).
pub fn zone(name: &str) -> Option<Tz> {
    name.parse::<Tz>().ok().or_else(|| {
        chrono_tz::TZ_VARIANTS
            .iter()
            .find(|z| z.name().eq_ignore_ascii_case(name))
            .copied()
    })
}

impl Quiet {
    /// Reads `22:00-07:00 Europe/Berlin` (the zone may be left out for UTC).
    pub fn parse(hours: &str, zone_name: Option<&str>) -> Result<Quiet, String> {
        let accepted =
            "write the hours and your time zone, such as `notify quiet 22:00-07:00 Europe/Berlin`";
        let (a, b) = hours.split_once('-').ok_or_else(|| {
            format!(
                "`{}` is not a span of hours; {accepted}",
                excerpt(hours, 24)
            )
        })?;
        let (from, to) = minutes(a.trim()).zip(minutes(b.trim())).ok_or_else(|| {
            format!(
                "`{}` is not a span of hours (HH:MM-HH:MM); {accepted}",
                excerpt(hours, 24)
            )
        })?;
        if from == to {
            return Err(format!("quiet hours from {a} to {b} are empty; {accepted}"));
        }
        let name = zone_name.unwrap_or("UTC");
        let tz = zone(name).ok_or_else(|| {
            format!(
                "`{}` is not a time zone; name one as the IANA database does, such as Europe/Berlin, \
                 America/New_York or UTC",
                excerpt(name, 32)
            )
        })?;
        Ok(Quiet {
            from,
            to,
            zone: tz.name().to_string(),
        })
    }

    fn tz(&self) -> Tz {
        zone(&self.zone).unwrap_or(Tz::UTC)
    }

    fn inside(&self, minute: u32) -> bool {
        if self.from < self.to {
            (self.from..self.to).contains(&minute)
        } else {
            minute >= self.from || minute < self.to
        }
    }

    /// `at`, or — if it falls in the quiet hours — the moment they end.
    pub fn delay(&self, at: u64) -> u64 {
        let tz = self.tz();
        let Some(utc) = DateTime::from_timestamp(i64::try_from(at).unwrap_or(i64::MAX), 0) else {
            return at;
        };
        let local = utc.with_timezone(&tz);
        let minute = local.hour() * 60 + local.minute();
        if !self.inside(minute) {
            return at;
        }
        let mut day = local.date_naive();
        if self.from > self.to && minute >= self.from {
            day = day.succ_opt().unwrap_or(day);
        }
        let end = local_instant(&tz, day, self.to).unwrap_or(at);
        end.max(at)
    }

    /// As typed back: `22:00-07:00 Europe/Berlin`.
    pub fn typed(&self) -> String {
        format!(
            "{:02}:{:02}-{:02}:{:02} {}",
            self.from / 60,
            self.from % 60,
            self.to / 60,
            self.to % 60,
            self.zone
        )
    }
}

/// The instant of local time `minute` on `day` in `tz`; a time skipped by a change to summer
/// time is taken as the first moment after the gap.
fn local_instant(tz: &Tz, day: NaiveDate, minute: u32) -> Option<u64> {
    let time = NaiveTime::from_hms_opt(minute / 60, minute % 60, 0)?;
    let naive = day.and_time(time);
    for shift in 0..=4 {
        let probe = naive + Duration::minutes(30 * shift);
        if let Some(t) = tz.from_local_datetime(&probe).earliest() {
            return u64::try_from(t.timestamp()).ok();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::clock::parse_rfc3339;

    #[test]
    fn hours_far_out_of_range_are_refused_not_an_overflow() {
        // Found by the `command` fuzz target (fuzz/regressions/command).
        for hours in [
            "99999999:00-07:00",
            "22:00-0240700007:0",
            "7:4294967295-8:00",
        ] {
            let refused = Quiet::parse(hours, None).expect_err(hours);
            assert!(!refused.is_empty());
        }
    }

    fn at(text: &str) -> u64 {
        parse_rfc3339(text).unwrap()
    }

    #[test]
    fn reminders_wait_for_the_end_of_quiet_hours_in_local_time() {
        let quiet = Quiet::parse("22:00-07:00", Some("europe/berlin")).unwrap();
        assert_eq!(quiet.typed(), "22:00-07:00 Europe/Berlin");
        // Winter (UTC+1): 23:30 local is 22:30Z; quiet ends 07:00 local = 06:00Z.
        assert_eq!(
            quiet.delay(at("2026-01-10T22:30:00Z")),
            at("2026-01-11T06:00:00Z")
        );
        // Just after midnight local, the same night's end.
        assert_eq!(
            quiet.delay(at("2026-01-10T23:30:00Z")),
            at("2026-01-11T06:00:00Z")
        );
        // Outside quiet hours nothing waits.
        assert_eq!(
            quiet.delay(at("2026-01-10T12:00:00Z")),
            at("2026-01-10T12:00:00Z")
        );
        // Summer (UTC+2): quiet starts at 20:00Z and ends at 05:00Z.
        assert_eq!(
            quiet.delay(at("2026-07-10T20:30:00Z")),
            at("2026-07-11T05:00:00Z")
        );
        assert_eq!(
            quiet.delay(at("2026-07-10T19:30:00Z")),
            at("2026-07-10T19:30:00Z")
        );
    }

    #[test]
    fn quiet_hours_keep_their_local_hours_across_a_change_of_the_clocks() {
        // Europe/Berlin goes to summer time at 01:00Z on 29 March 2026: the night of the 28th
        // starts at 22:00 winter time (21:00Z) and ends at 07:00 summer time (05:00Z).
        let quiet = Quiet::parse("22:00-07:00", Some("Europe/Berlin")).unwrap();
        assert_eq!(
            quiet.delay(at("2026-03-28T21:30:00Z")),
            at("2026-03-29T05:00:00Z")
        );
        // And back on 25 October: the night ends at 07:00 winter time (06:00Z).
        assert_eq!(
            quiet.delay(at("2026-10-24T21:00:00Z")),
            at("2026-10-25T06:00:00Z")
        );
        // A quiet end inside the skipped hour is the first moment after it.
        let odd = Quiet::parse("01:00-02:30", Some("Europe/Berlin")).unwrap();
        assert_eq!(
            odd.delay(at("2026-03-29T00:30:00Z")),
            at("2026-03-29T01:00:00Z")
        );
    }

    #[test]
    fn malformed_quiet_hours_say_what_is_accepted() {
        for (hours, zone, why) in [
            ("22-07", Some("UTC"), "HH:MM"),
            ("22:00", Some("UTC"), "not a span"),
            ("25:00-07:00", Some("UTC"), "HH:MM"),
            ("22:00-22:00", Some("UTC"), "empty"),
            ("22:00-07:00", Some("Mars/Olympus"), "not a time zone"),
        ] {
            let err = Quiet::parse(hours, zone).unwrap_err();
            assert!(err.contains(why), "{hours} {zone:?}: {err}");
        }
    }
}
