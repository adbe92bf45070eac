//! Where no official vectors exist (Keccak-p[25/50/100], rates that are not
//! whole bytes, round counts below 12+2ℓ, odd suffixes), the golden model
//! is held to hand-derivable facts and to the tests' independent FIPS 202
//! model (common::refmodel, itself checked step by step against the Keccak
//! team's intermediate values in conformance_keccakf_intermediate), and every
//! fast path is held to the golden model.

mod common;

use common::prng::SeedGuard;
use common::{check, refmodel, to_hex};
use keccakx::engine::{self, LaneSpec};
use keccakx::permutation::{self, keccak_p, keccak_p1600, State, ROUND_CONSTANTS, WIDTHS};
use keccakx::sponge::{golden_sponge, Sponge, SpongeParams, Suffix};

fn lane_mask(width: usize) -> u64 {
    let w = width / 25;
    if w == 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

fn nr(width: usize) -> usize {
    permutation::max_rounds(width).expect("valid width")
}

fn random_state(rng: &mut common::prng::Rng, width: usize) -> State {
    let m = lane_mask(width);
    let mut s = [0u64; 25];
    for l in s.iter_mut() {
        *l = rng.next_u64() & m;
    }
    s
}

fn fmt_state(s: &State) -> String {
    s.iter()
        .map(|l| format!("{l:x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------
// Constants against FIPS 202.

/// FIPS 202 Table 2: the ρ offsets (before reduction mod w), indexed [x + 5y].
const FIPS202_RHO: [u32; 25] = [
    0, 1, 190, 28, 91, //  y = 0
    36, 300, 6, 55, 276, // y = 1
    3, 10, 171, 153, 231, // y = 2
    105, 45, 15, 21, 136, // y = 3
    210, 66, 253, 120, 78, // y = 4
];

#[test]
fn round_constants_are_the_lfsr_values() {
    for (ir, &rc) in ROUND_CONSTANTS.iter().enumerate() {
        assert_eq!(
            rc,
            refmodel::round_constant(ir, 6),
            "ROUND_CONSTANTS[{ir}] vs FIPS 202 Algorithm 6 (rc LFSR)"
        );
    }
    // The LFSR has period 255 in t (Algorithm 5 reduces t mod 255).
    for t in 0..255 {
        assert_eq!(refmodel::rc_bit(t), refmodel::rc_bit(t + 255));
    }
    // The crate's own rc(t), if it differs from the LFSR, would show here.
    for t in 0..600 {
        assert_eq!(
            keccakx::permutation::golden::rc(t) as u8,
            refmodel::rc_bit(t),
            "generic::rc({t})"
        );
    }
}

#[test]
fn rho_offsets_match_fips202_table() {
    assert_eq!(
        refmodel::rho_offsets(),
        FIPS202_RHO,
        "the tests' model vs FIPS 202 Table 2"
    );
    assert_eq!(
        keccakx::permutation::golden::rho_offsets(),
        FIPS202_RHO,
        "keccakx generic::rho_offsets vs FIPS 202 Table 2"
    );
}

#[test]
fn widths_and_round_counts() {
    assert_eq!(WIDTHS, [25, 50, 100, 200, 400, 800, 1600]);
    for (l, &b) in WIDTHS.iter().enumerate() {
        assert_eq!(nr(b), 12 + 2 * l, "max_rounds({b})");
        assert!(
            permutation::check_params(b, 0).is_err(),
            "0 rounds must be rejected for b={b}"
        );
        assert!(
            permutation::check_params(b, nr(b) + 1).is_err(),
            "{} rounds must be rejected for b={b}",
            nr(b) + 1
        );
        assert!(permutation::check_params(b, 1).is_ok());
        assert!(permutation::check_params(b, nr(b)).is_ok());
    }
    for bad in [0usize, 24, 26, 64, 1599, 3200] {
        assert!(
            permutation::max_rounds(bad).is_err(),
            "width {bad} must be rejected"
        );
        assert!(
            permutation::check_params(bad, 1).is_err(),
            "width {bad} must be rejected"
        );
    }
}

// ---------------------------------------------------------------------------
// Hand-derivable facts about Keccak-p.

/// θ, ρ, π and χ map the all-zero state to itself, so one round of
/// Keccak-p on zero leaves only ι's constant of the last round index in lane
/// (0, 0); two rounds from zero then equal one round from that state.
#[test]
fn one_round_on_zero_is_the_round_constant() {
    for &b in &WIDTHS {
        let n = nr(b);
        let mut s = [0u64; 25];
        keccak_p(&mut s, b, 1);
        let mut want = [0u64; 25];
        want[0] = ROUND_CONSTANTS[n - 1] & lane_mask(b);
        assert_eq!(s, want, "Keccak-p[{b}, 1](0)");
        // Two rounds from zero = the last round applied to ι's output of round n-2.
        let mut two = [0u64; 25];
        keccak_p(&mut two, b, 2);
        let mut mid = [0u64; 25];
        mid[0] = ROUND_CONSTANTS[n - 2] & lane_mask(b);
        keccak_p(&mut mid, b, 1);
        assert_eq!(two, mid, "Keccak-p[{b}, 2](0) = Rnd_(n-1)(RC[n-2])");
    }
    let mut s = [0u64; 25];
    keccak_p1600(&mut s, 1);
    assert_eq!(s[0], ROUND_CONSTANTS[23]);
    assert!(s[1..].iter().all(|&l| l == 0));
}

/// The all-ones state is fixed by θ (every column has odd parity, so each
/// D[x] = 1 ⊕ 1 = 0), by ρ and π (they move bits) and by χ (1 ⊕ (0 ∧ 1)).
/// One round on all-ones therefore flips exactly ι's constant bits.
#[test]
fn one_round_on_all_ones_is_the_complemented_round_constant() {
    for &b in &WIDTHS {
        let m = lane_mask(b);
        let mut s = [m; 25];
        keccak_p(&mut s, b, 1);
        let mut want = [m; 25];
        want[0] ^= ROUND_CONSTANTS[nr(b) - 1] & m;
        assert_eq!(s, want, "Keccak-p[{b}, 1](all ones)");
    }
    let mut s = [u64::MAX; 25];
    keccak_p1600(&mut s, 1);
    assert_eq!(s[0], !ROUND_CONSTANTS[23]);
}

/// Lanes of a width-b state keep zero high bits (w = b/25 < 64).
#[test]
fn high_lane_bits_stay_zero() {
    let (_g, mut rng) = SeedGuard::new("high_lane_bits_stay_zero");
    for &b in &WIDTHS[..6] {
        for _ in 0..20 {
            let mut s = random_state(&mut rng, b);
            keccak_p(&mut s, b, rng.range(1, nr(b)));
            assert!(
                s.iter().all(|&l| l & !lane_mask(b) == 0),
                "b={b}: {}",
                fmt_state(&s)
            );
        }
    }
}

/// Checks that Keccak-p[25, `rounds`] is injective on `count` inputs spread
/// over the 2^25 states (v = i·k mod 2^25 with k odd, so all distinct), with
/// a 2^25-bit bitmap of the images seen; `count` = 2^25 makes it exhaustive.
/// Even a partial check is strong evidence: a function that is not a
/// permutation (e.g. a random one) would show about count²/2^26 collisions.
fn keccak_p25_injective(rounds: usize, count: usize) {
    const K: u32 = 0x0123_4567 | 1;
    let mut seen = vec![0u64; (1usize << 25) / 64];
    for i in 0..count as u32 {
        let v = i.wrapping_mul(K) & ((1 << 25) - 1);
        let mut s = [0u64; 25];
        for (j, l) in s.iter_mut().enumerate() {
            *l = ((v >> j) & 1) as u64;
        }
        keccak_p(&mut s, 25, rounds);
        let mut img = 0usize;
        for (j, &l) in s.iter().enumerate() {
            assert!(l <= 1, "b=25 lanes are one bit");
            img |= (l as usize) << j;
        }
        let (w, bit) = (img / 64, img % 64);
        assert!(
            seen[w] >> bit & 1 == 0,
            "Keccak-p[25, {rounds}]: two inputs map to {img:#x} (one is {v:#x})"
        );
        seen[w] |= 1 << bit;
    }
    if count == 1 << 25 {
        assert!(
            seen.iter().all(|&w| w == u64::MAX),
            "Keccak-p[25, {rounds}] is not onto"
        );
    }
}

/// Default run: 2^20 inputs through one round, 2^18 through all 12 rounds.
#[test]
fn keccak_p25_is_injective_on_a_large_sample() {
    keccak_p25_injective(1, 1 << 20);
    keccak_p25_injective(12, 1 << 18);
}

/// Exhaustive: Keccak-p[25, 1] and Keccak-p[25, 12] permute all 2^25 states.
#[test]
#[ignore = "exhaustive over 2^25 states (minutes); run with: cargo test --release -p keccakx --test conformance_golden -- --ignored"]
fn keccak_p25_is_a_bijection_exhaustive() {
    keccak_p25_injective(1, 1 << 25);
    keccak_p25_injective(12, 1 << 25);
}

// ---------------------------------------------------------------------------
// Golden model against the independent FIPS 202 model.

#[test]
fn golden_permutation_matches_reference_model_all_widths_and_rounds() {
    let (_g, mut rng) =
        SeedGuard::new("golden_permutation_matches_reference_model_all_widths_and_rounds");
    for &b in &WIDTHS {
        for rounds in 1..=nr(b) {
            for _ in 0..3 {
                let s0 = random_state(&mut rng, b);
                let mut s = s0;
                keccak_p(&mut s, b, rounds);
                let want = refmodel::keccak_p(&s0, b, rounds);
                assert_eq!(s, want, "Keccak-p[{b}, {rounds}] on {}", fmt_state(&s0));
            }
        }
    }
}

/// Suffix as a bit list for the reference model.
fn suffix_bits(s: Suffix) -> Vec<u8> {
    (0..s.len).map(|i| (s.bits >> i) & 1).collect()
}

/// A random bit-length message of up to `max_bits`.
fn random_msg(rng: &mut common::prng::Rng, max_bits: usize) -> (Vec<u8>, usize) {
    let n = rng.below(max_bits + 1);
    let mut m = rng.bytes(n.div_ceil(8));
    // Junk above the last bit must be ignored.
    if !n.is_multiple_of(8) {
        let last = m.len() - 1;
        m[last] |= 0xFF << (n % 8);
    }
    (m, n)
}

fn random_params(rng: &mut common::prng::Rng, widths: &[usize]) -> SpongeParams {
    let b = widths[rng.below(widths.len())];
    let rate = rng.range(1, b - 1);
    let rounds = rng.range(1, nr(b));
    let len = rng.range(0, 7) as u8;
    let suffix = Suffix {
        bits: (rng.next_u64() as u8) & ((1u16 << len) - 1) as u8,
        len,
    };
    SpongeParams::new(b, rate, rounds, suffix)
        .unwrap_or_else(|e| panic!("SpongeParams::new({b}, {rate}, {rounds}, {suffix:?}): {e}"))
}

fn describe(p: &SpongeParams) -> String {
    format!(
        "b={} r={} nr={} suffix={:?}",
        p.width(),
        p.rate_bits(),
        p.rounds(),
        p.suffix()
    )
}

/// golden_sponge against the reference SPONGE on small widths and odd
/// rates: random rate (1..b-1 bits), rounds, suffix bits, bit-length message
/// and output.
#[test]
fn golden_sponge_matches_reference_model_small_widths_odd_rates() {
    let (_g, mut rng) =
        SeedGuard::new("golden_sponge_matches_reference_model_small_widths_odd_rates");
    for _ in 0..300 {
        let p = random_params(&mut rng, &[25, 50, 100, 200]);
        let (m, n) = random_msg(&mut rng, 3 * p.rate_bits() + 20);
        let out_bits = rng.range(0, 2 * p.rate_bits() + 40);
        let got = golden_sponge(&p, &m, n, out_bits);
        let want = refmodel::sponge(
            p.width(),
            p.rate_bits(),
            p.rounds(),
            &suffix_bits(p.suffix()),
            &m,
            n,
            out_bits,
        );
        assert_eq!(
            got,
            want,
            "{} msg {n} bits {} out {out_bits} bits",
            describe(&p),
            to_hex(&m)
        );
    }
    // A few on the large widths (the reference model is slow there).
    for _ in 0..12 {
        let p = random_params(&mut rng, &[400, 800, 1600]);
        let (m, n) = random_msg(&mut rng, p.rate_bits() + 70);
        let out_bits = rng.range(0, p.rate_bits() + 70);
        let got = golden_sponge(&p, &m, n, out_bits);
        let want = refmodel::sponge(
            p.width(),
            p.rate_bits(),
            p.rounds(),
            &suffix_bits(p.suffix()),
            &m,
            n,
            out_bits,
        );
        assert_eq!(
            got,
            want,
            "{} msg {n} bits out {out_bits} bits",
            describe(&p)
        );
    }
}

#[test]
fn sponge_params_reject_bad_input() {
    assert!(
        SpongeParams::new(1600, 0, 24, Suffix::NONE).is_err(),
        "rate 0"
    );
    assert!(
        SpongeParams::new(1600, 1600, 24, Suffix::NONE).is_err(),
        "rate = width (no capacity)"
    );
    assert!(
        SpongeParams::new(25, 25, 12, Suffix::NONE).is_err(),
        "rate = width"
    );
    assert!(
        SpongeParams::new(1600, 1088, 0, Suffix::NONE).is_err(),
        "0 rounds"
    );
    assert!(
        SpongeParams::new(1600, 1088, 25, Suffix::NONE).is_err(),
        "25 rounds"
    );
    assert!(
        SpongeParams::new(100, 50, 17, Suffix::NONE).is_err(),
        "17 rounds for b=100"
    );
    assert!(
        SpongeParams::new(123, 50, 12, Suffix::NONE).is_err(),
        "width 123"
    );
    assert!(
        SpongeParams::new(
            1600,
            1088,
            24,
            Suffix {
                bits: 0b100,
                len: 2
            }
        )
        .is_err(),
        "suffix bits beyond its length"
    );
    assert!(SpongeParams::keccak(1088, 512).is_ok());
    assert!(
        SpongeParams::keccak(1088, 511).is_err(),
        "r + c must be a width"
    );
    assert!(Suffix::from_delimited(0).is_err());
    let mut s = Sponge::new(SpongeParams::keccak(1088, 512).unwrap());
    assert!(
        s.update_bits(&[0u8; 2], 17).is_err(),
        "17 bits from 2 bytes"
    );
}

// ---------------------------------------------------------------------------
// Fast paths against the golden model.

#[test]
fn fast_keccak_p1600_matches_golden_every_round_count() {
    let (_g, mut rng) = SeedGuard::new("fast_keccak_p1600_matches_golden_every_round_count");
    for rounds in 1..=24 {
        for _ in 0..50 {
            let s0 = random_state(&mut rng, 1600);
            let (mut a, mut b) = (s0, s0);
            keccak_p1600(&mut a, rounds);
            keccak_p(&mut b, 1600, rounds);
            assert_eq!(
                a,
                b,
                "keccak_p1600({rounds}) vs golden on {}",
                fmt_state(&s0)
            );
        }
    }
    let mut a = [7u64; 25];
    let mut b = a;
    permutation::keccak_f1600(&mut a);
    keccak_p(&mut b, 1600, 24);
    assert_eq!(a, b, "keccak_f1600 vs golden");
}

/// Feeds the first `n` bits of `m` into a public `Sponge` in random pieces:
/// whole-byte `update`s and bit-length `update_bits` pieces (which may leave
/// the stream unaligned), then reads `out_bytes` in random pieces.
fn sponge_in_pieces(
    rng: &mut common::prng::Rng,
    p: SpongeParams,
    m: &[u8],
    n: usize,
    out_bytes: usize,
) -> Vec<u8> {
    let mut s = Sponge::new(p);
    let mut pos = 0usize; // bits consumed
    let mut bits_tail = Vec::new();
    while pos < n {
        let take = rng.range(1, (n - pos).min(3 * p.rate_bits() / 2 + 9));
        if pos.is_multiple_of(8) && take >= 8 && rng.below(2) == 0 {
            let bytes = take / 8;
            s.update(&m[pos / 8..pos / 8 + bytes]);
            pos += bytes * 8;
        } else {
            // Extract bits pos..pos+take into a fresh buffer (LSB first).
            bits_tail.clear();
            bits_tail.resize(take.div_ceil(8), 0u8);
            for i in 0..take {
                let b = (m[(pos + i) / 8] >> ((pos + i) % 8)) & 1;
                bits_tail[i / 8] |= b << (i % 8);
            }
            s.update_bits(&bits_tail, take).expect("update_bits");
            pos += take;
        }
    }
    let mut r = s.finalize_xof();
    let mut out = vec![0u8; out_bytes];
    let mut at = 0;
    while at < out_bytes {
        let k = rng.range(0, out_bytes - at);
        r.read(&mut out[at..at + k]);
        at += k;
    }
    out
}

/// The public Sponge (fast byte core on b = 1600 with byte rates, bit core
/// otherwise, switching mid-stream on unaligned input) against golden_sponge,
/// for random parameters on every width.
#[test]
fn sponge_matches_golden_random_params_and_splits() {
    let (_g, mut rng) = SeedGuard::new("sponge_matches_golden_random_params_and_splits");
    for _ in 0..400 {
        let p = random_params(&mut rng, &WIDTHS);
        let (m, n) = random_msg(&mut rng, 3 * p.rate_bits() + 30);
        let out = rng.range(0, p.rate_bits() / 4 + 40);
        let got = sponge_in_pieces(&mut rng, p, &m, n, out);
        let want = golden_sponge(&p, &m, n, out * 8);
        assert_eq!(got, want, "{} msg {n} bits", describe(&p));
    }
}

/// The fast byte sponge (b = 1600, byte rate) against golden_sponge: every
/// byte rate 1..199, random rounds and delimited suffixes, lengths around the
/// rate, byte and bit-length messages.
#[test]
fn fast_byte_sponge_matches_golden_every_byte_rate() {
    let (_g, mut rng) = SeedGuard::new("fast_byte_sponge_matches_golden_every_byte_rate");
    for rate in 1..200usize {
        let rounds = if rate % 3 == 0 { 24 } else { rng.range(1, 24) };
        let suffix = Suffix::from_delimited(rng.range(1, 255) as u8).expect("nonzero");
        let p = SpongeParams::new(1600, rate * 8, rounds, suffix).expect("valid");
        for len in [0, rate - 1, rate, rate + 1, 2 * rate + rng.below(rate)] {
            let m = rng.bytes(len + 1);
            let bits = if rng.below(3) == 0 {
                len * 8 + rng.below(8)
            } else {
                len * 8
            };
            let mut s = Sponge::new(p);
            s.update_bits(&m, bits).expect("update_bits");
            let out_len = rng.range(1, 2 * rate + 3);
            let mut got = vec![0u8; out_len];
            s.finalize_into(&mut got);
            check(
                &got,
                &golden_sponge(&p, &m, bits, out_len * 8),
                &format!("{} msg {bits} bits", describe(&p)),
            );
        }
    }
}

/// The fused absorb loop (permutation::dispatch::absorb_blocks: whole blocks
/// with the state held in registers, rates 72..=168 bytes in steps of 8,
/// even round counts) against golden_sponge: every rate it takes and its
/// neighbours, round counts it takes (2, 12, 24) and one it leaves to the
/// plain loop (23), 1..6 whole blocks plus a tail, the input split at random
/// byte positions so runs of blocks start both aligned and mid-block.
#[test]
fn fused_absorb_matches_golden_at_every_rate() {
    let (_g, mut rng) = SeedGuard::new("fused_absorb_matches_golden_at_every_rate");
    let rates = (64..=176usize)
        .step_by(8)
        .chain([71, 73, 135, 137, 167, 169]);
    for rate in rates {
        for rounds in [2, 12, 23, 24] {
            let p = SpongeParams::new(
                1600,
                rate * 8,
                rounds,
                Suffix::from_delimited(0x06).unwrap(),
            )
            .expect("valid");
            let len = rng.range(1, 6) * rate + rng.below(rate);
            let m = rng.bytes(len);
            let mut s = Sponge::new(p);
            let mut at = 0;
            while at < len {
                let take = rng.range(1, (len - at).min(3 * rate));
                s.update(&m[at..at + take]);
                at += take;
            }
            let mut got = vec![0u8; rate + 9];
            s.finalize_into(&mut got);
            check(
                &got,
                &golden_sponge(&p, &m, len * 8, got.len() * 8),
                &format!("{} msg {len} bytes", describe(&p)),
            );
        }
    }
}

/// Every available engine's hash_many against golden_sponge.
#[test]
fn engines_match_golden() {
    let (_g, mut rng) = SeedGuard::new("engines_match_golden");
    let specs = [
        (136usize, 24usize, 0x06u8),
        (168, 24, 0x1F),
        (136, 24, 0x01),
        (168, 12, 0x07),
        (72, 24, 0x06),
        (1, 3, 0x0B),
        (199, 24, 0x80),
    ];
    for e in engine::available() {
        for &(rate, rounds, d) in &specs {
            let spec = LaneSpec::new(rate, rounds, d).expect("valid lane spec");
            let p = SpongeParams::new(1600, rate * 8, rounds, Suffix::from_delimited(d).unwrap())
                .unwrap();
            for count in [1usize, 2, 3, 4, 5, 8, 9, 17] {
                let msgs: Vec<Vec<u8>> = (0..count)
                    .map(|_| {
                        let l = rng.below(3 * rate + 2);
                        rng.bytes(l)
                    })
                    .collect();
                let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
                let out_len = rng.range(1, 2 * rate + 1);
                let mut out = vec![0u8; count * out_len];
                e.hash_many(&spec, &inputs, out_len, &mut out);
                for (i, m) in msgs.iter().enumerate() {
                    check(
                        &out[i * out_len..(i + 1) * out_len],
                        &golden_sponge(&p, m, m.len() * 8, out_len * 8),
                        &format!("engine {} rate {rate} rounds {rounds} suffix {d:#04x} input {i}/{count} ({} bytes)", e.name(), m.len()),
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Self-checks of the test helpers.

#[test]
fn helper_record_parser_and_byte_strings() {
    let text = "# c\n[L = 256]\n\nLen = 8\nMsg = ab\nMD = 01\n\n[X]\nCOUNT = 0\nT = 1\nT = 2\n";
    let r = common::parse_records("t", text);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].usize("Len"), 8);
    assert_eq!(r[0].header_usize("L"), 256);
    assert_eq!(r[1].all("T"), vec!["1", "2"]);
    assert!(r[1].header.contains_key("X"));
    assert_eq!(common::byte_string("\"ab\""), b"ab");
    assert_eq!(common::byte_string(""), Vec::<u8>::new());
    assert_eq!(common::byte_string("ptn(3)"), vec![0, 1, 2]);
    assert_eq!(common::ptn(253)[251..], [0, 1]);
    assert_eq!(common::hex("0aFf"), vec![0x0a, 0xff]);
    assert_eq!(common::msg_bits("00", 0), Vec::<u8>::new());
    assert_eq!(common::rightmost_u16(&[1, 2, 3]), 0x0203);
}
