//! One frontier component's counting programme.
//!
//! The component's cells are put in *groups* (cells that lie in exactly the
//! same equations; at most eight, the neighbours of one number): a layout
//! of the component is a choice of `j_G` mines per group `G` that fits
//! every equation, with multiplicity `Π C(|G|, j_G)` — which cells of the
//! group hold them does not matter to any equation.
//!
//! The groups are decided one by one in an elimination order (the cell
//! order of [`crate::elimination::choose_order`], each group at its first
//! cell). After a prefix of groups, a *state* is the vector of partial sums
//! of the active equations (some groups decided, some not); states whose
//! equations can no longer reach their targets are dropped, exactly as in
//! the hypotheses programme. Layer `i` holds the states before group `i`
//! is decided.
//!
//! - **Forward**: `F_s(a)` = the number of layouts of the decided prefix
//!   with `a` mines that reach state `s` (multiplicities included). The
//!   final layer is one state: `F(k) = N(k)`, the component's layouts with
//!   `k` mines.
//! - **Backward**, given a weight `ω(k)` for each final count (what the rest
//!   of the board contributes when this component holds `k` mines):
//!   `B_s(a)` = the weighted completions of state `s` reached with `a`
//!   mines, `B_final(k) = ω(k)`, `B_s(a) = Σ_j C(g, j) · B_{succ(s, j)}(a + j)`.
//!   For group `i`, the layouts through state `s` and choice `j` weigh
//!   `C(g, j) · Σ_a F_s(a) · B_succ(a + j)`; the group's *mine weight* sums
//!   them times `j` and its *safe weight* times `g − j`, so a cell of the
//!   group is a mine with probability `mine / (mine + safe)`.
//!
//! Each layer's values are a rectangle: its states times the range of
//! prefix mine counts any of them holds. Error bounds (`Σ |δ|`, see
//! `number.rs`) are kept per layer: a forward entry takes one product and
//! one addition per incoming transition, a backward entry one of each per
//! outgoing transition.

use super::number::{Count, Num};
use crate::budget::{bytes, Budget, OverBudget, Ticks};
use crate::constraints::{Component, Equation, System};
use crate::elimination::STATES_BEFORE_MEMORY_CHECKS;
use crate::elimination::{breadth_first_order, choose_order, ordering, partial_sum_range, sweeps};
use crate::elimination::{successor_key, LayerStates, Local, Slot, SMALL_COMPONENT};

const NONE: u32 = u32::MAX;

/// `C(g, j)` for `g, j ≤ 8`.
pub(crate) const BINOMIAL: [[u32; 9]; 9] = binomials();

const fn binomials() -> [[u32; 9]; 9] {
    let mut t = [[0u32; 9]; 9];
    let mut g = 0;
    while g < 9 {
        t[g][0] = 1;
        let mut j = 1;
        while j <= g {
            t[g][j] = t[g - 1][j - 1] + if j < g { t[g - 1][j] } else { 0 };
            j += 1;
        }
        g += 1;
    }
    t
}

/// An order of [`Plan::rebuild`] is kept when the programme it gives is
/// estimated to hold at most this many states per cell; beyond, the next
/// order is tried, and the greedy one is worth its cost.
const BREADTH_FIRST_IS_GOOD_ENOUGH: f64 = 256.0;

/// A component's groups in elimination order and what each step does to
/// the active equations; independent of the number type.
#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    /// Frontier variable ids, group after group.
    cells: Vec<u32>,
    /// Group `i` is `cells[group_start[i]..group_start[i + 1]]`.
    group_start: Vec<u32>,
    slots: Vec<Slot>,
    slot_start: Vec<u32>,
    /// The component's first cell (board index), to name it.
    pub first_cell: u32,
}

/// What building a plan answers to: the budget, what is held beside the
/// plan, and the name of the work.
#[derive(Clone, Copy)]
struct Limits<'a> {
    budget: &'a Budget,
    held: usize,
    what: &'a dyn Fn() -> String,
}

/// Buffers for building plans, sized to the system.
#[derive(Default)]
pub(crate) struct PlanScratch {
    local: Local,
    group_of: Vec<u32>,
    left: Vec<u8>,
    opened: Vec<bool>,
    active: Vec<u32>,
    next_active: Vec<u32>,
    group_len: Vec<u32>,
    /// Per local equation, the last group (plus one) found in it.
    in_group: Vec<u32>,
    /// The work since the clock was last read.
    ticks: Ticks,
}

impl PlanScratch {
    pub fn prepare(&mut self, system: &System) {
        self.local.prepare(system);
    }
}

impl Plan {
    /// Groups the component's cells and orders the groups, reusing this
    /// plan's buffers.
    ///
    /// The orders tried, each kept if its programme is estimated to hold
    /// few enough states: breadth-first from the first cell, then from
    /// the far end of that search (a chain entered in its middle grows at
    /// both ends), the sweeps of the rows and of the columns, and last
    /// [`choose_order`]'s greedy order.
    ///
    /// `greedy`: the component is known to need the greedy order (the
    /// packed programme found every other order estimated above the
    /// threshold, by this same estimate): they are not built again.
    ///
    /// Ordering a component as wide as a large board takes seconds: the
    /// clock and the cancel switch of `budget` are read as it goes. Its
    /// steps (as many as the equations open at each step, so up to the
    /// component's cells times its width) are checked against the memory
    /// budget beside `held` bytes kept elsewhere.
    pub fn rebuild(
        &mut self,
        system: &System,
        component: &Component,
        scratch: &mut PlanScratch,
        greedy: bool,
        budget: &Budget,
        held: usize,
    ) -> Result<(), OverBudget> {
        scratch.local.localise(component);
        let n = component.vars.len();
        let what = || ordering(system, component);
        budget.check_time(what)?;
        scratch.ticks = Ticks::default();
        let limits = Limits {
            budget,
            held,
            what: &what,
        };
        // An order is given up as soon as its programme is estimated to
        // hold more states than this.
        let good_enough = match n > SMALL_COMPONENT {
            true => BREADTH_FIRST_IS_GOOD_ENOUGH * n as f64,
            false => f64::INFINITY,
        };
        let kept = |plan: &mut Plan, scratch: &mut PlanScratch, order: &[u32]| {
            plan.build(system, component, scratch, order, good_enough, &limits)
        };
        if !greedy {
            let (order, far) =
                breadth_first_order(system, component, &scratch.local, component.vars[0]);
            if kept(self, scratch, &order)? {
                return Ok(());
            }
            let (order, _) = breadth_first_order(system, component, &scratch.local, far);
            if kept(self, scratch, &order)? {
                return Ok(());
            }
            for order in sweeps(system, component) {
                if kept(self, scratch, &order)? {
                    return Ok(());
                }
            }
        }
        let (order, _) = choose_order(system, component, &scratch.local, budget, &what)?;
        self.build(system, component, scratch, &order, f64::INFINITY, &limits)?;
        Ok(())
    }

    /// The plan along `order` (the component's variables, global ids;
    /// `scratch` holds their local ids), if its programme is estimated to
    /// hold at most `give_up` states: the sum over its layers of the
    /// product, over the equations open after the step, of the values
    /// their partial sums can take (an upper bound). Past `give_up` it
    /// stops, returning false, and the plan is left half built; so it does
    /// when its steps would not fit the memory budget, unless `give_up` is
    /// infinite (the last order tried: then the position is refused).
    /// Reads the clock through `scratch`'s ticks.
    fn build(
        &mut self,
        system: &System,
        component: &Component,
        scratch: &mut PlanScratch,
        order: &[u32],
        give_up: f64,
        limits: &Limits<'_>,
    ) -> Result<bool, OverBudget> {
        let Limits { budget, held, what } = *limits;
        let mut states = 0.0;
        // Group ids in order of the groups' first cells. Cells of one group
        // share their first equation, so a cell's group, if it has one
        // already, is among that equation's cells.
        let n = component.vars.len();
        scratch.group_of.clear();
        scratch.group_of.resize(n, NONE);
        scratch.group_len.clear();
        for &v in order {
            let eqs = system.equations_of(v);
            let first = system.equation(eqs[0]);
            let mut group = NONE;
            for &u in first.vars.as_slice() {
                let gu = scratch.group_of[scratch.local.var[u as usize] as usize];
                if gu != NONE && system.equations_of(u) == eqs {
                    group = gu;
                    break;
                }
            }
            if group == NONE {
                group = scratch.group_len.len() as u32;
                scratch.group_len.push(0);
            }
            scratch.group_of[scratch.local.var[v as usize] as usize] = group;
            scratch.group_len[group as usize] += 1;
        }
        let groups = scratch.group_len.len();
        let group_start = &mut self.group_start;
        group_start.clear();
        group_start.reserve(groups + 1);
        let mut at = 0u32;
        group_start.push(0);
        for len in &mut scratch.group_len {
            at += *len;
            group_start.push(at);
            *len = at - *len; // becomes the next free slot of the group
        }
        let cells = &mut self.cells;
        cells.clear();
        cells.resize(n, 0);
        for &v in order {
            let g = scratch.group_of[scratch.local.var[v as usize] as usize] as usize;
            cells[scratch.group_len[g] as usize] = v;
            scratch.group_len[g] += 1;
        }

        // The slots of every step: first the equations active before it
        // (in key order), then those the group opens.
        let m = component.equations.len();
        scratch.left.clear();
        scratch.left.extend(
            component
                .equations
                .iter()
                .map(|&e| system.equation(e).vars.len() as u8),
        );
        scratch.opened.clear();
        scratch.opened.resize(m, false);
        scratch.in_group.clear();
        scratch.in_group.resize(m, 0);
        scratch.active.clear();
        let slots = &mut self.slots;
        slots.clear();
        let slot_start = &mut self.slot_start;
        slot_start.clear();
        // An order tried before the last one whose steps do not fit the
        // memory budget is given up like one estimated too large.
        let tried = |refused: OverBudget| match give_up.is_finite() {
            true => Ok(false),
            false => Err(refused),
        };
        let around = held + bytes(cells) + bytes(group_start);
        if let Err(refused) = budget.reserve(slot_start, groups + 1, around, what) {
            return tried(refused);
        }
        let others = around + bytes(slot_start);
        // Room for a few slots a step at once: most steps touch two to
        // four equations.
        if let Err(refused) = budget.reserve(slots, 4 * groups, others, what) {
            return tried(refused);
        }
        for g in 0..groups {
            slot_start.push(slots.len() as u32);
            let size = (group_start[g + 1] - group_start[g]) as u8;
            let eqs = system.equations_of(cells[group_start[g] as usize]);
            let more = scratch.active.len() + eqs.len();
            if let Err(refused) = budget.reserve(slots, more, others, what) {
                return tried(refused);
            }
            let local_eq = &scratch.local.eq;
            // Mark the group's equations (stamp g + 1).
            for &e in eqs {
                scratch.in_group[local_eq[e as usize] as usize] = g as u32 + 1;
            }
            scratch.next_active.clear();
            // The states after the step: at most the product of the
            // values each equation still open can hold.
            let mut layer = 1.0;
            let mut open = |eq: &Equation, add: bool, left_after: u8| {
                slots.push(Slot {
                    add,
                    target: eq.target,
                    left_after,
                });
                let decided = eq.vars.len() as u8 - left_after;
                layer *= partial_sum_range(eq.target, decided, left_after) as f64;
                left_after > 0
            };
            for &le in &scratch.active {
                let add = scratch.in_group[le as usize] == g as u32 + 1;
                if add {
                    scratch.left[le as usize] -= size;
                }
                let eq = system.equation(component.equations[le as usize]);
                if open(eq, add, scratch.left[le as usize]) {
                    scratch.next_active.push(le);
                }
            }
            for &e in eqs {
                let le = local_eq[e as usize];
                if scratch.opened[le as usize] {
                    continue;
                }
                scratch.opened[le as usize] = true;
                scratch.left[le as usize] -= size;
                if open(system.equation(e), true, scratch.left[le as usize]) {
                    scratch.next_active.push(le);
                }
            }
            states += layer;
            if states > give_up {
                return Ok(false);
            }
            let units = scratch.next_active.len() as u64 + 1;
            scratch.ticks.tick(units, budget, what)?;
            std::mem::swap(&mut scratch.active, &mut scratch.next_active);
        }
        slot_start.push(slots.len() as u32);
        debug_assert!(scratch.active.is_empty(), "every equation closes");
        self.first_cell = system.cell(component.vars[0]);
        Ok(true)
    }

    /// Bytes held (the buffers' capacities).
    pub fn bytes(&self) -> usize {
        bytes(&self.cells) + bytes(&self.group_start) + bytes(&self.slots) + bytes(&self.slot_start)
    }

    pub fn groups(&self) -> usize {
        self.group_start.len() - 1
    }

    /// The frontier variables of group `i`.
    pub fn group(&self, i: usize) -> &[u32] {
        &self.cells[self.group_start[i] as usize..self.group_start[i + 1] as usize]
    }

    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    fn size(&self, i: usize) -> usize {
        (self.group_start[i + 1] - self.group_start[i]) as usize
    }

    fn step_slots(&self, i: usize) -> &[Slot] {
        &self.slots[self.slot_start[i] as usize..self.slot_start[i + 1] as usize]
    }
}

/// The forward programme's layers, kept for the backward pass.
///
/// The transitions of every layer are kept; the values only of every
/// `stride`-th layer (and the last): the backward pass recomputes the
/// others a segment at a time from the layer kept before them (no state
/// lookups, just the sums again). On long components this divides the
/// memory by about `stride` for one more forward pass over the values.
#[derive(Clone, Debug)]
pub(crate) struct Layers<T> {
    /// Layer `i` holds states `state_start[i]..state_start[i + 1]`.
    state_start: Vec<u32>,
    /// Layer `i`'s prefix mine counts are `lo[i]..lo[i] + width[i]`.
    lo: Vec<u32>,
    width: Vec<u32>,
    /// Where a kept layer's values start in `values` (state by state,
    /// `width[i]` values each); `usize::MAX` for the others.
    value_start: Vec<usize>,
    values: Vec<T>,
    /// Layers `0, stride, 2·stride, …` and the last keep their values.
    stride: usize,
    /// The layer being built from, when it is not kept, and the next.
    rolling: Vec<T>,
    next: Vec<T>,
    /// Layer `i`'s successors start at `succ_start[i]`: per state, the
    /// successor (index in layer `i + 1`) for `0..=g` mines, or `NONE`.
    succ_start: Vec<usize>,
    succ: Vec<u32>,
    /// Bound on `Σ |δ|` of each layer's values.
    err: Vec<f64>,
    /// The bytes its backward pass was estimated to hold, for the budget.
    backward_bytes: usize,
}

impl<T> Default for Layers<T> {
    fn default() -> Self {
        Layers {
            state_start: Vec::new(),
            lo: Vec::new(),
            width: Vec::new(),
            value_start: Vec::new(),
            values: Vec::new(),
            stride: 1,
            rolling: Vec::new(),
            next: Vec::new(),
            succ_start: Vec::new(),
            succ: Vec::new(),
            err: Vec::new(),
            backward_bytes: 0,
        }
    }
}

/// Components of more groups than this keep only some layers' values.
const KEEP_EVERY_LAYER_UP_TO: usize = 256;

impl<T: Count> Layers<T> {
    /// Empty but for layer 0 (one state, nothing decided, count 1); keeps
    /// the buffers.
    fn reset(&mut self, groups: usize, stride: Option<usize>) {
        self.state_start.clear();
        self.state_start.extend([0, 1]);
        self.lo.clear();
        self.lo.push(0);
        self.width.clear();
        self.width.push(1);
        self.value_start.clear();
        self.value_start.push(0);
        self.values.clear();
        self.values.push(T::one());
        self.stride = stride.unwrap_or(if groups <= KEEP_EVERY_LAYER_UP_TO {
            1
        } else {
            (groups as f64).sqrt().ceil() as usize
        });
        self.succ_start.clear();
        self.succ.clear();
        self.err.clear();
        self.err.push(0.0);
    }

    fn layers(&self) -> usize {
        self.lo.len()
    }

    fn states(&self, i: usize) -> usize {
        (self.state_start[i + 1] - self.state_start[i]) as usize
    }

    fn kept(&self, i: usize) -> bool {
        self.value_start[i] != usize::MAX
    }

    /// The values of kept layer `i`.
    fn kept_values(&self, i: usize) -> &[T] {
        let start = self.value_start[i];
        &self.values[start..start + self.states(i) * self.width[i] as usize]
    }

    /// The component's layout counts by mine count: `(lo, N(lo..))`, and
    /// the bound on `Σ |δ|` of each.
    pub fn counts(&self) -> (u32, &[T], f64) {
        let last = self.layers() - 1;
        (self.lo[last], self.kept_values(last), self.err[last])
    }

    /// What its backward pass was estimated to hold, in bytes.
    pub fn backward_bytes(&self) -> usize {
        self.backward_bytes
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        bytes(&self.values)
            + bytes(&self.rolling)
            + bytes(&self.next)
            + bytes(&self.succ)
            + bytes(&self.state_start)
            + bytes(&self.lo)
            + bytes(&self.width)
            + bytes(&self.value_start)
            + bytes(&self.succ_start)
            + bytes(&self.err)
    }

    /// Layer `step + 1`'s values from layer `step`'s (`src`), into `dst`
    /// (resized and zeroed): every transition adds its binomial times the
    /// source row, shifted by its mines.
    fn accumulate(&self, step: usize, g: usize, src: &[T], dst: &mut Vec<T>) {
        let (width, lo) = (self.width[step] as usize, self.lo[step] as usize);
        let (next_width, next_lo) = (self.width[step + 1] as usize, self.lo[step + 1] as usize);
        let len = self.states(step);
        dst.clear();
        dst.resize(self.states(step + 1) * next_width, T::zero());
        let succ = &self.succ[self.succ_start[step]..];
        for s in 0..len {
            let row = &src[s * width..(s + 1) * width];
            for j in 0..=g {
                let t = succ[s * (g + 1) + j];
                if t == NONE {
                    continue;
                }
                let c = BINOMIAL[g][j];
                let (from, to, at) = landing(lo, width, j, next_lo, next_width);
                let at = t as usize * next_width + at;
                for (d, x) in dst[at..at + to - from].iter_mut().zip(&row[from..to]) {
                    d.add_scaled(x, c);
                }
            }
        }
    }
}

/// Which columns of a row of layer `i` (prefix counts `lo..lo + width`)
/// land inside layer `i + 1`'s range (`next_lo..next_lo + next_width`)
/// when the group takes `j` mines: `(from, to, at)`, columns `from..to`
/// going to `at..`. A layer's range is trimmed to the counts some state
/// holds, so a column that falls outside holds zero (a nonzero value times
/// a positive binomial would have landed inside).
#[inline]
pub(crate) fn landing(
    lo: usize,
    width: usize,
    j: usize,
    next_lo: usize,
    next_width: usize,
) -> (usize, usize, usize) {
    let shift = (lo + j) as isize - next_lo as isize; // column a lands on a + shift
    let from = (-shift).max(0) as usize;
    let to = (width as isize)
        .min(next_width as isize - shift)
        .max(from as isize) as usize;
    (from, to, (from as isize + shift) as usize)
}

/// Why a programme stopped.
pub(crate) enum Failure {
    /// No layout of the component fits its equations.
    NoLayout,
    OverBudget(OverBudget),
}

impl From<OverBudget> for Failure {
    fn from(e: OverBudget) -> Failure {
        Failure::OverBudget(e)
    }
}

/// State lookup buffers, reused from one component to the next.
#[derive(Default)]
pub(crate) struct KeyScratch {
    /// The keys of the layer being built from, and of the next.
    keys: Vec<u8>,
    states: LayerStates,
    key: Vec<u8>,
    indegree: Vec<u32>,
    ticks: Ticks,
}

impl KeyScratch {
    /// Bytes its buffers hold (their capacities).
    fn bytes(&self) -> usize {
        bytes(&self.keys) + self.states.bytes() + bytes(&self.key) + bytes(&self.indegree)
    }

    /// Reads the clock once enough work has been done since the last read.
    #[inline]
    pub fn tick(
        &mut self,
        units: u64,
        budget: &Budget,
        what: impl FnOnce() -> String,
    ) -> Result<(), OverBudget> {
        self.ticks.tick(units, budget, what)
    }
}

/// Empties `v` with room for `n` items, its old block given back before a
/// larger one is taken (nothing in it needs to move).
fn empty_with_room<T>(v: &mut Vec<T>, n: usize) {
    v.clear();
    if v.capacity() < n {
        *v = Vec::with_capacity(n);
    }
}

/// Names a component in budget messages.
pub(crate) fn describe(plan: &Plan, system: &System) -> String {
    let (r, c) = system.grid().rc(plan.first_cell);
    format!(
        "counting the layouts of the frontier component of {} cells at ({r},{c})",
        plan.cells()
    )
}

/// What a position's other programmes hold, in bytes, for the memory
/// budget: what they keep, and the most the backward passes of the same
/// number type will hold (they run one at a time, sharing their buffers:
/// see [`Layers::backward_bytes`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Held {
    pub kept: usize,
    pub backward: usize,
}

/// The forward programme of `plan` (see the module doc), beside what the
/// position's other programmes `held`; `backward`: whether a backward pass
/// follows (its buffers are counted against the budget; an exact count of
/// layouts needs none).
pub(crate) fn forward<T: Count>(
    plan: &Plan,
    system: &System,
    scratch: &mut KeyScratch,
    budget: &Budget,
    held: Held,
    layers: &mut Layers<T>,
    backward: bool,
) -> Result<(), Failure> {
    forward_keeping(plan, system, scratch, budget, held, layers, None, backward)
}

/// [`forward`] keeping the values of every `stride`-th layer (`None`: the
/// default for the component's length).
#[allow(clippy::too_many_arguments)]
fn forward_keeping<T: Count>(
    plan: &Plan,
    system: &System,
    scratch: &mut KeyScratch,
    budget: &Budget,
    held: Held,
    layers: &mut Layers<T>,
    stride: Option<usize>,
    backward: bool,
) -> Result<(), Failure> {
    let groups = plan.groups();
    layers.reset(groups, stride);
    let mut exact = true;
    scratch.keys.clear();
    let mut key_width = 0usize;
    let mut largest = 1;
    let mut decided = 0;
    for step in 0..groups {
        let g = plan.size(step);
        decided += g;
        let slots = plan.step_slots(step);
        let next_key_width = slots.iter().filter(|s| s.left_after > 0).count();
        let base = layers.state_start[step] as usize;
        let len = layers.state_start[step + 1] as usize - base;
        // Memory is checked before each buffer grows, counting what every
        // buffer holds (capacities) and what the other components keep.
        let what = || describe(plan, system);
        // (The backward passes' buffers are taken after every forward
        // pass: they count from the new layer's check on.)
        let others = held.kept + scratch.bytes() + layers.bytes() - bytes(&layers.succ);
        budget.reserve(&mut layers.succ, len * (g + 1), others, what)?;
        let held_here = held.kept + layers.bytes();
        let KeyScratch {
            keys,
            states,
            key,
            indegree,
            ..
        } = scratch;
        states.clear(next_key_width);
        indegree.clear();
        layers.succ_start.push(layers.succ.len());
        let (mut j_min, mut j_max) = (usize::MAX, 0usize);
        for s in 0..len {
            let old_key = &keys[s * key_width..(s + 1) * key_width];
            for j in 0..=g {
                // Decide the group with j mines; keep the state only if every
                // equation can still reach its target (a closing one exactly).
                if !successor_key(slots, old_key, key_width, j as u8, key) {
                    layers.succ.push(NONE);
                    continue;
                }
                let (t, new) = states.find_or_insert(key);
                if new {
                    let n = states.len();
                    if n >= STATES_BEFORE_MEMORY_CHECKS && n.is_power_of_two() {
                        // The new layer's keys, table and in-degrees may
                        // double, their old blocks held while they move.
                        let grows = 3 * (states.bytes() + bytes(indegree));
                        budget.check_bytes(held_here + bytes(keys) + bytes(key) + grows, what)?;
                    }
                    indegree.push(0);
                }
                indegree[t as usize] += 1;
                layers.succ.push(t);
                j_min = j_min.min(j);
                j_max = j_max.max(j);
            }
        }
        let next_len = states.len();
        if next_len == 0 {
            return Err(Failure::NoLayout);
        }
        let lo = layers.lo[step] as usize;
        let width = layers.width[step] as usize;
        let next_lo = lo + j_min;
        let next_width = width + j_max - j_min;
        let next_values = next_len * next_width;
        // The new layer, and what the backward pass will hold of a layer's
        // size: four buffers and (when not every layer is kept) a segment
        // of `stride` layers it recomputes, all for the largest layer yet.
        // A value's own heap (an exact count's digits: the counts below
        // `2^decided`) is counted for every layer held and the new one.
        largest = largest.max(next_values);
        let value = T::value_bytes(decided);
        let values = layers.values.len() + layers.rolling.len() + next_values;
        let digits = values * (value - std::mem::size_of::<T>());
        let buffers = 4 + if layers.stride > 1 { layers.stride } else { 0 };
        layers.backward_bytes = backward as usize * buffers * largest * value;
        let lookup = bytes(keys) + states.bytes() + bytes(key) + bytes(indegree);
        let later = held.kept + lookup + digits + held.backward.max(layers.backward_bytes);
        layers.next.clear();
        let others = later + layers.bytes() - bytes(&layers.next);
        budget.reserve(&mut layers.next, next_values, others, what)?;
        layers.lo.push(next_lo as u32);
        layers.width.push(next_width as u32);
        layers.state_start.push((base + len + next_len) as u32);
        // The values of the layer built from: kept, or the rolling buffer.
        let mut next = std::mem::take(&mut layers.next);
        if layers.kept(step) {
            layers.accumulate(step, g, layers.kept_values(step), &mut next);
        } else {
            layers.accumulate(step, g, &layers.rolling, &mut next);
        }
        // Trim the layer to the counts some state holds.
        let (first, last) = nonzero_columns(&next, next_len, next_width);
        if first > 0 || last + 1 < next_width {
            let trimmed = last + 1 - first;
            // Moving each value down (sources lie above their targets, and
            // no later source below an earlier one).
            for s in 0..next_len {
                for k in 0..trimmed {
                    next.swap(s * trimmed + k, s * next_width + first + k);
                }
            }
            next.truncate(next_len * trimmed);
            layers.lo[step + 1] += first as u32;
            layers.width[step + 1] = trimmed as u32;
        }
        exact &= T::known_exact(&next);
        if (step + 1) % layers.stride == 0 || step + 1 == groups {
            let others = later + layers.bytes() + bytes(&next) - bytes(&layers.values);
            budget.reserve(&mut layers.values, next.len(), others, what)?;
            layers.value_start.push(layers.values.len());
            layers.values.extend_from_slice(&next);
        } else {
            layers.value_start.push(usize::MAX);
        }
        // The new layer is the next one's source.
        layers.next = std::mem::replace(&mut layers.rolling, next);
        // An entry's terms: one product each, then at most one addition per
        // incoming transition after it.
        let most_in = *indegree.iter().max().unwrap() as f64;
        let err = layers.err[step] + T::UNIT * (1.0 + most_in);
        layers.err.push(err);
        states.swap_keys(keys);
        key_width = next_key_width;
        scratch.tick((len * (g + 1) + next_values) as u64, budget, || {
            describe(plan, system)
        })?;
    }
    layers.succ_start.push(layers.succ.len());
    if exact {
        layers.err.iter_mut().for_each(|e| *e = 0.0);
    }
    Ok(())
}

/// The first and last column holding a nonzero value in any of `rows`
/// rows of `width` (every layer holds one: its states are reached).
fn nonzero_columns<T: Count>(values: &[T], rows: usize, width: usize) -> (usize, usize) {
    let (mut first, mut last) = (width, 0);
    for s in 0..rows {
        let row = &values[s * width..(s + 1) * width];
        if let Some(f) = row[..first].iter().position(|x| !x.is_zero()) {
            first = f;
        }
        if let Some(l) = row[last..].iter().rposition(|x| !x.is_zero()) {
            last = last.max(last + l);
        }
    }
    debug_assert!(first <= last, "a layer holds a count");
    (first.min(last), last)
}

/// A group's weights from the backward pass: a cell of the group is a mine
/// with probability `mine / (mine + safe)`; `err` bounds `Σ |δ|` of both.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GroupWeights<T> {
    pub mine: T,
    pub safe: T,
    pub err: f64,
}

/// Buffers of the backward pass.
pub(crate) struct BackScratch<T> {
    here: Vec<T>,
    later: Vec<T>,
    /// Recomputed forward values of the layers of the current segment
    /// (those not kept), layer `i` at `segment_at[i − segment_first]`.
    segment: Vec<T>,
    segment_at: Vec<usize>,
    segment_first: usize,
    previous: Vec<T>,
    next: Vec<T>,
}

impl<T> Default for BackScratch<T> {
    fn default() -> Self {
        BackScratch {
            here: Vec::new(),
            later: Vec::new(),
            segment: Vec::new(),
            segment_at: Vec::new(),
            segment_first: usize::MAX,
            previous: Vec::new(),
            next: Vec::new(),
        }
    }
}

impl<T> BackScratch<T> {
    /// Bytes its buffers hold (their capacities).
    pub fn bytes(&self) -> usize {
        bytes(&self.here)
            + bytes(&self.later)
            + bytes(&self.segment)
            + bytes(&self.segment_at)
            + bytes(&self.previous)
            + bytes(&self.next)
    }
}

impl<T: Count> BackScratch<T> {
    /// Recomputes the forward values of layers `first + 1 ..= last` from
    /// kept layer `first`.
    fn replay(&mut self, plan: &Plan, layers: &Layers<T>, first: usize, last: usize) {
        let values = (first + 1..=last).map(|l| layers.states(l) * layers.width[l] as usize);
        empty_with_room(&mut self.segment, values.sum());
        self.segment_at.clear();
        self.segment_first = first + 1;
        self.previous.clear();
        self.previous.extend_from_slice(layers.kept_values(first));
        for l in first..last {
            layers.accumulate(l, plan.size(l), &self.previous, &mut self.next);
            self.segment_at.push(self.segment.len());
            self.segment.extend_from_slice(&self.next);
            std::mem::swap(&mut self.previous, &mut self.next);
        }
    }
}

/// The backward pass (see the module doc): `omega[k - lo]` is the weight
/// of the component holding `k` mines, for `k` in the final layer's range
/// `lo..` (`counts().0`), with `Σ |δ|` bound `omega_err`. Writes each
/// group's weights to `out[i]`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn backward<T: Num>(
    plan: &Plan,
    system: &System,
    layers: &Layers<T>,
    omega: &[T],
    omega_err: f64,
    scratch: &mut BackScratch<T>,
    keys: &mut KeyScratch,
    budget: &Budget,
    out: &mut Vec<GroupWeights<T>>,
) -> Result<(), OverBudget> {
    let groups = plan.groups();
    out.clear();
    out.resize(
        groups,
        GroupWeights {
            mine: T::zero(),
            safe: T::zero(),
            err: 0.0,
        },
    );
    let last = layers.layers() - 1;
    debug_assert_eq!(omega.len(), layers.width[last] as usize);
    // Each layer-sized buffer is made room for once, for the largest
    // layer: the forward pass checked that much against the budget.
    let most = (0..layers.layers())
        .map(|i| layers.states(i) * layers.width[i] as usize)
        .max()
        .unwrap_or(0);
    for v in [
        &mut scratch.here,
        &mut scratch.later,
        &mut scratch.previous,
        &mut scratch.next,
    ] {
        empty_with_room(v, most);
    }
    scratch.later.extend_from_slice(omega);
    let mut later_err = omega_err;
    scratch.segment_first = usize::MAX;
    for i in (0..groups).rev() {
        if !layers.kept(i)
            && (scratch.segment_first == usize::MAX
                || i < scratch.segment_first
                || i >= scratch.segment_first + scratch.segment_at.len())
        {
            // Going down, the first layer met of a segment is its last.
            let first = i - i % layers.stride;
            scratch.replay(plan, layers, first, i);
        }
        let g = plan.size(i);
        let len = layers.states(i);
        let width = layers.width[i] as usize;
        let lo = layers.lo[i] as usize;
        let later_width = layers.width[i + 1] as usize;
        let later_lo = layers.lo[i + 1] as usize;
        let succ = &layers.succ[layers.succ_start[i]..layers.succ_start[i + 1]];
        scratch.here.clear();
        scratch.here.resize(len * width, T::zero());
        let (mut mine, mut safe) = (T::zero(), T::zero());
        let mut terms = 0usize;
        let values: &[T] = if layers.kept(i) {
            layers.kept_values(i)
        } else {
            let at = scratch.segment_at[i - scratch.segment_first];
            &scratch.segment[at..at + len * width]
        };
        for s in 0..len {
            let f = &values[s * width..(s + 1) * width];
            let here = &mut scratch.here[s * width..(s + 1) * width];
            for j in 0..=g {
                let t = succ[s * (g + 1) + j];
                if t == NONE {
                    continue;
                }
                let c = BINOMIAL[g][j];
                // Completions of counts beyond the later layer's range are
                // never needed (no prefix reaches them): left at zero.
                let (from, to, at) = landing(lo, width, j, later_lo, later_width);
                let at = t as usize * later_width + at;
                let b = &scratch.later[at..at + to - from];
                let mut dot = T::zero();
                for ((h, x), y) in here[from..to].iter_mut().zip(b).zip(&f[from..to]) {
                    h.add_scaled(x, c);
                    dot = dot.add(y.mul(*x));
                }
                if !dot.is_zero() {
                    let term = dot.mul_small(c);
                    mine = mine.add(term.mul_small(j as u32));
                    safe = safe.add(term.mul_small((g - j) as u32));
                    terms += 1;
                }
            }
        }
        // A dot product: one product and at most one addition per entry;
        // then the binomial, the factor j or g − j, and one addition per
        // term.
        let err = layers.err[i] + later_err + T::UNIT * (width + 3 + terms) as f64;
        out[i] = GroupWeights { mine, safe, err };
        // A backward entry: one product per outgoing transition and at most
        // one addition per transition after it.
        later_err += T::UNIT * (g + 2) as f64;
        std::mem::swap(&mut scratch.here, &mut scratch.later);
        keys.tick((len * (g + 1) * width) as u64, budget, || {
            describe(plan, system)
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Cell};
    use crate::grid::Grid;

    /// A long chain: three rows of `w`, the middle one revealed (numbers
    /// from a pseudo-random layout of the outer rows).
    fn chain(w: usize, seed: u64) -> Board {
        let grid = Grid::new(3, w);
        let mut rng = crate::test_rng::TestRng::new(seed);
        let mines: Vec<bool> = (0..3 * w)
            .map(|i| {
                let draw = rng.below(5);
                i / w != 1 && draw < 2
            })
            .collect();
        let mut cells = vec![Cell::Unknown; 3 * w];
        for c in 0..w {
            let i = (w + c) as u32;
            let n = grid
                .neighbours(i)
                .iter()
                .filter(|&&x| mines[x as usize])
                .count();
            cells[w + c] = Cell::Revealed(n as u8);
        }
        Board::new(grid, cells, None)
    }

    #[test]
    fn keeping_some_layers_gives_the_same_bits_as_keeping_all() {
        let board = chain(300, 0x5eed);
        let system = System::build(&board).unwrap();
        let components = system.components();
        assert_eq!(components.len(), 1);
        let mut plan_scratch = PlanScratch::default();
        plan_scratch.prepare(&system);
        let mut plan = Plan::default();
        plan.rebuild(
            &system,
            &components[0],
            &mut plan_scratch,
            false,
            &Budget::unlimited(),
            0,
        )
        .unwrap();
        assert!(plan.groups() > KEEP_EVERY_LAYER_UP_TO);
        let budget = Budget::unlimited();
        let mut keys = KeyScratch::default();
        let weights = |stride: usize, keys: &mut KeyScratch| {
            let mut layers = Layers::<f64>::default();
            forward_keeping(
                &plan,
                &system,
                keys,
                &budget,
                Held::default(),
                &mut layers,
                Some(stride),
                true,
            )
            .ok()
            .unwrap();
            let (lo, counts, _) = layers.counts();
            // Weights growing with the count, to exercise them.
            let omega: Vec<f64> = (0..counts.len())
                .map(|k| 1.0 + (lo as usize + k) as f64 / 7.0)
                .collect();
            let mut out = Vec::new();
            backward(
                &plan,
                &system,
                &layers,
                &omega,
                0.0,
                &mut BackScratch::default(),
                keys,
                &budget,
                &mut out,
            )
            .unwrap();
            (
                layers.values.len(),
                out.iter()
                    .map(|w| (w.mine.to_bits(), w.safe.to_bits()))
                    .collect::<Vec<_>>(),
            )
        };
        let (all_kept, every) = weights(1, &mut keys);
        for stride in [2, 7, 40] {
            let (kept, some) = weights(stride, &mut keys);
            assert_eq!(every, some, "stride {stride}");
            assert!(
                kept * stride <= 2 * all_kept,
                "stride {stride}: {kept} of {all_kept} values kept"
            );
        }
    }

    #[test]
    fn binomials_are_pascal_s_triangle() {
        assert_eq!(BINOMIAL[0][0], 1);
        assert_eq!(BINOMIAL[4], [1, 4, 6, 4, 1, 0, 0, 0, 0]);
        assert_eq!(BINOMIAL[8], [1, 8, 28, 56, 70, 56, 28, 8, 1]);
    }
}
