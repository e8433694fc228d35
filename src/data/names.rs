//! The names of components as they reach text: each is a name reference
//! ([`crate::text::name_ref`]) to a catalog key built from the component's kind and data id
//! (`bonus_space.majority_titanium`, `threat.space_pirates` …), carrying the data's own English
//! for an id no catalog knows (a corrected data folder may add one). The data files keep their
//! English names; the catalogs translate.

use super::common::Resource;
use super::GameData;
use crate::text::name_ref;

impl Resource {
    /// "carbon" / "Kohlenstoff", in the reader's language.
    pub fn name(self) -> String {
        name_ref(&format!("resource.{}", self.id()), &[], self.id())
    }
}

/// A data id as English words: `majority_titanium` → "majority titanium".
fn words(id: &str) -> String {
    id.replace('_', " ")
}

impl GameData {
    /// A board bonus space (by index), e.g. "majority titanium".
    pub fn bonus_space_name(&self, index: usize) -> String {
        match self.board.bonus_spaces.get(index) {
            Some(space) => name_ref(&format!("bonus_space.{}", space.id), &[], &words(&space.id)),
            None => String::new(),
        }
    }

    /// A bonus tile by its data id (`field_scientist`, `plus_one_resource` …).
    pub fn tile_name(&self, id: &str) -> String {
        name_ref(&format!("tile.{id}"), &[], &words(id))
    }
}
