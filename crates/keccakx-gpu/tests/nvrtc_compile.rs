//! Every kernel module compiles with NVRTC for sm_80 and sm_90 (no GPU
//! needed). NVRTC comes from KECCAKX_NVRTC_LIB (`make test` installs the
//! `nvidia-cuda-nvrtc` wheel and sets it) or the usual places; without it the
//! test prints why it skipped, unless KECCAKX_REQUIRE_NVRTC=1 (set by
//! `make test-gpu`), which turns a missing NVRTC into a failure.

use keccakx_gpu::kernels::{self, Module};
use keccakx_gpu::nvrtc::{Nvrtc, Target};

/// Say why a test skipped, past the test harness's output capture.
fn skip(why: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "*** SKIPPED: {why}");
}

fn nvrtc() -> Option<&'static Nvrtc> {
    match Nvrtc::get() {
        Ok(n) => Some(n),
        Err(e) => {
            if std::env::var("KECCAKX_REQUIRE_NVRTC").is_ok_and(|v| v == "1") {
                panic!("KECCAKX_REQUIRE_NVRTC=1 but NVRTC is not available: {e}");
            }
            skip(format!(
                "kernel compile test: {e}\n*** (`make test-gpu` installs NVRTC and runs it)"
            ));
            None
        }
    }
}

fn check(target: Target) {
    let Some(nv) = nvrtc() else { return };
    let (maj, min) = nv.version();
    for &m in Module::ALL {
        let t0 = std::time::Instant::now();
        let c = kernels::compile(nv, m, target).unwrap_or_else(|e| panic!("{e}"));
        assert!(!c.image.is_empty(), "{}: empty image", m.name());
        for e in m.entry_points() {
            let found = c.image.windows(e.len()).any(|w| w == e.as_bytes());
            assert!(
                found,
                "{}: entry point {e} missing from the {} image",
                m.name(),
                target.arch_flag()
            );
        }
        if !c.log.is_empty() {
            eprintln!(
                "{} {}: compiler log:\n{}",
                m.file(),
                target.arch_flag(),
                c.log
            );
        }
        eprintln!(
            "compiled {} ({}) for {} with NVRTC {maj}.{min} ({}): {} bytes in {:.1} s",
            m.name(),
            m.file(),
            target.arch_flag(),
            nv.path(),
            c.image.len(),
            t0.elapsed().as_secs_f64()
        );
    }
}

#[test]
fn every_kernel_compiles_for_sm80() {
    check(Target::Cubin(8, 0));
}

#[test]
fn every_kernel_compiles_for_sm90() {
    check(Target::Cubin(9, 0));
}

#[test]
fn nvrtc_knows_the_architectures_we_target() {
    let Some(nv) = nvrtc() else { return };
    let archs = nv.supported_archs();
    eprintln!("NVRTC {:?} supports sm_{archs:?}", nv.version());
    assert!(
        archs.contains(&80) && archs.contains(&90),
        "NVRTC lacks sm_80/sm_90: {archs:?}"
    );
}

#[test]
fn a_broken_kernel_is_a_compile_error_with_the_log() {
    let Some(nv) = nvrtc() else { return };
    let bad = "extern \"C\" __global__ void k(int* p) { p[0] = undefined_name; }";
    match nv.compile(bad, "bad.cu", &[], &[], Target::Cubin(8, 0)) {
        Err(keccakx_gpu::GpuError::Compile(log)) => {
            assert!(log.contains("undefined_name"), "{log}")
        }
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("a broken kernel compiled"),
    }
}
