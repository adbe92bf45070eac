//! An independent, deliberately naive model of Keccak-p and the sponge,
//! written in the tests straight from FIPS 202 (§3.1–3.3, §4, §5.1) on a
//! 3-D array of bits A[x][y][z]. It shares no code with the crate; the
//! conformance tests hold the crate's golden model to it where no official
//! vectors exist (widths 25, 50, 100; rates that are not whole bytes).

/// A[x][y][z] as individual bits (z < 64).
type Bits = [[[u8; 64]; 5]; 5];

/// FIPS 202 Algorithm 5, rc(t).
pub fn rc_bit(t: usize) -> u8 {
    if t.is_multiple_of(255) {
        return 1;
    }
    // R = 1 0 0 0 0 0 0 0, R[0] first.
    let mut r: Vec<u8> = vec![1, 0, 0, 0, 0, 0, 0, 0];
    for _ in 1..=(t % 255) {
        r.insert(0, 0); // R = 0 || R (9 bits now)
        r[0] ^= r[8];
        r[4] ^= r[8];
        r[5] ^= r[8];
        r[6] ^= r[8];
        r.truncate(8); // Trunc_8[R]
    }
    r[0]
}

/// FIPS 202 Algorithm 6 step 3: RC for round `ir` and lane width 2^l, as a lane value.
pub fn round_constant(ir: usize, l: u32) -> u64 {
    let mut rc = 0u64;
    for j in 0..=l as usize {
        rc |= (rc_bit(j + 7 * ir) as u64) << ((1usize << j) - 1);
    }
    rc
}

/// FIPS 202 Algorithm 2's offsets (t+1)(t+2)/2, indexed [x + 5y], before mod w.
pub fn rho_offsets() -> [u32; 25] {
    let mut off = [0u32; 25];
    let (mut x, mut y) = (1usize, 0usize);
    for t in 0..24u32 {
        off[x + 5 * y] = (t + 1) * (t + 2) / 2;
        let nx = y;
        let ny = (2 * x + 3 * y) % 5;
        x = nx;
        y = ny;
    }
    off
}

fn lanes_to_bits(s: &[u64; 25], w: usize) -> Bits {
    let mut a = [[[0u8; 64]; 5]; 5];
    for x in 0..5 {
        for y in 0..5 {
            for z in 0..w {
                a[x][y][z] = ((s[x + 5 * y] >> z) & 1) as u8;
            }
        }
    }
    a
}

fn bits_to_lanes(a: &Bits, w: usize) -> [u64; 25] {
    let mut s = [0u64; 25];
    for x in 0..5 {
        for y in 0..5 {
            for z in 0..w {
                s[x + 5 * y] |= (a[x][y][z] as u64) << z;
            }
        }
    }
    s
}

/// The five step mappings of FIPS 202 §3.2, in round order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Theta,
    Rho,
    Pi,
    Chi,
    Iota,
}

pub const STEPS: [Step; 5] = [Step::Theta, Step::Rho, Step::Pi, Step::Chi, Step::Iota];

/// Applies one step mapping on bits, lane width w = 2^l (`ir` is used by ι only).
fn step_bits(a: &Bits, step: Step, ir: usize, l: u32) -> Bits {
    let w = 1usize << l;
    let mut out = [[[0u8; 64]; 5]; 5];
    match step {
        Step::Theta => {
            // Algorithm 1
            let mut c = [[0u8; 64]; 5];
            for x in 0..5 {
                for z in 0..w {
                    c[x][z] = a[x][0][z] ^ a[x][1][z] ^ a[x][2][z] ^ a[x][3][z] ^ a[x][4][z];
                }
            }
            for x in 0..5 {
                for z in 0..w {
                    let d = c[(x + 4) % 5][z] ^ c[(x + 1) % 5][(z + w - 1) % w];
                    for y in 0..5 {
                        out[x][y][z] = a[x][y][z] ^ d;
                    }
                }
            }
        }
        Step::Rho => {
            // Algorithm 2
            let off = rho_offsets();
            for x in 0..5 {
                for y in 0..5 {
                    let o = off[x + 5 * y] as usize % w;
                    for z in 0..w {
                        out[x][y][z] = a[x][y][(z + w - o) % w];
                    }
                }
            }
        }
        Step::Pi => {
            // Algorithm 3: A'[x, y, z] = A[(x + 3y) mod 5, x, z]
            for x in 0..5 {
                for y in 0..5 {
                    for z in 0..w {
                        out[x][y][z] = a[(x + 3 * y) % 5][x][z];
                    }
                }
            }
        }
        Step::Chi => {
            // Algorithm 4
            for x in 0..5 {
                for y in 0..5 {
                    for z in 0..w {
                        out[x][y][z] =
                            a[x][y][z] ^ ((a[(x + 1) % 5][y][z] ^ 1) & a[(x + 2) % 5][y][z]);
                    }
                }
            }
        }
        Step::Iota => {
            // Algorithm 6
            out = *a;
            for j in 0..=l as usize {
                out[0][0][(1usize << j) - 1] ^= rc_bit(j + 7 * ir);
            }
        }
    }
    out
}

/// One step mapping on a lane state of width `width` (round index `ir` for ι).
pub fn step(s: &[u64; 25], width: usize, st: Step, ir: usize) -> [u64; 25] {
    let w = width / 25;
    let l = w.trailing_zeros();
    bits_to_lanes(&step_bits(&lanes_to_bits(s, w), st, ir, l), w)
}

/// Rnd(A, ir) = ι(χ(π(ρ(θ(A)))), ir) on bits, lane width w = 2^l.
fn rnd(a: &Bits, ir: usize, l: u32) -> Bits {
    let mut a = *a;
    for st in STEPS {
        a = step_bits(&a, st, ir, l);
    }
    a
}

/// Keccak-p[b, nr] (Algorithm 7): round indices 12+2l-nr .. 12+2l-1.
pub fn keccak_p(s: &[u64; 25], width: usize, rounds: usize) -> [u64; 25] {
    let w = width / 25;
    let l = w.trailing_zeros();
    assert_eq!(25usize << l, width, "width");
    let nr_full = 12 + 2 * l as usize;
    assert!(rounds >= 1 && rounds <= nr_full);
    let mut a = lanes_to_bits(s, w);
    for ir in nr_full - rounds..nr_full {
        a = rnd(&a, ir, l);
    }
    bits_to_lanes(&a, w)
}

/// Bit i of a byte string (FIPS 202 order: bit i%8 of byte i/8).
pub fn bit(data: &[u8], i: usize) -> u8 {
    (data[i / 8] >> (i % 8)) & 1
}

/// SPONGE[Keccak-p[b, nr], pad10*1, r] (Algorithm 8) over the bit string
/// `msg` (first `msg_bits` bits) followed by `suffix` (bits in order),
/// `out_bits` bits of output packed LSB-first.
pub fn sponge(
    width: usize,
    rate: usize,
    rounds: usize,
    suffix: &[u8],
    msg: &[u8],
    msg_bits: usize,
    out_bits: usize,
) -> Vec<u8> {
    assert!(rate > 0 && rate < width);
    let mut p: Vec<u8> = (0..msg_bits).map(|i| bit(msg, i)).collect();
    p.extend_from_slice(suffix);
    // pad10*1: 1, then j zeros with j = (-m-2) mod r, then 1.
    p.push(1);
    while !(p.len() + 1).is_multiple_of(rate) {
        p.push(0);
    }
    p.push(1);
    let w = width / 25;
    let mut s = [0u64; 25];
    for block in p.chunks(rate) {
        for (i, &b) in block.iter().enumerate() {
            s[i / w] ^= (b as u64) << (i % w);
        }
        s = keccak_p(&s, width, rounds);
    }
    let mut out = vec![0u8; out_bits.div_ceil(8)];
    let mut n = 0;
    loop {
        for i in 0..rate {
            if n == out_bits {
                return out;
            }
            let b = ((s[i / w] >> (i % w)) & 1) as u8;
            out[n / 8] |= b << (n % 8);
            n += 1;
        }
        s = keccak_p(&s, width, rounds);
    }
}
