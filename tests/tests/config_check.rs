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
