//! FIPS 202: SHA3-224/256/384/512 and SHAKE128/256.

use crate::fixed::{fixed_hash, xof_hash};
use crate::sponge::Suffix;

fixed_hash!(
    /// SHA3-224 (FIPS 202).
    Sha3_224, rate = 144, out = 28, suffix = Suffix::SHA3, label = "SHA3-224"
);
fixed_hash!(
    /// SHA3-256 (FIPS 202).
    Sha3_256, rate = 136, out = 32, suffix = Suffix::SHA3, label = "SHA3-256"
);
fixed_hash!(
    /// SHA3-384 (FIPS 202).
    Sha3_384, rate = 104, out = 48, suffix = Suffix::SHA3, label = "SHA3-384"
);
fixed_hash!(
    /// SHA3-512 (FIPS 202).
    Sha3_512, rate = 72, out = 64, suffix = Suffix::SHA3, label = "SHA3-512"
);
xof_hash!(
    /// SHAKE128 (FIPS 202), 128-bit security XOF.
    Shake128, rate = 168, suffix = Suffix::SHAKE, label = "SHAKE128"
);
xof_hash!(
    /// SHAKE256 (FIPS 202), 256-bit security XOF.
    Shake256, rate = 136, suffix = Suffix::SHAKE, label = "SHAKE256"
);

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> alloc::string::String {
        b.iter().map(|x| alloc::format!("{x:02x}")).collect()
    }

    // Empty-message digests from FIPS 202's example values (NIST CSRC).
    #[test]
    fn empty_messages() {
        assert_eq!(
            hex(&Sha3_224::digest(b"")),
            "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7"
        );
        assert_eq!(
            hex(&Sha3_256::digest(b"")),
            "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"
        );
        let mut o = [0u8; 32];
        Shake128::digest_into(b"", &mut o);
        assert_eq!(
            hex(&o),
            "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"
        );
    }

    #[test]
    fn abc() {
        assert_eq!(
            hex(&Sha3_256::digest(b"abc")),
            "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"
        );
    }
}
