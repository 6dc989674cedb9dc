//! The replay readers and the played-game model against real games
//! (`tests/data/replays`, sources in its README) and two oracles:
//!
//! - ms_toollib 1.5.20, through `expected.json` (written by `expected.py`
//!   from what ms_toollib reads: board, events, clicks, time, outcome);
//! - the RAWVF project's C parsers, through their conversions of the same
//!   games (`converted/`), read back with the RAWVF reader.
//!
//! And arbitrary input: every truncation of every real file, random byte
//! flips and random bytes behind each format's magic, given to every
//! reader — an error or a replay, never a panic, and a replay no larger
//! than its bytes allow.

use crate::util::repo;
use proptest::prelude::*;
use sapper_engine::formats::replay::{
    avf, evf, mvf, parse_replay, rawvf, read_replay, rmv, EventKind, GameMode, LevelName, Replay,
    ReplayEvent, ReplayFormat, ReplayHeader, Timestamp, MAX_REPLAY_BYTES,
};
use sapper_engine::formats::FormatError;
use sapper_engine::review::{MoveKind, Outcome, PlayedGame, ReplayReport};
use sapper_engine::Cell;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------
// Helpers

fn data() -> PathBuf {
    repo().join("tests/data/replays")
}

fn expected() -> &'static serde_json::Map<String, Value> {
    static EXPECTED: OnceLock<serde_json::Map<String, Value>> = OnceLock::new();
    EXPECTED.get_or_init(|| {
        let text = std::fs::read_to_string(data().join("expected.json")).unwrap();
        let json: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["ms_toollib"], "1.5.20");
        json["files"].as_object().unwrap().clone()
    })
}

/// Every replay file of `folder` (relative to the data folder), sorted.
fn files_in(folder: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(data().join(folder))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.ends_with(".md"))
        .map(|n| format!("{folder}/{n}"))
        .collect();
    names.sort();
    names
}

/// The real replays: every file of `rmv/`, `evf/`, `avf/`, `mvf/`, `rawvf/`.
fn real_files() -> Vec<String> {
    ["rmv", "evf", "avf", "mvf", "rawvf"]
        .iter()
        .flat_map(|f| files_in(f))
        .collect()
}

fn read(rel: &str) -> Replay {
    read_replay(&data().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// FNV-1a 64 (what `expected.py` digests the events with).
fn fnv1a64(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// `time_ms,code,cell;` for every event, as `expected.py` writes it.
fn digest(r: &Replay) -> String {
    let mut text = String::new();
    for e in &r.events {
        let code = if e.kind.is_signal() {
            "signal"
        } else {
            e.kind.code()
        };
        let cell = match r.event_cell(e) {
            Some((row, col)) => format!("{row}:{col}"),
            None => "off".to_string(),
        };
        text.push_str(&format!("{},{code},{cell};", e.time_ms));
    }
    fnv1a64(&text)
}

/// An event as `[time_ms, code, x, y]`, its pixel replaced by the one past
/// the board's corner when off the board (where ms_toollib puts it).
fn event_json(r: &Replay, e: &ReplayEvent) -> Value {
    let (x, y) = match r.event_cell(e) {
        Some(_) => (e.x, e.y),
        None => (
            r.cols as i32 * i32::from(r.cell_px),
            r.rows as i32 * i32::from(r.cell_px),
        ),
    };
    serde_json::json!([e.time_ms, e.kind.code(), x, y])
}

fn board_rows(r: &Replay) -> Vec<String> {
    r.mines
        .chunks(r.cols)
        .map(|row| row.iter().map(|&m| if m { '*' } else { '.' }).collect())
        .collect()
}

/// The entries of `expected.json` ms_toollib could read.
fn read_by_ms_toollib() -> Vec<(&'static String, &'static Value)> {
    expected()
        .iter()
        .filter(|(_, v)| v.get("ms_toollib").is_none())
        .collect()
}

// ---------------------------------------------------------------------------
// Against ms_toollib

#[test]
fn every_real_replay_is_read_with_ms_toollibs_board_and_events() {
    let entries = read_by_ms_toollib();
    assert!(entries.len() >= 45, "{} entries", entries.len());
    for (rel, want) in entries {
        let r = read(rel);
        assert_eq!(r.rows as u64, want["rows"], "{rel}: rows");
        assert_eq!(r.cols as u64, want["cols"], "{rel}: cols");
        assert_eq!(u64::from(r.cell_px), want["cell_px"], "{rel}: cell size");
        let board: Vec<String> = serde_json::from_value(want["board"].clone()).unwrap();
        assert_eq!(board_rows(&r), board, "{rel}: board");
        assert_eq!(r.events.len() as u64, want["events"], "{rel}: event count");
        assert_eq!(
            event_json(&r, &r.events[0]),
            want["first"],
            "{rel}: first event"
        );
        let last = r.events.last().unwrap();
        assert_eq!(event_json(&r, last), want["last"], "{rel}: last event");
        assert_eq!(digest(&r), want["digest"], "{rel}: the events");
    }
}

#[test]
fn every_real_game_replays_to_ms_toollibs_clicks_time_and_outcome() {
    for (rel, want) in read_by_ms_toollib() {
        let game = PlayedGame::from_replay(&read(rel));
        let c = game.clicks;
        let got = serde_json::json!({
            "left": c.left, "right": c.right, "double": c.double, "cl": c.cl,
            "ce": c.ce, "flag": c.flags, "rtime_ms": game.time_ms, "won": game.won(),
        });
        for key in [
            "left", "right", "double", "cl", "ce", "flag", "rtime_ms", "won",
        ] {
            assert_eq!(got[key], want[key], "{rel}: {key}");
        }
        assert_eq!(c.cl, c.left + c.right + c.double, "{rel}");
        assert_eq!(c.ce, c.left_ce + c.right_ce + c.double_ce, "{rel}");
    }
}

/// The replays ms_toollib cannot read: it aborts the process on the
/// `*_utf8_invalid.rmv` files and on its own version 2 output (which it
/// labels version 0). sapper reads the first as the same game as their
/// valid siblings, the bad name bytes replaced, and refuses the second
/// naming the byte where it stops making sense.
#[test]
fn the_replays_ms_toollib_aborts_on_are_read_or_refused_cleanly() {
    let aborts: Vec<&String> = expected()
        .iter()
        .filter(|(_, v)| v["ms_toollib"] == "aborts")
        .map(|(k, _)| k)
        .collect();
    assert_eq!(aborts.len(), 3, "{aborts:?}");
    for (bad, good) in [
        (
            "rmv/test_rmv1_utf8_invalid.rmv",
            "rmv/test_rmv1_utf8_basic.rmv",
        ),
        (
            "rmv/test_rmv2_utf8_invalid.rmv",
            "rmv/test_rmv2_utf8_basic.rmv",
        ),
    ] {
        assert!(aborts.contains(&&bad.to_string()));
        let (b, g) = (read(bad), read(good));
        assert_eq!((b.rows, b.cols, &b.mines), (g.rows, g.cols, &g.mines));
        assert_eq!(b.events, g.events);
        assert_eq!(g.header.player.as_deref(), Some("Thomas Kolar"));
        assert_eq!(b.header.player.as_deref(), Some("\u{fffd}homas Kolar"));
        assert_eq!(
            PlayedGame::from_replay(&b).clicks,
            PlayedGame::from_replay(&g).clicks
        );
    }
    let written = "generated/wmp_int_v2_as_written.evf";
    assert!(aborts.contains(&&written.to_string()));
    let e = read_replay(&data().join(written)).unwrap_err();
    assert_eq!(e.path, data().join(written));
    assert!(e.byte.is_some(), "{e}");
    assert!(e.to_string().contains(": byte "), "{e}");
}

#[test]
fn every_evf_version_is_tested_on_a_file() {
    let mut versions: Vec<String> = files_in("evf")
        .into_iter()
        .chain(files_in("generated"))
        .filter_map(|rel| read_replay(&data().join(&rel)).ok())
        .map(|r| r.version)
        .collect();
    versions.sort();
    versions.dedup();
    // Version 1 is version 0's layout with a "no flags" bit; no file of it
    // was found, and ms_toollib writes none.
    assert_eq!(versions, ["0", "2", "3", "4"]);
}

// ---------------------------------------------------------------------------
// Against the RAWVF conversions

/// Two readings of one game: the same board and the same events (the
/// conversions keep every event at millisecond resolution, as the
/// originals record them).
fn assert_same_game(ours: &Replay, theirs: &Replay, what: &str) {
    assert_eq!((ours.rows, ours.cols), (theirs.rows, theirs.cols), "{what}");
    assert_eq!(ours.mines, theirs.mines, "{what}: board");
    assert_eq!(ours.cell_px, theirs.cell_px, "{what}: cell size");
    assert_eq!(
        ours.events.len(),
        theirs.events.len(),
        "{what}: event count"
    );
    for (k, (a, b)) in ours.events.iter().zip(&theirs.events).enumerate() {
        assert_eq!(a, b, "{what}: event {k}");
    }
}

#[test]
fn every_real_rmv_agrees_with_its_rawvf_conversion() {
    let mut checked = 0;
    for rel in files_in("rmv") {
        let ours = read(&rel);
        if ours.version != "1" {
            // The RAWVF parser reads RMV version 1 only.
            continue;
        }
        let name = rel.trim_start_matches("rmv/");
        let conversion = if name.starts_with("test_rmv1_") {
            // Four copies of one game, differing in the player's name.
            "converted/test_rmv1_utf8_basic.rmv.rawvf".to_string()
        } else {
            format!("converted/{name}.rawvf")
        };
        let theirs = read(&conversion);
        assert_eq!(theirs.format, ReplayFormat::Rawvf);
        assert_same_game(&ours, &theirs, &rel);
        assert_eq!(
            PlayedGame::from_replay(&ours).clicks,
            PlayedGame::from_replay(&theirs).clicks,
            "{rel}"
        );
        checked += 1;
    }
    assert_eq!(checked, 10);
}

#[test]
fn every_real_mvf_agrees_with_its_rawvf_conversion() {
    let mut checked = 0;
    for rel in files_in("converted") {
        let Some(source) = rel.strip_suffix(".mvf.rawvf") else {
            continue;
        };
        let source = format!("mvf/{}.mvf", source.trim_start_matches("converted/"));
        let ours = read(&source);
        let theirs = read(&rel);
        assert_same_game(&ours, &theirs, &source);
        checked += 1;
    }
    assert_eq!(checked, 6);
}

// ---------------------------------------------------------------------------
// The played game

/// Every move's position is the game as the player saw it: revealed numbers
/// are the board's, the board only opens, each move does what its kind
/// says to the cell it names, and the game ends on the move its outcome
/// names.
#[test]
fn every_move_sees_the_position_its_predecessors_left() {
    for rel in real_files().into_iter().chain(files_in("generated")) {
        let Ok(r) = read_replay(&data().join(&rel)) else {
            continue;
        };
        let field = r.field();
        let game = PlayedGame::from_replay(&r);
        let mut opened = 0;
        for (k, m) in game.moves.iter().enumerate() {
            let p = &m.before;
            assert_eq!(p.total_mines, Some(r.mine_count() as u32));
            let now = p
                .cells
                .iter()
                .enumerate()
                .filter(|(i, c)| {
                    if let Cell::Revealed(n) = c {
                        assert!(!field.mine[*i], "{rel}: move {k}: a revealed mine");
                        assert_eq!(*n, field.value[*i], "{rel}: move {k}");
                        true
                    } else {
                        false
                    }
                })
                .count();
            assert!(now >= opened, "{rel}: move {k}: cells closed again");
            opened = now;
            let i = m.cell.0 * r.cols + m.cell.1;
            match m.kind {
                MoveKind::Flag => assert_eq!(p.cells[i], Cell::Unknown, "{rel}: move {k}"),
                MoveKind::Unflag => assert_eq!(p.cells[i], Cell::Mine, "{rel}: move {k}"),
                MoveKind::Open => {
                    assert_eq!(m.effective, p.cells[i] == Cell::Unknown, "{rel}: move {k}")
                }
                MoveKind::Chord => {}
            }
            if m.ce {
                assert!(m.effective, "{rel}: move {k}");
            }
            assert!(r.events[m.event].time_ms - game.start_event_ms.unwrap_or(0) == m.time_ms);
        }
        match game.outcome {
            Outcome::Won { at_move } | Outcome::Lost { at_move } => {
                assert_eq!(at_move, game.moves.len() - 1, "{rel}: the end")
            }
            Outcome::Unfinished => {}
        }
        if let Outcome::Lost { at_move } = game.outcome {
            let m = &game.moves[at_move];
            let i = m.cell.0 * r.cols + m.cell.1;
            match m.kind {
                MoveKind::Open => assert!(field.mine[i], "{rel}: lost on a safe cell"),
                MoveKind::Chord => assert!(
                    r.grid()
                        .neighbours(i as u32)
                        .iter()
                        .any(|&n| field.mine[n as usize]
                            && m.before.cells[n as usize] == Cell::Unknown),
                    "{rel}: a losing chord opens no mine"
                ),
                _ => panic!("{rel}: lost on a flag"),
            }
        }
    }
}

// ---------------------------------------------------------------------------
// As data

#[test]
fn a_replay_serialises_as_its_board_header_and_events_in_the_documented_order() {
    let mut replay = Replay::of_clicks(
        2,
        3,
        board_of(&["*..", "..*"]),
        &[(1, 0)],
        ReplayHeader {
            player: Some("Ann".into()),
            started: Some(Timestamp::UnixMicros(1_725_048_701_386_418)),
            ended: Some(Timestamp::Text("18.10.2022.20:15:35:6606".into())),
            level: Some(LevelName::Custom),
            mode: Some(GameMode::Other(99)),
            completed: Some(false),
            recorded_bbbv: Some(2),
            ..ReplayHeader::default()
        },
    );
    replay.events.push(ReplayEvent {
        time_ms: 5,
        kind: EventKind::Move,
        x: -1,
        y: 3,
    });
    replay.events.push(ReplayEvent {
        time_ms: 6,
        kind: EventKind::Win,
        x: 8,
        y: 8,
    });
    let board = r#""board":["*..","..*"],"cell_px":16,"#;
    let header = concat!(
        r#""header":{"player":"Ann","nickname":null,"race":null,"country":null,"#,
        r#""program":null,"program_version":null,"#,
        r#""started":"2024-08-30T20:11:41.386418Z","ended":"18.10.2022.20:15:35:6606","#,
        r#""level":"custom","mode":"other 99","no_flags":null,"question_marks":null,"#,
        r#""recorded_time_ms":null,"recorded_bbbv":2,"completed":false,"#,
        r#""official":null,"fair":null},"#
    );
    let events = concat!(
        r#""events":[{"time_ms":0,"kind":"lc","x":8,"y":24,"cell":[1,0]},"#,
        r#"{"time_ms":0,"kind":"lr","x":8,"y":24,"cell":[1,0]},"#,
        r#"{"time_ms":5,"kind":"mv","x":-1,"y":3,"cell":null},"#,
        r#"{"time_ms":6,"kind":"win","x":8,"y":8,"cell":null}]"#
    );
    let fields = format!(
        r#""format":"rawvf","version":"Rev6.1","rows":2,"cols":3,"mines":2,{board}{header}{events}"#
    );
    assert_eq!(
        serde_json::to_string(&replay).unwrap(),
        format!("{{{fields}}}")
    );
    // The click on (1, 0), a 1, opens it and nothing else: unfinished, its
    // time that of the last mouse event, 5 ms after the click.
    assert_eq!(
        serde_json::to_string(&ReplayReport::new(&replay)).unwrap(),
        format!(r#"{{{fields},"outcome":"unfinished","time":0.005}}"#)
    );
}

#[test]
fn every_real_replay_report_is_the_replay_with_its_games_outcome_and_time() {
    for (rel, want) in read_by_ms_toollib() {
        let r = read(rel);
        let report = ReplayReport::new(&r);
        let game = PlayedGame::from_replay(&r);
        assert_eq!(
            (report.outcome, report.time_ms),
            (game.outcome, game.time_ms)
        );
        let mut json = serde_json::to_value(report).unwrap();
        let time = json["time"].as_f64().unwrap();
        assert_eq!((time * 1000.0).round() as u64, want["rtime_ms"], "{rel}");
        assert_eq!(json["outcome"] == "won", want["won"], "{rel}");
        assert_eq!(json["board"], want["board"], "{rel}");
        let events = json["events"].as_array().unwrap();
        assert_eq!(events.len() as u64, want["events"], "{rel}");
        for (e, got) in r.events.iter().zip(events) {
            let cell = r.event_cell(e).map(|(row, col)| [row, col]);
            assert_eq!(got["cell"], serde_json::json!(cell), "{rel}");
        }
        let map = json.as_object_mut().unwrap();
        assert!(map.remove("outcome").is_some() && map.remove("time").is_some());
        assert_eq!(json, serde_json::to_value(&r).unwrap(), "{rel}");
    }
}

// ---------------------------------------------------------------------------
// Bad input

#[test]
fn a_truncated_file_is_an_error_naming_the_file_and_the_byte() {
    let path = data().join("rmv/wmp_beg.rmv");
    let bytes = std::fs::read(&path).unwrap();
    let e = parse_replay(&bytes[..500], &path).unwrap_err();
    assert_eq!(e.path, path);
    let at = e.byte.expect("a byte offset");
    assert!(at <= 500, "{e}");
    assert!(
        e.to_string().starts_with(&format!(
            "{}: byte {at}: the file ends inside",
            path.display()
        )),
        "{e}"
    );
    for (rel, cut) in [
        ("evf/sw_standard_gsc.evf", 20_000),
        ("avf/wmp_arbiter_beg.avf", 3_000),
        ("mvf/wmp_2007_release_1.mvf", 5_000),
    ] {
        let path = data().join(rel);
        let bytes = std::fs::read(&path).unwrap();
        let e = parse_replay(&bytes[..cut], &path).unwrap_err();
        assert!(e.byte.is_some_and(|b| b <= cut as u64), "{rel}: {e}");
        assert!(e.message.contains("ends"), "{rel}: {e}");
    }
}

#[test]
fn corrupt_fields_are_named_with_their_byte() {
    let p = Path::new("g.rmv");
    let mut bytes = std::fs::read(data().join("rmv/wmp_beg.rmv")).unwrap();
    // The fixed header (28 bytes), the result string (0x74 bytes) and the
    // version info (0x7d), then one player field, the board's time, width,
    // height and mine count: the first mine's column 200 is off the board.
    let num_player = 28 + 0x74 + 0x7d;
    let after_player = num_player + 2 + 1 + "tkolar".len();
    let first_mine = after_player + 4 + 1 + 1 + 2;
    assert_eq!(bytes[after_player + 4], 8, "the width");
    bytes[first_mine] = 200;
    let e = parse_rmv(&bytes, p);
    assert_eq!(e.byte, Some(first_mine as u64), "{e}");
    assert!(e.message.contains("off the 8×8 board"), "{e}");

    let mut evf = std::fs::read(data().join("evf/sw_beginner_personal.evf")).unwrap();
    evf[0] = 9;
    let e = parse_replay(&evf, Path::new("x.evf")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "x.evf: byte 0: EVF format version 9: this reader knows versions 0 to 4"
    );
}

fn parse_rmv(bytes: &[u8], p: &Path) -> FormatError {
    rmv::parse_rmv(bytes, p).unwrap_err()
}

#[test]
fn an_oversized_or_missing_file_is_refused_by_name() {
    let big = vec![b'*'; MAX_REPLAY_BYTES as usize + 1];
    let e = parse_replay(&big, Path::new("big.rmv")).unwrap_err();
    assert!(e.to_string().starts_with("big.rmv: "), "{e}");
    assert!(e.message.contains("at most"), "{e}");
    let missing = data().join("no-such.rmv");
    let e = read_replay(&missing).unwrap_err();
    assert_eq!(e.path, missing);
    assert!(e.message.contains("not found"), "{e}");
}

#[test]
fn a_rawvf_error_names_the_line_and_column() {
    let path = data().join("rawvf/wmp_custom.rawvf");
    let text = std::fs::read_to_string(&path).unwrap();
    let bad = text.replace("1.500 lr (32 0)", "1.500 lr (32 0");
    let e = parse_replay(bad.as_bytes(), &path).unwrap_err();
    let line = text.lines().position(|l| l == "1.500 lr (32 0)").unwrap() + 1;
    assert_eq!((e.line, e.column), (Some(line), Some(7)), "{e}");
}

#[test]
fn a_legacy_player_name_is_decoded() {
    let r = read("avf/mt_beg_chinese_name.avf");
    assert_eq!(r.header.player.as_deref(), Some("王嘉宁"));
    let r = read("rmv/mt_exp_98763_FL_1738209872.rmv");
    assert_eq!(r.header.player.as_deref(), Some("王嘉宁"));
}

/// The format is found by content where it can be, else by extension.
#[test]
fn the_reader_is_chosen_by_content_then_extension() {
    for rel in real_files() {
        let bytes = std::fs::read(data().join(&rel)).unwrap();
        let want = read(&rel).format;
        let any_name = Path::new("replay.bin");
        match parse_replay(&bytes, any_name) {
            Ok(r) => assert_eq!(r.format, want, "{rel}"),
            Err(e) => {
                // Only .evf, .avf and early .mvf have no magic.
                assert!(
                    matches!(
                        want,
                        ReplayFormat::Evf | ReplayFormat::Avf | ReplayFormat::Mvf
                    ),
                    "{rel}: {e}"
                );
                assert!(e.message.contains("not a replay"), "{rel}: {e}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Arbitrary input

type Reader = fn(&[u8], &Path) -> Result<Replay, FormatError>;

const READERS: [(&str, Reader); 6] = [
    ("rmv", rmv::parse_rmv),
    ("evf", evf::parse_evf),
    ("avf", avf::parse_avf),
    ("mvf", mvf::parse_mvf),
    ("rawvf", rawvf::parse_rawvf),
    ("any", parse_replay),
];

/// A replay read from `bytes` is no larger than they allow: at most two
/// events per byte (a 5-byte Clone snapshot gives at most 7) and a board
/// of at most 1000 × 1000 cells.
fn check_bounded(replay: &Replay, bytes: &[u8]) {
    assert!(replay.events.len() <= 2 * bytes.len() + 2);
    assert!(replay.events.capacity() <= 2 * bytes.len() + 2);
    assert_eq!(replay.mines.len(), replay.rows * replay.cols);
    assert!(replay.rows <= 1000 && replay.cols <= 1000);
}

/// [`check_bounded`], and the game model takes the replay too.
fn check_bounded_and_play(replay: &Replay, bytes: &[u8]) {
    check_bounded(replay, bytes);
    let game = PlayedGame::from_replay(replay);
    assert!(game.moves.len() <= replay.events.len());
}

/// Every reader on `bytes`: an error or a bounded replay.
fn every_reader(bytes: &[u8]) {
    for (name, reader) in READERS {
        let path = PathBuf::from(format!("fuzz.{name}"));
        if let Ok(replay) = reader(bytes, &path) {
            check_bounded_and_play(&replay, bytes);
        }
    }
}

/// Prefixes of every real file: each `own`-th one (and every one within
/// the first `all_below` bytes, where the headers are) to the file's
/// format's reader; each `every`-th (and those within the first 512 bytes)
/// to every reader and to the content sniffing. The files are split
/// between two threads. Returns the number of prefixes read.
fn truncations(all_below: usize, own: usize, every: usize) -> usize {
    let files = real_files();
    let (a, b) = files.split_at(files.len() / 2);
    let work = |files: &[String]| {
        let mut cuts = 0usize;
        for rel in files {
            let bytes = std::fs::read(data().join(rel)).unwrap();
            let path = data().join(rel);
            let ext = rel.rsplit('.').next().unwrap();
            let format = ReplayFormat::from_extension(ext).unwrap();
            for n in 0..=bytes.len() {
                let cut = &bytes[..n];
                if n < all_below || n % own == 0 {
                    if let Ok(replay) = format.parse(cut, &path) {
                        check_bounded(&replay, cut);
                    }
                    cuts += 1;
                }
                if n < 512 || n % every == 0 {
                    every_reader(cut);
                }
            }
        }
        cuts
    };
    std::thread::scope(|s| {
        let other = s.spawn(|| work(b));
        work(a) + other.join().unwrap()
    })
}

/// Every prefix within the first 4 kB of every real file (every header, and
/// the first hundreds of events cut at every byte), and every 31st after
/// (a prime: the cuts fall at every offset of the 3- to 9-byte events), to
/// the file's reader; about 205,000 prefixes.
#[test]
fn truncations_of_every_real_file_are_errors_or_replays() {
    let cuts = truncations(4096, 31, 251);
    assert!(cuts > 200_000, "{cuts}");
}

/// Every prefix of every real file, to every reader and to the content
/// sniffing: 1.25 million prefixes, six readings each — minutes of work
/// (the readers are linear, the prefixes quadratic), so run on demand:
/// `cargo test --test suite -- --ignored every_truncation`.
#[test]
#[ignore = "minutes: every prefix of 1.4 MB of replays, to every reader"]
fn every_truncation_of_every_real_file_is_an_error_or_a_replay() {
    let cuts = truncations(usize::MAX, 1, 1);
    assert!(cuts > 1_250_000, "{cuts}");
}

/// Random files per property: 64, or `SAPPER_PROPTEST_CASES` (capped
/// at 4,096).
fn cases() -> u32 {
    std::env::var("SAPPER_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .map_or(64, |n| n.min(4096))
}

fn real_bytes() -> &'static Vec<Vec<u8>> {
    static BYTES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    BYTES.get_or_init(|| {
        real_files()
            .iter()
            .map(|rel| std::fs::read(data().join(rel)).unwrap())
            .collect()
    })
}

/// The prefix every reader or the content sniffing keys on.
const MAGICS: [&[u8]; 8] = [
    b"*rmv\x00\x01",
    b"*rmv\x00\x02\x01\x05",
    b"\x04",
    b"\x03",
    b"\x00",
    b"\x34\x00\x00\x00\x00\x05",
    b"\x11Minesweeper Clone\x092004-2007",
    b"Width: 8\nHeight: 8\nMines: 10\nBoard:\n",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn random_byte_flips_in_real_files_are_errors_or_replays(
        file in 0usize..64,
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..16),
    ) {
        let all = real_bytes();
        let mut bytes = all[file % all.len()].clone();
        for (at, value) in flips {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        every_reader(&bytes);
    }

    #[test]
    fn random_bytes_behind_each_magic_are_errors_or_replays(
        magic in 0usize..MAGICS.len(),
        tail in prop::collection::vec(any::<u8>(), 0..4096),
    ) {
        let mut bytes = MAGICS[magic].to_vec();
        bytes.extend(tail);
        every_reader(&bytes);
    }
}

/// A count read from a file is not trusted for an allocation: a Clone
/// replay claiming 16 million events in a few hundred bytes is refused at
/// the end of its bytes.
#[test]
fn a_huge_count_in_a_short_file_is_refused() {
    let path = data().join("mvf/wmp_2007_release_2.mvf");
    let mut bytes = std::fs::read(&path).unwrap();
    // Walk to the event count: four length-prefixed strings, 3 bytes, the
    // date (7), level and mode (2), time (3), question marks (1), the board
    // (width, height, mine count, 2 bytes a mine), the name, the key (2).
    let mut at = 0;
    for _ in 0..4 {
        at += 1 + bytes[at] as usize;
    }
    at += 3 + 7 + 2 + 3 + 1;
    let mines = u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]) as usize;
    at += 4 + 2 * mines;
    at += 1 + bytes[at] as usize + 2;
    // (32 bytes follow the events.)
    assert_eq!(
        u32::from_be_bytes([0, bytes[at], bytes[at + 1], bytes[at + 2]]) as usize * 6 + 32,
        bytes.len() - at - 3,
        "the event count"
    );
    bytes[at..at + 3].copy_from_slice(&[0xff, 0xff, 0xff]);
    bytes.truncate(at + 3 + 600);
    let e = mvf::parse_mvf(&bytes, &path).unwrap_err();
    assert_eq!(e.byte, Some((at + 3 + 600) as u64), "{e}");
    assert!(e.message.contains("ends inside"), "{e}");
    // A short RAWVF claiming a 1000 × 1000 board ends in its first row.
    let text = "Width: 1000\nHeight: 1000\nMines: 0\nBoard:\n0\n";
    let e = parse_replay(text.as_bytes(), Path::new("t.rawvf")).unwrap_err();
    assert!(e.message.contains("Width says 1000"), "{e}");
}

#[test]
fn event_kinds_have_ms_toollibs_codes() {
    let codes: Vec<&str> = [
        EventKind::Move,
        EventKind::LeftPress,
        EventKind::LeftRelease,
        EventKind::RightPress,
        EventKind::RightRelease,
        EventKind::MiddlePress,
        EventKind::MiddleRelease,
        EventKind::PreFlag,
        EventKind::BothPress,
    ]
    .iter()
    .map(|k| k.code())
    .collect();
    assert_eq!(
        codes,
        ["mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc"]
    );
}

// ---------------------------------------------------------------------------
// Written as RAWVF

/// Every real game whose events RAWVF can hold, written as RAWVF and read
/// back: the same board, cell size and events (signals aside), so the same
/// game; a game with a pre-flag, a two-button press or a toggle is refused
/// with that event's kind.
#[test]
fn every_real_game_written_as_rawvf_reads_back_as_the_same_game() {
    let (mut written, mut refused) = (0, 0);
    for rel in real_files() {
        let ours = read(&rel);
        match rawvf::write_rawvf(&ours) {
            Ok(text) => {
                let back = rawvf::parse_rawvf(text.as_bytes(), Path::new(&rel))
                    .unwrap_or_else(|e| panic!("{rel} written as RAWVF: {e}\n{text}"));
                let mouse: Vec<ReplayEvent> = ours
                    .events
                    .iter()
                    .filter(|e| !e.kind.is_signal())
                    .copied()
                    .collect();
                assert_eq!(back.events, mouse, "{rel}: events");
                assert_eq!(
                    (back.rows, back.cols, &back.mines, back.cell_px),
                    (ours.rows, ours.cols, &ours.mines, ours.cell_px),
                    "{rel}: board"
                );
                assert_eq!(back.header.player, ours.header.player, "{rel}: player");
                let (a, b) = (
                    PlayedGame::from_replay(&ours),
                    PlayedGame::from_replay(&back),
                );
                assert_eq!(
                    (a.clicks, a.outcome, a.time_ms, a.moves.len()),
                    (b.clicks, b.outcome, b.time_ms, b.moves.len()),
                    "{rel}: the game"
                );
                written += 1;
            }
            Err(kind) => {
                assert!(
                    ours.events.iter().any(|e| e.kind == kind),
                    "{rel}: refused for {kind:?}, which it does not have"
                );
                refused += 1;
            }
        }
    }
    assert!(
        written >= 30 && refused >= 5,
        "{written} written, {refused} refused"
    );
}

/// A game of clicks (how `sapper play --replays` records one) is a replay
/// the game model plays as those left clicks: each opens its cell, the
/// opening's flood fill included.
#[test]
fn a_game_of_clicks_replays_as_its_left_clicks() {
    let mines = board_of(&["*..", "...", "..*"]);
    // (2, 0) opens four cells, then (0, 0) is a mine.
    let clicks = [(2, 0), (0, 0)];
    let r = Replay::of_clicks(3, 3, mines, &clicks, Default::default());
    let game = PlayedGame::from_replay(&r);
    let moves: Vec<_> = game.moves.iter().map(|m| (m.kind, m.cell)).collect();
    assert_eq!(moves, [(MoveKind::Open, (2, 0)), (MoveKind::Open, (0, 0))]);
    assert_eq!(game.outcome, Outcome::Lost { at_move: 1 });
    assert_eq!((game.clicks.left, game.clicks.ce), (2, 1));
    let opened = game.moves[1]
        .before
        .cells
        .iter()
        .filter(|c| matches!(c, Cell::Revealed(_)))
        .count();
    assert_eq!(opened, 4);
    let text = rawvf::write_rawvf(&r).unwrap();
    assert!(text.contains("0.000 lc 1 3 (8 40)"), "{text}");
    assert_eq!(
        rawvf::parse_rawvf(text.as_bytes(), Path::new("g"))
            .unwrap()
            .events,
        r.events
    );
}

fn board_of(rows: &[&str]) -> Vec<bool> {
    rows.iter()
        .flat_map(|r| r.chars().map(|c| c == '*'))
        .collect()
}
