//! A replay from data: the inverse of its serialisation (see the
//! `serialize` module), what Python's `sapper.review` reads when given the
//! dict `sapper.read_replay` returns. [`Replay::from_data`] tells what is
//! read and checked.
//!
//! Numbers are asked of the data as `i64` and text as `str`, the way
//! derived types ask, so a format that converts may (pythonize takes any
//! Python object with `__index__` as a whole number, as Python's own
//! `int` arguments do); lists and maps are read as whatever the data is
//! (`deserialize_any`), so a string given for a list is refused as a
//! string, not read as a list of characters.
//!
//! # Messages
//!
//! Each message this reader makes is the text that follows the key at
//! fault: ` = 300: expected a whole number from 1 to 256` after
//! `replay["rows"]`, `["board"] is 7×8, but rows and cols say 8×8` after
//! `replay` (a check of two keys, made when the map is read), or a sentence
//! (`no "rows"`). [`Replay::from_data`] finds that key with
//! `serde_path_to_error` and writes it before the text, as
//! `replay["events"][0]["kind"]`; a plain `Deserialize` caller gets the text
//! alone.

use super::{EventKind, Replay, ReplayEvent, ReplayFormat, ReplayHeader, MAX_REPLAY_SIDE};
use crate::error::InputError;
use serde::de::{
    self, DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::Deserialize;
use serde_path_to_error::Segment;
use std::fmt::{self, Write as _};

impl Replay {
    /// Reads a replay from `data` in the form it serialises to (see the
    /// module doc of [`crate::formats::replay`], *As data*): the dict
    /// Python's `sapper.read_replay` returns (through pythonize), or its
    /// JSON.
    ///
    /// It reads `rows`, `cols`, `board` (a row of text per board row, `*` a
    /// mine and `.` a safe cell), `cell_px` and `events` (`time_ms`, `kind`
    /// by [`EventKind::from_code`], `x`, `y`), and the optional `format` (by
    /// [`ReplayFormat::name`]; RAWVF when absent), `version` (empty when
    /// absent) and `mines`, which must count the board's mines. An event's
    /// `cell` (derived), the `header` (the replay gets
    /// [`ReplayHeader::default`]) and any other key are not read. Sides are
    /// `1..=`[`MAX_REPLAY_SIDE`], the board has exactly `rows` rows of `cols`
    /// cells, `cell_px` fits a `u16`, times an `i64` and pixels an `i32`.
    ///
    /// Anything amiss is an [`InputError`] naming the key at fault from
    /// `replay`: `replay: no "rows"`, `replay["events"][0]["kind"] = "zz":
    /// not an event kind (expected one of mv, lc, …)`, `replay["mines"] = 5,
    /// but the board has 4 mines`, `replay["board"][2]: column 4: 'x' is not
    /// `*` (a mine) or `.` (a safe cell)`.
    pub fn from_data<'de, D: Deserializer<'de>>(data: D) -> Result<Replay, InputError> {
        serde_path_to_error::deserialize(data).map_err(|e| {
            let mut at = String::from("replay");
            for segment in e.path() {
                // Writing to a String cannot fail.
                let _ = match segment {
                    Segment::Seq { index } => write!(at, "[{index}]"),
                    Segment::Map { key } | Segment::Enum { variant: key } => {
                        write!(at, "[{key:?}]")
                    }
                    Segment::Unknown => write!(at, "[?]"),
                };
            }
            InputError::new(after_key(&at, &e.inner().to_string()))
        })
    }
}

/// `message` written after the key `at`: as it is when it continues the
/// key (starts with a space or `[`, see the module doc), after `": "` when
/// it is a sentence of its own (this reader's, or the data format's).
fn after_key(at: &str, message: &str) -> String {
    if message.starts_with([' ', '[']) {
        format!("{at}{message}")
    } else {
        format!("{at}: {message}")
    }
}

/// The keys of a replay, in the order of its serialisation.
const REPLAY_KEYS: [&str; 9] = [
    "format", "version", "rows", "cols", "mines", "board", "cell_px", "header", "events",
];

/// The keys of an event.
const EVENT_KEYS: [&str; 5] = ["time_ms", "kind", "x", "y", "cell"];

/// The inverse of its `Serialize`, read and checked as
/// [`Replay::from_data`] says; its messages are the text that follows the
/// key at fault, which only [`Replay::from_data`] names.
impl<'de> Deserialize<'de> for Replay {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Replay, D::Error> {
        d.deserialize_any(ReplayVisitor)
    }
}

struct ReplayVisitor;

impl<'de> Visitor<'de> for ReplayVisitor {
    type Value = Replay;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a replay: a map of rows, cols, board, cell_px and events")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Replay, A::Error> {
        let side = MAX_REPLAY_SIDE as i64;
        let mut format = None;
        let mut version = None;
        let mut rows = None;
        let mut cols = None;
        let mut mines = None;
        let mut board: Option<Board> = None;
        let mut cell_px = None;
        let mut events: Option<Events> = None;
        let mut seen = [false; REPLAY_KEYS.len()];
        while let Some(key) = map.next_key_seed(Key(&REPLAY_KEYS))? {
            let Some(k) = key else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            if std::mem::replace(&mut seen[k], true) {
                return Err(given_twice(REPLAY_KEYS[k]));
            }
            match REPLAY_KEYS[k] {
                "format" => format = Some(map.next_value::<ReplayFormat>()?),
                "version" => version = Some(map.next_value::<String>()?),
                "rows" => rows = Some(map.next_value_seed(Whole::new(1, side))?),
                "cols" => cols = Some(map.next_value_seed(Whole::new(1, side))?),
                "mines" => mines = Some(map.next_value_seed(Whole::new(0, side * side))?),
                "board" => board = Some(map.next_value()?),
                "cell_px" => {
                    cell_px = Some(map.next_value_seed(Whole::new(0, u16::MAX.into()))?);
                }
                "events" => events = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let rows = rows.ok_or_else(|| missing("rows"))? as usize;
        let cols = cols.ok_or_else(|| missing("cols"))? as usize;
        let board = board.ok_or_else(|| missing("board"))?;
        let cell_px = cell_px.ok_or_else(|| missing("cell_px"))? as u16;
        let events = events.ok_or_else(|| missing("events"))?;
        if (board.rows, board.cols) != (rows, cols) {
            return Err(A::Error::custom(format!(
                "[\"board\"] is {}×{}, but rows and cols say {rows}×{cols}",
                board.rows, board.cols
            )));
        }
        let on_board = board.mines.iter().filter(|&&m| m).count();
        if let Some(count) = mines {
            if count != on_board as i64 {
                return Err(A::Error::custom(format!(
                    "[\"mines\"] = {count}, but the board has {on_board} mines"
                )));
            }
        }
        Ok(Replay {
            format: format.unwrap_or(ReplayFormat::Rawvf),
            version: version.unwrap_or_default(),
            rows,
            cols,
            mines: board.mines,
            cell_px,
            events: events.0,
            header: ReplayHeader::default(),
        })
    }
}

/// The error of a map without `key`.
fn missing<E: de::Error>(key: &str) -> E {
    E::custom(format!("no {key:?}"))
}

/// The error of a map with `key` twice (JSON text can have it).
fn given_twice<E: de::Error>(key: &str) -> E {
    E::custom(format!("[{key:?}] is given twice"))
}

/// A map key: the index of one of the names, or `None` for any other key
/// (of any type: a Python dict may have keys that are not strings).
struct Key<'a>(&'a [&'static str]);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_any(self)
    }
}

/// Accepts a key of any type: those that are not strings are other keys.
macro_rules! other_key {
    ($($visit:ident: $t:ty),*) => {
        $(fn $visit<E: de::Error>(self, _: $t) -> Result<Option<usize>, E> {
            Ok(None)
        })*
    };
}

impl<'de> Visitor<'de> for Key<'_> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|&k| k == v))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|&k| k.as_bytes() == v))
    }

    other_key!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_i128: i128,
        visit_u128: u128, visit_f64: f64);

    fn visit_unit<E: de::Error>(self) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<usize>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

/// A whole number in `lo..=hi`.
#[derive(Clone, Copy)]
struct Whole {
    lo: i64,
    hi: i64,
}

impl Whole {
    fn new(lo: i64, hi: i64) -> Whole {
        Whole { lo, hi }
    }

    fn out_of_range<E: de::Error>(&self, v: impl fmt::Display) -> E {
        E::custom(format!(" = {v}: expected {self}"))
    }
}

impl fmt::Display for Whole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a whole number from {} to {}", self.lo, self.hi)
    }
}

impl<'de> DeserializeSeed<'de> for Whole {
    type Value = i64;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<i64, D::Error> {
        d.deserialize_i64(self)
    }
}

impl<'de> Visitor<'de> for Whole {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        if (self.lo..=self.hi).contains(&v) {
            Ok(v)
        } else {
            Err(self.out_of_range(v))
        }
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        match i64::try_from(v) {
            Ok(v) => self.visit_i64(v),
            Err(_) => Err(self.out_of_range(v)),
        }
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<i64, E> {
        match i64::try_from(v) {
            Ok(v) => self.visit_i64(v),
            Err(_) => Err(self.out_of_range(v)),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<i64, E> {
        match i64::try_from(v) {
            Ok(v) => self.visit_i64(v),
            Err(_) => Err(self.out_of_range(v)),
        }
    }
}

/// Its [`ReplayFormat::name`], the inverse of its `Serialize`.
impl<'de> Deserialize<'de> for ReplayFormat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ReplayFormat, D::Error> {
        d.deserialize_str(FormatVisitor)
    }
}

struct FormatVisitor;

impl<'de> Visitor<'de> for FormatVisitor {
    type Value = ReplayFormat;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a replay format's name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<ReplayFormat, E> {
        ReplayFormat::ALL
            .into_iter()
            .find(|k| k.name() == v)
            .ok_or_else(|| {
                let names = ReplayFormat::ALL.map(|k| format!("{:?}", k.name()));
                let (last, rest) = names.split_last().expect("formats");
                E::custom(format!(" = {v:?}: expected {} or {last}", rest.join(", ")))
            })
    }
}

/// Its [`EventKind::code`], the inverse of its `Serialize`.
impl<'de> Deserialize<'de> for EventKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<EventKind, D::Error> {
        d.deserialize_str(KindVisitor)
    }
}

struct KindVisitor;

impl<'de> Visitor<'de> for KindVisitor {
    type Value = EventKind;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an event kind's code")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<EventKind, E> {
        EventKind::from_code(v).ok_or_else(|| {
            E::custom(format!(
                " = {v:?}: not an event kind (expected one of {})",
                EventKind::ALL.map(EventKind::code).join(", ")
            ))
        })
    }
}

/// A board: rows of text of the same length, `*` a mine and `.` a safe
/// cell, read row-major.
struct Board {
    rows: usize,
    cols: usize,
    mines: Vec<bool>,
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Board, D::Error> {
        d.deserialize_any(BoardVisitor)
    }
}

struct BoardVisitor;

impl<'de> Visitor<'de> for BoardVisitor {
    type Value = Board;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of row strings")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Board, A::Error> {
        let mut mines = Vec::new();
        let mut rows = 0;
        let mut cols = None;
        while let Some(len) = seq.next_element_seed(BoardRow(&mut mines))? {
            match cols {
                None => cols = Some(len),
                Some(w) if w != len => {
                    return Err(A::Error::custom(format!(
                        "row {rows} has {len} cells, but row 0 has {w}"
                    )))
                }
                Some(_) => {}
            }
            rows += 1;
        }
        Ok(Board {
            rows,
            cols: cols.unwrap_or(0),
            mines,
        })
    }
}

/// One row of a board, appended to the mines; its length is the value.
struct BoardRow<'a>(&'a mut Vec<bool>);

impl<'de> DeserializeSeed<'de> for BoardRow<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for BoardRow<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a row string of `*` (a mine) and `.` (a safe cell)")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        for (c, ch) in v.chars().enumerate() {
            self.0.push(match ch {
                '*' => true,
                '.' => false,
                _ => {
                    return Err(E::custom(format!(
                        "column {c}: {ch:?} is not `*` (a mine) or `.` (a safe cell)"
                    )))
                }
            });
        }
        Ok(v.chars().count())
    }
}

/// The events, in order.
struct Events(Vec<ReplayEvent>);

impl<'de> Deserialize<'de> for Events {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Events, D::Error> {
        d.deserialize_any(EventsVisitor)
    }
}

struct EventsVisitor;

impl<'de> Visitor<'de> for EventsVisitor {
    type Value = Events;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of events")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Events, A::Error> {
        let mut events = Vec::new();
        while let Some(Event(e)) = seq.next_element()? {
            events.push(e);
        }
        Ok(Events(events))
    }
}

/// One event: `{"time_ms", "kind", "x", "y"}` (and the derived `cell`).
struct Event(ReplayEvent);

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Event, D::Error> {
        d.deserialize_any(EventVisitor)
    }
}

struct EventVisitor;

impl<'de> Visitor<'de> for EventVisitor {
    type Value = Event;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an event: a map of time_ms, kind, x and y")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Event, A::Error> {
        let pixel = Whole::new(i32::MIN.into(), i32::MAX.into());
        let mut time_ms = None;
        let mut kind = None;
        let mut x = None;
        let mut y = None;
        let mut seen = [false; EVENT_KEYS.len()];
        while let Some(key) = map.next_key_seed(Key(&EVENT_KEYS))? {
            let Some(k) = key else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            if std::mem::replace(&mut seen[k], true) {
                return Err(given_twice(EVENT_KEYS[k]));
            }
            match EVENT_KEYS[k] {
                "time_ms" => time_ms = Some(map.next_value_seed(Whole::new(i64::MIN, i64::MAX))?),
                "kind" => kind = Some(map.next_value::<EventKind>()?),
                "x" => x = Some(map.next_value_seed(pixel)?),
                "y" => y = Some(map.next_value_seed(pixel)?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Event(ReplayEvent {
            time_ms: time_ms.ok_or_else(|| missing("time_ms"))?,
            kind: kind.ok_or_else(|| missing("kind"))?,
            x: x.ok_or_else(|| missing("x"))? as i32,
            y: y.ok_or_else(|| missing("y"))? as i32,
        }))
    }
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
            "replay[\"board\"] is 7×8, but rows and cols say 8×8"
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
        assert_eq!(error(&with("cell_px", None)), "replay: no \"cell_px\"");
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
            assert_eq!(error(&with(key, None)), format!("replay: no {key:?}"));
        }
        for key in ["time_ms", "kind", "x", "y"] {
            assert_eq!(
                error(&with_event(key, None)),
                format!("replay[\"events\"][0]: no {key:?}")
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
                "mines",
                json!(-1),
                "replay[\"mines\"] = -1: expected a whole number from 0 to 65536",
            ),
            (
                "rows",
                json!(u64::MAX),
                "replay[\"rows\"] = 18446744073709551615: expected a whole number from 1 to 256",
            ),
        ];
        for (key, value, message) in cases {
            assert_eq!(error(&with(key, Some(value))), message);
        }
        let e = error(&with("rows", Some(json!(8.0))));
        assert!(
            e.starts_with("replay[\"rows\"]: invalid type: floating point `8.0`"),
            "{e}"
        );
        assert!(e.ends_with("expected a whole number from 1 to 256"), "{e}");
        let e = error(&with("rows", Some(json!("8"))));
        assert!(
            e.starts_with("replay[\"rows\"]: invalid type: string \"8\""),
            "{e}"
        );
        assert_eq!(
            error(&with_event("x", Some(json!(1i64 << 31)))),
            "replay[\"events\"][0][\"x\"] = 2147483648: expected a whole number from -2147483648 \
             to 2147483647"
        );
        let e = error(&with_event("time_ms", Some(json!(u64::MAX))));
        assert!(
            e.starts_with("replay[\"events\"][0][\"time_ms\"] = 18446744073709551615"),
            "{e}"
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
            "replay[\"board\"]: row 3 has 7 cells, but row 0 has 8"
        );
        assert_eq!(
            error(&with("board", Some(json!([])))),
            "replay[\"board\"] is 0×0, but rows and cols say 8×8"
        );
        let e = error(&with("board", Some(json!("........"))));
        assert!(
            e.starts_with("replay[\"board\"]: invalid type: string"),
            "{e}"
        );
        assert!(e.ends_with("expected a list of row strings"), "{e}");
        let mut rows = g["board"].as_array().unwrap().clone();
        rows[1] = json!(8);
        let e = error(&with("board", Some(rows.into())));
        assert!(
            e.starts_with("replay[\"board\"][1]: invalid type: integer `8`"),
            "{e}"
        );
    }

    #[test]
    fn a_format_version_or_event_of_the_wrong_kind_is_named() {
        assert_eq!(
            error(&with("format", Some(json!("wav")))),
            "replay[\"format\"] = \"wav\": expected \"rmv\", \"evf\", \"avf\", \"mvf\" or \
             \"rawvf\""
        );
        let e = error(&with("version", Some(json!(2))));
        assert!(
            e.starts_with("replay[\"version\"]: invalid type: integer `2`"),
            "{e}"
        );
        let e = error(&with("events", Some(json!({"time_ms": 0}))));
        assert!(
            e.starts_with("replay[\"events\"]: invalid type: map"),
            "{e}"
        );
        let mut v = good();
        v["events"][1] = json!([0, "lc", 8, 8]);
        let e = error(&v);
        assert!(
            e.starts_with("replay[\"events\"][1]: invalid type: sequence"),
            "{e}"
        );
        let e = error(&with_event("kind", Some(json!(null))));
        assert!(
            e.starts_with("replay[\"events\"][0][\"kind\"]: invalid type: null"),
            "{e}"
        );
        let e = error(&json!([1, 2]));
        assert!(e.starts_with("replay: invalid type: sequence"), "{e}");
    }

    #[test]
    fn optional_unknown_and_derived_keys_are_defaulted_or_ignored() {
        let r = read_replay(&data().join("rmv/wmp_beg.rmv")).unwrap();
        let mut v = good();
        let map = v.as_object_mut().unwrap();
        for key in ["format", "version", "mines"] {
            map.remove(key);
        }
        map.insert("header".into(), json!("anything"));
        map.insert("outcome".into(), json!({"won": [1, 2]}));
        for e in v["events"].as_array_mut().unwrap() {
            e["cell"] = json!("not a cell");
            e["note"] = json!(null);
        }
        let back = Replay::from_data(&v).unwrap();
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
        assert!(
            e.to_string().starts_with("replay[\"rows\"] is given twice"),
            "{e}"
        );
        let text = r#"{"rows": 1, "cols": 1, "board": ["*"], "cell_px": 16, "events": []}"#;
        let r = Replay::from_data(&mut serde_json::Deserializer::from_str(text)).unwrap();
        assert_eq!((r.rows, r.cols, r.mines), (1, 1, vec![true]));
    }
}
