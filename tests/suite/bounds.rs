//! Every input surface is bounded, and flags and documents agree with the
//! binary: standard input and engine lines under a cap (checked under a
//! hard address-space limit, so unbounded growth would crash instead of
//! answering), counts streamed, search limits capped, flags that do not
//! combine refused at parse time, outputs opened before the work, and the
//! exact count's and the complete analysis's heap within their memory
//! budget (measured by the test binary's allocator).

use crate::util::heap::Peak;
use crate::util::{mines_around, repo, sapper, sapper_command, sapper_with, Rng, TempDir};
use sapper_engine::budget::{Budget, Limit};
use sapper_engine::methods::{hypotheses, MethodError};
use sapper_engine::probabilities::{Probabilities, ProbabilityError};
use sapper_engine::{Board, Cell, Grid};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `sapper ARGS` under a 1 GiB address-space limit (`ulimit -v`), its
/// standard input fed with `bytes` zero or '?' bytes and closed; returns
/// (exit status, stdout, stderr). A reader that held its input would run
/// out of memory and abort instead of refusing it.
fn under_memory_limit(args: &str, fill: u8, bytes: usize) -> (i32, String, String) {
    let binary = env!("CARGO_BIN_EXE_sapper");
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit -v 1048576; exec '{binary}' {args}"))
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![fill; 1 << 16];
        let mut left = bytes;
        while left > 0 {
            let n = left.min(chunk.len());
            if stdin.write_all(&chunk[..n]).is_err() {
                break; // the reader stopped reading: fine
            }
            left -= n;
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn standard_input_is_refused_past_the_file_cap_in_bounded_memory() {
    // 80 MB of closed cells on one line: more than the 64 MB cap.
    let (code, _, err) = under_memory_limit("analyse -", b'?', 80 << 20);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("<stdin>: is larger than 64 MB"), "{err}");
}

#[test]
fn positions_are_capped_at_a_million_cells() {
    let dir = TempDir::new("bounds-cells");
    let wide = dir.join("wide.txt");
    std::fs::write(&wide, format!("{}\n", "?".repeat(1_000_001))).unwrap();
    sapper(["analyse", wide.to_str().unwrap()])
        .expect_code(1)
        .stderr_has("more than 1000000 cells");
    // Any shape within the cap is a position: a band of 10 × 2000.
    let band = dir.join("band.txt");
    std::fs::write(&band, format!("{}\n", ".".repeat(2000)).repeat(10)).unwrap();
    sapper(["analyse", band.to_str().unwrap()]).ok();
}

#[test]
fn an_engine_line_past_its_cap_is_answered_at_once_and_skipped_in_bounded_memory() {
    // 10 MB of zeros and no line end: one answer, bounded memory.
    let (code, out, err) = under_memory_limit("engine", 0, 10 << 20);
    assert_eq!(code, 0, "{err}");
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), 1, "{out}");
    assert!(answers[0].contains("line 1: longer than 4 MB"), "{out}");
}

#[test]
fn the_engine_answers_every_line_with_cells_only_and_cells_from_zero() {
    let lines = [
        r#"{"rows": ["??1.", "?21.", "11.."], "mines": 2}"#,
        "",
        r#"{"rows": ["mines 5", "???"]}"#,
        r##"{"rows": ["# hi"]}"##,
        r#"{"rows": ["???\n???"]}"#,
        r#"{"rows": ["???", ""]}"#,
        r#"{"rows": ["?2?", "?9?"]}"#,
        r#"{"rows": ["??"], "mines": 5000000000}"#,
        r#"{"rows": ["????"], "density": 0.5}"#,
        r#"{"rows": ["111", "1?1", "111"], "mines": 1}"#,
    ];
    let input = lines.join("\n") + "\n";
    let run = sapper_with(&repo(), ["engine"], Some(&input), 0);
    run.ok();
    let answers: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        answers.len(),
        lines.len(),
        "one answer a line:\n{}",
        run.stdout
    );
    // The README's and --help's example: (0,0) safe, two mines.
    assert_eq!(
        answers[0],
        r#"{"open":[[0,0]],"flag":[[0,1],[1,0]],"guess":false}"#
    );
    assert!(answers[1].contains("line 2: blank line"), "{}", answers[1]);
    assert!(answers[2].contains("line 3: row 0, column 0: unexpected `m`"));
    assert!(answers[3].contains("line 4: row 0, column 0: unexpected `#`"));
    assert!(answers[4].contains("line 5: row 0, column 3: unexpected"));
    assert!(answers[5].contains("line 6: row 1, column 0: row 1 has 0 cells"));
    assert!(answers[6].contains("line 7: row 1, column 1: unexpected `9`"));
    assert!(
        answers[7].contains("from 0 to 4294967295"),
        "{}",
        answers[7]
    );
    assert!(answers[8].contains(r#""guess":true"#), "{}", answers[8]);
    assert!(
        answers[9].contains("no safe cell is left to open: every closed cell is a mine"),
        "{}",
        answers[9]
    );
    for a in &answers {
        assert!(!a.contains("no mine layout fits: no mine"), "{a}");
    }
}

/// The first line of stdout of a run, then the run killed.
fn first_line_then_kill(mut child: Child) -> (String, Duration) {
    let t0 = Instant::now();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let waited = t0.elapsed();
    child.kill().unwrap();
    child.wait().unwrap();
    (line, waited)
}

#[test]
fn huge_counts_stream_their_first_board_at_once() {
    for count in ["1000000000", "18446744073709551615"] {
        let child = sapper_command()
            .args(["generate", "--level", "beginner", "--count", count])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let (line, waited) = first_line_then_kill(child);
        assert!(
            line.starts_with("{\"rows\":9,\"cols\":9,"),
            "{count}: {line}"
        );
        assert!(waited < Duration::from_secs(20), "{count}: {waited:?}");
    }
    sapper(["generate", "--count", "-1"])
        .expect_code(2)
        .stderr_has("`-1`: expected a whole number of at least 1");
    sapper(["play", "--games", "0"])
        .expect_code(2)
        .stderr_has("`0`: expected a whole number of at least 1");
}

#[test]
fn games_are_written_as_they_end_and_a_huge_run_keeps_flat_memory() {
    // A billion games under 1 GiB of address space for a second, on one
    // thread: the records are not collected (they would need ~40 GB).
    let binary = env!("CARGO_BIN_EXE_sapper");
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1048576; exec '{binary}' play --level beginner --games 1000000000"
        ))
        .env("RAYON_NUM_THREADS", "1")
        .current_dir(repo())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(1));
    assert!(child.try_wait().unwrap().is_none(), "the run ended early");
    child.kill().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    child.wait().unwrap();
    assert!(!err.contains("memory allocation"), "{err}");

    let dir = TempDir::new("bounds-games");
    let file = dir.join("games.jsonl");
    let run = sapper([
        "play",
        "--level",
        "beginner",
        "--games",
        "300",
        "--json",
        "--games-json",
        file.to_str().unwrap(),
    ]);
    run.ok();
    let lines = std::fs::read_to_string(&file).unwrap();
    let indices: Vec<u64> = lines
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["index"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(indices, (0..300).collect::<Vec<_>>());
}

#[test]
fn outputs_are_opened_before_the_work_and_errors_name_the_users_path() {
    let dir = TempDir::new("bounds-outputs");
    // A parent that is a file: nothing can be created under it.
    let file = dir.join("plain");
    std::fs::write(&file, "x").unwrap();
    let target = file.join("out");
    let t0 = Instant::now();
    let run = sapper([
        "generate",
        "--count",
        "3000",
        "-o",
        target.to_str().unwrap(),
    ]);
    run.expect_code(2).stderr_has("plain/out");
    assert!(!run.stderr.contains(".tmp-"), "{}", run.stderr);
    assert!(t0.elapsed() < Duration::from_secs(5));
    let run = sapper([
        "play",
        "--games",
        "20000",
        "--games-json",
        target.to_str().unwrap(),
    ]);
    run.expect_code(2).stderr_has("plain/out");
    assert!(t0.elapsed() < Duration::from_secs(10));
    // Nothing was left behind.
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 1);
}

#[test]
fn search_limits_are_capped_and_flags_that_do_not_combine_are_refused_at_parse_time() {
    sapper(["play", "--endgame-layouts", "18446744073709551615"])
        .expect_code(2)
        .stderr_has("--endgame-layouts");
    sapper([
        "analyse",
        "samples/positions/guess.txt",
        "--probabilities",
        "--deductions",
        "--only",
        "rules",
    ])
    .expect_code(2)
    .stderr_has("'--probabilities' cannot be used with '--only <ONLY>'");
    sapper(["rules", "index", "default"]).expect_code(2);
}

#[test]
fn bench_reads_fields_as_solve_does_and_goes_on_past_an_unreadable_one() {
    let dir = TempDir::new("bounds-bench");
    let corpus = dir.join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    let copy = |from: &str, to: &str| {
        let target = corpus.join(to);
        std::fs::create_dir(&target).unwrap();
        for file in ["field_info.csv", "status.csv", "values.csv"] {
            std::fs::copy(repo().join(from).join(file), target.join(file)).unwrap();
        }
    };
    copy("samples/fields/field_1", "a");
    copy("samples/fields/field_2", "c");
    std::fs::create_dir(corpus.join("b")).unwrap();
    std::fs::write(corpus.join("b/field_info.csv"), "1,1,0\n").unwrap();
    sapper(["bench", corpus.to_str().unwrap()])
        .expect_code(1)
        .stderr_has("b/status.csv: file not found")
        .stdout_has("2 fields, 2 solved");
    // MBF boards, as solve reads them (with their starts file).
    let boards = dir.join("boards");
    sapper([
        "generate",
        "--count",
        "3",
        "--format",
        "mbf",
        "-o",
        boards.to_str().unwrap(),
    ])
    .ok();
    sapper(["bench", boards.to_str().unwrap()])
        .ok()
        .stdout_has("3 fields, 3 solved");
}

/// A board whose numbers lie on every other cell of every other row of an
/// `h × w` grid, from a random layout with a mine on one closed cell in
/// three, its total given: one frontier component as wide as the board,
/// whose exact count needs layers that grow with the narrower side.
fn lattice(h: usize, w: usize, seed: u64) -> Board {
    let mut rng = Rng::new(seed);
    let grid = Grid::new(h, w);
    let open = |i: u32| {
        let (r, c) = grid.rc(i);
        r % 2 == 1 && c % 2 == 1
    };
    let mines: Vec<bool> = (0..grid.len() as u32)
        .map(|i| !open(i) && rng.below(3) == 0)
        .collect();
    let cells = (0..grid.len() as u32)
        .map(|i| match open(i) {
            true => Cell::Revealed(mines_around(grid, &mines, i)),
            false => Cell::Unknown,
        })
        .collect();
    let total = mines.iter().filter(|&&m| m).count() as u32;
    Board::new(grid, cells, Some(total))
}

/// Counting the layouts of a frontier as wide as the board keeps within
/// the memory budget: the most heap the count holds at once, counted by
/// this binary's allocator ([`crate::util::heap`], a reallocation that
/// grows counted as both its blocks), stays within the budget, under
/// budgets from half to more than what the count needs unbounded. The
/// programmes' buffers and their plans' steps (as many as the cells
/// times the component's width, on the largest board) are checked before
/// they grow; what is not is the slack allowed: what the count holds
/// before its first check (the position's equations and components, which
/// grow with the board), measured under a budget of one byte, and a
/// twentieth of the budget for what grows between two checks (the lookup
/// table below a thousand states, the groups' bookkeeping). A count that
/// fits gives what the unbounded one gives, and one that does not is
/// refused for memory. The smallest board is counted packed when the
/// budget allows, and by the general programme under the tighter budgets.
#[test]
fn counting_keeps_within_its_memory_budget() {
    let (mut fitted, mut refused, mut packed) = (0, 0, 0);
    for (h, w, seed) in [
        (9, 9, 7),
        (15, 15, 8),
        (16, 16, 7),
        (9, 110, 8),
        (5, 190, 8),
        (19, 19, 7),
        (151, 151, 7),
    ] {
        let board = lattice(h, w, seed);
        // What is held before the first check: the slack, with a twentieth
        // of the budget for what grows between two checks.
        let peak = Peak::start();
        let _ = Probabilities::new().compute(&board, None, &Budget::new(None, 1));
        let before = peak.bytes();
        let slack = |budget: usize| before + budget / 20;
        let mut whole = Probabilities::new();
        let peak = Peak::start();
        let unbounded = whole.compute(&board, None, &Budget::new(None, 64 << 20));
        let need = peak.bytes();
        packed += whole.counted_packed() as usize;
        let fractions: &[f64] = match unbounded {
            Ok(()) => &[0.5, 0.9, 0.95, 1.0, 1.2],
            // Beyond 64 MB: the smaller budgets alone.
            Err(_) => &[0.05, 0.2, 0.6],
        };
        for &f in fractions {
            let budget = (need as f64 * f) as usize;
            let mut p = Probabilities::new();
            let peak = Peak::start();
            let result = p.compute(&board, None, &Budget::new(None, budget));
            let kept = peak.bytes();
            assert!(
                kept <= budget + slack(budget),
                "{h}×{w} (seed {seed}) under {budget} bytes held {kept}"
            );
            match result {
                Ok(()) => {
                    fitted += 1;
                    assert!(unbounded.is_ok());
                    let bits = |p: &Probabilities| {
                        p.per_cell().iter().map(|x| x.to_bits()).collect::<Vec<_>>()
                    };
                    assert_eq!(bits(&p), bits(&whole), "{h}×{w} under {budget}");
                }
                Err(ProbabilityError::OverBudget(e)) => {
                    refused += 1;
                    assert!(matches!(e.limit, Limit::Memory(_)), "{e}");
                }
                Err(e) => panic!("{h}×{w} under {budget}: {e}"),
            }
        }
    }
    assert!(
        fitted >= 4 && refused >= 4,
        "{fitted} fitted, {refused} refused"
    );
    assert!(packed >= 1, "no board was counted packed");
}

/// The complete analysis (hypotheses) keeps within the memory budget as
/// the count does, on lattices its programme decides (not its SAT path):
/// the most heap it holds at once stays within the budget, and what it
/// finds under a budget that fits is what it finds unbounded.
#[test]
fn hypotheses_keep_within_their_memory_budget() {
    let (mut fitted, mut refused) = (0, 0);
    for (h, w, seed) in [(15, 30, 7), (15, 30, 8), (11, 200, 7), (13, 150, 8)] {
        let board = lattice(h, w, seed);
        let limits = hypotheses::PROGRAMME_LIMITS;
        // What is held before the first check, as for the count.
        let peak = Peak::start();
        let _ = hypotheses::find_within(&board, &Budget::new(None, 1), limits, &mut Vec::new());
        let before = peak.bytes();
        let slack = |budget: usize| before + budget / 20;
        let (mut whole, peak) = (Vec::new(), Peak::start());
        let profile = hypotheses::find_within(&board, &Budget::unlimited(), limits, &mut whole)
            .unwrap_or_else(|e| panic!("{h}×{w}: {e}"));
        let need = peak.bytes();
        assert!(!profile.sat, "{h}×{w} (seed {seed}) took the SAT path");
        for f in [0.3, 0.5, 0.8, 0.95, 1.0, 1.2] {
            let budget = (need as f64 * f) as usize;
            let (mut found, peak) = (Vec::new(), Peak::start());
            let result =
                hypotheses::find_within(&board, &Budget::new(None, budget), limits, &mut found);
            let kept = peak.bytes();
            assert!(
                kept <= budget + slack(budget),
                "{h}×{w} (seed {seed}) under {budget} bytes held {kept}"
            );
            match result {
                Ok(_) => {
                    fitted += 1;
                    assert_eq!(found, whole, "{h}×{w} under {budget}");
                }
                Err(MethodError::OverBudget(e)) => {
                    refused += 1;
                    assert!(matches!(e.limit, Limit::Memory(_)), "{e}");
                }
                Err(e) => panic!("{h}×{w} under {budget}: {e}"),
            }
        }
    }
    assert!(
        fitted >= 4 && refused >= 4,
        "{fitted} fitted, {refused} refused"
    );
}

/// The complete analysis's SAT path (taken here on lattices the
/// programme could decide, its limits lowered) checks an estimate of the
/// solver's clauses, learnt ones included, against the memory budget
/// before it builds them; the most heap it then holds stays within that
/// estimate, plus what is held before the check (the equations and the
/// orders), measured under a budget of one byte.
#[test]
fn the_sat_path_keeps_within_its_memory_estimate() {
    let limits = hypotheses::ProgrammeLimits {
        widest_layer: 1.0,
        states: 1.0,
    };
    for (h, w, seed) in [
        (9, 9, 7),
        (15, 15, 7),
        (21, 21, 7),
        (31, 31, 7),
        (15, 120, 7),
    ] {
        let board = lattice(h, w, seed);
        let peak = Peak::start();
        let refused =
            hypotheses::find_within(&board, &Budget::new(None, 1), limits, &mut Vec::new());
        let before = peak.bytes();
        let estimate = match refused {
            Err(MethodError::OverBudget(e)) => e.estimate.expect("a memory refusal"),
            other => panic!("{h}×{w} under one byte: {:?}", other.err()),
        };
        let peak = Peak::start();
        let profile =
            hypotheses::find_within(&board, &Budget::unlimited(), limits, &mut Vec::new())
                .unwrap_or_else(|e| panic!("{h}×{w}: {e}"));
        let held = peak.bytes();
        assert!(profile.sat, "{h}×{w} did not take the SAT path");
        assert!(
            held <= estimate + before,
            "{h}×{w} (seed {seed}) held {held} bytes, estimated {estimate} (+{before} before)"
        );
    }
}

/// Ordering a frontier component as wide as a large board (choosing and
/// estimating its elimination orders) takes seconds; the count and the
/// complete analysis read the clock while they order it, so under a
/// budget of a few hundredths of a second each is refused for time,
/// naming the ordering, soon after its deadline, not once the order is
/// built.
#[test]
fn ordering_a_component_as_wide_as_the_board_keeps_to_the_deadline() {
    let board = lattice(401, 401, 7);
    let secs = 0.05;
    let budget = || Budget::new(Some(Duration::from_secs_f64(secs)), 1 << 30);
    let late = |t0: Instant, what: &str| {
        let took = t0.elapsed().as_secs_f64();
        assert!(took < secs + 1.0, "{what} gave up after {took:.2} s");
    };

    let t0 = Instant::now();
    match Probabilities::new().compute(&board, None, &budget()) {
        Err(ProbabilityError::OverBudget(e)) => {
            late(t0, "the count");
            assert!(matches!(e.limit, Limit::Time(_)), "{e}");
            assert!(e.what.starts_with("ordering the frontier component"), "{e}");
        }
        other => panic!("the count was not refused for time: {:?}", other.err()),
    }

    let t0 = Instant::now();
    match hypotheses::find_within(
        &board,
        &budget(),
        hypotheses::PROGRAMME_LIMITS,
        &mut Vec::new(),
    ) {
        Err(MethodError::OverBudget(e)) => {
            late(t0, "the complete analysis");
            assert!(matches!(e.limit, Limit::Time(_)), "{e}");
            assert!(e.what.starts_with("ordering the frontier component"), "{e}");
        }
        other => panic!("the analysis was not refused for time: {:?}", other.err()),
    }
}
