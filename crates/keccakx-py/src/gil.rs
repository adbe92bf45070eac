//! When the GIL is released: inputs and outputs long enough that other
//! Python threads gain more than the release/re-acquire costs.

/// Inputs at least this long are hashed with the GIL released, so other
/// Python threads run meanwhile (hashlib uses 2 KiB; below a few KiB the
/// release/re-acquire costs more than it frees).
pub const GIL_RELEASE_MIN: usize = 4096;

/// Outputs at least this long are squeezed with the GIL released.
pub const GIL_RELEASE_OUT: usize = 64 * 1024;
