//! `sapper analyse`: every forced cell of a position, and with
//! `--probabilities` every closed cell's chance of being a mine.

use super::args::{over_budget, BudgetArgs, RulesArgs};
use super::ordered::{self, map_in_order};
use super::{heatmap, json, CliError};
use sapper_engine::formats::position::{parse_position, read_position};
use sapper_engine::report::{AnalysisReport, Named, ProbabilityReport};
use sapper_engine::{Counter, Engine, Error, Layer, Position, ProbabilityOptions, Rules};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

mod text;

/// Find every forced cell of a position (what a player sees, no ground
/// truth), each with the method that proved it (a rule's: the one number
/// or pair of numbers that forces it, "the 1-2 pattern at (1,1) and
/// (1,2)"); with --probabilities, also every closed cell's probability of
/// being a mine.
///
/// The analysis is a fixpoint: cells proven safe become known safe (no
/// number is revealed), forced mines count as known, and the search goes on
/// until nothing more is forced. It is complete: a closed cell not reported
/// can be either a mine or safe in some layout that fits.
///
/// Probabilities: every layout of mines over the closed cells that fits the
/// numbers, the flags and the total is equally likely; a cell's probability
/// is the share of layouts with a mine on it, counted exactly (each printed
/// value is within 1e-12 of the exact fraction; forced cells are exactly 0
/// or 1). The total comes from the position's `mines N` line or --mines;
/// without it, --density D weighs a layout with k mines on the n closed
/// cells by D^k (1-D)^(n-k).
///
/// Position format (text):
///   # a comment line
///   mines 2         optional first non-comment line: the total on the field
///   ??1.            ? closed, F flag, 0-8 revealed number, . revealed 0,
///   ?21.            * known safe without a number; all rows the same length,
///   11..            at most 1,000,000 cells
///
/// Several positions are analysed in one run, in parallel, and reported in
/// the order given; `-` reads a position from standard input. A position
/// that cannot be read, that no mine layout fits (the error names the cells
/// involved) or that runs out of budget is reported and the others are
/// still analysed: exit 1.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Position files, or `-` for standard input.
    #[arg(required = true, value_name = "POSITION")]
    positions: Vec<PathBuf>,
    /// One JSON object per position per line: {"position", "safe": [[row,
    /// col], ...], "mines": [[row, col], ...], "deductions": [...],
    /// "by_source": {...}, "unknown_left"} (zero-based; "mines" lists only
    /// newly forced mines, not flags). With --probabilities: "position",
    /// "safe", "mines", "unknown_left" ("deductions" and "by_source" only
    /// with --deductions), then "probabilities" (h rows of w entries: the
    /// mine probability of a closed cell, null for the others), "safest"
    /// (the closed cells of least probability), "layouts" (the exact
    /// number of layouts as a decimal string; omitted on boards over
    /// 10,000 cells), "log10_layouts", "error_bound" (proven bound on every
    /// probability's error) and "micros" (time for the position, reading
    /// excluded); a position that fails is {"position", "error"}.
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
    /// rulebase). Not with --probabilities, whose count is always complete.
    #[arg(long, value_enum, conflicts_with = "probabilities")]
    only: Option<Only>,
    /// Also compute every closed cell's probability of being a mine (needs
    /// the total: a `mines N` line, --mines or --density).
    #[arg(long)]
    probabilities: bool,
    /// The total number of mines on the field, for positions without a
    /// `mines N` line (a position whose own total differs is an error).
    #[arg(long, value_name = "N")]
    mines: Option<u32>,
    /// Without a total: each closed cell is a mine with chance D (0 < D <
    /// 1), independently, given the numbers. Positions that state their
    /// total use it (under a density, layouts with the same number of mines
    /// weigh the same).
    #[arg(
        long,
        value_name = "D",
        requires = "probabilities",
        conflicts_with = "mines"
    )]
    density: Option<f64>,
    /// With --probabilities: also run the rule-and-method analysis and
    /// report which method proves each forced cell ("deductions",
    /// "by_source"; it finds the same forced cells, checked). Costs about
    /// as much again as the count.
    #[arg(long, requires = "probabilities")]
    deductions: bool,
    /// With --probabilities and one position: also write the heat map as
    /// an SVG picture to FILE (each closed cell coloured by its mine
    /// probability with its percentage, S proven safe, M proven mine, the
    /// safest cells outlined): the palette of `sapper serve`'s page.
    #[arg(long, value_name = "FILE", requires = "probabilities")]
    svg: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Only {
    Rules,
    Methods,
}

/// Positions analysed ahead of the printing, at most: their reports are
/// held until printed (a report of a 1000×1000 position is megabytes).
const AHEAD: usize = 64;

/// The exact layout count is a big integer: printed for boards up to this
/// many cells.
pub const COUNT_UP_TO: usize = 10_000;

/// What one position gives: its report on stdout, or an error.
struct Report {
    out: Vec<u8>,
    error: Option<String>,
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if let Some(d) = args.density {
        if !(d > 0.0 && d < 1.0) {
            return Err(
                format!("--density {d}: expected a number strictly between 0 and 1").into(),
            );
        }
    }
    if args.svg.is_some() && args.positions.len() != 1 {
        return Err("--svg draws one position: give exactly one".into());
    }
    if args.only == Some(Only::Rules) && args.rules.no_rules {
        return Err("--only rules needs a rulebase (drop --no-rules)".into());
    }
    // The count needs no rules; the analysis may.
    let analyses = !args.probabilities || args.deductions;
    let budget = args.budget.budget()?;
    let engine = if args.only == Some(Only::Methods) || !analyses {
        Engine::with_rules(Rules::None)?.with_budget(budget)
    } else {
        args.rules.engine(budget)?
    };
    let stdin = args
        .positions
        .iter()
        .any(|p| p.as_os_str() == "-")
        .then(|| {
            sapper_engine::formats::read_text_stream(std::io::stdin().lock(), Path::new("<stdin>"))
                .map_err(|e| e.to_string())
        });
    // Each position is read, analysed and formatted by one worker, and
    // printed by this thread in the order given as soon as the positions
    // before it are: writing megabytes of JSON to a file is not free, and
    // need not wait for the analysis.
    let mut failed = false;
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    map_in_order(
        args.positions.len(),
        ordered::threads(),
        AHEAD,
        // Each worker's counter serves position after position.
        || engine.counter(),
        |counter, i| {
            let path = &args.positions[i];
            let shown = path.display().to_string();
            read(path, stdin.as_ref(), args.mines)
                .and_then(|p| analyse_one(&args, &engine, &shown, &p, counter))
                .unwrap_or_else(|error| {
                    let out = if args.json && args.probabilities {
                        json::line(&serde_json::json!({"position": shown, "error": error}), 0)
                    } else {
                        Vec::new()
                    };
                    Report {
                        out,
                        error: Some(error),
                    }
                })
        },
        |_, report| -> Result<(), CliError> {
            if let Some(e) = &report.error {
                stdout.flush().map_err(|e| format!("writing output: {e}"))?;
                eprintln!("sapper: error: {e}");
                failed = true;
            }
            stdout
                .write_all(&report.out)
                .map_err(|e| format!("writing output: {e}"))?;
            Ok(())
        },
    )?;
    stdout.flush().map_err(|e| format!("writing output: {e}"))?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Reads one position (`-`: the text read from standard input) and applies
/// `--mines`.
fn read(
    path: &Path,
    stdin: Option<&Result<String, String>>,
    mines: Option<u32>,
) -> Result<Position, String> {
    let mut position = if path.as_os_str() == "-" {
        let text = stdin.expect("read when `-` is given").clone()?;
        parse_position(Path::new("<stdin>"), &text).map_err(|e| e.to_string())?
    } else {
        read_position(path).map_err(|e| e.to_string())?
    };
    if let Some(n) = mines {
        match position.total_mines {
            Some(t) if t != n => {
                return Err(format!(
                    "{}: the position says `mines {t}` but --mines {n} was given",
                    path.display()
                ))
            }
            _ => position.total_mines = Some(n),
        }
    }
    Ok(position)
}

/// An engine error on position `shown`, with the flags that would help.
fn error_text(shown: &str, e: Error) -> String {
    match e {
        Error::OverBudget(o) => format!("{shown}: refused: {}", over_budget(&o)),
        Error::NoMineCount => format!(
            "{shown}: the position does not give the total number of mines: add a `mines N` \
             line, or give --mines N or --density D"
        ),
        e => format!("{shown}: {e}"),
    }
}

/// Analyses one position and formats its report.
fn analyse_one(
    args: &Args,
    engine: &Engine,
    shown: &str,
    position: &Position,
    counter: &mut Counter,
) -> Result<Report, String> {
    let start = Instant::now();
    if !args.probabilities {
        let only = args.only.map(|o| match o {
            Only::Rules => Layer::Rules,
            Only::Methods => Layer::Methods,
        });
        let analysis = engine
            .analyse_with(position, only)
            .map_err(|e| error_text(shown, e))?;
        let report = AnalysisReport::new(position.grid, &analysis);
        let out = if args.json {
            json::line(&Named::new(shown, &report, None), 256)
        } else {
            text::forced(shown, position, &analysis, &report).into_bytes()
        };
        return Ok(Report { out, error: None });
    }
    let options = ProbabilityOptions {
        density: args.density,
        deductions: args.deductions,
        layouts_up_to: COUNT_UP_TO,
    };
    let report = engine
        .probabilities_with(counter, position, &options)
        .map_err(|e| error_text(shown, e))?;
    let micros = start.elapsed().as_secs_f64() * 1e6;
    if let Some(path) = &args.svg {
        write_svg(path, position, &report).map_err(|e| format!("{shown}: {e}"))?;
    }
    let out = if args.json {
        // At most 25 bytes a closed cell (shortest round-trip and a
        // comma), 5 for the rest, and the cell lists: grown at most once.
        let closed = report.per_cell.iter().filter(|p| !p.is_nan()).count();
        let capacity = 512 + 5 * report.per_cell.len() + 25 * closed;
        json::line(&Named::new(shown, &report, Some(micros)), capacity)
    } else {
        text::probabilities(shown, position, &report).into_bytes()
    };
    Ok(Report { out, error: None })
}

/// Writes the heat map of `position` to `path` as SVG (`--svg`).
fn write_svg(path: &Path, position: &Position, report: &ProbabilityReport) -> Result<(), String> {
    let caption = match &report.layouts {
        Some(l) => format!("layouts: {l} (10^{:.2})", report.log10_layouts),
        None => format!("layouts: 10^{:.2}", report.log10_layouts),
    };
    let svg = heatmap::svg(position.grid, &position.cells, report, &caption);
    sapper_engine::files::write_whole(path, svg.as_bytes())
        .map(|_| ())
        .map_err(|e| e.to_string())
}
