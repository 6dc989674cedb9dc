//! Boards as grids of integer cell codes, the encoding Python and
//! JavaScript tools exchange (ms_toollib's among them).
//!
//! | code | in a position ([`Position`]) | in a layout ([`Field`]) |
//! |---|---|---|
//! | `0`–`8` | a revealed number | a safe cell and its number |
//! | `9` | a cell known safe, no number shown (sapper's `*`) | — |
//! | `10` | a closed cell | — |
//! | `11` | a flag (a known mine) | — |
//! | `12` | a question mark: read as closed | — |
//! | `-1` | — | a mine |
//!
//! Rows are listed top to bottom, each left to right; rows and columns
//! count from 0 in every message. Any other code is an error naming its
//! cell.

use crate::board::{Cell, Field, Position};
use crate::error::InputError;
use crate::grid::Grid;

/// A revealed number `n` is the code `n` (0–8).
pub const MAX_NUMBER: i32 = 8;
/// A cell known safe without a number (sapper's `*`).
pub const SAFE: i32 = 9;
/// A closed cell.
pub const CLOSED: i32 = 10;
/// A flagged cell.
pub const FLAG: i32 = 11;
/// A closed cell marked with a question mark (read as closed).
pub const QUESTION: i32 = 12;
/// A mine, in a layout.
pub const MINE: i32 = -1;

use crate::grid::MAX_CELLS;

fn check_shape(rows: usize, cols: usize, len: usize) -> Result<Grid, InputError> {
    if rows == 0 || cols == 0 {
        return Err(InputError::new(format!(
            "a board of {rows}×{cols} cells: it needs at least one row and one column"
        )));
    }
    if rows.saturating_mul(cols) > MAX_CELLS {
        return Err(InputError::new(format!(
            "a board of {rows}×{cols} cells: at most {MAX_CELLS} cells"
        )));
    }
    if len != rows * cols {
        return Err(InputError::new(format!(
            "{len} codes for a {rows}×{cols} board: expected {}",
            rows * cols
        )));
    }
    Ok(Grid::new(rows, cols))
}

impl Position {
    /// The position of `rows × cols` cell codes (row after row; see the
    /// [module doc](self)), with the total number of mines if known.
    ///
    /// ```
    /// use sapper_engine::Position;
    ///
    /// // ? 1 ?  with one mine in all
    /// let p = Position::from_codes(1, 3, &[10, 1, 10], Some(1)).unwrap();
    /// assert_eq!(p.to_string(), "mines 1\n?1?\n");
    /// assert_eq!(p.to_codes(), [10, 1, 10]);
    /// assert!(Position::from_codes(1, 3, &[10, 13, 10], None).is_err());
    /// ```
    pub fn from_codes(
        rows: usize,
        cols: usize,
        codes: &[i32],
        total_mines: Option<u32>,
    ) -> Result<Position, InputError> {
        let grid = check_shape(rows, cols, codes.len())?;
        let mut cells = Vec::with_capacity(codes.len());
        for (i, &code) in codes.iter().enumerate() {
            cells.push(match code {
                0..=MAX_NUMBER => Cell::Revealed(code as u8),
                SAFE => Cell::Safe,
                CLOSED | QUESTION => Cell::Unknown,
                FLAG => Cell::Mine,
                _ => {
                    return Err(InputError::at(
                        i / cols,
                        i % cols,
                        format_args!(
                            "unknown cell code {code}: expected 0-8 (a number), 9 (known safe), \
                             10 (closed), 11 (flag) or 12 (question mark)"
                        ),
                    ))
                }
            });
        }
        Position::checked(grid, cells, total_mines)
    }

    /// The cell codes of the position, row after row.
    pub fn to_codes(&self) -> Vec<i32> {
        self.cells
            .iter()
            .map(|&c| match c {
                Cell::Revealed(n) => i32::from(n),
                Cell::Safe => SAFE,
                Cell::Unknown => CLOSED,
                Cell::Mine => FLAG,
            })
            .collect()
    }
}

impl Field {
    /// The field of a layout given as codes (row after row): `-1` a mine,
    /// `0`–`8` a safe cell with its number, which must match the mines
    /// around it. No cell is open: the caller chooses where play starts.
    ///
    /// ```
    /// use sapper_engine::Field;
    ///
    /// let field = Field::from_codes(2, 2, &[-1, 1, 1, 1]).unwrap();
    /// assert_eq!(field.total_mines, 1);
    /// assert_eq!(field.to_codes(), [-1, 1, 1, 1]);
    /// // A number that does not match its mines names the cell.
    /// let err = Field::from_codes(2, 2, &[-1, 2, 1, 1]).unwrap_err();
    /// assert_eq!(err.cell, Some((0, 1)));
    /// ```
    pub fn from_codes(rows: usize, cols: usize, codes: &[i32]) -> Result<Field, InputError> {
        let grid = check_shape(rows, cols, codes.len())?;
        let mut mine = Vec::with_capacity(codes.len());
        for (i, &code) in codes.iter().enumerate() {
            mine.push(match code {
                MINE => true,
                0..=MAX_NUMBER => false,
                _ => {
                    return Err(InputError::at(
                        i / cols,
                        i % cols,
                        format_args!(
                            "unknown layout code {code}: expected -1 (a mine) or 0-8 (a number)"
                        ),
                    ))
                }
            });
        }
        let field = Field::from_mines(grid, mine, vec![false; grid.len()]);
        for (i, &code) in codes.iter().enumerate() {
            if code != MINE && code != i32::from(field.value[i]) {
                return Err(InputError::at(
                    i / cols,
                    i % cols,
                    format_args!("shows {code} but has {} mines around it", field.value[i]),
                ));
            }
        }
        Ok(field)
    }

    /// The layout as codes, row after row: `-1` a mine, else its number.
    pub fn to_codes(&self) -> Vec<i32> {
        (0..self.grid.len())
            .map(|i| {
                if self.mine[i] {
                    MINE
                } else {
                    i32::from(self.value[i])
                }
            })
            .collect()
    }
}
