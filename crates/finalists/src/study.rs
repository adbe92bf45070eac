//! The 2012 two-core study's eight hash rows in one place, so that one
//! harness measures and tests them all: MD5, SHA-1, SHA-256 (this crate's
//! `md5`/`sha`), BLAKE-256, Grøstl-256, JH-256, Keccak-256 and
//! Skein-512-256, each in the three [`Impl`] forms. (RC5, the study's ninth
//! row, is a cipher: see [`crate::rc5`].)
//!
//! [`steps`] gives, per row, the two halves of one parallel step (what the
//! study moved to the second core, and what stayed) as functions the
//! benchmark can time alone, for the study's speed-up model (its eqs. 1–4).

use crate::{Blake256, Groestl256, Impl, Jh, Keccak256, Md5, Sha1, Sha256, Skein512};
use alloc::vec::Vec;

/// One row of the study's Tables I–III.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Row {
    Md5,
    Sha1,
    Sha256,
    Blake256,
    Groestl256,
    Jh256,
    Keccak256,
    Skein512_256,
}

impl Row {
    /// The study's hash rows, in its Table I order.
    pub const ALL: [Row; 8] = [
        Row::Md5,
        Row::Sha1,
        Row::Sha256,
        Row::Blake256,
        Row::Groestl256,
        Row::Jh256,
        Row::Keccak256,
        Row::Skein512_256,
    ];

    /// The name as the study's tables print it.
    pub fn name(self) -> &'static str {
        match self {
            Row::Md5 => "MD5",
            Row::Sha1 => "SHA-1",
            Row::Sha256 => "SHA-256",
            Row::Blake256 => "BLAKE-32",
            Row::Groestl256 => "Grøstl-256",
            Row::Jh256 => "JH-256",
            Row::Keccak256 => "Keccak-256",
            Row::Skein512_256 => "Skein-512-256",
        }
    }

    /// Digest length in bytes.
    pub fn output_len(self) -> usize {
        match self {
            Row::Md5 => 16,
            Row::Sha1 => 20,
            _ => 32,
        }
    }

    /// Block size in bytes (the unit the model counts repetitions in).
    pub fn block_len(self) -> usize {
        match self {
            Row::Jh256 | Row::Groestl256 | Row::Skein512_256 | Row::Md5 | Row::Sha1 => 64,
            Row::Sha256 | Row::Blake256 => 64,
            Row::Keccak256 => crate::keccak::RATE,
        }
    }

    /// A short description of the code `imp` runs for this row here.
    pub fn backend(self, imp: Impl) -> &'static str {
        use crate::Algorithm as A;
        match self {
            Row::Md5 => crate::md5::select(imp).1,
            Row::Sha1 => crate::sha::select1(imp).1,
            Row::Sha256 => crate::sha::select256(imp).1,
            Row::Blake256 => crate::backend_name(A::Blake256, imp),
            Row::Groestl256 => crate::backend_name(A::Groestl256, imp),
            Row::Jh256 => crate::backend_name(A::Jh256, imp),
            Row::Keccak256 => crate::keccak::select(imp).1,
            Row::Skein512_256 => crate::backend_name(A::Skein512_256, imp),
        }
    }
}

/// One-shot digest of `data` for `row` computed by `imp`.
pub fn hash(row: Row, imp: Impl, data: &[u8]) -> Vec<u8> {
    let mut out = alloc::vec![0u8; row.output_len()];
    hash_into(row, imp, data, &mut out);
    out
}

/// One-shot digest into `out` (exactly `row.output_len()` bytes), with no
/// allocation: the benchmark's unit of work.
#[inline]
pub fn hash_into(row: Row, imp: Impl, data: &[u8], out: &mut [u8]) {
    match row {
        Row::Md5 => {
            let mut h = Md5::new(imp);
            h.update(data);
            h.finalize_into(out)
        }
        Row::Sha1 => {
            let mut h = Sha1::new(imp);
            h.update(data);
            h.finalize_into(out)
        }
        Row::Sha256 => {
            let mut h = Sha256::new(imp);
            h.update(data);
            h.finalize_into(out)
        }
        Row::Blake256 => {
            let mut h = Blake256::new_256(imp);
            h.update(data);
            h.finalize_into(out)
        }
        Row::Groestl256 => {
            let mut h = Groestl256::with_output_len(32, imp);
            h.update(data);
            h.finalize_into(out)
        }
        Row::Jh256 => {
            let mut h = Jh::with_output_len(32, imp);
            h.update(data);
            h.finalize_into(out)
        }
        Row::Keccak256 => {
            let mut h = Keccak256::new(imp);
            h.update(data);
            h.finalize_into(out)
        }
        Row::Skein512_256 => {
            let mut h = Skein512::with_output_len(32, imp);
            h.update(data);
            h.finalize_into(out)
        }
    }
}

/// Working memory for the step probes (contents are arbitrary test data).
#[derive(Clone)]
pub struct Scratch {
    pub words: [u64; 32],
    pub block: [u8; 136],
}

impl Default for Scratch {
    fn default() -> Self {
        let mut s = Scratch {
            words: [0; 32],
            block: [0; 136],
        };
        for (i, w) in s.words.iter_mut().enumerate() {
            *w = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        for (i, b) in s.block.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37) ^ 0x5a;
        }
        s
    }
}

/// One parallel step of a row, split as the two-thread form splits it.
#[derive(Clone, Copy)]
pub struct Step {
    /// What the study moved to the second core.
    pub moved: &'static str,
    /// What stays on the first core meanwhile.
    pub kept: &'static str,
    /// Runs the moved part once.
    pub run_moved: fn(&mut Scratch),
    /// Runs the kept part once.
    pub run_kept: fn(&mut Scratch),
    /// How often the step repeats per compressed block (r_i per block).
    pub per_block: u32,
    /// Synchronisations (barriers) per block beyond the one hand-off per
    /// compression, in the two-thread form.
    pub barriers_per_block: u32,
}

fn fold32(s: &mut Scratch, w: &[u32]) {
    for (i, x) in w.iter().enumerate() {
        s.words[i % 32] ^= *x as u64;
    }
}

fn block64(s: &Scratch) -> [u8; 64] {
    s.block[..64].try_into().unwrap()
}

fn h8(s: &Scratch) -> [u32; 8] {
    core::array::from_fn(|i| s.words[i] as u32)
}

/// The row's parallel step, as its two-thread form splits it.
pub fn steps(row: Row) -> Step {
    use crate::sha::portable as sp;
    match row {
        Row::Md5 => Step {
            moved: "load (byte-swap) the 16 message words",
            kept: "the 64 steps",
            run_moved: |s| {
                let w = crate::md5::load_words(&block64(s));
                fold32(s, &w)
            },
            run_kept: |s| {
                let m: [u32; 16] = core::array::from_fn(|i| s.words[i] as u32);
                let mut h = h8(s);
                crate::md5::steps(&mut h, |k| m[k]);
                fold32(s, &h)
            },
            per_block: 1,
            barriers_per_block: 0,
        },
        Row::Sha1 => Step {
            moved: "message expansion W[16..80]",
            kept: "the 80 rounds",
            run_moved: |s| {
                let mut w = sp::load_be(&block64(s));
                let mut acc = 0u32;
                for t in 16..80 {
                    w[t & 15] = sp::sha1_next(&w, t);
                    acc ^= w[t & 15];
                }
                fold32(s, &[acc])
            },
            run_kept: |s| {
                let w: [u32; 80] = core::array::from_fn(|i| s.words[i % 32] as u32);
                let mut h = h8(s);
                sp::rounds1(&mut h, |g| core::array::from_fn(|j| w[4 * g + j]));
                fold32(s, &h)
            },
            per_block: 1,
            barriers_per_block: 0,
        },
        Row::Sha256 => Step {
            moved: "message expansion W[16..64]",
            kept: "the 64 rounds",
            run_moved: |s| {
                let mut w = sp::load_be(&block64(s));
                let mut acc = 0u32;
                for t in 16..64 {
                    w[t & 15] = sp::sha256_next(&w, t);
                    acc ^= w[t & 15];
                }
                fold32(s, &[acc])
            },
            run_kept: |s| {
                let w: [u32; 64] = core::array::from_fn(|i| s.words[i % 32] as u32);
                let mut h = h8(s);
                sp::rounds256(&mut h, |g| core::array::from_fn(|j| w[4 * g + j]));
                fold32(s, &h)
            },
            per_block: 1,
            barriers_per_block: 0,
        },
        Row::Blake256 => {
            fn two_g(s: &mut Scratch, first: usize) {
                let mut v: [u32; 16] = core::array::from_fn(|i| s.words[i] as u32);
                let m: [u32; 16] = core::array::from_fn(|i| s.words[16 + i] as u32);
                crate::blake::portable::g32_step(&mut v, &m, 3, first);
                crate::blake::portable::g32_step(&mut v, &m, 3, first + 1);
                fold32(s, &v)
            }
            Step {
                moved: "2 of the 4 G functions of a half-round",
                kept: "the other 2 G functions",
                run_moved: |s| two_g(s, 2),
                run_kept: |s| two_g(s, 0),
                per_block: 28,
                barriers_per_block: 28,
            }
        }
        Row::Groestl256 => Step {
            moved: "permutation Q(m)",
            kept: "permutation P(h ^ m)",
            run_moved: |s| {
                let mut x: [u64; 8] = s.words[..8].try_into().unwrap();
                crate::groestl::portable::perm_q::<8>(&mut x);
                s.words[..8].copy_from_slice(&x)
            },
            run_kept: |s| {
                let mut x: [u64; 8] = s.words[..8].try_into().unwrap();
                crate::groestl::portable::perm_p::<8>(&mut x);
                s.words[..8].copy_from_slice(&x)
            },
            per_block: 1,
            barriers_per_block: 0,
        },
        Row::Jh256 => {
            fn seven(s: &mut Scratch, side: usize) {
                let mut w: [u64; 8] = s.words[8 * side..8 * side + 8].try_into().unwrap();
                for r in 0..7 {
                    let c = &crate::jh::portable::RC_STATIC[r];
                    crate::jh::portable::half_round(&mut w, c[side], c[2 + side], r);
                }
                s.words[8 * side..8 * side + 8].copy_from_slice(&w)
            }
            Step {
                moved: "7 rounds on the high 64-bit halves",
                kept: "7 rounds on the low 64-bit halves",
                run_moved: |s| seven(s, 1),
                run_kept: |s| seven(s, 0),
                per_block: 6,
                barriers_per_block: 12,
            }
        }
        Row::Keccak256 => {
            fn rows(s: &mut Scratch, r: core::ops::Range<usize>) {
                let a: [u64; 25] = s.words[..25].try_into().unwrap();
                let rho = keccakx::permutation::golden::rho_offsets();
                let mut out = [0u64; 25];
                crate::keccak::round_rows(&a, r, 1, &rho, |i, v| out[i] = v);
                for (w, o) in s.words.iter_mut().zip(out) {
                    *w ^= o;
                }
            }
            Step {
                moved: "rows 3-4 of a round (θ parities computed on both sides)",
                kept: "rows 0-2 of the round",
                run_moved: |s| rows(s, 3..5),
                run_kept: |s| rows(s, 0..3),
                per_block: 24,
                barriers_per_block: 24,
            }
        }
        Row::Skein512_256 => {
            fn half_mix(s: &mut Scratch, side: usize) {
                let mut v: [u64; 8] = s.words[..8].try_into().unwrap();
                for j in 2 * side..2 * side + 2 {
                    let a = v[2 * j].wrapping_add(v[2 * j + 1]);
                    v[2 * j + 1] =
                        v[2 * j + 1].rotate_left(crate::skein::portable::rot(8, 5, j)) ^ a;
                    v[2 * j] = a;
                }
                s.words[..8].copy_from_slice(&v)
            }
            Step {
                moved: "2 of the 4 MIX functions of a round",
                kept: "the other 2 MIX functions",
                run_moved: |s| half_mix(s, 1),
                run_kept: |s| half_mix(s, 0),
                per_block: 72,
                barriers_per_block: 72,
            }
        }
    }
}

/// RC5-32/12/16's parallel step: the key expansion (moved) beside the
/// encryption of one block (kept).
pub fn rc5_step() -> Step {
    Step {
        moved: "key expansion (16-byte key, 26 words, 78 iterations)",
        kept: "encryption of one block (12 rounds)",
        run_moved: |s| {
            let key: [u8; 16] = s.block[..16].try_into().unwrap();
            let r = crate::rc5::Rc5::new_32_12_16(&key);
            s.words[0] ^= r.expanded_key()[25] as u64;
        },
        run_kept: |s| {
            let mut b: [u8; 8] = s.block[16..24].try_into().unwrap();
            let w: [u32; 26] = core::array::from_fn(|i| s.words[i] as u32);
            crate::rc5::encrypt_with(&mut b, 12, |i| w[i]);
            s.block[16..24].copy_from_slice(&b);
        },
        per_block: 1,
        barriers_per_block: 0,
    }
}
