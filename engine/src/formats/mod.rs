//! Readers and writers for the input formats of docs/design.md §5:
//!
//! - [`thesis`]: the research's field layout (`field_info.csv`,
//!   `status.csv`, `values.csv`), corpora of such folders and their
//!   `expected.csv`;
//! - [`position`]: the project's text picture of what a player sees;
//! - [`mbf`]: the binary board format of JSMinesweeper and Minesweeper
//!   Arbiter (mines only);
//! - [`replay`]: recorded games (`.rmv`, `.evf`, `.avf`, `.mvf`, RAWVF):
//!   the board, the player's mouse events and the file's header.
//!
//! Every reader validates its input completely and reports a problem as a
//! [`FormatError`] naming the file, the 1-based line and column (or, in a
//! binary file, the byte offset), what was found and what was expected. No
//! input, however malformed, makes a reader panic.

pub mod codes;
pub mod mbf;
pub mod position;
pub mod replay;
pub mod thesis;

pub use position::{parse_position, read_position, write_position};
pub use thesis::{
    find_fields, list_corpus, parse_expected, parse_field, read_expected, read_field, Corpus,
    Expected, FieldRef,
};

use std::path::{Path, PathBuf};

/// A problem in an input file. Displayed as `path:line:column: message`
/// (the line and column, both 1-based, are left out when unknown; the column
/// counts characters, not bytes), or `path: byte N: message` for a problem
/// at byte offset `N` (from 0) of a binary file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", location(path, *line, *column, *byte))]
pub struct FormatError {
    /// The file the problem is in.
    pub path: PathBuf,
    /// The 1-based line, when the problem is on one line.
    pub line: Option<usize>,
    /// The 1-based column in characters, when the problem is at one
    /// character of `line`.
    pub column: Option<usize>,
    /// The byte offset (from 0) of the problem in a binary file, when it is
    /// at one place of it.
    pub byte: Option<u64>,
    /// What was found and what was expected, in words.
    pub message: String,
}

fn location(path: &Path, line: Option<usize>, column: Option<usize>, byte: Option<u64>) -> String {
    match (line, column, byte) {
        (Some(l), Some(c), _) => format!("{}:{l}:{c}", path.display()),
        (Some(l), None, _) => format!("{}:{l}", path.display()),
        (None, _, Some(b)) => format!("{}: byte {b}", path.display()),
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
            byte: None,
            message: message.into(),
        }
    }

    /// An error at byte offset `byte` (from 0) of a binary file.
    pub fn at_byte(path: &Path, byte: u64, message: impl Into<String>) -> FormatError {
        FormatError {
            byte: Some(byte),
            ..FormatError::new(path, message)
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

/// Reads a whole file as UTF-8 text: a regular file of at most
/// [`MAX_TEXT_BYTES`](crate::files::MAX_TEXT_BYTES), with LF or CRLF line
/// ends. A missing, unreadable or oversized file, a device or pipe, bytes
/// that are not UTF-8 and a carriage return not followed by a line feed are
/// errors naming the file (and for bad bytes, their line and column).
pub(crate) fn read_text(path: &Path) -> Result<String, FormatError> {
    let bytes = crate::files::read_capped(path, crate::files::MAX_TEXT_BYTES)
        .map_err(|e| FormatError::new(path, e.reason))?;
    text_of(path, bytes)
}

/// Reads a whole stream (standard input) as UTF-8 text, at most
/// [`MAX_TEXT_BYTES`](crate::files::MAX_TEXT_BYTES) like a file (more is
/// refused once the cap is passed, without reading on); `name` names the
/// stream in errors.
pub fn read_text_stream(stream: impl std::io::Read, name: &Path) -> Result<String, FormatError> {
    let bytes = crate::files::read_stream_capped(stream, name, crate::files::MAX_TEXT_BYTES)
        .map_err(|e| FormatError::new(name, e.reason))?;
    text_of(name, bytes)
}

/// `bytes` as text (see [`read_text`]).
pub(crate) fn text_of(path: &Path, bytes: Vec<u8>) -> Result<String, FormatError> {
    let text = String::from_utf8(bytes).map_err(|e| {
        let bad = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // Everything before `bad` is valid UTF-8, so it can be split into
        // lines and its characters counted.
        let before = std::str::from_utf8(&bytes[..bad]).unwrap_or_default();
        let (line, column) = line_and_column(before, bad);
        FormatError::at(path, line, column, "not UTF-8 text: expected a text file")
    })?;
    // A lone CR (old Mac line ends) would hide line breaks inside a line.
    let bytes = text.as_bytes();
    if let Some(at) =
        (0..bytes.len()).find(|&i| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
    {
        let (line, column) = line_and_column(&text, at);
        return Err(FormatError::at(
            path,
            line,
            column,
            "a carriage return (CR) not followed by a line feed: expected LF or CRLF line ends",
        ));
    }
    Ok(text)
}

/// 1-based line and character column of byte `at` of `text`.
fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    (line, before[line_start..].chars().count() + 1)
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

/// The one rule for integers in every text format: plain decimal digits
/// with no sign and no leading zero (`0`, `7`, `40`), or exactly `-1` (a
/// mine, where the format has one). `None` for anything else — `+1`, `-0`,
/// `01`, `-01`, spaces, or a number too large.
pub(crate) fn plain_integer(s: &str) -> Option<i64> {
    if s == "-1" {
        return Some(-1);
    }
    let bytes = s.as_bytes();
    let plain = !bytes.is_empty()
        && bytes.iter().all(u8::is_ascii_digit)
        && (bytes[0] != b'0' || bytes.len() == 1);
    if !plain {
        return None;
    }
    s.parse::<i64>().ok()
}

/// What [`plain_integer`] accepts, for messages.
pub(crate) const PLAIN_INTEGER: &str = "plain decimal digits, no sign or leading zero";

/// A short quotation of what was found, for messages: long inputs are cut,
/// control characters shown escaped (`\r`, `\u{0}`), so a message
/// is always one printable line.
pub(crate) fn quote(found: &str) -> String {
    const MAX: usize = 24;
    let printable = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect()
    };
    if found.chars().count() <= MAX {
        format!("`{}`", printable(found))
    } else {
        let head: String = found.chars().take(MAX).collect();
        format!("`{}…`", printable(&head))
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
        assert_eq!(
            FormatError::at_byte(p, 12, "bad").to_string(),
            "dir/f.csv: byte 12: bad"
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
    fn integers_are_plain_decimals_and_minus_one() {
        for (text, value) in [
            ("0", Some(0)),
            ("7", Some(7)),
            ("40", Some(40)),
            ("-1", Some(-1)),
        ] {
            assert_eq!(plain_integer(text), value, "{text}");
        }
        for text in [
            "+1",
            "-0",
            "01",
            "-01",
            "00",
            "",
            " 1",
            "1 ",
            "-2",
            "1e3",
            "99999999999999999999",
        ] {
            assert_eq!(plain_integer(text), None, "{text}");
        }
    }

    #[test]
    fn quotations_are_printable() {
        assert_eq!(quote("T\rT"), "`T\\rT`");
        assert_eq!(quote("a\0b"), "`a\\u{0}b`");
        assert_eq!(quote("é"), "`é`");
    }

    #[test]
    fn lone_carriage_returns_are_named_where_they_are() {
        let p = Path::new("status.csv");
        let e = text_of(p, b"T,T\rT,F\r".to_vec()).unwrap_err();
        assert_eq!((e.line, e.column), (Some(1), Some(4)));
        assert!(e.message.contains("expected LF or CRLF"), "{e}");
        assert_eq!(
            text_of(p, b"T,T\r\nT,F\r\n".to_vec()).unwrap(),
            "T,T\r\nT,F\r\n"
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
