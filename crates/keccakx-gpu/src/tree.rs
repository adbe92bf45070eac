//! Tree modes with their leaves on the GPU: KT128/KT256 (RFC 9861) and
//! ParallelHash128/256 (SP 800-185), final node on the CPU; tree LI
//! (keccakx::tree_li) from host memory with every level's nodes batched on
//! the GPU through the keccakx engine interface.
//!
//! Each mode is written once as an "assembly" over two callbacks: `read`
//! (bytes of the input string at a position, from host or device memory)
//! and `accel` (chaining values of the first k full leaves, computed by the
//! GPU and delivered in order). Leaves the accelerator does not take (a short
//! last leaf, leaves that mix data and customization bytes of a device
//! buffer) and the final node run on the CPU with the keccakx crate: the
//! final node is keccakx's own building block (`rfc9861::KtFinalNode`,
//! `sp800_185::ParallelHashOuter`, which keccakx's KT and ParallelHash use
//! too), so the tree framing (encodings, domain bytes, the single-node case)
//! is written once, in the core; the assembly only decides which leaf comes
//! from where and checks what the accelerator delivers. The unit tests drive
//! the same assembly with a CPU accelerator and compare with keccakx's own
//! KT and ParallelHash, so the tree logic is tested on machines without a
//! GPU.
//!
//! Final node on the CPU: it absorbs one chaining value per leaf (32 or 64
//! bytes per 8 KiB for KT, 0.4 % or 0.8 % of the input), sequentially; a
//! single GPU thread would be far slower at that.

use cudarc::driver::{result, CudaSlice, DevicePtr};
use keccakx::engine::LaneSpec;
use keccakx::rfc9861::{length_encode, KtFinalNode};
use keccakx::sp800_185::ParallelHashOuter;


use crate::error::GpuError;
use crate::hasher::{GpuHasher, RawLayout};
use crate::mem::DevBuf;

/// KangarooTwelve chunk size (RFC 9861).
pub const KT_CHUNK: usize = KtFinalNode::<168>::CHUNK_LEN;

/// Which KangarooTwelve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KtVariant {
    /// KT128: TurboSHAKE128 (rate 168), 32-byte chaining values.
    Kt128,
    /// KT256: TurboSHAKE256 (rate 136), 64-byte chaining values.
    Kt256,
}

impl KtVariant {
    pub fn rate(self) -> usize {
        match self {
            KtVariant::Kt128 => 168,
            KtVariant::Kt256 => 136,
        }
    }
    pub fn cv_len(self) -> usize {
        match self {
            KtVariant::Kt128 => KtFinalNode::<168>::CV_LEN,
            KtVariant::Kt256 => KtFinalNode::<136>::CV_LEN,
        }
    }
    /// The leaf sponge: TurboSHAKE with domain byte 0x0B
    /// ([`KtFinalNode::LEAF_SPEC`]).
    pub fn leaf_spec(self) -> LaneSpec {
        match self {
            KtVariant::Kt128 => KtFinalNode::<168>::LEAF_SPEC,
            KtVariant::Kt256 => KtFinalNode::<136>::LEAF_SPEC,
        }
    }
}

/// Which ParallelHash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhVariant {
    /// ParallelHash128: leaves SHAKE128 (= cSHAKE128 with empty N, S), 32-byte values.
    Ph128,
    /// ParallelHash256: leaves SHAKE256, 64-byte values.
    Ph256,
}

impl PhVariant {
    pub fn rate(self) -> usize {
        match self {
            PhVariant::Ph128 => 168,
            PhVariant::Ph256 => 136,
        }
    }
    pub fn cv_len(self) -> usize {
        match self {
            PhVariant::Ph128 => ParallelHashOuter::<168>::CV_LEN,
            PhVariant::Ph256 => ParallelHashOuter::<136>::CV_LEN,
        }
    }
    /// The block sponge: SHAKE ([`ParallelHashOuter::BLOCK_SPEC`]).
    pub fn leaf_spec(self) -> LaneSpec {
        match self {
            PhVariant::Ph128 => ParallelHashOuter::<168>::BLOCK_SPEC,
            PhVariant::Ph256 => ParallelHashOuter::<136>::BLOCK_SPEC,
        }
    }
}

/// Reads bytes of the input string at a position.
pub(crate) type ReadFn<'a> = dyn FnMut(u64, &mut [u8]) -> Result<(), GpuError> + 'a;
/// Receives chaining values (whole ones, in leaf order).
pub(crate) type SinkFn<'a> = dyn FnMut(&[u8]) -> Result<(), GpuError> + Send + 'a;
/// Computes the chaining values of the accelerated leaves into a sink.
pub(crate) type AccelFn<'a> = dyn FnMut(&mut SinkFn<'_>) -> Result<(), GpuError> + 'a;

/// A byte string made of consecutive host slices (data || suffix parts).
pub(crate) struct Concat<'a> {
    parts: Vec<&'a [u8]>,
}

impl<'a> Concat<'a> {
    pub(crate) fn new(parts: Vec<&'a [u8]>) -> Self {
        Concat { parts }
    }
    #[cfg(test)]
    pub(crate) fn len(&self) -> u64 {
        self.parts.iter().map(|p| p.len() as u64).sum()
    }
    /// The pieces covering [pos, pos + len).
    pub(crate) fn pieces(&self, mut pos: u64, mut len: usize) -> Vec<&'a [u8]> {
        let mut v = Vec::new();
        for p in &self.parts {
            if len == 0 {
                break;
            }
            let plen = p.len() as u64;
            if pos >= plen {
                pos -= plen;
                continue;
            }
            let take = ((plen - pos) as usize).min(len);
            v.push(&p[pos as usize..pos as usize + take]);
            len -= take;
            pos = 0;
        }
        v
    }
    pub(crate) fn read(&self, pos: u64, buf: &mut [u8]) {
        let mut at = 0;
        for piece in self.pieces(pos, buf.len()) {
            buf[at..at + piece.len()].copy_from_slice(piece);
            at += piece.len();
        }
    }
}

/// KT over S = M || C || length_encode(|C|) of `total` bytes: the first
/// `accel_leaves` leaves (S[8192 j .. 8192 (j + 1)], j = 1..=accel_leaves,
/// all full) come from `accel`, the rest from the CPU through `read`. The
/// final node (its framing and the single-node case) is keccakx's
/// [`KtFinalNode`].
pub(crate) fn kt_assemble<const R: usize>(
    total: u64,
    read: &mut ReadFn<'_>,
    accel_leaves: u64,
    accel: &mut AccelFn<'_>,
    out: &mut [u8],
) -> Result<(), GpuError> {
    let chunk = KT_CHUNK as u64;
    let after_first = total.saturating_sub(chunk);
    if accel_leaves > after_first / chunk {
        return Err(GpuError::Unsupported(
            "KT: accelerated leaves must be full leaves",
        ));
    }
    let mut node = KtFinalNode::<R>::new();
    let mut buf = vec![0u8; KT_CHUNK];
    let first = &mut buf[..total.min(chunk) as usize];
    read(0, first)?;
    node.absorb_first_chunk(first);
    let absorb = |node: &mut KtFinalNode<R>, cvs: &[u8]| {
        node.absorb_chaining_values(cvs)
            .map_err(|_| GpuError::Unsupported("KT: partial chaining value"))
    };
    if accel_leaves > 0 {
        accel(&mut |cvs: &[u8]| absorb(&mut node, cvs))?;
    }
    let got = node.leaf_count();
    if got != accel_leaves {
        return Err(GpuError::Cuda(format!(
            "KT: {got} chaining values from the GPU, {accel_leaves} expected"
        )));
    }
    let mut cv = vec![0u8; KtFinalNode::<R>::CV_LEN];
    for j in accel_leaves + 1..=after_first.div_ceil(chunk) {
        let start = j * chunk;
        let len = (total - start).min(chunk) as usize;
        read(start, &mut buf[..len])?;
        KtFinalNode::<R>::LEAF_SPEC.hash_one(&buf[..len], &mut cv);
        absorb(&mut node, &cv)?;
    }
    node.finalize_into(out);
    Ok(())
}

impl PhVariant {
    /// [`ph_assemble`] at this variant's rate.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn assemble(
        self,
        block: usize,
        len: u64,
        customization: &[u8],
        xof: bool,
        read: &mut ReadFn<'_>,
        accel_blocks: u64,
        accel: &mut AccelFn<'_>,
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        let f = match self {
            PhVariant::Ph128 => ph_assemble::<168>,
            PhVariant::Ph256 => ph_assemble::<136>,
        };
        f(
            block,
            len,
            customization,
            xof,
            read,
            accel_blocks,
            accel,
            out,
        )
    }
}

/// ParallelHash over X of `len` bytes with block size `block`: blocks
/// 0..accel_blocks (all full) from `accel`, the rest on the CPU. `xof`
/// selects ParallelHashXOF (L = 0); otherwise L = 8 × `out.len()`. The
/// outer cSHAKE (its framing) is keccakx's [`ParallelHashOuter`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn ph_assemble<const R: usize>(
    block: usize,
    len: u64,
    customization: &[u8],
    xof: bool,
    read: &mut ReadFn<'_>,
    accel_blocks: u64,
    accel: &mut AccelFn<'_>,
    out: &mut [u8],
) -> Result<(), GpuError> {
    let mut outer = ParallelHashOuter::<R>::new(block, customization)
        .map_err(|_| GpuError::Unsupported("ParallelHash block size must be at least 1 byte"))?;
    let b = block as u64;
    if accel_blocks > len / b {
        return Err(GpuError::Unsupported(
            "ParallelHash: accelerated blocks must be full blocks",
        ));
    }
    let absorb = |outer: &mut ParallelHashOuter<R>, cvs: &[u8]| {
        outer
            .absorb_chaining_values(cvs)
            .map_err(|_| GpuError::Unsupported("ParallelHash: partial chaining value"))
    };
    if accel_blocks > 0 {
        accel(&mut |cvs: &[u8]| absorb(&mut outer, cvs))?;
    }
    let got = outer.block_count();
    if got != accel_blocks {
        return Err(GpuError::Cuda(format!(
            "ParallelHash: {got} values from the GPU, {accel_blocks} expected"
        )));
    }
    let mut buf = vec![0u8; block.min(len as usize)];
    let mut z = vec![0u8; ParallelHashOuter::<R>::CV_LEN];
    for i in accel_blocks..len.div_ceil(b) {
        let start = i * b;
        let l = (len - start).min(b) as usize;
        read(start, &mut buf[..l])?;
        ParallelHashOuter::<R>::BLOCK_SPEC.hash_one(&buf[..l], &mut z);
        absorb(&mut outer, &z)?;
    }
    if xof {
        outer.finalize_xof().read(out);
    } else {
        outer.finalize_into(out);
    }
    Ok(())
}

fn check_view(h: &GpuHasher, data: &CudaSlice<u8>) -> Result<(), GpuError> {
    if data.context().ordinal() != h.device().ordinal {
        return Err(GpuError::Unsupported(
            "the device buffer lives on another GPU",
        ));
    }
    Ok(())
}

impl GpuHasher {
    /// Hash `count` full leaves of a device buffer (leaf i at data + base +
    /// i * leaf) in one launch; chaining values to `sink`.
    #[allow(clippy::too_many_arguments)]
    fn leaves_device(
        &self,
        spec: &LaneSpec,
        data: &CudaSlice<u8>,
        base: u64,
        leaf: usize,
        count: u64,
        cv_len: usize,
        sink: &mut SinkFn<'_>,
    ) -> Result<(), GpuError> {
        if count == 0 {
            return Ok(());
        }
        let end = base + count * leaf as u64;
        if end > data.len() as u64 {
            return Err(GpuError::Unsupported(
                "leaves reach past the end of the device buffer",
            ));
        }
        let out_bytes = count as usize * cv_len;
        let d_out = DevBuf::new(self.context(), out_bytes)?;
        let stream = self.stream();
        let (ptr, _record) = data.device_ptr(&stream);
        let layout = RawLayout::Uniform {
            count,
            stride: leaf as u64,
            len: leaf as u64,
        };
        // SAFETY: the leaves lie inside `data` (checked above), d_out holds
        // count * cv_len bytes, and our own stream is used; hash_many_raw
        // waits for the kernel before returning.
        unsafe {
            self.hash_many_raw(
                spec,
                ptr + base,
                end - base,
                layout,
                d_out.ptr(),
                cv_len,
                None,
            )
        }?;
        let mut cvs = vec![0u8; out_bytes];
        // SAFETY: d_out holds out_bytes bytes written by the finished kernel.
        unsafe { result::memcpy_dtoh_sync(&mut cvs, d_out.ptr()) }?;
        sink(&cvs)
    }

    fn read_device(&self, data: &CudaSlice<u8>, pos: u64, buf: &mut [u8]) -> Result<(), GpuError> {
        if buf.is_empty() {
            return Ok(());
        }
        let stream = self.stream();
        let (ptr, _record) = data.device_ptr(&stream);
        stream.synchronize()?;
        // SAFETY: callers read inside the buffer ([pos, pos + len) ⊂ data).
        unsafe { result::memcpy_dtoh_sync(buf, ptr + pos) }?;
        Ok(())
    }

    /// KT128/KT256 of data already in device memory: the leaves lying
    /// wholly inside it are hashed there in one launch; S_0, the last
    /// (partial or customization-bearing) leaves and the final node are
    /// done on the CPU after copying just those bytes back.
    pub fn kt_device(
        &self,
        v: KtVariant,
        data: &CudaSlice<u8>,
        customization: &[u8],
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        check_view(self, data)?;
        let m = data.len() as u64;
        let lenc = length_encode(customization.len() as u64);
        let chunk = KT_CHUNK as u64;
        let total = m + customization.len() as u64 + lenc.len() as u64;
        // Leaves j >= 1 lying wholly inside M.
        let in_m = if m >= 2 * chunk { m / chunk - 1 } else { 0 };
        let spec = v.leaf_spec();
        let tail = Concat::new(vec![customization, &lenc]);
        let mut read = |pos: u64, buf: &mut [u8]| -> Result<(), GpuError> {
            let from_m = if pos < m {
                ((m - pos) as usize).min(buf.len())
            } else {
                0
            };
            self.read_device(data, pos, &mut buf[..from_m])?;
            if from_m < buf.len() {
                tail.read(pos + from_m as u64 - m, &mut buf[from_m..]);
            }
            Ok(())
        };
        let mut accel = |sink: &mut SinkFn<'_>| {
            self.leaves_device(&spec, data, chunk, KT_CHUNK, in_m, v.cv_len(), sink)
        };
        match v {
            KtVariant::Kt128 => kt_assemble::<168>(total, &mut read, in_m, &mut accel, out),
            KtVariant::Kt256 => kt_assemble::<136>(total, &mut read, in_m, &mut accel, out),
        }
    }

    /// KT128 of device data (see [`GpuHasher::kt_device`]).
    pub fn kt128_device(
        &self,
        data: &CudaSlice<u8>,
        customization: &[u8],
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        self.kt_device(KtVariant::Kt128, data, customization, out)
    }

    /// KT256 of device data (see [`GpuHasher::kt_device`]).
    pub fn kt256_device(
        &self,
        data: &CudaSlice<u8>,
        customization: &[u8],
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        self.kt_device(KtVariant::Kt256, data, customization, out)
    }

    /// ParallelHash128/256 of device data (see [`crate::GpuEngine::parallelhash`]).
    #[allow(clippy::too_many_arguments)]
    pub fn parallelhash_device(
        &self,
        v: PhVariant,
        data: &CudaSlice<u8>,
        block: usize,
        customization: &[u8],
        xof: bool,
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        check_view(self, data)?;
        if block == 0 {
            return Err(GpuError::Unsupported(
                "ParallelHash block size must be at least 1 byte",
            ));
        }
        let len = data.len() as u64;
        let full = len / block as u64;
        let spec = v.leaf_spec();
        let mut read = |pos: u64, buf: &mut [u8]| self.read_device(data, pos, buf);
        let mut accel = |sink: &mut SinkFn<'_>| {
            self.leaves_device(&spec, data, 0, block, full, v.cv_len(), sink)
        };
        v.assemble(
            block,
            len,
            customization,
            xof,
            &mut read,
            full,
            &mut accel,
            out,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use keccakx::rfc9861::{Kt128, Kt256};
    use keccakx::sp800_185::{ParallelHash128, ParallelHash256};

    fn pattern(n: usize) -> Vec<u8> {
        // RFC 9861's test pattern: 00 01 .. FA repeated.
        (0..n).map(|i| (i % 251) as u8).collect()
    }

    /// KT through the assembly with a CPU "accelerator" over all full
    /// leaves (host mode) or over leaves inside M only (device mode).
    fn kt_cpu(v: KtVariant, m: &[u8], c: &[u8], device_mode: bool, out: &mut [u8]) {
        let lenc = length_encode(c.len() as u64);
        let s = Concat::new(vec![m, c, &lenc]);
        let total = s.len();
        let chunk = KT_CHUNK as u64;
        let accel_n = if device_mode {
            let mm = m.len() as u64;
            if mm >= 2 * chunk {
                mm / chunk - 1
            } else {
                0
            }
        } else if total > chunk {
            (total - chunk) / chunk
        } else {
            0
        };
        let spec = v.leaf_spec();
        let mut read = |pos: u64, buf: &mut [u8]| -> Result<(), GpuError> {
            s.read(pos, buf);
            Ok(())
        };
        let mut accel = |sink: &mut SinkFn<'_>| -> Result<(), GpuError> {
            // Deliver in uneven groups, like pipeline chunks.
            let mut j = 1u64;
            let mut group = 1u64;
            while j <= accel_n {
                let k = group.min(accel_n - j + 1);
                let mut cvs = vec![0u8; k as usize * v.cv_len()];
                for (i, cv) in cvs.chunks_mut(v.cv_len()).enumerate() {
                    let mut leaf = vec![0u8; KT_CHUNK];
                    s.read((j + i as u64) * chunk, &mut leaf);
                    spec.hash_one(&leaf, cv);
                }
                sink(&cvs)?;
                j += k;
                group += 2;
            }
            Ok(())
        };
        match v {
            KtVariant::Kt128 => kt_assemble::<168>(total, &mut read, accel_n, &mut accel, out),
            KtVariant::Kt256 => kt_assemble::<136>(total, &mut read, accel_n, &mut accel, out),
        }
        .unwrap();
    }

    #[test]
    fn kt_assembly_matches_keccakx_at_leaf_edges() {
        let c = KT_CHUNK;
        let sizes = [
            0,
            1,
            c - 4,
            c - 3,
            c - 1,
            c,
            c + 1,
            2 * c - 1,
            2 * c,
            2 * c + 1,
            3 * c + 77,
            9 * c,
        ];
        let customs: [&[u8]; 4] = [b"", b"C", &[0x5A; 300], &[7u8; 8190]];
        for v in [KtVariant::Kt128, KtVariant::Kt256] {
            for &n in &sizes {
                let m = pattern(n);
                for cust in customs {
                    for out_len in [32usize, 200] {
                        let mut want = vec![0u8; out_len];
                        match v {
                            KtVariant::Kt128 => {
                                let mut h = Kt128::new(cust);
                                h.update(&m);
                                h.finalize_into(&mut want);
                            }
                            KtVariant::Kt256 => {
                                let mut h = Kt256::new(cust);
                                h.update(&m);
                                h.finalize_into(&mut want);
                            }
                        }
                        for device_mode in [false, true] {
                            let mut got = vec![0u8; out_len];
                            kt_cpu(v, &m, cust, device_mode, &mut got);
                            assert_eq!(
                                got,
                                want,
                                "{v:?} |M|={n} |C|={} device_mode={device_mode}",
                                cust.len()
                            );
                        }
                    }
                }
            }
        }
    }

    fn ph_cpu(v: PhVariant, x: &[u8], block: usize, c: &[u8], xof: bool, out: &mut [u8]) {
        let full = (x.len() / block) as u64;
        let spec = v.leaf_spec();
        let mut read = |pos: u64, buf: &mut [u8]| -> Result<(), GpuError> {
            buf.copy_from_slice(&x[pos as usize..pos as usize + buf.len()]);
            Ok(())
        };
        let mut accel = |sink: &mut SinkFn<'_>| -> Result<(), GpuError> {
            let mut cvs = vec![0u8; full as usize * v.cv_len()];
            for (i, z) in cvs.chunks_mut(v.cv_len()).enumerate() {
                spec.hash_one(&x[i * block..(i + 1) * block], z);
            }
            sink(&cvs)
        };
        v.assemble(
            block,
            x.len() as u64,
            c,
            xof,
            &mut read,
            full,
            &mut accel,
            out,
        )
        .unwrap();
    }

    #[test]
    fn parallelhash_assembly_matches_keccakx() {
        let x = pattern(5000);
        for block in [1usize, 7, 8, 168, 1000, 4999, 5000, 8192] {
            for len in [0usize, 1, 999, 1000, 1001, 5000] {
                for cust in [&b""[..], b"Parallel Data"] {
                    for xof in [false, true] {
                        let mut got = [0u8; 40];
                        ph_cpu(PhVariant::Ph128, &x[..len], block, cust, xof, &mut got);
                        let mut h = ParallelHash128::new(block, cust).unwrap();
                        h.update(&x[..len]);
                        let want = if xof {
                            h.finalize_xof().read_vec(40)
                        } else {
                            h.finalize_vec(40)
                        };
                        assert_eq!(got[..], want[..], "PH128 B={block} len={len} xof={xof}");
                        let mut got = [0u8; 72];
                        ph_cpu(PhVariant::Ph256, &x[..len], block, cust, xof, &mut got);
                        let mut h = ParallelHash256::new(block, cust).unwrap();
                        h.update(&x[..len]);
                        let want = if xof {
                            h.finalize_xof().read_vec(72)
                        } else {
                            h.finalize_vec(72)
                        };
                        assert_eq!(got[..], want[..], "PH256 B={block} len={len} xof={xof}");
                    }
                }
            }
        }
    }

    #[test]
    fn concat_reads_across_parts() {
        let a = [1u8, 2, 3];
        let b = [4u8];
        let c = [5u8, 6];
        let s = Concat::new(vec![&a, &b, &c]);
        assert_eq!(s.len(), 6);
        let mut buf = [0u8; 4];
        s.read(2, &mut buf);
        assert_eq!(buf, [3, 4, 5, 6]);
        assert_eq!(s.pieces(0, 6).len(), 3);
        assert!(s.pieces(6, 0).is_empty());
    }

    #[test]
    fn assembly_rejects_an_accelerator_that_miscounts() {
        let m = pattern(5 * KT_CHUNK);
        let s = Concat::new(vec![&m[..], &[0u8][..]]);
        let mut read = |pos: u64, buf: &mut [u8]| -> Result<(), GpuError> {
            s.read(pos, buf);
            Ok(())
        };
        let mut accel = |sink: &mut SinkFn<'_>| sink(&[0u8; 32]);
        let mut out = [0u8; 32];
        let r = kt_assemble::<168>(s.len(), &mut read, 3, &mut accel, &mut out);
        assert!(matches!(r, Err(GpuError::Cuda(_))));

        // ParallelHash: one value short.
        let x = pattern(10 * 7);
        let mut read = |pos: u64, buf: &mut [u8]| -> Result<(), GpuError> {
            buf.copy_from_slice(&x[pos as usize..pos as usize + buf.len()]);
            Ok(())
        };
        let mut accel = |sink: &mut SinkFn<'_>| sink(&[0u8; 2 * 64]);
        let mut out = [0u8; 64];
        let r = PhVariant::Ph256.assemble(
            7,
            x.len() as u64,
            b"",
            false,
            &mut read,
            3,
            &mut accel,
            &mut out,
        );
        assert!(matches!(r, Err(GpuError::Cuda(_))));
    }

    #[test]
    fn assembly_rejects_partial_chaining_values_and_partial_leaves() {
        let m = pattern(4 * KT_CHUNK);
        let s = Concat::new(vec![&m[..], &[0u8][..]]);
        let mut read = |pos: u64, buf: &mut [u8]| -> Result<(), GpuError> {
            s.read(pos, buf);
            Ok(())
        };
        let mut out = [0u8; 32];
        // Half a chaining value from the accelerator.
        let mut accel = |sink: &mut SinkFn<'_>| sink(&[0u8; 48]);
        let r = kt_assemble::<168>(s.len(), &mut read, 2, &mut accel, &mut out);
        assert!(matches!(r, Err(GpuError::Unsupported(_))), "{r:?}");
        // S has 3 full leaves and a 1-byte one: the accelerator may not take 4.
        let mut accel = |sink: &mut SinkFn<'_>| sink(&[0u8; 4 * 32]);
        let r = kt_assemble::<168>(s.len(), &mut read, 4, &mut accel, &mut out);
        assert!(matches!(r, Err(GpuError::Unsupported(_))), "{r:?}");
        // A single-node input has no leaves to accelerate.
        let mut accel = |sink: &mut SinkFn<'_>| sink(&[0u8; 32]);
        let r = kt_assemble::<168>(100, &mut read, 1, &mut accel, &mut out);
        assert!(matches!(r, Err(GpuError::Unsupported(_))), "{r:?}");

        let x = pattern(50);
        let mut read = |pos: u64, buf: &mut [u8]| -> Result<(), GpuError> {
            buf.copy_from_slice(&x[pos as usize..pos as usize + buf.len()]);
            Ok(())
        };
        let mut accel = |sink: &mut SinkFn<'_>| sink(&[0u8; 33]);
        let r = PhVariant::Ph128.assemble(7, 50, b"", true, &mut read, 1, &mut accel, &mut out);
        assert!(matches!(r, Err(GpuError::Unsupported(_))), "{r:?}");
        let mut accel = |_: &mut SinkFn<'_>| Ok(());
        let r = PhVariant::Ph128.assemble(0, 50, b"", true, &mut read, 0, &mut accel, &mut out);
        assert!(matches!(r, Err(GpuError::Unsupported(_))), "{r:?}");
    }
}
