//! The flags several commands share: the rulebase, the budget, the game
//! played or generated, counts and cells.

use super::CliError;

/// An engine refusal with the flag that raises its limit.
pub fn over_budget(o: &sapper_engine::budget::OverBudget) -> String {
    let flag = match o.limit {
        sapper_engine::budget::Limit::Time(_) => "--budget-secs",
        sapper_engine::budget::Limit::Memory(_) => "--budget-mb",
        _ => return o.to_string(),
    };
    format!("{o} ({flag} raises the limit)")
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
    /// (seconds for a large rulebase): a valid checksum shows the file is
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
    pub fn budget(&self) -> Result<sapper_engine::budget::Budget, CliError> {
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
        CliError,
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
