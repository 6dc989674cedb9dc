//! The unit tests' seeded generator: the same one as the integration
//! tests' (`tests/suite/util`), `rand_xoshiro`'s Xoshiro256++ seeded by
//! `seed_from_u64` — deterministic, and more than good enough to vary test
//! inputs.

use rand::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A seeded generator for tests.
pub(crate) struct TestRng(Xoshiro256PlusPlus);

impl TestRng {
    pub(crate) fn new(seed: u64) -> TestRng {
        TestRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n > 0`; the modulo bias does not matter here).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
