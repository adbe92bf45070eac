//! Keccak-p[b, nr]: the permutations ("low level", strictly apart from modes).
//!
//! - [`golden`]: the golden model, Keccak-p[b, nr] for every width, written
//!   to read like FIPS 202 §3. Every other path is tested against it.
//! - `lanes`: the contract of the fast Keccak-p\[1600\] paths (XKCP's
//!   SnP/PlSnP in one trait): `Lanes` is a vector of N 64-bit words, one
//!   per state, and the round is written once, generic over it.
//! - `portable`: the contract on plain `u64` (one state, any CPU).
//! - `isa/`: one file per instruction set, each only implementing the
//!   contract (SSE2 ×2, AVX2 ×4, AVX-512 ×8, AVX-512VL ×1/×2/×4, BMI1/2 ×1)
//!   plus its hand-scheduled rounds; none of them tests the CPU.
//! - `dispatch`: the only place that looks at CPU features. It picks the
//!   single-state permutation of the sequential functions, the multi-state
//!   one of the engines (×8 with at most four states goes to narrow lanes),
//!   and runs code generic over `Lanes` compiled for the instruction set
//!   it chose.
//!
//! Modules depend only downward: `golden` ← `lanes` ← `portable`, `isa` ←
//! `dispatch`; this file only re-exports (no import cycles; checked by
//! `tools/module_cycles.py`).

mod dispatch;
pub mod golden;
#[cfg(target_arch = "x86_64")]
mod isa;
mod lanes;
mod portable;

#[cfg(feature = "std")]
pub use dispatch::cpu_features;
pub use dispatch::{
    best_single, keccak_f1600, keccak_p1600, keccak_p1600_many, keccak_p1600_using,
    keccak_p1600_with, Parallelism, Single,
};
pub use golden::{check_params, keccak_p, log2_lane, max_rounds, State, ROUND_CONSTANTS, WIDTHS};

pub(crate) use dispatch::{absorb_blocks, absorb_interleaved_with, run_lanes_for};
pub(crate) use lanes::{
    permute, state_from_bytes, state_to_bytes, Interleaved, Lanes, LanesKernel,
};
