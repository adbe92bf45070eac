//! The portable Keccak-p[1600]: the contract of `lanes.rs` on plain `u64`
//! (one state, any CPU). `keccak_p1600` is the generic round on it, the
//! single-state fallback of the dispatcher (and, compiled with BMI1/BMI2,
//! `isa/bmi.rs`). Tested against the golden model.

use super::golden::{State, ROUND_CONSTANTS};
use super::lanes::{permute, Lanes};

// SAFETY: plain integer operations; no instruction set needed.
unsafe impl Lanes for u64 {
    const N: usize = 1;
    const FAST_XOR3: bool = false;

    #[inline(always)]
    unsafe fn zero() -> Self {
        0
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        x
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        a ^ b
    }
    #[inline(always)]
    unsafe fn and(a: Self, b: Self) -> Self {
        a & b
    }
    #[inline(always)]
    unsafe fn chi(a: Self, b: Self, c: Self) -> Self {
        a ^ (!b & c)
    }
    #[inline(always)]
    unsafe fn rotl<const L: i32, const R: i32>(a: Self) -> Self {
        a.rotate_left(L as u32)
    }
    #[inline(always)]
    unsafe fn load(p: *const u64) -> Self {
        // SAFETY: the caller passes 8 readable bytes.
        unsafe { p.read_unaligned() }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64) {
        // SAFETY: the caller passes 8 writable bytes.
        unsafe { p.write_unaligned(self) }
    }
    #[inline(always)]
    unsafe fn absorb(state: &mut [Self; 25], ptrs: &[*const u8], words: usize) {
        for w in 0..words {
            // SAFETY: ptrs[0] is readable for 8 * words bytes (trait contract).
            state[w] ^=
                u64::from_le(unsafe { (ptrs[0].add(8 * w) as *const u64).read_unaligned() });
        }
    }
}

/// Keccak-p[1600, rounds] by the generic round on `u64` lanes (callers
/// check `rounds`).
#[inline(always)]
pub(crate) fn keccak_p1600(a: &mut State, rounds: usize) {
    let mut v = *a;
    // SAFETY: the u64 implementation needs no instruction set.
    unsafe { permute::<u64>(&mut v, rounds) };
    *a = v;
}

/// ρ offsets indexed by lane x + 5y (FIPS 202 Table 2, reduced mod 64).
const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/// π destination of each source lane: A[x, y] moves to (y, 2x + 3y).
const PI_DEST: [usize; 25] = {
    let mut d = [0usize; 25];
    let mut i = 0;
    while i < 25 {
        let (x, y) = (i % 5, i / 5);
        d[i] = y + 5 * ((2 * x + 3 * y) % 5);
        i += 1;
    }
    d
};

#[inline(always)]
fn round(a: &mut State, rc: u64) {
    // θ
    let mut c = [0u64; 5];
    for x in 0..5 {
        c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    }
    let mut d = [0u64; 5];
    for x in 0..5 {
        d[x] = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
    }
    // θ's xor, ρ and π in one move.
    let mut b = [0u64; 25];
    for i in 0..25 {
        b[PI_DEST[i]] = (a[i] ^ d[i % 5]).rotate_left(RHO[i]);
    }
    // χ and ι
    for y in 0..5 {
        for x in 0..5 {
            a[x + 5 * y] = b[x + 5 * y] ^ (!b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
        }
    }
    a[0] ^= rc;
}

/// The first scalar Keccak-p[1600, rounds], unrolled by hand: kept only to
/// compare with (`Single::Reference` in benchmarks and tests). Callers
/// check `rounds`.
#[inline(always)]
pub(crate) fn keccak_p1600_unrolled(a: &mut State, rounds: usize) {
    // Two rounds per iteration halves loop overhead; an odd count starts with one.
    let mut ir = 24 - rounds;
    if rounds % 2 == 1 {
        round(a, ROUND_CONSTANTS[ir]);
        ir += 1;
    }
    while ir < 24 {
        round(a, ROUND_CONSTANTS[ir]);
        round(a, ROUND_CONSTANTS[ir + 1]);
        ir += 2;
    }
}

#[cfg(test)]
mod tests {
    use super::super::golden;
    use super::*;

    #[test]
    fn rho_table_matches_golden() {
        let g = golden::rho_offsets();
        for i in 0..25 {
            assert_eq!(RHO[i], g[i] % 64, "lane {i}");
        }
    }

    #[test]
    fn matches_golden_for_every_round_count() {
        let mut seed = 0x0123_4567_89ab_cdefu64;
        for rounds in 1..=24 {
            let mut a = [0u64; 25];
            for lane in a.iter_mut() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *lane = seed;
            }
            let mut b = a;
            let mut c = a;
            keccak_p1600(&mut a, rounds);
            keccak_p1600_unrolled(&mut c, rounds);
            golden::keccak_p(&mut b, 1600, rounds);
            assert_eq!(a, b, "rounds = {rounds}");
            assert_eq!(c, b, "unrolled, rounds = {rounds}");
        }
    }
}
