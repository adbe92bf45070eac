//! Outboards and portable states from outside: any bytes through the
//! outboard parser and the state-blob parser (a refusal is fine; a panic,
//! an abort or a hang is not), any parsed outboard checked against any
//! message and any imported state fed and finished; and outboards built
//! from fuzzed parameters and messages, which must parse back, give the
//! registry's one-shot digest, and find no damage in their own message.
#![no_main]

use golden::Src;
use keccakx::fips202::Sha3_256;
use keccakx::outboard::{Algorithm, Header, Outboard};
use keccakx::registry::state::{import_state, Imported};
use keccakx::registry::{Hasher, Params};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut src = Src::new(data);
    if data.first() == Some(&0x89) && data.get(3) == Some(&b'S') {
        // A state blob (its magic, "\x89KXS..."), its checksum made
        // valid (so mutations reach the structure behind it): parsed, and
        // if it imports, fed a few bytes and finished.
        let mut blob = data.to_vec();
        if blob.len() > 16 {
            let n = blob.len() - 16;
            let sum = Sha3_256::digest(&blob[..n]);
            blob[n..].copy_from_slice(&sum[..16]);
        }
        match import_state(&blob) {
            Ok(Imported::Absorbing(mut h)) => {
                h.update(b"more");
                let _ = h.finalize();
            }
            Ok(Imported::Squeezing(mut s)) => {
                let mut out = [0u8; 64];
                s.read(&mut out);
            }
            Err(_) => {}
        }
        return;
    }
    if src.bool() {
        // Raw bytes as an outboard; the rest of the input as a message.
        let split = src.range(0, data.len());
        let (ob, msg) = data.split_at(split);
        let _ = Header::parse(ob);
        if let Ok(o) = Outboard::parse(ob) {
            let mut d = [0u8; 32];
            let _ = o.digest_into(&mut d);
            let _ = o.check_digest(&d);
            let _ = o.damaged(msg);
        }
        return;
    }
    let alg = Algorithm::ALL[src.range(0, 5)];
    let block = (!alg.is_kt()).then(|| src.range(1, 3000));
    let cust = src.bytes(40);
    let out_len = src.range(1, 80);
    let msg = src.rest();
    let Ok(h) = Header::new(alg, msg.len() as u64, block, &cust) else {
        return;
    };
    let (o, d) = Outboard::build(h, msg, out_len).expect("a valid header builds");
    let p = Params {
        length: Some(out_len),
        customization: cust,
        block_size: block,
        ..Params::default()
    };
    let mut one = Hasher::new(alg.name(), &p).expect("outboard parameters are valid");
    one.update(msg);
    assert_eq!(d, one.finalize(), "outboard digest differs from the one-shot digest");
    let back = Outboard::parse(o.as_bytes()).expect("an outboard parses back");
    back.check_digest(&d).expect("an outboard matches its digest");
    assert!(back.damaged(msg).expect("checks").is_empty());
});
