//! One field folder: reading, checking and writing its three files.

use super::*;

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
pub(super) struct FieldInfo {
    h: usize,
    w: usize,
    tm: u32,
    tm_line: usize,
    tm_column: usize,
}

pub(super) fn parse_field_info(path: &Path, text: &str) -> Result<FieldInfo, FormatError> {
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
pub(super) fn csv_entries(line: &str) -> impl Iterator<Item = (usize, &str)> {
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
pub(super) fn parse_whole_number(s: &str) -> Option<u64> {
    plain_integer(s).and_then(|v| u64::try_from(v).ok())
}

pub(super) fn describe_entry(entry: &str) -> String {
    if entry.is_empty() {
        "an empty entry".to_string()
    } else {
        quote(entry)
    }
}

pub(super) fn parse_status_entry(entry: &str) -> Result<bool, String> {
    match entry {
        "T" => Ok(true),
        "F" => Ok(false),
        _ => Err(format!(
            "expected `T` (open at the start) or `F` (closed), found {}",
            describe_entry(entry)
        )),
    }
}

pub(super) fn parse_value_entry(entry: &str) -> Result<i8, String> {
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
pub(super) fn parse_csv_grid<T>(
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
pub(super) fn strict_status_entry(entry: &[u8]) -> Option<bool> {
    match entry {
        b"T" => Some(true),
        b"F" => Some(false),
        _ => None,
    }
}

/// The entries of `values.csv` the strict path takes: one digit `0`–`8`,
/// or `-1`.
pub(super) fn strict_value_entry(entry: &[u8]) -> Option<i8> {
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
pub(super) fn parse_csv_grid_strict<T>(
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
pub(super) fn parse_csv_grid_checked<T>(
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
pub(super) fn entry_position(text: &str, r: usize, c: usize) -> (usize, usize) {
    let Some((line_no, line)) = numbered_lines(text).nth(r) else {
        return (r + 1, 1);
    };
    match csv_entries(line).nth(c) {
        Some((start, _)) => (line_no, char_column(line, start)),
        None => (line_no, 1),
    }
}
