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
//! 790,825 rules is the difference between hundreds of megabytes and tens.

use super::scan::finish;
use super::{FociReading, Orientations, RuleIndex};
use crate::board::{Board, Contradiction, Forced};
use crate::grid::Grid;
use crate::rules::SYMMETRIES;

/// A board read through one of the 8 symmetries, with the map from its
/// cells back to the original's.
struct Turned {
    board: Board,
    /// Cell of the turned board → cell of the original.
    original: Vec<u32>,
    /// Cell of the original → cell of the turned board.
    turned: Vec<u32>,
}

impl Turned {
    /// `board` under `SYMMETRIES[sym]`: transpose, then flip rows, then
    /// flip columns, each if asked.
    fn new(board: &Board, sym: usize) -> Turned {
        let (transpose, flip_rows, flip_cols) = SYMMETRIES[sym];
        let grid = board.grid();
        let (h, w) = (grid.h, grid.w);
        let (th, tw) = if transpose { (w, h) } else { (h, w) };
        let mut original = vec![0u32; h * w];
        let mut turned = vec![0u32; h * w];
        let mut cells = Vec::with_capacity(h * w);
        for tr in 0..th {
            for tc in 0..tw {
                // Undo the flips, then the transpose.
                let r = if flip_rows { th - 1 - tr } else { tr };
                let c = if flip_cols { tw - 1 - tc } else { tc };
                let (r, c) = if transpose { (c, r) } else { (r, c) };
                let from = (r * w + c) as u32;
                let to = (tr * tw + tc) as u32;
                original[to as usize] = from;
                turned[from as usize] = to;
                cells.push(board.cell(from));
            }
        }
        Turned {
            board: Board::new(Grid::new(th, tw), cells, board.total_mines()),
            original,
            turned,
        }
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
                    turned_dirty.extend(list.iter().map(|&c| turned.turned[c as usize]));
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
