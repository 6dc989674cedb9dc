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
use super::refinements::{Guessing, THIRD_MOVE_REPLIES};
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
/// computed), refined by `guessing`; `scratch` and `deeper` are working
/// space.
///
/// It maximizes the chance of surviving the guess *and* the next move:
/// `(P(c safe) + λ · I(c)) · Σ_v P(c shows v | c safe) · S_v`, where
/// `S_v` rates the position after `c` shows `v` — its best safety (1 when
/// it has a proven-safe cell), or with [`Guessing::blend`] the blend of its
/// two best — and `I(c)` is the 50/50 influence of `c` weighted by
/// `λ = guessing.influence` (0: none; always 0 under a density). Exact:
/// `P(c shows v | c safe)` is the share of the layouts with `c` safe in
/// which `c` shows `v` (their counts are the layout counts of the positions
/// with `c` revealed as `v`; under a density, each layout weighs its
/// chance, [`Probabilities::log10_weight`]), and `S_v` comes from that
/// position's exact probabilities. Only the
/// cells closest to the least probability (by the same weighted safety) are
/// looked at, the cheapest by [`Policy::Informed`]'s key among equals, to
/// bound the cost to a few dozen probability computations per guess.
///
/// With [`Guessing::third_move`] the score looks three moves deep: a
/// position after the guess that has no proven-safe cell, where the next
/// move is a guess too, is rated by the best two-move score of its own
/// [`THIRD_MOVE_REPLIES`] safest candidates instead of by its best safety.
/// A guess that leaves one risky guess after another then scores below one
/// that leads to progress. Branch and bound keeps the cost down
/// (`three_moves`), and the two-move scores drop candidates that cannot
/// win (`look_ahead`); neither changes the guess.
pub fn second_safety(
    board: &Board,
    p: &Probabilities,
    scratch: &mut Probabilities,
    deeper: &mut Probabilities,
    density: Option<f64>,
    budget: &Budget,
    guessing: &Guessing,
) -> Option<(u32, f64)> {
    let mut risk: Vec<f64> = p.per_cell().to_vec();
    if guessing.influence > 0.0 && density.is_none() {
        let reach = p.least().unwrap_or(f64::INFINITY) + SECOND_SAFETY_SPREAD;
        let influence = fifty::influence(board, p, scratch, budget, guessing.influence, reach);
        for (r, i) in risk.iter_mut().zip(influence) {
            *r -= guessing.influence * i;
        }
    }
    // The risk of a guess: its mine probability less the weighted
    // influence.
    let risk_of = |c: u32| finite(risk[c as usize]);
    let candidates = candidates_of(board, p, &risk_of, guessing, SECOND_SAFETY_CANDIDATES);
    let scored = if guessing.third_move {
        three_moves(
            board,
            p,
            &candidates,
            &risk_of,
            scratch,
            (deeper, THIRD_MOVE_REPLIES),
            density,
            budget,
            guessing,
        )
    } else {
        look_ahead(
            &mut board.clone(),
            p,
            &candidates,
            &risk_of,
            scratch,
            density,
            budget,
            guessing,
        )
    };
    let prob = |c: u32| p.probability(c).unwrap_or(f64::INFINITY);
    best_of(&scored)
        .map(|s| (s.cell, prob(s.cell)))
        .or_else(|| choose_guess(board, p, Policy::Informed))
}

/// A probability, or infinity for the NaN of a cell that is not closed.
fn finite(r: f64) -> f64 {
    if r.is_nan() {
        f64::INFINITY
    } else {
        r
    }
}

/// The look-ahead candidates on `board` (probabilities `p`, risks
/// `risk_of`): at most `k`, within [`SECOND_SAFETY_SPREAD`] of the least
/// risk, least risk first, then by [`Policy::Informed`]'s key.
///
/// With `Guessing::off_frontier_cap`, cells off the frontier all have one
/// probability and differ only in shape: the first `cap` of them stand for
/// all, and the other places go to frontier cells. The order is total
/// (Informed's key ends with the cell), so the first `k` are found by
/// selection among the frontier cells and among the others, not by
/// sorting every cell in the spread (often hundreds early in a game).
fn candidates_of(
    board: &Board,
    p: &Probabilities,
    risk_of: &dyn Fn(u32) -> f64,
    guessing: &Guessing,
    k: usize,
) -> Vec<u32> {
    type Keyed = (f64, (u32, i64, u32));
    let order = |a: &Keyed, b: &Keyed| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1));
    // The first `n` of `cells` in order, sorted.
    let first = |cells: &mut Vec<Keyed>, n: usize| {
        if cells.len() > n {
            if n > 0 {
                cells.select_nth_unstable_by(n - 1, order);
            }
            cells.truncate(n);
        }
        cells.sort_unstable_by(order);
    };
    let least = p
        .closed_cells()
        .iter()
        .map(|&c| risk_of(c))
        .fold(f64::INFINITY, f64::min);
    let (mut frontier, mut off): (Vec<Keyed>, Vec<Keyed>) = (Vec::new(), Vec::new());
    let capped = guessing.off_frontier_cap.is_some();
    for &c in p.closed_cells() {
        let risk = risk_of(c);
        if risk <= least + SECOND_SAFETY_SPREAD {
            let keyed = (risk, informed_key(board, c));
            if !capped || board.on_frontier(c) {
                frontier.push(keyed);
            } else {
                off.push(keyed);
            }
        }
    }
    first(&mut frontier, k);
    if let Some(cap) = guessing.off_frontier_cap {
        first(&mut off, cap.min(k));
        frontier.append(&mut off);
        first(&mut frontier, k);
    }
    frontier.into_iter().map(|(_, key)| key.2).collect()
}

/// The numbers `c` can show on `board`: from its known mines around to
/// those and all its closed neighbours.
fn numbers(board: &Board, c: u32) -> std::ops::RangeInclusive<u8> {
    let known = board
        .grid()
        .neighbours(c)
        .iter()
        .filter(|&&n| board.cell(n) == Cell::Mine)
        .count() as u8;
    known..=known + board.unknown_around(c) as u8
}

/// A candidate's look-ahead score.
#[derive(Clone, Copy, Debug)]
struct Scored {
    score: f64,
    cell: u32,
    /// It can show one number only and `Guessing::dead` is on.
    dead: bool,
}

/// The best living candidate of `scored`, else the best dead one; the
/// first among equals.
fn best_of(scored: &[Scored]) -> Option<Scored> {
    let better = |best: Option<Scored>, s: &Scored| match best {
        Some(b) if s.score <= b.score + 1e-12 => Some(b),
        _ => Some(*s),
    };
    let living = scored.iter().filter(|s| !s.dead).fold(None, better);
    living.or_else(|| scored.iter().filter(|s| s.dead).fold(None, better))
}

/// The three-move score of `candidates` on `board` (probabilities `p`,
/// risks `risk_of`), in their order; `scratch` and `replies.0` are
/// working space. A position
/// after a guess that has no proven-safe cell is rated by the best
/// two-move score of `replies.1` of its own candidates (by mine
/// probability) rather than by [`rating`].
///
/// Branch and bound: a first pass counts every outcome of every candidate
/// and bounds its three-move rating from above (by the position's best
/// safety, which no guess in it beats). The candidates are then scored
/// best bound first, each outcome likeliest first, and a candidate is
/// dropped, unscored, once its bound, with the outcomes not yet rated at
/// their bounds, falls below the best living score so far. The best
/// living candidate is always scored, and so is every candidate when
/// nothing is living.
#[allow(clippy::too_many_arguments)]
fn three_moves(
    board: &Board,
    p: &Probabilities,
    candidates: &[u32],
    risk_of: &dyn Fn(u32) -> f64,
    scratch: &mut Probabilities,
    replies: (&mut Probabilities, usize),
    density: Option<f64>,
    budget: &Budget,
    guessing: &Guessing,
) -> Vec<Scored> {
    /// One number a candidate can show: its weight (its layouts' weight,
    /// [`Probabilities::log10_weight`], relative to that of the
    /// candidate's likeliest number), its two-move rating,
    /// and when the next move is a guess (no proven-safe cell), the best
    /// safety then.
    struct Outcome {
        v: u8,
        weight: f64,
        rating: f64,
        guess_next: Option<f64>,
    }
    impl Outcome {
        /// At least its three-move rating.
        fn upper(&self) -> f64 {
            self.guess_next.unwrap_or(self.rating)
        }
    }
    /// A candidate (at `index` among them) and its outcomes, likeliest
    /// first: their total weight and an upper bound of its score.
    struct Plan {
        index: usize,
        cell: u32,
        outcomes: Vec<Outcome>,
        total: f64,
        /// `Σ weight · upper` of the outcomes.
        upper: f64,
        bound: f64,
    }
    let (inner, k) = replies;
    let mut after = board.clone();
    let mut plans: Vec<Plan> = Vec::with_capacity(candidates.len());
    for (index, &c) in candidates.iter().enumerate() {
        // Each outcome's weight holds its log10 weight at first (its
        // layout count with a total).
        let mut outcomes: Vec<Outcome> = Vec::with_capacity(9);
        for v in numbers(board, c) {
            after.set(c, Cell::Revealed(v));
            if !matches!(
                scratch.compute_changed(&after, p, &[c], density, budget),
                Ok(true)
            ) {
                continue;
            }
            let least = scratch.least().unwrap_or(0.0);
            outcomes.push(Outcome {
                v,
                weight: scratch.log10_weight(),
                rating: rating(scratch, guessing.blend),
                guess_next: (least > 0.0).then_some(1.0 - least),
            });
        }
        after.set(c, board.cell(c));
        let Some(top) = outcomes.iter().map(|o| o.weight).reduce(f64::max) else {
            continue;
        };
        for o in &mut outcomes {
            o.weight = 10f64.powf(o.weight - top);
        }
        outcomes.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.v.cmp(&b.v)));
        let total: f64 = outcomes.iter().map(|o| o.weight).sum();
        let upper: f64 = outcomes.iter().map(|o| o.weight * o.upper()).sum();
        plans.push(Plan {
            index,
            cell: c,
            bound: (1.0 - risk_of(c)) * upper / total,
            outcomes,
            total,
            upper,
        });
    }
    plans.sort_by(|a, b| b.bound.total_cmp(&a.bound).then(a.index.cmp(&b.index)));
    let mut best_living = f64::NEG_INFINITY;
    let mut scored: Vec<(usize, Scored)> = Vec::with_capacity(plans.len());
    for plan in plans {
        if plan.bound < best_living - 1e-9 {
            continue;
        }
        let c = plan.cell;
        let safety = 1.0 - risk_of(c);
        let mut left = plan.upper;
        let (mut sum, mut pruned) = (0.0, false);
        for o in &plan.outcomes {
            if safety * (sum + left) / plan.total < best_living - 1e-9 {
                pruned = true;
                break;
            }
            left -= o.weight * o.upper();
            let mut rated = o.rating;
            if o.guess_next.is_some() {
                // The next move is a guess too: rate it by its own
                // two-move score.
                after.set(c, Cell::Revealed(o.v));
                if let Ok(true) = scratch.compute_changed(&after, p, &[c], density, budget) {
                    let q = &*scratch;
                    let own = |d: u32| finite(q.probability(d).unwrap_or(f64::NAN));
                    let next = candidates_of(&after, q, &own, guessing, k);
                    let next =
                        look_ahead(&mut after, q, &next, &own, inner, density, budget, guessing);
                    if let Some(best) = best_of(&next) {
                        rated = best.score;
                    }
                }
                after.set(c, board.cell(c));
            }
            sum += o.weight * rated;
        }
        if pruned {
            continue;
        }
        let dead = guessing.dead && plan.outcomes.len() == 1;
        let score = safety * sum / plan.total;
        if !dead {
            best_living = best_living.max(score);
        }
        scored.push((
            plan.index,
            Scored {
                score,
                cell: c,
                dead,
            },
        ));
    }
    scored.sort_by_key(|s| s.0);
    scored.into_iter().map(|s| s.1).collect()
}

/// The two-move score of `candidates` on `board` (probabilities `p`,
/// risks `risk_of`), in their order; `scratch` is working space, and
/// `board` is given back as it came.
///
/// A candidate is dropped, unscored, once it cannot beat the best living
/// score so far: its outcomes not yet counted can rate at most 1, and
/// their share is what the counted ones leave of `P(c safe)`. So the best
/// living candidate is always scored, and so is every candidate when
/// nothing is living.
#[allow(clippy::too_many_arguments)]
fn look_ahead(
    board: &mut Board,
    p: &Probabilities,
    candidates: &[u32],
    risk_of: &dyn Fn(u32) -> f64,
    scratch: &mut Probabilities,
    density: Option<f64>,
    budget: &Budget,
    guessing: &Guessing,
) -> Vec<Scored> {
    let mut scored: Vec<Scored> = Vec::with_capacity(candidates.len());
    let mut best_living = f64::NEG_INFINITY;
    // The weight of a guessed cell being safe, left out of the weight of
    // the position after it: 1 with a total.
    let weight_of_c = density.map_or(1.0, |d| 1.0 - d);
    for &c in candidates {
        let safety = 1.0 - risk_of(c);
        // As shares of all layouts (by weight,
        // `Probabilities::log10_weight`): those with `c` safe, those
        // counted so far, and the rated sum of those.
        let safe_share = 1.0 - p.probability(c).unwrap_or(1.0);
        let mut bounded = safe_share > 0.0;
        let (mut counted, mut rated_sum, mut outcomes) = (0.0, 0.0, 0);
        let mut pruned = false;
        // The likeliest numbers first (nearest the expected one), so that
        // the bound tightens early.
        let expected: f64 = board
            .unknown_neighbours(c)
            .map(|n| p.probability(n).unwrap_or(0.0))
            .sum();
        let numbers = numbers(board, c);
        let known = *numbers.start();
        let mut order = [0u8; 9];
        let order = &mut order[..numbers.len()];
        for (slot, v) in order.iter_mut().zip(numbers) {
            *slot = v;
        }
        order.sort_by(|&a, &b| {
            let d = |v: u8| (f64::from(v - known) - expected).abs();
            d(a).total_cmp(&d(b)).then(a.cmp(&b))
        });
        let closed = board.cell(c);
        for &v in order.iter() {
            // At best, every outcome not yet counted rates 1.
            let left = (safe_share - counted).max(0.0);
            if bounded && safety * (rated_sum + left) / safe_share < best_living - 1e-9 {
                pruned = true;
                break;
            }
            board.set(c, Cell::Revealed(v));
            // A number `c` cannot show (no layout fits) is skipped, as is
            // one whose count runs out of budget (and then the bound is
            // off).
            match scratch.compute_changed(board, p, &[c], density, budget) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(_) => {
                    bounded = false;
                    continue;
                }
            }
            let share = 10f64.powf(scratch.log10_weight() - p.log10_weight()) * weight_of_c;
            counted += share;
            rated_sum += share * rating(scratch, guessing.blend);
            outcomes += 1;
        }
        board.set(c, closed);
        if pruned || outcomes == 0 {
            continue;
        }
        let dead = guessing.dead && outcomes == 1;
        let score = safety * rated_sum / counted;
        if !dead {
            best_living = best_living.max(score);
        }
        scored.push(Scored {
            score,
            cell: c,
            dead,
        });
    }
    scored
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::referee::{random_position, Referee};
    use crate::test_rng::TestRng;

    /// The look-ahead by brute force over explicit layouts (bit masks),
    /// apart from the counting engine: the score of opening `c` on
    /// `board`, whose layouts are `set`, `depth` moves deep (2 or 3), and
    /// whether `c` can show one number only. Each layout weighs 1 with the
    /// total; with a density `D` (no total), `(D / (1 − D))^k` for `k`
    /// mines, in proportion to its chance. The candidates a position after
    /// the guess is rated by are the player's own choice (`candidates_of`);
    /// everything else is counted here.
    fn brute_score(
        board: &Board,
        set: &[u32],
        c: u32,
        depth: u32,
        guessing: &Guessing,
        density: Option<f64>,
    ) -> Option<(f64, bool)> {
        let weight = |l: u32| density.map_or(1.0, |d| (d / (1.0 - d)).powi(l.count_ones() as i32));
        let weigh = |layouts: &[u32]| layouts.iter().map(|&l| weight(l)).sum::<f64>();
        let grid = board.grid();
        let mask = |d: u32| grid.neighbours(d).iter().fold(0u32, |m, &e| m | 1 << e);
        let mut groups: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
        for &l in set.iter().filter(|&&l| l >> c & 1 == 0) {
            groups
                .entry((l & mask(c)).count_ones())
                .or_default()
                .push(l);
        }
        if groups.is_empty() {
            return None;
        }
        let mut sum = 0.0;
        for (&v, part) in &groups {
            let mut after = board.clone();
            after.set(c, Cell::Revealed(v as u8));
            let closed: Vec<u32> = (0..grid.len() as u32)
                .filter(|&d| after.cell(d) == Cell::Unknown)
                .collect();
            let safety = |d: u32| {
                let mines: Vec<u32> = part.iter().copied().filter(|&l| l >> d & 1 == 1).collect();
                1.0 - weigh(&mines) / weigh(part)
            };
            let mut safeties: Vec<f64> = closed.iter().map(|&d| safety(d)).collect();
            safeties.sort_by(|a, b| b.total_cmp(a));
            let mut rated = match safeties[..] {
                [] => 0.0,
                [first] => first,
                [first, ..] if !guessing.blend => first,
                [first, second, ..] => (4.0 * first + second) / 5.0,
            };
            if depth == 3 && safeties.first().is_some_and(|&s| s < 1.0) {
                let mut q = Probabilities::new();
                q.compute(&after, density, &Budget::default_limits())
                    .unwrap();
                let own = |d: u32| finite(q.probability(d).unwrap_or(f64::NAN));
                let next: Vec<Scored> =
                    candidates_of(&after, &q, &own, guessing, THIRD_MOVE_REPLIES)
                        .into_iter()
                        .filter_map(|d| {
                            let (score, dead) = brute_score(&after, part, d, 2, guessing, density)?;
                            Some(Scored {
                                score,
                                cell: d,
                                dead,
                            })
                        })
                        .collect();
                if let Some(best) = best_of(&next) {
                    rated = best.score;
                }
            }
            sum += weigh(part) * rated;
        }
        Some((sum / weigh(set), guessing.dead && groups.len() == 1))
    }

    /// The candidates are those of the definition — every closed cell
    /// within the spread of the least risk, sorted by risk and then by
    /// Informed's key, only the first `cap` off the frontier kept, the
    /// first `k` taken — on random positions with risks drawn from a few
    /// values (so that many cells tie), for every `k` and cap.
    #[test]
    fn candidates_are_the_first_k_of_every_cell_in_the_spread_sorted() {
        let mut rng = TestRng::new(5);
        let budget = Budget::unlimited();
        let mut p = Probabilities::new();
        let mut compared = 0;
        for _ in 0..400 {
            let board = random_position(&mut rng);
            if p.compute(&board, None, &budget).is_err() {
                continue;
            }
            let n = board.grid().len();
            let risk: Vec<f64> = (0..n)
                .map(|_| [0.1, 0.15, 0.2, 0.3, f64::INFINITY][rng.below(5)])
                .collect();
            let risk_of = |c: u32| risk[c as usize];
            for cap in [None, Some(0), Some(1), Some(2), Some(5)] {
                let guessing = Guessing {
                    off_frontier_cap: cap,
                    ..Guessing::default()
                };
                for k in 0..=14 {
                    let least = p
                        .closed_cells()
                        .iter()
                        .map(|&c| risk_of(c))
                        .fold(f64::INFINITY, f64::min);
                    let mut expected: Vec<u32> = p
                        .closed_cells()
                        .iter()
                        .copied()
                        .filter(|&c| risk_of(c) <= least + SECOND_SAFETY_SPREAD)
                        .collect();
                    expected.sort_by(|&a, &b| {
                        risk_of(a)
                            .total_cmp(&risk_of(b))
                            .then_with(|| informed_key(&board, a).cmp(&informed_key(&board, b)))
                    });
                    if let Some(cap) = cap {
                        let mut off = 0;
                        expected.retain(|&c| {
                            off += !board.on_frontier(c) as usize;
                            board.on_frontier(c) || off <= cap
                        });
                    }
                    expected.truncate(k);
                    let found = candidates_of(&board, &p, &risk_of, &guessing, k);
                    assert_eq!(found, expected, "k {k}, cap {cap:?} on {board:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 20_000, "{compared}");
    }

    /// On random small positions, two and three moves deep, the look-ahead
    /// picks the guess brute force over every layout picks, and each score
    /// it computes is the one brute force gives: with the total, and on a
    /// third of them with a density instead.
    #[test]
    fn look_ahead_scores_and_best_guess_match_brute_force_two_and_three_moves_deep() {
        let mut rng = TestRng::new(11);
        // No deadline: the rounds together take seconds, more under load,
        // and a count cut short would score a candidate differently.
        let budget = Budget::unlimited();
        let (mut p, mut scratch, mut deeper) = (
            Probabilities::new(),
            Probabilities::new(),
            Probabilities::new(),
        );
        let (mut deep_outcomes, mut pruned) = (0, 0);
        for round in 0..10000 {
            let mut board = random_position(&mut rng);
            let guessing = Guessing {
                blend: round % 2 == 0,
                ..Guessing::default()
            };
            let density = (round % 3 == 2).then(|| [0.12, 0.3, 0.55, 0.8][round / 3 % 4]);
            if density.is_some() {
                board = Board::new(board.grid(), board.cells().to_vec(), None);
            }
            let layouts = Referee::new(&board).layouts;
            p.compute(&board, density, &budget).unwrap();
            let risk = |c: u32| finite(p.probability(c).unwrap_or(f64::NAN));
            let candidates = candidates_of(&board, &p, &risk, &guessing, SECOND_SAFETY_CANDIDATES);
            for depth in [2, 3] {
                let scored = if depth == 3 {
                    let replies = (&mut deeper, THIRD_MOVE_REPLIES);
                    three_moves(
                        &board,
                        &p,
                        &candidates,
                        &risk,
                        &mut scratch,
                        replies,
                        density,
                        &budget,
                        &guessing,
                    )
                } else {
                    look_ahead(
                        &mut board.clone(),
                        &p,
                        &candidates,
                        &risk,
                        &mut scratch,
                        density,
                        &budget,
                        &guessing,
                    )
                };
                let expected: Vec<(u32, f64, bool)> = candidates
                    .iter()
                    .filter_map(|&c| {
                        brute_score(&board, &layouts, c, depth, &guessing, density)
                            .map(|(s, d)| (c, s, d))
                    })
                    .collect();
                // Every candidate scored is scored right, and the best is
                // the best of all (the others may be dropped unscored).
                for s in &scored {
                    let &(c, score, dead) = expected.iter().find(|e| e.0 == s.cell).unwrap();
                    assert_eq!(s.dead, dead, "{board:?}");
                    assert!(
                        (s.score - score).abs() < 1e-9,
                        "opening {c} {depth} moves deep on {board:?}: {} against {score}",
                        s.score
                    );
                    if depth == 3
                        && (s.score
                            - brute_score(&board, &layouts, c, 2, &guessing, density)
                                .unwrap()
                                .0)
                            .abs()
                            > 1e-9
                    {
                        deep_outcomes += 1;
                    }
                }
                let all: Vec<Scored> = expected
                    .iter()
                    .map(|&(cell, score, dead)| Scored { score, cell, dead })
                    .collect();
                assert_eq!(
                    best_of(&scored).map(|s| s.cell),
                    best_of(&all).map(|s| s.cell),
                    "{depth} moves deep on {board:?}"
                );
                pruned += expected.len() - scored.len();
            }
        }
        assert!(pruned >= 100, "only {pruned} candidates were dropped");
        assert!(
            deep_outcomes >= 100,
            "only {deep_outcomes} scores changed three moves deep"
        );
    }
}
