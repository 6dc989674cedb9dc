//! Tests of the rule synthesizer against references written here, without
//! the synthesizer's own code: a layout-by-layout prover on the engine's
//! grid, an order-2 enumeration by closed layouts with AND/OR accumulation,
//! order-1 counts by formula, and the single-cell method.

use crate::util::{rule, sapper, TempDir};

use sapper_engine::methods::single_cell;
use sapper_engine::rules::{Pattern, PatternCell, Rule, RuleKind, Rulebase};
use sapper_engine::{Board, Cell, Forced, Grid, Value};
use sapper_synth::{
    build_rulebase, synthesize, synthesize_with, Options, Orientations, ProgressEvent, Synthesis,
    WindowStats,
};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;
use std::time::Duration;

mod command;
mod order3;

fn quiet(_: ProgressEvent) {}

/// Orders 1 and 2, full windows, computed once for all tests.
fn orders_1_2() -> &'static Synthesis {
    static S: OnceLock<Synthesis> = OnceLock::new();
    S.get_or_init(|| synthesize(&Options::up_to(2), &quiet))
}

/// Order 3 in windows up to 5 (foci span ≤ 3×3), every orientation.
fn order_3_window_5() -> &'static Synthesis {
    static S: OnceLock<Synthesis> = OnceLock::new();
    S.get_or_init(|| {
        let options = Options {
            orders: vec![3],
            max_window: 5,
            budget: None,
        };
        synthesize_with(&options, |_| Orientations::All, &quiet)
    })
}

fn stats(s: &Synthesis, order: u8, window: u8) -> &WindowStats {
    s.stats
        .iter()
        .find(|w| w.order == order && w.window == window)
        .unwrap_or_else(|| panic!("no stats for order {order} window {window}"))
}

fn rules_of(s: &Synthesis, order: u8) -> Vec<&Rule> {
    s.rules.iter().filter(|r| r.order() == order).collect()
}

fn chebyshev(a: (usize, usize), b: (usize, usize)) -> usize {
    a.0.abs_diff(b.0).max(a.1.abs_diff(b.1))
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Conclusion of a set of foci: `None` when no layout fits, else the cells
/// (grid indices) safe in every layout and mine in every layout.
type Facts = Option<(u64, u64)>;

/// The reference prover: every layout of the unknown cells around `foci`
/// on a board (edges as the engine's grid has them); each focus shows
/// `Revealed(v)` and its equation is "v mines among its unknown
/// neighbours".
fn prove_on_grid(grid: Grid, cells: &[Cell], foci: &[u32]) -> Facts {
    let mut closed: Vec<u32> = Vec::new();
    for &f in foci {
        for &n in &grid.neighbours(f) {
            if cells[n as usize] == Cell::Unknown && !closed.contains(&n) {
                closed.push(n);
            }
        }
    }
    assert!(closed.len() <= 24);
    let equations: Vec<(u32, u32)> = foci
        .iter()
        .map(|&f| {
            let Cell::Revealed(v) = cells[f as usize] else {
                panic!("focus {f} is not a number")
            };
            let mask = (0..closed.len())
                .filter(|&j| grid.neighbours(f).contains(&closed[j]))
                .map(|j| 1u32 << j)
                .sum();
            (mask, v as u32)
        })
        .collect();
    let all = (1u32 << closed.len()) - 1;
    let (mut ever_mine, mut ever_safe, mut any) = (0u32, 0u32, false);
    for layout in 0..=all {
        if equations
            .iter()
            .all(|&(m, v)| (layout & m).count_ones() == v)
        {
            any = true;
            ever_mine |= layout;
            ever_safe |= !layout & all;
        }
    }
    any.then(|| {
        let to_cells = |bits: u32| -> u64 {
            (0..closed.len())
                .filter(|j| bits >> j & 1 == 1)
                .map(|j| 1u64 << closed[j])
                .sum()
        };
        (to_cells(all & !ever_mine), to_cells(all & !ever_safe))
    })
}

/// A pattern on its own `h × w` grid: `Closed` unknown, numbers revealed,
/// everything else known safe (no mines are known, so effective values are
/// the numbers).
fn pattern_board(p: &Pattern) -> (Grid, Vec<Cell>, Vec<u32>) {
    let grid = Grid::new(p.h as usize, p.w as usize);
    let mut foci = Vec::new();
    let cells = p
        .cells
        .iter()
        .enumerate()
        .map(|(i, c)| match *c {
            PatternCell::Closed => Cell::Unknown,
            PatternCell::Number(v) => {
                foci.push(i as u32);
                Cell::Revealed(v)
            }
            PatternCell::Any | PatternCell::Open | PatternCell::Wall => Cell::Safe,
        })
        .collect();
    (grid, cells, foci)
}

fn facts_concludes(f: &Facts) -> bool {
    match f {
        None => true,
        Some((s, m)) => s | m != 0,
    }
}

/// Checks one stored rule from scratch: shape of the pattern, conclusion
/// proven by enumeration, and minimality (no proper subset of its foci
/// concludes anything).
fn check_rule(rule: &Rule) {
    let p = &rule.pattern;
    let (grid, cells, foci) = pattern_board(p);
    let at = |i: u32| (i as usize / p.w as usize, i as usize % p.w as usize);
    // Shape: a tight box around the foci's neighbourhoods, Any exactly off
    // their union, no walls, values 0..=8.
    let rows: Vec<usize> = foci.iter().map(|&f| at(f).0).collect();
    let cols: Vec<usize> = foci.iter().map(|&f| at(f).1).collect();
    assert_eq!(rows.iter().min(), Some(&1), "{:?}", rule.rows());
    assert_eq!(cols.iter().min(), Some(&1), "{:?}", rule.rows());
    assert_eq!(
        *rows.iter().max().unwrap(),
        p.h as usize - 2,
        "{:?}",
        rule.rows()
    );
    assert_eq!(
        *cols.iter().max().unwrap(),
        p.w as usize - 2,
        "{:?}",
        rule.rows()
    );
    for (i, c) in p.cells.iter().enumerate() {
        let in_union = foci.iter().any(|&f| chebyshev(at(f), at(i as u32)) <= 1);
        assert_eq!(*c != PatternCell::Any, in_union, "{:?}", rule.rows());
        assert_ne!(
            *c,
            PatternCell::Wall,
            "a wall pattern was stored: {:?}",
            rule.rows()
        );
        if let PatternCell::Number(v) = c {
            assert!(*v <= 8);
        }
    }
    let closed: u64 = p
        .cells
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == PatternCell::Closed)
        .map(|(i, _)| 1u64 << i)
        .sum();
    assert_eq!(
        (rule.safe | rule.mine) & !closed,
        0,
        "conclusion off the closed cells"
    );
    assert_eq!(rule.safe & rule.mine, 0);

    // The conclusion, proven.
    match prove_on_grid(grid, &cells, &foci) {
        None => {
            assert_eq!(rule.kind, RuleKind::Forbidden, "{:?}", rule.rows());
            assert_eq!(rule.safe | rule.mine, 0);
        }
        Some((safe, mine)) => {
            assert_eq!(rule.kind, RuleKind::Forced, "{:?}", rule.rows());
            assert_ne!(safe | mine, 0);
            assert_eq!((rule.safe, rule.mine), (safe, mine), "{:?}", rule.rows());
        }
    }

    // Minimality: every proper subset of the foci concludes nothing.
    let k = foci.len();
    for subset in 1..(1u32 << k) - 1 {
        let some: Vec<u32> = (0..k)
            .filter(|j| subset >> j & 1 == 1)
            .map(|j| foci[j])
            .collect();
        assert!(
            !facts_concludes(&prove_on_grid(grid, &cells, &some)),
            "foci {some:?} alone conclude something in {:?}",
            rule.rows()
        );
    }
}

// ---------------------------------------------------------------------------
// Order 1

/// The D4 action on the 8 neighbours of a 3×3 window, written out here:
/// a neighbour at `(dr, dc)` goes to the image of that offset.
fn ring_symmetries() -> Vec<[usize; 8]> {
    let ring: Vec<(i32, i32)> = (-1..=1)
        .flat_map(|r| (-1..=1).map(move |c| (r, c)))
        .filter(|&o| o != (0, 0))
        .collect();
    type Offset = (i32, i32);
    let maps: [fn(Offset) -> Offset; 8] = [
        |(r, c)| (r, c),
        |(r, c)| (c, -r),
        |(r, c)| (-r, -c),
        |(r, c)| (-c, r),
        |(r, c)| (r, -c),
        |(r, c)| (-r, c),
        |(r, c)| (c, r),
        |(r, c)| (-c, -r),
    ];
    maps.iter()
        .map(|f| std::array::from_fn(|i| ring.iter().position(|&o| o == f(ring[i])).unwrap()))
        .collect()
}

#[test]
fn order_1_counts_match_formulas() {
    let s = orders_1_2();
    let st = stats(s, 1, 3);
    // Wall sets: top/bottom rows and left/right columns of the window; the
    // free neighbours are the remaining rows × columns minus the focus.
    let free_counts: Vec<u64> = (0..16u32)
        .map(|w| {
            let rows = 3 - (w & 1) - (w >> 1 & 1);
            let cols = 3 - (w >> 2 & 1) - (w >> 3 & 1);
            (rows * cols - 1) as u64
        })
        .collect();
    let (mut enumerated, mut forced, mut forbidden, mut walls, mut raw) = (0, 0, 0, 0, 0);
    for (w, &n) in free_counts.iter().enumerate() {
        enumerated += 9 << n;
        for c in 0..=n {
            let masks = binomial(n, c);
            // v = 0 clears, v = c flags (both need c ≥ 1); v > c impossible.
            let f = if c >= 1 { 2 } else { 0 };
            let b = 8 - c;
            forced += masks * f;
            forbidden += masks * b;
            if w == 0 {
                raw += masks * (f + b);
            } else {
                walls += masks * (f + b);
            }
        }
    }
    assert_eq!(enumerated, 3897);
    assert_eq!(raw, 1534);
    assert_eq!(st.enumerated, enumerated);
    assert_eq!(st.forced, forced);
    assert_eq!(st.forbidden, forbidden);
    assert_eq!(st.covered_by_open_variant, walls);
    assert_eq!(st.kept_raw, raw);
    assert_eq!((st.covered_by_order1, st.covered_by_order2), (0, 0));

    // Canonical rules: a rule's conclusion treats all closed cells alike, so
    // its orbit is its closed mask's orbit; each mask orbit with c closed
    // cells carries 8 - c forbidden values plus, if c ≥ 1, the 0 and the c.
    let syms = ring_symmetries();
    let mut orbits = BTreeSet::new();
    for mask in 0u32..256 {
        let image = |s: &[usize; 8]| {
            (0..8)
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| 1u32 << s[i])
                .sum::<u32>()
        };
        orbits.insert(syms.iter().map(image).min().unwrap());
    }
    assert_eq!(orbits.len(), 51);
    let expected: u64 = orbits
        .iter()
        .map(|m| {
            let c = m.count_ones() as u64;
            (8 - c) + if c >= 1 { 2 } else { 0 }
        })
        .sum();
    assert_eq!(st.kept, expected);
    assert_eq!(rules_of(s, 1).len() as u64, expected);
}

/// The 3×3 board of an order-1 pattern, with the focus at index 4.
fn single_cell_outcome(closed_ring: u32, v: u8) -> Result<Vec<Forced>, ()> {
    let grid = Grid::new(3, 3);
    let ring = [0usize, 1, 2, 3, 5, 6, 7, 8];
    let mut cells = vec![Cell::Safe; 9];
    for (j, &i) in ring.iter().enumerate() {
        if closed_ring >> j & 1 == 1 {
            cells[i] = Cell::Unknown;
        }
    }
    cells[4] = Cell::Revealed(v);
    let board = Board::new(grid, cells, None);
    let mut out = Vec::new();
    single_cell::find(&board, Some(&[4]), &mut out).map_err(|_| ())?;
    out.sort();
    Ok(out)
}

#[test]
fn order_1_rules_are_exactly_the_single_cell_cases() {
    let s = orders_1_2();
    let stored: BTreeSet<&Rule> = rules_of(s, 1).into_iter().collect();
    let ring = [0usize, 1, 2, 3, 5, 6, 7, 8];
    let mut matched = BTreeSet::new();
    for mask in 0u32..256 {
        for v in 0..=8u8 {
            let mut cells = vec![PatternCell::Open; 9];
            for (j, &i) in ring.iter().enumerate() {
                if mask >> j & 1 == 1 {
                    cells[i] = PatternCell::Closed;
                }
            }
            cells[4] = PatternCell::Number(v);
            let outcome = single_cell_outcome(mask, v);
            let rule = match &outcome {
                Err(()) => Some(Rule {
                    pattern: Pattern::new(3, 3, cells),
                    kind: RuleKind::Forbidden,
                    safe: 0,
                    mine: 0,
                }),
                Ok(found) if found.is_empty() => None,
                Ok(found) => {
                    let bits = |value: Value| {
                        found
                            .iter()
                            .filter(|f| f.value == value)
                            .map(|f| 1u64 << f.cell)
                            .sum()
                    };
                    Some(Rule {
                        pattern: Pattern::new(3, 3, cells),
                        kind: RuleKind::Forced,
                        safe: bits(Value::Safe),
                        mine: bits(Value::Mine),
                    })
                }
            };
            if let Some(rule) = rule {
                let canon = rule.canonical();
                assert!(
                    stored.contains(&canon),
                    "single-cell case missing: {:?}",
                    rule.rows()
                );
                matched.insert(canon);
            }
        }
    }
    // And nothing else: every stored order-1 rule is one of these cases.
    assert_eq!(matched.len(), stored.len());
}

// ---------------------------------------------------------------------------
// Order 2: an independent enumeration by closed layouts

/// Everything the reference enumeration of order 2 finds.
#[derive(Default)]
struct Reference {
    stats: BTreeMap<u8, WindowStats>,
    /// Canonical kept rules.
    rules: BTreeSet<Rule>,
    /// Raw kept rules (every orientation).
    raw: Vec<Rule>,
    /// Open variants of the forced/forbidden wall patterns with no trivial
    /// focus, each with its conclusion proven on the clipped field.
    wall_variants: Vec<Rule>,
}

fn trivial(v: u32, closed: u32) -> bool {
    v > closed || (closed > 0 && (v == 0 || v == closed))
}

fn reference_order_2() -> &'static Reference {
    static R: OnceLock<Reference> = OnceLock::new();
    R.get_or_init(|| {
        let mut out = Reference::default();
        // Unordered offsets: (dr, dc) with dr > 0, or dr = 0 and dc > 0.
        for dr in 0..=2i32 {
            for dc in -2..=2i32 {
                if dr.max(dc.abs()) == 0 || (dr == 0 && dc < 0) {
                    continue;
                }
                for walls in 0..16u32 {
                    reference_geometry(dr, dc, walls, &mut out);
                }
            }
        }
        out
    })
}

fn reference_geometry(dr: i32, dc: i32, walls: u32, out: &mut Reference) {
    let h = 3 + dr as usize;
    let w = 3 + dc.unsigned_abs() as usize;
    let a = (
        1usize,
        if dc < 0 {
            1 + dc.unsigned_abs() as usize
        } else {
            1
        },
    );
    let b = ((a.0 as i32 + dr) as usize, (a.1 as i32 + dc) as usize);
    let window = h.max(w) as u8;
    let on_wall = |r: usize, c: usize| {
        (walls & 1 != 0 && r == 0)
            || (walls & 2 != 0 && r == h - 1)
            || (walls & 4 != 0 && c == 0)
            || (walls & 8 != 0 && c == w - 1)
    };
    let mut base = vec![PatternCell::Any; h * w];
    let (mut free, mut around_a, mut around_b) = (0u32, 0u32, 0u32);
    for r in 0..h {
        for c in 0..w {
            let (da, db) = (chebyshev((r, c), a), chebyshev((r, c), b));
            let i = r * w + c;
            if da == 0 || db == 0 || (da > 1 && db > 1) {
                continue;
            }
            if on_wall(r, c) {
                base[i] = PatternCell::Wall;
                continue;
            }
            base[i] = PatternCell::Open;
            free |= 1 << i;
            if da == 1 {
                around_a |= 1 << i;
            }
            if db == 1 {
                around_b |= 1 << i;
            }
        }
    }
    let st = out.stats.entry(window).or_insert_with(|| WindowStats {
        order: 2,
        window,
        ..WindowStats::default()
    });
    // Every subset of the free cells, as closed cells.
    let mut closed = 0u32;
    loop {
        // All layouts (subsets of `closed`), grouped by the mines they put
        // around A and around B: AND and OR of each group's layouts.
        let mut all_mines = [u32::MAX; 81];
        let mut any_mine = [0u32; 81];
        let mut seen = [false; 81];
        let mut layout = closed;
        loop {
            let g = (layout & around_a).count_ones() as usize * 9
                + (layout & around_b).count_ones() as usize;
            all_mines[g] &= layout;
            any_mine[g] |= layout;
            seen[g] = true;
            if layout == 0 {
                break;
            }
            layout = (layout - 1) & closed;
        }
        let (ca, cb) = (
            (closed & around_a).count_ones(),
            (closed & around_b).count_ones(),
        );
        for va in 0..9u32 {
            for vb in 0..9u32 {
                let g = (va * 9 + vb) as usize;
                st.enumerated += 1;
                let (forbidden, safe, mine) = if seen[g] {
                    (false, closed & !any_mine[g], all_mines[g])
                } else {
                    (true, 0, 0)
                };
                let forced = !forbidden && safe | mine != 0;
                st.forced += forced as u64;
                st.forbidden += forbidden as u64;
                if !(forced || forbidden) {
                    continue;
                }
                if trivial(va, ca) || trivial(vb, cb) {
                    st.covered_by_order1 += 1;
                    continue;
                }
                let mut cells = base.clone();
                for (i, cell) in cells.iter_mut().enumerate() {
                    if closed >> i & 1 == 1 {
                        *cell = PatternCell::Closed;
                    }
                }
                cells[a.0 * w + a.1] = PatternCell::Number(va as u8);
                cells[b.0 * w + b.1] = PatternCell::Number(vb as u8);
                if walls != 0 {
                    st.covered_by_open_variant += 1;
                    out.wall_variants
                        .push(open_variant_proven_on_clipped_field(h, w, &cells, walls));
                    continue;
                }
                st.kept_raw += 1;
                let rule = Rule {
                    pattern: Pattern::new(h as u8, w as u8, cells),
                    kind: if forbidden {
                        RuleKind::Forbidden
                    } else {
                        RuleKind::Forced
                    },
                    safe: safe as u64,
                    mine: mine as u64,
                };
                out.rules.insert(rule.canonical());
                out.raw.push(rule);
            }
        }
        if closed == free {
            break;
        }
        closed = ((closed | !free) + 1) & free;
    }
}

/// Puts a wall pattern at the edge of a real field (the wall lines are
/// outside it, so the engine's grid simply has no such cells), proves its
/// conclusion there, and returns the open variant (walls → Open) carrying
/// that conclusion.
fn open_variant_proven_on_clipped_field(
    h: usize,
    w: usize,
    cells: &[PatternCell],
    walls: u32,
) -> Rule {
    let r0 = (walls & 1) as usize;
    let r1 = h - (walls >> 1 & 1) as usize;
    let c0 = (walls >> 2 & 1) as usize;
    let c1 = w - (walls >> 3 & 1) as usize;
    let grid = Grid::new(r1 - r0, c1 - c0);
    let mut board = Vec::new();
    let mut foci = Vec::new();
    for r in r0..r1 {
        for c in c0..c1 {
            let i = grid.index(r - r0, c - c0);
            board.push(match cells[r * w + c] {
                PatternCell::Closed => Cell::Unknown,
                PatternCell::Number(v) => {
                    foci.push(i);
                    Cell::Revealed(v)
                }
                _ => Cell::Safe,
            });
        }
    }
    let facts = prove_on_grid(grid, &board, &foci);
    let back = |bits: u64| -> u64 {
        (0..grid.len() as u32)
            .filter(|i| bits >> i & 1 == 1)
            .map(|i| {
                let (r, c) = grid.rc(i);
                1u64 << ((r + r0) * w + (c + c0))
            })
            .sum()
    };
    let open: Vec<PatternCell> = cells
        .iter()
        .map(|&c| {
            if c == PatternCell::Wall {
                PatternCell::Open
            } else {
                c
            }
        })
        .collect();
    let (kind, safe, mine) = match facts {
        None => (RuleKind::Forbidden, 0, 0),
        Some((s, m)) => (RuleKind::Forced, back(s), back(m)),
    };
    Rule {
        pattern: Pattern::new(h as u8, w as u8, open),
        kind,
        safe,
        mine,
    }
}

#[test]
fn order_2_matches_an_independent_enumeration() {
    let s = orders_1_2();
    let reference = reference_order_2();
    for (window, expected) in &reference.stats {
        let got = stats(s, 2, *window);
        assert_eq!(got.enumerated, expected.enumerated, "window {window}");
        assert_eq!(got.forced, expected.forced, "window {window}");
        assert_eq!(got.forbidden, expected.forbidden, "window {window}");
        assert_eq!(
            got.covered_by_order1, expected.covered_by_order1,
            "window {window}"
        );
        assert_eq!(got.covered_by_order2, 0, "window {window}");
        assert_eq!(
            got.covered_by_open_variant, expected.covered_by_open_variant,
            "window {window}"
        );
        assert_eq!(got.kept_raw, expected.kept_raw, "window {window}");
        let kept = reference
            .rules
            .iter()
            .filter(|r| r.window() == *window)
            .count() as u64;
        assert_eq!(got.kept, kept, "window {window}");
    }
    let windows: Vec<u8> = reference.stats.keys().copied().collect();
    assert_eq!(windows, vec![4, 5]);
    let stored: BTreeSet<Rule> = rules_of(s, 2).into_iter().cloned().collect();
    assert!(stored == reference.rules, "order-2 rule sets differ");
}

#[test]
fn wall_patterns_conclude_what_their_stored_open_variant_concludes() {
    let s = orders_1_2();
    let stored: BTreeSet<&Rule> = s.rules.iter().collect();
    let reference = reference_order_2();
    assert!(!reference.wall_variants.is_empty());
    for variant in &reference.wall_variants {
        assert!(
            stored.contains(&variant.canonical()),
            "wall pattern at a field edge concludes {:?}, which no stored rule does",
            variant.rows()
        );
    }
    // Order 1: a focus on the field's edge or corner, checked with the
    // single-cell method on the clipped field.
    let mut checked = 0;
    for walls in 1..16u32 {
        let (r0, r1) = ((walls & 1) as usize, 3 - (walls >> 1 & 1) as usize);
        let (c0, c1) = ((walls >> 2 & 1) as usize, 3 - (walls >> 3 & 1) as usize);
        let grid = Grid::new(r1 - r0, c1 - c0);
        let focus = grid.index(1 - r0, 1 - c0);
        let others: Vec<u32> = (0..grid.len() as u32).filter(|&i| i != focus).collect();
        for closed in 0u32..1 << others.len() {
            for v in 0..=8u8 {
                let mut cells = vec![Cell::Safe; grid.len()];
                let mut pattern = vec![PatternCell::Open; 9];
                for (j, &i) in others.iter().enumerate() {
                    if closed >> j & 1 == 1 {
                        cells[i as usize] = Cell::Unknown;
                        let (r, c) = grid.rc(i);
                        pattern[(r + r0) * 3 + c + c0] = PatternCell::Closed;
                    }
                }
                cells[focus as usize] = Cell::Revealed(v);
                pattern[4] = PatternCell::Number(v);
                let mut found = Vec::new();
                let rule = match single_cell::find(
                    &Board::new(grid, cells, None),
                    Some(&[focus]),
                    &mut found,
                ) {
                    Err(_) => Rule {
                        pattern: Pattern::new(3, 3, pattern),
                        kind: RuleKind::Forbidden,
                        safe: 0,
                        mine: 0,
                    },
                    Ok(()) if found.is_empty() => continue,
                    Ok(()) => {
                        let bits = |value: Value| -> u64 {
                            found
                                .iter()
                                .filter(|f| f.value == value)
                                .map(|f| {
                                    let (r, c) = grid.rc(f.cell);
                                    1u64 << ((r + r0) * 3 + c + c0)
                                })
                                .sum()
                        };
                        Rule {
                            pattern: Pattern::new(3, 3, pattern),
                            kind: RuleKind::Forced,
                            safe: bits(Value::Safe),
                            mine: bits(Value::Mine),
                        }
                    }
                };
                assert!(stored.contains(&rule.canonical()), "{:?}", rule.rows());
                checked += 1;
            }
        }
    }
    assert_eq!(checked as u64, stats(s, 1, 3).covered_by_open_variant);
}

/// Number of distinct images of a rule under the 8 symmetries.
fn orbit_size(rule: &Rule) -> u64 {
    (0..8)
        .map(|s| rule.transform(s))
        .collect::<BTreeSet<_>>()
        .len() as u64
}

#[test]
fn raw_counts_are_the_orbit_sums_of_the_kept_rules() {
    let s = orders_1_2();
    for st in &s.stats {
        let sum: u64 = s
            .rules
            .iter()
            .filter(|r| r.order() == st.order && r.window() == st.window)
            .map(orbit_size)
            .sum();
        assert_eq!(sum, st.kept_raw, "order {} window {}", st.order, st.window);
    }
    // The reference's raw rules, canonicalized, are exactly the orbits.
    let reference = reference_order_2();
    let raw: BTreeSet<Rule> = reference.raw.iter().cloned().collect();
    assert_eq!(
        raw.len(),
        reference.raw.len(),
        "the reference met a pattern twice"
    );
    let images: BTreeSet<Rule> = rules_of(s, 2)
        .iter()
        .flat_map(|r| (0..8).map(|k| r.transform(k)))
        .collect();
    assert!(images == raw);
}

#[test]
fn every_order_1_and_2_rule_is_reproved_and_minimal() {
    let s = orders_1_2();
    assert!(s.complete());
    for rule in &s.rules {
        check_rule(rule);
    }
    for rule in rules_of(s, 2) {
        let foci: Vec<(usize, usize)> = (0..rule.pattern.cells.len())
            .filter(|&i| matches!(rule.pattern.cells[i], PatternCell::Number(_)))
            .map(|i| (i / rule.pattern.w as usize, i % rule.pattern.w as usize))
            .collect();
        assert!((1..=2).contains(&chebyshev(foci[0], foci[1])));
    }
}

#[test]
fn stored_rules_are_canonical_distinct_and_sorted() {
    for s in [orders_1_2(), order_3_window_5()] {
        let canon: BTreeSet<Rule> = s.rules.iter().map(Rule::canonical).collect();
        assert_eq!(
            canon.len(),
            s.rules.len(),
            "two stored rules are symmetric images"
        );
        assert!(s.rules.iter().all(|r| *r == r.canonical()));
        assert!(s.rules.windows(2).all(|w| w[0] < w[1]));
    }
}

#[test]
fn synthesis_is_deterministic_across_runs_and_thread_counts() {
    let options = Options::up_to(2);
    let first = orders_1_2();
    let again = synthesize(&options, &quiet);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let single = pool.install(|| synthesize(&options, &quiet));
    for other in [&again, &single] {
        assert!(other.rules == first.rules);
        assert_eq!(other.stats, first.stats);
        assert_eq!(other.notes, first.notes);
    }
    let bytes = |s: &Synthesis| bincode::serialize(&build_rulebase(None, s, &options)).unwrap();
    assert_eq!(bytes(first), bytes(&single));

    let o3 = Options {
        orders: vec![3],
        max_window: 5,
        budget: None,
    };
    let a = pool.install(|| synthesize(&o3, &quiet));
    let b = synthesize(&o3, &quiet);
    assert!(a.rules == b.rules);
    assert_eq!(a.stats, b.stats);
}
