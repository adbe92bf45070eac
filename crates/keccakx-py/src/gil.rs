//! When the GIL is released: inputs and outputs long enough that other
//! Python threads gain more than the release/re-acquire costs.

/// Inputs at least this long are hashed with the GIL released, so other
/// Python threads run meanwhile (hashlib uses 2 KiB; below a few KiB the
/// release/re-acquire costs more than it frees).
pub const GIL_RELEASE_MIN: usize = 4096;

/// Outputs at least this long are squeezed with the GIL released.
pub const GIL_RELEASE_OUT: usize = 64 * 1024;

/// Input hashed in one go with the GIL released; longer input (an
/// `update()` of a huge buffer, one long message of `hash_many`, the
/// chaining values of a large range) is cut into pieces of this size, and
/// Ctrl-C (any pending signal) is seen between them.
pub const PIECE_BYTES: usize = 32 << 20;

/// Lock `m`; while another thread holds it, wait with the GIL released
/// (as hashlib does), so one thread's long `update()` does not freeze
/// every other Python thread that merely touches the same object.
pub fn lock_py<'a, T: Send>(
    py: pyo3::Python<'_>,
    m: &'a std::sync::Mutex<T>,
) -> std::sync::MutexGuard<'a, T> {
    use std::sync::TryLockError;
    loop {
        match m.try_lock() {
            Ok(g) => return g,
            Err(TryLockError::Poisoned(p)) => return p.into_inner(),
            // A guard cannot leave the GIL-free closure (it is not Send):
            // wait there for the holder to finish, then try again here.
            Err(TryLockError::WouldBlock) => py.detach(|| {
                drop(m.lock().unwrap_or_else(|p| p.into_inner()));
            }),
        }
    }
}
