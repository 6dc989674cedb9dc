//! `sapper generate`: every board it writes is no-guess (checked by `sapper
//! solve` and, independently, by playing it with exact probabilities), the
//! uniform method is uniform (a chi-square test that a biased sampler
//! fails), and the output depends only on the seed.

use crate::util::{repo, sapper, sapper_with, TempDir};
use sapper_engine::budget::Budget;
use sapper_engine::formats::thesis::{find_fields, read_field};
use sapper_engine::game::{FirstClick, Game, Level, Opened};
use sapper_engine::generate::{field_at_start, generate, solve_from_start, Request, Sampling};
use sapper_engine::methods::MethodTable;
use sapper_engine::probabilities::Probabilities;
use std::collections::HashMap;

/// Plays `game` from `start` opening only cells whose mine probability is
/// exactly 0 (the counting engine, not the solver that generated the
/// board); true if every safe cell gets opened without a guess.
fn wins_by_counting(mut game: Game, start: u32) -> bool {
    let mut probabilities = Probabilities::new();
    assert_ne!(game.open(start), Opened::Mine, "the start is safe");
    while !game.is_won() {
        let position = game.position();
        probabilities
            .compute(&position, None, &Budget::unlimited())
            .expect("a position from a real board has layouts");
        let safe: Vec<u32> = probabilities
            .closed_cells()
            .iter()
            .copied()
            .filter(|&c| probabilities.probability(c) == Some(0.0))
            .collect();
        if safe.is_empty() {
            return false;
        }
        for c in safe {
            assert_ne!(game.open(c), Opened::Mine, "a probability-0 cell is safe");
        }
    }
    true
}

#[test]
fn every_generated_board_is_solved_by_sapper_and_by_counting() {
    let tmp = TempDir::new("generate-levels");
    for level in ["beginner", "intermediate", "expert"] {
        for method in ["uniform", "fast"] {
            let dir = tmp.join(format!("{level}-{method}"));
            let dir_s = dir.to_str().unwrap();
            sapper([
                "generate", "--level", level, "--method", method, "--count", "6", "--seed", "3",
                "-o", dir_s,
            ])
            .ok()
            .stderr_has("6 no-guess boards");
            sapper(["solve", dir_s, "--check-expected"])
                .ok()
                .stderr_has("6 of 6 fields as expected");
            let level = Level::named(level).unwrap();
            let start = FirstClick::Opening.default_start(level);
            for r in find_fields(&dir).unwrap() {
                let field = read_field(&r.dir).unwrap();
                assert_eq!(field.total_mines, level.mines);
                let start = field.grid.index(start.0, start.1);
                assert!(field.open_at_start[start as usize]);
                let game = Game::new(field.grid, field.mine.clone());
                assert!(wins_by_counting(game, start), "{}", r.dir.display());
            }
        }
    }
}

/// The tiny board of the uniformity test: 5×5, 4 mines, opening at the
/// centre: the 16 cells around the 3×3 opening hold the mines, C(16, 4) =
/// 1,820 layouts, of which the no-guess ones are listed by solving each.
fn tiny() -> (Level, (usize, usize)) {
    (
        Level {
            rows: 5,
            cols: 5,
            mines: 4,
        },
        (2, 2),
    )
}

fn no_guess_layouts() -> Vec<Vec<bool>> {
    let (level, start) = tiny();
    let free: Vec<usize> = (0usize..25)
        .filter(|&i| (i / 5).abs_diff(2) > 1 || (i % 5).abs_diff(2) > 1)
        .collect();
    assert_eq!(free.len(), 16);
    let mut table = MethodTable::default();
    let mut found = Vec::new();
    for bits in 0u32..1 << 16 {
        if bits.count_ones() != 4 {
            continue;
        }
        let mut layout = vec![false; 25];
        for (k, &i) in free.iter().enumerate() {
            layout[i] = bits >> k & 1 == 1;
        }
        let field = field_at_start(level, layout.clone(), start);
        if solve_from_start(&field, None, &mut table).unwrap().solved {
            found.push(layout);
        }
    }
    found
}

/// Chi-square of `counts` against equal frequencies over `cells` outcomes.
fn chi_square(counts: &HashMap<Vec<bool>, u64>, cells: usize, draws: u64) -> f64 {
    let expected = draws as f64 / cells as f64;
    let seen: f64 = counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    seen + (cells - counts.len()) as f64 * expected
}

/// The 0.999 quantile of chi-square with `k` degrees of freedom
/// (Wilson–Hilferty: accurate to a fraction of a percent for k > 30).
fn chi_square_999(k: usize) -> f64 {
    let k = k as f64;
    let z = 3.090_232;
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

fn sample(sampling: Sampling, count: usize) -> Vec<Vec<bool>> {
    let (level, start) = tiny();
    let request = Request {
        level,
        first_click: FirstClick::Opening,
        start,
        sampling,
        seed: 11,
        count,
        max_attempts: 1_000_000,
    };
    generate(&request, None, &Budget::default_limits(), &|_| {})
        .unwrap()
        .fields
        .into_iter()
        .map(|f| f.mine)
        .collect()
}

#[test]
fn uniform_boards_fit_the_uniform_distribution_and_the_test_catches_a_biased_sampler() {
    let all = no_guess_layouts();
    let n = all.len();
    assert!(n > 100 && n < 1820, "{n} no-guess layouts");
    let draws = 30 * n;
    let threshold = chi_square_999(n - 1);
    let count = |boards: Vec<Vec<bool>>| {
        let mut counts: HashMap<Vec<bool>, u64> = HashMap::new();
        for b in boards {
            *counts.entry(b).or_default() += 1;
        }
        counts
    };
    // Boards are the first kept attempts in attempt order: the first
    // `draws` of a longer sample are the sample of `draws`.
    let longer = sample(Sampling::Uniform, 2 * draws);
    let uniform = count(longer[..draws].to_vec());
    assert!(
        uniform.keys().all(|b| all.contains(b)),
        "only no-guess boards"
    );
    let x2 = chi_square(&uniform, n, draws as u64);
    assert!(
        x2 < threshold,
        "uniform: chi-square {x2:.1} ≥ {threshold:.1}"
    );
    // A sampler with a mild bias — it drops every other no-guess board
    // with a mine in the top-left corner — fails the same test.
    let mut corner = 0;
    let biased: Vec<Vec<bool>> = longer
        .into_iter()
        .filter(|b| {
            corner += b[0] as u32;
            !b[0] || corner % 2 == 0
        })
        .take(draws)
        .collect();
    assert_eq!(biased.len(), draws);
    let x2 = chi_square(&count(biased), n, draws as u64);
    assert!(
        x2 > threshold,
        "biased: chi-square {x2:.1} < {threshold:.1}"
    );
    // The repairing method keeps to no-guess boards (its bias is too small
    // to see on this board: few layouts need a repair).
    let fast = count(sample(Sampling::Fast, draws));
    assert!(fast.keys().all(|b| all.contains(b)));
}

#[test]
fn the_boards_depend_on_the_seed_only_not_the_thread_count() {
    for method in ["uniform", "fast"] {
        let args = [
            "generate", "--level", "expert", "--count", "12", "--seed", "5", "--method", method,
        ];
        let one = sapper_with(&repo(), args, None, 1);
        let two = sapper_with(&repo(), args, None, 2);
        one.ok();
        assert_eq!(one.stdout, two.stdout, "{method}");
        assert_eq!(one.stdout.lines().count(), 12);
        let other = sapper_with(
            &repo(),
            ["generate", "--count", "12", "--seed", "6"],
            None,
            2,
        );
        assert_ne!(one.stdout, other.stdout);
    }
}

#[test]
fn mbf_boards_are_written_read_back_and_solved() {
    let tmp = TempDir::new("generate-mbf");
    let dir = tmp.join("boards");
    let dir_s = dir.to_str().unwrap();
    sapper([
        "generate",
        "--level",
        "intermediate",
        "--count",
        "4",
        "--format",
        "mbf",
        "-o",
        dir_s,
    ])
    .ok();
    let board = std::fs::read(dir.join("field_1.mbf")).unwrap();
    assert_eq!(&board[..4], &[16, 16, 0, 40]);
    assert_eq!(board.len(), 4 + 2 * 40);
    sapper(["solve", dir_s])
        .ok()
        .stdout_has("4 fields, 4 solved, 0 stuck");
    // A damaged board: its byte is named, the others still solved, exit 1.
    let mut bad = board.clone();
    bad[4] = 200;
    std::fs::write(dir.join("field_2.mbf"), &bad).unwrap();
    sapper(["solve", dir_s])
        .expect_code(1)
        .stderr_has("field_2.mbf: byte 4: mine 1 at column 200")
        .stdout_has("3 solved");
    // A folder that exists is never written into: the four boards, where
    // play starts on each, and what solving from there gives.
    sapper(["generate", "--count", "1", "-o", dir_s])
        .expect_code(2)
        .stderr_has("already exists");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 6);
}

/// MBF holds the mines only: a generated folder says where play starts
/// (`starts.csv`) and what it gives (`expected.csv`), so boards generated
/// with a safe first click in the corner solve and check without --start.
#[test]
fn mbf_boards_carry_their_start_and_expected_outcome() {
    let tmp = TempDir::new("generate-mbf-start");
    let dir = tmp.join("boards");
    let dir_s = dir.to_str().unwrap();
    sapper([
        "generate",
        "--first-click",
        "safe",
        "--format",
        "mbf",
        "-o",
        dir_s,
        "--count",
        "20",
    ])
    .ok();
    let starts = std::fs::read_to_string(dir.join("starts.csv")).unwrap();
    assert!(
        starts.starts_with("board,row,col\nfield_1.mbf,0,0\n"),
        "{starts}"
    );
    sapper(["solve", dir_s, "--check-expected"])
        .ok()
        .stdout_has("20 fields, 20 solved, 0 stuck")
        .stderr_has("20 of 20 fields as expected");
}

#[test]
fn impossible_requests_are_refused_with_the_reason() {
    sapper(["generate", "--size", "3x3", "--mines", "9"])
        .expect_code(2)
        .stderr_has("do not fit");
    sapper([
        "generate",
        "--size",
        "2x2",
        "--mines",
        "1",
        "--first-click",
        "safe",
        "--max-attempts",
        "500",
    ])
    .expect_code(2)
    .stderr_has("no no-guess board found for board 1");
    sapper(["generate", "--level", "huge"])
        .expect_code(2)
        .stderr_has("expected beginner, intermediate or expert");
    sapper(["generate", "--start", "20,3"])
        .expect_code(2)
        .stderr_has("off the 16×30 board");
    sapper(["generate", "--format", "mbf"])
        .expect_code(2)
        .stderr_has("give -o DIR");
}
