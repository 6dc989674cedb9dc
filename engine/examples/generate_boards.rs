//! No-guess boards: uniform among the boards the engine solves from the
//! first click without guessing, the same boards for a seed on any thread
//! count.
//!
//! ```text
//! cargo run --release -p sapper-engine --example generate_boards [COUNT]
//! ```

use sapper_engine::generate::{Request, Sampling};
use sapper_engine::{Engine, Level};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let count = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 3,
    };
    let engine = Engine::new()?;
    let request = Request::new(Level::EXPERT)
        .count(count)
        .seed(7)
        .sampling(Sampling::Uniform);
    let generated = engine.generate(&request)?;
    println!(
        "{} expert boards in {} attempts; the first, opened at {:?}:",
        generated.fields.len(),
        generated.attempts,
        request.start
    );
    let first = &generated.fields[0];
    for (i, code) in first.to_codes().iter().enumerate() {
        print!(
            "{}",
            if *code < 0 {
                '*'
            } else {
                char::from(b'0' + *code as u8)
            }
        );
        if (i + 1) % first.grid.w == 0 {
            println!();
        }
    }
    // Every board is solvable from its start, by an independent run.
    for field in &generated.fields {
        assert!(engine.solves_from(field, request.start)?);
    }
    Ok(())
}
