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

use crate::board::{Board, Cell, Field, Position};
use crate::error::InputError;
use crate::formats::position::{impossible_number, total_problem_of};
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

/// The cells of `codes` (row after row, `cols` to a row); an unknown code
/// is an error naming its cell.
fn cells_of(cols: usize, codes: &[i32]) -> Result<Vec<Cell>, InputError> {
    let mut cells = Vec::with_capacity(codes.len());
    for (i, &code) in codes.iter().enumerate() {
        let Some(&cell) = usize::try_from(code).ok().and_then(|k| CELL_OF.get(k)) else {
            return Err(InputError::at(
                i / cols,
                i % cols,
                format_args!(
                    "unknown cell code {code}: expected 0-8 (a number), 9 (known safe), \
                     10 (closed), 11 (flag) or 12 (question mark)"
                ),
            ));
        };
        cells.push(cell);
    }
    Ok(cells)
}

/// The cell of each code of a position, by code.
const CELL_OF: [Cell; QUESTION as usize + 1] = {
    let mut table = [Cell::Unknown; QUESTION as usize + 1];
    let mut n = 0;
    while n <= MAX_NUMBER {
        table[n as usize] = Cell::Revealed(n as u8);
        n += 1;
    }
    table[SAFE as usize] = Cell::Safe;
    table[CLOSED as usize] = Cell::Unknown;
    table[FLAG as usize] = Cell::Mine;
    table[QUESTION as usize] = Cell::Unknown;
    table
};

impl Board {
    /// The board of `rows × cols` cell codes, checked as
    /// [`Position::from_codes`] checks them (the same errors, in the same
    /// order), without building the position first: the numbers are
    /// checked against the board's own neighbourhood counts.
    ///
    /// ```
    /// use sapper_engine::{Board, Position};
    ///
    /// let b = Board::from_codes(1, 3, &[10, 1, 10], Some(1)).unwrap();
    /// assert_eq!(b, Board::from_position(&Position::from_codes(1, 3, &[10, 1, 10], Some(1)).unwrap()));
    /// // A 2 with only two neighbours, one of them open.
    /// let err = Board::from_codes(1, 3, &[10, 2, 0], None).unwrap_err();
    /// assert_eq!(err.cell, Some((0, 1)));
    /// ```
    pub fn from_codes(
        rows: usize,
        cols: usize,
        codes: &[i32],
        total_mines: Option<u32>,
    ) -> Result<Board, InputError> {
        let grid = check_shape(rows, cols, codes.len())?;
        let board = Board::new(grid, cells_of(cols, codes)?, total_mines);
        let (flags, closed) = (board.known_mines(), board.unknown_count());
        if let Some(problem) = total_mines.and_then(|t| total_problem_of(flags, closed, t)) {
            return Err(InputError::new(problem));
        }
        if !board.numbers_fit() {
            // The first misfit and why, worded as the position's check.
            if let Some((i, problem)) = impossible_number(grid, board.cells()) {
                let (r, c) = grid.rc(i);
                return Err(InputError::at(r, c, problem));
            }
        }
        Ok(board)
    }
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
        Position::checked(grid, cells_of(cols, codes)?, total_mines)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The board [`Board::from_codes`] should give: through the position,
    /// whose checks are written cell by cell.
    fn through_position(
        rows: usize,
        cols: usize,
        codes: &[i32],
        total: Option<u32>,
    ) -> Result<Board, InputError> {
        Position::from_codes(rows, cols, codes, total).map(|p| Board::from_position(&p))
    }

    fn agree(rows: usize, cols: usize, codes: &[i32], total: Option<u32>) {
        let direct = Board::from_codes(rows, cols, codes, total);
        let oracle = through_position(rows, cols, codes, total);
        match (&direct, &oracle) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{codes:?} total {total:?}"),
            (Err(a), Err(b)) => assert_eq!(
                (a.to_string(), a.cell),
                (b.to_string(), b.cell),
                "{codes:?} total {total:?}"
            ),
            _ => panic!("{codes:?} total {total:?}: {direct:?} against {oracle:?}"),
        }
    }

    #[test]
    fn every_code_is_read_as_the_table_of_the_module_doc_says() {
        for code in (-3..=15).chain([i32::MIN, i32::MAX]) {
            let expected = match code {
                0..=8 => Some(Cell::Revealed(code as u8)),
                9 => Some(Cell::Safe),
                10 | 12 => Some(Cell::Unknown),
                11 => Some(Cell::Mine),
                _ => None,
            };
            let read = cells_of(1, &[code]);
            assert_eq!(read.as_ref().ok().map(|c| c[0]), expected, "code {code}");
            if let Err(e) = read {
                assert!(
                    e.to_string().contains(&format!("unknown cell code {code}")),
                    "{e}"
                );
            }
        }
    }

    #[test]
    fn every_two_by_three_board_is_read_as_its_position_reads_it() {
        // Numbers that fit and that cannot, known safe, closed, flags and
        // an unknown code, in every arrangement.
        const CODES: [i32; 7] = [0, 1, 3, 9, 10, 11, 13];
        let mut codes = [0i32; 6];
        for mut k in 0..CODES.len().pow(6) {
            for c in codes.iter_mut() {
                *c = CODES[k % CODES.len()];
                k /= CODES.len();
            }
            for total in [None, Some(0), Some(2)] {
                agree(2, 3, &codes, total);
            }
        }
    }

    #[test]
    fn larger_drawn_boards_are_read_as_their_positions_read_them() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for _ in 0..4000 {
            let (rows, cols) = (1 + next(6) as usize, 1 + next(7) as usize);
            let codes: Vec<i32> = (0..rows * cols)
                .map(|_| match next(40) {
                    0..=15 => 10,
                    16..=19 => 11,
                    20..=23 => 9,
                    24 => [-1, 12, 13, i32::MIN][next(4) as usize],
                    _ => next(5) as i32,
                })
                .collect();
            let total = [None, Some(next(8) as u32)][next(2) as usize];
            agree(rows, cols, &codes, total);
        }
    }
}
