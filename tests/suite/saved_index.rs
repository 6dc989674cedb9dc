//! The rule index saved beside a rulebase file (`FILE.index`,
//! `engine/src/rules/saved_index.rs`): written by `sapper rules index`,
//! used by `--rules FILE` only when it was built from exactly that file and
//! arrived intact; a corrupt, truncated, stale or future-version index is
//! named in a warning and the rulebase indexed instead, with the same
//! answers.

use crate::util::{repo, sapper, write_expert_corpus, write_unsound_rulebase, Run, TempDir};
use std::path::{Path, PathBuf};

/// A copy of the small committed rulebase in a fresh folder.
fn rulebase_in(tmp: &TempDir) -> PathBuf {
    let path = tmp.path().join("small.rules");
    std::fs::copy(repo().join("tests/fixtures/v1-small.rules"), &path).unwrap();
    path
}

fn index_of(rules: &Path) -> PathBuf {
    let mut name = rules.as_os_str().to_owned();
    name.push(".index");
    PathBuf::from(name)
}

fn solve_with(rules: &Path) -> Run {
    sapper([
        "solve",
        "samples/fields",
        "--json",
        "--rules",
        rules.to_str().unwrap(),
    ])
}

/// The solve's per-field answers without the timings.
fn answers(run: &Run) -> Vec<String> {
    run.stdout
        .lines()
        .map(|line| {
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            let object = v.as_object_mut().unwrap();
            object.retain(|k, _| !k.contains("micros") && !k.contains("time") && k != "fields");
            v.to_string()
        })
        .collect()
}

#[test]
fn a_saved_index_is_used_silently_and_answers_as_indexing_does() {
    let tmp = TempDir::new("index-used");
    let rules = rulebase_in(&tmp);
    let fresh = solve_with(&rules);
    fresh.ok();
    let run = sapper(["rules", "index", rules.to_str().unwrap()]);
    run.ok().stdout_has("proved and indexed 4952 rules");
    assert!(index_of(&rules).is_file());
    sapper(["rules", "info", rules.to_str().unwrap()])
        .ok()
        .stdout_has("index:          valid");
    let indexed = solve_with(&rules);
    indexed.ok();
    assert!(indexed.stderr.is_empty(), "{}", indexed.stderr);
    assert_eq!(answers(&indexed), answers(&fresh));
}

/// Each way an index can be wrong: the warning names the index file and
/// the reason, the rulebase is indexed instead, and the answers are those
/// of a fresh index.
#[test]
fn a_corrupt_truncated_stale_or_future_index_is_never_used() {
    let tmp = TempDir::new("index-bad");
    let rules = rulebase_in(&tmp);
    let fresh = solve_with(&rules);
    sapper(["rules", "index", rules.to_str().unwrap()]).ok();
    let good = std::fs::read(index_of(&rules)).unwrap();
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x10;
    let mut future = good.clone();
    future[8] = future[8].wrapping_add(1); // the format version, after the magic
    let cases: [(&str, Vec<u8>); 4] = [
        ("checksum mismatch", flipped),
        ("truncated rule index", good[..good.len() / 2].to_vec()),
        ("format version", future),
        ("not a sapper rule index", b"hello".to_vec()),
    ];
    for (reason, bytes) in cases {
        std::fs::write(index_of(&rules), &bytes).unwrap();
        let run = solve_with(&rules);
        run.ok()
            .stderr_has(&format!("{}: ", index_of(&rules).display()))
            .stderr_has(reason)
            .stderr_has("indexing");
        assert_eq!(answers(&run), answers(&fresh), "{reason}");
        sapper(["rules", "info", rules.to_str().unwrap()])
            .ok()
            .stdout_has("index:          unusable");
    }
    // Stale: the rulebase changed after it was indexed (here: replaced by
    // the default rulebase), the index did not.
    std::fs::write(index_of(&rules), &good).unwrap();
    std::fs::copy(repo().join("rules/default.rules"), &rules).unwrap();
    let run = solve_with(&rules);
    run.ok().stderr_has("built from another rulebase");
    let default = solve_with(&repo().join("rules/default.rules"));
    assert_eq!(answers(&run), answers(&default));
}

#[test]
fn an_unsound_rulebase_gets_no_index() {
    let tmp = TempDir::new("index-unsound");
    let rules = tmp.path().join("unsound.rules");
    write_unsound_rulebase("tests/fixtures/v1-small.rules", &rules);
    sapper(["rules", "index", rules.to_str().unwrap()])
        .expect_code(1)
        .stderr_has("is unsound");
    assert!(!index_of(&rules).exists());
}

#[test]
fn learning_into_an_indexed_rulebase_keeps_its_index_valid() {
    let tmp = TempDir::new("index-learn");
    let rules = rulebase_in(&tmp);
    sapper(["rules", "index", rules.to_str().unwrap()]).ok();
    let before = std::fs::read(index_of(&rules)).unwrap();
    let corpus = tmp.path().join("corpus");
    write_expert_corpus(&corpus, 11, 6);
    sapper([
        "solve",
        corpus.to_str().unwrap(),
        "--learn",
        rules.to_str().unwrap(),
    ])
    .ok()
    .stderr_has("learned ");
    let after = std::fs::read(index_of(&rules)).unwrap();
    assert_ne!(
        before, after,
        "the small rulebase learns rules on expert fields"
    );
    sapper(["rules", "info", rules.to_str().unwrap()])
        .ok()
        .stdout_has("index:          valid");
}
