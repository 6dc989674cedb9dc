//! `sapper solve --learn`: learning adds verified rules, and a second run
//! makes those deductions by rules.
//!
//! The corpus is generated here (deterministic seed): 80 uniform random
//! expert fields (16×30, 99 mines) opened at a 0 as in the game, written in
//! the thesis layout. Most get stuck (a guess is needed), but on the way
//! some cells need three or more numbers at once: those are learned.

use crate::util::{sapper, write_expert_corpus, TempDir};

fn total(stdout: &str, key: &str) -> u64 {
    stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON line");
            v["by_method"][key].as_u64().expect("count")
        })
        .sum()
}

fn learned_count(stderr: &str) -> usize {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("learned "))
        .expect("a 'learned N new rules' line");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn learning_adds_verified_rules_that_a_second_run_uses() {
    let dir = TempDir::new("learn");
    let corpus = dir.join("corpus");
    write_expert_corpus(&corpus, 0x5eed_1234_abcd_9876, 80);
    let learned = dir.join("learned.rules");
    let corpus_s = corpus.to_str().unwrap();
    let learned_s = learned.to_str().unwrap();

    // Baseline with the default rulebase.
    let base = sapper(["solve", corpus_s, "--json"]);
    base.ok();

    // First run: learns from the method deductions.
    let first = sapper(["solve", corpus_s, "--json", "--learn", learned_s]);
    first.ok();
    let n = learned_count(&first.stderr);
    assert!(n > 0, "nothing learned on 80 expert fields");

    // The learned rules are sound: re-proved independently of how they were made.
    sapper(["rules", "verify", learned_s]).ok();
    sapper(["rules", "info", learned_s, "--json"]).ok();

    // Second run with the learned rulebase: the same outcomes, more cells by
    // rules, fewer by methods, and nothing new to learn.
    let second = sapper(["solve", corpus_s, "--json", "--learn", learned_s]);
    second.ok();
    assert_eq!(learned_count(&second.stderr), 0);
    let outcomes = |out: &str| -> Vec<(String, bool, u64)> {
        out.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["field"].as_str().unwrap().to_string(),
                    v["solved"].as_bool().unwrap(),
                    v["opened_safe_cells"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(outcomes(&second.stdout), outcomes(&base.stdout));
    let methods = |out: &str| {
        total(out, "single_cell")
            + total(out, "linked_cells_1")
            + total(out, "linked_cells_2")
            + total(out, "hypotheses")
    };
    assert!(total(&second.stdout, "rules") > total(&base.stdout, "rules"));
    assert!(methods(&second.stdout) < methods(&base.stdout));
}
