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
//! Each step costs O(1) amortised plus the cells it changes: the cells of
//! premium 0 or more sit in one bit set per premium value, indexed by the
//! column-major position, so the first cell of the highest premium is a
//! few word scans away.

use super::Units;
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

/// The highest premium a cell can have: 9 unrevealed units in its square
/// plus 2 openings, less its chord (at most 10: a square with two
/// openings has at least two 0-cells that are no isolated number).
const MAX_PREMIUM: i32 = 10;
/// The premium values a cell can be chosen at: 0 to [`MAX_PREMIUM`].
const LEVELS: usize = MAX_PREMIUM as usize + 1;

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

    fn insert(&mut self, set: usize, pos: usize) {
        let word = pos / 64;
        self.bits[set * self.words + word] |= 1 << (pos % 64);
        self.summary[set * self.summaries + word / 64] |= 1 << (word % 64);
    }

    fn remove(&mut self, set: usize, pos: usize) {
        let word = pos / 64;
        let w = &mut self.bits[set * self.words + word];
        *w &= !(1 << (pos % 64));
        if *w == 0 {
            self.summary[set * self.summaries + word / 64] &= !(1 << (word % 64));
        }
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

/// The state of one greedy run.
struct Greedy<'a> {
    field: &'a Field,
    units: &'a Units,
    /// HZiNi: only open cells may be chorded.
    human: bool,
    h: usize,
    w: usize,
    premium: Vec<i32>,
    opened: Vec<bool>,
    flagged: Vec<bool>,
    closed_safe: usize,
    /// The cells of each opening (its 0-cells and its border), CSR:
    /// opening `o` owns `members[member_start[o]..member_start[o + 1]]`.
    member_start: Vec<u32>,
    members: Vec<u32>,
    /// Sets `0..LEVELS`: the eligible cells of premium 0, 1, …; set
    /// `LEVELS`: the closed 0-cells and isolated numbers.
    sets: PositionSets,
    /// Bit `p`: set `p` of `sets` is not empty (for `p < LEVELS`).
    nonempty: u32,
    /// Cells in each of the premium sets.
    counts: [u32; LEVELS],
    clicks: Vec<Click>,
}

/// The set of [`Greedy::sets`] holding the left-click fallbacks.
const FALLBACK: usize = LEVELS;

pub(super) fn greedy(field: &Field, units: &Units, human: bool) -> Vec<Click> {
    let mut g = Greedy::new(field, units, human);
    g.run();
    g.clicks
}

impl<'a> Greedy<'a> {
    fn new(field: &'a Field, units: &'a Units, human: bool) -> Greedy<'a> {
        let grid = field.grid;
        let (h, w, n) = (grid.h, grid.w, grid.len());
        // Each opening's 0-cells (counting sort by opening), then its
        // members: the 0-cells and every safe non-zero cell around them,
        // each once (`stamp` remembers the last opening a cell joined).
        let openings = units.openings() as usize;
        let mut zero_start = vec![0u32; openings + 1];
        for i in 0..n {
            if let Some(o) = units.opening_of(i as u32) {
                zero_start[o as usize + 1] += 1;
            }
        }
        for o in 0..openings {
            zero_start[o + 1] += zero_start[o];
        }
        let mut zeros = vec![0u32; zero_start[openings] as usize];
        let mut fill = zero_start.clone();
        for i in 0..n as u32 {
            if let Some(o) = units.opening_of(i) {
                zeros[fill[o as usize] as usize] = i;
                fill[o as usize] += 1;
            }
        }
        let mut member_start = Vec::with_capacity(openings + 1);
        let mut members = Vec::with_capacity(zeros.len() * 2);
        let mut memberships = vec![0i32; n];
        let mut stamp = vec![u32::MAX; n];
        member_start.push(0);
        for o in 0..openings {
            for &z in &zeros[zero_start[o] as usize..zero_start[o + 1] as usize] {
                for q in square(h, w, z) {
                    if !field.mine[q as usize] && stamp[q as usize] != o as u32 {
                        stamp[q as usize] = o as u32;
                        members.push(q);
                        memberships[q as usize] += 1;
                    }
                }
            }
            member_start.push(members.len() as u32);
        }
        // The premium of every cell (mines keep 0 and are never chosen).
        let mut premium = vec![0i32; n];
        for i in 0..n as u32 {
            if field.mine[i as usize] {
                continue;
            }
            let isolated = square(h, w, i).filter(|&q| units.is_isolated(q)).count() as i32;
            let gain = isolated + memberships[i as usize];
            premium[i as usize] = gain - i32::from(field.value[i as usize]) - 2;
        }
        let mut g = Greedy {
            field,
            units,
            human,
            h,
            w,
            premium,
            opened: vec![false; n],
            flagged: vec![false; n],
            closed_safe: field.safe_cells(),
            member_start,
            members,
            sets: PositionSets::new(LEVELS + 1, n),
            nonempty: 0,
            counts: [0; LEVELS],
            clicks: Vec::new(),
        };
        for i in 0..n as u32 {
            if field.mine[i as usize] {
                continue;
            }
            g.list(i);
            if units.opening_of(i).is_some() || units.is_isolated(i) {
                let pos = g.position(i);
                g.sets.insert(FALLBACK, pos);
            }
        }
        g
    }

    /// The column-major position of a cell: the order ties are broken in.
    fn position(&self, cell: u32) -> usize {
        let (r, c) = (cell as usize / self.w, cell as usize % self.w);
        c * self.h + r
    }

    /// The cell at a column-major position.
    fn cell_at(&self, pos: usize) -> u32 {
        let (c, r) = (pos / self.h, pos % self.h);
        (r * self.w + c) as u32
    }

    /// Whether a cell may be chosen for a chord step.
    fn eligible(&self, cell: u32) -> bool {
        !self.field.mine[cell as usize] && (!self.human || self.opened[cell as usize])
    }

    /// Puts an eligible cell of premium 0 or more in its premium's set.
    fn list(&mut self, cell: u32) {
        let p = self.premium[cell as usize];
        debug_assert!(p <= MAX_PREMIUM, "premium {p} of cell {cell}");
        if p >= 0 && self.eligible(cell) {
            let pos = self.position(cell);
            self.sets.insert(p as usize, pos);
            self.counts[p as usize] += 1;
            self.nonempty |= 1 << p;
        }
    }

    /// Takes a cell out of its premium's set, if it is in one.
    fn unlist(&mut self, cell: u32) {
        let p = self.premium[cell as usize];
        if p >= 0 && self.eligible(cell) {
            let pos = self.position(cell);
            self.sets.remove(p as usize, pos);
            self.counts[p as usize] -= 1;
            if self.counts[p as usize] == 0 {
                self.nonempty &= !(1 << p);
            }
        }
    }

    fn change(&mut self, cell: u32, delta: i32) {
        self.unlist(cell);
        self.premium[cell as usize] += delta;
        self.list(cell);
    }

    /// The eligible cell of the highest premium (at least 0), the first
    /// in column-major order among equals.
    fn best(&self) -> Option<u32> {
        let p = self.nonempty.checked_ilog2()?;
        let pos = self.sets.first(p as usize)?;
        Some(self.cell_at(pos))
    }

    fn open(&mut self, cell: u32) {
        self.unlist(cell);
        self.opened[cell as usize] = true;
        self.premium[cell as usize] += 1;
        self.list(cell);
        self.closed_safe -= 1;
        let pos = self.position(cell);
        self.sets.remove(FALLBACK, pos);
        if self.units.is_isolated(cell) {
            for q in square(self.h, self.w, cell) {
                if !self.field.mine[q as usize] {
                    self.change(q, -1);
                }
            }
        }
    }

    /// Opens a closed safe cell as a click would: a 0-cell opens its
    /// opening, and every member of that opening gains one unit less.
    fn reveal(&mut self, cell: u32) {
        if self.opened[cell as usize] || self.field.mine[cell as usize] {
            return;
        }
        match self.units.opening_of(cell) {
            None => self.open(cell),
            Some(o) => {
                let (a, b) = (
                    self.member_start[o as usize] as usize,
                    self.member_start[o as usize + 1] as usize,
                );
                for k in a..b {
                    let m = self.members[k];
                    if !self.opened[m as usize] {
                        self.open(m);
                    }
                    self.change(m, -1);
                }
            }
        }
    }

    fn click(&mut self, action: Action, cell: u32) {
        self.clicks.push(Click { action, cell });
    }

    fn run(&mut self) {
        let n = self.h * self.w;
        if self.human {
            for pos in 0..n {
                let cell = self.cell_at(pos);
                if self.units.opening_of(cell).is_some() && !self.opened[cell as usize] {
                    self.click(Action::Open, cell);
                    self.reveal(cell);
                }
            }
        }
        while self.closed_safe > 0 {
            if let Some(cell) = self.best() {
                if !self.opened[cell as usize] {
                    self.click(Action::Open, cell);
                    self.reveal(cell);
                }
                for q in square(self.h, self.w, cell) {
                    if self.field.mine[q as usize] && !self.flagged[q as usize] {
                        self.click(Action::Flag, q);
                        self.flagged[q as usize] = true;
                        for s in square(self.h, self.w, q) {
                            if !self.field.mine[s as usize] {
                                self.change(s, 1);
                            }
                        }
                    }
                }
                self.click(Action::Chord, cell);
                for q in square(self.h, self.w, cell) {
                    self.reveal(q);
                }
            } else {
                // A closed safe cell always leaves a closed 0-cell or
                // isolated number (a closed border number's opening is
                // closed), so this set is not empty.
                let pos = self.sets.first(FALLBACK).expect("a closed 3BV unit");
                let cell = self.cell_at(pos);
                self.click(Action::Open, cell);
                self.reveal(cell);
            }
        }
    }
}

/// The cells of the 3×3 square around `cell` (itself included) inside an
/// `h × w` grid, row-major.
pub(super) fn square(h: usize, w: usize, cell: u32) -> impl Iterator<Item = u32> {
    let (r, c) = (cell as usize / w, cell as usize % w);
    let (r0, r1) = (r.saturating_sub(1), (r + 1).min(h - 1));
    let (c0, c1) = (c.saturating_sub(1), (c + 1).min(w - 1));
    (r0..=r1).flat_map(move |rr| (c0..=c1).map(move |cc| (rr * w + cc) as u32))
}
