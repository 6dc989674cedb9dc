//! `sapper metrics`: board metrics of layouts (see
//! `sapper_engine::metrics`).

use super::CliError;
use rayon::prelude::*;
use sapper_engine::files::{Line, LineReader, MAX_LINE_BYTES};
use sapper_engine::formats::thesis::{list_corpus, natural_cmp, read_field};
use sapper_engine::grid::MAX_CELLS;
use sapper_engine::metrics::Metrics;
use sapper_engine::{Field, Grid};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Board metrics of layouts: 3BV, openings, islands, ZiNi, numbers.
///
/// 3BV counts the openings (8-connected regions of 0-cells) and the
/// isolated numbers (safe cells with no 0 around): the fewest left clicks
/// that clear the board. Islands are the 8-connected groups of isolated
/// numbers. ZiNi is the greedy estimate of the fewest clicks (left clicks,
/// flags and chords) by Zimmermann and Nikolaus, as ms_toollib's cal_zini
/// computes it. docs/design.md defines each exactly.
///
/// FILE is JSON lines, one board per line: {"layout": [[...], ...]} (rows
/// of cell codes: -1 a mine, 0-8 a number, which must match the mines
/// around it), or a board as `sapper generate` writes it ({"rows", "cols",
/// "mines": [[r, c], ...]}); other keys are ignored, blank lines skipped.
/// `-` reads JSON lines from standard input. FILE may also be a field
/// folder in the thesis layout, a corpus of them, an MBF file or a folder
/// of MBF files (only the mines are read; which cells are open does not
/// matter). Lines are read and measured as they come, so any number of
/// boards streams.
///
/// Output: one line per board, in input order: a table naming each board
/// (FILE:LINE for JSON lines, the folder or file otherwise), or with --json
/// {"bbbv", "openings", "islands", "zini", "numbers": [count of 0, ...,
/// count of 8]}, numbers counting safe cells only.
///
/// Exit code: 0 if every board was read; 1 if a board or a FILE could not
/// be (each named on stderr with its file, line and, where known, column;
/// it has no output line, the other boards are still measured); 2 on a
/// fatal error.
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// JSON-lines files, `-` (standard input), thesis fields or corpora,
    /// MBF files or folders of them.
    #[arg(required = true, value_name = "FILE")]
    paths: Vec<PathBuf>,
    /// One JSON object per board: {"bbbv", "openings", "islands", "zini",
    /// "numbers"}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if args.paths.iter().filter(|p| p.as_os_str() == "-").count() > 1 {
        return Err("`-` (standard input) given more than once".into());
    }
    let stdout = std::io::stdout();
    let mut out = Output {
        json: args.json,
        writer: std::io::BufWriter::new(stdout.lock()),
        header: false,
        failed: false,
    };
    for path in &args.paths {
        if path.as_os_str() == "-" {
            json_lines(&mut out, std::io::stdin().lock(), "<stdin>")?;
        } else if let Some(boards) = mbf_folder(path) {
            for file in boards {
                let name = file
                    .strip_prefix(path)
                    .unwrap_or(&file)
                    .display()
                    .to_string();
                out.board(&name, read_mbf(&file))?;
            }
        } else if path.is_dir() {
            corpus(&mut out, path)?;
        } else if path.extension().is_some_and(|e| e == "mbf") {
            out.board(&path.display().to_string(), read_mbf(path))?;
        } else {
            let name = path.display().to_string();
            match std::fs::File::open(path) {
                Ok(file) => json_lines(&mut out, BufReader::new(file), &name)?,
                Err(e) => out.error(&format!(
                    "{name}: cannot read: {}",
                    sapper_engine::files::describe_io(&e)
                ))?,
            }
        }
    }
    out.writer
        .flush()
        .map_err(|e| format!("writing output: {e}"))?;
    Ok(if out.failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Where the boards' lines go.
struct Output<W: Write> {
    json: bool,
    writer: W,
    /// Whether the table's header is written.
    header: bool,
    /// Whether some board or file could not be read.
    failed: bool,
}

impl<W: Write> Output<W> {
    /// One board's line, or its error.
    fn board(&mut self, name: &str, field: Result<Field, String>) -> Result<(), CliError> {
        match field {
            Ok(field) => self.metrics(name, &Metrics::of(&field)),
            Err(e) => self.error(&e),
        }
    }

    fn metrics(&mut self, name: &str, m: &Metrics) -> Result<(), CliError> {
        let numbers = m.numbers.map(|n| n.to_string());
        let line = if self.json {
            serde_json::to_string(m).map_err(|e| format!("writing output: {e}"))?
        } else {
            if !self.header {
                self.header = true;
                writeln!(
                    self.writer,
                    "{:<28} {:>6} {:>8} {:>7} {:>6}  numbers 0-8",
                    "board", "3BV", "openings", "islands", "ZiNi"
                )
                .map_err(|e| format!("writing output: {e}"))?;
            }
            format!(
                "{:<28} {:>6} {:>8} {:>7} {:>6}  {}",
                name,
                m.bbbv,
                m.openings,
                m.islands,
                m.zini,
                numbers.join(" ")
            )
        };
        writeln!(self.writer, "{line}").map_err(|e| format!("writing output: {e}").into())
    }

    /// Reports a board or file that could not be read; the run goes on.
    fn error(&mut self, message: &str) -> Result<(), CliError> {
        // What came before is on stdout before the error is on stderr.
        self.writer
            .flush()
            .map_err(|e| format!("writing output: {e}"))?;
        eprintln!("sapper: error: {message}");
        self.failed = true;
        Ok(())
    }
}

/// Lines measured together (in parallel, written in order), and the most
/// bytes they may hold.
const CHUNK_LINES: usize = 4096;
const CHUNK_BYTES: usize = 16 << 20;

/// The boards of a JSON-lines stream named `name`, read chunk by chunk.
fn json_lines<W: Write>(
    out: &mut Output<W>,
    stream: impl BufRead,
    name: &str,
) -> Result<(), CliError> {
    let mut lines = LineReader::new(stream, MAX_LINE_BYTES);
    let mut number = 0usize;
    let mut done = false;
    while !done {
        // (line number, the line, or None if it was too long)
        let mut chunk: Vec<(usize, Option<Vec<u8>>)> = Vec::new();
        let mut bytes = 0;
        while chunk.len() < CHUNK_LINES && bytes < CHUNK_BYTES {
            let mut buf = Vec::new();
            let read = lines
                .next_line(&mut buf)
                .map_err(|e| format!("{name}: cannot read: {e}"));
            number += 1;
            match read {
                Ok(Line::End) => {
                    done = true;
                    break;
                }
                Ok(Line::Read) => {
                    if buf.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    bytes += buf.len();
                    chunk.push((number, Some(buf)));
                }
                Ok(Line::TooLong) => chunk.push((number, None)),
                Err(e) => {
                    // The boards read so far still count.
                    done = true;
                    flush_chunk(out, name, std::mem::take(&mut chunk))?;
                    out.error(&e)?;
                    break;
                }
            }
        }
        flush_chunk(out, name, chunk)?;
    }
    Ok(())
}

fn flush_chunk<W: Write>(
    out: &mut Output<W>,
    name: &str,
    chunk: Vec<(usize, Option<Vec<u8>>)>,
) -> Result<(), CliError> {
    let results: Vec<(usize, Result<Metrics, String>)> = chunk
        .into_par_iter()
        .map(|(number, line)| {
            let result = match line {
                None => Err(format!(
                    "{name}:{number}: a line longer than {} MB",
                    MAX_LINE_BYTES >> 20
                )),
                Some(line) => parse_board(&line)
                    .map(|f| Metrics::of(&f))
                    .map_err(|(column, e)| match column {
                        Some(c) => format!("{name}:{number}:{c}: {e}"),
                        None => format!("{name}:{number}: {e}"),
                    }),
            };
            (number, result)
        })
        .collect();
    for (number, result) in results {
        match result {
            Ok(m) => out.metrics(&format!("{name}:{number}"), &m)?,
            Err(e) => out.error(&e)?,
        }
    }
    Ok(())
}

/// A JSON line's board.
#[derive(serde::Deserialize)]
struct BoardLine {
    layout: Option<Vec<Vec<i32>>>,
    rows: Option<usize>,
    cols: Option<usize>,
    mines: Option<Vec<[usize; 2]>>,
}

/// The layout of one JSON line, or what is wrong with it (with the
/// 1-based column, in characters, where the JSON parser gives one).
fn parse_board(line: &[u8]) -> Result<Field, (Option<usize>, String)> {
    let board: BoardLine = serde_json::from_slice(line).map_err(|e| {
        // serde_json counts columns in bytes; count characters.
        let at = e.column().saturating_sub(1).min(line.len());
        let column = String::from_utf8_lossy(&line[..at]).chars().count() + 1;
        let message = e.to_string();
        // Its message ends " at line L column C": the caller says where.
        let message = match message.rfind(" at line ") {
            Some(cut) => message[..cut].to_string(),
            None => message,
        };
        (Some(column), message)
    })?;
    let whole = |e: String| (None, e);
    if let Some(layout) = board.layout {
        let rows = layout.len();
        let cols = layout.first().map_or(0, Vec::len);
        if let Some((r, row)) = layout.iter().enumerate().find(|(_, r)| r.len() != cols) {
            return Err(whole(format!(
                "layout: row {r} has {} cells, row 0 has {cols}",
                row.len()
            )));
        }
        let codes: Vec<i32> = layout.into_iter().flatten().collect();
        return Field::from_codes(rows, cols, &codes).map_err(|e| whole(format!("layout: {e}")));
    }
    let (Some(rows), Some(cols), Some(mines)) = (board.rows, board.cols, board.mines) else {
        return Err(whole(
            "expected a \"layout\" (rows of cell codes), or \"rows\", \"cols\" and \"mines\""
                .to_string(),
        ));
    };
    if rows == 0 || cols == 0 || rows.saturating_mul(cols) > MAX_CELLS {
        return Err(whole(format!(
            "a board of {rows}×{cols} cells: expected at least one row and one column, at most \
             {MAX_CELLS} cells"
        )));
    }
    let grid = Grid::new(rows, cols);
    let mut mine = vec![false; grid.len()];
    for [r, c] in mines {
        if r >= rows || c >= cols {
            return Err(whole(format!(
                "mines: ({r},{c}) is off the {rows}×{cols} board"
            )));
        }
        let i = r * cols + c;
        if mine[i] {
            return Err(whole(format!("mines: ({r},{c}) is listed twice")));
        }
        mine[i] = true;
    }
    Ok(Field::from_mines(grid, mine, vec![false; grid.len()]))
}

/// An MBF board's layout.
fn read_mbf(file: &Path) -> Result<Field, String> {
    let (grid, mine) = sapper_engine::formats::mbf::read_mbf(file).map_err(|e| e.to_string())?;
    Ok(Field::from_mines(grid, mine, vec![false; grid.len()]))
}

/// The `.mbf` files of a folder holding some, in natural order; `None`
/// for anything else.
fn mbf_folder(path: &Path) -> Option<Vec<PathBuf>> {
    let entries = std::fs::read_dir(path).ok()?;
    let mut boards: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mbf") && p.is_file())
        .collect();
    if boards.is_empty() {
        return None;
    }
    boards.sort_by(|a, b| {
        natural_cmp(
            &a.file_name().unwrap_or_default().to_string_lossy(),
            &b.file_name().unwrap_or_default().to_string_lossy(),
        )
    });
    Some(boards)
}

/// The fields of a thesis field folder or corpus, in natural order (the
/// entries that could not be listed reported after them).
fn corpus<W: Write>(out: &mut Output<W>, path: &Path) -> Result<(), CliError> {
    let corpus = match list_corpus(path) {
        Ok(c) => c,
        Err(e) => return out.error(&e.to_string()),
    };
    let fields: Vec<(String, Result<Metrics, String>)> = corpus
        .fields
        .into_par_iter()
        .map(|r| {
            let m = read_field(&r.dir)
                .map(|f| Metrics::of(&f))
                .map_err(|e| e.to_string());
            (r.name, m)
        })
        .collect();
    for (name, m) in fields {
        match m {
            Ok(m) => out.metrics(&name, &m)?,
            Err(e) => out.error(&e)?,
        }
    }
    for e in corpus.unreadable {
        out.error(&e.to_string())?;
    }
    Ok(())
}
