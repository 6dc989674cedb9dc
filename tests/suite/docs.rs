//! The documented examples run: every `sapper` command of the README's
//! shell blocks (in order, in one folder, so that one may use what an
//! earlier one wrote), and the README's worked example prints what the
//! README shows. (The README's Rust examples run as doctests of the
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

#[test]
fn every_sapper_command_of_the_readme_runs() {
    let commands = readme_commands();
    assert!(commands.len() >= 5, "{commands:?}");
    let dir = TempDir::new("docs-readme");
    for folder in ["samples", "tests"] {
        std::os::unix::fs::symlink(repo().join(folder), dir.join(folder)).unwrap();
    }
    for args in &commands {
        sapper_in(&dir.0, args).ok();
    }
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
