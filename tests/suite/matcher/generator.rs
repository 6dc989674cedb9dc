//! A local generator of rules (patterns with a proven conclusion), for the matcher tests.

use super::*;

// ---------------------------------------------------------------------------
// Local rule generator
// ---------------------------------------------------------------------------

/// A pattern skeleton: the foci positions and the cells that are walls in an
/// `h × w` box; the other cells of the foci's neighbourhoods are free
/// (each Open or Closed), the rest `Any`.
pub(super) struct Skeleton {
    h: usize,
    w: usize,
    foci: Vec<(usize, usize)>,
    walls: Vec<(usize, usize)>,
}

impl Skeleton {
    fn in_union(&self, r: usize, c: usize) -> bool {
        self.foci
            .iter()
            .any(|&(fr, fc)| fr.abs_diff(r) <= 1 && fc.abs_diff(c) <= 1)
    }
}

/// Order-1 skeletons: a 3×3 around one focus, with every combination of
/// wall sides (top, bottom, left, right).
pub(super) fn order1_skeletons() -> Vec<Skeleton> {
    (0..16u8)
        .map(|sides| {
            let mut walls = Vec::new();
            for r in 0..3 {
                for c in 0..3 {
                    let wall = (sides & 1 != 0 && r == 0)
                        || (sides & 2 != 0 && r == 2)
                        || (sides & 4 != 0 && c == 0)
                        || (sides & 8 != 0 && c == 2);
                    if wall {
                        walls.push((r, c));
                    }
                }
            }
            Skeleton {
                h: 3,
                w: 3,
                foci: vec![(1, 1)],
                walls,
            }
        })
        .collect()
}

/// Order-2 skeletons: offsets (0,1), (0,2), (1,1); (0,1) also with a wall
/// along the top.
pub(super) fn order2_skeletons() -> Vec<Skeleton> {
    vec![
        Skeleton {
            h: 3,
            w: 4,
            foci: vec![(1, 1), (1, 2)],
            walls: vec![],
        },
        Skeleton {
            h: 3,
            w: 4,
            foci: vec![(1, 1), (1, 2)],
            walls: (0..4).map(|c| (0, c)).collect(),
        },
        Skeleton {
            h: 3,
            w: 5,
            foci: vec![(1, 1), (1, 3)],
            walls: vec![],
        },
        Skeleton {
            h: 4,
            w: 4,
            foci: vec![(1, 1), (2, 2)],
            walls: vec![],
        },
    ]
}

/// Order-3 skeletons: three in a row, and an L.
pub(super) fn order3_skeletons() -> Vec<Skeleton> {
    vec![
        Skeleton {
            h: 3,
            w: 5,
            foci: vec![(1, 1), (1, 2), (1, 3)],
            walls: vec![],
        },
        Skeleton {
            h: 4,
            w: 4,
            foci: vec![(1, 1), (1, 2), (2, 1)],
            walls: vec![],
        },
    ]
}

/// For one subset of foci (bit set): per projected value tuple, the mines
/// common to all its solutions, the cells a mine in some, and whether any.
pub(super) type Marginal = (u32, Vec<u32>, Vec<u32>, Vec<bool>);

/// Every minimal rule of a skeleton: for each choice of closed cells and
/// each tuple of focus values, the cells forced by all the foci and by no
/// proper subset of them (forced rule), or "no layout" when every proper
/// subset has one (forbidden rule). Forcedness by brute force over every
/// assignment of the closed cells.
pub(super) fn rules_of(sk: &Skeleton) -> Vec<Rule> {
    let k = sk.foci.len();
    let mut free = Vec::new();
    for r in 0..sk.h {
        for c in 0..sk.w {
            if sk.in_union(r, c) && !sk.foci.contains(&(r, c)) && !sk.walls.contains(&(r, c)) {
                free.push((r, c));
            }
        }
    }
    // Bit i of a free mask = free[i]. Neighbourhood of each focus over free.
    let around: Vec<u32> = sk
        .foci
        .iter()
        .map(|&(fr, fc)| {
            free.iter()
                .enumerate()
                .filter(|(_, &(r, c))| fr.abs_diff(r) <= 1 && fc.abs_diff(c) <= 1)
                .fold(0u32, |m, (i, _)| m | 1 << i)
        })
        .collect();
    let tuples = 9usize.pow(k as u32);
    let subsets: Vec<u32> = (1..(1u32 << k) - 1).collect(); // proper, non-empty
    let project = |t: usize, set: u32| -> usize {
        let mut idx = 0;
        let mut p = 1;
        let mut t = t;
        for f in 0..k {
            if set >> f & 1 == 1 {
                idx += (t % 9) * p;
            }
            t /= 9;
            p *= 9;
        }
        idx
    };
    let mut out = Vec::new();
    for closed in 0u32..1 << free.len() {
        let mut always = vec![u32::MAX; tuples];
        let mut ever = vec![0u32; tuples];
        let mut seen = vec![false; tuples];
        // Every assignment x ⊆ closed.
        let mut x = 0u32;
        loop {
            let mut t = 0;
            let mut p = 1;
            for a in &around {
                t += (x & a).count_ones() as usize * p;
                p *= 9;
            }
            always[t] &= x;
            ever[t] |= x;
            seen[t] = true;
            if x == closed {
                break;
            }
            x = (x.wrapping_sub(closed)) & closed;
        }
        // Marginals per proper subset of foci.
        let mut sub: Vec<Marginal> = subsets
            .iter()
            .map(|&s| {
                (
                    s,
                    vec![u32::MAX; tuples],
                    vec![0; tuples],
                    vec![false; tuples],
                )
            })
            .collect();
        for t in 0..tuples {
            if seen[t] {
                for (s, a, e, sn) in sub.iter_mut() {
                    let i = project(t, *s);
                    a[i] &= always[t];
                    e[i] |= ever[t];
                    sn[i] = true;
                }
            }
        }
        for t in 0..tuples {
            let values: Vec<u8> = (0..k)
                .map(|f| (t / 9usize.pow(f as u32) % 9) as u8)
                .collect();
            let (kind, safe, mine) = if seen[t] {
                let mut mine = always[t];
                let mut safe = closed & !ever[t];
                for (s, a, e, _) in &sub {
                    let i = project(t, *s);
                    mine &= !a[i];
                    safe &= !(closed & !e[i]);
                }
                if mine | safe == 0 {
                    continue;
                }
                (RuleKind::Forced, safe, mine)
            } else {
                if !sub.iter().all(|(s, _, _, sn)| sn[project(t, *s)]) {
                    continue;
                }
                (RuleKind::Forbidden, 0, 0)
            };
            let mut cells = vec![PatternCell::Any; sk.h * sk.w];
            let mut psafe = 0u64;
            let mut pmine = 0u64;
            for &(r, c) in &sk.walls {
                cells[r * sk.w + c] = PatternCell::Wall;
            }
            for (f, &(r, c)) in sk.foci.iter().enumerate() {
                cells[r * sk.w + c] = PatternCell::Number(values[f]);
            }
            for (i, &(r, c)) in free.iter().enumerate() {
                let bit = r * sk.w + c;
                cells[bit] = if closed >> i & 1 == 1 {
                    PatternCell::Closed
                } else {
                    PatternCell::Open
                };
                if safe >> i & 1 == 1 {
                    psafe |= 1 << bit;
                }
                if mine >> i & 1 == 1 {
                    pmine |= 1 << bit;
                }
            }
            out.push(Rule {
                pattern: Pattern::new(sk.h as u8, sk.w as u8, cells),
                kind,
                safe: psafe,
                mine: pmine,
            });
        }
    }
    out
}

pub(super) fn rulebase(skeletons: &[Skeleton]) -> Rulebase {
    let rules: BTreeSet<Rule> = skeletons
        .iter()
        .flat_map(rules_of)
        .map(|r| r.canonical())
        .collect();
    Rulebase {
        settings: GeneratorSettings {
            max_order: 3,
            max_window: 5,
            generator: "tests/suite/matcher.rs".into(),
            notes: vec![],
        },
        rules: rules.into_iter().collect(),
    }
}

/// Orders 1–3 over all the skeletons above.
pub(super) fn full_rulebase() -> &'static (Rulebase, RuleIndex, Vec<NaiveImage>) {
    static RB: OnceLock<(Rulebase, RuleIndex, Vec<NaiveImage>)> = OnceLock::new();
    RB.get_or_init(|| {
        let mut sk = order1_skeletons();
        sk.extend(order2_skeletons());
        sk.extend(order3_skeletons());
        let rb = rulebase(&sk);
        let index = RuleIndex::new(&rb);
        let images = naive_images(&rb);
        (rb, index, images)
    })
}

/// Only skeletons with walls: every proof needs the wall test to pass.
pub(super) fn wall_rulebase() -> &'static (Rulebase, RuleIndex, Vec<NaiveImage>) {
    static RB: OnceLock<(Rulebase, RuleIndex, Vec<NaiveImage>)> = OnceLock::new();
    RB.get_or_init(|| {
        let mut sk: Vec<Skeleton> = order1_skeletons()
            .into_iter()
            .filter(|s| !s.walls.is_empty())
            .collect();
        sk.extend(
            order2_skeletons()
                .into_iter()
                .filter(|s| !s.walls.is_empty()),
        );
        let rb = rulebase(&sk);
        let index = RuleIndex::new(&rb);
        let images = naive_images(&rb);
        (rb, index, images)
    })
}
