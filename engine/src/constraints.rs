//! The constraint system of a position: what every exact method reasons
//! over.
//!
//! # The maths
//!
//! A board is a system of linear equations over 0/1 variables (the design
//! reference, `docs/design.md` §1). Every closed (`Cell::Unknown`) cell `x`
//! is a variable, `x = 1` for a mine. Every revealed number gives one
//! [`Equation`]: `Σ x_n = target` over its closed neighbours `n`, where
//! `target` is the number minus the known mines (flags and proven mines)
//! around it. When the total is known, the *global equation*
//! `Σ x = total − known mines` over every closed cell is added.
//!
//! - A closed cell with a revealed neighbour is a **frontier** cell: it is a
//!   variable of some number's equation. A closed cell without one is an
//!   **interior** cell: only the global equation sees it, so all interior
//!   cells are interchangeable and the methods count them, never enumerate
//!   them.
//! - Frontier cells linked through shared equations form **components**: no
//!   equation spans two, so their solutions combine freely except through
//!   the global count.
//!
//! # What is checked here, once
//!
//! [`check_number`] is the single-number consistency check every method
//! needs: a number with more known mines around it than it shows, or more
//! mines to place than closed neighbours, rules out every layout.
//! [`System::build`] applies it to every number, so a method holding a
//! `System` knows each equation has `0 ≤ target ≤ its cells`.
//! [`remaining_mines`] is the same for the global equation: the total
//! leaves between 0 and the number of closed cells.
//!
//! # Small systems
//!
//! [`Subsystem`] holds the equations of a few chosen numbers alone (at most
//! 64 cells) and decides them exactly by search; learning uses it to ask
//! whether a set of foci forces a cell without the rest of the board.
//!
//! # Layout for the methods
//!
//! Frontier cells are numbered `0..` in cell order (*variables*); equations
//! are numbered in the order of their numbers' cells. Each equation lists its
//! variables and each variable its equations (at most eight each: one
//! neighbourhood), so a pass that walks a component — the hypotheses
//! programme deciding cells one by one, a counting pass weighing them — reads
//! both directions without searching.

use crate::board::{Board, Cell, Contradiction};
use crate::grid::Grid;

const NONE: u32 = u32::MAX;

/// The single-number consistency check: a revealed number at `cell` that
/// still needs `need` mines (its number minus the known mines around it; may
/// be negative on a contradictory board) among `closed` closed neighbours.
/// `Ok` iff some assignment of those neighbours satisfies it on its own.
#[inline]
pub fn check_number(cell: u32, need: i32, closed: u32) -> Result<(), Contradiction> {
    // The consistent case is decided inline (hundreds of thousands of
    // numbers in a game of play); only a contradiction is worded.
    if (0..=closed as i64).contains(&(need as i64)) {
        return Ok(());
    }
    Err(number_contradiction(cell, need, closed))
}

/// What is wrong with a number [`check_number`] rejects.
#[cold]
#[inline(never)]
fn number_contradiction(cell: u32, need: i32, closed: u32) -> Contradiction {
    if need < 0 {
        Contradiction::new(
            vec![cell],
            "more known mines (flagged or proven) around it than its number",
        )
    } else if closed == 0 {
        Contradiction::new(
            vec![cell],
            format!("number needs {need} more mines but has no closed neighbour"),
        )
    } else {
        Contradiction::new(
            vec![cell],
            format!("number needs {need} mines among {closed} closed neighbours"),
        )
    }
}

/// The global count check: the mines the total leaves for the closed cells
/// (`None` when the total is not known). A total below the known mines, or
/// leaving more mines than there are closed cells, rules out every layout.
pub fn remaining_mines(board: &Board) -> Result<Option<u32>, Contradiction> {
    let (Some(total), Some(remaining)) = (board.total_mines(), board.remaining_mines()) else {
        return Ok(None);
    };
    let known = board.known_mines();
    let closed = board.unknown_count();
    if remaining < 0 {
        return Err(Contradiction::new(
            Vec::new(),
            format!("total {total}: {known} mines are already flagged or proven"),
        ));
    }
    if remaining > closed as i64 {
        return Err(Contradiction::new(
            Vec::new(),
            format!(
                "total {total}: {known} mines are flagged or proven and the {remaining} left do not \
                 fit in the {closed} closed cells"
            ),
        ));
    }
    Ok(Some(remaining as u32))
}

/// Up to eight ids (one neighbourhood's worth), on the stack. Two are
/// equal when they hold the same ids in the same order (the slots beyond
/// the ids are always zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Few {
    ids: [u32; 8],
    len: u8,
}

impl Few {
    /// No ids.
    pub const EMPTY: Few = Few {
        ids: [0; 8],
        len: 0,
    };

    /// Appends `id`. At most eight fit: a ninth push panics.
    #[inline]
    pub fn push(&mut self, id: u32) {
        self.ids[self.len as usize] = id;
        self.len += 1;
    }

    /// The ids, in the order they were pushed.
    #[inline]
    pub fn as_slice(&self) -> &[u32] {
        &self.ids[..self.len as usize]
    }

    /// Number of ids, `0..=8`.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is no id.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One revealed number's equation: `Σ x_v = target` over its variables.
#[derive(Clone, Copy, Debug)]
pub struct Equation {
    /// The number's cell.
    pub number: u32,
    /// Mines still needed among the variables, `0..=vars.len()`.
    pub target: u8,
    /// The variables (frontier indices) of its closed neighbours.
    pub vars: Few,
}

/// The equations of a board over its frontier cells, and its interior.
#[derive(Clone, Debug)]
pub struct System {
    /// Cell of each variable (frontier cell), in cell order.
    frontier: Vec<u32>,
    /// The equations each variable appears in.
    var_equations: Vec<Few>,
    /// The equations of the numbers with a closed neighbour, in cell order.
    equations: Vec<Equation>,
    /// Closed cells with no revealed neighbour, in cell order.
    interior: Vec<u32>,
    grid: Grid,
}

/// One frontier component: its variables and equations, each in index order.
#[derive(Clone, Debug, Default)]
pub struct Component {
    /// Its variables (frontier indices, see [`System::cell`]).
    pub vars: Vec<u32>,
    /// Its equations (indices into [`System::equations`]).
    pub equations: Vec<u32>,
}

/// A system's frontier components ([`System::components_into`]), with the
/// buffers that find them, kept from one system to the next.
#[derive(Clone, Debug, Default)]
pub struct Components {
    /// The first `len` are the components; the rest keep their buffers.
    list: Vec<Component>,
    len: usize,
    parent: Vec<u32>,
    component_of_root: Vec<u32>,
    component_of_var: Vec<u32>,
}

impl Components {
    /// The components, ordered by their first variable.
    pub fn as_slice(&self) -> &[Component] {
        &self.list[..self.len]
    }
}

/// The system of an empty board, for [`System::rebuild`] to fill.
impl Default for System {
    fn default() -> System {
        System {
            frontier: Vec::new(),
            var_equations: Vec::new(),
            equations: Vec::new(),
            interior: Vec::new(),
            grid: Grid::new(0, 0),
        }
    }
}

impl System {
    /// The equations of `board`, every number checked by [`check_number`].
    /// The global count is not checked here (see
    /// [`Board::remaining_mines`]); the methods that use it do.
    pub fn build(board: &Board) -> Result<System, Contradiction> {
        let mut system = System::default();
        system.rebuild(board)?;
        Ok(system)
    }

    /// [`System::build`] into this system, reusing its lists (a caller
    /// that builds one system per move allocates once per build, not a
    /// dozen times). On a contradiction the system is left inconsistent
    /// until the next successful rebuild.
    pub fn rebuild(&mut self, board: &Board) -> Result<(), Contradiction> {
        let grid = board.grid();
        let n = grid.len() as u32;
        self.grid = grid;
        // Per cell, its variable (a board's worth of words: not kept, as a
        // large board's system would hold it for nothing).
        let mut var_of = vec![NONE; n as usize];
        // One pass over the numbers: each one's closed neighbours (as cells
        // for now) and effective value. Its closed neighbours are frontier
        // cells.
        let equations = &mut self.equations;
        equations.clear();
        let mut frontier_cells = 0usize;
        let cells = board.cells();
        for (i, cell) in cells.iter().enumerate() {
            if !matches!(cell, Cell::Revealed(_)) {
                continue;
            }
            let i = i as u32;
            // The board keeps each number's effective value and closed
            // neighbours: most numbers are settled (no closed neighbour)
            // and are checked without reading their neighbourhood.
            let Some((need, closed)) = board.effective(i) else {
                continue;
            };
            check_number(i, need, closed)?;
            if closed == 0 {
                continue; // satisfied, constrains nothing
            }
            let mut vars = Few::EMPTY;
            let around = grid.neighbours_by_direction(i);
            let mut dirs = board.closed_mask(i);
            while dirs != 0 {
                vars.push(around.cells[dirs.trailing_zeros() as usize]);
                dirs &= dirs - 1;
            }
            for &c in vars.as_slice() {
                frontier_cells += (var_of[c as usize] == NONE) as usize;
                var_of[c as usize] = 0; // frontier; numbered below
            }
            equations.push(Equation {
                number: i,
                target: need as u8,
                vars,
            });
        }
        // Number the frontier cells in cell order; the rest of the closed
        // cells are interior.
        let (frontier, interior) = (&mut self.frontier, &mut self.interior);
        frontier.clear();
        interior.clear();
        // Sized exactly: no growing on the way.
        frontier.reserve(frontier_cells);
        interior.reserve(board.unknown_count() as usize - frontier_cells);
        for ((i, cell), var) in cells.iter().enumerate().zip(var_of.iter_mut()) {
            if !cell.is_unknown() {
                continue;
            }
            if *var == NONE {
                interior.push(i as u32);
            } else {
                *var = frontier.len() as u32;
                frontier.push(i as u32);
            }
        }
        let var_equations = &mut self.var_equations;
        var_equations.clear();
        var_equations.resize(frontier.len(), Few::EMPTY);
        for (e, eq) in equations.iter_mut().enumerate() {
            for v in &mut eq.vars.ids[..eq.vars.len as usize] {
                *v = var_of[*v as usize];
                var_equations[*v as usize].push(e as u32);
            }
        }
        Ok(())
    }

    /// The cell of every variable: the frontier, in cell order.
    #[inline]
    pub fn frontier(&self) -> &[u32] {
        &self.frontier
    }

    /// The cell of variable `var`.
    #[inline]
    pub fn cell(&self, var: u32) -> u32 {
        self.frontier[var as usize]
    }

    /// Closed cells with no revealed neighbour, in cell order.
    #[inline]
    pub fn interior(&self) -> &[u32] {
        &self.interior
    }

    /// Every equation, in the order of their numbers' cells.
    #[inline]
    pub fn equations(&self) -> &[Equation] {
        &self.equations
    }

    /// Equation `e` (an index into [`System::equations`]).
    #[inline]
    pub fn equation(&self, e: u32) -> &Equation {
        &self.equations[e as usize]
    }

    /// The equations variable `var` appears in (one to eight).
    #[inline]
    pub fn equations_of(&self, var: u32) -> &[u32] {
        self.var_equations[var as usize].as_slice()
    }

    /// The grid of the board the system was built from.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The frontier components (union-find over the equations), ordered by
    /// their first variable.
    pub fn components(&self) -> Vec<Component> {
        let mut found = Components::default();
        self.components_into(&mut found);
        found.list.truncate(found.len);
        found.list
    }

    /// [`System::components`] into `found`, reusing its buffers.
    pub fn components_into(&self, found: &mut Components) {
        let nv = self.frontier.len();
        let Components {
            list,
            len,
            parent,
            component_of_root,
            component_of_var,
        } = found;
        parent.clear();
        parent.extend(0..nv as u32);
        fn root(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                let up = parent[parent[x as usize] as usize];
                parent[x as usize] = up;
                x = up;
            }
            x
        }
        for eq in &self.equations {
            let vars = eq.vars.as_slice();
            let mut first = root(parent, vars[0]);
            for &v in &vars[1..] {
                let r = root(parent, v);
                if r != first {
                    // Attach the larger root under the smaller; the merged
                    // set's root is the smaller one.
                    let (lo, hi) = if r < first { (r, first) } else { (first, r) };
                    parent[hi as usize] = lo;
                    first = lo;
                }
            }
        }
        component_of_root.clear();
        component_of_root.resize(nv, NONE);
        component_of_var.clear();
        component_of_var.resize(nv, 0);
        *len = 0;
        for v in 0..nv as u32 {
            let r = root(parent, v) as usize;
            if component_of_root[r] == NONE {
                component_of_root[r] = *len as u32;
                if *len == list.len() {
                    list.push(Component::default());
                }
                list[*len].vars.clear();
                list[*len].equations.clear();
                *len += 1;
            }
            let c = component_of_root[r];
            component_of_var[v as usize] = c;
            list[c as usize].vars.push(v);
        }
        for (e, eq) in self.equations.iter().enumerate() {
            let c = component_of_var[eq.vars.as_slice()[0] as usize];
            list[c as usize].equations.push(e as u32);
        }
    }
}

/// A small system: the equations of a few chosen numbers alone (no global
/// count, no other number), over at most 64 cells, decided exactly by
/// depth-first search with unit propagation. Learning asks it whether a set
/// of foci forces a cell on its own. Variables are the cells in increasing
/// order: bit `k` of a mask is `vars()[k]`.
#[derive(Clone, Debug)]
pub struct Subsystem {
    vars: Vec<u32>,
    equations: Vec<(u64, u8)>,
}

impl Subsystem {
    /// The equations `(closed cells, mines among them)`; at most 64
    /// distinct cells in all.
    pub fn new<'a>(equations: impl Iterator<Item = (&'a [u32], u8)> + Clone) -> Subsystem {
        let mut vars: Vec<u32> = equations
            .clone()
            .flat_map(|(cells, _)| cells.iter().copied())
            .collect();
        vars.sort_unstable();
        vars.dedup();
        assert!(vars.len() <= 64, "a subsystem has at most 64 cells");
        let equations = equations
            .map(|(cells, target)| {
                let mask = cells.iter().fold(0u64, |m, v| {
                    m | 1 << vars.binary_search(v).expect("collected above")
                });
                (mask, target)
            })
            .collect();
        Subsystem { vars, equations }
    }

    /// The cells, in increasing order (bit `k` of a mask is `vars()[k]`).
    pub fn vars(&self) -> &[u32] {
        &self.vars
    }

    fn all(&self) -> u64 {
        if self.vars.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.vars.len()) - 1
        }
    }

    /// A solution (mask of mines) with the cells of `ones` mines and those
    /// of `zeros` safe, if any: depth-first search with unit propagation.
    pub fn solve(&self, mut ones: u64, mut zeros: u64) -> Option<u64> {
        loop {
            let mut changed = false;
            for &(mask, value) in &self.equations {
                let need = value as i32 - (ones & mask).count_ones() as i32;
                let free = mask & !(ones | zeros);
                let free_count = free.count_ones() as i32;
                if need < 0 || need > free_count {
                    return None;
                }
                if free != 0 {
                    // need = 0: the equation is met, its other cells are safe;
                    // need = free: every remaining cell must be a mine.
                    if need == 0 {
                        zeros |= free;
                        changed = true;
                    } else if need == free_count {
                        ones |= free;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let open = self.all() & !(ones | zeros);
        if open == 0 {
            return Some(ones);
        }
        let x = open & open.wrapping_neg();
        self.solve(ones | x, zeros)
            .or_else(|| self.solve(ones, zeros | x))
    }

    /// `(safe, mine)` masks of the variables with one value in every
    /// solution; `None` if there is no solution.
    pub fn forced(&self) -> Option<(u64, u64)> {
        let first = self.solve(0, 0)?;
        // A variable is forced iff no solution gives it the other value;
        // every solution found also clears the variables it disagrees on.
        let mut free = 0u64;
        let mut rest = self.all();
        while rest != 0 {
            let x = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if free & x != 0 {
                continue;
            }
            let other = if first & x != 0 {
                self.solve(0, x)
            } else {
                self.solve(x, 0)
            };
            if let Some(s) = other {
                free |= s ^ first;
            }
        }
        let fixed = self.all() & !free;
        Some((fixed & !first, fixed & first))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::board_from_picture;

    fn system(rows: &[&str]) -> Result<System, Contradiction> {
        System::build(&board_from_picture(rows, None))
    }

    #[test]
    fn frontier_interior_and_equations_of_a_small_board() {
        // ? ? ? ?
        // 1 2 . ?       the 1 sees (0,0),(0,1); the 2 sees (0,0..=2);
        //               (0,3) and (1,3) touch no number: interior.
        let s = system(&["????", "12.?"]).unwrap();
        assert_eq!(s.frontier(), &[0, 1, 2]);
        assert_eq!(s.interior(), &[3, 7]);
        let eqs: Vec<(u32, u8, Vec<u32>)> = s
            .equations()
            .iter()
            .map(|e| (e.number, e.target, e.vars.as_slice().to_vec()))
            .collect();
        assert_eq!(eqs, vec![(4, 1, vec![0, 1]), (5, 2, vec![0, 1, 2])]);
        assert_eq!(s.equations_of(0), &[0, 1]);
        assert_eq!(s.equations_of(2), &[1]);
    }

    #[test]
    fn components_split_where_no_equation_links_them() {
        // Two numbers sharing nothing, and a pair sharing a cell.
        // ? 1 . 1 ? . ? ?
        // . . . . . . 1 1
        let s = system(&["?1.1?.??", "......11"]).unwrap();
        let comps = s.components();
        let cells: Vec<Vec<u32>> = comps
            .iter()
            .map(|c| c.vars.iter().map(|&v| s.cell(v)).collect())
            .collect();
        assert_eq!(cells, vec![vec![0], vec![4], vec![6, 7]]);
        assert_eq!(comps[2].equations.len(), 2);
    }

    #[test]
    fn a_total_that_cannot_fit_is_a_contradiction_of_the_count_alone() {
        let count = |rows: &[&str], total| remaining_mines(&board_from_picture(rows, Some(total)));
        assert_eq!(count(&["F1?"], 2), Ok(Some(1)));
        let err = count(&["FF?"], 1).unwrap_err();
        assert!(err.cells.is_empty());
        assert_eq!(err.reason, "total 1: 2 mines are already flagged or proven");
        let err = count(&["F1?"], 3).unwrap_err();
        assert_eq!(
            err.reason,
            "total 3: 1 mines are flagged or proven and the 2 left do not fit in the 1 closed cells"
        );
        assert_eq!(
            remaining_mines(&board_from_picture(&["F1?"], None)),
            Ok(None)
        );
    }

    proptest::proptest! {
        /// `Subsystem::forced` against enumerating every assignment of up to
        /// ten cells.
        #[test]
        fn a_subsystem_forces_exactly_what_every_solution_agrees_on(
            equations in proptest::collection::vec(
                (proptest::collection::btree_set(0u32..10, 1..=4), 0u8..=4),
                1..=5,
            )
        ) {
            let equations: Vec<(Vec<u32>, u8)> = equations
                .into_iter()
                .map(|(cells, t)| {
                    let cells: Vec<u32> = cells.into_iter().collect();
                    let t = t.min(cells.len() as u8);
                    (cells, t)
                })
                .collect();
            let sub = Subsystem::new(equations.iter().map(|(c, t)| (c.as_slice(), *t)));
            let vars = sub.vars().to_vec();
            let (mut always, mut never) = (u64::MAX, u64::MAX);
            let mut any = false;
            for layout in 0u64..(1 << vars.len()) {
                let mine = |cell: &u32| layout >> vars.binary_search(cell).unwrap() & 1 == 1;
                if equations.iter().all(|(c, t)| c.iter().filter(|x| mine(x)).count() == *t as usize) {
                    any = true;
                    always &= layout;
                    never &= !layout;
                }
            }
            let all = (1u64 << vars.len()) - 1;
            let expected = any.then_some((never & all, always & all));
            proptest::prop_assert_eq!(sub.forced(), expected);
        }
    }

    #[test]
    fn impossible_numbers_are_named() {
        let err = system(&["2?"]).unwrap_err();
        assert_eq!(err.cells, vec![0]);
        assert_eq!(err.reason, "number needs 2 mines among 1 closed neighbours");
        let err = system(&["1."]).unwrap_err();
        assert_eq!(
            err.reason,
            "number needs 1 more mines but has no closed neighbour"
        );
        let err = system(&["F0?"]).unwrap_err();
        assert_eq!(err.cells, vec![1]);
        assert_eq!(
            err.reason,
            "more known mines (flagged or proven) around it than its number"
        );
    }
}
