//! What the solver knows: the state of every cell, and the vocabulary of
//! deductions (which cell, which value, found by what).
//!
//! [`Field`] is the ground truth of a thesis-layout field; [`Position`] is
//! what a player sees (no ground truth); [`Board`] is the knowledge state both
//! are solved on. The methods read a `Board`; only the solver writes it.

use crate::grid::{Grid, DIRECTIONS};
use std::fmt;

/// The state of one cell as the solver knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Closed, value not known: a variable `x ∈ {0,1}` of the system.
    Unknown,
    /// Known mine (flagged or proven).
    Mine,
    /// Known safe but not revealed (no number available; `analyse` of a
    /// position marks proven-safe cells this way).
    Safe,
    /// Revealed, showing its number (mines among its neighbours).
    Revealed(u8),
}

impl Cell {
    /// Whether the cell is closed with its value not known ([`Cell::Unknown`]).
    #[inline]
    pub fn is_unknown(self) -> bool {
        matches!(self, Cell::Unknown)
    }

    /// A closed cell once its value is known: [`Cell::Safe`] or
    /// [`Cell::Mine`].
    #[inline]
    pub fn known(value: Value) -> Cell {
        match value {
            Value::Safe => Cell::Safe,
            Value::Mine => Cell::Mine,
        }
    }
}

/// The value a deduction gives a closed cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// The cell has no mine (`x = 0`): it can be opened.
    Safe,
    /// The cell is a mine (`x = 1`): it can be flagged.
    Mine,
}

/// One of the four methods of the source research (docs/design.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// Single-cell: one number's equation alone forces its closed neighbours.
    SingleCell,
    /// Linked cells 1: the difference of two numbers' equations, without the
    /// total.
    LinkedCells1,
    /// Linked cells 2: several equations together with the total mine count.
    LinkedCells2,
    /// Hypotheses: a cell is forced iff the opposite value admits no layout
    /// (exact and complete).
    Hypotheses,
}

impl Method {
    /// All four, in the research's starting order (single-cell, linked cells
    /// 1, hypotheses, linked cells 2).
    pub const RESEARCH_ORDER: [Method; 4] = [
        Method::SingleCell,
        Method::LinkedCells1,
        Method::Hypotheses,
        Method::LinkedCells2,
    ];
    /// All four in declaration order, which is [`Method::index`] order (the
    /// order per-method counters are stored and printed in).
    pub const ALL: [Method; 4] = [
        Method::SingleCell,
        Method::LinkedCells1,
        Method::LinkedCells2,
        Method::Hypotheses,
    ];

    /// The name used in code, output and docs.
    pub fn name(self) -> &'static str {
        match self {
            Method::SingleCell => "single_cell",
            Method::LinkedCells1 => "linked_cells_1",
            Method::LinkedCells2 => "linked_cells_2",
            Method::Hypotheses => "hypotheses",
        }
    }

    /// Position in [`Method::ALL`] (`0..4`): the slot of this method in
    /// per-method arrays such as counters and statistics.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Where a deduction came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// A rule of the rulebase, with its order (number of focus numbers).
    Rule {
        /// The rule's order: how many focus numbers its conclusion needs.
        order: u8,
    },
    /// One of the four methods, run because no rule fired.
    Method(Method),
}

impl Source {
    /// The name used in code, output and docs: `"rules"` for any rule, else
    /// the method's [`Method::name`].
    pub fn name(self) -> &'static str {
        match self {
            Source::Rule { .. } => "rules",
            Source::Method(m) => m.name(),
        }
    }
}

/// A closed cell proven to have `value` in every mine layout consistent with
/// the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Forced {
    /// The cell's row-major index in the grid (`row * w + col`).
    pub cell: u32,
    /// The value the cell has in every layout.
    pub value: Value,
}

/// The board admits no mine layout. `cells` names the cells involved (the
/// numbers of the failing constraint group, or empty for the total alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    /// Row-major indices of the cells involved; empty when the total mine
    /// count alone fails.
    pub cells: Vec<u32>,
    /// Why no layout fits, in words (printed after `no mine layout fits: `).
    pub reason: String,
}

impl Contradiction {
    /// A contradiction over `cells` (row-major indices) for `reason`.
    pub fn new(cells: Vec<u32>, reason: impl Into<String>) -> Contradiction {
        Contradiction {
            cells,
            reason: reason.into(),
        }
    }

    /// Human-readable, with cells as `(row,col)` (zero-based).
    pub fn describe(&self, grid: Grid) -> String {
        crate::Error::contradiction(self, grid).to_string()
    }
}

/// Without the grid the cells are not named: [`Contradiction::describe`]
/// names them by row and column.
impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no mine layout fits: {}", self.reason)
    }
}

impl std::error::Error for Contradiction {}

/// The flags (`Mine`) and the closed cells (`Unknown`) among `cells`, counted
/// in one pass. At most `u32::MAX` cells (a board's limit).
pub(crate) fn flags_and_closed(cells: &[Cell]) -> (u32, u32) {
    cells.iter().fold((0, 0), |(f, u), &c| {
        (
            f + u32::from(c == Cell::Mine),
            u + u32::from(c.is_unknown()),
        )
    })
}

/// Ground truth of a field (thesis layout): where the mines are, every
/// cell's number, and which cells are open at the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's shape; every per-cell vector is indexed row-major by it.
    pub grid: Grid,
    /// Total mine count `tm`.
    pub total_mines: u32,
    /// Per cell, whether it holds a mine.
    pub mine: Vec<bool>,
    /// Number of neighbouring mines (meaningless on mines).
    pub value: Vec<u8>,
    /// Per cell, whether it is open at the start (`T` in `status.csv`).
    pub open_at_start: Vec<bool>,
}

impl Field {
    /// Builds a field from mine positions, computing every number.
    pub fn from_mines(grid: Grid, mine: Vec<bool>, open_at_start: Vec<bool>) -> Field {
        assert_eq!(mine.len(), grid.len());
        assert_eq!(open_at_start.len(), grid.len());
        let value = (0..grid.len() as u32)
            .map(|i| {
                grid.neighbours(i)
                    .iter()
                    .filter(|&&n| mine[n as usize])
                    .count() as u8
            })
            .collect();
        let total_mines = mine.iter().filter(|&&m| m).count() as u32;
        Field {
            grid,
            total_mines,
            mine,
            value,
            open_at_start,
        }
    }

    /// Number of cells without a mine: how many are open when the field is
    /// solved.
    pub fn safe_cells(&self) -> usize {
        self.grid.len() - self.total_mines as usize
    }
}

/// What a player sees: closed cells, flags, revealed numbers, optionally
/// the total mine count. No ground truth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The position's shape; `cells` is indexed row-major by it.
    pub grid: Grid,
    /// `Unknown` (closed), `Mine` (flag), `Revealed(n)`; `Safe` is allowed
    /// for cells known safe without a number.
    pub cells: Vec<Cell>,
    /// The total mine count `tm` (the `mines N` line), when given.
    pub total_mines: Option<u32>,
}

/// The knowledge state the methods read and the solver updates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    grid: Grid,
    cells: Vec<Cell>,
    total_mines: Option<u32>,
    known_mines: u32,
    unknown: u32,
    /// Per cell, what surrounds it, kept up to date by [`Board::set`] so a
    /// number's equation is read in O(1), packed in one word
    /// ([`Around`]): how many neighbours are `Unknown` (byte 0) and `Mine`
    /// (byte 1), and which are `Unknown` (byte 2: bit `d` for direction
    /// `d` of [`crate::grid::DIRECTIONS`] — the rule matcher reads a
    /// number's closed neighbourhood in one load instead of eight). One
    /// word per cell makes a neighbour's update a single addition: the
    /// fields never carry into each other (counts stay in `0..=8`, a mask
    /// bit is added only when clear and subtracted only when set).
    around: Vec<u32>,
}

/// Fields of [`Board::around`].
struct Around;

impl Around {
    const UNKNOWN: u32 = 1;
    const MINE: u32 = 1 << 8;
    /// The mask bit for direction `d`.
    #[inline]
    const fn closed(d: usize) -> u32 {
        1 << (16 + d)
    }
}

impl Board {
    /// The board of `cells` (row-major, one per cell of `grid`) with the
    /// total mine count, when known. Panics if `cells` does not match `grid`.
    pub fn new(grid: Grid, cells: Vec<Cell>, total_mines: Option<u32>) -> Board {
        assert_eq!(cells.len(), grid.len());
        let (known_mines, unknown) = flags_and_closed(&cells);
        let around = Board::count_around(grid, &cells);
        Board {
            grid,
            cells,
            total_mines,
            known_mines,
            unknown,
            around,
        }
    }

    /// Every cell's [`Around`] word, built direction by direction: for
    /// direction `d`, each cell adds its neighbour's word that way
    /// (`UNKNOWN` and the mask bit `d` if it is closed, `MINE` if it is a
    /// flag). The words are laid out with a border of open cells around
    /// the grid, so that each direction is one pass over the whole padded
    /// grid, shifted by a fixed offset: no bounds per row, no branch on a
    /// cell's kind (in a played position open and closed cells alternate
    /// without a pattern, so such a branch mispredicts often: a third of
    /// `Board::new`'s time on an expert position; docs/performance-log.md),
    /// and passes long enough for the vector unit.
    fn count_around(grid: Grid, cells: &[Cell]) -> Vec<u32> {
        let (h, w) = (grid.h, grid.w);
        if cells.is_empty() {
            return Vec::new();
        }
        // Padded rows of `w + 2` cells, with an open row above and below
        // and one open word before all (the up-left neighbour of the
        // first border cell): the cell (r, c) is at `1 + (r + 1) * pw + c + 1`.
        let pw = w + 2;
        let mut base = vec![0u32; (h + 2) * pw + 2];
        for (r, row) in cells.chunks_exact(w).enumerate() {
            let start = 1 + (r + 1) * pw + 1;
            for (b, c) in base[start..start + w].iter_mut().zip(row) {
                *b = match c {
                    Cell::Unknown => Around::UNKNOWN,
                    Cell::Mine => Around::MINE,
                    _ => 0,
                };
            }
        }
        // The words of the padded rows 1..=h, border columns included (and
        // dropped at the end): the word `j` is the padded cell `pw + j`.
        let mut padded = vec![0u32; h * pw];
        for (d, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
            let mask = Around::closed(d);
            // Its neighbour `(dr, dc)` away is at `1 + pw + j + dr * pw + dc`.
            let start = (1 + pw).wrapping_add_signed(dr * pw as isize + dc);
            let from = &base[start..start + h * pw];
            for (a, &b) in padded.iter_mut().zip(from) {
                // `b & 1` is 1 exactly for a closed neighbour, so its
                // negation is all ones then: an and, not a multiply, which
                // the baseline x86-64 vector unit does four lanes at a time.
                *a += b + ((b & Around::UNKNOWN).wrapping_neg() & mask);
            }
        }
        let mut around = Vec::with_capacity(cells.len());
        for row in padded.chunks_exact(pw) {
            around.extend_from_slice(&row[1..=w]);
        }
        around
    }

    /// Whether every revealed number fits its neighbours on its own: at
    /// least its flags, at most its flags and closed neighbours (which
    /// also keeps it within its neighbours). Read from the neighbourhood
    /// words, without a branch per cell.
    pub(crate) fn numbers_fit(&self) -> bool {
        let mut misfit = false;
        for (&c, &word) in self.cells.iter().zip(&self.around) {
            let (closed, flags) = (word & 0xFF, word >> 8 & 0xFF);
            let n = match c {
                Cell::Revealed(n) => u32::from(n),
                _ => flags, // fits whatever surrounds it
            };
            misfit |= n < flags || n > flags + closed;
        }
        !misfit
    }

    /// Every cell `Unknown`: [`Board::new`] without its per-neighbour
    /// counting (each cell's counters are just its neighbourhood).
    pub fn all_unknown(grid: Grid, total_mines: Option<u32>) -> Board {
        let n = grid.len();
        let mut around = Vec::with_capacity(n);
        for r in 0..grid.h {
            for c in 0..grid.w {
                // Every neighbour inside the grid is unknown.
                let inside = grid.inside_mask(r, c) as u32;
                around.push(inside.count_ones() * Around::UNKNOWN + (inside << 16));
            }
        }
        Board {
            grid,
            cells: vec![Cell::Unknown; n],
            total_mines,
            known_mines: 0,
            unknown: n as u32,
            around,
        }
    }

    /// The board a player's position is solved on.
    pub fn from_position(p: &Position) -> Board {
        Board::new(p.grid, p.cells.clone(), p.total_mines)
    }

    /// The board as a position: its cells and total, as a player would see
    /// them.
    pub fn to_position(&self) -> Position {
        Position {
            grid: self.grid,
            cells: self.cells.clone(),
            total_mines: self.total_mines,
        }
    }

    /// The board's shape.
    #[inline]
    pub fn grid(&self) -> Grid {
        self.grid
    }
    /// Every cell's state, row-major.
    #[inline]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }
    /// The state of cell `i` (row-major index; panics if out of range).
    #[inline]
    pub fn cell(&self, i: u32) -> Cell {
        self.cells[i as usize]
    }
    /// The total mine count, when known.
    #[inline]
    pub fn total_mines(&self) -> Option<u32> {
        self.total_mines
    }
    /// Mines still to place among the unknown cells, when the total is known
    /// (negative if the flags already exceed it).
    #[inline]
    pub fn remaining_mines(&self) -> Option<i64> {
        self.total_mines.map(|t| t as i64 - self.known_mines as i64)
    }
    /// Number of known mines (`Mine` cells: flags and proven mines).
    #[inline]
    pub fn known_mines(&self) -> u32 {
        self.known_mines
    }
    /// Number of `Unknown` cells.
    #[inline]
    pub fn unknown_count(&self) -> u32 {
        self.unknown
    }

    /// Sets a cell's state, keeping the counters right.
    pub fn set(&mut self, i: u32, c: Cell) {
        let old = self.cells[i as usize];
        if old == c {
            return;
        }
        let was = (old.is_unknown(), old == Cell::Mine);
        let now = (c.is_unknown(), c == Cell::Mine);
        if old == Cell::Mine {
            self.known_mines -= 1;
        }
        if old.is_unknown() {
            self.unknown -= 1;
        }
        if c == Cell::Mine {
            self.known_mines += 1;
        }
        if c.is_unknown() {
            self.unknown += 1;
        }
        self.cells[i as usize] = c;
        if was != now {
            // What each neighbour adds: the counts' changes, and its mask
            // bit for `i` (set if `i` became unknown, cleared if it stopped
            // being unknown) — one wrapping addition per neighbour.
            let counts = (now.0 as u32)
                .wrapping_sub(was.0 as u32)
                .wrapping_mul(Around::UNKNOWN)
                .wrapping_add(
                    (now.1 as u32)
                        .wrapping_sub(was.1 as u32)
                        .wrapping_mul(Around::MINE),
                );
            let sign = (now.0 as u32).wrapping_sub(was.0 as u32);
            let near = self.grid.neighbours_by_direction(i);
            for d in 0..8 {
                if near.inside >> d & 1 == 1 {
                    // `n` sees `i` in the opposite direction, `7 − d`.
                    let n = near.cells[d] as usize;
                    let delta = counts.wrapping_add(sign.wrapping_mul(Around::closed(7 - d)));
                    self.around[n] = self.around[n].wrapping_add(delta);
                }
            }
        }
    }

    /// Which neighbours of `i` are `Unknown`: bit `d` for direction `d`
    /// ([`crate::grid::DIRECTIONS`]), in O(1).
    #[inline]
    pub fn closed_mask(&self, i: u32) -> u8 {
        (self.around[i as usize] >> 16) as u8
    }

    /// For a revealed number at `i`: its effective value (number minus known
    /// mines around it, may be negative on a contradictory board) and the
    /// number of unknown neighbours. `None` if `i` is not a revealed number.
    #[inline]
    pub fn effective(&self, i: u32) -> Option<(i32, u32)> {
        let Cell::Revealed(n) = self.cells[i as usize] else {
            return None;
        };
        let i = i as usize;
        Some((
            n as i32 - (self.around[i] >> 8 & 0xFF) as i32,
            self.around[i] & 0xFF,
        ))
    }

    /// Whether `i` is next to a revealed number (on the frontier).
    pub fn on_frontier(&self, i: u32) -> bool {
        self.grid
            .neighbours(i)
            .iter()
            .any(|&n| matches!(self.cells[n as usize], Cell::Revealed(_)))
    }

    /// Number of unknown neighbours of any cell, in O(1).
    #[inline]
    pub fn unknown_around(&self, i: u32) -> u32 {
        self.around[i as usize] & 0xFF
    }

    /// The unknown neighbours of `i`.
    #[inline]
    pub fn unknown_neighbours(&self, i: u32) -> impl Iterator<Item = u32> + '_ {
        self.grid
            .neighbours(i)
            .into_iter_owned()
            .filter(move |&n| self.cells[n as usize].is_unknown())
    }

    /// Revealed numbers that still constrain something (have an unknown
    /// neighbour), in index order.
    pub fn frontier_numbers(&self) -> Vec<u32> {
        (0..self.grid.len() as u32)
            .filter(|&i| {
                matches!(self.cells[i as usize], Cell::Revealed(_))
                    && self.unknown_neighbours(i).next().is_some()
            })
            .collect()
    }
}

/// A board from a picture, for the engine's unit tests: `?` unknown, `F`
/// known mine, `.` known safe, digits revealed numbers; one string per row.
#[cfg(test)]
pub(crate) fn board_from_picture(rows: &[&str], total: Option<u32>) -> Board {
    let h = rows.len();
    let w = rows[0].len();
    let cells = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|ch| match ch {
            '?' => Cell::Unknown,
            'F' => Cell::Mine,
            '.' => Cell::Safe,
            d => Cell::Revealed(d.to_digit(10).expect("picture cell: ? F . or a digit") as u8),
        })
        .collect();
    Board::new(Grid::new(h, w), cells, total)
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::Safe => "safe",
            Value::Mine => "mine",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_unknown_is_new_with_every_cell_unknown() {
        for (h, w) in [(1, 1), (1, 4), (3, 1), (4, 6), (16, 30)] {
            let grid = Grid::new(h, w);
            assert_eq!(
                Board::all_unknown(grid, Some(3)),
                Board::new(grid, vec![Cell::Unknown; h * w], Some(3))
            );
        }
    }

    /// The words built direction by direction are the neighbourhoods
    /// counted cell by cell, on every shape (single rows and columns too).
    #[test]
    fn around_words_match_a_count_of_each_neighbourhood() {
        let kinds = [Cell::Unknown, Cell::Mine, Cell::Safe, Cell::Revealed(1)];
        let mut x = 777u32;
        for (h, w) in [(1, 1), (1, 6), (5, 1), (2, 2), (4, 7), (16, 30)] {
            let grid = Grid::new(h, w);
            let cells: Vec<Cell> = (0..h * w)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    kinds[(x >> 16) as usize % 4]
                })
                .collect();
            let board = Board::new(grid, cells.clone(), None);
            for i in 0..grid.len() as u32 {
                let (r, c) = grid.rc(i);
                let (mut unknown, mut mines, mut mask) = (0, 0, 0u32);
                for (d, (dr, dc)) in DIRECTIONS.into_iter().enumerate() {
                    let (rr, cc) = (r as isize + dr, c as isize + dc);
                    if rr < 0 || cc < 0 || rr >= h as isize || cc >= w as isize {
                        continue;
                    }
                    match cells[rr as usize * w + cc as usize] {
                        Cell::Unknown => {
                            unknown += 1;
                            mask |= 1 << d;
                        }
                        Cell::Mine => mines += 1,
                        _ => {}
                    }
                }
                let word = board.around[i as usize];
                assert_eq!(
                    (word & 0xFF, word >> 8 & 0xFF, word >> 16),
                    (unknown, mines, mask),
                    "{h}x{w} cell ({r},{c})"
                );
            }
        }
    }

    /// The O(1) counters agree with a recount after any sequence of sets.
    #[test]
    fn incremental_counters_match_a_recount() {
        let grid = Grid::new(5, 7);
        let mut b = Board::new(grid, vec![Cell::Unknown; 35], Some(6));
        let states = [Cell::Unknown, Cell::Mine, Cell::Safe, Cell::Revealed(2)];
        let mut x = 12345u32;
        for _ in 0..2000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let cell = (x >> 8) % 35;
            b.set(cell, states[(x >> 20) as usize % 4]);
            let fresh = Board::new(grid, b.cells().to_vec(), Some(6));
            assert_eq!(b, fresh);
        }
    }
}
