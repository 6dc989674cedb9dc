//! The enumerated space: *shapes* (where the foci are) and *geometries*
//! (a shape plus a set of wall lines), and the cells each leaves free to be
//! `Closed` or `Open`.
//!
//! A pattern of a shape is the bounding box of the union of its foci's 3×3
//! neighbourhoods; box cells outside that union are `Any`. Every focus lies
//! one cell inside the box, so each of the four outer lines (top row, bottom
//! row, left column, right column) holds no focus and may be a wall (outside
//! the field): 16 wall sets per shape, each a consistent field edge (a field
//! is a rectangle; both top and bottom walls means a field one row high
//! around the foci). Union cells on a wall line are `Wall`; the others
//! (foci excluded) are *free*: `Closed` or `Open`.

use crate::compact::{ANY, CLOSED, MAX_CELLS, MAX_SIDE, OPEN, WALL};

/// Wall lines, as bits of [`Geometry::walls`].
pub const WALL_TOP: u8 = 1;
pub const WALL_BOTTOM: u8 = 2;
pub const WALL_LEFT: u8 = 4;
pub const WALL_RIGHT: u8 = 8;

/// The foci of a pattern up to translation: `(row, col)` offsets with
/// minimum row and column 0, sorted (row-major). The sorted order labels the
/// foci A, B, C.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shape {
    pub foci: Vec<(u8, u8)>,
}

impl Shape {
    pub fn order(&self) -> u8 {
        self.foci.len() as u8
    }

    /// `(h, w)` of the pattern: the foci's span plus one neighbour on each
    /// side.
    pub fn size(&self) -> (u8, u8) {
        let rows = self.foci.iter().map(|f| f.0).max().unwrap_or(0);
        let cols = self.foci.iter().map(|f| f.1).max().unwrap_or(0);
        (rows + 3, cols + 3)
    }

    /// The window `k`: the pattern fits a `k × k` mini-field.
    pub fn window(&self) -> u8 {
        let (h, w) = self.size();
        h.max(w)
    }

    /// The shape's image under symmetry `sym`, translated back to the
    /// origin.
    pub fn transform(&self, sym: usize) -> Shape {
        let (h, w) = self.size();
        let mut foci: Vec<(u8, u8)> = self
            .foci
            .iter()
            .map(|&(r, c)| {
                // Transform the focus's position inside the pattern box.
                let ((r2, c2), _) = sapper_engine::rules::Pattern::map_cell(
                    h,
                    w,
                    sym,
                    r as usize + 1,
                    c as usize + 1,
                );
                (r2 as u8 - 1, c2 as u8 - 1)
            })
            .collect();
        foci.sort_unstable();
        Shape { foci }
    }

    /// The least image under the 8 symmetries.
    pub fn canonical(&self) -> Shape {
        (0..8)
            .map(|s| self.transform(s))
            .min()
            .expect("8 symmetries")
    }

    /// Number of distinct images under the 8 symmetries.
    pub fn orbit_size(&self) -> usize {
        let mut images: Vec<Shape> = (0..8).map(|s| self.transform(s)).collect();
        images.sort_unstable();
        images.dedup();
        images.len()
    }
}

/// Chebyshev distance.
fn distance(a: (u8, u8), b: (u8, u8)) -> u8 {
    a.0.abs_diff(b.0).max(a.1.abs_diff(b.1))
}

/// Whether the foci are connected when two foci are linked iff their 3×3
/// neighbourhoods share a cell (Chebyshev distance ≤ 2). A set that is not
/// connected splits into groups with disjoint cells and equations, so its
/// conclusions are those of the groups alone: never a rule of its order.
fn connected(foci: &[(u8, u8)]) -> bool {
    let mut reached = 1u32;
    loop {
        let before = reached;
        for (i, &a) in foci.iter().enumerate() {
            if reached >> i & 1 == 1 {
                for (j, &b) in foci.iter().enumerate() {
                    if distance(a, b) <= 2 {
                        reached |= 1 << j;
                    }
                }
            }
        }
        if reached == before {
            return reached.count_ones() as usize == foci.len();
        }
    }
}

/// Every shape of `order` foci, all orientations, whose pattern fits a
/// `max_window × max_window` window, with the foci connected (see
/// `connected`), sorted. For order 1 that is the single focus; for order 2
/// the 12 unordered offsets at distance 1 or 2 (windows 4 and 5); for
/// order 3 the connected triples whose span is at most 4×4 (window ≤ 6).
pub fn shapes(order: u8, max_window: u8) -> Vec<Shape> {
    if order == 0 || max_window < 3 {
        return Vec::new();
    }
    let span = (max_window - 2).min(MAX_SIDE as u8 - 2);
    let positions: Vec<(u8, u8)> = (0..span)
        .flat_map(|r| (0..span).map(move |c| (r, c)))
        .collect();
    let mut out = Vec::new();
    let mut chosen = Vec::with_capacity(order as usize);
    choose(&positions, 0, order as usize, &mut chosen, &mut |foci| {
        let min_r = foci.iter().map(|f| f.0).min().unwrap_or(0);
        let min_c = foci.iter().map(|f| f.1).min().unwrap_or(0);
        // Count each translation class once: the one touching row 0 and
        // column 0.
        if min_r == 0 && min_c == 0 && connected(foci) {
            out.push(Shape {
                foci: foci.to_vec(),
            });
        }
    });
    out.sort_unstable();
    out
}

fn choose<F: FnMut(&[(u8, u8)])>(
    items: &[(u8, u8)],
    start: usize,
    left: usize,
    chosen: &mut Vec<(u8, u8)>,
    visit: &mut F,
) {
    if left == 0 {
        visit(chosen);
        return;
    }
    for i in start..items.len() {
        chosen.push(items[i]);
        choose(items, i + 1, left - 1, chosen, visit);
        chosen.pop();
    }
}

/// One representative (the least image) of each symmetry class of
/// [`shapes`], sorted, with its orbit size.
pub fn shape_classes(order: u8, max_window: u8) -> Vec<(Shape, usize)> {
    let mut reps: Vec<Shape> = shapes(order, max_window)
        .iter()
        .map(Shape::canonical)
        .collect();
    reps.sort_unstable();
    reps.dedup();
    reps.into_iter()
        .map(|s| {
            let n = s.orbit_size();
            (s, n)
        })
        .collect()
}

/// A shape with a wall set: everything about a family of patterns except
/// which free cells are closed and the focus values.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub h: u8,
    pub w: u8,
    /// Which outer lines are walls (`WALL_*` bits).
    pub walls: u8,
    /// Cell index (`r * w + c`) of each focus, in label order.
    pub foci: Vec<u8>,
    /// Cell codes with every free cell `OPEN` and foci left `ANY` (the
    /// caller writes their numbers).
    pub base: [u8; MAX_CELLS],
    /// Free cells: `Closed` or `Open` in a pattern.
    pub free: u64,
    /// `region[m]`: the free cells whose set of neighbouring foci is `m`
    /// (bit `i` = focus `i`), for `m` in `1..2^order`. Every free cell is a
    /// neighbour of at least one focus.
    pub region: [u64; 8],
}

impl Geometry {
    pub fn new(shape: &Shape, walls: u8) -> Geometry {
        let (h, w) = shape.size();
        let foci: Vec<u8> = shape
            .foci
            .iter()
            .map(|&(r, c)| (r + 1) * w + (c + 1))
            .collect();
        let mut base = [ANY; MAX_CELLS];
        let mut free = 0u64;
        let mut region = [0u64; 8];
        for r in 0..h {
            for c in 0..w {
                let i = (r * w + c) as usize;
                let membership = shape
                    .foci
                    .iter()
                    .enumerate()
                    .fold(0usize, |m, (k, &(fr, fc))| {
                        if distance((r, c), (fr + 1, fc + 1)) == 1 {
                            m | 1 << k
                        } else {
                            m
                        }
                    });
                let is_focus = foci.contains(&(i as u8));
                if is_focus || membership == 0 {
                    // Foci get their numbers later; cells no focus sees are
                    // not looked at.
                    continue;
                }
                let on_wall = (walls & WALL_TOP != 0 && r == 0)
                    || (walls & WALL_BOTTOM != 0 && r == h - 1)
                    || (walls & WALL_LEFT != 0 && c == 0)
                    || (walls & WALL_RIGHT != 0 && c == w - 1);
                if on_wall {
                    base[i] = WALL;
                } else {
                    base[i] = OPEN;
                    free |= 1 << i;
                    region[membership] |= 1 << i;
                }
            }
        }
        Geometry {
            h,
            w,
            walls,
            foci,
            base,
            free,
            region,
        }
    }

    pub fn order(&self) -> u8 {
        self.foci.len() as u8
    }

    pub fn window(&self) -> u8 {
        self.h.max(self.w)
    }

    /// Number of free cells.
    pub fn free_count(&self) -> u32 {
        self.free.count_ones()
    }

    /// The cell codes of the pattern with `closed` (a subset of
    /// [`Geometry::free`]) closed and the rest open; foci still `ANY`.
    #[inline]
    pub fn cells_with(&self, closed: u64) -> [u8; MAX_CELLS] {
        let mut cells = self.base;
        let mut m = closed;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            cells[i] = CLOSED;
        }
        cells
    }
}

/// Spreads the low bits of `index` over the set bits of `mask` (the
/// `index`-th subset of `mask`), through two lookup tables of 2^11 entries.
pub struct Scatter {
    low: Vec<u64>,
    high: Vec<u64>,
}

impl Scatter {
    const LOW_BITS: u32 = 11;

    pub fn new(mask: u64) -> Scatter {
        let bits: Vec<u64> = (0..64)
            .filter(|b| mask >> b & 1 == 1)
            .map(|b| 1u64 << b)
            .collect();
        let split = bits.len().min(Self::LOW_BITS as usize);
        let table = |bits: &[u64]| -> Vec<u64> {
            (0..1usize << bits.len())
                .map(|i| {
                    bits.iter()
                        .enumerate()
                        .filter(|(k, _)| i >> k & 1 == 1)
                        .map(|(_, b)| b)
                        .sum()
                })
                .collect()
        };
        Scatter {
            low: table(&bits[..split]),
            high: table(&bits[split..]),
        }
    }

    #[inline]
    pub fn get(&self, index: u64) -> u64 {
        self.low[(index & ((1 << Self::LOW_BITS) - 1)) as usize]
            | self.high[(index >> Self::LOW_BITS) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_counts() {
        assert_eq!(shapes(1, 3).len(), 1);
        // Unordered offsets at distance 1 or 2: half of the 24 cells of a
        // 5×5 square around a focus.
        assert_eq!(shapes(2, 5).len(), 12);
        assert_eq!(shapes(2, 4).len(), 4);
        assert_eq!(shape_classes(2, 5).len(), 5);
        let classes = shape_classes(3, 6);
        let total: usize = classes.iter().map(|(_, n)| n).sum();
        assert_eq!(total, shapes(3, 6).len());
    }

    #[test]
    fn order_two_geometry_free_cells() {
        // Offsets (0,1), (1,1), (0,2), (1,2), (2,2): 10, 12, 13, 14, 15
        // free cells with no walls.
        let mut free: Vec<u32> = shape_classes(2, 5)
            .iter()
            .map(|(s, _)| Geometry::new(s, 0).free_count())
            .collect();
        free.sort_unstable();
        assert_eq!(free, vec![10, 12, 13, 14, 15]);
        // A focus alone: 8 free cells; each wall line takes 3, the four
        // walls leave none.
        let single = &shapes(1, 3)[0];
        assert_eq!(Geometry::new(single, 0).free_count(), 8);
        assert_eq!(Geometry::new(single, WALL_TOP).free_count(), 5);
        assert_eq!(
            Geometry::new(single, WALL_TOP | WALL_BOTTOM).free_count(),
            2
        );
        assert_eq!(Geometry::new(single, 15).free_count(), 0);
    }

    #[test]
    fn scatter_enumerates_subsets_in_order() {
        let mask = 0b1011_0110_1110_1011_0101u64;
        let s = Scatter::new(mask);
        let n = mask.count_ones();
        let mut seen: Vec<u64> = (0..1u64 << n).map(|i| s.get(i)).collect();
        assert!(seen.iter().all(|&m| m & !mask == 0));
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 1 << n);
    }
}
