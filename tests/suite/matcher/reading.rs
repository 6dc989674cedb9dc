//! Ways of reading the numbers, and split indexes: the matcher finds the same cells.

use super::*;

// ---------------------------------------------------------------------------
// Ways of reading the numbers, and split indexes
// ---------------------------------------------------------------------------

/// The full rulebase as two indexes, order 1 and orders ≥ 2 (the solver may
/// try them in turn).
fn split_indexes() -> &'static (RuleIndex, RuleIndex) {
    static IX: OnceLock<(RuleIndex, RuleIndex)> = OnceLock::new();
    IX.get_or_init(|| {
        let (one, more): (Vec<Rule>, Vec<Rule>) = full_rulebase()
            .0
            .rules
            .iter()
            .cloned()
            .partition(|r| r.order() == 1);
        (RuleIndex::from_rules(&one), RuleIndex::from_rules(&more))
    })
}

proptest! {
    #![proptest_config(crate::util::cases(64))]

    /// Every way of reading the numbers gives the same `out`, element for
    /// element, on boards larger than the matcher's stack cache, for full
    /// scans and for dirty lists of any length (with a repeated number and
    /// indices off the board, which are ignored).
    #[test]
    fn every_reading_gives_the_same_result(
        s in scenarios(40), seed in any::<u64>(), share in 1u32..100,
    ) {
        let (_, index, _) = full_rulebase();
        let n = s.grid.len() as u32;
        let mut rng = Rng::new(seed);
        let mut dirty: Vec<u32> = (0..n).filter(|_| rng.chance(share)).collect();
        if let Some(&d) = dirty.first() {
            dirty.push(d);
        }
        dirty.extend([n, n + 7]);
        for list in [None, Some(&dirty[..])] {
            let mut expected = Vec::new();
            index.find_with(&s.board, list, FociReading::Table, &mut expected).unwrap();
            for reading in [FociReading::Auto, FociReading::Cached] {
                let mut got = Vec::new();
                index.find_with(&s.board, list, reading, &mut got).unwrap();
                prop_assert_eq!(&got, &expected, "{:?}, dirty: {}", reading, list.is_some());
            }
        }
    }

    /// An index of order-1 rules alone answers a dirty list from a flat
    /// table (`FociReading::Auto`): on arbitrary boards — inconsistent
    /// numbers, negative effective values, forbidden combinations included
    /// — it gives exactly what the generic scan gives, the same cells or the
    /// same contradiction. Also for order-1 rules with wall tests, which the
    /// table cannot hold (the generic scan then runs).
    #[test]
    fn flattened_order1_agrees_with_the_generic_scan(
        h in 1usize..12, w in 1usize..12, seed in any::<u64>(), share in 1u32..100,
    ) {
        let grid = Grid::new(h, w);
        let mut rng = Rng::new(seed);
        let cells: Vec<Cell> = (0..grid.len())
            .map(|_| {
                if rng.chance(45) {
                    Cell::Unknown
                } else if rng.chance(15) {
                    Cell::Mine
                } else if rng.chance(10) {
                    Cell::Safe
                } else {
                    Cell::Revealed((rng.next() % 9) as u8)
                }
            })
            .collect();
        let board = Board::new(grid, cells, None);
        let mut dirty: Vec<u32> = (0..grid.len() as u32).filter(|_| rng.chance(share)).collect();
        dirty.push(grid.len() as u32 + 3);
        let order1_of = |rb: &Rulebase| -> RuleIndex {
            let rules: Vec<Rule> = rb.rules.iter().filter(|r| r.order() == 1).cloned().collect();
            RuleIndex::from_rules(&rules)
        };
        // The default rulebase's order-1 rules (reduced to have no walls)
        // are flattened; the wall skeletons' are not.
        let default = order1_of(default_rulebase());
        prop_assert!(default.stats().order1_flattened);
        let walls = order1_of(&wall_rulebase().0);
        prop_assert!(!walls.stats().order1_flattened);
        for index in [&default, &walls] {
            prop_assert_eq!(index.max_order(), 1);
            let mut flat = Vec::new();
            let flat_result = index.find_with(&board, Some(&dirty), FociReading::Auto, &mut flat);
            let mut generic = Vec::new();
            let generic_result = index.find_with(&board, Some(&dirty), FociReading::Table, &mut generic);
            prop_assert_eq!(&flat_result, &generic_result);
            prop_assert_eq!(&flat, &generic);
        }
    }

    /// An order-1 index and an order-≥2 index each prove what the naive
    /// matcher proves with rules of their orders, and together what the
    /// whole index proves, for full scans and dirty lists.
    #[test]
    fn split_indexes_prove_their_orders(s in scenarios(16), seed in any::<u64>()) {
        let (_, index, images) = full_rulebase();
        let (one, more) = split_indexes();
        prop_assert_eq!(one.max_order(), 1);
        prop_assert_eq!(more.rules_by_order()[1], 0);
        prop_assert_eq!(one.len() + more.len(), index.len());
        let (naive, _) = naive_matches(images, &s.board);
        let naive_of = |keep: fn(u8) -> bool| {
            lowest(naive.iter().filter(|p| keep(p.order)).map(|p| (p.forced, p.order)))
        };
        let got1 = lowest(find_all(one, &s.board, None));
        let got2 = lowest(find_all(more, &s.board, None));
        prop_assert_eq!(&got1, &naive_of(|o| o == 1));
        prop_assert_eq!(&got2, &naive_of(|o| o >= 2));
        let union = |a: &BTreeMap<Forced, u8>, b: &BTreeMap<Forced, u8>| {
            lowest(a.iter().chain(b).map(|(f, o)| (*f, *o)))
        };
        prop_assert_eq!(union(&got1, &got2), lowest(find_all(index, &s.board, None)));
        let mut rng = Rng::new(seed);
        let dirty: Vec<u32> = (0..s.grid.len() as u32)
            .filter(|&i| matches!(s.board.cell(i), Cell::Revealed(_)) && rng.chance(30))
            .collect();
        let d1 = lowest(find_all(one, &s.board, Some(&dirty)));
        let d2 = lowest(find_all(more, &s.board, Some(&dirty)));
        prop_assert_eq!(union(&d1, &d2), lowest(find_all(index, &s.board, Some(&dirty))));
    }
}

proptest! {
    #![proptest_config(crate::util::cases(64))]

    /// Each revealed number alone as the dirty list: everything a placement
    /// through it proves is found, whichever focus of the placement it is
    /// (with longer dirty lists another focus of the placement is often
    /// dirty too, which can hide a placement missed from one focus).
    #[test]
    fn each_number_alone_finds_every_placement_through_it(s in scenarios(12)) {
        let (_, index, images) = full_rulebase();
        let (naive, _) = naive_matches(images, &s.board);
        let full = lowest(find_all(index, &s.board, None));
        for d in 0..s.grid.len() as u32 {
            if !matches!(s.board.cell(d), Cell::Revealed(_)) {
                continue;
            }
            let got = lowest(find_all(index, &s.board, Some(&[d])));
            let expected = lowest(
                naive.iter().filter(|p| p.foci.contains(&d)).map(|p| (p.forced, p.order)),
            );
            for (f, o) in &expected {
                prop_assert!(
                    got.get(f).is_some_and(|g| g <= o),
                    "{:?} (order {}) through {} missing", f, o, d
                );
            }
            for (f, o) in &got {
                prop_assert!(full.get(f).is_some_and(|fo| fo <= o), "{:?} not in the full result", f);
            }
        }
    }
}
