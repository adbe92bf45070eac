// keccakx GPU kernels: the 2011 GPU tree-hashing paper's design, kept for
// comparison. 25 threads cooperate on one Keccak-f[1600] state held in
// shared memory, each thread owning one lane (x, y) (the paper's
// Algorithm 1): theta's column parities by 5 threads, then every thread
// computes its lane's theta, rho and pi, then chi and iota, with a barrier
// between the steps. KX_PAPER_STATES states share a thread block.
//
// kx_paper_batch hashes messages with the same KxBatchJob as batch.cu (any
// rate, suffix, rounds and output length); kx_paper_perm measures the
// permutation alone, starting from the same states as perm.cu.
#include "keccak_f1600.cuh"
#include "job.cuh"

#ifndef KX_PAPER_STATES
#define KX_PAPER_STATES 4
#endif
#define KX_PAPER_THREADS (25 * KX_PAPER_STATES)

// rho offsets by lane index x + 5y (FIPS 202 Table 2).
KX_CONSTANT kx_u32 kx_rho[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                 25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

KX_DEV kx_u64 kx_paper_rol(kx_u64 v, kx_u32 n) { return n ? (v << n) | (v >> (64 - n)) : v; }

// The three steps of a round for lane l = x + 5y of one state (A, B, C in
// shared memory); the kernel puts a barrier after each step.
// Step 1 (threads l < 5): theta's column parity C[x].
KX_DEV void kx_paper_step1(const kx_u64* A, kx_u64* C, kx_u32 l) {
    if (l < 5) C[l] = A[l] ^ A[l + 5] ^ A[l + 10] ^ A[l + 15] ^ A[l + 20];
}
// Step 2: theta on the own lane, then rho and pi: B[y, 2x + 3y] = rot(A[x, y] ^ D[x], r[x, y]).
KX_DEV void kx_paper_step2(const kx_u64* A, kx_u64* B, const kx_u64* C, kx_u32 l) {
    const kx_u32 x = l % 5, y = l / 5;
    const kx_u64 d = C[(x + 4) % 5] ^ kx_paper_rol(C[(x + 1) % 5], 1);
    B[y + 5 * ((2 * x + 3 * y) % 5)] = kx_paper_rol(A[l] ^ d, kx_rho[l]);
}
// Step 3: chi on the own lane, iota on lane 0.
KX_DEV void kx_paper_step3(kx_u64* A, const kx_u64* B, kx_u32 l, kx_u64 rc) {
    const kx_u32 x = l % 5, y = l / 5;
    kx_u64 r = B[l] ^ (~B[(x + 1) % 5 + 5 * y] & B[(x + 2) % 5 + 5 * y]);
    if (l == 0) r ^= rc;
    A[l] = r;
}

// Absorb step t for lane l of message i (off, len, nblk): bytes 8l..8l+7 of
// block t, with the padding when t is the last block.
KX_DEV void kx_paper_absorb_lane(kx_u64* A, const KxBatchJob& j, kx_u64 off, kx_u64 len, kx_u64 nblk, kx_u64 t,
                                 kx_u32 l) {
    const kx_u32 rate = j.rate;
    if (8 * l >= rate) return;
    const unsigned char* data = (const unsigned char*)j.data;
    const kx_u64 pos = t * (kx_u64)rate;
    const kx_u64 rem = len - pos;
    const kx_u32 take = rem < rate ? (kx_u32)rem : rate;
    const kx_u32 b = 8 * l;
    kx_u32 lo = 0, hi = 0;
    if (b < take) lo = kx_load_word(data, j.data_len, off + pos + b, take - b);
    if (b + 4 < take) hi = kx_load_word(data, j.data_len, off + pos + b + 4, take - b - 4);
    kx_u64 v = ((kx_u64)hi << 32) | lo;
    if (t + 1 == nblk) {
        if ((take >> 3) == l) v ^= (kx_u64)j.suffix << ((take & 7) * 8);
        if (((rate - 1) >> 3) == l) v ^= 0x80ULL << (((rate - 1) & 7) * 8);
    }
    A[l] ^= v;
}

// Squeeze: lane l's bytes of output block q of message i.
KX_DEV void kx_paper_store_lane(const kx_u64* A, const KxBatchJob& j, kx_u64 i, kx_u64 q, kx_u32 l) {
    const kx_u32 rate = j.rate;
    const kx_u64 start = q * (kx_u64)rate;
    const kx_u64 left = (kx_u64)j.out_len - start;
    const kx_u32 count = left < rate ? (kx_u32)left : rate;
    const kx_u64 v = KX_MUTATE_LANE(A[l], l, q);
    unsigned char* p = (unsigned char*)j.out + i * (kx_u64)j.out_len + start;
    for (kx_u32 b = 8 * l; b < count && b < 8 * l + 8; ++b) p[b] = (unsigned char)(v >> (8 * (b - 8 * l)));
}

#if defined(__CUDACC__)

// One round; every thread of the block calls it (it contains barriers).
__device__ __forceinline__ void kx_paper_round(kx_u64* A, kx_u64* B, kx_u64* C, kx_u32 l, kx_u64 rc) {
    kx_paper_step1(A, C, l);
    __syncthreads();
    kx_paper_step2(A, B, C, l);
    __syncthreads();
    kx_paper_step3(A, B, l, rc);
    __syncthreads();
}

extern "C" __global__ void __launch_bounds__(KX_PAPER_THREADS) kx_paper_batch(KxBatchJob j) {
    __shared__ kx_u64 A[KX_PAPER_STATES][25], B[KX_PAPER_STATES][25], C[KX_PAPER_STATES][5];
    __shared__ unsigned long long steps_sh;
    const kx_u32 s = threadIdx.x / 25, l = threadIdx.x % 25;
    const kx_u64 i = (kx_u64)blockIdx.x * KX_PAPER_STATES + s;
    const bool live = i < j.n;
    kx_u64 off, len;
    kx_locate(j, i, &off, &len);
    const kx_u64 nblk = live ? len / j.rate + 1 : 0;
    const kx_u64 extra = ((kx_u64)j.out_len - 1) / j.rate;
    if (threadIdx.x == 0) steps_sh = 0;
    A[s][l] = 0;
    __syncthreads();
    if (l == 0 && live) atomicMax(&steps_sh, (unsigned long long)(nblk + extra));
    __syncthreads();
    const kx_u64 steps = steps_sh;
    for (kx_u64 t = 0; t < steps; ++t) {
        if (live && t < nblk) kx_paper_absorb_lane(A[s], j, off, len, nblk, t, l);
        __syncthreads();
        for (kx_u32 r = 24 - j.rounds; r < 24; ++r) kx_paper_round(A[s], B[s], C[s], l, kx_rc_table[r]);
        if (live && t < nblk + extra && t + 1 >= nblk) kx_paper_store_lane(A[s], j, i, t + 1 - nblk, l);
    }
}

extern "C" __global__ void __launch_bounds__(KX_PAPER_THREADS) kx_paper_perm(kx_u64* out, kx_u32 iters,
                                                                              kx_u64 nstates) {
    __shared__ kx_u64 A[KX_PAPER_STATES][25], B[KX_PAPER_STATES][25], C[KX_PAPER_STATES][5];
    const kx_u32 s = threadIdx.x / 25, l = threadIdx.x % 25;
    const kx_u64 st = (kx_u64)blockIdx.x * KX_PAPER_STATES + s;
    A[s][l] = ((st << 5) | l) * 0x9E3779B97F4A7C15ULL;  // = kx_perm_init(st, l) in perm.cu
    __syncthreads();
    for (kx_u32 k = 0; k < iters; ++k)
        for (kx_u32 r = 0; r < 24; ++r) kx_paper_round(A[s], B[s], C[s], l, kx_rc_table[r]);
    if (l == 0 && st < nstates) {
        kx_u64 acc = 0;
        for (int q = 0; q < 25; ++q) acc ^= A[s][q];
        out[st] = KX_MUTATE_LANE(acc, 0, 0);
    }
}

#endif  // __CUDACC__
