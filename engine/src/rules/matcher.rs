//! Runtime index of a rulebase and incremental matching over a board
//! (docs/design.md §3).
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

use crate::board::{Board, Cell, Contradiction, Forced, Value};
use crate::grid::Grid;
use crate::rules::{PatternCell, Rule, RuleKind, Rulebase, SYMMETRIES};
use hashbrown::HashMap;
use std::fmt;

pub mod frozen;

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

/// End of an entry chain.
const NO_ENTRY: u32 = u32::MAX;

/// `(dr, dc)` of a slot.
#[inline]
fn slot_offset(slot: u32) -> (isize, isize) {
    SLOT_OFFSETS[slot as usize]
}

/// `(dr, dc)` of every slot.
const SLOT_OFFSETS: [(isize, isize); SLOTS as usize] = {
    let mut offsets = [(0, 0); SLOTS as usize];
    let mut s = 0;
    while s < SLOTS as usize {
        offsets[s] = (s as isize / SLOT_COLS, s as isize % SLOT_COLS - 3);
        s += 1;
    }
    offsets
};

/// Shift that places a focus's spread 3×3 mask at `slot` in the frame: its
/// top-left neighbour is frame `(dr, dc + 3)`.
#[inline]
fn slot_shift(slot: u32) -> u32 {
    let (dr, dc) = slot_offset(slot);
    (dr * FRAME_W as isize + dc + 3) as u32
}

/// What a revealed number offers as a focus: which neighbours are unknown,
/// spread with row stride 9 (`spread`, bit `9k + j` for the neighbour at
/// row `k`, column `j` of its 3×3), its effective value and the 3×3 mask of
/// unknown neighbours as the order-1 table index (`value · 512 + mask9`,
/// mask bit `3k + j`), and the orders it can be a focus of (`orders`, bit
/// `k` for order `k`: some focus of a rule of that order has this value and
/// this many closed neighbours). `orders == 0` for every cell that cannot
/// be a focus of any rule: not revealed, an effective value outside `0..=8`
/// (which no `Number(v)` matches), or a value and count no rule has.
#[derive(Clone, Copy, Debug, Default)]
struct FocusInfo {
    spread: u32,
    order1: u16,
    orders: u16,
}

impl FocusInfo {
    #[inline]
    fn value(self) -> u8 {
        (self.order1 >> 9) as u8
    }
}

const NO_FOCUS: FocusInfo = FocusInfo {
    spread: 0,
    order1: 0,
    orders: 0,
};

/// `orders` bits.
const ORDER_1: u16 = 1 << 1;
const ORDER_2: u16 = 1 << 2;
const ORDERS_ABOVE_2: u16 = !0b111;

/// Per `value · 9 + unknown neighbours`: the orders a number can be a focus
/// of (see [`FocusInfo::orders`]).
type FocusClasses = [u16; 81];

/// Per closed-neighbour mask of [`Board::closed_mask`] (bit `d` for
/// direction `d` of [`crate::grid::DIRECTIONS`]): the same cells in a 3×3
/// box laid out with row stride `stride` (the number at bit `stride + 1`).
const fn closed_mask_layout(stride: usize) -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut m = 0;
    while m < 256 {
        let mut d = 0;
        while d < 8 {
            if m >> d & 1 == 1 {
                let (dr, dc) = crate::grid::DIRECTIONS[d];
                t[m] |= 1 << ((dr + 1) as usize * stride + (dc + 1) as usize);
            }
            d += 1;
        }
        m += 1;
    }
    t
}

/// Closed mask → "spread" mask (row stride [`FRAME_W`]).
const SPREAD_OF_CLOSED: [u32; 256] = closed_mask_layout(FRAME_W);

/// Closed mask → row-major 3×3 mask (bit `3·row + col`), the order-1
/// key's mask.
const MASK9_OF_CLOSED: [u32; 256] = closed_mask_layout(3);

/// What the order-1 rules conclude around a number with a given effective
/// value and closed-neighbour mask, in one word: the directions
/// ([`crate::grid::DIRECTIONS`]) proven safe (bits 0..8) and proven mine
/// (bits 8..16), and [`Order1Outcome::FORBIDDEN`]. 0: nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Order1Outcome(u32);

impl Order1Outcome {
    const NOTHING: Order1Outcome = Order1Outcome(0);
    const FORBIDDEN: u32 = 1 << 16;

    #[inline]
    fn safe(self) -> u8 {
        self.0 as u8
    }
    #[inline]
    fn mine(self) -> u8 {
        (self.0 >> 8) as u8
    }
    #[inline]
    fn forbidden(self) -> bool {
        self.0 & Self::FORBIDDEN != 0
    }
}

/// Reads cell `(r, c)` (inside the grid) as a focus: two reads of the
/// board's kept state (the cell, then its counters and closed mask).
#[inline]
fn focus_info(board: &Board, classes: &FocusClasses, r: usize, c: usize) -> FocusInfo {
    let i = (r * board.grid().w + c) as u32;
    // The board keeps every number's (effective value, unknown neighbours)
    // and closed-neighbour mask up to date: a number that cannot be a
    // focus of any indexed order is turned away at once.
    let Some((effective, unknown)) = board.effective(i) else {
        return NO_FOCUS;
    };
    if !(0..=8).contains(&effective) {
        return NO_FOCUS;
    }
    let orders = classes[effective as usize * 9 + unknown as usize];
    if orders == 0 {
        return NO_FOCUS;
    }
    let closed = board.closed_mask(i) as usize;
    FocusInfo {
        spread: SPREAD_OF_CLOSED[closed],
        order1: (effective as u32 * 512 + MASK9_OF_CLOSED[closed]) as u16,
        orders,
    }
}

/// Where [`FocusInfo`]s come from during one `find` call. `(r, c)` is
/// always inside the grid.
trait FocusSource {
    fn get(&mut self, r: usize, c: usize) -> FocusInfo;
}

/// Computed on demand, every time ([`FociReading::Live`]).
struct LiveFoci<'b> {
    board: &'b Board,
    classes: &'b FocusClasses,
}

impl FocusSource for LiveFoci<'_> {
    #[inline]
    fn get(&mut self, r: usize, c: usize) -> FocusInfo {
        focus_info(self.board, self.classes, r, c)
    }
}

/// Computed once for every cell (full scans, long dirty lists).
struct FociTable {
    foci: Vec<FocusInfo>,
    w: usize,
}

impl FociTable {
    fn new(board: &Board, classes: &FocusClasses) -> FociTable {
        let grid = board.grid();
        let mut foci = Vec::with_capacity(grid.len());
        for r in 0..grid.h {
            for c in 0..grid.w {
                foci.push(focus_info(board, classes, r, c));
            }
        }
        FociTable { foci, w: grid.w }
    }
}

impl FocusSource for FociTable {
    #[inline]
    fn get(&mut self, r: usize, c: usize) -> FocusInfo {
        self.foci[r * self.w + c]
    }
}

/// Rows and columns of [`CachedFoci`]: powers of two at least 7 and 13, the
/// extent of the cells any placement through one number reads (anchor up to
/// 3 rows above it, foci up to 3 rows below the anchor; up to 3 + 3
/// columns either side).
const CACHE_ROWS: usize = 8;
const CACHE_COLS: usize = 16;

/// Computed on demand and kept in a direct-mapped cache indexed by
/// `(r mod 8, c mod 16)`: the numbers around one dirty number never evict
/// each other, and neighbouring dirty numbers share most of them. Lives on
/// the stack: no allocation, no cost proportional to the board.
struct CachedFoci<'b> {
    board: &'b Board,
    grid: Grid,
    classes: &'b FocusClasses,
    /// Cell index held by each cache line (`u32::MAX`: none).
    tags: [u32; CACHE_ROWS * CACHE_COLS],
    foci: [FocusInfo; CACHE_ROWS * CACHE_COLS],
}

impl<'b> CachedFoci<'b> {
    fn new(board: &'b Board, classes: &'b FocusClasses) -> CachedFoci<'b> {
        CachedFoci {
            board,
            grid: board.grid(),
            classes,
            tags: [u32::MAX; CACHE_ROWS * CACHE_COLS],
            foci: [NO_FOCUS; CACHE_ROWS * CACHE_COLS],
        }
    }
}

impl FocusSource for CachedFoci<'_> {
    #[inline]
    fn get(&mut self, r: usize, c: usize) -> FocusInfo {
        let i = r * self.grid.w + c;
        // About half the cells around a number are not revealed: one read
        // settles those without touching the cache.
        if !matches!(self.board.cells()[i], Cell::Revealed(_)) {
            return NO_FOCUS;
        }
        let i = i as u32;
        let line = (r % CACHE_ROWS) * CACHE_COLS + c % CACHE_COLS;
        if self.tags[line] == i {
            return self.foci[line];
        }
        let f = focus_info(self.board, self.classes, r, c);
        self.tags[line] = i;
        self.foci[line] = f;
        f
    }
}

/// The hash of a key of order ≥ 2, for both the table and the filter: a
/// folded 128-bit multiply (every output bit depends on every key bit),
/// twice.
#[inline]
fn key_hash(lo: u64, hi: u64) -> u64 {
    #[inline]
    fn fold(a: u64, b: u64) -> u64 {
        let p = a as u128 * b as u128;
        p as u64 ^ (p >> 64) as u64
    }
    fold(
        fold(lo ^ 0x243F_6A88_85A3_08D3, hi ^ 0x1319_8A2E_0370_7344),
        0x9E37_79B9_7F4A_7C15,
    )
}

/// A blocked Bloom filter over the order ≥ 2 keys: two bits in one 64-bit
/// word per key, 8 bits per key (about 5% false positives). Most placements
/// match no rule; the filter (a few hundred KB, mostly cache-resident)
/// answers "no" for most of them without touching the large hash table.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    fn bits(h: u64) -> u64 {
        1u64 << (h & 63) | 1u64 << (h >> 6 & 63)
    }

    fn insert(&mut self, hash: u64) {
        self.words[(hash >> 12 & self.mask) as usize] |= KeyFilter::bits(hash);
    }

    /// False only for hashes never inserted.
    #[inline]
    fn may_contain(&self, hash: u64) -> bool {
        let b = KeyFilter::bits(hash);
        self.words[(hash >> 12 & self.mask) as usize] & b == b
    }
}

/// A pattern cell outside the union of the foci's neighbourhoods that is
/// not `Any`, relative to the anchor. Checked literally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct ExtraCell {
    dr: i16,
    dc: i16,
    cell: PatternCell,
}

/// One image (or several identical images merged), in 16 bytes: its
/// conclusion, with its order and flags in the spare high bits (frame masks
/// use bits 0..54). Keys live in the tables (order 1, 2) or beside the
/// entries (orders ≥ 3); wall and extra-cell tests and further entries
/// under the same key — rare — in [`EntryStore`]'s maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    /// Frame bits concluded safe, plus `order << META_ORDER_SHIFT` and the
    /// `META_*` flags.
    safe_meta: u64,
    /// Frame bits concluded mine.
    mine: u64,
}

/// The frame bits of a mask.
const FRAME_BITS: u64 = (1 << (FRAME_W * FRAME_H)) - 1;
/// [`Entry::safe_meta`]: the order (4 bits), then flags.
const META_ORDER_SHIFT: u32 = 54;
/// A forbidden combination (safe and mine are 0).
const META_FORBIDDEN: u64 = 1 << 58;
/// Another entry follows under the same key ([`EntryStore::next`]).
const META_NEXT: u64 = 1 << 59;
/// The entry has wall or extra-cell tests ([`EntryStore::checks`]).
const META_CHECKED: u64 = 1 << 60;

impl Entry {
    #[inline]
    fn safe(self) -> u64 {
        self.safe_meta & FRAME_BITS
    }
    #[inline]
    fn order(self) -> u8 {
        (self.safe_meta >> META_ORDER_SHIFT & 15) as u8
    }
    #[inline]
    fn forbidden(self) -> bool {
        self.safe_meta & META_FORBIDDEN != 0
    }
}

/// The tests of an entry beyond its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Check {
    /// Frame bits that must lie outside the field (`Wall` cells of `U`).
    walls: u64,
    /// Range in [`RuleIndex::extras`].
    extras_start: u32,
    extras_len: u32,
}

const NO_CHECK: Check = Check {
    walls: 0,
    extras_start: 0,
    extras_len: 0,
};

/// Entries of one kind of key (order 1, order 2, or orders ≥ 3), with
/// their rare extras.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct EntryStore {
    entries: Vec<Entry>,
    /// Orders ≥ 3: the key of each entry (the table holds only tags).
    keys: Vec<(u64, u64)>,
    /// Entry → the next entry under the same key (entries with
    /// [`META_NEXT`]).
    next: HashMap<u32, u32>,
    /// Entry → its wall and extra-cell tests (entries with
    /// [`META_CHECKED`]).
    checks: HashMap<u32, Check>,
}

impl EntryStore {
    #[inline]
    fn check(&self, e: u32) -> Check {
        if self.entries[e as usize].safe_meta & META_CHECKED == 0 {
            NO_CHECK
        } else {
            self.checks[&e]
        }
    }

    #[inline]
    fn next(&self, e: u32) -> Option<u32> {
        (self.entries[e as usize].safe_meta & META_NEXT != 0).then(|| self.next[&e])
    }

    fn heap_bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.keys.capacity() * std::mem::size_of::<(u64, u64)>()
            + self.next.capacity() * (std::mem::size_of::<(u32, u32)>() + 1)
            + self.checks.capacity() * (std::mem::size_of::<(u32, Check)>() + 1)
    }
}

/// The order ≥ 3 keys: open addressing with linear probing over 8-byte
/// slots `tag << 32 | entry` (the key is kept beside the entry), at most two
/// thirds full. The tag (32 other bits of the hash) makes comparing a key
/// that is not there almost never touch the keys.
#[derive(Clone, Debug, PartialEq, Eq)]
struct KeyTable {
    slots: Vec<u64>,
    len: usize,
}

const EMPTY_SLOT: u64 = u64::MAX;

/// Slots for an open-addressing table of `keys` keys: load factor ≤ 2/3.
fn table_slots(keys: usize) -> Vec<u64> {
    vec![EMPTY_SLOT; keys + keys / 2 + 1]
}

/// First slot to probe in a table of `len` slots: the hash's high bits
/// scaled to the table.
#[inline]
fn probe_start(len: usize, hash: u64) -> usize {
    ((hash as u128 * len as u128) >> 64) as usize
}

impl KeyTable {
    fn with_capacity(keys: usize) -> KeyTable {
        KeyTable {
            slots: table_slots(keys),
            len: 0,
        }
    }

    #[inline]
    fn start(&self, hash: u64) -> usize {
        probe_start(self.slots.len(), hash)
    }

    #[inline]
    fn tag(hash: u64) -> u64 {
        (hash >> 16) & 0xFFFF_FFFF
    }

    /// The entry of key `(lo, hi)` (`keys`: the key of each entry).
    #[inline]
    fn find(&self, hash: u64, lo: u64, hi: u64, keys: &[(u64, u64)]) -> Option<u32> {
        let tag = KeyTable::tag(hash);
        let mut i = self.start(hash);
        loop {
            let slot = self.slots[i];
            if slot == EMPTY_SLOT {
                return None;
            }
            if slot >> 32 == tag && keys[slot as u32 as usize] == (lo, hi) {
                return Some(slot as u32);
            }
            i += 1;
            if i == self.slots.len() {
                i = 0;
            }
        }
    }

    /// The entry of key `(lo, hi)`, or `None` after recording `new` for
    /// it. The table must have a free slot.
    fn find_or_insert(
        &mut self,
        hash: u64,
        lo: u64,
        hi: u64,
        keys: &[(u64, u64)],
        new: u32,
    ) -> Option<u32> {
        let tag = KeyTable::tag(hash);
        let mut i = self.start(hash);
        loop {
            let slot = self.slots[i];
            if slot == EMPTY_SLOT {
                self.slots[i] = tag << 32 | new as u64;
                self.len += 1;
                return None;
            }
            if slot >> 32 == tag && keys[slot as u32 as usize] == (lo, hi) {
                return Some(slot as u32);
            }
            i += 1;
            if i == self.slots.len() {
                i = 0;
            }
        }
    }
}

/// The key of an order-2 image: the anchor's and the other focus's
/// order-1 indices (`value · 512 + mask9`, 13 bits each) and the slot. The
/// two 3×3 masks together are exactly the closed mask of `U` (each is its
/// restriction to one neighbourhood; cells in both read the same board
/// cell), so this is the order ≥ 2 key in 31 bits.
#[inline]
fn pair_key(anchor_order1: u16, slot: u32, other_order1: u16) -> u32 {
    anchor_order1 as u32 | (other_order1 as u32) << 13 | slot << 26
}

/// Per symmetry ([`SYMMETRIES`]), the image of every 3×3 mask (bit
/// `3k + j`): a focus's closed neighbourhood turns with the pattern.
const MASK9_IMAGES: [[u16; 512]; 8] = {
    let mut images = [[0u16; 512]; 8];
    let mut sym = 0;
    while sym < 8 {
        let (transpose, flip_rows, flip_cols) = SYMMETRIES[sym];
        let mut mask = 0;
        while mask < 512 {
            let mut image = 0u16;
            let mut bit = 0;
            while bit < 9 {
                if mask >> bit & 1 == 1 {
                    let (mut k, mut j) = (bit / 3, bit % 3);
                    if transpose {
                        (k, j) = (j, k);
                    }
                    if flip_rows {
                        k = 2 - k;
                    }
                    if flip_cols {
                        j = 2 - j;
                    }
                    image |= 1 << (3 * k + j);
                }
                bit += 1;
            }
            images[sym][mask] = image;
            mask += 1;
        }
        sym += 1;
    }
    images
};

/// The hash of a pair key, for the pair table and the filter.
#[inline]
fn pair_hash(key: u32) -> u64 {
    let p = (key as u64 ^ 0x243F_6A88_85A3_08D3) as u128 * 0x9E37_79B9_7F4A_7C15u128;
    p as u64 ^ (p >> 64) as u64
}

/// The order-2 keys: open addressing with linear probing over 8-byte slots
/// `key << 32 | entry`, at most two thirds full. A probe compares whole
/// keys without leaving the slot.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PairTable {
    slots: Vec<u64>,
    len: usize,
}

impl PairTable {
    fn with_capacity(keys: usize) -> PairTable {
        PairTable {
            slots: table_slots(keys),
            len: 0,
        }
    }

    #[inline]
    fn start(&self, hash: u64) -> usize {
        probe_start(self.slots.len(), hash)
    }

    /// The entry of pair key `key`.
    #[inline]
    fn find(&self, hash: u64, key: u32) -> Option<u32> {
        let mut i = self.start(hash);
        loop {
            let slot = self.slots[i];
            // (An empty slot is all ones: no 31-bit key matches it.)
            if slot >> 32 == key as u64 {
                return Some(slot as u32);
            }
            if slot == EMPTY_SLOT {
                return None;
            }
            i += 1;
            if i == self.slots.len() {
                i = 0;
            }
        }
    }

    /// The entry of pair key `key`, or `None` after recording `new` for it.
    /// The table must have a free slot.
    fn find_or_insert(&mut self, hash: u64, key: u32, new: u32) -> Option<u32> {
        let mut i = self.start(hash);
        loop {
            let slot = self.slots[i];
            if slot >> 32 == key as u64 {
                return Some(slot as u32);
            }
            if slot == EMPTY_SLOT {
                self.slots[i] = (key as u64) << 32 | new as u64;
                self.len += 1;
                return None;
            }
            i += 1;
            if i == self.slots.len() {
                i = 0;
            }
        }
    }
}

/// A rule [`RuleIndex::new`] could not index, and why (the rule breaks the
/// rule invariants of docs/design.md §3, or is beyond what the index supports).
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
    /// A table for full scans and dirty lists of half the board or more;
    /// otherwise a small cache, or (an index of order 1 only, which reads
    /// each dirty number once) live.
    #[default]
    Auto,
    /// Read every cell once into a table first (cost ∝ board size).
    Table,
    /// Read each number every time a placement needs it (cost ∝ dirty
    /// numbers, without reuse).
    Live,
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
}

/// A rule checked once in its own orientation, reduced to what its images
/// need: its foci, the cells of `U` that set a frame bit, by kind, and the
/// non-`Any` cells outside `U`. (`Open` cells of `U` set no bit and are not
/// listed.)
#[derive(Default)]
struct CheckedRule {
    h: usize,
    w: usize,
    forbidden: bool,
    /// `(r, c, value)`, row-major.
    foci: Vec<(u8, u8, u8)>,
    /// `(r, c)` of the `Closed` and `Wall` cells of `U`, and of the cells
    /// concluded safe and mine (all `Closed` cells of `U`).
    closed: Vec<(u8, u8)>,
    walls: Vec<(u8, u8)>,
    safe: Vec<(u8, u8)>,
    mine: Vec<(u8, u8)>,
    /// `(r, c, cell)`: non-`Any` cells outside `U`.
    outside: Vec<(u8, u8, PatternCell)>,
    /// `(value, closed neighbours)` of every focus.
    focus_kinds: Vec<(u8, u8)>,
    /// The 3×3 closed mask (bit `3k + j`) around every focus.
    focus_masks: Vec<u16>,
}

impl CheckedRule {
    /// Checks `rule` and fills `self` with it (the buffers are reused from
    /// rule to rule). None of the checks depends on the orientation except
    /// the distance of the foci from the anchor, checked per image.
    fn check(&mut self, rule: &Rule) -> Result<(), String> {
        if self.fill(rule) {
            return Ok(());
        }
        Err(match rejection(rule) {
            Err(reason) => reason,
            // `fill` and `rejection` make the same checks.
            Ok(()) => "breaks the rule invariants".into(),
        })
    }

    /// Fills `self` from `rule`, checking it on bit masks of the pattern
    /// (bit `r·w + c`); false if it breaks an invariant.
    fn fill(&mut self, rule: &Rule) -> bool {
        let p = &rule.pattern;
        let (h, w) = (p.h as usize, p.w as usize);
        let n = p.cells.len();
        self.h = h;
        self.w = w;
        self.forbidden = rule.kind == RuleKind::Forbidden;
        self.foci.clear();
        self.closed.clear();
        self.walls.clear();
        self.safe.clear();
        self.mine.clear();
        self.outside.clear();
        self.focus_kinds.clear();
        self.focus_masks.clear();
        if n != h * w || n > 64 || n == 0 {
            return false;
        }
        let inside = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        // Conclusion bits beyond the pattern name no cell.
        let (safe, mine) = (rule.safe & inside, rule.mine & inside);
        if (!self.forbidden && safe | mine == 0) || safe & mine != 0 {
            return false;
        }
        // One mask per kind of cell, without a branch per cell.
        let mut kinds = [0u64; 5];
        for (i, &cell) in p.cells.iter().enumerate() {
            let kind = match cell {
                PatternCell::Any => 0,
                PatternCell::Wall => 1,
                PatternCell::Open => 2,
                PatternCell::Closed => 3,
                PatternCell::Number(_) => 4,
            };
            kinds[kind] |= 1u64 << i;
        }
        let [any, wall, _, closed, numbers] = kinds;
        if numbers.count_ones() as usize > MAX_ORDER {
            return false;
        }
        let mut rest = numbers;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            // (Every bit of `numbers` is a `Number` cell.)
            if let PatternCell::Number(v) = p.cells[i] {
                if v > 8 {
                    return false;
                }
                self.foci.push(((i / w) as u8, (i % w) as u8, v));
            }
        }
        let Some(&(ar, ac, _)) = self.foci.first() else {
            return false;
        };
        let (ar, ac) = (ar as usize, ac as usize);
        let mut union = 0u64;
        for &(fr, fc, v) in &self.foci {
            let (fr, fc) = (fr as usize, fc as usize);
            // Every neighbour inside the pattern; at most 3 rows below and
            // 3 columns beside the first focus (row-major: never above).
            if fr == 0 || fc == 0 || fr + 1 >= h || fc + 1 >= w {
                return false;
            }
            if fr - ar > 3 || fc.abs_diff(ac) > 3 {
                return false;
            }
            let row = 0b111u64 << (fc - 1);
            let block = row << ((fr - 1) * w) | row << (fr * w) | row << ((fr + 1) * w);
            if block & any != 0 {
                return false;
            }
            self.focus_kinds
                .push((v, (block & closed).count_ones() as u8));
            let row_closed = |r: usize| (closed >> (r * w + fc - 1) & 7) as u16;
            self.focus_masks
                .push(row_closed(fr - 1) | row_closed(fr) << 3 | row_closed(fr + 1) << 6);
            union |= block;
        }
        // Conclusions only on `Closed` cells next to a focus.
        if (safe | mine) & !(closed & union) != 0 {
            return false;
        }
        // (3 ≤ w ≤ 21 here: a focus has a column either side, n ≤ 64.)
        let row_mask = u64::MAX >> (64 - w);
        for r in 0..h {
            let row = |mask: u64| mask >> (r * w) & row_mask;
            for (mask, list) in [
                (closed & union, &mut self.closed),
                (wall & union, &mut self.walls),
                (safe, &mut self.safe),
                (mine, &mut self.mine),
            ] {
                let mut bits = row(mask);
                while bits != 0 {
                    list.push((r as u8, bits.trailing_zeros() as u8));
                    bits &= bits - 1;
                }
            }
            let mut outside = row(inside & !union & !any);
            while outside != 0 {
                let c = outside.trailing_zeros() as usize;
                outside &= outside - 1;
                self.outside.push((r as u8, c as u8, p.cells[r * w + c]));
            }
        }
        true
    }

    /// The image under symmetry `sym`, its extra cells appended to
    /// `extras` (sorted row-major, as they are compared when merging).
    fn image(&self, sym: usize, extras: &mut Vec<ExtraCell>) -> Result<Image, String> {
        let (transpose, flip_rows, flip_cols) = SYMMETRIES[sym];
        let (h2, w2) = if transpose {
            (self.w, self.h)
        } else {
            (self.h, self.w)
        };
        // Cell (r, c) of the rule lands on (r0 + rr·r + rc·c, c0 + cr·r +
        // cc·c) of the image.
        let (mut rr, mut rc, mut cr, mut cc) = if transpose {
            (0isize, 1isize, 1isize, 0isize)
        } else {
            (1, 0, 0, 1)
        };
        let (mut r0, mut c0) = (0isize, 0isize);
        if flip_rows {
            (r0, rr, rc) = (h2 as isize - 1, -rr, -rc);
        }
        if flip_cols {
            (c0, cr, cc) = (w2 as isize - 1, -cr, -cc);
        }
        let map = |r: u8, c: u8| -> (isize, isize) {
            let (r, c) = (r as isize, c as isize);
            (r0 + rr * r + rc * c, c0 + cr * r + cc * c)
        };
        // Foci in the image's row-major order, the anchor first: each as
        // `r2 << 16 | c2 << 8 | index in self.foci` (image coordinates are
        // ≥ 0), so the order of the codes is row-major order.
        let code = |k: usize| {
            let (r, c, _) = self.foci[k];
            let (r2, c2) = map(r, c);
            (r2 as u32) << 16 | (c2 as u32) << 8 | k as u32
        };
        let mut foci = [0u32; MAX_ORDER];
        let order = self.foci.len();
        if order == 2 {
            let (a, b) = (code(0), code(1));
            foci[0] = a.min(b);
            foci[1] = a.max(b);
        } else {
            for (k, f) in foci[..order].iter_mut().enumerate() {
                *f = code(k);
            }
            foci[..order].sort_unstable();
        }
        let unpack = |f: u32| {
            (
                (f >> 16) as isize,
                (f >> 8 & 0xFF) as isize,
                (f & 0xFF) as usize,
            )
        };
        // A focus's order-1 index in the image: its value and its 3×3
        // mask, turned like the whole pattern.
        let order1_of = |k: usize| -> u16 {
            self.foci[k].2 as u16 * 512 + MASK9_IMAGES[sym][self.focus_masks[k] as usize]
        };
        let (ar, ac, ak) = unpack(foci[0]);
        let mut slot_set = 0u32;
        let mut values = (self.foci[ak].2 as u128) << KEY_VALUES_SHIFT;
        for (i, &f) in foci[..order].iter().enumerate().skip(1) {
            let (r, c, k) = unpack(f);
            let (dr, dc) = (r - ar, c - ac);
            if dr > 3 || dc.abs() > 3 {
                return Err(far_focus((r, c), (ar, ac)));
            }
            let slot = (dr * SLOT_COLS + dc + 3) as u32;
            debug_assert!((FIRST_SLOT..SLOTS).contains(&slot));
            slot_set |= 1 << slot;
            values |= (self.foci[k].2 as u128) << (KEY_VALUES_SHIFT + 4 * i as u32);
        }
        // The frame bit of rule cell (r, c) is (r2 − ar + 1)·9 + c2 − ac + 4
        // = base + kr·r + kc·c: inside the frame for every cell of `U`.
        let kr = FRAME_W as isize * rr + cr;
        let kc = FRAME_W as isize * rc + cc;
        let base = (r0 - ar + ANCHOR_FRAME_ROW) * FRAME_W as isize + c0 - ac + ANCHOR_FRAME_COL;
        let frame = |cells: &[(u8, u8)]| {
            cells.iter().fold(0u64, |m, &(r, c)| {
                m | 1 << (base + kr * r as isize + kc * c as isize)
            })
        };
        let extras_start = extras.len();
        for &(r, c, cell) in &self.outside {
            let (r2, c2) = map(r, c);
            extras.push(ExtraCell {
                dr: (r2 - ar) as i16,
                dc: (c2 - ac) as i16,
                cell,
            });
        }
        extras[extras_start..].sort_unstable();
        let key = match order {
            1 => order1_of(ak) as u128,
            2 => {
                let (_, _, bk) = unpack(foci[1]);
                pair_key(order1_of(ak), slot_set.trailing_zeros(), order1_of(bk)) as u128
            }
            _ => frame(&self.closed) as u128 | (slot_set as u128) << KEY_SLOTS_SHIFT | values,
        };
        Ok(Image {
            key,
            walls: frame(&self.walls),
            safe: frame(&self.safe),
            mine: frame(&self.mine),
            slot_set,
            shape: [h2 as u8, w2 as u8, ar as u8, ac as u8],
            extras: (extras_start as u32, (extras.len() - extras_start) as u32),
        })
    }
}

/// Why `rule` breaks the rule invariants (or cannot be indexed): the first
/// failing check, in the rule's own orientation, or `Ok` if none fails.
/// Only called for rules [`CheckedRule::fill`] refused, to name the reason.
fn rejection(rule: &Rule) -> Result<(), String> {
    let p = &rule.pattern;
    let (h, w) = (p.h as usize, p.w as usize);
    let mut foci: Vec<(u8, u8, u8)> = Vec::new();
    let order = p
        .cells
        .iter()
        .filter(|c| matches!(c, PatternCell::Number(_)))
        .count();
    if order == 0 {
        return Err("no focus number".into());
    }
    if order > MAX_ORDER {
        return Err(format!("order {order} above the supported {MAX_ORDER}"));
    }
    if p.cells.len() > 64 {
        return Err(format!("pattern {}×{} has more than 64 cells", p.h, p.w));
    }
    if p.cells.len() != h * w {
        return Err(format!(
            "pattern {}×{} has {} cells",
            p.h,
            p.w,
            p.cells.len()
        ));
    }
    // Conclusion bits beyond the pattern name no cell.
    let inside = if h * w == 64 {
        u64::MAX
    } else {
        (1u64 << (h * w)) - 1
    };
    let (safe, mine) = (rule.safe & inside, rule.mine & inside);
    let forbidden = rule.kind == RuleKind::Forbidden;
    if !forbidden && (safe | mine) == 0 {
        return Err("forced rule with an empty conclusion".into());
    }
    if safe & mine != 0 {
        return Err("a cell concluded both safe and mine".into());
    }
    let (hi, wi) = (h as isize, w as isize);
    let at = |r: isize, c: isize| -> Option<PatternCell> {
        (r >= 0 && c >= 0 && r < hi && c < wi).then(|| p.cells[(r * wi + c) as usize])
    };
    for (i, &cell) in p.cells.iter().enumerate() {
        if let PatternCell::Number(v) = cell {
            let (r, c) = (i / w, i % w);
            if v > 8 {
                return Err(format!("focus at ({r},{c}) has value {v} above 8"));
            }
            foci.push((r as u8, c as u8, v));
        }
    }
    let (ar, ac) = (foci[0].0 as isize, foci[0].1 as isize);
    let mut union = 0u64;
    for &(r, c, _) in &foci {
        let (r, c) = (r as isize, c as isize);
        // The focus itself is in `U` too.
        union |= 1 << (r * wi + c);
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
                    Some(_) => {}
                }
                union |= 1 << ((r + dr) * wi + c + dc);
            }
        }
        if (r - ar) > 3 || (c - ac).abs() > 3 {
            return Err(far_focus((r, c), (ar, ac)));
        }
    }
    for (i, &cell) in p.cells.iter().enumerate() {
        let (r, c) = (i / w, i % w);
        let bit = 1u64 << i;
        let concluded = (safe | mine) & bit != 0;
        if concluded && cell != PatternCell::Closed {
            return Err(format!("conclusion on ({r},{c}), which is not Closed"));
        }
        if union & bit == 0 && concluded {
            return Err(format!("conclusion on ({r},{c}), next to no focus"));
        }
    }
    Ok(())
}

fn far_focus((r, c): (isize, isize), (ar, ac): (isize, isize)) -> String {
    format!("focus ({r},{c}) is more than 3 rows or columns from focus ({ar},{ac})")
}

/// One orientation of a rule, ready to be stored.
#[derive(Clone, Copy, Debug, Default)]
struct Image {
    /// Order 1: `value · 512 + mask9`; order 2: the [`pair_key`]; orders
    /// ≥ 3: the `u128` key.
    key: u128,
    walls: u64,
    /// The conclusion as given (also for a forbidden rule, so that two
    /// images compare as the rules do).
    safe: u64,
    mine: u64,
    /// The slot set of the non-anchor foci.
    slot_set: u32,
    /// `(h, w)` of the transformed pattern and the anchor's place in it:
    /// with the key, walls, conclusion and extra cells they determine the
    /// transformed rule, so two images of one rule are equal exactly when
    /// the transformed rules are.
    shape: [u8; 4],
    /// Range of its extra cells in the build's buffer.
    extras: (u32, u32),
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
        // Each rule has at most 8 images; most rules of order ≥ 2 have 8.
        // (Tables are sized from the rules of order 2 and above 2.)
        let (mut pair_rules, mut higher_rules) = (0usize, 0usize);
        for rule in rules {
            match rule.order() {
                2 => pair_rules += 1,
                3.. => higher_rules += 1,
                _ => {}
            }
        }
        let mut builder = Builder {
            entries1: EntryStore::default(),
            entries2: EntryStore {
                entries: Vec::with_capacity(pair_rules * 8),
                ..EntryStore::default()
            },
            entries: EntryStore {
                entries: Vec::with_capacity(higher_rules * 8),
                keys: Vec::with_capacity(higher_rules * 8),
                ..EntryStore::default()
            },
            extras: Vec::new(),
            order1: vec![NO_ENTRY; 9 * 512],
            pairs: PairTable::with_capacity(pair_rules * 8),
            multi: KeyTable::with_capacity(higher_rules * 8),
            filter: KeyFilter::new((pair_rules + higher_rules) * 8),
        };
        let mut rejected = Vec::new();
        let mut rules_by_order = vec![0usize; MAX_ORDER + 1];
        let mut images_by_order = vec![0usize; MAX_ORDER + 1];
        let mut classes: FocusClasses = [0; 81];
        let mut slots_by_order = vec![0u32; MAX_ORDER + 1];
        let mut next_short = vec![[0u32; SLOTS as usize + 1]; MAX_ORDER + 1];
        let mut co_slots_above_2 = [0u32; SLOTS as usize];
        let mut next_long: Vec<HashMap<u32, u32>> = vec![HashMap::new(); MAX_ORDER + 1];

        let mut checked = CheckedRule::default();
        let mut image_extras: Vec<ExtraCell> = Vec::new();
        for (ri, rule) in rules.iter().enumerate() {
            image_extras.clear();
            let mut images = [Image::default(); 8];
            let mut count = 0;
            // A bit per key hash among the images so far: most rules have 8
            // distinct images, and a clear bit settles "new" at once.
            let mut keys_seen = 0u64;
            let result = checked.check(rule).and_then(|()| {
                for sym in 0..8 {
                    let image = checked.image(sym, &mut image_extras)?;
                    let key_bit = 1u64
                        << ((image.key as u64 ^ (image.key >> 64) as u64)
                            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                            >> 58);
                    let extras_of =
                        |im: &Image| &image_extras[im.extras.0 as usize..][..im.extras.1 as usize];
                    let seen = keys_seen & key_bit != 0
                        && images[..count].iter().any(|old| {
                            (old.key, old.walls, old.safe, old.mine, old.shape)
                                == (image.key, image.walls, image.safe, image.mine, image.shape)
                                && extras_of(old) == extras_of(&image)
                        });
                    if !seen {
                        images[count] = image;
                        count += 1;
                        keys_seen |= key_bit;
                    }
                }
                Ok(())
            });
            if let Err(reason) = result {
                rejected.push(RejectedRule { rule: ri, reason });
                continue;
            }
            let order = checked.foci.len();
            rules_by_order[order] += 1;
            images_by_order[order] += count;
            for &(v, u) in &checked.focus_kinds {
                classes[v as usize * 9 + u as usize] |= 1 << order;
            }
            for image in &images[..count] {
                slots_by_order[order] |= image.slot_set;
                if order >= 3 {
                    let mut rest = image.slot_set;
                    while rest != 0 {
                        let s = rest.trailing_zeros();
                        rest &= rest - 1;
                        co_slots_above_2[s as usize] |= image.slot_set & !(1 << s);
                    }
                }
                // Walk the slot set in increasing slot order, recording at
                // each prefix which slot comes next.
                let mut prefix = 0u32;
                let mut rest = image.slot_set;
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
                let extras = &image_extras[image.extras.0 as usize..][..image.extras.1 as usize];
                builder.add(order, checked.forbidden, image, extras);
            }
        }

        let max_order = (1..=MAX_ORDER)
            .rev()
            .find(|&k| rules_by_order[k] > 0)
            .unwrap_or(0);
        let slots_above_2 = slots_by_order.iter().skip(3).fold(0, |a, &b| a | b);
        RuleIndex {
            entries1: builder.entries1,
            entries2: builder.entries2,
            entries: builder.entries,
            extras: builder.extras,
            order1_outcomes: Vec::new(),
            order1: builder.order1,
            pairs: builder.pairs,
            multi: builder.multi,
            filter: builder.filter,
            next_short,
            next_long,
            slots_by_order,
            slots_above_2,
            co_slots_above_2,
            classes,
            max_order,
            rules_by_order,
            images_by_order,
            rejected,
        }
        .with_order1_outcomes()
    }

    /// Fills [`RuleIndex::order1_outcomes`] from the order-1 chains, when
    /// every order-1 entry can be flattened.
    fn with_order1_outcomes(mut self) -> RuleIndex {
        self.order1_outcomes = self.flatten_order1().unwrap_or_default();
        self
    }

    fn flatten_order1(&self) -> Option<Vec<Order1Outcome>> {
        if self.rules_by_order.get(1).copied().unwrap_or(0) == 0 {
            return None;
        }
        // Frame bit of the neighbour in each direction.
        let frame_bit = |d: usize| {
            let (dr, dc) = crate::grid::DIRECTIONS[d];
            (ANCHOR_FRAME_ROW + dr) as u32 * FRAME_W as u32 + (ANCHOR_FRAME_COL + dc) as u32
        };
        let to_directions = |frame: u64| -> Option<u8> {
            let mut dirs = 0u8;
            let mut covered = 0u64;
            for d in 0..8 {
                let bit = 1u64 << frame_bit(d);
                covered |= bit;
                if frame & bit != 0 {
                    dirs |= 1 << d;
                }
            }
            (frame & !covered == 0).then_some(dirs)
        };
        let mut out = vec![Order1Outcome::NOTHING; 9 * 256];
        for value in 0..=8usize {
            for closed in 0..256usize {
                let key = value * 512 + MASK9_OF_CLOSED[closed] as usize;
                let mut at = Some(self.order1[key]).filter(|&h| h != NO_ENTRY);
                let mut o = Order1Outcome::NOTHING;
                while let Some(e) = at {
                    let entry = self.entries1.entries[e as usize];
                    if entry.safe_meta & META_CHECKED != 0 {
                        return None;
                    }
                    if entry.forbidden() {
                        o.0 |= Order1Outcome::FORBIDDEN;
                    }
                    o.0 |= to_directions(entry.safe())? as u32;
                    o.0 |= (to_directions(entry.mine)? as u32) << 8;
                    at = self.entries1.next(e);
                }
                out[value * 256 + closed] = o;
            }
        }
        Some(out)
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
            + self.pairs.slots.capacity() * std::mem::size_of::<u64>()
            + self.extras.capacity() * std::mem::size_of::<ExtraCell>()
            + self.order1.capacity() * std::mem::size_of::<u32>()
            + self.order1_outcomes.capacity() * std::mem::size_of::<Order1Outcome>()
            + self.multi.slots.capacity() * std::mem::size_of::<u64>()
            + self.filter.words.len() * 8
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
    /// (for benches and tests).
    pub fn find_with(
        &self,
        board: &Board,
        dirty: Option<&[u32]>,
        reading: FociReading,
        out: &mut Vec<(Forced, u8)>,
    ) -> Result<(), Contradiction> {
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

    /// An index of order-1 rules only, over a dirty list: each dirty number
    /// is one lookup of its effective value and closed-neighbour mask
    /// (both kept by the board) in [`RuleIndex::order1_outcomes`]. Finds
    /// exactly what the generic scan finds (tested against it).
    fn order1_dirty(
        &self,
        board: &Board,
        list: &[u32],
        out: &mut Vec<(Forced, u8)>,
    ) -> Result<(), Contradiction> {
        let grid = board.grid();
        for &i in list {
            if i as usize >= grid.len() {
                continue;
            }
            // Not a revealed number, or an effective value no `Number(v)`
            // matches: not a focus.
            let Some((effective, _)) = board.effective(i) else {
                continue;
            };
            if !(0..=8).contains(&effective) {
                continue;
            }
            let o = self.order1_outcomes[effective as usize * 256 + board.closed_mask(i) as usize];
            if o.forbidden() {
                // As in `Scan::apply`: the number shows a combination no
                // layout satisfies (proven when the rule was made).
                return Err(Contradiction::new(
                    vec![i],
                    "a forbidden combination of order 1 matches",
                ));
            }
            if o == Order1Outcome::NOTHING {
                // Most dirty numbers conclude nothing.
                continue;
            }
            // A sound order-1 rule matched: the number has exactly the
            // pattern's value and closed neighbours, so every layout puts
            // no mine (all mines) on the concluded neighbours.
            let around = grid.neighbours_by_direction(i);
            for (mut dirs, value) in [(o.safe(), Value::Safe), (o.mine(), Value::Mine)] {
                while dirs != 0 {
                    let d = dirs.trailing_zeros() as usize;
                    dirs &= dirs - 1;
                    out.push((
                        Forced {
                            cell: around.cells[d],
                            value,
                        },
                        1,
                    ));
                }
            }
        }
        Ok(())
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
        let reading = match (reading, dirty) {
            (FociReading::Auto, None) => FociReading::Table,
            // A dirty number reads at most the 7 × 13 numbers around it
            // (the 20 within two cells for pairs), fewer when it shares them
            // with other dirty numbers. Measured on the solver's calls
            // (`examples/index_timing.rs`), the cache wins until about half
            // the cells are dirty.
            (FociReading::Auto, Some(d)) if d.len() * 2 >= grid.len() => FociReading::Table,
            // Order 1 reads each dirty number once: nothing to cache.
            (FociReading::Auto, Some(_)) if self.max_order == 1 => FociReading::Live,
            (FociReading::Auto, Some(_)) => FociReading::Cached,
            (r, _) => r,
        };
        match reading {
            FociReading::Table => self.scan_with(
                &mut FociTable::new(board, &self.classes),
                cells,
                grid,
                dirty,
                out,
            ),
            FociReading::Live => self.scan_with(
                &mut LiveFoci {
                    board,
                    classes: &self.classes,
                },
                cells,
                grid,
                dirty,
                out,
            ),
            FociReading::Cached | FociReading::Auto => self.scan_with(
                &mut CachedFoci::new(board, &self.classes),
                cells,
                grid,
                dirty,
                out,
            ),
        }
    }

    fn scan_with<S: FocusSource>(
        &self,
        src: &mut S,
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
            dirty_set: [u32::MAX; DIRTY_SET_LINES],
            slot_deltas: std::array::from_fn(|s| {
                let (dr, dc) = SLOT_OFFSETS[s];
                (dr * grid.w as isize + dc) as usize
            }),
        };
        let w = Divisor::new(grid.w as u32);
        match dirty {
            None => {
                for r in 0..grid.h {
                    for c in 0..grid.w {
                        scan.number(r, c, false)?;
                    }
                }
            }
            Some(list) => {
                if self.max_order >= 2 {
                    for &d in list {
                        scan.dirty_set[d as usize % DIRTY_SET_LINES] = d;
                    }
                }
                for &d in list {
                    if (d as usize) < grid.len() {
                        let (r, c) = w.div_rem(d);
                        scan.number(r as usize, c as usize, true)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Stores images as entries: one chain per key, identical images merged.
struct Builder {
    entries1: EntryStore,
    entries2: EntryStore,
    entries: EntryStore,
    extras: Vec<ExtraCell>,
    order1: Vec<u32>,
    pairs: PairTable,
    multi: KeyTable,
    filter: KeyFilter,
}

impl Builder {
    fn add(&mut self, order: usize, forbidden: bool, image: &Image, extras: &[ExtraCell]) {
        let store = match order {
            1 => &mut self.entries1,
            2 => &mut self.entries2,
            _ => &mut self.entries,
        };
        let new = store.entries.len() as u32;
        let mut key_of_new = None;
        let head = match order {
            1 => {
                let slot = &mut self.order1[image.key as usize];
                let head = *slot;
                if head == NO_ENTRY {
                    *slot = new;
                }
                head
            }
            2 => {
                let key = image.key as u32;
                let hash = pair_hash(key);
                let found = self.pairs.find_or_insert(hash, key, new);
                if found.is_none() {
                    self.filter.insert(hash);
                }
                found.unwrap_or(NO_ENTRY)
            }
            _ => {
                let (lo, hi) = (image.key as u64, (image.key >> 64) as u64);
                let hash = key_hash(lo, hi);
                let found = self.multi.find_or_insert(hash, lo, hi, &store.keys, new);
                if found.is_none() {
                    self.filter.insert(hash);
                }
                key_of_new = Some((lo, hi));
                found.unwrap_or(NO_ENTRY)
            }
        };
        // Same key: look for an entry with the same walls and extra cells
        // (the order follows from the key) to merge with; otherwise append
        // to the chain.
        let mut at = head;
        let mut last = NO_ENTRY;
        while at != NO_ENTRY {
            let check = store.check(at);
            if check.walls == image.walls
                && self.extras[check.extras_start as usize..][..check.extras_len as usize]
                    == *extras
            {
                // Each merged conclusion is sound, so is their union; a
                // forbidden image means no layout shows this pattern.
                let e = &mut store.entries[at as usize];
                if forbidden || e.forbidden() {
                    e.safe_meta = e.safe_meta & !FRAME_BITS | META_FORBIDDEN;
                    e.mine = 0;
                } else {
                    e.safe_meta |= image.safe;
                    e.mine |= image.mine;
                }
                return;
            }
            last = at;
            at = store.next(at).unwrap_or(NO_ENTRY);
        }
        if last != NO_ENTRY {
            store.entries[last as usize].safe_meta |= META_NEXT;
            store.next.insert(last, new);
        }
        let (safe, mine) = if forbidden {
            (0, 0)
        } else {
            (image.safe, image.mine)
        };
        let mut safe_meta = safe | (order as u64) << META_ORDER_SHIFT;
        if forbidden {
            safe_meta |= META_FORBIDDEN;
        }
        if image.walls != 0 || !extras.is_empty() {
            safe_meta |= META_CHECKED;
            store.checks.insert(
                new,
                Check {
                    walls: image.walls,
                    extras_start: self.extras.len() as u32,
                    extras_len: extras.len() as u32,
                },
            );
            self.extras.extend_from_slice(extras);
        }
        store.entries.push(Entry { safe_meta, mine });
        store.keys.extend(key_of_new);
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

/// Division by a number fixed for a whole call (the grid width) as a
/// multiplication: a hardware division per dirty number was a noticeable
/// part of a call.
#[derive(Clone, Copy, Debug)]
struct Divisor {
    d: u32,
    /// `⌈2^64 / d⌉` (0 for `d = 1`): for every `n < 2^32`,
    /// `⌊n · m / 2^64⌋ = ⌊n / d⌋`, since `n · (m·d − 2^64) < 2^32 · d ≤ 2^64`
    /// keeps the error below `1/d`.
    m: u64,
}

impl Divisor {
    fn new(d: u32) -> Divisor {
        let m = if d <= 1 { 0 } else { u64::MAX / d as u64 + 1 };
        Divisor { d, m }
    }

    /// `(n / d, n % d)`; `d` must not be 0.
    #[inline]
    fn div_rem(self, n: u32) -> (u32, u32) {
        let q = if self.d == 1 {
            n
        } else {
            ((n as u128 * self.m as u128) >> 64) as u32
        };
        (q, n - q * self.d)
    }
}

/// No slot is more than 3 rows below or 3 columns beside the anchor.
const PAIR_REACH: usize = 3;

/// Lines of [`Scan::dirty_set`].
const DIRTY_SET_LINES: usize = 128;

/// One `find` call's scanning state.
struct Scan<'a, S> {
    index: &'a RuleIndex,
    src: &'a mut S,
    cells: &'a [Cell],
    grid: Grid,
    out: &'a mut Vec<(Forced, u8)>,
    /// Part of the dirty list, direct-mapped by cell index (`u32::MAX`:
    /// empty line): a number found here is certainly dirty, so the
    /// placements it anchors are examined when its turn comes, and need
    /// not be examined from their other foci. (A dirty number evicted by
    /// another is merely examined twice.)
    dirty_set: [u32; DIRTY_SET_LINES],
    /// Per slot: the index offset `dr · w + dc` on this board (wrapping).
    slot_deltas: [usize; SLOTS as usize],
}

/// An anchor of orders ≥ 3 and the numbers at its slots.
struct Placement {
    r: usize,
    c: usize,
    /// Foci at slots, indexed by slot (valid where the anchor's candidate
    /// set has the bit).
    near: [FocusInfo; SLOTS as usize],
}

impl<S: FocusSource> Scan<'_, S> {
    /// The cell `(r + dr, c + dc)` if it is inside the grid.
    #[inline]
    fn offset(&self, r: usize, c: usize, dr: isize, dc: isize) -> Option<(usize, usize)> {
        let rr = r.wrapping_add(dr as usize);
        let cc = c.wrapping_add(dc as usize);
        (rr < self.grid.h && cc < self.grid.w).then_some((rr, cc))
    }

    /// Examines the placements through the number at `(r, c)`: with
    /// `dirty`, every placement it is a focus of; otherwise (a full scan
    /// over all anchors) those it is the anchor of.
    fn number(&mut self, r: usize, c: usize, dirty: bool) -> Result<(), Contradiction> {
        let index = self.index;
        let f = self.src.get(r, c);
        // `orders == 0`: no rule has a focus with this value and this many
        // closed neighbours, so no placement through this number matches.
        if f.orders & ORDER_1 != 0 {
            let head = index.order1[f.order1 as usize];
            self.apply_chain(&index.entries1, head, r, c, 0)?;
        }
        if f.orders & ORDER_2 != 0 {
            self.pairs(r, c, f, dirty)?;
        }
        if f.orders & ORDERS_ABOVE_2 != 0 {
            self.anchor(r, c, f, None)?;
            if dirty {
                // …and where it is a later focus: the anchor sits one slot
                // offset back.
                let mut slots = index.slots_above_2;
                while slots != 0 {
                    let s = slots.trailing_zeros();
                    slots &= slots - 1;
                    let (dr, dc) = slot_offset(s);
                    if let Some((ar, ac)) = self.offset(r, c, -dr, -dc) {
                        if self.is_dirty(ar, ac) {
                            continue;
                        }
                        let fa = self.src.get(ar, ac);
                        if fa.orders & ORDERS_ABOVE_2 != 0 {
                            self.anchor(ar, ac, fa, Some(s))?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether the number at `(r, c)` is certainly in the dirty list (then
    /// it is examined as an anchor in its own turn).
    #[inline]
    fn is_dirty(&self, r: usize, c: usize) -> bool {
        let i = (r * self.grid.w + c) as u32;
        self.dirty_set[i as usize % DIRTY_SET_LINES] == i
    }

    /// Order 2: the number at `(r, c)` as the anchor with each number at a
    /// slot some pair rule uses, and (when `dirty`) as the second focus of
    /// each number one such slot offset back.
    fn pairs(
        &mut self,
        r: usize,
        c: usize,
        f: FocusInfo,
        dirty: bool,
    ) -> Result<(), Contradiction> {
        let (h, w) = (self.grid.h, self.grid.w);
        let cells = self.cells;
        // First, without a branch on the board's contents (those are as
        // good as random, and mispredicted branches dominated the cost):
        // which pair slots hold a revealed number, forward from this number
        // (bit `s`) and backward to an anchor that is not dirty itself
        // (bit `32 + s`; a dirty anchor examines the pair in its own turn).
        let mut revealed = 0u64;
        let mut slots = self.index.slots_by_order[2];
        let reach = PAIR_REACH;
        if r >= reach && c >= reach && r + reach < h && c + reach < w {
            // Every pair slot is on the board, both ways: index offsets.
            let i = r * w + c;
            while slots != 0 {
                let s = slots.trailing_zeros();
                slots &= slots - 1;
                let delta = self.slot_deltas[s as usize];
                let e = i.wrapping_add(delta);
                revealed |= (matches!(cells[e], Cell::Revealed(_)) as u64) << s;
                if dirty {
                    let a = i.wrapping_sub(delta);
                    let fresh = matches!(cells[a], Cell::Revealed(_))
                        & (self.dirty_set[a % DIRTY_SET_LINES] != a as u32);
                    revealed |= (fresh as u64) << (32 + s);
                }
            }
        } else {
            while slots != 0 {
                let s = slots.trailing_zeros();
                slots &= slots - 1;
                let (dr, dc) = SLOT_OFFSETS[s as usize];
                let (rr, cc) = (r.wrapping_add(dr as usize), c.wrapping_add(dc as usize));
                if rr < h && cc < w {
                    revealed |= (matches!(cells[rr * w + cc], Cell::Revealed(_)) as u64) << s;
                }
                if dirty {
                    let (ar, ac) = (r.wrapping_sub(dr as usize), c.wrapping_sub(dc as usize));
                    if ar < h && ac < w {
                        let a = ar * w + ac;
                        let fresh = matches!(cells[a], Cell::Revealed(_))
                            & (self.dirty_set[a % DIRTY_SET_LINES] != a as u32);
                        revealed |= (fresh as u64) << (32 + s);
                    }
                }
            }
        }
        // Then the pairs whose other number can be a focus of a pair rule.
        while revealed != 0 {
            let bit = revealed.trailing_zeros();
            revealed &= revealed - 1;
            let s = bit % 32;
            let (dr, dc) = SLOT_OFFSETS[s as usize];
            if bit < 32 {
                let g = self.src.get(r + dr as usize, c.wrapping_add(dc as usize));
                if g.orders & ORDER_2 != 0 {
                    self.pair(r, c, f, s, g)?;
                }
            } else {
                let (ar, ac) = (r - dr as usize, c.wrapping_sub(dc as usize));
                let g = self.src.get(ar, ac);
                if g.orders & ORDER_2 != 0 {
                    self.pair(ar, ac, g, s, f)?;
                }
            }
        }
        Ok(())
    }

    /// Looks up the pair anchored at `(r, c)` (focus `fa`) with `fb` at
    /// slot `s`.
    #[inline]
    fn pair(
        &mut self,
        r: usize,
        c: usize,
        fa: FocusInfo,
        s: u32,
        fb: FocusInfo,
    ) -> Result<(), Contradiction> {
        let key = pair_key(fa.order1, s, fb.order1);
        let hash = pair_hash(key);
        let index = self.index;
        if !index.filter.may_contain(hash) {
            return Ok(());
        }
        if let Some(head) = index.pairs.find(hash, key) {
            self.apply_chain(&index.entries2, head, r, c, 1 << s)?;
        }
        Ok(())
    }

    /// Looks up a key of order ≥ 2 and applies what it holds.
    #[inline]
    fn lookup(
        &mut self,
        key: u128,
        r: usize,
        c: usize,
        slot_set: u32,
    ) -> Result<(), Contradiction> {
        let index = self.index;
        let (lo, hi) = (key as u64, (key >> 64) as u64);
        let hash = key_hash(lo, hi);
        if !index.filter.may_contain(hash) {
            return Ok(());
        }
        if let Some(head) = index.multi.find(hash, lo, hi, &index.entries.keys) {
            self.apply_chain(&index.entries, head, r, c, slot_set)?;
        }
        Ok(())
    }

    /// Examines the placements of orders ≥ 3 anchored at `(r, c)`. With
    /// `required = Some(s)` only those with a focus at slot `s` (the dirty
    /// number).
    fn anchor(
        &mut self,
        r: usize,
        c: usize,
        fa: FocusInfo,
        required: Option<u32>,
    ) -> Result<(), Contradiction> {
        let index = self.index;
        let mut place = Placement {
            r,
            c,
            near: [NO_FOCUS; SLOTS as usize],
        };
        // The slots a placement may use: all of order ≥ 3, or with the
        // dirty number at slot `s`, those sharing a slot set with `s`.
        let wanted = match required {
            Some(s) => index.co_slots_above_2[s as usize] | 1 << s,
            None => index.slots_above_2,
        };
        // Which of them hold a revealed number, without a branch on the
        // board's contents (as for pairs), then which of those can be a
        // focus of a rule of order ≥ 3.
        let (h, w) = (self.grid.h, self.grid.w);
        let mut revealed = 0u32;
        let mut slots = wanted;
        while slots != 0 {
            let s = slots.trailing_zeros();
            slots &= slots - 1;
            let (dr, dc) = SLOT_OFFSETS[s as usize];
            let (rr, cc) = (r.wrapping_add(dr as usize), c.wrapping_add(dc as usize));
            if rr < h && cc < w {
                revealed |= (matches!(self.cells[rr * w + cc], Cell::Revealed(_)) as u32) << s;
            }
        }
        let mut candidates = 0u32;
        while revealed != 0 {
            let s = revealed.trailing_zeros();
            revealed &= revealed - 1;
            let (dr, dc) = SLOT_OFFSETS[s as usize];
            let f = self.src.get(r + dr as usize, c.wrapping_add(dc as usize));
            if f.orders & ORDERS_ABOVE_2 != 0 {
                place.near[s as usize] = f;
                candidates |= 1 << s;
            }
        }
        let required_bit = required.map_or(0, |s| 1u32 << s);
        if candidates & required_bit != required_bit {
            return Ok(());
        }
        for order in 3..=index.max_order {
            let order_bit = 1u16 << order;
            if fa.orders & order_bit == 0 {
                continue;
            }
            let mut usable = 0u32;
            let mut c2 = candidates & index.slots_by_order[order];
            while c2 != 0 {
                let s = c2.trailing_zeros();
                c2 &= c2 - 1;
                if place.near[s as usize].orders & order_bit != 0 {
                    usable |= 1 << s;
                }
            }
            if usable & required_bit != required_bit || usable == 0 {
                continue;
            }
            let closed = (fa.spread as u64) << ANCHOR_SHIFT;
            let values = (fa.value() as u128) << KEY_VALUES_SHIFT;
            self.extend(order, &place, usable, required_bit, 0, 1, closed, values)?;
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
        place: &Placement,
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
            let values2 = values | (f.value() as u128) << (KEY_VALUES_SHIFT + 4 * depth as u32);
            let prefix2 = prefix | 1 << s;
            if depth + 1 == order {
                if prefix2 & required_bit != required_bit {
                    continue;
                }
                let key = closed2 as u128 | (prefix2 as u128) << KEY_SLOTS_SHIFT | values2;
                self.lookup(key, place.r, place.c, prefix2)?;
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

    /// Applies every entry of the chain in `store` starting at `head` to
    /// the placement anchored at `(r, c)` with foci at `slot_set`.
    #[inline]
    fn apply_chain(
        &mut self,
        store: &EntryStore,
        head: u32,
        r: usize,
        c: usize,
        slot_set: u32,
    ) -> Result<(), Contradiction> {
        let mut at = Some(head).filter(|&h| h != NO_ENTRY);
        while let Some(e) = at {
            self.apply(store, e, r, c, slot_set)?;
            at = store.next(e);
        }
        Ok(())
    }

    /// The key matched: the foci have the pattern's values and `U`'s closed
    /// cells are exactly the pattern's. Runs the entry's remaining tests and
    /// applies it.
    fn apply(
        &mut self,
        store: &EntryStore,
        e: u32,
        r: usize,
        c: usize,
        slot_set: u32,
    ) -> Result<(), Contradiction> {
        let entry = store.entries[e as usize];
        let grid = self.grid;
        if entry.safe_meta & META_CHECKED != 0 && !self.passes(store.check(e), r, c) {
            return Ok(());
        }
        // A concluded cell is Closed in the pattern, so where the key
        // matched it is an unknown cell of the board; only an index damaged
        // past the checks of `frozen` could name a frame cell off the board,
        // and such a cell is never reported.
        let cell_of = |bit: u32| -> Option<u32> {
            let fr = bit as usize / FRAME_W;
            let fc = bit as usize % FRAME_W;
            let rr = (r + fr).wrapping_sub(ANCHOR_FRAME_ROW as usize);
            let cc = (c + fc).wrapping_sub(ANCHOR_FRAME_COL as usize);
            (rr < grid.h && cc < grid.w).then(|| (rr * grid.w + cc) as u32)
        };
        if entry.forbidden() {
            // A forbidden combination: no assignment of the pattern's closed
            // cells satisfies its foci (proven when the rule was made), and
            // the board shows exactly that pattern here.
            let mut foci = vec![(r * grid.w + c) as u32];
            let mut rest = slot_set;
            while rest != 0 {
                let s = rest.trailing_zeros();
                rest &= rest - 1;
                let (dr, dc) = slot_offset(s);
                foci.push(((r + dr as usize) * grid.w + c.wrapping_add(dc as usize)) as u32);
            }
            return Err(Contradiction::new(
                foci,
                format!("a forbidden combination of order {} matches", entry.order()),
            ));
        }
        // A sound rule matched cell by cell: its foci have exactly the
        // pattern's values and closed neighbours, so in every layout
        // consistent with these numbers the concluded cells are safe / mines
        // (each is Closed in the pattern, hence unknown here).
        for (mut bits, value) in [(entry.safe(), Value::Safe), (entry.mine, Value::Mine)] {
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                if let Some(cell) = cell_of(b) {
                    self.out.push((Forced { cell, value }, entry.order()));
                }
            }
        }
        Ok(())
    }

    /// The wall and extra-cell tests of an entry whose key matched at the
    /// anchor `(r, c)`.
    fn passes(&self, check: Check, r: usize, c: usize) -> bool {
        let grid = self.grid;
        if check.walls & !outside_mask(grid, r, c) != 0 {
            return false;
        }
        let extras = &self.index.extras[check.extras_start as usize..][..check.extras_len as usize];
        extras.iter().all(|x| {
            let rr = r as isize + x.dr as isize;
            let cc = c as isize + x.dc as isize;
            let inside = rr >= 0 && cc >= 0 && (rr as usize) < grid.h && (cc as usize) < grid.w;
            let unknown = inside && self.cells[rr as usize * grid.w + cc as usize].is_unknown();
            match x.cell {
                PatternCell::Any => true,
                PatternCell::Wall => !inside,
                PatternCell::Open => !unknown,
                PatternCell::Closed => unknown,
                // Every Number is a focus, inside the union; never stored.
                PatternCell::Number(_) => false,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Pattern;
    use PatternCell::*;

    /// A board from a picture: `?` unknown, `*` known mine, `.` known
    /// safe, digits revealed (the shared helper spells a mine `F`).
    fn board(rows: &[&str]) -> Board {
        let rows: Vec<String> = rows.iter().map(|r| r.replace('*', "F")).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        crate::board::board_from_picture(&rows, None)
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
        let every: FocusClasses = [ORDER_1; 81];
        let f = focus_info(&b, &every, 1, 1);
        assert_eq!(f.value(), 2);
        assert_eq!(f.order1, 2 * 512 + 0b110_001_101);
        assert_eq!(f.spread, 0b11 << 19 | 1 << 9 | 0b101);
        // Corner: neighbours outside the field are not closed.
        let f = focus_info(&b, &every, 2, 0);
        assert_eq!(f.value(), 2);
        // (1,0) is the 3×3's top middle, (2,1) its middle right.
        assert_eq!(f.order1 & 511, 0b000_100_010);
        // Only the orders whose foci have that value and count.
        let mut classes: FocusClasses = [0; 81];
        classes[2 * 9 + 2] = ORDER_2;
        assert_eq!(focus_info(&b, &classes, 2, 0).orders, ORDER_2);
        assert_eq!(focus_info(&b, &classes, 1, 1).orders, 0);
        // Too many flags: no value any pattern has.
        let b = board(&["**", "1?"]);
        assert_eq!(focus_info(&b, &every, 1, 0).orders, 0);
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

    /// `one_one_wall` with its walls read as open cells: the same key in
    /// every orientation, different walls.
    fn one_one_open() -> Rule {
        let mut rule = one_one_wall();
        for cell in &mut rule.pattern.cells {
            if *cell == Wall {
                *cell = Open;
            }
        }
        rule.canonical()
    }

    #[test]
    fn images_with_one_key_and_different_walls_share_a_chain() {
        let index = RuleIndex::from_rules(&[one_one_wall(), one_one_open()]);
        let stats = index.stats();
        assert_eq!(stats.images_by_order[2], 16);
        assert_eq!(stats.multi_keys, 8);
        assert_eq!(stats.entries, 16);
        assert_eq!(stats.checked_entries, 8);
        // In the corner both match (outside the field counts as open).
        let mut out = Vec::new();
        index.find(&board(&["11.", "???"]), None, &mut out).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0.cell, 5);
        // Away from the walls only the open one, whichever entry of the
        // chain comes first.
        for rules in [
            [one_one_wall(), one_one_open()],
            [one_one_open(), one_one_wall()],
        ] {
            let index = RuleIndex::from_rules(&rules);
            let mut out = Vec::new();
            index
                .find(&board(&["....", ".11.", ".???"]), None, &mut out)
                .unwrap();
            let expected = Forced {
                cell: 11,
                value: Value::Safe,
            };
            assert_eq!(out, vec![(expected, 2)]);
        }
    }

    #[test]
    fn identical_images_of_different_rules_are_merged() {
        let rule = one_one_wall();
        let index = RuleIndex::from_rules(&[rule.clone(), rule.clone()]);
        assert_eq!(index.len(), 2);
        assert_eq!(index.stats().entries, 8);
        // A forbidden rule with the same pattern makes the merged entries
        // forbidden, in either order.
        let mut forbidden = rule.clone();
        forbidden.kind = RuleKind::Forbidden;
        forbidden.safe = 0;
        for rules in [
            [rule.clone(), forbidden.clone()],
            [forbidden.clone(), rule.clone()],
        ] {
            let index = RuleIndex::from_rules(&rules);
            let stats = index.stats();
            assert_eq!((stats.entries, stats.forbidden_entries), (8, 8));
            let err = index
                .find(&board(&["11.", "???"]), None, &mut Vec::new())
                .unwrap_err();
            assert_eq!(err.cells, vec![0, 1]);
        }
    }

    #[test]
    fn a_symmetric_rule_is_stored_once_per_distinct_image() {
        // A 0 with every neighbour closed: all 8 images are the same rule.
        let mut cells = vec![Closed; 9];
        cells[4] = Number(0);
        let rule = Rule {
            pattern: Pattern::new(3, 3, cells),
            kind: RuleKind::Forced,
            safe: 0b111_101_111,
            mine: 0,
        };
        let index = RuleIndex::from_rules(&[rule]);
        assert_eq!(index.stats().images_by_order[1], 1);
        assert_eq!(index.stats().entries, 1);
        // `2 2` over two closed cells, open around: both are mines. The
        // rule is its own left-right mirror image: 4 distinct images.
        let mut cells = vec![Open; 12];
        cells[5] = Number(2);
        cells[6] = Number(2);
        cells[9] = Closed;
        cells[10] = Closed;
        let rule = Rule {
            pattern: Pattern::new(3, 4, cells),
            kind: RuleKind::Forced,
            safe: 0,
            mine: 1 << 9 | 1 << 10,
        };
        let index = RuleIndex::from_rules(&[rule.canonical()]);
        assert_eq!(index.stats().images_by_order[2], 4);
    }

    #[test]
    fn every_way_of_reading_the_numbers_agrees() {
        let index = RuleIndex::from_rules(&[one_one_wall(), one_one_open()]);
        // A board wider and taller than the cache (8 × 16), numbers
        // everywhere: cache lines are reused across dirty numbers.
        let rows: Vec<String> = (0..20)
            .map(|r| {
                (0..37)
                    .map(|c| match (r % 3, c % 5) {
                        (2, _) => '?',
                        (_, 3) | (_, 4) => '.',
                        _ => '1',
                    })
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let b = board(&rows);
        let numbers: Vec<u32> = (0..b.grid().len() as u32)
            .filter(|&i| matches!(b.cell(i), Cell::Revealed(_)))
            .collect();
        let mut full = Vec::new();
        index
            .find_with(&b, None, FociReading::Table, &mut full)
            .unwrap();
        assert!(!full.is_empty());
        for reading in [
            FociReading::Auto,
            FociReading::Table,
            FociReading::Live,
            FociReading::Cached,
        ] {
            let mut all = Vec::new();
            index.find_with(&b, None, reading, &mut all).unwrap();
            assert_eq!(all, full, "{reading:?}");
            // Every number dirty, in a scattered order.
            let mut scattered = numbers.clone();
            scattered.sort_by_key(|&i| (i * 7919) % 1009);
            let mut dirty = Vec::new();
            index
                .find_with(&b, Some(&scattered), reading, &mut dirty)
                .unwrap();
            assert_eq!(dirty, full, "{reading:?}");
        }
    }

    #[test]
    fn divisor_agrees_with_division() {
        for d in [1u32, 2, 3, 7, 9, 16, 30, 37, 1000, 65_537, u32::MAX] {
            let div = Divisor::new(d);
            let samples = (0..2000u32)
                .chain([d - 1, d, d.wrapping_add(1), u32::MAX - 1, u32::MAX])
                .chain((0..2000u32).map(|k| k.wrapping_mul(2_654_435_761)));
            for n in samples {
                assert_eq!(div.div_rem(n), (n / d, n % d), "{n} / {d}");
            }
        }
    }

    #[test]
    fn mask9_images_turn_like_patterns() {
        for (sym, images) in MASK9_IMAGES.iter().enumerate() {
            for (mask, &image) in images.iter().enumerate() {
                let cells = (0..9)
                    .map(|b| if mask >> b & 1 == 1 { Closed } else { Open })
                    .collect();
                let turned = Pattern::new(3, 3, cells).transform(sym);
                let expected = (0..9)
                    .filter(|&b| turned.cells[b] == Closed)
                    .fold(0u16, |m, b| m | 1 << b);
                assert_eq!(image, expected, "sym {sym} mask {mask:09b}");
            }
        }
    }
}
