//! # sapper-engine
//!
//! A Minesweeper engine: it solves fields without guessing, lists every
//! forced cell of a position with what proved it, gives every closed cell's
//! exact mine probability, plays whole games, and generates boards that
//! need no guess. A rulebase of proven local patterns is matched first;
//! the four methods of the source research — single-cell, linked cells 1,
//! linked cells 2 and hypotheses (exact and complete) — run only when no
//! rule fires. Every deduction is proven; where one is made, a comment
//! says why it holds. The terms are defined in `docs/design.md`.
//!
//! ## One entry point
//!
//! Build an [`Engine`] once — the embedded rulebase costs nothing to load —
//! and share it between threads:
//!
//! ```
//! use sapper_engine::{Engine, Position};
//!
//! let engine = Engine::new()?;
//! let position: Position = "mines 2\n???\n121\n...\n".parse()?;
//! let analysis = engine.analyse(&position)?;
//! for d in &analysis.deductions {
//!     let (row, col) = position.grid.rc(d.cell);
//!     println!("({row},{col}) is {} by {}", d.value, d.source.name());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! | to | call | answer ([`report`]) | example |
//! |---|---|---|---|
//! | solve a field from its start | [`Engine::solve`], [`Engine::solve_learning`] | [`SolveOutcome`] ([`report::SolveReport`]) | `examples/solve_field.rs` |
//! | list a position's forced cells | [`Engine::analyse`], [`Engine::analyse_with`] | [`Analysis`] ([`report::AnalysisReport`]) | `examples/analyse_position.rs` |
//! | mine probabilities, layouts | [`Engine::probabilities`], [`Engine::probabilities_with`], [`Engine::counter`] | [`ProbabilityReport`] | `examples/probabilities.rs` |
//! | the player's move | [`Engine::next_move`], [`Engine::player`] | [`play::Move`] ([`report::MoveReport`]) | `examples/play_game.rs` |
//! | a game clicked step by step | [`game::Game`] | [`Board`] | `examples/play_game.rs` |
//! | many seeded games | [`Engine::play`] | [`PlaySummary`] ([`report::PlayReport`]) | `examples/play_many.rs` |
//! | no-guess boards | [`Engine::generate`] | [`generate::Generated`] ([`report::BoardReport`]) | `examples/generate_boards.rs` |
//!
//! Every answer serialises with serde as the JSON the CLI prints, the
//! server answers and the Python package returns as dicts ([`report`]);
//! requests deserialise from what the engine protocol, the server and
//! Python are sent ([`request`]). Files are read by [`formats`]; the
//! rulebase tooling of `sapper synth` and `sapper rules` is [`rules`].
//!
//! Rules: [`Rules::Default`] (embedded), [`Rules::File`] (a rulebase file,
//! every rule re-proven on load unless its saved index vouches for it),
//! [`Rules::TrustedFile`], or [`Rules::None`]. A [`budget::Budget`] bounds
//! each computation in time and memory; beyond it the answer is an
//! [`Error::OverBudget`], never a wrong one.
//!
//! ## Positions and layouts
//!
//! A [`Position`] is what a player sees. It reads from the text format
//! (`str::parse`: `?` closed, `F` flag, `0`–`8` a number, `.` a revealed 0,
//! `*` known safe, an optional `mines N` line first) and writes back to it
//! (`Display`), or from integer cell codes ([`Position::from_codes`]:
//! 0–8 a number, 10 closed, 11 flag, as ms_toollib encodes a board). A
//! [`Field`] is a layout (the truth): [`Field::from_codes`] reads −1 for a
//! mine and 0–8 for the numbers. See [`formats::codes`].
//!
//! ```
//! use sapper_engine::Position;
//!
//! let p = Position::from_codes(2, 2, &[1, 10, 10, 10], Some(1))?;
//! assert_eq!(p.to_string(), "mines 1\n1?\n??\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Errors
//!
//! Every fallible call returns [`Error`] (or its module's own error type,
//! which converts into it): a malformed text names its line and column, a
//! contradiction its cells, a refusal the limit it hit. No message names a
//! command-line flag; front ends add their own hints.
//!
//! ## Modules
//!
//! - [`grid`]: the rectangle and its neighbourhoods (edges handled once);
//! - [`board`]: cell states, ground-truth [`Field`]s, player [`Position`]s
//!   and the deduction vocabulary ([`Forced`], [`Source`], [`Method`]);
//! - [`budget`]: the deadline and memory limit one computation may use;
//! - [`formats`]: the thesis layout, the position text, MBF, cell codes and
//!   recorded games (replays);
//! - [`probabilities`]: exact mine probabilities and layout counts (the
//!   counter [`Engine::counter`] lends);
//! - [`game`]: levels, first-click rules, seeded layouts, and a
//!   [`game::Game`] that hides its layout; [`play`]: the sapper player and
//!   whole games; [`generate`]: no-guess boards;
//! - [`review`]: recorded games replayed into moves, positions and clicks;
//! - [`report`] and [`request`]: the answers and requests as data;
//! - [`rules`]: rule patterns, the binary rulebase format, learning,
//!   verification, loading and the index saved beside a rulebase
//!   ([`rules::saved`]) — the tooling of `sapper synth` and `sapper
//!   rules`.
//!
//! The machinery behind [`Engine`] — the constraint system, the four
//! methods, the solver's fixpoint, the rule index, the wire format and the
//! bounded file readers and whole-file writers — is public only for the
//! project's own tests and tools, and hidden from this documentation: it
//! may change without notice.

#![warn(missing_docs)]

mod api;
pub(crate) mod bitset;
pub mod board;
// The brute-force test oracle: for the crate's own tests, and for the
// integration tests through the `oracles` feature; not API.
#[cfg(any(test, feature = "oracles"))]
#[doc(hidden)]
pub mod brute;
pub mod budget;
#[doc(hidden)]
pub mod constraints;
pub(crate) mod elimination;
mod error;
#[doc(hidden)]
pub mod files;
pub mod formats;
pub mod game;
pub mod generate;
pub mod grid;
#[doc(hidden)]
pub mod methods;
pub mod metrics;
pub mod play;
pub mod probabilities;
pub mod report;
pub mod request;
pub mod review;
pub mod rules;
#[doc(hidden)]
pub mod solver;
#[doc(hidden)]
pub mod wire;

#[cfg(test)]
pub(crate) mod test_rng;

// The code blocks of the READMEs run as doctests, so they cannot rot
// (only under `cargo test`: the repository README is outside the package).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct EngineReadme;
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct RepositoryReadme;

pub use api::{
    wilson, Counter, Engine, Layer, PlaySettings, PlaySummary, ProbabilityOptions, Rules,
};
pub use board::{Board, Cell, Contradiction, Field, Forced, Method, Position, Source, Value};
pub use error::{Error, InputError};
pub use game::{FirstClick, Game, Level};
pub use grid::Grid;
pub use methods::{MethodStats, MethodTable};
pub use report::ProbabilityReport;
pub use solver::{Analysis, BySource, Deduction, SolveOutcome};
