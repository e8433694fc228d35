//! The SQLite WAL stays under its bound under sustained writes. The store's checkpointer runs
//! PASSIVE checkpoints, which never block a move; but while writes keep coming such a
//! checkpoint never reaches the end of the log, the log never starts again from its beginning,
//! and the file grows for as long as the writes go on (1.7 GB in 40 s in the chat benchmark).
//! Past half of `StoreOptions::wal_limit` the checkpointer truncates it.
//!
//! The same writer runs twice for a fixed time: without a bound (`wal_limit: 0`, the old
//! behaviour) the WAL grows past the limit, which shows the test can fail; with the bound it
//! stays under it. A second test holds a reader on the WAL (as another process would) and
//! checks that the truncation comes back soon after the reader lets go.

use crate::support::{shared_data as data, TempDir};
use skymines::store::torture::torture_game;
use skymines::store::{Store, StoreOptions};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const LIMIT: u64 = 16 << 20;
const WRITING: Duration = Duration::from_secs(4);
const IMAGE: u32 = 16 * 1024;

/// A store with a bound on its WAL, one game in it, and a writer of 16 KB board images.
struct ImageWriter {
    _dir: TempDir,
    store: Store,
    game: skymines::store::GameId,
    db: PathBuf,
    wal: PathBuf,
    version: u64,
}

impl ImageWriter {
    fn open(tag: &str, wal_limit: u64) -> ImageWriter {
        let dir = TempDir::new(tag);
        let db = dir.db();
        let options = StoreOptions {
            wal_limit,
            ..StoreOptions::default()
        };
        let (store, _) = Store::open(&db, data(), options).expect("the store opens");
        let game = torture_game(&store, 7).expect("a game");
        let mut wal = db.clone().into_os_string();
        wal.push("-wal");
        ImageWriter {
            _dir: dir,
            store,
            game,
            db,
            wal: PathBuf::from(wal),
            version: 0,
        }
    }

    /// Stores one image, different each time (as a new board would be), over 16 state
    /// versions; returns its size.
    fn write_one(&mut self) -> u64 {
        let version = self.version;
        let png: Vec<u8> = (0..IMAGE)
            .map(|i| (i as u64 ^ version.wrapping_mul(0x9e37)) as u8)
            .collect();
        self.store
            .images()
            .store_board_png(self.game, version % 16, &png)
            .expect("an image is stored");
        self.version += 1;
        png.len() as u64
    }

    fn wal_size(&self) -> u64 {
        std::fs::metadata(&self.wal).map_or(0, |m| m.len())
    }
}

/// Writes images one after the other for [`WRITING`] into a store with `wal_limit`, watching
/// the WAL file; returns its largest size and the bytes written.
fn sustained_writes(tag: &str, wal_limit: u64) -> (u64, u64) {
    let mut writer = ImageWriter::open(tag, wal_limit);
    let stop = Arc::new(AtomicBool::new(false));
    let largest = Arc::new(AtomicU64::new(0));
    let watcher = {
        let (stop, largest, wal) = (stop.clone(), largest.clone(), writer.wal.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let size = std::fs::metadata(&wal).map_or(0, |m| m.len());
                largest.fetch_max(size, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(2));
            }
        })
    };
    let started = Instant::now();
    let mut written = 0u64;
    while started.elapsed() < WRITING {
        written += writer.write_one();
    }
    stop.store(true, Ordering::Relaxed);
    watcher.join().expect("the watcher");
    let largest = largest.load(Ordering::Relaxed);
    eprintln!(
        "{tag}: wal_limit {wal_limit}, {written} bytes written in {:.1} s, largest WAL {largest} bytes",
        started.elapsed().as_secs_f64()
    );
    (largest, written)
}

#[test]
fn the_wal_stays_under_its_bound_under_sustained_writes() {
    let (unbounded, written) = sustained_writes("wal-unbounded", 0);
    assert!(
        written > 2 * LIMIT,
        "the writer wrote {written} bytes: too few to test a bound of {LIMIT}"
    );
    assert!(
        unbounded > LIMIT,
        "without a bound the WAL should grow past {LIMIT} bytes under these writes (largest {unbounded})"
    );
    let (bounded, written) = sustained_writes("wal-bounded", LIMIT);
    assert!(written > 2 * LIMIT, "{written} bytes written");
    assert!(
        bounded <= LIMIT,
        "the WAL reached {bounded} bytes, past its bound of {LIMIT}"
    );
}

/// A reader in another process holds the WAL, so the truncations fail; once it lets go, the
/// next truncation comes within a few commits or a quarter of the bound of further writes, not
/// after a pause measured in time (a fast disk writes hundreds of megabytes in the old
/// one-second pause). The commits matter when the checkpointer has meanwhile let the log start
/// again from the file's beginning: the file then does not grow, and only a truncation shrinks it.
#[test]
fn the_wal_is_truncated_soon_after_a_reader_lets_go() {
    let mut writer = ImageWriter::open("wal-reader", LIMIT);
    let write = |writer: &mut ImageWriter, bytes: u64| {
        let mut written = 0;
        while written < bytes {
            written += writer.write_one();
        }
    };
    let reader = rusqlite::Connection::open(&writer.db).expect("a second connection");
    reader.execute_batch("BEGIN").expect("a read transaction");
    let _: i64 = reader
        .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
        .expect("the reader reads");
    write(&mut writer, LIMIT);
    let held = writer.wal_size();
    assert!(
        held > LIMIT / 2,
        "while the reader holds it the WAL cannot be truncated (it is {held} bytes)"
    );
    reader.execute_batch("COMMIT").expect("the reader lets go");
    drop(reader);
    write(&mut writer, LIMIT / 2);
    let after = writer.wal_size();
    assert!(
        after < held && after <= LIMIT * 3 / 4,
        "the WAL was {held} bytes when the reader let go and {after} bytes after {} more bytes",
        LIMIT / 2
    );
}
