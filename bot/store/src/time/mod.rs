//! Time as the records keep it: instants in seconds since the Unix epoch, written and read in
//! RFC 3339; durations as players type and read them; a game's time control ([`control`]) and
//! what its clocks show after the decisions made ([`timing`]). Pure values and arithmetic: the
//! clock that tells the time is the core's (`muster_core::kernel::clock`).

pub mod control;
pub mod timing;

/// `at` as RFC 3339 in UTC, to the second (`2026-11-25T09:30:00Z`).
pub fn rfc3339(at: u64) -> String {
    let at = i64::try_from(at).unwrap_or(i64::MAX);
    chrono::DateTime::from_timestamp(at, 0).map_or_else(
        || format!("{at}s after 1970"),
        |t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
    )
}

/// Reads an RFC 3339 instant (any offset; `Z` for UTC) as seconds since the Unix epoch.
pub fn parse_rfc3339(text: &str) -> Result<u64, String> {
    let t = chrono::DateTime::parse_from_rfc3339(text.trim()).map_err(|e| {
        format!(
            "`{}` is not an RFC 3339 time ({e}); write it like 2026-11-25T09:30:00Z",
            crate::text::excerpt(text, 40)
        )
    })?;
    u64::try_from(t.timestamp()).map_err(|_| format!("{text} is before 1970"))
}

/// The units of a duration, largest first, with their seconds.
const UNITS: [(char, u64); 4] = [('d', 86_400), ('h', 3_600), ('m', 60), ('s', 1)];

/// Reads a duration as players type it: numbers with units `d`, `h`, `m`, `s`, largest first,
/// each at most once (`3d`, `1d12h`, `90m`, `5m30s`).
pub fn parse_duration(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let bad = || {
        format!(
            "`{}` is not a duration: write numbers with d, h, m or s, largest first, such as 3d, 1d12h or 5m30s",
            crate::text::excerpt(text, 24)
        )
    };
    if text.is_empty() {
        return Err(bad());
    }
    let mut total: u64 = 0;
    let mut number = String::new();
    let mut next_unit = 0;
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let i = UNITS
            .iter()
            .position(|(u, _)| *u == c.to_ascii_lowercase())
            .filter(|&i| i >= next_unit && !number.is_empty())
            .ok_or_else(bad)?;
        let n: u64 = number.parse().map_err(|_| bad())?;
        total = n
            .checked_mul(UNITS[i].1)
            .and_then(|s| total.checked_add(s))
            .ok_or_else(bad)?;
        number.clear();
        next_unit = i + 1;
    }
    if !number.is_empty() {
        return Err(bad());
    }
    Ok(total)
}

/// A duration written as players read it: its largest unit and the next (`2d 4h`, `3h 20m`,
/// `45s`).
pub fn duration(seconds: u64) -> String {
    let Some(first) = UNITS.iter().position(|(_, size)| seconds >= *size) else {
        return "0s".into();
    };
    let (unit, size) = UNITS[first];
    let mut out = format!("{}{unit}", seconds / size);
    if let Some(&(next, smaller)) = UNITS.get(first + 1) {
        let n = seconds % size / smaller;
        if n > 0 {
            out.push_str(&format!(" {n}{next}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_read_as_typed_and_written_shortly() {
        assert_eq!(parse_duration("3d"), Ok(3 * 86_400));
        assert_eq!(parse_duration("1d12h"), Ok(36 * 3_600));
        assert_eq!(parse_duration("36h"), Ok(36 * 3_600));
        assert_eq!(parse_duration("5m30s"), Ok(330));
        assert_eq!(parse_duration("90M"), Ok(5_400));
        for bad in [
            "",
            "3x",
            "d",
            "3",
            "12h1d",
            "1d1d",
            "99999999999999999999d",
            "-1d",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert!(parse_duration("3x").unwrap_err().contains("3x"));
        assert_eq!(duration(0), "0s");
        assert_eq!(duration(45), "45s");
        assert_eq!(duration(3 * 3_600 + 20 * 60 + 5), "3h 20m");
        assert_eq!(duration(2 * 86_400 + 4 * 3_600 + 59), "2d 4h");
        assert_eq!(duration(86_400 + 30), "1d");
        assert_eq!(duration(3_600 + 59), "1h");
    }

    #[test]
    fn instants_are_written_and_read_in_rfc_3339() {
        let at = parse_rfc3339("2026-11-25T09:30:00Z").unwrap();
        assert_eq!(rfc3339(at), "2026-11-25T09:30:00Z");
        assert_eq!(parse_rfc3339("2026-11-25T10:30:00+01:00"), Ok(at));
        assert!(parse_rfc3339("tomorrow").unwrap_err().contains("RFC 3339"));
        assert!(parse_rfc3339("1969-12-31T23:59:59Z").is_err());
    }
}
