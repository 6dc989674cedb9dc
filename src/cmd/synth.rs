//! `sapper synth`: build a rulebase by exhaustive synthesis (see the
//! `sapper-synth` crate for the space and the reductions).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sapper_engine::rules::Rulebase;
use sapper_synth::{build_rulebase, full_window, stats_table, synthesize, Options, ProgressEvent};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Synthesize a rulebase: enumerate every pattern of orders 1..=N, prove
/// what each concludes, keep the minimal ones in canonical form.
///
/// Order 1: one number in a 3×3 window. Order 2: two numbers at distance 1
/// or 2 (4×4 and 5×5 windows). Order 3: connected triples of numbers in
/// windows up to 6×6, kept only when no single number and no pair already
/// concludes anything. A pattern's cells are closed, open, walls (outside
/// the field) or not looked at; conclusions (safe / mine cells, or "no mine
/// layout fits") are proven by exact enumeration. Patterns already covered
/// by a lower order, wall patterns (they conclude what their open variant
/// does) and symmetric images are counted, not stored.
///
/// Prints a table per order and window (patterns enumerated / forced /
/// forbidden / covered / kept) and the time taken. The output is written
/// whole or not at all: to a temporary file beside it, synced, then renamed
/// into place; a symbolic link is written through (the file it names is
/// replaced, the link kept), and a device, pipe or folder is refused, never
/// replaced. It is byte-identical across runs and thread counts
/// (RAYON_NUM_THREADS) when the run completes.
///
/// Example: `sapper synth --order 2 -o rules/default.rules`, then grow it:
/// `sapper synth --order 3 --from rules/default.rules --budget-secs 600 -o
/// rules/order3.rules`.
#[derive(clap::Args)]
pub struct Args {
    /// Highest order to synthesize (1, 2 or 3). Without --from, orders
    /// 1..=N are synthesized; with --from, the orders above the base's.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    order: u8,
    /// Largest window k (3..=6): patterns that do not fit k×k are left out.
    /// Default: the full window of --order (3, 5 or 6).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(3..=6))]
    max_window: Option<u8>,
    /// Grow an existing rulebase: keep its rules and settings notes, add the
    /// orders above its max order up to --order.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Keep the --from rules without re-proving them first (by default
    /// every base rule is proven by enumeration, as `--rules` files are:
    /// an unsound base rule would be copied into the output).
    #[arg(long, requires = "from")]
    trust_rules: bool,
    /// Time budget in seconds for the whole run. Synthesis stops cleanly
    /// between geometries (a shape with one wall set) once it is spent; the
    /// rules found so far are written and the notes record what was covered.
    #[arg(long, value_name = "N")]
    budget_secs: Option<u64>,
    /// Output rulebase file.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

/// Smallest window holding any pattern of `order`.
fn min_window(order: u8) -> u8 {
    if order <= 1 {
        3
    } else {
        4
    }
}

pub fn run(args: Args) -> Result<ExitCode, super::CliError> {
    let base = match &args.from {
        Some(path) => {
            let base = read_rulebase(path)?;
            if super::rulebase::trust_from_flag(args.trust_rules) == super::rulebase::Trust::Prove {
                super::rulebase::prove_rulebase(&path.display().to_string(), &base)?;
            }
            Some(base)
        }
        None => None,
    };
    // With a base, the orders it already holds are kept as they are.
    let first = base.as_ref().map_or(1, |b| b.settings.max_order + 1);
    if first > args.order {
        let from = args
            .from
            .as_ref()
            .map_or(String::new(), |p| p.display().to_string());
        let hint = if first <= 3 {
            format!(" (use --order {first})")
        } else {
            String::new()
        };
        return Err(format!(
            "{from} already holds rules up to order {}; nothing to add with --order {}{hint}",
            first - 1,
            args.order
        )
        .into());
    }
    let max_window = args.max_window.unwrap_or(full_window(args.order));
    for order in first..=args.order {
        if max_window < min_window(order) {
            return Err(format!(
                "--max-window {max_window} leaves no pattern of order {order} (it needs at least {})",
                min_window(order)
            )
            .into());
        }
    }
    // Say now, not after the synthesis, if the output cannot be written.
    sapper_engine::files::write_target(&args.output)?;
    let options = Options {
        orders: (first..=args.order).collect(),
        max_window,
        budget: args.budget_secs.map(Duration::from_secs),
    };

    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:>10} [{elapsed_precise}] {wide_bar} {percent:>3}% eta {eta}",
        )
        .expect("valid template"),
    );
    let synthesis = synthesize(&options, &|event| match event {
        ProgressEvent::Stage { order, total } => {
            bar.set_length(total);
            bar.set_position(0);
            bar.set_message(format!("order {order}"));
        }
        ProgressEvent::Advance(n) => bar.inc(n),
    });
    bar.finish_and_clear();

    let rulebase = build_rulebase(base.as_ref(), &synthesis, &options);
    let bytes = rulebase
        .try_to_bytes()
        .map_err(|e| format!("cannot write the rulebase: {e}"))?;
    sapper_engine::files::write_whole(&args.output, &bytes)
        .map_err(|e| format!("cannot write the rulebase: {e}"))?;
    // An index saved beside an earlier output is now stale: refresh it
    // (the user asked for one there). Synthesized rules are proven by the
    // enumeration that derives them and the base was proven when read, so
    // the index may cache that proof — not after --trust-rules.
    let index = sapper_engine::rules::saved::index_path(&args.output);
    if index.exists() && !args.trust_rules {
        super::rulebase::save_index_of(&args.output, &bytes, &rulebase)?;
        eprintln!("rule index refreshed: {}", index.display());
    }

    let mut report = stats_table(&synthesis.stats);
    for note in &synthesis.notes {
        report.push_str(&format!("note: {note}\n"));
    }
    let size = std::fs::metadata(&args.output)
        .map(|m| m.len())
        .unwrap_or(0);
    let origin = match &base {
        Some(b) => format!(
            "{} more than the {} of the base",
            rulebase.rules.len().saturating_sub(b.rules.len()),
            b.rules.len()
        ),
        None => "all new".to_string(),
    };
    report.push_str(&format!(
        "{} rules ({origin}) written to {} ({size} bytes); synthesis took {:.2} s\n",
        rulebase.rules.len(),
        args.output.display(),
        synthesis.elapsed.as_secs_f64()
    ));
    // A closed stdout (e.g. piped into `head`) is not an error: the file is
    // written.
    let _ = std::io::stdout().lock().write_all(report.as_bytes());
    if !synthesis.complete() {
        for c in synthesis.coverage.iter().filter(|c| !c.complete()) {
            eprintln!(
                "sapper: warning: time budget spent: order {} covered {} of {} geometries ({} of {} shapes)",
                c.order, c.geometries_done, c.geometries_total, c.shapes_done, c.shapes_total
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads and fully validates a rulebase file (magic, version, checksum,
/// canonical sorted rules).
fn read_rulebase(path: &Path) -> Result<Rulebase, super::CliError> {
    let bytes = sapper_engine::files::read_capped(path, sapper_engine::files::MAX_RULEBASE_BYTES)
        .map_err(|e| format!("cannot read the base rulebase: {e}"))?;
    Rulebase::from_bytes(&bytes)
        .map_err(|e| format!("{} is not a rulebase: {e}", path.display()).into())
}
