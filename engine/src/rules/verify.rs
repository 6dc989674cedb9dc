//! Independent re-proof of rules (docs/design.md §3: "soundness is checked by
//! exhaustive enumeration of the window's closed cells — never assumed").
//!
//! This module deliberately shares no code with the synthesizer: it reads a
//! [`Rule`] and proves or refutes it from the pattern alone.
//!
//! The equations of a rule: every focus `Number(v)` at `p` says
//! `Σ x_n = v` over its `Closed` neighbours `n` (`x_n ∈ {0, 1}`, 1 = mine).
//! `Open`, `Wall` and other `Number` neighbours contribute 0: an open cell is
//! not unknown, and a known mine is already subtracted from `v` (that is what
//! *effective* value means). The only unknowns that matter are the `Closed`
//! neighbours of the foci — a closed cell touching no focus appears in no
//! equation, so no layout of it can make a focus consistent or inconsistent.
//!
//! - A **forced** rule is sound iff at least one layout satisfies all focus
//!   equations and every such layout gives each concluded cell its concluded
//!   value (safe = 0, mine = 1).
//! - A **forbidden** rule is sound iff no layout satisfies all focus
//!   equations.
//!
//! The enumeration is exhaustive over the unknowns, in a depth-first order
//! that abandons a partial layout only when some focus equation can no longer
//! hold (its partial sum already exceeds `v`, or its unassigned cells cannot
//! reach `v`). Every complete layout satisfying all equations is visited.

use super::{PatternCell, Rule, RuleKind, Rulebase};

/// Largest pattern side. Masks are `u64`, so `h · w ≤ 64`.
pub const MAX_SIDE: u8 = 8;

/// Largest focus value: a cell has 8 neighbours.
pub const MAX_VALUE: u8 = 8;

/// The 8 neighbour offsets of a cell.
const NEIGHBOUR_OFFSETS: [(isize, isize); 8] = crate::grid::DIRECTIONS;

/// Checks that `rule` is well formed, independently of whether it is sound:
///
/// - `h` and `w` are in `1..=8` and `cells` has `h · w` entries;
/// - every focus value is at most 8, and every neighbour of a focus lies
///   inside the pattern and is not `Any`;
/// - the pattern has at least one focus (without one no equation exists and
///   nothing can be concluded);
/// - `safe` and `mine` are disjoint, inside the pattern and only on `Closed`
///   cells;
/// - a forbidden rule has no conclusion, a forced rule has a non-empty one.
///
/// The error names the offending cell as `(row, col)`, 0-based.
pub fn check_structure(rule: &Rule) -> Result<(), String> {
    let p = &rule.pattern;
    let (h, w) = (p.h as usize, p.w as usize);
    if !(1..=MAX_SIDE).contains(&p.h) || !(1..=MAX_SIDE).contains(&p.w) {
        return Err(format!(
            "pattern shape {}×{} is outside 1..={MAX_SIDE} × 1..={MAX_SIDE}",
            p.h, p.w
        ));
    }
    let n = h * w;
    if p.cells.len() != n {
        return Err(format!(
            "a {h}×{w} pattern needs {n} cells, this one has {}",
            p.cells.len()
        ));
    }
    let inside = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    for (name, mask) in [("safe", rule.safe), ("mine", rule.mine)] {
        if mask & !inside != 0 {
            let bit = (mask & !inside).trailing_zeros();
            return Err(format!(
                "{name} conclusion bit {bit} is outside the {h}×{w} pattern"
            ));
        }
    }
    if rule.safe & rule.mine != 0 {
        let i = (rule.safe & rule.mine).trailing_zeros() as usize;
        return Err(format!("cell {} is concluded both safe and mine", rc(i, w)));
    }
    let mut foci = 0;
    for (i, &cell) in p.cells.iter().enumerate() {
        let bit = 1u64 << i;
        if (rule.safe | rule.mine) & bit != 0 && cell != PatternCell::Closed {
            return Err(format!(
                "cell {} carries a conclusion but is {cell:?}, not Closed",
                rc(i, w)
            ));
        }
        let PatternCell::Number(v) = cell else {
            continue;
        };
        foci += 1;
        if v > MAX_VALUE {
            return Err(format!(
                "focus {} has value {v}, more than {MAX_VALUE}",
                rc(i, w)
            ));
        }
        let (r, c) = (i / w, i % w);
        for (dr, dc) in NEIGHBOUR_OFFSETS {
            let (r2, c2) = (r as isize + dr, c as isize + dc);
            if r2 < 0 || c2 < 0 || r2 >= h as isize || c2 >= w as isize {
                return Err(format!(
                    "focus {} has neighbour ({r2},{c2}) outside the {h}×{w} pattern",
                    rc(i, w)
                ));
            }
            let j = r2 as usize * w + c2 as usize;
            if p.cells[j] == PatternCell::Any {
                return Err(format!(
                    "focus {} has neighbour {} that is Any (not looked at)",
                    rc(i, w),
                    rc(j, w)
                ));
            }
        }
    }
    if foci == 0 {
        return Err("the pattern has no focus number".to_string());
    }
    match rule.kind {
        RuleKind::Forbidden if rule.safe | rule.mine != 0 => {
            Err("a forbidden rule carries a conclusion".to_string())
        }
        RuleKind::Forced if rule.safe | rule.mine == 0 => {
            Err("a forced rule concludes nothing".to_string())
        }
        _ => Ok(()),
    }
}

/// `(row,col)` of cell index `i` in a pattern of width `w`.
fn rc(i: usize, w: usize) -> String {
    format!("({},{})", i / w, i % w)
}

/// One focus equation during the search: `Σ x = value` over `cells`.
struct Equation {
    value: u8,
    /// Mines among the assigned unknowns of this focus.
    assigned_mines: u8,
    /// Unknowns of this focus not yet assigned.
    unassigned: u8,
}

impl Equation {
    /// Whether some completion of the unassigned cells can still meet
    /// `value`: the mines so far must not exceed it, and adding every
    /// unassigned cell as a mine must reach it.
    fn feasible(&self) -> bool {
        self.assigned_mines <= self.value && self.assigned_mines + self.unassigned >= self.value
    }
}

/// Re-proves `rule` by exhaustive enumeration (see the module docs).
/// `Ok(())` when the rule is well formed ([`check_structure`]) and sound;
/// otherwise the reason, with a counterexample layout when there is one.
pub fn verify_rule(rule: &Rule) -> Result<(), String> {
    check_structure(rule)?;
    let p = &rule.pattern;
    let (h, w) = (p.h as usize, p.w as usize);

    // The unknowns: Closed neighbours of foci, numbered in the order foci
    // are met (row-major), so each focus's cells are assigned close
    // together and its equation is settled early in the search.
    let mut unknown_of_cell = [u8::MAX; 64];
    let mut unknown_cells: Vec<usize> = Vec::new();
    let mut equations: Vec<Equation> = Vec::new();
    // For each unknown, the equations it appears in.
    let mut touches: Vec<Vec<usize>> = Vec::new();
    for (i, &cell) in p.cells.iter().enumerate() {
        let PatternCell::Number(value) = cell else {
            continue;
        };
        let e = equations.len();
        let mut unassigned = 0;
        let (r, c) = (i / w, i % w);
        for (dr, dc) in NEIGHBOUR_OFFSETS {
            // check_structure proved every focus neighbour is inside.
            let j = (r as isize + dr) as usize * w + (c as isize + dc) as usize;
            if p.cells[j] != PatternCell::Closed {
                // Open, Wall or Number: not unknown, contributes 0.
                continue;
            }
            if unknown_of_cell[j] == u8::MAX {
                unknown_of_cell[j] = unknown_cells.len() as u8;
                unknown_cells.push(j);
                touches.push(Vec::new());
            }
            touches[unknown_of_cell[j] as usize].push(e);
            unassigned += 1;
        }
        equations.push(Equation {
            value,
            assigned_mines: 0,
            unassigned,
        });
    }

    // A conclusion on a closed cell no focus touches cannot be proven: the
    // cell is in no equation, so both of its values fit every layout.
    for (i, _) in p.cells.iter().enumerate() {
        let bit = 1u64 << i;
        if (rule.safe | rule.mine) & bit != 0 && unknown_of_cell[i] == u8::MAX {
            let what = if rule.safe & bit != 0 { "safe" } else { "mine" };
            return Err(format!(
                "cell {} is concluded {what} but touches no focus, so nothing constrains it",
                rc(i, w)
            ));
        }
    }

    let mut search = Search {
        rule,
        unknown_cells: &unknown_cells,
        touches: &touches,
        equations,
        layout: vec![false; unknown_cells.len()],
        layouts_found: 0,
        failure: None,
    };
    // A focus with no closed neighbours has an equation `0 = value`; it is
    // infeasible from the start when value > 0.
    if search.equations.iter().all(Equation::feasible) {
        search.descend(0);
    }
    if let Some(reason) = search.failure {
        return Err(reason);
    }
    match rule.kind {
        RuleKind::Forced if search.layouts_found == 0 => Err(format!(
            "no mine layout satisfies the foci ({h}×{w} pattern), so this is a forbidden \
             combination, not a forced one"
        )),
        _ => Ok(()),
    }
}

/// Depth-first enumeration of the unknowns' layouts.
struct Search<'a> {
    rule: &'a Rule,
    unknown_cells: &'a [usize],
    touches: &'a [Vec<usize>],
    equations: Vec<Equation>,
    /// `layout[u]`: whether unknown `u` is a mine (valid for `u < depth`).
    layout: Vec<bool>,
    layouts_found: u64,
    /// The first refutation found; the search stops there.
    failure: Option<String>,
}

impl Search<'_> {
    /// Assigns unknown `depth` both ways. On entry every equation is
    /// feasible given unknowns `0..depth`.
    fn descend(&mut self, depth: usize) {
        if self.failure.is_some() {
            return;
        }
        if depth == self.unknown_cells.len() {
            // Every unknown is assigned and every equation was feasible with
            // zero unassigned cells, i.e. holds exactly: a consistent layout.
            self.layouts_found += 1;
            self.check_layout();
            return;
        }
        for mine in [false, true] {
            self.layout[depth] = mine;
            let mut feasible = true;
            for &e in &self.touches[depth] {
                let eq = &mut self.equations[e];
                eq.unassigned -= 1;
                eq.assigned_mines += mine as u8;
                feasible &= eq.feasible();
            }
            // Pruning is exact: an infeasible equation stays infeasible
            // whatever the remaining unknowns are, so no consistent layout
            // is skipped.
            if feasible {
                self.descend(depth + 1);
            }
            for &e in &self.touches[depth] {
                let eq = &mut self.equations[e];
                eq.unassigned += 1;
                eq.assigned_mines -= mine as u8;
            }
        }
    }

    /// Checks one consistent layout against the rule's conclusion.
    fn check_layout(&mut self) {
        let rule = self.rule;
        let w = rule.pattern.w as usize;
        let describe = |layout: &[bool]| {
            let mines: Vec<String> = self
                .unknown_cells
                .iter()
                .zip(layout)
                .filter(|(_, &m)| m)
                .map(|(&i, _)| rc(i, w))
                .collect();
            if mines.is_empty() {
                "no mines among the focus neighbours".to_string()
            } else {
                format!("mines at {}", mines.join(" "))
            }
        };
        match rule.kind {
            RuleKind::Forbidden => {
                self.failure = Some(format!(
                    "the pattern is not forbidden: the layout with {} satisfies every focus",
                    describe(&self.layout)
                ));
            }
            RuleKind::Forced => {
                for (u, &i) in self.unknown_cells.iter().enumerate() {
                    let bit = 1u64 << i;
                    let wrong = if rule.safe & bit != 0 && self.layout[u] {
                        Some(("safe", "a mine"))
                    } else if rule.mine & bit != 0 && !self.layout[u] {
                        Some(("mine", "safe"))
                    } else {
                        None
                    };
                    if let Some((claimed, actual)) = wrong {
                        self.failure = Some(format!(
                            "cell {} is concluded {claimed} but is {actual} in the consistent \
                             layout with {}",
                            rc(i, w),
                            describe(&self.layout)
                        ));
                        return;
                    }
                }
            }
        }
    }
}

/// Re-proves every rule of `rb`; returns the failures as `(index, reason)`
/// in index order (empty when all rules are sound).
/// Rules are proven in parallel (each proof is independent); rayon's
/// ordered collect keeps the result the same whatever the thread count.
pub fn verify_rulebase(rb: &Rulebase) -> Vec<(usize, String)> {
    use rayon::prelude::*;
    rb.rules
        .par_iter()
        .enumerate()
        .filter_map(|(i, r)| verify_rule(r).err().map(|e| (i, e)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Pattern;
    use PatternCell::*;

    /// Parses rows like `"??s"` (`?` closed, `s`/`m` concluded, `.` open,
    /// `#` wall, `_` any, digits foci) into a rule.
    fn rule(kind: RuleKind, rows: &[&str]) -> Rule {
        let h = rows.len() as u8;
        let w = rows[0].len() as u8;
        let (mut safe, mut mine) = (0u64, 0u64);
        let mut cells = Vec::new();
        for (i, ch) in rows.iter().flat_map(|r| r.chars()).enumerate() {
            cells.push(match ch {
                '?' => Closed,
                's' => {
                    safe |= 1 << i;
                    Closed
                }
                'm' => {
                    mine |= 1 << i;
                    Closed
                }
                '.' => Open,
                '#' => Wall,
                '_' => Any,
                d => Number(d.to_digit(10).unwrap() as u8),
            });
        }
        Rule {
            pattern: Pattern::new(h, w, cells),
            kind,
            safe,
            mine,
        }
    }

    #[test]
    fn single_cell_rules() {
        // A 1 with one closed neighbour: it is a mine.
        assert_eq!(
            verify_rule(&rule(RuleKind::Forced, &["...", ".1m", "..."])),
            Ok(())
        );
        // A 0: all closed neighbours are safe.
        assert_eq!(
            verify_rule(&rule(RuleKind::Forced, &["ss.", ".0s", "..."])),
            Ok(())
        );
        // A 2 with one closed neighbour: impossible.
        assert_eq!(
            verify_rule(&rule(RuleKind::Forbidden, &["...", ".2?", "..."])),
            Ok(())
        );
    }

    #[test]
    fn one_two_pattern_at_a_wall() {
        // The classic 1-2 against a wall:
        //   ###
        //   12.   the 2 needs both of its closed cells below;
        //   ??m   the 1's share is then used up.
        let r = rule(RuleKind::Forced, &["####", "#12.", "#s?m", "#???"]);
        // The 2 at (1,2) has closed neighbours (2,1) (2,2) (2,3); the 1 at
        // (1,1) has (2,1) (2,2). x21+x22 = 1 ⇒ x23 = 1. (2,1) is not forced.
        assert!(verify_rule(&r).is_err(), "(2,1) is not forced safe");
        let r = rule(RuleKind::Forced, &["####", "#12.", "#??m", "#___"]);
        assert_eq!(verify_rule(&r), Ok(()));
    }

    #[test]
    fn flipped_conclusion_is_refuted_with_a_counterexample() {
        let wrong = rule(RuleKind::Forced, &["...", ".1s", "..."]);
        let err = verify_rule(&wrong).unwrap_err();
        assert!(err.contains("(1,2) is concluded safe"), "{err}");
        assert!(err.contains("mines at (1,2)"), "{err}");
    }

    #[test]
    fn unforced_cell_is_refuted() {
        // A 1 with two closed neighbours: neither is forced.
        let r = rule(RuleKind::Forced, &["...", ".1m", "..?"]);
        assert!(verify_rule(&r).is_err());
    }

    #[test]
    fn satisfiable_pattern_is_not_forbidden() {
        let r = rule(RuleKind::Forbidden, &["...", ".1?", "..?"]);
        let err = verify_rule(&r).unwrap_err();
        assert!(err.contains("not forbidden"), "{err}");
    }

    #[test]
    fn forced_rule_over_an_impossible_pattern_is_refuted() {
        // 2 with one closed neighbour: no layout, so "mine" is vacuous.
        let r = rule(RuleKind::Forced, &["...", ".2m", "..."]);
        let err = verify_rule(&r).unwrap_err();
        assert!(err.contains("forbidden combination"), "{err}");
    }

    #[test]
    fn focus_without_closed_neighbours() {
        // A 0 surrounded by open cells is consistent (and the other focus
        // forces its cell); a 1 surrounded by open cells is impossible.
        assert_eq!(
            verify_rule(&rule(RuleKind::Forbidden, &["...", ".1.", "..."])),
            Ok(())
        );
        assert!(verify_rule(&rule(RuleKind::Forbidden, &["...", ".0.", "..."])).is_err());
    }

    #[test]
    fn far_closed_cell_cannot_be_concluded() {
        let r = rule(RuleKind::Forced, &["....", ".0.s", "...."]);
        let err = verify_rule(&r).unwrap_err();
        assert!(err.contains("touches no focus"), "{err}");
    }

    #[test]
    fn structure_errors() {
        let bad = [
            (rule(RuleKind::Forced, &["s1."]), "outside the 1×3"),
            (rule(RuleKind::Forced, &["_..", ".1m", "..."]), "Any"),
            (rule(RuleKind::Forced, &["...", ".9m", "..."]), "value 9"),
            (
                rule(RuleKind::Forbidden, &["...", ".3m", "..."]),
                "forbidden rule carries",
            ),
            (
                rule(RuleKind::Forced, &["...", ".3?", "..."]),
                "concludes nothing",
            ),
            (rule(RuleKind::Forced, &["...", ".?s", "..."]), "no focus"),
        ];
        for (r, want) in bad {
            let err = check_structure(&r).unwrap_err();
            assert!(err.contains(want), "{err} (wanted {want})");
        }
        let mut r = rule(RuleKind::Forced, &["...", ".1m", "..."]);
        r.safe = 1; // on an Open cell
        assert!(check_structure(&r).unwrap_err().contains("not Closed"));
        r.safe = 1 << 5; // same cell as the mine
        assert!(check_structure(&r)
            .unwrap_err()
            .contains("both safe and mine"));
        r.safe = 1 << 9; // outside 3×3
        assert!(check_structure(&r).unwrap_err().contains("outside"));
        r.safe = 0;
        r.pattern.cells.pop();
        assert!(check_structure(&r).unwrap_err().contains("needs 9 cells"));
        r.pattern.h = 9;
        assert!(check_structure(&r).unwrap_err().contains("shape"));
    }

    #[test]
    fn verify_rulebase_reports_indices() {
        let rb = Rulebase {
            settings: crate::rules::GeneratorSettings {
                max_order: 1,
                max_window: 3,
                generator: "test".into(),
                notes: vec![],
            },
            rules: vec![
                rule(RuleKind::Forced, &["...", ".1m", "..."]),
                rule(RuleKind::Forced, &["...", ".1s", "..."]),
                rule(RuleKind::Forbidden, &["...", ".2?", "..."]),
            ],
        };
        let failures = verify_rulebase(&rb);
        assert_eq!(failures.len(), 1);
        assert_eq!(failures[0].0, 1);
    }
}
