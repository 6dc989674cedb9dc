//! Readers (and one writer) for the two input formats of DESIGN.md §5:
//!
//! - [`thesis`]: the research's field layout (`field_info.csv`,
//!   `status.csv`, `values.csv`), corpora of such folders and their
//!   `expected.csv`;
//! - [`position`]: the project's text picture of what a player sees.
//!
//! Every reader validates its input completely and reports a problem as a
//! [`FormatError`] naming the file, the 1-based line and column, what was
//! found and what was expected. No input, however malformed, makes a reader
//! panic.

pub mod position;
pub mod thesis;

pub use position::{parse_position, read_position, write_position};
pub use thesis::{
    find_fields, parse_expected, parse_field, read_expected, read_field, Expected, FieldRef,
};

use std::path::{Path, PathBuf};

/// A problem in an input file. Displayed as `path:line:column: message`
/// (the line and column, both 1-based, are left out when unknown; the column
/// counts characters, not bytes).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", location(path, *line, *column))]
pub struct FormatError {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

fn location(path: &Path, line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!("{}:{l}:{c}", path.display()),
        (Some(l), None) => format!("{}:{l}", path.display()),
        _ => path.display().to_string(),
    }
}

impl FormatError {
    /// An error about the file as a whole.
    pub fn new(path: &Path, message: impl Into<String>) -> FormatError {
        FormatError {
            path: path.to_path_buf(),
            line: None,
            column: None,
            message: message.into(),
        }
    }

    /// An error about a whole line.
    pub fn at_line(path: &Path, line: usize, message: impl Into<String>) -> FormatError {
        FormatError {
            line: Some(line),
            ..FormatError::new(path, message)
        }
    }

    /// An error at one character of a line.
    pub fn at(path: &Path, line: usize, column: usize, message: impl Into<String>) -> FormatError {
        FormatError {
            line: Some(line),
            column: Some(column),
            ..FormatError::new(path, message)
        }
    }
}

/// Reads a whole file as UTF-8 text. A missing or unreadable file, or bytes
/// that are not UTF-8, are errors naming the file (and for bad bytes, their
/// line and column).
pub(crate) fn read_text(path: &Path) -> Result<String, FormatError> {
    // Open and read to the end without asking the file's size first (as
    // `std::fs::read` and `File::read_to_end` do, two more system calls):
    // the files are small, and a corpus is hundreds of them. `take` makes
    // it the plain read loop.
    let read = |path: &Path| -> std::io::Result<Vec<u8>> {
        use std::io::Read;
        let mut bytes = Vec::with_capacity(4096);
        std::fs::File::open(path)?
            .take(u64::MAX)
            .read_to_end(&mut bytes)?;
        Ok(bytes)
    };
    let bytes = read(path).map_err(|e| {
        let what = match e.kind() {
            std::io::ErrorKind::NotFound => "file not found".to_string(),
            std::io::ErrorKind::IsADirectory => "expected a file, found a folder".to_string(),
            _ => format!("cannot read file: {e}"),
        };
        FormatError::new(path, what)
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let bad = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // Everything before `bad` is valid UTF-8, so it can be split into
        // lines and its characters counted.
        let before = std::str::from_utf8(&bytes[..bad]).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |p| p + 1);
        let column = before[line_start..].chars().count() + 1;
        FormatError::at(path, line, column, "not UTF-8 text: expected a text file")
    })
}

/// The lines of a text file with their 1-based numbers, a leading byte-order
/// mark removed and each line's trailing whitespace (including the `\r` of
/// CRLF line ends) trimmed. A final newline does not make an extra line.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = text.strip_suffix('\n').unwrap_or(text);
    // An empty text has no lines (`split` would give one empty line).
    let lines = (!text.is_empty()).then(|| text.split('\n'));
    lines
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(k, line)| (k + 1, line.trim_end()))
}

/// 1-based character column of byte offset `byte` in `line`.
pub(crate) fn char_column(line: &str, byte: usize) -> usize {
    line.get(..byte).map_or(byte, |s| s.chars().count()) + 1
}

/// A short quotation of what was found, for messages (long inputs are cut).
pub(crate) fn quote(found: &str) -> String {
    const MAX: usize = 24;
    if found.chars().count() <= MAX {
        format!("`{found}`")
    } else {
        let head: String = found.chars().take(MAX).collect();
        format!("`{head}…`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_leaves_out_unknown_parts() {
        let p = Path::new("dir/f.csv");
        assert_eq!(FormatError::new(p, "bad").to_string(), "dir/f.csv: bad");
        assert_eq!(
            FormatError::at_line(p, 3, "bad").to_string(),
            "dir/f.csv:3: bad"
        );
        assert_eq!(
            FormatError::at(p, 3, 7, "bad").to_string(),
            "dir/f.csv:3:7: bad"
        );
    }

    #[test]
    fn lines_are_numbered_and_trimmed() {
        let lines: Vec<_> = numbered_lines("\u{feff}a, \r\nb\n\nc\t\n").collect();
        assert_eq!(lines, vec![(1, "a,"), (2, "b"), (3, ""), (4, "c")]);
        let lines: Vec<_> = numbered_lines("x").collect();
        assert_eq!(lines, vec![(1, "x")]);
        assert_eq!(numbered_lines("").count(), 0);
        assert_eq!(numbered_lines("\n").count(), 0);
        assert_eq!(
            numbered_lines("\n\n").collect::<Vec<_>>(),
            vec![(1, ""), (2, "")]
        );
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(char_column("ab,cd", 3), 4);
        assert_eq!(char_column("é,x", 3), 3);
    }

    #[test]
    fn missing_and_non_utf8_files_are_named() {
        let dir = std::env::temp_dir().join(format!("sapper-formats-mod-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("nope.csv");
        let e = read_text(&missing).unwrap_err();
        assert_eq!(e.path, missing);
        assert!(e.message.contains("not found"), "{e}");

        let bad = dir.join("bad.csv");
        std::fs::write(&bad, b"1,2\n3,\xff4\n").unwrap();
        let e = read_text(&bad).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(3)), "{e}");
        assert!(e.message.contains("UTF-8"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
