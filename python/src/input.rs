//! Reading boards from Python: 2-D lists or numpy arrays of integer cell
//! codes, or position text (a list of row strings, or one string).
//!
//! Every malformed input is a Python exception, never a panic: a value of
//! the wrong type is a `TypeError`; a ragged, empty or oversized grid, or an
//! unknown code, is a `sapper.InputError` (a `ValueError`) naming the row
//! and column. Also here: the arguments several calls share (whole numbers
//! of any size, seeds, first clicks, densities).

use crate::errors::{engine_error, input_error};
use numpy::ndarray::{ArrayViewD, Axis};
use numpy::{PyArrayDescrMethods, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PyList, PySet, PyString};
use sapper_engine::{Board, Error as EngineError, FirstClick, InputError, Level, Position};

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

fn too_big(what: &str, n: usize) -> PyErr {
    input_error(format!(
        "a board with {n} {what} or more: at most {MAX_CELLS} cells"
    ))
}

/// One code as an `i32`, the cell named if it does not fit.
fn code(value: i64, row: usize, col: usize) -> PyResult<i32> {
    i32::try_from(value).map_err(|_| {
        input_error(format!(
            "row {row}, column {col}: unknown cell code {value}"
        ))
    })
}

/// One list item as a cell code: an int (beyond 64 bits: an unknown code),
/// else a `TypeError`.
#[inline]
fn cell_code(item: &Bound<'_, PyAny>, r: usize, c: usize) -> PyResult<i32> {
    match item.extract::<i64>() {
        Ok(v) => code(v, r, c),
        Err(e) if e.is_instance_of::<PyOverflowError>(item.py()) => Err(input_error(format!(
            "row {r}, column {c}: unknown cell code {}",
            item.repr()?
        ))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "row {r}, column {c}: expected an int cell code, got {}",
            type_name(item)
        ))),
    }
}

/// Reads `board`: a numpy array, a string, or a sequence of rows (strings,
/// or sequences of ints).
pub fn read_board(board: &Bound<'_, PyAny>) -> PyResult<BoardInput> {
    if let Ok(text) = board.cast::<PyString>() {
        return Ok(BoardInput::Text(text.to_cow()?.into_owned()));
    }
    if let Ok(array) = board.cast::<PyUntypedArray>() {
        let held = IntArray::new(array)?;
        let view = held.view();
        check_board_shape(view.shape())?;
        return view.codes().map(BoardInput::Codes).map_err(engine_error);
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
            read_list_row(list, r, &mut codes)?;
        } else {
            read_row(&row, r, &mut codes)?;
        }
        let len = codes.len() - start;
        match cols {
            None => cols = Some(len),
            Some(w) if w != len => {
                return Err(input_error(format!(
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
        return Err(input_error(format!(
            "an empty board ({count}×{cols} cells): it needs at least one row and one column"
        )));
    }
    Ok(BoardInput::Codes(Codes {
        rows: count,
        cols,
        codes,
    }))
}

/// Appends the cell codes of row `r`, a list, to `codes`: an exact `int`
/// is read in place (no reference taken, no Python code run), anything
/// else through [`cell_code`].
fn read_list_row(list: &Bound<'_, PyList>, r: usize, codes: &mut Vec<i32>) -> PyResult<()> {
    let py = list.py();
    let mut len = list.len();
    codes.reserve(len);
    let mut c = 0;
    while c < len {
        // SAFETY: the GIL is held and `c` is within the list, whose
        // reference `list` keeps alive; `PyList_GetItem` checks the index
        // again. The borrowed item is used only until the next Python code
        // can run: `PyLong_CheckExact` and `PyLong_AsLong` on an exact int
        // run none, so the length read before stays true on this path.
        let fast = unsafe {
            let item = ffi::PyList_GetItem(list.as_ptr(), c as ffi::Py_ssize_t);
            if item.is_null() {
                return Err(PyErr::fetch(py));
            }
            if ffi::PyLong_CheckExact(item) != 0 {
                let v = ffi::PyLong_AsLong(item);
                if v == -1 && !ffi::PyErr_Occurred().is_null() {
                    ffi::PyErr_Clear(); // beyond 64 bits: named below
                    None
                } else {
                    Some(v)
                }
            } else {
                None
            }
        };
        match fast {
            // `c_long`: 64 bits on the platforms the wheel is built for.
            #[allow(clippy::useless_conversion)]
            Some(v) => codes.push(code(i64::from(v), r, c)?),
            None => {
                codes.push(cell_code(&list.get_item(c)?, r, c)?);
                // The slow path may have run Python code (an `__index__`)
                // that changed the list.
                len = list.len();
            }
        }
        c += 1;
    }
    Ok(())
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
        codes.push(cell_code(&item?, r, c)?);
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

/// The shape of a 2-D board array, checked: not empty, at most
/// [`MAX_CELLS`] cells.
pub fn check_board_shape(shape: &[usize]) -> PyResult<()> {
    let &[rows, cols] = shape else {
        return Err(input_error(format!(
            "expected a 2-D board, got an array of {} dimensions",
            shape.len()
        )));
    };
    if rows == 0 || cols == 0 {
        return Err(input_error(format!(
            "an empty board ({rows}×{cols} cells): it needs at least one row and one column"
        )));
    }
    if rows.saturating_mul(cols) > MAX_CELLS {
        return Err(input_error(format!(
            "a board of {rows}×{cols} cells: at most {MAX_CELLS} cells"
        )));
    }
    Ok(())
}

/// Runs `$body` with `$v` bound to the typed view inside an [`IntView`].
macro_rules! each_view {
    ($view:expr, $v:ident => $body:expr) => {
        match $view {
            IntView::I8($v) => $body,
            IntView::I16($v) => $body,
            IntView::I32($v) => $body,
            IntView::I64($v) => $body,
            IntView::U8($v) => $body,
            IntView::U16($v) => $body,
            IntView::U32($v) => $body,
            IntView::U64($v) => $body,
        }
    };
}

/// A numpy array of integers held for reading in place, in its own dtype
/// (no copy), for as long as this lives.
pub enum IntArray<'py> {
    I8(PyReadonlyArrayDyn<'py, i8>),
    I16(PyReadonlyArrayDyn<'py, i16>),
    I32(PyReadonlyArrayDyn<'py, i32>),
    I64(PyReadonlyArrayDyn<'py, i64>),
    U8(PyReadonlyArrayDyn<'py, u8>),
    U16(PyReadonlyArrayDyn<'py, u16>),
    U32(PyReadonlyArrayDyn<'py, u32>),
    U64(PyReadonlyArrayDyn<'py, u64>),
}

/// The values of an [`IntArray`]: a view that may be read without the GIL
/// (from any thread) while the array is held.
#[derive(Clone)]
pub enum IntView<'a> {
    I8(ArrayViewD<'a, i8>),
    I16(ArrayViewD<'a, i16>),
    I32(ArrayViewD<'a, i32>),
    I64(ArrayViewD<'a, i64>),
    U8(ArrayViewD<'a, u8>),
    U16(ArrayViewD<'a, u16>),
    U32(ArrayViewD<'a, u32>),
    U64(ArrayViewD<'a, u64>),
}

impl<'py> IntArray<'py> {
    /// `array` held for reading: any integer dtype is read in place; an
    /// array numpy cannot lend as a native integer type (another byte
    /// order) is copied to int64 first. Any other dtype is a `TypeError`.
    pub fn new(array: &Bound<'py, PyUntypedArray>) -> PyResult<IntArray<'py>> {
        let kind = array.dtype().kind();
        if kind != b'i' && kind != b'u' {
            return Err(PyTypeError::new_err(format!(
                "expected an array of integer cell codes, got dtype {}",
                array.dtype()
            )));
        }
        macro_rules! lend {
            ($($variant:ident: $t:ty),*) => {
                $(if let Ok(a) = array.extract::<PyReadonlyArrayDyn<'py, $t>>() {
                    return Ok(IntArray::$variant(a));
                })*
            };
        }
        lend!(I64: i64, I32: i32, I16: i16, I8: i8, U8: u8, U16: u16, U32: u32, U64: u64);
        Ok(IntArray::I64(
            array.call_method1("astype", ("int64",))?.extract()?,
        ))
    }

    /// The values.
    pub fn view(&self) -> IntView<'_> {
        match self {
            IntArray::I8(a) => IntView::I8(a.as_array()),
            IntArray::I16(a) => IntView::I16(a.as_array()),
            IntArray::I32(a) => IntView::I32(a.as_array()),
            IntArray::I64(a) => IntView::I64(a.as_array()),
            IntArray::U8(a) => IntView::U8(a.as_array()),
            IntArray::U16(a) => IntView::U16(a.as_array()),
            IntArray::U32(a) => IntView::U32(a.as_array()),
            IntArray::U64(a) => IntView::U64(a.as_array()),
        }
    }
}

impl<'a> IntView<'a> {
    /// The array's shape.
    pub fn shape(&self) -> &[usize] {
        each_view!(self, v => v.shape())
    }

    /// The `k`-th sub-array along the first axis (board `k` of a stack).
    pub fn item(&self, k: usize) -> IntView<'a> {
        each_view!(self.clone(), v => v.index_axis_move(Axis(0), k).into())
    }

    /// The codes of a 2-D view (its shape checked by [`check_board_shape`]),
    /// row after row; a value outside `i32` names its cell.
    pub fn codes(&self) -> Result<Codes, InputError> {
        each_view!(self, v => codes_of(v))
    }
}

/// The codes of a 2-D view of any integer type (see [`IntView::codes`]).
fn codes_of<T: Copy + TryInto<i32> + std::fmt::Display>(
    view: &ArrayViewD<'_, T>,
) -> Result<Codes, InputError> {
    let (rows, cols) = (view.shape()[0], view.shape()[1]);
    let mut codes = Vec::with_capacity(rows * cols);
    for (i, &x) in view.iter().enumerate() {
        let code = x.try_into().map_err(|_| {
            InputError::at(i / cols, i % cols, format_args!("unknown cell code {x}"))
        })?;
        codes.push(code);
    }
    Ok(Codes { rows, cols, codes })
}

macro_rules! view_from {
    ($($variant:ident: $t:ty),*) => {
        $(impl<'a> From<ArrayViewD<'a, $t>> for IntView<'a> {
            fn from(v: ArrayViewD<'a, $t>) -> IntView<'a> {
                IntView::$variant(v)
            }
        })*
    };
}
view_from!(I8: i8, I16: i16, I32: i32, I64: i64, U8: u8, U16: u16, U32: u32, U64: u64);

/// The name of `value`'s type, for messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into())
}

/// An integer argument of any size (a Python or numpy int): a value
/// beyond 128 bits is kept as its text, so that a range check can name it
/// (a `sapper.InputError`, not Python's `OverflowError`).
#[derive(Clone, Debug)]
pub struct Int(Result<i128, String>);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        match obj.extract::<i128>() {
            Ok(v) => Ok(Int(Ok(v))),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                Ok(Int(Err(obj.repr()?.to_string())))
            }
            Err(e) => Err(e),
        }
    }
}

impl Int {
    /// The value if it lies in `lo..=hi`, else an `InputError` naming the
    /// argument and the range.
    pub fn within<T: TryFrom<i128> + Into<i128> + Copy>(
        &self,
        name: &str,
        lo: T,
        hi: T,
    ) -> PyResult<T> {
        let (lo_, hi_) = (lo.into(), hi.into());
        match &self.0 {
            Ok(v) if (lo_..=hi_).contains(v) => {
                T::try_from(*v).map_err(|_| input_error(format!("{name} = {v}: out of range")))
            }
            Ok(v) => Err(input_error(format!(
                "{name} = {v}: expected a whole number from {lo_} to {hi_}"
            ))),
            Err(text) => Err(input_error(format!(
                "{name} = {text}: expected a whole number from {lo_} to {hi_}"
            ))),
        }
    }
}

/// `v`: a Python int argument already within range.
impl From<i64> for Int {
    fn from(v: i64) -> Int {
        Int(Ok(v.into()))
    }
}

/// A total mine count: `None`, or a whole number from 0 to 2^32 − 1.
pub fn mines_arg(mines: Option<&Int>) -> PyResult<Option<u32>> {
    mines.map(|m| m.within("mines", 0, u32::MAX)).transpose()
}

/// A seed: a whole number from 0 to 2^64 − 1, or `None` for a fresh one
/// from the operating system's entropy (`os.urandom`), numpy's convention.
pub fn seed_arg(py: Python<'_>, seed: Option<&Int>) -> PyResult<u64> {
    match seed {
        Some(s) => s.within("seed", 0, u64::MAX),
        None => {
            let bytes: Vec<u8> = py.import("os")?.call_method1("urandom", (8,))?.extract()?;
            let mut word = [0u8; 8];
            word.copy_from_slice(&bytes[..8]);
            Ok(u64::from_le_bytes(word))
        }
    }
}

/// `"opening"`, `"safe"` or a `(row, col)` opening (a tuple, list or
/// array of two ints) on `level`: the rule and the start.
pub fn first_click_arg(
    level: Level,
    value: &Bound<'_, PyAny>,
) -> PyResult<(FirstClick, (usize, usize))> {
    const EXPECTED: &str = "expected \"opening\", \"safe\" or a (row, col) pair";
    if let Ok(name) = value.cast::<PyString>() {
        let name = name.to_cow()?;
        return match &*name {
            "opening" => Ok((
                FirstClick::Opening,
                FirstClick::Opening.default_start(level),
            )),
            "safe" => Ok((FirstClick::Safe, (0, 0))),
            _ => Err(input_error(format!("first_click = {name:?}: {EXPECTED}"))),
        };
    }
    let pair: Vec<Bound<'_, PyAny>> =
        not_a_mapping(value)
            .and_then(|v| v.extract())
            .map_err(|_| {
                PyTypeError::new_err(format!("first_click is a {}: {EXPECTED}", type_name(value)))
            })?;
    let [r, c] = pair.as_slice() else {
        return Err(input_error(format!(
            "first_click has {} items: {EXPECTED}",
            pair.len()
        )));
    };
    let (r, c): (Int, Int) = (r.extract()?, c.extract()?);
    Ok((
        FirstClick::Opening,
        (
            r.within("row", 0, u32::MAX)? as usize,
            c.within("col", 0, u32::MAX)? as usize,
        ),
    ))
}

/// Names given as one string (commas between several, as on the command
/// line) or as any iterable of strings.
pub fn names_arg(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(text
            .to_cow()?
            .split(',')
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .collect());
    }
    let items = not_a_mapping(value)
        .and_then(|v| v.try_iter())
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "{name} is a {}: expected a name or a list of names",
                type_name(value)
            ))
        })?;
    items
        .map(|item| {
            let item = item?;
            item.cast::<PyString>()
                .map_err(|_| {
                    PyTypeError::new_err(format!(
                        "{name}: {} is a {}, not a name",
                        item.repr().map(|r| r.to_string()).unwrap_or_default(),
                        type_name(&item)
                    ))
                })?
                .to_cow()
                .map(|n| n.into_owned())
        })
        .collect()
}

/// A density from Python: `None`, or strictly between 0 and 1.
pub fn density_arg(density: Option<f64>) -> PyResult<Option<f64>> {
    match density {
        Some(d) if !(d > 0.0 && d < 1.0) => Err(input_error(format!(
            "density = {d}: expected a number strictly between 0 and 1"
        ))),
        d => Ok(d),
    }
}

/// The position of `board`, its total replaced by `mines` when given.
pub fn position(board: BoardInput, mines: Option<u32>) -> PyResult<Position> {
    position_of(board, mines).map_err(engine_error)
}

/// The board of `board`, checked as [`position_of`] checks it: codes go
/// straight to the board in one pass, text through its position.
pub fn board_of(board: BoardInput, mines: Option<u32>) -> Result<Board, EngineError> {
    match board {
        BoardInput::Codes(c) => Ok(Board::from_codes(c.rows, c.cols, &c.codes, mines)?),
        text => Ok(Board::from_position(&position_of(text, mines)?)),
    }
}

/// [`position`] without Python: callable from any thread.
pub fn position_of(board: BoardInput, mines: Option<u32>) -> Result<Position, EngineError> {
    match board {
        BoardInput::Codes(c) => Ok(Position::from_codes(c.rows, c.cols, &c.codes, mines)?),
        BoardInput::Text(text) => {
            let p: Position = text.parse()?;
            if p.grid.h.saturating_mul(p.grid.w) > MAX_CELLS {
                return Err(InputError::new(format!(
                    "a board of {}×{} cells: at most {MAX_CELLS} cells",
                    p.grid.h, p.grid.w
                ))
                .into());
            }
            let total = mines.or(p.total_mines);
            // Through the codes again: the total is checked against the
            // flags and the closed cells.
            Ok(Position::from_codes(
                p.grid.h,
                p.grid.w,
                &p.to_codes(),
                total,
            )?)
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
