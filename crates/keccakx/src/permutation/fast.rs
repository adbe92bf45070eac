//! Fast scalar Keccak-p[1600, nr]: θ, ρ, π, χ, ι fused into one pass per round,
//! every index a compile-time constant so the compiler keeps lanes in
//! registers and fully unrolls the round. Tested against the golden model.

use super::generic::ROUND_CONSTANTS;
use super::State;

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

/// Keccak-p[1600, rounds] for 1 ≤ rounds ≤ 24 (the last `rounds` rounds),
/// on the fastest single-state implementation of this CPU
/// (see [`super::single`]).
#[inline]
pub fn keccak_p1600(a: &mut State, rounds: usize) {
    assert!(
        (1..=24).contains(&rounds),
        "Keccak-p[1600] takes 1..=24 rounds"
    );
    super::single::dispatch(a, rounds)
}

/// The portable scalar Keccak-p[1600, rounds] (callers check `rounds`).
#[inline(always)]
pub(crate) fn keccak_p1600_portable(a: &mut State, rounds: usize) {
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

/// Keccak-f[1600] = Keccak-p[1600, 24].
#[inline]
pub fn keccak_f1600(a: &mut State) {
    keccak_p1600(a, 24)
}

#[cfg(test)]
mod tests {
    use super::super::generic;
    use super::*;

    #[test]
    fn rho_table_matches_golden() {
        let g = generic::rho_offsets();
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
            keccak_p1600(&mut a, rounds);
            generic::keccak_p(&mut b, 1600, rounds);
            assert_eq!(a, b, "rounds = {rounds}");
        }
    }
}
