//! `sapper generate`: no-guess boards (see `sapper_engine::generate`).

use super::args::{count_arg, GameArgs};
use super::rulebase::default_engine;
use super::{json, CliError};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sapper_engine::board::Field;
use sapper_engine::formats::mbf::{mbf_bytes, MBF_STARTS};
use sapper_engine::formats::thesis::{field_texts, FIELD_FILES};
use sapper_engine::game::Game;
use sapper_engine::generate::{Request, Sampling};
use sapper_engine::report::BoardReport;
use sapper_engine::Error;
use std::io::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Generate boards that complete no-guess play solves from the first click.
///
/// A board is kept only if sapper's solver (complete: rules, the four
/// methods, the total mine count) opens every safe cell from the start
/// click without guessing. `--method uniform` (the default) draws every
/// such board with equal probability: random boards under the first-click
/// rule are drawn one after another and the first COUNT no-guess ones kept
/// (rejection sampling, in parallel, the same boards for a seed whatever
/// the thread count). `--method fast` repairs stuck boards by moving mines
/// away from where play stopped: much faster at high densities, but NOT
/// uniform.
///
/// Output: JSON lines on stdout (`{"rows", "cols", "mines": [[r, c], ...],
/// "start": [r, c], "layout": [[-1 a mine, else the number, ...], ...]}`),
/// or with `-o DIR` a new folder of boards, written
/// whole: thesis-layout fields (`field_1`, ... with the start and its
/// flood fill open, and an `expected.csv` saying each is solved), which
/// `sapper solve DIR` reads, or `.mbf` files (`--format mbf`).
///
/// Example: `sapper generate --level expert --count 100 --seed 7 -o boards`.
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Boards to generate (each is written as soon as it is found, so any
    /// count streams).
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = count_arg::<usize>)]
    count: usize,
    /// `uniform`: every no-guess board equally likely; `fast`: repair stuck
    /// boards (not uniform).
    #[arg(long, value_enum, default_value_t = MethodArg::Uniform)]
    method: MethodArg,
    /// Write the boards to this new folder (it must not exist).
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
    /// `jsonl` (stdout only), `thesis` or `mbf` (with -o). Default: jsonl
    /// on stdout, thesis with -o.
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Layouts tried for one board before giving up with an error (some
    /// levels have almost no, or no, no-guess board from a given start).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    max_attempts: u64,
    /// Print the summary as one JSON object on stderr.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum MethodArg {
    Uniform,
    Fast,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FormatArg {
    Jsonl,
    Thesis,
    Mbf,
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let (level, first_click, start) = args.game.game(sapper_engine::game::FirstClick::Opening)?;
    let format = match (args.format, &args.output) {
        (None, None) => FormatArg::Jsonl,
        (None, Some(_)) => FormatArg::Thesis,
        (Some(FormatArg::Jsonl), Some(_)) => {
            return Err("--format jsonl writes to stdout: drop -o, or use thesis or mbf".into())
        }
        (Some(FormatArg::Thesis | FormatArg::Mbf), None) => {
            return Err("--format thesis and mbf write files: give -o DIR".into())
        }
        (Some(f), _) => f,
    };
    if format == FormatArg::Mbf && (level.rows > 255 || level.cols > 255) {
        return Err(format!(
            "MBF holds boards up to 255×255; {}×{} does not fit",
            level.rows, level.cols
        )
        .into());
    }
    if let Some(dir) = &args.output {
        if std::fs::symlink_metadata(dir).is_ok() {
            return Err(format!(
                "{}: already exists; give a new folder (boards are written whole)",
                dir.display()
            )
            .into());
        }
    }
    if args.count == 0 {
        return Err("--count must be at least 1".into());
    }
    let engine = default_engine()?;
    let sampling = match args.method {
        MethodArg::Uniform => Sampling::Uniform,
        MethodArg::Fast => Sampling::Fast,
    };
    let request = Request {
        level,
        first_click,
        start,
        sampling,
        seed: args.game.seed,
        count: args.count,
        max_attempts: args.max_attempts.max(1),
    };
    // Where the boards go, opened before any work: a folder that cannot
    // be created fails now, not after the boards are found.
    let mut sink = match &args.output {
        None => Sink::Stdout(std::io::BufWriter::new(std::io::stdout().lock())),
        Some(dir) => Sink::Folder(Folder::create(dir, format)?),
    };
    let bar = ProgressBar::with_draw_target(Some(args.count as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("boards {pos}/{len} [{elapsed_precise}] {wide_bar} eta {eta}")
            .expect("valid template"),
    );
    let t0 = Instant::now();
    // Each board is written as soon as it and those before it are found.
    let mut failure: Option<CliError> = None;
    let tally = engine.generate_each(&request, &|n| bar.inc(n), &mut |field| match sink
        .write(&field, start)
    {
        Ok(()) => ControlFlow::Continue(()),
        Err(e) => {
            failure = Some(e);
            ControlFlow::Break(())
        }
    });
    bar.finish_and_clear();
    let tally = tally.map_err(|e| match e {
        Error::GaveUp(gave_up) => format!(
            "{gave_up}; try fewer mines, another start, --method fast, or raise --max-attempts"
        ),
        other => other.to_string(),
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    sink.finish()?;
    let seconds = t0.elapsed().as_secs_f64();
    let n = tally.boards;
    let summary = serde_json::json!({
        "boards": n,
        "attempts": tally.attempts,
        "attempts_per_board": tally.attempts as f64 / n as f64,
        "undecided": tally.undecided,
        "seconds": seconds,
        "ms_per_board": seconds * 1e3 / n as f64,
        "level": {"rows": level.rows, "cols": level.cols, "mines": level.mines},
        "first_click": first_click.name(),
        "start": [start.0, start.1],
        "method": if sampling == Sampling::Uniform { "uniform" } else { "fast" },
        "seed": args.game.seed,
    });
    if args.json {
        eprintln!("{summary}");
    } else {
        eprintln!(
            "{n} no-guess boards ({}×{}, {} mines, {} first click at ({},{}), {}) in {seconds:.2} s: \
             {} attempts, {:.1} per board, {:.2} ms per board",
            level.rows,
            level.cols,
            level.mines,
            first_click.name(),
            start.0,
            start.1,
            summary["method"].as_str().unwrap_or_default(),
            tally.attempts,
            tally.attempts as f64 / n as f64,
            seconds * 1e3 / n as f64
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Where generated boards go.
enum Sink<'a> {
    /// JSON lines, each flushed as it is written.
    Stdout(std::io::BufWriter<std::io::StdoutLock<'a>>),
    /// A new folder of boards.
    Folder(Folder),
}

impl Sink<'_> {
    fn write(&mut self, field: &Field, start: (usize, usize)) -> Result<(), CliError> {
        match self {
            Sink::Stdout(out) => out
                .write_all(&json::line(&BoardReport::new(field, start, None), 4096))
                .and_then(|()| out.flush())
                .map_err(|e| format!("writing output: {e}").into()),
            Sink::Folder(folder) => folder.write(field, start),
        }
    }

    fn finish(self) -> Result<(), CliError> {
        match self {
            Sink::Stdout(mut out) => out
                .flush()
                .map_err(|e| format!("writing output: {e}").into()),
            Sink::Folder(folder) => folder.finish(),
        }
    }
}

/// A folder of boards written into a sibling temporary folder, renamed
/// to its name at the end: it appears whole or not at all (the temporary
/// folder is removed if the run fails).
struct Folder {
    dir: PathBuf,
    tmp: PathBuf,
    format: FormatArg,
    boards: usize,
    expected: String,
    starts: String,
    done: bool,
}

impl Folder {
    /// Creates the temporary folder beside `dir` (errors name `dir`).
    fn create(dir: &Path, format: FormatArg) -> Result<Folder, CliError> {
        let name = dir
            .file_name()
            .ok_or_else(|| format!("{}: not a folder name", dir.display()))?
            .to_string_lossy()
            .into_owned();
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
        std::fs::create_dir(&tmp).map_err(|e| {
            format!(
                "{}: cannot create the folder: {}",
                dir.display(),
                sapper_engine::files::describe_io(&e)
            )
        })?;
        Ok(Folder {
            dir: dir.to_path_buf(),
            tmp,
            format,
            boards: 0,
            expected: String::from("field,solved,opened_safe_cells\n"),
            starts: String::from("board,row,col\n"),
            done: false,
        })
    }

    fn write(&mut self, field: &Field, start: (usize, usize)) -> Result<(), CliError> {
        self.boards += 1;
        let name = format!("field_{}", self.boards);
        match self.format {
            FormatArg::Mbf => {
                let file = format!("{name}.mbf");
                let bytes = mbf_bytes(field.grid, &field.mine)?;
                self.put(&self.tmp.join(&file), &bytes)?;
                // MBF holds the mines only: where play starts, and what
                // solving from there gives, go beside the boards.
                self.starts
                    .push_str(&format!("{file},{},{}\n", start.0, start.1));
                self.expected
                    .push_str(&format!("{file},true,{}\n", field.safe_cells()));
            }
            _ => {
                // The start and its flood fill open, as a player would see
                // the board after the first click.
                let mut game = Game::new(field.grid, field.mine.clone());
                game.open(field.grid.index(start.0, start.1));
                let opened = game.into_field();
                let folder = self.tmp.join(&name);
                std::fs::create_dir(&folder).map_err(|e| self.error(&e))?;
                for (file, text) in FIELD_FILES.iter().zip(field_texts(&opened)) {
                    self.put(&folder.join(file), text.as_bytes())?;
                }
                self.expected
                    .push_str(&format!("{name},true,{}\n", field.safe_cells()));
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<(), CliError> {
        self.put(&self.tmp.join("expected.csv"), self.expected.as_bytes())?;
        if self.format == FormatArg::Mbf {
            self.put(&self.tmp.join(MBF_STARTS), self.starts.as_bytes())?;
        }
        std::fs::rename(&self.tmp, &self.dir).map_err(|e| self.error(&e))?;
        self.done = true;
        Ok(())
    }

    fn put(&self, path: &Path, bytes: &[u8]) -> Result<(), CliError> {
        std::fs::write(path, bytes).map_err(|e| self.error(&e))
    }

    /// An I/O error while writing, naming the folder asked for, not the
    /// temporary one.
    fn error(&self, e: &std::io::Error) -> CliError {
        format!(
            "{}: cannot write the boards: {}",
            self.dir.display(),
            sapper_engine::files::describe_io(e)
        )
        .into()
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_dir_all(&self.tmp);
        }
    }
}
