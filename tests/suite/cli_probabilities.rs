//! `sapper analyse --probabilities` end to end: the JSON shape and values
//! on positions whose answers are known by hand, the human grid, several
//! positions in one run (in order, bad ones reported and the rest still
//! done), standard input, the total from the file, `--mines` or
//! `--density`, the budget, and the same bytes whatever the thread count.

use crate::util::{repo, sapper, sapper_with, TempDir};
use serde_json::{Map, Value};

/// A temporary folder of position files, removed at the end.
struct Positions(TempDir);

impl Positions {
    fn new(name: &str, files: &[(&str, &str)]) -> Positions {
        let dir = TempDir::new(&format!("probabilities-{name}"));
        for (file, text) in files {
            std::fs::write(dir.join(file), text).unwrap();
        }
        Positions(dir)
    }

    fn path(&self, file: &str) -> String {
        self.0.join(file).to_string_lossy().into_owned()
    }
}

/// The `probabilities` grid: `Some(p)` for closed cells, `None` for others.
fn grid(o: &Map<String, Value>) -> Vec<Vec<Option<f64>>> {
    o["probabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_array().unwrap().iter().map(|v| v.as_f64()).collect())
        .collect()
}

fn cells(v: &Value) -> Vec<(u64, u64)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_u64().unwrap(), c[1].as_u64().unwrap()))
        .collect()
}

#[test]
fn a_position_decided_by_its_total_has_probabilities_zero_and_one() {
    // total-decides.txt (`mines 2`): (0,0) and (1,1) are mines, (0,1) and
    // (1,0) safe: one layout.
    let run = sapper([
        "analyse",
        "samples/positions/total-decides.txt",
        "--probabilities",
        "--json",
    ]);
    run.expect_code(0);
    let o = &run.json_lines()[0];
    assert_eq!(o["position"], "samples/positions/total-decides.txt");
    assert_eq!(
        grid(o),
        vec![
            vec![Some(1.0), Some(0.0), None],
            vec![Some(0.0), Some(1.0), None],
            vec![None, None, None]
        ]
    );
    assert_eq!(cells(&o["safe"]), [(0, 1), (1, 0)]);
    assert_eq!(cells(&o["mines"]), [(0, 0), (1, 1)]);
    assert_eq!(cells(&o["safest"]), [(0, 1), (1, 0)]);
    assert_eq!(o["unknown_left"], 0);
    assert_eq!(o["layouts"], "1");
    assert_eq!(o["log10_layouts"], 0.0);
    assert!(o["micros"].as_f64().unwrap() >= 0.0);
    assert!(o["error_bound"].as_f64().unwrap() <= 1e-12);
}

#[test]
fn shares_of_layouts_by_hand() {
    // `*` cells are known safe without a number: they constrain nothing.
    let p = Positions::new(
        "by-hand",
        &[
            // The 1's only closed neighbour is (0,0): a mine; (0,4) touches
            // no number and holds the other.
            ("forced.txt", "mines 2\n?1**?\n*****\n"),
            // `? 1 ?`: each side holds the 1's mine half the time; the
            // interior cell (0,4) holds the second mine.
            ("half.txt", "mines 2\n?1?*?\n*****\n"),
            // Four interior cells, no number, one mine: 1/4 each, C(4,1).
            ("interior.txt", "mines 1\n??\n??\n"),
        ],
    );
    let run = sapper([
        "analyse",
        &p.path("forced.txt"),
        &p.path("half.txt"),
        &p.path("interior.txt"),
        "--probabilities",
        "--json",
    ]);
    run.expect_code(0);
    let o = run.json_lines();
    assert_eq!(o.len(), 3);
    assert_eq!(grid(&o[0])[0], vec![Some(1.0), None, None, None, Some(1.0)]);
    assert_eq!(o[0]["layouts"], "1");
    assert_eq!(
        grid(&o[1])[0],
        vec![Some(0.5), None, Some(0.5), None, Some(1.0)]
    );
    assert_eq!(o[1]["layouts"], "2");
    assert_eq!(cells(&o[1]["safest"]), [(0, 0), (0, 2)]);
    assert_eq!(cells(&o[1]["mines"]), [(0, 4)]);
    assert_eq!(
        grid(&o[2]),
        vec![vec![Some(0.25), Some(0.25)], vec![Some(0.25), Some(0.25)]]
    );
    assert_eq!(o[2]["layouts"], "4");
    assert_eq!(cells(&o[2]["safest"]).len(), 4);
}

#[test]
fn without_a_total_it_asks_for_mines_or_density() {
    let run = sapper([
        "analyse",
        "samples/positions/one-two-one.txt",
        "--probabilities",
    ]);
    run.expect_code(1);
    assert!(run.stderr.contains("one-two-one.txt"), "{}", run.stderr);
    assert!(
        run.stderr.contains("give --mines N or --density D"),
        "{}",
        run.stderr
    );
    // With a density: the 1-2-1 pins every cell.
    let run = sapper([
        "analyse",
        "samples/positions/one-two-one.txt",
        "--probabilities",
        "--density",
        "0.2",
        "--json",
    ]);
    run.expect_code(0);
    let o = &run.json_lines()[0];
    assert_eq!(
        grid(o)[0],
        vec![Some(0.0), Some(1.0), Some(0.0), Some(1.0), Some(0.0)]
    );
    // With --mines: the same, and a wrong count is a contradiction.
    let run = sapper([
        "analyse",
        "samples/positions/one-two-one.txt",
        "--probabilities",
        "--mines",
        "2",
        "--json",
    ]);
    run.expect_code(0);
    let run = sapper([
        "analyse",
        "samples/positions/one-two-one.txt",
        "--probabilities",
        "--mines",
        "3",
    ]);
    run.expect_code(1);
    assert!(run.stderr.contains("no mine layout fits"), "{}", run.stderr);
}

#[test]
fn density_weighs_layouts_by_their_mines() {
    // `? 1 ?` over open cells and an interior cell: the 1's pair holds
    // one mine whatever the density; the interior cell holds one with
    // chance D.
    let p = Positions::new("density", &[("d.txt", "?1?*?\n*****\n")]);
    let run = sapper([
        "analyse",
        &p.path("d.txt"),
        "--probabilities",
        "--density",
        "0.3",
        "--json",
    ]);
    run.expect_code(0);
    let o = &run.json_lines()[0];
    assert_eq!(
        grid(o)[0],
        vec![Some(0.5), None, Some(0.5), None, Some(0.3)]
    );
    // The layouts that fit the numbers, any number of mines: 2 · 2.
    assert_eq!(o["layouts"], "4");
    for bad in ["0", "1", "-0.5", "nan", "2"] {
        let run = sapper([
            "analyse",
            &p.path("d.txt"),
            "--probabilities",
            "--density",
            bad,
        ]);
        run.expect_code(2);
    }
}

#[test]
fn mines_that_contradict_the_file_are_an_error_for_that_position() {
    let run = sapper([
        "analyse",
        "samples/positions/total-decides.txt",
        "samples/positions/one-two-one.txt",
        "--probabilities",
        "--mines",
        "3",
        "--json",
    ]);
    run.expect_code(1);
    assert!(
        run.stderr
            .contains("the position says `mines 2` but --mines 3 was given"),
        "{}",
        run.stderr
    );
    let o = run.json_lines();
    assert_eq!(o.len(), 2);
    assert!(o[0]["error"]
        .as_str()
        .unwrap()
        .contains("total-decides.txt"));
    // one-two-one has no total of its own: 3 mines do not fit.
    assert!(o[1]["error"]
        .as_str()
        .unwrap()
        .contains("no mine layout fits"));
}

#[test]
fn several_positions_come_out_in_order_bad_ones_included() {
    let p = Positions::new(
        "order",
        &[
            ("a.txt", "mines 1\n??\n"),
            ("b.txt", "mines 1\n?x\n"),
            ("c.txt", "mines 1\n?1\n"),
        ],
    );
    let (a, b, c) = (p.path("a.txt"), p.path("b.txt"), p.path("c.txt"));
    let run = sapper(["analyse", &a, &b, &c, "--probabilities", "--json"]);
    run.expect_code(1);
    let o = run.json_lines();
    assert_eq!(o.len(), 3);
    assert_eq!(o[0]["position"], a.as_str());
    assert_eq!(grid(&o[0]), vec![vec![Some(0.5), Some(0.5)]]);
    assert_eq!(o[1]["position"], b.as_str());
    assert!(o[1]["error"].as_str().unwrap().contains("b.txt:2:2"));
    assert_eq!(o[2]["position"], c.as_str());
    assert_eq!(grid(&o[2]), vec![vec![Some(1.0), None]]);
    assert!(
        run.stderr.contains("b.txt:2:2: unexpected `x`"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_dash_reads_the_position_from_standard_input() {
    let run = sapper_with(
        &repo(),
        ["analyse", "-", "--probabilities", "--json"],
        Some("mines 1\n?1?\n"),
        0,
    );
    run.expect_code(0);
    let o = &run.json_lines()[0];
    assert_eq!(o["position"], "-");
    assert_eq!(grid(o), vec![vec![Some(0.5), None, Some(0.5)]]);
    let run = sapper_with(
        &repo(),
        ["analyse", "-", "--probabilities"],
        Some("mines 1\n?1?\n?q?\n"),
        0,
    );
    run.expect_code(1);
    assert!(run.stderr.contains("<stdin>:3:2"), "{}", run.stderr);
}

#[test]
fn the_human_report_shows_the_grid_the_safest_cells_and_the_layouts() {
    let p = Positions::new("human", &[("h.txt", "mines 2\n?1?*?\n*F***\n")]);
    let run = sapper(["analyse", &p.path("h.txt"), "--probabilities"]);
    run.expect_code(0);
    // The flag satisfies the 1: (0,0) and (0,2) are safe, and (0,4) holds
    // the second mine.
    let out = &run.stdout;
    assert!(
        out.contains("3 closed cells, 2 proven safe, 1 proven mine"),
        "{out}"
    );
    assert!(out.contains("   S   1   S   *   M"), "{out}");
    assert!(out.contains("   *   F   *   *   *"), "{out}");
    assert!(out.contains("safest (proven safe): (0,0) (0,2)"), "{out}");
    assert!(out.contains("layouts: 1 (10^0.00)"), "{out}");
    let p = Positions::new("percent", &[("p.txt", "mines 1\n???\n")]);
    let run = sapper(["analyse", &p.path("p.txt"), "--probabilities"]);
    run.expect_code(0);
    assert!(run.stdout.contains("  33% 33% 33%"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("safest (mine probability 33.3%): (0,0) (0,1) (0,2)"),
        "{}",
        run.stdout
    );
}

#[test]
fn positions_with_nothing_to_count_give_sensible_answers() {
    let p = Positions::new(
        "edges",
        &[
            // No closed cell at all.
            ("none.txt", "mines 1\n1F\n"),
            // No number: every closed cell is interior.
            ("no-numbers.txt", "mines 3\n????\n????\n"),
            // Every closed cell forced.
            ("all-forced.txt", "mines 2\n?2?\n121\n...\n"),
        ],
    );
    let run = sapper([
        "analyse",
        &p.path("none.txt"),
        &p.path("no-numbers.txt"),
        &p.path("all-forced.txt"),
        "--probabilities",
        "--json",
    ]);
    run.expect_code(0);
    let o = run.json_lines();
    assert_eq!(grid(&o[0]), vec![vec![None, None]]);
    assert_eq!(o[0]["layouts"], "1");
    assert_eq!(cells(&o[0]["safest"]), Vec::<(u64, u64)>::new());
    assert!(grid(&o[1]).iter().flatten().all(|p| *p == Some(3.0 / 8.0)));
    assert_eq!(o[1]["layouts"], "56");
    assert_eq!(grid(&o[2])[0], vec![Some(1.0), None, Some(1.0)]);
    assert_eq!(o[2]["unknown_left"], 0);
}

#[test]
fn the_analysis_keys_come_with_deductions_and_agree() {
    let run = sapper([
        "analyse",
        "tests/inputs/positions/wall-121-total3.txt",
        "--probabilities",
        "--deductions",
        "--json",
    ]);
    run.expect_code(0);
    let o = &run.json_lines()[0];
    assert_eq!(cells(&o["safe"]), [(1, 0), (4, 0), (4, 1)]);
    assert_eq!(cells(&o["mines"]), [(0, 0), (2, 0)]);
    assert_eq!(o["deductions"].as_array().unwrap().len(), 5);
    assert!(o["by_source"].is_object());
    let g = grid(o);
    assert_eq!(g[0][0], Some(1.0));
    assert_eq!(g[1][0], Some(0.0));
    assert_eq!(g[4][0], Some(0.0));
}

#[test]
fn a_budget_too_small_refuses_and_names_the_component_the_default_answers() {
    let run = sapper([
        "analyse",
        "tests/inputs/positions/lattice-13x13.txt",
        "--probabilities",
        "--budget-mb",
        "1",
    ]);
    run.expect_code(1);
    assert!(
        run.stderr
            .contains("frontier component of 120 cells at (0,1)")
            && run
                .stderr
                .contains("within 1 MB (--budget-mb raises the limit)"),
        "{}",
        run.stderr
    );
    let answered = sapper([
        "analyse",
        "tests/inputs/positions/lattice-13x13.txt",
        "--probabilities",
    ]);
    answered.expect_code(0);
    assert!(
        answered.stdout.contains("layouts: 18248784 "),
        "{}",
        answered.stdout
    );
}

#[test]
fn output_bytes_do_not_depend_on_the_thread_count() {
    let files: Vec<String> = [
        "samples/positions/total-decides.txt",
        "tests/inputs/positions/wall-121-total3.txt",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain((0..12).map(|k| {
        format!(
            "samples/positions/{}",
            ["total-decides.txt", "one-two-one.txt"][k % 2]
        )
    }))
    .collect();
    let mut args: Vec<&str> = vec!["analyse", "--probabilities", "--mines", "2", "--json"];
    args.extend(files.iter().map(|s| s.as_str()));
    let strip = |s: &str| -> String {
        s.lines()
            .map(|l| l.split(",\"micros\":").next().unwrap().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let one = sapper_with(&repo(), &args, Some(""), 1);
    let two = sapper_with(&repo(), &args, Some(""), 2);
    assert_eq!(one.code, two.code);
    assert_eq!(strip(&one.stdout), strip(&two.stdout));
    assert_eq!(one.stderr, two.stderr);
}

#[test]
fn the_documented_examples_are_what_the_binary_prints() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let command = "$ sapper analyse samples/positions/guess.txt --probabilities\n";
    let start = readme
        .find(command)
        .expect("the worked example is in the README")
        + command.len();
    let end = start + readme[start..].find("```").unwrap();
    let run = sapper(["analyse", "samples/positions/guess.txt", "--probabilities"]);
    run.expect_code(0);
    assert_eq!(run.stdout, &readme[start..end]);
    // The JSON line, but for the time: docs/design.md §6 shows it.
    let design = std::fs::read_to_string(repo().join("docs/design.md")).unwrap();
    let command = "$ sapper analyse samples/positions/guess.txt --probabilities --json\n";
    let start = design
        .find(command)
        .expect("the JSON example is in docs/design.md")
        + command.len();
    let shown = &design[start..start + design[start..].find('\n').unwrap()];
    let run = sapper([
        "analyse",
        "samples/positions/guess.txt",
        "--probabilities",
        "--json",
    ]);
    let o = &run.json_lines()[0];
    let rows = grid(o);
    assert!(shown.contains(
        &format!("{:?}", rows[6])
            .replace(' ', "")
            .replace("Some(", "")
            .replace(')', "")
    ));
    let tail =
        |s: &str| s[s.find("\"safest\"").unwrap()..s.find(",\"micros\"").unwrap()].to_string();
    assert_eq!(tail(shown), tail(run.stdout.trim_end()));
    let head = |s: &str| s[..s.find("\"probabilities\"").unwrap()].to_string();
    assert_eq!(head(shown), head(&run.stdout));
}
