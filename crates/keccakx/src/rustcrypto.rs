//! RustCrypto `digest` 0.11 trait implementations (feature `rustcrypto`), so
//! keccakx drops into code written against `sha3`/`k12`:
//! `Digest`/`DynDigest` for the fixed-output hashes, `ExtendableOutput`
//! (+`Reset`) for the XOFs, `CustomizedInit` for cSHAKE and KT.

use digest::consts::{U28, U32, U48, U64};
use digest::{
    CustomizedInit, ExtendableOutput, ExtendableOutputReset, FixedOutput, FixedOutputReset,
    HashMarker, Output, OutputSizeUser, Reset, Update,
};

use crate::fips202::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};
use crate::keccak::{Keccak224, Keccak256, Keccak384, Keccak512};
use crate::rfc9861::{Kt, TurboShake};
use crate::sp800_185::CShake;
use crate::sponge::XofReader;

impl digest::XofReader for XofReader {
    fn read(&mut self, buffer: &mut [u8]) {
        XofReader::read(self, buffer)
    }
}

macro_rules! fixed {
    ($($t:ty => $size:ty),*) => {$(
        impl HashMarker for $t {}
        impl OutputSizeUser for $t {
            type OutputSize = $size;
        }
        impl Update for $t {
            fn update(&mut self, data: &[u8]) {
                <$t>::update(self, data)
            }
        }
        impl FixedOutput for $t {
            fn finalize_into(self, out: &mut Output<Self>) {
                out.copy_from_slice(&<$t>::finalize(self));
            }
        }
        impl Reset for $t {
            fn reset(&mut self) {
                *self = <$t>::new();
            }
        }
        impl FixedOutputReset for $t {
            fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
                let h = core::mem::take(self);
                FixedOutput::finalize_into(h, out);
            }
        }
    )*};
}

fixed!(
    Sha3_224 => U28, Sha3_256 => U32, Sha3_384 => U48, Sha3_512 => U64,
    Keccak224 => U28, Keccak256 => U32, Keccak384 => U48, Keccak512 => U64
);

macro_rules! xof {
    ($($t:ty),*) => {$(
        impl HashMarker for $t {}
        impl Update for $t {
            fn update(&mut self, data: &[u8]) {
                <$t>::update(self, data)
            }
        }
        impl ExtendableOutput for $t {
            type Reader = XofReader;
            fn finalize_xof(self) -> XofReader {
                <$t>::finalize_xof(self)
            }
        }
    )*};
}

xof!(Shake128, Shake256);

impl<const R: usize> HashMarker for TurboShake<R> {}
impl<const R: usize> Update for TurboShake<R> {
    fn update(&mut self, data: &[u8]) {
        TurboShake::update(self, data)
    }
}
impl<const R: usize> ExtendableOutput for TurboShake<R> {
    type Reader = XofReader;
    fn finalize_xof(self) -> XofReader {
        TurboShake::finalize_xof(self)
    }
}
/// TurboSHAKE with the default domain byte 0x1F.
impl<const R: usize> Default for TurboShake<R> {
    fn default() -> Self {
        TurboShake::new(Self::DEFAULT_DOMAIN).expect("0x1F is a valid domain byte")
    }
}

impl<const R: usize> HashMarker for CShake<R> {}
impl<const R: usize> Update for CShake<R> {
    fn update(&mut self, data: &[u8]) {
        CShake::update(self, data)
    }
}
impl<const R: usize> ExtendableOutput for CShake<R> {
    type Reader = XofReader;
    fn finalize_xof(self) -> XofReader {
        CShake::finalize_xof(self)
    }
}
/// cSHAKE with an empty function name N and customization S.
impl<const R: usize> CustomizedInit for CShake<R> {
    fn new_customized(customization: &[u8]) -> Self {
        CShake::new(b"", customization)
    }
}

impl<const R: usize> HashMarker for Kt<R> {}
impl<const R: usize> Update for Kt<R> {
    fn update(&mut self, data: &[u8]) {
        Kt::update(self, data)
    }
}
impl<const R: usize> ExtendableOutput for Kt<R> {
    type Reader = XofReader;
    fn finalize_xof(self) -> XofReader {
        Kt::finalize_xof(self)
    }
}
impl<const R: usize> Default for Kt<R> {
    fn default() -> Self {
        Kt::new(b"")
    }
}
impl<const R: usize> CustomizedInit for Kt<R> {
    fn new_customized(customization: &[u8]) -> Self {
        Kt::new(customization)
    }
}

macro_rules! xof_reset {
    ($($t:ty),*) => {$(
        impl Reset for $t {
            fn reset(&mut self) {
                *self = <$t>::default();
            }
        }
        impl ExtendableOutputReset for $t {
            fn finalize_xof_reset(&mut self) -> XofReader {
                core::mem::take(self).finalize_xof()
            }
        }
    )*};
}

xof_reset!(
    Shake128,
    Shake256,
    Kt<168>,
    Kt<136>,
    TurboShake<168>,
    TurboShake<136>
);

#[cfg(test)]
mod tests {
    use digest::{Digest, ExtendableOutput, Update};

    fn generic_digest<D: Digest>(data: &[u8]) -> alloc::vec::Vec<u8> {
        D::digest(data).to_vec()
    }

    #[test]
    fn drop_in_digest() {
        assert_eq!(
            generic_digest::<crate::fips202::Sha3_256>(b"abc"),
            crate::fips202::Sha3_256::digest(b"abc").to_vec()
        );
        let mut x = crate::rfc9861::Kt128::default();
        Update::update(&mut x, b"abc");
        let mut out = [0u8; 16];
        ExtendableOutput::finalize_xof(x).read(&mut out);
        assert_eq!(out.to_vec(), {
            let mut k = crate::rfc9861::Kt128::new(b"");
            k.update(b"abc");
            k.finalize_vec(16)
        });
    }
}
