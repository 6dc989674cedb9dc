//! Method 1, the **single-cell method**: one number's equation on its own.
//!
//! For a revealed number with effective value `v` (its number minus the known
//! mines around it) and `u` unknown neighbours, the equation is
//! `Σ x_n = v` over those `u` cells. It pins every cell exactly when
//! `v = 0` (all safe) or `v = u` (all mines). Anything else needs a second
//! equation (linked cells) or a hypothesis.

use crate::board::{Board, Contradiction, Forced, Value};
use crate::constraints::check_number;

/// Examines the numbers in `dirty` (all revealed numbers if `None`).
pub fn find(
    board: &Board,
    dirty: Option<&[u32]>,
    out: &mut Vec<Forced>,
) -> Result<(), Contradiction> {
    match dirty {
        Some(list) => {
            for &i in list {
                examine(board, i, out)?;
            }
        }
        None => {
            for i in 0..board.grid().len() as u32 {
                examine(board, i, out)?;
            }
        }
    }
    Ok(())
}

#[inline]
fn examine(board: &Board, i: u32, out: &mut Vec<Forced>) -> Result<(), Contradiction> {
    let Some((v, u)) = board.effective(i) else {
        return Ok(());
    };
    if v < 0 || v as u32 > u {
        check_number(i, v, u)?;
    }
    if u == 0 {
        return Ok(()); // nothing left to decide
    }
    // v = 0: the number is satisfied, every unknown neighbour is safe.
    // v = u: every unknown neighbour must be a mine to reach v.
    let value = if v == 0 {
        Value::Safe
    } else if v as u32 == u {
        Value::Mine
    } else {
        return Ok(());
    };
    for cell in board.unknown_neighbours(i) {
        out.push(Forced { cell, value });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Cell;
    use crate::grid::Grid;

    #[test]
    fn zero_clears_and_full_count_flags() {
        // ? ? ?
        // ? 0 ?      the 0 clears its whole neighbourhood
        let g = Grid::new(2, 3);
        let mut cells = vec![Cell::Unknown; 6];
        cells[4] = Cell::Revealed(0);
        let b = Board::new(g, cells, None);
        let mut out = vec![];
        find(&b, None, &mut out).unwrap();
        assert_eq!(out.len(), 5);
        assert!(out.iter().all(|f| f.value == Value::Safe));

        // 1 ?  : a 1 with one closed neighbour left, the other neighbours open
        // . .
        let g = Grid::new(2, 2);
        let cells = vec![Cell::Revealed(1), Cell::Unknown, Cell::Safe, Cell::Safe];
        let b = Board::new(g, cells, None);
        let mut out = vec![];
        find(&b, None, &mut out).unwrap();
        assert_eq!(
            out,
            vec![Forced {
                cell: 1,
                value: Value::Mine
            }]
        );
    }

    #[test]
    fn known_mines_lower_the_effective_value() {
        // 2 F ?  : the 2 already sees one flag, so it needs one more of one
        let g = Grid::new(1, 3);
        let cells = vec![Cell::Unknown, Cell::Revealed(2), Cell::Mine];
        let b = Board::new(g, cells, None);
        let mut out = vec![];
        find(&b, None, &mut out).unwrap();
        assert_eq!(
            out,
            vec![Forced {
                cell: 0,
                value: Value::Mine
            }]
        );
    }

    #[test]
    fn impossible_number_is_a_contradiction() {
        let g = Grid::new(1, 2);
        let b = Board::new(g, vec![Cell::Revealed(2), Cell::Unknown], None);
        let err = find(&b, None, &mut vec![]).unwrap_err();
        assert_eq!(err.cells, vec![0]);
    }
}
