//! The keccakx calls that both the rows (lib.rs) and the scaling rounds
//! (scaling.rs) time.

use std::hint::black_box;

/// keccakx KT128 of `d`, 32 bytes out (the KT128 rows and scaling.rs).
pub fn kt128_digest(d: &[u8]) {
    let mut h = keccakx::rfc9861::Kt128::new(b"");
    h.update(d);
    let mut o = [0u8; 32];
    h.finalize_into(&mut o);
    black_box(o);
}

/// keccakx batch SHA3-256 of `d`'s 64-byte messages into `out`. The
/// caller's list of messages is part of the cost; the output buffer is
/// reused, as a Merkle-tree builder would.
pub fn batch_sha3_256(d: &[u8], out: &mut Vec<u8>) {
    let msgs: Vec<&[u8]> = d.chunks(64).collect();
    out.resize(msgs.len() * 32, 0);
    keccakx::batch::hash_many_into(
        "sha3-256",
        &keccakx::registry::Params::default(),
        &msgs,
        32,
        out,
    )
    .unwrap();
    black_box(&out);
}
