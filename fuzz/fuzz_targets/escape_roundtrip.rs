//! The file-name escaper: `push_escaped` and `unescape` are inverses on
//! every name without a NUL; `--check`'s display form and the diagnostics'
//! quoting never carry a raw control byte (nor a newline), and the display
//! form of a name without control bytes is the name itself.
#![no_main]

use keccakx_cli::escape::{is_control, needs_escape, push_display_name, push_escaped, quote, unescape};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|name: &[u8]| {
    let mut e = Vec::new();
    push_escaped(&mut e, name);
    assert!(!e.contains(&b'\n') && !e.contains(&b'\r'));
    if name.contains(&0) {
        assert!(unescape(&e).is_none(), "NUL must not round-trip");
    } else {
        assert_eq!(unescape(&e).as_deref(), Some(name));
    }
    assert_eq!(needs_escape(name), e != name);

    let mut d = Vec::new();
    push_display_name(&mut d, name);
    assert!(!d.iter().any(|&c| is_control(c)));
    if !name.iter().any(|&c| is_control(c)) {
        assert_eq!(d, name);
    }

    let q = quote(name);
    assert!(!q.bytes().any(is_control), "{q:?}");
    // Arbitrary bytes as an escaped name: refused or decoded, never a panic.
    let _ = unescape(name);
});
