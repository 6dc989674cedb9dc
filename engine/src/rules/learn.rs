//! Learning a rule from a deduction: the research's "scheme collection",
//! done so that what is remembered is a proven, irreducible, canonical rule.
//!
//! Given a board and a cell some method proved, [`learn`] looks for the
//! smallest set of revealed numbers (the *support*, the rule's foci) whose
//! equations alone — no global mine count, nothing else on the board —
//! already force that cell, within a 6×6 window; cuts the pattern out of the
//! board; takes as conclusion every cell those foci force; re-proves it by
//! an independent enumeration; and returns it in canonical form.
//!
//! Steps (each one's reasoning is at the code doing it):
//! 1. `candidates`: which numbers can be foci at all;
//! 2. `possible_boxes`: which 4×4 boxes of foci positions can contain a
//!    support (monotonicity: if a support forces the cell, all the numbers of
//!    a box around it do too), so hopeless cells end fast;
//! 3. `smallest_support`: supports of 1, 2, 3, … foci in a fixed order;
//!    the first that forces the cell is irreducible;
//! 4. `cut_rule`: the pattern and its full conclusion;
//! 5. [`verify_by_enumeration`]: an independent exhaustive check of the
//!    pattern alone before the rule is returned.

use crate::board::{Board, Cell, Forced, Value};
use crate::constraints::Subsystem;
use crate::grid::Grid;
use crate::rules::{Pattern, PatternCell, Rule, RuleKind};

/// Largest rule window: the pattern (the union of the foci's 3×3
/// neighbourhoods) fits `WINDOW × WINDOW`, so the foci themselves fit
/// `(WINDOW − 2) × (WINDOW − 2)`.
pub const WINDOW: usize = 6;
const FOCI_SPAN: isize = WINDOW as isize - 2;

/// A revealed number that may serve as a focus.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    cell: u32,
    r: isize,
    c: isize,
    /// Effective value (number minus known mines around it).
    value: u8,
    /// Its unknown neighbours.
    unknown: [u32; 8],
    unknown_len: u8,
}

impl Candidate {
    fn unknown(&self) -> &[u32] {
        &self.unknown[..self.unknown_len as usize]
    }
}

/// Learns the rule behind `forced` on `board` (the board as it was before
/// the deduction). `None` when no set of numbers fitting a 6×6 window forces
/// the cell on its own (the deduction needed the global count, or foci
/// farther apart), when the cell is not unknown, or when `forced` is not
/// actually implied.
pub fn learn(board: &Board, forced: Forced) -> Option<Rule> {
    match learn_explained(board, forced) {
        Learned::Rule(rule) => Some(rule),
        _ => None,
    }
}

/// What [`learn_explained`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Learned {
    /// A new irreducible rule, canonical.
    Rule(Rule),
    /// The smallest `support` (revealed cells, the would-be foci) forces the
    /// cell, but its proper subset `concluding` already concludes something
    /// on its own (forces a cell or has no solution): lower-order rules
    /// apply first, so the support is not a rule to store.
    Reducible {
        /// The smallest set of revealed cells forcing the cell (cell
        /// indices).
        support: Vec<u32>,
        /// The proper subset of `support` that concludes on its own.
        concluding: Vec<u32>,
    },
    /// No set of numbers fitting a 6×6 window forces the cell.
    NoSupport,
}

/// [`learn`], saying why when nothing is learned.
pub fn learn_explained(board: &Board, forced: Forced) -> Learned {
    let grid = board.grid();
    if forced.cell as usize >= grid.len() || !board.cell(forced.cell).is_unknown() {
        return Learned::NoSupport;
    }
    let candidates = candidates(board, forced.cell);
    let Some(pool) = possible_boxes(grid, &candidates, forced) else {
        return Learned::NoSupport;
    };
    let Some(support) = smallest_support(grid, &candidates, &pool, forced) else {
        return Learned::NoSupport;
    };
    if let Some(subset) = lower_order_concludes(&candidates, &support) {
        return Learned::Reducible {
            support: support.iter().map(|&i| candidates[i].cell).collect(),
            concluding: subset.iter().map(|&i| candidates[i].cell).collect(),
        };
    }
    let foci: Vec<Candidate> = support.iter().map(|&i| candidates[i]).collect();
    let Some(rule) = cut_rule(board, &foci) else {
        return Learned::NoSupport;
    };
    // The rule must hold on its own terms, checked by a second, independent
    // method; a failure here is a bug in the steps above, never returned.
    if !verify_by_enumeration(&rule) {
        debug_assert!(false, "learned rule failed its own verification: {rule:?}");
        return Learned::NoSupport;
    }
    Learned::Rule(rule.canonical())
}

/// Step 1. A focus of a rule that forces the target shares a 6×6 window
/// with a focus next to the target (the target must be one of the support's
/// variables, or the support says nothing about it), so every focus lies
/// within Chebyshev distance `1 + (6 − 2 − 1) = 4` of the target. A number
/// with no unknown neighbour adds only `0 = 0` (or a contradiction, which
/// is not this function's business), and one whose effective value is
/// outside `0..=unknown` is already contradictory: neither can help.
fn candidates(board: &Board, target: u32) -> Vec<Candidate> {
    let grid = board.grid();
    let (tr, tc) = grid.rc(target);
    let reach = FOCI_SPAN;
    let mut out = Vec::new();
    for r in tr as isize - reach..=tr as isize + reach {
        for c in tc as isize - reach..=tc as isize + reach {
            if r < 0 || c < 0 || r as usize >= grid.h || c as usize >= grid.w {
                continue;
            }
            if let Some(k) = candidate(board, grid.index(r as usize, c as usize)) {
                out.push(k);
            }
        }
    }
    // Row-major scan: already sorted by cell index.
    out
}

/// Cell `cell` as a possible focus, if it is one.
fn candidate(board: &Board, cell: u32) -> Option<Candidate> {
    let (value, unknown_count) = board.effective(cell)?;
    if unknown_count == 0 || value < 0 || value as u32 > unknown_count {
        return None;
    }
    let mut unknown = [0u32; 8];
    let mut len = 0u8;
    for n in board.unknown_neighbours(cell) {
        unknown[len as usize] = n;
        len += 1;
    }
    let (r, c) = board.grid().rc(cell);
    Some(Candidate {
        cell,
        r: r as isize,
        c: c as isize,
        value: value as u8,
        unknown,
        unknown_len: len,
    })
}

fn adjacent(grid: Grid, a: u32, b: u32) -> bool {
    grid.distance(a, b) == 1
}

/// Step 2. A support's foci fit a `4 × 4` box (6×6 window minus the border
/// of neighbourhoods) that contains a focus next to the target. Adding
/// equations only removes solutions, so if a support forces the target, so
/// do all the candidates of any box containing it. A box whose candidates
/// do not force the target therefore contains no support. Returns the
/// candidates (indices, sorted) of the boxes that may contain one, or
/// `None` if there is none.
fn possible_boxes(grid: Grid, candidates: &[Candidate], forced: Forced) -> Option<Vec<usize>> {
    let (tr, tc) = grid.rc(forced.cell);
    let (tr, tc) = (tr as isize, tc as isize);
    let mut usable = vec![false; candidates.len()];
    let mut any = false;
    for br in tr - FOCI_SPAN..=tr + 1 {
        for bc in tc - FOCI_SPAN..=tc + 1 {
            let members: Vec<usize> = (0..candidates.len())
                .filter(|&i| {
                    let k = &candidates[i];
                    k.r >= br && k.r < br + FOCI_SPAN && k.c >= bc && k.c < bc + FOCI_SPAN
                })
                .collect();
            if !members
                .iter()
                .any(|&i| adjacent(grid, candidates[i].cell, forced.cell))
            {
                continue;
            }
            if members.iter().all(|&i| usable[i]) {
                continue; // nothing new to learn from this box
            }
            if forces(candidates, &members, forced) {
                any = true;
                for &i in &members {
                    usable[i] = true;
                }
            }
        }
    }
    any.then(|| (0..candidates.len()).filter(|&i| usable[i]).collect())
}

/// Step 3. Tries supports of size 1, 2, 3, … drawn from `pool`, each size in
/// lexicographic order of cell indices, and returns the first that forces
/// the target. Every smaller set was tried first, so no proper subset of
/// the result forces the target: it is irreducible. Supports whose foci do
/// not fit a 4×4 box are cut off while being built.
fn smallest_support(
    grid: Grid,
    candidates: &[Candidate],
    pool: &[usize],
    forced: Forced,
) -> Option<Vec<usize>> {
    let mut chosen = Vec::new();
    for size in 1..=pool.len() {
        if let Some(found) = search(grid, candidates, pool, forced, size, 0, &mut chosen) {
            return Some(found);
        }
    }
    None
}

fn search(
    grid: Grid,
    candidates: &[Candidate],
    pool: &[usize],
    forced: Forced,
    size: usize,
    from: usize,
    chosen: &mut Vec<usize>,
) -> Option<Vec<usize>> {
    if chosen.len() == size {
        // The target must be a variable of the support, and the support must
        // leave it no other value.
        let touches = chosen
            .iter()
            .any(|&i| adjacent(grid, candidates[i].cell, forced.cell));
        return (touches && forces(candidates, chosen, forced)).then(|| chosen.clone());
    }
    for p in from..pool.len() {
        if pool.len() - p < size - chosen.len() {
            break;
        }
        chosen.push(pool[p]);
        if fits(candidates, chosen) {
            if let Some(found) = search(grid, candidates, pool, forced, size, p + 1, chosen) {
                return Some(found);
            }
        }
        chosen.pop();
    }
    None
}

/// Whether the foci fit a 4×4 box (their neighbourhoods a 6×6 window).
fn fits(candidates: &[Candidate], set: &[usize]) -> bool {
    let rows = set.iter().map(|&i| candidates[i].r);
    let cols = set.iter().map(|&i| candidates[i].c);
    let (r0, r1) = (rows.clone().min(), rows.max());
    let (c0, c1) = (cols.clone().min(), cols.max());
    match (r0, r1, c0, c1) {
        (Some(r0), Some(r1), Some(c0), Some(c1)) => r1 - r0 < FOCI_SPAN && c1 - c0 < FOCI_SPAN,
        _ => true,
    }
}

/// The equations of the foci `set` alone, as a [`Subsystem`].
fn subsystem(candidates: &[Candidate], set: &[usize]) -> Subsystem {
    Subsystem::new(set.iter().map(|&i| {
        let k = &candidates[i];
        (k.unknown(), k.value)
    }))
}

/// Irreducibility in the synthesizer's sense (a rule whose conclusion
/// already follows from a rule of lower order is not stored): if some
/// proper subset of the support concludes anything on its own — forces a
/// cell or has no solution — then lower-order rules fire first on this board
/// and change it, and the support is not a new rule. (A method that proves
/// many cells in one batch, like hypotheses, can hand over a cell that only
/// needs such a lower-order step after an earlier cell of the batch.)
/// Returns the first (smallest) concluding proper subset, if any.
fn lower_order_concludes(candidates: &[Candidate], support: &[usize]) -> Option<Vec<usize>> {
    let k = support.len();
    let mut subsets: Vec<u32> = (1..(1u32 << k) - 1).collect();
    subsets.sort_by_key(|m| (m.count_ones(), *m));
    subsets.into_iter().find_map(|subset| {
        let set: Vec<usize> = (0..k)
            .filter(|&j| subset >> j & 1 == 1)
            .map(|j| support[j])
            .collect();
        let concludes = match subsystem(candidates, &set).forced() {
            None => true,
            Some((safe, mine)) => safe | mine != 0,
        };
        concludes.then_some(set)
    })
}

/// Whether the foci `set` alone force `forced`: they have a solution, and
/// none with the target's other value.
fn forces(candidates: &[Candidate], set: &[usize], forced: Forced) -> bool {
    let system = subsystem(candidates, set);
    let Ok(k) = system.vars().binary_search(&forced.cell) else {
        return false;
    };
    let x = 1u64 << k;
    let (ones, zeros) = match forced.value {
        Value::Safe => (x, 0),
        Value::Mine => (0, x),
    };
    system.solve(0, 0).is_some() && system.solve(ones, zeros).is_none()
}

/// Step 4. The pattern is the bounding box of the foci's 3×3
/// neighbourhoods: cells of no neighbourhood are `Any` (the rule does not
/// look at them); outside the field `Open` — a wall is never unknown, so it
/// constrains the foci exactly as an open cell does, and the `Open` variant
/// (which the matcher lets match walls too) is the more general rule;
/// foci `Number(effective)`;
/// unknown cells `Closed` (the system's variables); everything else `Open`
/// (revealed, known safe, or a known mine — already subtracted from the
/// foci's values). The conclusion is every cell the foci force, not only
/// the target. `None` if the foci have no solution (not a forced rule).
fn cut_rule(board: &Board, foci: &[Candidate]) -> Option<Rule> {
    let grid = board.grid();
    let r0 = foci.iter().map(|k| k.r).min()? - 1;
    let r1 = foci.iter().map(|k| k.r).max()? + 1;
    let c0 = foci.iter().map(|k| k.c).min()? - 1;
    let c1 = foci.iter().map(|k| k.c).max()? + 1;
    let (h, w) = ((r1 - r0 + 1) as usize, (c1 - c0 + 1) as usize);
    debug_assert!(h <= WINDOW && w <= WINDOW);
    let all: Vec<usize> = (0..foci.len()).collect();
    let system = subsystem(foci, &all);
    let (safe_vars, mine_vars) = system.forced()?;
    let mut cells = Vec::with_capacity(h * w);
    let mut safe = 0u64;
    let mut mine = 0u64;
    for pr in 0..h {
        for pc in 0..w {
            let (r, c) = (r0 + pr as isize, c0 + pc as isize);
            let in_union = foci
                .iter()
                .any(|k| (k.r - r).abs() <= 1 && (k.c - c).abs() <= 1);
            let inside = r >= 0 && c >= 0 && (r as usize) < grid.h && (c as usize) < grid.w;
            let cell = if !in_union {
                PatternCell::Any
            } else if !inside {
                PatternCell::Open
            } else {
                let i = grid.index(r as usize, c as usize);
                if let Some(k) = foci.iter().find(|k| k.cell == i) {
                    PatternCell::Number(k.value)
                } else if board.cell(i) == Cell::Unknown {
                    let bit = 1u64 << (pr * w + pc);
                    if let Ok(v) = system.vars().binary_search(&i) {
                        if safe_vars >> v & 1 == 1 {
                            safe |= bit;
                        } else if mine_vars >> v & 1 == 1 {
                            mine |= bit;
                        }
                    }
                    PatternCell::Closed
                } else {
                    PatternCell::Open
                }
            };
            cells.push(cell);
        }
    }
    Some(Rule {
        pattern: Pattern::new(h as u8, w as u8, cells),
        kind: RuleKind::Forced,
        safe,
        mine,
    })
}

/// Step 5. Re-proves a forced rule from its pattern alone, by enumerating
/// every assignment of mines to its `Closed` cells (cell by cell in
/// row-major order, cutting off a branch as soon as some focus has too many
/// mines or can no longer reach its value) and keeping those that meet
/// every focus. True iff there is at least one, and the conclusion is
/// exactly the set of closed cells with one value in all of them.
pub fn verify_by_enumeration(rule: &Rule) -> bool {
    let p = &rule.pattern;
    let (h, w) = (p.h as isize, p.w as isize);
    if p.cells.len() > 64 || rule.kind != RuleKind::Forced {
        return false;
    }
    let mut closed_cells = Vec::new();
    let mut closed_all = 0u64;
    for (i, cell) in p.cells.iter().enumerate() {
        if *cell == PatternCell::Closed {
            closed_cells.push(i);
            closed_all |= 1 << i;
        }
    }
    let mut foci = Vec::new();
    for r in 0..h {
        for c in 0..w {
            if let PatternCell::Number(v) = p.cells[(r * w + c) as usize] {
                let mut around = 0u64;
                for dr in -1..=1 {
                    for dc in -1..=1 {
                        let (rr, cc) = (r + dr, c + dc);
                        if rr >= 0 && cc >= 0 && rr < h && cc < w {
                            around |= 1 << (rr * w + cc);
                        }
                    }
                }
                foci.push((around & closed_all, v as u32));
            }
        }
    }
    struct Walk<'a> {
        closed: &'a [usize],
        foci: &'a [(u64, u32)],
        solutions: u64,
        always: u64,
        ever: u64,
    }
    fn walk(s: &mut Walk, k: usize, mines: u64, unassigned: u64) {
        for &(around, v) in s.foci {
            let have = (mines & around).count_ones();
            if have > v || have + (unassigned & around).count_ones() < v {
                return;
            }
        }
        if k == s.closed.len() {
            s.solutions += 1;
            s.always &= mines;
            s.ever |= mines;
            return;
        }
        let bit = 1u64 << s.closed[k];
        walk(s, k + 1, mines, unassigned & !bit);
        walk(s, k + 1, mines | bit, unassigned & !bit);
    }
    let mut state = Walk {
        closed: &closed_cells,
        foci: &foci,
        solutions: 0,
        always: u64::MAX,
        ever: 0,
    };
    walk(&mut state, 0, 0, closed_all);
    if state.solutions == 0 {
        return false;
    }
    let forced_mine = state.always & closed_all;
    let forced_safe = closed_all & !state.ever;
    (rule.safe | rule.mine) != 0 && rule.mine == forced_mine && rule.safe == forced_safe
}

/// What [`merge`] added to a rulebase.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// Rules added (those the rulebase did not hold yet).
    pub added: usize,
    /// Rules added, by order (ascending).
    pub by_order: std::collections::BTreeMap<u8, usize>,
}

impl Merged {
    /// `order 1: n, order 2: m`, or `none`.
    pub fn summary(&self) -> String {
        if self.by_order.is_empty() {
            return "none".to_string();
        }
        let parts: Vec<String> = self
            .by_order
            .iter()
            .map(|(o, n)| format!("order {o}: {n}"))
            .collect();
        parts.join(", ")
    }
}

/// Adds to `rb` the `learned` rules it does not hold, keeping it a
/// rulebase (rules sorted and distinct, orders and window in its settings
/// widened to cover them), and records in its notes that they were learned
/// `from` (e.g. the corpora solved). The rules must be proven ([`learn`]
/// proves each one it returns).
pub fn merge(
    rb: &mut super::Rulebase,
    learned: impl IntoIterator<Item = Rule>,
    from: &str,
) -> Merged {
    let known: std::collections::BTreeSet<Rule> = rb.rules.iter().cloned().collect();
    let new: std::collections::BTreeSet<Rule> =
        learned.into_iter().filter(|r| !known.contains(r)).collect();
    let mut merged = Merged {
        added: new.len(),
        ..Merged::default()
    };
    for r in &new {
        *merged.by_order.entry(r.order()).or_insert(0) += 1;
    }
    let summary = if merged.by_order.is_empty() {
        String::new()
    } else {
        merged.summary()
    };
    rb.settings.notes.push(format!(
        "learned {} rules from {from} ({summary})",
        new.len()
    ));
    rb.settings.max_order = rb
        .settings
        .max_order
        .max(merged.by_order.keys().copied().max().unwrap_or(0));
    rb.settings.max_window = rb
        .settings
        .max_window
        .max(new.iter().map(|r| r.window()).max().unwrap_or(0));
    rb.rules.extend(new);
    rb.rules.sort();
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::index::RuleIndex;

    /// A board from a picture: `?` unknown, `*` known mine, `.` known
    /// safe, digits revealed (the shared helper spells a mine `F`).
    fn board(rows: &[&str]) -> Board {
        let rows: Vec<String> = rows.iter().map(|r| r.replace('*', "F")).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        crate::board::board_from_picture(&rows, None)
    }

    fn proves(rule: &Rule, b: &Board, f: Forced) -> bool {
        let index = RuleIndex::from_rules(std::slice::from_ref(rule));
        let mut out = Vec::new();
        index.find(b, None, &mut out).unwrap();
        out.iter().any(|(g, _)| *g == f)
    }

    /// A 2×9 strip, numbers on top, mines under columns 1, 4, 7: every
    /// number is 1. At the left wall `1 1` clears column 2 (order 2); column
    /// 5 is forced too (x5 = x2 from numbers 3 and 4), but only by numbers
    /// spanning five columns, which no 6×6 window holds.
    #[test]
    fn chain_along_a_wall() {
        let b = board(&["111111111", "?????????"]);
        let x = |c: u32| 9 + c;
        let safe = |cell| Forced {
            cell,
            value: Value::Safe,
        };
        // Ground truth of the claim: all nine numbers force x5 safe.
        let all: Vec<Candidate> = (0..9).filter_map(|c| candidate(&b, c)).collect();
        assert_eq!(all.len(), 9);
        let everything: Vec<usize> = (0..all.len()).collect();
        let sys = subsystem(&all, &everything);
        let (s, _) = sys.forced().unwrap();
        let k = sys.vars().binary_search(&x(5)).unwrap();
        assert_eq!(s >> k & 1, 1);

        let rule = learn(&b, safe(x(2))).expect("order 2 at the wall");
        assert_eq!(rule.order(), 2);
        // Off-field cells are cut as `Open`: the rule then also fires away
        // from the wall, wherever those cells are not unknown.
        assert!(!rule.pattern.cells.contains(&PatternCell::Wall));
        assert!(proves(&rule, &b, safe(x(2))));
        assert!(verify_by_enumeration(&rule));
        // The mirror image at the right wall is the same canonical rule.
        assert_eq!(learn(&b, safe(x(6))), Some(rule));

        assert_eq!(learn(&b, safe(x(5))), None);
        assert_eq!(learn(&b, safe(x(3))), None);
        // Not forced at all.
        assert_eq!(learn(&b, safe(x(0))), None);
        // Not unknown.
        assert_eq!(learn(&b, safe(0)), None);
    }

    /// The classic 1-2-1 (open row below): the 2 and the right 1 alone
    /// force the 2's left neighbour above to be a mine and the right 1's
    /// right neighbour above to be safe; the learned rule concludes both.
    #[test]
    fn one_two_one() {
        let b = board(&["?????", ".121.", "....."]);
        let mine = Forced {
            cell: 1,
            value: Value::Mine,
        };
        let rule = learn(&b, mine).expect("1-2-1");
        assert_eq!(rule.order(), 2, "{:?}", rule.rows());
        assert_eq!(rule.mine.count_ones(), 1, "{:?}", rule.rows());
        assert_eq!(rule.safe.count_ones(), 1, "{:?}", rule.rows());
        assert!(proves(&rule, &b, mine));
        assert!(proves(
            &rule,
            &b,
            Forced {
                cell: 4,
                value: Value::Safe
            }
        ));
        // The middle cell needs all three numbers at once, but a pair of
        // them already concludes something (the mine and the safe end
        // above): order-2 rules fire first and the middle follows on the
        // changed board. The triple is reducible, so nothing is learned.
        let middle = Forced {
            cell: 2,
            value: Value::Safe,
        };
        assert_eq!(learn(&b, middle), None);
    }

    /// A cell only the global count could decide: nothing to learn.
    #[test]
    fn cells_away_from_every_number_learn_nothing() {
        let b = Board::new(
            Grid::new(3, 3),
            vec![
                Cell::Revealed(0),
                Cell::Safe,
                Cell::Unknown,
                Cell::Safe,
                Cell::Safe,
                Cell::Unknown,
                Cell::Unknown,
                Cell::Unknown,
                Cell::Unknown,
            ],
            Some(0),
        );
        assert_eq!(
            learn(
                &b,
                Forced {
                    cell: 8,
                    value: Value::Safe
                }
            ),
            None
        );
    }

    #[test]
    fn verification_rejects_a_wrong_conclusion() {
        use PatternCell::*;
        // 1 over two closed cells: neither is forced.
        let rule = Rule {
            pattern: Pattern::new(2, 3, vec![Open, Number(1), Open, Open, Closed, Closed]),
            kind: RuleKind::Forced,
            safe: 0,
            mine: 1 << 4,
        };
        assert!(!verify_by_enumeration(&rule));
        // 1 over one closed cell: a mine — and claiming less than every
        // forced cell is rejected too (the conclusion must be exact).
        let rule = Rule {
            pattern: Pattern::new(2, 3, vec![Open, Number(1), Open, Open, Closed, Open]),
            kind: RuleKind::Forced,
            safe: 0,
            mine: 1 << 4,
        };
        assert!(verify_by_enumeration(&rule));
        let rule = Rule {
            pattern: Pattern::new(2, 3, vec![Open, Number(2), Open, Closed, Closed, Open]),
            kind: RuleKind::Forced,
            safe: 0,
            mine: 1 << 4,
        };
        assert!(!verify_by_enumeration(&rule));
    }
}
