//! The frame, slots and masks: where a rule's cells sit around its anchor,
//! and how a focus's neighbourhood is packed into bits.

use crate::board::Board;
use crate::grid::Grid;

/// Width of the frame (columns `anchor col − 4 ..= anchor col + 4`).
pub(super) const FRAME_W: usize = 9;
/// Height of the frame (rows `anchor row − 1 ..= anchor row + 4`).
pub(super) const FRAME_H: usize = 6;
/// Frame row of the anchor.
pub(super) const ANCHOR_FRAME_ROW: isize = 1;
/// Frame column of the anchor.
pub(super) const ANCHOR_FRAME_COL: isize = 4;
/// Frame bits of one frame row.
pub(super) const FRAME_ROW_BITS: u64 = (1 << FRAME_W) - 1;
/// Frame bits of frame column 0 (shift left by the column).
pub(super) const FRAME_COL_BITS: u64 = 1 | 1 << 9 | 1 << 18 | 1 << 27 | 1 << 36 | 1 << 45;
/// Slots: offsets of non-anchor foci, `dr·7 + dc + 3`.
pub(super) const SLOT_COLS: isize = 7;
pub(super) const SLOTS: u32 = 28;
/// Slots `0..4` would be `dr = 0, dc ≤ 0`: before the anchor, never used.
pub(super) const FIRST_SLOT: u32 = 4;
/// Shift of the spread 3×3 mask of the anchor into the frame.
pub(super) const ANCHOR_SHIFT: u32 = 3;

pub(super) const KEY_SLOTS_SHIFT: u32 = 54;
pub(super) const KEY_VALUES_SHIFT: u32 = 82;

/// Highest order the key has room for (4 bits per focus value above bit 82).
pub const MAX_ORDER: usize = 11;

/// End of an entry chain.
pub(super) const NO_ENTRY: u32 = u32::MAX;

/// `(dr, dc)` of a slot.
#[inline]
pub(super) fn slot_offset(slot: u32) -> (isize, isize) {
    SLOT_OFFSETS[slot as usize]
}

/// `(dr, dc)` of every slot.
pub(super) const SLOT_OFFSETS: [(isize, isize); SLOTS as usize] = {
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
pub(super) fn slot_shift(slot: u32) -> u32 {
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
pub(super) struct FocusInfo {
    pub(super) spread: u32,
    pub(super) order1: u16,
    pub(super) orders: u16,
}

impl FocusInfo {
    #[inline]
    pub(super) fn value(self) -> u8 {
        (self.order1 >> 9) as u8
    }
}

pub(super) const NO_FOCUS: FocusInfo = FocusInfo {
    spread: 0,
    order1: 0,
    orders: 0,
};

/// `orders` bits.
pub(super) const ORDER_1: u16 = 1 << 1;
pub(super) const ORDER_2: u16 = 1 << 2;
pub(super) const ORDERS_ABOVE_2: u16 = !0b111;

/// Per `value · 9 + unknown neighbours`: the orders a number can be a focus
/// of (see [`FocusInfo::orders`]).
pub(super) type FocusClasses = [u16; 81];

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
pub(super) const MASK9_OF_CLOSED: [u32; 256] = closed_mask_layout(3);

/// What the order-1 rules conclude around a number with a given effective
/// value and closed-neighbour mask, in one word: the directions
/// ([`crate::grid::DIRECTIONS`]) proven safe (bits 0..8) and proven mine
/// (bits 8..16), and [`Order1Outcome::FORBIDDEN`]. 0: nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Order1Outcome(pub(super) u32);

impl Order1Outcome {
    pub(super) const NOTHING: Order1Outcome = Order1Outcome(0);
    pub(super) const FORBIDDEN: u32 = 1 << 16;

    #[inline]
    pub(super) fn safe(self) -> u8 {
        self.0 as u8
    }
    #[inline]
    pub(super) fn mine(self) -> u8 {
        (self.0 >> 8) as u8
    }
    #[inline]
    pub(super) fn forbidden(self) -> bool {
        self.0 & Self::FORBIDDEN != 0
    }
}

/// Reads cell `(r, c)` (inside the grid) as a focus: two reads of the
/// board's kept state (the cell, then its counters and closed mask).
#[inline]
pub(super) fn focus_info(board: &Board, classes: &FocusClasses, r: usize, c: usize) -> FocusInfo {
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

/// Frame bits of the anchor at `(r, c)` that fall outside the field.
#[inline]
pub(super) fn outside_mask(grid: Grid, r: usize, c: usize) -> u64 {
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
