//! Shared shape of the fixed-output and XOF hashers built directly on one
//! sponge (FIPS 202 and the original Keccak): written once as macros.

/// A fixed-output hash: `new`, `update`, `update_bits`, `finalize`, `digest`.
macro_rules! fixed_hash {
    ($(#[$doc:meta])* $name:ident, rate = $rate:expr, out = $out:expr, suffix = $suffix:expr, label = $label:expr) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            sponge: $crate::sponge::Sponge,
        }

        impl $name {
            /// Digest size in bytes.
            pub const OUTPUT_LEN: usize = $out;
            /// Rate (block size) in bytes.
            pub const BLOCK_LEN: usize = $rate;
            /// Display name.
            pub const NAME: &'static str = $label;
            /// The sponge: rate, rounds and delimited suffix (what the
            /// registry's row and the engines' batches use).
            pub const SPEC: $crate::engine::LaneSpec =
                $crate::engine::LaneSpec::fixed($rate, 24, $suffix.delimited());

            pub fn new() -> Self {
                let p = $crate::sponge::SpongeParams::fixed1600($rate, 24, $suffix);
                $name { sponge: $crate::sponge::Sponge::new(p) }
            }

            pub fn update(&mut self, data: &[u8]) {
                self.sponge.update(data);
            }

            /// Absorb the first `nbits` bits of `data` (FIPS 202 bit order:
            /// bit i is bit i % 8 of byte i / 8).
            pub fn update_bits(&mut self, data: &[u8], nbits: usize) -> $crate::Result<()> {
                self.sponge.update_bits(data, nbits)
            }

            pub fn finalize(self) -> [u8; $out] {
                let mut out = [0u8; $out];
                self.sponge.finalize_into(&mut out);
                out
            }

            /// One-shot hash of `data`.
            pub fn digest(data: &[u8]) -> [u8; $out] {
                let mut h = Self::new();
                h.update(data);
                h.finalize()
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }
    };
}

/// An extendable-output function on one sponge.
macro_rules! xof_hash {
    ($(#[$doc:meta])* $name:ident, rate = $rate:expr, suffix = $suffix:expr, label = $label:expr) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            sponge: $crate::sponge::Sponge,
        }

        impl $name {
            /// Rate (block size) in bytes.
            pub const BLOCK_LEN: usize = $rate;
            /// Display name.
            pub const NAME: &'static str = $label;
            /// The sponge: rate, rounds and delimited suffix (what the
            /// registry's row and the engines' batches use).
            pub const SPEC: $crate::engine::LaneSpec =
                $crate::engine::LaneSpec::fixed($rate, 24, $suffix.delimited());

            pub fn new() -> Self {
                let p = $crate::sponge::SpongeParams::fixed1600($rate, 24, $suffix);
                $name { sponge: $crate::sponge::Sponge::new(p) }
            }

            pub fn update(&mut self, data: &[u8]) {
                self.sponge.update(data);
            }

            /// Absorb the first `nbits` bits of `data` (FIPS 202 bit order).
            pub fn update_bits(&mut self, data: &[u8], nbits: usize) -> $crate::Result<()> {
                self.sponge.update_bits(data, nbits)
            }

            pub fn finalize_xof(self) -> $crate::sponge::XofReader {
                self.sponge.finalize_xof()
            }

            pub fn finalize_into(self, out: &mut [u8]) {
                self.sponge.finalize_into(out)
            }

            pub fn finalize_vec(self, len: usize) -> alloc::vec::Vec<u8> {
                self.finalize_xof().read_vec(len)
            }

            /// One-shot: `out.len()` bytes of output for `data`.
            pub fn digest_into(data: &[u8], out: &mut [u8]) {
                let mut h = Self::new();
                h.update(data);
                h.finalize_into(out)
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }
    };
}

pub(crate) use {fixed_hash, xof_hash};
