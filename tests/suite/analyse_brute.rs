//! The whole analysis (`solver::analyse_position`: every method, run to the
//! fixpoint) against the brute-force oracle: on every small position it
//! must prove exactly the cells brute force finds forced on the original
//! position, with and without the total, and fail exactly when no layout
//! exists.
//!
//! Why "exactly" is the right expectation: each round marks proven cells
//! (safe cells as known safe, mines as known mines). Marking a cell with
//! the value it has in every layout keeps the set of layouts the same, so
//! every later deduction is still forced on the original position
//! (soundness), and at the fixpoint hypotheses — complete — finds nothing
//! more, so nothing forced is missed.

use crate::util::hyp_boards::{
    consistent, endgame, extreme_total, perturbed, played, recounted, sparse, wild, Case,
};
use proptest::prelude::*;
use sapper_engine::methods::MethodTable;
use sapper_engine::solver::analyse_position;
use sapper_engine::{brute, Board, Forced, Position};

fn check_analysis(board: &Board) -> Result<(), TestCaseError> {
    let position: Position = board.to_position();
    let mut table = MethodTable::default();
    let analysis = analyse_position(&position, &mut table);
    match (brute::forced(board), analysis) {
        (Some(expected), Ok(a)) => {
            let mut found: Vec<Forced> = a
                .deductions
                .iter()
                .map(|d| Forced {
                    cell: d.cell,
                    value: d.value,
                })
                .collect();
            found.sort_unstable();
            // Each cell is deduced once: no duplicates to hide behind.
            prop_assert!(
                found.windows(2).all(|p| p[0].cell != p[1].cell),
                "{:?}",
                found
            );
            prop_assert_eq!(
                found,
                expected,
                "analysis differs from brute on {:?}",
                board
            );
        }
        (None, Err(_)) => {}
        (Some(expected), Err(c)) => {
            return Err(TestCaseError::fail(format!(
                "analysis reports {c:?} but brute finds layouts (forced {expected:?}) on {board:?}"
            )))
        }
        (None, Ok(a)) => {
            return Err(TestCaseError::fail(format!(
                "no layout exists but the analysis succeeded with {:?} on {board:?}",
                a.deductions
            )))
        }
    }
    Ok(())
}

/// The same position with and without the total (the layout's total when
/// the case has one).
fn both_ways(case: &Case) -> Result<(), TestCaseError> {
    check_analysis(&case.board)?;
    check_analysis(&case.other_total())
}

proptest! {
    #![proptest_config(crate::util::cases(400))]

    #[test]
    fn analysis_matches_brute_on_consistent_boards(case in consistent()) {
        both_ways(&case)?;
    }

    #[test]
    fn analysis_matches_brute_on_played_boards(case in played()) {
        both_ways(&case)?;
    }

    #[test]
    fn analysis_matches_brute_on_endgames(case in endgame()) {
        both_ways(&case)?;
    }

    #[test]
    fn analysis_matches_brute_on_sparse_boards(case in sparse()) {
        both_ways(&case)?;
    }

    #[test]
    fn analysis_matches_brute_on_perturbed_boards(case in perturbed()) {
        both_ways(&case)?;
    }

    #[test]
    fn analysis_matches_brute_on_recounted_boards(case in recounted()) {
        both_ways(&case)?;
    }

    #[test]
    fn analysis_matches_brute_on_wild_boards(case in wild()) {
        both_ways(&case)?;
    }

    #[test]
    fn analysis_matches_brute_with_extreme_totals(case in extreme_total()) {
        check_analysis(&case.board)?;
    }
}
