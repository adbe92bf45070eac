//! File names the way GNU coreutils writes and reads them: the library's
//! byte-string escaping ([`keccakx::sumfile::escape`]: checksum lines,
//! `--check` reports, quoted names in diagnostics; `--zero` turns escaping
//! off), and the operating system's names as bytes.

use std::ffi::{OsStr, OsString};

pub use keccakx::sumfile::escape::{
    is_control, needs_escape, push_display_name, push_escaped, quote, unescape,
};

/// The raw bytes of a file name.
#[cfg(unix)]
pub fn os_bytes(s: &OsStr) -> &[u8] {
    use std::os::unix::ffi::OsStrExt;
    s.as_bytes()
}

/// The raw bytes of a file name (non-Unix: its UTF-8 form, lossily).
#[cfg(not(unix))]
pub fn os_bytes(s: &OsStr) -> std::borrow::Cow<'_, [u8]> {
    match s.to_string_lossy() {
        std::borrow::Cow::Borrowed(b) => std::borrow::Cow::Borrowed(b.as_bytes()),
        std::borrow::Cow::Owned(o) => std::borrow::Cow::Owned(o.into_bytes()),
    }
}

/// A file name from raw bytes (as read from a checksum file).
#[cfg(unix)]
pub fn os_from_bytes(b: &[u8]) -> OsString {
    use std::os::unix::ffi::OsStrExt;
    OsStr::from_bytes(b).to_os_string()
}

#[cfg(not(unix))]
pub fn os_from_bytes(b: &[u8]) -> OsString {
    OsString::from(String::from_utf8_lossy(b).into_owned())
}

/// [`quote`] for an `OsStr`.
pub fn quote_os(name: &OsStr) -> String {
    quote(os_bytes(name))
}
