//! The library in a few lines: read a field in the thesis layout, solve it
//! without guessing (with a rulebase file if one is given, else the four
//! methods alone), and print the outcome and who proved what.
//!
//! ```text
//! cargo run -p sapper-engine --example solve_field -- samples/fields/field_1 [rules/default.rules]
//! ```

use sapper_engine::budget::Budget;
use sapper_engine::formats::thesis::read_field;
use sapper_engine::methods::MethodTable;
use sapper_engine::rules::Rulebase;
use sapper_engine::solver::{solve_field_with, Layers, RuleTiers};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let Some(folder) = args.next() else {
        eprintln!("usage: solve_field FIELD_FOLDER [RULEBASE]");
        return ExitCode::from(2);
    };
    let field = match read_field(&folder) {
        Ok(field) => field,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let tiers = match args.next().map(Rulebase::read) {
        None => None,
        Some(Ok(rulebase)) => Some(RuleTiers::new(&rulebase)),
        Some(Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let layers = Layers {
        rules: tiers.as_ref(),
        methods: true,
        budget: Budget::default_limits(),
    };
    match solve_field_with(&field, layers, &mut MethodTable::default(), None) {
        Ok(outcome) => {
            println!(
                "{}: {} ({} of {} safe cells open)",
                folder.display(),
                if outcome.solved { "solved" } else { "stuck" },
                outcome.opened_safe_cells,
                field.safe_cells()
            );
            for d in &outcome.deductions {
                let (r, c) = field.grid.rc(d.cell);
                println!("({r},{c}) {} by {}", d.value, d.source.name());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {}", folder.display(), e.describe(field.grid));
            ExitCode::from(1)
        }
    }
}
