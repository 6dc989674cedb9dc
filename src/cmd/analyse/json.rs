//! The JSON lines of `analyse --json` (keys and shapes: docs/design.md §6),
//! written straight into one byte buffer per position rather than built as
//! `serde_json` values first: a report of a 1000 × 1000 position is
//! megabytes, and writing the JSON is 14% of a whole `analyse
//! --probabilities --json` process over expert positions
//! (docs/performance-log.md). Numbers are written with `ryu` and `itoa`,
//! recent probabilities' texts kept ([`Formatted`]). The server answers
//! with the same functions.

use super::*;

/// `[[r,c],[r,c],...]`.
pub(super) fn cells_json(s: &mut Vec<u8>, grid: Grid, cells: impl IntoIterator<Item = u32>) {
    let mut digits = itoa::Buffer::new();
    s.push(b'[');
    for (k, cell) in cells.into_iter().enumerate() {
        if k > 0 {
            s.push(b',');
        }
        let (r, c) = grid.rc(cell);
        s.push(b'[');
        s.extend_from_slice(digits.format(r).as_bytes());
        s.push(b',');
        s.extend_from_slice(digits.format(c).as_bytes());
        s.push(b']');
    }
    s.push(b']');
}

/// The analysis as the start of a JSON object (no closing brace):
/// `{"position", "safe", "mines", "deductions", "by_source", "unknown_left"`.
pub(crate) fn forced_json(s: &mut Vec<u8>, shown: &str, grid: Grid, analysis: &Analysis) {
    let mut deds = analysis.deductions.clone();
    deds.sort_by_key(|d| d.cell);
    let (safe, mines) = forced_cells(analysis);
    let _ = write!(s, "{{\"position\":{}", json!(shown));
    s.extend_from_slice(b",\"safe\":");
    cells_json(s, grid, safe.iter().copied());
    s.extend_from_slice(b",\"mines\":");
    cells_json(s, grid, mines.iter().copied());
    s.extend_from_slice(b",\"deductions\":[");
    for (k, d) in deds.iter().enumerate() {
        if k > 0 {
            s.push(b',');
        }
        let (r, c) = grid.rc(d.cell);
        let _ = write!(
            s,
            "{{\"cell\":[{r},{c}],\"value\":\"{}\",\"source\":\"{}\"",
            d.value,
            d.source.name()
        );
        if let sapper_engine::Source::Rule { order } = d.source {
            let _ = write!(s, ",\"order\":{order}");
        }
        s.push(b'}');
    }
    let _ = write!(
        s,
        "],\"by_source\":{},\"unknown_left\":{}",
        by_source_json(&analysis.by_source),
        analysis.board.unknown_count()
    );
}

/// One JSON line: the forced cells (and with --deductions the analysis'
/// keys), then the probabilities, written by hand: a position has hundreds
/// of numbers, each printed shortest round-trip.
pub(crate) fn probabilities_json(
    shown: &str,
    board: &Board,
    analysis: Option<&Analysis>,
    p: &Probabilities,
    layouts: Option<String>,
    micros: f64,
) -> Vec<u8> {
    let grid = board.grid();
    // At most 25 bytes a closed cell (shortest round-trip and a comma), 5
    // for the rest, and the cell lists: grown at most once.
    let mut s = Vec::with_capacity(512 + 5 * grid.len() + 25 * p.closed_cells().len());
    match analysis {
        Some(a) => forced_json(&mut s, shown, grid, a),
        None => {
            let (safe, mines) = forced_by_count(p);
            let _ = write!(s, "{{\"position\":{}", json!(shown));
            s.extend_from_slice(b",\"safe\":");
            cells_json(&mut s, grid, safe.iter().copied());
            s.extend_from_slice(b",\"mines\":");
            cells_json(&mut s, grid, mines.iter().copied());
            let left = p.closed_cells().len() - safe.len() - mines.len();
            let _ = write!(s, ",\"unknown_left\":{left}");
        }
    }
    s.extend_from_slice(b",\"probabilities\":");
    probability_rows(&mut s, grid.w, p.per_cell());
    s.extend_from_slice(b",\"safest\":");
    cells_json(&mut s, grid, p.safest_cells());
    if let Some(l) = layouts {
        let _ = write!(s, ",\"layouts\":\"{l}\"");
    }
    let _ = writeln!(
        s,
        ",\"log10_layouts\":{},\"error_bound\":{},\"micros\":{}}}",
        ryu::Buffer::new().format_finite(p.log10_layouts()),
        ryu::Buffer::new().format_finite(p.error_bound()),
        ryu::Buffer::new().format_finite((micros * 10.0).round() / 10.0),
    );
    s
}

/// `per_cell` as JSON rows of `w` entries: `[[p,null,...],...]`, a NaN
/// (not a closed cell) as `null`, a probability shortest round-trip.
pub(super) fn probability_rows(s: &mut Vec<u8>, w: usize, per_cell: &[f64]) {
    let mut formatted = Formatted::default();
    s.push(b'[');
    for (r, row) in per_cell.chunks(w).enumerate() {
        s.extend_from_slice(if r == 0 { b"[" } else { b",[" });
        for (c, &x) in row.iter().enumerate() {
            if c > 0 {
                s.push(b',');
            }
            if x.is_nan() {
                s.extend_from_slice(b"null");
            } else {
                s.extend_from_slice(formatted.get(x));
            }
        }
        s.push(b']');
    }
    s.push(b']');
}

/// Probabilities formatted shortest round-trip, the last few kept: a
/// position's hundreds of entries take a few dozen values (every interior
/// cell has the same, and a row goes back and forth between it and its
/// frontier cells'), and formatting one costs hundreds of instructions.
pub(super) struct Formatted {
    number: ryu::Buffer,
    /// Each kept value's bits, and its text (length, bytes).
    kept: [(u64, u8, [u8; 24]); 8],
    /// The entry the last value found is in; the next entry to replace.
    last: usize,
    next: usize,
}

impl Default for Formatted {
    fn default() -> Self {
        Formatted {
            number: ryu::Buffer::new(),
            // NaN bits: never a probability's, so never found.
            kept: [(f64::NAN.to_bits(), 0, [0; 24]); 8],
            last: 0,
            next: 0,
        }
    }
}

impl Formatted {
    /// The text of `x` (finite).
    fn get(&mut self, x: f64) -> &[u8] {
        let bits = x.to_bits();
        if self.kept[self.last].0 != bits {
            match self.kept.iter().position(|k| k.0 == bits) {
                Some(k) => self.last = k,
                None => {
                    let text = self.number.format_finite(x).as_bytes();
                    let entry = &mut self.kept[self.next];
                    entry.0 = bits;
                    entry.1 = text.len() as u8;
                    entry.2[..text.len()].copy_from_slice(text);
                    self.last = self.next;
                    self.next = (self.next + 1) % self.kept.len();
                }
            }
        }
        let (_, len, text) = &self.kept[self.last];
        &text[..*len as usize]
    }
}
