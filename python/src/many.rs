//! `probabilities_many`: many boards on every core.
//!
//! The GIL is held only to take the boards from Python: a list board's
//! ints are read once into codes, a text board is copied as text, and a
//! numpy array is only *held* (its buffer is read in place later, in its
//! own dtype). Everything else — reading the held arrays, turning codes
//! and text into positions, counting — runs in the package's pool without
//! the GIL, one counter per thread, and stops on Ctrl-C between boards and
//! within a board's count.

use crate::errors::{engine_error, input_error};
use crate::input::{
    board_of, check_board_shape, density_arg, mines_arg, read_board, type_name, BoardInput, Int,
    IntArray, IntView,
};
use crate::pool::interruptible;
use crate::{engine, grid_array, per_cell, switched};
use numpy::{PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};
use rayon::prelude::*;
use sapper_engine::{Error, Grid};

/// A board as taken from Python, before it is read.
enum Taken {
    /// Read already: codes or text.
    Read(BoardInput),
    /// Held array `held`, board `item` of it when it is a stack of boards.
    Array { held: usize, item: Option<usize> },
}

/// A board ready to be read without the GIL.
enum Ready<'a> {
    Read(BoardInput),
    View(IntView<'a>),
}

/// `probabilities` of many boards on every core: a list of arrays in the
/// order given. `boards` is a list (any iterable) of boards, or a 3-D
/// integer array (a stack of boards); `mines` one total for every board,
/// or a list of one per board (`None` where a board gives its own). A line
/// of text or a list of ints where a board is expected (one board's rows)
/// is refused. Numpy arrays are read in place, without the GIL: do not
/// modify them from another thread meanwhile. Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (boards, mines=None, density=None))]
pub fn probabilities_many<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    mines: Option<&Bound<'py, PyAny>>,
    density: Option<f64>,
) -> PyResult<Bound<'py, PyList>> {
    let density = density_arg(density)?;
    let mut held: Vec<IntArray<'py>> = Vec::new();
    let mut taken: Vec<Taken> = Vec::new();
    if let Ok(array) = boards.cast::<PyUntypedArray>() {
        if array.ndim() != 3 {
            return Err(input_error(format!(
                "boards is an array of {} dimensions: expected a list of boards or a 3-D array \
                 (a stack of boards); for one board, call probabilities(board)",
                array.ndim()
            )));
        }
        let stack = IntArray::new(array)?;
        let shape = stack.view().shape().to_vec();
        check_board_shape(&shape[1..])?;
        held.push(stack);
        taken.extend((0..shape[0]).map(|k| Taken::Array {
            held: 0,
            item: Some(k),
        }));
    } else {
        if boards.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "boards is a str: expected a list of boards (for one board, call \
                 probabilities(board))",
            ));
        }
        let items = boards.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a list of boards, got {}",
                type_name(boards)
            ))
        })?;
        for (k, board) in items.enumerate() {
            let board = board?;
            taken.push(take(&board, &mut held).map_err(|e| prefixed(py, e, k))?);
            // Reading a large list board takes a while: Ctrl-C is honoured
            // between boards here too.
            py.check_signals()?;
        }
    }
    let totals = totals(mines, taken.len())?;
    let views: Vec<IntView<'_>> = held.iter().map(IntArray::view).collect();
    let ready: Vec<Ready<'_>> = taken
        .into_iter()
        .map(|t| match t {
            Taken::Read(b) => Ready::Read(b),
            Taken::Array { held, item: None } => Ready::View(views[held].clone()),
            Taken::Array {
                held,
                item: Some(k),
            } => Ready::View(views[held].item(k)),
        })
        .collect();
    let engine = engine()?;
    let results: Vec<Result<(Grid, Vec<f64>), Error>> = interruptible(py, |cancel| {
        let engine = switched(engine, cancel);
        ready
            .into_par_iter()
            .zip(totals)
            .map_init(
                || engine.counter(),
                |counter, (board, total)| {
                    if cancel.is_cancelled() {
                        return Err(Error::Internal("stopped".into()));
                    }
                    let board = match board {
                        Ready::Read(b) => b,
                        Ready::View(v) => BoardInput::Codes(v.codes()?),
                    };
                    let board = board_of(board, total)?;
                    let values = per_cell(counter, &board, density)?;
                    Ok((board.grid(), values))
                },
            )
            .collect()
    })?;
    drop(views);
    drop(held);
    let list = PyList::empty(py);
    for (k, r) in results.into_iter().enumerate() {
        let (grid, values) = r.map_err(|e| prefixed(py, engine_error(e), k))?;
        list.append(grid_array(py, grid, values))?;
    }
    Ok(list)
}

/// Takes board `board` from Python: a numpy array is held (pushed on
/// `held`), anything else read. A line of text or a list of ints, where a
/// board is expected, is refused: they are a board's rows, not boards.
fn take<'py>(board: &Bound<'py, PyAny>, held: &mut Vec<IntArray<'py>>) -> PyResult<Taken> {
    if let Ok(array) = board.cast::<PyUntypedArray>() {
        let array = IntArray::new(array)?;
        check_board_shape(array.view().shape())?;
        held.push(array);
        return Ok(Taken::Array {
            held: held.len() - 1,
            item: None,
        });
    }
    if let Ok(text) = board.cast::<PyString>() {
        let text = text.to_cow()?;
        if !text.contains('\n') {
            return Err(input_error(format!(
                "{text:?} is one line of text, a board's row, where a board is expected: give \
                 each board as a list of rows (probabilities_many([[\"??1\", \"?21\"], ...])) \
                 or as one text with its rows on separate lines"
            )));
        }
        return Ok(Taken::Read(BoardInput::Text(text.into_owned())));
    }
    let first = if let Ok(list) = board.cast::<PyList>() {
        list.iter().next()
    } else if let Ok(tuple) = board.cast::<PyTuple>() {
        tuple.iter().next()
    } else {
        None
    };
    if first.is_some_and(|f| f.is_instance_of::<PyInt>()) {
        return Err(input_error(
            "a list of ints, a board's row, where a board is expected: give a list of boards \
             (for one board, call probabilities(board))",
        ));
    }
    read_board(board).map(Taken::Read)
}

/// The total of each of `n` boards: `mines` is `None`, one whole number
/// for all, or a sequence of `n` (each `None` or a whole number).
fn totals(mines: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<Vec<Option<u32>>> {
    let Some(mines) = mines.filter(|m| !m.is_none()) else {
        return Ok(vec![None; n]);
    };
    if let Ok(one) = mines.extract::<Int>() {
        return Ok(vec![mines_arg(Some(&one))?; n]);
    }
    if mines.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "mines is a str: expected a whole number, or one per board",
        ));
    }
    let each: Vec<Option<Int>> = mines.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "mines is a {}: expected a whole number, or a list of one per board (None where \
             the board gives its own)",
            type_name(mines)
        ))
    })?;
    if each.len() != n {
        return Err(input_error(format!(
            "mines has {} totals for {n} boards: expected one per board",
            each.len()
        )));
    }
    let py = mines.py();
    each.iter()
        .enumerate()
        .map(|(k, m)| {
            mines_arg(m.as_ref()).map_err(|e| input_error(format!("mines[{k}]: {}", e.value(py))))
        })
        .collect()
}

/// `e` with "board k: " before its message, of the same exception type.
fn prefixed(py: Python<'_>, e: PyErr, k: usize) -> PyErr {
    let message = format!("board {k}: {}", e.value(py));
    PyErr::from_type(e.get_type(py), message)
}
