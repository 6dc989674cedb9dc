//! Rulebases for the commands: the engine over `--rules FILE` /
//! `--no-rules` (with what loading noticed told to the user), a rulebase
//! read for `sapper rules` and `solve --learn`, and load errors with the
//! command-line hints.

use super::args::RulesArgs;
use super::CliError;
use sapper_engine::budget::Budget;
pub use sapper_engine::rules::load::Trust;
use sapper_engine::rules::load::{self, LoadError, LoadNote};
use sapper_engine::rules::{RuleTiers, DEFAULT_RULEBASE};
use sapper_engine::{Engine, Rules};
use std::path::Path;

/// Tells the user what the engine noticed while loading rulebase `arg`.
fn print_note(note: Option<&LoadNote>, arg: &str) {
    match note {
        None => {}
        Some(LoadNote::EmbeddedIndexRejected { reason }) => eprintln!(
            "sapper: warning: the embedded rule index is rejected ({reason}); indexing the \
             embedded rulebase instead"
        ),
        Some(LoadNote::SavedIndexUnusable { reason }) => eprintln!(
            "sapper: warning: {reason}; indexing {arg} instead (`sapper rules index {arg}` \
             rewrites the index)"
        ),
        Some(LoadNote::NoSavedIndex { index, rules }) => eprintln!(
            "sapper: note: {arg} has no saved index ({}): indexing its {rules} rules now; \
             `sapper rules index {arg}` saves one so later runs load faster",
            index.display(),
        ),
    }
}

/// A rulebase load error, with the command-line hints.
pub fn load_error(e: LoadError) -> CliError {
    match &e {
        LoadError::Unsound { path, .. } => format!(
            "{e}; its checksum is valid, so the file was written this way — `sapper rules \
             verify {}` lists every unsound rule (--trust-rules uses the file without this \
             proof)",
            path.display()
        )
        .into(),
        _ => e.to_string().into(),
    }
}

/// Indexes `rb` (just written to `path` as `bytes`) and saves the index
/// beside it. Call it only for proven rules (see `sapper_engine::rules::saved`).
pub fn save_index_of(
    path: &Path,
    bytes: &[u8],
    rb: &sapper_engine::rules::Rulebase,
) -> Result<std::path::PathBuf, CliError> {
    let tiers = RuleTiers::new(rb);
    sapper_engine::rules::saved::save_index(path, bytes, &tiers)
        .map_err(|e| format!("writing the rule index: {e}").into())
}

/// `--trust-rules` as a [`Trust`].
pub fn trust_from_flag(trust_rules: bool) -> Trust {
    if trust_rules {
        Trust::Trust
    } else {
        Trust::Prove
    }
}

/// Re-proves every rule of a rulebase read from `arg` by enumeration,
/// refusing the file if one fails (`sapper_engine::rules::load::prove`).
pub fn prove_rulebase(arg: &str, rb: &sapper_engine::rules::Rulebase) -> Result<(), CliError> {
    load::prove(Path::new(arg), rb).map_err(load_error)
}

/// Loads a rulebase: a path, or the word `default` for the embedded one.
pub fn load_rulebase(arg: &str) -> Result<(sapper_engine::rules::Rulebase, usize), CliError> {
    if arg == "default" {
        // Trusted: framing and checksum are checked, the per-rule checks
        // skipped — the engine's tests validate these exact bytes fully
        // (and `sapper rules verify` re-proves every rule).
        let rb = sapper_engine::rules::default_rulebase()
            .map_err(|e| format!("embedded default rulebase: {e}"))?;
        return Ok((rb, DEFAULT_RULEBASE.len()));
    }
    load::read_file(Path::new(arg)).map_err(load_error)
}

impl RulesArgs {
    /// The engine these flags ask for, with `budget` for each computation:
    /// the embedded rulebase, a file's (proven on load unless
    /// `--trust-rules`), or none. What loading noticed is told on stderr.
    pub fn engine(&self, budget: Budget) -> Result<Engine, CliError> {
        if self.no_rules {
            return Ok(Engine::with_rules(Rules::None)?.with_budget(budget));
        }
        match &self.rules {
            None => Ok(default_engine()?.with_budget(budget)),
            Some(path) => {
                Ok(rules_engine(&path.to_string_lossy(), self.trust())?.with_budget(budget))
            }
        }
    }

    /// Whether the --rules file is proven before use.
    pub fn trust(&self) -> Trust {
        trust_from_flag(self.trust_rules)
    }
}

/// The engine over the embedded rulebase (its index is embedded too).
pub fn default_engine() -> Result<Engine, CliError> {
    rules_engine("default", Trust::Trust)
}

/// The engine over rulebase `arg`: a path, or `default` for the embedded
/// one. A file's rules are proven first unless `trust`.
pub fn rules_engine(arg: &str, trust: Trust) -> Result<Engine, CliError> {
    let rules = match (arg, trust) {
        ("default", _) => Rules::Default,
        (_, Trust::Prove) => Rules::File(arg.into()),
        (_, Trust::Trust) => Rules::TrustedFile(arg.into()),
    };
    let engine = Engine::with_rules(rules).map_err(|e| match e {
        sapper_engine::Error::Rules(e) => load_error(e),
        e => e.into(),
    })?;
    print_note(engine.load_note(), arg);
    Ok(engine)
}
