//! Runtime index of a rulebase and incremental matching over a board
//! (DESIGN.md §3).
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
//! | `Closed`     | inside and [`Cell::Unknown`]                            |
//! | `Number(v)`  | inside, revealed, effective value `v` ([`Board::effective`]) |
//!
//! # In-memory layout
//!
//! Every rule is expanded into its distinct orientations (*images*). In an
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
//! - Order 1 has no slots and its key is `(value, 3×3 closed mask)`: a dense
//!   table of `9 × 512` entry ranges, no hashing.
//! - Orders ≥ 2 share one `hashbrown` map `key → entry range` (the key
//!   stored as two `u64`s: 24-byte buckets), guarded by a blocked Bloom
//!   filter (8 bits per key, two bits in one word): most placements match no
//!   rule, and the filter turns most of those away without touching the map.
//! - Which slot sets occur is kept per order as a prefix tree
//!   (`prefix → allowed next slots`; arrays for prefixes of 0 or 1 slot,
//!   which is all of orders 2 and 3), so placements are enumerated only over
//!   revealed numbers at slots some rule uses.
//! - Per order, a 81-bit set of the `(value, closed neighbours)` pairs any
//!   focus of that order has lets a number that can never be a focus of that
//!   order be skipped before any mask is built.
//!
//! On the board side each revealed number's 3×3 closed mask is computed once
//! per call (a table for full scans and long dirty lists, on the fly
//! otherwise) in a "spread" layout with row stride 9, so placing it in the
//! frame of any anchor is one shift: the union's closed mask is the OR of
//! the foci's shifted masks (overlapping cells agree, both read the board).
//!
//! # Order of output
//!
//! [`RuleIndex::find`] appends each proven cell once, sorted by cell, with
//! the lowest order of the rules that proved it.

use crate::board::{Board, Cell, Contradiction, Forced, Value};
use crate::grid::Grid;
use crate::rules::{PatternCell, Rule, RuleKind, Rulebase};
use hashbrown::HashMap;
use std::fmt;

/// Width of the frame (columns `anchor col − 4 ..= anchor col + 4`).
const FRAME_W: usize = 9;
/// Height of the frame (rows `anchor row − 1 ..= anchor row + 4`).
const FRAME_H: usize = 6;
/// Frame row of the anchor.
const ANCHOR_FRAME_ROW: isize = 1;
/// Frame column of the anchor.
const ANCHOR_FRAME_COL: isize = 4;
/// Frame bits of one frame row.
const FRAME_ROW_BITS: u64 = (1 << FRAME_W) - 1;
/// Frame bits of frame column 0 (shift left by the column).
const FRAME_COL_BITS: u64 = 1 | 1 << 9 | 1 << 18 | 1 << 27 | 1 << 36 | 1 << 45;
/// Slots: offsets of non-anchor foci, `dr·7 + dc + 3`.
const SLOT_COLS: isize = 7;
const SLOTS: u32 = 28;
/// Slots `0..4` would be `dr = 0, dc ≤ 0`: before the anchor, never used.
const FIRST_SLOT: u32 = 4;
/// Shift of the spread 3×3 mask of the anchor into the frame.
const ANCHOR_SHIFT: u32 = 3;

const KEY_SLOTS_SHIFT: u32 = 54;
const KEY_VALUES_SHIFT: u32 = 82;

/// Highest order the key has room for (4 bits per focus value above bit 82).
pub const MAX_ORDER: usize = 11;

/// `(dr, dc)` of a slot.
#[inline]
fn slot_offset(slot: u32) -> (isize, isize) {
    (slot as isize / SLOT_COLS, slot as isize % SLOT_COLS - 3)
}

/// Shift that places a focus's spread 3×3 mask at `slot` in the frame: its
/// top-left neighbour is frame `(dr, dc + 3)`.
#[inline]
fn slot_shift(slot: u32) -> u32 {
    let (dr, dc) = slot_offset(slot);
    (dr * FRAME_W as isize + dc + 3) as u32
}

/// What a revealed number offers as a focus: its effective value, the
/// number of unknown neighbours, and which neighbours are unknown as a 3×3
/// mask (`mask9`, bit `3k + j`) and spread with row stride 9 (`spread`,
/// bit `9k + j`). `value == NOT_FOCUS` for cells that cannot be a focus
/// (not revealed, or an effective value outside `0..=8`, which no
/// `Number(v)` matches).
#[derive(Clone, Copy, Debug, Default)]
struct FocusInfo {
    spread: u32,
    mask9: u16,
    value: u8,
    unknown: u8,
}

const NOT_FOCUS: u8 = u8::MAX;
const NO_FOCUS: FocusInfo = FocusInfo {
    spread: 0,
    mask9: 0,
    value: NOT_FOCUS,
    unknown: 0,
};

/// Reads cell `i` as a focus: 9 reads of the board.
#[inline]
fn focus_info(cells: &[Cell], grid: Grid, i: u32) -> FocusInfo {
    let Cell::Revealed(n) = cells[i as usize] else {
        return NO_FOCUS;
    };
    let (r, c) = grid.rc(i);
    let mut mines = 0i32;
    let mut spread = 0u32;
    let mut mask9 = 0u16;
    for k in 0..3usize {
        let rr = (r + k).wrapping_sub(1);
        if rr >= grid.h {
            continue;
        }
        for j in 0..3usize {
            let cc = (c + j).wrapping_sub(1);
            if cc >= grid.w || (k == 1 && j == 1) {
                continue;
            }
            match cells[rr * grid.w + cc] {
                Cell::Mine => mines += 1,
                Cell::Unknown => {
                    spread |= 1 << (k * FRAME_W + j);
                    mask9 |= 1 << (k * 3 + j);
                }
                _ => {}
            }
        }
    }
    let effective = n as i32 - mines;
    if !(0..=8).contains(&effective) {
        return NO_FOCUS;
    }
    FocusInfo {
        spread,
        mask9,
        value: effective as u8,
        unknown: mask9.count_ones() as u8,
    }
}

/// Where [`FocusInfo`]s come from during one `find` call.
trait FocusSource {
    fn get(&self, i: u32) -> FocusInfo;
}

/// Computed on demand (short dirty lists on large boards).
struct LiveFoci<'b> {
    cells: &'b [Cell],
    grid: Grid,
}

impl FocusSource for LiveFoci<'_> {
    #[inline]
    fn get(&self, i: u32) -> FocusInfo {
        focus_info(self.cells, self.grid, i)
    }
}

/// Computed once for every cell (full scans, long dirty lists).
struct FociTable(Vec<FocusInfo>);

impl FocusSource for FociTable {
    #[inline]
    fn get(&self, i: u32) -> FocusInfo {
        self.0[i as usize]
    }
}

/// A blocked Bloom filter over the order ≥ 2 keys: two bits in one 64-bit
/// word per key, 8 bits per key (about 5% false positives). Most placements
/// match no rule; the filter (a few hundred KB, mostly cache-resident)
/// answers "no" for most of them without touching the large hash map.
#[derive(Clone, Debug)]
struct KeyFilter {
    words: Vec<u64>,
    mask: u64,
}

impl KeyFilter {
    fn new(keys: usize) -> KeyFilter {
        let words = (keys / 8).max(1).next_power_of_two();
        KeyFilter {
            words: vec![0; words],
            mask: words as u64 - 1,
        }
    }

    #[inline]
    fn hash(key: u128) -> u64 {
        let lo = key as u64;
        let hi = (key >> 64) as u64;
        let h = (lo.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ hi).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^ h >> 29
    }

    #[inline]
    fn bits(h: u64) -> u64 {
        1u64 << (h & 63) | 1u64 << (h >> 6 & 63)
    }

    fn insert(&mut self, key: u128) {
        let h = KeyFilter::hash(key);
        self.words[(h >> 12 & self.mask) as usize] |= KeyFilter::bits(h);
    }

    /// False only for keys never inserted.
    #[inline]
    fn may_contain(&self, key: u128) -> bool {
        let h = KeyFilter::hash(key);
        let b = KeyFilter::bits(h);
        self.words[(h >> 12 & self.mask) as usize] & b == b
    }
}

/// A map key of order ≥ 2 as two words (8-byte alignment keeps the map's
/// buckets at 24 bytes rather than the 32 a `u128` would need).
#[inline]
fn split(key: u128) -> (u64, u64) {
    (key as u64, (key >> 64) as u64)
}

/// A pattern cell outside the union of the foci's neighbourhoods that is
/// not `Any`, relative to the anchor. Checked literally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct ExtraCell {
    dr: i16,
    dc: i16,
    cell: PatternCell,
}

/// One image (or several identical images merged) under a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    /// Frame bits that must lie outside the field (`Wall` cells of `U`).
    walls: u64,
    /// Range in [`RuleIndex::extras`].
    extras_start: u32,
    extras_len: u32,
    order: u8,
    forbidden: bool,
    /// Conclusion, frame bits (0 for forbidden entries).
    safe: u64,
    mine: u64,
}

/// A rule [`RuleIndex::new`] could not index, and why (the rule breaks the
/// rule invariants of DESIGN.md §3, or is beyond what the index supports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RejectedRule {
    /// Position in the rule list given to the index.
    pub rule: usize,
    pub reason: String,
}

impl fmt::Display for RejectedRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rule {}: {}", self.rule, self.reason)
    }
}

/// How [`RuleIndex::find_with`] reads the revealed numbers around the
/// placements it examines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FociReading {
    /// A table for full scans and long dirty lists, on the fly otherwise.
    #[default]
    Auto,
    /// Read every cell once into a table first (cost ∝ board size).
    Table,
    /// Read each number when a placement needs it (cost ∝ dirty numbers).
    Live,
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
    /// Distinct keys of order ≥ 2 (hash map size).
    pub multi_keys: usize,
    /// Non-empty cells of the order-1 table.
    pub order1_keys: usize,
    /// Entries needing a wall or extra-cell test after the key matched.
    pub checked_entries: usize,
    /// Rules that could not be indexed.
    pub rejected: usize,
    /// Approximate heap size in bytes.
    pub heap_bytes: usize,
}

/// A rulebase prepared for fast matching. Build once per rulebase with
/// [`RuleIndex::new`]; [`RuleIndex::find`] does no allocation per placement.
#[derive(Clone, Debug)]
pub struct RuleIndex {
    entries: Vec<Entry>,
    extras: Vec<ExtraCell>,
    /// Order 1: `value · 512 + mask9` → entry range `(start, len)`.
    order1: Vec<(u32, u32)>,
    /// Orders ≥ 2: key → entry range.
    multi: HashMap<(u64, u64), (u32, u32)>,
    /// Bloom filter over the keys of `multi`.
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
    /// Every slot used by any rule of order ≥ 2.
    all_slots: u32,
    /// Per order: bit `value · 9 + unknown` set when some focus of a rule of
    /// that order has that effective value and that many closed neighbours.
    admissible: Vec<u128>,
    /// Highest order indexed (0 when empty).
    max_order: usize,
    rules_by_order: Vec<usize>,
    images_by_order: Vec<usize>,
    rejected: Vec<RejectedRule>,
}

/// Where an image goes in the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Slot {
    Order1(usize),
    Multi(u128),
}

/// An image ready to be stored.
struct Prepared {
    slot: Slot,
    entry: Entry,
    extras: Vec<ExtraCell>,
    /// The slot set of the non-anchor foci.
    slot_set: u32,
    /// `(value, closed neighbours)` of every focus.
    foci: Vec<(u8, u8)>,
}

impl RuleIndex {
    /// Indexes every rule of `rb` in all its orientations.
    pub fn new(rb: &Rulebase) -> RuleIndex {
        RuleIndex::from_rules(&rb.rules)
    }

    /// Indexes `rules` in all their orientations. Rules that break the rule
    /// invariants (a focus neighbour missing or `Any`, a conclusion on a
    /// non-`Closed` cell, …) or that the index cannot hold (order above
    /// [`MAX_ORDER`], foci more than 3 rows/columns from the first one) are
    /// left out and listed by [`RuleIndex::rejected`]; they are never
    /// matched approximately.
    pub fn from_rules(rules: &[Rule]) -> RuleIndex {
        let mut prepared: Vec<Prepared> = Vec::new();
        let mut rejected = Vec::new();
        let mut rules_by_order = vec![0usize; MAX_ORDER + 1];
        let mut images_by_order = vec![0usize; MAX_ORDER + 1];
        for (ri, rule) in rules.iter().enumerate() {
            let mut images: Vec<Rule> = Vec::with_capacity(8);
            for sym in 0..8 {
                let image = rule.transform(sym);
                if !images.contains(&image) {
                    images.push(image);
                }
            }
            let mut mine = Vec::with_capacity(images.len());
            let mut failure = None;
            for image in &images {
                match prepare(image) {
                    Ok(p) => mine.push(p),
                    Err(reason) => {
                        failure = Some(reason);
                        break;
                    }
                }
            }
            match failure {
                Some(reason) => rejected.push(RejectedRule { rule: ri, reason }),
                None => {
                    let order = rule.order() as usize;
                    rules_by_order[order] += 1;
                    images_by_order[order] += mine.len();
                    prepared.extend(mine);
                }
            }
        }

        let max_order = (1..=MAX_ORDER)
            .rev()
            .find(|&k| rules_by_order[k] > 0)
            .unwrap_or(0);
        let mut admissible = vec![0u128; MAX_ORDER + 1];
        let mut slots_by_order = vec![0u32; MAX_ORDER + 1];
        let mut next_short = vec![[0u32; SLOTS as usize + 1]; MAX_ORDER + 1];
        let mut next_long: Vec<HashMap<u32, u32>> = vec![HashMap::new(); MAX_ORDER + 1];
        for p in &prepared {
            let order = p.entry.order as usize;
            for &(v, u) in &p.foci {
                admissible[order] |= 1u128 << (v as u32 * 9 + u as u32);
            }
            slots_by_order[order] |= p.slot_set;
            // Walk the slot set in increasing slot order, recording at each
            // prefix which slot comes next.
            let mut prefix = 0u32;
            let mut rest = p.slot_set;
            while rest != 0 {
                let s = rest & rest.wrapping_neg();
                match prefix.count_ones() {
                    0 => next_short[order][0] |= s,
                    1 => next_short[order][1 + prefix.trailing_zeros() as usize] |= s,
                    _ => *next_long[order].entry(prefix).or_insert(0) |= s,
                }
                prefix |= s;
                rest &= rest - 1;
            }
        }
        let all_slots = slots_by_order.iter().skip(2).fold(0, |a, &b| a | b);

        // Deterministic storage: sort by key, then merge images that are the
        // same pattern (same key, walls, extra cells, order) — their
        // conclusions are all sound, so their union is; a forbidden one
        // makes the merged entry forbidden (no layout at all).
        prepared.sort_by(|a, b| {
            (
                a.slot,
                &a.extras,
                a.entry.walls,
                a.entry.order,
                a.entry.forbidden,
            )
                .cmp(&(
                    b.slot,
                    &b.extras,
                    b.entry.walls,
                    b.entry.order,
                    b.entry.forbidden,
                ))
        });
        let mut entries: Vec<Entry> = Vec::new();
        let mut extras: Vec<ExtraCell> = Vec::new();
        let mut order1 = vec![(0u32, 0u32); 9 * 512];
        let mut multi: HashMap<(u64, u64), (u32, u32)> = HashMap::new();
        let mut i = 0;
        while i < prepared.len() {
            let slot = prepared[i].slot;
            let start = entries.len() as u32;
            while i < prepared.len() && prepared[i].slot == slot {
                let p = &prepared[i];
                let same_as_last = entries.len() as u32 > start && {
                    let last = entries.last().expect("non-empty");
                    last.walls == p.entry.walls
                        && last.order == p.entry.order
                        && extras[last.extras_start as usize..][..last.extras_len as usize]
                            == p.extras[..]
                };
                if same_as_last {
                    let last = entries.last_mut().expect("non-empty");
                    last.forbidden |= p.entry.forbidden;
                    if last.forbidden {
                        last.safe = 0;
                        last.mine = 0;
                    } else {
                        last.safe |= p.entry.safe;
                        last.mine |= p.entry.mine;
                    }
                } else {
                    let mut e = p.entry;
                    e.extras_start = extras.len() as u32;
                    e.extras_len = p.extras.len() as u32;
                    extras.extend_from_slice(&p.extras);
                    entries.push(e);
                }
                i += 1;
            }
            let range = (start, entries.len() as u32 - start);
            match slot {
                Slot::Order1(idx) => order1[idx] = range,
                Slot::Multi(key) => {
                    multi.insert(split(key), range);
                }
            }
        }

        let mut filter = KeyFilter::new(multi.len());
        for &(lo, hi) in multi.keys() {
            filter.insert(lo as u128 | (hi as u128) << 64);
        }
        RuleIndex {
            entries,
            extras,
            order1,
            multi,
            filter,
            next_short,
            next_long,
            slots_by_order,
            all_slots,
            admissible,
            max_order,
            rules_by_order,
            images_by_order,
            rejected,
        }
    }

    /// Number of rules indexed.
    pub fn len(&self) -> usize {
        self.rules_by_order.iter().sum()
    }

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

    /// Sizes of the index.
    pub fn stats(&self) -> IndexStats {
        let heap_bytes = self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.extras.capacity() * std::mem::size_of::<ExtraCell>()
            + self.order1.capacity() * std::mem::size_of::<(u32, u32)>()
            + self.multi.capacity() * (std::mem::size_of::<((u64, u64), (u32, u32))>() + 1)
            + self.filter.words.len() * 8
            + self
                .next_long
                .iter()
                .map(|m| m.capacity() * (std::mem::size_of::<(u32, u32)>() + 1))
                .sum::<usize>();
        IndexStats {
            rules_by_order: self.rules_by_order.clone(),
            images_by_order: self.images_by_order.clone(),
            entries: self.entries.len(),
            forbidden_entries: self.entries.iter().filter(|e| e.forbidden).count(),
            multi_keys: self.multi.len(),
            order1_keys: self.order1.iter().filter(|r| r.1 > 0).count(),
            checked_entries: self
                .entries
                .iter()
                .filter(|e| e.walls != 0 || e.extras_len != 0)
                .count(),
            rejected: self.rejected.len(),
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
    /// (for benches and tests).
    pub fn find_with(
        &self,
        board: &Board,
        dirty: Option<&[u32]>,
        reading: FociReading,
        out: &mut Vec<(Forced, u8)>,
    ) -> Result<(), Contradiction> {
        let start = out.len();
        let result = self
            .scan(board, dirty, reading, out)
            .and_then(|()| finish(out, start));
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    fn scan(
        &self,
        board: &Board,
        dirty: Option<&[u32]>,
        reading: FociReading,
        out: &mut Vec<(Forced, u8)>,
    ) -> Result<(), Contradiction> {
        if self.max_order == 0 {
            return Ok(());
        }
        let grid = board.grid();
        let cells = board.cells();
        let n = grid.len();
        let use_table = match (reading, dirty) {
            (FociReading::Table, _) => true,
            (FociReading::Live, _) => false,
            (FociReading::Auto, None) => true,
            // A dirty number costs up to 1 + 24 anchors of up to 24 slots
            // each read on the fly; past about n / 512 dirty numbers reading
            // every cell once is cheaper.
            (FociReading::Auto, Some(d)) => d.len() * 512 >= n,
        };
        if use_table {
            let table = FociTable((0..n as u32).map(|i| focus_info(cells, grid, i)).collect());
            self.scan_with(&table, cells, grid, dirty, out)
        } else {
            self.scan_with(&LiveFoci { cells, grid }, cells, grid, dirty, out)
        }
    }

    fn scan_with<S: FocusSource>(
        &self,
        src: &S,
        cells: &[Cell],
        grid: Grid,
        dirty: Option<&[u32]>,
        out: &mut Vec<(Forced, u8)>,
    ) -> Result<(), Contradiction> {
        let mut scan = Scan {
            index: self,
            src,
            cells,
            grid,
            out,
        };
        match dirty {
            None => {
                for a in 0..grid.len() as u32 {
                    scan.anchor(a, None)?;
                }
            }
            Some(list) => {
                for &d in list {
                    if d as usize >= grid.len() || src.get(d).value == NOT_FOCUS {
                        continue;
                    }
                    // Placements where the dirty number is the anchor…
                    scan.anchor(d, None)?;
                    // …and where it is a later focus: the anchor sits one
                    // slot offset back.
                    if self.max_order >= 2 {
                        let (r, c) = grid.rc(d);
                        let mut slots = self.all_slots;
                        while slots != 0 {
                            let s = slots.trailing_zeros();
                            slots &= slots - 1;
                            let (dr, dc) = slot_offset(s);
                            let ar = r.wrapping_sub(dr as usize);
                            let ac = c.wrapping_sub(dc as usize);
                            if ar < grid.h && ac < grid.w {
                                scan.anchor((ar * grid.w + ac) as u32, Some(s))?;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Sorts what one `find` call appended, keeps the lowest order per cell, and
/// rejects a cell proven both ways.
fn finish(out: &mut Vec<(Forced, u8)>, start: usize) -> Result<(), Contradiction> {
    let tail = &mut out[start..];
    tail.sort_unstable_by_key(|&(f, order)| (f.cell, f.value, order));
    let mut kept = start;
    for i in start..out.len() {
        let (f, _) = out[i];
        if kept > start {
            let (prev, _) = out[kept - 1];
            if prev.cell == f.cell {
                if prev.value != f.value {
                    // Each rule's conclusion holds in every layout its foci
                    // allow; opposite conclusions leave no layout at all.
                    return Err(Contradiction::new(
                        vec![f.cell],
                        "rules prove this cell both safe and mine",
                    ));
                }
                // Same cell, same value, higher or equal order: already kept
                // with the lowest order (sorted by order within the cell).
                continue;
            }
        }
        out[kept] = out[i];
        kept += 1;
    }
    out.truncate(kept);
    Ok(())
}

/// Prepares one image: anchor, slots, key, frame masks, extra cells.
fn prepare(image: &Rule) -> Result<Prepared, String> {
    let p = &image.pattern;
    let (h, w) = (p.h as isize, p.w as isize);
    let order = image.order() as usize;
    if order == 0 {
        return Err("no focus number".into());
    }
    if order > MAX_ORDER {
        return Err(format!("order {order} above the supported {MAX_ORDER}"));
    }
    if p.cells.len() > 64 {
        return Err(format!("pattern {}×{} has more than 64 cells", p.h, p.w));
    }
    let forbidden = image.kind == RuleKind::Forbidden;
    if !forbidden && (image.safe | image.mine) == 0 {
        return Err("forced rule with an empty conclusion".into());
    }
    if image.safe & image.mine != 0 {
        return Err("a cell concluded both safe and mine".into());
    }
    let at = |r: isize, c: isize| -> Option<PatternCell> {
        (r >= 0 && c >= 0 && r < h && c < w).then(|| p.cells[(r * w + c) as usize])
    };
    let mut foci: Vec<(isize, isize, u8)> = Vec::with_capacity(order);
    for r in 0..h {
        for c in 0..w {
            if let Some(PatternCell::Number(v)) = at(r, c) {
                if v > 8 {
                    return Err(format!("focus at ({r},{c}) has value {v} above 8"));
                }
                foci.push((r, c, v));
            }
        }
    }
    let (ar, ac, _) = foci[0];
    let mut slot_set = 0u32;
    let mut slot_of = Vec::with_capacity(order);
    let mut focus_list = Vec::with_capacity(order);
    for &(r, c, v) in &foci {
        let mut closed = 0u8;
        for dr in -1..=1 {
            for dc in -1..=1 {
                if dr == 0 && dc == 0 {
                    continue;
                }
                match at(r + dr, c + dc) {
                    None | Some(PatternCell::Any) => {
                        return Err(format!(
                            "neighbour ({},{}) of focus ({r},{c}) is not in the pattern or is Any",
                            r + dr,
                            c + dc
                        ))
                    }
                    Some(PatternCell::Closed) => closed += 1,
                    Some(_) => {}
                }
            }
        }
        focus_list.push((v, closed));
        let (dr, dc) = (r - ar, c - ac);
        if (r, c) != (ar, ac) {
            if dr > 3 || dc.abs() > 3 {
                return Err(format!(
                    "focus ({r},{c}) is more than 3 rows or columns from focus ({ar},{ac})"
                ));
            }
            let slot = (dr * SLOT_COLS + dc + 3) as u32;
            debug_assert!((FIRST_SLOT..SLOTS).contains(&slot));
            slot_set |= 1 << slot;
            slot_of.push(slot);
        }
    }
    let in_union = |r: isize, c: isize| {
        foci.iter()
            .any(|&(fr, fc, _)| (fr - r).abs() <= 1 && (fc - c).abs() <= 1)
    };
    let frame_bit = |r: isize, c: isize| -> u64 {
        let fr = r - ar + ANCHOR_FRAME_ROW;
        let fc = c - ac + ANCHOR_FRAME_COL;
        debug_assert!((0..FRAME_H as isize).contains(&fr) && (0..FRAME_W as isize).contains(&fc));
        1u64 << (fr * FRAME_W as isize + fc)
    };
    let mut closed = 0u64;
    let mut walls = 0u64;
    let mut extras = Vec::new();
    let mut safe = 0u64;
    let mut mine = 0u64;
    for r in 0..h {
        for c in 0..w {
            let bit = (r * w + c) as u32;
            let cell = p.cells[bit as usize];
            let concluded = (image.safe | image.mine) >> bit & 1 == 1;
            if concluded && cell != PatternCell::Closed {
                return Err(format!("conclusion on ({r},{c}), which is not Closed"));
            }
            if in_union(r, c) {
                match cell {
                    PatternCell::Closed => closed |= frame_bit(r, c),
                    PatternCell::Wall => walls |= frame_bit(r, c),
                    _ => {}
                }
                if concluded && !forbidden {
                    if image.safe >> bit & 1 == 1 {
                        safe |= frame_bit(r, c);
                    } else {
                        mine |= frame_bit(r, c);
                    }
                }
            } else {
                if concluded {
                    return Err(format!("conclusion on ({r},{c}), next to no focus"));
                }
                if cell != PatternCell::Any {
                    extras.push(ExtraCell {
                        dr: (r - ar) as i16,
                        dc: (c - ac) as i16,
                        cell,
                    });
                }
            }
        }
    }
    let slot = if order == 1 {
        // The anchor's 3×3 sits at frame rows 0..3, columns 3..6.
        let mut mask9 = 0usize;
        for k in 0..3 {
            mask9 |= ((closed >> (k * FRAME_W + 3) & 7) as usize) << (3 * k);
        }
        Slot::Order1(foci[0].2 as usize * 512 + mask9)
    } else {
        let mut key = closed as u128 | (slot_set as u128) << KEY_SLOTS_SHIFT;
        // Values: anchor first, then by slot (= row-major order).
        key |= (foci[0].2 as u128) << KEY_VALUES_SHIFT;
        for (i, &(_, _, v)) in foci.iter().enumerate().skip(1) {
            key |= (v as u128) << (KEY_VALUES_SHIFT + 4 * i as u32);
        }
        Slot::Multi(key)
    };
    Ok(Prepared {
        slot,
        entry: Entry {
            walls,
            extras_start: 0,
            extras_len: 0,
            order: order as u8,
            forbidden,
            safe,
            mine,
        },
        extras,
        slot_set,
        foci: focus_list,
    })
}

/// Frame bits of the anchor at `(r, c)` that fall outside the field.
#[inline]
fn outside_mask(grid: Grid, r: usize, c: usize) -> u64 {
    let mut mask = 0u64;
    for fr in 0..FRAME_H {
        if (r + fr).wrapping_sub(ANCHOR_FRAME_ROW as usize) >= grid.h {
            mask |= FRAME_ROW_BITS << (fr * FRAME_W);
        }
    }
    for fc in 0..FRAME_W {
        if (c + fc).wrapping_sub(ANCHOR_FRAME_COL as usize) >= grid.w {
            mask |= FRAME_COL_BITS << fc;
        }
    }
    mask
}

/// One `find` call's scanning state.
struct Scan<'a, S> {
    index: &'a RuleIndex,
    src: &'a S,
    cells: &'a [Cell],
    grid: Grid,
    out: &'a mut Vec<(Forced, u8)>,
}

/// The placement being enumerated: its anchor and the foci chosen so far.
struct Placement {
    anchor: u32,
    r: usize,
    c: usize,
    /// Foci at slots, indexed by slot (valid where `candidates` has the bit).
    near: [FocusInfo; SLOTS as usize],
    /// Outside-the-field frame bits, computed when a wall test first needs
    /// them.
    outside: Option<u64>,
}

impl<S: FocusSource> Scan<'_, S> {
    /// Examines the placements anchored at `a`. With `required = Some(s)`
    /// only those with a focus at slot `s` (the dirty number), so order 1 is
    /// skipped.
    fn anchor(&mut self, a: u32, required: Option<u32>) -> Result<(), Contradiction> {
        let index = self.index;
        let fa = self.src.get(a);
        if fa.value == NOT_FOCUS {
            return Ok(());
        }
        let (r, c) = self.grid.rc(a);
        let mut place = Placement {
            anchor: a,
            r,
            c,
            near: [NO_FOCUS; SLOTS as usize],
            outside: None,
        };
        if required.is_none() {
            let (start, len) = index.order1[fa.value as usize * 512 + fa.mask9 as usize];
            for e in start..start + len {
                self.apply(e as usize, &mut place, 0)?;
            }
        }
        if index.max_order < 2 {
            return Ok(());
        }
        let fa_bit = 1u128 << (fa.value as u32 * 9 + fa.unknown as u32);
        let orders = (2..=index.max_order).filter(|&k| index.admissible[k] & fa_bit != 0);
        let mut candidates = 0u32;
        let mut read = false;
        for order in orders {
            if !read {
                // Revealed numbers at the slots some rule uses.
                read = true;
                let mut slots = index.all_slots;
                while slots != 0 {
                    let s = slots.trailing_zeros();
                    slots &= slots - 1;
                    let (dr, dc) = slot_offset(s);
                    let rr = r + dr as usize;
                    let cc = c.wrapping_add(dc as usize);
                    if rr < self.grid.h && cc < self.grid.w {
                        let f = self.src.get((rr * self.grid.w + cc) as u32);
                        if f.value != NOT_FOCUS {
                            place.near[s as usize] = f;
                            candidates |= 1 << s;
                        }
                    }
                }
                if let Some(s) = required {
                    if candidates >> s & 1 == 0 {
                        return Ok(());
                    }
                }
            }
            let mut usable = 0u32;
            let mut c2 = candidates & index.slots_by_order[order];
            while c2 != 0 {
                let s = c2.trailing_zeros();
                c2 &= c2 - 1;
                let f = place.near[s as usize];
                if index.admissible[order] >> (f.value as u32 * 9 + f.unknown as u32) & 1 == 1 {
                    usable |= 1 << s;
                }
            }
            let required_bit = required.map_or(0, |s| 1u32 << s);
            if usable & required_bit != required_bit || usable == 0 {
                continue;
            }
            let closed = (fa.spread as u64) << ANCHOR_SHIFT;
            let values = (fa.value as u128) << KEY_VALUES_SHIFT;
            self.extend(
                order,
                &mut place,
                usable,
                required_bit,
                0,
                1,
                closed,
                values,
            )?;
        }
        Ok(())
    }

    /// Adds the next focus (slots above the last one chosen) to the placement
    /// with slot set `prefix` and `depth` foci so far; at `order` foci, looks
    /// the key up.
    #[allow(clippy::too_many_arguments)]
    fn extend(
        &mut self,
        order: usize,
        place: &mut Placement,
        usable: u32,
        required_bit: u32,
        prefix: u32,
        depth: usize,
        closed: u64,
        values: u128,
    ) -> Result<(), Contradiction> {
        let index = self.index;
        let allowed = match prefix.count_ones() {
            0 => index.next_short[order][0],
            1 => index.next_short[order][1 + prefix.trailing_zeros() as usize],
            _ => index.next_long[order].get(&prefix).copied().unwrap_or(0),
        };
        // Slots strictly above the highest chosen one.
        let above = if prefix == 0 {
            u32::MAX
        } else {
            !((2u32 << (31 - prefix.leading_zeros())) - 1)
        };
        let mut choices = allowed & usable & above;
        if required_bit != 0 && prefix & required_bit == 0 {
            // The dirty focus must still be picked: nothing past it.
            choices &= (required_bit << 1) - 1;
        }
        while choices != 0 {
            let s = choices.trailing_zeros();
            choices &= choices - 1;
            let f = place.near[s as usize];
            let closed2 = closed | (f.spread as u64) << slot_shift(s);
            let values2 = values | (f.value as u128) << (KEY_VALUES_SHIFT + 4 * depth as u32);
            let prefix2 = prefix | 1 << s;
            if depth + 1 == order {
                if prefix2 & required_bit != required_bit {
                    continue;
                }
                let key = closed2 as u128 | (prefix2 as u128) << KEY_SLOTS_SHIFT | values2;
                if !index.filter.may_contain(key) {
                    continue;
                }
                if let Some(&(start, len)) = index.multi.get(&split(key)) {
                    for e in start..start + len {
                        self.apply(e as usize, place, prefix2)?;
                    }
                }
            } else {
                self.extend(
                    order,
                    place,
                    usable,
                    required_bit,
                    prefix2,
                    depth + 1,
                    closed2,
                    values2,
                )?;
            }
        }
        Ok(())
    }

    /// The key matched: the foci have the pattern's values and `U`'s closed
    /// cells are exactly the pattern's. Runs the entry's remaining tests and
    /// applies it.
    fn apply(
        &mut self,
        e: usize,
        place: &mut Placement,
        slot_set: u32,
    ) -> Result<(), Contradiction> {
        let index = self.index;
        let entry = index.entries[e];
        let grid = self.grid;
        if entry.walls != 0 {
            let outside = *place
                .outside
                .get_or_insert_with(|| outside_mask(grid, place.r, place.c));
            if entry.walls & !outside != 0 {
                return Ok(());
            }
        }
        for x in &index.extras[entry.extras_start as usize..][..entry.extras_len as usize] {
            let rr = place.r as isize + x.dr as isize;
            let cc = place.c as isize + x.dc as isize;
            let inside = rr >= 0 && cc >= 0 && (rr as usize) < grid.h && (cc as usize) < grid.w;
            let unknown = inside && self.cells[rr as usize * grid.w + cc as usize].is_unknown();
            let ok = match x.cell {
                PatternCell::Any => true,
                PatternCell::Wall => !inside,
                PatternCell::Open => !unknown,
                PatternCell::Closed => unknown,
                // Every Number is a focus, inside the union; never stored.
                PatternCell::Number(_) => false,
            };
            if !ok {
                return Ok(());
            }
        }
        let (r, c) = (place.r, place.c);
        let cell_of = |bit: u32| -> u32 {
            let fr = bit as usize / FRAME_W;
            let fc = bit as usize % FRAME_W;
            let rr = (r + fr).wrapping_sub(ANCHOR_FRAME_ROW as usize);
            let cc = (c + fc).wrapping_sub(ANCHOR_FRAME_COL as usize);
            (rr * grid.w + cc) as u32
        };
        if entry.forbidden {
            // A forbidden combination: no assignment of the pattern's closed
            // cells satisfies its foci (proven when the rule was made), and
            // the board shows exactly that pattern here.
            let mut foci = vec![place.anchor];
            let mut rest = slot_set;
            while rest != 0 {
                let s = rest.trailing_zeros();
                rest &= rest - 1;
                let (dr, dc) = slot_offset(s);
                foci.push(((r + dr as usize) * grid.w + c.wrapping_add(dc as usize)) as u32);
            }
            return Err(Contradiction::new(
                foci,
                format!("a forbidden combination of order {} matches", entry.order),
            ));
        }
        // A sound rule matched cell by cell: its foci have exactly the
        // pattern's values and closed neighbours, so in every layout
        // consistent with these numbers the concluded cells are safe / mines
        // (each is Closed in the pattern, hence unknown here).
        let mut safe = entry.safe;
        while safe != 0 {
            let b = safe.trailing_zeros();
            safe &= safe - 1;
            let cell = cell_of(b);
            self.out.push((
                Forced {
                    cell,
                    value: Value::Safe,
                },
                entry.order,
            ));
        }
        let mut mine = entry.mine;
        while mine != 0 {
            let b = mine.trailing_zeros();
            mine &= mine - 1;
            let cell = cell_of(b);
            self.out.push((
                Forced {
                    cell,
                    value: Value::Mine,
                },
                entry.order,
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Pattern;
    use PatternCell::*;

    fn board(rows: &[&str]) -> Board {
        // `?` unknown, `*` known mine, `.` known safe, digits revealed.
        let h = rows.len();
        let w = rows[0].len();
        let cells = rows
            .iter()
            .flat_map(|r| r.chars())
            .map(|ch| match ch {
                '?' => Cell::Unknown,
                '*' => Cell::Mine,
                '.' => Cell::Safe,
                d => Cell::Revealed(d.to_digit(10).expect("digit") as u8),
            })
            .collect();
        Board::new(Grid::new(h, w), cells, None)
    }

    /// `1 1` on a wall: the third cell under the second 1 is safe.
    ///   # # # #
    ///   # 1 1 .
    ///   # ? ? s
    fn one_one_wall() -> Rule {
        let cells = vec![
            Wall,
            Wall,
            Wall,
            Wall, //
            Wall,
            Number(1),
            Number(1),
            Open, //
            Wall,
            Closed,
            Closed,
            Closed,
        ];
        Rule {
            pattern: Pattern::new(3, 4, cells),
            kind: RuleKind::Forced,
            safe: 1 << 11,
            mine: 0,
        }
        .canonical()
    }

    #[test]
    fn a_rule_matches_in_every_corner_orientation() {
        let index = RuleIndex::from_rules(&[one_one_wall()]);
        assert_eq!(index.len(), 1);
        assert_eq!(index.stats().images_by_order[2], 8);
        // The same situation in the four corners, both directions.
        let cases: [(&[&str], u32); 4] = [
            (&["11.", "???"], 5),
            (&["???", ".11"], 0),
            (&["1?", "1?", ".?"], 5),
            (&["?.", "?1", "?1"], 0),
        ];
        for (rows, cell) in cases {
            let b = board(rows);
            let mut out = Vec::new();
            index.find(&b, None, &mut out).unwrap();
            assert_eq!(
                out,
                vec![(
                    Forced {
                        cell,
                        value: Value::Safe
                    },
                    2
                )],
                "{rows:?}"
            );
        }
        // Away from the wall the pattern does not match.
        let b = board(&["....", ".11.", "????"]);
        let mut out = Vec::new();
        index.find(&b, None, &mut out).unwrap();
        assert!(out.is_empty());
    }

    #[test]
    fn malformed_rules_are_rejected_with_a_reason() {
        let good = one_one_wall();
        let mut any_neighbour = good.clone();
        let focus = any_neighbour
            .pattern
            .cells
            .iter()
            .position(|c| matches!(c, Number(_)))
            .unwrap();
        let w = any_neighbour.pattern.w as usize;
        // A cell next to the first focus becomes Any.
        let next = if focus % w + 1 < w {
            focus + 1
        } else {
            focus - 1
        };
        if any_neighbour.safe >> next & 1 == 1 {
            any_neighbour.safe = 0;
        }
        any_neighbour.pattern.cells[next] = Any;
        let mut open_conclusion = good.clone();
        let open = open_conclusion
            .pattern
            .cells
            .iter()
            .position(|c| *c == Open)
            .unwrap();
        open_conclusion.mine = 1 << open;
        let no_focus = Rule {
            pattern: Pattern::new(1, 1, vec![Closed]),
            kind: RuleKind::Forbidden,
            safe: 0,
            mine: 0,
        };
        let mut empty = good.clone();
        empty.safe = 0;
        // Two foci 4 columns apart (window 7).
        let mut far = vec![Open; 3 * 7];
        far[8] = Number(0);
        far[12] = Number(0);
        far[7] = Closed;
        let far = Rule {
            pattern: Pattern::new(3, 7, far),
            kind: RuleKind::Forced,
            safe: 1 << 7,
            mine: 0,
        };
        let rules = [good, any_neighbour, open_conclusion, no_focus, empty, far];
        let index = RuleIndex::from_rules(&rules);
        assert_eq!(index.len(), 1);
        let rejected: Vec<usize> = index.rejected().iter().map(|r| r.rule).collect();
        assert_eq!(rejected, vec![1, 2, 3, 4, 5]);
        for r in index.rejected() {
            assert!(!r.reason.is_empty(), "{r}");
        }
    }

    /// A non-`Any` cell outside every focus neighbourhood is tested
    /// literally: here a `Closed` cell two columns right of a 0.
    #[test]
    fn extra_cells_outside_the_neighbourhoods_are_checked() {
        //   ? ? ? _ ?
        //   ? 0 ? _ .
        //   ? ? ? _ _
        let mut cells = vec![Closed; 15];
        cells[6] = Number(0);
        cells[3] = Any;
        cells[8] = Any;
        cells[13] = Any;
        cells[14] = Any;
        cells[4] = Closed;
        cells[9] = Open;
        let safe = [0, 1, 2, 5, 7, 10, 11, 12]
            .iter()
            .fold(0u64, |m, b| m | 1 << b);
        let rule = Rule {
            pattern: Pattern::new(3, 5, cells),
            kind: RuleKind::Forced,
            safe,
            mine: 0,
        };
        let index = RuleIndex::from_rules(&[rule]);
        assert!(index.rejected().is_empty());
        assert_eq!(index.stats().checked_entries, index.stats().entries);
        let mut out = Vec::new();
        index
            .find(&board(&["?????", "?0?.1", "?????"]), None, &mut out)
            .unwrap();
        assert_eq!(out.len(), 8, "extra cells unknown/open as required");
        out.clear();
        // (0,4) must be unknown — and (2,4) for the upside-down image.
        index
            .find(&board(&["????.", "?0?.1", "????."]), None, &mut out)
            .unwrap();
        assert_eq!(out.len(), 0);
        index
            .find(&board(&["????.", "?0?.1", "?????"]), None, &mut out)
            .unwrap();
        assert_eq!(out.len(), 8, "the upside-down image matches");
        out.clear();
        out.clear();
        // Outside the field counts as open, never as closed.
        index
            .find(&board(&["???", "?0?", "???"]), None, &mut out)
            .unwrap();
        assert_eq!(out.len(), 0);
    }

    #[test]
    fn outside_mask_marks_the_frame_cells_off_the_field() {
        let g = Grid::new(1, 1);
        let mask = outside_mask(g, 0, 0);
        // Only the anchor itself, frame (1, 4), is inside.
        assert_eq!(!mask & ((1u64 << 54) - 1), 1 << (9 + 4));
        let g = Grid::new(10, 10);
        assert_eq!(outside_mask(g, 5, 4), 0);
        assert_eq!(outside_mask(g, 5, 3), FRAME_COL_BITS);
        assert_eq!(outside_mask(g, 6, 4), FRAME_ROW_BITS << (5 * 9));
    }

    #[test]
    fn focus_info_reads_effective_values_and_closed_masks() {
        let b = board(&["?*?", "?3.", "2??"]);
        let f = focus_info(b.cells(), b.grid(), 4);
        assert_eq!((f.value, f.unknown), (2, 5));
        assert_eq!(f.mask9, 0b110_001_101);
        assert_eq!(f.spread, 0b11 << 19 | 1 << 9 | 0b101);
        // Corner: neighbours outside the field are not closed.
        let f = focus_info(b.cells(), b.grid(), 6);
        assert_eq!((f.value, f.unknown), (2, 2));
        // (1,0) is the 3×3's top middle, (2,1) its middle right.
        assert_eq!(f.mask9, 0b000_100_010);
        // Too many flags: no value any pattern has.
        let b = board(&["**", "1?"]);
        assert_eq!(focus_info(b.cells(), b.grid(), 2).value, NOT_FOCUS);
    }

    #[test]
    fn finish_keeps_the_lowest_order_once_per_cell() {
        let f = |cell, value| Forced { cell, value };
        let mut out = vec![
            (f(9, Value::Mine), 1),
            (f(3, Value::Safe), 3),
            (f(3, Value::Safe), 2),
            (f(1, Value::Mine), 2),
            (f(3, Value::Safe), 2),
        ];
        finish(&mut out, 1).unwrap();
        assert_eq!(
            out,
            vec![
                (f(9, Value::Mine), 1),
                (f(1, Value::Mine), 2),
                (f(3, Value::Safe), 2)
            ]
        );
        let mut out = vec![(f(3, Value::Safe), 1), (f(3, Value::Mine), 2)];
        assert_eq!(finish(&mut out, 0).unwrap_err().cells, vec![3]);
    }
}
