//! The command line's words for the library's fields. The library's
//! errors name fields, never flags ([`keccakx::Error::spelled`]); this
//! crate is the one place where a field becomes a flag, for both command
//! lines that speak in `keccakx sum`'s flags: `keccakx` itself and
//! `keccakx-cluster` (through the Python module), so both say the same
//! bytes.

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field becomes one of the command line's flags (each flag
    /// below is one `keccakx sum` takes).
    #[test]
    fn every_field_is_a_flag() {
        let want = [
            (Field::Degree, "--degree"),
            (Field::Height, "--height"),
            (Field::Prefix, "--prefix"),
            (Field::Length, "--length"),
            (Field::Customization, "--customization"),
            (Field::FunctionName, "--function-name"),
            (Field::Key, "--key-hex or --key-file"),
            (Field::BlockSize, "--block-size"),
            (Field::Domain, "--domain"),
            (Field::Width, "--width"),
            (Field::Rounds, "--rounds"),
            (Field::Suffix, "--suffix"),
            (Field::Rate, "--rate"),
            (Field::Capacity, "--capacity"),
        ];
        assert_eq!(want.len(), Field::ALL.len());
        for (f, w) in want {
            assert_eq!(flag(f), w);
        }
    }
}
