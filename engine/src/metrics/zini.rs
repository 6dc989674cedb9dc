//! ZiNi: the greedy estimate of the fewest clicks (left clicks, flags,
//! chords) that clear a board, by Elmar Zimmermann and Christoph
//! Nikolaus, as the community's calculators and ms_toollib's `cal_zini`
//! compute it; and its "human" variant HZiNi (`cal_hzini`).
//!
//! Every safe cell has a **premium**: what flagging the mines around it
//! and chording it would gain, in clicks —
//!
//! ```text
//! premium = gain − (its mines not yet flagged) − 1 (the chord)
//!                − (1 if the cell is still closed: the click that opens it)
//! gain    = the isolated numbers in its 3×3 square not yet revealed
//!         + the openings it belongs to (as a 0-cell or a border number)
//!           not yet revealed
//! ```
//!
//! Each step takes the safe cell of highest premium, if that is at least
//! 0, opens it if it is closed, flags the mines around it and chords it.
//! Ties go to the first cell in column-major order (column by column, each
//! from the top), as in the original program and ms_toollib. When no
//! premium is 0 or more, the step is one left click on the first closed
//! 0-cell or isolated number in the same order. The steps repeat until
//! every safe cell is open; ZiNi is the number of clicks made.
//!
//! HZiNi first left-clicks every opening (in the same order), then takes
//! only open cells for the chord steps, as a player sees numbers only once
//! they are open.
//!
//! A step costs the cells it changes plus a few word scans: every safe
//! cell sits in the bit set of its premium (HZiNi's closed cells in one of
//! their own), indexed by the column-major position, each set with a
//! summary word per 64 words, so the first cell of the highest premium is
//! found without looking at the others. ms_toollib scans every cell at
//! every step instead.

use super::{square_offsets, Units, NONE, PAD_MINE};
use crate::Field;

/// What one click does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A left click on a closed cell: it opens, and a 0-cell opens its
    /// whole opening.
    Open,
    /// A right click on a closed cell: it is flagged.
    Flag,
    /// A chord on an open number whose flags around equal it: every closed
    /// cell around that is not flagged opens.
    Chord,
}

impl Action {
    /// `"open"`, `"flag"` or `"chord"`.
    pub fn name(self) -> &'static str {
        match self {
            Action::Open => "open",
            Action::Flag => "flag",
            Action::Chord => "chord",
        }
    }
}

/// One click on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Click {
    /// What the click does.
    pub action: Action,
    /// The cell clicked, row-major (`row * w + col`).
    pub cell: u32,
}

/// The clicks of ZiNi on `field`, in order (the module's doc says how they
/// are chosen); ZiNi is their number. Played on the board they clear it:
/// every safe cell open, only mines flagged, no click without effect.
pub fn zini(field: &Field) -> Vec<Click> {
    greedy(field, &Units::new(field), false)
}

/// The clicks of HZiNi, the human variant: every opening clicked first,
/// then chords on open cells only.
pub fn hzini(field: &Field) -> Vec<Click> {
    greedy(field, &Units::new(field), true)
}

/// The lowest premium a cell can have: no gain, 8 mines to flag, the
/// chord and the click that opens it.
const MIN_PREMIUM: i32 = -10;
/// The highest premium a cell can have: 9 units in its square at most
/// (a cell next to an opening has a 0 there, which is no unit of the
/// square), less the chord.
const MAX_PREMIUM: i32 = 8;
/// One set of cells per premium value, lowest first.
const PREMIUMS: usize = (MAX_PREMIUM - MIN_PREMIUM + 1) as usize;
/// The set of the safe cells HZiNi may not chord yet (closed ones).
const PARKED: usize = PREMIUMS;
/// The set of the closed 0-cells and isolated numbers: the left-click
/// fallbacks.
const FALLBACK: usize = PREMIUMS + 1;

/// Sets of column-major positions, each a two-level bit set (bits, and a
/// summary bit per non-zero word), all in two flat vectors.
struct PositionSets {
    words: usize,
    summaries: usize,
    bits: Vec<u64>,
    summary: Vec<u64>,
}

impl PositionSets {
    fn new(sets: usize, positions: usize) -> PositionSets {
        let words = positions.div_ceil(64);
        let summaries = words.div_ceil(64);
        PositionSets {
            words,
            summaries,
            bits: vec![0; sets * words],
            summary: vec![0; sets * summaries],
        }
    }

    #[inline]
    fn insert(&mut self, set: usize, pos: usize) {
        let word = pos / 64;
        self.bits[set * self.words + word] |= 1 << (pos % 64);
        self.summary[set * self.summaries + word / 64] |= 1 << (word % 64);
    }

    /// Takes `pos` out of `set` (without a branch: cells move between
    /// sets at every step, in no predictable pattern).
    #[inline]
    fn remove(&mut self, set: usize, pos: usize) {
        let word = pos / 64;
        let w = &mut self.bits[set * self.words + word];
        *w &= !(1 << (pos % 64));
        let empty = u64::from(*w == 0);
        self.summary[set * self.summaries + word / 64] &= !(empty << (word % 64));
    }

    /// The smallest position in `set`.
    fn first(&self, set: usize) -> Option<usize> {
        let summary = &self.summary[set * self.summaries..(set + 1) * self.summaries];
        let (s, &bits) = summary.iter().enumerate().find(|(_, &b)| b != 0)?;
        let word = s * 64 + bits.trailing_zeros() as usize;
        let w = self.bits[set * self.words + word];
        Some(word * 64 + w.trailing_zeros() as usize)
    }
}

/// The state of one greedy run, on the framed grid of [`Units`] (row-major
/// with stride `w + 2`, a frame of outside cells around).
struct Greedy<'a> {
    units: &'a Units,
    /// HZiNi: only open cells may be chorded.
    human: bool,
    h: usize,
    w: usize,
    square: [isize; 9],
    premium: Vec<i32>,
    opened: Vec<bool>,
    flagged: Vec<bool>,
    /// Per framed cell: its column-major position (the order ties are
    /// broken in); and per position, the framed cell.
    position: Vec<u32>,
    at: Vec<u32>,
    closed_safe: usize,
    /// The cells of each opening (its 0-cells and its border), CSR:
    /// opening `o` owns `members[member_start[o]..member_start[o + 1]]`.
    member_start: Vec<u32>,
    members: Vec<u32>,
    /// Sets `0..PREMIUMS`: the safe cells that may be chorded, by
    /// premium from [`MIN_PREMIUM`]; [`PARKED`]: the others; [`FALLBACK`]:
    /// the closed 3BV units.
    sets: PositionSets,
    clicks: Vec<Click>,
}

pub(super) fn greedy(field: &Field, units: &Units, human: bool) -> Vec<Click> {
    let mut g = Greedy::new(field, units, human);
    g.run();
    g.clicks
}

impl<'a> Greedy<'a> {
    fn new(field: &Field, units: &'a Units, human: bool) -> Greedy<'a> {
        let (h, w) = (field.grid.h, field.grid.w);
        let stride = w + 2;
        let framed = units.kind.len();
        let square = square_offsets(w);
        let real = |r: usize, c: usize| (r + 1) * stride + c + 1;
        // Each opening's 0-cells (counting sort by opening), then its
        // members: the 0-cells and every number around them, each once
        // (`stamp` remembers the last opening a cell joined).
        let openings = units.openings() as usize;
        let mut zero_start = vec![0u32; openings + 1];
        for &o in &units.opening {
            if o != NONE {
                zero_start[o as usize + 1] += 1;
            }
        }
        for o in 0..openings {
            zero_start[o + 1] += zero_start[o];
        }
        let mut zeros = vec![0u32; zero_start[openings] as usize];
        let mut fill = zero_start.clone();
        for (p, &o) in units.opening.iter().enumerate() {
            if o != NONE {
                zeros[fill[o as usize] as usize] = p as u32;
                fill[o as usize] += 1;
            }
        }
        let mut member_start = Vec::with_capacity(openings + 1);
        let mut members = Vec::with_capacity(zeros.len() * 2);
        let mut memberships = vec![0i32; framed];
        let mut stamp = vec![u32::MAX; framed];
        member_start.push(0);
        for o in 0..openings {
            for &z in &zeros[zero_start[o] as usize..zero_start[o + 1] as usize] {
                for d in square {
                    let q = (z as usize).wrapping_add_signed(d);
                    if units.kind[q] <= 8 && stamp[q] != o as u32 {
                        stamp[q] = o as u32;
                        members.push(q as u32);
                        memberships[q] += 1;
                    }
                }
            }
            member_start.push(members.len() as u32);
        }
        let mut position = vec![u32::MAX; framed];
        let mut at = vec![0u32; h * w];
        let mut premium = vec![0i32; framed];
        for r in 0..h {
            for c in 0..w {
                let p = real(r, c);
                position[p] = (c * h + r) as u32;
                at[c * h + r] = p as u32;
                if units.kind[p] > 8 {
                    continue;
                }
                let isolated = square
                    .iter()
                    .filter(|&&d| units.isolated[p.wrapping_add_signed(d)])
                    .count() as i32;
                premium[p] = isolated + memberships[p] - i32::from(units.kind[p]) - 2;
            }
        }
        let mut g = Greedy {
            units,
            human,
            h,
            w,
            square,
            premium,
            opened: vec![false; framed],
            flagged: vec![false; framed],
            position,
            at,
            closed_safe: field.safe_cells(),
            member_start,
            members,
            sets: PositionSets::new(FALLBACK + 1, h * w),
            clicks: Vec::new(),
        };
        for pos in 0..h * w {
            let p = g.at[pos] as usize;
            if units.kind[p] > 8 {
                continue;
            }
            g.sets.insert(g.set_of(p), pos);
            if units.opening[p] != NONE || units.isolated[p] {
                g.sets.insert(FALLBACK, pos);
            }
        }
        g
    }

    fn safe(&self, p: usize) -> bool {
        self.units.kind[p] <= 8
    }

    fn mine(&self, p: usize) -> bool {
        self.units.kind[p] == PAD_MINE
    }

    /// Whether a safe cell may be chosen for a chord step.
    fn eligible(&self, p: usize) -> bool {
        !self.human || self.opened[p]
    }

    /// The set a safe cell belongs in.
    #[inline]
    fn set_of(&self, p: usize) -> usize {
        let premium = self.premium[p];
        debug_assert!(
            (MIN_PREMIUM..=MAX_PREMIUM).contains(&premium),
            "premium {premium} of cell {p}"
        );
        if self.eligible(p) {
            (premium - MIN_PREMIUM) as usize
        } else {
            PARKED
        }
    }

    /// Adds `delta` to a safe cell's premium, moving it between the sets.
    #[inline]
    fn change(&mut self, p: usize, delta: i32) {
        let from = self.set_of(p);
        self.premium[p] += delta;
        let to = self.set_of(p);
        let pos = self.position[p] as usize;
        self.sets.remove(from, pos);
        self.sets.insert(to, pos);
    }

    /// The eligible cell of the highest premium (at least 0), the first
    /// in column-major order among equals.
    fn best(&self) -> Option<usize> {
        (0..=MAX_PREMIUM)
            .rev()
            .find_map(|premium| self.sets.first((premium - MIN_PREMIUM) as usize))
            .map(|pos| self.at[pos] as usize)
    }

    fn open(&mut self, p: usize) {
        let from = self.set_of(p);
        self.opened[p] = true;
        self.premium[p] += 1;
        let to = self.set_of(p);
        let pos = self.position[p] as usize;
        self.sets.remove(from, pos);
        self.sets.insert(to, pos);
        self.closed_safe -= 1;
        self.sets.remove(FALLBACK, self.position[p] as usize);
        if self.units.isolated[p] {
            for d in self.square {
                let q = p.wrapping_add_signed(d);
                if self.safe(q) {
                    self.change(q, -1);
                }
            }
        }
    }

    /// Opens a closed safe cell as a click would: a 0-cell opens its
    /// opening, and every member of that opening gains one unit less.
    fn reveal(&mut self, p: usize) {
        if self.opened[p] || !self.safe(p) {
            return;
        }
        match self.units.opening[p] {
            NONE => self.open(p),
            o => {
                let (a, b) = (
                    self.member_start[o as usize] as usize,
                    self.member_start[o as usize + 1] as usize,
                );
                for k in a..b {
                    let m = self.members[k] as usize;
                    if !self.opened[m] {
                        self.open(m);
                    }
                    self.change(m, -1);
                }
            }
        }
    }

    /// Records a click on framed cell `p`.
    fn click(&mut self, action: Action, p: usize) {
        let stride = self.w + 2;
        let cell = ((p / stride - 1) * self.w + p % stride - 1) as u32;
        self.clicks.push(Click { action, cell });
    }

    fn run(&mut self) {
        if self.human {
            for pos in 0..self.h * self.w {
                let p = self.at[pos] as usize;
                if self.units.opening[p] != NONE && !self.opened[p] {
                    self.click(Action::Open, p);
                    self.reveal(p);
                }
            }
        }
        while self.closed_safe > 0 {
            if let Some(p) = self.best() {
                if !self.opened[p] {
                    self.click(Action::Open, p);
                    self.reveal(p);
                }
                for d in self.square {
                    let q = p.wrapping_add_signed(d);
                    if self.mine(q) && !self.flagged[q] {
                        self.click(Action::Flag, q);
                        self.flagged[q] = true;
                        for e in self.square {
                            let s = q.wrapping_add_signed(e);
                            if self.safe(s) {
                                self.change(s, 1);
                            }
                        }
                    }
                }
                self.click(Action::Chord, p);
                for d in self.square {
                    self.reveal(p.wrapping_add_signed(d));
                }
            } else {
                // A closed safe cell always leaves a closed 0-cell or
                // isolated number (a closed border number's opening is
                // closed), so this set is not empty.
                let pos = self.sets.first(FALLBACK).expect("a closed 3BV unit");
                let p = self.at[pos] as usize;
                self.click(Action::Open, p);
                self.reveal(p);
            }
        }
    }
}
