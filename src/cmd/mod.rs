//! One module per subcommand. Each has `Args` (clap) and `run(args) ->
//! Result<ExitCode, CliError>` that reads its inputs, asks the engine, and
//! prints the engine's answers ([`sapper_engine::report`]); exit code 0 on
//! success, 1 when some input was bad but others were processed, 2 on a
//! fatal error.

/// `println!` that returns an error from the enclosing function instead of
/// panicking when stdout cannot be written (a full disk, a closed pipe).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
            .map_err(|e| format!("writing output: {e}"))?;
    }};
}

// The subcommands.
pub mod analyse;
pub mod bench;
pub mod engine;
pub mod generate;
pub mod metrics;
pub mod play;
pub mod review;
pub mod rules;
pub mod serve;
pub mod solve;
pub mod synth;

// What several of them share: flags, rulebases, fields, the heat map,
// JSON lines, tables, work done in parallel and printed in order,
// probabilities in words.
pub mod args;
pub mod fields;
pub mod heatmap;
pub mod json;
pub mod ordered;
pub mod percent;
pub mod rulebase;
pub mod table;

/// A fatal command error, printed as `sapper: error: ...`.
pub type CliError = Box<dyn std::error::Error + Send + Sync>;
