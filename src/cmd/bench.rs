//! `sapper bench`: solve time without reading, deductions by source, and the
//! method table, like the research's Tables 21–23.

use super::args::{BudgetArgs, RulesArgs};
use super::fields::read_inputs;
use super::table::{median, methods_json, print_method_table, round3};
use super::CliError;
use sapper_engine::report::ByRuleOrder;
use sapper_engine::{BySource, Engine, Field, Method, MethodTable, Rules};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Benchmark solving: read every field first (not timed), then solve each
/// one --repeat times on one thread and keep the median time per field.
///
/// Reports the solve time (total and median per field, reading excluded),
/// the cells determined by each source, and the method table: attempts,
/// successes, mean time of a successful (t_s) and failed (t_u) attempt, and
/// the mean cycle time t_c = (n_u/n_s)·t_u + t_s that orders the methods.
/// The table is carried from field to field, as in the research.
///
/// With --compare, every field is also solved by the four methods alone
/// (as with --no-rules, with a table of its own), interleaved with the
/// rules-first runs corpus pass by corpus pass, so both see the same
/// machine and each runs warm as it would alone; the
/// report adds that total, the speed-up of rules-first over methods-only,
/// and whether both give the same outcome (solved, opened safe cells) on
/// every field (exit code 1 if not).
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Field folders or corpora (searched recursively).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Print one JSON object: {"fields", "solved", "micros_total",
    /// "micros_median", "by_source", "rules_by_order", "methods"}.
    #[arg(long)]
    json: bool,
    /// Solve each field this many times; the median time counts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// Also solve every field with the methods alone, interleaved, and
    /// report the speed-up of rules-first solving in the same run.
    #[arg(long, conflicts_with = "no_rules")]
    compare: bool,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// One mode's totals over the corpus.
struct Totals {
    table: MethodTable,
    by: BySource,
    solved: usize,
    per_field: Vec<f64>,
    /// (solved, opened safe cells) per field.
    outcomes: Vec<(bool, usize)>,
}

impl Totals {
    fn new(fields: usize) -> Totals {
        Totals {
            table: MethodTable::default(),
            by: BySource::default(),
            solved: 0,
            per_field: Vec::with_capacity(fields),
            outcomes: Vec::with_capacity(fields),
        }
    }
    fn total(&self) -> f64 {
        self.per_field.iter().sum()
    }
    fn median(&self) -> f64 {
        median(&mut self.per_field.clone())
    }
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    // The fields, read as `solve` reads them (corpora, MBF boards); one
    // that cannot be read is reported and left out, the others timed.
    let mut fields: Vec<(String, Field)> = Vec::new();
    let mut unreadable = false;
    for (path, read) in read_inputs(&args.paths, None) {
        match read {
            Err(e) => {
                eprintln!("sapper: error: {}: {e}", path.display());
                unreadable = true;
            }
            Ok(list) => {
                for (r, f) in list {
                    match f {
                        Ok(f) => fields.push((r.name, f)),
                        Err(e) => {
                            eprintln!("sapper: error: {e}");
                            unreadable = true;
                        }
                    }
                }
            }
        }
    }
    let budget = args.budget.budget()?;
    let engine = args.rules.engine(budget)?;
    // The modes run: the chosen one, then (with --compare) methods only.
    let mut modes = vec![(engine, Totals::new(fields.len()))];
    if args.compare {
        let methods = Engine::with_rules(Rules::None)?.with_budget(budget);
        modes.push((methods, Totals::new(fields.len())));
    }
    // times[mode][field]: one time per repeat. Repeat by repeat, each mode
    // solves the whole corpus in turn: both modes see the same machine, and
    // each runs warm, as it would alone.
    let mut times = vec![vec![Vec::with_capacity(args.repeat as usize); fields.len()]; modes.len()];
    let mut last = vec![vec![None; fields.len()]; modes.len()];
    for _ in 0..args.repeat {
        for (k, (engine, totals)) in modes.iter_mut().enumerate() {
            for (f, (name, field)) in fields.iter().enumerate() {
                let t0 = Instant::now();
                let out = engine
                    .solve_with_table(field, &mut totals.table)
                    .map_err(|e| format!("{name}: solving failed: {e}"))?;
                times[k][f].push(t0.elapsed().as_secs_f64() * 1e6);
                last[k][f] = Some((out.solved, out.opened_safe_cells, out.by_source));
            }
        }
    }
    for (k, (_, totals)) in modes.iter_mut().enumerate() {
        for f in 0..fields.len() {
            let (solved, opened, by_source) = last[k][f].take().expect("repeat >= 1");
            totals.solved += solved as usize;
            totals.by.merge(&by_source);
            totals.outcomes.push((solved, opened));
            totals.per_field.push(median(&mut times[k][f]));
        }
    }
    let main = &modes[0].1;
    let (table, by, solved) = (&main.table, &main.by, main.solved);
    let total = main.total();
    let med = main.median();
    // With --compare: the other mode, and the fields where they differ.
    let compared = modes.get(1).map(|(_, other)| {
        let differ: Vec<&str> = fields
            .iter()
            .zip(main.outcomes.iter().zip(&other.outcomes))
            .filter(|(_, (a, b))| a != b)
            .map(|((name, _), _)| name.as_str())
            .collect();
        (other, differ)
    });
    if args.json {
        let mut report = json!({
            "fields": fields.len(),
            "solved": solved,
            "repeat": args.repeat,
            "micros_total": round3(total),
            "micros_median": round3(med),
            "by_source": by,
            "rules_by_order": ByRuleOrder(by),
            "methods": methods_json(table),
        });
        if let Some((other, differ)) = &compared {
            report["compare"] = json!({
                "methods_only_micros_total": round3(other.total()),
                "methods_only_micros_median": round3(other.median()),
                "methods_only_solved": other.solved,
                "methods_only_by_source": other.by,
                "methods_only_methods": methods_json(&other.table),
                "speedup": round3(other.total() / total.max(1e-9)),
                "same_outcomes": differ.is_empty(),
                "differing_fields": differ,
            });
        }
        out!("{report}");
    } else {
        out!(
            "{} fields, {} solved; solve time total {:.1} µs, median {:.2} µs per field (median of {} runs each)",
            fields.len(),
            solved,
            total,
            med,
            args.repeat
        );
        let all = by.total().max(1) as f64;
        out!("cells determined by source ({} in all):", by.total());
        out!(
            "  {:<16} {:>9} {:>7.1}%",
            "rules",
            by.rules(),
            100.0 * by.rules() as f64 / all
        );
        for order in 1..=3 {
            if by.rules_by_order[order] > 0 {
                out!("    order {order}       {:>9}", by.rules_by_order[order]);
            }
        }
        for m in Method::ALL {
            let n = by.methods[m.index()];
            out!(
                "  {:<16} {:>9} {:>7.1}%",
                m.name(),
                n,
                100.0 * n as f64 / all
            );
        }
        out!("method table (order tried, by increasing t_c):");
        print_method_table(table)?;
        if let Some((other, differ)) = &compared {
            out!(
                "methods only (same run, interleaved): {} solved; solve time total {:.1} µs, \
                 median {:.2} µs per field; rules-first is {:.2}x faster",
                other.solved,
                other.total(),
                other.median(),
                other.total() / total.max(1e-9)
            );
            if differ.is_empty() {
                out!(
                    "same outcome (solved, opened safe cells) on all {} fields",
                    fields.len()
                );
            } else {
                out!(
                    "DIFFERENT outcome on {} fields: {}",
                    differ.len(),
                    differ.join(", ")
                );
            }
        }
    }
    if unreadable || compared.is_some_and(|(_, differ)| !differ.is_empty()) {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
