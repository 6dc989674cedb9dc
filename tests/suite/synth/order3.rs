//! Order 3: synthesis of triples.

use super::*;

// ---------------------------------------------------------------------------
// Order 3

#[test]
fn order_3_every_orientation_and_one_per_class_agree() {
    let all = order_3_window_5();
    let options = Options {
        orders: vec![3],
        max_window: 5,
        budget: None,
    };
    let reps = synthesize_with(&options, |_| Orientations::Representatives, &quiet);
    assert!(reps.rules == all.rules, "the two enumerations disagree");
    assert!(!all.rules.is_empty());
    for (a, r) in all.stats.iter().zip(&reps.stats) {
        assert_eq!(a.kept, r.kept);
        assert_eq!(a.window, r.window);
        // Counts over every orientation: the orbit arithmetic holds.
        let sum: u64 = all
            .rules
            .iter()
            .filter(|x| x.window() == a.window)
            .map(orbit_size)
            .sum();
        assert_eq!(sum, a.kept_raw, "window {}", a.window);
        assert!(a.enumerated > r.enumerated);
    }
}

#[test]
fn order_3_rules_are_reproved_and_irreducible() {
    let s = order_3_window_5();
    let rules = rules_of(s, 3);
    assert_eq!(rules.len(), s.rules.len());
    // Every rule with few closed cells, and a spread sample of the rest.
    let mut checked = 0;
    for (i, rule) in rules.iter().enumerate() {
        let closed = rule
            .pattern
            .cells
            .iter()
            .filter(|c| **c == PatternCell::Closed)
            .count();
        if closed <= 12 || i % 97 == 0 {
            check_rule(rule);
            checked += 1;
        }
    }
    assert!(checked > 2000, "only {checked} rules checked");
    // Triples are connected: each focus within distance 2 of another.
    for rule in &rules {
        let w = rule.pattern.w as usize;
        let foci: Vec<(usize, usize)> = (0..rule.pattern.cells.len())
            .filter(|&i| matches!(rule.pattern.cells[i], PatternCell::Number(_)))
            .map(|i| (i / w, i % w))
            .collect();
        assert_eq!(foci.len(), 3);
        for &f in &foci {
            assert!(foci.iter().any(|&g| g != f && chebyshev(f, g) <= 2));
        }
    }
    let st = stats(s, 3, 5);
    assert!(st.covered_by_order2 > 0 && st.covered_by_order1 > 0);
}

#[test]
fn budget_stops_cleanly_and_reports_coverage() {
    let options = Options {
        orders: vec![1, 2],
        max_window: 5,
        budget: Some(Duration::ZERO),
    };
    let s = synthesize(&options, &quiet);
    assert!(!s.complete());
    assert!(s.rules.is_empty());
    assert!(s
        .coverage
        .iter()
        .all(|c| c.geometries_done == 0 && c.geometries_total > 0));
    assert!(s.notes.iter().all(|n| n.contains("PARTIAL")));
}

#[test]
fn growth_keeps_the_base_and_adds_new_rules() {
    let order1 = synthesize(&Options::up_to(1), &quiet);
    let base = build_rulebase(None, &order1, &Options::up_to(1));
    assert_eq!(base.settings.max_order, 1);
    assert_eq!(base.settings.max_window, 3);
    let step = Options {
        orders: vec![2],
        max_window: 5,
        budget: None,
    };
    let order2 = synthesize(&step, &quiet);
    let grown = build_rulebase(Some(&base), &order2, &step);
    assert_eq!(grown.settings.max_order, 2);
    assert_eq!(grown.settings.max_window, 5);
    assert!(base
        .rules
        .iter()
        .all(|r| grown.rules.binary_search(r).is_ok()));
    assert_eq!(grown.rules.len(), base.rules.len() + order2.rules.len());
    let full = build_rulebase(None, orders_1_2(), &Options::up_to(2));
    assert_eq!(grown.rules, full.rules);
    assert_eq!(grown.settings.notes.len(), 3);
    assert!(grown.settings.notes[2].contains(&format!("added {}", order2.rules.len())));
}
