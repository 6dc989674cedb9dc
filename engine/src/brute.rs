//! The **test oracle**: brute-force enumeration of every mine layout.
//!
//! Deliberately naive and independent of the methods (it shares no code
//! with them): every assignment of mine / safe to the closed
//! (`Cell::Unknown`) cells is tried as a bitmask, and kept when every
//! revealed number sees exactly its number of mines (known mines plus the
//! assignment) and, when the total is known, the known mines plus the
//! assignment make exactly the total. A closed cell is forced when it has
//! the same value in every kept layout. This is the definition of "forced"
//! itself, so the property tests compare the real methods against it.
//!
//! Only for small boards: at most [`MAX_UNKNOWNS`] closed cells
//! (`2^24` layouts).

use crate::board::{Board, Cell, Forced, Value};

/// Most closed cells [`forced`] accepts.
pub const MAX_UNKNOWNS: usize = 24;

/// Every closed cell with the same value in every consistent layout, in
/// cell order; `None` when no layout is consistent.
///
/// # Panics
///
/// If the board has more than [`MAX_UNKNOWNS`] closed cells (it is a test
/// oracle, not a solver).
pub fn forced(board: &Board) -> Option<Vec<Forced>> {
    let closed = closed_cells(board);
    let mut any = false;
    let mut mine_in_all = u32::MAX;
    let mut mine_in_some = 0u32;
    for_each_layout(board, &closed, true, |layout| {
        any = true;
        mine_in_all &= layout;
        mine_in_some |= layout;
    });
    if !any {
        return None;
    }
    let mut out = Vec::new();
    for (k, &cell) in closed.iter().enumerate() {
        if mine_in_all >> k & 1 == 1 {
            out.push(Forced {
                cell,
                value: Value::Mine,
            });
        } else if mine_in_some >> k & 1 == 0 {
            out.push(Forced {
                cell,
                value: Value::Safe,
            });
        }
    }
    Some(out)
}

/// The numbers of mines the closed cells hold over the layouts consistent
/// with the revealed numbers, the total ignored; ascending, empty when the
/// numbers alone admit no layout.
///
/// # Panics
///
/// As [`forced`].
pub fn mine_counts(board: &Board) -> Vec<u32> {
    let closed = closed_cells(board);
    let mut seen = vec![false; closed.len() + 1];
    for_each_layout(board, &closed, false, |layout| {
        seen[layout.count_ones() as usize] = true;
    });
    (0..seen.len() as u32)
        .filter(|&k| seen[k as usize])
        .collect()
}

/// The closed cells, in index order (bit `k` of a layout is `closed[k]`).
fn closed_cells(board: &Board) -> Vec<u32> {
    let cells = board.cells();
    let closed: Vec<u32> = (0..cells.len() as u32)
        .filter(|&i| cells[i as usize] == Cell::Unknown)
        .collect();
    assert!(
        closed.len() <= MAX_UNKNOWNS,
        "brute force takes at most {MAX_UNKNOWNS} closed cells, got {}",
        closed.len()
    );
    closed
}

/// Calls `keep` with every layout (bit `k` = `closed[k]` is a mine) in
/// which every revealed number sees exactly its number of mines and, if
/// `use_total` and the total is known, the mines add up to the total.
fn for_each_layout(board: &Board, closed: &[u32], use_total: bool, mut keep: impl FnMut(u32)) {
    let grid = board.grid();
    let cells = board.cells();
    let bit_of = |cell: u32| closed.iter().position(|&c| c == cell).map(|k| 1u32 << k);

    // Each revealed number: the mask of its closed neighbours and how many
    // mines they must hold (its number minus the known mines around it).
    let mut checks: Vec<(u32, i64)> = Vec::new();
    for (i, cell) in cells.iter().enumerate() {
        let Cell::Revealed(number) = *cell else {
            continue;
        };
        let mut mask = 0u32;
        let mut known_mines = 0i64;
        for &nb in &grid.neighbours(i as u32) {
            match cells[nb as usize] {
                Cell::Mine => known_mines += 1,
                Cell::Unknown => mask |= bit_of(nb).expect("closed cell listed"),
                _ => {}
            }
        }
        checks.push((mask, number as i64 - known_mines));
    }
    let total_left: Option<i64> = board
        .total_mines()
        .filter(|_| use_total)
        .map(|t| t as i64 - cells.iter().filter(|&&c| c == Cell::Mine).count() as i64);

    for layout in 0u32..(1u32 << closed.len()) {
        if let Some(left) = total_left {
            if layout.count_ones() as i64 != left {
                continue;
            }
        }
        if checks
            .iter()
            .all(|&(mask, need)| (layout & mask).count_ones() as i64 == need)
        {
            keep(layout);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn tiny_cases() {
        // `1 ?`: the only closed cell is the 1's mine.
        let b = Board::new(
            Grid::new(1, 2),
            vec![Cell::Revealed(1), Cell::Unknown],
            None,
        );
        assert_eq!(
            forced(&b),
            Some(vec![Forced {
                cell: 1,
                value: Value::Mine
            }])
        );
        // `? 1 ?`: either; with total 0 impossible.
        let cells = vec![Cell::Unknown, Cell::Revealed(1), Cell::Unknown];
        let b = Board::new(Grid::new(1, 3), cells.clone(), None);
        assert_eq!(forced(&b), Some(vec![]));
        let b = Board::new(Grid::new(1, 3), cells, Some(0));
        assert_eq!(forced(&b), None);
        // No closed cell: the single (empty) layout must satisfy everything.
        let b = Board::new(
            Grid::new(1, 2),
            vec![Cell::Revealed(1), Cell::Mine],
            Some(1),
        );
        assert_eq!(forced(&b), Some(vec![]));
        let b = Board::new(Grid::new(1, 2), vec![Cell::Revealed(0), Cell::Mine], None);
        assert_eq!(forced(&b), None);
        assert_eq!(mine_counts(&b), Vec::<u32>::new());
    }

    #[test]
    fn mine_counts_ignore_the_total() {
        // `? 1 ? 1 ?`: the middle cell alone, or both ends.
        let cells = vec![
            Cell::Unknown,
            Cell::Revealed(1),
            Cell::Unknown,
            Cell::Revealed(1),
            Cell::Unknown,
        ];
        let b = Board::new(Grid::new(1, 5), cells, Some(7));
        assert_eq!(mine_counts(&b), vec![1, 2]);
        assert_eq!(forced(&b), None);
    }
}
