//! Engine benchmarks (criterion).
//!
//! Run all of them (about 2–3 minutes on 2 cores, build excluded):
//!
//! ```text
//! cargo bench --bench engine
//! cargo bench --bench engine -- methods/      # one group (a regex filter)
//! ```
//!
//! Data: the repository's `samples/fields`, plus `../shared/data/sgt-expert`
//! (resolved from `CARGO_MANIFEST_DIR`) when it is present. Without the
//! shared data the board benchmarks fall back to the samples and the
//! `solve/sgt-expert/*` benchmarks are skipped with a message on stderr.
//!
//! Groups and what they measure (the time reported is one pass over the
//! whole set named):
//!
//! - `rules/index_build`: `RuleTiers::new` on the embedded default rulebase
//!   (`rules/default.rules`): building one `RuleIndex` per order from the
//!   decoded rules, every orientation of every rule. Decoding the file is
//!   not timed.
//! - `rules/index_load`: `RuleTiers::from_index` of the index frozen from
//!   the same rulebase and embedded in the engine (what the binary does
//!   instead of `index_build`). Memory is reused from run to run, so the first
//!   touch of fresh pages a new process pays is not in it.
//! - `rules/match_full/order_N`: `RuleIndex::find(board, None, ..)` of tier
//!   N (a full scan, every placement examined, no dirty list) over the
//!   mid-game boards.
//! - `methods/<name>` (`single_cell`, `linked_cells_1`, `linked_cells_2`,
//!   `hypotheses`): one call of `methods::run(method, &board, None, ..)`
//!   (whole board examined) over the same mid-game boards.
//! - `probabilities/count`: `Probabilities::compute` (every closed cell's
//!   mine probability, with the field's total) over the same mid-game
//!   boards, one `Probabilities` reused from board to board as a player
//!   would; `probabilities/count_and_layouts` adds the exact number of
//!   layouts (`Probabilities::layouts`, big integers), as `sapper analyse
//!   --probabilities` prints it. Reading positions and printing are not
//!   in it (`benches/probabilities_baseline.py` times whole processes).
//! - `solve/sgt-expert/rules` and `solve/sgt-expert/no_rules`: no-guess play
//!   of all 100 sgt-expert fields (read once, not timed), rules first then
//!   the methods vs. the four methods alone; one `MethodTable` carried from
//!   field to field within a pass, as in `sapper bench`.
//!
//! Mid-game boards: for each field (the first 10 sgt-expert fields, or the
//! samples), the start board (`starting_board`) plus 25%, 50% and 75% of
//! the safe cells still closed, taken nearest-first from the start region
//! (breadth-first distance, ties by cell index) and opened from the truth
//! (an opened 0 opens its neighbours, as in the game); mines whose every
//! neighbour is settled are flagged, as a player would have. So the boards
//! are deterministic, consistent with the truth, and have a frontier of
//! closed cells to work on.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use sapper_engine::budget::Budget;
use sapper_engine::formats::thesis::{find_fields, read_field};
use sapper_engine::methods::{self, MethodTable};
use sapper_engine::probabilities::Probabilities;
use sapper_engine::rules::Rulebase;
use sapper_engine::solver::{solve_field_with, starting_board, Layers, RuleTiers};
use sapper_engine::{Board, Cell, Field, Method};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::Duration;

use sapper_engine::rules::load::DEFAULT_INDEX;
use sapper_engine::rules::DEFAULT_RULEBASE;
use sapper_engine::wire::Bytes;

/// Fields whose mid-game boards are benchmarked (of the expert corpus).
const BOARD_FIELDS: usize = 10;
/// Fractions of the closed safe cells opened to make the mid-game boards.
const FRACTIONS: [f64; 3] = [0.25, 0.5, 0.75];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn expert_corpus() -> PathBuf {
    repo().join("../shared/data/sgt-expert")
}

/// Every field of a corpus, in natural order; `None` (with a message) when
/// the corpus is absent. A corpus that is present but unreadable is a
/// broken benchmark setup: that panics with the reader's error.
fn read_corpus(path: &Path) -> Option<Vec<Field>> {
    if !path.is_dir() {
        eprintln!(
            "note: {} is absent; skipping the benchmarks that need it",
            path.display()
        );
        return None;
    }
    let refs = find_fields(path).unwrap_or_else(|e| panic!("{e}"));
    Some(
        refs.iter()
            .map(|r| read_field(&r.dir).unwrap_or_else(|e| panic!("{e}")))
            .collect(),
    )
}

fn default_rulebase() -> Rulebase {
    Rulebase::from_bytes(DEFAULT_RULEBASE).expect("the embedded default rulebase decodes")
}

/// Opens safe `cell` from the truth; an opened 0 opens its neighbours.
fn open_from_truth(board: &mut Board, field: &Field, cell: u32) {
    let mut stack = vec![cell];
    while let Some(c) = stack.pop() {
        if !matches!(board.cell(c), Cell::Unknown | Cell::Safe) {
            continue;
        }
        debug_assert!(!field.mine[c as usize], "only safe cells are opened");
        let v = field.value[c as usize];
        board.set(c, Cell::Revealed(v));
        if v == 0 {
            stack.extend(field.grid.neighbours(c).iter().copied());
        }
    }
}

/// The start board of `field` with `fraction` of its closed safe cells
/// opened nearest-first (see the module doc).
fn midgame_board(field: &Field, fraction: f64) -> Board {
    let (mut board, _) = starting_board(field);
    let grid = field.grid;
    let n = grid.len();
    let mut dist = vec![u32::MAX; n];
    let mut queue: VecDeque<u32> = (0..n as u32)
        .filter(|&i| matches!(board.cell(i), Cell::Revealed(_)))
        .collect();
    for &i in &queue {
        dist[i as usize] = 0;
    }
    while let Some(c) = queue.pop_front() {
        for &nb in &grid.neighbours(c) {
            if dist[nb as usize] == u32::MAX {
                dist[nb as usize] = dist[c as usize] + 1;
                queue.push_back(nb);
            }
        }
    }
    let mut closed_safe: Vec<u32> = (0..n as u32)
        .filter(|&i| board.cell(i).is_unknown() && !field.mine[i as usize])
        .collect();
    closed_safe.sort_by_key(|&i| (dist[i as usize], i));
    let target = (closed_safe.len() as f64 * fraction).round() as usize;
    for &i in closed_safe.iter().take(target) {
        open_from_truth(&mut board, field, i);
    }
    for i in 0..n as u32 {
        let settled = grid
            .neighbours(i)
            .iter()
            .all(|&nb| field.mine[nb as usize] || !board.cell(nb).is_unknown());
        if field.mine[i as usize] && settled {
            board.set(i, Cell::Mine);
        }
    }
    board
}

/// The mid-game boards: from the expert corpus when present, else from the
/// samples.
fn midgame_boards() -> Vec<Board> {
    let fields = match read_corpus(&expert_corpus()) {
        Some(fields) => fields.into_iter().take(BOARD_FIELDS).collect(),
        None => {
            eprintln!("note: mid-game boards come from samples/fields instead");
            read_corpus(&repo().join("samples/fields"))
                .expect("samples/fields is in the repository")
        }
    };
    let boards: Vec<Board> = fields
        .iter()
        .flat_map(|f| FRACTIONS.iter().map(move |&fr| midgame_board(f, fr)))
        .filter(|b| b.unknown_count() > 0)
        .collect();
    let unknown: u32 = boards.iter().map(|b| b.unknown_count()).sum();
    let frontier: usize = boards.iter().map(|b| b.frontier_numbers().len()).sum();
    eprintln!(
        "mid-game boards: {} ({} closed cells, {} numbers on the frontier in all)",
        boards.len(),
        unknown,
        frontier
    );
    boards
}

fn rules_benches(c: &mut Criterion) {
    let rb = default_rulebase();
    let boards = midgame_boards();
    let tiers = RuleTiers::new(&rb);

    let mut group = c.benchmark_group("rules");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("index_build", |b| b.iter(|| RuleTiers::new(black_box(&rb))));
    group.bench_function("index_load", |b| {
        b.iter(|| {
            RuleTiers::from_index(
                Bytes::from_static(black_box(&DEFAULT_INDEX.0)),
                DEFAULT_RULEBASE,
            )
        })
    });

    for (order, index) in tiers.tiers() {
        // The truth fits every board, so no forbidden combination may match:
        // checked once here so the timed loop measures successful scans only.
        let mut out = Vec::new();
        let mut cells = 0;
        for board in &boards {
            out.clear();
            index.find(board, None, &mut out).unwrap_or_else(|e| {
                panic!("order {order} rules reject a board the truth fits: {e:?}")
            });
            cells += out.len();
        }
        eprintln!(
            "rules/match_full/order_{order}: {cells} cells proven over the boards (each once)"
        );
        group.bench_with_input(
            BenchmarkId::new("match_full", format!("order_{order}")),
            &boards,
            |b, boards| {
                b.iter(|| {
                    for board in boards {
                        out.clear();
                        let _ = black_box(index.find(black_box(board), None, &mut out));
                    }
                    out.len()
                })
            },
        );
    }
    group.finish();

    let mut group = c.benchmark_group("methods");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for method in Method::ALL {
        let mut out = Vec::new();
        let (mut found, mut distinct) = (0, 0);
        for board in &boards {
            out.clear();
            methods::run(method, board, None, &Budget::unlimited(), &mut out).unwrap_or_else(|e| {
                panic!(
                    "{} finds a contradiction on a board the truth fits: {e:?}",
                    method.name()
                )
            });
            found += out.len();
            // A method may report a cell once per number proving it.
            out.sort_unstable();
            out.dedup_by_key(|f| f.cell);
            distinct += out.len();
        }
        eprintln!(
            "methods/{}: {distinct} cells proven over the boards ({found} reported)",
            method.name()
        );
        group.bench_with_input(
            BenchmarkId::from_parameter(method.name()),
            &boards,
            |b, boards| {
                b.iter(|| {
                    for board in boards {
                        out.clear();
                        let _ = black_box(methods::run(
                            method,
                            black_box(board),
                            None,
                            &Budget::unlimited(),
                            &mut out,
                        ));
                    }
                    out.len()
                })
            },
        );
    }
    group.finish();
}

fn probabilities_benches(c: &mut Criterion) {
    let boards = midgame_boards();
    let budget = Budget::unlimited();
    let mut p = Probabilities::new();
    let mut closed = 0;
    for board in &boards {
        p.compute(board, None, &budget)
            .expect("a board the truth fits, with its total, has probabilities");
        closed += p.closed_cells().len();
    }
    eprintln!("probabilities: {closed} closed cells over the boards");

    let mut group = c.benchmark_group("probabilities");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_with_input("count", &boards, |b, boards| {
        b.iter(|| {
            for board in boards {
                let _ = black_box(p.compute(black_box(board), None, &budget));
            }
            p.closed_cells().len()
        })
    });
    group.bench_with_input("count_and_layouts", &boards, |b, boards| {
        b.iter(|| {
            let mut bits = 0;
            for board in boards {
                let _ = black_box(p.compute(black_box(board), None, &budget));
                bits += p.layouts(&budget).map_or(0, |n| n.bits());
            }
            bits
        })
    });
    group.finish();
}

/// Solves every field once with `layers`; returns the number solved.
fn solve_all(fields: &[Field], layers: Layers<'_>) -> usize {
    let mut table = MethodTable::default();
    fields
        .iter()
        .filter(|f| {
            solve_field_with(f, layers, &mut table, None)
                .expect("the shared corpora are consistent and the engine is sound")
                .solved
        })
        .count()
}

fn solve_benches(c: &mut Criterion) {
    let Some(fields) = read_corpus(&expert_corpus()) else {
        eprintln!("note: solve/sgt-expert/* skipped (no ../shared/data/sgt-expert)");
        return;
    };
    let rb = default_rulebase();
    let tiers = RuleTiers::new(&rb);
    let with_rules = Layers {
        rules: Some(&tiers),
        methods: true,
        budget: Budget::unlimited(),
    };
    for (name, layers) in [("rules", with_rules), ("no_rules", Layers::METHODS_ONLY)] {
        eprintln!(
            "solve/sgt-expert/{name}: {} of {} fields solved",
            solve_all(&fields, layers),
            fields.len()
        );
    }

    let mut group = c.benchmark_group("solve");
    // One pass is tens of milliseconds: equal-sized samples, not criterion's
    // linearly growing ones, keep the run short.
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    group.bench_function("sgt-expert/rules", |b| {
        b.iter(|| solve_all(black_box(&fields), with_rules))
    });
    group.bench_function("sgt-expert/no_rules", |b| {
        b.iter(|| solve_all(black_box(&fields), Layers::METHODS_ONLY))
    });
    group.finish();
}

criterion_group!(benches, rules_benches, probabilities_benches, solve_benches);
criterion_main!(benches);
