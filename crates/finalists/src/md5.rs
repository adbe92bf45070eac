//! MD5 (RFC 1321), the study's weakest case for parallelism: every step of the
//! compression needs the previous one, so the study could move only the
//! message-word loading (the byte swap on its big-endian CPU) and the padding
//! to the second core (its §III-A).
//!
//! * [`Impl::Sequential`] and [`Impl::Parallel`]: the portable compression;
//!   there is no independent step inside one MD5 block for SIMD to take, so
//!   both run the same code (the back-end name says so).
//! * [`Impl::TwoThreads`]: the study's form: the helper thread loads the
//!   sixteen little-endian message words and hands them over one by one
//!   while the caller runs the 64 steps.
//!
//! The sine table T and the rotation amounts are facts from RFC 1321 §3.4
//! (a unit test recomputes T from the sine function).

use crate::api::Impl;
use crate::md::{md_hasher, Compress, Endian};

/// T[i] = floor(2^32 * |sin(i + 1)|), RFC 1321 §3.4.
pub(crate) const T: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// Left-rotation amounts of the four rounds (four per round, repeated).
const S: [[u32; 4]; 4] = [
    [7, 12, 17, 22],
    [5, 9, 14, 20],
    [4, 11, 16, 23],
    [6, 10, 15, 21],
];

/// A, B, C, D after RFC 1321 §3.3.
pub(crate) const IV: [u32; 4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];

/// Index of the message word that step `i` (0..64) uses.
#[inline(always)]
pub(crate) const fn word_index(i: usize) -> usize {
    match i / 16 {
        0 => i,
        1 => (5 * i + 1) % 16,
        2 => (3 * i + 5) % 16,
        _ => (7 * i) % 16,
    }
}

/// The 64 steps on `h[0..4]`, with message word `k` read through `word(k)`
/// (the two-thread form waits inside it until the helper has loaded word k).
/// Written as four steps per loop iteration so that the compiler unrolls it
/// completely (every index and rotation a constant).
#[inline(always)]
pub(crate) fn steps(h: &mut [u32; 8], mut word: impl FnMut(usize) -> u32) {
    let (mut a, mut b, mut c, mut d) = (h[0], h[1], h[2], h[3]);
    macro_rules! step {
        ($f:expr, $a:ident, $b:ident, $c:ident, $d:ident, $i:expr, $s:expr) => {
            $a = $b.wrapping_add(
                $a.wrapping_add($f($b, $c, $d))
                    .wrapping_add(word(word_index($i)))
                    .wrapping_add(T[$i])
                    .rotate_left($s),
            );
        };
    }
    macro_rules! round {
        ($r:expr, $f:expr) => {
            for j in 0..4 {
                let i = 16 * $r + 4 * j;
                let s = &S[$r];
                step!($f, a, b, c, d, i, s[0]);
                step!($f, d, a, b, c, i + 1, s[1]);
                step!($f, c, d, a, b, i + 2, s[2]);
                step!($f, b, c, d, a, i + 3, s[3]);
            }
        };
    }
    round!(0, |b: u32, c: u32, d: u32| (b & c) | (!b & d));
    round!(1, |b: u32, c: u32, d: u32| (b & d) | (c & !d));
    round!(2, |b: u32, c: u32, d: u32| b ^ c ^ d);
    round!(3, |b: u32, c: u32, d: u32| c ^ (b | !d));
    h[0] = h[0].wrapping_add(a);
    h[1] = h[1].wrapping_add(b);
    h[2] = h[2].wrapping_add(c);
    h[3] = h[3].wrapping_add(d);
}

/// The sixteen little-endian message words of a block.
#[inline(always)]
pub(crate) fn load_words(block: &[u8; 64]) -> [u32; 16] {
    core::array::from_fn(|k| u32::from_le_bytes(block[4 * k..4 * k + 4].try_into().unwrap()))
}

/// Sequential compression.
pub(crate) fn compress(h: &mut [u32; 8], block: &[u8; 64]) {
    let m = load_words(block);
    steps(h, |k| m[k]);
}

/// The study's two-core form (its §III-A) on the helper thread of
/// [`crate::twothread`]: the helper loads the sixteen message words (the
/// study's byte swap) and hands them over one by one while the caller runs
/// the 64 steps.
#[cfg(feature = "std")]
mod two_threads {
    use super::steps;
    use crate::twothread::{split, WordPipe};
    use std::sync::Arc;

    /// MD5 with the message words loaded on the helper.
    pub(super) fn compress(h: &mut [u32; 8], block: &[u8; 64]) {
        let pipe = WordPipe::<16>::new();
        let p2 = Arc::clone(&pipe);
        let b = *block;
        split(
            move || {
                for k in 0..16 {
                    p2.publish(
                        k,
                        u32::from_le_bytes(b[4 * k..4 * k + 4].try_into().unwrap()),
                    );
                }
            },
            || {
                let mut seen = 0;
                steps(h, |k| pipe.get(k, &mut seen));
            },
        )
    }
}

pub(crate) fn select(imp: Impl) -> (Compress, &'static str) {
    match imp {
        Impl::Sequential => (compress, "portable"),
        Impl::Parallel => (
            compress,
            "portable (no independent step inside an MD5 block)",
        ),
        #[cfg(feature = "std")]
        Impl::TwoThreads => (
            two_threads::compress,
            "two threads (helper loads the message words)",
        ),
        #[cfg(not(feature = "std"))]
        Impl::TwoThreads => (compress, "portable (two threads need std)"),
    }
}

md_hasher!(
    /// MD5 (RFC 1321), streaming: 16-byte digest.
    Md5,
    IV,
    Endian::Little,
    select
);

#[cfg(test)]
mod tests {
    #[test]
    fn sine_table_matches_rfc_definition() {
        for (i, &t) in super::T.iter().enumerate() {
            let v = (((i + 1) as f64).sin().abs() * 4294967296.0).floor() as u32;
            assert_eq!(t, v, "T[{}]", i + 1);
        }
    }
}
