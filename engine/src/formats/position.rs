//! The position text format: what a player sees, one character per cell.
//!
//! ```text
//! # a comment line
//! mines 2
//! F1..
//! ?2..
//! ?1..
//! ```
//!
//! - A line whose first non-blank character is `#` is a comment; comments
//!   are allowed anywhere. Blank lines are ignored everywhere (also between
//!   grid rows).
//! - `mines N` (the keyword, blanks, a whole number) is optional and, if
//!   present, comes before the grid: the total number of mines on the field.
//! - Every other line is a row of the grid, top to bottom, one character per
//!   cell, no separators:
//!   - `?` a closed cell ([`Cell::Unknown`]);
//!   - `F` a flag, a known mine ([`Cell::Mine`]);
//!   - `0`–`8` a revealed number ([`Cell::Revealed`]); `.` is the same as
//!     `0`;
//!   - `*` a cell known to be safe whose number is not shown ([`Cell::Safe`];
//!     `sapper analyse` marks proven-safe cells this way, so every board
//!     can be written and read back).
//! - All rows have the same length. Trailing whitespace and CRLF line ends
//!   are tolerated; anything else in a row (leading blanks included) is an
//!   error.
//! - At most [`MAX_CELLS`] cells (as many as 1000 × 1000), the engine's
//!   limit on every surface.
//!
//! [`write_position`] writes `mines N` (when the total is known) and the
//! rows, with `.` for a revealed 0; [`parse_position`] reads it back to the
//! same [`Position`].
//!
//! Reading also makes cheap local checks, each reported at the line and
//! column of the offending cell (or of `N` in `mines N`): a number larger
//! than its count of neighbours; a number with more flagged neighbours than
//! it shows; a number needing more mines than its flagged and closed
//! neighbours can hold; `mines N` below the number of flags or above flags
//! plus closed cells. Deeper inconsistency (numbers contradicting each
//! other) is left to the solver, which names the cells.

use super::{
    char_column, numbered_lines, plain_integer, quote, read_text, FormatError, PLAIN_INTEGER,
};
use crate::board::{flags_and_closed, Cell, Position};
use crate::grid::{Grid, MAX_CELLS};
use std::path::Path;

const CELL_CHARS: &str = "`?` (closed), `F` (flag), `*` (safe), `.` or `0`-`8` (revealed number)";

/// Reads and checks the position in file `path`.
pub fn read_position(path: &Path) -> Result<Position, FormatError> {
    let text = read_text(path)?;
    parse_position(path, &text)
}

/// Parses and checks a position in the text format (see the module doc).
/// No I/O: `path` only names the input in errors.
pub fn parse_position(path: &Path, text: &str) -> Result<Position, FormatError> {
    // (line number, value, column of the value) of the `mines N` line.
    let mut total: Option<(usize, u32, usize)> = None;
    // At most one cell per byte of text: no growing.
    let mut cells: Vec<Cell> = Vec::with_capacity(text.len());
    // Line number of each grid row, for messages.
    let mut row_lines: Vec<usize> = Vec::new();
    let mut width = 0usize;

    for (line_no, line) in numbered_lines(text) {
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("mines") {
            if !row_lines.is_empty() {
                return Err(FormatError::at(
                    path,
                    line_no,
                    1,
                    "`mines N` after the grid; expected it before the first row",
                ));
            }
            if let Some((first, _, _)) = total {
                return Err(FormatError::at(
                    path,
                    line_no,
                    1,
                    format!("a second `mines` line (the first is line {first}); expected one"),
                ));
            }
            let number = rest.trim_start();
            let column = char_column(line, line.len() - number.len());
            let starts_with_blank = rest.starts_with([' ', '\t']);
            let value = (starts_with_blank && !number.is_empty())
                .then(|| plain_integer(number).and_then(|v| u32::try_from(v).ok()))
                .flatten();
            let Some(value) = value else {
                return Err(FormatError::at(
                    path,
                    line_no,
                    column,
                    format!(
                        "expected `mines N` with N a whole number below 2^32, found {} ({PLAIN_INTEGER})",
                        quote(line)
                    ),
                ));
            };
            total = Some((line_no, value, column));
            continue;
        }

        // A grid row: one byte per cell (a byte outside the table, such
        // as the first of a multi-byte character, is an error there).
        // Checked first, then converted in one tight pass.
        if let Some(k) = line
            .bytes()
            .position(|b| CELL_OF_BYTE[b as usize].is_none())
        {
            let ch = line[k..].chars().next().expect("a character starts here");
            return Err(FormatError::at(
                path,
                line_no,
                char_column(line, k),
                format!("unexpected {}; expected {CELL_CHARS}", quote_char(ch)),
            ));
        }
        if cells.len() + line.len() > MAX_CELLS {
            return Err(FormatError::at(
                path,
                line_no,
                (MAX_CELLS - cells.len() + 1).min(line.len()),
                format!("more than {MAX_CELLS} cells; expected at most {MAX_CELLS} in all"),
            ));
        }
        let row_start = cells.len();
        cells.extend(
            line.bytes()
                .map(|b| CELL_OF_BYTE[b as usize].unwrap_or(Cell::Unknown)),
        );
        let len = cells.len() - row_start;
        if row_lines.is_empty() {
            width = len;
        } else if len != width {
            return Err(FormatError::at(
                path,
                line_no,
                len.min(width) + 1,
                format!(
                    "row {} has {len} cells; expected {width} like the first row (line {})",
                    row_lines.len() + 1,
                    row_lines[0]
                ),
            ));
        }
        row_lines.push(line_no);
    }

    if row_lines.is_empty() {
        return Err(FormatError::new(
            path,
            format!("no grid; expected at least one row of cells: {CELL_CHARS}"),
        ));
    }
    let grid = Grid::new(row_lines.len(), width);
    let cell_position = |i: u32| {
        let (r, c) = grid.rc(i);
        // One character per cell and no leading blanks: column = c + 1.
        (row_lines[r], c + 1)
    };

    if let Some((line_no, total, column)) = total {
        if let Some(problem) = total_problem(&cells, total) {
            return Err(FormatError::at(path, line_no, column, problem));
        }
    }

    if let Some((i, problem)) = impossible_number(grid, &cells) {
        let (line, column) = cell_position(i);
        let (r, c) = grid.rc(i);
        return Err(FormatError::at(
            path,
            line,
            column,
            format!("row {}, column {}: {problem}", r + 1, c + 1),
        ));
    }

    Ok(Position {
        grid,
        cells,
        total_mines: total.map(|(_, t, _)| t),
    })
}

/// Why a total of `total` mines cannot lie on `cells`, if it cannot: the
/// flags are mines, and every other mine is under a closed cell.
pub(crate) fn total_problem(cells: &[Cell], total: u32) -> Option<String> {
    let (flags, closed) = flags_and_closed(cells);
    total_problem_of(flags, closed, total)
}

/// [`total_problem`] of a grid with `flags` flags and `closed` closed cells.
pub(crate) fn total_problem_of(flags: u32, closed: u32, total: u32) -> Option<String> {
    let (flags, closed) = (u64::from(flags), u64::from(closed));
    // The flags are mines, so the total is at least their number…
    if (total as u64) < flags {
        return Some(format!(
            "mines {total} but the grid has {flags} flags; expected at least {flags}"
        ));
    }
    // …and every other mine is under a closed cell.
    if total as u64 > flags + closed {
        return Some(format!(
            "mines {total} but the grid has only {flags} flags and {closed} closed cells; \
             expected at most {}",
            flags + closed
        ));
    }
    None
}

/// The first revealed number (in cell order) that its neighbours cannot
/// satisfy on their own, and why: more than its neighbours, fewer than its
/// flags, or more than its flagged and closed neighbours.
pub(crate) fn impossible_number(grid: Grid, cells: &[Cell]) -> Option<(u32, String)> {
    // Per cell, 1 if it is a flag plus 256 if it is closed: summed over a
    // number's neighbours, its flags and closed neighbours without a branch
    // on each neighbour's kind. (The board's neighbourhood words count the
    // same, but for every cell and with direction masks: reading an expert
    // position that way took about 1.5× as long.)
    let kind: Vec<u16> = cells
        .iter()
        .map(|&c| u16::from(c == Cell::Mine) | u16::from(c == Cell::Unknown) << 8)
        .collect();
    for i in 0..grid.len() as u32 {
        let Cell::Revealed(n) = cells[i as usize] else {
            continue;
        };
        let neighbours = grid.neighbours(i);
        let sum: u16 = neighbours.iter().map(|&nb| kind[nb as usize]).sum();
        let (n, flags, closed) = (n as usize, (sum & 0xFF) as usize, (sum >> 8) as usize);
        let neighbours = neighbours.len();
        if n <= neighbours && flags <= n && n <= flags + closed {
            continue;
        }
        let problem = if n > neighbours {
            // A number counts mines among its neighbours: it cannot exceed them.
            format!("the cell shows {n} but has only {neighbours} neighbours")
        } else if flags > n {
            // Every flag is a mine around this number, so it is at least `flags`.
            format!(
                "the cell shows {n} but has {flags} flagged neighbours; expected at most {n} flags"
            )
        } else {
            // Only flagged and closed neighbours can be mines.
            format!(
                "the cell shows {n} but only its {flags} flagged and {closed} closed neighbours \
                 can be mines"
            )
        };
        return Some((i, problem));
    }
    None
}

/// The cell each byte of a grid row stands for (`None`: not a cell).
const CELL_OF_BYTE: [Option<Cell>; 256] = {
    let mut t = [None; 256];
    t[b'?' as usize] = Some(Cell::Unknown);
    t[b'F' as usize] = Some(Cell::Mine);
    t[b'*' as usize] = Some(Cell::Safe);
    t[b'.' as usize] = Some(Cell::Revealed(0));
    let mut n = 0;
    while n <= 8 {
        t[(b'0' + n) as usize] = Some(Cell::Revealed(n));
        n += 1;
    }
    t
};

fn quote_char(ch: char) -> String {
    if ch.is_control() || ch.is_whitespace() {
        format!("{:?}", ch)
    } else {
        format!("`{ch}`")
    }
}

/// The text of a position: `mines N` if the total is known, then one line
/// per row, `.` for a revealed 0. A number above 8 cannot be written (no
/// field has one); it is written as `X` so that reading the text back fails
/// at that cell instead of silently changing it.
pub fn write_position(p: &Position) -> String {
    let mut out = String::with_capacity(p.grid.h * (p.grid.w + 1) + 16);
    if let Some(total) = p.total_mines {
        out.push_str(&format!("mines {total}\n"));
    }
    for row in p.cells.chunks(p.grid.w.max(1)).take(p.grid.h) {
        out.extend(row.iter().map(|&cell| cell_char(cell)));
        out.push('\n');
    }
    out
}

impl Position {
    /// A position from its grid rows alone, each a string of cell
    /// characters (`?`, `F`, `*`, `.`, `0`–`8`; no header, comment or line
    /// break), with the total if known: what a protocol or an API sends.
    /// Errors name the cell as `row R, column C`, both from 0, like every
    /// answer about cells.
    ///
    /// ```
    /// use sapper_engine::Position;
    ///
    /// let p = Position::from_rows(&["??1.", "?21.", "11.."], Some(2)).unwrap();
    /// assert_eq!((p.grid.h, p.grid.w), (3, 4));
    /// let err = Position::from_rows(&["??", "mines 5"], None).unwrap_err();
    /// assert_eq!(err.cell, Some((1, 0)));
    /// ```
    pub fn from_rows(
        rows: &[impl AsRef<str>],
        total_mines: Option<u32>,
    ) -> Result<Position, crate::InputError> {
        use crate::InputError;
        let h = rows.len();
        let w = rows.first().map_or(0, |r| r.as_ref().len());
        if h == 0 || w == 0 {
            return Err(InputError::new(
                "no cells: expected at least one row of at least one cell",
            ));
        }
        if h.saturating_mul(w) > MAX_CELLS {
            return Err(InputError::new(format!(
                "{h} rows of {w} cells: at most {MAX_CELLS} cells"
            )));
        }
        let mut cells = Vec::with_capacity(h * w);
        for (r, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            if let Some((k, ch)) = row
                .char_indices()
                .find(|&(k, _)| CELL_OF_BYTE[row.as_bytes()[k] as usize].is_none())
            {
                let column = row[..k].chars().count();
                return Err(InputError::at(
                    r,
                    column,
                    format_args!("unexpected {}; expected {CELL_CHARS}", quote_char(ch)),
                ));
            }
            if row.len() != w {
                return Err(InputError::at(
                    r,
                    row.len().min(w),
                    format_args!("row {r} has {} cells; expected {w} like row 0", row.len()),
                ));
            }
            cells.extend(
                row.bytes()
                    .map(|b| CELL_OF_BYTE[b as usize].unwrap_or(Cell::Unknown)),
            );
        }
        Position::checked(Grid::new(h, w), cells, total_mines)
    }

    /// The position of `cells` on `grid` with `total_mines`, after the
    /// local checks the text format makes (the total against the flags
    /// and closed cells, each number against its neighbours), cells named
    /// from 0.
    pub(crate) fn checked(
        grid: Grid,
        cells: Vec<Cell>,
        total_mines: Option<u32>,
    ) -> Result<Position, crate::InputError> {
        use crate::InputError;
        if let Some(total) = total_mines {
            if let Some(problem) = total_problem(&cells, total) {
                return Err(InputError::new(problem));
            }
        }
        if let Some((i, problem)) = impossible_number(grid, &cells) {
            let (r, c) = grid.rc(i);
            return Err(InputError::at(r, c, problem));
        }
        Ok(Position {
            grid,
            cells,
            total_mines,
        })
    }
}

/// Parses a position from its text (see the [module doc](self)); errors
/// name the line and column, as in a file called `position`.
///
/// ```
/// use sapper_engine::Position;
///
/// let p: Position = "mines 1\n?1?\n".parse().unwrap();
/// assert_eq!((p.grid.h, p.grid.w, p.total_mines), (1, 3, Some(1)));
/// let err = "?9?".parse::<Position>().unwrap_err();
/// assert_eq!((err.line, err.column), (Some(1), Some(2)));
/// ```
impl std::str::FromStr for Position {
    type Err = FormatError;

    fn from_str(text: &str) -> Result<Position, FormatError> {
        parse_position(Path::new("position"), text)
    }
}

/// The position's text ([`write_position`]), which [`str::parse`] reads
/// back.
impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&write_position(self))
    }
}

/// The character of one cell in the position format.
pub fn cell_char(cell: Cell) -> char {
    match cell {
        Cell::Unknown => '?',
        Cell::Mine => 'F',
        Cell::Safe => '*',
        Cell::Revealed(0) => '.',
        Cell::Revealed(n @ 1..=8) => (b'0' + n) as char,
        Cell::Revealed(_) => 'X',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Position, FormatError> {
        parse_position(Path::new("p.txt"), text)
    }

    fn err(text: &str) -> FormatError {
        parse(text).expect_err("expected an error")
    }

    #[test]
    fn the_documented_example() {
        let text = "# a comment line\nmines 2\nF1..\n?2..\n?1..\n";
        let p = parse(text).unwrap();
        assert_eq!(p.grid, Grid::new(3, 4));
        assert_eq!(p.total_mines, Some(2));
        use Cell::*;
        let zero = Revealed(0);
        #[rustfmt::skip]
        let expected = vec![
            Mine, Revealed(1), zero, zero,
            Unknown, Revealed(2), zero, zero,
            Unknown, Revealed(1), zero, zero,
        ];
        assert_eq!(p.cells, expected);
        assert_eq!(write_position(&p), "mines 2\nF1..\n?2..\n?1..\n");
    }

    #[test]
    fn a_revealed_zero_next_to_a_flag_is_rejected() {
        // The `.` at row 2, column 4 touches the flag at row 1, column 4.
        let e = err("mines 3\n??1F\n?21.\n");
        assert_eq!((e.line, e.column), (Some(3), Some(4)), "{e}");
        assert!(
            e.message.contains("shows 0 but has 1 flagged neighbours"),
            "{e}"
        );
        // 99 mines do not fit in 3 closed cells and a flag.
        let e = err("mines 99\n??1F\n?21.\n");
        assert_eq!((e.line, e.column), (Some(1), Some(7)), "{e}");
    }

    #[test]
    fn comments_blanks_crlf_and_safe_cells() {
        let p = parse("\r\n  # hi\r\n??*\r\n\r\n# mid\r\n?1F  \r\n\n").unwrap();
        assert_eq!(p.grid, Grid::new(2, 3));
        assert_eq!(p.total_mines, None);
        assert_eq!(p.cells[2], Cell::Safe);
        assert_eq!(write_position(&p), "??*\n?1F\n");
    }

    #[test]
    fn syntax_errors() {
        let e = err("??\n?x\n");
        assert_eq!((e.line, e.column), (Some(2), Some(2)), "{e}");
        assert!(e.message.contains("unexpected `x`"), "{e}");

        let e = err("??\n ?1\n");
        assert_eq!((e.line, e.column), (Some(2), Some(1)), "{e}");

        let e = err("???\n??\n");
        assert_eq!((e.line, e.column), (Some(2), Some(3)), "{e}");
        assert!(e.message.contains("row 2 has 2 cells; expected 3"), "{e}");
        let e = err("??\n???\n");
        assert_eq!((e.line, e.column), (Some(2), Some(3)), "{e}");

        let e = err("# only a comment\n\n");
        assert_eq!(e.line, None);
        assert!(e.message.contains("no grid"), "{e}");

        let e = err("??\nmines 1\n");
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.message.contains("after the grid"), "{e}");
        let e = err("mines 1\nmines 1\n??\n");
        assert_eq!(e.line, Some(2), "{e}");
        let e = err("mines x\n??\n");
        assert_eq!((e.line, e.column), (Some(1), Some(7)), "{e}");
        let e = err("mines\n??\n");
        assert_eq!(e.line, Some(1), "{e}");
        let e = err("mines1\n??\n");
        assert_eq!(e.line, Some(1), "{e}");
        let e = err("mines 99999999999\n??\n");
        assert_eq!(e.line, Some(1), "{e}");
    }

    #[test]
    fn local_checks_name_the_cell() {
        // A corner has three neighbours.
        let e = err("4?\n??\n");
        assert_eq!((e.line, e.column), (Some(1), Some(1)), "{e}");
        assert!(
            e.message.contains("shows 4 but has only 3 neighbours"),
            "{e}"
        );

        // Two flags around a 1.
        let e = err("# c\nF1F\n???\n");
        assert_eq!((e.line, e.column), (Some(2), Some(2)), "{e}");
        assert!(
            e.message.contains("shows 1 but has 2 flagged neighbours"),
            "{e}"
        );

        // A 3 with one flag and one closed neighbour.
        let e = err("F3.\n?..\n");
        assert_eq!((e.line, e.column), (Some(1), Some(2)), "{e}");
        assert!(
            e.message
                .contains("shows 3 but only its 1 flagged and 1 closed neighbours"),
            "{e}"
        );

        let e = err("mines 1\nF1F\n???\n");
        assert_eq!((e.line, e.column), (Some(1), Some(7)), "{e}");
        assert!(e.message.contains("2 flags; expected at least 2"), "{e}");
        let e = err("mines  6\nF1?\n???\n");
        assert_eq!((e.line, e.column), (Some(1), Some(8)), "{e}");
        assert!(e.message.contains("expected at most 5"), "{e}");
        assert!(parse("mines 5\nF1?\n???\n").is_ok());
    }

    #[test]
    fn large_numbers_are_written_so_that_reading_fails() {
        let p = Position {
            grid: Grid::new(1, 1),
            cells: vec![Cell::Revealed(9)],
            total_mines: None,
        };
        assert_eq!(write_position(&p), "X\n");
        assert!(parse(&write_position(&p)).is_err());
    }
}
