//! Scanning a board: reading the numbers around the placements examined,
//! looking up keys, checking entries and applying their conclusions.

use super::layout::{
    focus_info, outside_mask, slot_offset, slot_shift, FocusClasses, FocusInfo, Order1Outcome,
    ANCHOR_FRAME_COL, ANCHOR_FRAME_ROW, ANCHOR_SHIFT, FRAME_W, KEY_SLOTS_SHIFT, KEY_VALUES_SHIFT,
    NO_ENTRY, NO_FOCUS, ORDERS_ABOVE_2, ORDER_1, ORDER_2, SLOTS, SLOT_OFFSETS,
};
use super::tables::{key_hash, pair_hash, pair_key, Check, EntryStore, META_CHECKED};
use super::{FociReading, RuleIndex};
use crate::board::{Board, Cell, Contradiction, Forced, Value};
use crate::grid::Grid;
use crate::rules::PatternCell;

/// Where [`FocusInfo`]s come from during one `find` call. `(r, c)` is
/// always inside the grid.
trait FocusSource {
    fn get(&mut self, r: usize, c: usize) -> FocusInfo;
}

/// Computed once for every cell (full scans, long dirty lists).
struct FociTable {
    pub(super) foci: Vec<FocusInfo>,
    pub(super) w: usize,
}

impl FociTable {
    pub(super) fn new(board: &Board, classes: &FocusClasses) -> FociTable {
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
    pub(super) board: &'b Board,
    pub(super) grid: Grid,
    pub(super) classes: &'b FocusClasses,
    /// Cell index held by each cache line (`u32::MAX`: none).
    tags: [u32; CACHE_ROWS * CACHE_COLS],
    pub(super) foci: [FocusInfo; CACHE_ROWS * CACHE_COLS],
}

impl<'b> CachedFoci<'b> {
    pub(super) fn new(board: &'b Board, classes: &'b FocusClasses) -> CachedFoci<'b> {
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

impl RuleIndex {
    /// An index of order-1 rules only, over a dirty list: each dirty number
    /// is one lookup of its effective value and closed-neighbour mask
    /// (both kept by the board) in [`RuleIndex::order1_outcomes`]. Finds
    /// exactly what the generic scan finds (tested against it).
    pub(super) fn order1_dirty(
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

    pub(super) fn scan(
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
            // (`benches/`), the cache wins until about half
            // the cells are dirty.
            (FociReading::Auto, Some(d)) if d.len() * 2 >= grid.len() => FociReading::Table,
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

/// Sorts what one `find` call appended, keeps the lowest order per cell, and
/// rejects a cell proven both ways.
pub(super) fn finish(out: &mut Vec<(Forced, u8)>, start: usize) -> Result<(), Contradiction> {
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

/// Division by a number fixed for a whole call (the grid width) as a
/// multiplication: a hardware division per dirty number was a noticeable
/// part of a call.
#[derive(Clone, Copy, Debug)]
pub(super) struct Divisor {
    pub(super) d: u32,
    /// `⌈2^64 / d⌉` (0 for `d = 1`): for every `n < 2^32`,
    /// `⌊n · m / 2^64⌋ = ⌊n / d⌋`, since `n · (m·d − 2^64) < 2^32 · d ≤ 2^64`
    /// keeps the error below `1/d`.
    pub(super) m: u64,
}

impl Divisor {
    pub(super) fn new(d: u32) -> Divisor {
        let m = if d <= 1 { 0 } else { u64::MAX / d as u64 + 1 };
        Divisor { d, m }
    }

    /// `(n / d, n % d)`; `d` must not be 0.
    #[inline]
    pub(super) fn div_rem(self, n: u32) -> (u32, u32) {
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
    pub(super) index: &'a RuleIndex,
    src: &'a mut S,
    pub(super) cells: &'a [Cell],
    pub(super) grid: Grid,
    pub(super) out: &'a mut Vec<(Forced, u8)>,
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
    pub(super) r: usize,
    pub(super) c: usize,
    /// Foci at slots, indexed by slot (valid where the anchor's candidate
    /// set has the bit).
    near: [FocusInfo; SLOTS as usize],
}

impl<S: FocusSource> Scan<'_, S> {
    /// The cell `(r + dr, c + dc)` if it is inside the grid.
    #[inline]
    pub(super) fn offset(
        &self,
        r: usize,
        c: usize,
        dr: isize,
        dc: isize,
    ) -> Option<(usize, usize)> {
        let rr = r.wrapping_add(dr as usize);
        let cc = c.wrapping_add(dc as usize);
        (rr < self.grid.h && cc < self.grid.w).then_some((rr, cc))
    }

    /// Examines the placements through the number at `(r, c)`: with
    /// `dirty`, every placement it is a focus of; otherwise (a full scan
    /// over all anchors) those it is the anchor of.
    pub(super) fn number(&mut self, r: usize, c: usize, dirty: bool) -> Result<(), Contradiction> {
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
    pub(super) fn pairs(
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
    pub(super) fn pair(
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
    pub(super) fn extend(
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
