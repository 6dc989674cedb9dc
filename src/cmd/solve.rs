//! `sapper solve`: no-guess play on fields with ground truth.

use super::args::{over_budget, parse_cell, BudgetArgs, RulesArgs};
use super::fields::{read_inputs, Input};
use super::rulebase::{load_rulebase, rules_engine, save_index_of, Trust};
use super::table::{median, print_method_table, round3};
use super::{json, CliError};
use rayon::prelude::*;
use sapper_engine::files::FolderLock;
use sapper_engine::formats::thesis::read_expected;
use sapper_engine::report::SolveReport;
use sapper_engine::rules::learn::merge;
use sapper_engine::rules::{Rule, Rulebase};
use sapper_engine::{BySource, Engine, Error, Field, Method, MethodTable};
use std::collections::BTreeSet;
use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Solve fields by no-guess play: open only cells proven safe, flag proven
/// mines, until every safe cell is open (solved) or no closed cell is
/// forced (stuck; a guess would be needed — a normal outcome, exit 0).
///
/// PATH is a field folder in the thesis layout (field_info.csv = "h,w,tm",
/// status.csv = h rows of T/F, values.csv = h rows of true values, -1 =
/// mine) or a corpus: a folder searched recursively for field folders,
/// processed in natural order and reported by folder name. PATH may also
/// be an MBF file (`.mbf`: mines only, as JSMinesweeper and `sapper
/// generate --format mbf` write them), or a folder of them, played from
/// --start.
///
/// Exit code: 0 if every field was read and solved or stuck; 1 if any field
/// could not be read (the others are still solved) or, with
/// --check-expected, any outcome differs from expected.csv.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Field folders or corpora.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// One JSON object per line per field: {"field", "solved",
    /// "opened_safe_cells", "safe_cells", "micros", "by_method"}; errors as
    /// {"field", "error"}.
    #[arg(long)]
    json: bool,
    /// Compare each corpus with its expected.csv
    /// (field,solved,opened_safe_cells) and report every difference.
    #[arg(long)]
    check_expected: bool,
    /// Print the method table (attempts, successes, t_s, t_u, t_c) after
    /// each corpus.
    #[arg(long)]
    methods: bool,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Learn rules: when a method proves a cell whose supporting numbers fit
    /// a 6×6 window, cut that pattern out, verify it by enumeration,
    /// canonicalize it and add it to FILE if it is new and irreducible.
    /// FILE is also the rulebase matched (created from the --rules or
    /// default rulebase if it does not exist yet), so a second run makes
    /// those deductions by rules. FILE is updated under a lock on its
    /// folder and merged with what it holds at that moment, so runs
    /// learning into the same file at once lose nothing; it is written
    /// whole (through a symbolic link; never over a device or folder).
    #[arg(long, value_name = "FILE", conflicts_with = "no_rules")]
    learn: Option<PathBuf>,
    /// Where play starts on MBF boards, `ROW,COL` from 0 (default: 3,3, as
    /// `sapper generate` opens by default; clamped into small boards).
    #[arg(long, value_name = "R,C")]
    start: Option<String>,
}

/// What solving one field gave.
struct FieldReport {
    name: String,
    result: Result<Solved, String>,
    /// Rules learned from this field's method deductions (with --learn).
    learned: Vec<Rule>,
}

struct Solved {
    solved: bool,
    opened_safe_cells: usize,
    safe_cells: usize,
    micros: f64,
    by_source: BySource,
    table: MethodTable,
}

fn solve_one(
    name: &str,
    dir: &Path,
    field: Result<Field, String>,
    engine: &Engine,
    learning: bool,
) -> FieldReport {
    let mut learned = Vec::new();
    let result = (|| {
        let field = field?;
        let mut table = MethodTable::default();
        let t0 = Instant::now();
        let outcome = if learning {
            engine
                .solve_learning(&field, &mut table)
                .map(|(outcome, rules)| {
                    learned = rules;
                    outcome
                })
        } else {
            engine.solve_with_table(&field, &mut table)
        };
        let micros = t0.elapsed().as_secs_f64() * 1e6;
        let outcome = outcome.map_err(|e| match e {
            Error::OverBudget(o) => format!("{}: refused: {}", dir.display(), over_budget(&o)),
            e => format!("{}: {e}", dir.display()),
        })?;
        Ok(Solved {
            solved: outcome.solved,
            opened_safe_cells: outcome.opened_safe_cells,
            safe_cells: field.safe_cells(),
            micros,
            by_source: outcome.by_source,
            table,
        })
    })();
    FieldReport {
        name: name.to_string(),
        result,
        learned,
    }
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let start = match &args.start {
        Some(text) => Some(parse_cell(text).map_err(|e| format!("--start {text}: {e}"))?),
        None => None,
    };
    if let Some(file) = &args.learn {
        // Say now, not after solving, if FILE cannot be written.
        sapper_engine::files::write_target(file)?;
    }
    // The rulebase: with --learn, FILE (created from --rules or the
    // default if absent); otherwise --rules, the default, or none. Loaded
    // while the fields are read (both take a few ms).
    let learn_source = args.learn.as_ref().map(|file| {
        if file.exists() {
            file.to_string_lossy().into_owned()
        } else {
            args.rules.rules.as_ref().map_or_else(
                || "default".to_string(),
                |p| p.to_string_lossy().into_owned(),
            )
        }
    });
    let budget = args.budget.budget()?;
    let (engine, inputs): (Result<Engine, CliError>, Vec<Input>) = rayon::join(
        || match &learn_source {
            Some(source) => Ok(rules_engine(source, args.rules.trust())?.with_budget(budget)),
            None => args.rules.engine(budget),
        },
        || read_inputs(&args.paths, start),
    );
    let engine = engine?;
    // With --learn, the base the learned rules are added to (loaded again:
    // cheap, and keeps the join above free of shared mutable state).
    let learn_base: Option<Rulebase> = match &learn_source {
        Some(source) => Some(load_rulebase(source)?.0),
        None => None,
    };
    let mut learned: BTreeSet<Rule> = BTreeSet::new();
    let mut failed = false;
    for (path, fields) in inputs {
        let path = &path;
        let fields = match fields {
            Ok(f) => f,
            Err(e) => {
                report_error(args.json, &path.display().to_string(), &e)?;
                failed = true;
                continue;
            }
        };
        // Fields are independent: solve them in parallel, report in order.
        let reports: Vec<FieldReport> = fields
            .into_par_iter()
            .map(|(r, f)| solve_one(&r.name, &r.dir, f, &engine, args.learn.is_some()))
            .collect();
        for rep in &reports {
            learned.extend(rep.learned.iter().cloned());
        }
        for rep in &reports {
            match &rep.result {
                Ok(s) => print_field(args.json, &rep.name, s)?,
                Err(e) => {
                    report_error(args.json, &rep.name, e)?;
                    failed = true;
                }
            }
        }
        if !args.json {
            print_summary(path, &reports, args.methods)?;
        }
        if args.check_expected {
            match check_expected(path, &reports) {
                Ok(true) => {}
                Ok(false) => failed = true,
                // A missing or bad expected.csv fails this path only.
                Err(e) => {
                    eprintln!("sapper: error: {e}");
                    failed = true;
                }
            }
        }
    }
    if let (Some(file), Some(base)) = (&args.learn, learn_base) {
        // Other processes may be learning into the same file: under the
        // lock, merge into the file as it is now, not as it was read.
        let _lock = FolderLock::acquire(file)?;
        let mut rb = if file.exists() {
            Rulebase::read(file).map_err(|e| format!("{}: {e}", file.display()))?
        } else {
            base
        };
        let from = args
            .paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let merged = merge(&mut rb, learned, &from);
        let bytes = rb.try_to_bytes().map_err(|e| e.to_string())?;
        sapper_engine::files::write_whole(file, &bytes).map_err(|e| e.to_string())?;
        // A saved index beside FILE is refreshed, or it would go stale.
        // Learned rules are proven as they are learned, and the base was
        // proven when loaded: the index may cache that proof — not after
        // --trust-rules, whose base was not proven.
        let index = sapper_engine::rules::saved::index_path(file);
        if index.exists() && args.rules.trust() == Trust::Prove {
            save_index_of(file, &bytes, &rb)?;
        }
        eprintln!(
            "learned {} new rules ({}); {} now holds {} rules",
            merged.added,
            merged.summary(),
            file.display(),
            rb.rules.len()
        );
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn report_error(json: bool, name: &str, err: &str) -> Result<(), CliError> {
    if json {
        out!("{}", serde_json::json!({"field": name, "error": err}));
    }
    eprintln!("sapper: error: {err}");
    Ok(())
}

fn print_field(json: bool, name: &str, s: &Solved) -> Result<(), CliError> {
    if json {
        let report = SolveReport {
            field: name,
            solved: s.solved,
            opened_safe_cells: s.opened_safe_cells,
            safe_cells: s.safe_cells,
            micros: round3(s.micros),
            by_method: s.by_source,
        };
        std::io::stdout()
            .lock()
            .write_all(&json::line(&report, 256))
            .map_err(|e| format!("writing output: {e}"))?;
    } else {
        let mut parts = vec![];
        if s.by_source.rules() > 0 {
            parts.push(format!("rules {}", s.by_source.rules()));
        }
        for m in Method::ALL {
            let n = s.by_source.methods[m.index()];
            if n > 0 {
                parts.push(format!("{} {n}", m.name()));
            }
        }
        out!(
            "{:<24} {:<7} {:>6}/{:<6} safe cells open {:>10.1} µs   {}",
            name,
            if s.solved { "solved" } else { "stuck" },
            s.opened_safe_cells,
            s.safe_cells,
            s.micros,
            parts.join(", ")
        );
    }
    Ok(())
}

fn print_summary(path: &Path, reports: &[FieldReport], methods: bool) -> Result<(), CliError> {
    let ok: Vec<&Solved> = reports
        .iter()
        .filter_map(|r| r.result.as_ref().ok())
        .collect();
    let solved = ok.iter().filter(|s| s.solved).count();
    let mut times: Vec<f64> = ok.iter().map(|s| s.micros).collect();
    // Folded from +0.0: f64's `sum` starts at -0.0, so no field would
    // print "-0.0 µs".
    let total: f64 = times.iter().fold(0.0, |sum, t| sum + t);
    let med = median(&mut times);
    let mut by = BySource::default();
    let mut table = MethodTable::default();
    for s in &ok {
        by.merge(&s.by_source);
        table.merge(&s.table);
    }
    table.reorder();
    out!(
        "== {}: {} fields, {} solved, {} stuck, {} unreadable; solve time total {:.1} µs, median {:.1} µs",
        path.display(),
        reports.len(),
        solved,
        ok.len() - solved,
        reports.len() - ok.len(),
        total,
        med
    );
    let all = by.total().max(1) as f64;
    let mut shares = vec![format!("rules {:.1}%", 100.0 * by.rules() as f64 / all)];
    for m in Method::ALL {
        shares.push(format!(
            "{} {:.1}%",
            m.name(),
            100.0 * by.methods[m.index()] as f64 / all
        ));
    }
    out!(
        "   deductions ({} cells): {}",
        by.total(),
        shares.join(", ")
    );
    if methods {
        print_method_table(&table)?;
    }
    Ok(())
}

/// Compares with `<corpus>/expected.csv`; prints each difference to stderr.
fn check_expected(path: &Path, reports: &[FieldReport]) -> Result<bool, CliError> {
    let expected_path = path.join("expected.csv");
    let expected = read_expected(&expected_path)?;
    let got: HashMap<&str, &FieldReport> = reports.iter().map(|r| (r.name.as_str(), r)).collect();
    let mut diffs = 0;
    for e in &expected {
        match got.get(e.field.as_str()).map(|r| &r.result) {
            None => {
                eprintln!(
                    "{}: {}: expected a result, field not found",
                    expected_path.display(),
                    e.field
                );
                diffs += 1;
            }
            Some(Err(err)) => {
                eprintln!(
                    "{}: {}: expected a result, got error {err}",
                    expected_path.display(),
                    e.field
                );
                diffs += 1;
            }
            Some(Ok(s)) if s.solved != e.solved || s.opened_safe_cells != e.opened_safe_cells => {
                eprintln!(
                    "{}: {}: expected solved={} opened_safe_cells={}, got solved={} opened_safe_cells={}",
                    expected_path.display(),
                    e.field,
                    e.solved,
                    e.opened_safe_cells,
                    s.solved,
                    s.opened_safe_cells
                );
                diffs += 1;
            }
            Some(Ok(_)) => {}
        }
    }
    // `diffs` counts listed fields whose outcome differs; a corpus holding
    // fields the list lacks is a difference too, but not of a listed field.
    let count_differs = reports.len() != expected.len();
    if count_differs {
        eprintln!(
            "{}: {} fields expected, {} found",
            expected_path.display(),
            expected.len(),
            reports.len()
        );
    }
    eprintln!(
        "check {}: {} of {} fields as expected{}",
        path.display(),
        expected.len() - diffs,
        expected.len(),
        if diffs == 0 && !count_differs {
            ""
        } else {
            " — DIFFERENCES FOUND"
        }
    );
    Ok(diffs == 0 && !count_differs)
}
