//! The exact count per position: `Probabilities::compute` over a fixed set
//! of positions, one thread, warm (one `Probabilities` reused from position
//! to position, boards built before any timing).
//!
//! ```text
//! cargo bench --bench counting                      # the 300 expert positions
//! cargo bench --bench counting -- --rounds 41 --layouts
//! cargo bench --bench counting -- --file F          # positions of another file
//! ```
//!
//! Positions: `benches/data/expert-midgame-300.txt` by default (the 300
//! expert mid-game positions of `benches/probabilities_baseline.py`, written
//! by `benches/expert_positions.py`): positions in the text format, one
//! after the other, each starting at its `mines N` line.
//!
//! Each round computes every position once, in order; a position's time is
//! the median of its rounds, and the report gives the median and slowest
//! position and the total of the medians. `--layouts` adds the exact number
//! of layouts (`Probabilities::layouts`) to each position's time.
//! `--check FILE` writes every probability, error bound and `log10` of the
//! layouts (and with `--layouts` the exact count) to FILE, so two builds
//! can be compared.
//!
//! `--in-a-row` times each position all its rounds in a row instead: the
//! processor's branch predictor then learns the position, so the gap to
//! the interleaved rounds is what its mispredicted branches cost (the
//! interleaved figure is the one that counts: play meets each position
//! once).
//!
//! `--changed` times, instead, what a player's look-ahead asks: for every
//! position, each of its first 12 closed frontier cells revealed as each
//! number it can show, counted with `Probabilities::compute_changed` from
//! the position's own count (and with `--whole`, with
//! `compute_if_consistent` from scratch, to compare); a position's time is
//! then the sum over its cells and numbers.
//!
//! Instructions per position: run the binary once (`--rounds 1`) under
//! `valgrind --tool=callgrind
//! --toggle-collect=sapper_engine::probabilities::Probabilities::compute`
//! (only the count is collected; `...::compute_changed` or
//! `...::compute_if_consistent` with `--changed`) and divide by twice the
//! number of positions (the warm-up round counts too).

use sapper_engine::budget::Budget;
use sapper_engine::probabilities::Probabilities;
use sapper_engine::{Board, Cell, Position};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// What `--help` prints (the module doc says what each option does).
const USAGE: &str = "usage: cargo bench --bench counting -- [--file F] [--rounds N] \
[--layouts] [--in-a-row | --changed [--whole]] [--check FILE]
The exact count per position, one thread, warm: the median and slowest position's \
time and the total (see the top of benches/counting.rs).";

fn main() {
    let mut file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/data/expert-midgame-300.txt");
    let mut rounds = 21usize;
    let mut with_layouts = false;
    let mut check: Option<PathBuf> = None;
    let (mut changed, mut whole, mut in_a_row) = (false, false, false);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--file" => file = args.next().expect("--file FILE").into(),
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|r| r.parse().ok())
                    .expect("--rounds N")
            }
            "--layouts" => with_layouts = true,
            "--changed" => changed = true,
            "--whole" => whole = true,
            "--in-a-row" => in_a_row = true,
            "--check" => check = Some(args.next().expect("--check FILE").into()),
            // What `cargo bench` passes.
            "--bench" => {}
            "--help" | "-h" => {
                println!("{USAGE}");
                return;
            }
            other => panic!("unknown argument {other}\n{USAGE}"),
        }
    }
    assert!(
        !(in_a_row && changed),
        "--in-a-row times whole counts; --changed times its own sums"
    );
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let boards = boards_of(&text);
    let budget = Budget::unlimited();
    let mut p = Probabilities::new();
    if let Some(out) = &check {
        let mut w = std::io::BufWriter::new(std::fs::File::create(out).unwrap());
        for (k, b) in boards.iter().enumerate() {
            p.compute(b, None, &budget).unwrap();
            write!(
                w,
                "{k} bound {:e} log10 {:.12}",
                p.error_bound(),
                p.log10_layouts()
            )
            .unwrap();
            if with_layouts {
                write!(w, " layouts {}", p.layouts(&budget).unwrap()).unwrap();
            }
            writeln!(w).unwrap();
            for &c in p.closed_cells() {
                writeln!(w, "{c} {:?}", p.probability(c).unwrap()).unwrap();
            }
        }
        return;
    }
    let mut times = vec![Vec::with_capacity(rounds); boards.len()];
    if changed {
        let mut bases: Vec<Probabilities> = Vec::with_capacity(boards.len());
        let mut trials: Vec<Vec<(Board, u32)>> = Vec::with_capacity(boards.len());
        for b in &boards {
            let mut base = Probabilities::new();
            base.compute(b, None, &budget).unwrap();
            bases.push(base);
            trials.push(look_ahead_boards(b));
        }
        let mut scratch = Probabilities::new();
        let count = |scratch: &mut Probabilities, base: &Probabilities, board: &Board, c: u32| {
            if whole {
                scratch.compute_if_consistent(board, None, &budget)
            } else {
                scratch.compute_changed(board, base, &[c], None, &budget)
            }
            .unwrap()
        };
        for round in 0..=rounds {
            for (k, (base, boards)) in bases.iter().zip(&trials).enumerate() {
                let t = Instant::now();
                for (board, c) in boards {
                    std::hint::black_box(count(&mut scratch, base, board, *c));
                }
                if round > 0 {
                    times[k].push(t.elapsed().as_secs_f64() * 1e6);
                }
            }
        }
    } else {
        // One warm-up round: the buffers grow to their size.
        for b in &boards {
            p.compute(b, None, &budget).unwrap();
        }
        let mut time = |k: usize, b: &Board| {
            let t = Instant::now();
            p.compute(std::hint::black_box(b), None, &budget).unwrap();
            if with_layouts {
                std::hint::black_box(p.layouts(&budget).unwrap());
            }
            times[k].push(t.elapsed().as_secs_f64() * 1e6);
        };
        if in_a_row {
            for (k, b) in boards.iter().enumerate() {
                for _ in 0..rounds {
                    time(k, b);
                }
            }
        } else {
            for _ in 0..rounds {
                for (k, b) in boards.iter().enumerate() {
                    time(k, b);
                }
            }
        }
    }
    if rounds == 0 {
        return;
    }
    let mut per: Vec<(f64, usize)> = times
        .iter_mut()
        .enumerate()
        .map(|(k, t)| {
            t.sort_by(f64::total_cmp);
            (t[t.len() / 2], k)
        })
        .collect();
    let total: f64 = per.iter().map(|x| x.0).sum();
    per.sort_by(|a, b| a.0.total_cmp(&b.0));
    let median = per[per.len() / 2].0;
    let (slowest, at) = per[per.len() - 1];
    let what = match (changed, whole, with_layouts) {
        (true, true, _) => ", look-ahead positions counted whole",
        (true, false, _) => ", look-ahead positions counted after changes",
        (false, _, true) => ", with layouts",
        _ => "",
    };
    let what = if in_a_row {
        format!("{what}, each position's rounds in a row")
    } else {
        what.to_string()
    };
    println!(
        "{} positions, {rounds} rounds{what}: median {median:.2} µs, slowest {slowest:.2} µs (#{at}), \
         total {:.3} ms",
        boards.len(),
        total / 1e3
    );
}

/// The positions a look-ahead counts from `board`: each of its first 12
/// closed frontier cells revealed as each number it can show.
fn look_ahead_boards(board: &Board) -> Vec<(Board, u32)> {
    let grid = board.grid();
    let mut out = Vec::new();
    let frontier = (0..grid.len() as u32)
        .filter(|&c| board.cell(c) == Cell::Unknown && board.on_frontier(c))
        .take(12);
    for c in frontier {
        let known = grid
            .neighbours(c)
            .iter()
            .filter(|&&n| board.cell(n) == Cell::Mine)
            .count() as u8;
        for v in known..=known + board.unknown_around(c) as u8 {
            let mut next = board.clone();
            next.set(c, Cell::Revealed(v));
            out.push((next, c));
        }
    }
    out
}

/// The boards of a file of positions, each starting at its `mines` line.
fn boards_of(text: &str) -> Vec<Board> {
    let mut chunks: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("mines") || chunks.is_empty() {
            chunks.push(String::new());
        }
        let chunk = chunks.last_mut().unwrap();
        chunk.push_str(line);
        chunk.push('\n');
    }
    chunks
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let p: Position = c
                .parse()
                .unwrap_or_else(|e| panic!("position {k} of the file: {e}"));
            Board::from_position(&p)
        })
        .collect()
}
