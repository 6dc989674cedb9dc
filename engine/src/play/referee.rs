//! Test helpers for the player's proofs: an exhaustive referee of small
//! positions, written independently of the player, and random small
//! positions to give it.

use crate::board::{Board, Cell, Field};
use crate::grid::Grid;
use crate::test_rng::TestRng;
use std::collections::HashMap;

/// A random position of at most 20 cells: a layout of 2 to 5 mines, each
/// safe cell revealed with chance 1/2, the total known.
pub(crate) fn random_position(rng: &mut TestRng) -> Board {
    let (h, w) = [(3, 4), (4, 4), (2, 6), (3, 5)][rng.below(4)];
    let grid = Grid::new(h, w);
    let n = grid.len();
    let mines = 2 + rng.below(4);
    let mut layout = vec![false; n];
    let mut placed = 0;
    while placed < mines {
        let c = rng.below(n);
        placed += !layout[c] as usize;
        layout[c] = true;
    }
    let field = Field::from_mines(grid, layout, vec![false; n]);
    let cells: Vec<Cell> = (0..n)
        .map(|c| {
            if field.mine[c] || rng.below(2) == 0 {
                Cell::Unknown
            } else {
                Cell::Revealed(field.value[c])
            }
        })
        .collect();
    Board::new(grid, cells, Some(mines as u32))
}

/// An independent referee: every layout of a small board by brute
/// force, and the most of them perfect play wins.
pub(crate) struct Referee {
    /// Layouts as bit masks over the cells (known mines included).
    pub layouts: Vec<u32>,
    neighbours: Vec<u32>,
    closed: Vec<u32>,
}

impl Referee {
    pub fn new(board: &Board) -> Referee {
        let grid = board.grid();
        let n = grid.len();
        assert!(n <= 20);
        let neighbours: Vec<u32> = (0..n as u32)
            .map(|c| grid.neighbours(c).iter().fold(0, |m, &d| m | 1 << d))
            .collect();
        let closed: Vec<u32> = (0..n as u32)
            .filter(|&c| board.cell(c) == Cell::Unknown)
            .collect();
        let flags = (0..n as u32)
            .filter(|&c| board.cell(c) == Cell::Mine)
            .fold(0u32, |m, c| m | 1 << c);
        let total = board.total_mines();
        let layouts = (0u32..1 << closed.len())
            .map(|pick| {
                closed
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| pick >> k & 1 == 1)
                    .fold(flags, |m, (_, &c)| m | 1 << c)
            })
            .filter(|&l| total.is_none_or(|t| l.count_ones() == t))
            .filter(|&l| {
                (0..n as u32).all(|c| match board.cell(c) {
                    Cell::Revealed(v) => (l & neighbours[c as usize]).count_ones() == v as u32,
                    _ => true,
                })
            })
            .collect();
        Referee {
            layouts,
            neighbours,
            closed,
        }
    }

    fn shows(&self, layout: u32, c: u32) -> Option<u32> {
        (layout >> c & 1 == 0).then(|| (layout & self.neighbours[c as usize]).count_ones())
    }

    /// The layouts of `set` where `c` is safe, by what it shows.
    fn split(&self, set: &[u32], c: u32) -> Vec<Vec<u32>> {
        let mut parts: HashMap<u32, Vec<u32>> = HashMap::new();
        for &l in set {
            if let Some(v) = self.shows(l, c) {
                parts.entry(v).or_default().push(l);
            }
        }
        let mut parts: Vec<_> = parts.into_values().collect();
        parts.sort();
        parts
    }

    /// The most layouts of `set` any strategy wins.
    fn wins(&self, set: &[u32], memo: &mut HashMap<Vec<u32>, usize>) -> usize {
        if set.len() <= 1 {
            return set.len();
        }
        if let Some(&w) = memo.get(set) {
            return w;
        }
        let mut best = 0;
        for &c in &self.closed {
            let parts = self.split(set, c);
            // A cell safe everywhere that tells nothing changes nothing.
            if parts.len() == 1 && parts[0].len() == set.len() {
                continue;
            }
            best = best.max(parts.iter().map(|p| self.wins(p, memo)).sum());
        }
        memo.insert(set.to_vec(), best);
        best
    }

    /// Whether opening `c` first, then playing perfectly, wins as many
    /// layouts as perfect play.
    pub fn opening_is_perfect(&self, c: u32) -> bool {
        let mut memo = HashMap::new();
        self.wins_opening(c, &mut memo) == self.wins(&self.layouts, &mut memo)
    }

    /// The most layouts won by opening `c` first, then playing
    /// perfectly.
    fn wins_opening(&self, c: u32, memo: &mut HashMap<Vec<u32>, usize>) -> usize {
        let parts = self.split(&self.layouts, c);
        parts.iter().map(|p| self.wins(p, memo)).sum()
    }
}
