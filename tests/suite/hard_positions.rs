//! Positions built to be hard for exact analysis (the shape of
//! `../shared/data/hard/`): numbers on every (even row, even column) and
//! every other cell closed, so the frontier is as wide as the board (a
//! *lattice*), or a long band of that pattern a few rows high. Hypotheses
//! must answer them within a time and memory budget — the programme where
//! its layers stay narrow, the SAT path where they do not — with the
//! answer brute force gives where brute force can go, the same answer from
//! both paths where both can go, and a clear refusal when the budget is too
//! small.

use crate::util::{mines_around, sapper, Rng, TempDir};
use proptest::prelude::*;
use sapper_engine::budget::{Budget, Limit};
use sapper_engine::methods::hypotheses::{self, ProgrammeLimits, PROGRAMME_LIMITS};
use sapper_engine::methods::MethodError;
use sapper_engine::{brute, Board, Cell, Forced, Grid, Value};
use std::time::Duration;

/// Every path to the SAT search: no programme is cheap enough.
const SAT_ONLY: ProgrammeLimits = ProgrammeLimits {
    widest_layer: -1.0,
    states: -1.0,
};

/// A lattice position `h × w`: numbers (from a random layout of mines on
/// the other cells, `density` of them mines) on every (even row, even
/// column), everything else closed. Returns the board with the total and
/// the layout.
fn lattice(h: usize, w: usize, density: f64, seed: u64) -> (Board, Vec<bool>) {
    let grid = Grid::new(h, w);
    let mut rng = Rng::new(seed);
    let mut next = move || rng.unit();
    let is_number = |i: u32| {
        let (r, c) = grid.rc(i);
        r % 2 == 0 && c % 2 == 0
    };
    let mines: Vec<bool> = (0..grid.len() as u32)
        .map(|i| !is_number(i) && next() < density)
        .collect();
    let cells: Vec<Cell> = (0..grid.len() as u32)
        .map(|i| {
            if is_number(i) {
                Cell::Revealed(mines_around(grid, &mines, i))
            } else {
                Cell::Unknown
            }
        })
        .collect();
    let total = mines.iter().filter(|&&m| m).count() as u32;
    (Board::new(grid, cells, Some(total)), mines)
}

fn without_total(board: &Board) -> Board {
    Board::new(board.grid(), board.cells().to_vec(), None)
}

fn decide(board: &Board, budget: &Budget, limits: ProgrammeLimits) -> (Vec<Forced>, bool) {
    let mut out = Vec::new();
    let profile = hypotheses::find_within(board, budget, limits, &mut out)
        .unwrap_or_else(|e| panic!("{e:?}"));
    (out, profile.sat)
}

/// Every forced cell agrees with the layout the position came from.
fn assert_sound(forced: &[Forced], mines: &[bool]) {
    for f in forced {
        assert_eq!(mines[f.cell as usize], f.value == Value::Mine, "{f:?}");
    }
}

proptest! {
    #![proptest_config(crate::util::cases(200))]

    /// Small lattices and bands (at most 24 closed cells): both paths give
    /// exactly brute force's forced cells, with the total and without.
    #[test]
    fn both_paths_equal_brute_force_on_small_lattices(
        (h, w) in prop_oneof![Just((5, 5)), Just((5, 7)), Just((3, 9)), Just((3, 11)), Just((4, 7))],
        density in 0.1f64..0.6,
        seed in any::<u64>(),
    ) {
        let (board, mines) = lattice(h, w, density, seed);
        for board in [board.clone(), without_total(&board)] {
            let expected = brute::forced(&board).expect("the layout fits");
            for limits in [PROGRAMME_LIMITS, SAT_ONLY] {
                let (forced, sat) = decide(&board, &Budget::unlimited(), limits);
                prop_assert_eq!(sat, limits == SAT_ONLY);
                prop_assert_eq!(&forced, &expected, "limits {:?}", limits);
            }
            assert_sound(&expected, &mines);
        }
    }
}

/// Lattices up to 14×14, beyond brute force but where the programme still
/// runs: the two paths (two independent algorithms) agree.
#[test]
fn the_sat_path_equals_the_programme_on_mid_size_lattices() {
    for (k, size) in [8usize, 10, 12, 14].into_iter().enumerate() {
        for seed in 0..6u64 {
            let (board, mines) = lattice(size, size, 0.3, seed * 31 + k as u64);
            for board in [board.clone(), without_total(&board)] {
                let (programme, sat) = decide(&board, &Budget::unlimited(), PROGRAMME_LIMITS);
                assert!(!sat, "{size}×{size}: the programme should run");
                let (by_sat, sat) = decide(&board, &Budget::unlimited(), SAT_ONLY);
                assert!(sat);
                assert_eq!(by_sat, programme, "{size}×{size}, seed {seed}");
                assert_sound(&programme, &mines);
            }
        }
    }
}

/// A position with no layout is a contradiction on both paths: the numbers
/// alone, or only the count.
#[test]
fn contradictions_are_found_on_the_sat_path() {
    let (board, _) = lattice(5, 5, 0.4, 7);
    let total = board.total_mines().unwrap();
    let closed = board.unknown_count();
    for bad_total in [closed + 1, total + closed] {
        let bad = Board::new(board.grid(), board.cells().to_vec(), Some(bad_total));
        let err = hypotheses::find_within(&bad, &Budget::unlimited(), SAT_ONLY, &mut Vec::new());
        match err {
            Err(MethodError::Contradiction(c)) => assert!(c.cells.is_empty(), "{c:?}"),
            other => panic!("{other:?}"),
        }
    }
    // Raise a number past what its neighbours allow together with the
    // others: no layout of the numbers alone.
    let mut cells = board.cells().to_vec();
    cells[0] = Cell::Revealed(3); // a corner number has three neighbours
    cells[2] = Cell::Revealed(0);
    let bad = Board::new(board.grid(), cells, None);
    match hypotheses::find_within(&bad, &Budget::unlimited(), SAT_ONLY, &mut Vec::new()) {
        Err(MethodError::Contradiction(c)) => assert!(!c.cells.is_empty(), "{c:?}"),
        other => panic!("{other:?}"),
    }
}

/// The sizes of `../shared/data/hard`: lattices of 22×22 and 32×32 (the
/// programme's widest layer is bounded by millions of states; once 15 s and
/// 1.8 GB, and killed at 17 GB) and a band 10 rows high and 2,000 long (once 3.5 GB, count sets
/// quadratic in the length) are answered within 10 s and the memory given,
/// soundly. The band's budget is a quarter of the CLI's default memory: the
/// programme keeps checkpoints, not every layer.
#[test]
fn hard_sizes_are_answered_within_the_budget() {
    let budget = Budget::new(Some(Duration::from_secs(10)), 1 << 30);
    for size in [22, 32] {
        let (board, mines) = lattice(size, size, 0.37, size as u64);
        let (forced, sat) = decide(&board, &budget, PROGRAMME_LIMITS);
        assert!(sat, "a {size}×{size} lattice goes to the SAT path");
        assert_sound(&forced, &mines);
        let (forced_without, _) = decide(&without_total(&board), &budget, PROGRAMME_LIMITS);
        assert!(forced_without.iter().all(|f| forced.contains(f)));
    }

    let budget = Budget::new(Some(Duration::from_secs(10)), 256 << 20);
    let (band, mines) = lattice(10, 2000, 0.5, 2000);
    let (forced, sat) = decide(&band, &budget, PROGRAMME_LIMITS);
    assert!(!sat, "a thin band stays with the programme");
    assert!(!forced.is_empty());
    assert_sound(&forced, &mines);
}

/// Too little time or memory: a refusal that says what was too big and
/// which limit it hit — never a wrong answer, never an abort.
#[test]
fn a_budget_too_small_is_a_clear_refusal() {
    let (board, _) = lattice(22, 22, 0.37, 5);
    let tiny_memory = Budget::new(None, 1 << 10);
    let err = hypotheses::find_within(&board, &tiny_memory, PROGRAMME_LIMITS, &mut Vec::new());
    let Err(MethodError::OverBudget(o)) = err else {
        panic!("{err:?}")
    };
    assert_eq!(o.limit, Limit::Memory(1 << 10));
    assert!(o.what.contains("closed cells"), "{}", o.what);
    // The library names the limit, never a command-line flag (the CLI
    // adds its own hint: the test below).
    assert!(o.to_string().ends_with("within 0 MB"), "{o}");
    assert!(!o.to_string().contains("--"), "{o}");

    let (band, _) = lattice(10, 400, 0.5, 3);
    let no_time = Budget::new(Some(Duration::ZERO), 1 << 30);
    let err = hypotheses::find_within(&band, &no_time, PROGRAMME_LIMITS, &mut Vec::new());
    let Err(MethodError::OverBudget(o)) = err else {
        panic!("{err:?}")
    };
    assert_eq!(o.limit, Limit::Time(Duration::ZERO));
    assert!(o.to_string().ends_with("within 0 s"), "{o}");
}

/// The command line: a position the budget cannot cover is refused with
/// its path and the limit named (exit 1), and the same position is
/// answered with the default budget.
#[test]
fn analyse_refuses_over_budget_and_answers_within_it() {
    let dir = TempDir::new("hard");
    let (board, _) = lattice(22, 22, 0.37, 1);
    let path = dir.join("lattice.txt");
    let text = sapper_engine::formats::position::write_position(&board.to_position());
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    sapper(["analyse", path, "--budget-mb", "1"])
        .expect_code(1)
        .stderr_has("lattice.txt: refused:")
        .stderr_has("within 1 MB (--budget-mb raises the limit)");
    sapper(["analyse", path, "--json"]).ok();
}
