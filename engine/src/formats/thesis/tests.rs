//! Tests of the thesis layout: fields, corpora and `expected.csv`.

use super::corpus::*;
use super::field::*;
use super::*;

const INFO: &str = "3,4,2\n";
const STATUS: &str = "T,T,F,F\nT,T,F,F\nT,T,T,F\n";
//   0 1 -1 .
//   0 1  2 2   (mines at (0,2) and (2,3))
//   0 0  1 -1
const VALUES: &str = "0,1,-1,1\n0,1,2,2\n0,0,1,-1\n";

/// The strict path of `parse_csv_grid` accepts only what the checking
/// path accepts, with the same cells; and it accepts well-formed files
/// (else it would be no fast path). Texts: valid grids with `\n` or
/// `\r\n` line ends, then random edits from an alphabet of the
/// characters that matter.
#[test]
fn strict_csv_path_agrees_with_the_checking_path() {
    let mut rng = crate::test_rng::TestRng::new(0x2545_f491_4f6c_dd1d);
    let mut next = move |n: usize| rng.below(n);
    let alphabet = [
        "0", "1", "8", "9", "-1", "-", "T", "F", "t", ",", ",,", "\n", "\r\n", "\r", " ", "\t",
        "\u{feff}", "é", "",
    ];
    let mut accepted = 0;
    for case in 0..20_000 {
        let (h, w) = (1 + next(4), 1 + next(5));
        let grid = Grid::new(h, w);
        let values = case % 2 == 0;
        let crlf = next(3) == 0;
        let mut text = String::new();
        for r in 0..h {
            for c in 0..w {
                if c > 0 {
                    text.push(',');
                }
                text.push_str(if values {
                    ["0", "3", "8", "-1"][next(4)]
                } else {
                    ["T", "F"][next(2)]
                });
            }
            if r + 1 < h || next(2) == 0 {
                text.push_str(if crlf { "\r\n" } else { "\n" });
            }
        }
        let edits = if case % 3 == 0 { 0 } else { 1 + next(3) };
        for _ in 0..edits {
            let mut cut = next(text.len() + 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let mut end = (cut + next(3)).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.replace_range(cut..end, alphabet[next(alphabet.len())]);
        }
        // Both paths of one kind of file, cells as i32 to compare kinds
        // alike.
        fn both<T: Into<i32>>(
            text: &str,
            grid: Grid,
            strict_entry: fn(&[u8]) -> Option<T>,
            entry: fn(&str) -> Result<T, String>,
        ) -> (Option<Vec<i32>>, Result<Vec<i32>, FormatError>) {
            let as_i32 = |v: Vec<T>| v.into_iter().map(Into::into).collect::<Vec<i32>>();
            (
                parse_csv_grid_strict(text, grid, strict_entry).map(as_i32),
                parse_csv_grid_checked(Path::new("x.csv"), text, grid, "", entry).map(as_i32),
            )
        }
        let (strict, checked) = if values {
            both(&text, grid, strict_value_entry, parse_value_entry)
        } else {
            both(&text, grid, strict_status_entry, parse_status_entry)
        };
        if let Some(cells) = strict {
            accepted += 1;
            assert_eq!(checked.as_ref(), Ok(&cells), "{h}x{w} {text:?}");
        } else if edits == 0 {
            panic!("the strict path refused a well-formed {h}x{w} file {text:?}");
        }
    }
    assert!(
        accepted > 6_000,
        "only {accepted} texts took the strict path"
    );
}

fn parse(info: &str, status: &str, values: &str) -> Result<Field, FormatError> {
    parse_field(Path::new("f"), info, status, values)
}

fn err(info: &str, status: &str, values: &str) -> FormatError {
    parse(info, status, values).expect_err("expected an error")
}

#[test]
fn every_integer_follows_one_rule_in_every_file() {
    // A sign, a leading zero or `-0` is refused wherever it appears.
    for bad in ["+3", "03", "-3"] {
        let e = err(&format!("3,{bad},2\n"), STATUS, VALUES);
        assert!(
            e.message.starts_with("w: expected a whole number"),
            "{bad}: {e}"
        );
    }
    let first_value_line = VALUES.lines().next().unwrap();
    for bad in ["+1", "-0", "01", "-01"] {
        let (_, rest) = first_value_line.split_once(',').unwrap();
        let values = VALUES.replacen(first_value_line, &format!("{bad},{rest}"), 1);
        let e = err(INFO, STATUS, &values);
        assert_eq!((e.line, e.column), (Some(1), Some(1)), "{bad}: {e}");
        assert!(e.message.contains("plain decimal digits"), "{bad}: {e}");
    }
}

#[test]
fn a_valid_field_equals_the_field_built_from_its_mines() {
    let f = parse(INFO, STATUS, VALUES).unwrap();
    let mut mine = vec![false; 12];
    mine[2] = true;
    mine[11] = true;
    let open = STATUS
        .split(['\n', ','])
        .filter(|s| !s.is_empty())
        .map(|s| s == "T")
        .collect();
    assert_eq!(f, Field::from_mines(Grid::new(3, 4), mine, open));
    assert_eq!(f.total_mines, 2);
}

#[test]
fn crlf_trailing_blanks_bom_and_spaces_are_tolerated() {
    let values = "\u{feff}0, 1,-1 ,1 \r\n0,1,2,2\r\n0,0,1,-1\r\n\r\n  \n";
    let info = " 3 , 4 , 2 \r\n\n";
    assert_eq!(
        parse(info, STATUS, values).unwrap(),
        parse(INFO, STATUS, VALUES).unwrap()
    );
    // No final newline at all.
    assert!(parse("3,4,2", STATUS.trim_end(), VALUES.trim_end()).is_ok());
}

#[test]
fn field_info_errors() {
    let e = err("", STATUS, VALUES);
    assert_eq!(
        (e.path.as_path(), e.line),
        (Path::new("f/field_info.csv"), None)
    );
    assert!(e.message.contains("empty"), "{e}");

    let e = err("3,4\n", STATUS, VALUES);
    assert_eq!((e.line, e.column), (Some(1), Some(4)), "{e}");
    assert!(e.message.contains("only 2 entries"), "{e}");

    let e = err("3,4,2,1\n", STATUS, VALUES);
    assert_eq!((e.line, e.column), (Some(1), Some(7)), "{e}");

    let e = err("3,x,2\n", STATUS, VALUES);
    assert_eq!((e.line, e.column), (Some(1), Some(3)), "{e}");
    assert!(
        e.message.contains("w: expected a whole number, found `x`"),
        "{e}"
    );

    let e = err("3,-4,2\n", STATUS, VALUES);
    assert_eq!(e.column, Some(3), "{e}");

    let e = err("0,4,0\n", STATUS, VALUES);
    assert_eq!(e.column, Some(1), "{e}");
    assert!(e.message.contains("h is 0"), "{e}");

    let e = err("3,4,13\n", STATUS, VALUES);
    assert_eq!(e.column, Some(5), "{e}");
    assert!(e.message.contains("at most"), "{e}");

    let e = err("100000,100000,1\n", STATUS, VALUES);
    assert!(e.message.contains("too large"), "{e}");

    let e = err("3,4,2\n5,5,5\n", STATUS, VALUES);
    assert_eq!((e.line, e.column), (Some(2), Some(1)), "{e}");

    let e = err("\n3,4,2\n", STATUS, VALUES);
    assert_eq!(e.line, Some(1), "{e}");
}

#[test]
fn grid_shape_errors_name_line_and_column() {
    // A short row: the column is just past its end.
    let e = err(INFO, "T,T,F,F\nT,T,F\nT,T,T,F\n", VALUES);
    assert_eq!(e.path, Path::new("f/status.csv"));
    assert_eq!((e.line, e.column), (Some(2), Some(6)), "{e}");
    assert!(
        e.message.contains("row 2 has only 3 entries; expected 4"),
        "{e}"
    );

    // A long row: the column of the first extra entry.
    let e = err(INFO, STATUS, "0,1,-1,1\n0,1,2,2,0\n0,0,1,-1\n");
    assert_eq!(e.path, Path::new("f/values.csv"));
    assert_eq!((e.line, e.column), (Some(2), Some(9)), "{e}");

    // Missing and extra rows.
    let e = err(INFO, "T,T,F,F\nT,T,F,F\n", VALUES);
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.message.contains("only 2 rows; expected 3 rows"), "{e}");
    let e = err(INFO, STATUS, "0,1,-1,1\n0,1,2,2\n0,0,1,-1\n0,0,0,0\n");
    assert_eq!(e.line, Some(4), "{e}");
    assert!(e.message.contains("too many rows"), "{e}");

    // A blank line inside the grid.
    let e = err(INFO, "T,T,F,F\n\nT,T,F,F\nT,T,T,F\n", VALUES);
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.message.contains("empty line; expected row 2"), "{e}");

    let e = err(INFO, "", VALUES);
    assert_eq!((e.line, e.column), (None, None));
    assert!(e.message.contains("empty"), "{e}");
}

#[test]
fn entry_errors_name_the_cell() {
    let e = err(INFO, "T,T,F,F\nT,T,x,F\nT,T,T,F\n", VALUES);
    assert_eq!((e.line, e.column), (Some(2), Some(5)), "{e}");
    assert!(
        e.message.starts_with("row 2, column 3: expected `T`"),
        "{e}"
    );

    let e = err(INFO, "T,T,F,F\nT,T,F,F\nT,T,T,\n", VALUES);
    assert_eq!((e.line, e.column), (Some(3), Some(7)), "{e}");
    assert!(e.message.contains("found an empty entry"), "{e}");

    let e = err(INFO, STATUS, "0,1,-1,1\n0,1,2,2\n0,0,9,-1\n");
    assert_eq!((e.line, e.column), (Some(3), Some(5)), "{e}");
    assert!(
        e.message
            .contains("row 3, column 3: value 9 is out of range"),
        "{e}"
    );

    let e = err(INFO, STATUS, "0,1,-2,1\n0,1,2,2\n0,0,1,-1\n");
    assert_eq!((e.line, e.column), (Some(1), Some(5)), "{e}");

    let e = err(INFO, STATUS, "0,1,-1,1\n0,one,2,2\n0,0,1,-1\n");
    assert_eq!((e.line, e.column), (Some(2), Some(3)), "{e}");
    assert!(e.message.contains("found `one`"), "{e}");
}

#[test]
fn tm_must_match_the_mines() {
    let e = err("3, 4, 3\n", STATUS, VALUES);
    assert_eq!(e.path, Path::new("f/field_info.csv"));
    assert_eq!((e.line, e.column), (Some(1), Some(7)), "{e}");
    assert!(
        e.message.contains("tm is 3 but values.csv has 2 mines"),
        "{e}"
    );
}

#[test]
fn numbers_must_count_their_mines() {
    // The cell at row 2, column 3 touches both mines but shows 1.
    let e = err(INFO, STATUS, "0,1,-1,1\n0,1,1,2\n0,0,1,-1\n");
    assert_eq!(e.path, Path::new("f/values.csv"));
    assert_eq!((e.line, e.column), (Some(2), Some(5)), "{e}");
    assert!(
        e.message
            .contains("row 2, column 3: the number is 1 but the cell has 2 neighbouring mines"),
        "{e}"
    );
}

#[test]
fn no_mine_is_open_at_the_start() {
    let e = err(INFO, "T,T,F,F\nT,T,F,F\nT,T,T,T\n", VALUES);
    assert_eq!(e.path, Path::new("f/status.csv"));
    assert_eq!((e.line, e.column), (Some(3), Some(7)), "{e}");
    assert!(
        e.message.contains("row 3, column 4: the cell is a mine"),
        "{e}"
    );
}

#[test]
fn natural_order() {
    let mut names = vec!["field_10", "field_2", "field_1", "a", "field_02", "b1", "b"];
    names.sort_by(|a, b| natural_cmp(a, b));
    assert_eq!(
        names,
        vec!["a", "b", "b1", "field_1", "field_02", "field_2", "field_10"]
    );
    assert_eq!(natural_cmp("x", "x"), Ordering::Equal);
    assert_eq!(natural_cmp("9", "10"), Ordering::Less);
    assert_eq!(
        natural_cmp("99999999999999999999999", "1"),
        Ordering::Greater
    );
}

#[test]
fn expected_csv() {
    let p = Path::new("expected.csv");
    let rows = parse_expected(
        p,
        "field,solved,opened_safe_cells\r\nfield_1,true,71\nfield_2, false ,3\n\n",
    )
    .unwrap();
    assert_eq!(
        rows,
        vec![
            Expected {
                field: "field_1".into(),
                solved: true,
                opened_safe_cells: 71
            },
            Expected {
                field: "field_2".into(),
                solved: false,
                opened_safe_cells: 3
            },
        ]
    );
    let h = "field,solved,opened_safe_cells\n";
    let e = parse_expected(p, "").unwrap_err();
    assert!(e.message.contains("empty"), "{e}");
    let e = parse_expected(p, "field,solved\n").unwrap_err();
    assert_eq!((e.line, e.column), (Some(1), Some(1)), "{e}");
    let e = parse_expected(p, &format!("{h}field_1,yes,3\n")).unwrap_err();
    assert_eq!((e.line, e.column), (Some(2), Some(9)), "{e}");
    assert!(
        e.message.contains("solved: expected `true` or `false`"),
        "{e}"
    );
    let e = parse_expected(p, &format!("{h}field_1,true,-3\n")).unwrap_err();
    assert_eq!((e.line, e.column), (Some(2), Some(14)), "{e}");
    let e = parse_expected(p, &format!("{h}field_1,true\n")).unwrap_err();
    assert_eq!((e.line, e.column), (Some(2), Some(13)), "{e}");
    let e = parse_expected(p, &format!("{h}field_1,true,3,4\n")).unwrap_err();
    assert_eq!((e.line, e.column), (Some(2), Some(16)), "{e}");
    let e = parse_expected(p, &format!("{h},true,3\n")).unwrap_err();
    assert_eq!((e.line, e.column), (Some(2), Some(1)), "{e}");
    let e = parse_expected(p, &format!("{h}a,true,3\nb,true,3\na,false,1\n")).unwrap_err();
    assert_eq!((e.line, e.column), (Some(4), Some(1)), "{e}");
    assert!(e.message.contains("listed twice (first on line 2)"), "{e}");
    assert_eq!(parse_expected(p, h).unwrap(), vec![]);
}
