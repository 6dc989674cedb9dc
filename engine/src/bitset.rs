//! Sets of mine counts as bitsets: bit `k` of little-endian `u64` words
//! stands for "`k` mines".
//!
//! The exact methods carry, per state of their programmes, the set of mine
//! counts with which it can be reached; combining two parts of a board adds
//! their counts, which on bitsets is a shifted OR (`or_shl`), and asking
//! whether a prefix and a completion fit together is a shifted AND
//! (`intersects_shl`). Sets are slices of words whose length the caller
//! chooses; bits shifted past the end are dropped.

#[inline]
pub fn get_bit(b: &[u64], k: usize) -> bool {
    b.get(k / 64).is_some_and(|w| w >> (k % 64) & 1 == 1)
}

#[inline]
pub fn set_bit(b: &mut [u64], k: usize) {
    b[k / 64] |= 1 << (k % 64);
}

/// Sets bits `lo..=hi`.
pub fn set_range(b: &mut [u64], lo: usize, hi: usize) {
    for k in lo..=hi {
        set_bit(b, k);
    }
}

/// Clears bits `from..`.
pub fn clear_from(b: &mut [u64], from: usize) {
    for (w, word) in b.iter_mut().enumerate() {
        let base = w * 64;
        if base >= from {
            *word = 0;
        } else if base + 64 > from {
            *word &= (1u64 << (from - base)) - 1;
        }
    }
}

pub fn any_in_range(b: &[u64], lo: usize, hi: usize) -> bool {
    lo <= hi && (lo..=hi).any(|k| get_bit(b, k))
}

/// The least element, `None` for the empty set.
pub fn lowest_bit(b: &[u64]) -> Option<usize> {
    b.iter()
        .enumerate()
        .find(|(_, &word)| word != 0)
        .map(|(w, &word)| w * 64 + word.trailing_zeros() as usize)
}

/// The greatest element, `None` for the empty set.
pub fn highest_bit(b: &[u64]) -> Option<usize> {
    b.iter()
        .enumerate()
        .rev()
        .find(|(_, &word)| word != 0)
        .map(|(w, &word)| w * 64 + 63 - word.leading_zeros() as usize)
}

pub fn for_each_bit(b: &[u64], mut f: impl FnMut(usize)) {
    for (w, &word) in b.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            f(w * 64 + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

/// Word `i` of `src << sh`.
#[inline]
pub fn shl_word(src: &[u64], sh: usize, i: usize) -> u64 {
    let (ws, bs) = (sh / 64, sh % 64);
    if i < ws {
        return 0;
    }
    let j = i - ws;
    let low = if j < src.len() { src[j] << bs } else { 0 };
    let carry = if bs > 0 && j >= 1 && j - 1 < src.len() {
        src[j - 1] >> (64 - bs)
    } else {
        0
    };
    low | carry
}

/// `dst |= src << sh`, truncated to `dst`'s length.
#[inline]
pub fn or_shl(dst: &mut [u64], src: &[u64], sh: usize) {
    for (i, d) in dst.iter_mut().enumerate() {
        *d |= shl_word(src, sh, i);
    }
}

/// `dst |= src >> sh`.
#[inline]
pub fn or_shr(dst: &mut [u64], src: &[u64], sh: usize) {
    let (ws, bs) = (sh / 64, sh % 64);
    for (i, d) in dst.iter_mut().enumerate() {
        let j = i + ws;
        let low = if j < src.len() { src[j] >> bs } else { 0 };
        let carry = if bs > 0 && j + 1 < src.len() {
            src[j + 1] << (64 - bs)
        } else {
            0
        };
        *d |= low | carry;
    }
}

/// Whether `(a << sh) & b` is non-empty.
#[inline]
pub fn intersects_shl(a: &[u64], sh: usize, b: &[u64]) -> bool {
    b.iter()
        .enumerate()
        .any(|(i, &w)| w & shl_word(a, sh, i) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_carry_across_words_and_drop_what_falls_off() {
        let a = [0b1011u64, 1 << 63];
        let mut d = [0u64; 3];
        or_shl(&mut d, &a, 63);
        assert_eq!(d, [1 << 63, 0b101, 1 << 62]);
        let mut e = [0u64; 2];
        or_shr(&mut e, &d, 63);
        assert_eq!(e, [0b1011, 1 << 63]);
        assert!(intersects_shl(&a, 1, &[0b100, 0]));
        assert!(!intersects_shl(&a, 1, &[0b1, 0]));
        assert_eq!(lowest_bit(&d), Some(63));
        assert_eq!(highest_bit(&d), Some(190));
        assert_eq!(lowest_bit(&[0, 0]), None);
        assert_eq!(highest_bit(&[0, 0]), None);
        // Bits shifted past the end are dropped.
        let mut t = [0u64; 2];
        or_shl(&mut t, &a, 1);
        assert_eq!(t, [0b10110, 0]);
        let mut f = [u64::MAX; 2];
        clear_from(&mut f, 70);
        assert_eq!(f, [u64::MAX, 0b111111]);
        assert!(any_in_range(&d, 60, 65) && !any_in_range(&d, 70, 127));
    }
}
