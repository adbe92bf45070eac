//! Every function of the registry, with random parameters, fed in random
//! pieces (`update` splits) and read in random pieces, on a random engine
//! and thread count, against the golden model (fuzz/src/lib.rs: each
//! function written out on a sponge of its own: 64-bit lanes written from
//! FIPS 202 for Keccak-f[1600] with byte rates, the crate's bit-level
//! golden sponge for every other width and rate).
#![no_main]

use golden::Src;
use keccakx::registry::{self, Hasher, Params};
use libfuzzer_sys::fuzz_target;

/// Messages grown past this many bytes would make the golden model slow;
/// this covers KT's first chunk plus two full groups of eight leaves.
const MAX_LONG: usize = 150_000;

fuzz_target!(init: {
    // The model is only a reference once it reproduces the published vectors.
    let n = golden::selftest::check_vectors();
    eprintln!("registry_diff: golden model passed {n} checks (published vectors, lanes against bits)");
}, |data: &[u8]| {
    let mut src = Src::new(data);
    let list = registry::list();
    let info = &list[src.range(0, list.len() - 1)];
    // Engine and threads: every engine this CPU runs, one thread or all.
    let engines: Vec<_> = keccakx::engine::available().collect();
    let e = engines[src.range(0, engines.len() - 1)];
    keccakx::engine::set_engine(e.name()).expect("available engine");
    keccakx::engine::set_threads(if src.bool() { 1 } else { 0 });

    let name = info.name;
    let sec = if name.ends_with("128") { 128 } else { 256 };
    let mut p = Params::default();
    let mut n = if info.variable_len { src.range(0, 300) } else { info.default_len };
    let mut block = 8192;
    // (width, rate bits, rounds, suffix) of raw keccak; tree-li's (D, H, B, r).
    let mut raw = (1600, 1088, 24, 0x01u8);
    let mut tree = (4usize, 4usize, 136usize, 1088usize);
    let mut max_long = MAX_LONG;
    match name {
        "cshake128" | "cshake256" => {
            p.function_name = src.bytes(300);
            p.customization = src.bytes(300);
        }
        "kmac128" | "kmac256" | "kmacxof128" | "kmacxof256" => {
            let k = src.bytes(300);
            p.key = Some(if k.is_empty() { vec![0] } else { k });
            p.customization = src.bytes(300);
        }
        "tuplehash128" | "tuplehash256" | "tuplehashxof128" | "tuplehashxof256" => {
            p.customization = src.bytes(300);
        }
        "parallelhash128" | "parallelhash256" | "parallelhashxof128" | "parallelhashxof256" => {
            block = if src.bool() { src.range(1, 300) } else { src.range(1, 40_000) };
            if block < 256 {
                max_long = 8192;
            }
            p.block_size = Some(block);
            p.customization = src.bytes(300);
        }
        "turboshake128" | "turboshake256" => {
            p.domain = Some(src.range(1, 0x7F) as u8);
        }
        "kt128" | "kt256" => {
            p.customization = if src.bool() { src.bytes(300) } else { vec![0xAB; src.range(0, 20_000)] };
        }
        "keccak" => {
            let widths = [25usize, 50, 100, 200, 400, 800, 1600];
            let w = widths[src.range(0, widths.len() - 1)];
            let l = (w / 25).trailing_zeros() as usize;
            let r = if src.bool() && w % 8 == 0 && w == 1600 {
                8 * src.range(1, w / 8 - 1)
            } else {
                src.range(1, w - 1)
            };
            let rounds = src.range(1, 12 + 2 * l);
            // Delimited suffix: 0..=7 suffix bits, then the 1.
            let bits = src.range(0, 7);
            let d = ((src.u8() as usize & ((1 << bits) - 1)) | (1 << bits)) as u8;
            raw = (w, r, rounds, d);
            p.width = Some(w);
            p.rate = Some(r);
            p.capacity = Some(w - r);
            p.rounds = Some(rounds);
            p.suffix = Some(d);
            // The golden model runs every path here; keep it quick for
            // slow (bit-level) parameter sets.
            if w != 1600 || r % 8 != 0 {
                max_long = 4096;
                n = n.min(64);
            }
        }
        "tree-li" => {
            let d = src.range(1, 5);
            let h = src.range(0, 3);
            let b = if src.bool() { src.range(1, 300) } else { src.range(1, 20_000) };
            let r = 8 * src.range(1, 199);
            tree = (d, h, b, r);
            p.degree = Some(d);
            p.height = Some(h);
            p.block_size = Some(b);
            p.rate = Some(r);
            p.capacity = Some(1600 - r);
            p.prefix = Some(src.bytes(255));
            if b < 256 || r < 256 {
                max_long = 8192;
            }
        }
        _ => {}
    }
    if info.variable_len {
        p.length = Some(n);
    }
    // Update splits: up to 8 pieces.
    let cuts = src.range(0, 7);
    let cut_points: Vec<u32> = (0..cuts).map(|_| src.u32()).collect();
    let read_cuts: Vec<u16> = (0..src.range(0, 3)).map(|_| src.u16()).collect();
    let msg = src.message(max_long);
    let mut at: Vec<usize> = cut_points
        .iter()
        .map(|&c| if msg.is_empty() { 0 } else { c as usize % (msg.len() + 1) })
        .collect();
    at.sort_unstable();
    let mut pieces: Vec<&[u8]> = Vec::new();
    let mut prev = 0;
    for &c in &at {
        pieces.push(&msg[prev..c]);
        prev = c;
    }
    pieces.push(&msg[prev..]);

    let mut h = Hasher::new(name, &p).unwrap_or_else(|e| panic!("{name} {p:?}: {e}"));
    for piece in &pieces {
        h.update(piece);
    }
    assert_eq!(h.output_len(), n);
    let mut reader = h.finalize_reader();
    let mut got = vec![0u8; n];
    let mut pos = 0;
    for &c in &read_cuts {
        let end = (pos + c as usize % 200).min(n);
        reader.read(&mut got[pos..end]);
        pos = end;
    }
    reader.read(&mut got[pos..]);

    let d_fixed = |suffix: u8, rate: usize| golden::sponge(1600, rate * 8, 24, suffix, &msg, n);
    let want = match name {
        "sha3-224" => d_fixed(0x06, 144),
        "sha3-256" => d_fixed(0x06, 136),
        "sha3-384" => d_fixed(0x06, 104),
        "sha3-512" => d_fixed(0x06, 72),
        "shake128" => d_fixed(0x1F, 168),
        "shake256" => d_fixed(0x1F, 136),
        "keccak-224" => d_fixed(0x01, 144),
        "keccak-256" => d_fixed(0x01, 136),
        "keccak-384" => d_fixed(0x01, 104),
        "keccak-512" => d_fixed(0x01, 72),
        "cshake128" | "cshake256" => golden::cshake(sec, &msg, n, &p.function_name, &p.customization),
        "kmac128" | "kmac256" | "kmacxof128" | "kmacxof256" => golden::kmac(
            sec,
            p.key.as_deref().unwrap(),
            &msg,
            n,
            &p.customization,
            name.contains("xof"),
        ),
        "tuplehash128" | "tuplehash256" | "tuplehashxof128" | "tuplehashxof256" => {
            golden::tuplehash(sec, &pieces, n, &p.customization, name.contains("xof"))
        }
        "parallelhash128" | "parallelhash256" | "parallelhashxof128" | "parallelhashxof256" => {
            golden::parallelhash(sec, &msg, block, n, &p.customization, name.contains("xof"))
        }
        "turboshake128" | "turboshake256" => golden::turboshake(sec, &msg, p.domain.unwrap(), n),
        "kt128" | "kt256" => golden::kt(sec, &msg, &p.customization, n),
        "keccak" => golden::sponge(raw.0, raw.1, raw.2, raw.3, &msg, n),
        "tree-li" => golden::tree_li(tree.0, tree.1, tree.2, tree.3, p.prefix.as_deref().unwrap(), &msg, n),
        other => panic!("no golden model for {other}: add one to fuzz/src/lib.rs"),
    };
    assert!(
        got == want,
        "{name} on {} with {p:?}, {} bytes in {} pieces, {n} out: differs from the golden model",
        e.name(),
        msg.len(),
        pieces.len()
    );
});
