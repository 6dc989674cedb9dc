//! `analyse --only rules` (the rule layer alone, to its
//! fixpoint, with the default rulebase of orders 1–2) finds every deduction
//! that single numbers and pairs of numbers allow, and nothing unsound.
//!
//! The reference is a brute-force *pairwise enumerator* written here: to a
//! fixpoint, for every revealed number alone and every pair of revealed
//! numbers, enumerate the layouts of their unknown neighbours satisfying
//! both equations (effective values: number minus known mines around it);
//! a cell with one value in every layout is forced and applied (safe →
//! `Cell::Safe`, mine → `Cell::Mine`, as `analyse` marks them); a single or
//! pair with no layout, or two conclusions of opposite value, means the
//! board has no layout.
//!
//! The rule layer must give exactly the same set of forced `(cell, value)`
//! and fail exactly when the enumerator finds a contradiction.

use crate::util::truth_boards::{build, draw, perturb, wild, Recipe};
use crate::util::{board, default_rulebase, default_tiers, impossible_board, Rng};
use proptest::prelude::*;
use sapper_engine::methods::MethodError;
use sapper_engine::methods::MethodTable;
use sapper_engine::rules::{RuleKind, Rulebase};
use sapper_engine::solver::{analyse_position_with, Analysis, Layers, RuleTiers};
use sapper_engine::{Board, Cell, Contradiction, Grid, Source, Value};
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------
// The pairwise enumerator
// ---------------------------------------------------------------------------

/// One revealed number's equation: `value` mines among `unknown`.
struct Equation {
    cell: u32,
    value: i32,
    unknown: Vec<u32>,
}

fn equation(grid: Grid, cells: &[Cell], i: u32) -> Option<Equation> {
    let Cell::Revealed(n) = cells[i as usize] else {
        return None;
    };
    let mut value = n as i32;
    let mut unknown = Vec::new();
    for &nb in &grid.neighbours(i) {
        match cells[nb as usize] {
            // A known mine around the number is already one of its n.
            Cell::Mine => value -= 1,
            Cell::Unknown => unknown.push(nb),
            Cell::Safe | Cell::Revealed(_) => {}
        }
    }
    Some(Equation {
        cell: i,
        value,
        unknown,
    })
}

/// The layouts of the unknown cells of one or two equations: `None` if no
/// layout satisfies all of them, else the cells with one value in every
/// layout.
fn solve_together(eqs: &[&Equation]) -> Option<Vec<(u32, Value)>> {
    // Variables: the first equation's cells, then the second's others.
    let first = &eqs[0].unknown;
    let rest: Vec<u32> = eqs[1..]
        .iter()
        .flat_map(|e| e.unknown.iter().copied())
        .filter(|c| !first.contains(c))
        .collect::<std::collections::BTreeSet<u32>>()
        .into_iter()
        .collect();
    let vars: Vec<u32> = first.iter().copied().chain(rest.iter().copied()).collect();
    let masks: Vec<(u32, i32)> = eqs
        .iter()
        .map(|e| {
            let mask = vars
                .iter()
                .enumerate()
                .filter(|(_, v)| e.unknown.contains(v))
                .map(|(j, _)| 1u32 << j)
                .sum();
            (mask, e.value)
        })
        .collect();
    let all = (1u32 << vars.len()) - 1;
    let (mut ever_mine, mut ever_safe, mut any) = (0u32, 0u32, false);
    // Every layout of the first equation's cells that satisfies it, times
    // every layout of the remaining cells (the same set as all 2^n layouts
    // filtered by every equation, without visiting the hopeless ones).
    for low in 0u32..1 << first.len() {
        if low.count_ones() as i32 != eqs[0].value {
            continue;
        }
        for high in 0u32..1 << rest.len() {
            let layout = low | high << first.len();
            if masks
                .iter()
                .all(|&(m, v)| (layout & m).count_ones() as i32 == v)
            {
                any = true;
                ever_mine |= layout;
                ever_safe |= !layout & all;
            }
        }
    }
    any.then(|| {
        vars.iter()
            .enumerate()
            .filter_map(|(j, &cell)| {
                if ever_mine >> j & 1 == 0 {
                    Some((cell, Value::Safe))
                } else if ever_safe >> j & 1 == 0 {
                    Some((cell, Value::Mine))
                } else {
                    None
                }
            })
            .collect()
    })
}

/// What the pairwise enumerator concludes on a board: every forced cell to
/// the fixpoint, or why the board has no layout.
fn pairwise_fixpoint(board: &Board) -> Result<BTreeMap<u32, Value>, String> {
    let grid = board.grid();
    let mut cells = board.cells().to_vec();
    let mut forced = BTreeMap::new();
    loop {
        let eqs: Vec<Equation> = (0..grid.len() as u32)
            .filter_map(|i| equation(grid, &cells, i))
            .collect();
        let mut round: BTreeMap<u32, Value> = BTreeMap::new();
        // Each conclusion holds in every layout of the whole board (such a
        // layout satisfies these equations too); opposite conclusions for one
        // cell leave no layout at all.
        let mut note = |found: Vec<(u32, Value)>| -> Result<(), String> {
            for (cell, value) in found {
                if let Some(&other) = round.get(&cell) {
                    if other != value {
                        return Err(format!("cell {:?} forced both ways", grid.rc(cell)));
                    }
                }
                round.insert(cell, value);
            }
            Ok(())
        };
        for a in &eqs {
            match solve_together(&[a]) {
                None => {
                    return Err(format!(
                        "the number at {:?} alone has no layout",
                        grid.rc(a.cell)
                    ))
                }
                Some(found) => note(found)?,
            }
        }
        for (k, a) in eqs.iter().enumerate() {
            for b in &eqs[k + 1..] {
                // Two numbers sharing no unknown cell constrain disjoint
                // variables: their joint layouts are the products of their
                // own, so the pair proves nothing the singles do not (and
                // has a layout iff both do). Only numbers at Chebyshev
                // distance ≤ 2 can share one.
                if !a.unknown.iter().any(|c| b.unknown.contains(c)) {
                    continue;
                }
                match solve_together(&[a, b]) {
                    None => {
                        return Err(format!(
                            "the numbers at {:?} and {:?} have no layout together",
                            grid.rc(a.cell),
                            grid.rc(b.cell)
                        ))
                    }
                    Some(found) => note(found)?,
                }
            }
        }
        if round.is_empty() {
            return Ok(forced);
        }
        for (cell, value) in round {
            cells[cell as usize] = match value {
                Value::Safe => Cell::Safe,
                Value::Mine => Cell::Mine,
            };
            forced.insert(cell, value);
        }
    }
}

// ---------------------------------------------------------------------------
// The rule layer against it
// ---------------------------------------------------------------------------

fn analyse_rules_only(board: &Board, tiers: &RuleTiers) -> Result<Analysis, Contradiction> {
    let layers = Layers {
        rules: Some(tiers),
        methods: false,
        budget: sapper_engine::budget::Budget::unlimited(),
    };
    match analyse_position_with(&board.to_position(), layers, &mut MethodTable::default()) {
        Ok(analysis) => Ok(analysis),
        Err(MethodError::Contradiction(c)) => Err(c),
        Err(MethodError::OverBudget(o)) => panic!("the rule layer alone has no budget: {o}"),
    }
}

/// The rule layer's fixpoint equals the pairwise enumerator's; with a
/// ground truth, every forced cell agrees with it.
fn check_against_pairwise(
    board: &Board,
    tiers: &RuleTiers,
    mines: Option<&[bool]>,
) -> Result<(), String> {
    let grid = board.grid();
    let expected = pairwise_fixpoint(board);
    let analysis = analyse_rules_only(board, tiers);
    match (analysis, expected) {
        (Err(c), Err(why)) if mines.is_some() => Err(format!(
            "a position made from a mine layout is reported contradictory ({why}; {})",
            c.describe(grid)
        )),
        (Err(_), Err(_)) => Ok(()),
        (Ok(a), Err(why)) => Err(format!(
            "the pairwise enumerator finds a contradiction ({why}), the rule layer none \
             (after {} deductions, final board:\n{}):\n{}",
            a.deductions.len(),
            draw(&a.board),
            draw(board)
        )),
        (Err(c), Ok(p)) => Err(format!(
            "the rule layer reports {}, the pairwise enumerator finds {} forced cells and no \
             contradiction:\n{}",
            c.describe(grid),
            p.len(),
            draw(board)
        )),
        (Ok(a), Ok(expected)) => {
            let mut got: BTreeMap<u32, Value> = BTreeMap::new();
            for d in &a.deductions {
                if !matches!(d.source, Source::Rule { order: 1 | 2 }) {
                    return Err(format!("deduction {d:?} not from a rule of order 1 or 2"));
                }
                if got.insert(d.cell, d.value).is_some() {
                    return Err(format!("cell {:?} deduced twice", grid.rc(d.cell)));
                }
            }
            if got != expected {
                let only_rules: Vec<_> = got
                    .iter()
                    .filter(|(c, v)| expected.get(c) != Some(v))
                    .map(|(&c, v)| (grid.rc(c), *v))
                    .collect();
                let only_pairs: Vec<_> = expected
                    .iter()
                    .filter(|(c, v)| got.get(c) != Some(v))
                    .map(|(&c, v)| (grid.rc(c), *v))
                    .collect();
                return Err(format!(
                    "forced cells differ; only the rule layer: {only_rules:?}; only the pairwise \
                     enumerator: {only_pairs:?}\n{}",
                    draw(board)
                ));
            }
            if let Some(mines) = mines {
                for (&cell, &value) in &got {
                    if mines[cell as usize] != (value == Value::Mine) {
                        return Err(format!(
                            "{:?} deduced {value} against the truth:\n{}",
                            grid.rc(cell),
                            draw(board)
                        ));
                    }
                }
            }
            Ok(())
        }
    }
}

/// Positions up to 12×12 from a ground truth; `flags` false: no flags.
fn small_recipes(flags: bool) -> impl Strategy<Value = Recipe> {
    (
        1usize..=12,
        1usize..=12,
        any::<u64>(),
        5u32..=35,
        0u32..=60,
        0u32..=70,
        0u32..=10,
    )
        .prop_map(
            move |(h, w, seed, density, extra_reveal, flag, mark_safe)| Recipe {
                h,
                w,
                seed,
                density,
                extra_reveal,
                flag: if flags { flag } else { 0 },
                mark_safe,
            },
        )
}

/// Two numbers at Chebyshev distance 1 or 2, each satisfiable and
/// concluding nothing alone (`0 < v < u`): whether they fit together is a
/// question only a pair (a forbidden order-2 rule) answers.
fn non_trivial_pair(seed: u64) -> Board {
    let mut rng = Rng::new(seed);
    loop {
        let (h, w) = (3 + rng.below(4), 3 + rng.below(4));
        let grid = Grid::new(h, w);
        let mut cells: Vec<Cell> = (0..grid.len())
            .map(|_| match rng.below(100) {
                0..=69 => Cell::Unknown,
                70..=89 => Cell::Safe,
                _ => Cell::Mine,
            })
            .collect();
        let a = rng.below(grid.len()) as u32;
        let b = rng.below(grid.len()) as u32;
        if !(1..=2).contains(&grid.distance(a, b)) {
            continue;
        }
        cells[a as usize] = Cell::Revealed(0);
        cells[b as usize] = Cell::Revealed(0);
        let mut ok = true;
        for f in [a, b] {
            let flags = grid
                .neighbours(f)
                .iter()
                .filter(|&&n| cells[n as usize] == Cell::Mine)
                .count();
            let unknown = grid
                .neighbours(f)
                .iter()
                .filter(|&&n| cells[n as usize] == Cell::Unknown)
                .count();
            if unknown < 2 {
                ok = false;
                break;
            }
            cells[f as usize] = Cell::Revealed((flags + 1 + rng.below(unknown - 1)) as u8);
        }
        if ok {
            return Board::new(grid, cells, None);
        }
    }
}

proptest! {
    #![proptest_config(crate::util::cases(768))]

    #[test]
    fn rules_alone_equal_the_pairwise_fixpoint_without_flags(recipe in small_recipes(false)) {
        let tb = build(recipe);
        if let Err(e) = check_against_pairwise(&tb.board, default_tiers(), Some(&tb.mines)) {
            return Err(TestCaseError::fail(e));
        }
    }

    #[test]
    fn rules_alone_equal_the_pairwise_fixpoint_with_flags(recipe in small_recipes(true)) {
        let tb = build(recipe);
        if let Err(e) = check_against_pairwise(&tb.board, default_tiers(), Some(&tb.mines)) {
            return Err(TestCaseError::fail(e));
        }
    }

    #[test]
    fn rules_alone_equal_the_pairwise_fixpoint_on_broken_positions(
        recipe in small_recipes(true),
        seed in any::<u64>(),
        changes in 1usize..4,
    ) {
        let tb = build(recipe);
        let broken = perturb(&tb.board, seed, changes);
        if let Err(e) = check_against_pairwise(&broken, default_tiers(), None) {
            return Err(TestCaseError::fail(e));
        }
    }

    #[test]
    fn rules_alone_equal_the_pairwise_fixpoint_on_wild_positions(
        h in 1usize..=12,
        w in 1usize..=12,
        seed in any::<u64>(),
    ) {
        let board = wild(h, w, seed);
        if let Err(e) = check_against_pairwise(&board, default_tiers(), None) {
            return Err(TestCaseError::fail(e));
        }
    }
}

proptest! {
    // Tiny boards; about 3 % of them are contradictions only a forbidden
    // order-2 rule detects.
    #![proptest_config(crate::util::cases(1024))]

    #[test]
    fn rules_alone_equal_the_pairwise_fixpoint_on_non_trivial_pairs(seed in any::<u64>()) {
        let board = non_trivial_pair(seed);
        if let Err(e) = check_against_pairwise(&board, default_tiers(), None) {
            return Err(TestCaseError::fail(e));
        }
    }
}

// ---------------------------------------------------------------------------
// The tests above can fail
// ---------------------------------------------------------------------------

/// Fixed positions: consistent ones and broken copies (one to three
/// changes each).
fn fixed_boards() -> Vec<(Board, Option<Vec<bool>>)> {
    let mut out = Vec::new();
    for seed in 0..80u64 {
        let tb = build(Recipe {
            h: 4 + (seed as usize * 5) % 9,
            w: 4 + (seed as usize * 7) % 9,
            seed: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5EED,
            density: 10 + (seed as u32 * 7) % 25,
            extra_reveal: (seed as u32 * 11) % 50,
            flag: (seed as u32 * 13) % 60,
            mark_safe: (seed as u32) % 6,
        });
        for k in 0..6 {
            out.push((perturb(&tb.board, seed * 6 + k, 1 + k as usize % 3), None));
        }
        out.push((tb.board, Some(tb.mines)));
    }
    out
}

/// The fixed positions show every outcome: pairs proving what singles do
/// not, and contradictions.
#[test]
fn the_positions_exercise_pairs_and_contradictions() {
    let rb = default_rulebase();
    let order1 = RuleTiers::new(&Rulebase {
        settings: rb.settings.clone(),
        rules: rb
            .rules
            .iter()
            .filter(|r| r.order() == 1)
            .cloned()
            .collect(),
    });
    let (mut beyond_singles, mut contradictions, mut forced) = (0, 0, 0);
    for (board, _) in fixed_boards() {
        match pairwise_fixpoint(&board) {
            Err(_) => contradictions += 1,
            Ok(p) => {
                forced += p.len();
                let singles = analyse_rules_only(&board, &order1)
                    .map(|a| a.deductions.len())
                    .unwrap_or(0);
                if singles < p.len() {
                    beyond_singles += 1;
                }
            }
        }
    }
    assert!(forced > 100, "only {forced} forced cells in all");
    assert!(
        beyond_singles >= 5,
        "pairs add to singles on only {beyond_singles} positions"
    );
    assert!(
        contradictions >= 5,
        "only {contradictions} broken positions are contradictory"
    );
}

/// Negative controls: without the order-2 rules of 5×5 windows, or without
/// the forbidden rules, the comparison fails on some fixed position.
#[test]
fn weakened_rulebases_are_caught() {
    let rb = default_rulebase();
    let without = |keep: &dyn Fn(&sapper_engine::rules::Rule) -> bool| {
        RuleTiers::new(&Rulebase {
            settings: rb.settings.clone(),
            rules: rb.rules.iter().filter(|r| keep(r)).cloned().collect(),
        })
    };
    let boards = fixed_boards();
    let fails = |tiers: &RuleTiers| {
        boards
            .iter()
            .filter(|(b, m)| check_against_pairwise(b, tiers, m.as_deref()).is_err())
            .count()
    };
    assert_eq!(fails(default_tiers()), 0, "the real rulebase passes");
    assert!(fails(&without(&|r| !(r.order() == 2 && r.window() == 5))) > 0);
    // Forbidden rules are rarely the only way a contradiction shows up on
    // played positions (forced rules usually run into a single number's
    // contradiction first); on pairs that conclude nothing alone they are.
    let pairs: Vec<Board> = (0..1000).map(non_trivial_pair).collect();
    let pair_fails = |tiers: &RuleTiers| {
        pairs
            .iter()
            .filter(|b| check_against_pairwise(b, tiers, None).is_err())
            .count()
    };
    assert_eq!(pair_fails(default_tiers()), 0, "the real rulebase passes");
    assert!(pair_fails(&without(&|r| r.kind != RuleKind::Forbidden)) > 0);
}

/// Contradictions no rule can see: a number with more flags around it than
/// it shows, a number owing mines with no closed neighbour, and the same
/// two arising mid-fixpoint when order-1 rules fire in one round on both
/// sides of a 1 (each number alone is satisfiable at the start, so the
/// position reader accepts this position).
#[test]
fn the_rule_layer_reports_contradictions_of_a_single_number() {
    for board in [
        impossible_board(&["F1F"]),
        impossible_board(&["1"]),
        impossible_board(&["?2*", "***"]),
        board(&["1?1?1", "*****"]),
    ] {
        let rows = draw(&board);
        assert!(pairwise_fixpoint(&board).is_err(), "{rows}");
        match analyse_rules_only(&board, default_tiers()) {
            Err(_) => {}
            Ok(a) => panic!(
                "{rows}: the rule layer ends without a contradiction on\n{}",
                draw(&a.board)
            ),
        }
    }
}

/// The enumerator itself on hand-made boards.
#[test]
fn pairwise_enumerator_on_known_positions() {
    let rc = |b: &Board, m: BTreeMap<u32, Value>| -> Vec<((usize, usize), Value)> {
        m.into_iter().map(|(c, v)| (b.grid().rc(c), v)).collect()
    };
    // 1-2-1 along a wall of closed cells: the classic pair deduction
    // (safe, mine, safe) needs the pair (1, 2).
    let b = board(&["???", "121", "***"]);
    assert_eq!(
        rc(&b, pairwise_fixpoint(&b).unwrap()),
        vec![
            ((0, 0), Value::Mine),
            ((0, 1), Value::Safe),
            ((0, 2), Value::Mine)
        ]
    );
    // A 1 with two flags around it: no layout.
    assert!(pairwise_fixpoint(&impossible_board(&["F1F"])).is_err());
    // A 2 with one closed neighbour: no layout.
    assert!(pairwise_fixpoint(&impossible_board(&["?2*"])).is_err());
    // Two 1s sharing their only closed cell, with different needs: a 1 and
    // a 0 around the same single closed cell.
    assert!(pairwise_fixpoint(&board(&["1?0"])).is_err());
    // A 1 with two closed neighbours, alone: nothing to say.
    assert_eq!(
        pairwise_fixpoint(&board(&["1?", "?*"])).unwrap(),
        BTreeMap::new()
    );
    // A 1 with one closed neighbour: a mine.
    let one = board(&["1?", "**"]);
    assert_eq!(
        rc(&one, pairwise_fixpoint(&one).unwrap()),
        vec![((0, 1), Value::Mine)]
    );
}
