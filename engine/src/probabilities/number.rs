//! The numbers the counter computes with, and what each operation may cost
//! in accuracy.
//!
//! Every quantity of the counter is a sum of products of positive numbers,
//! so a computed value is the exact one times `Π (1 + δ_i)` over the
//! roundings it went through, each `|δ_i| ≤ unit` of its type; the counter
//! adds up `Σ |δ_i|` along the way (see `Count::UNIT` and the module doc of
//! the parent). Three kinds of number:
//!
//! - `f64` for the usual case: values that stay within `[2^-1000, 2^1000]`
//!   (the parent says when that is guaranteed), so nothing overflows or
//!   underflows and each operation rounds once, `|δ| ≤ 2^-53`. Integers
//!   below `2^53` are exact.
//! - [`Wide`], a double-double mantissa with its own 64-bit exponent, for
//!   positions beyond those bounds (huge boards, components of thousands of
//!   cells): no overflow or underflow in any real computation, and a
//!   relative error per operation below `16·2^-106` (the proven bounds of
//!   Joldes, Muller and Popescu, "Tight and rigorous error bounds for basic
//!   building blocks of double-word arithmetic", ACM TOMS 44(2), 2017, with
//!   `u = 2^-53`: `3u²/(1−4u)` for their accurate double-word addition,
//!   Algorithm 6; `7u²` for double-word multiplication, Algorithm 10;
//!   `3.5u²` for division by a float, Algorithm 15; rounded up with room
//!   to spare. Dropping an addend below `2^-120` of the other changes a sum
//!   by less than `2^-119`, and rescaling by powers of two is exact).
//! - `BigUint` for exact counts (the decimal number of layouts), through
//!   `Count` only.

use num_bigint::BigUint;

/// What the forward (counting) pass needs: zero, and `self += x · c` for a
/// small positive integer `c` (a binomial coefficient `C(g, j)`, `g ≤ 8`).
pub(crate) trait Count: Clone {
    /// Bound on `|δ|` of one operation (0 for exact integers).
    const UNIT: f64;
    fn zero() -> Self;
    fn one() -> Self;
    fn add_scaled(&mut self, x: &Self, c: u32);
    fn is_zero(&self) -> bool;
    /// True when these values, computed from integers by additions and
    /// multiplications by small integers, are certainly exact.
    fn known_exact(_values: &[Self]) -> bool {
        false
    }
    /// The value as an integer, if it is one below `2^53` held exactly.
    fn exact_u64(&self) -> Option<u64> {
        None
    }
    /// Bytes a value below `2^bits` holds, on the heap included (memory
    /// budgets).
    fn value_bytes(_bits: usize) -> usize {
        std::mem::size_of::<Self>()
    }
}

/// The floating numbers of the counter (`f64` and [`Wide`]).
pub(crate) trait Num: Count + Copy {
    fn from_f64(x: f64) -> Self;
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    /// `self · c` for a small non-negative integer `c`.
    fn mul_small(self, c: u32) -> Self;
    /// `self / c` for a positive integer `c < 2^53`.
    fn div_small(self, c: u64) -> Self;
    /// `log2(self)`, approximately (within 1e-9); `-inf` for zero.
    fn log2(self) -> f64;
    /// `self · 2^-shift` as an `f64`: one rounding if the result is normal.
    fn to_f64_scaled(self, shift: i64) -> f64;
    /// `num / den` as an `f64`, for `0 ≤ num ≤ den`, `den > 0`: three
    /// roundings at most (`|δ| ≤ 3·2^-53`), and an absolute error below
    /// `2^-1074` if the quotient is below `2^-1022`.
    fn ratio(num: Self, den: Self) -> f64;
}

/// The unit roundoff of `f64`.
pub(crate) const U64: f64 = f64::EPSILON / 2.0;

impl Count for f64 {
    const UNIT: f64 = U64;
    #[inline]
    fn zero() -> f64 {
        0.0
    }
    #[inline]
    fn one() -> f64 {
        1.0
    }
    /// Integers below `2^53` and every sum and product of them that stays
    /// below `2^53` are exact; every intermediate of the forward pass is at
    /// most the value it ends in.
    fn known_exact(values: &[f64]) -> bool {
        values.iter().all(|&v| v < 9_007_199_254_740_992.0)
    }
    fn exact_u64(&self) -> Option<u64> {
        (self.fract() == 0.0 && *self < 9_007_199_254_740_992.0).then_some(*self as u64)
    }
    #[inline]
    fn add_scaled(&mut self, x: &f64, c: u32) {
        *self += *x * c as f64;
    }
    #[inline]
    fn is_zero(&self) -> bool {
        *self == 0.0
    }
}

impl Num for f64 {
    #[inline]
    fn from_f64(x: f64) -> f64 {
        x
    }
    #[inline]
    fn add(self, o: f64) -> f64 {
        self + o
    }
    #[inline]
    fn mul(self, o: f64) -> f64 {
        self * o
    }
    #[inline]
    fn mul_small(self, c: u32) -> f64 {
        self * c as f64
    }
    #[inline]
    fn div_small(self, c: u64) -> f64 {
        self / c as f64
    }
    fn log2(self) -> f64 {
        f64::log2(self)
    }
    fn ratio(num: f64, den: f64) -> f64 {
        num / den
    }
    fn to_f64_scaled(self, shift: i64) -> f64 {
        scale_f64(self, -shift)
    }
}

impl Count for BigUint {
    const UNIT: f64 = 0.0;
    fn zero() -> BigUint {
        BigUint::ZERO
    }
    fn one() -> BigUint {
        BigUint::from(1u32)
    }
    fn known_exact(_: &[BigUint]) -> bool {
        true
    }
    fn value_bytes(bits: usize) -> usize {
        std::mem::size_of::<BigUint>() + bits.div_ceil(64) * std::mem::size_of::<u64>()
    }
    fn add_scaled(&mut self, x: &BigUint, c: u32) {
        if c == 1 {
            *self += x;
        } else {
            *self += x * c;
        }
    }
    fn is_zero(&self) -> bool {
        *self == BigUint::ZERO
    }
}

/// `x · 2^e`, exact unless the result leaves the normal range.
pub(crate) fn scale_f64(x: f64, e: i64) -> f64 {
    // Multiply by powers of two that are themselves representable; the
    // steps are exact while the result stays normal.
    let mut x = x;
    let mut e = e;
    while e > 1000 {
        x *= pow2(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= pow2(-1000);
        e += 1000;
    }
    x * pow2(e as i32)
}

/// `2^e` for `-1022 ≤ e ≤ 1023`.
#[inline]
fn pow2(e: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&e));
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// The binary exponent of a positive normal `f64`: `x ∈ [2^e, 2^(e+1))`.
#[inline]
fn exponent(x: f64) -> i64 {
    ((x.to_bits() >> 52) & 0x7ff) as i64 - 1023
}

/// A non-negative number `(hi + lo) · 2^exp` with a double-double mantissa
/// (`hi + lo` exactly, `|lo| ≤ ulp(hi)/2`) kept within `[2^-256, 2^257)`,
/// so neither the mantissa arithmetic nor its error terms ever leave the
/// normal range. Zero is `hi == 0`.
#[derive(Clone, Copy, Debug)]
pub struct Wide {
    hi: f64,
    lo: f64,
    exp: i64,
}

/// Largest magnitude of a mantissa's exponent before it is rescaled.
const WINDOW: i64 = 256;
/// An addend smaller than `2^-DROP` of the other is dropped (relative
/// change below `2^-(DROP-1)`, well under a double-double rounding).
const DROP: i64 = 120;

impl Wide {
    /// The number 0.
    pub const ZERO: Wide = Wide {
        hi: 0.0,
        lo: 0.0,
        exp: 0,
    };

    /// Brings the mantissa back into its window; exact (a power of two).
    #[inline]
    fn normalized(self) -> Wide {
        if self.hi == 0.0 {
            return Wide::ZERO;
        }
        let e = exponent(self.hi);
        if e.abs() <= WINDOW {
            return self;
        }
        let s = pow2(-e as i32);
        Wide {
            hi: self.hi * s,
            lo: self.lo * s,
            exp: self.exp + e,
        }
    }

    /// `log2` of the magnitude, to the nearest power of two below.
    #[inline]
    fn magnitude(self) -> i64 {
        self.exp + exponent(self.hi)
    }
}

// ---- double-double building blocks (positive operands, no overflow) ----

#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

#[inline]
fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

/// Dekker's split: `a = hi + lo` with 26-bit halves.
#[inline]
fn split(a: f64) -> (f64, f64) {
    let c = 134_217_729.0 * a; // 2^27 + 1
    let hi = c - (c - a);
    (hi, a - hi)
}

/// `a · b = p + e` exactly (Dekker; no fused multiply-add needed).
#[inline]
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
}

/// Accurate double-word addition (JMP17, Algorithm 6).
#[inline]
fn dd_add(xh: f64, xl: f64, yh: f64, yl: f64) -> (f64, f64) {
    let (sh, sl) = two_sum(xh, yh);
    let (th, tl) = two_sum(xl, yl);
    let c = sl + th;
    let (vh, vl) = fast_two_sum(sh, c);
    let w = tl + vl;
    fast_two_sum(vh, w)
}

/// Double-word divided by a float (JMP17, Algorithm 15).
#[inline]
fn dd_div_f64(xh: f64, xl: f64, y: f64) -> (f64, f64) {
    let th = xh / y;
    let (ph, pl) = two_prod(th, y);
    let dh = xh - ph;
    let dl = xl - pl;
    let tl = (dh + dl) / y;
    fast_two_sum(th, tl)
}

/// Double-word multiplication (JMP17, Algorithm 10).
#[inline]
fn dd_mul(xh: f64, xl: f64, yh: f64, yl: f64) -> (f64, f64) {
    let (ch, cl1) = two_prod(xh, yh);
    let cl2 = xh * yl + xl * yh;
    let cl3 = cl1 + cl2;
    fast_two_sum(ch, cl3)
}

impl Count for Wide {
    const UNIT: f64 = 16.0 * U64 * U64;
    #[inline]
    fn zero() -> Wide {
        Wide::ZERO
    }
    #[inline]
    fn one() -> Wide {
        Wide {
            hi: 1.0,
            lo: 0.0,
            exp: 0,
        }
    }
    #[inline]
    fn add_scaled(&mut self, x: &Wide, c: u32) {
        *self = self.add(x.mul_small(c));
    }
    #[inline]
    fn is_zero(&self) -> bool {
        self.hi == 0.0
    }
}

impl Num for Wide {
    fn from_f64(x: f64) -> Wide {
        debug_assert!(x >= 0.0 && x.is_finite());
        if x == 0.0 {
            return Wide::ZERO;
        }
        // A subnormal input is scaled up exactly first.
        let (x, e) = if x < f64::MIN_POSITIVE {
            (x * pow2(600), -600)
        } else {
            (x, 0)
        };
        Wide {
            hi: x,
            lo: 0.0,
            exp: e,
        }
        .normalized()
    }

    #[inline]
    fn add(self, o: Wide) -> Wide {
        if o.hi == 0.0 {
            return self;
        }
        if self.hi == 0.0 {
            return o;
        }
        let (big, small) = if self.magnitude() >= o.magnitude() {
            (self, o)
        } else {
            (o, self)
        };
        let gap = big.magnitude() - small.magnitude();
        if gap > DROP {
            return big;
        }
        // Both mantissas within 2^±256 and magnitudes within 2^120: the
        // shift is below 2^632 and the shifted mantissa stays normal.
        let s = pow2((small.exp - big.exp) as i32);
        let (hi, lo) = dd_add(big.hi, big.lo, small.hi * s, small.lo * s);
        Wide {
            hi,
            lo,
            exp: big.exp,
        }
        .normalized()
    }

    #[inline]
    fn mul(self, o: Wide) -> Wide {
        if self.hi == 0.0 || o.hi == 0.0 {
            return Wide::ZERO;
        }
        let (hi, lo) = dd_mul(self.hi, self.lo, o.hi, o.lo);
        Wide {
            hi,
            lo,
            exp: self.exp + o.exp,
        }
        .normalized()
    }

    #[inline]
    fn mul_small(self, c: u32) -> Wide {
        if c == 1 {
            return self;
        }
        if c == 0 || self.hi == 0.0 {
            return Wide::ZERO;
        }
        let (hi, lo) = dd_mul(self.hi, self.lo, c as f64, 0.0);
        Wide {
            hi,
            lo,
            exp: self.exp,
        }
        .normalized()
    }

    #[inline]
    fn div_small(self, c: u64) -> Wide {
        if self.hi == 0.0 {
            return Wide::ZERO;
        }
        let (hi, lo) = dd_div_f64(self.hi, self.lo, c as f64);
        Wide {
            hi,
            lo,
            exp: self.exp,
        }
        .normalized()
    }

    fn log2(self) -> f64 {
        if self.hi == 0.0 {
            return f64::NEG_INFINITY;
        }
        self.exp as f64 + (self.hi + self.lo).log2()
    }

    fn to_f64_scaled(self, shift: i64) -> f64 {
        if self.hi == 0.0 {
            return 0.0;
        }
        scale_f64(self.hi + self.lo, self.exp - shift)
    }

    fn ratio(num: Wide, den: Wide) -> f64 {
        if num.hi == 0.0 {
            return 0.0;
        }
        let q = (num.hi + num.lo) / (den.hi + den.lo);
        scale_f64(q, num.exp - den.exp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;
    use proptest::prelude::*;

    /// The exact value of a `Wide` as a rational `n / 2^k` compared with
    /// an exact integer: the relative difference.
    fn relative_error(w: Wide, exact: &BigUint) -> f64 {
        // hi and lo are integers times powers of two; bring both to a
        // common denominator 2^k with k large enough.
        let to_parts = |x: f64| -> (i128, i64) {
            if x == 0.0 {
                return (0, 0);
            }
            let bits = x.to_bits();
            let e = ((bits >> 52) & 0x7ff) as i64;
            let m = (bits & ((1 << 52) - 1)) | if e == 0 { 0 } else { 1 << 52 };
            let sign = if x < 0.0 { -1 } else { 1 };
            (sign * m as i128, e.max(1) - 1075)
        };
        let (mh, eh) = to_parts(w.hi);
        let (ml, el) = to_parts(w.lo);
        let k = -(eh.min(el) + w.exp).min(0) + 8;
        use num_bigint::BigInt;
        let term = |m: i128, e: i64| -> BigInt { BigInt::from(m) << ((e + w.exp + k) as usize) };
        let value = term(mh, eh) + if ml != 0 { term(ml, el) } else { BigInt::ZERO };
        let exact_scaled = BigInt::from(exact.clone()) << (k as usize);
        let diff = (value - &exact_scaled).magnitude().clone();
        let ratio = |a: &BigUint, b: &BigUint| -> f64 {
            let shift = (b.bits() as i64 - 60).max(0) as usize;
            let a = (a >> shift).to_string().parse::<f64>().unwrap();
            let b = (b >> shift).to_string().parse::<f64>().unwrap();
            a / b
        };
        ratio(&diff, exact_scaled.magnitude())
    }

    #[test]
    fn wide_spans_far_beyond_f64_and_keeps_integers_exact() {
        let two = Wide::from_f64(2.0);
        let mut x = Wide::from_f64(1.0);
        for _ in 0..5000 {
            x = x.mul(two);
        }
        assert!((x.log2() - 5000.0).abs() < 1e-9);
        let mut y = Wide::from_f64(1.0);
        for _ in 0..5000 {
            y = y.mul(Wide::from_f64(0.5));
        }
        assert!((y.log2() + 5000.0).abs() < 1e-9);
        assert_eq!(Wide::ratio(x.mul(y), Wide::from_f64(4.0)), 0.25);
        assert_eq!(Wide::ratio(y, x), 0.0); // 2^-10000 underflows f64
                                            // 2^5000 + 1 - 2^5000 is not representable, but products of
                                            // integers below 2^100 are exact.
        let a = Wide::from_f64(((1u64 << 50) + 3) as f64);
        let b = a.mul(a); // (2^50+3)^2 < 2^101: exact in a double-double
        let exact = BigUint::from((1u64 << 50) + 3).pow(2);
        assert_eq!(relative_error(b, &exact), 0.0);
    }

    proptest! {
        /// Sums of products of random integers, computed in `Wide`, stay
        /// within the stated unit per operation of the exact big-integer
        /// result.
        #[test]
        fn wide_sums_of_products_stay_within_the_stated_error(
            terms in prop::collection::vec(prop::collection::vec(1u64..u64::MAX, 1..40), 1..30)
        ) {
            let mut acc = Wide::ZERO;
            let mut exact = BigUint::ZERO;
            let mut ops = 0usize;
            let mut deepest = 0usize;
            for factors in &terms {
                let mut p = Wide::from_f64(1.0);
                let mut e = BigUint::from(1u32);
                for &f in factors {
                    // u64 → f64 rounds; use the rounded value exactly.
                    let fl = f as f64;
                    p = p.mul(Wide::from_f64(fl));
                    e *= BigUint::from(fl as u128);
                }
                deepest = deepest.max(factors.len());
                acc = acc.add(p);
                exact += e;
                ops += 1;
            }
            let bound = (deepest + ops) as f64 * Wide::UNIT;
            let err = relative_error(acc, &exact);
            prop_assert!(err <= bound, "error {err:e} above bound {bound:e}");
        }
    }
}
