//! `sapper._sapper`: the Python bindings of the sapper Minesweeper engine
//! ([`sapper_engine`]), wrapped by the `sapper` package (`python/sapper/`).
//!
//! One [`Engine`] is built on first use and shared by every call and
//! thread. Every call that computes releases the GIL while it does. The
//! long calls (`play`, `generate`, `probabilities_many`,
//! `compat.laymine_solvable`) run in the package's own thread pool,
//! rebuilt after a fork, and stop on Ctrl-C; the calls on one board
//! (`probabilities`, `count_layouts`, `analyse`, `next_move`,
//! `is_solvable`) run on the calling thread while they are quick, and move
//! to the pool, where Ctrl-C stops them, when they are not (the `pool`
//! module). Inputs are validated here (types, shapes, codes,
//! ranges) so that nothing panics across the boundary; engine errors
//! become the package's exceptions (the `errors` module). Boards: see the
//! `input` module; replays, reviews and board metrics: `replay`; the
//! ms_toollib-compatible helpers: see `compat`. Answers the engine has a
//! report type for (`sapper_engine::report`) are converted from it with
//! `pythonize`, so they are the CLI's JSON objects as dicts.

mod compat;
mod errors;
mod input;
mod many;
mod pool;
mod replay;

use errors::{engine_error, input_error};
use input::{
    board_of, density_arg, first_click_arg, mines_arg, names_arg, position, read_board,
    read_layout, seed_arg, Int,
};
use numpy::ndarray::{Array2, Array3};
use numpy::{IntoPyArray, PyArray2, PyArray3};
use pool::{interruptible, one_board};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use sapper_engine::budget::{Budget, Cancel};
use sapper_engine::generate::{Request, Sampling};
use sapper_engine::play::{
    Guessing, Player, Policy, Refinement, ENDGAME_LAYOUTS, MAX_ENDGAME_LAYOUTS,
};
use sapper_engine::report::{AnalysisReport, MoveReport, PlayReport, RowCol};
use sapper_engine::{
    Board, Cell, Counter, Engine, Error, Field, FirstClick, Grid, Level, PlaySettings,
};
use std::cell::RefCell;
use std::ops::ControlFlow;
use std::sync::OnceLock;

/// Every Rust allocation of the extension comes from mimalloc's heap, not
/// from the C library's `malloc` that the interpreter and other extensions
/// share. A call that follows one which freed many blocks (ms_toollib's
/// `cal_probability_onboard` frees thousands) would otherwise pay for
/// sorting them: glibc's `malloc` consolidates and sorts its free lists on
/// the next request it cannot serve from a cache, whoever makes it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The engine every call shares (embedded rules, default budget).
static ENGINE: OnceLock<Engine> = OnceLock::new();

/// The shared engine, built on first use.
fn engine() -> PyResult<&'static Engine> {
    if let Some(e) = ENGINE.get() {
        return Ok(e);
    }
    let built = Engine::new().map_err(engine_error)?;
    Ok(ENGINE.get_or_init(|| built))
}

thread_local! {
    /// This thread's probability counter: its buffers serve call after call.
    static COUNTER: RefCell<Option<Counter>> = const { RefCell::new(None) };
}

/// The shared engine, with `cancel` on its budget: what it computes stops
/// when the switch is thrown.
fn switched(engine: &Engine, cancel: &Cancel) -> Engine {
    let budget = engine.budget().with_cancel(cancel);
    engine.clone().with_budget(budget)
}

/// Runs `f` with this thread's counter, computing under `budget`.
fn with_counter<T>(engine: &Engine, budget: Budget, f: impl FnOnce(&mut Counter) -> T) -> T {
    COUNTER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let counter = slot.get_or_insert_with(|| engine.counter());
        counter.set_budget(budget);
        f(counter)
    })
}

/// Every cell's probability on `board` (NaN for cells not closed).
fn per_cell(counter: &mut Counter, board: &Board, density: Option<f64>) -> Result<Vec<f64>, Error> {
    Ok(counter.compute(board, density)?.per_cell().to_vec())
}

/// `per_cell` as an `h × w` float64 array.
fn grid_array<'py>(py: Python<'py>, grid: Grid, values: Vec<f64>) -> Bound<'py, PyArray2<f64>> {
    Array2::from_shape_vec((grid.h, grid.w), values)
        .expect("one value per cell")
        .into_pyarray(py)
}

/// Mine probability of every cell of `board`: a float64 array of its
/// shape, a closed cell's probability in [0, 1] (within 1e-12 of the
/// exact fraction; forced cells exactly 0 or 1), NaN for every other cell.
/// `mines` sets (or overrides) the total; without one, `density` weighs a
/// layout with k mines by d^k (1-d)^(n-k).
#[pyfunction]
#[pyo3(signature = (board, mines=None, density=None))]
fn probabilities<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    mines: Option<Int>,
    density: Option<f64>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (mines, density) = (mines_arg(mines.as_ref())?, density_arg(density)?);
    let board = board_of(read_board(board)?, mines).map_err(engine_error)?;
    let engine = engine()?;
    let values = one_board(py, board.grid().len(), engine.budget(), |budget| {
        with_counter(engine, budget, |c| per_cell(c, &board, density))
    })?
    .map_err(engine_error)?;
    Ok(grid_array(py, board.grid(), values))
}

/// The exact number of mine layouts that fit `board` with `mines` mines in
/// all (a Python int, however large).
#[pyfunction]
#[pyo3(signature = (board, mines=None))]
fn count_layouts<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    mines: Option<Int>,
) -> PyResult<Bound<'py, PyAny>> {
    let board = board_of(read_board(board)?, mines_arg(mines.as_ref())?).map_err(engine_error)?;
    if board.total_mines().is_none() {
        return Err(input_error(
            "count_layouts needs the total number of mines: give mines=N",
        ));
    }
    let engine = engine()?;
    let bytes = one_board(py, board.grid().len(), engine.budget(), |budget| {
        with_counter(engine, budget, |c| -> Result<Vec<u8>, Error> {
            c.compute(&board, None)?;
            Ok(c.layouts()?.to_bytes_le())
        })
    })?
    .map_err(engine_error)?;
    py.get_type::<pyo3::types::PyInt>()
        .call_method1("from_bytes", (PyBytes::new(py, &bytes), "little"))
}

/// Every forced cell of `board`, as `sapper analyse --json` reports it:
/// `safe` and `mines` (newly forced mines, not flags) as `[row, col]`
/// lists in cell order, `deductions` (cell, value, source and a rule's
/// order), `by_source` and `unknown_left`.
#[pyfunction]
#[pyo3(signature = (board, mines=None))]
fn analyse<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    mines: Option<Int>,
) -> PyResult<Bound<'py, PyAny>> {
    let position = position(read_board(board)?, mines_arg(mines.as_ref())?)?;
    let engine = engine()?;
    let analysis = one_board(py, position.grid.len(), engine.budget(), |budget| {
        engine.clone().with_budget(budget).analyse(&position)
    })?
    .map_err(engine_error)?;
    Ok(pythonize::pythonize(
        py,
        &AnalysisReport::new(position.grid, &analysis),
    )?)
}

/// The sapper player's move, as the `sapper engine` protocol answers:
/// `{"open": [[r, c], ...], "flag": [...], "guess": False}` when cells are
/// proven safe, else `{"open": [[r, c]], "flag": [...], "guess": True,
/// "p_mine": p}`. Without a total, a guess weighs the closed cells by
/// `density` (default 0.2). On a finished game (no closed cell may be
/// safe): `{"open": [], "flag": [...], "guess": False, "game_over": True}`,
/// `flag` listing the closed cells (all mines).
#[pyfunction]
#[pyo3(signature = (board, mines=None, density=None))]
fn next_move<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    mines: Option<Int>,
    density: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let density = density_arg(density)?;
    let position = position(read_board(board)?, mines_arg(mines.as_ref())?)?;
    let engine = engine()?;
    let answer = one_board(py, position.grid.len(), engine.budget(), |budget| {
        let mut player = engine.player(Policy::SecondSafety).with_budget(budget);
        if let Some(d) = density {
            player.set_density(d);
        }
        player.next_move(&Board::from_position(&position))
    })?;
    let grid = position.grid;
    match answer {
        Ok(m) => Ok(pythonize::pythonize(py, &MoveReport::new(grid, &m))?),
        Err(Error::NothingToOpen) => {
            let closed =
                (0..grid.len() as u32).filter(|&c| position.cells[c as usize] == Cell::Unknown);
            let report = MoveReport {
                open: Vec::new(),
                flag: RowCol::all(grid, closed),
                guess: false,
                p_mine: None,
            };
            let out = pythonize::pythonize(py, &report)?;
            out.set_item("game_over", true)?;
            Ok(out)
        }
        Err(e) => Err(engine_error(e)),
    }
}

/// Most cells [`generate`] returns in one call (about 1 GB of int8).
const MAX_GENERATED_CELLS: usize = 1 << 30;

/// `count` no-guess boards of `rows × cols` with `mines` mines: an int8
/// array of shape `(count, rows, cols)`, -1 a mine, 0-8 the numbers.
/// `first_click`: "opening" (an opening at (3, 3), clamped into small
/// boards), "safe" (a safe click at (0, 0)) or `(row, col)` for an opening
/// there; `method`: "uniform" (uniform among no-guess boards) or "fast"
/// (repaired boards, for dense levels). `seed`: 0 to 2**64 - 1, the same
/// boards for the same seed; `None` draws a fresh seed from the operating
/// system. Runs on every core; Ctrl-C stops it within a layout's solve
/// (milliseconds), however rare no-guess boards are.
#[pyfunction]
#[pyo3(
    signature = (rows, cols, mines, count=Int::from(1), seed=None, first_click=None, method="uniform"),
    text_signature = "(rows, cols, mines, count=1, seed=None, first_click='opening', method='uniform')"
)]
#[allow(clippy::too_many_arguments)]
fn generate<'py>(
    py: Python<'py>,
    rows: Int,
    cols: Int,
    mines: Int,
    count: Int,
    seed: Option<Int>,
    first_click: Option<&Bound<'py, PyAny>>,
    method: &str,
) -> PyResult<Bound<'py, PyArray3<i8>>> {
    let level = Level {
        rows: rows.within("rows", 0, u32::MAX)? as usize,
        cols: cols.within("cols", 0, u32::MAX)? as usize,
        mines: mines.within("mines", 0, u32::MAX)?,
    };
    let count = count.within("count", 0, u64::MAX)?;
    let (rule, start) = match first_click {
        None => (
            FirstClick::Opening,
            FirstClick::Opening.default_start(level),
        ),
        Some(v) => first_click_arg(level, v)?,
    };
    let sampling = match method {
        "uniform" => Sampling::Uniform,
        "fast" => Sampling::Fast,
        _ => {
            return Err(input_error(format!(
                "method = {method:?}: expected \"uniform\" or \"fast\""
            )))
        }
    };
    level.check(rule, start).map_err(engine_error)?;
    let seed = seed_arg(py, seed.as_ref())?;
    let cells = level.rows * level.cols;
    let count = usize::try_from(count)
        .ok()
        .filter(|&n| n.saturating_mul(cells) <= MAX_GENERATED_CELLS)
        .ok_or_else(|| {
            input_error(format!(
                "{count} boards of {cells} cells: at most {MAX_GENERATED_CELLS} cells in one call"
            ))
        })?;
    let engine = engine()?;
    let codes: Vec<i8> = if count == 0 {
        Vec::new()
    } else {
        let request = Request::new(level)
            .count(count)
            .seed(seed)
            .first_click(rule, start)
            .sampling(sampling);
        interruptible(py, |cancel| {
            let mut codes = Vec::new();
            switched(engine, cancel)
                .generate_each(&request, &|_| {}, &mut |field| {
                    codes.extend(field.to_codes().into_iter().map(|c| c as i8));
                    ControlFlow::Continue(())
                })
                .map(|_| codes)
        })?
        .map_err(engine_error)?
    };
    Ok(
        Array3::from_shape_vec((count, level.rows, level.cols), codes)
            .expect("count boards of rows × cols")
            .into_pyarray(py),
    )
}

/// Whether no-guess play (with the total known) solves `layout` from a
/// click on `(row, col)`. A mine at the start is a `sapper.InputError`.
#[pyfunction]
fn is_solvable(py: Python<'_>, layout: &Bound<'_, PyAny>, row: Int, col: Int) -> PyResult<bool> {
    let codes = read_layout(layout)?;
    let field = Field::from_codes(codes.rows, codes.cols, &codes.codes).map_err(engine_error)?;
    let start = (
        row.within("row", 0, u32::MAX)? as usize,
        col.within("col", 0, u32::MAX)? as usize,
    );
    let engine = engine()?;
    one_board(py, field.grid.len(), engine.budget(), |budget| {
        engine
            .clone()
            .with_budget(budget)
            .solves_from(&field, start)
    })?
    .map_err(engine_error)
}

/// Most games [`play`] plays in one call.
const MAX_GAMES: u64 = 100_000_000;

/// Plays `games` seeded games with the sapper player and returns the
/// summary `sapper play --json` prints. `level` ("beginner",
/// "intermediate", "expert": the default), or `rows`, `cols` and `mines`.
/// `first_click`: "safe" (a safe click at (0, 0)), "opening" or `(row,
/// col)` for an opening there. `policy`, `endgame_layouts` (0 to 65535)
/// and `without` (one refinement, several separated by commas, or a list)
/// are `sapper play`'s options of those names; `third_move=False` is
/// `sapper play --without third-move` (faster, a little weaker). `seed=None` draws
/// a fresh seed, reported as "seed". Runs on every core; Ctrl-C stops it
/// within a move of each game in progress.
#[pyfunction]
#[pyo3(
    signature = (level=None, rows=None, cols=None, mines=None, games=Int::from(1000), seed=None, first_click=None, third_move=true, policy="second-safety", endgame_layouts=Int::from(ENDGAME_LAYOUTS as i64), without=None),
    text_signature = "(level=None, rows=None, cols=None, mines=None, games=1000, seed=None, first_click='safe', third_move=True, policy='second-safety', endgame_layouts=1000, without=())"
)]
#[allow(clippy::too_many_arguments)]
fn play<'py>(
    py: Python<'py>,
    level: Option<&str>,
    rows: Option<Int>,
    cols: Option<Int>,
    mines: Option<Int>,
    games: Int,
    seed: Option<Int>,
    first_click: Option<&Bound<'py, PyAny>>,
    third_move: bool,
    policy: &str,
    endgame_layouts: Int,
    without: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let policy = Policy::from_name(policy).ok_or_else(|| {
        input_error(format!(
            "policy = {policy:?}: expected one of {}",
            names(Policy::ALL.map(Policy::name))
        ))
    })?;
    let endgame_layouts =
        endgame_layouts.within("endgame_layouts", 0, MAX_ENDGAME_LAYOUTS as u64)? as usize;
    let mut guessing = Guessing {
        third_move,
        ..Guessing::default()
    };
    let without = match without {
        Some(w) => names_arg("without", w)?,
        None => Vec::new(),
    };
    for name in &without {
        match Refinement::from_name(name) {
            Some(lead) => guessing.set(lead, false),
            None => {
                return Err(input_error(format!(
                    "without: {name:?} is not a refinement: expected any of {}",
                    names(Refinement::ALL.map(Refinement::name))
                )));
            }
        }
    }
    let level = match (level, rows, cols, mines) {
        (Some(name), None, None, None) => Level::named(name).ok_or_else(|| {
            input_error(format!(
                "level = {name:?}: expected \"beginner\", \"intermediate\" or \"expert\""
            ))
        })?,
        (None, None, None, None) => Level::EXPERT,
        (None, Some(r), Some(c), Some(m)) => Level {
            rows: r.within("rows", 0, u32::MAX)? as usize,
            cols: c.within("cols", 0, u32::MAX)? as usize,
            mines: m.within("mines", 0, u32::MAX)?,
        },
        _ => {
            return Err(input_error(
                "give a level name, or rows, cols and mines together, not both",
            ))
        }
    };
    let games = games.within("games", 1, MAX_GAMES)?;
    let (rule, start) = match first_click {
        None => (FirstClick::Safe, (0, 0)),
        Some(v) => first_click_arg(level, v)?,
    };
    level.check(rule, start).map_err(engine_error)?;
    let mut settings = PlaySettings::new(level)
        .games(games)
        .seed(seed_arg(py, seed.as_ref())?)
        .first_click(rule, Some(start));
    settings.policy = policy;
    settings.endgame_layouts = endgame_layouts;
    settings.guessing = guessing;
    let engine = engine()?;
    let summary = interruptible(py, |cancel| switched(engine, cancel).play(&settings))?
        .map_err(engine_error)?;
    let report = PlayReport {
        summary: &summary,
        settings: &settings,
    };
    Ok(pythonize::pythonize(py, &report)?)
}

/// `"a", "b" or "c"`: names for an error message.
fn names<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let quoted: Vec<String> = names.into_iter().map(|n| format!("{n:?}")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A list of lists from row-major `values` of `cols` columns.
fn nested<'py, T: Copy + IntoPyObject<'py>>(
    py: Python<'py>,
    cols: usize,
    values: &[T],
) -> PyResult<Bound<'py, PyList>> {
    let rows = values
        .chunks(cols)
        .map(|row| PyList::new(py, row.iter().copied()))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, rows)
}

/// The extension module.
#[pymodule]
fn _sapper(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(probabilities, m)?)?;
    m.add_function(wrap_pyfunction!(many::probabilities_many, m)?)?;
    m.add_function(wrap_pyfunction!(count_layouts, m)?)?;
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    m.add_function(wrap_pyfunction!(next_move, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(is_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(replay::read_replay, m)?)?;
    m.add_function(wrap_pyfunction!(replay::review, m)?)?;
    m.add_function(wrap_pyfunction!(replay::metrics, m)?)?;
    errors::register(m)?;
    compat::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
