//! Isolated regions: closed cells nothing else will ever tell about, played
//! exactly on their own.
//!
//! # The maths
//!
//! A *region* is a set `R` of closed cells such that
//!
//! - every closed neighbour of a cell of `R` is in `R`, and every closed
//!   neighbour of a number touching `R` is in `R` (so no number outside
//!   `R`'s own ever depends on `R`, and opening a cell of `R` shows a
//!   number that depends on `R` alone), and
//! - every layout of `R` that fits its numbers has the same number of
//!   mines `k` (so the total tells nothing about `R` either).
//!
//! Then the layouts of the whole position are the products of a layout of
//! `R` and a layout of the rest with `k` fewer mines: `R`'s layouts are
//! equally likely whatever happens elsewhere, nothing opened elsewhere ever
//! tells them apart, and nothing opened in `R` tells about the rest. Any
//! strategy for the whole game wins with probability at most
//! `P(win R) · P(win the rest)`, each part played by its own best strategy,
//! and interleaving the two games changes neither factor. So playing `R`
//! now, by its exact game tree ([`super::endgame`]), loses nothing against
//! any plan — and wins more than a heuristic guess whenever the heuristic
//! would have played `R` worse than exactly.
//!
//! # How
//!
//! Closed cells are joined when they are neighbours or share a number
//! (union–find); each class that is not every closed cell, has no cell off
//! the frontier (such a cell could hold a mine or not, so the count would
//! vary) and has at most [`REGION_LAYOUTS`] layouts is enumerated on a copy
//! of the board where every other closed cell is set aside
//! ([`Cell::Safe`]: neither a variable nor a mine). If its layouts all hold
//! the same number of mines, the exact search's best guess is played; the
//! smallest such region first.

use super::endgame::{Endgame, ExactGuess};
use crate::board::{Board, Cell};

/// The most layouts an isolated region may have to be played exactly.
pub const REGION_LAYOUTS: usize = 1000;

/// The exact guess in the smallest isolated region of `board` (see the
/// module documentation), or `None` if it has none, or none small enough,
/// or its search runs out of states.
pub fn isolated_guess(board: &Board, limit: usize) -> Option<ExactGuess> {
    let grid = board.grid();
    let n = grid.len();
    let unknown = |c: u32| board.cell(c) == Cell::Unknown;
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(parent: &mut [u32], mut c: u32) -> u32 {
        while parent[c as usize] != c {
            let up = parent[parent[c as usize] as usize];
            parent[c as usize] = up;
            c = up;
        }
        c
    }
    let union = |parent: &mut Vec<u32>, a: u32, b: u32| {
        let (a, b) = (find(parent, a), find(parent, b));
        if a != b {
            parent[a.max(b) as usize] = a.min(b);
        }
    };
    let mut closed = 0usize;
    for c in (0..n as u32).filter(|&c| unknown(c)) {
        closed += 1;
        for m in board.unknown_neighbours(c) {
            union(&mut parent, c, m);
        }
    }
    for number in board.frontier_numbers() {
        let mut first = None;
        for m in board.unknown_neighbours(number) {
            match first {
                None => first = Some(m),
                Some(f) => union(&mut parent, f, m),
            }
        }
    }
    // The classes' cells, each class in cell order.
    let mut classes: Vec<Vec<u32>> = Vec::new();
    let mut slot = vec![usize::MAX; n];
    for c in (0..n as u32).filter(|&c| unknown(c)) {
        let root = find(&mut parent, c) as usize;
        if slot[root] == usize::MAX {
            slot[root] = classes.len();
            classes.push(Vec::new());
        }
        classes[slot[root]].push(c);
    }
    if classes.len() < 2 {
        return None;
    }
    classes.retain(|cells| cells.len() < closed && cells.iter().all(|&c| board.on_frontier(c)));
    classes.sort_by_key(|cells| (cells.len(), cells[0]));
    let mut region = board.clone();
    for cells in &classes {
        let inside = |c: u32| cells.binary_search(&c).is_ok();
        for c in (0..n as u32).filter(|&c| unknown(c)) {
            region.set(c, if inside(c) { Cell::Unknown } else { Cell::Safe });
        }
        let Some(mut endgame) = Endgame::enumerate_region(&region, limit) else {
            continue;
        };
        if !endgame.fixed_mines() {
            continue;
        }
        if let Some(guess) = endgame.best_guess() {
            return Some(guess);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::referee::{random_position, Referee};
    use crate::test_rng::TestRng;

    fn board(rows: &[&str], total: u32) -> Board {
        crate::board::board_from_picture(rows, Some(total))
    }

    #[test]
    fn a_pocket_sealed_off_by_numbers_and_mines_is_played_by_its_own_game_tree() {
        // The top-left pair holds one mine whatever the rest holds, and
        // the numbers that see it see nothing else closed: a region of its
        // own, and a 50/50. The right side is no region: two of its cells
        // are off the frontier, free to hold a mine or not.
        let b = board(&["??F??", "13F??", "01121"], 4);
        let guess = isolated_guess(&b, REGION_LAYOUTS).expect("the pair is isolated");
        assert!([0, 1].contains(&guess.cell), "{guess:?}");
        assert_eq!((guess.p_mine, guess.p_win), (0.5, 0.5));
        // Alone on the board, the right side is the whole game, not a
        // region.
        let b = board(&["F.F??", "13F??", "01121"], 4);
        assert_eq!(isolated_guess(&b, REGION_LAYOUTS), None);
    }

    #[test]
    fn a_pocket_whose_layouts_hold_different_numbers_of_mines_is_no_region() {
        // The top-left three cells hold the middle one, or both ends: one
        // mine or two. The total ties that to the rest, so the pocket is
        // not played on its own.
        let b = board(&["???F?", "2F4F?", "11222"], 6);
        assert_eq!(isolated_guess(&b, REGION_LAYOUTS), None);
    }

    /// On random small positions, the isolated guess (when there is one)
    /// wins as many layouts as perfect play, and its mine probability is
    /// the share of layouts with a mine on it (an exhaustive referee
    /// written independently of the player).
    #[test]
    fn an_isolated_guess_loses_nothing_against_perfect_play() {
        let mut rng = TestRng::new(11);
        let mut found = 0;
        for _ in 0..20000 {
            let b = random_position(&mut rng);
            let Some(guess) = isolated_guess(&b, REGION_LAYOUTS) else {
                continue;
            };
            found += 1;
            let referee = Referee::new(&b);
            assert!(
                referee.opening_is_perfect(guess.cell),
                "opening {} first on {b:?} loses against perfect play",
                guess.cell
            );
            let mines = referee
                .layouts
                .iter()
                .filter(|&&l| l >> guess.cell & 1 == 1)
                .count();
            let share = mines as f64 / referee.layouts.len() as f64;
            assert!((guess.p_mine - share).abs() < 1e-12, "{guess:?} on {b:?}");
        }
        assert!(found >= 50, "only {found} positions had an isolated region");
    }
}
