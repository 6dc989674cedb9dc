//! Unit tests of the index: rules in every orientation and corner, the
//! masks and tables, merged and chained entries, and every way of reading
//! the numbers agreeing.

use super::layout::{
    focus_info, outside_mask, FocusClasses, FRAME_COL_BITS, FRAME_ROW_BITS, ORDER_1, ORDER_2,
};
use super::scan::{finish, Divisor};
use super::tables::MASK9_IMAGES;
use super::{FociReading, RuleIndex};
use crate::board::{Board, Cell, Forced, Value};
use crate::grid::Grid;
use crate::rules::{Pattern, PatternCell, Rule, RuleKind};
use PatternCell::*;

/// A board from a picture: `?` unknown, `*` known mine, `.` known
/// safe, digits revealed (the shared helper spells a mine `F`).
fn board(rows: &[&str]) -> Board {
    let rows: Vec<String> = rows.iter().map(|r| r.replace('*', "F")).collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    crate::board::board_from_picture(&rows, None)
}

/// `1 1` on a wall: the third cell under the second 1 is safe.
///   # # # #
///   # 1 1 .
///   # ? ? s
fn one_one_wall() -> Rule {
    let cells = vec![
        Wall,
        Wall,
        Wall,
        Wall, //
        Wall,
        Number(1),
        Number(1),
        Open, //
        Wall,
        Closed,
        Closed,
        Closed,
    ];
    Rule {
        pattern: Pattern::new(3, 4, cells),
        kind: RuleKind::Forced,
        safe: 1 << 11,
        mine: 0,
    }
    .canonical()
}

#[test]
fn a_rule_matches_in_every_corner_orientation() {
    let index = RuleIndex::from_rules(&[one_one_wall()]);
    assert_eq!(index.len(), 1);
    assert_eq!(index.stats().images_by_order[2], 8);
    // The same situation in the four corners, both directions.
    let cases: [(&[&str], u32); 4] = [
        (&["11.", "???"], 5),
        (&["???", ".11"], 0),
        (&["1?", "1?", ".?"], 5),
        (&["?.", "?1", "?1"], 0),
    ];
    for (rows, cell) in cases {
        let b = board(rows);
        let mut out = Vec::new();
        index.find(&b, None, &mut out).unwrap();
        assert_eq!(
            out,
            vec![(
                Forced {
                    cell,
                    value: Value::Safe
                },
                2
            )],
            "{rows:?}"
        );
    }
    // Away from the wall the pattern does not match.
    let b = board(&["....", ".11.", "????"]);
    let mut out = Vec::new();
    index.find(&b, None, &mut out).unwrap();
    assert!(out.is_empty());
}

#[test]
fn malformed_rules_are_rejected_with_a_reason() {
    let good = one_one_wall();
    let mut any_neighbour = good.clone();
    let focus = any_neighbour
        .pattern
        .cells
        .iter()
        .position(|c| matches!(c, Number(_)))
        .unwrap();
    let w = any_neighbour.pattern.w as usize;
    // A cell next to the first focus becomes Any.
    let next = if focus % w + 1 < w {
        focus + 1
    } else {
        focus - 1
    };
    if any_neighbour.safe >> next & 1 == 1 {
        any_neighbour.safe = 0;
    }
    any_neighbour.pattern.cells[next] = Any;
    let mut open_conclusion = good.clone();
    let open = open_conclusion
        .pattern
        .cells
        .iter()
        .position(|c| *c == Open)
        .unwrap();
    open_conclusion.mine = 1 << open;
    let no_focus = Rule {
        pattern: Pattern::new(1, 1, vec![Closed]),
        kind: RuleKind::Forbidden,
        safe: 0,
        mine: 0,
    };
    let mut empty = good.clone();
    empty.safe = 0;
    // Two foci 4 columns apart (window 7).
    let mut far = vec![Open; 3 * 7];
    far[8] = Number(0);
    far[12] = Number(0);
    far[7] = Closed;
    let far = Rule {
        pattern: Pattern::new(3, 7, far),
        kind: RuleKind::Forced,
        safe: 1 << 7,
        mine: 0,
    };
    let rules = [good, any_neighbour, open_conclusion, no_focus, empty, far];
    let index = RuleIndex::from_rules(&rules);
    assert_eq!(index.len(), 1);
    let rejected: Vec<usize> = index.rejected().iter().map(|r| r.rule).collect();
    assert_eq!(rejected, vec![1, 2, 3, 4, 5]);
    for r in index.rejected() {
        assert!(!r.reason.is_empty(), "{r}");
    }
}

/// A non-`Any` cell outside every focus neighbourhood is tested
/// literally: here a `Closed` cell two columns right of a 0.
#[test]
fn extra_cells_outside_the_neighbourhoods_are_checked() {
    //   ? ? ? _ ?
    //   ? 0 ? _ .
    //   ? ? ? _ _
    let mut cells = vec![Closed; 15];
    cells[6] = Number(0);
    cells[3] = Any;
    cells[8] = Any;
    cells[13] = Any;
    cells[14] = Any;
    cells[4] = Closed;
    cells[9] = Open;
    let safe = [0, 1, 2, 5, 7, 10, 11, 12]
        .iter()
        .fold(0u64, |m, b| m | 1 << b);
    let rule = Rule {
        pattern: Pattern::new(3, 5, cells),
        kind: RuleKind::Forced,
        safe,
        mine: 0,
    };
    let index = RuleIndex::from_rules(&[rule]);
    assert!(index.rejected().is_empty());
    assert_eq!(index.stats().checked_entries, index.stats().entries);
    let mut out = Vec::new();
    index
        .find(&board(&["?????", "?0?.1", "?????"]), None, &mut out)
        .unwrap();
    assert_eq!(out.len(), 8, "extra cells unknown/open as required");
    out.clear();
    // (0,4) must be unknown — and (2,4) for the upside-down image.
    index
        .find(&board(&["????.", "?0?.1", "????."]), None, &mut out)
        .unwrap();
    assert_eq!(out.len(), 0);
    index
        .find(&board(&["????.", "?0?.1", "?????"]), None, &mut out)
        .unwrap();
    assert_eq!(out.len(), 8, "the upside-down image matches");
    out.clear();
    out.clear();
    // Outside the field counts as open, never as closed.
    index
        .find(&board(&["???", "?0?", "???"]), None, &mut out)
        .unwrap();
    assert_eq!(out.len(), 0);
}

#[test]
fn outside_mask_marks_the_frame_cells_off_the_field() {
    let g = Grid::new(1, 1);
    let mask = outside_mask(g, 0, 0);
    // Only the anchor itself, frame (1, 4), is inside.
    assert_eq!(!mask & ((1u64 << 54) - 1), 1 << (9 + 4));
    let g = Grid::new(10, 10);
    assert_eq!(outside_mask(g, 5, 4), 0);
    assert_eq!(outside_mask(g, 5, 3), FRAME_COL_BITS);
    assert_eq!(outside_mask(g, 6, 4), FRAME_ROW_BITS << (5 * 9));
}

#[test]
fn focus_info_reads_effective_values_and_closed_masks() {
    let b = board(&["?*?", "?3.", "2??"]);
    let every: FocusClasses = [ORDER_1; 81];
    let f = focus_info(&b, &every, 1, 1);
    assert_eq!(f.value(), 2);
    assert_eq!(f.order1, 2 * 512 + 0b110_001_101);
    assert_eq!(f.spread, 0b11 << 19 | 1 << 9 | 0b101);
    // Corner: neighbours outside the field are not closed.
    let f = focus_info(&b, &every, 2, 0);
    assert_eq!(f.value(), 2);
    // (1,0) is the 3×3's top middle, (2,1) its middle right.
    assert_eq!(f.order1 & 511, 0b000_100_010);
    // Only the orders whose foci have that value and count.
    let mut classes: FocusClasses = [0; 81];
    classes[2 * 9 + 2] = ORDER_2;
    assert_eq!(focus_info(&b, &classes, 2, 0).orders, ORDER_2);
    assert_eq!(focus_info(&b, &classes, 1, 1).orders, 0);
    // Too many flags: no value any pattern has.
    let b = board(&["**", "1?"]);
    assert_eq!(focus_info(&b, &every, 1, 0).orders, 0);
}

#[test]
fn finish_keeps_the_lowest_order_once_per_cell() {
    let f = |cell, value| Forced { cell, value };
    let mut out = vec![
        (f(9, Value::Mine), 1),
        (f(3, Value::Safe), 3),
        (f(3, Value::Safe), 2),
        (f(1, Value::Mine), 2),
        (f(3, Value::Safe), 2),
    ];
    finish(&mut out, 1).unwrap();
    assert_eq!(
        out,
        vec![
            (f(9, Value::Mine), 1),
            (f(1, Value::Mine), 2),
            (f(3, Value::Safe), 2)
        ]
    );
    let mut out = vec![(f(3, Value::Safe), 1), (f(3, Value::Mine), 2)];
    assert_eq!(finish(&mut out, 0).unwrap_err().cells, vec![3]);
}

/// `one_one_wall` with its walls read as open cells: the same key in
/// every orientation, different walls.
fn one_one_open() -> Rule {
    let mut rule = one_one_wall();
    for cell in &mut rule.pattern.cells {
        if *cell == Wall {
            *cell = Open;
        }
    }
    rule.canonical()
}

#[test]
fn images_with_one_key_and_different_walls_share_a_chain() {
    let index = RuleIndex::from_rules(&[one_one_wall(), one_one_open()]);
    let stats = index.stats();
    assert_eq!(stats.images_by_order[2], 16);
    assert_eq!(stats.multi_keys, 8);
    assert_eq!(stats.entries, 16);
    assert_eq!(stats.checked_entries, 8);
    // In the corner both match (outside the field counts as open).
    let mut out = Vec::new();
    index.find(&board(&["11.", "???"]), None, &mut out).unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].0.cell, 5);
    // Away from the walls only the open one, whichever entry of the
    // chain comes first.
    for rules in [
        [one_one_wall(), one_one_open()],
        [one_one_open(), one_one_wall()],
    ] {
        let index = RuleIndex::from_rules(&rules);
        let mut out = Vec::new();
        index
            .find(&board(&["....", ".11.", ".???"]), None, &mut out)
            .unwrap();
        let expected = Forced {
            cell: 11,
            value: Value::Safe,
        };
        assert_eq!(out, vec![(expected, 2)]);
    }
}

#[test]
fn identical_images_of_different_rules_are_merged() {
    let rule = one_one_wall();
    let index = RuleIndex::from_rules(&[rule.clone(), rule.clone()]);
    assert_eq!(index.len(), 2);
    assert_eq!(index.stats().entries, 8);
    // A forbidden rule with the same pattern makes the merged entries
    // forbidden, in either order.
    let mut forbidden = rule.clone();
    forbidden.kind = RuleKind::Forbidden;
    forbidden.safe = 0;
    for rules in [
        [rule.clone(), forbidden.clone()],
        [forbidden.clone(), rule.clone()],
    ] {
        let index = RuleIndex::from_rules(&rules);
        let stats = index.stats();
        assert_eq!((stats.entries, stats.forbidden_entries), (8, 8));
        let err = index
            .find(&board(&["11.", "???"]), None, &mut Vec::new())
            .unwrap_err();
        assert_eq!(err.cells, vec![0, 1]);
    }
}

#[test]
fn a_symmetric_rule_is_stored_once_per_distinct_image() {
    // A 0 with every neighbour closed: all 8 images are the same rule.
    let mut cells = vec![Closed; 9];
    cells[4] = Number(0);
    let rule = Rule {
        pattern: Pattern::new(3, 3, cells),
        kind: RuleKind::Forced,
        safe: 0b111_101_111,
        mine: 0,
    };
    let index = RuleIndex::from_rules(&[rule]);
    assert_eq!(index.stats().images_by_order[1], 1);
    assert_eq!(index.stats().entries, 1);
    // `2 2` over two closed cells, open around: both are mines. The
    // rule is its own left-right mirror image: 4 distinct images.
    let mut cells = vec![Open; 12];
    cells[5] = Number(2);
    cells[6] = Number(2);
    cells[9] = Closed;
    cells[10] = Closed;
    let rule = Rule {
        pattern: Pattern::new(3, 4, cells),
        kind: RuleKind::Forced,
        safe: 0,
        mine: 1 << 9 | 1 << 10,
    };
    let index = RuleIndex::from_rules(&[rule.canonical()]);
    assert_eq!(index.stats().images_by_order[2], 4);
}

#[test]
fn every_way_of_reading_the_numbers_agrees() {
    let index = RuleIndex::from_rules(&[one_one_wall(), one_one_open()]);
    // A board wider and taller than the cache (8 × 16), numbers
    // everywhere: cache lines are reused across dirty numbers.
    let rows: Vec<String> = (0..20)
        .map(|r| {
            (0..37)
                .map(|c| match (r % 3, c % 5) {
                    (2, _) => '?',
                    (_, 3) | (_, 4) => '.',
                    _ => '1',
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let b = board(&rows);
    let numbers: Vec<u32> = (0..b.grid().len() as u32)
        .filter(|&i| matches!(b.cell(i), Cell::Revealed(_)))
        .collect();
    let mut full = Vec::new();
    index
        .find_with(&b, None, FociReading::Table, &mut full)
        .unwrap();
    assert!(!full.is_empty());
    for reading in [FociReading::Auto, FociReading::Table, FociReading::Cached] {
        let mut all = Vec::new();
        index.find_with(&b, None, reading, &mut all).unwrap();
        assert_eq!(all, full, "{reading:?}");
        // Every number dirty, in a scattered order.
        let mut scattered = numbers.clone();
        scattered.sort_by_key(|&i| (i * 7919) % 1009);
        let mut dirty = Vec::new();
        index
            .find_with(&b, Some(&scattered), reading, &mut dirty)
            .unwrap();
        assert_eq!(dirty, full, "{reading:?}");
    }
}

#[test]
fn divisor_agrees_with_division() {
    for d in [1u32, 2, 3, 7, 9, 16, 30, 37, 1000, 65_537, u32::MAX] {
        let div = Divisor::new(d);
        let samples = (0..2000u32)
            .chain([d - 1, d, d.wrapping_add(1), u32::MAX - 1, u32::MAX])
            .chain((0..2000u32).map(|k| k.wrapping_mul(2_654_435_761)));
        for n in samples {
            assert_eq!(div.div_rem(n), (n / d, n % d), "{n} / {d}");
        }
    }
}

#[test]
fn mask9_images_turn_like_patterns() {
    for (sym, images) in MASK9_IMAGES.iter().enumerate() {
        for (mask, &image) in images.iter().enumerate() {
            let cells = (0..9)
                .map(|b| if mask >> b & 1 == 1 { Closed } else { Open })
                .collect();
            let turned = Pattern::new(3, 3, cells).transform(sym);
            let expected = (0..9)
                .filter(|&b| turned.cells[b] == Closed)
                .fold(0u16, |m, b| m | 1 << b);
            assert_eq!(image, expected, "sym {sym} mask {mask:09b}");
        }
    }
}
