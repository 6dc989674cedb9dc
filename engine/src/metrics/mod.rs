//! Board metrics of a layout, as the Minesweeper community and ms_toollib
//! define them: 3BV, openings, islands, the count of each number, 3BV
//! solved on a partly revealed board, ZiNi (a greedy estimate of the
//! fewest clicks, with the clicks themselves) and, on small boards, the
//! exact fewest clicks.
//!
//! All of them read a [`Field`]'s mines and numbers only; which cells the
//! field has open at its start does not change them. The definitions
//! (docs/design.md, "Board metrics"):
//!
//! - an **opening** is a maximal 8-connected region of 0-cells (cells
//!   with no mine around); its **border** is the non-zero cells next to
//!   it, which opening it reveals too;
//! - an **isolated number** is a safe non-zero cell with no 0-cell around
//!   it: clicking it reveals it alone;
//! - **3BV** (Bechtel's Board Benchmark Value) is the number of openings
//!   plus the number of isolated numbers: the fewest left clicks that
//!   clear the board without chords;
//! - an **island** is a maximal 8-connected group of isolated numbers;
//! - **3BV solved** on a partly revealed board counts the isolated numbers
//!   revealed and the openings whose every 0-cell is revealed.
//!
//! ```
//! use sapper_engine::metrics::{zini, Metrics};
//! use sapper_engine::Field;
//!
//! // A mine in the corner of a 3×4 board: one opening (the 0-cells and
//! // the three 1s around the mine), no isolated number.
//! let field = Field::from_codes(3, 4, &[
//!     -1, 1, 0, 0,
//!      1, 1, 0, 0,
//!      0, 0, 0, 0,
//! ])?;
//! let m = Metrics::of(&field);
//! assert_eq!((m.bbbv, m.openings, m.islands, m.zini), (1, 1, 0, 1));
//! assert_eq!(m.numbers, [8, 3, 0, 0, 0, 0, 0, 0, 0]);
//! assert_eq!(zini(&field).len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod min_clicks;
mod zini;

pub use min_clicks::{min_clicks, MinClicksError, MIN_CLICKS_MAX_CELLS};
pub use zini::{hzini, zini, Action, Click};

use crate::{Field, Grid};

/// The metrics of one layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Metrics {
    /// Openings plus isolated numbers ([`Units::bbbv`]).
    pub bbbv: u32,
    /// Maximal 8-connected regions of 0-cells.
    pub openings: u32,
    /// Maximal 8-connected groups of isolated numbers.
    pub islands: u32,
    /// The clicks of the greedy ZiNi ([`zini`]): left clicks, flags and
    /// chords.
    pub zini: u32,
    /// Entry `n`: the safe cells showing `n` (mines are not counted).
    pub numbers: [u32; 9],
}

impl Metrics {
    /// Every metric of `field`, ZiNi included.
    pub fn of(field: &Field) -> Metrics {
        let units = Units::new(field);
        Metrics {
            bbbv: units.bbbv(),
            openings: units.openings(),
            islands: units.islands(),
            zini: zini::greedy(field, &units, false).len() as u32,
            numbers: units.numbers(),
        }
    }
}

/// Marks a cell of [`Units::opening_of`] that is not a 0-cell.
const NONE: u32 = u32::MAX;

/// The 3BV units of a layout: its openings (each 0-cell labelled with
/// its opening) and its isolated numbers, with the islands those form and
/// the count of each number. Computed once per layout in O(cells).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Units {
    grid: Grid,
    /// Per cell (row-major): the index of its opening for a 0-cell, in
    /// the order of each opening's first cell; [`NONE`] otherwise.
    opening: Vec<u32>,
    /// Per cell: whether it is an isolated number.
    isolated: Vec<bool>,
    openings: u32,
    isolated_numbers: u32,
    islands: u32,
    numbers: [u32; 9],
}

/// A padded cell that holds a mine (numbers are 0–8).
const PAD_MINE: u8 = 9;
/// A padded cell outside the grid.
const PAD_OUT: u8 = 10;

impl Units {
    /// The units of `field`.
    ///
    /// The board is copied into a grid with a one-cell frame of "outside"
    /// cells, so every real cell has eight neighbours at fixed offsets and
    /// the flood fills need no edge test.
    pub fn new(field: &Field) -> Units {
        let grid = field.grid;
        let (h, w) = (grid.h, grid.w);
        let pw = w + 2;
        let mut kind = vec![PAD_OUT; (h + 2) * pw];
        let mut numbers = [0u32; 9];
        for r in 0..h {
            let row = r * w..(r + 1) * w;
            let padded = &mut kind[(r + 1) * pw + 1..(r + 1) * pw + 1 + w];
            for ((k, &mine), &value) in padded
                .iter_mut()
                .zip(&field.mine[row.clone()])
                .zip(&field.value[row])
            {
                *k = if mine {
                    PAD_MINE
                } else {
                    let v = value.min(8);
                    numbers[usize::from(v)] += 1;
                    v
                };
            }
        }
        let pw = pw as isize;
        let around: [isize; 8] = [-pw - 1, -pw, -pw + 1, -1, 1, pw - 1, pw, pw + 1];

        // Openings: flood fills over the 0-cells, labelled in the order
        // of their first cell. `label` then holds each island's index on
        // its isolated numbers.
        let mut label = vec![NONE; kind.len()];
        let mut stack: Vec<usize> = Vec::new();
        let mut openings = 0u32;
        for p in 0..kind.len() {
            if kind[p] != 0 || label[p] != NONE {
                continue;
            }
            label[p] = openings;
            stack.push(p);
            while let Some(q) = stack.pop() {
                for &d in &around {
                    let n = q.wrapping_add_signed(d);
                    if kind[n] == 0 && label[n] == NONE {
                        label[n] = openings;
                        stack.push(n);
                    }
                }
            }
            openings += 1;
        }
        let opening: Vec<u32> = (0..h)
            .flat_map(|r| {
                let start = (r + 1) * pw as usize + 1;
                label[start..start + w].iter().copied()
            })
            .collect();

        // Isolated numbers: safe, non-zero, no 0 around (the frame and
        // the mines are not 0).
        let isolated_at = |p: usize| {
            (1..=8).contains(&kind[p])
                && around.iter().all(|&d| kind[p.wrapping_add_signed(d)] != 0)
        };
        let mut isolated_padded = vec![false; kind.len()];
        let mut isolated_numbers = 0u32;
        for r in 1..=h {
            for p in r * pw as usize + 1..r * pw as usize + 1 + w {
                if isolated_at(p) {
                    isolated_padded[p] = true;
                    isolated_numbers += 1;
                }
            }
        }
        // Islands: flood fills over the isolated numbers.
        let mut islands = 0u32;
        for p in 0..kind.len() {
            if !isolated_padded[p] || label[p] != NONE {
                continue;
            }
            label[p] = islands;
            stack.push(p);
            while let Some(q) = stack.pop() {
                for &d in &around {
                    let n = q.wrapping_add_signed(d);
                    if isolated_padded[n] && label[n] == NONE {
                        label[n] = islands;
                        stack.push(n);
                    }
                }
            }
            islands += 1;
        }
        let isolated: Vec<bool> = (0..h)
            .flat_map(|r| {
                let start = (r + 1) * pw as usize + 1;
                isolated_padded[start..start + w].iter().copied()
            })
            .collect();
        Units {
            grid,
            opening,
            isolated,
            openings,
            isolated_numbers,
            islands,
            numbers,
        }
    }

    /// The layout's shape.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// 3BV: openings plus isolated numbers.
    pub fn bbbv(&self) -> u32 {
        self.openings + self.isolated_numbers
    }

    /// The number of openings.
    pub fn openings(&self) -> u32 {
        self.openings
    }

    /// The number of isolated numbers (3BV without the openings).
    pub fn isolated_numbers(&self) -> u32 {
        self.isolated_numbers
    }

    /// The number of islands: 8-connected groups of isolated numbers.
    pub fn islands(&self) -> u32 {
        self.islands
    }

    /// Entry `n`: the safe cells showing `n`.
    pub fn numbers(&self) -> [u32; 9] {
        self.numbers
    }

    /// The opening a 0-cell belongs to (`0..openings()`, numbered in the
    /// row-major order of their first cell); `None` for any other cell.
    /// Panics if `cell` is off the grid.
    pub fn opening_of(&self, cell: u32) -> Option<u32> {
        Some(self.opening[cell as usize]).filter(|&o| o != NONE)
    }

    /// Whether `cell` is an isolated number. Panics if `cell` is off the
    /// grid.
    pub fn is_isolated(&self, cell: u32) -> bool {
        self.isolated[cell as usize]
    }

    /// 3BV solved: of the units, how many are done on a board where
    /// `revealed[i]` says whether cell `i` (row-major) is open. An
    /// isolated number counts when it is revealed; an opening counts when
    /// every one of its 0-cells is revealed (its border numbers need not
    /// be: a flag can keep one closed). Never more than [`Units::bbbv`].
    ///
    /// ms_toollib counts the same click by click in its video analysis
    /// (`bbbv_solved`): an isolated number at the click that opens it, an
    /// opening at a click that opens one of its 0-cells while none of them
    /// is flagged. In any play where no flag on a 0-cell held back a flood
    /// the two agree at every click. Where one did, and was taken off,
    /// ms_toollib can count an opening at a click that leaves others of
    /// its 0-cells closed, and again at the next: 2 on a board of 3BV 1.
    /// This count is then lower, and is the state of the board.
    ///
    /// Panics if `revealed` is not one entry per cell.
    pub fn solved(&self, revealed: &[bool]) -> u32 {
        assert_eq!(revealed.len(), self.grid.len(), "one entry per cell");
        // An opening is done until one of its 0-cells is seen closed.
        let mut done = vec![true; self.openings as usize];
        let mut numbers = 0u32;
        for (i, &open) in revealed.iter().enumerate() {
            if self.isolated[i] {
                numbers += u32::from(open);
            } else if self.opening[i] != NONE && !open {
                done[self.opening[i] as usize] = false;
            }
        }
        numbers + done.iter().filter(|&&d| d).count() as u32
    }
}

#[cfg(test)]
mod tests;
