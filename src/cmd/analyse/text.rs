//! The human report of `analyse`: the forced cells, and with
//! `--probabilities` the grid of percentages.

use super::*;

/// The analysis in words: the forced cells and the position after it.
pub(super) fn forced_text(shown: &str, grid: Grid, analysis: &Analysis) -> String {
    let (safe, mines) = forced_cells(analysis);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{shown}: {} safe, {} mines forced; {} closed cells stay undetermined",
        safe.len(),
        mines.len(),
        analysis.board.unknown_count()
    );
    let mut deds = analysis.deductions.clone();
    deds.sort_by_key(|d| d.cell);
    for d in &deds {
        let (r, c) = grid.rc(d.cell);
        let by = match d.source {
            sapper_engine::Source::Rule { order } => format!("a rule of order {order}"),
            s => s.name().to_string(),
        };
        let _ = writeln!(s, "  ({r},{c}) {:<4}  by {by}", d.value.to_string());
    }
    let _ = writeln!(s, "position after analysis (* proven safe, F mine):");
    for line in write_position(&analysis.board.to_position()).lines() {
        let _ = writeln!(s, "  {line}");
    }
    s
}

/// A closed cell's probability as a grid entry, 4 characters: `S` / `M`
/// for forced cells, else a whole percentage, `<1%` and `>99%` at the ends
/// (0% and 100% are for forced cells only).
pub(super) fn percent(p: f64) -> String {
    if p == 0.0 {
        return "   S".into();
    }
    if p == 1.0 {
        return "   M".into();
    }
    let whole = (p * 100.0).round();
    if whole < 1.0 {
        " <1%".into()
    } else if whole > 99.0 {
        ">99%".into()
    } else {
        format!("{:>3}%", whole as u32)
    }
}

/// The board with each closed cell's probability, the safest cells and the
/// number of layouts.
pub(super) fn probabilities_text(
    shown: &str,
    board: &Board,
    p: &Probabilities,
    layouts: Option<String>,
) -> String {
    let grid = board.grid();
    let (safe, mines) = forced_by_count(p);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{shown}: {} closed cells, {} proven safe, {} proven {}",
        p.closed_cells().len(),
        safe.len(),
        mines.len(),
        if mines.len() == 1 { "mine" } else { "mines" }
    );
    let _ = writeln!(
        s,
        "mine probability of each closed cell (S proven safe, M proven mine, F flag, * safe):"
    );
    for r in 0..grid.h {
        s.push(' ');
        for c in 0..grid.w {
            let i = grid.index(r, c);
            match board.cell(i) {
                Cell::Unknown => s.push_str(&percent(p.probability(i).unwrap())),
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
    let safest = p.safest();
    if let Some(&first) = safest.first() {
        let least = p.probability(first).unwrap();
        let what = if least == 0.0 {
            "proven safe".to_string()
        } else {
            format!("mine probability {}", short(least))
        };
        let _ = write!(s, "safest ({what}):");
        for &cell in safest.iter().take(10) {
            let (r, c) = grid.rc(cell);
            let _ = write!(s, " ({r},{c})");
        }
        if safest.len() > 10 {
            let _ = write!(s, " and {} more", safest.len() - 10);
        }
        s.push('\n');
    }
    // Under a density the count is of the layouts that fit the numbers,
    // whatever their number of mines.
    let what = if board.total_mines().is_some() {
        "layouts"
    } else {
        "layouts (any number of mines)"
    };
    match layouts {
        Some(l) => {
            let _ = writeln!(s, "{what}: {l} (10^{:.2})", p.log10_layouts());
        }
        None => {
            let _ = writeln!(s, "{what}: 10^{:.2}", p.log10_layouts());
        }
    }
    s
}

/// A probability for people: a percentage with three significant digits.
pub(super) fn short(p: f64) -> String {
    let pct = p * 100.0;
    if pct >= 10.0 {
        format!("{pct:.1}%")
    } else if pct >= 1.0 {
        format!("{pct:.2}%")
    } else {
        format!("{pct:.3e}%")
    }
}
