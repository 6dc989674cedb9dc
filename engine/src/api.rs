//! [`Engine`]: the one entry point — built once with its rules and budget,
//! then asked to solve, analyse, count, move, play and generate.

use crate::board::{Board, Field, Position};
use crate::budget::Budget;
use crate::error::Error;
use crate::formats::replay::{Replay, ReplayHeader};
use crate::game::{FirstClick, Level};
use crate::generate::{self, Generated, Request};
use crate::methods::MethodTable;
use crate::play::{
    self, GameRecord, Guessing, Move, Player, Policy, SapperPlayer, ENDGAME_LAYOUTS,
};
use crate::probabilities::Probabilities;
use crate::report::{AnalysisReport, ProbabilityReport, RowCol};
use crate::rules::load::{self, LoadNote, Loaded, Trust};
use crate::solver::{self, Analysis, BySource, Layers, RuleTiers, SolveOutcome};
use num_bigint::BigUint;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// One layer of the analysis ([`Engine::analyse_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The rules alone, to their own fixpoint.
    Rules,
    /// The four methods alone.
    Methods,
}

/// Which rules the engine matches before its four methods.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rules {
    /// The rulebase embedded in this crate (orders 1–2, 8,959 rules), with
    /// its index built at compile time: no cost to load.
    Default,
    /// A rulebase file: its saved index is used when valid, else every rule
    /// is re-proven by enumeration and indexed.
    File(PathBuf),
    /// A rulebase file used without re-proving its rules (its checksum is
    /// taken as enough).
    TrustedFile(PathBuf),
    /// The four methods alone.
    None,
}

/// The engine: rules loaded once, a budget for each computation.
///
/// Every method takes `&self` and the engine is `Send + Sync`: share one
/// between threads. Each call starts its own clock: the budget bounds one
/// solve, analysis, count or move, not the engine's life.
///
/// A budget carrying a [`Cancel`](crate::budget::Cancel) switch
/// ([`Budget::with_cancel`], [`Engine::with_budget`]) calls off what the
/// engine is doing when the switch is thrown, from any thread: a
/// computation gives up at its next check, and a run of many games or
/// boards ([`Engine::play_each`], [`Engine::generate_each`]) stops too,
/// with [`Error::OverBudget`] of [`Limit::Cancelled`](crate::budget::Limit::Cancelled).
///
/// ```
/// use sapper_engine::{Engine, Position};
///
/// let engine = Engine::new()?;
/// // 1-2-1 under three closed cells: the outer two are mines, the middle safe.
/// let position: Position = "mines 2\n???\n121\n...\n".parse()?;
/// let analysis = engine.analyse(&position)?;
/// assert_eq!(analysis.deductions.len(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Engine {
    /// Shared: a clone of the engine (another budget) costs nothing.
    rules: Option<std::sync::Arc<RuleTiers>>,
    budget: Budget,
    note: Option<LoadNote>,
}

impl Engine {
    /// The engine with the embedded default rules and the default budget
    /// ([`Budget::default_limits`]: 10 s and 1 GiB per computation).
    pub fn new() -> Result<Engine, Error> {
        Engine::with_rules(Rules::Default)
    }

    /// The engine with `rules` and the default budget.
    pub fn with_rules(rules: Rules) -> Result<Engine, Error> {
        let loaded = match rules {
            Rules::Default => Some(load::default_tiers()?),
            Rules::File(path) => Some(load::file_tiers(&path, Trust::Prove)?),
            Rules::TrustedFile(path) => Some(load::file_tiers(&path, Trust::Trust)?),
            Rules::None => None,
        };
        Ok(match loaded {
            Some(Loaded { tiers, note }) => Engine {
                rules: Some(std::sync::Arc::new(tiers)),
                budget: Budget::default_limits(),
                note,
            },
            None => Engine {
                rules: None,
                budget: Budget::default_limits(),
                note: None,
            },
        })
    }

    /// The engine over rule tiers the caller built or loaded.
    #[doc(hidden)]
    pub fn from_tiers(rules: Option<RuleTiers>) -> Engine {
        Engine {
            rules: rules.map(std::sync::Arc::new),
            budget: Budget::default_limits(),
            note: None,
        }
    }

    /// The same engine with another budget for each computation.
    pub fn with_budget(mut self, budget: Budget) -> Engine {
        self.budget = budget;
        self
    }

    /// The rules matched first, if any.
    #[doc(hidden)]
    pub fn rules(&self) -> Option<&RuleTiers> {
        self.rules.as_deref()
    }

    /// The budget of each computation.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// What is worth telling a user about how the rules were loaded (an
    /// unusable saved index, a large rulebase indexed at load time).
    pub fn load_note(&self) -> Option<&LoadNote> {
        self.note.as_ref()
    }

    /// The layers of one computation: the rules, the methods, and the
    /// budget with its clock started now.
    #[doc(hidden)]
    pub fn layers(&self) -> Layers<'_> {
        Layers {
            rules: self.rules.as_deref(),
            methods: true,
            budget: self.budget.restarted(),
        }
    }

    /// Plays `field` without guessing from its open cells: every proven
    /// safe cell is opened (a 0 opens its neighbours) until every safe cell
    /// is open (`solved`) or nothing is forced (stuck, where a guess is
    /// needed).
    ///
    /// ```
    /// use sapper_engine::{Engine, Field};
    ///
    /// let engine = Engine::new()?;
    /// // A 3×3 layout with one mine in a corner, opened at the far corner.
    /// let mut field = Field::from_codes(3, 3, &[-1, 1, 0, 1, 1, 0, 0, 0, 0])?;
    /// field.open_at_start[8] = true;
    /// let outcome = engine.solve(&field)?;
    /// assert!(outcome.solved);
    /// assert_eq!(outcome.opened_safe_cells, 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solve(&self, field: &Field) -> Result<SolveOutcome, Error> {
        self.solve_with_table(field, &mut MethodTable::default())
    }

    /// [`Engine::solve`], recording each method's attempts and times in
    /// `table` (which also orders the methods, cheapest first).
    pub fn solve_with_table(
        &self,
        field: &Field,
        table: &mut MethodTable,
    ) -> Result<SolveOutcome, Error> {
        solver::solve_field_with(field, self.layers(), table, None)
            .map_err(|e| Error::from_solve(e, field.grid))
    }

    /// [`Engine::solve_with_table`], also learning rules: each cell a
    /// method proves whose supporting numbers fit a 6×6 window gives a
    /// rule, proven by enumeration ([`rules::learn`](crate::rules::learn)).
    pub fn solve_learning(
        &self,
        field: &Field,
        table: &mut MethodTable,
    ) -> Result<(SolveOutcome, Vec<crate::rules::Rule>), Error> {
        let mut learned = Vec::new();
        let mut observe = |board: &Board, f: crate::Forced, _: crate::Method| {
            learned.extend(crate::rules::learn::learn(board, f));
        };
        let outcome = solver::solve_field_with(field, self.layers(), table, Some(&mut observe))
            .map_err(|e| Error::from_solve(e, field.grid))?;
        Ok((outcome, learned))
    }

    /// Every forced cell of `position`, to the fixpoint, each with the rule
    /// order or method that proved it. Complete: a closed cell not reported
    /// can be a mine in one layout that fits and safe in another.
    pub fn analyse(&self, position: &Position) -> Result<Analysis, Error> {
        self.analyse_with(position, None)
    }

    /// [`Engine::analyse`] with `only` one layer: the rules to their own
    /// fixpoint (what single numbers and pairs of numbers allow, without
    /// the total; only the contradictions one or two numbers show are
    /// found), or the four methods without the rules. `None`: both, as
    /// [`Engine::analyse`].
    pub fn analyse_with(
        &self,
        position: &Position,
        only: Option<Layer>,
    ) -> Result<Analysis, Error> {
        let mut layers = self.layers();
        match only {
            None => {}
            Some(Layer::Rules) => layers.methods = false,
            Some(Layer::Methods) => layers.rules = None,
        }
        solver::analyse_position_with(position, layers, &mut MethodTable::default())
            .map_err(|e| Error::from_method(e, position.grid))
    }

    /// A mine-probability counter under this engine's budget, whose buffers
    /// are reused from one position to the next.
    pub fn counter(&self) -> Counter {
        Counter {
            probabilities: Probabilities::new(),
            budget: self.budget,
        }
    }

    /// Every closed cell's exact mine probability, the safest cells and the
    /// exact number of layouts. The total comes from the position; without
    /// one, `density` weighs a layout with `k` mines by `d^k (1−d)^(n−k)`.
    ///
    /// ```
    /// use sapper_engine::{Engine, Position};
    ///
    /// let engine = Engine::new()?;
    /// let report = engine.probabilities(&"mines 1\n?1?\n".parse::<Position>()?, None)?;
    /// assert_eq!(report.probability(0, 0), Some(0.5));
    /// assert_eq!(report.probability(0, 1), None); // a number, not closed
    /// assert_eq!(report.safest, [(0, 0).into(), (0, 2).into()]);
    /// assert_eq!(report.layouts.map(|l| l.to_string()), Some("2".into()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn probabilities(
        &self,
        position: &Position,
        density: Option<f64>,
    ) -> Result<ProbabilityReport, Error> {
        let options = ProbabilityOptions {
            density,
            ..ProbabilityOptions::default()
        };
        self.probabilities_with(&mut self.counter(), position, &options)
    }

    /// [`Engine::probabilities`] as `options` ask (a density, the analysis
    /// of the forced cells, the exact count up to a board size), counted
    /// with `counter`'s buffers. With `options.deductions`, the analysis
    /// and the count must find the same forced cells: a difference is an
    /// [`Error::Internal`].
    pub fn probabilities_with(
        &self,
        counter: &mut Counter,
        position: &Position,
        options: &ProbabilityOptions,
    ) -> Result<ProbabilityReport, Error> {
        let grid = position.grid;
        let analysis = if options.deductions {
            Some(self.analyse(position)?)
        } else {
            None
        };
        let board = Board::from_position(position);
        let p = counter.compute(&board, options.density)?;
        let (mut safe, mut mines) = (Vec::new(), Vec::new());
        // Every cell in order: the others' NaN equals neither.
        for (c, &x) in p.per_cell().iter().enumerate() {
            if x == 0.0 {
                safe.push(RowCol::of(grid, c as u32));
            } else if x == 1.0 {
                mines.push(RowCol::of(grid, c as u32));
            }
        }
        let deductions = match analysis {
            Some(a) => {
                let report = AnalysisReport::new(grid, &a);
                // Two complete analyses: the same forced cells, or a bug.
                if (&report.safe, &report.mines) != (&safe, &mines) {
                    return Err(Error::Internal(
                        "the analysis and the count disagree on the forced cells".into(),
                    ));
                }
                Some((report.deductions, report.by_source))
            }
            None => None,
        };
        let mut report = ProbabilityReport {
            rows: grid.h,
            cols: grid.w,
            per_cell: p.per_cell().to_vec(),
            unknown_left: p.closed_cells().len() - safe.len() - mines.len(),
            safe,
            mines,
            deductions,
            safest: RowCol::all(grid, p.safest_cells()),
            layouts: None,
            log10_layouts: p.log10_layouts(),
            error_bound: p.error_bound(),
        };
        if grid.len() <= options.layouts_up_to {
            report.layouts = Some(counter.layouts()?);
        }
        Ok(report)
    }

    /// The sapper player on this engine's rules and budget (each move
    /// starts its clock), guessing with `policy` when nothing is forced.
    pub fn player(&self, policy: Policy) -> SapperPlayer<'_> {
        SapperPlayer::new(self.rules.as_deref(), policy).with_budget(self.budget)
    }

    /// The player's move on `position`: every proven-safe cell (and the
    /// proven mines), or when nothing is forced its best guess with the
    /// guessed cell's mine probability. Without a total, a guess assumes
    /// the density [`DEFAULT_DENSITY`](crate::play::DEFAULT_DENSITY).
    ///
    /// ```
    /// use sapper_engine::{Engine, Position};
    ///
    /// let engine = Engine::new()?;
    /// let m = engine.next_move(&"mines 1\n???\n?1?\n???\n".parse::<Position>()?)?;
    /// assert_eq!(m.p_mine, Some(0.125)); // nothing is forced: one of eight
    /// assert_eq!(m.open.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn next_move(&self, position: &Position) -> Result<Move, Error> {
        self.player(Policy::SecondSafety)
            .next_move(&Board::from_position(position))
    }

    /// Plays `settings.games` seeded games with the sapper player and
    /// sums them up. Game `i` is drawn from `(settings.seed, i)` whatever
    /// the thread count, so a run gives the same summary on any machine.
    ///
    /// ```
    /// use sapper_engine::{Engine, Level, PlaySettings};
    ///
    /// let engine = Engine::new()?;
    /// let summary = engine.play(&PlaySettings::new(Level::BEGINNER).games(20).seed(3))?;
    /// assert_eq!(summary.games, 20);
    /// let (lo, hi) = summary.ci95();
    /// assert!(lo <= summary.win_rate() && summary.win_rate() <= hi);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&self, settings: &PlaySettings) -> Result<PlaySummary, Error> {
        self.play_with_progress(settings, &|_| {})
    }

    /// [`Engine::play`], calling `progress` with each game's record as it
    /// ends (from any thread, in no particular order).
    pub fn play_with_progress(
        &self,
        settings: &PlaySettings,
        progress: &(dyn Fn(&GameRecord) + Sync),
    ) -> Result<PlaySummary, Error> {
        self.play_each(settings, progress, &mut |_| {
            std::ops::ControlFlow::Continue(())
        })
    }

    /// [`Engine::play_with_progress`] streamed: `each` is called with every
    /// game's record in index order, as soon as it and the games before it
    /// have ended, on the calling thread. Games are played a chunk at a
    /// time, so any number of games runs in flat memory. `each` returning
    /// [`ControlFlow::Break`](std::ops::ControlFlow::Break) stops handing
    /// records to it; the games are still played and summed up.
    ///
    /// The engine budget's cancel switch, thrown, stops the run: no game
    /// starts after it, the games in progress give up at their player's
    /// next check, and the run ends with [`Error::OverBudget`]
    /// ([`Limit::Cancelled`](crate::budget::Limit::Cancelled)) before it
    /// hands `each` a record of a game that may have seen the switch.
    pub fn play_each(
        &self,
        settings: &PlaySettings,
        progress: &(dyn Fn(&GameRecord) + Sync),
        each: &mut dyn FnMut(&GameRecord) -> std::ops::ControlFlow<()>,
    ) -> Result<PlaySummary, Error> {
        self.play_games(settings, progress, false, &mut |r, _| each(r))
    }

    /// [`Engine::play_each`] with every game recorded: `each` also gets
    /// the game as a [`Replay`] of its clicks
    /// ([`crate::formats::replay::rawvf::write_rawvf`] writes it as a
    /// file), which [`Engine::review`] reviews as a person's game. The
    /// same games, moves and summary as [`Engine::play_each`].
    pub fn play_each_recorded(
        &self,
        settings: &PlaySettings,
        progress: &(dyn Fn(&GameRecord) + Sync),
        each: &mut dyn FnMut(&GameRecord, &Replay) -> std::ops::ControlFlow<()>,
    ) -> Result<PlaySummary, Error> {
        self.play_games(settings, progress, true, &mut |r, replay| {
            each(r, replay.expect("recorded"))
        })
    }

    fn play_games(
        &self,
        settings: &PlaySettings,
        progress: &(dyn Fn(&GameRecord) + Sync),
        record: bool,
        each: &mut dyn FnMut(&GameRecord, Option<&Replay>) -> std::ops::ControlFlow<()>,
    ) -> Result<PlaySummary, Error> {
        // Games held at once: enough to keep every thread busy (a chunk
        // ends when its slowest game does), few enough to be nothing.
        const CHUNK: u64 = 4096;
        let start = settings.start();
        let level = settings.level.check(settings.first_click, start)?;
        let header = record.then(|| settings.replay_header());
        let called_off = || format!("a run of {} games", settings.games);
        let t0 = Instant::now();
        let mut summary = PlaySummary::default();
        let mut handing = true;
        let mut next = 0;
        while next < settings.games {
            let end = next.saturating_add(CHUNK).min(settings.games);
            let records: Vec<(GameRecord, Option<Replay>)> = (next..end)
                .into_par_iter()
                .map(|index| {
                    self.budget.check_cancelled(called_off)?;
                    // A fresh player per game: the solver's method order
                    // adapts to what it has seen, so a player shared by the
                    // games one thread happens to get would credit
                    // deductions to methods differently from run to run.
                    let mut player = self
                        .player(settings.policy)
                        .with_endgame(settings.endgame_layouts)
                        .with_guessing(settings.guessing);
                    let (first_click, seed) = (settings.first_click, settings.seed);
                    let (r, replay) = match &header {
                        None => (
                            play::play_game(level, first_click, start, seed, index, &mut player)?,
                            None,
                        ),
                        Some(header) => {
                            let (r, replay) = play::play_game_recorded(
                                level,
                                first_click,
                                start,
                                seed,
                                index,
                                &mut player,
                                header.clone(),
                            )?;
                            (r, Some(replay))
                        }
                    };
                    progress(&r);
                    Ok((r, replay))
                })
                .collect::<Result<_, Error>>()?;
            // A game that saw the switch thrown may have ended otherwise
            // (a refinement out of budget is skipped, not an error): once
            // thrown, no record of this chunk is counted or handed on. A
            // game saw it only if this check does.
            self.budget.check_cancelled(called_off)?;
            for (r, replay) in &records {
                summary.add(r);
                if handing && each(r, replay.as_ref()).is_break() {
                    handing = false;
                }
            }
            next = end;
        }
        summary.seconds = t0.elapsed().as_secs_f64();
        Ok(summary)
    }

    /// No-guess boards as `request` asks: each solved by this engine from
    /// its start without a guess.
    ///
    /// ```
    /// use sapper_engine::{Engine, Level};
    /// use sapper_engine::generate::Request;
    ///
    /// let engine = Engine::new()?;
    /// let boards = engine.generate(&Request::new(Level::BEGINNER).count(3).seed(7))?;
    /// assert_eq!(boards.fields.len(), 3);
    /// for field in &boards.fields {
    ///     assert!(engine.solves_from(field, (3, 3))?);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn generate(&self, request: &Request) -> Result<Generated, Error> {
        self.generate_with_progress(request, &|_| {})
    }

    /// [`Engine::generate`], calling `progress(n)` as boards are accepted
    /// (from any thread).
    pub fn generate_with_progress(
        &self,
        request: &Request,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Generated, Error> {
        request.level.check(request.first_click, request.start)?;
        Ok(generate::generate(
            request,
            self.rules.as_deref(),
            &self.generation_budget(),
            progress,
        )?)
    }

    /// [`Engine::generate`] streamed: each board is handed to `emit` as
    /// soon as it and the boards before it are found, in order, so any
    /// count runs in flat memory; `emit` returning
    /// [`ControlFlow::Break`](std::ops::ControlFlow::Break) stops the run.
    ///
    /// Each layout is solved within the default limits
    /// ([`Budget::default_limits`]), whatever the engine's, so the boards
    /// depend on the request alone; the engine budget's cancel switch,
    /// thrown, stops the run within a solve ([`Error::OverBudget`] of
    /// [`Limit::Cancelled`](crate::budget::Limit::Cancelled)), before any
    /// board drawn after it is emitted.
    pub fn generate_each(
        &self,
        request: &Request,
        progress: &(dyn Fn(u64) + Sync),
        emit: &mut dyn FnMut(Field) -> std::ops::ControlFlow<()>,
    ) -> Result<generate::Tally, Error> {
        request.level.check(request.first_click, request.start)?;
        Ok(generate::generate_each(
            request,
            self.rules.as_deref(),
            &self.generation_budget(),
            progress,
            emit,
        )?)
    }

    /// What each layout of a generation is solved within: the default
    /// limits, whatever the engine's (the boards depend on the request
    /// alone), ended by the engine budget's cancel switch.
    fn generation_budget(&self) -> Budget {
        Budget::default_limits().with_cancel_of(&self.budget)
    }

    /// Whether no-guess play solves the layout of `field` from a click on
    /// `start` (the field's open cells are ignored): every safe cell is
    /// opened without a guess. A mine at `start` is an error.
    pub fn solves_from(&self, field: &Field, start: (usize, usize)) -> Result<bool, Error> {
        let grid = field.grid;
        if start.0 >= grid.h || start.1 >= grid.w {
            return Err(crate::InputError::at(
                start.0,
                start.1,
                format_args!("the start is off the {}×{} board", grid.h, grid.w),
            )
            .into());
        }
        let at = grid.index(start.0, start.1) as usize;
        if field.mine[at] {
            return Err(crate::InputError::at(start.0, start.1, "the start is a mine").into());
        }
        let mut open = vec![false; grid.len()];
        open[at] = true;
        let from_start = Field::from_mines(grid, field.mine.clone(), open);
        Ok(self.solve(&from_start)?.solved)
    }
}

/// Mine probabilities with buffers reused between positions
/// ([`Engine::counter`]).
///
/// ```
/// use sapper_engine::{Board, Engine, Position};
///
/// let engine = Engine::new()?;
/// let mut counter = engine.counter();
/// for text in ["mines 1\n?1?\n", "mines 2\n?1??\n"] {
///     let board = Board::from_position(&text.parse::<Position>()?);
///     let p = counter.compute(&board, None)?;
///     assert_eq!(p.least(), Some(0.5));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Counter {
    probabilities: Probabilities,
    budget: Budget,
}

impl Counter {
    /// Computes the probabilities of `board` (its total, else `density`);
    /// the result answers until the next call.
    pub fn compute(
        &mut self,
        board: &Board,
        density: Option<f64>,
    ) -> Result<&Probabilities, Error> {
        self.probabilities
            .compute(board, density, &self.budget.restarted())
            .map_err(|e| Error::from_probability(e, board.grid()))?;
        Ok(&self.probabilities)
    }

    /// The fewest and the most mines a layout of `board` can hold: over
    /// every layout of mines on its closed cells that fits its numbers,
    /// the least and the greatest total (its known mines — flags and
    /// proven mines — included); `None` when no layout fits. The board's
    /// total, if it states one, is ignored: the range is over all totals.
    /// The totals in between need not all fit (a group of cells may hold
    /// one mine or three, never two).
    ///
    /// A programme over the frontier finds it (microseconds on a played
    /// position); a frontier too wide for that programme is answered with
    /// a few counts under the counter's budget (whose clock starts once
    /// for the whole call), after which [`Counter::probabilities`] are
    /// those of a board of the search's, not of any board asked for.
    /// Errors: [`Error::OverBudget`] past the budget or when cancelled;
    /// [`Error::Inaccurate`] from a count, as [`Counter::compute`] gives
    /// it. A board no layout fits is not an error.
    ///
    /// ```
    /// use sapper_engine::{Board, Engine, Position};
    ///
    /// let engine = Engine::new()?;
    /// let mut counter = engine.counter();
    /// // The 1 sees two of the three closed cells; the third is free.
    /// let board = Board::from_position(&"?1??\n".parse::<Position>()?);
    /// assert_eq!(counter.mine_range(&board)?, Some((1, 2)));
    /// // The 2 needs both its closed neighbours, the 0 (`.`) none of its.
    /// let board = Board::from_position(&"?2?.\n".parse::<Position>()?);
    /// assert_eq!(counter.mine_range(&board)?, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mine_range(&mut self, board: &Board) -> Result<Option<(u32, u32)>, Error> {
        self.range_by(
            board,
            crate::probabilities::range::Method::Programme(
                crate::probabilities::range::Limits::FULL,
            ),
        )
    }

    /// [`Counter::mine_range`] with counts alone, never the frontier
    /// programme: the slower answer the programme is tested against.
    #[doc(hidden)]
    pub fn mine_range_by_counts(&mut self, board: &Board) -> Result<Option<(u32, u32)>, Error> {
        self.range_by(board, crate::probabilities::range::Method::Counts)
    }

    /// The range by `method`, under the counter's budget restarted.
    fn range_by(
        &mut self,
        board: &Board,
        method: crate::probabilities::range::Method,
    ) -> Result<Option<(u32, u32)>, Error> {
        crate::probabilities::range::mine_range(
            &mut self.probabilities,
            board,
            &self.budget.restarted(),
            method,
        )
        .map_err(|e| Error::from_probability(e, board.grid()))
    }

    /// Computes under `budget` from now on (its clock restarted at each
    /// call), not the engine's.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// The last computation's probabilities.
    pub fn probabilities(&self) -> &Probabilities {
        &self.probabilities
    }

    /// The exact number of layouts of the last board computed (with a
    /// density: of the layouts that fit its numbers and flags).
    pub fn layouts(&mut self) -> Result<BigUint, Error> {
        self.probabilities
            .layouts(&self.budget.restarted())
            .map_err(|e| match e {
                crate::probabilities::ProbabilityError::OverBudget(o) => Error::OverBudget(o),
                other => Error::Internal(other.to_string()),
            })
    }
}

/// What [`Engine::probabilities_with`] computes besides the probabilities.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbabilityOptions {
    /// Without a total in the position: each closed cell a mine with this
    /// chance, independently (`0 < d < 1`).
    pub density: Option<f64>,
    /// Also analyse the position with the rules and methods, to say what
    /// proves each forced cell (about as costly again as the count).
    pub deductions: bool,
    /// Count the layouts exactly (a big integer) on boards of at most this
    /// many cells; 0 never, `usize::MAX` always (the default).
    pub layouts_up_to: usize,
}

impl Default for ProbabilityOptions {
    fn default() -> Self {
        ProbabilityOptions {
            density: None,
            deductions: false,
            layouts_up_to: usize::MAX,
        }
    }
}

/// What [`Engine::play`] plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaySettings {
    /// Board size and mines.
    pub level: Level,
    /// What the first click is protected from.
    pub first_click: FirstClick,
    /// Where the first click goes; `None`: the rule's default
    /// ([`FirstClick::default_start`]).
    pub start: Option<(usize, usize)>,
    /// Games to play.
    pub games: u64,
    /// Seed of the layouts.
    pub seed: u64,
    /// How the player guesses.
    pub policy: Policy,
    /// Positions with at most this many layouts are played by exact search
    /// of the game tree; 0: never.
    pub endgame_layouts: usize,
    /// The refinements of [`Policy::SecondSafety`] (default: all on).
    pub guessing: Guessing,
}

impl PlaySettings {
    /// The header of the games' replays: sapper as the program, the player
    /// (`sapper <policy>`), the level, classic mode, no flags (the player
    /// never flags), no question marks.
    pub fn replay_header(&self) -> ReplayHeader {
        use crate::formats::replay::{GameMode, LevelName};
        let level = match self.level {
            Level::BEGINNER => LevelName::Beginner,
            Level::INTERMEDIATE => LevelName::Intermediate,
            Level::EXPERT => LevelName::Expert,
            _ => LevelName::Custom,
        };
        ReplayHeader {
            player: Some(format!("sapper {}", self.policy.name())),
            program: Some("sapper".to_string()),
            program_version: Some(env!("CARGO_PKG_VERSION").to_string()),
            level: Some(level),
            mode: Some(GameMode::Standard),
            no_flags: Some(true),
            question_marks: Some(false),
            ..ReplayHeader::default()
        }
    }

    /// 1000 games of `level`, classic rules (a safe first click in the
    /// top-left corner), seed 1, the default player.
    pub fn new(level: Level) -> PlaySettings {
        PlaySettings {
            level,
            first_click: FirstClick::Safe,
            start: None,
            games: 1000,
            seed: 1,
            policy: Policy::SecondSafety,
            endgame_layouts: ENDGAME_LAYOUTS,
            guessing: Guessing::default(),
        }
    }

    /// With `games` games.
    pub fn games(mut self, games: u64) -> PlaySettings {
        self.games = games;
        self
    }

    /// With `seed`.
    pub fn seed(mut self, seed: u64) -> PlaySettings {
        self.seed = seed;
        self
    }

    /// With the first click under `rule`, at `start` (`None`: the rule's
    /// default start).
    pub fn first_click(mut self, rule: FirstClick, start: Option<(usize, usize)>) -> PlaySettings {
        self.first_click = rule;
        self.start = start;
        self
    }

    /// Where the first click goes.
    pub fn start(&self) -> (usize, usize) {
        self.start
            .unwrap_or_else(|| self.first_click.default_start(self.level))
    }
}

/// The outcome of many games ([`Engine::play`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlaySummary {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Guesses over all games (the first click excluded).
    pub guesses: u64,
    /// Guesses over the games won.
    pub won_guesses: u64,
    /// Cells proven safe (and opened), by what proved them.
    pub opened_by: BySource,
    /// Wall time of the run, seconds.
    pub seconds: f64,
}

impl PlaySummary {
    /// Adds one game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        self.opened_by.merge(&r.opened_by);
        self.wins += u64::from(r.won);
        self.guesses += u64::from(r.guesses);
        if r.won {
            self.won_guesses += u64::from(r.guesses);
        }
    }

    /// Wins over games (0 with no game).
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }

    /// The 95% Wilson score interval of the win rate.
    pub fn ci95(&self) -> (f64, f64) {
        wilson(self.wins, self.games)
    }

    /// Guesses per game.
    pub fn guesses_per_game(&self) -> f64 {
        self.guesses as f64 / self.games.max(1) as f64
    }

    /// Guesses per won game (0 with no win).
    pub fn guesses_per_won_game(&self) -> f64 {
        if self.wins > 0 {
            self.won_guesses as f64 / self.wins as f64
        } else {
            0.0
        }
    }

    /// Games per second of wall time.
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.seconds
    }
}

/// The Wilson score interval of `wins` out of `n` at 95%.
pub fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, wins as f64 / n as f64);
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let d = 1.0 + z * z / n;
    ((centre - half) / d, (centre + half) / d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against values computed by hand from the formula.
    #[test]
    fn wilson_interval_matches_the_formula() {
        let (lo, hi) = wilson(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0, 10);
        assert!(lo.abs() < 1e-12 && (hi - 0.2775).abs() < 1e-4, "{lo} {hi}");
    }

    fn cancelled(e: &Error) -> bool {
        matches!(e, Error::OverBudget(o) if o.limit == crate::budget::Limit::Cancelled)
    }

    /// The engine with a cancel switch, and the switch.
    fn with_switch() -> (Engine, crate::budget::Cancel) {
        let cancel = crate::budget::Cancel::new();
        let engine = Engine::new().unwrap();
        let budget = engine.budget().with_cancel(&cancel);
        (engine.with_budget(budget), cancel)
    }

    #[test]
    fn a_switch_not_thrown_changes_no_game_and_no_board() {
        let (switched, _cancel) = with_switch();
        let engine = Engine::new().unwrap();
        let settings = PlaySettings::new(Level::BEGINNER).games(300).seed(4);
        let (a, b) = (
            engine.play(&settings).unwrap(),
            switched.play(&settings).unwrap(),
        );
        assert_eq!(
            PlaySummary { seconds: 0.0, ..a },
            PlaySummary { seconds: 0.0, ..b }
        );
        for sampling in [generate::Sampling::Uniform, generate::Sampling::Fast] {
            let level = Level {
                rows: 9,
                cols: 9,
                mines: 20,
            };
            let request = Request::new(level).count(6).seed(3).sampling(sampling);
            let (a, b) = (
                engine.generate(&request).unwrap(),
                switched.generate(&request).unwrap(),
            );
            assert_eq!(a.fields, b.fields);
            assert_eq!((a.attempts, a.undecided), (b.attempts, b.undecided));
        }
    }

    #[test]
    fn a_thrown_switch_stops_a_run_of_games_before_it_hands_on_a_record() {
        let (engine, cancel) = with_switch();
        let settings = PlaySettings::new(Level::BEGINNER).games(1_000_000);
        let played = std::sync::atomic::AtomicU64::new(0);
        let mut handed = 0;
        let progress = |_: &GameRecord| {
            if played.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 20 {
                cancel.cancel();
            }
        };
        let err = engine
            .play_each(&settings, &progress, &mut |_| {
                handed += 1;
                std::ops::ControlFlow::Continue(())
            })
            .unwrap_err();
        assert!(cancelled(&err), "{err}");
        assert_eq!(
            err.to_string(),
            "a run of 1000000 games was called off before it ended"
        );
        // The first chunk is 4,096 games: those not begun were skipped.
        assert_eq!(handed, 0);
        assert!(played.into_inner() < 1000);
    }

    #[test]
    fn a_thrown_switch_stops_generation_within_a_board() {
        // No uniform attempt at this density is no-guess, and one repaired
        // board takes many solves: only the switch ends either soon.
        let level = Level {
            rows: 16,
            cols: 30,
            mines: 170,
        };
        for sampling in [generate::Sampling::Uniform, generate::Sampling::Fast] {
            let (engine, cancel) = with_switch();
            let request = Request::new(level).count(1000).sampling(sampling);
            let t0 = Instant::now();
            let mut emitted = 0;
            let err = std::thread::scope(|s| {
                s.spawn(|| {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                    cancel.cancel();
                });
                engine.generate_each(&request, &|_| {}, &mut |_| {
                    emitted += 1;
                    std::ops::ControlFlow::Continue(())
                })
            })
            .unwrap_err();
            assert!(cancelled(&err), "{sampling:?}: {err}");
            assert_eq!(
                err.to_string(),
                "generating 1000 boards was called off before it ended"
            );
            assert_eq!(emitted, 0, "{sampling:?}");
            let seconds = t0.elapsed().as_secs_f64();
            assert!(seconds < 5.0, "{sampling:?}: {seconds} s");
        }
    }

    #[test]
    fn the_engine_is_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Engine>();
    }
}
