//! How device-resident leaves are cut into launches ([`leaf_groups`]) and
//! the two-buffer loop that runs them ([`run_leaf_groups`]): group g + 1
//! is queued on the GPU before the CPU hands group g's chaining values to
//! the mode's sink (KT's final node), so the serial final node overlaps
//! the leaves. No CUDA here: the loop is driven through [`GroupRunner`],
//! which `leaves.rs` implements with kernels, copies and events, and the
//! tests below with the CPU, so the grouping is checked without a GPU.
//!
//! The first group is small ([`FIRST_GROUP_LEAVES`]): the final node starts
//! after one short launch instead of after the first quarter (or all) of
//! the input. Each group then doubles, up to [`MAX_GROUP_LEAVES`]: the final
//! node absorbs a group's values (one permutation per 168 bytes of them)
//! in about four times the GPU's time for the same leaves, so a group of
//! twice the leaves is still ready before the sink wants it.

use std::ops::Range;
use std::time::Instant;

use crate::error::GpuError;

/// Leaves of the first launch (64 MiB of KT leaves).
pub const FIRST_GROUP_LEAVES: u64 = 1 << 13;
/// Leaves of a launch at most (2 GiB of KT leaves; 2^18 threads fill an
/// H100's 132 SMs at 2048 threads each).
pub const MAX_GROUP_LEAVES: u64 = 1 << 18;

/// The leaf ranges, in order, that `count` leaves are hashed in: `first`
/// leaves, then twice as many each time up to `max`, the rest in the last.
pub fn leaf_groups(count: u64, first: u64, max: u64) -> Vec<Range<u64>> {
    let mut v = Vec::new();
    let (mut at, mut size) = (0u64, first.max(1).min(max.max(1)));
    while at < count {
        let n = size.min(count - at);
        v.push(at..at + n);
        at += n;
        size = (size * 2).min(max.max(1));
    }
    v
}

/// Where the time of the last device-resident leaf job went.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LeavesStats {
    /// Launches (groups) and leaves.
    pub groups: usize,
    pub leaves: u64,
    /// The kernels' time, summed over the groups (CUDA events around each
    /// launch).
    pub kernel_s: f64,
    /// The CPU's time in the mode's sink (the final node absorbing the
    /// chaining values), summed.
    pub sink_s: f64,
    /// From the first launch queued to the last value absorbed.
    pub wall_s: f64,
    /// From the first launch queued until its values reached the sink (when
    /// the final node could start).
    pub first_ready_s: f64,
}

/// The device side of [`run_leaf_groups`]: two output buffers, used in
/// turn (group g in buffer g % 2).
pub trait GroupRunner {
    /// Queue the hashing of `leaves` into buffer `buf` (not waiting).
    fn enqueue(&mut self, buf: usize, leaves: Range<u64>) -> Result<(), GpuError>;
    /// Wait for buffer `buf`'s group; its chaining values and its kernel
    /// time in seconds.
    fn wait(&mut self, buf: usize, leaves: Range<u64>) -> Result<(&[u8], f64), GpuError>;
}

/// Run `groups` through `runner`, handing each group's values to `sink` in
/// order while the next group runs; returns the time split.
pub fn run_leaf_groups(
    groups: &[Range<u64>],
    runner: &mut dyn GroupRunner,
    sink: &mut dyn FnMut(&[u8]) -> Result<(), GpuError>,
) -> Result<LeavesStats, GpuError> {
    let t0 = Instant::now();
    let mut st = LeavesStats {
        groups: groups.len(),
        leaves: groups.last().map_or(0, |g| g.end),
        ..LeavesStats::default()
    };
    if let Some(g0) = groups.first() {
        runner.enqueue(0, g0.clone())?;
    }
    for (g, range) in groups.iter().enumerate() {
        if let Some(next) = groups.get(g + 1) {
            // Group g + 1 reuses the buffer of group g - 1, drained in the
            // previous turn.
            runner.enqueue((g + 1) % 2, next.clone())?;
        }
        let (cvs, kernel_s) = runner.wait(g % 2, range.clone())?;
        st.kernel_s += kernel_s;
        if g == 0 {
            st.first_ready_s = t0.elapsed().as_secs_f64();
        }
        let t = Instant::now();
        sink(cvs)?;
        st.sink_s += t.elapsed().as_secs_f64();
    }
    st.wall_s = t0.elapsed().as_secs_f64();
    Ok(st)
}

#[cfg(test)]
mod tests {
    use super::*;
    use keccakx::engine::{Engine, EngineError, LaneSpec, ResidentInput, Scalar};
    use keccakx::rfc9861::{Kt128, Kt256, KtFinalNode};

    #[test]
    fn groups_start_small_double_and_cover_every_leaf_once() {
        for count in [0u64, 1, 7, 8, 9, 23, 24, 25, 100, 1000] {
            let g = leaf_groups(count, 1, 16);
            let mut at = 0;
            for (k, r) in g.iter().enumerate() {
                assert_eq!(r.start, at, "count {count}");
                assert!(!r.is_empty());
                if k + 1 < g.len() {
                    assert_eq!(
                        r.end - r.start,
                        (1u64 << k.min(4)),
                        "count {count} group {k}"
                    );
                }
                at = r.end;
            }
            assert_eq!(at, count);
        }
        // The product's sizes: 4 GiB of KT128 leaves (2^19) in 7 launches,
        // the first of 2^13 leaves.
        let g = leaf_groups(1 << 19, FIRST_GROUP_LEAVES, MAX_GROUP_LEAVES);
        let sizes: Vec<u64> = g.iter().map(|r| r.end - r.start).collect();
        assert_eq!(
            sizes,
            [
                1 << 13,
                1 << 14,
                1 << 15,
                1 << 16,
                1 << 17,
                1 << 18,
                1 << 13
            ]
        );
    }

    /// A CPU stand-in for the device: the leaves hashed by the golden
    /// model's engine into two buffers used in turn, as the kernels and
    /// copies fill them; a buffer's values exist only between its enqueue
    /// and the next enqueue into it.
    struct CpuRunner<'a> {
        data: &'a [u8],
        spec: LaneSpec,
        first: u64,
        leaf: usize,
        cv_len: usize,
        bufs: [Vec<u8>; 2],
        queued: [Option<Range<u64>>; 2],
    }

    impl GroupRunner for CpuRunner<'_> {
        fn enqueue(&mut self, buf: usize, leaves: Range<u64>) -> Result<(), GpuError> {
            assert!(
                self.queued[buf].is_none(),
                "buffer {buf} refilled before it was drained"
            );
            let msgs: Vec<&[u8]> = leaves
                .clone()
                .map(|i| {
                    let at = self.first as usize + i as usize * self.leaf;
                    &self.data[at..at + self.leaf]
                })
                .collect();
            let mut out = vec![0xA5; msgs.len() * self.cv_len];
            Scalar.hash_many(&self.spec, &msgs, self.cv_len, &mut out);
            self.bufs[buf] = out;
            self.queued[buf] = Some(leaves);
            Ok(())
        }
        fn wait(&mut self, buf: usize, leaves: Range<u64>) -> Result<(&[u8], f64), GpuError> {
            assert_eq!(self.queued[buf].take(), Some(leaves), "buffer {buf}");
            Ok((&self.bufs[buf], 0.0))
        }
    }

    /// The data as KT's input, its leaves run through `run_leaf_groups`
    /// with groups of `first` leaves doubling up to `max`.
    struct GroupedInput<'a> {
        data: &'a [u8],
        first: u64,
        max: u64,
        /// Leaves the mode asked for (the last call).
        asked: std::cell::Cell<u64>,
    }

    impl ResidentInput for GroupedInput<'_> {
        fn engine(&self) -> &'static str {
            "grouped"
        }
        fn len(&self) -> u64 {
            self.data.len() as u64
        }
        fn read(&self, pos: u64, buf: &mut [u8]) -> Result<(), EngineError> {
            buf.copy_from_slice(&self.data[pos as usize..pos as usize + buf.len()]);
            Ok(())
        }
        fn hash_leaves(
            &self,
            spec: &LaneSpec,
            first: u64,
            leaf: usize,
            count: u64,
            cv_len: usize,
            sink: &mut dyn FnMut(&[u8]) -> Result<(), EngineError>,
        ) -> Result<(), EngineError> {
            let mut runner = CpuRunner {
                data: self.data,
                spec: *spec,
                first,
                leaf,
                cv_len,
                bufs: [Vec::new(), Vec::new()],
                queued: [None, None],
            };
            let groups = leaf_groups(count, self.first, self.max);
            self.asked.set(count);
            let st = run_leaf_groups(&groups, &mut runner, &mut |cvs| {
                sink(cvs).map_err(|e| GpuError::Cuda(e.message))
            })
            .map_err(|e| EngineError {
                engine: "grouped",
                message: e.to_string(),
            })?;
            assert_eq!((st.groups, st.leaves), (groups.len(), count));
            Ok(())
        }
    }

    #[test]
    fn grouped_leaves_give_kt_digests_around_every_group_boundary() {
        // Groups of 1, 2, 4, 4, ... leaves: boundaries after 1, 3, 7, 11,
        // 15 leaves. KT's first chunk is S_0 (not a leaf), so n chunks give
        // n - 1 leaves; sizes one byte around each boundary's end.
        const C: usize = 8192;
        let mut x = 0x243F_6A88_85A3_08D3u64;
        let data: Vec<u8> = (0..C * 18)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        for leaves in [0usize, 1, 2, 3, 4, 7, 8, 11, 12, 15, 16] {
            for delta in [-1i64, 0, 1] {
                let n = ((leaves + 1) * C) as i64 + delta;
                if n < 0 {
                    continue;
                }
                let m = &data[..n as usize];
                let input = GroupedInput {
                    data: m,
                    first: 1,
                    max: 4,
                    asked: std::cell::Cell::new(0),
                };
                let (mut got, mut want) = ([0u8; 64], [0u8; 64]);
                KtFinalNode::<168>::from_resident(b"c", &input)
                    .unwrap()
                    .finalize_into(&mut got);
                let mut h = Kt128::new(b"c");
                h.update(m);
                h.finalize_into(&mut want);
                assert_eq!(got, want, "KT128, {n} bytes");
                // Every whole leaf but at most the one reaching into the
                // customization string came through the groups.
                let whole = (n as u64).saturating_sub(C as u64) / C as u64;
                assert!(
                    input.asked.get() + 1 >= whole,
                    "{n} bytes: {} leaves grouped",
                    input.asked.get()
                );
                KtFinalNode::<136>::from_resident(b"c", &input)
                    .unwrap()
                    .finalize_into(&mut got);
                let mut h = Kt256::new(b"c");
                h.update(m);
                h.finalize_into(&mut want);
                assert_eq!(got, want, "KT256, {n} bytes");
            }
        }
    }
}
