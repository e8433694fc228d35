//! The bot's configuration file: shards as `auto`, a total or a range of a total, and a
//! `database_url` choosing SQLite or PostgreSQL (moved here from the crate's unit tests).

use skymines::config::{Config, Sharding};
use std::path::PathBuf;

fn sharding(text: &str) -> Result<Sharding, String> {
    let config: Config = toml::from_str(text).map_err(|e| e.to_string())?;
    config.sharding().map_err(|e| e.to_string())
}

#[test]
fn shards_are_auto_a_total_or_a_range_of_a_total() {
    assert_eq!(sharding(""), Ok(Sharding::Auto));
    assert_eq!(sharding("shards = \"auto\""), Ok(Sharding::Auto));
    let all_four = Sharding::Range {
        first: 0,
        last: 3,
        total: 4,
    };
    assert_eq!(sharding("shards = 4"), Ok(all_four));
    assert_eq!(
        sharding("shards = 4\nshard_range = \"2-3\""),
        Ok(Sharding::Range {
            first: 2,
            last: 3,
            total: 4
        })
    );
    for (text, why) in [
        ("shards = 0", "shards must be"),
        ("shards = \"many\"", "shards must be"),
        ("shards = -2", "shards must be"),
        ("shard_range = \"0-1\"", "needs shards set to the total"),
        ("shards = 4\nshard_range = \"3\"", "not of the form"),
        ("shards = 4\nshard_range = \"a-b\"", "not of the form"),
        (
            "shards = 4\nshard_range = \"2-4\"",
            "does not fit shards = 4",
        ),
        ("shards = 4\nshard_range = \"3-2\"", "does not fit"),
    ] {
        let e = sharding(text).expect_err(text);
        assert!(e.contains(why), "{text}: {e}");
    }
}

/// A `database_url` path is the SQLite file; a PostgreSQL URL is accepted at start-up
/// (both backends hold the whole store) and kept, password and all, for opening it only.
#[test]
fn a_database_url_selects_the_store_and_postgres_starts() {
    if std::env::var_os("DATABASE_URL").is_some() {
        eprintln!("skipped: DATABASE_URL is set in this environment");
        return;
    }
    let dir = std::env::temp_dir().join(format!("skymines-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let file = dir.join("config.toml");
    std::fs::write(&file, "database_url = \"games/other.db\"\n").expect("written");
    let config = Config::load(&file).expect("an SQLite path loads");
    assert_eq!(config.database_path, PathBuf::from("games/other.db"));
    let url = "postgres://bot:hunter2@db.example/skymines";
    std::fs::write(&file, format!("database_url = \"{url}\"\n")).expect("written");
    let config = Config::load(&file).expect("PostgreSQL starts");
    assert_eq!(
        config.database(),
        skymines::store::Database::Postgres(url.to_string())
    );
    assert_eq!(
        config.database().describe(),
        "postgres://db.example/skymines"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
