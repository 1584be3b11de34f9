//! The repository stands on its own: whoever clones it can follow every citation in it.
//!
//! 1. Every file that a comment or document cites is in the repository. The scan reads `*.rs`
//!    (comments only: a path in a string names a file the program reads or writes at run time,
//!    not a citation), `*.md`, `*.toml`, `*.sh`, `*.py`, `*.board`, `*.service`, `Dockerfile`,
//!    and every file in `scripts/` and `.ci/`, skipping build output, git and data directories
//!    (`DATA_DIRS`). It checks
//!    - markdown links `[text](path)`, resolved against the linking file's directory, with the
//!      `#anchor` dropped; web and mail links and rustdoc item links (`crate::x`) are skipped;
//!    - bare paths whose first directory is one of the repository's top directories (`docs/`,
//!      `bot/`, `scripts/`, …) and that name a file with an extension, a directory (a trailing
//!      `/`) or anything under `scripts/` or `.ci/`; and any bare path ending in `.md`. A bare
//!      path may be written from the repository root, from the citing file's crate (the nearest
//!      directory with a `Cargo.toml`) or from the citing file's directory;
//!    - bare names ending in `.md` (`guide.md`): found at the root or anywhere in the repository.
//!
//!    Paths followed by `*` or `{` are patterns, not files, and are skipped. Other slashed words
//!    (`render/lanrick` as a benchmark's name, a position string, `image/png`) are not checked:
//!    the patterns are kept tight so that what they find is a citation.
//! 2. Every ruling cited anywhere (`L3-5`, `L0-2`, `C-7`, `K-3`, in code, tests and documents) is
//!    defined in its game's rules document, `docs/rules/<game>.md`: defined means that the
//!    document has a row of a table whose first cell is exactly the id, `| C-7 | … |` (each
//!    document's "The rulings and why" table). A heading or a sentence that mentions a ruling
//!    does not define it.
//!
//! A failure lists every offending `file:line` with what it cites. This file itself is not
//! scanned: its tests feed the scanners made-up citations of files and rulings that do not exist.

use std::collections::{BTreeSet, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Directories, relative to the root, whose files are data (fuzz inputs, fixtures, golden
/// outputs, images), not prose that cites anything.
const DATA_DIRS: &[&str] = &[
    "fuzz/artifacts",
    "fuzz/regressions",
    "fuzz/coverage",
    "tests/fixtures",
    "rules/tests/data",
    "rules/tests/golden",
    "render/tests/golden",
    "docs/images",
    "docs/examples",
];

/// This file, left out of the scan for its made-up examples.
const THIS_FILE: &str = "rules/tests/citations.rs";

/// Which rules document defines the rulings of each prefix.
const RULING_DOCS: &[(&str, &str)] = &[
    ("L3", "docs/rules/lanrick.md"),
    ("L0", "docs/rules/lanrick1880.md"),
    ("C", "docs/rules/croquet.md"),
    ("K", "docs/rules/lanko.md"),
];

fn repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .expect("the rules crate sits in the repository")
        .to_path_buf()
}

// ---------------------------------------------------------------------------------------------
// Walking the repository

/// The repository as the checks see it: the files to scan, and the name of every file.
struct Tree {
    /// Scanned files, relative to the root, with `/` separators, sorted.
    scanned: Vec<String>,
    /// The file name of every file outside skipped directories (for bare `X.md` names).
    names: HashSet<String>,
    /// The top directories (`docs`, `bot`, `.ci`, …) that mark a bare path as a citation.
    tops: Vec<String>,
}

fn skipped_dir(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name == "target"
        || name == "node_modules"
        || (name.starts_with('.') && rel != ".ci")
        || rel.starts_with("fuzz/corpus")
        || DATA_DIRS.contains(&rel)
}

fn scanned_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let ext = ["rs", "md", "toml", "sh", "py", "board", "service"];
    ext.iter().any(|e| name.ends_with(&format!(".{e}")))
        || name == "Dockerfile"
        || rel.starts_with("scripts/")
        || rel.starts_with(".ci/")
}

fn walk(root: &Path) -> Tree {
    let mut tree = Tree {
        scanned: Vec::new(),
        names: HashSet::new(),
        tops: Vec::new(),
    };
    let mut stack = vec![String::new()];
    while let Some(dir) = stack.pop() {
        let path = if dir.is_empty() {
            root.to_path_buf()
        } else {
            root.join(&dir)
        };
        let entries = fs::read_dir(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for entry in entries {
            let entry = entry.expect("a directory entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = if dir.is_empty() {
                name.clone()
            } else {
                format!("{dir}/{name}")
            };
            let kind = entry.file_type().expect("a file type");
            if kind.is_dir() {
                if !skipped_dir(&rel) {
                    if dir.is_empty() {
                        tree.tops.push(name);
                    }
                    stack.push(rel);
                }
            } else {
                if scanned_file(&rel) && rel != THIS_FILE {
                    tree.scanned.push(rel);
                }
                tree.names.insert(name);
            }
        }
    }
    tree.scanned.sort();
    tree.tops.sort();
    tree
}

/// The text of a scanned file, line by line, as the checks read it: for Rust, the comments only.
fn readable_lines(rel: &str, text: &str) -> Vec<(usize, String)> {
    if rel.ends_with(".rs") {
        rust_comments(text)
    } else {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Scanners

/// The comment text of Rust source, per 1-based line: `//` and `/* */` comments, doc comments
/// included. String, raw-string and character literals are skipped, across lines too.
fn rust_comments(text: &str) -> Vec<(usize, String)> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Code,
        Str,
        Raw(usize),
        Line,
        Block(usize),
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut line = 1;
    let mut current = String::new();
    let mut state = State::Code;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            if !current.is_empty() {
                out.push((line, std::mem::take(&mut current)));
            }
            line += 1;
            if state == State::Line {
                state = State::Code;
            }
            i += 1;
            continue;
        }
        match state {
            State::Code => match c {
                '/' if next == Some('/') => {
                    state = State::Line;
                    i += 2;
                    continue;
                }
                '/' if next == Some('*') => {
                    state = State::Block(1);
                    i += 2;
                    continue;
                }
                '"' => state = State::Str,
                'r' if i == 0 || !chars[i - 1].is_alphanumeric() || chars[i - 1] == 'b' => {
                    let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
                    if chars.get(i + 1 + hashes) == Some(&'"') {
                        state = State::Raw(hashes);
                        i += hashes + 2;
                        continue;
                    }
                }
                '\'' if next == Some('\\') => {
                    // An escaped character literal: skip to its closing quote.
                    let close = chars[i + 3..].iter().position(|&q| q == '\'');
                    i += close.map_or(1, |p| p + 4);
                    continue;
                }
                '\'' if chars.get(i + 2) == Some(&'\'') => {
                    i += 3;
                    continue;
                }
                _ => {}
            },
            State::Str => match c {
                // An escape; a backslash before a line break leaves the break to be counted.
                '\\' if next != Some('\n') => {
                    i += 2;
                    continue;
                }
                '"' => state = State::Code,
                _ => {}
            },
            State::Raw(hashes) => {
                let closes = c == '"'
                    && chars[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == '#')
                        .count()
                        == hashes;
                if closes {
                    state = State::Code;
                    i += hashes + 1;
                    continue;
                }
            }
            State::Line => current.push(c),
            State::Block(depth) => {
                if c == '*' && next == Some('/') {
                    state = if depth == 1 {
                        State::Code
                    } else {
                        State::Block(depth - 1)
                    };
                    current.push(' ');
                    i += 2;
                    continue;
                }
                if c == '/' && next == Some('*') {
                    state = State::Block(depth + 1);
                    i += 2;
                    continue;
                }
                current.push(c);
            }
        }
        i += 1;
    }
    if !current.is_empty() {
        out.push((line, current));
    }
    out
}

/// The targets of the markdown links `[text](target)` in a line that name a file: web and mail
/// links, same-page anchors and rustdoc item links are left out, and `#anchor` is dropped.
fn link_targets(line: &str) -> Vec<String> {
    link_spans(line)
        .into_iter()
        .filter_map(|(start, end)| {
            let raw = line[start..end].split_whitespace().next().unwrap_or("");
            let raw = raw.trim_start_matches('<').trim_end_matches('>');
            let web = raw.contains("://") || raw.starts_with("mailto:");
            let item = raw.contains("::") || (!raw.contains('/') && !raw.contains('.'));
            if raw.is_empty() || raw.starts_with('#') || web || item {
                return None;
            }
            let path = raw.split(['#', '?']).next().unwrap_or("");
            (!path.is_empty()).then(|| path.to_string())
        })
        .collect()
}

/// The byte ranges of the targets of the links in a line: what lies between `](` and `)`.
fn link_spans(line: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(at) = line[from..].find("](") {
        let start = from + at + 2;
        let Some(len) = line[start..].find(')') else {
            break;
        };
        spans.push((start, start + len));
        from = start + len;
    }
    spans
}

fn path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/')
}

/// The bare paths a line cites: see the module's documentation for which slashed words count.
/// Link targets are left to `link_targets`.
fn bare_paths(line: &str, tops: &[String]) -> Vec<String> {
    let mut text: Vec<char> = line.chars().collect();
    // Blank out link targets, so that a broken link is reported once, as a link.
    let mut blank = vec![false; text.len()];
    for (start, end) in link_spans(line) {
        let (s, e) = (line[..start].chars().count(), line[..end].chars().count());
        blank[s..e].iter_mut().for_each(|b| *b = true);
    }
    for (c, b) in text.iter_mut().zip(&blank) {
        if *b {
            *c = ' ';
        }
    }
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if !path_char(text[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len() && path_char(text[i]) {
            i += 1;
        }
        let before = start.checked_sub(1).map(|b| text[b]);
        let after = text.get(i).copied();
        if matches!(before, Some(':' | '@' | '~' | '$')) || matches!(after, Some('*' | '{')) {
            continue;
        }
        let token: String = text[start..i].iter().collect();
        let token = token.trim_end_matches('.');
        let token = token.strip_prefix("./").unwrap_or(token);
        if token.starts_with('/') || token.contains("//") {
            continue;
        }
        let segments: Vec<&str> = token.split('/').collect();
        let md = token.ends_with(".md");
        let cited = if segments.len() == 1 {
            md && token.starts_with(|c: char| c.is_ascii_alphanumeric())
        } else {
            let last = segments[segments.len() - 1];
            let file = last
                .rsplit_once('.')
                .is_some_and(|(s, e)| !s.is_empty() && !e.is_empty());
            let top = tops.iter().any(|t| t == segments[0]);
            let script = matches!(segments[0], "scripts" | ".ci");
            md || (top && (file || script || last.is_empty()))
        };
        if cited {
            found.push(token.to_string());
        }
    }
    found
}

/// The ruling ids cited in a line: `L3-5`, `L0-2`, `C-7`, `K-3`, as whole words.
fn ruling_ids(line: &str) -> Vec<String> {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let chars: Vec<char> = line.chars().collect();
    let mut found = Vec::new();
    for i in 0..chars.len() {
        if word(i.checked_sub(1).map(|b| chars[b])) {
            continue;
        }
        let rest: String = chars[i..].iter().take(4).collect();
        let prefix = RULING_DOCS
            .iter()
            .map(|(p, _)| *p)
            .find(|p| rest.starts_with(&format!("{p}-")));
        let Some(prefix) = prefix else { continue };
        let digits_at = i + prefix.len() + 1;
        let digits = chars[digits_at..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits > 0 && !word(chars.get(digits_at + digits).copied()) {
            found.push(chars[i..digits_at + digits].iter().collect());
        }
    }
    found
}

/// The rulings a rules document defines: the first cells of its table rows that are ruling ids.
fn defined_rulings(doc: &str) -> BTreeSet<String> {
    doc.lines()
        .filter_map(|l| l.trim_start().strip_prefix('|'))
        .filter_map(|row| row.split('|').next())
        .map(str::trim)
        .filter(|cell| ruling_ids(cell).first().is_some_and(|id| id == cell))
        .map(str::to_string)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The checks

/// The nearest directory, from `dir` up to the root, that holds a `Cargo.toml` ("" = the root).
fn crate_dir(root: &Path, dir: &str) -> String {
    let mut dir = dir.to_string();
    while !dir.is_empty() && !root.join(&dir).join("Cargo.toml").is_file() {
        dir = dir
            .rsplit_once('/')
            .map_or(String::new(), |(up, _)| up.to_string());
    }
    dir
}

fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Every citation of a file that is not in the repository, as `file:line: what it cites`.
fn missing_citations(root: &Path) -> Vec<String> {
    let tree = walk(root);
    let mut missing = Vec::new();
    for rel in &tree.scanned {
        let Ok(text) = fs::read_to_string(root.join(rel)) else {
            continue;
        };
        let dir = parent(rel);
        for (n, line) in readable_lines(rel, &text) {
            for target in link_targets(&line) {
                if !root.join(dir).join(&target).exists() {
                    missing.push(format!(
                        "{rel}:{n}: link to {target}, not in the repository"
                    ));
                }
            }
            for path in bare_paths(&line, &tree.tops) {
                let found = if path.contains('/') {
                    let bases = [String::new(), crate_dir(root, dir), dir.to_string()];
                    bases
                        .iter()
                        .any(|base| root.join(base).join(&path).exists())
                } else {
                    root.join(&path).is_file() || tree.names.contains(&path)
                };
                if !found {
                    missing.push(format!("{rel}:{n}: cites {path}, not in the repository"));
                }
            }
        }
    }
    missing
}

/// Every citation of a ruling that its rules document does not define, as
/// `file:line: what it cites`, and the number of citations checked.
fn undefined_rulings(root: &Path) -> (Vec<String>, usize) {
    let tree = walk(root);
    let defined: Vec<(&str, &str, BTreeSet<String>)> = RULING_DOCS
        .iter()
        .map(|&(prefix, doc)| {
            let text = fs::read_to_string(root.join(doc)).unwrap_or_default();
            (prefix, doc, defined_rulings(&text))
        })
        .collect();
    let mut undefined = Vec::new();
    let mut checked = 0;
    for rel in &tree.scanned {
        let Ok(text) = fs::read_to_string(root.join(rel)) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for id in ruling_ids(line) {
                checked += 1;
                let (_, doc, ids) = defined
                    .iter()
                    .find(|(prefix, _, _)| id.starts_with(&format!("{prefix}-")))
                    .expect("every id has a prefix of RULING_DOCS");
                if !ids.contains(&id) {
                    undefined.push(format!(
                        "{rel}:{}: cites ruling {id}, not defined in {doc} (a table row `| {id} | … |`)",
                        n + 1
                    ));
                }
            }
        }
    }
    (undefined, checked)
}

#[test]
fn every_cited_file_is_in_the_repository() {
    let missing = missing_citations(&repo_root());
    assert!(
        missing.is_empty(),
        "{} citations of files that are not in the repository; cite the repository's own \
         documents (docs/rules/<game>.md with the ruling id, docs/machine-interface.md, \
         docs/architecture.md, docs/guide.md) instead:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn every_cited_ruling_is_defined_in_its_rules_document() {
    let (undefined, checked) = undefined_rulings(&repo_root());
    assert!(
        checked > 100,
        "only {checked} ruling citations found: is the scan reading the repository?"
    );
    assert!(
        undefined.is_empty(),
        "{} citations of rulings that no rules document defines; add the ruling, with its \
         reason, to its game's table in docs/rules/:\n{}",
        undefined.len(),
        undefined.join("\n")
    );
}

#[test]
fn every_rules_document_defines_its_rulings_without_gaps() {
    // The rulings each game has (L3-1 … L3-13, L0-1 … L0-7, C-1 … C-8, K-1 … K-9): none may go
    // missing from a table unnoticed, even one that nothing else cites. New ones may follow.
    let at_least = [("L3", 13), ("L0", 7), ("C", 8), ("K", 9)];
    for (prefix, count) in at_least {
        let doc = RULING_DOCS
            .iter()
            .find(|(p, _)| *p == prefix)
            .expect("a document")
            .1;
        let text = fs::read_to_string(repo_root().join(doc)).expect("the rules document");
        let defined = defined_rulings(&text);
        let last = defined
            .iter()
            .filter_map(|id| id[prefix.len() + 1..].parse::<u32>().ok())
            .max();
        let last = last.unwrap_or(0).max(count);
        let wanted: BTreeSet<String> = (1..=last).map(|n| format!("{prefix}-{n}")).collect();
        assert_eq!(defined, wanted, "{doc}: the rulings table");
    }
}

// ---------------------------------------------------------------------------------------------
// The scanners on made-up text: each check can fail.

fn tops() -> Vec<String> {
    ["bot", "docs", "render", "rules", "scripts", ".ci"]
        .map(String::from)
        .to_vec()
}

#[test]
fn links_keep_files_and_drop_anchors_web_mail_and_rust_items() {
    let line = "See [clocks](../guide.md#clocks), [img](images/a.png \"t\"), [web](https://x.org/a.md), \
                [me](mailto:a@b.org), [top](#top), [`Game`](crate::Game), [`Seat`](Seat).";
    assert_eq!(link_targets(line), ["../guide.md", "images/a.png"]);
    assert!(link_targets("a [b] (c.md) and x[0](y)").is_empty());
}

#[test]
fn bare_paths_are_citations_of_repository_files_and_md_names() {
    let line = "Run scripts/test and .ci/run; see docs/guide.md, bot/src/core/mod.rs, rules/src/lanrick/, \
                DESIGN.md (RULINGS.md) and shared/notes/performance.md.";
    assert_eq!(
        bare_paths(line, &tops()),
        [
            "scripts/test",
            ".ci/run",
            "docs/guide.md",
            "bot/src/core/mod.rs",
            "rules/src/lanrick/",
            "DESIGN.md",
            "RULINGS.md",
            "shared/notes/performance.md",
        ]
    );
    // Not citations: absolute and web paths, benchmark names, positions, media types, globs.
    let other = "/tmp/d, https://x.org/docs/a.md, render/lanrick, rules/src, 5BB1/7B/W7, \
                 image/png, rules/tests/golden/lanko*-game.txt, docs/{a,b}.md, <game>.md";
    assert!(
        bare_paths(other, &tops()).is_empty(),
        "{:?}",
        bare_paths(other, &tops())
    );
    // A link's target is the link's business; its text is still read.
    assert_eq!(bare_paths("[docs/a.md](../x/b.md)", &tops()), ["docs/a.md"]);
}

#[test]
fn rust_is_read_for_its_comments_only() {
    let source = "let p = \"docs/missing.md\"; // see docs/guide.md\n\
                  let u = \"https://x.org/a\"; let c = '\"'; let e = '\\''; let l: &'a str = x;\n\
                  let r = r#\"// not a comment \"# ; /* block DESIGN.md */ f();\n\
                  let s = \"two\n// lines\"; //! end\n";
    let comments = rust_comments(source);
    let lines: Vec<(usize, &str)> = comments.iter().map(|(n, t)| (*n, t.trim())).collect();
    assert_eq!(
        lines,
        [
            (1, "see docs/guide.md"),
            (3, "block DESIGN.md"),
            (5, "! end")
        ]
    );
}

#[test]
fn ruling_ids_are_whole_words_of_the_four_prefixes() {
    let line =
        "(C-7), L3-12 and K-3; L0-2. Not ABC-1, XK-2, C-7a, L3-, L1-4, Lanko-88, C_1 or UTF-8.";
    assert_eq!(ruling_ids(line), ["C-7", "L3-12", "K-3", "L0-2"]);
}

#[test]
fn a_ruling_is_defined_by_a_table_row_of_its_own() {
    let doc = "### Rule 6 (C-8)\n\
               | ruling | what | why |\n\
               |---|---|---|\n\
               | C-7 | keeping in | Rule 6 |\n\
               |  C-1  | steps | Rule 1 |\n\
               | C-2 (as C-1) | called | - |\n\
               | text citing C-3 | x | y |\n";
    let defined: Vec<String> = defined_rulings(doc).into_iter().collect();
    assert_eq!(defined, ["C-1", "C-7"]);
}

#[test]
fn the_checks_report_every_offending_file_and_line() {
    let root = std::env::temp_dir().join(format!(
        "muster-citations-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
        fs::write(path, text).expect("a file");
    };
    write(
        "docs/rules/croquet.md",
        "| ruling | what |\n|---|---|\n| C-1 | steps |\n",
    );
    write(
        "docs/guide.md",
        "See [rules](rules/croquet.md), [gone](rules/gone.md#x) and DESIGN.md.\n",
    );
    write(
        "rules/src/lib.rs",
        "//! As in C-1 and C-9 (RULINGS.md).\nconst P: &str = \"data/x.md\";\n",
    );
    write("rules/Cargo.toml", "[package]\n");
    write("fuzz/corpus/play/input", "C-99 DESIGN.md\n");
    write("target/debug/note.md", "C-98 [x](nowhere.md)\n");

    let missing = missing_citations(&root);
    let (undefined, checked) = undefined_rulings(&root);
    fs::remove_dir_all(&root).expect("the temporary repository is removed");

    assert_eq!(
        missing,
        [
            "docs/guide.md:1: link to rules/gone.md, not in the repository",
            "docs/guide.md:1: cites DESIGN.md, not in the repository",
            "rules/src/lib.rs:1: cites RULINGS.md, not in the repository",
        ]
    );
    assert_eq!(checked, 3);
    assert_eq!(
        undefined,
        [
            "rules/src/lib.rs:1: cites ruling C-9, not defined in docs/rules/croquet.md (a table row `| C-9 | … |`)"
        ]
    );
}
