//! The committed default rulebase, `rules/default.rules` (orders 1–2),
//! checked from the outside:
//!
//! 1. it is exactly what `sapper synth --order 2` produces today (any thread
//!    count);
//! 2. every rule, placed literally in all 8 orientations wherever it matches
//!    on random real fields, agrees with the ground truth, and no forbidden
//!    rule matches a consistent board;
//! 3. the solver's rule index as the binary loads it (`RuleTiers` from the
//!    embedded index) proves exactly what that literal matcher proves (on
//!    consistent and on broken boards);
//! 4. every rule exported by `sapper rules export --json` is re-proven by an
//!    enumerator written here (independent of the synthesizer and of
//!    `engine/src/rules/verify.rs`), exact and minimal;
//! 5. no two stored rules are symmetric images, and the counts agree with
//!    `sapper rules info --json`.
//!
//! The literal matcher ([`Images`]) reads the matching semantics of the
//! matcher's module doc cell by cell: `Any` anything; `Wall` outside the
//! field; `Open` anything not unknown, outside included; `Closed` inside and
//! unknown; `Number(v)` inside, revealed, effective value `v` (number minus
//! flagged neighbours).

use crate::util::truth_boards::{build, draw, perturb, Recipe};
use crate::util::{default_rulebase, default_tiers, sapper, REGENERATE};
use proptest::prelude::*;
use sapper_engine::rules::{PatternCell, Rule, RuleKind, Rulebase};
use sapper_engine::{Board, Cell, Forced, Value};
use sapper_synth::{build_rulebase, full_window, synthesize, Options};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::ops::Range;
use std::sync::OnceLock;

mod exported;

/// The committed file, as the binary embeds it.
const DEFAULT_BYTES: &[u8] = sapper_engine::rules::DEFAULT_RULEBASE;
/// Its path, for the CLI.
const DEFAULT_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/default.rules");

fn default_images() -> &'static Images {
    static I: OnceLock<Images> = OnceLock::new();
    I.get_or_init(|| Images::new(&default_rulebase().rules))
}

// ---------------------------------------------------------------------------
// 1. Regeneration
// ---------------------------------------------------------------------------

/// The bytes `sapper synth --order 2 -o FILE` writes: no `--from`, no
/// `--max-window` (so the full window of order 2), no budget; orders
/// `1..=2`, `build_rulebase` without a base, `try_to_bytes` (src/cmd/synth.rs).
fn regenerate() -> Vec<u8> {
    let order = 2u8;
    let options = Options {
        orders: (1..=order).collect(),
        max_window: full_window(order),
        budget: None,
    };
    let synthesis = synthesize(&options, &|_| {});
    assert!(
        synthesis.complete(),
        "synthesis without a budget is complete"
    );
    build_rulebase(None, &synthesis, &options)
        .try_to_bytes()
        .expect("synthesized rules are well formed")
}

/// Panics, saying how to regenerate, unless `fresh` is the committed file.
fn assert_is_committed_file(fresh: &[u8], how: &str) {
    if fresh == DEFAULT_BYTES {
        return;
    }
    let first_difference = fresh
        .iter()
        .zip(DEFAULT_BYTES)
        .position(|(a, b)| a != b)
        .unwrap_or(fresh.len().min(DEFAULT_BYTES.len()));
    let describe = |bytes: &[u8]| match Rulebase::from_bytes(bytes) {
        Ok(rb) => format!("{} rules, settings {:?}", rb.rules.len(), rb.settings),
        Err(e) => format!("unreadable: {e}"),
    };
    panic!(
        "rules/default.rules is stale: synthesizing orders 1-2 {how} gives {} bytes, the \
         committed file has {} (first difference at byte {first_difference}).\n  \
         synthesized: {}\n  committed:   {}\nRegenerate it with the documented command: {REGENERATE}",
        fresh.len(),
        DEFAULT_BYTES.len(),
        describe(fresh),
        describe(DEFAULT_BYTES),
    );
}

#[test]
fn regeneration_is_byte_identical() {
    assert_is_committed_file(&regenerate(), "on the default rayon pool");
}

#[test]
fn regeneration_on_one_thread_is_byte_identical() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let bytes = pool.install(regenerate);
    assert_is_committed_file(&bytes, "on a one-thread rayon pool");
}

// ---------------------------------------------------------------------------
// The literal matcher
// ---------------------------------------------------------------------------

/// `(r, c)` of cell `(r, c)` of an `h × w` pattern under symmetry `sym`:
/// bit 2 transposes, then bit 1 flips the rows, bit 0 the columns. Returns
/// the new position and the new shape. (All 8 combinations are the 8
/// symmetries of the square.)
fn orient(h: usize, w: usize, sym: usize, r: usize, c: usize) -> ((usize, usize), (usize, usize)) {
    let (mut r, mut c, h2, w2) = if sym & 4 != 0 {
        (c, r, w, h)
    } else {
        (r, c, h, w)
    };
    if sym & 2 != 0 {
        r = h2 - 1 - r;
    }
    if sym & 1 != 0 {
        c = w2 - 1 - c;
    }
    ((r, c), (h2, w2))
}

/// One orientation of one rule, as the literal matcher places it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Image {
    h: usize,
    w: usize,
    cells: Vec<PatternCell>,
    /// `(row, col, value)` of each concluded cell.
    conclusions: Vec<(usize, usize, Value)>,
    forbidden: bool,
    order: u8,
    /// The first focus in row-major order: a placement is named by the board
    /// cell under it.
    anchor: (usize, usize),
}

impl Image {
    fn of(rule: &Rule, sym: usize) -> Image {
        let (h, w) = (rule.pattern.h as usize, rule.pattern.w as usize);
        let (_, (h2, w2)) = orient(h, w, sym, 0, 0);
        let mut cells = vec![PatternCell::Any; h * w];
        let mut conclusions = Vec::new();
        for r in 0..h {
            for c in 0..w {
                let ((r2, c2), _) = orient(h, w, sym, r, c);
                cells[r2 * w2 + c2] = rule.pattern.cells[r * w + c];
                let bit = 1u64 << (r * w + c);
                if rule.safe & bit != 0 {
                    conclusions.push((r2, c2, Value::Safe));
                }
                if rule.mine & bit != 0 {
                    conclusions.push((r2, c2, Value::Mine));
                }
            }
        }
        conclusions.sort_unstable();
        let anchor = cells
            .iter()
            .position(|c| matches!(c, PatternCell::Number(_)))
            .map(|i| (i / w2, i % w2))
            .expect("a rule has a focus");
        Image {
            h: h2,
            w: w2,
            cells,
            conclusions,
            forbidden: rule.kind == RuleKind::Forbidden,
            order: rule.order(),
            anchor,
        }
    }

    fn get(&self, r: usize, c: usize) -> PatternCell {
        self.cells[r * self.w + c]
    }

    /// `(value, closed neighbours)` of the anchor, when all 8 of its
    /// neighbours are pattern cells other than `Any`: then a board number
    /// under the anchor must have that effective value and exactly that many
    /// unknown neighbours (each neighbour matches `Unknown` iff it is
    /// `Closed`). `None`: no such shortcut, always tried.
    fn anchor_key(&self) -> Option<(i32, u8)> {
        let PatternCell::Number(v) = self.get(self.anchor.0, self.anchor.1) else {
            unreachable!("the anchor is a focus")
        };
        let mut closed = 0u8;
        for dr in -1isize..=1 {
            for dc in -1isize..=1 {
                if (dr, dc) == (0, 0) {
                    continue;
                }
                let r = self.anchor.0 as isize + dr;
                let c = self.anchor.1 as isize + dc;
                if r < 0 || c < 0 || r >= self.h as isize || c >= self.w as isize {
                    return None;
                }
                match self.get(r as usize, c as usize) {
                    PatternCell::Any => return None,
                    PatternCell::Closed => closed += 1,
                    _ => {}
                }
            }
        }
        Some((v as i32, closed))
    }
}

/// A board read once for the literal matcher.
struct View<'b> {
    board: &'b Board,
    /// Effective value of each revealed number (number minus flagged
    /// neighbours), `None` elsewhere.
    effective: Vec<Option<i32>>,
    /// Unknown neighbours of each cell.
    unknown_around: Vec<u8>,
}

impl<'b> View<'b> {
    fn new(board: &'b Board) -> View<'b> {
        let grid = board.grid();
        let n = grid.len() as u32;
        let effective = (0..n)
            .map(|i| match board.cell(i) {
                Cell::Revealed(v) => {
                    let flags = grid
                        .neighbours(i)
                        .iter()
                        .filter(|&&nb| board.cell(nb) == Cell::Mine)
                        .count() as i32;
                    Some(v as i32 - flags)
                }
                _ => None,
            })
            .collect();
        let unknown_around = (0..n)
            .map(|i| {
                grid.neighbours(i)
                    .iter()
                    .filter(|&&nb| board.cell(nb) == Cell::Unknown)
                    .count() as u8
            })
            .collect();
        View {
            board,
            effective,
            unknown_around,
        }
    }

    /// The literal semantics of one pattern cell over board `(r, c)` (which
    /// may be outside the field).
    fn cell_matches(&self, p: PatternCell, r: isize, c: isize) -> bool {
        let grid = self.board.grid();
        let inside = r >= 0 && c >= 0 && r < grid.h as isize && c < grid.w as isize;
        let index = || grid.index(r as usize, c as usize);
        match p {
            PatternCell::Any => true,
            PatternCell::Wall => !inside,
            PatternCell::Open => !inside || self.board.cell(index()) != Cell::Unknown,
            PatternCell::Closed => inside && self.board.cell(index()) == Cell::Unknown,
            PatternCell::Number(v) => inside && self.effective[index() as usize] == Some(v as i32),
        }
    }
}

/// Every orientation of every rule, bucketed by anchor key: the images of
/// a bucket side by side, and their cells to check in one array in the
/// same order (the matcher reads every image of a bucket at every number,
/// so it reads them in the order they lie in memory).
struct Images {
    images: Vec<Image>,
    /// Index of the rule each image comes from.
    rule_of: Vec<usize>,
    by_anchor: HashMap<(i32, u8), Range<usize>>,
    /// Images without an anchor key: tried at every revealed number.
    unkeyed: Range<usize>,
    /// Each image's cells other than `Any` as `(row, col, cell)`, the
    /// numbers first (the order of the checks does not change what
    /// matches; mismatches end sooner): `checks[spans[k]]` for image `k`.
    checks: Vec<(u8, u8, PatternCell)>,
    spans: Vec<Range<usize>>,
}

/// What the literal matcher found on one board.
#[derive(Default, Debug)]
struct NaiveMatches {
    /// `(proven cell, order, rule index)` for every matching forced image.
    proofs: Vec<(Forced, u8, usize)>,
    /// `(rule index, order, anchor cell)` for every matching forbidden image.
    forbidden: Vec<(usize, u8, u32)>,
}

impl Images {
    fn new(rules: &[Rule]) -> Images {
        let mut images = Vec::new();
        let mut rule_of = Vec::new();
        for (ri, rule) in rules.iter().enumerate() {
            let mut mine: Vec<Image> = Vec::new();
            for sym in 0..8 {
                let image = Image::of(rule, sym);
                if !mine.contains(&image) {
                    mine.push(image);
                }
            }
            rule_of.extend(std::iter::repeat_n(ri, mine.len()));
            images.extend(mine);
        }
        // Keyed buckets first, the unkeyed images last.
        let mut order: Vec<(Option<(i32, u8)>, usize)> = images
            .iter()
            .enumerate()
            .map(|(k, image)| (image.anchor_key(), k))
            .collect();
        order.sort_by_key(|&(key, k)| (key.is_none(), key, k));
        let rule_of: Vec<usize> = order.iter().map(|&(_, k)| rule_of[k]).collect();
        let mut slots: Vec<Option<Image>> = images.into_iter().map(Some).collect();
        let images: Vec<Image> = order
            .iter()
            .map(|&(_, k)| slots[k].take().unwrap())
            .collect();
        let mut by_anchor: HashMap<(i32, u8), Range<usize>> = HashMap::new();
        let mut unkeyed = images.len()..images.len();
        for (k, &(key, _)) in order.iter().enumerate() {
            match key {
                Some(key) => by_anchor.entry(key).or_insert(k..k).end = k + 1,
                None => unkeyed.start = unkeyed.start.min(k),
            }
        }
        let mut checks = Vec::new();
        let mut spans = Vec::new();
        for image in &images {
            let start = checks.len();
            checks.extend(
                (0..image.h * image.w)
                    .filter(|&i| image.cells[i] != PatternCell::Any)
                    .map(|i| ((i / image.w) as u8, (i % image.w) as u8, image.cells[i])),
            );
            checks[start..].sort_by_key(|&(_, _, cell)| !matches!(cell, PatternCell::Number(_)));
            spans.push(start..checks.len());
        }
        Images {
            images,
            rule_of,
            by_anchor,
            unkeyed,
            checks,
            spans,
        }
    }

    /// Every placement of every image whose anchor sits on a revealed
    /// number (an anchor is a focus, so no other placement can match),
    /// checked cell by cell.
    fn matches(&self, board: &Board) -> NaiveMatches {
        let view = View::new(board);
        let grid = board.grid();
        let mut out = NaiveMatches::default();
        for a in 0..grid.len() as u32 {
            let Some(v) = view.effective[a as usize] else {
                continue;
            };
            let key = (v, view.unknown_around[a as usize]);
            let keyed = self.by_anchor.get(&key).cloned().unwrap_or(0..0);
            let (ar, ac) = grid.rc(a);
            for k in keyed.chain(self.unkeyed.clone()) {
                let image = &self.images[k];
                let top = ar as isize - image.anchor.0 as isize;
                let left = ac as isize - image.anchor.1 as isize;
                let all = self.checks[self.spans[k].clone()]
                    .iter()
                    .all(|&(r, c, cell)| {
                        view.cell_matches(cell, top + r as isize, left + c as isize)
                    });
                if !all {
                    continue;
                }
                let rule = self.rule_of[k];
                if image.forbidden {
                    out.forbidden.push((rule, image.order, a));
                }
                for &(r, c, value) in &image.conclusions {
                    // A concluded cell is `Closed`, so it matched a cell
                    // inside the field.
                    let cell =
                        grid.index((top + r as isize) as usize, (left + c as isize) as usize);
                    out.proofs.push((Forced { cell, value }, image.order, rule));
                }
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------
// 2. and 3. Random fields
// ---------------------------------------------------------------------------

/// Fields from 5×5 to 30×16 (either way round), 10–25 % mines, a game-like
/// opening plus extra reveals, some flags and known-safe marks.
fn field_recipes() -> impl Strategy<Value = Recipe> {
    (
        5usize..=16,
        5usize..=30,
        any::<u64>(),
        10u32..=25,
        0u32..=40,
        0u32..=70,
        0u32..=8,
        any::<bool>(),
    )
        .prop_map(
            |(a, b, seed, density, extra_reveal, flag, mark_safe, tall)| {
                let (h, w) = if tall { (b, a) } else { (a, b) };
                Recipe {
                    h,
                    w,
                    seed,
                    density,
                    extra_reveal,
                    flag,
                    mark_safe,
                }
            },
        )
}

fn rule_text(rules: &[Rule], index: usize) -> String {
    let rule = &rules[index];
    format!(
        "rule #{index} ({:?}, order {}):\n  {}",
        rule.kind,
        rule.order(),
        rule.rows().join("\n  ")
    )
}

/// Every literal match on a board made from `mines` agrees with the truth:
/// concluded cells have their true value, no forbidden rule matches.
fn check_sound(
    rules: &[Rule],
    images: &Images,
    board: &Board,
    mines: &[bool],
) -> Result<(), String> {
    let found = images.matches(board);
    if let Some(&(rule, _, anchor)) = found.forbidden.first() {
        return Err(format!(
            "forbidden {} matches a consistent board with its anchor at {:?}:\n{}",
            rule_text(rules, rule),
            board.grid().rc(anchor),
            draw(board)
        ));
    }
    for &(f, _, rule) in &found.proofs {
        let truth = if mines[f.cell as usize] {
            Value::Mine
        } else {
            Value::Safe
        };
        if f.value != truth {
            return Err(format!(
                "{} proves {:?} {} but it is {truth}:\n{}",
                rule_text(rules, rule),
                board.grid().rc(f.cell),
                f.value,
                draw(board)
            ));
        }
    }
    Ok(())
}

/// Each tier of the rule index against the literal matcher restricted to
/// the rules of that tier's order: the same proven `(cell, value)` set,
/// and a contradiction exactly when a forbidden rule of that order matches
/// or two of its rules prove one cell both ways.
fn check_index_equals_naive(board: &Board) -> Result<(), String> {
    let found = default_images().matches(board);
    let tiers = default_tiers();
    assert_eq!(
        tiers.tiers().len(),
        2,
        "the default rulebase has orders 1 and 2"
    );
    for (order, index) in tiers.tiers() {
        let naive: BTreeSet<Forced> = found
            .proofs
            .iter()
            .filter(|p| p.1 == *order)
            .map(|p| p.0)
            .collect();
        let both_ways = naive.iter().any(|f| {
            f.value == Value::Safe
                && naive.contains(&Forced {
                    cell: f.cell,
                    value: Value::Mine,
                })
        });
        let forbidden = found.forbidden.iter().any(|f| f.1 == *order);
        let mut out = Vec::new();
        match index.find(board, None, &mut out) {
            Err(_) if forbidden || both_ways => {}
            Err(c) => {
                return Err(format!(
                "order {order}: the index reports {c:?}, the literal matcher finds no forbidden \
                     match and no cell proven both ways:\n{}",
                draw(board)
            ))
            }
            Ok(()) if forbidden || both_ways => {
                return Err(format!(
                    "order {order}: the literal matcher finds a contradiction (forbidden matches \
                     {:?}, both ways {both_ways}), the index none:\n{}",
                    found.forbidden,
                    draw(board)
                ))
            }
            Ok(()) => {
                if let Some((f, o)) = out.iter().find(|(_, o)| o != order) {
                    return Err(format!("order {order} index credits {f:?} to order {o}"));
                }
                let indexed: BTreeSet<Forced> = out.iter().map(|(f, _)| *f).collect();
                if indexed.len() != out.len() {
                    return Err(format!("order {order}: a cell is listed twice: {out:?}"));
                }
                if indexed != naive {
                    let missing: Vec<_> = naive.difference(&indexed).collect();
                    let extra: Vec<_> = indexed.difference(&naive).collect();
                    return Err(format!(
                        "order {order}: index and literal matcher differ; only literal: \
                         {missing:?}, only index: {extra:?}\n{}",
                        draw(board)
                    ));
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::util::cases(192))]

    /// Every rule of the default rulebase is sound where it
    /// matches on real fields.
    #[test]
    fn every_matching_rule_agrees_with_the_truth(recipe in field_recipes()) {
        let tb = build(recipe);
        let rb = default_rulebase();
        if let Err(e) = check_sound(&rb.rules, default_images(), &tb.board, &tb.mines) {
            return Err(TestCaseError::fail(e));
        }
    }

    /// The solver's index proves exactly what the literal semantics prove,
    /// on consistent fields and on broken copies of them.
    #[test]
    fn index_proves_exactly_what_literal_matching_proves(
        recipe in field_recipes(),
        perturb_seed in any::<u64>(),
        changes in 0usize..6,
    ) {
        let tb = build(recipe);
        if let Err(e) = check_index_equals_naive(&tb.board) {
            return Err(TestCaseError::fail(e));
        }
        if changes > 0 {
            let broken = perturb(&tb.board, perturb_seed, changes);
            if let Err(e) = check_index_equals_naive(&broken) {
                return Err(TestCaseError::fail(format!("perturbed board: {e}")));
            }
        }
    }
}

/// The recipes of [`the_random_fields_exercise_every_kind_of_match`] and
/// [`a_flipped_conclusion_is_caught_on_real_fields`].
fn fixed_recipes() -> impl Iterator<Item = Recipe> {
    (0..40u64).map(|seed| Recipe {
        h: 5 + (seed as usize * 7) % 12,
        w: 5 + (seed as usize * 11) % 26,
        seed: seed.wrapping_mul(0x2545_F491_4F6C_DD1D),
        density: 10 + (seed as u32 * 3) % 16,
        extra_reveal: (seed as u32 * 13) % 41,
        flag: (seed as u32 * 17) % 71,
        mark_safe: (seed as u32) % 9,
    })
}

/// The property tests above are not vacuous: on such fields rules of both
/// orders prove both values, in every orientation, and forbidden rules of
/// both orders match broken boards.
#[test]
fn the_random_fields_exercise_every_kind_of_match() {
    let images = default_images();
    let mut proven: BTreeMap<(u8, Value), usize> = BTreeMap::new();
    let mut rules_firing: BTreeSet<usize> = BTreeSet::new();
    let mut forbidden_orders: BTreeSet<u8> = BTreeSet::new();
    for (k, recipe) in fixed_recipes().enumerate() {
        let tb = build(recipe);
        let found = images.matches(&tb.board);
        for &(f, order, rule) in &found.proofs {
            *proven.entry((order, f.value)).or_default() += 1;
            rules_firing.insert(rule);
        }
        for seed in 0..4 {
            let broken = perturb(&tb.board, k as u64 * 4 + seed, 3);
            forbidden_orders.extend(images.matches(&broken).forbidden.iter().map(|f| f.1));
        }
    }
    for order in [1, 2] {
        for value in [Value::Safe, Value::Mine] {
            assert!(
                proven.get(&(order, value)).copied().unwrap_or(0) > 0,
                "no order-{order} rule proved a {value} cell: {proven:?}"
            );
        }
        assert!(
            forbidden_orders.contains(&order),
            "no forbidden order-{order} match"
        );
    }
    assert!(
        rules_firing.len() >= 100,
        "only {} distinct rules fired on the fixed fields",
        rules_firing.len()
    );
}

/// Negative control: a copy of the rulebase with one order-2 conclusion
/// flipped is caught by the soundness check on the same fixed fields.
#[test]
fn a_flipped_conclusion_is_caught_on_real_fields() {
    let rb = default_rulebase();
    let images = default_images();
    // The forced order-2 rule that fires most often on the fixed fields.
    let mut firing: HashMap<usize, usize> = HashMap::new();
    let boards: Vec<_> = fixed_recipes().map(build).collect();
    for tb in &boards {
        for &(_, order, rule) in &images.matches(&tb.board).proofs {
            if order == 2 {
                *firing.entry(rule).or_default() += 1;
            }
        }
    }
    let (&victim, _) = firing
        .iter()
        .max_by_key(|&(rule, count)| (*count, std::cmp::Reverse(*rule)))
        .expect("order-2 rules fire");
    let mut rules = rb.rules.clone();
    let rule = &mut rules[victim];
    std::mem::swap(&mut rule.safe, &mut rule.mine);
    let flipped = Images::new(&rules);
    let caught = boards
        .iter()
        .filter(|tb| check_sound(&rules, &flipped, &tb.board, &tb.mines).is_err())
        .count();
    assert!(caught > 0, "flipping rule #{victim} went unnoticed");
    // And the real rulebase passes on the same boards.
    for tb in &boards {
        check_sound(&rb.rules, images, &tb.board, &tb.mines).unwrap_or_else(|e| panic!("{e}"));
    }
}
