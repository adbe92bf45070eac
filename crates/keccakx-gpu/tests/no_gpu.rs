//! Behaviour without a usable GPU: errors, never panics. On a machine with a
//! GPU these tests check the same calls succeed consistently instead.

use keccakx::engine::LaneSpec;
use keccakx_gpu::{devices, GpuEngine, GpuError, GpuHasher};

#[test]
fn devices_and_new_agree_and_do_not_panic() {
    match devices() {
        Ok(list) => {
            assert!(!list.is_empty());
            for d in &list {
                eprintln!(
                    "GPU {}: {} sm_{}{} {} bytes",
                    d.ordinal,
                    d.name,
                    d.compute_capability.0,
                    d.compute_capability.1,
                    d.memory_bytes
                );
            }
            // One past the last ordinal is not a device.
            assert!(matches!(
                GpuHasher::new(list.len()),
                Err(GpuError::NoDevice)
            ));
        }
        Err(e) => {
            eprintln!("no GPU here: {e}");
            assert!(
                matches!(e, GpuError::NoDriver(_) | GpuError::NoDevice),
                "unexpected error kind: {e:?}"
            );
            assert!(!e.to_string().is_empty());
            // Every entry point reports the same condition as an error value.
            let h = GpuHasher::new(0);
            assert_eq!(h.as_ref().err(), Some(&e));
            assert!(GpuHasher::new(usize::MAX).is_err());
            assert!(GpuEngine::new(0).is_err());
            assert!(keccakx_gpu::device_details(0).is_err());
            assert!(keccakx_gpu::driver::driver_version().is_err());
        }
    }
}

#[test]
fn error_messages_say_what_happened() {
    let cases = [
        GpuError::NoDriver("libcuda.so.1 not found".into()),
        GpuError::NoDevice,
        GpuError::Compile("batch.cu: error".into()),
        GpuError::Cuda("CUDA_ERROR_ILLEGAL_ADDRESS".into()),
        GpuError::OutOfMemory,
        GpuError::Unsupported("rate must be 1..199 bytes"),
    ];
    for e in cases {
        let s = e.to_string();
        assert!(s.len() > 10, "{s}");
        let _: &dyn std::error::Error = &e;
    }
    assert!(GpuError::NoDriver("x".into())
        .to_string()
        .contains("driver"));
}

#[test]
fn a_hasher_rejects_bad_arguments_when_a_gpu_exists() {
    // Argument checks run before any GPU work; without a GPU there is no
    // hasher to ask, which the test above covers.
    let Ok(h) = GpuHasher::new(0) else { return };
    let spec = LaneSpec::new(136, 24, 0x06).unwrap();
    let mut out = vec![0u8; 31];
    assert!(matches!(
        h.hash_many(&spec, &[b"abc"], 32, &mut out),
        Err(GpuError::Unsupported(_))
    ));
    let bad = LaneSpec {
        rate_bytes: 0,
        ..spec
    };
    let mut out = vec![0u8; 32];
    assert!(matches!(
        h.hash_many(&bad, &[b"abc"], 32, &mut out),
        Err(GpuError::Unsupported(_))
    ));
}

#[test]
fn an_engine_opened_on_demand_routes_once_and_fails_over_without_a_gpu() {
    use keccakx::engine::{Engine, Fallback};
    let spec = LaneSpec::new(136, 24, 0x06).unwrap();
    let data: Vec<Vec<u8>> = (0..3000usize)
        .map(|i| (0..i % 300).map(|k| (k * 7 + i) as u8).collect())
        .collect();
    let msgs: Vec<&[u8]> = data.iter().map(|m| m.as_slice()).collect();
    let mut want = vec![0u8; msgs.len() * 32];
    keccakx::engine::hash_many(&spec, &msgs, 32, &mut want);
    // A few short messages: the cost model keeps them on the CPU, so the
    // device is never opened and nothing fails, GPU or not.
    let routed = GpuEngine::open_on_demand(0);
    let few = &msgs[..3];
    let mut out = vec![0xA5u8; few.len() * 32];
    let mut sides = 0;
    routed
        .try_hash_many_beside(&spec, few, 32, &mut out, &mut || sides += 1)
        .unwrap();
    assert_eq!((out.as_slice(), sides), (&want[..3 * 32], 1));
    if devices().is_ok_and(|d| !d.is_empty()) {
        return; // the rest is about a machine without a GPU
    }
    // Everything sent to the GPU: opening fails, as an error value, with
    // `side` run exactly once; behind the fallback the CPU hashes it.
    let forced = GpuEngine::open_on_demand(0).with_routing(false);
    let mut out = vec![0xA5u8; msgs.len() * 32];
    let mut sides = 0;
    let e = forced
        .try_hash_many_beside(&spec, &msgs, 32, &mut out, &mut || sides += 1)
        .unwrap_err();
    assert_eq!(sides, 1);
    assert!(
        e.message.starts_with("cannot open the GPU"),
        "{}",
        e.message
    );
    assert!(forced.hasher().is_err());
    let fb = Fallback::sticky(forced);
    let mut out = vec![0xA5u8; msgs.len() * 32];
    fb.hash_many(&spec, &msgs, 32, &mut out);
    assert!(out == want);
    assert!(fb.take_error().is_some());
}

/// The variants' facts are those of keccakx's modes, and the host-fed
/// modes on a routed engine give keccakx's digests at both rates (short
/// messages: the cost model keeps them on the CPU, GPU or not).
#[test]
fn tree_variants_match_keccakx_at_both_rates() {
    use keccakx::rfc9861::{Kt, KtFinalNode};
    use keccakx::sp800_185::{ParallelHash, ParallelHashOuter};
    use keccakx_gpu::{KtVariant, PhVariant};
    assert_eq!(
        (
            KtVariant::Kt128.rate(),
            KtVariant::Kt128.cv_len(),
            KtVariant::Kt128.leaf_spec()
        ),
        (168, 32, KtFinalNode::<168>::LEAF_SPEC)
    );
    assert_eq!(
        (
            KtVariant::Kt256.rate(),
            KtVariant::Kt256.cv_len(),
            KtVariant::Kt256.leaf_spec()
        ),
        (136, 64, KtFinalNode::<136>::LEAF_SPEC)
    );
    assert_eq!(
        (
            PhVariant::Ph128.rate(),
            PhVariant::Ph128.cv_len(),
            PhVariant::Ph128.leaf_spec()
        ),
        (168, 32, ParallelHashOuter::<168>::BLOCK_SPEC)
    );
    assert_eq!(
        (
            PhVariant::Ph256.rate(),
            PhVariant::Ph256.cv_len(),
            PhVariant::Ph256.leaf_spec()
        ),
        (136, 64, ParallelHashOuter::<136>::BLOCK_SPEC)
    );
    /// keccakx's KT at rate R.
    fn kt<const R: usize>(data: &[u8], c: &[u8], out: &mut [u8]) {
        let mut h = Kt::<R>::new(c);
        h.update(data);
        h.finalize_into(out)
    }
    /// keccakx's ParallelHash(XOF) at rate R, blocks of 1000 bytes.
    fn ph<const R: usize>(data: &[u8], c: &[u8], xof: bool, out: &mut [u8]) {
        let mut h = ParallelHash::<R>::new(1000, c).unwrap();
        h.update(data);
        if xof {
            h.finalize_xof().read(out)
        } else {
            h.finalize_into(out)
        }
    }
    let engine = GpuEngine::open_on_demand(0);
    let c = b"custom";
    for len in [0usize, 100, 3 * 8192 + 5] {
        let data: Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
        let (mut got, mut want) = ([0u8; 40], [0u8; 40]);
        for v in [KtVariant::Kt128, KtVariant::Kt256] {
            engine.kt(v, &data, c, &mut got).unwrap();
            keccakx::with_rate!(v.rate(), R => kt::<R>(&data, c, &mut want));
            assert_eq!(got, want, "{v:?} of {len} bytes");
        }
        for v in [PhVariant::Ph128, PhVariant::Ph256] {
            for xof in [false, true] {
                engine
                    .parallelhash(v, &data, 1000, c, xof, &mut got)
                    .unwrap();
                keccakx::with_rate!(v.rate(), R => ph::<R>(&data, c, xof, &mut want));
                assert_eq!(got, want, "{v:?} (xof {xof}) of {len} bytes");
            }
        }
    }
}
