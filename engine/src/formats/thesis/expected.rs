//! A corpus's `expected.csv`: the outcome of no-guess play per field.

use super::field::{csv_entries, describe_entry, parse_whole_number};
use super::*;

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
