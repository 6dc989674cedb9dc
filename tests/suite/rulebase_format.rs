//! The rulebase file format (`engine/src/rules/format.rs`), the independent
//! rule verifier (`engine/src/rules/verify.rs`) and `sapper rules`.
//!
//! Test data comes from a small exhaustive generator written for the tests
//! ([`exhaustive_rules`], in `util::rule_gen`), independent of
//! `sapper-synth` and of the verifier: the tests check that the two agree.
//!
//! The committed fixture `tests/fixtures/v1-small.rules` (format version 1:
//! every order-1 rule in 3×3 windows, every order-2 rule of two horizontally
//! adjacent foci in 3×4 windows) was generated with
//!
//! ```text
//! cargo run --release --example regenerate_v1_fixture
//! ```
//!
//! It must keep loading in every later version of sapper ("old files still
//! load"); do not regenerate it after the format version moves past 1 — add
//! a new fixture instead.

use crate::util::rule_gen::{exhaustive_rules, settings, small_rulebase, FIXTURE};
use crate::util::{rule, sapper, sapper_command, write_unsound_rulebase, Run};
use proptest::prelude::*;
use sapper_engine::rules::format::{is_canonical, RulebaseError, FORMAT_VERSION, MAGIC};
use sapper_engine::rules::verify::{check_structure, verify_rule, verify_rulebase};
use sapper_engine::rules::{Pattern, PatternCell, Rule, RuleKind, Rulebase};
use sapper_engine::wire::{crc32, WireError};
use std::path::{Path, PathBuf};

use PatternCell::*;

/// A scratch file path for `name`, under cargo's per-target scratch
/// directory (`target/tmp`), unique to this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("rulebase-format-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn fixture_bytes() -> Vec<u8> {
    std::fs::read(FIXTURE).expect("tests/fixtures/v1-small.rules is committed")
}

// ---------------------------------------------------------------------------
// Old files still load.

#[test]
fn v1_small_fixture_still_loads() {
    let rb = Rulebase::read(FIXTURE).expect("the version-1 fixture must keep loading");
    // Exactly what the generator produced when the fixture was written.
    assert_eq!(rb, small_rulebase());
    let counts: Vec<(u8, u8, RuleKind)> = rb
        .counts()
        .iter()
        .map(|c| (c.order, c.window, c.kind))
        .collect();
    assert_eq!(
        counts,
        vec![
            (1, 3, RuleKind::Forced),
            (1, 3, RuleKind::Forbidden),
            (2, 4, RuleKind::Forced),
            (2, 4, RuleKind::Forbidden),
        ]
    );
    assert_eq!(verify_rulebase(&rb), vec![]);
}

#[test]
fn version_1_encoding_is_stable() {
    // While this build writes version 1, it must write the fixture's bytes
    // exactly: any change to the encoding needs a version bump.
    if FORMAT_VERSION == 1 {
        let rb = Rulebase::read(FIXTURE).unwrap();
        assert!(
            rb.to_bytes() == fixture_bytes(),
            "version-1 encoding changed"
        );
    }
}

// ---------------------------------------------------------------------------
// The generator and the verifier agree.

#[test]
fn generated_rules_verify_and_wrong_conclusions_are_refuted() {
    let rb = small_rulebase();
    assert_eq!(rb.rules.len(), 4952);
    let mut refuted = 0;
    for rule in &rb.rules {
        assert_eq!(verify_rule(rule), Ok(()), "{:?}", rule.rows());
        match rule.kind {
            RuleKind::Forced => {
                // Flip each concluded cell in turn: safe ⇄ mine.
                for i in 0..64 {
                    let bit = 1u64 << i;
                    if (rule.safe | rule.mine) & bit == 0 {
                        continue;
                    }
                    let flipped = Rule {
                        safe: rule.safe ^ bit,
                        mine: rule.mine ^ bit,
                        ..rule.clone()
                    };
                    let err = verify_rule(&flipped).expect_err("flipped conclusion must fail");
                    assert!(
                        err.contains(&format!(
                            "({},{})",
                            i / rule.pattern.w as usize,
                            i % rule.pattern.w as usize
                        )),
                        "{err}"
                    );
                    refuted += 1;
                }
                // A forced pattern is satisfiable, so it is not forbidden.
                let as_forbidden = Rule {
                    kind: RuleKind::Forbidden,
                    safe: 0,
                    mine: 0,
                    ..rule.clone()
                };
                assert!(verify_rule(&as_forbidden).is_err());
            }
            RuleKind::Forbidden => {
                // Any conclusion over an impossible pattern is vacuous, and
                // the verifier says so rather than accepting it.
                let closed = rule.pattern.cells.iter().position(|&c| c == Closed);
                if let Some(i) = closed {
                    let forced = Rule {
                        kind: RuleKind::Forced,
                        mine: 1 << i,
                        ..rule.clone()
                    };
                    assert!(verify_rule(&forced).is_err());
                }
            }
        }
    }
    assert!(refuted > 1000, "{refuted}");
}

#[test]
fn verify_rule_rejects_a_rule_with_a_safe_flipped_to_mine() {
    // `..s` / `.0.`: a 0 makes its closed neighbour safe; claiming a mine is
    // wrong, and claiming the cell of a 1 with two closed cells is unproven.
    assert_eq!(
        verify_rule(&rule(&["..s", ".0.", "..."], RuleKind::Forced)),
        Ok(())
    );
    assert!(verify_rule(&rule(&["..m", ".0.", "..."], RuleKind::Forced)).is_err());
    assert!(verify_rule(&rule(&["..m", ".1?", "..."], RuleKind::Forced)).is_err());
    // The 1-1 at a wall: the third cell along is safe.
    let one_one = rule(&["####", "#11.", "#??s", "#___"], RuleKind::Forced);
    assert_eq!(verify_rule(&one_one), Ok(()));
    let wrong = Rule {
        safe: 0,
        mine: one_one.safe,
        ..one_one.clone()
    };
    assert!(verify_rule(&wrong).unwrap_err().contains("concluded mine"));
}

// ---------------------------------------------------------------------------
// Round trip and determinism.

/// A random *sound* order-1 rule: a 3×3 pattern, `Number(v)` in the middle,
/// random Closed/Open/Wall neighbours, and the conclusion worked out here:
/// `v` above the closed count is forbidden, `v = 0` makes every closed
/// neighbour safe, `v` = the closed count makes every one a mine (a random
/// non-empty subset of them is concluded).
fn arb_order1_rule() -> impl Strategy<Value = Rule> {
    (prop::collection::vec(0u8..3, 8), 0u8..=8, any::<u64>()).prop_filter_map(
        "no conclusion",
        |(neighbours, v, subset)| {
            let mut cells = vec![Open; 9];
            let mut closed_mask = 0u64;
            let mut k = 0;
            for (j, code) in neighbours.into_iter().enumerate() {
                let i = if j < 4 { j } else { j + 1 };
                cells[i] = [Closed, Open, Wall][code as usize];
                if code == 0 {
                    closed_mask |= 1 << i;
                    k += 1;
                }
            }
            cells[4] = Number(v);
            let chosen = subset & closed_mask;
            let chosen = if chosen == 0 { closed_mask } else { chosen };
            let (kind, safe, mine) = if v > k {
                (RuleKind::Forbidden, 0, 0)
            } else if k > 0 && v == 0 {
                (RuleKind::Forced, chosen, 0)
            } else if k > 0 && v == k {
                (RuleKind::Forced, 0, chosen)
            } else {
                return None;
            };
            Some(Rule {
                pattern: Pattern::new(3, 3, cells),
                kind,
                safe,
                mine,
            })
        },
    )
}

/// A random well-formed rule of any shape up to 8×8 (not necessarily
/// sound: the format stores any well-formed rule).
fn arb_well_formed_rule() -> impl Strategy<Value = Rule> {
    (3u8..=8, 3u8..=8)
        .prop_flat_map(|(h, w)| {
            let n = h as usize * w as usize;
            (
                Just((h, w)),
                prop::collection::vec((0u8..12, 0u8..=8), n),
                any::<u64>(),
                any::<u64>(),
                any::<bool>(),
            )
        })
        .prop_filter_map("no focus", |((h, w), raw, s, m, forbidden)| {
            let (hh, ww) = (h as usize, w as usize);
            let mut cells: Vec<PatternCell> = raw
                .iter()
                .map(|&(code, v)| match code {
                    0 => Any,
                    1 | 2 => Wall,
                    3..=5 => Open,
                    6..=9 => Closed,
                    _ => Number(v),
                })
                .collect();
            // A focus needs all 8 neighbours inside and looked at.
            for i in 0..cells.len() {
                if let Number(_) = cells[i] {
                    let (r, c) = (i / ww, i % ww);
                    let ok = r >= 1 && c >= 1 && r + 1 < hh && c + 1 < ww && {
                        (r - 1..=r + 1)
                            .all(|r2| (c - 1..=c + 1).all(|c2| cells[r2 * ww + c2] != Any))
                    };
                    if !ok {
                        cells[i] = Closed;
                    }
                }
            }
            if !cells.iter().any(|c| matches!(c, Number(_))) {
                return None;
            }
            let closed = cells
                .iter()
                .enumerate()
                .filter(|(_, &c)| c == Closed)
                .fold(0u64, |a, (i, _)| a | 1 << i);
            let (kind, safe, mine) = if forbidden || closed == 0 {
                (RuleKind::Forbidden, 0, 0)
            } else {
                let safe = s & closed;
                let mine = m & closed & !safe;
                if safe | mine == 0 {
                    (RuleKind::Forced, 0, closed & closed.wrapping_neg())
                } else {
                    (RuleKind::Forced, safe, mine)
                }
            };
            let rule = Rule {
                pattern: Pattern::new(h, w, cells),
                kind,
                safe,
                mine,
            };
            assert_eq!(check_structure(&rule), Ok(()));
            Some(rule)
        })
}

proptest! {
    #![proptest_config(crate::util::cases(200))]

    #[test]
    fn sound_order1_rules_round_trip(rules in prop::collection::vec(arb_order1_rule(), 0..40)) {
        for r in &rules {
            prop_assert_eq!(verify_rule(r), Ok(()));
        }
        let rb = Rulebase { settings: settings("proptest", 1, 3), rules };
        let bytes = rb.to_bytes();
        let back = Rulebase::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&back, &rb.normalized().unwrap());
        prop_assert_eq!(back.to_bytes(), bytes);
        prop_assert!(verify_rulebase(&back).is_empty());
    }

    #[test]
    fn well_formed_rules_round_trip(
        rules in prop::collection::vec(arb_well_formed_rule(), 0..30),
        syms in prop::collection::vec(0usize..8, 30),
    ) {
        let rb = Rulebase { settings: settings("proptest", 3, 8), rules };
        let bytes = rb.to_bytes();
        let back = Rulebase::from_bytes(&bytes).unwrap();
        prop_assert_eq!(back.rules.len(), {
            let mut c: Vec<Rule> = rb.rules.iter().map(Rule::canonical).collect();
            c.sort();
            c.dedup();
            c.len()
        });
        prop_assert_eq!(&back, &rb.normalized().unwrap());
        prop_assert_eq!(back.to_bytes(), bytes.clone());
        // The bytes depend only on the rules up to symmetry and order.
        let mut shuffled: Vec<Rule> = rb.rules.iter().zip(&syms).map(|(r, &s)| r.transform(s)).collect();
        shuffled.reverse();
        let other = Rulebase { settings: rb.settings.clone(), rules: shuffled };
        prop_assert_eq!(other.to_bytes(), bytes);
    }

    #[test]
    fn is_canonical_agrees_with_canonical(rule in arb_well_formed_rule(), sym in 0usize..8) {
        let r = rule.transform(sym);
        prop_assert_eq!(is_canonical(&r), r.canonical() == r);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = Rulebase::from_bytes(&bytes);
        let mut with_magic = MAGIC.to_vec();
        with_magic.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        with_magic.extend_from_slice(&bytes);
        let _ = Rulebase::from_bytes(&with_magic);
    }

    /// Mutations behind a *valid* checksum reach the header and payload
    /// decoders and the rule checks: still an error or a valid rulebase,
    /// never a panic.
    #[test]
    fn mutations_with_a_fixed_checksum_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
    ) {
        let mut bytes = small_order1_bytes();
        let body = bytes.len() - 4;
        for (at, value) in edits {
            let i = 12 + at.index(body - 12);
            bytes[i] = value;
        }
        let crc = crc32(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
        if let Ok(rb) = Rulebase::from_bytes(&bytes) {
            // Whatever loads is a valid rulebase that writes back the same.
            prop_assert!(rb.validate().is_ok());
            prop_assert_eq!(rb.to_bytes(), bytes);
        }
    }
}

/// The order-1 rules alone (≈1.2 KB), for the byte-by-byte tests.
fn small_order1_bytes() -> Vec<u8> {
    Rulebase {
        settings: settings("order 1", 1, 3),
        rules: exhaustive_rules(3, 3, &[(1, 1)]),
    }
    .to_bytes()
}

// ---------------------------------------------------------------------------
// Damaged files: clear errors, never a panic.

#[test]
fn every_truncation_is_an_error() {
    for bytes in [small_order1_bytes(), fixture_bytes()] {
        for len in 0..bytes.len() {
            match Rulebase::from_bytes(&bytes[..len]) {
                Err(RulebaseError::Wire(WireError::Truncated { .. })) => {}
                other => panic!("prefix of {len} bytes: {other:?}"),
            }
        }
        assert!(Rulebase::from_bytes(&bytes).is_ok());
    }
}

#[test]
fn every_single_byte_corruption_is_an_error() {
    let bytes = small_order1_bytes();
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let payload_len_at = 16 + header_len;
    let length_fields = [12..16, payload_len_at..payload_len_at + 4];
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut bad = bytes.clone();
            bad[i] ^= flip;
            let result = Rulebase::from_bytes(&bad);
            match (i, &result) {
                (0..8, Err(RulebaseError::Wire(WireError::BadMagic { .. }))) => {}
                (8..12, Err(RulebaseError::Wire(WireError::UnsupportedVersion { .. }))) => {}
                // A damaged length misplaces the sections: the file looks
                // truncated or has bytes left over.
                (
                    _,
                    Err(RulebaseError::Wire(
                        WireError::Truncated { .. } | WireError::Corrupt { .. },
                    )),
                ) if length_fields.iter().any(|f| f.contains(&i)) => {}
                (_, Err(RulebaseError::Wire(WireError::ChecksumMismatch { .. }))) if i >= 16 => {}
                _ => panic!("byte {i} ^ {flip:#x}: {result:?}"),
            }
        }
    }
}

#[test]
fn wrong_magic_is_rejected() {
    let mut bytes = small_order1_bytes();
    bytes[..8].copy_from_slice(b"PK\x03\x04ZIPX");
    let err = Rulebase::from_bytes(&bytes).unwrap_err();
    assert!(matches!(
        err,
        RulebaseError::Wire(WireError::BadMagic { .. })
    ));
    assert!(err.to_string().contains("not a sapper rulebase"), "{err}");
    // Short garbage is not a rulebase either; a short prefix of the magic
    // is a truncated one.
    assert!(matches!(
        Rulebase::from_bytes(b"hello"),
        Err(RulebaseError::Wire(WireError::BadMagic { .. }))
    ));
    assert!(matches!(
        Rulebase::from_bytes(b"SAPP"),
        Err(RulebaseError::Wire(WireError::Truncated {
            what: "magic bytes",
            offset: 0,
            ..
        }))
    ));
    assert!(matches!(
        Rulebase::from_bytes(b""),
        Err(RulebaseError::Wire(WireError::Truncated { .. }))
    ));
}

#[test]
fn future_version_is_a_clear_error() {
    let mut bytes = small_order1_bytes();
    bytes[8..12].copy_from_slice(&99u32.to_le_bytes());
    let path = scratch("future.rules");
    std::fs::write(&path, &bytes).unwrap();
    let err = Rulebase::read(&path).unwrap_err();
    assert!(matches!(
        err,
        RulebaseError::Wire(WireError::UnsupportedVersion {
            found: 99,
            supported: 1,
            ..
        })
    ));
    assert_eq!(
        err.to_string(),
        "rulebase format version 99 is newer than this sapper supports (1); regenerate it or upgrade"
    );
    bytes[8..12].copy_from_slice(&0u32.to_le_bytes());
    let err = Rulebase::from_bytes(&bytes).unwrap_err();
    assert!(matches!(
        err,
        RulebaseError::Wire(WireError::UnsupportedVersion { found: 0, .. })
    ));
    assert!(
        err.to_string().contains("version 0 is not supported"),
        "{err}"
    );
}

#[test]
fn checksum_error_names_both_values() {
    let mut bytes = small_order1_bytes();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    let err = Rulebase::from_bytes(&bytes).unwrap_err();
    assert!(
        err.to_string().starts_with("checksum mismatch (stored 0x"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// `sapper rules`.

#[test]
fn cli_info() {
    let Run {
        code,
        stdout: out,
        stderr: err,
        ..
    } = sapper(["rules", "info", FIXTURE]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rules:          4952"), "{out}");
    assert!(
        out.contains("generator:      rulebase_format test generator"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "file size:      {} bytes (format version 1)",
            fixture_bytes().len()
        )),
        "{out}"
    );
    let rb = small_rulebase();
    let c = rb.counts();
    let forced2 = c
        .iter()
        .find(|e| (e.order, e.window, e.kind) == (2, 4, RuleKind::Forced))
        .unwrap()
        .count;
    let forbidden2 = c
        .iter()
        .find(|e| (e.order, e.window, e.kind) == (2, 4, RuleKind::Forbidden))
        .unwrap()
        .count;
    let row = format!(
        "{:>5}  {:>6}  {forced2:>9}  {forbidden2:>9}  {:>9}",
        2,
        4,
        forced2 + forbidden2
    );
    assert!(out.contains(&row), "{row}\n{out}");

    let Run {
        code, stdout: out, ..
    } = sapper(["rules", "info", FIXTURE, "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["rule_count"], 4952);
    assert_eq!(v["format_version"], 1);
    assert_eq!(v["settings"]["max_order"], 2);
    let counts = v["counts"].as_array().unwrap();
    assert_eq!(counts.len(), 4);
    assert_eq!(counts[2]["kind"], "forced");
    assert_eq!(counts[2]["count"], forced2);
    let total: u64 = counts.iter().map(|c| c["count"].as_u64().unwrap()).sum();
    assert_eq!(total, 4952);
}

#[test]
fn cli_show() {
    let rb = small_rulebase();
    let Run {
        code, stdout: out, ..
    } = sapper(["rules", "show", FIXTURE, "--order", "2", "--limit", "3"]);
    assert_eq!(code, 0);
    let first2 = rb.rules.iter().position(|r| r.order() == 2).unwrap();
    let r = &rb.rules[first2];
    let mut expected = format!(
        "rule #{first2}: order 2, window 4, {} (3×4)\n",
        if r.kind == RuleKind::Forced {
            "forced"
        } else {
            "forbidden"
        }
    );
    for row in r.rows() {
        expected += &format!("  {row}\n");
    }
    assert!(out.starts_with(&expected), "{expected}\n---\n{out}");
    assert_eq!(out.matches("rule #").count(), 3);
    assert!(out.contains("showing 3 of 4401 matching rules"), "{out}");

    let Run {
        code, stdout: out, ..
    } = sapper([
        "rules",
        "show",
        FIXTURE,
        "--kind",
        "forbidden",
        "--window",
        "3",
        "--limit",
        "0",
    ]);
    assert_eq!(code, 0);
    let n = rb
        .rules
        .iter()
        .filter(|r| r.window() == 3 && r.kind == RuleKind::Forbidden)
        .count();
    assert_eq!(out.matches("rule #").count(), n);
    assert!(out.ends_with(&format!("{n} matching rules\n")), "{out}");
}

#[test]
fn cli_verify() {
    let Run {
        code,
        stdout: out,
        stderr: err,
        ..
    } = sapper(["rules", "verify", FIXTURE]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verified 4952 rules: all sound"), "{out}");

    // An unsound rule in an otherwise valid file: named, exit 1.
    let path = scratch("unsound.rules");
    let bad_index = write_unsound_rulebase(FIXTURE, &path);
    let path = path.to_str().unwrap();
    let Run {
        code,
        stdout: out,
        stderr: err,
        ..
    } = sapper(["rules", "verify", path]);
    assert_eq!(code, 1);
    assert!(out.contains(&format!("FAILED rule #{bad_index}:")), "{out}");
    assert!(out.contains("concluded mine but is safe"), "{out}");
    assert!(out.contains("1 failed, 4951 sound"), "{out}");
    assert!(
        err.contains(path) && err.contains(&format!("rule #{bad_index}")),
        "{err}"
    );
}

#[test]
fn cli_export() {
    let rb = small_rulebase();
    let Run {
        code, stdout: out, ..
    } = sapper(["rules", "export", FIXTURE, "--json"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), rb.rules.len());
    for (line, rule) in lines.iter().zip(&rb.rules) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["order"], rule.order());
        assert_eq!(
            v["kind"],
            if rule.kind == RuleKind::Forced {
                "forced"
            } else {
                "forbidden"
            }
        );
        assert_eq!(v["pattern"], serde_json::json!(rule.rows()));
    }
    // Keys in the documented order.
    assert!(
        lines[0].starts_with("{\"order\":1,\"kind\":\""),
        "{}",
        lines[0]
    );
    // --json is required.
    let Run {
        code, stderr: err, ..
    } = sapper(["rules", "export", FIXTURE]);
    assert_eq!(code, 2);
    assert!(err.contains("--json"), "{err}");
    let Run {
        code, stdout: out, ..
    } = sapper(["rules", "export", FIXTURE, "--json", "--order", "1"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 551);
}

#[test]
fn cli_bad_files() {
    let mut bytes = fixture_bytes();
    bytes[1000] ^= 0x40;
    let corrupt = scratch("corrupt.rules");
    std::fs::write(&corrupt, &bytes).unwrap();
    let truncated = scratch("truncated.rules");
    std::fs::write(&truncated, &fixture_bytes()[..5000]).unwrap();
    let missing = scratch("missing.rules");
    let cases = [
        (corrupt.to_str().unwrap(), "checksum mismatch"),
        (
            truncated.to_str().unwrap(),
            "truncated rulebase: the payload at byte",
        ),
        (missing.to_str().unwrap(), "file not found"),
        (
            env!("CARGO_MANIFEST_DIR"),
            "is a folder, expected a regular file",
        ),
    ];
    for (path, reason) in cases {
        for sub in ["info", "show", "verify", "export"] {
            let mut args = vec!["rules", sub, path];
            if sub == "export" {
                args.push("--json");
            }
            let Run {
                code,
                stdout: out,
                stderr: err,
                ..
            } = sapper(&args);
            assert_eq!(code, 2, "{sub} {path}: {err}");
            assert!(out.is_empty(), "{out}");
            assert!(
                err.starts_with(&format!("sapper: error: {path}: ")),
                "{err}"
            );
            assert!(err.contains(reason), "{sub} {path}: {err}");
        }
    }
}

#[test]
fn cli_closed_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::Stdio;
    // The export (≈250 KB) is larger than a pipe buffer, so the child is
    // still writing when the reader goes away.
    let mut child = sapper_command()
        .args(["rules", "export", FIXTURE, "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    // Quietly, either way: sapper restores the default SIGPIPE action, so
    // like `cat` it may end by that signal; or it notices the closed pipe
    // and exits 0. Never an error message.
    #[cfg(unix)]
    let by_sigpipe = {
        use std::os::unix::process::ExitStatusExt;
        out.status.signal() == Some(13)
    };
    #[cfg(not(unix))]
    let by_sigpipe = false;
    assert!(
        out.status.success() || by_sigpipe,
        "{:?} {stderr}",
        out.status
    );
    assert_eq!(stderr, "");
    assert!(first.starts_with(b"{\"order\":1"));
}
