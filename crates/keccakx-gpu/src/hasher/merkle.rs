//! OpenZeppelin-layout Merkle trees (Keccak-256, sorted pairs) built in
//! device memory (kernels/merkle.cu): the node array stays on the GPU while
//! every level is hashed, one launch per run of nodes whose children are
//! done; the root, and the whole array when asked (for proofs), come back.
//! Leaves come from the host, or from device memory (CuPy, PyTorch) where
//! they stay. Cross-checked in emulation against keccakx's Merkle mode
//! (tests/emulation.rs) and on a GPU (tests/gpu_cross.rs).

use cudarc::driver::{result, sys, CudaStream, LaunchConfig, PushKernelArg};

use super::handle::GpuHasher;
use crate::error::GpuError;
use crate::kernels::{Module, MERKLE_THREADS};
use crate::mem::DevBuf;

/// The runs of nodes a tree of `n` leaves is hashed in, in order: nodes
/// `lo..hi` have their children done once the runs before are.
pub fn merkle_runs(n: u64) -> Vec<(u64, u64)> {
    let mut v = Vec::new();
    let mut hi = n.saturating_sub(1);
    while hi > 0 {
        let lo = hi / 2;
        v.push((lo, hi));
        hi = lo;
    }
    v
}

/// Bytes of the node array of a tree of `n` leaves.
fn tree_bytes(n: u64) -> Result<usize, GpuError> {
    n.checked_mul(2)
        .and_then(|x| x.checked_sub(1))
        .and_then(|x| x.checked_mul(32))
        .and_then(|x| usize::try_from(x).ok())
        .ok_or(GpuError::Unsupported(
            "a Merkle tree needs 1 .. 2^57 leaves",
        ))
}

impl GpuHasher {
    /// Launch `name` over `count` threads with (a, b, c) as its arguments.
    fn merkle_launch(
        &self,
        stream: &CudaStream,
        name: &'static str,
        count: u64,
        args: [u64; 3],
    ) -> Result<(), GpuError> {
        if count == 0 {
            return Ok(());
        }
        let f = self.function(Module::Merkle, name)?;
        let blocks = u32::try_from(count.div_ceil(MERKLE_THREADS as u64))
            .map_err(|_| GpuError::Unsupported("too many Merkle nodes for one launch"))?;
        let cfg = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (MERKLE_THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut b = stream.launch_builder(&f);
        b.arg(&args[0]).arg(&args[1]).arg(&args[2]);
        // SAFETY: the kernels read and write only inside the tree (and the
        // leaves) the callers checked and keep alive until the stream is
        // synchronised; three u64 arguments as the kernels declare.
        unsafe { b.launch(cfg) }?;
        Ok(())
    }

    /// Hash the inner nodes of the tree at device address `tree` (of
    /// (2n - 1) × 32 bytes, the `n` leaves in place at its end in reverse
    /// order) in place, on `stream`, not waiting.
    fn merkle_levels(&self, stream: &CudaStream, tree: u64, n: u64) -> Result<(), GpuError> {
        for (lo, hi) in merkle_runs(n) {
            self.merkle_launch(stream, "kx_merkle_nodes", hi - lo, [tree, lo, hi])?;
        }
        Ok(())
    }

    /// The root of the OpenZeppelin tree of `n` leaves (32 bytes each, in
    /// leaf order) at device address `leaves`; `nodes`, if given
    /// (of (2n - 1) × 32 bytes), receives the whole node array, root first.
    /// The leaves stay where they are; the tree is built in a device
    /// buffer of its own. Runs on `stream` (or this hasher's) and waits.
    ///
    /// # Safety
    /// `leaves` must address `n * 32` readable device bytes of this
    /// device's context, and `stream`, if given, be a live stream of it.
    pub unsafe fn merkle_tree_raw(
        &self,
        leaves: u64,
        n: u64,
        stream: Option<sys::CUstream>,
        nodes: Option<&mut [u8]>,
    ) -> Result<[u8; 32], GpuError> {
        let bytes = tree_bytes(n)?;
        if nodes.as_ref().is_some_and(|o| o.len() != bytes) {
            return Err(GpuError::Unsupported(
                "the node array needs (2n - 1) * 32 bytes",
            ));
        }
        self.ctx.bind_to_thread()?;
        let stream = match stream {
            // SAFETY: the caller vouches for the stream (see above).
            Some(s) => unsafe { self.ctx.wrap_borrowed_stream(s) },
            None => self.stream(),
        };
        let tree = DevBuf::new(&self.ctx, bytes)?;
        let events = super::handle::lock(&self.timing);
        let [start, end] = &*events;
        start.record(&stream)?;
        self.merkle_launch(&stream, "kx_merkle_leaves", n, [tree.ptr(), leaves, n])?;
        self.merkle_levels(&stream, tree.ptr(), n)?;
        end.record(&stream)?;
        stream.synchronize()?;
        *super::handle::lock(&self.last_kernel_ms) = start.elapsed_ms(end).ok();
        let mut root = [0u8; 32];
        // SAFETY: the tree holds `bytes` >= 32 bytes, finished above.
        unsafe { result::memcpy_dtoh_sync(&mut root, tree.ptr()) }?;
        if let Some(out) = nodes {
            // SAFETY: `out` is exactly the tree's size (checked above).
            unsafe { result::memcpy_dtoh_sync(out, tree.ptr()) }?;
        }
        Ok(root)
    }

    /// The inner nodes of an OpenZeppelin node array whose leaves are in
    /// place (the Merkle mode's layout, see
    /// [`keccakx::engine::Engine::merkle_nodes`]): the leaves uploaded, every
    /// level hashed on the GPU, the inner nodes copied back.
    pub fn merkle_nodes_in_place(&self, tree: &mut [[u8; 32]]) -> Result<(), GpuError> {
        if tree.len().is_multiple_of(2) {
            return Err(GpuError::Unsupported(
                "an OpenZeppelin node array has an odd number of nodes",
            ));
        }
        let n = (tree.len() as u64).div_ceil(2);
        let inner = (n - 1) as usize;
        self.ctx.bind_to_thread()?;
        let stream = self.stream();
        let d = DevBuf::new(&self.ctx, tree.len() * 32)?;
        let cs = stream.cu_stream();
        // SAFETY: d holds the whole array; the leaves (nodes inner..) go to
        // their own offset; the host slice outlives the synchronisation.
        unsafe {
            result::memcpy_htod_async(
                d.ptr() + inner as u64 * 32,
                tree[inner..].as_flattened(),
                cs,
            )
        }?;
        let events = super::handle::lock(&self.timing);
        let [start, end] = &*events;
        start.record(&stream)?;
        self.merkle_levels(&stream, d.ptr(), n)?;
        end.record(&stream)?;
        stream.synchronize()?;
        *super::handle::lock(&self.last_kernel_ms) = start.elapsed_ms(end).ok();
        // SAFETY: the inner nodes 0..inner, finished above.
        unsafe { result::memcpy_dtoh_sync(tree[..inner].as_flattened_mut(), d.ptr()) }?;
        Ok(())
    }

    /// The whole OpenZeppelin node array (root first) of host `leaves` (in
    /// leaf order): uploaded once, every level hashed on the GPU, the
    /// array copied back (for proofs).
    pub fn merkle_tree(&self, leaves: &[[u8; 32]]) -> Result<Vec<[u8; 32]>, GpuError> {
        let n = leaves.len() as u64;
        let bytes = tree_bytes(n)?;
        self.ctx.bind_to_thread()?;
        let d_leaves = DevBuf::new(&self.ctx, leaves.len() * 32)?;
        let stream = self.stream();
        // SAFETY: d_leaves holds n * 32 bytes; the host slice lives until
        // the synchronisation inside merkle_tree_raw (same stream).
        unsafe {
            result::memcpy_htod_async(d_leaves.ptr(), leaves.as_flattened(), stream.cu_stream())
        }?;
        let mut out = vec![[0u8; 32]; bytes / 32];
        // SAFETY: d_leaves is n * 32 device bytes of this context; the
        // stream is this hasher's own.
        unsafe {
            self.merkle_tree_raw(
                d_leaves.ptr(),
                n,
                Some(stream.cu_stream()),
                Some(out.as_flattened_mut()),
            )
        }?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_cover_every_inner_node_once_children_first() {
        for n in [1u64, 2, 3, 4, 5, 8, 9, 1000, 1 << 20, (1 << 20) + 3] {
            let runs = merkle_runs(n);
            let mut done = vec![false; (2 * n - 1) as usize];
            for d in done.iter_mut().skip((n - 1) as usize) {
                *d = true; // the leaves
            }
            for (lo, hi) in runs {
                for i in lo..hi {
                    let (l, r) = (2 * i + 1, 2 * i + 2);
                    assert!(done[l as usize] && done[r as usize], "n {n}: node {i}");
                }
                for i in lo..hi {
                    assert!(!done[i as usize]);
                    done[i as usize] = true;
                }
            }
            assert!(done.iter().all(|d| *d), "n {n}");
        }
        assert_eq!(merkle_runs(1 << 24).len(), 24);
    }

    /// An engine with the Merkle hook (as the GPU engine has), computing
    /// the runs of `merkle_runs` on the CPU, or failing.
    struct Hook {
        fail: bool,
        calls: std::sync::atomic::AtomicUsize,
    }

    impl keccakx::engine::Engine for Hook {
        fn name(&self) -> &'static str {
            "hook"
        }
        fn hash_many(&self, spec: &keccakx::engine::LaneSpec, i: &[&[u8]], l: usize, o: &mut [u8]) {
            keccakx::engine::Scalar.hash_many(spec, i, l, o)
        }
        fn merkle_nodes(
            &self,
            tree: &mut [[u8; 32]],
        ) -> Option<Result<(), keccakx::engine::EngineError>> {
            self.calls
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if self.fail {
                return Some(Err(keccakx::engine::EngineError {
                    engine: "hook",
                    message: "refused".into(),
                }));
            }
            for (lo, hi) in merkle_runs(tree.len().div_ceil(2) as u64) {
                for i in lo as usize..hi as usize {
                    tree[i] = keccakx::merkle::node_hash(&tree[2 * i + 1], &tree[2 * i + 2]);
                }
            }
            Some(Ok(()))
        }
    }

    #[test]
    fn the_merkle_mode_uses_the_engine_hook_and_falls_back() {
        use keccakx::engine::{Engine, Fallback, Scalar};
        let leaves: Vec<[u8; 32]> = (0..1000u32)
            .map(|k| keccakx::merkle::keccak256(&k.to_le_bytes()))
            .collect();
        let want = keccakx::merkle::build_nodes(&leaves, &Scalar, &mut |_| {}).unwrap();
        let ok = Hook {
            fail: false,
            calls: 0.into(),
        };
        let mut ticks = Vec::new();
        let got = keccakx::merkle::build_nodes(&leaves, &ok, &mut |k| ticks.push(k)).unwrap();
        assert_eq!(got, want);
        assert_eq!(ok.calls.into_inner(), 1);
        assert_eq!(ticks, [0, 999]);
        // A failing hook behind the fallback wrapper: the level batches run,
        // the error is kept.
        let bad = Fallback::new(Hook {
            fail: true,
            calls: 0.into(),
        });
        let got = keccakx::merkle::build_nodes(&leaves, &bad, &mut |_| {}).unwrap();
        assert_eq!(got, want);
        assert!(bad.take_error().is_some());
        let mut tree = vec![[0u8; 32]; 3];
        assert!(bad.merkle_nodes(&mut tree).is_none());
    }
}
