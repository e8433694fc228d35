//! Broken copies of `assets/` must be rejected with an error that names the file (and, for an
//! invalid entry, the entry and the field), by the library and by `skymines data check --dir`.

use skymines::data::{DataError, GameData, FILES};
use std::path::{Path, PathBuf};
use std::process::Command;

fn assets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

/// A fresh copy of `assets/` in the temp folder, removed on drop.
struct Copy(PathBuf);

impl Copy {
    fn new(tag: &str) -> Copy {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!(
            "skymines-rejects-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        for entry in std::fs::read_dir(assets_dir()).expect("read assets") {
            let path = entry.expect("dir entry").path();
            if path.extension().is_some_and(|e| e == "toml") {
                let name = path.file_name().expect("file name");
                std::fs::copy(&path, dir.join(name)).expect("copy asset");
            }
        }
        Copy(dir)
    }

    /// Replaces the one occurrence of `from` in `file`.
    fn edit(&self, file: &str, from: &str, to: &str) -> &Copy {
        let path = self.0.join(file);
        let text = std::fs::read_to_string(&path).expect("read copy");
        assert_eq!(
            text.matches(from).count(),
            1,
            "`{from}` must occur exactly once in {file}"
        );
        std::fs::write(&path, text.replacen(from, to, 1)).expect("write copy");
        self
    }

    fn load(&self) -> Result<GameData, DataError> {
        GameData::from_dir(&self.0)
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Loads a copy with one edit; it must fail as an invalid entry of `file`/`entry`/`field`.
fn rejects_entry(file: &str, from: &str, to: &str, entry: &str, field: &str) -> String {
    let copy = Copy::new(&file.replace('.', "-"));
    copy.edit(file, from, to);
    let err = match copy.load() {
        Ok(_) => panic!("{file}: `{to}` was accepted"),
        Err(e) => e,
    };
    let text = err.to_string();
    match &err {
        DataError::Invalid {
            file: f,
            entry: e,
            field: fl,
            ..
        } => {
            assert_eq!(
                (f.as_str(), e.as_str(), fl.as_str()),
                (file, entry, field),
                "{text}"
            );
        }
        other => panic!("expected an invalid entry, got {other:?}"),
    }
    assert!(text.contains(file), "{text}");
    assert!(text.contains(entry), "{text}");
    assert!(text.contains(field), "{text}");
    text
}

/// Loads a copy with one edit; parsing must fail naming the file.
fn rejects_parse(file: &str, from: &str, to: &str) -> String {
    let copy = Copy::new(&file.replace('.', "-"));
    copy.edit(file, from, to);
    let err = match copy.load() {
        Ok(_) => panic!("{file}: `{to}` was accepted"),
        Err(e) => e,
    };
    assert!(matches!(err, DataError::Parse { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.starts_with(file), "{text}");
    text
}

#[test]
fn an_unchanged_copy_loads() {
    let copy = Copy::new("unchanged");
    let data = copy.load().expect("a copy of assets/ loads");
    assert_eq!(data.luna_cards.cards.len(), 19);
}

// ------------------------------------------------------------------ broken references

#[test]
fn track_bonus_unlocking_a_missing_bonus() {
    let text = rejects_entry(
        "tracks.toml",
        "unlocks = \"P-ENERGY-1\"",
        "unlocks = \"P-ENERGY-9\"",
        "A1",
        "bonus_thresholds",
    );
    assert!(text.contains("P-ENERGY-9"), "{text}");
}

#[test]
fn border_naming_sector_99() {
    let text = rejects_entry(
        "moon.toml",
        "a = \"minerva\"\nb = 21",
        "a = \"minerva\"\nb = 99",
        "border minerva-99",
        "b",
    );
    assert!(text.contains("99"), "{text}");
}

#[test]
fn chapter3_list_disagreeing_with_the_sector_tags() {
    rejects_entry(
        "moon.toml",
        "tawac = [2, 3, 4]",
        "tawac = [2, 3, 5]",
        "sector 4",
        "chapter3_start",
    );
}

#[test]
fn starting_token_with_an_unknown_icon() {
    let text = rejects_entry(
        "research.toml",
        "id = \"T01\"\nrest_icons = [\"carbon1\"",
        "id = \"T01\"\nrest_icons = [\"carbon7\"",
        "T01",
        "rest_icons",
    );
    assert!(text.contains("carbon7"), "{text}");
}

#[test]
fn luna_card_slot_letter_f_in_a_list() {
    let text = rejects_entry(
        "luna-cards.toml",
        "spaces_by_slot = { a = [1], b = [1], c = [1], d = [1], e = [1] }",
        "spaces_by_slot = { a = [1], b = [1], c = [1], d = [1], f = [1] }",
        "I-1",
        "action[0].spaces_by_slot",
    );
    assert!(text.contains("`f`"), "{text}");
}

#[test]
fn luna_card_slot_letter_f_in_a_matrix() {
    let text = rejects_entry(
        "luna-cards.toml",
        "id = \"I-1\"\ngrade = 1\nmajority = { left = 0, right = 3, scientists = 1 }\n\n[[card.action]]\nkind = \"gain_card\"\nselection = \"slot_matrix\"\nmatrix = [\n  [\"\", \"\", \"abcde\"]",
        "id = \"I-1\"\ngrade = 1\nmajority = { left = 0, right = 3, scientists = 1 }\n\n[[card.action]]\nkind = \"gain_card\"\nselection = \"slot_matrix\"\nmatrix = [\n  [\"\", \"\", \"abcdf\"]",
        "I-1",
        "action[0].matrix",
    );
    assert!(text.contains("`f`"), "{text}");
}

#[test]
fn luna_card_list_disagreeing_with_its_matrix() {
    rejects_entry(
        "luna-cards.toml",
        "spaces_by_slot = { a = [1], b = [1], c = [1], d = [1], e = [1] }",
        "spaces_by_slot = { a = [1], b = [1], c = [1], d = [1], e = [2] }",
        "I-1",
        "action[0].spaces_by_slot",
    );
}

#[test]
fn luna_action_of_an_unknown_kind() {
    let text = rejects_parse(
        "luna-cards.toml",
        "kind = \"gain_coins\"\nn = 3\n\n[[card.action]]\nkind = \"advance_company\"\nn = 3\ncompany = \"least_valuable\"",
        "kind = \"gain_coinz\"\nn = 3\n\n[[card.action]]\nkind = \"advance_company\"\nn = 3\ncompany = \"least_valuable\"",
    );
    assert!(text.contains("gain_coinz"), "{text}");
}

#[test]
fn luna_token_beyond_the_tank_track() {
    rejects_entry(
        "luna-board.toml",
        "helium_tokens = [11, 19]",
        "helium_tokens = [11, 29]",
        "level 3",
        "helium_tokens",
    );
}

#[test]
fn luna_level_missing() {
    rejects_entry(
        "luna-board.toml",
        "level = 8\n",
        "level = 9\n",
        "level",
        "level",
    );
}

#[test]
fn belt_flight_path_to_a_missing_asteroid() {
    let text = rejects_entry(
        "belt.toml",
        "ends = [1, 3]",
        "ends = [1, 99]",
        "flight_path 2",
        "ends",
    );
    assert!(text.contains("99"), "{text}");
}

#[test]
fn belt_station_path_to_a_missing_asteroid() {
    rejects_entry(
        "belt.toml",
        "station = \"tawac\"\nasteroid = 28",
        "station = \"tawac\"\nasteroid = 30",
        "station_path tawac-30",
        "asteroid",
    );
}

#[test]
fn belt_threat_card_away_from_11_and_16() {
    rejects_entry(
        "belt.toml",
        "between_shuttle_spaces = [11, 16]",
        "between_shuttle_spaces = [11, 17]",
        "threat_space",
        "between_shuttle_spaces",
    );
}

#[test]
fn belt_linked_gas_collector_moved_off_asteroid_1() {
    rejects_entry(
        "belt.toml",
        "reward = [{ kind = \"deep_mine\", n = 1 }]\nlinked_gas_spaces = [2, 3]",
        "reward = [{ kind = \"deep_mine\", n = 1 }]",
        "asteroid 1",
        "linked_gas_spaces",
    );
}

#[test]
fn belt_station_with_a_sixth_shuttle() {
    rejects_entry(
        "belt.toml",
        "home_spaces = { o1 = 6, sh = 5, o2 = 6 }",
        "home_spaces = { o1 = 6, sh = 6, o2 = 6 }",
        "station_layout",
        "home_spaces",
    );
}

#[test]
fn mission_card_with_a_state_metric_checked_per_action() {
    rejects_entry(
        "missions.toml",
        "check = \"turn_state\"\ncondition = { metric = \"reserve_coins\", min = 15 }",
        "check = \"single_action\"\nactions = [\"any\"]\ncondition = { metric = \"reserve_coins\", min = 15 }",
        "card 5 task 3",
        "check",
    );
}

#[test]
fn mission_personal_bonus_space_changed() {
    rejects_entry(
        "missions.toml",
        "requirement = [{ kind = \"pay_coins\", n = 1 }]",
        "requirement = [{ kind = \"pay_coins\", n = 2 }]",
        "personal_bonus_space",
        "requirement",
    );
}

#[test]
fn mission_metric_of_an_unknown_kind() {
    let text = rejects_parse(
        "missions.toml",
        "metric = \"reserve_coins\"",
        "metric = \"reserve_coinz\"",
    );
    assert!(text.contains("reserve_coinz"), "{text}");
}

#[test]
fn threat_value_not_printed_on_the_track() {
    rejects_entry(
        "threats.toml",
        "requirement = [{ kind = \"tank_value_passed\", value = 40 }]",
        "requirement = [{ kind = \"tank_value_passed\", value = 41 }]",
        "probe_unknown_signature",
        "requirement",
    );
}

#[test]
fn threat_consequence_twice() {
    rejects_entry(
        "threats.toml",
        "consequence = { kind = \"no_tank_score\"",
        "consequence = { kind = \"lose_cash\"",
        "threat",
        "consequence",
    );
}

#[test]
fn campaign_preplaced_outposts_on_the_belt() {
    rejects_entry(
        "campaign.toml",
        "board = \"moon\"\ntracks = \"random\"\ntokens = \"draft\"\nmodules = [\"missions\"]\npreplaced_outposts",
        "board = \"belt\"\ntracks = \"random\"\ntokens = \"draft\"\nmodules = [\"missions\"]\npreplaced_outposts",
        "chapter 3",
        "preplaced_outposts",
    );
}

#[test]
fn campaign_threat_sp_without_the_threat_module() {
    rejects_entry(
        "campaign.toml",
        "modules = [\"missions\", \"threats\"]",
        "modules = [\"missions\"]",
        "chapter 4",
        "extra_sp",
    );
}

#[test]
fn campaign_luna_level_disagreeing_with_luna_board() {
    rejects_entry(
        "campaign.toml",
        "start_level_solo = 5",
        "start_level_solo = 6",
        "luna",
        "start_level",
    );
}

#[test]
fn campaign_chapter_of_an_unknown_kind_of_extra_sp() {
    let text = rejects_parse(
        "campaign.toml",
        "kind = \"removed_threat_card\"",
        "kind = \"removed_the_threat\"",
    );
    assert!(text.contains("removed_the_threat"), "{text}");
}

// ------------------------------------------------------------------ truncated and missing files

#[test]
fn every_truncated_file_is_rejected() {
    for file in FILES {
        let copy = Copy::new("truncated");
        let path = copy.0.join(file);
        let text = std::fs::read_to_string(&path).expect("read copy");
        // Cut in the middle of a line: the rest of the file (and its tables) is lost.
        let mut cut = text.len() / 2;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        std::fs::write(&path, &text[..cut]).expect("truncate");
        let err = match copy.load() {
            Ok(_) => panic!("{file}: the truncated file was accepted"),
            Err(e) => e,
        };
        assert!(err.to_string().contains(file), "{file}: {err}");
    }
}

#[test]
fn every_missing_file_is_rejected() {
    for file in FILES {
        let copy = Copy::new("missing");
        std::fs::remove_file(copy.0.join(file)).expect("remove");
        let err = match copy.load() {
            Ok(_) => panic!("{file}: loading without it succeeded"),
            Err(e) => e,
        };
        assert!(matches!(err, DataError::Read { .. }), "{err:?}");
        assert!(err.to_string().contains(file), "{file}: {err}");
    }
}

#[test]
fn an_empty_file_is_rejected() {
    let copy = Copy::new("empty");
    std::fs::write(copy.0.join("campaign.toml"), "").expect("empty");
    let err = match copy.load() {
        Ok(_) => panic!("an empty campaign.toml was accepted"),
        Err(e) => e,
    };
    assert!(err.to_string().starts_with("campaign.toml"), "{err}");
}

// ------------------------------------------------------------------ the binary

#[test]
fn data_check_binary_rejects_a_broken_dir() {
    let copy = Copy::new("binary");
    copy.edit(
        "threats.toml",
        "id = \"singularity\"",
        "id = \"singularity\"\n[broken",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_skymines"))
        .args(["data", "check", "--dir"])
        .arg(&copy.0)
        .output()
        .expect("run skymines");
    assert!(!out.status.success(), "exit status {:?}", out.status);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("threats.toml"), "stderr: {stderr}");
}

#[test]
fn data_check_binary_rejects_a_missing_file() {
    let copy = Copy::new("binary-missing");
    std::fs::remove_file(copy.0.join("luna-board.toml")).expect("remove");
    let out = Command::new(env!("CARGO_BIN_EXE_skymines"))
        .args(["data", "check", "--dir"])
        .arg(&copy.0)
        .output()
        .expect("run skymines");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("luna-board.toml"));
}

#[test]
fn data_check_binary_prints_the_counts() {
    let out = Command::new(env!("CARGO_BIN_EXE_skymines"))
        .args(["data", "check", "--json"])
        .output()
        .expect("run skymines");
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("data check --json prints JSON");
    let n = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k} missing: {v}"));
    assert_eq!(n("action_cards"), 44);
    assert_eq!(n("starting_cards"), 36);
    assert_eq!(n("single_energy_cards"), 4);
    for letter in ["A", "B", "C"] {
        assert_eq!(v["research_plans"][letter].as_u64(), Some(24), "{letter}");
    }
    assert_eq!(n("special_research_plans"), 6);
    assert_eq!(n("starting_research_tokens"), 10);
    assert_eq!(n("company_tracks"), 10);
    assert_eq!(n("moon_sectors"), 24);
    assert_eq!(n("luna_cards"), 19);
    assert_eq!(n("mission_cards"), 6);
    assert_eq!(n("threat_cards"), 6);
    assert_eq!(n("campaign_chapters"), 4);
    assert_eq!(n("belt_asteroids"), 12);
    // The keys that were there before stay.
    for k in [
        "track_bonuses",
        "bonus_spaces",
        "stated_values",
        "inferred_values",
        "reconstructed_values",
        "data_hash",
    ] {
        assert!(v.get(k).is_some(), "{k} missing: {v}");
    }
}
