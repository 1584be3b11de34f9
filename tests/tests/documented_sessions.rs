//! The console sessions the documents show (the guide's scripts, the Croquet document's game
//! against the bot) and every `muster replay`, `moves` and `analyse` command of the rules
//! documents, run as a reader would run them: every line a document prints as the output comes
//! out of the program, in that order, so that a document and the program cannot drift apart
//! unnoticed.

use muster_tests::{console, console_at, data_dir, muster_binary};

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

/// Asserts that `out` holds every line of `lines`, in order (the document may leave lines out,
/// and text within a line as `…`).
fn in_order(out: &str, lines: &[String], document: &str) {
    let printed: Vec<&str> = out.lines().collect();
    let mut at = 0;
    for line in lines {
        match printed[at..].iter().position(|p| reads_as(line, p)) {
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

/// Whether `printed` is the line a document shows as `shown`, where `…` in `shown` stands for
/// text the document leaves out (the spaces around it are the document's).
fn reads_as(shown: &str, printed: &str) -> bool {
    let pieces: Vec<&str> = shown.split('…').collect();
    if pieces.len() == 1 {
        return shown == printed;
    }
    let (first, last) = (pieces[0].trim_end(), pieces[pieces.len() - 1].trim_start());
    let Some(mut rest) = printed.strip_prefix(first) else {
        return false;
    };
    for piece in &pieces[1..pieces.len() - 1] {
        let piece = piece.trim();
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// The records the rules documents' commands read, by document and file name, one line each,
/// as each document describes them in words or in a list.
fn record(document: &str, file: &str) -> Vec<&'static str> {
    const AT17: [&str; 6] = ["7", "1", "6", "1", "4", "2"];
    const PLACE: [&str; 10] = ["a2", "h5", "a3", "h6", "a4", "h7", "b1", "g8", "c1", "f8"];
    const MAIN_1880: [&str; 15] = [
        "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7",
        "e3",
        "*e4",
        "e8-e5 h7-f5",
        "*d4",
        "c8-f5",
        "c1-c3 e1-e2 g1-f2",
        "a8-c6 g8-g5",
        "h2-g3",
        "c6-c5 g5-e3 f5-e4",
        "xa1",
        "e2-e1",
        "f2-f1",
        "g3-g1",
        "g6",
    ];
    let game = document.trim_start_matches("docs/rules/");
    match (game, file) {
        ("croquet.md", "bar.txt") => vec!["2"],
        ("croquet.md", "at17.txt") => AT17.to_vec(),
        ("croquet.md", "miss.txt") => [&AT17[..], &["5", "1"]].concat(),
        ("croquet.md", "lose.txt") => [&AT17[..], &["5", "1", "-4", "2", "3"]].concat(),
        ("croquet.md", "twopass.txt") => vec!["1", "3", "1", "6", "8", "8"],
        ("croquet.md", "bad.txt") => vec!["2", "7"],
        ("lanrick.md", "place.txt") => PLACE.to_vec(),
        ("lanrick.md", "res.txt") => [&PLACE[..], &["resign"]].concat(),
        ("lanrick1880.md", "empty.txt") => Vec::new(),
        ("lanrick1880.md", "setup.txt") => MAIN_1880[..1].to_vec(),
        ("lanrick1880.md", "game.txt") => MAIN_1880.to_vec(),
        ("lanrick1880.md", name) => {
            let lines = name
                .strip_prefix("game-to-line-")
                .and_then(|n| n.strip_suffix(".txt"))
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or_else(|| {
                    panic!("{document} names `{file}`, which this test does not know")
                });
            MAIN_1880[..lines].to_vec()
        }
        _ => panic!("{document} names `{file}`, which this test does not know: add its record"),
    }
}

/// One command a document shows (`$ muster moves --game croquet bar.txt; echo $?`) and the
/// lines it shows printed.
struct Shown {
    command: String,
    printed: Vec<String>,
}

/// Every `$ muster …` command of `document` and what it prints there.
fn commands_of(document: &str) -> Vec<Shown> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(document);
    let text = std::fs::read_to_string(&path).expect("the document is readable");
    let mut shown: Vec<Shown> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        if let Some(command) = line.strip_prefix("$ muster ") {
            open = !command.starts_with("console");
            if open {
                shown.push(Shown {
                    command: command.to_string(),
                    printed: Vec::new(),
                });
            }
        } else if line.starts_with("```") || line.starts_with("$ ") || line.contains('→') {
            // A line tried on its own (`4    → "…"`) is the document's, not a command's output.
            open = false;
        } else if open && let Some(last) = shown.last_mut() {
            last.printed.push(line.to_string());
        }
    }
    shown
}

#[test]
fn the_rules_documents_commands_print_what_they_show() {
    let dir = data_dir("documented", "records");
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for document in [
        "docs/rules/lanrick.md",
        "docs/rules/lanrick1880.md",
        "docs/rules/croquet.md",
        "docs/rules/lanko.md",
    ] {
        for shown in commands_of(document) {
            let (command, echo) = match shown.command.strip_suffix("; echo $?") {
                Some(command) => (command, true),
                None => (shown.command.as_str(), false),
            };
            let words: Vec<&str> = command.split_whitespace().collect();
            let [action, "--game", game, file] = words[..] else {
                panic!("{document}: `$ muster {command}` is not `<action> --game <game> <file>`");
            };
            let path = dir.join(file);
            let lines = record(document, file);
            let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
            std::fs::write(&path, body).unwrap();
            let run = muster_tests::run(
                &muster_binary!(),
                &[action, "--game", game, path.to_str().unwrap()],
                "",
            );
            let mut printed: Vec<String> = run.stdout.lines().map(str::to_string).collect();
            if echo {
                printed.push(run.code.to_string());
            } else {
                assert_eq!(run.code, 0, "{document}: `{command}`: {}", run.stderr);
            }
            assert_eq!(
                printed.len(),
                shown.printed.len(),
                "{document}: `{command}` prints\n{}\nbut the document shows\n{}",
                printed.join("\n"),
                shown.printed.join("\n")
            );
            for (doc, out) in shown.printed.iter().zip(&printed) {
                assert!(
                    reads_as(doc, out),
                    "{document}: `{command}` prints\n  {out}\nwhere the document shows\n  {doc}"
                );
            }
            checked += 1;
        }
    }
    // Every such command in the rules documents: none is left out by a change of their form.
    assert!(checked >= 20, "{checked} commands checked");
}

/// The lines of the first code block after `marker` in `document`.
fn block_after(document: &str, marker: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(document);
    let text = std::fs::read_to_string(&path).expect("the document is readable");
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("{document} has no `{marker}`"));
    let open = text[start..].find("\n```").expect("a code block follows") + start + 1;
    text[open..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_guides_script_is_played_as_written() {
    let lines = block_after("docs/guide.md", "### Scripts");
    let script: String = lines.iter().map(|l| format!("{l}\n")).collect();
    assert!(script.contains("bob general a1"), "{script}");
    let out = console(&muster_binary!(), &data_dir("documented", "guide"), &script);
    // Every line was taken: nothing was refused, and both placements were made.
    assert!(
        !out.contains("(to alice)") && !out.contains("(to bob)"),
        "{out}"
    );
    assert!(out.contains("alice placed a man on a8"), "{out}");
    assert!(out.contains("bob placed a man on a1"), "{out}");
}

#[test]
fn the_guides_clock_script_prints_the_reminder_and_the_deadline_as_shown() {
    let document = "docs/guide.md";
    let lines = block_after(document, "Moving the clock does everything that falls due");
    assert_eq!(lines.len(), 5, "{lines:?}");
    // A game on a 3-day clock begun at 10:00 on the 25th: its deadline is 10:00 on the 28th,
    // its last reminder an hour before; one `~ +1d` line passes both.
    let script = "alice general new lanrick @bob clock 3d\nbob general accept\n\
                  ~ 2026-11-27T11:00:00Z\n~ +1d\n";
    let out = console_at(
        &muster_binary!(),
        &data_dir("documented", "clock"),
        "2026-11-25T10:00:00Z",
        script,
    );
    in_order(&out, &lines, document);
}

#[test]
fn the_guides_record_is_what_export_gives() {
    let document = "docs/guide.md";
    let lines: Vec<String> = block_after(document, "### The record")
        .iter()
        .map(|l| format!("[general] | {l}"))
        .collect();
    assert!(lines.len() >= 9, "{lines:?}");
    let script = "alice general new lanrick @bob\nbob general accept\nalice general move a8\n\
                  bob general a1\n~ 2026-11-26T23:30:00Z\nbob general resign\n\
                  alice general export g0\n";
    let out = console_at(
        &muster_binary!(),
        &data_dir("documented", "record"),
        "2026-11-25T11:30:00Z",
        script,
    );
    in_order(&out, &lines, document);
}
