//! One verdict per move of a played game: what the player knew, what was
//! proven, and the risk taken.
//!
//! Each move is judged on the position the player saw before it, with the
//! board's mine total; the player's flags are shown but not trusted (they
//! may be wrong), so a flagged cell counts as closed. On that position the
//! engine's complete analysis says which closed cells are forced, and the
//! exact count gives every closed cell's mine probability.
//!
//! | move | verdict |
//! |---|---|
//! | the first opening click | `safe`, source `first_click`: the game protects it |
//! | an opening click on a forced-safe cell, a chord whose every cell is forced safe | `safe`, with what proved it (and, for a rule, the pattern: [`super::proof`]) |
//! | any other opening click or chord that survives | `guess`: its mine probability, the least on the board, `needless` when a forced-safe cell existed |
//! | one that hits a mine | `lost`, with the chance it had |
//! | a flag (placed or removed) on a forced mine | `proven_mine`, with what proved it |
//! | any other flag | `unproven_flag`, with the cell's probability |
//!
//! A chord's probability is that of any cell it opens being a mine: one
//! minus the share of layouts in which all of them are safe, both counts
//! exact. Clicks that change nothing (on an open cell, a chord with
//! nothing to open) get no verdict.

use super::played::{Move, MoveKind, Outcome, PlayedGame};
use super::proof::{self, Proof};
use crate::board::{Board, Cell, Position, Source, Value};
use crate::error::Error;
use crate::report::RowCol;
use crate::solver::Analysis;
use crate::{Counter, Engine};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

/// What a move was, judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// It opened only cells proven safe (or it was the protected first
    /// click).
    Safe,
    /// It opened a cell not proven safe, and survived.
    Guess,
    /// It opened a mine.
    Lost,
    /// A flag placed on (or removed from) a cell proven a mine.
    ProvenMine,
    /// A flag placed on (or removed from) a cell not proven a mine.
    UnprovenFlag,
}

impl Verdict {
    /// `safe`, `guess`, `lost`, `proven_mine` or `unproven_flag`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Safe => "safe",
            Verdict::Guess => "guess",
            Verdict::Lost => "lost",
            Verdict::ProvenMine => "proven_mine",
            Verdict::UnprovenFlag => "unproven_flag",
        }
    }
}

/// Why a cell was known: the game's protection of the first click, or
/// the rule order or method that proved it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The first click: the game does not put a mine there.
    FirstClick,
    /// A deduction of the engine's analysis.
    Proven(Source),
}

impl Why {
    /// `first_click`, `rules`, or the method's name.
    pub fn name(self) -> &'static str {
        match self {
            Why::FirstClick => "first_click",
            Why::Proven(s) => s.name(),
        }
    }
}

/// One move, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedMove {
    /// Milliseconds on the game's timer.
    pub time_ms: i64,
    /// What the player did.
    pub kind: MoveKind,
    /// Where.
    pub cell: RowCol,
    /// What the player saw before it: flags as placed.
    pub position: Position,
    /// The verdict.
    pub verdict: Verdict,
    /// The chance, given the position (flags as closed cells) and the
    /// board's total, that the cell — for a chord, any cell it opens — is
    /// a mine.
    pub p_mine: f64,
    /// The least mine probability of any closed cell then (for the moves
    /// that open cells).
    pub best_p_mine: Option<f64>,
    /// A guess taken while a cell was proven safe.
    pub needless: bool,
    /// What made a safe cell or a mine known.
    pub why: Option<Why>,
    /// For a cell proven by a rule: the pattern.
    pub proof: Option<Proof>,
}

/// A played game, judged move by move ([`Engine::review`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Verdicts {
    /// Every move that changed the board or placed a flag, judged.
    pub moves: Vec<JudgedMove>,
    /// Opening moves that were guesses (the one that lost included, unless
    /// it opened a proven mine).
    pub guesses: u32,
    /// Guesses taken while a cell was proven safe.
    pub needless_guesses: u32,
    /// The chance that every guess survives: the product of their survival
    /// chances (1 with no guess).
    pub luck: f64,
    /// The sum of the guesses' mine probabilities.
    pub risk: f64,
    /// The sum of the least probability on the board at each guess: what
    /// the same number of guesses would have risked at best.
    pub least_risk: f64,
}

impl Serialize for JudgedMove {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("JudgedMove", 10)?;
        st.serialize_field("t", &(self.time_ms as f64 / 1000.0))?;
        st.serialize_field("action", self.kind.name())?;
        st.serialize_field("cell", &self.cell)?;
        st.serialize_field("position", &rows(&self.position))?;
        st.serialize_field("verdict", self.verdict.name())?;
        st.serialize_field("p_mine", &self.p_mine)?;
        st.serialize_field("best_p_mine", &self.best_p_mine)?;
        st.serialize_field("needless", &self.needless)?;
        st.serialize_field("source", &self.why.map(Why::name))?;
        st.serialize_field("proof", &self.proof)?;
        st.end()
    }
}

/// The rows of `position` as its text shows them (cells only).
pub fn rows(position: &Position) -> Vec<String> {
    let w = position.grid.w.max(1);
    position
        .cells
        .chunks(w)
        .map(|row| {
            row.iter()
                .map(|&c| crate::formats::position::cell_char(c))
                .collect()
        })
        .collect()
}

/// What the engine knows of one position the player saw.
struct Knowledge {
    /// The position with flags as closed cells.
    board: Board,
    analysis: Analysis,
    /// Each cell's mine probability (NaN off the closed cells).
    per_cell: Vec<f64>,
    least: f64,
    /// `log10` of the position's layout weight.
    log10_weight: f64,
}

/// Judges every move of `game`, played on the layout `mines` (row-major).
pub fn judge(engine: &Engine, game: &PlayedGame, mines: &[bool]) -> Result<Verdicts, Error> {
    let mut counter = engine.counter();
    let mut known: Option<Knowledge> = None;
    let mut out = Verdicts {
        moves: Vec::new(),
        guesses: 0,
        needless_guesses: 0,
        luck: 1.0,
        risk: 0.0,
        least_risk: 0.0,
    };
    let mut started = false;
    for (k, m) in game.moves.iter().enumerate() {
        let grid = m.before.grid;
        let cell = grid.index(m.cell.0, m.cell.1);
        let lost_here = matches!(game.outcome, Outcome::Lost { at_move } if at_move == k);
        let opens: Vec<u32> = match m.kind {
            MoveKind::Open if m.effective && m.before.cells[cell as usize].is_unknown() => {
                vec![cell]
            }
            MoveKind::Chord if m.effective => grid
                .neighbours(cell)
                .iter()
                .copied()
                .filter(|&n| m.before.cells[n as usize].is_unknown())
                .collect(),
            MoveKind::Flag | MoveKind::Unflag => Vec::new(),
            _ => continue,
        };
        if matches!(m.kind, MoveKind::Open | MoveKind::Chord) && opens.is_empty() {
            continue;
        }
        let judged_move = |verdict, p_mine, best, why, proof| JudgedMove {
            time_ms: m.time_ms,
            kind: m.kind,
            cell: m.cell.into(),
            position: m.before.clone(),
            verdict,
            p_mine,
            best_p_mine: best,
            needless: false,
            why,
            proof,
        };
        // The first cell opened: the game keeps mines off it.
        if !started && !opens.is_empty() {
            started = true;
            if !mines[cell as usize] {
                out.moves.push(judged_move(
                    Verdict::Safe,
                    0.0,
                    None,
                    Some(Why::FirstClick),
                    None,
                ));
                continue;
            }
        }
        let view = unflagged(&m.before);
        let stale = known
            .as_ref()
            .is_none_or(|k| k.board.cells() != view.cells.as_slice());
        // Cells only open as a game goes on, so what an earlier position
        // proved still holds: a move on cells it proved (safe cells
        // opened, a mine flagged) is judged from it, the pattern found on
        // the position the player saw.
        if stale {
            if let Some(earlier) = known.as_ref() {
                if let Some(judged) = still_proven(earlier, &view, m, &opens, mines) {
                    out.moves.push(judged);
                    continue;
                }
            }
            known = Some(know(engine, &mut counter, &view)?);
        }
        let know = known.as_ref().expect("known");
        let forced = |c: u32| {
            know.analysis
                .deductions
                .iter()
                .find(|d| d.cell == c)
                .map(|d| (d.value, d.source))
        };
        if opens.is_empty() {
            // A flag placed or removed.
            let p = know.per_cell[cell as usize];
            let judged = match forced(cell) {
                Some((Value::Mine, source)) => judged_move(
                    Verdict::ProvenMine,
                    p,
                    None,
                    Some(Why::Proven(source)),
                    rule_proof(&know.board, know, &[cell], Value::Mine, source),
                ),
                _ => judged_move(Verdict::UnprovenFlag, p, None, None, None),
            };
            out.moves.push(judged);
            continue;
        }
        let p = if let [one] = opens.as_slice() {
            know.per_cell[*one as usize]
        } else {
            any_mine(&mut counter, know, &opens)?
        };
        let best = Some(know.least);
        let sources: Vec<Option<(Value, Source)>> = opens.iter().map(|&c| forced(c)).collect();
        let all_safe = sources.iter().all(|s| matches!(s, Some((Value::Safe, _))));
        let hit = opens.iter().any(|&c| mines[c as usize]) || lost_here;
        let mut judged = if all_safe && !hit {
            // The strongest proof among them: a method over any rule, a
            // higher order over a lower one.
            let source = sources
                .iter()
                .filter_map(|s| s.map(|(_, source)| source))
                .max_by_key(|s| match s {
                    Source::Rule { order } => i32::from(*order),
                    Source::Method(_) => 100,
                })
                .expect("a chord opens a cell");
            let proof = rule_proof(&know.board, know, &opens, Value::Safe, source);
            judged_move(Verdict::Safe, p, best, Some(Why::Proven(source)), proof)
        } else {
            let verdict = if hit { Verdict::Lost } else { Verdict::Guess };
            judged_move(verdict, p, best, None, None)
        };
        // A guess: not proven safe, and not a proven mine either.
        if judged.verdict != Verdict::Safe && p < 1.0 {
            out.guesses += 1;
            out.luck *= 1.0 - p;
            out.risk += p;
            out.least_risk += know.least;
            if know.least == 0.0 {
                judged.needless = true;
                out.needless_guesses += 1;
            }
        }
        out.moves.push(judged);
    }
    Ok(out)
}

/// `position` with its flags as closed cells.
fn unflagged(position: &Position) -> Position {
    let mut view = position.clone();
    for c in &mut view.cells {
        if *c == Cell::Mine {
            *c = Cell::Unknown;
        }
    }
    view
}

/// The analysis and the probabilities of `view`.
fn know(engine: &Engine, counter: &mut Counter, view: &Position) -> Result<Knowledge, Error> {
    let analysis = engine.analyse(view)?;
    let board = Board::from_position(view);
    let p = counter.compute(&board, None)?;
    Ok(Knowledge {
        per_cell: p.per_cell().to_vec(),
        least: p.least().unwrap_or(0.0),
        log10_weight: p.log10_weight(),
        analysis,
        board,
    })
}

/// The chance that any of `cells` is a mine: one minus the share of the
/// position's layouts in which all of them are safe.
fn any_mine(counter: &mut Counter, know: &Knowledge, cells: &[u32]) -> Result<f64, Error> {
    if cells.iter().any(|&c| know.per_cell[c as usize] == 1.0) {
        return Ok(1.0);
    }
    let mut board = know.board.clone();
    for &c in cells {
        board.set(c, Cell::Safe);
    }
    match counter.compute(&board, None) {
        Ok(p) => Ok((1.0 - 10f64.powf(p.log10_weight() - know.log10_weight)).clamp(0.0, 1.0)),
        // No layout has them all safe.
        Err(Error::Contradiction { .. }) => Ok(1.0),
        Err(e) => Err(e),
    }
}

/// The pattern of a rule's deduction of `cells` (one, or the cells a chord
/// opens) in `know`, on `board` (the position analysed, or a later one)
/// with the cells the analysis had proven before the first of them known.
fn rule_proof(
    board: &Board,
    know: &Knowledge,
    cells: &[u32],
    value: Value,
    source: Source,
) -> Option<Proof> {
    if !matches!(source, Source::Rule { .. }) {
        return None;
    }
    let mut board = board.clone();
    for d in &know.analysis.deductions {
        if cells.contains(&d.cell) {
            break;
        }
        if board.cells()[d.cell as usize].is_unknown() {
            board.set(d.cell, Cell::known(d.value));
        }
    }
    proof::find_all(&board, cells, value)
}

/// `m` judged from `earlier`, the knowledge of an earlier position of the
/// game, if `earlier` proved every cell it opens safe (none of them a
/// mine) or the cell it flags a mine: `None` otherwise. Its probability is
/// then 0 (or 1), and so is the least on the board for an opening.
fn still_proven(
    earlier: &Knowledge,
    view: &Position,
    m: &Move,
    opens: &[u32],
    mines: &[bool],
) -> Option<JudgedMove> {
    let proven = |c: u32, value: Value| {
        earlier
            .analysis
            .deductions
            .iter()
            .find(|d| d.cell == c && d.value == value)
            .map(|d| d.source)
    };
    let grid = view.grid;
    let cell = grid.index(m.cell.0, m.cell.1);
    let (verdict, p, best, value, source) = if opens.is_empty() {
        if m.kind != MoveKind::Flag && m.kind != MoveKind::Unflag {
            return None;
        }
        let source = proven(cell, Value::Mine)?;
        (Verdict::ProvenMine, 1.0, None, Value::Mine, source)
    } else {
        if opens.iter().any(|&c| mines[c as usize]) {
            return None;
        }
        let sources: Option<Vec<Source>> = opens.iter().map(|&c| proven(c, Value::Safe)).collect();
        let source = sources?.into_iter().max_by_key(|s| match s {
            Source::Rule { order } => i32::from(*order),
            Source::Method(_) => 100,
        })?;
        (Verdict::Safe, 0.0, Some(0.0), Value::Safe, source)
    };
    let proven = if opens.is_empty() { &[cell][..] } else { opens };
    let proof = rule_proof(&Board::from_position(view), earlier, proven, value, source);
    Some(JudgedMove {
        time_ms: m.time_ms,
        kind: m.kind,
        cell: m.cell.into(),
        position: m.before.clone(),
        verdict,
        p_mine: p,
        best_p_mine: best,
        needless: false,
        why: Some(Why::Proven(source)),
        proof,
    })
}
