//! The file-name escaper: `push_escaped` and `unescape` are inverses on
//! every name without a NUL; `--check`'s display form and the diagnostics'
//! quoting never carry a raw control byte (nor a newline); the display
//! form (stdout) is UTF-8 without a C0/DEL/C1 control, and is the name
//! itself exactly when the name is UTF-8 without one.
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

    // The name on stdout (`--check`'s report): valid UTF-8 with no C0,
    // DEL or C1 control character, whatever the name; the name itself
    // exactly when it is valid UTF-8 without one.
    let mut d = Vec::new();
    push_display_name(&mut d, name);
    assert!(!d.iter().any(|&c| is_control(c)));
    let shown = std::str::from_utf8(&d).expect("display form is UTF-8");
    assert!(!shown.chars().any(char::is_control), "{shown:?}");
    let plain = std::str::from_utf8(name).is_ok_and(|s| !s.chars().any(char::is_control));
    assert_eq!(d == name, plain, "{shown:?}");

    let q = quote(name);
    assert!(!q.bytes().any(is_control), "{q:?}");
    // Arbitrary bytes as an escaped name: refused or decoded, never a panic.
    let _ = unescape(name);
});
