//! RAWVF, the community's human-readable replay format (RAW 6, by the
//! `thefinerminer/minesweeper-rawvf` project, whose parsers convert
//! `.avf`, `.mvf`, `.umf`, `.rmv` and FreeSweeper replays to it). A text:
//!
//! ```text
//! RawVF_Version: Rev6.1
//! Program: Vienna Minesweeper
//! Player: tkolar
//! Width: 8
//! Height: 8
//! Mines: 10
//! Marks: Off
//! Time: 0.515
//! Mode: Classic
//! Style: NF
//! Board:
//! ***0*000
//! …
//! Events:
//! 0.000 start
//! 0.000 lc 4 4 (55 56)
//! 0.000 lr 4 4 (55 56)
//! number0 5 1
//! 0.515 lr 4 1 (54 9)
//! won
//! ```
//!
//! - The header: `Key: value` lines (keys in any case) up to `Board:`.
//!   Read: `RawVF_Version`, `Program`, `Version`, `Player`, `Level`,
//!   `Width`, `Height` and `Mines` (these three required), `Marks`
//!   (`On`/`Off`), `Time` (seconds), `BBBV`, `Status` (`Won`/`Lost`),
//!   `Timestamp` (kept as text), `Mode` (`Classic`, `UPK`, `Cheat`,
//!   `Density`), `Style` (`NF`/`FL`), `SquareSize` (pixels per cell, 16
//!   when absent). Other keys (`Skin`, statistics) are not read.
//! - The board: `Height` lines of `Width` characters, `*` a mine, `0` not.
//! - The events, one per line: `TIME EVENT [COLUMN ROW] (X Y)` — the time in
//!   seconds with 2 or 3 decimals, the event `mv lc lr rc rr mc mr` or `sc`
//!   (a Shift+left press), the pixel in parentheses; `TIME start`, `won`,
//!   `blast`, `boom`, `nonstandard` and scrolls (`sx`, `sy`) are markers,
//!   not read; lines that start with a letter (`Events:`, board changes such
//!   as `number3 4 2`, `flag 2 5`) are the program's own record of what
//!   the clicks did, not read (the game model recomputes it). Blank lines
//!   are skipped.
//!
//! Text is UTF-8; a player's name in a legacy code page (as the parsers
//! copy it from the original file) is decoded as the binary readers do.
//! Errors name the line and column.

use super::bytes::utf8_or_legacy_text;
use super::{
    non_empty, EventKind, GameMode, LevelName, Replay, ReplayEvent, ReplayFormat, ReplayHeader,
    Timestamp,
};
use crate::formats::FormatError;
use crate::grid::MAX_SIDE;
use std::path::Path;

/// Whether `bytes` look like RAWVF: the first line that is not blank is
/// `Key: value` with a key RAWVF writers start with.
pub(crate) fn looks_like_rawvf(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let Some(line) = bytes
        .split(|&c| c == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty())
    else {
        return false;
    };
    let Some(colon) = line.iter().position(|&c| c == b':') else {
        return false;
    };
    let key = line[..colon].to_ascii_lowercase();
    [
        &b"rawvf_version"[..],
        b"program",
        b"version",
        b"player",
        b"level",
        b"width",
        b"height",
        b"mines",
        b"marks",
    ]
    .contains(&key.as_slice())
}

/// Reads a RAWVF text (see the module doc). `path` only names it in errors.
pub fn parse_rawvf(bytes: &[u8], path: &Path) -> Result<Replay, FormatError> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut lines = bytes
        .split(|&c| c == b'\n')
        .enumerate()
        .map(|(k, l)| (k + 1, l.strip_suffix(b"\r").unwrap_or(l)));
    let err =
        |line: usize, column: usize, message: String| FormatError::at(path, line, column, message);

    let mut header = ReplayHeader::default();
    let mut version = String::new();
    let (mut width, mut height, mut mines_line) = (None, None, None);
    let mut cell_px = 16u16;
    let board_line = loop {
        let Some((n, raw)) = lines.next() else {
            return Err(FormatError::new(
                path,
                "no `Board:` line: the file ends in the header",
            ));
        };
        if raw.trim_ascii().is_empty() {
            continue;
        }
        let Some(colon) = raw.iter().position(|&c| c == b':') else {
            return Err(err(
                n,
                1,
                format!(
                    "expected a header line `Key: value` or `Board:`, found {}",
                    crate::formats::quote(&String::from_utf8_lossy(raw))
                ),
            ));
        };
        let key = String::from_utf8_lossy(&raw[..colon])
            .trim()
            .to_ascii_lowercase();
        let value_bytes = raw[colon + 1..].trim_ascii();
        let value = String::from_utf8_lossy(value_bytes).into_owned();
        let column = colon + 2;
        let number = |what: &str| -> Result<usize, FormatError> {
            crate::formats::plain_integer(&value)
                .filter(|&v| v >= 0)
                .map(|v| v as usize)
                .ok_or_else(|| {
                    err(
                        n,
                        column,
                        format!(
                            "{what}: expected a number ({}), found {}",
                            crate::formats::PLAIN_INTEGER,
                            crate::formats::quote(&value)
                        ),
                    )
                })
        };
        match key.as_str() {
            "board" => break n,
            "rawvf_version" => version = value,
            "program" => header.program = non_empty(value),
            "version" => header.program_version = non_empty(value),
            "player" => header.player = non_empty(utf8_or_legacy_text(value_bytes)),
            "level" => {
                header.level = non_empty(value.to_ascii_lowercase()).map(|l| match l.as_str() {
                    "beginner" => LevelName::Beginner,
                    "intermediate" => LevelName::Intermediate,
                    "expert" => LevelName::Expert,
                    _ => LevelName::Custom,
                })
            }
            "width" => width = Some((number("Width")?, n)),
            "height" => height = Some((number("Height")?, n)),
            "mines" => mines_line = Some((number("Mines")?, n)),
            "squaresize" => {
                let px = number("SquareSize")?;
                cell_px = u16::try_from(px).ok().filter(|&p| p > 0).ok_or_else(|| {
                    err(
                        n,
                        column,
                        format!("a cell size of {px} pixels: expected 1 to 65535"),
                    )
                })?;
            }
            "marks" => header.question_marks = on_off(&value),
            "time" => {
                header.recorded_time_ms = seconds_ms(&value).and_then(|t| u64::try_from(t).ok())
            }
            "bbbv" => header.recorded_bbbv = value.parse().ok(),
            "status" => {
                header.completed = match value.to_ascii_lowercase().as_str() {
                    "won" | "win" => Some(true),
                    "lost" | "blast" => Some(false),
                    _ => None,
                }
            }
            "timestamp" => header.started = non_empty(value).map(Timestamp::Text),
            "mode" => {
                header.mode = non_empty(value.to_ascii_lowercase()).map(|m| match m.as_str() {
                    "classic" | "normal" | "standard" => GameMode::Standard,
                    "upk" => GameMode::Upk,
                    "cheat" => GameMode::Cheat,
                    "density" => GameMode::Density,
                    _ => GameMode::Other(u16::MAX),
                })
            }
            "style" => {
                header.no_flags = match value.to_ascii_lowercase().as_str() {
                    "nf" => Some(true),
                    "fl" => Some(false),
                    _ => None,
                }
            }
            _ => {}
        }
    };
    let missing = |what: &str| {
        err(
            board_line,
            1,
            format!("no `{what}:` line in the header before `Board:`"),
        )
    };
    let (cols, cols_line) = width.ok_or_else(|| missing("Width"))?;
    let (rows, rows_line) = height.ok_or_else(|| missing("Height"))?;
    for (side, line, what) in [(cols, cols_line, "Width"), (rows, rows_line, "Height")] {
        if side == 0 || side > MAX_SIDE {
            return Err(err(
                line,
                1,
                format!("{what} {side}: expected 1 to {MAX_SIDE}"),
            ));
        }
    }

    let mut mines = Vec::new();
    for r in 0..rows {
        let Some((n, raw)) = lines.next() else {
            return Err(FormatError::new(
                path,
                format!("the file ends in the board after {r} of {rows} rows"),
            ));
        };
        let row = raw.trim_ascii_end();
        if let Some(k) = row.iter().position(|&c| c != b'*' && c != b'0') {
            return Err(err(
                n,
                k + 1,
                format!(
                    "a board row is `*` (mine) and `0` (no mine), found {}",
                    crate::formats::quote(&String::from_utf8_lossy(&row[k..k + 1]))
                ),
            ));
        }
        if row.len() != cols {
            return Err(err(
                n,
                1,
                format!("a board row of {} cells: Width says {cols}", row.len()),
            ));
        }
        mines.extend(row.iter().map(|&c| c == b'*'));
    }
    let count = mines.iter().filter(|&&m| m).count();
    if let Some((declared, line)) = mines_line {
        if declared != count {
            return Err(err(
                line,
                1,
                format!("Mines says {declared}; the board has {count}"),
            ));
        }
    }

    let mut events = Vec::new();
    for (n, raw) in lines {
        let Some(&first) = raw.trim_ascii_start().first() else {
            continue;
        };
        if first.is_ascii_alphabetic() {
            continue;
        }
        let text = String::from_utf8_lossy(raw);
        let line = text.trim();
        let indent = text.len() - text.trim_start().len();
        let col = |at: usize| indent + at + 1;
        let time_end = line.find(char::is_whitespace).unwrap_or(line.len());
        let time_ms = seconds_ms(&line[..time_end]).ok_or_else(|| {
            err(
                n,
                col(0),
                format!(
                    "expected a time in seconds (`1.234`), found {}",
                    crate::formats::quote(&line[..time_end])
                ),
            )
        })?;
        let rest = &line[time_end..];
        let word_at = time_end + (rest.len() - rest.trim_start().len());
        let word = rest.split_whitespace().next().unwrap_or("");
        let kind = match word {
            "mv" => EventKind::Move,
            "lc" => EventKind::LeftPress,
            "lr" => EventKind::LeftRelease,
            "rc" => EventKind::RightPress,
            "rr" => EventKind::RightRelease,
            "mc" => EventKind::MiddlePress,
            "mr" => EventKind::MiddleRelease,
            "sc" => EventKind::ShiftLeftPress,
            "start" | "won" | "blast" | "boom" | "nonstandard" | "sx" | "sy" => continue,
            _ => {
                return Err(err(
                    n,
                    col(word_at),
                    format!(
                        "expected a mouse event (mv, lc, lr, rc, rr, mc, mr, sc), found {}",
                        crate::formats::quote(word)
                    ),
                ))
            }
        };
        let (x, y) = pixel(line).ok_or_else(|| {
            err(
                n,
                col(word_at),
                "a mouse event ends with its pixel `(X Y)`".to_string(),
            )
        })?;
        events.push(ReplayEvent {
            time_ms,
            kind,
            x,
            y,
        });
    }

    Ok(Replay {
        format: ReplayFormat::Rawvf,
        version,
        rows,
        cols,
        mines,
        cell_px,
        events,
        header,
    })
}

/// `On`/`Off`.
fn on_off(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

/// Milliseconds in `S.FF` or `S.FFF` (optionally negative), or `S`.
fn seconds_ms(text: &str) -> Option<i64> {
    let (negative, text) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
    if whole.is_empty() || whole.len() > 9 || !digits(whole) || frac.len() > 3 || !digits(frac) {
        return None;
    }
    let mut ms: i64 = whole.parse::<i64>().ok()? * 1000;
    for (k, c) in frac.bytes().enumerate() {
        ms += i64::from(c - b'0') * [100, 10, 1][k];
    }
    Some(if negative { -ms } else { ms })
}

/// The `(X Y)` at the end of an event line.
fn pixel(line: &str) -> Option<(i32, i32)> {
    let open = line.rfind('(')?;
    let inner = line[open + 1..].strip_suffix(')')?;
    let mut parts = inner.split_whitespace();
    let x = parts.next()?.parse().ok()?;
    let y = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some((x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "RawVF_Version: Rev6.1\nProgram: Test\nWidth: 3\nHeight: 2\nMines: 1\n\
                         Marks: Off\nTime: 1.25\nStyle: NF\nBoard:\n*00\n000\nEvents:\n\
                         0.000 start\n0.000 lc 3 1 (40 5)\n0.000 lr 3 1 (40 5)\nnumber0 3 1\n\
                         1.25 mv 1 2 (-3 20)\n";

    #[test]
    fn a_small_file_is_read() {
        let r = parse_rawvf(SMALL.as_bytes(), Path::new("s.rawvf")).unwrap();
        assert_eq!((r.rows, r.cols), (2, 3));
        assert_eq!(r.mines, [true, false, false, false, false, false]);
        assert_eq!(r.version, "Rev6.1");
        assert_eq!(r.header.recorded_time_ms, Some(1250));
        assert_eq!(r.header.no_flags, Some(true));
        assert_eq!(r.header.question_marks, Some(false));
        let codes: Vec<_> = r
            .events
            .iter()
            .map(|e| (e.time_ms, e.kind.code(), e.x, e.y))
            .collect();
        assert_eq!(
            codes,
            [(0, "lc", 40, 5), (0, "lr", 40, 5), (1250, "mv", -3, 20)]
        );
        assert!(looks_like_rawvf(SMALL.as_bytes()));
        assert!(!looks_like_rawvf(b"*rmv"));
    }

    #[test]
    fn errors_name_the_line_and_column() {
        let p = Path::new("s.rawvf");
        let bad = SMALL.replace("000\nEvents", "0x0\nEvents");
        let e = parse_rawvf(bad.as_bytes(), p).unwrap_err();
        assert_eq!((e.line, e.column), (Some(11), Some(2)), "{e}");
        let bad = SMALL.replace("1.25 mv", "1.25 zz");
        let e = parse_rawvf(bad.as_bytes(), p).unwrap_err();
        assert_eq!((e.line, e.column), (Some(17), Some(6)), "{e}");
        let bad = SMALL.replace("Mines: 1", "Mines: 2");
        let e = parse_rawvf(bad.as_bytes(), p).unwrap_err();
        assert_eq!(e.line, Some(5), "{e}");
        let bad = SMALL.replace("Width: 3\n", "");
        let e = parse_rawvf(bad.as_bytes(), p).unwrap_err();
        assert!(e.message.contains("Width"), "{e}");
        let bad = SMALL.replace("(-3 20)", "(-3 20");
        let e = parse_rawvf(bad.as_bytes(), p).unwrap_err();
        assert!(e.message.contains("pixel"), "{e}");
    }

    #[test]
    fn times_have_two_or_three_decimals() {
        assert_eq!(seconds_ms("0.515"), Some(515));
        assert_eq!(seconds_ms("3.07"), Some(3070));
        assert_eq!(seconds_ms("12"), Some(12_000));
        assert_eq!(seconds_ms("-0.010"), Some(-10));
        assert_eq!(seconds_ms("1.2345"), None);
        assert_eq!(seconds_ms("a.5"), None);
        assert_eq!(seconds_ms(""), None);
    }
}
