//! # sapper-engine
//!
//! Everything needed to solve Minesweeper fields, and to weigh the cells
//! when nothing is forced:
//!
//! - [`grid`]: the rectangle and its neighbourhoods (edges handled once);
//! - [`board`]: cell states, ground-truth [`Field`]s, player [`Position`]s
//!   and the deduction vocabulary ([`Forced`], [`Source`], [`Method`]);
//! - [`constraints`]: the equations of a position, its frontier components
//!   and interior — what every exact method reasons over; `bitset`: sets
//!   of mine counts; `elimination`: the order in which a component's cells
//!   are summed out, shared by hypotheses and the counter;
//! - [`budget`]: the deadline and memory limit one analysis may use;
//! - [`files`]: reading user files bounded, writing them whole;
//! - [`formats`]: readers for the thesis layout and the position text format;
//! - [`methods`]: the four methods of the research — single-cell, linked
//!   cells 1, linked cells 2, hypotheses — one module each;
//! - [`probabilities`]: exact mine probabilities and layout counts of a
//!   position (per component, combined through the total mine count);
//! - [`game`]: levels, first-click rules, seeded layouts, and a [`game::Game`]
//!   that hides its layout from the player; [`play`]: whole games, the
//!   sapper player and optimal play on tiny boards; [`generate`]: no-guess
//!   boards;
//! - [`rules`]: rule patterns, the binary rulebase format and the rule index;
//! - [`wire`]: what both binary files share — magic and version header,
//!   bounded reader and writer, checksums, one error vocabulary;
//! - [`solver`]: the fixpoint loop for fields (open from the truth) and
//!   positions (analyse).
//!
//! Every deduction in this crate is proven; where one is made, a comment
//! says why it holds.

pub(crate) mod bitset;
pub mod board;
// The brute-force test oracle: public only for the integration tests.
#[doc(hidden)]
pub mod brute;
pub mod budget;
pub mod constraints;
pub(crate) mod elimination;
pub mod files;
pub mod formats;
pub mod game;
pub mod generate;
pub mod grid;
pub mod methods;
pub mod play;
pub mod probabilities;
pub mod rules;
pub mod solver;
pub mod wire;

#[cfg(test)]
pub(crate) mod test_rng;

pub use board::{Board, Cell, Contradiction, Field, Forced, Method, Position, Source, Value};
pub use grid::Grid;
