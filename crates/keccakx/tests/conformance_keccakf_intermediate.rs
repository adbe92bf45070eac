//! The Keccak team's Keccak-f[200/400/800/1600] intermediate values
//! (tests/vectors/xkcp/KeccakF-<b>-IntermediateValues.txt).
//!
//! Through keccakx's public permutation API:
//! - the round-constant table against `ROUND_CONSTANTS` (low w bits);
//! - the output of every example against `keccak_p(b, 12+2ℓ)` (and
//!   `keccak_p1600` / `keccak_f1600` for b = 1600);
//! - every after-round state: Keccak-p with the last k rounds maps the state
//!   after round 12+2ℓ−k−1 to the final output, for every k. Since each such
//!   map is a permutation, this pins every single round of the implementation
//!   to the file (round j from S_{j−1} must give S_j, or the maps of k and k−1
//!   rounds could not both reach the output).
//!
//! The file's per-step states (after θ, ρ, π, χ, ι) are checked against the
//! tests' independent FIPS 202 model (common::refmodel), which the golden
//! tests then use on the widths that have no official vectors.

mod common;

use common::keccakf::{bytes_to_state, parse, state_to_bytes, IntermediateValues};
use common::refmodel::{self, Step};
use common::{check, read_vector_file};
use keccakx::permutation::{self, keccak_f1600, keccak_p, keccak_p1600, State, ROUND_CONSTANTS};

fn load(width: usize) -> IntermediateValues {
    let file = format!("xkcp/KeccakF-{width}-IntermediateValues.txt");
    let iv = parse(&file, &read_vector_file(&file), width);
    assert_eq!(iv.examples.len(), 2, "{file}: two examples");
    iv
}

fn nr(width: usize) -> usize {
    let l = (width / 25).trailing_zeros() as usize;
    12 + 2 * l
}

fn mask(width: usize) -> u64 {
    let w = width / 25;
    if w == 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

fn fmt_state(s: &State) -> String {
    s.iter()
        .map(|l| format!("{l:x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[track_caller]
fn check_state(got: &State, want: &State, what: &str) {
    if got != want {
        panic!(
            "MISMATCH {what}\n  got:  {}\n  want: {}",
            fmt_state(got),
            fmt_state(want)
        );
    }
}

fn round_constants(width: usize) {
    let iv = load(width);
    let n = nr(width);
    assert_eq!(
        iv.round_constants.len(),
        n,
        "b={width}: {n} round constants in the file"
    );
    assert_eq!(permutation::max_rounds(width).expect("valid width"), n);
    let l = (width / 25).trailing_zeros();
    for (i, &rc) in iv.round_constants.iter().enumerate() {
        assert_eq!(
            ROUND_CONSTANTS[i] & mask(width),
            rc,
            "b={width}: ROUND_CONSTANTS[{i}] (low w bits) vs the file"
        );
        assert_eq!(
            refmodel::round_constant(i, l),
            rc,
            "b={width}: FIPS 202 Algorithm 6 RC[{i}] vs the file"
        );
    }
    let w = (width / 25) as u32;
    let ref_off = refmodel::rho_offsets();
    for i in 0..25 {
        assert_eq!(
            ref_off[i] % w,
            iv.rho_offsets[i],
            "b={width}: rho offset of lane {i} (x={}, y={})",
            i % 5,
            i / 5
        );
    }
}

fn examples(width: usize) {
    let iv = load(width);
    let n = nr(width);
    for ex in &iv.examples {
        let what = format!("Keccak-f[{width}] example '{}'", ex.title);
        // The byte and lane forms of the input agree (parser and layout check).
        check_state(
            &bytes_to_state(&ex.input_bytes, width),
            &ex.input,
            &format!("{what}: input bytes vs lanes"),
        );
        assert_eq!(ex.rounds.len(), n, "{what}: {n} rounds");
        let out = bytes_to_state(&ex.output_bytes, width);
        check_state(
            &ex.rounds[n - 1].iota,
            &out,
            &format!("{what}: last round vs output"),
        );

        // The whole permutation.
        let mut s = ex.input;
        keccak_p(&mut s, width, n);
        check_state(&s, &out, &format!("{what}: keccak_p({width}, {n})"));
        check(
            &state_to_bytes(&s, width),
            &ex.output_bytes,
            &format!("{what}: output bytes"),
        );
        if width == 1600 {
            let mut s = ex.input;
            keccak_p1600(&mut s, 24);
            check_state(&s, &out, &format!("{what}: keccak_p1600(24)"));
            let mut s = ex.input;
            keccak_f1600(&mut s);
            check_state(&s, &out, &format!("{what}: keccak_f1600"));
        }

        // Every after-round state through the last k rounds.
        for k in 1..=n {
            let start = if k == n {
                ex.input
            } else {
                ex.rounds[n - k - 1].iota
            };
            let mut s = start;
            keccak_p(&mut s, width, k);
            check_state(
                &s,
                &out,
                &format!(
                    "{what}: keccak_p({width}, {k}) from the state after round {} (-1 = input)",
                    n as isize - k as isize - 1
                ),
            );
            if width == 1600 {
                let mut s = start;
                keccak_p1600(&mut s, k);
                check_state(
                    &s,
                    &out,
                    &format!(
                        "{what}: keccak_p1600({k}) from the state after round {}",
                        n as isize - k as isize - 1
                    ),
                );
            }
        }
        // The last round alone maps the state after round n-2 to the state after round n-1.
        let mut s = ex.rounds[n - 2].iota;
        keccak_p(&mut s, width, 1);
        check_state(&s, &ex.rounds[n - 1].iota, &format!("{what}: last round"));
    }
}

fn steps_vs_reference_model(width: usize) {
    let iv = load(width);
    for ex in &iv.examples {
        let mut s = ex.input;
        for (ir, rt) in ex.rounds.iter().enumerate() {
            for (st, want) in [
                (Step::Theta, &rt.theta),
                (Step::Rho, &rt.rho),
                (Step::Pi, &rt.pi),
                (Step::Chi, &rt.chi),
                (Step::Iota, &rt.iota),
            ] {
                s = refmodel::step(&s, width, st, ir);
                check_state(
                    &s,
                    want,
                    &format!(
                        "reference model b={width} '{}' round {ir} after {st:?}",
                        ex.title
                    ),
                );
            }
        }
        let mut s = ex.input;
        s = refmodel::keccak_p(&s, width, nr(width));
        check(
            &state_to_bytes(&s, width),
            &ex.output_bytes,
            &format!("reference model b={width} '{}'", ex.title),
        );
    }
}

#[test]
fn keccak_f200_vectors() {
    round_constants(200);
    examples(200);
}

#[test]
fn keccak_f400_vectors() {
    round_constants(400);
    examples(400);
}

#[test]
fn keccak_f800_vectors() {
    round_constants(800);
    examples(800);
}

#[test]
fn keccak_f1600_vectors() {
    round_constants(1600);
    examples(1600);
}

#[test]
fn reference_model_reproduces_every_step() {
    for width in [200, 400, 800, 1600] {
        steps_vs_reference_model(width);
    }
}
