//! Reviewing games people played: [`played`] replays a recorded game's
//! mouse events ([`crate::formats::replay::Replay`]) into the moves the
//! player made, the position they saw before each, the click counts and the
//! outcome.

pub mod played;
pub mod proof;
pub mod verdict;

pub use played::{Clicks, Move, MoveKind, Outcome, PlayedGame};
pub use proof::Proof;
pub use verdict::{JudgedMove, Verdict, Verdicts, Why};

use crate::formats::replay::Replay;
use crate::metrics::{Metrics, Units};
use crate::{Engine, Error, Field, Grid};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

/// A recorded game reviewed ([`Engine::review`]): the board's metrics, the
/// game's clicks and time, and every move judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// Mines on the board.
    pub mines: u32,
    /// Whether every safe cell was opened.
    pub won: bool,
    /// How the game ended.
    pub outcome: Outcome,
    /// The game's time on its timer, milliseconds (ms_toollib's `rtime`).
    pub time_ms: u64,
    /// The layout's metrics: 3BV, openings, islands, ZiNi, numbers.
    pub metrics: Metrics,
    /// 3BV units done at the end ([`Units::solved`]).
    pub bbbv_solved: u32,
    /// The clicks as the community counts them.
    pub clicks: Clicks,
    /// Every move judged, and the game's guesses, risk and luck.
    pub verdicts: Verdicts,
}

impl Review {
    /// Whether the game was lost.
    pub fn lost(&self) -> bool {
        matches!(self.outcome, Outcome::Lost { .. })
    }

    fn seconds(&self) -> f64 {
        self.time_ms as f64 / 1000.0
    }

    /// 3BV solved per second of the timer (∞ at 0 s with some solved).
    pub fn bbbv_per_s(&self) -> f64 {
        f64::from(self.bbbv_solved) / self.seconds()
    }

    /// Efficiency: 3BV solved per click (`cl`).
    pub fn ioe(&self) -> f64 {
        f64::from(self.bbbv_solved) / f64::from(self.clicks.cl)
    }

    /// Effective clicks per click: `ce / cl`.
    pub fn correctness(&self) -> f64 {
        f64::from(self.clicks.ce) / f64::from(self.clicks.cl)
    }

    /// 3BV solved per effective click.
    pub fn throughput(&self) -> f64 {
        f64::from(self.bbbv_solved) / f64::from(self.clicks.ce)
    }

    /// `time² / 3BV solved` (∞ with nothing solved).
    pub fn rqp(&self) -> f64 {
        if self.bbbv_solved == 0 {
            return f64::INFINITY;
        }
        self.seconds().powi(2) / f64::from(self.bbbv_solved)
    }

    /// STNB, on the three levels it is defined for (8×8/10, 16×16/40,
    /// 16×30/99, as ms_toollib defines it): `c · solved / time^1.7 ·
    /// √(solved / 3BV)`; `None` on other boards.
    pub fn stnb(&self) -> Option<f64> {
        let c = match (self.rows, self.cols, self.mines) {
            (8, 8, 10) => 36.0,
            (16, 16, 40) => 162.0,
            (16, 30, 99) => 435.0,
            _ => return None,
        };
        if self.bbbv_solved == 0 {
            return Some(0.0);
        }
        let solved = f64::from(self.bbbv_solved);
        Some(c * solved / self.seconds().powf(1.7) * (solved / f64::from(self.metrics.bbbv)).sqrt())
    }
}

/// `{"rows", "cols", "mines", "won", "time", "bbbv", "bbbv_solved",
/// "bbbv_per_s", "openings", "islands", "left", "right", "double", "cl",
/// "ce", "ioe", "guesses", "needless_guesses", "luck", "risk",
/// "least_risk", "correctness", "throughput", "rqp", "stnb", "zini",
/// "flags", "clicks": [...]}` (a ratio over zero is `null`).
impl Serialize for Review {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let finite = |x: f64| x.is_finite().then_some(x);
        let (c, v) = (&self.clicks, &self.verdicts);
        let mut st = s.serialize_struct("Review", 28)?;
        st.serialize_field("rows", &self.rows)?;
        st.serialize_field("cols", &self.cols)?;
        st.serialize_field("mines", &self.mines)?;
        st.serialize_field("won", &self.won)?;
        st.serialize_field("time", &self.seconds())?;
        st.serialize_field("bbbv", &self.metrics.bbbv)?;
        st.serialize_field("bbbv_solved", &self.bbbv_solved)?;
        st.serialize_field("bbbv_per_s", &finite(self.bbbv_per_s()))?;
        st.serialize_field("openings", &self.metrics.openings)?;
        st.serialize_field("islands", &self.metrics.islands)?;
        st.serialize_field("left", &c.left)?;
        st.serialize_field("right", &c.right)?;
        st.serialize_field("double", &c.double)?;
        st.serialize_field("cl", &c.cl)?;
        st.serialize_field("ce", &c.ce)?;
        st.serialize_field("ioe", &finite(self.ioe()))?;
        st.serialize_field("guesses", &v.guesses)?;
        st.serialize_field("needless_guesses", &v.needless_guesses)?;
        st.serialize_field("luck", &v.luck)?;
        st.serialize_field("risk", &v.risk)?;
        st.serialize_field("least_risk", &v.least_risk)?;
        st.serialize_field("correctness", &finite(self.correctness()))?;
        st.serialize_field("throughput", &finite(self.throughput()))?;
        st.serialize_field("rqp", &finite(self.rqp()))?;
        st.serialize_field("stnb", &self.stnb().and_then(finite))?;
        st.serialize_field("zini", &self.metrics.zini)?;
        st.serialize_field("flags", &c.flags)?;
        st.serialize_field("clicks", &v.moves)?;
        st.end()
    }
}

/// A recorded game as data, without judging it: the replay's content
/// ([`Replay`]'s serialisation, see [`crate::formats::replay`]) and the
/// outcome and time of the game its events play. What Python's
/// `sapper.read_replay` returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayReport<'a> {
    /// The replay.
    pub replay: &'a Replay,
    /// How the game its events play ended.
    pub outcome: Outcome,
    /// That game's time on its timer, milliseconds.
    pub time_ms: u64,
}

impl<'a> ReplayReport<'a> {
    /// `replay`, its events played ([`PlayedGame::from_replay`]).
    pub fn new(replay: &'a Replay) -> ReplayReport<'a> {
        let game = PlayedGame::from_replay(replay);
        ReplayReport {
            replay,
            outcome: game.outcome,
            time_ms: game.time_ms,
        }
    }
}

/// The replay's fields, then `"outcome"` ([`Outcome::name`]) and `"time"`
/// (seconds on the game's timer).
impl Serialize for ReplayReport<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("ReplayReport", 11)?;
        self.replay.serialize_fields(&mut st)?;
        st.serialize_field("outcome", self.outcome.name())?;
        st.serialize_field("time", &(self.time_ms as f64 / 1000.0))?;
        st.end()
    }
}

impl Engine {
    /// Reviews a recorded game: its moves replayed
    /// ([`PlayedGame::from_replay`]), each judged on the position the
    /// player saw ([`verdict`]), with the board's metrics.
    pub fn review(&self, replay: &Replay) -> Result<Review, Error> {
        let game = PlayedGame::from_replay(replay);
        self.review_played(&game, &replay.mines)
    }

    /// [`Engine::review`] of a game already replayed, on its layout
    /// `mines` (row-major, one entry per cell).
    pub fn review_played(&self, game: &PlayedGame, mines: &[bool]) -> Result<Review, Error> {
        let grid = Grid::new(game.rows, game.cols);
        if mines.len() != grid.len() {
            return Err(crate::InputError::new(format!(
                "a layout of {} cells for a {}×{} game",
                mines.len(),
                game.rows,
                game.cols
            ))
            .into());
        }
        let field = Field::from_mines(grid, mines.to_vec(), vec![false; grid.len()]);
        let units = Units::new(&field);
        let revealed: Vec<bool> = game
            .end
            .cells
            .iter()
            .map(|c| matches!(c, crate::Cell::Revealed(_)))
            .collect();
        Ok(Review {
            rows: game.rows,
            cols: game.cols,
            mines: game.mines,
            won: game.won(),
            outcome: game.outcome,
            time_ms: game.time_ms,
            metrics: Metrics::of(&field),
            bbbv_solved: units.solved(&revealed),
            clicks: game.clicks,
            verdicts: verdict::judge(self, game, mines)?,
        })
    }
}
