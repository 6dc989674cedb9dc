//! A recorded game, replayed: its moves, the position before each, the
//! click counts and how it ended.
//!
//! [`PlayedGame::from_replay`] runs a [`Replay`]'s mouse events through the
//! mouse and board state machine the community's tools use — ms_toollib's
//! (`minesweeper_board.rs`), which Metasweeper plays by — and records:
//!
//! - every **move**: a left click on a cell ([`MoveKind::Open`]), a chord
//!   ([`MoveKind::Chord`]: both buttons, or the middle one, released on a
//!   cell), a right click on a closed cell ([`MoveKind::Flag`]) or a flag
//!   ([`MoveKind::Unflag`]), with the position the player saw before it,
//!   whether it changed the board, and whether it was an effective click;
//! - the **clicks** ([`Clicks`]) as the community counts them;
//! - the **outcome** and the time the game's timer shows at the end.
//!
//! # Counting
//!
//! - A **left** click is a left press and release on its own; it counts on
//!   release, on any cell or off the board. It is effective (`ce`) when it
//!   opens a safe cell.
//! - A **right** click counts on the press: on a closed cell it flags, on a
//!   flag it unflags (question marks are not played). A right press on an
//!   open cell or off the board counts too — unless the left button joins
//!   it, making it the first half of a chord, which then counts once as a
//!   double click instead. A flag is effective the first time it goes on a
//!   given mine; flags on safe cells, unflags and re-flags are not.
//! - A **double** click (chord) counts once per two-button press, when the
//!   first button is released on a cell (a release off the board counts
//!   nothing), or on a middle release on a cell. It is effective when the
//!   cell is an open number (1 to 7) with exactly as many flags around it
//!   and at least one closed neighbour, which it then opens — a chord that
//!   opens a mine too. A right press on a closed cell that the left button
//!   then joins (a "1.5 click") counts as a right click and a double.
//! - `cl` = left + right + double; `ce` = the effective left, right and
//!   double clicks.
//! - Before the game starts (the first left release on a closed cell opens
//!   it and starts the timer), flags may be placed — recorded pre-flags
//!   (`pf`) count as right clicks. A left release on a flag or off the board
//!   counts as a left click but does not start the game; with no pre-flag
//!   on the board, a left release off the board, or removing the last
//!   pre-flag, returns to the ready state and clears the counts.
//! - After the game is won or lost nothing counts.
//!
//! This follows ms_toollib 1.5.20 event for event, including its choices in
//! odd sequences (a left release on a pre-flag leaves the left button
//! "down" for the state machine; returning to the ready state clears the
//! click counts but not the effective ones). Where ms_toollib stops with
//! an error instead (a `cc` or a right press in a state it does not
//! expect, a pre-flag after the start or on an open cell, a middle release
//! off the board) the event is ignored, and Arbiter's Shift+left press,
//! which ms_toollib cannot play, is a left press whose release chords (as
//! RAWVF's parser plays it). The `l`, `r` and `m` events of `.evf` 3–4 (a
//! button changed state) are presses or releases by the button's state, as
//! ms_toollib plays them.
//!
//! # Time
//!
//! The timer starts at the release that starts the game; [`Move::time_ms`]
//! and [`PlayedGame::time_ms`] are measured from there (moves before the
//! start have times of 0 or less). A won or lost game's time is its last
//! click's; an unfinished game's is its last mouse event's.

use crate::board::{Cell, Position};
use crate::formats::replay::{EventKind, Replay};
use crate::grid::Grid;

/// A recorded game, replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// Mines on the board.
    pub mines: u32,
    /// The moves in order (see the module doc).
    pub moves: Vec<Move>,
    /// How the game ended.
    pub outcome: Outcome,
    /// The time the game's timer shows at the end, in milliseconds
    /// (ms_toollib's `rtime`; 0 for a game that never started).
    pub time_ms: u64,
    /// The replay time (in the file's frame) of the release that started
    /// the game, if it started.
    pub start_event_ms: Option<i64>,
    /// The click counts.
    pub clicks: Clicks,
    /// The board at the end, as the player sees it.
    pub end: Position,
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A left click on a cell.
    Open,
    /// A chord: both buttons (or the middle one) released on a cell.
    Chord,
    /// A right click on a closed cell: a flag placed.
    Flag,
    /// A right click on a flag: the flag removed.
    Unflag,
}

impl MoveKind {
    /// `open`, `chord`, `flag` or `unflag`.
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::Open => "open",
            MoveKind::Chord => "chord",
            MoveKind::Flag => "flag",
            MoveKind::Unflag => "unflag",
        }
    }
}

/// One move of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// What the move was.
    pub kind: MoveKind,
    /// The cell, `(row, col)` from 0.
    pub cell: (usize, usize),
    /// Milliseconds on the game's timer (negative or 0 before the start).
    pub time_ms: i64,
    /// The index of the event that made the move in [`Replay::events`].
    pub event: usize,
    /// The position the player saw just before the move: numbers revealed,
    /// flags as the player placed them (as [`Cell::Mine`], right or wrong),
    /// every other cell closed; the board's mine total.
    pub before: Position,
    /// Whether the move changed the board (opened a cell, hit a mine,
    /// placed or removed a flag).
    pub effective: bool,
    /// Whether it counts as an effective click (`ce`, see the module doc).
    pub ce: bool,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Every safe cell was opened by move `at_move` (an index into
    /// [`PlayedGame::moves`]).
    Won {
        /// The winning move.
        at_move: usize,
    },
    /// Move `at_move` opened a mine.
    Lost {
        /// The losing move.
        at_move: usize,
    },
    /// The recording ends before either.
    Unfinished,
}

impl Outcome {
    /// `won`, `lost` or `unfinished`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Won { .. } => "won",
            Outcome::Lost { .. } => "lost",
            Outcome::Unfinished => "unfinished",
        }
    }
}

/// The clicks of a game, as the community counts them (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clicks {
    /// Left clicks.
    pub left: u32,
    /// Right clicks.
    pub right: u32,
    /// Double clicks (chords).
    pub double: u32,
    /// All clicks: `left + right + double`.
    pub cl: u32,
    /// Effective left clicks (opened a safe cell).
    pub left_ce: u32,
    /// Effective right clicks (a first flag on a mine).
    pub right_ce: u32,
    /// Effective double clicks (opened cells).
    pub double_ce: u32,
    /// Effective clicks: `left_ce + right_ce + double_ce`.
    pub ce: u32,
    /// Flags on the board at the end.
    pub flags: u32,
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Nothing has touched the board.
    Ready,
    /// A left press on the board or a flag, but no cell opened yet.
    PreFlagging,
    /// The timer runs.
    Playing,
    /// Won or lost: nothing counts any more.
    Over,
}

/// Which buttons are down, as the state machine tracks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mouse {
    /// No button.
    Idle,
    /// The right button alone; `on_open` when it went down on an open cell
    /// or off the board (it flagged nothing, so a chord takes its count).
    Right { on_open: bool },
    /// The left button alone (`shift`: pressed with Shift, so it chords).
    Left { shift: bool },
    /// Both; `right_on_open` as for [`Mouse::Right`].
    Both { right_on_open: bool },
    /// The left button, still down after a chord released the right one.
    LeftAfterChord,
}

/// The events a state machine step understands (toggles resolved).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Button {
    LeftPress { shift: bool },
    LeftRelease,
    RightPress,
    RightRelease,
    MiddlePress,
    MiddleRelease,
    BothPress,
    PreFlag,
}

/// The replay in progress.
struct Game<'a> {
    replay: &'a Replay,
    grid: Grid,
    mines: u32,
    cells: Vec<Cell>,
    /// Mines that have carried a flag (a re-flag is not effective).
    flagged_once: Vec<bool>,
    opened_safe: usize,
    safe: usize,
    stage: Stage,
    mouse: Mouse,
    middle: bool,
    pre_flags: u32,
    clicks: Clicks,
    moves: Vec<Move>,
    /// The move times in the file's frame, until the start is known.
    move_event_ms: Vec<i64>,
    outcome: Outcome,
    start_ms: Option<i64>,
    end_ms: Option<i64>,
    /// The event being played: index and file time.
    event: usize,
    event_ms: i64,
}

impl PlayedGame {
    /// Replays `replay` (see the module doc). Never fails: events the state
    /// machine does not expect are ignored, as a game would ignore them.
    ///
    /// # Panics
    ///
    /// If `replay.mines` does not have `rows × cols` entries (every reader
    /// makes it so).
    pub fn from_replay(replay: &Replay) -> PlayedGame {
        assert_eq!(
            replay.mines.len(),
            replay.rows * replay.cols,
            "a replay's layout has one entry per cell"
        );
        let grid = replay.grid();
        let mines = replay.mine_count() as u32;
        let mut game = Game {
            replay,
            grid,
            mines,
            cells: vec![Cell::Unknown; grid.len()],
            flagged_once: vec![false; grid.len()],
            opened_safe: 0,
            safe: grid.len() - mines as usize,
            stage: Stage::Ready,
            mouse: Mouse::Idle,
            middle: false,
            pre_flags: 0,
            clicks: Clicks::default(),
            moves: Vec::new(),
            move_event_ms: Vec::new(),
            outcome: Outcome::Unfinished,
            start_ms: None,
            end_ms: None,
            event: 0,
            event_ms: 0,
        };
        let mut last_mouse_ms = None;
        for (k, e) in replay.events.iter().enumerate() {
            if e.kind.is_signal() {
                continue;
            }
            last_mouse_ms = Some(e.time_ms);
            if game.stage == Stage::Over {
                continue;
            }
            game.event = k;
            game.event_ms = e.time_ms;
            let Some(button) = game.button(e.kind) else {
                continue;
            };
            let cell = replay.event_cell(e);
            game.step(button, cell);
        }
        let start = game.start_ms;
        for (m, &t) in game.moves.iter_mut().zip(&game.move_event_ms) {
            m.time_ms = t - start.unwrap_or(0);
        }
        let time_ms = match (start, game.end_ms.or(last_mouse_ms)) {
            (Some(s), Some(e)) => (e - s).max(0) as u64,
            _ => 0,
        };
        let mut clicks = game.clicks;
        clicks.cl = clicks.left + clicks.right + clicks.double;
        clicks.ce = clicks.left_ce + clicks.right_ce + clicks.double_ce;
        PlayedGame {
            rows: replay.rows,
            cols: replay.cols,
            mines,
            moves: game.moves,
            outcome: game.outcome,
            time_ms,
            start_event_ms: start,
            clicks,
            end: Position {
                grid,
                cells: game.cells,
                total_mines: Some(mines),
            },
        }
    }

    /// Whether the game was won.
    pub fn won(&self) -> bool {
        matches!(self.outcome, Outcome::Won { .. })
    }
}

impl Game<'_> {
    /// The button event `kind` is in the current state (a toggle is a press
    /// or a release by the button's state); `None` for a move.
    fn button(&self, kind: EventKind) -> Option<Button> {
        let left_down = matches!(
            self.mouse,
            Mouse::Left { .. } | Mouse::Both { .. } | Mouse::LeftAfterChord
        );
        let right_down = matches!(self.mouse, Mouse::Right { .. } | Mouse::Both { .. });
        Some(match kind {
            EventKind::LeftPress => Button::LeftPress { shift: false },
            EventKind::ShiftLeftPress => Button::LeftPress { shift: true },
            EventKind::LeftRelease => Button::LeftRelease,
            EventKind::RightPress => Button::RightPress,
            EventKind::RightRelease => Button::RightRelease,
            EventKind::MiddlePress => Button::MiddlePress,
            EventKind::MiddleRelease => Button::MiddleRelease,
            EventKind::BothPress => Button::BothPress,
            EventKind::PreFlag => Button::PreFlag,
            EventKind::LeftToggle if left_down => Button::LeftRelease,
            EventKind::LeftToggle => Button::LeftPress { shift: false },
            EventKind::RightToggle if right_down => Button::RightRelease,
            EventKind::RightToggle => Button::RightPress,
            EventKind::MiddleToggle if self.middle => Button::MiddleRelease,
            EventKind::MiddleToggle => Button::MiddlePress,
            EventKind::Move
            | EventKind::Restart
            | EventKind::Win
            | EventKind::Fail
            | EventKind::Error => return None,
        })
    }

    fn index(&self, (r, c): (usize, usize)) -> usize {
        r * self.grid.w + c
    }

    /// One button event at `cell` (`None`: off the board).
    fn step(&mut self, button: Button, cell: Option<(usize, usize)>) {
        match self.stage {
            Stage::Over => {}
            Stage::Ready => self.step_ready(button, cell),
            Stage::PreFlagging => self.step_pre_flagging(button, cell),
            Stage::Playing => self.step_playing(button, cell),
        }
    }

    fn step_ready(&mut self, button: Button, cell: Option<(usize, usize)>) {
        match (button, self.mouse) {
            (Button::MiddlePress | Button::MiddleRelease, _) => {}
            (Button::LeftPress { shift }, Mouse::Idle) => {
                self.mouse = Mouse::Left { shift };
                if cell.is_some() {
                    self.stage = Stage::PreFlagging;
                }
            }
            (Button::LeftPress { .. }, Mouse::Right { on_open }) => {
                self.mouse = Mouse::Both {
                    right_on_open: on_open,
                }
            }
            (Button::LeftPress { .. }, _) => {}
            (Button::PreFlag, _) => self.pre_flag(cell),
            (Button::RightPress, Mouse::Idle) => {
                self.mouse = Mouse::Right { on_open: false };
                if let Some(cell) = cell {
                    self.pre_flags = 1;
                    self.stage = Stage::PreFlagging;
                    self.right_click(cell);
                }
            }
            (Button::RightPress, Mouse::LeftAfterChord) => {
                self.mouse = Mouse::Both {
                    right_on_open: false,
                }
            }
            (Button::RightPress, _) => self.step_playing(button, cell),
            (Button::LeftRelease, Mouse::Both { .. }) => {
                self.mouse = Mouse::Right { on_open: false }
            }
            (Button::LeftRelease, Mouse::LeftAfterChord | Mouse::Left { .. } | Mouse::Idle) => {
                self.mouse = Mouse::Idle
            }
            (Button::LeftRelease, _) => {}
            (Button::RightRelease, Mouse::Right { on_open: false }) => self.mouse = Mouse::Idle,
            (
                Button::RightRelease,
                Mouse::Both {
                    right_on_open: false,
                },
            ) => self.mouse = Mouse::LeftAfterChord,
            (Button::RightRelease, Mouse::Idle) => {}
            (Button::RightRelease, _) => self.step_playing(button, cell),
            (Button::BothPress, Mouse::Right { on_open }) => {
                self.mouse = Mouse::Both {
                    right_on_open: on_open,
                }
            }
            (Button::BothPress, Mouse::Both { .. }) => {}
            (Button::BothPress, _) => {
                self.mouse = Mouse::Both {
                    right_on_open: false,
                }
            }
        }
    }

    fn step_pre_flagging(&mut self, button: Button, cell: Option<(usize, usize)>) {
        match (button, self.mouse) {
            (Button::LeftPress { .. } | Button::RightRelease, _) => self.step_playing(button, cell),
            (Button::LeftRelease, Mouse::Left { shift }) => match cell {
                None => {
                    self.mouse = Mouse::Idle;
                    if self.pre_flags == 0 {
                        self.stage = Stage::Ready;
                        self.clear_counts();
                    } else {
                        self.clicks.left += 1;
                    }
                }
                Some(cell) if shift => {
                    self.mouse = Mouse::Idle;
                    self.chord(cell);
                }
                Some(cell) if self.cells[self.index(cell)] == Cell::Unknown => {
                    self.stage = Stage::Playing;
                    self.start_ms = Some(self.event_ms);
                    self.mouse = Mouse::Idle;
                    self.left_click(cell);
                }
                Some(cell) => {
                    // On a flag: a left click that opens nothing. The left
                    // button stays "down" for the state machine.
                    self.clicks.left += 1;
                    self.record(MoveKind::Open, cell, false, false);
                }
            },
            (Button::LeftRelease, _) => self.step_playing(button, cell),
            (Button::PreFlag, _) => self.pre_flag(cell),
            (Button::RightPress, Mouse::Idle) => match cell {
                Some(cell) => {
                    self.mouse = Mouse::Right { on_open: false };
                    let i = self.index(cell);
                    if self.cells[i] == Cell::Unknown {
                        self.pre_flags += 1;
                    } else {
                        self.pre_flags = self.pre_flags.saturating_sub(1);
                        if self.pre_flags == 0 {
                            // The last pre-flag removed: back to ready.
                            self.stage = Stage::Ready;
                            self.clear_counts();
                            self.record(MoveKind::Unflag, cell, true, false);
                            self.cells[i] = Cell::Unknown;
                            return;
                        }
                    }
                    self.right_click(cell);
                }
                None => {
                    self.mouse = Mouse::Right { on_open: true };
                    self.clicks.right += 1;
                }
            },
            (Button::RightPress, Mouse::Left { .. }) => {
                self.mouse = Mouse::Both {
                    right_on_open: false,
                };
                if cell.is_some() && self.pre_flags == 0 {
                    self.stage = Stage::Ready;
                }
            }
            (Button::RightPress, Mouse::LeftAfterChord) => {
                self.mouse = Mouse::Both {
                    right_on_open: false,
                }
            }
            (Button::RightPress, _) => {}
            (Button::BothPress, Mouse::Left { .. }) => {
                if cell.is_some() && self.pre_flags == 0 {
                    self.stage = Stage::Ready;
                }
                self.mouse = Mouse::Both {
                    right_on_open: false,
                };
            }
            (Button::BothPress, Mouse::LeftAfterChord) => {
                self.mouse = Mouse::Both {
                    right_on_open: false,
                }
            }
            (Button::BothPress, Mouse::Right { on_open }) => {
                self.mouse = Mouse::Both {
                    right_on_open: on_open,
                }
            }
            (Button::BothPress, _) => {}
            (Button::MiddlePress | Button::MiddleRelease, _) => self.step_playing(button, cell),
        }
    }

    fn step_playing(&mut self, button: Button, cell: Option<(usize, usize)>) {
        match (button, self.mouse) {
            (Button::LeftPress { shift }, Mouse::Idle) => self.mouse = Mouse::Left { shift },
            (Button::LeftPress { .. }, Mouse::Right { on_open }) => {
                self.mouse = Mouse::Both {
                    right_on_open: on_open,
                }
            }
            (Button::LeftPress { .. }, _) => {}
            (Button::LeftRelease, Mouse::Left { shift }) => {
                self.mouse = Mouse::Idle;
                match cell {
                    None => self.clicks.left += 1,
                    Some(cell) if shift => self.chord(cell),
                    Some(cell) => self.left_click(cell),
                }
            }
            (Button::LeftRelease, Mouse::Both { right_on_open }) => {
                self.mouse = Mouse::Right { on_open: false };
                self.release_chord(right_on_open, cell);
            }
            (Button::LeftRelease, Mouse::LeftAfterChord | Mouse::Idle) => self.mouse = Mouse::Idle,
            (Button::LeftRelease, Mouse::Right { .. }) => {}
            (Button::RightPress, Mouse::Idle) => match cell {
                Some(cell) => {
                    let on_open = matches!(self.cells[self.index(cell)], Cell::Revealed(_));
                    self.mouse = Mouse::Right { on_open };
                    self.right_click(cell);
                }
                None => {
                    self.mouse = Mouse::Right { on_open: true };
                    self.clicks.right += 1;
                }
            },
            (Button::RightPress, Mouse::Left { .. } | Mouse::LeftAfterChord) => {
                self.mouse = Mouse::Both {
                    right_on_open: false,
                }
            }
            (Button::RightPress, _) => {}
            (Button::RightRelease, Mouse::Right { .. }) => self.mouse = Mouse::Idle,
            (Button::RightRelease, Mouse::Both { right_on_open }) => {
                self.mouse = Mouse::LeftAfterChord;
                self.release_chord(right_on_open, cell);
            }
            (Button::RightRelease, _) => {}
            (Button::MiddlePress, _) => self.middle = true,
            (Button::MiddleRelease, _) => {
                self.middle = false;
                if let Some(cell) = cell {
                    self.chord(cell);
                }
            }
            (Button::BothPress, Mouse::Right { on_open }) => {
                self.mouse = Mouse::Both {
                    right_on_open: on_open,
                }
            }
            (Button::BothPress, Mouse::Left { .. } | Mouse::LeftAfterChord) => {
                self.mouse = Mouse::Both {
                    right_on_open: false,
                }
            }
            (Button::BothPress, _) => {}
            (Button::PreFlag, _) => {}
        }
    }

    /// The first button of a two-button press released: a chord on `cell`;
    /// a right press that flagged nothing no longer counts as a right click.
    fn release_chord(&mut self, right_on_open: bool, cell: Option<(usize, usize)>) {
        if right_on_open {
            self.clicks.right = self.clicks.right.saturating_sub(1);
        }
        if let Some(cell) = cell {
            self.chord(cell);
        }
    }

    /// A recorded pre-flag: a right click on a closed cell before the game.
    fn pre_flag(&mut self, cell: Option<(usize, usize)>) {
        let Some(cell) = cell else { return };
        if self.cells[self.index(cell)] != Cell::Unknown {
            return;
        }
        self.pre_flags += 1;
        self.stage = Stage::PreFlagging;
        self.right_click(cell);
    }

    /// Clears the counts on the return to the ready state, as ms_toollib
    /// does: left, right, double and flags, and which mines were flagged —
    /// but not the effective counts.
    fn clear_counts(&mut self) {
        self.clicks.left = 0;
        self.clicks.right = 0;
        self.clicks.double = 0;
        self.clicks.flags = 0;
        self.flagged_once.iter_mut().for_each(|f| *f = false);
    }

    /// Appends a move made by the current event, with the position before.
    fn record(&mut self, kind: MoveKind, cell: (usize, usize), effective: bool, ce: bool) {
        self.moves.push(Move {
            kind,
            cell,
            time_ms: 0,
            event: self.event,
            before: Position {
                grid: self.grid,
                cells: self.cells.clone(),
                total_mines: Some(self.mines),
            },
            effective,
            ce,
        });
        self.move_event_ms.push(self.event_ms);
    }

    fn left_click(&mut self, cell: (usize, usize)) {
        self.clicks.left += 1;
        let i = self.index(cell);
        if self.cells[i] != Cell::Unknown {
            self.record(MoveKind::Open, cell, false, false);
            return;
        }
        let mine = self.replay.mines[i];
        self.record(MoveKind::Open, cell, true, !mine);
        if mine {
            self.lose();
        } else {
            self.clicks.left_ce += 1;
            self.open(i);
            self.check_win();
        }
    }

    fn right_click(&mut self, cell: (usize, usize)) {
        self.clicks.right += 1;
        let i = self.index(cell);
        match self.cells[i] {
            Cell::Unknown => {
                let mine = self.replay.mines[i];
                let ce = mine && !self.flagged_once[i];
                self.record(MoveKind::Flag, cell, true, ce);
                if ce {
                    self.clicks.right_ce += 1;
                }
                if mine {
                    self.flagged_once[i] = true;
                }
                self.cells[i] = Cell::Mine;
                self.clicks.flags += 1;
            }
            Cell::Mine => {
                self.record(MoveKind::Unflag, cell, true, false);
                self.cells[i] = Cell::Unknown;
                self.clicks.flags = self.clicks.flags.saturating_sub(1);
            }
            Cell::Revealed(_) | Cell::Safe => {}
        }
    }

    fn chord(&mut self, cell: (usize, usize)) {
        self.clicks.double += 1;
        let i = self.index(cell);
        let number = match self.cells[i] {
            Cell::Revealed(n) if n < 8 => n,
            _ => {
                self.record(MoveKind::Chord, cell, false, false);
                return;
            }
        };
        let around = self.grid.neighbours(i as u32);
        let flags = around
            .iter()
            .filter(|&&n| self.cells[n as usize] == Cell::Mine)
            .count();
        let closed: Vec<u32> = around
            .iter()
            .copied()
            .filter(|&n| self.cells[n as usize] == Cell::Unknown)
            .collect();
        if flags != usize::from(number) || closed.is_empty() {
            self.record(MoveKind::Chord, cell, false, false);
            return;
        }
        self.record(MoveKind::Chord, cell, true, true);
        self.clicks.double_ce += 1;
        let hit = closed.iter().any(|&n| self.replay.mines[n as usize]);
        for &n in &closed {
            if !self.replay.mines[n as usize] {
                self.open(n as usize);
            }
        }
        if hit {
            self.lose();
        } else {
            self.check_win();
        }
    }

    /// Opens safe cell `i`, and every closed cell around each 0 it reaches
    /// (flags stay closed).
    fn open(&mut self, i: usize) {
        let mut stack = vec![i];
        while let Some(j) = stack.pop() {
            if self.cells[j] != Cell::Unknown {
                continue;
            }
            let n = self
                .grid
                .neighbours(j as u32)
                .iter()
                .filter(|&&n| self.replay.mines[n as usize])
                .count() as u8;
            self.cells[j] = Cell::Revealed(n);
            self.opened_safe += 1;
            if n == 0 {
                stack.extend(
                    self.grid
                        .neighbours(j as u32)
                        .iter()
                        .map(|&n| n as usize)
                        .filter(|&n| self.cells[n] == Cell::Unknown),
                );
            }
        }
    }

    fn lose(&mut self) {
        self.stage = Stage::Over;
        self.end_ms = Some(self.event_ms);
        self.outcome = Outcome::Lost {
            at_move: self.moves.len() - 1,
        };
    }

    fn check_win(&mut self) {
        if self.opened_safe == self.safe {
            self.stage = Stage::Over;
            self.end_ms = Some(self.event_ms);
            self.outcome = Outcome::Won {
                at_move: self.moves.len() - 1,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::replay::{ReplayEvent, ReplayFormat, ReplayHeader};

    const PX: i32 = 16;

    /// A replay of `board` (rows of `*` and `.`) with `events`: a code and a
    /// cell (`None` off the board), 10 ms apart.
    fn replay(board: &[&str], events: &[(&str, Option<(usize, usize)>)]) -> Replay {
        let (rows, cols) = (board.len(), board[0].len());
        let mines = board
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '*'))
            .collect();
        let events = events
            .iter()
            .enumerate()
            .map(|(k, &(code, cell))| {
                let kind = EventKind::from_code(code).unwrap();
                let (x, y) = match cell {
                    Some((r, c)) => (c as i32 * PX + 3, r as i32 * PX + 5),
                    None => (-4, 7),
                };
                ReplayEvent {
                    time_ms: 10 * k as i64,
                    kind,
                    x,
                    y,
                }
            })
            .collect();
        Replay {
            format: ReplayFormat::Evf,
            version: "4".into(),
            rows,
            cols,
            mines,
            cell_px: PX as u16,
            events,
            header: ReplayHeader::default(),
        }
    }

    fn counts(g: &PlayedGame) -> [u32; 7] {
        let c = g.clicks;
        [
            c.left,
            c.right,
            c.double,
            c.left_ce,
            c.right_ce,
            c.double_ce,
            c.flags,
        ]
    }

    fn kinds(g: &PlayedGame) -> Vec<(&'static str, (usize, usize), bool)> {
        g.moves
            .iter()
            .map(|m| (m.kind.name(), m.cell, m.effective))
            .collect()
    }

    // The board of most tests:
    //   * 1 0
    //   1 1 0
    // A click on (0,2) opens the zeros and their numbers, all but (1,0).
    const B: [&str; 2] = ["*..", "..."];
    const A: Option<(usize, usize)> = Some((0, 0));
    const Z: Option<(usize, usize)> = Some((0, 2));
    const N: Option<(usize, usize)> = Some((1, 1));
    const L: Option<(usize, usize)> = Some((1, 0));

    #[test]
    fn a_flag_and_a_chord_win_with_three_effective_clicks() {
        let r = replay(
            &B,
            &[
                ("lc", Z),
                ("lr", Z),
                ("rc", A),
                ("rr", A),
                ("lc", N),
                ("rc", N),
                ("lr", N),
                ("rr", N),
            ],
        );
        let g = PlayedGame::from_replay(&r);
        assert_eq!(counts(&g), [1, 1, 1, 1, 1, 1, 1]);
        assert_eq!((g.clicks.cl, g.clicks.ce), (3, 3));
        assert_eq!(
            kinds(&g),
            [
                ("open", (0, 2), true),
                ("flag", (0, 0), true),
                ("chord", (1, 1), true)
            ]
        );
        assert_eq!(g.outcome, Outcome::Won { at_move: 2 });
        // The timer starts at the first release (10 ms) and stops at the
        // chord's first release (60 ms).
        assert_eq!(g.start_event_ms, Some(10));
        assert_eq!(g.time_ms, 50);
        assert_eq!(
            g.moves.iter().map(|m| m.time_ms).collect::<Vec<_>>(),
            [0, 10, 50]
        );
        // What the player saw before the chord.
        assert_eq!(
            g.moves[2].before.to_string(),
            "mines 1\nF1.\n?1.\n",
            "{}",
            g.moves[2].before
        );
        assert_eq!(g.moves[0].before.to_string(), "mines 1\n???\n???\n");
    }

    #[test]
    fn a_right_press_that_flags_then_joins_a_chord_is_a_right_and_a_double() {
        // The "1.5 click": flag (0,0) with the right button, press the left,
        // slide to (1,1), release the right.
        let r = replay(
            &B,
            &[
                ("lc", Z),
                ("lr", Z),
                ("rc", A),
                ("lc", A),
                ("mv", N),
                ("rr", N),
                ("lr", N),
            ],
        );
        let g = PlayedGame::from_replay(&r);
        assert_eq!(counts(&g), [1, 1, 1, 1, 1, 1, 1]);
        assert!(g.won());
    }

    #[test]
    fn a_right_press_on_an_open_cell_that_becomes_a_chord_is_not_a_right_click() {
        let r = replay(
            &B,
            &[
                ("lc", Z),
                ("lr", Z),
                ("rc", N), // on an open number: no flag
                ("lc", N),
                ("lr", N), // chord: 0 flags around a 1, nothing opens
                ("rr", N),
                ("rc", N), // alone: a right click that does nothing
                ("rr", N),
            ],
        );
        let g = PlayedGame::from_replay(&r);
        assert_eq!(counts(&g), [1, 1, 1, 1, 0, 0, 0]);
        assert_eq!(
            kinds(&g),
            [("open", (0, 2), true), ("chord", (1, 1), false)]
        );
        assert_eq!(g.outcome, Outcome::Unfinished);
        assert_eq!(g.time_ms, 60, "to the last mouse event");
    }

    #[test]
    fn clicks_off_the_board_count_but_are_not_moves() {
        let r = replay(
            &B,
            &[
                ("lc", Z),
                ("lr", Z),
                ("lc", None),
                ("lr", None),
                ("rc", None),
                ("rr", None),
                ("lc", N),
                ("rc", N),
                ("lr", None), // a chord released off the board: nothing
                ("rr", None),
                ("lc", Z), // an open cell
                ("lr", Z),
            ],
        );
        let g = PlayedGame::from_replay(&r);
        assert_eq!(counts(&g), [3, 1, 0, 1, 0, 0, 0]);
        assert_eq!(kinds(&g), [("open", (0, 2), true), ("open", (0, 2), false)]);
    }

    #[test]
    fn a_chord_opening_a_mine_loses_and_counts_as_effective() {
        let r = replay(
            &B,
            &[
                ("lc", Z),
                ("lr", Z),
                ("rc", L), // a wrong flag
                ("rr", L),
                ("mc", N),
                ("mr", N), // chord: 1 flag around the 1, opens the mine
                ("lc", Z), // after the end: not counted
                ("lr", Z),
            ],
        );
        let g = PlayedGame::from_replay(&r);
        assert_eq!(counts(&g), [1, 1, 1, 1, 0, 1, 1]);
        assert_eq!(g.outcome, Outcome::Lost { at_move: 2 });
        assert_eq!(g.time_ms, 40);
    }

    #[test]
    fn a_left_click_on_a_mine_loses_and_is_not_effective() {
        let r = replay(&B, &[("lc", Z), ("lr", Z), ("lc", A), ("lr", A)]);
        let g = PlayedGame::from_replay(&r);
        assert_eq!(counts(&g), [2, 0, 0, 1, 0, 0, 0]);
        assert_eq!(g.outcome, Outcome::Lost { at_move: 1 });
        assert!(g.moves[1].effective && !g.moves[1].ce);
    }

    #[test]
    fn re_flagging_a_mine_and_flagging_a_safe_cell_are_not_effective() {
        let r = replay(
            &B,
            &[
                ("lc", Z),
                ("lr", Z),
                ("rc", A),
                ("rr", A),
                ("rc", A),
                ("rr", A),
                ("rc", A),
                ("rr", A),
                ("rc", L),
                ("rr", L),
            ],
        );
        let g = PlayedGame::from_replay(&r);
        assert_eq!(counts(&g), [1, 4, 0, 1, 1, 0, 2]);
        let flags: Vec<_> = g.moves.iter().map(|m| (m.kind.name(), m.ce)).collect();
        assert_eq!(
            flags,
            [
                ("open", true),
                ("flag", true),
                ("unflag", false),
                ("flag", false),
                ("flag", false)
            ]
        );
    }

    #[test]
    fn pre_flags_count_and_removing_the_last_one_starts_over() {
        let r = replay(
            &B,
            &[
                ("pf", A),
                ("rc", L), // a second flag before the start
                ("rr", L),
                ("rc", L), // removed
                ("rr", L),
                ("rc", A), // the last removed: back to ready, counts cleared
                ("rr", A),
                ("lc", Z),
                ("lr", Z),
            ],
        );
        let g = PlayedGame::from_replay(&r);
        assert_eq!(counts(&g), [1, 0, 0, 1, 1, 0, 0]);
        assert_eq!(
            kinds(&g),
            [
                ("flag", (0, 0), true),
                ("flag", (1, 0), true),
                ("unflag", (1, 0), true),
                ("unflag", (0, 0), true),
                ("open", (0, 2), true)
            ]
        );
        // Moves before the start have times of 0 or less.
        assert_eq!(g.moves[0].time_ms, -80);
        assert_eq!(g.moves[4].time_ms, 0);
    }

    #[test]
    fn a_left_release_on_a_pre_flag_or_off_the_board_does_not_start_the_game() {
        let r = replay(
            &B,
            &[
                ("rc", A),
                ("rr", A),
                ("lc", A),
                ("lr", A), // on the flag: a left click, no start
                ("lc", None),
                ("lr", None),
                ("lc", Z),
                ("lr", Z),
            ],
        );
        let g = PlayedGame::from_replay(&r);
        assert_eq!(g.start_event_ms, Some(70));
        // The left button stays "down" after the release on the flag, so the
        // press off the board changes nothing and its release is the second
        // left click before the start; the third starts the game.
        assert_eq!(counts(&g), [3, 1, 0, 1, 1, 0, 1]);
        // With nothing flagged, a left release off the board starts over.
        let r = replay(&B, &[("lc", Z), ("lr", None), ("lc", Z), ("lr", Z)]);
        let g = PlayedGame::from_replay(&r);
        assert_eq!(counts(&g), [1, 0, 0, 1, 0, 0, 0]);
    }

    #[test]
    fn a_first_click_that_opens_every_safe_cell_wins_at_time_zero() {
        let r = replay(&["*..", "..."], &[("lc", L), ("lr", L)]);
        let g = PlayedGame::from_replay(&r);
        assert_eq!(g.outcome, Outcome::Unfinished, "(1,0) is a 1: one cell");
        let r = replay(
            &["*...", "....", "...."],
            &[("lc", Some((2, 3))), ("lr", Some((2, 3)))],
        );
        let g = PlayedGame::from_replay(&r);
        assert_eq!(g.outcome, Outcome::Won { at_move: 0 });
        assert_eq!(g.time_ms, 0);
    }

    #[test]
    fn toggles_and_shift_presses_play_as_presses_and_releases() {
        let r = replay(
            &B,
            &[("l", Z), ("l", Z), ("r", A), ("r", A), ("sc", N), ("lr", N)],
        );
        let g = PlayedGame::from_replay(&r);
        assert_eq!(counts(&g), [1, 1, 1, 1, 1, 1, 1]);
        assert!(g.won());
        let r = replay(
            &B,
            &[
                ("lc", Z),
                ("lr", Z),
                ("rc", A),
                ("rr", A),
                ("m", N),
                ("m", N),
            ],
        );
        assert!(PlayedGame::from_replay(&r).won());
    }

    #[test]
    fn events_a_game_would_not_expect_are_ignored() {
        let r = replay(
            &B,
            &[
                ("cc", Z), // both down with nothing pressed: both down
                ("lr", Z),
                ("rr", Z),
                ("lc", Z),
                ("lr", Z),
                ("pf", A), // after the start
                ("mr", None),
                ("cc", Z), // nothing down
            ],
        );
        let g = PlayedGame::from_replay(&r);
        assert_eq!(g.moves.len(), 1);
        assert_eq!(counts(&g), [1, 0, 0, 1, 0, 0, 0]);
    }

    #[test]
    fn a_game_with_no_events_never_starts() {
        let g = PlayedGame::from_replay(&replay(&B, &[]));
        assert_eq!(
            (g.outcome, g.time_ms, g.start_event_ms, g.moves.len()),
            (Outcome::Unfinished, 0, None, 0)
        );
    }
}
