//! Method 4, **hypotheses** ("what if"), made complete.
//!
//! # What it decides
//!
//! The board is the system of docs/design.md §1: every revealed number gives the
//! equation `Σ x_n = number − known mines around it` over its closed
//! (`Cell::Unknown`) neighbours `n`, with `x_n ∈ {0, 1}`; when the total is
//! known, `Σ x = total − known mines` over *all* closed cells is added. The
//! research's method assumes a closed cell is a mine (or safe) and propagates
//! until a contradiction appears, which then forces the opposite value. Here
//! every such hypothesis is decided *exactly*: a closed cell is reported
//! forced to `v` iff the system plus "the cell is `¬v`" has no solution, and
//! every closed cell for which that holds is reported. Nothing weaker than a
//! proof of "no solution" forces a cell, so the method is sound; every
//! hypothesis is decided, so it is complete.
//!
//! # How
//!
//! 1. **Variables.** A closed cell with a revealed neighbour is a *frontier*
//!    cell (a variable of some number's equation). A closed cell without one
//!    is an *interior* cell: only the global equation sees it, and all
//!    interior cells are interchangeable, so they are handled by counting
//!    (`I` cells can take any number of mines in `0..=I`), never one by one.
//! 2. **Components.** Frontier cells linked through shared numbers (union-
//!    find over the equations) form independent components: no equation
//!    spans two of them, so their solutions combine freely except through
//!    the global count.
//! 3. **Per component, a dynamic programme along a path decomposition.** The
//!    component's cells are put in an elimination order (greedy from a
//!    peripheral cell, always taking the neighbour that grows the bound on
//!    the states least; or a straight row / column sweep when its estimated
//!    cost is lower). Deciding the cells one by one in that order, the only
//!    thing the future needs to know about the past is, for every *active*
//!    equation (some cells decided, some not), its partial sum; the state is
//!    that vector of partial sums. A state is dropped as soon as an active
//!    equation can no longer reach its target (partial sum above it, or
//!    below it by more than its undecided cells), and an equation whose last
//!    cell is decided must hit its target exactly. Each state carries the
//!    set (a bitset) of mine counts with which the decided prefix reaches it.
//!    The final layer holds one state (no active equation) whose count set
//!    is the set of mine counts the whole component can hold. Long chains
//!    of 100+ cells cost only their length times the (small) number of
//!    states per layer; solutions are never enumerated.
//! 4. **The global count**, when known: with `R` mines left to place and
//!    `I` interior cells, a choice of one mine count `k_c` per component is
//!    feasible iff `0 ≤ R − Σ k_c ≤ I` (the interior takes the rest). The
//!    components are chained in a second, outer dynamic programme over
//!    mine counts: prefix sets `P_c` (totals reachable by components before
//!    `c`) and backward sets `B_c` (totals at stage `c` from which the
//!    remaining components can still end in `[R − I, R]`). Component `c` may
//!    hold `k` mines iff some `p ∈ P_c` has `p + k ∈ B_{c+1}`: this is the
//!    "all but one" combination without re-multiplying the other
//!    components. When every combination of counts is feasible (the
//!    frontier's extreme totals both fit) the count cannot bind and this
//!    step is skipped.
//! 5. **Backward pass.** Each component's final state gets the set of
//!    counts allowed by step 4 (all counts without the total); going back,
//!    every state learns the prefix counts from which a completion ends in
//!    an allowed count. A cell can be `v` iff some state before it, reached
//!    with prefix counts `F`, has a `v` transition to a state whose backward
//!    set meets `F + v`. A cell that cannot be `¬v` is forced to `v`.
//! 6. **Interior cells** can be a mine iff some feasible frontier total
//!    leaves at least one mine for the interior, and safe iff some leaves at
//!    most `I − 1`; without the total they are never forced.
//!
//! Contradictions (no layout at all) are reported with the cells involved:
//! one number that cannot be satisfied by itself, the numbers of a
//! component with no solution, or (empty cell list) the global count.
//!
//! The cost per call is linear in the board size plus, per component,
//! `cells × states per layer × count words`; the number of states is
//! exponential only in the number of simultaneously active equations, which
//! along a real frontier stays small. [`find_profiled`] reports the sizes.

use crate::bitset::{
    any_in_range, clear_from, for_each_bit, get_bit, highest_bit, intersects_shl, lowest_bit,
    or_shl, or_shr, set_bit, set_range,
};
use crate::board::{Board, Contradiction, Forced, Value};
use crate::budget::{bytes, Budget, OverBudget};
use crate::constraints::{remaining_mines, Component, System};
use crate::elimination::STATES_BEFORE_MEMORY_CHECKS;
use crate::elimination::{choose_order, ordering, successor_key, LayerStates, Local, Slot};
use crate::methods::MethodError;

mod sat;

const NONE: u32 = u32::MAX;

/// Sizes seen by one call, for benchmarks and diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// Frontier components.
    pub components: usize,
    /// Closed cells with a revealed neighbour.
    pub frontier_cells: usize,
    /// Closed cells without one.
    pub interior_cells: usize,
    /// Cells of the largest component.
    pub largest_component: usize,
    /// Most states in one layer of any component's dynamic programme.
    pub largest_layer: usize,
    /// States over all layers and components.
    pub states: usize,
    /// Most equations active at once (the key width) in any component.
    pub widest_key: usize,
    /// True when the global count could bind (the outer count programme ran).
    pub count_binds: bool,
    /// True when the position was decided by the SAT path (module `sat`).
    pub sat: bool,
    /// Clauses of the SAT instance (0 when the SAT path did not run).
    pub sat_clauses: usize,
    /// SAT solver calls the SAT path took (0 when it did not run).
    pub sat_queries: usize,
}

/// When the programme is not worth running: a component whose estimated
/// widest layer or total states (bounds from the elimination order: the
/// product, over the equations active at a step, of the values their
/// partial sums can take) exceed these sends the whole position to the SAT
/// path (module `sat`), which gives the same answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProgrammeLimits {
    /// Most states the estimate allows in one layer of a component's
    /// programme.
    pub widest_layer: f64,
    /// Most states the estimate allows over all layers of a component's
    /// programme.
    pub states: f64,
}

/// The limits the solver uses. Real frontiers stay far below them (over
/// every stuck position of the test corpora the widest layer bound is at
/// most 288); a lattice of numbers as wide as a 22×22 board has a widest
/// layer bound of 4.7 million. A thin band 10 rows high and 2,000 long
/// (14,000 cells, widest layer 1,152, 7.5 million states in all) stays with
/// the programme, whose memory is linear in the component's length, where
/// the SAT path's count encoding would be quadratic.
pub const PROGRAMME_LIMITS: ProgrammeLimits = ProgrammeLimits {
    widest_layer: 65_536.0,
    states: 67_108_864.0,
};

/// Finds every closed cell forced by the whole system (see the module doc),
/// with no limit on time or memory (tests and oracles; the solver uses
/// [`find_within`]). `dirty` is ignored: the method is global.
pub fn find(
    board: &Board,
    _dirty: Option<&[u32]>,
    out: &mut Vec<Forced>,
) -> Result<(), Contradiction> {
    find_profiled(board, out).map(|_| ())
}

/// [`find`], also reporting the sizes it met.
pub fn find_profiled(board: &Board, out: &mut Vec<Forced>) -> Result<Profile, Contradiction> {
    match find_within(board, &Budget::unlimited(), PROGRAMME_LIMITS, out) {
        Ok(profile) => Ok(profile),
        Err(MethodError::Contradiction(c)) => Err(c),
        Err(MethodError::OverBudget(o)) => unreachable!("an unlimited budget ran out: {o}"),
    }
}

/// [`find`] within `budget`: gives up with [`MethodError::OverBudget`]
/// rather than exceed it. A component whose programme is estimated above
/// `limits` (normally [`PROGRAMME_LIMITS`]; tests lower them to run the SAT
/// path on small positions) sends the whole position to the SAT path.
pub fn find_within(
    board: &Board,
    budget: &Budget,
    limits: ProgrammeLimits,
    out: &mut Vec<Forced>,
) -> Result<Profile, MethodError> {
    let system = System::build(board)?;
    let components = system.components();
    let mut profile = Profile {
        components: components.len(),
        frontier_cells: system.frontier().len(),
        interior_cells: system.interior().len(),
        ..Profile::default()
    };
    let start = out.len();

    let mut scratch = Scratch::new(&system);
    let mut orders = Vec::with_capacity(components.len());
    for component in &components {
        scratch.local.localise(component);
        let what = || ordering(&system, component);
        budget.check_time(what)?;
        let (order, cost) = choose_order(&system, component, &scratch.local, budget, &what)?;
        if cost.widest_layer > limits.widest_layer || cost.states > limits.states {
            profile.sat = true;
            profile.largest_component = components.iter().map(|c| c.vars.len()).max().unwrap_or(0);
            sat::find(board, &system, budget, out, &mut profile)?;
            out[start..].sort_unstable_by_key(|f| f.cell);
            return Ok(profile);
        }
        orders.push(order);
    }

    // Without the total nothing needs the mine counts: states only carry
    // "reachable" (see `ComponentDp`).
    let count_mines = board.total_mines().is_some();
    let mut programmes = Vec::with_capacity(components.len());
    // What the programmes keep, and the most one backward pass holds
    // (they run one at a time).
    let (mut kept_bytes, mut backward_bytes) = (0usize, 0usize);
    for (component, order) in components.iter().zip(orders) {
        let dp = ComponentDp::forward(
            &system,
            component,
            order,
            count_mines,
            budget,
            (kept_bytes, backward_bytes),
            &mut scratch,
        )?;
        kept_bytes += dp.kept_bytes();
        backward_bytes = backward_bytes.max(dp.backward_bytes);
        profile.largest_component = profile.largest_component.max(dp.order.len());
        for i in 0..=dp.order.len() {
            profile.largest_layer = profile.largest_layer.max(dp.layer_len(i));
        }
        profile.states += *dp.layer_start.last().unwrap() as usize;
        profile.widest_key = profile.widest_key.max(dp.widest_key);
        programmes.push(dp);
    }

    let counts = combine_counts(board, &programmes, system.interior().len())?;
    profile.count_binds = counts.binds;

    let start = out.len();
    for (dp, allowed) in programmes.iter().zip(&counts.allowed) {
        dp.backward(allowed, budget, |var, can_safe, can_mine| {
            let cell = system.cell(var);
            // The cell is forced iff the opposite hypothesis has no solution
            // of the whole system (the backward pass decided both exactly).
            if can_mine && !can_safe {
                // "cell is safe" admits no layout: it is a mine.
                out.push(Forced {
                    cell,
                    value: Value::Mine,
                });
            } else if can_safe && !can_mine {
                // "cell is a mine" admits no layout: it is safe.
                out.push(Forced {
                    cell,
                    value: Value::Safe,
                });
            }
            debug_assert!(
                can_safe || can_mine,
                "feasible system but cell {cell} has no value"
            );
        })?;
    }
    let interior_value = match (counts.interior_can_mine, counts.interior_can_safe) {
        // Every feasible frontier total leaves exactly `I` mines for the
        // `I` interior cells: all of them are mines.
        (true, false) => Some(Value::Mine),
        // Every feasible frontier total uses up all the remaining mines:
        // no interior cell can be a mine.
        (false, true) => Some(Value::Safe),
        _ => None,
    };
    if let Some(value) = interior_value {
        out.extend(system.interior().iter().map(|&cell| Forced { cell, value }));
    }
    out[start..].sort_unstable_by_key(|f| f.cell);
    Ok(profile)
}

/// Per-call buffers, reused from one component to the next.
struct Scratch {
    /// Global variable and equation ids → the current component's.
    local: Local,
    /// Keys (partial sums of the active equations) of the current layer,
    /// and the states of the next.
    keys: Vec<u8>,
    states: LayerStates,
    key: Vec<u8>,
}

impl Scratch {
    fn new(system: &System) -> Scratch {
        Scratch {
            local: Local::for_system(system),
            keys: Vec::new(),
            states: LayerStates::default(),
            key: Vec::new(),
        }
    }
}

/// A component's forward programme, kept for the backward pass. States are
/// numbered consecutively across layers: layer `i` (the states before
/// deciding `order[i]`) holds states `layer_start[i]..layer_start[i + 1]`;
/// layer `n` holds the single final state.
///
/// # Memory
///
/// What the backward pass needs of each state is its transitions (kept for
/// every layer: two numbers a state) and the set of mine counts with which
/// the decided prefix reaches it. Those count sets are what grows: at layer
/// `i` a set spans counts `0..=i`, so keeping every layer's would cost
/// memory quadratic in a long component's length. So the count sets of
/// only every `stride`-th layer (`stride ≈ √n`) are kept, the *checkpoints*;
/// the backward pass, walking back one block of `stride` layers at a time,
/// recomputes the block's sets from its checkpoint through the kept
/// transitions. Each set is sized to its layer (`⌈(i + 1) / 64⌉` words).
/// Without the total no count is needed at all: every set is one word
/// holding bit 0, "reachable", and a mine adds nothing to it.
struct ComponentDp {
    /// Global variable ids in elimination order.
    order: Vec<u32>,
    layer_start: Vec<u32>,
    /// Per state of layers `0..n`, the successor state when the cell is
    /// safe (0) or a mine (1), or `NONE`.
    succ: Vec<[u32; 2]>,
    /// Count sets of layers `0, stride, 2·stride, …` (bit `k` = the prefix
    /// reaches the state with `k` mines), [`ComponentDp::words_at`] words a
    /// state.
    checkpoints: Vec<Vec<u64>>,
    stride: usize,
    /// The count set of the final state: what the component can hold.
    final_counts: Vec<u64>,
    /// False when mine counts are not tracked (no total).
    count_mines: bool,
    /// Bitset words of the final count set.
    words: usize,
    /// Most equations active at once.
    widest_key: usize,
    /// What its backward pass was estimated to hold, in bytes.
    backward_bytes: usize,
}

impl ComponentDp {
    /// Runs the forward programme along `order`. A layer with no state
    /// means the component's equations have no common solution: a
    /// contradiction naming its numbers. Gives up when the budget's time
    /// runs out or what it keeps (plus `kept_before`, the earlier
    /// components', and the most their backward passes hold,
    /// `backward_before`) would exceed its memory.
    fn forward(
        system: &System,
        component: &Component,
        order: Vec<u32>,
        count_mines: bool,
        budget: &Budget,
        (kept_before, backward_before): (usize, usize),
        scratch: &mut Scratch,
    ) -> Result<ComponentDp, MethodError> {
        let n = component.vars.len();
        scratch.local.localise(component);
        let (slots, slot_start) = step_plans(system, component, &order, scratch);
        let stride = ((n as f64).sqrt().ceil() as usize).max(1);
        let words_at = |i: usize| words_at(count_mines, i);
        let shift = |v: u8| if count_mines { v as usize } else { 0 };
        let what = || format!("a frontier component of {n} closed cells");

        let mut counts = vec![0u64; 1];
        counts[0] = 1; // nothing decided: zero mines
        let mut next_counts: Vec<u64> = Vec::new();
        let mut checkpoints: Vec<Vec<u64>> = Vec::new();
        let mut checkpoint_bytes = 0usize;
        let mut layer_start: Vec<u32> = vec![0, 1];
        let mut succ: Vec<[u32; 2]> = Vec::new();
        let Scratch {
            keys, states, key, ..
        } = scratch;
        keys.clear();
        let mut width = 0usize;
        let mut widest_key = 0usize;
        let mut states_since_check = 0usize;
        // The backward pass holds the counts of one block of `stride`
        // layers at a time (recomputed from its checkpoint) and two
        // layers' sets: the largest block and layer, in words.
        let (mut block, mut largest_block, mut largest_layer) = (0usize, 0usize, 0usize);

        for step in 0..n {
            let (w, next_w) = (words_at(step), words_at(step + 1));
            if step % stride == 0 {
                checkpoint_bytes += counts.len() * 8;
                block = 0;
            }
            block += counts.len();
            largest_block = largest_block.max(block);
            largest_layer = largest_layer.max(counts.len());
            let plan = &slots[slot_start[step]..slot_start[step + 1]];
            let next_width = plan.iter().filter(|s| s.left_after > 0).count();
            let base = layer_start[step] as usize;
            let next_base = layer_start[step + 1] as usize;
            let len = next_base - base;
            // The clock is read every few thousand states, not every layer
            // (a read costs as much as a small layer).
            states_since_check += len;
            if states_since_check >= 4096 {
                states_since_check = 0;
                budget.check_time(what)?;
            }
            // Each buffer is checked before it grows, counting what every
            // buffer holds (by capacity) and the earlier components.
            let lookup = bytes(keys) + states.bytes() + bytes(key);
            let others = kept_before + checkpoint_bytes + bytes(&counts);
            let held = others + lookup + bytes(&next_counts);
            budget.check_bytes(held + bytes(&succ), what)?;
            if step % stride == 0 {
                checkpoints.push(counts.clone());
            }
            let more = next_base - succ.len();
            budget.reserve(&mut succ, more, held, what)?;
            next_counts.clear();
            // What is held beside the next layer's counts and lookup.
            let held_here = others + bytes(&succ);
            states.clear(next_width);
            succ.resize(next_base, [NONE; 2]);
            for s in 0..len {
                let old_key = &keys[s * width..(s + 1) * width];
                for v in 0..2u8 {
                    // Decide the step's cell = v and update every equation
                    // it is in; keep the state only if every equation can
                    // still reach its target (a closing one exactly).
                    if !successor_key(plan, old_key, width, v, key) {
                        continue;
                    }
                    let (idx, new) = states.find_or_insert(key);
                    let idx = idx as usize;
                    if new {
                        let n = states.len();
                        let lookup = bytes(keys) + bytes(key);
                        if n >= STATES_BEFORE_MEMORY_CHECKS && n.is_power_of_two() {
                            // The next layer's keys and table may double,
                            // their old blocks held while they move.
                            let grows = 3 * states.bytes();
                            let held = held_here + bytes(&next_counts) + lookup + grows;
                            budget.check_bytes(held, what)?;
                        }
                        let held = held_here + lookup + states.bytes();
                        budget.reserve(&mut next_counts, next_w, held, what)?;
                        next_counts.resize(next_counts.len() + next_w, 0);
                    }
                    succ[base + s][v as usize] = (next_base + idx) as u32;
                    // The successor is reached with this state's counts,
                    // plus one if the cell is a mine.
                    or_shl(
                        &mut next_counts[idx * next_w..(idx + 1) * next_w],
                        &counts[s * w..(s + 1) * w],
                        shift(v),
                    );
                }
            }
            if states.is_empty() {
                let mut numbers: Vec<u32> = component
                    .equations
                    .iter()
                    .map(|&e| system.equation(e).number)
                    .collect();
                numbers.sort_unstable();
                return Err(Contradiction::new(
                    numbers,
                    format!(
                        "these {} numbers admit no mine layout of their {} closed neighbours together",
                        component.equations.len(),
                        n
                    ),
                )
                .into());
            }
            layer_start.push((next_base + states.len()) as u32);
            states.swap_keys(keys);
            std::mem::swap(&mut counts, &mut next_counts);
            width = next_width;
            widest_key = widest_key.max(width);
        }
        // Shrunk in place (the C library trims the block), so nothing moves.
        succ.shrink_to_fit();
        let dp = ComponentDp {
            backward_bytes: (largest_block + 2 * largest_layer.max(words_at(n))) * 8,
            order,
            layer_start,
            succ,
            checkpoints,
            stride,
            words: words_at(n),
            final_counts: counts,
            count_mines,
            widest_key,
        };
        // The kept programme and its backward pass, before that pass runs.
        let lookup = bytes(keys) + states.bytes() + bytes(key);
        let backward = backward_before.max(dp.backward_bytes);
        budget.check_bytes(kept_before + dp.kept_bytes() + lookup + backward, what)?;
        Ok(dp)
    }

    fn layer_len(&self, i: usize) -> usize {
        (self.layer_start[i + 1] - self.layer_start[i]) as usize
    }

    /// Bytes kept for the backward pass.
    fn kept_bytes(&self) -> usize {
        bytes(&self.succ)
            + bytes(&self.layer_start)
            + self.checkpoints.iter().map(bytes).sum::<usize>()
            + bytes(&self.final_counts)
    }

    /// Mine counts the whole component can hold (only `{0}` when counts
    /// are not tracked).
    fn feasible_counts(&self) -> &[u64] {
        &self.final_counts
    }

    /// The count sets of layers `from..to` (within one block), from the
    /// checkpoint of layer `from` through the kept transitions: the same
    /// sets the forward pass computed.
    fn recompute_block(&self, from: usize, to: usize) -> Vec<Vec<u64>> {
        let mut block = Vec::with_capacity(to - from);
        block.push(self.checkpoints[from / self.stride].clone());
        for i in from..to - 1 {
            let (w, next_w) = (self.words_at(i), self.words_at(i + 1));
            let base = self.layer_start[i] as usize;
            let next_base = self.layer_start[i + 1] as usize;
            let mut next = vec![0u64; self.layer_len(i + 1) * next_w];
            let here = block.last().expect("the checkpoint");
            for s in 0..self.layer_len(i) {
                for (v, &t) in self.succ[base + s].iter().enumerate() {
                    if t == NONE {
                        continue;
                    }
                    let t = t as usize - next_base;
                    or_shl(
                        &mut next[t * next_w..(t + 1) * next_w],
                        &here[s * w..(s + 1) * w],
                        if self.count_mines { v } else { 0 },
                    );
                }
            }
            block.push(next);
        }
        block
    }

    fn words_at(&self, i: usize) -> usize {
        words_at(self.count_mines, i)
    }

    /// The backward pass: `allowed` is the set of this component's mine
    /// counts the rest of the board can complete. Calls
    /// `report(var, can_safe, can_mine)` for every variable.
    fn backward(
        &self,
        allowed: &[u64],
        budget: &Budget,
        mut report: impl FnMut(u32, bool, bool),
    ) -> Result<(), OverBudget> {
        let n = self.order.len();
        let shift = |v: usize| if self.count_mines { v } else { 0 };
        // Backward sets of the final state: a prefix that decided the whole
        // component with `a` mines completes iff `a` is allowed.
        // Room for the largest layer's sets, taken once: what the forward
        // pass counted for them.
        let most = (0..n).map(|i| self.layer_len(i) * self.words_at(i)).max();
        let most = most.unwrap_or(0).max(self.words);
        let mut later: Vec<u64> = Vec::with_capacity(most);
        later.extend_from_slice(&allowed[..self.words]);
        let mut here: Vec<u64> = Vec::with_capacity(most);
        let mut block_start = (n.saturating_sub(1) / self.stride) * self.stride;
        loop {
            budget.check_time(|| format!("a frontier component of {n} closed cells"))?;
            let block_end = (block_start + self.stride).min(n);
            let block = self.recompute_block(block_start, block_end);
            for i in (block_start..block_end).rev() {
                let w = self.words_at(i);
                let later_w = self.words_at(i + 1);
                let base = self.layer_start[i] as usize;
                let later_base = self.layer_start[i + 1] as usize;
                let len = self.layer_len(i);
                let counts = &block[i - block_start];
                here.clear();
                here.resize(len * w, 0);
                let mut possible = [false; 2];
                for s in 0..len {
                    let prefix = &counts[s * w..(s + 1) * w];
                    let successors = &self.succ[base + s];
                    for (v, (&t, possible_v)) in successors.iter().zip(&mut possible).enumerate() {
                        if t == NONE {
                            continue;
                        }
                        let t = t as usize - later_base;
                        let completes = &later[t * later_w..(t + 1) * later_w];
                        // The cell can be `v` iff some prefix count `a`
                        // reaching this state has `a + v` in the
                        // successor's backward set: a whole solution (the
                        // prefix, then `v`, then a completion) with an
                        // allowed mine count exists.
                        if !*possible_v && intersects_shl(prefix, shift(v), completes) {
                            *possible_v = true;
                        }
                        // This state completes from prefix count `a` if the
                        // successor completes from `a + v`.
                        or_shr(&mut here[s * w..(s + 1) * w], completes, shift(v));
                    }
                }
                report(self.order[i], possible[0], possible[1]);
                std::mem::swap(&mut later, &mut here);
            }
            if block_start == 0 {
                return Ok(());
            }
            block_start -= self.stride;
        }
    }
}

/// Words of a count set at layer `i` (counts `0..=i`), or one word holding
/// only "reachable" when mine counts are not tracked.
fn words_at(count_mines: bool, i: usize) -> usize {
    if count_mines {
        (i + 1).div_ceil(64)
    } else {
        1
    }
}

/// For each step of the order, the slots of the equations it touches: first
/// the equations active before the step (in key order), then the ones the
/// step opens. Returns the flat slots and each step's start.
fn step_plans(
    system: &System,
    component: &Component,
    order: &[u32],
    scratch: &Scratch,
) -> (Vec<Slot>, Vec<usize>) {
    let mut left: Vec<u8> = component
        .equations
        .iter()
        .map(|&e| system.equation(e).vars.len() as u8)
        .collect();
    let mut opened = vec![false; component.equations.len()];
    let mut active: Vec<u32> = Vec::new(); // local equation ids, key order
    let mut next_active: Vec<u32> = Vec::new();
    let mut slots = Vec::new();
    let mut start = Vec::with_capacity(order.len() + 1);
    for &x in order {
        start.push(slots.len());
        let eqs_of_x = system.equations_of(x);
        let touches = |le: u32| eqs_of_x.iter().any(|&e| scratch.local.eq[e as usize] == le);
        next_active.clear();
        for &le in &active {
            let add = touches(le);
            if add {
                left[le as usize] -= 1;
            }
            let eq = &system.equation(component.equations[le as usize]);
            slots.push(Slot {
                add,
                target: eq.target,
                left_after: left[le as usize],
            });
            if left[le as usize] > 0 {
                next_active.push(le);
            }
        }
        for &e in eqs_of_x {
            let le = scratch.local.eq[e as usize];
            if opened[le as usize] {
                continue;
            }
            opened[le as usize] = true;
            left[le as usize] -= 1;
            slots.push(Slot {
                add: true,
                target: system.equation(e).target,
                left_after: left[le as usize],
            });
            if left[le as usize] > 0 {
                next_active.push(le);
            }
        }
        std::mem::swap(&mut active, &mut next_active);
    }
    start.push(slots.len());
    debug_assert!(active.is_empty(), "every equation closes by the last step");
    (slots, start)
}

/// How the global count restricts the components and the interior.
struct CountResult {
    /// Per component, the mine counts the rest of the board can complete.
    allowed: Vec<Vec<u64>>,
    interior_can_mine: bool,
    interior_can_safe: bool,
    /// The outer count programme ran (the count could bind).
    binds: bool,
}

/// Step 4 of the module doc: combines the components' feasible counts with
/// the global count.
fn combine_counts(
    board: &Board,
    dps: &[ComponentDp],
    interior: usize,
) -> Result<CountResult, Contradiction> {
    let all_counts = |dp: &ComponentDp| vec![u64::MAX; dp.words];
    let Some(remaining) = remaining_mines(board)? else {
        // No global equation: components are independent and interior cells
        // are free, so every component count is allowed and no interior cell
        // is forced.
        return Ok(CountResult {
            allowed: dps.iter().map(all_counts).collect(),
            interior_can_mine: interior > 0,
            interior_can_safe: interior > 0,
            binds: false,
        });
    };
    let total = board.total_mines().unwrap_or(0);
    let known = board.known_mines();
    let closed = board.unknown_count();
    let total_phrase = if known == 0 {
        format!("total {total}")
    } else {
        format!("total {total} with {known} mines known leaves {remaining}")
    };
    let r = remaining as u64;
    let i = interior as u64;
    let minima: Vec<u64> = dps
        .iter()
        .map(|dp| {
            lowest_bit(dp.feasible_counts()).expect("a feasible component has a count") as u64
        })
        .collect();
    let maxima: Vec<u64> = dps
        .iter()
        .map(|dp| {
            highest_bit(dp.feasible_counts()).expect("a feasible component has a count") as u64
        })
        .collect();
    let frontier_min: u64 = minima.iter().sum();
    let frontier_max: u64 = maxima.iter().sum();
    // Every layout puts between `frontier_min` and `frontier_max + I`
    // mines on the closed cells; the count must fall in that range.
    if r < frontier_min || r > frontier_max + i {
        return Err(Contradiction::new(
            Vec::new(),
            format!(
                "{total_phrase}: between {frontier_min} and {} mines fit in the {closed} closed cells",
                frontier_max + i
            ),
        ));
    }
    if frontier_max <= r && frontier_min + i >= r {
        // Any choice of solutions, one per component, leaves between
        // `r - frontier_max ≥ 0` and `r - frontier_min ≤ I` mines for the
        // interior: the count rules nothing out on the frontier. The
        // interior can hold a mine iff the sparsest frontier leaves one,
        // and a safe cell iff the densest frontier leaves fewer than `I`.
        return Ok(CountResult {
            allowed: dps.iter().map(all_counts).collect(),
            interior_can_mine: i > 0 && frontier_min < r,
            interior_can_safe: i > 0 && frontier_max + i > r,
            binds: false,
        });
    }

    // The outer programme over totals 0..=r (a total above r can only grow).
    let bits = r as usize + 1;
    let words = bits.div_ceil(64);
    let c = dps.len();
    // backward[k]: totals t after components 0..k from which components
    // k.. can end in [r - I, r].
    let mut backward = vec![0u64; (c + 1) * words];
    set_range(
        &mut backward[c * words..],
        r.saturating_sub(i) as usize,
        r as usize,
    );
    for k in (0..c).rev() {
        let (head, tail) = backward.split_at_mut((k + 1) * words);
        let dst = &mut head[k * words..];
        let src = &tail[..words];
        for_each_bit(dps[k].feasible_counts(), |m| {
            if m <= r as usize {
                or_shr(dst, src, m);
            }
        });
    }
    if !get_bit(&backward[..words], 0) {
        return Err(Contradiction::new(
            Vec::new(),
            format!(
                "{total_phrase}: no layout puts exactly {r} mines on the {closed} closed cells \
                 (between {frontier_min} and {} fit, with gaps)",
                frontier_max + i
            ),
        ));
    }
    let mut prefix = vec![0u64; words];
    prefix[0] = 1; // no component yet: total 0
    let mut allowed = Vec::with_capacity(c);
    for (k, dp) in dps.iter().enumerate() {
        let after = &backward[(k + 1) * words..(k + 2) * words];
        let mut mask = vec![0u64; dp.words];
        for_each_bit(dp.feasible_counts(), |m| {
            // Component k may hold m mines iff some total p of the earlier
            // components has p + m completable by the later ones.
            if m <= r as usize && intersects_shl(&prefix, m, after) {
                set_bit(&mut mask, m);
            }
        });
        allowed.push(mask);
        let mut next = vec![0u64; words];
        for_each_bit(dp.feasible_counts(), |m| {
            if m <= r as usize {
                or_shl(&mut next, &prefix, m);
            }
        });
        clear_from(&mut next, bits);
        prefix = next;
    }
    // `prefix` now holds every achievable frontier total ≤ r; the interior
    // takes r - t of them, which must lie in 0..=I.
    let lo = r.saturating_sub(i) as usize;
    Ok(CountResult {
        allowed,
        interior_can_mine: i > 0 && r >= 1 && any_in_range(&prefix, lo, r as usize - 1),
        interior_can_safe: i > 0
            && any_in_range(&prefix, (r + 1).saturating_sub(i) as usize, r as usize),
        binds: true,
    })
}

#[cfg(test)]
mod tests;
