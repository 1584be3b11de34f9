//! The core's house held against its code (docs/architecture.md, "The floors of the core"):
//! every file of `bot/core/src` is on a floor; a file imports only its own floor and those below
//! (on its own floor, only its own folder: clocks and ratings do not know each other); no files
//! import each other in a circle, in the core or in any other crate of `bot/`; no platform's
//! name appears in the core; and the crates above the core ask its desk, never one of its
//! capabilities. Which crate may use which Cargo itself keeps: the
//! adapters depend on the core, never on each other, and the core on no platform's library.
//!
//! Imports are read from the code itself: `use` declarations and the `crate::…`, `super::…` and
//! `self::…` paths written in it, each resolved to the file that defines what it names (the
//! deepest module file on the path). Test modules (`#[cfg(test)]`) and comments are not
//! imports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The floors of `bot/core/src`, bottom first: a file is on the floor of the longest entry that
/// begins its path.
const FLOORS: &[(&str, u8)] = &[
    ("telemetry/", 1),
    ("signals.rs", 1),
    ("machine.rs", 1),
    ("kernel/", 2),
    ("players/", 3),
    ("games/", 4),
    ("clocks/", 5),
    ("ratings/", 5),
    ("learn/", 5),
    ("events/", 6),
    ("desk/", 7),
    // The crate's face, and what the suites share (the `test-support` feature).
    ("lib.rs", 9),
    ("testing.rs", 8),
];

/// The highest floor that may not name a platform (the face names the adapters' crates).
const BELOW_ADAPTERS: u8 = 7;

/// The other crates of `bot/`, whose files must not import each other in a circle either.
const CRATES: [&str; 6] = ["store", "discord", "matrix", "web", "host", "muster"];

/// Names of platforms, which only the adapters and what wires them may say.
const PLATFORMS: [&str; 2] = ["discord", "matrix"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, as paths relative to `base` with `/` separators.
fn files(dir: &Path, base: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the crate's sources are readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, base, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(base).expect("under the crate's src");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

fn floor(file: &str) -> u8 {
    FLOORS
        .iter()
        .filter(|(prefix, _)| file.starts_with(prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(_, f)| *f)
        .unwrap_or_else(|| panic!("{file} is on no floor: give it one in FLOORS"))
}

/// The folder a file belongs to on its floor (its first path segment).
fn room(file: &str) -> &str {
    file.split('/').next().unwrap_or(file)
}

/// The code of `text` without comments, string and character literals (their insides become
/// spaces, so that line numbers stay), and without `#[cfg(test)]` items.
fn code(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && matches!(next, Some('"' | '#')) && !word_before(&chars, i) {
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                out.push(blank(chars[j]));
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                }
                i += 1;
            }
            out.push_str("\"\"");
            i += 1;
        } else if c == '\'' && is_char_literal(&chars, i) {
            let end = (i + 1..chars.len()).find(|&j| chars[j] == '\'' && chars[j - 1] != '\\');
            i = end.map_or(chars.len(), |e| e + 1);
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    without_tests(&out)
}

fn word_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// Whether the quote at `i` opens a character literal (`'a'`, `'\n'`), not a lifetime.
fn is_char_literal(chars: &[char], i: usize) -> bool {
    matches!(
        (chars.get(i + 1), chars.get(i + 2)),
        (Some('\\'), _) | (Some(_), Some('\''))
    )
}

/// `text` with each item after `#[cfg(test)]` blanked.
fn without_tests(text: &str) -> String {
    let mut out = text.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let Some(open) = out[at..].find('{').map(|o| at + o) else {
            break;
        };
        let mut depth = 0;
        let mut end = out.len();
        for (k, c) in out[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        let blanked: String = out[at..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(at..end, &blanked);
    }
    out
}

/// The module path of `file` (`games/play.rs` → `["games", "play"]`; `lib.rs` → `[]`).
fn module_of(file: &str) -> Vec<String> {
    let stem = file.trim_end_matches(".rs");
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Every path a file's code names from the crate: `use` trees expanded, and the `crate::`,
/// `super::` and `self::` paths written inline, and those that begin with one of the file's own
/// modules (`respond::command` in a `mod.rs` that declares `respond`); each as absolute
/// segments. `children` are the modules declared under the file's module.
fn paths(file: &str, code: &str, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let module = module_of(file);
    let own = |p: Vec<String>| -> Vec<String> {
        match p.first() {
            Some(first) if children.contains(first) => {
                std::iter::once("self".to_string()).chain(p).collect()
            }
            _ => p,
        }
    };
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        let tail = &rest[at + 4..];
        rest = tail;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(end) = tail.find(';') else { break };
        for path in expand(tail[..end].trim()) {
            out.push(own(path));
        }
    }
    // A word ending in `::` begins a group of a `use` (read above).
    let words = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .filter(|w| w.contains("::") && !w.ends_with("::"));
    for w in words {
        out.push(own(w
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()));
    }
    out.into_iter()
        .filter_map(|p| absolute(&module, &p))
        .collect()
}

/// The paths a `use` tree stands for (`a::{b, c::d}` → `a::b`, `a::c::d`).
fn expand(tree: &str) -> Vec<Vec<String>> {
    // Renames (`x as y`) go first: only the path matters.
    let mut words: Vec<&str> = Vec::new();
    let mut it = tree.split_whitespace();
    while let Some(w) = it.next() {
        if w == "as" {
            let renamed = it.next().unwrap_or("");
            // Keep what follows the new name (`y,` or `y}`).
            let tail = renamed.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
            words.push(tail);
        } else {
            words.push(w);
        }
    }
    let tree: String = words.concat();
    let Some(open) = tree.find('{') else {
        return vec![
            tree.split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        ];
    };
    let prefix: Vec<String> = tree[..open]
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    let mut out = Vec::new();
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        for tail in expand(part) {
            let mut path = prefix.clone();
            path.extend(tail.into_iter().filter(|s| s != "self"));
            out.push(path);
        }
    }
    out
}

/// `path` made absolute from the crate root, as written in the module `module`; `None` when it
/// names another crate.
fn absolute(module: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut here: Vec<String> = module.to_vec();
    let mut segments = path.iter().peekable();
    match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segments.next();
            here.clear();
        }
        Some("super") => {
            while segments.peek().map(|s| s.as_str()) == Some("super") {
                segments.next();
                here.pop();
            }
        }
        Some("self") => {
            segments.next();
        }
        _ => return None,
    }
    here.extend(segments.cloned());
    Some(here)
}

/// The modules declared under `file`'s module: those that have a file of their own.
fn children(file: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let module = module_of(file).join("/");
    let dir = if module.is_empty() {
        String::new()
    } else {
        format!("{module}/")
    };
    known
        .iter()
        .filter_map(|k| k.strip_prefix(&dir))
        .filter_map(|rest| {
            let first = rest.split('/').next()?;
            let name = first.trim_end_matches(".rs");
            (name != "mod" && name != "lib" && name != "main").then(|| name.to_string())
        })
        .collect()
}

/// The file that defines what `path` names: the deepest module on it that has a file.
fn file_of(path: &[String], known: &BTreeSet<String>) -> Option<String> {
    for len in (0..=path.len()).rev() {
        let module = path[..len].join("/");
        let candidates = if module.is_empty() {
            vec!["lib.rs".to_string()]
        } else {
            vec![format!("{module}.rs"), format!("{module}/mod.rs")]
        };
        if let Some(found) = candidates.into_iter().find(|c| known.contains(c)) {
            return Some(found);
        }
    }
    None
}

/// The house of the crate whose sources are `base`: every file with the files it imports.
fn house_of(base: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut all = Vec::new();
    files(base, base, &mut all);
    let known: BTreeSet<String> = all.iter().cloned().collect();
    let mut graph = BTreeMap::new();
    for file in &all {
        let text = std::fs::read_to_string(base.join(file)).expect("a source file");
        let imports: BTreeSet<String> = paths(file, &code(&text), &children(file, &known))
            .iter()
            .filter_map(|p| file_of(p, &known))
            .filter(|target| target != file)
            .collect();
        graph.insert(file.clone(), imports);
    }
    graph
}

/// The core's house.
fn house() -> BTreeMap<String, BTreeSet<String>> {
    house_of(&src())
}

#[test]
fn nothing_imports_a_higher_floor_or_a_neighbour_on_its_own() {
    let mut wrong = Vec::new();
    for (file, imports) in house() {
        for target in imports {
            let (from, to) = (floor(&file), floor(&target));
            if to > from {
                wrong.push(format!(
                    "{file} (floor {from}) imports {target} (floor {to})"
                ));
            } else if to == from && room(&file) != room(&target) && from > 1 {
                wrong.push(format!(
                    "{file} imports {target}, its neighbour on floor {from}"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

/// The circles of `graph`: each strongly connected set of more than one file.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Tarjan's algorithm, iterative enough for a few hundred files.
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on.insert(v);
        let graph = s.graph;
        for w in graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut set = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                set.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if set.len() > 1 {
                set.sort();
                s.out.push(set);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let mut found = circles(&house());
    for name in CRATES {
        let base = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(name)
            .join("src");
        assert!(base.is_dir(), "bot/{name}/src is a crate of bot/");
        for circle in circles(&house_of(&base)) {
            found.push(circle.iter().map(|f| format!("{name}: {f}")).collect());
        }
    }
    assert!(
        found.is_empty(),
        "files that import each other in a circle:\n{}",
        found
            .iter()
            .map(|c| c.join(" ↔ "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn no_platform_is_named_below_the_adapters() {
    let base = src();
    let mut all = Vec::new();
    files(&base, &base, &mut all);
    let mut named = Vec::new();
    for file in all.iter().filter(|f| floor(f) <= BELOW_ADAPTERS) {
        let text = std::fs::read_to_string(base.join(file)).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            if PLATFORMS.iter().any(|p| lower.contains(p)) {
                named.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        named.is_empty(),
        "a platform named below the adapters (say it through the platform's Surface):\n{}",
        named.join("\n")
    );
}

/// The capabilities of the core, which the crates above reach only through the desk.
const CAPABILITIES: [&str; 5] = ["players", "games", "clocks", "ratings", "events"];

#[test]
fn the_crates_above_the_core_ask_the_desk_not_a_capability() {
    let bot = src().join("../..");
    let mut asked = Vec::new();
    for krate in ["discord", "matrix", "web", "host", "muster"] {
        let base = bot.join(krate).join("src");
        let mut all = Vec::new();
        files(&base, &base, &mut all);
        for file in &all {
            let text = code(&std::fs::read_to_string(base.join(file)).expect("a source file"));
            for (n, line) in text.lines().enumerate() {
                let line = line.replace(' ', "");
                if CAPABILITIES.iter().any(|c| {
                    line.contains(&format!("muster_core::{c}::"))
                        || line.contains(&format!("muster_core::{c};"))
                        || (line.contains("muster_core::{") && line.contains(&format!("{c}::")))
                }) {
                    asked.push(format!("{krate}/src/{file}:{}", n + 1));
                }
            }
        }
    }
    assert!(
        asked.is_empty(),
        "a capability reached past the desk (ask `muster_core::desk` instead):\n{}",
        asked.join("\n")
    );
}

#[test]
fn the_reader_finds_imports_circles_and_upward_arrows_in_made_up_code() {
    // `use` trees, inline paths, `super` from a file and from a folder's mod.rs.
    let known: BTreeSet<String> = ["lib.rs", "games/mod.rs", "games/play.rs", "kernel/reply.rs"]
        .into_iter()
        .map(str::to_string)
        .collect();
    let text = "use super::{play::save, mod_item};\nuse crate::kernel::reply::{self, Reply as R};\n\
                fn f() { crate::games::play::next_up(); } // crate::desk::nothing\n\
                #[cfg(test)]\nmod tests { use crate::desk::Core; }\n";
    let found: BTreeSet<String> = paths("games/view.rs", &code(text), &BTreeSet::new())
        .iter()
        .filter_map(|p| file_of(p, &known))
        .collect();
    let expected: BTreeSet<String> = ["games/play.rs", "games/mod.rs", "kernel/reply.rs"]
        .into_iter()
        .map(str::to_string)
        .collect();
    assert_eq!(found, expected);
    // A string that looks like a path is no import.
    let none = BTreeSet::new();
    assert!(
        paths(
            "games/view.rs",
            &code("let s = \"crate::desk::Core\";"),
            &none
        )
        .is_empty()
    );
    // In a folder's mod.rs, a path that begins with one of its files names that file.
    let play: BTreeSet<String> = ["play".to_string()].into();
    let found: Vec<Option<String>> =
        paths("games/mod.rs", &code("fn f() { play::save(); }"), &play)
            .iter()
            .map(|p| file_of(p, &known))
            .collect();
    assert_eq!(found, vec![Some("games/play.rs".to_string())]);
    // A circle of three, and a file outside it.
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")] {
        graph.entry(a.into()).or_default().insert(b.into());
        graph.entry(b.into()).or_default();
    }
    assert_eq!(circles(&graph), vec![vec!["a", "b", "c"]]);
    assert_eq!(floor("games/play.rs"), 4);
    assert_eq!(floor("kernel/store/sled_store.rs"), 2);
}
