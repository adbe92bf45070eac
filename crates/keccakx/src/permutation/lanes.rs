//! The contract of the fast Keccak-p[1600] paths: N independent states
//! permuted at once, one state per 64-bit lane of a vector (XKCP's "times
//! N" interface; N = 1 is the single-state case).
//!
//! An implementation supplies the handful of vector operations of [`Lanes`]
//! (`portable.rs` on `u64`, one file per instruction set under `isa/`);
//! the round, the permutation, the transposing loads of many states and
//! the interleaved absorb are written here once, generic over it. Code
//! generic over `Lanes` is packaged as a [`LanesKernel`], which the
//! dispatcher runs compiled for the instruction set it chose.

// Without an x86 instruction set the multi-lane code runs only in tests.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use super::golden::{State, ROUND_CONSTANTS};

/// A SIMD vector of `N` 64-bit words: word j belongs to state j.
///
/// # Safety
/// Every method may only be called on a CPU that has the instruction set the
/// implementation was written for (the dispatcher checks it once before
/// any of them runs).
pub(crate) unsafe trait Lanes: Copy {
    /// States per vector.
    const N: usize;
    /// Whether `xor3` is one instruction (AVX-512 VPTERNLOGQ): then θ's
    /// column effect is applied with one three-way xor per lane.
    const FAST_XOR3: bool;
    /// Whether rounds go through [`round_by_rows`] (memory in, memory out,
    /// one χ row at a time): for 16-register vector sets, where the generic
    /// round spills. The scalar `u64` build is faster with the generic
    /// round (bench/NOTES.md, "Sixteen registers").
    const BY_ROWS: bool = false;

    unsafe fn zero() -> Self;
    unsafe fn splat(x: u64) -> Self;
    unsafe fn xor(a: Self, b: Self) -> Self;
    unsafe fn and(a: Self, b: Self) -> Self;
    unsafe fn xor3(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: same contract as the caller.
        unsafe { Self::xor(Self::xor(a, b), c) }
    }
    /// χ: `a ^ (!b & c)`.
    unsafe fn chi(a: Self, b: Self, c: Self) -> Self;
    /// Rotate every word left by `L` (`R` = 64 − `L`, for shift-based rotates).
    unsafe fn rotl<const L: i32, const R: i32>(a: Self) -> Self;
    /// Load N consecutive words.
    unsafe fn load(p: *const u64) -> Self;
    /// Store N consecutive words.
    unsafe fn store(self, p: *mut u64);
    /// XOR the first `words` 64-bit little-endian words found at `ptrs[j]`
    /// into word j of `state[0..words]` (a transposing load).
    /// Each `ptrs[j]` must be readable for `8 * words` bytes.
    unsafe fn absorb(state: &mut [Self; 25], ptrs: &[*const u8], words: usize);
    /// Keccak-p[1600] with an even round count by a dedicated
    /// register-allocated implementation (asm_avx512.rs), if this type has
    /// one; returns whether it ran.
    #[inline(always)]
    unsafe fn permute_even(_a: &mut [Self; 25], _rounds: usize) -> bool {
        false
    }
    /// `blocks` times: [`absorb`](Self::absorb) `words` words from each
    /// pointer, Keccak-p[1600] with `rounds` rounds, each pointer on by
    /// `8 * words` bytes; by a loop that keeps the states in registers
    /// throughout (asm_avx512.rs), if this type has one for this rate and
    /// round count; returns whether it ran. Each `ptrs[j]` must be
    /// readable for `blocks * 8 * words` bytes.
    #[inline(always)]
    unsafe fn absorb_run(
        _state: &mut [Self; 25],
        _ptrs: &[*const u8],
        _words: usize,
        _rounds: usize,
        _blocks: usize,
    ) -> bool {
        false
    }
}

/// π destination of each source lane: A[x, y] moves to (y, 2x + 3y).
const PI_DEST: [usize; 25] = {
    let mut d = [0usize; 25];
    let mut i = 0;
    while i < 25 {
        let (x, y) = (i % 5, i / 5);
        d[i] = y + 5 * ((2 * x + 3 * y) % 5);
        i += 1;
    }
    d
};

/// One round on N states.
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
unsafe fn round<V: Lanes>(a: &mut [V; 25], rc: u64) {
    // SAFETY: the caller guarantees V's instruction set is present.
    unsafe {
        let mut c = [V::zero(); 5];
        for x in 0..5 {
            c[x] = V::xor3(V::xor3(a[x], a[x + 5], a[x + 10]), a[x + 15], a[x + 20]);
        }
        // θ's effect on lane (x, y): c[x-1] ^ rotl1(c[x+1]).
        let mut r = [V::zero(); 5];
        for x in 0..5 {
            r[x] = V::rotl::<1, 63>(c[x]);
        }
        let mut d = [V::zero(); 5];
        if !V::FAST_XOR3 {
            for x in 0..5 {
                d[x] = V::xor(c[(x + 4) % 5], r[(x + 1) % 5]);
            }
        }
        let mut b = [V::zero(); 25];
        macro_rules! theta_rho_pi {
            ($($i:literal => $rot:literal),* $(,)?) => {$(
                let t = if V::FAST_XOR3 {
                    V::xor3(a[$i], c[($i % 5 + 4) % 5], r[($i % 5 + 1) % 5])
                } else {
                    V::xor(a[$i], d[$i % 5])
                };
                b[PI_DEST[$i]] = if $rot == 0 { t } else { V::rotl::<$rot, { 64 - $rot }>(t) };
            )*};
        }
        // ρ offsets (FIPS 202 Table 2, mod 64), lane x + 5y.
        theta_rho_pi!(
            0 => 0, 1 => 1, 2 => 62, 3 => 28, 4 => 27,
            5 => 36, 6 => 44, 7 => 6, 8 => 55, 9 => 20,
            10 => 3, 11 => 10, 12 => 43, 13 => 25, 14 => 39,
            15 => 41, 16 => 45, 17 => 15, 18 => 21, 19 => 8,
            20 => 18, 21 => 2, 22 => 61, 23 => 56, 24 => 14,
        );
        for y in 0..5 {
            for x in 0..5 {
                a[x + 5 * y] = V::chi(b[x + 5 * y], b[(x + 1) % 5 + 5 * y], b[(x + 2) % 5 + 5 * y]);
            }
        }
        a[0] = V::xor(a[0], V::splat(rc));
    }
}

/// One round read from `a` and written to `e`, one output row at a time
/// (θ's parities and D first, then per row of χ its five π sources through
/// θ's effect and ρ): the live set is D plus one row, so 16-register
/// instruction sets keep it in registers and read each lane from memory
/// where an operand is needed, instead of the generic round's ~55 values.
///
/// # Safety
/// The CPU must support `V`'s instruction set; `a` must be readable and `e`
/// writable for 25 vectors; they must not overlap.
#[inline(always)]
unsafe fn round_by_rows<V: Lanes>(a: *const V, e: *mut V, rc: u64) {
    // SAFETY: forwarded contract; every index is below 25.
    unsafe {
        let ld = |i: usize| a.add(i).read();
        let mut c = [V::zero(); 5];
        for x in 0..5 {
            c[x] = V::xor3(
                V::xor3(ld(x), ld(x + 5), ld(x + 10)),
                ld(x + 15),
                ld(x + 20),
            );
        }
        let mut d = [V::zero(); 5];
        for x in 0..5 {
            d[x] = V::xor(c[(x + 4) % 5], V::rotl::<1, 63>(c[(x + 1) % 5]));
        }
        // Per output row y: the source lane x + 5y' of each of its five
        // positions (π) with that lane's ρ offset (FIPS 202 Table 2).
        macro_rules! rows {
            ($($y:literal: [$($src:literal => $rot:literal),*]),* $(,)?) => {$(
                let row = [$({
                    let t = V::xor(ld($src), d[$src % 5]);
                    if $rot == 0 { t } else { V::rotl::<$rot, { 64 - $rot }>(t) }
                }),*];
                for x in 0..5 {
                    let mut out = V::chi(row[x], row[(x + 1) % 5], row[(x + 2) % 5]);
                    if $y == 0 && x == 0 {
                        out = V::xor(out, V::splat(rc));
                    }
                    e.add(x + 5 * $y).write(out);
                }
            )*};
        }
        rows!(
            0: [0 => 0, 6 => 44, 12 => 43, 18 => 21, 24 => 14],
            1: [3 => 28, 9 => 20, 10 => 3, 16 => 45, 22 => 61],
            2: [1 => 1, 7 => 6, 13 => 25, 19 => 8, 20 => 18],
            3: [4 => 27, 5 => 36, 11 => 10, 17 => 15, 23 => 56],
            4: [2 => 62, 8 => 55, 14 => 39, 15 => 41, 21 => 2],
        );
    }
}

/// Keccak-p[1600, rounds] with [`round_by_rows`], alternating between `a`
/// and a second array.
///
/// # Safety
/// The CPU must support `V`'s instruction set; `1 <= rounds <= 24`.
#[inline(always)]
unsafe fn permute_by_rows<V: Lanes>(a: &mut [V; 25], rounds: usize) {
    // SAFETY: forwarded contract.
    let mut e = [unsafe { V::zero() }; 25];
    // Hiding the two addresses keeps LLVM from promoting the arrays back
    // into ~50 SSA values (and spilling them): 1.10× on AVX2 ×4
    // (bench/NOTES.md, "Sixteen registers").
    let pa = core::hint::black_box(a.as_mut_ptr());
    let pe = core::hint::black_box(e.as_mut_ptr());
    let mut ir = 24 - rounds;
    // SAFETY: forwarded contract; `a` and `e` are distinct 25-vector arrays.
    unsafe {
        if rounds % 2 == 1 {
            round_by_rows(pa, pe, ROUND_CONSTANTS[ir]);
            core::ptr::copy_nonoverlapping(pe, pa, 25);
            ir += 1;
        }
        while ir < 24 {
            round_by_rows(pa, pe, ROUND_CONSTANTS[ir]);
            round_by_rows(pe, pa, ROUND_CONSTANTS[ir + 1]);
            ir += 2;
        }
    }
}

/// Keccak-p[1600, rounds] on N states held as 25 vectors.
///
/// # Safety
/// The CPU must support `V`'s instruction set; `1 <= rounds <= 24`.
#[inline(always)]
pub(crate) unsafe fn permute<V: Lanes>(a: &mut [V; 25], rounds: usize) {
    let mut ir = 24 - rounds;
    // SAFETY: forwarded contract.
    unsafe {
        if rounds.is_multiple_of(2) && V::permute_even(a, rounds) {
            return;
        }
        if V::BY_ROWS {
            return permute_by_rows(a, rounds);
        }
        if rounds % 2 == 1 {
            round(a, ROUND_CONSTANTS[ir]);
            ir += 1;
        }
        while ir < 24 {
            round(a, ROUND_CONSTANTS[ir]);
            round(a, ROUND_CONSTANTS[ir + 1]);
            ir += 2;
        }
    }
}

/// Permute `states` (at most `V::N` of them) through vectors of `V`.
///
/// # Safety
/// The CPU must support `V`'s instruction set; `1 <= rounds <= 24`.
#[inline(always)]
pub(crate) unsafe fn permute_states<V: Lanes>(states: &mut [State], rounds: usize) {
    debug_assert!(states.len() <= V::N && V::N <= 8);
    // Load through the engine's transposing load (absorbing into a zero
    // state): building the vectors from a scalar-written buffer instead
    // made every vector load miss store forwarding. The load reads
    // little-endian words, which are the native words on x86-64, the only
    // target with these vector types.
    static ZERO: State = [0; 25];
    let mut ptrs = [ZERO.as_ptr() as *const u8; 8];
    for (p, s) in ptrs.iter_mut().zip(states.iter()) {
        *p = s.as_ptr() as *const u8;
    }
    let mut buf = [[0u64; 8]; 25];
    // SAFETY: forwarded contract; every pointer is readable for 25 words;
    // each row of `buf` holds 8 ≥ N words.
    unsafe {
        let mut v = [V::zero(); 25];
        V::absorb(&mut v, &ptrs[..V::N], 25);
        permute(&mut v, rounds);
        for i in 0..25 {
            v[i].store(buf[i].as_mut_ptr());
        }
    }
    for (j, s) in states.iter_mut().enumerate() {
        for i in 0..25 {
            s[i] = buf[i][j];
        }
    }
}

/// Interleaved blocks for many states at once: for each round `t < rounds`
/// and each state `j`, the `block` bytes at
/// `data[((t * leaves) + first + j) * stride..]` are absorbed into state `j`
/// as `block / rate` rate-sized blocks, each followed by
/// Keccak-p[1600, `nr`]. `data` starts at the block of the call's first
/// state, so `first` is a piece's offset among the call's states.
///
/// Tree LI's leaves, whose blocks lie in the message one leaf after the
/// other, take `stride == block`. KT's first chunk and leaves take one round
/// with `stride` the chunk (8192 bytes) and `block` its whole rate blocks:
/// each state skips its chunk's last partial block, absorbed afterwards.
pub(crate) struct Interleaved<'a> {
    pub data: &'a [u8],
    /// Offset of the first state among the call's states.
    pub first: usize,
    /// Blocks from one round to the next, in `block`s.
    pub leaves: usize,
    /// Bytes a leaf takes per round: a multiple of `rate`.
    pub block: usize,
    /// Bytes from one state's block to the next, and the unit of `first`
    /// and `leaves`: at least `block`.
    pub stride: usize,
    /// Sponge rate in bytes: a multiple of 8, at most 200.
    pub rate: usize,
    pub rounds: usize,
    pub nr: usize,
}

/// With several lane groups, [`absorb_interleaved`] runs every group over
/// a window of rounds of about this many bytes before the next window, so
/// that the first group reads the window from memory and the others find
/// it in cache (bench/NOTES.md, "Tree LI: many lane groups"); one group
/// over all rounds, then the next, read the message once per group.
const WINDOW_BYTES: usize = 512 << 10;
/// At least this many rounds a window: each group's pass over a window
/// loads and stores its states once.
const MIN_WINDOW_ROUNDS: usize = 32;
/// A group's blocks of the round this many rounds ahead are prefetched:
/// a group reads `here` blocks and skips the other groups' ones, a pattern
/// the hardware prefetcher did not follow (same note).
const PREFETCH_ROUNDS: usize = 2;
/// Longer blocks are long sequential reads that the hardware prefetcher
/// follows by itself.
const PREFETCH_MAX_BLOCK: usize = 1024;

/// Ask for the cache lines of `len` bytes at `p` (a hint: no fault, no
/// effect on the result).
///
/// # Safety
/// `p..p + len` lies inside one allocation (the pointer arithmetic).
#[inline(always)]
unsafe fn prefetch_block(p: *const u8, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let mut off = 0;
        while off < len {
            // SAFETY: prefetching has no architectural effect; `p + off` is
            // inside the caller's allocation.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    p.add(off).cast(),
                );
            }
            off += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, len);
}

impl Interleaved<'_> {
    /// Rounds each of `groups` lane groups absorbs before the next group
    /// takes its turn: all of them for one group, else a window of about
    /// [`WINDOW_BYTES`] of the message.
    fn window_rounds(&self, groups: usize) -> usize {
        if groups <= 1 {
            return self.rounds.max(1);
        }
        let row = self.leaves.saturating_mul(self.stride).max(1);
        (WINDOW_BYTES / row).max(MIN_WINDOW_ROUNDS)
    }

    /// Whether the job is well formed for `states` states: the reads it
    /// makes all fall inside `data`.
    pub(crate) fn fits(&self, states: usize) -> bool {
        self.rate.is_multiple_of(8)
            && (8..=200).contains(&self.rate)
            && self.block.is_multiple_of(self.rate)
            && self.block > 0
            && self.stride >= self.block
            && (1..=24).contains(&self.nr)
            && (self.rounds == 0
                || states == 0
                || self
                    .leaves
                    .checked_mul(self.rounds - 1)
                    .and_then(|b| b.checked_add(self.first + states - 1))
                    .and_then(|b| b.checked_mul(self.stride))
                    .and_then(|b| b.checked_add(self.block))
                    .is_some_and(|n| n <= self.data.len()))
    }
}

/// [`Interleaved`] on `states` (200 bytes each, little-endian lanes), N at a
/// time through vectors of `V`.
///
/// # Safety
/// The CPU must support `V`'s instruction set; `job.fits(states.len() / 200)`
/// and `states.len()` is a multiple of 200.
#[inline(always)]
pub(crate) unsafe fn absorb_interleaved<V: Lanes>(states: &mut [u8], job: &Interleaved) {
    let n = V::N;
    let count = states.len() / 200;
    let groups = count.div_ceil(n);
    let window = job.window_rounds(groups);
    // One group with every leaf of the round reads whole rows, one after
    // the other: the hardware prefetcher follows that by itself. Several
    // groups, or a thread's share of the leaves, read a part of each row.
    let whole_rows = groups == 1 && count == job.leaves && job.stride == job.block;
    let prefetch = !whole_rows && job.block <= PREFETCH_MAX_BLOCK;
    let mut t0 = 0;
    while t0 < job.rounds {
        let t1 = (t0 + window).min(job.rounds);
        let mut g = 0;
        while g < count {
            let here = (count - g).min(n);
            // SAFETY: forwarded contract; states g..g + here of the call's
            // `count`, rounds t0..t1 of `job.rounds`.
            unsafe {
                absorb_group::<V>(
                    &mut states[g * 200..(g + here) * 200],
                    job,
                    g,
                    t0..t1,
                    prefetch,
                )
            };
            g += here;
        }
        t0 = t1;
    }
}

/// Rounds `rounds` of `job` into one lane group: the call's states
/// `g..g + states.len() / 200` (at most `V::N`), which `states` holds.
///
/// # Safety
/// As [`absorb_interleaved`], for the states `g..` of its call and rounds
/// within `job.rounds`.
#[inline(always)]
unsafe fn absorb_group<V: Lanes>(
    states: &mut [u8],
    job: &Interleaved,
    g: usize,
    rounds: core::ops::Range<usize>,
    prefetch: bool,
) {
    static ZEROS: [u8; 200] = [0; 200];
    let n = V::N;
    let here = states.len() / 200;
    let words = job.rate / 8;
    let mut ptrs = [ZEROS.as_ptr(); 8];
    for (j, p) in ptrs.iter_mut().enumerate().take(here) {
        *p = states[j * 200..].as_ptr();
    }
    // SAFETY: forwarded contract. State pointers cover 200 bytes each (25
    // words); every block pointer stays inside `data`: t < rounds, g + j <
    // count and s·rate + rate ≤ block, so a read ends at most at
    // ((rounds − 1)·leaves + first + count − 1)·stride + block ≤ data.len()
    // (`fits`), and so does a prefetch of round t + PREFETCH_ROUNDS <
    // rounds; idle lanes read ZEROS (200 ≥ rate bytes).
    unsafe {
        let mut v = [V::zero(); 25];
        V::absorb(&mut v, &ptrs[..n], 25);
        for t in rounds {
            let row = job
                .data
                .as_ptr()
                .add((t * job.leaves + job.first + g) * job.stride);
            if prefetch && t + PREFETCH_ROUNDS < job.rounds {
                let ahead = row.add(PREFETCH_ROUNDS * job.leaves * job.stride);
                for j in 0..here {
                    prefetch_block(ahead.add(j * job.stride), job.block);
                }
            }
            for (j, p) in ptrs.iter_mut().enumerate().take(here) {
                *p = row.add(j * job.stride);
            }
            // Every lane busy: the states may stay in registers for the
            // whole block (idle lanes read ZEROS, which is one block).
            let blocks = job.block / job.rate;
            if here < n || !V::absorb_run(&mut v, &ptrs[..n], words, job.nr, blocks) {
                let mut s = 0;
                while s < job.block {
                    for (j, p) in ptrs.iter_mut().enumerate().take(here) {
                        *p = row.add(j * job.stride + s);
                    }
                    V::absorb(&mut v, &ptrs[..n], words);
                    permute(&mut v, job.nr);
                    s += job.rate;
                }
            }
        }
        let mut buf = [[0u64; 8]; 25];
        for i in 0..25 {
            v[i].store(buf[i].as_mut_ptr());
        }
        for j in 0..here {
            let st = &mut states[j * 200..][..200];
            for (i, lane) in st.chunks_exact_mut(8).enumerate() {
                lane.copy_from_slice(&buf[i][j].to_le_bytes());
            }
        }
    }
}

/// Code generic over [`Lanes`] that the dispatcher compiles for each
/// instruction set (`dispatch::run_lanes_for`, `keccak_p1600_with`): the
/// body of `run` is `#[inline(always)]` code instantiated inside a
/// `#[target_feature]` function, so all of it is built for that set.
pub(crate) trait LanesKernel {
    type Output;
    /// # Safety
    /// The CPU must support `V`'s instruction set.
    unsafe fn run<V: Lanes>(self) -> Self::Output;
}

/// [`permute_states`] as a kernel: up to `V::N` states.
pub(crate) struct PermuteStates<'a> {
    pub states: &'a mut [State],
    pub rounds: usize,
}

impl LanesKernel for PermuteStates<'_> {
    type Output = ();
    #[inline(always)]
    unsafe fn run<V: Lanes>(self) {
        // SAFETY: forwarded contract; the dispatcher checked `rounds`.
        unsafe { permute_states::<V>(self.states, self.rounds) }
    }
}

/// [`absorb_interleaved`] as a kernel; the caller checked that the job
/// fits the states.
pub(crate) struct AbsorbInterleaved<'a, 'b> {
    pub states: &'a mut [u8],
    pub job: &'a Interleaved<'b>,
}

impl LanesKernel for AbsorbInterleaved<'_, '_> {
    type Output = ();
    #[inline(always)]
    unsafe fn run<V: Lanes>(self) {
        // SAFETY: forwarded contract; the job fits (caller).
        unsafe { absorb_interleaved::<V>(self.states, self.job) }
    }
}

/// A Keccak-p[1600] state from its little-endian bytes (200; the form
/// [`absorb_interleaved`] reads and writes).
pub(crate) fn state_from_bytes(bytes: &[u8]) -> State {
    core::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap()))
}

/// The first `out.len()` (≤ 200) little-endian bytes of a Keccak-p[1600]
/// state: all of it, or the start of the output (a chaining value).
pub(crate) fn state_to_bytes(state: &State, out: &mut [u8]) {
    for (w, bytes) in state.iter().zip(out.chunks_mut(8)) {
        bytes.copy_from_slice(&w.to_le_bytes()[..bytes.len()]);
    }
}
