//! Runtime index of a rulebase and incremental matching over a board
//! (docs/design.md §3).
//!
//! # Where things are
//!
//! | module | its one job |
//! |---|---|
//! | this file | the lookup API: [`RuleIndex`], [`RuleIndex::find`], sizes |
//! | `layout` | the frame, slots and masks a rule's cells are packed into |
//! | `tables` | keys, entries and chains, the hash tables and the key filter |
//! | `build` | checking each rule once, its images, storing them as entries |
//! | `scan` | reading the board's numbers, lookups, checks, conclusions |
//! | `orient` | matching an index of one orientation per rule: the board turned 8 ways |
//! | [`tiers`](RuleTiers) | the per-order indexes the solver runs |
//! | [`frozen`] | the index as bytes (the embedded default's form) |
//! | [`saved`] | that form saved beside a rulebase file and trusted again |
//!
//! # What a match is
//!
//! A rule in one of its 8 orientations matches at a placement when every
//! pattern cell agrees with the board cell under it:
//!
//! | pattern      | board cell                                              |
//! |--------------|---------------------------------------------------------|
//! | `Any`        | anything, inside or outside the field                   |
//! | `Wall`       | outside the field                                       |
//! | `Open`       | not unknown — outside the field counts (a wall is never unknown) |
//! | `Closed`     | inside and [`Cell::Unknown`](crate::board::Cell::Unknown)                            |
//! | `Number(v)`  | inside, revealed, effective value `v` ([`Board::effective`]) |
//!
//! # In-memory layout
//!
//! Every rule is expanded into its distinct orientations (*images*; an
//! index of [`Orientations::One`] keeps one image per rule and turns the
//! board instead, `orient.rs`). In an
//! image the first focus in row-major order is the *anchor*; the others sit
//! at *slots*, offsets `(dr, dc)` from it with `0 ≤ dr ≤ 3`, `|dc| ≤ 3` and
//! `dc > 0` when `dr = 0` (they come after the anchor), numbered
//! `dr·7 + dc + 3` (so slot order is row-major order). Every neighbour of a
//! focus is a non-`Any` pattern cell, so the cells the image constrains are
//! the union `U` of the foci's 3×3 neighbourhoods plus, rarely, a few
//! explicit cells outside `U`. `U` fits a 6×9 *frame* of bits around the
//! anchor: frame bit `row·9 + col` is the board cell
//! `(anchor row − 1 + row, anchor col − 4 + col)`.
//!
//! Inside `U` an image is fully determined by
//! - which slots hold its other foci (a 28-bit set),
//! - the foci's effective values (4 bits each, anchor first, then by slot),
//! - the *closed mask*: the frame bits of `U` that are `Closed`,
//!
//! except for `Wall` cells (which read as "not closed" in the mask and need
//! the extra "outside the field" test). Those three parts are packed into one
//! `u128` key (`closed` in bits 0..54, slots in 54..82, values from 82), so
//! matching a placement is: build the key from the board, one hash lookup,
//! then the (usually absent) wall and extra-cell tests of the entries found.
//!
//! - An entry (one image, or identical images merged) is 16 bytes: the
//!   conclusion's safe and mine frame masks, the order and flags in their
//!   spare high bits. The rare wall / extra-cell tests and further entries
//!   under the same key (a chain, in the order the rules were given) live
//!   in small side maps. Orders 1, 2 and ≥ 3 have separate entry stores.
//! - Order 1 has no slots and its key is `(value, 3×3 closed mask)`, the
//!   *order-1 index* `value · 512 + mask9`: a dense table of `9 × 512`
//!   chain heads, no hashing.
//! - An index of order-1 rules alone (the solver's first tier) also holds
//!   them flattened: per `(value, closed mask)` — the board keeps each
//!   number's closed-neighbour mask ([`Board::closed_mask`]) — the union of
//!   the conclusions of every entry under that key, as direction masks
//!   (`order1_outcomes`, built from the chains when the index is built or
//!   loaded; left empty when an order-1 entry has wall or extra-cell
//!   tests). A dirty number is then one table read.
//! - Order 2 (almost every rule of the default rulebase) has the same
//!   information in 31 bits: both foci's order-1 indices and the slot (the
//!   two 3×3 masks are exactly the closed mask of `U`). An open-addressing
//!   table of 8-byte slots `key << 32 | entry`, at most two thirds full.
//! - Orders ≥ 3 use the `u128` key, kept beside their entries; their
//!   open-addressing table holds 8-byte slots `tag << 32 | entry` (a 32-bit
//!   tag of the key's hash).
//! - Both tables are guarded by one blocked Bloom filter (8 bits per key,
//!   two bits in one word) on their hashes: most placements match no rule,
//!   and the filter turns most of those away without touching a table.
//! - Which slot sets occur is kept per order as a prefix tree
//!   (`prefix → allowed next slots`; arrays for prefixes of 0 or 1 slot,
//!   which is all of orders 2 and 3), so placements are enumerated only over
//!   revealed numbers at slots some rule uses. Order 2 is enumerated
//!   directly: a number and each number at a slot offset of it.
//! - Per `(value, closed neighbours)`, the orders whose rules have a focus
//!   like that: a number that can never be a focus of an order is skipped
//!   before any mask is built, and is "not a focus" at all (one test) when
//!   no rule has such a focus.
//!
//! # Building
//!
//! [`RuleIndex::from_rules`] checks each rule once in its own orientation
//! on bit masks of its pattern (the checks do not depend on the
//! orientation), lists its few constrained cells, and maps just those cells
//! through the 8 symmetries with one linear formula each (a focus's 3×3
//! mask through a table) — no pattern is copied, nothing is allocated per
//! rule. The tables are sized from the rule counts by order up front.
//! Identical images of one rule (a symmetric rule) are stored once; images
//! of different rules with the same key, walls and extra cells are merged
//! into one entry (their conclusions are all sound, so is their union; a
//! forbidden one makes the merged entry forbidden). Merging is
//! order-independent, and every lookup tries every entry of a key, so the
//! result of a match never depends on the layout.
//!
//! # Reading the board
//!
//! Each revealed number's 3×3 closed mask is computed in a "spread" layout
//! with row stride 9, so placing it in the frame of any anchor is one shift:
//! the union's closed mask is the OR of the foci's shifted masks
//! (overlapping cells agree, both read the board). A full scan (or a long
//! dirty list) reads every cell once into a table; a short dirty list reads
//! numbers on demand through a small cache on the stack (every placement
//! around one dirty number lies within 7 rows and 13 columns of it, so a
//! 8 × 16 direct-mapped cache never evicts a number the same dirty number
//! needs again): the cost of a call is proportional to the dirty numbers,
//! not to the board. Pairs are probed without branching on the board's
//! contents (mispredicted branches dominated): first a bit mask of the
//! revealed cells at the pair offsets, then only those.
//!
//! # Order of output
//!
//! [`RuleIndex::find`] appends each proven cell once, sorted by cell, with
//! the lowest order of the rules that proved it.

use crate::board::{Board, Contradiction, Forced};
use hashbrown::HashMap;
use std::fmt;

mod build;
pub mod frozen;
mod layout;
mod orient;
pub mod saved;
mod scan;
mod tables;
mod tiers;

pub use layout::MAX_ORDER;
pub use tiers::RuleTiers;

use layout::{FocusClasses, Order1Outcome, NO_ENTRY, SLOTS};
use scan::finish;
use tables::{Check, Entry, EntryStore, ExtraCell, KeyFilter, KeyTable, PairTable, NO_CHECK};

/// A rule [`RuleIndex::new`] could not index, and why (the rule breaks the
/// rule invariants of docs/design.md §3, or is beyond what the index supports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RejectedRule {
    /// Position in the rule list given to the index.
    pub rule: usize,
    /// Why it was left out, in words.
    pub reason: String,
}

impl fmt::Display for RejectedRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rule {}: {}", self.rule, self.reason)
    }
}

/// How [`RuleIndex::find_with`] reads the revealed numbers around the
/// placements it examines. Not part of the library's API: public (and
/// hidden) only so that the property tests in `tests/suite/matcher.rs` can hold
/// every reading to the same naive oracle.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FociReading {
    /// A table for full scans and dirty lists of half the board or more;
    /// otherwise a small cache (an index of order 1 alone answers a dirty
    /// list from its flat table, when it has one).
    #[default]
    Auto,
    /// Read every cell once into a table first (cost ∝ board size).
    Table,
    /// Read each number when a placement first needs it and keep it in a
    /// small cache on the stack (cost ∝ dirty numbers).
    Cached,
}

/// Sizes of an index, for reports and benches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexStats {
    /// Rules indexed, by order (index = order).
    pub rules_by_order: Vec<usize>,
    /// Distinct orientations indexed, by order.
    pub images_by_order: Vec<usize>,
    /// Entries after merging identical images of different rules.
    pub entries: usize,
    /// Entries that are forbidden combinations.
    pub forbidden_entries: usize,
    /// Distinct keys of order ≥ 2 (hash table sizes).
    pub multi_keys: usize,
    /// Non-empty cells of the order-1 table.
    pub order1_keys: usize,
    /// Entries needing a wall or extra-cell test after the key matched.
    pub checked_entries: usize,
    /// Rules that could not be indexed.
    pub rejected: usize,
    /// The order-1 rules are also held as one flat table (see
    /// `RuleIndex::order1_outcomes`): false when some order-1 rule has a
    /// wall or extra-cell test, or there are none.
    pub order1_flattened: bool,
    /// Approximate heap size in bytes.
    pub heap_bytes: usize,
}

/// A rulebase prepared for fast matching. Build once per rulebase with
/// [`RuleIndex::new`]; [`RuleIndex::find`] does no allocation per placement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleIndex {
    /// Entries of order 1 (kept apart: few, and touched by most numbers),
    /// order 2, and orders ≥ 3.
    entries1: EntryStore,
    entries2: EntryStore,
    entries: EntryStore,
    extras: Vec<ExtraCell>,
    /// Order 1: `value · 512 + mask9` → chain head in `entries1`.
    order1: Vec<u32>,
    /// Order 1 again, flattened for the solver's most frequent call (a
    /// tier of order-1 rules over a dirty list): per `value · 256 +`
    /// [`Board::closed_mask`], the union of the conclusions of every entry
    /// under that key as direction masks ([`Order1Outcome`]). Empty when
    /// some order-1 entry has wall or extra-cell tests or concludes a cell
    /// outside its 3×3 (then the generic scan runs).
    order1_outcomes: Vec<Order1Outcome>,
    /// Order 2: pair key → first entry in `entries2`, hashed with
    /// [`pair_hash`].
    pairs: PairTable,
    /// Orders ≥ 3: key → first entry in `entries`, hashed with
    /// [`key_hash`].
    multi: KeyTable,
    /// Bloom filter over the keys of `pairs` and `multi`.
    filter: KeyFilter,
    /// Per order: slot-set prefix (bit set of slots) → slots that may come
    /// next (all above the prefix's last slot) on the way to a slot set
    /// some rule of that order uses. Prefixes of 0 or 1 slot (all of
    /// orders 2 and 3) in `next_short`: index 0 for the empty prefix,
    /// `1 + s` for `{s}`; longer ones in `next_long`.
    next_short: Vec<[u32; SLOTS as usize + 1]>,
    next_long: Vec<HashMap<u32, u32>>,
    /// Per order: every slot used by a rule of that order.
    slots_by_order: Vec<u32>,
    /// Every slot used by any rule of order ≥ 3.
    slots_above_2: u32,
    /// Per slot `s`: the other slots of the slot sets of order ≥ 3 holding
    /// `s` (where the other foci of a placement through slot `s` can be).
    co_slots_above_2: [u32; SLOTS as usize],
    /// Per `value · 9 + closed neighbours`: bit `k` set when some focus of
    /// a rule of order `k` has that effective value and that many closed
    /// neighbours.
    classes: FocusClasses,
    /// Highest order indexed (0 when empty).
    max_order: usize,
    rules_by_order: Vec<usize>,
    images_by_order: Vec<usize>,
    rejected: Vec<RejectedRule>,
    /// Which orientations of each rule are stored (see [`Orientations`]).
    orientations: Orientations,
}

/// Which orientations of each rule an index stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientations {
    /// Every distinct image of every rule: one scan of the board finds
    /// every match. The default, and what orders 1 and 2 always use.
    All,
    /// Each rule as given, once: the index is up to 8× smaller and `find`
    /// scans the board in each of its 8 orientations instead (see
    /// `orient.rs`). For large rulebases of order ≥ 3, which are consulted
    /// only when orders 1 and 2 find nothing.
    One,
}

/// The fields of a [`RuleIndex`] that follow from others, for building it
/// and for reading it back: the highest order with rules (0 when none),
/// and every slot used by a rule of order ≥ 3.
fn derived_fields(rules_by_order: &[usize], slots_by_order: &[u32]) -> (usize, u32) {
    let max_order = (1..rules_by_order.len())
        .rev()
        .find(|&k| rules_by_order[k] > 0)
        .unwrap_or(0);
    let slots_above_2 = slots_by_order.iter().skip(3).fold(0, |a, &b| a | b);
    (max_order, slots_above_2)
}

impl RuleIndex {
    /// Number of rules indexed.
    pub fn len(&self) -> usize {
        self.rules_by_order.iter().sum()
    }

    /// Whether no rule is indexed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Rules indexed by order (index = order, `0..=MAX_ORDER`).
    pub fn rules_by_order(&self) -> &[usize] {
        &self.rules_by_order
    }

    /// Highest order indexed (0 when empty).
    pub fn max_order(&self) -> usize {
        self.max_order
    }

    /// Rules left out, with the reason.
    pub fn rejected(&self) -> &[RejectedRule] {
        &self.rejected
    }

    /// Which orientations of each rule are stored.
    pub fn orientations(&self) -> Orientations {
        self.orientations
    }

    /// Every entry with its tests.
    fn all_entries(&self) -> impl Iterator<Item = (Entry, Check)> + '_ {
        [&self.entries1, &self.entries2, &self.entries]
            .into_iter()
            .flat_map(|store| {
                (0..store.entries.len() as u32)
                    .map(move |e| (store.entries[e as usize], store.check(e)))
            })
    }

    /// Sizes of the index.
    pub fn stats(&self) -> IndexStats {
        let heap_bytes = self.entries1.heap_bytes()
            + self.entries2.heap_bytes()
            + self.entries.heap_bytes()
            + std::mem::size_of_val(&*self.pairs.slots)
            + self.extras.capacity() * std::mem::size_of::<ExtraCell>()
            + self.order1.capacity() * std::mem::size_of::<u32>()
            + self.order1_outcomes.capacity() * std::mem::size_of::<Order1Outcome>()
            + std::mem::size_of_val(&*self.multi.slots)
            + std::mem::size_of_val(&*self.filter.words)
            + self
                .next_long
                .iter()
                .map(|m| m.capacity() * (std::mem::size_of::<(u32, u32)>() + 1))
                .sum::<usize>();
        IndexStats {
            rules_by_order: self.rules_by_order.clone(),
            images_by_order: self.images_by_order.clone(),
            entries: self.entries1.entries.len()
                + self.entries2.entries.len()
                + self.entries.entries.len(),
            forbidden_entries: self.all_entries().filter(|(e, _)| e.forbidden()).count(),
            multi_keys: self.pairs.len + self.multi.len,
            order1_keys: self.order1.iter().filter(|&&h| h != NO_ENTRY).count(),
            checked_entries: self
                .all_entries()
                .filter(|(_, check)| *check != NO_CHECK)
                .count(),
            rejected: self.rejected.len(),
            order1_flattened: !self.order1_outcomes.is_empty(),
            heap_bytes,
        }
    }

    /// Appends to `out` every cell some rule proves on `board`, each once
    /// (sorted by cell) with the lowest order of the rules proving it.
    ///
    /// `dirty`: the revealed numbers whose neighbourhood changed since the
    /// last call; only placements with a dirty focus are examined. `None`
    /// examines every placement. (A rule with a non-`Any` cell outside every
    /// focus's neighbourhood — the synthesizer makes none — is re-examined
    /// only when one of its foci is dirty, not when that cell alone
    /// changes.)
    ///
    /// Errors: a forbidden combination matches (the error names its foci),
    /// or two rules prove one cell both safe and mine (names the cell).
    /// On error `out` is left as it was.
    pub fn find(
        &self,
        board: &Board,
        dirty: Option<&[u32]>,
        out: &mut Vec<(Forced, u8)>,
    ) -> Result<(), Contradiction> {
        self.find_with(board, dirty, FociReading::Auto, out)
    }

    /// [`RuleIndex::find`] with an explicit choice of how the numbers are
    /// read. The result is the same for every choice; only the cost differs
    /// (for the property tests; hidden, like [`FociReading`]).
    #[doc(hidden)]
    pub fn find_with(
        &self,
        board: &Board,
        dirty: Option<&[u32]>,
        reading: FociReading,
        out: &mut Vec<(Forced, u8)>,
    ) -> Result<(), Contradiction> {
        if self.orientations == Orientations::One {
            return self.find_in_every_orientation(board, dirty, reading, out);
        }
        let start = out.len();
        let result = match (dirty, reading) {
            (Some(list), FociReading::Auto)
                if self.max_order == 1 && !self.order1_outcomes.is_empty() =>
            {
                self.order1_dirty(board, list, out)
            }
            _ => self.scan(board, dirty, reading, out),
        }
        .and_then(|()| finish(out, start));
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    /// For the solver: what an index of order-1 rules alone proves around
    /// the numbers of `list`, appended to `out` in the order found — not
    /// sorted, and a cell proven by two numbers appears twice (an
    /// inconsistent board can even give both values: the solver applies
    /// the first, and the other number is then impossible, which its next
    /// check reports). `None` when this index has no flat order-1 table
    /// (then use [`RuleIndex::find`]).
    pub(crate) fn find_order1_unsorted(
        &self,
        board: &Board,
        list: &[u32],
        out: &mut Vec<(Forced, u8)>,
    ) -> Option<Result<(), Contradiction>> {
        (self.max_order == 1 && !self.order1_outcomes.is_empty())
            .then(|| self.order1_dirty(board, list, out))
    }
}

#[cfg(test)]
mod tests;
