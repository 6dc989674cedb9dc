//! Pieces shared by the subcommands: JSON shapes for deductions and counts,
//! the flags several commands take, and the one reader of fields.

use rayon::prelude::*;
use sapper_engine::formats::thesis::{list_corpus, read_field, FieldRef};
use sapper_engine::methods::MethodTable;
use sapper_engine::solver::BySource;
use sapper_engine::Field;
use sapper_engine::Method;
use serde_json::{json, Map, Value};
use std::path::PathBuf;

/// `{"rules": n, "single_cell": n, ...}`: cells determined by each source.
pub fn by_source_json(b: &BySource) -> Value {
    let mut m = Map::new();
    m.insert("rules".into(), json!(b.rules()));
    for meth in Method::ALL {
        m.insert(meth.name().into(), json!(b.methods[meth.index()]));
    }
    Value::Object(m)
}

/// The engine protocol's answer to a move: `{"open": [[r, c], ...],
/// "flag": [...], "guess": false}`, or with `"guess": true` and the guessed
/// cell's `"p_mine"`.
pub fn move_json(m: &sapper_engine::play::Move, grid: sapper_engine::Grid) -> Value {
    let cells = |list: &[u32]| -> Vec<[usize; 2]> {
        list.iter()
            .map(|&c| {
                let (r, c) = grid.rc(c);
                [r, c]
            })
            .collect()
    };
    match m.guess {
        None => json!({"open": cells(&m.open), "flag": cells(&m.flag), "guess": false}),
        Some(p) => {
            json!({"open": cells(&m.open), "flag": cells(&m.flag), "guess": true, "p_mine": p})
        }
    }
}

/// `{"1": n, "2": n, "3": n}`: cells determined by rules of each order.
pub fn rules_by_order_json(b: &BySource) -> Value {
    let mut m = Map::new();
    for order in 1..=3 {
        m.insert(order.to_string(), json!(b.rules_by_order[order]));
    }
    Value::Object(m)
}

/// The method table as the research reports it (Tables 21–23): attempts,
/// successes, t_s, t_u, t_c (µs), in the solver's current order.
pub fn methods_json(t: &MethodTable) -> Value {
    let rows = std::iter::once(("rules", &t.rules))
        .chain(t.order().into_iter().map(|m| (m.name(), t.get(m))));
    Value::Array(
        rows.map(|(name, s)| {
            json!({
                "name": name,
                "attempts": s.attempts,
                "successes": s.successes,
                "cells": s.cells,
                "t_s_micros": round3(s.t_s_micros()),
                "t_u_micros": round3(s.t_u_micros()),
                "t_c_micros": round3(s.t_c_micros()),
            })
        })
        .collect(),
    )
}

pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The human method table, one line per method.
pub fn print_method_table(t: &MethodTable) -> Result<(), super::CliError> {
    out!(
        "  {:<16} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10}",
        "method",
        "attempts",
        "successes",
        "cells",
        "t_s µs",
        "t_u µs",
        "t_c µs"
    );
    let rows = std::iter::once(("rules", &t.rules))
        .chain(t.order().into_iter().map(|m| (m.name(), t.get(m))));
    for (name, s) in rows {
        if name == "rules" && s.attempts == 0 {
            continue;
        }
        out!(
            "  {:<16} {:>9} {:>9} {:>9} {:>10.3} {:>10.3} {:>10.3}",
            name,
            s.attempts,
            s.successes,
            s.cells,
            s.t_s_micros(),
            s.t_u_micros(),
            s.t_c_micros()
        );
    }
    Ok(())
}

/// Median of a list (sorted in place); 0 for an empty list.
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

pub use sapper_engine::rules::load::Trust;
use sapper_engine::rules::load::{self, LoadError, LoadNote};
use sapper_engine::rules::DEFAULT_RULEBASE;
use sapper_engine::solver::RuleTiers;
use std::path::Path;

/// The default rulebase's tiers, from the index embedded in the engine.
pub fn default_tiers() -> Result<RuleTiers, super::CliError> {
    let loaded = load::default_tiers()?;
    print_note(loaded.note.as_ref(), "default");
    Ok(loaded.tiers)
}

/// Tells the user what the engine noticed while loading rulebase `arg`.
fn print_note(note: Option<&LoadNote>, arg: &str) {
    match note {
        None => {}
        Some(LoadNote::EmbeddedIndexRejected { reason }) => eprintln!(
            "sapper: warning: the embedded rule index is rejected ({reason}); indexing the \
             embedded rulebase instead"
        ),
        Some(LoadNote::SavedIndexUnusable { reason }) => eprintln!(
            "sapper: warning: {reason}; indexing {arg} instead (`sapper rules index {arg}` \
             rewrites the index)"
        ),
        Some(LoadNote::NoSavedIndex { index, rules }) => eprintln!(
            "sapper: note: {arg} has no saved index ({}): indexing its {rules} rules now; \
             `sapper rules index {arg}` saves one so later runs load faster",
            index.display(),
        ),
    }
}

/// A rulebase load error, with the command-line hints.
pub fn load_error(e: LoadError) -> super::CliError {
    match &e {
        LoadError::Unsound { path, .. } => format!(
            "{e}; its checksum is valid, so the file was written this way — `sapper rules \
             verify {}` lists every unsound rule (--trust-rules uses the file without this \
             proof)",
            path.display()
        )
        .into(),
        _ => e.to_string().into(),
    }
}

/// The rule tiers of a rulebase (a path, or `default` for the embedded
/// one, whose index is embedded too). A file's rules are proven first
/// unless `trust` (`sapper_engine::rules::load`).
pub fn load_tiers(arg: &str, trust: Trust) -> Result<RuleTiers, super::CliError> {
    if arg == "default" {
        return default_tiers();
    }
    let loaded = load::file_tiers(Path::new(arg), trust).map_err(load_error)?;
    print_note(loaded.note.as_ref(), arg);
    Ok(loaded.tiers)
}

/// Indexes `rb` (just written to `path` as `bytes`) and saves the index
/// beside it. Call it only for proven rules (see `rules::index::saved`).
pub fn save_index_of(
    path: &Path,
    bytes: &[u8],
    rb: &sapper_engine::rules::Rulebase,
) -> Result<std::path::PathBuf, super::CliError> {
    let tiers = RuleTiers::new(rb);
    sapper_engine::rules::index::saved::save_index(path, bytes, &tiers)
        .map_err(|e| format!("writing the rule index: {e}").into())
}

/// `--trust-rules` as a [`Trust`].
pub fn trust_from_flag(trust_rules: bool) -> Trust {
    if trust_rules {
        Trust::Trust
    } else {
        Trust::Prove
    }
}

/// Re-proves every rule of a rulebase read from `arg` by enumeration,
/// refusing the file if one fails (`sapper_engine::rules::load::prove`).
pub fn prove_rulebase(
    arg: &str,
    rb: &sapper_engine::rules::Rulebase,
) -> Result<(), super::CliError> {
    load::prove(Path::new(arg), rb).map_err(load_error)
}

/// An engine refusal with the flag that raises its limit.
pub fn over_budget(o: &sapper_engine::budget::OverBudget) -> String {
    let flag = match o.limit {
        sapper_engine::budget::Limit::Time(_) => "--budget-secs",
        sapper_engine::budget::Limit::Memory(_) => "--budget-mb",
    };
    format!("{o} ({flag} raises the limit)")
}

/// A solve's error in words, cells as `(row,col)` on `grid`, with the
/// command-line hints.
pub fn solve_error(e: &sapper_engine::solver::SolveError, grid: sapper_engine::Grid) -> String {
    match e {
        sapper_engine::solver::SolveError::OverBudget(o) => format!("refused: {}", over_budget(o)),
        e => e.describe(grid),
    }
}

/// `--rules FILE` / `--no-rules`, shared by solve, analyse and bench.
#[derive(clap::Args, Clone, Debug)]
pub struct RulesArgs {
    /// Rulebase to match before the methods (default: the rulebase embedded
    /// in the binary, orders 1–2).
    #[arg(long, value_name = "FILE", conflicts_with = "no_rules")]
    pub rules: Option<std::path::PathBuf>,
    /// Use the four methods only, no rulebase.
    #[arg(long)]
    pub no_rules: bool,
    /// Use the --rules FILE without re-proving its rules first. By default
    /// every rule of a file is proven by enumeration when it is loaded
    /// (about 1 s per million rules): a valid checksum shows the file is
    /// intact, not that its rules are sound.
    #[arg(long, conflicts_with = "no_rules")]
    pub trust_rules: bool,
}

/// `--budget-secs` / `--budget-mb`, shared by solve, analyse and bench.
#[derive(clap::Args, Clone, Debug)]
pub struct BudgetArgs {
    /// Seconds the exact methods may spend on one field or position: one
    /// they cannot decide in time (a frontier as wide as the board) is
    /// refused with an error naming it (exit 1; the other inputs are still
    /// processed).
    #[arg(long, value_name = "SECS", default_value_t = sapper_engine::budget::DEFAULT_SECS)]
    pub budget_secs: f64,
    /// Megabytes the exact methods may keep for one field or position;
    /// beyond it the input is refused like one over time.
    #[arg(long, value_name = "MB", default_value_t = sapper_engine::budget::DEFAULT_BYTES >> 20)]
    pub budget_mb: usize,
}

impl BudgetArgs {
    /// The limits (each field or position restarts the clock).
    pub fn budget(&self) -> Result<sapper_engine::budget::Budget, super::CliError> {
        if !(self.budget_secs.is_finite() && self.budget_secs > 0.0) {
            return Err(format!(
                "--budget-secs must be a positive number of seconds, not {}",
                self.budget_secs
            )
            .into());
        }
        if self.budget_mb == 0 {
            return Err("--budget-mb must be at least 1".into());
        }
        Ok(sapper_engine::budget::Budget::new(
            Some(std::time::Duration::from_secs_f64(self.budget_secs)),
            self.budget_mb.saturating_mul(1 << 20),
        ))
    }
}

/// Loads a rulebase: a path, or the word `default` for the embedded one.
pub fn load_rulebase(
    arg: &str,
) -> Result<(sapper_engine::rules::Rulebase, usize), super::CliError> {
    if arg == "default" {
        // Trusted: framing and checksum are checked, the per-rule checks
        // skipped — the engine's tests validate these exact bytes fully
        // (and `sapper rules verify` re-proves every rule).
        let rb = sapper_engine::rules::default_rulebase()
            .map_err(|e| format!("embedded default rulebase: {e}"))?;
        return Ok((rb, DEFAULT_RULEBASE.len()));
    }
    load::read_file(Path::new(arg)).map_err(load_error)
}

impl RulesArgs {
    /// The rules to match, or None with `--no-rules`.
    pub fn index(&self) -> Result<Option<sapper_engine::solver::RuleTiers>, super::CliError> {
        if self.no_rules {
            return Ok(None);
        }
        let arg = match &self.rules {
            Some(p) => p.to_string_lossy().into_owned(),
            None => "default".to_string(),
        };
        load_tiers(&arg, self.trust()).map(Some)
    }

    /// Whether the --rules file is proven before use.
    pub fn trust(&self) -> Trust {
        trust_from_flag(self.trust_rules)
    }
}

/// The game a command plays or generates: `--level`, or `--size` with
/// `--mines`; the first-click rule and where the first click goes; the seed.
/// Shared by `generate` (and the player to come).
#[derive(clap::Args, Clone, Debug)]
pub struct GameArgs {
    /// beginner (9×9, 10 mines), intermediate (16×16, 40) or expert
    /// (16 rows × 30 columns, 99). Default: expert, unless --size is given.
    #[arg(long, value_name = "LEVEL", conflicts_with = "size")]
    pub level: Option<String>,
    /// A board of H rows and W columns (with --mines), e.g. `16x30`.
    #[arg(long, value_name = "HxW", requires = "mines")]
    pub size: Option<String>,
    /// Mines on a --size board.
    #[arg(long, value_name = "N", requires = "size")]
    pub mines: Option<u32>,
    /// What the first click is protected from: `opening` (it and its
    /// neighbours are mine-free, "modern"; generate's default) or `safe`
    /// (only the clicked cell, "classic"; play's default).
    #[arg(long, value_enum)]
    pub first_click: Option<FirstClickArg>,
    /// Where the first click goes, `ROW,COL` from 0. Default: (3,3) for an
    /// opening, (0,0) for a safe first click.
    #[arg(long, value_name = "R,C")]
    pub start: Option<String>,
    /// Seed of the random boards: the same seed gives the same boards,
    /// whatever the number of threads.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FirstClickArg {
    Opening,
    Safe,
}

impl GameArgs {
    /// The level, first-click rule and start, checked together.
    pub fn game(
        &self,
        default_first_click: sapper_engine::game::FirstClick,
    ) -> Result<
        (
            sapper_engine::game::Level,
            sapper_engine::game::FirstClick,
            (usize, usize),
        ),
        super::CliError,
    > {
        use sapper_engine::game::{FirstClick, Level};
        let level = match (&self.level, &self.size, self.mines) {
            (Some(name), _, _) => Level::named(name).ok_or_else(|| {
                format!("--level {name}: expected beginner, intermediate or expert")
            })?,
            (None, Some(size), Some(mines)) => {
                let (h, w) = size
                    .split_once(['x', 'X', '×'])
                    .and_then(|(h, w)| Some((h.trim().parse().ok()?, w.trim().parse().ok()?)))
                    .ok_or_else(|| format!("--size {size}: expected ROWSxCOLUMNS, e.g. 16x30"))?;
                Level {
                    rows: h,
                    cols: w,
                    mines,
                }
            }
            _ => Level::EXPERT,
        };
        let first_click = match self.first_click {
            Some(FirstClickArg::Opening) => FirstClick::Opening,
            Some(FirstClickArg::Safe) => FirstClick::Safe,
            None => default_first_click,
        };
        let start = match &self.start {
            None if level.rows == 0 || level.cols == 0 => (0, 0),
            None => first_click.default_start(level),
            Some(text) => parse_cell(text).map_err(|e| format!("--start {text}: {e}"))?,
        };
        let level = level.check(first_click, start)?;
        Ok((level, first_click, start))
    }
}

/// A count on the command line: a whole number of at least 1 (a negative
/// or zero count is named as such, not taken for a flag).
pub fn count_arg<T: TryFrom<u64>>(text: &str) -> Result<T, String> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|&n| n >= 1)
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| format!("`{text}`: expected a whole number of at least 1"))
}

/// `ROW,COL` (0-based).
pub fn parse_cell(text: &str) -> Result<(usize, usize), String> {
    text.split_once(',')
        .and_then(|(r, c)| Some((r.trim().parse().ok()?, c.trim().parse().ok()?)))
        .ok_or_else(|| "expected ROW,COL (0-based), e.g. 3,3".to_string())
}

/// The fields one PATH of `solve` or `bench` names, each with its name and
/// folder (or file), read or not; or why PATH itself could not be read.
pub type Input = (
    PathBuf,
    Result<Vec<(FieldRef, Result<Field, String>)>, String>,
);

/// Reads the fields of every PATH, in the order given, each PATH's fields
/// in natural order: a field folder, a corpus of them (its unreadable
/// entries reported as unreadable fields, the others still read), an MBF
/// file or a folder of MBF boards (started at `start`, else at the
/// folder's `starts.csv`, else at (3,3)). The one reader of fields for
/// every command.
pub fn read_inputs(paths: &[PathBuf], start: Option<(usize, usize)>) -> Vec<Input> {
    paths
        .iter()
        .map(|path| {
            if let Some(boards) = mbf_boards(path) {
                let fields = boards.and_then(|boards| {
                    // Where play starts on each board: --start, else
                    // the folder's starts file, else (3,3).
                    let starts: std::collections::HashMap<std::ffi::OsString, (usize, usize)> =
                        mbf_starts(path)?
                            .into_iter()
                            .map(|(board, at)| (board.into(), at))
                            .collect();
                    Ok(boards
                        .into_iter()
                        .map(|file| {
                            let name = file.file_name().unwrap_or_default();
                            let start = start.or_else(|| starts.get(name).copied());
                            let field = read_mbf_field(&file, start);
                            let name = file
                                .strip_prefix(path)
                                .ok()
                                .filter(|n| !n.as_os_str().is_empty())
                                .unwrap_or(&file)
                                .display()
                                .to_string();
                            (FieldRef { name, dir: file }, field)
                        })
                        .collect())
                });
                return (path.clone(), fields);
            }
            let fields = list_corpus(path).map_err(|e| e.to_string()).map(|corpus| {
                let mut fields: Vec<(FieldRef, Result<Field, String>)> = corpus
                    .fields
                    .into_par_iter()
                    .map(|r| {
                        let f = read_field(&r.dir).map_err(|e| e.to_string());
                        (r, f)
                    })
                    .collect();
                // An entry that could not be read is reported like
                // a field that could not be read; the others are
                // still solved.
                fields.extend(corpus.unreadable.into_iter().map(|e| {
                    let name = e.path.strip_prefix(path).unwrap_or(&e.path);
                    let r = FieldRef {
                        name: name.display().to_string(),
                        dir: e.path.clone(),
                    };
                    (r, Err(e.to_string()))
                }));
                fields
            });
            (path.clone(), fields)
        })
        .collect()
}

/// The MBF boards PATH names: itself if it is a `.mbf` file, the `.mbf`
/// files in it (natural order) if it is a folder holding some; `None` when
/// PATH is not about MBF (a field or a corpus).
fn mbf_boards(path: &std::path::Path) -> Option<Result<Vec<PathBuf>, String>> {
    let is_mbf = |p: &std::path::Path| p.extension().is_some_and(|e| e == "mbf");
    if is_mbf(path) && !path.is_dir() {
        return Some(Ok(vec![path.to_path_buf()]));
    }
    let entries = std::fs::read_dir(path).ok()?;
    let mut boards: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_mbf(p) && p.is_file())
        .collect();
    if boards.is_empty() {
        return None;
    }
    boards.sort_by(|a, b| {
        sapper_engine::formats::thesis::natural_cmp(
            &a.file_name().unwrap_or_default().to_string_lossy(),
            &b.file_name().unwrap_or_default().to_string_lossy(),
        )
    });
    Some(Ok(boards))
}

/// The starts file beside the MBF boards of folder `path`, if it has one.
fn mbf_starts(path: &Path) -> Result<sapper_engine::formats::mbf::Starts, String> {
    let file = path.join(sapper_engine::formats::mbf::MBF_STARTS);
    if !path.is_dir() || !file.exists() {
        return Ok(Vec::new());
    }
    sapper_engine::formats::mbf::read_starts(&file).map_err(|e| e.to_string())
}

/// An MBF board as a field open at `start` (default (3,3), clamped).
fn read_mbf_field(file: &std::path::Path, start: Option<(usize, usize)>) -> Result<Field, String> {
    let (grid, layout) = sapper_engine::formats::mbf::read_mbf(file).map_err(|e| e.to_string())?;
    let (r, c) = start.unwrap_or((3.min(grid.h - 1), 3.min(grid.w - 1)));
    if r >= grid.h || c >= grid.w {
        return Err(format!(
            "{}: --start ({r},{c}) is off the {}×{} board",
            file.display(),
            grid.h,
            grid.w
        ));
    }
    let start = grid.index(r, c) as usize;
    if layout[start] {
        return Err(format!(
            "{}: the start ({r},{c}) is a mine (give --start, or a starts.csv beside the boards)",
            file.display()
        ));
    }
    let mut open = vec![false; grid.len()];
    open[start] = true;
    Ok(Field::from_mines(grid, layout, open))
}
