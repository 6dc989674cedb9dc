//! A [`RuleTiers`] frozen into bytes: the rule index of a rulebase known at
//! compile time, built at compile time.
//!
//! # Why
//!
//! Building the index of the default rulebase (`RuleIndex::from_rules`,
//! about 2 MB of tables) takes several milliseconds, and loading the
//! rulebase itself more than one: at every start of the `sapper` process
//! that was most of the time a small `solve` took. The `sapper` package's
//! build script builds the default rulebase's [`RuleTiers`] with this very
//! engine and writes [`RuleTiers::to_index_bytes`] to a file the binary
//! embeds; at run time [`RuleTiers::from_index`] checks it and uses its
//! tables where they lie (a fraction of a millisecond). Any other rulebase
//! is indexed at run time, or loads the same form saved beside it
//! ([`super::saved`]), mapped into memory and used in place the same way.
//!
//! # Format
//!
//! All numbers little-endian. A header:
//!
//! | bytes | what |
//! |-------|------|
//! | 8     | magic `SAPPERIX` |
//! | 4     | [`FORMAT_VERSION`] |
//! | 1 + n | the sapper-engine version that wrote it (length, UTF-8) |
//! | 8     | checksum ([`checksum64`]) of the exact rulebase bytes the index was built from |
//! | 8     | body length |
//! | 8     | body checksum ([`checksum64`]) |
//! | 0–7   | zero padding, so that the body starts at a multiple of 8 |
//!
//! then the body: the tier count (u32) and per tier its order (u8) and its
//! [`RuleIndex`], field by field (see `write_index`). The large tables
//! (entries, keys, hash tables, key filter) are [`Writer::table`]s: a
//! count, zero padding to a multiple of 8 in the file, then the values, so
//! that [`Reader::table`] borrows them in place instead of copying (the
//! loaded index is then the file's pages). Hash maps are written
//! as lists sorted by key, so equal indexes give equal bytes: the bytes
//! depend only on the rulebase (and the engine), never on a hasher seed.
//!
//! # What is checked when loading
//!
//! [`RuleTiers::from_index`] never panics. It rejects, with the
//! reason: another magic, format version or engine version; an index built
//! from other rulebase bytes than the ones given (their checksum differs); a
//! file cut short or with bytes after the body; a body whose checksum
//! differs (checked before anything in the body is decoded); nonzero
//! padding; and a body that does not decode to a structurally sound index —
//! every table of the right size, every entry number, chain link and
//! extra-cell range inside its table, chains only going forward (so they
//! end), slot sets within the 28 slots, an empty slot in every
//! open-addressing table (so a probe ends), conclusions inside the frame:
//! whatever it accepts, [`RuleIndex::find`] can use without indexing out of
//! a table or looping (and `find` never reports a cell off the board, which
//! only a damaged entry could name). What the entries conclude is not re-proven (that is
//! what rebuilding the index does): the format version, the source checksum
//! and the body checksum stand for it, against an index built from other
//! rules or by another layout, and against corruption. A deliberately
//! forged index with matching checksums could make the solver conclude
//! nonsense, so an index is only written for proven rules: by the build
//! script, and beside a rulebase by the commands that prove it
//! ([`super::saved`] says which).
//!
//! # Changing the index layout
//!
//! The build script runs again whenever the engine changes (the engine is
//! one of its build dependencies), so the embedded index always has the
//! layout of the engine that reads it. Saved indexes do not: bump
//! [`FORMAT_VERSION`] whenever the fields of [`RuleIndex`] or their meaning
//! change, so that an index written by another version is rejected by name
//! rather than misread (the engine version in the header catches the rest).

use super::layout::{FocusClasses, FIRST_SLOT, MAX_ORDER, NO_ENTRY, SLOTS};
use super::tables::{
    Check, Entry, EntryStore, ExtraCell, KeyFilter, KeyTable, PairTable, EMPTY_SLOT, FRAME_BITS,
    META_CHECKED, META_FORBIDDEN, META_NEXT, META_ORDER_SHIFT,
};
use super::{derived_fields, Orientations, RejectedRule, RuleIndex};
use crate::rules::index::RuleTiers;
use crate::rules::PatternCell;
use crate::wire::{checksum64, Bytes, Format, Reader, WireError, Writer, TABLE_ALIGN};
use hashbrown::HashMap;

/// The first bytes of a frozen index.
pub const MAGIC: &[u8; 8] = b"SAPPERIX";

/// Version of the layout of the body (the fields of [`RuleIndex`] and how
/// they are written). Bump it whenever either changes.
pub const FORMAT_VERSION: u32 = 4;

/// The frozen index as a [`Format`] of the shared wire module.
pub const FORMAT: Format = Format {
    name: "rule index",
    magic: MAGIC,
    version: FORMAT_VERSION,
};

/// The sapper-engine version, stored in the header: an index is only read
/// by the engine version that wrote it.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why bytes are not a usable frozen index for the given rulebase: not a
/// valid index file ([`WireError`]), or a valid one made for another
/// engine or rulebase.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// Not a valid index file: magic, version, lengths, checksum or the
    /// body's contents (the shared vocabulary of [`crate::wire`]).
    #[error(transparent)]
    Wire(#[from] WireError),
    /// A valid index written by another version of sapper-engine, whose
    /// layout this one does not read.
    #[error(
        "rule index written by sapper-engine {found:?}, this is {expected}: rebuild the index"
    )]
    EngineVersion {
        /// The engine version stored in the index.
        found: String,
        /// This engine's version ([`ENGINE_VERSION`]).
        expected: &'static str,
    },
    /// A valid index built from another rulebase than the one given.
    #[error(
        "the rule index was built from another rulebase (checksum {found:#018x}, \
         the rulebase given has {expected:#018x}): rebuild the index"
    )]
    SourceMismatch {
        /// The source checksum stored in the index.
        found: u64,
        /// The checksum of the rulebase bytes given.
        expected: u64,
    },
}

impl RuleTiers {
    /// These tiers as a frozen index (see the [module docs](self)),
    /// recording the checksum of `source_rulebase_bytes`, the rulebase file
    /// they were built from. The same tiers give the same bytes.
    pub fn to_index_bytes(&self, source_rulebase_bytes: &[u8]) -> Vec<u8> {
        let mut body = Writer::default();
        body.len(self.tiers().len());
        for (order, index) in self.tiers() {
            body.u8(*order);
            write_index(&mut body, index);
        }
        let body = body.out;
        let mut w = Writer {
            out: Vec::with_capacity(body.len() + 64),
        };
        FORMAT.write_header(&mut w.out);
        let version = ENGINE_VERSION.as_bytes();
        w.u8(u8::try_from(version.len()).expect("a short engine version"));
        w.out.extend_from_slice(version);
        w.u64(checksum64(source_rulebase_bytes));
        w.u64(body.len() as u64);
        w.u64(checksum64(&body));
        // The body starts aligned, so its tables can be borrowed in place.
        w.align(TABLE_ALIGN);
        w.out.extend_from_slice(&body);
        w.out
    }

    /// The tiers frozen in `index` by [`RuleTiers::to_index_bytes`] (a
    /// copy of them: see [`RuleTiers::from_index`]).
    pub fn from_index_bytes(
        index: &[u8],
        source_rulebase_bytes: &[u8],
    ) -> Result<RuleTiers, IndexError> {
        RuleTiers::from_index(Bytes::copy_from(index), source_rulebase_bytes)
    }

    /// The tiers frozen in `index` by [`RuleTiers::to_index_bytes`], if
    /// they were built from exactly `source_rulebase_bytes` by this layout
    /// and engine version, and arrived intact (see the [module
    /// docs](self) for what is checked). Never panics.
    ///
    /// The large tables (entries, keys, hash tables, filter) are borrowed
    /// from `index`, not copied: a mapped file ([`Bytes::map`]) is read
    /// from the page cache as the checks touch it, and shared by every
    /// clone of the tiers.
    pub fn from_index(index: Bytes, source_rulebase_bytes: &[u8]) -> Result<RuleTiers, IndexError> {
        let all = index.as_slice();
        let mut r = FORMAT.read_header(all)?;
        let version_len = r.u8("engine version length")? as usize;
        let version = r.take(version_len, "engine version")?;
        if version != ENGINE_VERSION.as_bytes() {
            return Err(IndexError::EngineVersion {
                found: String::from_utf8_lossy(version).into_owned(),
                expected: ENGINE_VERSION,
            });
        }
        let source = r.u64("source rulebase checksum")?;
        let expected = checksum64(source_rulebase_bytes);
        if source != expected {
            return Err(IndexError::SourceMismatch {
                found: source,
                expected,
            });
        }
        let body_len = r.u64("body length")?;
        let stored = r.u64("body checksum")?;
        r.align(TABLE_ALIGN, "header padding")?;
        let body_start = r.offset();
        let available = all.len() - body_start;
        let body_len = match usize::try_from(body_len) {
            Ok(n) if n <= available => n,
            _ => return Err(r.truncated("body", body_start).into()),
        };
        if body_len < available {
            return Err(WireError::TrailingBytes {
                format: FORMAT.name,
                count: available - body_len,
                offset: body_start + body_len,
            }
            .into());
        }
        let body = r.rest();
        let computed = checksum64(body);
        if stored != computed {
            return Err(WireError::ChecksumMismatch {
                format: FORMAT.name,
                stored,
                computed,
            }
            .into());
        }
        read_body(&mut Reader::in_file(FORMAT.name, &index, body_start))
    }
}

/// Decodes and validates a body (its tables borrowed from the file `r`
/// reads).
fn read_body(r: &mut Reader) -> Result<RuleTiers, IndexError> {
    let count = r.count("tier count", 1)?;
    let mut tiers = Vec::with_capacity(count);
    for t in 0..count {
        let order = r.u8("tier order")?;
        let previous = tiers.last().map_or(0, |&(o, _)| o);
        if !(1..=3).contains(&order) || order <= previous {
            return Err(corrupt(format!(
                "tier {t} has order {order}: tiers are orders 1, 2 and 3 (orders ≥ 3), \
                 increasing"
            )));
        }
        let index = read_index(r)?;
        validate(&index).map_err(|e| corrupt(format!("tier {t} (order {order}): {e}")))?;
        // The flat order-1 table is derived, not stored: rebuilt from the
        // (validated) order-1 chains.
        tiers.push((order, index.with_order1_outcomes()));
    }
    r.expect_end()?;
    Ok(RuleTiers::from_tiers(tiers))
}

fn corrupt(reason: String) -> IndexError {
    WireError::Corrupt {
        format: FORMAT.name,
        reason,
    }
    .into()
}

/// A hash map as its pairs sorted by key.
fn write_map<V>(w: &mut Writer, map: &HashMap<u32, V>, mut value: impl FnMut(&mut Writer, &V)) {
    let mut pairs: Vec<(&u32, &V)> = map.iter().collect();
    pairs.sort_unstable_by_key(|&(k, _)| *k);
    w.len(pairs.len());
    for (&k, v) in pairs {
        w.u32(k);
        value(w, v);
    }
}

/// A map written by [`write_map`] (`value_bytes`: the size of one value);
/// its keys must be strictly increasing.
fn read_map<'a, V>(
    r: &mut Reader<'a>,
    what: &'static str,
    value_bytes: usize,
    mut value: impl FnMut(&mut Reader<'a>) -> Result<V, IndexError>,
) -> Result<HashMap<u32, V>, IndexError> {
    let n = r.count(what, 4 + value_bytes)?;
    let mut map = HashMap::with_capacity(n);
    let mut previous = None;
    for _ in 0..n {
        let k = r.u32(what)?;
        if previous.is_some_and(|p| k <= p) {
            return Err(corrupt(format!("{what}: keys not increasing")));
        }
        previous = Some(k);
        map.insert(k, value(r)?);
    }
    Ok(map)
}

fn write_store(w: &mut Writer, store: &EntryStore) {
    w.table(&store.entries);
    w.table(&store.keys);
    write_map(w, &store.next, |w, &v| w.u32(v));
    write_map(w, &store.checks, |w, c| {
        w.u64(c.walls);
        w.u32(c.extras_start);
        w.u32(c.extras_len);
    });
}

fn read_store(r: &mut Reader) -> Result<EntryStore, IndexError> {
    let entries = r.table("entries")?;
    let keys = r.table("entry keys")?;
    let next = read_map(r, "chain links", 4, |r| Ok(r.u32("chain link")?))?;
    let checks = read_map(r, "entry checks", 16, |r| {
        Ok(Check {
            walls: r.u64("walls")?,
            extras_start: r.u32("extra cells start")?,
            extras_len: r.u32("extra cells length")?,
        })
    })?;
    Ok(EntryStore {
        entries,
        keys,
        next,
        checks,
    })
}

/// Every field of `index` but the ones that follow from others (table
/// fill counts, the filter's mask, the highest order, the slots of all
/// orders ≥ 3), which [`read_index`] recomputes.
fn write_index(w: &mut Writer, index: &RuleIndex) {
    for store in [&index.entries1, &index.entries2, &index.entries] {
        write_store(w, store);
    }
    w.len(index.extras.len());
    for x in &index.extras {
        w.u16(x.dr as u16);
        w.u16(x.dc as u16);
        // The index rejects numbers above 8: every cell it holds has a code.
        w.u8(x.cell.code().expect("an indexed cell has a code"));
    }
    w.u32s(&index.order1);
    w.table(&index.pairs.slots);
    w.table(&index.multi.slots);
    w.table(&index.filter.words);
    w.len(index.next_short.len());
    for row in &index.next_short {
        row.iter().for_each(|&s| w.u32(s));
    }
    w.len(index.next_long.len());
    for map in &index.next_long {
        write_map(w, map, |w, &v| w.u32(v));
    }
    w.u32s(&index.slots_by_order);
    index.co_slots_above_2.iter().for_each(|&s| w.u32(s));
    index.classes.iter().for_each(|&c| w.u16(c));
    w.usizes(&index.rules_by_order);
    w.usizes(&index.images_by_order);
    w.len(index.rejected.len());
    for rejected in &index.rejected {
        w.u64(rejected.rule as u64);
        w.len(rejected.reason.len());
        w.out.extend_from_slice(rejected.reason.as_bytes());
    }
    w.u8(match index.orientations {
        Orientations::All => 0,
        Orientations::One => 1,
    });
}

/// Reads what [`write_index`] wrote. The result is not validated yet.
fn read_index(r: &mut Reader) -> Result<RuleIndex, IndexError> {
    let entries1 = read_store(r)?;
    let entries2 = read_store(r)?;
    let entries = read_store(r)?;
    let extras = r
        .records("extra cells", 5, |x| {
            Ok(ExtraCell {
                dr: i16::from_le_bytes([x[0], x[1]]),
                dc: i16::from_le_bytes([x[2], x[3]]),
                cell: PatternCell::from_code(x[4])
                    .ok_or_else(|| corrupt(format!("pattern cell code {}", x[4])))?,
            })
        })?
        .into_iter()
        .collect::<Result<_, IndexError>>()?;
    let order1 = r.u32s("order-1 table")?;
    let pair_slots = r.table("pair table")?;
    let multi_slots = r.table("key table")?;
    let words = r.table("key filter")?;
    const ROW: usize = SLOTS as usize + 1;
    let next_short = r.records("slot prefix tree", ROW * 4, |row| {
        std::array::from_fn(|s| {
            u32::from_le_bytes([row[4 * s], row[4 * s + 1], row[4 * s + 2], row[4 * s + 3]])
        })
    })?;
    let orders = r.count("long slot prefixes", 4)?;
    let next_long = (0..orders)
        .map(|_| read_map(r, "long slot prefixes", 4, |r| Ok(r.u32("next slots")?)))
        .collect::<Result<_, _>>()?;
    let slots_by_order = r.u32s("slots by order")?;
    let mut co_slots_above_2 = [0u32; SLOTS as usize];
    for s in &mut co_slots_above_2 {
        *s = r.u32("co-slots")?;
    }
    let mut classes: FocusClasses = [0; 81];
    for c in &mut classes {
        *c = r.u16("focus classes")?;
    }
    let rules_by_order = r.usizes("rules by order")?;
    let images_by_order = r.usizes("images by order")?;
    let count = r.count("rejected rules", 12)?;
    let rejected = (0..count)
        .map(|_| {
            let rule = r.u64("rejected rule")?;
            let len = r.count("rejection reason", 1)?;
            let reason = std::str::from_utf8(r.take(len, "rejection reason")?)
                .map_err(|_| corrupt("a rejection reason is not UTF-8".into()))?;
            Ok(RejectedRule {
                rule: usize::try_from(rule)
                    .map_err(|_| corrupt("rejected rule number too large".into()))?,
                reason: reason.to_string(),
            })
        })
        .collect::<Result<_, IndexError>>()?;
    let orientations = match r.u8("orientations")? {
        0 => Orientations::All,
        1 => Orientations::One,
        other => return Err(corrupt(format!("orientations code {other}"))),
    };

    let filled = |slots: &[u64]| {
        slots
            .iter()
            .fold(0usize, |n, &s| n + (s != EMPTY_SLOT) as usize)
    };
    let (max_order, slots_above_2) = derived_fields(&rules_by_order, &slots_by_order);
    Ok(RuleIndex {
        entries1,
        entries2,
        entries,
        extras,
        order1_outcomes: Vec::new(),
        order1,
        pairs: PairTable {
            len: filled(&pair_slots),
            slots: pair_slots,
        },
        multi: KeyTable {
            len: filled(&multi_slots),
            slots: multi_slots,
        },
        filter: KeyFilter {
            mask: (words.len() as u64).wrapping_sub(1),
            words,
        },
        next_short,
        next_long,
        slots_by_order,
        slots_above_2,
        co_slots_above_2,
        classes,
        max_order,
        rules_by_order,
        images_by_order,
        rejected,
        orientations,
    })
}

/// The slots a slot set may hold: `FIRST_SLOT..SLOTS`.
const VALID_SLOTS: u32 = ((1u64 << SLOTS) - (1u64 << FIRST_SLOT)) as u32;

/// Checks what [`RuleIndex::find`] relies on to stay inside its tables
/// and to finish (see the module docs).
fn validate(index: &RuleIndex) -> Result<(), String> {
    let per_order = MAX_ORDER + 1;
    for (what, len) in [
        ("rules by order", index.rules_by_order.len()),
        ("images by order", index.images_by_order.len()),
        ("slots by order", index.slots_by_order.len()),
        ("slot prefix tree", index.next_short.len()),
        ("long slot prefixes", index.next_long.len()),
    ] {
        if len != per_order {
            return Err(format!("{what}: {len} orders, not {per_order}"));
        }
    }
    // (Counts stay far from overflowing when summed.)
    if index.rules_by_order[0] != 0
        || index
            .rules_by_order
            .iter()
            .chain(&index.images_by_order)
            .any(|&n| n > u32::MAX as usize)
    {
        return Err("impossible rule or image counts".into());
    }
    let slot_sets = index
        .slots_by_order
        .iter()
        .chain(&index.co_slots_above_2)
        .chain(index.next_short.iter().flatten())
        .chain(
            index
                .next_long
                .iter()
                .flat_map(|m| m.keys().chain(m.values())),
        );
    if slot_sets.into_iter().any(|&s| s & !VALID_SLOTS != 0) {
        return Err("a slot set outside the 28 slots".into());
    }

    for (name, store, order) in [
        ("order-1 entries", &index.entries1, 1),
        ("order-2 entries", &index.entries2, 2),
        ("order ≥ 3 entries", &index.entries, 3),
    ] {
        validate_store(store, order, index.extras.len()).map_err(|e| format!("{name}: {e}"))?;
    }
    if !index.entries1.keys.is_empty() || !index.entries2.keys.is_empty() {
        return Err("keys stored beside order-1 or order-2 entries".into());
    }
    if index.entries.keys.len() != index.entries.entries.len() {
        return Err(format!(
            "{} keys for {} order ≥ 3 entries",
            index.entries.keys.len(),
            index.entries.entries.len()
        ));
    }

    if index.order1.len() != 9 * 512 {
        return Err(format!("order-1 table of {} cells", index.order1.len()));
    }
    let n1 = index.entries1.entries.len() as u32;
    if index.order1.iter().any(|&h| h != NO_ENTRY && h >= n1) {
        return Err("order-1 table: an entry out of range".into());
    }
    for (what, slots, entries) in [
        ("pair table", &index.pairs.slots, &index.entries2),
        ("key table", &index.multi.slots, &index.entries),
    ] {
        // Probes stop at an empty slot: there must be one.
        if !slots.contains(&EMPTY_SLOT) {
            return Err(format!("{what} has no empty slot"));
        }
        // In word operations only: which slots are empty is as good as
        // random, and this runs over every slot at every start. An entry
        // `e` is out of range when `e - n` does not borrow (`n < 2^32`).
        let n = entries.entries.len() as u64;
        let bad = slots.iter().fold(0u64, |bad, &s| {
            let x = s ^ EMPTY_SLOT;
            let used = (x | x.wrapping_neg()) >> 63;
            let out_of_range = !((s & 0xFFFF_FFFF).wrapping_sub(n) >> 63) & 1;
            bad | (used & out_of_range)
        });
        if bad != 0 {
            return Err(format!("{what}: an entry out of range"));
        }
    }
    if !index.filter.words.len().is_power_of_two() {
        return Err(format!(
            "key filter of {} words, not a power of two",
            index.filter.words.len()
        ));
    }
    Ok(())
}

/// Entries of `order` (3: orders ≥ 3) with their links and checks in range
/// (`extras`: length of the index's extra cells).
fn validate_store(store: &EntryStore, order: u8, extras: usize) -> Result<(), String> {
    let n = store.entries.len();
    if n >= NO_ENTRY as usize {
        return Err(format!("{n} entries"));
    }
    // The orders allowed, as a bit set.
    let orders: u64 = if order < 3 {
        1 << order
    } else {
        (2 << MAX_ORDER) - (1 << order)
    };
    // Nonzero when the entry is wrong, in word operations only (this runs
    // over every entry at every start).
    let wrong = |entry: &Entry| -> u64 {
        let meta = entry.safe_meta;
        let conclusion = (meta & FRAME_BITS) | entry.mine;
        let forbidden = 0u64.wrapping_sub((meta & META_FORBIDDEN != 0) as u64);
        // (A cell concluded both ways is possible: images of unsound rules
        // merged. `find` reports it as a contradiction.)
        (!orders >> (meta >> META_ORDER_SHIFT & 15) & 1)
            | (entry.mine & !FRAME_BITS)
            | (conclusion & forbidden)
    };
    const FLAGS: u64 = META_NEXT | META_CHECKED;
    // One pass without a branch per entry; the (rare) entries with links
    // or checks are looked at again.
    let (bad, flagged) = store.entries.iter().fold((0u64, 0u64), |(b, f), e| {
        (b | wrong(e), f | (e.safe_meta & FLAGS))
    });
    let (bad, flagged) = (bad != 0, flagged != 0);
    if bad {
        let e = store
            .entries
            .iter()
            .position(|e| wrong(e) != 0)
            .unwrap_or_default();
        return Err(format!(
            "entry {e}: order out of range, or a conclusion outside the frame or on a \
             forbidden combination"
        ));
    }
    let (mut links, mut checks) = (0, 0);
    for (e, entry) in store.entries.iter().enumerate() {
        if !flagged {
            break;
        }
        let e = e as u32;
        if entry.safe_meta & META_NEXT != 0 {
            links += 1;
            // Chains only go forward, so they end.
            match store.next.get(&e) {
                Some(&next) if next > e && (next as usize) < n => {}
                _ => return Err(format!("entry {e}: missing or backward chain link")),
            }
        }
        if entry.safe_meta & META_CHECKED != 0 {
            checks += 1;
            match store.checks.get(&e) {
                Some(c) if c.extras_start as usize + c.extras_len as usize <= extras => {}
                _ => {
                    return Err(format!(
                        "entry {e}: missing check or extra cells out of range"
                    ))
                }
            }
        }
    }
    if links != store.next.len() || checks != store.checks.len() {
        return Err("chain links or checks for entries without the flag".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{board_from_picture, Board};
    use crate::rules::{GeneratorSettings, Pattern, Rule, RuleKind, Rulebase};

    /// A rule from a picture: `#` wall, `.` open, `?` closed, `_` any, a
    /// digit a focus, `s` / `m` closed and concluded safe / mine. Forbidden
    /// when nothing is concluded. (The index checks the rule invariants,
    /// not soundness: these rules need not be sound.)
    fn rule(rows: &[&str]) -> Rule {
        let (h, w) = (rows.len(), rows[0].len());
        let (mut safe, mut mine) = (0u64, 0u64);
        let mut cells = Vec::new();
        for (i, ch) in rows.iter().flat_map(|r| r.chars()).enumerate() {
            cells.push(match ch {
                '#' => PatternCell::Wall,
                '.' => PatternCell::Open,
                '?' => PatternCell::Closed,
                '_' => PatternCell::Any,
                's' | 'm' => {
                    *if ch == 's' { &mut safe } else { &mut mine } |= 1 << i;
                    PatternCell::Closed
                }
                d => PatternCell::Number(d.to_digit(10).unwrap() as u8),
            });
        }
        let kind = if safe | mine == 0 {
            RuleKind::Forbidden
        } else {
            RuleKind::Forced
        };
        Rule {
            pattern: Pattern::new(h as u8, w as u8, cells),
            kind,
            safe,
            mine,
        }
        .canonical()
    }

    /// Rules of orders 1 to 4 that fill every part of the index: walls
    /// and extra cells (checks), two entries under one key (a chain), a
    /// forbidden rule, slot prefixes of two slots, a rejected rule.
    fn sample_tiers() -> (Vec<u8>, RuleTiers) {
        let rules = vec![
            rule(&["sss_?", "s0s_.", "sss__"]),
            rule(&["####", "#11.", "#??s"]),
            rule(&["....", ".11.", ".??s"]),
            rule(&[".?.", ".3.", "..."]),
            rule(&[".....", ".111.", "?m?s?"]),
            rule(&["....", ".22.", ".22.", "?ms?"]),
            rule(&["1?", "??"]),
        ];
        let rb = Rulebase {
            settings: GeneratorSettings {
                max_order: 4,
                max_window: 5,
                generator: "frozen.rs tests".into(),
                notes: vec![],
            },
            rules,
        };
        // Any bytes stand for the source rulebase.
        let source = b"sample rulebase".to_vec();
        (source, RuleTiers::new(&rb))
    }

    fn body_of(index: &[u8]) -> &[u8] {
        let header = 8 + 4 + 1 + index[12] as usize + 8 + 8 + 8;
        &index[header.next_multiple_of(TABLE_ALIGN)..]
    }

    /// Small boards, some where the sample rules fire.
    fn boards() -> Vec<Board> {
        let mut boards = vec![
            board_from_picture(&["11.", "???"], None),
            board_from_picture(&["....", ".11.", ".???"], None),
            board_from_picture(&["?????", "?0?.1", "?????"], None),
            board_from_picture(&[".....", ".111.", "?????"], None),
            board_from_picture(&["....", ".22.", ".22.", "????"], None),
        ];
        let mut rng = crate::test_rng::TestRng::new(0x2545_F491_4F6C_DD1D);
        for (h, w) in [(6, 7), (9, 5), (12, 12)] {
            let rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| b"??.F0111222233"[rng.below(14)] as char)
                        .collect()
                })
                .collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            boards.push(board_from_picture(&rows, None));
        }
        boards
    }

    #[test]
    fn tiers_of_every_kind_read_back_equal() {
        let (source, tiers) = sample_tiers();
        let orders: Vec<u8> = tiers.tiers().iter().map(|&(o, _)| o).collect();
        assert_eq!(orders, vec![1, 2, 3]);
        let all = |f: &dyn Fn(&RuleIndex) -> usize| -> usize {
            tiers.tiers().iter().map(|(_, ix)| f(ix)).sum()
        };
        // Not vacuous: every map and side table has something in it.
        assert!(all(&|ix| ix.extras.len()) > 0);
        assert!(all(&|ix| ix.entries1.checks.len() + ix.entries2.checks.len()) > 0);
        assert!(all(&|ix| ix.entries2.next.len()) > 0);
        assert!(all(&|ix| ix.entries.keys.len()) > 0);
        assert!(all(&|ix| ix.next_long.iter().map(HashMap::len).sum()) > 0);
        assert!(all(&|ix| ix.rejected.len()) > 0);
        assert!(all(&|ix| ix.stats().forbidden_entries) > 0);

        let bytes = tiers.to_index_bytes(&source);
        let back = RuleTiers::from_index_bytes(&bytes, &source).unwrap();
        assert_eq!(back, tiers);
        assert_eq!(back.to_index_bytes(&source), bytes);
        // The large tables are the file's bytes, used in place.
        if cfg!(target_endian = "little") {
            for (_, ix) in back.tiers() {
                for store in [&ix.entries1, &ix.entries2, &ix.entries] {
                    assert!(store.entries.is_borrowed() && store.keys.is_borrowed());
                }
                assert!(ix.pairs.slots.is_borrowed() && ix.multi.slots.is_borrowed());
                assert!(ix.filter.words.is_borrowed());
            }
        }
        for board in boards() {
            for ((_, a), (_, b)) in tiers.tiers().iter().zip(back.tiers()) {
                let (mut x, mut y) = (Vec::new(), Vec::new());
                assert_eq!(a.find(&board, None, &mut x), b.find(&board, None, &mut y));
                assert_eq!(x, y);
            }
        }
    }

    /// The bytes do not depend on how the hash maps were filled.
    #[test]
    fn maps_are_written_in_key_order() {
        let (source, tiers) = sample_tiers();
        let bytes = tiers.to_index_bytes(&source);
        let refill = |m: &HashMap<u32, u32>| {
            let mut pairs: Vec<(u32, u32)> = m.iter().map(|(&k, &v)| (k, v)).collect();
            pairs.sort_unstable();
            let mut out = HashMap::with_capacity(1000);
            out.extend(pairs.into_iter().rev());
            out
        };
        let refilled = tiers
            .tiers()
            .iter()
            .map(|(order, ix)| {
                let mut ix = ix.clone();
                for store in [&mut ix.entries1, &mut ix.entries2, &mut ix.entries] {
                    store.next = refill(&store.next);
                    let mut checks: Vec<_> = store.checks.drain().collect();
                    checks.sort_unstable_by_key(|&(k, _)| std::cmp::Reverse(k));
                    store.checks = HashMap::with_capacity(1000);
                    store.checks.extend(checks);
                }
                ix.next_long = ix.next_long.iter().map(refill).collect();
                (*order, ix)
            })
            .collect();
        let refilled = RuleTiers::from_tiers(refilled);
        assert_eq!(refilled, tiers);
        assert!(refilled.to_index_bytes(&source) == bytes);
    }

    /// A body on its own, decoded as `from_index` decodes one (the body
    /// starts aligned in its file; here the file is the body).
    fn decode_body(body: &[u8]) -> Result<RuleTiers, IndexError> {
        let file = Bytes::copy_from(body);
        read_body(&mut Reader::in_file(FORMAT.name, &file, 0))
    }

    #[test]
    fn every_cut_of_the_body_is_rejected() {
        let (source, tiers) = sample_tiers();
        let bytes = tiers.to_index_bytes(&source);
        let body = body_of(&bytes);
        assert!(decode_body(body).is_ok());
        for len in 0..body.len() {
            match decode_body(&body[..len]) {
                Err(IndexError::Wire(WireError::Truncated { .. } | WireError::Corrupt { .. })) => {}
                other => panic!("cut at {len}: {other:?}"),
            }
        }
        let mut longer = body.to_vec();
        longer.push(0);
        assert!(matches!(
            decode_body(&longer),
            Err(IndexError::Wire(WireError::TrailingBytes { count: 1, .. }))
        ));
    }

    /// The changes made to each byte of the body.
    static FLIPS: [u8; 3] = [0x01, 0x80, 0xFF];

    /// Every byte of the body changed (past the checksum), by one of
    /// [`FLIPS`] in turn: rejected, or tiers `find` runs on without a
    /// panic.
    #[test]
    fn every_changed_byte_of_the_body_is_rejected_or_harmless() {
        changed_bytes_are_rejected_or_harmless(|i| std::slice::from_ref(&FLIPS[i % FLIPS.len()]));
    }

    /// Every byte of the body changed by each of [`FLIPS`].
    #[test]
    #[ignore = "seconds: three decodings per byte; .ci/run runs it with --ignored"]
    fn every_change_of_every_byte_of_the_body_is_rejected_or_harmless() {
        changed_bytes_are_rejected_or_harmless(|_| &FLIPS);
    }

    /// Each byte `i` of the body changed by each of `flips(i)` (xored):
    /// rejected, or tiers `find` runs on without a panic; some of each.
    fn changed_bytes_are_rejected_or_harmless(flips: impl Fn(usize) -> &'static [u8]) {
        let (source, tiers) = sample_tiers();
        let bytes = tiers.to_index_bytes(&source);
        let body = body_of(&bytes);
        let boards = boards();
        let (mut accepted, mut refused) = (0, 0);
        for i in 0..body.len() {
            for &flip in flips(i) {
                let mut b = body.to_vec();
                b[i] ^= flip;
                let outcome = std::panic::catch_unwind(|| {
                    decode_body(&b).map(|tiers| {
                        for board in &boards {
                            let n = board.grid().len() as u32;
                            let dirty: Vec<u32> = (0..n).collect();
                            for (_, ix) in tiers.tiers() {
                                for dirty in [None, Some(&dirty[..])] {
                                    let mut out = Vec::new();
                                    let _ = ix.find(board, dirty, &mut out);
                                    assert!(out.iter().all(|(f, _)| f.cell < n), "off the board");
                                }
                            }
                        }
                    })
                });
                match outcome {
                    Ok(Ok(())) => accepted += 1,
                    Ok(Err(_)) => refused += 1,
                    Err(_) => panic!("body byte {i} ^ {flip:#x}: panicked"),
                }
            }
        }
        assert!(
            accepted > 0 && refused > 0,
            "{accepted} accepted, {refused} refused"
        );
    }

    /// What `validate` exists for, one case each.
    #[test]
    fn structurally_unsound_indexes_are_rejected() {
        let (_, tiers) = sample_tiers();
        let order2 = &tiers.tiers()[1].1;
        let order3 = &tiers.tiers()[2].1;
        assert_eq!(validate(order2), Ok(()));
        assert_eq!(validate(order3), Ok(()));
        let broken = |ix: &RuleIndex, f: &dyn Fn(&mut RuleIndex)| {
            let mut ix = ix.clone();
            f(&mut ix);
            validate(&ix).expect_err("accepted")
        };
        // A full table: a probe for a missing key would never end.
        broken(order2, &|ix| {
            for s in ix.pairs.slots.to_mut() {
                if *s == EMPTY_SLOT {
                    *s = 0;
                }
            }
        });
        broken(order3, &|ix| {
            let filled = ix
                .multi
                .slots
                .iter()
                .position(|&s| s != EMPTY_SLOT)
                .unwrap();
            ix.multi.slots.to_mut()[filled] = ix.multi.slots[filled] & !0xFFFF_FFFF | 1_000;
        });
        broken(order2, &|ix| ix.order1[3] = 77);
        // A chain link back to itself would loop.
        broken(order2, &|ix| {
            let (&e, _) = ix.entries2.next.iter().next().unwrap();
            ix.entries2.next.insert(e, e);
        });
        broken(order2, &|ix| ix.entries2.checks.clear());
        broken(order2, &|ix| {
            for c in ix.entries2.checks.values_mut() {
                c.extras_len = 100;
            }
        });
        broken(order2, &|ix| {
            ix.entries2.entries.to_mut()[0].mine |= 1 << 60
        });
        broken(order2, &|ix| {
            let e = &mut ix.entries2.entries.to_mut()[0];
            e.safe_meta |= META_FORBIDDEN | 1;
        });
        broken(order2, &|ix| {
            ix.entries2.entries.to_mut()[0].safe_meta ^= 3 << 54
        });
        broken(order3, &|ix| ix.slots_by_order[4] |= 1 << 30);
        broken(order3, &|ix| ix.co_slots_above_2[5] |= 1);
        broken(order3, &|ix| {
            ix.entries.keys.to_mut().pop();
        });
        broken(order2, &|ix| {
            let n = ix.filter.words.len();
            ix.filter.words.to_mut().resize(3 * n, 0);
        });
        broken(order2, &|ix| ix.rules_by_order.push(0));
    }
}
