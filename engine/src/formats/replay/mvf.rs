//! Minesweeper Clone's `.mvf`. The format has no published description;
//! what is known (from the RAWVF project's parser, which ms_toollib follows
//! for 0.97) and read here:
//!
//! Releases 0.97 beta, 2006 and 2007 start with four length-prefixed
//! strings — `Minesweeper Clone`, the copyright years (`2004-2005` for
//! 0.97, `2004-2006`, `2004-2007`), the author and the release — and 3
//! bytes not read. Then:
//!
//! | part | 0.97 beta | 2006, 2007 |
//! |---|---|---|
//! | date | month, day (u8), year (u16), hour, minute, second (u8) | the same |
//! | level, mode | u8 each: level 1–3 beginner … expert, 4+ custom; mode 1 classic, 2 density, 3 UPK, 4 cheat | the same |
//! | time | seconds (u16), hundredths (u8) | milliseconds (u24) |
//! | 0.97 only | 3BV, 3BV solved, left, double, right clicks (u16 each) | — |
//! | question marks | u8 | u8 |
//! | board | columns, rows (u8), mines (u16), (column + 1, row + 1) pairs | the same |
//! | player | length (u8) and bytes | the same |
//! | key | u16: seeds the bit permutation of every event | the same |
//! | events | a count (u24), then 5-byte records | a count, then 6-byte records |
//!
//! An event record is a snapshot: which buttons are down (right, middle,
//! left: bits 0–2 of the permuted record), x and y (9 bits each in 0.97,
//! 11 bits less 32 pixels in 2006–2007), and the time (0.97: hundredths, 7
//! bits, and seconds, 10 bits; 2006–2007: milliseconds, 22 bits). The
//! permutation orders the 40 (48) bit positions by the digits of five (six)
//! 8-digit numbers computed from the key with square roots, sines and
//! cosines.
//!
//! Releases 0.96 beta and earlier have no header: columns, rows (u8),
//! mines (u16), (column, row) pairs, question marks (u8), one byte; then
//! 8-byte snapshots (second, hundredths, buttons: left 1, middle 2, right
//! 4, x and y as u16, one byte), up to the time (3 bytes: seconds u16,
//! hundredths), then the player's name (100 bytes, from 0.76) and a
//! checksum (10 bytes up to 0.76, 22 from 0.8); the snapshots end before
//! one whose time goes back or passes the game's time.
//!
//! Snapshots become events by what changed from the one before, in the
//! order `mv lc rc mc lr rr mr`; the first becomes one press (middle, else
//! right, else left) or a move. Times run from the first press; the timer
//! starts at the first left release. Cells are 16 pixels. The variants
//! "0.97 Funny Mode" and a hacked 0.97 with a 7-byte header are not read:
//! no file of either was found to test against.

use super::bytes::{utf8_or_legacy_text, Bytes, CellList, Order};
use super::{
    check_shape, level_of, non_empty, EventKind, GameMode, LevelName, Replay, ReplayEvent,
    ReplayFormat, ReplayHeader, Timestamp,
};
use crate::formats::FormatError;
use std::path::Path;

/// Whether `bytes` start like an `.mvf` of release 0.97 or later: `0x11`
/// then `M` (the length and first letter of `Minesweeper Clone`).
pub(crate) fn has_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x11Minesweeper Clone")
}

/// Reads an `.mvf` (see the module doc). `path` only names it in errors.
pub fn parse_mvf(bytes: &[u8], path: &Path) -> Result<Replay, FormatError> {
    if has_magic(bytes) {
        parse_with_header(bytes, path)
    } else {
        parse_headerless(bytes, path)
    }
}

/// One snapshot of the mouse: buttons down, position, time.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Snapshot {
    left: bool,
    right: bool,
    middle: bool,
    x: i32,
    y: i32,
    time_ms: i64,
}

/// The events that turn the previous snapshot into `now` (the first: one
/// press or a move).
fn push_events(events: &mut Vec<ReplayEvent>, prev: Option<Snapshot>, now: Snapshot) {
    let mut push = |kind| {
        events.push(ReplayEvent {
            time_ms: now.time_ms,
            kind,
            x: now.x,
            y: now.y,
        })
    };
    let Some(prev) = prev else {
        push(if now.middle {
            EventKind::MiddlePress
        } else if now.right {
            EventKind::RightPress
        } else if now.left {
            EventKind::LeftPress
        } else {
            EventKind::Move
        });
        return;
    };
    if (now.x, now.y) != (prev.x, prev.y) {
        push(EventKind::Move);
    }
    for (down, was, press) in [
        (now.left, prev.left, EventKind::LeftPress),
        (now.right, prev.right, EventKind::RightPress),
        (now.middle, prev.middle, EventKind::MiddlePress),
    ] {
        if down && !was {
            push(press);
        }
    }
    for (down, was, release) in [
        (now.left, prev.left, EventKind::LeftRelease),
        (now.right, prev.right, EventKind::RightRelease),
        (now.middle, prev.middle, EventKind::MiddleRelease),
    ] {
        if !down && was {
            push(release);
        }
    }
}

/// The bit permutation of a release's events: for each of the `8 · chunks`
/// positions, the byte and bit of the record it is read from.
fn permutation(key: u16, chunks: usize) -> Vec<(usize, u8)> {
    let leading = f64::from(key);
    let num1 = leading.sqrt();
    let num2 = (leading + 1000.0).sqrt();
    let num3 = (num1 + 1000.0).sqrt();
    let num4 = (num2 + 1000.0).sqrt();
    let mut values = vec![
        (num3 + 1000.0).cos(),
        num2.sqrt().sin(),
        num3.cos(),
        (num1.sqrt() + 1000.0).sin(),
    ];
    if chunks == 5 {
        values.push((num2 + 1000.0).sqrt().cos());
    } else {
        values.push(num4.cos());
        values.push(num4.sin());
    }
    let mut digits = Vec::with_capacity(8 * chunks);
    for v in values {
        // Eight decimal digits of |v| · 10^8, rounded (|v| = 1 would give
        // nine: only the first eight are used, as the original does).
        let n = (v.abs() * 100_000_000.0).round() as u64;
        digits.extend(format!("{n:08}").bytes().take(8));
    }
    let mut order = Vec::with_capacity(digits.len());
    for d in b'0'..=b'9' {
        for (j, &c) in digits.iter().enumerate() {
            if c == d {
                order.push((j / 8, 1u8 << (j % 8)));
            }
        }
    }
    order
}

fn parse_with_header(bytes: &[u8], path: &Path) -> Result<Replay, FormatError> {
    let mut b = Bytes::new(bytes, path);
    let mut strings = Vec::new();
    for what in [
        "the program's name",
        "the years",
        "the author",
        "the release",
    ] {
        let len = b.u8(what)?;
        strings.push(b.take(len as usize, what)?);
    }
    let years_at = 1 + strings[0].len() + 1;
    let release = String::from_utf8_lossy(strings[3]).into_owned();
    let kind = match strings[1].last() {
        Some(b'5') => Release::Beta097,
        Some(b'6') | Some(b'7') => Release::Y2006Or2007,
        _ => {
            return Err(b.error_at(
                years_at,
                format!(
                    "a Minesweeper Clone release this reader does not know ({}, {})",
                    String::from_utf8_lossy(strings[1]),
                    release
                ),
            ))
        }
    };
    b.skip(3, "the header")?;
    let date_at = b.offset();
    let month = b.u8("the month")?;
    let day = b.u8("the day")?;
    let year = b.u16("the year")?;
    let hour = b.u8("the hour")?;
    let minute = b.u8("the minute")?;
    let second = b.u8("the second")?;
    let _ = date_at;
    let level = b.u8("the level")?;
    let mode = b.u8("the mode")?;
    let (time_ms, bbbv, solved) = match kind {
        Release::Beta097 => {
            let s = b.u16("the time")?;
            let h = b.u8("the time")?;
            let bbbv = b.u16("the 3BV")?;
            let solved = b.u16("the 3BV solved")?;
            b.skip(6, "the click counts")?;
            (
                u64::from(s) * 1000 + u64::from(h) * 10,
                Some(bbbv),
                Some(solved),
            )
        }
        Release::Y2006Or2007 => (u64::from(b.u24("the time")?), None, None),
    };
    let question_marks = b.u8("the question-mark setting")? != 0;
    let (rows, cols, mines) = read_board(&mut b, 1)?;
    let name_len = b.u8("the player's name length")?;
    let player = utf8_or_legacy_text(b.take(name_len as usize, "the player's name")?);
    let key = b.u16("the event key")?;
    let count = b.u24("the event count")? as usize;
    let (size, order) = match kind {
        Release::Beta097 => (5, permutation(key, 5)),
        Release::Y2006Or2007 => (6, permutation(key, 6)),
    };
    // The permutation as one table per record byte: what each of its 256
    // values contributes to the record's bits in their logical order.
    let mut table = vec![[0u64; 256]; size];
    for (k, &(byte, mask)) in order.iter().enumerate() {
        for (v, word) in table[byte].iter_mut().enumerate() {
            if v as u8 & mask != 0 {
                *word |= 1 << k;
            }
        }
    }
    let unpermute = |r: &[u8]| {
        r.iter()
            .zip(&table)
            .fold(0u64, |acc, (&v, t)| acc | t[v as usize])
    };
    let bit = |word: u64, k: usize| (word >> k & 1) as u32;
    let field = |word: u64, from: usize, bits: usize| (word >> from & ((1 << bits) - 1)) as u32;
    // Room for one event per record (a record may give several; more grow).
    let mut events = Vec::with_capacity(count.min(b.remaining() / size));
    let mut prev = None;
    for _ in 0..count {
        let r = unpermute(b.take(size, "a mouse event (the file ends before the event count)")?);
        let (x, y, time_ms) = match kind {
            Release::Beta097 => (
                field(r, 12, 9) as i32,
                field(r, 3, 9) as i32,
                i64::from(field(r, 28, 10)) * 1000 + i64::from(field(r, 21, 7)) * 10,
            ),
            Release::Y2006Or2007 => (
                field(r, 14, 11) as i32 - 32,
                field(r, 3, 11) as i32 - 32,
                i64::from(field(r, 25, 22)),
            ),
        };
        let now = Snapshot {
            right: bit(r, 0) == 1,
            middle: bit(r, 1) == 1,
            left: bit(r, 2) == 1,
            x,
            y,
            time_ms,
        };
        push_events(&mut events, prev, now);
        prev = Some(now);
    }
    let header = ReplayHeader {
        player: non_empty(player),
        program: Some("Minesweeper Clone".to_string()),
        program_version: non_empty(release.trim_start_matches("version ").to_string()),
        started: Some(Timestamp::Local {
            year,
            month,
            day,
            hour,
            minute,
            second,
            millis: 0,
        }),
        level: Some(match level {
            1 => LevelName::Beginner,
            2 => LevelName::Intermediate,
            3 => LevelName::Expert,
            _ => LevelName::Custom,
        }),
        mode: Some(clone_mode(mode)),
        question_marks: Some(question_marks),
        recorded_time_ms: Some(time_ms),
        recorded_bbbv: bbbv.map(u32::from),
        completed: bbbv.zip(solved).map(|(b, s)| b == s),
        ..ReplayHeader::default()
    };
    Ok(Replay {
        format: ReplayFormat::Mvf,
        version: release.trim_start_matches("version ").to_string(),
        rows,
        cols,
        mines,
        cell_px: 16,
        events,
        header,
    })
}

#[derive(Clone, Copy)]
enum Release {
    Beta097,
    Y2006Or2007,
}

/// Minesweeper Clone's mode numbers.
fn clone_mode(mode: u8) -> GameMode {
    match mode {
        1 => GameMode::Standard,
        2 => GameMode::Density,
        3 => GameMode::Upk,
        4 => GameMode::Cheat,
        other => GameMode::Other(u16::from(other)),
    }
}

/// Columns, rows, mine count and mines as (column + `base`, row + `base`)
/// pairs.
fn read_board(b: &mut Bytes, base: u8) -> Result<(usize, usize, Vec<bool>), FormatError> {
    let shape_at = b.offset();
    let cols = b.u8("the board's width")? as usize;
    let rows = b.u8("the board's height")? as usize;
    check_shape(b.path(), shape_at, rows, cols)?;
    let count = b.mine_count(rows, cols)?;
    let mines = b.mines(CellList::mines(Order::ColRow, base), count, (rows, cols))?;
    Ok((rows, cols, mines))
}

fn parse_headerless(bytes: &[u8], path: &Path) -> Result<Replay, FormatError> {
    let mut b = Bytes::new(bytes, path);
    let (rows, cols, mines) = read_board(&mut b, 0)?;
    let level = match level_of(rows, cols, mines.iter().filter(|&&m| m).count()) {
        LevelName::Custom if !matches!((rows, cols), (8, 8) | (16, 16) | (16, 30)) => {
            return Err(b.error_at(
                0,
                format!(
                    "a {rows}×{cols} board: Minesweeper Clone 0.96 and earlier record only \
                     8×8, 16×16 and 16×30"
                ),
            ))
        }
        level => level,
    };
    let question_marks = b.u8("the question-mark setting")? != 0;
    b.skip(1, "the header")?;
    let start = b.offset();
    let len = bytes.len();
    let digit = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_digit);
    // Where the events end and the player's name is, by the trailer's
    // shape (a 22-byte checksum from 0.8, 10 bytes up to 0.76; a name of
    // 100 bytes from 0.76).
    let (release, after_events, name_at) = if len >= 22 && !digit(len - 1) && !digit(len - 22) {
        (
            "0.96 beta or earlier",
            len.checked_sub(125),
            len.checked_sub(122),
        )
    } else if len >= 13 && bytes[len - 13..len - 10] == *b"   " {
        ("0.76 beta", len.checked_sub(113), len.checked_sub(110))
    } else {
        ("0.75 beta or earlier", len.checked_sub(13), None)
    };
    let after_events = after_events
        .filter(|&a| a >= start && a + 3 <= len)
        .ok_or_else(|| {
            b.error_at(
                start,
                format!("the file is too short for the trailer of a Clone {release} replay"),
            )
        })?;
    let score = &bytes[after_events..after_events + 3];
    let score_ms =
        (i64::from(u16::from_be_bytes([score[0], score[1]])) * 1000) + i64::from(score[2]) * 10;
    let player = name_at
        .map(|at| {
            utf8_or_legacy_text(&bytes[at..at + 100])
                .trim_end()
                .to_string()
        })
        .and_then(non_empty);

    let mut events = Vec::new();
    let mut prev: Option<Snapshot> = None;
    let mut at = start;
    while at <= after_events {
        let mut r = Bytes::new(bytes, path);
        r.skip(at, "the events")?;
        let e = r.take(8, "a mouse event")?;
        let time_ms = i64::from(e[0]) * 1000 + i64::from(e[1]) * 10;
        if prev.is_some_and(|p| time_ms < p.time_ms) || time_ms > score_ms {
            break;
        }
        let now = Snapshot {
            left: e[2] & 1 != 0,
            middle: e[2] & 2 != 0,
            right: e[2] & 4 != 0,
            x: i32::from(u16::from_be_bytes([e[3], e[4]])),
            y: i32::from(u16::from_be_bytes([e[5], e[6]])),
            time_ms,
        };
        push_events(&mut events, prev, now);
        prev = Some(now);
        at += 8;
    }
    // The buttons are all up at the end.
    if let Some(last) = prev {
        let up = Snapshot {
            left: false,
            right: false,
            middle: false,
            ..last
        };
        push_events(&mut events, prev, up);
    }
    let header = ReplayHeader {
        player,
        program: Some("Minesweeper Clone".to_string()),
        program_version: Some(release.to_string()),
        level: Some(level),
        mode: Some(GameMode::Standard),
        question_marks: Some(question_marks),
        recorded_time_ms: Some(score_ms as u64),
        ..ReplayHeader::default()
    };
    Ok(Replay {
        format: ReplayFormat::Mvf,
        version: release.to_string(),
        rows,
        cols,
        mines,
        cell_px: 16,
        events,
        header,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_permutation_orders_every_bit_position_once() {
        for (key, chunks) in [(0u16, 5), (1, 5), (65_535, 5), (12_345, 6), (0, 6)] {
            let order = permutation(key, chunks);
            assert_eq!(order.len(), 8 * chunks);
            let mut seen: Vec<_> = order.clone();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), 8 * chunks, "key {key}");
        }
    }

    #[test]
    fn snapshots_become_moves_presses_and_releases() {
        let at = |left, right, x| Snapshot {
            left,
            right,
            middle: false,
            x,
            y: 0,
            time_ms: 0,
        };
        let mut events = Vec::new();
        push_events(&mut events, None, at(true, false, 5));
        push_events(&mut events, Some(at(true, false, 5)), at(false, true, 6));
        let codes: Vec<_> = events.iter().map(|e| e.kind.code()).collect();
        assert_eq!(codes, ["lc", "mv", "rc", "lr"]);
    }
}
