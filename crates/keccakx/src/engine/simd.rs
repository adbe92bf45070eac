//! Multi-lane engines: N sponges run side by side, one per 64-bit lane of a
//! SIMD register (SSE2 ×2, AVX2 ×4, AVX-512 ×8).
//!
//! Inputs of any lengths share the lanes: each lane takes the next message
//! as soon as its previous one is done (absorbed, padded, squeezed), so
//! mixed lengths keep every lane busy. A lane's block pointer is either the
//! message itself (whole blocks, no copy), its padded tail (copied to a small
//! per-lane buffer), or zeros (squeezing past one block, or an idle lane).

// Without an x86 instruction set the multi-lane code runs only in tests.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use super::contract::{Engine, LaneSpec};
use crate::permutation::{permute, run_lanes_for, Lanes, LanesKernel, Parallelism};
use crate::policy::EngineChoice;

/// A multi-lane engine of the given width.
pub struct Simd {
    kind: Parallelism,
    name: &'static str,
}

impl Simd {
    /// The AVX-512 ×8 engine (`avx512`).
    pub const AVX512: Simd = Simd {
        kind: Parallelism::X8,
        name: EngineChoice::Avx512.name(),
    };
    /// The AVX2 ×4 engine (`avx2`).
    pub const AVX2: Simd = Simd {
        kind: Parallelism::X4,
        name: EngineChoice::Avx2.name(),
    };
    /// The SSE2 ×2 engine (`sse2`).
    pub const SSE2: Simd = Simd {
        kind: Parallelism::X2,
        name: EngineChoice::Sse2.name(),
    };

    /// States hashed side by side.
    pub fn lanes(&self) -> usize {
        self.kind.states()
    }
}

impl Engine for Simd {
    fn name(&self) -> &'static str {
        self.name
    }

    fn is_available(&self) -> bool {
        self.kind.is_available()
    }

    fn parallelism(&self) -> Parallelism {
        self.kind
    }

    fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
        assert_eq!(
            out.len(),
            inputs.len() * out_len,
            "hash_many: output size mismatch"
        );
        if out_len == 0 || inputs.is_empty() {
            return;
        }
        // One message gains nothing from lanes; a rate that is not a whole
        // number of words (raw Keccak[r, c] only) takes the scalar path.
        if inputs.len() == 1 || !spec.rate_bytes.is_multiple_of(8) || !self.is_available() {
            return super::scalar::Scalar.hash_many(spec, inputs, out_len, out);
        }
        // The dispatcher picks the lanes (two to four messages on ×8:
        // as many narrow lanes as messages).
        let job = HashLanes {
            spec,
            inputs,
            out_len,
            out,
        };
        if let Err(job) = run_lanes_for(self.kind, inputs.len(), job) {
            super::scalar::Scalar.hash_many(job.spec, job.inputs, job.out_len, job.out)
        }
    }
}

/// [`hash_lanes`] as a kernel for the dispatcher.
struct HashLanes<'a, 'b> {
    spec: &'a LaneSpec,
    inputs: &'a [&'b [u8]],
    out_len: usize,
    out: &'a mut [u8],
}

impl LanesKernel for HashLanes<'_, '_> {
    type Output = ();
    #[inline(always)]
    unsafe fn run<V: Lanes>(self) {
        // SAFETY: forwarded contract; `hash_many` checked the rate, the
        // output size and `out_len > 0`.
        unsafe { hash_lanes::<V>(self.spec, self.inputs, self.out_len, self.out) }
    }
}

/// Most lanes of any implementation.
const MAX_LANES: usize = 8;
/// Zero block: what idle and squeezing lanes absorb.
static ZEROS: [u8; 200] = [0; 200];

#[derive(Clone, Copy)]
enum Phase {
    /// No message (the batch is running out).
    Idle,
    /// Whole blocks of message `msg` from byte `pos` on.
    Absorb { msg: usize, pos: usize },
    /// The padded tail (1 or 2 blocks in the lane's buffer); `next` blocks fed.
    Tail {
        msg: usize,
        next: usize,
        blocks: usize,
    },
    /// Output of `msg` written up to `done` bytes; more needed.
    Squeeze { msg: usize, done: usize },
}

/// The multi-lane sponge on vectors `V` (see the module doc): per turn of
/// the loop, refill idle lanes, absorb the run of whole blocks every lane
/// has, else one block per lane, and drain the lanes whose output is
/// ready. One function on purpose: split into steps (a struct of the
/// lanes' bookkeeping, or steps taking it as arguments) it ran batches of
/// 64-byte messages up to ~10% slower (bench/NOTES.md, "One dispatcher").
///
/// # Safety
/// The CPU must support `V`'s instruction set; `spec.rate_bytes` must be a
/// multiple of 8 in 8..=192; `out.len() == inputs.len() * out_len`, `out_len > 0`.
#[inline(always)]
unsafe fn hash_lanes<V: Lanes>(spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
    let n = V::N;
    let rate = spec.rate_bytes;
    let words = rate / 8;
    let out_words = rate.min(out_len).div_ceil(8);
    let mut tails = [[0u8; 400]; MAX_LANES];
    let mut phase = [Phase::Idle; MAX_LANES];
    let mut ptrs = [ZEROS.as_ptr(); MAX_LANES];
    let mut words_out = [[0u64; MAX_LANES]; 25];
    let mut next_msg = 0;
    // SAFETY: V's instruction set is present (caller); every pointer handed
    // to `V::absorb` is readable for `rate` bytes: a whole block inside a
    // message, a lane's tail buffer (400 ≥ 2·rate bytes), or ZEROS (200).
    unsafe {
        let mut state = [V::zero(); 25];
        loop {
            // Refill idle lanes with the next messages; their state restarts at zero.
            let mut keep = [u64::MAX; MAX_LANES];
            let mut refilled = false;
            for j in 0..n {
                if matches!(phase[j], Phase::Idle) && next_msg < inputs.len() {
                    phase[j] = Phase::Absorb {
                        msg: next_msg,
                        pos: 0,
                    };
                    next_msg += 1;
                    keep[j] = 0;
                    refilled = true;
                }
            }
            if refilled {
                let mask = V::load(keep.as_ptr());
                for lane in state.iter_mut() {
                    *lane = V::and(*lane, mask);
                }
            }
            // Fast path: every lane has whole message blocks left (long
            // messages, tree leaves): absorb the common run of them without
            // the per-block bookkeeping.
            let mut run = usize::MAX;
            for j in 0..n {
                run = match phase[j] {
                    Phase::Absorb { msg, pos } => run.min((inputs[msg].len() - pos) / rate),
                    _ => 0,
                };
            }
            if run > 1 {
                for j in 0..n {
                    if let Phase::Absorb { msg, pos } = phase[j] {
                        ptrs[j] = inputs[msg][pos..].as_ptr();
                        phase[j] = Phase::Absorb {
                            msg,
                            pos: pos + run * rate,
                        };
                    }
                }
                // The states stay in registers for the whole run where
                // the lanes have a loop for this rate (bench/NOTES.md, "KT128
                // from the shell": storing and reloading them around every
                // permutation cost keccakx ~5% against XKCP on long inputs).
                // `run` whole blocks remain in every lane's message.
                if !V::absorb_run(&mut state, &ptrs[..n], words, spec.rounds, run) {
                    for _ in 0..run {
                        V::absorb(&mut state, &ptrs[..n], words);
                        permute(&mut state, spec.rounds);
                        for p in ptrs[..n].iter_mut() {
                            *p = p.wrapping_add(rate);
                        }
                    }
                }
            }
            // Each lane's next block.
            let mut busy = false;
            for j in 0..n {
                ptrs[j] = match phase[j] {
                    Phase::Idle => ZEROS.as_ptr(),
                    Phase::Absorb { msg, pos } => {
                        busy = true;
                        let m = inputs[msg];
                        if m.len() - pos >= rate {
                            phase[j] = Phase::Absorb {
                                msg,
                                pos: pos + rate,
                            };
                            m[pos..].as_ptr()
                        } else {
                            let blocks =
                                pad_tail(&mut tails[j], &m[pos..], rate, spec.delimited_suffix);
                            phase[j] = Phase::Tail {
                                msg,
                                next: 1,
                                blocks,
                            };
                            tails[j].as_ptr()
                        }
                    }
                    Phase::Tail { msg, next, blocks } => {
                        busy = true;
                        phase[j] = Phase::Tail {
                            msg,
                            next: next + 1,
                            blocks,
                        };
                        tails[j][next * rate..].as_ptr()
                    }
                    Phase::Squeeze { .. } => {
                        busy = true;
                        ZEROS.as_ptr()
                    }
                };
            }
            if !busy {
                break;
            }
            V::absorb(&mut state, &ptrs[..n], words);
            permute(&mut state, spec.rounds);
            // Lanes with output ready: the last tail block was absorbed, or squeezing.
            let mut stored = false;
            for j in 0..n {
                let (msg, done) = match phase[j] {
                    Phase::Tail { msg, next, blocks } if next == blocks => (msg, 0),
                    Phase::Squeeze { msg, done } => (msg, done),
                    _ => continue,
                };
                if !stored {
                    for w in 0..out_words {
                        state[w].store(words_out[w].as_mut_ptr());
                    }
                    stored = true;
                }
                let take = rate.min(out_len - done);
                let dst = &mut out[msg * out_len + done..][..take];
                for (w, chunk) in dst.chunks_mut(8).enumerate() {
                    let bytes = words_out[w][j].to_le_bytes();
                    chunk.copy_from_slice(&bytes[..chunk.len()]);
                }
                phase[j] = if done + take == out_len {
                    Phase::Idle
                } else {
                    Phase::Squeeze {
                        msg,
                        done: done + take,
                    }
                };
            }
        }
    }
}

/// Write the padded last block(s) of a message into `buf`: the `tail`
/// bytes (< rate), the delimited suffix, pad10*1. Returns 1 or 2 blocks
/// (2 when the suffix's closing 1 lands on the block's last bit).
#[inline(always)]
fn pad_tail(buf: &mut [u8; 400], tail: &[u8], rate: usize, delimited: u8) -> usize {
    let blocks = if delimited >= 0x80 && tail.len() == rate - 1 {
        2
    } else {
        1
    };
    buf[..blocks * rate].fill(0);
    buf[..tail.len()].copy_from_slice(tail);
    buf[tail.len()] ^= delimited;
    buf[blocks * rate - 1] ^= 0x80;
    blocks
}
