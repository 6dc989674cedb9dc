//! The test binary's allocator: the system's, counting per thread the
//! bytes allocated and not yet freed, and the most of them held at once
//! since [`Peak::start`], so that a test can check what one computation on
//! its thread kept at its worst (the memory budgets). A reallocation that
//! grows counts both its blocks while the data moves (it may copy); one
//! that shrinks is trimmed in place by the C library.
//!
//! Counts are per thread: memory freed on another thread than the one that
//! allocated it moves both threads' counts, so a measured computation must
//! run on the measuring thread and not hand its allocations to others (a
//! probability count does neither).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts the live bytes of each thread (see the module doc).
pub struct Counting;

thread_local! {
    /// This thread's live bytes, and the most of them since the last
    /// [`Peak::start`].
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static MOST: Cell<isize> = const { Cell::new(0) };
}

fn moved(delta: isize) {
    // `try_with`: a thread's last frees can come after its locals are gone.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = MOST.try_with(|most| most.set(most.get().max(now)));
    });
}

// SAFETY: every call is passed to `System` unchanged; the counting touches
// only const-initialised thread locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            moved(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            moved(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        moved(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // A block that grows is counted twice while the data moves (a
            // copying reallocation holds both); one that shrinks is
            // trimmed in place by the C library.
            if new_size > layout.size() {
                moved(new_size as isize);
                moved(-(layout.size() as isize));
            } else {
                moved(new_size as isize - layout.size() as isize);
            }
        }
        p
    }
}

/// The most bytes this thread held at once, counted from a start.
pub struct Peak {
    base: isize,
}

impl Peak {
    /// Starts counting from this thread's live bytes now.
    pub fn start() -> Peak {
        let base = LIVE.with(Cell::get);
        MOST.with(|m| m.set(base));
        Peak { base }
    }

    /// The most bytes held at once since [`Peak::start`], beyond those
    /// held then.
    pub fn bytes(&self) -> usize {
        (MOST.with(Cell::get) - self.base).max(0) as usize
    }
}
