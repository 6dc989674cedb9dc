//! The 8 symmetries of the square, acting on rules and boards: the table
//! ([`SYMMETRIES`]), where a point goes ([`map_point`]), and the canonical
//! form of a rule — the least image in the derived `Ord`
//! ([`Rule::canonical`] builds the images; [`is_canonical`] decides it
//! without allocating, for checking whole rulebases).

#[cfg(doc)]
use super::verify::check_structure;
use super::Rule;
use std::cmp::Ordering;

/// The 8 symmetries of the square, as `(transpose, flip rows, flip cols)`
/// applied in that order. Index 0 is the identity.
pub const SYMMETRIES: [(bool, bool, bool); 8] = [
    (false, false, false),
    (false, false, true),
    (false, true, false),
    (false, true, true),
    (true, false, false),
    (true, false, true),
    (true, true, false),
    (true, true, true),
];

/// Where cell `(r, c)` of an `h × w` rectangle (a pattern or a whole board)
/// goes under symmetry `sym` (index into [`SYMMETRIES`]): transpose, then
/// flip rows, then flip columns, each if the symmetry says so; and the
/// transformed shape `(h', w')`.
#[inline]
pub fn map_point(
    h: usize,
    w: usize,
    sym: usize,
    r: usize,
    c: usize,
) -> ((usize, usize), (usize, usize)) {
    let (t, fr, fc) = SYMMETRIES[sym];
    let (mut r, mut c, h2, w2) = if t { (c, r, w, h) } else { (r, c, h, w) };
    if fr {
        r = h2 - 1 - r;
    }
    if fc {
        c = w2 - 1 - c;
    }
    ((r, c), (h2, w2))
}

/// For one pattern shape `h × w`, the symmetries that keep the shape, each
/// as a table `source[i2]`: the cell of the pattern that lands on cell `i2`
/// of the image. Built once per shape (rules are sorted by shape).
pub(crate) struct ShapeSymmetries {
    pub(crate) shape: (u8, u8),
    /// Whether some symmetry maps the shape to a smaller one (`w < h`):
    /// then no rule of this shape is canonical.
    shrinks: bool,
    sources: Vec<[u8; 64]>,
}

impl ShapeSymmetries {
    /// The symmetries of shape `h × w`.
    pub(crate) fn new(h: u8, w: u8) -> ShapeSymmetries {
        let (h, w) = (h as usize, w as usize);
        let mut sources = Vec::new();
        let mut shrinks = false;
        // Index 0 is the identity.
        for &(transpose, flip_rows, flip_cols) in &SYMMETRIES[1..] {
            let (h2, w2) = if transpose { (w, h) } else { (h, w) };
            // Ord of Rule compares the pattern first: (h, w), then cells.
            match (h2, w2).cmp(&(h, w)) {
                Ordering::Less => shrinks = true,
                Ordering::Greater => {}
                Ordering::Equal => {
                    // Cell `(r2, c2)` of the image comes from the source cell
                    // found by undoing the flips, then the transpose.
                    let mut source = [0u8; 64];
                    for (i2, s) in source.iter_mut().enumerate().take(h * w) {
                        let (mut r, mut c) = (i2 / w2, i2 % w2);
                        if flip_cols {
                            c = w2 - 1 - c;
                        }
                        if flip_rows {
                            r = h2 - 1 - r;
                        }
                        if transpose {
                            (r, c) = (c, r);
                        }
                        *s = (r * w + c) as u8;
                    }
                    sources.push(source);
                }
            }
        }
        ShapeSymmetries {
            shape: (h as u8, w as u8),
            shrinks,
            sources,
        }
    }

    /// Whether `rule` (of this shape, well formed) is its own canonical
    /// form: no image under a symmetry sorts before it.
    pub(crate) fn is_canonical(&self, rule: &Rule) -> bool {
        debug_assert_eq!(self.shape, (rule.pattern.h, rule.pattern.w));
        if self.shrinks {
            return false;
        }
        let cells = &rule.pattern.cells;
        let n = cells.len();
        self.sources.iter().all(|source| {
            let source = &source[..n];
            let differs = source
                .iter()
                .zip(cells)
                .map(|(&s, own)| cells[s as usize].cmp(own))
                .find(|o| o.is_ne());
            let order = differs.unwrap_or_else(|| {
                // A symmetric pattern: the kinds are equal, compare the
                // masks.
                let image = |mask: u64| {
                    source
                        .iter()
                        .enumerate()
                        .fold(0u64, |m, (i2, &s)| m | (mask >> s & 1) << i2)
                };
                (image(rule.safe), image(rule.mine)).cmp(&(rule.safe, rule.mine))
            });
            order.is_ge()
        })
    }
}

/// Whether `rule` is its own canonical form ([`Rule::canonical`]), i.e. no
/// symmetric image is smaller in the derived `Ord`. Same answer as
/// `rule.canonical() == *rule`, but without building the images: most
/// images differ from the rule within the first few cells.
/// `rule` must be well formed ([`check_structure`]).
pub fn is_canonical(rule: &Rule) -> bool {
    ShapeSymmetries::new(rule.pattern.h, rule.pattern.w).is_canonical(rule)
}
