//! A small seeded PRNG (SplitMix64) for randomized tests, so a failure can be
//! replayed: every randomized test takes its seed from `KECCAKX_TEST_SEED`
//! (decimal or 0x-hex) when set, otherwise from the clock, and prints the
//! seed if it fails (see [`SeedGuard`]).

use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0); the tiny modulo bias does not matter here.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0);
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    pub fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = vec![0u8; n];
        self.fill(&mut v);
        v
    }

    /// Sorted random cut points splitting `0..len` into pieces (some empty).
    pub fn splits(&mut self, len: usize, max_pieces: usize) -> Vec<usize> {
        let k = self.below(max_pieces.max(1));
        let mut cuts: Vec<usize> = (0..k).map(|_| self.below(len + 1)).collect();
        cuts.sort_unstable();
        cuts
    }
}

/// The seed for a randomized test, from `KECCAKX_TEST_SEED` or the clock,
/// mixed with the test's name so tests running together differ.
pub fn test_seed(test_name: &str) -> u64 {
    let base = match std::env::var("KECCAKX_TEST_SEED") {
        Ok(s) => {
            let s = s.trim();
            let parsed = match s.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => s.parse(),
            };
            return parsed.unwrap_or_else(|_| panic!("KECCAKX_TEST_SEED={s:?} is not a number"));
        }
        Err(_) => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1),
    };
    let mut h = base;
    for b in test_name.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// Prints the seed (and how to replay it) if the test panics while this
/// guard is alive.
pub struct SeedGuard {
    pub name: &'static str,
    pub seed: u64,
}

impl SeedGuard {
    pub fn new(name: &'static str) -> (Self, Rng) {
        let seed = test_seed(name);
        (SeedGuard { name, seed }, Rng::new(seed))
    }
}

impl Drop for SeedGuard {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "\n*** randomized test `{}` failed with seed {:#x}; replay with KECCAKX_TEST_SEED={:#x} cargo test --release -p keccakx --test <file> {}",
                self.name, self.seed, self.seed, self.name
            );
        }
    }
}
