//! The exact fewest clicks that clear a small board: a shortest-path
//! search over the positions chords reach.
//!
//! A solution is put in a normal form without adding a click, and only
//! normal forms are searched:
//!
//! - only mines are flagged, each just before the first chord that needs
//!   it: a flag on a safe cell never helps (a chord that counts it leaves
//!   a mine unflagged, which it would open), a flag no chord uses is
//!   wasted, and flags do not change what a left click opens (floods stop
//!   at numbers, never at mines);
//! - a left click on a number serves only to let it be chorded (a border
//!   number is opened by its opening anyway), so it is made just before
//!   that chord — "open and chord", one move — or, on an isolated number
//!   never chorded, at the very end;
//! - a left click on a 0-cell opens its opening; it stays a move of its
//!   own;
//! - at the end, each 3BV unit still closed (an opening, an isolated
//!   number) takes one left click, and nothing cheaper finishes a board
//!   without more chords.
//!
//! So the moves from a position (open cells, flags) are a left click on a
//! closed opening (cost 1) and a chord on a number that opens something
//! (cost 1, plus 1 if the number is still closed, plus the mines around
//! it not yet flagged), and a position is worth its cost plus its closed
//! units. Dijkstra's algorithm takes positions in order of cost and stops
//! once that cost reaches the best worth found. Positions are two 64-bit
//! sets, so boards of at most 64 cells are searched; the search stops with
//! an error after a given number of positions.

use super::square;
use super::{Action, Click, Units};
use crate::Field;
use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};

/// The most cells of a board [`min_clicks`] searches.
pub const MIN_CLICKS_MAX_CELLS: usize = 64;

/// Why [`min_clicks`] gave no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MinClicksError {
    /// The board has more cells than [`MIN_CLICKS_MAX_CELLS`].
    #[error("the exact fewest clicks are searched on boards of at most {MIN_CLICKS_MAX_CELLS} cells; this one has {cells}")]
    TooLarge {
        /// The board's cells.
        cells: usize,
    },
    /// The search reached more positions than it was allowed.
    #[error("the search for the fewest clicks passed {limit} positions")]
    TooManyPositions {
        /// The positions allowed.
        limit: usize,
    },
}

/// A move of the search: a left click, or flags and a chord.
#[derive(Clone, Copy, Debug)]
enum Move {
    Open(u32),
    Chord(u32),
}

/// A position: open cells and flags.
type State = (u64, u64);

/// The fewest clicks that clear `field` (every safe cell open), found by
/// searching at most `max_positions` positions; the clicks themselves, in
/// order. The same count may be reached by other sequences; this one is
/// the first the search finds. Boards of more than
/// [`MIN_CLICKS_MAX_CELLS`] cells are refused. A board with no safe cell
/// needs no click.
///
/// The positions searched grow quickly with the board (each holds about
/// 50 bytes): on random boards with 5–35% mines, a 5×5 board took at most
/// about 500 and a 6×6 board some thousands, while 7×7 boards at 20–30%
/// took up to a million and some 8×8 boards more.
pub fn min_clicks(field: &Field, max_positions: usize) -> Result<Vec<Click>, MinClicksError> {
    let grid = field.grid;
    let n = grid.len();
    if n > MIN_CLICKS_MAX_CELLS {
        return Err(MinClicksError::TooLarge { cells: n });
    }
    let (h, w) = (grid.h, grid.w);
    let units = Units::new(field);
    let bit = |i: u32| 1u64 << i;
    let mines = (0..n as u32)
        .filter(|&i| field.mine[i as usize])
        .fold(0u64, |m, i| m | bit(i));
    // What a left click on each safe cell opens.
    let mut flood = vec![0u64; n];
    let mut opening_cells = vec![0u64; units.openings() as usize];
    for i in 0..n as u32 {
        if let Some(o) = units.opening_of(i) {
            for q in square(h, w, i) {
                opening_cells[o as usize] |= bit(q);
            }
        }
    }
    for i in 0..n as u32 {
        if !field.mine[i as usize] {
            flood[i as usize] = match units.opening_of(i) {
                Some(o) => opening_cells[o as usize],
                None => bit(i),
            };
        }
    }
    // The 3BV units: one 0-cell of each opening, and what clicking it
    // opens; and the isolated numbers.
    let mut opening_clicks: Vec<(u32, u64)> = Vec::new();
    let mut seen_opening = vec![false; opening_cells.len()];
    let mut isolated = 0u64;
    for i in 0..n as u32 {
        if let Some(o) = units.opening_of(i) {
            if !seen_opening[o as usize] {
                seen_opening[o as usize] = true;
                opening_clicks.push((i, flood[i as usize]));
            }
        } else if units.is_isolated(i) {
            isolated |= bit(i);
        }
    }
    // The units still closed when `open` is.
    let closed_units = |open: u64| -> u32 {
        (isolated & !open).count_ones()
            + opening_clicks
                .iter()
                .filter(|&&(cell, _)| open & bit(cell) == 0)
                .count() as u32
    };
    // Chords: each number, with the mines around it and what it opens.
    let mut chords: Vec<(u32, u64, u64)> = Vec::new();
    for i in 0..n as u32 {
        if field.mine[i as usize] || field.value[i as usize] == 0 {
            continue;
        }
        let (mut around, mut opens) = (0u64, 0u64);
        for q in square(h, w, i) {
            if field.mine[q as usize] {
                around |= bit(q);
            } else if q != i {
                opens |= flood[q as usize];
            }
        }
        chords.push((i, around, opens));
    }
    // A flag matters while a chord that needs it can still open
    // something: the mines around the numbers with a closed safe cell
    // around. The others are dropped from the position (they are never
    // needed again, as cells only open), so positions that differ only
    // in them are one.
    let live = |open: u64| -> u64 {
        chords
            .iter()
            .filter(|&&(_, _, opens)| opens & !open != 0)
            .fold(0, |m, &(_, around, _)| m | around)
    };

    let start: State = (0, 0);
    // The best position so far: its cost plus its closed units, and it.
    let mut best = (closed_units(0), start);
    // Each reached position: its fewest clicks so far and how it was
    // reached (the position before and the move).
    let mut reached: HashMap<State, (u32, State, Move)> = HashMap::new();
    let mut queue = BinaryHeap::new();
    reached.insert(start, (0, start, Move::Open(u32::MAX)));
    queue.push(Reverse((0u32, start)));
    while let Some(Reverse((cost, state))) = queue.pop() {
        if cost >= best.0 {
            // No later position costs less than this one already does.
            break;
        }
        if reached[&state].0 < cost {
            continue;
        }
        let (open, flags) = state;
        let worth = cost + closed_units(open);
        if worth < best.0 {
            best = (worth, state);
        }
        let bound = best.0;
        let mut relax = |(open, flags): State, step: u32, m: Move| {
            let c = cost + step;
            if c >= bound {
                return;
            }
            let next = (open, flags & live(open));
            match reached.entry(next) {
                Entry::Occupied(mut e) => {
                    if c < e.get().0 {
                        e.insert((c, state, m));
                        queue.push(Reverse((c, next)));
                    }
                }
                Entry::Vacant(e) => {
                    e.insert((c, state, m));
                    queue.push(Reverse((c, next)));
                }
            }
        };
        for &(cell, opens) in &opening_clicks {
            if open & bit(cell) == 0 {
                relax((open | opens, flags), 1, Move::Open(cell));
            }
        }
        for &(cell, around, opens) in &chords {
            if opens & !open != 0 {
                let closed = u32::from(open & bit(cell) == 0);
                let new_flags = (around & !flags).count_ones();
                relax(
                    (open | bit(cell) | opens, flags | around),
                    1 + closed + new_flags,
                    Move::Chord(cell),
                );
            }
        }
        if reached.len() > max_positions {
            return Err(MinClicksError::TooManyPositions {
                limit: max_positions,
            });
        }
    }

    // The moves back from the best position, then forwards as clicks
    // (a chord on a closed number opens it first, and places the flags
    // it needs), then a left click on each unit still closed.
    let mut moves = Vec::new();
    let mut state = best.1;
    while state != start {
        let (_, before, m) = reached[&state];
        moves.push(m);
        state = before;
    }
    let mut clicks = Vec::new();
    let (mut open, mut flags) = (0u64, 0u64);
    let mut click = |action, cell| clicks.push(Click { action, cell });
    for &m in moves.iter().rev() {
        match m {
            Move::Open(cell) => {
                click(Action::Open, cell);
                open |= flood[cell as usize];
            }
            Move::Chord(cell) => {
                if open & bit(cell) == 0 {
                    click(Action::Open, cell);
                }
                for q in square(h, w, cell) {
                    if mines & bit(q) != 0 && flags & bit(q) == 0 {
                        flags |= bit(q);
                        click(Action::Flag, q);
                    }
                }
                click(Action::Chord, cell);
                let (_, _, opens) = chords
                    .iter()
                    .find(|&&(c, _, _)| c == cell)
                    .expect("a chord is on a number");
                open |= bit(cell) | opens;
            }
        }
    }
    for &(cell, _) in &opening_clicks {
        if open & bit(cell) == 0 {
            click(Action::Open, cell);
        }
    }
    for i in 0..n as u32 {
        if isolated & !open & bit(i) != 0 {
            click(Action::Open, i);
        }
    }
    Ok(clicks)
}
