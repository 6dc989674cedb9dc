//! Random boards made from a ground truth, for the rule-layer property tests
//! (`default_rulebase`, `rules_pairwise`, `frozen_index`).
//!
//! A board is built deterministically from a [`Recipe`] (proptest draws and
//! shrinks the recipe's fields):
//! - a mine layout with the given density;
//! - a game-like opening: flood from a random safe 0 (every revealed 0
//!   opens its neighbours), or from a random safe cell when there is no 0;
//! - extra safe cells revealed one by one (no flood), so 0s with closed
//!   neighbours occur too;
//! - some mines flagged, some closed safe cells marked known-safe (no
//!   number), as `analyse` leaves them.
//!
//! [`perturb`] and [`wild`] make boards that usually admit no layout.

use super::{mines_around, Rng};
use sapper_engine::{Board, Cell, Grid};

/// How to build one board from a ground truth.
#[derive(Clone, Copy, Debug)]
pub struct Recipe {
    pub h: usize,
    pub w: usize,
    pub seed: u64,
    /// Mine density, %.
    pub density: u32,
    /// Safe cells revealed one by one after the opening flood, %.
    pub extra_reveal: u32,
    /// Mines flagged, %.
    pub flag: u32,
    /// Closed safe cells marked known-safe (no number), %.
    pub mark_safe: u32,
}

/// A board and the mine layout it was made from.
#[derive(Clone, Debug)]
pub struct TruthBoard {
    pub grid: Grid,
    pub mines: Vec<bool>,
    pub board: Board,
}

/// Builds the board of `recipe` (see the module docs).
pub fn build(recipe: Recipe) -> TruthBoard {
    let grid = Grid::new(recipe.h, recipe.w);
    let n = grid.len();
    let mut rng = Rng::new(recipe.seed);
    let mines: Vec<bool> = (0..n).map(|_| rng.chance(recipe.density)).collect();
    let mut cells = vec![Cell::Unknown; n];

    // The opening click: a random safe 0 if there is one, as a player's
    // lucky first click would find, else any safe cell.
    let zeros: Vec<u32> = (0..n as u32)
        .filter(|&i| !mines[i as usize] && mines_around(grid, &mines, i) == 0)
        .collect();
    let safe: Vec<u32> = (0..n as u32).filter(|&i| !mines[i as usize]).collect();
    let start = if !zeros.is_empty() {
        Some(zeros[rng.below(zeros.len())])
    } else if !safe.is_empty() {
        Some(safe[rng.below(safe.len())])
    } else {
        None
    };
    if let Some(start) = start {
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            if cells[c as usize] != Cell::Unknown {
                continue;
            }
            let v = mines_around(grid, &mines, c);
            cells[c as usize] = Cell::Revealed(v);
            if v == 0 {
                stack.extend(grid.neighbours(c).iter().copied());
            }
        }
    }
    for i in 0..n {
        if cells[i] != Cell::Unknown {
            continue;
        }
        if mines[i] {
            if rng.chance(recipe.flag) {
                cells[i] = Cell::Mine;
            }
        } else if rng.chance(recipe.extra_reveal) {
            cells[i] = Cell::Revealed(mines_around(grid, &mines, i as u32));
        } else if rng.chance(recipe.mark_safe) {
            cells[i] = Cell::Safe;
        }
    }
    let total = mines.iter().filter(|&&m| m).count() as u32;
    TruthBoard {
        grid,
        board: Board::new(grid, cells, Some(total)),
        mines,
    }
}

/// A copy of `board` with `changes` random edits that usually break it:
/// a revealed number moved to another value, or a closed cell flagged
/// whatever it is.
pub fn perturb(board: &Board, seed: u64, changes: usize) -> Board {
    let mut rng = Rng::new(seed);
    let grid = board.grid();
    let mut cells = board.cells().to_vec();
    for _ in 0..changes {
        let i = rng.below(cells.len());
        match cells[i] {
            Cell::Revealed(v) => {
                let shift = 1 + rng.below(8) as u8;
                cells[i] = Cell::Revealed((v + shift) % 9);
            }
            Cell::Unknown | Cell::Safe => cells[i] = Cell::Mine,
            Cell::Mine => {}
        }
    }
    Board::new(grid, cells, board.total_mines())
}

/// Every cell drawn independently: closed 40 %, flag 10 %, known safe 5 %,
/// a revealed number 0..=8 otherwise. Mostly inconsistent.
pub fn wild(h: usize, w: usize, seed: u64) -> Board {
    let grid = Grid::new(h, w);
    let mut rng = Rng::new(seed);
    let cells = (0..grid.len())
        .map(|_| match rng.below(100) {
            0..=39 => Cell::Unknown,
            40..=49 => Cell::Mine,
            50..=54 => Cell::Safe,
            _ => Cell::Revealed(rng.below(9) as u8),
        })
        .collect();
    Board::new(grid, cells, None)
}

/// The board as text, for failure messages: `?` closed, `F` flag, `*` known
/// safe, digits revealed.
pub fn draw(board: &Board) -> String {
    let grid = board.grid();
    let mut s = String::new();
    for r in 0..grid.h {
        for c in 0..grid.w {
            s.push(match board.cell(grid.index(r, c)) {
                Cell::Unknown => '?',
                Cell::Mine => 'F',
                Cell::Safe => '*',
                Cell::Revealed(v) => (b'0' + v) as char,
            });
        }
        s.push('\n');
    }
    s
}
