//! Board metrics (`sapper_engine::metrics`, `sapper metrics`), each
//! against an oracle written here another way:
//!
//! - 3BV, openings, islands and numbers against a referee that clicks the
//!   board (every closed 0 first, then every closed safe cell) and labels
//!   the islands by relaxing labels until none changes;
//! - 3BV solved against ms_toollib's click-by-click count (an opening
//!   counts at a click that opens it with no flag on its 0-cells, an
//!   isolated number when it opens), replayed here on random plays with
//!   flags that block floods;
//! - ZiNi and HZiNi by replaying their clicks with the game's rules: the
//!   board is cleared, no click is without effect, and the count is the
//!   clicks made;
//! - the exact minimum against a breadth-first search over every click
//!   (flags anywhere, unflagging, chords) on tiny boards, and at most ZiNi
//!   and 3BV on boards up to 6×6;
//! - the command on JSON lines (a file, `-`, `sapper generate`'s output),
//!   thesis fields and corpora, MBF files and folders, and bad input.

use crate::util::{sapper, sapper_with, write_expert_corpus, Rng, TempDir};
use sapper_engine::formats::mbf::mbf_bytes;
use sapper_engine::formats::thesis::read_field;
use sapper_engine::metrics::{hzini, min_clicks, zini, Action, Click, Metrics, Units};
use sapper_engine::{Field, Grid};
use std::collections::{HashMap, HashSet, VecDeque};

fn random_field(rng: &mut Rng, h: usize, w: usize, percent: u32) -> Field {
    let grid = Grid::new(h, w);
    let mine = (0..grid.len()).map(|_| rng.chance(percent)).collect();
    Field::from_mines(grid, mine, vec![false; grid.len()])
}

/// A level's layout: exactly `mines` mines.
fn level_field(rng: &mut Rng, h: usize, w: usize, mines: usize) -> Field {
    let mut mine = vec![false; h * w];
    let mut placed = 0;
    while placed < mines {
        let i = rng.below(h * w);
        if !mine[i] {
            mine[i] = true;
            placed += 1;
        }
    }
    Field::from_mines(Grid::new(h, w), mine, vec![false; h * w])
}

/// The cells around `i` (not `i`), by row and column arithmetic.
fn around(h: usize, w: usize, i: usize) -> Vec<usize> {
    let (r, c) = ((i / w) as isize, (i % w) as isize);
    let mut cells = Vec::new();
    for dr in -1..=1 {
        for dc in -1..=1 {
            let (rr, cc) = (r + dr, c + dc);
            if (dr, dc) != (0, 0) && rr >= 0 && cc >= 0 && rr < h as isize && cc < w as isize {
                cells.push(rr as usize * w + cc as usize);
            }
        }
    }
    cells
}

/// A game with the real rules: left clicks open (a 0 opens its
/// neighbours, not through flags), right clicks toggle flags on closed
/// cells, chords on an open number whose flags around equal it open the
/// closed unflagged cells around. A click on a mine loses.
struct Referee<'a> {
    field: &'a Field,
    h: usize,
    w: usize,
    open: Vec<bool>,
    flag: Vec<bool>,
}

#[derive(Debug, PartialEq, Eq)]
struct Lost;

impl<'a> Referee<'a> {
    fn new(field: &'a Field) -> Referee<'a> {
        let n = field.grid.len();
        Referee {
            field,
            h: field.grid.h,
            w: field.grid.w,
            open: vec![false; n],
            flag: vec![false; n],
        }
    }

    /// Opens `i` and floods from it; whether anything opened.
    fn flood(&mut self, i: usize) -> bool {
        let mut queue = VecDeque::from([i]);
        let mut any = false;
        while let Some(c) = queue.pop_front() {
            if self.open[c] || self.flag[c] {
                continue;
            }
            self.open[c] = true;
            any = true;
            if self.field.value[c] == 0 {
                queue.extend(around(self.h, self.w, c));
            }
        }
        any
    }

    fn left(&mut self, i: usize) -> Result<bool, Lost> {
        if self.open[i] || self.flag[i] {
            return Ok(false);
        }
        if self.field.mine[i] {
            return Err(Lost);
        }
        Ok(self.flood(i))
    }

    fn right(&mut self, i: usize) -> bool {
        if self.open[i] {
            return false;
        }
        self.flag[i] = !self.flag[i];
        true
    }

    fn chord(&mut self, i: usize) -> Result<bool, Lost> {
        if !self.open[i] {
            return Ok(false);
        }
        let cells = around(self.h, self.w, i);
        let flags = cells.iter().filter(|&&c| self.flag[c]).count();
        if flags != usize::from(self.field.value[i]) {
            return Ok(false);
        }
        let closed: Vec<usize> = cells
            .into_iter()
            .filter(|&c| !self.open[c] && !self.flag[c])
            .collect();
        if closed.iter().any(|&c| self.field.mine[c]) {
            return Err(Lost);
        }
        let mut any = false;
        for c in closed {
            any |= self.flood(c);
        }
        Ok(any)
    }

    /// Plays one click; whether it changed the board.
    fn click(&mut self, click: Click) -> Result<bool, Lost> {
        let i = click.cell as usize;
        match click.action {
            Action::Open => self.left(i),
            Action::Flag => Ok(!self.flag[i] && self.right(i)),
            Action::Chord => self.chord(i),
        }
    }

    fn cleared(&self) -> bool {
        (0..self.open.len()).all(|i| self.open[i] || self.field.mine[i])
    }
}

/// The reference count: `(bbbv, openings, islands, numbers)` and which
/// cells are isolated numbers, from clicking every closed 0 (each click an
/// opening), then every closed safe cell (each an isolated number).
struct Reference {
    bbbv: u32,
    openings: u32,
    islands: u32,
    numbers: [u32; 9],
    isolated: Vec<bool>,
    /// Per 0-cell, the opening (the click) that opened it.
    opening: Vec<Option<usize>>,
}

fn reference(field: &Field) -> Reference {
    let n = field.grid.len();
    let (h, w) = (field.grid.h, field.grid.w);
    let mut numbers = [0u32; 9];
    for i in 0..n {
        if !field.mine[i] {
            numbers[usize::from(field.value[i])] += 1;
        }
    }
    let mut game = Referee::new(field);
    let mut opening = vec![None; n];
    let mut openings = 0;
    for i in 0..n {
        if !field.mine[i] && field.value[i] == 0 && !game.open[i] {
            let before = game.open.clone();
            assert_eq!(game.left(i), Ok(true));
            for c in 0..n {
                if game.open[c] && !before[c] && field.value[c] == 0 {
                    opening[c] = Some(openings);
                }
            }
            openings += 1;
        }
    }
    let isolated: Vec<bool> = (0..n)
        .map(|i| {
            let closed = !field.mine[i] && !game.open[i];
            if closed {
                assert_eq!(game.left(i), Ok(true));
            }
            closed
        })
        .collect();
    assert!(game.cleared());
    // Islands: every isolated number starts with its own label and takes
    // the least of its isolated neighbours' until nothing changes.
    let mut label: Vec<usize> = (0..n).collect();
    loop {
        let mut changed = false;
        for i in (0..n).filter(|&i| isolated[i]) {
            for c in around(h, w, i) {
                if isolated[c] && label[c] < label[i] {
                    label[i] = label[c];
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let islands = (0..n)
        .filter(|&i| isolated[i])
        .map(|i| label[i])
        .collect::<HashSet<_>>()
        .len() as u32;
    let isolated_count = isolated.iter().filter(|&&x| x).count() as u32;
    Reference {
        bbbv: openings + isolated_count,
        openings,
        islands,
        numbers,
        isolated,
        opening: opening.into_iter().map(|o| o.map(|o| o as usize)).collect(),
    }
}

/// Sizes from a single cell to expert, densities from none to dense.
fn random_boards(seed: u64, count: usize) -> Vec<Field> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|k| match k % 10 {
            0 => level_field(&mut rng, 16, 30, 99),
            1 => level_field(&mut rng, 9, 9, 10),
            2 => level_field(&mut rng, 16, 16, 40),
            _ => {
                let (h, w) = (1 + rng.below(20), 1 + rng.below(32));
                let percent = [0, 3, 10, 15, 20, 25, 30, 40, 60][rng.below(9)];
                random_field(&mut rng, h, w, percent)
            }
        })
        .collect()
}

#[test]
fn three_bv_openings_islands_and_numbers_equal_a_count_by_clicking_on_random_boards() {
    for (k, field) in random_boards(36, 4000).iter().enumerate() {
        let want = reference(field);
        let units = Units::new(field);
        let m = Metrics::of(field);
        let what = format!("board {k} ({}x{})", field.grid.h, field.grid.w);
        assert_eq!(
            (m.bbbv, m.openings, m.islands, m.numbers),
            (want.bbbv, want.openings, want.islands, want.numbers),
            "{what}"
        );
        for i in 0..field.grid.len() {
            assert_eq!(
                units.is_isolated(i as u32),
                want.isolated[i],
                "{what} cell {i}"
            );
            assert_eq!(
                units.opening_of(i as u32).is_some(),
                want.opening[i].is_some(),
                "{what} cell {i}"
            );
        }
    }
}

/// ms_toollib's 3BV solved, counted click by click while `game` is played
/// (`MinesweeperBoard::left_click` and `chording_click`): a left click on
/// a closed 0 adds its opening if no 0-cell of it is flagged; on a closed
/// isolated number, 1; a chord adds the closed isolated numbers around and
/// the openings of the closed 0-cells around that no flag spoils.
struct EventCount<'r> {
    want: &'r Reference,
    solved: u32,
}

impl EventCount<'_> {
    fn opening_complete(&self, game: &Referee, zero: usize) -> bool {
        let o = self.want.opening[zero];
        (0..game.open.len()).all(|c| self.want.opening[c] != o || !game.flag[c])
    }

    fn left(&mut self, game: &mut Referee, i: usize) {
        if game.open[i] || game.flag[i] {
            return;
        }
        if game.field.value[i] == 0 {
            self.solved += u32::from(self.opening_complete(game, i));
        } else if self.want.isolated[i] {
            self.solved += 1;
        }
        assert_eq!(game.left(i), Ok(true));
    }

    fn chord(&mut self, game: &mut Referee, i: usize) {
        let cells = around(game.h, game.w, i);
        let flags = cells.iter().filter(|&&c| game.flag[c]).count();
        let closed: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&c| !game.open[c] && !game.flag[c])
            .collect();
        if !game.open[i]
            || flags != usize::from(game.field.value[i])
            || closed.is_empty()
            || closed.iter().any(|&c| game.field.mine[c])
        {
            return;
        }
        self.solved += closed.iter().filter(|&&c| self.want.isolated[c]).count() as u32;
        let mut counted = HashSet::new();
        for &c in &closed {
            if game.field.value[c] == 0
                && counted.insert(self.want.opening[c])
                && self.opening_complete(game, c)
            {
                self.solved += 1;
            }
        }
        assert_eq!(game.chord(i), Ok(true));
    }
}

/// Plays random clicks on random boards (no click on a mine; right clicks
/// anywhere if `zero_flags`, else never on a 0-cell) and after each checks
/// `Units::solved` against the count of the definition (isolated numbers
/// open, openings with every 0-cell open) and against ms_toollib's count,
/// with `compare` (equal, or at most).
fn random_plays(seed: u64, zero_flags: bool, compare: fn(u32, u32) -> bool) {
    let mut rng = Rng::new(seed);
    for (k, field) in random_boards(seed + 1, 600).iter().enumerate() {
        let want = reference(field);
        let units = Units::new(field);
        let n = field.grid.len();
        let mut game = Referee::new(field);
        let mut count = EventCount {
            want: &want,
            solved: 0,
        };
        let safe: Vec<usize> = (0..n).filter(|&i| !field.mine[i]).collect();
        if safe.is_empty() {
            continue;
        }
        for step in 0..4 * n {
            let i = rng.below(n);
            match rng.below(10) {
                // Flags (on 0-cells they block floods), taken off again.
                0..=2 => {
                    if zero_flags || field.mine[i] || field.value[i] != 0 {
                        game.right(i);
                    }
                }
                3..=5 => count.chord(&mut game, i),
                _ => {
                    let s = safe[rng.below(safe.len())];
                    count.left(&mut game, s);
                }
            }
            // Openings with every 0-cell open: those with none still shut.
            let mut shut = vec![false; want.openings as usize];
            for c in 0..n {
                if let (Some(o), false) = (want.opening[c], game.open[c]) {
                    shut[o] = true;
                }
            }
            let by_definition = (0..n).filter(|&i| want.isolated[i] && game.open[i]).count() as u32
                + shut.iter().filter(|&&s| !s).count() as u32;
            let solved = units.solved(&game.open);
            assert_eq!(solved, by_definition, "board {k} step {step}");
            assert!(
                compare(solved, count.solved),
                "board {k} step {step}: {solved} against ms_toollib's {}",
                count.solved
            );
        }
    }
}

#[test]
fn three_bv_solved_equals_ms_toollibs_click_by_click_count_when_no_zero_cell_is_flagged() {
    random_plays(8, false, |ours, theirs| ours == theirs);
}

#[test]
fn three_bv_solved_is_at_most_ms_toollibs_count_when_flags_hold_back_floods() {
    random_plays(18, true, |ours, theirs| ours <= theirs);
}

#[test]
fn ms_toollib_counts_an_opening_twice_where_flags_split_it_and_sapper_once() {
    // One opening (3BV 1). Flag (0,0) and (0,4), click the opening: the
    // flood stops at both flags; take them off. A click on (0,0) opens it
    // alone (its neighbours are open): ms_toollib counts the opening, as
    // no 0-cell of it is flagged; a click on (0,4) counts it again (its
    // `bbbv_solved` is then 2, python/tests/test_metrics.py checks it).
    let field = Field::from_codes(
        4,
        5,
        &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, -1],
    )
    .unwrap();
    let want = reference(&field);
    let units = Units::new(&field);
    assert_eq!(units.bbbv(), 1);
    let mut game = Referee::new(&field);
    let mut count = EventCount {
        want: &want,
        solved: 0,
    };
    game.right(0);
    game.right(4);
    count.left(&mut game, 7);
    assert_eq!((count.solved, units.solved(&game.open)), (0, 0));
    game.right(0);
    game.right(4);
    count.left(&mut game, 0);
    assert_eq!((count.solved, units.solved(&game.open)), (1, 0));
    count.left(&mut game, 4);
    assert_eq!((count.solved, units.solved(&game.open)), (2, 1));
}

#[test]
fn zini_and_hzini_clicks_replayed_by_a_referee_clear_the_board_with_each_click_effective() {
    for (k, field) in random_boards(77, 3000).iter().enumerate() {
        let m = Metrics::of(field);
        for (name, clicks) in [("zini", zini(field)), ("hzini", hzini(field))] {
            let mut game = Referee::new(field);
            for (j, &click) in clicks.iter().enumerate() {
                assert_eq!(
                    game.click(click),
                    Ok(true),
                    "board {k}: {name} click {j} {click:?} lost or did nothing"
                );
            }
            assert!(game.cleared(), "board {k}: {name} leaves cells closed");
            // A greedy step gains at least the clicks it costs: never
            // more than the 3BV left clicks.
            assert!(clicks.len() as u32 <= m.bbbv, "board {k}: {name}");
        }
        assert_eq!(zini(field).len() as u32, m.zini, "board {k}");
    }
}

/// The fewest clicks that clear `field`, by a breadth-first search over
/// every click of every cell (left, right, chord), each costing one.
fn fewest_clicks_by_every_click(field: &Field) -> u32 {
    let n = field.grid.len();
    assert!(n <= 16);
    let start = (0u16, 0u16);
    let mut distance = HashMap::from([(start, 0u32)]);
    let mut queue = VecDeque::from([start]);
    let safe: u16 = (0..n).filter(|&i| !field.mine[i]).map(|i| 1 << i).sum();
    while let Some(state) = queue.pop_front() {
        let d = distance[&state];
        if state.0 & safe == safe {
            return d;
        }
        for i in 0..n {
            for action in [Action::Open, Action::Flag, Action::Chord] {
                let mut game = Referee::new(field);
                for c in 0..n {
                    game.open[c] = state.0 >> c & 1 == 1;
                    game.flag[c] = state.1 >> c & 1 == 1;
                }
                let changed = match action {
                    // A right click here may also take a flag off.
                    Action::Flag => Ok(game.right(i)),
                    _ => game.click(Click {
                        action,
                        cell: i as u32,
                    }),
                };
                if changed != Ok(true) {
                    continue;
                }
                let bits = |v: &[bool]| -> u16 { (0..n).filter(|&c| v[c]).map(|c| 1 << c).sum() };
                let next = (bits(&game.open), bits(&game.flag));
                if let std::collections::hash_map::Entry::Vacant(e) = distance.entry(next) {
                    e.insert(d + 1);
                    queue.push_back(next);
                }
            }
        }
    }
    unreachable!("every board can be cleared")
}

#[test]
fn the_exact_minimum_equals_a_search_over_every_click_on_tiny_boards() {
    let mut rng = Rng::new(5);
    for k in 0..400 {
        let (h, w) = [
            (1, 1),
            (1, 5),
            (2, 2),
            (2, 3),
            (3, 3),
            (2, 4),
            (1, 9),
            (3, 2),
        ][k % 8];
        let percent = [10, 20, 30, 45][rng.below(4)];
        let field = random_field(&mut rng, h, w, percent);
        let best = min_clicks(&field, 1_000_000).unwrap();
        assert_eq!(
            best.len() as u32,
            fewest_clicks_by_every_click(&field),
            "board {k}: {h}x{w} {:?}",
            field.mine
        );
    }
}

#[test]
fn the_exact_minimum_replays_and_is_at_most_zini_and_3bv_up_to_six_by_six() {
    let mut rng = Rng::new(6);
    let mut below_zini = 0;
    for k in 0..1500 {
        let (h, w) = (1 + rng.below(6), 1 + rng.below(6));
        let field = random_field(&mut rng, h, w, [5, 10, 20, 30][k % 4]);
        let best = min_clicks(&field, 1_000_000).unwrap();
        let mut game = Referee::new(&field);
        for &click in &best {
            assert_eq!(game.click(click), Ok(true), "board {k}: {click:?}");
        }
        assert!(game.cleared(), "board {k}");
        let m = Metrics::of(&field);
        assert!(best.len() as u32 <= m.zini, "board {k}");
        assert!(best.len() as u32 <= m.bbbv, "board {k}");
        below_zini += usize::from((best.len() as u32) < m.zini);
    }
    // ZiNi is an estimate: on some boards the optimum is lower.
    assert!(below_zini > 0);
}

// ---------------------------------------------------------------------------
// The command

/// The line `sapper metrics --json` writes for a board.
fn json_line(field: &Field) -> String {
    let m = Metrics::of(field);
    format!(
        "{{\"bbbv\":{},\"openings\":{},\"islands\":{},\"zini\":{},\"numbers\":[{}]}}",
        m.bbbv,
        m.openings,
        m.islands,
        m.zini,
        m.numbers.map(|x| x.to_string()).join(",")
    )
}

fn layout_line(field: &Field) -> String {
    let rows: Vec<Vec<i32>> = field
        .to_codes()
        .chunks(field.grid.w)
        .map(<[i32]>::to_vec)
        .collect();
    serde_json::json!({ "layout": rows, "name": "extra keys are ignored" }).to_string()
}

#[test]
fn json_lines_from_a_file_and_stdin_give_the_librarys_metrics_in_the_fixed_key_order() {
    let dir = TempDir::new("metrics-jsonl");
    let boards = random_boards(3, 40);
    let mut text: String = boards.iter().map(|f| layout_line(f) + "\n").collect();
    // A blank line is skipped; CRLF line ends are read.
    text.push_str("\r\n");
    text.push_str(&(layout_line(&boards[0]) + "\r\n"));
    let file = dir.join("boards.jsonl");
    std::fs::write(&file, &text).unwrap();
    let want: Vec<String> = boards.iter().chain(&boards[..1]).map(json_line).collect();
    let run = sapper(["metrics".as_ref(), file.as_os_str(), "--json".as_ref()]);
    run.ok();
    assert_eq!(run.stdout.lines().collect::<Vec<_>>(), want);
    let stdin = sapper_with(&dir.0, ["metrics", "-", "--json"], Some(&text), 0);
    stdin.ok();
    assert_eq!(stdin.stdout, run.stdout);
    // The same bytes on one thread.
    let one = sapper_with(&dir.0, ["metrics", "-", "--json"], Some(&text), 1);
    assert_eq!(one.stdout, run.stdout);
    // The table names each board by file and line.
    let table = sapper_with(&dir.0, ["metrics", "-"], Some(&text), 0);
    table.ok();
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert!(lines[0].starts_with("board"), "{}", table.stdout);
    assert_eq!(lines.len(), 1 + want.len());
    assert!(lines[1].starts_with("<stdin>:1 "), "{}", lines[1]);
    assert!(lines[41].starts_with("<stdin>:42 "), "{}", lines[41]);
    let m = Metrics::of(&boards[0]);
    let cells: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(
        cells[1..5],
        [m.bbbv, m.openings, m.islands, m.zini].map(|x| x.to_string())
    );
}

#[test]
fn the_boards_sapper_generate_writes_are_measured_as_their_layouts() {
    let dir = TempDir::new("metrics-generate");
    let generated = sapper([
        "generate", "--level", "beginner", "--count", "5", "--seed", "4",
    ]);
    generated.ok();
    let run = sapper_with(
        &dir.0,
        ["metrics", "-", "--json"],
        Some(&generated.stdout),
        0,
    );
    run.ok();
    let want: Vec<String> = generated
        .stdout
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let (h, w) = (
                v["rows"].as_u64().unwrap() as usize,
                v["cols"].as_u64().unwrap() as usize,
            );
            let mut mine = vec![false; h * w];
            for m in v["mines"].as_array().unwrap() {
                mine[m[0].as_u64().unwrap() as usize * w + m[1].as_u64().unwrap() as usize] = true;
            }
            json_line(&Field::from_mines(
                Grid::new(h, w),
                mine,
                vec![false; h * w],
            ))
        })
        .collect();
    assert_eq!(run.stdout.lines().collect::<Vec<_>>(), want);
}

#[test]
fn thesis_fields_corpora_and_mbf_files_are_measured_by_name() {
    let dir = TempDir::new("metrics-files");
    let corpus = dir.join("corpus");
    write_expert_corpus(&corpus, 11, 3);
    let fields: Vec<Field> = (1..=3)
        .map(|k| read_field(&corpus.join(format!("field_{k}"))).unwrap())
        .collect();
    let run = sapper(["metrics".as_ref(), corpus.as_os_str(), "--json".as_ref()]);
    run.ok();
    assert_eq!(
        run.stdout.lines().collect::<Vec<_>>(),
        fields.iter().map(json_line).collect::<Vec<_>>()
    );
    let one = sapper(["metrics".as_ref(), corpus.join("field_2").as_os_str()]);
    one.ok();
    assert!(
        one.stdout.lines().nth(1).unwrap().starts_with("field_2 "),
        "{}",
        one.stdout
    );

    let mbf = dir.join("mbf");
    std::fs::create_dir(&mbf).unwrap();
    for (k, f) in fields.iter().enumerate() {
        let bytes = mbf_bytes(f.grid, &f.mine).unwrap();
        std::fs::write(mbf.join(format!("board_{}.mbf", k + 1)), bytes).unwrap();
    }
    let folder = sapper(["metrics".as_ref(), mbf.as_os_str(), "--json".as_ref()]);
    folder.ok();
    assert_eq!(folder.stdout, run.stdout);
    let table = sapper(["metrics".as_ref(), mbf.as_os_str()]);
    assert!(table
        .stdout
        .lines()
        .nth(3)
        .unwrap()
        .starts_with("board_3.mbf "));
    let file = sapper([
        "metrics".as_ref(),
        mbf.join("board_1.mbf").as_os_str(),
        "--json".as_ref(),
    ]);
    file.ok();
    assert_eq!(file.stdout.lines().next(), run.stdout.lines().next());
}

#[test]
fn bad_lines_and_files_are_named_with_line_and_column_and_the_other_boards_still_measured() {
    let dir = TempDir::new("metrics-bad");
    let good = level_field(&mut Rng::new(1), 9, 9, 10);
    let lines = [
        layout_line(&good),
        r#"{"layout": [[0, 1], [2]]}"#.to_string(),
        r#"{"layout": [[-1, 2]]}"#.to_string(),
        r#"{"layout": [[0, ]]}"#.to_string(),
        r#"{"rows": 2, "cols": 2, "mines": [[2, 0]]}"#.to_string(),
        r#"{"rows": 2, "cols": 2, "mines": [[1, 1], [1, 1]]}"#.to_string(),
        r#"{"size": 3}"#.to_string(),
        r#"{"layout": [[9]]}"#.to_string(),
        r#"{"layout": []}"#.to_string(),
        r#"[1, 2]"#.to_string(),
        r#"{"layout": [[0, 0]], "rows": "x"}"#.to_string(),
        layout_line(&good),
    ];
    let file = dir.join("bad.jsonl");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let missing = dir.join("missing.jsonl");
    let run = sapper([
        "metrics".as_ref(),
        missing.as_os_str(),
        file.as_os_str(),
        "--json".as_ref(),
    ]);
    run.expect_code(1);
    assert_eq!(
        run.stdout.lines().collect::<Vec<_>>(),
        [json_line(&good), json_line(&good)]
    );
    let name = file.display().to_string();
    for needle in [
        format!("{}: cannot read", missing.display()),
        format!("{name}:2: layout: row 1 has 1 cells, row 0 has 2"),
        format!("{name}:3: layout: row 0, column 1: shows 2 but has 1 mines around it"),
        format!("{name}:4:17: trailing comma"),
        format!("{name}:5: mines: (2,0) is off the 2×2 board"),
        format!("{name}:6: mines: (1,1) is listed twice"),
        format!("{name}:7: expected a \"layout\""),
        format!("{name}:8: layout: row 0, column 0: unknown layout code 9"),
        format!("{name}:9: layout: a board of 0×0 cells"),
        format!("{name}:10:2: invalid type"),
        format!("{name}:11:32: invalid type: string \"x\", expected usize"),
    ] {
        assert!(
            run.stderr.contains(&needle),
            "no {needle:?} in\n{}",
            run.stderr
        );
    }
    assert_eq!(run.stderr.lines().count(), 11, "{}", run.stderr);
}

#[test]
fn a_line_over_the_limit_is_named_and_skipped_and_the_next_boards_measured() {
    let dir = TempDir::new("metrics-long");
    let good = level_field(&mut Rng::new(2), 9, 9, 10);
    let long = format!("{{\"layout\": [[{}0]]}}", "0,".repeat(3 << 20));
    let text = [layout_line(&good), long, layout_line(&good)].join("\n") + "\n";
    let run = sapper_with(&dir.0, ["metrics", "-", "--json"], Some(&text), 0);
    run.expect_code(1);
    assert_eq!(
        run.stdout.lines().collect::<Vec<_>>(),
        [json_line(&good), json_line(&good)]
    );
    assert!(
        run.stderr.contains("<stdin>:2: a line longer than 4 MB"),
        "{}",
        run.stderr
    );
}

#[test]
fn metrics_help_names_its_inputs_and_stdin_may_be_given_once() {
    let help = sapper(["metrics", "--help"]);
    help.ok();
    for word in ["--json", "layout", "MBF", "thesis", "ZiNi", "islands"] {
        assert!(help.stdout.contains(word), "no {word} in\n{}", help.stdout);
    }
    sapper(["metrics", "-", "-"])
        .expect_code(2)
        .stderr_has("standard input");
}
