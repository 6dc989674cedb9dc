//! Unit tests of the probability counter: exactness against enumeration,
//! buffer reuse, precision paths.

use super::*;
use crate::board::Cell;
use crate::grid::Grid;

/// A deterministic mid-game position: `h×w` with `mines` mines (xorshift
/// from `seed`), opened by `clicks` game-like clicks on safe cells.
fn played(h: usize, w: usize, mines: usize, clicks: usize, seed: u64) -> Board {
    let grid = Grid::new(h, w);
    let n = grid.len();
    let mut rng = crate::test_rng::TestRng::new(seed | 1);
    let mut next = move || rng.next_u64();
    let mut mine = vec![false; n];
    let mut placed = 0;
    while placed < mines {
        let i = (next() % n as u64) as usize;
        if !mine[i] {
            mine[i] = true;
            placed += 1;
        }
    }
    let number = |i: u32| {
        grid.neighbours(i)
            .iter()
            .filter(|&&x| mine[x as usize])
            .count() as u8
    };
    let mut cells = vec![Cell::Unknown; n];
    for _ in 0..clicks {
        let start = (next() % n as u64) as u32;
        if mine[start as usize] {
            continue;
        }
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            if cells[c as usize] != Cell::Unknown {
                continue;
            }
            let v = number(c);
            cells[c as usize] = Cell::Revealed(v);
            if v == 0 {
                stack.extend(grid.neighbours(c).iter().copied());
            }
        }
    }
    Board::new(grid, cells, Some(mines as u32))
}

fn compute(board: &Board, density: Option<f64>, accuracy: f64, wide: bool) -> Probabilities {
    let mut p = Probabilities::new();
    p.compute_within(
        board,
        density,
        &Budget::unlimited(),
        Ask {
            accuracy,
            wide_only: wide,
            ..Ask::WORDED
        },
    )
    .map_err(|stop| stop.explained(board))
    .unwrap();
    p
}

/// Both computations agree within the sum of their bounds, with the
/// same forced cells and the same count.
fn assert_agree(a: &mut Probabilities, b: &mut Probabilities) {
    assert_eq!(a.closed_cells(), b.closed_cells());
    for &c in a.closed_cells() {
        let (x, y) = (a.probability(c).unwrap(), b.probability(c).unwrap());
        assert!(
            (x - y).abs() <= a.error_bound() + b.error_bound(),
            "cell {c}: {x} vs {y}"
        );
        assert_eq!(x == 0.0, y == 0.0);
        assert_eq!(x == 1.0, y == 1.0);
    }
    assert!((a.log10_layouts() - b.log10_layouts()).abs() < 1e-9);
    let budget = Budget::unlimited();
    assert_eq!(a.layouts(&budget).unwrap(), b.layouts(&budget).unwrap());
}

#[test]
fn double_double_agrees_with_f64_on_expert_positions() {
    for seed in 1..40 {
        let board = played(16, 30, 99, 1 + seed as usize % 12, seed);
        let mut fast = compute(&board, None, ACCURACY, false);
        let mut wide = compute(&board, None, ACCURACY, true);
        assert_eq!(fast.precision(), Some(Precision::F64));
        assert_eq!(wide.precision(), Some(Precision::DoubleDouble));
        assert!(wide.error_bound() < 1e-15, "{}", wide.error_bound());
        assert_agree(&mut fast, &mut wide);
        let without = Board::new(board.grid(), board.cells().to_vec(), None);
        let mut fast = compute(&without, Some(0.2), ACCURACY, false);
        let mut wide = compute(&without, Some(0.2), ACCURACY, true);
        assert_agree(&mut fast, &mut wide);
    }
}

#[test]
fn an_f64_bound_above_the_accuracy_asked_falls_back_to_double_double() {
    let board = played(16, 30, 99, 6, 7);
    let fast = compute(&board, None, ACCURACY, false);
    assert_eq!(fast.precision(), Some(Precision::F64));
    assert!(fast.error_bound() > 1e-15, "{}", fast.error_bound());
    let mut strict = compute(&board, None, 1e-15, false);
    assert_eq!(strict.precision(), Some(Precision::DoubleDouble));
    assert!(strict.error_bound() <= 1e-15);
    let mut fast = fast;
    assert_agree(&mut fast, &mut strict);
    // Nothing meets an accuracy below the last rounding to f64.
    let mut p = Probabilities::new();
    let err = p
        .compute_within(
            &board,
            None,
            &Budget::unlimited(),
            Ask {
                accuracy: 1e-17,
                ..Ask::WORDED
            },
        )
        .map_err(|stop| stop.explained(&board))
        .unwrap_err();
    assert!(matches!(err, ProbabilityError::Inaccurate(b) if b > 1e-17));
}

#[test]
fn beyond_a_thousand_closed_cells_the_count_is_double_double_and_exact() {
    // 40×40, no number: every cell holds a mine with chance 400/1600.
    let grid = Grid::new(40, 40);
    let board = Board::new(grid, vec![Cell::Unknown; 1600], Some(400));
    let mut p = compute(&board, None, ACCURACY, false);
    assert_eq!(p.precision(), Some(Precision::DoubleDouble));
    assert!(p
        .closed_cells()
        .iter()
        .all(|&c| p.probability(c) == Some(0.25)));
    let exact = p.layouts(&Budget::unlimited()).unwrap();
    let digits = exact.to_string().len() as f64;
    assert!((p.log10_layouts() - (digits - 1.0)).abs() < 1.0);
    assert_eq!(exact, exact::binomial_for_tests(1600, 400));
    // A revealed 1 in the corner: its three neighbours share one mine;
    // the other 1596 cells share the remaining 399.
    let mut cells = vec![Cell::Unknown; 1600];
    cells[0] = Cell::Revealed(1);
    let board = Board::new(grid, cells, Some(400));
    let p = compute(&board, None, ACCURACY, false);
    assert_eq!(p.precision(), Some(Precision::Mixed));
    for c in [1, 40, 41] {
        assert!((p.probability(c).unwrap() - 1.0 / 3.0).abs() <= 1e-15);
    }
    assert!((p.probability(1599).unwrap() - 399.0 / 1596.0).abs() <= 1e-15);
}

#[test]
fn f64_components_under_steep_outside_weights_agree_with_double_double() {
    // 320×320: every other cell of row 1 revealed, over pseudo-random
    // mines in rows 0 to 2 (one component of 800 cells whose mine count
    // can vary widely), and 101,440 interior cells holding 60 mines.
    // A frontier total t leaves C(I, R − t) interior layouts: over the
    // component's totals the outside weights span far more than 2^1022,
    // so some are raised to 2^-1022 in f64.
    let (h, w) = (320, 320);
    let grid = Grid::new(h, w);
    let mut rng = crate::test_rng::TestRng::new(0x1234_5678_9abc_def1);
    let mut mine = vec![false; h * w];
    for c in 0..w {
        for r in 0..3 {
            let draw = rng.below(10);
            mine[r * w + c] = (r != 1 || c % 2 == 1) && draw < 3;
        }
    }
    for k in 0..60 {
        mine[(4 + k * 5) * w + (k * 37) % w] = true;
    }
    let mut cells = vec![Cell::Unknown; h * w];
    for c in (0..w).step_by(2) {
        let i = (w + c) as u32;
        let n = grid
            .neighbours(i)
            .iter()
            .filter(|&&x| mine[x as usize])
            .count();
        cells[w + c] = Cell::Revealed(n as u8);
    }
    let total = mine.iter().filter(|&&m| m).count() as u32;
    let board = Board::new(grid, cells, Some(total));
    let mut mixed = compute(&board, None, ACCURACY, false);
    assert_eq!(mixed.precision(), Some(Precision::Mixed));
    let mut wide = compute(&board, None, ACCURACY, true);
    assert_agree(&mut mixed, &mut wide);
}

#[test]
fn an_extreme_density_is_counted_in_double_double() {
    // A closed row of 12 over its numbers: one component of 12 cells;
    // D = 1e-30 needs 12 · (1 + 99.7) bits, beyond f64's safe range.
    let w = 12;
    let truth: [usize; 4] = [0, 4, 8, 11];
    let grid = Grid::new(2, w);
    let mut cells = vec![Cell::Unknown; 2 * w];
    for c in 0..w {
        let n = truth.iter().filter(|&&m| m.abs_diff(c) <= 1).count();
        cells[w + c] = Cell::Revealed(n as u8);
    }
    let board = Board::new(grid, cells, None);
    let d: f64 = 1e-30;
    let p = compute(&board, Some(d), ACCURACY, false);
    assert_eq!(p.precision(), Some(Precision::DoubleDouble));
    // Enumeration: layouts by mine count, weighed by λ^(k − k_min).
    let fits = |layout: u32| {
        (0..w).all(|c| {
            let Cell::Revealed(n) = board.cell((w + c) as u32) else {
                unreachable!()
            };
            let around = (c.saturating_sub(1)..=(c + 1).min(w - 1))
                .filter(|&x| layout >> x & 1 == 1)
                .count();
            around == n as usize
        })
    };
    let layouts: Vec<u32> = (0..1u32 << w).filter(|&l| fits(l)).collect();
    let k_min = layouts.iter().map(|l| l.count_ones()).min().unwrap();
    let lambda = d / (1.0 - d);
    let weight = |l: u32| lambda.powi((l.count_ones() - k_min) as i32);
    let all: f64 = layouts.iter().map(|&l| weight(l)).sum();
    for x in 0..w {
        let mine: f64 = layouts
            .iter()
            .filter(|&&l| l >> x & 1 == 1)
            .map(|&l| weight(l))
            .sum();
        let got = p.probability(x as u32).unwrap();
        assert!(
            (got - mine / all).abs() <= 1e-14,
            "cell {x}: {got} vs {}",
            mine / all
        );
        assert_eq!(got == 0.0, mine == 0.0);
    }
}

/// Everything a computation answers, bit for bit: each cell's
/// probability, the closed cells, the logs of the count and weight, the
/// bound, the precision and the exact count.
fn answered(p: &mut Probabilities) -> String {
    let bits: Vec<u64> = p.per_cell().iter().map(|x| x.to_bits()).collect();
    let layouts = p.layouts(&Budget::unlimited()).map(|n| n.to_string());
    format!(
        "{bits:?} {:?} {} {} {} {:?} {layouts:?}",
        p.closed_cells(),
        p.log10_layouts().to_bits(),
        p.log10_weight().to_bits(),
        p.error_bound().to_bits(),
        p.precision(),
    )
}

/// The answer to `board`, or why there is none, with the packed
/// programmes tried first (`packed`) or not.
fn answer_of(p: &mut Probabilities, board: &Board, packed: bool) -> String {
    let ask = Ask {
        packed,
        ..Ask::WORDED
    };
    match p.compute_within(board, None, &Budget::unlimited(), ask) {
        Ok(()) => answered(p),
        Err(stop) => format!("error: {}", stop.explained(board)),
    }
}

/// Positions of every size class the packed programmes meet: expert,
/// intermediate and beginner boards after a few clicks, with some of
/// their mines flagged (as the player flags proven mines).
pub(in crate::probabilities) fn positions(count: u64) -> impl Iterator<Item = Board> {
    (0..count).map(|seed| {
        let (h, w, mines) =
            [(16, 30, 99), (16, 16, 40), (9, 9, 10), (16, 30, 130)][seed as usize % 4];
        let mut board = played(h, w, mines, 1 + (seed as usize * 7) % 23, seed + 1);
        if seed % 3 != 0 {
            // Flag the proven mines, as the player does.
            let mut forced = Vec::new();
            if crate::methods::hypotheses::find(&board, None, &mut forced).is_ok() {
                for f in forced {
                    if f.value == crate::board::Value::Mine {
                        board.set(f.cell, Cell::Mine);
                    }
                }
            }
        }
        board
    })
}

#[test]
fn a_packed_count_gives_the_bits_of_the_general_programme() {
    let (mut packed_used, mut total) = (0, 0);
    let mut reused = Probabilities::new();
    for board in positions(400) {
        let general = answer_of(&mut Probabilities::new(), &board, false);
        let packed = answer_of(&mut reused, &board, true);
        assert_eq!(packed, general, "{board:?}");
        total += 1;
        packed_used += reused.packed.used as usize;
    }
    assert!(
        packed_used * 10 >= total * 9,
        "only {packed_used} of {total} packed"
    );
}

/// An expert position whose frontier is one chain of 35 cells that the
/// breadth-first search from its first cell (top left) enters in its
/// middle: along the top rows it runs both ways from there.
const CHAIN_ENTERED_IN_ITS_MIDDLE: &str = "mines 99
11.1??????????????????????????
?1.1344223????????????????????
11..1?1.1?????????????????????
?21.222.122???????????????????
??311?112?????????????????????
???2?3????????????????????????
???2??????????????????????????
??????????????????????????????
??????????????????????????????
??????????????????????????????
??????????????????????????????
??????????????????????????????
??????????????????????????????
??????????????????????????????
??????????????????????????????
??????????????????????????????
";

/// An expert position with a frontier of 70 cells that neither
/// breadth-first order counts cheaply, but the sweep of the columns does.
const NEITHER_BREADTH_FIRST_ORDER: &str = "mines 99
??1.12????????????????????????
??1.1?????????????????????????
111.12?2??????????????????????
.....12???3?4?????????????????
.....2?4??312?????????????????
.111.2?3??1.2?????????????????
12?32212221.1?????????????????
?3???1..1?1123????????????????
?3??21..1?????1???????????????
????1...1?????????????????????
????2..11?????????????????????
????2.12??????????????????????
????213???????????????????????
???22?????????????????????????
???2??????????????????????????
???21?????????????????????????
";

/// Numbers on every other cell of every other row, all else closed: one
/// component of 120 cells in a lattice, which only the greedy order
/// counts cheaply.
const A_LATTICE_OF_NUMBERS: &str = "mines 24
1?1?1?2?0?1?1
?????????????
1?2?1?2?2?1?1
?????????????
1?1?2?1?2?2?0
?????????????
2?2?1?2?1?2?2
?????????????
0?2?2?1?2?1?1
?????????????
1?1?2?2?1?2?1
?????????????
1?1?0?2?1?1?1
";

fn board_of(text: &str) -> Board {
    Board::from_position(&text.parse::<crate::Position>().unwrap())
}

/// Asserts that the position `text` is counted packed, with the bits of
/// the general programme.
fn assert_packed_with_the_general_bits(text: &str) {
    let board = board_of(text);
    let general = answer_of(&mut Probabilities::new(), &board, false);
    let mut p = Probabilities::new();
    let packed = answer_of(&mut p, &board, true);
    assert!(p.packed.used, "counted by the general programme");
    assert_eq!(packed, general);
}

#[test]
fn a_chain_entered_in_its_middle_is_counted_packed_from_its_far_end() {
    assert_packed_with_the_general_bits(CHAIN_ENTERED_IN_ITS_MIDDLE);
}

#[test]
fn a_component_no_breadth_first_order_counts_cheaply_is_counted_packed_along_a_sweep() {
    assert_packed_with_the_general_bits(NEITHER_BREADTH_FIRST_ORDER);
}

#[test]
fn what_the_packed_programme_found_of_the_orders_spares_the_general_one_nothing_but_time() {
    let board = board_of(A_LATTICE_OF_NUMBERS);
    // Packed first: refused, with the component found to need the greedy
    // order.
    let mut p = Probabilities::new();
    let told = answer_of(&mut p, &board, true);
    assert!(!p.packed.used);
    assert_eq!(p.packed.greedy(), [1]);
    // The general programme alone builds every other order again.
    let alone = answer_of(&mut Probabilities::new(), &board, false);
    assert_eq!(told, alone);
}

/// Each cell a player would change: the closed cells, in turn.
fn closed_of(board: &Board) -> Vec<u32> {
    (0..board.grid().len() as u32)
        .filter(|&c| board.cell(c).is_unknown())
        .collect()
}

/// The answer of a count after changes, or why there is none (`false`:
/// no layout fits).
fn changed_answer(
    p: &mut Probabilities,
    board: &Board,
    base: &Probabilities,
    changed: &[u32],
) -> String {
    match p.compute_changed(board, base, changed, None, &Budget::unlimited()) {
        Ok(true) => answered(p),
        other => format!("{other:?}"),
    }
}

/// The same for a whole count.
fn whole_answer(p: &mut Probabilities, board: &Board) -> String {
    match p.compute_if_consistent(board, None, &Budget::unlimited()) {
        Ok(true) => answered(p),
        other => format!("{other:?}"),
    }
}

#[test]
fn a_count_after_changes_gives_the_bits_of_a_whole_count() {
    let mut rng = crate::test_rng::TestRng::new(99);
    let (mut base, mut after, mut whole) = (
        Probabilities::new(),
        Probabilities::new(),
        Probabilities::new(),
    );
    let mut counter = Probabilities::new();
    let (mut kept, mut compared) = (0usize, 0usize);
    for board in positions(240) {
        if !base
            .compute_if_consistent(&board, None, &Budget::unlimited())
            .unwrap()
        {
            continue;
        }
        let closed = closed_of(&board);
        for _ in 0..6 {
            let mut next = board.clone();
            // Reveal one closed cell as each number it could show, or set
            // a few to mines and safe cells, as the player's trials do.
            let c = closed[rng.below(closed.len())];
            let mut changed = vec![c];
            let trial = rng.below(3);
            if trial == 0 {
                let v = rng.below(board.unknown_around(c) as usize + 1) as u8;
                next.set(c, Cell::Revealed(v + known_mines_around(&board, c)));
            } else {
                next.set(c, if trial == 1 { Cell::Mine } else { Cell::Safe });
                for _ in 0..rng.below(4) {
                    let d = closed[rng.below(closed.len())];
                    if !changed.contains(&d) {
                        changed.push(d);
                        next.set(
                            d,
                            if rng.below(2) == 0 {
                                Cell::Mine
                            } else {
                                Cell::Safe
                            },
                        );
                    }
                }
            }
            let incremental = changed_answer(&mut after, &next, &base, &changed);
            let full = whole_answer(&mut whole, &next);
            assert_eq!(incremental, full, "{changed:?} changed from {board:?}");
            // The count alone, forward only, is the whole count's.
            let count = counter
                .layouts_changed(&next, &base, &changed, None, &Budget::unlimited())
                .unwrap();
            let expected = (full != "Ok(false)").then(|| whole.log10_layouts());
            assert_eq!(
                count.map(f64::to_bits),
                expected.map(f64::to_bits),
                "{changed:?} changed from {board:?}"
            );
            compared += 1;
            kept += after.packed.used as usize;
            // Again from the position just counted, with its change undone.
            if after.packed.used {
                let back = changed_answer(&mut whole, &board, &after, &changed);
                assert_eq!(back, answered(&mut base), "{changed:?} undone on {board:?}");
            }
        }
    }
    assert!(
        kept * 2 >= compared,
        "only {kept} of {compared} counted packed"
    );
}

/// The mines known around `c`.
fn known_mines_around(board: &Board, c: u32) -> u8 {
    board
        .grid()
        .neighbours(c)
        .iter()
        .filter(|&&n| board.cell(n) == Cell::Mine)
        .count() as u8
}
