//! Reviews of real games (`sapper_engine::review`), against ms_toollib and
//! against the engine's own oracles: the board and game metrics equal
//! ms_toollib 1.5.20's on every replay it reads (recorded in
//! `tests/data/replays/expected.json`); every click judged safe is proven
//! safe by the four methods alone, without the rules; every guess's
//! probability is the independent count's of the probability tests.

use crate::probabilities::backtracking;
use crate::util::{repo, sapper};
use sapper_engine::formats::replay::{read_replay, Replay};
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
    read_and_review(engine, rel).1
}

/// The replay `rel` of `tests/data/replays` and its review.
fn read_and_review(engine: &Engine, rel: &str) -> (Replay, Review) {
    let path = repo().join("tests/data/replays").join(rel);
    let replay = read_replay(&path).unwrap_or_else(|e| panic!("{e}"));
    let review = engine
        .review(&replay)
        .unwrap_or_else(|e| panic!("{rel}: {e}"));
    (replay, review)
}

/// Every replay ms_toollib reads: its name, its mines and its review.
fn real_reviews(engine: &Engine) -> impl Iterator<Item = (String, Vec<bool>, Review)> + '_ {
    by_ms_toollib().into_iter().map(|(rel, _)| {
        let (replay, review) = read_and_review(engine, &rel);
        (rel, replay.mines, review)
    })
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

/// Checks `proof`, read back from its own text with no engine code, on
/// `position` (the player's view, flags as closed cells) of a game whose
/// mines are `layout`: in every layout of the window's closed cells (`?`,
/// and the proven `S`, `M`) that gives each focus its number beside the
/// known mines (`F`), the `S` cells are safe and the `M` cells mines, and
/// some layout fits; the marked cells are `want` (sorted); the window's
/// numbers are the position's, its known mines and safe cells (`*`) the
/// layout's.
fn check_proof(
    what: &str,
    proof: &sapper_engine::review::Proof,
    position: &sapper_engine::Position,
    layout: &[bool],
    want: &[u32],
) {
    let grid = position.grid;
    let at = |r: usize, c: usize| grid.index(r, c);
    let top = proof
        .foci
        .iter()
        .map(|f| f.row)
        .min()
        .unwrap()
        .saturating_sub(1);
    let left = proof
        .foci
        .iter()
        .map(|f| f.col)
        .min()
        .unwrap()
        .saturating_sub(1);
    let char_at = |r: usize, c: usize| -> char {
        let Some(row) = r.checked_sub(top).and_then(|k| proof.pattern.get(k)) else {
            return ' ';
        };
        c.checked_sub(left)
            .and_then(|k| row.chars().nth(2 * k))
            .unwrap_or(' ')
    };
    let window: Vec<(usize, usize, char)> = (top..top + proof.pattern.len())
        .flat_map(|r| (left..grid.w).map(move |c| (r, c)))
        .map(|(r, c)| (r, c, char_at(r, c)))
        .filter(|&(_, _, ch)| ch != ' ')
        .collect();
    let marked: Vec<u32> = window
        .iter()
        .filter(|w| matches!(w.2, 'S' | 'M'))
        .map(|&(r, c, _)| at(r, c))
        .collect();
    assert_eq!(marked, want, "{what}: {proof:?}");
    for &(r, c, ch) in &window {
        let i = at(r, c) as usize;
        match ch {
            'F' => assert!(layout[i], "{what}: F at ({r},{c}) is not a mine"),
            '*' => assert!(!layout[i], "{what}: * at ({r},{c}) is a mine"),
            '?' | 'S' | 'M' => assert_eq!(position.cells[i], Cell::Unknown, "{what}"),
            '.' => assert_eq!(position.cells[i], Cell::Revealed(0), "{what}"),
            d => assert_eq!(
                position.cells[i],
                Cell::Revealed(d.to_digit(10).unwrap() as u8),
                "{what}"
            ),
        }
    }
    let closed: Vec<&(usize, usize, char)> = window
        .iter()
        .filter(|w| matches!(w.2, '?' | 'S' | 'M'))
        .collect();
    assert!(closed.len() <= 16, "{what}: {proof:?}");
    let mut fits_any = false;
    for mask in 0u32..1 << closed.len() {
        let mine_at = |r: usize, c: usize| match char_at(r, c) {
            'F' => true,
            '?' | 'S' | 'M' => {
                let k = closed.iter().position(|w| (w.0, w.1) == (r, c)).unwrap();
                mask >> k & 1 == 1
            }
            _ => false,
        };
        let fits = proof.foci.iter().all(|f| {
            let Cell::Revealed(v) = position.cells[at(f.row, f.col) as usize] else {
                panic!("{what}: a focus is not a number");
            };
            let around = grid.neighbours(at(f.row, f.col));
            let mines = around
                .iter()
                .filter(|&&n| {
                    let (r, c) = grid.rc(n);
                    mine_at(r, c)
                })
                .count();
            mines == usize::from(v)
        });
        if !fits {
            continue;
        }
        fits_any = true;
        for (k, w) in closed.iter().enumerate() {
            let mine = mask >> k & 1 == 1;
            assert!(
                (w.2 != 'S' || !mine) && (w.2 != 'M' || mine),
                "{what}: {proof:?} allows ({},{}) otherwise",
                w.0,
                w.1
            );
        }
    }
    assert!(fits_any, "{what}: no layout fits {proof:?}");
}

/// Every proof a review names holds by its own text ([`check_proof`]) and
/// marks the cells the move opened or flagged.
#[test]
fn every_proof_in_a_real_games_review_is_forced_by_its_own_pattern() {
    let engine = Engine::new().unwrap();
    let (mut proofs, mut chords) = (0, 0);
    for (rel, layout, r) in real_reviews(&engine) {
        for j in &r.verdicts.moves {
            let Some(proof) = &j.proof else { continue };
            let grid = j.position.grid;
            let mut want = if j.kind == MoveKind::Chord || j.kind == MoveKind::Open {
                opened(j)
            } else {
                vec![grid.index(j.cell.row, j.cell.col)]
            };
            want.sort_unstable();
            let what = format!("{rel}: move at {}", j.cell);
            check_proof(&what, proof, &view(&j.position), &layout, &want);
            proofs += 1;
            chords += usize::from(j.kind == MoveKind::Chord && want.len() > 1);
        }
    }
    assert!(
        proofs > 1000 && chords > 300,
        "{proofs} proofs, {chords} of chords"
    );
}

/// The patterns `sapper analyse` names for a rule's deductions
/// (`review::proof::of_deductions`), on every third position a person saw in a
/// real game, hold by their own text ([`check_proof`]), marking the cell
/// alone; and every deduction of a rule of order 1 or 2 (the default
/// rulebase's) has one.
#[test]
fn every_pattern_named_for_an_analysis_of_a_real_games_positions_holds() {
    let engine = Engine::new().unwrap();
    let (mut positions, mut proofs) = (0, 0);
    for (rel, layout, r) in real_reviews(&engine) {
        for j in r.verdicts.moves.iter().step_by(3) {
            let position = view(&j.position);
            let analysis = engine.analyse(&position).unwrap();
            let board = Board::from_position(&position);
            let named = sapper_engine::review::proof::of_deductions(&board, &analysis.deductions);
            for (d, proof) in analysis.deductions.iter().zip(&named) {
                let (r, c) = position.grid.rc(d.cell);
                let what = format!("{rel}: ({r},{c}) {}", d.value);
                match (d.source, proof) {
                    (_, Some(proof)) => {
                        assert!(matches!(d.source, sapper_engine::Source::Rule { .. }));
                        check_proof(&what, proof, &position, &layout, &[d.cell]);
                        assert_eq!(layout[d.cell as usize], d.value == Value::Mine);
                        proofs += 1;
                    }
                    (sapper_engine::Source::Rule { order }, None) => {
                        panic!("{what}: a rule of order {order} with no pattern")
                    }
                    _ => {}
                }
            }
            positions += 1;
        }
    }
    assert!(
        positions > 1000 && proofs > 50000,
        "{positions} positions, {proofs} patterns"
    );
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

/// The player's own games, recorded and reviewed: the review sees the
/// outcome, the clicks and the guesses the player counted, and no needless
/// guess (the player opens every cell proven safe, by the mine total too,
/// before it guesses); a game with no guess has a luck of 1.
#[test]
fn the_players_recorded_games_review_as_the_player_counted_them() {
    let engine = Engine::new().unwrap();
    for level in [sapper_engine::Level::BEGINNER, sapper_engine::Level::EXPERT] {
        let mut settings = sapper_engine::PlaySettings::new(level);
        settings.games = 24;
        settings.seed = 11;
        let mut reviewed = 0;
        engine
            .play_each_recorded(&settings, &|_| {}, &mut |record, replay| {
                let r = engine.review(replay).expect("a review");
                let what = format!("{level:?} game {}", record.index);
                assert_eq!(r.won, record.won, "{what}");
                assert_eq!(r.clicks.left, record.clicks, "{what}: clicks");
                assert_eq!(r.verdicts.guesses, record.guesses, "{what}: guesses");
                assert_eq!(r.verdicts.needless_guesses, 0, "{what}");
                if record.guesses == 0 {
                    assert_eq!(r.verdicts.luck, 1.0, "{what}");
                }
                reviewed += 1;
                std::ops::ControlFlow::Continue(())
            })
            .expect("games");
        assert_eq!(reviewed, 24);
    }
}

/// `sapper play --replays DIR` writes one RAWVF file per game, which
/// `sapper review` reads: its won/lost and clicks are the game's line of
/// `--games-json`.
#[test]
fn play_writes_replays_that_review_reads() {
    let dir = crate::util::TempDir::new("review-play");
    let games = dir.path().join("games.jsonl");
    let replays = dir.path().join("replays");
    let play = sapper([
        "play",
        "--level",
        "intermediate",
        "--games",
        "12",
        "--seed",
        "3",
        "--games-json",
        games.to_str().unwrap(),
        "--replays",
        replays.to_str().unwrap(),
    ]);
    assert_eq!(play.code, 0, "{}", play.stderr);
    let lines = std::fs::read_to_string(&games).unwrap();
    for (k, line) in lines.lines().enumerate() {
        let game: Json = serde_json::from_str(line).unwrap();
        let file = replays.join(format!("game-{k:02}.rawvf"));
        let out = sapper(["review", "--json", file.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let review: Json = serde_json::from_str(out.stdout.lines().next().unwrap()).unwrap();
        assert_eq!(review["won"], game["won"], "{line}");
        assert_eq!(review["left"], game["clicks"], "{line}");
        assert_eq!(review["guesses"], game["guesses"], "{line}");
    }
    assert_eq!(lines.lines().count(), 12);
}
