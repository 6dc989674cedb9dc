//! `sapper`: the command-line layer over `sapper-engine` and `sapper-synth`.
//! Each subcommand lives in `src/cmd/<name>.rs` with its own clap `Args`.

use clap::{Parser, Subcommand};
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
    Play(cmd::play::Args),
    Engine(cmd::engine::Args),
    #[command(subcommand)]
    Rules(cmd::rules::RulesCommand),
}

fn main() -> ExitCode {
    restore_sigpipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(a) => cmd::solve::run(a),
        Command::Analyse(a) => cmd::analyse::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Synth(a) => cmd::synth::run(a),
        Command::Generate(a) => cmd::generate::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Engine(a) => cmd::engine::run(a),
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
