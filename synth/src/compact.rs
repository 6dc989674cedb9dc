//! A fixed-size, allocation-free copy of [`Rule`] used while synthesizing,
//! with the same order and the same symmetries, so that millions of
//! candidate rules can be built, compared and canonicalized without touching
//! the heap.
//!
//! The field order of [`CompactRule`] and the cell codes are chosen so that
//! the derived `Ord` agrees with the derived `Ord` of [`Rule`] (pattern
//! `h`, `w`, cells, then kind, safe, mine): the canonical form computed here
//! is exactly [`Rule::canonical`] (tested below).

use sapper_engine::rules::{Pattern, PatternCell, Rule, RuleKind};
use std::sync::OnceLock;

/// Largest pattern side handled (6×6 windows).
pub const MAX_SIDE: usize = 6;
/// Largest number of cells in a pattern.
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// Cell codes: the engine's one table ([`sapper_engine::rules::cell_code`]).
pub use sapper_engine::rules::cell_code::{ANY, CLOSED, NUMBER, OPEN, WALL};

/// Kind codes, ordered like [`RuleKind`].
pub const KIND_FORCED: u8 = 0;
pub const KIND_FORBIDDEN: u8 = 1;

/// A rule over an `h × w` pattern of at most 6×6 cells. Cells beyond
/// `h * w` are `ANY` (0) so equal rules have equal bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CompactRule {
    pub h: u8,
    pub w: u8,
    pub cells: [u8; MAX_CELLS],
    pub kind: u8,
    pub safe: u64,
    pub mine: u64,
}

/// How one symmetry moves the cells of an `h × w` pattern.
struct SymmetryMap {
    h2: u8,
    w2: u8,
    /// `to[i]`: where source cell `i` goes.
    to: [u8; MAX_CELLS],
    /// `from[j]`: which source cell lands on target cell `j`.
    from: [u8; MAX_CELLS],
}

/// `TABLES[(h - 1) * MAX_SIDE + (w - 1)][sym]`, built from the engine's own
/// [`Pattern::map_cell`] so both sides agree on what a symmetry is.
fn tables() -> &'static Vec<[SymmetryMap; 8]> {
    static TABLES: OnceLock<Vec<[SymmetryMap; 8]>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut all = Vec::with_capacity(MAX_SIDE * MAX_SIDE);
        for h in 1..=MAX_SIDE as u8 {
            for w in 1..=MAX_SIDE as u8 {
                all.push(std::array::from_fn(|sym| {
                    let mut map = SymmetryMap {
                        h2: 0,
                        w2: 0,
                        to: [0; MAX_CELLS],
                        from: [0; MAX_CELLS],
                    };
                    for r in 0..h as usize {
                        for c in 0..w as usize {
                            let ((r2, c2), (h2, w2)) = Pattern::map_cell(h, w, sym, r, c);
                            let i = r * w as usize + c;
                            let j = r2 * w2 as usize + c2;
                            map.h2 = h2;
                            map.w2 = w2;
                            map.to[i] = j as u8;
                            map.from[j] = i as u8;
                        }
                    }
                    map
                }));
            }
        }
        all
    })
}

#[inline]
fn symmetry(h: u8, w: u8, sym: usize) -> &'static SymmetryMap {
    &tables()[(h as usize - 1) * MAX_SIDE + (w as usize - 1)][sym]
}

#[inline]
fn move_bits(mut mask: u64, to: &[u8; MAX_CELLS]) -> u64 {
    let mut out = 0;
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        out |= 1u64 << to[i];
    }
    out
}

impl CompactRule {
    #[inline]
    pub fn cell_count(&self) -> usize {
        self.h as usize * self.w as usize
    }

    /// The image under symmetry `sym` (index into
    /// [`sapper_engine::rules::SYMMETRIES`]).
    pub fn transform(&self, sym: usize) -> CompactRule {
        let map = symmetry(self.h, self.w, sym);
        let mut cells = [ANY; MAX_CELLS];
        for (j, cell) in cells.iter_mut().enumerate().take(self.cell_count()) {
            *cell = self.cells[map.from[j] as usize];
        }
        CompactRule {
            h: map.h2,
            w: map.w2,
            cells,
            kind: self.kind,
            safe: move_bits(self.safe, &map.to),
            mine: move_bits(self.mine, &map.to),
        }
    }

    /// Whether this rule is the least of its 8 images, i.e. equal to its
    /// canonical form. Compares each image lazily and stops at the first
    /// differing cell, which settles most images after a few cells.
    pub fn is_canonical(&self) -> bool {
        let n = self.cell_count();
        'sym: for sym in 1..8 {
            let map = symmetry(self.h, self.w, sym);
            match (map.h2, map.w2).cmp(&(self.h, self.w)) {
                std::cmp::Ordering::Less => return false,
                std::cmp::Ordering::Greater => continue 'sym,
                std::cmp::Ordering::Equal => {}
            }
            for j in 0..n {
                let image = self.cells[map.from[j] as usize];
                match image.cmp(&self.cells[j]) {
                    std::cmp::Ordering::Less => return false,
                    std::cmp::Ordering::Greater => continue 'sym,
                    std::cmp::Ordering::Equal => {}
                }
            }
            // Same pattern (a symmetry of the pattern itself): the
            // conclusion decides.
            let image = (move_bits(self.safe, &map.to), move_bits(self.mine, &map.to));
            if image < (self.safe, self.mine) {
                return false;
            }
        }
        true
    }

    /// The least of the 8 images (the same representative as
    /// [`Rule::canonical`]).
    pub fn canonical(&self) -> CompactRule {
        (1..8).fold(*self, |best, sym| best.min(self.transform(sym)))
    }

    /// Number of distinct images under the 8 symmetries.
    pub fn orbit_size(&self) -> usize {
        let mut images: Vec<CompactRule> = (0..8).map(|s| self.transform(s)).collect();
        images.sort_unstable();
        images.dedup();
        images.len()
    }

    pub fn to_rule(&self) -> Rule {
        let cells = self.cells[..self.cell_count()]
            .iter()
            .map(|&code| {
                PatternCell::from_code(code).expect("a compact rule holds cell codes only")
            })
            .collect();
        Rule {
            pattern: Pattern::new(self.h, self.w, cells),
            kind: if self.kind == KIND_FORCED {
                RuleKind::Forced
            } else {
                RuleKind::Forbidden
            },
            safe: self.safe,
            mine: self.mine,
        }
    }

    /// `None` if the rule does not fit 6×6.
    pub fn from_rule(rule: &Rule) -> Option<CompactRule> {
        let p = &rule.pattern;
        if p.h == 0 || p.w == 0 || p.h as usize > MAX_SIDE || p.w as usize > MAX_SIDE {
            return None;
        }
        let mut cells = [ANY; MAX_CELLS];
        for (code, cell) in cells.iter_mut().zip(&p.cells) {
            *code = cell.code()?;
        }
        Some(CompactRule {
            h: p.h,
            w: p.w,
            cells,
            kind: match rule.kind {
                RuleKind::Forced => KIND_FORCED,
                RuleKind::Forbidden => KIND_FORBIDDEN,
            },
            safe: rule.safe,
            mine: rule.mine,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency needed).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
    }

    fn random_rule(rng: &mut Lcg) -> CompactRule {
        let h = 1 + (rng.next() % 6) as u8;
        let w = 1 + (rng.next() % 6) as u8;
        let mut cells = [ANY; MAX_CELLS];
        let (mut safe, mut mine) = (0, 0);
        for (i, cell) in cells.iter_mut().enumerate().take(h as usize * w as usize) {
            // Few distinct codes so that symmetric patterns occur often.
            *cell = match rng.next() % 6 {
                0 => ANY,
                1 => WALL,
                2 => OPEN,
                3 => NUMBER + (rng.next() % 2) as u8,
                _ => CLOSED,
            };
            if *cell == CLOSED {
                match rng.next() % 3 {
                    0 => safe |= 1 << i,
                    1 => mine |= 1 << i,
                    _ => {}
                }
            }
        }
        CompactRule {
            h,
            w,
            cells,
            kind: (rng.next() % 2) as u8,
            safe,
            mine,
        }
    }

    #[test]
    fn agrees_with_the_engine_on_transforms_and_canonical_forms() {
        let mut rng = Lcg(7);
        for _ in 0..3000 {
            let c = random_rule(&mut rng);
            let rule = c.to_rule();
            assert_eq!(CompactRule::from_rule(&rule), Some(c));
            for sym in 0..8 {
                assert_eq!(c.transform(sym).to_rule(), rule.transform(sym));
            }
            let canon = rule.canonical();
            assert_eq!(c.canonical().to_rule(), canon);
            assert_eq!(c.is_canonical(), rule == canon, "{:?}", rule.rows());
            assert!(c.canonical().is_canonical());
        }
    }

    #[test]
    fn symmetric_patterns_are_decided_by_their_conclusion() {
        // 1×3 "? 1 ?" with the mine on the left or on the right: the same
        // pattern, mirrored conclusions; exactly one is canonical.
        let mut cells = [ANY; MAX_CELLS];
        cells[..3].copy_from_slice(&[CLOSED, NUMBER + 1, CLOSED]);
        let left = CompactRule {
            h: 1,
            w: 3,
            cells,
            kind: KIND_FORCED,
            safe: 0b100,
            mine: 0b001,
        };
        let right = CompactRule {
            safe: 0b001,
            mine: 0b100,
            ..left
        };
        assert_ne!(left.is_canonical(), right.is_canonical());
        assert_eq!(left.canonical(), right.canonical());
        assert_eq!(left.orbit_size(), 4);
    }
}
