//! `keccakx._keccakx`: the native part of the Python module `keccakx`.
//!
//! hashlib-shaped objects over `keccakx::registry::Hasher` (tree LI included),
//! zero-copy input through the buffer protocol, the GIL released while
//! hashing large inputs, and batch hashing of many messages at once. The
//! pure-Python package (`python/keccakx/__init__.py`) re-exports these and
//! adds `file_digest`, NumPy handling and the GPU/device-array checks.
//!
//! The root only declares the modules and registers what they define:
//! `objects` (the Hash and XOF classes), `constructors` (one function per
//! algorithm and `new`), `alg` (keywords into registry parameters),
//! `batch` and `gpu` (hash_many), `hazmat` (the tree modes' pieces for
//! `keccakx.distributed`; `file_range`: their chaining values of a file
//! range, mapped by the native library), `merkle` (OpenZeppelin-compatible Merkle
//! trees), `outboard` (KT/ParallelHash outboards: build, check, locate damage), `sumfile` (checksum lines and `--check` reports for
//! `keccakx-cluster`), `policy` (engine and threads), `buffer` and
//! `gil` (input in place, when the GIL is released). A child process made
//! by `fork()` gets a thread pool of its own (see `register_fork_handler`).

use pyo3::prelude::*;

mod alg;
mod batch;
mod buffer;
mod constructors;
mod file_range;
mod gil;
mod gpu;
mod hazmat;
mod merkle;
mod objects;
mod outboard;
mod policy;
mod state;
mod sumfile;

/// A child made by `fork()` (os.fork, multiprocessing's "fork" start
/// method, Dask's or gunicorn's workers) has none of the parent's pool
/// threads: it must build a pool of its own on first use, never hand work
/// to the parent's (a lock held by one of its threads at the moment of the
/// fork stays held forever). Registered with `pthread_atfork`, so every
/// fork is seen, whoever calls it.
#[cfg(unix)]
fn register_fork_handler() {
    extern "C" fn in_child() {
        keccakx::engine::forget_pool_after_fork();
    }
    extern "C" {
        fn pthread_atfork(
            prepare: Option<extern "C" fn()>,
            parent: Option<extern "C" fn()>,
            child: Option<extern "C" fn()>,
        ) -> std::ffi::c_int;
    }
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: registers a handler that only stores two atomics
    // (async-signal-safe, as a child handler must be); the module is
    // never unloaded.
    ONCE.call_once(|| unsafe {
        pthread_atfork(None, None, Some(in_child));
    });
}

#[pymodule]
fn _keccakx(m: &Bound<'_, PyModule>) -> PyResult<()> {
    #[cfg(unix)]
    register_fork_handler();
    policy::warn_about_engine_variable(m.py())?;
    m.add_class::<objects::Hash>()?;
    m.add_function(wrap_pyfunction!(objects::import_state, m)?)?;
    m.add_function(wrap_pyfunction!(outboard::_outboard_build, m)?)?;
    m.add_function(wrap_pyfunction!(outboard::_outboard_write_file, m)?)?;
    m.add_function(wrap_pyfunction!(outboard::_outboard_info, m)?)?;
    m.add_function(wrap_pyfunction!(outboard::_outboard_verify, m)?)?;
    m.add(
        "OutboardMismatch",
        m.py().get_type::<outboard::OutboardMismatch>(),
    )?;
    m.add_class::<objects::Xof>()?;
    m.add_function(wrap_pyfunction!(constructors::sha3_224, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::sha3_256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::sha3_384, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::sha3_512, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::shake_128, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::shake_256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::keccak_224, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::keccak_256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::keccak_384, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::keccak_512, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::cshake128, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::cshake256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::kmac128, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::kmac256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::kmacxof128, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::kmacxof256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::tuplehash128, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::tuplehash256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::tuplehashxof128, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::tuplehashxof256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::parallelhash128, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::parallelhash256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::parallelhashxof128, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::parallelhashxof256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::turboshake128, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::turboshake256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::kt128, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::kt256, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::keccak, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::tree_li, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::new, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::_algorithm_names, m)?)?;
    m.add_function(wrap_pyfunction!(constructors::_algorithm_info, m)?)?;
    m.add_function(wrap_pyfunction!(policy::engine, m)?)?;
    m.add_function(wrap_pyfunction!(policy::set_threads, m)?)?;
    m.add_function(wrap_pyfunction!(policy::set_engine, m)?)?;
    m.add_function(wrap_pyfunction!(gpu::_gpu_status, m)?)?;
    m.add_function(wrap_pyfunction!(gpu::_gpu_hash_many_raw, m)?)?;
    m.add_function(wrap_pyfunction!(gpu::_gpu_merkle_raw, m)?)?;
    m.add_function(wrap_pyfunction!(gpu::_gpu_hash_host, m)?)?;
    m.add_function(wrap_pyfunction!(gpu::_batch_out_len, m)?)?;
    m.add_function(wrap_pyfunction!(batch::_hash_many_list, m)?)?;
    m.add_function(wrap_pyfunction!(batch::_hash_many_rows, m)?)?;
    m.add("GIL_RELEASE_MIN", gil::GIL_RELEASE_MIN)?;
    hazmat::register(m)?;
    file_range::register(m)?;
    sumfile::register(m)?;
    merkle::register(m)?;
    Ok(())
}
