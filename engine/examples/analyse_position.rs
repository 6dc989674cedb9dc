//! List every forced cell of a position — what a player sees, no truth —
//! with the rule or method that proved it.
//!
//! ```text
//! cargo run -p sapper-engine --example analyse_position [POSITION_FILE]
//! ```
//!
//! Without an argument it reads `samples/positions/one-two-one.txt`.

use sapper_engine::formats::position::read_position;
use sapper_engine::Engine;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| sample("samples/positions/one-two-one.txt"));
    let position = read_position(&path)?; // errors name the line and column
    let engine = Engine::new()?;
    let analysis = engine.analyse(&position)?;
    println!("{}:\n{position}", path.display());
    for d in &analysis.deductions {
        let (r, c) = position.grid.rc(d.cell);
        println!("({r},{c}) is {} — {}", d.value, d.source.name());
    }
    println!(
        "{} forced cells; {} closed cells left undecided",
        analysis.deductions.len(),
        analysis.board.unknown_count()
    );
    Ok(())
}

fn sample(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}
