//! Builds the rule index of the embedded default rulebase at compile time.
//!
//! `rules/default.rules`, as the engine embeds it, is indexed here with the
//! same engine the binary links (`sapper-engine` is a build dependency),
//! and the frozen index
//! (`RuleTiers::to_index_bytes`, see `engine/src/rules/index/frozen.rs`)
//! written to `$OUT_DIR/default.index`, which `src/cmd/common.rs` embeds:
//! the binary then loads the default rules in a fraction of a millisecond
//! instead of indexing them at every start. Cargo runs this again when the
//! rulebase, this script or the engine changes, so regenerating
//! `rules/default.rules` is all it takes.

use sapper_engine::rules::Rulebase;
use sapper_engine::solver::RuleTiers;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=rules/default.rules");
    println!("cargo:rerun-if-changed=build.rs");
    // The engine embeds the rulebase (`rules::DEFAULT_RULEBASE`): index
    // those very bytes. Fully checked here, once: the binary trusts what it
    // embeds.
    let bytes = sapper_engine::rules::DEFAULT_RULEBASE;
    let rb = Rulebase::from_bytes(bytes)
        .unwrap_or_else(|e| panic!("rules/default.rules does not load: {e}"));
    let index = RuleTiers::new(&rb).to_index_bytes(bytes);
    let out = Path::new(&std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("default.index");
    std::fs::write(&out, index).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}
