//! The guess when nothing is forced, from the exact mine probabilities.
//!
//! - [`Policy::LeastProbability`] and [`Policy::Informed`] look at this
//!   position only ([`choose_guess`]).
//! - [`Policy::SecondSafety`] (shipped) looks two moves ahead
//!   ([`second_safety`]), with the refinements of [`Guessing`]: the free
//!   guesses and the influence of unavoidable 50/50s ([`super::fifty`]),
//!   a blended safety of the next move, no dead cell while a living one
//!   is as good, few candidates off the frontier, and isolated regions
//!   played exactly ([`super::isolated`]).

use super::fifty;
use super::Policy;
use crate::board::{Board, Cell};
use crate::budget::Budget;
use crate::probabilities::Probabilities;

/// Cells whose mine probability is within this of the least count as tied
/// for [`Policy::Informed`].
pub const TOLERANCE: f64 = 0.002;

/// Candidates `second_safety` looks ahead from: at most this many, all
/// within [`SECOND_SAFETY_SPREAD`] of the least probability.
pub const SECOND_SAFETY_CANDIDATES: usize = 12;
/// How far above the least mine probability (an absolute difference of
/// probabilities) a cell may be and still be a `second_safety` candidate.
pub const SECOND_SAFETY_SPREAD: f64 = 0.08;

/// The refinements of [`Policy::SecondSafety`], each of which can be
/// turned off to measure it (`sapper play --without`). The default has
/// them all on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guessing {
    /// Open a free guess (a cell that is safe or half of an unavoidable
    /// 50/50, [`fifty::free_guess`]) before any other guess.
    pub free_fifties: bool,
    /// Weight of a cell's 50/50 influence ([`fifty::influence`]) added
    /// back to its safety when guesses are compared; 0 turns it off.
    pub influence: f64,
    /// Rate the position after a guess by `(4 · best + second best) / 5`
    /// of its safeties rather than by the best alone: a position with two
    /// good moves is worth more than one with a single good move.
    pub blend: bool,
    /// Never guess a dead candidate (one that can show only one number, so
    /// that opening it tells nothing) while a living one is scored.
    pub skip_dead: bool,
    /// Look ahead from at most this many candidates off the frontier
    /// (closed cells with no revealed neighbour); `None`: from as many as
    /// the other candidates leave room for.
    pub off_frontier: Option<usize>,
    /// Play an isolated region (closed cells nothing else will tell about,
    /// [`super::isolated`]) exactly, before any other guess.
    pub isolated: bool,
}

/// The candidates off the frontier the shipped player looks ahead from
/// ([`Guessing::off_frontier`]): they share one probability, so the cells
/// with fewest closed neighbours stand for all of them, and the frontier
/// cells a little less safe (which tell more) get the other slots.
pub const OFF_FRONTIER_CANDIDATES: usize = 2;

/// The weight of the 50/50 influence in the shipped player: below 1
/// because overlapping patterns are summed.
pub const INFLUENCE_WEIGHT: f64 = 0.9;

impl Default for Guessing {
    fn default() -> Guessing {
        Guessing {
            free_fifties: true,
            influence: INFLUENCE_WEIGHT,
            blend: true,
            skip_dead: true,
            off_frontier: Some(OFF_FRONTIER_CANDIDATES),
            isolated: true,
        }
    }
}

/// The guess of `policy` on `board` (whose probabilities are computed)
/// that looks at this position only.
pub fn choose_guess(board: &Board, p: &Probabilities, policy: Policy) -> Option<(u32, f64)> {
    let closed = p.closed_cells();
    let least = p.least().unwrap_or(f64::INFINITY);
    let prob = |c: u32| p.probability(c).unwrap_or(f64::INFINITY);
    match policy {
        Policy::LeastProbability => closed
            .iter()
            .copied()
            .find(|&c| prob(c) == least)
            .map(|c| (c, prob(c))),
        Policy::Informed | Policy::SecondSafety => closed
            .iter()
            .copied()
            .filter(|&c| prob(c) <= least + TOLERANCE)
            .min_by_key(|&c| informed_key(board, c))
            .map(|c| (c, prob(c))),
    }
}

/// The order of [`Policy::Informed`] among near-ties: fewest closed
/// neighbours (more often a 0 that opens an area), then closest to a
/// corner, then cell order.
fn informed_key(board: &Board, c: u32) -> (u32, i64, u32) {
    let grid = board.grid();
    let (h, w) = (grid.h as i64, grid.w as i64);
    let (r, col) = grid.rc(c);
    let (r, col) = (r as i64, col as i64);
    (
        board.unknown_around(c),
        r.min(h - 1 - r) + col.min(w - 1 - col),
        c,
    )
}

/// The second-safety guess on `board` (whose probabilities `p` are
/// computed), refined by `guessing`.
///
/// It maximizes the chance of surviving the guess *and* the next move:
/// `(P(c safe) + λ · I(c)) · Σ_v P(c shows v | c safe) · S_v`, where
/// `S_v` rates the position after `c` shows `v` — its best safety (1 when
/// it has a proven-safe cell), or with [`Guessing::blend`] the blend of its
/// two best — and `I(c)` is the 50/50 influence of `c` weighted by
/// `λ = guessing.influence` (0: none). Exact: `P(c shows v | c safe)` is
/// the share of the layouts with `c` safe in which `c` shows `v` (their
/// counts are the layout counts of the positions with `c` revealed as
/// `v`), and `S_v` comes from that position's exact probabilities. Only the
/// cells closest to the least probability (by the same weighted safety) are
/// looked at, the cheapest by [`Policy::Informed`]'s key among equals, to
/// bound the cost to a few dozen probability computations per guess.
pub fn second_safety(
    board: &Board,
    p: &Probabilities,
    scratch: &mut Probabilities,
    density: Option<f64>,
    budget: &Budget,
    guessing: &Guessing,
) -> Option<(u32, f64)> {
    let least = p.least().unwrap_or(f64::INFINITY);
    let mut risk: Vec<f64> = p.per_cell().to_vec();
    if guessing.influence > 0.0 && density.is_none() {
        let reach = least + SECOND_SAFETY_SPREAD;
        let influence = fifty::influence(board, p, scratch, budget, guessing.influence, reach);
        for (r, i) in risk.iter_mut().zip(influence) {
            *r -= guessing.influence * i;
        }
    }
    // The risk of a guess: its mine probability less the weighted
    // influence (NaN for cells that are not closed).
    let risk_of = |c: u32| {
        let r = risk[c as usize];
        if r.is_nan() {
            f64::INFINITY
        } else {
            r
        }
    };
    let least = p
        .closed_cells()
        .iter()
        .map(|&c| risk_of(c))
        .fold(least, f64::min);
    let mut candidates: Vec<u32> = p
        .closed_cells()
        .iter()
        .copied()
        .filter(|&c| risk_of(c) <= least + SECOND_SAFETY_SPREAD)
        .collect();
    candidates.sort_by(|&a, &b| {
        risk_of(a)
            .total_cmp(&risk_of(b))
            .then_with(|| informed_key(board, a).cmp(&informed_key(board, b)))
    });
    if let Some(cap) = guessing.off_frontier {
        // Cells off the frontier all have one probability and differ only
        // in shape: the first `cap` of them (by Informed's key) stand for
        // all, and the other slots go to frontier cells.
        let mut off = 0;
        candidates.retain(|&c| {
            let frontier = board.on_frontier(c);
            off += !frontier as usize;
            frontier || off <= cap
        });
    }
    candidates.truncate(SECOND_SAFETY_CANDIDATES);
    let prob = |c: u32| p.probability(c).unwrap_or(f64::INFINITY);
    let grid = board.grid();
    // The best living candidate, and the best dead one.
    let mut best: Option<(f64, u32)> = None;
    let mut best_dead: Option<(f64, u32)> = None;
    let mut after = board.clone();
    for &c in &candidates {
        let known = grid
            .neighbours(c)
            .iter()
            .filter(|&&n| board.cell(n) == Cell::Mine)
            .count() as u8;
        let closed = board.unknown_around(c) as u8;
        // log10 of the layout count with `c` showing `v`, and the rating of
        // that position.
        let mut outcomes: Vec<(f64, f64)> = Vec::with_capacity(9);
        for v in known..=known + closed {
            after.set(c, Cell::Revealed(v));
            // A number `c` cannot show (no layout fits) is skipped, as is
            // one whose count runs out of budget.
            if !matches!(
                scratch.compute_if_consistent(&after, density, budget),
                Ok(true)
            ) {
                continue;
            }
            outcomes.push((scratch.log10_layouts(), rating(scratch, guessing.blend)));
        }
        after.set(c, board.cell(c));
        let Some(top) = outcomes.iter().map(|o| o.0).reduce(f64::max) else {
            continue;
        };
        let (mut weight, mut next) = (0.0, 0.0);
        for &(log10, rating) in &outcomes {
            let share = 10f64.powf(log10 - top);
            weight += share;
            next += share * rating;
        }
        let score = (1.0 - risk_of(c)) * next / weight;
        let dead = outcomes.len() == 1;
        let slot = if guessing.skip_dead && dead {
            &mut best_dead
        } else {
            &mut best
        };
        if slot.is_none_or(|(s, _)| score > s + 1e-12) {
            *slot = Some((score, c));
        }
    }
    best.or(best_dead)
        .map(|(_, c)| (c, prob(c)))
        .or_else(|| choose_guess(board, p, Policy::Informed))
}

/// How good the position whose probabilities `p` holds is to move in: its
/// best safety, or with `blend` `(4 · best + second best) / 5` (the best
/// alone when one cell is closed).
fn rating(p: &Probabilities, blend: bool) -> f64 {
    let best = 1.0 - p.least().unwrap_or(1.0);
    if !blend || p.closed_cells().len() < 2 {
        return best;
    }
    let (mut first, mut second) = (0.0f64, 0.0f64);
    for &c in p.closed_cells() {
        let safety = 1.0 - p.probability(c).unwrap_or(1.0);
        if safety > second {
            if safety > first {
                second = first;
                first = safety;
            } else {
                second = safety;
            }
        }
    }
    (4.0 * first + second) / 5.0
}
