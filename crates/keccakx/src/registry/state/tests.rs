use super::*;
use crate::registry::{list, Construction};

fn params_for(name: &str) -> Vec<Params> {
    let base = Params::default();
    match name {
        "cshake128" | "cshake256" => vec![
            base.clone(),
            Params {
                function_name: b"N".to_vec(),
                customization: b"S".to_vec(),
                length: Some(40),
                ..base
            },
        ],
        n if n.starts_with("kmac") => vec![Params {
            key: Some(b"secret key".to_vec()),
            customization: b"c".to_vec(),
            ..base
        }],
        n if n.starts_with("tuplehash") => vec![Params {
            customization: b"t".to_vec(),
            length: Some(50),
            ..base
        }],
        "turboshake128" | "turboshake256" => vec![
            base.clone(),
            Params {
                domain: Some(0x07),
                ..base
            },
        ],
        "keccak" => vec![
            Params {
                rate: Some(1088),
                capacity: Some(512),
                ..base.clone()
            },
            Params {
                rate: Some(1084),
                capacity: Some(516),
                ..base.clone()
            },
            Params {
                width: Some(800),
                rate: Some(544),
                capacity: Some(256),
                rounds: Some(12),
                ..base
            },
        ],
        _ => vec![base],
    }
}

fn sequential() -> Vec<(&'static str, Params)> {
    list()
        .iter()
        .filter(|a| {
            !matches!(
                a.construction,
                Construction::Kt(_) | Construction::ParallelHash { .. } | Construction::TreeLi
            )
        })
        .flat_map(|a| params_for(a.name).into_iter().map(move |p| (a.name, p)))
        .collect()
}

fn msg(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 31 + 7) as u8).collect()
}

#[test]
fn absorbing_states_round_trip_at_every_block_position() {
    for (name, p) in sequential() {
        let proto = Hasher::new(name, &p).unwrap();
        let r = proto.rate_bytes();
        for len in [0, 1, r - 1, r, r + 1, 2 * r + 3] {
            let m = msg(len + 50);
            // TupleHash: every update is an element; one element fed in
            // pieces is the streaming form.
            let proto = proto.clone().with_input_length(m.len() as u64);
            let mut one = proto.clone();
            one.update(&m);
            let want = one.finalize();
            let mut h = proto.clone();
            h.update(&m[..len]);
            let blob = h.export_state().unwrap();
            let Imported::Absorbing(mut back) = import_state(&blob).unwrap() else {
                panic!()
            };
            back.update(&m[len..]);
            assert_eq!(back.finalize(), want, "{name} split at {len}");
            // Restored into a fresh hasher of the same parameters.
            let mut again = proto.clone();
            again.restore_state(&blob).unwrap();
            again.update(&m[len..]);
            assert_eq!(again.finalize(), want);
        }
    }
}

#[test]
fn squeezing_states_round_trip_mid_output() {
    for (name, p) in sequential() {
        let proto = Hasher::new(name, &p).unwrap();
        let r = proto.rate_bytes();
        let mut one = proto.clone();
        one.update(b"abc");
        let want = one.finalize_reader().read_vec(3 * r + 5);
        for k in [0, 1, r - 1, r, r + 1, 2 * r] {
            let mut h = proto.clone();
            h.update(b"abc");
            let mut s = h.into_squeezer();
            let mut got = vec![0u8; k];
            s.read(&mut got);
            let blob = s.export_state().unwrap();
            let Imported::Squeezing(mut back) = import_state(&blob).unwrap() else {
                panic!()
            };
            let mut rest = vec![0u8; want.len() - k];
            back.read(&mut rest);
            got.extend_from_slice(&rest);
            assert_eq!(got, want, "{name} squeezed {k}");
        }
    }
}

#[test]
fn partial_bytes_survive() {
    let p = Params::default();
    let mut a = Hasher::new("sha3-256", &p).unwrap();
    a.update_bits(&[0xff, 0x05], 11).unwrap();
    let mut one = a.clone();
    let blob = a.export_state().unwrap();
    let Imported::Absorbing(mut b) = import_state(&blob).unwrap() else {
        panic!()
    };
    one.update(b"more");
    b.update(b"more");
    assert_eq!(one.finalize(), b.finalize());
}

#[test]
fn wrong_blobs_are_refused() {
    let p = Params::default();
    let mut h = Hasher::new("sha3-256", &p).unwrap();
    h.update(b"hello");
    let blob = h.export_state().unwrap();
    for i in 0..blob.len() {
        let mut t = blob.clone();
        t[i] ^= 0x10;
        assert!(import_state(&t).is_err(), "byte {i}");
    }
    for cut in 0..blob.len() {
        assert!(import_state(&blob[..cut]).is_err());
    }
    assert_eq!(
        import_state(b"hello world, not a state").err(),
        Some(StateError::NotAState)
    );
    let mut v2 = blob.clone();
    v2[8] = 2;
    assert_eq!(import_state(&v2).err(), Some(StateError::Version(2)));
    let mut other = Hasher::new("sha3-512", &p).unwrap();
    assert!(matches!(
        other.restore_state(&blob),
        Err(StateError::OtherFunction(_))
    ));
    let c = Params {
        customization: b"x".to_vec(),
        ..Params::default()
    };
    let mut cs = Hasher::new("cshake128", &c).unwrap();
    let blob_c = cs.export_state().unwrap();
    let mut cs2 = Hasher::new(
        "cshake128",
        &Params {
            customization: b"y".to_vec(),
            ..Params::default()
        },
    )
    .unwrap();
    assert!(matches!(
        cs2.restore_state(&blob_c),
        Err(StateError::OtherFunction(_))
    ));
    cs.update(b"");
    let tree = Hasher::new("tree-li", &p).unwrap();
    assert!(matches!(
        tree.export_state(),
        Err(StateError::Unsupported(_))
    ));
}

#[test]
fn kmac_blobs_hold_no_key() {
    let key = b"a very recognisable key 0123456789".to_vec();
    let p = Params {
        key: Some(key.clone()),
        ..Params::default()
    };
    let h = Hasher::new("kmac256", &p).unwrap();
    let blob = h.export_state().unwrap();
    assert!(!blob.windows(key.len()).any(|w| w == &key[..]));
}

#[test]
fn go_states_round_trip() {
    for name in [
        "sha3-224",
        "sha3-256",
        "sha3-384",
        "sha3-512",
        "shake128",
        "shake256",
        "keccak-256",
        "cshake128",
        "cshake256",
    ] {
        for p in params_for(name) {
            let proto = Hasher::new(name, &p).unwrap();
            let r = proto.rate_bytes();
            for len in [0, r - 1, r, r + 1] {
                let m = msg(len + 9);
                let mut one = proto.clone();
                one.update(&m);
                let want = one.finalize();
                let mut h = proto.clone();
                h.update(&m[..len]);
                let go = h.to_go_state().unwrap();
                assert_eq!(
                    go.len(),
                    207 + if name.starts_with("cshake") && !p.customization.is_empty() {
                        2 + 2 + 2
                    } else {
                        0
                    },
                    "{name}"
                );
                let Imported::Absorbing(mut b) = from_go_state(name, &p, &go).unwrap() else {
                    panic!()
                };
                b.update(&m[len..]);
                assert_eq!(b.finalize(), want, "{name} at {len}");
            }
        }
    }
    let p = Params::default();
    let go = Hasher::new("sha3-256", &p).unwrap().to_go_state().unwrap();
    assert!(from_go_state("sha3-512", &p, &go).is_err());
    assert!(from_go_state("shake128", &p, &go).is_err());
}

// ------------------------------------------------------ KT, ParallelHash

/// KT and ParallelHash cases: (name, params, chunk length).
fn tree_cases() -> Vec<(&'static str, Params, usize)> {
    let mut v = Vec::new();
    for name in ["kt128", "kt256"] {
        for c in [&b""[..], b"C"] {
            let p = Params {
                customization: c.to_vec(),
                length: Some(40),
                ..Params::default()
            };
            v.push((name, p, 8192));
        }
    }
    for name in [
        "parallelhash128",
        "parallelhash256",
        "parallelhashxof128",
        "parallelhashxof256",
    ] {
        // 300000 bytes: more than the engine queues as bytes (its partial
        // block lives in a sponge).
        for b in [1usize, 7, 8192, 300_000] {
            let p = Params {
                customization: b"S".to_vec(),
                block_size: Some(b),
                length: Some(40),
                ..Params::default()
            };
            v.push((name, p, b));
        }
    }
    v
}

/// Export after `m[..k]` fed in pieces of `piece` bytes, import, feed the
/// rest: the one-shot digest.
fn tree_round_trip(name: &str, p: &Params, m: &[u8], k: usize, piece: usize) {
    let mut one = Hasher::new(name, p).unwrap();
    one.update(m);
    let want = one.finalize();
    let mut h = Hasher::new(name, p).unwrap();
    for x in m[..k].chunks(piece.max(1)) {
        h.update(x);
    }
    let blob = h.export_state().unwrap();
    let Imported::Absorbing(mut back) = import_state(&blob).unwrap() else {
        panic!("{name}: not absorbing")
    };
    back.update(&m[k..]);
    assert_eq!(
        back.finalize(),
        want,
        "{name} {p:?} split at {k} in pieces of {piece}"
    );
    let mut again = Hasher::new(name, p).unwrap();
    again.restore_state(&blob).unwrap();
    again.update(&m[k..]);
    assert_eq!(again.finalize(), want, "{name} restored at {k}");
    // Exporting leaves the hasher as it was.
    h.update(&m[k..]);
    assert_eq!(h.finalize(), want, "{name}: the exporter continued at {k}");
}

#[test]
fn kt_and_parallelhash_states_round_trip_at_every_chunk_position() {
    for (name, p, c) in tree_cases() {
        let splits = [0, 1, c - 1, c, c + 1, 3 * c + 5];
        for &k in &splits {
            // KT's S_0 edge too: 8192 is chunk 0's end.
            let m = msg(k + 2 * c + 13);
            tree_round_trip(name, &p, &m, k, k.max(1));
            // Several whole chunks still queued for the engine when
            // exported (fed in small pieces).
            if c <= 8192 {
                tree_round_trip(name, &p, &m, k, 1000);
            }
        }
    }
}

#[test]
fn kt_and_parallelhash_states_round_trip_mid_output() {
    for (name, p, c) in tree_cases() {
        if !matches!(
            name,
            "kt128" | "kt256" | "parallelhashxof128" | "parallelhashxof256"
        ) {
            continue;
        }
        let m = msg(2 * c + 3);
        let proto = Hasher::new(name, &p).unwrap();
        let r = proto.rate_bytes();
        let mut one = proto.clone();
        one.update(&m);
        let want = one.finalize_reader().read_vec(3 * r + 5);
        for k in [0, 1, r - 1, r, r + 1, 2 * r] {
            let mut h = proto.clone();
            h.update(&m);
            let mut s = h.into_squeezer();
            let mut got = vec![0u8; k];
            s.read(&mut got);
            let blob = s.export_state().unwrap();
            let Imported::Squeezing(mut back) = import_state(&blob).unwrap() else {
                panic!()
            };
            let mut rest = vec![0u8; want.len() - k];
            back.read(&mut rest);
            got.extend_from_slice(&rest);
            assert_eq!(got, want, "{name} squeezed {k}");
        }
    }
}

#[test]
fn kt_states_stay_small() {
    // The CVs are absorbed as they are made: the blob holds the final
    // node and less than one chunk, whatever the length.
    let p = Params::default();
    for n in [8191usize, 100_000, 3_000_000] {
        let mut h = Hasher::new("kt128", &p).unwrap();
        h.update(&msg(n));
        let blob = h.export_state().unwrap();
        assert!(blob.len() < 8192 + 400, "{n}: {} bytes", blob.len());
    }
}

/// `blob` with its checksum made valid again after an edit.
fn resum(mut blob: Vec<u8>) -> Vec<u8> {
    let n = blob.len() - 16;
    let sum = Sha3_256::digest(&blob[..n]);
    blob[n..].copy_from_slice(&sum[..16]);
    blob
}

/// A blob asks for no more output than 16 MiB: `finalize()` allocates it
/// at once, and a blob from outside must not make that abort the process.
#[test]
fn output_lengths_over_16_mib_are_refused() {
    let max = 1usize << 24;
    let with_len = |n: usize| {
        let p = Params {
            length: Some(n),
            ..Params::default()
        };
        let mut h = Hasher::new("shake128", &p).unwrap();
        h.update(b"abc");
        h
    };
    let blob = with_len(max).export_state().unwrap();
    assert!(matches!(
        with_len(max + 1).export_state(),
        Err(StateError::Unsupported(_))
    ));
    // The same blob claiming a longer output, its checksum made valid.
    let at = blob
        .windows(8)
        .position(|w| w == (max as u64).to_le_bytes())
        .unwrap();
    for claim in [max as u64 + 1, 1 << 40, u64::MAX] {
        let mut t = blob.clone();
        t[at..at + 8].copy_from_slice(&claim.to_le_bytes());
        assert!(
            matches!(import_state(&resum(t)), Err(StateError::Corrupted(_))),
            "{claim}"
        );
    }
    match import_state(&blob) {
        Ok(Imported::Absorbing(h)) => assert_eq!(h.output_len(), max),
        _ => panic!("a 16 MiB output length imports"),
    }
}

#[test]
fn wrong_kt_and_parallelhash_blobs_are_refused() {
    let kt = |c: &[u8]| Params {
        customization: c.to_vec(),
        ..Params::default()
    };
    let mut h = Hasher::new("kt128", &kt(b"")).unwrap();
    h.update(&msg(3 * 8192 + 100));
    let blob = h.export_state().unwrap();
    for i in 0..blob.len() {
        let mut t = blob.clone();
        t[i] ^= 0x01;
        assert!(import_state(&t).is_err(), "byte {i}");
    }
    for cut in 0..blob.len() {
        assert!(import_state(&blob[..cut]).is_err(), "cut {cut}");
    }
    for other in ["kt256", "parallelhash128", "sha3-256"] {
        let mut o = Hasher::new(other, &Params::default()).unwrap();
        assert!(
            matches!(o.restore_state(&blob), Err(StateError::OtherFunction(_))),
            "{other}"
        );
    }
    let mut c = Hasher::new("kt128", &kt(b"other")).unwrap();
    assert!(matches!(
        c.restore_state(&blob),
        Err(StateError::OtherFunction(_))
    ));
    let ph = |b: usize| Params {
        block_size: Some(b),
        ..Params::default()
    };
    let mut h7 = Hasher::new("parallelhash128", &ph(7)).unwrap();
    h7.update(b"0123456789");
    let blob7 = h7.export_state().unwrap();
    let mut h8 = Hasher::new("parallelhash128", &ph(8)).unwrap();
    assert!(matches!(
        h8.restore_state(&blob7),
        Err(StateError::OtherFunction(_))
    ));
    // Checksum-valid blobs whose tree section cannot be a state: the
    // partial chunk as long as a chunk, a CV count the node's position
    // does not follow from, S_0 not full with CVs after it.
    let tail = 16 + 8 + 8 + 1 + 4 + 100; // checksum, first_len, count, kind, len, 100 bytes
    let at = blob.len() - tail;
    let mut count = blob.clone();
    count[at + 8] ^= 1;
    let mut first = blob.clone();
    first[at] ^= 1;
    let mut long = blob[..blob.len() - 16 - 4 - 100].to_vec();
    long.extend_from_slice(&8192u32.to_le_bytes());
    long.extend_from_slice(&msg(8192));
    long.extend_from_slice(&[0; 16]);
    for (what, b) in [
        ("count", count),
        ("first_len", first),
        ("a whole chunk", long),
    ] {
        assert!(
            matches!(import_state(&resum(b)), Err(StateError::Corrupted(_))),
            "{what}"
        );
    }
    assert!(matches!(
        Hasher::new("tree-li", &Params::default())
            .unwrap()
            .export_state(),
        Err(StateError::Unsupported(_))
    ));
}
