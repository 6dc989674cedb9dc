//! `sapper bench`: solve time without reading, deductions by source, and the
//! method table, like the research's Tables 21–23.

use super::common::{
    by_source_json, median, methods_json, print_method_table, round3, rules_by_order_json,
    RulesArgs,
};
use super::CliError;
use sapper_engine::formats::thesis::{find_fields, read_field};
use sapper_engine::methods::MethodTable;
use sapper_engine::solver::{solve_field_with, BySource, Layers};
use sapper_engine::{Field, Method};
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
    #[command(flatten)]
    rules: RulesArgs,
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let mut fields: Vec<(String, Field)> = Vec::new();
    for path in &args.paths {
        for r in find_fields(path)? {
            let f = read_field(&r.dir)?;
            fields.push((r.name, f));
        }
    }
    let index = args.rules.index()?;
    let layers = Layers {
        rules: index.as_ref(),
        methods: true,
    };
    let mut table = MethodTable::default();
    let mut by = BySource::default();
    let mut solved = 0usize;
    let mut per_field: Vec<f64> = Vec::with_capacity(fields.len());
    for (name, field) in &fields {
        let mut times = Vec::with_capacity(args.repeat as usize);
        let mut last = None;
        for _ in 0..args.repeat {
            let t0 = Instant::now();
            let out = solve_field_with(field, layers, &mut table, None)
                .map_err(|e| format!("{name}: solving failed: {e:?}"))?;
            times.push(t0.elapsed().as_secs_f64() * 1e6);
            last = Some(out);
        }
        let out = last.expect("repeat >= 1");
        if out.solved {
            solved += 1;
        }
        by.merge(&out.by_source);
        per_field.push(median(&mut times));
    }
    let total: f64 = per_field.iter().sum();
    let med = median(&mut per_field.clone());
    if args.json {
        out!(
            "{}",
            json!({
                "fields": fields.len(),
                "solved": solved,
                "repeat": args.repeat,
                "micros_total": round3(total),
                "micros_median": round3(med),
                "by_source": by_source_json(&by),
                "rules_by_order": rules_by_order_json(&by),
                "methods": methods_json(&table),
            })
        );
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
        print_method_table(&table)?;
    }
    Ok(ExitCode::SUCCESS)
}
