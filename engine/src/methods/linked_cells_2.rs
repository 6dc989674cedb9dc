//! Method 3, **linked cells 2**: several numbers' equations together with
//! the global mine-count equation.
//!
//! Only used when the total mine count is known. Let `U` be the unknown
//! cells, `R` the mines among them (total minus known mines), `F` the
//! *frontier* (unknown cells next to a revealed number) and `I = U \ F` the
//! *interior* (no revealed neighbour, no equation but the count).
//!
//! Everything below is stated for a *side*: mines, or safe cells. For a
//! number with unknown set `S` and effective value `v`, its *weight* is the
//! count of that side in `S` — `v` mines, or `|S| − v` safe cells — and the
//! side's *total* `T` is `R` mines or `|U| − R` safe cells. Arguing once per
//! side gives both the "everything else is safe" and the "everything else is
//! a mine" deductions with the same code.
//!
//! **Packings** (lower bounds). A set `D` of numbers whose unknown sets are
//! pairwise disjoint holds exactly `Σ weight(D)` of the side in `∪D`, so the
//! other unknown cells `O = U \ ∪D` hold exactly `T − Σ weight(D)`:
//! - `Σ weight(D) > T` is impossible: a contradiction;
//! - `Σ weight(D) = T` leaves none of the side for `O`: every cell of `O`
//!   is of the other side (all remaining mines are accounted for by
//!   disjoint numbers ⇒ every other closed cell is safe; or, for the safe
//!   side, every safe cell is accounted for ⇒ every other cell is a mine).
//!
//! Numbers sharing no cell, even through others, form separate
//! *components*; a packing is a packing of each component, so the best sum
//! is the sum of each component's best. Each component's best packing is
//! searched greedily in a few fixed orders (largest weight first, densest
//! first, smallest set first) and, for components of up to 64 numbers,
//! exactly by branch and bound (with a deterministic node budget) — only
//! when the cover bound below shows a packing could reach `T` at all. When the
//! best sum reaches `T`, every component holds exactly its best value, so a
//! frontier cell is decided as soon as *some* best packing of its component
//! misses it; the exact search is asked for one per cell.
//!
//! **Covers** (upper bounds). Taking numbers `n_1, n_2, …` in some order,
//! each contributes its *fresh* cells `N_i = S_i \ (S_1 ∪ … ∪ S_{i−1})`;
//! together they partition the frontier. `N_i` holds at most
//! `c_i = min(weight_i, |N_i|)` of the side, so the frontier holds at most
//! `H = Σ c_i`, while it must hold at least `T − |I|` (the interior holds at
//! most `|I|`):
//! - `H < T − |I|` is impossible: a contradiction;
//! - `H = T − |I|` makes every bound tight: the interior is entirely of the
//!   side (interior cells are mines when `R − H = |I|`), every `N_i` holds
//!   exactly `c_i` — all of the side when `c_i = |N_i|`, and when
//!   `c_i = weight_i` the rest of that number's set, `S_i \ N_i`, has none.
//!
//! Covers are built per component (greedy by least bound per fresh cell,
//! plus two fixed orders); the bound of the frontier is the sum of each
//! component's smallest.
//!
//! Finally, the count itself: `R < 0` (more flags than mines) or `R > |U|`
//! is a contradiction.

use crate::board::{Board, Contradiction, Forced, Value};
use crate::constraints::{remaining_mines, Component, Equation, System};

/// Components with at most this many numbers of positive weight get the
/// exact packing search (one bit per number).
const EXACT_LIMIT: usize = 64;
/// The greedy cover is quadratic in the component size: used up to this.
const GREEDY_COVER_LIMIT: usize = 256;
/// Nodes the exact packing searches of one call may visit together; when it
/// runs out, the best packings found so far are used (still sound). A count,
/// not a time, so results are deterministic.
const SEARCH_BUDGET: u64 = 200_000;

/// Finds the cells forced by the numbers together with the total mine
/// count; nothing when the total is unknown. `dirty` is ignored: the count
/// ties every cell to every other.
pub fn find(
    board: &Board,
    _dirty: Option<&[u32]>,
    out: &mut Vec<Forced>,
) -> Result<(), Contradiction> {
    let Some(remaining) = remaining_mines(board)? else {
        return Ok(());
    };
    let (remaining, unknown) = (remaining as i64, board.unknown_count() as i64);
    let system = System::build(board)?;
    let components = system.components();
    let mut scratch = Scratch::new(system.frontier().len());
    let start = out.len();
    for side in [Side::Mines, Side::Safes] {
        let total = match side {
            Side::Mines => remaining,
            Side::Safes => unknown - remaining,
        } as u64;
        let frontier_bound =
            cover_deductions(&system, &components, side, total, &mut scratch, out)?;
        // A packing holds at most what the frontier can hold: when even
        // that is short of the total, no packing can reach it and the
        // exact search is not worth its time.
        let search = frontier_bound >= total;
        packing_deductions(&system, &components, side, total, search, &mut scratch, out)?;
    }
    super::linked_cells_1::settle(
        out,
        start,
        "the numbers and the mine count force this cell to be both safe and a mine",
    )
}

/// Which count an argument is about (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Mines,
    Safes,
}

impl Side {
    /// How many of this side a number's cells hold.
    #[inline]
    fn weight(self, e: &Equation) -> u32 {
        match self {
            Side::Mines => e.target as u32,
            Side::Safes => (e.vars.len() - e.target as usize) as u32,
        }
    }
    /// The value of a cell of this side.
    fn counted(self) -> Value {
        match self {
            Side::Mines => Value::Mine,
            Side::Safes => Value::Safe,
        }
    }
    /// The value of a cell proven not of this side.
    fn other(self) -> Value {
        match self {
            Side::Mines => Value::Safe,
            Side::Safes => Value::Mine,
        }
    }
    fn noun(self) -> &'static str {
        match self {
            Side::Mines => "mines",
            Side::Safes => "safe cells",
        }
    }
}

/// A per-variable marker reset in O(1) by bumping a generation number.
struct Stamps {
    mark: Vec<u32>,
    generation: u32,
}

impl Stamps {
    fn new(n: usize) -> Stamps {
        Stamps {
            mark: vec![0; n],
            generation: 0,
        }
    }
    /// A fresh generation: no cell is marked with it yet.
    fn next(&mut self) -> u32 {
        if self.generation == u32::MAX {
            self.mark.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        self.generation
    }
    #[inline]
    fn is(&self, c: u32, generation: u32) -> bool {
        self.mark[c as usize] == generation
    }
    #[inline]
    fn set(&mut self, c: u32, generation: u32) {
        self.mark[c as usize] = generation;
    }
}

/// Working memory of one call.
struct Scratch {
    covered: Stamps,
    decided: Stamps,
    /// Per variable: the local numbers (bits) of an exact search containing it;
    /// all zero between uses.
    members: Vec<u64>,
    budget: u64,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            covered: Stamps::new(n),
            decided: Stamps::new(n),
            members: vec![0; n],
            budget: SEARCH_BUDGET,
        }
    }
}

// ---------------------------------------------------------------------------
// Packings

/// Numbers with pairwise disjoint unknown sets, and their total weight.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Packing {
    value: u64,
    /// Equation indices, increasing.
    members: Vec<u32>,
}

/// Takes the numbers of `order` one by one, keeping each that shares no cell
/// with those kept.
fn greedy_packing(system: &System, order: &[u32], side: Side, covered: &mut Stamps) -> Packing {
    let generation = covered.next();
    let mut packing = Packing {
        value: 0,
        members: Vec::new(),
    };
    for &j in order {
        let e = system.equation(j);
        if e.vars.as_slice().iter().any(|&c| covered.is(c, generation)) {
            continue;
        }
        for &c in e.vars.as_slice() {
            covered.set(c, generation);
        }
        packing.value += side.weight(e) as u64;
        packing.members.push(j);
    }
    packing.members.sort_unstable();
    packing
}

/// A component's numbers of positive weight as a conflict graph (two numbers
/// conflict when they share a cell), for the exact search.
struct ConflictGraph {
    /// Local index → equation index.
    ids: Vec<u32>,
    weights: Vec<u32>,
    /// Local index → the local numbers it conflicts with.
    conflicts: Vec<u64>,
}

impl ConflictGraph {
    /// `numbers`: at most 64 equation indices; the search branches on them
    /// in this order.
    fn new(system: &System, numbers: &[u32], side: Side, members: &mut [u64]) -> ConflictGraph {
        debug_assert!(numbers.len() <= EXACT_LIMIT);
        for (k, &j) in numbers.iter().enumerate() {
            for &c in system.equation(j).vars.as_slice() {
                members[c as usize] |= 1u64 << k;
            }
        }
        let conflicts = numbers
            .iter()
            .enumerate()
            .map(|(k, &j)| {
                let all = system
                    .equation(j)
                    .vars
                    .as_slice()
                    .iter()
                    .fold(0u64, |acc, &c| acc | members[c as usize]);
                all & !(1u64 << k)
            })
            .collect();
        // Leave the shared per-cell memory clean.
        for &j in numbers {
            for &c in system.equation(j).vars.as_slice() {
                members[c as usize] = 0;
            }
        }
        ConflictGraph {
            ids: numbers.to_vec(),
            weights: numbers
                .iter()
                .map(|&j| side.weight(system.equation(j)))
                .collect(),
            conflicts,
        }
    }

    fn all(&self) -> u64 {
        if self.ids.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.ids.len()) - 1
        }
    }

    /// The local numbers whose set contains variable `var`.
    fn containing(&self, system: &System, var: u32) -> u64 {
        self.ids
            .iter()
            .enumerate()
            .filter(|(_, &j)| system.equation(j).vars.as_slice().contains(&var))
            .fold(0u64, |acc, (k, _)| acc | (1u64 << k))
    }

    fn packing(&self, chosen: u64) -> Packing {
        let mut members: Vec<u32> = bits(chosen).map(|k| self.ids[k]).collect();
        members.sort_unstable();
        Packing {
            value: bits(chosen).map(|k| self.weights[k] as u64).sum(),
            members,
        }
    }

    /// The heaviest packing among the numbers `avail` if it weighs more than
    /// `floor` (and the budget allows finding it): branch and bound.
    fn best_above(&self, avail: u64, floor: u64, budget: &mut u64) -> Option<Packing> {
        let mut search = Search {
            graph: self,
            best: floor,
            best_set: None,
            budget,
        };
        search.run(avail, 0, 0);
        search.best_set.map(|set| self.packing(set))
    }
}

/// Iterates the set bits of a mask, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(k)
        }
    })
}

/// Maximum-weight independent set by branch and bound.
struct Search<'a> {
    graph: &'a ConflictGraph,
    best: u64,
    best_set: Option<u64>,
    budget: &'a mut u64,
}

impl Search<'_> {
    fn run(&mut self, avail: u64, chosen: u64, value: u64) {
        if *self.budget == 0 {
            return;
        }
        *self.budget -= 1;
        let rest: u64 = bits(avail).map(|k| self.graph.weights[k] as u64).sum();
        if value + rest <= self.best {
            return; // even taking every number left cannot beat the best
        }
        if avail == 0 {
            self.best = value;
            self.best_set = Some(chosen);
            return;
        }
        let k = avail.trailing_zeros() as usize;
        let bit = 1u64 << k;
        let weight = self.graph.weights[k] as u64;
        let conflicts = self.graph.conflicts[k] & avail;
        if conflicts == 0 {
            // Conflicts with nothing left: taking it never hurts.
            self.run(avail & !bit, chosen | bit, value + weight);
            return;
        }
        self.run(avail & !bit & !conflicts, chosen | bit, value + weight);
        self.run(avail & !bit, chosen, value);
    }
}

/// A component's best packings found for one side.
struct ComponentPackings {
    value: u64,
    /// Distinct packings of weight `value`.
    best: Vec<Packing>,
    graph: Option<ConflictGraph>,
}

/// `search`: also run the exact search (components of up to
/// [`EXACT_LIMIT`] numbers).
fn component_packings(
    system: &System,
    component: &Component,
    side: Side,
    search: bool,
    scratch: &mut Scratch,
) -> ComponentPackings {
    // Numbers of weight 0 never help a packing (they only shrink `O`).
    let mut positive: Vec<u32> = component
        .equations
        .iter()
        .copied()
        .filter(|&j| side.weight(system.equation(j)) > 0)
        .collect();
    let weight = |j: u32| side.weight(system.equation(j)) as u64;
    let len = |j: u32| system.equation(j).vars.len() as u64;
    let mut candidates = Vec::with_capacity(4);
    // Three greedy orders, each tie-broken down to the index so the result
    // is deterministic.
    type Order<'a> = &'a dyn Fn(&u32, &u32) -> std::cmp::Ordering;
    let orders: [Order; 3] = [
        // Largest weight first (ties: smaller set).
        &|&a, &b| {
            weight(b)
                .cmp(&weight(a))
                .then(len(a).cmp(&len(b)))
                .then(a.cmp(&b))
        },
        // Densest first: weight per cell.
        &|&a, &b| {
            (weight(b) * len(a))
                .cmp(&(weight(a) * len(b)))
                .then(weight(b).cmp(&weight(a)))
                .then(a.cmp(&b))
        },
        // Smallest set first: blocks the fewest others.
        &|&a, &b| {
            len(a)
                .cmp(&len(b))
                .then(weight(b).cmp(&weight(a)))
                .then(a.cmp(&b))
        },
    ];
    for order in orders {
        positive.sort_by(order);
        candidates.push(greedy_packing(
            system,
            &positive,
            side,
            &mut scratch.covered,
        ));
    }
    // The exact search below visits the numbers in the first order.
    let mut by_weight = positive;
    by_weight.sort_by(orders[0]);

    let mut value = candidates.iter().map(|p| p.value).max().unwrap_or(0);
    let mut best: Vec<Packing> = Vec::new();
    for p in candidates {
        if p.value == value && !best.contains(&p) {
            best.push(p);
        }
    }
    let graph = (search && by_weight.len() <= EXACT_LIMIT)
        .then(|| ConflictGraph::new(system, &by_weight, side, &mut scratch.members));
    if let Some(graph) = &graph {
        if let Some(better) = graph.best_above(graph.all(), value, &mut scratch.budget) {
            value = better.value;
            best = vec![better];
        }
    }
    ComponentPackings { value, best, graph }
}

fn packing_deductions(
    system: &System,
    components: &[Component],
    side: Side,
    total: u64,
    search: bool,
    scratch: &mut Scratch,
    out: &mut Vec<Forced>,
) -> Result<(), Contradiction> {
    let packings: Vec<ComponentPackings> = components
        .iter()
        .map(|component| component_packings(system, component, side, search, scratch))
        .collect();
    let sum: u64 = packings.iter().map(|p| p.value).sum();
    let numbers_of = |packings: &[ComponentPackings]| -> Vec<u32> {
        packings
            .iter()
            .flat_map(|p| p.best[0].members.iter().map(|&j| system.equation(j).number))
            .collect()
    };
    if sum > total {
        // Disjoint numbers hold exactly their weights: more than there is.
        return Err(Contradiction::new(
            numbers_of(&packings),
            format!(
                "numbers with disjoint closed cells need {sum} {} but the count leaves {total}",
                side.noun()
            ),
        ));
    }
    if sum < total {
        return Ok(());
    }
    // The packings account for the whole side: every component holds
    // exactly its best value, and for any combination of best packings the
    // cells outside them hold none of the side. The interior is outside
    // every packing.
    for &cell in system.interior() {
        out.push(Forced {
            cell,
            value: side.other(),
        });
    }
    for (component, found) in components.iter().zip(&packings) {
        let decided = scratch.decided.next();
        // A frontier cell missed by some best packing of its component is
        // outside a packing whose total is the whole side.
        for packing in &found.best {
            mark_missed(system, component, packing, side, scratch, decided, out);
        }
        let Some(graph) = &found.graph else {
            continue;
        };
        let Some(floor) = found.value.checked_sub(1) else {
            continue;
        };
        for &var in &component.vars {
            if scratch.decided.is(var, decided) {
                continue;
            }
            // Is there a packing as heavy as the best that avoids `var`?
            let avail = graph.all() & !graph.containing(system, var);
            let Some(packing) = graph.best_above(avail, floor, &mut scratch.budget) else {
                continue;
            };
            if packing.value > found.value {
                // Only possible when the budget cut the first search short:
                // this heavier packing overshoots the total.
                return Err(Contradiction::new(
                    packing
                        .members
                        .iter()
                        .map(|&j| system.equation(j).number)
                        .collect(),
                    format!(
                        "numbers with disjoint closed cells need more {} than the count leaves",
                        side.noun()
                    ),
                ));
            }
            mark_missed(system, component, &packing, side, scratch, decided, out);
        }
    }
    Ok(())
}

/// Pushes the component cells outside `packing` (not already pushed) as
/// proven not of `side`.
fn mark_missed(
    system: &System,
    component: &Component,
    packing: &Packing,
    side: Side,
    scratch: &mut Scratch,
    decided: u32,
    out: &mut Vec<Forced>,
) {
    let covered = scratch.covered.next();
    for &j in &packing.members {
        for &c in system.equation(j).vars.as_slice() {
            scratch.covered.set(c, covered);
        }
    }
    for &var in &component.vars {
        if !scratch.covered.is(var, covered) && !scratch.decided.is(var, decided) {
            scratch.decided.set(var, decided);
            out.push(Forced {
                cell: system.cell(var),
                value: side.other(),
            });
        }
    }
}

// ---------------------------------------------------------------------------
// Covers

/// One number of a cover and its fresh cells (bits over its `cells`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CoverStep {
    equation: u32,
    fresh: u8,
}

impl CoverStep {
    fn capacity(&self, system: &System, side: Side) -> u64 {
        (side.weight(system.equation(self.equation)) as u64).min(self.fresh.count_ones() as u64)
    }
}

/// Numbers covering a component's cells, in order, and the bound they give.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cover {
    bound: u64,
    steps: Vec<CoverStep>,
}

/// Fresh cells of `e` (not marked with `generation`) as bits over its cells.
fn fresh_cells(e: &Equation, covered: &Stamps, generation: u32) -> u8 {
    e.vars
        .as_slice()
        .iter()
        .enumerate()
        .filter(|(_, &c)| !covered.is(c, generation))
        .fold(0u8, |acc, (k, _)| acc | (1u8 << k))
}

fn take_step(
    system: &System,
    j: u32,
    fresh: u8,
    side: Side,
    covered: &mut Stamps,
    generation: u32,
    cover: &mut Cover,
) {
    let e = system.equation(j);
    for (k, &c) in e.vars.as_slice().iter().enumerate() {
        if fresh & (1u8 << k) != 0 {
            covered.set(c, generation);
        }
    }
    let step = CoverStep { equation: j, fresh };
    cover.bound += step.capacity(system, side);
    cover.steps.push(step);
}

fn cover_in_order(system: &System, order: &[u32], side: Side, covered: &mut Stamps) -> Cover {
    let generation = covered.next();
    let mut cover = Cover {
        bound: 0,
        steps: Vec::new(),
    };
    for &j in order {
        let fresh = fresh_cells(system.equation(j), covered, generation);
        if fresh != 0 {
            take_step(system, j, fresh, side, covered, generation, &mut cover);
        }
    }
    cover
}

/// Greedy set cover: repeatedly the number with the least capacity per
/// fresh cell (ties: more fresh cells, then smaller index).
fn greedy_cover(system: &System, component: &Component, side: Side, covered: &mut Stamps) -> Cover {
    let generation = covered.next();
    let mut cover = Cover {
        bound: 0,
        steps: Vec::new(),
    };
    let mut remaining = component.equations.clone();
    loop {
        // (position in `remaining`, capacity, fresh count, fresh bits)
        let mut choice: Option<(usize, u64, u64, u8)> = None;
        remaining.retain(|&j| fresh_cells(system.equation(j), covered, generation) != 0);
        for (pos, &j) in remaining.iter().enumerate() {
            let e = system.equation(j);
            let fresh = fresh_cells(e, covered, generation);
            let count = fresh.count_ones() as u64;
            let capacity = (side.weight(e) as u64).min(count);
            let better = match choice {
                None => true,
                Some((best_pos, best_capacity, best_count, _)) => {
                    let (lhs, rhs) = (capacity * best_count, best_capacity * count);
                    lhs < rhs
                        || (lhs == rhs
                            && (count > best_count
                                || (count == best_count && j < remaining[best_pos])))
                }
            };
            if better {
                choice = Some((pos, capacity, count, fresh));
            }
        }
        let Some((pos, _, _, fresh)) = choice else {
            break;
        };
        let j = remaining.swap_remove(pos);
        take_step(system, j, fresh, side, covered, generation, &mut cover);
    }
    cover
}

/// A component's smallest cover bound found and the covers reaching it.
fn component_covers(
    system: &System,
    component: &Component,
    side: Side,
    covered: &mut Stamps,
) -> (u64, Vec<Cover>) {
    let mut candidates = Vec::with_capacity(3);
    if component.equations.len() <= GREEDY_COVER_LIMIT {
        candidates.push(greedy_cover(system, component, side, covered));
    }
    let weight = |j: u32| side.weight(system.equation(j)) as u64;
    let len = |j: u32| system.equation(j).vars.len() as u64;
    let mut order = component.equations.clone();
    // Sparsest first: least weight per cell, then larger sets.
    order.sort_by(|&a, &b| {
        (weight(a) * len(b))
            .cmp(&(weight(b) * len(a)))
            .then(len(b).cmp(&len(a)))
            .then(a.cmp(&b))
    });
    candidates.push(cover_in_order(system, &order, side, covered));
    // Least weight first, then larger sets.
    order.sort_by(|&a, &b| {
        weight(a)
            .cmp(&weight(b))
            .then(len(b).cmp(&len(a)))
            .then(a.cmp(&b))
    });
    candidates.push(cover_in_order(system, &order, side, covered));
    let bound = candidates.iter().map(|c| c.bound).min().unwrap_or(0);
    let mut best: Vec<Cover> = Vec::new();
    for c in candidates {
        if c.bound == bound && !best.contains(&c) {
            best.push(c);
        }
    }
    (bound, best)
}

/// Returns the bound on the side's count in the frontier.
fn cover_deductions(
    system: &System,
    components: &[Component],
    side: Side,
    total: u64,
    scratch: &mut Scratch,
    out: &mut Vec<Forced>,
) -> Result<u64, Contradiction> {
    let covers: Vec<(u64, Vec<Cover>)> = components
        .iter()
        .map(|component| component_covers(system, component, side, &mut scratch.covered))
        .collect();
    let bound: u64 = covers.iter().map(|(b, _)| *b).sum();
    let interior = system.interior().len() as u64;
    // The frontier must hold at least `total − interior` of the side.
    let Some(needed) = total.checked_sub(interior) else {
        return Ok(bound);
    };
    if needed > bound {
        return Err(Contradiction::new(
            covers
                .iter()
                .flat_map(|(_, best)| best[0].steps.iter().map(|s| system.equation(s.equation).number))
                .collect(),
            format!(
                "the numbers leave room for at most {bound} {noun} among their closed cells and the \
                 {interior} cells away from them hold at most {interior}, but the count needs {total} {noun}",
                noun = side.noun()
            ),
        ));
    }
    if needed < bound {
        return Ok(bound);
    }
    // Tight: the interior is entirely of the side, and every fresh part of
    // every smallest cover holds exactly its capacity.
    for &cell in system.interior() {
        out.push(Forced {
            cell,
            value: side.counted(),
        });
    }
    for (_, best) in &covers {
        for cover in best {
            for step in &cover.steps {
                let e = system.equation(step.equation);
                let fresh_count = step.fresh.count_ones() as u64;
                let capacity = step.capacity(system, side);
                for (k, &var) in e.vars.as_slice().iter().enumerate() {
                    let cell = system.cell(var);
                    let is_fresh = step.fresh & (1u8 << k) != 0;
                    if is_fresh && capacity == fresh_count {
                        // The fresh cells are all of the side.
                        out.push(Forced {
                            cell,
                            value: side.counted(),
                        });
                    } else if !is_fresh && capacity == side.weight(e) as u64 {
                        // The fresh cells hold the number's whole weight:
                        // its cells covered earlier hold none of the side.
                        out.push(Forced {
                            cell,
                            value: side.other(),
                        });
                    }
                }
            }
        }
    }
    Ok(bound)
}

#[cfg(test)]
#[path = "linked_cells_2_tests.rs"]
mod tests;
