//! The rectangle of cells and its neighbourhoods.
//!
//! Cells are numbered row-major (`index = row * w + col`) so every per-cell
//! table in the engine is a flat `Vec`. Edges and corners are handled here and
//! only here: everything else asks [`Grid::neighbours`].

/// The most rows, and the most columns, of a board the engine plays or
/// generates ([`Level`](crate::game::Level)).
pub const MAX_SIDE: usize = 1000;

/// The most cells of a position on every surface the engine reads
/// (position texts, rows, cell codes, the engine protocol, the Python and
/// web APIs): as many as 1000 × 1000, in any shape (a band of 10 × 2000
/// is a position too).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// The shape of a field: `h` rows by `w` columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    /// Number of rows.
    pub h: usize,
    /// Number of columns: the stride of the row-major cell index.
    pub w: usize,
    /// `⌈2^64 / w⌉` (0 for `w ≤ 1`): [`Grid::rc`] divides by `w` with one
    /// multiplication — it runs for every neighbourhood the solver walks,
    /// and a hardware division costs several times more. Exact for every
    /// `n < 2^32`: `n · (m·w − 2^64) < 2^32 · w ≤ 2^64` keeps the error of
    /// `n · m / 2^64` below `1/w`. Derived from `w`, so comparing and
    /// hashing it changes nothing.
    w_inverse: u64,
}

/// Neighbour directions, numbered row-major around the centre:
///
/// ```text
/// 0 1 2
/// 3 · 4
/// 5 6 7
/// ```
///
/// The cell in direction `d` of `i` sees `i` in direction `7 − d`.
pub const DIRECTIONS: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The eight neighbours of a cell by direction ([`DIRECTIONS`]), with a bit
/// mask of the directions that lie inside the grid (entries of the others
/// are meaningless).
#[derive(Clone, Copy, Debug)]
pub struct NeighboursByDirection {
    /// Entry `d`: the cell index in direction `d`, valid only where
    /// `inside` has bit `d`.
    pub cells: [u32; 8],
    /// Bit `d` set iff the neighbour in direction `d` lies inside the grid
    /// ([`Grid::inside_mask`]).
    pub inside: u8,
}

/// Up to eight neighbour indices, on the stack.
#[derive(Clone, Copy, Debug)]
pub struct Neighbours {
    buf: [u32; 8],
    len: u8,
}

impl Neighbours {
    /// Owned iterator over the neighbour indices.
    #[inline]
    pub fn into_iter_owned(self) -> impl Iterator<Item = u32> {
        let len = self.len();
        let mut k = 0;
        std::iter::from_fn(move || {
            if k < len {
                k += 1;
                Some(self[k - 1])
            } else {
                None
            }
        })
    }
}

impl std::ops::Deref for Neighbours {
    type Target = [u32];
    #[inline]
    fn deref(&self) -> &[u32] {
        &self.buf[..self.len as usize]
    }
}

impl<'a> IntoIterator for &'a Neighbours {
    type Item = &'a u32;
    type IntoIter = std::slice::Iter<'a, u32>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Grid {
    /// The grid of `h` rows by `w` columns (either may be 0: a grid with no
    /// cell).
    pub fn new(h: usize, w: usize) -> Grid {
        let w_inverse = if w <= 1 { 0 } else { u64::MAX / w as u64 + 1 };
        Grid { h, w, w_inverse }
    }

    /// Number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.h * self.w
    }

    /// Whether the grid has no cell.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cell index of 0-based `(row, col)`, `row * w + col`. Both must
    /// lie inside the grid (checked in debug builds only).
    #[inline]
    pub fn index(&self, row: usize, col: usize) -> u32 {
        debug_assert!(row < self.h && col < self.w);
        (row * self.w + col) as u32
    }

    /// `(row, col)` of a cell index.
    #[inline]
    pub fn rc(&self, i: u32) -> (usize, usize) {
        let row = if self.w <= 1 {
            i as usize
        } else {
            ((i as u128 * self.w_inverse as u128) >> 64) as usize
        };
        (row, i as usize - row * self.w)
    }

    /// The cell at `(row + dr, col + dc)`, or `None` outside the grid.
    #[inline]
    pub fn offset(&self, i: u32, dr: isize, dc: isize) -> Option<u32> {
        let (r, c) = self.rc(i);
        let r2 = r as isize + dr;
        let c2 = c as isize + dc;
        if r2 < 0 || c2 < 0 || r2 >= self.h as isize || c2 >= self.w as isize {
            None
        } else {
            Some((r2 as usize * self.w + c2 as usize) as u32)
        }
    }

    /// The up-to-8 cells around `i` (fewer at edges and corners), in
    /// row-major order.
    #[inline]
    pub fn neighbours(&self, i: u32) -> Neighbours {
        let (r, c) = self.rc(i);
        if r > 0 && c > 0 && r + 1 < self.h && c + 1 < self.w {
            // Interior cell (the common case): eight fixed offsets.
            let w = self.w as u32;
            return Neighbours {
                buf: [
                    i - w - 1,
                    i - w,
                    i - w + 1,
                    i - 1,
                    i + 1,
                    i + w - 1,
                    i + w,
                    i + w + 1,
                ],
                len: 8,
            };
        }
        let mut buf = [0u32; 8];
        let mut len = 0u8;
        let r0 = r.saturating_sub(1);
        let r1 = (r + 1).min(self.h - 1);
        let c0 = c.saturating_sub(1);
        let c1 = (c + 1).min(self.w - 1);
        for rr in r0..=r1 {
            for cc in c0..=c1 {
                if rr != r || cc != c {
                    buf[len as usize] = (rr * self.w + cc) as u32;
                    len += 1;
                }
            }
        }
        Neighbours { buf, len }
    }

    /// The neighbours of `i` by direction: what [`Grid::neighbours`] lists,
    /// each at its [`DIRECTIONS`] index.
    #[inline]
    pub fn neighbours_by_direction(&self, i: u32) -> NeighboursByDirection {
        let (r, c) = self.rc(i);
        let w = self.w as u32;
        // Wrapping: entries outside the grid are garbage, masked by `inside`.
        let cells = [
            i.wrapping_sub(w + 1),
            i.wrapping_sub(w),
            i.wrapping_sub(w).wrapping_add(1),
            i.wrapping_sub(1),
            i.wrapping_add(1),
            i.wrapping_add(w - 1),
            i.wrapping_add(w),
            i.wrapping_add(w + 1),
        ];
        let inside = self.inside_mask(r, c);
        NeighboursByDirection { cells, inside }
    }

    /// Which directions ([`DIRECTIONS`]) of the cell `(r, c)` lie inside
    /// the grid: bit `d` for direction `d`.
    #[inline]
    pub fn inside_mask(&self, r: usize, c: usize) -> u8 {
        let up = r > 0;
        let down = r + 1 < self.h;
        let left = c > 0;
        let right = c + 1 < self.w;
        (up && left) as u8
            | (up as u8) << 1
            | ((up && right) as u8) << 2
            | (left as u8) << 3
            | (right as u8) << 4
            | ((down && left) as u8) << 5
            | (down as u8) << 6
            | ((down && right) as u8) << 7
    }

    /// Chebyshev distance between two cells.
    #[inline]
    pub fn distance(&self, a: u32, b: u32) -> usize {
        let (ra, ca) = self.rc(a);
        let (rb, cb) = self.rc(b);
        ra.abs_diff(rb).max(ca.abs_diff(cb))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_edge_and_interior_neighbourhoods() {
        let g = Grid::new(3, 4);
        assert_eq!(&*g.neighbours(0), &[1, 4, 5]);
        assert_eq!(&*g.neighbours(1), &[0, 2, 4, 5, 6]);
        assert_eq!(&*g.neighbours(5), &[0, 1, 2, 4, 6, 8, 9, 10]);
        assert_eq!(&*g.neighbours(11), &[6, 7, 10]);
        let one = Grid::new(1, 1);
        assert!(one.neighbours(0).is_empty());
    }

    #[test]
    fn neighbours_by_direction_agree_with_the_list() {
        for (h, w) in [(1, 1), (1, 5), (4, 1), (3, 4), (6, 7)] {
            let g = Grid::new(h, w);
            for i in 0..g.len() as u32 {
                let by_dir = g.neighbours_by_direction(i);
                let (r, c) = g.rc(i);
                let mut listed = Vec::new();
                for (d, (dr, dc)) in DIRECTIONS.into_iter().enumerate() {
                    let expect = g.offset(i, dr, dc);
                    assert_eq!(
                        by_dir.inside >> d & 1 == 1,
                        expect.is_some(),
                        "{h}x{w} ({r},{c}) d{d}"
                    );
                    if let Some(n) = expect {
                        assert_eq!(by_dir.cells[d], n);
                        listed.push(n);
                    }
                }
                assert_eq!(&*g.neighbours(i), &listed[..]);
            }
        }
    }

    #[test]
    fn row_and_column_by_multiplication_are_exact() {
        for w in [1usize, 2, 3, 7, 16, 30, 1000, 65_535, 1 << 20] {
            let g = Grid::new(usize::MAX / w.max(1), w);
            for i in [
                0u32,
                1,
                2,
                w as u32 - 1,
                w as u32,
                12_345,
                u32::MAX / 3,
                u32::MAX - 1,
                u32::MAX,
            ] {
                assert_eq!(g.rc(i), (i as usize / w, i as usize % w), "w {w} i {i}");
            }
        }
        let mut rng = crate::test_rng::TestRng::new(0x9e37_79b9);
        for _ in 0..10_000 {
            let x = rng.next_u64();
            let w = (x % 5000 + 1) as usize;
            let g = Grid::new(1, w);
            let i = (x >> 32) as u32;
            assert_eq!(g.rc(i), (i as usize / w, i as usize % w), "w {w} i {i}");
        }
    }

    #[test]
    fn large_grid_indices() {
        let g = Grid::new(1000, 1000);
        let last = g.index(999, 999);
        assert_eq!(g.rc(last), (999, 999));
        assert_eq!(g.neighbours(last).len(), 3);
        assert_eq!(g.offset(last, 1, 0), None);
        assert_eq!(g.offset(last, -1, -1), Some(g.index(998, 998)));
    }
}
