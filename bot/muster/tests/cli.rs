//! The `muster` binary's own command line: help, version and usage errors.

use std::process::Command;

fn muster(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(args)
        .output()
        .expect("muster runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn help_names_the_commands() {
    let (code, out, _) = muster(&["help"]);
    assert_eq!(code, 0);
    assert!(out.contains("muster replay --game <id> [FILE]"));
    assert!(out.contains("muster moves --game <id> [FILE]"));
}

#[test]
fn version_prints_the_package_version() {
    let (code, out, _) = muster(&["--version"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), format!("muster {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn unknown_commands_and_options_are_usage_errors() {
    let (code, _, err) = muster(&["play"]);
    assert_eq!(code, 2);
    assert!(err.contains("unrecognized subcommand 'play'"), "{err}");
    assert!(err.contains("'replay'"), "a suggestion: {err}");
    let (code, _, err) = muster(&["replay", "--game", "lanrick", "--fast"]);
    assert_eq!(code, 2);
    assert!(err.contains("unexpected argument '--fast'"), "{err}");
    let (code, _, err) = muster(&["console", "--start", "2026-11-25T10:00:00Z"]);
    assert_eq!(code, 2);
    assert!(err.contains("add --clock manual"), "{err}");
}

#[test]
fn every_subcommand_has_its_help_and_shells_get_completions() {
    for command in [
        "console",
        "serve",
        "replay",
        "moves",
        "analyse",
        "backup",
        "restore",
        "config",
        "completions",
    ] {
        let (code, out, err) = muster(&[command, "--help"]);
        assert_eq!(code, 0, "{command}: {err}");
        assert!(
            out.contains(&format!("Usage: muster {command}")),
            "{command}: {out}"
        );
    }
    let (code, out, _) = muster(&["replay", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("--game <ID>") && out.contains("[FILE]"),
        "{out}"
    );
    for shell in ["bash", "zsh", "fish"] {
        let (code, out, err) = muster(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(
            out.contains("muster") && out.contains("replay"),
            "{shell}: {out}"
        );
    }
    let (code, _, err) = muster(&["completions", "tcsh"]);
    assert_eq!(code, 2, "{err}");
}
