//! `--backend auto|cpu|gpu`: where `keccakx sum` hashes.
//!
//! The GPU (crates/keccakx-gpu) hashes many files in one call: algorithms
//! that are one plain width-1600 sponge (SHA3-*, SHAKE*, Keccak-*,
//! TurboSHAKE*, raw Keccak on width 1600) with one GPU thread per file. Files
//! are taken in chunks of consecutive arguments (at most 256 MiB or 16384
//! files at a time, read in parallel), so memory stays bounded and results
//! are printed in argument order. Larger files are streamed on the CPU.
//!
//! * `cpu`: never the GPU.
//! * `gpu`: the GPU or an error (no GPU, or an algorithm it cannot run);
//!   every chunk goes to the GPU.
//! * `auto` (default): with more files than CPU threads (fewer never go
//!   to a GPU, and the driver is not looked for) and a GPU present, each
//!   chunk goes to a routed GPU engine ([`keccakx_gpu::GpuEngine::open_on_demand`]),
//!   which alone decides, by its cost model ([`keccakx_gpu::CostModel`]),
//!   where the chunk is cheaper: the GPU (opened on the first chunk that
//!   goes there), the CPU, or split (files too long for the GPU's share on
//!   the CPU beside it). The model's default constants were measured on an
//!   H200 machine (docs/gpu.md); `KECCAKX_GPU_COST` sets them for another.
//!
//! The GPU runs behind keccakx's one fallback wrapper
//! ([`keccakx::engine::Fallback`], sticky): if it fails, a one-line notice is
//! printed, the failed call and every later one run on the CPU (same
//! digests); with `gpu` forced the exit status is then 1.

use std::ffi::OsString;
use std::io::{self, Read};
use std::ops::ControlFlow;

use keccakx::engine::{Engine, Fallback, LaneSpec};
use keccakx_gpu::GpuEngine;
use rayon::prelude::*;

use crate::algo::{Algo, Family};
use crate::cli::Backend;
use crate::error::{Error, Outcome};
use crate::exec::Digest;
use crate::input::{hash_path, ReadOpts};
use crate::output::warn;

/// Largest file read into memory for a batch (bigger ones stream on the CPU).
const MAX_FILE: u64 = 256 << 20;
/// File data read per chunk.
const CHUNK_BYTES: u64 = 256 << 20;
/// Files per chunk.
const CHUNK_FILES: usize = 16384;

/// The GPUs this build can use, one description each, or why there are none.
pub fn gpu_devices() -> Result<Vec<String>, String> {
    let devs = keccakx_gpu::devices().map_err(|e| e.to_string())?;
    Ok(devs
        .iter()
        .map(|d| {
            format!(
                "{}: {} (compute capability {}.{}, {:.1} GiB)",
                d.ordinal,
                d.name,
                d.compute_capability.0,
                d.compute_capability.1,
                d.memory_bytes as f64 / (1u64 << 30) as f64
            )
        })
        .collect())
}

/// The one plain sponge `algo` is, if the GPU can run it.
fn lane_of(algo: &Algo) -> Option<(LaneSpec, usize)> {
    if !algo.is_plain() {
        return None;
    }
    match algo.info.family {
        Family::Registry(r) => {
            // One source of truth for which functions are one plain sponge.
            let spec = keccakx::batch::lane_spec(r.name, &algo.params).ok()??;
            Some((spec, algo.out_len))
        }
        #[allow(unreachable_patterns)] // without the finalists feature
        _ => None,
    }
}

/// A batch hasher with a GPU behind it.
pub struct GpuBatch {
    /// The GPU engine behind the sticky fallback wrapper: under `auto` it
    /// routes each chunk itself (and opens the GPU on the first chunk it
    /// sends there); under `gpu` it is open already and sends everything.
    engine: Fallback<Box<dyn Engine>>,
    spec: LaneSpec,
    out_len: usize,
    forced: bool,
}

/// The batch hasher for `backend`: `Ok(None)` hashes on the CPU; an error
/// ([`Error::Gpu`]) only for a forced `gpu`.
pub fn batch_for(backend: Backend, algo: &Algo, files: usize) -> Result<Option<GpuBatch>, Error> {
    match backend {
        Backend::Cpu => Ok(None),
        Backend::Gpu => {
            if !algo.is_plain() {
                return Err(Error::Gpu(
                    "--backend gpu hashes files as they are: -U, -0 and --seek run on the CPU"
                        .into(),
                ));
            }
            let (spec, out_len) = lane_of(algo).ok_or_else(|| {
                Error::Gpu(format!(
                    "-a {} does not run on the GPU (it runs SHA3-*, SHAKE*, Keccak-*, TurboSHAKE* \
                     and raw keccak on width 1600)",
                    algo.info.name
                ))
            })?;
            let dev = GpuEngine::new(0)
                .map_err(|e| Error::Gpu(format!("no GPU available ({e})")))?
                .with_routing(false);
            Ok(Some(GpuBatch::new(Box::new(dev), spec, out_len, true)))
        }
        Backend::Auto => {
            let Some((spec, out_len)) = lane_of(algo) else {
                return Ok(None);
            };
            // One GPU thread hashes one file: with no more files than CPU
            // threads, each file has a core of its own, faster than the GPU
            // thread it would get, so the driver is not even looked for
            // (without a GPU that search, some 200 failed opens, was a third
            // of `keccakx sum FILE`'s run time: bench/NOTES.md).
            if files <= rayon::current_num_threads() {
                return Ok(None);
            }
            // No GPU at all is the normal case: no notice, plain CPU path.
            match keccakx_gpu::devices() {
                Ok(d) if !d.is_empty() => {}
                _ => return Ok(None),
            }
            let dev = GpuEngine::open_on_demand(0);
            Ok(Some(GpuBatch::new(Box::new(dev), spec, out_len, false)))
        }
    }
}

/// One file of a chunk after the parallel read.
enum Prepared {
    /// Read into memory for the batch.
    Data(Vec<u8>),
    /// Hashed on the CPU already (or failed).
    Done(Digest),
    /// Standard input: hashed by the delivering thread in its turn.
    Stdin,
}

fn read_small(path: &OsString) -> io::Result<Vec<u8>> {
    let mut f = std::fs::File::open(path)?;
    let mut v = Vec::new();
    f.read_to_end(&mut v)?;
    Ok(v)
}

impl GpuBatch {
    fn new(engine: Box<dyn Engine>, spec: LaneSpec, out_len: usize, forced: bool) -> GpuBatch {
        GpuBatch {
            engine: Fallback::sticky(engine),
            spec,
            out_len,
            forced,
        }
    }

    /// Hash `inputs` on the engine (which routes them under `auto`);
    /// whether the GPU failed (the digests are then the CPU's, after a
    /// one-line notice).
    fn hash_chunk(&self, inputs: &[&[u8]], out: &mut [u8]) -> bool {
        self.engine.hash_many(&self.spec, inputs, self.out_len, out);
        match self.engine.take_error() {
            Some(err) => {
                warn(&format!("GPU failed ({}); hashing on the CPU", err.message));
                true
            }
            None => false,
        }
    }

    /// Hash `files`, calling `deliver(i, digest)` in order; the outcome is
    /// [`Outcome::Failed`] when a forced GPU failed (the CPU hashed instead).
    pub fn run(
        &self,
        algo: &Algo,
        files: &[OsString],
        opts: ReadOpts,
        deliver: &mut dyn FnMut(usize, Digest) -> ControlFlow<()>,
    ) -> Outcome {
        let mut outcome = Outcome::Success;
        let mut i = 0;
        while i < files.len() {
            // A chunk of consecutive files: the regular ones up to MAX_FILE
            // are read for the batch, up to CHUNK_BYTES of them.
            let mut j = i;
            let mut bytes = 0u64;
            let mut batched = Vec::new();
            while j < files.len() && j - i < CHUNK_FILES {
                let small = match std::fs::metadata(&files[j]) {
                    Ok(m) if files[j] != "-" && m.is_file() && m.len() <= MAX_FILE => Some(m.len()),
                    _ => None,
                };
                if let Some(n) = small {
                    if bytes + n > CHUNK_BYTES && !batched.is_empty() {
                        break;
                    }
                    bytes += n;
                }
                batched.push(small.is_some());
                j += 1;
            }
            let prepared: Vec<Prepared> = (i..j)
                .into_par_iter()
                .map(|k| {
                    if files[k] == "-" {
                        Prepared::Stdin
                    } else if batched[k - i] {
                        match read_small(&files[k]) {
                            Ok(v) => Prepared::Data(v),
                            Err(e) => Prepared::Done(Err(e)),
                        }
                    } else {
                        Prepared::Done(hash_path(&files[k], algo, opts))
                    }
                })
                .collect();
            let inputs: Vec<&[u8]> = prepared
                .iter()
                .filter_map(|p| match p {
                    Prepared::Data(v) => Some(v.as_slice()),
                    _ => None,
                })
                .collect();
            let mut out = vec![0u8; inputs.len() * self.out_len];
            if !inputs.is_empty() && self.hash_chunk(&inputs, &mut out) && self.forced {
                outcome = Outcome::Failed;
            }
            let mut digests = out.chunks_exact(self.out_len.max(1));
            for (k, p) in (i..j).zip(prepared) {
                let d = match p {
                    Prepared::Data(_) => Ok(digests.next().map(<[u8]>::to_vec).unwrap_or_default()),
                    Prepared::Done(d) => d,
                    Prepared::Stdin => hash_path(&files[k], algo, opts),
                };
                if deliver(k, d).is_break() {
                    return outcome;
                }
            }
            i = j;
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::find;
    use keccakx::registry::Params;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// An engine that hashes on the CPU and can be told to fail a call.
    struct Fake {
        fail_on_call: usize,
        calls: AtomicUsize,
        inputs: AtomicUsize,
    }

    impl Engine for Fake {
        fn name(&self) -> &'static str {
            "fake"
        }
        fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
            keccakx::engine::hash_many(spec, inputs, out_len, out);
        }
        fn try_hash_many_beside(
            &self,
            spec: &LaneSpec,
            inputs: &[&[u8]],
            out_len: usize,
            out: &mut [u8],
            side: &mut dyn FnMut(),
        ) -> Result<(), keccakx::engine::EngineError> {
            let c = self.calls.fetch_add(1, Ordering::SeqCst);
            if c + 1 == self.fail_on_call {
                out.fill(0xEE);
                return Err(keccakx::engine::EngineError {
                    engine: "fake",
                    message: "simulated kernel fault".into(),
                });
            }
            side();
            self.inputs.fetch_add(inputs.len(), Ordering::SeqCst);
            self.hash_many(spec, inputs, out_len, out);
            Ok(())
        }
    }

    fn setup(name: &str, tag: &str) -> (std::path::PathBuf, Vec<OsString>, Vec<Vec<u8>>) {
        let dir =
            std::env::temp_dir().join(format!("keccakx-backend-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut files = Vec::new();
        let mut datas = Vec::new();
        for i in 0..40usize {
            let p = dir.join(format!("{name}{i}"));
            // Sizes up to 300 KB: with a 64 KiB limit some go to the CPU.
            let d: Vec<u8> = (0..(i * i * 197) % 300_000)
                .map(|k| (k * 31 + i) as u8)
                .collect();
            std::fs::write(&p, &d).unwrap();
            files.push(p.into_os_string());
            datas.push(d);
        }
        files.insert(7, dir.join("missing").into_os_string());
        datas.insert(7, Vec::new());
        files.insert(9, dir.clone().into_os_string());
        datas.insert(9, Vec::new());
        (dir, files, datas)
    }

    fn run_with(fail_on_call: usize, forced: bool, name: &str) {
        let (dir, files, datas) = setup(name, &format!("{fail_on_call}{forced}"));
        let algo = Algo::new(find(name).unwrap(), &Params::default()).unwrap();
        let (spec, out_len) = lane_of(&algo).unwrap();
        let fake = Fake {
            fail_on_call,
            calls: AtomicUsize::new(0),
            inputs: AtomicUsize::new(0),
        };
        let b = GpuBatch::new(Box::new(fake), spec, out_len, forced);
        let mut got: Vec<(usize, Digest)> = Vec::new();
        let outcome = b.run(&algo, &files, ReadOpts::default(), &mut |i, d| {
            got.push((i, d));
            ControlFlow::Continue(())
        });
        let gpu_failed = forced && fail_on_call > 0;
        assert_eq!(outcome == Outcome::Failed, gpu_failed);
        assert_eq!(got.len(), files.len());
        for (k, (i, d)) in got.into_iter().enumerate() {
            assert_eq!(i, k, "order");
            match k {
                7 => assert_eq!(d.unwrap_err().kind(), io::ErrorKind::NotFound),
                9 => assert!(d.is_err()),
                _ => assert_eq!(d.unwrap(), algo.digest(&datas[k]), "file {k}"),
            }
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn device_batches_give_cpu_digests_in_order() {
        run_with(0, false, "sha3-256");
        run_with(0, true, "shake128");
        run_with(0, false, "keccak-512");
    }

    #[test]
    fn device_failure_falls_back_to_the_cpu() {
        run_with(1, false, "sha3-256");
        run_with(1, true, "turboshake128");
    }

    #[test]
    fn which_algorithms_go_to_the_gpu() {
        let a = |n: &str| Algo::new(find(n).unwrap(), &Params::default()).unwrap();
        assert!(lane_of(&a("sha3-224")).is_some());
        assert!(lane_of(&a("kt128")).is_none());
        assert!(lane_of(&a("tuplehash128")).is_none());
        assert!(lane_of(&a("tree-li")).is_none());
        if cfg!(feature = "finalists") {
            assert!(lane_of(&a("blake256")).is_none());
        }
        // Auto: a few small files stay on the CPU by the cost model.
        let (spec, out_len) = lane_of(&a("sha3-256")).unwrap();
        let few: Vec<&[u8]> = vec![&[0u8; 100]; 3];
        assert_eq!(
            keccakx_gpu::CostModel::default().route(&spec, &few, out_len, 2),
            keccakx_gpu::Route::Cpu
        );
        assert!(batch_for(Backend::Cpu, &a("sha3-256"), 10_000)
            .unwrap()
            .is_none());
        // Auto with no more files than CPU threads: the CPU, GPU or not.
        assert!(batch_for(Backend::Auto, &a("sha3-256"), 1)
            .unwrap()
            .is_none());
        let e = batch_for(Backend::Gpu, &a("kt128"), 1).err().unwrap();
        assert!(matches!(e, Error::Gpu(_)), "{e:?}");
        assert!(e
            .to_string()
            .starts_with("--backend gpu: -a kt128 does not run on the GPU"));
    }
}
