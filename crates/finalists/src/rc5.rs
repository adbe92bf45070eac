//! RC5-32/r/b (Rivest 1994; RFC 2040 §4–6): 64-bit blocks, r rounds
//! (0..=255; the study's RC5-32/12/16 uses 12) and keys of b bytes
//! (0..=255; the study's uses 16), with ECB, CBC and CTR.
//!
//! The study's parallel step (its §II-B, §III-E): the key expansion does not
//! depend on the data, and encryption uses the expanded key S in order
//! (S\[0\], S\[1\], then S\[2i\], S[2i+1] in half-round i), so the expansion can run
//! on the second core while the first encrypts, as long as each S word is
//! final when it is needed. The last pass of the expansion writes the final
//! S words in order, so encryption can start when that pass reaches S\[1\]:
//! after two thirds of the expansion.
//!
//! * [`Impl::Sequential`]: expansion, then encryption, portable.
//! * [`Impl::TwoThreads`]: expansion on the helper thread, encryption here,
//!   word by word (the study's form).
//! * [`Impl::Parallel`]: ECB, CTR and CBC decryption of many blocks at once
//!   in SIMD lanes (AVX2 variable shifts, or AVX-512 `vprolvd`), the
//!   block-level parallelism the study's §II-B names for ECB and CTR; CBC
//!   encryption chains every block to the previous one and stays scalar.
//!
//! The magic constants P32 = Odd(e − 2) and Q32 = Odd(φ − 1) are facts from
//! RFC 2040 §5.1.

use crate::api::Impl;
use core::fmt;

/// P32 = Odd((e − 2) · 2^32), RFC 2040 §5.1.
pub(crate) const P32: u32 = 0xb7e1_5163;
/// Q32 = Odd((φ − 1) · 2^32), RFC 2040 §5.1.
pub(crate) const Q32: u32 = 0x9e37_79b9;
/// Largest expanded key: 2 · 255 + 2 words.
pub(crate) const MAX_TABLE: usize = 2 * 255 + 2;

/// Bad RC5 parameters or input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rc5Error {
    /// RC5 keys are 0..=255 bytes (RFC 2040 §4).
    KeyTooLong(usize),
    /// RC5 takes 0..=255 rounds (RFC 2040 §4).
    TooManyRounds(usize),
    /// ECB and CBC work on whole 8-byte blocks; the input had this many bytes.
    PartialBlock(usize),
}

impl fmt::Display for Rc5Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rc5Error::KeyTooLong(n) => write!(f, "RC5 key of {n} bytes: at most 255 bytes allowed"),
            Rc5Error::TooManyRounds(n) => write!(f, "RC5 with {n} rounds: at most 255 allowed"),
            Rc5Error::PartialBlock(n) => write!(
                f,
                "RC5 ECB/CBC input of {n} bytes is not a whole number of 8-byte blocks (pad it, or use CTR)"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Rc5Error {}

/// The key expansion of RFC 2040 §5, calling `publish(i, S[i], in_order)`
/// with each word's final value as soon as it is written. `in_order` is true
/// when the final values come as S[0], S[1], ... (always for keys of at most
/// 4·(2r + 2) bytes); otherwise the caller must wait for the end.
#[inline(always)]
pub(crate) fn expand_key_with(
    key: &[u8],
    rounds: usize,
    mut publish: impl FnMut(usize, u32, bool),
) {
    let t = 2 * rounds + 2;
    let c = key.len().div_ceil(4).max(1);
    let mut l = [0u32; 64];
    for (i, &k) in key.iter().enumerate() {
        l[i / 4] |= (k as u32) << (8 * (i % 4));
    }
    let mut s = [0u32; MAX_TABLE];
    s[0] = P32;
    for i in 1..t {
        s[i] = s[i - 1].wrapping_add(Q32);
    }
    let n = 3 * t.max(c);
    let last_pass = n - t;
    let in_order = last_pass.is_multiple_of(t);
    let (mut a, mut b, mut i, mut j) = (0u32, 0u32, 0usize, 0usize);
    for k in 0..n {
        a = s[i].wrapping_add(a).wrapping_add(b).rotate_left(3);
        s[i] = a;
        b = l[j]
            .wrapping_add(a)
            .wrapping_add(b)
            .rotate_left(a.wrapping_add(b));
        l[j] = b;
        if k >= last_pass {
            publish(i, a, in_order);
        }
        i += 1;
        if i == t {
            i = 0;
        }
        j += 1;
        if j == c {
            j = 0;
        }
    }
}

/// Encrypts one block with S read through `s(i)` (RFC 2040 §6).
#[inline(always)]
pub(crate) fn encrypt_with(block: &mut [u8; 8], rounds: usize, mut s: impl FnMut(usize) -> u32) {
    let mut a = u32::from_le_bytes(block[..4].try_into().unwrap()).wrapping_add(s(0));
    let mut b = u32::from_le_bytes(block[4..].try_into().unwrap()).wrapping_add(s(1));
    for i in 1..=rounds {
        a = (a ^ b).rotate_left(b).wrapping_add(s(2 * i));
        b = (b ^ a).rotate_left(a).wrapping_add(s(2 * i + 1));
    }
    block[..4].copy_from_slice(&a.to_le_bytes());
    block[4..].copy_from_slice(&b.to_le_bytes());
}

/// An expanded RC5-32 key.
#[derive(Clone)]
pub struct Rc5 {
    s: [u32; MAX_TABLE],
    rounds: usize,
}

impl fmt::Debug for Rc5 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The expanded key is secret: show only the parameters.
        write!(f, "Rc5 {{ rounds: {} }}", self.rounds)
    }
}

fn check(key: &[u8], rounds: usize) -> Result<(), Rc5Error> {
    if key.len() > 255 {
        return Err(Rc5Error::KeyTooLong(key.len()));
    }
    if rounds > 255 {
        return Err(Rc5Error::TooManyRounds(rounds));
    }
    Ok(())
}

fn whole_blocks(data: &[u8]) -> Result<(), Rc5Error> {
    if !data.len().is_multiple_of(8) {
        return Err(Rc5Error::PartialBlock(data.len()));
    }
    Ok(())
}

impl Rc5 {
    /// Expands `key` (0..=255 bytes) for `rounds` (0..=255) rounds.
    pub fn new(key: &[u8], rounds: usize) -> Result<Self, Rc5Error> {
        check(key, rounds)?;
        let mut r = Rc5 {
            s: [0; MAX_TABLE],
            rounds,
        };
        expand_key_with(key, rounds, |i, v, _| r.s[i] = v);
        Ok(r)
    }

    /// RC5-32/12/16, the study's parameters.
    pub fn new_32_12_16(key: &[u8; 16]) -> Self {
        let mut r = Rc5 {
            s: [0; MAX_TABLE],
            rounds: 12,
        };
        expand_key_with(key, 12, |i, v, _| r.s[i] = v);
        r
    }

    #[cfg(feature = "std")]
    pub(crate) fn from_expanded(rounds: usize, mut s: impl FnMut(usize) -> u32) -> Self {
        let mut r = Rc5 {
            s: [0; MAX_TABLE],
            rounds,
        };
        for i in 0..2 * rounds + 2 {
            r.s[i] = s(i);
        }
        r
    }

    /// Number of rounds.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The expanded key table S (2r + 2 words).
    pub fn expanded_key(&self) -> &[u32] {
        &self.s[..2 * self.rounds + 2]
    }

    /// Encrypts one 8-byte block in place.
    #[inline]
    pub fn encrypt_block(&self, block: &mut [u8; 8]) {
        encrypt_with(block, self.rounds, |i| self.s[i]);
    }

    /// Decrypts one 8-byte block in place (RFC 2040 §6, inverted).
    #[inline]
    pub fn decrypt_block(&self, block: &mut [u8; 8]) {
        let s = &self.s;
        let mut a = u32::from_le_bytes(block[..4].try_into().unwrap());
        let mut b = u32::from_le_bytes(block[4..].try_into().unwrap());
        for i in (1..=self.rounds).rev() {
            b = b.wrapping_sub(s[2 * i + 1]).rotate_right(a) ^ a;
            a = a.wrapping_sub(s[2 * i]).rotate_right(b) ^ b;
        }
        b = b.wrapping_sub(s[1]);
        a = a.wrapping_sub(s[0]);
        block[..4].copy_from_slice(&a.to_le_bytes());
        block[4..].copy_from_slice(&b.to_le_bytes());
    }

    /// ECB encryption of whole blocks in place.
    #[inline]
    pub fn encrypt_ecb(&self, data: &mut [u8], imp: Impl) -> Result<(), Rc5Error> {
        whole_blocks(data)?;
        let done = self.simd_blocks(data, imp, Op::Encrypt);
        for b in data[done..].chunks_exact_mut(8) {
            self.encrypt_block(b.try_into().unwrap());
        }
        Ok(())
    }

    /// ECB decryption of whole blocks in place.
    #[inline]
    pub fn decrypt_ecb(&self, data: &mut [u8], imp: Impl) -> Result<(), Rc5Error> {
        whole_blocks(data)?;
        let done = self.simd_blocks(data, imp, Op::Decrypt);
        for b in data[done..].chunks_exact_mut(8) {
            self.decrypt_block(b.try_into().unwrap());
        }
        Ok(())
    }

    /// CBC encryption of whole blocks in place (inherently sequential: every
    /// block is chained to the previous ciphertext).
    pub fn encrypt_cbc(&self, iv: &[u8; 8], data: &mut [u8]) -> Result<(), Rc5Error> {
        whole_blocks(data)?;
        let mut prev = *iv;
        for b in data.chunks_exact_mut(8) {
            let b: &mut [u8; 8] = b.try_into().unwrap();
            for (x, p) in b.iter_mut().zip(prev) {
                *x ^= p;
            }
            self.encrypt_block(b);
            prev = *b;
        }
        Ok(())
    }

    /// CBC decryption of whole blocks in place (the block decryptions are
    /// independent, so `Impl::Parallel` runs them in SIMD lanes).
    #[inline]
    pub fn decrypt_cbc(&self, iv: &[u8; 8], data: &mut [u8], imp: Impl) -> Result<(), Rc5Error> {
        whole_blocks(data)?;
        let mut prev = *iv;
        // Chunks small enough to keep a copy of their ciphertext on the stack.
        for chunk in data.chunks_mut(512) {
            let mut ct = [0u8; 512];
            ct[..chunk.len()].copy_from_slice(chunk);
            let done = self.simd_blocks(chunk, imp, Op::Decrypt);
            for b in chunk[done..].chunks_exact_mut(8) {
                self.decrypt_block(b.try_into().unwrap());
            }
            for (i, b) in chunk.chunks_exact_mut(8).enumerate() {
                let p = if i == 0 {
                    &prev[..]
                } else {
                    &ct[8 * (i - 1)..8 * i]
                };
                for (x, c) in b.iter_mut().zip(p) {
                    *x ^= c;
                }
            }
            let n = chunk.len();
            prev.copy_from_slice(&ct[n - 8..n]);
        }
        Ok(())
    }

    /// CTR: XORs `data` (any length) with the key stream E(ctr), E(ctr + 1),
    /// ..., where ctr is `nonce` read as a big-endian 64-bit integer and
    /// incremented modulo 2^64 per block (SP 800-38A's standard incrementing
    /// function over the whole block). Encryption and decryption are the same.
    #[inline]
    pub fn apply_ctr(&self, nonce: &[u8; 8], data: &mut [u8], imp: Impl) {
        let start = u64::from_be_bytes(*nonce);
        let done = self.simd_ctr(start, data, imp);
        for (i, chunk) in data[done..].chunks_mut(8).enumerate() {
            let mut ks = start.wrapping_add(((done / 8) + i) as u64).to_be_bytes();
            self.encrypt_block(&mut ks);
            for (x, k) in chunk.iter_mut().zip(ks) {
                *x ^= k;
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Encrypt,
    Decrypt,
}

impl Rc5 {
    /// Runs whole groups of blocks of `data` through the SIMD kernel when
    /// `imp` is `Parallel` and the CPU has one; returns the bytes done.
    #[allow(unused_variables)]
    #[inline]
    fn simd_blocks(&self, data: &mut [u8], imp: Impl, op: Op) -> usize {
        #[cfg(target_arch = "x86_64")]
        if imp == Impl::Parallel {
            if let Some(k) = x86::select() {
                let mut done = 0;
                for group in data.chunks_exact_mut(64) {
                    k(
                        self.expanded_key(),
                        self.rounds,
                        group.try_into().unwrap(),
                        op,
                    );
                    done += 64;
                }
                return done;
            }
        }
        0
    }

    /// CTR key stream in SIMD lanes for whole groups of eight blocks.
    #[allow(unused_variables)]
    #[inline]
    fn simd_ctr(&self, start: u64, data: &mut [u8], imp: Impl) -> usize {
        #[cfg(target_arch = "x86_64")]
        if imp == Impl::Parallel {
            if let Some(k) = x86::select() {
                let mut done = 0;
                for group in data.chunks_exact_mut(64) {
                    let mut ks = [0u8; 64];
                    for (i, b) in ks.chunks_exact_mut(8).enumerate() {
                        let ctr = start.wrapping_add((done / 8 + i) as u64);
                        b.copy_from_slice(&ctr.to_be_bytes());
                    }
                    k(self.expanded_key(), self.rounds, &mut ks, Op::Encrypt);
                    for (x, k) in group.iter_mut().zip(ks) {
                        *x ^= k;
                    }
                    done += 64;
                }
                return done;
            }
        }
        0
    }
}

/// Name of the code that `Impl::Parallel` runs for many blocks here.
pub fn backend_name(imp: Impl) -> &'static str {
    match imp {
        Impl::Sequential => "portable",
        Impl::TwoThreads => "two threads (key expansion on the helper)",
        Impl::Parallel => {
            #[cfg(target_arch = "x86_64")]
            if let Some(name) = x86::name() {
                return name;
            }
            "portable (no SIMD available)"
        }
    }
}

/// The study's measured operation: expand `key` and encrypt `data` (whole
/// blocks, ECB) with it, by `imp`. Returns the expanded key for further use.
///
/// `Impl::TwoThreads` overlaps the expansion (helper) with the encryption
/// (here); `Impl::Parallel` expands, then encrypts in SIMD lanes.
#[inline]
pub fn expand_and_encrypt(
    key: &[u8],
    rounds: usize,
    imp: Impl,
    data: &mut [u8],
) -> Result<Rc5, Rc5Error> {
    check(key, rounds)?;
    whole_blocks(data)?;
    match imp {
        #[cfg(feature = "std")]
        Impl::TwoThreads => {
            let blocks: &mut [[u8; 8]] = bytemuck_blocks(data);
            Ok(two_threads::expand_and_encrypt(key, rounds, blocks))
        }
        _ => {
            let r = Rc5::new(key, rounds)?;
            r.encrypt_ecb(data, imp)?;
            Ok(r)
        }
    }
}

/// `data` (a whole number of blocks) as blocks, without copying.
#[cfg(feature = "std")]
fn bytemuck_blocks(data: &mut [u8]) -> &mut [[u8; 8]] {
    let (blocks, rest) = data.as_chunks_mut::<8>();
    debug_assert!(rest.is_empty());
    blocks
}

/// The study's two-core form (its §III-E) on the helper thread of
/// [`crate::twothread`]: the helper runs the key expansion and publishes each
/// word of the expanded key S as soon as it is final; the caller encrypts,
/// waiting for S[2i], S[2i+1] before half-round i.
#[cfg(feature = "std")]
mod two_threads {
    use super::{encrypt_with, expand_key_with, Rc5, MAX_TABLE};
    use crate::twothread::{split, wait_at_least};
    use std::sync::atomic::{AtomicU32, Ordering::*};
    use std::sync::Arc;

    /// RC5 key expansion on the helper, encryption of `blocks` here, each
    /// half-round waiting for its two words of S. Returns the expanded key.
    pub(super) fn expand_and_encrypt(key: &[u8], rounds: usize, blocks: &mut [[u8; 8]]) -> Rc5 {
        let t = 2 * rounds + 2;
        let pipe = Arc::new(S32Pipe {
            s: core::array::from_fn(|_| AtomicU32::new(0)),
            ready: AtomicU32::new(0),
        });
        let p2 = Arc::clone(&pipe);
        let mut k = [0u8; 255];
        k[..key.len()].copy_from_slice(key);
        let klen = key.len();
        split(
            move || {
                expand_key_with(&k[..klen], rounds, |i, v, in_order| {
                    p2.s[i].store(v, Relaxed);
                    if in_order {
                        p2.ready.store(i as u32 + 1, Release);
                    }
                });
                // Key bytes beyond 4*t words finish out of order: publish all at the end.
                p2.ready.store(t as u32, Release);
            },
            || {
                let mut seen = 0u32;
                let mut word = |i: usize| {
                    if seen <= i as u32 {
                        wait_at_least(&pipe.ready, i as u32 + 1);
                        seen = pipe.ready.load(Acquire);
                    }
                    pipe.s[i].load(Relaxed)
                };
                for b in blocks.iter_mut() {
                    encrypt_with(b, rounds, &mut word);
                }
                wait_at_least(&pipe.ready, t as u32);
                Rc5::from_expanded(rounds, |i| pipe.s[i].load(Relaxed))
            },
        )
    }

    struct S32Pipe {
        s: [AtomicU32; MAX_TABLE],
        ready: AtomicU32,
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! Eight RC5 blocks per step: the A words of eight blocks in one AVX2
    //! register and the B words in another; the data-dependent rotations
    //! are per-lane variable shifts (AVX2) or `vprolvd`/`vprorvd` (AVX-512VL).
    //!
    //! `unsafe`: calling `#[target_feature]` functions after run-time
    //! detection; unaligned 32-byte loads/stores inside a 64-byte array.

    use super::Op;
    use core::arch::x86_64::*;

    pub(super) type Kernel = fn(&[u32], usize, &mut [u8; 64], Op);

    pub(super) fn select() -> Option<Kernel> {
        let f = crate::platform::capped();
        if f.avx512 {
            Some(blocks8_avx512)
        } else if f.avx2 {
            Some(blocks8_avx2)
        } else {
            None
        }
    }

    pub(super) fn name() -> Option<&'static str> {
        let f = crate::platform::capped();
        if f.avx512 {
            Some("avx512vl (8 blocks per vector op, vprolvd)")
        } else if f.avx2 {
            Some("avx2 (8 blocks per vector op, variable shifts)")
        } else {
            None
        }
    }

    macro_rules! kernel {
        ($outer:ident, $inner:ident, $feat:literal, $rotl:ident, $rotr:ident) => {
            fn $outer(s: &[u32], rounds: usize, buf: &mut [u8; 64], op: Op) {
                // SAFETY: `select` returned this kernel only after detecting its features.
                unsafe { $inner(s, rounds, buf, op) }
            }

            #[target_feature(enable = $feat)]
            unsafe fn $inner(s: &[u32], rounds: usize, buf: &mut [u8; 64], op: Op) {
                // SAFETY: two 32-byte loads at offsets 0 and 32 of a 64-byte array.
                let (v0, v1) = unsafe {
                    (
                        _mm256_loadu_si256(buf.as_ptr() as *const __m256i),
                        _mm256_loadu_si256(buf.as_ptr().add(32) as *const __m256i),
                    )
                };
                // [A0 B0 A1 B1 | A2 B2 A3 B3] -> [A0 A1 B0 B1 | A2 A3 B2 B3]
                let v0 = _mm256_shuffle_epi32::<0b11_01_10_00>(v0);
                let v1 = _mm256_shuffle_epi32::<0b11_01_10_00>(v1);
                // A = [A0 A1 A4 A5 | A2 A3 A6 A7], B likewise: lane order is
                // irrelevant as long as the store undoes it.
                let mut a = _mm256_unpacklo_epi64(v0, v1);
                let mut b = _mm256_unpackhi_epi64(v0, v1);
                let k = |i: usize| _mm256_set1_epi32(s[i] as i32);
                match op {
                    Op::Encrypt => {
                        a = _mm256_add_epi32(a, k(0));
                        b = _mm256_add_epi32(b, k(1));
                        for i in 1..=rounds {
                            a = _mm256_add_epi32($rotl(_mm256_xor_si256(a, b), b), k(2 * i));
                            b = _mm256_add_epi32($rotl(_mm256_xor_si256(b, a), a), k(2 * i + 1));
                        }
                    }
                    Op::Decrypt => {
                        for i in (1..=rounds).rev() {
                            b = _mm256_xor_si256($rotr(_mm256_sub_epi32(b, k(2 * i + 1)), a), a);
                            a = _mm256_xor_si256($rotr(_mm256_sub_epi32(a, k(2 * i)), b), b);
                        }
                        b = _mm256_sub_epi32(b, k(1));
                        a = _mm256_sub_epi32(a, k(0));
                    }
                }
                let v0 = _mm256_shuffle_epi32::<0b11_01_10_00>(_mm256_unpacklo_epi64(a, b));
                let v1 = _mm256_shuffle_epi32::<0b11_01_10_00>(_mm256_unpackhi_epi64(a, b));
                // SAFETY: as for the loads.
                unsafe {
                    _mm256_storeu_si256(buf.as_mut_ptr() as *mut __m256i, v0);
                    _mm256_storeu_si256(buf.as_mut_ptr().add(32) as *mut __m256i, v1);
                }
            }
        };
    }

    #[inline(always)]
    fn rotl_avx2(x: __m256i, n: __m256i) -> __m256i {
        // SAFETY: only inlined into the AVX2 kernel.
        unsafe {
            let n = _mm256_and_si256(n, _mm256_set1_epi32(31));
            _mm256_or_si256(
                _mm256_sllv_epi32(x, n),
                _mm256_srlv_epi32(x, _mm256_sub_epi32(_mm256_set1_epi32(32), n)),
            )
        }
    }
    #[inline(always)]
    fn rotr_avx2(x: __m256i, n: __m256i) -> __m256i {
        // SAFETY: only inlined into the AVX2 kernel.
        unsafe {
            let n = _mm256_and_si256(n, _mm256_set1_epi32(31));
            _mm256_or_si256(
                _mm256_srlv_epi32(x, n),
                _mm256_sllv_epi32(x, _mm256_sub_epi32(_mm256_set1_epi32(32), n)),
            )
        }
    }
    #[inline(always)]
    fn rotl_avx512(x: __m256i, n: __m256i) -> __m256i {
        // SAFETY: only inlined into the AVX-512VL kernel.
        unsafe { _mm256_rolv_epi32(x, n) }
    }
    #[inline(always)]
    fn rotr_avx512(x: __m256i, n: __m256i) -> __m256i {
        // SAFETY: only inlined into the AVX-512VL kernel.
        unsafe { _mm256_rorv_epi32(x, n) }
    }

    kernel!(
        blocks8_avx2,
        blocks8_avx2_inner,
        "avx2",
        rotl_avx2,
        rotr_avx2
    );
    kernel!(
        blocks8_avx512,
        blocks8_avx512_inner,
        "avx2,avx512f,avx512vl",
        rotl_avx512,
        rotr_avx512
    );
}
