//! Keccak-256 as the study used it (its §IV-A: ⌊Keccak[r = 1088, c = 512]⌋256,
//! the original submission's padding, as in Ethereum), with the permutation
//! chosen per form:
//!
//! * [`Impl::Sequential`]: keccakx's portable scalar Keccak-f\[1600\];
//! * [`Impl::Parallel`]: keccakx's SIMD single-state Keccak-f\[1600\] (one
//!   lane per register with VPTERNLOGQ, its own first choice; or AVX-512
//!   rows), the core library's own fast path;
//! * [`Impl::TwoThreads`]: one permutation split over two threads by rows of
//!   the state (on this crate's `twothread` helper), the study's two-core form.
//!
//! The sponge (absorb, pad 0x01 … 0x80, squeeze 32 bytes) is written here so
//! that the three forms differ only in the permutation.

use crate::api::Impl;
use crate::buffer::Buffer;
use keccakx::permutation::{keccak_p1600_using, Single};

/// Rate in bytes of Keccak-256 (1088 bits).
pub const RATE: usize = 136;

/// Keccak-f[1600] on 25 lanes A[x + 5y].
pub(crate) type Permutation = fn(&mut [u64; 25]);

fn perm_portable(a: &mut [u64; 25]) {
    keccak_p1600_using(Single::Portable, a, 24)
}

#[cfg(target_arch = "x86_64")]
fn perm_avx512_rows(a: &mut [u64; 25]) {
    keccak_p1600_using(Single::Avx512Rows, a, 24)
}

#[cfg(target_arch = "x86_64")]
fn perm_avx512_lanes(a: &mut [u64; 25]) {
    keccak_p1600_using(Single::Avx512, a, 24)
}

pub(crate) fn select(imp: Impl) -> (Permutation, &'static str) {
    match imp {
        Impl::Sequential => (perm_portable, "keccakx portable"),
        Impl::Parallel => {
            #[cfg(target_arch = "x86_64")]
            if crate::platform::capped().avx512 {
                // keccakx's own preference among its SIMD single-state forms.
                if Single::Avx512.is_available() {
                    return (
                        perm_avx512_lanes,
                        "keccakx avx512 (one lane per xmm, vpternlogq)",
                    );
                }
                if Single::Avx512Rows.is_available() {
                    return (perm_avx512_rows, "keccakx avx512 rows (5 lanes per zmm)");
                }
            }
            (
                perm_portable,
                "keccakx portable (no SIMD single-state form here)",
            )
        }
        #[cfg(feature = "std")]
        Impl::TwoThreads => (
            two_threads::permutation,
            "two threads (rows 0-2 here, 3-4 on the helper)",
        ),
        #[cfg(not(feature = "std"))]
        Impl::TwoThreads => (perm_portable, "keccakx portable (two threads need std)"),
    }
}

/// One round of Keccak-f[1600] for the output rows `rows`, reading the whole
/// state `s` (lanes A[x + 5y]) and writing the rows' lanes through `out`.
#[inline(always)]
pub(crate) fn round_rows(
    s: &[u64; 25],
    rows: core::ops::Range<usize>,
    rc: u64,
    rho: &[u32; 25],
    mut out: impl FnMut(usize, u64),
) {
    let c: [u64; 5] = core::array::from_fn(|x| s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20]);
    let d: [u64; 5] = core::array::from_fn(|x| c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1));
    for y in rows {
        // π: B[x, y] = A[(x + 3y) mod 5, x], after θ and ρ on that lane.
        let b: [u64; 5] = core::array::from_fn(|x| {
            let src = (x + 3 * y) % 5 + 5 * x;
            (s[src] ^ d[src % 5]).rotate_left(rho[src] % 64)
        });
        for x in 0..5 {
            let mut v = b[x] ^ (!b[(x + 1) % 5] & b[(x + 2) % 5]);
            if x == 0 && y == 0 {
                v ^= rc;
            }
            out(x + 5 * y, v);
        }
    }
}

/// The study's two-core form (its §III-D) on the helper thread of
/// [`crate::twothread`]: the caller computes output rows y = 0, 1, 2 and the
/// helper rows 3, 4 of every round; both read the whole previous state
/// (each computes θ's column parities itself, which is cheaper than
/// exchanging them), so there is one barrier per round (24 per block).
#[cfg(feature = "std")]
mod two_threads {
    use super::round_rows;
    use crate::twothread::{split, Steps};
    use std::sync::atomic::{AtomicU64, Ordering::*};
    use std::sync::Arc;

    struct KeccakShared {
        /// The state after round r lives in buf[r % 2] (double buffer).
        buf: [[AtomicU64; 25]; 2],
        steps: Steps,
    }

    /// Rows y = 0..3 here, 3..5 on the helper (3:2, the nearest to even that
    /// whole rows allow: χ works on rows, so a side owning whole rows needs no
    /// exchange inside a round).
    const KECCAK_CALLER_ROWS: core::ops::Range<usize> = 0..3;
    const KECCAK_HELPER_ROWS: core::ops::Range<usize> = 3..5;

    /// Keccak-f[1600] split by rows over the caller and the helper.
    pub(super) fn permutation(a: &mut [u64; 25]) {
        let sh = Arc::new(KeccakShared {
            buf: core::array::from_fn(|_| core::array::from_fn(|_| AtomicU64::new(0))),
            steps: Steps::new(),
        });
        for (l, v) in sh.buf[0].iter().zip(a.iter()) {
            l.store(*v, Relaxed);
        }
        fn run(sh: &KeccakShared, rows: core::ops::Range<usize>, side: usize) {
            let rho = keccakx::permutation::golden::rho_offsets();
            for (r, &rc) in keccakx::permutation::ROUND_CONSTANTS.iter().enumerate() {
                let s: [u64; 25] = core::array::from_fn(|i| sh.buf[r % 2][i].load(Relaxed));
                let dst = &sh.buf[(r + 1) % 2];
                round_rows(&s, rows.clone(), rc, &rho, |i, v| dst[i].store(v, Relaxed));
                sh.steps.barrier(side, r as u32 + 1);
            }
        }
        let sh2 = Arc::clone(&sh);
        split(
            move || run(&sh2, KECCAK_HELPER_ROWS, 1),
            || run(&sh, KECCAK_CALLER_ROWS, 0),
        );
        // Past barrier 24 on the caller's side: the helper's last rows are in buf[0].
        for (v, l) in a.iter_mut().zip(sh.buf[0].iter()) {
            *v = l.load(Relaxed);
        }
    }
}

/// Keccak-256 (original padding), streaming: 32-byte digest.
#[derive(Clone)]
pub struct Keccak256 {
    a: [u64; 25],
    buf: Buffer<RATE>,
    perm: Permutation,
}

impl Keccak256 {
    /// A new hasher whose permutation is computed by `imp`.
    pub fn new(imp: Impl) -> Self {
        Self {
            a: [0; 25],
            buf: Buffer::new(),
            perm: select(imp).0,
        }
    }

    /// Digest length in bytes.
    pub const OUTPUT_LEN: usize = 32;

    fn absorb(a: &mut [u64; 25], perm: Permutation, block: &[u8; RATE]) {
        for (l, w) in a.iter_mut().zip(block.chunks_exact(8)) {
            *l ^= u64::from_le_bytes(w.try_into().unwrap());
        }
        perm(a);
    }

    /// Absorbs more message bytes.
    pub fn update(&mut self, data: &[u8]) {
        let (a, p) = (&mut self.a, self.perm);
        self.buf.absorb_eager(data, |b| Self::absorb(a, p, b));
    }

    /// Writes the 32-byte digest into `out`.
    pub fn finalize_into(mut self, out: &mut [u8]) {
        let len = self.buf.len;
        let mut block = [0u8; RATE];
        block[..len].copy_from_slice(&self.buf.buf[..len]);
        block[len] ^= 0x01;
        block[RATE - 1] ^= 0x80;
        Self::absorb(&mut self.a, self.perm, &block);
        for (o, l) in out.chunks_mut(8).zip(self.a.iter()) {
            o.copy_from_slice(&l.to_le_bytes()[..o.len()]);
        }
    }

    /// One-shot digest of `data`.
    pub fn digest(imp: Impl, data: &[u8]) -> [u8; 32] {
        let mut h = Self::new(imp);
        h.update(data);
        let mut out = [0u8; 32];
        h.finalize_into(&mut out);
        out
    }
}
