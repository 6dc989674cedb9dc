//! Unit tests of hypotheses, against the brute-force oracle and worked cases.

use super::*;
use crate::board::Cell;
use crate::brute;
use crate::grid::Grid;

/// A board from a picture (see `board_from_picture`); rows separated
/// by whitespace.
fn board(picture: &str, total: Option<u32>) -> Board {
    let rows: Vec<&str> = picture.split_whitespace().collect();
    crate::board::board_from_picture(&rows, total)
}

fn forced(b: &Board) -> Result<Vec<Forced>, Contradiction> {
    let mut out = Vec::new();
    find(b, None, &mut out)?;
    // Whatever the example, the oracle must agree exactly.
    assert_eq!(Some(out.clone()), brute::forced(b), "hypotheses vs brute");
    Ok(out)
}

fn mine(cell: u32) -> Forced {
    Forced {
        cell,
        value: Value::Mine,
    }
}
fn safe(cell: u32) -> Forced {
    Forced {
        cell,
        value: Value::Safe,
    }
}

#[test]
fn one_two_one_against_a_wall() {
    // ? ? ?     a + b = 1, a + b + c = 2, b + c = 1:
    // 1 2 1     subtracting gives c = 1 and a = 1, hence b = 0.
    let b = board("??? 121", None);
    assert_eq!(forced(&b).unwrap(), vec![mine(0), safe(1), mine(2)]);
}

#[test]
fn one_one_clears_the_third_cell() {
    // ? ? ?     a + b = 1 and a + b + c = 1 ⇒ c = 0; a, b undecided.
    // 1 1 .
    let b = board("??? 11.", None);
    assert_eq!(forced(&b).unwrap(), vec![safe(2)]);
}

#[test]
fn case_split_needs_a_hypothesis() {
    // Equations x0 + x2 = 1 and x2 + x4 = 1 (1×5 row `? 1 ? 1 ?`):
    // solutions {x2} (1 mine) and {x0, x4} (2 mines). Nothing is forced
    // without the count; the count picks one solution.
    let b = board("?1?1?", None);
    assert_eq!(forced(&b).unwrap(), vec![]);
    let b = board("?1?1?", Some(1));
    assert_eq!(forced(&b).unwrap(), vec![safe(0), mine(2), safe(4)]);
    let b = board("?1?1?", Some(2));
    assert_eq!(forced(&b).unwrap(), vec![mine(0), safe(2), mine(4)]);
}

#[test]
fn global_count_decides_the_interior() {
    // `? 1 ? . ? ?`: the 1 holds exactly one mine in cells 0, 2; cells
    // 4 and 5 are interior (no revealed neighbour).
    let picture = "?1?.??";
    // Total 1: the frontier already takes it, the interior is safe.
    assert_eq!(
        forced(&board(picture, Some(1))).unwrap(),
        vec![safe(4), safe(5)]
    );
    // Total 3: two mines left for two interior cells.
    assert_eq!(
        forced(&board(picture, Some(3))).unwrap(),
        vec![mine(4), mine(5)]
    );
    // Total 2: one of the two interior cells, either.
    assert_eq!(forced(&board(picture, Some(2))).unwrap(), vec![]);
    // Total 4: at most 3 fit.
    let err = forced(&board(picture, Some(4))).unwrap_err();
    assert!(err.cells.is_empty());
    assert_eq!(
        err.reason,
        "total 4: between 1 and 3 mines fit in the 4 closed cells"
    );
}

#[test]
fn count_binds_across_components() {
    // Two copies of the `? 1 ? 1 ?` case split (1 or 2 mines each),
    // separated by a safe column, plus one interior cell far away.
    //   ? 1 ? 1 ? . ? 1 ? 1 ? . . ?
    let picture = "?1?1?.?1?1?..?";
    // Total 2: both components must take their 1-mine solution and the
    // interior cell is safe.
    assert_eq!(
        forced(&board(picture, Some(2))).unwrap(),
        vec![
            safe(0),
            mine(2),
            safe(4),
            safe(6),
            mine(8),
            safe(10),
            safe(13)
        ]
    );
    // Total 5: 2 + 2 + the interior mine.
    assert_eq!(
        forced(&board(picture, Some(5))).unwrap(),
        vec![
            mine(0),
            safe(2),
            mine(4),
            mine(6),
            safe(8),
            mine(10),
            mine(13)
        ]
    );
    // Total 3: 1+2, 2+1 or 1+1+interior: nothing forced.
    assert_eq!(forced(&board(picture, Some(3))).unwrap(), vec![]);
}

#[test]
fn known_mines_and_safe_cells_count_right() {
    // `F 2 ? . ?` with total 2: the 2 needs one more mine, which must be
    // cell 2; with total 2 and one flag, the interior cell 4 is safe.
    let b = board("F2?.?", Some(2));
    assert_eq!(forced(&b).unwrap(), vec![mine(2), safe(4)]);
}

#[test]
fn contradictions_name_their_cells() {
    // One number alone.
    let err = forced(&board("2?", None)).unwrap_err();
    assert_eq!(err.cells, vec![0]);
    // A number with nothing left to place its mine in.
    let err = forced(&board("1.", None)).unwrap_err();
    assert_eq!(err.cells, vec![0]);
    // Two numbers that disagree about their shared cell.
    let err = forced(&board("1?0", None)).unwrap_err();
    assert_eq!(err.cells, vec![0, 2]);
    // Flags beyond the total.
    let err = forced(&board("FF?", Some(1))).unwrap_err();
    assert!(err.cells.is_empty());
    // A count beyond what the closed cells can hold: `1 2 1` pins
    // exactly two mines on the three cells above it.
    let err = forced(&board("??? 121", Some(3))).unwrap_err();
    assert!(err.cells.is_empty(), "{err:?}");
    assert_eq!(
        err.reason,
        "total 3: between 2 and 2 mines fit in the 3 closed cells"
    );
}

#[test]
fn count_in_a_gap_is_a_contradiction() {
    // A star: the closed cell a = (2,2) shares a 1 with each of b, c, d
    // (corners), so b = c = d = 1 − a: the component holds 1 mine (a)
    // or 3 (b, c, d), never 2.
    let picture = "?...? .1.1. ..?.. .1... ?....";
    assert_eq!(forced(&board(picture, None)).unwrap(), vec![]);
    assert_eq!(
        forced(&board(picture, Some(1))).unwrap(),
        vec![safe(0), safe(4), mine(12), safe(20)]
    );
    assert_eq!(
        forced(&board(picture, Some(3))).unwrap(),
        vec![mine(0), mine(4), safe(12), mine(20)]
    );
    let err = forced(&board(picture, Some(2))).unwrap_err();
    assert!(err.cells.is_empty());
    assert!(
        err.reason.contains("no layout puts exactly 2 mines"),
        "{}",
        err.reason
    );
}

#[test]
fn numbers_with_nothing_closed_are_checked() {
    // The 1 at (0,0) sees only the flag: satisfied; the 2 sees the flag
    // and one closed cell, which must be a mine.
    let b = board("1F2?", None);
    assert_eq!(forced(&b).unwrap(), vec![mine(3)]);
}

/// A deterministic pseudo-random layout for the long-chain test.
fn layout(len: usize, seed: u64) -> Vec<bool> {
    let mut rng = crate::test_rng::TestRng::new(seed);
    (0..len).map(|_| rng.below(6) < 2).collect()
}

#[test]
fn long_chains_stay_small() {
    // Three rows of 400: the middle row revealed, the outer rows closed
    // and seeded with mines. One component of ~800 cells, an order of
    // magnitude beyond enumeration; the programme's layers stay small.
    let w = 400;
    let grid = Grid::new(3, w);
    let mut mines = layout(3 * w, 0x5eed);
    for c in 0..w {
        mines[w + c] = false;
    }
    let mut cells = vec![Cell::Unknown; 3 * w];
    for c in 0..w {
        let i = (w + c) as u32;
        let n = grid
            .neighbours(i)
            .iter()
            .filter(|&&nb| mines[nb as usize])
            .count();
        cells[w + c] = Cell::Revealed(n as u8);
    }
    let total = mines.iter().filter(|&&m| m).count() as u32;
    for t in [None, Some(total)] {
        let b = Board::new(grid, cells.clone(), t);
        let mut out = Vec::new();
        let profile = find_profiled(&b, &mut out).unwrap();
        assert_eq!(profile.largest_component, 2 * w);
        assert!(profile.largest_layer <= 64, "{profile:?}");
        for f in &out {
            assert_eq!(
                mines[f.cell as usize],
                f.value == Value::Mine,
                "cell {}",
                f.cell
            );
        }
        // A 0 pins its six neighbours; a 6 all six: the chain's forced
        // cells include at least those.
        for c in 0..w {
            if let Cell::Revealed(0) = cells[w + c] {
                assert!(out
                    .iter()
                    .any(|f| f.cell == c as u32 && f.value == Value::Safe));
            }
        }
        // With the total, the whole board is one chain with no interior:
        // the total adds information, so the forced set only grows.
        if t.is_some() {
            let mut without = Vec::new();
            find(&Board::new(grid, cells.clone(), None), None, &mut without).unwrap();
            assert!(without.iter().all(|f| out.contains(f)));
        }
    }
}
