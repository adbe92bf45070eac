//! RC5-32 against the published vectors (Rivest 1994, RFC 2040 §9 RC5-CBC,
//! draft-krovetz-rc6-rc5-vectors-00; tests/vectors/rc5/README.md) and against
//! the RustCrypto `rc5` crate's block function composed with ECB, CBC and CTR,
//! for every form: sequential, SIMD lanes, key expansion on a second thread.

use cipher::consts::{U12, U16};
use cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use finalists::rc5::{backend_name, expand_and_encrypt};
use finalists::{Impl, Rc5, Rc5Error};
use std::path::PathBuf;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

struct Vector {
    rounds: usize,
    key: Vec<u8>,
    iv: Option<[u8; 8]>,
    pt: [u8; 8],
    ct: [u8; 8],
}

fn load(name: &str) -> Vec<Vector> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/vectors/rc5")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let mut out = vec![];
    for rec in text.split("\n\n") {
        let get = |k: &str| {
            rec.lines()
                .filter(|l| !l.starts_with('#'))
                .find_map(|l| l.strip_prefix(&format!("{k} = ")).map(str::to_string))
        };
        let Some(ct) = get("CT") else { continue };
        out.push(Vector {
            rounds: get("Rounds").unwrap().parse().unwrap(),
            key: unhex(&get("Key").unwrap()),
            iv: get("IV").map(|v| unhex(&v).try_into().unwrap()),
            pt: unhex(&get("PT").unwrap()).try_into().unwrap(),
            ct: unhex(&ct).try_into().unwrap(),
        });
    }
    assert!(!out.is_empty(), "{name}: no vectors");
    out
}

fn xor8(a: [u8; 8], b: [u8; 8]) -> [u8; 8] {
    core::array::from_fn(|i| a[i] ^ b[i])
}

#[test]
fn block_vectors() {
    let mut n = 0;
    for file in ["rivest1994.txt", "krovetz2018.txt"] {
        for v in load(file) {
            let r = Rc5::new(&v.key, v.rounds).unwrap();
            let mut b = v.pt;
            r.encrypt_block(&mut b);
            assert_eq!(b, v.ct, "{file} encrypt");
            r.decrypt_block(&mut b);
            assert_eq!(b, v.pt, "{file} decrypt");
            for imp in Impl::ALL {
                let mut d = v.pt;
                let k = expand_and_encrypt(&v.key, v.rounds, imp, &mut d).unwrap();
                assert_eq!(d, v.ct, "{file} expand_and_encrypt {imp:?}");
                assert_eq!(k.expanded_key(), r.expanded_key());
            }
            n += 1;
        }
    }
    assert_eq!(n, 7);
}

#[test]
fn rfc2040_cbc_vectors() {
    let vs = load("rfc2040_cbc.txt");
    assert_eq!(vs.len(), 25);
    for (i, v) in vs.iter().enumerate() {
        let iv = v.iv.unwrap();
        let r = Rc5::new(&v.key, v.rounds).unwrap();
        let mut d = v.pt;
        r.encrypt_cbc(&iv, &mut d).unwrap();
        assert_eq!(d, v.ct, "vector {i} encrypt");
        for imp in Impl::ALL {
            let mut p = v.ct;
            r.decrypt_cbc(&iv, &mut p, imp).unwrap();
            assert_eq!(p, v.pt, "vector {i} decrypt {imp:?}");
            // One CBC block is E(PT ^ IV): the key expansion overlapped with
            // it in every form (rounds 0..16, keys shorter and longer than
            // the table: both orders of the final key words).
            let mut e = xor8(v.pt, iv);
            let k = expand_and_encrypt(&v.key, v.rounds, imp, &mut e).unwrap();
            assert_eq!(e, v.ct, "vector {i} expand_and_encrypt {imp:?}");
            assert_eq!(k.rounds(), v.rounds);
        }
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

type Peer = rc5::RC5<u32, U12, U16>;

fn peer_enc(p: &Peer, b: [u8; 8]) -> [u8; 8] {
    let mut a = Array::from(b);
    p.encrypt_block(&mut a);
    a.into()
}
fn peer_dec(p: &Peer, b: [u8; 8]) -> [u8; 8] {
    let mut a = Array::from(b);
    p.decrypt_block(&mut a);
    a.into()
}

#[test]
fn modes_against_rc5_crate() {
    let mut rng = Rng(0x243F6A8885A308D3);
    for trial in 0..24 {
        let key: [u8; 16] = rng.bytes(16).try_into().unwrap();
        let iv: [u8; 8] = rng.bytes(8).try_into().unwrap();
        let peer = Peer::new_from_slice(&key).unwrap();
        let ours = Rc5::new_32_12_16(&key);
        assert_eq!(
            ours.expanded_key(),
            Rc5::new(&key, 12).unwrap().expanded_key()
        );
        let blocks = [0, 1, 7, 8, 9, 16, 63, 64, 65, 130][trial % 10];
        let pt = rng.bytes(8 * blocks);
        let pb: Vec<[u8; 8]> = pt.chunks(8).map(|c| c.try_into().unwrap()).collect();
        // ECB
        let ecb: Vec<u8> = pb.iter().flat_map(|b| peer_enc(&peer, *b)).collect();
        // CBC
        let mut prev = iv;
        let mut cbc = vec![];
        for b in &pb {
            prev = peer_enc(&peer, xor8(*b, prev));
            cbc.extend(prev);
        }
        // CTR on a length that is not a whole number of blocks
        let ctr_len = (8 * blocks).saturating_sub(3);
        let start = u64::from_be_bytes(iv);
        let ctr: Vec<u8> = pt[..ctr_len]
            .iter()
            .enumerate()
            .map(|(i, x)| {
                x ^ peer_enc(&peer, start.wrapping_add((i / 8) as u64).to_be_bytes())[i % 8]
            })
            .collect();
        for imp in Impl::ALL {
            let mut d = pt.clone();
            ours.encrypt_ecb(&mut d, imp).unwrap();
            assert_eq!(d, ecb, "ECB {imp:?} {blocks} blocks");
            ours.decrypt_ecb(&mut d, imp).unwrap();
            assert_eq!(d, pt, "ECB decrypt {imp:?}");
            let mut d = pt.clone();
            ours.encrypt_cbc(&iv, &mut d).unwrap();
            assert_eq!(d, cbc, "CBC {blocks} blocks");
            ours.decrypt_cbc(&iv, &mut d, imp).unwrap();
            assert_eq!(d, pt, "CBC decrypt {imp:?} {blocks} blocks");
            let mut d = pt[..ctr_len].to_vec();
            ours.apply_ctr(&iv, &mut d, imp);
            assert_eq!(d, ctr, "CTR {imp:?} {ctr_len} bytes");
            ours.apply_ctr(&iv, &mut d, imp);
            assert_eq!(d, &pt[..ctr_len]);
            let mut d = pt.clone();
            let k = expand_and_encrypt(&key, 12, imp, &mut d).unwrap();
            assert_eq!(d, ecb, "expand_and_encrypt {imp:?}");
            assert_eq!(k.expanded_key(), ours.expanded_key());
        }
        for b in &pb {
            let mut x = *b;
            ours.decrypt_block(&mut x);
            assert_eq!(x, peer_dec(&peer, *b));
        }
    }
    // CTR counter wraps modulo 2^64.
    let ours = Rc5::new_32_12_16(&[9; 16]);
    let peer = Peer::new_from_slice(&[9; 16]).unwrap();
    let mut d = vec![0u8; 80];
    for imp in Impl::ALL {
        d.fill(0);
        ours.apply_ctr(&[0xff; 8], &mut d, imp);
        assert_eq!(d[..8], peer_enc(&peer, [0xff; 8]));
        assert_eq!(d[8..16], peer_enc(&peer, [0; 8]));
        assert_eq!(d[72..], peer_enc(&peer, 8u64.to_be_bytes()));
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    assert_eq!(
        Rc5::new(&[0; 256], 12).unwrap_err(),
        Rc5Error::KeyTooLong(256)
    );
    assert_eq!(
        Rc5::new(&[0; 16], 256).unwrap_err(),
        Rc5Error::TooManyRounds(256)
    );
    let r = Rc5::new(&[0; 255], 255).unwrap();
    assert_eq!(r.expanded_key().len(), 512);
    let mut odd = [0u8; 13];
    for imp in Impl::ALL {
        assert_eq!(
            r.encrypt_ecb(&mut odd, imp),
            Err(Rc5Error::PartialBlock(13))
        );
        assert_eq!(
            r.decrypt_ecb(&mut odd, imp),
            Err(Rc5Error::PartialBlock(13))
        );
        assert_eq!(
            r.decrypt_cbc(&[0; 8], &mut odd, imp),
            Err(Rc5Error::PartialBlock(13))
        );
        assert_eq!(
            expand_and_encrypt(&[1; 16], 12, imp, &mut odd).unwrap_err(),
            Rc5Error::PartialBlock(13)
        );
        assert!(!backend_name(imp).is_empty());
    }
    assert_eq!(
        r.encrypt_cbc(&[0; 8], &mut odd),
        Err(Rc5Error::PartialBlock(13))
    );
    assert_eq!(odd, [0u8; 13], "nothing written on error");
    let msg = Rc5Error::PartialBlock(13).to_string();
    assert!(msg.contains("13") && msg.contains("CTR"), "{msg}");
    // The longest key and the most rounds work in every form (keys longer
    // than the table finish out of order on the helper).
    let mut d = vec![0x42u8; 64];
    let want = {
        let mut x = d.clone();
        r.encrypt_ecb(&mut x, Impl::Sequential).unwrap();
        x
    };
    for imp in Impl::ALL {
        let mut x = d.clone();
        expand_and_encrypt(&[0; 255], 255, imp, &mut x).unwrap();
        assert_eq!(x, want, "{imp:?}");
    }
    d.clear();
    for imp in Impl::ALL {
        expand_and_encrypt(&[], 0, imp, &mut d).unwrap();
    }
}

#[test]
fn simd_levels_agree() {
    if std::env::var("FINALISTS_SIMD_CHILD").is_ok() {
        return;
    }
    let exe = std::env::current_exe().unwrap();
    for level in ["off", "sse41", "avx2", "avx512"] {
        let st = std::process::Command::new(&exe)
            .args(["modes_against_rc5_crate", "--exact", "--quiet"])
            .env("FINALISTS_SIMD", level)
            .env("FINALISTS_SIMD_CHILD", "1")
            .status()
            .unwrap();
        assert!(st.success(), "FINALISTS_SIMD={level} failed");
    }
}
