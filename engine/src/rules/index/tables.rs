//! The lookup tables: keys and their hashes, entries and their chains,
//! and the open-addressing tables of order 2 (pairs) and above.

use super::layout::{FRAME_H, FRAME_W};
use crate::rules::{PatternCell, SYMMETRIES};
use crate::wire::{LittleEndian, Shared};
use hashbrown::HashMap;

/// The hash of a key of order ≥ 2, for both the table and the filter: a
/// folded 128-bit multiply (every output bit depends on every key bit),
/// twice.
#[inline]
pub(super) fn key_hash(lo: u64, hi: u64) -> u64 {
    #[inline]
    pub(super) fn fold(a: u64, b: u64) -> u64 {
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
pub(super) struct KeyFilter {
    pub(super) words: Shared<u64>,
    pub(super) mask: u64,
}

impl KeyFilter {
    pub(super) fn new(keys: usize) -> KeyFilter {
        let words = (keys / 8).max(1).next_power_of_two();
        KeyFilter {
            words: vec![0; words].into(),
            mask: words as u64 - 1,
        }
    }

    #[inline]
    pub(super) fn bits(h: u64) -> u64 {
        1u64 << (h & 63) | 1u64 << (h >> 6 & 63)
    }

    pub(super) fn insert(&mut self, hash: u64) {
        self.words.to_mut()[(hash >> 12 & self.mask) as usize] |= KeyFilter::bits(hash);
    }

    /// False only for hashes never inserted.
    #[inline]
    pub(super) fn may_contain(&self, hash: u64) -> bool {
        let b = KeyFilter::bits(hash);
        self.words[(hash >> 12 & self.mask) as usize] & b == b
    }
}

/// A pattern cell outside the union of the foci's neighbourhoods that is
/// not `Any`, relative to the anchor. Checked literally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct ExtraCell {
    pub(super) dr: i16,
    pub(super) dc: i16,
    pub(super) cell: PatternCell,
}

/// One image (or several identical images merged), in 16 bytes: its
/// conclusion, with its order and flags in the spare high bits (frame masks
/// use bits 0..54). Keys live in the tables (order 1, 2) or beside the
/// entries (orders ≥ 3); wall and extra-cell tests and further entries
/// under the same key — rare — in [`EntryStore`]'s maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(super) struct Entry {
    /// Frame bits concluded safe, plus `order << META_ORDER_SHIFT` and the
    /// `META_*` flags.
    pub(super) safe_meta: u64,
    /// Frame bits concluded mine.
    pub(super) mine: u64,
}

/// The frame bits of a mask.
pub(super) const FRAME_BITS: u64 = (1 << (FRAME_W * FRAME_H)) - 1;
/// [`Entry::safe_meta`]: the order (4 bits), then flags.
pub(super) const META_ORDER_SHIFT: u32 = 54;
/// A forbidden combination (safe and mine are 0).
pub(super) const META_FORBIDDEN: u64 = 1 << 58;
/// Another entry follows under the same key ([`EntryStore::next`]).
pub(super) const META_NEXT: u64 = 1 << 59;
/// The entry has wall or extra-cell tests ([`EntryStore::checks`]).
pub(super) const META_CHECKED: u64 = 1 << 60;

impl Entry {
    #[inline]
    pub(super) fn safe(self) -> u64 {
        self.safe_meta & FRAME_BITS
    }
    #[inline]
    pub(super) fn order(self) -> u8 {
        (self.safe_meta >> META_ORDER_SHIFT & 15) as u8
    }
    #[inline]
    pub(super) fn forbidden(self) -> bool {
        self.safe_meta & META_FORBIDDEN != 0
    }
}

impl LittleEndian for Entry {
    fn le(self) -> Entry {
        Entry {
            safe_meta: self.safe_meta.le(),
            mine: self.mine.le(),
        }
    }
}

/// The tests of an entry beyond its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Check {
    /// Frame bits that must lie outside the field (`Wall` cells of `U`).
    pub(super) walls: u64,
    /// Range in [`RuleIndex::extras`].
    pub(super) extras_start: u32,
    pub(super) extras_len: u32,
}

pub(super) const NO_CHECK: Check = Check {
    walls: 0,
    extras_start: 0,
    extras_len: 0,
};

/// Entries of one kind of key (order 1, order 2, or orders ≥ 3), with
/// their rare extras.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct EntryStore {
    pub(super) entries: Shared<Entry>,
    /// Orders ≥ 3: the key of each entry, `[lo, hi]` (the table holds only
    /// tags).
    pub(super) keys: Shared<[u64; 2]>,
    /// Entry → the next entry under the same key (entries with
    /// [`META_NEXT`]).
    pub(super) next: HashMap<u32, u32>,
    /// Entry → its wall and extra-cell tests (entries with
    /// [`META_CHECKED`]).
    pub(super) checks: HashMap<u32, Check>,
}

impl EntryStore {
    #[inline]
    pub(super) fn check(&self, e: u32) -> Check {
        if self.entries[e as usize].safe_meta & META_CHECKED == 0 {
            NO_CHECK
        } else {
            self.checks[&e]
        }
    }

    #[inline]
    pub(super) fn next(&self, e: u32) -> Option<u32> {
        (self.entries[e as usize].safe_meta & META_NEXT != 0).then(|| self.next[&e])
    }

    pub(super) fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.entries)
            + std::mem::size_of_val(&*self.keys)
            + self.next.capacity() * (std::mem::size_of::<(u32, u32)>() + 1)
            + self.checks.capacity() * (std::mem::size_of::<(u32, Check)>() + 1)
    }
}

/// The order ≥ 3 keys: open addressing with linear probing over 8-byte
/// slots `tag << 32 | entry` (the key is kept beside the entry), at most two
/// thirds full. Written by hand rather than taken from `hashbrown`: the
/// slots are part of the frozen index (`frozen.rs`) and are probed where
/// they lie in a mapped file or the binary, which needs a layout fixed by
/// the format, not by a crate's version. The tag (32 other bits of the hash) makes comparing a key
/// that is not there almost never touch the keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct KeyTable {
    pub(super) slots: Shared<u64>,
    pub(super) len: usize,
}

pub(super) const EMPTY_SLOT: u64 = u64::MAX;

/// Slots for an open-addressing table of `keys` keys: load factor ≤ 2/3.
fn table_slots(keys: usize) -> Shared<u64> {
    vec![EMPTY_SLOT; keys + keys / 2 + 1].into()
}

/// First slot to probe in a table of `len` slots: the hash's high bits
/// scaled to the table.
#[inline]
fn probe_start(len: usize, hash: u64) -> usize {
    ((hash as u128 * len as u128) >> 64) as usize
}

impl KeyTable {
    pub(super) fn with_capacity(keys: usize) -> KeyTable {
        KeyTable {
            slots: table_slots(keys),
            len: 0,
        }
    }

    #[inline]
    pub(super) fn start(&self, hash: u64) -> usize {
        probe_start(self.slots.len(), hash)
    }

    #[inline]
    fn tag(hash: u64) -> u64 {
        (hash >> 16) & 0xFFFF_FFFF
    }

    /// The entry of key `(lo, hi)` (`keys`: the key of each entry).
    #[inline]
    pub(super) fn find(&self, hash: u64, lo: u64, hi: u64, keys: &[[u64; 2]]) -> Option<u32> {
        let tag = KeyTable::tag(hash);
        let mut i = self.start(hash);
        loop {
            let slot = self.slots[i];
            if slot == EMPTY_SLOT {
                return None;
            }
            if slot >> 32 == tag && keys[slot as u32 as usize] == [lo, hi] {
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
    pub(super) fn find_or_insert(
        &mut self,
        hash: u64,
        lo: u64,
        hi: u64,
        keys: &[[u64; 2]],
        new: u32,
    ) -> Option<u32> {
        let tag = KeyTable::tag(hash);
        let mut i = self.start(hash);
        loop {
            let slot = self.slots[i];
            if slot == EMPTY_SLOT {
                self.slots.to_mut()[i] = tag << 32 | new as u64;
                self.len += 1;
                return None;
            }
            if slot >> 32 == tag && keys[slot as u32 as usize] == [lo, hi] {
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
pub(super) fn pair_key(anchor_order1: u16, slot: u32, other_order1: u16) -> u32 {
    anchor_order1 as u32 | (other_order1 as u32) << 13 | slot << 26
}

/// Per symmetry ([`SYMMETRIES`]), the image of every 3×3 mask (bit
/// `3k + j`): a focus's closed neighbourhood turns with the pattern.
pub(super) const MASK9_IMAGES: [[u16; 512]; 8] = {
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
pub(super) fn pair_hash(key: u32) -> u64 {
    let p = (key as u64 ^ 0x243F_6A88_85A3_08D3) as u128 * 0x9E37_79B9_7F4A_7C15u128;
    p as u64 ^ (p >> 64) as u64
}

/// The order-2 keys: open addressing with linear probing over 8-byte slots
/// `key << 32 | entry`, at most two thirds full (by hand for the reason
/// [`KeyTable`] gives). A probe compares whole
/// keys without leaving the slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PairTable {
    pub(super) slots: Shared<u64>,
    pub(super) len: usize,
}

impl PairTable {
    pub(super) fn with_capacity(keys: usize) -> PairTable {
        PairTable {
            slots: table_slots(keys),
            len: 0,
        }
    }

    #[inline]
    pub(super) fn start(&self, hash: u64) -> usize {
        probe_start(self.slots.len(), hash)
    }

    /// The entry of pair key `key`.
    #[inline]
    pub(super) fn find(&self, hash: u64, key: u32) -> Option<u32> {
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
    pub(super) fn find_or_insert(&mut self, hash: u64, key: u32, new: u32) -> Option<u32> {
        let mut i = self.start(hash);
        loop {
            let slot = self.slots[i];
            if slot >> 32 == key as u64 {
                return Some(slot as u32);
            }
            if slot == EMPTY_SLOT {
                self.slots.to_mut()[i] = (key as u64) << 32 | new as u64;
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
