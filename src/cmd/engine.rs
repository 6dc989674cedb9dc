//! `sapper engine`: the sapper player behind a line protocol.

use super::common::default_tiers;
use super::CliError;
use sapper_engine::board::Board;
use sapper_engine::formats::parse_position;
use sapper_engine::play::{Move, Player, Policy, SapperPlayer};
use sapper_engine::Engine;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

/// Serve moves on standard input and output, one JSON object per line, so
/// a game, bot arena or referee can use sapper as its engine.
///
/// Each input line is a position:
///   {"rows": ["??1.", "?21.", "1F.."], "mines": 10}
/// with the cells of the position text format (`?` closed, `F` flag, `0`-`8`
/// a number, `.` a revealed 0, `*` known safe) and the total (`mines`,
/// optional: without it no guess can weigh the interior by the count).
/// Each answer is one line:
///   {"open": [[r, c], ...], "flag": [[r, c], ...], "guess": false}
/// when cells are proven safe (all of them; `flag` lists the proven mines
/// not flagged yet), or
///   {"open": [[r, c]], "flag": [...], "guess": true, "p_mine": 0.1234}
/// when nothing is forced and sapper guesses (the cell, its exact mine
/// probability). Rows and columns count from 0. A bad line is answered
/// with {"error": "..."} and the engine keeps serving; it stops at the end
/// of its input.
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {}

pub fn run(_args: Args) -> Result<ExitCode, CliError> {
    let engine = Engine::from_tiers(Some(default_tiers()?));
    let mut player = engine.player(Policy::SecondSafety);
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for (k, line) in stdin.lock().lines().enumerate() {
        let line = line.map_err(|e| format!("reading input: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match answer(&line, k + 1, &mut player) {
            Ok(v) => v,
            Err(e) => json!({ "error": e }),
        };
        writeln!(stdout, "{answer}")
            .and_then(|()| stdout.flush())
            .map_err(|e| format!("writing output: {e}"))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The answer to one input line (`number` counts lines from 1).
fn answer(line: &str, number: usize, player: &mut SapperPlayer) -> Result<Value, String> {
    let request: Value =
        serde_json::from_str(line).map_err(|e| format!("line {number}: not JSON: {e}"))?;
    let rows = request
        .get("rows")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("line {number}: expected {{\"rows\": [\"??1.\", ...]}}"))?;
    let mines = match request.get("mines") {
        None | Some(Value::Null) => None,
        Some(m) => Some(
            m.as_u64()
                .and_then(|m| u32::try_from(m).ok())
                .ok_or_else(|| format!("line {number}: \"mines\" must be a whole number"))?,
        ),
    };
    let density = match request.get("density") {
        None | Some(Value::Null) => sapper_engine::play::DEFAULT_DENSITY,
        Some(d) => d
            .as_f64()
            .filter(|d| *d > 0.0 && *d < 1.0)
            .ok_or_else(|| format!("line {number}: \"density\" must be between 0 and 1"))?,
    };
    player.set_density(density);
    // The rows alone, so that a message's line number is the row's (from 1).
    let mut text = String::new();
    for (i, row) in rows.iter().enumerate() {
        let row = row
            .as_str()
            .ok_or_else(|| format!("line {number}: row {i} is not a string"))?;
        text.push_str(row);
        text.push('\n');
    }
    let mut position = parse_position(Path::new(&format!("input line {number}, row")), &text)
        .map_err(|e| e.to_string())?;
    position.total_mines = mines;
    let board = Board::from_position(&position);
    let Move {
        open, flag, guess, ..
    } = player
        .next_move(&board)
        .map_err(|e| format!("line {number}: {e}"))?;
    let cells = |list: &[u32]| -> Vec<[usize; 2]> {
        list.iter()
            .map(|&c| {
                let (r, c) = board.grid().rc(c);
                [r, c]
            })
            .collect()
    };
    Ok(match guess {
        None => json!({"open": cells(&open), "flag": cells(&flag), "guess": false}),
        Some(p) => {
            json!({"open": cells(&open), "flag": cells(&flag), "guess": true, "p_mine": p})
        }
    })
}
