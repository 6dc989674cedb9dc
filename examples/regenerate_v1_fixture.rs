//! Writes the committed fixture `tests/fixtures/v1-small.rules` (format
//! version 1: every order-1 rule in 3×3 windows, every order-2 rule of two
//! horizontally adjacent foci in 3×4 windows) from the tests' exhaustive
//! generator. A tool run by hand, never in CI: it writes into the source
//! tree.
//!
//! ```text
//! cargo run --release --example regenerate_v1_fixture
//! ```
//!
//! The fixture must keep loading in every later version of sapper ("old
//! files still load", checked by `rulebase_format::v1_small_fixture_still_loads`);
//! do not regenerate it after the format version moves past 1 — add a new
//! fixture instead.

// The generator lives with the tests that check the fixture against it.
#[path = "../tests/suite/util/rule_gen.rs"]
mod rule_gen;

use rule_gen::{small_rulebase, FIXTURE};
use sapper_engine::rules::format::FORMAT_VERSION;
use sapper_engine::rules::verify::verify_rulebase;
use std::path::Path;

fn main() {
    assert_eq!(
        FORMAT_VERSION, 1,
        "v1-small is a version-1 fixture; add a new one instead"
    );
    let rb = small_rulebase();
    assert!(verify_rulebase(&rb).is_empty());
    std::fs::create_dir_all(Path::new(FIXTURE).parent().unwrap()).unwrap();
    rb.write(FIXTURE).unwrap();
    eprintln!(
        "wrote {} rules, {} bytes to {FIXTURE}",
        rb.rules.len(),
        std::fs::metadata(FIXTURE).unwrap().len()
    );
}
