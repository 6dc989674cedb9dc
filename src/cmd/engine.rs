//! `sapper engine`: the sapper player behind a line protocol.

use super::rulebase::default_engine;
use super::{json, CliError};
use sapper_engine::files::{Line, LineReader, MAX_LINE_BYTES};
use sapper_engine::play::{Player, Policy, SapperPlayer, DEFAULT_DENSITY};
use sapper_engine::report::MoveReport;
use sapper_engine::request::PositionRequest;
use sapper_engine::Board;
use std::io::Write;
use std::process::ExitCode;

/// Serve moves on standard input and output, one JSON object per line, so
/// a game, bot arena or referee can use sapper as its engine.
///
/// Each input line is a position:
///   {"rows": ["??1.", "?21.", "11.."], "mines": 2}
/// "rows" are the grid's rows, cells only: `?` closed, `F` flag, `0`-`8` a
/// number, `.` a revealed 0, `*` known safe (no `mines` line, comment or
/// line break inside a row); at most 1,000,000 cells. "mines" is
/// the total number of mines (optional). Without it, a guess weighs the
/// closed cells by a density: "density" (0 < D < 1), default 0.2.
///
/// Each line gets exactly one answer line:
///   {"open": [[r, c], ...], "flag": [[r, c], ...], "guess": false}
/// when cells are proven safe (all of them; `flag` lists the proven mines
/// not flagged yet), or
///   {"open": [[r, c]], "flag": [...], "guess": true, "p_mine": 0.1234}
/// when nothing is forced and sapper guesses (the cell, its exact mine
/// probability). Rows and columns count from 0, in answers and errors
/// alike. A bad line (blank lines included) is answered with
/// {"error": "line N: ..."} and the engine keeps serving; a line longer
/// than 4 MB is answered so as soon as it passes 4 MB, and the rest of it
/// skipped without being held. It stops at the end of its input.
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {}

pub fn run(_args: Args) -> Result<ExitCode, CliError> {
    let engine = default_engine()?;
    let mut player = engine.player(Policy::SecondSafety);
    let mut lines = LineReader::new(std::io::stdin().lock(), MAX_LINE_BYTES);
    let mut stdout = std::io::stdout().lock();
    let mut line = Vec::new();
    for number in 1.. {
        let read = lines
            .next_line(&mut line)
            .map_err(|e| format!("reading input: {e}"))?;
        let answer = match read {
            Line::End => break,
            Line::TooLong => Err(format!(
                "line {number}: longer than {} MB; expected at most {} MB (a position of \
                 1,000,000 cells fits); the rest of the line is skipped",
                MAX_LINE_BYTES >> 20,
                MAX_LINE_BYTES >> 20
            )),
            Line::Read => answer(&line, &mut player).map_err(|e| format!("line {number}: {e}")),
        };
        let out = match answer {
            Ok(m) => json::line(&m, 256),
            Err(e) => json::line(&ErrorReport { error: &e }, 256),
        };
        stdout
            .write_all(&out)
            .and_then(|()| stdout.flush())
            .map_err(|e| format!("writing output: {e}"))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `{"error": "..."}`.
#[derive(serde::Serialize)]
struct ErrorReport<'a> {
    error: &'a str,
}

/// The answer to one input line.
fn answer(line: &[u8], player: &mut SapperPlayer) -> Result<MoveReport, String> {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Err("blank line: expected {\"rows\": [...], \"mines\": N}".into());
    }
    let request: PositionRequest = json::request(line)?;
    let position = request.position().map_err(|e| e.to_string())?;
    player.set_density(
        request
            .density()
            .map_err(|e| e.to_string())?
            .unwrap_or(DEFAULT_DENSITY),
    );
    let board = Board::from_position(&position);
    let m = player.next_move(&board).map_err(|e| e.to_string())?;
    Ok(MoveReport::new(board.grid(), &m))
}
