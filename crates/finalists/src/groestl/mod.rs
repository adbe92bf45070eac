//! Grøstl (final round-3 "tweaked" version): Grøstl-224/256 (512-bit state,
//! 10 rounds) and Grøstl-384/512 (1024-bit state, 14 rounds).
//!
//! Written from "Grøstl – a SHA-3 candidate" (Gauravaram, Knudsen, Matusiewicz,
//! Mendel, Rechberger, Schläffer, Thomsen), version 2.0.1, March 2011. The
//! AES S-box and the MixBytes matrix circ(02,02,03,04,05,03,05,07) are facts
//! taken from that document.
//!
//! The state is kept as columns: column `j` is a `u64` whose byte `r`
//! (little-endian) is row `r`, so the message's byte order maps directly.

pub(crate) mod portable;
#[cfg(feature = "std")]
mod two_threads;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use crate::api::Impl;
use crate::buffer::Buffer;

/// Compression `h <- P(h ^ m) ^ Q(m) ^ h` on `C` columns.
pub(crate) type CompressFn<const C: usize> = fn(&mut [u64; C], &[u64; C]);
/// The permutation P alone (for the output transformation).
pub(crate) type PermFn<const C: usize> = fn(&mut [u64; C]);

#[derive(Clone, Copy)]
pub(crate) struct Backend<const C: usize> {
    compress: CompressFn<C>,
    p: PermFn<C>,
}

/// Returns (backend for 512-bit state, backend for 1024-bit state) and a name.
pub(crate) fn select_backend(imp: Impl, wide: bool) -> ((Backend<8>, Backend<16>), &'static str) {
    let portable = (
        Backend {
            compress: portable::compress::<8>,
            p: portable::perm_p::<8>,
        },
        Backend {
            compress: portable::compress::<16>,
            p: portable::perm_p::<16>,
        },
    );
    let _ = wide;
    match imp {
        Impl::Sequential => (portable, "portable (T-tables)"),
        Impl::Parallel => {
            #[cfg(target_arch = "x86_64")]
            {
                if crate::platform::capped().avx512_gfni_vbmi {
                    return (
                        (
                            Backend {
                                compress: x86::compress_8,
                                p: x86::perm_p_8,
                            },
                            Backend {
                                compress: x86::compress_16,
                                p: x86::perm_p_16,
                            },
                        ),
                        "avx512-gfni-vbmi",
                    );
                }
            }
            (portable, "portable (no AVX-512 GFNI/VBMI)")
        }
        #[cfg(feature = "std")]
        Impl::TwoThreads => (
            (
                Backend {
                    compress: two_threads::compress::<8>,
                    p: portable::perm_p::<8>,
                },
                Backend {
                    compress: two_threads::compress::<16>,
                    p: portable::perm_p::<16>,
                },
            ),
            "two threads (P and Q)",
        ),
        #[cfg(not(feature = "std"))]
        Impl::TwoThreads => (portable, "portable (two threads need std)"),
    }
}

fn load_cols<const C: usize, const NB: usize>(block: &[u8; NB]) -> [u64; C] {
    let mut m = [0u64; C];
    for (j, w) in m.iter_mut().enumerate() {
        *w = u64::from_le_bytes(block[8 * j..8 * j + 8].try_into().unwrap());
    }
    m
}

macro_rules! groestl_struct {
    ($name:ident, $c:literal, $nb:literal, $pick:tt, $lens:literal) => {
        /// Grøstl, streaming.
        #[derive(Clone)]
        pub struct $name {
            h: [u64; $c],
            blocks: u64,
            buf: Buffer<$nb>,
            out_len: usize,
            be: Backend<$c>,
        }

        impl $name {
            /// Grøstl with an output of `out_len` bytes.
            ///
            /// # Panics
            #[doc = concat!("If `out_len` is not one of ", $lens, " (a programming error).")]
            pub fn with_output_len(out_len: usize, imp: Impl) -> Self {
                let ok = if $c == 8 {
                    out_len == 28 || out_len == 32
                } else {
                    out_len == 48 || out_len == 64
                };
                assert!(
                    ok,
                    concat!("Grøstl output length must be ", $lens, " bytes")
                );
                let mut iv = [0u8; $nb];
                let bits = (out_len * 8) as u16;
                iv[$nb - 2..].copy_from_slice(&bits.to_be_bytes());
                Self {
                    h: load_cols::<$c, $nb>(&iv),
                    blocks: 0,
                    buf: Buffer::new(),
                    out_len,
                    be: select_backend(imp, $c == 16).0.$pick,
                }
            }

            /// Absorbs more message bytes.
            pub fn update(&mut self, data: &[u8]) {
                let (h, blocks, f) = (&mut self.h, &mut self.blocks, self.be.compress);
                self.buf.absorb_eager(data, |b| {
                    *blocks = blocks.wrapping_add(1);
                    f(h, &load_cols::<$c, $nb>(b));
                });
            }

            /// Writes the digest into `out` (exactly the output length).
            pub fn finalize_into(mut self, out: &mut [u8]) {
                let len = self.buf.len;
                let mut block = [0u8; $nb];
                block[..len].copy_from_slice(&self.buf.buf[..len]);
                block[len] = 0x80;
                if len < $nb - 8 {
                    let n = self.blocks.wrapping_add(1);
                    block[$nb - 8..].copy_from_slice(&n.to_be_bytes());
                    (self.be.compress)(&mut self.h, &load_cols::<$c, $nb>(&block));
                } else {
                    (self.be.compress)(&mut self.h, &load_cols::<$c, $nb>(&block));
                    let n = self.blocks.wrapping_add(2);
                    let mut last = [0u8; $nb];
                    last[$nb - 8..].copy_from_slice(&n.to_be_bytes());
                    (self.be.compress)(&mut self.h, &load_cols::<$c, $nb>(&last));
                }
                // Omega: trunc(P(x) ^ x)
                let mut x = self.h;
                (self.be.p)(&mut x);
                let mut bytes = [0u8; $nb];
                for j in 0..$c {
                    bytes[8 * j..8 * j + 8].copy_from_slice(&(x[j] ^ self.h[j]).to_le_bytes());
                }
                out.copy_from_slice(&bytes[$nb - self.out_len..]);
            }

            /// Output length in bytes.
            pub fn output_len(&self) -> usize {
                self.out_len
            }
        }
    };
}

groestl_struct!(Groestl256, 8, 64, 0, "28 or 32");
groestl_struct!(Groestl512, 16, 128, 1, "48 or 64");
