//! The mode's error: what went wrong, in the JavaScript library's words
//! where it has them.

use alloc::string::String;
use core::fmt;

use crate::engine::EngineError;

/// The class of a [`MerkleError`], following the JavaScript library's
/// error classes where it has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A bad argument (`InvalidArgumentError` there): an empty tree, an
    /// index out of bounds, a value not in the tree, a malformed multiproof.
    InvalidArgument,
    /// The data breaks the tree's invariants (`InvariantError` there): a
    /// dump whose tree does not validate.
    Invariant,
    /// A value that its ABI type does not accept, or an unknown type.
    Abi,
    /// Malformed JSON or a dump of the wrong shape.
    Format,
    /// The engine failed (a GPU).
    Engine,
}

/// What went wrong, worded for the user; messages the JavaScript library
/// has are the same text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MerkleError {
    pub kind: ErrorKind,
    pub message: String,
}

impl MerkleError {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        MerkleError {
            kind,
            message: message.into(),
        }
    }
    pub(crate) fn arg(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message)
    }
    pub(crate) fn invariant(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Invariant, message)
    }
    pub(crate) fn abi(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Abi, message)
    }
    pub(crate) fn json(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Format, message)
    }
}

impl fmt::Display for MerkleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MerkleError {}

impl From<EngineError> for MerkleError {
    fn from(e: EngineError) -> Self {
        MerkleError::new(ErrorKind::Engine, alloc::format!("{e}"))
    }
}
