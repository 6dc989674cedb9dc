//! The exact number of layouts, in big integers, on demand.
//!
//! The same sums as the floating programmes, with nothing rounded: each
//! component's counts `N_c(k)` (taken from the floating forward pass when
//! that was exact — every value an integer below `2^53` — and otherwise
//! counted again with `BigUint`), convolved over the components, then
//! `Σ_t N(t) · C(I, R − t)` with the total, or `Π_c Σ_k N_c(k) · 2^I` with a
//! density (the layouts that fit the numbers, any number of mines).

use super::component::{forward, Failure, Held, KeyScratch, Layers, Plan};
use super::Mode;
use crate::budget::{Budget, OverBudget};
use crate::constraints::System;
use num_bigint::BigUint;

/// The exact number of layouts (see the module doc). `known[c]` holds
/// component `c`'s counts `(lo, N(lo..))` when the floating pass found
/// them exactly; `held`: the bytes the floating pass still holds.
#[allow(clippy::too_many_arguments)]
pub(crate) fn layouts(
    system: &System,
    plans: &[Plan],
    known: &[Option<(u32, Vec<u64>)>],
    mode: Mode,
    interior: u64,
    keys: &mut KeyScratch,
    budget: &Budget,
    held: usize,
) -> Result<BigUint, OverBudget> {
    let held = Held {
        kept: held,
        backward: 0,
    };
    let mut counts: Vec<(u64, Vec<BigUint>)> = Vec::with_capacity(plans.len());
    let mut layers = Layers::<BigUint>::default();
    for (plan, known) in plans.iter().zip(known) {
        counts.push(match known {
            Some((lo, n)) => (*lo as u64, n.iter().map(|&x| BigUint::from(x)).collect()),
            None => {
                match forward::<BigUint>(plan, system, keys, budget, held, &mut layers, false) {
                    Ok(()) => {
                        let (lo, n, _) = layers.counts();
                        (lo as u64, n.to_vec())
                    }
                    Err(Failure::OverBudget(e)) => return Err(e),
                    Err(Failure::NoLayout) => unreachable!("the floating pass counted it"),
                }
            }
        });
    }
    combined(counts, mode, interior, budget)
}

/// The exact number of layouts from every component's exact counts
/// `(lo, N(lo..))` (a packed count holds them all).
pub(crate) fn layouts_of(
    counts: Vec<(u64, Vec<u64>)>,
    mode: Mode,
    interior: u64,
    budget: &Budget,
) -> Result<BigUint, OverBudget> {
    let counts = counts
        .into_iter()
        .map(|(lo, n)| (lo, n.into_iter().map(BigUint::from).collect()))
        .collect();
    combined(counts, mode, interior, budget)
}

/// The components' exact counts combined (see the module doc).
fn combined(
    counts: Vec<(u64, Vec<BigUint>)>,
    mode: Mode,
    interior: u64,
    budget: &Budget,
) -> Result<BigUint, OverBudget> {
    match mode {
        Mode::Density(_) => {
            let mut product = BigUint::from(1u32) << interior as usize;
            for (_, n) in &counts {
                product *= n.iter().sum::<BigUint>();
            }
            Ok(product)
        }
        Mode::Total { remaining } => {
            // Frontier totals up to `remaining`, convolved component by
            // component.
            let mut lo = 0u64;
            let mut totals = vec![BigUint::from(1u32)];
            for (c_lo, n) in &counts {
                lo += c_lo;
                if lo > remaining {
                    return Ok(BigUint::ZERO);
                }
                let len = (totals.len() + n.len() - 1).min((remaining - lo + 1) as usize);
                let mut next = vec![BigUint::ZERO; len];
                for (i, x) in totals.iter().enumerate() {
                    for (d, y) in next[i.min(len)..].iter_mut().zip(n) {
                        *d += x * y;
                    }
                }
                totals = next;
                budget.check_time(|| "counting the layouts exactly".to_string())?;
            }
            // Interior mines m = remaining − t must lie in 0..=interior.
            let m_of = |i: usize| remaining - lo - i as u64;
            let valid: Vec<usize> = (0..totals.len()).filter(|&i| m_of(i) <= interior).collect();
            let Some(&last) = valid.last() else {
                return Ok(BigUint::ZERO);
            };
            let m_lo = m_of(last);
            let mut binomial = binomial(interior, m_lo);
            let mut sum = BigUint::ZERO;
            // From the smallest m upwards: i goes down.
            let mut m = m_lo;
            for &i in valid.iter().rev() {
                while m < m_of(i) {
                    binomial = binomial * (interior - m) / (m + 1);
                    m += 1;
                }
                sum += &totals[i] * &binomial;
            }
            Ok(sum)
        }
    }
}

#[cfg(test)]
pub(crate) fn binomial_for_tests(n: u64, k: u64) -> BigUint {
    binomial(n, k)
}

/// `C(n, k)` exactly: `n (n−1) … (n−k+1) / k!`, both products built from
/// word-sized batches of factors, then one division.
fn binomial(n: u64, k: u64) -> BigUint {
    let k = k.min(n - k);
    let product = |factors: &mut dyn Iterator<Item = u64>| -> BigUint {
        let mut result = BigUint::from(1u32);
        let mut batch = 1u64;
        for f in factors {
            match batch.checked_mul(f) {
                Some(b) => batch = b,
                None => {
                    result *= batch;
                    batch = f;
                }
            }
        }
        result * batch
    };
    product(&mut (n - k + 1..=n)) / product(&mut (1..=k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_exact() {
        assert_eq!(binomial(10, 3), BigUint::from(120u32));
        assert_eq!(binomial(52, 47), BigUint::from(2_598_960u32));
        assert_eq!(binomial(0, 0), BigUint::from(1u32));
        assert_eq!(
            binomial(100, 50).to_string(),
            "100891344545564193334812497256"
        );
    }
}
