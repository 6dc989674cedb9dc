//! `sapper analyse`: every forced cell of a position.

use super::common::{by_source_json, cell_json, BudgetArgs, RulesArgs};
use super::CliError;
use sapper_engine::formats::position::{read_position, write_position};
use sapper_engine::methods::{MethodError, MethodTable};
use sapper_engine::solver::{analyse_position_with, Layers};
use sapper_engine::Value;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// Find every forced cell of a position (what a player sees, no ground
/// truth), each with the method that proved it.
///
/// The analysis is a fixpoint: cells proven safe become known safe (no
/// number is revealed), forced mines count as known, and the search goes on
/// until nothing more is forced. It is complete: a closed cell not reported
/// can be either a mine or safe in some layout that fits.
///
/// Position format (text):
///   # a comment line
///   mines 99        optional first non-comment line: the total on the field
///   ??1F            ? closed, F flag, 0-8 revealed number, . revealed 0,
///   ?21.            * known safe without a number; all rows the same length
///
/// A position no mine layout fits is an error naming the cells involved
/// (exit 1).
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The position file.
    #[arg(value_name = "POSITION")]
    position: PathBuf,
    /// Print one JSON object: {"safe": [[row, col], ...], "mines": [[row,
    /// col], ...], "deductions": [...], "by_source": {...}} (zero-based;
    /// "mines" lists only newly forced mines, not flags).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Run one layer alone: `rules` (the rulebase to its own fixpoint: what
    /// single numbers and pairs of numbers allow; the total is not used, and
    /// only contradictions visible to one or two numbers are detected — the
    /// full analysis checks consistency) or `methods` (the four methods, no
    /// rulebase).
    #[arg(long, value_enum)]
    only: Option<Only>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Only {
    Rules,
    Methods,
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let position = match read_position(&args.position) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sapper: error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let grid = position.grid;
    let index = if args.only == Some(Only::Methods) {
        None
    } else {
        args.rules.index()?
    };
    if args.only == Some(Only::Rules) && index.is_none() {
        return Err("--only rules needs a rulebase (drop --no-rules)".into());
    }
    let layers = Layers {
        rules: index.as_ref(),
        methods: args.only != Some(Only::Rules),
        budget: args.budget.budget()?,
    };
    let mut table = MethodTable::default();
    let analysis = match analyse_position_with(&position, layers, &mut table) {
        Ok(a) => a,
        Err(MethodError::Contradiction(c)) => {
            eprintln!(
                "sapper: error: {}: {}",
                args.position.display(),
                c.describe(grid)
            );
            return Ok(ExitCode::from(1));
        }
        Err(MethodError::OverBudget(o)) => {
            eprintln!("sapper: error: {}: refused: {o}", args.position.display());
            return Ok(ExitCode::from(1));
        }
    };
    let mut deds = analysis.deductions.clone();
    deds.sort_by_key(|d| d.cell);
    let safe: Vec<_> = deds
        .iter()
        .filter(|d| d.value == Value::Safe)
        .map(|d| cell_json(grid, d.cell))
        .collect();
    let mines: Vec<_> = deds
        .iter()
        .filter(|d| d.value == Value::Mine)
        .map(|d| cell_json(grid, d.cell))
        .collect();
    if args.json {
        let list: Vec<_> = deds
            .iter()
            .map(|d| {
                let mut o = json!({"cell": cell_json(grid, d.cell), "value": d.value.to_string(), "source": d.source.name()});
                if let sapper_engine::Source::Rule { order } = d.source {
                    o["order"] = json!(order);
                }
                o
            })
            .collect();
        out!(
            "{}",
            json!({
                "safe": safe,
                "mines": mines,
                "deductions": list,
                "by_source": by_source_json(&analysis.by_source),
                "unknown_left": analysis.board.unknown_count(),
            })
        );
        return Ok(ExitCode::SUCCESS);
    }
    out!(
        "{}: {} safe, {} mines forced; {} closed cells stay undetermined",
        args.position.display(),
        safe.len(),
        mines.len(),
        analysis.board.unknown_count()
    );
    for d in &deds {
        let (r, c) = grid.rc(d.cell);
        let by = match d.source {
            sapper_engine::Source::Rule { order } => format!("a rule of order {order}"),
            s => s.name().to_string(),
        };
        out!("  ({r},{c}) {:<4}  by {by}", d.value.to_string());
    }
    out!("position after analysis (* proven safe, F mine):");
    for line in write_position(&analysis.board.to_position()).lines() {
        out!("  {line}");
    }
    Ok(ExitCode::SUCCESS)
}
