//! Device-resident KT128/KT256 (RFC 9861) and ParallelHash128/256
//! (SP 800-185): the modes are keccakx's own
//! ([`KtFinalNode::from_resident`], [`ParallelHashOuter::absorb_resident`]);
//! this file only gives them the device buffer as a
//! [`keccakx::engine::ResidentInput`]: bytes read back on request, and whole
//! leaves hashed in place, group by group, while the final node on the CPU
//! absorbs the previous group's chaining values. Host-fed KT, ParallelHash
//! and tree LI run keccakx's modes on [`crate::GpuEngine`] (engine.rs).
//!
//! Final node on the CPU: it absorbs one chaining value per leaf (32 or 64
//! bytes per 8 KiB for KT, 0.4 % or 0.8 % of the input), sequentially; a
//! single GPU thread would be far slower at that.

use std::cell::RefCell;

use cudarc::driver::CudaSlice;
use keccakx::engine::{Engine, EngineError, LaneSpec, ResidentInput, Strided};
use keccakx::rfc9861::KtFinalNode;
use keccakx::sp800_185::ParallelHashOuter;
use keccakx::tree_li::TreeLiParams;

use crate::error::GpuError;
use crate::hasher::GpuHasher;

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

/// Which ParallelHash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhVariant {
    /// ParallelHash128: leaves SHAKE128 (= cSHAKE128 with empty N, S), 32-byte values.
    Ph128,
    /// ParallelHash256: leaves SHAKE256, 64-byte values.
    Ph256,
}

/// A variant's rate, chaining-value length and leaf sponge, from the
/// node type of keccakx's mode (`$node::<R>`, its `CV_LEN` and `$spec`).
macro_rules! variant_facts {
    ($v:ident, $v128:ident, $v256:ident, $node:ident, $spec:ident, $spec_doc:literal) => {
        impl $v {
            pub fn rate(self) -> usize {
                match self {
                    $v::$v128 => 168,
                    $v::$v256 => 136,
                }
            }
            pub fn cv_len(self) -> usize {
                keccakx::with_rate!(self.rate(), R => $node::<R>::CV_LEN)
            }
            #[doc = $spec_doc]
            pub fn leaf_spec(self) -> LaneSpec {
                keccakx::with_rate!(self.rate(), R => $node::<R>::$spec)
            }
        }
    };
}
variant_facts!(
    KtVariant,
    Kt128,
    Kt256,
    KtFinalNode,
    LEAF_SPEC,
    "The leaf sponge: TurboSHAKE with domain byte 0x0B ([`KtFinalNode::LEAF_SPEC`])."
);
variant_facts!(
    PhVariant,
    Ph128,
    Ph256,
    ParallelHashOuter,
    BLOCK_SPEC,
    "The block sponge: SHAKE ([`ParallelHashOuter::BLOCK_SPEC`])."
);

/// A device buffer as the input of a tree mode
/// ([`keccakx::engine::ResidentInput`]): the mode (KT, ParallelHash, in
/// keccakx) reads back what it hashes itself and asks for whole leaves,
/// which one launch per group hashes in place.
struct DeviceInput<'a> {
    hasher: &'a GpuHasher,
    data: &'a CudaSlice<u8>,
    /// The GPU error behind the last [`EngineError`] (its kind survives the
    /// trip through the mode).
    error: RefCell<Option<GpuError>>,
}

impl DeviceInput<'_> {
    fn fail(&self, e: GpuError) -> EngineError {
        let message = e.to_string();
        *self.error.borrow_mut() = Some(e);
        EngineError {
            engine: "cuda",
            message,
        }
    }
    /// The mode's result as a GpuError: the GPU's own, or the mode's
    /// complaint about what the GPU delivered.
    fn into_result<T>(self, r: Result<T, EngineError>) -> Result<T, GpuError> {
        r.map_err(|e| self.error.take().unwrap_or(GpuError::Cuda(e.message)))
    }
}

impl ResidentInput for DeviceInput<'_> {
    fn engine(&self) -> &'static str {
        "cuda"
    }
    fn len(&self) -> u64 {
        self.data.len() as u64
    }
    fn read(&self, pos: u64, buf: &mut [u8]) -> Result<(), EngineError> {
        self.hasher
            .read_device(self.data, pos, buf)
            .map_err(|e| self.fail(e))
    }
    fn hash_leaves(
        &self,
        spec: &LaneSpec,
        first: u64,
        leaf: usize,
        count: u64,
        cv_len: usize,
        sink: &mut dyn FnMut(&[u8]) -> Result<(), EngineError>,
    ) -> Result<(), EngineError> {
        let mut sink_error = None;
        let r =
            self.hasher
                .leaves_device(spec, self.data, first, leaf, count, cv_len, &mut |cvs| {
                    sink(cvs).map_err(|e| {
                        sink_error = Some(e);
                        GpuError::Unsupported("stopped by the mode")
                    })
                });
        match (r, sink_error) {
            (_, Some(e)) => Err(e),
            (Err(e), None) => Err(self.fail(e)),
            (Ok(()), None) => Ok(()),
        }
    }
    fn hash_gathered(
        &self,
        spec: &LaneSpec,
        prefix: &[u8],
        msgs: &[Strided],
        out_len: usize,
        out: &mut [u8],
    ) -> Result<(), EngineError> {
        self.hasher
            .gathered_device(spec, self.data, prefix, msgs, out_len, out)
            .map_err(|e| self.fail(e))
    }
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
    /// Tree LI of data already in device memory: keccakx's
    /// [`keccakx::tree_li::tree_li_resident`], every leaf gathered and
    /// hashed on the GPU (`gathered_device`, hasher/leaves.rs), the inner levels
    /// and the final node on `engine` (the CPU engines if None).
    pub fn tree_li_device(
        &self,
        params: &TreeLiParams,
        data: &CudaSlice<u8>,
        engine: Option<&dyn Engine>,
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        check_view(self, data)?;
        let input = DeviceInput {
            hasher: self,
            data,
            error: RefCell::new(None),
        };
        let mut run = |e: &dyn Engine| keccakx::tree_li::tree_li_resident(e, params, &input, out);
        let r = match engine {
            Some(e) => run(e),
            None => keccakx::engine::on_cores(run),
        };
        input.into_result(r)
    }

    /// KT128/KT256 of data already in device memory: keccakx's KT
    /// ([`KtFinalNode::from_resident`]) with the leaves lying wholly inside
    /// the buffer hashed there, group by group, the final node absorbing one
    /// group's chaining values while the GPU hashes the next; S_0 and the
    /// leaves that reach into the customization are read back and hashed on
    /// the CPU.
    pub fn kt_device(
        &self,
        v: KtVariant,
        data: &CudaSlice<u8>,
        customization: &[u8],
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        check_view(self, data)?;
        let input = DeviceInput {
            hasher: self,
            data,
            error: RefCell::new(None),
        };
        let r = keccakx::with_rate!(v.rate(), R => KtFinalNode::<R>::from_resident(customization, &input)
            .map(|node| node.finalize_into(out)));
        input.into_result(r)
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

    /// ParallelHash128/256 (`xof`: ParallelHashXOF) of device data:
    /// keccakx's ParallelHash ([`ParallelHashOuter::absorb_resident`]) with
    /// the whole blocks hashed on the GPU, the short last block on the CPU.
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
        let bad = |_| GpuError::Unsupported("ParallelHash block size must be at least 1 byte");
        let input = DeviceInput {
            hasher: self,
            data,
            error: RefCell::new(None),
        };
        fn run<const R: usize>(
            mut outer: ParallelHashOuter<R>,
            input: &DeviceInput<'_>,
            xof: bool,
            out: &mut [u8],
        ) -> Result<(), EngineError> {
            outer.absorb_resident(input)?;
            if xof {
                outer.finalize_xof().read(out)
            } else {
                outer.finalize_into(out)
            }
            Ok(())
        }
        let r = keccakx::with_rate!(v.rate(), R => run(
            ParallelHashOuter::<R>::new(block, customization).map_err(bad)?,
            &input,
            xof,
            out,
        ));
        input.into_result(r)
    }
}
