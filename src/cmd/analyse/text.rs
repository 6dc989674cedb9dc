//! The human report of `analyse`: the forced cells, and with
//! `--probabilities` the grid of percentages.

use super::heatmap::label;
use crate::cmd::percent::percent;
use sapper_engine::formats::position::write_position;
use sapper_engine::report::{AnalysisReport, ProbabilityReport, RowCol};
use sapper_engine::review::proof;
use sapper_engine::{Analysis, Board, Cell, Position, Source};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The analysis of `position` in words: the forced cells, a rule's with the
/// pattern that forces it once the cells listed before it in the
/// analysis's order are known (a rule of a higher order: its order), and
/// the position after it (proven-safe cells known safe, forced mines
/// flagged).
pub(super) fn forced(
    shown: &str,
    position: &Position,
    analysis: &Analysis,
    report: &AnalysisReport,
) -> String {
    let grid = position.grid;
    // The report lists the deductions in cell order, the analysis in the
    // order they were made.
    let proofs = proof::of_deductions(&Board::from_position(position), &analysis.deductions);
    let named: HashMap<u32, String> = analysis
        .deductions
        .iter()
        .zip(proofs)
        .filter_map(|(d, p)| Some((d.cell, p?.describe())))
        .collect();
    let proof_of = |cell: RowCol| named.get(&grid.index(cell.row, cell.col));
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{shown}: {} safe, {} mines forced; {} closed cells stay undetermined",
        report.safe.len(),
        report.mines.len(),
        report.unknown_left
    );
    for d in &report.deductions {
        let by = match d.source {
            Source::Rule { order } => match proof_of(d.cell) {
                Some(pattern) => format!("the rules: {pattern}"),
                None => format!("a rule of order {order}"),
            },
            s => s.name().to_string(),
        };
        let _ = writeln!(s, "  {} {:<4}  by {by}", d.cell, d.value.to_string());
    }
    let _ = writeln!(s, "position after analysis (* proven safe, F mine):");
    for line in write_position(&analysis.board.to_position()).lines() {
        let _ = writeln!(s, "  {line}");
    }
    s
}

/// The board with each closed cell's probability (4 characters: `S` / `M`
/// for forced cells, else a whole percentage), the safest cells and the
/// number of layouts.
pub(super) fn probabilities(
    shown: &str,
    position: &Position,
    report: &ProbabilityReport,
) -> String {
    let grid = position.grid;
    let closed = report.per_cell.iter().filter(|p| !p.is_nan()).count();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{shown}: {closed} closed cells, {} proven safe, {} proven {}",
        report.safe.len(),
        report.mines.len(),
        if report.mines.len() == 1 {
            "mine"
        } else {
            "mines"
        }
    );
    let _ = writeln!(
        s,
        "mine probability of each closed cell (S proven safe, M proven mine, F flag, * safe):"
    );
    for r in 0..grid.h {
        s.push(' ');
        for c in 0..grid.w {
            let i = grid.index(r, c) as usize;
            match position.cells[i] {
                Cell::Unknown => {
                    let _ = write!(s, "{:>4}", label(report.per_cell[i]));
                }
                Cell::Mine => s.push_str("   F"),
                Cell::Safe => s.push_str("   *"),
                Cell::Revealed(0) => s.push_str("   ."),
                Cell::Revealed(n) => {
                    let _ = write!(s, "   {n}");
                }
            }
        }
        s.push('\n');
    }
    if let Some(&first) = report.safest.first() {
        let least = report.per_cell[first.row * grid.w + first.col];
        let what = if least == 0.0 {
            "proven safe".to_string()
        } else {
            format!("mine probability {}", percent(least))
        };
        let _ = write!(s, "safest ({what}):");
        for cell in report.safest.iter().take(10) {
            let _ = write!(s, " {cell}");
        }
        if report.safest.len() > 10 {
            let _ = write!(s, " and {} more", report.safest.len() - 10);
        }
        s.push('\n');
    }
    // Under a density the count is of the layouts that fit the numbers,
    // whatever their number of mines.
    let what = if position.total_mines.is_some() {
        "layouts"
    } else {
        "layouts (any number of mines)"
    };
    match &report.layouts {
        Some(l) => {
            let _ = writeln!(s, "{what}: {l} (10^{:.2})", report.log10_layouts);
        }
        None => {
            let _ = writeln!(s, "{what}: 10^{:.2}", report.log10_layouts);
        }
    }
    s
}
