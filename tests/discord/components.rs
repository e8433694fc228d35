//! The Discord adapter below its public face: the command set within Discord's limits, the
//! buttons and select menus a reply's choices become, a long reply cut and attached, and the
//! example configuration (moved here from the crate's unit tests, so the library is compiled
//! once for the tests, not twice).

use skymines::chat::{Audience, Choice, Image, Pinged, Reply};
use skymines::config::Config;
use skymines::discord::testing::{
    button_rows, command_set, components, usable, Outgoing, CONTENT_LIMIT, MENU_ID,
};
use skymines::discord::BotSettings;

/// Discord's limits on a command set: names, descriptions, option counts.
#[test]
fn the_command_set_fits_discords_limits() {
    let json = command_set();
    let list = json.as_array().expect("array");
    assert_eq!(list.len(), 13);
    fn check(v: &serde_json::Value) {
        let name = v["name"].as_str().expect("name");
        assert!(!name.is_empty() && name.len() <= 32, "{name}");
        let desc = v["description"].as_str().unwrap_or("");
        assert!(desc.chars().count() <= 100, "{name}: {desc}");
        if let Some(opts) = v["options"].as_array() {
            assert!(opts.len() <= 25);
            for o in opts {
                assert!(!o["description"].as_str().unwrap_or("").is_empty());
                check(o);
            }
        }
    }
    for c in list {
        check(c);
    }
}

fn choice(i: usize) -> Choice {
    Choice::new(
        format!("d:1:2:{i}"),
        format!("choice {i} {}", "x".repeat(100)),
    )
}

#[test]
fn choices_become_at_most_25_buttons_in_rows_of_5() {
    let choices: Vec<Choice> = (0..30).map(choice).collect();
    let rows = button_rows(&usable(&choices));
    assert_eq!(rows.len(), 5);
    let json = serde_json::to_value(&rows).expect("json");
    for row in json.as_array().expect("rows") {
        let comps = row["components"].as_array().expect("components");
        assert_eq!(comps.len(), 5);
        for b in comps {
            assert!(b["label"].as_str().expect("label").chars().count() <= 80);
        }
    }
}

fn menu_choice(i: usize, placeholder: &str, max_values: u8) -> Choice {
    let mut c = choice(i);
    c.number = Some(i + 1);
    c.menu = Some(skymines::chat::Menu {
        placeholder: placeholder.to_string(),
        max_values,
    });
    c
}

#[test]
fn the_hand_is_one_multi_select_with_done_and_clear_as_buttons() {
    let mut choices = vec![choice(100), choice(101)];
    choices.extend((0..7).map(|i| menu_choice(i, "Pick up to 3 cards", 3)));
    let json = serde_json::to_value(components(&choices)).expect("json");
    let rows = json.as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    let menu = &rows[0]["components"][0];
    assert_eq!(menu["type"], 3);
    assert_eq!(menu["max_values"], 3);
    assert_eq!(menu["options"].as_array().map(Vec::len), Some(7));
    assert_eq!(menu["placeholder"], "Pick up to 3 cards");
    assert_eq!(rows[1]["components"].as_array().map(Vec::len), Some(2));
}

#[test]
fn five_slot_menus_take_the_buttons_as_entries_of_the_last_one() {
    let mut choices = vec![choice(100)];
    for slot in 1..=5 {
        choices.extend((0..4).map(|i| menu_choice(slot * 10 + i, &format!("Slot {slot}"), 1)));
    }
    let json = serde_json::to_value(components(&choices)).expect("json");
    let rows = json.as_array().expect("rows");
    assert_eq!(rows.len(), 5, "five menus, no sixth row");
    let last = rows[4]["components"][0]["options"]
        .as_array()
        .expect("options");
    assert_eq!(last.len(), 5, "the slot's four cards and Done");
    assert_eq!(last[4]["value"], "d:1:2:100");
}

#[test]
fn many_choices_become_select_menus_with_distinct_labels_and_descriptions_in_limits() {
    let mut choices: Vec<Choice> = (0..30)
        .map(|i| {
            let mut c = choice(i);
            c.number = Some(i + 1);
            c.description = format!("what {i} does {}", "y".repeat(150));
            c
        })
        .collect();
    choices.push(Choice::new("p:1:2:1", "More (2/2)"));
    let rows = components(&choices);
    let json = serde_json::to_value(&rows).expect("json");
    let rows = json.as_array().expect("rows");
    assert_eq!(rows.len(), 3, "two menus and the paging button: {json}");
    let mut labels = std::collections::BTreeSet::new();
    let mut values = 0;
    for row in &rows[..2] {
        let menu = &row["components"][0];
        assert_eq!(menu["type"], 3);
        assert!(menu["custom_id"].as_str().expect("id").starts_with(MENU_ID));
        let options = menu["options"].as_array().expect("options");
        assert!(options.len() <= 25);
        for o in options {
            let label = o["label"].as_str().expect("label");
            assert!(label.chars().count() <= 100, "{label}");
            assert!(o["description"].as_str().expect("desc").chars().count() <= 100);
            assert!(o["value"].as_str().expect("value").starts_with("d:"));
            assert!(labels.insert(label.to_string()), "two options read {label}");
            values += 1;
        }
    }
    assert_eq!(values, 30);
    assert_eq!(rows[2]["components"][0]["type"], 2);
    // Five or fewer: buttons.
    let rows = components(&choices[..5]);
    let json = serde_json::to_value(&rows).expect("json");
    assert_eq!(json[0]["components"][0]["type"], 2);
}

#[test]
fn long_text_is_cut_and_attached_and_mentions_are_restricted() {
    let mut reply = Reply::new(Audience::Ping(Pinged::one(42)), "line\n".repeat(600));
    reply.image = Some(Image {
        file_name: "board.png".into(),
        png: vec![1, 2, 3],
        alt: "a board".into(),
    });
    let out = Outgoing::from_reply(&reply, &[42]);
    assert!(out.content.starts_with("<@42> "));
    assert!(out.content.chars().count() <= CONTENT_LIMIT);
    assert_eq!(out.files.len(), 2);
    let mentions = serde_json::to_value(out.allowed_mentions()).expect("json");
    assert_eq!(mentions["parse"], serde_json::json!([]));
    assert_eq!(mentions["users"], serde_json::json!(["42"]));
}

/// `config.example.toml` documents every setting and parses as it stands.
#[test]
fn the_example_config_parses_and_hides_the_token() {
    let text = include_str!("../../config.example.toml");
    let config: Config = toml::from_str(text).expect("config.example.toml parses");
    for key in [
        "discord_token",
        "database_path",
        "data_dir",
        "dev_guild_id",
        "owners",
        "reminder_hours",
        "deadline_hours",
        "kick_after_hours",
        "rate_limit_commands",
        "rate_limit_seconds",
        "shards",
        "shard_range",
        "log_level",
    ] {
        assert!(text.contains(key), "{key} is documented");
    }
    let with_token: Config = toml::from_str("discord_token = \"abc.def\"").expect("parses");
    let settings = BotSettings::from_config(&with_token);
    assert!(!format!("{settings:?}").contains("abc.def"));
    assert!(!format!("{config:?}").contains("abc.def"));
}
