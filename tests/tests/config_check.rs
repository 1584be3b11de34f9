//! `muster config check` as an operator runs it: the settings from muster.toml and `MUSTER_*`
//! variables, printed with every secret masked; an invalid one named with its key.

use std::process::Command;

fn check(dir: &std::path::Path, env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = Command::new(muster_tests::muster_binary!());
    cmd.args(["config", "check"])
        .current_dir(dir)
        .env_remove("MUSTER_CONFIG");
    for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("MUSTER_")) {
        cmd.env_remove(k);
    }
    cmd.envs(env.iter().copied());
    cmd.output().expect("muster runs")
}

#[test]
fn the_effective_settings_are_printed_with_secrets_masked() {
    let dir = muster_tests::data_dir("config", "check");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("muster.toml"),
        "prefix = \"?\"\n[matrix]\nhomeserver = \"https://m.example.org\"\nuser = \"@muster:example.org\"\n",
    )
    .unwrap();
    let out = check(
        &dir,
        &[
            ("MUSTER_MATRIX_PASSWORD", "correct-horse-battery"),
            ("MUSTER_DISCORD_TOKEN", "Bot.very-secret"),
            ("MUSTER_DISCORD_APPLICATION_ID", "123456789012345678"),
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !text.contains("correct-horse") && !text.contains("very-secret"),
        "{text}"
    );
    for line in [
        "prefix = \"?\"",
        "token = \"***\"",
        "password = \"***\"",
        "application_id = \"123456789012345678\"",
        "homeserver = \"https://m.example.org\"",
        "clock = \"3d\"",
    ] {
        assert!(text.contains(line), "{line} missing:\n{text}");
    }
    let bad = check(&dir, &[("MUSTER_VACATION_DAYS", "many")]);
    assert_eq!(bad.status.code(), Some(1));
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(said.contains("MUSTER_VACATION_DAYS"), "{said}");
}

/// `muster config check` over `toml` (with a Matrix password and a Discord token given as
/// variables): its exit code and standard error.
fn check_file(name: &str, toml: &str) -> (Option<i32>, String) {
    let dir = muster_tests::data_dir("config", name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("muster.toml"), toml).unwrap();
    let out = check(
        &dir,
        &[
            ("MUSTER_MATRIX_PASSWORD", "pw"),
            ("MUSTER_DISCORD_TOKEN", "Bot.t"),
            ("MUSTER_DISCORD_APPLICATION_ID", "123456789012345678"),
        ],
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn clocks_are_held_to_the_limits_the_chat_holds_a_challenge_to() {
    for (clock, why) in [
        ("0s", "at least 30s"),
        ("20s", "at least 30s"),
        ("90d", "at most 60d"),
        ("10d+11d", "not be more than the bank"),
    ] {
        let (code, said) = check_file("clock", &format!("[discord]\nclock = \"{clock}\"\n"));
        assert_eq!(code, Some(1), "{clock}: {said}");
        assert!(
            said.contains("discord.clock") && said.contains(why),
            "{clock}: {said}"
        );
    }
    let (code, said) = check_file("clock-ok", "[discord]\nclock = \"10d+1d\"\n");
    assert_eq!(code, Some(0), "{said}");
}

#[test]
fn an_empty_auto_join_and_two_listeners_on_one_address_are_warned_of() {
    let matrix =
        "[matrix]\nhomeserver = \"https://m.example.org\"\nuser = \"@muster:example.org\"\n";
    let (code, said) = check_file("auto-join", matrix);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("warning: `matrix.auto_join` is empty")
            && said.contains("invite @muster:example.org to your room"),
        "{said}"
    );
    let joined = format!("{matrix}auto_join = [\"example.org\"]\n");
    let (_, said) = check_file("auto-join-set", &joined);
    assert!(!said.contains("auto_join"), "{said}");
    let (code, said) = check_file(
        "listeners",
        "ops_listen = \"127.0.0.1:9400\"\n[web]\nlisten = \"0.0.0.0:9400\"\nbase_url = \"https://muster.example.org\"\n",
    );
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("`ops_listen` (127.0.0.1:9400) and `web.listen` (0.0.0.0:9400) would listen on one address"),
        "{said}"
    );
}

#[test]
fn a_value_of_the_wrong_type_is_named_by_its_key() {
    let (code, said) = check_file("type", "[discord]\nclock = 123\n");
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("`discord.clock`") && said.contains("line 2"),
        "{said}"
    );
}
