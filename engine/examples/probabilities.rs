//! Every closed cell's exact mine probability, the safest cells and the
//! exact number of mine layouts; then a counter reused over many positions.
//!
//! ```text
//! cargo run -p sapper-engine --example probabilities [POSITION_FILE]
//! ```
//!
//! Without an argument it reads `samples/positions/guess.txt` (beginner,
//! 10 mines).

use sapper_engine::formats::position::read_position;
use sapper_engine::{Board, Engine, Level};
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| sample("samples/positions/guess.txt"));
    let position = read_position(&path)?;
    let engine = Engine::new()?;

    // One position: the whole report.
    let report = engine.probabilities(&position, None)?;
    for r in 0..report.rows {
        let row: Vec<String> = (0..report.cols)
            .map(|c| match report.probability(r, c) {
                Some(p) => format!("{:>4.0}%", 100.0 * p),
                None => "    .".to_string(),
            })
            .collect();
        println!("{}", row.join(""));
    }
    let safest: Vec<String> = report.safest.iter().map(|c| c.to_string()).collect();
    println!("safest: {}", safest.join(" "));
    // `Engine::probabilities` always counts the layouts exactly.
    let layouts = report.layouts.expect("counted");
    println!(
        "layouts: {layouts} (10^{:.2}), every probability within {:e}",
        report.log10_layouts, report.error_bound
    );

    // Many positions: one counter, its buffers reused.
    let mut counter = engine.counter();
    let game = sapper_engine::Game::random(
        Level::EXPERT,
        sapper_engine::FirstClick::Opening,
        (3, 3),
        11,
    )?;
    let board: Board = game.position();
    let p = counter.compute(&board, None)?;
    println!(
        "an expert opening: {} closed cells, least probability {:.4}",
        p.closed_cells().len(),
        p.least().unwrap_or(f64::NAN)
    );
    Ok(())
}

fn sample(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}
