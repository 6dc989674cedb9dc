//! Building the index: each rule checked once, its images under the
//! eight symmetries, and the entries that store them.

use super::layout::{
    FocusClasses, Order1Outcome, ANCHOR_FRAME_COL, ANCHOR_FRAME_ROW, FIRST_SLOT, FRAME_W,
    KEY_SLOTS_SHIFT, KEY_VALUES_SHIFT, MASK9_OF_CLOSED, MAX_ORDER, NO_ENTRY, SLOTS, SLOT_COLS,
};
use super::tables::{
    key_hash, pair_hash, pair_key, Check, Entry, EntryStore, ExtraCell, KeyFilter, KeyTable,
    PairTable, FRAME_BITS, MASK9_IMAGES, META_CHECKED, META_FORBIDDEN, META_NEXT, META_ORDER_SHIFT,
};
use super::{derived_fields, Orientations, RejectedRule, RuleIndex};
use crate::rules::{PatternCell, Rule, RuleKind, Rulebase, SYMMETRIES};
use hashbrown::HashMap;

/// A rule checked once in its own orientation, reduced to what its images
/// need: its foci, the cells of `U` that set a frame bit, by kind, and the
/// non-`Any` cells outside `U`. (`Open` cells of `U` set no bit and are not
/// listed.)
#[derive(Default)]
struct CheckedRule {
    pub(super) h: usize,
    pub(super) w: usize,
    pub(super) forbidden: bool,
    /// `(r, c, value)`, row-major.
    pub(super) foci: Vec<(u8, u8, u8)>,
    /// `(r, c)` of the `Closed` and `Wall` cells of `U`, and of the cells
    /// concluded safe and mine (all `Closed` cells of `U`).
    pub(super) closed: Vec<(u8, u8)>,
    pub(super) walls: Vec<(u8, u8)>,
    pub(super) safe: Vec<(u8, u8)>,
    pub(super) mine: Vec<(u8, u8)>,
    /// `(r, c, cell)`: non-`Any` cells outside `U`.
    pub(super) outside: Vec<(u8, u8, PatternCell)>,
    /// `(value, closed neighbours)` of every focus.
    focus_kinds: Vec<(u8, u8)>,
    /// The 3×3 closed mask (bit `3k + j`) around every focus.
    focus_masks: Vec<u16>,
}

impl CheckedRule {
    /// Checks `rule` and fills `self` with it (the buffers are reused from
    /// rule to rule). None of the checks depends on the orientation except
    /// the distance of the foci from the anchor, checked per image.
    pub(super) fn check(&mut self, rule: &Rule) -> Result<(), String> {
        if self.fill(rule) {
            return Ok(());
        }
        Err(match rejection(rule) {
            Err(reason) => reason,
            // `fill` and `rejection` make the same checks.
            Ok(()) => "breaks the rule invariants".into(),
        })
    }

    /// Fills `self` from `rule`, checking it on bit masks of the pattern
    /// (bit `r·w + c`); false if it breaks an invariant.
    fn fill(&mut self, rule: &Rule) -> bool {
        let p = &rule.pattern;
        let (h, w) = (p.h as usize, p.w as usize);
        let n = p.cells.len();
        self.h = h;
        self.w = w;
        self.forbidden = rule.kind == RuleKind::Forbidden;
        self.foci.clear();
        self.closed.clear();
        self.walls.clear();
        self.safe.clear();
        self.mine.clear();
        self.outside.clear();
        self.focus_kinds.clear();
        self.focus_masks.clear();
        if n != h * w || n > 64 || n == 0 {
            return false;
        }
        let inside = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        // Conclusion bits beyond the pattern name no cell.
        let (safe, mine) = (rule.safe & inside, rule.mine & inside);
        if (!self.forbidden && safe | mine == 0) || safe & mine != 0 {
            return false;
        }
        // One mask per kind of cell, without a branch per cell.
        let mut kinds = [0u64; 5];
        for (i, &cell) in p.cells.iter().enumerate() {
            let kind = match cell {
                PatternCell::Any => 0,
                PatternCell::Wall => 1,
                PatternCell::Open => 2,
                PatternCell::Closed => 3,
                PatternCell::Number(_) => 4,
            };
            kinds[kind] |= 1u64 << i;
        }
        let [any, wall, _, closed, numbers] = kinds;
        if numbers.count_ones() as usize > MAX_ORDER {
            return false;
        }
        let mut rest = numbers;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            // (Every bit of `numbers` is a `Number` cell.)
            if let PatternCell::Number(v) = p.cells[i] {
                if v > 8 {
                    return false;
                }
                self.foci.push(((i / w) as u8, (i % w) as u8, v));
            }
        }
        let Some(&(ar, ac, _)) = self.foci.first() else {
            return false;
        };
        let (ar, ac) = (ar as usize, ac as usize);
        let mut union = 0u64;
        for &(fr, fc, v) in &self.foci {
            let (fr, fc) = (fr as usize, fc as usize);
            // Every neighbour inside the pattern; at most 3 rows below and
            // 3 columns beside the first focus (row-major: never above).
            if fr == 0 || fc == 0 || fr + 1 >= h || fc + 1 >= w {
                return false;
            }
            if fr - ar > 3 || fc.abs_diff(ac) > 3 {
                return false;
            }
            let row = 0b111u64 << (fc - 1);
            let block = row << ((fr - 1) * w) | row << (fr * w) | row << ((fr + 1) * w);
            if block & any != 0 {
                return false;
            }
            self.focus_kinds
                .push((v, (block & closed).count_ones() as u8));
            let row_closed = |r: usize| (closed >> (r * w + fc - 1) & 7) as u16;
            self.focus_masks
                .push(row_closed(fr - 1) | row_closed(fr) << 3 | row_closed(fr + 1) << 6);
            union |= block;
        }
        // Conclusions only on `Closed` cells next to a focus.
        if (safe | mine) & !(closed & union) != 0 {
            return false;
        }
        // (3 ≤ w ≤ 21 here: a focus has a column either side, n ≤ 64.)
        let row_mask = u64::MAX >> (64 - w);
        for r in 0..h {
            let row = |mask: u64| mask >> (r * w) & row_mask;
            for (mask, list) in [
                (closed & union, &mut self.closed),
                (wall & union, &mut self.walls),
                (safe, &mut self.safe),
                (mine, &mut self.mine),
            ] {
                let mut bits = row(mask);
                while bits != 0 {
                    list.push((r as u8, bits.trailing_zeros() as u8));
                    bits &= bits - 1;
                }
            }
            let mut outside = row(inside & !union & !any);
            while outside != 0 {
                let c = outside.trailing_zeros() as usize;
                outside &= outside - 1;
                self.outside.push((r as u8, c as u8, p.cells[r * w + c]));
            }
        }
        true
    }

    /// The image under symmetry `sym`, its extra cells appended to
    /// `extras` (sorted row-major, as they are compared when merging).
    pub(super) fn image(&self, sym: usize, extras: &mut Vec<ExtraCell>) -> Result<Image, String> {
        let (transpose, flip_rows, flip_cols) = SYMMETRIES[sym];
        let (h2, w2) = if transpose {
            (self.w, self.h)
        } else {
            (self.h, self.w)
        };
        // Cell (r, c) of the rule lands on (r0 + rr·r + rc·c, c0 + cr·r +
        // cc·c) of the image.
        let (mut rr, mut rc, mut cr, mut cc) = if transpose {
            (0isize, 1isize, 1isize, 0isize)
        } else {
            (1, 0, 0, 1)
        };
        let (mut r0, mut c0) = (0isize, 0isize);
        if flip_rows {
            (r0, rr, rc) = (h2 as isize - 1, -rr, -rc);
        }
        if flip_cols {
            (c0, cr, cc) = (w2 as isize - 1, -cr, -cc);
        }
        let map = |r: u8, c: u8| -> (isize, isize) {
            let (r, c) = (r as isize, c as isize);
            (r0 + rr * r + rc * c, c0 + cr * r + cc * c)
        };
        // Foci in the image's row-major order, the anchor first: each as
        // `r2 << 16 | c2 << 8 | index in self.foci` (image coordinates are
        // ≥ 0), so the order of the codes is row-major order.
        let code = |k: usize| {
            let (r, c, _) = self.foci[k];
            let (r2, c2) = map(r, c);
            (r2 as u32) << 16 | (c2 as u32) << 8 | k as u32
        };
        let mut foci = [0u32; MAX_ORDER];
        let order = self.foci.len();
        if order == 2 {
            let (a, b) = (code(0), code(1));
            foci[0] = a.min(b);
            foci[1] = a.max(b);
        } else {
            for (k, f) in foci[..order].iter_mut().enumerate() {
                *f = code(k);
            }
            foci[..order].sort_unstable();
        }
        let unpack = |f: u32| {
            (
                (f >> 16) as isize,
                (f >> 8 & 0xFF) as isize,
                (f & 0xFF) as usize,
            )
        };
        // A focus's order-1 index in the image: its value and its 3×3
        // mask, turned like the whole pattern.
        let order1_of = |k: usize| -> u16 {
            self.foci[k].2 as u16 * 512 + MASK9_IMAGES[sym][self.focus_masks[k] as usize]
        };
        let (ar, ac, ak) = unpack(foci[0]);
        let mut slot_set = 0u32;
        let mut values = (self.foci[ak].2 as u128) << KEY_VALUES_SHIFT;
        for (i, &f) in foci[..order].iter().enumerate().skip(1) {
            let (r, c, k) = unpack(f);
            let (dr, dc) = (r - ar, c - ac);
            if dr > 3 || dc.abs() > 3 {
                return Err(far_focus((r, c), (ar, ac)));
            }
            let slot = (dr * SLOT_COLS + dc + 3) as u32;
            debug_assert!((FIRST_SLOT..SLOTS).contains(&slot));
            slot_set |= 1 << slot;
            values |= (self.foci[k].2 as u128) << (KEY_VALUES_SHIFT + 4 * i as u32);
        }
        // The frame bit of rule cell (r, c) is (r2 − ar + 1)·9 + c2 − ac + 4
        // = base + kr·r + kc·c: inside the frame for every cell of `U`.
        let kr = FRAME_W as isize * rr + cr;
        let kc = FRAME_W as isize * rc + cc;
        let base = (r0 - ar + ANCHOR_FRAME_ROW) * FRAME_W as isize + c0 - ac + ANCHOR_FRAME_COL;
        let frame = |cells: &[(u8, u8)]| {
            cells.iter().fold(0u64, |m, &(r, c)| {
                m | 1 << (base + kr * r as isize + kc * c as isize)
            })
        };
        let extras_start = extras.len();
        for &(r, c, cell) in &self.outside {
            let (r2, c2) = map(r, c);
            extras.push(ExtraCell {
                dr: (r2 - ar) as i16,
                dc: (c2 - ac) as i16,
                cell,
            });
        }
        extras[extras_start..].sort_unstable();
        let key = match order {
            1 => order1_of(ak) as u128,
            2 => {
                let (_, _, bk) = unpack(foci[1]);
                pair_key(order1_of(ak), slot_set.trailing_zeros(), order1_of(bk)) as u128
            }
            _ => frame(&self.closed) as u128 | (slot_set as u128) << KEY_SLOTS_SHIFT | values,
        };
        Ok(Image {
            key,
            walls: frame(&self.walls),
            safe: frame(&self.safe),
            mine: frame(&self.mine),
            slot_set,
            shape: [h2 as u8, w2 as u8, ar as u8, ac as u8],
            extras: (extras_start as u32, (extras.len() - extras_start) as u32),
        })
    }
}

/// Why `rule` breaks the rule invariants (or cannot be indexed): the first
/// failing check, in the rule's own orientation, or `Ok` if none fails.
/// Only called for rules [`CheckedRule::fill`] refused, to name the reason.
pub(super) fn rejection(rule: &Rule) -> Result<(), String> {
    let p = &rule.pattern;
    let (h, w) = (p.h as usize, p.w as usize);
    let mut foci: Vec<(u8, u8, u8)> = Vec::new();
    let order = p
        .cells
        .iter()
        .filter(|c| matches!(c, PatternCell::Number(_)))
        .count();
    if order == 0 {
        return Err("no focus number".into());
    }
    if order > MAX_ORDER {
        return Err(format!("order {order} above the supported {MAX_ORDER}"));
    }
    if p.cells.len() > 64 {
        return Err(format!("pattern {}×{} has more than 64 cells", p.h, p.w));
    }
    if p.cells.len() != h * w {
        return Err(format!(
            "pattern {}×{} has {} cells",
            p.h,
            p.w,
            p.cells.len()
        ));
    }
    // Conclusion bits beyond the pattern name no cell.
    let inside = if h * w == 64 {
        u64::MAX
    } else {
        (1u64 << (h * w)) - 1
    };
    let (safe, mine) = (rule.safe & inside, rule.mine & inside);
    let forbidden = rule.kind == RuleKind::Forbidden;
    if !forbidden && (safe | mine) == 0 {
        return Err("forced rule with an empty conclusion".into());
    }
    if safe & mine != 0 {
        return Err("a cell concluded both safe and mine".into());
    }
    let (hi, wi) = (h as isize, w as isize);
    let at = |r: isize, c: isize| -> Option<PatternCell> {
        (r >= 0 && c >= 0 && r < hi && c < wi).then(|| p.cells[(r * wi + c) as usize])
    };
    for (i, &cell) in p.cells.iter().enumerate() {
        if let PatternCell::Number(v) = cell {
            let (r, c) = (i / w, i % w);
            if v > 8 {
                return Err(format!("focus at ({r},{c}) has value {v} above 8"));
            }
            foci.push((r as u8, c as u8, v));
        }
    }
    let (ar, ac) = (foci[0].0 as isize, foci[0].1 as isize);
    let mut union = 0u64;
    for &(r, c, _) in &foci {
        let (r, c) = (r as isize, c as isize);
        // The focus itself is in `U` too.
        union |= 1 << (r * wi + c);
        for dr in -1..=1 {
            for dc in -1..=1 {
                if dr == 0 && dc == 0 {
                    continue;
                }
                match at(r + dr, c + dc) {
                    None | Some(PatternCell::Any) => {
                        return Err(format!(
                            "neighbour ({},{}) of focus ({r},{c}) is not in the pattern or is Any",
                            r + dr,
                            c + dc
                        ))
                    }
                    Some(_) => {}
                }
                union |= 1 << ((r + dr) * wi + c + dc);
            }
        }
        if (r - ar) > 3 || (c - ac).abs() > 3 {
            return Err(far_focus((r, c), (ar, ac)));
        }
    }
    for (i, &cell) in p.cells.iter().enumerate() {
        let (r, c) = (i / w, i % w);
        let bit = 1u64 << i;
        let concluded = (safe | mine) & bit != 0;
        if concluded && cell != PatternCell::Closed {
            return Err(format!("conclusion on ({r},{c}), which is not Closed"));
        }
        if union & bit == 0 && concluded {
            return Err(format!("conclusion on ({r},{c}), next to no focus"));
        }
    }
    Ok(())
}

fn far_focus((r, c): (isize, isize), (ar, ac): (isize, isize)) -> String {
    format!("focus ({r},{c}) is more than 3 rows or columns from focus ({ar},{ac})")
}

/// One orientation of a rule, ready to be stored.
#[derive(Clone, Copy, Debug, Default)]
struct Image {
    /// Order 1: `value · 512 + mask9`; order 2: the [`pair_key`]; orders
    /// ≥ 3: the `u128` key.
    pub(super) key: u128,
    pub(super) walls: u64,
    /// The conclusion as given (also for a forbidden rule, so that two
    /// images compare as the rules do).
    pub(super) safe: u64,
    pub(super) mine: u64,
    /// The slot set of the non-anchor foci.
    pub(super) slot_set: u32,
    /// `(h, w)` of the transformed pattern and the anchor's place in it:
    /// with the key, walls, conclusion and extra cells they determine the
    /// transformed rule, so two images of one rule are equal exactly when
    /// the transformed rules are.
    shape: [u8; 4],
    /// Range of its extra cells in the build's buffer.
    pub(super) extras: (u32, u32),
}

impl RuleIndex {
    /// Indexes every rule of `rb` in all its orientations.
    pub fn new(rb: &Rulebase) -> RuleIndex {
        RuleIndex::from_rules(&rb.rules)
    }

    /// Indexes `rules` in all their orientations. Rules that break the rule
    /// invariants (a focus neighbour missing or `Any`, a conclusion on a
    /// non-`Closed` cell, …) or that the index cannot hold (order above
    /// [`MAX_ORDER`], foci more than 3 rows/columns from the first one) are
    /// left out and listed by [`RuleIndex::rejected`]; they are never
    /// matched approximately.
    pub fn from_rules(rules: &[Rule]) -> RuleIndex {
        RuleIndex::from_rules_in(rules, Orientations::All)
    }

    /// [`RuleIndex::from_rules`] storing the given orientations: with
    /// [`Orientations::One`] each rule once, as given (`find` then turns
    /// the board instead); the matches are the same.
    pub fn from_rules_in(rules: &[Rule], orientations: Orientations) -> RuleIndex {
        let image_count = match orientations {
            Orientations::All => 8,
            Orientations::One => 1,
        };
        // Each rule has at most 8 images; most rules of order ≥ 2 have 8
        // (with `Orientations::One`, exactly 1).
        // (Tables are sized from the rules of order 2 and above 2.)
        let (mut pair_rules, mut higher_rules) = (0usize, 0usize);
        for rule in rules {
            match rule.order() {
                2 => pair_rules += 1,
                3.. => higher_rules += 1,
                _ => {}
            }
        }
        let mut builder = Builder {
            entries1: EntryStore::default(),
            entries2: EntryStore {
                entries: Vec::with_capacity(pair_rules * image_count).into(),
                ..EntryStore::default()
            },
            entries: EntryStore {
                entries: Vec::with_capacity(higher_rules * image_count).into(),
                keys: Vec::with_capacity(higher_rules * image_count).into(),
                ..EntryStore::default()
            },
            extras: Vec::new(),
            order1: vec![NO_ENTRY; 9 * 512],
            pairs: PairTable::with_capacity(pair_rules * image_count),
            multi: KeyTable::with_capacity(higher_rules * image_count),
            filter: KeyFilter::new((pair_rules + higher_rules) * image_count),
        };
        let mut rejected = Vec::new();
        let mut rules_by_order = vec![0usize; MAX_ORDER + 1];
        let mut images_by_order = vec![0usize; MAX_ORDER + 1];
        let mut classes: FocusClasses = [0; 81];
        let mut slots_by_order = vec![0u32; MAX_ORDER + 1];
        let mut next_short = vec![[0u32; SLOTS as usize + 1]; MAX_ORDER + 1];
        let mut co_slots_above_2 = [0u32; SLOTS as usize];
        let mut next_long: Vec<HashMap<u32, u32>> = vec![HashMap::new(); MAX_ORDER + 1];

        let mut checked = CheckedRule::default();
        let mut image_extras: Vec<ExtraCell> = Vec::new();
        for (ri, rule) in rules.iter().enumerate() {
            image_extras.clear();
            let mut images = [Image::default(); 8];
            let mut count = 0;
            // A bit per key hash among the images so far: most rules have 8
            // distinct images, and a clear bit settles "new" at once.
            let mut keys_seen = 0u64;
            let result = checked.check(rule).and_then(|()| {
                for sym in 0..image_count {
                    let image = checked.image(sym, &mut image_extras)?;
                    let key_bit = 1u64
                        << ((image.key as u64 ^ (image.key >> 64) as u64)
                            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                            >> 58);
                    let extras_of =
                        |im: &Image| &image_extras[im.extras.0 as usize..][..im.extras.1 as usize];
                    let seen = keys_seen & key_bit != 0
                        && images[..count].iter().any(|old| {
                            (old.key, old.walls, old.safe, old.mine, old.shape)
                                == (image.key, image.walls, image.safe, image.mine, image.shape)
                                && extras_of(old) == extras_of(&image)
                        });
                    if !seen {
                        images[count] = image;
                        count += 1;
                        keys_seen |= key_bit;
                    }
                }
                Ok(())
            });
            if let Err(reason) = result {
                rejected.push(RejectedRule { rule: ri, reason });
                continue;
            }
            let order = checked.foci.len();
            rules_by_order[order] += 1;
            images_by_order[order] += count;
            for &(v, u) in &checked.focus_kinds {
                classes[v as usize * 9 + u as usize] |= 1 << order;
            }
            for image in &images[..count] {
                slots_by_order[order] |= image.slot_set;
                if order >= 3 {
                    let mut rest = image.slot_set;
                    while rest != 0 {
                        let s = rest.trailing_zeros();
                        rest &= rest - 1;
                        co_slots_above_2[s as usize] |= image.slot_set & !(1 << s);
                    }
                }
                // Walk the slot set in increasing slot order, recording at
                // each prefix which slot comes next.
                let mut prefix = 0u32;
                let mut rest = image.slot_set;
                while rest != 0 {
                    let s = rest & rest.wrapping_neg();
                    match prefix.count_ones() {
                        0 => next_short[order][0] |= s,
                        1 => next_short[order][1 + prefix.trailing_zeros() as usize] |= s,
                        _ => *next_long[order].entry(prefix).or_insert(0) |= s,
                    }
                    prefix |= s;
                    rest &= rest - 1;
                }
                let extras = &image_extras[image.extras.0 as usize..][..image.extras.1 as usize];
                builder.add(order, checked.forbidden, image, extras);
            }
        }

        let (max_order, slots_above_2) = derived_fields(&rules_by_order, &slots_by_order);
        RuleIndex {
            entries1: builder.entries1,
            entries2: builder.entries2,
            entries: builder.entries,
            extras: builder.extras,
            order1_outcomes: Vec::new(),
            order1: builder.order1,
            pairs: builder.pairs,
            multi: builder.multi,
            filter: builder.filter,
            next_short,
            next_long,
            slots_by_order,
            slots_above_2,
            co_slots_above_2,
            classes,
            max_order,
            rules_by_order,
            images_by_order,
            rejected,
            orientations,
        }
        .with_order1_outcomes()
    }

    /// Fills [`RuleIndex::order1_outcomes`] from the order-1 chains, when
    /// every order-1 entry can be flattened.
    pub(super) fn with_order1_outcomes(mut self) -> RuleIndex {
        self.order1_outcomes = self.flatten_order1().unwrap_or_default();
        self
    }

    fn flatten_order1(&self) -> Option<Vec<Order1Outcome>> {
        if self.rules_by_order.get(1).copied().unwrap_or(0) == 0 {
            return None;
        }
        // Frame bit of the neighbour in each direction.
        let frame_bit = |d: usize| {
            let (dr, dc) = crate::grid::DIRECTIONS[d];
            (ANCHOR_FRAME_ROW + dr) as u32 * FRAME_W as u32 + (ANCHOR_FRAME_COL + dc) as u32
        };
        let to_directions = |frame: u64| -> Option<u8> {
            let mut dirs = 0u8;
            let mut covered = 0u64;
            for d in 0..8 {
                let bit = 1u64 << frame_bit(d);
                covered |= bit;
                if frame & bit != 0 {
                    dirs |= 1 << d;
                }
            }
            (frame & !covered == 0).then_some(dirs)
        };
        let mut out = vec![Order1Outcome::NOTHING; 9 * 256];
        for value in 0..=8usize {
            for closed in 0..256usize {
                let key = value * 512 + MASK9_OF_CLOSED[closed] as usize;
                let mut at = Some(self.order1[key]).filter(|&h| h != NO_ENTRY);
                let mut o = Order1Outcome::NOTHING;
                while let Some(e) = at {
                    let entry = self.entries1.entries[e as usize];
                    if entry.safe_meta & META_CHECKED != 0 {
                        return None;
                    }
                    if entry.forbidden() {
                        o.0 |= Order1Outcome::FORBIDDEN;
                    }
                    o.0 |= to_directions(entry.safe())? as u32;
                    o.0 |= (to_directions(entry.mine)? as u32) << 8;
                    at = self.entries1.next(e);
                }
                out[value * 256 + closed] = o;
            }
        }
        Some(out)
    }
}

/// Stores images as entries: one chain per key, identical images merged.
struct Builder {
    pub(super) entries1: EntryStore,
    pub(super) entries2: EntryStore,
    pub(super) entries: EntryStore,
    pub(super) extras: Vec<ExtraCell>,
    pub(super) order1: Vec<u32>,
    pub(super) pairs: PairTable,
    pub(super) multi: KeyTable,
    pub(super) filter: KeyFilter,
}

impl Builder {
    fn add(&mut self, order: usize, forbidden: bool, image: &Image, extras: &[ExtraCell]) {
        let store = match order {
            1 => &mut self.entries1,
            2 => &mut self.entries2,
            _ => &mut self.entries,
        };
        let new = store.entries.len() as u32;
        let mut key_of_new = None;
        let head = match order {
            1 => {
                let slot = &mut self.order1[image.key as usize];
                let head = *slot;
                if head == NO_ENTRY {
                    *slot = new;
                }
                head
            }
            2 => {
                let key = image.key as u32;
                let hash = pair_hash(key);
                let found = self.pairs.find_or_insert(hash, key, new);
                if found.is_none() {
                    self.filter.insert(hash);
                }
                found.unwrap_or(NO_ENTRY)
            }
            _ => {
                let (lo, hi) = (image.key as u64, (image.key >> 64) as u64);
                let hash = key_hash(lo, hi);
                let found = self.multi.find_or_insert(hash, lo, hi, &store.keys, new);
                if found.is_none() {
                    self.filter.insert(hash);
                }
                key_of_new = Some([lo, hi]);
                found.unwrap_or(NO_ENTRY)
            }
        };
        // Same key: look for an entry with the same walls and extra cells
        // (the order follows from the key) to merge with; otherwise append
        // to the chain.
        let mut at = head;
        let mut last = NO_ENTRY;
        while at != NO_ENTRY {
            let check = store.check(at);
            if check.walls == image.walls
                && self.extras[check.extras_start as usize..][..check.extras_len as usize]
                    == *extras
            {
                // Each merged conclusion is sound, so is their union; a
                // forbidden image means no layout shows this pattern.
                let e = &mut store.entries.to_mut()[at as usize];
                if forbidden || e.forbidden() {
                    e.safe_meta = e.safe_meta & !FRAME_BITS | META_FORBIDDEN;
                    e.mine = 0;
                } else {
                    e.safe_meta |= image.safe;
                    e.mine |= image.mine;
                }
                return;
            }
            last = at;
            at = store.next(at).unwrap_or(NO_ENTRY);
        }
        if last != NO_ENTRY {
            store.entries.to_mut()[last as usize].safe_meta |= META_NEXT;
            store.next.insert(last, new);
        }
        let (safe, mine) = if forbidden {
            (0, 0)
        } else {
            (image.safe, image.mine)
        };
        let mut safe_meta = safe | (order as u64) << META_ORDER_SHIFT;
        if forbidden {
            safe_meta |= META_FORBIDDEN;
        }
        if image.walls != 0 || !extras.is_empty() {
            safe_meta |= META_CHECKED;
            store.checks.insert(
                new,
                Check {
                    walls: image.walls,
                    extras_start: self.extras.len() as u32,
                    extras_len: extras.len() as u32,
                },
            );
            self.extras.extend_from_slice(extras);
        }
        store.entries.to_mut().push(Entry { safe_meta, mine });
        store.keys.to_mut().extend(key_of_new);
    }
}
