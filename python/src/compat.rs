//! The Rust side of `sapper.compat`: ms_toollib 1.5.20's solver calls with
//! its argument meanings and return shapes, computed by sapper.
//!
//! `sapper/compat.py` gives them ms_toollib's names and turns errors into
//! its exception type. What ms_toollib 1.5.20 does, and so what these do:
//!
//! - `cal_probability_onboard(board, mine_num)`: flags (11) and question
//!   marks (12) are read as closed cells (ms_toollib re-marks the board
//!   itself); `mine_num` below 1 is a density, the total being
//!   `floor(mine_num × rows × cols)`; the total is clamped into
//!   `[min, max]`, the fewest and most mines any layout that fits the
//!   numbers can hold; every cell that is not closed gets 0.0. Returns the
//!   probabilities as lists and `[min, total used, max]`.
//! - `laymine`, `laymine_op`, `laymine_solvable(row, column, mine_num, x0,
//!   y0, max_times)`: `x0` is the start's row and `y0` its column; the
//!   layout as lists (-1 a mine); `laymine_solvable` returns
//!   `(layout, found)`, a plain opening layout with `False` when no no-guess
//!   board was found in `max_times` attempts.

use crate::input::{read_board, read_layout, value_error, BoardInput};
use crate::{engine, nested, with_counter};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use sapper_engine::game::{game_rng, random_layout};
use sapper_engine::generate::Request;
use sapper_engine::{Board, Cell, Counter, Error, Field, FirstClick, Grid, Level, Position};

/// Whether some layout of `board` (no total) holds exactly `total` mines.
fn fits(counter: &mut Counter, board: &Board, total: u32) -> Result<bool, Error> {
    let with_total = Board::new(board.grid(), board.cells().to_vec(), Some(total));
    match counter.compute(&with_total, None) {
        Ok(_) => Ok(true),
        Err(Error::Contradiction { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// The fewest and the most mines a layout of `board` (no total) can hold,
/// or the engine's contradiction if none fits.
///
/// The totals that fit need not be an interval (a component may hold one
/// mine or three, never two), so they are not searched directly. Instead
/// `slack` closed cells that no number sees are added below the board,
/// behind a row of known-safe cells: with `C` = closed cells and `slack =
/// C`, a total `k ≤ C` fits the padded board iff some total `f` of the
/// board has `k − C ≤ f ≤ k`, i.e. iff `min ≤ k`; and `k + C` fits iff
/// `max ≥ k`. Both are monotone in `k`: two binary searches.
fn mine_range(counter: &mut Counter, board: &Board) -> Result<(u32, u32), Error> {
    let grid = board.grid();
    let closed = board.unknown_count();
    let slack = closed as usize;
    let extra_rows = if slack == 0 {
        0
    } else {
        1 + slack.div_ceil(grid.w)
    };
    let padded_grid = Grid::new(grid.h + extra_rows, grid.w);
    let mut cells = board.cells().to_vec();
    cells.resize(padded_grid.len(), Cell::Safe);
    for c in &mut cells[(grid.h + 1) * grid.w..][..slack.min(padded_grid.len())] {
        *c = Cell::Unknown;
    }
    let padded = Board::new(padded_grid, cells, None);
    if !fits(counter, &padded, closed)? {
        // No layout at all: the engine's own account of why.
        counter.compute(board, Some(0.5))?;
        return Err(Error::Internal(
            "no layout fits, yet the count found one".into(),
        ));
    }
    // Least k with min ≤ k.
    let (mut lo, mut hi) = (0, closed);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if fits(counter, &padded, mid)? {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let min = lo;
    // Greatest k with max ≥ k.
    let (mut lo, mut hi) = (min, closed);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(counter, &padded, mid + closed)? {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok((min, lo))
}

/// ms_toollib's reading of `mine_num`: below 1 a density of the whole
/// board (floored), else a count (truncated; NaN and negatives 0).
fn total_of(mine_num: f64, cells: usize) -> u64 {
    if mine_num > 0.0 && mine_num < 1.0 {
        (mine_num * cells as f64).floor() as u64
    } else {
        mine_num as u64
    }
}

/// `cal_probability_onboard`: per cell (row-major) the mine probability,
/// 0 for cells not closed, and `[min, total used, max]`.
fn onboard(board: &Board, mine_num: f64) -> Result<(Vec<f64>, [u32; 3]), Error> {
    let engine = engine_ref()?;
    with_counter(engine, |counter| {
        let (min, max) = mine_range(counter, board)?;
        let total = total_of(mine_num, board.grid().len()).clamp(min as u64, max as u64) as u32;
        let with_total = Board::new(board.grid(), board.cells().to_vec(), Some(total));
        let p = counter.compute(&with_total, None)?;
        let values = p
            .per_cell()
            .iter()
            .map(|&x| if x.is_nan() { 0.0 } else { x })
            .collect();
        Ok((values, [min, total, max]))
    })
}

/// The engine, as an engine error if it cannot be built.
fn engine_ref() -> Result<&'static sapper_engine::Engine, Error> {
    engine().map_err(|e| Error::Internal(e.to_string()))
}

#[pyfunction]
fn _compat_probability_onboard<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    mine_num: f64,
) -> PyResult<(Bound<'py, PyList>, [u32; 3])> {
    let BoardInput::Codes(mut codes) = read_board(board)? else {
        return Err(PyValueError::new_err(
            "expected a game board of integer codes (0-8 numbers, 10 closed, 11 flag)",
        ));
    };
    // ms_toollib reads flags and question marks as closed.
    for c in &mut codes.codes {
        if *c == 11 || *c == 12 {
            *c = 10;
        }
    }
    let position =
        Position::from_codes(codes.rows, codes.cols, &codes.codes, None).map_err(value_error)?;
    let board = Board::from_position(&position);
    let (values, range) = py
        .detach(|| onboard(&board, mine_num))
        .map_err(value_error)?;
    Ok((nested(py, codes.cols, &values)?, range))
}

/// The level and start of ms_toollib's layout arguments, checked.
fn level_of(
    row: usize,
    column: usize,
    mine_num: u32,
    x0: usize,
    y0: usize,
    rule: FirstClick,
) -> PyResult<Level> {
    let level = Level {
        rows: row,
        cols: column,
        mines: mine_num,
    };
    level.check(rule, (x0, y0)).map_err(value_error)
}

/// A uniform layout under `rule` at `(x0, y0)` from `seed`, as codes.
fn layout_codes(level: Level, rule: FirstClick, start: (usize, usize), seed: u64) -> Vec<i32> {
    let mine = random_layout(level, rule, start, &mut game_rng(seed, 0));
    Field::from_mines(level.grid(), mine, vec![false; level.grid().len()]).to_codes()
}

#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn _compat_laymine<'py>(
    py: Python<'py>,
    row: usize,
    column: usize,
    mine_num: u32,
    x0: usize,
    y0: usize,
    seed: u64,
    opening: bool,
) -> PyResult<Bound<'py, PyList>> {
    let rule = if opening {
        FirstClick::Opening
    } else {
        FirstClick::Safe
    };
    let level = level_of(row, column, mine_num, x0, y0, rule)?;
    let codes = py.detach(|| layout_codes(level, rule, (x0, y0), seed));
    nested(py, column, &codes)
}

#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn _compat_laymine_solvable<'py>(
    py: Python<'py>,
    row: usize,
    column: usize,
    mine_num: u32,
    x0: usize,
    y0: usize,
    max_times: u64,
    seed: u64,
) -> PyResult<(Bound<'py, PyList>, bool)> {
    let level = level_of(row, column, mine_num, x0, y0, FirstClick::Opening)?;
    let mut request = Request::new(level)
        .seed(seed)
        .first_click(FirstClick::Opening, (x0, y0));
    request.max_attempts = max_times.max(1);
    let engine = engine()?;
    let found = py.detach(|| match engine.generate(&request) {
        Ok(g) => Ok((g.fields[0].to_codes(), true)),
        Err(Error::GaveUp(_)) => Ok((
            layout_codes(level, FirstClick::Opening, (x0, y0), seed),
            false,
        )),
        Err(e) => Err(e),
    });
    let (codes, ok) = found.map_err(value_error)?;
    Ok((nested(py, column, &codes)?, ok))
}

#[pyfunction]
fn _compat_is_solvable(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    x0: usize,
    y0: usize,
) -> PyResult<bool> {
    let codes = read_layout(board)?;
    let field = Field::from_codes(codes.rows, codes.cols, &codes.codes).map_err(value_error)?;
    if x0 < codes.rows && y0 < codes.cols && field.mine[x0 * codes.cols + y0] {
        return Ok(false); // ms_toollib: a mine at the start is not solvable
    }
    let engine = engine()?;
    py.detach(|| engine.solves_from(&field, (x0, y0)))
        .map_err(value_error)
}

/// Adds the compat helpers to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_compat_probability_onboard, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_laymine, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_laymine_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_is_solvable, m)?)?;
    Ok(())
}
