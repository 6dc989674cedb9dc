use super::square;
use super::*;
use crate::test_rng::TestRng;

/// A layout from a picture: `*` a mine, anything else safe (the numbers
/// are computed).
fn field(rows: &[&str]) -> Field {
    let grid = Grid::new(rows.len(), rows[0].len());
    let mine = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|c| c == '*')
        .collect();
    Field::from_mines(grid, mine, vec![false; grid.len()])
}

fn random_field(rng: &mut TestRng, h: usize, w: usize, percent: usize) -> Field {
    let grid = Grid::new(h, w);
    let mine = (0..grid.len()).map(|_| rng.below(100) < percent).collect();
    Field::from_mines(grid, mine, vec![false; grid.len()])
}

/// Plays clicks with the game's rules; the open cells after them, or the
/// first click that does nothing or loses.
fn play(field: &Field, clicks: &[Click]) -> Result<Vec<bool>, String> {
    let (h, w) = (field.grid.h, field.grid.w);
    let mut open = vec![false; field.grid.len()];
    let mut flag = vec![false; field.grid.len()];
    fn reveal(field: &Field, open: &mut [bool], flag: &[bool], cell: u32) -> bool {
        let mut stack = vec![cell];
        let mut any = false;
        while let Some(c) = stack.pop() {
            if open[c as usize] || flag[c as usize] {
                continue;
            }
            open[c as usize] = true;
            any = true;
            if field.value[c as usize] == 0 {
                stack.extend(square(field.grid.h, field.grid.w, c));
            }
        }
        any
    }
    for (k, click) in clicks.iter().enumerate() {
        let c = click.cell as usize;
        let did = match click.action {
            Action::Open => {
                if field.mine[c] {
                    return Err(format!("click {k} opens a mine"));
                }
                !flag[c] && reveal(field, &mut open, &flag, click.cell)
            }
            Action::Flag => {
                let closed = !open[c] && !flag[c];
                flag[c] = true;
                closed
            }
            Action::Chord => {
                let around: Vec<u32> = square(h, w, click.cell).collect();
                let flags = around.iter().filter(|&&q| flag[q as usize]).count();
                if !open[c] || flags != usize::from(field.value[c]) {
                    false
                } else {
                    let mut any = false;
                    for q in around {
                        if !open[q as usize] && !flag[q as usize] {
                            if field.mine[q as usize] {
                                return Err(format!("click {k} chords onto a mine"));
                            }
                            any |= reveal(field, &mut open, &flag, q);
                        }
                    }
                    any
                }
            }
        };
        if !did {
            return Err(format!("click {k} ({click:?}) does nothing"));
        }
    }
    Ok(open)
}

fn clears(field: &Field, clicks: &[Click]) -> bool {
    match play(field, clicks) {
        Ok(open) => (0..open.len()).all(|i| open[i] || field.mine[i]),
        Err(_) => false,
    }
}

/// Two openings split by a row of mines, a column of mines on the right:
/// the numbers right of it and the gap cell (2,5) touch no 0.
const SPLIT: [&str; 5] = [
    "......*.", //
    "......*.", //
    "*****.*.", //
    "......*.", //
    "......*.", //
];

#[test]
fn a_board_of_two_openings_and_isolated_numbers_is_counted_by_hand() {
    let f = field(&SPLIT);
    let u = Units::new(&f);
    // Row 0 and row 4, columns 0-4.
    assert_eq!(u.openings(), 2);
    assert_eq!(u.opening_of(0), Some(0));
    assert_eq!(u.opening_of(f.grid.index(4, 4)), Some(1));
    assert_eq!(u.opening_of(f.grid.index(1, 0)), None);
    // Column 7 (one island) and (2,5) (another).
    assert_eq!(u.isolated_numbers(), 6);
    assert!(u.is_isolated(f.grid.index(2, 5)));
    assert!(!u.is_isolated(f.grid.index(1, 5)));
    assert_eq!(u.islands(), 2);
    assert_eq!(u.bbbv(), 8);
    assert_eq!(u.numbers()[0], 10);
    let safe = f.mine.iter().filter(|&&m| !m).count() as u32;
    assert_eq!(u.numbers().iter().sum::<u32>(), safe);
}

#[test]
fn a_board_without_zeros_is_all_isolated_numbers() {
    let f = field(&["*.*", ".*.", "*.*"]);
    let u = Units::new(&f);
    assert_eq!((u.openings(), u.isolated_numbers(), u.islands()), (0, 4, 1));
    assert_eq!(u.numbers(), [0, 0, 0, 4, 0, 0, 0, 0, 0]);
    // Every mine but none to flag helps: four left clicks, no chord.
    assert_eq!(zini(&f).len(), 4);
}

#[test]
fn boards_of_one_cell_and_all_mines_need_what_they_have() {
    let empty = field(&["."]);
    assert_eq!(Metrics::of(&empty).bbbv, 1);
    assert_eq!(
        zini(&empty),
        [Click {
            action: Action::Open,
            cell: 0
        }]
    );
    let mines = field(&["**", "**"]);
    let m = Metrics::of(&mines);
    assert_eq!((m.bbbv, m.openings, m.islands, m.zini), (0, 0, 0, 0));
    assert_eq!(m.numbers, [0; 9]);
    assert_eq!(min_clicks(&mines, 10), Ok(vec![]));
    let none = Field::from_mines(Grid::new(0, 0), vec![], vec![]);
    assert_eq!(Metrics::of(&none).zini, 0);
}

#[test]
fn solved_counts_isolated_numbers_revealed_and_openings_with_every_zero_revealed() {
    let f = field(&SPLIT);
    let u = Units::new(&f);
    let mut revealed = vec![false; f.grid.len()];
    assert_eq!(u.solved(&revealed), 0);
    // Every 0-cell of both openings but (0,0): only the lower one is done.
    for (i, r) in revealed.iter_mut().enumerate().skip(1) {
        *r = u.opening_of(i as u32).is_some();
    }
    assert_eq!(u.solved(&revealed), 1);
    revealed[0] = true;
    assert_eq!(u.solved(&revealed), 2);
    // Their border numbers are not needed; an isolated number counts alone,
    // a border number not at all.
    revealed[7] = true;
    revealed[f.grid.index(1, 0) as usize] = true;
    assert!(u.is_isolated(7));
    assert_eq!(u.solved(&revealed), 3);
    let all: Vec<bool> = f.mine.iter().map(|&m| !m).collect();
    assert_eq!(u.solved(&all), u.bbbv());
}

#[test]
fn zini_and_hzini_clear_random_boards_without_a_wasted_click() {
    let mut rng = TestRng::new(36);
    for round in 0..600 {
        let (h, w) = (1 + rng.below(12), 1 + rng.below(12));
        let percent = 5 + rng.below(40);
        let f = random_field(&mut rng, h, w, percent);
        let units = Units::new(&f);
        for clicks in [zini(&f), hzini(&f)] {
            assert!(clears(&f, &clicks), "round {round}: {h}x{w}");
            // Never more clicks than 3BV, whose left clicks clear it.
            assert!(clicks.len() as u32 <= units.bbbv(), "round {round}");
        }
    }
}

#[test]
fn the_exact_minimum_clears_the_board_and_is_at_most_zini() {
    let mut rng = TestRng::new(7);
    for round in 0..300 {
        let (h, w) = (1 + rng.below(6), 1 + rng.below(6));
        let percent = 5 + rng.below(30);
        let f = random_field(&mut rng, h, w, percent);
        let best = min_clicks(&f, 1_000_000).unwrap();
        assert!(clears(&f, &best), "round {round}");
        assert!(best.len() <= zini(&f).len(), "round {round}");
    }
}

#[test]
fn a_ring_around_one_mine_takes_five_clicks_not_eight() {
    // Eight isolated 1s: 3BV 8. Open an edge cell, flag the mine, chord
    // it, then two more chords; no four clicks cover the ring.
    let f = field(&["...", ".*.", "..."]);
    assert_eq!(Units::new(&f).bbbv(), 8);
    assert_eq!(min_clicks(&f, 1000).unwrap().len(), 5);
    assert_eq!(zini(&f).len(), 5);
}

#[test]
fn min_clicks_refuses_large_boards_and_stops_at_its_limit() {
    let big = Field::from_mines(Grid::new(5, 13), vec![false; 65], vec![false; 65]);
    assert_eq!(
        min_clicks(&big, 10),
        Err(MinClicksError::TooLarge { cells: 65 })
    );
    let f = field(&["*.*.*", ".....", "*.*.*", ".....", "*.*.*"]);
    assert_eq!(
        min_clicks(&f, 3),
        Err(MinClicksError::TooManyPositions { limit: 3 })
    );
}

#[test]
fn the_first_unit_clicked_is_the_first_in_column_major_order() {
    // No premium reaches 0 at the start: the first click is a left click
    // on (1,0), an isolated 2, which comes before the opening's (0,2) in
    // column-major order (not in row-major order).
    let f = field(&["*.....*", ".......", "*.....*"]);
    assert!(f.grid.index(0, 2) < f.grid.index(1, 0));
    let clicks = zini(&f);
    assert_eq!(
        clicks[0],
        Click {
            action: Action::Open,
            cell: f.grid.index(1, 0)
        }
    );
}
