//! The original Keccak submission's fixed-output functions (padding 0x01, no
//! domain suffix): Keccak-224/256/384/512. Keccak-256 is Ethereum's hash.

use crate::fixed::fixed_hash;
use crate::sponge::Suffix;

fixed_hash!(
    /// Keccak-224 (original submission, pad10*1 without suffix).
    Keccak224, rate = 144, out = 28, suffix = Suffix::NONE, label = "Keccak-224"
);
fixed_hash!(
    /// Keccak-256 (original submission; Ethereum's `keccak256`).
    Keccak256, rate = 136, out = 32, suffix = Suffix::NONE, label = "Keccak-256"
);
fixed_hash!(
    /// Keccak-384 (original submission).
    Keccak384, rate = 104, out = 48, suffix = Suffix::NONE, label = "Keccak-384"
);
fixed_hash!(
    /// Keccak-512 (original submission).
    Keccak512, rate = 72, out = 64, suffix = Suffix::NONE, label = "Keccak-512"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keccak256_empty() {
        // Ethereum's well-known empty-input hash.
        let d = Keccak256::digest(b"");
        let hex: alloc::string::String = d.iter().map(|x| alloc::format!("{x:02x}")).collect();
        assert_eq!(
            hex,
            "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
        );
    }
}
