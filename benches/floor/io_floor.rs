//! The floor under `benches/probabilities_baseline.py`'s whole-process
//! measurement: a process that reads every file it is given (on as many
//! threads as there are cores) and writes `BYTES` bytes to standard output,
//! computing nothing. No program that reads these positions and prints
//! that much can finish faster on the same machine; the script runs it in
//! every round, beside sapper and ms_toollib, with the size of sapper's
//! output.
//!
//!     rustc -O --edition 2021 benches/floor/io_floor.rs -o target/io_floor
//!     target/io_floor BYTES FILE...

use std::io::Write;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(bytes) = args.next().and_then(|b| b.parse::<usize>().ok()) else {
        eprintln!("usage: io_floor BYTES FILE...");
        std::process::exit(2);
    };
    let files: Vec<String> = args.collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per_thread = files.len().div_ceil(threads).max(1);
    let read: usize = std::thread::scope(|scope| {
        let readers: Vec<_> = files
            .chunks(per_thread)
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|path| match std::fs::read(path) {
                            Ok(b) => b.len(),
                            Err(e) => {
                                eprintln!("io_floor: {path}: {e}");
                                std::process::exit(1);
                            }
                        })
                        .sum::<usize>()
                })
            })
            .collect();
        readers.into_iter().map(|r| r.join().unwrap()).sum()
    });
    // What was read decides a byte of the output, so that no read can be
    // left out.
    let block = vec![b'0' + (read % 10) as u8; 64 << 10];
    let mut out = std::io::stdout().lock();
    let mut left = bytes;
    while left > 0 {
        let n = left.min(block.len());
        if let Err(e) = out.write_all(&block[..n]) {
            eprintln!("io_floor: writing: {e}");
            std::process::exit(1);
        }
        left -= n;
    }
}
