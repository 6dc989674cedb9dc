//! The outer programme: the components' counts combined over the global
//! mine count.
//!
//! With `R` mines left for the closed cells, `I` interior cells and
//! component counts `N_c(k)`, the layouts number
//! `Z = Σ_{k_1..k_C} Π_c N_c(k_c) · C(I, R − Σ k_c)`. For each component
//! the backward pass needs its *outside weight* `ω_c(k)`, the weight of
//! everything else when it holds `k` mines (`Z = Σ_k N_c(k) ω_c(k)`).
//!
//! - Components with a single possible count only shift the total (and
//!   scale `Z`); their outside weight is a single value whose scale does
//!   not matter to their probabilities, so it is 1.
//! - The others are leaves of a balanced binary tree: a node holds the
//!   convolution of its children's counts (totals above `R` dropped: they
//!   can only grow). Going down, the root's outside weight is the interior
//!   weight `w(t) = C(I, R − t)`, and a child's outside weight is its
//!   sibling's counts correlated with its parent's:
//!   `O_L(a) = Σ_b N_R(b) · O(a + b)`. A leaf's outside weight is `ω_c`.
//!   The work is the sum over nodes of the products of their children's
//!   lengths, at most quadratic in the number of variable counts and
//!   usually tiny; every entry of a sum of `m` products has `m` roundings.
//! - Only ratios of the interior weights matter, so they are taken relative
//!   to the smallest in the window, `C(I, m_ref)`, and built by the
//!   recurrence `C(I, m ± 1) / C(I, m)`: two roundings a step, and every
//!   weight at least 1. `log2 Z` adds `log2 C(I, m_ref)` back (Stirling's
//!   series).
//! - The interior's mine and safe weights are `Σ_t Q(t) w(t) (R − t)` and
//!   `Σ_t Q(t) w(t) (I − R + t)` (each interior cell is a mine in a
//!   fraction `(R − t)/I` of the interior layouts).

use super::component::{Failure, GroupWeights, KeyScratch};
use super::number::Num;
use crate::budget::Budget;
use std::borrow::Cow;
use std::sync::LazyLock;

/// One component's counts as the forward pass left them: `N(lo + i)` =
/// `counts[i]`, with the bound `err` on `Σ |δ|` of each.
pub(crate) struct Counts<'a, T> {
    pub lo: u32,
    pub counts: &'a [T],
    pub err: f64,
}

/// What the outer programme gives back.
pub(crate) struct Combined<T> {
    /// Per component, the outside weight of each entry of its counts
    /// (same indexing), and the bound on `Σ |δ|` of each.
    pub omega: Vec<Vec<T>>,
    pub omega_err: Vec<f64>,
    /// The interior's weights (`None` without interior cells).
    pub interior: Option<GroupWeights<T>>,
    /// `log2` of the number of layouts.
    pub log2_layouts: f64,
}

struct Node<'a, T: Clone> {
    /// Smallest total of the node's components; `vals[i]` counts total
    /// `lo + i` (a leaf's are its component's counts, borrowed).
    lo: u64,
    vals: Cow<'a, [T]>,
    err: f64,
    children: Option<(usize, usize)>,
    /// A leaf's component, else `usize::MAX`.
    component: usize,
}

/// Combines the components over the global count (see the module doc):
/// `remaining` mines for the closed cells, `interior` interior cells.
pub(crate) fn combine<T: Num>(
    components: &[Counts<'_, T>],
    remaining: u64,
    interior: u64,
    budget: &Budget,
    ticks: &mut KeyScratch,
) -> Result<Combined<T>, Failure> {
    combine_as(components, remaining, interior, budget, ticks, true)
}

/// [`combine`], with the outside weights only when `outside` (else they
/// are left empty, and only the count, the interior's weights and each
/// component's outside-weight error bound are computed — the same bound,
/// from the same sums).
pub(crate) fn combine_as<'a, T: Num>(
    components: &[Counts<'a, T>],
    remaining: u64,
    interior: u64,
    budget: &Budget,
    ticks: &mut KeyScratch,
    outside: bool,
) -> Result<Combined<T>, Failure> {
    let wanted = outside;
    let what = || "combining the frontier components over the total mine count".to_string();
    let mut omega: Vec<Vec<T>> = Vec::with_capacity(if wanted { components.len() } else { 0 });
    let mut omega_err = vec![0.0; components.len()];
    let mut shift = 0u64; // mines of the single-count components
    let mut log2_fixed = 0.0;
    let mut nodes: Vec<Node<'a, T>> = Vec::new();
    // Each component's nonzero range.
    for (c, comp) in components.iter().enumerate() {
        let first = comp.counts.iter().position(|x| !x.is_zero());
        let last = comp.counts.iter().rposition(|x| !x.is_zero());
        let (Some(first), Some(last)) = (first, last) else {
            return Err(Failure::NoLayout);
        };
        if wanted {
            // A single count's outside weight is 1 (see the module doc);
            // a variable one's is filled in below.
            let mut w = vec![T::zero(); comp.counts.len()];
            if first == last {
                w[first] = T::one();
            }
            omega.push(w);
        }
        if first == last {
            shift += comp.lo as u64 + first as u64;
            log2_fixed += comp.counts[first].log2();
        } else {
            nodes.push(Node {
                lo: comp.lo as u64 + first as u64,
                vals: Cow::Borrowed(&comp.counts[first..=last]),
                err: comp.err,
                children: None,
                component: c,
            });
        }
    }
    if shift > remaining {
        return Err(Failure::NoLayout);
    }
    let cap = remaining - shift; // the variable components' total is at most this
    if nodes.is_empty() {
        nodes.push(Node {
            lo: 0,
            vals: Cow::Owned(vec![T::one()]),
            err: 0.0,
            children: None,
            component: usize::MAX,
        });
    }
    // Build the tree level by level, pairing neighbours (a single node is
    // the root: no level to pair).
    for node in nodes.iter_mut() {
        truncate(node, cap)?;
    }
    let mut level: Vec<usize> = Vec::new();
    if nodes.len() > 1 {
        level.extend(0..nodes.len());
    }
    while level.len() > 1 {
        let mut next = Vec::with_capacity(level.len().div_ceil(2));
        for pair in level.chunks(2) {
            if let [a, b] = *pair {
                let node = convolve(&nodes[a], &nodes[b], cap, (a, b))?;
                ticks.tick(
                    (nodes[a].vals.len() * nodes[b].vals.len()) as u64,
                    budget,
                    what,
                )?;
                next.push(nodes.len());
                nodes.push(node);
            } else {
                next.push(pair[0]);
            }
        }
        level = next;
    }
    let root = level.first().copied().unwrap_or(0);

    // The interior weights over the root's totals, relative to the
    // smallest binomial of the window.
    let (root_lo, root_len) = (nodes[root].lo, nodes[root].vals.len() as u64);
    let m_of = |i: u64| cap - (root_lo + i); // interior mines when the root total is lo + i
    let first_valid = (0..root_len).find(|&i| m_of(i) <= interior);
    let Some(first_valid) = first_valid else {
        return Err(Failure::NoLayout);
    };
    let (m_hi, m_lo) = (m_of(first_valid), m_of(root_len - 1));
    let m_ref = if m_hi.abs_diff(interior / 2) >= m_lo.abs_diff(interior / 2) {
        m_hi
    } else {
        m_lo
    };
    let mut weights = vec![T::zero(); root_len as usize];
    weights[index_of(m_ref, cap, root_lo)] = T::one();
    // Upwards from m_ref: C(I, m + 1) = C(I, m) (I − m) / (m + 1).
    let mut w = T::one();
    for m in m_ref..m_hi {
        w = w.mul_small((interior - m) as u32).div_small(m + 1);
        weights[index_of(m + 1, cap, root_lo)] = w;
    }
    // Downwards: C(I, m − 1) = C(I, m) m / (I − m + 1).
    let mut w = T::one();
    for m in (m_lo + 1..=m_ref).rev() {
        w = w.mul_small(m as u32).div_small(interior - m + 1);
        weights[index_of(m - 1, cap, root_lo)] = w;
    }
    let weight_err = 2.0 * T::UNIT * (m_hi - m_lo) as f64;

    let root_node = &nodes[root];
    let mut z = T::zero();
    let (mut mine, mut safe) = (T::zero(), T::zero());
    for (i, (q, w)) in root_node.vals.iter().zip(&weights).enumerate() {
        let term = q.mul(*w);
        z = z.add(term);
        if interior > 0 && !term.is_zero() {
            let m = m_of(i as u64);
            mine = mine.add(term.mul_small(m as u32));
            safe = safe.add(term.mul_small((interior - m) as u32));
        }
    }
    if z.is_zero() {
        return Err(Failure::NoLayout);
    }
    let len = root_node.vals.len() as f64;
    let interior_weights = (interior > 0).then_some(GroupWeights {
        mine,
        safe,
        err: root_node.err + weight_err + T::UNIT * (len + 2.0),
    });
    let log2_layouts = z.log2() + log2_binomial(interior, m_ref) + log2_fixed;
    if !wanted {
        // The bounds alone, as the pass below sums them.
        let mut err = vec![0.0; nodes.len()];
        err[root] = weight_err;
        for v in (0..nodes.len()).rev() {
            if let Some((a, b)) = nodes[v].children {
                for (child, sibling) in [(a, b), (b, a)] {
                    let s = &nodes[sibling];
                    err[child] = err[v] + s.err + T::UNIT * (1 + s.vals.len()) as f64;
                }
            }
        }
        for (node, &err) in nodes.iter().zip(&err) {
            if node.component != usize::MAX {
                omega_err[node.component] = err;
            }
        }
        return Ok(Combined {
            omega: Vec::new(),
            omega_err,
            interior: interior_weights,
            log2_layouts,
        });
    }

    if nodes.len() == 1 {
        // The root is the only leaf, if any: its outside weight is the
        // interior weights.
        let c = nodes[root].component;
        if c != usize::MAX {
            let first = (nodes[root].lo - components[c].lo as u64) as usize;
            omega[c][first..first + weights.len()].copy_from_slice(&weights);
            omega_err[c] = weight_err;
        }
        return Ok(Combined {
            omega,
            omega_err,
            interior: interior_weights,
            log2_layouts,
        });
    }
    // Down the tree: each node's outside weight.
    let mut outside: Vec<Option<(Vec<T>, f64)>> = (0..nodes.len()).map(|_| None).collect();
    outside[root] = Some((weights, weight_err));
    for v in (0..nodes.len()).rev() {
        let Some((a, b)) = nodes[v].children else {
            continue;
        };
        let (o, o_err) = outside[v].take().expect("a parent's weight comes first");
        for (child, sibling) in [(a, b), (b, a)] {
            let (c, s) = (&nodes[child], &nodes[sibling]);
            let mut out = vec![T::zero(); c.vals.len()];
            for (ia, slot) in out.iter_mut().enumerate() {
                let mut acc = T::zero();
                for (ib, q) in s.vals.iter().enumerate() {
                    if let Some(&w) = o.get(ia + ib) {
                        acc = acc.add(q.mul(w));
                    }
                }
                *slot = acc;
            }
            ticks.tick((c.vals.len() * s.vals.len()) as u64, budget, what)?;
            let err = o_err + s.err + T::UNIT * (1 + s.vals.len()) as f64;
            outside[child] = Some((out, err));
        }
    }
    for (leaf, node) in nodes.iter().enumerate() {
        let c = node.component;
        if c == usize::MAX {
            continue;
        }
        let (o, err) = outside[leaf].take().expect("every leaf gets a weight");
        let first = (node.lo - components[c].lo as u64) as usize;
        // The leaf may have been truncated at the cap: what is beyond it
        // has weight 0.
        omega[c][first..first + o.len()].copy_from_slice(&o);
        omega_err[c] = err;
    }
    Ok(Combined {
        omega,
        omega_err,
        interior: interior_weights,
        log2_layouts,
    })
}

/// Index in the root's vector of the total leaving `m` interior mines.
fn index_of(m: u64, cap: u64, root_lo: u64) -> usize {
    (cap - m - root_lo) as usize
}

/// Drops totals above `cap`; none left means no layout.
fn truncate<T: Num>(node: &mut Node<'_, T>, cap: u64) -> Result<(), Failure> {
    if node.lo > cap {
        return Err(Failure::NoLayout);
    }
    let keep = ((cap - node.lo + 1) as usize).min(node.vals.len());
    match &mut node.vals {
        Cow::Borrowed(vals) => *vals = &vals[..keep],
        Cow::Owned(vals) => vals.truncate(keep),
    }
    Ok(())
}

/// The node over two children: their counts convolved, totals above `cap`
/// dropped.
fn convolve<'a, T: Num>(
    a: &Node<'a, T>,
    b: &Node<'a, T>,
    cap: u64,
    children: (usize, usize),
) -> Result<Node<'a, T>, Failure> {
    let lo = a.lo + b.lo;
    if lo > cap {
        return Err(Failure::NoLayout);
    }
    let len = (a.vals.len() + b.vals.len() - 1).min((cap - lo + 1) as usize);
    let mut vals = vec![T::zero(); len];
    for (i, x) in a.vals.iter().enumerate() {
        if i >= len {
            break;
        }
        for (d, y) in vals[i..].iter_mut().zip(b.vals.iter()) {
            *d = d.add(x.mul(*y));
        }
    }
    let shorter = a.vals.len().min(b.vals.len());
    Ok(Node {
        lo,
        vals: Cow::Owned(vals),
        // A product carries both factors' errors and its own rounding; an
        // entry adds up at most `shorter` of them.
        err: a.err + b.err + T::UNIT * (1 + shorter) as f64,
        children: Some(children),
        component: usize::MAX,
    })
}

/// `log2 C(n, m)`, within about `1e-15 · log2 n!` (Stirling's series).
pub(crate) fn log2_binomial(n: u64, m: u64) -> f64 {
    (ln_factorial(n) - ln_factorial(m) - ln_factorial(n - m)) / std::f64::consts::LN_2
}

/// `ln n!` ([`ln_factorial_of`]), the values below [`KEPT_FACTORIALS`]
/// computed once, at first use, and kept (the same bits every time).
fn ln_factorial(n: u64) -> f64 {
    static KEPT: LazyLock<Vec<f64>> =
        LazyLock::new(|| (0..KEPT_FACTORIALS as u64).map(ln_factorial_of).collect());
    match KEPT.get(n as usize) {
        Some(&value) => value,
        None => ln_factorial_of(n),
    }
}

/// How many values of `ln n!` are kept (`n` below this).
const KEPT_FACTORIALS: usize = 1024;

/// `ln n!`: exact products below 20, Stirling's series above (truncation
/// error below `1/(1188 n^9)`).
fn ln_factorial_of(n: u64) -> f64 {
    if n < 20 {
        return (1..=n).map(|i| i as f64).product::<f64>().ln();
    }
    let x = n as f64;
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    x * x.ln() - x
        + 0.5 * (std::f64::consts::TAU * x).ln()
        + inv * (1.0 / 12.0 - inv2 * (1.0 / 360.0 - inv2 * (1.0 / 1260.0 - inv2 / 1680.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_binomials_match_exact_values() {
        // C(10, 3) = 120; C(52, 5) = 2,598,960; C(480, 99) via its log.
        assert!((log2_binomial(10, 3) - 120f64.log2()).abs() < 1e-12);
        assert!((log2_binomial(52, 5) - 2_598_960f64.log2()).abs() < 1e-12);
        let exact: f64 = (0..99)
            .map(|i| ((480 - i) as f64 / (i + 1) as f64).log2())
            .sum();
        assert!((log2_binomial(480, 99) - exact).abs() < 1e-9);
        assert_eq!(log2_binomial(7, 0), 0.0);
        assert_eq!(log2_binomial(0, 0), 0.0);
    }
}
