//! What the integration tests share, one of each: the runner of the
//! `sapper` binary (with its panic check), the seeded random generator, the
//! number a cell shows, the pictures of boards and of rules, the default
//! rulebase and its tiers, temporary folders, fields written in the
//! thesis layout, and the allocator that counts each thread's heap
//! ([`heap`]).
//!
//! [`truth_boards`] and [`hyp_boards`] are the random-board generators of
//! the rule-layer tests and of the brute-force tests.

pub mod heap;
pub mod hyp_boards;
pub mod rule_gen;
pub mod truth_boards;

use rand::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sapper_engine::formats::position::cell_char;
use sapper_engine::rules::{Pattern, PatternCell, Rule, RuleKind, Rulebase};
use sapper_engine::solver::RuleTiers;
use sapper_engine::{Board, Cell, Grid, Position};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// The property-test configuration of a test whose full run is `full`
/// cases: at most `SAPPER_PROPTEST_CASES` of them (`.ci/run` sets it high
/// enough for every test's full count), or at most [`QUICK_CASES`] when it
/// is not set, so that `cargo test` stays quick. (Not proptest's own
/// `PROPTEST_CASES`: proptest lets that one override every test's count,
/// setting all of them to it.)
pub fn cases(full: u32) -> proptest::test_runner::Config {
    let cap = std::env::var("SAPPER_PROPTEST_CASES")
        .ok()
        .and_then(|n| n.trim().parse::<u32>().ok())
        .unwrap_or(QUICK_CASES);
    proptest::test_runner::Config {
        cases: full.min(cap).max(1),
        ..proptest::test_runner::Config::default()
    }
}

/// Cases of each property test without `SAPPER_PROPTEST_CASES`.
pub const QUICK_CASES: u32 = 48;

/// The repository root (where `samples/` and `rules/` are).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------------------
// The binary

/// The `sapper` binary as a command to set up: working folder the
/// repository root, nothing else decided. For the runs [`sapper_with`]
/// cannot express (a conversation over pipes, stdout on a full disk, two
/// processes at once); everything else goes through [`sapper`].
pub fn sapper_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sapper"));
    command.current_dir(repo());
    command
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
    let mut command = sapper_command();
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

// ---------------------------------------------------------------------------
// Files and folders

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

/// A folder under the system's temporary folder, removed when dropped.
/// Its name has the tag, the process and a counter: every test of the one
/// test process gets its own, whatever tags they choose.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "sapper-test-{tag}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
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

// ---------------------------------------------------------------------------
// Randomness

/// The tests' one random generator: xoshiro256++ (`rand_xoshiro`),
/// deterministic from its seed, so generated inputs are the same on every
/// run (proptest draws the seed where a failure should shrink to one).
#[derive(Clone, Debug)]
pub struct Rng(Xoshiro256PlusPlus);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
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

// ---------------------------------------------------------------------------
// Boards and rules

/// The number safe cell `i` shows: the mines among its neighbours.
pub fn mines_around(grid: Grid, mines: &[bool], i: u32) -> u8 {
    grid.neighbours(i)
        .iter()
        .filter(|&&n| mines[n as usize])
        .count() as u8
}

/// A board from its picture in the position text format
/// (`sapper_engine::formats::position`): `?` closed, `F` flag, `*` known
/// safe, `.` or `0`–`8` revealed; no total. The format's local checks are
/// made: a board that fails them (a number that cannot be right whatever
/// the rest) is written with [`impossible_board`].
pub fn board(rows: &[&str]) -> Board {
    let p: Position = rows
        .join("\n")
        .parse()
        .unwrap_or_else(|e| panic!("{rows:?} is not a position: {e}"));
    Board::from_position(&p)
}

/// A board the position format refuses: its picture (the characters of
/// [`board`]) has a number no layout can satisfy alone (more flags around
/// it than it shows, too few closed neighbours for it, more than its
/// neighbours), for the tests that such contradictions are found. Each
/// character is read as the format writes it (`formats::position::cell_char`).
pub fn impossible_board(rows: &[&str]) -> Board {
    assert!(
        rows.join("\n").parse::<Position>().is_err(),
        "{rows:?} is a valid position: use `board`"
    );
    let all = [Cell::Unknown, Cell::Mine, Cell::Safe]
        .into_iter()
        .chain((0..=8).map(Cell::Revealed));
    let of = |ch: char| match ch {
        '0' => Cell::Revealed(0),
        _ => all
            .clone()
            .find(|&cell| cell_char(cell) == ch)
            .unwrap_or_else(|| panic!("{ch:?} in board picture {rows:?}")),
    };
    let grid = Grid::new(rows.len(), rows[0].len());
    let cells = rows.iter().flat_map(|r| r.chars()).map(of).collect();
    Board::new(grid, cells, None)
}

/// A rule from its picture, as [`Rule::rows`] draws it: `?` closed, `.`
/// open, `#` wall, `_` any, digits foci, `s` / `m` closed cells concluded
/// safe / mine.
pub fn rule(rows: &[&str], kind: RuleKind) -> Rule {
    let (h, w) = (rows.len(), rows[0].len());
    let (mut cells, mut safe, mut mine) = (Vec::new(), 0u64, 0u64);
    for (i, ch) in rows.iter().flat_map(|r| r.chars()).enumerate() {
        cells.push(match ch {
            '?' => PatternCell::Closed,
            '.' => PatternCell::Open,
            '#' => PatternCell::Wall,
            '_' => PatternCell::Any,
            's' => {
                safe |= 1 << i;
                PatternCell::Closed
            }
            'm' => {
                mine |= 1 << i;
                PatternCell::Closed
            }
            d => PatternCell::Number(
                d.to_digit(10)
                    .unwrap_or_else(|| panic!("{d:?} in rule picture {rows:?}"))
                    as u8,
            ),
        });
    }
    let rule = Rule {
        pattern: Pattern::new(h as u8, w as u8, cells),
        kind,
        safe,
        mine,
    };
    assert_eq!(rule.rows(), rows, "the picture draws back as itself");
    rule
}

// ---------------------------------------------------------------------------
// The default rulebase

/// How to regenerate the default rulebase: the command documented with the
/// embedded rulebase and in `sapper synth --help`.
pub const REGENERATE: &str = "`sapper synth --order 2 -o rules/default.rules` \
                              (from the repository root: `cargo run --release -- synth --order 2 -o rules/default.rules`)";

/// The default rulebase the engine embeds (`rules/default.rules`, orders
/// 1–2), decoded and checked once per test process.
pub fn default_rulebase() -> &'static Rulebase {
    static RB: OnceLock<Rulebase> = OnceLock::new();
    RB.get_or_init(|| {
        Rulebase::from_bytes(sapper_engine::rules::DEFAULT_RULEBASE).unwrap_or_else(|e| {
            panic!("rules/default.rules does not load: {e}; regenerate it: {REGENERATE}")
        })
    })
}

/// The default rulebase's tiers as the binary loads them (the embedded
/// index, `rules::load::default_tiers`), once per test process.
/// `frozen_index` checks that they equal the tiers indexed afresh from
/// [`default_rulebase`].
pub fn default_tiers() -> &'static RuleTiers {
    static T: OnceLock<RuleTiers> = OnceLock::new();
    T.get_or_init(|| {
        sapper_engine::rules::load::default_tiers()
            .unwrap_or_else(|e| panic!("the default rulebase does not load: {e}"))
            .tiers
    })
}

// ---------------------------------------------------------------------------
// Fields in the thesis layout

/// Writes one random field in the thesis layout: `mines` mines uniformly
/// at random on `h × w`, the start the flood opening of a 0 (layouts
/// without a 0 are redrawn; only the clicked 0 is marked open: sapper opens
/// its neighbours as the game does).
pub fn write_field(dir: &Path, rng: &mut Rng, h: usize, w: usize, mines: usize) {
    let grid = Grid::new(h, w);
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
                -1
            } else {
                mines_around(grid, &mine, i as u32) as i32
            }
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
    use sapper_engine::rules::verify::verify_rulebase;
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
