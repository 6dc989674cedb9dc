//! A replay from data: the inverse of its serialisation (see the
//! `serialize` module), what Python's `sapper.review` reads when given the
//! dict `sapper.read_replay` returns.

use super::{
    layout_cell, EventKind, Replay, ReplayEvent, ReplayFormat, ReplayHeader, LAYOUT_CELLS,
    MAX_REPLAY_SIDE,
};
use crate::error::InputError;
use serde::{Deserialize, Deserializer};
use serde_path_to_error::Segment;
use std::ops::RangeInclusive;

impl Replay {
    /// Reads a replay from the data it serialises to (see the module doc of
    /// [`crate::formats::replay`], *As data*): the dict Python's
    /// `sapper.read_replay` returns (through pythonize), or its JSON. When
    /// absent or null, `format` is RAWVF, `version` empty and `mines` the
    /// board's count; the `header` (the replay gets the default), an event's
    /// `cell` and any other key are not read. Through pythonize a dict's
    /// keys must be `str`, and a `str` given for a list is the list of its
    /// characters.
    ///
    /// Anything amiss is an [`InputError`] naming the key at fault, as
    /// `replay["events"][0]["kind"]`, then the data format's message for a
    /// key missing or of the wrong type, or this reader's for a value: sides
    /// out of `1..=`[`MAX_REPLAY_SIDE`], a board not `rows` rows of `cols`
    /// cells of `*` (a mine) or `.` (a safe cell), `mines` not its count,
    /// `cell_px` not a `u16`, a pixel not an `i32`, a format not one of the
    /// [`ReplayFormat::name`]s or a kind not one of the [`EventKind::code`]s.
    pub fn from_data<'de, D: Deserializer<'de>>(data: D) -> Result<Replay, InputError> {
        let data: ReplayData = serde_path_to_error::deserialize(data).map_err(|e| {
            let mut at = String::from("replay");
            for segment in e.path() {
                at += &match segment {
                    Segment::Seq { index } => format!("[{index}]"),
                    Segment::Map { key } | Segment::Enum { variant: key } => format!("[{key:?}]"),
                    Segment::Unknown => "[?]".to_string(),
                };
            }
            InputError::new(format!("{at}: {}", e.inner()))
        })?;
        replay(data).map_err(|message| InputError::new(format!("replay{message}")))
    }
}

/// A replay's data as given: the keys read, with their types. Whole numbers
/// are `i64`, which pythonize reads from any Python object with `__index__`.
#[derive(Deserialize)]
#[serde(expecting = "a replay: a map of rows, cols, board, cell_px and events")]
struct ReplayData {
    format: Option<String>,
    version: Option<String>,
    rows: i64,
    cols: i64,
    mines: Option<i64>,
    board: Vec<String>,
    cell_px: i64,
    events: Vec<EventData>,
}

/// An event's data as given.
#[derive(Deserialize)]
#[serde(expecting = "an event: a map of time_ms, kind, x and y")]
struct EventData {
    time_ms: i64,
    kind: String,
    x: i64,
    y: i64,
}

// The checks of the values. Each message starts with the key at fault
// below `replay` (`["rows"] = 300: …`); `Replay::from_data` writes
// `replay` before it.

/// The replay of `data`, if its values pass the checks.
fn replay(data: ReplayData) -> Result<Replay, String> {
    let format = match data.format {
        Some(name) => format_named(&name)?,
        None => ReplayFormat::Rawvf,
    };
    let side = 1..=MAX_REPLAY_SIDE as i64;
    let rows = within("[\"rows\"]", data.rows, side.clone())? as usize;
    let cols = within("[\"cols\"]", data.cols, side)? as usize;
    let mines = board(&data.board, rows, cols)?;
    let n = mines.iter().filter(|&&m| m).count();
    if let Some(count) = data.mines.filter(|&count| count != n as i64) {
        return Err(format!(
            "[\"mines\"] = {count}, but the board has {n} mines"
        ));
    }
    let cell_px = within("[\"cell_px\"]", data.cell_px, 0..=u16::MAX.into())? as u16;
    let mut events = Vec::with_capacity(data.events.len());
    for (i, e) in data.events.into_iter().enumerate() {
        events.push(event(e).map_err(|message| format!("[\"events\"][{i}]{message}"))?);
    }
    Ok(Replay {
        format,
        version: data.version.unwrap_or_default(),
        rows,
        cols,
        mines,
        cell_px,
        events,
        header: ReplayHeader::default(),
    })
}

/// The format whose [`ReplayFormat::name`] is `name`.
fn format_named(name: &str) -> Result<ReplayFormat, String> {
    let known = ReplayFormat::ALL.into_iter().find(|f| f.name() == name);
    known.ok_or_else(|| {
        let names = ReplayFormat::ALL.map(|f| format!("{:?}", f.name()));
        let (last, rest) = names.split_last().expect("formats");
        let rest = rest.join(", ");
        format!("[\"format\"] = {name:?}: expected {rest} or {last}")
    })
}

/// `value`, the value of `key`, if it lies in `range`.
fn within(key: &str, value: i64, range: RangeInclusive<i64>) -> Result<i64, String> {
    if range.contains(&value) {
        return Ok(value);
    }
    let (lo, hi) = range.into_inner();
    Err(format!(
        "{key} = {value}: expected a whole number from {lo} to {hi}"
    ))
}

/// The mines of `board`, row-major, if it is `rows` rows of `cols` cells.
fn board(board: &[String], rows: usize, cols: usize) -> Result<Vec<bool>, String> {
    if board.len() != rows {
        return Err(format!(
            "[\"board\"] has {} rows, but rows says {rows}",
            board.len()
        ));
    }
    let mut mines = Vec::with_capacity(rows * cols);
    for (r, row) in board.iter().enumerate() {
        let n = row.chars().count();
        if n != cols {
            return Err(format!(
                "[\"board\"][{r}] has {n} cells, but cols says {cols}"
            ));
        }
        for (c, ch) in row.chars().enumerate() {
            let Some(mine) = layout_cell(ch) else {
                return Err(format!(
                    "[\"board\"][{r}]: column {c}: {ch:?} is not {LAYOUT_CELLS}"
                ));
            };
            mines.push(mine);
        }
    }
    Ok(mines)
}

/// The event of `e`, if its values pass the checks.
fn event(e: EventData) -> Result<ReplayEvent, String> {
    let Some(kind) = EventKind::from_code(&e.kind) else {
        let codes = EventKind::ALL.map(EventKind::code).join(", ");
        let code = &e.kind;
        return Err(format!(
            "[\"kind\"] = {code:?}: not an event kind (expected one of {codes})"
        ));
    };
    let pixel = i32::MIN.into()..=i32::MAX.into();
    Ok(ReplayEvent {
        time_ms: e.time_ms,
        kind,
        x: within("[\"x\"]", e.x, pixel.clone())? as i32,
        y: within("[\"y\"]", e.y, pixel)? as i32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::replay::read_replay;
    use serde_json::{json, Value};
    use std::path::PathBuf;

    fn data() -> PathBuf {
        PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/replays"
        ))
    }

    /// Every file of the replay data folders the reader reads, with its
    /// replay: all but the one the data's README says no reader can read.
    fn every_replay() -> Vec<(String, Replay)> {
        let mut read = Vec::new();
        let mut refused = Vec::new();
        for folder in [
            "rmv",
            "evf",
            "avf",
            "mvf",
            "rawvf",
            "converted",
            "generated",
        ] {
            let mut names: Vec<String> = std::fs::read_dir(data().join(folder))
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|n| !n.ends_with(".md"))
                .collect();
            names.sort();
            for name in names {
                let rel = format!("{folder}/{name}");
                match read_replay(&data().join(&rel)) {
                    Ok(r) => read.push((rel, r)),
                    Err(_) => refused.push(rel),
                }
            }
        }
        assert_eq!(refused, ["generated/wmp_int_v2_as_written.evf"]);
        read
    }

    fn assert_same_but_header(back: &Replay, r: &Replay, what: &str) {
        assert_eq!(back.format, r.format, "{what}");
        assert_eq!(back.version, r.version, "{what}");
        assert_eq!((back.rows, back.cols), (r.rows, r.cols), "{what}");
        assert_eq!(back.mines, r.mines, "{what}");
        assert_eq!(back.mine_count(), r.mine_count(), "{what}");
        assert_eq!(back.cell_px, r.cell_px, "{what}");
        assert_eq!(back.events, r.events, "{what}");
        assert_eq!(back.header, ReplayHeader::default(), "{what}");
    }

    #[test]
    fn every_real_replay_serialised_to_json_and_read_back_is_the_same_but_its_header() {
        let all = every_replay();
        assert!(all.len() >= 60, "{} replays read", all.len());
        for format in ReplayFormat::ALL {
            assert!(all.iter().any(|(_, r)| r.format == format), "{format:?}");
        }
        for (rel, r) in &all {
            let value = serde_json::to_value(r).unwrap();
            let back = Replay::from_data(&value).unwrap_or_else(|e| panic!("{rel}: {e}"));
            assert_same_but_header(&back, r, rel);
            let text = serde_json::to_string(r).unwrap();
            let back = Replay::from_data(&mut serde_json::Deserializer::from_str(&text))
                .unwrap_or_else(|e| panic!("{rel} as text: {e}"));
            assert_same_but_header(&back, r, rel);
            // The header back is the default; all else as it was.
            let mut same = r.clone();
            same.header = ReplayHeader::default();
            assert_eq!(back, same, "{rel}");
        }
    }

    /// `rmv/wmp_beg.rmv` (8×8, 10 mines) as the data `read_replay` gives.
    fn good() -> Value {
        let r = read_replay(&data().join("rmv/wmp_beg.rmv")).unwrap();
        assert_eq!((r.rows, r.cols, r.mine_count()), (8, 8, 10));
        serde_json::to_value(&r).unwrap()
    }

    /// The message reading `value` fails with.
    fn error(value: &Value) -> String {
        match Replay::from_data(value) {
            Ok(_) => panic!("read: {value}"),
            Err(e) => e.to_string(),
        }
    }

    /// `good()` with `key` set to `value` (or removed, for `None`).
    fn with(key: &str, value: Option<Value>) -> Value {
        let mut v = good();
        let map = v.as_object_mut().unwrap();
        match value {
            Some(value) => map.insert(key.into(), value),
            None => map.remove(key),
        };
        v
    }

    /// `good()` with its first event's `key` set to `value` (or removed).
    fn with_event(key: &str, value: Option<Value>) -> Value {
        let mut v = good();
        let event = v["events"][0].as_object_mut().unwrap();
        match value {
            Some(value) => event.insert(key.into(), value),
            None => event.remove(key),
        };
        v
    }

    #[test]
    fn the_bad_dicts_of_the_python_tests_are_refused_naming_the_key() {
        let g = good();
        let mut rows = g["board"].as_array().unwrap().clone();
        rows.pop();
        assert_eq!(
            error(&with("board", Some(rows.into()))),
            "replay[\"board\"] has 7 rows, but rows says 8"
        );
        let kinds = "mv, lc, lr, rc, rr, mc, mr, pf, cc, l, r, m, sc, replay, win, fail, error";
        let mut zz = g["events"][0].clone();
        zz["kind"] = json!("zz");
        assert_eq!(
            error(&with("events", Some(json!([zz])))),
            format!(
                "replay[\"events\"][0][\"kind\"] = \"zz\": not an event kind (expected one of \
                 {kinds})"
            )
        );
        assert_eq!(
            error(&with("mines", Some(json!(11)))),
            "replay[\"mines\"] = 11, but the board has 10 mines"
        );
        assert_eq!(
            error(&with("cell_px", None)),
            "replay: missing field `cell_px`"
        );
        assert_eq!(
            error(&with("rows", Some(json!(300)))),
            "replay[\"rows\"] = 300: expected a whole number from 1 to 256"
        );
        let empty = Replay::from_data(with("events", Some(json!([])))).unwrap();
        assert!(empty.events.is_empty());
    }

    #[test]
    fn each_missing_key_is_named() {
        for key in ["rows", "cols", "board", "cell_px", "events"] {
            assert_eq!(
                error(&with(key, None)),
                format!("replay: missing field `{key}`")
            );
        }
        for key in ["time_ms", "kind", "x", "y"] {
            assert_eq!(
                error(&with_event(key, None)),
                format!("replay[\"events\"][0]: missing field `{key}`")
            );
        }
    }

    #[test]
    fn numbers_out_of_range_or_of_another_type_are_named_with_the_range() {
        let cases = [
            (
                "rows",
                json!(0),
                "replay[\"rows\"] = 0: expected a whole number from 1 to 256",
            ),
            (
                "cols",
                json!(257),
                "replay[\"cols\"] = 257: expected a whole number from 1 to 256",
            ),
            (
                "cell_px",
                json!(65536),
                "replay[\"cell_px\"] = 65536: expected a whole number from 0 to 65535",
            ),
            (
                "cell_px",
                json!(-1),
                "replay[\"cell_px\"] = -1: expected a whole number from 0 to 65535",
            ),
            (
                "mines",
                json!(-1),
                "replay[\"mines\"] = -1, but the board has 10 mines",
            ),
            (
                "rows",
                json!(u64::MAX),
                "replay[\"rows\"]: invalid value: integer `18446744073709551615`, expected i64",
            ),
            (
                "rows",
                json!(8.0),
                "replay[\"rows\"]: invalid type: floating point `8.0`, expected i64",
            ),
            (
                "rows",
                json!("8"),
                "replay[\"rows\"]: invalid type: string \"8\", expected i64",
            ),
        ];
        for (key, value, message) in cases {
            assert_eq!(error(&with(key, Some(value))), message);
        }
        assert_eq!(
            error(&with_event("x", Some(json!(1i64 << 31)))),
            "replay[\"events\"][0][\"x\"] = 2147483648: expected a whole number from -2147483648 \
             to 2147483647"
        );
        assert_eq!(
            error(&with_event("time_ms", Some(json!(u64::MAX)))),
            "replay[\"events\"][0][\"time_ms\"]: invalid value: integer `18446744073709551615`, \
             expected i64"
        );
        for (key, edge) in [("x", i32::MIN), ("y", i32::MAX)] {
            let r = Replay::from_data(with_event(key, Some(json!(edge)))).unwrap();
            assert_eq!(
                if key == "x" {
                    r.events[0].x
                } else {
                    r.events[0].y
                },
                edge
            );
        }
        let r = Replay::from_data(with_event("time_ms", Some(json!(i64::MIN)))).unwrap();
        assert_eq!(r.events[0].time_ms, i64::MIN);
    }

    #[test]
    fn a_board_that_is_not_rows_of_mines_and_safe_cells_is_named_with_the_row() {
        let g = good();
        let mut rows = g["board"].as_array().unwrap().clone();
        rows[2] = json!("..*.x...");
        assert_eq!(
            error(&with("board", Some(rows.into()))),
            "replay[\"board\"][2]: column 4: 'x' is not `*` (a mine) or `.` (a safe cell)"
        );
        let mut rows = g["board"].as_array().unwrap().clone();
        rows[3] = json!(".......");
        assert_eq!(
            error(&with("board", Some(rows.into()))),
            "replay[\"board\"][3] has 7 cells, but cols says 8"
        );
        assert_eq!(
            error(&with("board", Some(json!([])))),
            "replay[\"board\"] has 0 rows, but rows says 8"
        );
        assert_eq!(
            error(&with("board", Some(json!("........")))),
            "replay[\"board\"]: invalid type: string \"........\", expected a sequence"
        );
        let mut rows = g["board"].as_array().unwrap().clone();
        rows[1] = json!(8);
        assert_eq!(
            error(&with("board", Some(rows.into()))),
            "replay[\"board\"][1]: invalid type: integer `8`, expected a string"
        );
    }

    #[test]
    fn a_format_version_or_event_of_the_wrong_kind_is_named() {
        assert_eq!(
            error(&with("format", Some(json!("wav")))),
            "replay[\"format\"] = \"wav\": expected \"rmv\", \"evf\", \"avf\", \"mvf\" or \
             \"rawvf\""
        );
        assert_eq!(
            error(&with("version", Some(json!(2)))),
            "replay[\"version\"]: invalid type: integer `2`, expected a string"
        );
        assert_eq!(
            error(&with("events", Some(json!({"time_ms": 0})))),
            "replay[\"events\"]: invalid type: map, expected a sequence"
        );
        let mut v = good();
        v["events"][1] = json!(7);
        assert_eq!(
            error(&v),
            "replay[\"events\"][1]: invalid type: integer `7`, expected an event: a map of \
             time_ms, kind, x and y"
        );
        // A derived struct also reads a list of its fields' values, in order.
        v["events"][1] = json!([0, "lc"]);
        assert_eq!(
            error(&v),
            "replay[\"events\"][1]: invalid length 2, expected an event: a map of time_ms, kind, \
             x and y"
        );
        v["events"][1] = json!([0, "lc", 8, 9]);
        let r = Replay::from_data(&v).unwrap();
        let kind = EventKind::LeftPress;
        let lc = ReplayEvent {
            time_ms: 0,
            kind,
            x: 8,
            y: 9,
        };
        assert_eq!(r.events[1], lc);
        assert_eq!(
            error(&with_event("kind", Some(json!(null)))),
            "replay[\"events\"][0][\"kind\"]: invalid type: null, expected a string"
        );
        assert_eq!(
            error(&json!("a replay")),
            "replay: invalid type: string \"a replay\", expected a replay: a map of rows, cols, \
             board, cell_px and events"
        );
    }

    #[test]
    fn optional_unknown_and_derived_keys_are_defaulted_or_ignored() {
        let r = read_replay(&data().join("rmv/wmp_beg.rmv")).unwrap();
        let mut v = good();
        let map = v.as_object_mut().unwrap();
        for key in ["format", "version", "mines"] {
            map.remove(key);
        }
        let absent = Replay::from_data(&v).unwrap();
        let map = v.as_object_mut().unwrap();
        for key in ["format", "version", "mines"] {
            map.insert(key.into(), json!(null));
        }
        map.insert("header".into(), json!("anything"));
        map.insert("outcome".into(), json!({"won": [1, 2]}));
        for e in v["events"].as_array_mut().unwrap() {
            e["cell"] = json!("not a cell");
            e["note"] = json!(null);
        }
        let back = Replay::from_data(&v).unwrap();
        assert_eq!(back, absent);
        assert_eq!(back.format, ReplayFormat::Rawvf);
        assert_eq!(back.version, "");
        assert_eq!(
            (back.rows, back.cols, &back.mines),
            (r.rows, r.cols, &r.mines)
        );
        assert_eq!((back.cell_px, &back.events), (r.cell_px, &r.events));
    }

    #[test]
    fn a_key_given_twice_in_json_text_is_named() {
        let text =
            r#"{"rows": 1, "cols": 1, "rows": 1, "board": ["."], "cell_px": 16, "events": []}"#;
        let e = Replay::from_data(&mut serde_json::Deserializer::from_str(text)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "replay: duplicate field `rows` at line 1 column 29"
        );
        let text = r#"{"rows": 1, "cols": 1, "board": ["*"], "cell_px": 16, "events": []}"#;
        let r = Replay::from_data(&mut serde_json::Deserializer::from_str(text)).unwrap();
        assert_eq!((r.rows, r.cols, r.mines), (1, 1, vec![true]));
    }
}
