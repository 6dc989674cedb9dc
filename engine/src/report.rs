//! The engine's answers as data: one serialisable type per capability,
//! written once here and printed by every front end — `sapper` prints them
//! with `serde_json`, `sapper serve` answers them as JSON, the Python
//! package converts them to dicts — so the three cannot drift apart.
//!
//! | capability | answer | CLI | server | Python |
//! |---|---|---|---|---|
//! | forced cells | [`AnalysisReport`] | `analyse --json` | `/api/analyse` | `analyse` |
//! | probabilities | [`ProbabilityReport`] | `analyse --probabilities --json` | `/api/probabilities` | `probabilities` (an array) |
//! | the player's move | [`MoveReport`] | `engine` | `/api/move` | `next_move` |
//! | a no-guess board | [`BoardReport`] | `generate` (JSON lines) | `/api/generate` | `generate` (an array) |
//! | many games | [`PlayReport`] | `play --json` | — | `play` |
//! | one game of many | [`GameLine`] | `play --games-json` | — | — |
//! | solving a field | [`SolveReport`] | `solve --json` | — | — |
//! | a recorded game | [`Review`](crate::review::Review) (in [`Filed`]) | `review --json` | `/api/review` | `review` |
//! | a recorded game's content | [`ReplayReport`](crate::review::ReplayReport) | — | — | `read_replay` |
//! | board metrics | [`Metrics`](crate::metrics::Metrics) | `metrics --json` | — | `metrics` |
//!
//! Cells are `[row, col]` from 0 ([`RowCol`]); keys appear in the order of
//! each type's fields. The types borrow what they can and allocate little:
//! a probability report of a million cells is written straight from the
//! counter's per-cell slice.
//!
//! ```
//! use sapper_engine::{Engine, Position};
//! use sapper_engine::report::AnalysisReport;
//!
//! let engine = Engine::new()?;
//! let position: Position = "mines 2\n???\n121\n...\n".parse()?;
//! let analysis = engine.analyse(&position)?;
//! let report = AnalysisReport::new(position.grid, &analysis);
//! assert_eq!(report.safe, [(0, 1).into()]);
//! assert_eq!(report.unknown_left, 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::board::{Field, Method, Source, Value};
use crate::game::{FirstClick, Level};
use crate::grid::Grid;
use crate::play::{GameRecord, Move};
use crate::solver::{Analysis, BySource};
use crate::{PlaySettings, PlaySummary};
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

/// A cell by row and column from 0, serialised `[row, col]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RowCol {
    /// The row, from 0.
    pub row: usize,
    /// The column, from 0.
    pub col: usize,
}

impl RowCol {
    /// The cell `index` (row-major) of `grid`.
    pub fn of(grid: Grid, index: u32) -> RowCol {
        grid.rc(index).into()
    }

    /// Every cell of `cells` (row-major indices) of `grid`, in order.
    pub fn all(grid: Grid, cells: impl IntoIterator<Item = u32>) -> Vec<RowCol> {
        cells.into_iter().map(|c| RowCol::of(grid, c)).collect()
    }
}

impl From<(usize, usize)> for RowCol {
    fn from((row, col): (usize, usize)) -> RowCol {
        RowCol { row, col }
    }
}

impl From<RowCol> for (usize, usize) {
    fn from(c: RowCol) -> (usize, usize) {
        (c.row, c.col)
    }
}

impl std::fmt::Display for RowCol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// A list of two (not a tuple): JSON `[r, c]`, a Python list.
impl Serialize for RowCol {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(2))?;
        seq.serialize_element(&self.row)?;
        seq.serialize_element(&self.col)?;
        seq.end()
    }
}

/// `{"rules": n, "single_cell": n, "linked_cells_1": n, "linked_cells_2":
/// n, "hypotheses": n}`: cells determined by each source.
impl Serialize for BySource {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1 + Method::ALL.len()))?;
        map.serialize_entry("rules", &self.rules())?;
        for m in Method::ALL {
            map.serialize_entry(m.name(), &self.methods[m.index()])?;
        }
        map.end()
    }
}

/// `{"1": n, "2": n, "3": n}`: the cells of a [`BySource`] determined by
/// rules of each order.
#[derive(Clone, Copy, Debug)]
pub struct ByRuleOrder<'a>(pub &'a BySource);

impl Serialize for ByRuleOrder<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        const ORDERS: [&str; 3] = ["1", "2", "3"];
        let mut map = s.serialize_map(Some(ORDERS.len()))?;
        for (k, order) in ORDERS.iter().enumerate() {
            map.serialize_entry(order, &self.0.rules_by_order[k + 1])?;
        }
        map.end()
    }
}

/// One forced cell: `{"cell": [r, c], "value": "safe"|"mine", "source":
/// "rules"|method name, "order": n}` (`order` only for a rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeductionReport {
    /// The cell.
    pub cell: RowCol,
    /// Its value in every layout.
    pub value: Value,
    /// What proved it.
    pub source: Source,
}

impl Serialize for DeductionReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let order = match self.source {
            Source::Rule { order } => Some(order),
            Source::Method(_) => None,
        };
        let mut st = s.serialize_struct("Deduction", 3 + usize::from(order.is_some()))?;
        st.serialize_field("cell", &self.cell)?;
        st.serialize_field("value", &Text(&self.value))?;
        st.serialize_field("source", self.source.name())?;
        if let Some(order) = order {
            st.serialize_field("order", &order)?;
        }
        st.end()
    }
}

/// Every forced cell of a position ([`Engine::analyse`](crate::Engine::analyse)):
/// `{"safe", "mines", "deductions", "by_source", "unknown_left"}` (the CLI
/// and the server put the position's name first: [`Named`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisReport {
    /// The cells proven safe, in cell order.
    pub safe: Vec<RowCol>,
    /// The cells proven mines (not the flags given), in cell order.
    pub mines: Vec<RowCol>,
    /// Every forced cell with what proved it, in cell order.
    pub deductions: Vec<DeductionReport>,
    /// Forced cells by source.
    pub by_source: BySource,
    /// Closed cells left unknown at the fixpoint.
    pub unknown_left: u32,
}

impl AnalysisReport {
    /// The report of `analysis`, a position of `grid`.
    pub fn new(grid: Grid, analysis: &Analysis) -> AnalysisReport {
        let mut deductions: Vec<DeductionReport> = analysis
            .deductions
            .iter()
            .map(|d| DeductionReport {
                cell: RowCol::of(grid, d.cell),
                value: d.value,
                source: d.source,
            })
            .collect();
        deductions.sort_by_key(|d| d.cell);
        let of = |v: Value| {
            deductions
                .iter()
                .filter(|d| d.value == v)
                .map(|d| d.cell)
                .collect()
        };
        AnalysisReport {
            safe: of(Value::Safe),
            mines: of(Value::Mine),
            by_source: analysis.by_source,
            unknown_left: analysis.board.unknown_count(),
            deductions,
        }
    }
}

/// Every closed cell's mine probability
/// ([`Engine::probabilities`](crate::Engine::probabilities)):
/// `{"safe", "mines", ["deductions", "by_source",] "unknown_left",
/// "probabilities", "safest", ["layouts",] "log10_layouts",
/// "error_bound"}` (docs/design.md §6; the CLI and the server put the
/// position's name first and the time taken last: [`Named`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ProbabilityReport {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// Per cell, row after row: a closed cell's mine probability, NaN for
    /// every other cell (`null` in JSON). Forced cells are exactly 0 or 1.
    pub per_cell: Vec<f64>,
    /// The closed cells of probability exactly 0, in cell order.
    pub safe: Vec<RowCol>,
    /// The closed cells of probability exactly 1 (not the flags given), in
    /// cell order.
    pub mines: Vec<RowCol>,
    /// What proved each forced cell, when the analysis was asked for too
    /// (it finds the same forced cells, checked).
    pub deductions: Option<(Vec<DeductionReport>, BySource)>,
    /// Closed cells neither proven safe nor proven mines.
    pub unknown_left: usize,
    /// The closed cells of least probability.
    pub safest: Vec<RowCol>,
    /// The exact number of layouts, when counted (with a density: of the
    /// layouts that fit the numbers and flags).
    pub layouts: Option<num_bigint::BigUint>,
    /// `log10` of the number of layouts (with a density: of their total
    /// weight over the closed cells).
    pub log10_layouts: f64,
    /// A proven bound on every probability's error (at most
    /// [`ACCURACY`](crate::probabilities::ACCURACY)).
    pub error_bound: f64,
}

impl ProbabilityReport {
    /// The mine probability of the cell at `(row, col)`, if it is closed.
    pub fn probability(&self, row: usize, col: usize) -> Option<f64> {
        if row >= self.rows || col >= self.cols {
            return None;
        }
        let p = self.per_cell[row * self.cols + col];
        (!p.is_nan()).then_some(p)
    }
}

/// `per_cell` as `rows` rows of `cols` entries, NaN as `null`.
struct Rows<'a> {
    cols: usize,
    per_cell: &'a [f64],
}

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cols = self.cols.max(1);
        let mut seq = s.serialize_seq(Some(self.per_cell.len() / cols))?;
        for row in self.per_cell.chunks(cols) {
            seq.serialize_element(&Row(row))?;
        }
        seq.end()
    }
}

struct Row<'a>(&'a [f64]);

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for &x in self.0 {
            // A serializer writes a NaN as its null (serde_json does).
            if x.is_nan() {
                seq.serialize_element(&None::<f64>)?;
            } else {
                seq.serialize_element(&x)?;
            }
        }
        seq.end()
    }
}

impl Serialize for ProbabilityReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("ProbabilityReport", 11)?;
        st.serialize_field("safe", &self.safe)?;
        st.serialize_field("mines", &self.mines)?;
        match &self.deductions {
            Some((deductions, by_source)) => {
                st.serialize_field("deductions", deductions)?;
                st.serialize_field("by_source", by_source)?;
            }
            None => {
                st.skip_field("deductions")?;
                st.skip_field("by_source")?;
            }
        }
        st.serialize_field("unknown_left", &self.unknown_left)?;
        st.serialize_field(
            "probabilities",
            &Rows {
                cols: self.cols,
                per_cell: &self.per_cell,
            },
        )?;
        st.serialize_field("safest", &self.safest)?;
        match &self.layouts {
            // A decimal string: a JSON number would lose digits.
            Some(l) => st.serialize_field("layouts", &Text(l))?,
            None => st.skip_field("layouts")?,
        }
        st.serialize_field("log10_layouts", &self.log10_layouts)?;
        st.serialize_field("error_bound", &self.error_bound)?;
        st.end()
    }
}

/// The player's move ([`Engine::next_move`](crate::Engine::next_move)):
/// `{"open": [[r, c], ...], "flag": [...], "guess": false}` — every
/// proven-safe cell and the proven mines — or, when nothing is forced,
/// `{"open": [[r, c]], "flag": [...], "guess": true, "p_mine": p}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReport {
    /// Cells to open: every proven-safe cell, or the one guessed cell.
    pub open: Vec<RowCol>,
    /// Proven mines.
    pub flag: Vec<RowCol>,
    /// Whether `open` is a guess.
    pub guess: bool,
    /// On a guess, the guessed cell's mine probability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_mine: Option<f64>,
}

impl MoveReport {
    /// The report of `m`, a move on a board of `grid`.
    pub fn new(grid: Grid, m: &Move) -> MoveReport {
        MoveReport {
            open: RowCol::all(grid, m.open.iter().copied()),
            flag: RowCol::all(grid, m.flag.iter().copied()),
            guess: m.p_mine.is_some(),
            p_mine: m.p_mine,
        }
    }
}

/// A board's size and mines: `{"rows", "cols", "mines"}`.
impl Serialize for Level {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Level", 3)?;
        st.serialize_field("rows", &self.rows)?;
        st.serialize_field("cols", &self.cols)?;
        st.serialize_field("mines", &self.mines)?;
        st.end()
    }
}

/// `"safe"` or `"opening"`.
impl Serialize for FirstClick {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A generated board: `{"rows", "cols", "mines": [[r, c], ...], "start":
/// [r, c], "layout": [[-1 a mine, else 0–8], ...], "seed"}` (`seed` only
/// when the board has one of its own).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardReport {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The mines, in cell order.
    pub mines: Vec<RowCol>,
    /// Where the first click goes.
    pub start: RowCol,
    /// Every cell row by row: −1 a mine, else its number.
    pub layout: Vec<Vec<i8>>,
    /// The seed the board was drawn from, when it names this board alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl BoardReport {
    /// The report of `field`, played from `start`.
    pub fn new(field: &Field, start: (usize, usize), seed: Option<u64>) -> BoardReport {
        let grid = field.grid;
        let codes = field.to_codes();
        BoardReport {
            rows: grid.h,
            cols: grid.w,
            mines: RowCol::all(
                grid,
                (0..grid.len() as u32).filter(|&c| field.mine[c as usize]),
            ),
            start: start.into(),
            layout: codes
                .chunks(grid.w.max(1))
                .map(|row| row.iter().map(|&c| c as i8).collect())
                .collect(),
            seed,
        }
    }
}

/// Many games ([`Engine::play`](crate::Engine::play)) with what was
/// played: `{"games", "wins", "win_rate", "ci95", "guesses_per_game",
/// "guesses_per_won_game", "games_per_second", "level", "first_click",
/// "start", "seed", "policy", "endgame_layouts", "guessing",
/// "opened_by_source", "opened_by_rule_order"}`.
#[derive(Clone, Copy, Debug)]
pub struct PlayReport<'a> {
    /// The games' outcome.
    pub summary: &'a PlaySummary,
    /// What was played.
    pub settings: &'a PlaySettings,
}

impl Serialize for PlayReport<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (summary, settings) = (self.summary, self.settings);
        let (lo, hi) = summary.ci95();
        let start = RowCol::from(settings.start());
        let mut st = s.serialize_struct("PlayReport", 16)?;
        st.serialize_field("games", &summary.games)?;
        st.serialize_field("wins", &summary.wins)?;
        st.serialize_field("win_rate", &summary.win_rate())?;
        // A sequence, not a pair: a list to serde's converters (a pair
        // would be a tuple), the same `[lo, hi]` in JSON.
        st.serialize_field("ci95", &[lo, hi][..])?;
        st.serialize_field("guesses_per_game", &summary.guesses_per_game())?;
        st.serialize_field("guesses_per_won_game", &summary.guesses_per_won_game())?;
        st.serialize_field("games_per_second", &summary.games_per_second())?;
        st.serialize_field("level", &settings.level)?;
        st.serialize_field("first_click", &settings.first_click)?;
        st.serialize_field("start", &start)?;
        st.serialize_field("seed", &settings.seed)?;
        st.serialize_field("policy", settings.policy.name())?;
        st.serialize_field("endgame_layouts", &settings.endgame_layouts)?;
        st.serialize_field("guessing", &settings.guessing)?;
        st.serialize_field("opened_by_source", &summary.opened_by)?;
        st.serialize_field("opened_by_rule_order", &ByRuleOrder(&summary.opened_by))?;
        st.end()
    }
}

/// One game of a run: `{"index", "won", "clicks", "guesses", "seed"}`
/// (the layout is game `index` of the run seeded `seed`).
#[derive(Clone, Copy, Debug)]
pub struct GameLine<'a> {
    /// The game.
    pub record: &'a GameRecord,
    /// The run's seed.
    pub seed: u64,
}

impl Serialize for GameLine<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.record;
        let mut st = s.serialize_struct("GameLine", 5)?;
        st.serialize_field("index", &r.index)?;
        st.serialize_field("won", &r.won)?;
        st.serialize_field("clicks", &r.clicks)?;
        st.serialize_field("guesses", &r.guesses)?;
        st.serialize_field("seed", &self.seed)?;
        st.end()
    }
}

/// One field solved without guessing ([`Engine::solve`](crate::Engine::solve)):
/// `{"field", "solved", "opened_safe_cells", "safe_cells", "micros",
/// "by_method"}`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SolveReport<'a> {
    /// The field's name.
    pub field: &'a str,
    /// Whether every safe cell was opened.
    pub solved: bool,
    /// Safe cells open at the end (the start included).
    pub opened_safe_cells: usize,
    /// Safe cells of the field.
    pub safe_cells: usize,
    /// Microseconds the solve took.
    pub micros: f64,
    /// Cells determined by each source.
    pub by_method: BySource,
}

/// An answer with the name its caller gives the input first and the time
/// it took last: `{"position": name, ...answer, "micros": t}` (`micros`
/// left out when `None`). The CLI names a position by its file, the server
/// by `"request"`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Named<'a, T> {
    /// The input's name.
    pub position: &'a str,
    /// The answer.
    #[serde(flatten)]
    pub answer: &'a T,
    /// Microseconds taken, rounded to a tenth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub micros: Option<f64>,
}

impl<'a, T> Named<'a, T> {
    /// `answer` called `position`, with the time it took when given (in
    /// microseconds; rounded to a tenth here).
    pub fn new(position: &'a str, answer: &'a T, micros: Option<f64>) -> Named<'a, T> {
        Named {
            position,
            answer,
            micros: micros.map(|m| (m * 10.0).round() / 10.0),
        }
    }
}

/// A value written by its `Display`.
struct Text<'a, T>(&'a T);

impl<T: std::fmt::Display> Serialize for Text<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}

/// `{"free_fifties", "influence", "blend", "dead", "off_frontier_cap",
/// "isolated", "third_move"}`: the player's refinements.
impl Serialize for crate::play::Guessing {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Guessing", 7)?;
        st.serialize_field("free_fifties", &self.free_fifties)?;
        st.serialize_field("influence", &self.influence)?;
        st.serialize_field("blend", &self.blend)?;
        st.serialize_field("dead", &self.dead)?;
        st.serialize_field("off_frontier_cap", &self.off_frontier_cap)?;
        st.serialize_field("isolated", &self.isolated)?;
        st.serialize_field("third_move", &self.third_move)?;
        st.end()
    }
}

/// An answer with the file it is about first: `{"file": name,
/// ...answer}` (a reviewed replay).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Filed<'a, T> {
    /// The file's name.
    pub file: &'a str,
    /// The answer.
    #[serde(flatten)]
    pub answer: &'a T,
}

impl<'a, T> Filed<'a, T> {
    /// `answer` about `file`.
    pub fn new(file: &'a str, answer: &'a T) -> Filed<'a, T> {
        Filed { file, answer }
    }
}
