// keccakx GPU kernels: Keccak-p[1600, nr] for one thread, 25 lanes in registers.
//
// Shared by batch.cu (batch hashing, KT/ParallelHash leaves) and perm.cu
// (permutation throughput). The same text is compiled as plain C++ by the
// host-emulation test (crates/keccakx-gpu/tests/emulation.rs): without
// __CUDACC__ the intrinsics below map to portable code.
//
// Two lane representations, chosen by template parameter:
//   KxSplit  a 64-bit lane as two 32-bit halves; a rotation is two funnel
//            shifts (SHF.L.W), theta/chi are 3-input logic ops (LOP3);
//   KxU64    native 64-bit integers, left to the compiler (for comparison);
//   KxSplitImad<MASK>
//            KxSplit with the rotations whose amount is in MASK built from
//            integer multiplies (IMAD, IMAD.HI), which issue to the FMA pipe,
//            instead of funnel shifts on the ALU pipe that LOP3 shares (the
//            "IMAD trick" (docs/gpu.md): the ALU pipe bounds the round).
// Rounds are fully unrolled with the round constants as immediates for
// nr = 24 (Keccak-f[1600]) and nr = 12 (TurboSHAKE / KangarooTwelve);
// kx_permute_n runs any nr in 1..24 as a loop over a constant table.
//
// Constants are facts from FIPS 202: rho offsets (Table 2), pi
// (x, y) -> (y, 2x + 3y), round constants (Algorithm 5 / Table of RC[i]).
#ifndef KECCAKX_F1600_CUH
#define KECCAKX_F1600_CUH

#if defined(__CUDACC__)
#define KX_DEV __device__ __forceinline__
#define KX_MDEV __device__ __forceinline__
#define KX_CONSTANT __constant__
typedef unsigned int kx_u32;
typedef unsigned long long kx_u64;
KX_DEV kx_u32 kx_fshl(kx_u32 lo, kx_u32 hi, kx_u32 s) { return __funnelshift_l(lo, hi, s); }
KX_DEV kx_u32 kx_fshr(kx_u32 lo, kx_u32 hi, kx_u32 s) { return __funnelshift_r(lo, hi, s); }
KX_DEV kx_u32 kx_mulhi(kx_u32 a, kx_u32 b) { return __umulhi(a, b); }
// a ^ b ^ c as one LOP3, written in PTX so that the compiler cannot
// reassociate it (see kx_round's theta).
KX_DEV kx_u32 kx_xor3(kx_u32 a, kx_u32 b, kx_u32 c) {
    kx_u32 r;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
#else
// Host emulation: the same code as portable C++.
#include <cstdint>
#define KX_DEV static inline
#define KX_MDEV inline
#define KX_CONSTANT static const
typedef uint32_t kx_u32;
typedef uint64_t kx_u64;
// __funnelshift_l: top 32 bits of (hi:lo) << (s & 31).
KX_DEV kx_u32 kx_fshl(kx_u32 lo, kx_u32 hi, kx_u32 s) {
    s &= 31;
    return s ? (hi << s) | (lo >> (32 - s)) : hi;
}
// __funnelshift_r: low 32 bits of (hi:lo) >> (s & 31).
KX_DEV kx_u32 kx_fshr(kx_u32 lo, kx_u32 hi, kx_u32 s) {
    s &= 31;
    return s ? (lo >> s) | (hi << (32 - s)) : lo;
}
// __umulhi: the high 32 bits of the 64-bit product.
KX_DEV kx_u32 kx_mulhi(kx_u32 a, kx_u32 b) { return (kx_u32)(((kx_u64)a * b) >> 32); }
KX_DEV kx_u32 kx_xor3(kx_u32 a, kx_u32 b, kx_u32 c) { return a ^ b ^ c; }
#endif

// The test-only mutation switch: with KX_MUTATE defined (the emulation
// tests under KECCAKX_GPU_MUTATE=1, and NVRTC builds of the crate's
// `mutation` feature under the same variable) every kernel flips bit 0 of
// lane 0 of each message's first output block (and of each permutation
// result), so that every cross-check of the kernels' output must fail.
// The product never defines it: the macro is then the identity.
#ifdef KX_MUTATE
#define KX_MUTATE_LANE(v, lane, q) ((v) ^ (kx_u64)((lane) == 0 && (q) == 0))
#else
#define KX_MUTATE_LANE(v, lane, q) (v)
#endif

// Powers of two for the IMAD rotations, read from constant memory: ptxas
// cannot know them, so it cannot turn the multiplies back into shifts.
KX_CONSTANT kx_u32 kx_pow2[32] = {
    1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,
    1u << 8,  1u << 9,  1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};

// ---------------------------------------------------------------- lane types
// (KX_MDEV: member functions; KX_DEV: free functions.)

struct KxLane2 {
    kx_u32 lo, hi;
};

// A lane as two 32-bit halves.
struct KxSplit {
    typedef KxLane2 T;
    static KX_MDEV T make(kx_u32 lo, kx_u32 hi) {
        T r;
        r.lo = lo;
        r.hi = hi;
        return r;
    }
    static KX_MDEV T zero() { return make(0u, 0u); }
    static KX_MDEV T from64(kx_u64 v) { return make((kx_u32)v, (kx_u32)(v >> 32)); }
    static KX_MDEV kx_u64 to64(T a) { return ((kx_u64)a.hi << 32) | a.lo; }
    static KX_MDEV kx_u32 lo(T a) { return a.lo; }
    static KX_MDEV kx_u32 hi(T a) { return a.hi; }
    static KX_MDEV T x2(T a, T b) { return make(a.lo ^ b.lo, a.hi ^ b.hi); }
    static KX_MDEV T x3(T a, T b, T c) { return make(kx_xor3(a.lo, b.lo, c.lo), kx_xor3(a.hi, b.hi, c.hi)); }
    static KX_MDEV T x5(T a, T b, T c, T d, T e) {
        return make(a.lo ^ b.lo ^ c.lo ^ d.lo ^ e.lo, a.hi ^ b.hi ^ c.hi ^ d.hi ^ e.hi);
    }
    // chi: a ^ (~b & c), one LOP3 per half.
    static KX_MDEV T chi(T a, T b, T c) { return make(a.lo ^ (~b.lo & c.lo), a.hi ^ (~b.hi & c.hi)); }
    // Rotate left by N (compile-time): two funnel shifts.
    template <int N>
    static KX_MDEV T rol(T a) {
        if constexpr (N == 0) {
            return a;
        } else if constexpr (N < 32) {
            return make(kx_fshl(a.hi, a.lo, N), kx_fshl(a.lo, a.hi, N));
        } else {
            return make(kx_fshl(a.lo, a.hi, N - 32), kx_fshl(a.hi, a.lo, N - 32));
        }
    }
    // Rotate left by a run-time amount (the paper-style kernel's table).
    static KX_MDEV T rolv(T a, kx_u32 n) {
        n &= 63;
        if (n >= 32) {
            T s = make(a.hi, a.lo);
            a = s;
            n -= 32;
        }
        return make(kx_fshl(a.hi, a.lo, n), kx_fshl(a.lo, a.hi, n));
    }
    static KX_MDEV T xor_rc(T a, kx_u64 rc) { return make(a.lo ^ (kx_u32)rc, a.hi ^ (kx_u32)(rc >> 32)); }
};

// KxSplit whose rotations by an amount N with bit N of MASK set are made of
// multiplies by m = 2^n: for 0 < n < 32 and the lane (lo, hi),
//   new hi = hi * m + hi32(lo * m)    (hi << n, plus the bits lo shifts out)
//   new lo = lo * m + hi32(hi * m)
// (the additions never carry: the bits added are below n), four IMAD /
// IMAD.HI on 32-bit registers, where the funnel shifts take two ALU ops.
// A rotation by N >= 32 swaps the halves first (free: register naming) and
// rotates by N - 32. (Forming the 64-bit products with IMAD.WIDE instead
// costs register pairs, moves and adds on the ALU pipe: tried, SASS in
// bench/NOTES.md.)
template <kx_u64 MASK>
struct KxSplitImad : KxSplit {
    template <int N>
    static KX_MDEV T rol(T a) {
        if constexpr (N == 0 || N == 32 || ((MASK >> N) & 1) == 0) {
            return KxSplit::template rol<N>(a);
        } else {
            constexpr int n = N & 31;
            const kx_u32 lo = N < 32 ? a.lo : a.hi;
            const kx_u32 hi = N < 32 ? a.hi : a.lo;
            const kx_u32 m = kx_pow2[n];
            return make(lo * m + kx_mulhi(hi, m), hi * m + kx_mulhi(lo, m));
        }
    }
};

// The rotation amounts of rho (FIPS 202 Table 2), as a MASK for
// KxSplitImad: all of them, theta's rotations by 1 among them ...
#define KX_IMAD_ALL_RHO                                                                            \
    ((1ULL << 1) | (1ULL << 62) | (1ULL << 28) | (1ULL << 27) | (1ULL << 36) | (1ULL << 44) |     \
     (1ULL << 6) | (1ULL << 55) | (1ULL << 20) | (1ULL << 3) | (1ULL << 10) | (1ULL << 43) |      \
     (1ULL << 25) | (1ULL << 39) | (1ULL << 41) | (1ULL << 45) | (1ULL << 15) | (1ULL << 21) |    \
     (1ULL << 8) | (1ULL << 18) | (1ULL << 2) | (1ULL << 61) | (1ULL << 56) | (1ULL << 14))
// ... or rho's only (all but the amount 1, which theta's five share with
// one rho lane) ...
#define KX_IMAD_RHO (KX_IMAD_ALL_RHO & ~(1ULL << 1))
// ... or half of rho's 24 (every other lane of the round's order; not 1).
#define KX_IMAD_HALF_RHO                                                                           \
    ((1ULL << 62) | (1ULL << 27) | (1ULL << 44) | (1ULL << 55) | (1ULL << 3) | (1ULL << 43) |     \
     (1ULL << 39) | (1ULL << 45) | (1ULL << 21) | (1ULL << 18) | (1ULL << 61) | (1ULL << 14))
// The three mixes the GPU runs compare with KxSplit (perm.cu, batch.cu):
// every rotation on the FMA pipe (29 a round), rho's (23: not the amount 1,
// which theta's five share), or half of rho's (12).
typedef KxSplitImad<KX_IMAD_ALL_RHO> KxImadAll;
typedef KxSplitImad<KX_IMAD_RHO> KxImadRho;
typedef KxSplitImad<KX_IMAD_HALF_RHO> KxImadHalf;

// A lane as a native 64-bit integer.
struct KxU64 {
    typedef kx_u64 T;
    static KX_MDEV T make(kx_u32 lo, kx_u32 hi) { return ((kx_u64)hi << 32) | lo; }
    static KX_MDEV T zero() { return 0; }
    static KX_MDEV T from64(kx_u64 v) { return v; }
    static KX_MDEV kx_u64 to64(T a) { return a; }
    static KX_MDEV kx_u32 lo(T a) { return (kx_u32)a; }
    static KX_MDEV kx_u32 hi(T a) { return (kx_u32)(a >> 32); }
    static KX_MDEV T x2(T a, T b) { return a ^ b; }
    static KX_MDEV T x3(T a, T b, T c) { return a ^ b ^ c; }
    static KX_MDEV T x5(T a, T b, T c, T d, T e) { return a ^ b ^ c ^ d ^ e; }
    static KX_MDEV T chi(T a, T b, T c) { return a ^ (~b & c); }
    template <int N>
    static KX_MDEV T rol(T a) {
        if constexpr (N == 0) {
            return a;
        } else {
            return (a << N) | (a >> (64 - N));
        }
    }
    static KX_MDEV T rolv(T a, kx_u32 n) {
        n &= 63;
        return n ? (a << n) | (a >> (64 - n)) : a;
    }
    static KX_MDEV T xor_rc(T a, kx_u64 rc) { return a ^ rc; }
};

// ------------------------------------------------------------------- rounds

#define KX_ROL(N, v) L::template rol<N>(v)

// One round: theta, rho and pi into b, chi and iota back into a.
template <class L>
KX_DEV void kx_round(typename L::T* a, kx_u64 rc) {
    typedef typename L::T T;
    const T c0 = L::x5(a[0], a[5], a[10], a[15], a[20]);
    const T c1 = L::x5(a[1], a[6], a[11], a[16], a[21]);
    const T c2 = L::x5(a[2], a[7], a[12], a[17], a[22]);
    const T c3 = L::x5(a[3], a[8], a[13], a[18], a[23]);
    const T c4 = L::x5(a[4], a[9], a[14], a[19], a[24]);
    const T r0 = KX_ROL(1, c0);
    const T r1 = KX_ROL(1, c1);
    const T r2 = KX_ROL(1, c2);
    const T r3 = KX_ROL(1, c3);
    const T r4 = KX_ROL(1, c4);
    // theta's D[x] = c[x-1] ^ rol1(c[x+1]) is never formed: each lane takes
    // a[x + 5y] ^ c[x-1] ^ rol1(c[x+1]) as one 3-input XOR per half (LOP3),
    // 50 a round where D and then the lanes took 60 (179.5 instead of 193.7
    // ALU instructions a round in kx_perm_r24, bench/NOTES.md). With plain
    // ^ the compiler factors D back out, hence kx_xor3.
    T b[25];
    // b[y + 5((2x + 3y) mod 5)] = rol(a[x + 5y] ^ D[x], rho[x][y])
    b[0] = L::x3(a[0], c4, r1);
    b[10] = KX_ROL(1, L::x3(a[1], c0, r2));
    b[20] = KX_ROL(62, L::x3(a[2], c1, r3));
    b[5] = KX_ROL(28, L::x3(a[3], c2, r4));
    b[15] = KX_ROL(27, L::x3(a[4], c3, r0));
    b[16] = KX_ROL(36, L::x3(a[5], c4, r1));
    b[1] = KX_ROL(44, L::x3(a[6], c0, r2));
    b[11] = KX_ROL(6, L::x3(a[7], c1, r3));
    b[21] = KX_ROL(55, L::x3(a[8], c2, r4));
    b[6] = KX_ROL(20, L::x3(a[9], c3, r0));
    b[7] = KX_ROL(3, L::x3(a[10], c4, r1));
    b[17] = KX_ROL(10, L::x3(a[11], c0, r2));
    b[2] = KX_ROL(43, L::x3(a[12], c1, r3));
    b[12] = KX_ROL(25, L::x3(a[13], c2, r4));
    b[22] = KX_ROL(39, L::x3(a[14], c3, r0));
    b[23] = KX_ROL(41, L::x3(a[15], c4, r1));
    b[8] = KX_ROL(45, L::x3(a[16], c0, r2));
    b[18] = KX_ROL(15, L::x3(a[17], c1, r3));
    b[3] = KX_ROL(21, L::x3(a[18], c2, r4));
    b[13] = KX_ROL(8, L::x3(a[19], c3, r0));
    b[14] = KX_ROL(18, L::x3(a[20], c4, r1));
    b[24] = KX_ROL(2, L::x3(a[21], c0, r2));
    b[9] = KX_ROL(61, L::x3(a[22], c1, r3));
    b[19] = KX_ROL(56, L::x3(a[23], c2, r4));
    b[4] = KX_ROL(14, L::x3(a[24], c3, r0));
    // chi on each plane y, then iota.
#pragma unroll
    for (int y = 0; y < 25; y += 5) {
        a[y + 0] = L::chi(b[y + 0], b[y + 1], b[y + 2]);
        a[y + 1] = L::chi(b[y + 1], b[y + 2], b[y + 3]);
        a[y + 2] = L::chi(b[y + 2], b[y + 3], b[y + 4]);
        a[y + 3] = L::chi(b[y + 3], b[y + 4], b[y + 0]);
        a[y + 4] = L::chi(b[y + 4], b[y + 0], b[y + 1]);
    }
    a[0] = L::xor_rc(a[0], rc);
}

// Round constants RC[0..23] (FIPS 202 Algorithm 6).
#define KX_RC0 0x0000000000000001ULL
#define KX_RC1 0x0000000000008082ULL
#define KX_RC2 0x800000000000808AULL
#define KX_RC3 0x8000000080008000ULL
#define KX_RC4 0x000000000000808BULL
#define KX_RC5 0x0000000080000001ULL
#define KX_RC6 0x8000000080008081ULL
#define KX_RC7 0x8000000000008009ULL
#define KX_RC8 0x000000000000008AULL
#define KX_RC9 0x0000000000000088ULL
#define KX_RC10 0x0000000080008009ULL
#define KX_RC11 0x000000008000000AULL
#define KX_RC12 0x000000008000808BULL
#define KX_RC13 0x800000000000008BULL
#define KX_RC14 0x8000000000008089ULL
#define KX_RC15 0x8000000000008003ULL
#define KX_RC16 0x8000000000008002ULL
#define KX_RC17 0x8000000000000080ULL
#define KX_RC18 0x000000000000800AULL
#define KX_RC19 0x800000008000000AULL
#define KX_RC20 0x8000000080008081ULL
#define KX_RC21 0x8000000000008080ULL
#define KX_RC22 0x0000000080000001ULL
#define KX_RC23 0x8000000080008008ULL

KX_CONSTANT kx_u64 kx_rc_table[24] = {
    KX_RC0,  KX_RC1,  KX_RC2,  KX_RC3,  KX_RC4,  KX_RC5,  KX_RC6,  KX_RC7,
    KX_RC8,  KX_RC9,  KX_RC10, KX_RC11, KX_RC12, KX_RC13, KX_RC14, KX_RC15,
    KX_RC16, KX_RC17, KX_RC18, KX_RC19, KX_RC20, KX_RC21, KX_RC22, KX_RC23,
};

// Rounds per straight-line stretch of kx_permute: 24 rounds run as a loop
// of two 12-round bodies (round constants from kx_rc_table, a uniform
// load), 12 rounds straight. The fully unrolled 24 rounds are ~70 KB of
// machine code, past what the SM's instruction caches keep for warps at
// different rounds: on the H200, kx_perm_r12 ran at 97% of its SASS ALU
// bound and kx_perm_r24 at 89% (bench/NOTES.md, "Instruction cache").
#ifndef KX_ROUND_UNROLL
#define KX_ROUND_UNROLL 12
#endif

// Rounds 12..23 (ROUNDS = 12) or 0..23 (24), the constants as immediates.
template <class L, int ROUNDS>
KX_DEV void kx_permute_unrolled(typename L::T* a) {
    if constexpr (ROUNDS == 24) {
        kx_round<L>(a, KX_RC0);
        kx_round<L>(a, KX_RC1);
        kx_round<L>(a, KX_RC2);
        kx_round<L>(a, KX_RC3);
        kx_round<L>(a, KX_RC4);
        kx_round<L>(a, KX_RC5);
        kx_round<L>(a, KX_RC6);
        kx_round<L>(a, KX_RC7);
        kx_round<L>(a, KX_RC8);
        kx_round<L>(a, KX_RC9);
        kx_round<L>(a, KX_RC10);
        kx_round<L>(a, KX_RC11);
    }
    kx_round<L>(a, KX_RC12);
    kx_round<L>(a, KX_RC13);
    kx_round<L>(a, KX_RC14);
    kx_round<L>(a, KX_RC15);
    kx_round<L>(a, KX_RC16);
    kx_round<L>(a, KX_RC17);
    kx_round<L>(a, KX_RC18);
    kx_round<L>(a, KX_RC19);
    kx_round<L>(a, KX_RC20);
    kx_round<L>(a, KX_RC21);
    kx_round<L>(a, KX_RC22);
    kx_round<L>(a, KX_RC23);
}

// Keccak-p[1600, ROUNDS] for ROUNDS = 24 or 12: straight-line stretches of
// UNROLL rounds (a divisor of ROUNDS; >= ROUNDS: all of it straight, the
// constants immediates), in a loop.
template <class L, int ROUNDS, int UNROLL = KX_ROUND_UNROLL>
KX_DEV void kx_permute(typename L::T* a) {
    static_assert(ROUNDS == 24 || ROUNDS == 12, "unrolled permutation: 24 or 12 rounds");
    static_assert(UNROLL >= ROUNDS || ROUNDS % UNROLL == 0, "UNROLL must divide ROUNDS");
    if constexpr (UNROLL >= ROUNDS) {
        kx_permute_unrolled<L, ROUNDS>(a);
    } else {
#if defined(__CUDACC__)
#pragma unroll 1
#endif
        for (int r = 24 - ROUNDS; r < 24; r += UNROLL) {
#if defined(__CUDACC__)
#pragma unroll
#endif
            for (int i = 0; i < UNROLL; ++i) kx_round<L>(a, kx_rc_table[r + i]);
        }
    }
}

// Keccak-p[1600, rounds] for any rounds in 1..24 (the last `rounds` round
// indices), one round body in a loop.
template <class L>
KX_DEV void kx_permute_n(typename L::T* a, kx_u32 rounds) {
#if defined(__CUDACC__)
#pragma unroll 1
#endif
    for (kx_u32 r = 24 - rounds; r < 24; ++r) kx_round<L>(a, kx_rc_table[r]);
}

// ROUNDS = 0 selects the run-time round count.
template <class L, int ROUNDS>
KX_DEV void kx_permute_any(typename L::T* a, kx_u32 rounds) {
    if constexpr (ROUNDS == 0)
        kx_permute_n<L>(a, rounds);
    else
        kx_permute<L, ROUNDS>(a);
}

#endif  // KECCAKX_F1600_CUH
