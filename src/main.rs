//! `sapper`: the command-line layer over `sapper-engine` and `sapper-synth`.
//! Each subcommand lives in `src/cmd/<name>.rs` with its own clap `Args`.

use clap::{Args as _, FromArgMatches as _, Parser, Subcommand};
use std::ffi::OsString;
use std::process::ExitCode;

mod cmd;

/// sapper — a rule-synthesis engine and complete no-guess solver for
/// Minesweeper.
///
/// Solve fields (thesis layout: field_info.csv, status.csv, values.csv) or
/// analyse positions (a text picture of what a player sees), with a
/// precompiled rulebase matched first and the four methods of the research
/// (single-cell, linked cells 1, linked cells 2, hypotheses) as fallback;
/// give exact mine probabilities where nothing is forced; play whole games
/// (or serve moves to a game as its engine); generate no-guess boards.
#[derive(Parser)]
#[command(name = "sapper", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Solve(cmd::solve::Args),
    Analyse(cmd::analyse::Args),
    Bench(cmd::bench::Args),
    Synth(cmd::synth::Args),
    Generate(cmd::generate::Args),
    Metrics(cmd::metrics::Args),
    Play(cmd::play::Args),
    Engine(cmd::engine::Args),
    Review(cmd::review::Args),
    Serve(cmd::serve::Args),
    #[command(subcommand)]
    Rules(cmd::rules::RulesCommand),
}

fn main() -> ExitCode {
    restore_sigpipe();
    let cli = parse();
    let result = match cli.command {
        Command::Solve(a) => cmd::solve::run(a),
        Command::Analyse(a) => cmd::analyse::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Synth(a) => cmd::synth::run(a),
        Command::Generate(a) => cmd::generate::run(a),
        Command::Metrics(a) => cmd::metrics::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Engine(a) => cmd::engine::run(a),
        Command::Review(a) => cmd::review::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Rules(c) => cmd::rules::run(c),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sapper: error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The command line, parsed. clap builds its description of every
/// subcommand before it parses any (about half a millisecond, a sixth of
/// `sapper analyse`'s start-up); when the first argument names a
/// subcommand, only that one is described and parsed. Anything else — no
/// subcommand, `rules`, or a line that one subcommand alone does not parse
/// (help and errors among them) — goes to the whole description, so that
/// every message is the one clap gives for the full command.
fn parse() -> Cli {
    let args: Vec<OsString> = std::env::args_os().collect();
    args.get(1)
        .and_then(|name| name.to_str())
        .and_then(one_subcommand)
        .and_then(|command| command.try_get_matches_from(&args).ok())
        .and_then(|matches| Cli::from_arg_matches(&matches).ok())
        .unwrap_or_else(|| Cli::parse_from(args))
}

/// `sapper` with only the subcommand `name` (`None` for `rules`, which has
/// subcommands of its own, and for a name that is not a subcommand), as
/// the derived [`Cli::command`] describes it.
fn one_subcommand(name: &str) -> Option<clap::Command> {
    type Augment = fn(clap::Command) -> clap::Command;
    let (name, augment): (&'static str, Augment) = match name {
        "solve" => ("solve", cmd::solve::Args::augment_args),
        "analyse" => ("analyse", cmd::analyse::Args::augment_args),
        "bench" => ("bench", cmd::bench::Args::augment_args),
        "synth" => ("synth", cmd::synth::Args::augment_args),
        "generate" => ("generate", cmd::generate::Args::augment_args),
        "metrics" => ("metrics", cmd::metrics::Args::augment_args),
        "play" => ("play", cmd::play::Args::augment_args),
        "engine" => ("engine", cmd::engine::Args::augment_args),
        "serve" => ("serve", cmd::serve::Args::augment_args),
        "review" => ("review", cmd::review::Args::augment_args),
        _ => return None,
    };
    Some(clap::Command::new("sapper").subcommand(augment(clap::Command::new(name))))
}

/// Rust ignores SIGPIPE, so writing to a closed pipe (`sapper ... | head`)
/// becomes an error that `println!` turns into a panic. A command-line
/// filter should instead end quietly, as `cat` does: restore the default
/// action.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_DFL at the start of
    // main, before any other thread exists, has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    #[test]
    fn one_subcommand_is_described_as_the_whole_command_describes_it() {
        let mut whole = Cli::command();
        whole.build();
        for sub in whole.get_subcommands_mut() {
            let name = sub.get_name().to_string();
            let Some(mut alone) = one_subcommand(&name) else {
                assert!(name == "rules" || name == "help", "{name} has no fast path");
                continue;
            };
            alone.build();
            let alone = alone
                .find_subcommand_mut(&name)
                .expect("the one subcommand");
            assert_eq!(
                alone.render_long_help().to_string(),
                sub.render_long_help().to_string(),
                "{name}"
            );
            assert_eq!(
                alone.render_usage().to_string(),
                sub.render_usage().to_string(),
                "{name}"
            );
        }
    }

    #[test]
    fn a_line_one_subcommand_parses_is_parsed_the_same_by_the_whole_command() {
        let lines: &[&[&str]] = &[
            &[
                "sapper",
                "analyse",
                "a.txt",
                "b.txt",
                "--probabilities",
                "--json",
            ],
            &["sapper", "analyse", "-", "--mines", "10", "--probabilities"],
            &["sapper", "play", "--games", "3", "--seed", "7", "--json"],
            &["sapper", "generate", "--count", "2", "--seed", "1"],
        ];
        for line in lines {
            let fast = one_subcommand(line[1])
                .unwrap()
                .try_get_matches_from(*line)
                .unwrap();
            let whole = Cli::command().try_get_matches_from(*line).unwrap();
            // The subcommand's matches (the parents differ in what else
            // they know of: debug builds list it).
            assert_eq!(
                format!("{:?}", fast.subcommand()),
                format!("{:?}", whole.subcommand()),
                "{line:?}"
            );
        }
    }
}
