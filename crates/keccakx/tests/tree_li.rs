//! Tree mode LI: the Rust code against the independent Python reference's
//! vectors (tests/vectors/tree-li/vectors.txt, written by tests/tree_li_ref.py),
//! incremental == one-shot on random splits, and parameter errors as values.

use keccakx::engine;
use keccakx::tree_li::{tree_li, tree_li_with_engine, TreeLi, TreeLiParams};
use keccakx::Error;

fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len() & 1 == 0, "odd hex length");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// xorshift64*: deterministic randomness without a dev-dependency.
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
}

struct Vector {
    line: usize,
    params: TreeLiParams,
    mlen: usize,
    out: Vec<u8>,
}

fn vectors() -> Vec<Vector> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/tree-li/vectors.txt"
    );
    let text = std::fs::read_to_string(path).expect("read tests/vectors/tree-li/vectors.txt");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let field = |k: &str| -> &str {
            line.split_whitespace()
                .find_map(|kv| kv.strip_prefix(k).and_then(|v| v.strip_prefix('=')))
                .unwrap_or_else(|| panic!("line {}: no field {k}", i + 1))
        };
        let num = |k: &str| -> usize { field(k).parse().expect("number") };
        let rate = num("R");
        let p = field("P");
        let params = TreeLiParams {
            degree: num("D"),
            height: num("H"),
            block_size: Some(num("B")),
            rate_bits: rate * 8,
            capacity_bits: 1600 - rate * 8,
            prefix: if p == "-" { Vec::new() } else { unhex(p) },
        };
        let want = unhex(field("OUT"));
        assert_eq!(want.len(), num("OUTLEN"), "line {}", i + 1);
        out.push(Vector {
            line: i + 1,
            params,
            mlen: num("MLEN"),
            out: want,
        });
    }
    out
}

#[test]
fn vectors_cover_the_brief() {
    let v = vectors();
    assert!(
        v.len() >= 200,
        "expected the full vector file, got {} vectors",
        v.len()
    );
    for h in 0..=4 {
        assert!(
            v.iter().any(|x| x.params.height == h),
            "no vector with H = {h}"
        );
    }
    for d in [1, 2, 3, 4, 8] {
        assert!(
            v.iter()
                .any(|x| x.params.degree == d && x.params.height > 0),
            "no vector with D = {d}"
        );
    }
    for r in [1088, 1024] {
        assert!(
            v.iter().any(|x| x.params.rate_bits == r),
            "no vector with r = {r}"
        );
    }
    assert!(v.iter().any(|x| !x.params.prefix.is_empty()));
    assert!(v.iter().any(|x| x.params.prefix.len() == 255));
    assert!(v.iter().any(|x| x.out.len() == 32) && v.iter().any(|x| x.out.len() == 100));
}

#[test]
fn one_shot_matches_reference_vectors() {
    for v in vectors() {
        let msg = pattern(v.mlen);
        let mut got = vec![0u8; v.out.len()];
        tree_li(&v.params, &msg, &mut got).unwrap();
        assert_eq!(
            got, v.out,
            "one-shot, vector on line {}: {:?} MLEN={}",
            v.line, v.params, v.mlen
        );
    }
}

#[test]
fn every_engine_matches_reference_vectors() {
    let engines: Vec<_> = engine::available().collect();
    assert!(engines.iter().any(|e| e.name() == "scalar"));
    for e in engines {
        for v in vectors() {
            let msg = pattern(v.mlen);
            let mut got = vec![0u8; v.out.len()];
            tree_li_with_engine(e, &v.params, &msg, &mut got).unwrap();
            assert_eq!(got, v.out, "engine {}, vector on line {}", e.name(), v.line);
        }
    }
}

#[test]
fn incremental_matches_reference_vectors() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for v in vectors() {
        let msg = pattern(v.mlen);
        // Whole message at once, then random pieces, then byte by byte for short ones.
        let mut h = TreeLi::new(v.params.clone()).unwrap();
        h.update(&msg);
        assert_eq!(
            h.finalize_vec(v.out.len()),
            v.out,
            "incremental (one piece), line {}",
            v.line
        );

        let mut h = TreeLi::with_params(&v.params).unwrap();
        let mut rest = &msg[..];
        while !rest.is_empty() {
            let take = rng.below(rest.len().min(3 * v.params.block_bytes() + 7) + 1);
            h.update(&rest[..take]);
            rest = &rest[take..];
        }
        // Read the output in uneven pieces: an XOF stream.
        let mut reader = h.finalize_xof();
        let mut got = vec![0u8; v.out.len()];
        let split = rng.below(got.len() + 1);
        reader.read(&mut got[..split]);
        reader.read(&mut got[split..]);
        assert_eq!(got, v.out, "incremental (random pieces), line {}", v.line);

        if v.mlen <= 600 {
            let mut h = TreeLi::with_params(&v.params).unwrap();
            for b in &msg {
                h.update(core::slice::from_ref(b));
            }
            let mut got = vec![0u8; v.out.len()];
            h.finalize_into(&mut got);
            assert_eq!(got, v.out, "incremental (bytewise), line {}", v.line);
        }
    }
}

fn random_params(rng: &mut Rng) -> TreeLiParams {
    let rate_bits = [1088, 1024, 1344, 576, 8 * (1 + rng.below(199))][rng.below(5)];
    loop {
        let wide = rng.below(4) == 0;
        let degree = 1 + rng.below(if wide { 255 } else { 9 });
        let height = rng.below(6);
        // Empty half the time, else 1..=255 bytes.
        let plen = if rng.below(2) == 0 {
            0
        } else {
            1 + rng.below(255)
        };
        let prefix: Vec<u8> = (0..plen).map(|_| rng.next() as u8).collect();
        let p = TreeLiParams {
            degree,
            height,
            block_size: if rng.below(3) == 0 {
                None
            } else {
                Some(1 + rng.below(300))
            },
            rate_bits,
            capacity_bits: 1600 - rate_bits,
            prefix,
        };
        if p.leaves().is_some_and(|l| l <= 1024) {
            return p;
        }
    }
}

#[test]
fn incremental_equals_one_shot_random() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for round in 0..120 {
        let p = random_params(&mut rng);
        let l = p.leaves().unwrap();
        let b = p.block_bytes();
        let len = match rng.below(4) {
            0 => rng.below(b * 2 + 2),
            1 => (l * b)
                .saturating_add(rng.below(5))
                .saturating_sub(2)
                .min(1 << 18),
            _ => rng.below((3 * l * b + 1).min(1 << 18)),
        };
        let msg: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let out_len = 1 + rng.below(400);
        let mut want = vec![0u8; out_len];
        tree_li(&p, &msg, &mut want).unwrap();

        let mut h = TreeLi::new(p.clone()).unwrap();
        let mut rest = &msg[..];
        while !rest.is_empty() {
            let take = rng.below(rest.len() + 1).min(1 + rng.below(2 * b + 300));
            h.update(&rest[..take]);
            rest = &rest[take..];
        }
        // A clone taken before the end finishes to the same digest.
        let twin = h.clone();
        assert_eq!(
            h.finalize_vec(out_len),
            want,
            "round {round}: {p:?} len={len}"
        );
        assert_eq!(twin.finalize_vec(out_len), want, "round {round} (clone)");
    }
}

#[test]
fn clone_forks_the_stream() {
    let p = TreeLiParams {
        height: 2,
        block_size: Some(10),
        ..Default::default()
    };
    let msg = pattern(1000);
    let mut a = TreeLi::new(p.clone()).unwrap();
    a.update(&msg[..333]);
    let mut b = a.clone();
    a.update(&msg[333..]);
    b.update(b"something else");
    let mut whole = vec![0u8; 48];
    tree_li(&p, &msg, &mut whole).unwrap();
    let mut other = pattern(333);
    other.extend_from_slice(b"something else");
    let mut forked = vec![0u8; 48];
    tree_li(&p, &other, &mut forked).unwrap();
    assert_eq!(a.finalize_vec(48), whole);
    assert_eq!(b.finalize_vec(48), forked);
    assert_ne!(whole, forked);
}

#[test]
fn defaults_and_paper_settings() {
    let d = TreeLiParams::default();
    assert_eq!(
        (
            d.degree,
            d.height,
            d.block_bytes(),
            d.rate_bits,
            d.capacity_bits
        ),
        (4, 4, 136, 1088, 512)
    );
    assert_eq!(d.cv_len(), 64);
    assert_eq!(d.leaves(), Some(256));
    let p = TreeLiParams::paper(3);
    assert_eq!(
        (p.degree, p.height, p.block_bytes(), p.rate_bits, p.cv_len()),
        (4, 3, 128, 1024, 72)
    );
    // Default block size follows the rate; Some(rate) is the same tree.
    let explicit = TreeLiParams {
        block_size: Some(128),
        ..TreeLiParams::paper(3)
    };
    let msg = pattern(70_000);
    let (mut x, mut y) = ([0u8; 32], [0u8; 32]);
    tree_li(&p, &msg, &mut x).unwrap();
    tree_li(&explicit, &msg, &mut y).unwrap();
    assert_eq!(x, y);
}

#[test]
fn wide_tree_short_messages_agree() {
    // 65536 leaves: most empty; the one-shot and incremental paths share only the sponge.
    for p in [
        TreeLiParams {
            degree: 4,
            height: 8,
            block_size: Some(3),
            ..Default::default()
        },
        TreeLiParams {
            degree: 2,
            height: 16,
            block_size: Some(1),
            ..TreeLiParams::paper(0)
        },
        TreeLiParams {
            degree: 255,
            height: 2,
            block_size: Some(1000),
            ..Default::default()
        },
    ] {
        for len in [0usize, 1, 4, 1000, 70_000] {
            let msg = pattern(len);
            let mut want = [0u8; 40];
            tree_li(&p, &msg, &mut want).unwrap();
            let mut h = TreeLi::new(p.clone()).unwrap();
            for piece in msg.chunks(777) {
                h.update(piece);
            }
            assert_eq!(h.finalize_vec(40), want, "{p:?} len={len}");
        }
    }
}

fn assert_rejected(p: TreeLiParams, what: &str) {
    let err = p.validate().expect_err(what);
    assert!(
        matches!(
            err,
            Error::InvalidParameter(_) | Error::OutOfRange { .. } | Error::Sum { .. }
        ),
        "{what}: {err:?}"
    );
    assert!(err.to_string().contains("tree-LI"), "{what}: message {err}");
    assert!(
        TreeLi::new(p.clone()).is_err(),
        "{what}: TreeLi::new accepted it"
    );
    assert!(
        tree_li(&p, b"abc", &mut [0u8; 32]).is_err(),
        "{what}: tree_li accepted it"
    );
    assert!(p.header().is_err(), "{what}: header accepted it");
}

#[test]
fn invalid_parameters_are_errors() {
    let d = TreeLiParams::default;
    assert_rejected(TreeLiParams { degree: 0, ..d() }, "D = 0");
    assert_rejected(TreeLiParams { degree: 256, ..d() }, "D = 256");
    assert_rejected(
        TreeLiParams {
            degree: usize::MAX,
            ..d()
        },
        "D = usize::MAX",
    );
    assert_rejected(
        TreeLiParams {
            height: 17,
            degree: 1,
            ..d()
        },
        "H = 17",
    );
    assert_rejected(
        TreeLiParams {
            height: usize::MAX,
            ..d()
        },
        "H = usize::MAX",
    );
    assert_rejected(
        TreeLiParams {
            degree: 4,
            height: 9,
            ..d()
        },
        "4^9 leaves",
    );
    assert_rejected(
        TreeLiParams {
            degree: 255,
            height: 16,
            ..d()
        },
        "255^16 leaves (overflow)",
    );
    assert_rejected(
        TreeLiParams {
            degree: 3,
            height: 11,
            ..d()
        },
        "3^11 leaves",
    );
    assert_rejected(
        TreeLiParams {
            block_size: Some(0),
            ..d()
        },
        "B = 0",
    );
    assert_rejected(
        TreeLiParams {
            block_size: Some(u32::MAX as usize + 1),
            ..d()
        },
        "B = 2^32",
    );
    assert_rejected(
        TreeLiParams {
            prefix: vec![0; 256],
            ..d()
        },
        "|P| = 256",
    );
    assert_rejected(
        TreeLiParams {
            rate_bits: 1000,
            capacity_bits: 512,
            ..d()
        },
        "r + c != 1600",
    );
    assert_rejected(
        TreeLiParams {
            rate_bits: 1087,
            capacity_bits: 513,
            ..d()
        },
        "r not byte-aligned",
    );
    assert_rejected(
        TreeLiParams {
            rate_bits: 0,
            capacity_bits: 1600,
            ..d()
        },
        "r = 0",
    );
    assert_rejected(
        TreeLiParams {
            rate_bits: 1600,
            capacity_bits: 0,
            ..d()
        },
        "c = 0",
    );
    assert_rejected(
        TreeLiParams {
            rate_bits: usize::MAX,
            capacity_bits: 1601,
            ..d()
        },
        "r + c overflow",
    );
    // The edges that are valid.
    for ok in [
        TreeLiParams {
            degree: 255,
            height: 2,
            ..d()
        },
        TreeLiParams {
            degree: 1,
            height: 16,
            ..d()
        },
        TreeLiParams {
            degree: 2,
            height: 16,
            ..d()
        },
        TreeLiParams {
            degree: 4,
            height: 8,
            ..d()
        },
        TreeLiParams {
            block_size: Some(u32::MAX as usize),
            ..d()
        },
        TreeLiParams {
            block_size: Some(1),
            ..d()
        },
        TreeLiParams {
            prefix: vec![0xAA; 255],
            ..d()
        },
        TreeLiParams {
            rate_bits: 8,
            capacity_bits: 1592,
            ..d()
        },
        TreeLiParams {
            rate_bits: 1592,
            capacity_bits: 8,
            ..d()
        },
        TreeLiParams {
            height: 0,
            degree: 1,
            ..d()
        },
    ] {
        ok.validate()
            .unwrap_or_else(|e| panic!("{ok:?} rejected: {e}"));
        let mut out = [0u8; 16];
        tree_li(&ok, b"edge", &mut out).unwrap();
        let mut h = TreeLi::new(ok.clone()).unwrap();
        h.update(b"edge");
        assert_eq!(h.finalize_vec(16), out, "{ok:?}");
    }
}

#[test]
fn height_zero_is_one_node_over_the_message() {
    // H = 0 ignores D and B but binds P and the rate, and differs from SHA3-256.
    let msg = pattern(1000);
    let base = TreeLiParams {
        height: 0,
        ..Default::default()
    };
    let mut a = [0u8; 32];
    tree_li(&base, &msg, &mut a).unwrap();
    for other in [
        TreeLiParams {
            degree: 9,
            block_size: Some(5),
            ..base.clone()
        },
        TreeLiParams {
            degree: 1,
            ..base.clone()
        },
    ] {
        let mut b = [0u8; 32];
        tree_li(&other, &msg, &mut b).unwrap();
        assert_eq!(a, b);
    }
    for other in [
        TreeLiParams {
            prefix: b"k".to_vec(),
            ..base.clone()
        },
        TreeLiParams {
            rate_bits: 1024,
            capacity_bits: 576,
            ..base.clone()
        },
        TreeLiParams {
            height: 1,
            degree: 1,
            ..base.clone()
        },
    ] {
        let mut b = [0u8; 32];
        tree_li(&other, &msg, &mut b).unwrap();
        assert_ne!(a, b, "{other:?}");
    }
    assert_ne!(a, keccakx::fips202::Sha3_256::digest(&msg));
}

/// Messages larger than one gather batch of the one-shot path (8 MiB): many
/// small leaves (several batches), and few large leaves (one leaf per batch
/// beyond the byte bound) both equal the streaming hasher.
#[test]
fn one_shot_batches_equal_streaming_on_large_messages() {
    let msg = pattern(20 << 20);
    for (d, h, b) in [(4, 4, 136), (4, 1, 4096), (8, 3, 1000)] {
        let p = TreeLiParams {
            degree: d,
            height: h,
            block_size: Some(b),
            ..TreeLiParams::default()
        };
        let mut one = [0u8; 32];
        tree_li(&p, &msg, &mut one).unwrap();
        let mut t = TreeLi::new(p.clone()).unwrap();
        for piece in msg.chunks(3 << 20) {
            t.update(piece);
        }
        assert_eq!(t.finalize_vec(32), one.to_vec(), "D={d} H={h} B={b}");
    }
}

/// Whole rounds (one block into every leaf) through the multi-state
/// permutation in SIMD lanes and over threads, one-shot and streaming with
/// pieces that start and end on and off round boundaries: against the
/// scalar engine's gathered one-shot, on every engine, one thread and all,
/// for block sizes of 1–3 rates and rates 72..168; and long enough that
/// the lane groups take the rounds in several windows (lanes.rs,
/// `WINDOW_BYTES`: 512 KiB, at least 32 rounds).
#[test]
fn streaming_whole_rounds_on_every_engine() {
    let mut rng = Rng(0x005E_ED0F_1EAF);
    let cases = [
        // (degree, height, rate bits, blocks of `rate` per leaf block,
        // whole rounds)
        (4, 1, 1088, 1, 3),
        (4, 2, 1088, 1, 3),
        (3, 2, 576, 2, 3),
        (2, 3, 1344, 3, 3),
        (4, 4, 1088, 1, 3),
        (5, 1, 1152, 2, 3),
        (9, 1, 832, 1, 3),
        // 16 leaves: windows of 240 rounds (2 groups of ×8, 4 of ×4).
        (4, 2, 1088, 1, 700),
        // 8 leaves of 72-byte blocks: windows of 910 rounds (2 groups of
        // ×4, 4 of ×2; one of ×8).
        (2, 3, 576, 1, 2000),
        // 256 leaves: windows of the minimum 32 rounds, 32 groups of ×8.
        (4, 4, 1088, 1, 80),
    ];
    for (degree, height, rate_bits, m, rounds) in cases {
        let rate = rate_bits / 8;
        let p = TreeLiParams {
            degree,
            height,
            block_size: Some(m * rate),
            rate_bits,
            capacity_bits: 1600 - rate_bits,
            ..TreeLiParams::default()
        };
        let round = p.leaves().unwrap() * p.block_bytes();
        // Whole rounds, a partial one, and a short tail.
        let len = rounds * round + rng.below(round) + 7;
        let msg: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        // The scalar engine's one-shot gathers each leaf and hashes it on
        // its own: independent of the round-by-round path under test.
        let mut want = [0u8; 48];
        tree_li_with_engine(engine::by_name("scalar").unwrap(), &p, &msg, &mut want).unwrap();
        for e in engine::available() {
            let mut one_shot = [0u8; 48];
            tree_li_with_engine(e, &p, &msg, &mut one_shot).unwrap();
            assert_eq!(one_shot, want, "{p:?} one-shot on engine {}", e.name());
            engine::set_engine(e.name()).unwrap();
            for threads in [1, 0] {
                engine::set_threads(threads);
                // All at once; then pieces of 0..2 rounds plus a little,
                // so the stream crosses round boundaries mid-piece too.
                let mut got = [0u8; 48];
                tree_li(&p, &msg, &mut got).unwrap();
                assert_eq!(
                    got,
                    want,
                    "{p:?} tree_li on engine {} threads {threads}",
                    e.name()
                );
                let mut h = TreeLi::new(p.clone()).unwrap();
                h.update(&msg);
                h.finalize_into(&mut got);
                assert_eq!(got, want, "{p:?} engine {} threads {threads}", e.name());
                let mut h = TreeLi::new(p.clone()).unwrap();
                let mut rest = &msg[..];
                while !rest.is_empty() {
                    let take = (rng.below(3) * round + rng.below(3 * rate)).min(rest.len());
                    h.update(&rest[..take.max(1)]);
                    rest = &rest[take.max(1)..];
                }
                assert_eq!(
                    h.finalize_vec(48),
                    want.to_vec(),
                    "{p:?} engine {} threads {threads}, pieces",
                    e.name()
                );
                // Pieces of whole blocks: block boundaries at any leaf, so
                // partial rounds at both ends of a piece.
                let blocks = round / p.leaves().unwrap();
                let mut h = TreeLi::new(p.clone()).unwrap();
                let mut rest = &msg[..];
                while !rest.is_empty() {
                    let take =
                        (rng.below(2 * p.leaves().unwrap() + 1) * blocks).clamp(1, rest.len());
                    h.update(&rest[..take]);
                    rest = &rest[take..];
                }
                assert_eq!(
                    h.finalize_vec(48),
                    want.to_vec(),
                    "{p:?} engine {} threads {threads}, whole-block pieces",
                    e.name()
                );
            }
        }
    }
    engine::set_engine("auto").unwrap();
    engine::set_threads(0);
}

/// The one-shot gather buffer is kept per thread between calls: calls of
/// different sizes and shapes in a row on the one-state engine (which
/// always gathers) each equal the streaming hasher, so nothing of an
/// earlier call's leaves leaks into a later one.
#[test]
fn gather_buffer_reuse_across_calls() {
    let scalar = engine::by_name("scalar").unwrap();
    let msg = pattern(3 << 20);
    for (len, d, h, b) in [
        (3 << 20, 4, 2, 1000),
        (5000, 4, 1, 136),
        (3 << 20, 8, 1, 4096),
        (777_777, 2, 3, 72),
        (1, 4, 4, 136),
        (2 << 20, 4, 4, 128),
    ] {
        let p = TreeLiParams {
            degree: d,
            height: h,
            block_size: Some(b),
            ..TreeLiParams::default()
        };
        let m = &msg[..len];
        let mut got = [0u8; 32];
        tree_li_with_engine(scalar, &p, m, &mut got).unwrap();
        let mut t = TreeLi::new(p.clone()).unwrap();
        t.update(m);
        assert_eq!(
            t.finalize_vec(32),
            got.to_vec(),
            "len {len} D={d} H={h} B={b}"
        );
    }
}
