//! Reading boards from Python: 2-D lists or numpy arrays of integer cell
//! codes, or position text (a list of row strings, or one string).
//!
//! Every malformed input is a Python exception, never a panic: a value of
//! the wrong type is a `TypeError`; a ragged, empty or oversized grid, or an
//! unknown code, is a `ValueError` naming the row and column.

use numpy::{PyArrayDescrMethods, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PyList, PySet, PyString};
use sapper_engine::{Error, Position};

/// The most cells of a board, the engine's limit on every surface
/// (checked here too, so that an oversized input is refused before it is
/// copied whole).
pub use sapper_engine::grid::MAX_CELLS;

/// A grid of integer codes, row after row.
pub struct Codes {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// `rows * cols` codes, row-major.
    pub codes: Vec<i32>,
}

/// A board as the caller gave it: integer codes, or position text.
pub enum BoardInput {
    /// Cell codes (ms_toollib's encoding; a layout's -1 for a mine).
    Codes(Codes),
    /// Position text: rows like `??1.`, an optional `mines N` line first.
    Text(String),
}

/// The `ValueError` of an engine error, with the engine's message.
pub fn value_error(e: impl Into<Error>) -> PyErr {
    PyValueError::new_err(e.into().to_string())
}

fn too_big(what: &str, n: usize) -> PyErr {
    PyValueError::new_err(format!(
        "a board with {n} {what} or more: at most {MAX_CELLS} cells"
    ))
}

/// One code as an `i32`, the cell named if it does not fit.
fn code(value: i64, row: usize, col: usize) -> PyResult<i32> {
    i32::try_from(value).map_err(|_| {
        PyValueError::new_err(format!(
            "row {row}, column {col}: unknown cell code {value}"
        ))
    })
}

/// Reads `board`: a numpy array, a string, or a sequence of rows (strings,
/// or sequences of ints).
pub fn read_board(board: &Bound<'_, PyAny>) -> PyResult<BoardInput> {
    if let Ok(text) = board.cast::<PyString>() {
        return Ok(BoardInput::Text(text.to_cow()?.into_owned()));
    }
    if let Ok(array) = board.cast::<PyUntypedArray>() {
        return read_array(array).map(BoardInput::Codes);
    }
    let rows = not_a_mapping(board)
        .and_then(|b| b.try_iter())
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a board: a 2-D list or numpy array of ints, or a list of row strings; \
             got {}",
                type_name(board)
            ))
        })?;
    let (mut codes, mut text, mut cols) = (Vec::new(), None::<String>, None::<usize>);
    let mut count = 0;
    for (r, row) in rows.enumerate() {
        let row = row?;
        if r >= MAX_CELLS || codes.len() > MAX_CELLS {
            return Err(too_big("cells", MAX_CELLS + 1));
        }
        count = r + 1;
        if let Ok(line) = row.cast::<PyString>() {
            if r > 0 && text.is_none() {
                return Err(PyTypeError::new_err(format!(
                    "row {r} is a string but the rows before it are not"
                )));
            }
            let t = text.get_or_insert_with(String::new);
            t.push_str(&line.to_cow()?);
            t.push('\n');
            continue;
        }
        if text.is_some() {
            return Err(PyTypeError::new_err(format!(
                "row {r} is a {}, not a string like the rows before it",
                type_name(&row)
            )));
        }
        let start = codes.len();
        // A list of ints, the common case, without the iterator protocol.
        if let Ok(list) = row.cast::<PyList>() {
            if list.len() > MAX_CELLS {
                return Err(too_big("columns", MAX_CELLS + 1));
            }
            for (c, item) in list.iter().enumerate() {
                let value: i64 = item.extract().map_err(|_| {
                    PyTypeError::new_err(format!("row {r}, column {c}: expected an int cell code"))
                })?;
                codes.push(code(value, r, c)?);
            }
        } else {
            read_row(&row, r, &mut codes)?;
        }
        let len = codes.len() - start;
        match cols {
            None => cols = Some(len),
            Some(w) if w != len => {
                return Err(PyValueError::new_err(format!(
                    "ragged board: row 0 has {w} cells but row {r} has {len}"
                )))
            }
            Some(_) => {}
        }
    }
    if let Some(t) = text {
        return Ok(BoardInput::Text(t));
    }
    let cols = cols.unwrap_or(0);
    if count == 0 || cols == 0 {
        return Err(PyValueError::new_err(format!(
            "an empty board ({count}×{cols} cells): it needs at least one row and one column"
        )));
    }
    Ok(BoardInput::Codes(Codes {
        rows: count,
        cols,
        codes,
    }))
}

/// Appends the cell codes of row `r`, any iterable of ints, to `codes`.
fn read_row(row: &Bound<'_, PyAny>, r: usize, codes: &mut Vec<i32>) -> PyResult<()> {
    let items = not_a_mapping(row)
        .and_then(|row| row.try_iter())
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "row {r} is a {}, expected a list of ints",
                type_name(row)
            ))
        })?;
    for (c, item) in items.enumerate() {
        if c >= MAX_CELLS {
            return Err(too_big("columns", MAX_CELLS + 1));
        }
        let value: i64 = item?.extract().map_err(|_| {
            PyTypeError::new_err(format!("row {r}, column {c}: expected an int cell code"))
        })?;
        codes.push(code(value, r, c)?);
    }
    Ok(())
}

/// `value`, unless it is a dict or a set (iterable, but not rows or cells).
fn not_a_mapping<'a, 'py>(value: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, PyAny>> {
    if value.is_instance_of::<PyDict>()
        || value.is_instance_of::<PySet>()
        || value.is_instance_of::<PyFrozenSet>()
    {
        return Err(PyTypeError::new_err("a dict or set"));
    }
    Ok(value)
}

/// A 2-D numpy array of integers (any integer dtype).
fn read_array(array: &Bound<'_, PyUntypedArray>) -> PyResult<Codes> {
    if array.ndim() != 2 {
        return Err(PyValueError::new_err(format!(
            "expected a 2-D board, got an array of {} dimensions",
            array.ndim()
        )));
    }
    let (rows, cols) = (array.shape()[0], array.shape()[1]);
    if rows == 0 || cols == 0 {
        return Err(PyValueError::new_err(format!(
            "an empty board ({rows}×{cols} cells): it needs at least one row and one column"
        )));
    }
    if rows.saturating_mul(cols) > MAX_CELLS {
        return Err(PyValueError::new_err(format!(
            "a board of {rows}×{cols} cells: at most {MAX_CELLS} cells"
        )));
    }
    let kind = array.dtype().kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "expected an array of integer cell codes, got dtype {}",
            array.dtype()
        )));
    }
    let mut codes = Vec::with_capacity(rows * cols);
    // int64 (numpy's default) is read in place; other widths are widened
    // first.
    let values: PyReadonlyArrayDyn<'_, i64> = match array.extract() {
        Ok(values) => values,
        Err(_) => array.call_method1("astype", ("int64",))?.extract()?,
    };
    for (i, &v) in values.as_array().iter().enumerate() {
        codes.push(code(v, i / cols, i % cols)?);
    }
    Ok(Codes { rows, cols, codes })
}

/// The name of `value`'s type, for messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into())
}

/// A total mine count from Python: `None`, or a whole number from 0 to
/// 2^32 − 1.
pub fn mines_arg(mines: Option<i64>) -> PyResult<Option<u32>> {
    mines
        .map(|m| {
            u32::try_from(m).map_err(|_| {
                PyValueError::new_err(format!("mines = {m}: expected a whole number >= 0"))
            })
        })
        .transpose()
}

/// A density from Python: `None`, or strictly between 0 and 1.
pub fn density_arg(density: Option<f64>) -> PyResult<Option<f64>> {
    match density {
        Some(d) if !(d > 0.0 && d < 1.0) => Err(PyValueError::new_err(format!(
            "density = {d}: expected a number strictly between 0 and 1"
        ))),
        d => Ok(d),
    }
}

/// The position of `board`, its total replaced by `mines` when given.
pub fn position(board: BoardInput, mines: Option<u32>) -> PyResult<Position> {
    match board {
        BoardInput::Codes(c) => {
            Position::from_codes(c.rows, c.cols, &c.codes, mines).map_err(value_error)
        }
        BoardInput::Text(text) => {
            let p: Position = text.parse().map_err(value_error)?;
            if p.grid.h.saturating_mul(p.grid.w) > MAX_CELLS {
                return Err(PyValueError::new_err(format!(
                    "a board of {}×{} cells: at most {MAX_CELLS} cells",
                    p.grid.h, p.grid.w
                )));
            }
            let total = mines.or(p.total_mines);
            // Through the codes again: the total is checked against the
            // flags and the closed cells.
            Position::from_codes(p.grid.h, p.grid.w, &p.to_codes(), total).map_err(value_error)
        }
    }
}

/// Reads a layout: integer codes, -1 a mine, 0-8 the numbers.
pub fn read_layout(layout: &Bound<'_, PyAny>) -> PyResult<Codes> {
    match read_board(layout)? {
        BoardInput::Codes(c) => Ok(c),
        BoardInput::Text(_) => Err(PyTypeError::new_err(
            "expected a layout: a 2-D list or numpy array of ints (-1 a mine, 0-8 the numbers)",
        )),
    }
}
