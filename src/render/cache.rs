//! The renderer's cache of encoded PNGs: a least-recently-used list bounded by the bytes it
//! holds, so a busy bot redraws an unchanged board at most once per budget's worth of images.

use std::collections::VecDeque;
use std::sync::Arc;

/// An image's cache key: the hash of what it draws.
pub type Key = [u8; 32];

/// A least-recently-used cache of encoded PNGs, bounded by their total size (a board is about
/// 400 KiB, a player board about 150 KiB).
pub struct Lru {
    budget: usize,
    bytes: usize,
    entries: VecDeque<(Key, Arc<Vec<u8>>)>,
}

impl Lru {
    pub fn new(budget: usize) -> Lru {
        Lru {
            budget,
            bytes: 0,
            entries: VecDeque::new(),
        }
    }

    pub fn get(&mut self, key: &Key) -> Option<Arc<Vec<u8>>> {
        let i = self.entries.iter().position(|(k, _)| k == key)?;
        let entry = self.entries.remove(i)?;
        let png = entry.1.clone();
        self.entries.push_back(entry);
        Some(png)
    }

    pub fn put(&mut self, key: Key, png: Arc<Vec<u8>>) {
        if let Some(i) = self.entries.iter().position(|(k, _)| *k == key) {
            if let Some((_, old)) = self.entries.remove(i) {
                self.bytes -= old.len();
            }
        }
        if png.len() > self.budget {
            return;
        }
        self.bytes += png.len();
        self.entries.push_back((key, png));
        while self.bytes > self.budget {
            match self.entries.pop_front() {
                Some((_, old)) => self.bytes -= old.len(),
                None => break,
            }
        }
    }

    /// The bytes the cached images take.
    #[cfg(feature = "test-support")]
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// How many images are cached.
    #[cfg(feature = "test-support")]
    pub fn images(&self) -> usize {
        self.entries.len()
    }
}
