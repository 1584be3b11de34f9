//! Small helpers for the words every part says: a user's text quoted back, a word capitalised.

pub use muster_store::text::excerpt;

use muster_render::canvas::steers_direction;

/// `white` → `White`.
pub fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A name as Muster keeps and shows it: without control characters or line and paragraph
/// separators (each a space), without the characters that steer the direction of text or the
/// byte-order mark, its runs of spaces made one, trimmed. A name from a chat platform is made
/// so where it enters Muster; one shown in a page, an export or a board is made so again, for
/// records kept before.
pub fn clean_name(name: &str) -> String {
    let spaced = name
        .chars()
        .filter(|&c| !steers_direction(c) && c != '\u{feff}')
        .map(|c| {
            if c.is_control() || c.is_whitespace() {
                ' '
            } else {
                c
            }
        });
    let mut out = String::with_capacity(name.len());
    for c in spaced {
        if c == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        out.push(c);
    }
    out.truncate(out.trim_end().len());
    out
}

/// [`clean_name`], cut to at most `max` characters with an ellipsis: a name as a board's
/// caption writes it, so that the line it is in always fits.
pub fn short_name(name: &str, max: usize) -> String {
    excerpt(&clean_name(name), max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_loses_what_could_spoof_the_line_it_is_in() {
        // A right-to-left override, a line break, a tab, isolates, a byte-order mark.
        assert_eq!(clean_name("eve\u{202e}lanimreT"), "evelanimreT");
        assert_eq!(
            clean_name("  mal\r\nlory\t\u{2028}x  "),
            "mal lory x",
            "breaks become one space"
        );
        assert_eq!(clean_name("\u{2067}\u{feff}bob\u{2069}"), "bob");
        assert_eq!(clean_name("\u{1b}[31mred"), "[31mred");
        // Letters of every script stay, joiners in emoji too.
        assert_eq!(
            clean_name("Zoë 李 שלום 👩\u{200d}💻"),
            "Zoë 李 שלום 👩\u{200d}💻"
        );
        assert_eq!(clean_name("\u{202e}\n"), "");
    }

    #[test]
    fn a_long_name_is_cut_with_an_ellipsis() {
        assert_eq!(
            short_name(&"w".repeat(300), 20),
            format!("{}…", "w".repeat(19))
        );
        assert_eq!(short_name("alice", 20), "alice");
        assert_eq!(short_name("a\u{202e}lice", 20), "alice");
    }
}
