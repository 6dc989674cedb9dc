//! Times loading a rulebase, building its `RuleIndex`, and solving a corpus
//! with and without the rule layer.
//!
//! `cargo run --release -p sapper-engine --example index_timing -- [RULES] [CORPUS] [REPEATS]`
//!
//! Defaults: `rules/default.rules`, `/work/shared/data/sgt-expert`, 5.
//! Every timing is the minimum over `REPEATS` runs (the machine is shared).
//! Reports: `Rulebase::from_bytes` / `from_trusted_bytes`, `RuleIndex::new`
//! (whole index, order 1 alone, orders ≥ 2 alone), the frozen index
//! (`RuleTiers::to_index_bytes` / `from_index_bytes`), the corpus solved with
//! rules + methods and with the methods alone, and the rule layer's own
//! per-call cost from the solver's statistics. Then a replay: every
//! `RuleIndex::find` call of a rules-first solve of the corpus (board and
//! dirty list) is recorded and timed alone, with each way of reading the
//! numbers, next to single-cell on the same dirty lists.
use sapper_engine::board::{Board, Cell, Field, Method, Value};
use sapper_engine::formats::thesis::{find_fields, read_field};
use sapper_engine::methods::{self, MethodTable};
use sapper_engine::rules::matcher::FociReading;
use sapper_engine::rules::{matcher::RuleIndex, Rule, Rulebase};
use sapper_engine::solver::{solve_field_with, starting_board, Layers, RuleTiers};
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

/// One recorded rule-layer call.
struct Call {
    board: Board,
    dirty: Vec<u32>,
}

/// Plays `field` as the solver does — rules first on the numbers whose
/// neighbourhood changed, the methods (research order, first success) when
/// no rule fires — and records every rule-layer call.
fn record_calls(field: &Field, index: &RuleIndex, calls: &mut Vec<Call>) {
    let (mut board, _) = starting_board(field);
    let grid = field.grid;
    let revealed = |b: &Board, i: u32| matches!(b.cell(i), Cell::Revealed(_));
    let mut dirty: Vec<u32> = (0..grid.len() as u32)
        .filter(|&i| revealed(&board, i))
        .collect();
    let mut found = Vec::new();
    let mut forced = Vec::new();
    loop {
        // Numbers that can still prove something.
        dirty.sort_unstable();
        dirty.dedup();
        dirty.retain(|&i| revealed(&board, i) && board.unknown_neighbours(i).next().is_some());
        found.clear();
        if !dirty.is_empty() {
            index
                .find(&board, Some(&dirty), &mut found)
                .expect("sound rules");
            calls.push(Call {
                board: board.clone(),
                dirty: dirty.clone(),
            });
        }
        dirty.clear();
        let mut proven: Vec<(u32, Value)> = found.iter().map(|(f, _)| (f.cell, f.value)).collect();
        if proven.is_empty() {
            for method in Method::RESEARCH_ORDER {
                forced.clear();
                methods::run(
                    method,
                    &board,
                    None,
                    &sapper_engine::budget::Budget::unlimited(),
                    &mut forced,
                )
                .expect("sound methods");
                if !forced.is_empty() {
                    proven.extend(forced.iter().map(|f| (f.cell, f.value)));
                    break;
                }
            }
        }
        if proven.is_empty() {
            return;
        }
        let mut stack = Vec::new();
        for (cell, value) in proven {
            let mut changed = Vec::new();
            if value == Value::Mine {
                if board.cell(cell).is_unknown() {
                    board.set(cell, Cell::Mine);
                    changed.push(cell);
                }
            } else {
                // Open, flood-filling from 0s as the game does.
                stack.push(cell);
                while let Some(c) = stack.pop() {
                    if matches!(board.cell(c), Cell::Revealed(_) | Cell::Mine) {
                        continue;
                    }
                    let v = field.value[c as usize];
                    board.set(c, Cell::Revealed(v));
                    changed.push(c);
                    if v == 0 {
                        stack.extend(
                            grid.neighbours(c)
                                .iter()
                                .filter(|&&n| matches!(board.cell(n), Cell::Unknown | Cell::Safe)),
                        );
                    }
                }
            }
            for c in changed {
                dirty.push(c);
                dirty.extend_from_slice(&grid.neighbours(c));
            }
        }
    }
}

/// Calls as bytes: per call `h`, `w`, dirty count (u32 each), the cells
/// (one byte: the number, or 9 unknown, 10 mine, 11 safe), the dirty list
/// (u32 each). Total mine counts are not kept (the matcher ignores them).
fn encode_calls(calls: &[Call]) -> Vec<u8> {
    let mut out = Vec::new();
    for call in calls {
        let g = call.board.grid();
        for x in [g.h as u32, g.w as u32, call.dirty.len() as u32] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend(call.board.cells().iter().map(|c| match c {
            Cell::Revealed(n) => *n,
            Cell::Unknown => 9,
            Cell::Mine => 10,
            Cell::Safe => 11,
        }));
        for d in &call.dirty {
            out.extend_from_slice(&d.to_le_bytes());
        }
    }
    out
}

fn decode_calls(mut bytes: &[u8]) -> Vec<Call> {
    let word = |bytes: &mut &[u8]| {
        let (w, rest) = bytes.split_at(4);
        *bytes = rest;
        u32::from_le_bytes(w.try_into().expect("4 bytes")) as usize
    };
    let mut calls = Vec::new();
    while !bytes.is_empty() {
        let (h, w, d) = (word(&mut bytes), word(&mut bytes), word(&mut bytes));
        let (cells, rest) = bytes.split_at(h * w);
        bytes = rest;
        let cells = cells
            .iter()
            .map(|&b| match b {
                9 => Cell::Unknown,
                10 => Cell::Mine,
                11 => Cell::Safe,
                n => Cell::Revealed(n),
            })
            .collect();
        let dirty = (0..d).map(|_| word(&mut bytes) as u32).collect();
        calls.push(Call {
            board: Board::new(sapper_engine::Grid::new(h, w), cells, None),
            dirty,
        });
    }
    calls
}

/// Best time of `repeats` runs of every recorded call.
fn replay(ix: &RuleIndex, calls: &[Call], reading: FociReading, repeats: usize) -> Duration {
    let mut out = Vec::new();
    best_of(repeats, || {
        for call in calls {
            out.clear();
            ix.find_with(&call.board, Some(&call.dirty), reading, &mut out)
                .expect("sound");
        }
    })
    .0
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "rules/default.rules".into());
    let corpus = args
        .next()
        .unwrap_or_else(|| "/work/shared/data/sgt-expert".into());
    let repeats: usize = args.next().map_or(5, |s| s.parse().expect("REPEATS"));

    let bytes = std::fs::read(&path).expect("read rulebase");
    // `INDEX_TIMING_COLD=1`: load and index once, in this fresh process (as
    // the CLI does: no memory reused from an earlier build), and stop.
    if std::env::var_os("INDEX_TIMING_COLD").is_some() {
        let t0 = Instant::now();
        let rb = Rulebase::from_trusted_bytes(&bytes).expect("valid rulebase");
        let t1 = Instant::now();
        let ix = RuleIndex::new(&rb);
        let t2 = Instant::now();
        let tiers = RuleTiers::new(&rb);
        let t3 = Instant::now();
        let frozen = tiers.to_index_bytes(&bytes);
        drop(tiers);
        let t4 = Instant::now();
        let thawed = RuleTiers::from_index_bytes(&frozen, &bytes).expect("a valid index");
        let t5 = Instant::now();
        println!(
            "{path} cold: from_trusted_bytes {:.2} ms, RuleIndex::new {:.2} ms ({} rules), \
             RuleTiers::new {:.2} ms; frozen index {} bytes, from_index_bytes {:.2} ms",
            ms(t1 - t0),
            ms(t2 - t1),
            ix.len(),
            ms(t3 - t2),
            frozen.len(),
            ms(t5 - t4),
        );
        assert_eq!(thawed.len(), ix.len());
        return;
    }
    // Replaying only (see below): build once.
    let only_replay = std::env::var("INDEX_TIMING_REPLAY").ok();
    let build_repeats = if only_replay.is_some() { 1 } else { repeats };
    let (t_load, rb) = best_of(build_repeats, || {
        Rulebase::from_bytes(&bytes).expect("valid rulebase")
    });
    let (t_trusted, trusted) = best_of(build_repeats, || {
        Rulebase::from_trusted_bytes(&bytes).expect("valid rulebase")
    });
    assert_eq!(trusted, rb, "from_trusted_bytes disagrees with from_bytes");
    let (t_index, ix) = best_of(build_repeats, || RuleIndex::new(&rb));
    let (order1, higher): (Vec<Rule>, Vec<Rule>) =
        rb.rules.iter().cloned().partition(|r| r.order() == 1);
    let (t_index1, ix1) = best_of(build_repeats, || RuleIndex::from_rules(&order1));
    let (t_index2, ix2) = best_of(build_repeats, || RuleIndex::from_rules(&higher));
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
    // The frozen index (what the `sapper` binary embeds for the default
    // rulebase): writing it, its body checksum alone, and reading it back.
    let tiers = RuleTiers::new(&rb);
    let (t_freeze, frozen) = best_of(build_repeats, || tiers.to_index_bytes(&bytes));
    let (t_checksum, _) = best_of(build_repeats, || {
        sapper_engine::rules::frozen::checksum64(&frozen)
    });
    let (t_thaw, thawed) = best_of(build_repeats, || {
        RuleTiers::from_index_bytes(&frozen, &bytes).expect("a valid index")
    });
    assert!(thawed == tiers, "the frozen index reads back differently");
    println!(
        "  frozen index: {} bytes; to_index_bytes {:.2} ms, from_index_bytes {:.3} ms \
         (of which the checksum of the whole {:.3} ms)",
        frozen.len(),
        ms(t_freeze),
        ms(t_thaw),
        ms(t_checksum),
    );
    assert_eq!(ix1.len() + ix2.len(), ix.len());

    let refs = find_fields(Path::new(&corpus)).expect("corpus");
    let fields: Vec<Field> = refs
        .iter()
        .map(|r| read_field(&r.dir).expect("field"))
        .collect();
    // `INDEX_TIMING_CALLS=FILE`: replay the calls saved in FILE, or record
    // and save them there (to compare matcher variants on one sequence).
    let saved = std::env::var("INDEX_TIMING_CALLS").ok();
    let calls = match saved.as_deref().map(std::fs::read) {
        Some(Ok(bytes)) => decode_calls(&bytes),
        _ => {
            let mut calls = Vec::new();
            for field in &fields {
                record_calls(field, &ix, &mut calls);
            }
            if let Some(path) = &saved {
                std::fs::write(path, encode_calls(&calls)).expect("write the calls file");
            }
            calls
        }
    };
    let readings = [
        ("auto", FociReading::Auto),
        ("cached", FociReading::Cached),
        ("live", FociReading::Live),
        ("table", FociReading::Table),
    ];
    // For profiling: `INDEX_TIMING_REPLAY=cached` replays with one reading
    // only and stops.
    if let Some(only) = only_replay {
        let (_, reading) = readings
            .iter()
            .find(|(name, _)| *name == only)
            .expect("INDEX_TIMING_REPLAY: auto, cached, live or table");
        let t = replay(&ix, &calls, *reading, repeats);
        println!(
            "replay {only}: {:.2} µs per call",
            t.as_secs_f64() * 1e6 / calls.len() as f64
        );
        return;
    }

    let with_rules = Layers {
        rules: Some(&tiers),
        methods: true,
        budget: sapper_engine::budget::Budget::unlimited(),
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
    // The solver times a random sample of the rule layer's calls.
    let rules_timed = (rules.timed_successes + rules.timed_failures).max(1) as f64;
    let rules_mean_nanos = (rules.nanos_success + rules.nanos_fail) as f64 / rules_timed;
    println!(
        "  rule layer (last run): {} calls, {} successes, {:.2} µs/call \
         (success {:.2} µs, failure {:.2} µs), {:.2} ms in all (estimated from {} timed calls); \
         single cell: {} calls, {:.2} µs/call",
        rules.attempts,
        rules.successes,
        rules_mean_nanos / 1e3,
        rules.t_s_micros(),
        rules.t_u_micros(),
        rules_mean_nanos * rules.attempts as f64 / 1e6,
        rules_timed,
        single.attempts,
        (single.nanos_success + single.nanos_fail) as f64 / single.attempts.max(1) as f64 / 1e3,
    );

    let dirty_numbers: usize = calls.iter().map(|c| c.dirty.len()).sum();
    let per_call = |d: Duration| d.as_secs_f64() * 1e6 / calls.len() as f64;
    let mut report = String::new();
    for (name, reading) in readings {
        report += &format!(
            " {name} {:.2} µs",
            per_call(replay(&ix, &calls, reading, repeats))
        );
    }
    let mut forced = Vec::new();
    let (t_single, ()) = best_of(repeats, || {
        for call in &calls {
            forced.clear();
            methods::run(
                Method::SingleCell,
                &call.board,
                Some(&call.dirty),
                &sapper_engine::budget::Budget::unlimited(),
                &mut forced,
            )
            .expect("sound");
        }
    });
    // The rulebase split by order, as the solver may hold it: every call
    // to the order-1 index, and to the order ≥ 2 index (an upper bound: the
    // solver calls it only when order 1 finds nothing).
    let t1 = replay(&ix1, &calls, FociReading::Auto, repeats);
    let t2 = replay(&ix2, &calls, FociReading::Auto, repeats);
    // Order 1 first, the order >= 2 index only when order 1 finds nothing.
    let mut out = Vec::new();
    let mut second = 0;
    let (t_split, ()) = best_of(repeats, || {
        second = 0;
        for call in &calls {
            out.clear();
            ix1.find(&call.board, Some(&call.dirty), &mut out)
                .expect("sound");
            if out.is_empty() {
                second += 1;
                ix2.find(&call.board, Some(&call.dirty), &mut out)
                    .expect("sound");
            }
        }
    });
    println!(
        "replay: {} find calls, {:.1} dirty numbers per call; per call:{report}; \
         order-1 index alone {:.2} µs, order >= 2 index alone {:.2} µs, \
         order 1 then >= 2 when it finds nothing {:.2} µs ({} of the calls reach >= 2); \
         single cell on the same lists {:.2} µs",
        calls.len(),
        dirty_numbers as f64 / calls.len() as f64,
        per_call(t1),
        per_call(t2),
        per_call(t_split),
        second,
        per_call(t_single),
    );
}
