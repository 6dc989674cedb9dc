//! Viennasweeper's `.rmv`, versions 1 and 2. All integers big-endian
//! unless said.
//!
//! | part | what |
//! |---|---|
//! | magic | `*rmv`, then the version (u16: 1 or 2) |
//! | v2 | clone id (u8: 1 Viennasweeper, 0 a clone named in the extension properties), the clone's major version (u8) |
//! | sizes | file size (u32); v1: result string size (u16); version info, player info, board, pre-flags, properties sizes (u16 each); v2: extension properties size (u16); events size (u32); checksum size (u16) |
//! | v1 result string | `#`-separated `KEY:value` pairs (`LEVEL`, `SCORE`, `NAME`, `NICK`, `3BV`, `NF`, `TIMESTAMP`) |
//! | version info | `Vienna Minesweeper - … Release X Copyright …` |
//! | player | a count (u16), then that many fields, each a length (u8) and bytes: name, nickname, country, token |
//! | board | board generation time (u32, Unix seconds), columns (u8), rows (u8), mines (u16), then (column, row) byte pairs |
//! | pre-flags | if their size is not 0: a count (u16), then (column, row) pairs |
//! | properties | question marks, no flags, mode (0 classic, 1 UPK, 2 cheat, 3 density), level (0–3 beginner … custom); v1: text is UTF-8 (u8, when present); v2: 3BV (u16 little-endian), cell size in pixels (u8) |
//! | v2 extension properties | a count (u16), then key length (u8), key, value length (u8), value |
//! | events | a code (u8) and its data, up to an end code |
//! | after the end | the game's time (u24, ms), the checksum |
//!
//! Event codes: 1–7 a mouse event (`mv lc lr rc rr mc mr`): time (u24,
//! ms), one byte not read, x and y (u16; in version 1 from the window's
//! corner, so the board starts at (12, 56)); 28 (v2) a short mouse move:
//! time step (u8, ms), then x and y steps packed as two 4-bit two's-
//! complement numbers (x high); 9–14 and 18–27 board changes the program
//! recorded (column, row bytes; not read: the game model recomputes
//! them); 0 (v1) a clock change (4 bytes, skipped); 15 lost, 16 won, 17
//! ended otherwise.

use super::bytes::{legacy_text, utf8_text, Bytes, CellList, Order};
use super::{
    check_shape, non_empty, EventKind, GameMode, LevelName, Replay, ReplayEvent, ReplayFormat,
    ReplayHeader, Timestamp,
};
use crate::formats::FormatError;
use std::path::Path;

/// Reads an `.rmv` (see the module doc). `path` only names it in errors.
pub fn parse_rmv(bytes: &[u8], path: &Path) -> Result<Replay, FormatError> {
    let mut b = Bytes::new(bytes, path);
    if b.take(4, "the magic `*rmv`")? != b"*rmv" {
        return Err(b.error_at(0, "not an .rmv file: it does not start with `*rmv`"));
    }
    let version_at = b.offset();
    let version = b.u16("the format version")?;
    if !(1..=2).contains(&version) {
        return Err(b.error_at(
            version_at,
            format!("RMV format version {version}: this reader knows versions 1 and 2"),
        ));
    }
    let v2 = version == 2;
    let (clone_id, _clone_major) = if v2 {
        (b.u8("the clone id")?, b.u8("the clone's version")?)
    } else {
        (1, 0)
    };
    b.skip(4, "the file size")?;
    let result_size = if v2 {
        0
    } else {
        b.u16("the result string size")?
    };
    let version_info_size = b.u16("the version info size")?;
    b.skip(4, "the player info and board sizes")?;
    let preflags_size = b.u16("the pre-flags size")?;
    let properties_at = b.offset();
    let properties_size = b.u16("the properties size")?;
    if v2 {
        b.skip(2, "the extension properties size")?;
    }
    b.skip(6, "the events and checksum sizes")?;

    let result = b.take(result_size as usize, "the result string")?;
    let version_info = b.take(version_info_size as usize, "the version info")?;

    let fields = b.u16("the number of player fields")?;
    let mut player_fields: Vec<&[u8]> = Vec::new();
    for k in 0..fields {
        let len = b.u8("a player field's length")?;
        let field = b.take(len as usize, "a player field")?;
        if k < 4 {
            player_fields.push(field);
        }
    }

    let board_time = b.u32("the board's time")?;
    let shape_at = b.offset();
    let cols = b.u8("the board's width")? as usize;
    let rows = b.u8("the board's height")? as usize;
    check_shape(path, shape_at, rows, cols)?;
    let mine_count = b.mine_count(rows, cols)?;
    let mines = b.mines(CellList::mines(Order::ColRow, 0), mine_count, (rows, cols))?;

    let mut preflags = Vec::new();
    if preflags_size > 0 {
        let count = b.u16("the number of pre-flags")? as usize;
        b.cells(PREFLAGS, count, (rows, cols), |row, col| {
            preflags.push((row, col))
        })?;
    }

    let least = if v2 { 7 } else { 4 };
    if (properties_size as usize) < least {
        return Err(b.error_at(
            properties_at,
            format!(
                "the properties are {properties_size} bytes: version {version} has at least {least}"
            ),
        ));
    }
    let properties = b.take(properties_size as usize, "the properties")?;
    let (question_marks, no_flags, mode, level) =
        (properties[0], properties[1], properties[2], properties[3]);
    let (utf8, recorded_bbbv, cell_px) = if v2 {
        let bbbv = u16::from_le_bytes([properties[4], properties[5]]);
        (true, Some(u32::from(bbbv)), properties[6])
    } else {
        (properties.get(4) == Some(&1), None, 16)
    };
    if cell_px == 0 {
        return Err(b.error_at(
            b.offset() - properties.len() + 6,
            "a cell size of 0 pixels: expected at least 1",
        ));
    }

    let mut clone_name = None;
    if v2 {
        let count = b.u16("the number of extension properties")?;
        for _ in 0..count {
            let key_len = b.u8("an extension property's key length")?;
            let key = b.take(key_len as usize, "an extension property's key")?;
            let value_len = b.u8("an extension property's value length")?;
            let value = b.take(value_len as usize, "an extension property's value")?;
            if key == b"clone_name" {
                clone_name = Some(utf8_text(value));
            }
        }
    }

    let text = |bytes: &[u8]| {
        if utf8 {
            utf8_text(bytes)
        } else {
            legacy_text(bytes)
        }
    };
    let field = |k: usize| player_fields.get(k).map(|f| text(f)).and_then(non_empty);

    // Room for one event per 4 bytes left (events take 3 or 9); more grow.
    let mut events = Vec::with_capacity(preflags.len() + b.remaining() / 4 + 1);
    let px = i32::from(cell_px);
    for &(row, col) in &preflags {
        events.push(ReplayEvent {
            time_ms: 0,
            kind: EventKind::PreFlag,
            x: col as i32 * px,
            y: row as i32 * px,
        });
    }
    let (dx, dy) = if v2 { (0, 0) } else { (12, 56) };
    // The last full mouse event's time and position, which short moves
    // step from; `None` before the first.
    let mut last: Option<(i64, i32, i32)> = None;
    let outcome = loop {
        let at = b.offset();
        let code = b.u8("an event code (the file ends before the game's end event)")?;
        match code {
            0 if !v2 => b.skip(4, "a clock change event")?,
            1..=7 => {
                let time = i64::from(b.u24("a mouse event's time")?);
                b.skip(1, "a mouse event")?;
                let x = i32::from(b.u16("a mouse event's x")?) - dx;
                let y = i32::from(b.u16("a mouse event's y")?) - dy;
                if last.is_none() {
                    // The press of the first click is not recorded.
                    events.push(ReplayEvent {
                        time_ms: time,
                        kind: EventKind::LeftPress,
                        x,
                        y,
                    });
                }
                last = Some((time, x, y));
                events.push(ReplayEvent {
                    time_ms: time,
                    kind: MOUSE[code as usize - 1],
                    x,
                    y,
                });
            }
            28 if v2 => {
                let Some((time, x, y)) = last else {
                    return Err(b.error_at(
                        at,
                        "a short mouse move (code 28) before any full mouse event",
                    ));
                };
                let step = i64::from(b.u8("a short move's time step")?);
                let packed = b.u8("a short move's position step")?;
                let (x, y) = (x + nibble(packed >> 4), y + nibble(packed & 0xf));
                last = Some((time + step, x, y));
                events.push(ReplayEvent {
                    time_ms: time + step,
                    kind: EventKind::Move,
                    x,
                    y,
                });
            }
            9..=14 | 18..=27 => b.skip(2, "a board event")?,
            15..=17 => break code,
            _ => {
                return Err(b.error_at(
                    at,
                    format!("unknown event code {code} in an RMV version {version} file"),
                ))
            }
        }
    };
    // The end event is followed by the game's time; a file cut right after
    // the end event still has everything else.
    let recorded_time_ms = (b.remaining() >= 3)
        .then(|| b.u24("the game's time"))
        .transpose()?
        .map(u64::from);

    let version_text = legacy_text(version_info);
    let result = ResultString::parse(&text(result));
    let header = ReplayHeader {
        player: field(0).or(result.name),
        nickname: field(1).or(result.nick),
        race: None,
        country: field(2),
        program: Some(match (version, clone_id) {
            (1, _) | (_, 1) => "Viennasweeper".to_string(),
            (_, 0) => clone_name.unwrap_or_else(|| "a clone (unnamed)".to_string()),
            (_, id) => format!("a clone (id {id})"),
        }),
        program_version: program_version(&version_text),
        started: Some(Timestamp::UnixMicros(u64::from(board_time) * 1_000_000)),
        ended: None,
        level: Some(match level {
            0 => LevelName::Beginner,
            1 => LevelName::Intermediate,
            2 => LevelName::Expert,
            _ => LevelName::Custom,
        }),
        mode: Some(match mode {
            0 => GameMode::Standard,
            1 => GameMode::Upk,
            2 => GameMode::Cheat,
            3 => GameMode::Density,
            other => GameMode::Other(u16::from(other)),
        }),
        no_flags: Some(no_flags == 1),
        question_marks: Some(question_marks == 1),
        recorded_time_ms,
        recorded_bbbv: recorded_bbbv.or(result.bbbv),
        completed: Some(outcome == 16),
        official: None,
        fair: None,
    };
    Ok(Replay {
        format: ReplayFormat::Rmv,
        version: version.to_string(),
        rows,
        cols,
        mines,
        cell_px: u16::from(cell_px),
        events,
        header,
    })
}

/// The pre-flags: (column, row) pairs from 0.
const PREFLAGS: CellList = CellList {
    noun: "pre-flag",
    order: Order::ColRow,
    base: 0,
};

/// Mouse event codes 1–7.
const MOUSE: [EventKind; 7] = [
    EventKind::Move,
    EventKind::LeftPress,
    EventKind::LeftRelease,
    EventKind::RightPress,
    EventKind::RightRelease,
    EventKind::MiddlePress,
    EventKind::MiddleRelease,
];

/// A 4-bit two's-complement number: −8 to 7.
fn nibble(n: u8) -> i32 {
    i32::from(n & 7) - i32::from(n & 8)
}

/// The fields of a version 1 result string this reader uses.
#[derive(Default)]
struct ResultString {
    name: Option<String>,
    nick: Option<String>,
    bbbv: Option<u32>,
}

impl ResultString {
    fn parse(text: &str) -> ResultString {
        let mut out = ResultString::default();
        for pair in text.split('#') {
            let Some((key, value)) = pair.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match key.trim() {
                "NAME" => out.name = non_empty(value.to_string()),
                "NICK" => out.nick = non_empty(value.to_string()),
                // A lost game records 3BV 0.
                "3BV" => out.bbbv = value.parse().ok().filter(|&v| v > 0),
                _ => {}
            }
        }
        out
    }
}

/// The edition and release of a version info string such as `Vienna
/// Minesweeper - Home Edition - Release 3.0.2H Copyright (C) 2008-2013 …`:
/// what lies between the program's name and the copyright.
fn program_version(info: &str) -> Option<String> {
    let rest = info
        .strip_prefix("Vienna Minesweeper - ")
        .unwrap_or(info)
        .trim();
    let end = ["Copyright", "(c)", "(C)"]
        .iter()
        .filter_map(|m| rest.find(m))
        .min()
        .unwrap_or(rest.len());
    non_empty(rest[..end].trim().trim_end_matches('.').trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_moves_step_by_signed_nibbles() {
        assert_eq!(nibble(0x0), 0);
        assert_eq!(nibble(0x7), 7);
        assert_eq!(nibble(0x8), -8);
        assert_eq!(nibble(0xf), -1);
    }

    #[test]
    fn the_release_is_cut_from_the_version_info() {
        assert_eq!(
            program_version(
                "Vienna Minesweeper - Home Edition - Release 3.0.2H Copyright (C) 2008-2013 X."
            )
            .as_deref(),
            Some("Home Edition - Release 3.0.2H")
        );
        assert_eq!(
            program_version("Vienna Minesweeper - Release 5.0.0a2 Copyright (C) 2008-2024 Y.")
                .as_deref(),
            Some("Release 5.0.0a2")
        );
        assert_eq!(program_version("").as_deref(), None);
    }

    #[test]
    fn a_wrong_magic_or_version_is_named() {
        let p = Path::new("g.rmv");
        let e = parse_rmv(b"*rmx\0\x01", p).unwrap_err();
        assert_eq!(e.byte, Some(0));
        let e = parse_rmv(b"*rmv\0\x03", p).unwrap_err();
        assert_eq!(e.byte, Some(4));
        assert!(e.message.contains("version 3"), "{e}");
        let e = parse_rmv(b"*rm", p).unwrap_err();
        assert!(e.message.contains("ends inside the magic"), "{e}");
    }
}
