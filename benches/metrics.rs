//! Board metrics benchmarks (criterion): one pass over 10,000 random
//! expert layouts (16 × 30, 99 mines uniform over the board, seeded; the
//! layouts and their numbers are built once, not timed).
//!
//! ```text
//! cargo bench --bench metrics
//! ```
//!
//! - `metrics/units`: `Units::new` — 3BV, openings, islands and the count
//!   of each number;
//! - `metrics/zini`: `zini`, the greedy ZiNi with its clicks (it computes
//!   its own `Units`);
//! - `metrics/all`: `Metrics::of`, everything `sapper metrics` prints.
//!
//! Each is one thread: the time reported is the whole pass, so 10,000
//! boards in under a second is a figure under 1 s.

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode};
use sapper_engine::game::{game_rng, Level};
use sapper_engine::metrics::{zini, Metrics, Units};
use sapper_engine::Field;
use std::time::Duration;

const BOARDS: u64 = 10_000;

fn expert_fields() -> Vec<Field> {
    let level = Level::EXPERT;
    let n = level.grid().len();
    (0..BOARDS)
        .map(|k| {
            let mut rng = game_rng(36, k);
            let mut mine = vec![false; n];
            for i in rand::seq::index::sample(&mut rng, n, level.mines as usize) {
                mine[i] = true;
            }
            Field::from_mines(level.grid(), mine, vec![false; n])
        })
        .collect()
}

fn metrics_benches(c: &mut Criterion) {
    let fields = expert_fields();
    let mut group = c.benchmark_group("metrics");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("units", |b| {
        b.iter(|| {
            fields
                .iter()
                .map(|f| Units::new(black_box(f)).bbbv())
                .sum::<u32>()
        })
    });
    group.bench_function("zini", |b| {
        b.iter(|| {
            fields
                .iter()
                .map(|f| zini(black_box(f)).len())
                .sum::<usize>()
        })
    });
    group.bench_function("all", |b| {
        b.iter(|| {
            fields
                .iter()
                .map(|f| Metrics::of(black_box(f)).zini)
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group!(benches, metrics_benches);
criterion_main!(benches);
