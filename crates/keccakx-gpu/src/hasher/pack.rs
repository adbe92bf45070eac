//! Cutting a host-fed batch into chunks and packing a chunk's messages
//! into pinned staging on all cores (8-byte aligned offsets; the uniform
//! layout, with no index upload, when every message has the same length).

use std::ops::Range;

use keccakx::engine::LaneSpec;
use rayon::prelude::*;

use super::buffers::{ChunkPlan, HostBufs};
use crate::error::GpuError;
use crate::kernels::BatchJob;

/// Default bytes of message data per pipeline chunk (a chunk also takes at
/// least [`MIN_LAUNCH_MESSAGES`] messages, up to [`MAX_CHUNK_BYTES`]).
pub const DEFAULT_CHUNK_BYTES: usize = 32 << 20;
/// Messages a chunk takes at least (when they fit [`MAX_CHUNK_BYTES`]), so
/// that its kernel keeps up with the copies: n messages of L bytes take
/// n L / h2d to upload and at least (L / rate) one-thread permutation
/// latencies to hash, which is shorter once n > latency × h2d / rate:
/// 6.9 µs × 55 GB/s / 136 B ≈ 2,800 on the H200 (run 2). It was 100,000,
/// which made every 256 MiB call of 8 KiB KT leaves one chunk: packing,
/// copy and kernel in sequence, 21-32 GB/s host-fed (run 2).
pub const MIN_LAUNCH_MESSAGES: usize = 4096;
/// Most bytes of message data (or of output) in one chunk.
pub const MAX_CHUNK_BYTES: usize = 256 << 20;

/// Most messages per packing piece (one rayon task).
const PACK_PIECE: usize = 8192;
/// Packed bytes a piece aims at: a chunk of few long messages still spreads
/// over every core (with 8192 messages a piece, a 256 MiB chunk of 64 KiB
/// messages was one piece: one core packed at 7 GB/s on the H200 machine,
/// bench/results/gpu-h200-2026-11-27-run1.json).
const PACK_PIECE_BYTES: usize = 2 << 20;

/// `x` rounded up to a multiple of 8 (packed messages start 8-byte aligned).
pub(super) fn round8(x: usize) -> usize {
    (x + 7) & !7
}

/// Messages per block of the parallel planning pass.
const PLAN_BLOCK: usize = 1024;

/// Cut a batch into chunks: a chunk closes once it has at least
/// [`MIN_LAUNCH_MESSAGES`] messages and `chunk_bytes` packed bytes, or
/// before it would pass [`MAX_CHUNK_BYTES`] of data or of output; a message
/// larger than that gets a chunk of its own. Packed sizes are summed per
/// block of messages on all cores; the serial pass looks at single messages
/// only where a chunk may close inside a block.
pub(super) fn plan_chunks(
    inputs: &[&[u8]],
    out_len: usize,
    chunk_bytes: usize,
) -> Vec<Range<usize>> {
    plan_chunks_with(
        inputs,
        out_len,
        chunk_bytes,
        MIN_LAUNCH_MESSAGES,
        MAX_CHUNK_BYTES,
    )
}

fn plan_chunks_with(
    inputs: &[&[u8]],
    out_len: usize,
    chunk_bytes: usize,
    min_msgs: usize,
    max_bytes: usize,
) -> Vec<Range<usize>> {
    let max_bytes = max_bytes.max(chunk_bytes);
    let sums: Vec<usize> = inputs
        .par_chunks(PLAN_BLOCK)
        .map(|b| b.iter().map(|m| round8(m.len())).sum())
        .collect();
    let mut chunks = Vec::new();
    let (mut start, mut bytes) = (0usize, 0usize);
    let full = |count: usize, bytes: usize| count >= min_msgs && bytes >= chunk_bytes;
    for (k, &sb) in sums.iter().enumerate() {
        let first = k * PLAN_BLOCK;
        let end = (first + PLAN_BLOCK).min(inputs.len());
        let fits = bytes + sb <= max_bytes && (end - start) * out_len <= max_bytes;
        if fits && !full(end - start, bytes + sb) {
            bytes += sb;
            continue;
        }
        // A chunk closes inside this block: message by message.
        for (i, m) in inputs.iter().enumerate().take(end).skip(first) {
            let b = round8(m.len());
            if i > start && (bytes + b > max_bytes || (i - start + 1) * out_len > max_bytes) {
                chunks.push(start..i);
                start = i;
                bytes = 0;
            }
            bytes += b;
            if full(i + 1 - start, bytes) {
                chunks.push(start..i + 1);
                start = i + 1;
                bytes = 0;
            }
        }
    }
    if start < inputs.len() || chunks.is_empty() {
        chunks.push(start..inputs.len());
    }
    chunks
}

/// memcpy with several threads for big copies (pinned staging is filled at
/// memory bandwidth, not at one core's copy speed).
pub(super) fn copy_parallel(dst: &mut [u8], src: &[u8]) {
    const PIECE: usize = 1 << 20;
    if src.len() < 2 * PIECE {
        dst.copy_from_slice(src);
        return;
    }
    dst.par_chunks_mut(PIECE)
        .zip(src.par_chunks(PIECE))
        .for_each(|(d, s)| d.copy_from_slice(s));
}

/// Pack messages into a stage's host buffers on all cores: 8-byte aligned
/// offsets; the uniform layout (no index upload) when every message has the
/// same length. Pieces of equal message counts ([`piece_messages`]): their
/// packed sizes are summed in parallel, then each piece writes its bytes,
/// offsets and lengths into its own part of the buffers.
pub(super) fn pack_messages(
    host: &mut HostBufs,
    msgs: &[&[u8]],
    spec: &LaneSpec,
    out_len: u32,
) -> Result<ChunkPlan, GpuError> {
    let n = msgs.len();
    let piece = piece_messages(msgs);
    let sizes = piece_sizes(msgs, piece);
    let data_bytes: usize = sizes.iter().map(|s| s.0).sum();
    let lo = sizes.iter().map(|s| s.1).min().unwrap_or(0);
    let hi = sizes.iter().map(|s| s.2).max().unwrap_or(0);
    let uniform = lo == hi;
    let mut job = BatchJob {
        n: n as u64,
        rate: spec.rate_bytes as u32,
        suffix: spec.delimited_suffix as u32,
        out_len,
        rounds: spec.rounds as u32,
        ..BatchJob::default()
    };
    host.h_in.reserve(data_bytes, true)?;
    let idx = if uniform {
        job.stride = round8(lo) as u64;
        job.msg_len = lo as u64;
        None
    } else {
        host.h_idx.reserve(16 * n, true)?;
        Some(&mut host.h_idx.as_mut_slice()[..16 * n])
    };
    pack_into(
        &mut host.h_in.as_mut_slice()[..data_bytes],
        idx,
        msgs,
        piece,
        &sizes,
    );
    Ok(ChunkPlan {
        data_bytes,
        indexed: !uniform,
        job,
        aligned8: true,
        direct: None,
    })
}

/// Messages per packing piece for `msgs`: about [`PACK_PIECE_BYTES`] of
/// packed data at their mean length, from 1 to [`PACK_PIECE`].
fn piece_messages(msgs: &[&[u8]]) -> usize {
    let total: usize = msgs
        .par_chunks(PACK_PIECE)
        .map(|p| p.iter().map(|m| round8(m.len())).sum::<usize>())
        .sum();
    let mean = total.div_ceil(msgs.len().max(1)).max(1);
    (PACK_PIECE_BYTES / mean).clamp(1, PACK_PIECE)
}

/// Per piece of `piece` messages: packed bytes, shortest and longest length.
fn piece_sizes(msgs: &[&[u8]], piece: usize) -> Vec<(usize, usize, usize)> {
    msgs.par_chunks(piece)
        .map(|p| {
            p.iter().fold((0, usize::MAX, 0), |(b, lo, hi), m| {
                (b + round8(m.len()), lo.min(m.len()), hi.max(m.len()))
            })
        })
        .collect()
}

/// Write `msgs` at 8-byte aligned offsets into `data` (exactly their packed
/// size) and, if given, n u64 offsets then n u64 lengths into `idx`, each
/// piece of messages on its own thread.
fn pack_into(
    data: &mut [u8],
    idx: Option<&mut [u8]>,
    msgs: &[&[u8]],
    piece: usize,
    sizes: &[(usize, usize, usize)],
) {
    let n = msgs.len();
    let mut data_parts = Vec::with_capacity(sizes.len());
    let mut bases = Vec::with_capacity(sizes.len());
    let (mut rest, mut pos) = (data, 0usize);
    for s in sizes {
        let (mine, tail) = rest.split_at_mut(s.0);
        data_parts.push(mine);
        bases.push(pos);
        rest = tail;
        pos += s.0;
    }
    type Parts<'b> = Vec<Option<&'b mut [u8]>>;
    let (offs, lens): (Parts<'_>, Parts<'_>) = match idx {
        Some(idx) => {
            let (o, l) = idx.split_at_mut(8 * n);
            (
                o.chunks_mut(8 * piece).map(Some).collect(),
                l.chunks_mut(8 * piece).map(Some).collect(),
            )
        }
        None => (
            (0..sizes.len()).map(|_| None).collect(),
            (0..sizes.len()).map(|_| None).collect(),
        ),
    };
    let work: Vec<_> = msgs
        .chunks(piece)
        .zip(data_parts)
        .zip(bases)
        .zip(offs.into_iter().zip(lens))
        .collect();
    work.into_par_iter().for_each(|(((m, d), base), (o, l))| {
        let mut at = 0usize;
        for msg in m {
            if msg.len() >= 1 << 20 {
                copy_parallel(&mut d[at..at + msg.len()], msg);
            } else {
                d[at..at + msg.len()].copy_from_slice(msg);
            }
            at += round8(msg.len());
        }
        if let (Some(o), Some(l)) = (o, l) {
            let mut at = base;
            for (k, msg) in m.iter().enumerate() {
                o[8 * k..8 * k + 8].copy_from_slice(&(at as u64).to_le_bytes());
                l[8 * k..8 * k + 8].copy_from_slice(&(msg.len() as u64).to_le_bytes());
                at += round8(msg.len());
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_batch_in_order() {
        let data = vec![0u8; 1000];
        let msgs: Vec<&[u8]> = (0..5000).map(|i| &data[..(i * 7) % 300]).collect();
        for (target, min, max) in [
            (64usize, 1usize, 64usize),
            (1000, 1, 5000),
            (5000, 300, 20000),
            (1 << 20, 100_000, 1 << 20),
            (4096, 2000, 1 << 30),
        ] {
            let ch = plan_chunks_with(&msgs, 32, target, min, max);
            assert_eq!(ch.first().unwrap().start, 0);
            assert_eq!(ch.last().unwrap().end, msgs.len());
            for w in ch.windows(2) {
                assert_eq!(w[0].end, w[1].start);
            }
            for (k, r) in ch.iter().enumerate() {
                assert!(!r.is_empty());
                let bytes: usize = msgs[r.clone()].iter().map(|m| round8(m.len())).sum();
                assert!(
                    r.len() == 1 || bytes <= max.max(target),
                    "chunk over the cap"
                );
                assert!(
                    r.len() == 1 || r.len() * 32 <= max.max(target),
                    "output over the cap"
                );
                // Every chunk but the last is full, or stopped by a cap.
                if k + 1 < ch.len() {
                    let next = round8(msgs[r.end].len());
                    assert!(
                        (r.len() >= min && bytes >= target)
                            || bytes + next > max.max(target)
                            || (r.len() + 1) * 32 > max.max(target),
                        "chunk {k} closed early: {r:?} {bytes}"
                    );
                }
            }
        }
        // A huge message has a chunk of its own; many tiny ones share one.
        let big = vec![0u8; 3000];
        let mixed: Vec<&[u8]> = vec![&data[..10], &big, &data[..10]];
        let ch = plan_chunks_with(&mixed, 32, 64, 1, 1000);
        assert_eq!(ch, vec![0..1, 1..2, 2..3]);
        let tiny: Vec<&[u8]> = vec![&data[..1]; 300_000];
        assert_eq!(plan_chunks(&tiny, 32, DEFAULT_CHUNK_BYTES).len(), 1);
    }

    #[test]
    fn packing_places_every_message_and_index() {
        let src: Vec<u8> = (0..(20usize << 20)).map(|i| (i % 251) as u8).collect();
        for shape in 0..4 {
            let msgs: Vec<&[u8]> = match shape {
                0 => src.chunks(12345).collect(),
                1 => (0..30_000).map(|i| &src[i..i + (i * 13) % 200]).collect(),
                2 => src.chunks(64 << 10).collect(),
                _ => vec![&src[..3 << 20], &src[5..6], &src[7..(7 + (2 << 20))]],
            };
            let auto = piece_messages(&msgs);
            assert!((1..=PACK_PIECE).contains(&auto));
            if shape == 2 {
                // Few long messages still make many pieces.
                assert_eq!(auto, PACK_PIECE_BYTES / (64 << 10));
            }
            for piece in [auto, 1, 7, PACK_PIECE] {
                let sizes = piece_sizes(&msgs, piece);
                let total: usize = sizes.iter().map(|s| s.0).sum();
                let mut dst = vec![0u8; total];
                let mut idx = vec![0u8; 16 * msgs.len()];
                pack_into(&mut dst, Some(&mut idx), &msgs, piece, &sizes);
                let n = msgs.len();
                let mut pos = 0;
                for (k, m) in msgs.iter().enumerate() {
                    let o = u64::from_le_bytes(idx[8 * k..8 * k + 8].try_into().unwrap()) as usize;
                    let l =
                        u64::from_le_bytes(idx[8 * (n + k)..8 * (n + k) + 8].try_into().unwrap())
                            as usize;
                    assert_eq!(
                        (o, l),
                        (pos, m.len()),
                        "shape {shape} piece {piece} message {k}"
                    );
                    assert_eq!(&dst[o..o + l], *m);
                    pos += round8(m.len());
                }
            }
        }
    }
}
