//! The SHA-1 and SHA-256 constants and initial values (FIPS 180-4 §4.2 and
//! §5.3), which the unit tests below recompute from the primes' roots. A
//! leaf of `sha`: the forms (portable, x86, two threads) and the hashers in
//! `sha` itself all read it.

/// SHA-1 initial hash value H(0), FIPS 180-4 §5.3.1.
pub(crate) const IV1: [u32; 5] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
/// SHA-1 constants of rounds 0–19, 20–39, 40–59, 60–79, FIPS 180-4 §4.2.1.
pub(crate) const K1: [u32; 4] = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

/// SHA-256 initial hash value H(0), FIPS 180-4 §5.3.3.
pub(crate) const IV256: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];
/// SHA-256 constants K[0..64], FIPS 180-4 §4.2.2.
pub(crate) const K256: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

#[cfg(test)]
mod tests {
    fn primes(n: usize) -> Vec<u64> {
        let mut p = Vec::new();
        let mut k = 2u64;
        while p.len() < n {
            if (2..k).all(|d| !k.is_multiple_of(d)) {
                p.push(k);
            }
            k += 1;
        }
        p
    }

    /// First 32 bits of the fractional part, FIPS 180-4 §4.2.2 / §5.3.3.
    fn frac32(x: f64) -> u32 {
        ((x - x.floor()) * 4294967296.0) as u32
    }

    #[test]
    fn sha256_constants_from_prime_roots() {
        for (i, p) in primes(64).into_iter().enumerate() {
            assert_eq!(super::K256[i], frac32((p as f64).cbrt()), "K[{i}]");
        }
        for (i, p) in primes(8).into_iter().enumerate() {
            assert_eq!(super::IV256[i], frac32((p as f64).sqrt()), "H0[{i}]");
        }
    }

    #[test]
    fn sha1_constants_from_roots() {
        // K = floor(2^30 * sqrt(n)) for n = 2, 3, 5, 10.
        for (k, n) in super::K1.iter().zip([2.0f64, 3.0, 5.0, 10.0]) {
            assert_eq!(*k, (n.sqrt() * 1073741824.0) as u32);
        }
    }
}
