//! (being written)
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<ExitCode, super::CliError> {
    Err("not implemented yet".into())
}
