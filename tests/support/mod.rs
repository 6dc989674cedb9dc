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
    let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let what = format!(
        "sapper {}",
        args.iter()
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let output = Command::new(env!("CARGO_BIN_EXE_sapper"))
        .args(&args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run the binary: {e}"));
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
