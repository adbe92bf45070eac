//! `keccakx::hazmat`: KT128/KT256 and ParallelHash computed from separate
//! pieces (head, runs of chaining values, tail) on random splits, against
//! the one-shot `Kt` / `ParallelHash` at every chunk and block edge, the
//! chaining values against the scalar leaf sponge on every engine, and the
//! error contracts (misaligned runs, wrong counts, wrong lengths).

mod common;

use common::prng::{Rng, SeedGuard};
use keccakx::hazmat::{
    kt_leaf_chaining_values, kt_leaf_chaining_values_on, parallelhash_block_chaining_values,
    parallelhash_block_chaining_values_on, KtFinal, KtPlan, ParallelHashFinal, KT_CHUNK_LEN,
};
use keccakx::rfc9861::{Kt, KtFinalNode};
use keccakx::sp800_185::{ParallelHash, ParallelHashOuter};
use keccakx::Error;

const CHUNK: usize = KT_CHUNK_LEN;

/// Random cut points (sorted, deduplicated) of `0..n` units, `n` included.
fn runs(rng: &mut Rng, n: u64) -> Vec<u64> {
    let k = rng.below(6);
    let mut cuts: Vec<u64> = (0..k).map(|_| rng.below(n as usize + 1) as u64).collect();
    cuts.push(0);
    cuts.push(n);
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// KT of `m` with customization `c` through the hazmat pieces: the head in
/// random pieces, the whole leaves in random runs (each hashed on its own,
/// as a worker would), the tail last.
fn kt_by_pieces<const R: usize>(rng: &mut Rng, m: &[u8], c: &[u8], out_len: usize) -> Vec<u8> {
    let plan = KtPlan::new(m.len() as u64);
    assert!(plan.head_len <= CHUNK && plan.tail_len < CHUNK);
    assert_eq!(
        plan.tail_offset + plan.tail_len as u64,
        m.len() as u64,
        "{plan:?}"
    );
    let mut fin = KtFinal::<R>::new(m.len() as u64, c);
    let cut = rng.below(plan.head_len + 1);
    fin.absorb_head(&m[..cut]).unwrap();
    fin.absorb_head(&m[cut..plan.head_len]).unwrap();
    let first = plan.leaves.start;
    let count = plan.leaves.end - first;
    let cuts = runs(rng, count);
    for w in cuts.windows(2) {
        let (a, b) = (first + w[0], first + w[1]);
        let bytes = KtPlan::byte_range(a..b);
        let data = &m[bytes.start as usize..bytes.end as usize];
        let mut cvs = vec![0u8; (b - a) as usize * KtFinal::<R>::CV_LEN];
        kt_leaf_chaining_values::<R>(a, data, &mut cvs).unwrap();
        fin.absorb_chaining_values(&cvs).unwrap();
    }
    assert_eq!(fin.leaves_absorbed(), count);
    let tail = &m[plan.tail_offset as usize..];
    if rng.below(2) == 0 {
        fin.finalize_xof(tail).unwrap().read_vec(out_len)
    } else {
        let mut out = vec![0u8; out_len];
        fin.finalize_into(tail, &mut out).unwrap();
        out
    }
}

fn kt_one_shot<const R: usize>(m: &[u8], c: &[u8], out_len: usize) -> Vec<u8> {
    let mut k = Kt::<R>::new(c);
    k.update(m);
    k.finalize_vec(out_len)
}

/// Message lengths at every edge of the split: no leaf, a leaf that is all
/// customization, a tail of 0, 1 and 8191 bytes, several whole leaves.
fn kt_lengths(rng: &mut Rng) -> Vec<usize> {
    let mut v = vec![
        0,
        1,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        2 * CHUNK - 1,
        2 * CHUNK,
        2 * CHUNK + 1,
        5 * CHUNK,
        5 * CHUNK + 3,
        40 * CHUNK + CHUNK - 1,
    ];
    v.extend((0..6).map(|_| rng.below(60 * CHUNK)));
    v
}

/// Customization lengths: empty, short, and ones that push S across chunk
/// boundaries (alone more than one chunk).
fn kt_custom_lengths(rng: &mut Rng) -> Vec<usize> {
    let mut v = vec![
        0,
        1,
        254,
        255,
        256,
        CHUNK - 2,
        CHUNK - 1,
        CHUNK,
        2 * CHUNK + 5,
    ];
    v.push(rng.below(3 * CHUNK));
    v
}

fn kt_matches_one_shot<const R: usize>(name: &'static str) {
    let (_g, mut rng) = SeedGuard::new(name);
    let m_all = rng.bytes(60 * CHUNK + CHUNK);
    for n in kt_lengths(&mut rng) {
        let m = &m_all[..n];
        for cl in kt_custom_lengths(&mut rng) {
            let c = rng.bytes(cl);
            for out_len in [32, 64, 1 + rng.below(300)] {
                let want = kt_one_shot::<R>(m, &c, out_len);
                let got = kt_by_pieces::<R>(&mut rng, m, &c, out_len);
                assert_eq!(got, want, "R={R} |M|={n} |C|={cl} out={out_len}");
            }
        }
    }
}

#[test]
fn kt128_pieces_match_one_shot() {
    kt_matches_one_shot::<168>("kt128_pieces_match_one_shot");
}

#[test]
fn kt256_pieces_match_one_shot() {
    kt_matches_one_shot::<136>("kt256_pieces_match_one_shot");
}

#[test]
fn kt_plan_edges() {
    let p = KtPlan::new(0);
    assert_eq!(
        (p.head_len, p.leaves.clone(), p.tail_offset, p.tail_len),
        (0, 1..1, 0, 0)
    );
    let p = KtPlan::new(8191);
    assert_eq!(
        (p.head_len, p.leaves.clone(), p.tail_offset, p.tail_len),
        (8191, 1..1, 8191, 0)
    );
    let p = KtPlan::new(8192);
    assert_eq!(
        (p.head_len, p.leaves.clone(), p.tail_offset, p.tail_len),
        (8192, 1..1, 8192, 0)
    );
    let p = KtPlan::new(8193);
    assert_eq!(
        (p.head_len, p.leaves.clone(), p.tail_offset, p.tail_len),
        (8192, 1..1, 8192, 1)
    );
    let p = KtPlan::new(3 * 8192);
    assert_eq!(
        (p.leaves.clone(), p.tail_offset, p.tail_len),
        (1..3, 3 * 8192, 0)
    );
    let p = KtPlan::new(3 * 8192 + 8191);
    assert_eq!(
        (p.leaves.clone(), p.tail_offset, p.tail_len),
        (1..3, 3 * 8192, 8191)
    );
    assert_eq!(KtPlan::byte_range(1..3), 8192..3 * 8192);
    // A message of many TiB: counts in u64.
    let p = KtPlan::new(5 << 40);
    assert_eq!(p.leaves.end, (5u64 << 40) / 8192);
}

/// Every engine this CPU runs gives the scalar leaf sponge's values, at
/// lane-count edges (1..=17 chunks).
#[test]
fn kt_leaf_values_on_every_engine() {
    let (_g, mut rng) = SeedGuard::new("kt_leaf_values_on_every_engine");
    let data = rng.bytes(17 * CHUNK);
    for e in keccakx::engine::available() {
        keccakx::engine::set_engine(e.name()).unwrap();
        for chunks in 1..=17 {
            let d = &data[..chunks * CHUNK];
            let mut got = vec![0u8; chunks * 32];
            kt_leaf_chaining_values::<168>(1 + rng.below(1000) as u64, d, &mut got).unwrap();
            let mut got256 = vec![0u8; chunks * 64];
            kt_leaf_chaining_values::<136>(1, d, &mut got256).unwrap();
            for (i, leaf) in d.chunks(CHUNK).enumerate() {
                let mut want = [0u8; 64];
                KtFinalNode::<168>::LEAF_SPEC.hash_one(leaf, &mut want[..32]);
                assert_eq!(
                    &got[i * 32..(i + 1) * 32],
                    &want[..32],
                    "{} KT128",
                    e.name()
                );
                KtFinalNode::<136>::LEAF_SPEC.hash_one(leaf, &mut want);
                assert_eq!(
                    &got256[i * 64..(i + 1) * 64],
                    &want[..],
                    "{} KT256",
                    e.name()
                );
            }
        }
    }
    keccakx::engine::set_engine("auto").unwrap();
}

fn invalid(r: keccakx::Result<()>) -> &'static str {
    match r {
        Err(Error::InvalidParameter(m)) => m,
        other => panic!("expected InvalidParameter, got {other:?}"),
    }
}

#[test]
fn kt_errors() {
    let data = vec![7u8; 2 * CHUNK];
    let mut out = vec![0xAAu8; 64];
    assert!(invalid(kt_leaf_chaining_values::<168>(0, &data, &mut out)).contains("chunk 0"));
    assert!(invalid(kt_leaf_chaining_values::<168>(
        1,
        &data[1..],
        &mut out[..32]
    ))
    .contains("whole"));
    assert!(invalid(kt_leaf_chaining_values::<168>(1, &data, &mut out[..32])).contains("output"));
    assert!(invalid(kt_leaf_chaining_values::<168>(
        u64::MAX / 2,
        &data,
        &mut out
    ))
    .contains("too large"));
    assert!(out.iter().all(|&b| b == 0xAA), "out untouched on error");
    kt_leaf_chaining_values::<168>(1, &[], &mut []).unwrap();

    let m = vec![1u8; 3 * CHUNK + 10];
    let plan = KtPlan::new(m.len() as u64);
    let mut fin = KtFinal::<168>::new(m.len() as u64, b"c");
    // Values before the head is complete; too many head bytes.
    assert!(invalid(fin.absorb_chaining_values(&[0u8; 32])).contains("head"));
    assert!(invalid(fin.absorb_head(&m[..CHUNK + 1])).contains("head"));
    fin.absorb_head(&m[..CHUNK]).unwrap();
    assert!(invalid(fin.absorb_chaining_values(&[0u8; 31])).contains("whole"));
    // Two whole leaves: a third value is refused.
    assert!(invalid(fin.absorb_chaining_values(&[0u8; 96])).contains("more chaining values"));
    let tail = &m[plan.tail_offset as usize..];
    assert!(invalid(fin.clone().finalize_xof(tail).map(|_| ())).contains("fewer"));
    fin.absorb_chaining_values(&[0u8; 64]).unwrap();
    assert!(invalid(fin.clone().finalize_xof(&tail[1..]).map(|_| ())).contains("tail"));
    assert!(fin.finalize_xof(tail).is_ok());
    let short = KtFinal::<136>::new(100, b"");
    assert!(invalid(short.finalize_xof(&[]).map(|_| ())).contains("incomplete"));
}

// ---------------------------------------------------------------- ParallelHash

fn ph_by_pieces<const R: usize>(
    rng: &mut Rng,
    x: &[u8],
    b: usize,
    c: &[u8],
    out_len: usize,
    xof: bool,
) -> Vec<u8> {
    let n = x.len() as u64;
    let mut fin = ParallelHashFinal::<R>::new(b, c, n).unwrap();
    let blocks = fin.block_count();
    assert_eq!(blocks, n.div_ceil(b as u64));
    let cuts = runs(rng, blocks);
    for w in cuts.windows(2) {
        let start = (w[0] as usize * b).min(x.len());
        let end = (w[1] as usize * b).min(x.len());
        let data = &x[start..end];
        let mut cvs = vec![0u8; (w[1] - w[0]) as usize * ParallelHashFinal::<R>::CV_LEN];
        parallelhash_block_chaining_values::<R>(b, w[0], n, data, &mut cvs).unwrap();
        fin.absorb_chaining_values(&cvs).unwrap();
    }
    assert_eq!(fin.blocks_absorbed(), blocks);
    if xof {
        fin.finalize_xof().unwrap().read_vec(out_len)
    } else {
        let mut out = vec![0u8; out_len];
        fin.finalize_into(&mut out).unwrap();
        out
    }
}

fn ph_matches_one_shot<const R: usize>(name: &'static str) {
    let (_g, mut rng) = SeedGuard::new(name);
    let x_all = rng.bytes(300_000);
    let mut sizes = vec![1usize, 7, 136, 168, 8192, 8193];
    sizes.push(1 + rng.below(20_000));
    for b in sizes {
        let mut lengths = vec![0, 1, b - 1, b, b + 1, 3 * b, 3 * b + 1];
        lengths.extend((0..3).map(|_| rng.below(x_all.len().min(40 * b) + 1)));
        lengths.retain(|&l| l <= x_all.len());
        for n in lengths {
            let x = &x_all[..n];
            let cl = rng.below(300);
            let c = rng.bytes(cl);
            for xof in [false, true] {
                let out_len = [32, 64, 1 + rng.below(200)][rng.below(3)];
                let mut ph = ParallelHash::<R>::new(b, &c).unwrap();
                ph.update(x);
                let want = if xof {
                    ph.finalize_xof().read_vec(out_len)
                } else {
                    ph.finalize_vec(out_len)
                };
                let got = ph_by_pieces::<R>(&mut rng, x, b, &c, out_len, xof);
                assert_eq!(got, want, "R={R} B={b} |X|={n} xof={xof}");
            }
        }
    }
}

#[test]
fn parallelhash128_pieces_match_one_shot() {
    ph_matches_one_shot::<168>("parallelhash128_pieces_match_one_shot");
}

#[test]
fn parallelhash256_pieces_match_one_shot() {
    ph_matches_one_shot::<136>("parallelhash256_pieces_match_one_shot");
}

#[test]
fn parallelhash_block_values_match_block_spec() {
    let (_g, mut rng) = SeedGuard::new("parallelhash_block_values_match_block_spec");
    let b = 1000;
    let x = rng.bytes(9 * b + 17);
    let mut got = vec![0u8; 10 * 32];
    parallelhash_block_chaining_values::<168>(b, 0, x.len() as u64, &x, &mut got).unwrap();
    for (i, block) in x.chunks(b).enumerate() {
        let mut want = [0u8; 32];
        ParallelHashOuter::<168>::BLOCK_SPEC.hash_one(block, &mut want);
        assert_eq!(&got[i * 32..(i + 1) * 32], &want);
    }
}

/// The `_on` forms run on the engine they are handed (each engine in
/// turn, with the process's choice left at "auto") and keep the checks.
#[test]
fn chaining_values_on_a_given_engine() {
    let (_g, mut rng) = SeedGuard::new("chaining_values_on_a_given_engine");
    let data = rng.bytes(11 * CHUNK + 333);
    for e in keccakx::engine::available() {
        let d = &data[..11 * CHUNK];
        let mut got = vec![0u8; 11 * 32];
        kt_leaf_chaining_values_on::<168>(e, 3, d, &mut got).unwrap();
        for (i, leaf) in d.chunks(CHUNK).enumerate() {
            let mut want = [0u8; 32];
            KtFinalNode::<168>::LEAF_SPEC.hash_one(leaf, &mut want);
            assert_eq!(&got[i * 32..(i + 1) * 32], &want, "{} KT128", e.name());
        }
        let b = 2000;
        let mut got = vec![0u8; data.len().div_ceil(b) * 64];
        parallelhash_block_chaining_values_on::<136>(e, b, 0, data.len() as u64, &data, &mut got)
            .unwrap();
        for (i, block) in data.chunks(b).enumerate() {
            let mut want = [0u8; 64];
            ParallelHashOuter::<136>::BLOCK_SPEC.hash_one(block, &mut want);
            assert_eq!(&got[i * 64..(i + 1) * 64], &want, "{} PH256", e.name());
        }
        let mut out = vec![0u8; 32];
        assert!(kt_leaf_chaining_values_on::<168>(e, 0, &data[..CHUNK], &mut out).is_err());
        assert!(kt_leaf_chaining_values_on::<168>(e, 1, &data[..CHUNK - 1], &mut out).is_err());
    }
}

#[test]
fn parallelhash_errors() {
    let x = vec![3u8; 1000];
    let n = x.len() as u64;
    let mut out = vec![0xAAu8; 10 * 32];
    let f = parallelhash_block_chaining_values::<168>;
    assert!(invalid(f(0, 0, n, &x, &mut out)).contains("at least 1"));
    // Ends inside block 2 of 100-byte blocks, not at the message's end.
    assert!(invalid(f(100, 0, n, &x[..250], &mut out[..96])).contains("block boundary"));
    // Past the end of the message.
    assert!(invalid(f(100, 9, n, &x[..200], &mut out[..64])).contains("past the end"));
    assert!(invalid(f(100, 11, n, &[], &mut [])).contains("past the end"));
    assert!(invalid(f(100, u64::MAX, n, &x, &mut out)).contains("too large"));
    assert!(invalid(f(100, 0, n, &x, &mut out[..64])).contains("output"));
    assert!(out.iter().all(|&b| b == 0xAA), "out untouched on error");
    // The last, short block at the message's end is fine.
    f(300, 3, n, &x[900..], &mut out[..32]).unwrap();
    f(100, 10, n, &[], &mut []).unwrap();

    assert!(ParallelHashFinal::<168>::new(0, b"", 5).is_err());
    let mut fin = ParallelHashFinal::<136>::new(100, b"", n).unwrap();
    assert!(invalid(fin.absorb_chaining_values(&[0u8; 11 * 64])).contains("more chaining values"));
    assert!(invalid(fin.absorb_chaining_values(&[0u8; 63])).contains("whole"));
    fin.absorb_chaining_values(&[0u8; 9 * 64]).unwrap();
    assert!(invalid(fin.clone().finalize_xof().map(|_| ())).contains("fewer"));
    assert!(invalid(fin.clone().finalize_into(&mut [0u8; 64])).contains("fewer"));
    fin.absorb_chaining_values(&[0u8; 64]).unwrap();
    assert!(fin.finalize_xof().is_ok());
    // An empty message has no blocks: finishing at once is right.
    let empty = ParallelHashFinal::<168>::new(8192, b"s", 0).unwrap();
    let mut ph = ParallelHash::<168>::new(8192, b"s").unwrap();
    ph.update(&[]);
    let mut got = [0u8; 32];
    empty.finalize_into(&mut got).unwrap();
    assert_eq!(got.to_vec(), ph.finalize_vec(32));
}
