//! RustCrypto `digest` 0.11 trait implementations (feature `rustcrypto`):
//! every fixed-output finalist as a type implementing `Default`, `Update`,
//! `FixedOutput`, `Reset` and `HashMarker`, hence `digest::Digest` and
//! `digest::DynDigest`. They use [`Impl::Parallel`](crate::Impl::Parallel).
//!
//! ```
//! use digest::Digest;
//! let d = finalists::rustcrypto::Blake256::digest(b"");
//! assert_eq!(d[..4], [0x71, 0x6f, 0x6e, 0x86]);
//! ```

use crate::Impl;
use digest::consts::{U128, U16, U20, U28, U32, U48, U64};
use digest::{FixedOutput, HashMarker, Output, OutputSizeUser, Reset, Update};

macro_rules! rc_type {
    ($(#[$doc:meta])* $name:ident, $inner:ty, $size:ty, $new:expr) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name($inner);

        impl Default for $name {
            fn default() -> Self {
                Self($new)
            }
        }
        impl HashMarker for $name {}
        impl OutputSizeUser for $name {
            type OutputSize = $size;
        }
        impl Update for $name {
            fn update(&mut self, data: &[u8]) {
                self.0.update(data)
            }
        }
        impl FixedOutput for $name {
            fn finalize_into(self, out: &mut Output<Self>) {
                self.0.finalize_into(out.as_mut_slice())
            }
        }
        impl Reset for $name {
            fn reset(&mut self) {
                *self = Self::default();
            }
        }
        impl digest::FixedOutputReset for $name {
            fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
                let h = core::mem::take(self);
                h.0.finalize_into(out.as_mut_slice());
            }
        }
    };
}

rc_type!(/// BLAKE-224.
    Blake224, crate::Blake256, U28, crate::Blake256::new_224(Impl::Parallel));
rc_type!(/// BLAKE-256.
    Blake256, crate::Blake256, U32, crate::Blake256::new_256(Impl::Parallel));
rc_type!(/// BLAKE-384.
    Blake384, crate::Blake512, U48, crate::Blake512::new_384(Impl::Parallel));
rc_type!(/// BLAKE-512.
    Blake512, crate::Blake512, U64, crate::Blake512::new_512(Impl::Parallel));
rc_type!(/// Grøstl-224.
    Groestl224, crate::Groestl256, U28, crate::Groestl256::with_output_len(28, Impl::Parallel));
rc_type!(/// Grøstl-256.
    Groestl256, crate::Groestl256, U32, crate::Groestl256::with_output_len(32, Impl::Parallel));
rc_type!(/// Grøstl-384.
    Groestl384, crate::Groestl512, U48, crate::Groestl512::with_output_len(48, Impl::Parallel));
rc_type!(/// Grøstl-512.
    Groestl512, crate::Groestl512, U64, crate::Groestl512::with_output_len(64, Impl::Parallel));
rc_type!(/// JH-224.
    Jh224, crate::Jh, U28, crate::Jh::with_output_len(28, Impl::Parallel));
rc_type!(/// JH-256.
    Jh256, crate::Jh, U32, crate::Jh::with_output_len(32, Impl::Parallel));
rc_type!(/// JH-384.
    Jh384, crate::Jh, U48, crate::Jh::with_output_len(48, Impl::Parallel));
rc_type!(/// JH-512.
    Jh512, crate::Jh, U64, crate::Jh::with_output_len(64, Impl::Parallel));
rc_type!(/// Skein-256-128.
    Skein256_128, crate::Skein256, U16, crate::Skein256::with_output_len(16, Impl::Parallel));
rc_type!(/// Skein-256-160.
    Skein256_160, crate::Skein256, U20, crate::Skein256::with_output_len(20, Impl::Parallel));
rc_type!(/// Skein-256-224.
    Skein256_224, crate::Skein256, U28, crate::Skein256::with_output_len(28, Impl::Parallel));
rc_type!(/// Skein-256-256.
    Skein256_256, crate::Skein256, U32, crate::Skein256::with_output_len(32, Impl::Parallel));
rc_type!(/// Skein-512-128.
    Skein512_128, crate::Skein512, U16, crate::Skein512::with_output_len(16, Impl::Parallel));
rc_type!(/// Skein-512-160.
    Skein512_160, crate::Skein512, U20, crate::Skein512::with_output_len(20, Impl::Parallel));
rc_type!(/// Skein-512-224.
    Skein512_224, crate::Skein512, U28, crate::Skein512::with_output_len(28, Impl::Parallel));
rc_type!(/// Skein-512-256.
    Skein512_256, crate::Skein512, U32, crate::Skein512::with_output_len(32, Impl::Parallel));
rc_type!(/// Skein-512-384.
    Skein512_384, crate::Skein512, U48, crate::Skein512::with_output_len(48, Impl::Parallel));
rc_type!(/// Skein-512-512.
    Skein512_512, crate::Skein512, U64, crate::Skein512::with_output_len(64, Impl::Parallel));
rc_type!(/// Skein-1024-384.
    Skein1024_384, crate::Skein1024, U48, crate::Skein1024::with_output_len(48, Impl::Parallel));
rc_type!(/// Skein-1024-512.
    Skein1024_512, crate::Skein1024, U64, crate::Skein1024::with_output_len(64, Impl::Parallel));
rc_type!(/// Skein-1024-1024.
    Skein1024_1024, crate::Skein1024, U128, crate::Skein1024::with_output_len(128, Impl::Parallel));
