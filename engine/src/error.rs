//! [`Error`]: what the [`Engine`](crate::Engine) answers when it cannot
//! answer, with the file, line and column or the cells at fault.
//!
//! Each module keeps its own precise error type ([`FormatError`],
//! [`LoadError`], [`OverBudget`], [`GaveUp`], …); `Error` gathers them for
//! a caller who wants one type, and adds the cases of the entry point
//! itself. Every message speaks of the engine, never of a command line:
//! a front end adds its own hints (which flag raises a limit) when it
//! prints one.

use crate::budget::OverBudget;
use crate::files::FileError;
use crate::formats::FormatError;
use crate::game::LevelError;
use crate::generate::{GaveUp, GenerateError};
use crate::rules::load::LoadError;
use crate::Grid;

/// Why the engine gave no answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An input text or file is malformed (file, line and column).
    #[error(transparent)]
    Format(#[from] FormatError),
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// Cell codes, a layout or arguments that describe no valid board.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The rulebase could not be loaded or proven.
    #[error(transparent)]
    Rules(#[from] LoadError),
    /// The position admits no mine layout.
    #[error("no mine layout fits: {reason}{}", cells_text(cells))]
    Contradiction {
        /// Why, in words.
        reason: String,
        /// The cells involved, `(row, column)` from 0 (the numbers of the
        /// failing group; empty when the total alone is at fault).
        cells: Vec<(usize, usize)>,
    },
    /// An exact computation would exceed the engine's time or memory
    /// budget: the input was refused, not answered wrongly.
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    /// No density and no total mine count: probabilities need one.
    #[error("the position does not give the total number of mines and no density was given")]
    NoMineCount,
    /// The probabilities could not be guaranteed within
    /// [`ACCURACY`](crate::probabilities::ACCURACY).
    #[error("the probabilities could only be guaranteed within {0:e}")]
    Inaccurate(f64),
    /// A board size, mine count or first click that cannot be played.
    #[error(transparent)]
    Level(#[from] LevelError),
    /// No no-guess board was found within the attempts allowed.
    #[error(transparent)]
    GaveUp(#[from] GaveUp),
    /// A move was asked of a position with no closed cell that may be
    /// safe: every closed cell is a proven mine (or none is left), so
    /// every safe cell is open.
    #[error("no safe cell is left to open: every closed cell is a mine")]
    NothingToOpen,
    /// A deduction disagreed with a field's ground truth: a defect of the
    /// engine, reported rather than hidden.
    #[error("internal error: {0}")]
    Internal(String),
}

fn cells_text(cells: &[(usize, usize)]) -> String {
    if cells.is_empty() {
        return String::new();
    }
    let mut s = String::from(" (cells");
    for (r, c) in cells.iter().take(16) {
        s.push_str(&format!(" ({r},{c})"));
    }
    if cells.len() > 16 {
        s.push_str(&format!(" and {} more", cells.len() - 16));
    }
    s.push(')');
    s
}

impl From<GenerateError> for Error {
    fn from(e: GenerateError) -> Error {
        match e {
            GenerateError::GaveUp(g) => Error::GaveUp(g),
            GenerateError::OverBudget(o) => Error::OverBudget(o),
        }
    }
}

impl Error {
    /// A method's error on a board of `grid`.
    pub(crate) fn from_method(e: crate::methods::MethodError, grid: Grid) -> Error {
        match e {
            crate::methods::MethodError::Contradiction(c) => Error::contradiction(&c, grid),
            crate::methods::MethodError::OverBudget(o) => Error::OverBudget(o),
        }
    }

    /// A solve's error on a board of `grid`.
    pub(crate) fn from_solve(e: crate::solver::SolveError, grid: Grid) -> Error {
        match e {
            crate::solver::SolveError::Contradiction(c) => Error::contradiction(&c, grid),
            crate::solver::SolveError::OverBudget(o) => Error::OverBudget(o),
            crate::solver::SolveError::Unsound {
                cell,
                value,
                source,
            } => Error::Internal(crate::solver::unsound_text(grid, cell, value, source)),
        }
    }

    /// A probability computation's error on a board of `grid`.
    pub(crate) fn from_probability(e: crate::probabilities::ProbabilityError, grid: Grid) -> Error {
        use crate::probabilities::ProbabilityError as P;
        match e {
            P::Contradiction(c) => Error::contradiction(&c, grid),
            P::OverBudget(o) => Error::OverBudget(o),
            P::NoMineCount => Error::NoMineCount,
            P::BadDensity(d) => Error::Input(InputError::new(format!(
                "density {d} is not strictly between 0 and 1"
            ))),
            P::Inaccurate(b) => Error::Inaccurate(b),
        }
    }

    /// The contradiction `c` on `grid`, its cells as `(row, column)`.
    pub fn contradiction(c: &crate::Contradiction, grid: Grid) -> Error {
        Error::Contradiction {
            reason: c.reason.clone(),
            cells: c.cells.iter().map(|&i| grid.rc(i)).collect(),
        }
    }
}

/// Cell codes or arguments that describe no valid board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct InputError {
    /// What is wrong, naming the cell `(row, column)` from 0 where one is
    /// at fault.
    pub message: String,
    /// The cell at fault, if one is.
    pub cell: Option<(usize, usize)>,
}

impl InputError {
    /// An error about the input as a whole.
    pub fn new(message: impl Into<String>) -> InputError {
        InputError {
            message: message.into(),
            cell: None,
        }
    }

    /// An error at one cell.
    pub fn at(row: usize, col: usize, message: impl std::fmt::Display) -> InputError {
        InputError {
            message: format!("row {row}, column {col}: {message}"),
            cell: Some((row, col)),
        }
    }
}
