//! (being written)
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum RulesCommand {
    /// (being written)
    Info,
}

pub fn run(_c: RulesCommand) -> Result<ExitCode, super::CliError> {
    Err("not implemented yet".into())
}
