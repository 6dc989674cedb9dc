//! The package's own thread pool, safe across `fork`, and long calls that
//! stop on Ctrl-C.
//!
//! # Fork
//!
//! A forked child has only the thread that called `fork`: the threads of a
//! pool built before it do not exist there, and a pool whose threads are
//! gone never runs a job (rayon's global pool hangs every parallel call in
//! the child). So every multi-core call runs in [`pool`], the pool of the
//! current process: each pool remembers the process id that built it, and
//! a call from another process (a forked child) builds a new one. The
//! parent's pool is leaked in the child, never dropped: dropping it would
//! signal threads that are not there. The pool is published through an
//! atomic pointer, not a lock, so a fork taken while another thread was
//! looking it up cannot leave a lock held in the child.
//!
//! # Ctrl-C
//!
//! Python runs a signal's handler (`KeyboardInterrupt` for SIGINT) only
//! when the main thread checks for signals while holding the GIL. A long
//! call therefore runs its work in the pool ([`interruptible`]) while the
//! calling thread waits without the GIL, waking every [`POLL`] to check
//! for signals. When a handler raises, the work's [`Cancel`] switch is
//! thrown: the engine, whose budget carries it, gives up at its next check
//! (within a count's layer, a search's few thousand nodes, a solve or a
//! game), and the call waits for the work to wind down and returns the
//! handler's exception.
//!
//! A call on one board ([`one_board`]) is most often far quicker than a
//! hop to the pool, and it cannot be known beforehand which boards are
//! hard. So it first runs on the calling thread under a short deadline,
//! [`INLINE_TIME`]; only if it has not ended by then is its answer dropped
//! and the call run again in the pool, with the engine's whole budget.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use sapper_engine::budget::{Budget, Cancel};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How often a waiting call checks for signals.
pub const POLL: Duration = Duration::from_millis(25);

/// How long a call on one board runs on the calling thread, deaf to
/// Ctrl-C, before it moves to the pool ([`one_board`]): what a call that
/// moves loses, and what it adds to the time Ctrl-C takes.
pub const INLINE_TIME: Duration = Duration::from_millis(50);

/// Boards of more cells than this go to the pool from the start: they
/// cost milliseconds at least, so the hop is nothing to them, and they
/// lose no [`INLINE_TIME`] when they are slow.
pub const INLINE_CELLS: usize = 1 << 16;

/// A pool and the process that built it.
struct Owned {
    pid: u32,
    pool: ThreadPool,
}

/// The pool of the latest process that asked for one (leaked: it lives as
/// long as the process, and in a forked child it must never be dropped).
static POOL: AtomicPtr<Owned> = AtomicPtr::new(ptr::null_mut());

/// The thread pool of this process, built on first use in each process
/// (`RAYON_NUM_THREADS` threads if set, else one per core).
pub fn pool() -> PyResult<&'static ThreadPool> {
    let pid = std::process::id();
    let current = POOL.load(Ordering::Acquire);
    // SAFETY: a non-null pointer in POOL comes from `Box::leak` below and is
    // never freed.
    if let Some(owned) = unsafe { current.as_ref() } {
        if owned.pid == pid {
            return Ok(&owned.pool);
        }
    }
    let built = ThreadPoolBuilder::new()
        .thread_name(|i| format!("sapper-{i}"))
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start sapper's threads: {e}")))?;
    let fresh: &'static mut Owned = Box::leak(Box::new(Owned { pid, pool: built }));
    match POOL.compare_exchange(current, fresh, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => Ok(&fresh.pool),
        Err(other) => {
            // Another thread of this process published a pool first: use
            // it, and drop ours (its threads exist: this is its process).
            // SAFETY: `fresh` was leaked above and never shared.
            drop(unsafe { Box::from_raw(fresh) });
            // SAFETY: as above, a published pointer is never freed.
            match unsafe { other.as_ref() } {
                Some(owned) if owned.pid == pid => Ok(&owned.pool),
                _ => pool(),
            }
        }
    }
}

/// Where the work leaves its answer, and says it has finished.
struct Slot<R> {
    state: Mutex<(bool, Option<R>)>,
    done: Condvar,
}

impl<R> Slot<R> {
    fn lock(&self) -> MutexGuard<'_, (bool, Option<R>)> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Marks the slot finished when dropped: also when the work panics, so the
/// waiting thread never waits for an answer that will not come.
struct Finish<'a, R>(&'a Slot<R>);

impl<R> Drop for Finish<'_, R> {
    fn drop(&mut self) {
        self.0.lock().0 = true;
        self.0.done.notify_all();
    }
}

/// Runs `work` in the pool while this thread waits without the GIL,
/// checking for signals every [`POLL`]. A signal handler that raises (Ctrl-C:
/// `KeyboardInterrupt`) throws the [`Cancel`] switch `work` was given (for
/// its engine's budget, or to read between items); the call then waits for
/// `work` to return and raises the handler's exception. A panic in `work`
/// is propagated.
pub fn interruptible<R: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Cancel) -> R + Send,
) -> PyResult<R> {
    let pool = pool()?;
    let cancel = Cancel::new();
    let slot = Slot {
        state: Mutex::new((false, None)),
        done: Condvar::new(),
    };
    let (cancel, slot) = (&cancel, &slot);
    pool.in_place_scope(|scope| {
        scope.spawn(move |_| {
            let _finish = Finish(slot);
            let answer = work(cancel);
            slot.lock().1 = Some(answer);
        });
        let mut interrupted = None;
        loop {
            let finished = py.detach(|| {
                let state = slot.lock();
                let (state, _) = slot
                    .done
                    .wait_timeout_while(state, POLL, |s| !s.0)
                    .unwrap_or_else(PoisonError::into_inner);
                state.0
            });
            if finished {
                break;
            }
            if interrupted.is_none() {
                if let Err(e) = py.check_signals() {
                    cancel.cancel();
                    interrupted = Some(e);
                }
            }
        }
        if let Some(e) = interrupted {
            return Err(e);
        }
        // `None`: the work panicked, and the scope re-raises its panic as
        // this closure returns.
        slot.lock()
            .1
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("sapper's work stopped without an answer"))
    })
}

/// Runs `work`, a computation on one board of `cells` cells under the
/// engine's `budget`, so that Ctrl-C stops it at the engine's next check
/// (or within [`INLINE_TIME`] and that check). `work` is given the budget
/// to compute under.
///
/// On a board of at most [`INLINE_CELLS`] cells, `work` first runs on the
/// calling thread (without the GIL) under a deadline of [`INLINE_TIME`]
/// and the budget's memory limit. If it returns before that deadline, no
/// time check in it can have failed, so its answer is the one the whole
/// budget gives: it is returned. Otherwise it is dropped — ended by the
/// deadline, or perhaps changed by it (a player skips a refinement that
/// runs out of time rather than fail) — and, unless a signal handler
/// raised meanwhile, `work` runs again under the whole budget in the pool
/// ([`interruptible`]), where Ctrl-C throws the budget's cancel switch.
pub fn one_board<R: Send>(
    py: Python<'_>,
    cells: usize,
    budget: Budget,
    work: impl Fn(Budget) -> R + Sync,
) -> PyResult<R> {
    if cells <= INLINE_CELLS {
        // Before the budget is made: every deadline in `work` is at least
        // `INLINE_TIME` after this.
        let t0 = Instant::now();
        let quick = Budget::new(Some(INLINE_TIME), budget.max_bytes());
        let answer = py.detach(|| work(quick));
        if t0.elapsed() < INLINE_TIME {
            return Ok(answer);
        }
        drop(answer);
        py.check_signals()?;
    }
    let work = &work;
    interruptible(py, move |cancel| {
        work(budget.restarted().with_cancel(cancel))
    })
}
