//! The binary rulebase file (docs/design.md §4), in the style of regex-automata's
//! serialized DFAs: a fixed preamble, length-prefixed sections, a checksum.
//!
//! # Layout (format version 1)
//!
//! All integers little-endian.
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 8 | magic `SAPPERRB` |
//! | 8 | 4 | format version, `u32` (= [`FORMAT_VERSION`]) |
//! | 12 | 4 | header length `H`, `u32` |
//! | 16 | `H` | header: bincode (fixint, little-endian) of [`Header`] |
//! | 16+H | 4 | payload length `P`, `u32` |
//! | 20+H | `P` | payload: bincode (fixint, little-endian) of the packed rules |
//! | 20+H+P | 4 | CRC-32 (IEEE) of bytes `0 .. 20+H+P`, `u32` |
//!
//! Nothing may follow the checksum.
//!
//! # Packed rules
//!
//! The payload is `{ bit_len: u64, bytes: Vec<u8> }`: a bit stream, least
//! significant bit of each byte first, `bytes.len() = ⌈bit_len / 8⌉`, unused
//! bits of the last byte zero. Rules are stored sorted (derived `Ord`),
//! canonical and distinct, one record each:
//!
//! 1. `kind`: 1 bit, 0 = forced, 1 = forbidden;
//! 2. `same_shape`: 1 bit, 1 when `h × w` equals the previous rule's (0 for
//!    the first rule), else followed by `h − 1` and `w − 1`, 3 bits each;
//! 3. `shared`: only when `same_shape`, `⌈log2(h·w)⌉` bits: how many leading
//!    cell symbols equal the previous rule's. It must be the *longest* such
//!    prefix, so every rulebase has exactly one encoding;
//! 4. the remaining `h·w − shared` cell symbols, row-major. A symbol is a
//!    3-bit code — 0 any, 1 wall, 2 open, 3 closed, 4 closed and concluded
//!    safe, 5 closed and concluded mine, 6 focus (followed by its value, 4
//!    bits), 7 reserved.
//!
//! Sorted rules share long prefixes with their predecessor, so a record is
//! mostly the tail where two neighbouring patterns differ. On the exhaustive
//! test set of `examples/bytes_per_rule.rs` (663,186
//! rules of orders 1–3 in windows 3–6) the whole file takes 3.16 bytes per
//! rule; 3×3 alone 2.2, the sparsest set (4×5, order 2) 3.7.
//!
//! # Validation
//!
//! [`Rulebase::from_bytes`] never panics. It checks, in order: magic,
//! version, section lengths (a short file is [`WireError::Truncated`]),
//! checksum, header, the packed stream, then every rule: well formed
//! ([`super::verify::check_structure`]), canonical, and strictly after the
//! previous rule; finally the header's counts must equal the rules' counts.
//! Soundness is *not* re-proven on load (that is
//! [`super::verify::verify_rulebase`], run by `sapper rules verify` and the
//! tests).

use super::verify::check_structure;
use super::{cell_code, GeneratorSettings, Pattern, PatternCell, Rule, RuleKind, Rulebase};
use crate::wire::{crc32, Format, WireError};
use bincode::Options;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::path::Path;

/// The 8 magic bytes every rulebase file starts with.
pub const MAGIC: [u8; 8] = *b"SAPPERRB";

/// The format version this build writes (and the newest it reads).
pub const FORMAT_VERSION: u32 = 1;

/// The rulebase file as a [`Format`] of the shared wire module.
pub const FORMAT: Format = Format {
    name: "rulebase",
    magic: &MAGIC,
    version: FORMAT_VERSION,
};

/// The file header: how the rulebase was made and what it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// How the rules were made ([`Rulebase::settings`]).
    pub settings: GeneratorSettings,
    /// Rule counts per order × window × kind, sorted, zero counts omitted.
    pub counts: Vec<CountEntry>,
    /// Number of rules the payload holds.
    pub rule_count: u64,
}

/// How many rules of one order, window and kind a rulebase holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CountEntry {
    /// The rules' order: their number of foci ([`Rule::order`]).
    pub order: u8,
    /// The rules' window `k`: their patterns fit `k × k`
    /// ([`Rule::window`]).
    pub window: u8,
    /// What the rules conclude.
    pub kind: RuleKind,
    /// How many rules of this order, window and kind the rulebase holds.
    pub count: u64,
}

/// Why a rulebase could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum RulebaseError {
    /// Not a valid rulebase file: magic, version, lengths, checksum or the
    /// sections' contents (the shared vocabulary of [`crate::wire`]).
    #[error(transparent)]
    Wire(#[from] WireError),
    /// A rule that is malformed ([`check_structure`]), not canonical, or
    /// not strictly after the one before it.
    #[error("invalid rule #{index}: {reason}")]
    InvalidRule {
        /// The rule's position in the rule list, 0-based.
        index: usize,
        /// What is wrong with it, in words.
        reason: String,
    },
    /// An I/O error not tied to a named file (errors reading or writing a
    /// rulebase file are [`RulebaseError::File`]).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The file could not be read or written (see [`crate::files`]).
    #[error(transparent)]
    File(#[from] crate::files::FileError),
}

fn corrupt(reason: impl Into<String>) -> RulebaseError {
    WireError::Corrupt {
        format: FORMAT.name,
        reason: reason.into(),
    }
    .into()
}

/// The bincode configuration of both sections: fixed-width little-endian
/// integers, nothing after the value, and at most `limit` bytes read (so a
/// corrupt length can never make bincode allocate more than the section).
fn bincode_options(limit: u64) -> impl Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_little_endian()
        .reject_trailing_bytes()
        .with_limit(limit)
}

/// The payload section before bit-packing is undone.
#[derive(Serialize, Deserialize)]
struct PackedRules {
    bit_len: u64,
    bytes: Vec<u8>,
}

// ---------------------------------------------------------------------------
// Cell symbols and the bit stream.

// The first four symbols are the shared cell codes (`rules::cell_code`);
// this alphabet then folds the conclusions into closed cells (safe, mine)
// and stores a number's value beside its symbol. Fixed by version 1.
const CODE_ANY: u32 = cell_code::ANY as u32;
const CODE_WALL: u32 = cell_code::WALL as u32;
const CODE_OPEN: u32 = cell_code::OPEN as u32;
const CODE_CLOSED: u32 = cell_code::CLOSED as u32;
const CODE_SAFE: u32 = 4;
const CODE_MINE: u32 = 5;
const CODE_NUMBER: u32 = 6;
const CODE_BITS: u32 = 3;
const VALUE_BITS: u32 = 4;

/// A cell with its conclusion, as one comparable value: the 3-bit code,
/// and the focus value for [`CODE_NUMBER`].
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Symbol {
    code: u32,
    value: u32,
}

fn symbols_of(rule: &Rule) -> Vec<Symbol> {
    rule.pattern
        .cells
        .iter()
        .enumerate()
        .map(|(i, &cell)| {
            let bit = 1u64 << i;
            let (code, value) = match cell {
                PatternCell::Any => (CODE_ANY, 0),
                PatternCell::Wall => (CODE_WALL, 0),
                PatternCell::Open => (CODE_OPEN, 0),
                PatternCell::Closed if rule.safe & bit != 0 => (CODE_SAFE, 0),
                PatternCell::Closed if rule.mine & bit != 0 => (CODE_MINE, 0),
                PatternCell::Closed => (CODE_CLOSED, 0),
                PatternCell::Number(v) => (CODE_NUMBER, v as u32),
            };
            Symbol { code, value }
        })
        .collect()
}

/// Bits needed to store `shared ∈ 0 .. n`.
fn shared_bits(n: usize) -> u32 {
    usize::BITS - (n.max(1) - 1).leading_zeros()
}

#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    bit_len: u64,
}

impl BitWriter {
    fn put(&mut self, value: u32, bits: u32) {
        debug_assert!(bits == 32 || value >> bits == 0);
        for k in 0..bits {
            if self.bit_len.is_multiple_of(8) {
                self.bytes.push(0);
            }
            let bit = (value >> k) & 1;
            *self.bytes.last_mut().expect("pushed above") |= (bit as u8) << (self.bit_len % 8);
            self.bit_len += 1;
        }
    }
}

struct BitReader<'a> {
    bytes: &'a [u8],
    bit_len: u64,
    pos: u64,
}

impl BitReader<'_> {
    /// The next `bits` bits, or `None` past the end of the stream.
    fn get(&mut self, bits: u32) -> Option<u32> {
        if self.bit_len - self.pos < bits as u64 {
            return None;
        }
        debug_assert!(bits <= 32);
        // The bits lie in the 5 bytes from `pos / 8` (a shift of at most 7
        // plus at most 32 bits); near the end fewer bytes are read, missing
        // ones count as 0 and are never part of the value, since
        // pos + bits ≤ bit_len ≤ 8 · bytes.len() (checked when the reader
        // was made).
        let first = (self.pos / 8) as usize;
        let window = match self.bytes.get(first..first + 8) {
            Some(eight) => u64::from_le_bytes(eight.try_into().expect("8 bytes")),
            None => self.bytes[first..]
                .iter()
                .enumerate()
                .fold(0u64, |w, (k, &b)| w | (b as u64) << (8 * k)),
        };
        let value = (window >> (self.pos % 8)) & ((1u64 << bits) - 1);
        self.pos += bits as u64;
        Some(value as u32)
    }
}

pub use super::symmetry::is_canonical;
use super::symmetry::ShapeSymmetries;

// ---------------------------------------------------------------------------
// Rulebase <-> bytes.

impl Rulebase {
    /// Rule counts per order × window × kind, sorted by (order, window,
    /// kind), zero counts omitted.
    pub fn counts(&self) -> Vec<CountEntry> {
        let mut counts = Counts::default();
        for r in &self.rules {
            counts.add(r.order(), r.window(), r.kind);
        }
        counts.finish()
    }

    /// Checks the invariants a rulebase file guarantees: every rule well
    /// formed and canonical, rules strictly increasing (sorted, distinct).
    pub fn validate(&self) -> Result<(), RulebaseError> {
        let mut checker = ListChecker::default();
        for (index, rule) in self.rules.iter().enumerate() {
            let previous = index.checked_sub(1).map(|p| &self.rules[p]);
            checker.check(index, rule, previous)?;
        }
        Ok(())
    }

    /// This rulebase in the normal form a file holds: every rule replaced by
    /// its canonical form, sorted, duplicates removed. Fails on a malformed
    /// rule (index into `self.rules`).
    pub fn normalized(&self) -> Result<Rulebase, RulebaseError> {
        for (index, rule) in self.rules.iter().enumerate() {
            check_structure(rule).map_err(|reason| RulebaseError::InvalidRule { index, reason })?;
        }
        let mut rules: Vec<Rule> = self.rules.iter().map(Rule::canonical).collect();
        rules.sort_unstable();
        rules.dedup();
        Ok(Rulebase {
            settings: self.settings.clone(),
            rules,
        })
    }

    /// The file bytes of this rulebase. The rules are normalized first
    /// ([`Rulebase::normalized`]), so the bytes depend only on the settings
    /// and the set of rules up to symmetry — not on their order — and equal
    /// rulebases give identical bytes.
    ///
    /// # Panics
    ///
    /// If a rule is malformed ([`check_structure`]); that is a bug in
    /// whatever built the rulebase. Use [`Rulebase::try_to_bytes`] to get
    /// the error instead.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self.try_to_bytes() {
            Ok(bytes) => bytes,
            Err(e) => panic!("Rulebase::to_bytes: {e}"),
        }
    }

    /// [`Rulebase::to_bytes`], returning [`RulebaseError::InvalidRule`] for
    /// a malformed rule instead of panicking.
    pub fn try_to_bytes(&self) -> Result<Vec<u8>, RulebaseError> {
        let normal = self.normalized()?;
        let header = Header {
            settings: normal.settings.clone(),
            counts: normal.counts(),
            rule_count: normal.rules.len() as u64,
        };
        let payload = pack_rules(&normal.rules);
        let header = bincode_options(u64::MAX)
            .serialize(&header)
            .map_err(|e| corrupt(format!("cannot encode the header: {e}")))?;
        let payload = bincode_options(u64::MAX)
            .serialize(&payload)
            .map_err(|e| corrupt(format!("cannot encode the payload: {e}")))?;
        let section_len = |what: &str, len: usize| {
            u32::try_from(len).map_err(|_| corrupt(format!("{what} of {len} bytes exceeds 4 GiB")))
        };
        let mut out = Vec::with_capacity(24 + header.len() + payload.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&section_len("header", header.len())?.to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(&section_len("payload", payload.len())?.to_le_bytes());
        out.extend_from_slice(&payload);
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        Ok(out)
    }

    /// Reads a rulebase from file bytes, checking everything listed in the
    /// module docs. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Rulebase, RulebaseError> {
        Rulebase::decode(bytes, Checks::Full)
    }

    /// Reads a rulebase from bytes known to be a valid file — the rulebase
    /// embedded in the binary, whose bytes a test checks in full with
    /// [`Rulebase::from_bytes`]. Checks magic, version, section lengths and
    /// the checksum, and decodes the header and the packed stream (a
    /// malformed stream is still an error), but skips the per-rule checks:
    /// structure ([`check_structure`]), canonical form, strict order, and
    /// the header's counts against the rules. On valid bytes the result
    /// equals [`Rulebase::from_bytes`]'s; on bytes that pass the checksum
    /// but break those invariants the rules may break them too (the
    /// matcher still rejects malformed rules). Never panics.
    pub fn from_trusted_bytes(bytes: &[u8]) -> Result<Rulebase, RulebaseError> {
        Rulebase::decode(bytes, Checks::Trusted)
    }

    fn decode(bytes: &[u8], checks: Checks) -> Result<Rulebase, RulebaseError> {
        let mut cursor = FORMAT.read_header(bytes)?;
        let header_len = cursor.u32("header length")? as usize;
        let header_bytes = cursor.take(header_len, "header")?;
        let payload_len = cursor.u32("payload length")? as usize;
        let payload_bytes = cursor.take(payload_len, "payload")?;
        let checked_len = cursor.offset();
        let stored = cursor.u32("checksum")?;
        cursor.expect_end()?;
        let computed = crc32(&bytes[..checked_len]);
        if stored != computed {
            return Err(WireError::ChecksumMismatch {
                format: FORMAT.name,
                stored: stored.into(),
                computed: computed.into(),
            }
            .into());
        }

        let header: Header = bincode_options(header_len as u64)
            .deserialize(header_bytes)
            .map_err(|e| corrupt(format!("unreadable header: {e}")))?;
        let packed: PackedRules = bincode_options(payload_len as u64)
            .deserialize(payload_bytes)
            .map_err(|e| corrupt(format!("unreadable payload: {e}")))?;
        let (rules, counts) = unpack_rules(&packed, header.rule_count, checks)?;
        if checks == Checks::Full && counts != header.counts {
            return Err(corrupt(
                "the header's rule counts per order, window and kind disagree with the rules",
            ));
        }
        Ok(Rulebase {
            settings: header.settings,
            rules,
        })
    }

    /// Reads and checks a rulebase file ([`Rulebase::from_bytes`]): a
    /// regular file of at most [`MAX_RULEBASE_BYTES`](crate::files::MAX_RULEBASE_BYTES).
    pub fn read(path: impl AsRef<Path>) -> Result<Rulebase, RulebaseError> {
        let bytes = crate::files::read_capped(path.as_ref(), crate::files::MAX_RULEBASE_BYTES)?;
        Rulebase::from_bytes(&bytes)
    }

    /// Writes this rulebase to `path` whole or not at all
    /// ([`crate::files::write_whole`]: through symbolic links, never over
    /// a device or folder, synced, renamed into place).
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), RulebaseError> {
        let bytes = self.try_to_bytes()?;
        crate::files::write_whole(path.as_ref(), &bytes)?;
        Ok(())
    }
}

/// Counts per (order, window, kind). A rulebase has a few dozen distinct
/// keys at most, so a short list beats a map.
#[derive(Default)]
struct Counts {
    entries: Vec<CountEntry>,
}

impl Counts {
    fn add(&mut self, order: u8, window: u8, kind: RuleKind) {
        let key = (order, window, kind);
        match self
            .entries
            .iter_mut()
            .find(|e| (e.order, e.window, e.kind) == key)
        {
            Some(e) => e.count += 1,
            None => self.entries.push(CountEntry {
                order,
                window,
                kind,
                count: 1,
            }),
        }
    }

    fn finish(mut self) -> Vec<CountEntry> {
        self.entries.sort_unstable();
        self.entries
    }
}

/// Checks the rules of a list one after the other: each well formed,
/// canonical, and after the previous one.
#[derive(Default)]
struct ListChecker {
    /// The symmetry tables of the last shape seen.
    symmetries: Option<ShapeSymmetries>,
}

impl ListChecker {
    fn check(
        &mut self,
        index: usize,
        rule: &Rule,
        previous: Option<&Rule>,
    ) -> Result<(), RulebaseError> {
        let invalid = |reason: String| RulebaseError::InvalidRule { index, reason };
        check_structure(rule).map_err(invalid)?;
        let shape = (rule.pattern.h, rule.pattern.w);
        let symmetries = match &mut self.symmetries {
            Some(s) if s.shape == shape => s,
            slot => slot.insert(ShapeSymmetries::new(shape.0, shape.1)),
        };
        if !symmetries.is_canonical(rule) {
            return Err(invalid(
                "not in canonical form (a rotation or reflection of it sorts first)".to_string(),
            ));
        }
        if let Some(previous) = previous {
            match previous.cmp(rule) {
                Ordering::Less => {}
                Ordering::Equal => {
                    return Err(invalid(format!("duplicate of rule #{}", index - 1)))
                }
                Ordering::Greater => {
                    return Err(invalid(format!(
                        "out of order: sorts before rule #{}",
                        index - 1
                    )))
                }
            }
        }
        Ok(())
    }
}

/// Bit-packs normalized rules (see the module docs).
fn pack_rules(rules: &[Rule]) -> PackedRules {
    let mut out = BitWriter::default();
    let mut previous: Option<(u8, u8, Vec<Symbol>)> = None;
    for rule in rules {
        let (h, w) = (rule.pattern.h, rule.pattern.w);
        let symbols = symbols_of(rule);
        out.put((rule.kind == RuleKind::Forbidden) as u32, 1);
        let shared = match &previous {
            Some((ph, pw, prev)) if (*ph, *pw) == (h, w) => {
                out.put(1, 1);
                let shared = prev
                    .iter()
                    .zip(&symbols)
                    .take_while(|(a, b)| a == b)
                    .count();
                // Distinct well-formed rules of one shape differ in some
                // symbol: equal symbols mean equal pattern and conclusion,
                // and the kind follows from the conclusion being empty.
                assert!(shared < symbols.len(), "duplicate rule reached pack_rules");
                out.put(shared as u32, shared_bits(symbols.len()));
                shared
            }
            _ => {
                out.put(0, 1);
                out.put(h as u32 - 1, 3);
                out.put(w as u32 - 1, 3);
                0
            }
        };
        for s in &symbols[shared..] {
            out.put(s.code, CODE_BITS);
            if s.code == CODE_NUMBER {
                out.put(s.value, VALUE_BITS);
            }
        }
        previous = Some((h, w, symbols));
    }
    PackedRules {
        bit_len: out.bit_len,
        bytes: out.bytes,
    }
}

/// How much [`Rulebase::decode`] checks beyond the file's framing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Checks {
    /// Every rule ([`ListChecker`]) and the header's counts.
    Full,
    /// Neither: the bytes are known to be valid.
    Trusted,
}

/// Decodes `rule_count` rules from the packed stream. With
/// [`Checks::Full`], checks each one ([`ListChecker`]) and counts them per
/// order, window and kind (with [`Checks::Trusted`] the counts are empty).
fn unpack_rules(
    packed: &PackedRules,
    rule_count: u64,
    checks: Checks,
) -> Result<(Vec<Rule>, Vec<CountEntry>), RulebaseError> {
    let byte_len = packed.bit_len.div_ceil(8);
    if byte_len != packed.bytes.len() as u64 {
        return Err(corrupt(format!(
            "payload holds {} bytes for {} bits",
            packed.bytes.len(),
            packed.bit_len
        )));
    }
    if !packed.bit_len.is_multiple_of(8) {
        let last = packed.bytes[packed.bytes.len() - 1];
        if last >> (packed.bit_len % 8) != 0 {
            return Err(corrupt("padding bits after the last rule are not zero"));
        }
    }
    let mut input = BitReader {
        bytes: &packed.bytes,
        bit_len: packed.bit_len,
        pos: 0,
    };
    // Every record takes at least 5 bits (kind, same_shape, one 3-bit
    // symbol), which bounds the allocation whatever the header claims.
    let mut rules: Vec<Rule> = Vec::with_capacity(rule_count.min(packed.bit_len / 5) as usize);
    let mut checker = ListChecker::default();
    let mut counts = Counts::default();
    // The previous rule's shape and symbols, and the current rule's.
    let mut previous: Option<(u8, u8)> = None;
    let mut previous_symbols = [Symbol::default(); 64];
    let mut symbols = [Symbol::default(); 64];
    for index in 0..rule_count {
        let index = index as usize;
        let short = || corrupt(format!("the payload ends inside rule #{index}"));
        let kind = match input.get(1).ok_or_else(short)? {
            0 => RuleKind::Forced,
            _ => RuleKind::Forbidden,
        };
        let same_shape = input.get(1).ok_or_else(short)? == 1;
        let (h, w, shared) = match (previous, same_shape) {
            (Some((h, w)), true) => {
                let n = h as usize * w as usize;
                let shared = input.get(shared_bits(n)).ok_or_else(short)? as usize;
                if shared >= n {
                    return Err(corrupt(format!(
                        "rule #{index} shares {shared} of its {n} cells with rule #{}",
                        index - 1
                    )));
                }
                (h, w, shared)
            }
            (None, true) => {
                return Err(corrupt("the first rule refers to a previous rule's shape"));
            }
            (_, false) => {
                let h = input.get(3).ok_or_else(short)? as u8 + 1;
                let w = input.get(3).ok_or_else(short)? as u8 + 1;
                if previous == Some((h, w)) {
                    return Err(corrupt(format!(
                        "rule #{index} repeats the previous rule's shape instead of referring to it"
                    )));
                }
                (h, w, 0)
            }
        };
        let n = h as usize * w as usize;
        symbols[..shared].copy_from_slice(&previous_symbols[..shared]);
        for symbol in &mut symbols[shared..n] {
            let code = input.get(CODE_BITS).ok_or_else(short)?;
            let value = match code {
                CODE_NUMBER => input.get(VALUE_BITS).ok_or_else(short)?,
                CODE_ANY..=CODE_MINE => 0,
                _ => {
                    return Err(corrupt(format!(
                        "rule #{index} uses the reserved cell code {code}"
                    )))
                }
            };
            *symbol = Symbol { code, value };
        }
        if same_shape && symbols[shared] == previous_symbols[shared] {
            return Err(corrupt(format!(
                "rule #{index} does not share its longest common prefix with rule #{}",
                index - 1
            )));
        }
        let rule = rule_of_symbols(h, w, kind, &symbols[..n]);
        if checks == Checks::Full {
            checker.check(index, &rule, rules.last())?;
            counts.add(rule.order(), rule.window(), kind);
        }
        rules.push(rule);
        previous = Some((h, w));
        std::mem::swap(&mut previous_symbols, &mut symbols);
    }
    if input.pos != input.bit_len {
        return Err(corrupt(format!(
            "{} bits follow the last of the {rule_count} rules the header announces",
            input.bit_len - input.pos
        )));
    }
    Ok((rules, counts.finish()))
}

fn rule_of_symbols(h: u8, w: u8, kind: RuleKind, symbols: &[Symbol]) -> Rule {
    let (mut safe, mut mine) = (0u64, 0u64);
    let mut cells = Vec::with_capacity(symbols.len());
    for (i, s) in symbols.iter().enumerate() {
        cells.push(match s.code {
            CODE_ANY => PatternCell::Any,
            CODE_WALL => PatternCell::Wall,
            CODE_OPEN => PatternCell::Open,
            CODE_SAFE => {
                safe |= 1 << i;
                PatternCell::Closed
            }
            CODE_MINE => {
                mine |= 1 << i;
                PatternCell::Closed
            }
            CODE_NUMBER => PatternCell::Number(s.value as u8),
            // CODE_CLOSED: the reserved code was rejected while reading.
            _ => PatternCell::Closed,
        });
    }
    Rule {
        pattern: Pattern { h, w, cells },
        kind,
        safe,
        mine,
    }
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
