//! The console sessions the documents show, run as a reader would run them: every line a
//! document prints as the console's output comes out of the console, in that order, so that a
//! document and the program cannot drift apart unnoticed.

use muster_tests::{console, data_dir, muster_binary};

/// The lines of the code block that follows `command` in `document` (a path from the
/// repository's root), without the command itself.
fn shown(document: &str, command: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(document);
    let text = std::fs::read_to_string(&path).expect("the document is readable");
    let start = text
        .find(command)
        .unwrap_or_else(|| panic!("{document} shows no `{command}`"));
    text[start + command.len()..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .map(str::to_string)
        .collect()
}

/// Asserts that `out` holds every line of `lines`, in order (the document may leave lines out).
fn in_order(out: &str, lines: &[String], document: &str) {
    let printed: Vec<&str> = out.lines().collect();
    let mut at = 0;
    for line in lines {
        match printed[at..].iter().position(|p| p == line) {
            Some(i) => at += i + 1,
            None => panic!(
                "{document} shows\n  {line}\nwhich the console does not print (after line {at}):\n{out}"
            ),
        }
    }
}

#[test]
fn the_croquet_documents_session_against_the_bot_is_what_the_console_prints() {
    let document = "docs/rules/croquet.md";
    let lines = shown(document, "$ muster console --data /tmp/d --script s.txt");
    assert!(lines.len() >= 5, "{lines:?}");
    // The script the document describes: its three lines.
    let script = "alice room !new croquet bot\nalice room !hint\nalice room !move 1\n";
    let out = console(
        &muster_binary!(),
        &data_dir("documented", "croquet"),
        script,
    );
    in_order(&out, &lines, document);
}
