//! GPU cross-checks of the newer paths (part of `gpu_cross`): the
//! rate-specialized direct kernels up to 600 blocks, host-fed input copied
//! straight from registered or page-locked memory, and Merkle trees built
//! in device memory, each against the CPU into poisoned outputs.

use super::*;

/// The rate-specialized direct kernels (whole blocks loaded back to back)
/// on the device: for each rate and round count they exist for, one
/// message of every length from 0 to 600 blocks at a block edge or inside,
/// 8-byte aligned (the `Direct` conditions), into a poisoned output; and the
/// run-time-rate kernel they replace, with `research`.
#[test]
fn rate_specialized_kernels_match_the_cpu_up_to_600_blocks() {
    let Some(gpu) = own() else { return };
    let mut rng = Rng(0x5EED_0136);
    let kernels = [
        BatchKernel::Direct,
        #[cfg(feature = "research")]
        BatchKernel::DirectAnyRate,
    ];
    let s = |r, n, d| LaneSpec::new(r, n, d).unwrap();
    for (name, spec, out_len) in [
        ("sha3-256", s(136, 24, 0x06), 32),
        ("shake128/400", s(168, 24, 0x1F), 400),
        ("kt128 leaf", s(168, 12, 0x0B), 32),
        ("kt256 leaf", s(136, 12, 0x0B), 64),
    ] {
        let r = spec.rate_bytes;
        let mut data = Vec::new();
        let (mut offsets, mut lengths) = (Vec::new(), Vec::new());
        for k in 0..=600usize {
            let len = [k * r, (k * r).saturating_sub(1), k * r + 1, k * r + r / 2][k % 4];
            offsets.push(data.len() as u64);
            lengths.push(len as u64);
            data.extend(rng.bytes(len));
            data.resize(data.len().div_ceil(8) * 8, 0xEE);
        }
        let msgs: Vec<&[u8]> = offsets
            .iter()
            .zip(&lengths)
            .map(|(&o, &l)| &data[o as usize..(o + l) as usize])
            .collect();
        let want = cpu(&spec, &msgs, out_len);
        let d = gpu.upload(&data).unwrap();
        for kernel in kernels {
            gpu.set_batch_kernel(kernel);
            let mut out = poisoned(want.len());
            let layout = Layout::Indexed {
                offsets: &offsets,
                lengths: &lengths,
            };
            gpu.hash_many_device(&spec, &d, layout, out_len, &mut out)
                .unwrap();
            for (k, (g, w)) in out
                .chunks_exact(out_len)
                .zip(want.chunks_exact(out_len))
                .enumerate()
            {
                assert!(
                    g == w,
                    "{kernel:?} {name}: message {k} of {} bytes",
                    lengths[k]
                );
            }
        }
    }
}

/// Host-fed strided batches copied straight from the caller's memory:
/// registered for the call (above the size threshold), page-locked by the
/// caller beforehand (`register_host`), and staged (threshold never
/// reached); each into a poisoned output, with the ramped chunk sizes of a
/// small pipeline chunk (many chunks).
#[test]
fn host_input_registered_pinned_and_staged_match_the_cpu() {
    use keccakx_gpu::HostInput;
    let Some(gpu) = own() else { return };
    let mut rng = Rng(0x5EED_4E61);
    let spec = LaneSpec::new(136, 24, 0x06).unwrap();
    let (count, stride, len) = (20_000usize, 1032usize, 1027usize);
    let data = rng.bytes(count * stride);
    let msgs: Vec<&[u8]> = (0..count)
        .map(|i| &data[i * stride..i * stride + len])
        .collect();
    let want = cpu(&spec, &msgs, 32);
    gpu.set_chunk_bytes(1 << 20);
    let run = |expect: HostInput| {
        let mut out = poisoned(count * 32);
        gpu.hash_strided(&spec, &data, stride, len, count, 32, &mut out)
            .unwrap();
        let st = gpu.last_pipeline_stats();
        assert!(out == want, "{expect:?}: digests differ");
        assert_eq!(st.host_input, expect);
        assert!(st.chunks > 4, "{} chunks", st.chunks);
    };
    gpu.set_register_min_bytes(usize::MAX);
    run(HostInput::Staged);
    gpu.set_register_min_bytes(1 << 20);
    run(HostInput::Registered);
    {
        let pinned = gpu.register_host(&data).unwrap();
        assert_eq!(pinned.bytes().len(), data.len());
        run(HostInput::PageLocked);
    }
    gpu.set_register_min_bytes(usize::MAX);
    run(HostInput::Staged);
}

/// Merkle trees in device memory (kernels/merkle.cu) against keccakx's
/// Merkle mode on the CPU: every node, for host leaves and for leaves left
/// in device memory (the node array into a poisoned buffer), at sizes
/// around powers of two up to 2^20 + 3.
#[test]
fn merkle_trees_on_the_device_match_the_cpu() {
    let Some(gpu) = shared() else { return };
    let mut rng = Rng(0x5EED_3E61);
    for n in [1usize, 2, 3, 7, 8, 9, 1000, 4096, 65537, (1 << 20) + 3] {
        let leaves: Vec<[u8; 32]> = (0..n).map(|_| rng.bytes(32).try_into().unwrap()).collect();
        let want = keccakx::merkle::build_nodes(&leaves, &Scalar, &mut |_| {}).unwrap();
        let got = gpu.merkle_tree(&leaves).unwrap();
        assert!(got == want, "host leaves, n = {n}");
        let d = gpu.upload(leaves.as_flattened()).unwrap();
        let mut nodes = poisoned(want.len() * 32);
        let stream = gpu.stream();
        let (ptr, _sync) = {
            use keccakx_gpu::cudarc::driver::DevicePtr;
            d.device_ptr(&stream)
        };
        // SAFETY: `d` holds n * 32 bytes on this hasher's device.
        let root = unsafe { gpu.merkle_tree_raw(ptr, n as u64, None, Some(&mut nodes)) }.unwrap();
        assert!(root == want[0], "device leaves, n = {n}: root");
        assert!(
            nodes == want.as_flattened(),
            "device leaves, n = {n}: nodes"
        );
    }
}

/// The Merkle mode on the GPU engine: `Engine::merkle_nodes` builds every
/// level in device memory (routing off: any size; on: from
/// `GPU_MERKLE_MIN_LEAVES` leaves) and gives the CPU's node array.
#[test]
fn the_merkle_mode_on_the_gpu_engine_gives_cpu_trees() {
    use keccakx::engine::Engine;
    let Some(gpu) = shared() else { return };
    let mut rng = Rng(0x5EED_3E62);
    let routed = keccakx_gpu::GpuEngine::open_on_demand(gpu.device().ordinal);
    let forced = keccakx_gpu::GpuEngine::open_on_demand(gpu.device().ordinal).with_routing(false);
    for n in [2usize, 5, 1 << 16, (1 << 16) + 1] {
        let leaves: Vec<[u8; 32]> = (0..n).map(|_| rng.bytes(32).try_into().unwrap()).collect();
        let want = keccakx::merkle::build_nodes(&leaves, &Scalar, &mut |_| {}).unwrap();
        for (name, e) in [("routed", &routed), ("forced", &forced)] {
            let mut tree = vec![[0xA5u8; 32]; 2 * n - 1];
            tree[n - 1..]
                .iter_mut()
                .zip(leaves.iter().rev())
                .for_each(|(t, l)| *t = *l);
            let r = e.merkle_nodes(&mut tree);
            let on_gpu = name == "forced" || n >= keccakx_gpu::GPU_MERKLE_MIN_LEAVES;
            assert_eq!(r.is_some(), on_gpu, "{name} n = {n}");
            if on_gpu {
                r.unwrap().unwrap();
                assert!(tree == want, "{name} n = {n}: nodes");
            }
            let built = keccakx::merkle::build_nodes(&leaves, e, &mut |_| {}).unwrap();
            assert!(built == want, "{name} n = {n}: the mode's tree");
        }
    }
}
