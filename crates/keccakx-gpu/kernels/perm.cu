// keccakx GPU kernels: Keccak-p[1600] permutation throughput (benchmark).
//
// Each thread owns one state in registers, initialised from its index,
// applies `iters` permutations and writes the XOR of its 25 lanes (so the
// compiler keeps every instruction). kx_perm_init is the host-reproducible
// starting state; the host checks a sample of results against the CPU.
#include "keccak_f1600.cuh"

#ifndef KX_PERM_THREADS
#define KX_PERM_THREADS 128
#endif

// Lane q of state number s before the first permutation.
KX_DEV kx_u64 kx_perm_init(kx_u64 s, kx_u32 q) { return ((s << 5) | q) * 0x9E3779B97F4A7C15ULL; }

#if defined(__CUDACC__)

template <class L, int ROUNDS, int UNROLL = KX_ROUND_UNROLL>
KX_DEV void kx_perm_bench(kx_u64* out, kx_u32 iters, kx_u64 nstates) {
    typedef typename L::T T;
    const kx_u64 s = (kx_u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nstates) return;
    T a[25];
#pragma unroll
    for (int q = 0; q < 25; ++q) a[q] = L::from64(kx_perm_init(s, q));
#pragma unroll 1
    for (kx_u32 k = 0; k < iters; ++k) kx_permute<L, ROUNDS, UNROLL>(a);
    kx_u64 acc = 0;
#pragma unroll
    for (int q = 0; q < 25; ++q) acc ^= L::to64(a[q]);
    out[s] = KX_MUTATE_LANE(acc, 0, 0);
}

#define KX_PERM_ENTRY(name, L, R)                                                               \
    extern "C" __global__ void __launch_bounds__(KX_PERM_THREADS) name(kx_u64* out, kx_u32 iters, \
                                                                        kx_u64 nstates) {       \
        kx_perm_bench<L, R>(out, iters, nstates);                                               \
    }

// The 24-round permutation with other straight-line stretches (see
// KX_ROUND_UNROLL): all 24 rounds, or 6 at a time.
#define KX_PERM_ENTRY_U(name, L, R, U)                                                          \
    extern "C" __global__ void __launch_bounds__(KX_PERM_THREADS) name(kx_u64* out, kx_u32 iters, \
                                                                        kx_u64 nstates) {       \
        kx_perm_bench<L, R, U>(out, iters, nstates);                                            \
    }

KX_PERM_ENTRY(kx_perm_r24, KxSplit, 24)
KX_PERM_ENTRY_U(kx_perm_full_r24, KxSplit, 24, 24)
KX_PERM_ENTRY_U(kx_perm_by6_r24, KxSplit, 24, 6)
KX_PERM_ENTRY(kx_perm_r12, KxSplit, 12)
KX_PERM_ENTRY(kx_perm_u64_r24, KxU64, 24)
KX_PERM_ENTRY(kx_perm_imad_r24, KxImadAll, 24)
KX_PERM_ENTRY(kx_perm_imad_rho_r24, KxImadRho, 24)
KX_PERM_ENTRY(kx_perm_imad_half_r24, KxImadHalf, 24)

#endif  // __CUDACC__
