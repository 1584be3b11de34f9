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
    assert!(err.contains("unknown command 'play'"));
    let (code, _, err) = muster(&["replay", "--game", "lanrick", "--fast"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown option '--fast'"));
}
