//! The game itself: levels, the first-click rules, random layouts drawn
//! from a seed, and a [`Game`] that keeps its layout hidden.
//!
//! # Layouts
//!
//! A game is a [`Level`] (rows, columns, mines), a first click and a rule
//! protecting it, as in the literature:
//!
//! - [`FirstClick::Safe`] ("classic"): the first clicked cell is never a
//!   mine. Games that put a mine there move it to a uniformly chosen free
//!   cell; the result is exactly a uniform draw of `mines` cells among the
//!   others, which is what [`random_layout`] does.
//! - [`FirstClick::Opening`] ("modern"): the first cell and its neighbours
//!   are mine-free (so the first click opens a region), the mines uniform
//!   among the remaining cells.
//!
//! Every layout is drawn from [`game_rng`]`(seed, index)`: one stream per
//! game, derived from the run's seed and the game's index, so a run gives
//! the same games whatever the number of threads and in whatever order they
//! are played. The generator is Xoshiro256++ (the `rand_xoshiro` crate):
//! fast, small state, and a fixed algorithm, so a seed means the same
//! boards on every machine.
//!
//! # Hiding the layout
//!
//! [`Game`] owns the layout and never hands it out: a player gets
//! [`Game::position`] (the numbers revealed so far, every other cell
//! closed, and the total) and may only [`Game::open`] a cell. Code that
//! plays through a `Game` cannot look at the mines; the layout leaves the
//! game only through [`Game::into_field`], which consumes it (for writing
//! generated boards, after play).

use crate::board::{Board, Cell, Field};
use crate::grid::Grid;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// A board size and mine count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Number of rows (1 to 1000 for a playable level, see [`Level::check`]).
    pub rows: usize,
    /// Number of columns (1 to 1000 for a playable level).
    pub cols: usize,
    /// Total number of mines on the board.
    pub mines: u32,
}

impl Level {
    /// Beginner: 9×9 cells, 10 mines.
    pub const BEGINNER: Level = Level {
        rows: 9,
        cols: 9,
        mines: 10,
    };
    /// Intermediate: 16×16 cells, 40 mines.
    pub const INTERMEDIATE: Level = Level {
        rows: 16,
        cols: 16,
        mines: 40,
    };
    /// Expert: 16 rows × 30 columns, 99 mines.
    pub const EXPERT: Level = Level {
        rows: 16,
        cols: 30,
        mines: 99,
    };

    /// `beginner`, `intermediate` or `expert`.
    pub fn named(name: &str) -> Option<Level> {
        match name {
            "beginner" => Some(Level::BEGINNER),
            "intermediate" => Some(Level::INTERMEDIATE),
            "expert" => Some(Level::EXPERT),
            _ => None,
        }
    }

    /// The grid of `rows` × `cols` cells.
    pub fn grid(self) -> Grid {
        Grid::new(self.rows, self.cols)
    }

    /// The level, if `mines` fit beside the cells `first_click` protects
    /// around `start`, and `start` is on the board; else why not.
    pub fn check(
        self,
        first_click: FirstClick,
        start: (usize, usize),
    ) -> Result<Level, LevelError> {
        use crate::grid::MAX_SIDE;
        if self.rows == 0 || self.cols == 0 || self.rows > MAX_SIDE || self.cols > MAX_SIDE {
            return Err(LevelError(format!(
                "a board of {}×{} cells: rows and columns must be 1 to {MAX_SIDE}",
                self.rows, self.cols
            )));
        }
        if start.0 >= self.rows || start.1 >= self.cols {
            return Err(LevelError(format!(
                "the start ({},{}) is off the {}×{} board",
                start.0, start.1, self.rows, self.cols
            )));
        }
        let free = self.rows * self.cols - first_click.protected(self.grid(), start).len();
        if self.mines as usize > free {
            return Err(LevelError(format!(
                "{} mines do not fit: a {}×{} board with {} first click has {free} cells \
                 that may hold a mine",
                self.mines,
                self.rows,
                self.cols,
                first_click.name()
            )));
        }
        Ok(self)
    }
}

/// A board size, mine count or start that cannot be played, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LevelError(pub String);

/// What the first click is protected from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstClick {
    /// The first cell is never a mine ("classic").
    Safe,
    /// The first cell and its neighbours are never mines ("modern").
    Opening,
}

impl FirstClick {
    /// `safe` or `opening`.
    pub fn name(self) -> &'static str {
        match self {
            FirstClick::Safe => "safe",
            FirstClick::Opening => "opening",
        }
    }

    /// Where the first click goes unless told otherwise: the top-left
    /// corner for a safe first click, (3,3) for an opening (clamped into
    /// small boards) — the conditions of the published win rates.
    pub fn default_start(self, level: Level) -> (usize, usize) {
        match self {
            FirstClick::Safe => (0, 0),
            FirstClick::Opening => (
                3.min(level.rows.saturating_sub(1)),
                3.min(level.cols.saturating_sub(1)),
            ),
        }
    }

    /// The cells kept free of mines, ascending.
    pub fn protected(self, grid: Grid, start: (usize, usize)) -> Vec<u32> {
        let cell = grid.index(start.0, start.1);
        let mut cells = vec![cell];
        if self == FirstClick::Opening {
            cells.extend(grid.neighbours(cell).iter().copied());
        }
        cells.sort_unstable();
        cells
    }
}

/// The random stream of one game (or one generated board).
pub type GameRng = Xoshiro256PlusPlus;

/// The stream of game `index` of a run seeded with `seed`: the pair is
/// mixed (SplitMix64 steps) into the generator's seed, so neighbouring
/// indexes give unrelated streams.
pub fn game_rng(seed: u64, index: u64) -> GameRng {
    let mixed = splitmix64(splitmix64(seed) ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    GameRng::seed_from_u64(mixed)
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A layout (`true` = mine, row-major) uniform among those with
/// `level.mines` mines that keep the cells `first_click` protects around
/// `start` free. `level` must have passed [`Level::check`].
pub fn random_layout(
    level: Level,
    first_click: FirstClick,
    start: (usize, usize),
    rng: &mut GameRng,
) -> Vec<bool> {
    let grid = level.grid();
    let protected = first_click.protected(grid, start);
    let n = grid.len();
    // Candidates: every cell but the protected ones, in order; a uniform
    // sample of `mines` of them (Floyd's algorithm in `rand`).
    let free: Vec<u32> = (0..n as u32)
        .filter(|c| protected.binary_search(c).is_err())
        .collect();
    let mut mine = vec![false; n];
    for k in rand::seq::index::sample(rng, free.len(), level.mines as usize) {
        mine[free[k] as usize] = true;
    }
    mine
}

/// What opening a cell did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opened {
    /// The cell was a mine: the game is lost.
    Mine,
    /// The cell was safe; `cells` were opened (more than one when a 0
    /// opened its neighbours), 0 if it was open already.
    Safe {
        /// Cells opened by this click.
        cells: usize,
    },
    /// The game was lost already: nothing was opened.
    GameOver,
}

/// A game in progress. The layout is private; the player sees
/// [`Game::position`].
#[derive(Clone, Debug)]
pub struct Game {
    grid: Grid,
    mine: Vec<bool>,
    value: Vec<u8>,
    open: Vec<bool>,
    total: u32,
    safe_left: usize,
    lost: bool,
}

impl Game {
    /// A game on `grid` with mines where `layout` says.
    pub fn new(grid: Grid, layout: Vec<bool>) -> Game {
        assert_eq!(layout.len(), grid.len(), "one entry per cell");
        let field = Field::from_mines(grid, layout, vec![false; grid.len()]);
        let value = field.value.clone();
        let total = field.total_mines;
        Game {
            grid,
            safe_left: grid.len() - total as usize,
            mine: field.mine,
            value,
            open: vec![false; grid.len()],
            total,
            lost: false,
        }
    }

    /// A new game of `level` whose layout is drawn from `seed` under the
    /// `first_click` rule, with the first click at `start` made: game 0 of
    /// [`play`](crate::play::play_game) with the same seed.
    ///
    /// ```
    /// use sapper_engine::game::{FirstClick, Game, Level, Opened};
    ///
    /// let mut game = Game::random(Level::BEGINNER, FirstClick::Opening, (3, 3), 7).unwrap();
    /// assert!(game.is_open(game.grid().index(3, 3)));
    /// assert!(!game.is_lost());
    /// // Clicks by row and column; an off-board click is an error, not a panic.
    /// assert!(matches!(game.open_at(0, 0), Ok(Opened::Safe { .. } | Opened::Mine)));
    /// assert!(game.open_at(9, 0).is_err());
    /// ```
    pub fn random(
        level: Level,
        first_click: FirstClick,
        start: (usize, usize),
        seed: u64,
    ) -> Result<Game, LevelError> {
        let level = level.check(first_click, start)?;
        let layout = random_layout(level, first_click, start, &mut game_rng(seed, 0));
        let mut game = Game::new(level.grid(), layout);
        game.open(level.grid().index(start.0, start.1));
        Ok(game)
    }

    /// The board's rectangle.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// [`Game::open`] by row and column (from 0); a cell off the board is
    /// an error naming it.
    pub fn open_at(&mut self, row: usize, col: usize) -> Result<Opened, crate::InputError> {
        if row >= self.grid.h || col >= self.grid.w {
            return Err(crate::InputError::at(
                row,
                col,
                format_args!("off the {}×{} board", self.grid.h, self.grid.w),
            ));
        }
        Ok(self.open(self.grid.index(row, col)))
    }

    /// The number of mines on the board.
    pub fn mines(&self) -> u32 {
        self.total
    }

    /// Opens `cell`: a mine loses the game; a safe cell shows its number,
    /// and a 0 opens its neighbours (repeatedly), as in the game. Once the
    /// game is lost nothing more opens ([`Opened::GameOver`]).
    pub fn open(&mut self, cell: u32) -> Opened {
        if self.lost {
            return Opened::GameOver;
        }
        if self.mine[cell as usize] {
            self.lost = true;
            return Opened::Mine;
        }
        let mut opened = 0;
        let mut stack = vec![cell];
        while let Some(c) = stack.pop() {
            if self.open[c as usize] {
                continue;
            }
            self.open[c as usize] = true;
            opened += 1;
            if self.value[c as usize] == 0 {
                stack.extend(
                    self.grid
                        .neighbours(c)
                        .iter()
                        .filter(|&&n| !self.open[n as usize]),
                );
            }
        }
        self.safe_left -= opened;
        Opened::Safe { cells: opened }
    }

    /// What a player sees: every open cell's number, every other cell
    /// closed, and the total number of mines.
    pub fn position(&self) -> Board {
        let cells = (0..self.grid.len())
            .map(|i| {
                if self.open[i] {
                    Cell::Revealed(self.value[i])
                } else {
                    Cell::Unknown
                }
            })
            .collect();
        Board::new(self.grid, cells, Some(self.total))
    }

    /// Whether `cell` has been opened.
    pub fn is_open(&self, cell: u32) -> bool {
        self.open[cell as usize]
    }

    /// Whether a mine was opened.
    pub fn is_lost(&self) -> bool {
        self.lost
    }

    /// Every safe cell open.
    pub fn is_won(&self) -> bool {
        !self.lost && self.safe_left == 0
    }

    /// The layout, once the game is no longer played (consumes it).
    pub fn into_field(self) -> Field {
        let open = self.open;
        Field::from_mines(self.grid, self.mine, open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_named_and_checked() {
        assert_eq!(Level::named("expert"), Some(Level::EXPERT));
        assert_eq!(Level::named("hard"), None);
        let start = FirstClick::Opening.default_start(Level::EXPERT);
        assert_eq!(start, (3, 3));
        assert!(Level::EXPERT.check(FirstClick::Opening, start).is_ok());
        let full = Level {
            rows: 3,
            cols: 3,
            mines: 9,
        };
        assert!(full.check(FirstClick::Safe, (0, 0)).is_err());
        let e = Level { mines: 8, ..full }
            .check(FirstClick::Opening, (1, 1))
            .unwrap_err();
        assert!(e.0.contains("0 cells that may hold a mine"), "{e}");
        assert!(Level { mines: 8, ..full }
            .check(FirstClick::Safe, (1, 1))
            .is_ok());
        assert!(full.check(FirstClick::Safe, (3, 0)).is_err());
    }

    #[test]
    fn the_stream_depends_on_seed_and_index_only() {
        use rand::RngExt;
        let draw = |seed, index| -> Vec<u64> {
            let mut r = game_rng(seed, index);
            (0..4).map(|_| r.random::<u64>()).collect()
        };
        assert_eq!(draw(1, 2), draw(1, 2));
        assert_ne!(draw(1, 2), draw(1, 3));
        assert_ne!(draw(1, 2), draw(2, 2));
    }

    #[test]
    fn layouts_keep_the_protected_cells_free_and_have_the_mines() {
        for first_click in [FirstClick::Safe, FirstClick::Opening] {
            for index in 0..200 {
                let start = (index as usize % 16, index as usize % 30);
                let mut rng = game_rng(9, index);
                let layout = random_layout(Level::EXPERT, first_click, start, &mut rng);
                assert_eq!(layout.iter().filter(|&&m| m).count(), 99);
                for c in first_click.protected(Level::EXPERT.grid(), start) {
                    assert!(!layout[c as usize]);
                }
            }
        }
    }

    /// Every layout of 2 mines on a 3×3 board avoiding the corner start is
    /// drawn about equally often: chi-square over the C(8, 2) = 28 layouts,
    /// 28,000 draws, 27 degrees of freedom. The threshold 55.5 is the 0.999
    /// quantile: a fixed seed makes the test deterministic, and a sampler
    /// that favoured some layouts (say, the corner's neighbours) would be far
    /// beyond it (checked below on a biased draw).
    #[test]
    fn safe_start_layouts_are_uniform() {
        let level = Level {
            rows: 3,
            cols: 3,
            mines: 2,
        };
        let key = |layout: &[bool]| -> usize {
            layout
                .iter()
                .enumerate()
                .filter(|(_, &m)| m)
                .fold(0, |k, (i, _)| k | 1 << i)
        };
        let chi_square = |counts: &std::collections::HashMap<usize, u64>, draws: u64| {
            let expected = draws as f64 / 28.0;
            assert!(counts.len() <= 28);
            let missing = (28 - counts.len()) as f64 * expected;
            counts
                .values()
                .map(|&c| (c as f64 - expected).powi(2) / expected)
                .sum::<f64>()
                + missing
        };
        let mut counts = std::collections::HashMap::new();
        for index in 0..28_000 {
            let layout = random_layout(level, FirstClick::Safe, (0, 0), &mut game_rng(5, index));
            assert!(!layout[0]);
            *counts.entry(key(&layout)).or_insert(0u64) += 1;
        }
        assert_eq!(counts.len(), 28);
        let x2 = chi_square(&counts, 28_000);
        assert!(x2 < 55.5, "chi-square {x2}");
        // A biased sampler: a mine drawn on the start moves to the next
        // cell instead of a uniform one.
        let mut biased = std::collections::HashMap::new();
        for index in 0..28_000 {
            let mut rng = game_rng(5, index);
            let picks = rand::seq::index::sample(&mut rng, 9, 2).into_vec();
            let mut layout = vec![false; 9];
            for p in picks {
                let mut p = p;
                while p == 0 || layout[p] {
                    p = (p + 1) % 9;
                }
                layout[p] = true;
            }
            *biased.entry(key(&layout)).or_insert(0u64) += 1;
        }
        assert!(chi_square(&biased, 28_000) > 55.5);
    }

    #[test]
    fn opening_a_zero_floods_and_the_position_shows_only_open_cells() {
        // One mine in the bottom-right corner of 4×4.
        let grid = Grid::new(4, 4);
        let mut layout = vec![false; 16];
        layout[15] = true;
        let mut game = Game::new(grid, layout);
        assert_eq!(game.open(0), Opened::Safe { cells: 15 });
        assert!(game.is_won());
        let position = game.position();
        assert_eq!(position.cell(15), Cell::Unknown);
        assert_eq!(position.cell(10), Cell::Revealed(1));
        assert_eq!(position.total_mines(), Some(1));
        assert_eq!(game.open(0), Opened::Safe { cells: 0 });
        assert_eq!(game.open(15), Opened::Mine);
        assert!(game.is_lost() && !game.is_won());
    }
}
