//! Bounds on one analysis: a deadline and a memory limit.
//!
//! The exact methods and the probability counter are exponential on some
//! positions (a frontier as wide as the board): deciding or counting there
//! is NP- or #P-hard. Rather than run for minutes or abort when an
//! allocation fails, every such computation takes a [`Budget`] and checks it
//! as it goes — the time at a coarse grain (every layer of a programme,
//! every few thousand search nodes), the memory before it allocates what
//! grows with the position — and gives up with an [`OverBudget`] that says
//! what was too big and which limit it hit. Giving up is never a wrong
//! answer: the caller reports the position as refused.

use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default time for one position (the CLI's `--budget-secs`).
pub const DEFAULT_SECS: f64 = 10.0;
/// Default memory for one position's programmes (the CLI's `--budget-mb`).
pub const DEFAULT_BYTES: usize = 1 << 30;

/// A deadline and a memory limit for one analysis, and optionally a
/// [`Cancel`] switch that ends it at its next check.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    limit: Option<Duration>,
    max_bytes: usize,
    cancel: Option<Ticket>,
}

/// Which limit a computation hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The deadline passed; carries the time the budget allowed.
    Time(Duration),
    /// The computation would keep more than this many bytes (the budget's
    /// memory limit).
    Memory(usize),
    /// Its [`Cancel`] switch was thrown: nobody wants the answer any more
    /// (a server's client has gone).
    Cancelled,
}

/// An analysis gave up: `what` says what was too big (e.g. "frontier
/// component of 512 cells"), `limit` which bound it hit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// What was too big, in words (e.g. "frontier component of 512 cells").
    pub what: String,
    /// The limit it hit, with the budget's value for it
    /// ([`Limit::Cancelled`]: none, the computation was called off).
    pub limit: Limit,
    /// For a memory limit: the bytes the work was estimated to need when it
    /// gave up. Memory is checked against an estimate made before the
    /// memory is taken, so the process never grew to this size.
    pub estimate: Option<usize>,
}

impl OverBudget {
    /// Work stopped by the clock or the cancel switch (no estimate).
    fn stopped(what: impl FnOnce() -> String, limit: Limit) -> OverBudget {
        OverBudget {
            what: what(),
            limit,
            estimate: None,
        }
    }
}

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit {
            Limit::Time(d) => write!(
                f,
                "{} is too hard for exact analysis within {} s",
                self.what,
                d.as_secs_f64()
            ),
            Limit::Memory(bytes) => write!(
                f,
                "{}{} is too hard for exact analysis within {} MB",
                self.what,
                match self.estimate {
                    Some(e) => format!(
                        ", estimated before it is built to need {} MB,",
                        e.div_ceil(1 << 20)
                    ),
                    None => String::new(),
                },
                bytes >> 20
            ),
            Limit::Cancelled => write!(f, "{} was called off before it ended", self.what),
        }
    }
}

impl std::error::Error for OverBudget {}

impl Budget {
    /// No deadline, no memory limit (tests, oracles).
    pub const fn unlimited() -> Budget {
        Budget {
            deadline: None,
            limit: None,
            max_bytes: usize::MAX,
            cancel: None,
        }
    }

    /// A budget starting now: `time` from now (none: no deadline) and at
    /// most `max_bytes` for what the computation keeps.
    pub fn new(time: Option<Duration>, max_bytes: usize) -> Budget {
        Budget {
            deadline: time.map(|t| Instant::now() + t),
            limit: time,
            max_bytes,
            cancel: None,
        }
    }

    /// The same limits, with the time starting now: a budget made once
    /// (from the command line) gives each position its own time. The
    /// cancel switch stays.
    pub fn restarted(&self) -> Budget {
        Budget {
            cancel: self.cancel,
            ..Budget::new(self.limit, self.max_bytes)
        }
    }

    /// The same budget, also ended when `cancel` is thrown.
    pub fn with_cancel(self, cancel: &Cancel) -> Budget {
        Budget {
            cancel: cancel.ticket,
            ..self
        }
    }

    /// This budget's limits, ended when `other`'s cancel switch (if it
    /// carries one) is thrown: work with limits of its own that a caller
    /// may still call off.
    pub fn with_cancel_of(self, other: &Budget) -> Budget {
        Budget {
            cancel: other.cancel,
            ..self
        }
    }

    /// Whether the cancel switch, if any, was thrown.
    #[inline]
    pub fn cancelled(&self) -> bool {
        self.cancel.is_some_and(Ticket::thrown)
    }

    /// Gives up if the cancel switch was thrown, whatever the time: for a
    /// run of many computations (games, boards), each under its own
    /// clock, that checks between them. `what` names the run.
    #[inline]
    pub fn check_cancelled(&self, what: impl FnOnce() -> String) -> Result<(), OverBudget> {
        if self.cancelled() {
            return Err(OverBudget::stopped(what, Limit::Cancelled));
        }
        Ok(())
    }

    /// The CLI's defaults: [`DEFAULT_SECS`] and [`DEFAULT_BYTES`].
    pub fn default_limits() -> Budget {
        Budget::new(Some(Duration::from_secs_f64(DEFAULT_SECS)), DEFAULT_BYTES)
    }

    /// Gives up if the deadline has passed or the computation was
    /// cancelled; `what` names the work.
    #[inline]
    pub fn check_time(&self, what: impl FnOnce() -> String) -> Result<(), OverBudget> {
        let limit = match (self.deadline, self.limit) {
            _ if self.cancelled() => Limit::Cancelled,
            (Some(deadline), Some(limit)) if Instant::now() >= deadline => Limit::Time(limit),
            _ => return Ok(()),
        };
        Err(OverBudget::stopped(what, limit))
    }

    /// Gives up if `bytes` (what the computation would keep) exceeds the
    /// memory limit; `what` names the work.
    #[inline]
    pub fn check_bytes(
        &self,
        bytes: usize,
        what: impl FnOnce() -> String,
    ) -> Result<(), OverBudget> {
        if bytes > self.max_bytes {
            return Err(OverBudget {
                what: what(),
                limit: Limit::Memory(self.max_bytes),
                estimate: Some(bytes),
            });
        }
        Ok(())
    }

    /// Makes room in `v` for `extra` more items, when what it would then
    /// hold fits the memory limit beside `held` bytes kept elsewhere. A
    /// buffer that must grow is given twice its capacity, as `Vec` itself
    /// would, when that fits, else just what it needs; while it grows, its
    /// old block is counted too (a reallocation may copy), unless it is
    /// empty (then the old block is given back first). `what` names the
    /// work.
    #[inline]
    pub fn reserve<T>(
        &self,
        v: &mut Vec<T>,
        extra: usize,
        held: usize,
        what: impl FnOnce() -> String,
    ) -> Result<(), OverBudget> {
        match v.len().saturating_add(extra) <= v.capacity() {
            true => Ok(()),
            false => self.grow(v, extra, held, what),
        }
    }

    /// [`Budget::reserve`] when `v` must grow.
    #[cold]
    fn grow<T>(
        &self,
        v: &mut Vec<T>,
        extra: usize,
        held: usize,
        what: impl FnOnce() -> String,
    ) -> Result<(), OverBudget> {
        let need = v.len().saturating_add(extra);
        if v.is_empty() {
            // Nothing to move: the old block is given back first.
            *v = Vec::new();
        }
        let size = std::mem::size_of::<T>();
        let old = v.capacity().saturating_mul(size);
        let bytes = |cap: usize| {
            held.saturating_add(old)
                .saturating_add(cap.saturating_mul(size))
        };
        let doubled = need.max(v.capacity().saturating_mul(2));
        let cap = match bytes(doubled) <= self.max_bytes {
            true => doubled,
            false => need,
        };
        self.check_bytes(bytes(cap), what)?;
        v.reserve_exact(cap - v.len());
        Ok(())
    }

    /// The memory limit in bytes.
    pub fn max_bytes(&self) -> usize {
        self.max_bytes
    }

    /// When the time runs out (`None`: never); now, once cancelled.
    pub fn deadline(&self) -> Option<Instant> {
        if self.cancelled() {
            return Some(Instant::now());
        }
        self.deadline
    }

    /// The refusal for work that was stopped at the deadline (a search
    /// that polls [`Budget::deadline`] itself).
    pub fn out_of_time(&self, what: String) -> OverBudget {
        let limit = match self.cancelled() {
            true => Limit::Cancelled,
            false => Limit::Time(self.limit.unwrap_or_default()),
        };
        OverBudget::stopped(|| what, limit)
    }
}

/// Work units (state transitions, values touched, candidates scanned)
/// between two reads of the clock by a [`Ticks`].
pub(crate) const WORK_PER_CLOCK_READ: u64 = 1 << 16;

/// Reads a budget's clock (and its cancel switch) once per
/// [`WORK_PER_CLOCK_READ`] units of work: a loop too hot to read it on
/// every pass says how much it did.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ticks {
    /// Work since the clock was last read.
    work: u64,
}

impl Ticks {
    /// Counts `units` of work, and reads the clock once enough was done
    /// since the last read; `what` names the work.
    #[inline]
    pub(crate) fn tick(
        &mut self,
        units: u64,
        budget: &Budget,
        what: impl FnOnce() -> String,
    ) -> Result<(), OverBudget> {
        self.work += units;
        if self.work >= WORK_PER_CLOCK_READ {
            self.work = 0;
            budget.check_time(what)?;
        }
        Ok(())
    }
}

/// Bytes a buffer holds: its capacity, what memory budgets count.
pub(crate) fn bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

/// A switch that calls off the computations whose budgets carry it
/// ([`Budget::with_cancel`]): they give up at their next time check with
/// [`Limit::Cancelled`]. Cheap to copy into a budget: a budget holds a
/// ticket to one of a fixed set of shared flags, given back when the last
/// clone of the switch is dropped (a ticket kept past that reads as
/// thrown). When every flag is lent out, a switch has no ticket and
/// cancels nothing.
///
/// ```
/// use sapper_engine::budget::{Budget, Cancel, Limit};
///
/// let cancel = Cancel::new();
/// let budget = Budget::unlimited().with_cancel(&cancel);
/// assert!(budget.check_time(|| "a count".into()).is_ok());
/// cancel.cancel();
/// let refused = budget.check_time(|| "a count".into()).unwrap_err();
/// assert_eq!(refused.limit, Limit::Cancelled);
/// ```
#[derive(Clone, Debug)]
pub struct Cancel {
    ticket: Option<Ticket>,
    /// Gives the flag back when the last clone goes.
    _lease: Option<Arc<Lease>>,
}

/// Flags a process can lend at once.
const FLAGS: usize = 4096;

/// The flags: a flag's value is its generation, bumped when it is thrown
/// or given back, so an old ticket never matches again.
static FLAG: [AtomicU32; FLAGS] = [const { AtomicU32::new(0) }; FLAGS];

/// The flags not lent out (all of them until first used).
static FREE: Mutex<Option<Vec<u16>>> = Mutex::new(None);

/// A flag and the generation it had when lent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ticket {
    flag: u16,
    generation: u32,
}

impl Ticket {
    fn thrown(self) -> bool {
        FLAG[usize::from(self.flag)].load(Ordering::Relaxed) != self.generation
    }
}

#[derive(Debug)]
struct Lease(u16);

impl Drop for Lease {
    fn drop(&mut self) {
        FLAG[usize::from(self.0)].fetch_add(1, Ordering::Relaxed);
        if let Ok(mut free) = FREE.lock() {
            free.get_or_insert_with(Vec::new).push(self.0);
        }
    }
}

impl Cancel {
    /// A switch not yet thrown.
    pub fn new() -> Cancel {
        let flag = FREE.lock().ok().and_then(|mut free| {
            free.get_or_insert_with(|| (0..FLAGS as u16).rev().collect())
                .pop()
        });
        match flag {
            Some(flag) => Cancel {
                ticket: Some(Ticket {
                    flag,
                    generation: FLAG[usize::from(flag)].load(Ordering::Relaxed),
                }),
                _lease: Some(Arc::new(Lease(flag))),
            },
            None => Cancel {
                ticket: None,
                _lease: None,
            },
        }
    }

    /// Throws the switch: every budget carrying it gives up at its next
    /// check.
    pub fn cancel(&self) {
        if let Some(t) = self.ticket {
            let _ = FLAG[usize::from(t.flag)].compare_exchange(
                t.generation,
                t.generation.wrapping_add(1),
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
    }

    /// Whether the switch was thrown.
    pub fn is_cancelled(&self) -> bool {
        self.ticket.is_some_and(Ticket::thrown)
    }
}

impl Default for Cancel {
    fn default() -> Self {
        Cancel::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restarted_budget_keeps_its_limits_with_a_new_deadline() {
        let b = Budget::new(Some(Duration::from_secs(5)), 7);
        std::thread::sleep(Duration::from_millis(2));
        let r = b.restarted();
        assert_eq!(r.max_bytes(), 7);
        assert!(r.deadline().unwrap() > b.deadline().unwrap());
        assert_eq!(Budget::unlimited().restarted().deadline(), None);
    }

    #[test]
    fn a_cancelled_budget_gives_up_and_a_given_back_flag_stays_thrown() {
        let cancel = Cancel::new();
        let budget = Budget::new(Some(Duration::from_secs(60)), 1 << 20).with_cancel(&cancel);
        assert!(budget.restarted().check_time(|| unreachable!()).is_ok());
        cancel.clone().cancel();
        let err = budget
            .restarted()
            .check_time(|| "a count".into())
            .unwrap_err();
        assert_eq!(err.limit, Limit::Cancelled);
        assert_eq!(err.to_string(), "a count was called off before it ended");
        assert!(budget.deadline().unwrap() <= Instant::now());
        // Another switch's budget is not affected; once the first switch is
        // gone its flag may be lent again, and the old ticket stays thrown.
        let second = Cancel::new();
        let other = Budget::unlimited().with_cancel(&second);
        assert!(!other.cancelled());
        drop(cancel);
        let again = Cancel::new();
        assert!(!Budget::unlimited().with_cancel(&again).cancelled());
        assert!(budget.cancelled());
    }

    #[test]
    fn a_run_checks_only_its_switch_and_another_budget_can_carry_it() {
        // A deadline long passed does not end a run: each computation in
        // it restarts its own clock.
        let stale = Budget::new(Some(Duration::ZERO), 1 << 20);
        assert!(stale.check_cancelled(|| unreachable!()).is_ok());
        let cancel = Cancel::new();
        let run = stale.with_cancel(&cancel);
        let each = Budget::new(Some(Duration::from_secs(60)), 7).with_cancel_of(&run);
        assert_eq!(each.max_bytes(), 7);
        assert!(each.check_time(|| unreachable!()).is_ok());
        cancel.cancel();
        let err = run
            .check_cancelled(|| "a run of 9 games".into())
            .unwrap_err();
        assert_eq!(err.limit, Limit::Cancelled);
        assert_eq!(
            err.to_string(),
            "a run of 9 games was called off before it ended"
        );
        assert_eq!(
            each.check_time(|| "a game".into()).unwrap_err().limit,
            Limit::Cancelled
        );
        // Without a switch to take, a budget keeps none.
        assert!(!each.with_cancel_of(&Budget::unlimited()).cancelled());
    }

    #[test]
    fn an_unlimited_budget_never_gives_up() {
        let b = Budget::unlimited();
        assert!(b.check_time(|| unreachable!()).is_ok());
        assert!(b.check_bytes(usize::MAX, || unreachable!()).is_ok());
    }

    #[test]
    fn a_passed_deadline_and_a_memory_overrun_say_what_and_which_limit() {
        let b = Budget::new(Some(Duration::ZERO), 1 << 20);
        let err = b
            .check_time(|| "frontier component of 512 cells".into())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "frontier component of 512 cells is too hard for exact analysis within 0 s"
        );
        let err = b
            .check_bytes(2 << 20, || "layer of 9 states".into())
            .unwrap_err();
        assert_eq!(err.limit, Limit::Memory(1 << 20));
        assert_eq!(
            err.to_string(),
            "layer of 9 states, estimated before it is built to need 2 MB, is too hard for \
             exact analysis within 1 MB"
        );
        assert!(b.check_bytes(1 << 20, || unreachable!()).is_ok());
    }
}
