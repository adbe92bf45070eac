//! The portable engine: one sponge at a time on the fast scalar permutation.

use super::contract::{Engine, LaneSpec};
use crate::policy::EngineChoice;

/// Portable scalar engine, available everywhere.
pub struct Scalar;

impl Engine for Scalar {
    fn name(&self) -> &'static str {
        EngineChoice::Scalar.name()
    }

    fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
        if out_len == 0 {
            return;
        }
        for (input, o) in inputs.iter().zip(out.chunks_exact_mut(out_len)) {
            spec.hash_one(input, o);
        }
    }
}
