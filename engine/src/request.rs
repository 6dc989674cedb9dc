//! Requests as data: what `sapper engine`, `sapper serve` and the Python
//! package are asked, deserialised once into these types (with
//! `serde_json` from a line or a body, with `pythonize` from Python
//! objects) and checked in one place.
//!
//! | request | JSON | read by |
//! |---|---|---|
//! | a position | `{"rows": ["??1.", ...], "mines": N, "density": D}` | `sapper engine`, `/api/analyse`, `/api/probabilities`, `/api/move` |
//! | a no-guess board | `{"rows", "cols", "mines", "seed", "first_click", "start"}` | `/api/generate` |
//! | a first click | `"opening"`, `"safe"` or `[row, col]` | `/api/generate`, Python `generate` and `play` |
//!
//! Fields a request does not know are skipped without being kept. A value
//! of the wrong type is a deserialisation error naming the field; a value
//! of the right type that describes no board (rows of unequal length, a
//! density of 2) is an [`Error`] from [`PositionRequest::position`] and
//! the like, so a server can answer the first 400 and the second 422.
//!
//! ```
//! use sapper_engine::request::{FirstClickRequest, PositionRequest};
//!
//! let request = PositionRequest {
//!     rows: Some(vec!["??1.".into(), "?21.".into(), "11..".into()]),
//!     mines: Some(2),
//!     density: None,
//! };
//! let position = request.position()?;
//! assert_eq!(position.total_mines, Some(2));
//! assert_eq!(FirstClickRequest::At((2, 3).into()).rule(), sapper_engine::FirstClick::Opening);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::{Error, InputError};
use crate::game::{FirstClick, Level};
use crate::report::RowCol;
use crate::Position;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json_free::Number;
use std::fmt;

/// A position by its rows: `{"rows": ["??1.", ...], "mines": N,
/// "density": D}` (`mines` and `density` optional).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct PositionRequest {
    /// The grid's rows, cells only: `?` closed, `F` flag, `0`–`8` a
    /// number, `.` a revealed 0, `*` known safe. Optional here so that its
    /// absence is told in words by [`PositionRequest::position`].
    #[serde(default, deserialize_with = "rows")]
    pub rows: Option<Vec<String>>,
    /// The total number of mines, when known.
    #[serde(default, deserialize_with = "mines")]
    pub mines: Option<u32>,
    /// Without a total: the chance that each closed cell is a mine.
    #[serde(default, deserialize_with = "number")]
    pub density: Option<f64>,
}

impl PositionRequest {
    /// The position the rows and the total describe.
    pub fn position(&self) -> Result<Position, Error> {
        let rows = self.rows.as_deref().ok_or_else(|| {
            InputError::new("expected {\"rows\": [\"??1.\", ...]}: the request has no rows")
        })?;
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        Ok(Position::from_rows(&rows, self.mines)?)
    }

    /// The density given, checked to be strictly between 0 and 1.
    pub fn density(&self) -> Result<Option<f64>, Error> {
        match self.density {
            Some(d) if !(d > 0.0 && d < 1.0) => Err(InputError::new(format!(
                "\"density\" must be a number strictly between 0 and 1, not {d}"
            ))
            .into()),
            d => Ok(d),
        }
    }
}

/// `"opening"`, `"safe"`, or `[row, col]` (an opening there): what the
/// first click of a game is protected from, and where it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstClickRequest {
    /// The first click and its neighbours are mine-free, at the rule's
    /// default start (or the request's `start`).
    Opening,
    /// The first clicked cell is mine-free, at the rule's default start
    /// (or the request's `start`).
    Safe,
    /// An opening at this cell.
    At(RowCol),
}

impl FirstClickRequest {
    /// The rule the first click is played under.
    pub fn rule(self) -> FirstClick {
        match self {
            FirstClickRequest::Safe => FirstClick::Safe,
            FirstClickRequest::Opening | FirstClickRequest::At(_) => FirstClick::Opening,
        }
    }

    /// The rule and where the first click goes on `level`: the request's
    /// own cell, else `start`, else the rule's default start.
    pub fn resolve(self, level: Level, start: Option<RowCol>) -> (FirstClick, (usize, usize)) {
        let rule = self.rule();
        let at = match (self, start) {
            (FirstClickRequest::At(cell), _) | (_, Some(cell)) => cell.into(),
            _ => rule.default_start(level),
        };
        (rule, at)
    }
}

impl<'de> Deserialize<'de> for FirstClickRequest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FirstClickRequest;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("\"opening\", \"safe\" or [row, col]")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                match v {
                    "opening" => Ok(FirstClickRequest::Opening),
                    "safe" => Ok(FirstClickRequest::Safe),
                    _ => Err(E::custom(format_args!(
                        "first click {v:?}: expected \"opening\", \"safe\" or [row, col]"
                    ))),
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                RowColVisitor.visit_seq(seq).map(FirstClickRequest::At)
            }
        }
        d.deserialize_any(V)
    }
}

struct RowColVisitor;

impl<'de> Visitor<'de> for RowColVisitor {
    type Value = RowCol;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("[row, col] (whole numbers from 0)")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RowCol, A::Error> {
        let wrong = || de::Error::custom("expected [row, col] (whole numbers from 0)");
        let row: usize = seq.next_element()?.ok_or_else(wrong)?;
        let col: usize = seq.next_element()?.ok_or_else(wrong)?;
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(wrong());
        }
        Ok(RowCol { row, col })
    }
}

/// `[row, col]`.
impl<'de> Deserialize<'de> for RowCol {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(RowColVisitor)
    }
}

/// A uniform no-guess board: `{"rows", "cols", "mines", "seed",
/// "first_click", "start"}`, every field optional (expert, a fresh seed,
/// an opening at the rule's default start).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
pub struct GenerateRequest {
    /// Rows (default 16).
    #[serde(default, deserialize_with = "whole")]
    pub rows: Option<u64>,
    /// Columns (default 30).
    #[serde(default, deserialize_with = "whole")]
    pub cols: Option<u64>,
    /// Mines (default 99).
    #[serde(default, deserialize_with = "whole")]
    pub mines: Option<u64>,
    /// The seed; `None`: the caller picks a fresh one.
    #[serde(default, deserialize_with = "whole")]
    pub seed: Option<u64>,
    /// The first click (default: an opening).
    #[serde(default)]
    pub first_click: Option<FirstClickRequest>,
    /// Where the first click goes when `first_click` names a rule.
    #[serde(default)]
    pub start: Option<RowCol>,
}

impl GenerateRequest {
    /// The level asked for (not yet checked: [`Level::check`]).
    pub fn level(&self) -> Result<Level, Error> {
        let rows = self.rows.unwrap_or(16);
        let cols = self.cols.unwrap_or(30);
        let mines = self.mines.unwrap_or(99);
        let side = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        let mines = u32::try_from(mines)
            .map_err(|_| InputError::new(format!("{mines} mines do not fit on a board")))?;
        Ok(Level {
            rows: side(rows),
            cols: side(cols),
            mines,
        })
    }

    /// The first-click rule and the start on `level`.
    pub fn first_click(&self, level: Level) -> (FirstClick, (usize, usize)) {
        self.first_click
            .unwrap_or(FirstClickRequest::Opening)
            .resolve(level, self.start)
    }
}

/// `rows`: a list of strings, each named by its index when it is not one.
fn rows<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<Vec<String>>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of rows, e.g. [\"??1.\", \"?21.\"]")
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut rows = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 10));
            loop {
                match seq.next_element::<Row>() {
                    Ok(Some(Row(r))) => rows.push(r),
                    Ok(None) => return Ok(Some(rows)),
                    Err(_) => {
                        return Err(de::Error::custom(format_args!(
                            "row {} is not a string",
                            rows.len()
                        )))
                    }
                }
            }
        }
    }
    d.deserialize_any(V)
}

/// One row: a string (its own error is replaced by the row's number).
struct Row(String);

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Row)
    }
}

/// `mines`: a whole number that fits a `u32`, or null.
fn mines<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    const WHAT: &str = "\"mines\" must be a whole number from 0 to 4294967295";
    let n = Option::<Number>::deserialize(d).map_err(|_| de::Error::custom(WHAT))?;
    n.map(|n| n.whole().and_then(|m| u32::try_from(m).ok()))
        .map_or(Ok(None), |m| {
            m.map(Some).ok_or_else(|| de::Error::custom(WHAT))
        })
}

/// A whole number of at least 0, or null.
fn whole<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    const WHAT: &str = "expected a whole number from 0";
    let n = Option::<Number>::deserialize(d).map_err(|_| de::Error::custom(WHAT))?;
    n.map(Number::whole).map_or(Ok(None), |m| {
        m.map(Some).ok_or_else(|| de::Error::custom(WHAT))
    })
}

/// `density`: a number, or null (its range is checked by
/// [`PositionRequest::density`]).
fn number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Option::<Number>::deserialize(d)
        .map(|n| n.map(Number::value))
        .map_err(|_| de::Error::custom("\"density\" must be a number"))
}

/// Numbers without `serde_json`: any JSON or Python number, told apart
/// from other types with the field's own message.
mod serde_json_free {
    use serde::de::{self, Deserializer, Visitor};
    use std::fmt;

    /// An integer or a float as given.
    #[derive(Clone, Copy, Debug)]
    pub enum Number {
        Int(i128),
        Float(f64),
    }

    impl Number {
        /// The number when it is a whole number of at least 0.
        pub fn whole(self) -> Option<u64> {
            match self {
                Number::Int(i) => u64::try_from(i).ok(),
                Number::Float(_) => None,
            }
        }

        /// The number as a float.
        pub fn value(self) -> f64 {
            match self {
                Number::Int(i) => i as f64,
                Number::Float(f) => f,
            }
        }
    }

    impl<'de> de::Deserialize<'de> for Number {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl Visitor<'_> for V {
                type Value = Number;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("a number")
                }
                fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
                    Ok(Number::Int(v.into()))
                }
                fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
                    Ok(Number::Int(v.into()))
                }
                fn visit_i128<E: de::Error>(self, v: i128) -> Result<Number, E> {
                    Ok(Number::Int(v))
                }
                fn visit_u128<E: de::Error>(self, v: u128) -> Result<Number, E> {
                    Ok(Number::Int(i128::try_from(v).unwrap_or(i128::MAX)))
                }
                fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number, E> {
                    Ok(Number::Float(v))
                }
            }
            d.deserialize_any(V)
        }
    }
}
