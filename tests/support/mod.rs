//! What the integration tests share: the one way to run the binary (with its
//! panic check), one seeded random generator, temporary folders, and writing
//! fields in the thesis layout.
//!
//! A test file uses it with `mod support;`; not every file uses every part.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root (where `samples/` and `rules/` are).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What one run of the binary gave.
#[derive(Debug)]
pub struct Run {
    pub what: String,
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `sapper ARGS` in the repository root, stdin closed. Fails the test
/// if the process panicked or was killed by a signal.
pub fn sapper<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    sapper_in(&repo(), args)
}

/// [`sapper`] in another working folder.
pub fn sapper_in<I, S>(dir: &Path, args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    sapper_with(dir, args, None, 0)
}

/// Runs `sapper ARGS` in `dir` with `stdin` as its input (`None`: closed)
/// and `threads` rayon threads (0: the default). Fails the test if the
/// process panicked or was killed by a signal.
pub fn sapper_with<I, S>(dir: &Path, args: I, stdin: Option<&str>, threads: usize) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    use std::io::Write as _;
    let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let what = format!(
        "sapper {}",
        args.iter()
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut command = Command::new(env!("CARGO_BIN_EXE_sapper"));
    command
        .args(&args)
        .current_dir(dir)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if threads > 0 {
        command.env("RAYON_NUM_THREADS", threads.to_string());
    }
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: cannot run the binary: {e}"));
    if let Some(text) = stdin {
        // The binary may exit before reading everything: that is its answer.
        let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
    }
    let output = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let run = Run {
        code: output
            .status
            .code()
            .unwrap_or_else(|| panic!("{what}: killed by a signal ({:?})", output.status)),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        what,
    };
    assert!(
        !run.stderr.contains("panicked"),
        "{}: panicked:\n{}",
        run.what,
        run.stderr
    );
    run
}

impl Run {
    pub fn expect_code(&self, code: i32) -> &Run {
        assert_eq!(
            self.code, code,
            "{}: exit code\n--- stdout\n{}\n--- stderr\n{}",
            self.what, self.stdout, self.stderr
        );
        self
    }

    pub fn ok(&self) -> &Run {
        self.expect_code(0)
    }

    pub fn stderr_has(&self, needle: &str) -> &Run {
        assert!(
            self.stderr.contains(needle),
            "{}: stderr lacks {needle:?}:\n{}",
            self.what,
            self.stderr
        );
        self
    }

    pub fn stdout_has(&self, needle: &str) -> &Run {
        assert!(
            self.stdout.contains(needle),
            "{}: stdout lacks {needle:?}:\n{}",
            self.what,
            self.stdout
        );
        self
    }

    pub fn stdout_empty(&self) -> &Run {
        assert!(
            self.stdout.is_empty(),
            "{}: expected no stdout, got:\n{}",
            self.what,
            self.stdout
        );
        self
    }

    /// Every stdout line as a JSON object.
    pub fn json_lines(&self) -> Vec<serde_json::Map<String, serde_json::Value>> {
        self.stdout
            .lines()
            .map(|line| match serde_json::from_str(line) {
                Ok(serde_json::Value::Object(m)) => m,
                other => panic!(
                    "{}: stdout line is not a JSON object: {line:?} ({other:?})",
                    self.what
                ),
            })
            .collect()
    }

    /// Stdout as exactly one JSON object (one line).
    pub fn json(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut lines = self.json_lines();
        assert_eq!(
            lines.len(),
            1,
            "{}: expected one JSON line:\n{}",
            self.what,
            self.stdout
        );
        lines.pop().unwrap()
    }
}

/// A corpus of the shared data (`../shared/data/NAME`, beside the
/// repository). Tests that call this are `#[ignore = "needs ../shared/data"]`
/// and run by `.ci/run` with `--ignored`; run without the data they fail
/// with this message rather than pass having checked nothing.
pub fn shared_data(name: &str) -> PathBuf {
    let path = repo().join("../shared/data").join(name);
    assert!(
        path.exists(),
        "{} is absent: this test needs the shared data beside the repository",
        path.display()
    );
    path
}

/// Copies the files of folder `from` (recursively) into `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The tests' one random generator: xorshift64, deterministic from its
/// seed, so generated inputs are the same on every run.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `0..n` (`n > 0`; the bias of the modulo is negligible
    /// for test sizes).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `[0, 1)`, 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.next() % 100 < percent as u64
    }
}

/// A folder under the system's temporary folder, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("sapper-test-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, p: impl AsRef<Path>) -> PathBuf {
        self.0.join(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes one random field in the thesis layout: `mines` mines uniformly
/// at random on `h × w`, the start the flood opening of a 0 (layouts
/// without a 0 are redrawn; only the clicked 0 is marked open: sapper opens
/// its neighbours as the game does).
pub fn write_field(dir: &Path, rng: &mut Rng, h: usize, w: usize, mines: usize) {
    loop {
        let mut mine = vec![false; h * w];
        let mut placed = 0;
        while placed < mines {
            let i = rng.below(h * w);
            if !mine[i] {
                mine[i] = true;
                placed += 1;
            }
        }
        let value = |i: usize| -> i32 {
            if mine[i] {
                return -1;
            }
            let (r, c) = ((i / w) as isize, (i % w) as isize);
            let mut n = 0;
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (rr, cc) = (r + dr, c + dc);
                    if (dr, dc) != (0, 0)
                        && rr >= 0
                        && cc >= 0
                        && rr < h as isize
                        && cc < w as isize
                        && mine[rr as usize * w + cc as usize]
                    {
                        n += 1;
                    }
                }
            }
            n
        };
        let zeros: Vec<usize> = (0..h * w).filter(|&i| value(i) == 0).collect();
        if zeros.is_empty() {
            continue;
        }
        let start = zeros[rng.below(zeros.len())];
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("field_info.csv"), format!("{h},{w},{mines}\n")).unwrap();
        let rows = |f: &dyn Fn(usize) -> String| -> String {
            (0..h)
                .map(|r| (0..w).map(|c| f(r * w + c)).collect::<Vec<_>>().join(",") + "\n")
                .collect()
        };
        std::fs::write(
            dir.join("status.csv"),
            rows(&|i| if i == start { "T".into() } else { "F".into() }),
        )
        .unwrap();
        std::fs::write(dir.join("values.csv"), rows(&|i| value(i).to_string())).unwrap();
        return;
    }
}

/// A corpus of `count` random expert fields (16×30, 99 mines) in `dir`.
pub fn write_expert_corpus(dir: &Path, seed: u64, count: usize) {
    let mut rng = Rng::new(seed);
    for k in 1..=count {
        write_field(&dir.join(format!("field_{k}")), &mut rng, 16, 30, 99);
    }
}

/// Copies the rulebase at `from` (relative to the repository) to `to` with
/// one rule made unsound: the first forced rule with a safe conclusion
/// concludes mine on that cell instead. Built through the library, so the
/// framing, order and checksum are all valid — only a proof can catch it.
/// Returns the unsound rule's index in the written file.
pub fn write_unsound_rulebase(from: &str, to: &Path) -> usize {
    use sapper_engine::rules::{verify::verify_rulebase, RuleKind, Rulebase};
    let mut rb = Rulebase::read(repo().join(from)).unwrap();
    let i = rb
        .rules
        .iter()
        .position(|r| r.kind == RuleKind::Forced && r.safe != 0)
        .unwrap();
    let bit = rb.rules[i].safe & rb.rules[i].safe.wrapping_neg();
    rb.rules[i].safe ^= bit;
    rb.rules[i].mine ^= bit;
    let rb = rb.normalized().unwrap();
    rb.write(to).unwrap();
    let failures = verify_rulebase(&rb);
    assert_eq!(failures.len(), 1, "{failures:?}");
    failures[0].0
}
