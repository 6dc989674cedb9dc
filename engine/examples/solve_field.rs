//! Solve a field without guessing: read it in the thesis layout, open every
//! cell the engine proves safe, and print the outcome and what proved each
//! cell.
//!
//! ```text
//! cargo run -p sapper-engine --example solve_field [FIELD_FOLDER]
//! ```
//!
//! Without an argument it solves `samples/fields/field_1`, which the
//! repository ships.

use sapper_engine::formats::thesis::read_field;
use sapper_engine::Engine;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let folder = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| sample("samples/fields/field_1"));
    let field = read_field(&folder)?;
    let engine = Engine::new()?; // the embedded rulebase, then the four methods
    let outcome = engine.solve(&field)?;
    println!(
        "{}: {} ({} of {} safe cells open)",
        folder.display(),
        if outcome.solved { "solved" } else { "stuck" },
        outcome.opened_safe_cells,
        field.safe_cells()
    );
    let by = outcome.by_source;
    println!(
        "cells proven by rules: {}, by the four methods: {:?}",
        by.rules(),
        by.methods
    );
    for d in outcome.deductions.iter().take(10) {
        let (r, c) = field.grid.rc(d.cell);
        println!("  ({r},{c}) {} by {}", d.value, d.source.name());
    }
    Ok(())
}

/// A file the repository ships, wherever the example is run from.
fn sample(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}
