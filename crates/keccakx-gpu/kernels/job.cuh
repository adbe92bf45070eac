// keccakx GPU kernels: the batch job description shared by batch.cu and
// paper.cu, and the byte-exact message loader.
#ifndef KECCAKX_JOB_CUH
#define KECCAKX_JOB_CUH
#include "keccak_f1600.cuh"

#define KX_WARP 32

// The kernel parameter block, passed by value (#[repr(C)] twin in
// src/kernels.rs: keep the field order and types identical).
struct KxBatchJob {
    kx_u64 data;      // device address of the message bytes
    kx_u64 data_len;  // bytes readable at data
    kx_u64 offsets;   // device address of n u64 offsets; 0: uniform layout
    kx_u64 lengths;   // device address of n u64 lengths (indexed layout)
    kx_u64 stride;    // uniform layout: distance between messages
    kx_u64 msg_len;   // uniform layout: length of every message
    kx_u64 out;       // device address of n * out_len output bytes
    kx_u64 n;         // number of messages
    kx_u32 rate;      // rate in bytes, 1..199
    kx_u32 suffix;    // delimited suffix (0x06 SHA3, 0x1F SHAKE, 0x01 Keccak, ...)
    kx_u32 out_len;   // output bytes per message (> 0)
    kx_u32 rounds;    // rounds for the run-time-rounds kernels (1..24)
};

// Message i's placement.
KX_DEV void kx_locate(const KxBatchJob& j, kx_u64 i, kx_u64* off, kx_u64* len) {
    if (i >= j.n) {
        *off = 0;
        *len = 0;
    } else if (j.offsets == 0) {
        *off = i * j.stride;
        *len = j.msg_len;
    } else {
        *off = ((const kx_u64*)j.offsets)[i];
        *len = ((const kx_u64*)j.lengths)[i];
    }
}

// Four message bytes starting at data[addr], of which the first `avail`
// (>= 1) are wanted; the others read as zero. Reads stay inside
// [0, data_len): an aligned word of wanted bytes; or two aligned words that
// lie inside the buffer, realigned with a funnel shift (unwanted bytes are
// masked); or, at the very end of the buffer, the wanted bytes one by one.
KX_DEV kx_u32 kx_load_word(const unsigned char* data, kx_u64 data_len, kx_u64 addr, kx_u32 avail) {
    const kx_u32 sh = (kx_u32)(addr & 3);
    const kx_u64 a0 = addr - sh;
    kx_u32 v;
    if (sh == 0 && avail >= 4) {
        v = *(const kx_u32*)(data + addr);
    } else if (a0 + 8 <= data_len) {
        const kx_u32 w0 = *(const kx_u32*)(data + a0);
        const kx_u32 w1 = *(const kx_u32*)(data + a0 + 4);
        v = kx_fshr(w0, w1, sh * 8);
    } else {
        v = 0;
        for (kx_u32 b = 0; b < 4 && b < avail; ++b) v |= (kx_u32)data[addr + b] << (8 * b);
    }
    if (avail < 4) v &= (1u << (8 * avail)) - 1u;
    return v;
}

#endif  // KECCAKX_JOB_CUH
