//! A user's text quoted back in an error, as every part of Muster quotes it.

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
