//! # sapper-synth
//!
//! The offline rule synthesizer (docs/design.md §3): it enumerates every small
//! Minesweeper pattern of a stated space, proves what each one concludes by
//! exact enumeration, throws away what is not needed, and returns the rest as
//! a canonical, sorted [`Rulebase`].
//!
//! ## The space
//!
//! A pattern is built around its *foci* (numbers with an effective value
//! `v ∈ 0..=8`): it is the bounding box of the union of the foci's 3×3
//! neighbourhoods; box cells outside the union are `Any`, every other
//! non-focus cell is `Closed` or `Open`, or `Wall` when it lies on an outer
//! row or column of the box declared outside the field (any of the 16 sets of
//! outer lines; the foci are never on one).
//!
//! - **Order 1** — one focus, a 3×3 window: 16 wall sets × every closed/open
//!   choice of the up to 8 neighbours × 9 values.
//! - **Order 2** — two foci at Chebyshev distance 1 or 2: all 12 unordered
//!   offsets ((0,1), (1,0), (1,±1) in 4-windows; (0,2), (2,0), (2,±2),
//!   (1,±2), (2,±1) in 5-windows), 16 wall sets, every closed/open choice of
//!   the 10–15 free cells, 81 value pairs.
//! - **Order 3** — three foci whose neighbourhood union fits 6×6 (foci span
//!   at most 4×4) and which are *connected* (linked when their
//!   neighbourhoods share a cell); a triple that is not connected splits into
//!   independent parts and can never be a rule of order 3, so this is every
//!   candidate fitting a 6×6 window. Enumerated one shape per symmetry class.
//!
//! ## Conclusions
//!
//! A pattern's conclusion is exact: a closed cell is *forced* when it has the
//! same value in every layout of the closed cells satisfying all focus
//! equations, the pattern is *forbidden* when no layout does. The layouts
//! are enumerated through closed-count vectors per region (see
//! [`regions`]: cells seen by the same set of foci are interchangeable),
//! which is exact and answers all value tuples of a closed mask at once.
//!
//! ## Reductions (each counted in [`WindowStats`], never silent)
//!
//! Applied in this order to every forced or forbidden pattern:
//!
//! 1. **Covered by order 1**: some focus alone is trivial (`v = 0` with a
//!    closed neighbour, `v = #closed > 0`, or `v > #closed`). Once order-1
//!    rules fire the position changes, so higher orders are only needed
//!    where every focus is non-trivial; then whatever a kept rule concludes
//!    is new (no focus concludes anything alone).
//! 2. **Covered by order 2** (order 3 only): some pair of the foci alone
//!    concludes something.
//! 3. **Covered by its open variant**: the pattern has walls. A wall is never
//!    unknown, exactly like an open cell, so the conclusion is that of the
//!    same pattern with its walls `Open` (always, by construction: walls and
//!    open cells are both simply not variables), and the runtime matcher
//!    matches an `Open` cell on anything that is not unknown, off-field
//!    cells included. No wall pattern is ever stored.
//! 4. **Symmetric images**: only the canonical member of each orbit under the
//!    8 symmetries ([`Rule::canonical`]) is stored; this also covers the
//!    order of the foci.
//!
//! ## Counts
//!
//! Every pattern of the space is classified; [`WindowStats`] counts per
//! order and window the patterns enumerated, forced, forbidden, covered (by
//! which reduction) and kept, before (`kept_raw`) and after the symmetry
//! reduction (`kept`). Orders 1 and 2 are walked in every orientation, so
//! their counts are counts of distinct patterns and `kept_raw` is the sum of
//! the kept rules' orbit sizes; order 3 is walked one shape per symmetry
//! class (22 classes of the 132 connected triples), so its counts are per
//! representative shape (the tests check both walks give the same rules).
//! The counts come from the region tables (`Π C(|R|, n_R)` masks per
//! closed-count vector) and are cross-checked against the walk over every
//! closed mask of each wall-free geometry.
//!
//! Full run (`sapper synth --order 3`): order 1 — 3 897 patterns, 304
//! rules; order 2 — 20 573 838 patterns, 8 655 rules; order 3 — 8.46·10⁹
//! patterns (representatives), 781 866 rules (1 606 of them forbidden).
//!
//! ## Modules
//!
//! - [`space`]: shapes (foci sets), wall sets, geometries;
//! - [`regions`]: the exact classification by closed counts per region;
//! - [`compact`]: an allocation-free copy of [`Rule`] with the same order and
//!   symmetries, for fast canonicalization.
//!
//! ## Use
//!
//! [`synthesize`] runs the orders listed in [`Options`] (optionally within a
//! time budget, stopping cleanly between geometries and reporting its
//! [`Coverage`]); [`build_rulebase`] merges the result into an optional base
//! rulebase (growth: `--from`). Output is deterministic whatever the number
//! of rayon threads.

pub mod compact;
mod driver;
pub mod regions;
pub mod space;

pub use driver::Orientations;
use sapper_engine::rules::{GeneratorSettings, Rule, Rulebase};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// `sapper-synth <version>`, recorded in [`GeneratorSettings::generator`].
pub fn generator_name() -> String {
    format!("sapper-synth {}", env!("CARGO_PKG_VERSION"))
}

/// The smallest window holding every pattern of `order` (3, 5, 6).
pub fn full_window(order: u8) -> u8 {
    match order {
        0 | 1 => 3,
        2 => 5,
        _ => 6,
    }
}

/// What to synthesize.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Orders to synthesize (each of 1, 2, 3), in increasing order.
    pub orders: Vec<u8>,
    /// Largest window `k` (3..=6): shapes whose pattern does not fit `k × k`
    /// are left out (and the notes say so).
    pub max_window: u8,
    /// Stop (between geometries) once this much time has passed since the
    /// start; what was covered is reported in [`Synthesis::coverage`].
    pub budget: Option<Duration>,
}

impl Options {
    /// Orders `1..=max_order`, full windows, no budget.
    pub fn up_to(max_order: u8) -> Options {
        Options {
            orders: (1..=max_order).collect(),
            max_window: full_window(max_order),
            budget: None,
        }
    }
}

/// Progress reports, for a progress bar. Units are closed masks walked (a
/// wall geometry, counted arithmetically, weighs 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressEvent {
    /// An order starts with this much work.
    Stage { order: u8, total: u64 },
    /// Work done.
    Advance(u64),
}

/// Counts for one order and window. Every pattern of the space is counted in
/// `enumerated`; the forced and forbidden ones are then either covered (by
/// the first reduction that applies) or kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WindowStats {
    pub order: u8,
    pub window: u8,
    /// Geometries (shape × wall set) walked.
    pub geometries: u64,
    /// Patterns: geometries × closed masks × value tuples.
    pub enumerated: u64,
    /// Patterns forcing at least one closed cell.
    pub forced: u64,
    /// Patterns no layout satisfies.
    pub forbidden: u64,
    /// Forced/forbidden with a trivial focus (orders 2, 3).
    pub covered_by_order1: u64,
    /// Forced/forbidden with no trivial focus but a concluding pair
    /// (order 3).
    pub covered_by_order2: u64,
    /// Forced/forbidden wall patterns not covered above.
    pub covered_by_open_variant: u64,
    /// What remains, before the symmetry reduction.
    pub kept_raw: u64,
    /// Canonical rules stored (distinct up to symmetry).
    pub kept: u64,
    /// Of `kept`, the forbidden combinations.
    pub kept_forbidden: u64,
}

/// How much of an order's space was walked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    pub order: u8,
    pub max_window: u8,
    pub shapes_total: usize,
    pub shapes_done: usize,
    pub geometries_total: usize,
    pub geometries_done: usize,
    /// Shapes are one per symmetry class (else every orientation).
    pub representatives: bool,
}

impl Coverage {
    pub fn complete(&self) -> bool {
        self.geometries_done == self.geometries_total
    }
}

/// The result of [`synthesize`].
#[derive(Clone, Debug)]
pub struct Synthesis {
    /// Canonical, distinct, sorted.
    pub rules: Vec<Rule>,
    /// Per order and window, sorted.
    pub stats: Vec<WindowStats>,
    pub coverage: Vec<Coverage>,
    /// One line per order: the space walked and what it yielded.
    pub notes: Vec<String>,
    pub elapsed: Duration,
}

impl Synthesis {
    /// Whether every requested order was walked completely.
    pub fn complete(&self) -> bool {
        self.coverage.iter().all(Coverage::complete)
    }
}

/// How each order's shapes are enumerated: orders 1 and 2 in every
/// orientation (cheap, and every count is then a count of distinct
/// patterns), order 3 one shape per symmetry class.
pub fn orientations_for(order: u8) -> Orientations {
    if order <= 2 {
        Orientations::All
    } else {
        Orientations::Representatives
    }
}

/// Synthesizes the orders of `options`.
pub fn synthesize(options: &Options, progress: &(dyn Fn(ProgressEvent) + Sync)) -> Synthesis {
    synthesize_with(options, orientations_for, progress)
}

/// [`synthesize`] with the enumeration mode chosen per order (tests compare
/// both modes).
pub fn synthesize_with(
    options: &Options,
    orientations: impl Fn(u8) -> Orientations,
    progress: &(dyn Fn(ProgressEvent) + Sync),
) -> Synthesis {
    let start = Instant::now();
    let deadline = options.budget.map(|b| start + b);
    let mut rules = Vec::new();
    let mut stats = Vec::new();
    let mut coverage = Vec::new();
    let mut notes = Vec::new();
    for &order in &options.orders {
        assert!((1..=3).contains(&order), "order {order} is not 1, 2 or 3");
        let out = driver::synthesize_order(
            order,
            options.max_window,
            orientations(order),
            deadline,
            progress,
        );
        notes.push(describe(&out.coverage, &out.stats));
        rules.extend(out.rules.iter().map(|r| r.to_rule()));
        stats.extend(out.stats);
        coverage.push(out.coverage);
    }
    rules.sort_unstable();
    rules.dedup();
    Synthesis {
        rules,
        stats,
        coverage,
        notes,
        elapsed: start.elapsed(),
    }
}

/// The note recorded for one order.
fn describe(c: &Coverage, stats: &[WindowStats]) -> String {
    let space = match c.order {
        1 => "one focus (3x3)".to_string(),
        2 => "two foci at Chebyshev distance 1-2 (all unordered offsets)".to_string(),
        _ => "connected triples of foci (neighbourhoods linked by shared cells), foci span <= 4x4"
            .to_string(),
    };
    let kept: u64 = stats.iter().map(|s| s.kept).sum();
    let raw: u64 = stats.iter().map(|s| s.kept_raw).sum();
    let windows: Vec<String> = stats.iter().map(|s| s.window.to_string()).collect();
    let reductions = match c.order {
        1 => "walls -> open variant",
        2 => "trivial focus -> order 1, walls -> open variant",
        _ => "trivial focus -> order 1, concluding pair -> order 2, walls -> open variant",
    };
    let mut note = format!(
        "order {}: {space}, windows {} (max {}), shapes: {}{}, 16 wall sets each, every closed/open choice \
         of the free cells, values 0..=8; reductions: {reductions}, symmetric images -> canonical; \
         {kept} canonical rules ({raw} before symmetry)",
        c.order,
        if windows.is_empty() { "none".to_string() } else { windows.join(",") },
        c.max_window,
        c.shapes_total,
        if c.representatives { " (one per symmetry class)" } else { " (all orientations)" },
    );
    if !c.complete() {
        let _ = write!(
            note,
            "; PARTIAL (time budget): {} of {} geometries, {} of {} shapes complete",
            c.geometries_done, c.geometries_total, c.shapes_done, c.shapes_total
        );
    }
    note
}

/// Builds the rulebase: `base`'s rules (if any) plus the synthesized ones,
/// canonical, distinct and sorted; the notes of `base` are kept and one note
/// per order of this run appended, with the number of rules it added.
pub fn build_rulebase(
    base: Option<&Rulebase>,
    synthesis: &Synthesis,
    options: &Options,
) -> Rulebase {
    let mut rules: Vec<Rule> = base
        .map(|b| b.rules.iter().map(Rule::canonical).collect())
        .unwrap_or_default();
    rules.sort_unstable();
    rules.dedup();
    let before = rules.len();
    rules.extend(synthesis.rules.iter().cloned());
    rules.sort_unstable();
    rules.dedup();
    let added = rules.len() - before;
    let mut notes = base.map(|b| b.settings.notes.clone()).unwrap_or_default();
    notes.extend(synthesis.notes.iter().cloned());
    if base.is_some() {
        notes.push(format!(
            "{} run (orders {:?}): added {added} rules to a base of {before}",
            generator_name(),
            options.orders
        ));
    }
    let max_order = options.orders.iter().copied().max().unwrap_or(0);
    Rulebase {
        settings: GeneratorSettings {
            max_order: base.map_or(max_order, |b| b.settings.max_order.max(max_order)),
            max_window: base.map_or(options.max_window, |b| {
                b.settings.max_window.max(options.max_window)
            }),
            generator: generator_name(),
            notes,
        },
        rules,
    }
}

/// The counts as a text table (one row per order and window, plus totals).
pub fn stats_table(stats: &[WindowStats]) -> String {
    let header = [
        "order",
        "window",
        "enumerated",
        "forced",
        "forbidden",
        "cov:order1",
        "cov:order2",
        "cov:walls",
        "raw kept",
        "kept",
        "(forbidden)",
    ];
    let row = |s: &WindowStats| -> Vec<String> {
        vec![
            s.order.to_string(),
            s.window.to_string(),
            s.enumerated.to_string(),
            s.forced.to_string(),
            s.forbidden.to_string(),
            s.covered_by_order1.to_string(),
            s.covered_by_order2.to_string(),
            s.covered_by_open_variant.to_string(),
            s.kept_raw.to_string(),
            s.kept.to_string(),
            s.kept_forbidden.to_string(),
        ]
    };
    let mut rows: Vec<Vec<String>> = stats.iter().map(row).collect();
    let mut total = WindowStats::default();
    for s in stats {
        total.enumerated += s.enumerated;
        total.forced += s.forced;
        total.forbidden += s.forbidden;
        total.covered_by_order1 += s.covered_by_order1;
        total.covered_by_order2 += s.covered_by_order2;
        total.covered_by_open_variant += s.covered_by_open_variant;
        total.kept_raw += s.kept_raw;
        total.kept += s.kept;
        total.kept_forbidden += s.kept_forbidden;
    }
    let mut last = row(&total);
    last[0] = "total".into();
    last[1] = String::new();
    rows.push(last);
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].len())
                .chain([header[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        let parts: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:>w$}"))
            .collect();
        out.push_str(parts.join("  ").trim_end());
        out.push('\n');
    };
    line(header.to_vec(), &mut out);
    for r in &rows {
        line(r.iter().map(String::as_str).collect(), &mut out);
    }
    out
}
