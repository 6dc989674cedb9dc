//! Minesweeper Arbiter's `.avf`. The format has no published description;
//! what is known (from the RAWVF project's parser and ms_toollib) and read
//! here:
//!
//! | part | what |
//! |---|---|
//! | version | u8: Arbiter's minor version (52 = 0x34 for 0.52.x) |
//! | (4 bytes) | not read |
//! | level | u8: 3 beginner (8×8, 10), 4 intermediate, 5 expert; 6 custom, followed by columns − 1 and rows − 1 (u8 each) and the mines (u16, big-endian) |
//! | mines | (row + 1, column + 1) byte pairs |
//! | (bytes) | not read, up to the info block |
//! | question marks | the byte two before the info block's `[`: 17 on, 127 off |
//! | info block | `[L\|` (L the level digit 0–3), for custom `W…H…M…\|`, the start `d.m.yyyy.hh:mm:ss:ffff\|`, the end `d.hh:mm:ss:ffff\|`, sometimes `HS\|`, then `B` 3BV `T` time `]` — the time being the timer's reading, one second more than the game's time |
//! | (bytes) | not read: the events start at the first 8-byte record whose third byte is 1 (the timer's first second) and whose second is at most 1 |
//! | events | 8-byte records `code, x-high, second-low, x-low, hundredths, y-high, second-high, y-low` (code: 1 `mv`, 3 `lc`, 5 `lr`, 9 `rc`, 17 `rr`, 33 `mc`, 65 `mr`, 145 `rr`, 193 `mr`, 21 `lr`, 11 a Shift+left press), up to a record whose second is 0 |
//! | trailer | text after `cs=` and 17 bytes: CR-ended lines `Key: value` (`RealTime`, `Skin`), then the player's name, then `Minesweeper Arbiter 0.52.3. Copyright …` |
//!
//! An event's time is the timer's reading minus one second: 0 at the
//! first opening click's release. The country, which Arbiter stores behind
//! a checksum of the board, is not read.

use super::bytes::{utf8_or_legacy_text, Bytes, CellList, Order};
use super::{
    check_shape, non_empty, EventKind, LevelName, Replay, ReplayEvent, ReplayFormat, ReplayHeader,
    Timestamp,
};
use crate::formats::FormatError;
use std::path::Path;

/// Reads an `.avf` (see the module doc). `path` only names it in errors.
pub fn parse_avf(bytes: &[u8], path: &Path) -> Result<Replay, FormatError> {
    let mut b = Bytes::new(bytes, path);
    let version = b.u8("the version")?;
    b.skip(4, "the header")?;
    let level_at = b.offset();
    let level = b.u8("the level")?;
    let (rows, cols, mine_count, level_name) = match level {
        3 => (8, 8, 10, LevelName::Beginner),
        4 => (16, 16, 40, LevelName::Intermediate),
        5 => (16, 30, 99, LevelName::Expert),
        6 => {
            let shape_at = b.offset();
            let cols = b.u8("the board's width")? as usize + 1;
            let rows = b.u8("the board's height")? as usize + 1;
            check_shape(path, shape_at, rows, cols)?;
            (rows, cols, b.mine_count(rows, cols)?, LevelName::Custom)
        }
        _ => {
            return Err(b.error_at(
                level_at,
                format!("level {level}: expected 3 to 6 (beginner to custom)"),
            ))
        }
    };
    let mines = b.mines(CellList::mines(Order::RowCol, 1), mine_count, (rows, cols))?;

    // The info block: `[L|` with the question-mark byte two before it.
    let from = b.offset();
    let open = find(bytes, from, |w| {
        w.len() >= 3 && w[0] == b'[' && (b'0'..=b'3').contains(&w[1]) && w[2] == b'|'
    })
    .filter(|&at| at >= from + 2)
    .ok_or_else(|| b.error_at(from, "no info block `[L|` follows the mines"))?;
    let question_marks = match bytes[open - 2] {
        17 => true,
        127 => false,
        other => {
            return Err(b.error_at(
                open - 2,
                format!("question-mark byte {other}: expected 17 (on) or 127 (off)"),
            ))
        }
    };
    let mut info = Text::new(bytes, open + 3, path);
    if level == 6 {
        info.until(b"|", "the custom size")?;
    }
    let start = info.until(b"|", "the start time")?;
    let (end, _) = info.until_any(b"|B", "the end time")?;
    let started = local_start(&start);
    let ended = started.as_ref().and_then(|s| local_end(s, &end));
    info.find(b'B', "the 3BV")?;
    let bbbv = info.until(b"T", "the 3BV")?;
    let time = info.until(b"]", "the time")?;
    let recorded_bbbv = bbbv.parse::<u32>().ok();
    let recorded_time_ms = centiseconds(&time)
        .and_then(|cs| cs.checked_sub(100))
        .map(|cs| cs * 10);

    // The events.
    let after = info.at;
    let first = find(bytes, after, |w| w.len() >= 8 && w[2] == 1 && w[1] <= 1)
        .ok_or_else(|| b.error_at(after, "no mouse event follows the info block"))?;
    let mut b = Bytes::new(bytes, path);
    b.skip(first, "the header")?;
    let mut events = Vec::with_capacity(b.remaining() / 8);
    loop {
        let at = b.offset();
        let r = b.take(
            8,
            "a mouse event (the file ends before the end of the events)",
        )?;
        let second = u16::from_be_bytes([r[6], r[2]]);
        if second == 0 {
            break;
        }
        let kind = match r[0] {
            1 => EventKind::Move,
            3 => EventKind::LeftPress,
            5 | 21 => EventKind::LeftRelease,
            9 => EventKind::RightPress,
            17 | 145 => EventKind::RightRelease,
            33 => EventKind::MiddlePress,
            65 | 193 => EventKind::MiddleRelease,
            11 => EventKind::ShiftLeftPress,
            other => {
                return Err(b.error_at(at, format!("unknown mouse event code {other}")));
            }
        };
        events.push(ReplayEvent {
            time_ms: (i64::from(second) - 1) * 1000 + i64::from(r[4]) * 10,
            kind,
            x: i32::from(u16::from_be_bytes([r[1], r[3]])),
            y: i32::from(u16::from_be_bytes([r[5], r[7]])),
        });
    }

    // The trailer: the player's name and the program's version.
    let from = b.offset();
    let cs = find(bytes, from, |w| w.starts_with(b"cs="))
        .ok_or_else(|| b.error_at(from, "no trailer `cs=` follows the events"))?;
    let mut trailer = Text::new(bytes, cs + 3, path);
    trailer.skip(17, "the trailer")?;
    let player = loop {
        let line = trailer.until_raw(b'\r', "the player's name")?;
        if !line.contains(&b':') {
            break utf8_or_legacy_text(line);
        }
    };
    let rest = utf8_or_legacy_text(&bytes[trailer.at..]);
    let program_version = rest
        .strip_prefix("Minesweeper Arbiter ")
        .and_then(|v| v.split(" Copyright").next())
        .map(|v| v.trim().trim_end_matches('.').to_string())
        .and_then(non_empty);

    let header = ReplayHeader {
        player: non_empty(player),
        program: Some("Arbiter".to_string()),
        program_version,
        started,
        ended,
        level: Some(level_name),
        no_flags: None,
        question_marks: Some(question_marks),
        recorded_time_ms,
        recorded_bbbv,
        ..ReplayHeader::default()
    };
    Ok(Replay {
        format: ReplayFormat::Avf,
        version: version.to_string(),
        rows,
        cols,
        mines,
        cell_px: 16,
        events,
        header,
    })
}

/// The first offset at or after `from` where `matches` holds for the rest
/// of the data.
fn find(bytes: &[u8], from: usize, matches: impl Fn(&[u8]) -> bool) -> Option<usize> {
    (from..bytes.len()).find(|&at| matches(&bytes[at..]))
}

/// Text fields of the info block and trailer, read up to a delimiter.
struct Text<'a> {
    bytes: &'a [u8],
    at: usize,
    path: &'a Path,
}

impl<'a> Text<'a> {
    fn new(bytes: &'a [u8], at: usize, path: &'a Path) -> Text<'a> {
        Text { bytes, at, path }
    }

    fn end(&self, what: &str) -> FormatError {
        FormatError::at_byte(
            self.path,
            self.at as u64,
            format!("the file ends inside {what}"),
        )
    }

    /// The bytes up to the first of `delims`, and that delimiter (consumed).
    fn until_any(&mut self, delims: &[u8], what: &str) -> Result<(String, u8), FormatError> {
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        let n = rest
            .iter()
            .position(|c| delims.contains(c))
            .ok_or_else(|| self.end(what))?;
        let text = String::from_utf8_lossy(&rest[..n]).into_owned();
        self.at += n + 1;
        Ok((text, rest[n]))
    }

    fn until(&mut self, delim: &[u8], what: &str) -> Result<String, FormatError> {
        self.until_any(delim, what).map(|(text, _)| text)
    }

    fn until_raw(&mut self, delim: u8, what: &str) -> Result<&'a [u8], FormatError> {
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        let n = rest
            .iter()
            .position(|&c| c == delim)
            .ok_or_else(|| self.end(what))?;
        self.at += n + 1;
        Ok(&rest[..n])
    }

    /// Moves just past the next `c` (the end block's `B` follows `|B` or,
    /// when the end time ran into it, was already consumed: then `c` must be
    /// the byte just read).
    fn find(&mut self, c: u8, what: &str) -> Result<(), FormatError> {
        if self.at > 0 && self.bytes[self.at - 1] == c {
            return Ok(());
        }
        self.until_raw(c, what).map(|_| ())
    }

    fn skip(&mut self, n: usize, what: &str) -> Result<(), FormatError> {
        if self.bytes.len().saturating_sub(self.at) < n {
            return Err(self.end(what));
        }
        self.at += n;
        Ok(())
    }
}

/// Hundredths of a second in a time such as `50.25` (or `50,25`).
fn centiseconds(text: &str) -> Option<u64> {
    let (s, f) = text.split_once(['.', ',']).unwrap_or((text, "0"));
    if s.is_empty() || f.is_empty() || f.len() > 2 {
        return None;
    }
    let digits = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
    if !digits(s) || !digits(f) {
        return None;
    }
    let whole: u64 = s.parse().ok()?;
    let frac: u64 = f.parse().ok()?;
    let frac = if f.len() == 1 { frac * 10 } else { frac };
    whole.checked_mul(100)?.checked_add(frac)
}

/// Arbiter's sub-second field: its first digit is not part of the value;
/// the rest are milliseconds (`6606` → 606).
fn arbiter_millis(text: &str) -> Option<u16> {
    let rest = text.get(1..)?;
    if rest.is_empty() || rest.len() > 3 || !rest.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    rest.parse().ok()
}

/// `d.m.yyyy.hh:mm:ss:ffff`.
fn local_start(text: &str) -> Option<Timestamp> {
    let mut dot = text.splitn(4, '.');
    let (day, month, year, clock) = (dot.next()?, dot.next()?, dot.next()?, dot.next()?);
    let mut colon = clock.split(':');
    let (hour, minute, second, frac) = (colon.next()?, colon.next()?, colon.next()?, colon.next()?);
    let stamp = Timestamp::Local {
        year: year.parse().ok()?,
        month: month.parse().ok()?,
        day: day.parse().ok()?,
        hour: hour.parse().ok()?,
        minute: minute.parse().ok()?,
        second: second.parse().ok()?,
        millis: arbiter_millis(frac)?,
    };
    valid(&stamp).then_some(stamp)
}

/// `d.hh:mm:ss:ffff`, in the month of `start` or the next (when the day is
/// earlier than the start's).
fn local_end(start: &Timestamp, text: &str) -> Option<Timestamp> {
    let Timestamp::Local {
        year, month, day, ..
    } = *start
    else {
        return None;
    };
    let (end_day, clock) = text.split_once('.')?;
    let end_day: u8 = end_day.parse().ok()?;
    let (year, month) = match (end_day < day, month) {
        (false, _) => (year, month),
        (true, 12) => (year.checked_add(1)?, 1),
        (true, m) => (year, m + 1),
    };
    let mut colon = clock.split(':');
    let (hour, minute, second, frac) = (colon.next()?, colon.next()?, colon.next()?, colon.next()?);
    let stamp = Timestamp::Local {
        year,
        month,
        day: end_day,
        hour: hour.parse().ok()?,
        minute: minute.parse().ok()?,
        second: second.parse().ok()?,
        millis: arbiter_millis(frac)?,
    };
    valid(&stamp).then_some(stamp)
}

fn valid(stamp: &Timestamp) -> bool {
    match *stamp {
        Timestamp::Local {
            month,
            day,
            hour,
            minute,
            second,
            ..
        } => {
            (1..=12).contains(&month)
                && (1..=31).contains(&day)
                && hour < 24
                && minute < 60
                && second < 61
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arbiter_times_are_read() {
        assert_eq!(centiseconds("50.25"), Some(5025));
        assert_eq!(centiseconds("3,5"), Some(350));
        assert_eq!(centiseconds("7"), Some(700));
        assert_eq!(centiseconds("x.25"), None);
        assert_eq!(centiseconds("1.234"), None);
        let start = local_start("18.10.2022.20:15:35:6606").unwrap();
        assert_eq!(
            start,
            Timestamp::Local {
                year: 2022,
                month: 10,
                day: 18,
                hour: 20,
                minute: 15,
                second: 35,
                millis: 606
            }
        );
        let end = local_end(&start, "1.00:00:01:0123").unwrap();
        assert!(matches!(
            end,
            Timestamp::Local {
                month: 11,
                day: 1,
                millis: 123,
                ..
            }
        ));
        assert_eq!(local_start("18.13.2022.20:15:35:6606"), None);
        assert_eq!(local_start("garbage"), None);
    }

    #[test]
    fn a_bad_level_is_named() {
        let e = parse_avf(&[52, 0, 0, 0, 0, 9], Path::new("a.avf")).unwrap_err();
        assert_eq!(e.byte, Some(5));
        assert!(e.message.contains("level 9"), "{e}");
    }
}
