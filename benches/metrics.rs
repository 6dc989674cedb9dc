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
//!
//! And reviews (`Engine::review`, the replay already read; one call, the
//! engine's thread pool as configured):
//!
//! - `review/expert_rmv`: the real expert game
//!   `tests/data/replays/rmv/wmp_exp.rmv` (144 moves, 106 3BV);
//! - `review/expert_player`: an expert game of sapper's player, recorded
//!   (`Engine::play_each_recorded`, seed 36, the first game of at least
//!   four guesses).

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode};
use sapper_engine::formats::replay::read_replay;
use sapper_engine::game::{game_rng, Level};
use sapper_engine::metrics::{zini, Metrics, Units};
use sapper_engine::{Engine, Field, PlaySettings};
use std::ops::ControlFlow;
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

fn review_benches(c: &mut Criterion) {
    let engine = Engine::new().expect("the embedded rulebase");
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/replays/rmv/wmp_exp.rmv"
    );
    let human = read_replay(std::path::Path::new(path)).expect("the expert replay");
    let mut settings = PlaySettings::new(Level::EXPERT);
    settings.games = 64;
    settings.seed = 36;
    let mut played = None;
    engine
        .play_each_recorded(&settings, &|_| {}, &mut |record, replay| {
            if record.guesses >= 4 {
                played = Some(replay.clone());
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        })
        .expect("games");
    let played = played.expect("a game with four guesses in 64");
    let mut group = c.benchmark_group("review");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for (name, replay) in [("expert_rmv", &human), ("expert_player", &played)] {
        group.bench_function(name, |b| {
            b.iter(|| engine.review(black_box(replay)).expect("a review"))
        });
    }
    group.finish();
}

criterion_group!(benches, metrics_benches, review_benches);
criterion_main!(benches);
