//! Random boards made from a ground truth, for the rule-layer property tests
//! (`tests/default_rulebase.rs`, `tests/rules_pairwise.rs`).
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

#![allow(dead_code)]

use sapper_engine::{Board, Cell, Grid};

/// SplitMix64: small, seedable, good enough for test boards.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// True with probability `percent` %.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.next() % 100 < percent as u64
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

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

/// The number a safe cell shows: mines among its neighbours.
pub fn number_of(grid: Grid, mines: &[bool], i: u32) -> u8 {
    grid.neighbours(i)
        .iter()
        .filter(|&&n| mines[n as usize])
        .count() as u8
}

/// Builds the board of `recipe` (see the module docs).
pub fn build(recipe: Recipe) -> TruthBoard {
    let grid = Grid::new(recipe.h, recipe.w);
    let n = grid.len();
    let mut rng = Rng(recipe.seed);
    let mines: Vec<bool> = (0..n).map(|_| rng.chance(recipe.density)).collect();
    let mut cells = vec![Cell::Unknown; n];

    // The opening click: a random safe 0 if there is one, as a player's
    // lucky first click would find, else any safe cell.
    let zeros: Vec<u32> = (0..n as u32)
        .filter(|&i| !mines[i as usize] && number_of(grid, &mines, i) == 0)
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
            let v = number_of(grid, &mines, c);
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
            cells[i] = Cell::Revealed(number_of(grid, &mines, i as u32));
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
    let mut rng = Rng(seed);
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
    let mut rng = Rng(seed);
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
