//! `sapper rules <info|show|verify|index|export> FILE`: inspect, draw,
//! re-prove, index (saving `FILE.index`) and export a rulebase file.

use rayon::prelude::*;
use sapper_engine::rules::format::{CountEntry, FORMAT_VERSION};
use sapper_engine::rules::verify::verify_rule;
use sapper_engine::rules::{Rule, RuleKind, Rulebase};
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

/// Inspect a rulebase file (`*.rules`, as written by `sapper synth`).
///
/// Rules are drawn with one character per cell: `?` closed, `s` closed and
/// proven safe, `m` closed and proven mine, `.` open, `0`–`8` a focus
/// number (its effective value), `#` wall (outside the field), `_` any
/// (not looked at).
#[derive(clap::Subcommand)]
pub enum RulesCommand {
    /// Summarize a rulebase: generator settings, rule counts per
    /// order × window × kind, file size.
    Info(InfoArgs),
    /// Draw rules as character grids, one header line per rule.
    ///
    /// `?` closed, `s` closed and proven safe, `m` closed and proven mine,
    /// `.` open, `0`–`8` focus number, `#` wall, `_` any. The index in
    /// `rule #N` is the rule's position in the file (as in `verify`).
    Show(ShowArgs),
    /// Re-prove every rule by exhaustive enumeration of its closed cells.
    ///
    /// Each forced rule must hold in every mine layout consistent with its
    /// focus numbers (and at least one layout must exist); each forbidden
    /// rule must admit no layout. Prints every failing rule with its index
    /// and the reason, then a summary. Exit status 1 if any rule fails.
    Verify(VerifyArgs),
    /// Prove every rule, then save the rule index beside the file
    /// (`FILE.index`), so `--rules FILE` loads in milliseconds.
    ///
    /// Once a rulebase has an index, `sapper synth -o FILE` and `sapper
    /// solve --learn FILE` refresh it whenever they rewrite FILE (they do
    /// not create one). FILE must be a file: the embedded default's index
    /// is built into the binary. Exit status 1, and no index, if a rule
    /// fails its proof.
    Index(VerifyArgs),
    /// Export rules as JSON lines, in file order.
    ///
    /// One object per rule, e.g.
    /// `{"order":2,"kind":"forced","pattern":["##_##","??s??",".121.","....."]}`:
    /// `pattern` holds the rows, drawn with the characters listed in `sapper
    /// rules --help`.
    Export(ExportArgs),
}

#[derive(clap::Args)]
pub struct InfoArgs {
    /// The rulebase file.
    #[arg(value_name = "FILE")]
    file: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct ShowArgs {
    /// The rulebase file.
    #[arg(value_name = "FILE")]
    file: String,
    /// Only rules of this order (number of focus numbers).
    #[arg(long, value_name = "N")]
    order: Option<u8>,
    /// Only rules of this window size (the pattern fits N × N).
    #[arg(long, value_name = "N")]
    window: Option<u8>,
    /// Only rules of this kind.
    #[arg(long, value_enum)]
    kind: Option<KindArg>,
    /// Show at most N rules (0: all of them).
    #[arg(long, value_name = "N", default_value_t = 20)]
    limit: usize,
}

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The rulebase file.
    #[arg(value_name = "FILE")]
    file: String,
}

#[derive(clap::Args)]
pub struct ExportArgs {
    /// The rulebase file.
    #[arg(value_name = "FILE")]
    file: String,
    /// Write JSON lines (the only export format; required so that another
    /// format can be added later without changing this one).
    #[arg(long, required = true)]
    json: bool,
    /// Only rules of this order.
    #[arg(long, value_name = "N")]
    order: Option<u8>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum KindArg {
    Forced,
    Forbidden,
}

pub fn run(c: RulesCommand) -> Result<ExitCode, super::CliError> {
    match c {
        RulesCommand::Info(a) => info(a),
        RulesCommand::Show(a) => show(a),
        RulesCommand::Verify(a) => verify(a),
        RulesCommand::Export(a) => export(a),
        RulesCommand::Index(a) => index(a),
    }
}

/// `rules index`: prove, index, save beside the file.
fn index(a: VerifyArgs) -> Result<ExitCode, super::CliError> {
    if a.file == "default" {
        return Err(
            "the embedded default rulebase's index is built into the binary; \
                    give a rulebase file"
                .into(),
        );
    }
    let path = std::path::Path::new(&a.file);
    sapper_engine::files::write_target(&sapper_engine::rules::saved::index_path(path))?;
    let start = std::time::Instant::now();
    let bytes = sapper_engine::files::read_capped(path, sapper_engine::files::MAX_RULEBASE_BYTES)
        .map_err(|e| e.to_string())?;
    let rulebase = Rulebase::from_bytes(&bytes).map_err(|e| format!("{}: {e}", a.file))?;
    if let Err(e) = super::rulebase::prove_rulebase(&a.file, &rulebase) {
        eprintln!("sapper: error: {e}");
        return Ok(ExitCode::from(1));
    }
    let written = super::rulebase::save_index_of(path, &bytes, &rulebase)?;
    let size = std::fs::metadata(&written).map(|m| m.len()).unwrap_or(0);
    println!(
        "proved and indexed {} rules: {} ({size} bytes) in {:.2} s",
        rulebase.rules.len(),
        written.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Whether `file` has a usable saved index, in words (for `rules info`).
fn index_status(file: &str) -> (&'static str, String) {
    use sapper_engine::rules::saved::{index_path, load_saved_index, SavedIndex};
    if file == "default" {
        return ("embedded", "built into the binary".into());
    }
    let path = std::path::Path::new(file);
    let shown = index_path(path).display().to_string();
    let Ok(bytes) =
        sapper_engine::files::read_capped(path, sapper_engine::files::MAX_RULEBASE_BYTES)
    else {
        return ("absent", shown);
    };
    match load_saved_index(path, &bytes) {
        SavedIndex::Valid(_) => ("valid", shown),
        SavedIndex::Absent => (
            "absent",
            format!("{shown} (`sapper rules index {file}` saves one)"),
        ),
        SavedIndex::Unusable(reason) => (
            "unusable",
            format!("{reason} (`sapper rules index {file}` rewrites it)"),
        ),
    }
}

/// A rulebase and where it came from.
struct Loaded {
    rulebase: Rulebase,
    /// Size of the file (or embedded bytes).
    byte_len: usize,
}

/// The one place a `FILE` argument becomes a rulebase: a path, or the word
/// `default` for the rulebase embedded in the binary.
fn load_rulebase(arg: &str) -> Result<Loaded, super::CliError> {
    let (rulebase, byte_len) = super::rulebase::load_rulebase(arg)?;
    Ok(Loaded { rulebase, byte_len })
}

/// Runs `body` on a buffered stdout. A closed pipe (`sapper rules show … |
/// head`) ends the output quietly; any other write error is fatal.
fn with_stdout(body: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), super::CliError> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match body(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(format!("writing output: {e}").into())
        }
        _ => Ok(()),
    }
}

fn kind_name(kind: RuleKind) -> &'static str {
    match kind {
        RuleKind::Forced => "forced",
        RuleKind::Forbidden => "forbidden",
    }
}

fn info(a: InfoArgs) -> Result<ExitCode, super::CliError> {
    let Loaded { rulebase, byte_len } = load_rulebase(&a.file)?;
    let counts = rulebase.counts();
    let rule_count = rulebase.rules.len();
    if a.json {
        #[derive(serde::Serialize)]
        struct Count {
            order: u8,
            window: u8,
            kind: &'static str,
            count: u64,
        }
        #[derive(serde::Serialize)]
        struct Info<'a> {
            file: &'a str,
            file_size: usize,
            format_version: u32,
            settings: &'a sapper_engine::rules::GeneratorSettings,
            rule_count: usize,
            counts: Vec<Count>,
            index: &'static str,
            index_detail: String,
        }
        let (index, index_detail) = index_status(&a.file);
        let info = Info {
            file: &a.file,
            file_size: byte_len,
            format_version: FORMAT_VERSION,
            settings: &rulebase.settings,
            rule_count,
            counts: counts
                .iter()
                .map(|c| Count {
                    order: c.order,
                    window: c.window,
                    kind: kind_name(c.kind),
                    count: c.count,
                })
                .collect(),
            index,
            index_detail,
        };
        let json = serde_json::to_string(&info)?;
        with_stdout(|out| writeln!(out, "{json}"))?;
        return Ok(ExitCode::SUCCESS);
    }
    with_stdout(|out| {
        let s = &rulebase.settings;
        writeln!(out, "rulebase:       {}", a.file)?;
        let per_rule = if rule_count > 0 {
            format!(
                ", {:.2} bytes per rule",
                byte_len as f64 / rule_count as f64
            )
        } else {
            String::new()
        };
        writeln!(
            out,
            "file size:      {byte_len} bytes (format version {FORMAT_VERSION}){per_rule}"
        )?;
        writeln!(out, "generator:      {}", s.generator)?;
        writeln!(out, "max order:      {}", s.max_order)?;
        writeln!(out, "max window:     {}", s.max_window)?;
        for (i, note) in s.notes.iter().enumerate() {
            let label = if i == 0 { "notes:" } else { "" };
            writeln!(out, "{label:<16}{note}")?;
        }
        writeln!(out, "rules:          {rule_count}")?;
        let (index, detail) = index_status(&a.file);
        writeln!(out, "index:          {index}: {detail}")?;
        writeln!(out)?;
        write_count_table(out, &counts)
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The counts as a table: one row per (order, window), forced / forbidden /
/// total columns, and a total row.
fn write_count_table(out: &mut dyn Write, counts: &[CountEntry]) -> io::Result<()> {
    writeln!(out, "order  window     forced  forbidden      total")?;
    let mut rows: Vec<(u8, u8, u64, u64)> = Vec::new();
    for c in counts {
        if !matches!(rows.last(), Some(r) if (r.0, r.1) == (c.order, c.window)) {
            rows.push((c.order, c.window, 0, 0));
        }
        let row = rows.last_mut().expect("pushed above");
        match c.kind {
            RuleKind::Forced => row.2 += c.count,
            RuleKind::Forbidden => row.3 += c.count,
        }
    }
    let (mut forced, mut forbidden) = (0, 0);
    for (order, window, f, b) in &rows {
        writeln!(out, "{order:>5}  {window:>6}  {f:>9}  {b:>9}  {:>9}", f + b)?;
        forced += f;
        forbidden += b;
    }
    writeln!(
        out,
        "{:>13}  {forced:>9}  {forbidden:>9}  {:>9}",
        "total",
        forced + forbidden
    )
}

fn rule_header(index: usize, rule: &Rule) -> String {
    format!(
        "rule #{index}: order {}, window {}, {} ({}×{})",
        rule.order(),
        rule.window(),
        kind_name(rule.kind),
        rule.pattern.h,
        rule.pattern.w
    )
}

fn show(a: ShowArgs) -> Result<ExitCode, super::CliError> {
    let Loaded { rulebase, .. } = load_rulebase(&a.file)?;
    let matching: Vec<(usize, &Rule)> = rulebase
        .rules
        .iter()
        .enumerate()
        .filter(|(_, r)| a.order.is_none_or(|o| r.order() == o))
        .filter(|(_, r)| a.window.is_none_or(|k| r.window() == k))
        .filter(|(_, r)| match a.kind {
            None => true,
            Some(KindArg::Forced) => r.kind == RuleKind::Forced,
            Some(KindArg::Forbidden) => r.kind == RuleKind::Forbidden,
        })
        .collect();
    let shown = if a.limit == 0 {
        matching.len()
    } else {
        a.limit.min(matching.len())
    };
    with_stdout(|out| {
        for (index, rule) in &matching[..shown] {
            writeln!(out, "{}", rule_header(*index, rule))?;
            for row in rule.rows() {
                writeln!(out, "  {row}")?;
            }
            writeln!(out)?;
        }
        if shown < matching.len() {
            writeln!(
                out,
                "showing {shown} of {} matching rules (--limit 0 shows all)",
                matching.len()
            )?;
        } else {
            writeln!(out, "{} matching rules", matching.len())?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

fn verify(a: VerifyArgs) -> Result<ExitCode, super::CliError> {
    let Loaded { rulebase, .. } = load_rulebase(&a.file)?;
    // Each rule is proven on its own; rayon keeps the result in index order.
    let failures: Vec<(usize, String)> = rulebase
        .rules
        .par_iter()
        .enumerate()
        .filter_map(|(i, r)| verify_rule(r).err().map(|e| (i, e)))
        .collect();
    let total = rulebase.rules.len();
    with_stdout(|out| {
        for (index, reason) in &failures {
            let rule = &rulebase.rules[*index];
            writeln!(out, "FAILED {}: {reason}", rule_header(*index, rule))?;
            for row in rule.rows() {
                writeln!(out, "  {row}")?;
            }
        }
        if failures.is_empty() {
            writeln!(out, "verified {total} rules: all sound")
        } else {
            writeln!(
                out,
                "verified {total} rules: {} failed, {} sound",
                failures.len(),
                total - failures.len()
            )
        }
    })?;
    if failures.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!(
            "sapper: {}: {} of {total} rules failed verification (first: rule #{}: {})",
            a.file,
            failures.len(),
            failures[0].0,
            failures[0].1
        );
        Ok(ExitCode::from(1))
    }
}

fn export(a: ExportArgs) -> Result<ExitCode, super::CliError> {
    debug_assert!(a.json, "clap requires --json");
    let Loaded { rulebase, .. } = load_rulebase(&a.file)?;
    #[derive(serde::Serialize)]
    struct Exported {
        order: u8,
        kind: &'static str,
        pattern: Vec<String>,
    }
    with_stdout(|out| {
        for rule in &rulebase.rules {
            if a.order.is_some_and(|o| rule.order() != o) {
                continue;
            }
            let line = Exported {
                order: rule.order(),
                kind: kind_name(rule.kind),
                pattern: rule.rows(),
            };
            // Serialized to a string first so that a write error keeps its
            // io kind (a closed pipe must stay recognisable).
            let json = serde_json::to_string(&line).map_err(io::Error::other)?;
            writeln!(out, "{json}")?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
