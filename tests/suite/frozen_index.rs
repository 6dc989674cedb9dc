//! The rule index of the default rulebase that the engine embeds
//! (`engine/rules/default.rules.index`, `rules::load::DEFAULT_INDEX`; the
//! format is `engine/src/rules/index/frozen.rs`):
//!
//! 1. the embedded bytes are exactly what the engine builds from
//!    `engine/rules/default.rules` now (the build is deterministic), and
//!    they load: the engine never falls back to indexing the rulebase at
//!    run time;
//! 2. the loaded index equals a freshly built one and finds the same cells
//!    on random boards (consistent and broken), full scans and dirty lists;
//! 3. damaged or foreign bytes are rejected with a reason, never a panic:
//!    another magic, format version, engine version or source rulebase,
//!    a cut at every length of the header and at points of the body,
//!    trailing bytes, flipped bytes; and, past a checksum made to match,
//!    bodies that are cut or have a byte changed either are rejected or
//!    give an index that `find` can run on without panicking or naming a
//!    cell off the board.

use crate::util::truth_boards::{build, draw, perturb, wild, Recipe};
use crate::util::{default_rulebase, sapper, Rng};
use sapper_engine::rules::index::frozen::{
    IndexError, ENGINE_VERSION, FORMAT, FORMAT_VERSION, MAGIC,
};
use sapper_engine::rules::Rulebase;
use sapper_engine::solver::RuleTiers;
use sapper_engine::wire::{checksum64, crc32, WireError};
use sapper_engine::{Board, Forced};
use std::sync::OnceLock;

/// The files the binary embeds.
const DEFAULT_BYTES: &[u8] = sapper_engine::rules::DEFAULT_RULEBASE;
const EMBEDDED_INDEX: &[u8] = &sapper_engine::rules::load::DEFAULT_INDEX.0;

/// The default rulebase indexed now (not loaded from the embedded index).
fn fresh_tiers() -> &'static RuleTiers {
    static T: OnceLock<RuleTiers> = OnceLock::new();
    T.get_or_init(|| RuleTiers::new(default_rulebase()))
}

/// Where the header's fields end: magic, format version, engine version
/// (length byte and bytes), source checksum, body length, body checksum.
fn fields_end(index: &[u8]) -> usize {
    8 + 4 + 1 + index[12] as usize + 8 + 8 + 8
}

/// Where the body starts: after the fields and the zero padding that
/// aligns it to 8.
fn header_len(index: &[u8]) -> usize {
    fields_end(index).next_multiple_of(8)
}

/// `index` with its body replaced by `body`, length and checksum made to
/// match (what a damaged body that slipped past the checksum looks like).
fn reframe(index: &[u8], body: &[u8]) -> Vec<u8> {
    let (f, h) = (fields_end(index), header_len(index));
    let mut out = index[..h].to_vec();
    out[f - 16..f - 8].copy_from_slice(&(body.len() as u64).to_le_bytes());
    out[f - 8..f].copy_from_slice(&checksum64(body).to_le_bytes());
    out.extend_from_slice(body);
    out
}

fn load(index: &[u8]) -> Result<RuleTiers, IndexError> {
    RuleTiers::from_index_bytes(index, DEFAULT_BYTES)
}

// ---------------------------------------------------------------------------
// 1. The embedded index

#[test]
fn the_embedded_index_is_what_the_engine_builds_from_the_default_rulebase() {
    let built = fresh_tiers().to_index_bytes(DEFAULT_BYTES);
    if built != EMBEDDED_INDEX {
        let first = built
            .iter()
            .zip(EMBEDDED_INDEX)
            .position(|(a, b)| a != b)
            .unwrap_or(built.len().min(EMBEDDED_INDEX.len()));
        panic!(
            "the embedded index ({} bytes) differs from the one built now ({} bytes) from \
             byte {first} on: the index build is not deterministic, or the index is \
             stale (`sapper rules index engine/rules/default.rules` rewrites it)",
            EMBEDDED_INDEX.len(),
            built.len()
        );
    }
    // And a second build in this process, with other hash map seeds.
    let again = RuleTiers::new(&Rulebase::from_trusted_bytes(DEFAULT_BYTES).unwrap());
    assert!(again.to_index_bytes(DEFAULT_BYTES) == built);
}

#[test]
fn the_embedded_index_loads_and_equals_a_fresh_index() {
    let loaded = load(EMBEDDED_INDEX).unwrap_or_else(|e| {
        panic!("the binary would fall back to indexing the rulebase at every start: {e}")
    });
    assert!(
        loaded == *fresh_tiers(),
        "loaded tiers differ from fresh ones"
    );
    let orders: Vec<u8> = loaded.tiers().iter().map(|&(o, _)| o).collect();
    assert_eq!(orders, vec![1, 2]);
    assert_eq!(loaded.len(), 8959);
    assert!(loaded
        .tiers()
        .iter()
        .all(|(_, ix)| ix.rejected().is_empty()));
}

/// The binary itself: no warning that the embedded index was rejected.
#[test]
fn the_binary_uses_the_embedded_index() {
    let run = sapper(["solve", "samples/fields"]);
    let stderr = &run.ok().stderr;
    assert!(
        !stderr.contains("embedded rule index"),
        "the binary rejected its embedded index: {stderr}"
    );
}

// ---------------------------------------------------------------------------
// 2. Same matches as a fresh index

/// Every tier of `a` and `b` finds the same on `board`: a full scan, and
/// dirty lists (every cell; a random part, in a random order).
fn same_finds(a: &RuleTiers, b: &RuleTiers, board: &Board, seed: u64) -> Result<usize, String> {
    let n = board.grid().len() as u32;
    let mut rng = Rng::new(seed);
    let mut part: Vec<u32> = (0..n).filter(|_| rng.chance(20)).collect();
    for i in (1..part.len()).rev() {
        part.swap(i, rng.below(i + 1));
    }
    let all: Vec<u32> = (0..n).collect();
    let mut found = 0;
    for ((order, x), (_, y)) in a.tiers().iter().zip(b.tiers()) {
        for dirty in [None, Some(&all[..]), Some(&part[..])] {
            let run = |ix: &sapper_engine::rules::index::RuleIndex| {
                let mut out: Vec<(Forced, u8)> = Vec::new();
                ix.find(board, dirty, &mut out).map(|()| out)
            };
            let (fx, fy) = (run(x), run(y));
            if fx != fy {
                return Err(format!(
                    "tier {order}, dirty {:?}: {fx:?} vs {fy:?} on\n{}",
                    dirty.map(<[u32]>::len),
                    draw(board)
                ));
            }
            found += fx.map_or(1, |v| v.len());
        }
    }
    Ok(found)
}

fn recipe(seed: u64) -> Recipe {
    let s = seed as usize;
    Recipe {
        h: 3 + s * 7 % 20,
        w: 3 + s * 11 % 31,
        seed: seed.wrapping_mul(0x2545_F491_4F6C_DD1D),
        density: 8 + (seed as u32 * 3) % 18,
        extra_reveal: (seed as u32 * 13) % 41,
        flag: (seed as u32 * 17) % 71,
        mark_safe: (seed as u32) % 9,
    }
}

#[test]
fn the_loaded_index_finds_what_a_fresh_one_finds_on_random_boards() {
    let loaded = load(EMBEDDED_INDEX).unwrap();
    let fresh = fresh_tiers();
    let mut found = 0;
    for seed in 0..300u64 {
        let truth = build(recipe(seed));
        for board in [
            truth.board.clone(),
            perturb(&truth.board, seed, 3),
            wild(truth.grid.h, truth.grid.w, seed),
        ] {
            found += same_finds(&loaded, fresh, &board, seed).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    // Not vacuous: the boards make rules fire.
    assert!(found > 10_000, "only {found} cells found");
}

// ---------------------------------------------------------------------------
// 3. Rejections

/// `f` gives an error with a message, and no panic.
fn rejected(bytes: &[u8], what: &str) -> IndexError {
    match std::panic::catch_unwind(|| load(bytes)) {
        Ok(Err(e)) => {
            assert!(!e.to_string().is_empty(), "{what}: empty message");
            e
        }
        Ok(Ok(_)) => panic!("{what}: accepted"),
        Err(_) => panic!("{what}: panicked"),
    }
}

#[test]
fn another_magic_layout_engine_or_source_is_rejected() {
    let mut bad = EMBEDDED_INDEX.to_vec();
    bad[0] ^= 0x20;
    let bad_magic = IndexError::Wire(WireError::BadMagic {
        format: FORMAT.name,
        magic: "SAPPERIX",
    });
    assert_eq!(rejected(&bad, "magic"), bad_magic);
    assert_eq!(rejected(b"SAPPERRB", "a rulebase"), bad_magic);
    assert_eq!(rejected(DEFAULT_BYTES, "a rulebase"), bad_magic);

    let mut bad = EMBEDDED_INDEX.to_vec();
    bad[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert_eq!(
        rejected(&bad, "format version"),
        IndexError::Wire(WireError::UnsupportedVersion {
            format: FORMAT.name,
            found: FORMAT_VERSION + 1,
            supported: FORMAT_VERSION
        })
    );

    let mut bad = EMBEDDED_INDEX.to_vec();
    assert_eq!(&bad[13..13 + bad[12] as usize], ENGINE_VERSION.as_bytes());
    bad[13] ^= 1;
    assert!(matches!(
        rejected(&bad, "engine version"),
        IndexError::EngineVersion { .. }
    ));

    // Built from other bytes: one byte of the rulebase changed, another
    // rulebase file (valid rulebase files all have the same CRC-32: each
    // ends with the CRC-32 of the rest), nothing.
    let mut other = DEFAULT_BYTES.to_vec();
    other[100] ^= 1;
    let fixture = include_bytes!("../fixtures/v1-small.rules");
    assert_eq!(crc32(DEFAULT_BYTES), crc32(fixture));
    for (k, source) in [&other[..], &fixture[..], b""].into_iter().enumerate() {
        match RuleTiers::from_index_bytes(EMBEDDED_INDEX, source) {
            Err(IndexError::SourceMismatch { found, expected }) => {
                assert_eq!(found, checksum64(DEFAULT_BYTES));
                assert_eq!(expected, checksum64(source));
            }
            other => panic!("source {k} ({} bytes): {:?}", source.len(), other.err()),
        }
    }
}

#[test]
fn a_cut_or_padded_index_is_rejected() {
    let (f, h) = (fields_end(EMBEDDED_INDEX), header_len(EMBEDDED_INDEX));
    assert!(&EMBEDDED_INDEX[..8] == MAGIC);
    // Every length up to the whole header, and with part of the body.
    let body = EMBEDDED_INDEX.len() - h;
    let cuts = (0..=h).chain([h + 1, h + 8, h + body / 3, h + body / 2, h + body - 1]);
    for len in cuts {
        match rejected(&EMBEDDED_INDEX[..len], &format!("cut at {len}")) {
            IndexError::Wire(WireError::Truncated { .. }) => {}
            e => panic!("cut at {len}: {e}"),
        }
    }
    let mut padded = EMBEDDED_INDEX.to_vec();
    padded.push(0);
    assert_eq!(
        rejected(&padded, "padded"),
        IndexError::Wire(WireError::TrailingBytes {
            format: FORMAT.name,
            count: 1,
            offset: EMBEDDED_INDEX.len()
        })
    );
    // A body length that does not match what is there.
    let mut longer = EMBEDDED_INDEX.to_vec();
    longer[f - 16..f - 8].copy_from_slice(&(body as u64 + 1).to_le_bytes());
    assert!(matches!(
        rejected(&longer, "length + 1"),
        IndexError::Wire(WireError::Truncated { what: "body", .. })
    ));
    longer[f - 16..f - 8].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(
        rejected(&longer, "length 2^64 - 1"),
        IndexError::Wire(WireError::Truncated { what: "body", .. })
    ));
}

#[test]
fn a_flipped_byte_is_rejected() {
    let (f, h) = (fields_end(EMBEDDED_INDEX), header_len(EMBEDDED_INDEX));
    let mut rng = Rng::new(7);
    let body = EMBEDDED_INDEX.len() - h;
    let positions = (0..h)
        .chain([h, h + 1, EMBEDDED_INDEX.len() - 1])
        .chain((0..300).map(|_| h + rng.below(body)));
    for i in positions {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut bad = EMBEDDED_INDEX.to_vec();
            bad[i] ^= flip;
            let e = rejected(&bad, &format!("byte {i} ^ {flip:#x}"));
            if i >= h {
                assert!(
                    matches!(e, IndexError::Wire(WireError::ChecksumMismatch { .. })),
                    "byte {i}: {e}"
                );
            } else if i >= f {
                assert_eq!(
                    e.to_string(),
                    "corrupt rule index: header padding: nonzero padding"
                );
            }
        }
    }
}

/// Past the checksum (made to match): a cut body is rejected, a changed
/// byte is rejected or gives tiers that `find` runs on without a panic or
/// a cell off the board (each byte changed by one of [`FLIPS`] in turn).
/// (Run in the test profile too: debug arithmetic checks catch what
/// release builds would let wrap.)
#[test]
fn damaged_bodies_with_a_matching_checksum_never_panic() {
    let h = header_len(EMBEDDED_INDEX);
    let body = &EMBEDDED_INDEX[h..];
    assert!(load(&reframe(EMBEDDED_INDEX, body)).is_ok());
    let mut rng = Rng::new(11);
    // Cuts: every length of the first and last bytes, and some between.
    let cuts = (0..200)
        .chain(body.len() - 200..body.len())
        .chain((0..100).map(|_| rng.below(body.len())));
    for len in cuts {
        match rejected(&reframe(EMBEDDED_INDEX, &body[..len]), "cut body") {
            IndexError::Wire(WireError::Truncated { .. } | WireError::Corrupt { .. }) => {}
            e => panic!("body cut at {len}: {e}"),
        }
    }
    changed_bytes_are_rejected_or_harmless(|k| std::slice::from_ref(&FLIPS[k % FLIPS.len()]));
}

/// The same bytes each changed by every one of [`FLIPS`].
#[test]
#[ignore = "seconds: three loads of the 2 MB index per byte; .ci/run runs it with --ignored"]
fn every_change_of_the_sampled_bytes_is_rejected_or_harmless() {
    changed_bytes_are_rejected_or_harmless(|_| &FLIPS);
}

/// The changes made to a byte of the body.
static FLIPS: [u8; 3] = [0x01, 0x10, 0xFF];

/// Every byte of the first 200 and last 200 of the body (counts, the small
/// tables) and 300 between, the `k`-th of them changed by each of
/// `flips(k)` (xored) with the checksum made to match: rejected, or tiers
/// `find` runs on without a panic or a cell off the board; some of each.
fn changed_bytes_are_rejected_or_harmless(flips: impl Fn(usize) -> &'static [u8]) {
    let h = header_len(EMBEDDED_INDEX);
    let len = EMBEDDED_INDEX.len() - h;
    let boards: Vec<Board> = (0..4u64)
        .flat_map(|s| {
            let t = build(recipe(s + 3));
            [t.board.clone(), wild(t.grid.h, t.grid.w, s)]
        })
        .collect();
    let mut rng = Rng::new(12);
    let positions = (0..200)
        .chain(len - 200..len)
        .chain((0..300).map(|_| rng.below(len)));
    let (mut accepted, mut refused) = (0, 0);
    // One framed copy, each byte changed in place and its checksum made to
    // match, then put back.
    let mut framed = EMBEDDED_INDEX.to_vec();
    let f = fields_end(&framed);
    let rechecksum = |framed: &mut Vec<u8>| {
        let sum = checksum64(&framed[h..]);
        framed[f - 8..f].copy_from_slice(&sum.to_le_bytes());
    };
    for (k, i) in positions.enumerate() {
        for &flip in flips(k) {
            framed[h + i] ^= flip;
            rechecksum(&mut framed);
            let outcome = std::panic::catch_unwind(|| {
                load(&framed).map(|tiers| {
                    for board in &boards {
                        for (_, ix) in tiers.tiers() {
                            let mut out = Vec::new();
                            let _ = ix.find(board, None, &mut out);
                            let n = board.grid().len() as u32;
                            assert!(out.iter().all(|(f, _)| f.cell < n), "off the board");
                        }
                    }
                })
            });
            match outcome {
                Ok(Ok(())) => accepted += 1,
                Ok(Err(e)) => {
                    assert!(!e.to_string().is_empty());
                    refused += 1
                }
                Err(_) => panic!("body byte {i} ^ {flip:#x}: panicked"),
            }
            framed[h + i] ^= flip;
        }
    }
    rechecksum(&mut framed);
    assert_eq!(framed, EMBEDDED_INDEX, "every byte put back");
    // Both happen: changed conclusions and table contents load, changed
    // counts and orders do not.
    assert!(
        accepted > 0 && refused > 0,
        "{accepted} accepted, {refused} refused"
    );
}
