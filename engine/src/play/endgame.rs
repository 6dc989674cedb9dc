//! Exact play when few layouts remain: the guess that wins most often.
//!
//! # The maths
//!
//! Late in a game the position often has only a few dozen or hundred mine
//! layouts left. Then the game from here is small enough to solve: a
//! *state* is the set `S` of layouts still consistent with what was seen;
//! opening a closed cell `c` loses the layouts with a mine on `c` and splits
//! the others by the number `c` shows. The most layouts of `S` that any
//! strategy wins is
//!
//! ```text
//! wins(S) = 1                                     if |S| = 1
//! wins(S) = max_c  Σ_v wins({L ∈ S : c safe in L, shows v})   otherwise
//! ```
//!
//! and the best guess is the cell that attains the maximum at the root; it
//! wins with probability `wins(S) / |S|`. This is the exhaustive endgame of
//! the PSEQ paper's player (which searches below 256 states).
//!
//! # How
//!
//! - The layouts are enumerated once ([`Endgame::enumerate`]): a
//!   backtracking search over the closed cells, frontier first, pruned by
//!   every number (no more mines than it shows, enough cells left to reach
//!   it) and by the total. For each layout and closed cell it records what
//!   opening the cell shows (or that it is a mine), so the search itself
//!   never looks at the board again.
//! - States are sorted lists of layout indices, memoized.
//! - A cell safe in every layout of `S` that still tells layouts apart is
//!   opened without branching: a free look never lowers the chance to win
//!   (any strategy can ignore what it showed), so `wins(S)` is the sum over
//!   what it shows.
//! - Otherwise cells are tried from the safest down; a cell safe in `k`
//!   layouts wins at most `k`, so the loop stops once `k` cannot beat the
//!   best, and a split stops once its remaining layouts cannot.
//! - A 0 opens its neighbours in the real game; here they are cells safe in
//!   every layout of the branch, which the free-look rule opens next, so
//!   the value is the same.
//! - Both the enumeration and the search have caps ([`ENDGAME_LAYOUTS`],
//!   [`ENDGAME_STATES`]); past them the search gives up and the player falls
//!   back to its heuristic guess. Nothing is returned that was not solved
//!   to the end.

use hashbrown::HashMap;

use crate::board::{Board, Cell};

/// Positions with at most this many layouts are played exactly (the
/// default of `sapper play --endgame-layouts`).
pub const ENDGAME_LAYOUTS: usize = 1000;

/// The most layouts an exact endgame may be asked to play
/// ([`SapperPlayer::with_endgame`](super::SapperPlayer::with_endgame)
/// clamps to it, and so does the enumeration): the search names layouts
/// by 16-bit indices, and its table holds a byte per layout and closed
/// cell.
pub const MAX_ENDGAME_LAYOUTS: usize = u16::MAX as usize;

/// The most bytes an endgame's table (layouts × closed cells) may take;
/// a larger endgame is not searched and the player guesses as usual.
pub const ENDGAME_BYTES: usize = 64 << 20;

/// The most states one exact search may evaluate before it gives up.
pub const ENDGAME_STATES: usize = 20_000;

/// What opening a cell shows in a layout where it is a mine.
const MINE: u8 = u8::MAX;

/// The best guess of an exact endgame search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactGuess {
    /// The cell to open.
    pub cell: u32,
    /// Its mine probability (the share of layouts with a mine on it).
    pub p_mine: f64,
    /// The chance to win the game from here by playing on exactly.
    pub p_win: f64,
}

/// One exact endgame: the layouts of a position and what each closed cell
/// shows in each of them.
pub struct Endgame {
    /// The closed (unknown) cells, in cell order.
    closed: Vec<u32>,
    /// Cell-major: `shows[k * layouts + l]` is what opening `closed[k]`
    /// shows in layout `l`, or [`MINE`] (the search reads one cell across
    /// a set of layouts, in layout order).
    shows: Vec<u8>,
    layouts: usize,
    memo: HashMap<Vec<u16>, u32>,
    states: usize,
    state_limit: usize,
}

impl Endgame {
    /// The layouts of `board` (its `Unknown` cells are the variables; its
    /// `Mine` cells are mines; the total must be known), or `None` if
    /// there are more than `limit` of them or none, or no total.
    pub fn enumerate(board: &Board, limit: usize) -> Option<Endgame> {
        let remaining = u32::try_from(board.remaining_mines()?).ok()?;
        Endgame::enumerate_with(board, limit, Some(remaining))
    }

    /// The layouts of `board` that fit its numbers, whatever their number
    /// of mines (the total is not used), or `None` if there are more than
    /// `limit` of them or none. For a region that nothing outside it can
    /// tell about ([`super::isolated`]): see [`Endgame::fixed_mines`].
    pub fn enumerate_region(board: &Board, limit: usize) -> Option<Endgame> {
        Endgame::enumerate_with(board, limit, None)
    }

    /// Whether every layout has the same number of mines.
    pub fn fixed_mines(&self) -> bool {
        let n = self.closed.len();
        let mines = |l: usize| (0..n).filter(|&k| self.show(l as u16, k) == MINE).count();
        let first = mines(0);
        (1..self.layouts).all(|l| mines(l) == first)
    }

    /// [`Endgame::enumerate`] with `remaining` mines to place, or any
    /// number of them (`None`).
    fn enumerate_with(board: &Board, limit: usize, remaining: Option<u32>) -> Option<Endgame> {
        let limit = limit.min(MAX_ENDGAME_LAYOUTS);
        let grid = board.grid();
        let unknown = |c: u32| board.cell(c) == Cell::Unknown;
        // Frontier first, number by number, so that numbers close early.
        let mut order: Vec<u32> = Vec::new();
        let mut placed = vec![false; grid.len()];
        for number in board.frontier_numbers() {
            for n in board.unknown_neighbours(number) {
                if !placed[n as usize] {
                    placed[n as usize] = true;
                    order.push(n);
                }
            }
        }
        order.extend((0..grid.len() as u32).filter(|&c| unknown(c) && !placed[c as usize]));
        if remaining.is_some_and(|r| r as usize > order.len()) {
            return None;
        }
        // Each number: mines still needed, and its position's cells in
        // `order`.
        let numbers = board.frontier_numbers();
        let mut position = vec![usize::MAX; grid.len()];
        for (i, &c) in order.iter().enumerate() {
            position[c as usize] = i;
        }
        let mut need: Vec<i32> = Vec::with_capacity(numbers.len());
        let mut left: Vec<u32> = Vec::with_capacity(numbers.len());
        let mut touching: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
        for (k, &number) in numbers.iter().enumerate() {
            let (effective, closed) = board.effective(number)?;
            need.push(effective);
            left.push(closed);
            for n in board.unknown_neighbours(number) {
                touching[position[n as usize]].push(k);
            }
        }
        let mut search = Enumeration {
            touching: &touching,
            need,
            left,
            remaining: remaining.unwrap_or(0),
            counted: remaining.is_some(),
            mines: vec![false; order.len()],
            found: Vec::new(),
            limit,
            steps: 0,
            step_limit: limit.saturating_mul(order.len().max(1)).saturating_mul(64),
        };
        if !search.run(0) || search.found.is_empty() {
            return None;
        }
        // Closed cells in cell order, and what each shows per layout.
        let closed: Vec<u32> = (0..grid.len() as u32).filter(|&c| unknown(c)).collect();
        let base: Vec<u8> = closed
            .iter()
            .map(|&c| {
                grid.neighbours(c)
                    .iter()
                    .filter(|&&n| board.cell(n) == Cell::Mine)
                    .count() as u8
            })
            .collect();
        let layouts = search.found.len();
        let mut shows = vec![0; layouts * closed.len()];
        for (l, layout) in search.found.iter().enumerate() {
            let mine = |c: u32| layout[position[c as usize]];
            for (k, &c) in closed.iter().enumerate() {
                shows[k * layouts + l] = if mine(c) {
                    MINE
                } else {
                    base[k]
                        + grid
                            .neighbours(c)
                            .iter()
                            .filter(|&&n| unknown(n) && mine(n))
                            .count() as u8
                };
            }
        }
        Some(Endgame {
            closed,
            shows,
            layouts,
            memo: HashMap::new(),
            states: 0,
            state_limit: ENDGAME_STATES,
        })
    }

    /// How many layouts the position has.
    pub fn layouts(&self) -> usize {
        self.layouts
    }

    /// The most states [`Endgame::best_guess`] may evaluate.
    pub fn with_state_limit(mut self, states: usize) -> Endgame {
        self.state_limit = states;
        self
    }

    /// The guess that wins the most layouts, or `None` if the search
    /// needed more states than allowed.
    pub fn best_guess(&mut self) -> Option<ExactGuess> {
        let all: Vec<u16> = (0..self.layouts as u16).collect();
        let (wins, best) = self.solve(&all, true)?;
        let k = best?;
        let mines = self.column(k).iter().filter(|&&v| v == MINE).count();
        Some(ExactGuess {
            cell: self.closed[k],
            p_mine: mines as f64 / self.layouts as f64,
            p_win: wins as f64 / self.layouts as f64,
        })
    }

    #[inline]
    fn show(&self, layout: u16, k: usize) -> u8 {
        self.column(k)[layout as usize]
    }

    /// What `closed[k]` shows in each layout, in layout order.
    #[inline]
    fn column(&self, k: usize) -> &[u8] {
        &self.shows[k * self.layouts..(k + 1) * self.layouts]
    }

    /// `wins(set)`, and at the root the cell that attains it.
    fn solve(&mut self, set: &[u16], root: bool) -> Option<(u32, Option<usize>)> {
        if set.len() == 1 && !root {
            return Some((1, None));
        }
        if !root {
            if let Some(&w) = self.memo.get(set) {
                return Some((w, None));
            }
        }
        self.states += 1;
        if self.states > self.state_limit {
            return None;
        }
        // Per cell: in how many layouts it is safe, and whether what it
        // shows tells layouts apart.
        let n = self.closed.len();
        let mut candidates: Vec<(u32, usize)> = Vec::with_capacity(n);
        let mut free_look = None;
        for k in 0..n {
            let column = self.column(k);
            let first = column[set[0] as usize];
            let mut safe = 0u32;
            let mut informative = false;
            for &l in set {
                let v = column[l as usize];
                safe += (v != MINE) as u32;
                informative |= v != first;
            }
            if safe == set.len() as u32 && informative {
                free_look = Some(k);
                break;
            }
            if safe > 0 && (informative || safe < set.len() as u32) {
                candidates.push((safe, k));
            }
        }
        if let Some(k) = free_look {
            let wins = self.split(set, k, 0)?;
            if !root {
                self.memo.insert(set.to_vec(), wins);
            }
            return Some((wins, Some(k)));
        }
        if set.len() == 1 {
            // Root with one layout left: every closed cell is known; any
            // safe cell wins.
            let k = (0..n).find(|&k| self.show(set[0], k) != MINE)?;
            return Some((1, Some(k)));
        }
        candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut best: (u32, Option<usize>) = (0, None);
        for (safe, k) in candidates {
            if safe <= best.0 {
                break;
            }
            let wins = self.split(set, k, best.0)?;
            if wins > best.0 {
                best = (wins, Some(k));
                if wins == set.len() as u32 {
                    break;
                }
            }
        }
        if !root {
            self.memo.insert(set.to_vec(), best.0);
        }
        Some(best)
    }

    /// `Σ_v wins(layouts of set where k shows v)`, or a number no larger
    /// than `floor` once the split can no longer beat it.
    fn split(&mut self, set: &[u16], k: usize, floor: u32) -> Option<u32> {
        // The safe layouts of `set` by what `k` shows (a counting sort
        // into one buffer, each part in layout order).
        let column = self.column(k);
        let mut start = [0u32; 10];
        for &l in set {
            let v = column[l as usize];
            if v != MINE {
                start[v as usize + 1] += 1;
            }
        }
        for v in 0..9 {
            start[v + 1] += start[v];
        }
        let mut parts = vec![0u16; start[9] as usize];
        let mut at = start;
        for &l in set {
            let v = column[l as usize];
            if v != MINE {
                parts[at[v as usize] as usize] = l;
                at[v as usize] += 1;
            }
        }
        let mut unsolved = start[9];
        let mut wins = 0;
        for v in 0..9 {
            let part = &parts[start[v] as usize..start[v + 1] as usize];
            if part.is_empty() {
                continue;
            }
            if wins + unsolved <= floor {
                return Some(wins);
            }
            wins += self.solve(part, false)?.0;
            unsolved -= part.len() as u32;
        }
        Some(wins)
    }
}

/// The backtracking enumeration of layouts along `order`.
struct Enumeration<'a> {
    /// For each position in the order: the numbers its cell touches.
    touching: &'a [Vec<usize>],
    /// Per number: mines still needed, and closed cells not yet assigned.
    need: Vec<i32>,
    left: Vec<u32>,
    /// Mines not yet placed (when `counted`).
    remaining: u32,
    /// Whether the layouts must place exactly `remaining` mines; if not,
    /// any number fits.
    counted: bool,
    mines: Vec<bool>,
    found: Vec<Vec<bool>>,
    limit: usize,
    steps: usize,
    step_limit: usize,
}

impl<'a> Enumeration<'a> {
    /// Extends the assignment of the first `depth` cells; false once more
    /// than `limit` layouts are found or the search runs too long.
    fn run(&mut self, depth: usize) -> bool {
        self.steps += 1;
        if self.steps > self.step_limit {
            return false;
        }
        let cells_left = (self.mines.len() - depth) as u32;
        if self.counted && self.remaining > cells_left {
            return true;
        }
        if depth == self.mines.len() {
            if !self.counted || self.remaining == 0 {
                if self.found.len() == self.limit {
                    return false;
                }
                self.found.push(self.mines.clone());
            }
            return true;
        }
        for mine in [false, true] {
            if mine && self.counted && self.remaining == 0 {
                continue;
            }
            let touching: &'a [usize] = &self.touching[depth];
            // Each number this cell touches: not over its count, and its
            // other closed cells (left[k] - 1 of them) can still reach it.
            let ok = touching.iter().all(|&k| {
                let need = self.need[k] - mine as i32;
                need >= 0 && (need as u32) < self.left[k]
            });
            if !ok {
                continue;
            }
            for &k in touching {
                self.need[k] -= mine as i32;
                self.left[k] -= 1;
            }
            self.mines[depth] = mine;
            let placed = (mine && self.counted) as u32;
            self.remaining -= placed;
            let go_on = self.run(depth + 1);
            self.remaining += placed;
            for &k in touching {
                self.need[k] += mine as i32;
                self.left[k] += 1;
            }
            if !go_on {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::play::optimal_wins;

    /// The exact search from a blank board (every cell closed, no
    /// first-click protection) against `optimal_wins`, the independent
    /// search over open cells and flood fills.
    fn exact_from_blank(rows: usize, cols: usize, mines: u32) -> (u64, u64) {
        let board = Board::all_unknown(Grid::new(rows, cols), Some(mines));
        let mut endgame = Endgame::enumerate(&board, 1 << 16)
            .unwrap()
            .with_state_limit(usize::MAX);
        let guess = endgame.best_guess().unwrap();
        let layouts = endgame.layouts() as u64;
        ((guess.p_win * layouts as f64).round() as u64, layouts)
    }

    #[test]
    fn the_exact_endgame_wins_961_of_1820_on_4x4_with_4_mines_like_optimal_play() {
        assert_eq!(exact_from_blank(4, 4, 4), (961, 1820));
    }

    #[test]
    fn the_exact_endgame_matches_optimal_play_on_every_small_board() {
        for (rows, cols) in [(1, 3), (2, 2), (2, 3), (3, 3), (2, 4)] {
            for mines in 1..(rows * cols) as u32 {
                assert_eq!(
                    exact_from_blank(rows, cols, mines),
                    optimal_wins(rows, cols, mines as usize),
                    "{rows}x{cols} with {mines} mines"
                );
            }
        }
    }

    /// Layouts are named by 16-bit indices: more than 65,535 of them are
    /// never enumerated, whatever limit is asked (C(20, 8) = 125,970 here).
    #[test]
    fn an_endgame_never_holds_more_layouts_than_its_indices_name() {
        let board = Board::all_unknown(Grid::new(4, 5), Some(8));
        assert!(Endgame::enumerate(&board, usize::MAX).is_none());
        let board = Board::all_unknown(Grid::new(4, 5), None);
        assert!(Endgame::enumerate_region(&board, 1 << 20).is_none());
        let board = Board::all_unknown(Grid::new(4, 4), Some(8));
        let layouts = Endgame::enumerate(&board, usize::MAX).map(|e| e.layouts());
        assert_eq!(layouts, Some(12_870));
    }

    /// The enumeration against brute force over every subset of the closed
    /// cells: the same layouts (what each cell shows in each), and `None`
    /// past the limit.
    #[test]
    fn the_enumeration_finds_exactly_the_layouts_that_fit_the_numbers() {
        let grid = Grid::new(3, 4);
        let mut cells = vec![Cell::Unknown; 12];
        cells[0] = Cell::Revealed(1);
        cells[5] = Cell::Revealed(2);
        cells[11] = Cell::Mine;
        let board = Board::new(grid, cells.clone(), Some(4));
        let closed: Vec<u32> = (0..12)
            .filter(|&c| cells[c as usize] == Cell::Unknown)
            .collect();
        let mut expected: Vec<Vec<u8>> = Vec::new();
        for subset in 0u32..1 << closed.len() {
            let mine = |c: u32| {
                c == 11
                    || closed
                        .iter()
                        .position(|&x| x == c)
                        .is_some_and(|i| subset >> i & 1 == 1)
            };
            let count = |c: u32| grid.neighbours(c).iter().filter(|&&n| mine(n)).count() as u8;
            let fits = subset.count_ones() == 3 && count(0) == 1 && count(5) == 2;
            if fits {
                expected.push(
                    closed
                        .iter()
                        .map(|&c| if mine(c) { MINE } else { count(c) })
                        .collect(),
                );
            }
        }
        let endgame = Endgame::enumerate(&board, 10_000).unwrap();
        let mut found: Vec<Vec<u8>> = (0..endgame.layouts())
            .map(|l| {
                (0..closed.len())
                    .map(|k| endgame.show(l as u16, k))
                    .collect()
            })
            .collect();
        found.sort();
        expected.sort();
        assert!(expected.len() > 10);
        assert_eq!(found, expected);
        assert!(Endgame::enumerate(&board, expected.len() - 1).is_none());
    }
}
