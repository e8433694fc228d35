//! Helpers for the tests that read the text catalogs.
#![allow(dead_code)]

/// A template without its `{argument}`s: the words a reader sees whatever the arguments.
pub fn literal(template: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in template.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}
