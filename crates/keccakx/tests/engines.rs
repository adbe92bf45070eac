//! Cross-engine tests: every engine (scalar, SSE2 ×2, AVX2 ×4, AVX-512 ×8,
//! and the multi-core split) gives the golden model's bytes at every lane
//! count and edge: lengths 0, rate−1, rate, rate+1, mixed lengths in one
//! batch, 12 and 24 rounds, all suffix shapes, long outputs; KT and
//! ParallelHash at chunk boundaries under each forced engine.

use std::sync::Mutex;

use keccakx::engine::{self, Engine, LaneSpec};
use keccakx::permutation::{self, Parallelism, State};
use keccakx::sponge::{golden_sponge, SpongeParams, Suffix};

/// Tests that change the global engine or thread setting run one at a time.
static GLOBAL: Mutex<()> = Mutex::new(());

/// xorshift64* with a fixed seed: reproducible "random" inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn engines() -> Vec<&'static dyn Engine> {
    let v: Vec<_> = engine::available().collect();
    assert!(v.iter().any(|e| e.name() == "scalar"));
    eprintln!(
        "engines under test: {:?}",
        v.iter().map(|e| e.name()).collect::<Vec<_>>()
    );
    v
}

fn golden(spec: &LaneSpec, msg: &[u8], out_len: usize) -> Vec<u8> {
    let suffix = Suffix::from_delimited(spec.delimited_suffix).unwrap();
    let p = SpongeParams::new(1600, spec.rate_bytes * 8, spec.rounds, suffix).unwrap();
    golden_sponge(&p, msg, msg.len() * 8, out_len * 8)
}

#[test]
fn multi_state_permutations_equal_golden() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for p in [
        Parallelism::X1,
        Parallelism::X2,
        Parallelism::X4,
        Parallelism::X8,
    ] {
        if !p.is_available() {
            eprintln!("{p:?} not available on this CPU: skipped");
            continue;
        }
        for rounds in [1, 2, 11, 12, 13, 23, 24] {
            for count in 1..=9 {
                let mut states: Vec<State> = (0..count)
                    .map(|_| core::array::from_fn(|_| rng.next()))
                    .collect();
                let mut want = states.clone();
                for s in want.iter_mut() {
                    permutation::keccak_p(s, 1600, rounds);
                }
                permutation::keccak_p1600_with(p, &mut states, rounds);
                assert_eq!(states, want, "{p:?} rounds {rounds} count {count}");
            }
        }
    }
}

/// Every engine on batches of mixed lengths around the rate, against the
/// golden bit-level sponge.
#[test]
fn engines_equal_golden_at_rate_edges() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let specs = [
        (136, 24, 0x06u8), // SHA3-256
        (168, 24, 0x1F),   // SHAKE128
        (72, 24, 0x01),    // Keccak-512
        (168, 12, 0x0B),   // KT128 leaf
        (136, 12, 0x07),   // KT256 single node
        (144, 24, 0x04),   // cSHAKE-style suffix, SHA3-224 rate
        (104, 12, 0xFF),   // seven suffix bits: a 2-block tail at rate-1
        (8, 24, 0x80),     // tiny rate, seven zero suffix bits
        (136, 11, 0x06),   // odd round counts: the generic round on
        (168, 1, 0x1F),    // every lane type (even counts take the
        (72, 23, 0x01),    // generated assembly where there is one)
    ];
    let engines = engines();
    for (rate, rounds, d) in specs {
        let spec = LaneSpec::new(rate, rounds, d).unwrap();
        let mut lens = vec![
            0,
            1,
            rate - 1,
            rate,
            rate + 1,
            2 * rate - 1,
            2 * rate,
            2 * rate + 1,
        ];
        lens.extend((0..6).map(|_| rng.below(4 * rate)));
        let msgs: Vec<Vec<u8>> = lens.iter().map(|&l| rng.bytes(l)).collect();
        for out_len in [1, 32, rate, rate + 1, 2 * rate + 5] {
            let want: Vec<u8> = msgs
                .iter()
                .flat_map(|m| golden(&spec, m, out_len))
                .collect();
            for e in &engines {
                // Every batch size from 1 to all, so every lane count and
                // every "lanes run dry" pattern is seen.
                for count in 1..=msgs.len() {
                    let refs: Vec<&[u8]> = msgs[..count].iter().map(|m| &m[..]).collect();
                    let mut out = vec![0u8; count * out_len];
                    e.hash_many(&spec, &refs, out_len, &mut out);
                    assert_eq!(
                        out,
                        want[..count * out_len],
                        "engine {} rate {rate} rounds {rounds} suffix {d:#04x} out {out_len} count {count}",
                        e.name()
                    );
                }
            }
        }
    }
}

/// Batches where every lane has many whole blocks (the multi-lane engines'
/// run of blocks; on AVX-512 at rates 136 and 168 with even round counts
/// the register-resident absorb loop of asm_avx512.rs): messages at odd
/// addresses inside one buffer, of different lengths, against the golden
/// model, at the rates that have such a loop and one that has not.
#[test]
fn long_runs_in_every_lane_equal_golden() {
    let mut rng = Rng(0x0DDB_A11C_0FFE_E123);
    let engines = engines();
    for (rate, rounds, d) in [
        (168, 12, 0x0Bu8), // KT128 leaf
        (168, 24, 0x1F),   // SHAKE128
        (136, 12, 0x07),   // KT256 leaf
        (136, 24, 0x06),   // SHA3-256
        (144, 24, 0x06),   // SHA3-224: no dedicated loop
        (168, 2, 0x1F),    // the fewest even rounds
    ] {
        let spec = LaneSpec::new(rate, rounds, d).unwrap();
        let buf = rng.bytes(40 * rate + 64);
        for count in [8, 9, 13, 16, 17] {
            let msgs: Vec<&[u8]> = (0..count)
                .map(|_| {
                    let len = rate * (2 + rng.below(20)) + rng.below(rate);
                    let at = rng.below(buf.len() - len);
                    &buf[at..at + len]
                })
                .collect();
            let want: Vec<u8> = msgs.iter().flat_map(|m| golden(&spec, m, 32)).collect();
            for e in &engines {
                let mut out = vec![0u8; count * 32];
                e.hash_many(&spec, &msgs, 32, &mut out);
                assert_eq!(
                    out,
                    want,
                    "engine {} rate {rate} rounds {rounds} count {count}",
                    e.name()
                );
            }
        }
    }
}

/// Random batches (random lengths, random specs, random output lengths):
/// every engine against the scalar engine, which is checked against the
/// golden model above and on its own in the core tests.
#[test]
fn engines_equal_scalar_on_random_batches() {
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    let engines = engines();
    for _ in 0..60 {
        let rate = 8 * (1 + rng.below(24));
        let rounds = [12, 24, 1 + rng.below(24)][rng.below(3)];
        let d = 1 + rng.below(255) as u8;
        let spec = LaneSpec::new(rate, rounds, d).unwrap();
        let count = 1 + rng.below(40);
        let msgs: Vec<Vec<u8>> = (0..count)
            .map(|_| {
                let l = rng.below(5 * rate);
                rng.bytes(l)
            })
            .collect();
        let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
        let out_len = 1 + rng.below(3 * rate);
        let mut want = vec![0u8; count * out_len];
        engine::Scalar.hash_many(&spec, &refs, out_len, &mut want);
        for e in &engines {
            let mut out = vec![0u8; count * out_len];
            e.hash_many(&spec, &refs, out_len, &mut out);
            assert_eq!(
                out,
                want,
                "engine {} rate {rate} rounds {rounds} suffix {d:#04x}",
                e.name()
            );
        }
        // The scalar engine itself against the golden model, on a sample.
        let i = rng.below(count);
        assert_eq!(
            &want[i * out_len..][..out_len],
            &golden(&spec, &msgs[i], out_len)[..]
        );
    }
}

/// A rate that is not a whole number of words falls back to scalar inside
/// the SIMD engines; still the same bytes.
#[test]
fn odd_byte_rate() {
    let spec = LaneSpec::new(125, 24, 0x01).unwrap();
    let msgs: Vec<Vec<u8>> = (0..11).map(|i| vec![i as u8; i * 60]).collect();
    let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
    for e in engines() {
        let mut out = vec![0u8; 11 * 40];
        e.hash_many(&spec, &refs, 40, &mut out);
        for (i, m) in msgs.iter().enumerate() {
            assert_eq!(
                &out[i * 40..][..40],
                &golden(&spec, m, 40)[..],
                "engine {}",
                e.name()
            );
        }
    }
}

/// Multi-core split: many inputs, sizes big enough to cross the threshold,
/// each thread limit, equal to one scalar pass.
#[test]
fn threads_split_equals_scalar() {
    let _g = GLOBAL.lock().unwrap_or_else(|p| p.into_inner());
    let mut rng = Rng(7);
    let spec = LaneSpec::new(168, 12, 0x0B).unwrap();
    // A few large inputs of random lengths (pieces of a few messages), and
    // many small ones (eight pieces per thread, cut on lane-group bounds).
    let large: Vec<Vec<u8>> = (0..37)
        .map(|_| {
            let l = rng.below(20000);
            rng.bytes(l)
        })
        .collect();
    let small: Vec<Vec<u8>> = (0..3001)
        .map(|_| {
            let l = rng.below(300);
            rng.bytes(l)
        })
        .collect();
    for msgs in [large, small] {
        let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
        let mut want = vec![0u8; refs.len() * 32];
        engine::Scalar.hash_many(&spec, &refs, 32, &mut want);
        for t in [0, 1, 2, 3, 8] {
            engine::set_threads(t);
            for e in engines() {
                let mut out = vec![0u8; refs.len() * 32];
                engine::Threads::new(e).hash_many(&spec, &refs, 32, &mut out);
                assert_eq!(out, want, "threads {t} engine {}", e.name());
            }
        }
    }
    engine::set_threads(0);
}

/// Calls long enough to start one more helper than threads (8 MiB of work
/// and up: threads.rs, `HEDGE_BYTES`) equal the scalar engine on one
/// thread: KT128 over two engine calls (past 32 MiB of leaves) and a batch
/// of 64-byte messages, under every engine and several thread counts.
#[test]
fn long_calls_with_an_extra_helper_equal_scalar() {
    let _g = GLOBAL.lock().unwrap_or_else(|p| p.into_inner());
    let mut rng = Rng(0xB16);
    let data = rng.bytes((40 << 20) + 8192 * 3 + 1);
    let spec = LaneSpec::new(136, 24, 0x06).unwrap();
    let msgs: Vec<&[u8]> = data[..12 << 20].chunks(64).collect();
    let compute = || {
        let mut h = keccakx::rfc9861::Kt128::new(b"");
        h.update(&data);
        let mut batch = vec![0u8; msgs.len() * 32];
        engine::hash_many(&spec, &msgs, 32, &mut batch);
        (
            h.finalize_vec(32),
            kt128(&data[..(9 << 20) + 5], b"c"),
            batch,
        )
    };
    engine::set_engine("scalar").unwrap();
    engine::set_threads(1);
    let want = compute();
    for e in engines() {
        engine::set_engine(e.name()).unwrap();
        for t in [0, 2, 3] {
            engine::set_threads(t);
            assert!(compute() == want, "engine {} threads {t}", e.name());
        }
    }
    engine::set_engine("auto").unwrap();
    engine::set_threads(0);
}

fn kt128(data: &[u8], custom: &[u8]) -> Vec<u8> {
    let mut h = keccakx::rfc9861::Kt128::new(custom);
    h.update(data);
    h.finalize_vec(64)
}

fn kt256(data: &[u8], custom: &[u8]) -> Vec<u8> {
    let mut h = keccakx::rfc9861::Kt256::new(custom);
    // Uneven pieces: the chunker's buffering path too.
    for piece in data.chunks(5000) {
        h.update(piece);
    }
    h.finalize_vec(64)
}

fn ph128(data: &[u8], b: usize) -> Vec<u8> {
    let mut h = keccakx::sp800_185::ParallelHash128::new(b, b"cust").unwrap();
    h.update(data);
    h.finalize_vec(32)
}

fn ph256(data: &[u8], b: usize) -> Vec<u8> {
    let mut h = keccakx::sp800_185::ParallelHash256::new(b, b"").unwrap();
    for piece in data.chunks(777) {
        h.update(piece);
    }
    h.finalize_vec(64)
}

/// KT128/KT256 and ParallelHash under every forced engine and thread
/// count equal the scalar engine on one thread, at chunk and leaf edges.
#[test]
fn tree_modes_equal_under_every_engine() {
    let _g = GLOBAL.lock().unwrap_or_else(|p| p.into_inner());
    let mut rng = Rng(0x5EED);
    // Past 1 MiB too: the chunker's batch buffer fills when fed in pieces;
    // up to 4 MiB + 3 leaves: a call cut into pieces on every thread.
    let data = rng.bytes((4 << 20) + 8192 * 3 + 1);
    let kt_lens = [
        0,
        1,
        8191,
        8192,
        8193,
        8192 * 2 - 1,
        8192 * 2,
        8192 * 2 + 1,
        // S_0 and 2..=8 whole chunks in one update: the first chunk and the
        // leaves side by side in SIMD lanes (every lane count of each engine).
        8192 * 3,
        8192 * 4 + 5,
        8192 * 5 - 1,
        8192 * 6 + 8191,
        8192 * 7 + 168,
        8192 * 8 - 1,
        8192 * 8,
        8192 * 8 + 1,
        8192 * 9 + 3,
        8192 * 21 + 100,
        8192 + 64 * 1024 - 1,
        8192 + 64 * 1024,
        (1 << 20) + 8192 * 3 + 1,
        (4 << 20) + 8192 - 1,
        (4 << 20) + 8192,
        (4 << 20) + 8192 * 3 + 1,
    ];
    let ph_cases = [
        (1usize, 300usize),
        (7, 1000),
        (136, 136 * 9 + 1),
        (168, 168 * 17),
        (8192, 8192 * 9 + 1),
        (8192, 8191),
    ];
    let compute = || {
        let mut v = Vec::new();
        for &l in &kt_lens {
            v.push(kt128(&data[..l], b""));
            v.push(kt128(&data[..l], b"custom"));
            v.push(kt256(&data[..l], b"c"));
            let mut h = keccakx::rfc9861::Kt256::new(b"");
            h.update(&data[..l]);
            v.push(h.finalize_vec(64));
            // S_0 partly absorbed before the big update.
            let mut h = keccakx::rfc9861::Kt128::new(b"");
            h.update(&data[..l.min(100)]);
            h.update(&data[l.min(100)..l]);
            v.push(h.finalize_vec(32));
        }
        for &(b, l) in &ph_cases {
            v.push(ph128(&data[..l], b));
            v.push(ph256(&data[..l], b));
        }
        v
    };
    engine::set_engine("scalar").unwrap();
    engine::set_threads(1);
    let want = compute();
    for e in engines() {
        engine::set_engine(e.name()).unwrap();
        for t in [1, 0] {
            engine::set_threads(t);
            assert!(compute() == want, "engine {} threads {t}", e.name());
        }
    }
    engine::set_engine("auto").unwrap();
    engine::set_threads(0);
}

#[test]
fn selection_by_name() {
    assert_eq!(engine::by_name("scalar").unwrap().name(), "scalar");
    assert!(engine::by_name("no-such-engine").is_err());
    assert!(engine::by_name("auto").unwrap().is_available());
    // Best first: the first available engine is what auto picks.
    assert_eq!(
        engine::by_name("auto").unwrap().name(),
        engine::available().next().unwrap().name()
    );
}

/// `batch::hash_many` for every function of the registry equals hashing
/// each message with its own `registry::Hasher`, lanes and threads included.
#[test]
fn batch_equals_one_at_a_time_for_every_function() {
    use keccakx::registry::{self, Hasher, Params};
    let mut rng = Rng(0xBA7C4);
    // Enough bytes in total to cross the multi-core threshold.
    let msgs: Vec<Vec<u8>> = (0..29)
        .map(|i| {
            let l = if i % 7 == 0 {
                9000 + rng.below(9000)
            } else {
                rng.below(700)
            };
            rng.bytes(l)
        })
        .collect();
    let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
    for info in registry::list() {
        let mut p = Params::default();
        if info.params.contains(&registry::Param::Key) {
            p.key = Some(b"batch key".to_vec());
        }
        if info.params.contains(&registry::Param::Customization) {
            p.customization = b"cust".to_vec();
        }
        if info.params.contains(&registry::Param::BlockSize) {
            p.block_size = Some(100);
        }
        if info.name == "keccak" {
            p.rate = Some(1344);
            p.capacity = Some(256);
            p.rounds = Some(12);
            p.suffix = Some(0x0B);
        }
        let out_len = if info.variable_len {
            77
        } else {
            info.default_len
        };
        let got = keccakx::batch::hash_many(info.name, &p, &refs, out_len).unwrap();
        let mut one = p.clone();
        if info.variable_len {
            one.length = Some(out_len);
        }
        for (i, m) in msgs.iter().enumerate() {
            let mut h = Hasher::new(info.name, &one).unwrap();
            h.update(m);
            assert_eq!(
                &got[i * out_len..][..out_len],
                &h.finalize()[..],
                "{} message {i}",
                info.name
            );
        }
    }
    // Raw Keccak[r, c] off the lanes (non-1600 width) goes message by message.
    let p = Params {
        width: Some(800),
        rate: Some(640),
        ..Default::default()
    };
    let got = keccakx::batch::hash_many("keccak", &p, &refs[..3], 20).unwrap();
    let mut h = Hasher::new(
        "keccak",
        &Params {
            length: Some(20),
            ..p.clone()
        },
    )
    .unwrap();
    h.update(refs[1]);
    assert_eq!(&got[20..40], &h.finalize()[..]);
    // Into a caller's buffer: the same bytes; a wrong buffer size is an error.
    let mut buf = vec![0u8; refs.len() * 32];
    keccakx::batch::hash_many_into("sha3-256", &Params::default(), &refs, 32, &mut buf).unwrap();
    assert_eq!(
        buf,
        keccakx::batch::hash_many("sha3-256", &Params::default(), &refs, 32).unwrap()
    );
    assert!(keccakx::batch::hash_many_into(
        "sha3-256",
        &Params::default(),
        &refs,
        32,
        &mut buf[1..]
    )
    .is_err());
    // Errors, not panics.
    assert!(keccakx::batch::hash_many("nope", &Params::default(), &refs, 32).is_err());
    assert!(keccakx::batch::hash_many("sha3-256", &Params::default(), &refs, 31).is_err());
    assert!(keccakx::batch::hash_many("kmac128", &Params::default(), &refs, 32).is_err());
    assert!(
        keccakx::batch::hash_many("sha3-256", &Params::default(), &[], 32)
            .unwrap()
            .is_empty()
    );
}

/// Every single-state implementation (portable, BMI, AVX-512VL, and the
/// original reference code) against the golden model, every round count.
#[test]
fn single_state_permutations_equal_golden() {
    use keccakx::permutation::{keccak_p1600_using, Single};
    let mut rng = Rng(0x51_4E_61_E5);
    for s in Single::ALL {
        if !s.is_available() {
            eprintln!("single/{} not available on this CPU: skipped", s.name());
            continue;
        }
        for rounds in 1..=24 {
            let mut a: State = core::array::from_fn(|_| rng.next());
            let mut want = a;
            permutation::keccak_p(&mut want, 1600, rounds);
            keccak_p1600_using(s, &mut a, rounds);
            assert_eq!(a, want, "single/{} rounds {rounds}", s.name());
        }
    }
    // The dispatcher's choice as well.
    let mut a: State = core::array::from_fn(|i| i as u64 * 0x0101_0101_0101_0101);
    let mut want = a;
    permutation::keccak_p(&mut want, 1600, 24);
    permutation::keccak_f1600(&mut a);
    assert_eq!(
        a,
        want,
        "dispatched single/{}",
        permutation::best_single().name()
    );
}
