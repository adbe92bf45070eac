//! The sponge construction Keccak[r, c] on any width (FIPS 202 §4).
//!
//! Two cores share one state layout ([`State`], lanes of w bits):
//! - [`ByteSponge`]: width 1600 with a byte-aligned rate, on the fast
//!   permutation. Every standardized function runs here.
//! - [`BitSponge`]: the golden model, bit by bit on the generic permutation;
//!   any width, any rate in bits, any bit-length input.
//!
//! [`Sponge`] picks the core and moves from fast to golden mid-stream if a
//! caller feeds a non-byte-aligned piece before more data.

use alloc::vec;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::permutation::{self, keccak_p1600, State};

/// Domain-separation bits appended to the message before pad10*1, LSB first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Suffix {
    /// The bits, first one in bit 0.
    pub bits: u8,
    /// How many bits (0..=7).
    pub len: u8,
}

impl Suffix {
    /// No suffix: the plain Keccak[r, c] sponge (and the original Keccak-n).
    pub const NONE: Suffix = Suffix { bits: 0, len: 0 };
    /// SHA3-n: the bits 01.
    pub const SHA3: Suffix = Suffix { bits: 0b10, len: 2 };
    /// SHAKE: the bits 1111.
    pub const SHAKE: Suffix = Suffix {
        bits: 0b1111,
        len: 4,
    };
    /// cSHAKE: the bits 00.
    pub const CSHAKE: Suffix = Suffix { bits: 0b00, len: 2 };

    /// From an XKCP-style delimited suffix byte: the suffix bits followed by
    /// a 1 (e.g. 0x06 for SHA3, 0x1F for SHAKE, 0x01 for none). 0 is invalid.
    pub fn from_delimited(d: u8) -> Result<Suffix> {
        if d == 0 {
            return Err(Error::InvalidParameter(
                "delimited suffix 0x00 is invalid: it must end with a 1 bit",
            ));
        }
        let len = 7 - d.leading_zeros() as u8;
        Ok(Suffix {
            bits: d & ((1u16 << len) - 1) as u8,
            len,
        })
    }

    /// The suffix bits followed by the first padding bit, as one byte.
    pub const fn delimited(self) -> u8 {
        self.bits | (1 << self.len)
    }

    fn check(self) -> Result<()> {
        if self.len > 7 || (self.len < 8 && self.bits >> self.len != 0) {
            return Err(Error::InvalidSuffix { len: self.len });
        }
        Ok(())
    }
}

/// Parameters of Keccak[r, c] on Keccak-p[b, nr] with a domain suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SpongeParams {
    width: usize,
    rate: usize,
    rounds: usize,
    suffix: Suffix,
}

impl SpongeParams {
    /// Width b and rate r in bits, round count nr, suffix bits.
    pub fn new(width: usize, rate_bits: usize, rounds: usize, suffix: Suffix) -> Result<Self> {
        permutation::check_params(width, rounds)?;
        if rate_bits == 0 || rate_bits >= width {
            return Err(Error::InvalidRate {
                width,
                rate: rate_bits,
            });
        }
        suffix.check()?;
        Ok(SpongeParams {
            width,
            rate: rate_bits,
            rounds,
            suffix,
        })
    }

    /// Keccak[r, c]: width r + c, full rounds, no suffix.
    pub fn keccak(rate_bits: usize, capacity_bits: usize) -> Result<Self> {
        let width = rate_bits + capacity_bits;
        Self::new(
            width,
            rate_bits,
            permutation::max_rounds(width)?,
            Suffix::NONE,
        )
    }

    /// Width 1600, byte rate, known-good constants (the standardized functions).
    pub(crate) const fn fixed1600(rate_bytes: usize, rounds: usize, suffix: Suffix) -> Self {
        SpongeParams {
            width: 1600,
            rate: rate_bytes * 8,
            rounds,
            suffix,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }
    pub fn rate_bits(&self) -> usize {
        self.rate
    }
    pub fn capacity(&self) -> usize {
        self.width - self.rate
    }
    pub fn rounds(&self) -> usize {
        self.rounds
    }
    pub fn suffix(&self) -> Suffix {
        self.suffix
    }
    /// Whether the fast byte-oriented core applies.
    pub fn is_fast(&self) -> bool {
        self.width == 1600 && self.rate.is_multiple_of(8)
    }
}

// ---------------------------------------------------------------------------
// Fast core: width 1600, byte-aligned rate.

/// XOR `data` into the state's byte view starting at byte `offset`.
#[inline]
fn xor_bytes(state: &mut State, offset: usize, data: &[u8]) {
    let mut i = offset;
    let mut data = data;
    // Leading bytes up to a lane boundary.
    while !i.is_multiple_of(8) && !data.is_empty() {
        state[i / 8] ^= (data[0] as u64) << (8 * (i % 8));
        data = &data[1..];
        i += 1;
    }
    let mut lanes = data.chunks_exact(8);
    for chunk in &mut lanes {
        state[i / 8] ^= u64::from_le_bytes(chunk.try_into().unwrap());
        i += 8;
    }
    for &b in lanes.remainder() {
        state[i / 8] ^= (b as u64) << (8 * (i % 8));
        i += 1;
    }
}

/// Copy the state's bytes `offset..offset + out.len()` into `out`.
#[inline]
fn extract_bytes(state: &State, offset: usize, out: &mut [u8]) {
    let mut i = offset;
    let mut out = out;
    while !i.is_multiple_of(8) && !out.is_empty() {
        out[0] = (state[i / 8] >> (8 * (i % 8))) as u8;
        out = &mut out[1..];
        i += 1;
    }
    let mut lanes = out.chunks_exact_mut(8);
    for chunk in &mut lanes {
        chunk.copy_from_slice(&state[i / 8].to_le_bytes());
        i += 8;
    }
    for b in lanes.into_remainder() {
        *b = (state[i / 8] >> (8 * (i % 8))) as u8;
        i += 1;
    }
}

/// Keccak[r, c] on Keccak-p[1600, nr] with r a whole number of bytes.
/// Absorbs, then (after [`ByteSponge::pad`]) squeezes.
#[derive(Clone)]
pub struct ByteSponge {
    state: State,
    rate: usize,
    rounds: usize,
    pos: usize,
}

impl ByteSponge {
    /// `rate_bytes` in 1..200, `rounds` in 1..=24 (validated by callers).
    pub const fn new(rate_bytes: usize, rounds: usize) -> Self {
        ByteSponge {
            state: [0; 25],
            rate: rate_bytes,
            rounds,
            pos: 0,
        }
    }

    pub fn rate(&self) -> usize {
        self.rate
    }

    /// The state, when a whole number of blocks has been absorbed (no
    /// partial block pending): for callers that absorb whole blocks into
    /// many sponges at once (streaming tree LI).
    pub(crate) fn block_aligned_state(&mut self) -> Option<&mut State> {
        (self.pos == 0).then_some(&mut self.state)
    }

    /// A sponge holding `state` after a whole number of absorbed blocks
    /// (the inverse of [`block_aligned_state`](Self::block_aligned_state)):
    /// for states absorbed side by side in SIMD lanes (KT's first chunk).
    pub(crate) fn from_block_aligned(state: State, rate_bytes: usize, rounds: usize) -> Self {
        ByteSponge {
            state,
            rate: rate_bytes,
            rounds,
            pos: 0,
        }
    }

    /// Bytes absorbed (or squeezed) in the current block.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The lanes, rate, rounds and position, for portable states.
    pub(crate) fn raw(&self) -> (State, usize, usize, usize) {
        (self.state, self.rate, self.rounds, self.pos)
    }

    /// Set the lanes and position (portable states; `pos <= rate`
    /// checked by the caller).
    pub(crate) fn set_raw(&mut self, state: State, pos: usize) {
        self.state = state;
        self.pos = pos;
    }

    #[inline]
    fn permute(&mut self) {
        keccak_p1600(&mut self.state, self.rounds);
    }

    /// Absorb bytes (any length, any number of calls).
    pub fn absorb(&mut self, mut data: &[u8]) {
        if self.pos > 0 {
            let take = (self.rate - self.pos).min(data.len());
            xor_bytes(&mut self.state, self.pos, &data[..take]);
            self.pos += take;
            data = &data[take..];
            if self.pos < self.rate {
                return;
            }
            self.permute();
            self.pos = 0;
        }
        let fused =
            crate::permutation::absorb_blocks(&mut self.state, data, self.rate, self.rounds);
        data = &data[fused..];
        while data.len() >= self.rate {
            xor_bytes(&mut self.state, 0, &data[..self.rate]);
            self.permute();
            data = &data[self.rate..];
        }
        xor_bytes(&mut self.state, 0, data);
        self.pos = data.len();
    }

    /// End absorbing: `tail` holds `tail_len` bits (1..=16) to append, the
    /// last of which is the first padding 1 (message bits, suffix, then 1);
    /// then the rest of pad10*1. Leaves the sponge ready to squeeze.
    pub fn pad(&mut self, tail: u32, tail_len: u32) {
        debug_assert!((1..=16).contains(&tail_len) && tail >> (tail_len - 1) == 1);
        let (mut bits, mut n) = (tail, tail_len);
        loop {
            xor_bytes(&mut self.state, self.pos, &[bits as u8]);
            if n <= 8 {
                // The first padding 1 sits on the block's last bit: the
                // closing 1 of pad10*1 needs a block of its own.
                if self.pos == self.rate - 1 && n == 8 {
                    self.permute();
                }
                break;
            }
            bits >>= 8;
            n -= 8;
            self.pos += 1;
            if self.pos == self.rate {
                self.permute();
                self.pos = 0;
            }
        }
        self.state[(self.rate - 1) / 8] ^= 0x80u64 << (8 * ((self.rate - 1) % 8));
        self.permute();
        self.pos = 0;
    }

    /// Pad with a delimited suffix byte (0x06 SHA3, 0x1F SHAKE, ...).
    #[inline]
    pub fn pad_delimited(&mut self, delimited: u8) {
        self.pad(delimited as u32, 8 - delimited.leading_zeros());
    }

    /// Squeeze bytes after [`pad`](Self::pad); call any number of times.
    pub fn squeeze(&mut self, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.pos == self.rate {
                self.permute();
                self.pos = 0;
            }
            let take = (self.rate - self.pos).min(out.len());
            extract_bytes(&self.state, self.pos, &mut out[..take]);
            self.pos += take;
            out = &mut out[take..];
        }
    }
}

// ---------------------------------------------------------------------------
// Golden core: any width, rate in bits, bit-level input.

/// The golden sponge: one bit at a time, straight from FIPS 202 §4.
#[derive(Clone)]
pub struct BitSponge {
    params: SpongeParams,
    state: State,
    pos: usize,
}

impl BitSponge {
    pub fn new(params: SpongeParams) -> Self {
        BitSponge {
            params,
            state: [0; 25],
            pos: 0,
        }
    }

    fn lane_bits(&self) -> usize {
        self.params.width / 25
    }

    fn permute(&mut self) {
        permutation::keccak_p(&mut self.state, self.params.width, self.params.rounds);
    }

    fn absorb_bit(&mut self, bit: u8) {
        let w = self.lane_bits();
        self.state[self.pos / w] ^= ((bit & 1) as u64) << (self.pos % w);
        self.pos += 1;
        if self.pos == self.params.rate {
            self.permute();
            self.pos = 0;
        }
    }

    /// Absorb the first `nbits` bits of `data` (bit i = bit i%8 of byte i/8).
    pub fn absorb_bits(&mut self, data: &[u8], nbits: usize) {
        for i in 0..nbits {
            self.absorb_bit(data[i / 8] >> (i % 8));
        }
    }

    /// Append the suffix and pad10*1; afterwards squeeze.
    pub fn pad(&mut self) {
        let s = self.params.suffix;
        for i in 0..s.len {
            self.absorb_bit(s.bits >> i);
        }
        self.absorb_bit(1);
        while self.pos != self.params.rate - 1 {
            self.absorb_bit(0);
        }
        self.absorb_bit(1); // permutes
    }

    fn squeeze_bit(&mut self) -> u8 {
        if self.pos == self.params.rate {
            self.permute();
            self.pos = 0;
        }
        let w = self.lane_bits();
        let bit = (self.state[self.pos / w] >> (self.pos % w)) as u8 & 1;
        self.pos += 1;
        bit
    }

    /// Squeeze `nbits` bits into `out`, packed LSB first; unused high bits
    /// of the last byte are zero.
    pub fn squeeze_bits(&mut self, out: &mut [u8], nbits: usize) {
        for b in out.iter_mut() {
            *b = 0;
        }
        for i in 0..nbits {
            out[i / 8] |= self.squeeze_bit() << (i % 8);
        }
    }
}

/// The golden model in one call: Keccak[r, c] with the params' suffix over
/// the first `msg_bits` bits of `msg`, `out_bits` bits of output.
pub fn golden_sponge(
    params: &SpongeParams,
    msg: &[u8],
    msg_bits: usize,
    out_bits: usize,
) -> Vec<u8> {
    let mut s = BitSponge::new(*params);
    s.absorb_bits(msg, msg_bits);
    s.pad();
    let mut out = vec![0u8; out_bits.div_ceil(8)];
    s.squeeze_bits(&mut out, out_bits);
    out
}

// ---------------------------------------------------------------------------
// The user-facing sponge.

#[derive(Clone)]
enum Core {
    Fast(ByteSponge),
    Golden(BitSponge),
}

/// Incremental Keccak[r, c] with any parameters: `update` in any pieces,
/// `clone` to fork, finalize into an output of any length.
#[derive(Clone)]
pub struct Sponge {
    params: SpongeParams,
    core: Core,
    /// Trailing message bits (value, count 1..=7) not yet absorbed by the
    /// fast core: kept back so a bit-length message ending stays fast.
    pending: Option<(u8, u8)>,
}

/// A [`Sponge`] or [`XofReader`] in portable form: which core, its lanes,
/// its position (bytes in the fast core, bits in the golden one), and the
/// message bits held back (fast core only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawSponge {
    pub golden: bool,
    pub lanes: State,
    pub pos: usize,
    pub pending: Option<(u8, u8)>,
}

impl Core {
    fn raw(&self) -> RawSponge {
        match self {
            Core::Fast(f) => RawSponge {
                golden: false,
                lanes: f.state,
                pos: f.pos,
                pending: None,
            },
            Core::Golden(g) => RawSponge {
                golden: true,
                lanes: g.state,
                pos: g.pos,
                pending: None,
            },
        }
    }

    /// Set from `r`; false when `r` does not fit this core.
    fn set_raw(&mut self, r: &RawSponge, rate_bits: usize) -> bool {
        match self {
            Core::Fast(f) if !r.golden && r.pos <= f.rate => {
                f.state = r.lanes;
                f.pos = r.pos;
                true
            }
            Core::Golden(g) if r.golden && r.pos <= rate_bits => {
                g.state = r.lanes;
                g.pos = r.pos;
                true
            }
            _ => false,
        }
    }
}

impl Sponge {
    /// The portable form.
    pub(crate) fn raw(&self) -> RawSponge {
        RawSponge {
            pending: self.pending,
            ..self.core.raw()
        }
    }

    /// Restore a portable form taken from a sponge of the same parameters;
    /// false (nothing changed) when it cannot be one.
    pub(crate) fn set_raw(&mut self, r: &RawSponge) -> bool {
        // A golden core is where a fast one goes after a partial byte.
        if r.golden && !matches!(self.core, Core::Golden(_)) {
            self.core = Core::Golden(BitSponge::new(self.params));
        }
        if r.pending
            .is_some_and(|(b, n)| r.golden || n == 0 || n > 7 || b >> n != 0)
        {
            return false;
        }
        if !self.core.set_raw(r, self.params.rate) {
            return false;
        }
        self.pending = r.pending;
        true
    }

    pub fn new(params: SpongeParams) -> Self {
        let core = if params.is_fast() {
            Core::Fast(ByteSponge::new(params.rate / 8, params.rounds))
        } else {
            Core::Golden(BitSponge::new(params))
        };
        Sponge {
            params,
            core,
            pending: None,
        }
    }

    /// Always the golden bit-level core, whatever the parameters (for tests).
    pub fn new_golden(params: SpongeParams) -> Self {
        Sponge {
            params,
            core: Core::Golden(BitSponge::new(params)),
            pending: None,
        }
    }

    pub fn params(&self) -> &SpongeParams {
        &self.params
    }

    /// Fast core into golden core: same state, position counted in bits.
    fn switch_to_golden(&mut self) {
        if let Core::Fast(f) = &self.core {
            let mut g = BitSponge::new(self.params);
            g.state = f.state;
            g.pos = f.pos * 8;
            self.core = Core::Golden(g);
        }
        if let Some((bits, n)) = self.pending.take() {
            if let Core::Golden(g) = &mut self.core {
                g.absorb_bits(&[bits], n as usize);
            }
        }
    }

    pub fn update(&mut self, data: &[u8]) {
        if self.pending.is_some() {
            self.switch_to_golden();
        }
        match &mut self.core {
            Core::Fast(f) => f.absorb(data),
            Core::Golden(g) => g.absorb_bits(data, data.len() * 8),
        }
    }

    /// Absorb the first `nbits` bits of `data` (FIPS 202 bit order).
    /// Errors if `data` is shorter than `nbits` bits.
    pub fn update_bits(&mut self, data: &[u8], nbits: usize) -> Result<()> {
        if nbits > data.len() * 8 {
            return Err(Error::InvalidParameter(
                "update_bits: fewer bytes than bits requested",
            ));
        }
        let whole = nbits / 8;
        self.update(&data[..whole]);
        let rest = (nbits % 8) as u8;
        if rest != 0 {
            let bits = data[whole] & ((1u8 << rest) - 1);
            match &mut self.core {
                Core::Fast(_) => self.pending = Some((bits, rest)),
                Core::Golden(g) => g.absorb_bits(&[bits], rest as usize),
            }
        }
        Ok(())
    }

    /// End absorbing and return a reader for any amount of output.
    pub fn finalize_xof(self) -> XofReader {
        let suffix = self.params.suffix;
        let core = match self.core {
            Core::Fast(mut f) => {
                let (bits, n) = self.pending.unwrap_or((0, 0));
                let tail = bits as u32 | (suffix.delimited() as u32) << n;
                f.pad(tail, n as u32 + suffix.len as u32 + 1);
                Core::Fast(f)
            }
            Core::Golden(mut g) => {
                g.pad();
                Core::Golden(g)
            }
        };
        XofReader { core }
    }

    /// Finalize into `out` (any length).
    pub fn finalize_into(self, out: &mut [u8]) {
        self.finalize_xof().read(out)
    }
}

/// The squeezing phase: read output in pieces of any size; the bytes are the
/// same as one read of their total length.
#[derive(Clone)]
pub struct XofReader {
    core: Core,
}

impl XofReader {
    /// The portable form.
    pub(crate) fn raw(&self) -> RawSponge {
        self.core.raw()
    }

    /// Restore a portable form taken from a reader of the same function;
    /// false (nothing changed) when it cannot be one.
    pub(crate) fn set_raw(&mut self, r: &RawSponge, rate_bits: usize) -> bool {
        if r.golden {
            if let Core::Fast(f) = &self.core {
                let mut g = BitSponge::new(SpongeParams {
                    width: 1600,
                    rate: f.rate * 8,
                    rounds: f.rounds,
                    suffix: Suffix { bits: 0, len: 0 },
                });
                g.pos = 0;
                self.core = Core::Golden(g);
            }
        }
        r.pending.is_none() && self.core.set_raw(r, rate_bits)
    }

    pub(crate) fn from_byte_sponge(s: ByteSponge) -> Self {
        XofReader {
            core: Core::Fast(s),
        }
    }

    pub fn read(&mut self, out: &mut [u8]) {
        match &mut self.core {
            Core::Fast(f) => f.squeeze(out),
            Core::Golden(g) => {
                for b in out.iter_mut() {
                    let mut v = 0u8;
                    for i in 0..8 {
                        v |= g.squeeze_bit() << i;
                    }
                    *b = v;
                }
            }
        }
    }

    /// Read `n` bytes into a new vector.
    pub fn read_vec(&mut self, n: usize) -> Vec<u8> {
        let mut v = vec![0u8; n];
        self.read(&mut v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delimited_roundtrip() {
        for d in 1u8..=255 {
            assert_eq!(Suffix::from_delimited(d).unwrap().delimited(), d);
        }
        assert!(Suffix::from_delimited(0).is_err());
        assert_eq!(Suffix::from_delimited(0x06).unwrap(), Suffix::SHA3);
        assert_eq!(Suffix::from_delimited(0x1F).unwrap(), Suffix::SHAKE);
    }

    #[test]
    fn fast_equals_golden_at_rate_edges() {
        // SHA3-256 shape and an odd byte rate, every length around the rate,
        // bit-length tails included.
        for (rate, suffix) in [
            (136usize, Suffix::SHA3),
            (125, Suffix::NONE),
            (168, Suffix::SHAKE),
        ] {
            let p = SpongeParams::new(1600, rate * 8, 24, suffix).unwrap();
            let msg: Vec<u8> = (0..3 * rate + 3).map(|i| (i * 7 + 3) as u8).collect();
            for len_bits in
                (0..=(2 * rate + 2) * 8).filter(|b| b % 8 == 0 || b % 53 == 0 || b / 8 + 1 >= rate)
            {
                let mut s = Sponge::new(p);
                s.update_bits(&msg, len_bits).unwrap();
                let mut out = vec![0u8; rate + 9];
                s.finalize_into(&mut out);
                assert_eq!(
                    out,
                    golden_sponge(&p, &msg, len_bits, out.len() * 8),
                    "rate {rate} bits {len_bits}"
                );
            }
        }
    }

    #[test]
    fn update_after_partial_byte_switches_to_golden() {
        let p = SpongeParams::new(1600, 1088, 24, Suffix::SHA3).unwrap();
        let msg = [0xA5u8; 300];
        let mut s = Sponge::new(p);
        s.update_bits(&msg, 13).unwrap();
        s.update_bits(&msg[2..], 2000).unwrap();
        // The same bit string absorbed at once by the golden model.
        let mut bits = alloc::vec::Vec::new();
        let mut n = 0usize;
        let mut push = |data: &[u8], k: usize| {
            for i in 0..k {
                if n.is_multiple_of(8) {
                    bits.push(0u8);
                }
                bits[n / 8] |= ((data[i / 8] >> (i % 8)) & 1) << (n % 8);
                n += 1;
            }
        };
        push(&msg, 13);
        push(&msg[2..], 2000);
        let mut out = [0u8; 32];
        s.finalize_into(&mut out);
        assert_eq!(out.to_vec(), golden_sponge(&p, &bits, n, 256));
    }
}
