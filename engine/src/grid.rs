//! The rectangle of cells and its neighbourhoods.
//!
//! Cells are numbered row-major (`index = row * w + col`) so every per-cell
//! table in the engine is a flat `Vec`. Edges and corners are handled here and
//! only here: everything else asks [`Grid::neighbours`].

/// The shape of a field: `h` rows by `w` columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    pub h: usize,
    pub w: usize,
}

/// Up to eight neighbour indices, on the stack.
#[derive(Clone, Copy, Debug)]
pub struct Neighbours {
    buf: [u32; 8],
    len: u8,
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
    pub fn new(h: usize, w: usize) -> Grid {
        Grid { h, w }
    }

    /// Number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.h * self.w
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    pub fn index(&self, row: usize, col: usize) -> u32 {
        debug_assert!(row < self.h && col < self.w);
        (row * self.w + col) as u32
    }

    /// `(row, col)` of a cell index.
    #[inline]
    pub fn rc(&self, i: u32) -> (usize, usize) {
        let i = i as usize;
        (i / self.w, i % self.w)
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
    fn large_grid_indices() {
        let g = Grid::new(1000, 1000);
        let last = g.index(999, 999);
        assert_eq!(g.rc(last), (999, 999));
        assert_eq!(g.neighbours(last).len(), 3);
        assert_eq!(g.offset(last, 1, 0), None);
        assert_eq!(g.offset(last, -1, -1), Some(g.index(998, 998)));
    }
}
