//! The command line under adversity: unreadable corpus entries, writes to
//! links and devices, concurrent learning into one file, inputs that never
//! end or are too large. Each is an error that names what is wrong (and the
//! other inputs are still processed), never a hang, a panic, a partial file
//! or a clobbered device.

use crate::util::{
    copy_dir, repo, sapper, sapper_command, write_expert_corpus, write_unsound_rulebase, TempDir,
};
use std::path::Path;

#[cfg(unix)]
#[test]
fn a_corpus_with_unreadable_entries_still_solves_every_readable_field() {
    let tmp = TempDir::new("corpus-entries");
    let corpus = tmp.path().join("corpus");
    copy_dir(&repo().join("samples/fields"), &corpus);
    std::os::unix::fs::symlink("loop", corpus.join("loop")).unwrap();
    std::os::unix::fs::symlink("nowhere", corpus.join("dangling")).unwrap();
    let run = sapper(["solve".as_ref(), corpus.as_os_str()]);
    run.expect_code(1)
        .stderr_has("loop: a symbolic link in a loop")
        .stderr_has("dangling: a symbolic link to nothing");
    for field in ["field_1", "field_2", "field_3"] {
        assert!(
            run.stdout
                .lines()
                .any(|l| l.starts_with(field) && l.contains("solved")),
            "{field} not solved:\n{}",
            run.stdout
        );
    }
    // A folder that cannot be listed (only without the power to read it
    // anyway: root reads everything).
    let locked = corpus.join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::write(locked.join("x"), "").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read_dir(&locked).is_err() {
        let run = sapper(["solve".as_ref(), corpus.as_os_str()]);
        run.expect_code(1)
            .stderr_has("locked: cannot list folder: permission denied");
        assert!(run.stdout.contains("field_3"), "{}", run.stdout);
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[cfg(unix)]
#[test]
fn synth_writes_through_a_link_and_never_replaces_a_device() {
    let tmp = TempDir::new("synth-targets");
    let real = tmp.path().join("real.rules");
    let link = tmp.path().join("link.rules");
    std::os::unix::fs::symlink("real.rules", &link).unwrap();
    sapper(["synth", "--order", "1", "-o", link.to_str().unwrap()]).ok();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    sapper(["rules", "info", real.to_str().unwrap()]).ok();

    sapper(["synth", "--order", "1", "-o", "/dev/null"])
        .expect_code(2)
        .stderr_has("/dev/null: is a character device; refusing to replace it");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // Nothing is left beside the outputs.
    let hidden: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");
}

#[test]
fn learning_into_a_new_folder_path_says_what_is_wrong_before_solving() {
    let tmp = TempDir::new("learn-folder");
    let target = format!("{}/newdir/", tmp.path().display());
    sapper(["solve", "samples/fields", "--learn", &target])
        .expect_code(2)
        .stderr_has("names a folder (it ends with a separator); expected a file name");
    let missing = format!("{}/no/such/x.rules", tmp.path().display());
    sapper(["solve", "samples/fields", "--learn", &missing])
        .expect_code(2)
        .stderr_has("does not exist");
}

/// Two processes learning into one file at once end with the union of what
/// each learns alone.
#[test]
fn concurrent_learning_into_one_file_loses_no_rule() {
    let tmp = TempDir::new("learn-concurrent");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    write_expert_corpus(&a, 11, 60);
    write_expert_corpus(&b, 12, 60);
    let rules_of = |file: &Path| -> std::collections::BTreeSet<String> {
        let run = sapper(["rules", "export", file.to_str().unwrap(), "--json"]);
        run.ok();
        run.stdout.lines().map(str::to_owned).collect()
    };
    let alone = |corpus: &Path, name: &str| {
        let file = tmp.path().join(name);
        sapper([
            "solve",
            corpus.to_str().unwrap(),
            "--learn",
            file.to_str().unwrap(),
        ]);
        rules_of(&file)
    };
    let from_a = alone(&a, "a.rules");
    let from_b = alone(&b, "b.rules");
    let union: std::collections::BTreeSet<String> = from_a.union(&from_b).cloned().collect();
    assert!(
        union.len() > from_a.len() && union.len() > from_b.len(),
        "the corpora must teach different rules ({} / {} / {})",
        from_a.len(),
        from_b.len(),
        union.len()
    );

    let shared = tmp.path().join("shared.rules");
    let spawn = |corpus: &Path| {
        sapper_command()
            .args(["solve", corpus.to_str().unwrap(), "--learn"])
            .arg(&shared)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (pa, pb) = (spawn(&a), spawn(&b));
    for p in [pa, pb] {
        let out = p.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let got = rules_of(&shared);
    let lost: Vec<_> = union.difference(&got).collect();
    let extra: Vec<_> = got.difference(&union).collect();
    assert!(
        lost.is_empty() && extra.is_empty(),
        "lost {} rules ({:?}…), {} extra",
        lost.len(),
        lost.first(),
        extra.len()
    );
}

#[cfg(unix)]
#[test]
fn inputs_that_never_end_or_are_too_large_are_refused() {
    sapper(["analyse", "/dev/zero"])
        .expect_code(1)
        .stderr_has("/dev/zero: is a character device, expected a regular file");
    sapper(["solve", "samples/fields", "--rules", "/dev/zero"])
        .expect_code(2)
        .stderr_has("/dev/zero: is a character device");
    let tmp = TempDir::new("inputs");
    let fifo = tmp.path().join("fifo.txt");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        sapper(["analyse".as_ref(), fifo.as_os_str()])
            .expect_code(1)
            .stderr_has("is a named pipe, expected a regular file");
    }
    // A sparse file past the cap: refused by its size, without reading it.
    let huge = tmp.path().join("huge.txt");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(sapper_engine::files::MAX_TEXT_BYTES + 1)
        .unwrap();
    sapper(["analyse".as_ref(), huge.as_os_str()])
        .expect_code(1)
        .stderr_has("is larger than 64 MB");
}

#[test]
fn lone_carriage_returns_are_named_printably() {
    let tmp = TempDir::new("cr");
    let field = tmp.path().join("f");
    copy_dir(&repo().join("samples/fields/field_1"), &field);
    let status = std::fs::read_to_string(field.join("status.csv")).unwrap();
    std::fs::write(field.join("status.csv"), status.replace('\n', "\r")).unwrap();
    let run = sapper(["solve".as_ref(), field.as_os_str()]);
    run.expect_code(1)
        .stderr_has("status.csv:1:")
        .stderr_has("a carriage return (CR) not followed by a line feed");
    assert!(!run.stderr.contains('\r'), "{:?}", run.stderr);
}

/// The method order is decided on work units, not the clock: ten runs of
/// `solve --no-rules --json`, on one thread and on two, print the same
/// bytes once the times (`micros`) are taken out.
#[test]
fn methods_only_output_is_the_same_on_every_run() {
    let tmp = TempDir::new("deterministic");
    write_expert_corpus(tmp.path(), 7, 40);
    let without_times = |stdout: &str| -> String {
        stdout
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
                v.as_object_mut().unwrap().remove("micros");
                v.to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut outputs = std::collections::BTreeSet::new();
    for run in 0..10 {
        let out = sapper_command()
            .args(["solve", "--no-rules", "--json"])
            .arg(tmp.path())
            .env("RAYON_NUM_THREADS", if run % 2 == 0 { "1" } else { "2" })
            .output()
            .unwrap();
        assert!(out.status.success());
        outputs.insert(without_times(&String::from_utf8_lossy(&out.stdout)));
    }
    assert_eq!(outputs.len(), 1, "{} different outputs", outputs.len());
    let only = outputs.into_iter().next().unwrap();
    assert!(only.contains("\"hypotheses\":"), "{only}");
}

#[test]
fn an_unsound_rulebase_with_a_valid_checksum_is_refused_unless_trusted() {
    let tmp = TempDir::new("unsound-rules");
    let rules = tmp.path().join("unsound.rules");
    let bad = write_unsound_rulebase("rules/default.rules", &rules);
    let rules = rules.to_str().unwrap();
    let named = format!("{rules}: rule #{bad} is unsound: ");
    for command in [
        &["solve", "samples/fields"][..],
        &["analyse", "samples/positions/one-two-one.txt"][..],
        &["bench", "samples/fields", "--repeat", "1"][..],
    ] {
        let mut args = command.to_vec();
        args.extend(["--rules", rules]);
        sapper(&args).expect_code(2).stderr_has(&named);
        // --trust-rules takes the file as it is (and so may answer wrong:
        // that is what the flag says).
        args.push("--trust-rules");
        let run = sapper(&args);
        assert!(!run.stderr.contains("is unsound"), "{}", run.stderr);
    }
    // Growing from it would copy the unsound rule into the output.
    let out = tmp.path().join("grown.rules");
    let out = out.to_str().unwrap();
    sapper([
        "synth",
        "--order",
        "3",
        "--max-window",
        "4",
        "--from",
        rules,
        "-o",
        out,
    ])
    .expect_code(2)
    .stderr_has(&named);
    assert!(!Path::new(out).exists(), "nothing written");
    // The sound original loads and is proven without complaint.
    let original = repo().join("rules/default.rules");
    sapper([
        "solve",
        "samples/fields",
        "--rules",
        original.to_str().unwrap(),
    ])
    .ok();
}
