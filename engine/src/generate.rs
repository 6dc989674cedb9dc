//! No-guess boards: layouts that complete no-guess play solves from the
//! start click.
//!
//! # What "no-guess" means here
//!
//! A board is accepted iff the solver (rules first, then the four methods;
//! hypotheses is complete and uses the total) opens every safe cell from the
//! start click, with the total mine count known, as [`crate::solver`] plays
//! any field. Since that play is complete, the accepted boards are exactly
//! the boards a perfect player solves without guessing — not the boards
//! some weaker solver happens to get through.
//!
//! # Uniform ([`Sampling::Uniform`])
//!
//! Rejection sampling: attempt `a` draws a layout uniform under the
//! first-click rule from its own stream [`game_rng`]`(seed, a)`, and is
//! kept if it is no-guess. Boards are the first `count` kept attempts *in
//! attempt order*, whatever order threads finish them in. So every board is
//! uniform among the no-guess layouts with that start (a uniform draw
//! conditioned on an event is uniform on the event), boards are independent,
//! and the output depends only on the seed. The speed comes from the solver:
//! a stuck attempt stops at its first stuck point, and most attempts are
//! stuck within a few rounds. An attempt the solver cannot decide within
//! its budget is rejected and counted (`undecided`); none occur on the
//! standard levels.
//!
//! # Fast ([`Sampling::Fast`]), not uniform
//!
//! For densities where almost no layout is no-guess (30×16 with 130+
//! mines), board `i` starts from a uniform layout drawn from
//! `game_rng(seed, i)` and, while play gets stuck, *repairs* it: one mine on
//! the frontier where play stopped (a closed cell next to an open number)
//! moves to a closed cell away from the frontier, chosen at random, keeping
//! the total; then the board is solved again from scratch, so an accepted
//! board is no-guess by the same test as above. After [`MAX_REPAIRS`]
//! moves without success it starts again from a fresh layout. The moves
//! shape the boards (mines drift away from where play gets stuck), so the
//! boards are **not** uniform among no-guess boards; `tests/suite/generate.rs`
//! measures how far on a small board.

use crate::board::{Cell, Field};
use crate::budget::{Budget, OverBudget};
use crate::game::{game_rng, random_layout, FirstClick, GameRng, Level};
use crate::methods::MethodTable;
use crate::solver::{solve_field_with, Layers, RuleTiers, SolveError, SolveOutcome};
use rand::RngExt;
use rayon::prelude::*;
use std::ops::ControlFlow;

/// How boards are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// Uniform among no-guess boards (rejection sampling).
    Uniform,
    /// Repair stuck boards: fast at high densities, not uniform.
    Fast,
}

#[doc(hidden)]
/// Repairs tried on one layout before a fresh one is drawn.
pub const MAX_REPAIRS: usize = 200;

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// Board size and mines.
    pub level: Level,
    /// What the first click is protected from.
    pub first_click: FirstClick,
    /// Where the first click goes, `(row, column)` from 0.
    pub start: (usize, usize),
    /// How boards are drawn.
    pub sampling: Sampling,
    /// Seed of the random layouts: the same seed gives the same boards,
    /// whatever the number of threads.
    pub seed: u64,
    /// Boards to generate.
    pub count: usize,
    /// Layouts solved for one board before giving up: some levels have no
    /// no-guess board at all (a 2×2 board with one mine and a safe corner
    /// start), or almost none.
    pub max_attempts: u64,
}

impl Request {
    /// One uniform board of `level` with an opening at the default start
    /// ((3,3), or the centre of a smaller board), seed 1, at most a
    /// million attempts.
    pub fn new(level: Level) -> Request {
        Request {
            level,
            first_click: FirstClick::Opening,
            start: FirstClick::Opening.default_start(level),
            sampling: Sampling::Uniform,
            seed: 1,
            count: 1,
            max_attempts: DEFAULT_MAX_ATTEMPTS,
        }
    }

    /// With `count` boards.
    pub fn count(mut self, count: usize) -> Request {
        self.count = count;
        self
    }

    /// With `seed`.
    pub fn seed(mut self, seed: u64) -> Request {
        self.seed = seed;
        self
    }

    /// With the first click under `rule` at `start`.
    pub fn first_click(mut self, rule: FirstClick, start: (usize, usize)) -> Request {
        self.first_click = rule;
        self.start = start;
        self
    }

    /// Drawn by `sampling`.
    pub fn sampling(mut self, sampling: Sampling) -> Request {
        self.sampling = sampling;
        self
    }
}

/// Layouts tried for one board before giving up, unless asked otherwise.
pub const DEFAULT_MAX_ATTEMPTS: u64 = 1_000_000;

/// No board found within [`Request::max_attempts`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no no-guess board found for board {board} in {attempts} attempts: at this density almost \
     no board (perhaps none) is solvable without guessing from this start"
)]
pub struct GaveUp {
    /// The board being sought (from 1).
    pub board: usize,
    /// Layouts tried for it.
    pub attempts: u64,
}

/// Why a run of [`generate_each`] stopped short of its boards.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// No board found within the attempts allowed.
    #[error(transparent)]
    GaveUp(#[from] GaveUp),
    /// The budget's cancel switch was thrown.
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
}

/// Generated boards and what they cost.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The boards in order, each open at the start cell only (the solver
    /// and the thesis reader open a 0's neighbours).
    pub fields: Vec<Field>,
    /// Layouts solved: for the uniform method, attempts up to and including
    /// the last kept one (the same for every thread count); for the fast
    /// method, layouts drawn plus repaired layouts solved.
    pub attempts: u64,
    /// Attempts the solver could not decide within its budget (rejected).
    pub undecided: u64,
}

#[doc(hidden)]
/// Whether play from the start solves `field` (open at the start cell).
/// `Err` when the solver gave up within the budget.
pub fn solve_from_start(
    field: &Field,
    rules: Option<&RuleTiers>,
    table: &mut MethodTable,
) -> Result<SolveOutcome, SolveError> {
    solve_within(field, rules, table, &Budget::default_limits())
}

/// [`solve_from_start`] within `budget` (its clock restarted).
fn solve_within(
    field: &Field,
    rules: Option<&RuleTiers>,
    table: &mut MethodTable,
    budget: &Budget,
) -> Result<SolveOutcome, SolveError> {
    let layers = Layers {
        rules,
        methods: true,
        budget: *budget,
    };
    solve_field_with(field, layers, table, None)
}

#[doc(hidden)]
/// The field of `layout` with only the start cell open.
pub fn field_at_start(level: Level, layout: Vec<bool>, start: (usize, usize)) -> Field {
    let grid = level.grid();
    let mut open = vec![false; grid.len()];
    open[grid.index(start.0, start.1) as usize] = true;
    Field::from_mines(grid, layout, open)
}

/// What a generation run cost, whatever became of its boards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Boards generated.
    pub boards: u64,
    /// Layouts solved: for the uniform method, attempts up to and including
    /// the last kept one (the same for every thread count); for the fast
    /// method, layouts drawn plus repaired layouts solved.
    pub attempts: u64,
    /// Attempts the solver could not decide within its budget (rejected).
    pub undecided: u64,
}

#[doc(hidden)]
/// Generates `request.count` boards, each layout solved within `budget`
/// (as [`generate_each`]); `progress(n)` is called as boards are accepted
/// (from any thread).
pub fn generate(
    request: &Request,
    rules: Option<&RuleTiers>,
    budget: &Budget,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Generated, GenerateError> {
    let mut fields = Vec::new();
    let tally = generate_each(request, rules, budget, progress, &mut |field| {
        fields.push(field);
        ControlFlow::Continue(())
    })?;
    Ok(Generated {
        fields,
        attempts: tally.attempts,
        undecided: tally.undecided,
    })
}

#[doc(hidden)]
/// Generates `request.count` boards and hands each to `emit` as soon as
/// it and every board before it are found, in order: the same boards in the
/// same order as [`generate`], holding only a batch at a time, so any count
/// streams in flat memory. `emit` returning [`ControlFlow::Break`] stops the
/// run (a write failed): the tally then counts the boards emitted.
///
/// Each layout is solved within `budget` (its clock restarted); the same
/// limits give the same boards. Its cancel switch, thrown, stops the run
/// within a solve with [`GenerateError::OverBudget`]: no attempt starts after it,
/// and nothing found after it is emitted (an attempt the switch ended
/// looks undecided, so the boards after it could differ). Fails with
/// [`GenerateError::GaveUp`] too.
pub fn generate_each(
    request: &Request,
    rules: Option<&RuleTiers>,
    budget: &Budget,
    progress: &(dyn Fn(u64) + Sync),
    emit: &mut dyn FnMut(Field) -> ControlFlow<()>,
) -> Result<Tally, GenerateError> {
    let called_off = || format!("generating {} boards", request.count);
    let run = Run {
        request,
        rules,
        budget,
        called_off: &called_off,
    };
    match request.sampling {
        Sampling::Uniform => uniform(&run, progress, emit),
        Sampling::Fast => fast(&run, progress, emit),
    }
}

/// What every attempt of a run shares.
struct Run<'a> {
    request: &'a Request,
    rules: Option<&'a RuleTiers>,
    budget: &'a Budget,
    called_off: &'a (dyn Fn() -> String + Sync),
}

impl Run<'_> {
    /// Gives up once the budget's cancel switch is thrown.
    fn check_cancelled(&self) -> Result<(), GenerateError> {
        Ok(self.budget.check_cancelled(self.called_off)?)
    }

    /// Whether play from the start solves `field`, within the budget.
    fn solve(&self, field: &Field, table: &mut MethodTable) -> Result<SolveOutcome, SolveError> {
        solve_within(field, self.rules, table, self.budget)
    }
}

fn uniform(
    run: &Run<'_>,
    progress: &(dyn Fn(u64) + Sync),
    emit: &mut dyn FnMut(Field) -> ControlFlow<()>,
) -> Result<Tally, GenerateError> {
    let request = run.request;
    // Attempts are tried in batches; a batch's kept attempts are taken in
    // attempt order. The batch size only sets how much is tried past the
    // last board needed (work), never which boards are kept: it starts
    // small, so that one board costs few attempts past it, and doubles up
    // to `MAX_BATCH` for long runs.
    const MAX_BATCH: u64 = 256;
    let mut batch_size = (2 * rayon::current_num_threads() as u64).clamp(4, MAX_BATCH);
    let count = request.count as u64;
    let mut tally = Tally::default();
    let mut next = 0u64;
    // Attempts up to and including the last board kept.
    let mut until_last_kept = 0;
    while tally.boards < count {
        let since_last = next - until_last_kept;
        if since_last >= request.max_attempts {
            return Err(GaveUp {
                board: tally.boards as usize + 1,
                attempts: since_last,
            }
            .into());
        }
        let batch: Vec<(u64, Attempt)> = (next..next + batch_size)
            .into_par_iter()
            .map_init(MethodTable::hypotheses_only, |table, a| {
                if run.budget.cancelled() {
                    return (a, Attempt::Undecided);
                }
                let mut rng = game_rng(request.seed, a);
                let layout =
                    random_layout(request.level, request.first_click, request.start, &mut rng);
                let field = field_at_start(request.level, layout, request.start);
                let attempt = match run.solve(&field, table) {
                    Ok(o) if o.solved => {
                        progress(1);
                        Attempt::Kept(field)
                    }
                    Ok(_) => Attempt::Stuck,
                    Err(_) => Attempt::Undecided,
                };
                (a, attempt)
            })
            .collect();
        // An attempt the switch ended (or skipped) is not undecided: once
        // it is thrown, nothing of this batch counts. An attempt saw it
        // only if this check does.
        run.check_cancelled()?;
        for (a, attempt) in batch {
            if tally.boards == count {
                break;
            }
            tally.attempts = a + 1;
            match attempt {
                Attempt::Kept(f) => {
                    tally.boards += 1;
                    until_last_kept = tally.attempts;
                    if emit(f).is_break() {
                        return Ok(tally);
                    }
                }
                Attempt::Undecided => tally.undecided += 1,
                Attempt::Stuck => {}
            }
        }
        next += batch_size;
        batch_size = (2 * batch_size).min(MAX_BATCH);
    }
    Ok(tally)
}

/// How one attempt ended.
enum Attempt {
    Kept(Field),
    Stuck,
    Undecided,
}

fn fast(
    run: &Run<'_>,
    progress: &(dyn Fn(u64) + Sync),
    emit: &mut dyn FnMut(Field) -> ControlFlow<()>,
) -> Result<Tally, GenerateError> {
    let request = run.request;
    // Board `i` is repaired from its own generator `(seed, i)`: chunks of
    // boards in parallel, emitted in order, give the same boards as one
    // pass over every index.
    const CHUNK: u64 = 64;
    let count = request.count as u64;
    let mut tally = Tally::default();
    let mut next = 0;
    while next < count {
        let end = next.saturating_add(CHUNK).min(count);
        let boards: Vec<(Field, u64, u64)> = (next..end)
            .into_par_iter()
            .map_init(MethodTable::hypotheses_only, |table, i| {
                let mut rng = game_rng(request.seed, i);
                let board = repaired_board(run, table, &mut rng);
                // `None` from a board the switch stopped is no gave-up.
                run.check_cancelled()?;
                let board = board.ok_or(GaveUp {
                    board: i as usize + 1,
                    attempts: request.max_attempts,
                })?;
                progress(1);
                Ok(board)
            })
            .collect::<Result<_, GenerateError>>()?;
        // As in `uniform`: a board may have been repaired past a solve
        // the switch ended.
        run.check_cancelled()?;
        for (field, attempts, undecided) in boards {
            tally.boards += 1;
            tally.attempts += attempts;
            tally.undecided += undecided;
            if emit(field).is_break() {
                return Ok(tally);
            }
        }
        next = end;
    }
    Ok(tally)
}

/// One board by repair: the field, the layouts solved, the undecided ones;
/// `None` after [`Request::max_attempts`] solves, or once the run's cancel
/// switch is thrown.
fn repaired_board(
    run: &Run<'_>,
    table: &mut MethodTable,
    rng: &mut GameRng,
) -> Option<(Field, u64, u64)> {
    let request = run.request;
    let grid = request.level.grid();
    let protected = request.first_click.protected(grid, request.start);
    let (mut solved, mut undecided) = (0, 0);
    while solved < request.max_attempts {
        let mut layout = random_layout(request.level, request.first_click, request.start, rng);
        for _ in 0..=MAX_REPAIRS {
            if solved == request.max_attempts || run.budget.cancelled() {
                return None;
            }
            let field = field_at_start(request.level, layout.clone(), request.start);
            solved += 1;
            let outcome = match run.solve(&field, table) {
                Ok(o) => o,
                Err(_) => {
                    undecided += 1;
                    break;
                }
            };
            if outcome.solved {
                return Some((field, solved, undecided));
            }
            // Where play stopped: closed cells next to an open number
            // (the frontier), and closed cells away from it.
            let board = &outcome.board;
            let closed = |i: u32| matches!(board.cell(i), Cell::Unknown | Cell::Mine);
            let on_frontier = |i: u32| board.on_frontier(i);
            let from: Vec<u32> = (0..grid.len() as u32)
                .filter(|&i| layout[i as usize] && closed(i) && on_frontier(i))
                .collect();
            let to: Vec<u32> = (0..grid.len() as u32)
                .filter(|&i| {
                    !layout[i as usize]
                        && closed(i)
                        && !on_frontier(i)
                        && protected.binary_search(&i).is_err()
                })
                .collect();
            if from.is_empty() || to.is_empty() {
                break;
            }
            let a = from[rng.random_range(0..from.len())];
            let b = to[rng.random_range(0..to.len())];
            layout[a as usize] = false;
            layout[b as usize] = true;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hypotheses alone reaches the fixpoint of all four methods (it is
    /// complete): same outcome and same cells open, layout by layout.
    #[test]
    fn hypotheses_alone_stops_where_all_methods_stop() {
        let level = Level::EXPERT;
        let start = (3, 3);
        let (mut all, mut alone) = (MethodTable::default(), MethodTable::hypotheses_only());
        let mut differ = Vec::new();
        for a in 0..400 {
            let layout = random_layout(level, FirstClick::Opening, start, &mut game_rng(1, a));
            let field = field_at_start(level, layout, start);
            let x = solve_from_start(&field, None, &mut all).unwrap();
            let y = solve_from_start(&field, None, &mut alone).unwrap();
            if (x.solved, x.opened_safe_cells) != (y.solved, y.opened_safe_cells) {
                differ.push((
                    a,
                    x.solved,
                    x.opened_safe_cells,
                    y.solved,
                    y.opened_safe_cells,
                ));
            }
        }
        assert!(differ.is_empty(), "{differ:?}");
    }
}
