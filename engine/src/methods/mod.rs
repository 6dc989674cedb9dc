//! The four methods of the source research (docs/design.md §2), one module each:
//!
//! 1. [`single_cell`] — one number's equation alone;
//! 2. [`linked_cells_1`] — two numbers' equations, subtracted (subset /
//!    overlap reasoning), no global count;
//! 3. [`linked_cells_2`] — several equations together with the global mine
//!    count;
//! 4. [`hypotheses`] — "what if": a cell is forced iff the opposite
//!    assumption has no solution; complete (exact search per frontier
//!    component, global count included).
//!
//! Every method has the same shape: it reads a [`Board`], appends the cells
//! it proves to `out`, and reports a [`Contradiction`] if it finds the board
//! has no mine layout at all. `dirty` lists the revealed numbers whose
//! neighbourhood changed since the method last ran (`None` = look at
//! everything); the local methods (1 and 2) only need to look around those,
//! the global ones (3 and 4) may ignore it.

use crate::board::{Board, Contradiction, Forced, Method};
use crate::budget::{Budget, OverBudget};

pub mod hypotheses;
pub mod linked_cells_1;
pub mod linked_cells_2;
pub mod single_cell;

/// Why a method returned no list of forced cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MethodError {
    /// The board admits no mine layout.
    Contradiction(Contradiction),
    /// The method gave up rather than exceed its [`Budget`] (only the
    /// exponential one, hypotheses, can).
    OverBudget(OverBudget),
}

impl std::fmt::Display for MethodError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MethodError::Contradiction(c) => c.fmt(f),
            MethodError::OverBudget(o) => o.fmt(f),
        }
    }
}

impl std::error::Error for MethodError {}

impl From<Contradiction> for MethodError {
    fn from(c: Contradiction) -> Self {
        MethodError::Contradiction(c)
    }
}

impl From<OverBudget> for MethodError {
    fn from(o: OverBudget) -> Self {
        MethodError::OverBudget(o)
    }
}

/// Runs one method within `budget`. Returns the work the attempt did in
/// [`work units`](MethodStats::work_success): a count that depends only on
/// the board, so the method order it decides is the same on every run and
/// machine.
pub fn run(
    method: Method,
    board: &Board,
    dirty: Option<&[u32]>,
    budget: &Budget,
    out: &mut Vec<Forced>,
) -> Result<u64, MethodError> {
    // The numbers a local method looks at: those with a closed neighbour
    // (a settled number is skipped at once).
    let numbers = || -> u64 {
        let open = |i: u32| board.unknown_around(i) > 0;
        match dirty {
            Some(list) => list.iter().filter(|&&i| open(i)).count() as u64,
            None => (0..board.grid().len() as u32).filter(|&i| open(i)).count() as u64,
        }
    };
    // Coefficients fitted so that a unit is about a nanosecond on the
    // reference machine (against the method table of `bench --no-rules` on
    // sgt-expert, docs/performance.md), so work units read like times and
    // order the methods as the clock would, without its noise.
    match method {
        Method::SingleCell => {
            single_cell::find(board, dirty, out)?;
            Ok(10 + 30 * numbers())
        }
        Method::LinkedCells1 => {
            linked_cells_1::find(board, dirty, out)?;
            Ok(100 + 700 * numbers())
        }
        Method::LinkedCells2 => {
            linked_cells_2::find(board, dirty, out)?;
            Ok(2_000 + 25 * board.grid().len() as u64 + 20 * board.unknown_count() as u64)
        }
        Method::Hypotheses => {
            let profile =
                hypotheses::find_within(board, budget, hypotheses::PROGRAMME_LIMITS, out)?;
            Ok(2_000
                + 25 * board.grid().len() as u64
                + 30 * profile.frontier_cells as u64
                + 100 * profile.states as u64
                + 50_000 * profile.sat_queries as u64)
        }
    }
}

/// Cost bookkeeping for one method, as in the research: attempts, successes
/// and the mean time of successful and failed attempts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MethodStats {
    /// Times the method was run (successful and failed).
    pub attempts: u64,
    /// Attempts that proved at least one cell (`n_s`; `n_u` is
    /// [`MethodStats::failures`]).
    pub successes: u64,
    /// Total nanoseconds spent in the timed successful attempts.
    pub nanos_success: u64,
    /// Total nanoseconds spent in the timed failed attempts.
    pub nanos_fail: u64,
    /// Successful and failed attempts that were timed: every attempt of a
    /// method; a random sample of the rule layer's (see
    /// `solver::RULE_TIMING_ONE_IN`). The means `t_s`, `t_u` are over
    /// these.
    pub timed_successes: u64,
    /// Failed attempts that were timed: the sample `t_u` is the mean over.
    pub timed_failures: u64,
    /// Cells this method determined.
    pub cells: u64,
    /// Work units of all successful and failed attempts ([`run`]'s
    /// deterministic count): the method order is decided on these, so it is
    /// the same on every run; the times above are reported, not used.
    pub work_success: u64,
    /// Work units of all failed attempts (see `work_success`).
    pub work_fail: u64,
}

impl MethodStats {
    /// Attempts that proved nothing (`n_u`).
    pub fn failures(&self) -> u64 {
        self.attempts - self.successes
    }
    /// Counts one attempt, with its time in nanoseconds if it was timed.
    #[inline]
    pub fn record(&mut self, success: bool, nanos: Option<u64>) {
        self.record_work(success, nanos, 0);
    }

    /// [`MethodStats::record`] with the attempt's work units.
    #[inline]
    pub fn record_work(&mut self, success: bool, nanos: Option<u64>, work: u64) {
        if success {
            self.work_success += work;
        } else {
            self.work_fail += work;
        }
        self.attempts += 1;
        self.successes += success as u64;
        if let Some(nanos) = nanos {
            if success {
                self.timed_successes += 1;
                self.nanos_success += nanos;
            } else {
                self.timed_failures += 1;
                self.nanos_fail += nanos;
            }
        }
    }
    /// Mean time of a successful attempt, µs (`t_s`).
    pub fn t_s_micros(&self) -> f64 {
        if self.timed_successes == 0 {
            0.0
        } else {
            self.nanos_success as f64 / self.timed_successes as f64 / 1000.0
        }
    }
    /// Mean time of a failed attempt, µs (`t_u`).
    pub fn t_u_micros(&self) -> f64 {
        if self.timed_failures == 0 {
            0.0
        } else {
            self.nanos_fail as f64 / self.timed_failures as f64 / 1000.0
        }
    }
    /// Mean cycle time `t_c = (n_u / n_s) · t_u + t_s`, µs: the expected
    /// cost of one success. The research's formula is undefined before the
    /// first success; then the estimate is `(n_u + 1) · t_u`, the cost if
    /// the next attempt succeeds — finite, so one early failure does not
    /// push a cheap method behind expensive ones for good, and growing with
    /// every further failure. 0 for a method never tried.
    pub fn t_c_micros(&self) -> f64 {
        if self.successes == 0 {
            (self.failures() + 1) as f64 * self.t_u_micros()
        } else {
            self.failures() as f64 / self.successes as f64 * self.t_u_micros() + self.t_s_micros()
        }
    }
    /// The research's cycle time over work units instead of seconds:
    /// `(n_u / n_s) · w_u + w_s` with `w_s`, `w_u` the mean work of a
    /// successful and a failed attempt (before the first success,
    /// `(n_u + 1) · w_u`). This orders the methods: it is deterministic.
    pub fn t_c_work(&self) -> f64 {
        let mean = |total: u64, n: u64| if n == 0 { 0.0 } else { total as f64 / n as f64 };
        let w_s = mean(self.work_success, self.successes);
        let w_u = mean(self.work_fail, self.failures());
        if self.successes == 0 {
            (self.failures() + 1) as f64 * w_u
        } else {
            self.failures() as f64 / self.successes as f64 * w_u + w_s
        }
    }

    /// Adds `o`'s counts, times and work to these (statistics of several
    /// solves combined).
    pub fn merge(&mut self, o: &MethodStats) {
        self.work_success += o.work_success;
        self.work_fail += o.work_fail;
        self.attempts += o.attempts;
        self.successes += o.successes;
        self.nanos_success += o.nanos_success;
        self.nanos_fail += o.nanos_fail;
        self.timed_successes += o.timed_successes;
        self.timed_failures += o.timed_failures;
        self.cells += o.cells;
    }
}

/// The four methods' statistics and the order the solver tries them in.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodTable {
    /// Each method's statistics, at its [`Method::index`].
    pub stats: [MethodStats; 4],
    /// The rule layer's attempts (one match pass over the changed numbers
    /// is one attempt); not part of the method order — rules always run
    /// first.
    pub rules: MethodStats,
    order: [Method; 4],
    /// Methods the solver may run ([`MethodTable::hypotheses_only`]).
    enabled: [bool; 4],
}

impl Default for MethodTable {
    fn default() -> Self {
        MethodTable {
            stats: [MethodStats::default(); 4],
            rules: MethodStats::default(),
            order: Method::RESEARCH_ORDER,
            enabled: [true; 4],
        }
    }
}

impl MethodTable {
    /// A table under which the solver runs hypotheses alone after the
    /// rules. Hypotheses is complete, so the fixpoint — solved or stuck,
    /// and where — is the same as with all four methods; only who proves
    /// which cell changes. For callers that need the outcome, not the
    /// attribution (the board generator): with the rulebase's orders 1–2
    /// covering single-cell and linked cells 1, and a stuck board needing
    /// hypotheses' proof anyway, the other methods would only add attempts.
    pub fn hypotheses_only() -> MethodTable {
        let mut enabled = [false; 4];
        enabled[Method::Hypotheses.index()] = true;
        MethodTable {
            enabled,
            ..MethodTable::default()
        }
    }

    /// Whether the solver may run `m`.
    pub fn enabled(&self, m: Method) -> bool {
        self.enabled[m.index()]
    }

    /// The statistics of method `m`.
    pub fn get(&self, m: Method) -> &MethodStats {
        &self.stats[m.index()]
    }
    /// The statistics of method `m`, to record an attempt in.
    pub fn get_mut(&mut self, m: Method) -> &mut MethodStats {
        &mut self.stats[m.index()]
    }
    /// The order methods are tried in: increasing `t_c` in work units
    /// ([`MethodStats::t_c_work`]).
    pub fn order(&self) -> [Method; 4] {
        self.order
    }
    /// Re-sorts by `t_c` in work units. A method not tried yet has no
    /// measured cost (its `t_c` is unknown, not zero), so it keeps its slot
    /// of the research's order; the tried methods are sorted by `t_c` among
    /// the other slots (stable: ties keep the research's order). Work units,
    /// not seconds: the order — and so which method proves which cell — is
    /// the same on every run, whatever the machine is doing.
    pub fn reorder(&mut self) {
        // Called after every successful attempt: no allocation.
        let mut tried = [Method::SingleCell; 4];
        let mut n = 0;
        for m in Method::RESEARCH_ORDER {
            if self.get(m).attempts > 0 {
                tried[n] = m;
                n += 1;
            }
        }
        let t_c = self.stats.map(|s| s.t_c_work());
        tried[..n].sort_by(|a, b| t_c[a.index()].total_cmp(&t_c[b.index()]));
        let mut next = tried[..n].iter().copied();
        let mut order = Method::RESEARCH_ORDER;
        for slot in order.iter_mut() {
            if self.get(*slot).attempts > 0 {
                *slot = next.next().expect("as many tried methods as tried slots");
            }
        }
        self.order = order;
    }
    /// Adds `o`'s rule-layer and per-method statistics to these; the
    /// method order is left as it is.
    pub fn merge(&mut self, o: &MethodTable) {
        self.rules.merge(&o.rules);
        for m in Method::ALL {
            self.get_mut(m).merge(o.get(m));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(attempts: u64, successes: u64, nanos_success: u64, nanos_fail: u64) -> MethodStats {
        MethodStats {
            attempts,
            successes,
            nanos_success,
            nanos_fail,
            timed_successes: successes,
            timed_failures: attempts - successes,
            cells: successes,
            // One work unit per nanosecond: the order follows these.
            work_success: nanos_success,
            work_fail: nanos_fail,
        }
    }

    #[test]
    fn t_c_is_the_research_formula() {
        // 3 failures of 2 µs, 1 success of 10 µs: t_c = (3/1)·2 + 10 = 16 µs.
        let s = stats(4, 1, 10_000, 6_000);
        assert_eq!(s.t_u_micros(), 2.0);
        assert_eq!(s.t_s_micros(), 10.0);
        assert_eq!(s.t_c_micros(), 16.0);
        // Before any success: (n_u + 1) · t_u = 3 · 2.5 µs.
        assert_eq!(stats(2, 0, 0, 5_000).t_c_micros(), 7.5);
        // The same formula over work units.
        assert_eq!(s.t_c_work(), 16_000.0);
        assert_eq!(stats(2, 0, 0, 5_000).t_c_work(), 7_500.0);
    }

    #[test]
    fn the_order_follows_work_not_time() {
        let mut t = MethodTable::default();
        // Linked cells 1 took longer by the clock but did less work than
        // single-cell: work decides.
        let mut single = stats(4, 4, 4_000, 0);
        single.work_success = 4_000_000;
        *t.get_mut(Method::SingleCell) = single;
        let mut pairs = stats(4, 4, 4_000_000, 0);
        pairs.work_success = 4_000;
        *t.get_mut(Method::LinkedCells1) = pairs;
        t.reorder();
        assert_eq!(t.order()[0], Method::LinkedCells1);
    }

    #[test]
    fn reorder_sorts_tried_methods_and_keeps_untried_slots() {
        let mut t = MethodTable::default();
        assert_eq!(t.order(), Method::RESEARCH_ORDER);
        // hypotheses measured cheaper than linked cells 1; linked cells 2
        // untried keeps the last slot.
        *t.get_mut(Method::SingleCell) = stats(10, 10, 10_000, 0); // 1 µs
        *t.get_mut(Method::LinkedCells1) = stats(10, 1, 50_000, 90_000); // 9·10+50
        *t.get_mut(Method::Hypotheses) = stats(2, 2, 60_000, 0); // 30 µs
        t.reorder();
        assert_eq!(
            t.order(),
            [
                Method::SingleCell,
                Method::Hypotheses,
                Method::LinkedCells1,
                Method::LinkedCells2
            ]
        );
    }
}
