//! Reviewing games people played: [`played`] replays a recorded game's
//! mouse events ([`crate::formats::replay::Replay`]) into the moves the
//! player made, the position they saw before each, the click counts and the
//! outcome.

pub mod played;
pub mod proof;
pub mod verdict;

pub use played::{Clicks, Move, MoveKind, Outcome, PlayedGame};
pub use proof::Proof;
pub use verdict::{JudgedMove, Verdict, Verdicts, Why};
