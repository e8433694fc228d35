//! The command line (`skymines …`): unknown options and bad values are refused with a message
//! naming them and nothing runs; each subcommand's `--help` lists its options and defaults;
//! both spellings of a two-word option work; `local --script` plays a script.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the binary with `args`.
fn skymines(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skymines"))
        .args(args)
        .output()
        .expect("run skymines")
}

/// Runs the command line in this process: (exit code, what it printed on stdout).
fn run(args: &[&str]) -> (i32, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    let code = skymines::cli::run(&args, &mut out);
    (code, String::from_utf8_lossy(&out).into_owned())
}

fn refused(args: &[&str]) -> String {
    let out = skymines(args);
    assert_eq!(out.status.code(), Some(2), "{args:?} exits with 2");
    assert!(out.stdout.is_empty(), "{args:?} ran nothing");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn an_unknown_option_is_refused_by_name() {
    for args in [
        &["simulate", "--games", "1", "--frobnicate"][..],
        &["render", "--out", "x", "--frobnicate"],
        &["local", "--frobnicate"],
        &["data", "check", "--frobnicate"],
        &[
            "store-torture",
            "--db",
            "x",
            "--seed",
            "1",
            "--moves",
            "1",
            "--frobnicate",
        ],
    ] {
        let err = refused(args);
        assert!(
            err.contains("unexpected argument '--frobnicate'"),
            "{args:?}: {err}"
        );
        assert!(err.contains("--help"), "points to --help: {err}");
    }
    let err = refused(&["frobnicate"]);
    assert!(
        err.contains("unrecognized subcommand 'frobnicate'"),
        "{err}"
    );
}

#[test]
fn a_bad_value_is_refused_with_the_option_and_the_value() {
    let cases: [(&[&str], &[&str]); 6] = [
        (&["simulate", "--games", "many"], &["'many'", "--games"]),
        (
            &["simulate", "--board", "mars"],
            &["'mars'", "--board", "moon", "belt"],
        ),
        (
            &["simulate", "--tokens", "dealt"],
            &["'dealt'", "--tokens", "fixed", "draft"],
        ),
        (
            &["render", "--out", "x", "--luna", "high"],
            &["'high'", "--luna"],
        ),
        (
            &["render", "--out", "x", "--language", "fr"],
            &["'fr'", "--language", "en", "de"],
        ),
        (
            &["store-torture", "--db", "x", "--seed", "1", "--moves", "3x"],
            &["'3x'", "--moves"],
        ),
    ];
    for (args, names) in cases {
        let err = refused(args);
        assert!(
            err.contains("invalid value") || err.contains("unexpected argument"),
            "{err}"
        );
        for n in names {
            assert!(err.contains(n), "{args:?}: `{n}` missing from {err}");
        }
    }
    let err = refused(&["render", "--seed", "3"]);
    assert!(
        err.contains("--out <DIR>"),
        "a missing required option is named: {err}"
    );
}

#[test]
fn each_subcommand_help_lists_its_options_and_defaults() {
    let cases: [(&[&str], &[&str]); 5] = [
        (
            &["simulate", "--help"],
            &[
                "--games <N>",
                "[default: 100]",
                "--players <P>",
                "[default: 2]",
                "--luna <L>",
                "--seed <S>",
                "[default: 1]",
                "--board <BOARD>",
                "[default: moon]",
                "--tracks <TRACKS>",
                "--tokens <TOKENS>",
                "[default: fixed]",
                "--linked-slots",
                "--missions",
                "--threats",
                "--threat <ID>",
                "--campaign",
                "--vary",
                "--json",
                "--no-check",
            ],
        ),
        (
            &["render", "--help"],
            &[
                "--seed <S>",
                "--players <P>",
                "--rounds <R>",
                "[default: 3]",
                "--decisions <N>",
                "[default: 0]",
                "--language <LANGUAGE>",
                "[default: en]",
                "--out <DIR>",
            ],
        ),
        (
            &["local", "--help"],
            &[
                "--db <PATH>",
                "--script <FILE>",
                "--out <DIR>",
                "[default: skymines-images]",
                "--no-images",
                "--config <PATH>",
                "[default: config.toml]",
            ],
        ),
        (&["data", "check", "--help"], &["--dir <DIR>", "--json"]),
        (
            &["store-torture", "--help"],
            &[
                "--db <PATH>",
                "--seed <S>",
                "--moves <N>",
                "--snapshot-every <K>",
                "[default: 4]",
            ],
        ),
    ];
    for (args, wanted) in cases {
        let (code, help) = run(args);
        assert_eq!(code, 0, "{args:?}");
        for w in wanted {
            assert!(help.contains(w), "{args:?}: `{w}` missing from\n{help}");
        }
    }
    let (code, help) = run(&["help"]);
    assert_eq!(code, 0);
    for sub in ["local", "data", "simulate", "render", "store-torture"] {
        assert!(help.contains(sub), "`{sub}` missing from\n{help}");
    }
}

/// The report of `simulate` with these extra options (one game, JSON).
fn report(extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "simulate",
        "--games",
        "1",
        "--players",
        "2",
        "--seed",
        "5",
        "--json",
    ];
    args.extend_from_slice(extra);
    let (code, out) = run(&args);
    assert_eq!(code, 0, "{args:?}: {out}");
    serde_json::from_str(&out).expect("a JSON report")
}

#[test]
fn two_word_options_take_both_spellings() {
    let plain = report(&[]);
    let dashed = report(&["--linked-slots", "--no-check"]);
    let underscored = report(&["--linked_slots", "--no_check"]);
    assert_eq!(dashed["digest"], underscored["digest"]);
    assert_ne!(
        plain["digest"], dashed["digest"],
        "linked slots change the game"
    );
    // A repeated option: the last one counts, as before clap.
    assert_eq!(
        report(&["--seed", "9", "--seed", "5"])["digest"],
        plain["digest"]
    );
}

#[test]
fn local_plays_a_script() {
    let dir: PathBuf = std::env::temp_dir().join(format!("skymines-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let script = dir.join("moves.txt");
    std::fs::write(
        &script,
        "alice /skymines new players:2 seed:3\nbob /skymines join\nalice /skymines start\n",
    )
    .expect("write the script");
    let db = dir.join("game.db");
    let db = db.to_str().expect("a UTF-8 path");
    let script = script.to_str().expect("a UTF-8 path");
    // In the local mode anyone may choose a seed (DECISIONS B4): no `--owner` needed.
    let out = skymines(&["local", "--db", db, "--script", script, "--no_images"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("[public]"), "{stdout}");
    assert!(!stdout.contains("[refused]"), "{stdout}");
}
