//! The GPU behind keccakx's engine contract (`GpuEngine`): routing of
//! host-fed batches by the cost model, and the modes (KT, ParallelHash,
//! tree LI) run on it with the first GPU error returned.

use std::sync::{Arc, OnceLock};

use keccakx::engine::{on_cores, BatchHint, Engine, EngineError, EngineRef, Fallback, LaneSpec};
use keccakx::tree_li::TreeLiParams;

use crate::cost::{CostModel, Route};
use crate::error::GpuError;
use crate::hasher::GpuHasher;
use crate::tree::{KtVariant, PhVariant};

/// The GPU as a `keccakx::engine::Engine` (name "cuda"): the contract's
/// fallible call ([`Engine::try_hash_many_beside`]) routes each host-fed
/// batch by the [`CostModel`] (GPU, CPU, or long messages to the CPU while
/// the rest runs on the GPU), and asks the modes for big calls
/// ([`Engine::batch_hint`]). The infallible [`Engine::hash_many`] redoes a
/// failed call on the CPU; wrap the engine in
/// [`keccakx::engine::Fallback`] to learn about failures. Every mode runs on
/// it: `keccakx::rfc9861::Kt128::with_engine(c, EngineRef::Shared(..))`,
/// `ParallelHash*::with_engine`, `tree_li::tree_li_with_engine`,
/// `batch::hash_many_into_with`; [`GpuEngine::kt`] and friends do that and
/// return the first GPU error.
///
/// The routing here is the one decision of where a host-fed batch runs:
/// front ends (the CLI's `--backend auto`) hand their batches to a routed
/// engine and do not route them again.
#[derive(Clone)]
pub struct GpuEngine {
    device: Arc<Device>,
    cost: CostModel,
    routing: bool,
}

/// The GPU behind an engine: opened when the engine was made, or on the
/// first batch routed to it ([`GpuEngine::open_on_demand`]).
struct Device {
    ordinal: usize,
    hasher: OnceLock<Result<Arc<GpuHasher>, GpuError>>,
}

/// Merkle trees of at least this many leaves build their levels on the
/// GPU (`Engine::merkle_nodes`) when the engine routes by cost.
pub const GPU_MERKLE_MIN_LEAVES: usize = 1 << 16;

/// Whether a Merkle node array of `nodes` nodes (2n - 1 for n leaves) is
/// built on the GPU: always when not routing by cost, else from
/// [`GPU_MERKLE_MIN_LEAVES`] leaves.
fn merkle_on_gpu(routing: bool, nodes: usize) -> bool {
    !routing || nodes.div_ceil(2) >= GPU_MERKLE_MIN_LEAVES
}

/// Bytes one GPU call should carry (the modes gather this much).
pub const GPU_BATCH_BYTES: usize = 256 << 20;

impl GpuEngine {
    /// Open device `ordinal`, with the cost model from `KECCAKX_GPU_COST`.
    pub fn new(ordinal: usize) -> Result<GpuEngine, GpuError> {
        Ok(GpuEngine::from_hasher(Arc::new(GpuHasher::new(ordinal)?)))
    }
    /// An engine over an open hasher.
    pub fn from_hasher(hasher: Arc<GpuHasher>) -> GpuEngine {
        let ordinal = hasher.device().ordinal;
        GpuEngine::with_device(Device {
            ordinal,
            hasher: OnceLock::from(Ok(hasher)),
        })
    }
    /// A routed engine for device `ordinal` that opens the device on the
    /// first batch its cost model sends there (a batch kept on the CPU
    /// never opens it). A device that cannot be opened fails that batch
    /// and every later one sent there: behind [`Fallback`] they are hashed
    /// on the CPU after one error.
    pub fn open_on_demand(ordinal: usize) -> GpuEngine {
        GpuEngine::with_device(Device {
            ordinal,
            hasher: OnceLock::new(),
        })
    }
    fn with_device(device: Device) -> GpuEngine {
        GpuEngine {
            device: Arc::new(device),
            cost: CostModel::from_env(),
            routing: true,
        }
    }
    /// The hasher behind it (opened now if the engine opens on demand).
    pub fn hasher(&self) -> Result<&GpuHasher, GpuError> {
        let d = &self.device;
        match d
            .hasher
            .get_or_init(|| GpuHasher::new(d.ordinal).map(Arc::new))
        {
            Ok(h) => Ok(h),
            Err(e) => Err(e.clone()),
        }
    }
    /// The cost model that routes batches.
    pub fn cost_model(&self) -> &CostModel {
        &self.cost
    }
    /// This engine with another cost model.
    pub fn with_cost_model(mut self, cost: CostModel) -> GpuEngine {
        self.cost = cost;
        self
    }
    /// This engine sending every batch to the GPU (`false`: no routing;
    /// benchmarks and cross-checks).
    pub fn with_routing(mut self, routing: bool) -> GpuEngine {
        self.routing = routing;
        self
    }

    fn err(e: GpuError) -> EngineError {
        EngineError {
            engine: "cuda",
            message: e.to_string(),
        }
    }

    /// Run `f` with this engine behind the fallback wrapper; the first GPU
    /// error (the work was then finished on the CPU) becomes the result.
    fn on_fallback<R>(&self, f: impl FnOnce(EngineRef) -> R) -> Result<R, GpuError> {
        let fb = Arc::new(Fallback::new(self.clone()));
        let r = f(EngineRef::Shared(fb.clone()));
        match fb.take_error() {
            Some(e) => Err(GpuError::Cuda(e.message)),
            None => Ok(r),
        }
    }

    /// KT128/KT256 of host data, leaves on this engine (keccakx's KT).
    pub fn kt(
        &self,
        v: KtVariant,
        data: &[u8],
        customization: &[u8],
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        self.on_fallback(|e| {
            keccakx::with_rate!(v.rate(), R => {
                let mut h = keccakx::rfc9861::Kt::<R>::with_engine(customization, e);
                h.update(data);
                h.finalize_into(out)
            })
        })
    }

    /// ParallelHash128/256 (`xof`: ParallelHashXOF) of host data, blocks on
    /// this engine (keccakx's ParallelHash).
    pub fn parallelhash(
        &self,
        v: PhVariant,
        data: &[u8],
        block: usize,
        customization: &[u8],
        xof: bool,
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        let bad = |_| GpuError::Unsupported("ParallelHash block size must be at least 1 byte");
        self.on_fallback(|e| -> Result<(), GpuError> {
            keccakx::with_rate!(v.rate(), R => {
                let mut h = keccakx::sp800_185::ParallelHash::<R>::with_engine(block, customization, e)
                    .map_err(bad)?;
                h.update(data);
                if xof {
                    h.finalize_xof().read(out)
                } else {
                    h.finalize_into(out)
                }
            });
            Ok(())
        })?
    }

    /// Tree LI of host data, every level batched on this engine.
    pub fn tree_li(
        &self,
        params: &TreeLiParams,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        self.on_fallback(|e| {
            e.with(|eng| keccakx::tree_li::tree_li_with_engine(eng, params, msg, out))
                .map_err(|_| {
                    GpuError::Unsupported("invalid tree-LI parameters (see TreeLiParams::validate)")
                })
        })?
    }
}

impl Engine for GpuEngine {
    fn name(&self) -> &'static str {
        "cuda"
    }
    fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
        Fallback::new(self).hash_many(spec, inputs, out_len, out)
    }
    fn hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) {
        Fallback::new(self).hash_many_beside(spec, inputs, out_len, out, side)
    }
    fn try_hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) -> Result<(), EngineError> {
        let cores = rayon::current_num_threads();
        let route = if self.routing {
            self.cost.route(spec, inputs, out_len, cores)
        } else {
            Route::Gpu
        };
        // The device, opened now if need be; `side` runs (exactly once) when
        // it cannot be.
        let open = |side: &mut dyn FnMut()| {
            self.hasher().map_err(|e| {
                side();
                EngineError {
                    engine: "cuda",
                    message: format!("cannot open the GPU: {e}"),
                }
            })
        };
        match route {
            Route::Cpu => {
                on_cores(|cpu| cpu.hash_many_beside(spec, inputs, out_len, out, side));
                Ok(())
            }
            Route::Gpu => open(side)?
                .hash_many_beside(spec, inputs, out_len, out, side)
                .map_err(Self::err),
            Route::Split(long) => {
                let hasher = open(side)?;
                // The long messages on the CPU cores while the GPU takes the rest.
                let mut is_long = vec![false; inputs.len()];
                long.iter().for_each(|&i| is_long[i] = true);
                let long_in: Vec<&[u8]> = long.iter().map(|&i| inputs[i]).collect();
                let short_idx: Vec<usize> = (0..inputs.len()).filter(|&i| !is_long[i]).collect();
                let short_in: Vec<&[u8]> = short_idx.iter().map(|&i| inputs[i]).collect();
                let mut long_out = vec![0u8; long_in.len() * out_len];
                let mut short_out = vec![0u8; short_in.len() * out_len];
                let r = std::thread::scope(|s| {
                    let cpu_part = s.spawn(|| {
                        on_cores(|cpu| cpu.hash_many(spec, &long_in, out_len, &mut long_out))
                    });
                    let r = hasher.hash_many_beside(spec, &short_in, out_len, &mut short_out, side);
                    let joined = cpu_part.join();
                    r.and_then(|()| {
                        joined.map_err(|_| {
                            GpuError::Cuda("the CPU part of a split batch panicked".into())
                        })
                    })
                });
                r.map_err(Self::err)?;
                for (k, &i) in long.iter().enumerate() {
                    out[i * out_len..(i + 1) * out_len]
                        .copy_from_slice(&long_out[k * out_len..(k + 1) * out_len]);
                }
                for (k, &i) in short_idx.iter().enumerate() {
                    out[i * out_len..(i + 1) * out_len]
                        .copy_from_slice(&short_out[k * out_len..(k + 1) * out_len]);
                }
                Ok(())
            }
        }
    }
    fn merkle_nodes(&self, tree: &mut [[u8; 32]]) -> Option<Result<(), EngineError>> {
        // Small trees: level batches on the cores win (a GPU call costs
        // ~100 µs before any hashing), unless routing is off.
        if !merkle_on_gpu(self.routing, tree.len()) {
            return None;
        }
        let h = match self.hasher() {
            Ok(h) => h,
            Err(e) => {
                return Some(Err(EngineError {
                    engine: "cuda",
                    message: format!("cannot open the GPU: {e}"),
                }))
            }
        };
        Some(h.merkle_nodes_in_place(tree).map_err(Self::err))
    }
    fn batch_hint(&self) -> BatchHint {
        BatchHint {
            bytes: GPU_BATCH_BYTES,
            max_items: 1 << 20,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn merkle_trees_go_to_the_gpu_from_the_threshold() {
        let nodes = |leaves: usize| 2 * leaves - 1;
        assert!(!super::merkle_on_gpu(
            true,
            nodes(super::GPU_MERKLE_MIN_LEAVES - 1)
        ));
        assert!(super::merkle_on_gpu(
            true,
            nodes(super::GPU_MERKLE_MIN_LEAVES)
        ));
        assert!(super::merkle_on_gpu(false, nodes(2)));
        assert!(super::merkle_on_gpu(false, 1));
    }

    use keccakx::registry::Params;

    #[test]
    fn the_core_lane_specs_give_the_registry_digest() {
        // The GPU runs what keccakx::batch::lane_spec says a function is:
        // right iff hashing with the spec gives the registry's digest.
        let msg = b"The quick brown fox jumps over the lazy dog";
        let cases: [(&str, Params, usize); 6] = [
            ("sha3-224", Params::default(), 28),
            (
                "shake256",
                Params {
                    length: Some(300),
                    ..Default::default()
                },
                300,
            ),
            ("keccak-512", Params::default(), 64),
            (
                "turboshake256",
                Params {
                    domain: Some(0x23),
                    length: Some(70),
                    ..Default::default()
                },
                70,
            ),
            (
                "cshake256",
                Params {
                    length: Some(64),
                    ..Default::default()
                },
                64,
            ),
            (
                "keccak",
                Params {
                    rate: Some(8),
                    capacity: Some(1592),
                    rounds: Some(5),
                    suffix: Some(0x1F),
                    ..Default::default()
                },
                32,
            ),
        ];
        for (name, p, n) in cases {
            let spec = keccakx::batch::lane_spec(name, &p).unwrap().unwrap();
            let mut h = keccakx::registry::Hasher::new(name, &p).unwrap();
            h.update(msg);
            let mut got = vec![0u8; n];
            spec.hash_one(msg, &mut got);
            assert_eq!(got, h.finalize(), "{name}");
        }
        let custom = Params {
            customization: b"x".to_vec(),
            ..Default::default()
        };
        assert!(keccakx::batch::lane_spec("cshake128", &custom)
            .unwrap()
            .is_none());
        assert!(keccakx::batch::lane_spec("kt128", &Params::default())
            .unwrap()
            .is_none());
    }
}
