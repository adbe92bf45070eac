// keccakx GPU kernels: batch hashing, one thread per message.
//
// N independent width-1600 sponges with one LaneSpec (rate in bytes, rounds,
// delimited suffix) and one output length: SHA3-*, SHAKE*, Keccak-*,
// TurboSHAKE*, raw Keccak[r, c], KT/ParallelHash leaves. Message i is
//   data[offsets[i] .. offsets[i] + lengths[i])       (indexed layout), or
//   data[i * stride .. i * stride + msg_len)          (uniform layout, offsets == 0).
// Output i goes to out[i * out_len .. (i + 1) * out_len).
//
// Each thread keeps its state in registers. Message blocks reach it in one
// of three ways (template STAGED = 1, 2, 0):
//   KX_LOAD_STAGED  the warp copies the current block of its 32 messages into
//                   shared memory word by word (consecutive lanes read
//                   consecutive words of one message: coalesced; any byte
//                   alignment; a funnel shift realigns), padding included;
//                   then each thread XORs its own block from shared memory;
//   double-buffered the warp copies raw aligned words of block t + 1 into one
//                   of two buffers (cp.async) while permuting block t; each
//                   thread realigns and pads its own block (see below);
//   KX_LOAD_DIRECT  each thread reads its own block with 8-byte loads; needs
//                   every message offset and the rate to be multiples of 8
//                   and data_len a multiple of 8 (the host checks).
// Absorbing and squeezing share one loop so that the permutation is inlined
// once per kernel: in step t a thread absorbs block t (t < nblk), permutes,
// and writes output block t - (nblk - 1) once absorbing is done.
//
// The warp-level pieces are written as per-lane functions (kx_stage_*,
// kx_absorb_*, kx_store_*) so the host-emulation test can run them for 32
// simulated lanes in the same phase order as the kernel.
#include "keccak_f1600.cuh"
#include "job.cuh"

#ifndef KX_BATCH_THREADS
#define KX_BATCH_THREADS 128
#endif
// Shared-memory slot stride in 32-bit words: 33 makes both the warp's writes
// (word w of message m) and each thread's reads (word w of its own message)
// hit distinct banks.
#define KX_SLOT_STRIDE 33

// Per-warp message table in shared memory.
struct KxWarpInfo {
    kx_u64 off[KX_WARP];
    kx_u64 len[KX_WARP];
    kx_u64 nblk[KX_WARP];  // blocks to absorb (len / rate + 1); 0: no message
};

// Number of 32-bit words in a rate block.
KX_DEV kx_u32 kx_rate_words(kx_u32 rate) { return (rate + 3) >> 2; }

// Staged load, per lane: copy block t of every message of the warp that
// still absorbs into the slots (slot m, word w at slots[w * 33 + m]),
// padding applied to each message's last block. Items (m, w) are spread over
// the lanes: lane l handles items l, l + 32, ... of the m-major list.
KX_DEV void kx_stage_block(kx_u32 lane, kx_u64 t, const KxBatchJob& j, const KxWarpInfo* info, kx_u32* slots) {
    const unsigned char* data = (const unsigned char*)j.data;
    const kx_u32 rate = j.rate;
    const kx_u32 nw = kx_rate_words(rate);
    const kx_u32 total = KX_WARP * nw;
    const kx_u32 dm = KX_WARP / nw, dw = KX_WARP % nw;
    kx_u32 m = lane / nw, w = lane % nw;
    const kx_u64 pos = t * (kx_u64)rate;  // byte position of block t in a message
    for (kx_u32 it = lane; it < total; it += KX_WARP) {
        const kx_u64 nblk = info->nblk[m];
        if (t < nblk) {
            const kx_u64 rem = info->len[m] - pos;
            const kx_u32 take = rem < rate ? (kx_u32)rem : rate;  // message bytes in this block
            const kx_u32 wb = 4 * w;
            kx_u32 v = 0;
            if (take > wb) v = kx_load_word(data, j.data_len, info->off[m] + pos + wb, take - wb);
            if (t + 1 == nblk) {  // last block: suffix bits, then pad10*1
                if ((take >> 2) == w) v ^= j.suffix << ((take & 3) * 8);
                if (((rate - 1) >> 2) == w) v ^= 0x80u << (((rate - 1) & 3) * 8);
            }
            slots[w * KX_SLOT_STRIDE + m] = v;
        }
        w += dw;
        m += dm;
        if (w >= nw) {
            w -= nw;
            m += 1;
        }
    }
}

// Staged absorb, per lane: XOR this lane's slot into the state.
template <class L>
KX_DEV void kx_absorb_staged(typename L::T* a, kx_u32 lane, kx_u32 rate, const kx_u32* slots) {
    const kx_u32 nw = kx_rate_words(rate);
#pragma unroll
    for (int q = 0; q < 25; ++q) {
        if ((kx_u32)(2 * q) < nw) {
            const kx_u32 lo = slots[(2 * q) * KX_SLOT_STRIDE + lane];
            const kx_u32 hi = (kx_u32)(2 * q + 1) < nw ? slots[(2 * q + 1) * KX_SLOT_STRIDE + lane] : 0u;
            a[q] = L::x2(a[q], L::make(lo, hi));
        }
    }
}

// Direct absorb: block t of a message at data + off (8-byte aligned
// offsets, rate and data_len; see the file comment). RATE: the rate in
// bytes known at compile time (== j.rate), 0: read j.rate.
template <class L, int RATE = 0>
KX_DEV void kx_absorb_direct(typename L::T* a, const KxBatchJob& j, kx_u64 off, kx_u64 len, kx_u64 t, kx_u64 nblk) {
    const kx_u32 rate = RATE != 0 ? (kx_u32)RATE : j.rate;
    const kx_u64 pos = t * (kx_u64)rate;
    const kx_u64 rem = len - pos;
    const kx_u32 take = rem < rate ? (kx_u32)rem : rate;
    const bool last = t + 1 == nblk;
    const kx_u64* src = (const kx_u64*)((const unsigned char*)j.data + off + pos);
#pragma unroll
    for (int q = 0; q < 25; ++q) {
        if ((kx_u32)(8 * q) < rate) {
            kx_u64 v = 0;
            if ((kx_u32)(8 * q) < take) {
                v = src[q];
                const kx_u32 have = take - 8 * q;
                if (have < 8) v &= (1ULL << (8 * have)) - 1ULL;
            }
            if (last) {
                if ((take >> 3) == (kx_u32)q) v ^= (kx_u64)j.suffix << ((take & 7) * 8);
                if (((rate - 1) >> 3) == (kx_u32)q) v ^= 0x80ULL << (((rate - 1) & 7) * 8);
            }
            a[q] = L::xor_rc(a[q], v);
        }
    }
}

// Squeeze: write output block q (bytes q*rate .. min(out_len, (q+1)*rate))
// of message i from the state. Whole 8-byte words at an 8-byte aligned
// address (every standard digest length) are stored straight from the
// registers; anything else goes byte by byte, still from the registers.
template <class L>
KX_DEV void kx_store_block(const typename L::T* a, const KxBatchJob& j, kx_u64 i, kx_u64 q) {
    const kx_u64 start = q * (kx_u64)j.rate;
    const kx_u64 left = (kx_u64)j.out_len - start;
    const kx_u32 count = left < j.rate ? (kx_u32)left : j.rate;
    unsigned char* p = (unsigned char*)j.out + i * (kx_u64)j.out_len + start;
    if ((((kx_u64)p | count) & 7) == 0) {
#pragma unroll
        for (int w = 0; w < 25; ++w)
            if ((kx_u32)(8 * w) < count) *(kx_u64*)(p + 8 * w) = KX_MUTATE_LANE(L::to64(a[w]), w, q);
    } else {
        // Word by word from the registers (a local array indexed by b >> 3
        // would live in local memory: 200 bytes of stack per thread).
#pragma unroll
        for (int w = 0; w < 25; ++w) {
            if ((kx_u32)(8 * w) < count) {
                const kx_u64 v = KX_MUTATE_LANE(L::to64(a[w]), w, q);
                const kx_u32 left = count - 8 * w;
                const kx_u32 n = left < 8 ? left : 8;
                for (kx_u32 b = 0; b < n; ++b) p[8 * w + b] = (unsigned char)(v >> (8 * b));
            }
        }
    }
}

// Extra permutations for squeezing beyond the first output block.
KX_DEV kx_u64 kx_extra_blocks(const KxBatchJob& j) { return ((kx_u64)j.out_len - 1) / j.rate; }

// Step t of thread i (message i, placed at off/len, nblk blocks to absorb):
// absorb block t while t < nblk, permute, and squeeze output block
// t + 1 - nblk once the last block is in. In staged mode the warp has put
// block t into the slots before this call.
template <class L, int ROUNDS, int STAGED>
KX_DEV void kx_thread_step(typename L::T* a, const KxBatchJob& j, kx_u64 i, kx_u64 off, kx_u64 len, kx_u64 nblk,
                           kx_u64 extra, kx_u64 t, kx_u32 lane, const kx_u32* slots) {
    if (i < j.n && t < nblk + extra) {
        if (t < nblk) {
            if constexpr (STAGED != 0)
                kx_absorb_staged<L>(a, lane, j.rate, slots);
            else
                kx_absorb_direct<L>(a, j, off, len, t, nblk);
        }
        kx_permute_any<L, ROUNDS>(a, j.rounds);
        if (t + 1 >= nblk) kx_store_block<L>(a, j, i, t + 1 - nblk);
    }
}

// Shared memory per warp in 32-bit words: the message table, then the
// slots, rounded up to an even count so that every warp's table stays
// 8-byte aligned (src/kernels.rs: batch_smem_bytes computes the same).
KX_DEV kx_u32 kx_warp_smem_words(kx_u32 rate) {
    return ((kx_u32)(sizeof(KxWarpInfo) / 4) + kx_rate_words(rate) * KX_SLOT_STRIDE + 1) & ~1u;
}

// Warp `warp`'s message table and slots in the block's shared memory.
KX_DEV KxWarpInfo* kx_warp_info(kx_u64* smem, kx_u32 warp, kx_u32 rate) {
    return (KxWarpInfo*)((kx_u32*)smem + warp * kx_warp_smem_words(rate));
}
KX_DEV kx_u32* kx_warp_slots(kx_u64* smem, kx_u32 warp, kx_u32 rate) {
    return (kx_u32*)smem + warp * kx_warp_smem_words(rate) + (kx_u32)(sizeof(KxWarpInfo) / 4);
}

// ---------------------------------------------------------------------------
// Double-buffered staging (STAGED == 2): while a thread permutes block t,
// the warp's copies of block t + 1 are in flight (cp.async on sm_80+, plain
// loads elsewhere and in the host emulation). The copies are raw aligned
// 32-bit words: message m's block t starts at byte A = off + t * rate, and
// raw word w of its slot is the aligned word at (A & ~3) + 4 w, for
// w = 0 .. nw (nw + 1 words cover any misalignment). Each thread then
// realigns its own block with funnel shifts and inserts the padding
// (kx_absorb_raw): the loads themselves need no arithmetic on the bytes, so
// they can run asynchronously. Slot stride KX_SLOT_STRIDE as above; buffer
// b of a warp starts kx_raw_buf_words(rate) * b words after its table.

// Raw words per slot.
KX_DEV kx_u32 kx_raw_words(kx_u32 rate) { return kx_rate_words(rate) + 1; }
// Words of one buffer (32 slots).
KX_DEV kx_u32 kx_raw_buf_words(kx_u32 rate) { return kx_raw_words(rate) * KX_SLOT_STRIDE; }
// Shared memory per warp in 32-bit words for STAGED == 2: the table and two
// buffers, an even count (src/kernels.rs: batch_async_smem_bytes).
KX_DEV kx_u32 kx_warp_async_words(kx_u32 rate) {
    return ((kx_u32)(sizeof(KxWarpInfo) / 4) + 2 * kx_raw_buf_words(rate) + 1) & ~1u;
}
KX_DEV KxWarpInfo* kx_warp_async_info(kx_u64* smem, kx_u32 warp, kx_u32 rate) {
    return (KxWarpInfo*)((kx_u32*)smem + warp * kx_warp_async_words(rate));
}
KX_DEV kx_u32* kx_warp_async_buf(kx_u64* smem, kx_u32 warp, kx_u32 rate, kx_u64 t) {
    return (kx_u32*)smem + warp * kx_warp_async_words(rate) + (kx_u32)(sizeof(KxWarpInfo) / 4) +
           (kx_u32)(t & 1) * kx_raw_buf_words(rate);
}

// Copy 4 aligned bytes from global to shared memory, asynchronously where
// the hardware can.
KX_DEV void kx_copy4_async(kx_u32* dst, const unsigned char* src) {
#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned int d = (unsigned int)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(d), "l"(src));
#else
    *dst = *(const kx_u32*)src;
#endif
}
// Close this thread's group of copies (one group per block).
KX_DEV void kx_copy_commit() {
#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
// Wait until at most `pending` (0 or 1) of this thread's groups are in flight.
KX_DEV void kx_copy_wait(int pending) {
#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (pending)
        asm volatile("cp.async.wait_group 1;\n" ::);
    else
        asm volatile("cp.async.wait_group 0;\n" ::);
#else
    (void)pending;
#endif
}

// Issue, per lane, the copies of block t of every message of the warp that
// still absorbs into `buf`. Items (m, w), w = 0 .. nw, spread over the
// lanes as in kx_stage_block. A word holding no message byte is skipped
// (never read); a word that would reach past data_len (only at the very end
// of the buffer) is assembled from its bytes with plain loads.
KX_DEV void kx_stage_raw(kx_u32 lane, kx_u64 t, const KxBatchJob& j, const KxWarpInfo* info, kx_u32* buf) {
    const unsigned char* data = (const unsigned char*)j.data;
    const kx_u32 rate = j.rate;
    const kx_u32 nw = kx_raw_words(rate);
    const kx_u32 total = KX_WARP * nw;
    const kx_u32 dm = KX_WARP / nw, dw = KX_WARP % nw;
    kx_u32 m = lane / nw, w = lane % nw;
    const kx_u64 pos = t * (kx_u64)rate;
    for (kx_u32 it = lane; it < total; it += KX_WARP) {
        if (t < info->nblk[m]) {
            const kx_u64 start = info->off[m] + pos;  // first byte of the block
            const kx_u64 end = info->off[m] + info->len[m];  // end of the message
            const kx_u64 a = (start & ~(kx_u64)3) + 4 * (kx_u64)w;
            if (a < end && a < start + rate) {
                if (a + 4 <= j.data_len) {
                    kx_copy4_async(&buf[w * KX_SLOT_STRIDE + m], data + a);
                } else {
                    kx_u32 v = 0;
                    for (kx_u64 b = a; b < j.data_len; ++b) v |= (kx_u32)data[b] << (8 * (kx_u32)(b - a));
                    buf[w * KX_SLOT_STRIDE + m] = v;
                }
            }
        }
        w += dw;
        m += dm;
        if (w >= nw) {
            w -= nw;
            m += 1;
        }
    }
}

// Absorb block t of this lane's message from its raw slot: realign, mask
// the bytes past the message, pad the last block.
template <class L>
KX_DEV void kx_absorb_raw(typename L::T* a, kx_u32 lane, kx_u64 t, const KxBatchJob& j, const KxWarpInfo* info,
                          const kx_u32* buf) {
    const kx_u32 rate = j.rate;
    const kx_u32 nw = kx_rate_words(rate);
    const kx_u64 pos = t * (kx_u64)rate;
    const kx_u64 rem = info->len[lane] - pos;
    const kx_u32 take = rem < rate ? (kx_u32)rem : rate;
    const kx_u32 sh = (kx_u32)((info->off[lane] + pos) & 3) * 8;
    const bool last = t + 1 == info->nblk[lane];
    // Word w of the block from raw words w and w + 1; a raw word that was
    // not copied holds no wanted byte and is masked away.
    kx_u32 prev = take > 0 ? buf[lane] : 0u;
#pragma unroll
    for (int q = 0; q < 25; ++q) {
        if ((kx_u32)(2 * q) < nw) {
            kx_u32 half[2];
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const kx_u32 w = 2 * q + h;
                kx_u32 v = 0;
                if (w < nw) {
                    const kx_u32 wb = 4 * w;
                    // Raw word w + 1 holds wanted bytes iff the block's bytes
                    // reach past raw word w: sh/8 + take > 4 (w + 1).
                    const kx_u32 next = (sh / 8 + take > 4 * (w + 1)) ? buf[(w + 1) * KX_SLOT_STRIDE + lane] : 0u;
                    if (take > wb) {
                        v = kx_fshr(prev, next, sh);
                        const kx_u32 avail = take - wb;
                        if (avail < 4) v &= (1u << (8 * avail)) - 1u;
                    }
                    if (last) {
                        if ((take >> 2) == w) v ^= j.suffix << ((take & 3) * 8);
                        if (((rate - 1) >> 2) == w) v ^= 0x80u << (((rate - 1) & 3) * 8);
                    }
                    prev = next;
                }
                half[h] = v;
            }
            a[q] = L::x2(a[q], L::make(half[0], half[1]));
        }
    }
}

// kx_thread_step for double-buffered staging: block t from its raw slot.
template <class L, int ROUNDS>
KX_DEV void kx_thread_step_raw(typename L::T* a, const KxBatchJob& j, kx_u64 i, kx_u64 nblk, kx_u64 extra, kx_u64 t,
                               kx_u32 lane, const KxWarpInfo* info, const kx_u32* buf) {
    if (i < j.n && t < nblk + extra) {
        if (t < nblk) kx_absorb_raw<L>(a, lane, t, j, info, buf);
        kx_permute_any<L, ROUNDS>(a, j.rounds);
        if (t + 1 >= nblk) kx_store_block<L>(a, j, i, t + 1 - nblk);
    }
}

// ---------------------------------------------------------------------------
// Rate-specialized direct kernels (RATE = 136 or 168 bytes, a multiple of 8,
// known at compile time; the host runs them only for that rate, with the
// KX_LOAD_DIRECT alignment). A thread absorbs every block but its last as a
// whole block: RATE / 8 loads issued back to back (nothing consumes a word
// before the last load is issued, so a warp waits once per block for
// memory, not once per word), then RATE / 8 XORs; no per-word branch, no
// length arithmetic. The last block (partial, padded) and the squeeze go
// through the generic per-word code, once per message. The permutation is
// inlined twice (hot loop, tail); the SASS test (tests/sass.rs) checks the
// hot loop: loads back to back, at most 3.5 instructions per absorbed word
// besides the permutation, no spills.

// Absorb a whole block of RATE bytes at src (8-byte aligned).
template <class L, int RATE>
KX_DEV void kx_absorb_full(typename L::T* a, const kx_u64* src) {
    static_assert(RATE % 8 == 0 && RATE <= 200, "whole-block absorb: RATE a multiple of 8");
    kx_u64 v[RATE / 8];
#pragma unroll
    for (int q = 0; q < RATE / 8; ++q) v[q] = src[q];
#pragma unroll
    for (int q = 0; q < RATE / 8; ++q) a[q] = L::xor_rc(a[q], v[q]);
}

// Message i of the job on this thread, for j.rate == RATE.
template <class L, int ROUNDS, int RATE>
KX_DEV void kx_thread_rate(const KxBatchJob& j, kx_u64 i) {
    typedef typename L::T T;
    kx_u64 off, len;
    kx_locate(j, i, &off, &len);
    const kx_u64 nblk = len / RATE + 1;
    T a[25];
#pragma unroll
    for (int q = 0; q < 25; ++q) a[q] = L::zero();
    // Hot loop: the whole blocks before the last (a pointer walk: no
    // 64-bit block counter and multiply per block).
    const kx_u64* src = (const kx_u64*)((const unsigned char*)j.data + off);
    const kx_u64* whole_end = src + (nblk - 1) * (RATE / 8);
    for (; src != whole_end; src += RATE / 8) {
        kx_absorb_full<L, RATE>(a, src);
        kx_permute<L, ROUNDS>(a);
    }
    // The last block, then the squeeze.
    const kx_u64 extra = kx_extra_blocks(j);
    for (kx_u64 t = nblk - 1; t < nblk + extra; ++t) {
        if (t < nblk) kx_absorb_direct<L, RATE>(a, j, off, len, t, nblk);
        kx_permute<L, ROUNDS>(a);
        kx_store_block<L>(a, j, i, t + 1 - nblk);
    }
}

#if defined(__CUDACC__)

template <class L, int ROUNDS, int RATE>
KX_DEV void kx_batch_rate(const KxBatchJob& j) {
    const kx_u64 i = (kx_u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < j.n) kx_thread_rate<L, ROUNDS, RATE>(j, i);
}

template <class L, int ROUNDS, int STAGED>
KX_DEV void kx_batch(const KxBatchJob& j) {
    extern __shared__ kx_u64 kx_smem64[];
    typedef typename L::T T;
    const kx_u32 lane = threadIdx.x & (KX_WARP - 1);
    const kx_u32 warp = threadIdx.x / KX_WARP;
    const kx_u64 i = (kx_u64)blockIdx.x * blockDim.x + threadIdx.x;

    kx_u64 off, len;
    kx_locate(j, i, &off, &len);
    const kx_u64 nblk = i < j.n ? len / j.rate + 1 : 0;
    const kx_u64 extra = kx_extra_blocks(j);

    // Steps for the warp: its longest message plus the squeeze blocks.
    kx_u64 wmax = nblk;
#pragma unroll
    for (int s = 16; s >= 1; s >>= 1) {
        const kx_u64 o = __shfl_xor_sync(0xffffffffu, wmax, s);
        wmax = o > wmax ? o : wmax;
    }
    if (wmax == 0) return;  // whole warp past the end (warp-uniform)

    T a[25];
#pragma unroll
    for (int q = 0; q < 25; ++q) a[q] = L::zero();
    const kx_u64 steps = wmax + extra;

    if constexpr (STAGED == 2) {
        KxWarpInfo* info = kx_warp_async_info(kx_smem64, warp, j.rate);
        info->off[lane] = off;
        info->len[lane] = len;
        info->nblk[lane] = nblk;
        __syncwarp();
        kx_stage_raw(lane, 0, j, info, kx_warp_async_buf(kx_smem64, warp, j.rate, 0));
        kx_copy_commit();
        for (kx_u64 t = 0; t < steps; ++t) {
            const bool ahead = t + 1 < wmax;  // block t + 1 goes into the other buffer now
            if (ahead) {
                kx_stage_raw(lane, t + 1, j, info, kx_warp_async_buf(kx_smem64, warp, j.rate, t + 1));
                kx_copy_commit();
            }
            kx_copy_wait(ahead ? 1 : 0);
            __syncwarp();
            kx_thread_step_raw<L, ROUNDS>(a, j, i, nblk, extra, t, lane, info,
                                          kx_warp_async_buf(kx_smem64, warp, j.rate, t));
            __syncwarp();
        }
        return;
    }

    KxWarpInfo* info = 0;
    kx_u32* slots = 0;
    if constexpr (STAGED != 0) {
        info = kx_warp_info(kx_smem64, warp, j.rate);
        slots = kx_warp_slots(kx_smem64, warp, j.rate);
        info->off[lane] = off;
        info->len[lane] = len;
        info->nblk[lane] = nblk;
        __syncwarp();
    }
    for (kx_u64 t = 0; t < steps; ++t) {
        if constexpr (STAGED != 0) {
            if (t < wmax) kx_stage_block(lane, t, j, info, slots);
            __syncwarp();
        }
        kx_thread_step<L, ROUNDS, STAGED>(a, j, i, off, len, nblk, extra, t, lane, slots);
        if constexpr (STAGED != 0) __syncwarp();
    }
}

#define KX_BATCH_ENTRY(name, L, R, S)                                          \
    extern "C" __global__ void __launch_bounds__(KX_BATCH_THREADS) name(KxBatchJob j) { \
        kx_batch<L, R, S>(j);                                                  \
    }
// Variants with a register cap (at least MINB blocks per SM: 6 -> 80
// registers, against 89-96 uncapped) for the GPU runs to compare; they
// spill a few bytes (bench/gpu/sass-sm_90.json), so they are not the default.
#define KX_BATCH_ENTRY_LB(name, L, R, S, MINB)                                        \
    extern "C" __global__ void __launch_bounds__(KX_BATCH_THREADS, MINB) name(KxBatchJob j) { \
        kx_batch<L, R, S>(j);                                                         \
    }

#define KX_BATCH_RATE_ENTRY(name, L, R, RATE)                                  \
    extern "C" __global__ void __launch_bounds__(KX_BATCH_THREADS) name(KxBatchJob j) { \
        kx_batch_rate<L, R, RATE>(j);                                          \
    }

// KX_BATCH_SET selects the kernels of one compilation (the host compiles
// each set on first use): 24 (Keccak-f[1600]), 12 (TurboSHAKE/KT), 0 (any
// rounds); undefined: all.
#if !defined(KX_BATCH_SET) || KX_BATCH_SET == 24
KX_BATCH_ENTRY(kx_batch_r24, KxSplit, 24, 1)
KX_BATCH_ENTRY(kx_batch_async_r24, KxSplit, 24, 2)
KX_BATCH_ENTRY(kx_batch_direct_r24, KxSplit, 24, 0)
KX_BATCH_RATE_ENTRY(kx_batch_direct_r24_136, KxSplit, 24, 136)
KX_BATCH_RATE_ENTRY(kx_batch_direct_r24_168, KxSplit, 24, 168)
#if defined(KX_RESEARCH)  // the comparison kernels (feature `research`)
KX_BATCH_ENTRY(kx_batch_u64_r24, KxU64, 24, 1)
KX_BATCH_ENTRY_LB(kx_batch_lb6_r24, KxSplit, 24, 1, 6)
KX_BATCH_ENTRY_LB(kx_batch_direct_lb6_r24, KxSplit, 24, 0, 6)
// rho's rotations on the FMA pipe (KxImadRho, keccak_f1600.cuh): for the
// GPU runs to compare with kx_batch_r24 and kx_batch_direct_r24.
KX_BATCH_ENTRY(kx_batch_imad_r24, KxImadRho, 24, 1)
KX_BATCH_ENTRY(kx_batch_direct_imad_r24, KxImadRho, 24, 0)
#endif  // KX_RESEARCH
#endif
#if !defined(KX_BATCH_SET) || KX_BATCH_SET == 12
KX_BATCH_ENTRY(kx_batch_r12, KxSplit, 12, 1)
KX_BATCH_ENTRY(kx_batch_async_r12, KxSplit, 12, 2)
KX_BATCH_ENTRY(kx_batch_direct_r12, KxSplit, 12, 0)
KX_BATCH_RATE_ENTRY(kx_batch_direct_r12_168, KxSplit, 12, 168)
KX_BATCH_RATE_ENTRY(kx_batch_direct_r12_136, KxSplit, 12, 136)
#endif
#if !defined(KX_BATCH_SET) || KX_BATCH_SET == 0
KX_BATCH_ENTRY(kx_batch_rn, KxSplit, 0, 1)
#endif

#endif  // __CUDACC__
