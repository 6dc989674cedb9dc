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

/// `sapper metrics --json`'s line: `{"bbbv", "openings", "islands",
/// "zini", "numbers": [count of 0, …, count of 8]}` (a list, in every
/// serde format).
impl serde::Serialize for Metrics {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Metrics", 5)?;
        st.serialize_field("bbbv", &self.bbbv)?;
        st.serialize_field("openings", &self.openings)?;
        st.serialize_field("islands", &self.islands)?;
        st.serialize_field("zini", &self.zini)?;
        // A slice, not an array: serde writes an array as a tuple.
        st.serialize_field("numbers", &self.numbers[..])?;
        st.end()
    }
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
///
/// The board is kept inside a one-cell frame of "outside" cells (row-major
/// with stride `w + 2`), so every real cell has eight neighbours at fixed
/// offsets: the flood fills here and ZiNi's steps need no edge test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Units {
    grid: Grid,
    /// Per framed cell: its number (0–8), [`PAD_MINE`] or [`PAD_OUT`].
    pub(super) kind: Vec<u8>,
    /// Per framed cell: the index of its opening for a 0-cell, in the
    /// order of each opening's first cell; [`NONE`] otherwise.
    pub(super) opening: Vec<u32>,
    /// Per framed cell: whether it is an isolated number.
    pub(super) isolated: Vec<bool>,
    openings: u32,
    isolated_numbers: u32,
    islands: u32,
    numbers: [u32; 9],
}

/// A framed cell that holds a mine (numbers are 0–8).
pub(super) const PAD_MINE: u8 = 9;
/// A framed cell outside the grid.
pub(super) const PAD_OUT: u8 = 10;

/// The offsets of the 3×3 square around a framed cell of a grid `w`
/// wide, row-major, the cell itself in the middle (index 4).
pub(super) fn square_offsets(w: usize) -> [isize; 9] {
    let s = w as isize + 2;
    [-s - 1, -s, -s + 1, -1, 0, 1, s - 1, s, s + 1]
}

/// The cells of the 3×3 square around `cell` (itself included) inside an
/// `h × w` grid, row-major.
pub(super) fn square(h: usize, w: usize, cell: u32) -> impl Iterator<Item = u32> {
    let (r, c) = (cell as usize / w, cell as usize % w);
    let (r0, r1) = (r.saturating_sub(1), (r + 1).min(h - 1));
    let (c0, c1) = (c.saturating_sub(1), (c + 1).min(w - 1));
    (r0..=r1).flat_map(move |rr| (c0..=c1).map(move |cc| (rr * w + cc) as u32))
}

impl Units {
    /// The units of `field`.
    pub fn new(field: &Field) -> Units {
        let grid = field.grid;
        let (h, w) = (grid.h, grid.w);
        let stride = w + 2;
        let mut kind = vec![PAD_OUT; (h + 2) * stride];
        let mut numbers = [0u32; 9];
        for r in 0..h {
            let row = r * w..(r + 1) * w;
            let framed = &mut kind[(r + 1) * stride + 1..(r + 1) * stride + 1 + w];
            for ((k, &mine), &value) in framed
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
        let square = square_offsets(w);
        let around = [
            square[0], square[1], square[2], square[3], square[5], square[6], square[7], square[8],
        ];

        // Openings: flood fills over the 0-cells, labelled in the order
        // of their first cell; the numbers they reach are their borders.
        let mut opening = vec![NONE; kind.len()];
        let mut border = vec![false; kind.len()];
        let mut stack: Vec<usize> = Vec::new();
        let mut openings = 0u32;
        for p in stride + 1..kind.len() - stride - 1 {
            if kind[p] != 0 || opening[p] != NONE {
                continue;
            }
            opening[p] = openings;
            stack.push(p);
            while let Some(q) = stack.pop() {
                for &d in &around {
                    let n = q.wrapping_add_signed(d);
                    match kind[n] {
                        0 if opening[n] == NONE => {
                            opening[n] = openings;
                            stack.push(n);
                        }
                        1..=8 => border[n] = true,
                        _ => {}
                    }
                }
            }
            openings += 1;
        }
        // Isolated numbers: the numbers no opening reaches.
        let mut isolated = border;
        let mut isolated_numbers = 0u32;
        for (i, k) in isolated.iter_mut().zip(&kind) {
            *i = (1..=8).contains(k) && !*i;
            isolated_numbers += u32::from(*i);
        }
        // Islands: flood fills over the isolated numbers.
        let mut seen = vec![false; kind.len()];
        let mut islands = 0u32;
        for p in 0..kind.len() {
            if !isolated[p] || seen[p] {
                continue;
            }
            seen[p] = true;
            stack.push(p);
            while let Some(q) = stack.pop() {
                for &d in &around {
                    let n = q.wrapping_add_signed(d);
                    if isolated[n] && !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
            islands += 1;
        }
        Units {
            grid,
            kind,
            opening,
            isolated,
            openings,
            isolated_numbers,
            islands,
            numbers,
        }
    }

    /// The framed index of a cell (row-major index on the grid).
    pub(super) fn framed(&self, cell: u32) -> usize {
        let (r, c) = self.grid.rc(cell);
        (r + 1) * (self.grid.w + 2) + c + 1
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
        assert!(
            (cell as usize) < self.grid.len(),
            "cell {cell} off the grid"
        );
        Some(self.opening[self.framed(cell)]).filter(|&o| o != NONE)
    }

    /// Whether `cell` is an isolated number. Panics if `cell` is off the
    /// grid.
    pub fn is_isolated(&self, cell: u32) -> bool {
        assert!(
            (cell as usize) < self.grid.len(),
            "cell {cell} off the grid"
        );
        self.isolated[self.framed(cell)]
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
        let (w, stride) = (self.grid.w, self.grid.w + 2);
        for (r, row) in revealed.chunks(w.max(1)).enumerate() {
            let framed = (r + 1) * stride + 1;
            for (k, &open) in row.iter().enumerate() {
                let p = framed + k;
                if self.isolated[p] {
                    numbers += u32::from(open);
                } else if self.opening[p] != NONE && !open {
                    done[self.opening[p] as usize] = false;
                }
            }
        }
        numbers + done.iter().filter(|&&d| d).count() as u32
    }
}

#[cfg(test)]
mod tests;
