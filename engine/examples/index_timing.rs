//! Times loading a rulebase file and building its `RuleIndex`.
//! `cargo run --release -p sapper-engine --example index_timing -- rules/default.rules`
use sapper_engine::rules::{matcher::RuleIndex, Rulebase};
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| "rules/default.rules".into());
    let bytes = std::fs::read(&path).expect("read rulebase");
    let t0 = Instant::now();
    let rb = Rulebase::from_bytes(&bytes).expect("valid rulebase");
    let t1 = Instant::now();
    let ix = RuleIndex::new(&rb);
    let t2 = Instant::now();
    println!(
        "{path}: {} rules; from_bytes {:.2} ms, RuleIndex::new {:.2} ms; {:?}",
        rb.rules.len(),
        (t1 - t0).as_secs_f64() * 1e3,
        (t2 - t1).as_secs_f64() * 1e3,
        ix.stats()
    );
}
