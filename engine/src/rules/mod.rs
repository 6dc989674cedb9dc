//! Rules: local patterns with a proven conclusion (docs/design.md §3).
//!
//! A [`Rule`] is a [`Pattern`] — an `h × w` rectangle of [`PatternCell`]s,
//! the bounding box of what the rule looks at (its *window* is
//! `max(h, w)`) — plus a conclusion: closed cells proven safe or mine
//! (a *forced* combination), or "no mine layout fits" (a *forbidden*
//! combination).
//!
//! The number of [`PatternCell::Number`] cells is the rule's *order*. Every
//! neighbour of a focus number lies inside the pattern and is not `Any`, so a
//! rule depends on nothing outside itself and a sound rule is sound on any
//! field.
//!
//! Symmetry: the 8 symmetries of the square act on patterns
//! ([`Pattern::transform`]); [`Rule::canonical`] picks one representative so
//! a rulebase never stores two images of the same rule.

use serde::{Deserialize, Serialize};

pub mod format;
#[doc(hidden)]
pub mod index;
pub mod learn;
pub mod load;
pub mod symmetry;
pub mod verify;

pub use index::saved;
pub use index::RuleTiers;
pub use symmetry::{map_point, SYMMETRIES};

/// The default rulebase (orders 1–2) exactly as committed in
/// `engine/rules/default.rules`, embedded so that solving needs no files
/// around: the one copy the binary, the benchmarks and the tests use.
/// Regenerate the file with `sapper synth --order 2 -o
/// engine/rules/default.rules` (which refreshes its saved index,
/// [`load::DEFAULT_INDEX`], too).
pub const DEFAULT_RULEBASE: &[u8] = include_bytes!("../../rules/default.rules");

/// [`DEFAULT_RULEBASE`] decoded. Its framing and checksum are checked; its
/// rules are not re-proven here — `tests/suite/default_rulebase.rs` proves these
/// exact bytes, rule by rule.
pub fn default_rulebase() -> Result<Rulebase, format::RulebaseError> {
    Rulebase::from_trusted_bytes(DEFAULT_RULEBASE)
}

/// How a rulebase was generated (stored in the file header).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GeneratorSettings {
    /// Highest order synthesized (1, 2 or 3).
    pub max_order: u8,
    /// Largest window `k` (patterns fit `k × k`).
    pub max_window: u8,
    /// Generator name and version, e.g. `sapper-synth 0.1.0`.
    pub generator: String,
    /// Free-form description of the enumerated space (e.g. `order 3:
    /// connected triples`), one entry per synth run that built the file.
    pub notes: Vec<String>,
}

/// A set of rules plus how they were made. Rules are canonical
/// ([`Rule::canonical`]), distinct, and sorted (derived `Ord`), so equal
/// rulebases serialize to equal bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rulebase {
    /// How the rules were generated (the file header's settings).
    pub settings: GeneratorSettings,
    /// The rules: canonical, distinct, sorted.
    pub rules: Vec<Rule>,
}

/// One cell of a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PatternCell {
    /// Not looked at.
    Any,
    /// Outside the field.
    Wall,
    /// Inside the field and not unknown: revealed, known safe, or a known
    /// mine. (A known mine is already subtracted from focus values.)
    Open,
    /// Inside the field and unknown.
    Closed,
    /// A focus: revealed, with this *effective* value (its number minus the
    /// known mines around it).
    Number(u8),
}

/// The one numeric code of each [`PatternCell`], for every binary form
/// that stores cells one by one (the frozen rule index, synth's compact
/// rules), ordered like the derived `Ord`. The rulebase file's packed
/// symbol stream has its own alphabet, fixed by the committed version-1
/// files (`rules::format`): it folds a rule's conclusions into its closed
/// cells.
pub mod cell_code {
    /// [`PatternCell::Any`](super::PatternCell::Any).
    pub const ANY: u8 = 0;
    /// [`PatternCell::Wall`](super::PatternCell::Wall).
    pub const WALL: u8 = 1;
    /// [`PatternCell::Open`](super::PatternCell::Open).
    pub const OPEN: u8 = 2;
    /// [`PatternCell::Closed`](super::PatternCell::Closed).
    pub const CLOSED: u8 = 3;
    /// `Number(v)` is coded `NUMBER + v`, `v ≤ 8`.
    pub const NUMBER: u8 = 4;
}

impl PatternCell {
    /// This cell's [`cell_code`]; `None` for a number above 8, which no
    /// valid rule holds.
    pub const fn code(self) -> Option<u8> {
        use cell_code::*;
        match self {
            PatternCell::Any => Some(ANY),
            PatternCell::Wall => Some(WALL),
            PatternCell::Open => Some(OPEN),
            PatternCell::Closed => Some(CLOSED),
            PatternCell::Number(v) if v <= 8 => Some(NUMBER + v),
            PatternCell::Number(_) => None,
        }
    }

    /// The cell of a [`cell_code`]; `None` for a code no cell has.
    pub const fn from_code(code: u8) -> Option<PatternCell> {
        use cell_code::*;
        Some(match code {
            ANY => PatternCell::Any,
            WALL => PatternCell::Wall,
            OPEN => PatternCell::Open,
            CLOSED => PatternCell::Closed,
            NUMBER..=12 => PatternCell::Number(code - NUMBER),
            _ => return None,
        })
    }

    /// Character used by `rules show` / `rules export` (`?` closed, `.` open,
    /// `#` wall, `_` any, digits for foci). Conclusions (`s`, `m`) are drawn
    /// by [`Rule::rows`].
    pub fn to_char(self) -> char {
        match self {
            PatternCell::Any => '_',
            PatternCell::Wall => '#',
            PatternCell::Open => '.',
            PatternCell::Closed => '?',
            PatternCell::Number(v) => (b'0' + v) as char,
        }
    }
}

/// An `h × w` rectangle of pattern cells, row-major.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pattern {
    /// Number of rows.
    pub h: u8,
    /// Number of columns: the stride of the row-major cell index.
    pub w: u8,
    /// The `h * w` cells, row-major (cell `(r, c)` at `r * w + c`).
    pub cells: Vec<PatternCell>,
}

/// What a rule concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RuleKind {
    /// At least one closed cell is forced (see `safe` / `mine`).
    Forced,
    /// No mine layout satisfies the pattern.
    Forbidden,
}

/// A pattern with its conclusion. `safe` and `mine` are bit masks over the
/// pattern's cells (bit `r * w + c`), set only on `Closed` cells; both are 0
/// for a forbidden rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Rule {
    /// What the rule looks at.
    pub pattern: Pattern,
    /// Whether it forces cells or forbids the pattern.
    pub kind: RuleKind,
    /// The `Closed` cells proven safe: bit `r * w + c` of the pattern.
    pub safe: u64,
    /// The `Closed` cells proven mines: bit `r * w + c` of the pattern.
    pub mine: u64,
}

impl Pattern {
    /// The `h × w` pattern of `cells` (row-major). Panics unless there are
    /// exactly `h * w` cells.
    pub fn new(h: u8, w: u8, cells: Vec<PatternCell>) -> Pattern {
        assert_eq!(cells.len(), h as usize * w as usize);
        Pattern { h, w, cells }
    }

    /// The cell at row `r`, column `c` (0-based; panics outside the
    /// pattern's cells).
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> PatternCell {
        self.cells[r * self.w as usize + c]
    }

    /// The window size `k` (the pattern fits a `k × k` mini-field).
    pub fn window(&self) -> u8 {
        self.h.max(self.w)
    }

    /// Number of focus numbers.
    pub fn order(&self) -> u8 {
        self.cells
            .iter()
            .filter(|c| matches!(c, PatternCell::Number(_)))
            .count() as u8
    }

    /// Where cell `(r, c)` goes under symmetry `sym` (index into
    /// [`SYMMETRIES`]), and the transformed shape `(h', w')`.
    #[inline]
    pub fn map_cell(h: u8, w: u8, sym: usize, r: usize, c: usize) -> ((usize, usize), (u8, u8)) {
        let (to, (h2, w2)) = map_point(h as usize, w as usize, sym, r, c);
        (to, (h2 as u8, w2 as u8))
    }

    /// The image of this pattern under symmetry `sym`, with the bit mapping
    /// applied to `masks` as well.
    pub fn transform_with_masks(&self, sym: usize, masks: &[u64]) -> (Pattern, Vec<u64>) {
        let (_, (h2, w2)) = Pattern::map_cell(self.h, self.w, sym, 0, 0);
        let mut cells = vec![PatternCell::Any; self.cells.len()];
        let mut out = vec![0u64; masks.len()];
        for r in 0..self.h as usize {
            for c in 0..self.w as usize {
                let ((r2, c2), _) = Pattern::map_cell(self.h, self.w, sym, r, c);
                let from = r * self.w as usize + c;
                let to = r2 * w2 as usize + c2;
                cells[to] = self.cells[from];
                for (m, o) in masks.iter().zip(out.iter_mut()) {
                    if m >> from & 1 == 1 {
                        *o |= 1 << to;
                    }
                }
            }
        }
        (Pattern::new(h2, w2, cells), out)
    }

    /// The image of this pattern under symmetry `sym` (index into
    /// [`SYMMETRIES`]).
    pub fn transform(&self, sym: usize) -> Pattern {
        self.transform_with_masks(sym, &[]).0
    }
}

impl Rule {
    /// The rule's order: the number of focus numbers in its pattern.
    pub fn order(&self) -> u8 {
        self.pattern.order()
    }

    /// The rule's window size `k` (its pattern fits a `k × k` mini-field).
    pub fn window(&self) -> u8 {
        self.pattern.window()
    }

    /// The image of this rule under symmetry `sym`.
    pub fn transform(&self, sym: usize) -> Rule {
        let (pattern, m) = self
            .pattern
            .transform_with_masks(sym, &[self.safe, self.mine]);
        Rule {
            pattern,
            kind: self.kind,
            safe: m[0],
            mine: m[1],
        }
    }

    /// The representative of this rule's orbit under the 8 symmetries: the
    /// least image in the derived `Ord` (shape, then cells, then
    /// conclusion). Two rules are symmetric images iff their canonical forms
    /// are equal.
    pub fn canonical(&self) -> Rule {
        (0..8)
            .map(|s| self.transform(s))
            .min()
            .expect("8 symmetries")
    }

    /// The pattern drawn as rows of characters, conclusions included (`s`
    /// closed and safe, `m` closed and mine).
    pub fn rows(&self) -> Vec<String> {
        let w = self.pattern.w as usize;
        (0..self.pattern.h as usize)
            .map(|r| {
                (0..w)
                    .map(|c| {
                        let bit = 1u64 << (r * w + c);
                        if self.safe & bit != 0 {
                            's'
                        } else if self.mine & bit != 0 {
                            'm'
                        } else {
                            self.pattern.get(r, c).to_char()
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cell codes are a bijection between the cells of valid rules and
    /// the codes 0..=12, ordered like the cells.
    #[test]
    fn every_pattern_cell_has_one_code_and_back() {
        let mut cells = vec![
            PatternCell::Any,
            PatternCell::Wall,
            PatternCell::Open,
            PatternCell::Closed,
        ];
        cells.extend((0..=8).map(PatternCell::Number));
        let codes: Vec<u8> = cells.iter().map(|c| c.code().unwrap()).collect();
        assert_eq!(codes, (0..=12).collect::<Vec<u8>>());
        for code in 0..=u8::MAX {
            match PatternCell::from_code(code) {
                Some(cell) => assert_eq!(cell.code(), Some(code)),
                None => assert!(code > 12),
            }
        }
        assert_eq!(PatternCell::Number(9).code(), None);
        assert!(cells.windows(2).all(|w| w[0] < w[1]));
    }
    use PatternCell::*;

    fn l_shape() -> Rule {
        // 2×3, asymmetric.
        Rule {
            pattern: Pattern::new(2, 3, vec![Closed, Open, Wall, Number(1), Any, Any]),
            kind: RuleKind::Forced,
            safe: 1,
            mine: 0,
        }
    }

    #[test]
    fn eight_distinct_images_share_one_canonical_form() {
        let r = l_shape();
        let images: Vec<Rule> = (0..8).map(|s| r.transform(s)).collect();
        for a in 0..8 {
            for b in a + 1..8 {
                assert_ne!(images[a], images[b], "symmetries {a} and {b}");
            }
        }
        let canon = r.canonical();
        for img in &images {
            assert_eq!(img.canonical(), canon);
        }
    }

    #[test]
    fn masks_follow_their_cells() {
        let r = l_shape();
        for s in 0..8 {
            let t = r.transform(s);
            let pos = t.safe.trailing_zeros() as usize;
            assert_eq!(t.pattern.cells[pos], Closed);
            assert_eq!(t.safe.count_ones(), 1);
        }
    }
}
