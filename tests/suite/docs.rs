//! The documented examples run: every `sapper` command of the README's
//! shell blocks (in order, in one folder, so that one may use what an
//! earlier one wrote; `sapper play` with at most 20 games, and exactly as
//! written under `--ignored`), and the README's worked example prints what
//! the README shows. (The README's Rust examples run as doctests of the
//! engine, its Python example in `python/tests/test_readme.py`, the
//! engine protocol's example of `--help` in `bounds.rs`.)

use crate::util::{repo, sapper_in, TempDir};

/// The README.
fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).unwrap()
}

/// The lines of the README's ```sh blocks that run `sapper`, comments
/// dropped; the browser server (which runs until stopped) left to
/// `tests/web`.
fn readme_commands() -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    for line in readme().lines() {
        if line.starts_with("```") {
            in_sh = !in_sh && line == "```sh";
            continue;
        }
        let Some(rest) = line.strip_prefix("sapper ").filter(|_| in_sh) else {
            continue;
        };
        let rest = rest.split('#').next().unwrap();
        let args: Vec<String> = rest.split_whitespace().map(String::from).collect();
        if args.first().map(String::as_str) != Some("serve") {
            commands.push(args);
        }
    }
    commands
}

/// Runs `commands` in order in one fresh folder that sees the repository's
/// `samples` and `tests`; each must succeed.
fn run_in_one_folder(commands: &[Vec<String>]) {
    assert!(commands.len() >= 5, "{commands:?}");
    let dir = TempDir::new("docs-readme");
    for folder in ["samples", "tests"] {
        std::os::unix::fs::symlink(repo().join(folder), dir.join(folder)).unwrap();
    }
    for args in commands {
        sapper_in(&dir.0, args).ok();
    }
}

/// Games each `sapper play` of the README plays in the quick run.
const QUICK_GAMES: u64 = 20;

/// `args` of a `sapper play` with its game count at most [`QUICK_GAMES`]
/// (given as `--games QUICK_GAMES` where the README leaves the default);
/// other commands unchanged.
fn with_few_games(args: &[String]) -> Vec<String> {
    let mut args = args.to_vec();
    if args.first().map(String::as_str) != Some("play") {
        return args;
    }
    match args.iter().position(|a| a == "--games") {
        Some(at) => {
            let games: u64 = args[at + 1].parse().expect("--games N");
            args[at + 1] = games.min(QUICK_GAMES).to_string();
        }
        None => args.extend(["--games".to_string(), QUICK_GAMES.to_string()]),
    }
    args
}

/// Every command as the README writes it, but the player's games capped
/// (the arguments are parsed and every path runs; a thousand games add
/// seconds and nothing else).
#[test]
fn every_sapper_command_of_the_readme_runs() {
    let commands: Vec<Vec<String>> = readme_commands()
        .iter()
        .map(|a| with_few_games(a))
        .collect();
    run_in_one_folder(&commands);
}

/// Every command exactly as the README writes it.
#[test]
#[ignore = "seconds: the README's thousands of games; .ci/run runs it with --ignored"]
fn every_sapper_command_of_the_readme_runs_as_written() {
    run_in_one_folder(&readme_commands());
}

#[test]
fn the_player_games_of_the_quick_run_are_capped_and_nothing_else_changes() {
    let words = |s: &str| -> Vec<String> { s.split_whitespace().map(String::from).collect() };
    assert_eq!(
        with_few_games(&words("play --level expert --games 1000 --seed 1")),
        words("play --level expert --games 20 --seed 1")
    );
    assert_eq!(
        with_few_games(&words("play --level expert --games 10 --replays games")),
        words("play --level expert --games 10 --replays games")
    );
    assert_eq!(
        with_few_games(&words("play --level expert --json")),
        words("play --level expert --json --games 20")
    );
    assert_eq!(
        with_few_games(&words("generate --level expert --count 100")),
        words("generate --level expert --count 100")
    );
}

#[test]
fn the_readme_worked_example_prints_what_the_readme_shows() {
    let text = readme();
    let start = text
        .find("$ sapper analyse samples/positions/guess.txt --probabilities\n")
        .expect("the worked example");
    let block = &text[start..];
    let block = &block[..block.find("```").unwrap()];
    let shown = block.split_once('\n').unwrap().1;
    let run = sapper_in(
        &repo(),
        ["analyse", "samples/positions/guess.txt", "--probabilities"],
    );
    run.ok();
    assert_eq!(run.stdout, shown);
}
