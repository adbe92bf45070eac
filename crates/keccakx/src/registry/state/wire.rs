//! The blob's building blocks shared by the sponge states and the tree
//! modes' states: the error, a bounds-checked reader and the
//! length-prefixed byte strings. A leaf module so that `state` and
//! `state::tree` both read it without importing each other.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// The first eight bytes of every blob ("\x89KXS\r\n\x1a\n").
pub const STATE_MAGIC: [u8; 8] = *b"\x89KXS\r\n\x1a\n";
/// The blob version written and read.
pub const STATE_VERSION: u8 = 1;

/// Why a state blob was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateError {
    /// Not a keccakx state (magic bytes differ).
    NotAState,
    /// A blob version this code does not read.
    Version(u8),
    /// The checksum or the structure is wrong: the blob was damaged.
    Corrupted(&'static str),
    /// The blob is of another function or parameters than the hasher it
    /// was to be restored into (the blob's function named).
    OtherFunction(String),
    /// A function whose running state is not a sponge (KT, ParallelHash,
    /// tree LI), or a Go state this code cannot map.
    Unsupported(&'static str),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::NotAState => f.write_str("not a keccakx state (bad magic bytes)"),
            StateError::Version(v) => write!(
                f,
                "state version {v} is not supported (this keccakx reads version {STATE_VERSION})"
            ),
            StateError::Corrupted(why) => write!(f, "corrupted state: {why}"),
            StateError::OtherFunction(name) => write!(
                f,
                "the state is of another function or parameters ({name}) than this hasher"
            ),
            StateError::Unsupported(why) => f.write_str(why),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for StateError {}

pub(super) fn put_bytes(v: &mut Vec<u8>, b: &[u8]) {
    v.extend_from_slice(&(b.len() as u32).to_le_bytes());
    v.extend_from_slice(b);
}

pub(super) struct Reader<'a>(pub(super) &'a [u8]);

impl<'a> Reader<'a> {
    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], StateError> {
        if self.0.len() < n {
            return Err(StateError::Corrupted("truncated"));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    pub(super) fn u8(&mut self) -> Result<u8, StateError> {
        Ok(self.take(1)?[0])
    }
    pub(super) fn u32(&mut self) -> Result<u32, StateError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or([0; 4]),
        ))
    }
    pub(super) fn u64(&mut self) -> Result<u64, StateError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or([0; 8]),
        ))
    }
    pub(super) fn bytes(&mut self) -> Result<&'a [u8], StateError> {
        let n = self.u32()? as usize;
        self.take(n)
    }
}
