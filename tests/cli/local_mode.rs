//! The `skymines` binary's local mode and backup command as an operator runs them: hostile
//! option values are refused (exit 0, never a panic), scripts report refused and non-UTF-8
//! lines by number and go on (or stop with `--strict`), owners are named (`--owner`,
//! `local_owners`), start-up names the database and warns about an empty file, and a backup
//! taken from the command line restores.

use crate::support::TempDir;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp(tag: &str) -> (TempDir, PathBuf) {
    let dir = TempDir::new(&format!("localmode-{tag}"));
    let path = dir.path().to_path_buf();
    (dir, path)
}

/// Runs `skymines local` on `script` (bytes) with `extra` arguments.
fn local(dir: &Path, script: &[u8], extra: &[&str]) -> Output {
    let path = dir.join("script.txt");
    std::fs::write(&path, script).expect("script");
    let config = dir.join("config.toml");
    if !config.exists() {
        std::fs::write(&config, "").expect("config");
    }
    Command::new(env!("CARGO_BIN_EXE_skymines"))
        .args(["local", "--no-images", "--db"])
        .arg(dir.join("games.db"))
        .arg("--config")
        .arg(&config)
        .arg("--script")
        .arg(&path)
        .args(extra)
        .output()
        .expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn hostile_time_zones_are_refused_by_line_not_a_crash() {
    let (_d, dir) = temp("tz");
    let out = local(
        &dir,
        "alice /skymines settings timezone:ü\nalice /skymines settings timezone:€\nalice /skymines settings timezone:é1\nalice /skymines settings timezone:+1é1\nalice /skymines settings timezone:+02:00\n".as_bytes(),
        &[],
    );
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    for n in 1..=4 {
        assert!(stdout.contains(&format!("[refused] line {n}")), "{stdout}");
    }
    assert!(!stdout.contains("[refused] line 5"), "{stdout}");
    assert!(stdout.contains("UTC+02:00"), "{stdout}");
}

#[test]
fn a_script_reports_bad_lines_by_number_and_strict_stops_at_the_first() {
    let (_d, dir) = temp("script");
    let mut script = b"alice /skymines new players:2\n".to_vec();
    script.extend_from_slice(b"bob /skymines join \xff\xfe\n");
    script.extend_from_slice(b"carol /skymines start\n");
    script.extend_from_slice(b"bob /skymines join\n");
    let out = local(&dir, &script, &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("[error] line 2: not valid UTF-8"),
        "{stdout}"
    );
    assert!(stdout.contains("[refused] line 3"), "{stdout}");
    assert!(
        stdout.contains("bob joined"),
        "the script goes on: {stdout}"
    );
    assert!(text(&out.stderr).contains("2 of 4 lines refused"));

    let (_d, dir) = temp("strict");
    let out = local(&dir, &script, &["--strict"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("[error] line 2"), "{stdout}");
    assert!(!stdout.contains("line 3"), "stopped at line 2: {stdout}");
    assert!(!stdout.contains("bob joined"), "{stdout}");
}

#[test]
fn only_named_owners_have_the_owners_rights() {
    // The admin tools are the owners'; anyone else is refused.
    let script = b"alice /skymines admin list all:yes\n";
    let (_d, dir) = temp("plain");
    let stdout = text(&local(&dir, script, &[]).stdout);
    assert!(stdout.contains("[refused] line 1"), "{stdout}");
    let (_d, dir) = temp("owner");
    let stdout = text(&local(&dir, script, &["--owner", "alice"]).stdout);
    assert!(!stdout.contains("[refused]"), "{stdout}");
    let (_d, dir) = temp("config");
    std::fs::write(dir.join("config.toml"), "local_owners = [\"Alice\"]\n").expect("config");
    let stdout = text(&local(&dir, script, &[]).stdout);
    assert!(!stdout.contains("[refused]"), "{stdout}");
    // bob is not an owner: he may not abort carol's lobby.
    let stdout = text(
        &local(
            &dir,
            b"carol /skymines new players:2\nbob /skymines abort\n",
            &[],
        )
        .stdout,
    );
    assert!(stdout.contains("[refused] line 2"), "{stdout}");
    // A seed is for everyone in the local mode (DECISIONS B4).
    let (_d, dir) = temp("seed");
    let stdout = text(&local(&dir, b"bob /skymines new players:2 seed:5\n", &[]).stdout);
    assert!(stdout.contains("opened"), "{stdout}");
}

#[test]
fn start_up_names_the_database_and_warns_about_an_empty_file() {
    let (_d, dir) = temp("empty");
    let db = dir.join("games.db");
    std::fs::write(&db, b"").expect("empty file");
    let out = local(&dir, b"alice /skymines status\n", &[]);
    let stderr = text(&out.stderr);
    assert!(stderr.contains(&db.display().to_string()), "{stderr}");
    assert!(stderr.contains("0 running game(s) restored"), "{stderr}");
    assert!(
        stderr.contains("WARNING") && stderr.contains("EMPTY"),
        "{stderr}"
    );
    let out = local(&dir, b"alice /skymines status\n", &[]);
    assert!(!text(&out.stderr).contains("WARNING"));
}

#[test]
fn a_backup_from_the_command_line_restores() {
    let (_d, dir) = temp("backup");
    let out = local(
        &dir,
        b"alice /skymines new players:2\nbob /skymines join\nalice /skymines start\n",
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    let copy = dir.join("copy.db");
    let out = Command::new(env!("CARGO_BIN_EXE_skymines"))
        .args(["backup", "--db"])
        .arg(dir.join("games.db"))
        .arg("--out")
        .arg(&copy)
        .arg("--config")
        .arg(dir.join("config.toml"))
        .output()
        .expect("runs");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("1 running game(s)"), "{stdout}");
    // The copy in place of the database: the game is there.
    std::fs::rename(&copy, dir.join("games.db")).expect("restore");
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("games.db{suffix}")));
    }
    let out = local(&dir, b"alice /skymines status\n", &[]);
    assert!(text(&out.stderr).contains("1 running game(s) restored"));
    assert!(text(&out.stdout).contains("Round"), "{}", text(&out.stdout));
}

#[test]
fn the_terminal_gets_no_control_sequence_and_no_long_echo() {
    let (_d, dir) = temp("echo");
    let long = "x".repeat(100_000);
    let script = format!(
        "alice /skymines sta\u{1b}[2J\u{1b}]0;pwned\u{7}tus\u{0}\n\
         alice /skymines settings timezone:{long}\n\
         \u{1b}[31mmallory /skymines status\n\
         bob /skymines new players:2 tracks:A1\u{202e},B2\n"
    );
    let out = local(&dir, script.as_bytes(), &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for bad in ['\u{1b}', '\u{7}', '\u{0}', '\u{202e}'] {
        assert!(
            !stdout.contains(bad),
            "U+{:04X} reached the terminal: {stdout:?}",
            bad as u32
        );
    }
    assert!(
        stdout.contains("\\u{1b}[2J"),
        "the escape is shown, escaped: {stdout}"
    );
    assert!(
        !stdout.contains(&"x".repeat(skymines::text::QUOTE_LIMIT + 1)),
        "a 100 KB value was echoed in full: {:.300}",
        stdout
    );
    assert!(
        stdout.contains(&format!("`{}…`", "x".repeat(skymines::text::QUOTE_LIMIT))),
        "the value is quoted short: {:.300}",
        stdout
    );
}

/// A button outside an option list (Plan, Your turn, More choices) carries no number: `/choose
/// N` picks option N of a list, so a number beside it would promise what `/choose` does not do.
#[test]
fn buttons_outside_a_list_show_no_choose_number() {
    let (_d, dir) = temp("buttons");
    let script = "alice /skymines new players:2 seed:3\n\
                  bob /skymines join\n\
                  alice /skymines start\n";
    let out = local(&dir, script.as_bytes(), &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let plan = stdout
        .lines()
        .find(|l| l.contains("[o:1]"))
        .unwrap_or_else(|| panic!("no Plan button: {stdout}"));
    assert!(plan.contains("• Plan  [o:1]"), "{plan}");
    assert!(!plan.contains("(1)"), "{plan}");
    // The lobby's buttons are clicked by id too.
    assert!(stdout.contains("• Join  [l:join]"), "{stdout}");
}

/// `/choose 4 7 13` chose option 4 alone and said nothing of 7 and 13: it is refused whole.
#[test]
fn several_numbers_for_choose_are_refused_not_cut() {
    let (_d, dir) = temp("choose-many");
    let script = "alice /skymines new players:2 seed:3\n\
                  bob /skymines join\n\
                  alice /skymines start\n\
                  alice /click o:1\n\
                  alice /choose 1 2 3\n";
    let out = local(&dir, script.as_bytes(), &[]);
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(all.contains("one value only here"), "{all}");
    assert!(!all.contains("alice has planned"), "{all}");
}
