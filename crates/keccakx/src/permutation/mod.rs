//! Keccak-p[b, nr]: the permutations ("low level", strictly apart from modes).
//!
//! [`generic`] is the golden model, written to read like FIPS 202 §3 for every
//! width. [`fast`] is the unrolled Keccak-p[1600] used by the sponge; it is
//! tested against the golden model.

#[cfg(target_arch = "x86_64")]
mod asm_avx512;
#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512_narrow;
pub mod fast;
pub mod generic;
pub mod multi;
pub mod single;
#[cfg(target_arch = "x86_64")]
mod sse2;

use crate::error::{Error, Result};

/// The state as 25 lanes, `A[x + 5*y]`. For widths below 1600 each lane holds
/// w = b/25 bits in its low-order bits; the rest are zero.
pub type State = [u64; 25];

/// A Keccak-p[1600] state from its little-endian bytes (200; the form the
/// multi-state absorbs read and write, see `multi::absorb_interleaved`).
pub(crate) fn state_from_bytes(bytes: &[u8]) -> State {
    core::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap()))
}

/// The first `out.len()` (≤ 200) little-endian bytes of a Keccak-p[1600]
/// state: all of it, or the start of the output (a chaining value).
pub(crate) fn state_to_bytes(state: &State, out: &mut [u8]) {
    for (w, bytes) in state.iter().zip(out.chunks_mut(8)) {
        bytes.copy_from_slice(&w.to_le_bytes()[..bytes.len()]);
    }
}

/// The seven Keccak-p widths b = 25·2^ℓ.
pub const WIDTHS: [usize; 7] = [25, 50, 100, 200, 400, 800, 1600];

pub use fast::{keccak_f1600, keccak_p1600};
pub use generic::{keccak_p, ROUND_CONSTANTS};
pub use multi::{keccak_p1600_many, keccak_p1600_with, Parallelism};
pub use single::{keccak_p1600_using, Single};

/// ℓ = log2(b/25) for a valid width.
pub fn log2_lane(width: usize) -> Result<u32> {
    match WIDTHS.iter().position(|&w| w == width) {
        Some(l) => Ok(l as u32),
        None => Err(Error::InvalidWidth(width)),
    }
}

/// Full round count of Keccak-f[b]: 12 + 2ℓ.
pub fn max_rounds(width: usize) -> Result<usize> {
    Ok(12 + 2 * log2_lane(width)? as usize)
}

/// Validates a (width, rounds) pair for Keccak-p.
pub fn check_params(width: usize, rounds: usize) -> Result<()> {
    let max = max_rounds(width)?;
    if rounds == 0 || rounds > max {
        return Err(Error::InvalidRounds { width, rounds, max });
    }
    Ok(())
}
