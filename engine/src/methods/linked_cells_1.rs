//! Method 2, **linked cells 1**: two numbers' equations together, no global
//! count.
//!
//! Two revealed numbers A and B at Chebyshev distance ≤ 2 can share closed
//! neighbours. With effective values `vA`, `vB` (number minus known mines
//! around it) and unknown neighbour sets `SA`, `SB`, split the cells into
//! the shared part `C = SA ∩ SB` and the private parts `OA = SA \ C`,
//! `OB = SB \ C`. The two equations are
//!
//! ```text
//! m(OA) + m(C) = vA        m(OB) + m(C) = vB        (m = mines in a set)
//! ```
//!
//! Subtracting one from the other gives `m(OA) − m(OB) = vA − vB`: the
//! research's "linked cells". Everything the pair proves follows from the
//! one number they have in common, `k = m(C)`. A value of `k` is possible
//! exactly when `0 ≤ k ≤ |C|`, `0 ≤ vA − k ≤ |OA|` and `0 ≤ vB − k ≤ |OB|`,
//! i.e. `k ∈ [lo, hi]` with
//!
//! ```text
//! lo = max(0, vA − |OA|, vB − |OB|)        hi = min(|C|, vA, vB)
//! ```
//!
//! and every `k` in that interval is realised by some layout of the three
//! disjoint sets. So `m(OA) = vA − k` ranges over `[vA − hi, vA − lo]`
//! (likewise for `OB`), and a set is forced exactly when its range is a
//! single extreme: all safe when its maximum is 0, all mines when its
//! minimum is its size. This covers every textbook case as a special case:
//!
//! - `vA − vB = |OA|` (e.g. `x_a − x_b = 1 ⇒ x_a = 1, x_b = 0`): then
//!   `lo ≥ vA − |OA| = vB ≥ hi`, so `k = vB`, `m(OB) = 0` (safe) and
//!   `m(OA) = |OA|` (mines);
//! - subset `SB ⊆ SA` (`OB = ∅`): `k = vB`, so `m(SA \ SB) = vA − vB`,
//!   safe when the counts are equal, mines when the difference is
//!   `|SA \ SB|`;
//! - general overlap: the interval bounds above;
//! - `lo > hi`: no layout satisfies both numbers — a contradiction.
//!
//! (Within the pair this is complete: a cell of `SA ∪ SB` that is the same
//! in every layout satisfying both equations is reported.)
//!
//! Cells are handled as bitmasks over a 7×7 window centred on A: B is within
//! 2 of A, so every neighbour of B is within 3. No allocation per pair.

use crate::board::{Board, Cell, Contradiction, Forced, Value};

/// Side of the window centred on the first number of a pair.
const WINDOW: isize = 7;
/// Offset of the centre in the window.
const CENTRE: isize = 3;

/// The window bit of the cell at `(dr, dc)` from the centre,
/// `|dr|, |dc| ≤ 3`.
#[inline]
fn bit(dr: isize, dc: isize) -> u64 {
    1u64 << ((dr + CENTRE) * WINDOW + dc + CENTRE)
}

/// One number's equation seen from the window: effective value and the
/// window mask of its unknown neighbours.
#[derive(Clone, Copy, Debug)]
struct Equation {
    value: i32,
    unknown: u64,
}

/// What the two equations of a pair force on each of the three parts; `None`
/// = not forced (or the part is empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PairVerdict {
    pub only_a: Option<Value>,
    pub shared: Option<Value>,
    pub only_b: Option<Value>,
}

/// The pair has no common solution: the shared cells would need at least
/// `at_least` and at most `at_most` mines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PairConflict {
    pub at_least: i32,
    pub at_most: i32,
}

/// Solves the pair system `m(OA) + k = va`, `m(OB) + k = vb`, `k = m(C)`
/// for the parts of sizes `only_a = |OA|`, `shared = |C|`, `only_b = |OB|`
/// (see the module comment for why this is exact).
pub(crate) fn pair_verdict(
    va: i32,
    only_a: u32,
    shared: u32,
    vb: i32,
    only_b: u32,
) -> Result<PairVerdict, PairConflict> {
    let (oa, c, ob) = (only_a as i32, shared as i32, only_b as i32);
    // Mines in the shared cells: at least what each number cannot place in
    // its private cells, at most what fits and what each number allows.
    let lo = 0.max(va - oa).max(vb - ob);
    let hi = c.min(va).min(vb);
    if lo > hi {
        return Err(PairConflict {
            at_least: lo,
            at_most: hi,
        });
    }
    // Mines in a private part range over [v − hi, v − lo]: it is all safe
    // when even the fewest shared mines leave it nothing (v − lo = 0), all
    // mines when even the most shared mines leave it full (v − hi = size).
    let private = |v: i32, size: i32| {
        if size == 0 {
            None
        } else if v - lo == 0 {
            Some(Value::Safe)
        } else if v - hi == size {
            Some(Value::Mine)
        } else {
            None
        }
    };
    // The shared cells are pinned when k can only be 0 or only be |C|.
    let shared_value = if c == 0 {
        None
    } else if hi == 0 {
        Some(Value::Safe)
    } else if lo == c {
        Some(Value::Mine)
    } else {
        None
    };
    Ok(PairVerdict {
        only_a: private(va, oa),
        shared: shared_value,
        only_b: private(vb, ob),
    })
}

/// Examines every pair of revealed numbers that share an unknown neighbour
/// and of which at least one is in `dirty` (every pair if `None`). Each pair
/// is examined once. Cells forced by some pair are appended to `out` (each
/// once); a pair with no common solution, or two pairs forcing one cell both
/// ways, is a [`Contradiction`].
pub fn find(
    board: &Board,
    dirty: Option<&[u32]>,
    out: &mut Vec<Forced>,
) -> Result<(), Contradiction> {
    let start = out.len();
    match dirty {
        None => {
            // Every pair once: from its number with the smaller index.
            for a in 0..board.grid().len() as u32 {
                examine_number(board, a, |b| b > a, out)?;
            }
        }
        Some(list) => {
            let mut sorted = list.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            for &a in &sorted {
                // A pair of two dirty numbers is examined from the smaller
                // one only; a pair with one dirty number from that one.
                let skip_partner = |b: u32| b < a && sorted.binary_search(&b).is_ok();
                examine_number(board, a, |b| !skip_partner(b), out)?;
            }
        }
    }
    settle(
        out,
        start,
        "two pairs of numbers force this cell to be both safe and a mine",
    )
}

/// Examines the pairs `(a, b)` for every revealed `b` within distance 2 of
/// `a` with `take(b)`.
fn examine_number(
    board: &Board,
    a: u32,
    take: impl Fn(u32) -> bool,
    out: &mut Vec<Forced>,
) -> Result<(), Contradiction> {
    let grid = board.grid();
    if a as usize >= grid.len() {
        return Ok(());
    }
    let (row, col) = grid.rc(a);
    let Some(eq_a) = equation_at(board, row, col, 0, 0) else {
        return Ok(());
    };
    if eq_a.unknown == 0 {
        return Ok(());
    }
    for dr in -2isize..=2 {
        for dc in -2isize..=2 {
            if dr == 0 && dc == 0 {
                continue;
            }
            let (r, c) = (row as isize + dr, col as isize + dc);
            if r < 0 || c < 0 || r >= grid.h as isize || c >= grid.w as isize {
                continue;
            }
            let b = (r as usize * grid.w + c as usize) as u32;
            if !take(b) {
                continue;
            }
            let Some(eq_b) = equation_at(board, row, col, dr, dc) else {
                continue;
            };
            let shared = eq_a.unknown & eq_b.unknown;
            if shared == 0 {
                // No common cell: the two equations are independent and
                // say nothing the single-cell method does not.
                continue;
            }
            let only_a = eq_a.unknown & !shared;
            let only_b = eq_b.unknown & !shared;
            let verdict = pair_verdict(
                eq_a.value,
                only_a.count_ones(),
                shared.count_ones(),
                eq_b.value,
                only_b.count_ones(),
            )
            .map_err(|conflict| {
                Contradiction::new(
                    vec![a, b],
                    format!(
                        "two numbers need at least {} and at most {} mines among their {} shared closed cells",
                        conflict.at_least,
                        conflict.at_most,
                        shared.count_ones()
                    ),
                )
            })?;
            for (mask, value) in [
                (only_a, verdict.only_a),
                (shared, verdict.shared),
                (only_b, verdict.only_b),
            ] {
                if let Some(value) = value {
                    push_window_cells(a, grid.w, mask, value, out);
                }
            }
        }
    }
    Ok(())
}

/// The equation of the revealed number at `(row + dr, col + dc)` as seen
/// from the window centred on `(row, col)`; `None` if that cell is outside
/// the grid or not a revealed number.
#[inline]
fn equation_at(board: &Board, row: usize, col: usize, dr: isize, dc: isize) -> Option<Equation> {
    let grid = board.grid();
    let cells = board.cells();
    let (r, c) = (row as isize + dr, col as isize + dc);
    if r < 0 || c < 0 || r >= grid.h as isize || c >= grid.w as isize {
        return None;
    }
    let Cell::Revealed(number) = cells[r as usize * grid.w + c as usize] else {
        return None;
    };
    let mut mines = 0i32;
    let mut unknown = 0u64;
    for er in -1isize..=1 {
        for ec in -1isize..=1 {
            if er == 0 && ec == 0 {
                continue;
            }
            let (rr, cc) = (r + er, c + ec);
            if rr < 0 || cc < 0 || rr >= grid.h as isize || cc >= grid.w as isize {
                continue;
            }
            match cells[rr as usize * grid.w + cc as usize] {
                Cell::Unknown => unknown |= bit(dr + er, dc + ec),
                Cell::Mine => mines += 1,
                Cell::Safe | Cell::Revealed(_) => {}
            }
        }
    }
    Some(Equation {
        value: number as i32 - mines,
        unknown,
    })
}

/// Appends the cells of a window mask (window centred on cell `centre` of a
/// grid `w` wide) with `value`. Only in-grid cells ever get a bit, so the
/// index arithmetic stays in the grid.
fn push_window_cells(centre: u32, w: usize, mut mask: u64, value: Value, out: &mut Vec<Forced>) {
    while mask != 0 {
        let k = mask.trailing_zeros() as isize;
        mask &= mask - 1;
        let dr = k / WINDOW - CENTRE;
        let dc = k % WINDOW - CENTRE;
        let cell = (centre as isize + dr * w as isize + dc) as u32;
        out.push(Forced { cell, value });
    }
}

/// Sorts and deduplicates `out[start..]` (the cells found in one call); a
/// cell forced both safe and a mine (by two different arguments, each
/// sound) means the board has no layout: a contradiction with `reason`.
pub(super) fn settle(
    out: &mut Vec<Forced>,
    start: usize,
    reason: &str,
) -> Result<(), Contradiction> {
    let found = &mut out[start..];
    found.sort_unstable();
    if let Some(pair) = found
        .windows(2)
        .find(|p| p[0].cell == p[1].cell && p[0].value != p[1].value)
    {
        return Err(Contradiction::new(vec![pair[0].cell], reason));
    }
    let mut kept = start;
    for k in start..out.len() {
        if kept == start || out[kept - 1] != out[k] {
            out[kept] = out[k];
            kept += 1;
        }
    }
    out.truncate(kept);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str], total: Option<u32>) -> Board {
        crate::board::board_from_picture(rows, total)
    }

    fn run(b: &Board, dirty: Option<&[u32]>) -> Vec<(usize, usize, Value)> {
        let mut out = vec![];
        find(b, dirty, &mut out).unwrap();
        out.iter()
            .map(|f| {
                let (r, c) = b.grid().rc(f.cell);
                (r, c, f.value)
            })
            .collect()
    }

    #[test]
    fn row_of_ones_along_the_wall() {
        // 1 1 1 1      the top edge is a wall; mines at (1,0) and (1,3).
        // ? ? ? ?
        // The corner 1 has its mine in {(1,0),(1,1)}, which the second 1
        // also sees, so the second 1's third cell (1,2) is safe; the same
        // from the right clears (1,1). Nothing else follows from pairs.
        let b = board(&["1111", "????"], None);
        assert_eq!(
            run(&b, None),
            vec![(1, 1, Value::Safe), (1, 2, Value::Safe)]
        );
    }

    #[test]
    fn classic_one_one_at_the_edge() {
        // 1 1 .        left and top edges are walls; the cell below and
        // ? ? ?        beyond the second 1, (1,2), is safe.
        let b = board(&["11.", "???"], None);
        assert_eq!(run(&b, None), vec![(1, 2, Value::Safe)]);
    }

    #[test]
    fn one_two_one() {
        // 1 2 1        the 2 sees one cell more than each 1 and needs one
        // ? ? ?        mine more: those cells, (1,2) and (1,0), are mines.
        let b = board(&["121", "???"], None);
        assert_eq!(
            run(&b, None),
            vec![(1, 0, Value::Mine), (1, 2, Value::Mine)]
        );
    }

    #[test]
    fn one_two_two_one() {
        // 1 2 2 1      each outer pair (1,2) proves the cell under the inner
        // ? ? ? ?      2's far side a mine: (1,2) and (1,1).
        let b = board(&["1221", "????"], None);
        assert_eq!(
            run(&b, None),
            vec![(1, 1, Value::Mine), (1, 2, Value::Mine)]
        );
    }

    #[test]
    fn difference_equal_to_private_size() {
        // ? ? ? ?      the 2 sees {(0,0),(0,1),(0,2)}, the 1 sees
        // . 2 1 .      {(0,1),(0,2),(0,3)}: x(0,0) − x(0,3) = 1, so (0,0)
        // . . . .      is a mine and (0,3) safe; the shared pair keeps one
        //              mine it cannot place.
        let b = board(&["????", ".21.", "...."], None);
        assert_eq!(
            run(&b, None),
            vec![(0, 0, Value::Mine), (0, 3, Value::Safe)]
        );
        // ? ? ? ?      with closed rows on both sides the private parts
        // . 2 1 .      have two cells each and the difference 1 is less:
        // ? ? ? ?      nothing is forced.
        let b = board(&["????", ".21.", "????"], None);
        assert_eq!(run(&b, None), vec![]);
    }

    #[test]
    fn flags_lower_the_values() {
        // F 2 1        the 2 already sees a flag: one more mine, in
        // ? ? .        {(1,0),(1,1)}; the 1 sees only (1,1), so (1,1) is
        //              that mine and (1,0) is safe.
        let b = board(&["F21", "??."], None);
        assert_eq!(
            run(&b, None),
            vec![(1, 0, Value::Safe), (1, 1, Value::Mine)]
        );
    }

    #[test]
    fn contradiction_names_both_numbers() {
        // 1 3 .        both see exactly {(1,0),(1,1)}: the 3 needs three
        // ? ? .        mines there, the 1 allows one.
        let b = board(&["13.", "??."], None);
        let err = find(&b, None, &mut vec![]).unwrap_err();
        assert_eq!(err.cells, vec![0, 1]);
        // 0 2 .        the 0 allows no mine where the 2 needs two.
        // ? ? .
        let b = board(&["02.", "??."], None);
        assert_eq!(find(&b, None, &mut vec![]).unwrap_err().cells, vec![0, 1]);
    }

    #[test]
    fn dirty_limits_the_pairs() {
        // In "1 1 1 1 / ? ? ? ?" the pair (0,0)-(0,1) clears (1,2) and the
        // pair (0,2)-(0,3) clears (1,1).
        let b = board(&["1111", "????"], None);
        assert_eq!(run(&b, Some(&[0])), vec![(1, 2, Value::Safe)]);
        assert_eq!(run(&b, Some(&[3])), vec![(1, 1, Value::Safe)]);
        assert_eq!(
            run(&b, Some(&[3, 0, 0])),
            vec![(1, 1, Value::Safe), (1, 2, Value::Safe)]
        );
        // Non-numbers and out-of-range indices in `dirty` are ignored.
        assert_eq!(run(&b, Some(&[4, 99])), vec![]);
    }

    /// The pair verdict against brute force over all mine counts of the
    /// three parts, for every small size and value (including impossible
    /// ones).
    #[test]
    fn pair_verdict_matches_enumeration() {
        for oa in 0..=4u32 {
            for c in 0..=4u32 {
                for ob in 0..=4u32 {
                    for va in -1..=9i32 {
                        for vb in -1..=9i32 {
                            check_pair(va, oa, c, vb, ob);
                        }
                    }
                }
            }
        }
    }

    fn check_pair(va: i32, oa: u32, c: u32, vb: i32, ob: u32) {
        // Feasible (mines in OA, mines in C, mines in OB).
        let mut feasible = vec![];
        for ma in 0..=oa as i32 {
            for mc in 0..=c as i32 {
                for mb in 0..=ob as i32 {
                    if ma + mc == va && mb + mc == vb {
                        feasible.push((ma, mc, mb));
                    }
                }
            }
        }
        let got = pair_verdict(va, oa, c, vb, ob);
        if feasible.is_empty() {
            assert!(
                got.is_err(),
                "{va} {oa} {c} {vb} {ob}: no layout, got {got:?}"
            );
            return;
        }
        let got =
            got.unwrap_or_else(|e| panic!("{va} {oa} {c} {vb} {ob}: {e:?} but layouts exist"));
        // A part of size n is forced safe iff it has 0 mines in every
        // feasible count, a mine iff n in every one.
        let expect = |size: u32, pick: &dyn Fn(&(i32, i32, i32)) -> i32| {
            if size == 0 {
                None
            } else if feasible.iter().all(|t| pick(t) == 0) {
                Some(Value::Safe)
            } else if feasible.iter().all(|t| pick(t) == size as i32) {
                Some(Value::Mine)
            } else {
                None
            }
        };
        let want = PairVerdict {
            only_a: expect(oa, &|t| t.0),
            shared: expect(c, &|t| t.1),
            only_b: expect(ob, &|t| t.2),
        };
        assert_eq!(got, want, "{va} {oa} {c} {vb} {ob}");
    }
}
