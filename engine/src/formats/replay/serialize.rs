//! A replay as data: what `sapper.read_replay` returns in Python (with the
//! played game's outcome and time added by
//! [`ReplayReport`](crate::review::ReplayReport)).
//!
//! A [`Replay`] serialises as `{"format", "version", "rows", "cols",
//! "mines", "board", "cell_px", "header", "events"}`: `format` its
//! [`ReplayFormat::name`], `mines` the count, `board` a row of text per
//! board row (`*` a mine, `.` a safe cell), `header` the [`ReplayHeader`]'s
//! fields in order (`null` where the file has none), `events` `{"time_ms",
//! "kind", "x", "y", "cell"}` in file order (`kind` the [`EventKind::code`],
//! `cell` `[row, col]` or `null` off the board and for game signals).
//! Header times are ISO 8601 text ([`Timestamp`]'s `Display`), the level
//! its [`LevelName::name`], the mode its `Display` name.
//!
//! [`Replay::from_data`] reads it back (all but the header).

use super::{
    layout_char, EventKind, GameMode, LevelName, Replay, ReplayEvent, ReplayFormat, Timestamp,
};
use crate::report::RowCol;
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use std::fmt;

impl Replay {
    /// Writes the fields of the replay's serialisation into `st` (the
    /// struct of a caller that adds fields after them).
    pub(crate) fn serialize_fields<S: SerializeStruct>(&self, st: &mut S) -> Result<(), S::Error> {
        st.serialize_field("format", &self.format)?;
        st.serialize_field("version", &self.version)?;
        st.serialize_field("rows", &self.rows)?;
        st.serialize_field("cols", &self.cols)?;
        st.serialize_field("mines", &self.mine_count())?;
        st.serialize_field("board", &BoardRows(self))?;
        st.serialize_field("cell_px", &self.cell_px)?;
        st.serialize_field("header", &self.header)?;
        st.serialize_field("events", &Events(self))
    }
}

/// The fields of the module doc.
impl Serialize for Replay {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Replay", 9)?;
        self.serialize_fields(&mut st)?;
        st.end()
    }
}

/// A replay's board, a row of text per board row.
struct BoardRows<'a>(&'a Replay);

impl Serialize for BoardRows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut seq = s.serialize_seq(Some(r.rows))?;
        for row in r.mines.chunks(r.cols.max(1)) {
            let text: String = row.iter().map(|&m| layout_char(m)).collect();
            seq.serialize_element(&text)?;
        }
        seq.end()
    }
}

/// A replay's events, each with the cell under it.
struct Events<'a>(&'a Replay);

impl Serialize for Events<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut seq = s.serialize_seq(Some(r.events.len()))?;
        for e in &r.events {
            seq.serialize_element(&Event {
                event: e,
                cell: r.event_cell(e).map(RowCol::from),
            })?;
        }
        seq.end()
    }
}

/// `{"time_ms", "kind", "x", "y", "cell"}`.
struct Event<'a> {
    event: &'a ReplayEvent,
    cell: Option<RowCol>,
}

impl Serialize for Event<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.event;
        let mut st = s.serialize_struct("ReplayEvent", 5)?;
        st.serialize_field("time_ms", &e.time_ms)?;
        st.serialize_field("kind", &e.kind)?;
        st.serialize_field("x", &e.x)?;
        st.serialize_field("y", &e.y)?;
        st.serialize_field("cell", &self.cell)?;
        st.end()
    }
}

/// Its [`ReplayFormat::name`].
impl Serialize for ReplayFormat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// Its [`EventKind::code`].
impl Serialize for EventKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// Its [`LevelName::name`].
impl Serialize for LevelName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The mode's name in snake case (`standard`, `upk`, `no_guess_race`,
/// …); a mode number the reader does not know as `other N`.
impl fmt::Display for GameMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            GameMode::Standard => "standard",
            GameMode::Upk => "upk",
            GameMode::Cheat => "cheat",
            GameMode::Density => "density",
            GameMode::Win7 => "win7",
            GameMode::NoGuessRace => "no_guess_race",
            GameMode::NoGuessStrong => "no_guess_strong",
            GameMode::NoGuessWeak => "no_guess_weak",
            GameMode::NoGuessQuasi => "no_guess_quasi",
            GameMode::GuessableStrong => "guessable_strong",
            GameMode::GuessableWeak => "guessable_weak",
            GameMode::ChordRecursive => "chord_recursive",
            GameMode::FlagRecursive => "flag_recursive",
            GameMode::ChordFlagRecursive => "chord_flag_recursive",
            GameMode::Other(n) => return write!(f, "other {n}"),
        };
        f.write_str(name)
    }
}

/// Its `Display` name.
impl Serialize for GameMode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// ISO 8601 text: a Unix time in UTC with microseconds and `Z`
/// (`2024-08-30T20:11:41.386418Z`; a year past 9999 with all its digits);
/// a wall-clock time without a zone, with milliseconds
/// (`2016-03-29T18:54:36.006`); text the reader did not interpret as it
/// is.
impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Timestamp::UnixMicros(us) => {
                let micros = us % 1_000_000;
                // At most 1.9e13 seconds, the year 586,524: within the
                // calendar's range (`large-dates`: ±999,999 years).
                let secs = (us / 1_000_000) as i64;
                match time::UtcDateTime::from_unix_timestamp(secs) {
                    Ok(t) => write!(
                        f,
                        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{micros:06}Z",
                        t.year(),
                        u8::from(t.month()),
                        t.day(),
                        t.hour(),
                        t.minute(),
                        t.second()
                    ),
                    Err(_) => write!(f, "{us}"),
                }
            }
            Timestamp::Local {
                year,
                month,
                day,
                hour,
                minute,
                second,
                millis,
            } => write!(
                f,
                "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{millis:03}"
            ),
            Timestamp::Text(ref text) => f.write_str(text),
        }
    }
}

/// Its `Display` text.
impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_times_are_utc_dates_to_the_microsecond_over_the_whole_range() {
        let iso = |us| Timestamp::UnixMicros(us).to_string();
        assert_eq!(iso(0), "1970-01-01T00:00:00.000000Z");
        assert_eq!(iso(1), "1970-01-01T00:00:00.000001Z");
        assert_eq!(iso(951_782_400_000_000), "2000-02-29T00:00:00.000000Z");
        assert_eq!(iso(951_868_799_999_999), "2000-02-29T23:59:59.999999Z");
        assert_eq!(iso(1_725_048_701_386_418), "2024-08-30T20:11:41.386418Z");
        assert_eq!(iso(253_402_300_799_999_999), "9999-12-31T23:59:59.999999Z");
        assert_eq!(iso(253_402_300_800_000_000), "10000-01-01T00:00:00.000000Z");
        assert_eq!(iso(u64::MAX), "586524-01-19T08:01:49.551615Z");
    }

    #[test]
    fn wall_clock_times_and_text_are_written_as_read() {
        let local = Timestamp::Local {
            year: 2016,
            month: 3,
            day: 9,
            hour: 8,
            minute: 5,
            second: 6,
            millis: 7,
        };
        assert_eq!(local.to_string(), "2016-03-09T08:05:06.007");
        let text = Timestamp::Text("18.10.2022.20:15:35:6606".into());
        assert_eq!(text.to_string(), "18.10.2022.20:15:35:6606");
    }

    #[test]
    fn modes_are_named_in_snake_case_and_unknown_ones_by_number() {
        assert_eq!(GameMode::NoGuessRace.to_string(), "no_guess_race");
        assert_eq!(
            GameMode::ChordFlagRecursive.to_string(),
            "chord_flag_recursive"
        );
        assert_eq!(GameMode::Other(42).to_string(), "other 42");
    }
}
