//! `sapper play` and `sapper engine` end to end: the summary's shape and
//! determinism, and a referee written here that drives the engine
//! protocol over the same boards `play` uses and gets the same games.

use crate::util::{default_tiers, repo, sapper, sapper_command, sapper_with, TempDir};
use sapper_engine::game::{game_rng, random_layout, FirstClick, Game, Level, Opened};
use sapper_engine::play::{play_game, Policy, SapperPlayer};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

#[test]
fn play_summarizes_the_same_games_on_one_and_two_threads() {
    let args = [
        "play", "--level", "beginner", "--games", "300", "--seed", "4", "--json",
    ];
    let one = sapper_with(&repo(), args, None, 1);
    let two = sapper_with(&repo(), args, None, 2);
    one.ok();
    let strip = |s: &str| {
        let mut v: serde_json::Value = serde_json::from_str(s.trim()).unwrap();
        v.as_object_mut().unwrap().remove("games_per_second");
        v
    };
    let (a, b) = (strip(&one.stdout), strip(&two.stdout));
    assert_eq!(a, b);
    assert_eq!(a["games"], 300);
    let wins = a["wins"].as_u64().unwrap();
    assert!(wins > 200, "beginner is mostly won: {wins}");
    let ci = a["ci95"].as_array().unwrap();
    let rate = a["win_rate"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() < rate && rate < ci[1].as_f64().unwrap());
    assert_eq!(
        a["level"],
        serde_json::json!({"rows": 9, "cols": 9, "mines": 10})
    );
    assert_eq!(a["first_click"], "safe");
    assert_eq!(a["start"], serde_json::json!([0, 0]));
    // Cells proven safe, by source: the rules prove most of them.
    let by = &a["opened_by_source"];
    let count = |k: &str| by[k].as_u64().unwrap();
    let methods: u64 = [
        "single_cell",
        "linked_cells_1",
        "linked_cells_2",
        "hypotheses",
    ]
    .iter()
    .map(|k| count(k))
    .sum();
    assert!(count("rules") > 2 * methods, "{by}");
    let by_order = &a["opened_by_rule_order"];
    let orders: u64 = ["1", "2", "3"]
        .iter()
        .map(|k| by_order[k].as_u64().unwrap())
        .sum();
    assert_eq!(orders, count("rules"));
}

#[test]
fn play_writes_one_line_per_game_and_refuses_bad_levels() {
    let tmp = TempDir::new("play-games");
    let file = tmp.join("games.jsonl");
    sapper([
        "play",
        "--level",
        "beginner",
        "--games",
        "50",
        "--games-json",
        file.to_str().unwrap(),
    ])
    .ok()
    .stdout_has(" / 50 games won: ");
    let lines = std::fs::read_to_string(&file).unwrap();
    assert_eq!(lines.lines().count(), 50);
    assert!(lines.starts_with("{\"index\":0,\"won\":"));
    sapper(["play", "--size", "3x3", "--mines", "9"])
        .expect_code(2)
        .stderr_has("do not fit");
}

/// The `guessing` object of `sapper play`'s JSON summary of 20 beginner
/// games, with `flags` added.
fn guessing_with(flags: &[&str]) -> serde_json::Value {
    let mut args = vec!["play", "--level", "beginner", "--games", "20", "--json"];
    args.extend_from_slice(flags);
    let out = sapper(args).ok().stdout.clone();
    let summary: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    summary["guessing"].clone()
}

#[test]
fn play_without_turns_only_that_refinement_off_with_restates_the_default_and_unknown_ones_are_refused(
) {
    assert_eq!(
        guessing_with(&["--without", "free-fifties,blend,off-frontier-cap"]),
        serde_json::json!({
            "free_fifties": false,
            "influence": 0.9,
            "blend": false,
            "dead": true,
            "off_frontier_cap": null,
            "isolated": true,
            "third_move": true,
        })
    );
    sapper(["play", "--games", "5", "--without", "luck"])
        .expect_code(2)
        .stderr_has("invalid value 'luck'");
    let shallow = guessing_with(&["--without", "third-move"]);
    assert_eq!(
        (&shallow["third_move"], &shallow["isolated"]),
        (&false.into(), &true.into())
    );
    // Every refinement is on by default: `--with` restates it.
    assert_eq!(guessing_with(&["--with", "third-move"]), guessing_with(&[]));
    sapper([
        "play",
        "--games",
        "5",
        "--with",
        "blend",
        "--without",
        "dead,blend",
    ])
    .expect_code(2)
    .stderr_has("--with and --without both name `blend`");
}

/// The engine, driven line by line: each answer's cells are opened on a
/// game held here, until it is won or lost. The games, their clicks and
/// guesses are those `play_game` records on the same boards.
#[test]
fn a_referee_driving_the_engine_gets_the_games_play_gets() {
    let (level, first_click, start, seed) = (Level::EXPERT, FirstClick::Safe, (0, 0), 8);
    let mut engine = sapper_command()
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut to_engine = engine.stdin.take().unwrap();
    let mut from_engine = BufReader::new(engine.stdout.take().unwrap());
    let mut player = SapperPlayer::new(Some(default_tiers()), Policy::SecondSafety);
    for index in 0..12 {
        let expected = play_game(level, first_click, start, seed, index, &mut player).unwrap();
        let layout = random_layout(level, first_click, start, &mut game_rng(seed, index));
        let mut game = Game::new(level.grid(), layout);
        let (mut clicks, mut guesses, mut lost) = (1, 0, false);
        game.open(0);
        while !game.is_won() && !lost {
            let text = sapper_engine::formats::write_position(&game.position().to_position());
            let rows: Vec<&str> = text.lines().skip(1).collect();
            let request = serde_json::json!({"rows": rows, "mines": level.mines});
            writeln!(to_engine, "{request}").unwrap();
            let mut line = String::new();
            from_engine.read_line(&mut line).unwrap();
            let answer: serde_json::Value = serde_json::from_str(&line).unwrap();
            assert!(answer.get("error").is_none(), "{answer}");
            if answer["guess"] == true {
                guesses += 1;
                let p = answer["p_mine"].as_f64().unwrap();
                assert!((0.0..1.0).contains(&p));
            }
            for cell in answer["open"].as_array().unwrap() {
                let (r, c) = (
                    cell[0].as_u64().unwrap() as usize,
                    cell[1].as_u64().unwrap() as usize,
                );
                let cell = level.grid().index(r, c);
                if game.is_open(cell) {
                    continue;
                }
                clicks += 1;
                if game.open(cell) == Opened::Mine {
                    lost = true;
                    break;
                }
            }
        }
        assert_eq!(
            (game.is_won(), clicks, guesses),
            (expected.won, expected.clicks, expected.guesses),
            "game {index}"
        );
    }
    // A bad line is answered with an error, and the engine keeps serving.
    writeln!(to_engine, "{{\"rows\": [\"9\"]}}").unwrap();
    writeln!(to_engine, "{{\"rows\": [\"??\"], \"mines\": 1}}").unwrap();
    let mut line = String::new();
    from_engine.read_line(&mut line).unwrap();
    assert!(line.contains("\"error\""), "{line}");
    line.clear();
    from_engine.read_line(&mut line).unwrap();
    assert!(line.contains("\"guess\":true"), "{line}");
    drop(to_engine);
    assert!(engine.wait().unwrap().success());
}
