//! A small exhaustive rule generator, independent of `sapper-synth` and of
//! the engine's verifier: the test data of `rulebase_format`, and the
//! contents of the committed fixture `tests/fixtures/v1-small.rules`.
//!
//! Also compiled into the two tools beside the tests (the root package's
//! examples `regenerate_v1_fixture`, which writes the fixture, and
//! `bytes_per_rule`, which measures the format on a larger set), so the
//! fixture is exactly what the tests expect.

use sapper_engine::rules::{GeneratorSettings, Pattern, PatternCell, Rule, RuleKind, Rulebase};
use std::collections::HashMap;
use PatternCell::*;

/// The committed version-1 fixture.
pub const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v1-small.rules");

/// Every minimal rule whose foci sit at `foci` in an `h × w` window: each
/// neighbour of a focus is `Closed` or `Open` (or `Wall`, for each of the 16
/// ways the window can overhang the field's edges), each focus value is
/// 0..=8. A conclusion is kept when it follows from all the foci together
/// but from no proper subset of them (so the rule's order is `foci.len()`);
/// a contradiction likewise. Conclusions are proven by enumerating every
/// layout of the closed cells. Rules are returned canonical, sorted and
/// distinct.
pub fn exhaustive_rules(h: usize, w: usize, foci: &[(usize, usize)]) -> Vec<Rule> {
    let m = foci.len();
    assert!((1..=3).contains(&m));
    let neighbours = |(r, c): (usize, usize)| {
        let mut v = Vec::new();
        for dr in -1isize..=1 {
            for dc in -1isize..=1 {
                if (dr, dc) != (0, 0) {
                    let (r2, c2) = (r as isize + dr, c as isize + dc);
                    assert!(r2 >= 0 && c2 >= 0 && (r2 as usize) < h && (c2 as usize) < w);
                    v.push(r2 as usize * w + c2 as usize);
                }
            }
        }
        v
    };
    let focus_cells: Vec<usize> = foci.iter().map(|&(r, c)| r * w + c).collect();
    let mut relevant = vec![false; h * w];
    for &f in foci {
        for n in neighbours(f) {
            relevant[n] = true;
        }
    }
    let mut rules = Vec::new();
    for sides in 0..16u32 {
        let is_wall = |i: usize| {
            let (r, c) = (i / w, i % w);
            (sides & 1 != 0 && r == 0)
                || (sides & 2 != 0 && r == h - 1)
                || (sides & 4 != 0 && c == 0)
                || (sides & 8 != 0 && c == w - 1)
        };
        if focus_cells.iter().any(|&f| is_wall(f)) {
            continue;
        }
        let free: Vec<usize> = (0..h * w)
            .filter(|&i| relevant[i] && !is_wall(i) && !focus_cells.contains(&i))
            .collect();
        for closed_set in 0u32..1 << free.len() {
            let closed: Vec<usize> = (0..free.len())
                .filter(|&b| closed_set >> b & 1 == 1)
                .map(|b| free[b])
                .collect();
            let k = closed.len();
            let full = if k == 32 { u32::MAX } else { (1u32 << k) - 1 };
            let focus_masks: Vec<u32> = foci
                .iter()
                .map(|&f| {
                    let ns = neighbours(f);
                    (0..k)
                        .filter(|&j| ns.contains(&closed[j]))
                        .fold(0, |a, j| a | 1 << j)
                })
                .collect();
            // For each subset S of the foci (bit mask), the layouts grouped
            // by the sums of the foci in S: (AND, OR) of the layouts.
            let mut by_subset: Vec<HashMap<[u8; 3], (u32, u32)>> = vec![HashMap::new(); 1 << m];
            for layout in 0..=full {
                let sums: Vec<u8> = focus_masks
                    .iter()
                    .map(|&fm| (layout & fm).count_ones() as u8)
                    .collect();
                for (s, map) in by_subset.iter_mut().enumerate() {
                    let mut key = [u8::MAX; 3];
                    for i in 0..m {
                        if s >> i & 1 == 1 {
                            key[i] = sums[i];
                        }
                    }
                    let e = map.entry(key).or_insert((full, 0));
                    e.0 &= layout;
                    e.1 |= layout;
                }
            }
            let forced_bits = |s: usize, values: &[u8]| {
                let mut key = [u8::MAX; 3];
                for i in 0..m {
                    if s >> i & 1 == 1 {
                        key[i] = values[i];
                    }
                }
                by_subset[s].get(&key).map(|&(and, or)| (and, !or & full))
            };
            for tuple in 0..9usize.pow(m as u32) {
                let values: Vec<u8> = (0..m)
                    .map(|i| (tuple / 9usize.pow(i as u32) % 9) as u8)
                    .collect();
                let all = (1 << m) - 1;
                let proper_ok = (1..all).all(|s| forced_bits(s, &values).is_some());
                let kind;
                let (mut mines, mut safes) = (0u32, 0u32);
                match forced_bits(all, &values) {
                    None if proper_ok => kind = RuleKind::Forbidden,
                    None => continue,
                    Some((and, not_or)) => {
                        // Forced by all foci, minus what a proper subset
                        // already forces.
                        mines = and;
                        safes = not_or;
                        for s in 1..all {
                            let (a, n) = forced_bits(s, &values).expect("superset is feasible");
                            mines &= !a;
                            safes &= !n;
                        }
                        if mines | safes == 0 {
                            continue;
                        }
                        kind = RuleKind::Forced;
                    }
                }
                let mut cells = vec![Any; h * w];
                for i in 0..h * w {
                    if relevant[i] {
                        cells[i] = if is_wall(i) { Wall } else { Open };
                    }
                }
                for &c in &closed {
                    cells[c] = Closed;
                }
                for (f, &v) in focus_cells.iter().zip(&values) {
                    cells[*f] = Number(v);
                }
                let (mut safe, mut mine) = (0u64, 0u64);
                for (j, &c) in closed.iter().enumerate() {
                    safe |= ((safes >> j & 1) as u64) << c;
                    mine |= ((mines >> j & 1) as u64) << c;
                }
                let rule = Rule {
                    pattern: Pattern::new(h as u8, w as u8, cells),
                    kind,
                    safe,
                    mine,
                };
                rules.push(rule.canonical());
            }
        }
    }
    rules.sort_unstable();
    rules.dedup();
    rules
}

pub fn settings(generator: &str, max_order: u8, max_window: u8) -> GeneratorSettings {
    GeneratorSettings {
        max_order,
        max_window,
        generator: generator.to_string(),
        notes: vec![format!("test data: {generator}")],
    }
}

/// The fixture's contents: every order-1 rule (3×3) and every order-2 rule
/// of two horizontally adjacent foci (3×4).
pub fn small_rulebase() -> Rulebase {
    let mut rules = exhaustive_rules(3, 3, &[(1, 1)]);
    rules.extend(exhaustive_rules(3, 4, &[(1, 1), (1, 2)]));
    let mut settings = settings("rulebase_format test generator", 2, 4);
    settings.notes = vec![
        "order 1: 3x3, every Closed/Open/Wall neighbourhood".to_string(),
        "order 2: 3x4, two horizontally adjacent foci".to_string(),
    ];
    Rulebase { settings, rules }
        .normalized()
        .expect("generator makes well-formed rules")
}
