//! The small pattern behind a rule's deduction, found again on the board
//! and written as text for a person.
//!
//! The rule layer proves a cell with a rule of order 1 or 2: one revealed
//! number, or two at Chebyshev distance at most 2, whose equations alone
//! force it (docs/design.md §3). The index says which order fired, not
//! which numbers; [`find`] finds them again. With one number `v` and its
//! closed neighbours `N`, the cell is forced when `v = 0` (safe) or
//! `v = |N|` (mines). With two, the closed cells split into `A` (the
//! first's alone), `B` (shared) and `C` (the second's alone); a layout of
//! the pair is a count `b` of mines in `B` with `a = v₁ − b` in `A` and
//! `c = v₂ − b` in `C`, each within its group's size. Cells of a group are
//! interchangeable, so a cell of `A` is forced safe when every feasible
//! `b` gives `a = 0`, a mine when every one gives `a = |A|` — and so on
//! for `B` and `C`. That is everything the pair allows, which is what its
//! rules of order 2 conclude. `v` is a number's effective value: the mines
//! already known around it are taken off.

use crate::board::{Board, Cell, Source, Value};
use crate::grid::Grid;
use crate::report::RowCol;
use crate::solver::Deduction;
use serde::Serialize;

/// The numbers that force a cell, and the window they see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Proof {
    /// The revealed numbers whose equations force the cells (one or two).
    pub foci: Vec<RowCol>,
    /// The window around them, a row of text each: `?` closed, `F` a mine
    /// known at that point, `*` a cell known safe, `.` a revealed 0, a
    /// digit a number, a blank a cell neither number sees, `S` or `M` a
    /// cell proven (safe, or a mine: the one flagged or opened, or every
    /// cell a chord opens).
    pub pattern: Vec<String>,
    /// The pattern's name: the numbers as they show, `1-2` for a pair.
    pub name: String,
}

impl Proof {
    /// In words: "the 1-2 pattern at (4,6) and (4,7)" or "the 2 at (4,6)".
    pub fn describe(&self) -> String {
        match self.foci.as_slice() {
            [one] => format!("the {} at {one}", self.name),
            foci => {
                let at: Vec<String> = foci.iter().map(|c| c.to_string()).collect();
                format!("the {} pattern at {}", self.name, at.join(" and "))
            }
        }
    }
}

/// The one or two numbers of `board` that alone force `cell` to `value`,
/// with the pattern they make; `None` when no number or pair does (a
/// method's deduction, or one of a larger rule).
pub fn find(board: &Board, cell: u32, value: Value) -> Option<Proof> {
    find_all(board, &[cell], value)
}

/// The pattern behind each of `deductions`, made in that order on
/// `board` (an analysis of it: [`crate::Analysis::deductions`]): for a
/// rule's deduction, the one or two numbers that force the cell once the
/// cells proven before it are known; `None` for a method's, or one no
/// number or pair forces (a rule of a higher order).
pub fn of_deductions(board: &Board, deductions: &[Deduction]) -> Vec<Option<Proof>> {
    let mut board = board.clone();
    deductions
        .iter()
        .map(|d| {
            let proof = match d.source {
                Source::Rule { .. } => find(&board, d.cell, d.value),
                Source::Method(_) => None,
            };
            board.set(d.cell, Cell::known(d.value));
            proof
        })
        .collect()
}

/// The one or two numbers of `board` that alone force every cell of
/// `cells` to `value` (a chord's cells: usually the chorded number, once
/// its mines are known), with the pattern they make, each of those cells
/// marked; `None` when `cells` is empty or no number or pair forces them
/// all.
pub fn find_all(board: &Board, cells: &[u32], value: Value) -> Option<Proof> {
    let grid = board.grid();
    let &first = cells.first()?;
    let around: Vec<u32> = grid
        .neighbours(first)
        .iter()
        .copied()
        .filter(|&n| board.effective(n).is_some())
        .collect();
    let sees = |n: u32, c: u32| grid.neighbours(n).contains(&c);
    for &n in &around {
        if cells
            .iter()
            .all(|&c| sees(n, c) && single(board, n, c) == Some(value))
        {
            return Some(proof(board, &[n], cells, value));
        }
    }
    for &n in &around {
        for m in within_two(grid, n) {
            if m == n {
                continue;
            }
            let Some(pair) = Pair::new(board, n, m) else {
                continue;
            };
            if cells.iter().all(|&c| pair.says(c) == Some(value)) {
                let mut foci = [n, m];
                foci.sort_unstable();
                return Some(proof(board, &foci, cells, value));
            }
        }
    }
    None
}

/// The cells at Chebyshev distance at most 2 from `n`.
fn within_two(grid: Grid, n: u32) -> impl Iterator<Item = u32> {
    let (r, c) = grid.rc(n);
    let rows = r.saturating_sub(2)..(r + 3).min(grid.h);
    rows.flat_map(move |rr| {
        (c.saturating_sub(2)..(c + 3).min(grid.w)).map(move |cc| grid.index(rr, cc))
    })
}

/// What number `n` alone says of its closed neighbour `cell`.
fn single(board: &Board, n: u32, cell: u32) -> Option<Value> {
    let (v, closed) = board.effective(n)?;
    if !board.cell(cell).is_unknown() {
        return None;
    }
    if v == 0 {
        Some(Value::Safe)
    } else if v == closed as i32 {
        Some(Value::Mine)
    } else {
        None
    }
}

/// A pair of numbers `n`, `m` and what their layouts allow (module doc):
/// the closed cells each sees, and for each of the three groups (`A`, the
/// first's alone; `B`, shared; `C`, the second's alone) the fewest and the
/// most mines it holds over every feasible split, and its size.
struct Pair {
    of_n: Vec<u32>,
    of_m: Vec<u32>,
    groups: [(i32, i32, i32); 3],
}

impl Pair {
    /// `None` when either is not a number or no split fits them.
    fn new(board: &Board, n: u32, m: u32) -> Option<Pair> {
        let (v1, _) = board.effective(n)?;
        let (v2, _) = board.effective(m)?;
        let of_n: Vec<u32> = board.unknown_neighbours(n).collect();
        let of_m: Vec<u32> = board.unknown_neighbours(m).collect();
        let shared = of_n.iter().filter(|c| of_m.contains(c)).count() as i32;
        let (a_size, c_size) = (of_n.len() as i32 - shared, of_m.len() as i32 - shared);
        let mut groups = [a_size, shared, c_size].map(|size| (i32::MAX, i32::MIN, size));
        let mut any = false;
        for b in 0..=shared {
            let (a, c) = (v1 - b, v2 - b);
            if (0..=a_size).contains(&a) && (0..=c_size).contains(&c) {
                any = true;
                for (g, count) in groups.iter_mut().zip([a, b, c]) {
                    g.0 = g.0.min(count);
                    g.1 = g.1.max(count);
                }
            }
        }
        any.then_some(Pair { of_n, of_m, groups })
    }

    /// What the pair says of `cell`: safe when its group holds no mine in
    /// any split, a mine when it is full in every one.
    fn says(&self, cell: u32) -> Option<Value> {
        let group = match (self.of_n.contains(&cell), self.of_m.contains(&cell)) {
            (true, false) => 0,
            (true, true) => 1,
            (false, true) => 2,
            (false, false) => return None,
        };
        let (low, high, size) = self.groups[group];
        if high == 0 {
            Some(Value::Safe)
        } else if low == size {
            Some(Value::Mine)
        } else {
            None
        }
    }
}

/// The proof of `cells` by `foci`: the window they see, as text.
fn proof(board: &Board, foci: &[u32], cells: &[u32], value: Value) -> Proof {
    let grid = board.grid();
    let rc: Vec<(usize, usize)> = foci.iter().map(|&f| grid.rc(f)).collect();
    let top = rc.iter().map(|p| p.0).min().unwrap_or(0).saturating_sub(1);
    let bottom = (rc.iter().map(|p| p.0).max().unwrap_or(0) + 1).min(grid.h - 1);
    let left = rc.iter().map(|p| p.1).min().unwrap_or(0).saturating_sub(1);
    let right = (rc.iter().map(|p| p.1).max().unwrap_or(0) + 1).min(grid.w - 1);
    let seen = |i: u32| {
        let (r, c) = grid.rc(i);
        rc.iter()
            .any(|&(fr, fc)| r.abs_diff(fr) <= 1 && c.abs_diff(fc) <= 1)
    };
    let pattern = (top..=bottom)
        .map(|r| {
            let row: Vec<String> = (left..=right)
                .map(|c| {
                    let i = grid.index(r, c);
                    let ch = if cells.contains(&i) {
                        if value == Value::Safe {
                            'S'
                        } else {
                            'M'
                        }
                    } else if !seen(i) {
                        ' '
                    } else {
                        match board.cell(i) {
                            Cell::Unknown => '?',
                            Cell::Mine => 'F',
                            Cell::Safe => '*',
                            Cell::Revealed(0) => '.',
                            Cell::Revealed(n) => char::from(b'0' + n.min(9)),
                        }
                    };
                    ch.to_string()
                })
                .collect();
            row.join(" ").trim_end().to_string()
        })
        .collect();
    let name = foci
        .iter()
        .map(|&f| match board.cell(f) {
            Cell::Revealed(n) => n.to_string(),
            _ => "?".into(),
        })
        .collect::<Vec<_>>()
        .join("-");
    Proof {
        foci: rc.into_iter().map(RowCol::from).collect(),
        pattern,
        name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::board_from_picture;

    /// The 1-2-1 under a closed row: a 1-2 pair makes the far corner a
    /// mine; once it is known, the 1 beside it makes the middle safe. The
    /// pair alone does not decide the middle.
    #[test]
    fn the_one_two_one_is_a_pair_then_a_single_number() {
        let mut board = board_from_picture(&["???", "121", "..."], Some(2));
        let corner = find(&board, 2, Value::Mine).expect("a corner is a mine");
        assert_eq!((corner.foci.len(), corner.name.as_str()), (2, "1-2"));
        assert_eq!(corner.pattern, ["? ? M", "1 2 1", "* * *"]);
        assert!(find(&board, 1, Value::Safe).is_none());
        board.set(2, Cell::Mine);
        let middle = find(&board, 1, Value::Safe).expect("then the middle is safe");
        assert_eq!(middle.foci, [RowCol { row: 1, col: 2 }]);
        assert_eq!(middle.describe(), "the 1 at (1,2)");
    }

    /// A 1 with one closed neighbour is a single-number pattern; its
    /// window is drawn around it.
    #[test]
    fn a_single_number_pattern_is_drawn_with_its_window() {
        let board = board_from_picture(&["?1.", "11.", "..."], Some(1));
        let p = find(&board, 0, Value::Mine).expect("forced by a 1");
        assert_eq!(p.foci.len(), 1);
        assert_eq!(p.describe(), format!("the 1 at {}", p.foci[0]));
        assert!(
            p.pattern.iter().any(|row| row.contains('M')),
            "{:?}",
            p.pattern
        );
    }

    /// A chord's cells are proven together by the chorded number once its
    /// mine is known; cells two numbers force on both sides of a pair are
    /// proven together by the pair; cells no one number or pair forces
    /// together have no proof.
    #[test]
    fn a_chords_cells_are_proven_by_one_pattern() {
        let board = board_from_picture(&["?F??", "?1??", "????"], None);
        let chord: Vec<u32> = [0, 2, 4, 6, 8, 9, 10].into();
        let p = find_all(&board, &chord, Value::Safe).expect("the 1 sees its mine");
        assert_eq!(p.describe(), "the 1 at (1,1)");
        assert_eq!(p.pattern, ["S F S", "S 1 S", "S S S"]);

        // Under the 1-2-1 both corners are mines, but each by another
        // pair: the far corner by the 1-2, the near one by the 2-1.
        let board = board_from_picture(&["???", "121", "..."], Some(2));
        let corners = find_all(&board, &[0, 2], Value::Mine);
        assert!(corners.is_none(), "{corners:?}");
        let p = find_all(&board, &[0], Value::Mine).expect("the 2-1 pair");
        assert_eq!(p.describe(), "the 2-1 pattern at (1,1) and (1,2)");
        assert!(find_all(&board, &[], Value::Safe).is_none());
    }

    /// Against enumeration: on random small boards, whatever a number or a
    /// pair is found to force — one cell, or every closed neighbour of a
    /// number together (what a chord opens) — holds in every layout those
    /// numbers allow.
    #[test]
    fn every_pattern_found_is_forced_by_its_own_numbers() {
        let mut rng = crate::test_rng::TestRng::new(11);
        let (mut found, mut found_together) = (0, 0);
        for _ in 0..3000 {
            let (h, w) = (2 + rng.below(4), 2 + rng.below(4));
            let grid = Grid::new(h, w);
            let mine: Vec<bool> = (0..grid.len()).map(|_| rng.below(4) == 0).collect();
            let cells: Vec<Cell> = (0..grid.len() as u32)
                .map(|i| {
                    if mine[i as usize] || rng.below(2) == 0 {
                        Cell::Unknown
                    } else {
                        let around = grid.neighbours(i);
                        let n = around.iter().filter(|&&n| mine[n as usize]).count();
                        Cell::Revealed(n as u8)
                    }
                })
                .collect();
            let board = Board::new(grid, cells.clone(), None);
            if board.unknown_count() > 12 {
                continue;
            }
            let mut sets: Vec<Vec<u32>> = (0..grid.len() as u32).map(|c| vec![c]).collect();
            for n in 0..grid.len() as u32 {
                let closed: Vec<u32> = board.unknown_neighbours(n).collect();
                if board.effective(n).is_some() && closed.len() > 1 {
                    sets.push(closed);
                }
            }
            for set in &sets {
                for value in [Value::Safe, Value::Mine] {
                    let Some(p) = find_all(&board, set, value) else {
                        continue;
                    };
                    found += 1;
                    found_together += usize::from(set.len() > 1);
                    let foci: Vec<u32> = p.foci.iter().map(|f| grid.index(f.row, f.col)).collect();
                    // Every layout of the closed cells that fits the foci.
                    let closed: Vec<u32> = (0..grid.len() as u32)
                        .filter(|&i| cells[i as usize] == Cell::Unknown)
                        .collect();
                    for mask in 0u32..1 << closed.len() {
                        let is_mine = |c: u32| {
                            closed
                                .iter()
                                .position(|&x| x == c)
                                .is_some_and(|k| mask >> k & 1 == 1)
                        };
                        let fits = foci.iter().all(|&f| {
                            let Cell::Revealed(v) = cells[f as usize] else {
                                return false;
                            };
                            grid.neighbours(f).iter().filter(|&&n| is_mine(n)).count()
                                == usize::from(v)
                        });
                        if fits {
                            for &cell in set {
                                assert_eq!(
                                    is_mine(cell),
                                    value == Value::Mine,
                                    "{board:?} {set:?} {p:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(
            found > 500 && found_together > 100,
            "{found} {found_together}"
        );
    }
}
