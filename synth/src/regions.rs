//! Exact conclusions by *regions*.
//!
//! Split a pattern's closed cells by the set of foci that see them (its
//! *region*: for two foci A-only, B-only, shared; for three foci up to seven
//! regions). The focus equations only read how many mines each region holds
//! (`k_R`), and any layout can be permuted inside a region without changing
//! a single equation. So, over all layouts satisfying the equations:
//!
//! - no layout at all ⟺ no count vector `(k_R)` satisfies the equations
//!   (the pattern is *forbidden*);
//! - a closed cell of region `R` is a mine in every layout ⟺ `k_R = |R|` in
//!   every solution vector (if some solution had `k_R < |R|`, permuting it
//!   puts a safe cell on that cell), and safe in every layout ⟺ `k_R = 0`
//!   in every solution vector.
//!
//! Enumerating count vectors instead of layouts is exact and much smaller
//! (for a 5×5 order-2 pattern with 15 closed cells: at most 9·9·2 vectors
//! instead of 2^15 layouts), and it depends only on the closed counts per
//! region, so one table serves every closed mask of a geometry. One pass over
//! the count vectors, grouped by the foci's sums, answers all `9^order`
//! value tuples at once: per group we OR together "`k_R > 0` seen" and
//! "`k_R < |R|` seen" bits.
//!
//! A subset `S` of the foci on its own (the same closed cells, only the
//! equations of `S`) is answered from the same groups: the group of `S`'s
//! values is the union of the full groups that project onto them (the other
//! foci's equations are simply dropped). This gives the minimality
//! reductions: a tuple where one focus alone concludes anything is covered by
//! order 1, one where a pair does is covered by order 2.

use rayon::prelude::*;
use std::sync::OnceLock;

/// Values a focus can show: its effective value, 0..=8.
pub const VALUES: usize = 9;

/// Group bits: bit `m` (m = region membership, 1..8) "some solution has
/// `k_m > 0`"; bit `8 + m` "some solution has `k_m < |m|`"; `SEEN`: the group
/// has a solution.
const NOT_FULL_SHIFT: u32 = 8;
const SEEN: u32 = 1 << 16;

/// A value tuple whose pattern is kept as a rule (before the wall and
/// symmetry reductions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kept {
    /// Focus values in label order (unused entries 0).
    pub values: [u8; 3],
    pub forbidden: bool,
    /// Regions (bit = membership) whose closed cells are all safe / all
    /// mines in every layout. Both 0 when forbidden.
    pub safe_regions: u8,
    pub mine_regions: u8,
}

/// How the `9^order` value tuples of one closed-count vector classify.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VectorClass {
    /// Tuples whose pattern forces at least one closed cell.
    pub forced: u32,
    /// Tuples whose pattern admits no layout.
    pub forbidden: u32,
    /// Forced or forbidden, but a single focus alone already concludes
    /// something (trivial focus): covered by order 1.
    pub covered_order1: u32,
    /// Forced or forbidden, no focus trivial, but a pair of foci alone
    /// concludes something: covered by order 2.
    pub covered_order2: u32,
    /// The rest of the forced or forbidden tuples.
    pub kept: Vec<Kept>,
}

/// The classification of every closed-count vector of one region layout
/// (`sizes[m]` = free cells of membership `m`).
pub struct RegionTable {
    pub order: usize,
    /// Memberships with at least one free cell.
    pub regions: Vec<usize>,
    /// Mixed-radix weight of each membership in a vector index (0 for empty
    /// regions).
    pub weight: [u32; 8],
    /// Indexed by `Σ n_m · weight[m]`.
    pub entries: Vec<VectorClass>,
    pub sizes: [u8; 8],
}

impl RegionTable {
    /// Builds the table for `order` foci (1..=3) with `sizes[m]` free cells
    /// of membership `m`.
    pub fn new(order: usize, sizes: [u8; 8]) -> RegionTable {
        assert!((1..=3).contains(&order));
        let regions: Vec<usize> = (1..1usize << order).filter(|&m| sizes[m] > 0).collect();
        let mut weight = [0u32; 8];
        let mut total = 1u32;
        for &m in &regions {
            weight[m] = total;
            total *= sizes[m] as u32 + 1;
        }
        let entries = (0..total)
            .into_par_iter()
            .map(|index| {
                let mut closed = [0u8; 8];
                for &m in &regions {
                    closed[m] = ((index / weight[m]) % (sizes[m] as u32 + 1)) as u8;
                }
                classify(order, &closed)
            })
            .collect();
        RegionTable {
            order,
            regions,
            weight,
            entries,
            sizes,
        }
    }

    /// Index of the vector of closed counts of `closed` (a cell mask), given
    /// each region's cell mask.
    #[inline]
    pub fn index_of(&self, closed: u64, region: &[u64; 8]) -> usize {
        self.regions
            .iter()
            .map(|&m| (closed & region[m]).count_ones() * self.weight[m])
            .sum::<u32>() as usize
    }

    /// The closed counts of entry `index`.
    pub fn closed_counts(&self, index: usize) -> [u8; 8] {
        let mut closed = [0u8; 8];
        for &m in &self.regions {
            closed[m] = ((index as u32 / self.weight[m]) % (self.sizes[m] as u32 + 1)) as u8;
        }
        closed
    }
}

/// Whether a group (see the bit layout above) concludes anything: no
/// solution, or some non-empty region fixed at 0 or at full.
#[inline]
fn concludes(group: u32, nonempty: u32) -> bool {
    group & SEEN == 0 || forced_regions(group, nonempty) != 0
}

#[inline]
fn forced_regions(group: u32, nonempty: u32) -> u32 {
    safe_regions(group, nonempty) | mine_regions(group, nonempty)
}

/// Regions where no solution puts a mine: all their closed cells are safe.
#[inline]
fn safe_regions(group: u32, nonempty: u32) -> u32 {
    !group & nonempty
}

/// Regions where no solution leaves a closed cell free: all are mines.
#[inline]
fn mine_regions(group: u32, nonempty: u32) -> u32 {
    !(group >> NOT_FULL_SHIFT) & nonempty
}

/// Per order: the proper subsets of the foci, smallest first, and for each
/// the projection of every value tuple onto it (the dropped foci's digits
/// set to 0).
struct Projections {
    subsets: Vec<(usize, u32)>,
    project: Vec<Vec<u16>>,
}

fn projections(order: usize) -> &'static Projections {
    static TABLES: [OnceLock<Projections>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    TABLES[order].get_or_init(|| {
        let tuples = VALUES.pow(order as u32);
        let mut subsets: Vec<(usize, u32)> = (1..(1usize << order) - 1)
            .map(|s| (s, s.count_ones()))
            .collect();
        subsets.sort_by_key(|&(s, size)| (size, s));
        let project = subsets
            .iter()
            .map(|&(s, _)| {
                (0..tuples)
                    .map(|t| {
                        (0..order)
                            .filter(|&f| s >> f & 1 == 1)
                            .map(|f| digit(t, f) * VALUES.pow(f as u32))
                            .sum::<usize>() as u16
                    })
                    .collect()
            })
            .collect();
        Projections { subsets, project }
    })
}

/// Focus `focus`'s value in tuple index `t` (base 9, focus 0 lowest).
#[inline]
fn digit(t: usize, focus: usize) -> usize {
    (t / VALUES.pow(focus as u32)) % VALUES
}

/// Classifies all value tuples for closed counts `closed[m]` per membership.
pub fn classify(order: usize, closed: &[u8; 8]) -> VectorClass {
    let tuples = VALUES.pow(order as u32);
    let active: Vec<usize> = (1..1usize << order).filter(|&m| closed[m] > 0).collect();
    let nonempty: u32 = active.iter().map(|&m| 1u32 << m).sum();
    // One more mine in region m adds 1 to the sum of every focus seeing it:
    // `step[m]` in the base-9 group index.
    let mut step = [0usize; 8];
    for &m in &active {
        step[m] = (0..order)
            .filter(|&f| m >> f & 1 == 1)
            .map(|f| VALUES.pow(f as u32))
            .sum();
    }

    // One pass over every count vector (k_m ≤ closed[m]), odometer style,
    // keeping the group index up to date.
    let mut groups = vec![0u32; tuples];
    let mut k = [0u8; 8];
    let mut index = 0usize;
    'vectors: loop {
        let mut bits = SEEN;
        for &m in &active {
            if k[m] > 0 {
                bits |= 1 << m;
            }
            if k[m] < closed[m] {
                bits |= 1 << (m as u32 + NOT_FULL_SHIFT);
            }
        }
        groups[index] |= bits;
        for &m in &active {
            if k[m] < closed[m] {
                k[m] += 1;
                index += step[m];
                continue 'vectors;
            }
            index -= k[m] as usize * step[m];
            k[m] = 0;
        }
        break;
    }

    // Groups of each proper subset of foci on its own: the union of the full
    // groups projecting onto them (the other equations dropped).
    let proj = projections(order);
    let mut sub_groups = vec![vec![0u32; tuples]; proj.subsets.len()];
    for (sub, project) in sub_groups.iter_mut().zip(&proj.project) {
        for (&g, &p) in groups.iter().zip(project) {
            sub[p as usize] |= g;
        }
    }

    let mut class = VectorClass::default();
    for (t, &group) in groups.iter().enumerate() {
        let forbidden = group & SEEN == 0;
        let forced = !forbidden && forced_regions(group, nonempty) != 0;
        if !(forced || forbidden) {
            // Nothing to conclude, so no subset concludes anything either
            // (a subset's conclusion would carry over).
            continue;
        }
        class.forbidden += forbidden as u32;
        class.forced += forced as u32;
        // The smallest subset of foci that already concludes something.
        // Its conclusion carries over to the full pattern: the full
        // layouts are among the subset's layouts.
        let covered_by = proj
            .subsets
            .iter()
            .zip(&proj.project)
            .zip(&sub_groups)
            .find(|((_, project), sub)| concludes(sub[project[t] as usize], nonempty))
            .map(|(((_, size), _), _)| *size);
        match covered_by {
            Some(1) => class.covered_order1 += 1,
            Some(_) => class.covered_order2 += 1,
            None => {
                let mut values = [0u8; 3];
                for (focus, v) in values.iter_mut().enumerate().take(order) {
                    *v = digit(t, focus) as u8;
                }
                class.kept.push(Kept {
                    values,
                    forbidden,
                    safe_regions: if forbidden {
                        0
                    } else {
                        safe_regions(group, nonempty) as u8
                    },
                    mine_regions: if forbidden {
                        0
                    } else {
                        mine_regions(group, nonempty) as u8
                    },
                });
            }
        }
    }
    class
}

/// Whether one focus alone with `closed` closed neighbours and effective
/// value `v` concludes anything (the single-cell method): all safe
/// (`v = 0`), all mines (`v = closed`), or impossible (`v > closed`).
pub fn trivial(v: u8, closed: u8) -> bool {
    v > closed || (closed > 0 && (v == 0 || v == closed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Layout-by-layout reference: all `2^n` layouts of the closed cells,
    /// cell `j` belonging to region `membership[j]`.
    fn brute(order: usize, membership: &[usize], values: &[u8]) -> Option<(u64, u64)> {
        let n = membership.len();
        let (mut any_mine, mut any_safe, mut any) = (0u64, 0u64, false);
        for layout in 0..1u64 << n {
            let ok = (0..order).all(|f| {
                let mines = (0..n)
                    .filter(|&j| membership[j] >> f & 1 == 1 && layout >> j & 1 == 1)
                    .count();
                mines == values[f] as usize
            });
            if ok {
                any = true;
                any_mine |= layout;
                any_safe |= !layout & ((1 << n) - 1);
            }
        }
        // (forced safe cells, forced mine cells)
        any.then(|| (!any_mine & ((1 << n) - 1), !any_safe & ((1 << n) - 1)))
    }

    fn check(order: usize, closed: [u8; 8]) {
        let class = classify(order, &closed);
        let membership: Vec<usize> = (1..8)
            .flat_map(|m| (0..closed[m]).map(move |_| m))
            .collect();
        let tuples = VALUES.pow(order as u32);
        let (mut forced, mut forbidden) = (0, 0);
        for t in 0..tuples {
            let values: Vec<u8> = (0..order)
                .map(|f| ((t / VALUES.pow(f as u32)) % VALUES) as u8)
                .collect();
            let truth = brute(order, &membership, &values);
            match truth {
                None => forbidden += 1,
                Some((s, m)) if s | m != 0 => forced += 1,
                _ => {}
            }
            let mut padded = [0u8; 3];
            padded[..order].copy_from_slice(&values);
            if let Some(k) = class.kept.iter().find(|k| k.values == padded) {
                let cells = |regions: u8| -> u64 {
                    (0..membership.len())
                        .filter(|&j| regions >> membership[j] & 1 == 1)
                        .map(|j| 1 << j)
                        .sum()
                };
                match truth {
                    None => assert!(k.forbidden),
                    Some((s, m)) => {
                        assert!(!k.forbidden);
                        assert_eq!(
                            (cells(k.safe_regions), cells(k.mine_regions)),
                            (s, m),
                            "{values:?}"
                        );
                    }
                }
            }
            if order == 2 {
                // Covered by order 1 ⟺ a trivial focus.
                let na = closed[1] + closed[3];
                let nb = closed[2] + closed[3];
                let is_trivial = trivial(values[0], na) || trivial(values[1], nb);
                let kept = class.kept.iter().any(|k| k.values == padded);
                let concludes = match truth {
                    None => true,
                    Some((s, m)) => s | m != 0,
                };
                assert_eq!(kept, !is_trivial && concludes, "{closed:?} {values:?}");
            }
        }
        assert_eq!(
            (class.forced, class.forbidden),
            (forced, forbidden),
            "{closed:?}"
        );
        assert!(
            class.covered_order1 + class.covered_order2 + class.kept.len() as u32
                <= forced + forbidden
        );
    }

    #[test]
    fn matches_layout_enumeration() {
        for a in 0..=3 {
            check(1, [0, a, 0, 0, 0, 0, 0, 0]);
            for b in 0..=3 {
                for s in 0..=3 {
                    check(2, [0, a, b, s, 0, 0, 0, 0]);
                }
            }
        }
        check(3, [0, 2, 1, 1, 2, 1, 1, 0]);
        check(3, [0, 1, 2, 0, 3, 1, 2, 1]);
        check(3, [0, 0, 3, 2, 0, 0, 2, 0]);
    }

    #[test]
    fn one_two_one_on_a_wall() {
        // Three foci in a row under five closed cells, the 1-2-1:
        // ? ? ? ? ?
        // . 1 2 1 .     A sees cells 0..3, B 1..4, C 2..5 (regions by
        // membership: cell0 {A}, cell1 {A,B}, cell2 {A,B,C}, cell3 {B,C},
        // cell4 {C}). The pair A,B alone already forces cell 0 safe and
        // cell 3 a mine, so the triple is covered by order 2.
        let mut closed = [0u8; 8];
        closed[0b001] = 1;
        closed[0b011] = 1;
        closed[0b111] = 1;
        closed[0b110] = 1;
        closed[0b100] = 1;
        let class = classify(3, &closed);
        assert!(class.kept.iter().all(|k| k.values != [1, 2, 1]));
        assert!(class.covered_order2 > 0);
    }
}
