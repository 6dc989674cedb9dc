//! The thesis layout (docs/design.md §5): one field is a folder holding
//!
//! - `field_info.csv`: one line `h,w,tm` (rows, columns, total mines; `h`
//!   and `w` positive);
//! - `status.csv`: `h` rows of `w` comma-separated `T`/`F` (`T` = open at
//!   the start);
//! - `values.csv`: `h` rows of `w` comma-separated true values, `-1` for a
//!   mine, otherwise the number of neighbouring mines (0–8).
//!
//! A folder of such folders (at any depth) is a corpus; a corpus may also
//! hold `expected.csv` (`field,solved,opened_safe_cells`), the outcome of
//! no-guess play by an exact reference.
//!
//! Everything is checked: the shape of every file, every entry, `tm` against
//! the mines in `values.csv`, every number against its neighbouring mines,
//! and that no mine is open at the start. Trailing whitespace, CRLF line ends,
//! a final newline, trailing blank lines, spaces around entries and a UTF-8
//! byte-order mark are tolerated; a blank line before or inside a grid is
//! not. Errors
//! give file, line and column (1-based; the column is the character position
//! of the entry in the line) and, for grid entries, the cell as `row r,
//! column c` (1-based, so the row is also the line number).
//!
//! Parsing makes no allocation per cell: a 1000×1000 field is a handful of
//! flat `Vec`s.
//!
//! One job a file: `field.rs` reads, checks and writes one field folder;
//! `corpus.rs` walks a corpus for its fields, in natural order;
//! `expected.rs` reads `expected.csv`.

mod corpus;
mod expected;
mod field;
#[cfg(test)]
mod tests;

pub use corpus::{find_fields, list_corpus, natural_cmp, Corpus};
pub use expected::{parse_expected, read_expected};
pub use field::{field_texts, parse_field, read_field, FIELD_FILES};

// What the submodules share (each has `use super::*`).
use super::{
    char_column, numbered_lines, plain_integer, quote, read_text, FormatError, PLAIN_INTEGER,
};
use crate::board::Field;
use crate::files::describe_io;
use crate::grid::Grid;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The file of a field folder holding `h,w,tm`; a folder holding it is a
/// field.
pub const FIELD_INFO_FILE: &str = "field_info.csv";
/// The file of a field folder saying which cells are open at the start.
pub const STATUS_FILE: &str = "status.csv";
/// The file of a field folder holding every cell's true value.
pub const VALUES_FILE: &str = "values.csv";
/// The file of a corpus holding the outcome of no-guess play per field.
pub const EXPECTED_FILE: &str = "expected.csv";

/// The header line of `expected.csv`.
pub const EXPECTED_HEADER: &str = "field,solved,opened_safe_cells";

/// A field folder found in a corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldRef {
    /// The folder's path relative to the corpus root, components joined with
    /// `/` (just the folder name for a flat corpus, or for a single field).
    pub name: String,
    /// The path of the field's folder: the corpus path with the relative
    /// path appended (the corpus path itself for a single field), ready for
    /// [`read_field`].
    pub dir: PathBuf,
}

/// One row of a corpus's `expected.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The field's name as [`find_fields`] gives it.
    pub field: String,
    /// Whether no-guess play opens every safe cell.
    pub solved: bool,
    /// Safe cells open when no-guess play stops (those open at the start
    /// included).
    pub opened_safe_cells: usize,
}
