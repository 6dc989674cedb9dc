//! The exported rules: re-proven from their pictures, independently of the library.

use super::*;

// ---------------------------------------------------------------------------
// 4. and 5. The exported rules
// ---------------------------------------------------------------------------

/// One line of `sapper rules export --json`.
#[derive(serde::Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct Exported {
    order: u8,
    kind: String,
    pattern: Vec<String>,
}

fn exported_rules() -> &'static Vec<Exported> {
    static E: OnceLock<Vec<Exported>> = OnceLock::new();
    E.get_or_init(|| {
        sapper(["rules", "export", DEFAULT_PATH, "--json"])
            .ok()
            .stdout
            .lines()
            .enumerate()
            .map(|(i, line)| {
                serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("export line {}: {e}: {line}", i + 1))
            })
            .collect()
    })
}

/// An exported pattern as a grid of characters.
struct Drawn {
    h: usize,
    w: usize,
    cells: Vec<u8>,
}

impl Drawn {
    fn parse(rows: &[String]) -> Result<Drawn, String> {
        let h = rows.len();
        let w = rows.first().map_or(0, |r| r.len());
        if h == 0 || w == 0 {
            return Err("empty pattern".into());
        }
        let mut cells = Vec::with_capacity(h * w);
        for (r, row) in rows.iter().enumerate() {
            if row.len() != w {
                return Err(format!(
                    "row {r} has {} characters, row 0 has {w}",
                    row.len()
                ));
            }
            for (c, ch) in row.bytes().enumerate() {
                if !b"?sm.#_012345678".contains(&ch) {
                    return Err(format!("unknown character {:?} at ({r},{c})", ch as char));
                }
                cells.push(ch);
            }
        }
        Ok(Drawn { h, w, cells })
    }

    fn at(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.w + c]
    }

    fn is_closed(ch: u8) -> bool {
        matches!(ch, b'?' | b's' | b'm')
    }

    /// The foci `(row, col, value)`.
    fn foci(&self) -> Vec<(usize, usize, u32)> {
        (0..self.h * self.w)
            .filter(|&i| self.cells[i].is_ascii_digit())
            .map(|i| (i / self.w, i % self.w, (self.cells[i] - b'0') as u32))
            .collect()
    }

    /// The 8 neighbours of `(r, c)`, `None` for positions off the grid.
    fn neighbours(&self, r: usize, c: usize) -> Vec<Option<(usize, usize)>> {
        let mut out = Vec::with_capacity(8);
        for dr in -1isize..=1 {
            for dc in -1isize..=1 {
                if (dr, dc) == (0, 0) {
                    continue;
                }
                let (rr, cc) = (r as isize + dr, c as isize + dc);
                out.push(
                    (rr >= 0 && cc >= 0 && rr < self.h as isize && cc < self.w as isize)
                        .then_some((rr as usize, cc as usize)),
                );
            }
        }
        out
    }

    /// The image under symmetry `sym` (see [`orient`]), as rows.
    fn image(&self, sym: usize) -> Vec<String> {
        let (_, (h2, w2)) = orient(self.h, self.w, sym, 0, 0);
        let mut out = vec![b' '; h2 * w2];
        for r in 0..self.h {
            for c in 0..self.w {
                let ((r2, c2), _) = orient(self.h, self.w, sym, r, c);
                out[r2 * w2 + c2] = self.at(r, c);
            }
        }
        out.chunks(w2)
            .map(|row| String::from_utf8(row.to_vec()).expect("ASCII"))
            .collect()
    }
}

/// What the layouts of a set of foci allow: `None` when no layout of the
/// closed cells satisfies every focus equation, else `(always safe, always
/// mine)` as bit sets over `vars`.
fn enumerate_layouts(
    d: &Drawn,
    foci: &[(usize, usize, u32)],
    vars: &[(usize, usize)],
) -> Option<(u32, u32)> {
    assert!(vars.len() <= 24, "{} closed cells", vars.len());
    // Each focus: "exactly v of the closed cells around it are mines" (its
    // other neighbours are open, walls or foci: never mines, the value is
    // effective).
    let equations: Vec<(u32, u32)> = foci
        .iter()
        .map(|&(r, c, v)| {
            let around = d.neighbours(r, c);
            let mask = vars
                .iter()
                .enumerate()
                .filter(|(_, cell)| around.contains(&Some(**cell)))
                .map(|(j, _)| 1u32 << j)
                .sum();
            (mask, v)
        })
        .collect();
    let all = (1u32 << vars.len()) - 1;
    let (mut ever_mine, mut ever_safe, mut any) = (0u32, 0u32, false);
    for layout in 0..=all {
        if equations
            .iter()
            .all(|&(m, v)| (layout & m).count_ones() == v)
        {
            any = true;
            ever_mine |= layout;
            ever_safe |= !layout & all;
        }
    }
    any.then_some((all & !ever_mine, all & !ever_safe))
}

/// The closed cells around any of `foci`, row-major.
fn closed_around(d: &Drawn, foci: &[(usize, usize, u32)]) -> Vec<(usize, usize)> {
    let mut vars: Vec<(usize, usize)> = foci
        .iter()
        .flat_map(|&(r, c, _)| d.neighbours(r, c))
        .flatten()
        .filter(|&(r, c)| Drawn::is_closed(d.at(r, c)))
        .collect();
    vars.sort_unstable();
    vars.dedup();
    vars
}

/// Re-proves one exported rule from its drawing alone.
fn reprove(e: &Exported) -> Result<(), String> {
    let d = Drawn::parse(&e.pattern)?;
    let foci = d.foci();
    if foci.len() != e.order as usize {
        return Err(format!("order {} but {} foci", e.order, foci.len()));
    }
    // Every focus's neighbourhood is inside the pattern and looked at, so
    // the rule depends on nothing outside itself.
    for &(r, c, _) in &foci {
        for nb in d.neighbours(r, c) {
            match nb {
                None => {
                    return Err(format!(
                        "focus ({r},{c}) has a neighbour outside the pattern"
                    ))
                }
                Some((rr, cc)) if d.at(rr, cc) == b'_' => {
                    return Err(format!(
                        "focus ({r},{c}) has an `_` neighbour at ({rr},{cc})"
                    ))
                }
                Some(_) => {}
            }
        }
    }
    let vars = closed_around(&d, &foci);
    // A closed cell around no focus is free: it is mine in some layouts and
    // safe in others, so it can carry no conclusion.
    for r in 0..d.h {
        for c in 0..d.w {
            if matches!(d.at(r, c), b's' | b'm') && !vars.contains(&(r, c)) {
                return Err(format!("conclusion at ({r},{c}) is around no focus"));
            }
        }
    }
    let marked = |ch: u8| -> u32 {
        vars.iter()
            .enumerate()
            .filter(|(_, &(r, c))| d.at(r, c) == ch)
            .map(|(j, _)| 1u32 << j)
            .sum()
    };
    let (safe, mine) = (marked(b's'), marked(b'm'));
    let facts = enumerate_layouts(&d, &foci, &vars);
    match e.kind.as_str() {
        "forbidden" => {
            if safe | mine != 0 {
                return Err("a forbidden rule with conclusions".into());
            }
            if let Some(f) = facts {
                return Err(format!(
                    "forbidden, but layouts exist (always safe/mine {f:?})"
                ));
            }
        }
        "forced" => {
            let Some((always_safe, always_mine)) = facts else {
                return Err("forced, but no layout satisfies the foci".into());
            };
            if safe | mine == 0 {
                return Err("a forced rule concluding nothing".into());
            }
            if safe & !always_safe != 0 || mine & !always_mine != 0 {
                return Err(format!(
                    "unsound: concludes safe {safe:b} mine {mine:b}, layouts force only \
                     safe {always_safe:b} mine {always_mine:b} (bits over {vars:?})"
                ));
            }
            // Exact (synth/src/lib.rs, "Conclusions"): every cell the foci
            // force is concluded.
            if (safe, mine) != (always_safe, always_mine) {
                return Err(format!(
                    "not exact: concludes safe {safe:b} mine {mine:b}, layouts force \
                     safe {always_safe:b} mine {always_mine:b} (bits over {vars:?})"
                ));
            }
        }
        other => return Err(format!("unknown kind {other:?}")),
    }
    // Minimal (docs/design.md §3, "Order"): with two or more foci, no focus alone
    // concludes anything or is impossible; otherwise the rule would be
    // covered by order 1.
    if foci.len() >= 2 {
        for focus in &foci {
            let one = [*focus];
            let own = closed_around(&d, &one);
            match enumerate_layouts(&d, &one, &own) {
                None => return Err(format!("focus {focus:?} alone has no layout")),
                Some((s, m)) if s | m != 0 => {
                    return Err(format!("focus {focus:?} alone forces a cell"))
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

#[test]
fn every_exported_rule_is_reproven_exact_and_minimal() {
    let exported = exported_rules();
    let rb = default_rulebase();
    assert_eq!(exported.len(), rb.rules.len(), "one export line per rule");
    let mut failures = Vec::new();
    for (i, e) in exported.iter().enumerate() {
        if e.pattern != rb.rules[i].rows() {
            failures.push(format!("line {}: not rule #{i} of the file", i + 1));
        }
        if let Err(why) = reprove(e) {
            failures.push(format!(
                "line {} ({} order {}): {why}\n  {}",
                i + 1,
                e.kind,
                e.order,
                e.pattern.join("\n  ")
            ));
        }
        // Walls conclude what their open variant does, so the synthesizer
        // stores none (synth/src/lib.rs, reduction 3).
        if e.pattern.iter().any(|row| row.contains('#')) {
            failures.push(format!(
                "line {}: a wall pattern is stored: {:?}",
                i + 1,
                e.pattern
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} exported rules fail:\n{}",
        failures.len(),
        exported.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

/// Negative control for the re-prover: one flipped, one dropped and one
/// weakened conclusion, a forbidden rule turned forced, and a focus value
/// moved, are all rejected.
#[test]
fn the_reprover_rejects_broken_rules() {
    let exported = exported_rules();
    let forced = exported
        .iter()
        .find(|e| {
            e.kind == "forced"
                && e.order == 2
                && e.pattern.concat().matches(['s', 'm']).count() >= 2
        })
        .expect("an order-2 rule with two conclusions");
    let forbidden = exported
        .iter()
        .find(|e| e.kind == "forbidden" && e.order == 2)
        .expect("a forbidden order-2 rule");
    reprove(forced).expect("the original is sound");
    reprove(forbidden).expect("the original is sound");
    let edit = |e: &Exported, f: &dyn Fn(char) -> char, once: bool| -> Exported {
        let mut done = false;
        let pattern = e
            .pattern
            .iter()
            .map(|row| {
                row.chars()
                    .map(|ch| {
                        let new = f(ch);
                        if new != ch && !(once && done) {
                            done = true;
                            new
                        } else {
                            ch
                        }
                    })
                    .collect()
            })
            .collect();
        Exported {
            pattern,
            ..e.clone()
        }
    };
    let flip = |ch| match ch {
        's' => 'm',
        'm' => 's',
        c => c,
    };
    let drop = |ch| if matches!(ch, 's' | 'm') { '?' } else { ch };
    let bump = |ch: char| {
        if ch.is_ascii_digit() && ch < '8' {
            (ch as u8 + 1) as char
        } else {
            ch
        }
    };
    assert!(
        reprove(&edit(forced, &flip, true)).is_err(),
        "one flipped conclusion"
    );
    assert!(
        reprove(&edit(forced, &drop, true)).is_err(),
        "one dropped conclusion (not exact)"
    );
    assert!(
        reprove(&edit(forced, &drop, false)).is_err(),
        "every conclusion dropped"
    );
    assert!(
        reprove(&edit(forced, &bump, true)).is_err(),
        "a focus value moved"
    );
    let mut turned = forbidden.clone();
    turned.kind = "forced".into();
    assert!(reprove(&turned).is_err(), "a forbidden rule turned forced");
}

/// The first two rules (by index) that are symmetric images of each other,
/// by a canonical form computed here on the drawings (conclusions
/// included): the least of the 8 images, plus the kind (not drawn).
fn symmetric_pair(exported: &[Exported]) -> Option<(usize, usize)> {
    let mut canonical: HashMap<Vec<String>, usize> = HashMap::new();
    for (i, e) in exported.iter().enumerate() {
        let d = Drawn::parse(&e.pattern).unwrap_or_else(|why| panic!("line {}: {why}", i + 1));
        let mut key = (0..8).map(|sym| d.image(sym)).min().expect("8 images");
        key.push(e.kind.clone());
        if let Some(j) = canonical.insert(key, i) {
            return Some((j, i));
        }
    }
    None
}

#[test]
fn no_two_stored_rules_are_symmetric_images() {
    let exported = exported_rules();
    let rb = default_rulebase();
    if let Some((j, i)) = symmetric_pair(exported) {
        panic!(
            "rules #{j} and #{i} are symmetric images:\n  {}\n\n  {}",
            exported[j].pattern.join("\n  "),
            exported[i].pattern.join("\n  ")
        );
    }
    // And by the library's own definition, every stored rule is canonical,
    // the rules are strictly increasing, and their canonical forms distinct.
    for (i, rule) in rb.rules.iter().enumerate() {
        assert_eq!(*rule, rule.canonical(), "rule #{i} is not canonical");
        if i > 0 {
            assert!(
                rb.rules[i - 1] < *rule,
                "rules #{} and #{i} out of order",
                i - 1
            );
        }
    }
    let distinct: HashSet<Rule> = rb.rules.iter().map(Rule::canonical).collect();
    assert_eq!(distinct.len(), rb.rules.len());
}

/// Negative control: a rotated copy of a stored rule, added to the list, is
/// found (whatever its orientation).
#[test]
fn a_symmetric_image_among_the_rules_is_found() {
    let exported = exported_rules();
    for (victim, sym) in [
        (0usize, 5usize),
        (exported.len() / 2, 3),
        (exported.len() - 1, 6),
    ] {
        let d = Drawn::parse(&exported[victim].pattern).expect("parses");
        let mut with_copy: Vec<Exported> = exported[..=victim.max(10)].to_vec();
        with_copy.push(Exported {
            pattern: d.image(sym),
            ..exported[victim].clone()
        });
        with_copy.extend_from_slice(&exported[victim.max(10) + 1..]);
        let n = victim.max(10) + 1;
        assert_eq!(
            symmetric_pair(&with_copy),
            Some((victim, n)),
            "rule #{victim}, symmetry {sym}"
        );
    }
}

#[test]
fn counts_agree_with_rules_info() {
    let info: serde_json::Value = serde_json::from_str(
        sapper(["rules", "info", DEFAULT_PATH, "--json"])
            .ok()
            .stdout
            .trim(),
    )
    .expect("rules info --json prints one JSON object");
    let exported = exported_rules();
    let rb = default_rulebase();

    // (order, window, kind) → count, from the export lines.
    let mut mine: BTreeMap<(u64, u64, String), u64> = BTreeMap::new();
    for e in exported {
        let window = e.pattern.len().max(e.pattern[0].len()) as u64;
        *mine
            .entry((e.order as u64, window, e.kind.clone()))
            .or_default() += 1;
    }
    let mut theirs: BTreeMap<(u64, u64, String), u64> = BTreeMap::new();
    for c in info["counts"].as_array().expect("counts array") {
        let key = (
            c["order"].as_u64().expect("order"),
            c["window"].as_u64().expect("window"),
            c["kind"].as_str().expect("kind").to_string(),
        );
        assert!(theirs
            .insert(key, c["count"].as_u64().expect("count"))
            .is_none());
    }
    assert_eq!(mine, theirs, "counts per order × window × kind");

    let per_order = |m: &BTreeMap<(u64, u64, String), u64>| {
        let mut out: BTreeMap<u64, u64> = BTreeMap::new();
        for ((order, _, _), n) in m {
            *out.entry(*order).or_default() += n;
        }
        out
    };
    let mut from_file: BTreeMap<u64, u64> = BTreeMap::new();
    for r in &rb.rules {
        *from_file.entry(r.order() as u64).or_default() += 1;
    }
    assert_eq!(per_order(&theirs), from_file, "rules per order");
    assert_eq!(from_file.keys().copied().collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(info["rule_count"].as_u64(), Some(rb.rules.len() as u64));
}
