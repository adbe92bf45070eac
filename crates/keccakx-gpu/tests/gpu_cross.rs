//! GPU results against the CPU library (the golden model's fast path):
//! random batches with lengths 0..3 blocks + 1, every function family and
//! batch kernel, 1 to 10^6 messages, host-fed and device-resident, KT and
//! ParallelHash (device-resident up to a GiB, around the chunk edges), tree
//! LI (host-fed and device-resident), the routed engine, and with the
//! `research` feature the comparison kernels. Each test prints why it skipped
//! when there is no GPU (on CPU-only machines and in CI).

use std::sync::OnceLock;

use keccakx::engine::{Engine, LaneSpec, Scalar};
use keccakx_gpu::cudarc::driver::CudaSlice;
#[cfg(feature = "research")]
use keccakx_gpu::{perm_reference, PermKernel};
use keccakx_gpu::{
    BatchKernel, GpuError, GpuHasher, InputPath, KtVariant, Layout, PhVariant, RawLayout,
};

// The rate-specialized kernels, host input without staging, Merkle trees.
#[path = "gpu_cross/paths.rs"]
mod paths;

fn shared() -> Option<&'static GpuHasher> {
    static H: OnceLock<Result<GpuHasher, GpuError>> = OnceLock::new();
    match H.get_or_init(|| GpuHasher::new(0)) {
        Ok(h) => Some(h),
        Err(e) => {
            skip(format!("no GPU: {e}"));
            None
        }
    }
}

/// A hasher of its own, for tests that change the kernel choice.
fn own() -> Option<GpuHasher> {
    match GpuHasher::new(0) {
        Ok(h) => Some(h),
        Err(e) => {
            skip(format!("no GPU: {e}"));
            None
        }
    }
}

/// Say why a test skipped, past the test harness's output capture.
fn skip(why: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "*** SKIPPED: {why}");
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn specs() -> Vec<(&'static str, LaneSpec, usize)> {
    let s = |r, n, d| LaneSpec::new(r, n, d).unwrap();
    vec![
        ("sha3-224", s(144, 24, 0x06), 28),
        ("sha3-256", s(136, 24, 0x06), 32),
        ("sha3-384", s(104, 24, 0x06), 48),
        ("sha3-512", s(72, 24, 0x06), 64),
        ("shake128/500", s(168, 24, 0x1F), 500),
        ("shake256/7", s(136, 24, 0x1F), 7),
        ("keccak-256", s(136, 24, 0x01), 32),
        ("turboshake128", s(168, 12, 0x1F), 32),
        ("turboshake256/d23", s(136, 12, 0x23), 64),
        ("raw r=100 n=7", s(100, 7, 0x1F), 33),
        ("raw r=1", s(1, 24, 0x01), 5),
        ("raw r=199 n=3", s(199, 3, 0x7F), 401),
    ]
}

fn batch(rng: &mut Rng, rate: usize, n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|_| {
            let l = rng.below(3 * rate as u64 + 2) as usize;
            rng.bytes(l)
        })
        .collect()
}

fn cpu(spec: &LaneSpec, msgs: &[&[u8]], out_len: usize) -> Vec<u8> {
    let mut out = vec![0u8; msgs.len() * out_len];
    Scalar.hash_many(spec, msgs, out_len, &mut out);
    out
}

/// Output buffers start poisoned, never zero or holding digests from an
/// earlier check, so that a kernel that writes nothing (or not all of its
/// output) cannot pass a check.
const POISON: u8 = 0xA5;

fn poisoned(len: usize) -> Vec<u8> {
    vec![POISON; len]
}

/// A device output buffer of `len` poisoned bytes.
fn poisoned_dev(gpu: &GpuHasher, len: usize) -> CudaSlice<u8> {
    gpu.upload(&poisoned(len.max(1))).unwrap()
}

/// Poison a device buffer in place (no new allocation).
fn repoison(gpu: &GpuHasher, d: &mut CudaSlice<u8>) {
    let stream = gpu.stream();
    stream.memcpy_htod(&poisoned(d.len()), d).unwrap();
    stream.synchronize().unwrap();
}

#[test]
fn host_batches_match_the_cpu_for_every_kernel() {
    let Some(gpu) = own() else { return };
    let mut rng = Rng(0x5EED_0001);
    // Every kernel of this build (with `research`: the comparison kernels,
    // register-capped ones included).
    for &kernel in BatchKernel::ALL {
        gpu.set_batch_kernel(kernel);
        for (name, spec, out_len) in specs() {
            for n in [1usize, 2, 31, 32, 33, 257, 5000] {
                let msgs = batch(&mut rng, spec.rate_bytes, n);
                let refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
                let mut out = poisoned(n * out_len);
                gpu.hash_many(&spec, &refs, out_len, &mut out).unwrap();
                assert!(out == cpu(&spec, &refs, out_len), "{kernel:?} {name} n={n}");
            }
            // Equal lengths take the uniform layout (no index upload).
            let l = rng.below(3 * spec.rate_bytes as u64 + 2) as usize;
            let msgs: Vec<Vec<u8>> = (0..1000).map(|_| rng.bytes(l)).collect();
            let refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
            let mut out = poisoned(1000 * out_len);
            gpu.hash_many(&spec, &refs, out_len, &mut out).unwrap();
            assert!(
                out == cpu(&spec, &refs, out_len),
                "{kernel:?} {name} uniform len {l}"
            );
        }
    }
}

#[test]
fn a_million_messages_through_many_pipeline_chunks() {
    let Some(gpu) = own() else { return };
    gpu.set_chunk_bytes(1 << 20); // about 200 chunks over 3 stages
    let mut rng = Rng(0x5EED_0002);
    let spec = LaneSpec::new(136, 24, 0x06).unwrap();
    let msgs = batch(&mut rng, 136, 1_000_000);
    let refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
    let mut out = poisoned(refs.len() * 32);
    gpu.hash_many(&spec, &refs, 32, &mut out).unwrap();
    let mut want = vec![0u8; refs.len() * 32];
    std::thread::scope(|s| {
        for (m, o) in refs.chunks(50_000).zip(want.chunks_mut(50_000 * 32)) {
            s.spawn(move || Scalar.hash_many(&spec, m, 32, o));
        }
    });
    assert!(out == want);
}

#[test]
fn empty_and_degenerate_batches() {
    let Some(gpu) = shared() else { return };
    let spec = LaneSpec::new(136, 24, 0x06).unwrap();
    gpu.hash_many(&spec, &[], 32, &mut []).unwrap();
    let mut out = [];
    gpu.hash_many(&spec, &[b"abc"], 0, &mut out).unwrap();
    let empties: Vec<&[u8]> = vec![b""; 100];
    let mut out = poisoned(100 * 32);
    gpu.hash_many(&spec, &empties, 32, &mut out).unwrap();
    assert!(out == cpu(&spec, &empties, 32));
    assert!(matches!(
        gpu.hash_many(&spec, &[b"abc"], 32, &mut [0u8; 33]),
        Err(GpuError::Unsupported(_))
    ));
}

#[test]
fn device_resident_layouts_match_the_cpu() {
    let Some(gpu) = shared() else { return };
    let mut rng = Rng(0x5EED_0003);
    for (name, spec, out_len) in specs() {
        // Indexed: messages at odd offsets with junk between them.
        let msgs = batch(&mut rng, spec.rate_bytes, 777);
        let mut data = Vec::new();
        let (mut offs, mut lens) = (Vec::new(), Vec::new());
        for m in &msgs {
            data.extend(std::iter::repeat_n(0xCC, rng.below(4) as usize));
            offs.push(data.len() as u64);
            lens.push(m.len() as u64);
            data.extend_from_slice(m);
        }
        let d = gpu.upload(&data).unwrap();
        let refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
        let want = cpu(&spec, &refs, out_len);
        let mut out = poisoned(msgs.len() * out_len);
        gpu.hash_many_device(
            &spec,
            &d,
            Layout::Indexed {
                offsets: &offs,
                lengths: &lens,
            },
            out_len,
            &mut out,
        )
        .unwrap();
        assert!(out == want, "{name} indexed");
        // Uniform with a stride that is not a multiple of 8.
        let (count, stride, len) = (300usize, 77u64, 70u64);
        let data = rng.bytes(count * stride as usize);
        let d = gpu.upload(&data).unwrap();
        let refs: Vec<&[u8]> = (0..count).map(|i| &data[i * 77..i * 77 + 70]).collect();
        let mut out = poisoned(count * out_len);
        gpu.hash_many_device(
            &spec,
            &d,
            Layout::Uniform { count, stride, len },
            out_len,
            &mut out,
        )
        .unwrap();
        assert!(out == cpu(&spec, &refs, out_len), "{name} uniform");
        // Output left on the device.
        let mut d_out = poisoned_dev(gpu, count * out_len);
        gpu.hash_many_device_to_device(
            &spec,
            &d,
            Layout::Uniform { count, stride, len },
            out_len,
            &mut d_out,
        )
        .unwrap();
        assert!(
            gpu.download(&d_out).unwrap() == out,
            "{name} device to device"
        );
        // Raw pointers, uniform layout, into a freshly poisoned buffer.
        repoison(gpu, &mut d_out);
        let stream = gpu.stream();
        use keccakx_gpu::cudarc::driver::{DevicePtr, DevicePtrMut};
        let (dp, _g1) = d.device_ptr(&stream);
        let (op, _g2) = d_out.device_ptr_mut(&stream);
        // SAFETY: both buffers are live device allocations of the sizes given.
        unsafe {
            gpu.hash_many_raw(
                &spec,
                dp,
                data.len() as u64,
                RawLayout::Uniform {
                    count: count as u64,
                    stride,
                    len,
                },
                op,
                out_len,
                None,
            )
        }
        .unwrap();
        drop((_g1, _g2));
        assert!(gpu.download(&d_out).unwrap() == out, "{name} raw");
    }
    // Layouts outside the buffer are errors, not faults.
    let d = gpu.upload(&[0u8; 100]).unwrap();
    let spec = LaneSpec::new(136, 24, 0x06).unwrap();
    let mut out = poisoned(32);
    let bad = Layout::Indexed {
        offsets: &[90],
        lengths: &[11],
    };
    assert!(matches!(
        gpu.hash_many_device(&spec, &d, bad, 32, &mut out),
        Err(GpuError::Unsupported(_))
    ));
}

#[test]
fn kt_on_the_device_matches_rfc9861() {
    let Some(gpu) = shared() else { return };
    let c = 8192usize;
    let mut rng = Rng(0x5EED_0004);
    let sizes = [
        0,
        1,
        c - 1,
        c,
        c + 1,
        2 * c,
        2 * c + 1,
        17 * c - 5,
        100 * c,
        (10 << 20) + 3,
    ];
    for &n in &sizes {
        let m = rng.bytes(n);
        for cust in [&b""[..], b"customization", &[0xAB; 9000][..]] {
            for v in [KtVariant::Kt128, KtVariant::Kt256] {
                let mut want = vec![0u8; 80];
                match v {
                    KtVariant::Kt128 => {
                        let mut h = keccakx::rfc9861::Kt128::new(cust);
                        h.update(&m);
                        h.finalize_into(&mut want);
                    }
                    KtVariant::Kt256 => {
                        let mut h = keccakx::rfc9861::Kt256::new(cust);
                        h.update(&m);
                        h.finalize_into(&mut want);
                    }
                }
                let mut got = poisoned(80);
                engine().kt(v, &m, cust, &mut got).unwrap();
                assert!(got == want, "{v:?} host |M|={n} |C|={}", cust.len());
                let d = gpu.upload(&m).unwrap();
                let mut got = poisoned(80);
                gpu.kt_device(v, &d, cust, &mut got).unwrap();
                assert!(got == want, "{v:?} device |M|={n} |C|={}", cust.len());
            }
        }
    }
}

/// KT over 2 GiB: more than 2^18 leaves (the smallest leaf group), so the
/// device-resident leaves run in two groups, the final node absorbing one
/// group's chaining values while the next runs. Random data, no leaf equal
/// to another, against the CPU: a leaf or a group out of place changes
/// the digest.
#[test]
fn kt_over_two_gib_in_several_leaf_groups() {
    use rayon::prelude::*;
    let Some(gpu) = shared() else { return };
    let c = 8192usize;
    let n = c * (1 + (1 << 18) + 4099) + 1234;
    let mut m = vec![0u8; n];
    m.par_chunks_mut(1 << 20)
        .enumerate()
        .for_each(|(k, piece)| {
            let mut r = Rng(0x5EED_00C0 ^ ((k as u64 + 1) << 20));
            for w in piece.chunks_mut(8) {
                let x = r.next().to_le_bytes();
                w.copy_from_slice(&x[..w.len()]);
            }
        });
    let d = gpu.upload(&m).unwrap();
    for v in [KtVariant::Kt128, KtVariant::Kt256] {
        let mut want = vec![0u8; 64];
        match v {
            KtVariant::Kt128 => {
                let mut h = keccakx::rfc9861::Kt128::new(b"groups");
                h.update(&m);
                h.finalize_into(&mut want);
            }
            KtVariant::Kt256 => {
                let mut h = keccakx::rfc9861::Kt256::new(b"groups");
                h.update(&m);
                h.finalize_into(&mut want);
            }
        }
        let mut got = poisoned(64);
        gpu.kt_device(v, &d, b"groups", &mut got).unwrap();
        assert!(got == want, "{v:?} device, {n} bytes");
    }
}

#[test]
fn parallelhash_on_the_device_matches_sp800_185() {
    let Some(gpu) = shared() else { return };
    let mut rng = Rng(0x5EED_0005);
    for &n in &[0usize, 1, 4095, 4096, 4097, 1 << 20] {
        let x = rng.bytes(n);
        for block in [1usize, 100, 4096, 8192] {
            for xof in [false, true] {
                let mut h = keccakx::sp800_185::ParallelHash128::new(block, b"S").unwrap();
                h.update(&x);
                let want = if xof {
                    h.finalize_xof().read_vec(48)
                } else {
                    h.finalize_vec(48)
                };
                let mut got = poisoned(48);
                engine()
                    .parallelhash(PhVariant::Ph128, &x, block, b"S", xof, &mut got)
                    .unwrap();
                assert!(got == want, "PH128 host n={n} B={block} xof={xof}");
                let d = gpu.upload(&x).unwrap();
                let mut got = poisoned(48);
                gpu.parallelhash_device(PhVariant::Ph128, &d, block, b"S", xof, &mut got)
                    .unwrap();
                assert!(got == want, "PH128 device n={n} B={block} xof={xof}");
                let mut h = keccakx::sp800_185::ParallelHash256::new(block, b"").unwrap();
                h.update(&x);
                let want = if xof {
                    h.finalize_xof().read_vec(64)
                } else {
                    h.finalize_vec(64)
                };
                let mut got = poisoned(64);
                engine()
                    .parallelhash(PhVariant::Ph256, &x, block, b"", xof, &mut got)
                    .unwrap();
                assert!(got == want, "PH256 host n={n} B={block} xof={xof}");
                let mut got = poisoned(64);
                gpu.parallelhash_device(PhVariant::Ph256, &d, block, b"", xof, &mut got)
                    .unwrap();
                assert!(got == want, "PH256 device n={n} B={block} xof={xof}");
            }
        }
    }
}

#[cfg(feature = "research")]
#[test]
fn permutation_kernels_match_the_cpu() {
    let Some(gpu) = shared() else { return };
    for k in [
        PermKernel::Fast24,
        PermKernel::Fast24Unrolled,
        PermKernel::Fast24By6,
        PermKernel::Fast12,
        PermKernel::FastU64,
        PermKernel::Paper,
        PermKernel::Imad24,
        PermKernel::ImadRho24,
        PermKernel::ImadHalf24,
    ] {
        let states = 10_000u64;
        let (secs, v) = gpu.perm_run(k, states, 3).unwrap();
        assert!(secs > 0.0);
        assert_eq!(v.len() as u64, states);
        for s in [0u64, 1, 2, 127, 128, 4097, 9_999] {
            assert_eq!(
                v[s as usize],
                perm_reference(s, 3, k.rounds()),
                "{k:?} state {s}"
            );
        }
    }
}

#[cfg(feature = "research")]
#[test]
fn copy_bandwidth_is_measured() {
    let Some(gpu) = shared() else { return };
    let h2d = gpu.h2d_bandwidth(16 << 20, 2).unwrap();
    let d2h = gpu.d2h_bandwidth(16 << 20, 2).unwrap();
    eprintln!("H2D {:.1} GB/s, D2H {:.1} GB/s", h2d / 1e9, d2h / 1e9);
    assert!(h2d > 1e8 && d2h > 1e8);
}

#[test]
fn the_engine_adapter_gives_cpu_digests() {
    let Ok(engine) = keccakx_gpu::GpuEngine::new(0) else {
        skip("no GPU");
        return;
    };
    let spec = LaneSpec::new(72, 24, 0x06).unwrap();
    let msgs: Vec<&[u8]> = vec![b"", b"a", &[7u8; 1000]];
    // Routed (this small batch goes to the CPU) and forced onto the GPU,
    // behind the fallback wrapper that would keep a GPU error.
    for e in [engine.clone(), engine.clone().with_routing(false)] {
        let f = keccakx::engine::Fallback::new(e);
        let mut out = poisoned(3 * 64);
        f.hash_many(&spec, &msgs, 64, &mut out);
        assert!(f.take_error().is_none());
        assert!(out == cpu(&spec, &msgs, 64));
    }
    // A long message among many short ones: split between CPU and GPU.
    let long = vec![3u8; 8 << 20];
    let short = [1u8; 64];
    let mut msgs: Vec<&[u8]> = vec![&short; 200_000];
    msgs[777] = &long;
    let mut out = poisoned(msgs.len() * 64);
    let f = keccakx::engine::Fallback::new(engine);
    f.hash_many(&spec, &msgs, 64, &mut out);
    assert!(f.take_error().is_none());
    assert!(out == cpu(&spec, &msgs, 64));
}

/// An engine that sends every batch to the GPU (no cost routing).
fn engine() -> keccakx_gpu::GpuEngine {
    static E: OnceLock<Result<keccakx_gpu::GpuEngine, GpuError>> = OnceLock::new();
    E.get_or_init(|| keccakx_gpu::GpuEngine::new(0).map(|e| e.with_routing(false)))
        .clone()
        .expect("the GPU opened for the other tests")
}

#[test]
fn tree_li_on_the_gpu_matches_the_cpu() {
    if shared().is_none() {
        return;
    }
    use keccakx::tree_li::{tree_li_with_engine, TreeLiParams};
    let mut rng = Rng(0x5EED_0006);
    for height in 0..=4 {
        for (n, params) in [
            (1_050_112usize, TreeLiParams::paper(height)),
            (
                100_003,
                TreeLiParams {
                    height,
                    prefix: b"salt".to_vec(),
                    ..TreeLiParams::default()
                },
            ),
            (
                0,
                TreeLiParams {
                    height,
                    ..TreeLiParams::default()
                },
            ),
        ] {
            let msg = rng.bytes(n);
            let mut want = vec![0u8; 64];
            tree_li_with_engine(&Scalar, &params, &msg, &mut want).unwrap();
            let mut got = poisoned(64);
            engine().tree_li(&params, &msg, &mut got).unwrap();
            assert!(got == want, "tree LI H={height} n={n}");
            let d = shared()
                .unwrap()
                .upload(if msg.is_empty() { &[0u8][..] } else { &msg })
                .unwrap();
            if !msg.is_empty() {
                let mut got = poisoned(64);
                shared()
                    .unwrap()
                    .tree_li_device(&params, &d, None, &mut got)
                    .unwrap();
                assert!(got == want, "tree LI device-resident H={height} n={n}");
            }
        }
    }
}

/// The warp-per-message kernel (kernels/warp.cu), chosen explicitly and by
/// `Auto` (few long messages): every spec, lengths around each rate edge,
/// device-resident uniform (aligned stride: 8-byte loads; odd stride) and
/// indexed (odd offsets), output on the device, host-fed; then batches
/// small enough for `Auto` to pick `Warp` (fewer messages than 32 per SM,
/// at least 4 blocks each) next to ones where it must not.
#[test]
fn warp_kernel_matches_the_cpu() {
    let Some(gpu) = own() else { return };
    let mut rng = Rng(0x5EED_000C);
    for kernel in [BatchKernel::Warp, BatchKernel::Auto] {
        gpu.set_batch_kernel(kernel);
        for (name, spec, out_len) in specs() {
            let r = spec.rate_bytes;
            // Warp: short and edge lengths; Auto: long enough to pick Warp
            // (4 blocks and more), and a few messages.
            let lens: Vec<usize> = if kernel == BatchKernel::Warp {
                let mut v = vec![0, 1];
                for k in 1..=3 {
                    v.extend([k * r - 1, k * r, k * r + 1]);
                }
                v
            } else {
                vec![4 * r, 4 * r + 1, 7 * r - 1, 9 * r + 5, 64 * r]
            };
            for &l in &lens {
                for n in [1usize, 3, 33, 200] {
                    let msgs: Vec<Vec<u8>> = (0..n).map(|_| rng.bytes(l)).collect();
                    let refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
                    let want = cpu(&spec, &refs, out_len);
                    let what = format!("{kernel:?} {name} len {l} n {n}");
                    let mut out = poisoned(n * out_len);
                    gpu.hash_many(&spec, &refs, out_len, &mut out).unwrap();
                    assert!(out == want, "{what} host-fed");
                    // Uniform, stride a multiple of 8, and 8 + 3.
                    for pad in [(8 - l % 8) % 8, (8 - l % 8) % 8 + 3] {
                        let stride = l + pad;
                        let mut data = vec![0xEEu8; n * stride + 1];
                        for (i, m) in msgs.iter().enumerate() {
                            data[i * stride..i * stride + l].copy_from_slice(m);
                        }
                        let d = gpu.upload(&data).unwrap();
                        let lay = Layout::Uniform {
                            count: n,
                            stride: stride as u64,
                            len: l as u64,
                        };
                        out.fill(POISON);
                        gpu.hash_many_device(&spec, &d, lay, out_len, &mut out)
                            .unwrap();
                        assert!(out == want, "{what} uniform stride {stride}");
                        let mut d_out = poisoned_dev(&gpu, n * out_len);
                        gpu.hash_many_device_to_device(&spec, &d, lay, out_len, &mut d_out)
                            .unwrap();
                        assert!(gpu.download(&d_out).unwrap() == want, "{what} d2d");
                    }
                    // Indexed, odd offsets with junk between.
                    let mut data = Vec::new();
                    let (mut offs, mut ls) = (Vec::new(), Vec::new());
                    for m in &msgs {
                        data.extend(std::iter::repeat_n(0xCC, 1 + rng.below(9) as usize));
                        offs.push(data.len() as u64);
                        ls.push(m.len() as u64);
                        data.extend_from_slice(m);
                    }
                    let d = gpu.upload(&data).unwrap();
                    out.fill(POISON);
                    let lay = Layout::Indexed {
                        offsets: &offs,
                        lengths: &ls,
                    };
                    gpu.hash_many_device(&spec, &d, lay, out_len, &mut out)
                        .unwrap();
                    assert!(out == want, "{what} indexed");
                }
            }
        }
    }
    // Auto around its thresholds (Warp below, one thread per message
    // above): 64 KiB SHA3-256 messages, 1 .. 10^4 of them; short ones.
    gpu.set_batch_kernel(BatchKernel::Auto);
    let spec = LaneSpec::new(136, 24, 0x06).unwrap();
    let big = rng.bytes(10_000 * 1024 + 7);
    for (n, l) in [
        (1usize, 65536usize),
        (64, 65536),
        (4000, 2048),
        (10_000, 1024),
        (500, 100),
    ] {
        let refs: Vec<&[u8]> = (0..n)
            .map(|i| &big[i * (l / 64)..i * (l / 64) + l])
            .collect();
        let want = cpu(&spec, &refs, 32);
        let mut out = poisoned(n * 32);
        gpu.hash_many(&spec, &refs, 32, &mut out).unwrap();
        assert!(out == want, "Auto n={n} len={l} host-fed");
        let d = gpu.upload(&big).unwrap();
        let lay = Layout::Uniform {
            count: n,
            stride: (l / 64) as u64,
            len: l as u64,
        };
        out.fill(POISON);
        gpu.hash_many_device(&spec, &d, lay, 32, &mut out).unwrap();
        assert!(
            out == want,
            "Auto n={n} len={l} device (overlapping messages)"
        );
    }
}

/// Lengths around every multiple of the rate up to 3 blocks + 1: host-fed,
/// device-resident uniform and indexed, for every family.
#[test]
fn lengths_around_each_rate_edge_match_the_cpu() {
    let Some(gpu) = shared() else { return };
    let mut rng = Rng(0x5EED_0007);
    for (name, spec, out_len) in specs() {
        let r = spec.rate_bytes;
        let mut lens: Vec<usize> = vec![0, 1];
        for k in 1..=3 {
            lens.extend([k * r - 1, k * r, k * r + 1]);
        }
        lens.retain(|&l| l <= 3 * r + 1);
        for &l in &lens {
            let msgs: Vec<Vec<u8>> = (0..129).map(|_| rng.bytes(l)).collect();
            let refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
            let want = cpu(&spec, &refs, out_len);
            let mut out = poisoned(refs.len() * out_len);
            gpu.hash_many(&spec, &refs, out_len, &mut out).unwrap();
            assert!(out == want, "{name} host-fed len {l}");
            let flat: Vec<u8> = msgs.concat();
            let d = gpu
                .upload(if flat.is_empty() { &[0u8][..] } else { &flat })
                .unwrap();
            let lay = Layout::Uniform {
                count: refs.len(),
                stride: l as u64,
                len: l as u64,
            };
            out.fill(POISON);
            gpu.hash_many_device(&spec, &d, lay, out_len, &mut out)
                .unwrap();
            assert!(out == want, "{name} device uniform len {l}");
            let offs: Vec<u64> = (0..refs.len() as u64).map(|i| i * l as u64).collect();
            let ls = vec![l as u64; refs.len()];
            let lay = Layout::Indexed {
                offsets: &offs,
                lengths: &ls,
            };
            out.fill(POISON);
            gpu.hash_many_device(&spec, &d, lay, out_len, &mut out)
                .unwrap();
            assert!(out == want, "{name} device indexed len {l}");
        }
    }
}

/// The routed engine (cost model on) behind the fallback wrapper gives the
/// CPU's digests whatever it decides, for mixed batches.
#[test]
fn the_routed_engine_gives_cpu_digests_for_mixed_batches() {
    let Ok(engine) = keccakx_gpu::GpuEngine::new(0) else {
        skip("no GPU");
        return;
    };
    let f = keccakx::engine::Fallback::new(engine);
    let mut rng = Rng(0x5EED_0008);
    for (name, spec, out_len) in specs() {
        for n in [1usize, 1000, 200_000] {
            let msgs = batch(&mut rng, spec.rate_bytes, n);
            let refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
            let mut out = poisoned(n * out_len);
            f.hash_many(&spec, &refs, out_len, &mut out);
            assert!(f.take_error().is_none(), "{name} n={n}");
            assert!(out == cpu(&spec, &refs, out_len), "{name} n={n}");
        }
    }
}

/// KT128/KT256 around 8 KiB chunk edges up to 1 GiB with customization, and
/// ParallelHash(XOF) 128/256 device-resident at a GiB. Named
/// "gib": the quick GPU run skips it.
#[test]
fn kt_and_parallelhash_up_to_a_gib() {
    let Some(gpu) = shared() else { return };
    let c = 8192usize;
    let top = 1usize << 30;
    let mut m = vec![0u8; top + c];
    let mut rng = Rng(0x5EED_0009);
    for w in m.chunks_mut(1 << 20) {
        let b = rng.bytes(64);
        for (i, x) in w.iter_mut().enumerate() {
            *x = b[i % 64] ^ (i >> 6) as u8;
        }
    }
    for n in [top - c - 1, top - c, top - 1, top, top + 1, top + c] {
        let d = gpu.upload(&m[..n]).unwrap();
        for cust in [&b""[..], b"custom"] {
            let mut want = [0u8; 64];
            let mut h = keccakx::rfc9861::Kt128::new(cust);
            h.update(&m[..n]);
            h.finalize_into(&mut want);
            let mut got = [POISON; 64];
            gpu.kt_device(KtVariant::Kt128, &d, cust, &mut got).unwrap();
            assert!(got == want, "KT128 device n={n} |C|={}", cust.len());
            let mut h = keccakx::rfc9861::Kt256::new(cust);
            h.update(&m[..n]);
            h.finalize_into(&mut want);
            gpu.kt_device(KtVariant::Kt256, &d, cust, &mut got).unwrap();
            assert!(got == want, "KT256 device n={n} |C|={}", cust.len());
        }
        if n == top + 1 {
            let mut want = [0u8; 64];
            let mut h = keccakx::rfc9861::Kt128::new(b"host");
            h.update(&m[..n]);
            h.finalize_into(&mut want);
            let mut got = [POISON; 64];
            engine()
                .kt(KtVariant::Kt128, &m[..n], b"host", &mut got)
                .unwrap();
            assert!(got == want, "KT128 host-fed n={n}");
            for (block, xof) in [(8192usize, false), (1 << 20, true), (1000, true)] {
                let mut h = keccakx::sp800_185::ParallelHash256::new(block, b"S").unwrap();
                h.update(&m[..n]);
                let want = if xof {
                    h.finalize_xof().read_vec(100)
                } else {
                    h.finalize_vec(100)
                };
                let mut got = poisoned(100);
                gpu.parallelhash_device(PhVariant::Ph256, &d, block, b"S", xof, &mut got)
                    .unwrap();
                assert!(got == want, "PH256 device n={n} B={block} xof={xof}");
            }
        }
    }
}

/// Device-resident tree LI with blocks that are not rate blocks (1 byte,
/// 100 bytes), a long prefix, a short last block and the paper's sizes.
#[test]
fn tree_li_device_resident_gathers_every_leaf() {
    let Some(gpu) = shared() else { return };
    use keccakx::tree_li::{tree_li, TreeLiParams};
    let mut rng = Rng(0x5EED_000A);
    let msg = rng.bytes(25_200_000);
    for height in 1..=4 {
        for (n, params) in [
            (25_200_000usize, TreeLiParams::paper(height)),
            (
                1_000_003,
                TreeLiParams {
                    height,
                    block_size: Some(100),
                    prefix: vec![9; 200],
                    ..TreeLiParams::default()
                },
            ),
            (
                50_001,
                TreeLiParams {
                    height,
                    block_size: Some(1),
                    ..TreeLiParams::paper(height)
                },
            ),
            (77, TreeLiParams::paper(height)),
        ] {
            let mut want = [0u8; 48];
            tree_li(&params, &msg[..n], &mut want).unwrap();
            let d = gpu.upload(&msg[..n]).unwrap();
            let mut got = [POISON; 48];
            gpu.tree_li_device(&params, &d, None, &mut got).unwrap();
            assert!(got == want, "H={height} n={n} B={:?}", params.block_size);
        }
    }
}

/// Small calls reuse the buffers the first call allocated (no cuMemAlloc,
/// no cuMemFree per call), stay correct while doing so, and allocate again
/// after `release_buffers`.
#[test]
fn repeated_small_calls_allocate_nothing() {
    let Some(gpu) = own() else { return };
    use keccakx::tree_li::{tree_li, TreeLiParams};
    let mut rng = Rng(0x5EED_000B);
    let spec = LaneSpec::new(136, 24, 0x06).unwrap();
    let (count, len) = (64usize, 64usize);
    let data = rng.bytes(count * len + 300_000);
    let d = gpu.upload(&data).unwrap();
    let msgs: Vec<&[u8]> = (0..count).map(|i| &data[i * len..(i + 1) * len]).collect();
    let want = cpu(&spec, &msgs, 32);
    let offs: Vec<u64> = (0..count as u64).map(|i| i * len as u64).collect();
    let lens = vec![len as u64; count];
    let mut kt_want = [0u8; 32];
    let mut h = keccakx::rfc9861::Kt128::new(b"");
    h.update(&data[..100_000]);
    h.finalize_into(&mut kt_want);
    let tree = TreeLiParams::paper(2);
    let mut tree_want = [0u8; 48];
    tree_li(&tree, &data[..300_000], &mut tree_want).unwrap();
    let d_tree = gpu.upload(&data[..300_000]).unwrap();
    let d_kt = gpu.upload(&data[..100_000]).unwrap();
    let mut d_out = poisoned_dev(&gpu, count * 32);
    let mut calls = |round: usize| {
        let mut out = poisoned(count * 32);
        gpu.hash_many(&spec, &msgs, 32, &mut out).unwrap();
        assert!(out == want, "host-fed, round {round}");
        out.fill(POISON);
        let uniform = Layout::Uniform {
            count,
            stride: len as u64,
            len: len as u64,
        };
        gpu.hash_many_device(&spec, &d, uniform, 32, &mut out)
            .unwrap();
        assert!(out == want, "device uniform, round {round}");
        out.fill(POISON);
        let indexed = Layout::Indexed {
            offsets: &offs,
            lengths: &lens,
        };
        gpu.hash_many_device(&spec, &d, indexed, 32, &mut out)
            .unwrap();
        assert!(out == want, "device indexed, round {round}");
        repoison(&gpu, &mut d_out);
        gpu.hash_many_device_to_device(&spec, &d, uniform, 32, &mut d_out)
            .unwrap();
        assert!(
            gpu.download(&d_out).unwrap() == want,
            "device to device, round {round}"
        );
        let mut got = [POISON; 32];
        gpu.kt_device(KtVariant::Kt128, &d_kt, b"", &mut got)
            .unwrap();
        assert!(got == kt_want, "KT128 device, round {round}");
        let mut got = [POISON; 48];
        gpu.tree_li_device(&tree, &d_tree, None, &mut got).unwrap();
        assert!(got == tree_want, "tree LI device, round {round}");
    };
    calls(0);
    let kept = gpu.buffer_allocations();
    assert!(kept > 0, "the first calls allocate their buffers");
    for round in 1..=5 {
        calls(round);
    }
    assert_eq!(
        gpu.buffer_allocations(),
        kept,
        "repeated calls allocated buffers"
    );
    gpu.release_buffers().unwrap();
    calls(6);
    assert!(
        gpu.buffer_allocations() > kept,
        "released buffers are allocated again"
    );
}

/// Strided host buffers (`hash_strided`): every spec, strides equal to and
/// above the length, lengths around the rate and not multiples of 8, an
/// unaligned start, several chunks (small chunk size) and mapped input; bad
/// geometry is an error with nothing written.
#[test]
fn strided_host_buffers_match_the_cpu() {
    let Some(gpu) = own() else { return };
    let mut rng = Rng(0x5EED_0005);
    for (name, spec, out_len) in specs() {
        let r = spec.rate_bytes;
        for (len, stride, count, skew) in [
            (64usize, 64usize, 5000usize, 0usize),
            (r - 1, r + 3, 3000, 1),
            (r, r, 2000, 0),
            (2 * r + 5, 2 * r + 8, 700, 3),
            (0, 8, 100, 0),
        ] {
            let buf = rng.bytes(skew + (count - 1) * stride + len + 5);
            let data = &buf[skew..];
            let msgs: Vec<&[u8]> = (0..count)
                .map(|i| &data[i * stride..i * stride + len])
                .collect();
            let want = cpu(&spec, &msgs, out_len);
            for (chunk, mapped) in [(usize::MAX, false), (16 << 10, false), (16 << 10, true)] {
                gpu.set_chunk_bytes(if chunk == usize::MAX {
                    keccakx_gpu::hasher::DEFAULT_CHUNK_BYTES
                } else {
                    chunk
                });
                gpu.set_input_path(if mapped {
                    InputPath::Mapped
                } else {
                    InputPath::Copy
                });
                let mut out = poisoned(count * out_len);
                gpu.hash_strided(&spec, data, stride, len, count, out_len, &mut out)
                    .unwrap();
                assert!(
                    out == want,
                    "{name} len {len} stride {stride} chunk {chunk} mapped {mapped}"
                );
            }
        }
    }
    gpu.set_chunk_bytes(keccakx_gpu::hasher::DEFAULT_CHUNK_BYTES);
    gpu.set_input_path(InputPath::Copy);
    let spec = LaneSpec::new(136, 24, 0x06).unwrap();
    let data = [0u8; 100];
    let mut out = [7u8; 96];
    for (stride, len, count) in [(8, 9, 2), (50, 10, 3), (usize::MAX, 1, 2)] {
        assert!(matches!(
            gpu.hash_strided(&spec, &data, stride, len, count, 32, &mut out[..count * 32]),
            Err(GpuError::Unsupported(_))
        ));
    }
    assert!(out.iter().all(|&b| b == 7));
}
