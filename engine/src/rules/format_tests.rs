//! Unit tests of the rulebase file format: round trips, packing, and
//! every way a file can be damaged.

use super::*;
use PatternCell::*;

fn settings() -> GeneratorSettings {
    GeneratorSettings {
        max_order: 1,
        max_window: 3,
        generator: "format unit tests".to_string(),
        notes: vec![],
    }
}

/// A 3×3 order-1 rule: a `v` in the middle, `closed` neighbours (in
/// row-major neighbour order) closed, the rest open, all closed cells
/// concluded mine (or safe when `v` is 0), forbidden when `v` exceeds
/// them.
fn order1(v: u8, closed: &[usize]) -> Rule {
    let mut cells = vec![Open; 9];
    cells[4] = Number(v);
    let mut mask = 0;
    for &i in closed {
        cells[i] = Closed;
        mask |= 1 << i;
    }
    let kind = if (v as usize) > closed.len() {
        RuleKind::Forbidden
    } else {
        RuleKind::Forced
    };
    let (safe, mine) = match kind {
        RuleKind::Forbidden => (0, 0),
        RuleKind::Forced if v == 0 => (mask, 0),
        RuleKind::Forced => (0, mask),
    };
    Rule {
        pattern: Pattern::new(3, 3, cells),
        kind,
        safe,
        mine,
    }
}

/// A file holding `rules` exactly as given: no normalization, no
/// validation, correct header counts and checksum. Lets the tests reach
/// the per-rule checks behind the checksum.
fn unchecked_file(rules: &[Rule], count_fix: impl FnOnce(&mut Header)) -> Vec<u8> {
    let rb = Rulebase {
        settings: settings(),
        rules: rules.to_vec(),
    };
    let mut header = Header {
        settings: settings(),
        counts: rb.counts(),
        rule_count: rules.len() as u64,
    };
    count_fix(&mut header);
    let header = bincode_options(u64::MAX).serialize(&header).unwrap();
    let payload = bincode_options(u64::MAX)
        .serialize(&pack_rules(rules))
        .unwrap();
    assemble(&header, &payload)
}

fn assemble(header: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(header);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

fn sample() -> Vec<Rule> {
    let rb = Rulebase {
        settings: settings(),
        rules: vec![
            order1(1, &[5]),
            order1(0, &[0, 1]),
            order1(2, &[2, 8]),
            order1(3, &[0]),
            order1(2, &[0, 8]),
        ],
    };
    rb.normalized().unwrap().rules
}

#[test]
fn unchecked_file_of_valid_rules_loads() {
    let rules = sample();
    let bytes = unchecked_file(&rules, |_| {});
    let rb = Rulebase::from_bytes(&bytes).unwrap();
    assert_eq!(rb.rules, rules);
    assert_eq!(bytes, rb.to_bytes());
}

fn invalid_rule(bytes: &[u8]) -> (usize, String) {
    match Rulebase::from_bytes(bytes) {
        Err(RulebaseError::InvalidRule { index, reason }) => (index, reason),
        other => panic!("expected InvalidRule, got {other:?}"),
    }
}

#[test]
fn rejects_unsorted_and_duplicate_rules() {
    let mut rules = sample();
    rules.swap(1, 2);
    let (index, reason) = invalid_rule(&unchecked_file(&rules, |_| {}));
    assert_eq!(index, 2);
    assert!(reason.contains("out of order"), "{reason}");

    // A duplicate cannot even be packed (it shares every symbol with
    // its predecessor, and `shared` must be shorter than the pattern);
    // `validate` names it.
    let mut rules = sample();
    rules.insert(1, rules[0].clone());
    let rb = Rulebase {
        settings: settings(),
        rules,
    };
    match rb.validate() {
        Err(RulebaseError::InvalidRule { index: 1, reason }) => {
            assert!(reason.contains("duplicate of rule #0"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn rejects_non_canonical_rules() {
    let rule = order1(1, &[5]);
    // The closed cell on the right; its canonical image has it elsewhere.
    assert_ne!(rule.canonical(), rule);
    let (index, reason) = invalid_rule(&unchecked_file(&[rule], |_| {}));
    assert_eq!(index, 0);
    assert!(reason.contains("canonical"), "{reason}");
}

#[test]
fn rejects_structurally_invalid_rules() {
    let good = order1(1, &[5]).canonical();
    let closed = good.mine.trailing_zeros() as usize;
    // (A conclusion on a non-Closed cell cannot even be written: only
    // closed cells have safe/mine codes. `validate` covers it.)
    let cases: Vec<(Rule, &str)> = vec![
        // Forbidden with a conclusion.
        (
            Rule {
                kind: RuleKind::Forbidden,
                ..good.clone()
            },
            "forbidden rule carries",
        ),
        // Forced with nothing concluded.
        (
            Rule {
                mine: 0,
                ..good.clone()
            },
            "concludes nothing",
        ),
        // A focus value out of range (the 4-bit field holds up to 15).
        (
            {
                let mut r = good.clone();
                r.pattern.cells[4] = Number(12);
                r
            },
            "value 12",
        ),
        // A focus whose neighbour is not looked at.
        (
            {
                let mut r = good.clone();
                let corner = if closed == 0 { 8 } else { 0 };
                r.pattern.cells[corner] = Any;
                r
            },
            "Any",
        ),
        // A focus on the pattern's edge.
        (
            Rule {
                pattern: Pattern::new(1, 3, vec![Closed, Number(1), Open]),
                kind: RuleKind::Forced,
                safe: 0,
                mine: 1,
            },
            "outside the 1×3",
        ),
    ];
    for (rule, want) in cases {
        let (index, reason) = invalid_rule(&unchecked_file(&[rule], |_| {}));
        assert_eq!(index, 0);
        assert!(reason.contains(want), "{reason} (wanted {want})");
    }
}

#[test]
fn rejects_wrong_header_counts() {
    let rules = sample();
    let bytes = unchecked_file(&rules, |h| h.counts[0].count += 1);
    match Rulebase::from_bytes(&bytes) {
        Err(RulebaseError::Wire(WireError::Corrupt { reason, .. })) => {
            assert!(reason.contains("counts"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // More rules announced than stored: the stream runs out.
    let bytes = unchecked_file(&rules, |h| h.rule_count += 1);
    match Rulebase::from_bytes(&bytes) {
        Err(RulebaseError::Wire(WireError::Corrupt { reason, .. })) => {
            assert!(reason.contains("ends inside"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // Fewer: bits are left over.
    let bytes = unchecked_file(&rules, |h| h.rule_count -= 1);
    match Rulebase::from_bytes(&bytes) {
        Err(RulebaseError::Wire(WireError::Corrupt { reason, .. })) => {
            assert!(reason.contains("follow the last"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // A huge count must not allocate for it.
    let bytes = unchecked_file(&rules, |h| h.rule_count = u64::MAX);
    assert!(matches!(
        Rulebase::from_bytes(&bytes),
        Err(RulebaseError::Wire(WireError::Corrupt { .. }))
    ));
}

#[test]
fn rejects_non_canonical_encodings() {
    let rules = sample();
    let header = Header {
        settings: settings(),
        counts: Rulebase {
            settings: settings(),
            rules: rules.clone(),
        }
        .counts(),
        rule_count: rules.len() as u64,
    };
    let header = bincode_options(u64::MAX).serialize(&header).unwrap();
    let packed = pack_rules(&rules);
    let corrupt_reason = |packed: &PackedRules| {
        let payload = bincode_options(u64::MAX).serialize(packed).unwrap();
        match Rulebase::from_bytes(&assemble(&header, &payload)) {
            Err(RulebaseError::Wire(WireError::Corrupt { reason, .. })) => reason,
            other => panic!("{other:?}"),
        }
    };
    // Padding bits set.
    let mut p = PackedRules {
        bit_len: packed.bit_len,
        bytes: packed.bytes.clone(),
    };
    assert_ne!(p.bit_len % 8, 0, "sample must end mid-byte for this test");
    *p.bytes.last_mut().unwrap() |= 0x80;
    assert!(corrupt_reason(&p).contains("padding"));
    // Byte count disagreeing with bit count.
    let mut p = PackedRules {
        bit_len: packed.bit_len,
        bytes: packed.bytes.clone(),
    };
    p.bytes.push(0);
    assert!(corrupt_reason(&p).contains("bytes for"));
    // Re-encode the second rule with a shorter shared prefix (0).
    let mut w = BitWriter::default();
    let s0 = symbols_of(&rules[0]);
    let s1 = symbols_of(&rules[1]);
    let put_rule = |w: &mut BitWriter, rule: &Rule, syms: &[Symbol], prefix: Option<usize>| {
        w.put((rule.kind == RuleKind::Forbidden) as u32, 1);
        match prefix {
            None => {
                w.put(0, 1);
                w.put(2, 3);
                w.put(2, 3);
            }
            Some(s) => {
                w.put(1, 1);
                w.put(s as u32, shared_bits(9));
            }
        }
        for s in &syms[prefix.unwrap_or(0)..] {
            w.put(s.code, CODE_BITS);
            if s.code == CODE_NUMBER {
                w.put(s.value, VALUE_BITS);
            }
        }
    };
    put_rule(&mut w, &rules[0], &s0, None);
    put_rule(&mut w, &rules[1], &s1, Some(0));
    let mut one_header = Header {
        settings: settings(),
        counts: Rulebase {
            settings: settings(),
            rules: rules[..2].to_vec(),
        }
        .counts(),
        rule_count: 2,
    };
    let payload = bincode_options(u64::MAX)
        .serialize(&PackedRules {
            bit_len: w.bit_len,
            bytes: w.bytes.clone(),
        })
        .unwrap();
    let h = bincode_options(u64::MAX).serialize(&one_header).unwrap();
    match Rulebase::from_bytes(&assemble(&h, &payload)) {
        Err(RulebaseError::Wire(WireError::Corrupt { reason, .. })) => {
            assert!(reason.contains("longest common prefix"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // Restating the same shape instead of referring to it.
    let mut w = BitWriter::default();
    put_rule(&mut w, &rules[0], &s0, None);
    put_rule(&mut w, &rules[1], &s1, None);
    let payload = bincode_options(u64::MAX)
        .serialize(&PackedRules {
            bit_len: w.bit_len,
            bytes: w.bytes,
        })
        .unwrap();
    match Rulebase::from_bytes(&assemble(&h, &payload)) {
        Err(RulebaseError::Wire(WireError::Corrupt { reason, .. })) => {
            assert!(reason.contains("repeats the previous"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // The reserved cell code.
    let mut w = BitWriter::default();
    w.put(0, 1);
    w.put(0, 1);
    w.put(0, 3);
    w.put(0, 3);
    w.put(7, 3);
    one_header.rule_count = 1;
    let h = bincode_options(u64::MAX).serialize(&one_header).unwrap();
    let payload = bincode_options(u64::MAX)
        .serialize(&PackedRules {
            bit_len: w.bit_len,
            bytes: w.bytes,
        })
        .unwrap();
    match Rulebase::from_bytes(&assemble(&h, &payload)) {
        Err(RulebaseError::Wire(WireError::Corrupt { reason, .. })) => {
            assert!(reason.contains("reserved"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn trailing_bytes_after_the_checksum() {
    let rb = Rulebase {
        settings: settings(),
        rules: sample(),
    };
    let mut bytes = rb.to_bytes();
    bytes.push(0);
    match Rulebase::from_bytes(&bytes) {
        Err(RulebaseError::Wire(WireError::TrailingBytes { count, offset, .. })) => {
            assert_eq!((count, offset), (1, bytes.len() - 1))
        }
        other => panic!("{other:?}"),
    }
}

/// The trusted loader gives exactly what the full one gives on valid
/// files: the committed fixture and the committed default rulebase.
#[test]
fn trusted_loader_agrees_with_from_bytes_on_committed_files() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    for file in ["tests/fixtures/v1-small.rules", "rules/default.rules"] {
        let bytes = std::fs::read(format!("{root}/{file}")).unwrap();
        let full = Rulebase::from_bytes(&bytes).unwrap();
        let trusted = Rulebase::from_trusted_bytes(&bytes).unwrap();
        assert!(!full.rules.is_empty(), "{file}");
        assert_eq!(trusted, full, "{file}");
    }
}

/// It still checks the framing (magic, version, lengths, checksum) and
/// the stream, but not the rules themselves.
#[test]
fn trusted_loader_checks_framing_but_not_rules() {
    let rb = Rulebase {
        settings: settings(),
        rules: sample(),
    };
    let bytes = rb.to_bytes();
    let mut bad_magic = bytes.clone();
    bad_magic[0] ^= 1;
    assert!(matches!(
        Rulebase::from_trusted_bytes(&bad_magic),
        Err(RulebaseError::Wire(WireError::BadMagic { .. }))
    ));
    let mut bad_version = bytes.clone();
    bad_version[8] = 2;
    assert!(matches!(
        Rulebase::from_trusted_bytes(&bad_version),
        Err(RulebaseError::Wire(WireError::UnsupportedVersion {
            found: 2,
            ..
        }))
    ));
    assert!(matches!(
        Rulebase::from_trusted_bytes(&bytes[..bytes.len() - 1]),
        Err(RulebaseError::Wire(WireError::Truncated { .. }))
    ));
    let mut flipped = bytes.clone();
    let last_payload_byte = bytes.len() - 5;
    flipped[last_payload_byte] ^= 0x10;
    assert!(matches!(
        Rulebase::from_trusted_bytes(&flipped),
        Err(RulebaseError::Wire(WireError::ChecksumMismatch { .. }))
    ));
    // Out of order: refused by the full loader, decoded as stored by
    // the trusted one.
    let mut rules = sample();
    rules.swap(1, 2);
    let unsorted = unchecked_file(&rules, |_| {});
    assert!(matches!(
        Rulebase::from_bytes(&unsorted),
        Err(RulebaseError::InvalidRule { index: 2, .. })
    ));
    assert_eq!(
        Rulebase::from_trusted_bytes(&unsorted).unwrap().rules,
        rules
    );
}

#[test]
fn is_canonical_agrees_with_canonical() {
    for v in 0..4 {
        for closed in [&[5][..], &[0, 1], &[2, 8], &[0, 1, 2], &[0, 8], &[3, 5]] {
            for sym in 0..8 {
                let r = order1(v, closed).transform(sym);
                assert_eq!(is_canonical(&r), r.canonical() == r, "{r:?}");
            }
        }
    }
}

#[test]
fn write_is_atomic_and_reports_io_errors() {
    let dir = std::env::temp_dir().join(format!("sapper-format-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.rules");
    let rb = Rulebase {
        settings: settings(),
        rules: sample(),
    };
    rb.write(&path).unwrap();
    assert_eq!(Rulebase::read(&path).unwrap(), rb);
    // Overwrite in place; only the final file remains.
    rb.write(&path).unwrap();
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("a.rules")]);
    // A missing directory is a file error naming it, not a panic.
    let missing = dir.join("no-such-dir").join("b.rules");
    assert!(matches!(rb.write(&missing), Err(RulebaseError::File(_))));
    assert!(matches!(
        Rulebase::read(&missing),
        Err(RulebaseError::File(_))
    ));
    // A malformed rule is refused before anything is written.
    let mut bad = rb.clone();
    bad.rules[0].pattern.h = 0;
    assert!(matches!(
        bad.write(&path),
        Err(RulebaseError::InvalidRule { index: 0, .. })
    ));
    assert_eq!(Rulebase::read(&path).unwrap(), rb);
    std::fs::remove_dir_all(&dir).unwrap();
}
