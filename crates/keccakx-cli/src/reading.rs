//! How a file's bytes become the message: as they are, or in one of
//! sha3sum's (Perl's Digest::SHA3) reading modes, universal newlines (`-U`)
//! and bits (`-0`), each with the mark its checksum lines carry.

pub use keccakx::sumfile::reading::{looks_like_text, Translator};
/// How a file's bytes become the message (the library's
/// [`keccakx::sumfile::Mode`]): as they are, or one of sha3sum's reading
/// modes, each with the mark its checksum lines carry.
pub use keccakx::sumfile::Mode as InputMode;
