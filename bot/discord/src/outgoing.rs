//! The core's replies as Discord messages: public replies gathered into messages (a new one
//! for each further board), private ones into ephemeral messages, buttons with the message
//! before them, and text too long for one message split at line ends, then between words.

use super::surface;
use muster_core::desk::{Board, Button, Reply, User};

/// Discord's longest message, in characters.
pub const MAX_CONTENT: usize = 2000;

/// One message to send.
#[derive(Default, Debug)]
pub struct Outgoing {
    /// The text.
    pub content: String,
    /// Files: name, bytes, description (alt text).
    pub files: Vec<(String, Vec<u8>, Option<String>)>,
    /// Buttons.
    pub buttons: Vec<Button>,
    /// Link buttons to web pages: label, address.
    pub links: Vec<(String, String)>,
    /// Users this message may ping.
    pub pings: Vec<u64>,
    /// Only the requesting user sees it.
    pub ephemeral: bool,
    /// Whether it shows a board.
    pub board: bool,
}

/// Whether the channel sees the reply (not a private one, not a board for the asker alone,
/// not buttons, which go with another message).
pub fn is_public(reply: &Reply) -> bool {
    match reply {
        Reply::Private(_) | Reply::Buttons(_) => false,
        Reply::Board(b) => !b.is_private(),
        _ => true,
    }
}

/// Maps the core's replies to messages: public replies gather into messages (a new one for
/// each further board), private replies into ephemeral ones; buttons go with the message
/// before them; long text is split at line ends.
pub fn plan(replies: Vec<Reply>) -> Vec<Outgoing> {
    let mut public: Vec<Outgoing> = Vec::new();
    let mut private: Vec<Outgoing> = Vec::new();
    let mut last_private = false;
    for reply in replies {
        match reply {
            Reply::Text(text) => {
                add_line(current(&mut public, false), &text);
                last_private = false;
            }
            Reply::Mention { user, text } => {
                add_mention(current(&mut public, false), &user, &text);
                last_private = false;
            }
            Reply::Board(board) => {
                // A board for the asker alone goes in an ephemeral message of its own.
                last_private = board.is_private();
                let list = if last_private {
                    &mut private
                } else {
                    &mut public
                };
                add_board(list, &board, last_private);
            }
            Reply::File { name, content } => {
                current(&mut public, false)
                    .files
                    .push((name, content.into_bytes(), None));
                last_private = false;
            }
            Reply::Private(text) => {
                add_line(current(&mut private, true), &text);
                last_private = true;
            }
            Reply::Link { kind, url } => {
                let out = current(&mut public, false);
                if !out.links.iter().any(|(_, u)| *u == url) {
                    out.links.push((kind.label().to_string(), url));
                }
                last_private = false;
            }
            Reply::Buttons(buttons) => {
                let out = if last_private {
                    current(&mut private, true)
                } else {
                    current(&mut public, false)
                };
                for b in buttons {
                    if !out.buttons.iter().any(|x| x.command == b.command) {
                        out.buttons.push(b);
                    }
                }
            }
        }
    }
    public
        .into_iter()
        .chain(private)
        // A message needs text or a file (buttons alone are refused).
        .filter(|o| !o.content.trim().is_empty() || !o.files.is_empty())
        .flat_map(split_long)
        .collect()
}

/// `text` said to `user`, who is pinged once however often he is named.
fn add_mention(out: &mut Outgoing, user: &User, text: &str) {
    add_line(out, &format!("{} {text}", surface::mention(user)));
    if let Ok(id) = user.id.parse::<u64>()
        && !out.pings.contains(&id)
    {
        out.pings.push(id);
    }
}

/// `board` as a file of the last message of `list`, or of a new one if that already holds a
/// board; a board that cannot be drawn is said so in words.
fn add_board(list: &mut Vec<Outgoing>, board: &Board, ephemeral: bool) {
    if list.last().is_some_and(|o| o.board) {
        list.push(Outgoing {
            ephemeral,
            ..Default::default()
        });
    }
    let out = current(list, ephemeral);
    match board.drawn() {
        Ok(d) => {
            out.files
                .push((d.name.clone(), d.png.clone(), Some(d.alt.clone())));
            out.board = true;
        }
        Err(why) => add_line(out, &format!("(The board cannot be drawn: {why}.)")),
    }
}

/// The last message of `list`, begun if there is none.
fn current(list: &mut Vec<Outgoing>, ephemeral: bool) -> &mut Outgoing {
    if list.is_empty() {
        list.push(Outgoing {
            ephemeral,
            ..Default::default()
        });
    }
    list.last_mut().unwrap_or_else(|| unreachable!())
}

/// Adds `line` to the message's text.
fn add_line(out: &mut Outgoing, line: &str) {
    if !out.content.is_empty() {
        out.content.push('\n');
    }
    out.content.push_str(line);
}

/// Splits a message whose text is too long; files and buttons go with the last part.
fn split_long(mut out: Outgoing) -> Vec<Outgoing> {
    if out.content.chars().count() <= MAX_CONTENT {
        return vec![out];
    }
    let parts = split_text(&out.content, MAX_CONTENT);
    let n = parts.len();
    parts
        .into_iter()
        .enumerate()
        .map(|(i, content)| {
            if i + 1 == n {
                Outgoing {
                    content,
                    ..std::mem::take(&mut out)
                }
            } else {
                Outgoing {
                    content,
                    ephemeral: out.ephemeral,
                    pings: out.pings.clone(),
                    ..Default::default()
                }
            }
        })
        .collect()
}

/// Cuts `text` into parts of at most `max` characters, none of them blank: at line ends where
/// it can, else between words, and only a word longer than a whole part is cut inside.
pub fn split_text(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    // The pieces to pack, each with what joins it to the piece before: a line break, a space,
    // or nothing (the rest of a cut word).
    let mut pieces: Vec<(&str, String)> = Vec::new();
    for line in text.split('\n') {
        if line.chars().count() <= max {
            pieces.push(("\n", line.to_string()));
            continue;
        }
        let mut sep = "\n";
        for word in line.split(' ') {
            let chars: Vec<char> = word.chars().collect();
            if chars.is_empty() {
                continue;
            }
            for (i, chunk) in chars.chunks(max).enumerate() {
                pieces.push((if i == 0 { sep } else { "" }, chunk.iter().collect()));
            }
            sep = " ";
        }
    }
    let mut parts: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut len = 0;
    for (sep, piece) in pieces {
        let n = piece.chars().count();
        if !current.is_empty() && len + sep.len() + n <= max {
            current.push_str(sep);
            current.push_str(&piece);
            len += sep.len() + n;
        } else if current.is_empty() {
            current = piece;
            len = n;
        } else {
            parts.push(std::mem::take(&mut current));
            current = piece;
            len = n;
        }
    }
    parts.push(current);
    parts
        .into_iter()
        .map(|p| p.trim_matches('\n').to_string())
        .filter(|p| !p.trim().is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks what Discord checks of every part: not blank, at most `max` characters; and that
    /// no visible character of `text` is lost or reordered.
    fn well_split(text: &str, max: usize) -> Vec<String> {
        let parts = split_text(text, max);
        for p in &parts {
            assert!(!p.trim().is_empty(), "a blank part of {text:?}");
            assert!(p.chars().count() <= max, "{} > {max}", p.chars().count());
        }
        let visible = |s: &str| s.split_whitespace().collect::<String>();
        assert_eq!(visible(&parts.concat()), visible(text));
        parts
    }

    fn texts(out: &[Outgoing]) -> Vec<usize> {
        out.iter().map(|o| o.content.chars().count()).collect()
    }

    #[test]
    fn a_line_of_2000_characters_is_one_message_and_of_2001_two() {
        let line = "x".repeat(MAX_CONTENT);
        let out = plan(vec![Reply::Text(line.clone())]);
        assert_eq!(texts(&out), vec![MAX_CONTENT]);
        assert_eq!(out[0].content, line);
        // One character more, with no space to break at: the word itself is cut.
        let out = plan(vec![Reply::Private(format!("{line}y"))]);
        assert_eq!(texts(&out), vec![MAX_CONTENT, 1]);
        assert!(out.iter().all(|o| o.ephemeral));
        assert_eq!(out[1].content, "y");
        // With spaces, the cut is between words.
        let words: String = (0..400).map(|i| format!("w{i:03} ")).collect();
        let words = words.trim_end();
        assert_eq!(words.chars().count(), 1999);
        let long = format!("{words} ab");
        assert_eq!(long.chars().count(), MAX_CONTENT + 2);
        let out = plan(vec![Reply::Text(long)]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].content, words);
        assert_eq!(out[1].content, "ab");
    }

    #[test]
    fn text_splits_at_line_ends_first_then_between_words() {
        let (a, b) = ("a".repeat(1500), "b".repeat(1000));
        assert_eq!(
            well_split(&format!("{a}\n{b}"), MAX_CONTENT),
            vec![a.clone(), b]
        );
        // Lines that fit together stay together.
        let lines: Vec<String> = (0..300).map(|i| format!("line {i:04}")).collect();
        let parts = well_split(&lines.join("\n"), MAX_CONTENT);
        assert_eq!(parts.join("\n"), lines.join("\n"));
        assert!(parts.len() == 2 && parts[0].ends_with("line 0199"));
        // A long line of words: every part ends and begins with a whole word.
        let words: String = (0..1000).map(|i| format!("word{i} ")).collect();
        for part in well_split(&words, 300) {
            for w in part.split_whitespace() {
                assert!(words.split_whitespace().any(|x| x == w), "{w} was cut");
            }
        }
    }

    #[test]
    fn no_part_is_ever_empty_or_too_long() {
        let cases = [
            String::new(),
            "\n\n\n".into(),
            " ".repeat(5000),
            format!("\n\n{}\n\n", "é".repeat(4001)),
            format!("a\n{}", "b".repeat(2001)),
            format!("{}\n \n{}", "c ".repeat(1500), "d".repeat(1999)),
            "x\n".repeat(3000),
            format!("{} {}", "y".repeat(2000), "z".repeat(2000)),
        ];
        for text in &cases {
            well_split(text, MAX_CONTENT);
            well_split(text, 7);
        }
        assert!(split_text(" \n \n", MAX_CONTENT).is_empty());
    }

    #[test]
    fn nothing_to_show_makes_no_message() {
        let button = Button {
            label: "Board".into(),
            command: "board".into(),
        };
        let out = plan(vec![
            Reply::Private(String::new()),
            Reply::Text(" \n ".into()),
            Reply::Buttons(vec![button]),
        ]);
        assert!(out.is_empty(), "{out:?}");
    }
}
