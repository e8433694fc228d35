//! What the checks of several files share: unique ids, one condition with its error, a plan's or a
//! space's requirements, and Luna's slot letters.

use crate::data::common::Requirement;
use crate::data::DataError;
use std::collections::{BTreeMap, BTreeSet};

/// The result of one check: the first problem found, if any.
pub(super) type Check = Result<(), DataError>;

pub(super) fn unique<'a>(file: &str, field: &str, ids: impl Iterator<Item = &'a str>) -> Check {
    let mut seen = BTreeSet::new();
    for id in ids {
        if !seen.insert(id) {
            return Err(DataError::invalid(file, id, field, "duplicate id"));
        }
    }
    Ok(())
}

pub(super) fn ensure(
    cond: bool,
    file: &str,
    entry: &str,
    field: &str,
    msg: impl Into<String>,
) -> Check {
    if cond {
        Ok(())
    } else {
        Err(DataError::invalid(file, entry, field, msg))
    }
}

pub(super) fn check_requirements(file: &str, entry: &str, reqs: &[Requirement]) -> Check {
    for r in reqs {
        let ok = match r {
            Requirement::Carbon { min }
            | Requirement::Minerals { min }
            | Requirement::Titanium { min }
            | Requirement::Energy { min }
            | Requirement::ResearchScientist { min }
            | Requirement::FieldScientist { min }
            | Requirement::EitherScientist { min } => *min > 0,
            Requirement::DiscardFromHand { card } => {
                card == "any" || crate::data::Resource::parse(card).is_some()
            }
            _ => true,
        };
        ensure(
            ok,
            file,
            entry,
            "requirements",
            format!("bad requirement {r:?}"),
        )?;
    }
    Ok(())
}

/// Checks that every character of a slot-letter string is one of Luna's slot letters.
pub(super) fn slot_letters(
    file: &str,
    entry: &str,
    field: &str,
    cell: &str,
    slots: &[char],
) -> Check {
    for ch in cell.chars() {
        ensure(
            slots.contains(&ch),
            file,
            entry,
            field,
            format!(
                "slot letter `{ch}` is not one of {}",
                slots.iter().collect::<String>()
            ),
        )?;
    }
    Ok(())
}

pub(super) fn slot_keys<V>(
    file: &str,
    entry: &str,
    field: &str,
    map: &BTreeMap<char, V>,
    slots: &[char],
) -> Check {
    for k in map.keys() {
        ensure(
            slots.contains(k),
            file,
            entry,
            field,
            format!(
                "slot letter `{k}` is not one of {}",
                slots.iter().collect::<String>()
            ),
        )?;
    }
    Ok(())
}

/// Checks a slot-letter matrix's shape and letters; returns the cells marked for each slot.
pub(super) fn slot_matrix(
    file: &str,
    entry: &str,
    field: &str,
    matrix: &[Vec<String>],
    shape: (usize, usize),
    slots: &[char],
) -> Result<BTreeMap<char, Vec<(usize, usize)>>, DataError> {
    ensure(
        matrix.len() == shape.0 && matrix.iter().all(|r| r.len() == shape.1),
        file,
        entry,
        field,
        format!("expected {} rows of {} cells", shape.0, shape.1),
    )?;
    let mut marked: BTreeMap<char, Vec<(usize, usize)>> = BTreeMap::new();
    for (r, row) in matrix.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            slot_letters(file, entry, field, cell, slots)?;
            for ch in cell.chars() {
                marked.entry(ch).or_default().push((r, c));
            }
        }
    }
    Ok(marked)
}
