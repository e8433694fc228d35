//! Checks of `luna-cards.toml` (Luna's deck, the Luna booklet): the slot geometry and its agreement
//! with `board.toml`, the card and grade counts, unique ids and each card's slot letters and
//! picks.

use super::helpers::{ensure, slot_keys, slot_letters, slot_matrix, unique, Check};
use crate::data::luna::{CardPick, LunaAction};
use crate::data::GameData;

pub(super) fn check(d: &GameData) -> Check {
    const F: &str = "luna-cards.toml";
    let l = &d.luna_cards;
    let g = &l.geometry;
    let slots: Vec<char> = g.slot_order.clone();
    ensure(
        slots == ['a', 'b', 'c', 'd', 'e'],
        F,
        "geometry",
        "slot_order",
        "Luna's five action slots are lettered a-e from left to right",
    )?;
    for s in &g.slots_initially_on {
        ensure(
            slots.contains(s),
            F,
            "geometry",
            "slots_initially_on",
            format!("`{s}` is not a slot"),
        )?;
    }
    ensure(
        g.card_display_space == d.board.card_display.space_grid,
        F,
        "geometry",
        "card_display_space",
        "differs from board.toml [card_display] space_grid",
    )?;
    ensure(
        g.bonus_cell_exists == d.board.bonus_area.luna_cells,
        F,
        "geometry",
        "bonus_cell_exists",
        "differs from board.toml [bonus_area] luna_cells",
    )?;
    ensure(
        g.research_row_length == d.board.research_display.positions_per_row as usize,
        F,
        "geometry",
        "research_row_length",
        "differs from board.toml [research_display] positions_per_row",
    )?;
    let grade = |n: u8| l.cards.iter().filter(|c| c.grade == n).count();
    ensure(
        l.card_count == 19 && l.cards.len() == l.card_count,
        F,
        "card",
        "card_count",
        format!(
            "{} cards listed, card_count says {}; expected 19",
            l.cards.len(),
            l.card_count
        ),
    )?;
    ensure(
        l.grade1_count == 12 && l.grade2_count == 7 && grade(1) == 12 && grade(2) == 7,
        F,
        "card",
        "grade",
        format!(
            "expected 12 grade-1 and 7 grade-2 cards, found {} and {}",
            grade(1),
            grade(2)
        ),
    )?;
    unique(F, "id", l.cards.iter().map(|c| c.id.as_str()))?;
    let display_shape = (
        g.card_display_space.len(),
        g.card_display_space.first().map_or(0, Vec::len),
    );
    let bonus_shape = (
        g.bonus_cell_exists.len(),
        g.bonus_cell_exists.first().map_or(0, Vec::len),
    );
    for c in &l.cards {
        let e = c.id.as_str();
        ensure(
            c.grade == 1 || c.grade == 2,
            F,
            e,
            "grade",
            "grade is 1 or 2",
        )?;
        ensure(
            !c.actions.is_empty(),
            F,
            e,
            "action",
            "a Luna card has an action section",
        )?;
        if let Some(r) = c.reveal {
            let n = match r {
                crate::data::luna::LunaReveal::GainHelium { n }
                | crate::data::luna::LunaReveal::AdvanceResearch { n } => n,
            };
            ensure(n > 0, F, e, "reveal", "a reveal icon moves at least 1 step")?;
        }
        for (i, a) in c.actions.iter().enumerate() {
            let field = |f: &str| format!("action[{i}].{f}");
            match a {
                LunaAction::GainCoins { n }
                | LunaAction::GainHelium { n }
                | LunaAction::AdvanceResearch { n }
                | LunaAction::AdvanceCompany { n, .. } => {
                    ensure(*n > 0, F, e, &field("n"), "must be at least 1")?;
                }
                LunaAction::ExpandCompany {
                    points, company, ..
                } => {
                    ensure(*points > 0, F, e, &field("points"), "must be at least 1")?;
                    let before = i.checked_sub(1).and_then(|j| c.actions.get(j));
                    ensure(
                        matches!(before, Some(LunaAction::AdvanceCompany { company: p, .. }) if p == company),
                        F,
                        e,
                        &field("company"),
                        "expand_company repeats the company of the advance_company just before it",
                    )?;
                }
                LunaAction::GainCard(CardPick::SlotMatrix {
                    matrix,
                    spaces_by_slot,
                }) => {
                    let marked =
                        slot_matrix(F, e, &field("matrix"), matrix, display_shape, &slots)?;
                    slot_keys(F, e, &field("spaces_by_slot"), spaces_by_slot, &slots)?;
                    for s in &slots {
                        let mut want: Vec<u32> = marked
                            .get(s)
                            .into_iter()
                            .flatten()
                            .filter_map(|&(r, c)| {
                                g.card_display_space
                                    .get(r)
                                    .and_then(|row| row.get(c))
                                    .copied()
                            })
                            .collect();
                        want.sort_unstable();
                        let mut have = spaces_by_slot.get(s).cloned().unwrap_or_default();
                        have.sort_unstable();
                        ensure(
                            want == have,
                            F,
                            e,
                            &field("spaces_by_slot"),
                            format!("slot {s}: the matrix marks spaces {want:?}, the list says {have:?}"),
                        )?;
                    }
                }
                LunaAction::GainCard(CardPick::MostValuableShare) => {}
                LunaAction::PlaceBonusMarker {
                    matrix,
                    cell_by_slot,
                } => {
                    let marked = slot_matrix(F, e, &field("matrix"), matrix, bonus_shape, &slots)?;
                    slot_keys(F, e, &field("cell_by_slot"), cell_by_slot, &slots)?;
                    for (s, cells) in &marked {
                        for &(r, col) in cells {
                            ensure(
                                g.bonus_cell_exists
                                    .get(r)
                                    .and_then(|row| row.get(col))
                                    .copied()
                                    .unwrap_or(false),
                                F,
                                e,
                                &field("matrix"),
                                format!(
                                    "slot {s} marks cell [{r}, {col}], which is not a bonus space"
                                ),
                            )?;
                        }
                    }
                    for s in &slots {
                        let cells = marked.get(s).cloned().unwrap_or_default();
                        let cell = cell_by_slot.get(s).map(|c| (c[0], c[1]));
                        ensure(
                            cells.len() == 1 && cell == cells.first().copied(),
                            F,
                            e,
                            &field("cell_by_slot"),
                            format!("slot {s}: the matrix marks {cells:?}, cell_by_slot says {cell:?}; each slot marks exactly one cell"),
                        )?;
                    }
                }
                LunaAction::DiscardResearchPlan(pick) => {
                    if let Some((_, rp)) = pick.row() {
                        ensure(
                            rp.row.len() == g.research_row_length,
                            F,
                            e,
                            &field("row"),
                            format!("a research row has {} spaces", g.research_row_length),
                        )?;
                        for cell in &rp.row {
                            slot_letters(F, e, &field("row"), cell, &slots)?;
                        }
                        slot_keys(
                            F,
                            e,
                            &field("position_by_slot"),
                            &rp.position_by_slot,
                            &slots,
                        )?;
                        for s in &slots {
                            let positions: Vec<usize> = rp
                                .row
                                .iter()
                                .enumerate()
                                .filter(|(_, cell)| cell.contains(*s))
                                .map(|(p, _)| p)
                                .collect();
                            let have = rp.position_by_slot.get(s).copied();
                            ensure(
                                positions.len() == 1 && have == positions.first().copied(),
                                F,
                                e,
                                &field("position_by_slot"),
                                format!("slot {s}: the row marks positions {positions:?}, position_by_slot says {have:?}"),
                            )?;
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
