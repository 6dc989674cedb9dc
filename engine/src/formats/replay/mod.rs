//! Recorded games ("videos"): the board, the player's mouse events and the
//! file's header, read into one [`Replay`] whatever the format.
//!
//! | format | program | versions read | reader |
//! |---|---|---|---|
//! | `.rmv` | Viennasweeper | 1, 2 | [`rmv::parse_rmv`] |
//! | `.evf` | Metasweeper (元扫雷), ms_toollib | 0–4 | [`evf::parse_evf`] |
//! | `.avf` | Minesweeper Arbiter | 0.49, 0.52 (tested) | [`avf::parse_avf`] |
//! | `.mvf` | Minesweeper Clone | 0.96 beta – 2007 release 2 | [`mvf::parse_mvf`] |
//! | RAWVF | the community's text format (RAW 6) | Rev 3–6.1 | [`rawvf::parse_rawvf`] |
//!
//! [`parse_replay`] picks the reader by the file's content (the magic bytes
//! of `.rmv`, `.mvf` and RAWVF text) and then by its extension;
//! [`read_replay`] reads a file of at most [`MAX_REPLAY_BYTES`] first.
//! Every reader is a pure function of the bytes (and a name for errors):
//! a truncated, corrupt or oversized file is a [`FormatError`] naming the
//! file and the byte offset (for RAWVF the line and column), never a panic,
//! and no count read from a file is trusted for an allocation before the
//! bytes it describes are known to be there.
//!
//! # Time
//!
//! [`ReplayEvent::time_ms`] is the time the file records, in milliseconds,
//! in the file's own frame; where 0 lies differs by format:
//!
//! - `.rmv`: 0 is when the timer starts — the release of the first left
//!   click that opens a cell. Viennasweeper records nothing before it, not
//!   even that click's press: the reader adds the press (as every reader of
//!   the format does) at the time and place of the first recorded event.
//!   The game's timer is the event time.
//! - `.evf` (0–3): 0 is the first press that acts on the board (a pre-flag
//!   or the first left press); v4 stores each event's time as a step from
//!   the one before. The timer starts at the first left release that opens
//!   a cell, so the game's time is an event's time minus that release's.
//! - `.avf`: Arbiter's timer reading minus one second, in hundredths: 0 at
//!   the first left release that opens a cell (and before it), so the game's
//!   time is an event's time minus that release's (0).
//! - `.mvf`: the clock from the first press, in hundredths; the game's
//!   time is an event's time minus the first left release's.
//! - RAWVF: the time each line states (seconds with 2 or 3 decimals); the
//!   parsers that write it put 0 where their own format has it (above).
//!
//! The played game ([`crate::review::played`]) turns these into the time
//! the game's timer shows (ms_toollib's `rtime`).
//!
//! # Pixels
//!
//! [`ReplayEvent::x`] and [`ReplayEvent::y`] are pixels from the board's
//! top-left corner (x to the right, y down); a cell is
//! [`Replay::cell_px`] pixels wide, so [`Replay::cell_at`] derives the cell
//! and answers `None` for a pixel off the board (negative, or past the last
//! row or column — formats record the mouse outside the board in different
//! ways, all of them land there).
//!
//! # As data
//!
//! A [`Replay`] serialises (serde) as `{"format", "version", "rows",
//! "cols", "mines", "board", "cell_px", "header", "events"}`: the board as
//! rows of text (`*` a mine, `.` a safe cell), the header's fields with
//! `null` for those the file lacks and its times as ISO 8601 text
//! ([`Timestamp`]'s `Display`), each event with the cell under it
//! (`[row, col]`, or `null`). [`crate::review::ReplayReport`] adds the
//! played game's outcome and time: what Python's `sapper.read_replay`
//! returns.

pub mod avf;
pub(crate) mod bytes;
mod deserialize;
pub mod evf;
pub mod mvf;
pub mod rawvf;
pub mod rmv;
mod serialize;

use crate::board::Field;
use crate::formats::FormatError;
use crate::grid::Grid;
use std::path::Path;

/// The largest replay file read: 16 MB. Real games are far smaller (an
/// expert game is about 50 kB; the longest in the test data, a
/// 1,184-second 60×36 game, is 341 kB).
pub const MAX_REPLAY_BYTES: u64 = 16 << 20;

/// The most rows, and columns, of a replay's board: every binary format
/// stores them in one byte (Arbiter's custom sizes as size − 1), so 256.
pub const MAX_REPLAY_SIDE: usize = 256;

/// A cell of a layout written as text, as a replay's board serialises:
/// `*` a mine, `.` a safe cell ([`layout_cell`] reads it back).
pub fn layout_char(mine: bool) -> char {
    if mine {
        '*'
    } else {
        '.'
    }
}

/// Whether the layout text's cell `ch` is a mine (`*`) or safe (`.`);
/// `None` for any other character (see [`LAYOUT_CELLS`]).
pub fn layout_cell(ch: char) -> Option<bool> {
    match ch {
        '*' => Some(true),
        '.' => Some(false),
        _ => None,
    }
}

/// What a layout text's cells may be, for messages.
pub const LAYOUT_CELLS: &str = "`*` (a mine) or `.` (a safe cell)";

/// The file formats read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplayFormat {
    /// Viennasweeper's `.rmv`.
    Rmv,
    /// Metasweeper's `.evf`.
    Evf,
    /// Minesweeper Arbiter's `.avf`.
    Avf,
    /// Minesweeper Clone's `.mvf`.
    Mvf,
    /// The RAW video format, a text file (`.rawvf`, `.txt`).
    Rawvf,
}

impl ReplayFormat {
    /// Every format, in the order [`parse_replay`] tries extensions.
    pub const ALL: [ReplayFormat; 5] = [
        ReplayFormat::Rmv,
        ReplayFormat::Evf,
        ReplayFormat::Avf,
        ReplayFormat::Mvf,
        ReplayFormat::Rawvf,
    ];

    /// The name used in output and messages: `rmv`, `evf`, `avf`, `mvf`,
    /// `rawvf`.
    pub fn name(self) -> &'static str {
        match self {
            ReplayFormat::Rmv => "rmv",
            ReplayFormat::Evf => "evf",
            ReplayFormat::Avf => "avf",
            ReplayFormat::Mvf => "mvf",
            ReplayFormat::Rawvf => "rawvf",
        }
    }

    /// The format a file extension (without the dot, any case) names.
    pub fn from_extension(ext: &str) -> Option<ReplayFormat> {
        match ext.to_ascii_lowercase().as_str() {
            "rmv" => Some(ReplayFormat::Rmv),
            "evf" => Some(ReplayFormat::Evf),
            "avf" => Some(ReplayFormat::Avf),
            "mvf" => Some(ReplayFormat::Mvf),
            "rawvf" | "raw" => Some(ReplayFormat::Rawvf),
            _ => None,
        }
    }

    /// Parses `bytes` as this format (`name` names them in errors).
    pub fn parse(self, bytes: &[u8], name: &Path) -> Result<Replay, FormatError> {
        match self {
            ReplayFormat::Rmv => rmv::parse_rmv(bytes, name),
            ReplayFormat::Evf => evf::parse_evf(bytes, name),
            ReplayFormat::Avf => avf::parse_avf(bytes, name),
            ReplayFormat::Mvf => mvf::parse_mvf(bytes, name),
            ReplayFormat::Rawvf => rawvf::parse_rawvf(bytes, name),
        }
    }
}

/// One recorded game: the board, the player's events in file order, and
/// what the file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The format the replay was read from.
    pub format: ReplayFormat,
    /// The format's version as the file states it: `1` or `2` for `.rmv`,
    /// `0`–`4` for `.evf`, Arbiter's version byte for `.avf` (`52` for
    /// 0.52.3), Minesweeper Clone's release for `.mvf` (`0.97 beta`,
    /// `2007 release 2`, …), the `RawVF_Version` line for RAWVF (empty when
    /// absent).
    pub version: String,
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The mine layout, row-major (`mines[row * cols + col]`). A plain
    /// vector rather than a [`Field`]: it is exactly what a file stores,
    /// has no derived data to keep consistent and serialises as it is;
    /// [`Replay::field`] builds the engine's field from it.
    pub mines: Vec<bool>,
    /// The side of a cell in pixels, what [`ReplayEvent::x`] and
    /// [`ReplayEvent::y`] are measured in (16 where the format has no other).
    pub cell_px: u16,
    /// The events in file order (see [`ReplayEvent`]).
    pub events: Vec<ReplayEvent>,
    /// The header fields the file has.
    pub header: ReplayHeader,
}

impl Replay {
    /// The board's shape.
    pub fn grid(&self) -> Grid {
        Grid::new(self.rows, self.cols)
    }

    /// The number of mines on the board.
    pub fn mine_count(&self) -> usize {
        self.mines.iter().filter(|&&m| m).count()
    }

    /// Whether `(row, col)` holds a mine (`false` off the board).
    pub fn is_mine(&self, row: usize, col: usize) -> bool {
        row < self.rows && col < self.cols && self.mines[row * self.cols + col]
    }

    /// The board as the engine's [`Field`]: mines, numbers, nothing open at
    /// the start.
    pub fn field(&self) -> Field {
        let grid = self.grid();
        Field::from_mines(grid, self.mines.clone(), vec![false; grid.len()])
    }

    /// The cell `(row, col)` under pixel `(x, y)`, or `None` off the board.
    pub fn cell_at(&self, x: i32, y: i32) -> Option<(usize, usize)> {
        if x < 0 || y < 0 || self.cell_px == 0 {
            return None;
        }
        let px = i64::from(self.cell_px);
        let (col, row) = (i64::from(x) / px, i64::from(y) / px);
        (row < self.rows as i64 && col < self.cols as i64).then_some((row as usize, col as usize))
    }

    /// A game of left clicks on `(row, col)` cells, as a program that plays
    /// without a mouse makes one: each click a left press and release at
    /// its cell's centre (cells of 16 pixels), every event at time 0. Its
    /// format is RAWVF, the text [`rawvf::write_rawvf`] writes it as.
    ///
    /// # Panics
    ///
    /// If `mines` does not have `rows × cols` entries or a click is off the
    /// board.
    pub fn of_clicks(
        rows: usize,
        cols: usize,
        mines: Vec<bool>,
        clicks: &[(usize, usize)],
        header: ReplayHeader,
    ) -> Replay {
        assert_eq!(mines.len(), rows * cols, "one entry per cell");
        const PX: u16 = 16;
        let events = clicks
            .iter()
            .flat_map(|&(r, c)| {
                assert!(r < rows && c < cols, "a click on the board");
                let (x, y) = (c as i32 * 16 + 8, r as i32 * 16 + 8);
                [EventKind::LeftPress, EventKind::LeftRelease].map(|kind| ReplayEvent {
                    time_ms: 0,
                    kind,
                    x,
                    y,
                })
            })
            .collect();
        Replay {
            format: ReplayFormat::Rawvf,
            version: "Rev6.1".to_string(),
            rows,
            cols,
            mines,
            cell_px: PX,
            events,
            header,
        }
    }

    /// The cell under an event's pointer, or `None` off the board (and for
    /// game signals, which have no position).
    pub fn event_cell(&self, event: &ReplayEvent) -> Option<(usize, usize)> {
        if event.kind.is_signal() {
            return None;
        }
        self.cell_at(event.x, event.y)
    }
}

/// One recorded event: a mouse action (or, in `.evf` 4, a game signal) at a
/// time and pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReplayEvent {
    /// Milliseconds in the file's frame (see the module doc, *Time*).
    pub time_ms: i64,
    /// What happened.
    pub kind: EventKind,
    /// Pixels from the board's left edge (see the module doc, *Pixels*);
    /// for a game signal, the last mouse position.
    pub x: i32,
    /// Pixels from the board's top edge; for a game signal, the last mouse
    /// position.
    pub y: i32,
}

/// What an event records. The short names ([`EventKind::code`]) are those
/// of ms_toollib and RAWVF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// The mouse moved (`mv`).
    Move,
    /// Left button pressed (`lc`).
    LeftPress,
    /// Left button released (`lr`).
    LeftRelease,
    /// Right button pressed (`rc`).
    RightPress,
    /// Right button released (`rr`).
    RightRelease,
    /// Middle button pressed (`mc`): a chord on its release.
    MiddlePress,
    /// Middle button released (`mr`).
    MiddleRelease,
    /// A flag placed before the game started, whose clicks the program
    /// did not record (`pf`, `.rmv` 2 and `.evf`): one right click on the
    /// cell.
    PreFlag,
    /// Both buttons down, the file not saying which went down last (`cc`,
    /// `.evf`).
    BothPress,
    /// The left button changed state, the file not saying which way (`l`,
    /// `.evf` 3–4).
    LeftToggle,
    /// The right button changed state (`r`, `.evf` 3–4).
    RightToggle,
    /// The middle button changed state (`m`, `.evf` 3–4).
    MiddleToggle,
    /// Left button pressed with Shift held, which chords on release (`sc`,
    /// RAWVF from Arbiter and FreeSweeper).
    ShiftLeftPress,
    /// The program restarted the game (`.evf` 4 game signal).
    Restart,
    /// The program declared the game won (`.evf` 4 game signal).
    Win,
    /// The program declared the game lost (`.evf` 4 game signal).
    Fail,
    /// The program recorded an error (`.evf` 4 game signal).
    Error,
}

impl EventKind {
    /// Every kind, mouse events then game signals.
    pub const ALL: [EventKind; 17] = [
        EventKind::Move,
        EventKind::LeftPress,
        EventKind::LeftRelease,
        EventKind::RightPress,
        EventKind::RightRelease,
        EventKind::MiddlePress,
        EventKind::MiddleRelease,
        EventKind::PreFlag,
        EventKind::BothPress,
        EventKind::LeftToggle,
        EventKind::RightToggle,
        EventKind::MiddleToggle,
        EventKind::ShiftLeftPress,
        EventKind::Restart,
        EventKind::Win,
        EventKind::Fail,
        EventKind::Error,
    ];

    /// The kind whose short name ([`EventKind::code`]) is `code`, if any.
    pub fn from_code(code: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// The short name: `mv`, `lc`, `lr`, `rc`, `rr`, `mc`, `mr`, `pf`,
    /// `cc`, `l`, `r`, `m`, `sc`, and for signals `replay`, `win`, `fail`,
    /// `error` (ms_toollib's names).
    pub fn code(self) -> &'static str {
        match self {
            EventKind::Move => "mv",
            EventKind::LeftPress => "lc",
            EventKind::LeftRelease => "lr",
            EventKind::RightPress => "rc",
            EventKind::RightRelease => "rr",
            EventKind::MiddlePress => "mc",
            EventKind::MiddleRelease => "mr",
            EventKind::PreFlag => "pf",
            EventKind::BothPress => "cc",
            EventKind::LeftToggle => "l",
            EventKind::RightToggle => "r",
            EventKind::MiddleToggle => "m",
            EventKind::ShiftLeftPress => "sc",
            EventKind::Restart => "replay",
            EventKind::Win => "win",
            EventKind::Fail => "fail",
            EventKind::Error => "error",
        }
    }

    /// Whether this is a game signal rather than a mouse event.
    pub fn is_signal(self) -> bool {
        matches!(
            self,
            EventKind::Restart | EventKind::Win | EventKind::Fail | EventKind::Error
        )
    }
}

/// The header fields a file has; `None` where its format has no such field
/// (or the file leaves it empty). Serialised field by field, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ReplayHeader {
    /// The player's name as the program shows it (`.evf`: the user
    /// identifier).
    pub player: Option<String>,
    /// A second name the player gave: Viennasweeper's nickname, `.evf`'s
    /// unique identifier.
    pub nickname: Option<String>,
    /// `.evf`'s race (competition) identifier.
    pub race: Option<String>,
    /// The player's country, as the file gives it (a code or a name).
    pub country: Option<String>,
    /// The program that recorded the game (`Viennasweeper`, `Arbiter`,
    /// `元3.1.9`, …).
    pub program: Option<String>,
    /// The program's version or edition, as the file gives it.
    pub program_version: Option<String>,
    /// When the game (or its board) started.
    pub started: Option<Timestamp>,
    /// When the game ended.
    pub ended: Option<Timestamp>,
    /// The level the program was set to.
    pub level: Option<LevelName>,
    /// The game mode.
    pub mode: Option<GameMode>,
    /// Whether the file says the game was played without flags (NF).
    pub no_flags: Option<bool>,
    /// Whether question marks were on.
    pub question_marks: Option<bool>,
    /// The game's time as the file records it, in milliseconds.
    pub recorded_time_ms: Option<u64>,
    /// The board's 3BV as the file records it.
    pub recorded_bbbv: Option<u32>,
    /// Whether the file says the game was won.
    pub completed: Option<bool>,
    /// `.evf`'s flag that the game counts for rankings (won, standard mode,
    /// no aids).
    pub official: Option<bool>,
    /// `.evf`'s flag that the game was won fairly (any mode, no aids).
    pub fair: Option<bool>,
}

/// The level a program was set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LevelName {
    /// 8×8 or 9×9, 10 mines.
    Beginner,
    /// 16×16, 40 mines.
    Intermediate,
    /// 16×30, 99 mines.
    Expert,
    /// Any other size.
    Custom,
}

impl LevelName {
    /// `beginner`, `intermediate`, `expert` or `custom`.
    pub fn name(self) -> &'static str {
        match self {
            LevelName::Beginner => "beginner",
            LevelName::Intermediate => "intermediate",
            LevelName::Expert => "expert",
            LevelName::Custom => "custom",
        }
    }
}

/// A game mode, as `.rmv`, `.evf` and `.mvf` number them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameMode {
    /// Standard (classic) rules.
    Standard,
    /// UPK: a board replayed with prior knowledge of the mines.
    Upk,
    /// Cheat mode.
    Cheat,
    /// Viennasweeper's density mode (boards chosen by mine density).
    Density,
    /// Windows 7 rules (the first click opens an opening).
    Win7,
    /// No-guess, racing: boards always solvable, a lucky guess survives
    /// (`.evf` 5).
    NoGuessRace,
    /// No-guess, strict: a guess where a safe cell existed loses (`.evf` 6).
    NoGuessStrong,
    /// No-guess, weak: a guess loses only where the position was solvable
    /// (`.evf` 7).
    NoGuessWeak,
    /// Quasi no-guess: no board guarantee, but a guess in an unsolvable
    /// position never loses (`.evf` 8).
    NoGuessQuasi,
    /// Guessable, strong: the board changes so a guess on a possibly safe
    /// cell survives, and stays solvable (`.evf` 9).
    GuessableStrong,
    /// Guessable, weak: the board changes so a guess on a possibly safe cell
    /// survives (`.evf` 10).
    GuessableWeak,
    /// Chords recurse (`.evf` 11).
    ChordRecursive,
    /// Flags recurse (`.evf` 12).
    FlagRecursive,
    /// Chords and flags recurse (`.evf` 13).
    ChordFlagRecursive,
    /// A mode number this reader does not know.
    Other(u16),
}

impl GameMode {
    /// The mode `.evf` numbers `code` (its numbering extends `.rmv`'s 0–3).
    pub fn from_evf(code: u16) -> GameMode {
        match code {
            0 => GameMode::Standard,
            1 => GameMode::Upk,
            2 => GameMode::Cheat,
            3 => GameMode::Density,
            4 => GameMode::Win7,
            5 => GameMode::NoGuessRace,
            6 => GameMode::NoGuessStrong,
            7 => GameMode::NoGuessWeak,
            8 => GameMode::NoGuessQuasi,
            9 => GameMode::GuessableStrong,
            10 => GameMode::GuessableWeak,
            11 => GameMode::ChordRecursive,
            12 => GameMode::FlagRecursive,
            13 => GameMode::ChordFlagRecursive,
            other => GameMode::Other(other),
        }
    }
}

/// A date and time as a file records it; written (`Display`, and
/// serialised) as ISO 8601 text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Timestamp {
    /// Microseconds since 1970-01-01 UTC.
    UnixMicros(u64),
    /// A wall-clock time without a time zone (Arbiter, Minesweeper Clone).
    Local {
        /// Year.
        year: u16,
        /// Month, 1–12.
        month: u8,
        /// Day of the month, 1–31.
        day: u8,
        /// Hour, 0–23.
        hour: u8,
        /// Minute, 0–59.
        minute: u8,
        /// Second, 0–59.
        second: u8,
        /// Milliseconds, 0–999.
        millis: u16,
    },
    /// Text this reader does not interpret (RAWVF's `Timestamp` line, an
    /// `.evf` 0–3 time string of an unknown program).
    Text(String),
}

/// Reads the replay file at `path`: at most [`MAX_REPLAY_BYTES`], then
/// [`parse_replay`].
pub fn read_replay(path: &Path) -> Result<Replay, FormatError> {
    let bytes = crate::files::read_capped(path, MAX_REPLAY_BYTES)
        .map_err(|e| FormatError::new(path, e.reason))?;
    parse_replay(&bytes, path)
}

/// Parses a replay, choosing the reader by content, then by `name`'s
/// extension: `*rmv` starts an `.rmv`; `0x11 0x4D` an `.mvf` of Minesweeper
/// Clone 0.97 or later; a text whose lines are `Key: value` pairs with a
/// `Board:` line is RAWVF; otherwise `.evf`, `.avf` and `.mvf` (whose first
/// bytes vary) are told apart by the extension. More than
/// [`MAX_REPLAY_BYTES`] is refused.
pub fn parse_replay(bytes: &[u8], name: &Path) -> Result<Replay, FormatError> {
    if bytes.len() as u64 > MAX_REPLAY_BYTES {
        return Err(FormatError::new(
            name,
            format!(
                "{} bytes: a replay is at most {MAX_REPLAY_BYTES} bytes",
                bytes.len()
            ),
        ));
    }
    if let Some(format) = sniff(bytes) {
        return format.parse(bytes, name);
    }
    let ext = name.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ReplayFormat::from_extension(ext) {
        Some(format) => format.parse(bytes, name),
        None => Err(FormatError::new(
            name,
            format!(
                "not a replay this reader knows: the content is not .rmv, .mvf or RAWVF, \
                 and the extension {} is not .evf, .avf or .mvf",
                if ext.is_empty() {
                    "(none)".to_string()
                } else {
                    crate::formats::quote(ext)
                }
            ),
        )),
    }
}

/// The format the content alone shows, if any.
fn sniff(bytes: &[u8]) -> Option<ReplayFormat> {
    if bytes.starts_with(b"*rmv") {
        return Some(ReplayFormat::Rmv);
    }
    if mvf::has_magic(bytes) {
        return Some(ReplayFormat::Mvf);
    }
    if rawvf::looks_like_rawvf(bytes) {
        return Some(ReplayFormat::Rawvf);
    }
    None
}

/// Checks a board's shape: 1 to [`MAX_REPLAY_SIDE`] rows and columns.
/// `at` is the byte offset of the size fields.
pub(crate) fn check_shape(
    path: &Path,
    at: usize,
    rows: usize,
    cols: usize,
) -> Result<(), FormatError> {
    if rows == 0 || cols == 0 || rows > MAX_REPLAY_SIDE || cols > MAX_REPLAY_SIDE {
        return Err(FormatError::at_byte(
            path,
            at as u64,
            format!("a board of {rows} rows × {cols} columns: both must be 1 to {MAX_REPLAY_SIDE}"),
        ));
    }
    Ok(())
}

/// The level a board of this size and mine count is, by the standard sizes
/// (beginner 8×8 or 9×9 with 10 mines).
pub(crate) fn level_of(rows: usize, cols: usize, mines: usize) -> LevelName {
    match (rows, cols, mines) {
        (8, 8, 10) | (9, 9, 10) => LevelName::Beginner,
        (16, 16, 40) => LevelName::Intermediate,
        (16, 30, 99) => LevelName::Expert,
        _ => LevelName::Custom,
    }
}

/// `Some(text)` unless it is empty.
pub(crate) fn non_empty(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(rows: usize, cols: usize, cell_px: u16) -> Replay {
        Replay {
            format: ReplayFormat::Evf,
            version: "4".into(),
            rows,
            cols,
            mines: vec![false; rows * cols],
            cell_px,
            events: vec![],
            header: ReplayHeader::default(),
        }
    }

    #[test]
    fn pixels_map_to_cells_and_off_the_board_to_none() {
        let r = replay(2, 3, 16);
        assert_eq!(r.cell_at(0, 0), Some((0, 0)));
        assert_eq!(r.cell_at(15, 15), Some((0, 0)));
        assert_eq!(r.cell_at(16, 0), Some((0, 1)));
        assert_eq!(r.cell_at(47, 31), Some((1, 2)));
        assert_eq!(r.cell_at(48, 0), None);
        assert_eq!(r.cell_at(0, 32), None);
        assert_eq!(r.cell_at(-1, 5), None);
        assert_eq!(r.cell_at(5, -1), None);
        assert_eq!(r.cell_at(i32::MAX, i32::MAX), None);
        assert_eq!(replay(2, 3, 0).cell_at(0, 0), None);
    }

    #[test]
    fn unknown_content_and_extension_is_refused_by_name() {
        let e = parse_replay(b"hello", Path::new("x.bin")).unwrap_err();
        assert!(e.to_string().starts_with("x.bin: not a replay"), "{e}");
        let e = parse_replay(b"hello", Path::new("x")).unwrap_err();
        assert!(e.message.contains("(none)"), "{e}");
    }

    #[test]
    fn oversized_input_is_refused_before_parsing() {
        let big = vec![0u8; MAX_REPLAY_BYTES as usize + 1];
        let e = parse_replay(&big, Path::new("big.evf")).unwrap_err();
        assert!(e.message.contains("at most"), "{e}");
    }
}
