//! The solver: repeat "find forced cells, apply them" to a fixpoint.
//!
//! Each round tries the methods in increasing measured `t_c`
//! ([`MethodTable::order`]); the first that proves anything has its cells
//! applied and the round ends. When a round finds nothing the board is at
//! its fixpoint: since `hypotheses` is complete, no closed cell left is
//! forced.
//!
//! Two ways to apply a proven-safe cell:
//! - [`solve_field`] (ground truth known): open it, showing its number from
//!   the truth; an open 0 opens its neighbours, as in the game. A cell that
//!   is not proven safe is never opened: applying a deduction the truth
//!   contradicts is reported as [`SolveError::Unsound`], never hidden.
//! - [`analyse_position`] (no truth): mark it `Safe` (no number).
//!
//! Rules first: when a [`RuleIndex`](crate::rules::index::RuleIndex) is given, every round starts by
//! matching the rulebase around the numbers that changed; the methods run
//! only when no rule fires.
//!
//! Incremental work: the rule layer and the local methods (single-cell,
//! linked cells 1) keep a list of the revealed numbers whose neighbourhood
//! changed since they last ran; the global methods run again only if
//! anything changed since their last failed attempt.

use crate::board::{Board, Cell, Contradiction, Field, Forced, Method, Position, Source, Value};
use crate::budget::{Budget, OverBudget};
use crate::constraints::{check_number, remaining_mines};
use crate::methods::{self, MethodError, MethodTable};
pub use crate::rules::index::RuleTiers;
use std::time::Instant;

/// Which deduction layers run: the rulebase (matched first, every round)
/// and/or the four methods (only when no rule fires).
#[derive(Clone, Copy)]
pub struct Layers<'r> {
    /// The rulebase to match first every round; `None`: no rule layer.
    pub rules: Option<&'r RuleTiers>,
    /// Whether the four methods run when no rule fires.
    pub methods: bool,
    /// Time and memory for the exact methods, per solve: each call of
    /// [`solve_field_with`] or [`analyse_position_with`] restarts its clock.
    pub budget: Budget,
}

impl Layers<'_> {
    /// The four methods alone, unbounded.
    pub const METHODS_ONLY: Layers<'static> = Layers {
        rules: None,
        methods: true,
        budget: Budget::unlimited(),
    };
}

/// Called with the board *before* a method's deduction is applied (for
/// learning rules from it).
pub type Observer<'o> = &'o mut dyn FnMut(&Board, Forced, Method);

/// Why solving stopped with an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The board admits no mine layout.
    Contradiction(Contradiction),
    /// A deduction disagreed with the ground truth: a bug, reported loudly.
    Unsound {
        /// The cell concluded (row-major index).
        cell: u32,
        /// The value concluded, which the ground truth contradicts.
        value: Value,
        /// The rule layer or method that concluded it.
        source: Source,
    },
    /// An exact method gave up within the budget: the field is neither
    /// solved nor known to be stuck.
    OverBudget(OverBudget),
}

/// A deduction the ground truth contradicts, in words (cell as `(row,col)`).
pub(crate) fn unsound_text(grid: crate::Grid, cell: u32, value: Value, source: Source) -> String {
    let (row, col) = grid.rc(cell);
    format!(
        "{} concluded ({row},{col}) is {value}, the ground truth disagrees",
        source.name()
    )
}

impl SolveError {
    /// The error in words, cells as `(row,col)` on `grid`.
    pub fn describe(&self, grid: crate::Grid) -> String {
        match self {
            SolveError::Contradiction(c) => format!("field is inconsistent: {}", c.describe(grid)),
            SolveError::OverBudget(o) => format!("refused: {o}"),
            SolveError::Unsound {
                cell,
                value,
                source,
            } => format!(
                "internal error: {}",
                unsound_text(grid, *cell, *value, *source)
            ),
        }
    }
}

/// Without the grid, cells are named by index: [`SolveError::describe`]
/// names them by row and column.
impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Contradiction(c) => write!(f, "field is inconsistent: {c}"),
            SolveError::OverBudget(o) => write!(f, "refused: {o}"),
            SolveError::Unsound {
                cell,
                value,
                source,
            } => write!(
                f,
                "internal error: {} concluded cell {cell} is {value}, the ground truth disagrees",
                source.name()
            ),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<Contradiction> for SolveError {
    fn from(c: Contradiction) -> Self {
        SolveError::Contradiction(c)
    }
}

impl From<MethodError> for SolveError {
    fn from(e: MethodError) -> Self {
        match e {
            MethodError::Contradiction(c) => SolveError::Contradiction(c),
            MethodError::OverBudget(o) => SolveError::OverBudget(o),
        }
    }
}

/// Cells determined, by source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BySource {
    /// Cells determined by rules, by rule order (index = order, 1..=3 used).
    pub rules_by_order: [u64; 4],
    /// Cells determined by each method ([`Method::index`]).
    pub methods: [u64; 4],
}

impl BySource {
    /// Cells determined by rules, all orders together.
    pub fn rules(&self) -> u64 {
        self.rules_by_order.iter().sum()
    }
    /// Cells determined by rules and methods together.
    pub fn total(&self) -> u64 {
        self.rules() + self.methods.iter().sum::<u64>()
    }
    /// Counts `n` cells determined by `s` (a rule of order above 3 is
    /// counted under order 3).
    pub fn add(&mut self, s: Source, n: u64) {
        match s {
            Source::Rule { order } => self.rules_by_order[order.min(3) as usize] += n,
            Source::Method(m) => self.methods[m.index()] += n,
        }
    }
    /// Adds `o`'s counts to these (several solves combined).
    pub fn merge(&mut self, o: &BySource) {
        for k in 0..4 {
            self.rules_by_order[k] += o.rules_by_order[k];
            self.methods[k] += o.methods[k];
        }
    }
}

/// One proven cell and what proved it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deduction {
    /// The cell proven (row-major index; [`crate::Grid::rc`] gives its
    /// 0-based row and column).
    pub cell: u32,
    /// The value it has in every layout.
    pub value: Value,
    /// The rule layer or method that proved it.
    pub source: Source,
}

/// One rule-layer call in this many is timed, chosen at random: the rule
/// layer's `t_s` and `t_u` are means over the timed calls (unbiased — the
/// choice does not depend on the call), its counts are exact. A call is
/// often shorter than two reads of the clock; the methods, whose measured
/// `t_c` orders them, are timed on every attempt.
pub const RULE_TIMING_ONE_IN: u32 = 8;
const _: () = assert!(RULE_TIMING_ONE_IN.is_power_of_two());

/// A deterministic random choice of calls to time, one in
/// [`RULE_TIMING_ONE_IN`] (xorshift32, fixed seed: the same calls are
/// timed on every run).
struct TimingSample(u32);

impl TimingSample {
    fn new() -> TimingSample {
        TimingSample(0x9E37_79B9)
    }
    #[inline]
    fn next(&mut self) -> bool {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        // A power of two: the low bits are a uniform choice.
        x & (RULE_TIMING_ONE_IN - 1) == 0
    }
}

/// How a proven cell is applied to the board.
trait Apply {
    /// Applies `f`; pushes every cell whose state changed to `changed`.
    fn apply(
        &mut self,
        board: &mut Board,
        f: Forced,
        source: Source,
        changed: &mut Vec<u32>,
    ) -> Result<(), SolveError>;
    /// True when there is nothing left worth deducing.
    fn done(&self, board: &Board) -> bool;
}

/// Solve mode: safe cells are opened from the ground truth.
struct OpenFromTruth<'f> {
    field: &'f Field,
    revealed: usize,
    stack: Vec<u32>,
}

impl OpenFromTruth<'_> {
    /// Opens `cell` (known safe) and flood-fills from 0s.
    fn open(&mut self, board: &mut Board, cell: u32, changed: &mut Vec<u32>) {
        self.stack.push(cell);
        while let Some(c) = self.stack.pop() {
            if matches!(board.cell(c), Cell::Revealed(_) | Cell::Mine) {
                continue;
            }
            let v = self.field.value[c as usize];
            board.set(c, Cell::Revealed(v));
            self.revealed += 1;
            changed.push(c);
            if v == 0 {
                // A 0 has no mine around it: the game opens every neighbour.
                for &n in &board.grid().neighbours(c) {
                    if matches!(board.cell(n), Cell::Unknown | Cell::Safe) {
                        self.stack.push(n);
                    }
                }
            }
        }
    }
}

impl Apply for OpenFromTruth<'_> {
    fn apply(
        &mut self,
        board: &mut Board,
        f: Forced,
        source: Source,
        changed: &mut Vec<u32>,
    ) -> Result<(), SolveError> {
        let is_mine = self.field.mine[f.cell as usize];
        if is_mine != (f.value == Value::Mine) {
            return Err(SolveError::Unsound {
                cell: f.cell,
                value: f.value,
                source,
            });
        }
        match f.value {
            Value::Safe => self.open(board, f.cell, changed),
            Value::Mine => {
                board.set(f.cell, Cell::Mine);
                changed.push(f.cell);
            }
        }
        Ok(())
    }
    fn done(&self, _board: &Board) -> bool {
        self.revealed == self.field.safe_cells()
    }
}

/// Analyse mode: safe cells become `Safe`, mines `Mine`.
struct MarkOnly;

impl Apply for MarkOnly {
    fn apply(
        &mut self,
        board: &mut Board,
        f: Forced,
        _source: Source,
        changed: &mut Vec<u32>,
    ) -> Result<(), SolveError> {
        board.set(f.cell, Cell::known(f.value));
        changed.push(f.cell);
        Ok(())
    }
    fn done(&self, _board: &Board) -> bool {
        false
    }
}

/// The fixpoint loop's state.
pub(crate) struct Solver<'t> {
    board: Board,
    table: &'t mut MethodTable,
    layers: Layers<'t>,
    /// The change log: revealed numbers whose equation changed, in order,
    /// possibly repeated. Each local layer (single-cell, linked cells 1,
    /// then one per rule tier) has a cursor into it: its dirty numbers are
    /// the log past its cursor. One push per change serves every layer.
    changes: Vec<u32>,
    cursor: Vec<usize>,
    /// Log positions dropped from the front of `changes` so far: position
    /// `p` of the log is `changes[p - dropped]`.
    dropped: u64,
    /// The furthest any layer has read: every layer reads every log entry
    /// at or past this position.
    read_to: u64,
    /// Per cell: 1 + the log position of its latest entry (0: none). A
    /// number already logged at or past `read_to` is not logged again —
    /// every layer will see that entry — so a flood fill that touches a
    /// number from eight sides logs it once.
    logged_at: Vec<u64>,
    /// Dedupe stamps for [`Solver::take_dirty`] (a lagging layer's part of
    /// the log can still name a number several times).
    seen: Vec<u32>,
    stamp: u32,
    /// Scratch for [`Solver::apply_all`]: the cells one deduction changed.
    changed: Vec<u32>,
    /// Which rule-layer calls are timed.
    rule_timing: TimingSample,
    /// Per global method (linked cells 2, hypotheses): board changed since
    /// its last failed attempt.
    stale: [bool; 2],
    /// This solve's time and memory, started when the solver was made.
    budget: Budget,
    by_source: BySource,
    log: Vec<Deduction>,
}

fn local_slot(m: Method) -> Option<usize> {
    match m {
        Method::SingleCell => Some(0),
        Method::LinkedCells1 => Some(1),
        _ => None,
    }
}

/// The first rule tier's dirty list (tier `t` uses `FIRST_RULE_SLOT + t`).
const FIRST_RULE_SLOT: usize = 2;

fn global_slot(m: Method) -> usize {
    match m {
        Method::LinkedCells2 => 0,
        _ => 1,
    }
}

impl<'t> Solver<'t> {
    fn new(board: Board, layers: Layers<'t>, table: &'t mut MethodTable) -> Solver<'t> {
        let n = board.grid().len();
        let mut s = Solver {
            board,
            table,
            layers,
            // Room for the usual amount of changes: growing it by
            // doubling costs copies and allocator calls on every field.
            changes: Vec::with_capacity(2 * n),
            cursor: vec![0; FIRST_RULE_SLOT + layers.rules.map_or(0, |r| r.tiers.len())],
            dropped: 0,
            read_to: 0,
            logged_at: vec![0; n],
            seen: vec![0; n],
            stamp: 0,
            changed: Vec::new(),
            rule_timing: TimingSample::new(),
            stale: [true, true],
            budget: layers.budget.restarted(),
            by_source: BySource::default(),
            log: Vec::with_capacity(n / 2),
        };
        // Every revealed number starts dirty.
        for i in 0..n as u32 {
            if matches!(s.board.cell(i), Cell::Revealed(_)) {
                s.mark_dirty_number(i);
            }
        }
        s
    }

    /// Logs the revealed number `i` as changed, unless an entry every
    /// layer has still to read already names it.
    #[inline]
    fn mark_dirty_number(&mut self, i: u32) {
        if self.logged_at[i as usize] <= self.read_to {
            self.logged_at[i as usize] = self.dropped + self.changes.len() as u64 + 1;
            self.changes.push(i);
        }
    }

    /// Whether layer `k` has changed numbers to look at.
    #[inline]
    fn has_dirty(&self, k: usize) -> bool {
        self.cursor[k] < self.changes.len()
    }

    /// A cell changed state: the numbers around it (and it, if revealed)
    /// have a new equation.
    fn note_changed(&mut self, c: u32) {
        // Branch-free: whether each of the nine cells is a revealed number
        // not logged since the last read is as good as random. Every
        // candidate is written to `batch`; only those that qualify advance
        // `len`.
        let around = self.board.grid().neighbours_by_direction(c);
        let mut batch = [0u32; 9];
        let mut len = 0;
        let next = self.dropped + self.changes.len() as u64 + 1;
        let mut consider = |this: &mut Self, n: u32, inside: bool| {
            let idx = if inside { n as usize } else { c as usize };
            let log = inside
                & matches!(this.board.cell(idx as u32), Cell::Revealed(_))
                & (this.logged_at[idx] <= this.read_to);
            batch[len] = n;
            this.logged_at[idx] = if log {
                next + len as u64
            } else {
                this.logged_at[idx]
            };
            len += log as usize;
        };
        consider(self, c, true);
        for d in 0..8 {
            consider(self, around.cells[d], around.inside >> d & 1 == 1);
        }
        // All nine written (a fixed-size copy), the qualifying `len` kept.
        let start = self.changes.len();
        self.changes.extend_from_slice(&batch);
        self.changes.truncate(start + len);
        self.stale = [true, true];
    }

    /// Moves dirty list `k` into `into`, keeping only numbers that still
    /// have an unknown neighbour (the others can prove nothing).
    ///
    /// A dirty number whose known mines exceed it, or that needs more mines
    /// than it has closed neighbours, is a contradiction: no layout fits.
    /// Checked here because the layers cannot all see it: the numbers left
    /// out have no closed neighbour, and no rule pattern can hold a
    /// negative effective value (e.g. `??` over `12`: the order-1 rule of
    /// the 2 flags both cells, after which the 1 has two mines around it).
    fn take_dirty(&mut self, k: usize, into: &mut Vec<u32>) -> Result<(), Contradiction> {
        into.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let from = self.cursor[k];
        into.reserve(self.changes.len() - from);
        for &i in &self.changes[from..] {
            let (need, closed) = self
                .board
                .effective(i)
                .expect("dirty lists hold revealed numbers only");
            // Inline the test; only an impossible number builds its error.
            if need < 0 || need > closed as i32 {
                check_number(i, need, closed)?;
            }
            // Keep each number once, and only if it has a closed neighbour —
            // branch-free (which numbers repeat, and which are finished, is
            // as good as random): every number is pushed, and popped again
            // unless it qualifies.
            let fresh = self.seen[i as usize] != stamp;
            self.seen[i as usize] = stamp;
            into.push(i);
            let keep = fresh & (closed > 0);
            into.truncate(into.len() - 1 + keep as usize);
        }
        self.cursor[k] = self.changes.len();
        self.read_to = self.dropped + self.changes.len() as u64;
        // Drop the log's prefix every layer has read, so it stays short.
        let done = *self.cursor.iter().min().expect("at least two layers");
        if done >= 1024 && done * 2 >= self.changes.len() {
            self.changes.drain(..done);
            self.dropped += done as u64;
            for c in &mut self.cursor {
                *c -= done;
            }
        }
        Ok(())
    }

    /// Applies proven cells (skipping cells already settled by an earlier
    /// one, e.g. opened by a flood fill).
    fn apply_all(
        &mut self,
        apply: &mut dyn Apply,
        found: &[(Forced, Source)],
        mut observer: Option<&mut Observer<'_>>,
    ) -> Result<u64, SolveError> {
        let mut changed = std::mem::take(&mut self.changed);
        let mut applied = 0;
        for &(f, source) in found {
            if !self.board.cell(f.cell).is_unknown() {
                continue;
            }
            if let (Some(obs), Source::Method(m)) = (observer.as_mut(), source) {
                obs(&self.board, f, m);
            }
            self.by_source.add(source, 1);
            applied += 1;
            self.log.push(Deduction {
                cell: f.cell,
                value: f.value,
                source,
            });
            changed.clear();
            apply.apply(&mut self.board, f, source, &mut changed)?;
            for &c in &changed {
                self.note_changed(c);
            }
        }
        self.changed = changed;
        Ok(applied)
    }

    fn run_to_fixpoint(
        &mut self,
        apply: &mut dyn Apply,
        mut observer: Option<Observer<'_>>,
    ) -> Result<(), SolveError> {
        let mut found: Vec<Forced> = Vec::new();
        let mut by_rule: Vec<(Forced, u8)> = Vec::new();
        let mut proven: Vec<(Forced, Source)> = Vec::new();
        let mut dirty_now: Vec<u32> = Vec::new();
        'rounds: while !apply.done(&self.board) {
            // The total must still fit: the known mines cannot exceed it,
            // nor can the mines still to place exceed the closed cells.
            // The total belongs to the methods' system (linked cells 2,
            // hypotheses); the rule layer alone never reads it, by
            // definition — it is what single numbers and pairs allow.
            if self.layers.methods {
                if let Some(left) = self.board.remaining_mines() {
                    if left < 0 || left > self.board.unknown_count() as i64 {
                        remaining_mines(&self.board)?;
                    }
                }
            }
            // Rules first: match the rulebase around every number whose
            // neighbourhood changed. A matching forced rule is a proof (each
            // rule was proven by enumeration over its own window); a
            // matching forbidden rule means the board has no layout.
            if let Some(rules) = self.layers.rules {
                for (t, (_, index)) in rules.tiers.iter().enumerate() {
                    let slot = FIRST_RULE_SLOT + t;
                    if !self.has_dirty(slot) {
                        continue;
                    }
                    self.take_dirty(slot, &mut dirty_now)?;
                    if dirty_now.is_empty() {
                        continue;
                    }
                    by_rule.clear();
                    // A random sample of the calls is timed (a clock read
                    // costs about as much as a short call).
                    let t0 = self.rule_timing.next().then(Instant::now);
                    // An order-1 tier with a flat table answers without
                    // sorting (cells in the order found, possibly twice;
                    // `apply_all` skips a cell already settled); otherwise
                    // `find` gives each cell once, sorted, credited to the
                    // lowest order that proves it.
                    let result = index
                        .find_order1_unsorted(&self.board, &dirty_now, &mut by_rule)
                        .unwrap_or_else(|| index.find(&self.board, Some(&dirty_now), &mut by_rule));
                    let nanos = t0.map(|t0| t0.elapsed().as_nanos() as u64);
                    result?;
                    by_rule.retain(|(f, _)| self.board.cell(f.cell).is_unknown());
                    self.table.rules.record(!by_rule.is_empty(), nanos);
                    if by_rule.is_empty() {
                        continue;
                    }
                    proven.clear();
                    proven.extend(
                        by_rule
                            .iter()
                            .map(|&(f, order)| (f, Source::Rule { order })),
                    );
                    // Cells counted as applied: a flood fill from an earlier
                    // one may have opened some already.
                    self.table.rules.cells += self.apply_all(apply, &proven, None)?;
                    continue 'rounds;
                }
            }
            if !self.layers.methods {
                break;
            }
            for method in self.table.order() {
                if !self.table.enabled(method) {
                    continue;
                }
                // Skip attempts that cannot find anything new: a local
                // method with no changed number, a global one on a board it
                // already failed on.
                let dirty: Option<&[u32]> = match local_slot(method) {
                    Some(k) => {
                        if !self.has_dirty(k) {
                            continue;
                        }
                        self.take_dirty(k, &mut dirty_now)?;
                        if dirty_now.is_empty() {
                            continue;
                        }
                        Some(&dirty_now)
                    }
                    None => {
                        if !self.stale[global_slot(method)] {
                            continue;
                        }
                        None
                    }
                };
                found.clear();
                let t0 = Instant::now();
                let result = methods::run(method, &self.board, dirty, &self.budget, &mut found);
                let nanos = t0.elapsed().as_nanos() as u64;
                let work = result?;
                // Keep each cell once, and only cells still unknown.
                found.sort_unstable();
                found.dedup_by_key(|f| f.cell);
                found.retain(|f| self.board.cell(f.cell).is_unknown());
                // Every method attempt is timed: the order depends on it.
                self.table
                    .get_mut(method)
                    .record_work(!found.is_empty(), Some(nanos), work);
                if found.is_empty() {
                    if local_slot(method).is_none() {
                        self.stale[global_slot(method)] = false;
                    }
                    continue;
                }
                let source = Source::Method(method);
                proven.clear();
                proven.extend(found.iter().map(|&f| (f, source)));
                self.table.get_mut(method).cells +=
                    self.apply_all(apply, &proven, observer.as_mut())?;
                self.table.reorder();
                continue 'rounds;
            }
            // No method found anything: fixpoint.
            break;
        }
        Ok(())
    }
}

/// The outcome of solving a field with ground truth.
#[derive(Clone, Debug)]
pub struct SolveOutcome {
    /// Whether every safe cell was opened (else the field is stuck: a
    /// guess is needed).
    pub solved: bool,
    /// Open safe cells at the end, start included.
    pub opened_safe_cells: usize,
    /// Cells determined, by what determined them.
    pub by_source: BySource,
    /// Every deduction applied, in the order applied.
    pub deductions: Vec<Deduction>,
    /// The board at the fixpoint: opened cells show their numbers, forced
    /// mines are known mines.
    pub board: Board,
}

/// The board at the start of play: the open cells, with 0s opened as in the
/// game.
pub fn starting_board(field: &Field) -> (Board, usize) {
    let n = field.grid.len();
    let mut board = Board::all_unknown(field.grid, Some(field.total_mines));
    let mut opener = OpenFromTruth {
        field,
        revealed: 0,
        stack: Vec::new(),
    };
    let mut changed = Vec::new();
    for i in 0..n as u32 {
        if field.open_at_start[i as usize] && !field.mine[i as usize] {
            opener.open(&mut board, i, &mut changed);
        }
    }
    (board, opener.revealed)
}

/// Solves a field by no-guess play: open only proven-safe cells until every
/// safe cell is open (solved) or nothing is forced (stuck).
pub fn solve_field(field: &Field, table: &mut MethodTable) -> Result<SolveOutcome, SolveError> {
    solve_field_with(field, Layers::METHODS_ONLY, table, None)
}

/// [`solve_field`] with a choice of layers (rules first, then methods), and
/// an optional observer of every method deduction (for learning).
pub fn solve_field_with(
    field: &Field,
    layers: Layers<'_>,
    table: &mut MethodTable,
    observer: Option<Observer<'_>>,
) -> Result<SolveOutcome, SolveError> {
    let (board, revealed) = starting_board(field);
    let mut opener = OpenFromTruth {
        field,
        revealed,
        stack: Vec::new(),
    };
    let mut solver = Solver::new(board, layers, table);
    solver.run_to_fixpoint(&mut opener, observer)?;
    Ok(SolveOutcome {
        solved: opener.revealed == field.safe_cells(),
        opened_safe_cells: opener.revealed,
        by_source: solver.by_source,
        deductions: solver.log,
        board: solver.board,
    })
}

/// Every forced cell of a position, to the fixpoint: proven-safe cells
/// become known safe (no number), forced mines known mines.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Every forced cell, in the order it was applied.
    pub deductions: Vec<Deduction>,
    /// Forced cells, by what proved them.
    pub by_source: BySource,
    /// The position at the fixpoint: proven-safe cells `Safe`, forced mines
    /// `Mine`.
    pub board: Board,
}

/// Unbounded in time and memory (tests, oracles): only a contradiction
/// can fail it.
pub fn analyse_position(
    position: &Position,
    table: &mut MethodTable,
) -> Result<Analysis, Contradiction> {
    match analyse_position_with(position, Layers::METHODS_ONLY, table) {
        Ok(analysis) => Ok(analysis),
        Err(MethodError::Contradiction(c)) => Err(c),
        Err(MethodError::OverBudget(o)) => unreachable!("an unlimited budget ran out: {o}"),
    }
}

/// [`analyse_position`] with a choice of layers: `rules` only gives the rule
/// layer's own fixpoint (what the rulebase's orders allow), `methods` only
/// the four methods (complete), both the usual rules-first analysis. Fails
/// with [`MethodError::OverBudget`] when the exact methods give up within
/// the layers' budget.
pub fn analyse_position_with(
    position: &Position,
    layers: Layers<'_>,
    table: &mut MethodTable,
) -> Result<Analysis, MethodError> {
    let mut solver = Solver::new(Board::from_position(position), layers, table);
    match solver.run_to_fixpoint(&mut MarkOnly, None) {
        Ok(()) => {}
        Err(SolveError::Contradiction(c)) => return Err(c.into()),
        Err(SolveError::OverBudget(o)) => return Err(o.into()),
        Err(SolveError::Unsound { .. }) => unreachable!("analysis has no ground truth"),
    }
    Ok(Analysis {
        deductions: solver.log,
        by_source: solver.by_source,
        board: solver.board,
    })
}
