//! Multi-core: split one large `hash_many` call across threads (rayon), each
//! piece on a single-core engine. The pieces are contiguous runs of about
//! equal estimated work (bytes), several per thread, so every piece writes
//! its own slice of the output and a slow thread simply takes fewer.

use super::contract::{Engine, LaneSpec};

/// Work below this many bytes per call stays on the calling thread: the
/// hand-off costs a few microseconds.
const MIN_PARALLEL_BYTES: usize = 64 * 1024;

/// Pieces per thread. A call is cut into more pieces than threads and the
/// threads take pieces as they come free, so a helper that starts late (a
/// worker waking from sleep) or runs slower (cold caches, a busy host) ends
/// up with less of the work instead of holding up the call, and the caller
/// waits at most one small piece for the last helper. bench/NOTES.md
/// ("Waking threads"): KT128 leaves of 1 MiB on two threads, 4 pieces per
/// thread 62 µs median, 8 or 16 per thread 54-60 µs (one thread 101 µs).
const PIECES_PER_THREAD: usize = 8;

/// No piece smaller than this (bytes of work): below it, the cost of taking
/// a piece shows.
const MIN_PIECE_BYTES: usize = 32 * 1024;

/// Calls with at least this much work (bytes) start one more helper than
/// there are other threads. A helper woken while the caller keeps its core
/// busy is sometimes queued behind the caller on that core until the next
/// scheduler tick, while the other core idles: measured on 6–12 % of the
/// hand-offs in back-to-back KT128 calls of 64 MiB, each ~1.4–2.6 ms late
/// (bench/NOTES.md, "Two threads on a shared host", says on which machine).
/// With one helper more, whichever reaches a free core first takes pieces.
/// Small calls do not: there a wasted wake-up costs more than it saves.
const HEDGE_BYTES: usize = 8 << 20;

/// Messages the widest SIMD engine hashes at once (AVX-512: eight states).
const LANE_GROUP: usize = 8;

/// How many pieces to cut `items` independent items costing `work_bytes`
/// in all into, for `threads` threads: 1 means "stay on this thread".
/// A piece keeps at least `min_items` items (a whole group of SIMD lanes)
/// unless that would leave fewer pieces than threads.
pub(crate) fn piece_count(
    threads: usize,
    items: usize,
    work_bytes: usize,
    min_items: usize,
) -> usize {
    if threads <= 1 || items <= 1 || work_bytes < MIN_PARALLEL_BYTES {
        return 1;
    }
    let by_size = work_bytes / MIN_PIECE_BYTES;
    let by_items = items / min_items.max(1);
    (threads * PIECES_PER_THREAD)
        .min(by_size)
        .min(by_items)
        .max(threads)
        .min(items)
}

/// Items per block of [`CostBlocks`]: the split skips a block whose cost
/// crosses no cut point without looking at its items again.
const COST_BLOCK: usize = 64;

/// The work of a list of items, summed per block of [`COST_BLOCK`] items:
/// one pass over the items gives the total, and [`split_points`] then
/// looks at single items only in the blocks where a cut falls. For a batch
/// of a million short messages this takes the caller's serial scan from
/// two passes (~1.4 ms, a twentieth of a 2-thread call) to one
/// (bench/NOTES.md, "Two threads on a shared host").
pub(crate) struct CostBlocks {
    sums: alloc::vec::Vec<usize>,
    total: usize,
}

impl CostBlocks {
    pub(crate) fn new<T>(items: &[T], cost: impl Fn(&T) -> usize) -> Self {
        let sums: alloc::vec::Vec<usize> = items
            .chunks(COST_BLOCK)
            .map(|b| b.iter().map(&cost).sum())
            .collect();
        let total = sums.iter().sum();
        CostBlocks { sums, total }
    }

    pub(crate) fn total(&self) -> usize {
        self.total
    }
}

/// Cut points of `items` (costs `cost`, summed in `blocks`) into `parts`
/// contiguous ranges of about equal total cost: `[0, b1, ..., len]`, every
/// range non-empty. Inner cut points are moved to the nearest multiple of
/// `align` where that keeps them apart, so a piece fills whole SIMD lane
/// groups.
pub(crate) fn split_points<T>(
    items: &[T],
    cost: impl Fn(&T) -> usize,
    blocks: &CostBlocks,
    parts: usize,
    align: usize,
) -> alloc::vec::Vec<usize> {
    let (len, total) = (items.len(), blocks.total);
    let align = align.max(1);
    let mut bounds = alloc::vec::Vec::with_capacity(parts + 1);
    bounds.push(0usize);
    // Cut k goes after the first item where the running cost reaches
    // k/parts of the total (one cut per item at most). u64: no overflow on
    // 32-bit targets (total ≤ 4 GiB, parts small).
    let reached = |acc: usize, k: usize| acc as u64 * parts as u64 >= total as u64 * k as u64;
    let mut acc = 0usize;
    let mut k = 1;
    for (b, &block_cost) in blocks.sums.iter().enumerate() {
        if k >= parts {
            break;
        }
        if !reached(acc + block_cost, k) {
            acc += block_cost;
            continue;
        }
        let first = b * COST_BLOCK;
        for (j, item) in items[first..(first + COST_BLOCK).min(len)]
            .iter()
            .enumerate()
        {
            let i = first + j;
            acc += cost(item);
            if k < parts && reached(acc, k) && i + 1 < len {
                push_cut(&mut bounds, i + 1, len, align);
                k += 1;
            }
        }
    }
    bounds.push(len);
    bounds
}

/// Add a cut before item `at` (of `len`) to `bounds`, moved to the nearest
/// multiple of `align` where that keeps it after the last cut and before
/// the end; dropped if it would not move forward.
fn push_cut(bounds: &mut alloc::vec::Vec<usize>, at: usize, len: usize, align: usize) {
    let snapped = (at + align / 2) / align * align;
    let last = *bounds.last().unwrap_or(&0);
    let cut = if snapped > last && snapped < len {
        snapped
    } else {
        at
    };
    if cut > last {
        bounds.push(cut);
    }
}

/// Runs `side()` once on the calling thread and `f(piece, its outputs)`
/// over contiguous pieces of `items` (about equal `cost`, several per
/// thread, inner cuts on multiples of `align`), each item owning `out_len`
/// bytes of `out`. The calling thread and up to `threads - 1` rayon helpers
/// (`threads` for long calls, [`HEDGE_BYTES`]) take pieces in turn
/// (helpers.rs says why not `rayon::scope`); this returns when all are
/// done. One thread, one item or little work: `side()` and a single
/// `f(items, out)` here.
pub(crate) fn for_each_piece<T: Sync>(
    items: &[T],
    out: &mut [u8],
    out_len: usize,
    cost: impl Fn(&T) -> usize,
    align: usize,
    side: &mut dyn FnMut(),
    f: impl Fn(&[T], &mut [u8]) + Sync,
) {
    let threads = effective_threads();
    if threads <= 1 || items.len() <= 1 {
        side();
        return f(items, out);
    }
    let blocks = CostBlocks::new(items, &cost);
    let parts = piece_count(threads, items.len(), blocks.total(), align);
    if parts <= 1 {
        side();
        return f(items, out);
    }
    let bounds = split_points(items, &cost, &blocks, parts, align);
    // Piece i owns out[bounds[i] * out_len..bounds[i + 1] * out_len]; each
    // index is handed out once, so the slices never overlap.
    let out_base = OutPtr(out.as_mut_ptr());
    let piece = |i: usize| {
        let (a, b) = (bounds[i], bounds[i + 1]);
        let base = out_base;
        // SAFETY: in bounds of `out` (bounds end at items.len()), disjoint
        // from every other piece, and `out` outlives `run_pieces`.
        let mine =
            unsafe { core::slice::from_raw_parts_mut(base.0.add(a * out_len), (b - a) * out_len) };
        f(&items[a..b], mine)
    };
    let helpers = if blocks.total() >= HEDGE_BYTES {
        threads
    } else {
        threads - 1
    };
    super::helpers::run_pieces(bounds.len() - 1, helpers, &piece, side);
}

/// `out`'s address, shared by the pieces that write disjoint parts of it.
#[derive(Clone, Copy)]
struct OutPtr(*mut u8);
// SAFETY: only used to build the disjoint per-piece slices above.
unsafe impl Send for OutPtr {}
unsafe impl Sync for OutPtr {}

/// Runs an engine on up to [`super::threads`] cores (0: all cores).
pub struct Threads {
    inner: &'static dyn Engine,
}

impl Threads {
    pub fn new(inner: &'static dyn Engine) -> Self {
        Threads { inner }
    }

    /// The per-core engine.
    pub fn inner(&self) -> &'static dyn Engine {
        self.inner
    }

    /// [`Engine::hash_many`], running `side()` on the calling thread while
    /// other threads start on the inputs (see `helpers::run_pieces`).
    fn split_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) {
        assert_eq!(
            out.len(),
            inputs.len() * out_len,
            "hash_many: output size mismatch"
        );
        if out_len == 0 {
            side();
            return self.inner.hash_many(spec, inputs, out_len, out);
        }
        // Work of a message in bytes: the message, its padding block and
        // its output. No division: with 16384 small messages a per-message
        // `len / rate` cost ~40 µs on the calling thread, a tenth of the
        // whole call on two threads (bench/NOTES.md).
        let cost = |m: &&[u8]| m.len() + spec.rate_bytes + out_len;
        let inner = self.inner;
        for_each_piece(
            inputs,
            out,
            out_len,
            cost,
            LANE_GROUP,
            side,
            |part, mine| inner.hash_many(spec, part, out_len, mine),
        );
    }
}

/// Threads the multi-core paths use now: the `engine::set_threads` limit,
/// or all of rayon's pool (one per core) when it is 0. A limit of 1 never
/// touches rayon; and when the pool cannot be built (a pids limit, `ulimit
/// -u`, an address space too small for the threads' stacks) the work runs
/// on the calling thread alone instead of panicking at the pool's first use.
pub fn effective_threads() -> usize {
    let limit = crate::policy::get().threads();
    if limit == 1 {
        return 1;
    }
    let pool = super::pool::current_num_threads();
    match limit {
        0 => pool,
        n => n.min(pool),
    }
}

impl Engine for Threads {
    fn name(&self) -> &'static str {
        "threads"
    }

    fn is_available(&self) -> bool {
        self.inner.is_available()
    }

    fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
        self.split_beside(spec, inputs, out_len, out, &mut || {})
    }

    fn hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) {
        self.split_beside(spec, inputs, out_len, out, side)
    }

    fn parallelism(&self) -> crate::permutation::Parallelism {
        self.inner.parallelism()
    }

    fn threads(&self) -> usize {
        effective_threads()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_or_single_threaded_work_stays_in_one_piece() {
        assert_eq!(piece_count(1, 1000, 1 << 30, 8), 1);
        assert_eq!(piece_count(4, 1, 1 << 30, 8), 1);
        assert_eq!(piece_count(4, 1000, MIN_PARALLEL_BYTES - 1, 8), 1);
    }

    #[test]
    fn piece_count_bounds() {
        // KT128 of 1 MiB on two threads: 127 leaves, 15 pieces of ~8
        // (whole groups of 8 SIMD lanes).
        assert_eq!(piece_count(2, 127, 1 << 20, 8), 15);
        // Never fewer pieces than threads (when there are enough items),
        // never more than items, never below MIN_PIECE_BYTES per piece
        // unless that would leave a thread idle.
        assert_eq!(piece_count(2, 3, 1 << 30, 8), 2);
        assert_eq!(piece_count(16, 3, 1 << 30, 8), 3);
        assert_eq!(piece_count(2, 100_000, 96 * 1024, 1), 3);
        assert_eq!(piece_count(8, 100_000, 96 * 1024, 1), 8);
    }

    fn check_points(b: &[usize], len: usize, parts: usize) {
        assert_eq!(b[0], 0);
        assert_eq!(*b.last().unwrap(), len);
        assert!(b.len() - 1 <= parts && b.len() >= 2);
        assert!(b.windows(2).all(|w| w[0] < w[1]), "{b:?}");
    }

    fn split(costs: &[usize], parts: usize, align: usize) -> alloc::vec::Vec<usize> {
        let blocks = CostBlocks::new(costs, |c| *c);
        split_points(costs, |c| *c, &blocks, parts, align)
    }

    /// The split looking at every item (no block skipping), as the
    /// reference for `split_points`'s skipping (cut placement is shared).
    fn split_item_by_item(costs: &[usize], parts: usize, align: usize) -> alloc::vec::Vec<usize> {
        let total: usize = costs.iter().sum();
        let mut bounds = alloc::vec![0usize];
        let (mut acc, mut k) = (0usize, 1);
        for (i, c) in costs.iter().enumerate() {
            acc += c;
            if k < parts
                && acc as u64 * parts as u64 >= total as u64 * k as u64
                && i + 1 < costs.len()
            {
                push_cut(&mut bounds, i + 1, costs.len(), align);
                k += 1;
            }
        }
        bounds.push(costs.len());
        bounds
    }

    #[test]
    fn block_skipping_split_equals_the_item_by_item_split() {
        // Lengths across block edges, uneven costs, huge items that cross
        // several cut points at once, zero-cost runs.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for len in [1, 2, 63, 64, 65, 127, 128, 129, 1000, 4097, 20_000] {
            for shape in 0..4 {
                let costs: alloc::vec::Vec<usize> = (0..len)
                    .map(|i| match shape {
                        0 => 232,
                        1 => (next() % 5000) as usize,
                        2 if next() % 97 == 0 => 1 << 24,
                        2 => 1 + (next() % 64) as usize,
                        _ if i < len / 3 => 0,
                        _ => 8192,
                    })
                    .collect();
                if costs.iter().sum::<usize>() == 0 {
                    continue;
                }
                for parts in [1, 2, 3, 16, 64] {
                    for align in [1, 8] {
                        let b = split(&costs, parts, align);
                        assert_eq!(
                            b,
                            split_item_by_item(&costs, parts, align),
                            "len {len} shape {shape} parts {parts}"
                        );
                        check_points(&b, len, parts);
                    }
                }
            }
        }
    }

    #[test]
    fn split_points_are_increasing_aligned_and_balanced() {
        // Equal costs: every inner cut on a multiple of 8, pieces within
        // one lane group of each other.
        let b = split(&[1; 127], 8, 8);
        check_points(&b, 127, 8);
        assert_eq!(b.len(), 9, "{b:?}");
        assert!(b[1..8].iter().all(|c| c % 8 == 0), "{b:?}");
        assert!(
            b.windows(2).all(|w| (8..=24).contains(&(w[1] - w[0]))),
            "{b:?}"
        );
        // Unequal costs, no alignment: every piece near total/parts.
        let costs: alloc::vec::Vec<usize> = (0..1000).map(|i| 1 + (i * 7919) % 13).collect();
        let total: usize = costs.iter().sum();
        let b = split(&costs, 5, 1);
        check_points(&b, costs.len(), 5);
        for w in b.windows(2) {
            let part: usize = costs[w[0]..w[1]].iter().sum();
            assert!(part.abs_diff(total / 5) <= 13, "{part} vs {}", total / 5);
        }
        // Alignment never empties a piece, whatever the sizes.
        for len in 1..40 {
            for parts in 1..=len.min(9) {
                let b = split(&alloc::vec![3; len], parts, 8);
                check_points(&b, len, parts);
            }
        }
        // One huge item first: the cuts still move forward.
        let costs = [1000, 1, 1, 1, 1, 1, 1, 1, 1, 1];
        let b = split(&costs, 4, 1);
        check_points(&b, 10, 4);
    }
}
