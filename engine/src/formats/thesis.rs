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

/// Reads and checks the field in folder `dir`. A missing or unreadable file
/// is an error naming it.
pub fn read_field(dir: &Path) -> Result<Field, FormatError> {
    let field_info = read_text(&dir.join(FIELD_INFO_FILE))?;
    let status = read_text(&dir.join(STATUS_FILE))?;
    let values = read_text(&dir.join(VALUES_FILE))?;
    parse_field(dir, &field_info, &status, &values)
}

/// The three files of `field` in the thesis layout, as
/// `[field_info.csv, status.csv, values.csv]`: what [`parse_field`] reads
/// back to the same field.
pub fn field_texts(field: &Field) -> [String; 3] {
    let (h, w) = (field.grid.h, field.grid.w);
    let info = format!("{h},{w},{}\n", field.total_mines);
    let mut status = String::with_capacity(2 * h * w);
    let mut values = String::with_capacity(3 * h * w);
    for r in 0..h {
        for c in 0..w {
            let i = r * w + c;
            if c > 0 {
                status.push(',');
                values.push(',');
            }
            status.push(if field.open_at_start[i] { 'T' } else { 'F' });
            if field.mine[i] {
                values.push_str("-1");
            } else {
                values.push((b'0' + field.value[i]) as char);
            }
        }
        status.push('\n');
        values.push('\n');
    }
    [info, status, values]
}

/// The names of the files [`field_texts`] returns, in its order.
pub const FIELD_FILES: [&str; 3] = ["field_info.csv", "status.csv", "values.csv"];

/// Parses and checks a field from the texts of its three files. No I/O:
/// `dir` is used only to name the files in errors.
///
/// `Field::value` holds every cell's count of neighbouring mines, mines
/// included (so the result equals [`Field::from_mines`] of the same layout).
pub fn parse_field(
    dir: &Path,
    field_info: &str,
    status: &str,
    values: &str,
) -> Result<Field, FormatError> {
    let info_path = dir.join(FIELD_INFO_FILE);
    let status_path = dir.join(STATUS_FILE);
    let values_path = dir.join(VALUES_FILE);

    let info = parse_field_info(&info_path, field_info)?;
    let grid = Grid::new(info.h, info.w);
    let open_at_start = parse_csv_grid(
        &status_path,
        status,
        grid,
        "`T` (open at the start) or `F` (closed)",
        strict_status_entry,
        parse_status_entry,
    )?;
    let given = parse_csv_grid(
        &values_path,
        values,
        grid,
        "an integer from -1 (mine) to 8",
        strict_value_entry,
        parse_value_entry,
    )?;

    let mine: Vec<bool> = given.iter().map(|&v| v < 0).collect();
    let mines_in_values = mine.iter().filter(|&&m| m).count();
    if mines_in_values != info.tm as usize {
        return Err(FormatError::at(
            &info_path,
            info.tm_line,
            info.tm_column,
            format!(
                "tm is {} but {VALUES_FILE} has {mines_in_values} mines (-1 entries); \
                 expected them to agree",
                info.tm
            ),
        ));
    }

    // Every cell's count of neighbouring mines; a revealed number must equal
    // it (that is what the number means), so any disagreement is bad data.
    // Counted from the mines outwards: mines are few, so this touches far
    // fewer neighbourhoods than asking every cell.
    let mut value = vec![0u8; grid.len()];
    for i in (0..grid.len()).filter(|&i| mine[i]) {
        for &n in &grid.neighbours(i as u32) {
            value[n as usize] += 1;
        }
    }
    for i in 0..grid.len() as u32 {
        let around = value[i as usize];
        let shown = given[i as usize];
        if shown >= 0 && shown as u8 != around {
            let (r, c) = grid.rc(i);
            let (line, column) = entry_position(values, r, c);
            return Err(FormatError::at(
                &values_path,
                line,
                column,
                format!(
                    "row {}, column {}: the number is {shown} but the cell has {around} \
                     neighbouring mines (-1 entries); expected {around}",
                    r + 1,
                    c + 1
                ),
            ));
        }
    }

    // A mine open at the start would have ended the game before it began.
    if let Some(i) = (0..grid.len()).find(|&i| open_at_start[i] && mine[i]) {
        let (r, c) = grid.rc(i as u32);
        let (line, column) = entry_position(status, r, c);
        return Err(FormatError::at(
            &status_path,
            line,
            column,
            format!(
                "row {}, column {}: the cell is a mine (-1 in {VALUES_FILE}) but open at the \
                 start; expected F",
                r + 1,
                c + 1
            ),
        ));
    }

    Ok(Field {
        grid,
        total_mines: info.tm,
        mine,
        value,
        open_at_start,
    })
}

/// `field_info.csv`, with where `tm` stands (for the error when it
/// disagrees with `values.csv`).
struct FieldInfo {
    h: usize,
    w: usize,
    tm: u32,
    tm_line: usize,
    tm_column: usize,
}

fn parse_field_info(path: &Path, text: &str) -> Result<FieldInfo, FormatError> {
    const EXPECTED: &str = "expected one line `h,w,tm` (rows, columns, total mines)";
    if text.trim().is_empty() {
        return Err(FormatError::new(path, format!("file is empty; {EXPECTED}")));
    }
    let mut info: Option<FieldInfo> = None;
    for (line_no, line) in numbered_lines(text) {
        if line.trim().is_empty() {
            if info.is_none() {
                return Err(FormatError::at_line(
                    path,
                    line_no,
                    format!("empty line; {EXPECTED}"),
                ));
            }
            continue; // trailing blank lines
        }
        if info.is_some() {
            return Err(FormatError::at(
                path,
                line_no,
                1,
                format!("unexpected second line {}; {EXPECTED}", quote(line)),
            ));
        }
        let mut numbers = [0u64; 3];
        let mut columns = [1usize; 3];
        let mut count = 0;
        for (start, entry) in csv_entries(line) {
            let column = char_column(line, start);
            if count == 3 {
                return Err(FormatError::at(
                    path,
                    line_no,
                    column,
                    format!("more than three entries; {EXPECTED}"),
                ));
            }
            let name = ["h", "w", "tm"][count];
            numbers[count] = parse_whole_number(entry).ok_or_else(|| {
                FormatError::at(
                    path,
                    line_no,
                    column,
                    format!(
                        "{name}: expected a whole number, found {} ({PLAIN_INTEGER})",
                        describe_entry(entry)
                    ),
                )
            })?;
            columns[count] = column;
            count += 1;
        }
        if count < 3 {
            return Err(FormatError::at(
                path,
                line_no,
                char_column(line, line.len()),
                format!("only {count} entries; {EXPECTED}"),
            ));
        }
        let [h, w, tm] = numbers;
        for (k, n) in [h, w].into_iter().enumerate() {
            if n == 0 {
                return Err(FormatError::at(
                    path,
                    line_no,
                    columns[k],
                    format!("{} is 0; expected a positive size", ["h", "w"][k]),
                ));
            }
        }
        // Cells are indexed by `u32` throughout the engine.
        let cells = h.checked_mul(w).filter(|&n| n <= u32::MAX as u64);
        let Some(cells) = cells else {
            return Err(FormatError::at(
                path,
                line_no,
                columns[0],
                format!(
                    "a {h}×{w} field is too large; expected at most {} cells",
                    u32::MAX
                ),
            ));
        };
        if tm > cells {
            return Err(FormatError::at(
                path,
                line_no,
                columns[2],
                format!("tm is {tm}; expected at most h·w = {cells} mines"),
            ));
        }
        info = Some(FieldInfo {
            h: h as usize,
            w: w as usize,
            tm: tm as u32,
            tm_line: line_no,
            tm_column: columns[2],
        });
    }
    info.ok_or_else(|| FormatError::new(path, format!("file is empty; {EXPECTED}")))
}

/// The comma-separated entries of a line, each as (byte offset where it
/// starts after leading blanks, the entry without surrounding ASCII
/// whitespace). Works on bytes: the CSV grids are large and their entries
/// one or two characters long.
fn csv_entries(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut next_start = Some(0);
    std::iter::from_fn(move || {
        let start = next_start?;
        let end = match line.as_bytes()[start..].iter().position(|&b| b == b',') {
            Some(p) => {
                next_start = Some(start + p + 1);
                start + p
            }
            None => {
                next_start = None;
                line.len()
            }
        };
        // `start` and `end` are at commas or the ends of the line, so they
        // are character boundaries.
        let raw = &line[start..end];
        let trimmed = raw.trim_ascii_start();
        Some((start + raw.len() - trimmed.len(), trimmed.trim_ascii_end()))
    })
}

/// A whole number under the one integer rule ([`plain_integer`]), not -1.
fn parse_whole_number(s: &str) -> Option<u64> {
    plain_integer(s).and_then(|v| u64::try_from(v).ok())
}

fn describe_entry(entry: &str) -> String {
    if entry.is_empty() {
        "an empty entry".to_string()
    } else {
        quote(entry)
    }
}

fn parse_status_entry(entry: &str) -> Result<bool, String> {
    match entry {
        "T" => Ok(true),
        "F" => Ok(false),
        _ => Err(format!(
            "expected `T` (open at the start) or `F` (closed), found {}",
            describe_entry(entry)
        )),
    }
}

fn parse_value_entry(entry: &str) -> Result<i8, String> {
    // Fast path for the usual one-digit entries.
    match entry.as_bytes() {
        [d @ b'0'..=b'8'] => return Ok((d - b'0') as i8),
        b"-1" => return Ok(-1),
        _ => {}
    }
    match plain_integer(entry) {
        Some(v) if (-1..=8).contains(&v) => Ok(v as i8),
        Some(v) => Err(format!(
            "value {v} is out of range; expected -1 (mine) or a number from 0 to 8"
        )),
        None => Err(format!(
            "expected an integer from -1 (mine) to 8, found {} ({PLAIN_INTEGER})",
            describe_entry(entry)
        )),
    }
}

/// Parses a grid file: exactly `grid.h` non-blank lines of exactly `grid.w`
/// comma-separated entries each, every entry through `parse_entry` (whose
/// error message gets the cell's position prepended). `expected` says what
/// an entry should be, for the message about an empty file.
fn parse_csv_grid<T>(
    path: &Path,
    text: &str,
    grid: Grid,
    expected: &str,
    strict_entry: impl Fn(&[u8]) -> Option<T>,
    parse_entry: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, FormatError> {
    // Well-formed files (all the corpora) take the strict byte-level path;
    // anything it does not accept — whatever the reason — is parsed again
    // by the checking path, which accepts the same files (and a little more
    // whitespace) and names what is wrong with the others.
    if let Some(cells) = parse_csv_grid_strict(text, grid, strict_entry) {
        return Ok(cells);
    }
    parse_csv_grid_checked(path, text, grid, expected, parse_entry)
}

/// The entries of `status.csv` the strict path takes: exactly `T` or `F`.
fn strict_status_entry(entry: &[u8]) -> Option<bool> {
    match entry {
        b"T" => Some(true),
        b"F" => Some(false),
        _ => None,
    }
}

/// The entries of `values.csv` the strict path takes: one digit `0`–`8`,
/// or `-1`.
fn strict_value_entry(entry: &[u8]) -> Option<i8> {
    match entry {
        [d @ b'0'..=b'8'] => Some((d - b'0') as i8),
        b"-1" => Some(-1),
        _ => None,
    }
}

/// The strict fast path of [`parse_csv_grid`]: exactly `grid.h` lines of
/// exactly `grid.w` entries separated by single commas, no spaces, lines
/// ended by `\n` or `\r\n` (the last one may be unended), nothing after.
/// `None` for anything else (including entries `parse_entry` refuses).
fn parse_csv_grid_strict<T>(
    text: &str,
    grid: Grid,
    parse_entry: impl Fn(&[u8]) -> Option<T>,
) -> Option<Vec<T>> {
    let bytes = text.as_bytes();
    // Each entry takes at least one byte and one separator.
    if grid.is_empty() || bytes.len() + 1 < 2 * grid.len() {
        return None;
    }
    let mut out = Vec::with_capacity(grid.len());
    let mut at = 0;
    // The usual line: `w` one-byte entries and `w - 1` commas — entries at
    // even offsets, commas at odd ones — then the line end.
    let short = 2 * grid.w - 1;
    for row in 0..grid.h {
        let last = row + 1 == grid.h;
        match bytes.get(at..at + short) {
            Some(line) if matches!(bytes.get(at + short), None | Some(b'\n' | b'\r')) => {
                for (k, pair) in line.chunks(2).enumerate() {
                    if k + 1 < grid.w && pair[1] != b',' {
                        return None;
                    }
                    out.push(parse_entry(&pair[..1])?);
                }
                at += short;
            }
            _ => {
                for col in 0..grid.w {
                    let start = at;
                    while at < bytes.len() && !matches!(bytes[at], b',' | b'\n' | b'\r') {
                        at += 1;
                    }
                    out.push(parse_entry(&bytes[start..at])?);
                    if col + 1 < grid.w {
                        if bytes.get(at) != Some(&b',') {
                            return None;
                        }
                        at += 1;
                    }
                }
            }
        }
        // The line end: `\n` or `\r\n`, or the end of the text after the
        // last row.
        if bytes.get(at) == Some(&b'\r') {
            at += 1;
            if bytes.get(at) != Some(&b'\n') {
                return None;
            }
        }
        match bytes.get(at) {
            Some(b'\n') => at += 1,
            None if last => {}
            _ => return None,
        }
    }
    (at == bytes.len()).then_some(out)
}

/// The checking path of [`parse_csv_grid`].
fn parse_csv_grid_checked<T>(
    path: &Path,
    text: &str,
    grid: Grid,
    expected: &str,
    parse_entry: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, FormatError> {
    let (h, w) = (grid.h, grid.w);
    let shape = format!("{h} rows (h in {FIELD_INFO_FILE}) of {w} comma-separated entries (w)");
    // Never reserve more than the text could hold: a wrong `h,w` must give
    // the error about the missing rows, not exhaust memory first.
    let mut out = Vec::with_capacity(grid.len().min(text.len() / 2 + 1));
    let mut rows = 0usize;
    let mut blank_line: Option<usize> = None;
    let mut last_row_line = 0usize;
    for (line_no, line) in numbered_lines(text) {
        if line.trim().is_empty() {
            blank_line.get_or_insert(line_no);
            continue;
        }
        if let Some(blank) = blank_line {
            return Err(FormatError::at_line(
                path,
                blank,
                format!(
                    "empty line; expected row {} of {h} ({w} comma-separated entries)",
                    rows + 1
                ),
            ));
        }
        if rows == h {
            return Err(FormatError::at_line(
                path,
                line_no,
                format!("too many rows; expected {shape}"),
            ));
        }
        rows += 1;
        last_row_line = line_no;
        let mut entries = 0usize;
        for (start, entry) in csv_entries(line) {
            entries += 1;
            if entries > w {
                return Err(FormatError::at(
                    path,
                    line_no,
                    char_column(line, start),
                    format!(
                        "row {rows} has more than {w} entries; expected {w} (w in \
                         {FIELD_INFO_FILE})"
                    ),
                ));
            }
            match parse_entry(entry) {
                Ok(v) => out.push(v),
                Err(message) => {
                    return Err(FormatError::at(
                        path,
                        line_no,
                        char_column(line, start),
                        format!("row {rows}, column {entries}: {message}"),
                    ))
                }
            }
        }
        if entries < w {
            return Err(FormatError::at(
                path,
                line_no,
                char_column(line, line.len()),
                format!(
                    "row {rows} has only {entries} entries; expected {w} (w in {FIELD_INFO_FILE})"
                ),
            ));
        }
    }
    if rows == 0 {
        return Err(FormatError::new(
            path,
            format!("file is empty; expected {shape}, each {expected}"),
        ));
    }
    if rows < h {
        return Err(FormatError::at_line(
            path,
            last_row_line + 1,
            format!("only {rows} rows; expected {shape}"),
        ));
    }
    Ok(out)
}

/// Line and column of the entry for cell `(r, c)` (zero-based) in a grid
/// file that [`parse_csv_grid`] accepted: row `r` is the `r + 1`-th line,
/// since blank lines are allowed only after the grid. Used on error paths
/// only, so it may scan.
fn entry_position(text: &str, r: usize, c: usize) -> (usize, usize) {
    let Some((line_no, line)) = numbered_lines(text).nth(r) else {
        return (r + 1, 1);
    };
    match csv_entries(line).nth(c) {
        Some((start, _)) => (line_no, char_column(line, start)),
        None => (line_no, 1),
    }
}

/// The field folders of a corpus and the entries that could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Corpus {
    /// In natural order of their relative paths.
    pub fields: Vec<FieldRef>,
    /// Sub-folders that could not be listed, links that lead nowhere or
    /// in a loop: each an error naming the entry. The fields found
    /// elsewhere are still listed.
    pub unreadable: Vec<FormatError>,
}

/// The field folders of `path`: `path` itself if it holds `field_info.csv`,
/// otherwise every folder below it (at any depth) that does, in natural
/// order of their relative paths (`field_2` before `field_10`, see
/// [`natural_cmp`]). Hidden folders (name starting with `.`) are skipped; a
/// field folder is not searched further. A path that does not exist, is not
/// a folder or cannot be listed, or (with nothing unreadable below it)
/// holds no field, is an error; an entry below it that cannot be read is
/// listed in [`Corpus::unreadable`] and the search goes on.
pub fn list_corpus(path: &Path) -> Result<Corpus, FormatError> {
    let meta = std::fs::metadata(path).map_err(|e| {
        let what = if e.kind() == std::io::ErrorKind::NotFound {
            "no such folder".to_string()
        } else {
            format!("cannot read: {e}")
        };
        FormatError::new(
            path,
            format!("{what}; expected a field folder (holding {FIELD_INFO_FILE}) or a corpus"),
        )
    })?;
    if !meta.is_dir() {
        return Err(FormatError::new(
            path,
            format!(
                "is a file; expected a field folder (holding {FIELD_INFO_FILE}) or a corpus \
                 (a folder of field folders)"
            ),
        ));
    }
    if path.join(FIELD_INFO_FILE).is_file() {
        return Ok(Corpus {
            fields: vec![FieldRef {
                name: folder_name(path),
                dir: path.to_path_buf(),
            }],
            unreadable: Vec::new(),
        });
    }

    let entries = std::fs::read_dir(path)
        .map_err(|e| FormatError::new(path, format!("cannot list folder: {}", describe_io(&e))))?;
    let mut found: Vec<(Vec<String>, PathBuf)> = Vec::new();
    let mut unreadable = Vec::new();
    let mut visited = HashSet::new();
    let canonical = path.canonicalize().ok();
    if let Some(c) = &canonical {
        visited.insert(c.clone());
    }
    let mut walk = Walk {
        visited: &mut visited,
        found: &mut found,
        unreadable: &mut unreadable,
    };
    walk.search(path, entries, canonical.as_deref(), &mut Vec::new());
    if found.is_empty() && unreadable.is_empty() {
        return Err(FormatError::new(
            path,
            format!(
                "no field found; expected a folder holding {FIELD_INFO_FILE}, or folders of \
                 such folders"
            ),
        ));
    }
    found.sort_by(|(a, _), (b, _)| {
        a.iter()
            .zip(b)
            .map(|(x, y)| natural_cmp(x, y))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| a.len().cmp(&b.len()))
    });
    Ok(Corpus {
        fields: found
            .into_iter()
            .map(|(components, dir)| FieldRef {
                name: components.join("/"),
                dir,
            })
            .collect(),
        unreadable,
    })
}

/// [`list_corpus`], where an unreadable entry is an error too (for callers
/// that need every field, like benchmarks).
pub fn find_fields(path: &Path) -> Result<Vec<FieldRef>, FormatError> {
    let corpus = list_corpus(path)?;
    match corpus.unreadable.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(corpus.fields),
    }
}

/// The error number of "too many levels of symbolic links".
#[cfg(target_os = "linux")]
const ELOOP: Option<i32> = Some(40);
#[cfg(any(target_os = "macos", target_os = "freebsd", target_os = "openbsd"))]
const ELOOP: Option<i32> = Some(62);
#[cfg(not(any(
    target_os = "linux",
    target_os = "macos",
    target_os = "freebsd",
    target_os = "openbsd"
)))]
const ELOOP: Option<i32> = None;

/// The state of a corpus search.
struct Walk<'a> {
    /// Canonical paths of the folders entered: stops cycles of links.
    visited: &'a mut HashSet<PathBuf>,
    found: &'a mut Vec<(Vec<String>, PathBuf)>,
    unreadable: &'a mut Vec<FormatError>,
}

impl Walk<'_> {
    /// Depth-first search of a folder's `entries` (the folder reached by
    /// the relative components `rel`; `canonical` is its canonical path,
    /// when known). Symbolic links to folders are followed; `visited`
    /// stops cycles. A real sub-folder's canonical path is its parent's
    /// joined with its name — no system call; only symbolic links are
    /// resolved.
    fn search(
        &mut self,
        dir: &Path,
        entries: std::fs::ReadDir,
        canonical: Option<&Path>,
        rel: &mut Vec<String>,
    ) {
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    self.unreadable.push(FormatError::new(
                        dir,
                        format!("cannot list folder: {}", describe_io(&e)),
                    ));
                    return;
                }
            };
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let sub = entry.path();
            // The entry's own type comes with the listing; a symbolic link
            // (or an unknown type) is asked about what it points to.
            let real_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if !real_dir {
                match std::fs::metadata(&sub) {
                    Ok(meta) if meta.is_dir() => {}
                    Ok(_) => continue, // a file: not part of the search
                    Err(e) => {
                        let is_link = entry.file_type().is_ok_and(|t| t.is_symlink());
                        let what = if is_link && e.raw_os_error() == ELOOP {
                            "a symbolic link in a loop".to_string()
                        } else if is_link && e.kind() == std::io::ErrorKind::NotFound {
                            "a symbolic link to nothing".to_string()
                        } else {
                            format!("cannot read: {}", describe_io(&e))
                        };
                        self.unreadable.push(FormatError::new(&sub, what));
                        continue;
                    }
                }
            }
            let sub_canonical = match (real_dir, canonical) {
                (true, Some(c)) => Some(c.join(entry.file_name())),
                _ => sub.canonicalize().ok(),
            };
            if let Some(c) = &sub_canonical {
                if !self.visited.insert(c.clone()) {
                    continue;
                }
            }
            rel.push(name);
            if sub.join(FIELD_INFO_FILE).is_file() {
                self.found.push((rel.clone(), sub));
            } else {
                match std::fs::read_dir(&sub) {
                    Ok(entries) => self.search(&sub, entries, sub_canonical.as_deref(), rel),
                    Err(e) => self.unreadable.push(FormatError::new(
                        &sub,
                        format!("cannot list folder: {}", describe_io(&e)),
                    )),
                }
            }
            rel.pop();
        }
    }
}

fn folder_name(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_os_string()).or_else(|| {
        path.canonicalize()
            .ok()?
            .file_name()
            .map(|n| n.to_os_string())
    });
    match name {
        Some(n) => n.to_string_lossy().into_owned(),
        None => path.display().to_string(),
    }
}

/// Natural order of names: runs of ASCII digits compare as numbers
/// (`field_2 < field_10`), other runs as text, a digit run before a text
/// run; names equal under these rules (`007` and `7`) fall back to plain
/// text order, so this is a total order.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let run_end = |s: &[u8], from: usize| {
        let digit = s[from].is_ascii_digit();
        from + s[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit() == digit)
            .count()
    };
    let (mut i, mut j) = (0, 0);
    while i < ab.len() && j < bb.len() {
        let (ei, ej) = (run_end(ab, i), run_end(bb, j));
        // Runs end at ASCII boundaries, so slicing the `str`s is safe.
        let (x, y) = (&a[i..ei], &b[j..ej]);
        let order = match (ab[i].is_ascii_digit(), bb[j].is_ascii_digit()) {
            (true, true) => {
                let (x, y) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
                x.len().cmp(&y.len()).then_with(|| x.cmp(y))
            }
            (false, false) => x.cmp(y),
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
        };
        if order.is_ne() {
            return order;
        }
        (i, j) = (ei, ej);
    }
    (ab.len() - i).cmp(&(bb.len() - j)).then_with(|| a.cmp(b))
}

/// Reads and checks a corpus's `expected.csv`; `path` is the file, or a
/// corpus folder holding it.
pub fn read_expected(path: &Path) -> Result<Vec<Expected>, FormatError> {
    let file = if path.is_dir() {
        path.join(EXPECTED_FILE)
    } else {
        path.to_path_buf()
    };
    let text = read_text(&file)?;
    parse_expected(&file, &text)
}

/// Parses and checks the text of an `expected.csv` (`path` only names it in
/// errors): the header `field,solved,opened_safe_cells`, then one row per
/// field with a non-empty name (each listed once), `true`/`false`, and a
/// whole number. Blank lines are ignored.
pub fn parse_expected(path: &Path, text: &str) -> Result<Vec<Expected>, FormatError> {
    let mut rows = Vec::new();
    let mut header_seen = false;
    let mut first_line_of: HashMap<String, usize> = HashMap::new();
    for (line_no, line) in numbered_lines(text) {
        if line.trim().is_empty() {
            continue;
        }
        if !header_seen {
            let entries: Vec<&str> = csv_entries(line).map(|(_, entry)| entry).collect();
            if entries != EXPECTED_HEADER.split(',').collect::<Vec<_>>() {
                return Err(FormatError::at(
                    path,
                    line_no,
                    1,
                    format!(
                        "expected the header `{EXPECTED_HEADER}`, found {}",
                        quote(line)
                    ),
                ));
            }
            header_seen = true;
            continue;
        }
        let mut entries: [(&str, usize); 3] = [("", 0); 3];
        let mut count = 0;
        for (start, entry) in csv_entries(line) {
            if count == 3 {
                return Err(FormatError::at(
                    path,
                    line_no,
                    char_column(line, start),
                    format!("more than three entries; expected `{EXPECTED_HEADER}`"),
                ));
            }
            entries[count] = (entry, char_column(line, start));
            count += 1;
        }
        if count < 3 {
            return Err(FormatError::at(
                path,
                line_no,
                char_column(line, line.len()),
                format!("only {count} entries; expected `{EXPECTED_HEADER}`"),
            ));
        }
        let [(field, field_col), (solved, solved_col), (opened, opened_col)] = entries;
        if field.is_empty() {
            return Err(FormatError::at(
                path,
                line_no,
                field_col,
                "field: expected a field name, found an empty entry",
            ));
        }
        if let Some(first) = first_line_of.get(field) {
            return Err(FormatError::at(
                path,
                line_no,
                field_col,
                format!(
                    "field {} is listed twice (first on line {first}); expected each field once",
                    quote(field)
                ),
            ));
        }
        first_line_of.insert(field.to_string(), line_no);
        let solved = match solved {
            "true" => true,
            "false" => false,
            _ => {
                return Err(FormatError::at(
                    path,
                    line_no,
                    solved_col,
                    format!(
                        "solved: expected `true` or `false`, found {}",
                        describe_entry(solved)
                    ),
                ))
            }
        };
        let opened_safe_cells = parse_whole_number(opened)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| {
                FormatError::at(
                    path,
                    line_no,
                    opened_col,
                    format!(
                        "opened_safe_cells: expected a whole number, found {} ({PLAIN_INTEGER})",
                        describe_entry(opened)
                    ),
                )
            })?;
        rows.push(Expected {
            field: field.to_string(),
            solved,
            opened_safe_cells,
        });
    }
    if !header_seen {
        return Err(FormatError::new(
            path,
            format!("file is empty; expected the header `{EXPECTED_HEADER}` and one row per field"),
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    const INFO: &str = "3,4,2\n";
    const STATUS: &str = "T,T,F,F\nT,T,F,F\nT,T,T,F\n";
    //   0 1 -1 .
    //   0 1  2 2   (mines at (0,2) and (2,3))
    //   0 0  1 -1
    const VALUES: &str = "0,1,-1,1\n0,1,2,2\n0,0,1,-1\n";

    /// The strict path of `parse_csv_grid` accepts only what the checking
    /// path accepts, with the same cells; and it accepts well-formed files
    /// (else it would be no fast path). Texts: valid grids with `\n` or
    /// `\r\n` line ends, then random edits from an alphabet of the
    /// characters that matter.
    #[test]
    fn strict_csv_path_agrees_with_the_checking_path() {
        let mut rng = crate::test_rng::XorShift64::new(0x2545_f491_4f6c_dd1d);
        let mut next = move |n: usize| rng.below(n);
        let alphabet = [
            "0", "1", "8", "9", "-1", "-", "T", "F", "t", ",", ",,", "\n", "\r\n", "\r", " ", "\t",
            "\u{feff}", "é", "",
        ];
        let mut accepted = 0;
        for case in 0..20_000 {
            let (h, w) = (1 + next(4), 1 + next(5));
            let grid = Grid::new(h, w);
            let values = case % 2 == 0;
            let crlf = next(3) == 0;
            let mut text = String::new();
            for r in 0..h {
                for c in 0..w {
                    if c > 0 {
                        text.push(',');
                    }
                    text.push_str(if values {
                        ["0", "3", "8", "-1"][next(4)]
                    } else {
                        ["T", "F"][next(2)]
                    });
                }
                if r + 1 < h || next(2) == 0 {
                    text.push_str(if crlf { "\r\n" } else { "\n" });
                }
            }
            let edits = if case % 3 == 0 { 0 } else { 1 + next(3) };
            for _ in 0..edits {
                let mut cut = next(text.len() + 1);
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                let mut end = (cut + next(3)).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.replace_range(cut..end, alphabet[next(alphabet.len())]);
            }
            // Both paths of one kind of file, cells as i32 to compare kinds
            // alike.
            fn both<T: Into<i32>>(
                text: &str,
                grid: Grid,
                strict_entry: fn(&[u8]) -> Option<T>,
                entry: fn(&str) -> Result<T, String>,
            ) -> (Option<Vec<i32>>, Result<Vec<i32>, FormatError>) {
                let as_i32 = |v: Vec<T>| v.into_iter().map(Into::into).collect::<Vec<i32>>();
                (
                    parse_csv_grid_strict(text, grid, strict_entry).map(as_i32),
                    parse_csv_grid_checked(Path::new("x.csv"), text, grid, "", entry).map(as_i32),
                )
            }
            let (strict, checked) = if values {
                both(&text, grid, strict_value_entry, parse_value_entry)
            } else {
                both(&text, grid, strict_status_entry, parse_status_entry)
            };
            if let Some(cells) = strict {
                accepted += 1;
                assert_eq!(checked.as_ref(), Ok(&cells), "{h}x{w} {text:?}");
            } else if edits == 0 {
                panic!("the strict path refused a well-formed {h}x{w} file {text:?}");
            }
        }
        assert!(
            accepted > 6_000,
            "only {accepted} texts took the strict path"
        );
    }

    fn parse(info: &str, status: &str, values: &str) -> Result<Field, FormatError> {
        parse_field(Path::new("f"), info, status, values)
    }

    fn err(info: &str, status: &str, values: &str) -> FormatError {
        parse(info, status, values).expect_err("expected an error")
    }

    #[test]
    fn every_integer_follows_one_rule_in_every_file() {
        // A sign, a leading zero or `-0` is refused wherever it appears.
        for bad in ["+3", "03", "-3"] {
            let e = err(&format!("3,{bad},2\n"), STATUS, VALUES);
            assert!(
                e.message.starts_with("w: expected a whole number"),
                "{bad}: {e}"
            );
        }
        let first_value_line = VALUES.lines().next().unwrap();
        for bad in ["+1", "-0", "01", "-01"] {
            let (_, rest) = first_value_line.split_once(',').unwrap();
            let values = VALUES.replacen(first_value_line, &format!("{bad},{rest}"), 1);
            let e = err(INFO, STATUS, &values);
            assert_eq!((e.line, e.column), (Some(1), Some(1)), "{bad}: {e}");
            assert!(e.message.contains("plain decimal digits"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_valid_field_equals_the_field_built_from_its_mines() {
        let f = parse(INFO, STATUS, VALUES).unwrap();
        let mut mine = vec![false; 12];
        mine[2] = true;
        mine[11] = true;
        let open = STATUS
            .split(['\n', ','])
            .filter(|s| !s.is_empty())
            .map(|s| s == "T")
            .collect();
        assert_eq!(f, Field::from_mines(Grid::new(3, 4), mine, open));
        assert_eq!(f.total_mines, 2);
    }

    #[test]
    fn crlf_trailing_blanks_bom_and_spaces_are_tolerated() {
        let values = "\u{feff}0, 1,-1 ,1 \r\n0,1,2,2\r\n0,0,1,-1\r\n\r\n  \n";
        let info = " 3 , 4 , 2 \r\n\n";
        assert_eq!(
            parse(info, STATUS, values).unwrap(),
            parse(INFO, STATUS, VALUES).unwrap()
        );
        // No final newline at all.
        assert!(parse("3,4,2", STATUS.trim_end(), VALUES.trim_end()).is_ok());
    }

    #[test]
    fn field_info_errors() {
        let e = err("", STATUS, VALUES);
        assert_eq!(
            (e.path.as_path(), e.line),
            (Path::new("f/field_info.csv"), None)
        );
        assert!(e.message.contains("empty"), "{e}");

        let e = err("3,4\n", STATUS, VALUES);
        assert_eq!((e.line, e.column), (Some(1), Some(4)), "{e}");
        assert!(e.message.contains("only 2 entries"), "{e}");

        let e = err("3,4,2,1\n", STATUS, VALUES);
        assert_eq!((e.line, e.column), (Some(1), Some(7)), "{e}");

        let e = err("3,x,2\n", STATUS, VALUES);
        assert_eq!((e.line, e.column), (Some(1), Some(3)), "{e}");
        assert!(
            e.message.contains("w: expected a whole number, found `x`"),
            "{e}"
        );

        let e = err("3,-4,2\n", STATUS, VALUES);
        assert_eq!(e.column, Some(3), "{e}");

        let e = err("0,4,0\n", STATUS, VALUES);
        assert_eq!(e.column, Some(1), "{e}");
        assert!(e.message.contains("h is 0"), "{e}");

        let e = err("3,4,13\n", STATUS, VALUES);
        assert_eq!(e.column, Some(5), "{e}");
        assert!(e.message.contains("at most"), "{e}");

        let e = err("100000,100000,1\n", STATUS, VALUES);
        assert!(e.message.contains("too large"), "{e}");

        let e = err("3,4,2\n5,5,5\n", STATUS, VALUES);
        assert_eq!((e.line, e.column), (Some(2), Some(1)), "{e}");

        let e = err("\n3,4,2\n", STATUS, VALUES);
        assert_eq!(e.line, Some(1), "{e}");
    }

    #[test]
    fn grid_shape_errors_name_line_and_column() {
        // A short row: the column is just past its end.
        let e = err(INFO, "T,T,F,F\nT,T,F\nT,T,T,F\n", VALUES);
        assert_eq!(e.path, Path::new("f/status.csv"));
        assert_eq!((e.line, e.column), (Some(2), Some(6)), "{e}");
        assert!(
            e.message.contains("row 2 has only 3 entries; expected 4"),
            "{e}"
        );

        // A long row: the column of the first extra entry.
        let e = err(INFO, STATUS, "0,1,-1,1\n0,1,2,2,0\n0,0,1,-1\n");
        assert_eq!(e.path, Path::new("f/values.csv"));
        assert_eq!((e.line, e.column), (Some(2), Some(9)), "{e}");

        // Missing and extra rows.
        let e = err(INFO, "T,T,F,F\nT,T,F,F\n", VALUES);
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.message.contains("only 2 rows; expected 3 rows"), "{e}");
        let e = err(INFO, STATUS, "0,1,-1,1\n0,1,2,2\n0,0,1,-1\n0,0,0,0\n");
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("too many rows"), "{e}");

        // A blank line inside the grid.
        let e = err(INFO, "T,T,F,F\n\nT,T,F,F\nT,T,T,F\n", VALUES);
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.message.contains("empty line; expected row 2"), "{e}");

        let e = err(INFO, "", VALUES);
        assert_eq!((e.line, e.column), (None, None));
        assert!(e.message.contains("empty"), "{e}");
    }

    #[test]
    fn entry_errors_name_the_cell() {
        let e = err(INFO, "T,T,F,F\nT,T,x,F\nT,T,T,F\n", VALUES);
        assert_eq!((e.line, e.column), (Some(2), Some(5)), "{e}");
        assert!(
            e.message.starts_with("row 2, column 3: expected `T`"),
            "{e}"
        );

        let e = err(INFO, "T,T,F,F\nT,T,F,F\nT,T,T,\n", VALUES);
        assert_eq!((e.line, e.column), (Some(3), Some(7)), "{e}");
        assert!(e.message.contains("found an empty entry"), "{e}");

        let e = err(INFO, STATUS, "0,1,-1,1\n0,1,2,2\n0,0,9,-1\n");
        assert_eq!((e.line, e.column), (Some(3), Some(5)), "{e}");
        assert!(
            e.message
                .contains("row 3, column 3: value 9 is out of range"),
            "{e}"
        );

        let e = err(INFO, STATUS, "0,1,-2,1\n0,1,2,2\n0,0,1,-1\n");
        assert_eq!((e.line, e.column), (Some(1), Some(5)), "{e}");

        let e = err(INFO, STATUS, "0,1,-1,1\n0,one,2,2\n0,0,1,-1\n");
        assert_eq!((e.line, e.column), (Some(2), Some(3)), "{e}");
        assert!(e.message.contains("found `one`"), "{e}");
    }

    #[test]
    fn tm_must_match_the_mines() {
        let e = err("3, 4, 3\n", STATUS, VALUES);
        assert_eq!(e.path, Path::new("f/field_info.csv"));
        assert_eq!((e.line, e.column), (Some(1), Some(7)), "{e}");
        assert!(
            e.message.contains("tm is 3 but values.csv has 2 mines"),
            "{e}"
        );
    }

    #[test]
    fn numbers_must_count_their_mines() {
        // The cell at row 2, column 3 touches both mines but shows 1.
        let e = err(INFO, STATUS, "0,1,-1,1\n0,1,1,2\n0,0,1,-1\n");
        assert_eq!(e.path, Path::new("f/values.csv"));
        assert_eq!((e.line, e.column), (Some(2), Some(5)), "{e}");
        assert!(
            e.message
                .contains("row 2, column 3: the number is 1 but the cell has 2 neighbouring mines"),
            "{e}"
        );
    }

    #[test]
    fn no_mine_is_open_at_the_start() {
        let e = err(INFO, "T,T,F,F\nT,T,F,F\nT,T,T,T\n", VALUES);
        assert_eq!(e.path, Path::new("f/status.csv"));
        assert_eq!((e.line, e.column), (Some(3), Some(7)), "{e}");
        assert!(
            e.message.contains("row 3, column 4: the cell is a mine"),
            "{e}"
        );
    }

    #[test]
    fn natural_order() {
        let mut names = vec!["field_10", "field_2", "field_1", "a", "field_02", "b1", "b"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            names,
            vec!["a", "b", "b1", "field_1", "field_02", "field_2", "field_10"]
        );
        assert_eq!(natural_cmp("x", "x"), Ordering::Equal);
        assert_eq!(natural_cmp("9", "10"), Ordering::Less);
        assert_eq!(
            natural_cmp("99999999999999999999999", "1"),
            Ordering::Greater
        );
    }

    #[test]
    fn expected_csv() {
        let p = Path::new("expected.csv");
        let rows = parse_expected(
            p,
            "field,solved,opened_safe_cells\r\nfield_1,true,71\nfield_2, false ,3\n\n",
        )
        .unwrap();
        assert_eq!(
            rows,
            vec![
                Expected {
                    field: "field_1".into(),
                    solved: true,
                    opened_safe_cells: 71
                },
                Expected {
                    field: "field_2".into(),
                    solved: false,
                    opened_safe_cells: 3
                },
            ]
        );
        let h = "field,solved,opened_safe_cells\n";
        let e = parse_expected(p, "").unwrap_err();
        assert!(e.message.contains("empty"), "{e}");
        let e = parse_expected(p, "field,solved\n").unwrap_err();
        assert_eq!((e.line, e.column), (Some(1), Some(1)), "{e}");
        let e = parse_expected(p, &format!("{h}field_1,yes,3\n")).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(9)), "{e}");
        assert!(
            e.message.contains("solved: expected `true` or `false`"),
            "{e}"
        );
        let e = parse_expected(p, &format!("{h}field_1,true,-3\n")).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(14)), "{e}");
        let e = parse_expected(p, &format!("{h}field_1,true\n")).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(13)), "{e}");
        let e = parse_expected(p, &format!("{h}field_1,true,3,4\n")).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(16)), "{e}");
        let e = parse_expected(p, &format!("{h},true,3\n")).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(1)), "{e}");
        let e = parse_expected(p, &format!("{h}a,true,3\nb,true,3\na,false,1\n")).unwrap_err();
        assert_eq!((e.line, e.column), (Some(4), Some(1)), "{e}");
        assert!(e.message.contains("listed twice (first on line 2)"), "{e}");
        assert_eq!(parse_expected(p, h).unwrap(), vec![]);
    }
}
