// keccakx GPU kernels: the inner nodes of an OpenZeppelin-layout Merkle
// tree (Keccak-256, sorted pairs), in device memory.
//
// The tree is one array of 2n - 1 nodes of 32 bytes, root first; node i's
// children are nodes 2i + 1 and 2i + 2; the n leaves sit at the end in
// reverse order (leaf k at node 2n - 2 - k), as @openzeppelin/merkle-tree
// lays them out. Node i = keccak256(min(l, r) || max(l, r)) of its children
// l, r compared as byte strings (OpenZeppelin's sorted-pair rule, the one
// MerkleProof.sol verifies).
//
// The nodes whose children are all done form a run of consecutive indices:
// with nodes hi .. 2n - 2 done, nodes lo = hi / 2 .. hi - 1 have their
// children in 2 lo + 1 .. 2 hi (>= hi). One launch hashes one run; the host
// repeats down to node 0 (one launch per level for a power of two). A
// node's two children are 64 contiguous, 32-byte aligned bytes: one thread
// loads them with eight 8-byte loads, compares, absorbs them as the one
// block of keccak256 (64 bytes, pad 0x01 .. 0x80 at rate 136), permutes
// and stores four words.
#include "keccak_f1600.cuh"

#ifndef KX_MERKLE_THREADS
#define KX_MERKLE_THREADS 128
#endif

// Byte-string order of two 32-byte nodes given as little-endian words:
// a < b iff at the first differing word, the byte-swapped a word is less.
KX_DEV kx_u64 kx_bswap64(kx_u64 x) {
    x = ((x & 0x00FF00FF00FF00FFULL) << 8) | ((x >> 8) & 0x00FF00FF00FF00FFULL);
    x = ((x & 0x0000FFFF0000FFFFULL) << 16) | ((x >> 16) & 0x0000FFFF0000FFFFULL);
    return (x << 32) | (x >> 32);
}
KX_DEV bool kx_node_gt(const kx_u64* a, const kx_u64* b) {
#pragma unroll
    for (int w = 0; w < 4; ++w) {
        const kx_u64 x = kx_bswap64(a[w]), y = kx_bswap64(b[w]);
        if (x != y) return x > y;
    }
    return false;
}

// Node i of the tree at `tree` from its children (both done).
template <class L>
KX_DEV void kx_merkle_node(unsigned char* tree, kx_u64 i) {
    typedef typename L::T T;
    const kx_u64* kids = (const kx_u64*)(tree + (2 * i + 1) * 32);
    kx_u64 c[8];
#pragma unroll
    for (int w = 0; w < 8; ++w) c[w] = kids[w];
    const bool swap = kx_node_gt(c, c + 4);
    T a[25];
#pragma unroll
    for (int q = 0; q < 8; ++q) a[q] = L::from64(swap ? c[(q + 4) & 7] : c[q]);
    // keccak256's padding of a 64-byte message: 0x01 at byte 64, 0x80 at
    // byte 135 (the last of the rate).
    a[8] = L::from64(0x01ULL);
#pragma unroll
    for (int q = 9; q < 25; ++q) a[q] = L::zero();
    a[16] = L::from64(0x8000000000000000ULL);
    kx_permute<L, 24>(a);
    kx_u64* out = (kx_u64*)(tree + i * 32);
#pragma unroll
    for (int w = 0; w < 4; ++w) out[w] = KX_MUTATE_LANE(L::to64(a[w]), w, 0);
}

// Leaf k of `leaves` (n nodes in leaf order) to its place in the tree.
KX_DEV void kx_merkle_place(unsigned char* tree, const unsigned char* leaves, kx_u64 n, kx_u64 k) {
    const kx_u64* src = (const kx_u64*)(leaves + k * 32);
    kx_u64* dst = (kx_u64*)(tree + (2 * n - 2 - k) * 32);
#pragma unroll
    for (int w = 0; w < 4; ++w) dst[w] = src[w];
}

#if defined(__CUDACC__)

// Nodes first .. end - 1 of the tree (their children done).
extern "C" __global__ void __launch_bounds__(KX_MERKLE_THREADS)
    kx_merkle_nodes(kx_u64 tree, kx_u64 first, kx_u64 end) {
    const kx_u64 i = first + (kx_u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < end) kx_merkle_node<KxSplit>((unsigned char*)tree, i);
}

// The n leaves (leaf order, 32 bytes each) into their tree places.
extern "C" __global__ void __launch_bounds__(KX_MERKLE_THREADS)
    kx_merkle_leaves(kx_u64 tree, kx_u64 leaves, kx_u64 n) {
    const kx_u64 k = (kx_u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) kx_merkle_place((unsigned char*)tree, (const unsigned char*)leaves, n, k);
}

#endif  // __CUDACC__
