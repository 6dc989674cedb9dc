//! MBF: the binary board format JSMinesweeper and Minesweeper Arbiter read.
//!
//! | bytes | what |
//! |---|---|
//! | 0 | width (columns), 1–255 |
//! | 1 | height (rows), 1–255 |
//! | 2–3 | mine count, big-endian |
//! | then | one `(x, y)` byte pair per mine: column, row |
//!
//! An MBF file holds the mines only: where play starts is given separately
//! (`sapper solve --start`), or by a [`MBF_STARTS`] file beside the boards
//! (`sapper generate --format mbf` writes one). The reader checks everything — sizes, the
//! length against the mine count, every mine on the board and no mine
//! twice — and names the byte at fault.

use super::FormatError;
use crate::grid::Grid;
use std::path::Path;

/// The file beside a folder of MBF boards that says where play starts on
/// each: a CSV `board,row,col` (the board's file name, the start from 0).
pub const MBF_STARTS: &str = "starts.csv";

/// Board file names and their starts `(row, column)`, as [`read_starts`]
/// gives them.
pub type Starts = Vec<(String, (usize, usize))>;

/// The starts of [`MBF_STARTS`] at `path`: the board's file name and its
/// start, in the file's order; errors name the line and column.
pub fn read_starts(path: &Path) -> Result<Starts, FormatError> {
    let text = super::read_text(path)?;
    let mut starts = Vec::new();
    let mut header = true;
    for (line_no, line) in super::numbered_lines(&text) {
        if line.trim().is_empty() {
            continue;
        }
        if header {
            header = false;
            if line.trim() != "board,row,col" {
                return Err(FormatError::at(
                    path,
                    line_no,
                    1,
                    format!(
                        "expected the header `board,row,col`, found {}",
                        super::quote(line)
                    ),
                ));
            }
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let cell = |k: usize| fields.get(k).and_then(|v| v.parse::<usize>().ok());
        match (fields.len(), cell(1), cell(2)) {
            (3, Some(r), Some(c)) if !fields[0].is_empty() => {
                starts.push((fields[0].to_string(), (r, c)))
            }
            _ => {
                return Err(FormatError::at_line(
                    path,
                    line_no,
                    format!(
                        "expected `BOARD,ROW,COL` (a file name and the start from 0), found {}",
                        super::quote(line)
                    ),
                ))
            }
        }
    }
    Ok(starts)
}

/// Reads an MBF file: the grid and its layout (`true` = mine, row-major).
pub fn read_mbf(path: &Path) -> Result<(Grid, Vec<bool>), FormatError> {
    let bytes = crate::files::read_capped(path, 4 + 2 * 65_535)
        .map_err(|e| FormatError::new(path, e.reason))?;
    parse_mbf(path, &bytes)
}

/// Parses MBF bytes (`path` only names them in errors).
pub fn parse_mbf(path: &Path, bytes: &[u8]) -> Result<(Grid, Vec<bool>), FormatError> {
    let err = |message: String| FormatError::new(path, message);
    if bytes.len() < 4 {
        return Err(err(format!(
            "an MBF file starts with 4 header bytes (width, height, mine count); \
             this one has {} bytes",
            bytes.len()
        )));
    }
    let (w, h) = (bytes[0] as usize, bytes[1] as usize);
    if w == 0 || h == 0 {
        return Err(err(format!(
            "byte 0/1: a board of {w} columns × {h} rows: both must be at least 1"
        )));
    }
    let mines = u16::from_be_bytes([bytes[2], bytes[3]]) as usize;
    if mines > w * h {
        return Err(err(format!(
            "bytes 2–3: {mines} mines do not fit on {h}×{w} cells"
        )));
    }
    if bytes.len() != 4 + 2 * mines {
        return Err(err(format!(
            "{mines} mines need {} bytes (4 + 2 per mine); the file has {}",
            4 + 2 * mines,
            bytes.len()
        )));
    }
    let grid = Grid::new(h, w);
    let mut layout = vec![false; w * h];
    for k in 0..mines {
        let at = 4 + 2 * k;
        let (x, y) = (bytes[at] as usize, bytes[at + 1] as usize);
        if x >= w || y >= h {
            return Err(err(format!(
                "byte {at}: mine {} at column {x}, row {y} is off the {h}×{w} board",
                k + 1
            )));
        }
        if std::mem::replace(&mut layout[y * w + x], true) {
            return Err(err(format!(
                "byte {at}: mine {} at column {x}, row {y} is listed twice",
                k + 1
            )));
        }
    }
    Ok((grid, layout))
}

/// The MBF bytes of a layout, or why it has none (a side over 255, more
/// than 65,535 mines).
pub fn mbf_bytes(grid: Grid, layout: &[bool]) -> Result<Vec<u8>, String> {
    let (h, w) = (grid.h, grid.w);
    if w > 255 || h > 255 {
        return Err(format!(
            "MBF holds boards up to 255×255; this one is {h}×{w}"
        ));
    }
    let mines: Vec<usize> = (0..layout.len()).filter(|&i| layout[i]).collect();
    let count = u16::try_from(mines.len()).map_err(|_| {
        format!(
            "MBF holds up to 65,535 mines; this board has {}",
            mines.len()
        )
    })?;
    let mut out = Vec::with_capacity(4 + 2 * mines.len());
    out.extend_from_slice(&[w as u8, h as u8]);
    out.extend_from_slice(&count.to_be_bytes());
    for i in mines {
        out.extend_from_slice(&[(i % w) as u8, (i / w) as u8]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_round_trips_and_every_bad_byte_is_named() {
        let grid = Grid::new(3, 4);
        let mut layout = vec![false; 12];
        layout[1] = true; // row 0, column 1
        layout[11] = true; // row 2, column 3
        let bytes = mbf_bytes(grid, &layout).unwrap();
        assert_eq!(bytes, [4, 3, 0, 2, 1, 0, 3, 2]);
        let p = Path::new("b.mbf");
        assert_eq!(parse_mbf(p, &bytes).unwrap(), (grid, layout));
        let bad = |b: &[u8]| parse_mbf(p, b).unwrap_err().to_string();
        assert!(bad(&[4, 3]).contains("4 header bytes"));
        assert!(bad(&[0, 3, 0, 0]).contains("at least 1"));
        assert!(bad(&[4, 3, 0, 13]).contains("do not fit"));
        assert!(bad(&[4, 3, 0, 2, 1, 0]).contains("need 8 bytes"));
        assert!(bad(&[4, 3, 0, 1, 4, 0]).contains("byte 4: mine 1 at column 4, row 0 is off"));
        assert!(bad(&[4, 3, 0, 2, 1, 0, 1, 0])
            .contains("byte 6: mine 2 at column 1, row 0 is listed twice"));
        assert!(mbf_bytes(Grid::new(300, 2), &[false; 600]).is_err());
    }
}
