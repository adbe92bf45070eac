//! How a listed file's bytes become the message: as they are, or in one of
//! sha3sum's (Perl's Digest::SHA3) reading modes, universal newlines
//! (`-U`, mark `U`) and bits (`-0`, mark `^`). Every front end that hashes
//! a file for a checksum line (the CLI, the cluster's workers) translates
//! it here.

use alloc::vec::Vec;

use super::Mode;

/// Why a function cannot read its input in `mode` (`takes_bits`: its
/// messages may end inside a byte; `needs_length`: the message's length
/// comes first, as TupleHash's), or None. The words follow the function's
/// name in a front end's refusal (`-a NAME: ...`).
pub fn refusal(takes_bits: bool, needs_length: bool, mode: Mode) -> Option<&'static str> {
    if mode == Mode::Bits && !takes_bits {
        return Some(
            "bits mode (-0) is for SHA3-*, SHAKE*, Keccak-* and raw keccak, \
             whose messages may end inside a byte",
        );
    }
    if mode != Mode::Bytes && needs_length {
        return Some(
            "TupleHash puts the message's length first, which universal newlines \
             (-U) know only at the end; hash the file as it is",
        );
    }
    None
}

/// Where a reading mode stands between two pieces of input.
enum State {
    Bytes,
    /// Universal newlines, until the first [`TEXT_PROBE`] bytes tell
    /// whether the input is text: those bytes.
    Probe(Vec<u8>),
    /// Universal newlines in text; `after_cr`: the last byte was a CR (so
    /// an LF right after it is dropped).
    Universal {
        after_cr: bool,
    },
    /// The `n` bits (0..8) of a byte not yet full, in its low bits.
    Bits {
        byte: u8,
        n: u8,
    },
}

/// Input translated per call, at most: bounds the scratch buffer.
const PIECE: usize = 64 << 10;

/// The bytes Perl's `-T` test reads to tell text from binary.
const TEXT_PROBE: usize = 512;

/// A reading mode at work on one input: turns the file's bytes into the
/// message, handed on in pieces.
pub struct Translator {
    state: State,
    /// Translated input on its way on.
    scratch: Vec<u8>,
}

impl Translator {
    pub fn new(mode: Mode) -> Translator {
        let state = match mode {
            Mode::Bytes => State::Bytes,
            Mode::Universal => State::Probe(Vec::new()),
            Mode::Bits => State::Bits { byte: 0, n: 0 },
        };
        Translator {
            state,
            scratch: Vec::new(),
        }
    }

    /// Translate the next piece of input; the message's bytes go to `out`.
    pub fn feed(&mut self, mut data: &[u8], out: &mut dyn FnMut(&[u8])) {
        if let State::Probe(head) = &mut self.state {
            let take = (TEXT_PROBE - head.len()).min(data.len());
            head.extend_from_slice(&data[..take]);
            data = &data[take..];
            if head.len() < TEXT_PROBE {
                return;
            }
            self.end_probe(out);
        }
        match &mut self.state {
            State::Bytes => out(data),
            // Not reached (the probe ended above); held, were it reached.
            State::Probe(head) => head.extend_from_slice(data),
            State::Universal { after_cr } => {
                for piece in data.chunks(PIECE) {
                    universal_newlines(piece, after_cr, &mut self.scratch);
                    out(&self.scratch);
                }
            }
            State::Bits { byte, n } => {
                for piece in data.chunks(PIECE) {
                    pack_bits(piece, byte, n, &mut self.scratch);
                    out(&self.scratch);
                }
            }
        }
    }

    /// Universal newlines: the first bytes are in (or all there is), so
    /// decide whether this is text and translate them accordingly.
    fn end_probe(&mut self, out: &mut dyn FnMut(&[u8])) {
        if let State::Probe(head) = &mut self.state {
            let head = std::mem::take(head);
            self.state = if looks_like_text(&head) {
                State::Universal { after_cr: false }
            } else {
                State::Bytes
            };
            self.feed(&head, out);
        }
    }

    /// The end of the input: what is still held goes to `out`; in bits
    /// mode, the bits of a last partial byte are returned (in its low `n`
    /// bits, `n` of them), for the hasher's bit-level input.
    pub fn finish(&mut self, out: &mut dyn FnMut(&[u8])) -> Option<(u8, u8)> {
        self.end_probe(out);
        match self.state {
            State::Bits { byte, n } if n > 0 => Some((byte, n)),
            _ => None,
        }
    }
}

/// Whether `head`, a file's first `TEXT_PROBE` bytes (or all of a
/// shorter one), is text by Perl's `-T` file test, which sha3sum's `-U`
/// uses: empty is text; bytes that are not all ASCII but are UTF-8 (Perl's
/// extended form, up to 7-byte sequences, and a sequence cut at the end)
/// are text; otherwise a NUL makes binary, and so do "odd" bytes (not
/// printable ASCII, tab, LF, FF, CR, space, backspace or escape) in more
/// than a third of them.
pub fn looks_like_text(head: &[u8]) -> bool {
    if head.is_empty() || (!head.is_ascii() && perl_utf8(head)) {
        return true;
    }
    let mut odd = 0;
    for &c in head {
        match c {
            0 => return false,
            0x20..=0x7e | b'\t' | b'\n' | 0x0c | b'\r' | 0x08 | 0x1b => {}
            _ => odd += 1,
        }
    }
    odd * 3 <= head.len()
}

/// Whether `s` is UTF-8 as Perl extends it (code points past U+10FFFF and
/// surrogates allowed, overlong forms not), a sequence cut short by the end
/// of `s` allowed.
fn perl_utf8(s: &[u8]) -> bool {
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        // The sequence's length, and the least second byte that is not an
        // overlong form.
        let (len, least) = match c {
            0x00..=0x7f => {
                i += 1;
                continue;
            }
            0xc2..=0xdf => (2, 0x80),
            0xe0 => (3, 0xa0),
            0xe1..=0xef => (3, 0x80),
            0xf0 => (4, 0x90),
            0xf1..=0xf7 => (4, 0x80),
            0xf8 => (5, 0x88),
            0xf9..=0xfb => (5, 0x80),
            0xfc => (6, 0x84),
            0xfd => (6, 0x80),
            0xfe => (7, 0x82),
            _ => return false,
        };
        let tail = &s[i + 1..s.len().min(i + len)];
        if !tail.iter().all(|&b| (0x80..=0xbf).contains(&b))
            || tail.first().is_some_and(|&b| b < least)
        {
            return false;
        }
        i += len;
    }
    true
}

/// sha3sum's universal newlines: CR LF becomes LF, and so does a lone CR.
/// `after_cr` carries a CR at the end of one piece to the next.
fn universal_newlines(data: &[u8], after_cr: &mut bool, out: &mut Vec<u8>) {
    out.clear();
    let mut rest = data;
    if *after_cr && rest.first() == Some(&b'\n') {
        rest = &rest[1..];
    }
    *after_cr = false;
    while let Some(i) = rest.iter().position(|&c| c == b'\r') {
        out.extend_from_slice(&rest[..i]);
        out.push(b'\n');
        rest = &rest[i + 1..];
        match rest.first() {
            Some(b'\n') => rest = &rest[1..],
            Some(_) => {}
            None => *after_cr = true,
        }
    }
    out.extend_from_slice(rest);
}

/// sha3sum's bits mode: each '0' or '1' is a bit, most significant first
/// within a byte; everything else is skipped. Full bytes go to `out`; the
/// bits of the byte not yet full stay in `byte` (low `n` bits).
fn pack_bits(data: &[u8], byte: &mut u8, n: &mut u8, out: &mut Vec<u8>) {
    out.clear();
    for &c in data {
        let bit = match c {
            b'0' => 0,
            b'1' => 1,
            _ => continue,
        };
        *byte = *byte << 1 | bit;
        *n += 1;
        if *n == 8 {
            out.push(*byte);
            (*byte, *n) = (0, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fips202::Sha3_256;
    use alloc::format;
    use alloc::string::String;

    /// SHA3-256 of `data` read in `mode`, fed in pieces cut at `cuts`.
    fn digest_in_pieces(mode: Mode, data: &[u8], cuts: &[usize]) -> [u8; 32] {
        let mut t = Translator::new(mode);
        let mut h = Sha3_256::new();
        let mut at = 0;
        for &c in cuts.iter().chain([data.len()].iter()) {
            let c = c.clamp(at, data.len());
            t.feed(&data[at..c], &mut |m| h.update(m));
            at = c;
        }
        if let Some((byte, n)) = t.finish(&mut |m| h.update(m)) {
            h.update_bits(&[byte], n.into()).unwrap();
        }
        h.finalize()
    }

    /// A small pseudo-random generator for the tests (xorshift).
    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn universal_newlines_whatever_the_pieces() {
        let u = Mode::Universal;
        let mut seed = 0x5eed_u64;
        for len in [0usize, 1, 2, 3, 511, 512, 513, 2000, PIECE + 700] {
            let text: Vec<u8> = (0..len)
                .map(|_| b"ab\r\n\r\r\nxy"[(rng(&mut seed) % 9) as usize])
                .collect();
            // The definition, on the whole input at once.
            let want = Sha3_256::digest(
                &String::from_utf8(text.clone())
                    .unwrap()
                    .replace("\r\n", "\n")
                    .replace('\r', "\n")
                    .into_bytes(),
            );
            for _ in 0..20 {
                let mut cuts: Vec<usize> = (0..3)
                    .map(|_| (rng(&mut seed) % (len as u64 + 1)) as usize)
                    .collect();
                cuts.sort();
                assert_eq!(
                    digest_in_pieces(u, &text, &cuts),
                    want,
                    "len {len} cuts {cuts:?}"
                );
            }
            // Every cut right after a CR, where the next piece starts with LF.
            let crs: Vec<usize> = (1..len)
                .filter(|&i| text[i - 1] == b'\r')
                .take(50)
                .collect();
            for &c in &crs {
                assert_eq!(digest_in_pieces(u, &text, &[c]), want, "len {len} cut {c}");
            }
        }
    }

    #[test]
    fn universal_newlines_leave_binary_input_alone() {
        let u = Mode::Universal;
        // A NUL in the first 512 bytes: binary, hashed as it is.
        let mut bin = b"a\r\nb".to_vec();
        bin.extend_from_slice(&[0; 600]);
        assert_eq!(digest_in_pieces(u, &bin, &[]), Sha3_256::digest(&bin));
        assert_eq!(digest_in_pieces(u, b"\0\r", &[]), Sha3_256::digest(b"\0\r"));
        assert_eq!(
            digest_in_pieces(u, &bin, &[1, 2, 511, 513]),
            Sha3_256::digest(&bin)
        );
        // A NUL only after them: text, translated.
        let mut text = b"a\r\nb".to_vec();
        text.resize(512, b'x');
        text.extend_from_slice(b"\0\r");
        let mut want = b"a\nb".to_vec();
        want.resize(511, b'x');
        want.extend_from_slice(b"\0\n");
        assert_eq!(
            digest_in_pieces(u, &text, &[100, 600]),
            Sha3_256::digest(&want)
        );
    }

    #[test]
    fn bits_as_sha3sum_packs_them() {
        let b = Mode::Bits;
        // sha3sum -a 256 -0 on "0110 1\n" (Digest::SHA3 1.05, measured here).
        let hex: String = digest_in_pieces(b, b"0110 1\n", &[])
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect();
        assert_eq!(
            hex,
            "af131e686eec164c5cd0f84872de64567276a2445ad219aced71f706c27f5f6e"
        );
        // Eight bits are one byte, most significant first: 'a'.
        assert_eq!(
            digest_in_pieces(b, b"0110 0001", &[]),
            Sha3_256::digest(b"a")
        );
        assert_eq!(
            digest_in_pieces(b, b"no bits at all", &[]),
            Sha3_256::digest(b"")
        );
        let mut seed = 0xb175_u64;
        for n in [1usize, 7, 8, 9, 1087, 1088, 1089, 5001] {
            let bits: Vec<u8> = (0..n).map(|_| (rng(&mut seed) & 1) as u8).collect();
            let text: Vec<u8> = bits
                .iter()
                .flat_map(|&x| [b'0' + x, b" x\n"[(rng(&mut seed) % 3) as usize]])
                .collect();
            // The reference: whole bytes most significant bit first; the
            // last partial byte's bits as a number in its low bits.
            let mut packed: Vec<u8> = bits
                .chunks(8)
                .map(|c| c.iter().fold(0u8, |v, &x| v << 1 | x))
                .collect();
            let mut h = Sha3_256::new();
            let last = if n % 8 != 0 { packed.pop() } else { None };
            h.update(&packed);
            if let Some(v) = last {
                h.update_bits(&[v], n % 8).unwrap();
            }
            let want = h.finalize();
            for cut in [0, 1, text.len() / 3, text.len() - 1] {
                assert_eq!(digest_in_pieces(b, &text, &[cut]), want, "n {n} cut {cut}");
            }
        }
    }

    #[test]
    fn perl_text_test() {
        // Each case as Perl 5.36's -T (and sha3sum's -U) decided it here.
        let cases: &[(&[u8], bool)] = &[
            (b"", true),
            (b"abc", true),
            (b"ab\0c", false),
            (b"\x80abc", true),
            (b"\x80\x81abcd", true),
            (b"\x80\x81abc", false),
            (b"\x01\x02abc", false),
            (b"\x0b\x0babc", false),
            (b"\x7f\x7fabc", false),
            (b"\x08\x08abc", true),
            (b"\x1b\x1babc", true),
            (b"\x0c\x0cabc", true),
            ("é".as_bytes(), true),
            (b"\xc3\xa9\x00", true),
            (b"\x00\xc3\xa9", true),
            (b"ab\xc3", true),
            (b"\xc3", true),
            (b"\xe2\x82a", false),
            (b"\xc3\xa9\xc3\xa9\xa9", false),
            (b"\xc0\x80\xc0\x80", false),
            (b"\xe0\x80\x80", false),
            (b"\xf0\x80\x80\x80", false),
            (b"\xed\xa0\x80\xed\xa0\x80", true),
            (b"\xf4\x90\x80\x80", true),
            (b"\xf8\x88\x80\x80\x80", true),
            (b"\xf8\x87\xbf\xbf\xbf", false),
            (b"\xfc\x84\x80\x80\x80\x80", true),
            (b"\xfc\x83\xbf\xbf\xbf\xbf", false),
            (b"\xfe\x82\x80\x80\x80\x80\x80", true),
            (b"\xfe\x81\xbf\xbf\xbf\xbf\xbf", false),
            (
                b"\xff\x80\x80\x80\x80\x80\x80\x81\x80\x80\x80\x80\x80",
                false,
            ),
            (b"a\xc3\xa9\x0b\x0b\x0b\x0b\x0b", true),
            (
                b"\xe2\x82\xac\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01",
                true,
            ),
        ];
        for (head, text) in cases {
            assert_eq!(looks_like_text(head), *text, "{head:x?}");
        }
    }
}
