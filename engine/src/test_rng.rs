//! The unit tests' one seeded generator (the integration tests have theirs
//! in `tests/support/`, which this crate cannot reach): xorshift64 with
//! shifts 13, 7, 17 — fast, deterministic, and good enough to vary test
//! inputs; nothing here needs statistical quality.

/// xorshift64 from a non-zero seed (a zero seed is made 1).
pub(crate) struct XorShift64(u64);

impl XorShift64 {
    pub(crate) fn new(seed: u64) -> XorShift64 {
        XorShift64(seed.max(1))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        let mut s = self.0;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        self.0 = s;
        s
    }

    /// A number in `0..n` (`n > 0`; the modulo bias does not matter here).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
