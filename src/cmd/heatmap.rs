//! The one colour palette of the probability heat map, its cell labels,
//! and its SVG renderer.
//!
//! The web page (`sapper serve`) fetches the palette from `/palette.json`
//! ([`palette_json`]) and `sapper analyse --probabilities --svg FILE`
//! draws with [`svg`]: both look a probability up in the same table of
//! [`STEPS`] colours ([`heat_index`]), so the page and the picture agree
//! to the pixel on every cell's colour.

use sapper_engine::report::ProbabilityReport;
use sapper_engine::{Cell, Grid};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Colours in the heat table: a probability `p` is shown with entry
/// `round(p × (STEPS − 1))`.
pub const STEPS: usize = 256;

/// The heat ramp's stops, `(probability, RGB)`: green (safe) through
/// yellow to deep red (a mine), linear in RGB between stops.
const STOPS: [(f64, [u8; 3]); 7] = [
    (0.00, [0x1a, 0x98, 0x50]),
    (0.08, [0x91, 0xcf, 0x60]),
    (0.18, [0xd9, 0xef, 0x8b]),
    (0.30, [0xfe, 0xe0, 0x8b]),
    (0.50, [0xfc, 0x8d, 0x59]),
    (0.75, [0xd7, 0x30, 0x27]),
    (1.00, [0xa5, 0x00, 0x26]),
];

/// The fixed colours besides the ramp, by name: the page sets each as the
/// CSS variable `--NAME` (underscores as dashes).
pub const COLOURS: [(&str, &str); 11] = [
    // A closed cell with no probability shown (play, editing).
    ("closed", "#9aa5b1"),
    // A revealed cell (number or empty).
    ("revealed", "#e4e7eb"),
    // A proven-safe closed cell, and a proven mine.
    ("safe", "#0b7a3b"),
    ("mine", "#5c0016"),
    // A flag's cell and the flag on it.
    ("flag_bg", "#cbd2d9"),
    ("flag", "#c81e1e"),
    // The outline of the safest cells and of the player's move.
    ("safest", "#1f4fd1"),
    ("move", "#8a2be2"),
    // Grid lines, the page background, ordinary text.
    ("grid", "#52606d"),
    ("background", "#f5f7fa"),
    ("text", "#1f2933"),
];

/// The colours of the numbers 1–8 (index 0 unused: a 0 is blank).
pub const NUMBERS: [&str; 9] = [
    "#000000", "#1c3fd1", "#167a2c", "#c81e1e", "#102a83", "#7b1e1e", "#0e7c86", "#111111",
    "#6b7280",
];

/// The named colour `name` of [`COLOURS`].
fn colour(name: &str) -> &'static str {
    COLOURS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| *c)
        .expect("a palette colour")
}

/// The heat table entry of probability `p` (clamped into 0–1; NaN is 0).
pub fn heat_index(p: f64) -> usize {
    let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
    (p * (STEPS - 1) as f64).round() as usize
}

/// The RGB colour of heat table entry `k`.
fn heat_rgb(k: usize) -> [u8; 3] {
    let p = k as f64 / (STEPS - 1) as f64;
    let i = STOPS
        .windows(2)
        .position(|w| p <= w[1].0)
        .unwrap_or(STOPS.len() - 2);
    let ((p0, a), (p1, b)) = (STOPS[i], STOPS[i + 1]);
    let t = ((p - p0) / (p1 - p0)).clamp(0.0, 1.0);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t).round() as u8;
    [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])]
}

/// `#rrggbb`.
fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The heat colour of probability `p`, `#rrggbb`.
pub fn heat(p: f64) -> String {
    hex(heat_rgb(heat_index(p)))
}

/// The text colour readable on heat entry `k`: dark on light colours,
/// white on dark ones (relative luminance below 0.4).
fn ink_on(k: usize) -> &'static str {
    let [r, g, b] = heat_rgb(k).map(|x| f64::from(x) / 255.0);
    if 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.4 {
        "#ffffff"
    } else {
        "#111111"
    }
}

/// The palette as the page reads it: `{"steps", "heat": ["#rrggbb", ...],
/// "ink": [...], "colours": {name: "#rrggbb"}, "numbers": [...]}`.
pub fn palette_json() -> Value {
    let heat: Vec<String> = (0..STEPS).map(|k| hex(heat_rgb(k))).collect();
    let ink: Vec<&str> = (0..STEPS).map(ink_on).collect();
    let colours: serde_json::Map<String, Value> = COLOURS
        .iter()
        .map(|(n, c)| (n.to_string(), json!(c)))
        .collect();
    json!({"steps": STEPS, "heat": heat, "ink": ink, "colours": colours, "numbers": NUMBERS})
}

/// A closed cell's label: `S` proven safe, `M` proven mine, else a whole
/// percentage with `<1%` and `>99%` at the ends (the page writes the same).
pub fn label(p: f64) -> String {
    if p == 0.0 {
        return "S".into();
    }
    if p == 1.0 {
        return "M".into();
    }
    let whole = (p * 100.0).round();
    if whole < 1.0 {
        "<1%".into()
    } else if whole > 99.0 {
        ">99%".into()
    } else {
        format!("{}%", whole as u32)
    }
}

/// Side of a cell in the SVG, pixels.
const CELL: usize = 32;
/// Margin around the grid and height of the legend below it.
const MARGIN: usize = 12;
const LEGEND: usize = 54;

/// The heat map of a position (`cells`) as an SVG document: every closed
/// cell coloured by its mine probability in `report` with its label,
/// numbers and flags as a player sees them, the safest cells outlined, and
/// a legend with `caption` below.
pub fn svg(grid: Grid, cells: &[Cell], report: &ProbabilityReport, caption: &str) -> String {
    let per_cell = &report.per_cell;
    let (w, h) = (grid.w * CELL, grid.h * CELL);
    let width = (w + 2 * MARGIN).max(320);
    let height = h + 2 * MARGIN + LEGEND;
    let mut s = String::with_capacity(200 * grid.len() + 2048);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"{}\"/>\n\
         <g transform=\"translate({MARGIN},{MARGIN})\" text-anchor=\"middle\" \
         dominant-baseline=\"central\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"{}\"/>\n",
        colour("background"),
        colour("grid"),
    );
    let safest: std::collections::HashSet<u32> = report
        .safest
        .iter()
        .map(|c| grid.index(c.row, c.col))
        .collect();
    for i in 0..grid.len() as u32 {
        let (r, c) = grid.rc(i);
        let (x, y) = (c * CELL, r * CELL);
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        let (fill, text, ink, size) = match cells[i as usize] {
            Cell::Unknown => {
                let p = per_cell[i as usize];
                if p.is_nan() {
                    (colour("closed").to_string(), String::new(), "#111111", 11)
                } else if p == 0.0 {
                    (colour("safe").to_string(), label(p), "#ffffff", 13)
                } else if p == 1.0 {
                    (colour("mine").to_string(), label(p), "#ffffff", 13)
                } else {
                    let k = heat_index(p);
                    (heat(p), label(p), ink_on(k), 10)
                }
            }
            Cell::Mine => (
                colour("flag_bg").to_string(),
                "⚑".into(),
                colour("flag"),
                16,
            ),
            Cell::Safe => (colour("revealed").to_string(), "*".into(), "#52606d", 14),
            Cell::Revealed(0) => (colour("revealed").to_string(), String::new(), "#000", 14),
            Cell::Revealed(n) => (
                colour("revealed").to_string(),
                n.to_string(),
                NUMBERS[usize::from(n).min(8)],
                16,
            ),
        };
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"/>",
            x + 1,
            y + 1,
            CELL - 2,
            CELL - 2
        );
        if safest.contains(&i) {
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
                 stroke=\"{}\" stroke-width=\"2.5\"/>",
                x + 2,
                y + 2,
                CELL - 4,
                CELL - 4,
                colour("safest")
            );
        }
        if !text.is_empty() {
            let weight = if matches!(cells[i as usize], Cell::Revealed(_)) {
                " font-weight=\"bold\""
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "<text x=\"{cx}\" y=\"{cy}\" font-size=\"{size}\" fill=\"{ink}\"{weight}>{}</text>",
                escape(&text)
            );
        }
    }
    s.push_str("</g>\n");
    // The legend: the ramp from 0% to 100%, then the caption.
    let top = h + 2 * MARGIN + 4;
    let bar = (width - 2 * MARGIN).min(400);
    let _ = writeln!(
        s,
        "<defs><linearGradient id=\"heat\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">"
    );
    for k in (0..STEPS).step_by(15).chain(std::iter::once(STEPS - 1)) {
        let _ = writeln!(
            s,
            "<stop offset=\"{:.4}\" stop-color=\"{}\"/>",
            k as f64 / (STEPS - 1) as f64,
            hex(heat_rgb(k))
        );
    }
    let _ = writeln!(
        s,
        "</linearGradient></defs>\n\
         <rect x=\"{MARGIN}\" y=\"{top}\" width=\"{bar}\" height=\"12\" fill=\"url(#heat)\"/>\n\
         <text x=\"{MARGIN}\" y=\"{}\" font-size=\"11\" fill=\"{}\">0%</text>\n\
         <text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{}\" text-anchor=\"end\">100%</text>\n\
         <text x=\"{MARGIN}\" y=\"{}\" font-size=\"12\" fill=\"{}\">{}</text>\n</svg>",
        top + 26,
        colour("text"),
        MARGIN + bar,
        top + 26,
        colour("text"),
        top + 44,
        colour("text"),
        escape(caption)
    );
    s
}

/// Text escaped for SVG content.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ramp_runs_from_its_first_stop_to_its_last() {
        assert_eq!(heat(0.0), "#1a9850");
        assert_eq!(heat(1.0), "#a50026");
        assert_eq!(heat(f64::NAN), heat(0.0));
        assert_eq!(heat_index(0.5), 128);
        let p = palette_json();
        assert_eq!(p["heat"].as_array().unwrap().len(), STEPS);
        assert_eq!(p["heat"][255], "#a50026");
        assert_eq!(p["colours"]["safe"], colour("safe"));
    }

    #[test]
    fn labels_keep_0_and_100_for_forced_cells() {
        assert_eq!(label(0.0), "S");
        assert_eq!(label(1.0), "M");
        assert_eq!(label(0.001), "<1%");
        assert_eq!(label(0.999), ">99%");
        assert_eq!(label(0.375), "38%");
    }

    #[test]
    fn the_svg_draws_every_cell_with_its_label() {
        let p: sapper_engine::Position = "mines 1\n?1?\n".parse().unwrap();
        let report = sapper_engine::Engine::new()
            .unwrap()
            .probabilities(&p, None)
            .unwrap();
        let s = svg(p.grid, &p.cells, &report, "layouts: 2");
        assert!(s.starts_with("<svg"), "{s}");
        assert!(s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches("50%").count(), 2);
        assert!(s.contains(&heat(0.5)));
        assert!(s.contains(">1</text>"));
        assert!(s.contains("layouts: 2"));
    }
}
