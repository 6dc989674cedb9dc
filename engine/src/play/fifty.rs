//! Unavoidable 50/50s: the guesses that cost nothing, and the share of a
//! cell's risk that no play can avoid.
//!
//! # The maths
//!
//! A *pattern* is two closed cells side by side, or a 2×2 box of closed
//! cells, with two *ways* to hold its mines: one cell or the other for a
//! pair, one diagonal or the other for a box. Its *outside* is the cells
//! next to it that see a different number of pattern mines in the two
//! ways: for a pair, the cells next to exactly one of the two; for a box,
//! its four outer diagonal corners (every other neighbour of a box sees one
//! cell of each diagonal).
//!
//! Let `S` be the layouts in which the pattern holds its mines one way or
//! the other and every outside cell is a mine. When no outside cell is
//! revealed, swapping the two ways maps `S` onto itself and changes nothing
//! a player can ever see: a revealed cell next to the pattern counts the
//! same either way, an outside cell is a mine and never shows a number,
//! and the total is the same. So the two halves of `S` are told apart only
//! by opening a pattern cell: on every swapped pair of layouts any strategy
//! opens the same cell first and loses one of the two. **Every strategy
//! loses at least half of `S`**, and each way holds exactly half of it.
//!
//! - **Free guess** ([`free_guess`]): a cell `c` every one of whose mine
//!   layouts lies in `S`, with `c` a mine in one way (a *pseudo-50/50*: `c`
//!   is either safe or half of an unavoidable 50/50). Opening `c` now loses
//!   exactly the layouts with a mine on `c`: one half of `S`, which any
//!   strategy loses anyway. It is never worse than any other plan — on the
//!   other half of `S` the player can play the mirror image of what that
//!   plan did on the lost half — and the number `c` shows may help
//!   elsewhere, so the player opens it before any other guess.
//! - **Influence** ([`influence`]): for any closed cell, the probability of
//!   the layouts that put it in a pattern's `S` — as one of its cells, which
//!   a guess loses on one way (half of `S`), or as an outside cell, which a
//!   guess loses on all of `S` when half was lost anyway. Either way the
//!   amount is `P(one way ∧ S)`, the part of the cell's mine probability
//!   that no strategy avoids. The second-safety guess counts it back in
//!   (see `super::guess`). Patterns may overlap, so the sum is capped at the
//!   cell's mine and safe probabilities.
//!
//! # How
//!
//! Everything is decided on the exact layout counts of
//! [`Probabilities`]: "every mine layout of `c` lies in `S`" is a handful of
//! consistency checks (with `c` a mine, each other cell of its way a mine,
//! each cell of the other way safe, each outside cell a mine — no layout
//! fits the opposite), and `P(one way ∧ S)` is the layout count with those
//! cells set, over the count of the position. Only patterns that can
//! matter are counted: cells on the frontier (a pattern far from every
//! number is forced only by the total), at most two outside cells still
//! unknown (one for the influence of a pair), and a chance of `S` above
//! [`INFLUENCE_FLOOR`].

use crate::board::{Board, Cell};
use crate::budget::Budget;
use crate::constraints::Few;
use crate::grid::Grid;
use crate::probabilities::Probabilities;

/// Patterns whose `P(one way ∧ S)` cannot reach this are not counted for
/// [`influence`] (by a bound from the mine probabilities, then exactly).
pub const INFLUENCE_FLOOR: f64 = 0.025;

/// A pattern: its cells, which of them hold the mines in the first way
/// (bit `k` for cell `k`; the others hold them in the second), and its
/// unknown outside cells. At most eight of each, on the stack: the scans
/// below look at every pair and box of the board.
struct Pattern {
    cells: Few,
    first_way: u8,
    outside: Few,
}

impl Pattern {
    /// The pair `a`, `b` (closed, side by side), if none of its outside
    /// cells is revealed and at most `most` of them are unknown.
    fn pair(board: &Board, a: u32, b: u32, most: usize) -> Option<Pattern> {
        let grid = board.grid();
        let (na, nb) = (grid.neighbours(a), grid.neighbours(b));
        let one_sided = na
            .iter()
            .filter(|x| !nb.contains(x))
            .chain(nb.iter().filter(|x| !na.contains(x)))
            .copied()
            .filter(|&x| x != a && x != b);
        let mut cells = Few::EMPTY;
        cells.push(a);
        cells.push(b);
        Some(Pattern {
            cells,
            first_way: 0b01,
            outside: unknown_outside(board, one_sided, most)?,
        })
    }

    /// The 2×2 box with top-left cell `(r, c)` (all closed), if none of
    /// its outer corners is revealed and at most `most` are unknown.
    fn square(board: &Board, r: usize, c: usize, most: usize) -> Option<Pattern> {
        let grid = board.grid();
        let top_left = grid.index(r, c);
        let mut cells = Few::EMPTY;
        for x in [
            top_left,
            grid.index(r, c + 1),
            grid.index(r + 1, c),
            grid.index(r + 1, c + 1),
        ] {
            cells.push(x);
        }
        let corners = [(-1, -1), (-1, 2), (2, -1), (2, 2)]
            .into_iter()
            .filter_map(|(dr, dc)| grid.offset(top_left, dr, dc));
        Some(Pattern {
            cells,
            first_way: 0b1001,
            outside: unknown_outside(board, corners, most)?,
        })
    }

    /// The cells to set for "`cell` is a mine and the layout lies in `S`":
    /// the mines (the outside, then the way holding `cell`) and the safe
    /// cells (the other way).
    fn fixed_with_mine_on(&self, cell: usize) -> (Few, Few) {
        let way = self.first_way >> cell & 1;
        let (mut mines, mut safe) = (self.outside, Few::EMPTY);
        for (k, &x) in self.cells.as_slice().iter().enumerate() {
            if self.first_way >> k & 1 == way {
                mines.push(x);
            } else {
                safe.push(x);
            }
        }
        (mines, safe)
    }
}

/// The outside cells still unknown, or `None` if one can be revealed
/// (already revealed, or proven safe) or more than `most` are unknown.
fn unknown_outside(board: &Board, outside: impl Iterator<Item = u32>, most: usize) -> Option<Few> {
    let mut unknown = Few::EMPTY;
    for x in outside {
        match board.cell(x) {
            Cell::Revealed(_) | Cell::Safe => return None,
            Cell::Unknown => {
                if unknown.len() == most {
                    return None;
                }
                unknown.push(x);
            }
            Cell::Mine => {}
        }
    }
    Some(unknown)
}

/// The pairs with `t` as first cell: its right and lower neighbours, then
/// (with `all`, for free guesses) its left and upper ones; the first two
/// alone list every pair once.
fn partners(grid: Grid, t: u32, all: bool) -> impl Iterator<Item = u32> {
    let steps: &[(isize, isize)] = if all {
        &[(0, 1), (0, -1), (1, 0), (-1, 0)]
    } else {
        &[(0, 1), (1, 0)]
    };
    steps
        .iter()
        .filter_map(move |&(dr, dc)| grid.offset(t, dr, dc))
}

/// Sets cells, answers whether a layout fits, and puts them back. The
/// counts start from `base`, the probabilities of `board` as it is
/// ([`Probabilities::compute_changed`]: only the components the set
/// cells touch are counted again).
struct Trial<'a> {
    board: Board,
    base: &'a Probabilities,
    scratch: &'a mut Probabilities,
    density: Option<f64>,
    budget: &'a Budget,
    /// The cells set, for the count.
    changed: Vec<u32>,
}

impl Trial<'_> {
    /// Whether some layout has every cell of `mines` a mine and every cell
    /// of `safe` safe (a count that fails, out of budget, counts as
    /// "fits": nothing is concluded from it).
    fn fits(&mut self, mines: &[u32], safe: &[u32]) -> bool {
        !matches!(self.with(mines, safe), Ok(None))
    }

    /// `log10` of the layouts with `mines` and `safe` set, `None` if none
    /// fits or the count fails.
    fn log10_layouts(&mut self, mines: &[u32], safe: &[u32]) -> Option<f64> {
        self.with(mines, safe).ok().flatten()
    }

    /// `log10` of the layouts on the board with `mines` and `safe` set
    /// (`None`: no layout fits; an error: the count failed).
    fn with(&mut self, mines: &[u32], safe: &[u32]) -> Result<Option<f64>, ()> {
        self.changed.clear();
        for &m in mines {
            self.board.set(m, Cell::Mine);
            self.changed.push(m);
        }
        for &s in safe {
            self.board.set(s, Cell::Safe);
            self.changed.push(s);
        }
        let result = self
            .scratch
            .layouts_changed(
                &self.board,
                self.base,
                &self.changed,
                self.density,
                self.budget,
            )
            .map_err(|_| ());
        for &c in mines.iter().chain(safe) {
            self.board.set(c, Cell::Unknown);
        }
        result
    }
}

/// Whether every layout with a mine on `pattern.cells[k]` lies in the
/// pattern's `S`.
fn is_free(trial: &mut Trial, pattern: &Pattern, k: usize) -> bool {
    let t = pattern.cells.as_slice()[k];
    let (mines, safe) = pattern.fixed_with_mine_on(k);
    // With `t` a mine, no layout may put a mine on a cell of the other way
    // or leave a cell of its own way or of the outside safe.
    safe.as_slice().iter().all(|&x| !trial.fits(&[t, x], &[]))
        && mines
            .as_slice()
            .iter()
            .filter(|&&x| x != t)
            .all(|&x| !trial.fits(&[t], &[x]))
}

/// A free guess on `board` (no cell proven safe; see the module doc), the
/// first found: pairs in cell order, then boxes. `p` holds the
/// probabilities of `board` (the trials count from them), with `density`
/// when it has no total; `scratch` is working space.
pub fn free_guess(
    board: &Board,
    p: &Probabilities,
    scratch: &mut Probabilities,
    density: Option<f64>,
    budget: &Budget,
) -> Option<u32> {
    let grid = board.grid();
    let unknown = |c: u32| board.cell(c) == Cell::Unknown;
    let mut trial = Trial {
        board: board.clone(),
        base: p,
        scratch,
        density,
        budget,
        changed: Vec::with_capacity(8),
    };
    for t in (0..grid.len() as u32).filter(|&t| unknown(t) && board.on_frontier(t)) {
        for u in partners(grid, t, true).filter(|&u| unknown(u) && board.on_frontier(u)) {
            let Some(pair) = Pattern::pair(board, t, u, 2) else {
                continue;
            };
            if is_free(&mut trial, &pair, 0) {
                return Some(t);
            }
        }
    }
    for r in 0..grid.h.saturating_sub(1) {
        for c in 0..grid.w.saturating_sub(1) {
            let Some(square) = boxed(board, r, c, 2) else {
                continue;
            };
            if !square
                .cells
                .as_slice()
                .iter()
                .all(|&x| board.on_frontier(x))
            {
                continue;
            }
            // Each cell, then its diagonal, then the other diagonal's.
            for k in [0, 3, 1, 2] {
                if is_free(&mut trial, &square, k) {
                    return Some(square.cells.as_slice()[k]);
                }
            }
        }
    }
    None
}

/// The 2×2 box at `(r, c)` if its four cells are unknown, no outer
/// corner is revealed and at most `most` are unknown.
fn boxed(board: &Board, r: usize, c: usize, most: usize) -> Option<Pattern> {
    let grid = board.grid();
    let unknown = |r: usize, c: usize| board.cell(grid.index(r, c)) == Cell::Unknown;
    if !(unknown(r, c) && unknown(r, c + 1) && unknown(r + 1, c) && unknown(r + 1, c + 1)) {
        return None;
    }
    Pattern::square(board, r, c, most)
}

/// Every cell's 50/50 influence on `board` (whose probabilities `p` are
/// computed with its total), see the module doc; 0 for the cells that are
/// not closed. Patterns are counted only where they can move a cell to
/// within `reach` of being guessed with weight `weight`: some cell `x` of
/// theirs has `p(x) − weight · e ≤ reach`, where `e` is twice the product of
/// the cells' probabilities of being what the way needs (an estimate of
/// `P(one way ∧ S)`, which bounds the work, not the result).
pub fn influence(
    board: &Board,
    p: &Probabilities,
    scratch: &mut Probabilities,
    budget: &Budget,
    weight: f64,
    reach: f64,
) -> Vec<f64> {
    let grid = board.grid();
    let n = grid.len();
    let prob = |c: u32| p.probability(c).unwrap_or(0.0);
    let base = p.log10_layouts();
    let mut trial = Trial {
        board: board.clone(),
        base: p,
        scratch,
        density: None,
        budget,
        changed: Vec::with_capacity(8),
    };
    let (mut in_pairs, mut in_boxes, mut outside) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    // `P(first way ∧ S)` of a pattern worth counting.
    let mut share = |pattern: &Pattern| -> Option<f64> {
        let (mines, safe) = pattern.fixed_with_mine_on(0);
        let (mines, safe) = (mines.as_slice(), safe.as_slice());
        let chance = |x: &u32| prob(*x);
        let bound = mines
            .iter()
            .map(chance)
            .chain(safe.iter().map(|x| 1.0 - chance(x)))
            .fold(1.0, f64::min);
        if bound <= INFLUENCE_FLOOR {
            return None;
        }
        let estimate = 2.0
            * mines.iter().map(chance).product::<f64>()
            * safe.iter().map(|x| 1.0 - chance(x)).product::<f64>();
        let can_matter =
            |cells: &[u32]| cells.iter().any(|&x| prob(x) - weight * estimate <= reach);
        if !can_matter(mines) && !can_matter(safe) {
            return None;
        }
        let share = 10f64.powf(trial.log10_layouts(mines, safe)? - base);
        (share > INFLUENCE_FLOOR).then_some(share)
    };
    let unknown = |c: u32| board.cell(c) == Cell::Unknown;
    for t in (0..n as u32).filter(|&t| unknown(t)) {
        for u in partners(grid, t, false).filter(|&u| unknown(u)) {
            let Some(pair) = Pattern::pair(board, t, u, 1) else {
                continue;
            };
            let Some(s) = share(&pair) else { continue };
            for &x in pair.cells.as_slice() {
                in_pairs[x as usize] += s;
            }
            for &x in pair.outside.as_slice() {
                outside[x as usize] += s;
            }
        }
    }
    for r in 0..grid.h.saturating_sub(1) {
        for c in 0..grid.w.saturating_sub(1) {
            let Some(square) = boxed(board, r, c, 2) else {
                continue;
            };
            let Some(s) = share(&square) else { continue };
            for &x in square.cells.as_slice() {
                in_boxes[x as usize] = f64::max(in_boxes[x as usize], s);
            }
            for &x in square.outside.as_slice() {
                outside[x as usize] += s;
            }
        }
    }
    (0..n)
        .map(|i| match p.probability(i as u32) {
            Some(q) => (in_pairs[i] + in_boxes[i] + outside[i]).min(q).min(1.0 - q),
            None => 0.0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::referee::{random_position, Referee};
    use crate::test_rng::TestRng;

    /// A board from rows of `?` (closed), `F` (known mine) and digits.
    fn board(rows: &[&str], total: u32) -> Board {
        crate::board::board_from_picture(rows, Some(total))
    }

    /// The free guess of `board`, with fresh buffers.
    fn free(board: &Board) -> Option<u32> {
        let budget = Budget::default_limits();
        let mut p = Probabilities::new();
        p.compute(board, None, &budget).unwrap();
        free_guess(board, &p, &mut Probabilities::new(), None, &budget)
    }

    #[test]
    fn a_pair_that_shares_one_mine_and_nothing_else_is_a_free_guess() {
        let b = board(&["?1", "?1"], 1);
        assert_eq!(free(&b), Some(0));
    }

    #[test]
    fn a_pair_that_a_revealed_number_tells_apart_is_not_a_free_guess() {
        // (2,0) sees the lower cell of the pair only: the pair is no 50/50.
        let b = board(&["?1", "?1", "11"], 1);
        assert_eq!(free(&b), None);
    }

    #[test]
    fn a_cell_that_is_safe_or_half_of_a_fifty_fifty_is_a_free_guess() {
        // The 1s share one mine among four cells; with a mine on the left
        // pair it is a 50/50 for ever, else the left pair is safe.
        let b = board(&["?1?", "?1?"], 1);
        assert_eq!(free(&b), Some(0));
        assert!(Referee::new(&b).opening_is_perfect(0));
    }

    /// On random small positions, opening the free guess first wins as
    /// many layouts as perfect play (the exhaustive referee of
    /// `play::referee`, written independently of the player).
    #[test]
    fn a_free_guess_loses_nothing_against_perfect_play() {
        let mut rng = TestRng::new(7);
        let mut found = 0;
        for _ in 0..3000 {
            let b = random_position(&mut rng);
            let Some(c) = free(&b) else {
                continue;
            };
            found += 1;
            assert!(
                Referee::new(&b).opening_is_perfect(c),
                "opening {c} first on {b:?} loses against perfect play"
            );
        }
        assert!(found >= 50, "only {found} positions had a free guess");
    }

    #[test]
    fn the_influence_of_a_lone_fifty_fifty_is_the_chance_it_is_one() {
        // One mine among the four closed cells: each column is a 50/50
        // with chance 1/2, each way with chance 1/4.
        let b = board(&["?1?", "?1?"], 1);
        let mut p = Probabilities::new();
        let budget = Budget::default_limits();
        p.compute(&b, None, &budget).unwrap();
        let influence = influence(&b, &p, &mut Probabilities::new(), &budget, 0.9, 1.0);
        for c in [0, 2, 3, 5] {
            assert!((influence[c] - 0.25).abs() < 1e-12, "{influence:?}");
        }
        assert_eq!((influence[1], influence[4]), (0.0, 0.0));
    }
}
