//! The readers against real data, the shipped samples, the file system, and
//! arbitrary input (proptest).

use crate::util::{repo, shared_data, Rng, TempDir};
use proptest::prelude::*;
use sapper_engine::formats::thesis::natural_cmp;
use sapper_engine::formats::{
    find_fields, parse_field, parse_position, read_expected, read_field, read_position,
    write_position, FormatError,
};
use sapper_engine::{Cell, Field, Grid, Position};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------
// Helpers

/// The three files of a field in the thesis layout.
fn field_texts(f: &Field) -> [String; 3] {
    let info = format!("{},{},{}\n", f.grid.h, f.grid.w, f.total_mines);
    let mut status = String::new();
    let mut values = String::new();
    for r in 0..f.grid.h {
        for c in 0..f.grid.w {
            let i = r * f.grid.w + c;
            if c > 0 {
                status.push(',');
                values.push(',');
            }
            status.push(if f.open_at_start[i] { 'T' } else { 'F' });
            if f.mine[i] {
                values.push_str("-1");
            } else {
                values.push((b'0' + f.value[i]) as char);
            }
        }
        status.push('\n');
        values.push('\n');
    }
    [info, status, values]
}

/// Symbolic links to folders are followed, but a link back to a folder
/// already searched (an ancestor: a cycle; or a field reached twice) is
/// not searched again: every field is found once.
#[cfg(unix)]
#[test]
fn symbolic_links_are_followed_once() {
    use std::os::unix::fs::symlink;
    let tmp = TempDir::new("links");
    let small = field_from_mines(
        Grid::new(2, 3),
        vec![true, false, false, false, false, true],
    );
    write_field(&tmp.0.join("corpus/a/field_1"), &small);
    write_field(&tmp.0.join("elsewhere/field_9"), &small);
    // A cycle (a link to the corpus inside it), a second way to a field,
    // and a link to a field outside the corpus.
    symlink(tmp.0.join("corpus"), tmp.0.join("corpus/a/loop")).unwrap();
    symlink(tmp.0.join("corpus/a/field_1"), tmp.0.join("corpus/again")).unwrap();
    symlink(tmp.0.join("elsewhere/field_9"), tmp.0.join("corpus/b")).unwrap();
    let fields = find_fields(&tmp.0.join("corpus")).unwrap();
    let mut names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    names.sort();
    // `a/field_1` and `again` are one folder: whichever the listing meets
    // first is kept.
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.contains(&"b"), "{names:?}");
    assert!(
        names.contains(&"a/field_1") || names.contains(&"again"),
        "{names:?}"
    );
    for f in &fields {
        assert_eq!(read_field(&f.dir).unwrap(), small);
    }
}

fn write_field(dir: &Path, f: &Field) {
    std::fs::create_dir_all(dir).unwrap();
    let [info, status, values] = field_texts(f);
    std::fs::write(dir.join("field_info.csv"), info).unwrap();
    std::fs::write(dir.join("status.csv"), status).unwrap();
    std::fs::write(dir.join("values.csv"), values).unwrap();
}

/// A field from a mine layout, with every safe cell whose number is 0 open
/// at the start (a start no mine is under).
fn field_from_mines(grid: Grid, mine: Vec<bool>) -> Field {
    let probe = Field::from_mines(grid, mine.clone(), vec![false; grid.len()]);
    let open = (0..grid.len())
        .map(|i| !mine[i] && probe.value[i] == 0)
        .collect();
    Field::from_mines(grid, mine, open)
}

/// What a player sees of a field at the start.
fn start_position(f: &Field, with_total: bool) -> Position {
    Position {
        grid: f.grid,
        cells: (0..f.grid.len())
            .map(|i| {
                if f.open_at_start[i] {
                    Cell::Revealed(f.value[i])
                } else {
                    Cell::Unknown
                }
            })
            .collect(),
        total_mines: with_total.then_some(f.total_mines),
    }
}

// ---------------------------------------------------------------------------
// The research's corpora (../shared/data beside the repo)

/// `(h, w, tm)` shared by every field of a corpus, if they all share one.
type Shape = Option<(usize, usize, u32)>;

const CORPORA: [(&str, usize, Shape); 6] = [
    ("recruit", 25, None),
    ("sgt-beginner", 100, Some((9, 9, 10))),
    ("sgt-intermediate", 100, Some((16, 16, 40))),
    ("sgt-expert", 100, Some((16, 30, 99))),
    ("mstl-expert", 100, Some((16, 30, 99))),
    ("random-expert", 100, Some((16, 30, 99))),
];

#[test]
#[ignore = "needs ../shared/data"]
fn all_six_corpora_load_and_agree_with_expected_csv() {
    let data = shared_data("");
    for (corpus, count, shape) in CORPORA {
        let root = data.join(corpus);
        let fields = find_fields(&root).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(fields.len(), count, "{corpus}");
        let expected = read_expected(&root).unwrap_or_else(|e| panic!("{e}"));
        // Same fields, and `expected.csv` lists them in natural order.
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        let expected_names: Vec<&str> = expected.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(names, expected_names, "{corpus}");
        for (field_ref, exp) in fields.iter().zip(&expected) {
            assert_eq!(field_ref.dir, root.join(&field_ref.name));
            let f = read_field(&field_ref.dir).unwrap_or_else(|e| panic!("{e}"));
            if let Some((h, w, tm)) = shape {
                assert_eq!((f.grid.h, f.grid.w, f.total_mines), (h, w, tm));
            }
            let open_at_start = f.open_at_start.iter().filter(|&&o| o).count();
            assert!(
                exp.opened_safe_cells >= open_at_start,
                "{corpus}/{}",
                exp.field
            );
            assert!(
                exp.opened_safe_cells <= f.safe_cells(),
                "{corpus}/{}",
                exp.field
            );
            assert_eq!(
                exp.solved,
                exp.opened_safe_cells == f.safe_cells(),
                "{corpus}/{}",
                exp.field
            );
        }
    }
}

#[test]
#[ignore = "needs ../shared/data"]
fn the_data_folder_is_a_nested_corpus() {
    let data = shared_data("");
    let fields = find_fields(&data).unwrap();
    assert_eq!(fields.len(), 525);
    // Corpora in name order, fields in natural order within each.
    assert_eq!(fields[0].name, "mstl-expert/field_1");
    assert_eq!(fields[1].name, "mstl-expert/field_2");
    assert_eq!(fields[9].name, "mstl-expert/field_10");
    assert_eq!(fields[100].name, "random-expert/field_1");
    assert_eq!(fields[524].name, "sgt-intermediate/field_100");
    for f in &fields {
        assert_eq!(f.dir, data.join(&f.name));
    }
}

// ---------------------------------------------------------------------------
// The shipped samples

#[test]
fn sample_fields_load_and_are_solved_in_expected_csv() {
    let root = repo().join("samples/fields");
    let fields = find_fields(&root).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["field_1", "field_2", "field_3"]);
    let expected = read_expected(&root.join("expected.csv")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(expected.len(), 3);
    for (field_ref, exp) in fields.iter().zip(&expected) {
        assert_eq!(field_ref.name, exp.field);
        let f = read_field(&field_ref.dir).unwrap_or_else(|e| panic!("{e}"));
        assert!(exp.solved);
        assert_eq!(exp.opened_safe_cells, f.safe_cells());
    }
}

#[test]
fn sample_positions_load() {
    let dir = repo().join("samples/positions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    for file in &files {
        let p = read_position(file).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parse_position(file, &write_position(&p)).unwrap(), p);
    }

    // The start of sample field 2 is exactly what its file shows.
    let field = read_field(&repo().join("samples/fields/field_2")).unwrap();
    let start = read_position(&dir.join("field_2-start.txt")).unwrap();
    assert_eq!(start, start_position(&field, true));

    let one_two_one = read_position(&dir.join("one-two-one.txt")).unwrap();
    assert_eq!(one_two_one.total_mines, None);
    let total = read_position(&dir.join("total-decides.txt")).unwrap();
    assert_eq!(total.total_mines, Some(2));
}

// ---------------------------------------------------------------------------
// Files and folders

#[test]
fn a_large_field_reads_back_exactly() {
    let tmp = TempDir::new("large");
    let grid = Grid::new(1000, 1000);
    // A deterministic layout with about 15% mines.
    let mut rng = Rng::new(1);
    let mine: Vec<bool> = (0..grid.len()).map(|_| rng.chance(15)).collect();
    let field = field_from_mines(grid, mine);
    assert!(field.total_mines > 100_000);
    assert!(field.open_at_start.iter().any(|&o| o));
    write_field(&tmp.0, &field);
    assert_eq!(read_field(&tmp.0).unwrap(), field);
}

#[test]
fn a_missing_file_is_named() {
    let tmp = TempDir::new("missing");
    std::fs::write(tmp.0.join("field_info.csv"), "2,2,0\n").unwrap();
    std::fs::write(tmp.0.join("values.csv"), "0,0\n0,0\n").unwrap();
    let e = read_field(&tmp.0).unwrap_err();
    assert_eq!(e.path, tmp.0.join("status.csv"));
    assert!(e.to_string().ends_with("status.csv: file not found"), "{e}");

    std::fs::write(tmp.0.join("status.csv"), "T,T\nT,T\n").unwrap();
    assert!(read_field(&tmp.0).is_ok());
    std::fs::remove_file(tmp.0.join("field_info.csv")).unwrap();
    let e = read_field(&tmp.0).unwrap_err();
    assert_eq!(e.path, tmp.0.join("field_info.csv"));

    let e = read_expected(&tmp.0).unwrap_err();
    assert_eq!(e.path, tmp.0.join("expected.csv"));
    let e = read_position(&tmp.0.join("nope.txt")).unwrap_err();
    assert!(e.message.contains("not found"), "{e}");
}

#[test]
fn errors_in_files_carry_path_line_and_column() {
    let tmp = TempDir::new("located");
    std::fs::write(tmp.0.join("field_info.csv"), "2,2,1\n").unwrap();
    std::fs::write(tmp.0.join("status.csv"), "T,F\nF,F\n").unwrap();
    // The 1 at row 2, column 1 is right; the 0 at row 1, column 1 is not.
    std::fs::write(tmp.0.join("values.csv"), "0,-1\r\n1,1\r\n").unwrap();
    let e = read_field(&tmp.0).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}:1:1: row 1, column 1: the number is 0 but the cell has 1 neighbouring mines \
             (-1 entries); expected 1",
            tmp.0.join("values.csv").display()
        )
    );

    let file = tmp.0.join("p.txt");
    std::fs::write(&file, "# x\n??\n?9\n").unwrap();
    let e = read_position(&file).unwrap_err();
    assert_eq!((e.line, e.column), (Some(3), Some(2)), "{e}");
    assert!(e
        .to_string()
        .starts_with(&format!("{}:3:2: ", file.display())));
}

#[test]
fn corpus_search() {
    let tmp = TempDir::new("corpus");
    let small = field_from_mines(
        Grid::new(2, 3),
        vec![true, false, false, false, false, true],
    );
    for name in [
        "b/field_10",
        "b/field_2",
        "a/field_1",
        "a/deeper/x_3",
        ".hidden/field_1",
    ] {
        write_field(&tmp.0.join(name), &small);
    }
    // A folder without fields and a stray file are passed over.
    std::fs::create_dir_all(tmp.0.join("c/empty")).unwrap();
    std::fs::write(tmp.0.join("notes.txt"), "hi").unwrap();

    let fields = find_fields(&tmp.0).unwrap();
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["a/deeper/x_3", "a/field_1", "b/field_2", "b/field_10"]
    );
    for f in &fields {
        assert_eq!(read_field(&f.dir).unwrap(), small);
    }

    // A field folder is a corpus of one, named after the folder.
    let one = find_fields(&tmp.0.join("b/field_10")).unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].name, "field_10");
    assert_eq!(one[0].dir, tmp.0.join("b/field_10"));

    let e = find_fields(&tmp.0.join("c")).unwrap_err();
    assert!(e.message.contains("no field found"), "{e}");
    let e = find_fields(&tmp.0.join("nowhere")).unwrap_err();
    assert!(e.message.contains("no such folder"), "{e}");
    assert_eq!(e.path, tmp.0.join("nowhere"));
    let e = find_fields(&tmp.0.join("notes.txt")).unwrap_err();
    assert!(e.message.contains("is a file"), "{e}");
}

#[test]
fn natural_order_is_a_total_order_on_tricky_names() {
    let names = [
        "a", "a0", "a00", "a1", "a01", "a-1", "a_1", "1", "01", "", "é2", "é10",
    ];
    for x in names {
        assert_eq!(natural_cmp(x, x), std::cmp::Ordering::Equal);
        for y in names {
            assert_eq!(natural_cmp(x, y), natural_cmp(y, x).reverse(), "{x} {y}");
            if x != y {
                assert_ne!(natural_cmp(x, y), std::cmp::Ordering::Equal, "{x} {y}");
            }
            for z in names {
                if natural_cmp(x, y).is_lt() && natural_cmp(y, z).is_lt() {
                    assert!(natural_cmp(x, z).is_lt(), "{x} {y} {z}");
                }
            }
        }
    }
    assert!(natural_cmp("é2", "é10").is_lt());
}

// ---------------------------------------------------------------------------
// Properties

/// A mine layout on a grid of at most 12×12, and a choice per cell of how
/// a player sees it.
fn layout() -> impl Strategy<Value = (Grid, Vec<bool>, Vec<u8>)> {
    (1usize..=12, 1usize..=12).prop_flat_map(|(h, w)| {
        (
            Just(Grid::new(h, w)),
            prop::collection::vec(prop::bool::weighted(0.2), h * w),
            prop::collection::vec(0u8..4, h * w),
        )
    })
}

/// A position consistent with a mine layout: mines closed or flagged, safe
/// cells closed, marked safe or revealed with their true number.
fn consistent_position(grid: Grid, mine: &[bool], view: &[u8], with_total: bool) -> Position {
    let truth = Field::from_mines(grid, mine.to_vec(), vec![false; grid.len()]);
    let cells = (0..grid.len())
        .map(|i| match (mine[i], view[i]) {
            (true, v) if v % 2 == 0 => Cell::Unknown,
            (true, _) => Cell::Mine,
            (false, 0) => Cell::Unknown,
            (false, 1) => Cell::Safe,
            (false, _) => Cell::Revealed(truth.value[i]),
        })
        .collect();
    Position {
        grid,
        cells,
        total_mines: with_total.then_some(truth.total_mines),
    }
}

fn any_cell() -> impl Strategy<Value = Cell> {
    prop_oneof![
        Just(Cell::Unknown),
        Just(Cell::Mine),
        Just(Cell::Safe),
        (0u8..=8).prop_map(Cell::Revealed),
    ]
}

fn any_position() -> impl Strategy<Value = Position> {
    (1usize..=12, 1usize..=12).prop_flat_map(|(h, w)| {
        (
            prop::collection::vec(any_cell(), h * w),
            prop::option::of(0u32..200),
        )
            .prop_map(move |(cells, total_mines)| Position {
                grid: Grid::new(h, w),
                cells,
                total_mines,
            })
    })
}

/// The local checks of the position format, written out independently:
/// every number fits its neighbourhood and the total fits the grid.
fn locally_valid(p: &Position) -> bool {
    let (h, w) = (p.grid.h as i64, p.grid.w as i64);
    let at = |r: i64, c: i64| p.cells[(r * w + c) as usize];
    let flags = p.cells.iter().filter(|&&c| c == Cell::Mine).count() as u32;
    let closed = p.cells.iter().filter(|&&c| c == Cell::Unknown).count() as u32;
    if let Some(t) = p.total_mines {
        if t < flags || t > flags + closed {
            return false;
        }
    }
    for r in 0..h {
        for c in 0..w {
            let Cell::Revealed(n) = at(r, c) else {
                continue;
            };
            let (mut around, mut flagged, mut unknown) = (0, 0, 0);
            for (dr, dc) in [
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, -1),
                (0, 1),
                (1, -1),
                (1, 0),
                (1, 1),
            ] {
                let (rr, cc) = (r + dr, c + dc);
                if rr < 0 || cc < 0 || rr >= h || cc >= w {
                    continue;
                }
                around += 1;
                match at(rr, cc) {
                    Cell::Mine => flagged += 1,
                    Cell::Unknown => unknown += 1,
                    _ => {}
                }
            }
            if n > around || flagged > n || n > flagged + unknown {
                return false;
            }
        }
    }
    true
}

/// One edit of a text: insert, delete or replace one character.
#[derive(Clone, Debug)]
struct Mutation {
    kind: u8,
    at: usize,
    ch: char,
}

fn mutation(chars: &'static [char]) -> impl Strategy<Value = Mutation> {
    (0u8..3, any::<usize>(), prop::sample::select(chars)).prop_map(|(kind, at, ch)| Mutation {
        kind,
        at,
        ch,
    })
}

fn mutate(text: &str, m: &Mutation) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let at = m.at % (chars.len() + 1);
    match m.kind {
        0 => chars.insert(at, m.ch),
        1 if at < chars.len() => {
            chars.remove(at);
        }
        _ if at < chars.len() => chars[at] = m.ch,
        _ => chars.push(m.ch),
    }
    chars.into_iter().collect()
}

/// An error must say where: a file, and a line within the text (or just past
/// its end, for a missing row) whenever it has a column.
fn assert_located(e: &FormatError, text_of: impl Fn(&Path) -> Option<String>) {
    let text = text_of(&e.path).unwrap_or_else(|| panic!("unknown path in {e}"));
    let lines = text.split('\n').count();
    if let Some(line) = e.line {
        assert!(line >= 1 && line <= lines + 1, "{e} ({lines} lines)");
    }
    if e.column.is_some() {
        assert!(e.line.is_some(), "{e}");
    }
    assert!(!e.message.is_empty());
}

/// A CSV text as [`field_texts`] would write it: no byte-order mark, blank
/// lines or blanks around entries, numbers without leading zeros.
fn normalise(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = String::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let entries: Vec<String> = line
            .split(',')
            .map(|e| {
                let e = e.trim();
                e.parse::<i64>().map_or(e.to_string(), |n| n.to_string())
            })
            .collect();
        out.push_str(&entries.join(","));
        out.push('\n');
    }
    out
}

const FIELD_CHARS: &[char] = &[
    '0', '1', '2', '8', '9', '-', ',', '\n', '\r', ' ', 'T', 'F', 'x', 'é', '\u{feff}',
];
const POSITION_CHARS: &[char] = &[
    '?', 'F', '*', '.', '0', '1', '3', '8', '9', '#', 'm', ' ', '\n', '\r', 'x', 'é',
];

proptest! {
    #![proptest_config(crate::util::cases(256))]
    #[test]
    fn consistent_positions_round_trip(
        (grid, mine, view) in layout(),
        with_total in any::<bool>(),
    ) {
        let p = consistent_position(grid, &mine, &view, with_total);
        let text = write_position(&p);
        let back = parse_position(Path::new("p.txt"), &text);
        prop_assert_eq!(back, Ok(p), "{}", text);
    }

    #[test]
    fn any_position_round_trips_or_fails_a_local_check(p in any_position()) {
        let text = write_position(&p);
        match parse_position(Path::new("p.txt"), &text) {
            Ok(back) => {
                prop_assert!(locally_valid(&p), "accepted:\n{}", text);
                prop_assert_eq!(back, p);
            }
            // The error is at a cell or at `mines N`.
            Err(e) => {
                prop_assert!(!locally_valid(&p), "{}", e);
                prop_assert!(e.line.is_some() && e.column.is_some(), "{}", e);
            }
        }
    }

    #[test]
    fn parse_position_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = parse_position(Path::new("p.txt"), &text) {
            assert_located(&e, |_| Some(text.to_string()));
        }
    }

    #[test]
    fn parse_position_never_panics_on_near_valid_text(
        (grid, mine, view) in layout(),
        with_total in any::<bool>(),
        edit in mutation(POSITION_CHARS),
    ) {
        let p = consistent_position(grid, &mine, &view, with_total);
        let text = mutate(&format!("# comment\n{}", write_position(&p)), &edit);
        match parse_position(Path::new("p.txt"), &text) {
            Ok(q) => prop_assert_eq!(q.cells.len(), q.grid.len()),
            Err(e) => assert_located(&e, |_| Some(text.clone())),
        }
    }

    #[test]
    fn parse_field_never_panics_on_bytes(
        info in prop::collection::vec(any::<u8>(), 0..20),
        status in prop::collection::vec(any::<u8>(), 0..200),
        values in prop::collection::vec(any::<u8>(), 0..200),
        well_formed_info in any::<bool>(),
    ) {
        // Half the time a believable `h,w,tm`, so the grids are reached.
        let info = if well_formed_info {
            format!("{},{},{}", 1 + info.len() % 5, 1 + status.len() % 5, values.len() % 4)
        } else {
            String::from_utf8_lossy(&info).into_owned()
        };
        let status = String::from_utf8_lossy(&status);
        let values = String::from_utf8_lossy(&values);
        let dir = Path::new("d");
        if let Err(e) = parse_field(dir, &info, &status, &values) {
            assert_located(&e, |p| {
                match p.file_name()?.to_str()? {
                    "field_info.csv" => Some(info.clone()),
                    "status.csv" => Some(status.to_string()),
                    "values.csv" => Some(values.to_string()),
                    _ => None,
                }
            });
        }
    }

    #[test]
    fn valid_fields_parse_and_one_edit_never_panics(
        (grid, mine, _) in layout(),
        file in 0usize..3,
        edit in mutation(FIELD_CHARS),
    ) {
        let field = field_from_mines(grid, mine);
        let mut texts = field_texts(&field);
        let dir = Path::new("d");
        prop_assert_eq!(parse_field(dir, &texts[0], &texts[1], &texts[2]), Ok(field.clone()));

        texts[file] = mutate(&texts[file], &edit);
        match parse_field(dir, &texts[0], &texts[1], &texts[2]) {
            // Whatever is accepted is a consistent field, and the one the
            // files describe.
            Ok(f) => {
                prop_assert_eq!(
                    &f,
                    &Field::from_mines(f.grid, f.mine.clone(), f.open_at_start.clone())
                );
                prop_assert_eq!(texts.map(|t| normalise(&t)), field_texts(&f));
            }
            Err(e) => assert_located(&e, |p| {
                let k = ["field_info.csv", "status.csv", "values.csv"]
                    .iter()
                    .position(|n| p.file_name().is_some_and(|f| f == *n))?;
                Some(texts[k].clone())
            }),
        }
    }
}
