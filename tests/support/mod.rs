//! What every test binary shares (each loads this folder with `#[path = "../support/mod.rs"]`):
//! the built-in component data, loaded once; a temporary folder removed on drop; PostgreSQL test
//! databases (`pg`); the store's seeded games (`store`); the chat layer's table and reply
//! filters (`chat`); the text catalogs' helpers (`text`); what a preview must carry (`preview`).
//! A binary uses what it needs of it.
#![allow(dead_code)]

pub mod chat;
pub mod pg;
pub mod preview;
pub mod store;
pub mod text;

use skymines::data::GameData;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

fn loaded() -> &'static Arc<GameData> {
    static DATA: OnceLock<Arc<GameData>> = OnceLock::new();
    DATA.get_or_init(|| Arc::new(GameData::embedded().expect("the built-in data loads")))
}

/// The built-in component data, loaded once per test binary.
pub fn data() -> &'static GameData {
    loaded()
}

/// [`data`] for what takes the data shared (a store, a chat layer).
pub fn shared_data() -> Arc<GameData> {
    loaded().clone()
}

/// Whether the golden files are to be rewritten: `UPDATE_GOLDEN=1`, nothing else (a stray
/// `UPDATE_GOLDEN=0` or an empty value must not rewrite what the tests compare with).
pub fn update_golden() -> bool {
    wants_update(std::env::var("UPDATE_GOLDEN").ok().as_deref())
}

/// [`update_golden`] for the variable's value.
pub fn wants_update(value: Option<&str>) -> bool {
    value == Some("1")
}

/// A fresh folder, removed with everything in it when dropped. On a RAM disk (/dev/shm) when
/// there is one: the tests kill processes and inject failures, they do not cut the power, so
/// flushes to a real disk would only make them slow (the benchmarks measure on the real disk).
/// Its name holds the process id, a counter and `tag`: tests running at once in one binary, or
/// in binaries running at once, never share one.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let shm = Path::new("/dev/shm");
        let base = if shm.is_dir() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let dir = base.join(format!(
            "skymines-test-{}-{}-{tag}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The database file the tests put in it (`games.db`).
    pub fn db(&self) -> PathBuf {
        self.0.join("games.db")
    }

    /// A path inside the folder.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
