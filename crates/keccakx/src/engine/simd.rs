//! Multi-lane engines: N sponges run side by side, one per 64-bit lane of a
//! SIMD register (SSE2 ×2, AVX2 ×4, AVX-512 ×8).
//!
//! Inputs of any lengths share the lanes: each lane takes the next message
//! as soon as its previous one is done (absorbed, padded, squeezed), so
//! mixed lengths keep every lane busy. A lane's block pointer is either the
//! message itself (whole blocks, no copy), its padded tail (copied to a small
//! per-lane buffer), or zeros (squeezing past one block, or an idle lane).

use super::{Engine, LaneSpec};
use crate::permutation::{permute, run_lanes_for, Lanes, LanesKernel, Parallelism};

/// A multi-lane engine of the given width.
pub struct Simd {
    kind: Parallelism,
    name: &'static str,
}

impl Simd {
    /// The AVX-512 ×8 engine (`avx512`).
    pub const AVX512: Simd = Simd {
        kind: Parallelism::X8,
        name: "avx512",
    };
    /// The AVX2 ×4 engine (`avx2`).
    pub const AVX2: Simd = Simd {
        kind: Parallelism::X4,
        name: "avx2",
    };
    /// The SSE2 ×2 engine (`sse2`).
    pub const SSE2: Simd = Simd {
        kind: Parallelism::X2,
        name: "sse2",
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
            return super::Scalar.hash_many(spec, inputs, out_len, out);
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
            super::Scalar.hash_many(job.spec, job.inputs, job.out_len, job.out)
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

/// The multi-lane sponge on vectors `V` (see the module doc): refill idle
/// lanes, absorb the run of whole blocks every lane has, else one block
/// per lane, and drain the lanes whose output is ready; until no lane has
/// work left.
///
/// # Safety
/// The CPU must support `V`'s instruction set; `spec.rate_bytes` must be a
/// multiple of 8 in 8..=192; `out.len() == inputs.len() * out_len`, `out_len > 0`.
#[inline(always)]
unsafe fn hash_lanes<V: Lanes>(spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
    // SAFETY: forwarded contract (each step's).
    unsafe {
        let mut run = LaneRun::<V>::new(spec, inputs, out_len, out);
        loop {
            run.refill();
            run.absorb_common_run();
            if !run.step() {
                break;
            }
            run.drain();
        }
    }
}

/// The state of a [`hash_lanes`] call: N sponges in the lanes of
/// `state`, what each lane is doing, and where its next block is.
struct LaneRun<'a, 'b, V> {
    spec: &'a LaneSpec,
    inputs: &'a [&'b [u8]],
    out_len: usize,
    out: &'a mut [u8],
    /// Rate in 64-bit words.
    words: usize,
    /// Words of a squeezed block that reach the output.
    out_words: usize,
    state: [V; 25],
    phase: [Phase; MAX_LANES],
    /// Each lane's next block: in its message, its tail buffer, or ZEROS.
    ptrs: [*const u8; MAX_LANES],
    /// Each lane's padded last block(s).
    tails: [[u8; 400]; MAX_LANES],
    /// The state's first words, per lane, when output is ready.
    words_out: [[u64; MAX_LANES]; 25],
    next_msg: usize,
}

// Safety of every method: V's instruction set is present (the caller of
// `hash_lanes`); every pointer handed to `V::absorb` is readable for `rate`
// bytes: a whole block inside a message, a lane's tail buffer (400 ≥
// 2·rate bytes), or ZEROS (200).
impl<'a, 'b, V: Lanes> LaneRun<'a, 'b, V> {
    /// # Safety
    /// As [`hash_lanes`].
    #[inline(always)]
    unsafe fn new(
        spec: &'a LaneSpec,
        inputs: &'a [&'b [u8]],
        out_len: usize,
        out: &'a mut [u8],
    ) -> Self {
        let rate = spec.rate_bytes;
        LaneRun {
            spec,
            inputs,
            out_len,
            out,
            words: rate / 8,
            out_words: rate.min(out_len).div_ceil(8),
            // SAFETY: forwarded contract.
            state: [unsafe { V::zero() }; 25],
            phase: [Phase::Idle; MAX_LANES],
            ptrs: [ZEROS.as_ptr(); MAX_LANES],
            tails: [[0u8; 400]; MAX_LANES],
            words_out: [[0u64; MAX_LANES]; 25],
            next_msg: 0,
        }
    }

    /// Give idle lanes the next messages; their states restart at zero.
    ///
    /// # Safety
    /// As [`hash_lanes`].
    #[inline(always)]
    unsafe fn refill(&mut self) {
        let mut keep = [u64::MAX; MAX_LANES];
        let mut refilled = false;
        for j in 0..V::N {
            if matches!(self.phase[j], Phase::Idle) && self.next_msg < self.inputs.len() {
                self.phase[j] = Phase::Absorb {
                    msg: self.next_msg,
                    pos: 0,
                };
                self.next_msg += 1;
                keep[j] = 0;
                refilled = true;
            }
        }
        if refilled {
            // SAFETY: forwarded contract; `keep` holds MAX_LANES ≥ N words.
            unsafe {
                let mask = V::load(keep.as_ptr());
                for lane in self.state.iter_mut() {
                    *lane = V::and(*lane, mask);
                }
            }
        }
    }

    /// Fast path: when every lane has more than one whole message block
    /// left (long messages, tree leaves), absorb the run they all have
    /// without the per-block bookkeeping.
    ///
    /// # Safety
    /// As [`hash_lanes`].
    #[inline(always)]
    unsafe fn absorb_common_run(&mut self) {
        let (n, rate) = (V::N, self.spec.rate_bytes);
        let mut run = usize::MAX;
        for j in 0..n {
            run = match self.phase[j] {
                Phase::Absorb { msg, pos } => run.min((self.inputs[msg].len() - pos) / rate),
                _ => 0,
            };
        }
        if run <= 1 {
            return;
        }
        for j in 0..n {
            if let Phase::Absorb { msg, pos } = self.phase[j] {
                self.ptrs[j] = self.inputs[msg][pos..].as_ptr();
                self.phase[j] = Phase::Absorb {
                    msg,
                    pos: pos + run * rate,
                };
            }
        }
        for _ in 0..run {
            // SAFETY: forwarded contract; each pointer has `run` whole
            // blocks of its message ahead of it.
            unsafe {
                V::absorb(&mut self.state, &self.ptrs[..n], self.words);
                permute(&mut self.state, self.spec.rounds);
            }
            for p in self.ptrs[..n].iter_mut() {
                // Stays inside the message: `run` whole blocks remain.
                *p = p.wrapping_add(rate);
            }
        }
    }

    /// One block into every lane (a message block, a padded tail block, or
    /// zeros), then the permutation; false (and nothing done) when no lane
    /// has work left.
    ///
    /// # Safety
    /// As [`hash_lanes`].
    #[inline(always)]
    unsafe fn step(&mut self) -> bool {
        let (n, rate) = (V::N, self.spec.rate_bytes);
        let mut busy = false;
        for j in 0..n {
            self.ptrs[j] = match self.phase[j] {
                Phase::Idle => ZEROS.as_ptr(),
                Phase::Absorb { msg, pos } => {
                    busy = true;
                    let m = self.inputs[msg];
                    if m.len() - pos >= rate {
                        self.phase[j] = Phase::Absorb {
                            msg,
                            pos: pos + rate,
                        };
                        m[pos..].as_ptr()
                    } else {
                        let blocks = pad_tail(
                            &mut self.tails[j],
                            &m[pos..],
                            rate,
                            self.spec.delimited_suffix,
                        );
                        self.phase[j] = Phase::Tail {
                            msg,
                            next: 1,
                            blocks,
                        };
                        self.tails[j].as_ptr()
                    }
                }
                Phase::Tail { msg, next, blocks } => {
                    busy = true;
                    self.phase[j] = Phase::Tail {
                        msg,
                        next: next + 1,
                        blocks,
                    };
                    self.tails[j][next * rate..].as_ptr()
                }
                Phase::Squeeze { .. } => {
                    busy = true;
                    ZEROS.as_ptr()
                }
            };
        }
        if busy {
            // SAFETY: forwarded contract; every pointer is readable for
            // `rate` bytes (see above).
            unsafe {
                V::absorb(&mut self.state, &self.ptrs[..n], self.words);
                permute(&mut self.state, self.spec.rounds);
            }
        }
        busy
    }

    /// Copy out the lanes with output ready (their last tail block was
    /// absorbed, or they are squeezing): the next `rate` bytes of their
    /// output; a lane whose output is complete goes idle.
    ///
    /// # Safety
    /// As [`hash_lanes`].
    #[inline(always)]
    unsafe fn drain(&mut self) {
        let (rate, out_len) = (self.spec.rate_bytes, self.out_len);
        let mut stored = false;
        for j in 0..V::N {
            let (msg, done) = match self.phase[j] {
                Phase::Tail { msg, next, blocks } if next == blocks => (msg, 0),
                Phase::Squeeze { msg, done } => (msg, done),
                _ => continue,
            };
            if !stored {
                for w in 0..self.out_words {
                    // SAFETY: forwarded contract; each row of `words_out`
                    // holds MAX_LANES ≥ N words.
                    unsafe { self.state[w].store(self.words_out[w].as_mut_ptr()) };
                }
                stored = true;
            }
            let take = rate.min(out_len - done);
            let dst = &mut self.out[msg * out_len + done..][..take];
            for (w, chunk) in dst.chunks_mut(8).enumerate() {
                let bytes = self.words_out[w][j].to_le_bytes();
                chunk.copy_from_slice(&bytes[..chunk.len()]);
            }
            self.phase[j] = if done + take == out_len {
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
