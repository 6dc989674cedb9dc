//! Recorded games and board metrics from Python: `read_replay`, `review`
//! and `metrics`.
//!
//! A replay is given as a path (`str` or `os.PathLike`), as the file's
//! bytes (`bytes`, `bytearray`, `memoryview`; `name` names them in errors
//! and its extension tells `.evf`, `.avf` and old `.mvf` files apart, whose
//! content does not), or as the dict `read_replay` returns. The engine reads
//! it ([`sapper_engine::formats::replay`]); a file that is not a replay is a
//! `sapper.InputError` with the engine's message (the file and the byte
//! offset at fault), a file that cannot be opened an `OSError`
//! (`FileNotFoundError`, `PermissionError`, `IsADirectoryError`) naming it.
//!
//! Answers are the engine's serialisable types, converted once with
//! `pythonize`: the replay is its [`ReplayReport`], the review its
//! [`Review`](sapper_engine::review::Review) (with [`Filed`] for a path),
//! exactly what `sapper review --json` prints, the metrics its
//! [`Metrics`].

use crate::errors::{engine_error, engine_error_in, input_error};
use crate::input::{check_board_shape, read_board, type_name, BoardInput, MAX_CELLS};
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyMemoryView, PyString};
use sapper_engine::formats::replay::{layout_cell, parse_replay, Replay, LAYOUT_CELLS};
use sapper_engine::metrics::Metrics;
use sapper_engine::report::Filed;
use sapper_engine::review::ReplayReport;
use sapper_engine::{Field, Grid};
use std::path::{Path, PathBuf};

/// The name of replay bytes given without one.
const BYTES_NAME: &str = "<bytes>";

/// A replay as the caller gave it.
enum Given {
    /// A file to read.
    Path(PathBuf),
    /// A file's bytes, and the name they go by.
    Bytes(Vec<u8>, PathBuf),
    /// A replay already read (the dict `read_replay` returns).
    Replay(Box<Replay>),
}

/// Reads the `source` argument (and `name`, for bytes only).
fn given(source: &Bound<'_, PyAny>, name: Option<&str>) -> PyResult<Given> {
    let bytes = if let Ok(b) = source.cast::<PyBytes>() {
        Some(b.as_bytes().to_vec())
    } else if let Ok(b) = source.cast::<PyByteArray>() {
        Some(b.to_vec())
    } else if source.is_instance_of::<PyMemoryView>() {
        Some(
            source
                .call_method0("tobytes")?
                .cast::<PyBytes>()?
                .as_bytes()
                .to_vec(),
        )
    } else {
        None
    };
    if let Some(bytes) = bytes {
        return Ok(Given::Bytes(
            bytes,
            PathBuf::from(name.unwrap_or(BYTES_NAME)),
        ));
    }
    if name.is_some() {
        return Err(PyTypeError::new_err(
            "name= is for a replay given as bytes: a path names itself",
        ));
    }
    if let Ok(dict) = source.cast::<PyDict>() {
        // The engine checks the dict and names the key at fault.
        let replay = Replay::from_data(&mut pythonize::Depythonizer::from_object(dict.as_any()))
            .map_err(engine_error)?;
        return Ok(Given::Replay(Box::new(replay)));
    }
    let is_path = source.is_instance_of::<PyString>() || source.hasattr("__fspath__")?;
    if is_path {
        return Ok(Given::Path(source.extract::<PathBuf>()?));
    }
    Err(PyTypeError::new_err(format!(
        "expected a replay: a path, the file's bytes, or a dict from read_replay; got {}",
        type_name(source)
    )))
}

/// An `OSError` for `path` (Python picks the subclass by the error number:
/// `FileNotFoundError`, `PermissionError`, ...).
fn os_error(path: &Path, e: &std::io::Error) -> PyErr {
    let text = e.to_string();
    let text = match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    };
    let errno = e.raw_os_error().unwrap_or(0);
    PyOSError::new_err((errno, text, path.display().to_string()))
}

/// The replay `given` names: read and parsed without the GIL. A path that
/// cannot be opened is an `OSError`; a folder an `IsADirectoryError`;
/// anything the engine's reader refuses a `sapper.InputError`.
fn load(py: Python<'_>, given: Given) -> PyResult<Replay> {
    match given {
        Given::Replay(r) => Ok(*r),
        Given::Bytes(bytes, name) => py
            .detach(|| parse_replay(&bytes, &name))
            .map_err(engine_error),
        Given::Path(path) => {
            let opened = py.detach(|| -> Result<Result<Replay, _>, std::io::Error> {
                let file = std::fs::File::open(&path)?;
                if file.metadata()?.is_dir() {
                    return Err(std::io::Error::from_raw_os_error(EISDIR));
                }
                drop(file);
                Ok(sapper_engine::formats::replay::read_replay(&path))
            });
            match opened {
                Err(e) => Err(os_error(&path, &e)),
                Ok(read) => read.map_err(engine_error),
            }
        }
    }
}

/// The error number of "is a directory" (21 on Linux and macOS), which
/// Python's `OSError` turns into `IsADirectoryError`.
const EISDIR: i32 = 21;

/// What a recorded game holds, as a dict: `{"format", "version", "rows",
/// "cols", "mines", "board", "cell_px", "header", "events", "outcome",
/// "time"}`. `board` is a row of text per board row, `*` a mine and `.` a
/// safe cell; `events` are `{"time_ms", "kind", "x", "y", "cell"}` in file
/// order (`kind` ms_toollib's short name, `cell` `[row, col]` or `None` off
/// the board); `outcome` and `time` (seconds on the game's timer) are those
/// of the game the events play.
#[pyfunction]
#[pyo3(signature = (source, name=None))]
pub fn read_replay<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    name: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let replay = load(py, given(source, name)?)?;
    let report = py.detach(|| ReplayReport::new(&replay));
    Ok(pythonize::pythonize(py, &report)?)
}

/// The object `sapper review --json` prints for the game: its metrics,
/// clicks, and every move judged. With a path, `"file"` (the path as
/// given) comes first, as in the CLI's line.
#[pyfunction]
#[pyo3(signature = (source, name=None))]
pub fn review<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    name: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let given = given(source, name)?;
    let file = match &given {
        Given::Path(p) => Some(p.display().to_string()),
        _ => None,
    };
    let shown = match &given {
        Given::Path(p) | Given::Bytes(_, p) => p.display().to_string(),
        Given::Replay(_) => "replay".to_string(),
    };
    let replay = load(py, given)?;
    let engine = crate::engine()?;
    let review = py
        .detach(|| engine.review(&replay))
        .map_err(|e| engine_error_in(&shown, e))?;
    Ok(match &file {
        Some(file) => pythonize::pythonize(py, &Filed::new(file, &review))?,
        None => pythonize::pythonize(py, &review)?,
    })
}

/// The metrics `sapper metrics --json` prints for a layout: `{"bbbv",
/// "openings", "islands", "zini", "numbers"}`.
#[pyfunction]
pub fn metrics<'py>(py: Python<'py>, layout: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let (grid, mines) = read_mines(layout)?;
    let m = py.detach(|| Metrics::of(&Field::from_mines(grid, mines, vec![false; grid.len()])));
    Ok(pythonize::pythonize(py, &m)?)
}

/// The mines of a layout: rows of text (`*` a mine, `.` safe), a 2-D bool
/// array or list (True a mine), or integer codes (-1 a mine, 0-8 the
/// numbers, which must match the mines).
fn read_mines(layout: &Bound<'_, PyAny>) -> PyResult<(Grid, Vec<bool>)> {
    if let Ok(array) = layout.cast::<numpy::PyUntypedArray>() {
        use numpy::{PyArrayDescrMethods, PyUntypedArrayMethods};
        if array.dtype().kind() == b'b' {
            let held: numpy::PyReadonlyArrayDyn<'_, bool> = array.extract()?;
            let view = held.as_array();
            check_board_shape(view.shape())?;
            let grid = Grid::new(view.shape()[0], view.shape()[1]);
            return Ok((grid, view.iter().copied().collect()));
        }
    } else if let Some(mines) = bool_rows(layout)? {
        return Ok(mines);
    }
    match read_board(layout)? {
        BoardInput::Codes(c) => {
            let field = Field::from_codes(c.rows, c.cols, &c.codes).map_err(engine_error)?;
            Ok((field.grid, field.mine))
        }
        BoardInput::Text(text) => mines_of_text(&text).map_err(input_error),
    }
}

/// A 2-D list of Python bools, if `layout` is one (its first cell a bool).
fn bool_rows(layout: &Bound<'_, PyAny>) -> PyResult<Option<(Grid, Vec<bool>)>> {
    let first_is_bool = layout
        .get_item(0)
        .and_then(|row| row.get_item(0))
        .is_ok_and(|cell| cell.is_instance_of::<PyBool>());
    if !first_is_bool || layout.is_instance_of::<PyString>() {
        return Ok(None);
    }
    let mut mines = Vec::new();
    let mut cols = None;
    let mut rows = 0;
    for (r, row) in layout.try_iter()?.enumerate() {
        let row = row?;
        let start = mines.len();
        for (c, cell) in row.try_iter()?.enumerate() {
            let cell = cell?;
            let mine = cell.cast::<PyBool>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "row {r}, column {c}: expected a bool like the first cell, got {}",
                    type_name(&cell)
                ))
            })?;
            mines.push(mine.is_true());
            if mines.len() > MAX_CELLS {
                return Err(input_error(format!(
                    "a layout of more than {MAX_CELLS} cells"
                )));
            }
        }
        let len = mines.len() - start;
        match cols {
            None => cols = Some(len),
            Some(w) if w != len => {
                return Err(input_error(format!(
                    "ragged layout: row 0 has {w} cells but row {r} has {len}"
                )))
            }
            Some(_) => {}
        }
        rows = r + 1;
    }
    let cols = cols.unwrap_or(0);
    check_board_shape(&[rows, cols])?;
    Ok(Some((Grid::new(rows, cols), mines)))
}

/// The mines of rows of text, `*` a mine and `.` a safe cell (a last empty
/// line ignored).
fn mines_of_text(text: &str) -> Result<(Grid, Vec<bool>), String> {
    let lines: Vec<&str> = text
        .strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .collect();
    let mut mines = Vec::new();
    let mut cols = None;
    for (r, line) in lines.iter().enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut len = 0;
        for (c, ch) in line.chars().enumerate() {
            let Some(mine) = layout_cell(ch) else {
                return Err(format!("row {r}, column {c}: {ch:?} is not {LAYOUT_CELLS}"));
            };
            mines.push(mine);
            len += 1;
            if mines.len() > MAX_CELLS {
                return Err(format!("a layout of more than {MAX_CELLS} cells"));
            }
        }
        match cols {
            None => cols = Some(len),
            Some(w) if w != len => {
                return Err(format!(
                    "ragged layout: row 0 has {w} cells but row {r} has {len}"
                ))
            }
            Some(_) => {}
        }
    }
    let (rows, cols) = (lines.len(), cols.unwrap_or(0));
    if cols == 0 {
        return Err(format!(
            "an empty layout ({rows}×{cols} cells): it needs at least one row and one column"
        ));
    }
    Ok((Grid::new(rows, cols), mines))
}
