//! The probability that each closed cell is a mine, exactly counted.
//!
//! # The maths
//!
//! Every layout of mines over the closed cells that fits the revealed
//! numbers, the flags and the total is equally likely; for a closed cell
//! `x`, `P(x) = (layouts with a mine on x) / (all layouts)`. Without the
//! total, a *density* `D` weighs a layout with `k` mines on the `n` closed
//! cells by `D^k (1 − D)^(n−k)` (independent cells with chance `D`,
//! conditioned on the numbers). When the position states the total, the
//! total is used (under a density, layouts with one fixed count all weigh
//! the same, so the density would change nothing).
//!
//! The layouts factor over the constraint system ([`crate::constraints`]):
//! frontier components are independent but for the total, and the `I`
//! interior cells take whatever the frontier leaves, `C(I, m)` ways for `m`
//! mines. So with `R` mines left,
//!
//! ```text
//! Z = Σ_{k_1..k_C} Π_c N_c(k_c) · C(I, R − Σ_c k_c)
//! ```
//!
//! where `N_c(k)` counts component `c`'s layouts with `k` mines; a frontier
//! cell's mine weight replaces its component's `N_c` by the layouts with a
//! mine on it; an interior cell is a mine in a fraction `(R − t)/I` of the
//! interior layouts left by a frontier total `t`, so all interior cells
//! share one probability. Under a density, the components are independent:
//! a component's layouts with `k` mines weigh `λ^k`, `λ = D/(1 − D)`, and
//! an interior cell is a mine with probability `D`.
//!
//! # How
//!
//! 1. [`System::build`] gives the equations, the components and the
//!    interior; each component's cells are grouped by the set of equations
//!    they lie in (binomial multiplicities) and its groups put in an
//!    elimination order (`component.rs`).
//! 2. Per component, a forward programme along that order counts the
//!    layouts of every prefix by state (the partial sums of the active
//!    equations) and mine count: `N_c(k)` at the end.
//! 3. The outer programme (`outer.rs`) combines the counts over the total:
//!    a balanced tree of convolutions, then, going down, each component's
//!    *outside weight* `ω_c(k)` (what the rest of the board contributes when
//!    the component holds `k` mines), the interior's mine and safe weights,
//!    and `log2 Z`. Under a density, `ω_c(k) = λ^k` (up to a common factor).
//! 4. Per component, a backward programme given `ω_c` gives each group's
//!    mine weight and safe weight; a cell's probability is
//!    `mine / (mine + safe)`.
//! 5. The exact number of layouts is summed in big integers only when asked
//!    ([`Probabilities::layouts`], `exact.rs`).
//!
//! # Packed programmes
//!
//! Positions with their total and at most 1000 closed cells, whose
//! components are not too wide or long, are counted by *packed*
//! programmes (`packed.rs`): the very programme of steps 1–4 (the same
//! breadth-first order, groups — cells that lie in the same equations, the
//! *boxes* of other solvers —, states numbered in the same order, the same
//! floating-point operations in the same order, so the same bits), with
//! the board read in one pass and each state of a layer held in one
//! machine word: a byte *lane* per open equation (at most 16), a step's
//! viability checked for all lanes at once by two subtractions. A packed
//! component's forward counts are integers below `2^53` (else the position
//! goes to the general programme), so they are exact and the exact number
//! of layouts needs no second pass. Anything else — a density, a larger
//! board, a component with more than 16 open equations at once, more than
//! 256 groups, a layer of more than 4,096 states, or one whose programmes
//! along the cheap orders (breadth-first from its first cell and from the
//! far end of that search, the sweeps of the rows and of the columns) are
//! all estimated too large (the general programme orders it greedily, told
//! so by the packed attempt) — is counted by the general programme from
//! the start.
//!
//! # Incremental counts
//!
//! A player asks for the position after revealing one cell, or after
//! setting a few to mines and safe cells, many times per move.
//! [`Probabilities::compute_changed`] counts such a position from the
//! count of the position before the change (both packed): a changed cell
//! `x` changes the equations of the numbers in its 3×3 block and no
//! other, and each of those numbers' variables lies in its own 3×3 block;
//! so every component holding `x` or such a variable is rebuilt from the
//! equations of its numbers and of the numbers next to `x`, and every
//! other component — the same cells, the same equations, so the same
//! programme — is taken as it is, with its forward layers (components are
//! shared by reference count). The outer programme and the backward passes
//! run as for a whole count, so the answer is the whole count's, bit for
//! bit (tested against the general programme and against enumeration).
//!
//! [`Probabilities::layouts_changed`] is the *forward-only* count: only the
//! number of layouts, for a trial that needs no probability (a 50/50
//! pattern's share, whether a layout fits). It runs the forward passes of
//! the rebuilt components and the outer programme up to `Z`, not the
//! outside weights nor the backward passes. Its count is the whole count's
//! as long as the whole count would not fall back to double-double (see
//! "Accuracy"): that is checked from a bound of every group's error bound
//! that needs no backward pass (each component keeps the most its backward
//! pass can add to the outside weights' error, and the outer programme
//! gives the outside weights' error without the weights); when it does not
//! hold, the position is computed whole.
//!
//! The cost is linear in the board (building the system) plus, per
//! component, `groups × states per layer × mine counts per layer` for each
//! pass, plus the outer tree, `Σ` over its nodes of the product of its
//! children's lengths (only components whose mine count can vary take
//! part). Nothing is enumerated; no component is too large to be counted
//! exactly, only too slow ([`Budget`]).
//!
//! # Accuracy
//!
//! Every probability is within [`ACCURACY`] (`1e-12`) of the exact
//! fraction, and exactly 0 or 1 iff the cell is forced (no layout has a
//! mine on it, or every layout has). The proof:
//!
//! - **Positive terms.** Every quantity computed is a sum of products of
//!   non-negative numbers. In floating point each operation rounds once,
//!   `fl(a ∘ b) = (a ∘ b)(1 + δ)`, `|δ| ≤ unit`, as long as nothing
//!   overflows or underflows. A product's value carries its factors'
//!   `(1 + δ)`s and its own; a sum of positive terms lies between the
//!   smallest and largest of its terms' relative errors, times its own
//!   `(1 + δ)`. So every computed value is the exact one times
//!   `Π (1 + δ_i)` with `Σ |δ_i| ≤ E`, where `E` is tallied per layer as
//!   the programmes run (per product and per addition along the longest
//!   chain, in `component.rs` and `outer.rs`), and
//!   `|Π (1 + δ_i) − 1| ≤ e^{E'} − 1` with `E' = E / (1 − unit)` (a
//!   quotient's `1/(1 + δ)` is a `1 + δ'` with `|δ'| ≤ |δ|/(1 − unit)`).
//!   The forward counts are integers: when every one of them is below
//!   `2^53` they were computed exactly in `f64` and their `E` is 0.
//! - **A probability** is `p = m / (m + s)` with `m`, `s` the mine and
//!   safe weights: `Σ|δ| ≤ 2E + unit` for the quotient of the computed
//!   weights, plus three `f64` roundings to produce it, so
//!   `|p̂ − p| ≤ p (e^{E'} − 1) ≤ e^{E'} − 1`. The bound is computed for
//!   every group and the interior; [`Probabilities::error_bound`] is their
//!   maximum plus `2^-53` (the nudges below).
//! - **No overflow, no underflow.** `f64` is used only where no value can
//!   leave `[2^-1022, 2^1000]`:
//!   - with the total and at most 1000 closed cells, everything is `f64`:
//!     every value is a count of (partial) layouts times a ratio of
//!     binomials `C(I, m) / C(I, m_ref) ∈ [1, 2^I]`, so it lies in
//!     `[1, 2^1000]` or is 0 ([`Precision::F64`]);
//!   - otherwise the outer programme runs in [`number::Wide`]
//!     (double-double mantissa, 64-bit exponent: no overflow or underflow,
//!     unit `16 · 2^-106`), and so does each component that needs it; a
//!     component of `n` cells runs in `f64` when `n ≤ 900` with the total
//!     (counts below `2^n`; its outside weights scaled to at most 1, and a
//!     positive one below `2^-1022` raised to it, which moves each weight
//!     by at most `2^-1022` and a probability by at most `2^(n − 1020)`,
//!     added to its bound), or when `n (1 + |log2 λ|) ≤ 1000` with a
//!     density (weights `λ^k` in `[2^-1000, 1]` relative to the largest)
//!     ([`Precision::Mixed`], or `F64` when every component is `f64`).
//! - **Fallback.** If the bound exceeds [`ACCURACY`] (very long
//!   components), the position is computed again with every component in
//!   `Wide` ([`Precision::DoubleDouble`]); a `Wide` bound above it (beyond
//!   any position that finishes) is refused
//!   ([`ProbabilityError::Inaccurate`]).
//! - **Zero and one.** A weight is zero in floating point iff it is zero
//!   exactly: no value underflows, and a sum or product of positive values
//!   is positive. So `p̂ = 0` iff `m = 0` (forced safe) and `p̂ = 1` iff
//!   `s = 0` (forced mine). A non-forced cell whose quotient rounds to 0 or
//!   1 is nudged to the nearest representable value inside `(0, 1)`
//!   (within `2^-53` of the rounded one). So no probability is NaN or
//!   outside `[0, 1]`, and forced cells agree with the complete analysis
//!   of [`crate::methods::hypotheses`] (tested).
//!
//! # Reuse
//!
//! [`Probabilities`] keeps its buffers from one call to the next (a player
//! asks many times per game), and its packed components for the counts
//! after changes; the exact count of layouts, which needs big integers, is
//! computed only by [`Probabilities::layouts`]. A count by the general
//! programme starts from empty buffers, the packed components given back,
//! so that whether a position fits the memory budget never depends on what
//! was counted before (the buffers are counted by capacity: see
//! `docs/internals.md`, "Budgets").

mod component;
mod exact;
#[doc(hidden)]
pub mod number;
mod outer;
mod packed;
pub(crate) mod range;

use crate::board::{Board, Contradiction};
use crate::budget::{Budget, OverBudget};
use crate::constraints::{Components, System};
use component::{backward, forward, BackScratch, Failure, GroupWeights, KeyScratch, Layers};
use component::{Held, Plan, PlanScratch};
use num_bigint::BigUint;
use number::{Count, Num, Wide, U64};
use outer::{combine, Counts};
use std::fmt;

/// Every probability is within this of the exact fraction.
pub const ACCURACY: f64 = 1e-12;

/// Largest `log2` magnitude the `f64` path may meet (see the module doc).
const F64_RANGE_BITS: f64 = 1000.0;

/// Why no probabilities were computed.
#[derive(Clone, Debug, PartialEq)]
pub enum ProbabilityError {
    /// No layout fits the position.
    Contradiction(Contradiction),
    /// The counting ran out of time or memory.
    OverBudget(OverBudget),
    /// The position does not state the total, and no density was given.
    NoMineCount,
    /// A density outside `(0, 1)`.
    BadDensity(f64),
    /// The proven error bound exceeds [`ACCURACY`] even in double-double.
    Inaccurate(f64),
}

impl fmt::Display for ProbabilityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbabilityError::Contradiction(c) => write!(f, "no mine layout fits: {}", c.reason),
            ProbabilityError::OverBudget(e) => e.fmt(f),
            ProbabilityError::NoMineCount => write!(
                f,
                "the position does not give the total number of mines and no density was given"
            ),
            ProbabilityError::BadDensity(d) => {
                write!(f, "density {d} is not strictly between 0 and 1")
            }
            ProbabilityError::Inaccurate(b) => write!(
                f,
                "the probabilities could only be guaranteed within {b:e}, above {ACCURACY:e}"
            ),
        }
    }
}

impl std::error::Error for ProbabilityError {}

/// The arithmetic the last computation used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// `f64` (the fast path).
    F64,
    /// Double-double with a 64-bit exponent ([`number::Wide`]).
    DoubleDouble,
    /// The outer programme in double-double, each component in `f64` when
    /// its values stay in range, in double-double when not.
    Mixed,
}

/// How layouts are weighed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Mode {
    /// The total is known: `remaining` mines on the closed cells.
    Total { remaining: u64 },
    /// Each closed cell is a mine with this chance, independently, given
    /// the numbers.
    Density(f64),
}

/// The mine probabilities of a position, with buffers reused between calls.
///
/// ```
/// use sapper_engine::budget::Budget;
/// use sapper_engine::probabilities::Probabilities;
/// use sapper_engine::{Board, Cell, Grid};
///
/// // `? 1 ?` with one mine in total: each side holds it half the time.
/// let cells = vec![Cell::Unknown, Cell::Revealed(1), Cell::Unknown];
/// let board = Board::new(Grid::new(1, 3), cells, Some(1));
/// let mut p = Probabilities::new();
/// p.compute(&board, None, &Budget::unlimited()).unwrap();
/// assert_eq!(p.probability(0), Some(0.5));
/// assert_eq!(p.probability(1), None); // not closed
/// assert_eq!(p.least(), Some(0.5));
/// assert_eq!(p.safest(), [0, 2]);
/// assert_eq!(p.layouts(&Budget::unlimited()).unwrap().to_string(), "2");
/// ```
#[derive(Default)]
pub struct Probabilities {
    /// Per cell of the grid; NaN for cells that are not closed.
    per_cell: Vec<f64>,
    closed: Vec<u32>,
    log10_layouts: f64,
    log10_weight: f64,
    error_bound: f64,
    /// The last board's system (valid when `mode` is set), kept for
    /// [`Probabilities::layouts`] and for its buffers.
    system: System,
    components: Components,
    /// The first `plans` plans are the current components'.
    plan_pool: Vec<Plan>,
    plans: usize,
    known_counts: Vec<Option<(u32, Vec<u64>)>>,
    mode: Option<Mode>,
    interior: u64,
    precision: Option<Precision>,
    /// Buffers.
    plan_scratch: PlanScratch,
    work: Work,
    /// The packed programmes' components and buffers.
    packed: packed::Packed,
}

/// What one run writes.
struct Output<'a> {
    per_cell: &'a mut [f64],
    error_bound: f64,
    log2_layouts: f64,
    /// `log2` of the layouts' total weight ([`Probabilities::log10_weight`]).
    log2_weight: f64,
    known_counts: &'a mut Vec<Option<(u32, Vec<u64>)>>,
}

impl Probabilities {
    /// Probabilities of no board yet, with empty buffers (the same as
    /// `Probabilities::default()`): call [`Probabilities::compute`] first.
    pub fn new() -> Probabilities {
        Probabilities::default()
    }

    /// Computes the probabilities of `board`: with its total if it states
    /// one, else with `density`; neither is an error. On success the
    /// accessors answer for this board until the next call.
    pub fn compute(
        &mut self,
        board: &Board,
        density: Option<f64>,
        budget: &Budget,
    ) -> Result<(), ProbabilityError> {
        self.compute_within(board, density, budget, Ask::WORDED)
            .map_err(|stop| stop.explained(board))
    }

    /// [`Probabilities::compute`] for a caller that only needs to know
    /// whether some layout fits — a player trying each number a cell could
    /// show: `Ok(false)` when none does, without working out why (which
    /// takes a complete analysis, [`crate::methods::hypotheses`]), `Ok(true)`
    /// when the probabilities are computed; the other errors as `compute`
    /// gives them.
    pub fn compute_if_consistent(
        &mut self,
        board: &Board,
        density: Option<f64>,
        budget: &Budget,
    ) -> Result<bool, ProbabilityError> {
        let ask = Ask {
            worded: false,
            ..Ask::WORDED
        };
        Self::consistent(self.compute_within(board, density, budget, ask))
    }

    /// [`Probabilities::compute_if_consistent`] of `board`, a position
    /// that differs from the one `base` holds the probabilities of only in
    /// the cells `changed` (a player revealing a cell it considers, or
    /// setting a few cells to mines and safe cells): the frontier
    /// components no changed cell touches are taken from `base` as they
    /// are counted there, and only the others are counted. The answer is
    /// the one `compute_if_consistent` gives, bit for bit (the components
    /// are the same programmes either way); when `base` was not counted
    /// by packed programmes (see the module doc, "Incremental counts"),
    /// `board` is counted whole.
    ///
    /// The caller vouches for `changed`: a cell that differs but is not
    /// listed makes the answer wrong.
    pub fn compute_changed(
        &mut self,
        board: &Board,
        base: &Probabilities,
        changed: &[u32],
        density: Option<f64>,
        budget: &Budget,
    ) -> Result<bool, ProbabilityError> {
        let from = (base.packed.used && base.per_cell.len() == board.grid().len())
            .then_some((base, changed));
        let ask = Ask {
            worded: false,
            from,
            ..Ask::WORDED
        };
        Self::consistent(self.compute_within(board, density, budget, ask))
    }

    /// The number of layouts (`log10`, [`Probabilities::log10_layouts`])
    /// of `board`, a position that differs from the one `base` holds the
    /// probabilities of only in the cells `changed`, or `None` when no
    /// layout fits: a player's trial that needs the count alone (a
    /// pattern's share of the layouts, whether a layout fits). It is the
    /// count [`Probabilities::compute_changed`] gives, bit for bit, but no
    /// probability is computed: only the components the changes touch are
    /// counted, forward only (the counts, not the probabilities, see the
    /// module doc). Afterwards this counter holds no probabilities (as
    /// after a failed computation) until the next computation.
    pub fn layouts_changed(
        &mut self,
        board: &Board,
        base: &Probabilities,
        changed: &[u32],
        density: Option<f64>,
        budget: &Budget,
    ) -> Result<Option<f64>, ProbabilityError> {
        let packed = base.packed.used
            && base.per_cell.len() == board.grid().len()
            && board.unknown_count() as f64 <= F64_RANGE_BITS;
        if let (true, Some(remaining)) = (packed, board.remaining_mines()) {
            self.mode = None;
            self.precision = None;
            self.per_cell.clear();
            self.closed.clear();
            self.packed.used = false;
            if remaining < 0 {
                return Ok(None);
            }
            let from = packed::Dirty {
                parts: &base.packed.parts,
                part_of: &base.packed.part_of,
                changed,
                closed: &base.closed,
            };
            let counted = self.packed.count(
                board,
                remaining as u64,
                Some(from),
                &mut self.closed,
                budget,
                &mut self.work.keys,
                None,
            );
            match counted {
                Ok(log2) => return Ok(Some(log2 * std::f64::consts::LOG10_2)),
                Err(packed::Unpacked::NoLayout) => return Ok(None),
                Err(packed::Unpacked::Failed(f)) => {
                    return match Stop::from(f) {
                        Stop::NoLayout => Ok(None),
                        Stop::Error(e) => Err(e),
                    }
                }
                // Counted by the general programme, with its
                // probabilities.
                Err(packed::Unpacked::General) => {}
            }
        }
        Ok(self
            .compute_changed(board, base, changed, density, budget)?
            .then(|| self.log10_layouts()))
    }

    /// What [`Probabilities::compute_if_consistent`] answers for a
    /// computation's result.
    fn consistent(result: Result<(), Stop>) -> Result<bool, ProbabilityError> {
        match result {
            Ok(()) => Ok(true),
            Err(Stop::NoLayout | Stop::Error(ProbabilityError::Contradiction(_))) => Ok(false),
            Err(Stop::Error(e)) => Err(e),
        }
    }

    /// [`Probabilities::compute`] as `ask` says; a board no layout fits is
    /// left unexplained (but see [`Ask::worded`]). After a failure no
    /// cell has a probability.
    fn compute_within(
        &mut self,
        board: &Board,
        density: Option<f64>,
        budget: &Budget,
        ask: Ask<'_>,
    ) -> Result<(), Stop> {
        let result = self.compute_asked(board, density, budget, ask);
        if result.is_err() {
            self.per_cell.clear();
            self.closed.clear();
        }
        result
    }

    /// [`Probabilities::compute_within`], but for what a failure leaves.
    fn compute_asked(
        &mut self,
        board: &Board,
        density: Option<f64>,
        budget: &Budget,
        ask: Ask<'_>,
    ) -> Result<(), Stop> {
        let Ask {
            accuracy,
            wide_only,
            packed,
            worded,
            from,
        } = ask;
        let n = board.grid().len();
        self.packed.used = false;
        // Every cell is written below: NaN, or the cell's probability.
        if self.per_cell.len() != n {
            self.per_cell.clear();
            self.per_cell.resize(n, f64::NAN);
        }
        self.closed.clear();
        self.mode = None;
        self.precision = None;
        self.error_bound = 0.0;
        let mode = match board.remaining_mines() {
            Some(r) if r < 0 => return Err(Stop::NoLayout),
            Some(r) => Mode::Total {
                remaining: r as u64,
            },
            None => match density {
                Some(d) if d > 0.0 && d < 1.0 => Mode::Density(d),
                Some(d) => return Err(ProbabilityError::BadDensity(d).into()),
                None => return Err(ProbabilityError::NoMineCount.into()),
            },
        };
        let mut tried_packed = false;
        if let (Mode::Total { remaining }, false, true) = (mode, wide_only, packed) {
            if board.unknown_count() as f64 <= F64_RANGE_BITS {
                tried_packed = true;
                let mut out = Output {
                    per_cell: &mut self.per_cell,
                    error_bound: 0.0,
                    log2_layouts: 0.0,
                    log2_weight: 0.0,
                    known_counts: &mut self.known_counts,
                };
                let from = from.map(|(base, changed)| packed::Dirty {
                    parts: &base.packed.parts,
                    part_of: &base.packed.part_of,
                    changed,
                    closed: &base.closed,
                });
                let counted = self.packed.count(
                    board,
                    remaining,
                    from,
                    &mut self.closed,
                    budget,
                    &mut self.work.keys,
                    Some(&mut out),
                );
                match counted {
                    Ok(_) if out.error_bound <= accuracy => {
                        self.precision = Some(Precision::F64);
                        self.error_bound = out.error_bound;
                        self.log10_layouts = out.log2_layouts * std::f64::consts::LOG10_2;
                        self.log10_weight = out.log2_weight * std::f64::consts::LOG10_2;
                        self.mode = Some(mode);
                        return Ok(());
                    }
                    Err(packed::Unpacked::NoLayout) if !worded => return Err(Stop::NoLayout),
                    Err(packed::Unpacked::Failed(f)) => return Err(f.into()),
                    // Counted by the general programme, from the start.
                    _ => {}
                }
            }
        }
        // The general programme starts from empty buffers, the packed
        // parts given back: whether it fits the memory budget does not
        // depend on what this counter counted before.
        self.packed.release();
        self.work = Work::default();
        self.per_cell.fill(f64::NAN);
        self.closed.clear();
        self.closed
            .extend((0..n as u32).filter(|&i| board.cell(i).is_unknown()));
        self.system
            .rebuild(board)
            .map_err(ProbabilityError::Contradiction)?;
        let system = &self.system;
        system.components_into(&mut self.components);
        let components = self.components.as_slice();
        self.plan_scratch.prepare(system);
        // Plans, like the layers, start empty.
        self.plan_pool.clear();
        self.plan_pool.resize_with(components.len(), Plan::default);
        self.plans = components.len();
        // What the packed programme, if it was tried on this board just
        // now, found about the components' orders.
        let greedy = if tried_packed {
            self.packed.greedy()
        } else {
            &[]
        };
        // Each plan's steps are checked against the memory budget beside
        // the plans built before it.
        let mut plan_bytes = 0;
        for (plan, component) in self.plan_pool.iter_mut().zip(components) {
            let first = system.cell(component.vars[0]);
            plan.rebuild(
                system,
                component,
                &mut self.plan_scratch,
                greedy.contains(&first),
                budget,
                plan_bytes,
            )
            .map_err(ProbabilityError::OverBudget)?;
            plan_bytes += plan.bytes();
        }
        let plans = &self.plan_pool[..self.plans];
        self.interior = system.interior().len() as u64;
        let mut out = Output {
            per_cell: &mut self.per_cell,
            error_bound: 0.0,
            log2_layouts: 0.0,
            log2_weight: 0.0,
            known_counts: &mut self.known_counts,
        };
        let closed = self.closed.len();
        let interior = self.interior;
        let work = &mut self.work;
        // One pass over the components: in double-double, or `wide`
        // (big-integer exact) when the fast pass is not accurate enough.
        let mut pass = |wide: bool, out: &mut Output| {
            run(
                system, plans, mode, interior, closed, budget, work, out, wide,
            )
            .map_err(Stop::from)
        };
        let mut precision = Precision::DoubleDouble;
        let mut done = false;
        if !wide_only {
            precision = pass(false, &mut out)?;
            done = out.error_bound <= accuracy;
        }
        if !done {
            out.error_bound = 0.0;
            precision = pass(true, &mut out)?;
            if out.error_bound > accuracy {
                return Err(ProbabilityError::Inaccurate(out.error_bound).into());
            }
        }
        self.precision = Some(precision);
        self.error_bound = out.error_bound;
        self.log10_layouts = out.log2_layouts * std::f64::consts::LOG10_2;
        self.log10_weight = out.log2_weight * std::f64::consts::LOG10_2;
        self.mode = Some(mode);
        Ok(())
    }

    /// Whether the last successful computation ran the packed programmes
    /// (see the module doc), so that it can serve as the `base` of
    /// [`Probabilities::compute_changed`] (tests and benches ask).
    #[doc(hidden)]
    pub fn counted_packed(&self) -> bool {
        self.packed.used
    }

    /// The arithmetic the last successful computation used.
    pub fn precision(&self) -> Option<Precision> {
        self.precision
    }

    /// The mine probability of `cell`, `None` if it is not closed.
    #[inline]
    pub fn probability(&self, cell: u32) -> Option<f64> {
        let p = *self.per_cell.get(cell as usize)?;
        (!p.is_nan()).then_some(p)
    }

    /// Every cell's mine probability in cell order, NaN for the cells that
    /// are not closed (a view for bulk output; [`Probabilities::probability`]
    /// answers one cell).
    pub fn per_cell(&self) -> &[f64] {
        &self.per_cell
    }

    /// The closed cells, in cell order.
    pub fn closed_cells(&self) -> &[u32] {
        &self.closed
    }

    /// `log10` of the number of layouts (with a density: of the layouts
    /// that fit the numbers and flags, any number of mines).
    pub fn log10_layouts(&self) -> f64 {
        self.log10_layouts
    }

    /// `log10` of the layouts' total weight: with a total, every layout
    /// weighs 1 (so this is [`Probabilities::log10_layouts`]); with a
    /// density `D`, a layout with `k` mines on the `n` closed cells weighs
    /// `D^k (1 − D)^(n − k)`, so the total is the chance that the numbers
    /// hold when each closed cell is a mine with chance `D` on its own.
    /// The chance that a closed cell `c` is safe and shows `v` is then the
    /// weight after `c` shows `v` over the weight before, times `1 − D`
    /// under a density (the weight of `c` itself).
    pub fn log10_weight(&self) -> f64 {
        self.log10_weight
    }

    /// A proven bound on `|computed − exact|` of every probability (at
    /// most [`ACCURACY`]).
    pub fn error_bound(&self) -> f64 {
        self.error_bound
    }

    /// The least mine probability of a closed cell (`None` when no cell is
    /// closed).
    pub fn least(&self) -> Option<f64> {
        // Every cell in order; the others' NaN are no minimum.
        (!self.closed.is_empty()).then(|| self.per_cell.iter().copied().fold(f64::NAN, f64::min))
    }

    /// The closed cells of least mine probability, in cell order: the
    /// forced-safe cells if there are any, else every cell within twice
    /// the error bound of the least probability (closer than that, the
    /// computation cannot tell them apart).
    pub fn safest(&self) -> Vec<u32> {
        self.safest_cells().collect()
    }

    /// [`Probabilities::safest`] without collecting them.
    pub fn safest_cells(&self) -> impl Iterator<Item = u32> + '_ {
        let reach = match self.least() {
            Some(least) if least > 0.0 => least + 2.0 * self.error_bound,
            // Forced-safe cells, or no closed cell (nothing to filter).
            _ => 0.0,
        };
        // Every cell in order; the others' NaN are below no reach.
        (0..self.per_cell.len() as u32).filter(move |&c| self.per_cell[c as usize] <= reach)
    }

    /// The exact number of layouts (with a density: of the layouts that
    /// fit the numbers and flags, any number of mines), after a successful
    /// [`Probabilities::compute`]. Big integers: an expert position has
    /// about `10^100` layouts.
    pub fn layouts(&mut self, budget: &Budget) -> Result<BigUint, ProbabilityError> {
        let (system, Some(mode)) = (&self.system, self.mode) else {
            panic!("Probabilities::layouts before a successful compute");
        };
        if self.packed.used {
            return exact::layouts_of(
                self.packed.exact_counts(),
                mode,
                self.packed.interior,
                budget,
            )
            .map_err(ProbabilityError::OverBudget);
        }
        let plans = self.plans;
        let held = self.work.f64.bytes(plans) + self.work.wide.bytes(plans);
        exact::layouts(
            system,
            &self.plan_pool[..plans],
            &self.known_counts,
            mode,
            self.interior,
            &mut self.work.keys,
            budget,
            held,
        )
        .map_err(ProbabilityError::OverBudget)
    }
}

/// How [`Probabilities::compute_within`] is asked to compute.
#[derive(Clone, Copy)]
struct Ask<'a> {
    /// The accuracy to guarantee.
    accuracy: f64,
    /// Skip the `f64` paths (tests).
    wide_only: bool,
    /// Try the packed programmes first (tests turn it off to compare).
    packed: bool,
    /// A board no layout fits gets the contradiction the constraint
    /// system words (a number that cannot be met) where there is one, as
    /// the general programme finds it.
    worded: bool,
    /// A counted position this one differs from in the listed cells
    /// ([`Probabilities::compute_changed`]).
    from: Option<(&'a Probabilities, &'a [u32])>,
}

impl Ask<'_> {
    /// What [`Probabilities::compute`] asks.
    const WORDED: Ask<'static> = Ask {
        accuracy: ACCURACY,
        wide_only: false,
        packed: true,
        worded: true,
        from: None,
    };
}

/// Why [`Probabilities::compute_within`] stopped.
#[derive(Debug)]
enum Stop {
    /// No layout fits (not explained yet: see [`Stop::explained`]).
    NoLayout,
    Error(ProbabilityError),
}

impl Stop {
    /// The error [`Probabilities::compute`] gives: a board no layout fits
    /// as a contradiction the complete analysis words.
    fn explained(self, board: &Board) -> ProbabilityError {
        match self {
            Stop::NoLayout => contradiction(board),
            Stop::Error(e) => e,
        }
    }
}

impl From<ProbabilityError> for Stop {
    fn from(e: ProbabilityError) -> Stop {
        Stop::Error(e)
    }
}

impl From<Failure> for Stop {
    fn from(f: Failure) -> Stop {
        match f {
            Failure::NoLayout => Stop::NoLayout,
            Failure::OverBudget(e) => Stop::Error(ProbabilityError::OverBudget(e)),
        }
    }
}

/// The contradiction of a board no layout fits, as the complete analysis
/// words it (only reached on such boards).
fn contradiction(board: &Board) -> ProbabilityError {
    let mut out = Vec::new();
    match crate::methods::hypotheses::find(board, None, &mut out) {
        Err(c) => ProbabilityError::Contradiction(c),
        Ok(()) => {
            unreachable!("hypotheses is complete: a board without layouts is a contradiction")
        }
    }
}

/// Buffers of the programmes, reused between calls: the key scratch, and
/// per number type its [`Buffers`].
#[derive(Default)]
struct Work {
    keys: KeyScratch,
    f64: Buffers<f64>,
    wide: Buffers<Wide>,
}

/// What the components counted in one number type keep: each component's
/// forward layers, and the backward pass's scratch and group weights. The
/// steps of [`run`] on one component, generic over the number type.
struct Buffers<T> {
    layers: Vec<Layers<T>>,
    back: BackScratch<T>,
    groups: Vec<GroupWeights<T>>,
}

impl<T> Default for Buffers<T> {
    fn default() -> Self {
        Buffers {
            layers: Vec::new(),
            back: BackScratch::default(),
            groups: Vec::new(),
        }
    }
}

impl<T: Num> Buffers<T> {
    /// Room for the layers of `n` components.
    fn reserve(&mut self, n: usize) {
        if self.layers.len() < n {
            self.layers.resize_with(n, Layers::default);
        }
    }

    /// Bytes the layers of the first `n` components and the backward
    /// pass's buffers hold.
    fn bytes(&self, n: usize) -> usize {
        self.layers.iter().take(n).map(Layers::bytes).sum::<usize>() + self.back.bytes()
    }

    /// Component `c`'s forward pass, beside what the components before it
    /// hold; adds what it holds to `held`.
    fn forward(
        &mut self,
        c: usize,
        plan: &Plan,
        system: &System,
        keys: &mut KeyScratch,
        budget: &Budget,
        held: &mut Held,
    ) -> Result<(), Failure> {
        let layers = &mut self.layers[c];
        forward(plan, system, keys, budget, *held, layers, true)?;
        held.kept += layers.bytes();
        held.backward = held.backward.max(layers.backward_bytes());
        Ok(())
    }

    /// Component `c`'s backward pass under the outside weights `omega`
    /// (within `omega_err`), its groups' probabilities written into
    /// `per_cell`; returns their largest error bound.
    #[allow(clippy::too_many_arguments)]
    fn backward(
        &mut self,
        c: usize,
        plan: &Plan,
        system: &System,
        omega: &[T],
        omega_err: f64,
        keys: &mut KeyScratch,
        budget: &Budget,
        per_cell: &mut [f64],
    ) -> Result<f64, Failure> {
        backward(
            plan,
            system,
            &self.layers[c],
            omega,
            omega_err,
            &mut self.back,
            keys,
            budget,
            &mut self.groups,
        )?;
        Ok(set_groups(plan, system, &self.groups, per_cell))
    }
}

/// The number type of one component's programmes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    F64,
    Wide,
}

/// A component's counts from its forward pass, in its own type.
fn forward_counts(work: &Work, c: usize, kind: Kind) -> (u32, Vec<Wide>, f64) {
    match kind {
        Kind::F64 => {
            let (lo, n, err) = work.f64.layers[c].counts();
            (lo, n.iter().map(|&x| Wide::from_f64(x)).collect(), err)
        }
        Kind::Wide => {
            let (lo, n, err) = work.wide.layers[c].counts();
            (lo, n.to_vec(), err)
        }
    }
}

/// One full computation (see the module doc, "Accuracy"): everything in
/// `f64` for a small position with its total; otherwise the outer
/// programme in `Wide` and each component in `f64` when its values cannot
/// leave the range, in `Wide` if not (`all_wide`: every component in
/// `Wide`). Returns the precision used.
#[allow(clippy::too_many_arguments)]
fn run(
    system: &System,
    plans: &[Plan],
    mode: Mode,
    interior: u64,
    closed: usize,
    budget: &Budget,
    work: &mut Work,
    out: &mut Output<'_>,
    all_wide: bool,
) -> Result<Precision, Failure> {
    if let Mode::Total { remaining } = mode {
        if !all_wide && closed as f64 <= F64_RANGE_BITS {
            run_total_f64(system, plans, remaining, interior, budget, work, out)?;
            return Ok(Precision::F64);
        }
    }
    let kinds: Vec<Kind> = plans
        .iter()
        .map(|p| {
            let bits = match mode {
                Mode::Total { .. } => p.cells() as f64 + F64_WEIGHT_MARGIN_BITS,
                Mode::Density(d) => p.cells() as f64 * (1.0 + (d / (1.0 - d)).log2().abs()),
            };
            if all_wide || bits > F64_RANGE_BITS {
                Kind::Wide
            } else {
                Kind::F64
            }
        })
        .collect();
    work.f64.reserve(plans.len());
    work.wide.reserve(plans.len());
    // The plans are kept throughout; a pass in `Wide` after one in `f64`
    // keeps the latter's buffers. Each number type's backward passes share
    // their buffers: one type's most counts beside the other's components.
    let kept = plans.iter().map(Plan::bytes).sum::<usize>()
        + all_wide as usize * work.f64.bytes(plans.len());
    let (mut f64s, mut wides) = (Held { kept, backward: 0 }, Held::default());
    for (c, plan) in plans.iter().enumerate() {
        let keys = &mut work.keys;
        let (this, other) = match kinds[c] {
            Kind::F64 => (&mut f64s, &mut wides),
            Kind::Wide => (&mut wides, &mut f64s),
        };
        let mut held = Held {
            kept: this.kept + other.kept + other.backward,
            backward: this.backward,
        };
        match kinds[c] {
            Kind::F64 => work.f64.forward(c, plan, system, keys, budget, &mut held)?,
            Kind::Wide => work
                .wide
                .forward(c, plan, system, keys, budget, &mut held)?,
        }
        this.kept = held.kept - other.kept - other.backward;
        this.backward = held.backward;
    }
    out.known_counts.clear();
    for (c, &kind) in kinds.iter().enumerate() {
        out.known_counts.push(match kind {
            Kind::F64 => exact_counts(&work.f64.layers[c]),
            Kind::Wide => None,
        });
    }
    let counts: Vec<(u32, Vec<Wide>, f64)> = (0..plans.len())
        .map(|c| forward_counts(work, c, kinds[c]))
        .collect();
    // Each component's outside weights, in `Wide`.
    let (omegas, omega_errs): (Vec<Vec<Wide>>, Vec<f64>) = match mode {
        Mode::Total { remaining } => {
            let views: Vec<Counts<'_, Wide>> = counts
                .iter()
                .map(|(lo, n, err)| Counts {
                    lo: *lo,
                    counts: n,
                    err: *err,
                })
                .collect();
            let combined = combine(&views, remaining, interior, budget, &mut work.keys)?;
            if let Some(w) = &combined.interior {
                let (p, b) = probability(w);
                out.error_bound = out.error_bound.max(b);
                for &cell in system.interior() {
                    out.per_cell[cell as usize] = p;
                }
            }
            out.log2_layouts = combined.log2_layouts;
            out.log2_weight = combined.log2_layouts;
            (combined.omega, combined.omega_err)
        }
        Mode::Density(d) => {
            // The interior cells weigh 1 in all (any of them may be a
            // mine); a component of `m` cells with `n(k)` layouts of `k`
            // mines weighs `(1 − D)^m Σ n(k) λ^k`.
            let (log2_lambda, log2_safe) = ((d / (1.0 - d)).log2(), (1.0 - d).log2());
            let (mut log2_layouts, mut log2_weight) = (interior as f64, 0.0);
            let weights = counts
                .iter()
                .zip(plans)
                .map(|((lo, n, _), plan)| {
                    let total = n.iter().fold(Wide::ZERO, |a, &x| a.add(x));
                    log2_layouts += total.log2();
                    // `omega` is `λ^k` over the largest of them.
                    let (omega, err, largest) = density_weights::<Wide>(d, n.len());
                    let top = *lo + largest as u32;
                    let sum = n
                        .iter()
                        .zip(&omega)
                        .fold(Wide::ZERO, |a, (&x, &w)| a.add(x.mul(w)));
                    log2_weight +=
                        sum.log2() + f64::from(top) * log2_lambda + plan.cells() as f64 * log2_safe;
                    (omega, err)
                })
                .unzip();
            for &cell in system.interior() {
                out.per_cell[cell as usize] = d;
            }
            out.log2_layouts = log2_layouts;
            out.log2_weight = log2_weight;
            weights
        }
    };
    for (c, plan) in plans.iter().enumerate() {
        let keys = &mut work.keys;
        let bound = match kinds[c] {
            Kind::Wide => work.wide.backward(
                c,
                plan,
                system,
                &omegas[c],
                omega_errs[c],
                keys,
                budget,
                out.per_cell,
            )?,
            Kind::F64 => {
                // The weights scaled to at most 1 and rounded to f64; a
                // positive weight below the normal range is raised to
                // 2^-1022 so that zero stays "no layout" (see "Accuracy").
                let (omega, err, raised) = to_f64_weights(&omegas[c], omega_errs[c]);
                let raised = if raised {
                    raised_weight_error(plan.cells())
                } else {
                    0.0
                };
                work.f64
                    .backward(c, plan, system, &omega, err, keys, budget, out.per_cell)?
                    + raised
            }
        };
        out.error_bound = out.error_bound.max(bound);
    }
    out.error_bound += U64;
    Ok(if kinds.iter().all(|&k| k == Kind::Wide) {
        Precision::DoubleDouble
    } else if kinds.iter().all(|&k| k == Kind::F64) && matches!(mode, Mode::Density(_)) {
        Precision::F64
    } else {
        Precision::Mixed
    })
}

/// The density weights of a component's counts `lo..lo + len`: `λ^k`
/// relative to the largest, so all in `(0, 1]`: `λ^(k − lo)` when `λ ≤ 1`,
/// `λ^-(lo + len − 1 − k)` when not; `λ = D/(1 − D)` takes two roundings
/// (three for its inverse) and each power one more. Also returns the
/// index of the largest (weight 1): 0 when `λ ≤ 1`, `len − 1` when not.
fn density_weights<T: Num>(d: f64, len: usize) -> (Vec<T>, f64, usize) {
    let lambda = d / (1.0 - d);
    let falling = lambda <= 1.0;
    let step = T::from_f64(if falling { lambda } else { 1.0 / lambda });
    let step_err = if falling { 2.0 } else { 3.0 } * U64;
    let mut omega = vec![T::zero(); len];
    let mut w = T::one();
    for k in 0..len {
        let at = if falling { k } else { len - 1 - k };
        omega[at] = w;
        w = w.mul(step);
    }
    let largest = if falling { 0 } else { len.saturating_sub(1) };
    (omega, (step_err + T::UNIT) * len as f64, largest)
}

/// Margin kept below `F64_RANGE_BITS` for a component computed in `f64`
/// under outside weights from `Wide`: its counts stay below `2^n`, its
/// weights in `[2^-1022, 1]`, and raising a weight below `2^-1022` changes
/// its probabilities by at most `2^(n − 1020)` (see `raised_weight_error`).
const F64_WEIGHT_MARGIN_BITS: f64 = 100.0;

/// `Wide` outside weights as `f64` relative to their largest (a power of
/// two, exact), rounded once; positive ones below `2^-1022` raised to it
/// (the third value says whether any was).
fn to_f64_weights(omega: &[Wide], err: f64) -> (Vec<f64>, f64, bool) {
    let top = omega
        .iter()
        .filter(|w| !w.is_zero())
        .map(|w| w.log2().floor() as i64)
        .max()
        .unwrap_or(0);
    let mut raised = false;
    let converted = omega
        .iter()
        .map(|&w| {
            if w.is_zero() {
                return 0.0;
            }
            let x = w.to_f64_scaled(top + 1);
            if x < f64::MIN_POSITIVE {
                raised = true;
                return f64::MIN_POSITIVE;
            }
            x
        })
        .collect();
    (converted, err + U64, raised)
}

/// The most raising weights below `2^-1022` to `2^-1022` can move a
/// probability of a component of `n` cells: the mine and safe weights
/// change by at most `2^-1022 · 2^n` each (at most `2^n` layouts), while
/// their sum is at least the largest weight, `≥ 1/2`.
fn raised_weight_error(n: usize) -> f64 {
    (2.0f64).powi(n as i32 - 1020)
}

/// A component's counts as integers when the forward pass held them
/// exactly.
fn exact_counts(layers: &Layers<f64>) -> Option<(u32, Vec<u64>)> {
    let (lo, counts, err) = layers.counts();
    if err != 0.0 {
        return None;
    }
    let ints: Option<Vec<u64>> = counts.iter().map(|x| x.exact_u64()).collect();
    ints.map(|v| (lo, v))
}

/// Everything in `f64`: a position with its total and at most 1000 closed
/// cells, where no value can leave `[1, 2^1000]` (see "Accuracy").
fn run_total_f64(
    system: &System,
    plans: &[Plan],
    remaining: u64,
    interior: u64,
    budget: &Budget,
    work: &mut Work,
    out: &mut Output<'_>,
) -> Result<(), Failure> {
    let buffers = &mut work.f64;
    buffers.reserve(plans.len());
    let mut held = Held {
        kept: plans.iter().map(Plan::bytes).sum(),
        backward: 0,
    };
    for (c, plan) in plans.iter().enumerate() {
        buffers.forward(c, plan, system, &mut work.keys, budget, &mut held)?;
    }
    let layers = &buffers.layers[..plans.len()];
    out.known_counts.clear();
    out.known_counts.extend(layers.iter().map(exact_counts));
    let counts: Vec<Counts<'_, f64>> = layers
        .iter()
        .map(|l| {
            let (lo, counts, err) = l.counts();
            Counts { lo, counts, err }
        })
        .collect();
    let combined = combine(&counts, remaining, interior, budget, &mut work.keys)?;
    let mut bound = 0.0f64;
    for (c, plan) in plans.iter().enumerate() {
        let b = buffers.backward(
            c,
            plan,
            system,
            &combined.omega[c],
            combined.omega_err[c],
            &mut work.keys,
            budget,
            out.per_cell,
        )?;
        bound = bound.max(b);
    }
    if let Some(w) = combined.interior {
        let (p, b) = probability(&w);
        bound = bound.max(b);
        for &cell in system.interior() {
            out.per_cell[cell as usize] = p;
        }
    }
    out.log2_layouts = combined.log2_layouts;
    out.log2_weight = combined.log2_layouts;
    out.error_bound = bound + U64;
    Ok(())
}

/// Writes the probability of every group's cells; returns the largest
/// error bound.
fn set_groups<T: Num>(
    plan: &Plan,
    system: &System,
    groups: &[GroupWeights<T>],
    per_cell: &mut [f64],
) -> f64 {
    let mut bound = 0.0f64;
    for (i, w) in groups.iter().enumerate() {
        let (p, b) = probability(w);
        bound = bound.max(b);
        for &var in plan.group(i) {
            per_cell[system.cell(var) as usize] = p;
        }
    }
    bound
}

/// `mine / (mine + safe)` and its error bound (see "Accuracy").
fn probability<T: Num>(w: &GroupWeights<T>) -> (f64, f64) {
    if w.mine.is_zero() {
        return (0.0, 0.0);
    }
    if w.safe.is_zero() {
        return (1.0, 0.0);
    }
    let p = T::ratio(w.mine, w.mine.add(w.safe));
    let deltas = 2.0 * w.err + T::UNIT + 3.0 * U64;
    let bound = (deltas / (1.0 - U64)).exp_m1() + f64::from_bits(1);
    // Neither forced: keep it strictly inside (0, 1).
    (p.clamp(f64::from_bits(1), 1.0 - U64), bound)
}

#[cfg(test)]
mod tests;
