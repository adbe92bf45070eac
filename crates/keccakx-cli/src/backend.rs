//! `--backend auto|cpu|gpu`: where `keccakx sum` hashes.
//!
//! The GPU (crates/keccakx-gpu) hashes many files in one call: algorithms
//! that are one plain width-1600 sponge (SHA3-*, SHAKE*, Keccak-*,
//! TurboSHAKE*, raw Keccak on width 1600) with one GPU thread per file. Files
//! are taken in chunks of consecutive arguments (at most 256 MiB or 16384
//! files at a time, read in parallel), so memory stays bounded and results
//! are printed in argument order. Large files are streamed on the CPU, where
//! one file is not limited to one GPU thread's speed.
//!
//! * `cpu`: never the GPU.
//! * `gpu`: the GPU or an error (no GPU, or an algorithm it cannot run);
//!   files up to 256 MiB go to the GPU.
//! * `auto` (default): the GPU only for at least [`AUTO_MIN_FILES`] files of
//!   an algorithm it runs, when a GPU is present; files up to 1 MiB go there.
//!
//! If the GPU fails while hashing, a one-line notice is printed and the
//! work is redone on the CPU (same digests); with `gpu` forced the exit
//! status is then 1.

use std::ffi::OsString;
use std::io::{self, Read};
use std::ops::ControlFlow;

use keccakx::engine::LaneSpec;
use rayon::prelude::*;

use crate::algo::{Algo, Family};
use crate::cli::Backend;
use crate::exec::{run_ordered, Digest, Task};
use crate::input::{hash_path, ReadOpts};
use crate::output::warn;

/// `auto` uses the GPU from this many files on.
pub const AUTO_MIN_FILES: usize = 256;
/// Largest file sent to the GPU under `auto`.
const AUTO_MAX_FILE: u64 = 1 << 20;
/// Largest file sent to the GPU when it is forced.
const FORCED_MAX_FILE: u64 = 256 << 20;
/// File data read per GPU call.
const CHUNK_BYTES: u64 = 256 << 20;
/// Files per GPU call.
const CHUNK_FILES: usize = 16384;

/// Something that hashes many inputs with one sponge (a GPU).
pub trait Device: Sync {
    fn hash_many(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
    ) -> Result<(), String>;
}

impl Device for keccakx_gpu::GpuHasher {
    fn hash_many(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
    ) -> Result<(), String> {
        keccakx_gpu::GpuHasher::hash_many(self, spec, inputs, out_len, out)
            .map_err(|e| e.to_string())
    }
}

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
    match algo.info.family {
        Family::Registry(r) => {
            // One source of truth for which functions are one plain sponge.
            let spec = keccakx::batch::lane_spec(r.name, &algo.params).ok()??;
            Some((spec, algo.out_len))
        }
        _ => None,
    }
}

/// A batch hasher on a device.
pub struct GpuBatch {
    dev: Box<dyn Device>,
    spec: LaneSpec,
    out_len: usize,
    forced: bool,
    max_file: u64,
}

/// The batch hasher for `backend`: `Ok(None)` hashes on the CPU; an error
/// (only for a forced `gpu`) is the message after `--backend gpu: `.
pub fn batch_for(backend: Backend, algo: &Algo, files: usize) -> Result<Option<GpuBatch>, String> {
    match backend {
        Backend::Cpu => Ok(None),
        Backend::Gpu => {
            let (spec, out_len) = lane_of(algo).ok_or_else(|| {
                format!(
                    "-a {} does not run on the GPU (it runs SHA3-*, SHAKE*, Keccak-*, TurboSHAKE* \
                     and raw keccak on width 1600)",
                    algo.info.name
                )
            })?;
            let dev =
                keccakx_gpu::GpuHasher::new(0).map_err(|e| format!("no GPU available ({e})"))?;
            Ok(Some(GpuBatch {
                dev: Box::new(dev),
                spec,
                out_len,
                forced: true,
                max_file: FORCED_MAX_FILE,
            }))
        }
        Backend::Auto => {
            if files < AUTO_MIN_FILES {
                return Ok(None);
            }
            let Some((spec, out_len)) = lane_of(algo) else {
                return Ok(None);
            };
            // No GPU at all is the normal case: no notice.
            match keccakx_gpu::devices() {
                Ok(d) if !d.is_empty() => {}
                _ => return Ok(None),
            }
            match keccakx_gpu::GpuHasher::new(0) {
                Ok(dev) => Ok(Some(GpuBatch {
                    dev: Box::new(dev),
                    spec,
                    out_len,
                    forced: false,
                    max_file: AUTO_MAX_FILE,
                })),
                Err(e) => {
                    warn(&format!("GPU unusable ({e}); hashing on the CPU"));
                    Ok(None)
                }
            }
        }
    }
}

/// One file of a chunk after the parallel read.
enum Prepared {
    /// Read into memory for the device.
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
    #[cfg(test)]
    fn with_device(
        dev: Box<dyn Device>,
        spec: LaneSpec,
        out_len: usize,
        forced: bool,
        max_file: u64,
    ) -> GpuBatch {
        GpuBatch {
            dev,
            spec,
            out_len,
            forced,
            max_file,
        }
    }

    /// Hash `files`, calling `deliver(i, digest)` in order; the exit status
    /// contribution (1 when a forced GPU failed, else 0).
    pub fn run(
        &self,
        algo: &Algo,
        files: &[OsString],
        opts: ReadOpts,
        deliver: &mut dyn FnMut(usize, Digest) -> ControlFlow<()>,
    ) -> i32 {
        let mut i = 0;
        while i < files.len() {
            // A chunk of consecutive files: the small regular ones go to the
            // device, up to CHUNK_BYTES of them.
            let mut j = i;
            let mut bytes = 0u64;
            let mut to_device = Vec::new();
            while j < files.len() && j - i < CHUNK_FILES {
                let small = match std::fs::metadata(&files[j]) {
                    Ok(m) if files[j] != "-" && m.is_file() && m.len() <= self.max_file => {
                        Some(m.len())
                    }
                    _ => None,
                };
                if let Some(n) = small {
                    if bytes + n > CHUNK_BYTES && !to_device.is_empty() {
                        break;
                    }
                    bytes += n;
                }
                to_device.push(small.is_some());
                j += 1;
            }
            let prepared: Vec<Prepared> = (i..j)
                .into_par_iter()
                .map(|k| {
                    if files[k] == "-" {
                        Prepared::Stdin
                    } else if to_device[k - i] {
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
            if !inputs.is_empty() {
                if let Err(e) = self
                    .dev
                    .hash_many(&self.spec, &inputs, self.out_len, &mut out)
                {
                    warn(&format!("GPU failed ({e}); hashing on the CPU"));
                    return self.finish_on_cpu(algo, files, i, prepared, opts, deliver);
                }
            }
            let mut digests = out.chunks_exact(self.out_len.max(1));
            for (k, p) in (i..j).zip(prepared) {
                let d = match p {
                    Prepared::Data(_) => Ok(digests.next().map(<[u8]>::to_vec).unwrap_or_default()),
                    Prepared::Done(d) => d,
                    Prepared::Stdin => hash_path(&files[k], algo, opts),
                };
                if deliver(k, d).is_break() {
                    return 0;
                }
            }
            i = j;
        }
        0
    }

    /// After a device failure: this chunk's data and every later file on the CPU.
    fn finish_on_cpu(
        &self,
        algo: &Algo,
        files: &[OsString],
        start: usize,
        prepared: Vec<Prepared>,
        opts: ReadOpts,
        deliver: &mut dyn FnMut(usize, Digest) -> ControlFlow<()>,
    ) -> i32 {
        let status = i32::from(self.forced);
        let n = prepared.len();
        let done: Vec<Option<Digest>> = prepared
            .into_par_iter()
            .map(|p| match p {
                Prepared::Data(v) => Some(Ok(algo.digest(&v))),
                Prepared::Done(d) => Some(d),
                Prepared::Stdin => None,
            })
            .collect();
        for (k, d) in (start..start + n).zip(done) {
            let d = d.unwrap_or_else(|| hash_path(&files[k], algo, opts));
            if deliver(k, d).is_break() {
                return status;
            }
        }
        let rest = start + n;
        let algo_arc = std::sync::Arc::new(algo.clone());
        let tasks: Vec<Task> = files[rest..]
            .iter()
            .map(|f| Some((f.clone(), std::sync::Arc::clone(&algo_arc))))
            .collect();
        run_ordered(&tasks, opts, true, |k, r| match r {
            Some(d) => deliver(rest + k, d),
            None => ControlFlow::Continue(()),
        });
        status
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::find;
    use keccakx::registry::Params;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A device that hashes with the CPU engine and can be told to fail.
    struct Fake {
        fail_on_call: usize,
        calls: AtomicUsize,
        inputs: AtomicUsize,
    }

    impl Device for Fake {
        fn hash_many(
            &self,
            spec: &LaneSpec,
            inputs: &[&[u8]],
            out_len: usize,
            out: &mut [u8],
        ) -> Result<(), String> {
            let c = self.calls.fetch_add(1, Ordering::SeqCst);
            if c + 1 == self.fail_on_call {
                return Err("simulated kernel fault".into());
            }
            self.inputs.fetch_add(inputs.len(), Ordering::SeqCst);
            keccakx::engine::hash_many(spec, inputs, out_len, out);
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
        let b = GpuBatch::with_device(Box::new(fake), spec, out_len, forced, 64 << 10);
        let mut got: Vec<(usize, Digest)> = Vec::new();
        let status = b.run(&algo, &files, ReadOpts::default(), &mut |i, d| {
            got.push((i, d));
            ControlFlow::Continue(())
        });
        assert_eq!(status, i32::from(forced && fail_on_call > 0));
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
        assert!(lane_of(&a("blake256")).is_none());
        // Auto with few files never touches the GPU crate.
        assert!(batch_for(Backend::Auto, &a("sha3-256"), 3)
            .unwrap()
            .is_none());
        assert!(batch_for(Backend::Cpu, &a("sha3-256"), 10_000)
            .unwrap()
            .is_none());
        let e = batch_for(Backend::Gpu, &a("kt128"), 1).err().unwrap();
        assert!(e.contains("does not run on the GPU"), "{e}");
    }
}
