//! Method 4 (hypotheses) against the brute-force oracle: on every small
//! board it must report exactly the cells brute force finds forced (sound
//! and complete, with and without the total), and a contradiction exactly
//! when no layout exists. On real-size boards, where brute force cannot go,
//! every cell it forces must agree with the ground truth.

use crate::util::hyp_boards::{
    consistent, endgame, extreme_total, perturbed, played, real_size, recounted, sparse, wild, Case,
};
use proptest::prelude::*;
use sapper_engine::budget::Budget;
use sapper_engine::methods::{hypotheses, MethodError};
use sapper_engine::{brute, Board, Cell, Value};

/// Runs hypotheses on the board and compares with brute force.
fn check_exact(board: &Board) -> Result<(), TestCaseError> {
    let mut out = Vec::new();
    let result = hypotheses::find(board, None, &mut out);
    match (brute::forced(board), result) {
        (Some(expected), Ok(())) => {
            prop_assert_eq!(out, expected, "forced cells differ on {:?}", board)
        }
        (None, Err(c)) => {
            // The cells a contradiction names are revealed numbers.
            for &i in &c.cells {
                prop_assert!(
                    matches!(board.cell(i), Cell::Revealed(_)),
                    "{:?} names cell {}",
                    c,
                    i
                );
            }
            prop_assert!(!c.reason.is_empty());
        }
        (Some(expected), Err(c)) => {
            return Err(TestCaseError::fail(format!(
            "hypotheses reports {c:?} but brute finds layouts (forced {expected:?}) on {board:?}"
        )))
        }
        (None, Ok(())) => {
            return Err(TestCaseError::fail(format!(
                "no layout exists but hypotheses found {out:?} on {board:?}"
            )))
        }
    }
    Ok(())
}

/// The same board with and without the total.
fn both_ways(case: &Case) -> Result<(), TestCaseError> {
    check_exact(&case.board)?;
    check_exact(&case.other_total())
}

proptest! {
    #![proptest_config(crate::util::cases(600))]

    #[test]
    fn matches_brute_on_consistent_boards(case in consistent()) {
        both_ways(&case)?;
    }

    #[test]
    fn matches_brute_on_played_boards(case in played()) {
        both_ways(&case)?;
    }

    #[test]
    fn matches_brute_on_endgames(case in endgame()) {
        both_ways(&case)?;
    }

    #[test]
    fn matches_brute_on_sparse_boards(case in sparse()) {
        both_ways(&case)?;
    }

    #[test]
    fn matches_brute_on_perturbed_boards(case in perturbed()) {
        both_ways(&case)?;
    }

    #[test]
    fn matches_brute_on_recounted_boards(case in recounted()) {
        both_ways(&case)?;
    }

    #[test]
    fn matches_brute_on_wild_boards(case in wild()) {
        both_ways(&case)?;
    }
}

/// The SAT path alone (every component sent to it) against brute force.
fn check_sat_path(board: &Board) -> Result<(), TestCaseError> {
    let sat_only = hypotheses::ProgrammeLimits {
        widest_layer: -1.0,
        states: -1.0,
    };
    let mut out = Vec::new();
    let result = hypotheses::find_within(board, &Budget::unlimited(), sat_only, &mut out);
    match (brute::forced(board), result) {
        (Some(expected), Ok(profile)) => {
            prop_assert!(profile.sat || profile.components == 0);
            prop_assert_eq!(out, expected, "SAT path differs on {:?}", board)
        }
        (None, Err(MethodError::Contradiction(_))) => {}
        (expected, result) => {
            return Err(TestCaseError::fail(format!(
                "brute {expected:?}, SAT path {result:?} on {board:?}"
            )))
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::util::cases(800))]

    /// Hypotheses' second path decides exactly like the first, the count
    /// included (extreme totals bind it across components and the
    /// interior).
    #[test]
    fn the_sat_path_matches_brute(case in prop_oneof![consistent(), played(), endgame(), sparse(), perturbed(), wild(), extreme_total()]) {
        check_sat_path(&case.board)?;
        check_sat_path(&case.other_total())?;
    }
}

proptest! {
    #![proptest_config(crate::util::cases(1500))]

    /// The total at an extreme of what the numbers allow: where the count
    /// binds across components and the interior.
    #[test]
    fn matches_brute_with_extreme_totals(case in extreme_total()) {
        check_exact(&case.board)?;
    }
}

proptest! {
    #![proptest_config(crate::util::cases(120))]

    /// Real size (30×16, 99 mines): every forced cell agrees with the
    /// layout the board came from, with the total and without; the total
    /// only adds information, so the forced set without it is a subset.
    #[test]
    fn sound_on_real_size_boards(seed in any::<u64>(), clicks in 1usize..40, flag_pct in 0u64..=100) {
        let (with_total, mines) = real_size(seed, clicks, flag_pct, true);
        let without_total = Board::new(with_total.grid(), with_total.cells().to_vec(), None);
        let mut forced_with = Vec::new();
        hypotheses::find(&with_total, None, &mut forced_with)
            .map_err(|c| TestCaseError::fail(format!("contradiction on a real layout: {c:?}")))?;
        let mut forced_without = Vec::new();
        hypotheses::find(&without_total, None, &mut forced_without)
            .map_err(|c| TestCaseError::fail(format!("contradiction on a real layout: {c:?}")))?;
        for f in forced_with.iter().chain(&forced_without) {
            prop_assert!(with_total.cell(f.cell).is_unknown(), "{:?} is not closed", f);
            prop_assert_eq!(mines[f.cell as usize], f.value == Value::Mine, "{:?} contradicts the layout", f);
        }
        for f in &forced_without {
            prop_assert!(forced_with.contains(f), "{:?} lost when the total is added", f);
        }
        // Exactly once each, in cell order.
        for out in [&forced_with, &forced_without] {
            prop_assert!(out.windows(2).all(|p| p[0].cell < p[1].cell));
        }
        // The flags plus the forced mines never exceed the total.
        let forced_mines = forced_with.iter().filter(|f| f.value == Value::Mine).count() as u32;
        prop_assert!(with_total.known_mines() + forced_mines <= 99);
    }
}

proptest! {
    #![proptest_config(crate::util::cases(24))]

    /// Real size, beyond brute force, where components exceed 64 cells
    /// (multi-word count sets): the backward pass (which cells are forced)
    /// must agree with the forward pass (which boards are consistent). For
    /// every closed cell, fixing it to a value gives a consistent board iff
    /// the cell was not forced to the other value.
    #[test]
    fn forced_cells_agree_with_consistency_checks(seed in any::<u64>(), clicks in 20usize..120, total in any::<bool>()) {
        let (board, _) = real_size(seed, clicks, 0, total);
        let mut forced = Vec::new();
        hypotheses::find(&board, None, &mut forced)
            .map_err(|c| TestCaseError::fail(format!("contradiction on a real layout: {c:?}")))?;
        let closed: Vec<u32> = (0..board.grid().len() as u32).filter(|&i| board.cell(i).is_unknown()).collect();
        for &cell in &closed {
            let forced_value = forced.iter().find(|f| f.cell == cell).map(|f| f.value);
            for (value, state) in [(Value::Mine, Cell::Mine), (Value::Safe, Cell::Safe)] {
                let mut fixed = board.clone();
                fixed.set(cell, state);
                let consistent = hypotheses::find(&fixed, None, &mut Vec::new()).is_ok();
                let expected = forced_value.is_none() || forced_value == Some(value);
                prop_assert_eq!(consistent, expected, "cell {} = {:?} (forced {:?})", cell, value, forced_value);
            }
        }
    }
}
