//! The table's memory: one zero-filled block, on 2 MB pages where the system offers them.
//!
//! A probe lands on a random line of a table of many megabytes, so with 4 KB pages
//! nearly every probe also misses the TLB and walks the page tables; the search's
//! prefetch of the next node's bucket waits on that walk too. On 2 MB pages a 16 MB
//! table needs eight TLB entries. Linux gives an anonymous block huge pages when it is
//! aligned to them and advised (`MADV_HUGEPAGE`; with `transparent_hugepage` set to
//! `never` the advice is ignored and nothing else changes).

use std::alloc::{self, Layout};
use std::ptr::NonNull;

/// Alignment of a huge page.
const HUGE: usize = 2 << 20;

/// Types whose all-zero bit pattern is a valid value.
///
/// # Safety
/// Only for types made of integers and atomics (no references, no enums with a niche).
pub unsafe trait Zeroable {}

/// A fixed-length slice of zero-filled `T`, aligned to huge pages when it spans one.
pub struct ZeroedBlock<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: the block owns its `T`s as a `Box<[T]>` would; sharing and sending it is as
// safe as sharing and sending them.
unsafe impl<T: Zeroable + Send> Send for ZeroedBlock<T> {}
// SAFETY: as above.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedBlock<T> {}

impl<T: Zeroable> ZeroedBlock<T> {
    /// `len` zeroed values (at least one), or `None` when the memory cannot be had.
    pub fn new(len: usize) -> Option<ZeroedBlock<T>> {
        let len = len.max(1);
        let bytes = len.checked_mul(std::mem::size_of::<T>())?.max(1);
        let align = if bytes >= HUGE {
            HUGE
        } else {
            std::mem::align_of::<T>()
        };
        let layout = Layout::from_size_align(bytes, align).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) };
        let ptr = NonNull::new(raw as *mut T)?;
        if align == HUGE {
            advise_huge(raw, bytes);
        }
        // SAFETY: `raw` is a fresh block of `bytes` bytes, and zero bytes are a valid `T`
        // (`Zeroable`). Writing the zeros after the advice is what faults the pages in,
        // huge where the system grants them.
        unsafe { std::ptr::write_bytes(raw, 0, bytes) };
        Some(ZeroedBlock { ptr, len, layout })
    }
}

impl<T: Zeroable> std::ops::Deref for ZeroedBlock<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised `T`s for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedBlock<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this very layout; `Zeroable` types own nothing
        // that needs dropping.
        unsafe { alloc::dealloc(self.ptr.as_ptr() as *mut u8, self.layout) };
    }
}

/// Asks Linux to back `bytes` bytes at `raw` (aligned to `HUGE`) with huge pages; a
/// refusal only leaves them on small pages.
#[cfg(target_os = "linux")]
fn advise_huge(raw: *mut u8, bytes: usize) {
    use nix::sys::mman::{madvise, MmapAdvise};
    if let Some(p) = NonNull::new(raw as *mut std::ffi::c_void) {
        // SAFETY: the range is one block this process owns; the advice changes how it is
        // backed, never its contents.
        let _ = unsafe { madvise(p, bytes, MmapAdvise::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_: *mut u8, _: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[repr(C, align(64))]
    struct Line([AtomicU64; 8]);
    // SAFETY: atomics only.
    unsafe impl Zeroable for Line {}

    #[test]
    fn a_block_starts_zeroed_and_a_large_one_sits_on_a_huge_page_boundary() {
        for len in [1, 3, HUGE / 64 * 3] {
            let b: ZeroedBlock<Line> = ZeroedBlock::new(len).unwrap();
            assert_eq!(b.len(), len);
            assert!(b
                .iter()
                .all(|l| l.0.iter().all(|w| w.load(Ordering::Relaxed) == 0)));
            let addr = b.as_ptr() as usize;
            assert_eq!(addr % 64, 0);
            if len * 64 >= HUGE {
                assert_eq!(addr % HUGE, 0);
            }
            b[len - 1].0[7].store(9, Ordering::Relaxed);
            assert_eq!(b[len - 1].0[7].load(Ordering::Relaxed), 9);
        }
    }

    #[test]
    fn an_impossible_size_is_refused() {
        assert!(ZeroedBlock::<Line>::new(usize::MAX / 32).is_none());
    }
}
