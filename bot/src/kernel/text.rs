//! Small helpers for the words every part says: a user's text quoted back, a word capitalised.

/// What a user typed, quoted back: trimmed, and cut to at most `max` characters with an
/// ellipsis, so that pasted text never swells a reply.
pub fn excerpt(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", cut.trim_end())
}

/// `white` → `White`.
pub fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
