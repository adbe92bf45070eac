// keccakx GPU kernels: batch hashing, one WARP per message (latency-oriented).
//
// batch.cu runs one thread per message: fast when many messages fill the
// GPU, but a lone thread permutes sequentially (about 180 instructions a
// round, one after the other), so a batch of a few long messages (tree LI's
// leaves, a few big files) is latency-bound. Here a warp holds one state:
// lane l = x + 5y (l < 25) keeps lane A[x][y] as two 32-bit halves
// (lo, hi); lanes 25..31 compute junk in the permutation that no other lane
// reads. One round, FIPS 202 section 3.2 (step mappings), with shuffles:
//   theta  C[x] = XOR of column x: the four other lanes of the column by
//          shuffle (4 x 2 SHFL, one level); D[x] = C[x-1] ^ rol1(C[x+1]):
//          two more shuffles of C (2 x 2 SHFL, second level); A ^= D;
//   rho    rotate by this lane's offset (FIPS 202 Table 2), a run-time
//          per-lane amount: the halves exchanged when it is >= 32 (a
//          bitwise select with a per-lane mask), then two funnel shifts;
//   pi+chi B[y][2x+3y] = A[x][y]; A[x][y] = B[x][y] ^ (~B[x+1][y] & B[x+2][y]):
//          lane (x, y) reads B[x][y], B[x+1][y], B[x+2][y] straight from
//          their pi source lanes (3 x 2 SHFL, third level), no separate pi;
//   iota   lane 0 XORs the round constant (a per-lane mask, no branch).
// 18 shuffles a round in three dependent levels.
//
// The message: lane l < 25 takes word l (bytes 8l .. 8l + 8) of the current
// rate block, so the warp's loads are coalesced. Where the block's address
// is 8-byte aligned (every block when the offsets and the rate are multiples
// of 8: batch.cu's KX_LOAD_DIRECT conditions, checked per message and block
// at run time, uniform over the warp) a whole word is one 8-byte load; any
// other word (unaligned, or the message's partial last word) goes through
// kx_load_word (job.cuh), which never reads outside [0, data_len). Block
// t + 1 is loaded into registers before block t is permuted, so the load
// latency hides behind the permutation. The last block gets the delimited
// suffix and pad10*1 as in batch.cu. Squeezing: lane l stores its word of
// each output block (8-byte stores where aligned, else 4-byte or bytes,
// never past out_len), with one more permutation per further rate block.
//
// The round and the message loop are written once, as templates over a
// "warp" type W: on the GPU W = KxWarpGpu (W::V is this thread's 32-bit
// value, W::shfl is __shfl_sync); the host emulation
// (tests/emulation/harness.cpp) instantiates them with a vector of 32
// values, shfl a gather, and per-lane code run for each of the 32 lanes.
//
// Constants are facts from FIPS 202: rho offsets (Table 2), pi
// (x, y) -> (y, 2x + 3y) (Algorithm 3), round constants (keccak_f1600.cuh).
#include "keccak_f1600.cuh"
#include "job.cuh"

#ifndef KX_WARP_THREADS
#define KX_WARP_THREADS 128  // 4 messages per block
#endif

// rho offsets by lane l = x + 5y (FIPS 202 Table 2).
KX_DEV kx_u32 kx_warp_rho(kx_u32 l) {
    // Packed 6 bits per lane would need 150 bits; a switch compiles to a few
    // selects once per kernel (the constants are computed once).
    switch (l) {
        case 0: return 0;
        case 1: return 1;
        case 2: return 62;
        case 3: return 28;
        case 4: return 27;
        case 5: return 36;
        case 6: return 44;
        case 7: return 6;
        case 8: return 55;
        case 9: return 20;
        case 10: return 3;
        case 11: return 10;
        case 12: return 43;
        case 13: return 25;
        case 14: return 39;
        case 15: return 41;
        case 16: return 45;
        case 17: return 15;
        case 18: return 21;
        case 19: return 8;
        case 20: return 18;
        case 21: return 2;
        case 22: return 61;
        case 23: return 56;
        case 24: return 14;
        default: return 0;
    }
}

// Lane (x, y) after pi holds A[x'][y'] of before pi with x' = (x + 3y) mod 5,
// y' = x (inverting B[y'][2x' + 3y'] = A[x'][y']): its source lane.
KX_DEV kx_u32 kx_warp_pi_src(kx_u32 x, kx_u32 y) { return (x + 3 * y) % 5 + 5 * x; }

// Per-lane constants of the round (computed once per kernel).
template <class W>
struct KxWarpConsts {
    typedef typename W::V V;
    V col[4];      // theta: the other four lanes of this lane's column
    V cm, cp;      // theta: lanes (x - 1, y) and (x + 1, y)
    V swap;        // rho: all ones where the offset is >= 32
    V rot;         // rho: the offset mod 32
    V chi[3];      // pi+chi: the pi sources of (x, y), (x + 1, y), (x + 2, y)
    V first;       // iota: all ones in lane 0
};

// The constants of lane l (lanes 25..31 read themselves).
template <class W>
KX_DEV void kx_warp_consts_lane(KxWarpConsts<W>& k, kx_u32 l) {
    const bool live = l < 25;
    const kx_u32 x = l % 5, y = l / 5;
#pragma unroll
    for (kx_u32 q = 0; q < 4; ++q) W::at(k.col[q], l) = live ? x + 5 * ((y + 1 + q) % 5) : l;
    W::at(k.cm, l) = live ? (x + 4) % 5 + 5 * y : l;
    W::at(k.cp, l) = live ? (x + 1) % 5 + 5 * y : l;
    const kx_u32 r = kx_warp_rho(l);
    W::at(k.swap, l) = r >= 32 ? ~0u : 0u;
    W::at(k.rot, l) = r & 31;
#pragma unroll
    for (kx_u32 q = 0; q < 3; ++q) W::at(k.chi[q], l) = live ? kx_warp_pi_src((x + q) % 5, y) : l;
    W::at(k.first, l) = l == 0 ? ~0u : 0u;
}

template <class W>
KX_DEV void kx_warp_consts(KxWarpConsts<W>& k, typename W::V lane) {
    W::each(lane, [&](kx_u32 l) { kx_warp_consts_lane<W>(k, l); });
}

// One round on the warp's state (lo, hi); rc the round constant.
template <class W>
KX_DEV void kx_warp_round(typename W::V& lo, typename W::V& hi, const KxWarpConsts<W>& k, kx_u64 rc) {
    typedef typename W::V V;
    // theta: column parities (level 1), D from the neighbouring columns (level 2).
    const V clo = lo ^ W::shfl(lo, k.col[0]) ^ W::shfl(lo, k.col[1]) ^ W::shfl(lo, k.col[2]) ^ W::shfl(lo, k.col[3]);
    const V chi_ = hi ^ W::shfl(hi, k.col[0]) ^ W::shfl(hi, k.col[1]) ^ W::shfl(hi, k.col[2]) ^ W::shfl(hi, k.col[3]);
    const V mlo = W::shfl(clo, k.cm), mhi = W::shfl(chi_, k.cm);
    const V plo = W::shfl(clo, k.cp), phi = W::shfl(chi_, k.cp);
    // rol1(C[x+1]): new lo = (lo << 1) | (hi >> 31), new hi = (hi << 1) | (lo >> 31).
    const V tlo = lo ^ mlo ^ W::fshl(phi, plo, V(1));
    const V thi = hi ^ mhi ^ W::fshl(plo, phi, V(1));
    // rho: rotate left by r = 32 * swap + rot. For r < 32 the new lo is the
    // top word of (lo:hi) << rot, for r >= 32 that of (hi:lo) << rot.
    const V u = (thi & ~k.swap) | (tlo & k.swap);  // low word of the funnel for the new lo
    const V w = (tlo & ~k.swap) | (thi & k.swap);  // high word of the funnel for the new lo
    const V rlo = W::fshl(u, w, k.rot);
    const V rhi = W::fshl(w, u, k.rot);
    // pi and chi (level 3), then iota.
    const V b0l = W::shfl(rlo, k.chi[0]), b0h = W::shfl(rhi, k.chi[0]);
    const V b1l = W::shfl(rlo, k.chi[1]), b1h = W::shfl(rhi, k.chi[1]);
    const V b2l = W::shfl(rlo, k.chi[2]), b2h = W::shfl(rhi, k.chi[2]);
    lo = (b0l ^ (~b1l & b2l)) ^ (k.first & V((kx_u32)rc));
    hi = (b0h ^ (~b1h & b2h)) ^ (k.first & V((kx_u32)(rc >> 32)));
}

// Keccak-p[1600, ROUNDS] on the warp's state: 24 or 12 rounds unrolled with
// the constants as immediates; ROUNDS = 0: `rounds` (1..24) from the table.
template <class W, int ROUNDS>
KX_DEV void kx_warp_permute(typename W::V& lo, typename W::V& hi, const KxWarpConsts<W>& k, kx_u32 rounds) {
    if constexpr (ROUNDS == 24 || ROUNDS == 12) {
        if constexpr (ROUNDS == 24) {
            kx_warp_round<W>(lo, hi, k, KX_RC0);
            kx_warp_round<W>(lo, hi, k, KX_RC1);
            kx_warp_round<W>(lo, hi, k, KX_RC2);
            kx_warp_round<W>(lo, hi, k, KX_RC3);
            kx_warp_round<W>(lo, hi, k, KX_RC4);
            kx_warp_round<W>(lo, hi, k, KX_RC5);
            kx_warp_round<W>(lo, hi, k, KX_RC6);
            kx_warp_round<W>(lo, hi, k, KX_RC7);
            kx_warp_round<W>(lo, hi, k, KX_RC8);
            kx_warp_round<W>(lo, hi, k, KX_RC9);
            kx_warp_round<W>(lo, hi, k, KX_RC10);
            kx_warp_round<W>(lo, hi, k, KX_RC11);
        }
        kx_warp_round<W>(lo, hi, k, KX_RC12);
        kx_warp_round<W>(lo, hi, k, KX_RC13);
        kx_warp_round<W>(lo, hi, k, KX_RC14);
        kx_warp_round<W>(lo, hi, k, KX_RC15);
        kx_warp_round<W>(lo, hi, k, KX_RC16);
        kx_warp_round<W>(lo, hi, k, KX_RC17);
        kx_warp_round<W>(lo, hi, k, KX_RC18);
        kx_warp_round<W>(lo, hi, k, KX_RC19);
        kx_warp_round<W>(lo, hi, k, KX_RC20);
        kx_warp_round<W>(lo, hi, k, KX_RC21);
        kx_warp_round<W>(lo, hi, k, KX_RC22);
        kx_warp_round<W>(lo, hi, k, KX_RC23);
    } else {
        static_assert(ROUNDS == 0, "warp permutation: 24, 12 or 0 (run time) rounds");
        const kx_u32 n = rounds > 24 ? 24 : rounds;
#if defined(__CUDACC__)
#pragma unroll 1
#endif
        for (kx_u32 r = 24 - n; r < 24; ++r) kx_warp_round<W>(lo, hi, k, kx_rc_table[r]);
    }
}

// Lane l's word of block t of a message at off (len bytes, nblk blocks to
// absorb), the padding included in the last block; zero past the rate.
KX_DEV void kx_warp_load_lane(kx_u32 l, const KxBatchJob& j, kx_u64 off, kx_u64 len, kx_u64 t, kx_u64 nblk,
                              kx_u32* lo, kx_u32* hi) {
    const unsigned char* data = (const unsigned char*)j.data;
    const kx_u32 rate = j.rate;
    const kx_u64 pos = t * (kx_u64)rate;
    const kx_u64 rem = len - pos;
    const kx_u32 take = rem < rate ? (kx_u32)rem : rate;  // message bytes in this block
    const kx_u32 wb = 8 * l;
    kx_u32 vlo = 0, vhi = 0;
    if (l < 25 && wb < take) {
        const kx_u64 addr = off + pos + wb;
        if (wb + 8 <= take && ((j.data + addr) & 7) == 0) {
            const kx_u64 v = *(const kx_u64*)(data + addr);
            vlo = (kx_u32)v;
            vhi = (kx_u32)(v >> 32);
        } else {
            vlo = kx_load_word(data, j.data_len, addr, take - wb);
            if (take - wb > 4) vhi = kx_load_word(data, j.data_len, addr + 4, take - wb - 4);
        }
    }
    if (t + 1 == nblk) {  // last block: suffix bits at byte `take`, then pad10*1's final bit
        if ((take >> 3) == l) {
            const kx_u32 s = j.suffix << ((take & 3) * 8);
            if (take & 4) vhi ^= s; else vlo ^= s;
        }
        if (((rate - 1) >> 3) == l) {
            const kx_u32 p = 0x80u << (((rate - 1) & 3) * 8);
            if ((rate - 1) & 4) vhi ^= p; else vlo ^= p;
        }
    }
    *lo = vlo;
    *hi = vhi;
}

// Store n (1..4) bytes of v at p: one 4-byte store where aligned and whole.
KX_DEV void kx_warp_store4(unsigned char* p, kx_u32 v, kx_u32 n) {
    if (n >= 4 && ((kx_u64)p & 3) == 0) {
        *(kx_u32*)p = v;
    } else {
        for (kx_u32 b = 0; b < n && b < 4; ++b) p[b] = (unsigned char)(v >> (8 * b));
    }
}

// Lane l's part of output block q of message i: bytes 8l .. 8l + 8 of the
// block, clipped to the rate and to out_len.
KX_DEV void kx_warp_store_lane(kx_u32 l, const KxBatchJob& j, kx_u64 i, kx_u64 q, kx_u32 lo, kx_u32 hi) {
    const kx_u64 start = q * (kx_u64)j.rate;
    const kx_u64 left = (kx_u64)j.out_len - start;
    const kx_u32 count = left < j.rate ? (kx_u32)left : j.rate;
    const kx_u32 wb = 8 * l;
    if (l >= 25 || wb >= count) return;
    unsigned char* p = (unsigned char*)j.out + i * (kx_u64)j.out_len + start + wb;
    lo = (kx_u32)KX_MUTATE_LANE((kx_u64)lo, l, q);
    const kx_u32 have = count - wb;
    if (have >= 8 && ((kx_u64)p & 7) == 0) {
        *(kx_u64*)p = ((kx_u64)hi << 32) | lo;
    } else {
        kx_warp_store4(p, lo, have);
        if (have > 4) kx_warp_store4(p + 4, hi, have - 4);
    }
}

// Hash message i on this warp: absorb block t (loaded one step ahead),
// permute, and squeeze output block t + 1 - nblk once the last block is in
// (absorb and squeeze share the loop: the permutation is inlined once).
template <class W, int ROUNDS>
KX_DEV void kx_warp_message(const KxBatchJob& j, kx_u64 i, typename W::V lane) {
    typedef typename W::V V;
    kx_u64 off, len;
    kx_locate(j, i, &off, &len);
    const kx_u64 nblk = len / j.rate + 1;
    const kx_u64 steps = nblk + ((kx_u64)j.out_len - 1) / j.rate;
    KxWarpConsts<W> k;
    kx_warp_consts<W>(k, lane);
    V lo(0u), hi(0u), nlo(0u), nhi(0u);
    W::each(lane, [&](kx_u32 l) { kx_warp_load_lane(l, j, off, len, 0, nblk, &W::at(nlo, l), &W::at(nhi, l)); });
    for (kx_u64 t = 0; t < steps; ++t) {
        if (t < nblk) {
            lo = lo ^ nlo;
            hi = hi ^ nhi;
            if (t + 1 < nblk)
                W::each(lane, [&](kx_u32 l) {
                    kx_warp_load_lane(l, j, off, len, t + 1, nblk, &W::at(nlo, l), &W::at(nhi, l));
                });
        }
        kx_warp_permute<W, ROUNDS>(lo, hi, k, j.rounds);
        if (t + 1 >= nblk)
            W::each(lane, [&](kx_u32 l) { kx_warp_store_lane(l, j, i, t + 1 - nblk, W::at(lo, l), W::at(hi, l)); });
    }
}

#if defined(__CUDACC__)

// One lane per thread.
struct KxWarpGpu {
    typedef kx_u32 V;
    static KX_MDEV V shfl(V x, V src) { return __shfl_sync(0xffffffffu, x, (int)src); }
    static KX_MDEV V fshl(V lo, V hi, V s) { return kx_fshl(lo, hi, s); }
    static KX_MDEV kx_u32& at(V& v, kx_u32) { return v; }
    template <class F>
    static KX_MDEV void each(V lane, F f) {
        f(lane);
    }
};

template <int ROUNDS>
KX_DEV void kx_warp_batch(const KxBatchJob& j) {
    const kx_u32 lane = threadIdx.x & (KX_WARP - 1);
    // The warp index read from lane 0: the same value as threadIdx.x / 32,
    // but visibly warp-uniform to the compiler. From threadIdx.x / 32 ptxas
    // cannot tell that the early return and the message loop (its trip
    // count comes from message i) leave the warp converged, and emits every
    // shuffle twice, with a WARPSYNC/ENDCOLLECTIVE fallback for divergent
    // lanes (36 SHFL and about 70 other instructions a round instead of 18
    // and 16).
    const kx_u32 warp = __shfl_sync(0xffffffffu, threadIdx.x, 0) / KX_WARP;
    const kx_u64 i = (kx_u64)blockIdx.x * (KX_WARP_THREADS / KX_WARP) + warp;
    if (i >= j.n) return;  // the whole warp (one message per warp)
    kx_warp_message<KxWarpGpu, ROUNDS>(j, i, lane);
}

#define KX_WARP_ENTRY(name, R)                                                                      \
    extern "C" __global__ void __launch_bounds__(KX_WARP_THREADS) name(KxBatchJob j) { kx_warp_batch<R>(j); }

KX_WARP_ENTRY(kx_warp_r24, 24)
KX_WARP_ENTRY(kx_warp_r12, 12)
KX_WARP_ENTRY(kx_warp_rn, 0)

#endif  // __CUDACC__
