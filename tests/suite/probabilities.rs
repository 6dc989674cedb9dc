//! Mine probabilities (`sapper_engine::probabilities`) against two
//! independent computations written here:
//!
//! - **Enumeration** of every layout of the closed cells, on every small
//!   random board (at most 20 closed cells; with and without flags, `*`
//!   cells, the total): each probability equals the enumeration's fraction
//!   within 1e-12 — exactly 0 or 1 where the fraction is — and the number of
//!   layouts is the count, exactly.
//! - **Backtracking per component**, on random expert (30×16/99) mid-game
//!   positions: each frontier component's layouts are enumerated group by
//!   group (cells with the same numbers around them, binomial
//!   multiplicities), recursively, then combined over the total in exact
//!   rationals. A different algorithm from the counter's path
//!   decomposition; they must agree to 1e-12.
//!
//! Plus: probability exactly 0 or 1 exactly where the complete analysis
//! (hypotheses, and `analyse` to its fixpoint) finds forced cells.

use crate::util::hyp_boards::{
    consistent, endgame, extreme_total, perturbed, played, real_size, recounted, sparse, wild, Case,
};
use crate::util::{mines_around, Rng};
use num_bigint::BigUint;
use proptest::prelude::*;
use sapper_engine::budget::Budget;
use sapper_engine::methods::{hypotheses, MethodTable};
use sapper_engine::probabilities::{Probabilities, ProbabilityError, ACCURACY};
use sapper_engine::solver::analyse_position;
use sapper_engine::{Board, Cell, Value};

// ---- enumeration ----

/// Every layout of the closed cells that fits the numbers and flags (the
/// total ignored), counted by mine count: `all[k]` layouts with `k` mines,
/// `mine[x][k]` of them with a mine on closed cell `x` (index in `closed`).
struct Enumerated {
    closed: Vec<u32>,
    all: Vec<u64>,
    mine: Vec<Vec<u64>>,
}

fn enumerate(board: &Board) -> Enumerated {
    let grid = board.grid();
    let cells = board.cells();
    let closed: Vec<u32> = (0..cells.len() as u32)
        .filter(|&i| cells[i as usize] == Cell::Unknown)
        .collect();
    assert!(closed.len() <= 20);
    let bit = |c: u32| closed.iter().position(|&x| x == c).map(|k| 1u32 << k);
    let checks: Vec<(u32, i64)> = (0..cells.len() as u32)
        .filter_map(|i| match cells[i as usize] {
            Cell::Revealed(v) => {
                let mut mask = 0;
                let mut need = v as i64;
                for &nb in &grid.neighbours(i) {
                    match cells[nb as usize] {
                        Cell::Mine => need -= 1,
                        Cell::Unknown => mask |= bit(nb).unwrap(),
                        _ => {}
                    }
                }
                Some((mask, need))
            }
            _ => None,
        })
        // A number with no closed neighbour holds for every layout or for
        // none: its need alone says which.
        .filter(|&(mask, need)| mask != 0 || need != 0)
        .collect();
    let n = closed.len();
    let mut all = vec![0u64; n + 1];
    let mut mine = vec![vec![0u64; n + 1]; n];
    for layout in 0u32..1 << n {
        if checks
            .iter()
            .all(|&(mask, need)| (layout & mask).count_ones() as i64 == need)
        {
            let k = layout.count_ones() as usize;
            all[k] += 1;
            for (x, m) in mine.iter_mut().enumerate() {
                if layout >> x & 1 == 1 {
                    m[k] += 1;
                }
            }
        }
    }
    Enumerated { closed, all, mine }
}

/// What the enumeration says one cell's probability is: the exact fraction
/// `(numerator, denominator)` with the total, or a float from at most 21
/// terms with a density.
enum Expected {
    Fraction(u64, u64),
    Weighted(f64, bool, bool), // value, can be a mine, can be safe
}

/// Compares the counter with the enumeration on one board, with its total
/// if it has one, else with `density`.
fn check_against_enumeration(board: &Board, density: f64) -> Result<(), TestCaseError> {
    let mut p = Probabilities::new();
    let result = p.compute(board, Some(density), &Budget::unlimited());
    check_counted(board, density, &mut p, result)
}

/// Compares what `p` computed on `board` (`result`) with the enumeration.
fn check_counted(
    board: &Board,
    density: f64,
    p: &mut Probabilities,
    result: Result<(), ProbabilityError>,
) -> Result<(), TestCaseError> {
    let e = enumerate(board);
    let remaining = board.remaining_mines();
    let layouts: u64 = match remaining {
        Some(r) if r < 0 || r as usize >= e.all.len() => 0,
        Some(r) => e.all[r as usize],
        None => e.all.iter().sum(),
    };
    if layouts == 0 {
        prop_assert!(
            matches!(result, Err(ProbabilityError::Contradiction(_))),
            "no layout fits, but the counter says {result:?} on {board:?}"
        );
        return Ok(());
    }
    prop_assert!(result.is_ok(), "{result:?} on {board:?}");
    let lambda = density / (1.0 - density);
    for (x, &cell) in e.closed.iter().enumerate() {
        let expected = match remaining {
            Some(r) => Expected::Fraction(e.mine[x][r as usize], layouts),
            None => {
                let weigh = |counts: &[u64]| -> f64 {
                    counts
                        .iter()
                        .enumerate()
                        .map(|(k, &c)| c as f64 * lambda.powi(k as i32))
                        .sum()
                };
                let m = weigh(&e.mine[x]);
                let all = weigh(&e.all);
                let mines: u64 = e.mine[x].iter().sum();
                Expected::Weighted(m / all, mines > 0, mines < layouts)
            }
        };
        let got = p
            .probability(cell)
            .expect("a closed cell has a probability");
        prop_assert!((0.0..=1.0).contains(&got), "probability {got} of {cell}");
        let (value, can_mine, can_safe) = match expected {
            Expected::Fraction(m, all) => (m as f64 / all as f64, m > 0, m < all),
            Expected::Weighted(v, m, s) => (v, m, s),
        };
        prop_assert_eq!(
            got == 0.0,
            !can_mine,
            "cell {} got {} on {:?}",
            cell,
            got,
            board
        );
        prop_assert_eq!(
            got == 1.0,
            !can_safe,
            "cell {} got {} on {:?}",
            cell,
            got,
            board
        );
        // The density's reference is itself a float sum: allow its error.
        let slack = if remaining.is_some() {
            ACCURACY
        } else {
            ACCURACY + 1e-14
        };
        prop_assert!(
            (got - value).abs() <= slack,
            "cell {cell}: {got} vs enumerated {value} on {board:?}"
        );
    }
    for cell in 0..board.grid().len() as u32 {
        if board.cell(cell) != Cell::Unknown {
            prop_assert_eq!(p.probability(cell), None);
        }
    }
    prop_assert!(p.error_bound() <= ACCURACY);
    prop_assert!(((layouts as f64).log10() - p.log10_layouts()).abs() < 1e-9);
    // The layouts' weight: each one 1 with the total; with a density, the
    // chance of its mines and safe cells, cell by cell.
    let weight = match remaining {
        Some(_) => layouts as f64,
        None => {
            let n = e.closed.len() as i32;
            (e.all.iter().enumerate())
                .map(|(k, &c)| {
                    c as f64 * density.powi(k as i32) * (1.0 - density).powi(n - k as i32)
                })
                .sum()
        }
    };
    prop_assert!(
        (weight.log10() - p.log10_weight()).abs() < 1e-9,
        "weight 10^{} against {weight} on {board:?}",
        p.log10_weight()
    );
    let exact = p.layouts(&Budget::unlimited()).unwrap();
    prop_assert_eq!(exact, BigUint::from(layouts));
    Ok(())
}

/// The board of `case` with a total, and some changes to it as a player's
/// look-ahead and trials make them: the first of `picks` (closed cells)
/// revealed as a number it can show (`value`, clamped to the range), or
/// set to a mine or a safe cell, by `kinds`; then the other picks set to
/// mines or safe cells. Returns the board and the changed cells.
fn changed(
    case: &Case,
    picks: &[prop::sample::Index],
    kinds: &[u8],
    value: u8,
) -> (Board, Board, Vec<u32>) {
    let board = match case.board.total_mines() {
        Some(_) => case.board.clone(),
        None => {
            let cells = case.board.cells().to_vec();
            Board::new(case.board.grid(), cells, case.other_total().total_mines())
        }
    };
    let grid = board.grid();
    let closed: Vec<u32> = (0..grid.len() as u32)
        .filter(|&c| board.cell(c) == Cell::Unknown)
        .collect();
    let mut next = board.clone();
    let mut cells: Vec<u32> = Vec::new();
    if closed.is_empty() {
        return (board, next, cells);
    }
    for (k, (pick, &kind)) in picks.iter().zip(kinds).enumerate() {
        let c = closed[pick.index(closed.len())];
        if cells.contains(&c) {
            continue;
        }
        cells.push(c);
        let state = match (k, kind) {
            (0, 0) => {
                let known = grid
                    .neighbours(c)
                    .iter()
                    .filter(|&&n| board.cell(n) == Cell::Mine)
                    .count() as u8;
                Cell::Revealed(known + value % (board.unknown_around(c) as u8 + 1))
            }
            (_, 1) => Cell::Safe,
            _ => Cell::Mine,
        };
        next.set(c, state);
    }
    (board, next, cells)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// A count after changes (`compute_changed`, from the count of the
    /// board before them, which keeps the components they do not touch)
    /// equals the enumerated fractions of the changed board, and the count
    /// alone (`layouts_changed`, forward only) its number of layouts.
    #[test]
    fn probabilities_after_changes_equal_the_enumerated_fractions(
        case in prop_oneof![consistent(), played(), endgame(), sparse()],
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
        kinds in prop::collection::vec(0u8..3, 1..4),
        value in 0u8..9) {
        let (board, next, cells) = changed(&case, &picks, &kinds, value);
        let budget = Budget::unlimited();
        let mut base = Probabilities::new();
        prop_assume!(base.compute_if_consistent(&board, None, &budget) == Ok(true));
        let mut p = Probabilities::new();
        let result = match p.compute_changed(&next, &base, &cells, None, &budget) {
            Ok(true) => Ok(()),
            Ok(false) => Err(ProbabilityError::Contradiction(
                sapper_engine::Contradiction::new(Vec::new(), "no layout"),
            )),
            Err(e) => Err(e),
        };
        check_counted(&next, 0.5, &mut p, result)?;
        let layouts = brute_layouts(&next);
        let count = p.layouts_changed(&next, &base, &cells, None, &budget).unwrap();
        match count {
            None => prop_assert_eq!(layouts, 0),
            Some(log10) => prop_assert!(
                ((layouts as f64).log10() - log10).abs() < 1e-9,
                "10^{} layouts against {} on {:?}", log10, layouts, next
            ),
        }
    }
}

/// The frontier of `board` by component (closed cells next to a number,
/// joined when they share one), each component's cells grouped by the
/// numbers around them: per component, its groups' sizes.
fn frontier_groups(board: &Board) -> Vec<Vec<usize>> {
    let grid = board.grid();
    let numbers_around = |c: u32| -> Vec<u32> {
        let mut v: Vec<u32> = grid
            .neighbours(c)
            .iter()
            .copied()
            .filter(|&n| matches!(board.cell(n), Cell::Revealed(_)))
            .collect();
        v.sort_unstable();
        v
    };
    let frontier: Vec<(u32, Vec<u32>)> = (0..grid.len() as u32)
        .filter(|&c| board.cell(c) == Cell::Unknown)
        .map(|c| (c, numbers_around(c)))
        .filter(|(_, around)| !around.is_empty())
        .collect();
    // Union-find over the frontier, joined through shared numbers.
    let mut up: Vec<usize> = (0..frontier.len()).collect();
    fn root(up: &mut [usize], mut x: usize) -> usize {
        while up[x] != x {
            up[x] = up[up[x]];
            x = up[x];
        }
        x
    }
    for a in 0..frontier.len() {
        for b in a + 1..frontier.len() {
            if frontier[a].1.iter().any(|n| frontier[b].1.contains(n)) {
                let (ra, rb) = (root(&mut up, a), root(&mut up, b));
                up[ra] = rb;
            }
        }
    }
    let mut components: std::collections::BTreeMap<usize, Vec<&Vec<u32>>> = Default::default();
    for (k, (_, around)) in frontier.iter().enumerate() {
        components.entry(root(&mut up, k)).or_default().push(around);
    }
    components
        .into_values()
        .map(|mut sets| {
            sets.sort();
            let mut sizes: Vec<usize> = Vec::new();
            for (k, set) in sets.iter().enumerate() {
                if k > 0 && sets[k - 1] == *set {
                    *sizes.last_mut().unwrap() += 1;
                } else {
                    sizes.push(1);
                }
            }
            sizes
        })
        .collect()
}

/// The enumeration tests above reach the paths they are meant to check:
/// the boards with a total are counted by the packed programmes (boxes of
/// several cells among them, small components, several components), and
/// the counts after changes start from a packed count and are packed
/// themselves.
#[test]
fn the_enumerated_boards_reach_the_packed_and_incremental_counts() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let strategy = (
        prop_oneof![consistent(), played(), endgame(), sparse()],
        prop::collection::vec(any::<prop::sample::Index>(), 1..4),
        prop::collection::vec(0u8..3, 1..4),
        0u8..9,
    );
    let mut runner = TestRunner::deterministic();
    let budget = Budget::unlimited();
    let (mut counted, mut packed, mut boxes, mut several) = (0, 0, 0, 0);
    let (mut changed_from_packed, mut changed_packed) = (0, 0);
    let mut p = Probabilities::new();
    for _ in 0..2000 {
        let (case, picks, kinds, value) = strategy.new_tree(&mut runner).unwrap().current();
        let (board, next, cells) = changed(&case, &picks, &kinds, value);
        if p.compute_if_consistent(&board, None, &budget) != Ok(true) {
            continue;
        }
        counted += 1;
        if !p.counted_packed() {
            continue;
        }
        packed += 1;
        let groups = frontier_groups(&board);
        boxes += groups.iter().flatten().any(|&g| g > 1) as usize;
        several += (groups.len() > 1) as usize;
        changed_from_packed += 1;
        let mut after = Probabilities::new();
        if after.compute_changed(&next, &p, &cells, None, &budget) == Ok(true) {
            changed_packed += after.counted_packed() as usize;
        }
    }
    let seen = format!(
        "{counted} counted, {packed} packed, {boxes} with boxes, {several} with several \
         components, {changed_packed} of {changed_from_packed} changes packed"
    );
    assert!(counted >= 1000 && packed * 100 >= counted * 95, "{seen}");
    assert!(boxes * 4 >= packed && several * 8 >= packed, "{seen}");
    assert!(changed_packed * 4 >= changed_from_packed, "{seen}");
    eprintln!("{seen}");
}

/// The number of layouts of a board with its total, by enumeration.
fn brute_layouts(board: &Board) -> u64 {
    let e = enumerate(board);
    match board.remaining_mines() {
        Some(r) if r >= 0 && (r as usize) < e.all.len() => e.all[r as usize],
        _ => 0,
    }
}

/// Both ways: the board as drawn (total or not), and the other way.
fn both_ways(case: &Case, density: f64) -> Result<(), TestCaseError> {
    check_against_enumeration(&case.board, density)?;
    check_against_enumeration(&case.other_total(), density)
}

proptest! {
    #![proptest_config(crate::util::cases(300))]

    #[test]
    fn probabilities_equal_the_enumerated_fractions_on_consistent_boards(
        case in consistent(), density in 0.02f64..0.98) {
        both_ways(&case, density)?;
    }

    #[test]
    fn probabilities_equal_the_enumerated_fractions_in_play(
        case in played(), density in 0.02f64..0.98) {
        both_ways(&case, density)?;
    }

    #[test]
    fn probabilities_equal_the_enumerated_fractions_in_endgames(
        case in endgame(), density in 0.02f64..0.98) {
        both_ways(&case, density)?;
    }

    #[test]
    fn probabilities_equal_the_enumerated_fractions_on_sparse_boards(
        case in sparse(), density in 0.02f64..0.98) {
        both_ways(&case, density)?;
    }

    #[test]
    fn probabilities_equal_the_enumerated_fractions_when_the_total_binds(
        case in prop_oneof![recounted(), extreme_total()], density in 0.02f64..0.98) {
        check_against_enumeration(&case.board, density)?;
    }

    #[test]
    fn impossible_boards_are_contradictions_and_the_rest_match_enumeration(
        case in prop_oneof![perturbed(), wild()], density in 0.02f64..0.98) {
        check_against_enumeration(&case.board, density)?;
    }
}

// ---- one counter, many boards ----

/// Everything a successful computation answers, to compare two counters
/// bit for bit.
fn computed(p: &mut Probabilities) -> String {
    let bits: Vec<u64> = p.per_cell().iter().map(|x| x.to_bits()).collect();
    let layouts = p.layouts(&Budget::unlimited()).map(|n| n.to_string());
    format!(
        "{bits:?} {:?} {} {} {:?} {layouts:?}",
        p.closed_cells(),
        p.log10_layouts().to_bits(),
        p.error_bound().to_bits(),
        p.precision(),
    )
}

/// What a computation answers: [`computed`], or the error.
fn answers(p: &mut Probabilities, board: &Board, density: f64) -> String {
    match p.compute(board, Some(density), &Budget::unlimited()) {
        Err(e) => format!("error: {e}"),
        Ok(()) => computed(p),
    }
}

proptest! {
    #![proptest_config(crate::util::cases(60))]

    /// The counter keeps its buffers (the constraint system, components,
    /// plans, programmes) from call to call: whatever came before, even a
    /// contradiction or a larger board, it answers as a new one does.
    #[test]
    fn a_reused_counter_answers_every_board_as_a_new_one_does(
        cases in prop::collection::vec(
            prop_oneof![consistent(), played(), endgame(), sparse(), perturbed(), wild()], 2..8),
        expert_seeds in prop::collection::vec(any::<u64>(), 0..3),
        density in 0.02f64..0.98) {
        let mut boards: Vec<Board> = cases.into_iter().map(|c| c.board).collect();
        // Expert positions between the small boards: larger systems and
        // more components, then smaller ones again.
        for (k, seed) in expert_seeds.into_iter().enumerate() {
            let at = (2 * k + 1).min(boards.len());
            boards.insert(at, real_size(seed, 1 + (seed % 25) as usize, seed % 100, true).0);
        }
        let mut reused = Probabilities::new();
        for board in &boards {
            let fresh = answers(&mut Probabilities::new(), board, density);
            prop_assert_eq!(answers(&mut reused, board, density), fresh, "on {:?}", board);
        }
    }
}

proptest! {
    #![proptest_config(crate::util::cases(300))]

    /// `compute_if_consistent` (the player's call) says "no layout fits"
    /// exactly where `compute` finds a contradiction, and otherwise gives
    /// the same probabilities.
    #[test]
    fn compute_if_consistent_fails_exactly_on_contradictions_and_agrees_elsewhere(
        case in prop_oneof![perturbed(), wild(), consistent(), endgame()],
        density in 0.02f64..0.98) {
        let budget = Budget::unlimited();
        let (mut explained, mut quiet) = (Probabilities::new(), Probabilities::new());
        let full = explained.compute(&case.board, Some(density), &budget);
        let fits = quiet.compute_if_consistent(&case.board, Some(density), &budget);
        match full {
            Ok(()) => {
                prop_assert_eq!(fits, Ok(true));
                prop_assert_eq!(computed(&mut quiet), computed(&mut explained));
            }
            Err(ProbabilityError::Contradiction(_)) => prop_assert_eq!(fits, Ok(false)),
            Err(e) => prop_assert_eq!(fits, Err(e)),
        }
    }
}

// ---- forced cells ----

/// Probability exactly 0 or 1 exactly where hypotheses (complete) and the
/// whole analysis find forced cells.
fn check_forced(board: &Board) -> Result<(), TestCaseError> {
    let mut p = Probabilities::new();
    p.compute(board, Some(0.2), &Budget::unlimited()).unwrap();
    let mut forced = Vec::new();
    hypotheses::find(board, None, &mut forced).unwrap();
    let mut from_probabilities: Vec<(u32, Value)> = p
        .closed_cells()
        .iter()
        .filter_map(|&c| match p.probability(c).unwrap() {
            0.0 => Some((c, Value::Safe)),
            1.0 => Some((c, Value::Mine)),
            _ => None,
        })
        .collect();
    from_probabilities.sort_unstable();
    let from_hypotheses: Vec<(u32, Value)> = forced.iter().map(|f| (f.cell, f.value)).collect();
    prop_assert_eq!(&from_probabilities, &from_hypotheses);
    let analysis = analyse_position(&board.to_position(), &mut MethodTable::default()).unwrap();
    let mut from_analysis: Vec<(u32, Value)> = analysis
        .deductions
        .iter()
        .map(|d| (d.cell, d.value))
        .collect();
    from_analysis.sort_unstable();
    prop_assert_eq!(&from_probabilities, &from_analysis);
    Ok(())
}

proptest! {
    #![proptest_config(crate::util::cases(200))]

    #[test]
    fn forced_cells_are_exactly_the_cells_of_probability_0_or_1(
        seed in any::<u64>(), clicks in 1usize..40, flag_pct in 0u64..=100, total in any::<bool>()) {
        let (board, _) = real_size(seed, clicks, flag_pct, total);
        check_forced(&board)?;
    }
}

// ---- backtracking per component ----

/// An independent count of one position with its total: per frontier
/// component, every assignment of mine counts to its groups by plain
/// recursion (each number's remaining need checked as groups are decided,
/// and met exactly once its last group is decided), then the components
/// combined over the total in big integers, all but one at a time. Returns
/// each closed cell's probability as an exact fraction converted to `f64`,
/// or `None` if a component has more than `limit` group assignments.
pub(crate) fn backtracking(board: &Board, limit: u64) -> Option<Vec<(u32, f64)>> {
    let grid = board.grid();
    let cells = board.cells();
    let n = cells.len();
    // Numbers with closed neighbours: their remaining need.
    let mut need = vec![0i64; n];
    let mut frontier = vec![false; n];
    for i in 0..n {
        if let Cell::Revealed(v) = cells[i] {
            need[i] = v as i64;
            for &nb in &grid.neighbours(i as u32) {
                match cells[nb as usize] {
                    Cell::Mine => need[i] -= 1,
                    Cell::Unknown => frontier[nb as usize] = true,
                    _ => {}
                }
            }
        }
    }
    let numbers_of = |c: usize| -> Vec<u32> {
        grid.neighbours(c as u32)
            .iter()
            .copied()
            .filter(|&nb| matches!(cells[nb as usize], Cell::Revealed(_)))
            .collect()
    };
    // Groups: frontier cells with the same set of numbers.
    let mut groups: Vec<(Vec<u32>, Vec<u32>)> = Vec::new(); // (numbers, cells)
    for c in 0..n {
        if cells[c] != Cell::Unknown || !frontier[c] {
            continue;
        }
        let nums = numbers_of(c);
        match groups.iter_mut().find(|(k, _)| *k == nums) {
            Some((_, members)) => members.push(c as u32),
            None => groups.push((nums, vec![c as u32])),
        }
    }
    // Components of groups: linked through shared numbers.
    let mut component = vec![usize::MAX; groups.len()];
    let mut components: Vec<Vec<usize>> = Vec::new();
    for g in 0..groups.len() {
        if component[g] != usize::MAX {
            continue;
        }
        let id = components.len();
        let mut todo = vec![g];
        component[g] = id;
        let mut members = Vec::new();
        while let Some(x) = todo.pop() {
            members.push(x);
            for y in 0..groups.len() {
                if component[y] == usize::MAX
                    && groups[y].0.iter().any(|num| groups[x].0.contains(num))
                {
                    component[y] = id;
                    todo.push(y);
                }
            }
        }
        members.sort_unstable();
        components.push(members);
    }
    let binomial = |g: usize, j: usize| -> u64 {
        (0..j).fold(1u64, |acc, i| acc * (g - i) as u64 / (i as u64 + 1))
    };
    // Per component: counts by mine total, and per group the mines in it.
    struct Tally {
        all: Vec<BigUint>,
        group_mines: Vec<Vec<BigUint>>, // per group of the component, by total
    }
    let mut tallies = Vec::new();
    for members in &components {
        let size: usize = members.iter().map(|&g| groups[g].1.len()).sum();
        let mut tally = Tally {
            all: vec![BigUint::ZERO; size + 1],
            group_mines: vec![vec![BigUint::ZERO; size + 1]; members.len()],
        };
        let mut left = need.clone();
        let mut choice = vec![0usize; members.len()];
        let mut visited = 0u64;
        // closes[at]: the numbers whose last group is the one decided at
        // `at`, whose need must then be met exactly.
        let mut closes = vec![Vec::new(); members.len()];
        let mut last = std::collections::BTreeMap::new();
        for (at, &g) in members.iter().enumerate() {
            for &num in &groups[g].0 {
                last.insert(num, at);
            }
        }
        for (num, at) in last {
            closes[at].push(num);
        }
        #[allow(clippy::too_many_arguments)]
        fn recurse(
            at: usize,
            members: &[usize],
            groups: &[(Vec<u32>, Vec<u32>)],
            closes: &[Vec<u32>],
            left: &mut [i64],
            choice: &mut [usize],
            weight: u64,
            tally: &mut Tally,
            visited: &mut u64,
            limit: u64,
            binomial: &dyn Fn(usize, usize) -> u64,
        ) -> bool {
            *visited += 1;
            if *visited > limit {
                return false;
            }
            if at == members.len() {
                if members
                    .iter()
                    .any(|&g| groups[g].0.iter().any(|&num| left[num as usize] != 0))
                {
                    return true;
                }
                let total: usize = choice.iter().sum();
                tally.all[total] += weight;
                for (k, &j) in choice.iter().enumerate() {
                    tally.group_mines[k][total] += BigUint::from(weight) * j as u64;
                }
                return true;
            }
            let (nums, cells) = &groups[members[at]];
            for j in 0..=cells.len() {
                if nums.iter().any(|&num| left[num as usize] < j as i64) {
                    break;
                }
                for &num in nums {
                    left[num as usize] -= j as i64;
                }
                choice[at] = j;
                // The numbers closed here are met, or no layout follows.
                let met = closes[at].iter().all(|&num| left[num as usize] == 0);
                let ok = !met
                    || recurse(
                        at + 1,
                        members,
                        groups,
                        closes,
                        left,
                        choice,
                        weight * binomial(cells.len(), j),
                        tally,
                        visited,
                        limit,
                        binomial,
                    );
                for &num in nums {
                    left[num as usize] += j as i64;
                }
                if !ok {
                    return false;
                }
            }
            true
        }
        if !recurse(
            0,
            members,
            &groups,
            &closes,
            &mut left,
            &mut choice,
            1,
            &mut tally,
            &mut visited,
            limit,
            &binomial,
        ) {
            return None;
        }
        tallies.push(tally);
    }
    // Combine: interior cells, remaining mines.
    let interior: Vec<u32> = (0..n as u32)
        .filter(|&c| cells[c as usize] == Cell::Unknown && !frontier[c as usize])
        .collect();
    let remaining = board.remaining_mines().unwrap() as usize;
    let i_cells = interior.len();
    let big_binomial = |n: usize, k: usize| -> BigUint {
        if k > n {
            return BigUint::ZERO;
        }
        (0..k).fold(BigUint::from(1u32), |acc, i| acc * (n - i) / (i + 1))
    };
    let convolve = |a: &[BigUint], b: &[BigUint]| -> Vec<BigUint> {
        let mut out = vec![BigUint::ZERO; a.len() + b.len() - 1];
        for (i, x) in a.iter().enumerate() {
            for (j, y) in b.iter().enumerate() {
                out[i + j] += x * y;
            }
        }
        out
    };
    // all_but[c]: the other components convolved.
    let everything = tallies
        .iter()
        .fold(vec![BigUint::from(1u32)], |acc, t| convolve(&acc, &t.all));
    // The interior's layouts when the components hold `t` mines, for every
    // `t` they can hold.
    let weights: Vec<BigUint> = (0..everything.len())
        .map(|t| {
            if t > remaining {
                BigUint::ZERO
            } else {
                big_binomial(i_cells, remaining - t)
            }
        })
        .collect();
    let weight_of_total = |t: usize| -> &BigUint { &weights[t] };
    let z: BigUint = everything
        .iter()
        .enumerate()
        .map(|(t, x)| x * weight_of_total(t))
        .sum();
    assert!(z > BigUint::ZERO, "a consistent board has layouts");
    let ratio = |num: &BigUint, den: &BigUint| -> f64 {
        // Correct to well within 1e-15: 64 significant bits of each.
        let shift = (den.bits() as i64 - 64).max(0) as usize;
        let (a, b) = (num >> shift, den >> shift);
        let (a, b): (f64, f64) = (
            a.to_string().parse().unwrap(),
            b.to_string().parse().unwrap(),
        );
        a / b
    };
    let mut out = Vec::new();
    for (c, members) in components.iter().enumerate() {
        let others = tallies
            .iter()
            .enumerate()
            .filter(|&(d, _)| d != c)
            .fold(vec![BigUint::from(1u32)], |acc, (_, t)| {
                convolve(&acc, &t.all)
            });
        // outside[k]: weight of everything else when this component holds k.
        let outside: Vec<BigUint> = (0..tallies[c].all.len())
            .map(|k| {
                others
                    .iter()
                    .enumerate()
                    .map(|(t, x)| x * weight_of_total(t + k))
                    .sum()
            })
            .collect();
        for (m, &g) in members.iter().enumerate() {
            let size = groups[g].1.len() as u64;
            let mines: BigUint = tallies[c].group_mines[m]
                .iter()
                .zip(&outside)
                .map(|(x, w)| x * w)
                .sum();
            let p = ratio(&mines, &(&z * size));
            for &cell in &groups[g].1 {
                out.push((cell, p));
            }
        }
    }
    if i_cells > 0 {
        let mines: BigUint = everything
            .iter()
            .enumerate()
            .map(|(t, x)| {
                if t >= remaining {
                    BigUint::ZERO
                } else {
                    x * big_binomial(i_cells - 1, remaining - t - 1)
                }
            })
            .sum();
        let p = ratio(&mines, &z);
        out.extend(interior.iter().map(|&c| (c, p)));
    }
    Some(out)
}

proptest! {
    #![proptest_config(crate::util::cases(120))]

    #[test]
    fn probabilities_agree_with_backtracking_per_component_on_expert_positions(
        seed in any::<u64>(), clicks in 1usize..30, flag_pct in 0u64..=100) {
        let (board, _) = real_size(seed, clicks, flag_pct, true);
        let Some(expected) = backtracking(&board, 2_000_000) else {
            return Ok(()); // too many assignments to enumerate
        };
        let mut p = Probabilities::new();
        p.compute(&board, None, &Budget::unlimited()).unwrap();
        prop_assert_eq!(expected.len(), p.closed_cells().len());
        for (cell, want) in expected {
            let got = p.probability(cell).unwrap();
            prop_assert!((got - want).abs() <= ACCURACY, "cell {}: {} vs {}", cell, got, want);
        }
    }
}

/// A `h×w` board with `mines` mines and game-like clicks (a revealed 0
/// opens its neighbours), seeded; the total is given.
fn larger(seed: u64, h: usize, w: usize, mines: usize, clicks: usize) -> Board {
    let grid = sapper_engine::Grid::new(h, w);
    let n = grid.len();
    let mut rng = Rng::new(seed);
    let mut mine = vec![false; n];
    let mut placed = 0;
    while placed < mines {
        let i = rng.below(n);
        if !mine[i] {
            mine[i] = true;
            placed += 1;
        }
    }
    let mut cells = vec![Cell::Unknown; n];
    for _ in 0..clicks {
        let start = rng.below(n);
        if mine[start] {
            continue;
        }
        let mut stack = vec![start as u32];
        while let Some(c) = stack.pop() {
            if cells[c as usize] != Cell::Unknown {
                continue;
            }
            let v = mines_around(grid, &mine, c);
            cells[c as usize] = Cell::Revealed(v);
            if v == 0 {
                stack.extend(grid.neighbours(c).iter().copied());
            }
        }
    }
    Board::new(grid, cells, Some(mines as u32))
}

proptest! {
    #![proptest_config(crate::util::cases(40))]

    /// Over 1000 closed cells the outer programme runs in double-double
    /// and the components in f64 (a different path from expert boards).
    #[test]
    fn probabilities_agree_with_backtracking_beyond_a_thousand_closed_cells(
        seed in any::<u64>(), clicks in 5usize..40) {
        let board = larger(seed, 40, 40, 300, clicks);
        prop_assume!(board.unknown_count() > 1000);
        let Some(expected) = backtracking(&board, 2_000_000) else {
            return Ok(());
        };
        let mut p = Probabilities::new();
        p.compute(&board, None, &Budget::unlimited()).unwrap();
        prop_assert_eq!(p.precision(), Some(sapper_engine::probabilities::Precision::Mixed));
        for (cell, want) in expected {
            let got = p.probability(cell).unwrap();
            prop_assert!((got - want).abs() <= ACCURACY, "cell {}: {} vs {}", cell, got, want);
        }
    }
}
