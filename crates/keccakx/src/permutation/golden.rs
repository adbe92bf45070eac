//! The golden model: Keccak-p[b, nr] for every width, step by step as in
//! FIPS 202 §3.2–3.3. Clarity over speed; every fast path is tested against it.

use crate::error::{Error, Result};

/// The state as 25 lanes, `A[x + 5*y]`. For widths below 1600 each lane holds
/// w = b/25 bits in its low-order bits; the rest are zero.
pub type State = [u64; 25];

/// The seven Keccak-p widths b = 25·2^ℓ.
pub const WIDTHS: [usize; 7] = [25, 50, 100, 200, 400, 800, 1600];

/// ℓ = log2(b/25) for a valid width.
pub fn log2_lane(width: usize) -> Result<u32> {
    match WIDTHS.iter().position(|&w| w == width) {
        Some(l) => Ok(l as u32),
        None => Err(Error::InvalidWidth(width)),
    }
}

/// Full round count of Keccak-f\[b\]: 12 + 2ℓ.
pub fn max_rounds(width: usize) -> Result<usize> {
    Ok(12 + 2 * log2_lane(width)? as usize)
}

/// Validates a (width, rounds) pair for Keccak-p.
pub fn check_params(width: usize, rounds: usize) -> Result<()> {
    let max = max_rounds(width)?;
    if rounds == 0 || rounds > max {
        return Err(Error::InvalidRounds { width, rounds, max });
    }
    Ok(())
}

/// Round constants of Keccak-f\[1600\] (FIPS 202 Table, derived by `rc` below).
/// For a lane width w < 64 the constant is the low w bits of these.
pub const ROUND_CONSTANTS: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808A,
    0x8000000080008000,
    0x000000000000808B,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008A,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000A,
    0x000000008000808B,
    0x800000000000008B,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800A,
    0x800000008000000A,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

/// FIPS 202 Algorithm 5: the bit rc(t) of the LFSR x^8 + x^6 + x^5 + x^4 + 1.
pub fn rc(t: usize) -> u64 {
    if t.is_multiple_of(255) {
        return 1;
    }
    let mut r: u16 = 0x01; // R = 10000000, R[0] is the low bit
    for _ in 0..t % 255 {
        // R = 0 || R; R[0..] ^= R[8] at positions 0, 4, 5, 6.
        r <<= 1;
        let r8 = (r >> 8) & 1;
        r ^= r8 | (r8 << 4) | (r8 << 5) | (r8 << 6);
        r &= 0xFF;
    }
    (r & 1) as u64
}

/// FIPS 202 Algorithm 6: the round constant of round index `ir` for lane width 2^ℓ.
pub fn round_constant(ir: usize, l: u32) -> u64 {
    let mut c = 0u64;
    for j in 0..=l as usize {
        c |= rc(j + 7 * ir) << ((1usize << j) - 1);
    }
    c
}

/// ρ offsets per lane, FIPS 202 Algorithm 2 (before reduction mod w).
pub fn rho_offsets() -> [u32; 25] {
    let mut off = [0u32; 25];
    let (mut x, mut y) = (1usize, 0usize);
    for t in 0..24u32 {
        off[x + 5 * y] = (t + 1) * (t + 2) / 2;
        (x, y) = (y, (2 * x + 3 * y) % 5);
    }
    off
}

fn rotl(v: u64, n: u32, w: u32) -> u64 {
    let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let n = n % w;
    if n == 0 {
        v & mask
    } else {
        ((v << n) | (v >> (w - n))) & mask
    }
}

fn theta(a: &mut State, w: u32) {
    let mut c = [0u64; 5];
    for (x, cx) in c.iter_mut().enumerate() {
        *cx = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    }
    for x in 0..5 {
        let d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1, w);
        for y in 0..5 {
            a[x + 5 * y] ^= d;
        }
    }
}

fn rho(a: &mut State, w: u32) {
    let off = rho_offsets();
    for i in 0..25 {
        a[i] = rotl(a[i], off[i], w);
    }
}

/// π: A'[x, y] = A[(x + 3y) mod 5, x].
fn pi(a: &mut State) {
    let old = *a;
    for x in 0..5 {
        for y in 0..5 {
            a[x + 5 * y] = old[(x + 3 * y) % 5 + 5 * x];
        }
    }
}

fn chi(a: &mut State, mask: u64) {
    for y in 0..5 {
        let row = [
            a[5 * y],
            a[5 * y + 1],
            a[5 * y + 2],
            a[5 * y + 3],
            a[5 * y + 4],
        ];
        for x in 0..5 {
            a[x + 5 * y] = row[x] ^ (!row[(x + 1) % 5] & row[(x + 2) % 5] & mask);
        }
    }
}

/// One round Rnd(A, ir) = ι(χ(π(ρ(θ(A)))), ir), exposed for intermediate-value tests.
pub fn round(a: &mut State, ir: usize, l: u32) {
    let w = 1u32 << l;
    let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    theta(a, w);
    rho(a, w);
    pi(a);
    chi(a, mask);
    a[0] ^= round_constant(ir, l);
}

/// Keccak-p[width, rounds]: the last `rounds` round indices 12+2ℓ−nr .. 12+2ℓ−1.
///
/// Panics if the parameters are invalid; callers validate with
/// [`check_params`] first (every public mode does).
pub fn keccak_p(a: &mut State, width: usize, rounds: usize) {
    check_params(width, rounds).expect("keccak_p: validated parameters");
    let l = log2_lane(width).expect("validated width");
    let total = 12 + 2 * l as usize;
    for ir in total - rounds..total {
        round(a, ir, l);
    }
}
