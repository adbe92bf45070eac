//! Errors for one object (or one URL pattern), classified for the caller.

use std::fmt;
use std::io;

/// What went wrong with one object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// No such object (HTTP 404).
    NotFound,
    /// Access refused (HTTP 401/403) or no credentials.
    Denied,
    /// The object changed while it was read (its ETag or version).
    Changed,
    /// Transient failures that outlasted the retries (resets, 5xx,
    /// timeouts), or anything else the store reported.
    Failed,
    /// A URL or setting that cannot work (bad URL, unknown scheme).
    Usage,
}

/// An error for one object (or one URL pattern); its text is meant for the user.
#[derive(Clone, Debug)]
pub struct Error {
    pub kind: ErrorKind,
    pub(crate) msg: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, msg: impl Into<String>) -> Self {
        Error {
            kind,
            msg: msg.into(),
        }
    }
    pub(crate) fn usage(msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::Usage, msg)
    }
    /// A failure of the caller's own work on an object's bytes (for
    /// instance a part's sink that could not hash), reported as the
    /// object's error.
    pub fn failed(msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::Failed, msg)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for Error {}

impl From<Error> for io::Error {
    fn from(e: Error) -> io::Error {
        let kind = match e.kind {
            ErrorKind::NotFound => io::ErrorKind::NotFound,
            ErrorKind::Denied => io::ErrorKind::PermissionDenied,
            ErrorKind::Usage => io::ErrorKind::InvalidInput,
            ErrorKind::Changed | ErrorKind::Failed => io::ErrorKind::Other,
        };
        io::Error::new(kind, e)
    }
}
