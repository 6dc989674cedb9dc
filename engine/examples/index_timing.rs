//! Times loading a rulebase, building its `RuleIndex`, and solving a corpus
//! with and without the rule layer.
//!
//! `cargo run --release -p sapper-engine --example index_timing -- [RULES] [CORPUS] [REPEATS]`
//!
//! Defaults: `rules/default.rules`, `/work/shared/data/sgt-expert`, 5.
//! Every timing is the minimum over `REPEATS` runs (the machine is shared).
//! Reports: `Rulebase::from_bytes` / `from_trusted_bytes`, `RuleIndex::new`
//! (whole index, order 1 alone, orders ≥ 2 alone), the corpus solved with
//! rules + methods and with the methods alone, and the rule layer's own
//! per-call cost from the solver's statistics.
use sapper_engine::board::Field;
use sapper_engine::formats::thesis::{find_fields, read_field};
use sapper_engine::methods::MethodTable;
use sapper_engine::rules::{matcher::RuleIndex, Rule, Rulebase};
use sapper_engine::solver::{solve_field_with, Layers};
use std::path::Path;
use std::time::{Duration, Instant};

/// Minimum wall time of `repeats` runs of `f`, and the last result.
fn best_of<T>(repeats: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..repeats.max(1) {
        let t0 = Instant::now();
        let r = f();
        best = best.min(t0.elapsed());
        last = Some(r);
    }
    (best, last.expect("at least one run"))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

struct CorpusRun {
    solved: usize,
    opened: usize,
    table: MethodTable,
}

fn solve_corpus(fields: &[Field], layers: Layers<'_>) -> CorpusRun {
    let mut run = CorpusRun {
        solved: 0,
        opened: 0,
        table: MethodTable::default(),
    };
    for field in fields {
        // A fresh method table per field, as the CLI's solve does.
        let mut table = MethodTable::default();
        let outcome = solve_field_with(field, layers, &mut table, None).expect("sound solve");
        run.solved += outcome.solved as usize;
        run.opened += outcome.opened_safe_cells;
        run.table.merge(&table);
    }
    run
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "rules/default.rules".into());
    let corpus = args
        .next()
        .unwrap_or_else(|| "/work/shared/data/sgt-expert".into());
    let repeats: usize = args.next().map_or(5, |s| s.parse().expect("REPEATS"));

    let bytes = std::fs::read(&path).expect("read rulebase");
    let (t_load, rb) = best_of(repeats, || {
        Rulebase::from_bytes(&bytes).expect("valid rulebase")
    });
    let (t_trusted, trusted) = best_of(repeats, || {
        Rulebase::from_trusted_bytes(&bytes).expect("valid rulebase")
    });
    assert_eq!(trusted, rb, "from_trusted_bytes disagrees with from_bytes");
    let (t_index, ix) = best_of(repeats, || RuleIndex::new(&rb));
    let (order1, higher): (Vec<Rule>, Vec<Rule>) =
        rb.rules.iter().cloned().partition(|r| r.order() == 1);
    let (t_index1, ix1) = best_of(repeats, || RuleIndex::from_rules(&order1));
    let (t_index2, ix2) = best_of(repeats, || RuleIndex::from_rules(&higher));
    println!(
        "{path}: {} rules; from_bytes {:.2} ms, from_trusted_bytes {:.2} ms; \
         RuleIndex::new {:.2} ms (order 1 alone {:.2} ms, orders >= 2 alone {:.2} ms)",
        rb.rules.len(),
        ms(t_load),
        ms(t_trusted),
        ms(t_index),
        ms(t_index1),
        ms(t_index2),
    );
    println!("  {:?}", ix.stats());
    assert_eq!(ix1.len() + ix2.len(), ix.len());

    let refs = find_fields(Path::new(&corpus)).expect("corpus");
    let fields: Vec<Field> = refs
        .iter()
        .map(|r| read_field(&r.dir).expect("field"))
        .collect();
    let with_rules = Layers {
        rules: Some(&ix),
        methods: true,
    };
    let (t_rules, run_rules) = best_of(repeats, || solve_corpus(&fields, with_rules));
    let (t_methods, run_methods) = best_of(repeats, || solve_corpus(&fields, Layers::METHODS_ONLY));
    assert_eq!(
        (run_rules.solved, run_rules.opened),
        (run_methods.solved, run_methods.opened),
        "rules change the outcome"
    );
    let rules = &run_rules.table.rules;
    let single = run_rules
        .table
        .get(sapper_engine::board::Method::SingleCell);
    println!(
        "{corpus}: {} fields, {} solved; rules+methods {:.2} ms, methods only {:.2} ms",
        fields.len(),
        run_rules.solved,
        ms(t_rules),
        ms(t_methods),
    );
    println!(
        "  rule layer (last run): {} calls, {} successes, {:.2} µs/call \
         (success {:.2} µs, failure {:.2} µs), {:.2} ms in all; \
         single cell: {} calls, {:.2} µs/call",
        rules.attempts,
        rules.successes,
        (rules.nanos_success + rules.nanos_fail) as f64 / rules.attempts.max(1) as f64 / 1e3,
        rules.t_s_micros(),
        rules.t_u_micros(),
        (rules.nanos_success + rules.nanos_fail) as f64 / 1e6,
        single.attempts,
        (single.nanos_success + single.nanos_fail) as f64 / single.attempts.max(1) as f64 / 1e3,
    );
}
