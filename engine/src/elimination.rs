//! Elimination orders for the path-decomposition programmes over a frontier
//! component, shared by the hypotheses method and the probability counter.
//!
//! Both programmes decide a component's cells one by one; the state after a
//! prefix is the vector of partial sums of the *active* equations (some
//! cells decided, some not), so the cost is the number of such vectors per
//! layer. [`choose_order`] picks an order that keeps that number small
//! ([`breadth_first_order`] is the counter's cheap first choice);
//! [`successor_key`] is the one transition both walk, and [`LayerStates`]
//! numbers the states of a layer as they are reached. The order only
//! affects speed, never a result.

use crate::budget::{Budget, OverBudget, Ticks};
use crate::constraints::{Component, System};
use hashbrown::HashTable;

/// Global variable and equation ids mapped to the current component's local
/// ids (`u32::MAX` outside it, or a component numbered before), kept from
/// one component to the next.
#[derive(Default)]
pub(crate) struct Local {
    pub var: Vec<u32>,
    pub eq: Vec<u32>,
}

impl Local {
    /// A map sized for `system` ([`Local::prepare`]).
    pub(crate) fn for_system(system: &System) -> Local {
        let mut local = Local::default();
        local.prepare(system);
        local
    }

    /// Sized for `system`'s variables and equations, every id outside.
    pub(crate) fn prepare(&mut self, system: &System) {
        self.var.clear();
        self.var.resize(system.frontier().len(), u32::MAX);
        self.eq.clear();
        self.eq.resize(system.equations().len(), u32::MAX);
    }

    /// Numbers `component`'s variables and equations locally.
    pub(crate) fn localise(&mut self, component: &Component) {
        for (l, &v) in component.vars.iter().enumerate() {
            self.var[v as usize] = l as u32;
        }
        for (l, &e) in component.equations.iter().enumerate() {
            self.eq[e as usize] = l as u32;
        }
    }
}

/// The number of values the partial sum of an equation with target `t`
/// can still take when `decided` of its cells are decided and `left` are
/// not: `max(0, t − left) ..= min(t, decided)`. An equation not yet opened
/// or already closed is not in the key (one value).
#[inline]
pub(crate) fn partial_sum_range(t: u8, decided: u8, left: u8) -> u32 {
    if decided == 0 || left == 0 {
        1
    } else {
        (t.min(decided) - t.saturating_sub(left) + 1) as u32
    }
}

/// The elimination order for a component's programme (global ids) and its
/// estimated [`Cost`]: the greedy order of [`greedy_order`], or a plain row
/// or column sweep of the board if [`estimated_cost`] says that one is
/// cheaper (on wide 2-D frontiers a straight sweep sometimes beats the
/// greedy wavefront). The order only affects speed, never the result.
///
/// On a component as wide as a large board this takes seconds (the greedy
/// search scans its candidates at every step): it reads `budget`'s clock
/// and cancel switch as it goes, and gives up naming the work `what`.
pub(crate) fn choose_order(
    system: &System,
    component: &Component,
    ids: &Local,
    budget: &Budget,
    what: &dyn Fn() -> String,
) -> Result<(Vec<u32>, Cost), OverBudget> {
    let mut ticks = Ticks::default();
    let mut best = greedy_order(system, component, ids, budget, &mut ticks, what)?;
    if component.vars.len() <= 16 {
        // Small: any sensible order is cheap, and no layer can hold more
        // than 2^16 states.
        let bound = (1u64 << component.vars.len()) as f64;
        return Ok((
            best,
            Cost {
                states: bound * component.vars.len() as f64,
                widest_layer: bound,
            },
        ));
    }
    let estimate = |order: &[u32], give_up: f64, ticks: &mut Ticks| {
        estimated_cost(system, component, order, ids, give_up, budget, ticks, what)
    };
    let mut best_cost = estimate(&best, f64::INFINITY, &mut ticks)?;
    if component.vars.len() <= SMALL_COMPONENT {
        return Ok((best, best_cost)); // any sensible order is cheap
    }
    for sweep in sweeps(system, component) {
        let cost = estimate(&sweep, best_cost.states, &mut ticks)?;
        if cost.states < best_cost.states {
            best_cost = cost;
            best = sweep;
        }
    }
    Ok((best, best_cost))
}

/// Names the ordering of `component` in budget messages.
pub(crate) fn ordering(system: &System, component: &Component) -> String {
    let (r, c) = system.grid().rc(system.cell(component.vars[0]));
    let n = component.vars.len();
    format!("ordering the frontier component of {n} cells at ({r},{c})")
}

/// The board's two sweeps of a component's variables (global ids): along
/// its rows (cell order, in which variables are numbered) and along its
/// columns.
pub(crate) fn sweeps(system: &System, component: &Component) -> [Vec<u32>; 2] {
    let w = system.grid().w;
    let mut columns = component.vars.clone();
    columns.sort_unstable_by_key(|&v| column_major(system.cell(v), w));
    [component.vars.clone(), columns]
}

/// Where `cell` comes in the sweep of a board `w` cells wide along its
/// columns.
pub(crate) fn column_major(cell: u32, w: usize) -> (usize, usize) {
    let c = cell as usize;
    (c % w, c / w)
}

/// [`estimated_cost`]'s bounds: on the states over all layers, and on the
/// states of the widest layer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Cost {
    pub states: f64,
    pub widest_layer: f64,
}

/// The counting programme's first choices of order: breadth-first from
/// `from`. Most frontier components of real play are chains along an
/// opening, which breadth-first order from an end walks end to end, and it
/// costs a fraction of the greedy search. The counter starts from the
/// component's first cell in board order, which is at an end of most
/// chains (their top row); a chain that search enters in its middle grows
/// at both ends, so the counter's second choice starts from the cell that
/// search reached last. It estimates the programme each order gives as
/// it builds it, tries the board's sweeps next and turns to
/// [`choose_order`] last. Returns the order and that farthest cell (ties:
/// the lowest id).
pub(crate) fn breadth_first_order(
    system: &System,
    component: &Component,
    ids: &Local,
    from: u32,
) -> (Vec<u32>, u32) {
    let n = component.vars.len();
    let mut dist = vec![u32::MAX; n];
    let mut queue = Vec::with_capacity(n);
    let far = breadth_first(system, ids, from, &mut dist, &mut queue);
    (queue, far)
}

/// Breadth-first search over the component from `from` (cells are
/// adjacent when they share an equation): fills `dist` (by local id) and
/// leaves the cells in visiting order in `queue`; returns the farthest cell
/// (ties: the lowest id).
fn breadth_first(
    system: &System,
    ids: &Local,
    from: u32,
    dist: &mut [u32],
    queue: &mut Vec<u32>,
) -> u32 {
    let local = |x: u32| ids.var[x as usize] as usize;
    dist.iter_mut().for_each(|d| *d = u32::MAX);
    queue.clear();
    dist[local(from)] = 0;
    queue.push(from);
    let mut head = 0;
    let mut far = from;
    while head < queue.len() {
        let x = queue[head];
        head += 1;
        let dx = dist[local(x)];
        let far_d = dist[local(far)];
        if dx > far_d || (dx == far_d && x < far) {
            far = x;
        }
        for &e in system.equations_of(x) {
            for &y in system.equation(e).vars.as_slice() {
                if dist[local(y)] == u32::MAX {
                    dist[local(y)] = dx + 1;
                    queue.push(y);
                }
            }
        }
    }
    far
}

/// Components of at most this many cells cannot hold many states in any
/// sensible order: their orders are not examined further (the counter's
/// breadth-first order, [`choose_order`]'s sweeps).
pub(crate) const SMALL_COMPONENT: usize = 32;

/// The number of cells of each of `component`'s equations (local ids):
/// the cells each has left to decide before any is decided.
fn equation_sizes(system: &System, component: &Component) -> Vec<u8> {
    component
        .equations
        .iter()
        .map(|&e| system.equation(e).vars.len() as u8)
        .collect()
}

/// Estimated work of an order: the sum over layers of the product, over
/// active equations, of the number of values each partial sum can take (an
/// upper bound on the layer's states), and the largest such product. Stops
/// early, returning infinity, once the sum is above `give_up`; reads the
/// clock through `ticks`.
#[allow(clippy::too_many_arguments)]
fn estimated_cost(
    system: &System,
    component: &Component,
    order: &[u32],
    ids: &Local,
    give_up: f64,
    budget: &Budget,
    ticks: &mut Ticks,
    what: &dyn Fn() -> String,
) -> Result<Cost, OverBudget> {
    let m = component.equations.len();
    let mut left = equation_sizes(system, component);
    let mut decided = vec![0u8; m];
    let mut active: Vec<u32> = Vec::new();
    let mut cost = Cost::default();
    for &x in order {
        for &e in system.equations_of(x) {
            let le = ids.eq[e as usize] as usize;
            if decided[le] == 0 {
                active.push(le as u32);
            }
            decided[le] += 1;
            left[le] -= 1;
        }
        ticks.tick(active.len() as u64 + 1, budget, what)?;
        active.retain(|&le| left[le as usize] > 0);
        let mut layer = 1.0f64;
        for &le in &active {
            let le = le as usize;
            let t = system.equation(component.equations[le]).target;
            layer *= partial_sum_range(t, decided[le], left[le]) as f64;
        }
        cost.states += layer;
        cost.widest_layer = cost.widest_layer.max(layer);
        if cost.states >= give_up {
            return Ok(Cost {
                states: f64::INFINITY,
                widest_layer: f64::INFINITY,
            });
        }
    }
    Ok(cost)
}

/// Greedy elimination order (global ids). Start at a peripheral cell (the
/// far end of a double breadth-first sweep); then always decide next the
/// candidate (a cell sharing an equation with a decided one) whose decision
/// multiplies the layer's state bound — the product over active equations
/// of their possible partial sums — the least (equations it closes divide
/// it, equations it opens multiply it), ties broken by distance from the
/// start, then cell index. A candidate's factor only changes when an
/// equation it shares with the decided cell changes, so factors are cached
/// and refreshed for those cells only. Reads the clock through `ticks`.
fn greedy_order(
    system: &System,
    component: &Component,
    ids: &Local,
    budget: &Budget,
    ticks: &mut Ticks,
    what: &dyn Fn() -> String,
) -> Result<Vec<u32>, OverBudget> {
    let n = component.vars.len();
    let local = |x: u32| ids.var[x as usize] as usize;
    let mut dist = vec![u32::MAX; n];
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    let mut bfs =
        |from: u32, dist: &mut Vec<u32>| breadth_first(system, ids, from, dist, &mut queue);
    let start = bfs(component.vars[0], &mut dist);
    bfs(start, &mut dist);

    let m = component.equations.len();
    let mut left = equation_sizes(system, component);
    let mut decided_in = vec![0u8; m];
    let factor = |x: u32, left: &[u8], decided_in: &[u8]| -> f64 {
        let mut f = 1.0;
        for &e in system.equations_of(x) {
            let le = ids.eq[e as usize] as usize;
            let (t, d, l) = (system.equation(e).target, decided_in[le], left[le]);
            f *= partial_sum_range(t, d + 1, l - 1) as f64 / partial_sum_range(t, d, l) as f64;
        }
        f
    };
    let mut decided = vec![false; n];
    let mut is_candidate = vec![false; n];
    let mut cached = vec![0f64; n];
    // The step at which each cell's factor was last refreshed: a cell in
    // several of x's equations is refreshed once.
    let mut refreshed = vec![usize::MAX; n];
    let mut candidates: Vec<u32> = vec![start];
    is_candidate[local(start)] = true;
    let mut order = Vec::with_capacity(n);
    while !candidates.is_empty() {
        ticks.tick(candidates.len() as u64, budget, what)?;
        let mut pick = 0;
        for k in 1..candidates.len() {
            let (x, b) = (candidates[k], candidates[pick]);
            let (fx, fb) = (cached[local(x)], cached[local(b)]);
            let better = if (fx - fb).abs() > 1e-9 * fb.max(1.0) {
                fx < fb
            } else {
                (dist[local(x)], x) < (dist[local(b)], b)
            };
            if better {
                pick = k;
            }
        }
        let x = candidates.swap_remove(pick);
        decided[local(x)] = true;
        let step = order.len();
        order.push(x);
        for &e in system.equations_of(x) {
            let le = ids.eq[e as usize] as usize;
            decided_in[le] += 1;
            left[le] -= 1;
        }
        // Cells sharing an equation with x: new candidates, and the only
        // ones whose factor changed.
        for &e in system.equations_of(x) {
            for &y in system.equation(e).vars.as_slice() {
                let ly = local(y);
                if decided[ly] || refreshed[ly] == step {
                    continue;
                }
                refreshed[ly] = step;
                if !is_candidate[ly] {
                    is_candidate[ly] = true;
                    candidates.push(y);
                }
                cached[ly] = factor(y, &left, &decided_in);
            }
        }
    }
    debug_assert_eq!(order.len(), n, "component is connected");
    Ok(order)
}

/// A layer's lookup buffers ([`LayerStates`]) are checked against the
/// memory limit each time its states double from this many on.
pub(crate) const STATES_BEFORE_MEMORY_CHECKS: usize = 1024;

/// The states of the next layer of a programme, numbered in the order they
/// are first reached: each a key of `width` bytes (the partial sums of the
/// equations still open), stored back to back.
///
/// Most layers of real positions hold a handful of states: a key is then
/// looked up by comparing it with each one, which costs less than hashing
/// it. Past [`LayerStates::SCANNED`] states the keys go into a hash table.
#[derive(Default)]
pub(crate) struct LayerStates {
    width: usize,
    keys: Vec<u8>,
    len: usize,
    /// Whether `table` holds every key (then `hashes` holds their hashes).
    hashed: bool,
    table: HashTable<u32>,
    hashes: Vec<u64>,
}

impl LayerStates {
    /// Up to this many states, a key is found by scanning.
    const SCANNED: usize = 8;

    /// Empties the layer for keys of `width` bytes; keeps the buffers.
    pub(crate) fn clear(&mut self, width: usize) {
        self.width = width;
        self.keys.clear();
        self.len = 0;
        if self.hashed {
            self.table.clear();
            self.hashes.clear();
            self.hashed = false;
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of the state `key` (`width` bytes), and whether it is
    /// new (numbered `len() - 1`).
    #[inline]
    pub(crate) fn find_or_insert(&mut self, key: &[u8]) -> (u32, bool) {
        debug_assert_eq!(key.len(), self.width);
        let found = if self.hashed {
            let hash = hash_key(key);
            let (keys, width) = (&self.keys, self.width);
            let found = self
                .table
                .find(hash, |&t| {
                    &keys[t as usize * width..(t as usize + 1) * width] == key
                })
                .copied();
            if found.is_none() {
                self.index(self.len as u32, hash);
            }
            found
        } else if self.width == 0 {
            // A layer of zero-width keys holds one state at most.
            (self.len > 0).then_some(0)
        } else {
            self.keys
                .chunks_exact(self.width)
                .position(|k| k == key)
                .map(|t| t as u32)
        };
        if let Some(t) = found {
            return (t, false);
        }
        self.keys.extend_from_slice(key);
        self.len += 1;
        if !self.hashed && self.len > Self::SCANNED {
            self.hash_every_key();
        }
        (self.len as u32 - 1, true)
    }

    /// Puts the keys scanned so far into the table.
    fn hash_every_key(&mut self) {
        self.hashed = true;
        for t in 0..self.len {
            let hash = hash_key(&self.keys[t * self.width..(t + 1) * self.width]);
            self.index(t as u32, hash);
        }
    }

    /// Files state `t`, of hash `hash`, in the table.
    fn index(&mut self, t: u32, hash: u64) {
        self.hashes.push(hash);
        let hashes = &self.hashes;
        self.table.insert_unique(hash, t, |&i| hashes[i as usize]);
    }

    /// Bytes its buffers hold (their capacities).
    pub(crate) fn bytes(&self) -> usize {
        self.keys.capacity()
            + self.table.allocation_size()
            + self.hashes.capacity() * std::mem::size_of::<u64>()
    }

    /// Moves the layer's keys into `keys` (for the next layer to build
    /// from), taking `keys`' buffer in exchange.
    pub(crate) fn swap_keys(&mut self, keys: &mut Vec<u8>) {
        std::mem::swap(&mut self.keys, keys);
    }
}

/// A fast deterministic hash of a state key.
#[inline]
pub(crate) fn hash_key(key: &[u8]) -> u64 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15 ^ key.len() as u64;
    for chunk in key.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 29;
    }
    h
}

/// One active equation's part in a step of a programme along an elimination
/// order: whether the step's cell (or group) is in it, its target, and how
/// many of its cells are still undecided after the step (0: it closes and
/// must hit its target exactly).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub(crate) add: bool,
    pub(crate) target: u8,
    pub(crate) left_after: u8,
}

/// The state after a step that puts `mines` mines on the step's cells,
/// from the state `old_key` (the partial sums of the first `key_width`
/// slots' equations; slots beyond it open with this step): writes the
/// partial sums of the equations still open into `key` and returns whether
/// the step is viable — no equation above its target, or below it by more
/// than its undecided cells. The one transition hypotheses and the
/// counter both walk.
#[inline]
pub(crate) fn successor_key(
    slots: &[Slot],
    old_key: &[u8],
    key_width: usize,
    mines: u8,
    key: &mut Vec<u8>,
) -> bool {
    key.clear();
    for (k, slot) in slots.iter().enumerate() {
        let before = if k < key_width { old_key[k] } else { 0 };
        let sum = before + if slot.add { mines } else { 0 };
        if sum > slot.target || sum + slot.left_after < slot.target {
            return false;
        }
        if slot.left_after > 0 {
            key.push(sum);
        }
    }
    true
}
