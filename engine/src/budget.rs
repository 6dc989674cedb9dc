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
use std::time::{Duration, Instant};

/// Default time for one position (the CLI's `--budget-secs`).
pub const DEFAULT_SECS: f64 = 10.0;
/// Default memory for one position's programmes (the CLI's `--budget-mb`).
pub const DEFAULT_BYTES: usize = 1 << 30;

/// A deadline and a memory limit for one analysis.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    limit: Option<Duration>,
    max_bytes: usize,
}

/// Which limit a computation hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The deadline passed; carries the time the budget allowed.
    Time(Duration),
    /// The computation would keep more than this many bytes (the budget's
    /// memory limit).
    Memory(usize),
}

/// An analysis gave up: `what` says what was too big (e.g. "frontier
/// component of 512 cells"), `limit` which bound it hit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// What was too big, in words (e.g. "frontier component of 512 cells").
    pub what: String,
    /// The limit it hit, with the budget's value for it.
    pub limit: Limit,
    /// For a memory limit: the bytes the work was estimated to need when it
    /// gave up. Memory is checked against an estimate made before the
    /// memory is taken, so the process never grew to this size.
    pub estimate: Option<usize>,
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
        }
    }

    /// A budget starting now: `time` from now (none: no deadline) and at
    /// most `max_bytes` for what the computation keeps.
    pub fn new(time: Option<Duration>, max_bytes: usize) -> Budget {
        Budget {
            deadline: time.map(|t| Instant::now() + t),
            limit: time,
            max_bytes,
        }
    }

    /// The same limits, with the time starting now: a budget made once
    /// (from the command line) gives each position its own time.
    pub fn restarted(&self) -> Budget {
        Budget::new(self.limit, self.max_bytes)
    }

    /// The CLI's defaults: [`DEFAULT_SECS`] and [`DEFAULT_BYTES`].
    pub fn default_limits() -> Budget {
        Budget::new(Some(Duration::from_secs_f64(DEFAULT_SECS)), DEFAULT_BYTES)
    }

    /// Gives up if the deadline has passed; `what` names the work.
    #[inline]
    pub fn check_time(&self, what: impl FnOnce() -> String) -> Result<(), OverBudget> {
        match (self.deadline, self.limit) {
            (Some(deadline), Some(limit)) if Instant::now() >= deadline => Err(OverBudget {
                what: what(),
                limit: Limit::Time(limit),
                estimate: None,
            }),
            _ => Ok(()),
        }
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

    /// The memory limit in bytes.
    pub fn max_bytes(&self) -> usize {
        self.max_bytes
    }

    /// When the time runs out (`None`: never).
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The refusal for work that was stopped at the deadline (a search
    /// that polls [`Budget::deadline`] itself).
    pub fn out_of_time(&self, what: String) -> OverBudget {
        OverBudget {
            what,
            limit: Limit::Time(self.limit.unwrap_or_default()),
            estimate: None,
        }
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
