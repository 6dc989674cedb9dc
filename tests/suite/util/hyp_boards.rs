//! Random boards for the property tests against the brute-force oracle
//! (`hypotheses_brute`, `analyse_brute`, `probabilities`).
//!
//! Three kinds, all with at most [`MAX_CLOSED`] closed cells so
//! `sapper_engine::brute` can enumerate them:
//! - [`consistent`]: a random mine layout, some cells revealed (numbers from
//!   the layout), flagged or marked safe: always has a layout;
//! - [`played`]: a random layout opened by a few game-like clicks (flood
//!   fill from 0s), some mines flagged: always has a layout;
//! - [`endgame`]: closed cells in one or two blobs, the rest open: the
//!   total often decides;
//! - [`perturbed`]: a consistent board with one number or the total nudged:
//!   sometimes consistent, often not;
//! - [`sparse`]: few scattered numbers over many closed cells;
//! - [`recounted`]: a consistent board with its total moved by up to 3;
//! - [`extreme_total`]: a consistent board with its total at the fewest or
//!   most mines the numbers allow, or one beyond;
//! - [`wild`]: every cell drawn independently: mostly inconsistent.
//!
//! Plus [`real_size`]: 30×16/99 layouts with game-like openings, for
//! soundness against the ground truth where brute force cannot go.

use super::{mines_around, Rng};
use proptest::prelude::*;
use sapper_engine::{brute, Board, Cell, Grid};

/// Most closed cells on a small board.
pub const MAX_CLOSED: usize = 20;

/// A board plus its ground truth when there is one.
#[derive(Clone, Debug)]
pub struct Case {
    pub board: Board,
    /// The mine layout the board was made from (consistent boards only).
    pub mines: Option<Vec<bool>>,
}

impl Case {
    /// The same board with the total toggled: without it if it has one,
    /// else with the layout's total (`None` total when there is no layout).
    pub fn other_total(&self) -> Board {
        let b = &self.board;
        let other = match b.total_mines() {
            Some(_) => None,
            None => self
                .mines
                .as_ref()
                .map(|m| m.iter().filter(|&&x| x).count() as u32),
        };
        Board::new(b.grid(), b.cells().to_vec(), other)
    }
}

/// Opens closed cells (by decreasing roll) until at most `MAX_CLOSED` are
/// left: a mine becomes a flag, a safe cell shows its number.
fn cap_closed(grid: Grid, cells: &mut [Cell], mines: &[bool], rolls: &[u8]) {
    let mut closed: Vec<usize> = (0..cells.len())
        .filter(|&i| cells[i] == Cell::Unknown)
        .collect();
    closed.sort_by_key(|&i| (std::cmp::Reverse(rolls[i]), i));
    let excess = closed.len().saturating_sub(MAX_CLOSED);
    for &i in &closed[..excess] {
        cells[i] = if mines[i] {
            Cell::Mine
        } else {
            Cell::Revealed(mines_around(grid, mines, i as u32))
        };
    }
}

/// A board made from a layout: each cell is closed with probability
/// `closed_pct`%; an open mine is a flag; an open safe cell shows its
/// number, or (about 12% of them) is only marked safe.
fn from_layout(grid: Grid, mines: &[bool], rolls: &[u8], closed_pct: u8, total: bool) -> Board {
    let mut cells: Vec<Cell> = (0..grid.len())
        .map(|i| {
            let r = rolls[i];
            if r < closed_pct {
                Cell::Unknown
            } else if mines[i] {
                Cell::Mine
            } else if r < closed_pct + 12 {
                Cell::Safe
            } else {
                Cell::Revealed(mines_around(grid, mines, i as u32))
            }
        })
        .collect();
    cap_closed(grid, &mut cells, mines, rolls);
    let t = mines.iter().filter(|&&m| m).count() as u32;
    Board::new(grid, cells, total.then_some(t))
}

prop_compose! {
    fn layout()(h in 1usize..=8, w in 1usize..=8)
        (grid in Just(Grid::new(h, w)),
         density in 0u8..=45,
         closed_pct in 20u8..=100,
         mine_rolls in proptest::collection::vec(0u8..100, h * w),
         rolls in proptest::collection::vec(0u8..100, h * w))
        -> (Grid, Vec<bool>, Vec<u8>, u8)
    {
        let mines = mine_rolls.iter().map(|&r| r < density).collect();
        (grid, mines, rolls, closed_pct)
    }
}

prop_compose! {
    /// A consistent small board, with or without the total.
    pub fn consistent()((grid, mines, rolls, closed_pct) in layout(), total in any::<bool>()) -> Case {
        let board = from_layout(grid, &mines, &rolls, closed_pct, total);
        Case { board, mines: Some(mines) }
    }
}

prop_compose! {
    /// A consistent small board as met in play: a few clicks opened as in
    /// the game (0s flood-open their neighbours), some mines next to the
    /// opening flagged, then capped at `MAX_CLOSED` closed cells.
    pub fn played()((grid, mines, rolls, _) in layout(),
                    clicks in proptest::collection::vec(0usize..64, 1..4),
                    flag_pct in 0u8..=60,
                    total in any::<bool>()) -> Case
    {
        let n = grid.len();
        let mut cells = vec![Cell::Unknown; n];
        for click in clicks {
            let start = click % n;
            if mines[start] {
                continue;
            }
            let mut stack = vec![start as u32];
            while let Some(c) = stack.pop() {
                if cells[c as usize] != Cell::Unknown {
                    continue;
                }
                let v = mines_around(grid, &mines, c);
                cells[c as usize] = Cell::Revealed(v);
                if v == 0 {
                    stack.extend(grid.neighbours(c).iter().copied());
                }
            }
        }
        for i in 0..n {
            if mines[i] && rolls[i] < flag_pct {
                cells[i] = Cell::Mine;
            }
        }
        cap_closed(grid, &mut cells, &mines, &rolls);
        let t = mines.iter().filter(|&&m| m).count() as u32;
        Case { board: Board::new(grid, cells, total.then_some(t)), mines: Some(mines) }
    }
}

prop_compose! {
    /// A consistent endgame: the closed cells form one or two blobs (the
    /// cells nearest to random centres, with jitter), everything else open
    /// (mines flagged): frontier components with interior cells behind
    /// them, where the total matters most.
    pub fn endgame()((grid, mines, rolls, _) in layout(),
                     centres in proptest::collection::vec((0usize..8, 0usize..8), 1..=2),
                     closed_target in 6usize..=MAX_CLOSED,
                     total in any::<bool>()) -> Case
    {
        let n = grid.len();
        let distance = |i: usize| {
            let (r, c) = grid.rc(i as u32);
            centres
                .iter()
                .map(|&(cr, cc)| r.abs_diff(cr % grid.h) + c.abs_diff(cc % grid.w))
                .min()
                .unwrap()
                * 100
                + rolls[i] as usize
        };
        let mut by_distance: Vec<usize> = (0..n).collect();
        by_distance.sort_by_key(|&i| (distance(i), i));
        let mut cells: Vec<Cell> = (0..n)
            .map(|i| if mines[i] { Cell::Mine } else { Cell::Revealed(mines_around(grid, &mines, i as u32)) })
            .collect();
        for &i in by_distance.iter().take(closed_target) {
            cells[i] = Cell::Unknown;
        }
        let t = mines.iter().filter(|&&m| m).count() as u32;
        Case { board: Board::new(grid, cells, total.then_some(t)), mines: Some(mines) }
    }
}

prop_compose! {
    /// A consistent small board with one number (or the total) moved by
    /// −2..=2: a realistic near-miss, consistent or not.
    pub fn perturbed()(case in consistent(), pick in any::<prop::sample::Index>(), delta in -2i32..=2, on_total in any::<bool>()) -> Case {
        let mut board = case.board;
        if on_total && board.total_mines().is_some() {
            let t = board.total_mines().unwrap() as i32 + delta;
            board = Board::new(board.grid(), board.cells().to_vec(), Some(t.max(0) as u32));
        } else {
            let numbers: Vec<u32> = (0..board.grid().len() as u32)
                .filter(|&i| matches!(board.cell(i), Cell::Revealed(_)))
                .collect();
            if !numbers.is_empty() {
                let i = numbers[pick.index(numbers.len())];
                let Cell::Revealed(v) = board.cell(i) else { unreachable!() };
                board.set(i, Cell::Revealed((v as i32 + delta).clamp(0, 8) as u8));
            }
        }
        Case { board, mines: None }
    }
}

prop_compose! {
    /// A consistent board with few, scattered numbers over many closed
    /// cells: overlapping numbers leave components whose mine count varies,
    /// so the total binds across components and the interior.
    pub fn sparse()(h in 3usize..=5, w in 3usize..=6)
        (grid in Just(Grid::new(h, w)),
         density in 10u8..=40,
         mine_rolls in proptest::collection::vec(0u8..100, h * w),
         rolls in proptest::collection::vec(0u8..100, h * w),
         total in any::<bool>()) -> Case
    {
        let mines: Vec<bool> = mine_rolls.iter().map(|&r| r < density).collect();
        let mut cells = vec![Cell::Unknown; grid.len()];
        cap_closed(grid, &mut cells, &mines, &rolls);
        let t = mines.iter().filter(|&&m| m).count() as u32;
        Case { board: Board::new(grid, cells, total.then_some(t)), mines: Some(mines) }
    }
}

prop_compose! {
    /// A consistent board (any of the kinds above) whose total is off from
    /// the layout's by −3..=3: the count is then often at an extreme of what
    /// the frontier allows (it binds), or impossible.
    pub fn recounted()(case in prop_oneof![consistent(), played(), endgame(), sparse()], delta in -3i32..=3) -> Case {
        let b = case.board;
        let truth = case.mines.as_ref().unwrap().iter().filter(|&&m| m).count() as i32;
        let total = (truth + delta).max(0) as u32;
        Case { board: Board::new(b.grid(), b.cells().to_vec(), Some(total)), mines: None }
    }
}

prop_compose! {
    /// A consistent board whose total is set to the fewest or the most
    /// mines its numbers allow (or one beyond): the count then binds
    /// wherever the frontier's mine count can vary.
    pub fn extreme_total()(case in prop_oneof![consistent(), played(), endgame(), sparse()], pick in 0u8..5) -> Case {
        let b = case.board;
        let counts = brute::mine_counts(&b);
        let (lo, hi) = (counts[0], *counts.last().unwrap());
        let left = match pick {
            0 | 1 => lo,
            2 | 3 => hi,
            _ => hi + 1,
        };
        let total = left + b.known_mines();
        Case { board: Board::new(b.grid(), b.cells().to_vec(), Some(total)), mines: None }
    }
}

prop_compose! {
    /// Every cell drawn on its own: closed, a number 0–4, a flag or a safe
    /// mark; the total absent or anything up to the cell count.
    pub fn wild()(h in 1usize..=6, w in 1usize..=6)
        (grid in Just(Grid::new(h, w)),
         kinds in proptest::collection::vec(0u8..100, h * w),
         total in proptest::option::of(0u32..=(h * w) as u32))
        -> Case
    {
        let mut cells: Vec<Cell> = kinds
            .iter()
            .map(|&k| match k {
                0..=44 => Cell::Unknown,
                45..=54 => Cell::Mine,
                55..=59 => Cell::Safe,
                _ => Cell::Revealed(((k - 60) / 8).min(4)),
            })
            .collect();
        let no_mines = vec![false; cells.len()];
        cap_closed(grid, &mut cells, &no_mines, &kinds);
        Case { board: Board::new(grid, cells, total), mines: None }
    }
}

/// A 30×16 board with 99 mines and `clicks` random safe cells opened as in
/// the game (0s flood-open their neighbours); each mine next to an open cell
/// is flagged with probability `flag_pct`%.
pub fn real_size(seed: u64, clicks: usize, flag_pct: u64, total: bool) -> (Board, Vec<bool>) {
    let grid = Grid::new(16, 30);
    let n = grid.len();
    let mut rng = Rng::new(seed);
    let mut mines = vec![false; n];
    let mut placed = 0;
    while placed < 99 {
        let i = rng.below(n);
        if !mines[i] {
            mines[i] = true;
            placed += 1;
        }
    }
    let mut cells = vec![Cell::Unknown; n];
    for _ in 0..clicks {
        let start = rng.below(n);
        if mines[start] {
            continue;
        }
        let mut stack = vec![start as u32];
        while let Some(c) = stack.pop() {
            if cells[c as usize] != Cell::Unknown {
                continue;
            }
            let v = mines_around(grid, &mines, c);
            cells[c as usize] = Cell::Revealed(v);
            if v == 0 {
                stack.extend(grid.neighbours(c).iter().copied());
            }
        }
    }
    for i in 0..n {
        let by_open = grid
            .neighbours(i as u32)
            .iter()
            .any(|&nb| matches!(cells[nb as usize], Cell::Revealed(_)));
        if mines[i] && by_open && rng.next() % 100 < flag_pct {
            cells[i] = Cell::Mine;
        }
    }
    (Board::new(grid, cells, total.then_some(99)), mines)
}
