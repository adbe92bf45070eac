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
    for name in ["kt128", "parallelhash128", "tree-li"] {
        let h = Hasher::new(name, &p).unwrap();
        assert!(
            matches!(h.export_state(), Err(StateError::Unsupported(_))),
            "{name}"
        );
    }
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
