//! The command: `sapper synth` end to end.

use super::*;

// ---------------------------------------------------------------------------
// The command

fn read(path: &std::path::Path) -> Rulebase {
    Rulebase::read(path).unwrap()
}

#[test]
fn command_writes_grows_and_refuses_bad_input() {
    let dir = TempDir::new("synth-command");
    let one = dir.join("one.rules");
    let two = dir.join("two.rules");

    let out = sapper(["synth", "--order", "1", "-o", one.to_str().unwrap()]);
    out.ok();
    let stdout = &out.stdout;
    assert!(
        stdout.contains("enumerated") && stdout.contains("3897"),
        "{stdout}"
    );
    let rb = read(&one);
    assert_eq!(rb.rules.len() as u64, stats(orders_1_2(), 1, 3).kept);
    assert_eq!(rb.settings.max_order, 1);

    sapper([
        "synth",
        "--order",
        "2",
        "--from",
        one.to_str().unwrap(),
        "-o",
        two.to_str().unwrap(),
    ])
    .ok();
    let grown = read(&two);
    assert_eq!(grown.rules, orders_1_2().rules);
    assert_eq!(grown.settings.max_order, 2);

    // Nothing to add: an error naming the problem, no output written.
    let three = dir.join("three.rules");
    let out = sapper([
        "synth",
        "--order",
        "2",
        "--from",
        two.to_str().unwrap(),
        "-o",
        three.to_str().unwrap(),
    ]);
    out.expect_code(2)
        .stderr_has("already holds rules up to order 2");
    assert!(!three.exists());

    // A missing or corrupted base is a clear error.
    let out = sapper([
        "synth",
        "--from",
        dir.join("missing").to_str().unwrap(),
        "-o",
        three.to_str().unwrap(),
    ]);
    out.expect_code(2).stderr_has("cannot read");
    std::fs::write(dir.join("junk.rules"), b"not a rulebase").unwrap();
    let out = sapper([
        "synth",
        "--from",
        dir.join("junk.rules").to_str().unwrap(),
        "-o",
        three.to_str().unwrap(),
    ]);
    out.expect_code(2).stderr_has("is not a rulebase");

    // Window too small for the order.
    let out = sapper([
        "synth",
        "--order",
        "2",
        "--max-window",
        "3",
        "-o",
        three.to_str().unwrap(),
    ]);
    out.expect_code(2);
    assert!(!three.exists());

    // An unwritable output leaves nothing behind.
    let out = sapper([
        "synth",
        "--order",
        "1",
        "-o",
        dir.join("no/such/dir/x.rules").to_str().unwrap(),
    ]);
    out.expect_code(2);

    // No temporary files left around.
    let names: BTreeSet<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let expected: BTreeSet<String> = ["one.rules", "two.rules", "junk.rules"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(names, expected);
}

#[test]
fn order_3_six_by_six_rules_are_reproved() {
    let options = Options {
        orders: vec![3],
        max_window: 6,
        budget: None,
    };
    let s = synthesize(&options, &quiet);
    assert!(s.complete());
    let six: Vec<&Rule> = s.rules.iter().filter(|r| r.window() == 6).collect();
    assert_eq!(six.len() as u64, stats(&s, 3, 6).kept);
    let closed = |r: &Rule| {
        r.pattern
            .cells
            .iter()
            .filter(|c| **c == PatternCell::Closed)
            .count()
    };
    // The smallest patterns, a spread sample of the middle, and the rules
    // with the most closed cells.
    let mut by_size: Vec<&Rule> = six.clone();
    by_size.sort_by_key(|r| std::cmp::Reverse(closed(r)));
    let mut checked = 0;
    for (i, rule) in six.iter().enumerate() {
        let c = closed(rule);
        if c <= 10 || (c <= 16 && i % 1000 == 0) {
            check_rule(rule);
            checked += 1;
        }
    }
    for rule in by_size.iter().take(8) {
        check_rule(rule);
    }
    assert!(checked > 100, "only {checked} rules checked");
    // The windows below 6 are the same as the window-5 run's.
    let small: Vec<&Rule> = s.rules.iter().filter(|r| r.window() < 6).collect();
    assert!(small.iter().copied().eq(order_3_window_5().rules.iter()));
}

#[test]
fn classic_rules_are_found_in_some_orientation() {
    let s = orders_1_2();
    let stored: BTreeSet<&Rule> = s.rules.iter().collect();
    let has = |r: Rule| stored.contains(&r.canonical());
    // 1-1: the first 1 sees two closed cells, the second the same two plus
    // one: that one is safe.
    assert!(has(rule(&[".??s", ".11.", "...."], RuleKind::Forced)));
    // 1-2 along a closed row: x(right) - x(left) = 1, so the 2's own cell
    // is a mine and the 1's own cell safe.
    assert!(has(rule(&["s??m", ".12.", "...."], RuleKind::Forced)));
    // Forbidden: the 1's three closed cells are all shared with the 4, which
    // would need three mines among its two own cells.
    assert!(has(rule(&[".???", ".14?", ".?.."], RuleKind::Forbidden)));
    // Order 1: a 3 with exactly three closed neighbours.
    assert!(has(rule(&["mm.", ".3m", "..."], RuleKind::Forced)));
    // Not rules: a 1-1 over a closed row concludes nothing (x(left) =
    // x(right) only), and the 1-2 under two shared cells has a trivial 2
    // (order 1 covers it).
    for rows in [["????", ".11.", "...."], [".??.", ".12.", "...."]] {
        let pattern = rule(&rows, RuleKind::Forced).pattern;
        let images: BTreeSet<Pattern> = (0..8).map(|k| pattern.transform(k)).collect();
        assert!(
            s.rules.iter().all(|r| !images.contains(&r.pattern)),
            "{rows:?}"
        );
    }
}
