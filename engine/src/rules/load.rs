//! Loading a rulebase for matching: the embedded default with its frozen
//! index, or a file, proven before use unless trusted.
//!
//! # The default
//!
//! [`DEFAULT_RULEBASE`] and its index ([`DEFAULT_INDEX`], the frozen form
//! of [`RuleTiers`], see [`frozen`](super::index::frozen)) are both
//! embedded in this crate, from `engine/rules/default.rules` and the
//! `default.rules.index` saved beside it. Loading them costs a fraction of
//! a millisecond: the tables are used where they lie in the binary. The
//! index is bound to the rulebase's exact bytes (a checksum) and to this
//! engine's version, so a stale one is rejected, never misread; the
//! crate's tests check it is the index [`RuleTiers::new`] builds today,
//! byte for byte. `sapper rules index engine/rules/default.rules` rewrites
//! it after the rulebase is regenerated.
//!
//! # A file
//!
//! A checksum shows that a rulebase file is as its producer wrote it, not
//! that the producer was right: a crafted or buggy file with one unsound
//! rule would make the solver "prove" false deductions. So every rule of a
//! file is re-proven by enumeration ([`verify_rulebase`])
//! unless the caller passes [`Trust::Trust`]. An index saved beside the
//! file ([`saved`](super::index::saved)) stands for "these bytes were
//! proven" and is used instead of proving and indexing again.

use super::format::RulebaseError;
use super::index::saved::{index_path, load_saved_index, SavedIndex};
use super::index::RuleTiers;
use super::verify::verify_rulebase;
use super::{Rulebase, DEFAULT_RULEBASE};
use crate::files::{self, FileError};
use crate::wire::{Aligned, Bytes};
use std::path::{Path, PathBuf};

/// [`DEFAULT_RULEBASE`]'s rule index (`RuleTiers::to_index_bytes`),
/// aligned so that its tables are used in place.
pub static DEFAULT_INDEX: &Aligned<[u8]> =
    &Aligned(*include_bytes!("../../rules/default.rules.index"));

/// Rule counts from which indexing a file at load time takes a noticeable
/// time (about 0.2 s at 100,000 rules; the default's 8,959 take a few ms).
pub const SLOW_TO_INDEX: usize = 100_000;

/// Whether a rulebase file's rules are re-proven before they are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trust {
    /// Re-prove every rule (the default for files).
    Prove,
    /// Take the checksum as enough: the rules are used unproven.
    Trust,
}

/// Why a rulebase could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// The bytes are not a rulebase (framing, checksum, structure).
    #[error("{}: {source}", path.display())]
    Format {
        /// The file read.
        path: PathBuf,
        /// What is wrong with its bytes.
        source: RulebaseError,
    },
    /// A rule of the file does not hold: the file was written this way
    /// (its checksum is valid), and its producer was wrong.
    #[error("{}: rule #{index} is unsound: {reason}{}", path.display(), more_text(*more))]
    Unsound {
        /// The file read.
        path: PathBuf,
        /// The first unsound rule's position in the file (from 0).
        index: usize,
        /// Why it does not hold.
        reason: String,
        /// How many other rules are unsound.
        more: usize,
    },
    /// The embedded default rulebase does not decode: a build defect.
    #[error("the embedded default rulebase: {0}")]
    Embedded(RulebaseError),
}

fn more_text(more: usize) -> String {
    match more {
        0 => String::new(),
        n => format!(" (and {n} more)"),
    }
}

/// Something worth telling a user about a load that still succeeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadNote {
    /// The embedded index was rejected (`reason`): the embedded rulebase
    /// was indexed at load time instead. The crate's tests show this does
    /// not happen on the platforms they run on.
    EmbeddedIndexRejected {
        /// Why the index was rejected.
        reason: String,
    },
    /// A file beside the rulebase is not a usable index for it (stale,
    /// corrupt, from another version): the rulebase was indexed instead.
    SavedIndexUnusable {
        /// The reason, naming the index file.
        reason: String,
    },
    /// A large rulebase has no saved index, so it was indexed at load time
    /// (saving one makes later loads fast).
    NoSavedIndex {
        /// Where an index would be saved.
        index: PathBuf,
        /// Rules indexed.
        rules: usize,
    },
}

/// A rulebase ready for matching, and what is worth saying about its load.
#[derive(Debug)]
pub struct Loaded {
    /// The rule index, tier by tier.
    pub tiers: RuleTiers,
    /// What happened on the way, if anything.
    pub note: Option<LoadNote>,
}

/// The default rulebase's tiers from the embedded index; should the index
/// be rejected, the embedded rulebase indexed now (with a note).
pub fn default_tiers() -> Result<Loaded, LoadError> {
    match RuleTiers::from_index(Bytes::from_static(&DEFAULT_INDEX.0), DEFAULT_RULEBASE) {
        Ok(tiers) => Ok(Loaded { tiers, note: None }),
        Err(e) => {
            let rb = super::default_rulebase().map_err(LoadError::Embedded)?;
            Ok(Loaded {
                tiers: RuleTiers::new(&rb),
                note: Some(LoadNote::EmbeddedIndexRejected {
                    reason: e.to_string(),
                }),
            })
        }
    }
}

/// The tiers of the rulebase file at `path`: its saved index when one is
/// valid for its bytes, else the rulebase proven (unless `trust`) and
/// indexed.
pub fn file_tiers(path: &Path, trust: Trust) -> Result<Loaded, LoadError> {
    let bytes = files::read_capped(path, files::MAX_RULEBASE_BYTES)?;
    let saved = load_saved_index(path, &bytes);
    if let SavedIndex::Valid(tiers) = saved {
        // Saved only for proven rules, bound to these exact bytes: the
        // proof is cached with it.
        return Ok(Loaded { tiers, note: None });
    }
    let rb = Rulebase::from_bytes(&bytes).map_err(|source| LoadError::Format {
        path: path.to_path_buf(),
        source,
    })?;
    let note = match saved {
        SavedIndex::Unusable(reason) => Some(LoadNote::SavedIndexUnusable { reason }),
        SavedIndex::Absent if rb.rules.len() >= SLOW_TO_INDEX => Some(LoadNote::NoSavedIndex {
            index: index_path(path),
            rules: rb.rules.len(),
        }),
        _ => None,
    };
    if trust == Trust::Prove {
        prove(path, &rb)?;
    }
    Ok(Loaded {
        tiers: RuleTiers::new(&rb),
        note,
    })
}

/// The rulebase file at `path`, decoded (framing and checksum checked,
/// rules not re-proven), and its size in bytes.
pub fn read_file(path: &Path) -> Result<(Rulebase, usize), LoadError> {
    let bytes = files::read_capped(path, files::MAX_RULEBASE_BYTES)?;
    let rb = Rulebase::from_bytes(&bytes).map_err(|source| LoadError::Format {
        path: path.to_path_buf(),
        source,
    })?;
    Ok((rb, bytes.len()))
}

/// Re-proves every rule of `rb`, read from `path`, by enumeration; the
/// first unsound rule is the error.
pub fn prove(path: &Path, rb: &Rulebase) -> Result<(), LoadError> {
    let failures = verify_rulebase(rb);
    match failures.first() {
        None => Ok(()),
        Some((index, reason)) => Err(LoadError::Unsound {
            path: path.to_path_buf(),
            index: *index,
            reason: reason.clone(),
            more: failures.len() - 1,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-for-byte check of the embedded index against a fresh build
    /// is `tests/suite/frozen_index.rs`; here, that loading it needs no fallback.
    #[test]
    fn the_default_rules_load_from_the_embedded_index_without_a_note() {
        let loaded = default_tiers().unwrap();
        assert_eq!(loaded.note, None);
    }

    #[test]
    fn an_unsound_rule_names_the_file_and_the_rule() {
        let mut rb = super::super::default_rulebase().unwrap();
        // Flip the first forced rule's conclusion: it no longer holds.
        let rule = rb
            .rules
            .iter_mut()
            .find(|r| r.kind == super::super::RuleKind::Forced)
            .unwrap();
        std::mem::swap(&mut rule.safe, &mut rule.mine);
        let e = prove(Path::new("x.rules"), &rb).unwrap_err();
        assert!(e.to_string().starts_with("x.rules: rule #"), "{e}");
    }
}
