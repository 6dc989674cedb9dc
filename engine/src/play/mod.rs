//! Whole games: deductions where they exist, the best guess where they do
//! not.
//!
//! # The player sees what a player sees
//!
//! A [`Player`] is asked for its next move with the [`Board`] a human
//! would see — numbers, closed cells, the total — and nothing else; the
//! layout stays inside [`Game`], which only answers "what did opening this
//! cell show". [`play_game`] is the referee: it draws the layout, makes
//! the first click, and passes positions to the player until the game is
//! won or lost.
//!
//! # The sapper player
//!
//! Each move: the solver analyses the position to its fixpoint (rules
//! first, then the four methods — every forced cell); if any cell is proven
//! safe, all of them are opened. Only when nothing is forced does it guess,
//! from the exact mine probabilities of the position with the proven mines
//! flagged ([`crate::probabilities`]):
//!
//! - [`Policy::LeastProbability`]: the closed cell least likely to be a
//!   mine (the first in cell order among ties) — the baseline;
//! - [`Policy::Informed`]: among the cells within [`TOLERANCE`] of the
//!   least probability, the one with the fewest closed neighbours, then
//!   closest to a corner (more often a 0 that opens an area). Measured: no
//!   better than the baseline;
//! - [`Policy::SecondSafety`] (shipped): looks two moves ahead — the
//!   chance of surviving the guess *and* the move after it, from the exact
//!   probabilities of every position the guess can lead to
//!   ([`guess::second_safety`]). About 1.8 points more expert games won
//!   than the baseline on the same boards. Its refinements
//!   ([`Guessing`], each measured on its own): a *free guess* — a cell
//!   that is safe or half of an unavoidable 50/50 — is opened before any
//!   other guess, and the part of a cell's risk that a 50/50 makes
//!   unavoidable anyway is counted back in ([`fifty`]); the position after
//!   a guess is rated by its two best safeties; a dead candidate (it can
//!   show one number only) is not guessed while a living one is scored;
//!   two cells stand for all those off the frontier, leaving the other
//!   candidates to frontier cells; and before all of that, a region of
//!   closed cells that nothing else will ever tell about is played by its
//!   own exact game tree ([`isolated`]); and a position after a guess
//!   where the next move must be a guess too is rated three moves deep,
//!   by its own best two-move guess ([`Guessing::third_move`]).
//!
//! Whatever the policy, a position with at most [`ENDGAME_LAYOUTS`] mine
//! layouts left is played exactly ([`endgame`]): the guess that wins the
//! game most often, from an exhaustive search of the game tree (about half
//! a point more expert games won).
//!
//! Win rates, with their confidence intervals and game counts, are in
//! docs/performance.md ("Play").

use crate::board::{Board, Cell, Value};
use crate::budget::Budget;
use crate::formats::replay::{Replay, ReplayHeader};
use crate::game::{game_rng, random_layout, FirstClick, Game, Level, Opened};
use crate::methods::MethodTable;
use crate::probabilities::Probabilities;
use crate::solver::{analyse_position_with, BySource, Layers, RuleTiers};

// The player's machinery: public for the project's tests and benchmarks.
#[doc(hidden)]
pub mod endgame;
#[doc(hidden)]
pub mod fifty;
#[doc(hidden)]
pub mod guess;
#[doc(hidden)]
pub mod isolated;
#[cfg(test)]
mod referee;
mod refinements;

#[doc(hidden)]
pub use endgame::{Endgame, ExactGuess, ENDGAME_BYTES, ENDGAME_STATES};
pub use endgame::{ENDGAME_LAYOUTS, MAX_ENDGAME_LAYOUTS};
#[doc(hidden)]
pub use guess::{SECOND_SAFETY_CANDIDATES, SECOND_SAFETY_SPREAD, TOLERANCE};
pub use refinements::{Guessing, Refinement};
#[doc(hidden)]
pub use refinements::{INFLUENCE_WEIGHT, OFF_FRONTIER_CANDIDATES, THIRD_MOVE_REPLIES};

/// The most closed cells on which [`Policy::SecondSafety`] looks ahead
/// (its refinements included): each of the look-ahead's counts walks the
/// whole board, so on larger positions it guesses the cell of least
/// probability, as [`Policy::Informed`] does, and a move stays within its
/// budget on a board of a million closed cells.
pub const LOOK_AHEAD_CELLS: usize = 40_000;

/// A move: cells to open; `p_mine` when none of them is proven safe (then
/// `open` holds the one guessed cell and `p_mine` its mine probability).
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    /// Cells to open (row-major indices): every proven-safe cell, or the
    /// one guessed cell.
    pub open: Vec<u32>,
    /// Proven mines (for display and the engine protocol).
    pub flag: Vec<u32>,
    /// On a guess, the guessed cell's mine probability (in `[0, 1]`);
    /// `None` when every cell of `open` is proven safe.
    pub p_mine: Option<f64>,
    /// What proved the cells of `open` safe (all zero on a guess).
    pub opened_by: BySource,
}

/// Anything that plays from positions alone.
pub trait Player {
    /// The next move on `position` (numbers, closed cells, the total).
    fn next_move(&mut self, position: &Board) -> Result<Move, crate::Error>;
}

/// How the sapper player guesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The closed cell least likely to be a mine, the first in cell order
    /// among ties (the baseline).
    LeastProbability,
    /// Among the cells within [`TOLERANCE`] of the least probability, the
    /// one with the fewest closed neighbours, then closest to a corner.
    Informed,
    /// Two moves ahead: see `second_safety`.
    SecondSafety,
}

impl Policy {
    /// Every policy, the shipped one last.
    pub const ALL: [Policy; 3] = [
        Policy::LeastProbability,
        Policy::Informed,
        Policy::SecondSafety,
    ];

    /// Its name in `sapper play --policy` and Python's `play`: `least`,
    /// `informed`, `second-safety`.
    pub fn name(self) -> &'static str {
        match self {
            Policy::LeastProbability => "least",
            Policy::Informed => "informed",
            Policy::SecondSafety => "second-safety",
        }
    }

    /// The policy called `name` ([`Policy::name`]), if any.
    pub fn from_name(name: &str) -> Option<Policy> {
        Policy::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// The sapper player: the solver's deductions, then an exact-probability
/// guess. Keeps its buffers from move to move.
pub struct SapperPlayer<'r> {
    rules: Option<&'r RuleTiers>,
    policy: Policy,
    table: MethodTable,
    probabilities: Probabilities,
    /// For the positions a guess may lead to ([`Policy::SecondSafety`]).
    scratch: Probabilities,
    /// For the positions the guess after that may lead to
    /// ([`Guessing::third_move`]).
    deeper: Probabilities,
    budget: Budget,
    density: f64,
    /// Positions with at most this many layouts are played exactly
    /// ([`endgame`]); 0: never.
    endgame_layouts: usize,
    /// The refinements of [`Policy::SecondSafety`].
    guessing: Guessing,
}

/// The mine density a guess assumes on a position without a total.
pub const DEFAULT_DENSITY: f64 = 0.2;

impl<'r> SapperPlayer<'r> {
    /// A player deducing with `rules` (`None`: the methods alone) and
    /// guessing by `policy`, with the default budget, density
    /// ([`DEFAULT_DENSITY`]) and endgame size ([`ENDGAME_LAYOUTS`]).
    pub fn new(rules: Option<&'r RuleTiers>, policy: Policy) -> SapperPlayer<'r> {
        SapperPlayer {
            rules,
            policy,
            table: MethodTable::default(),
            probabilities: Probabilities::new(),
            scratch: Probabilities::new(),
            deeper: Probabilities::new(),
            budget: Budget::default_limits(),
            density: DEFAULT_DENSITY,
            endgame_layouts: ENDGAME_LAYOUTS,
            guessing: Guessing::default(),
        }
    }

    /// The refinements [`Policy::SecondSafety`] guesses with (default: all
    /// of them, [`Guessing::default`]); the other policies ignore them.
    pub fn with_guessing(mut self, guessing: Guessing) -> SapperPlayer<'r> {
        self.guessing = guessing;
        self
    }

    /// The time and memory one move may use (default
    /// [`Budget::default_limits`]); the clock restarts at every move.
    pub fn with_budget(mut self, budget: Budget) -> SapperPlayer<'r> {
        self.budget = budget;
        self
    }

    /// Play positions with at most `layouts` mine layouts exactly, by
    /// searching the game tree ([`endgame`]); 0 turns the search off. At
    /// most [`MAX_ENDGAME_LAYOUTS`] (larger values are clamped to it).
    pub fn with_endgame(mut self, layouts: usize) -> SapperPlayer<'r> {
        self.endgame_layouts = layouts.min(MAX_ENDGAME_LAYOUTS);
        self
    }

    /// The density a guess assumes when a position has no total: each
    /// closed cell a mine with probability `density`, independently.
    pub fn set_density(&mut self, density: f64) {
        self.density = density;
    }
}

impl Player for SapperPlayer<'_> {
    fn next_move(&mut self, position: &Board) -> Result<Move, crate::Error> {
        // The budget bounds one move: its clock starts now.
        let budget = self.budget.restarted();
        let layers = Layers {
            rules: self.rules,
            methods: true,
            budget,
        };
        let analysis = analyse_position_with(&position.to_position(), layers, &mut self.table)
            .map_err(|e| crate::Error::from_method(e, position.grid()))?;
        let board = &analysis.board;
        let cells = 0..board.grid().len() as u32;
        let flag: Vec<u32> = cells
            .clone()
            .filter(|&c| board.cell(c) == Cell::Mine && position.cell(c) != Cell::Mine)
            .collect();
        let open: Vec<u32> = cells.filter(|&c| board.cell(c) == Cell::Safe).collect();
        if !open.is_empty() {
            let mut opened_by = BySource::default();
            for d in analysis
                .deductions
                .iter()
                .filter(|d| d.value == Value::Safe)
            {
                opened_by.add(d.source, 1);
            }
            return Ok(Move {
                open,
                flag,
                p_mine: None,
                opened_by,
            });
        }
        let density = board.total_mines().is_none().then_some(self.density);
        self.probabilities
            .compute(board, density, &budget)
            .map_err(|e| crate::Error::from_probability(e, board.grid()))?;
        if let Some(exact) = self.exact_endgame(board) {
            return Ok(Move {
                open: vec![exact.cell],
                flag,
                p_mine: Some(exact.p_mine),
                opened_by: BySource::default(),
            });
        }
        let (cell, p) = match self.policy {
            Policy::SecondSafety => self.second_safety(board, density, &budget),
            policy => guess::choose_guess(board, &self.probabilities, policy),
        }
        .ok_or(crate::Error::NothingToOpen)?;
        Ok(Move {
            open: vec![cell],
            flag,
            p_mine: Some(p),
            opened_by: BySource::default(),
        })
    }
}

impl SapperPlayer<'_> {
    /// The guess of [`Policy::SecondSafety`]: the exact guess in an
    /// isolated region if there is one ([`Guessing::isolated`]), else a
    /// free guess if there is one ([`Guessing::free_fifties`]), else
    /// [`guess::second_safety`].
    fn second_safety(
        &mut self,
        board: &Board,
        density: Option<f64>,
        budget: &Budget,
    ) -> Option<(u32, f64)> {
        // Every count of the look-ahead walks the whole board: past this
        // size the least probability decides, fewest closed neighbours
        // among near-ties (a guess still has its exact probability, only
        // it is chosen without looking ahead).
        if self.probabilities.closed_cells().len() > LOOK_AHEAD_CELLS {
            return guess::choose_guess(board, &self.probabilities, Policy::Informed);
        }
        if self.guessing.isolated {
            if let Some(exact) = isolated::isolated_guess(board, isolated::REGION_LAYOUTS) {
                return Some((exact.cell, exact.p_mine));
            }
        }
        if self.guessing.free_fifties {
            let (p, scratch) = (&self.probabilities, &mut self.scratch);
            if let Some(c) = fifty::free_guess(board, p, scratch, density, budget) {
                return Some((c, self.probabilities.probability(c).unwrap_or(0.5)));
            }
        }
        guess::second_safety(
            board,
            &self.probabilities,
            &mut self.scratch,
            &mut self.deeper,
            density,
            budget,
            &self.guessing,
        )
    }

    /// The exact endgame guess on `board` (whose probabilities are
    /// computed), when it has few enough layouts and the search finishes.
    fn exact_endgame(&self, board: &Board) -> Option<ExactGuess> {
        if self.endgame_layouts == 0
            || self.probabilities.log10_layouts() > (self.endgame_layouts as f64).log10() + 1e-9
        {
            return None;
        }
        // Its table: a byte per layout and closed cell, bounded.
        let layouts = 10f64.powf(self.probabilities.log10_layouts());
        if layouts * self.probabilities.closed_cells().len() as f64 > ENDGAME_BYTES as f64 {
            return None;
        }
        Endgame::enumerate(board, self.endgame_layouts)?.best_guess()
    }
}

/// How one game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's index in its run (with the run's seed, it names the
    /// layout: [`game_rng`]`(seed, index)`).
    pub index: u64,
    /// Whether every safe cell was opened without hitting a mine.
    pub won: bool,
    /// Cells the player clicked (the first click included; a flood fill
    /// is one click).
    pub clicks: u32,
    /// Clicks on cells not proven safe (the first click excluded).
    pub guesses: u32,
    /// The cells proven safe (and so opened), by what proved them.
    pub opened_by: BySource,
}

/// Plays game `index` of a run seeded `seed`: the layout from
/// [`game_rng`]`(seed, index)`, the first click at `start`, then `player`
/// until every safe cell is open or a mine is hit.
pub fn play_game(
    level: Level,
    first_click: FirstClick,
    start: (usize, usize),
    seed: u64,
    index: u64,
    player: &mut dyn Player,
) -> Result<GameRecord, crate::Error> {
    let layout = random_layout(level, first_click, start, &mut game_rng(seed, index));
    play_layout(level, layout, start, index, player, None)
}

/// [`play_game`], recorded: the game as a [`Replay`] of its clicks
/// ([`Replay::of_clicks`], with `header`), which the review reads as it
/// reads a person's game.
pub fn play_game_recorded(
    level: Level,
    first_click: FirstClick,
    start: (usize, usize),
    seed: u64,
    index: u64,
    player: &mut dyn Player,
    header: ReplayHeader,
) -> Result<(GameRecord, Replay), crate::Error> {
    let layout = random_layout(level, first_click, start, &mut game_rng(seed, index));
    let mut clicks = Vec::new();
    let record = play_layout(
        level,
        layout.clone(),
        start,
        index,
        player,
        Some(&mut clicks),
    )?;
    let replay = Replay::of_clicks(level.rows, level.cols, layout, &clicks, header);
    Ok((record, replay))
}

/// Plays `layout` from the first click at `start`; `clicks` receives every
/// cell clicked, in order.
fn play_layout(
    level: Level,
    layout: Vec<bool>,
    start: (usize, usize),
    index: u64,
    player: &mut dyn Player,
    mut clicks: Option<&mut Vec<(usize, usize)>>,
) -> Result<GameRecord, crate::Error> {
    let grid = level.grid();
    let mut game = Game::new(grid, layout);
    let mut record = GameRecord {
        index,
        won: false,
        clicks: 1,
        guesses: 0,
        opened_by: BySource::default(),
    };
    game.open(grid.index(start.0, start.1));
    if let Some(clicks) = clicks.as_deref_mut() {
        clicks.push(start);
    }
    while !game.is_won() {
        let m = player.next_move(&game.position())?;
        if m.p_mine.is_some() {
            record.guesses += 1;
        }
        record.opened_by.merge(&m.opened_by);
        for cell in m.open {
            if game.is_open(cell) {
                continue;
            }
            record.clicks += 1;
            if let Some(clicks) = clicks.as_deref_mut() {
                clicks.push(grid.rc(cell));
            }
            if game.open(cell) == Opened::Mine {
                return Ok(record);
            }
        }
    }
    record.won = true;
    Ok(record)
}

/// Optimal play by exhaustive search of the game tree, for tiny boards:
/// the most layouts (out of all `C(cells, mines)`, no first-click
/// protection, the first click included in the choice) that any strategy
/// wins. Returns `(wins, layouts)`.
///
/// A state is the set of layouts still consistent with what was seen and
/// the set of open cells; a move is a closed cell, which splits the state
/// by what it shows (a mine: lost; else the cells its flood fill opens and
/// their numbers). Opening a cell that is safe in every consistent layout
/// never loses a layout and only adds information, so when one exists the
/// search takes it without branching. States are memoized.
#[cfg(test)]
pub(crate) fn optimal_wins(rows: usize, cols: usize, mines: usize) -> (u64, u64) {
    use std::collections::HashMap;
    let grid = crate::grid::Grid::new(rows, cols);
    let n = grid.len();
    assert!(n <= 32, "exhaustive play is for tiny boards");
    let layouts: Vec<u32> = (0u64..1 << n)
        .filter(|m| m.count_ones() as usize == mines)
        .map(|m| m as u32)
        .collect();
    let neighbours: Vec<u32> = (0..n as u32)
        .map(|c| grid.neighbours(c).iter().fold(0u32, |m, &d| m | 1 << d))
        .collect();
    let value = |layout: u32, c: usize| (layout & neighbours[c]).count_ones();
    // What opening `c` on `layout` (safe there) opens: the flood fill.
    let reveal = |layout: u32, c: usize| -> u32 {
        let mut opened = 0u32;
        let mut stack = vec![c];
        while let Some(x) = stack.pop() {
            if opened >> x & 1 == 1 {
                continue;
            }
            opened |= 1 << x;
            if value(layout, x) == 0 {
                for d in 0..n {
                    if neighbours[x] >> d & 1 == 1 && opened >> d & 1 == 0 {
                        stack.push(d);
                    }
                }
            }
        }
        opened
    };
    type Memo = HashMap<(u32, Vec<u32>), u64>;
    fn best(
        open: u32,
        set: Vec<u32>,
        n: usize,
        reveal: &dyn Fn(u32, usize) -> u32,
        value: &dyn Fn(u32, usize) -> u32,
        memo: &mut Memo,
    ) -> u64 {
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        // Won when every safe cell is open in every consistent layout
        // (they all share the open cells, so one check does).
        if set.iter().all(|&l| open | l == all) {
            return set.len() as u64;
        }
        if let Some(&w) = memo.get(&(open, set.clone())) {
            return w;
        }
        let closed: Vec<usize> = (0..n).filter(|&c| open >> c & 1 == 0).collect();
        let safe_everywhere = closed
            .iter()
            .copied()
            .find(|&c| set.iter().all(|&l| l >> c & 1 == 0));
        let candidates: Vec<usize> = match safe_everywhere {
            Some(c) => vec![c],
            None => closed,
        };
        let mut result = 0;
        for c in candidates {
            // Split the safe layouts by what the click shows.
            let mut parts: HashMap<(u32, Vec<u32>), Vec<u32>> = HashMap::new();
            for &l in &set {
                if l >> c & 1 == 1 {
                    continue;
                }
                let opened = reveal(l, c);
                let values: Vec<u32> = (0..n)
                    .filter(|&x| opened >> x & 1 == 1)
                    .map(|x| value(l, x))
                    .collect();
                parts.entry((opened, values)).or_default().push(l);
            }
            let wins: u64 = parts
                .into_iter()
                .map(|((opened, _), part)| best(open | opened, part, n, reveal, value, memo))
                .sum();
            result = result.max(wins);
        }
        memo.insert((open, set), result);
        result
    }
    let mut memo = Memo::new();
    let total = layouts.len() as u64;
    (best(0, layouts, n, &reveal, &value, &mut memo), total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The public test vector: on 4×4 with 4 mines and no first-click
    /// protection, optimal play wins exactly 961 of the 1,820 layouts.
    #[test]
    fn optimal_play_on_4x4_with_4_mines_wins_961_of_1820() {
        assert_eq!(optimal_wins(4, 4, 4), (961, 1820));
    }

    /// Small cases checked by hand: one mine on a 1×2 board is a coin
    /// toss (1 of 2); 1×3 with one mine: click an end — wins if the
    /// mine is not there (2 of 3): the number then tells where it is.
    #[test]
    fn optimal_play_on_tiny_boards_matches_hand_counts() {
        assert_eq!(optimal_wins(1, 2, 1), (1, 2));
        assert_eq!(optimal_wins(1, 3, 1), (2, 3));
        assert_eq!(optimal_wins(2, 2, 0), (1, 1));
    }

    /// A player that checks every position it is given: only numbers and
    /// closed cells, numbers only where the game opened, and the total.
    struct Recorder<'a> {
        inner: SapperPlayer<'a>,
        positions: usize,
    }

    impl Player for Recorder<'_> {
        fn next_move(&mut self, position: &Board) -> Result<Move, crate::Error> {
            self.positions += 1;
            assert_eq!(position.total_mines(), Some(99));
            for c in 0..position.grid().len() as u32 {
                assert!(
                    matches!(position.cell(c), Cell::Unknown | Cell::Revealed(_)),
                    "the player sees only closed cells and numbers"
                );
            }
            self.inner.next_move(position)
        }
    }

    #[test]
    fn the_player_sees_positions_only_and_never_opens_a_proven_mine() {
        let mut recorder = Recorder {
            inner: SapperPlayer::new(None, Policy::Informed),
            positions: 0,
        };
        let mut won = 0;
        for index in 0..20 {
            let r = play_game(
                Level::EXPERT,
                FirstClick::Safe,
                (0, 0),
                3,
                index,
                &mut recorder,
            )
            .unwrap();
            won += r.won as u32;
            // A lost game was lost on a guess: deductions are proven.
            assert!(r.won || r.guesses > 0, "{r:?}");
        }
        assert!(recorder.positions > 20);
        assert!(won > 0);
    }
}
