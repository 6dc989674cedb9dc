//! Reviews of real games (`sapper_engine::review`), against ms_toollib and
//! against the engine's own oracles: the board and game metrics equal
//! ms_toollib 1.5.20's on every replay it reads (recorded in
//! `tests/data/replays/expected.json`); every click judged safe is proven
//! safe by the four methods alone, without the rules; every guess's
//! probability is the independent count's of the probability tests.

use crate::probabilities::backtracking;
use crate::util::{repo, sapper};
use sapper_engine::formats::replay::read_replay;
use sapper_engine::review::{MoveKind, Review, Verdict, Why};
use sapper_engine::{Board, Cell, Engine, Rules, Value};
use serde_json::Value as Json;
use std::sync::OnceLock;

/// Every replay ms_toollib reads, with what it read.
fn by_ms_toollib() -> Vec<(String, Json)> {
    static EXPECTED: OnceLock<Json> = OnceLock::new();
    let expected = EXPECTED.get_or_init(|| {
        let text = std::fs::read_to_string(repo().join("tests/data/replays/expected.json"))
            .expect("tests/data/replays/expected.json");
        serde_json::from_str(&text).expect("JSON")
    });
    expected["files"]
        .as_object()
        .expect("files")
        .iter()
        .filter(|(_, v)| v.get("bbbv").is_some())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn review(engine: &Engine, rel: &str) -> Review {
    let path = repo().join("tests/data/replays").join(rel);
    let replay = read_replay(&path).unwrap_or_else(|e| panic!("{e}"));
    engine
        .review(&replay)
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Within a relative 1e-9 (ms_toollib's floats are computed from the same
/// integers in another order), or both not finite.
fn close(ours: f64, theirs: &Json) -> bool {
    match theirs.as_f64() {
        Some(t) if ours.is_finite() => (ours - t).abs() <= 1e-9 * t.abs().max(1.0),
        Some(t) => !t.is_finite(),
        None => !ours.is_finite(),
    }
}

#[test]
fn every_real_game_has_ms_toollibs_board_and_game_metrics() {
    let engine = Engine::new().unwrap();
    let files = by_ms_toollib();
    assert!(files.len() >= 40, "{}", files.len());
    for (rel, t) in &files {
        let r = review(&engine, rel);
        let m = &r.metrics;
        let ints = [
            ("bbbv", u64::from(m.bbbv)),
            ("openings", u64::from(m.openings)),
            ("islands", u64::from(m.islands)),
            ("bbbv_solved", u64::from(r.bbbv_solved)),
            ("left", u64::from(r.clicks.left)),
            ("right", u64::from(r.clicks.right)),
            ("double", u64::from(r.clicks.double)),
            ("cl", u64::from(r.clicks.cl)),
            ("ce", u64::from(r.clicks.ce)),
            ("rtime_ms", r.time_ms),
        ];
        for (key, ours) in ints {
            assert_eq!(Some(ours), t[key].as_u64(), "{rel}: {key}");
        }
        assert_eq!(Some(r.won), t["won"].as_bool(), "{rel}: won");
        let floats = [
            ("bbbv_per_s", r.bbbv_per_s()),
            ("ioe", r.ioe()),
            ("correctness", r.correctness()),
            ("throughput", r.throughput()),
            ("rqp", r.rqp()),
            ("stnb", r.stnb().unwrap_or(0.0)),
        ];
        for (key, ours) in floats {
            assert!(close(ours, &t[key]), "{rel}: {key} {ours} vs {}", t[key]);
        }
    }
}

/// The board a move was judged on: the player's view, flags as closed.
fn view(position: &sapper_engine::Position) -> sapper_engine::Position {
    let mut view = position.clone();
    for c in &mut view.cells {
        if *c == Cell::Mine {
            *c = Cell::Unknown;
        }
    }
    view
}

/// The cells a judged move opens on its view.
fn opened(j: &sapper_engine::review::JudgedMove) -> Vec<u32> {
    let grid = j.position.grid;
    let cell = grid.index(j.cell.row, j.cell.col);
    match j.kind {
        MoveKind::Open => vec![cell],
        MoveKind::Chord => grid
            .neighbours(cell)
            .iter()
            .copied()
            .filter(|&n| j.position.cells[n as usize] == Cell::Unknown)
            .collect(),
        _ => Vec::new(),
    }
}

#[test]
fn every_click_judged_safe_is_proven_safe_by_the_methods_alone() {
    let engine = Engine::new().unwrap();
    let methods = Engine::with_rules(Rules::None).unwrap();
    let mut checked = 0;
    for (rel, _) in by_ms_toollib() {
        let r = review(&engine, &rel);
        for j in &r.verdicts.moves {
            let proven = match (j.verdict, j.why) {
                (Verdict::Safe, Some(Why::Proven(_))) => Value::Safe,
                (Verdict::ProvenMine, _) => Value::Mine,
                _ => continue,
            };
            let analysis = methods.analyse(&view(&j.position)).unwrap();
            let cells = if proven == Value::Mine {
                vec![j.position.grid.index(j.cell.row, j.cell.col)]
            } else {
                opened(j)
            };
            for c in cells {
                assert!(
                    analysis
                        .deductions
                        .iter()
                        .any(|d| d.cell == c && d.value == proven),
                    "{rel}: {} at {} is not proven {proven} by the methods",
                    j.kind.name(),
                    j.cell
                );
                checked += 1;
            }
            if let Some(proof) = &j.proof {
                assert!(!proof.foci.is_empty() && proof.foci.len() <= 2, "{rel}");
            }
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn every_guess_has_the_independent_counts_probability() {
    let engine = Engine::new().unwrap();
    let (mut checked, mut counted) = (0, 0);
    for (rel, _) in by_ms_toollib() {
        let r = review(&engine, &rel);
        let (mut risk, mut luck) = (0.0, 1.0);
        for j in &r.verdicts.moves {
            if !matches!(j.verdict, Verdict::Guess | Verdict::Lost) || j.p_mine == 1.0 {
                continue;
            }
            // P(every opened cell safe), one cell at a time given the
            // ones before: each factor from the referee.
            let mut board = Board::from_position(&view(&j.position));
            let mut all_safe = 1.0;
            for c in opened(j) {
                let p_c = match backtracking(&board, 5_000_000) {
                    Some(p) => p.iter().find(|(x, _)| *x == c).map_or(0.0, |(_, p)| *p),
                    // Too wide for the referee: the exact layout counts,
                    // with the cell a mine and in all, in big integers.
                    None => {
                        counted += 1;
                        exact_share(&engine, &board, c)
                    }
                };
                all_safe *= 1.0 - p_c;
                board.set(c, Cell::Safe);
            }
            let exact = 1.0 - all_safe;
            risk_checked(&mut risk, &mut luck, j.p_mine);
            assert!(
                (exact - j.p_mine).abs() <= 1e-12,
                "{rel}: {} at {}: {} vs the referee's {exact}",
                j.kind.name(),
                j.cell,
                j.p_mine
            );
            checked += 1;
        }
        let _ = (risk, luck);
    }
    assert!(
        checked > 100,
        "{checked} checked ({counted} by the layout counts)"
    );
}

/// The share of `board`'s layouts with a mine on `cell`: two exact big
/// integer counts (the one with the cell a mine as a flag) divided.
fn exact_share(engine: &Engine, board: &Board, cell: u32) -> f64 {
    let mut counter = engine.counter();
    counter.compute(board, None).unwrap();
    let all = counter.layouts().unwrap();
    let mut with = board.clone();
    with.set(cell, Cell::Mine);
    let mine = match counter.compute(&with, None) {
        Ok(_) => counter.layouts().unwrap(),
        Err(_) => return 0.0,
    };
    // 64 significant bits of each are plenty for 1e-12.
    let shift = (all.bits() as i64 - 64).max(0) as usize;
    let (a, b) = (&mine >> shift, &all >> shift);
    a.to_string().parse::<f64>().unwrap() / b.to_string().parse::<f64>().unwrap()
}

/// Adds one guess to a game's running risk and luck.
fn risk_checked(risk: &mut f64, luck: &mut f64, p: f64) {
    *risk += p;
    *luck *= 1.0 - p;
}

/// The game's risk and luck are the sums and products of its guesses'.
#[test]
fn a_games_risk_and_luck_add_up_its_guesses() {
    let engine = Engine::new().unwrap();
    for (rel, _) in by_ms_toollib() {
        let r = review(&engine, &rel);
        let (mut risk, mut luck, mut least, mut guesses, mut needless) = (0.0, 1.0, 0.0, 0, 0);
        for j in &r.verdicts.moves {
            if matches!(j.verdict, Verdict::Guess | Verdict::Lost) && j.p_mine < 1.0 {
                risk_checked(&mut risk, &mut luck, j.p_mine);
                least += j.best_p_mine.unwrap();
                guesses += 1;
                needless += u32::from(j.best_p_mine == Some(0.0));
                assert_eq!(j.needless, j.best_p_mine == Some(0.0), "{rel}");
            }
        }
        let v = &r.verdicts;
        assert_eq!(
            (v.guesses, v.needless_guesses),
            (guesses, needless),
            "{rel}"
        );
        assert!(
            (risk - v.risk).abs() < 1e-9 && (least - v.least_risk).abs() < 1e-9,
            "{rel}"
        );
        assert!((luck - v.luck).abs() < 1e-9, "{rel}");
    }
}

#[test]
fn the_review_command_prints_a_verdict_for_every_click() {
    let out = sapper([
        "review",
        "--json",
        "tests/data/replays/rmv/wmp_exp.rmv",
        "tests/data/replays/rmv/nothing.rmv",
    ]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("nothing.rmv"), "{}", out.stderr);
    let lines: Vec<Json> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let game = &lines[0];
    // The keys in the order written (the test's JSON sorts them).
    let first_line = out.stdout.lines().next().unwrap();
    let at = |key: &str| {
        first_line
            .find(&format!("\"{key}\":"))
            .unwrap_or(usize::MAX)
    };
    let fixed = [
        "file",
        "rows",
        "cols",
        "mines",
        "won",
        "time",
        "bbbv",
        "bbbv_solved",
        "bbbv_per_s",
        "openings",
        "islands",
        "left",
        "right",
        "double",
        "cl",
        "ce",
        "ioe",
        "guesses",
        "needless_guesses",
        "luck",
    ];
    for pair in fixed.windows(2) {
        assert!(at(pair[0]) < at(pair[1]), "{pair:?} out of order");
    }
    assert!(
        at("luck") < at("clicks") && at("clicks") < at("\"t"),
        "clicks last"
    );
    let clicks = game["clicks"].as_array().unwrap();
    assert!(clicks.len() > 100);
    for click in clicks {
        for key in [
            "t",
            "action",
            "cell",
            "position",
            "verdict",
            "p_mine",
            "best_p_mine",
            "needless",
            "source",
        ] {
            assert!(click.get(key).is_some(), "{key}: {click}");
        }
        assert_eq!(click["position"].as_array().unwrap().len(), 16);
    }
    assert!(lines[1]["error"].as_str().unwrap().contains("nothing.rmv"));
    let text = sapper(["review", "tests/data/replays/rmv/wmp_exp.rmv"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("first click"), "{}", text.stdout);
    assert!(text.stdout.contains("3BV 106"), "{}", text.stdout);
}
