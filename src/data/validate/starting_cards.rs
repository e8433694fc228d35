//! Checks of `starting-cards.toml`: four colours with one instance of each starting card, no
//! field scientists or single shares among them, and the four single-energy cards for seats 1-4.

use super::helpers::{ensure, unique, Check};
use crate::data::cards::CardType;
use crate::data::GameData;

pub(super) fn check(d: &GameData) -> Check {
    const F: &str = "starting-cards.toml";
    let f = &d.starting_cards;
    ensure(
        f.colours.len() == 4,
        F,
        "colour",
        "count",
        "expected 4 colours",
    )?;
    ensure(
        f.starting_cards.len() == f.cards_per_colour,
        F,
        "starting_card",
        "count",
        format!(
            "{} designs listed, cards_per_colour says {}",
            f.starting_cards.len(),
            f.cards_per_colour
        ),
    )?;
    unique(F, "icon", f.starting_cards.iter().map(|c| c.icon.as_str()))?;
    for c in &f.starting_cards {
        ensure(
            c.card_type != CardType::FieldScientist && c.card_type != CardType::SingleShare,
            F,
            &c.icon,
            "type",
            "starting cards hold no field scientists or single shares",
        )?;
        let want: Vec<String> = f
            .colours
            .iter()
            .map(|col| format!("{}-{}", col.id, c.icon))
            .collect();
        ensure(
            c.instance_ids == want,
            F,
            &c.icon,
            "instance_ids",
            format!("expected {want:?}"),
        )?;
    }
    ensure(
        f.single_energy.len() == f.single_energy_cards && f.single_energy.len() == 4,
        F,
        "single_energy_card",
        "count",
        "expected 4 single-energy cards",
    )?;
    for (i, e) in f.single_energy.iter().enumerate() {
        ensure(
            e.seat == i + 1 && e.card_type == CardType::Energy,
            F,
            &e.id,
            "seat",
            "single-energy cards are energy cards for seats 1-4 in order",
        )?;
    }
    Ok(())
}
