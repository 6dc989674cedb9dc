//! Hypotheses' second path: the same question asked of a CDCL SAT solver,
//! for positions whose frontier is too wide for the programme.
//!
//! # Why
//!
//! The path-decomposition programme is exponential in the number of
//! equations active at once. Along a real frontier that number stays
//! small, but a frontier as wide as the board (numbers on a lattice, every
//! other cell closed) keeps dozens of equations open and no elimination
//! order helps. "Is this cell forced?" is a satisfiability question, and a
//! conflict-driven clause-learning solver answers it on such positions in
//! milliseconds, because their constraints are local and learning prunes
//! the search where the programme would enumerate partial sums.
//!
//! # The encoding
//!
//! One boolean per frontier variable, true for a mine.
//!
//! - Every equation `Σ x = t` over `n ≤ 8` cells is *at most t* (every
//!   `t + 1` of its cells hold a safe one: a clause of negative literals per
//!   subset) and *at least t* (every `n − t + 1` hold a mine: a clause of
//!   positive literals per subset) — at most 2·C(8, 4) = 140 clauses.
//! - The global equation, when the total is known: with `R` mines left and
//!   `I` interior cells, the frontier holds between `R − I` and `R` of them
//!   (the interior takes the rest, and interior cells are counted, never
//!   given variables). A *totalizer* (a tree of unary adders over the
//!   frontier, each output `o_j` true iff at least `j` of its leaves are
//!   mines, both directions encoded, outputs capped at `R + 1`) turns the
//!   bounds into two literals, `¬o_{R+1}` and `o_{R−I}`, passed as
//!   assumptions to every query — so an unsatisfiable instance can be told
//!   apart: unsatisfiable without them means the numbers contradict each
//!   other, with them only means the count does.
//!
//! # The queries (a backbone computation, in two phases)
//!
//! First the numbers alone, then (with the total) the count added: a cell
//! the numbers force is forced whatever the count says, and proving it
//! without the count's large encoding is cheap (on a 36×36 lattice, 0.16 s
//! without the count against minutes with it); only the cells the numbers
//! leave open are asked again with the count. In each phase:
//! a first model `m` gives every variable a value that some layout has. A
//! variable `v` is forced iff the instance plus the assumption `v = ¬m[v]`
//! is unsatisfiable; every model found on the way proves each variable it
//! disagrees with `m` on *not* forced, so most variables are settled
//! without a query of their own. A variable proven forced is added as a
//! unit clause, which only helps later queries. Interior cells can be mines
//! iff some layout leaves the interior a mine (`Σ frontier ≤ R − 1`,
//! assumption `¬o_R`) and safe iff some layout leaves it fewer than `I`
//! (`Σ frontier ≥ R − I + 1`, assumption `o_{R−I+1}`).
//!
//! The answer is the programme's answer: both decide exactly, for every
//! closed cell, whether the opposite hypothesis has a layout (tested against
//! each other and brute force). The solver polls the [`Budget`]'s deadline
//! and cancel switch and gives up with [`OverBudget`] when the deadline
//! passes or the switch is thrown; its clause database is estimated
//! before it is built and checked against the memory limit.

use super::Profile;
use crate::board::{Board, Contradiction, Forced, Value};
use crate::budget::{Budget, OverBudget};
use crate::constraints::{remaining_mines, System};
use crate::methods::MethodError;
use batsat::callbacks::Basic;
use batsat::interface::SolverInterface;
use batsat::{lbool, Lit, Solver, SolverOpts, Var};

/// Bytes a clause costs the solver, per literal and per clause (header,
/// watches), for the memory estimate.
const BYTES_PER_LITERAL: usize = 4;
const BYTES_PER_CLAUSE: usize = 48;
/// Bytes the solver takes whatever the instance: batsat's clause arena
/// starts with room for 2^20 32-bit words.
const SOLVER_START_BYTES: usize = 4 << 20;

/// Decides every closed cell of `system` (see the module doc): pushes the
/// forced ones to `out`, in no particular order.
pub(super) fn find(
    board: &Board,
    system: &System,
    budget: &Budget,
    out: &mut Vec<Forced>,
    profile: &mut Profile,
) -> Result<(), MethodError> {
    let n = system.frontier().len();
    let interior = system.interior().len();
    let remaining = remaining_mines(board)?;
    let what = || format!("a frontier of {n} closed cells (SAT search)");
    budget.check_bytes(estimated_bytes(system, remaining), what)?;

    // The search stops at the deadline, or once the budget's cancel
    // switch is thrown.
    let stop = *budget;
    let mut callbacks = Basic::new();
    callbacks.set_stop(move || stop.check_time(String::new).is_err());
    let mut sat = Instance {
        solver: Solver::new(SolverOpts::default(), callbacks),
        vars: Vec::with_capacity(n),
    };
    for _ in 0..n {
        let v = sat.solver.new_var_default();
        sat.vars.push(v);
    }
    for eq in system.equations() {
        let lits: Vec<Lit> = eq
            .vars
            .as_slice()
            .iter()
            .map(|&v| sat.lit(v, true))
            .collect();
        sat.exactly(&lits, eq.target as usize);
    }
    let out_of_time = || budget.out_of_time(what());

    // First the numbers alone: a cell they force is forced whatever the
    // count says (the count only removes layouts), and proving it here,
    // without the count's large encoding, is cheap. Each is then a unit
    // clause that narrows the second phase.
    let mut settled = vec![false; n];
    if sat.solve(&[]).ok_or_else(out_of_time)? {
        backbone(&mut sat, &[], &mut settled, system, out, profile).ok_or_else(out_of_time)?;
    } else {
        return Err(sat.contradiction(board, system, remaining).into());
    }

    // Then the count, when the total is known: its bounds as assumptions
    // (see the module doc). Only the cells the numbers left open can be
    // newly forced.
    let Some(r) = remaining.map(|r| r as usize) else {
        return Ok(());
    };
    let count = FrontierCount::encode(&mut sat, system, &settled, r);
    profile.sat_clauses = sat.solver.num_clauses() as usize;
    let lo = r.saturating_sub(interior);
    let mut bounds: Vec<Lit> = Vec::new();
    for bound in [count.at_most(r), count.at_least(lo)] {
        match bound {
            Bound::Always => {}
            Bound::Never => return Err(sat.contradiction(board, system, remaining).into()),
            Bound::When(lit) => bounds.push(lit),
        }
    }
    if !sat.solve(&bounds).ok_or_else(out_of_time)? {
        return Err(sat.contradiction(board, system, remaining).into());
    }
    backbone(&mut sat, &bounds, &mut settled, system, out, profile).ok_or_else(out_of_time)?;
    if interior == 0 {
        return Ok(());
    }
    // An interior mine needs a frontier of at most R − 1 mines; an interior
    // safe cell, one of at least R − I + 1.
    let mut possible = |bound: Bound| -> Result<bool, OverBudget> {
        let mut query = bounds.clone();
        match bound {
            Bound::Always => {}
            Bound::Never => return Ok(false),
            Bound::When(lit) => query.push(lit),
        }
        profile.sat_queries += 1;
        sat.solve(&query).ok_or_else(out_of_time)
    };
    let can_mine = r >= 1 && possible(count.at_most(r - 1))?;
    let can_safe = possible(count.at_least(r + 1 - interior.min(r + 1)))?;
    let value = match (can_mine, can_safe) {
        (true, false) => Some(Value::Mine),
        (false, true) => Some(Value::Safe),
        _ => None,
    };
    if let Some(value) = value {
        out.extend(system.interior().iter().map(|&cell| Forced { cell, value }));
    }
    Ok(())
}

/// The backbone under `assumptions`, starting from the model the solver
/// just found: every variable not yet `settled` is queried with its other
/// value unless a model on the way already gave it one. Forced variables
/// go to `out`, become unit clauses and are settled.
/// `None` when the deadline stops a query.
fn backbone(
    sat: &mut Instance,
    assumptions: &[Lit],
    settled: &mut [bool],
    system: &System,
    out: &mut Vec<Forced>,
    profile: &mut Profile,
) -> Option<()> {
    let first = sat.model();
    let mut flexible = vec![false; first.len()];
    let mut query = assumptions.to_vec();
    for v in 0..first.len() {
        if settled[v] || flexible[v] {
            continue;
        }
        query.truncate(assumptions.len());
        query.push(sat.lit(v as u32, !first[v]));
        profile.sat_queries += 1;
        if sat.solve(&query)? {
            let model = sat.model();
            for (u, (&a, &b)) in first.iter().zip(&model).enumerate() {
                flexible[u] |= a != b;
            }
            debug_assert!(flexible[v]);
        } else {
            // No layout gives `v` the other value: it is forced.
            let cell = system.cell(v as u32);
            let value = if first[v] { Value::Mine } else { Value::Safe };
            out.push(Forced { cell, value });
            sat.unit(sat.lit(v as u32, first[v]));
            settled[v] = true;
        }
    }
    // Variables flexible here stay unsettled: adding the count may still
    // force them.
    Some(())
}

/// "The frontier holds at least / at most `j` mines" as a literal, or a
/// constant when the encoding already decides it.
#[derive(Clone, Copy, Debug)]
enum Bound {
    Always,
    Never,
    When(Lit),
}

/// The frontier's mine count, encoded once: the cells the numbers already
/// force count as constants, and so does every number of a *packing* (a
/// set of numbers whose open cells are pairwise disjoint holds exactly its
/// numbers' remaining targets); only the cells outside the packing go into
/// the totalizer. On a lattice of numbers the packing covers two thirds of
/// the frontier, and the totalizer's clauses, quadratic in its leaves, fall
/// by a factor of about nine.
struct FrontierCount {
    /// Mines the frontier holds outside the totalizer's leaves.
    fixed: usize,
    /// Leaves of the totalizer.
    leaves: usize,
    /// `outputs[k - 1]`: at least `k` of the leaves are mines.
    outputs: Vec<Lit>,
}

impl FrontierCount {
    /// `remaining`: the most mines the frontier may hold (the outputs are
    /// capped just above it).
    fn encode(
        sat: &mut Instance,
        system: &System,
        settled: &[bool],
        remaining: usize,
    ) -> FrontierCount {
        let model_of_forced = sat.forced_values(settled);
        let mut fixed = model_of_forced
            .iter()
            .flatten()
            .filter(|&&mine| mine)
            .count();
        // Greedy packing, largest open part first (ties: equation order).
        let mut open_part: Vec<(usize, u32)> = system
            .equations()
            .iter()
            .enumerate()
            .map(|(e, eq)| {
                let open = eq
                    .vars
                    .as_slice()
                    .iter()
                    .filter(|&&v| !settled[v as usize])
                    .count();
                (open, e as u32)
            })
            .filter(|&(open, _)| open > 0)
            .collect();
        open_part.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut covered = settled.to_vec();
        for &(_, e) in &open_part {
            let eq = system.equation(e);
            if eq.vars.as_slice().iter().any(|&v| covered[v as usize]) {
                continue;
            }
            for &v in eq.vars.as_slice() {
                covered[v as usize] = true;
            }
            // Every cell of this number is open and uncovered: it holds
            // exactly its target.
            fixed += eq.target as usize;
        }
        let leaves: Vec<Lit> = (0..settled.len() as u32)
            .filter(|&v| !covered[v as usize])
            .map(|v| sat.lit(v, true))
            .collect();
        let cap = (remaining + 1).saturating_sub(fixed).max(1);
        let outputs = sat.totalizer(&leaves, cap);
        FrontierCount {
            fixed,
            leaves: leaves.len(),
            outputs,
        }
    }

    /// "At least `j` frontier mines".
    fn at_least(&self, j: usize) -> Bound {
        let Some(k) = j.checked_sub(self.fixed).filter(|&k| k > 0) else {
            return Bound::Always;
        };
        if k > self.leaves {
            return Bound::Never;
        }
        match self.outputs.get(k - 1) {
            Some(&lit) => Bound::When(lit),
            // Beyond the cap: more than the total allows.
            None => Bound::Never,
        }
    }

    /// "At most `j` frontier mines".
    fn at_most(&self, j: usize) -> Bound {
        match self.at_least(j + 1) {
            Bound::Always => Bound::Never,
            Bound::Never => Bound::Always,
            Bound::When(lit) => Bound::When(!lit),
        }
    }
}

/// The solver and the solver variable of each frontier variable.
struct Instance {
    solver: Solver<Basic>,
    vars: Vec<Var>,
}

impl Instance {
    fn lit(&self, var: u32, mine: bool) -> Lit {
        Lit::new(self.vars[var as usize], mine)
    }

    fn clause(&mut self, lits: &[Lit]) {
        let mut clause = lits.to_vec();
        self.solver.add_clause_reuse(&mut clause);
    }

    fn unit(&mut self, lit: Lit) {
        self.clause(&[lit]);
    }

    /// The value every settled variable is fixed to (by a unit clause).
    fn forced_values(&self, settled: &[bool]) -> Vec<Option<bool>> {
        settled
            .iter()
            .enumerate()
            .map(|(v, &s)| {
                s.then(|| self.solver.value_lvl_0(self.lit(v as u32, true)) == lbool::TRUE)
            })
            .collect()
    }

    /// Exactly `t` of `lits` (at most eight) are true, by subsets: no
    /// `t + 1` of them all true (at most `t`), no `n − t + 1` of them all
    /// false (at least `t`).
    fn exactly(&mut self, lits: &[Lit], t: usize) {
        let n = lits.len();
        debug_assert!(n <= 8 && t <= n);
        for subset in 0u32..1 << n {
            let size = subset.count_ones() as usize;
            for (bound_size, mine) in [(t + 1, false), (n + 1 - t, true)] {
                if size != bound_size {
                    continue;
                }
                let mut clause: Vec<Lit> = lits
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| subset >> k & 1 == 1)
                    .map(|(_, &l)| if mine { l } else { !l })
                    .collect();
                self.solver.add_clause_reuse(&mut clause);
            }
        }
    }

    /// Totalizer outputs over `leaves`: `out[j]` iff at least `j + 1` leaves
    /// are true, for `j < min(len, cap)`.
    fn totalizer(&mut self, leaves: &[Lit], cap: usize) -> Vec<Lit> {
        if leaves.len() <= 1 {
            return leaves.to_vec();
        }
        let (left, right) = leaves.split_at(leaves.len() / 2);
        let a = self.totalizer(left, cap);
        let b = self.totalizer(right, cap);
        let m = (a.len() + b.len()).min(cap);
        let r: Vec<Lit> = (0..m)
            .map(|_| Lit::new(self.solver.new_var_default(), true))
            .collect();
        // `i`, `j`: how many of the left / right leaves are known true (0 =
        // no condition). Up: a ≥ i and b ≥ j imply r ≥ i + j. Down: a < i + 1
        // and b < j + 1 imply r < i + j + 1.
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                let sum = i + j;
                if sum >= 1 {
                    let mut c = Vec::with_capacity(3);
                    if i > 0 {
                        c.push(!a[i - 1]);
                    }
                    if j > 0 {
                        c.push(!b[j - 1]);
                    }
                    c.push(r[sum.min(m) - 1]);
                    self.solver.add_clause_reuse(&mut c);
                }
                if sum < m {
                    let mut c = Vec::with_capacity(3);
                    if i < a.len() {
                        c.push(a[i]);
                    }
                    if j < b.len() {
                        c.push(b[j]);
                    }
                    c.push(!r[sum]);
                    self.solver.add_clause_reuse(&mut c);
                }
            }
        }
        r
    }

    /// `Some(satisfiable)`, or `None` when stopped at the deadline.
    fn solve(&mut self, assumptions: &[Lit]) -> Option<bool> {
        let result = self.solver.solve_limited(assumptions);
        if result == lbool::TRUE {
            Some(true)
        } else if result == lbool::FALSE {
            Some(false)
        } else {
            None
        }
    }

    /// The last model's value of every frontier variable.
    fn model(&self) -> Vec<bool> {
        self.vars
            .iter()
            .map(|&v| self.solver.value_var(v) == lbool::TRUE)
            .collect()
    }

    /// Why no layout fits: the numbers alone, or the count.
    fn contradiction(
        &mut self,
        board: &Board,
        system: &System,
        remaining: Option<u32>,
    ) -> Contradiction {
        let numbers_alone = self.solve(&[]) == Some(false);
        if numbers_alone || remaining.is_none() {
            let numbers: Vec<u32> = system.equations().iter().map(|e| e.number).collect();
            return Contradiction::new(
                numbers,
                format!(
                    "these {} numbers admit no mine layout of their {} closed neighbours together",
                    system.equations().len(),
                    system.frontier().len()
                ),
            );
        }
        Contradiction::new(
            Vec::new(),
            format!(
                "total {}: no layout of the {} frontier cells leaves between 0 and {} mines for the \
                 {} cells away from the numbers",
                board.total_mines().unwrap_or_default(),
                system.frontier().len(),
                system.interior().len(),
                system.interior().len()
            ),
        )
    }
}

/// What the clause database will take, before it is built: the
/// equations' subset clauses and the totalizer's (each node of `a + b`
/// leaves, capped at `c` outputs, adds about `2 (a + 1)(b + 1)` clauses of
/// up to three literals), twice over for the learnt clauses, and the
/// solver's fixed start (`tests/suite/bounds.rs` checks the most heap the
/// path holds against it).
fn estimated_bytes(system: &System, remaining: Option<u32>) -> usize {
    fn binomial(n: usize, k: usize) -> usize {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }
    let mut clauses = 0usize;
    let mut literals = 0usize;
    for eq in system.equations() {
        let (n, t) = (eq.vars.len(), eq.target as usize);
        let at_most = if t < n { binomial(n, t + 1) } else { 0 };
        let at_least = if t > 0 { binomial(n, n - t + 1) } else { 0 };
        clauses += at_most + at_least;
        literals += at_most * (t + 1) + at_least * (n - t + 1);
    }
    if let Some(r) = remaining {
        let cap = r as usize + 1;
        fn tree(leaves: usize, cap: usize, clauses: &mut usize) -> usize {
            if leaves <= 1 {
                return leaves;
            }
            let a = tree(leaves / 2, cap, clauses);
            let b = tree(leaves - leaves / 2, cap, clauses);
            *clauses = clauses.saturating_add(2 * (a + 1) * (b + 1));
            (a + b).min(cap)
        }
        let mut tot = 0usize;
        tree(system.frontier().len(), cap, &mut tot);
        clauses = clauses.saturating_add(tot);
        literals = literals.saturating_add(tot.saturating_mul(3));
    }
    // Learnt clauses are kept to about a third of the problem's by the
    // solver's reduction; count them twice over to be safe.
    let problem = clauses
        .saturating_mul(BYTES_PER_CLAUSE)
        .saturating_add(literals.saturating_mul(BYTES_PER_LITERAL));
    problem.saturating_mul(2).saturating_add(SOLVER_START_BYTES)
}
