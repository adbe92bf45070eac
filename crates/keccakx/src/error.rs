//! Errors are values: every invalid parameter a user can pass comes back here.

use core::fmt;

/// What went wrong, worded so a user can act on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Permutation width not in {25, 50, 100, 200, 400, 800, 1600}.
    InvalidWidth(usize),
    /// Round count outside 1..=12+2ℓ for the width.
    InvalidRounds {
        width: usize,
        rounds: usize,
        max: usize,
    },
    /// Rate must satisfy 0 < rate < width (in bits).
    InvalidRate { width: usize, rate: usize },
    /// Suffix longer than 7 bits.
    InvalidSuffix { len: u8 },
    /// A parameter outside its documented range.
    InvalidParameter(&'static str),
}

pub type Result<T> = core::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidWidth(w) => write!(
                f,
                "invalid Keccak-p width {w}: must be one of 25, 50, 100, 200, 400, 800, 1600"
            ),
            Error::InvalidRounds { width, rounds, max } => write!(
                f,
                "invalid round count {rounds} for width {width}: must be 1..={max}"
            ),
            Error::InvalidRate { width, rate } => write!(
                f,
                "invalid rate {rate} bits for width {width}: need 0 < rate < width"
            ),
            Error::InvalidSuffix { len } => {
                write!(f, "invalid suffix length {len} bits: at most 7 bits")
            }
            Error::InvalidParameter(msg) => f.write_str(msg),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
