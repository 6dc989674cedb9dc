//! The fewest and the most mines a position's layouts can hold: the range
//! of the totals of the layouts that fit its numbers and flags, whatever
//! total the position states ([`crate::Counter::mine_range`]).
//!
//! A layout's total is the known mines (flags and proven mines), plus its
//! mines on the frontier, plus its mines among the `I` interior cells,
//! which no number sees: any of `0..=I`, whatever the frontier holds. So
//! the range is `known + [fewest frontier mines, most frontier mines + I]`,
//! and only the frontier's ends need a search.
//!
//! # The frontier programme
//!
//! A programme walks the frontier's variables, greedily along the
//! frontier (the next variable belongs to the equation of the last one
//! walked that is closest to done), keeping one state per distinct vector
//! of partial sums of the *open* equations (those with a variable walked
//! and one still to come), and per state the fewest and the most mines
//! that reach it. A variable is tried at 0 and 1; a branch dies when an
//! equation's partial sum exceeds its target, or can no longer reach it
//! with the variables it has left (which covers missing it at its last
//! variable). Where no equation is open (between components) the states
//! merge into one, whose fewest and most mines are the sums over the
//! components walked. An equation's sum lives in four bits of a `u128` key
//! (targets are at most 8), so at most [`MAX_OPEN`] equations may be open
//! at once, and at most [`MAX_STATES`] states may be kept: past either the
//! programme gives up ([`Frontier::TooWide`]) and the range is found with
//! counts instead. On the 300 expert mid-game positions of
//! `benches/probabilities_baseline.py` (seed 1) a variable leaves 2.05
//! states on average, at most 32, with at most 21 equations open.
//!
//! # With counts
//!
//! The totals that fit need not be an interval (a component may hold one
//! mine or three, never two), so they are not searched for directly with
//! counts. Instead `C` closed cells that no number sees are added below
//! the board (`C` = the board's closed cells), behind a row of known-safe
//! cells: a count of `k ≤ C` closed-cell mines fits the padded board iff
//! some layout of the board has `f` closed-cell mines with
//! `k − C ≤ f ≤ k`, i.e. iff the fewest `f` is at most `k`; and `k + C`
//! fits iff the most `f` is at least `k`. Both are monotone in `k`: two
//! binary searches, each step one count
//! ([`Probabilities::compute_if_consistent`]).

use super::{Probabilities, ProbabilityError};
use crate::board::{Board, Cell};
use crate::budget::Budget;
use crate::constraints::System;
use crate::grid::Grid;
use std::collections::VecDeque;

/// Most equations open at once (four bits each in a `u128`).
pub(crate) const MAX_OPEN: usize = 32;
/// Most states kept after a variable.
pub(crate) const MAX_STATES: usize = 1 << 12;
/// Variables walked between two looks at the budget's clock.
const CHECK_EVERY: usize = 1 << 10;

/// How [`mine_range`] finds the range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    /// The frontier programme within these limits; counts when the
    /// frontier is too wide for them.
    Programme(Limits),
    /// Counts alone (to test one against the other).
    Counts,
}

/// How wide a frontier the programme takes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Most equations open at once, at most [`MAX_OPEN`].
    pub open: usize,
    /// Most states kept after a variable.
    pub states: usize,
}

impl Limits {
    /// The programme's own limits, [`MAX_OPEN`] and [`MAX_STATES`].
    pub(crate) const FULL: Limits = Limits {
        open: MAX_OPEN,
        states: MAX_STATES,
    };
}

/// The fewest and the most mines (known mines included) of a layout that
/// fits `board`'s numbers and flags, whatever its total; `None` when no
/// layout fits. The counts are made with `p`, whose probabilities are
/// then those of the last padded board (or none); they run under
/// `budget`, as does the programme (its clock looked at every
/// [`CHECK_EVERY`] variables).
pub(crate) fn mine_range(
    p: &mut Probabilities,
    board: &Board,
    budget: &Budget,
    method: Method,
) -> Result<Option<(u32, u32)>, ProbabilityError> {
    let known = board.known_mines();
    let closed = match method {
        Method::Programme(limits) => {
            let Ok(system) = System::build(board) else {
                return Ok(None);
            };
            let interior = system.interior().len() as u32;
            match frontier_range(&system, limits, budget)? {
                Frontier::Found(lo, hi) => Some((lo, hi + interior)),
                Frontier::NoLayout => return Ok(None),
                Frontier::TooWide => by_counts(p, board, budget)?,
            }
        }
        Method::Counts => by_counts(p, board, budget)?,
    };
    Ok(closed.map(|(lo, hi)| (known + lo, known + hi)))
}

/// What [`frontier_range`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Frontier {
    /// The fewest and the most frontier mines of a layout that fits.
    Found(u32, u32),
    /// No layout fits the numbers.
    NoLayout,
    /// The frontier is too wide for the programme's limits.
    TooWide,
}

/// The frontier's range over every layout that fits `system`'s equations
/// (the module doc, "The frontier programme"), or [`Frontier::TooWide`]
/// past `limits`.
pub(crate) fn frontier_range(
    system: &System,
    limits: Limits,
    budget: &Budget,
) -> Result<Frontier, ProbabilityError> {
    let equations = system.equations();
    let mut walk = Walk {
        left: equations.iter().map(|e| e.vars.len() as u8).collect(),
        slot: vec![0; equations.len()],
        walked: vec![false; system.frontier().len()],
        open: VecDeque::with_capacity(64),
        states: Vec::with_capacity(64),
        next: Vec::with_capacity(128),
    };
    walk.frontier(system, limits, budget)
}

/// One state: the open equations' partial sums, and the fewest and most
/// mines of the variables so far that reach them.
#[derive(Clone, Copy)]
struct State {
    key: u128,
    min: u32,
    max: u32,
}

/// The programme's buffers, indexed by the system's equation and variable
/// numbers.
struct Walk {
    /// Per equation, its variables not walked yet.
    left: Vec<u8>,
    /// Per open equation, its four bits of the key.
    slot: Vec<u8>,
    /// Per variable, whether it has been walked.
    walked: Vec<bool>,
    /// Open equations, oldest first (some may have closed since).
    open: VecDeque<u32>,
    states: Vec<State>,
    next: Vec<State>,
}

impl Walk {
    /// The range of the frontier: every variable walked once.
    fn frontier(
        &mut self,
        system: &System,
        limits: Limits,
        budget: &Budget,
    ) -> Result<Frontier, ProbabilityError> {
        let equations = system.equations();
        // Bit s: slot s is free.
        let mut free_slots: u32 = u32::MAX
            .checked_shr((MAX_OPEN - limits.open.min(MAX_OPEN)) as u32)
            .unwrap_or(0);
        self.open.clear();
        self.states.clear();
        self.states.push(State {
            key: 0,
            min: 0,
            max: 0,
        });
        let mut first_unwalked = 0;
        let mut last: Option<u32> = None;
        for walked in 0..system.frontier().len() {
            if walked % CHECK_EVERY == CHECK_EVERY - 1 {
                budget
                    .check_time(|| "the range of mine totals".to_string())
                    .map_err(ProbabilityError::OverBudget)?;
            }
            let var = self.next_var(system, last, &mut first_unwalked);
            self.walked[var as usize] = true;
            last = Some(var);
            // (slot, target, variables left after this one) of each
            // equation of `var`.
            let mut touched = [(0u8, 0u8, 0u8); 8];
            let mut closing = 0u32;
            let eqs = system.equations_of(var);
            for (t, &e) in touched.iter_mut().zip(eqs) {
                let e = e as usize;
                if self.left[e] == equations[e].vars.len() as u8 {
                    if free_slots == 0 {
                        return Ok(Frontier::TooWide);
                    }
                    self.slot[e] = free_slots.trailing_zeros() as u8;
                    free_slots &= free_slots - 1;
                    self.open.push_back(e as u32);
                }
                self.left[e] -= 1;
                *t = (self.slot[e], equations[e].target, self.left[e]);
                if self.left[e] == 0 {
                    closing |= 1 << self.slot[e];
                }
            }
            let touched = &touched[..eqs.len()];
            self.next.clear();
            for s in &self.states {
                'value: for x in 0..=1u32 {
                    let mut key = s.key;
                    for &(slot, target, after) in touched {
                        let shift = 4 * u32::from(slot);
                        let sum = ((key >> shift) & 15) as u8 + x as u8;
                        if sum > target || sum + after < target {
                            continue 'value;
                        }
                        key &= !(15u128 << shift);
                        if after > 0 {
                            key |= u128::from(sum) << shift;
                        }
                    }
                    self.next.push(State {
                        key,
                        min: s.min + x,
                        max: s.max + x,
                    });
                }
            }
            self.next.sort_unstable_by_key(|s| s.key);
            self.states.clear();
            for s in self.next.drain(..) {
                match self.states.last_mut() {
                    Some(last) if last.key == s.key => {
                        last.min = last.min.min(s.min);
                        last.max = last.max.max(s.max);
                    }
                    _ => self.states.push(s),
                }
            }
            if self.states.is_empty() {
                return Ok(Frontier::NoLayout);
            }
            if self.states.len() > limits.states {
                return Ok(Frontier::TooWide);
            }
            // The slots of the equations that closed serve the next ones.
            free_slots |= closing;
        }
        // Every equation has closed: one state, key 0.
        let min = self.states.iter().map(|s| s.min).min().unwrap_or(0);
        let max = self.states.iter().map(|s| s.max).max().unwrap_or(0);
        Ok(Frontier::Found(min, max))
    }

    /// The next variable to walk: along the frontier, so that few
    /// equations are open at once. Greedy: a variable of the equation of
    /// the last one walked that has the fewest variables left; else one of
    /// the oldest equation still open; else (to start a component) the
    /// first in cell order.
    fn next_var(&mut self, system: &System, last: Option<u32>, first_unwalked: &mut u32) -> u32 {
        let equations = system.equations();
        // Among the equations of the last variable, the one closest to
        // closing.
        if let Some(v) = last {
            let mut best: Option<(u8, u32)> = None;
            for &e in system.equations_of(v) {
                let left = self.left[e as usize];
                if left > 0 && best.is_none_or(|(b, _)| left < b) {
                    best = Some((left, e));
                }
            }
            if let Some((_, e)) = best {
                for &w in equations[e as usize].vars.as_slice() {
                    if !self.walked[w as usize] {
                        return w;
                    }
                }
            }
        }
        while let Some(&e) = self.open.front() {
            let found = equations[e as usize]
                .vars
                .as_slice()
                .iter()
                .copied()
                .find(|&w| !self.walked[w as usize]);
            match found {
                Some(w) => return w,
                None => {
                    self.open.pop_front();
                }
            }
        }
        while self.walked[*first_unwalked as usize] {
            *first_unwalked += 1;
        }
        *first_unwalked
    }
}

/// The fewest and the most closed-cell mines of a layout of `board`, with
/// counts alone (the module doc, "With counts"); `None` when no layout
/// fits.
fn by_counts(
    p: &mut Probabilities,
    board: &Board,
    budget: &Budget,
) -> Result<Option<(u32, u32)>, ProbabilityError> {
    let grid = board.grid();
    let known = board.known_mines();
    let closed = board.unknown_count();
    if closed == 0 {
        let exact = Board::new(grid, board.cells().to_vec(), Some(known));
        return Ok(p
            .compute_if_consistent(&exact, None, budget)?
            .then_some((0, 0)));
    }
    let slack = closed as usize;
    let extra_rows = 1 + slack.div_ceil(grid.w);
    let padded_grid = Grid::new(grid.h + extra_rows, grid.w);
    let mut cells = board.cells().to_vec();
    cells.resize(padded_grid.len(), Cell::Safe);
    cells[(grid.h + 1) * grid.w..][..slack].fill(Cell::Unknown);
    // Whether some layout of the padded board has `k` closed-cell mines.
    let mut fits = |k: u32| {
        let padded = Board::new(padded_grid, cells.clone(), Some(known + k));
        p.compute_if_consistent(&padded, None, budget)
    };
    if !fits(closed)? {
        return Ok(None);
    }
    // Least k with min ≤ k.
    let (mut lo, mut hi) = (0, closed);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if fits(mid)? {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let min = lo;
    // Greatest k with max ≥ k.
    let (mut lo, mut hi) = (min, closed);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid + closed)? {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(Some((min, lo)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::board_from_picture;
    use crate::test_rng::TestRng;
    use std::collections::BTreeSet;

    /// The oracle: every total (known mines included) of a layout of
    /// `board`'s closed cells that fits its numbers, by trying them all.
    fn every_total(board: &Board) -> BTreeSet<u32> {
        let grid = board.grid();
        let cells = board.cells();
        let closed: Vec<usize> = (0..cells.len())
            .filter(|&i| cells[i] == Cell::Unknown)
            .collect();
        assert!(closed.len() <= 16, "too many closed cells to try them all");
        let mut totals = BTreeSet::new();
        for layout in 0u32..1 << closed.len() {
            let mut mine: Vec<bool> = cells.iter().map(|&c| c == Cell::Mine).collect();
            for (bit, &i) in closed.iter().enumerate() {
                mine[i] = layout >> bit & 1 == 1;
            }
            let fits = cells.iter().enumerate().all(|(i, &c)| match c {
                Cell::Revealed(n) => {
                    let around = grid.neighbours(i as u32);
                    around.iter().filter(|&&x| mine[x as usize]).count() == usize::from(n)
                }
                _ => true,
            });
            if fits {
                totals.insert(mine.iter().filter(|&&m| m).count() as u32);
            }
        }
        totals
    }

    /// The oracle's range: the least and greatest total that fits.
    fn oracle(board: &Board) -> Option<(u32, u32)> {
        let totals = every_total(board);
        Some((*totals.first()?, *totals.last()?))
    }

    /// `board`'s range by `method`, under no limit.
    fn range(board: &Board, method: Method) -> Option<(u32, u32)> {
        let mut p = Probabilities::new();
        mine_range(&mut p, board, &Budget::unlimited(), method).unwrap()
    }

    /// The frontier programme alone on `board` (whose numbers each fit on
    /// their own).
    fn programme(board: &Board, limits: Limits) -> Frontier {
        let system = System::build(board).unwrap();
        frontier_range(&system, limits, &Budget::unlimited()).unwrap()
    }

    /// A random board of at most 14 cells, of up to 5 rows and 6 columns,
    /// at most 14 of them closed: numbers of a random layout (one in ten
    /// wrong), closed cells, flags (most on mines) and known-safe cells;
    /// some fit no layout, many have every closed cell on the frontier
    /// (where the totals can skip a value).
    fn small_board(rng: &mut TestRng) -> Board {
        loop {
            let (h, w) = (1 + rng.below(5), 1 + rng.below(6));
            let grid = Grid::new(h, w);
            let n = grid.len();
            let mine: Vec<bool> = (0..n).map(|_| rng.below(10) < 4).collect();
            let cells: Vec<Cell> = (0..n)
                .map(|i| {
                    let roll = rng.below(100);
                    if mine[i] {
                        if roll < 15 {
                            Cell::Mine
                        } else {
                            Cell::Unknown
                        }
                    } else if roll < 30 {
                        Cell::Unknown
                    } else if roll < 32 {
                        Cell::Mine
                    } else if roll < 37 {
                        Cell::Safe
                    } else if roll < 43 {
                        Cell::Revealed(rng.below(9) as u8)
                    } else {
                        let around = grid.neighbours(i as u32);
                        Cell::Revealed(around.iter().filter(|&&x| mine[x as usize]).count() as u8)
                    }
                })
                .collect();
            let closed = cells.iter().filter(|c| c.is_unknown()).count();
            if closed <= 14 {
                let total = (rng.below(3) == 0).then(|| rng.below(n + 1) as u32);
                return Board::new(grid, cells, total);
            }
        }
    }

    /// What the random boards' ranges were like, to show the tests meet
    /// every case.
    #[derive(Debug, Default)]
    struct Seen {
        no_layout: usize,
        one_total: usize,
        interval: usize,
        with_gaps: usize,
        with_flags: usize,
    }

    impl Seen {
        fn add(&mut self, board: &Board) {
            let totals = every_total(board);
            match (totals.first(), totals.last()) {
                (None, _) => self.no_layout += 1,
                (Some(lo), Some(hi)) if lo == hi => self.one_total += 1,
                (Some(lo), Some(hi)) if (hi - lo + 1) as usize == totals.len() => {
                    self.interval += 1
                }
                _ => self.with_gaps += 1,
            }
            self.with_flags += usize::from(board.known_mines() > 0 && !totals.is_empty());
        }

        fn assert_every_case(&self, at_least: usize) {
            let Seen {
                no_layout,
                one_total,
                interval,
                with_gaps,
                with_flags,
            } = *self;
            // Totals that skip a value are too rare on random boards to
            // ask for: `board_with_gaps` makes them.
            let _ = with_gaps;
            for count in [no_layout, one_total, interval, with_flags] {
                assert!(count >= at_least, "{self:?}");
            }
        }
    }

    /// Boards whose totals skip a value (found by a random search over
    /// boards of up to 5×6 cells, where about one in 200,000 is such),
    /// with the two totals that fit.
    const WITH_GAPS: [(&[&str], [u32; 2]); 4] = [
        (&["1?4?", "????", "?23?"], [4, 6]),
        (&["?23?", "????", "2?7?", "????"], [7, 9]),
        (&["?22?", "2???", "?432", "???1"], [4, 6]),
        (&["3???", "??6?", "???3", "?23?", "00??"], [8, 10]),
    ];

    /// One of [`WITH_GAPS`], turned or mirrored, with a margin of
    /// known-safe cells some of which are flags (the numbers next to them
    /// raised to match): the same closed cells and equations, so the
    /// same two totals that fit, moved up by the flags.
    fn board_with_gaps(rng: &mut TestRng) -> Board {
        let (rows, _) = WITH_GAPS[rng.below(WITH_GAPS.len())];
        let picture = board_from_picture(rows, None);
        let (ph, pw) = (picture.grid().h, picture.grid().w);
        let (turn, flip_rows, flip_cols) =
            (rng.below(2) == 1, rng.below(2) == 1, rng.below(2) == 1);
        let (th, tw) = if turn { (pw, ph) } else { (ph, pw) };
        let margin: [usize; 4] = std::array::from_fn(|_| rng.below(2));
        let grid = Grid::new(th + margin[0] + margin[2], tw + margin[1] + margin[3]);
        let mut cells = vec![Cell::Safe; grid.len()];
        for r in 0..th {
            for c in 0..tw {
                let (r0, c0) = if turn { (c, r) } else { (r, c) };
                let r0 = if flip_rows { ph - 1 - r0 } else { r0 };
                let c0 = if flip_cols { pw - 1 - c0 } else { c0 };
                let from = picture.grid().index(r0, c0);
                cells[grid.index(r + margin[0], c + margin[1]) as usize] = picture.cell(from);
            }
        }
        for i in 0..grid.len() as u32 {
            let around = grid.neighbours(i);
            let room = around
                .iter()
                .all(|&x| !matches!(cells[x as usize], Cell::Revealed(8)));
            if cells[i as usize] == Cell::Safe && room && rng.below(3) == 0 {
                cells[i as usize] = Cell::Mine;
                for &x in around.iter() {
                    if let Cell::Revealed(n) = cells[x as usize] {
                        cells[x as usize] = Cell::Revealed(n + 1);
                    }
                }
            }
        }
        let total = (rng.below(2) == 0).then(|| rng.below(20) as u32);
        Board::new(grid, cells, total)
    }

    #[test]
    fn a_frontier_too_wide_for_the_programme_is_counted() {
        // Closed cells on the odd rows and columns of a 33×33 board,
        // numbers everywhere else, of a random layout, then a row of
        // known-safe cells and a row of 33 closed cells no number sees.
        // The numbers force the layout (the top row's shows the first
        // closed row, each later even row's the next one), so its mines
        // are the fewest and the interior's 33 more the most; but the
        // frontier is a lattice too wide to walk with 32 equations open.
        let k = 16;
        let n = 2 * k + 1;
        let grid = Grid::new(n + 2, n);
        let mut rng = TestRng::new(5);
        let lattice = |i: u32| {
            let (r, c) = grid.rc(i);
            r < n && r % 2 == 1 && c % 2 == 1
        };
        let mine: Vec<bool> = (0..grid.len() as u32)
            .map(|i| lattice(i) && rng.below(3) == 0)
            .collect();
        let cells: Vec<Cell> = (0..grid.len() as u32)
            .map(|i| match grid.rc(i).0 {
                _ if lattice(i) => Cell::Unknown,
                r if r == n => Cell::Safe,
                r if r == n + 1 => Cell::Unknown,
                _ => {
                    let around = grid.neighbours(i);
                    Cell::Revealed(around.iter().filter(|&&x| mine[x as usize]).count() as u8)
                }
            })
            .collect();
        let board = Board::new(grid, cells, Some(3));
        let mines = mine.iter().filter(|&&m| m).count() as u32;
        assert_eq!(programme(&board, Limits::FULL), Frontier::TooWide);
        let mut counter = crate::Engine::new().unwrap().counter();
        let expected = Some((mines, mines + n as u32));
        assert_eq!(counter.mine_range(&board).unwrap(), expected);
        assert_eq!(range(&board, Method::Counts), expected);
    }

    #[test]
    fn the_programme_finds_the_least_and_greatest_total_of_every_layout_that_fits() {
        let mut rng = TestRng::new(1);
        let mut seen = Seen::default();
        let mut counter = crate::Engine::new().unwrap().counter();
        for _ in 0..3000 {
            let board = small_board(&mut rng);
            seen.add(&board);
            let expected = oracle(&board);
            assert_eq!(counter.mine_range(&board).unwrap(), expected, "{board:?}");
            // The programme answered, not the counts.
            if let Ok(system) = System::build(&board) {
                let found = frontier_range(&system, Limits::FULL, &Budget::unlimited()).unwrap();
                assert_ne!(found, Frontier::TooWide);
            }
        }
        seen.assert_every_case(100);
    }

    #[test]
    fn the_counts_find_the_least_and_greatest_total_of_every_layout_that_fits() {
        let mut rng = TestRng::new(2);
        let mut seen = Seen::default();
        for _ in 0..1500 {
            let board = small_board(&mut rng);
            seen.add(&board);
            assert_eq!(range(&board, Method::Counts), oracle(&board), "{board:?}");
        }
        seen.assert_every_case(50);
    }

    #[test]
    fn a_frontier_past_the_programmes_limits_is_answered_with_counts() {
        let mut rng = TestRng::new(3);
        let (mut too_wide, mut answered) = (0, 0);
        for k in 0..1500 {
            let board = small_board(&mut rng);
            let limits = Limits {
                open: k % 3,
                states: 1 + k % 4,
            };
            if let Ok(system) = System::build(&board) {
                match frontier_range(&system, limits, &Budget::unlimited()).unwrap() {
                    Frontier::TooWide => too_wide += 1,
                    _ => answered += 1,
                }
            }
            let method = Method::Programme(limits);
            assert_eq!(range(&board, method), oracle(&board), "{board:?}");
        }
        assert!(too_wide >= 300 && answered >= 300, "{too_wide} {answered}");
    }

    #[test]
    fn totals_that_skip_a_value_keep_their_ends() {
        for (rows, [lo, hi]) in WITH_GAPS {
            let board = board_from_picture(rows, None);
            assert_eq!(every_total(&board), BTreeSet::from([lo, hi]), "{rows:?}");
        }
        let mut rng = TestRng::new(4);
        let mut flagged = 0;
        for _ in 0..300 {
            let board = board_with_gaps(&mut rng);
            let totals = every_total(&board);
            let (lo, hi) = (totals.first().copied(), totals.last().copied());
            assert_eq!(totals.len(), 2, "{board:?}");
            assert_eq!(hi.zip(lo).map(|(h, l)| h - l), Some(2));
            flagged += usize::from(board.known_mines() > 0);
            let expected = lo.zip(hi);
            assert_eq!(programme(&board, Limits::FULL), {
                let known = board.known_mines();
                Frontier::Found(lo.unwrap() - known, hi.unwrap() - known)
            });
            let mut counter = crate::Engine::new().unwrap().counter();
            assert_eq!(counter.mine_range(&board).unwrap(), expected);
            assert_eq!(range(&board, Method::Counts), expected);
            let narrow = Limits { open: 2, states: 2 };
            assert_eq!(range(&board, Method::Programme(narrow)), expected);
        }
        assert!(flagged >= 100, "{flagged}");
    }

    #[test]
    fn a_board_no_layout_fits_has_no_range() {
        let boards = [
            // A number with too few closed neighbours, or too many flags.
            board_from_picture(&["2?"], None),
            board_from_picture(&["1F", "F?"], None),
            // Numbers that each fit alone but not together.
            board_from_picture(&["?2?0"], None),
            board_from_picture(&["?3?", "?1?"], Some(2)),
            // No closed cell, and a number that does not fit.
            board_from_picture(&["1."], None),
        ];
        for board in boards {
            assert_eq!(every_total(&board), BTreeSet::new(), "{board:?}");
            assert_eq!(range(&board, Method::Programme(Limits::FULL)), None);
            assert_eq!(range(&board, Method::Counts), None);
            let mut counter = crate::Engine::new().unwrap().counter();
            assert_eq!(counter.mine_range(&board).unwrap(), None);
        }
    }

    #[test]
    fn a_board_with_no_closed_cell_holds_its_flags() {
        let board = board_from_picture(&["2F", "F2"], Some(7));
        for method in [Method::Programme(Limits::FULL), Method::Counts] {
            assert_eq!(range(&board, method), Some((2, 2)));
        }
    }

    #[test]
    fn the_stated_total_is_ignored() {
        let rows = ["F1??", "?2??", "????"];
        let expected = Some((2, 5));
        assert_eq!(oracle(&board_from_picture(&rows, None)), expected);
        for total in [None, Some(0), Some(2), Some(5), Some(11), Some(100)] {
            let board = board_from_picture(&rows, total);
            for method in [Method::Programme(Limits::FULL), Method::Counts] {
                assert_eq!(range(&board, method), expected, "{total:?}");
            }
        }
    }
}
