//! `sapper review`: recorded games, judged click by click
//! (`sapper_engine::review`).

use super::args::{over_budget, BudgetArgs};
use super::ordered::{self, map_in_order};
use super::percent::percent;
use super::rulebase::default_engine;
use super::{json, CliError};
use sapper_engine::formats::replay::read_replay;
use sapper_engine::report::Filed;
use sapper_engine::review::{Review, Verdict};
use sapper_engine::Error;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Review recorded games: for every click, what the player knew, what was
/// proven and the risk taken; for the game, its board metrics and clicks.
///
/// FILE is a replay: Viennasweeper `.rmv` (versions 1 and 2), Metasweeper
/// `.evf` (0–4), Minesweeper Arbiter `.avf`, Minesweeper Clone `.mvf` or
/// RAWVF text (docs/design.md §5); the format is told from the file's
/// first bytes.
///
/// Each click is judged on the position the player saw before it, with the
/// board's mine total; the player's flags are shown but not trusted, so a
/// flagged cell counts as closed:
///   safe           it opened only cells proven safe — by which rule
///                  (with the pattern of numbers that proves it) or method;
///                  the first click is safe by the game's protection
///   guess          it opened a cell not proven safe: its exact mine
///                  probability, the least on the board then, and whether
///                  it was needless (a cell was proven safe)
///   lost           it opened a mine, with the chance it had
///   proven_mine    a flag on a cell proven a mine
///   unproven_flag  a flag on a cell not proven a mine
/// A chord's probability is that of any cell it opens being a mine.
///
/// Per game: 3BV, openings, islands, ZiNi, left/right/double clicks, cl,
/// ce, 3BV solved, time (the game's timer), 3BV/s, IOE, correctness,
/// throughput, RQP, STNB (as ms_toollib computes them), guesses, needless
/// guesses, the risk taken against the least risk available, and luck
/// (the chance that every guess survives).
///
/// Several files are reviewed in parallel and reported in the order given.
/// A file that cannot be read (its error names the byte at fault) is
/// reported and the others still reviewed: exit 1.
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Replay files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// One JSON object per file per line: {"file", "rows", "cols",
    /// "mines", "won", "time", "bbbv", "bbbv_solved", "bbbv_per_s",
    /// "openings", "islands", "left", "right", "double", "cl", "ce",
    /// "ioe", "guesses", "needless_guesses", "luck", ..., "clicks": [{"t",
    /// "action", "cell", "position", "verdict", "p_mine", "best_p_mine",
    /// "needless", "source", "proof"}, ...]}; a file that fails is
    /// {"file", "error"}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// Games reviewed ahead of the printing, at most.
const AHEAD: usize = 16;

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let engine = default_engine()?.with_budget(args.budget.budget()?);
    let mut failed = false;
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    map_in_order(
        args.files.len(),
        ordered::threads(),
        AHEAD,
        || (),
        |_, i| {
            let path = &args.files[i];
            let shown = path.display().to_string();
            let review = read_replay(path)
                .map_err(|e| e.to_string())
                .and_then(|replay| {
                    engine.review(&replay).map_err(|e| match e {
                        Error::OverBudget(o) => format!("{shown}: refused: {}", over_budget(&o)),
                        e => format!("{shown}: {e}"),
                    })
                });
            match review {
                Ok(review) if args.json => Ok(json::line(&Filed::new(&shown, &review), 1 << 16)),
                Ok(review) => Ok(text(&shown, &review).into_bytes()),
                Err(e) => Err((
                    json::line(&serde_json::json!({"file": shown, "error": e}), 0),
                    e,
                )),
            }
        },
        |_, result| -> Result<(), CliError> {
            let out = match result {
                Ok(out) => out,
                Err((line, e)) => {
                    stdout.flush().map_err(|e| format!("writing output: {e}"))?;
                    eprintln!("sapper: error: {e}");
                    failed = true;
                    if args.json {
                        line
                    } else {
                        Vec::new()
                    }
                }
            };
            stdout
                .write_all(&out)
                .map_err(|e| format!("writing output: {e}").into())
        },
    )?;
    stdout.flush().map_err(|e| format!("writing output: {e}"))?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The review in words: the game, its metrics, then a line per click.
fn text(shown: &str, r: &Review) -> String {
    let mut s = String::new();
    let outcome = if r.won {
        "won"
    } else if r.lost() {
        "lost"
    } else {
        "unfinished"
    };
    let _ = writeln!(
        s,
        "{shown}: {}×{} with {} mines, {outcome} in {:.2} s",
        r.rows,
        r.cols,
        r.mines,
        r.time_ms as f64 / 1000.0
    );
    let m = &r.metrics;
    let _ = writeln!(
        s,
        "  3BV {} ({} openings, {} islands), solved {}, {} 3BV/s; ZiNi {}",
        m.bbbv,
        m.openings,
        m.islands,
        r.bbbv_solved,
        fixed(r.bbbv_per_s(), 2),
        m.zini
    );
    let c = &r.clicks;
    let _ = writeln!(
        s,
        "  clicks: {} left, {} right, {} double, cl {}, ce {}; IOE {}, correctness {}, \
         throughput {}",
        c.left,
        c.right,
        c.double,
        c.cl,
        c.ce,
        fixed(r.ioe(), 3),
        fixed(r.correctness(), 3),
        fixed(r.throughput(), 3)
    );
    let v = &r.verdicts;
    let _ = writeln!(
        s,
        "  guesses {} ({} needless): risk taken {:.3}, least available {:.3}; luck {}",
        v.guesses,
        v.needless_guesses,
        v.risk,
        v.least_risk,
        percent(v.luck)
    );
    let _ = writeln!(
        s,
        "  {:>5} {:>8}  {:<6} {:<9} {:<13} {:>7} {:>7}  why",
        "move", "t (s)", "action", "cell", "verdict", "p_mine", "least"
    );
    for (k, j) in v.moves.iter().enumerate() {
        let why = match (&j.proof, j.why) {
            (Some(p), _) => p.describe(),
            (None, Some(w)) => w.name().replace('_', " "),
            (None, None) if j.needless => "needless: a cell was proven safe".into(),
            (None, None) if j.verdict == Verdict::UnprovenFlag && j.p_mine == 0.0 => {
                "wrong: the cell is safe".into()
            }
            (None, None) if j.verdict == Verdict::UnprovenFlag => "not proven".into(),
            (None, None) => String::new(),
        };
        let verdict = match j.verdict {
            Verdict::Guess if j.needless => "guess (!)".to_string(),
            v => v.name().to_string(),
        };
        let _ = writeln!(
            s,
            "  {:>5} {:>8.2}  {:<6} {:<9} {:<13} {:>7} {:>7}  {why}",
            k + 1,
            j.time_ms as f64 / 1000.0,
            j.kind.name(),
            j.cell.to_string(),
            verdict,
            percent(j.p_mine),
            j.best_p_mine.map(percent).unwrap_or_default()
        );
    }
    s
}

/// `x` with `decimals` decimals; `-` where it is not a number (a game of
/// no time or no clicks).
fn fixed(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "-".to_string()
    }
}
