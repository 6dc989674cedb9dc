//! `sapper solve --learn`: learning adds verified rules, and a second run
//! makes those deductions by rules.
//!
//! The corpus is generated here (deterministic seed): 80 uniform random
//! expert fields (16×30, 99 mines) opened at a 0 as in the game, written in
//! the thesis layout. Most get stuck (a guess is needed), but on the way
//! some cells need three or more numbers at once: those are learned.

use std::path::Path;
use std::process::Command;

/// A small deterministic generator (xorshift), so the corpus is the same on
/// every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Writes one field: mines at random, the start = the flood opening of a 0
/// (fields without a 0 are redrawn).
fn write_field(dir: &Path, rng: &mut Rng, h: usize, w: usize, mines: usize) {
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
        // Only the clicked 0 is marked open: the game (and sapper) open
        // its neighbours, 0s recursively.
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

fn sapper(args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_sapper"))
        .args(args)
        .output()
        .expect("run sapper");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    out
}

/// Sums `by_method[key]` over the JSON lines of `sapper solve --json`.
fn total(stdout: &[u8], key: &str) -> u64 {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON line");
            v["by_method"][key].as_u64().expect("count")
        })
        .sum()
}

fn learned_count(stderr: &[u8]) -> usize {
    let s = String::from_utf8_lossy(stderr);
    let line = s
        .lines()
        .find(|l| l.starts_with("learned "))
        .expect("a 'learned N new rules' line");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn learning_adds_verified_rules_that_a_second_run_uses() {
    let dir = std::env::temp_dir().join(format!("sapper-learn-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let corpus = dir.join("corpus");
    let mut rng = Rng(0x5eed_1234_abcd_9876);
    for k in 1..=80 {
        write_field(&corpus.join(format!("field_{k}")), &mut rng, 16, 30, 99);
    }
    let learned = dir.join("learned.rules");
    let corpus_s = corpus.to_str().unwrap();
    let learned_s = learned.to_str().unwrap();

    // Baseline with the default rulebase.
    let base = sapper(&["solve", corpus_s, "--json"]);
    assert!(base.status.success());

    // First run: learns from the method deductions.
    let first = sapper(&["solve", corpus_s, "--json", "--learn", learned_s]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let n = learned_count(&first.stderr);
    assert!(n > 0, "nothing learned on 80 expert fields");

    // The learned rules are sound: re-proved independently of how they were made.
    let verify = sapper(&["rules", "verify", learned_s]);
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );
    let info = sapper(&["rules", "info", learned_s, "--json"]);
    assert!(info.status.success());

    // Second run with the learned rulebase: the same outcomes, more cells by
    // rules, fewer by methods, and nothing new to learn.
    let second = sapper(&["solve", corpus_s, "--json", "--learn", learned_s]);
    assert!(second.status.success());
    assert_eq!(learned_count(&second.stderr), 0);
    let outcomes = |out: &[u8]| -> Vec<(String, bool, u64)> {
        String::from_utf8_lossy(out)
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["field"].as_str().unwrap().to_string(),
                    v["solved"].as_bool().unwrap(),
                    v["opened_safe_cells"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(outcomes(&second.stdout), outcomes(&base.stdout));
    let methods = |out: &[u8]| {
        total(out, "single_cell")
            + total(out, "linked_cells_1")
            + total(out, "linked_cells_2")
            + total(out, "hypotheses")
    };
    assert!(total(&second.stdout, "rules") > total(&base.stdout, "rules"));
    assert!(methods(&second.stdout) < methods(&base.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}
