//! Unit tests of linked cells 2: packings, covers and worked cases.

use super::*;
use crate::board::Cell;
use crate::grid::Grid;

fn board(rows: &[&str], total: Option<u32>) -> Board {
    crate::board::board_from_picture(rows, total)
}

fn run(b: &Board) -> Vec<(usize, usize, Value)> {
    let mut out = vec![];
    find(b, None, &mut out).unwrap();
    out.iter()
        .map(|f| {
            let (r, c) = b.grid().rc(f.cell);
            (r, c, f.value)
        })
        .collect()
}

fn cells(list: &[(usize, usize)], value: Value) -> Vec<(usize, usize, Value)> {
    let mut v: Vec<_> = list.iter().map(|&(r, c)| (r, c, value)).collect();
    v.sort_by_key(|&(r, c, _)| (r, c));
    v
}

#[test]
fn twelve_cells_cleared_by_the_count() {
    // 1 ? ? ? ?     total 2. The corner 1 holds one mine in
    // ? ? ? ? ?     {(0,1),(1,0),(1,1)}, the 1 at (3,3) one mine in its
    // ? ? ? ? ?     eight neighbours; the two sets are disjoint, so they
    // ? ? ? 1 ?     account for both mines and the twelve other closed
    // ? ? ? ? ?     cells are safe. Neither number alone, nor the pair,
    //               says anything.
    let b = board(&["1????", "?????", "?????", "???1?", "?????"], Some(2));
    let twelve = [
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 0),
        (2, 1),
        (3, 0),
        (3, 1),
        (4, 0),
        (4, 1),
    ];
    assert_eq!(run(&b), cells(&twelve, Value::Safe));
    let mut other = vec![];
    super::super::single_cell::find(&b, None, &mut other).unwrap();
    super::super::linked_cells_1::find(&b, None, &mut other).unwrap();
    assert!(other.is_empty());
    // Without the total the method does nothing.
    let b = board(&["1????", "?????", "?????", "???1?", "?????"], None);
    assert_eq!(run(&b), vec![]);
    // With one more mine than the packing holds, nothing is forced.
    let b = board(&["1????", "?????", "?????", "???1?", "?????"], Some(3));
    assert_eq!(run(&b), vec![]);
}

#[test]
fn count_forces_the_rest_to_be_mines() {
    // 1 ? ? ?       total 5, 7 closed cells: 2 safe. The 1 has two safe
    // ? ? ? ?       cells among its three: all the safe cells there
    //               are, so the four cells away from it are mines.
    let b = board(&["1???", "????"], Some(5));
    assert_eq!(
        run(&b),
        cells(&[(0, 2), (0, 3), (1, 2), (1, 3)], Value::Mine)
    );
}

#[test]
fn flags_count_against_the_total() {
    // F 2 . ?       total 2, one flagged: one mine left. The 2 sees the
    // ? ? ? ?       flag and needs its last mine in {(1,0),(1,1),(1,2)};
    //               (0,3) and (1,3), away from it, are safe.
    let b = board(&["F2.?", "????"], Some(2));
    assert_eq!(run(&b), cells(&[(0, 3), (1, 3)], Value::Safe));
}

#[test]
fn every_best_packing_counts() {
    // 1 1 1 1 1     total 2. The 1s see {c0,c1}, {c0,c1,c2},
    // ? ? ? ? ?     {c1,c2,c3}, {c2,c3,c4}, {c3,c4}. The heaviest
    // packings hold 2 mines, all there are; the packing of the two
    // corner 1s misses c2, so c2 is safe. Every other cell is inside
    // every packing of weight 2.
    let b = board(&["11111", "?????"], Some(2));
    assert_eq!(run(&b), cells(&[(1, 2)], Value::Safe));
}

#[test]
fn two_overlapping_ones_and_the_count() {
    // ? 1 ? 1 ?     total 2 over 3 closed cells. The 1s see {c0,c2}
    //               and {c2,c4}. Safe side: one safe cell in all, and
    // either 1 alone holds one: the cells outside either are mines, c4
    // and c0. Mine side: the cover {c0,c2} (at most 1) + {c4} (at most
    // 1) must hold both mines, so the second 1's mine is c4 and its
    // earlier-covered c2 is safe.
    let b = board(&["?1?1?"], Some(2));
    let mut want = cells(&[(0, 0), (0, 4)], Value::Mine);
    want.insert(1, (0, 2, Value::Safe));
    assert_eq!(run(&b), want);
}

#[test]
fn interior_mines_from_a_tight_cover() {
    // ? 1 ? 1 ?     the row-2 cells have no revealed neighbour: the
    // . . . . .     interior, 5 cells. The 1s hold at most 2 mines, so
    // ? ? ? ? ?     with total 7 the interior holds at least 5: all
    // mines, and the frontier is as in the test above.
    let b = board(&["?1?1?", ".....", "?????"], Some(7));
    let mut want = cells(
        &[(0, 0), (0, 4), (2, 0), (2, 1), (2, 2), (2, 3), (2, 4)],
        Value::Mine,
    );
    want.insert(1, (0, 2, Value::Safe));
    assert_eq!(run(&b), want);
    // Total 8 (no more than the 8 closed cells) needs 3 mines in the
    // frontier, which holds at most 2.
    let b = board(&["?1?1?", ".....", "?????"], Some(8));
    let err = find(&b, None, &mut vec![]).unwrap_err();
    assert_eq!(err.cells, vec![1, 3]);
}

#[test]
fn impossible_counts_are_contradictions() {
    // More flags than mines.
    let b = board(&["F?", "??"], Some(0));
    assert!(find(&b, None, &mut vec![]).is_err());
    // More mines than closed cells.
    let b = board(&["??", "??"], Some(5));
    assert!(find(&b, None, &mut vec![]).is_err());
    // Two disjoint 1s but a total of 1.
    let b = board(&["1???1", "?????"], Some(1));
    let err = find(&b, None, &mut vec![]).unwrap_err();
    assert_eq!(err.cells, vec![0, 4]);
    // A number that cannot be satisfied alone.
    let b = board(&["3?", "?."], Some(2));
    assert_eq!(find(&b, None, &mut vec![]).unwrap_err().cells, vec![0]);
}

#[test]
fn no_frontier_at_all() {
    // Nothing revealed: the count alone decides only the extremes.
    assert_eq!(
        run(&board(&["???"], Some(0))),
        cells(&[(0, 0), (0, 1), (0, 2)], Value::Safe)
    );
    assert_eq!(
        run(&board(&["???"], Some(3))),
        cells(&[(0, 0), (0, 1), (0, 2)], Value::Mine)
    );
    assert_eq!(run(&board(&["???"], Some(1))), vec![]);
}

#[test]
fn exact_search_beats_every_greedy_order() {
    // . 2 3 . 2 .   the 3 sees {(1,1),(1,2),(1,3)}, overlapping both
    // ? ? ? ? ? ?   2s ({(1,0),(1,1),(1,2)} and {(1,3),(1,4),(1,5)}),
    // ? ? ? ? ? ?   which are disjoint. Every greedy order takes the 3
    // first (heaviest, densest, no larger): 3 mines; the two 2s hold 4.
    let b = board(&[".23.2.", "??????", "??????"], Some(4));
    let system = System::build(&b).unwrap();
    let components = system.components();
    assert_eq!(components.len(), 1);
    let component = &components[0];
    let mut scratch = Scratch::new(system.frontier().len());
    let greedy = greedy_packing(&system, &[1, 0, 2], Side::Mines, &mut scratch.covered);
    assert_eq!(greedy.value, 3);
    let found = component_packings(&system, component, Side::Mines, true, &mut scratch);
    assert_eq!(found.value, 4);
    assert_eq!(found.best.len(), 1);
    assert_eq!(found.best[0].members, vec![0, 2]);
    assert_eq!(brute_best_packing(&system, component, Side::Mines), 4);
    // With the total 4 the two 2s hold every mine: row 2 is safe.
    let safe_row: Vec<_> = (0..6).map(|c| (2, c, Value::Safe)).collect();
    let got = run(&b);
    for cell in &safe_row {
        assert!(got.contains(cell), "{cell:?} not in {got:?}");
    }
}

/// The best packing found equals brute force on every component of
/// small random boards.
#[test]
fn packings_are_optimal_on_small_components() {
    let mut seed = 0x5eed_u64;
    let mut next = move || {
        // SplitMix64
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut checked = 0;
    for _ in 0..300 {
        let (h, w) = (3 + (next() % 5) as usize, 3 + (next() % 5) as usize);
        let grid = Grid::new(h, w);
        let mine: Vec<bool> = (0..grid.len()).map(|_| next() % 4 == 0).collect();
        let cells: Vec<Cell> = (0..grid.len() as u32)
            .map(|i| {
                if !mine[i as usize] && next() % 3 == 0 {
                    let n = grid
                        .neighbours(i)
                        .iter()
                        .filter(|&&n| mine[n as usize])
                        .count();
                    Cell::Revealed(n as u8)
                } else {
                    Cell::Unknown
                }
            })
            .collect();
        let b = Board::new(
            grid,
            cells,
            Some(mine.iter().filter(|&&m| m).count() as u32),
        );
        let system = System::build(&b).unwrap();
        let mut scratch = Scratch::new(system.frontier().len());
        for component in system
            .components()
            .iter()
            .filter(|c| c.equations.len() <= 14)
        {
            for side in [Side::Mines, Side::Safes] {
                let found = component_packings(&system, component, side, true, &mut scratch);
                assert_eq!(found.value, brute_best_packing(&system, component, side));
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} components checked");
}

fn brute_best_packing(system: &System, component: &Component, side: Side) -> u64 {
    let n = component.equations.len();
    assert!(n <= 16);
    let mut best = 0;
    for set in 0u32..(1 << n) {
        let mut seen = std::collections::BTreeSet::new();
        let mut disjoint = true;
        let mut value = 0;
        for k in 0..n {
            if set & (1 << k) != 0 {
                let e = system.equation(component.equations[k]);
                value += side.weight(e) as u64;
                for &c in e.vars.as_slice() {
                    disjoint &= seen.insert(c);
                }
            }
        }
        if disjoint {
            best = best.max(value);
        }
    }
    best
}
