//! `sapper engine`: the sapper player behind a line protocol.

use super::common::{default_tiers, move_json};
use super::CliError;
use sapper_engine::board::Board;
use sapper_engine::files::{Line, LineReader, MAX_LINE_BYTES};
use sapper_engine::play::{Player, Policy, SapperPlayer, DEFAULT_DENSITY};
use sapper_engine::{Engine, Position};
use serde_json::{json, Value};
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
    let engine = Engine::from_tiers(Some(default_tiers()?));
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
            Line::Read => answer(&line, number, &mut player),
        }
        .unwrap_or_else(|e| json!({ "error": e }));
        writeln!(stdout, "{answer}")
            .and_then(|()| stdout.flush())
            .map_err(|e| format!("writing output: {e}"))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The answer to one input line (`number` counts lines from 1).
fn answer(line: &[u8], number: usize, player: &mut SapperPlayer) -> Result<Value, String> {
    let at = |e: &dyn std::fmt::Display| format!("line {number}: {e}");
    if line.iter().all(u8::is_ascii_whitespace) {
        return Err(at(&"blank line: expected {\"rows\": [...], \"mines\": N}"));
    }
    let request: Value = serde_json::from_slice(line).map_err(|e| at(&format!("not JSON: {e}")))?;
    let (position, density) = request_position(&request).map_err(|e| at(&e))?;
    player.set_density(density);
    let board = Board::from_position(&position);
    let m = player.next_move(&board).map_err(|e| at(&e))?;
    Ok(move_json(&m, board.grid()))
}

/// The position and density of a request: `rows`, `mines`, `density`.
pub fn request_position(request: &Value) -> Result<(Position, f64), String> {
    let rows = request
        .get("rows")
        .and_then(Value::as_array)
        .ok_or("expected {\"rows\": [\"??1.\", ...]}")?;
    let rows: Vec<&str> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| row.as_str().ok_or(format!("row {i} is not a string")))
        .collect::<Result<_, _>>()?;
    let mines = match request.get("mines") {
        None | Some(Value::Null) => None,
        Some(m) => Some(
            m.as_u64()
                .and_then(|m| u32::try_from(m).ok())
                .ok_or("\"mines\" must be a whole number from 0 to 4294967295")?,
        ),
    };
    let density = match request.get("density") {
        None | Some(Value::Null) => DEFAULT_DENSITY,
        Some(d) => d
            .as_f64()
            .filter(|d| *d > 0.0 && *d < 1.0)
            .ok_or("\"density\" must be a number strictly between 0 and 1")?,
    };
    let position = Position::from_rows(&rows, mines).map_err(|e| e.to_string())?;
    Ok((position, density))
}
