// Host emulation of the keccakx CUDA kernels: the kernels' per-lane device
// functions (kernels/*.cu, compiled here as plain C++) driven lane by lane in
// the same phase order as the kernels' warp/block loops. Used by
// tests/emulation.rs, which feeds jobs on stdin and compares the bytes on
// stdout with the keccakx CPU library.
//
// stdin (little-endian u64 words unless noted):
//   mode: 0 batch staged, 1 batch direct, 2 paper batch, 3 permutation,
//         4 batch double-buffered (raw words, as with cp.async),
//         5 warp per message (warp.cu; the lane type is ignored)
//         6 batch direct at a compile-time rate (kx_thread_rate; rate 136 or
//           168, rounds template 24 or 12; the lane type is ignored)
//   modes 0-2, 4, 5: lane type (0 KxSplit, 1 KxU64), rounds template (24, 12, 0 = run time),
//              n, rate, suffix, out_len, rounds, uniform, stride, msg_len, data_len,
//              [n offsets, n lengths unless uniform], data_len data bytes
//              -> stdout: n * out_len bytes
//   mode 7:    Merkle tree (merkle.cu): 0, 0, n, n * 32 leaf bytes
//              -> stdout: the tree, (2n - 1) * 32 bytes, root first
//   mode 3:    lane type, rounds template, run-time rounds, count, count * 25 lanes
//              -> stdout: count * 25 lanes
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "batch.cu"
#include "paper.cu"
#include "perm.cu"
#include "warp.cu"
#include "merkle.cu"

static kx_u64 rd() {
    kx_u64 v;
    if (fread(&v, 8, 1, stdin) != 1) {
        fprintf(stderr, "harness: short input\n");
        exit(2);
    }
    return v;
}

// Double-buffered staging (STAGED == 2): the copies of block t + 1 are
// issued (here: done) before any lane absorbs block t, into the other
// buffer, as in kx_batch.
template <class L, int R>
static void run_batch_async(const KxBatchJob& j) {
    typedef typename L::T T;
    const kx_u64 extra = kx_extra_blocks(j);
    const kx_u32 warps = KX_BATCH_THREADS / KX_WARP;
    std::vector<kx_u64> smem((size_t)warps * kx_warp_async_words(j.rate) / 2 + 1);
    for (kx_u64 w0 = 0; w0 < j.n; w0 += KX_WARP) {
        const kx_u32 warp = (kx_u32)((w0 / KX_WARP) % warps);
        KxWarpInfo& info = *kx_warp_async_info(smem.data(), warp, j.rate);
        T a[KX_WARP][25];
        kx_u64 nblk[KX_WARP], wmax = 0;
        for (kx_u32 lane = 0; lane < KX_WARP; ++lane) {
            const kx_u64 i = w0 + lane;
            kx_u64 off, len;
            kx_locate(j, i, &off, &len);
            nblk[lane] = i < j.n ? len / j.rate + 1 : 0;
            if (nblk[lane] > wmax) wmax = nblk[lane];
            info.off[lane] = off;
            info.len[lane] = len;
            info.nblk[lane] = nblk[lane];
            for (int q = 0; q < 25; ++q) a[lane][q] = L::zero();
        }
        // Words the kernel never copies hold garbage: poison both buffers.
        for (kx_u64 b = 0; b < 2; ++b) {
            kx_u32* buf = kx_warp_async_buf(smem.data(), warp, j.rate, b);
            for (kx_u32 k = 0; k < kx_raw_buf_words(j.rate); ++k) buf[k] = 0xDEADBEEFu;
        }
        for (kx_u32 lane = 0; lane < KX_WARP; ++lane)
            kx_stage_raw(lane, 0, j, &info, kx_warp_async_buf(smem.data(), warp, j.rate, 0));
        for (kx_u64 t = 0; t < wmax + extra; ++t) {
            if (t + 1 < wmax)
                for (kx_u32 lane = 0; lane < KX_WARP; ++lane)
                    kx_stage_raw(lane, t + 1, j, &info, kx_warp_async_buf(smem.data(), warp, j.rate, t + 1));
            for (kx_u32 lane = 0; lane < KX_WARP; ++lane)
                kx_thread_step_raw<L, R>(a[lane], j, w0 + lane, nblk[lane], extra, t, lane, &info,
                                         kx_warp_async_buf(smem.data(), warp, j.rate, t));
        }
    }
}

template <class L, int R, int STAGED>
static void run_batch(const KxBatchJob& j) {
    if (STAGED == 2) return run_batch_async<L, R>(j);
    typedef typename L::T T;
    const kx_u64 extra = kx_extra_blocks(j);
    // The block's dynamic shared memory, laid out by the kernel's own
    // functions (UBSan's alignment check guards the u64 message tables).
    const kx_u32 warps = KX_BATCH_THREADS / KX_WARP;
    std::vector<kx_u64> smem((size_t)warps * kx_warp_smem_words(j.rate) / 2 + 1);
    for (kx_u64 w0 = 0; w0 < j.n; w0 += KX_WARP) {
        const kx_u32 warp = (kx_u32)((w0 / KX_WARP) % warps);
        KxWarpInfo& info = *kx_warp_info(smem.data(), warp, j.rate);
        kx_u32* slots = kx_warp_slots(smem.data(), warp, j.rate);
        T a[KX_WARP][25];
        kx_u64 off[KX_WARP], len[KX_WARP], nblk[KX_WARP], wmax = 0;
        for (kx_u32 lane = 0; lane < KX_WARP; ++lane) {
            const kx_u64 i = w0 + lane;
            kx_locate(j, i, &off[lane], &len[lane]);
            nblk[lane] = i < j.n ? len[lane] / j.rate + 1 : 0;
            if (nblk[lane] > wmax) wmax = nblk[lane];
            info.off[lane] = off[lane];
            info.len[lane] = len[lane];
            info.nblk[lane] = nblk[lane];
            for (int q = 0; q < 25; ++q) a[lane][q] = L::zero();
        }
        // Slots a real kernel never wrote hold garbage: poison them.
        for (kx_u32 k = 0; k < kx_rate_words(j.rate) * KX_SLOT_STRIDE; ++k) slots[k] = 0xDEADBEEFu;
        for (kx_u64 t = 0; t < wmax + extra; ++t) {
            if (STAGED && t < wmax)
                for (kx_u32 lane = 0; lane < KX_WARP; ++lane) kx_stage_block(lane, t, j, &info, slots);
            for (kx_u32 lane = 0; lane < KX_WARP; ++lane)
                kx_thread_step<L, R, STAGED>(a[lane], j, w0 + lane, off[lane], len[lane], nblk[lane], extra, t, lane,
                                             slots);
        }
    }
}

// warp.cu's "warp" type for the host: one value per lane, element-wise
// operators, shfl a gather (lane src & 31, as __shfl_sync), and per-lane
// code run for each of the 32 lanes in turn.
struct KxWarpVec {
    kx_u32 v[KX_WARP];
    KxWarpVec() : KxWarpVec(0u) {}
    explicit KxWarpVec(kx_u32 x) {
        for (kx_u32 l = 0; l < KX_WARP; ++l) v[l] = x;
    }
};
#define KX_WV_OP(op)                                                     \
    static inline KxWarpVec operator op(const KxWarpVec& a, const KxWarpVec& b) { \
        KxWarpVec r;                                                     \
        for (kx_u32 l = 0; l < KX_WARP; ++l) r.v[l] = a.v[l] op b.v[l];  \
        return r;                                                        \
    }
KX_WV_OP(^)
KX_WV_OP(&)
KX_WV_OP(|)
static inline KxWarpVec operator~(const KxWarpVec& a) {
    KxWarpVec r;
    for (kx_u32 l = 0; l < KX_WARP; ++l) r.v[l] = ~a.v[l];
    return r;
}
struct KxWarpEmu {
    typedef KxWarpVec V;
    static V shfl(const V& x, const V& src) {
        V r;
        for (kx_u32 l = 0; l < KX_WARP; ++l) r.v[l] = x.v[src.v[l] & (KX_WARP - 1)];
        return r;
    }
    static V fshl(const V& lo, const V& hi, const V& s) {
        V r;
        for (kx_u32 l = 0; l < KX_WARP; ++l) r.v[l] = kx_fshl(lo.v[l], hi.v[l], s.v[l]);
        return r;
    }
    static kx_u32& at(V& v, kx_u32 l) { return v.v[l]; }
    template <class F>
    static void each(const V&, F f) {
        for (kx_u32 l = 0; l < KX_WARP; ++l) f(l);
    }
};

// One warp per message, messages in any order (here: last to first, which
// a real grid may well do).
static void run_warp(int rounds, const KxBatchJob& j) {
    KxWarpVec lane;
    for (kx_u32 l = 0; l < KX_WARP; ++l) lane.v[l] = l;
    for (kx_u64 i = j.n; i-- > 0;) {
        if (rounds == 24) kx_warp_message<KxWarpEmu, 24>(j, i, lane);
        else if (rounds == 12) kx_warp_message<KxWarpEmu, 12>(j, i, lane);
        else kx_warp_message<KxWarpEmu, 0>(j, i, lane);
    }
}

// The rate-specialized direct kernel: one thread a message, any order
// (here: last to first).
template <int R, int RATE>
static void run_rate(const KxBatchJob& j) {
    for (kx_u64 i = j.n; i-- > 0;) kx_thread_rate<KxSplit, R, RATE>(j, i);
}

static void dispatch_rate(int rounds, const KxBatchJob& j) {
    if (rounds == 24 && j.rate == 136) run_rate<24, 136>(j);
    else if (rounds == 24 && j.rate == 168) run_rate<24, 168>(j);
    else if (rounds == 12 && j.rate == 136) run_rate<12, 136>(j);
    else if (rounds == 12 && j.rate == 168) run_rate<12, 168>(j);
    else {
        fprintf(stderr, "harness: no rate-specialized kernel for rate %u, %d rounds\n", j.rate, rounds);
        exit(2);
    }
}

static void run_paper(const KxBatchJob& j) {
    const kx_u64 extra = ((kx_u64)j.out_len - 1) / j.rate;
    for (kx_u64 i = 0; i < j.n; ++i) {
        kx_u64 A[25] = {0}, B[25], C[5];
        kx_u64 off, len;
        kx_locate(j, i, &off, &len);
        const kx_u64 nblk = len / j.rate + 1;
        for (kx_u64 t = 0; t < nblk + extra; ++t) {
            if (t < nblk)
                for (kx_u32 l = 0; l < 25; ++l) kx_paper_absorb_lane(A, j, off, len, nblk, t, l);
            for (kx_u32 r = 24 - j.rounds; r < 24; ++r) {
                for (kx_u32 l = 0; l < 25; ++l) kx_paper_step1(A, C, l);
                for (kx_u32 l = 0; l < 25; ++l) kx_paper_step2(A, B, C, l);
                for (kx_u32 l = 0; l < 25; ++l) kx_paper_step3(A, B, l, kx_rc_table[r]);
            }
            if (t + 1 >= nblk)
                for (kx_u32 l = 0; l < 25; ++l) kx_paper_store_lane(A, j, i, t + 1 - nblk, l);
        }
    }
}

template <class L>
static void dispatch_batch(int staged, int rounds, const KxBatchJob& j) {
    if (staged == 2) {
        if (rounds == 24) run_batch<L, 24, 2>(j);
        else if (rounds == 12) run_batch<L, 12, 2>(j);
        else run_batch<L, 0, 2>(j);
    } else if (staged) {
        if (rounds == 24) run_batch<L, 24, 1>(j);
        else if (rounds == 12) run_batch<L, 12, 1>(j);
        else run_batch<L, 0, 1>(j);
    } else {
        if (rounds == 24) run_batch<L, 24, 0>(j);
        else if (rounds == 12) run_batch<L, 12, 0>(j);
        else run_batch<L, 0, 0>(j);
    }
}

template <class L>
static void run_perm(int rounds, kx_u32 runtime_rounds, std::vector<kx_u64>& lanes) {
    typedef typename L::T T;
    for (size_t s = 0; s < lanes.size() / 25; ++s) {
        T a[25];
        for (int q = 0; q < 25; ++q) a[q] = L::from64(lanes[s * 25 + q]);
        if (rounds == 24) kx_permute<L, 24>(a);
        else if (rounds == 12) kx_permute<L, 12>(a);
        else kx_permute_n<L>(a, runtime_rounds);
        for (int q = 0; q < 25; ++q) lanes[s * 25 + q] = L::to64(a[q]);
    }
}

int main() {
    const kx_u64 mode = rd();
    const kx_u64 lane_type = rd();
    const int rounds_t = (int)rd();
    if (mode == 7) {
        // The leaves placed, then the runs of nodes whose children are
        // done, each run's nodes in any order (here: last first), as the
        // host launches them.
        const kx_u64 n = rd();
        std::vector<unsigned char> leaves(n * 32), tree((2 * n - 1) * 32, 0xA5);
        if (n && fread(leaves.data(), 1, leaves.size(), stdin) != leaves.size()) {
            fprintf(stderr, "harness: short leaves\n");
            return 2;
        }
        for (kx_u64 k = 0; k < n; ++k) kx_merkle_place(tree.data(), leaves.data(), n, k);
        for (kx_u64 hi = n - 1; hi > 0;) {
            const kx_u64 lo = hi / 2;
            for (kx_u64 i = hi; i-- > lo;) kx_merkle_node<KxSplit>(tree.data(), i);
            hi = lo;
        }
        fwrite(tree.data(), 1, tree.size(), stdout);
        return 0;
    }
    if (mode == 3) {
        const kx_u32 runtime_rounds = (kx_u32)rd();
        const kx_u64 count = rd();
        std::vector<kx_u64> lanes(count * 25);
        for (auto& v : lanes) v = rd();
        if (lane_type == 0) run_perm<KxSplit>(rounds_t, runtime_rounds, lanes);
        else if (lane_type == 1) run_perm<KxU64>(rounds_t, runtime_rounds, lanes);
        else if (lane_type == 2) run_perm<KxImadAll>(rounds_t, runtime_rounds, lanes);
        else if (lane_type == 3) run_perm<KxImadRho>(rounds_t, runtime_rounds, lanes);
        else run_perm<KxImadHalf>(rounds_t, runtime_rounds, lanes);
        for (kx_u64 s = 0; s < count; ++s) lanes[25 * s] = KX_MUTATE_LANE(lanes[25 * s], 0, 0);
        fwrite(lanes.data(), 8, lanes.size(), stdout);
        return 0;
    }
    KxBatchJob j;
    memset(&j, 0, sizeof j);
    j.n = rd();
    j.rate = (kx_u32)rd();
    j.suffix = (kx_u32)rd();
    j.out_len = (kx_u32)rd();
    j.rounds = (kx_u32)rd();
    const kx_u64 uniform = rd();
    j.stride = rd();
    j.msg_len = rd();
    j.data_len = rd();
    std::vector<kx_u64> offsets, lengths;
    if (!uniform) {
        offsets.resize(j.n);
        lengths.resize(j.n);
        for (auto& v : offsets) v = rd();
        for (auto& v : lengths) v = rd();
        j.offsets = (kx_u64)offsets.data();
        j.lengths = (kx_u64)lengths.data();
    }
    // The data buffer is exactly data_len bytes (heap-allocated, so reading
    // past it is caught by -fsanitize=address in the test).
    unsigned char* data = (unsigned char*)malloc(j.data_len ? j.data_len : 1);
    if (j.data_len && fread(data, 1, j.data_len, stdin) != j.data_len) {
        fprintf(stderr, "harness: short data\n");
        return 2;
    }
    std::vector<unsigned char> out(j.n * j.out_len, 0xA5);
    j.data = (kx_u64)data;
    j.out = (kx_u64)out.data();
    if (mode == 2) run_paper(j);
    else if (mode == 5) run_warp(rounds_t, j);
    else if (mode == 6) dispatch_rate(rounds_t, j);
    else {
        const int staged = mode == 0 ? 1 : mode == 4 ? 2 : 0;
        if (lane_type == 0) dispatch_batch<KxSplit>(staged, rounds_t, j);
        else dispatch_batch<KxU64>(staged, rounds_t, j);
    }
    fwrite(out.data(), 1, out.size(), stdout);
    free(data);
    return 0;
}
