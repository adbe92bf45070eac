//! CPU feature detection, done once and cached (the BLAKE3 `platform.rs` pattern).
//!
//! With the `std` feature the features are detected at run time with
//! `is_x86_feature_detected!`; without it only the features enabled at compile
//! time (`-C target-feature`/`target-cpu`) are used.

/// The x86 features that the SIMD back ends use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub sse41: bool,
    pub avx2: bool,
    pub avx512: bool,
    pub avx512_gfni_vbmi: bool,
}

#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
fn detect_now() -> Features {
    let avx512 =
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl");
    Features {
        sse41: std::is_x86_feature_detected!("sse4.1") && std::is_x86_feature_detected!("ssse3"),
        avx2: std::is_x86_feature_detected!("avx2"),
        avx512,
        avx512_gfni_vbmi: avx512
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi")
            && std::is_x86_feature_detected!("gfni"),
    }
}

#[cfg(all(not(feature = "std"), any(target_arch = "x86", target_arch = "x86_64")))]
fn detect_now() -> Features {
    let avx512 = cfg!(target_feature = "avx512f") && cfg!(target_feature = "avx512vl");
    Features {
        sse41: cfg!(target_feature = "sse4.1") && cfg!(target_feature = "ssse3"),
        avx2: cfg!(target_feature = "avx2"),
        avx512,
        avx512_gfni_vbmi: avx512
            && cfg!(target_feature = "avx512bw")
            && cfg!(target_feature = "avx512vbmi")
            && cfg!(target_feature = "gfni"),
    }
}

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
fn detect_now() -> Features {
    Features::default()
}

/// Detected features (cached after the first call).
pub fn features() -> Features {
    use core::sync::atomic::{AtomicU8, Ordering};
    // bit 7: initialised; bits 0..4: the features.
    static CACHE: AtomicU8 = AtomicU8::new(0);
    let c = CACHE.load(Ordering::Relaxed);
    if c & 0x80 != 0 {
        return Features {
            sse41: c & 1 != 0,
            avx2: c & 2 != 0,
            avx512: c & 4 != 0,
            avx512_gfni_vbmi: c & 8 != 0,
        };
    }
    let f = detect_now();
    let bits = 0x80
        | f.sse41 as u8
        | (f.avx2 as u8) << 1
        | (f.avx512 as u8) << 2
        | (f.avx512_gfni_vbmi as u8) << 3;
    CACHE.store(bits, Ordering::Relaxed);
    f
}

/// Environment override used by tests and benchmarks: `FINALISTS_SIMD=off|sse41|avx2|avx512`
/// caps the instruction sets the parallel implementations may use (never raises them).
pub fn capped() -> Features {
    #[cfg_attr(not(feature = "std"), allow(unused_mut))]
    let mut f = features();
    #[cfg(feature = "std")]
    if let Ok(v) = std::env::var("FINALISTS_SIMD") {
        match v.as_str() {
            "off" | "none" => f = Features::default(),
            "sse41" => {
                f.avx2 = false;
                f.avx512 = false;
                f.avx512_gfni_vbmi = false;
            }
            "avx2" => {
                f.avx512 = false;
                f.avx512_gfni_vbmi = false;
            }
            _ => {}
        }
    }
    f
}
