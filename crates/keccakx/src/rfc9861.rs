//! RFC 9861: TurboSHAKE128/256 and KangarooTwelve (KT128, KT256).

use alloc::vec::Vec;

use crate::chunked::ChunkHasher;
use crate::engine::LaneSpec;
use crate::error::{Error, Result};
use crate::sponge::{ByteSponge, XofReader};

/// TurboSHAKE's rounds: Keccak-p[1600, 12].
const TURBO_ROUNDS: usize = 12;
/// KangarooTwelve chunk size.
const CHUNK: usize = 8192;

/// TurboSHAKE with rate R bytes and a domain separation byte 0x01..=0x7F.
#[derive(Clone)]
pub struct TurboShake<const R: usize> {
    sponge: ByteSponge,
    domain: u8,
}

/// TurboSHAKE128 (RFC 9861 §2).
pub type TurboShake128 = TurboShake<168>;
/// TurboSHAKE256 (RFC 9861 §2).
pub type TurboShake256 = TurboShake<136>;

impl<const R: usize> TurboShake<R> {
    /// The default domain byte when none is chosen (RFC 9861 §2.2).
    pub const DEFAULT_DOMAIN: u8 = 0x1F;

    pub fn new(domain: u8) -> Result<Self> {
        if !(0x01..=0x7F).contains(&domain) {
            return Err(Error::InvalidParameter(
                "TurboSHAKE domain byte must be in 0x01..=0x7F",
            ));
        }
        Ok(TurboShake {
            sponge: ByteSponge::new(R, TURBO_ROUNDS),
            domain,
        })
    }
    pub fn update(&mut self, data: &[u8]) {
        self.sponge.absorb(data);
    }
    pub fn finalize_xof(mut self) -> XofReader {
        self.sponge.pad_delimited(self.domain);
        XofReader::from_byte_sponge(self.sponge)
    }
    pub fn finalize_into(self, out: &mut [u8]) {
        self.finalize_xof().read(out)
    }
    pub fn finalize_vec(self, len: usize) -> Vec<u8> {
        self.finalize_xof().read_vec(len)
    }
}

/// length_encode(x) of RFC 9861 §3.3: x big-endian without leading zeros,
/// then the number of those bytes (length_encode(0) = 0x00).
pub fn length_encode(x: u64) -> Vec<u8> {
    let b = x.to_be_bytes();
    let n = 8 - (x.leading_zeros() / 8) as usize;
    let mut v = b[8 - n..].to_vec();
    v.push(n as u8);
    v
}

/// KangarooTwelve on TurboSHAKE with rate R bytes: KT128 and KT256.
///
/// The first 8192 bytes of S = M || C || length_encode(|C|) go to the final
/// node; later 8192-byte chunks are leaves hashed on the engine (SIMD lanes,
/// threads) and their chaining values absorbed in order.
#[derive(Clone)]
pub struct Kt<const R: usize> {
    final_node: ByteSponge,
    /// Bytes of S absorbed into the final node so far (≤ 8192).
    head_len: usize,
    leaves: Option<ChunkHasher>,
    customization: Vec<u8>,
}

/// KT128 (RFC 9861 §3), the original KangarooTwelve.
pub type Kt128 = Kt<168>;
/// KT256 (RFC 9861 §3).
pub type Kt256 = Kt<136>;

impl<const R: usize> Kt<R> {
    const CV_LEN: usize = if R == 168 { 32 } else { 64 };

    pub fn new(customization: &[u8]) -> Self {
        Kt {
            final_node: ByteSponge::new(R, TURBO_ROUNDS),
            head_len: 0,
            leaves: None,
            customization: customization.to_vec(),
        }
    }

    pub fn update(&mut self, mut data: &[u8]) {
        if self.leaves.is_none() {
            let take = (CHUNK - self.head_len).min(data.len());
            self.final_node.absorb(&data[..take]);
            self.head_len += take;
            data = &data[take..];
            if data.is_empty() {
                return;
            }
            // More than one chunk: S_0 || 110^62 starts the final node.
            self.final_node.absorb(&[0x03, 0, 0, 0, 0, 0, 0, 0]);
            let leaf = LaneSpec::fixed(R, TURBO_ROUNDS, 0x0B);
            self.leaves = Some(ChunkHasher::new(leaf, CHUNK, Self::CV_LEN));
        }
        let final_node = &mut self.final_node;
        if let Some(leaves) = &mut self.leaves {
            leaves.update(data, &mut |cvs| final_node.absorb(cvs));
        }
    }

    pub fn finalize_xof(mut self) -> XofReader {
        let c = core::mem::take(&mut self.customization);
        self.update(&c);
        self.update(&length_encode(c.len() as u64));
        match self.leaves.take() {
            None => self.final_node.pad_delimited(0x07),
            Some(mut leaves) => {
                let final_node = &mut self.final_node;
                leaves.finish(&mut |cvs| final_node.absorb(cvs));
                final_node.absorb(&length_encode(leaves.count()));
                final_node.absorb(&[0xFF, 0xFF]);
                final_node.pad_delimited(0x06);
            }
        }
        XofReader::from_byte_sponge(self.final_node)
    }
    pub fn finalize_into(self, out: &mut [u8]) {
        self.finalize_xof().read(out)
    }
    pub fn finalize_vec(self, len: usize) -> Vec<u8> {
        self.finalize_xof().read_vec(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_encode_examples() {
        // RFC 9861 §3.3 examples.
        assert_eq!(length_encode(0), [0x00]);
        assert_eq!(length_encode(12), [0x0C, 0x01]);
        assert_eq!(length_encode(65538), [0x01, 0x00, 0x02, 0x03]);
    }
}
