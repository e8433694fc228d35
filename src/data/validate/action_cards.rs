//! Checks of `action-cards.toml`: the card count and letter counts, unique ids, each card's
//! letter in the deck's stacking order, and the fields each card type needs (shares, costs).

use super::helpers::{ensure, unique, Check};
use crate::data::cards::{CardType, ShareField};
use crate::data::GameData;
use std::collections::BTreeSet;

pub(super) fn check(d: &GameData) -> Check {
    const F: &str = "action-cards.toml";
    let f = &d.action_cards;
    ensure(
        f.cards.len() == f.count,
        F,
        "card",
        "count",
        format!("{} cards listed but count says {}", f.cards.len(), f.count),
    )?;
    unique(F, "id", f.cards.iter().map(|c| c.id.as_str()))?;
    for (letter, want) in &f.letter_counts {
        let have = f.cards.iter().filter(|c| c.letter == *letter).count();
        ensure(
            have == *want,
            F,
            &format!("letter {letter}"),
            "letter_counts",
            format!("{have} cards with letter {letter}, expected {want}"),
        )?;
    }
    for c in &f.cards {
        ensure(
            f.letter_counts.contains_key(&c.letter),
            F,
            &c.id,
            "letter",
            format!("unknown letter {}", c.letter),
        )?;
        ensure(
            f.deck.stack_bottom_to_top.contains(&c.letter),
            F,
            &c.id,
            "letter",
            "letter missing from [deck] stack order",
        )?;
        match c.card_type {
            CardType::SingleShare => {
                ensure(
                    c.share.company().is_some(),
                    F,
                    &c.id,
                    "share",
                    "a single share card must name its company",
                )?;
            }
            CardType::FieldScientist => {
                ensure(
                    c.effect.is_some(),
                    F,
                    &c.id,
                    "effect",
                    "a field scientist needs its effect",
                )?;
                ensure(
                    c.field_company.is_some(),
                    F,
                    &c.id,
                    "field_company",
                    "a field scientist names its company or \"plain\"",
                )?;
            }
            _ => ensure(
                c.value > 0,
                F,
                &c.id,
                "value",
                "resource, energy and research cards have a value",
            )?,
        }
    }
    let field: Vec<_> = f
        .cards
        .iter()
        .filter(|c| c.card_type == CardType::FieldScientist)
        .collect();
    ensure(
        field.len() == 5,
        F,
        "field scientists",
        "type",
        format!("{} field scientists, expected 5", field.len()),
    )?;
    let companies: BTreeSet<_> = field
        .iter()
        .filter_map(|c| c.field_company.and_then(ShareField::company))
        .collect();
    ensure(
        companies.len() == 4,
        F,
        "field scientists",
        "field_company",
        "expected one plain and one per company",
    )?;
    Ok(())
}
