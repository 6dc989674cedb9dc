//! The exact fewest clicks that clear a small board: a shortest-path
//! search over the positions clicks reach.
//!
//! A position is the set of open cells and the set of flags. Only mines
//! are ever flagged, and a flag is placed just before the first chord that
//! needs it, without loss of generality: a flag on a safe cell never helps
//! (a chord that counts it leaves a mine unflagged, which it would open),
//! a flag no chord uses is a wasted click, and flags do not change what a
//! left click opens (floods stop at numbers, never at mines). So the moves
//! from a position are
//!
//! - a left click on a closed safe cell (cost 1): a number opens alone, a
//!   0-cell opens its opening;
//! - a chord on an open number with a closed safe cell around it, after
//!   flagging the mines around it not yet flagged (cost 1 + those flags).
//!
//! Left clicks on mines lose, and chords that open nothing, clicks on open
//! cells and unflagging are wasted: none is in a shortest solution.
//! Dijkstra's algorithm over these moves finds the fewest clicks; the
//! positions are kept as two 64-bit sets, so boards of at most 64 cells
//! are searched, and the search stops with an error after a given number
//! of positions.

use super::zini::square;
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
/// The positions a board reaches grow quickly with its 3BV and mines: a
/// 5×5 board with a few mines takes some thousands, a dense 8×8 board may
/// take millions (each about 50 bytes).
pub fn min_clicks(field: &Field, max_positions: usize) -> Result<Vec<Click>, MinClicksError> {
    let grid = field.grid;
    let n = grid.len();
    if n > MIN_CLICKS_MAX_CELLS {
        return Err(MinClicksError::TooLarge { cells: n });
    }
    let (h, w) = (grid.h, grid.w);
    let units = Units::new(field);
    let bit = |i: u32| 1u64 << i;
    let mut safe = 0u64;
    let mut mines = 0u64;
    for i in 0..n as u32 {
        if field.mine[i as usize] {
            mines |= bit(i);
        } else {
            safe |= bit(i);
        }
    }
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
    // Left clicks: each safe number, and one 0-cell of each opening.
    let mut lefts: Vec<(u32, u64)> = Vec::new();
    let mut seen_opening = vec![false; opening_cells.len()];
    for i in 0..n as u32 {
        match units.opening_of(i) {
            Some(o) if !seen_opening[o as usize] => {
                seen_opening[o as usize] = true;
                lefts.push((i, flood[i as usize]));
            }
            Some(_) => {}
            None if !field.mine[i as usize] => lefts.push((i, bit(i))),
            None => {}
        }
    }
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

    let start: State = (0, 0);
    // Each reached position: its fewest clicks so far and how it was
    // reached (the position before and the move).
    let mut reached: HashMap<State, (u32, State, Move)> = HashMap::new();
    let mut queue = BinaryHeap::new();
    reached.insert(start, (0, start, Move::Open(u32::MAX)));
    queue.push(Reverse((0u32, start)));
    let goal = loop {
        let Some(Reverse((cost, state))) = queue.pop() else {
            unreachable!("clicking every safe cell clears the board");
        };
        if reached[&state].0 < cost {
            continue;
        }
        let (open, flags) = state;
        if open & safe == safe {
            break state;
        }
        let mut relax = |next: State, step: u32, m: Move| {
            let c = cost + step;
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
        for &(cell, opens) in &lefts {
            if open & bit(cell) == 0 {
                relax((open | opens, flags), 1, Move::Open(cell));
            }
        }
        for &(cell, around, opens) in &chords {
            if open & bit(cell) != 0 && opens & !open != 0 {
                let new_flags = (around & !flags).count_ones();
                relax(
                    (open | opens, flags | around),
                    1 + new_flags,
                    Move::Chord(cell),
                );
            }
        }
        if reached.len() > max_positions {
            return Err(MinClicksError::TooManyPositions {
                limit: max_positions,
            });
        }
    };

    // The moves back from the goal, then forwards as clicks.
    let mut moves = Vec::new();
    let mut state = goal;
    while state != start {
        let (_, before, m) = reached[&state];
        moves.push((before, m));
        state = before;
    }
    let mut clicks = Vec::new();
    for &((_, flags), m) in moves.iter().rev() {
        match m {
            Move::Open(cell) => clicks.push(Click {
                action: Action::Open,
                cell,
            }),
            Move::Chord(cell) => {
                for q in square(h, w, cell) {
                    if mines & bit(q) != 0 && flags & bit(q) == 0 {
                        clicks.push(Click {
                            action: Action::Flag,
                            cell: q,
                        });
                    }
                }
                clicks.push(Click {
                    action: Action::Chord,
                    cell,
                });
            }
        }
    }
    Ok(clicks)
}
