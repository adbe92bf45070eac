//! The tree-mode final-node building blocks, `rfc9861::KtFinalNode` and
//! `sp800_185::ParallelHashOuter`, driven by hand (leaves hashed one by one
//! with their public leaf specs, chaining values fed in several splits):
//! against the RFC 9861 KT vectors and the SP 800-185 ParallelHash samples,
//! against the one-shot `Kt`/`ParallelHash` at the leaf and block edges, and
//! their error contracts.

mod common;

use common::{check, load_records, Record};
use keccakx::rfc9861::{length_encode, Kt, KtFinalNode, TurboShake128};
use keccakx::sp800_185::{ParallelHash, ParallelHashOuter};
use keccakx::Error;

const CHUNK: usize = 8192;

fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

/// How chaining values are handed over: the sizes (in values) of the
/// successive calls, cycled; 0 = everything left in one call.
const SPLITS: [&[usize]; 4] = [&[0], &[1], &[2, 1, 3], &[5, 0]];

/// Feed `cvs` (whole values of `cv_len` bytes) in calls of the given sizes.
fn feed_cvs(
    cvs: &[u8],
    cv_len: usize,
    split: &[usize],
    mut absorb: impl FnMut(&[u8]) -> keccakx::Result<()>,
) {
    let mut rest = cvs;
    let mut k = 0;
    while !rest.is_empty() {
        let n = match split[k % split.len()] {
            0 => rest.len(),
            n => (n * cv_len).min(rest.len()),
        };
        absorb(&rest[..n]).expect("whole chaining values after a full first chunk");
        rest = &rest[n..];
        k += 1;
    }
}

/// KT of message `m` and customization `c` through `KtFinalNode`: S_0 fed
/// in two pieces (`first_split` bytes, then the rest), leaves hashed with
/// `LEAF_SPEC`, their values fed in calls sized by `split`.
fn kt_by_node<const R: usize>(
    m: &[u8],
    c: &[u8],
    first_split: usize,
    split: &[usize],
    out_len: usize,
) -> Vec<u8> {
    let cv_len = KtFinalNode::<R>::CV_LEN;
    let mut s = m.to_vec();
    s.extend_from_slice(c);
    s.extend_from_slice(&length_encode(c.len() as u64));
    let mut node = KtFinalNode::<R>::new();
    let head = first_split.min(s.len());
    assert_eq!(node.absorb_first_chunk(&s[..head]), head);
    let taken = node.absorb_first_chunk(&s[head..]);
    assert_eq!(head + taken, s.len().min(CHUNK));
    assert_eq!(node.first_chunk_len(), head + taken);
    let leaves = &s[head + taken..];
    // Once S_0 is full, nothing more goes into it.
    assert_eq!(node.absorb_first_chunk(leaves), 0);
    let mut cvs = vec![0u8; leaves.len().div_ceil(CHUNK) * cv_len];
    for (leaf, cv) in leaves.chunks(CHUNK).zip(cvs.chunks_mut(cv_len)) {
        KtFinalNode::<R>::LEAF_SPEC.hash_one(leaf, cv);
    }
    feed_cvs(&cvs, cv_len, split, |v| node.absorb_chaining_values(v));
    assert_eq!(node.leaf_count(), leaves.len().div_ceil(CHUNK) as u64);
    // Both ways out agree: the reader and the in-place squeeze.
    let mut into = vec![0u8; out_len];
    node.clone().finalize_into(&mut into);
    let v = node.finalize_vec(out_len);
    assert_eq!(into, v, "KtFinalNode::finalize_into");
    v
}

fn kt_one_shot<const R: usize>(m: &[u8], c: &[u8], out_len: usize) -> Vec<u8> {
    let mut h = Kt::<R>::new(c);
    h.update(m);
    let mut into = vec![0u8; out_len];
    h.clone().finalize_into(&mut into);
    let v = h.finalize_vec(out_len);
    assert_eq!(into, v, "Kt::finalize_into");
    v
}

fn kt_edges<const R: usize>(name: &str) {
    let c = CHUNK;
    // |S| = |M| + |C| + |length_encode(|C|)|: with C empty, |S| = |M| + 1, so
    // |M| = 8191 is the largest single node, 8192 the first tree.
    let sizes = [
        0,
        1,
        c - 2,
        c - 1,
        c,
        c + 1,
        2 * c - 1,
        2 * c,
        2 * c + 1,
        4 * c + 77,
    ];
    let customs: [&[u8]; 3] = [b"", b"C", &[0x5A; 300]];
    for &n in &sizes {
        let m = pattern(n);
        for cust in customs {
            for out_len in [32usize, 200] {
                let want = kt_one_shot::<R>(&m, cust, out_len);
                for (k, split) in SPLITS.iter().enumerate() {
                    let first_split = [0, 1, 4096, c][k];
                    let got = kt_by_node::<R>(&m, cust, first_split, split, out_len);
                    assert_eq!(
                        got,
                        want,
                        "{name} |M|={n} |C|={} S_0 split at {first_split}, CV splits {split:?}",
                        cust.len()
                    );
                }
            }
        }
    }
}

#[test]
fn kt128_final_node_matches_kt128_at_leaf_edges() {
    kt_edges::<168>("KT128");
}

#[test]
fn kt256_final_node_matches_kt256_at_leaf_edges() {
    kt_edges::<136>("KT256");
}

#[test]
fn kt_final_node_single_node_and_first_tree() {
    // S = M || length_encode(0) = M || 0x00 (C = ""). |S| = 8192 exactly is
    // still one node: TurboSHAKE(S, 0x07), no leaves.
    let mut s = pattern(CHUNK - 1);
    s.push(0x00);
    let mut one = KtFinalNode::<168>::new();
    assert_eq!(one.absorb_first_chunk(&s), CHUNK);
    assert_eq!(one.leaf_count(), 0);
    let mut ts = TurboShake128::new(0x07).unwrap();
    ts.update(&s);
    let want = kt_one_shot::<168>(&s[..CHUNK - 1], b"", 64);
    assert_eq!(ts.finalize_vec(64), want);
    assert_eq!(one.finalize_vec(64), want);

    // |S| = 8193 is the first tree: one leaf, the single byte 0x00.
    let mut s = pattern(CHUNK);
    s.push(0x00);
    let mut node = KtFinalNode::<168>::new();
    assert_eq!(node.absorb_first_chunk(&s), CHUNK);
    let mut cv = [0u8; 32];
    KtFinalNode::<168>::LEAF_SPEC.hash_one(&s[CHUNK..], &mut cv);
    node.absorb_chaining_values(&cv).unwrap();
    assert_eq!(node.leaf_count(), 1);
    assert_eq!(
        node.finalize_vec(64),
        kt_one_shot::<168>(&s[..CHUNK], b"", 64)
    );
}

#[test]
fn kt_final_node_xof_reads_in_pieces() {
    for n in [100usize, CHUNK - 1, 3 * CHUNK + 5] {
        let m = pattern(n);
        let whole = kt_by_node::<136>(&m, b"xof", 7, &[2], 1000);
        let mut s = m.clone();
        s.extend_from_slice(b"xof");
        s.extend_from_slice(&length_encode(3));
        let mut node = KtFinalNode::<136>::new();
        let taken = node.absorb_first_chunk(&s);
        for leaf in s[taken..].chunks(CHUNK) {
            let mut cv = [0u8; KtFinalNode::<136>::CV_LEN];
            KtFinalNode::<136>::LEAF_SPEC.hash_one(leaf, &mut cv);
            node.absorb_chaining_values(&cv).unwrap();
        }
        let mut r = node.finalize_xof();
        let mut got = vec![0u8; 1000];
        for piece in got.chunks_mut(137) {
            r.read(piece);
        }
        assert_eq!(got, whole, "|M|={n}");
    }
}

#[test]
fn kt_final_node_rejects_partial_values_and_early_values() {
    // S = M || length_encode(0) = M || 0x00: three chunks, KT128 of M with C = "".
    let m = pattern(3 * CHUNK - 1);
    let mut s = m.clone();
    s.push(0x00);
    let mut node = KtFinalNode::<168>::new();
    node.absorb_first_chunk(&s[..100]);
    // Values before S_0 is full: rejected, nothing absorbed.
    assert!(matches!(
        node.absorb_chaining_values(&[0u8; 32]),
        Err(Error::InvalidParameter(_))
    ));
    // No values at all is always fine.
    assert!(node.absorb_chaining_values(&[]).is_ok());
    assert_eq!(node.absorb_first_chunk(&s[100..]), CHUNK - 100);
    let mut cvs = [0u8; 64];
    for (leaf, cv) in s[CHUNK..].chunks(CHUNK).zip(cvs.chunks_mut(32)) {
        KtFinalNode::<168>::LEAF_SPEC.hash_one(leaf, cv);
    }
    // Not a whole number of values: rejected, nothing absorbed.
    for bad in [1usize, 31, 33, 48, 63] {
        assert!(
            matches!(
                node.absorb_chaining_values(&cvs[..bad]),
                Err(Error::InvalidParameter(_))
            ),
            "{bad} bytes"
        );
    }
    assert_eq!(node.leaf_count(), 0);
    node.absorb_chaining_values(&cvs).unwrap();
    assert_eq!(node.leaf_count(), 2);
    assert_eq!(node.finalize_vec(32), kt_one_shot::<168>(&m, b"", 32));
}

/// Every RFC 9861 KT128/KT256 vector (messages up to 17^5 bytes; the larger
/// ones are covered by conformance_rfc9861 through `Kt`), through the node.
#[test]
fn kt_final_node_rfc9861_vectors() {
    let mut seen = 0;
    for (k, rec) in load_records("rfc9861/rfc9861.txt").iter().enumerate() {
        let f = rec.req("Function");
        if f != "KT128" && f != "KT256" {
            continue;
        }
        let m = rec.bytes("M");
        if m.len() > 17usize.pow(5) {
            continue;
        }
        let c = rec.bytes("C");
        let want = rec.hex("Out");
        let total = rec.usize("L");
        let split = SPLITS[k % SPLITS.len()];
        let out = if f == "KT128" {
            kt_by_node::<168>(&m, &c, 1000, split, total)
        } else {
            kt_by_node::<136>(&m, &c, 1000, split, total)
        };
        check(&out[total - want.len()..], &want, &rec.at());
        seen += 1;
    }
    assert!(seen >= 20, "only {seen} KT vectors found");
}

/// ParallelHash of `x` through `ParallelHashOuter`: blocks hashed with
/// `BLOCK_SPEC`, values fed in calls sized by `split`.
fn ph_by_outer<const R: usize>(
    x: &[u8],
    block: usize,
    s: &[u8],
    split: &[usize],
    xof: bool,
    out_len: usize,
) -> Vec<u8> {
    let cv_len = ParallelHashOuter::<R>::CV_LEN;
    let mut outer = ParallelHashOuter::<R>::new(block, s).unwrap();
    assert_eq!(outer.block_size(), block);
    let mut cvs = vec![0u8; x.len().div_ceil(block) * cv_len];
    for (b, z) in x.chunks(block).zip(cvs.chunks_mut(cv_len)) {
        ParallelHashOuter::<R>::BLOCK_SPEC.hash_one(b, z);
    }
    feed_cvs(&cvs, cv_len, split, |v| outer.absorb_chaining_values(v));
    assert_eq!(outer.block_count(), x.len().div_ceil(block) as u64);
    if xof {
        outer.finalize_xof().read_vec(out_len)
    } else {
        outer.finalize_vec(out_len)
    }
}

fn ph_one_shot<const R: usize>(x: &[u8], block: usize, s: &[u8], xof: bool, n: usize) -> Vec<u8> {
    let mut h = ParallelHash::<R>::new(block, s).unwrap();
    h.update(x);
    if xof {
        h.finalize_xof().read_vec(n)
    } else {
        h.finalize_vec(n)
    }
}

fn ph_edges<const R: usize>(name: &str) {
    let x = pattern(2000);
    for block in [1usize, 7, 168, 1000] {
        // Empty, shorter than a block, one block, a multiple, and neither.
        let lens = [0, 1, block - 1, block, 3 * block, 3 * block + 1, 2000];
        for len in lens {
            let len = len.min(2000);
            for s in [&b""[..], b"Parallel Data"] {
                for xof in [false, true] {
                    for out_len in [32usize, 64, 300] {
                        let want = ph_one_shot::<R>(&x[..len], block, s, xof, out_len);
                        for split in SPLITS {
                            let got = ph_by_outer::<R>(&x[..len], block, s, split, xof, out_len);
                            assert_eq!(
                                got,
                                want,
                                "{name} B={block} len={len} |S|={} xof={xof} L={out_len} \
                                 CV splits {split:?}",
                                s.len()
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn parallelhash128_outer_matches_parallelhash128() {
    ph_edges::<168>("ParallelHash128");
}

#[test]
fn parallelhash256_outer_matches_parallelhash256() {
    ph_edges::<136>("ParallelHash256");
}

#[test]
fn parallelhash_outer_fixed_and_xof_differ() {
    // L is bound into the fixed-length output, not into the XOF's.
    let x = pattern(50);
    let fixed = ph_by_outer::<168>(&x, 7, b"", &[0], false, 32);
    let xof = ph_by_outer::<168>(&x, 7, b"", &[0], true, 32);
    assert_ne!(fixed, xof);
    let fixed64 = ph_by_outer::<168>(&x, 7, b"", &[0], false, 64);
    assert_ne!(fixed64[..32], fixed[..]);
    let xof64 = ph_by_outer::<168>(&x, 7, b"", &[0], true, 64);
    assert_eq!(xof64[..32], xof[..]);
}

#[test]
fn parallelhash_outer_rejects_bad_input() {
    assert!(matches!(
        ParallelHashOuter::<168>::new(0, b""),
        Err(Error::InvalidParameter(_))
    ));
    assert!(ParallelHashOuter::<136>::new(0, b"S").is_err());
    let x = pattern(24);
    let mut outer = ParallelHashOuter::<136>::new(8, b"").unwrap();
    let mut cvs = [0u8; 3 * 64];
    for (b, z) in x.chunks(8).zip(cvs.chunks_mut(64)) {
        ParallelHashOuter::<136>::BLOCK_SPEC.hash_one(b, z);
    }
    for bad in [1usize, 32, 63, 65, 127] {
        assert!(
            matches!(
                outer.absorb_chaining_values(&cvs[..bad]),
                Err(Error::InvalidParameter(_))
            ),
            "{bad} bytes"
        );
    }
    // The rejected calls absorbed nothing.
    assert_eq!(outer.block_count(), 0);
    outer.absorb_chaining_values(&cvs).unwrap();
    assert_eq!(
        outer.finalize_vec(64),
        ph_one_shot::<136>(&x, 8, b"", false, 64)
    );
}

fn ph_sample(rec: &Record) -> Option<Vec<u8>> {
    let f = rec.req("Function");
    if !f.starts_with("ParallelHash") {
        return None;
    }
    let xof = f.contains("XOF");
    let x = rec.bytes("X");
    let b = rec.usize("B");
    let s = rec.bytes("S");
    let n = rec.usize("L") / 8;
    Some(if f.ends_with("128") {
        ph_by_outer::<168>(&x, b, &s, &[1], xof, n)
    } else {
        ph_by_outer::<136>(&x, b, &s, &[2, 1], xof, n)
    })
}

/// The NIST ParallelHash(XOF)128/256 samples through the outer node.
#[test]
fn parallelhash_outer_sp800_185_samples() {
    let mut seen = 0;
    for rec in load_records("sp800-185/sp800_185_samples.txt") {
        if let Some(got) = ph_sample(&rec) {
            check(&got, &rec.hex("Out"), &rec.at());
            seen += 1;
        }
    }
    assert_eq!(seen, 12, "NIST has 12 ParallelHash(XOF) samples");
}
