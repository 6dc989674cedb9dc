//! The rule index saved beside a rulebase file, so a grown or learned
//! rulebase loads as fast as the embedded default.
//!
//! # Why
//!
//! Indexing a rulebase ([`RuleTiers::new`]) builds hash tables sized for
//! the build: for the hundreds of thousands of rules of an order-3
//! rulebase that is seconds and hundreds of megabytes at every start. The default rulebase
//! avoids it because its frozen index is embedded in the engine
//! ([`load::DEFAULT_INDEX`](crate::rules::load::DEFAULT_INDEX)); any
//! other rulebase can have the same frozen form ([`frozen`](super::frozen))
//! saved next to it, as `NAME.index` beside `NAME`: `sapper rules index
//! NAME` writes it, and `sapper synth -o NAME` and `sapper solve --learn
//! NAME` refresh it when they rewrite a rulebase that has one.
//!
//! Saving is asked for, not automatic, because the frozen form holds the
//! lookup tables as built, so it is large next to the rulebase (about 17
//! times the rulebase file for an order-3 rulebase, orders ≥ 3 stored in
//! one orientation, see `orient.rs`); it loads mapped, its tables used in
//! place, in milliseconds instead of the seconds of proving and indexing
//! (docs/performance.md).
//!
//! A file beside the rulebase rather than a section inside it: the
//! rulebase format and its bytes stay as they are (old files load, and a
//! rulebase can be copied or diffed without the much larger index), and a
//! stale index is harmless because it is bound to the exact bytes it was
//! built from.
//!
//! # What loading checks, and what it trusts
//!
//! [`load_saved_index`] uses the index only if
//! [`RuleTiers::from_index`] accepts it: same magic, format and
//! engine version; built from exactly these rulebase bytes (their checksum
//! is recorded); body intact (its own checksum) and structurally sound. A
//! missing, stale, corrupt or foreign index is reported as such and never
//! used: the caller indexes the rulebase instead.
//!
//! Saving an index is also where the proof of the rulebase is cached:
//! [`save_index`] is only called for rules that were proven (synthesized
//! by enumeration, learned and re-proven, or verified by `rules index`), so
//! an index that loads stands for "these exact rulebase bytes were
//! proven". Like any file a user controls, an index forged with matching
//! checksums is not detected; deleting it (or `sapper rules index FILE`)
//! makes sapper prove and index the rulebase again.

use crate::files::{self, FileError};
use crate::rules::index::frozen::IndexError;
use crate::rules::index::RuleTiers;
use crate::wire::Bytes;
use std::path::{Path, PathBuf};

/// Largest index file read: an order-3 index is tens of megabytes.
pub const MAX_INDEX_BYTES: u64 = 1 << 30;

/// Where the index of the rulebase at `rulebase` is saved: the same path
/// with `.index` appended (`big.rules` → `big.rules.index`).
pub fn index_path(rulebase: &Path) -> PathBuf {
    let mut name = rulebase.as_os_str().to_owned();
    name.push(".index");
    PathBuf::from(name)
}

/// What was found beside a rulebase.
#[derive(Debug)]
pub enum SavedIndex {
    /// No index file.
    Absent,
    /// An index built from these rulebase bytes, intact.
    Valid(RuleTiers),
    /// A file that is not a usable index for these bytes (stale, corrupt,
    /// from another version, unreadable): the reason, naming the file.
    Unusable(String),
}

/// The index saved beside the rulebase at `rulebase`, checked against the
/// rulebase's bytes `rulebase_bytes`.
pub fn load_saved_index(rulebase: &Path, rulebase_bytes: &[u8]) -> SavedIndex {
    let path = index_path(rulebase);
    if std::fs::symlink_metadata(&path).is_err() {
        return SavedIndex::Absent;
    }
    // Mapped, not read: the tables are used where they lie in the page
    // cache (`RuleTiers::from_index`), so loading costs the checks that
    // touch them, not a copy.
    let (file, _) = match files::open_capped(&path, MAX_INDEX_BYTES) {
        Ok(opened) => opened,
        Err(e) => return SavedIndex::Unusable(e.to_string()),
    };
    // SAFETY: an index file is written whole and renamed into place by
    // sapper (`save_index`), never changed in place; a user who rewrites
    // it in place while sapper runs breaks the contract of `Bytes::map`,
    // as with any memory-mapped file.
    let bytes = match unsafe { Bytes::map(&file) } {
        Ok(bytes) => bytes,
        Err(e) => return SavedIndex::Unusable(format!("{}: cannot map: {e}", path.display())),
    };
    match RuleTiers::from_index(bytes, rulebase_bytes) {
        Ok(tiers) => SavedIndex::Valid(tiers),
        Err(e) => SavedIndex::Unusable(describe(&path, &e)),
    }
}

fn describe(path: &Path, e: &IndexError) -> String {
    format!("{}: {e}", path.display())
}

/// Saves `tiers`, the index of the rulebase whose file holds exactly
/// `rulebase_bytes`, beside it (written whole: a reader sees the old index
/// or the new one, never a part). Call it only for proven rules (see the
/// module docs). Returns the path written.
pub fn save_index(
    rulebase: &Path,
    rulebase_bytes: &[u8],
    tiers: &RuleTiers,
) -> Result<PathBuf, FileError> {
    let path = index_path(rulebase);
    files::write_whole(&path, &tiers.to_index_bytes(rulebase_bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rulebase, DEFAULT_RULEBASE};

    #[test]
    fn a_saved_index_loads_mapped_with_its_tables_in_place_and_goes_stale_with_its_rulebase() {
        let dir = std::env::temp_dir().join(format!("sapper-saved-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rulebase = dir.join("copy.rules");
        std::fs::write(&rulebase, DEFAULT_RULEBASE).unwrap();
        assert!(matches!(
            load_saved_index(&rulebase, DEFAULT_RULEBASE),
            SavedIndex::Absent
        ));

        let tiers = RuleTiers::new(&Rulebase::from_bytes(DEFAULT_RULEBASE).unwrap());
        save_index(&rulebase, DEFAULT_RULEBASE, &tiers).unwrap();
        let SavedIndex::Valid(loaded) = load_saved_index(&rulebase, DEFAULT_RULEBASE) else {
            panic!("a freshly saved index is not valid");
        };
        assert_eq!(loaded, tiers);
        if cfg!(target_endian = "little") {
            for (_, ix) in loaded.tiers() {
                assert!(ix.entries1.entries.is_borrowed() && ix.pairs.slots.is_borrowed());
            }
        }

        // The rulebase changed after indexing: the index is stale.
        let mut changed = DEFAULT_RULEBASE.to_vec();
        changed[100] ^= 1;
        match load_saved_index(&rulebase, &changed) {
            SavedIndex::Unusable(why) => assert!(why.contains("copy.rules.index"), "{why}"),
            _ => panic!("a stale index was used"),
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
