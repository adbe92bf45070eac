//! Emulation checks of the newer kernels (part of `emulation`): the
//! rate-specialized direct kernels over 0..600 blocks and the Merkle
//! kernel, against the keccakx CPU library.

use super::*;

/// The rate-specialized direct kernels (kx_thread_rate: whole blocks with
/// back-to-back loads, the last block and the squeeze per word): for each
/// rate (SHA3-256 at 136, KT128's leaves at 168) one message of every
/// length from 0 to 600 blocks, each at a block edge (k * rate - 1,
/// k * rate, k * rate + 1) or a random offset inside the block, in the
/// indexed layout; the other two kernels (SHAKE128, KT256's leaves) every
/// 23rd block count and the last ones; and uniform batches of KT leaves
/// (8 KiB).
#[test]
fn rate_specialized_direct_kernel_matches_the_cpu() {
    if harness().is_none() {
        return;
    }
    let mut rng = Rng(0x6A09_E667_F3BC_C908);
    let s = |r, n, d, o, step| (LaneSpec::new(r, n, d).unwrap(), o, step);
    for (spec, out_len, step) in [
        s(136, 24, 0x06, 32, 1),   // SHA3-256
        s(168, 24, 0x1F, 400, 23), // SHAKE128, output over three blocks
        s(168, 12, 0x0B, 32, 1),   // KT128 leaf
        s(136, 12, 0x0B, 64, 23),  // KT256 leaf
    ] {
        let r = spec.rate_bytes;
        let msgs: Vec<Vec<u8>> = (0..=600usize)
            .filter(|k| k % step == 0 || *k >= 598)
            .map(|k| {
                let len = match k % 4 {
                    0 => k * r,
                    1 => (k * r).saturating_sub(1),
                    2 => k * r + 1,
                    _ => k * r + rng.below(r as u64) as usize,
                };
                rng.bytes(len)
            })
            .collect();
        let want = reference(&spec, &msgs, out_len);
        let rt = spec.rounds as u64;
        let got = emulate(
            Mode::DirectRate,
            false,
            rt,
            &spec,
            &msgs,
            out_len,
            false,
            8,
            &mut rng,
        );
        assert_eq!(got.len(), want.len());
        for (k, (g, w)) in got
            .chunks_exact(out_len)
            .zip(want.chunks_exact(out_len))
            .enumerate()
        {
            assert_eq!(
                g,
                w,
                "rate-specialized {spec:?}: message {k} of {} bytes",
                msgs[k].len()
            );
        }
        if spec.rounds == 12 {
            let leaves: Vec<Vec<u8>> = (0..33).map(|_| rng.bytes(8192)).collect();
            let want = reference(&spec, &leaves, out_len);
            let got = emulate(
                Mode::DirectRate,
                false,
                rt,
                &spec,
                &leaves,
                out_len,
                true,
                8,
                &mut rng,
            );
            assert_eq!(got, want, "rate-specialized {spec:?}: uniform 8 KiB leaves");
        }
    }
}

/// The Merkle kernel (merkle.cu): OpenZeppelin trees of random leaves
/// (powers of two and not, duplicates, equal prefixes) built level by level
/// as the GPU does, against keccakx's Merkle mode on the CPU (every node),
/// and the sorted-pair rule itself: node = keccak256(min || max).
#[test]
fn merkle_kernel_matches_the_cpu_tree() {
    if harness().is_none() {
        return;
    }
    let mut rng = Rng(0x4D45_524B_4C45_0001);
    for n in [
        1usize, 2, 3, 4, 5, 7, 8, 9, 16, 31, 33, 64, 100, 257, 1024, 3000,
    ] {
        let mut leaves: Vec<[u8; 32]> = (0..n).map(|_| rng.bytes(32).try_into().unwrap()).collect();
        if n > 4 {
            // Pairs that differ only in their last byte, and a duplicate.
            let mut twin = leaves[1];
            twin[31] ^= 1;
            leaves[2] = twin;
            leaves[4] = leaves[3];
        }
        let mut inp = Vec::new();
        for x in [7u64, 0, 0, n as u64] {
            inp.extend_from_slice(&x.to_le_bytes());
        }
        for l in &leaves {
            inp.extend_from_slice(l);
        }
        let got = run(&inp);
        let want =
            keccakx::merkle::build_nodes(&leaves, &keccakx::engine::Scalar, &mut |_| {}).unwrap();
        assert_eq!(got.len(), want.len() * 32, "n = {n}");
        for (i, (g, w)) in got.chunks_exact(32).zip(&want).enumerate() {
            assert_eq!(g, w, "n = {n}: node {i}");
        }
        // The rule, spelled out for the root's children.
        if n >= 2 {
            let (l, r) = (&want[1], &want[2]);
            let (lo, hi) = if l <= r { (l, r) } else { (r, l) };
            let mut m = lo.to_vec();
            m.extend_from_slice(hi);
            let mut h = [0u8; 32];
            keccakx::engine::LaneSpec::new(136, 24, 0x01)
                .unwrap()
                .hash_one(&m, &mut h);
            assert_eq!(&got[..32], &h, "n = {n}: root = keccak256(sorted children)");
        }
    }
}
