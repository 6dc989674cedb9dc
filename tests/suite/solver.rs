//! The whole solver on generated fields: rules first or methods only, every
//! deduction checked against the ground truth (`solve_field_with` reports
//! `SolveError::Unsound` for any proven cell the truth contradicts), and
//! both ways reach the same fixpoint — hypotheses is complete, so where play
//! stops does not depend on who proved what.

use crate::util::{default_tiers, Rng};
use proptest::prelude::*;
use sapper_engine::methods::MethodTable;
use sapper_engine::solver::{solve_field_with, Layers, SolveOutcome};
use sapper_engine::{Field, Grid};

/// A field with mines where `mine_at` says, open at `open`.
fn field(h: usize, w: usize, mine: Vec<bool>, open: Vec<bool>) -> Field {
    Field::from_mines(Grid::new(h, w), mine, open)
}

fn solve(f: &Field, rules: bool) -> SolveOutcome {
    let layers = Layers {
        rules: rules.then(default_tiers),
        methods: true,
        budget: sapper_engine::budget::Budget::unlimited(),
    };
    solve_field_with(f, layers, &mut MethodTable::default(), None)
        .unwrap_or_else(|e| panic!("solving failed: {e:?}"))
}

#[test]
fn a_1000_by_1000_field_is_solved_to_its_fixpoint() {
    let (h, w) = (1000, 1000);
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    let mine: Vec<bool> = (0..h * w).map(|_| rng.chance(12)).collect();
    // Open one 0 near the middle; the solver's start opens its region.
    let probe = Field::from_mines(Grid::new(h, w), mine.clone(), vec![false; h * w]);
    let start = (h * w / 2..h * w)
        .find(|&i| !probe.mine[i] && probe.value[i] == 0)
        .expect("a 0 somewhere");
    let mut open = vec![false; h * w];
    open[start] = true;
    let f = field(h, w, mine, open);
    let with_rules = solve(&f, true);
    let methods_only = solve(&f, false);
    assert_eq!(with_rules.solved, methods_only.solved);
    assert_eq!(with_rules.opened_safe_cells, methods_only.opened_safe_cells);
    // At 12% density the opening spreads over most of the field.
    assert!(
        with_rules.opened_safe_cells > h * w / 2,
        "{}",
        with_rules.opened_safe_cells
    );
}

/// A field generated structurally, so a failure shrinks to a small board
/// with few mines: its size, each cell's mine (about `density`), a first
/// click (the `click`-th safe cell, preferring a 0) and a few more opened
/// safe cells — a start the game could give after some clicks.
fn fields() -> impl Strategy<Value = Field> {
    (3usize..20, 3usize..20, 0.05f64..0.30)
        .prop_flat_map(|(h, w, density)| {
            let n = h * w;
            (
                Just((h, w)),
                proptest::collection::vec(proptest::bool::weighted(density), n),
                any::<proptest::sample::Index>(),
                proptest::collection::vec(proptest::bool::weighted(0.1), n),
            )
        })
        .prop_map(|((h, w), mine, click, extra)| {
            let n = h * w;
            let probe = Field::from_mines(Grid::new(h, w), mine.clone(), vec![false; n]);
            let safe: Vec<usize> = (0..n).filter(|&i| !mine[i]).collect();
            let zeros: Vec<usize> = safe
                .iter()
                .copied()
                .filter(|&i| probe.value[i] == 0)
                .collect();
            let mut open = vec![false; n];
            let clickable = if zeros.is_empty() { &safe } else { &zeros };
            if !clickable.is_empty() {
                open[*click.get(clickable)] = true;
            }
            for &i in &safe {
                open[i] |= extra[i];
            }
            field(h, w, mine, open)
        })
}

proptest! {
    #![proptest_config(crate::util::cases(300))]

    /// No deduction contradicts the ground truth (rules first, or methods
    /// only), and both stop at the same place.
    #[test]
    fn rules_first_and_methods_only_agree_and_are_sound(f in fields()) {
        let a = solve(&f, true);
        let b = solve(&f, false);
        prop_assert_eq!(a.solved, b.solved);
        prop_assert_eq!(a.opened_safe_cells, b.opened_safe_cells);
        // Every recorded deduction agrees with the truth.
        for d in a.deductions.iter().chain(b.deductions.iter()) {
            prop_assert_eq!(f.mine[d.cell as usize], d.value == sapper_engine::Value::Mine);
        }
    }
}
