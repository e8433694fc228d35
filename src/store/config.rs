//! Where the database lives: the `database_path` key of `config.toml`. This module reads only
//! the keys the store owns and ignores the rest of the file (other layers read theirs).

use super::error::{Result, StoreError};
use std::path::{Path, PathBuf};

/// The database file when `config.toml` names none: `skymines.db` in the working directory.
pub const DEFAULT_DATABASE_PATH: &str = "skymines.db";

/// The database path from a configuration text: `database_path`, or the default when the key
/// is missing or empty. A relative path is relative to the working directory.
pub fn database_path_from_str(text: &str, source: &Path) -> Result<PathBuf> {
    let table: toml::Table = toml::from_str(text).map_err(|e| StoreError::Config {
        path: source.to_path_buf(),
        message: e.to_string(),
    })?;
    match table.get("database_path") {
        None => Ok(PathBuf::from(DEFAULT_DATABASE_PATH)),
        Some(toml::Value::String(s)) if s.trim().is_empty() => {
            Ok(PathBuf::from(DEFAULT_DATABASE_PATH))
        }
        Some(toml::Value::String(s)) => Ok(PathBuf::from(s)),
        Some(other) => Err(StoreError::Config {
            path: source.to_path_buf(),
            message: format!(
                "database_path must be a text (a file path), not a {}",
                other.type_str()
            ),
        }),
    }
}

/// The database path from a configuration file; a missing file means the default.
pub fn database_path(config_file: &Path) -> Result<PathBuf> {
    match std::fs::read_to_string(config_file) {
        Ok(text) => database_path_from_str(&text, config_file),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Ok(PathBuf::from(DEFAULT_DATABASE_PATH))
        }
        Err(e) => Err(StoreError::Config {
            path: config_file.to_path_buf(),
            message: e.to_string(),
        }),
    }
}
