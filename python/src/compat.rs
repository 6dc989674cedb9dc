//! The Rust side of `sapper.compat`: ms_toollib 1.5.20's solver calls with
//! its argument meanings and return shapes, computed by sapper.
//!
//! `sapper/compat.py` gives them ms_toollib's names and turns errors into
//! its exception type. What ms_toollib 1.5.20 does, and so what these do:
//!
//! - `cal_probability_onboard(board, mine_num)`: codes 0-8, 10, 11 and 12
//!   only (ms_toollib refuses 9 and the rest); flags (11) and question
//!   marks (12) are read as closed cells (ms_toollib re-marks the board
//!   itself); `mine_num` below 1 is a density, the total being
//!   `floor(mine_num × rows × cols)`; the total is clamped into
//!   `[min, max]`, the fewest and most mines a layout that fits the
//!   numbers can hold; every cell that is not closed gets 0.0. Returns the
//!   probabilities as lists and `[min, total used, max]`. A board with no
//!   closed cell, or that no layout fits, is answered with zeros and
//!   `[0, 0, 0]` (ms_toollib answers so when its marking pass leaves no
//!   closed cell, and raises on other contradictions: sapper answers every
//!   contradiction alike). A total inside `[min, max]` that no layout
//!   holds (the totals that fit can skip one) is an error, as in
//!   ms_toollib.
//! - `laymine`, `laymine_op`, `laymine_solvable(row, column, mine_num, x0,
//!   y0, max_times)`: `x0` is the start's row and `y0` its column; the
//!   layout as lists (-1 a mine); `laymine_solvable` returns
//!   `(layout, found)`, a plain opening layout with `False` when no no-guess
//!   board was found in `max_times` attempts.
//!
//! `min` and `max` come from the engine's
//! [`Counter::mine_range`](sapper_engine::Counter::mine_range) (a
//! programme over the frontier, microseconds; counts when the frontier is
//! too wide for it) and the probabilities from one count with the clamped
//! total.

use crate::errors::{engine_error, input_error};
use crate::input::{read_board, read_layout, BoardInput};
use crate::pool::{interruptible, one_board};
use crate::{engine, nested, switched, with_counter};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyList};
use sapper_engine::budget::{Budget, Cancel};
use sapper_engine::game::{game_rng, random_layout};
use sapper_engine::generate::Request;
use sapper_engine::{Board, Cell, Error, Field, FirstClick, Grid, Level};
use std::ops::ControlFlow;

/// ms_toollib's reading of `mine_num`: below 1 a density of the whole
/// board (floored), else a count (truncated; NaN and negatives 0).
fn total_of(mine_num: f64, cells: usize) -> u64 {
    if mine_num > 0.0 && mine_num < 1.0 {
        (mine_num * cells as f64).floor() as u64
    } else {
        mine_num as u64
    }
}

/// `cal_probability_onboard`'s answer on `cells` of `grid` (no flag): per
/// cell (row-major) the mine probability, 0 for cells not closed, and
/// `[min, total used, max]`.
fn onboard(
    grid: Grid,
    cells: &[Cell],
    mine_num: f64,
    budget: Budget,
) -> Result<(Vec<f64>, [u32; 3]), Error> {
    let zeros = || (vec![0.0; grid.len()], [0, 0, 0]);
    let closed = cells.iter().filter(|c| c.is_unknown()).count();
    if closed == 0 {
        return Ok(zeros());
    }
    // The board carries the total asked for (at most the closed cells);
    // the range does not read it, and it is the total used unless the
    // range clamps it.
    let asked = total_of(mine_num, grid.len()).min(closed as u64);
    let board = Board::new(grid, cells.to_vec(), Some(asked as u32));
    let engine = engine_ref()?;
    with_counter(engine, budget, |counter| {
        let Some((min, max)) = counter.mine_range(&board)? else {
            return Ok(zeros());
        };
        let total = asked.clamp(u64::from(min), u64::from(max)) as u32;
        let clamped;
        let board = if u64::from(total) == asked {
            &board
        } else {
            clamped = Board::new(grid, board.cells().to_vec(), Some(total));
            &clamped
        };
        let p = counter.compute(board, None)?;
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

/// A game board of ms_toollib's codes as sapper's board: 0-8 numbers, 10
/// closed, 11 (flag) and 12 (question mark) read as closed; any other
/// code names its cell.
fn ms_board(board: &Bound<'_, PyAny>) -> PyResult<(Grid, Vec<Cell>)> {
    let BoardInput::Codes(codes) = read_board(board)? else {
        return Err(input_error(
            "expected a game board of integer codes (0-8 numbers, 10 closed, 11 flag, 12 \
             question mark)",
        ));
    };
    let mut cells = Vec::with_capacity(codes.codes.len());
    for (i, &c) in codes.codes.iter().enumerate() {
        cells.push(match c {
            0..=8 => Cell::Revealed(c as u8),
            10..=12 => Cell::Unknown,
            other => {
                return Err(input_error(format!(
                    "row {}, column {}: unknown cell code {other}: expected 0-8 (a number), 10 \
                     (closed), 11 (flag) or 12 (question mark)",
                    i / codes.cols,
                    i % codes.cols
                )))
            }
        });
    }
    // Read directly, not through a `Position`: a number that cannot be
    // satisfied is a contradiction to answer, not an input to refuse.
    Ok((Grid::new(codes.rows, codes.cols), cells))
}

#[pyfunction]
fn _compat_probability_onboard<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    mine_num: f64,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
    let (grid, cells) = ms_board(board)?;
    let engine = engine()?;
    let (values, range) = one_board(py, grid.len(), engine.budget(), |budget| {
        onboard(grid, &cells, mine_num, budget)
    })?
    .map_err(engine_error)?;
    Ok((float_rows(py, grid.w, &values)?, PyList::new(py, range)?))
}

/// A list of lists of floats from row-major `values` of `cols` columns.
/// The zeros and ones (every cell not closed, every forced cell: most of a
/// board) share one float object each, as floats are immutable.
fn float_rows<'py>(py: Python<'py>, cols: usize, values: &[f64]) -> PyResult<Bound<'py, PyList>> {
    let (zero, one) = (PyFloat::new(py, 0.0), PyFloat::new(py, 1.0));
    let float = |&x: &f64| {
        if x == 0.0 && x.is_sign_positive() {
            zero.clone()
        } else if x == 1.0 {
            one.clone()
        } else {
            PyFloat::new(py, x)
        }
    };
    let rows = values
        .chunks(cols)
        .map(|row| PyList::new(py, row.iter().map(float)))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, rows)
}

/// The fewest and most mines of `board` read as `cal_probability_onboard`
/// reads it (`None`: no layout fits), by the frontier programme or, with
/// `counted`, by counts alone: the two are compared by the tests.
#[pyfunction]
fn _compat_mine_range(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    counted: bool,
) -> PyResult<Option<(u32, u32)>> {
    let (grid, cells) = ms_board(board)?;
    let board = Board::new(grid, cells, None);
    let engine = engine()?;
    one_board(py, grid.len(), engine.budget(), |budget| {
        with_counter(engine, budget, |c| {
            if counted {
                c.mine_range_by_counts(&board)
            } else {
                c.mine_range(&board)
            }
        })
    })?
    .map_err(engine_error)
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
    level.check(rule, (x0, y0)).map_err(engine_error)
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

/// Attempts of [`_compat_laymine_solvable`] between two looks at the cancel
/// switch, at first; doubled while a round takes under [`ROUND_SECONDS`].
const FIRST_ROUND: u64 = 16;
/// The time a round of attempts aims at, seconds.
const ROUND_SECONDS: f64 = 0.05;

/// A no-guess opening layout within `max_attempts` uniform attempts, in
/// rounds: round `k` draws its attempts from its own seed, a hash of
/// `(seed, k)`. Each attempt is an independent uniform layout, so the
/// first one kept is uniform among the no-guess layouts whatever the
/// rounds. `None` when no attempt was kept (or the run was stopped).
fn solvable_layout(
    level: Level,
    start: (usize, usize),
    max_attempts: u64,
    seed: u64,
    cancel: &Cancel,
) -> Result<Option<Field>, Error> {
    let engine = switched(engine_ref()?, cancel);
    let (mut tried, mut round, mut size) = (0u64, 0u64, FIRST_ROUND);
    while tried < max_attempts && !cancel.is_cancelled() {
        let attempts = size.min(max_attempts - tried);
        let mut request = Request::new(level)
            .seed(split_seed(seed, round))
            .first_click(FirstClick::Opening, start);
        request.max_attempts = attempts;
        let t0 = std::time::Instant::now();
        let mut found = None;
        match engine.generate_each(&request, &|_| {}, &mut |field| {
            found = Some(field);
            ControlFlow::Break(())
        }) {
            Ok(_) => return Ok(found),
            Err(Error::GaveUp(g)) => tried += g.attempts.max(attempts),
            Err(e) => return Err(e),
        }
        if t0.elapsed().as_secs_f64() < ROUND_SECONDS {
            size = size.saturating_mul(2);
        }
        round += 1;
    }
    Ok(None)
}

/// The seed of round `k` of a run seeded `seed` (SplitMix64's mixer).
fn split_seed(seed: u64, k: u64) -> u64 {
    let mut z = seed ^ k.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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
    let found = interruptible(py, |cancel| {
        solvable_layout(level, (x0, y0), max_times.max(1), seed, cancel)
    })?
    .map_err(engine_error)?;
    let (codes, ok) = match found {
        Some(field) => (field.to_codes(), true),
        None => (
            layout_codes(level, FirstClick::Opening, (x0, y0), seed),
            false,
        ),
    };
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
    let field = Field::from_codes(codes.rows, codes.cols, &codes.codes).map_err(engine_error)?;
    if x0 < codes.rows && y0 < codes.cols && field.mine[x0 * codes.cols + y0] {
        return Ok(false); // ms_toollib: a mine at the start is not solvable
    }
    let engine = engine()?;
    one_board(py, field.grid.len(), engine.budget(), |budget| {
        engine
            .clone()
            .with_budget(budget)
            .solves_from(&field, (x0, y0))
    })?
    .map_err(engine_error)
}

/// Adds the compat helpers to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_compat_probability_onboard, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_mine_range, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_laymine, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_laymine_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_is_solvable, m)?)?;
    Ok(())
}
