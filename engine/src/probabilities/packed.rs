//! Packed programmes: the counting programme of `component.rs` for the
//! frontier components of real play, each state held in one machine word,
//! the board read once, and the components kept for the next count.
//!
//! # The same programme
//!
//! A component's cells are grouped (*boxes*: cells that lie in exactly the
//! same equations) and its groups decided one by one along the
//! breadth-first order of `component.rs`; the states, their numbering
//! (the order they are first reached), the layers' mine-count ranges and
//! every floating-point operation of the forward and backward passes are
//! those of `component.rs`, in the same order. So a packed count gives the
//! very bits the general programme gives (tested), and everything said of
//! accuracy in the parent's module doc holds unchanged.
//!
//! # One word per state
//!
//! A state is the vector of partial sums of the equations open after a
//! step. Each equation gets a byte *lane* of a `u128` when it opens and
//! frees it when it closes, so a component whose steps never hold more
//! than sixteen open equations has every state in one word (a `u64` when
//! eight are enough). Deciding a group
//! with `j` mines adds `j` to the lanes of its equations; the step is
//! viable iff every lane lies in `[target − left, target]` (its target
//! minus the cells it has left undecided, and its target), which two
//! subtractions check for all lanes at once: a lane's value is below
//! `2^7`, so with its top bit set beforehand, `(x | H) − lo` keeps that
//! bit iff `x ≥ lo` and `(hi | H) − x` iff `x ≤ hi`, and no borrow crosses
//! into the next lane. The closing equations' lanes are then cleared
//! (their value is their target), and the new state is looked up among the
//! layer's words.
//!
//! # Exact counts only
//!
//! A packed component counts its layouts exactly: every forward value is
//! an integer below `2^53` (else the position is counted by the general
//! programme), so its forward error is 0 and the exact layout count needs
//! no second pass.
//!
//! # Which positions
//!
//! A position is counted packed when its total is known, it has at most
//! 1000 closed cells (so everything is `f64`, see the parent's module doc),
//! and every component is packed: at most sixteen open equations at a
//! time, at most [`MAX_GROUPS`] groups, at most 4,096 states in a layer,
//! an estimated programme of at most [`MAX_STATES`] states, and an order
//! `component.rs` keeps before its greedy one (at most `SMALL_COMPONENT`
//! cells, or a programme it judges good enough: breadth-first from the
//! component's first cell or from the far end of that search, or a sweep
//! of the rows or of the columns). Any other position is counted by the general
//! programme, from the start.
//!
//! # Kept for the next count
//!
//! Each component (a [`Part`]: its cells, groups, steps and forward
//! layers) is shared by reference count. A count of a position that
//! differs from one already counted in a few cells ([`Dirty`]) takes the
//! components that no changed cell touches from that count as they are,
//! and builds and counts only the others (see the parent's
//! `compute_changed`): the result is the one a full count gives, bit for
//! bit, since every component is the same programme either way.
//!
//! # The count alone
//!
//! Without the probabilities (the parent's `layouts_changed`), only the
//! forward passes and the outer programme up to the count run. The count
//! is the one a whole count gives as long as the whole count keeps its
//! packed answer, i.e. its error bound is within [`ACCURACY`]; that is
//! decided without the backward passes. The backward pass gives group
//! `i`'s weights `Σ |δ| = ω_err + Σ_{k > i} U64 (g_k + 2) + U64 (w_i + 3 +
//! t_i)` (`ω_err` the outside weights' bound, `g_k` a group's size, `w_i`
//! its layer's width, `t_i` its nonzero terms, at most its transitions);
//! each [`Part`] keeps `back_err`, the sum over every layer plus the
//! largest layer's own term, which is at least that for every group
//! (all these are small multiples of `U64`, summed exactly). The outer
//! programme gives `ω_err` from the same sums with or without the weights,
//! and the bound is increasing in `Σ |δ|`, so [`bound_of`] of `ω_err +
//! back_err` bounds every group's; when it (or the interior's) is above
//! [`ACCURACY`], the count is left to the whole computation.

use super::component::{Failure, KeyScratch, BINOMIAL};
use super::number::{Num, U64};
use super::outer::{combine, combine_as, Counts};
use super::{probability, Output, ACCURACY};
use crate::board::{Board, Cell};
use crate::budget::{bytes, Budget, OverBudget};
use crate::constraints::check_number;
use crate::elimination::{column_major, partial_sum_range, SMALL_COMPONENT};
use std::sync::Arc;

const NONE: u32 = u32::MAX;

/// Open equations a packed programme holds at once: one byte lane each
/// of a `u128` (of a `u64` when eight are enough).
const LANES: u32 = 16;

/// Spare components a counter keeps for their buffers.
const SPARE_PARTS: usize = 64;

/// Most groups of a packed component (the general programme keeps only
/// some layers' values beyond this; a packed one keeps them all).
pub(crate) const MAX_GROUPS: usize = 256;

/// Most states a packed component of more than `SMALL_COMPONENT` cells
/// may be estimated to hold in all (the sum over its layers of the bound
/// `component.rs` computes).
pub(crate) const MAX_STATES: u64 = 16384;

/// Most states a layer of a packed programme may hold (the general
/// programme, which checks the memory budget layer by layer, counts
/// beyond).
const MAX_LAYER_STATES: usize = 4096;

/// The same threshold as `component.rs`'s: beyond `SMALL_COMPONENT` cells,
/// a breadth-first programme estimated above this many states per cell is
/// rebuilt along the next order there (see [`component`]), and the last
/// of them along a greedy order (which is not packed here).
const BREADTH_FIRST_IS_GOOD_ENOUGH: u64 = 256;

/// Why a position is not counted packed.
pub(crate) enum Unpacked {
    /// The general programme must count it (too wide, too long, inexact).
    General,
    /// No layout fits.
    NoLayout,
    /// The budget ran out.
    Failed(Failure),
}

impl From<OverBudget> for Unpacked {
    fn from(e: OverBudget) -> Unpacked {
        Unpacked::Failed(Failure::OverBudget(e))
    }
}

impl From<Failure> for Unpacked {
    fn from(f: Failure) -> Unpacked {
        match f {
            Failure::NoLayout => Unpacked::NoLayout,
            f => Unpacked::Failed(f),
        }
    }
}

/// One group step of a packed programme: the group's size, the lanes its
/// equations add to, each lane's viable range after the step, and the
/// lanes still open after it.
#[derive(Clone, Copy, Debug, Default)]
struct Step {
    add: u128,
    lo: u128,
    hi: u128,
    keep: u128,
    size: u8,
}

/// A step's masks in the width of a key `K`: what its equations' lanes
/// add, each lane's bounds (the top bit of every lane set in `hi`, for the
/// subtraction of [`Masks::not_above`]) and the lanes kept after it.
#[derive(Clone, Copy)]
struct Masks<K> {
    add: K,
    lo: K,
    hi: K,
    keep: K,
}

impl<K: Key> Masks<K> {
    #[inline(always)]
    fn of(step: &Step) -> Masks<K> {
        Masks {
            add: K::of(step.add),
            lo: K::of(step.lo),
            hi: K::of(step.hi) | K::H,
            keep: K::of(step.keep),
        }
    }

    /// No lane of `x` is above its upper bound (then neither is it with
    /// fewer mines).
    #[inline(always)]
    fn not_above(self, x: K) -> bool {
        self.hi.minus(x) & K::H == K::H
    }

    /// Every lane of `x` is at least its lower bound.
    #[inline(always)]
    fn reaches_lo(self, x: K) -> bool {
        (x | K::H).minus(self.lo) & K::H == K::H
    }
}

/// One frontier component, packed: its groups and steps, its forward
/// layers (all kept, for the backward pass), and when its mine count is
/// fixed, its groups' probabilities (they do not depend on the rest).
#[derive(Clone, Debug, Default)]
pub(crate) struct Part {
    /// Board cells, group after group; the first is the component's
    /// lowest cell.
    cells: Vec<u32>,
    group_start: Vec<u32>,
    steps: Vec<Step>,
    /// Layer `i` holds states `state_start[i]..state_start[i + 1]`, prefix
    /// mine counts `lo[i]..lo[i] + width[i]`, values from `value_start[i]`
    /// (state by state).
    state_start: Vec<u32>,
    lo: Vec<u32>,
    width: Vec<u32>,
    value_start: Vec<u32>,
    values: Vec<f64>,
    /// Layer `i`'s successors start at `succ_start[i]`: per state, the
    /// successor for `0..=size` mines, or `NONE`.
    succ_start: Vec<u32>,
    succ: Vec<u32>,
    /// Per state (numbered as `state_start` does), the first and last
    /// prefix mine count its nonzero counts span.
    spans: Vec<(u32, u32)>,
    /// With a fixed mine count: each group's probability and error bound.
    fixed: Vec<(f64, f64)>,
    /// Whether its states fit in a `u64` (at most eight open equations).
    narrow: bool,
    /// At most this many states in all its layers: the bound [`lay`]
    /// estimates the order by, beyond `SMALL_COMPONENT` cells; else at
    /// most [`MAX_LAYER_STATES`] a layer (more go to the general
    /// programme) and `2^c` after deciding `c` cells.
    states: u64,
    /// The component's lowest cell.
    first_cell: u32,
    /// The cells of the numbers whose equations it holds.
    numbers: Vec<u32>,
    /// What the backward pass adds to the outside weights' `Σ |δ|` of any
    /// group's weights, at most ([`backward`]: `U64 · (g + 2)` per layer
    /// above it, and `U64 · (width + 3 + terms)` for its own layer, where
    /// a layer has at most one term per transition).
    back_err: f64,
}

impl Part {
    fn groups(&self) -> usize {
        self.steps.len()
    }

    fn group(&self, i: usize) -> &[u32] {
        &self.cells[self.group_start[i] as usize..self.group_start[i + 1] as usize]
    }

    fn layers(&self) -> usize {
        self.lo.len()
    }

    fn states(&self, i: usize) -> usize {
        (self.state_start[i + 1] - self.state_start[i]) as usize
    }

    fn layer_values(&self, i: usize) -> &[f64] {
        let start = self.value_start[i] as usize;
        &self.values[start..start + self.states(i) * self.width[i] as usize]
    }

    /// The component's layout counts by mine count: `(lo, N(lo..))`, every
    /// one an integer below `2^53`.
    pub(crate) fn counts(&self) -> (u32, &[f64]) {
        let last = self.layers() - 1;
        (self.lo[last], self.layer_values(last))
    }

    /// Bytes the buffers that grow with its states hold (their
    /// capacities).
    fn bytes(&self) -> usize {
        bytes(&self.values) + bytes(&self.succ) + bytes(&self.spans)
    }

    /// Whether its mine count is fixed (one count).
    fn is_fixed(&self) -> bool {
        !self.fixed.is_empty()
    }
}

/// An equation of the position being packed: its number's cell, its
/// target, its variables (in the order of [`crate::grid::DIRECTIONS`]
/// around its number), and while its component's steps are laid, its
/// variables left undecided and its lane.
///
/// Variables and equations are numbered in `u16`: a packed position has at
/// most 1000 closed cells, so at most 1000 variables and 8000 equations.
#[derive(Clone, Copy)]
struct Equation {
    number: u32,
    target: u8,
    left: u8,
    lane: u8,
    /// Reached by its component's search.
    reached: bool,
    len: u8,
    vars: [u16; 8],
}

/// An equation without a lane yet.
const NO_LANE: u8 = u8::MAX;

/// A variable not grouped yet.
const NO_GROUP: u16 = u16::MAX;

/// A variable of the position being packed (a closed frontier cell): its
/// equations (in the order they were built, so increasing, and the unused
/// entries 0: equal lists are equal arrays), its cell, and while its
/// component is built, its group ([`NO_GROUP`] until the search reaches
/// it).
#[derive(Clone, Copy)]
struct Var {
    eqs: [u16; 8],
    cell: u32,
    group: u16,
    len: u8,
}

/// The packed state of a [`super::Probabilities`]: the last position's
/// components, spare ones whose buffers are reused, and the buffers of
/// building and counting.
#[derive(Default)]
pub(crate) struct Packed {
    /// The components of the last position counted packed, by lowest
    /// cell (valid when `used`).
    pub parts: Vec<Arc<Part>>,
    /// Whether the last successful computation was packed.
    pub used: bool,
    /// The interior cells' count and the mines left, of that computation.
    pub interior: u64,
    pub remaining: u64,
    /// Per cell of the last board counted packed, its component (index
    /// into `parts`) or `NONE`; valid when `used`.
    pub part_of: Vec<u32>,
    spare: Vec<Arc<Part>>,
    /// The bytes the spare parts hold ([`Part::bytes`]).
    spare_bytes: usize,
    scratch: Scratch,
}

/// Buffers of building and counting, reused from call to call.
#[derive(Default)]
struct Scratch {
    /// Per cell: its variable, or `NONE` (reset after every build).
    var_of: Vec<u32>,
    vars: Vec<Var>,
    equations: Vec<Equation>,
    /// The numbers to build from (after changes).
    numbers: Vec<u32>,
    /// The variables' cells, a bit each (cell `c` is bit `c % 64` of word
    /// `c / 64`; all clear between builds).
    by_cell: Vec<u64>,
    queue: Vec<u32>,
    group_len: Vec<u32>,
    /// The keys of the layer built from and of the next, in one word or
    /// two.
    keys: (Vec<u64>, Vec<u64>),
    wide_keys: (Vec<u128>, Vec<u128>),
    table: Vec<u32>,
    here: Vec<f64>,
    later: Vec<f64>,
    /// After changes: the counted position's components they touch.
    touched: Vec<u32>,
    /// Per group of the component being built, its first variable.
    group_first: Vec<u32>,
    /// The first cells of the components the last count found too many
    /// states in along every order it tries (see [`component`]).
    greedy: Vec<u32>,
}

/// Cells that changed between a counted position and the next one, and
/// what a count of the next one can take from the counted one.
pub(crate) struct Dirty<'a> {
    /// The counted position's components (`Packed::parts`) and, per cell,
    /// the component it lies in.
    pub parts: &'a [Arc<Part>],
    pub part_of: &'a [u32],
    /// The changed cells.
    pub changed: &'a [u32],
    /// The counted position's closed cells.
    pub closed: &'a [u32],
}

impl Packed {
    /// The first cells of the components that the last count found to
    /// need `component.rs`'s greedy order (every order tried before it
    /// estimated to hold too many states, by the same estimate), so that
    /// the general programme, counting the same board next, need not
    /// build those orders again.
    pub(crate) fn greedy(&self) -> &[u32] {
        &self.scratch.greedy
    }

    /// Gives back every part's buffers, spare parts included.
    pub(crate) fn release(&mut self) {
        self.parts.clear();
        self.spare.clear();
        self.spare_bytes = 0;
        self.used = false;
    }

    /// Counts `board` (total known, `remaining` mines for its closed
    /// cells, at most 1000 closed cells) packed: its closed cells into
    /// `closed`, the rest into `out` (every cell written);
    /// `from` names a counted position it differs from in a few cells,
    /// whose untouched components are taken as they are. Without `out`,
    /// only the number of layouts is counted (its `log2` is returned
    /// either way), `closed` is left alone, and the count cannot serve as
    /// `from` of another.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn count(
        &mut self,
        board: &Board,
        remaining: u64,
        from: Option<Dirty<'_>>,
        closed: &mut Vec<u32>,
        budget: &Budget,
        ticks: &mut KeyScratch,
        out: Option<&mut Output<'_>>,
    ) -> Result<f64, Unpacked> {
        let listed = out.is_some();
        self.used = false;
        self.scratch.greedy.clear();
        let n = board.grid().len();
        if self.part_of.len() == n {
            for part in &self.parts {
                for &c in &part.cells {
                    self.part_of[c as usize] = NONE;
                }
            }
        } else {
            self.part_of.clear();
            self.part_of.resize(n, NONE);
        }
        let mut parts = std::mem::take(&mut self.parts);
        self.recycle(&mut parts);
        let result = self.build(
            board,
            from,
            listed.then_some(&mut *closed),
            &mut parts,
            budget,
            ticks,
        );
        let result = result.and_then(|interior| {
            let counts: Vec<Counts<'_, f64>> = parts
                .iter()
                .map(|p| {
                    let (lo, counts) = p.counts();
                    Counts {
                        lo,
                        counts,
                        err: 0.0,
                    }
                })
                .collect();
            let Some(out) = out else {
                // The count alone; but a count whose probabilities would
                // not be accurate enough in f64 is counted by the general
                // programme (so that the count is the one it gives): the
                // bound of every group is at most its part's bound under
                // the outside weights' error.
                let combined = combine_as(&counts, remaining, interior, budget, ticks, false)?;
                let mut bound = combined.interior.as_ref().map_or(0.0, |w| probability(w).1);
                for (part, &omega_err) in parts.iter().zip(&combined.omega_err) {
                    let b = if part.is_fixed() {
                        part.fixed.iter().map(|x| x.1).fold(0.0, f64::max)
                    } else {
                        bound_of(omega_err + part.back_err)
                    };
                    bound = bound.max(b);
                }
                if bound + U64 > ACCURACY {
                    return Err(Unpacked::General);
                }
                return Ok((interior, combined.log2_layouts));
            };
            let combined = combine(&counts, remaining, interior, budget, ticks)?;
            let mut bound = 0.0f64;
            // Every cell: NaN, or for a closed one the interior's
            // probability (the frontier's are overwritten below).
            let mut p = f64::NAN;
            if let Some(w) = combined.interior {
                let (q, b) = probability(&w);
                (p, bound) = (q, b);
            }
            out.per_cell.fill(f64::NAN);
            if !p.is_nan() {
                for &c in closed.iter() {
                    out.per_cell[c as usize] = p;
                }
            }
            let s = &mut self.scratch;
            for (c, part) in parts.iter().enumerate() {
                let b = if part.is_fixed() {
                    set_groups(part, &part.fixed, out.per_cell)
                } else {
                    let per_cell = &mut *out.per_cell;
                    let mut b = 0.0f64;
                    backward(
                        part,
                        &combined.omega[c],
                        combined.omega_err[c],
                        (&mut s.here, &mut s.later),
                        |i, w| {
                            let (p, bound) = probability(&w);
                            b = b.max(bound);
                            for &cell in part.group(i) {
                                per_cell[cell as usize] = p;
                            }
                        },
                    );
                    ticks.tick(part.succ.len() as u64, budget, || describe(part, board))?;
                    b
                };
                bound = bound.max(b);
            }
            out.log2_layouts = combined.log2_layouts;
            out.log2_weight = combined.log2_layouts;
            out.error_bound = bound + U64;
            Ok((interior, combined.log2_layouts))
        });
        match result {
            Ok((interior, log2_layouts)) => {
                for (k, part) in parts.iter().enumerate() {
                    for &c in &part.cells {
                        self.part_of[c as usize] = k as u32;
                    }
                }
                self.parts = parts;
                self.used = listed;
                self.interior = interior;
                self.remaining = remaining;
                Ok(log2_layouts)
            }
            Err(e) => {
                self.recycle(&mut parts);
                Err(e)
            }
        }
    }

    /// Puts `parts` among the spares whose buffers the next builds reuse:
    /// those no other counter shares, up to [`SPARE_PARTS`].
    fn recycle(&mut self, parts: &mut Vec<Arc<Part>>) {
        for part in parts.drain(..) {
            if self.spare.len() < SPARE_PARTS && Arc::strong_count(&part) == 1 {
                self.spare_bytes += part.bytes();
                self.spare.push(part);
            }
        }
    }

    /// Lists the closed cells of `board` into `closed`, and builds and
    /// counts forward its components into `parts` (by lowest cell),
    /// taking the untouched ones of `from`; returns the number of interior
    /// cells.
    fn build(
        &mut self,
        board: &Board,
        from: Option<Dirty<'_>>,
        mut closed: Option<&mut Vec<u32>>,
        parts: &mut Vec<Arc<Part>>,
        budget: &Budget,
        ticks: &mut KeyScratch,
    ) -> Result<u64, Unpacked> {
        let grid = board.grid();
        let n = grid.len();
        let s = &mut self.scratch;
        if s.var_of.len() != n {
            s.var_of.clear();
            s.var_of.resize(n, NONE);
        }
        let words = n.div_ceil(64);
        if s.by_cell.len() != words {
            s.by_cell.clear();
            s.by_cell.resize(words, 0);
        }
        s.equations.clear();
        s.vars.clear();
        // Direction `d`'s neighbour of cell `i` is `i + offsets[d]`
        // (wrapping): the offsets are cell 0's neighbours.
        let offsets = grid.neighbours_by_direction(0).cells;
        // Taken whole from the counted position: its components untouched
        // by the changes.
        let mut kept: Vec<Arc<Part>> = Vec::new();
        let built = match &from {
            None => {
                // One pass: the closed cells, and every number's equation.
                let cells = board.cells();
                let mut result = Ok(());
                let mut list = closed.as_deref_mut();
                if let Some(list) = list.as_deref_mut() {
                    list.clear();
                }
                // Run by run of closed cells (listed whole), each up to
                // the next cell that is not closed.
                let mut i = 0;
                loop {
                    let run = cells[i..]
                        .iter()
                        .position(|c| !c.is_unknown())
                        .unwrap_or(n - i);
                    if let Some(list) = list.as_deref_mut() {
                        list.extend(i as u32..(i + run) as u32);
                    }
                    i += run;
                    if i == n {
                        break;
                    }
                    if let Cell::Revealed(_) = cells[i] {
                        // A number without a closed neighbour must be met
                        // already.
                        result = if board.unknown_around(i as u32) == 0 {
                            match board.effective(i as u32) {
                                Some((0, _)) => Ok(()),
                                _ => Err(Unpacked::NoLayout),
                            }
                        } else {
                            equation(s, board, &offsets, i as u32)
                        };
                        if result.is_err() {
                            break;
                        }
                    }
                    i += 1;
                }
                result
            }
            Some(dirty) => {
                if let Some(closed) = closed {
                    closed_after(board, dirty, closed);
                }
                let mut numbers = std::mem::take(&mut s.numbers);
                numbers.clear();
                touched_by(board, dirty, s, &mut numbers, &mut kept);
                numbers.sort_unstable();
                numbers.dedup();
                let mut result = Ok(());
                for &m in &numbers {
                    result = equation(s, board, &offsets, m);
                    if result.is_err() {
                        break;
                    }
                }
                s.numbers = numbers;
                result
            }
        };
        let reset = |s: &mut Scratch| {
            for v in &s.vars {
                s.var_of[v.cell as usize] = NONE;
            }
            s.by_cell.fill(0);
        };
        if let Err(e) = built {
            reset(s);
            return Err(e);
        }
        // Components along the breadth-first order from their lowest
        // cell, as `component.rs` builds them: all of them first, so that
        // one the packed programme cannot hold is refused before any
        // forward pass is spent on the others.
        let mut fresh: Vec<Arc<Part>> = Vec::new();
        let mut result = Ok(());
        'cells: for w in 0..s.by_cell.len() {
            let mut bits = s.by_cell[w];
            while bits != 0 {
                let c = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let v = s.var_of[c];
                if s.vars[v as usize].group != NO_GROUP {
                    continue;
                }
                let mut part = match self.spare.pop() {
                    Some(part) => {
                        self.spare_bytes -= part.bytes();
                        part
                    }
                    None => Arc::default(),
                };
                if Arc::get_mut(&mut part).is_none() {
                    part = Arc::default();
                }
                let part_mut = Arc::get_mut(&mut part).expect("a new part is not shared");
                let step = component(s, v, grid.w, part_mut);
                fresh.push(part);
                if let Err(e) = step {
                    result = Err(e);
                    break 'cells;
                }
            }
        }
        if result.is_ok() {
            // What the spare parts, the parts kept and those counted hold.
            let mut held = self.spare_bytes + kept.iter().map(|p| p.bytes()).sum::<usize>();
            for part in fresh.iter_mut() {
                let part_mut = Arc::get_mut(part).expect("a part just built is not shared");
                // A part that might not fit is left to the general
                // programme, which checks each layer against the budget
                // and refuses it or not whatever was counted before.
                if held + part_mut.bytes() + most_bytes(part_mut) > budget.max_bytes() {
                    result = Err(Unpacked::General);
                    break;
                }
                let step = forward(s, part_mut).and_then(|()| {
                    held += part_mut.bytes();
                    ticks.tick(part_mut.succ.len() as u64, budget, || {
                        describe(part_mut, board)
                    })?;
                    part_mut.fixed.clear();
                    if part_mut.counts().1.len() == 1 {
                        // A fixed count: its outside weight is 1 whatever
                        // the rest holds.
                        let mut fixed = std::mem::take(&mut part_mut.fixed);
                        fixed.resize(part_mut.groups(), (0.0, 0.0));
                        backward(
                            part_mut,
                            &[1.0],
                            0.0,
                            (&mut s.here, &mut s.later),
                            |i, w| fixed[i] = probability(&w),
                        );
                        part_mut.fixed = fixed;
                    }
                    Ok(())
                });
                if let Err(e) = step {
                    result = Err(e);
                    break;
                }
            }
        }
        reset(s);
        if let Err(e) = result {
            self.recycle(&mut fresh);
            return Err(e);
        }
        // Every component, by lowest cell.
        parts.clear();
        if kept.is_empty() {
            parts.append(&mut fresh);
        } else {
            kept.append(&mut fresh);
            kept.sort_by_key(|p| p.first_cell);
            parts.append(&mut kept);
        }
        let frontier: usize = parts.iter().map(|p| p.cells.len()).sum();
        Ok((board.unknown_count() as usize - frontier) as u64)
    }

    /// The exact counts of the last position counted packed, per
    /// component: `(lo, N(lo..))`.
    pub(crate) fn exact_counts(&self) -> Vec<(u64, Vec<u64>)> {
        self.parts
            .iter()
            .map(|p| {
                let (lo, n) = p.counts();
                (lo as u64, n.iter().map(|&x| x as u64).collect())
            })
            .collect()
    }
}

/// The equation of the number at `i`, checked ([`check_number`]), its
/// variables numbered as they are first met (`offsets` as in
/// [`Packed::build`]); none if it has no closed neighbour (then it is met)
/// or `i` is no number (a changed cell that was one).
#[inline(always)]
fn equation(s: &mut Scratch, board: &Board, offsets: &[u32; 8], i: u32) -> Result<(), Unpacked> {
    let Some((need, closed)) = board.effective(i) else {
        return Ok(());
    };
    check_number(i, need, closed).map_err(|_| Unpacked::NoLayout)?;
    if closed == 0 {
        return Ok(());
    }
    let e = s.equations.len() as u16;
    let mut vars = [0u16; 8];
    let mut len = 0;
    // The closed neighbours lie inside the grid.
    let mut dirs = board.closed_mask(i);
    while dirs != 0 {
        let c = i.wrapping_add(offsets[dirs.trailing_zeros() as usize]);
        dirs &= dirs - 1;
        let mut v = s.var_of[c as usize];
        if v == NONE {
            v = s.vars.len() as u32;
            s.var_of[c as usize] = v;
            s.vars.push(Var {
                eqs: [0; 8],
                cell: c,
                group: NO_GROUP,
                len: 0,
            });
            s.by_cell[c as usize / 64] |= 1 << (c % 64);
        }
        let var = &mut s.vars[v as usize];
        // A cell has at most eight numbers around it.
        var.eqs[var.len as usize & 7] = e;
        var.len += 1;
        vars[len & 7] = v as u16;
        len += 1;
    }
    s.equations.push(Equation {
        number: i,
        target: need as u8,
        left: len as u8,
        lane: NO_LANE,
        reached: false,
        len: len as u8,
        vars,
    });
    Ok(())
}

/// The closed cells of `board`, which differs from the counted position
/// of `dirty` in its changed cells only: that position's, with the
/// changed cells put in or taken out.
fn closed_after(board: &Board, dirty: &Dirty<'_>, closed: &mut Vec<u32>) {
    closed.clear();
    closed.extend_from_slice(dirty.closed);
    for &x in dirty.changed {
        match (closed.binary_search(&x), board.cell(x).is_unknown()) {
            (Ok(at), false) => {
                closed.remove(at);
            }
            (Err(at), true) => closed.insert(at, x),
            _ => {}
        }
    }
}

/// What a count after changes rebuilds: into `numbers`, every number
/// whose equation lies in a component of the counted position that the
/// changes touch, and every number in the 3×3 block of a changed cell; the
/// components they leave untouched go to `kept`.
///
/// A changed cell `x` changes the equation of every number in its 3×3
/// block (in either position) and no other, and such a number's
/// variables lie in its own 3×3 block. So a component is touched iff it
/// holds `x` or a cell in the 3×3 block of such a number; every other
/// component keeps its cells and its equations, so its programme is the
/// same. The equations of the numbers listed hold exactly the variables
/// of the new position that the kept components do not: a variable of
/// an unchanged equation lies in the same component as before (touched,
/// or it would be kept), and one of a changed equation is a new variable
/// or one of a touched component.
fn touched_by(
    board: &Board,
    dirty: &Dirty<'_>,
    s: &mut Scratch,
    numbers: &mut Vec<u32>,
    kept: &mut Vec<Arc<Part>>,
) {
    let grid = board.grid();
    let touched = &mut s.touched;
    touched.clear();
    let mut touch = |c: u32| {
        let p = dirty.part_of[c as usize];
        if p != NONE {
            touched.push(p);
        }
    };
    for &x in dirty.changed {
        touch(x);
        let block = grid.neighbours_by_direction(x);
        let mut at = block.inside as u32 | 1 << 8;
        while at != 0 {
            let d = at.trailing_zeros();
            at &= at - 1;
            let y = if d == 8 { x } else { block.cells[d as usize] };
            // A number in either position: revealed now, or changed (a
            // cell that did not change has one state in both).
            let revealed = matches!(board.cell(y), Cell::Revealed(_));
            if revealed || dirty.changed.contains(&y) {
                if revealed {
                    numbers.push(y);
                }
                let around = grid.neighbours_by_direction(y);
                let mut dirs = around.inside;
                while dirs != 0 {
                    touch(around.cells[dirs.trailing_zeros() as usize]);
                    dirs &= dirs - 1;
                }
            }
        }
    }
    touched.sort_unstable();
    touched.dedup();
    let mut t = 0;
    for (k, part) in dirty.parts.iter().enumerate() {
        if t < touched.len() && touched[t] == k as u32 {
            t += 1;
            numbers.extend_from_slice(&part.numbers);
        } else {
            kept.push(Arc::clone(part));
        }
    }
}

/// Per byte `b`: each bit `i` of `b` as the value 1 in byte `i`.
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b] |= 1 << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// The low sixteen bits of `bits` as lanes: bit `i` is the value 1 in
/// lane `i`.
#[inline(always)]
fn spread(bits: u32) -> u128 {
    SPREAD[(bits & 0xFF) as usize] as u128 | (SPREAD[(bits >> 8 & 0xFF) as usize] as u128) << 64
}

/// The component of variable `from` into `part`: its variables along the
/// breadth-first order of `component.rs` from `from`, grouped as
/// `component.rs` groups them (a variable joins the first variable of its
/// first equation, in that equation's order, that is already grouped and
/// lies in the same equations; else it starts a group), then its steps;
/// or [`Unpacked::General`] if it is not packed.
///
/// Beyond `SMALL_COMPONENT` cells, an order estimated to hold too many
/// states is replaced as `component.rs` replaces it: by the breadth-first
/// order from the variable that search reached last (a chain entered in
/// its middle grows at both ends, from its far end at one), then by the
/// sweeps of the board's rows and of its columns, then by the greedy
/// order, which is not packed. `w`: the board's width.
#[inline(never)]
fn component(s: &mut Scratch, from: u32, w: usize, part: &mut Part) -> Result<(), Unpacked> {
    let (n, far) = search(s, from, part)?;
    // What `component.rs` replaces.
    let too_many =
        |states: u64| n > SMALL_COMPONENT && states > BREADTH_FIRST_IS_GOOD_ENOUGH * n as u64;
    let (mut states, mut used) = lay(s, n, part)?;
    if too_many(states) {
        unsearch(s, n);
        search(s, far, part)?;
        (states, used) = lay(s, n, part)?;
    }
    for by_columns in [false, true] {
        if !too_many(states) {
            break;
        }
        unsearch(s, n);
        let (vars, order) = (&s.vars, &mut s.queue[..n]);
        if by_columns {
            order.sort_unstable_by_key(|&v| column_major(vars[v as usize].cell, w));
        } else {
            order.sort_unstable_by_key(|&v| vars[v as usize].cell);
        }
        group_along(s, n, part)?;
        (states, used) = lay(s, n, part)?;
    }
    if too_many(states) {
        s.greedy.push(s.vars[from as usize].cell);
        return Err(Unpacked::General);
    }
    if states > MAX_STATES {
        return Err(Unpacked::General);
    }
    let lanes = u32::BITS - used.leading_zeros();
    part.states = if n > SMALL_COMPONENT {
        states
    } else {
        // Layers 0 to `groups`, with 1, 2, 4, … states at most.
        let layers = part.groups() as u64 + 1;
        (layers * MAX_LAYER_STATES as u64).min((2u64 << n) - 1)
    };
    part.first_cell = s.vars[from as usize].cell;
    part.narrow = lanes <= 8;
    Ok(())
}

/// The steps of the component [`search`] found (`n` variables), with the
/// programme's estimated states and the lanes it holds ([`lay_steps`]).
fn lay(s: &mut Scratch, n: usize, part: &mut Part) -> Result<(u64, u32), Unpacked> {
    let groups = part.group_start.len() - 1;
    // The estimated states (`component.rs`'s bound: per layer, the product
    // over the open equations of the values their partial sums can take)
    // are integers below 2^53 (at most 16 factors of at most 9), kept
    // exactly. The bound decides on the order beyond `SMALL_COMPONENT`
    // cells only.
    if n > SMALL_COMPONENT {
        lay_steps::<true>(&s.vars, &mut s.equations, &s.group_first[..groups], part)
    } else {
        lay_steps::<false>(&s.vars, &mut s.equations, &s.group_first[..groups], part)
    }
}

/// Undoes [`search`] and [`lay`] on the `n` variables last searched:
/// ungrouped, their equations not reached, without lanes and with all
/// their variables left.
fn unsearch(s: &mut Scratch, n: usize) {
    for &v in &s.queue[..n] {
        let var = &mut s.vars[v as usize];
        var.group = NO_GROUP;
        for &e in &var.eqs[..var.len as usize] {
            let eq = &mut s.equations[e as usize];
            eq.reached = false;
            eq.lane = NO_LANE;
            eq.left = eq.len;
        }
    }
}

/// The breadth-first search of [`component`] from `from`: groups its
/// variables, lists its numbers in `part.numbers` and its cells group
/// after group in `part.cells`, each group's first variable in
/// `s.group_first` and the groups' starts in `part.group_start`. Returns
/// the number of variables and the one reached last: of the last level,
/// the one of the lowest cell (`component.rs`'s farthest cell: variables
/// are numbered in cell order there).
///
/// A variable is grouped when the search reaches it: the variables
/// already grouped then are those before it in the order, as in
/// `component.rs`, which groups them in order.
fn search(s: &mut Scratch, from: u32, part: &mut Part) -> Result<(usize, u32), Unpacked> {
    let Scratch {
        vars,
        equations,
        queue,
        group_len,
        group_first,
        ..
    } = s;
    // Every variable is queued once and starts at most one group: the
    // buffers are written by index up to their lengths.
    let count = vars.len();
    for buffer in [&mut *queue, &mut *group_len, &mut *group_first] {
        if buffer.len() < count {
            buffer.resize(count, 0);
        }
    }
    part.numbers.clear();
    let mut groups = 0;
    join(from, vars, equations, &mut groups, group_len, group_first);
    queue[0] = from;
    let (mut head, mut tail) = (0, 1);
    // The level being searched: `queue[level..level_end]`.
    let (mut level, mut level_end) = (0, 1);
    while head < tail {
        if head == level_end {
            (level, level_end) = (level_end, tail);
        }
        let x = queue[head];
        head += 1;
        let v = vars[x as usize];
        for &e in &v.eqs[..v.len as usize] {
            // An equation reached before has had all its variables joined
            // then.
            let eq = &mut equations[e as usize];
            if eq.reached {
                continue;
            }
            eq.reached = true;
            part.numbers.push(eq.number);
            let (evars, elen) = (eq.vars, eq.len as usize);
            for &y in &evars[..elen] {
                if vars[y as usize].group == NO_GROUP {
                    join(
                        y as u32,
                        vars,
                        equations,
                        &mut groups,
                        group_len,
                        group_first,
                    );
                    queue[tail] = y as u32;
                    tail += 1;
                }
            }
        }
    }
    let n = tail;
    let far = queue[level..tail]
        .iter()
        .copied()
        .min_by_key(|&v| vars[v as usize].cell)
        .expect("the search reaches `from`");
    lay_out_cells(s, n, groups, part)?;
    Ok((n, far))
}

/// The component's `n` variables regrouped along the order they now have
/// in `s.queue` (a sweep of [`component`]), as [`search`] groups them,
/// after [`unsearch`]; its numbers stay those the search listed.
fn group_along(s: &mut Scratch, n: usize, part: &mut Part) -> Result<(), Unpacked> {
    let mut groups = 0;
    for k in 0..n {
        let y = s.queue[k];
        join(
            y,
            &mut s.vars,
            &s.equations,
            &mut groups,
            &mut s.group_len,
            &mut s.group_first,
        );
    }
    lay_out_cells(s, n, groups, part)
}

/// The cells of the `n` variables of `s.queue`, grouped into `groups`
/// groups, into `part.cells` group after group (each group's in the
/// queue's order) and the groups' starts into `part.group_start`; or
/// [`Unpacked::General`] beyond [`MAX_GROUPS`] groups.
fn lay_out_cells(
    s: &mut Scratch,
    n: usize,
    groups: usize,
    part: &mut Part,
) -> Result<(), Unpacked> {
    if groups > MAX_GROUPS {
        return Err(Unpacked::General);
    }
    let group_len = &mut s.group_len[..groups];
    part.group_start.clear();
    part.group_start.push(0);
    let mut at = 0u32;
    part.group_start.extend(group_len.iter_mut().map(|len| {
        at += *len;
        *len = at - *len; // the next free slot of the group
        at
    }));
    part.cells.clear();
    part.cells.resize(n, 0);
    for &v in &s.queue[..n] {
        let var = &s.vars[v as usize];
        let slot = &mut group_len[var.group as usize];
        part.cells[*slot as usize] = var.cell;
        *slot += 1;
    }
    Ok(())
}

/// Groups variable `y` (see [`component`]): into the group of the first
/// grouped variable of its first equation with the same equations, else
/// into a new one (the next of `groups`, `y` its first variable).
#[inline(always)]
fn join(
    y: u32,
    vars: &mut [Var],
    equations: &[Equation],
    groups: &mut usize,
    group_len: &mut [u32],
    group_first: &mut [u32],
) {
    let v = &vars[y as usize];
    let first = &equations[v.eqs[0] as usize];
    let mut group = NO_GROUP;
    for &u in &first.vars[..first.len as usize] {
        let w = &vars[u as usize];
        if w.group != NO_GROUP && w.len == v.len && w.eqs == v.eqs {
            group = w.group;
            break;
        }
    }
    if group == NO_GROUP {
        group = *groups as u16;
        group_len[*groups] = 0;
        group_first[*groups] = y;
        *groups += 1;
    }
    group_len[group as usize] += 1;
    vars[y as usize].group = group;
}

/// The steps of a component's groups (`group_first`: each group's first
/// variable) into `part.steps` (see [`component`]), with the lanes
/// assigned; returns the programme's estimated states (when `ESTIMATE`,
/// else 0) and the lanes ever held, a bit each.
#[inline(always)]
fn lay_steps<const ESTIMATE: bool>(
    vars: &[Var],
    equations: &mut [Equation],
    group_first: &[u32],
    part: &mut Part,
) -> Result<(u64, u32), Unpacked> {
    part.steps.clear();
    part.steps.reserve(group_first.len());
    let mut free: u32 = (1 << LANES) - 1;
    // Every lane ever held, a bit each.
    let mut used = 0u32;
    // Each lane's bounds (0 when it is not open) and the values its
    // partial sum can take, a byte each.
    let (mut lo, mut hi) = ([0u8; 16], [0u8; 16]);
    let mut factor = [1u8; LANES as usize];
    let mut states = 0u64;
    for (&v, sizes) in group_first.iter().zip(part.group_start.windows(2)) {
        let first = &vars[v as usize];
        let size = (sizes[1] - sizes[0]) as u8;
        // The step's lanes, and those of them its equations close, a bit
        // each.
        let mut touched = 0u32;
        let mut closing = 0u32;
        for &e in &first.eqs[..first.len as usize] {
            let eq = &mut equations[e as usize];
            if eq.lane == NO_LANE {
                if free == 0 {
                    return Err(Unpacked::General);
                }
                let lane = free.trailing_zeros();
                free &= free - 1;
                used |= 1 << lane;
                eq.lane = lane as u8;
                hi[lane as usize & 15] = eq.target;
            }
            let lane = eq.lane as usize & 15;
            let left = eq.left - size;
            eq.left = left;
            touched |= 1 << lane;
            closing |= ((left == 0) as u32) << lane;
            lo[lane] = eq.target.saturating_sub(left);
            if ESTIMATE {
                factor[lane] = partial_sum_range(eq.target, eq.len - left, left) as u8;
            }
        }
        // The closed equations' lanes are free again; the lanes still open
        // are kept.
        free |= closing;
        let keep = spread(!free) * 0xFF;
        let (lo_word, hi_word) = (u128::from_le_bytes(lo), u128::from_le_bytes(hi));
        part.steps.push(Step {
            add: spread(touched),
            lo: lo_word,
            hi: hi_word,
            keep,
            size,
        });
        if ESTIMATE {
            // The product over the lanes open after the step (a closed
            // lane's factor is 1); an open lane's factor was written at
            // its equation's last step. At most 16 factors of at most 9:
            // exact.
            let mut open = !free & 0xFFFF;
            let mut product = 1u64;
            while open != 0 {
                product *= factor[open.trailing_zeros() as usize & 15] as u64;
                open &= open - 1;
            }
            states += product;
        }
        // The closed lanes are 0 again.
        if closing != 0 {
            lo = (lo_word & keep).to_le_bytes();
            hi = (hi_word & keep).to_le_bytes();
        }
    }
    Ok((states, used))
}

/// The forward programme of `part` (as `component.rs`'s, every layer
/// kept): [`Unpacked::General`] if a count reaches `2^53`.
fn forward(s: &mut Scratch, part: &mut Part) -> Result<(), Unpacked> {
    if part.narrow {
        forward_with::<u64>(s, part)
    } else {
        forward_with::<u128>(s, part)
    }
}

/// The most bytes `part`'s forward pass can hold ([`Part::bytes`]): its
/// buffers grown as `Vec` grows (to at most twice what they come to hold,
/// the old block held while they move: three times), for at most `states`
/// states in all its layers (see [`Part::states`]), each with at most
/// `cells + 1` counts, nine successors and a span.
fn most_bytes(part: &Part) -> usize {
    let (states, cells) = (part.states as usize, part.cells.len());
    let per_state = (cells + 1) * std::mem::size_of::<f64>()
        + 9 * std::mem::size_of::<u32>()
        + std::mem::size_of::<(u32, u32)>();
    3 * states * per_state
}

/// A state: byte lanes in a machine word (see the module doc).
trait Key: Copy + Eq + std::ops::BitOr<Output = Self> + std::ops::BitAnd<Output = Self> {
    /// The top bit of every lane.
    const H: Self;
    const ZERO: Self;
    /// The low lanes of a step's mask.
    fn of(mask: u128) -> Self;
    fn plus(self, o: Self) -> Self;
    fn minus(self, o: Self) -> Self;
    fn hash(self) -> u64;
    /// This width's key buffers in `s`, and the lookup table.
    fn buffers(s: &mut Scratch) -> (&mut Vec<Self>, &mut Vec<Self>, &mut Vec<u32>);
}

impl Key for u64 {
    const H: u64 = 0x8080_8080_8080_8080;
    const ZERO: u64 = 0;
    #[inline]
    fn of(mask: u128) -> u64 {
        mask as u64
    }
    #[inline]
    fn plus(self, o: u64) -> u64 {
        self.wrapping_add(o)
    }
    #[inline]
    fn minus(self, o: u64) -> u64 {
        self.wrapping_sub(o)
    }
    #[inline]
    fn hash(self) -> u64 {
        self.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn buffers(s: &mut Scratch) -> (&mut Vec<u64>, &mut Vec<u64>, &mut Vec<u32>) {
        (&mut s.keys.0, &mut s.keys.1, &mut s.table)
    }
}

impl Key for u128 {
    const H: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;
    const ZERO: u128 = 0;
    #[inline]
    fn of(mask: u128) -> u128 {
        mask
    }
    #[inline]
    fn plus(self, o: u128) -> u128 {
        self.wrapping_add(o)
    }
    #[inline]
    fn minus(self, o: u128) -> u128 {
        self.wrapping_sub(o)
    }
    #[inline]
    fn hash(self) -> u64 {
        ((self >> 64) as u64 ^ self as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn buffers(s: &mut Scratch) -> (&mut Vec<u128>, &mut Vec<u128>, &mut Vec<u32>) {
        (&mut s.wide_keys.0, &mut s.wide_keys.1, &mut s.table)
    }
}

/// [`forward`] with states of type `K`.
///
/// Each state's nonzero counts span `first..=last` prefix mines: a
/// successor's span is the union of its sources' shifted by their mines
/// (every term is positive), and a layer's range is the union of its
/// states' spans — the range `component.rs` trims its layers to. A
/// state's row is only added over its span: the counts are integers below
/// `2^53`, so every sum is exact in any order, and the columns outside
/// hold zeros.
///
/// Each step makes two passes over its layer: the first finds every
/// transition's successor (numbered in the order first reached), the
/// successors' spans and so the next layer's range; the second adds each
/// state's row, times `C(g, j)`, into its successors' rows. A step from a
/// layer of one state takes [`one_cell_from_one_state`] (one cell) or
/// [`from_one_state`].
#[inline(never)]
fn forward_with<K: Key>(s: &mut Scratch, part: &mut Part) -> Result<(), Unpacked> {
    let Part {
        steps,
        state_start,
        lo,
        width,
        value_start,
        values,
        succ_start,
        succ,
        spans,
        cells,
        back_err,
        ..
    } = part;
    let groups = steps.len();
    for v in [
        &mut *state_start,
        &mut *lo,
        &mut *width,
        &mut *value_start,
        &mut *succ_start,
    ] {
        v.clear();
        v.reserve(groups + 2);
    }
    state_start.extend([0, 1]);
    lo.push(0);
    width.push(1);
    value_start.push(0);
    values.clear();
    values.push(1.0);
    succ.clear();
    spans.clear();
    spans.push((0, 0));
    // Counts of at most 52 cells are below 2^53.
    let exact = cells.len() <= 52;
    let (keys, next_keys, table) = K::buffers(s);
    keys.clear();
    keys.push(K::ZERO);
    // The bound on what the backward pass adds (see `Part::back_err`), in
    // units of `U64`: every term, sum and maximum is an integer times
    // `U64` (a power of two) below `2^53 U64`, so exactly the sum of the
    // terms `U64 (g + 2)` and the maximum of the terms `U64 (w + 3 + t)`.
    let (mut above, mut own) = (0usize, 0usize);
    // The layer built from: its range, and where its values and its spans
    // start.
    let (mut l, mut w) = (0usize, 1usize);
    let (mut src_start, mut span_base) = (0usize, 0usize);
    for step in steps.iter() {
        let g = step.size as usize;
        let len = keys.len();
        let next_span_base = span_base + len;
        succ_start.push(succ.len() as u32);
        let dst_start = values.len();
        let (next_lo, next_width, moves) = if len == 1 && g == 1 {
            one_cell_from_one_state(
                step, keys[0], next_keys, spans, span_base, succ, values, src_start,
            )
        } else if len == 1 {
            from_one_state(
                step, keys[0], next_keys, spans, span_base, succ, values, src_start,
            )
        } else {
            let gp = g + 1;
            let succ_base = succ.len();
            succ.resize(succ_base + len * gp, NONE);
            let out = &mut succ[succ_base..];
            let (next_lo, next_hi, moves) =
                successors(step, keys, next_keys, table, spans, span_base, out);
            let next_len = next_keys.len();
            if next_len == 0 {
                return Err(Unpacked::NoLayout);
            }
            if next_len > MAX_LAYER_STATES {
                return Err(Unpacked::General);
            }
            let (next_lo, next_width) = (next_lo as usize, (next_hi - next_lo) as usize + 1);
            values.resize(dst_start + next_len * next_width, 0.0);
            let (src, dst) = values.split_at_mut(dst_start);
            let src = &src[src_start..];
            let binomial = &BINOMIAL[g];
            for (si, moves) in out.chunks_exact(gp).enumerate() {
                let (first, last) = spans[span_base + si];
                let from = si * w + first as usize - l;
                let row = &src[from..from + (last - first) as usize + 1];
                for (j, &t) in moves.iter().enumerate() {
                    if t == NONE {
                        continue;
                    }
                    let c = binomial[j] as f64;
                    // A viable transition's count lies within the next
                    // layer's range: `first + j ≥ next_lo` (not so for
                    // `first` alone, when no state keeps its 0 mines).
                    let at = t as usize * next_width + first as usize + j - next_lo;
                    if let [v] = row {
                        dst[at] += *v * c;
                    } else {
                        for (d, v) in dst[at..at + row.len()].iter_mut().zip(row) {
                            *d += *v * c;
                        }
                    }
                }
            }
            (next_lo, next_width, moves)
        };
        above += g + 2;
        own = own.max(w + 3 + moves);
        let next_len = next_keys.len();
        if next_len == 0 {
            return Err(Unpacked::NoLayout);
        }
        state_start.push((next_span_base + next_len) as u32);
        if !exact
            && values[dst_start..]
                .iter()
                .any(|&v| v >= 9_007_199_254_740_992.0)
        {
            return Err(Unpacked::General);
        }
        lo.push(next_lo as u32);
        width.push(next_width as u32);
        value_start.push(dst_start as u32);
        std::mem::swap(keys, next_keys);
        (l, w) = (next_lo, next_width);
        (src_start, span_base) = (dst_start, next_span_base);
    }
    succ_start.push(succ.len() as u32);
    *back_err = U64 * above as f64 + U64 * own as f64;
    Ok(())
}

/// A step of one cell from a layer of one state (the most common step):
/// [`successors`] and the sums of [`forward_with`] written out for its two
/// transitions, with the same results and the same floating-point
/// operations (`0 + x C(1, j)` in each column a transition reaches; the two
/// transitions never reach the same state). The layer's one state spans
/// its whole range, so its row is all the layer's values. Returns the next
/// layer's `lo`, `width` and the viable transitions (no successor leaves
/// `next_keys` empty and no values).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn one_cell_from_one_state<K: Key>(
    step: &Step,
    key: K,
    next_keys: &mut Vec<K>,
    spans: &mut Vec<(u32, u32)>,
    span_base: usize,
    succ: &mut Vec<u32>,
    values: &mut Vec<f64>,
    src_start: usize,
) -> (usize, usize, usize) {
    let m = Masks::<K>::of(step);
    let x1 = key.plus(m.add);
    // Above a target with no mine: so with one.
    let fits = m.not_above(key);
    let (v0, v1) = (
        fits && m.reaches_lo(key),
        fits && m.not_above(x1) && m.reaches_lo(x1),
    );
    next_keys.clear();
    let (first, last) = spans[span_base];
    let mut out = [NONE; 2];
    if v0 {
        next_keys.push(key & m.keep);
        spans.push((first, last));
        out[0] = 0;
    }
    if v1 {
        // Not the state of no mine: that both are viable means some lane
        // of the cell's equations stays open (a closing lane must reach
        // its target exactly), and there they differ by one.
        let k1 = x1 & m.keep;
        debug_assert!(!v0 || next_keys[0] != k1);
        out[1] = next_keys.len() as u32;
        next_keys.push(k1);
        spans.push((first + 1, last + 1));
    }
    succ.extend_from_slice(&out);
    let w = (last - first) as usize + 1;
    let (c0, c1) = (BINOMIAL[1][0] as f64, BINOMIAL[1][1] as f64);
    let src = src_start..src_start + w;
    match (v0, v1) {
        (false, false) => return (0, 0, 0),
        (true, false) | (false, true) => {
            let c = if v0 { c0 } else { c1 };
            values.reserve(w);
            for i in src {
                let v = values[i];
                values.push(0.0 + v * c);
            }
        }
        (true, true) => {
            values.reserve(2 * (w + 1));
            for i in src.clone() {
                let v = values[i];
                values.push(0.0 + v * c0);
            }
            values.push(0.0);
            values.push(0.0);
            for i in src {
                let v = values[i];
                values.push(0.0 + v * c1);
            }
        }
    }
    let next_lo = first as usize + !v0 as usize;
    let next_width = w + (v0 && v1) as usize;
    (next_lo, next_width, v0 as usize + v1 as usize)
}

/// A step of two or more cells from a layer of one state: [`successors`] and the sums of [`forward_with`] written out,
/// with the same results and the same floating-point operations
/// (`0 + x C(g, j)` in each column a transition reaches). From one state
/// no two transitions reach the same successor: where some lane of the
/// group's equations stays open they differ in it, and where every lane
/// closes at most one `j` meets every target exactly. The layer's one
/// state spans its whole range, so its row is all the layer's values.
/// Returns the next layer's `lo`, `width` and the viable transitions (no
/// successor leaves `next_keys` empty and no values).
// `j` indexes both the successors and the viable `j` found.
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
#[inline(always)]
fn from_one_state<K: Key>(
    step: &Step,
    key: K,
    next_keys: &mut Vec<K>,
    spans: &mut Vec<(u32, u32)>,
    span_base: usize,
    succ: &mut Vec<u32>,
    values: &mut Vec<f64>,
    src_start: usize,
) -> (usize, usize, usize) {
    let g = step.size as usize;
    let m = Masks::<K>::of(step);
    next_keys.clear();
    let (first, last) = spans[span_base];
    // The viable `j`, in order, and each one's successor.
    let mut js = [0usize; 9];
    let mut out = [NONE; 9];
    let mut n = 0;
    let mut x = key;
    for j in 0..=g {
        // Above a target: so is every larger j.
        if !m.not_above(x) {
            break;
        }
        if m.reaches_lo(x) {
            debug_assert!(!next_keys.contains(&(x & m.keep)));
            out[j] = n as u32;
            js[n] = j;
            n += 1;
            next_keys.push(x & m.keep);
            spans.push((first + j as u32, last + j as u32));
        }
        x = x.plus(m.add);
    }
    succ.extend_from_slice(&out[..=g]);
    if n == 0 {
        return (0, 0, 0);
    }
    let w = (last - first) as usize + 1;
    let (j0, j1) = (js[0], js[n - 1]);
    let next_width = w + j1 - j0;
    values.reserve(n * next_width);
    let binomial = &BINOMIAL[g];
    for &j in &js[..n] {
        let c = binomial[j] as f64;
        for _ in j0..j {
            values.push(0.0);
        }
        for i in src_start..src_start + w {
            let v = values[i];
            values.push(0.0 + v * c);
        }
        for _ in j..j1 {
            values.push(0.0);
        }
    }
    (first as usize + j0, next_width, n)
}

/// One step's transitions: each state of `keys` (spans from `span_base`
/// in `spans`) with `0..=size` mines, its successor (numbered in the order
/// first reached) into `succ` (left `NONE` when not viable); the
/// successors' keys into `next_keys`, their spans appended to `spans`.
/// Returns the first and last prefix mine count of the successors' spans
/// and the number of viable transitions.
#[inline(always)]
fn successors<K: Key>(
    step: &Step,
    keys: &[K],
    next_keys: &mut Vec<K>,
    table: &mut Vec<u32>,
    spans: &mut Vec<(u32, u32)>,
    span_base: usize,
    succ: &mut [u32],
) -> (u32, u32, usize) {
    let gp = step.size as usize + 1;
    let m = Masks::<K>::of(step);
    let next_span_base = span_base + keys.len();
    next_keys.clear();
    let mut lookup = Lookup::new(table);
    let (mut next_lo, mut next_hi) = (u32::MAX, 0u32);
    let mut moves = 0;
    for ((si, &key), out) in keys.iter().enumerate().zip(succ.chunks_exact_mut(gp)) {
        let (first, last) = spans[span_base + si];
        let mut x = key;
        for (j, slot) in out.iter_mut().enumerate() {
            // Above a target: so is every larger j.
            if !m.not_above(x) {
                break;
            }
            if m.reaches_lo(x) {
                let (t, new) = lookup.find_or_insert(next_keys, x & m.keep);
                let span = (first + j as u32, last + j as u32);
                if new {
                    spans.push(span);
                } else {
                    let at = &mut spans[next_span_base + t as usize];
                    at.0 = at.0.min(span.0);
                    at.1 = at.1.max(span.1);
                }
                next_lo = next_lo.min(span.0);
                next_hi = next_hi.max(span.1);
                *slot = t;
                moves += 1;
            }
            x = x.plus(m.add);
        }
    }
    (next_lo, next_hi, moves)
}

/// An upper bound of the error bound `probability` gives a group whose
/// weights' `Σ |δ|` is at most `err` (the bound grows with `err`; a
/// margin covers the roundings of the sums that bound it).
fn bound_of(err: f64) -> f64 {
    let deltas = 2.0 * err * (1.0 + 1e-9) + U64 + 3.0 * U64;
    (deltas / (1.0 - U64)).exp_m1() * (1.0 + 1e-9) + f64::from_bits(1)
}

/// A group's weights from the backward pass (as in `component.rs`).
type Weights = super::component::GroupWeights<f64>;

/// The backward pass of `part` under the outside weights `omega` (within
/// `omega_err`), as `component.rs`'s: each group's weights, bit for bit,
/// handed to `each` with the group's number as soon as they are known
/// (the last group first). `here` and `later` hold the completions
/// (the backward values) of the layer being worked and of the one after
/// it, each of them sized once per call to the most any layer needs.
///
/// A state's row is only worked over its span (see [`forward_with`]):
/// outside it, its forward counts are 0, so `component.rs`'s products
/// there add +0 to each dot product (no change), and its completions there
/// are only ever multiplied by those zeros (a predecessor reaching a count
/// makes it nonzero).
#[inline(never)]
fn backward(
    part: &Part,
    omega: &[f64],
    omega_err: f64,
    (here, later): (&mut Vec<f64>, &mut Vec<f64>),
    mut each: impl FnMut(usize, Weights),
) {
    let groups = part.groups();
    let layers = groups + 1;
    // Every layer's completions fit in as many values as the forward
    // layers hold (the last layer's are `omega`); sized once, and only
    // the columns of each state's span are ever written or read.
    let need = part.values.len().max(omega.len());
    for v in [&mut *here, &mut *later] {
        if v.len() < need {
            v.resize(need, 0.0);
        }
    }
    let (mut here, mut later) = (&mut here[..], &mut later[..]);
    later[..omega.len()].copy_from_slice(omega);
    let steps = &part.steps[..groups];
    let (width, lo) = (&part.width[..layers], &part.lo[..layers]);
    let (value_start, succ_start) = (&part.value_start[..layers], &part.succ_start[..layers]);
    let state_start = &part.state_start[..layers + 1];
    let mut later_err = omega_err;
    for i in (0..groups).rev() {
        let g = steps[i].size as usize;
        let gp = g + 1;
        let binomial = &BINOMIAL[g][..gp];
        let (w, l) = (width[i] as usize, lo[i] as usize);
        let (later_width, later_lo) = (width[i + 1] as usize, lo[i + 1] as usize);
        let succ = &part.succ[succ_start[i] as usize..succ_start[i + 1] as usize];
        let spans = &part.spans[state_start[i] as usize..state_start[i + 1] as usize];
        let values = &part.values[value_start[i] as usize..];
        let (mut mine, mut safe) = (0.0f64, 0.0f64);
        let mut terms = 0usize;
        for (si, &(first, last)) in spans.iter().enumerate() {
            let moves = &succ[si * gp..si * gp + gp];
            let row = si * w + first as usize - l;
            let at = first as usize;
            if first == last {
                // A row of one column: the same products and sums, on
                // scalars (`dot` is `0 + y x`, the same value whenever it
                // is used, i.e. when nonzero).
                let y = values[row];
                let mut h = 0.0f64;
                for (j, (&t, &c)) in moves.iter().zip(binomial).enumerate() {
                    if t == NONE {
                        continue;
                    }
                    let x = later[t as usize * later_width + at + j - later_lo];
                    h += x * c as f64;
                    let dot = y * x;
                    if dot != 0.0 {
                        let term = dot.mul_small(c);
                        mine = mine.add(term.mul_small(j as u32));
                        safe = safe.add(term.mul_small((g - j) as u32));
                        terms += 1;
                    }
                }
                here[row] = h;
                continue;
            }
            let n = (last - first) as usize + 1;
            let f = &values[row..row + n];
            let here = &mut here[row..row + n];
            here.fill(0.0);
            for (j, (&t, &c)) in moves.iter().zip(binomial).enumerate() {
                if t == NONE {
                    continue;
                }
                let cf = c as f64;
                let at = t as usize * later_width + at + j - later_lo;
                let b = &later[at..at + n];
                let mut dot = 0.0f64;
                for ((h, x), y) in here.iter_mut().zip(b).zip(f) {
                    *h += *x * cf;
                    dot += *y * *x;
                }
                if dot != 0.0 {
                    let term = dot.mul_small(c);
                    mine = mine.add(term.mul_small(j as u32));
                    safe = safe.add(term.mul_small((g - j) as u32));
                    terms += 1;
                }
            }
        }
        let err = later_err + U64 * (w + 3 + terms) as f64;
        each(i, Weights { mine, safe, err });
        later_err += U64 * (g + 2) as f64;
        std::mem::swap(&mut here, &mut later);
    }
}

/// Writes each group's kept probability into `per_cell`; returns the
/// largest bound.
fn set_groups(part: &Part, groups: &[(f64, f64)], per_cell: &mut [f64]) -> f64 {
    let mut bound = 0.0f64;
    for (i, &(p, b)) in groups.iter().enumerate() {
        bound = bound.max(b);
        for &c in part.group(i) {
            per_cell[c as usize] = p;
        }
    }
    bound
}

/// Names a component in budget messages (as `component.rs` does).
fn describe(part: &Part, board: &Board) -> String {
    let (r, c) = board.grid().rc(part.first_cell);
    format!(
        "counting the layouts of the frontier component of {} cells at ({r},{c})",
        part.cells.len()
    )
}

/// The states of the layer being built, numbered in the order they are
/// first reached: up to [`Lookup::SCANNED`] found by comparing words,
/// beyond by an open-addressing table over `table`.
struct Lookup<'a> {
    table: &'a mut Vec<u32>,
    hashed: bool,
    mask: usize,
}

impl<'a> Lookup<'a> {
    const SCANNED: usize = 16;

    fn new(table: &'a mut Vec<u32>) -> Lookup<'a> {
        Lookup {
            table,
            hashed: false,
            mask: 0,
        }
    }

    #[inline]
    fn slot<K: Key>(&self, key: K) -> usize {
        (key.hash() >> 32) as usize & self.mask
    }

    /// The number of state `key` among `keys`, inserting it if new (then
    /// also `true`).
    #[inline]
    fn find_or_insert<K: Key>(&mut self, keys: &mut Vec<K>, key: K) -> (u32, bool) {
        if !self.hashed {
            if let Some(t) = keys.iter().position(|&k| k == key) {
                return (t as u32, false);
            }
            keys.push(key);
            if keys.len() > Self::SCANNED {
                self.rehash(keys, 64);
            }
            return (keys.len() as u32 - 1, true);
        }
        let mut at = self.slot(key);
        loop {
            let t = self.table[at];
            if t == NONE {
                break;
            }
            if keys[t as usize] == key {
                return (t, false);
            }
            at = (at + 1) & self.mask;
        }
        let t = keys.len() as u32;
        self.table[at] = t;
        keys.push(key);
        if keys.len() * 2 > self.mask {
            self.rehash(keys, (self.mask + 1) * 2);
        }
        (t, true)
    }

    /// Files every key in a table of `size` slots (a power of two).
    fn rehash<K: Key>(&mut self, keys: &[K], size: usize) {
        self.hashed = true;
        self.mask = size - 1;
        self.table.clear();
        self.table.resize(size, NONE);
        for (t, &key) in keys.iter().enumerate() {
            let mut at = self.slot(key);
            while self.table[at] != NONE {
                at = (at + 1) & self.mask;
            }
            self.table[at] = t as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probabilities::tests::positions;
    use crate::probabilities::Probabilities;

    /// What the forward-only count checks in place of the backward pass
    /// holds: on every packed component of real positions, each group's
    /// `Σ |δ|` from the backward pass is at most the outside weights' bound
    /// (which the outer programme gives alike with or without the
    /// weights) plus the component's `back_err`, so `bound_of` of that sum
    /// is at least the error bound the whole count gives the group.
    #[test]
    fn the_forward_only_bound_is_at_least_every_groups_bound() {
        let budget = Budget::unlimited();
        let mut ticks = KeyScratch::default();
        let (mut here, mut later) = (Vec::new(), Vec::new());
        let (mut parts, mut groups) = (0usize, 0usize);
        let mut p = Probabilities::new();
        for board in positions(400) {
            if p.compute(&board, None, &budget).is_err() || !p.packed.used {
                continue;
            }
            let packed = &p.packed;
            let counts: Vec<Counts<'_, f64>> = packed
                .parts
                .iter()
                .map(|part| {
                    let (lo, counts) = part.counts();
                    Counts {
                        lo,
                        counts,
                        err: 0.0,
                    }
                })
                .collect();
            let (remaining, interior) = (packed.remaining, packed.interior);
            let (Ok(whole), Ok(alone)) = (
                combine(&counts, remaining, interior, &budget, &mut ticks),
                combine_as(&counts, remaining, interior, &budget, &mut ticks, false),
            ) else {
                panic!("a counted position combines again");
            };
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&whole.omega_err), bits(&alone.omega_err));
            assert_eq!(whole.log2_layouts.to_bits(), alone.log2_layouts.to_bits());
            for (c, part) in packed.parts.iter().enumerate() {
                if part.is_fixed() {
                    continue;
                }
                parts += 1;
                let limit = whole.omega_err[c] + part.back_err;
                let mut weights = Vec::new();
                backward(
                    part,
                    &whole.omega[c],
                    whole.omega_err[c],
                    (&mut here, &mut later),
                    |i, w| weights.push((i, w)),
                );
                assert_eq!(weights.len(), part.groups());
                for (k, &(i, ref w)) in weights.iter().enumerate() {
                    assert_eq!(i, part.groups() - 1 - k, "the last group first");
                    groups += 1;
                    assert!(
                        w.err <= limit,
                        "group {i}: Σ|δ| {:e} above {limit:e} on {board:?}",
                        w.err
                    );
                    let (_, bound) = probability(w);
                    assert!(bound <= bound_of(limit), "group {i} on {board:?}");
                }
            }
        }
        assert!(
            parts >= 400 && groups >= 4000,
            "{parts} parts, {groups} groups"
        );
    }
}
