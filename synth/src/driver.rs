//! The synthesis driver: walks the geometries of each order, classifies every
//! pattern through its region table, emits the kept rules in canonical form
//! and counts everything.

use crate::compact::{CompactRule, KIND_FORBIDDEN, KIND_FORCED, NUMBER};
use crate::regions::{RegionTable, VALUES};
use crate::space::{shape_classes, shapes, Geometry, Scatter, Shape};
use crate::{Coverage, ProgressEvent, WindowStats};
use hashbrown::HashMap;
use rayon::prelude::*;
use std::sync::Arc;
use std::time::Instant;

/// Which members of each symmetry class of shapes are enumerated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientations {
    /// Every orientation: the space is closed under the 8 symmetries, so
    /// each orbit of rules is met in full and exactly its least member (the
    /// canonical one) is kept; no global deduplication needed, and the raw
    /// count equals the sum of the kept rules' orbit sizes.
    All,
    /// One shape per symmetry class (its least image): 1/8 to 1/2 of the
    /// work; every kept rule is mapped to its canonical form and duplicates
    /// (images met through a symmetric shape) are removed afterwards.
    Representatives,
}

/// What one order produced.
pub struct OrderOutput {
    pub rules: Vec<CompactRule>,
    pub stats: Vec<WindowStats>,
    pub coverage: Coverage,
}

/// Masks handled per parallel task.
const CHUNK: u64 = 1 << 12;

/// `n choose k` for small numbers.
fn binomial(n: u8, k: u8) -> u64 {
    (0..k as u64).fold(1, |acc, i| acc * (n as u64 - i) / (i + 1))
}

/// Synthesizes one order over the shapes fitting `max_window`, stopping
/// before a geometry once `deadline` has passed.
pub fn synthesize_order(
    order: u8,
    max_window: u8,
    orientations: Orientations,
    deadline: Option<Instant>,
    progress: &(dyn Fn(ProgressEvent) + Sync),
) -> OrderOutput {
    let shape_list: Vec<Shape> = match orientations {
        Orientations::All => shapes(order, max_window),
        Orientations::Representatives => shape_classes(order, max_window)
            .into_iter()
            .map(|(s, _)| s)
            .collect(),
    };
    // Shape-major, the wall-free geometry of each shape first.
    let geometries: Vec<Geometry> = shape_list
        .iter()
        .flat_map(|s| (0..16u8).map(move |walls| Geometry::new(s, walls)))
        .collect();
    let work = |g: &Geometry| {
        if g.walls == 0 {
            1u64 << g.free_count()
        } else {
            1
        }
    };
    progress(ProgressEvent::Stage {
        order,
        total: geometries.iter().map(work).sum(),
    });

    let mut stats: Vec<WindowStats> = Vec::new();
    let mut rules: Vec<CompactRule> = Vec::new();
    let mut tables: HashMap<[u8; 8], Arc<RegionTable>> = HashMap::new();
    let mut done = 0usize;
    for (i, geometry) in geometries.iter().enumerate() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let mut sizes = [0u8; 8];
        for (m, size) in sizes.iter_mut().enumerate().skip(1) {
            *size = geometry.region[m].count_ones() as u8;
        }
        let table = tables
            .entry(sizes)
            .or_insert_with(|| Arc::new(RegionTable::new(order as usize, sizes)))
            .clone();
        let window = geometry.window();
        let entry = match stats.iter().position(|s| s.window == window) {
            Some(p) => p,
            None => {
                stats.push(WindowStats {
                    order,
                    window,
                    ..WindowStats::default()
                });
                stats.len() - 1
            }
        };
        let kept_before = stats[entry].kept_raw;
        count_geometry(geometry, &table, &mut stats[entry]);
        if geometry.walls == 0 {
            let (found, raw) = emit(geometry, &table, orientations);
            // The mask walk and the binomial count must agree.
            assert_eq!(
                raw,
                stats[entry].kept_raw - kept_before,
                "mask walk disagrees with the counts"
            );
            rules.extend(found);
        }
        progress(ProgressEvent::Advance(work(geometry)));
        done = i + 1;
    }

    rules.par_sort_unstable();
    let before = rules.len();
    rules.dedup();
    if orientations == Orientations::All {
        // Each orbit was met in full and only its canonical member kept.
        assert_eq!(before, rules.len(), "a canonical rule was emitted twice");
    }
    for s in &mut stats {
        let in_window = rules.iter().filter(|r| r.h.max(r.w) == s.window);
        s.kept = in_window.clone().count() as u64;
        s.kept_forbidden = in_window.filter(|r| r.kind == KIND_FORBIDDEN).count() as u64;
    }
    stats.sort_by_key(|s| s.window);
    OrderOutput {
        rules,
        stats,
        coverage: Coverage {
            order,
            max_window,
            shapes_total: shape_list.len(),
            // Geometries are shape-major, 16 wall sets per shape.
            shapes_done: done / 16,
            geometries_total: geometries.len(),
            geometries_done: done,
            representatives: orientations == Orientations::Representatives,
        },
    }
}

/// Counts every pattern of `geometry` by its closed-count vector: the
/// number of closed masks with counts `n_m` is `Π_m C(|m|, n_m)`.
fn count_geometry(geometry: &Geometry, table: &RegionTable, stats: &mut WindowStats) {
    let tuples = VALUES.pow(geometry.order() as u32) as u64;
    let mut masks = 0u64;
    for (index, class) in table.entries.iter().enumerate() {
        let closed = table.closed_counts(index);
        let multiplicity: u64 = table
            .regions
            .iter()
            .map(|&m| binomial(table.sizes[m], closed[m]))
            .product();
        masks += multiplicity;
        stats.forced += multiplicity * class.forced as u64;
        stats.forbidden += multiplicity * class.forbidden as u64;
        stats.covered_by_order1 += multiplicity * class.covered_order1 as u64;
        stats.covered_by_order2 += multiplicity * class.covered_order2 as u64;
        let kept = multiplicity * class.kept.len() as u64;
        // A wall is never unknown, exactly like an open cell, so a pattern
        // with walls has the conclusion of its open variant (the same
        // pattern with its walls Open, which the matcher also matches off
        // the field): stored only through that variant.
        if geometry.walls != 0 {
            stats.covered_by_open_variant += kept;
        } else {
            stats.kept_raw += kept;
        }
    }
    assert_eq!(
        masks,
        1u64 << geometry.free_count(),
        "closed-count vectors miss masks"
    );
    stats.geometries += 1;
    stats.enumerated += masks * tuples;
}

/// Walks every closed mask of a wall-free geometry and builds its kept
/// rules. Returns the rules (canonical) and the raw number of kept patterns
/// met.
fn emit(
    geometry: &Geometry,
    table: &RegionTable,
    orientations: Orientations,
) -> (Vec<CompactRule>, u64) {
    let scatter = Scatter::new(geometry.free);
    let total = 1u64 << geometry.free_count();
    // Cells of each set of regions (bit m = membership m).
    let union: Vec<u64> = (0..256usize)
        .map(|set| {
            (1..8)
                .filter(|m| set >> m & 1 == 1)
                .map(|m| geometry.region[m])
                .fold(0, |a, b| a | b)
        })
        .collect();
    let chunks = total.div_ceil(CHUNK);
    let results: Vec<(Vec<CompactRule>, u64)> = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let mut out = Vec::new();
            let mut raw = 0u64;
            for index in chunk * CHUNK..((chunk + 1) * CHUNK).min(total) {
                let closed = scatter.get(index);
                let class = &table.entries[table.index_of(closed, &geometry.region)];
                if class.kept.is_empty() {
                    continue;
                }
                raw += class.kept.len() as u64;
                let cells = geometry.cells_with(closed);
                for kept in &class.kept {
                    let mut rule = CompactRule {
                        h: geometry.h,
                        w: geometry.w,
                        cells,
                        kind: if kept.forbidden {
                            KIND_FORBIDDEN
                        } else {
                            KIND_FORCED
                        },
                        safe: closed & union[kept.safe_regions as usize],
                        mine: closed & union[kept.mine_regions as usize],
                    };
                    for (focus, &cell) in geometry.foci.iter().enumerate() {
                        rule.cells[cell as usize] = NUMBER + kept.values[focus];
                    }
                    match orientations {
                        Orientations::All => {
                            if rule.is_canonical() {
                                out.push(rule);
                            }
                        }
                        Orientations::Representatives => out.push(rule.canonical()),
                    }
                }
            }
            (out, raw)
        })
        .collect();
    let raw = results.iter().map(|r| r.1).sum();
    (results.into_iter().flat_map(|r| r.0).collect(), raw)
}
