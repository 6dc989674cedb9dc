//! The integration tests of the workspace, in one test binary (as ripgrep's
//! `tests/tests.rs`): one module per subject, each saying in its doc what
//! it checks against which oracle, and one support module, [`util`].
//!
//! One binary links the engine once instead of once per subject; its tests
//! share one process, so nothing here sets process-global state (no
//! environment variables, no working folder, no global rayon pool: thread
//! counts are chosen with a local pool or with `RAYON_NUM_THREADS` on a
//! child process) and temporary folders are unique per test
//! ([`util::TempDir`]).
//!
//! `cargo test --workspace` runs them; the tests that need the shared data
//! (`../shared/data`) are `#[ignore = "needs ../shared/data"]`, and the
//! exhaustive runs of tests that sample (every truncation, every change,
//! the README's commands as written) are ignored too: `-- --ignored` runs
//! them (`.ci/run` does). One subject: `cargo test --test suite -- cli::`.
//!
//! The tools that used to be ignored tests are examples of the root
//! package: `cargo run --release --example regenerate_v1_fixture` and
//! `cargo run --release --example bytes_per_rule`.

mod util;

/// Counts each thread's heap (the memory budgets' tests: [`util::heap`]).
#[global_allocator]
static HEAP: util::heap::Counting = util::heap::Counting;

mod analyse_brute;
mod bounds;
mod cli;
mod cli_probabilities;
mod default_rulebase;
mod docs;
mod formats;
mod frozen_index;
mod generate;
mod hard_positions;
mod hypotheses_brute;
mod learn;
mod linked_cells;
mod matcher;
mod metrics;
mod play;
mod probabilities;
mod reliability;
mod replay;
mod review;
mod rulebase_format;
mod rules_pairwise;
mod saved_index;
mod solver;
mod synth;
