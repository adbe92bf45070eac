//! Forcing an engine below AVX-512 also keeps the single-state permutation
//! off AVX-512 (its own test binary: it changes process-wide selection).

use keccakx::engine;
use keccakx::fips202::Sha3_256;
use keccakx::permutation::{best_single as best, Single};

fn sha3(data: &[u8]) -> Vec<u8> {
    let mut h = Sha3_256::new();
    h.update(data);
    h.finalize().to_vec()
}

#[test]
fn forced_engine_below_avx512_keeps_sequential_functions_off_avx512() {
    let data: Vec<u8> = (0..100_000u32).map(|i| (i * 7 + i / 251) as u8).collect();
    let want = sha3(&data);
    let has_avx512 = Single::Avx512.is_available();
    for name in ["avx2", "sse2", "scalar"] {
        if engine::set_engine(name).is_err() {
            continue; // not on this CPU
        }
        let s = best();
        assert!(
            !matches!(s, Single::Avx512 | Single::Avx512Rows),
            "--engine {name} left the single state on {}",
            s.name()
        );
        assert_eq!(sha3(&data), want, "--engine {name}");
    }
    engine::set_engine("auto").unwrap();
    if has_avx512 && engine::current().name() == "avx512" {
        assert_eq!(best(), Single::Avx512, "auto gives AVX-512 back");
    }
    assert_eq!(sha3(&data), want);
}
