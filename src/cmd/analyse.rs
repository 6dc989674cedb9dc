//! `sapper analyse`: every forced cell of a position, and with
//! `--probabilities` every closed cell's chance of being a mine.

use super::common::{by_source_json, BudgetArgs, RulesArgs};
use super::CliError;
use rayon::prelude::*;
use sapper_engine::formats::position::{parse_position, read_position, write_position};
use sapper_engine::methods::{MethodError, MethodTable};
use sapper_engine::probabilities::{Probabilities, ProbabilityError};
use sapper_engine::solver::{analyse_position_with, Analysis, Layers, RuleTiers};
use sapper_engine::{Board, Cell, Grid, Position, Value};
use serde_json::json;
use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Find every forced cell of a position (what a player sees, no ground
/// truth), each with the method that proved it; with --probabilities, also
/// every closed cell's probability of being a mine.
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
///   mines 99        optional first non-comment line: the total on the field
///   ??1F            ? closed, F flag, 0-8 revealed number, . revealed 0,
///   ?21.            * known safe without a number; all rows the same length
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
    /// rulebase).
    #[arg(long, value_enum)]
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
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Only {
    Rules,
    Methods,
}

/// Positions analysed in parallel between two writes of the output.
const BATCH: usize = 32;

thread_local! {
    /// Each thread's counter, whose buffers serve position after position.
    static COUNTER: std::cell::RefCell<Probabilities> = std::cell::RefCell::new(Probabilities::new());
}

/// What one position gives: its report on stdout, or an error.
struct Report {
    out: String,
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
    if args.only == Some(Only::Rules) && args.rules.no_rules {
        return Err("--only rules needs a rulebase (drop --no-rules)".into());
    }
    // Load the rules while the positions are read.
    let (index, positions) = rayon::join(
        || -> Result<Option<RuleTiers>, CliError> {
            // The count needs no rules; the analysis may.
            let analyses = !args.probabilities || args.deductions;
            if args.only == Some(Only::Methods) || !analyses {
                Ok(None)
            } else {
                args.rules.index()
            }
        },
        || -> Vec<Result<Position, String>> {
            let stdin = args
                .positions
                .iter()
                .any(|p| p.as_os_str() == "-")
                .then(|| {
                    let mut text = String::new();
                    std::io::stdin()
                        .read_to_string(&mut text)
                        .map(|_| text)
                        .map_err(|e| format!("<stdin>: {e}"))
                });
            args.positions
                .par_iter()
                .map(|path| read(path, stdin.as_ref(), args.mines))
                .collect()
        },
    );
    let index = index?;
    let layers = Layers {
        rules: index.as_ref(),
        methods: args.only != Some(Only::Rules),
        budget: args.budget.budget()?,
    };
    // Positions are analysed in parallel a batch at a time, and each batch
    // is printed in order by a thread of its own while the next is
    // analysed: writing a few megabytes of JSON to a file is not free
    // (about a quarter of the whole process for 300 expert positions), and
    // it need not wait for the analysis. A batch is handed over only when
    // the previous one is printed, so at most two are held (a report of a
    // 1000×1000 position is megabytes); a writer that fails (a closed
    // pipe) stops the analysis.
    let (to_writer, batches) = std::sync::mpsc::sync_channel::<Vec<Report>>(0);
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || print_reports(batches));
        let mut positions = positions.into_iter();
        for paths in args.positions.chunks(BATCH) {
            let batch: Vec<_> = paths.iter().zip(positions.by_ref()).collect();
            let reports: Vec<Report> = batch
                .into_par_iter()
                .map(|(path, position)| {
                    let shown = path.display().to_string();
                    let report = position.and_then(|p| {
                        COUNTER.with_borrow_mut(|counter| {
                            analyse_one(&args, &shown, &p, layers, counter)
                        })
                    });
                    report.unwrap_or_else(|error| {
                        let out = if args.json && args.probabilities {
                            format!("{}\n", json!({"position": shown, "error": error}))
                        } else {
                            String::new()
                        };
                        Report {
                            out,
                            error: Some(error),
                        }
                    })
                })
                .collect();
            if to_writer.send(reports).is_err() {
                break; // the writer stopped: its error is reported below
            }
        }
        drop(to_writer);
        let failed = writer.join().expect("the output thread does not panic")?;
        Ok(if failed {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        })
    })
}

/// Prints the batches of reports in order as they come: each report to
/// standard output, its error (if any) to standard error after what came
/// before it. Returns whether some position failed.
fn print_reports(batches: std::sync::mpsc::Receiver<Vec<Report>>) -> Result<bool, CliError> {
    let mut failed = false;
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    for reports in batches {
        for report in &reports {
            if let Some(e) = &report.error {
                stdout.flush().map_err(|e| format!("writing output: {e}"))?;
                eprintln!("sapper: error: {e}");
                failed = true;
            }
            stdout
                .write_all(report.out.as_bytes())
                .map_err(|e| format!("writing output: {e}"))?;
        }
    }
    stdout.flush().map_err(|e| format!("writing output: {e}"))?;
    Ok(failed)
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

/// Analyses one position and formats its report.
fn analyse_one(
    args: &Args,
    shown: &str,
    position: &Position,
    layers: Layers<'_>,
    probabilities: &mut Probabilities,
) -> Result<Report, String> {
    let grid = position.grid;
    let start = Instant::now();
    let analysis = if !args.probabilities || args.deductions {
        let mut table = MethodTable::default();
        Some(
            analyse_position_with(position, layers, &mut table).map_err(|e| match e {
                MethodError::Contradiction(c) => format!("{shown}: {}", c.describe(grid)),
                MethodError::OverBudget(o) => format!("{shown}: refused: {o}"),
            })?,
        )
    } else {
        None
    };
    if !args.probabilities {
        let analysis = analysis.expect("analysed");
        let out = if args.json {
            let mut s = String::new();
            forced_json(&mut s, shown, grid, &analysis);
            s.push_str("}\n");
            s
        } else {
            forced_text(shown, grid, &analysis)
        };
        return Ok(Report { out, error: None });
    }
    let board = Board::from_position(position);
    // The count gets its own time and memory, as the analysis did.
    let budget = layers.budget.restarted();
    probabilities
        .compute(&board, args.density, &budget)
        .map_err(|e| match e {
            ProbabilityError::NoMineCount => format!(
                "{shown}: the position does not give the total number of mines: \
                 add a `mines N` line, or give --mines N or --density D"
            ),
            ProbabilityError::Contradiction(c) => format!("{shown}: {}", c.describe(grid)),
            e => format!("{shown}: {e}"),
        })?;
    if let Some(a) = &analysis {
        // Two complete analyses: the same forced cells, or a bug.
        let (safe, mines) = forced_cells(a);
        if (safe, mines) != forced_by_count(probabilities) {
            return Err(format!(
                "{shown}: internal error: the analysis and the count disagree on the forced cells"
            ));
        }
    }
    // The exact count is a big integer: printed for boards up to 10,000
    // cells.
    let layouts = if grid.len() <= 10_000 {
        Some(
            probabilities
                .layouts(&budget)
                .map_err(|e| format!("{shown}: {e}"))?
                .to_string(),
        )
    } else {
        None
    };
    let micros = start.elapsed().as_secs_f64() * 1e6;
    let out = if args.json {
        probabilities_json(
            shown,
            &board,
            analysis.as_ref(),
            probabilities,
            layouts,
            micros,
        )
    } else {
        probabilities_text(shown, &board, probabilities, layouts)
    };
    Ok(Report { out, error: None })
}

/// The closed cells of probability exactly 0 (safe) and 1 (mines), in cell
/// order: the forced cells.
fn forced_by_count(p: &Probabilities) -> (Vec<u32>, Vec<u32>) {
    let (mut safe, mut mines) = (Vec::new(), Vec::new());
    for &c in p.closed_cells() {
        let x = p.per_cell()[c as usize];
        if x == 0.0 {
            safe.push(c);
        } else if x == 1.0 {
            mines.push(c);
        }
    }
    (safe, mines)
}

/// The forced cells, safe and mines (new mines only), in cell order.
fn forced_cells(analysis: &Analysis) -> (Vec<u32>, Vec<u32>) {
    let mut deds: Vec<_> = analysis.deductions.iter().collect();
    deds.sort_by_key(|d| d.cell);
    let of = |v: Value| {
        deds.iter()
            .filter(|d| d.value == v)
            .map(|d| d.cell)
            .collect()
    };
    (of(Value::Safe), of(Value::Mine))
}

/// `[[r,c],[r,c],...]`.
fn cells_json(s: &mut String, grid: Grid, cells: &[u32]) {
    let mut digits = itoa::Buffer::new();
    s.push('[');
    for (k, &cell) in cells.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        let (r, c) = grid.rc(cell);
        s.push('[');
        s.push_str(digits.format(r));
        s.push(',');
        s.push_str(digits.format(c));
        s.push(']');
    }
    s.push(']');
}

/// The analysis as the start of a JSON object (no closing brace):
/// `{"position", "safe", "mines", "deductions", "by_source", "unknown_left"`.
fn forced_json(s: &mut String, shown: &str, grid: Grid, analysis: &Analysis) {
    let mut deds = analysis.deductions.clone();
    deds.sort_by_key(|d| d.cell);
    let (safe, mines) = forced_cells(analysis);
    let _ = write!(s, "{{\"position\":{}", json!(shown));
    s.push_str(",\"safe\":");
    cells_json(s, grid, &safe);
    s.push_str(",\"mines\":");
    cells_json(s, grid, &mines);
    s.push_str(",\"deductions\":[");
    for (k, d) in deds.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        let (r, c) = grid.rc(d.cell);
        let _ = write!(
            s,
            "{{\"cell\":[{r},{c}],\"value\":\"{}\",\"source\":\"{}\"",
            d.value,
            d.source.name()
        );
        if let sapper_engine::Source::Rule { order } = d.source {
            let _ = write!(s, ",\"order\":{order}");
        }
        s.push('}');
    }
    let _ = write!(
        s,
        "],\"by_source\":{},\"unknown_left\":{}",
        by_source_json(&analysis.by_source),
        analysis.board.unknown_count()
    );
}

/// The analysis in words: the forced cells and the position after it.
fn forced_text(shown: &str, grid: Grid, analysis: &Analysis) -> String {
    let (safe, mines) = forced_cells(analysis);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{shown}: {} safe, {} mines forced; {} closed cells stay undetermined",
        safe.len(),
        mines.len(),
        analysis.board.unknown_count()
    );
    let mut deds = analysis.deductions.clone();
    deds.sort_by_key(|d| d.cell);
    for d in &deds {
        let (r, c) = grid.rc(d.cell);
        let by = match d.source {
            sapper_engine::Source::Rule { order } => format!("a rule of order {order}"),
            s => s.name().to_string(),
        };
        let _ = writeln!(s, "  ({r},{c}) {:<4}  by {by}", d.value.to_string());
    }
    let _ = writeln!(s, "position after analysis (* proven safe, F mine):");
    for line in write_position(&analysis.board.to_position()).lines() {
        let _ = writeln!(s, "  {line}");
    }
    s
}

/// One JSON line: the forced cells (and with --deductions the analysis'
/// keys), then the probabilities, written by hand: a position has hundreds
/// of numbers, each printed shortest round-trip.
fn probabilities_json(
    shown: &str,
    board: &Board,
    analysis: Option<&Analysis>,
    p: &Probabilities,
    layouts: Option<String>,
    micros: f64,
) -> String {
    let grid = board.grid();
    // At most 24 bytes a closed cell (shortest round-trip and a comma), 5
    // for the rest, and the cell lists: grown at most once.
    let mut s = String::with_capacity(512 + 5 * grid.len() + 24 * p.closed_cells().len());
    match analysis {
        Some(a) => forced_json(&mut s, shown, grid, a),
        None => {
            let (safe, mines) = forced_by_count(p);
            let _ = write!(s, "{{\"position\":{}", json!(shown));
            s.push_str(",\"safe\":");
            cells_json(&mut s, grid, &safe);
            s.push_str(",\"mines\":");
            cells_json(&mut s, grid, &mines);
            let left = p.closed_cells().len() - safe.len() - mines.len();
            let _ = write!(s, ",\"unknown_left\":{left}");
        }
    }
    s.push_str(",\"probabilities\":[");
    let mut number = ryu::Buffer::new();
    // Many cells share a value (all interior cells do): format a value once
    // while it repeats.
    let mut last_bits = u64::MAX;
    let mut last = String::new();
    for (r, row) in p.per_cell().chunks(grid.w).enumerate() {
        s.push_str(if r == 0 { "[" } else { ",[" });
        for (c, &x) in row.iter().enumerate() {
            if c > 0 {
                s.push(',');
            }
            if x.is_nan() {
                s.push_str("null");
            } else {
                if x.to_bits() != last_bits {
                    last_bits = x.to_bits();
                    last.clear();
                    last.push_str(number.format_finite(x));
                }
                s.push_str(&last);
            }
        }
        s.push(']');
    }
    s.push_str("],\"safest\":");
    cells_json(&mut s, grid, &p.safest());
    if let Some(l) = layouts {
        let _ = write!(s, ",\"layouts\":\"{l}\"");
    }
    let _ = writeln!(
        s,
        ",\"log10_layouts\":{},\"error_bound\":{},\"micros\":{}}}",
        number.format_finite(p.log10_layouts()),
        ryu::Buffer::new().format_finite(p.error_bound()),
        ryu::Buffer::new().format_finite((micros * 10.0).round() / 10.0),
    );
    s
}

/// A closed cell's probability as a grid entry, 4 characters: `S` / `M`
/// for forced cells, else a whole percentage, `<1%` and `>99%` at the ends
/// (0% and 100% are for forced cells only).
fn percent(p: f64) -> String {
    if p == 0.0 {
        return "   S".into();
    }
    if p == 1.0 {
        return "   M".into();
    }
    let whole = (p * 100.0).round();
    if whole < 1.0 {
        " <1%".into()
    } else if whole > 99.0 {
        ">99%".into()
    } else {
        format!("{:>3}%", whole as u32)
    }
}

/// The board with each closed cell's probability, the safest cells and the
/// number of layouts.
fn probabilities_text(
    shown: &str,
    board: &Board,
    p: &Probabilities,
    layouts: Option<String>,
) -> String {
    let grid = board.grid();
    let (safe, mines) = forced_by_count(p);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{shown}: {} closed cells, {} proven safe, {} proven {}",
        p.closed_cells().len(),
        safe.len(),
        mines.len(),
        if mines.len() == 1 { "mine" } else { "mines" }
    );
    let _ = writeln!(
        s,
        "mine probability of each closed cell (S proven safe, M proven mine, F flag, * safe):"
    );
    for r in 0..grid.h {
        s.push(' ');
        for c in 0..grid.w {
            let i = grid.index(r, c);
            match board.cell(i) {
                Cell::Unknown => s.push_str(&percent(p.probability(i).unwrap())),
                Cell::Mine => s.push_str("   F"),
                Cell::Safe => s.push_str("   *"),
                Cell::Revealed(0) => s.push_str("   ."),
                Cell::Revealed(n) => {
                    let _ = write!(s, "   {n}");
                }
            }
        }
        s.push('\n');
    }
    let safest = p.safest();
    if let Some(&first) = safest.first() {
        let least = p.probability(first).unwrap();
        let what = if least == 0.0 {
            "proven safe".to_string()
        } else {
            format!("mine probability {}", short(least))
        };
        let _ = write!(s, "safest ({what}):");
        for &cell in safest.iter().take(10) {
            let (r, c) = grid.rc(cell);
            let _ = write!(s, " ({r},{c})");
        }
        if safest.len() > 10 {
            let _ = write!(s, " and {} more", safest.len() - 10);
        }
        s.push('\n');
    }
    // Under a density the count is of the layouts that fit the numbers,
    // whatever their number of mines.
    let what = if board.total_mines().is_some() {
        "layouts"
    } else {
        "layouts (any number of mines)"
    };
    match layouts {
        Some(l) => {
            let _ = writeln!(s, "{what}: {l} (10^{:.2})", p.log10_layouts());
        }
        None => {
            let _ = writeln!(s, "{what}: 10^{:.2}", p.log10_layouts());
        }
    }
    s
}

/// A probability for people: a percentage with three significant digits.
fn short(p: f64) -> String {
    let pct = p * 100.0;
    if pct >= 10.0 {
        format!("{pct:.1}%")
    } else if pct >= 1.0 {
        format!("{pct:.2}%")
    } else {
        format!("{pct:.3e}%")
    }
}
