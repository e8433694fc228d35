//! The docs inside the repository stay in step with the code (docs/README.md):
//! - every decision the code cites (`DECISIONS B16`) has its section in docs/decisions.md, and
//!   the sections are numbered without gaps;
//! - every worked example or rule check the code names (`EX-8`, `DT-3`) is listed in
//!   docs/worked-examples.md;
//! - no rule text is cited by the line numbers of a copy the repository does not hold; the only
//!   line tags left are inside the component data's values, and each falls into a section of
//!   the key in docs/sources.md;
//! - the layer order src/lib.rs states holds for every `crate::` path in src/.
//!
//! The files are read from the source tree when the test runs.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// This file: it spells out the patterns it looks for.
const SELF: &str = "tests/engine/docs.rs";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A text file of the repository: its path from the root and its contents.
struct File {
    path: String,
    text: String,
}

/// The text files under `dirs` (files or folders, from the root) whose names end in one of
/// `exts`, in path order.
fn files(dirs: &[&str], exts: &[&str]) -> Vec<File> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let root = root();
    let mut paths = Vec::new();
    for d in dirs {
        let p = root.join(d);
        if p.is_dir() {
            walk(&p, &mut paths);
        } else if p.is_file() {
            paths.push(p);
        }
    }
    paths.sort();
    paths
        .into_iter()
        .filter(|p| exts.iter().any(|e| p.to_string_lossy().ends_with(e)))
        .filter_map(|p| {
            let text = fs::read_to_string(&p).ok()?;
            let path = p
                .strip_prefix(&root)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            Some(File { path, text })
        })
        .collect()
}

/// Where the code is: everything that may cite a decision, an example or a rule text.
fn code() -> Vec<File> {
    files(
        &[
            "src",
            "tests",
            "benches",
            "assets",
            "migrations",
            "docs",
            "README.md",
            "BENCHMARKS.md",
            ".ci",
        ],
        &[".rs", ".toml", ".md", ".sql", "run", ".sh"],
    )
    .into_iter()
    .filter(|f| f.path != SELF)
    .collect()
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The character before byte `at` is not part of a word.
fn starts_word(text: &str, at: usize) -> bool {
    text[..at].chars().next_back().is_none_or(|c| !is_word(c))
}

// ---------------------------------------------------------------- decisions

/// A decision id at the start of `s` (`A5`, `B16`, also written `A.14`): its letter, number and
/// length in bytes.
fn decision_id(s: &str) -> Option<(char, u32, usize)> {
    let mut chars = s.char_indices();
    let (_, letter) = chars.next()?;
    if letter != 'A' && letter != 'B' {
        return None;
    }
    let rest = s[1..].strip_prefix('.').unwrap_or(&s[1..]);
    let dot = s.len() - 1 - rest.len();
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 || rest[digits..].starts_with(|c: char| is_word(c) && c != '\'') {
        return None;
    }
    let n = rest[..digits].parse().ok()?;
    Some((letter, n, 1 + dot + digits))
}

/// Every decision cited as `DECISIONS <ids>` in `text`, with its line: a list of ids separated
/// by commas, slashes or "and", and ranges (`A8–A16`).
fn cited_decisions(text: &str) -> Vec<(String, usize)> {
    const SEPARATORS: [&str; 6] = [", ", ",", "/", " and ", " or ", " "];
    let mut out = Vec::new();
    for (at, _) in text.match_indices("DECISIONS ") {
        if !starts_word(text, at) {
            continue;
        }
        let line = line_of(text, at);
        let mut rest = &text[at + "DECISIONS ".len()..];
        let mut first = true;
        loop {
            if !first {
                let Some(sep) = SEPARATORS.iter().find(|s| rest.starts_with(**s)) else {
                    break;
                };
                rest = &rest[sep.len()..];
            }
            let Some((letter, n, len)) = decision_id(rest) else {
                break;
            };
            first = false;
            rest = &rest[len..];
            out.push((format!("{letter}{n}"), line));
            // A range: every id from this one to the next.
            let after_dash = rest.strip_prefix('–').or_else(|| rest.strip_prefix('-'));
            if let Some((to_letter, to, len)) = after_dash.and_then(decision_id) {
                if to_letter == letter && to > n {
                    out.extend((n + 1..=to).map(|k| (format!("{letter}{k}"), line)));
                    rest = &after_dash.unwrap_or(rest)[len..];
                }
            }
        }
    }
    out
}

/// The decisions docs/decisions.md defines: its `### A1 — …` headings.
fn documented_decisions() -> Vec<String> {
    read("docs/decisions.md")
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .filter_map(|h| decision_id(h).map(|(letter, n, _)| format!("{letter}{n}")))
        .collect()
}

#[test]
fn every_decision_the_code_cites_is_in_the_docs() {
    let documented: BTreeSet<String> = documented_decisions().into_iter().collect();
    let mut missing = Vec::new();
    let mut cited = 0;
    for f in code() {
        for (id, line) in cited_decisions(&f.text) {
            cited += 1;
            if !documented.contains(&id) {
                missing.push(format!("{}:{line}: DECISIONS {id}", f.path));
            }
        }
    }
    assert!(
        cited > 50,
        "only {cited} decision citations found: is the scan broken?"
    );
    assert!(
        missing.is_empty(),
        "cited but not in docs/decisions.md (add its section, or fix the citation):\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_decisions_are_numbered_without_gaps() {
    let ids = documented_decisions();
    let mut by_part: BTreeMap<char, Vec<u32>> = BTreeMap::new();
    for id in &ids {
        let (letter, n, _) = decision_id(id).expect("an id");
        by_part.entry(letter).or_default().push(n);
    }
    for (part, numbers) in &by_part {
        let want: Vec<u32> = (1..=numbers.len() as u32).collect();
        assert_eq!(
            numbers, &want,
            "docs/decisions.md: part {part} must run {part}1, {part}2, … in order, once each"
        );
    }
    assert!(by_part.get(&'A').is_some_and(|a| a.len() >= 17), "{ids:?}");
    assert!(by_part.get(&'B').is_some_and(|b| b.len() >= 22), "{ids:?}");
}

#[test]
fn the_decision_parser_reads_lists_and_ranges() {
    let ids =
        |t: &str| -> Vec<String> { cited_decisions(t).into_iter().map(|(id, _)| id).collect() };
    assert_eq!(ids("(DECISIONS A8, AM-12)"), ["A8"]);
    assert_eq!(ids("DECISIONS A8–A10."), ["A8", "A9", "A10"]);
    assert_eq!(ids("DECISIONS A8/A14: a loop"), ["A8", "A14"]);
    assert_eq!(ids("(DECISIONS A.14: never 4)"), ["A14"]);
    assert_eq!(ids("DECISIONS B12's mild bias"), ["B12"]);
    assert_eq!(ids("const MAX_DECISIONS: u64"), Vec::<String>::new());
    assert_eq!(ids("DECISIONS A13. Default tracks: Skymine A1,"), ["A13"]);
}

// ---------------------------------------------------------------- worked examples

/// The prefixes of the ids of worked examples, rule checks and stated rules.
const FACT_PREFIXES: [&str; 6] = ["EX-", "DT-", "FS-", "RP-", "AM-", "C-"];

/// Every `EX-8`-like id in `text`, with its line.
fn cited_facts(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for prefix in FACT_PREFIXES {
        for (at, _) in text.match_indices(prefix) {
            let digits: String = text[at + prefix.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if digits.is_empty() || !starts_word(text, at) {
                continue;
            }
            out.push((format!("{prefix}{digits}"), line_of(text, at)));
        }
    }
    out
}

#[test]
fn every_example_the_code_names_is_in_the_docs() {
    let listed: BTreeSet<String> = read("docs/worked-examples.md")
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(" |").next())
        .map(str::to_string)
        .collect();
    let mut missing = Vec::new();
    let mut cited = 0;
    for f in files(&["src", "tests", "benches", "README.md"], &[".rs", ".md"]) {
        if f.path == SELF {
            continue;
        }
        for (id, line) in cited_facts(&f.text) {
            cited += 1;
            if !listed.contains(&id) {
                missing.push(format!("{}:{line}: {id}", f.path));
            }
        }
    }
    assert!(
        cited > 20,
        "only {cited} example ids found: is the scan broken?"
    );
    assert!(
        missing.is_empty(),
        "named but not listed in docs/worked-examples.md (list it, or cite the decision or \
         rulebook section instead):\n{}",
        missing.join("\n")
    );
}

// ---------------------------------------------------------------- rule texts by line number

/// A rule text's line tag in `text`: the source (`001`, `002`, `003`) and the lines, for every
/// `~L<n>` (`001 ~L509`, `~L1292-1296`, `~L777–L850`), with its byte offset. A tag without a
/// source takes the last source named before it; `None` when there is none.
fn line_tags(text: &str) -> Vec<(usize, Option<String>, u32, u32)> {
    let mut out = Vec::new();
    let mut source: Option<String> = None;
    let number = |s: &str| -> (Option<u32>, usize) {
        let d: String = s.chars().take_while(char::is_ascii_digit).collect();
        (d.parse().ok(), d.len())
    };
    for (at, _) in text.match_indices("~L") {
        let (Some(from), len) = number(&text[at + 2..]) else {
            continue;
        };
        let before = text[..at].trim_end();
        if before.len() >= 3 && before.is_char_boundary(before.len() - 3) {
            let tail = &before[before.len() - 3..];
            if tail.starts_with("00") && tail.chars().all(|c| c.is_ascii_digit()) {
                source = Some(tail.to_string());
            }
        }
        let rest = &text[at + 2 + len..];
        let rest = rest
            .strip_prefix('-')
            .or_else(|| rest.strip_prefix('–'))
            .map(|r| r.strip_prefix('L').unwrap_or(r));
        let to = rest.and_then(|r| number(r).0).unwrap_or(from);
        out.push((at, source.clone(), from, to));
    }
    // `001 L509` (no tilde) is a line number too.
    for (at, _) in text.match_indices(" L") {
        let tail = text[..at].get(at.saturating_sub(3)..).unwrap_or("");
        let is_source = tail.starts_with("00") && tail.chars().all(|c| c.is_ascii_digit());
        if let (true, (Some(n), _)) = (is_source, number(&text[at + 2..])) {
            out.push((at, Some(tail.to_string()), n, n));
        }
    }
    out
}

/// The parts of a TOML text: (comment, start offset, text) for each comment and each string.
fn toml_parts(text: &str) -> Vec<(bool, usize, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
            let end = text[i + 3..]
                .find(&rest[..3])
                .map_or(b.len(), |e| i + 3 + e + 3);
            out.push((false, i, &text[i..end]));
            i = end;
        } else if b[i] == b'"' || b[i] == b'\'' {
            let q = b[i];
            let mut j = i + 1;
            while j < b.len() && b[j] != q && b[j] != b'\n' {
                j += if q == b'"' && b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            out.push((false, i, &text[i..end]));
            i = end;
        } else if b[i] == b'#' {
            let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
            out.push((true, i, &text[i..end]));
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The key of docs/sources.md: (source, first line, last line) of each section.
fn key() -> Vec<(String, u32, u32)> {
    read("docs/sources.md")
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let [_, source, lines, ..] = cells.as_slice() else {
                return None;
            };
            let (a, b) = lines.split_once('–')?;
            if !source.starts_with("00") {
                return None;
            }
            Some((source.to_string(), a.parse().ok()?, b.parse().ok()?))
        })
        .collect()
}

#[test]
fn no_rule_text_is_cited_by_line_number() {
    let key = key();
    assert!(
        key.len() > 100,
        "docs/sources.md's key has {} rows",
        key.len()
    );
    let in_key = |s: &str, n: u32| {
        key.iter()
            .any(|(src, a, b)| src == s && (*a..=*b).contains(&n))
    };
    let mut found = Vec::new();
    for f in code() {
        // The key itself, and the strings of the component data (hashed game data, DECISIONS
        // B5), whose tags the key must cover.
        if f.path == "docs/sources.md" {
            continue;
        }
        let data = f.path.starts_with("assets/") && f.path.ends_with(".toml");
        if data {
            for (comment, start, part) in toml_parts(&f.text) {
                for (at, source, from, to) in line_tags(part) {
                    let line = line_of(&f.text, start + at);
                    let covered = source
                        .as_deref()
                        .is_some_and(|s| in_key(s, from) && in_key(s, to));
                    if comment {
                        found.push(format!("{}:{line}: a comment cites a line number", f.path));
                    } else if !covered {
                        found.push(format!(
                            "{}:{line}: {} ~L{from}-{to} is not in docs/sources.md's key",
                            f.path,
                            source.as_deref().unwrap_or("(no source)")
                        ));
                    }
                }
            }
        } else {
            for (at, source, from, _) in line_tags(&f.text) {
                found.push(format!(
                    "{}:{}: {} ~L{from}",
                    f.path,
                    line_of(&f.text, at),
                    source.as_deref().unwrap_or("")
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "cite the rule text by section title and page (docs/sources.md), not by line number:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_line_tag_reader_finds_what_it_should() {
    let tags = |t: &str| -> Vec<(Option<String>, u32, u32)> {
        line_tags(t)
            .into_iter()
            .map(|(_, s, a, b)| (s, a, b))
            .collect()
    };
    let s = |x: &str| Some(x.to_string());
    assert_eq!(tags("(rulebook 001 ~L509)"), [(s("001"), 509, 509)]);
    assert_eq!(
        tags("001 ~L246-248, ~L582; 003 ~L251"),
        [
            (s("001"), 246, 248),
            (s("001"), 582, 582),
            (s("003"), 251, 251)
        ]
    );
    assert_eq!(tags("(~L777–L850)"), [(None, 777, 850)]);
    assert_eq!(tags("(001\n~L1051-1170)"), [(s("001"), 1051, 1170)]);
    assert_eq!(tags("see 002 L635"), [(s("002"), 635, 635)]);
    assert!(tags("(rulebook, \"Research points\", p. 14) L2 cache").is_empty());
    let parts = toml_parts("a = \"x # y\" # z ~L1\nb = '''\n# not a comment\n'''\n");
    let comments: Vec<&str> = parts.iter().filter(|p| p.0).map(|p| p.2).collect();
    assert_eq!(comments, ["# z ~L1"]);
}

// ---------------------------------------------------------------- the layer order

/// The layers of src/lib.rs, in order: a module may use the modules of earlier layers only.
const LAYERS: [&[&str]; 11] = [
    &["text"],
    &["data"],
    &["engine"],
    &["bots"],
    &["sim"],
    &["store", "render"],
    &["chat"],
    &["config"],
    &["memory"],
    &["local", "discord"],
    &["cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

#[test]
fn the_layers_of_lib_rs_hold() {
    let lib = read("src/lib.rs");
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    for m in &declared {
        assert!(
            layer_of(m).is_some(),
            "src/lib.rs declares `{m}`: give it its layer here"
        );
    }
    // The doc comment names the layers in the same order.
    let doc: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut at = 0;
    for m in LAYERS.iter().flat_map(|l| l.iter()) {
        let named = format!("`{m}`");
        let Some(found) = doc[at..].find(&named) else {
            panic!("src/lib.rs's doc comment does not name `{m}` after the layers before it");
        };
        at += found;
    }
    let mut wrong = Vec::new();
    for f in files(&["src"], &[".rs"]) {
        let rel = f.path.trim_start_matches("src/");
        let module = rel.split(['/', '.']).next().unwrap_or("");
        let Some(own) = layer_of(module) else {
            continue;
        };
        for (n, l) in f.text.lines().enumerate() {
            if l.trim_start().starts_with("//") {
                continue;
            }
            for (at, _) in l.match_indices("crate::") {
                if !starts_word(l, at) {
                    continue;
                }
                let used: String = l[at + 7..].chars().take_while(|c| is_word(*c)).collect();
                let Some(theirs) = layer_of(&used) else {
                    continue;
                };
                if used != module && theirs >= own {
                    wrong.push(format!("{}:{}: `{module}` uses `{used}`", f.path, n + 1));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "a module may use only the layers before it (src/lib.rs, docs/architecture.md):\n{}",
        wrong.join("\n")
    );
}
