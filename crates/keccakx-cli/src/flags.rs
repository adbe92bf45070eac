//! The command line's words for the library's fields: the library's errors
//! name fields, never flags (`keccakx::Error::spelled`), and this is the
//! one place where a field becomes a flag.

use keccakx::field::Field;

/// The command line's spelling of a library field: the library's errors
/// name fields ([`keccakx::Error::spelled`]), and here they become flags.
pub fn flag(f: Field) -> String {
    match f {
        Field::Key => "--key-hex or --key-file".into(),
        Field::Prefix => "--prefix".into(),
        Field::Length => "--length".into(),
        _ => format!("--{}", f.name().replace(' ', "-")),
    }
}

/// A library error in the command line's words.
pub fn spelled(e: &keccakx::Error) -> String {
    e.spelled(&flag)
}
