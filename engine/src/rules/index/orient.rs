//! Matching an index that stores each rule in one orientation
//! ([`Orientations::One`]): the board is turned instead of the rules.
//!
//! An image `g(r)` of rule `r` under a symmetry `g` of the square matches
//! at placement `p` of board `B` exactly when `r` matches at `g⁻¹(p)` on
//! the board `g⁻¹(B)` (the board read through `g⁻¹`: its cells, its edges
//! — walls stay walls — and its numbers). So scanning the 8 orientations
//! of the board with the rules stored once finds exactly the matches that
//! one scan of the board with all 8 images finds; each conclusion is
//! mapped back to the cell it names on the real board. The union is then
//! sorted and merged by [`finish`] as for any index.
//!
//! The cost is 8 scans (and 7 board copies) per call instead of one; an
//! index of orders ≥ 3 is consulted only in rounds where orders 1 and 2
//! prove nothing, and it is 8× smaller, which for a grown rulebase of
//! hundreds of thousands of rules is the difference between hundreds of
//! megabytes and tens (docs/performance.md).

use super::scan::finish;
use super::{FociReading, Orientations, RuleIndex};
use crate::board::{Board, Cell, Contradiction, Forced};
use crate::grid::Grid;
use crate::rules::{map_point, SYMMETRIES};

/// A board read through one of the 8 symmetries, with the map from its
/// cells back to the original's.
struct Turned {
    board: Board,
    sym: usize,
    /// Cell of the turned board → cell of the original.
    original: Vec<u32>,
}

impl Turned {
    /// `board` under `SYMMETRIES[sym]` (the map of every pattern,
    /// [`map_point`]).
    fn new(board: &Board, sym: usize) -> Turned {
        let grid = board.grid();
        let (_, (th, tw)) = map_point(grid.h, grid.w, sym, 0, 0);
        let mut original = vec![0u32; grid.len()];
        let mut cells = vec![Cell::Unknown; grid.len()];
        for (from, &cell) in board.cells().iter().enumerate() {
            let to = Turned::cell_in(grid, sym, from as u32);
            original[to as usize] = from as u32;
            cells[to as usize] = cell;
        }
        Turned {
            board: Board::new(Grid::new(th, tw), cells, board.total_mines()),
            sym,
            original,
        }
    }

    /// Where cell `i` of a board of `grid` goes under symmetry `sym`.
    fn cell_in(grid: Grid, sym: usize, i: u32) -> u32 {
        let (r, c) = grid.rc(i);
        let ((r2, c2), (_, w2)) = map_point(grid.h, grid.w, sym, r, c);
        (r2 * w2 + c2) as u32
    }
}

impl RuleIndex {
    /// [`RuleIndex::find_with`] for an index of [`Orientations::One`]: the
    /// scan in every orientation of the board, conclusions mapped back.
    /// Leaves `out` as it was on error.
    pub(super) fn find_in_every_orientation(
        &self,
        board: &Board,
        dirty: Option<&[u32]>,
        reading: FociReading,
        out: &mut Vec<(Forced, u8)>,
    ) -> Result<(), Contradiction> {
        debug_assert_eq!(self.orientations, Orientations::One);
        let start = out.len();
        let result = (|| {
            self.scan(board, dirty, reading, out)?;
            let mut turned_dirty = Vec::new();
            for sym in 1..SYMMETRIES.len() {
                let turned = Turned::new(board, sym);
                let dirty = dirty.map(|list| {
                    turned_dirty.clear();
                    let grid = board.grid();
                    turned_dirty.extend(list.iter().map(|&c| Turned::cell_in(grid, turned.sym, c)));
                    turned_dirty.as_slice()
                });
                let from = out.len();
                self.scan(&turned.board, dirty, reading, out)
                    .map_err(|mut e| {
                        // Cells as on the real board, in cell order as
                        // the one-scan index names them.
                        for c in &mut e.cells {
                            *c = turned.original[*c as usize];
                        }
                        e.cells.sort_unstable();
                        e
                    })?;
                for (forced, _) in &mut out[from..] {
                    forced.cell = turned.original[forced.cell as usize];
                }
            }
            finish(out, start)
        })();
        if result.is_err() {
            out.truncate(start);
        }
        result
    }
}
