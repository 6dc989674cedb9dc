//! Builds the rule index of the embedded default rulebase at compile time.
//!
//! `rules/default.rules` is indexed here, with the same engine the binary
//! links (`sapper-engine` is a build dependency), and the frozen index
//! (`RuleTiers::to_index_bytes`, see `engine/src/rules/matcher/frozen.rs`)
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
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let source = Path::new(&manifest).join("rules/default.rules");
    let bytes =
        std::fs::read(&source).unwrap_or_else(|e| panic!("reading {}: {e}", source.display()));
    // Fully checked here, once: the binary trusts what it embeds.
    let rb = Rulebase::from_bytes(&bytes)
        .unwrap_or_else(|e| panic!("{} does not load: {e}", source.display()));
    let index = RuleTiers::new(&rb).to_index_bytes(&bytes);
    let out = Path::new(&std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("default.index");
    std::fs::write(&out, index).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}
