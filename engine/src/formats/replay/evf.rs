//! Metasweeper's `.evf` (eee555's open format), versions 0 to 4, as its
//! white paper (`evf标准.md` in ms_toollib's repository) and ms_toollib's
//! writer define them. Integers are big-endian.
//!
//! Versions 0–3:
//!
//! | part | what |
//! |---|---|
//! | version | u8: 0–3 |
//! | summary | u8: won (bit 7), official (6), fair (5), no flags (4, from version 1) |
//! | v3 settings | u8: question marks (bit 7), cursor kept on the board (6), restart on a mine (5) |
//! | board | rows (u8), columns (u8), mines (u16), cell size in pixels (u8) |
//! | game | mode (u16: 0 standard, 1 UPK, 2 cheat, 3 density, 4 Windows 7, 5–10 no-guess and guessable rules, 11–13 recursive), 3BV (u16), time (u24, ms) |
//! | text | NUL-terminated: program, player, race id, unique id, start time, end time, country; from version 2 a device id |
//! | mines | one bit per cell, row-major, most significant bit first, padded to a byte |
//! | events | a code (u8: 1–7 `mv lc lr rc rr mc mr`, 8 a pre-flag, 9 both buttons down; from version 3 also 10–12 a left, right or middle button change), time (u24, ms), x, y (u16) — up to a code 0 (a 32-byte checksum follows) or 255 (none) |
//!
//! Version 4:
//!
//! | part | what |
//! |---|---|
//! | version | u8: 4 |
//! | summary | u8: won, official, fair, no flags, translated from another format (bit 3) |
//! | settings | u8, as in version 3 |
//! | board | rows, columns, mines, cell size, as before |
//! | game | mode (u16), 3BV (u16), time (u32, ms), country (2 bytes), start and end (u64, µs since 1970) |
//! | text | NUL-terminated, UTF-8: program; if translated, the translator and the original encoding; player, race id, unique id |
//! | device | a length (u16) and that many bytes |
//! | mines | bits, as before |
//! | custom values | a count (u16), then NUL-terminated strings (not read) |
//! | events | the first: a code, time (u8, ms), x, y (u16); then each: a code (1–12 as before) with a time step (u8) and x, y steps (i16), or a game signal (81 restart, 82 won, 83 lost, 99 error) with a time step (u8), or 255 a pause (u16, ms, added to the next step) — up to a code 0 |
//! | checksum | a length (u16) and that many bytes |
//!
//! Times are milliseconds from the first press that acts on the board.

use super::bytes::{utf8_or_legacy_text, utf8_text, Bytes};
use super::{
    check_shape, level_of, non_empty, EventKind, GameMode, Replay, ReplayEvent, ReplayFormat,
    ReplayHeader, Timestamp,
};
use crate::formats::FormatError;
use std::path::Path;

/// Reads an `.evf` of version 0 to 4 (see the module doc). `path` only
/// names it in errors.
pub fn parse_evf(bytes: &[u8], path: &Path) -> Result<Replay, FormatError> {
    let mut b = Bytes::new(bytes, path);
    let version = b.u8("the format version")?;
    match version {
        0..=3 => parse_v0_to_v3(b, version),
        4 => parse_v4(b),
        _ => Err(b.error_at(
            0,
            format!("EVF format version {version}: this reader knows versions 0 to 4"),
        )),
    }
}

/// The summary byte's flags.
struct Summary {
    completed: bool,
    official: bool,
    fair: bool,
    no_flags: bool,
    translated: bool,
}

impl Summary {
    fn read(b: &mut Bytes) -> Result<Summary, FormatError> {
        let s = b.u8("the summary byte")?;
        Ok(Summary {
            completed: s & 0x80 != 0,
            official: s & 0x40 != 0,
            fair: s & 0x20 != 0,
            no_flags: s & 0x10 != 0,
            translated: s & 0x08 != 0,
        })
    }
}

/// The fixed fields every version has after the summary (and settings).
struct Board {
    rows: usize,
    cols: usize,
    mine_count: usize,
    cell_px: u8,
    mode: u16,
    bbbv: u16,
}

impl Board {
    fn read(b: &mut Bytes) -> Result<Board, FormatError> {
        let shape_at = b.offset();
        let rows = b.u8("the board's height")? as usize;
        let cols = b.u8("the board's width")? as usize;
        check_shape(b.path(), shape_at, rows, cols)?;
        let mine_count = b.mine_count(rows, cols)?;
        let px_at = b.offset();
        let cell_px = b.u8("the cell size")?;
        if cell_px == 0 {
            return Err(b.error_at(px_at, "a cell size of 0 pixels: expected at least 1"));
        }
        Ok(Board {
            rows,
            cols,
            mine_count,
            cell_px,
            mode: b.u16("the mode")?,
            bbbv: b.u16("the 3BV")?,
        })
    }

    /// The mine bits, checked against the mine count.
    fn mines(&self, b: &mut Bytes) -> Result<Vec<bool>, FormatError> {
        let cells = self.rows * self.cols;
        let at = b.offset();
        let bits = b.take(cells.div_ceil(8), "the mine bits")?;
        let mines: Vec<bool> = (0..cells)
            .map(|i| bits[i / 8] & (0x80 >> (i % 8)) != 0)
            .collect();
        let count = mines.iter().filter(|&&m| m).count();
        if count != self.mine_count {
            return Err(b.error_at(
                at,
                format!(
                    "the mine bits mark {count} mines; the header says {}",
                    self.mine_count
                ),
            ));
        }
        Ok(mines)
    }
}

/// Event codes 1–12 (versions 0–2 stop at 9).
fn mouse_kind(code: u8) -> Option<EventKind> {
    Some(match code {
        1 => EventKind::Move,
        2 => EventKind::LeftPress,
        3 => EventKind::LeftRelease,
        4 => EventKind::RightPress,
        5 => EventKind::RightRelease,
        6 => EventKind::MiddlePress,
        7 => EventKind::MiddleRelease,
        8 => EventKind::PreFlag,
        9 => EventKind::BothPress,
        10 => EventKind::LeftToggle,
        11 => EventKind::RightToggle,
        12 => EventKind::MiddleToggle,
        _ => return None,
    })
}

fn parse_v0_to_v3(mut b: Bytes, version: u8) -> Result<Replay, FormatError> {
    let summary = Summary::read(&mut b)?;
    let question_marks = if version >= 3 {
        Some(b.u8("the settings byte")? & 0x80 != 0)
    } else {
        None
    };
    let board = Board::read(&mut b)?;
    let time_ms = b.u24("the game's time")?;
    let program = utf8_text(b.until_nul("the program's name")?);
    let player = utf8_or_legacy_text(b.until_nul("the player's name")?);
    let race = utf8_or_legacy_text(b.until_nul("the race id")?);
    let unique = utf8_or_legacy_text(b.until_nul("the unique id")?);
    let start = utf8_text(b.until_nul("the start time")?);
    let end = utf8_text(b.until_nul("the end time")?);
    let country = utf8_or_legacy_text(b.until_nul("the country")?);
    if version >= 2 {
        b.until_nul("the device id")?;
    }
    let mines = board.mines(&mut b)?;
    let last_code = if version >= 3 { 12 } else { 9 };
    let mut events = Vec::with_capacity(b.remaining() / 8);
    loop {
        let at = b.offset();
        let code = b.u8("an event code (the file ends before the end of the events)")?;
        match code {
            0 => {
                b.skip(32, "the checksum")?;
                break;
            }
            255 => break,
            _ => {
                let kind = mouse_kind(code)
                    .filter(|_| code <= last_code)
                    .ok_or_else(|| {
                        b.error_at(
                            at,
                            format!("unknown event code {code} in an EVF version {version} file"),
                        )
                    })?;
                let time_ms = i64::from(b.u24("an event's time")?);
                let x = i32::from(b.u16("an event's x")?);
                let y = i32::from(b.u16("an event's y")?);
                events.push(ReplayEvent {
                    time_ms,
                    kind,
                    x,
                    y,
                });
            }
        }
    }
    let stamp = |text: &str| timestamp(text, &program);
    let header = ReplayHeader {
        player: non_empty(player),
        nickname: non_empty(unique),
        race: non_empty(race),
        country: non_empty(country),
        started: stamp(&start),
        ended: stamp(&end),
        program: non_empty(program.clone()),
        program_version: None,
        level: Some(level_of(board.rows, board.cols, board.mine_count)),
        mode: Some(GameMode::from_evf(board.mode)),
        no_flags: (version >= 1).then_some(summary.no_flags),
        question_marks,
        recorded_time_ms: Some(u64::from(time_ms)),
        recorded_bbbv: Some(u32::from(board.bbbv)),
        completed: Some(summary.completed),
        official: Some(summary.official),
        fair: Some(summary.fair),
    };
    Ok(replay(version, &board, mines, events, header))
}

fn parse_v4(mut b: Bytes) -> Result<Replay, FormatError> {
    let summary = Summary::read(&mut b)?;
    let question_marks = b.u8("the settings byte")? & 0x80 != 0;
    let board = Board::read(&mut b)?;
    let time_ms = b.u32("the game's time")?;
    let country = utf8_text(b.take(2, "the country")?);
    let start = b.u64("the start time")?;
    let end = b.u64("the end time")?;
    let program = utf8_text(b.until_nul("the program's name")?);
    if summary.translated {
        b.until_nul("the translating program's name")?;
        b.until_nul("the original encoding")?;
    }
    let player = utf8_text(b.until_nul("the player's name")?);
    let race = utf8_text(b.until_nul("the race id")?);
    let unique = utf8_text(b.until_nul("the unique id")?);
    let device_len = b.u16("the device id's length")?;
    b.skip(device_len as usize, "the device id")?;
    let mines = board.mines(&mut b)?;
    let custom = b.u16("the number of custom values")?;
    for _ in 0..custom {
        b.until_nul("a custom value")?;
    }

    // Room for one event per 6 bytes left (a mouse event; a signal takes
    // 2, and more grow).
    let mut events = Vec::with_capacity(b.remaining() / 6);
    let at = b.offset();
    let code = b.u8("the first event's code")?;
    if code != 0 {
        let kind = mouse_kind(code).ok_or_else(|| {
            b.error_at(
                at,
                format!("unknown first event code {code} in an EVF 4 file"),
            )
        })?;
        let time_ms = i64::from(b.u8("the first event's time")?);
        let x = i32::from(b.u16("the first event's x")?);
        let y = i32::from(b.u16("the first event's y")?);
        events.push(ReplayEvent {
            time_ms,
            kind,
            x,
            y,
        });
        let (mut time, mut x, mut y) = (time_ms, x, y);
        let mut pause = 0i64;
        loop {
            let at = b.offset();
            let code = b.u8("an event code (the file ends before the end of the events)")?;
            let kind = match code {
                0 => break,
                255 => {
                    pause += i64::from(b.u16("a pause")?);
                    continue;
                }
                81 => EventKind::Restart,
                82 => EventKind::Win,
                83 => EventKind::Fail,
                99 => EventKind::Error,
                _ => mouse_kind(code).ok_or_else(|| {
                    b.error_at(at, format!("unknown event code {code} in an EVF 4 file"))
                })?,
            };
            time += i64::from(b.u8("an event's time step")?) + pause;
            pause = 0;
            if !kind.is_signal() {
                x += i32::from(b.i16("an event's x step")?);
                y += i32::from(b.i16("an event's y step")?);
            }
            events.push(ReplayEvent {
                time_ms: time,
                kind,
                x,
                y,
            });
        }
    }
    let checksum_len = b.u16("the checksum's length")?;
    b.skip(checksum_len as usize, "the checksum")?;

    let header = ReplayHeader {
        player: non_empty(player),
        nickname: non_empty(unique),
        race: non_empty(race),
        country: non_empty(country).filter(|c| c != "XX"),
        program: non_empty(program),
        program_version: None,
        started: (start > 0).then_some(Timestamp::UnixMicros(start)),
        ended: (end > 0).then_some(Timestamp::UnixMicros(end)),
        level: Some(level_of(board.rows, board.cols, board.mine_count)),
        mode: Some(GameMode::from_evf(board.mode)),
        no_flags: Some(summary.no_flags),
        question_marks: Some(question_marks),
        recorded_time_ms: Some(u64::from(time_ms)),
        recorded_bbbv: Some(u32::from(board.bbbv)),
        completed: Some(summary.completed),
        official: Some(summary.official),
        fair: Some(summary.fair),
    };
    Ok(replay(4, &board, mines, events, header))
}

fn replay(
    version: u8,
    board: &Board,
    mines: Vec<bool>,
    events: Vec<ReplayEvent>,
    header: ReplayHeader,
) -> Replay {
    Replay {
        format: ReplayFormat::Evf,
        version: version.to_string(),
        rows: board.rows,
        cols: board.cols,
        mines,
        cell_px: u16::from(board.cell_px),
        events,
        header,
    }
}

/// A version 0–3 time string: Metasweeper's microseconds, Viennasweeper's
/// seconds (in replays translated from `.rmv`), else the text as it is.
fn timestamp(text: &str, program: &str) -> Option<Timestamp> {
    if text.is_empty() {
        return None;
    }
    if text.bytes().all(|c| c.is_ascii_digit()) {
        if let Ok(n) = text.parse::<u64>() {
            let micros = if program == "Viennasweeper" {
                n.checked_mul(1_000_000)
            } else {
                Some(n)
            };
            if let Some(micros) = micros {
                return Some(Timestamp::UnixMicros(micros));
            }
        }
    }
    Some(Timestamp::Text(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_versions_are_named() {
        let e = parse_evf(&[5, 0], Path::new("g.evf")).unwrap_err();
        assert_eq!(e.byte, Some(0));
        assert!(e.message.contains("version 5"), "{e}");
        let e = parse_evf(&[], Path::new("g.evf")).unwrap_err();
        assert!(e.message.contains("ends inside the format version"), "{e}");
    }

    #[test]
    fn time_strings_are_read_by_program() {
        assert_eq!(
            timestamp("1725048701386418", "元3.1.9"),
            Some(Timestamp::UnixMicros(1_725_048_701_386_418))
        );
        assert_eq!(
            timestamp("1354964250", "Viennasweeper"),
            Some(Timestamp::UnixMicros(1_354_964_250_000_000))
        );
        assert_eq!(
            timestamp("18.10.2022.20:15:35:6606", "Arbiter"),
            Some(Timestamp::Text("18.10.2022.20:15:35:6606".into()))
        );
        assert_eq!(timestamp("", "x"), None);
    }
}
