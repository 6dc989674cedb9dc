//! Linked cells 1 and 2 on random positions: every deduction holds in every
//! mine layout consistent with the position (checked against the ground
//! truth on large boards, against all layouts on small ones), linked cells
//! 1 finds exactly what the pairs of equations force, `dirty` only narrows
//! it, and the solver never applies an unsound deduction.

use crate::util::Rng;
use proptest::prelude::*;
use sapper_engine::methods::{linked_cells_1, linked_cells_2, MethodTable};
use sapper_engine::solver::{solve_field, SolveError};
use sapper_engine::{Board, Cell, Field, Forced, Grid, Method, Value};
use std::collections::BTreeSet;

/// Parameters of a random position.
#[derive(Clone, Debug)]
struct Spec {
    h: usize,
    w: usize,
    mine_percent: u32,
    reveal_percent: u32,
    flag_percent: u32,
    total_known: bool,
    seed: u64,
}

fn spec(sizes: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Spec> {
    (
        sizes.clone(),
        sizes,
        5u32..=30,
        10u32..=80,
        0u32..=50,
        prop::bool::weighted(0.8),
        any::<u64>(),
    )
        .prop_map(
            |(h, w, mine_percent, reveal_percent, flag_percent, total_known, seed)| Spec {
                h,
                w,
                mine_percent,
                reveal_percent,
                flag_percent,
                total_known,
                seed,
            },
        )
}

/// A random field and a position consistent with it: a first click opened
/// as in the game (flood fill from 0s), further safe cells revealed at
/// random, some mines flagged, a few safe cells marked known-safe.
fn position(spec: &Spec) -> (Field, Board) {
    let mut rng = Rng::new(spec.seed);
    let grid = Grid::new(spec.h, spec.w);
    let n = grid.len();
    let mine: Vec<bool> = (0..n).map(|_| rng.chance(spec.mine_percent)).collect();
    let field = Field::from_mines(grid, mine, vec![false; n]);
    let mut cells = vec![Cell::Unknown; n];
    let click = rng.below(n) as u32;
    let mut stack = vec![click];
    while let Some(c) = stack.pop() {
        if field.mine[c as usize] || cells[c as usize] != Cell::Unknown {
            continue;
        }
        cells[c as usize] = Cell::Revealed(field.value[c as usize]);
        if field.value[c as usize] == 0 {
            stack.extend(grid.neighbours(c).iter().copied());
        }
    }
    for (i, cell) in cells.iter_mut().enumerate() {
        if *cell != Cell::Unknown {
            continue;
        }
        if field.mine[i] {
            if rng.chance(spec.flag_percent) {
                *cell = Cell::Mine;
            }
        } else if rng.chance(spec.reveal_percent) {
            *cell = Cell::Revealed(field.value[i]);
        } else if rng.chance(3) {
            *cell = Cell::Safe;
        }
    }
    let total = spec.total_known.then_some(field.total_mines);
    (field, Board::new(grid, cells, total))
}

fn agrees_with_truth(field: &Field, found: &[Forced]) -> Result<(), TestCaseError> {
    for f in found {
        let is_mine = field.mine[f.cell as usize];
        prop_assert_eq!(
            is_mine,
            f.value == Value::Mine,
            "cell {:?} proven {} but the truth says otherwise",
            field.grid.rc(f.cell),
            f.value
        );
    }
    Ok(())
}

fn set(found: &[Forced]) -> BTreeSet<Forced> {
    found.iter().copied().collect()
}

/// The revealed numbers of a board.
fn numbers(board: &Board) -> Vec<u32> {
    (0..board.grid().len() as u32)
        .filter(|&i| matches!(board.cell(i), Cell::Revealed(_)))
        .collect()
}

/// Independent oracle for linked cells 1: for every pair of numbers sharing
/// an unknown cell (and with at least one number in `dirty`, when given),
/// enumerate every assignment of their unknown cells that satisfies both
/// equations, and collect the cells with one value in all.
fn pairs_by_enumeration(board: &Board, dirty: Option<&[u32]>) -> BTreeSet<Forced> {
    let grid = board.grid();
    let nums = numbers(board);
    let mut forced = BTreeSet::new();
    for (k, &a) in nums.iter().enumerate() {
        for &b in &nums[k + 1..] {
            if grid.distance(a, b) > 2 {
                continue;
            }
            if dirty.is_some_and(|d| !d.contains(&a) && !d.contains(&b)) {
                continue;
            }
            let sa: Vec<u32> = board.unknown_neighbours(a).collect();
            let sb: Vec<u32> = board.unknown_neighbours(b).collect();
            if !sa.iter().any(|c| sb.contains(c)) {
                continue;
            }
            let (va, _) = board.effective(a).unwrap();
            let (vb, _) = board.effective(b).unwrap();
            let mut union: Vec<u32> = sa.iter().chain(&sb).copied().collect();
            union.sort_unstable();
            union.dedup();
            let mut can_mine = vec![false; union.len()];
            let mut can_safe = vec![false; union.len()];
            for assignment in 0u32..(1 << union.len()) {
                let mines_in = |s: &[u32]| {
                    s.iter()
                        .filter(|c| {
                            assignment >> union.iter().position(|u| u == *c).unwrap() & 1 == 1
                        })
                        .count() as i32
                };
                if mines_in(&sa) != va || mines_in(&sb) != vb {
                    continue;
                }
                for bit in 0..union.len() {
                    if assignment >> bit & 1 == 1 {
                        can_mine[bit] = true;
                    } else {
                        can_safe[bit] = true;
                    }
                }
            }
            for (bit, &cell) in union.iter().enumerate() {
                // Positions come from a truth, so every pair has a solution.
                assert!(can_mine[bit] || can_safe[bit]);
                if !can_mine[bit] {
                    forced.insert(Forced {
                        cell,
                        value: Value::Safe,
                    });
                }
                if !can_safe[bit] {
                    forced.insert(Forced {
                        cell,
                        value: Value::Mine,
                    });
                }
            }
        }
    }
    forced
}

/// Which values each unknown cell takes over all mine layouts consistent
/// with the numbers (and the total, if known). Frontier cells (next to a
/// number) are enumerated by backtracking; the interior only matters
/// through the count, so it is counted, not enumerated.
struct Layouts {
    can_mine: Vec<bool>,
    can_safe: Vec<bool>,
    count: u64,
}

/// Search nodes allowed before a position is given up as too slow to check.
const LAYOUT_NODES: u64 = 2_000_000;

/// `None` when the frontier is too large to enumerate quickly.
fn all_layouts(board: &Board) -> Option<Layouts> {
    let grid = board.grid();
    let nums = numbers(board);
    let is_frontier = |c: u32| nums.iter().any(|&i| grid.distance(i, c) == 1);
    let unknown = (0..grid.len() as u32).filter(|&i| board.cell(i).is_unknown());
    let (frontier, interior): (Vec<u32>, Vec<u32>) = unknown.partition(|&c| is_frontier(c));
    let mut search = LayoutSearch {
        touching: frontier
            .iter()
            .map(|&c| {
                (0..nums.len())
                    .filter(|&k| grid.distance(nums[k], c) == 1)
                    .collect()
            })
            .collect(),
        need: nums
            .iter()
            .map(|&i| board.effective(i).unwrap().0)
            .collect(),
        open: nums
            .iter()
            .map(|&i| board.effective(i).unwrap().1 as i32)
            .collect(),
        assignment: vec![false; frontier.len()],
        remaining: board.remaining_mines(),
        layouts: Layouts {
            can_mine: vec![false; grid.len()],
            can_safe: vec![false; grid.len()],
            count: 0,
        },
        frontier,
        interior,
        nodes: 0,
    };
    search.run(0, 0);
    (search.nodes <= LAYOUT_NODES).then_some(search.layouts)
}

struct LayoutSearch {
    frontier: Vec<u32>,
    interior: Vec<u32>,
    /// Per frontier cell: the numbers next to it.
    touching: Vec<Vec<usize>>,
    /// Per number: mines still needed, and unassigned cells around it.
    need: Vec<i32>,
    open: Vec<i32>,
    assignment: Vec<bool>,
    remaining: Option<i64>,
    layouts: Layouts,
    nodes: u64,
}

impl LayoutSearch {
    fn run(&mut self, pos: usize, placed: i64) {
        self.nodes += 1;
        if self.nodes > LAYOUT_NODES || self.remaining.is_some_and(|r| placed > r) {
            return;
        }
        if pos == self.frontier.len() {
            self.complete(placed);
            return;
        }
        for mine in [false, true] {
            // Each number next to the cell loses an unassigned cell; a mine
            // also uses one of its needed mines.
            let fits = self.touching[pos].iter().all(|&k| {
                if mine {
                    self.need[k] >= 1
                } else {
                    self.need[k] < self.open[k]
                }
            });
            if !fits {
                continue;
            }
            for &k in &self.touching[pos] {
                self.open[k] -= 1;
                self.need[k] -= mine as i32;
            }
            self.assignment[pos] = mine;
            self.run(pos + 1, placed + mine as i64);
            for &k in &self.touching[pos] {
                self.open[k] += 1;
                self.need[k] += mine as i32;
            }
        }
    }

    /// A frontier layout satisfying every number: it extends to the
    /// interior when the count allows.
    fn complete(&mut self, placed: i64) {
        let size = self.interior.len() as i64;
        let (interior_can_mine, interior_can_safe) = match self.remaining {
            Some(r) => {
                let left = r - placed;
                if left > size {
                    return;
                }
                (left >= 1, left < size)
            }
            None => (size > 0, size > 0),
        };
        self.layouts.count += 1;
        for (k, &c) in self.frontier.iter().enumerate() {
            if self.assignment[k] {
                self.layouts.can_mine[c as usize] = true;
            } else {
                self.layouts.can_safe[c as usize] = true;
            }
        }
        for &c in &self.interior {
            self.layouts.can_mine[c as usize] |= interior_can_mine;
            self.layouts.can_safe[c as usize] |= interior_can_safe;
        }
    }
}

fn run_lc1(board: &Board, dirty: Option<&[u32]>) -> Vec<Forced> {
    let mut out = vec![];
    linked_cells_1::find(board, dirty, &mut out)
        .expect("a position from a truth has no contradiction");
    out
}

fn run_lc2(board: &Board) -> Vec<Forced> {
    let mut out = vec![];
    linked_cells_2::find(board, None, &mut out)
        .expect("a position from a truth has no contradiction");
    out
}

proptest! {
    #![proptest_config(crate::util::cases(256))]
    /// Both methods on boards up to 16×16: no contradiction, and every
    /// deduction matches the ground truth.
    #[test]
    fn deductions_agree_with_the_truth(spec in spec(5..=16)) {
        let (field, board) = position(&spec);
        agrees_with_truth(&field, &run_lc1(&board, None))?;
        let lc2 = run_lc2(&board);
        if board.total_mines().is_none() {
            prop_assert!(lc2.is_empty());
        }
        agrees_with_truth(&field, &lc2)?;
    }

    /// Linked cells 1 finds exactly the cells some pair of equations forces
    /// (some pair touching a dirty number, with `dirty`).
    #[test]
    fn linked_cells_1_is_the_pair_reasoning(spec in spec(5..=12), pick in any::<u64>()) {
        let (_, board) = position(&spec);
        prop_assert_eq!(set(&run_lc1(&board, None)), pairs_by_enumeration(&board, None));
        let mut rng = Rng::new(pick);
        let dirty: Vec<u32> = numbers(&board).into_iter().filter(|_| rng.chance(30)).collect();
        prop_assert_eq!(set(&run_lc1(&board, Some(&dirty))), pairs_by_enumeration(&board, Some(&dirty)));
    }

    /// With `dirty`, linked cells 1 finds a subset of what it finds on the
    /// whole board, and all of it when every number is dirty.
    #[test]
    fn dirty_narrows_linked_cells_1(spec in spec(5..=16), pick in any::<u64>()) {
        let (_, board) = position(&spec);
        let everything = set(&run_lc1(&board, None));
        let mut rng = Rng::new(pick);
        let all = numbers(&board);
        let dirty: Vec<u32> = all.iter().copied().filter(|_| rng.chance(30)).collect();
        let some = set(&run_lc1(&board, Some(&dirty)));
        prop_assert!(some.is_subset(&everything), "{:?} not within {:?}", some, everything);
        // Each cell found with `dirty` is forced by a pair touching a dirty
        // number: running on the dirty numbers one at a time finds the same.
        let mut one_by_one = BTreeSet::new();
        for &d in &dirty {
            one_by_one.extend(run_lc1(&board, Some(&[d])));
        }
        prop_assert_eq!(&some, &one_by_one);
        prop_assert_eq!(set(&run_lc1(&board, Some(&all))), everything);
    }

    /// On small boards, every deduction of both methods holds in every
    /// layout consistent with the position (not just the one truth).
    #[test]
    fn deductions_hold_in_every_layout(spec in spec(4..=7)) {
        let (_, board) = position(&spec);
        let Some(layouts) = all_layouts(&board) else {
            return Ok(());
        };
        prop_assert!(layouts.count > 0);
        for f in run_lc1(&board, None).into_iter().chain(run_lc2(&board)) {
            let (r, c) = board.grid().rc(f.cell);
            match f.value {
                Value::Safe => prop_assert!(!layouts.can_mine[f.cell as usize], "({}, {}) proven safe but can be a mine", r, c),
                Value::Mine => prop_assert!(!layouts.can_safe[f.cell as usize], "({}, {}) proven a mine but can be safe", r, c),
            }
        }
    }

    /// Linked cells 2 finds every cell some packing of numbers proves.
    #[test]
    fn linked_cells_2_finds_every_packing_deduction(spec in spec(4..=8)) {
        let (_, board) = position(&spec);
        if board.grid().len() > 64 {
            return Ok(());
        }
        if let Some(expected) = packings_by_enumeration(&board) {
            let found = set(&run_lc2(&board));
            prop_assert!(expected.is_subset(&found), "missing {:?}", expected.difference(&found).collect::<Vec<_>>());
        }
    }
}

/// Everything a packing argument proves, by brute force over all sets of
/// numbers on a board of at most 64 cells: for every set of numbers with
/// pairwise disjoint unknown cells holding all remaining mines, the other
/// unknown cells are safe; holding all remaining safe cells, they are mines.
/// `None` when the board has too many numbers to enumerate.
fn packings_by_enumeration(board: &Board) -> Option<BTreeSet<Forced>> {
    let grid = board.grid();
    assert!(grid.len() <= 64);
    let remaining = board.remaining_mines()?;
    let unknown: u64 = (0..grid.len() as u32)
        .filter(|&i| board.cell(i).is_unknown())
        .fold(0, |m, i| m | 1 << i);
    let safe_left = unknown.count_ones() as i64 - remaining;
    // (unknown-cell mask, mines, safe cells) of each number with an unknown
    // neighbour.
    let eqs: Vec<(u64, i64, i64)> = numbers(board)
        .into_iter()
        .filter_map(|i| {
            let mask = board.unknown_neighbours(i).fold(0u64, |m, c| m | 1 << c);
            let (v, u) = board.effective(i).unwrap();
            (mask != 0).then_some((mask, v as i64, u as i64 - v as i64))
        })
        .collect();
    if eqs.len() > 16 {
        return None;
    }
    let mut forced = BTreeSet::new();
    for set in 0u32..1 << eqs.len() {
        let (mut covered, mut mines, mut safes, mut disjoint) = (0u64, 0, 0, true);
        for (k, &(mask, v, s)) in eqs.iter().enumerate() {
            if set >> k & 1 == 1 {
                disjoint &= covered & mask == 0;
                covered |= mask;
                mines += v;
                safes += s;
            }
        }
        if !disjoint {
            continue;
        }
        let outside = unknown & !covered;
        for (count, left, value) in [
            (mines, remaining, Value::Safe),
            (safes, safe_left, Value::Mine),
        ] {
            if count == left {
                forced.extend(
                    (0..64u32)
                        .filter(|&c| outside >> c & 1 == 1)
                        .map(|cell| Forced { cell, value }),
                );
            }
        }
    }
    Some(forced)
}

/// A field as the game deals it: `mines` mines placed uniformly except on
/// the first click and its neighbours, which open at the start.
fn dealt_field(h: usize, w: usize, mines: usize, rng: &mut Rng) -> Field {
    let grid = Grid::new(h, w);
    let n = grid.len();
    let click = grid.index(h / 2, w / 2);
    let mut free: Vec<u32> = (0..n as u32)
        .filter(|&i| grid.distance(i, click) > 1)
        .collect();
    let mut mine = vec![false; n];
    for _ in 0..mines {
        let k = rng.below(free.len());
        mine[free.swap_remove(k) as usize] = true;
    }
    let mut open = vec![false; n];
    open[click as usize] = true;
    Field::from_mines(grid, mine, open)
}

/// The solver on dealt fields (beginner, intermediate and expert sizes)
/// never applies a deduction the truth contradicts, and the two linked-cells
/// methods do part of the work.
///
/// Which method runs when depends on the record of work (`t_c` in work
/// units), so the test sets it rather than leave it to earlier fields: a first pass uses the research's
/// order (linked cells 1 second, before hypotheses); a second pass starts
/// from a table whose record makes linked cells 2 look cheapest (a million
/// instant successes, which later measurements cannot outweigh; the others
/// one success of a millisecond), so it runs first and must make
/// deductions, soundly.
#[test]
fn solver_stays_sound_on_dealt_fields() {
    // Untried methods keep their research slot, so every method gets a
    // record: one success of a millisecond for the others.
    let mut lc2_first = MethodTable::default();
    for m in Method::ALL {
        let s = lc2_first.get_mut(m);
        let (successes, nanos) = if m == Method::LinkedCells2 {
            (1_000_000, 0)
        } else {
            (1, 1_000_000)
        };
        s.attempts = successes;
        s.successes = successes;
        s.timed_successes = successes;
        s.nanos_success = nanos;
        s.work_success = nanos; // the order follows work units
    }
    lc2_first.reorder();
    assert_eq!(lc2_first.order()[0], Method::LinkedCells2);
    for (pass, mut table) in [
        ("research order", MethodTable::default()),
        ("linked cells 2 first", lc2_first),
    ] {
        let mut rng = Rng::new(2024);
        let mut solved = 0;
        let mut fields = 0;
        let before = *table.get(Method::LinkedCells2);
        for &(h, w, mines, count) in &[(9, 9, 10, 30), (16, 16, 40, 20), (16, 30, 99, 20)] {
            for _ in 0..count {
                let field = dealt_field(h, w, mines, &mut rng);
                match solve_field(&field, &mut table) {
                    Ok(outcome) => {
                        fields += 1;
                        solved += outcome.solved as usize;
                        for i in 0..field.grid.len() as u32 {
                            if outcome.board.cell(i) == Cell::Mine {
                                assert!(field.mine[i as usize]);
                            }
                        }
                    }
                    Err(SolveError::Unsound {
                        cell,
                        value,
                        source,
                    }) => {
                        panic!(
                            "{pass}: {} proved {:?} {value} wrongly",
                            source.name(),
                            field.grid.rc(cell)
                        )
                    }
                    Err(SolveError::Contradiction(c)) => {
                        panic!(
                            "{pass}: contradiction on a real field: {}",
                            c.describe(field.grid)
                        )
                    }
                    Err(SolveError::OverBudget(o)) => {
                        panic!("{pass}: an unbounded solve gave up: {o}")
                    }
                }
            }
        }
        assert_eq!(fields, 70, "{pass}");
        assert!(solved > 0, "{pass}");
        if pass == "research order" {
            assert!(
                table.get(Method::LinkedCells1).cells > 0,
                "{pass}: linked cells 1 never helped"
            );
        } else {
            assert!(
                table.get(Method::LinkedCells2).cells > before.cells,
                "{pass}: linked cells 2 never helped"
            );
        }
    }
}
