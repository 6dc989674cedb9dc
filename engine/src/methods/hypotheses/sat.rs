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
//! # The queries (a backbone computation)
//!
//! A first model `m` gives every variable a value that some layout has. A
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
//! and gives up with [`OverBudget`] when it passes; its clause database is
//! estimated before it is built and checked against the memory limit.

use super::Profile;
use crate::board::{Board, Contradiction, Forced, Value};
use crate::budget::{Budget, OverBudget};
use crate::constraints::{remaining_mines, System};
use crate::methods::MethodError;
use batsat::callbacks::Basic;
use batsat::interface::SolverInterface;
use batsat::{lbool, Lit, Solver, SolverOpts, Var};
use std::time::Instant;

/// Bytes a clause costs the solver, per literal and per clause (header,
/// watches), for the memory estimate.
const BYTES_PER_LITERAL: usize = 4;
const BYTES_PER_CLAUSE: usize = 48;

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

    let deadline = budget.deadline();
    let mut callbacks = Basic::new();
    if let Some(deadline) = deadline {
        callbacks.set_stop(move || Instant::now() >= deadline);
    }
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
    // The count's bounds as assumptions (see the module doc), and the
    // totalizer outputs the interior queries need.
    let mut bounds: Vec<Lit> = Vec::new();
    let mut outputs: Vec<Lit> = Vec::new();
    if let Some(r) = remaining.map(|r| r as usize) {
        let lo = r.saturating_sub(interior);
        let all: Vec<Lit> = (0..n as u32).map(|v| sat.lit(v, true)).collect();
        outputs = sat.totalizer(&all, r + 1);
        // outputs[j - 1] is "at least j mines on the frontier".
        if r < outputs.len() {
            bounds.push(!outputs[r]);
        }
        if lo > n {
            bounds.push(sat.falsum());
        } else if lo >= 1 {
            bounds.push(outputs[lo - 1]);
        }
    }
    profile.sat_clauses = sat.solver.num_clauses() as usize;

    let out_of_time = || budget.out_of_time(what());
    let first = match sat.solve(&bounds) {
        Some(true) => sat.model(),
        Some(false) => return Err(sat.contradiction(board, system, remaining).into()),
        None => return Err(out_of_time().into()),
    };
    let mut flexible = vec![false; n];
    let mut assumptions = bounds.clone();
    for v in 0..n {
        if flexible[v] {
            continue;
        }
        assumptions.truncate(bounds.len());
        assumptions.push(sat.lit(v as u32, !first[v]));
        profile.sat_queries += 1;
        match sat.solve(&assumptions) {
            Some(true) => {
                let model = sat.model();
                for (u, (&a, &b)) in first.iter().zip(&model).enumerate() {
                    flexible[u] |= a != b;
                }
                debug_assert!(flexible[v]);
            }
            Some(false) => {
                // No layout gives `v` the other value: it is forced.
                let cell = system.cell(v as u32);
                let value = if first[v] { Value::Mine } else { Value::Safe };
                out.push(Forced { cell, value });
                sat.unit(sat.lit(v as u32, first[v]));
            }
            None => return Err(out_of_time().into()),
        }
    }
    if let (Some(r), true) = (remaining.map(|r| r as usize), interior > 0) {
        // `at_most(k)`: the assumption "at most k frontier mines".
        let at_most = |k: usize| outputs.get(k).map(|&o| !o);
        let at_least = |k: usize| {
            if k == 0 {
                None
            } else {
                outputs.get(k - 1).copied()
            }
        };
        let mut query = |extra: Option<Lit>, possible: bool| -> Result<bool, OverBudget> {
            if !possible {
                return Ok(false);
            }
            assumptions.truncate(bounds.len());
            assumptions.extend(extra);
            profile.sat_queries += 1;
            sat.solve(&assumptions).ok_or_else(out_of_time)
        };
        // An interior mine needs a frontier of at most R − 1 mines; an
        // interior safe cell, one of at least R − I + 1 (at most n).
        let can_mine = r >= 1 && query(r.checked_sub(1).and_then(at_most), true)?;
        let need = r + 1 - interior.min(r + 1);
        let can_safe = query(at_least(need), need <= n)?;
        let value = match (can_mine, can_safe) {
            (true, false) => Some(Value::Mine),
            (false, true) => Some(Value::Safe),
            _ => None,
        };
        if let Some(value) = value {
            out.extend(system.interior().iter().map(|&cell| Forced { cell, value }));
        }
    }
    Ok(())
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

    /// A literal that is always false.
    fn falsum(&mut self) -> Lit {
        let v = self.solver.new_var_default();
        let f = Lit::new(v, false);
        self.unit(f);
        f
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
/// up to three literals).
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
    problem.saturating_mul(2)
}
