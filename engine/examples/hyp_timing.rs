//! Acceptance check and timing for method 4 (hypotheses) on the shared
//! corpora.
//!
//! ```text
//! cargo run --release -p sapper-engine --example hyp_timing [-- DATA_DIR [CORPUS...]]
//! cargo run --release -p sapper-engine --example hyp_timing -- --stress
//! ```
//!
//! `DATA_DIR` defaults to `/work/shared/data`; every sub-folder with an
//! `expected.csv` is a corpus (or only the named ones). For each field it
//! builds the ground truth from the thesis-layout CSVs (a small local
//! reader, independent of `formats`), runs `solver::solve_field` and
//! compares `solved` and `opened_safe_cells` with `expected.csv`. With
//! linked cells 1 and 2 still placeholders, single-cell plus hypotheses
//! alone must reproduce every line.
//!
//! It then replays each field with single-cell + hypotheses only, timing
//! every hypotheses call, and reports the distribution of call times and the
//! largest programme sizes met (frontier component, states per layer).
//!
//! `--stress` instead runs hypotheses on harder, non-corpus positions
//! (fixed seeds): 30×16/99 boards opened by many random clicks, 30×16/99
//! boards with a random fraction of safe cells revealed (no flood fill, so
//! the frontier is one wide 2-D mesh), and 100×100 / 200×200 boards; every
//! forced cell is checked against the layout.

use sapper_engine::methods::{hypotheses, single_cell, MethodTable};
use sapper_engine::solver::{solve_field, starting_board};
use sapper_engine::{Board, Cell, Field, Forced, Grid, Method, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--stress") {
        stress();
        return;
    }
    let data = PathBuf::from(
        args.first()
            .map(String::as_str)
            .unwrap_or("/work/shared/data"),
    );
    let wanted: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
    if let Err(e) = run(&data, &wanted) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run(data: &Path, wanted: &[&str]) -> Result<(), String> {
    let mut corpora: Vec<PathBuf> = std::fs::read_dir(data)
        .map_err(|e| format!("{}: {e}", data.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("expected.csv").is_file())
        .filter(|p| {
            wanted.is_empty()
                || wanted
                    .iter()
                    .any(|w| p.file_name().is_some_and(|n| n == *w))
        })
        .collect();
    corpora.sort();
    let mut all_match = true;
    for corpus in &corpora {
        all_match &= run_corpus(corpus)?;
    }
    println!(
        "\n{}",
        if all_match {
            "every field matches expected.csv"
        } else {
            "MISMATCHES (see above)"
        }
    );
    Ok(())
}

struct Expected {
    field: String,
    solved: bool,
    opened: usize,
}

fn read_expected(path: &Path) -> Result<Vec<Expected>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.trim().split(',').collect();
        let bad = || {
            format!(
                "{}:{}: expected `field,solved,opened_safe_cells`",
                path.display(),
                n + 1
            )
        };
        if parts.len() != 3 {
            return Err(bad());
        }
        out.push(Expected {
            field: parts[0].to_string(),
            solved: parts[1].parse().map_err(|_| bad())?,
            opened: parts[2].parse().map_err(|_| bad())?,
        });
    }
    Ok(out)
}

/// Reads one comma-separated table of `h` rows by `w` columns.
fn read_table<T>(
    path: &Path,
    h: usize,
    w: usize,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Vec<T>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if rows.len() != h {
        return Err(format!(
            "{}: {} rows, expected {h}",
            path.display(),
            rows.len()
        ));
    }
    let mut out = Vec::with_capacity(h * w);
    for (r, row) in rows.iter().enumerate() {
        let cols: Vec<&str> = row.trim().split(',').collect();
        if cols.len() != w {
            return Err(format!(
                "{}:{}: {} columns, expected {w}",
                path.display(),
                r + 1,
                cols.len()
            ));
        }
        for (c, v) in cols.iter().enumerate() {
            out.push(parse(v.trim()).ok_or_else(|| {
                format!(
                    "{}:{}:{}: unexpected value `{v}`",
                    path.display(),
                    r + 1,
                    c + 1
                )
            })?);
        }
    }
    Ok(out)
}

fn read_field(dir: &Path) -> Result<Field, String> {
    let info_path = dir.join("field_info.csv");
    let info =
        std::fs::read_to_string(&info_path).map_err(|e| format!("{}: {e}", info_path.display()))?;
    let nums: Vec<usize> = info
        .trim()
        .split(',')
        .map(|s| s.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}:1: {e}", info_path.display()))?;
    let [h, w, tm] = nums[..] else {
        return Err(format!("{}:1: expected `h,w,tm`", info_path.display()));
    };
    let open = read_table(&dir.join("status.csv"), h, w, |s| match s {
        "T" => Some(true),
        "F" => Some(false),
        _ => None,
    })?;
    let values = read_table(&dir.join("values.csv"), h, w, |s| {
        s.parse::<i8>().ok().filter(|v| (-1..=8).contains(v))
    })?;
    let mines: Vec<bool> = values.iter().map(|&v| v == -1).collect();
    let field = Field::from_mines(Grid::new(h, w), mines, open);
    if field.total_mines as usize != tm {
        return Err(format!(
            "{}: tm = {tm} but values.csv has {} mines",
            dir.display(),
            field.total_mines
        ));
    }
    for (i, &v) in values.iter().enumerate() {
        if v >= 0 && field.value[i] as i8 != v {
            return Err(format!(
                "{}: values.csv cell ({},{}) says {v}, its neighbours hold {}",
                dir.display(),
                i / w,
                i % w,
                field.value[i]
            ));
        }
    }
    Ok(field)
}

fn run_corpus(corpus: &Path) -> Result<bool, String> {
    let name = corpus.file_name().unwrap().to_string_lossy().to_string();
    let expected = read_expected(&corpus.join("expected.csv"))?;
    let mut table = MethodTable::default();
    let mut field_times = Vec::new();
    let mut call_times: Vec<f64> = Vec::new();
    let (mut solved, mut expected_solved, mut matches) = (0, 0, 0);
    let mut mismatches = Vec::new();
    let (mut largest_component, mut largest_layer, mut count_binding_calls) = (0, 0, 0);
    for e in &expected {
        let field = read_field(&corpus.join(&e.field))?;
        let t0 = Instant::now();
        let outcome = solve_field(&field, &mut table)
            .map_err(|err| format!("{name}/{}: {err:?}", e.field))?;
        field_times.push(t0.elapsed().as_secs_f64() * 1e3);
        solved += outcome.solved as usize;
        expected_solved += e.solved as usize;
        if outcome.solved == e.solved && outcome.opened_safe_cells == e.opened {
            matches += 1;
        } else {
            mismatches.push(format!(
                "{}: got solved={} opened={}, expected solved={} opened={}",
                e.field, outcome.solved, outcome.opened_safe_cells, e.solved, e.opened
            ));
        }
        let replay = replay(&field)?;
        if replay.opened != outcome.opened_safe_cells {
            mismatches.push(format!(
                "{}: replay opened {} but solve_field {}",
                e.field, replay.opened, outcome.opened_safe_cells
            ));
        }
        call_times.extend(&replay.call_micros);
        largest_component = largest_component.max(replay.largest_component);
        largest_layer = largest_layer.max(replay.largest_layer);
        count_binding_calls += replay.count_binding_calls;
    }
    let n = expected.len();
    println!(
        "{name}: {n} fields, solved {solved} (expected {expected_solved}), {matches}/{n} match expected.csv"
    );
    for m in &mismatches {
        println!("  MISMATCH {m}");
    }
    println!(
        "  solve_field per field: mean {:.3} ms, median {:.3} ms, max {:.3} ms",
        mean(&field_times),
        median(&mut field_times),
        field_times.iter().cloned().fold(0.0, f64::max)
    );
    let h = table.get(Method::Hypotheses);
    println!(
        "  hypotheses in solve_field: {} calls ({} found something), mean {:.1} µs/call, {} cells",
        h.attempts,
        h.successes,
        (h.nanos_success + h.nanos_fail) as f64 / h.attempts.max(1) as f64 / 1e3,
        h.cells
    );
    let s = table.get(Method::SingleCell);
    println!(
        "  single_cell in solve_field: {} calls, {} cells",
        s.attempts, s.cells
    );
    let calls = call_times.len();
    println!(
        "  hypotheses per call (replay): {calls} calls, mean {:.1} µs, median {:.1} µs, p99 {:.1} µs, max {:.1} µs; \
         largest component {largest_component} cells, largest layer {largest_layer} states, count bound in {count_binding_calls} calls",
        mean(&call_times),
        median(&mut call_times),
        percentile(&mut call_times, 0.99),
        call_times.iter().cloned().fold(0.0, f64::max)
    );
    Ok(mismatches.is_empty())
}

struct Replay {
    opened: usize,
    call_micros: Vec<f64>,
    largest_component: usize,
    largest_layer: usize,
    count_binding_calls: usize,
}

/// Single-cell to its fixpoint, then one hypotheses call (timed), applied
/// from the truth; until solved or stuck.
fn replay(field: &Field) -> Result<Replay, String> {
    let (mut board, mut opened) = starting_board(field);
    let mut r = Replay {
        opened: 0,
        call_micros: Vec::new(),
        largest_component: 0,
        largest_layer: 0,
        count_binding_calls: 0,
    };
    let mut found: Vec<Forced> = Vec::new();
    while opened < field.safe_cells() {
        found.clear();
        single_cell::find(&board, None, &mut found).map_err(|c| c.describe(board.grid()))?;
        found.retain(|f| board.cell(f.cell).is_unknown());
        if found.is_empty() {
            let t0 = Instant::now();
            let profile = hypotheses::find_profiled(&board, &mut found)
                .map_err(|c| c.describe(board.grid()))?;
            r.call_micros.push(t0.elapsed().as_secs_f64() * 1e6);
            r.largest_component = r.largest_component.max(profile.largest_component);
            r.largest_layer = r.largest_layer.max(profile.largest_layer);
            r.count_binding_calls += profile.count_binds as usize;
            if found.is_empty() {
                break;
            }
        }
        for f in found.drain(..) {
            if !board.cell(f.cell).is_unknown() {
                continue;
            }
            if field.mine[f.cell as usize] != (f.value == Value::Mine) {
                return Err(format!("unsound deduction {f:?}"));
            }
            match f.value {
                Value::Mine => board.set(f.cell, Cell::Mine),
                Value::Safe => opened += open(&mut board, field, f.cell),
            }
        }
    }
    r.opened = opened;
    Ok(r)
}

/// Opens a safe cell as the game does (0s open their neighbours); returns
/// the number of cells opened.
fn open(board: &mut Board, field: &Field, cell: u32) -> usize {
    let mut stack = vec![cell];
    let mut opened = 0;
    while let Some(c) = stack.pop() {
        if matches!(board.cell(c), Cell::Revealed(_) | Cell::Mine) {
            continue;
        }
        let v = field.value[c as usize];
        board.set(c, Cell::Revealed(v));
        opened += 1;
        if v == 0 {
            stack.extend(board.grid().neighbours(c).iter().copied());
        }
    }
    opened
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn median(v: &mut [f64]) -> f64 {
    percentile(v, 0.5)
}

fn percentile(v: &mut [f64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() - 1) as f64 * q).round() as usize]
}

/// A small xorshift generator (fixed seeds: the stress runs repeat).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn random_field(grid: Grid, mines: usize, rng: &mut Rng) -> Field {
    let n = grid.len();
    let mut mine = vec![false; n];
    let mut placed = 0;
    while placed < mines {
        let i = rng.below(n);
        if !mine[i] {
            mine[i] = true;
            placed += 1;
        }
    }
    Field::from_mines(grid, mine, vec![false; n])
}

#[derive(Default)]
struct StressStats {
    calls: usize,
    micros: Vec<f64>,
    largest_component: usize,
    largest_layer: usize,
    widest_key: usize,
    states: usize,
    count_binds: usize,
}

impl StressStats {
    fn run(&mut self, field: &Field, cells: Vec<Cell>, total: Option<u32>) {
        let board = Board::new(field.grid, cells, total);
        let mut out = Vec::new();
        let t0 = Instant::now();
        let profile =
            hypotheses::find_profiled(&board, &mut out).expect("a real layout is consistent");
        self.micros.push(t0.elapsed().as_secs_f64() * 1e6);
        for f in &out {
            assert_eq!(
                field.mine[f.cell as usize],
                f.value == Value::Mine,
                "unsound {f:?}"
            );
        }
        self.calls += 1;
        self.largest_component = self.largest_component.max(profile.largest_component);
        self.largest_layer = self.largest_layer.max(profile.largest_layer);
        self.widest_key = self.widest_key.max(profile.widest_key);
        self.states += profile.states;
        self.count_binds += profile.count_binds as usize;
    }

    fn print(&mut self, name: &str) {
        println!(
            "{name}: {} calls, median {:.0} µs, mean {:.0} µs, max {:.0} µs; largest component {}, \
             largest layer {}, widest key {}, {:.0} states/call, count bound in {}",
            self.calls,
            median(&mut self.micros),
            mean(&self.micros),
            self.micros.iter().cloned().fold(0.0, f64::max),
            self.largest_component,
            self.largest_layer,
            self.widest_key,
            self.states as f64 / self.calls.max(1) as f64,
            self.count_binds
        );
    }
}

fn stress() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    // Boards opened by up to `max_clicks` random clicks (0s flood-open).
    for (h, w, mines, max_clicks, trials) in [
        (16, 30, 99, 120, 400),
        (100, 100, 2000, 400, 10),
        (200, 200, 8000, 1500, 3),
    ] {
        let mut stats = StressStats::default();
        for _ in 0..trials {
            let field = random_field(Grid::new(h, w), mines, &mut rng);
            let mut board = Board::new(field.grid, vec![Cell::Unknown; field.grid.len()], None);
            for _ in 0..1 + rng.below(max_clicks) {
                let i = rng.below(field.grid.len()) as u32;
                if !field.mine[i as usize] {
                    open(&mut board, &field, i);
                }
            }
            for total in [Some(mines as u32), None] {
                stats.run(&field, board.cells().to_vec(), total);
            }
        }
        stats.print(&format!(
            "{h}x{w}/{mines}, up to {max_clicks} random clicks"
        ));
    }
    // A random share of the safe cells revealed, no flood fill.
    for pct in [5, 10, 20, 30, 50, 70] {
        let mut stats = StressStats::default();
        for _ in 0..20 {
            let field = random_field(Grid::new(16, 30), 99, &mut rng);
            let cells: Vec<Cell> = (0..field.grid.len())
                .map(|i| {
                    if !field.mine[i] && rng.below(100) < pct {
                        Cell::Revealed(field.value[i])
                    } else {
                        Cell::Unknown
                    }
                })
                .collect();
            stats.run(&field, cells, Some(99));
        }
        stats.print(&format!("16x30/99, {pct}% of safe cells revealed"));
    }
}
