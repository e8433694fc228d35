//! The long-running bot's allocator settings. Rendering a board allocates a few megabytes of
//! canvas and PNG buffers and frees them again. glibc's malloc raises its mmap threshold to
//! the size of the largest block freed so far, so after the first render these buffers come
//! from the per-thread heaps instead of mmap; a freed canvas then stays in the heap of the
//! blocking-pool thread that drew it, and every thread keeps its own. Measured with
//! `cargo bench --bench discord` (100 played and rendered games): 195 MiB of 222 MiB in the
//! heaps were free but retained. A fixed threshold hands every large buffer back to the system
//! on free, and fewer heaps bound what the small allocations can strand.

/// Blocks at least this large are mmapped and returned to the system when freed (glibc's
/// default start value, kept fixed instead of rising with the largest freed block).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 128 * 1024;

/// At most this many malloc heaps (glibc's default is eight per core).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HEAPS: libc::c_int = 2;

/// Applies the settings (process-wide; calling it again changes nothing). Other allocators
/// and platforms keep their defaults.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes glibc's allocator parameters; it takes plain integers and
    // is safe to call at any time from any thread.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_ARENA_MAX, HEAPS);
    }
}
