//! The size of a bigger, realistic rulebase in the file format (orders 1–3
//! over several foci placements of the tests' exhaustive generator, a few
//! hundred thousand rules): bytes per rule per placement and in all, the
//! time to read it back and to verify it. A measurement, not a check (the
//! figures quoted in `engine/src/rules/format.rs` come from it); it fails
//! only if reading back or verifying fails, or above 16 bytes per rule.
//!
//! ```text
//! cargo run --release --example bytes_per_rule
//! SAPPER_MEASURE_OUT=/tmp/all.rules cargo run --release --example bytes_per_rule
//! ```
//!
//! With `SAPPER_MEASURE_OUT` set, the whole rulebase is also written there.

// The generator lives with the tests that use it.
#[path = "../tests/suite/util/rule_gen.rs"]
mod rule_gen;

use rule_gen::{exhaustive_rules, settings, small_rulebase, FIXTURE};
use sapper_engine::rules::verify::verify_rulebase;
use sapper_engine::rules::Rulebase;

fn main() {
    let small = small_rulebase();
    eprintln!(
        "for comparison, the v1 fixture ({FIXTURE}): {} rules, {} bytes",
        small.rules.len(),
        small.to_bytes().len()
    );
    // (h, w, foci) of each window.
    type Placement = (usize, usize, &'static [(usize, usize)]);
    let placements: [Placement; 10] = [
        (3, 3, &[(1, 1)]),
        (3, 4, &[(1, 1), (1, 2)]),
        (4, 4, &[(1, 1), (2, 2)]),
        (3, 5, &[(1, 1), (1, 3)]),
        (4, 5, &[(1, 1), (2, 3)]),
        (5, 5, &[(1, 1), (3, 3)]),
        (3, 5, &[(1, 1), (1, 2), (1, 3)]),
        (4, 4, &[(1, 1), (1, 2), (2, 2)]),
        (4, 5, &[(1, 1), (1, 2), (2, 3)]),
        (3, 6, &[(1, 1), (1, 2), (1, 4)]),
    ];
    let mut all = Vec::new();
    for (h, w, foci) in placements {
        let rules = exhaustive_rules(h, w, foci);
        let rb = Rulebase {
            settings: settings("measure", foci.len() as u8, h.max(w) as u8),
            rules: rules.clone(),
        };
        let bytes = rb.to_bytes();
        eprintln!(
            "{h}×{w} foci {foci:?}: {} rules, {} bytes, {:.2} bytes/rule",
            rules.len(),
            bytes.len(),
            bytes.len() as f64 / rules.len() as f64
        );
        all.extend(rules);
    }
    let rb = Rulebase {
        settings: settings("measure", 3, 6),
        rules: all,
    }
    .normalized()
    .unwrap();
    let bytes = rb.to_bytes();
    let per_rule = bytes.len() as f64 / rb.rules.len() as f64;
    eprintln!(
        "all: {} rules, {} bytes, {per_rule:.2} bytes/rule",
        rb.rules.len(),
        bytes.len()
    );
    if let Ok(path) = std::env::var("SAPPER_MEASURE_OUT") {
        std::fs::write(path, &bytes).unwrap();
    }
    let start = std::time::Instant::now();
    let back = Rulebase::from_bytes(&bytes).unwrap();
    eprintln!("from_bytes: {:?}", start.elapsed());
    assert_eq!(back, rb);
    let start = std::time::Instant::now();
    assert!(verify_rulebase(&rb).is_empty());
    eprintln!("verify_rulebase (one thread): {:?}", start.elapsed());
    assert!(per_rule <= 16.0, "{per_rule} bytes per rule");
}
