//! The portable single-state round compiled with BMI1/BMI2: ANDN for χ,
//! RORX for ρ (no lane complementing, no register copies before rotates).

use crate::permutation::golden::State;
use crate::permutation::portable;

/// Keccak-p[1600, rounds] on one state, the portable round with BMI1/BMI2.
///
/// # Safety
/// The CPU must have BMI1 and BMI2; `1 <= rounds <= 24`.
#[target_feature(enable = "bmi1,bmi2")]
pub(crate) unsafe fn keccak_p1600(a: &mut State, rounds: usize) {
    portable::keccak_p1600(a, rounds)
}
