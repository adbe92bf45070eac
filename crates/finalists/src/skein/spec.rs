//! The UBI tweak fields (block types, first/final flags) of the Skein 1.3
//! specification and the UBI signature that every form (portable, x86, two
//! threads) implements. A leaf of `skein`: the forms and the hashers in
//! `skein` itself all read it.

pub(crate) const TYPE_CFG: u64 = 4;
pub(crate) const TYPE_MSG: u64 = 48;
pub(crate) const TYPE_OUT: u64 = 63;
pub(crate) const FIRST: u64 = 1 << 62;
pub(crate) const FINAL: u64 = 1 << 63;

/// UBI block: `h <- Threefish(key = h, tweak, m) ^ m`.
pub(crate) type UbiFn<const NW: usize> = fn(&mut [u64; NW], &[u64; NW], [u64; 2]);
