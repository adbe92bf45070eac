//! The tree against a golden model: the JavaScript library's
//! `makeMerkleTree` written out one hash at a time on the generic sponge
//! (not the engines), on every engine this CPU runs, with and without
//! threads. Byte compatibility with the JavaScript library itself is
//! tested by tests/merkle (node + npm).

use alloc::string::ToString;
use alloc::vec::Vec;

use super::*;
use crate::engine::{self, Engine, Threads};
use crate::sponge::{golden_sponge, SpongeParams};

/// Keccak-256 on the golden bit-level sponge: Keccak[r = 1088, c = 512].
fn golden_keccak(data: &[u8]) -> Hash {
    let p = SpongeParams::keccak(1088, 512).unwrap();
    golden_sponge(&p, data, data.len() * 8, 256)
        .try_into()
        .unwrap()
}

/// Keccak-256 on the one-state byte sponge (the engines' reference), for
/// the large trees where the bit-level model takes too long.
fn byte_keccak(data: &[u8]) -> Hash {
    let mut s = crate::sponge::ByteSponge::new(136, 24);
    s.absorb(data);
    s.pad_delimited(0x01);
    let mut out = [0u8; 32];
    s.squeeze(&mut out);
    out
}

fn golden_tree(leaves: &[Hash], golden_keccak: fn(&[u8]) -> Hash) -> Vec<Hash> {
    let len = 2 * leaves.len() - 1;
    let mut t = alloc::vec![[0u8; 32]; len];
    for (i, l) in leaves.iter().enumerate() {
        t[len - 1 - i] = *l;
    }
    for i in (0..len - leaves.len()).rev() {
        let (a, b) = (t[2 * i + 1], t[2 * i + 2]);
        let mut m = Vec::new();
        if a <= b {
            m.extend_from_slice(&a);
            m.extend_from_slice(&b);
        } else {
            m.extend_from_slice(&b);
            m.extend_from_slice(&a);
        }
        t[i] = golden_keccak(&m);
    }
    t
}

fn values(n: usize, seed: u64) -> Vec<Value> {
    let mut x = seed;
    (0..n)
        .map(|i| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let addr = to_hex(&x.to_be_bytes()).replace("0x", "0x000000000000000000000000");
            Value::Array(alloc::vec![
                Value::Str(addr),
                Value::Str((x >> 7).to_string() + &i.to_string())
            ])
        })
        .collect()
}

fn engines() -> Vec<(&'static str, alloc::boxed::Box<dyn Engine>)> {
    let mut v: Vec<(&'static str, alloc::boxed::Box<dyn Engine>)> = Vec::new();
    for e in engine::available() {
        v.push((e.name(), alloc::boxed::Box::new(e)));
        v.push(("threads", alloc::boxed::Box::new(Threads::new(e))));
    }
    v
}

#[test]
fn every_engine_gives_the_golden_tree() {
    let kind = LeafKind::standard(&["address", "uint256"]).unwrap();
    let LeafKind::Standard { types, .. } = &kind else {
        unreachable!()
    };
    for n in [1usize, 2, 3, 4, 5, 7, 8, 9, 31, 33, 100, 1000, 70_001] {
        let vals = values(n, n as u64);
        let golden_keccak: fn(&[u8]) -> Hash = if n > 1000 { byte_keccak } else { golden_keccak };
        // Golden: encode, hash twice on the golden sponge, sort, build.
        let mut leaves: Vec<(Hash, usize)> = vals
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let Value::Array(items) = v else {
                    unreachable!()
                };
                (
                    golden_keccak(&golden_keccak(&encode(types, items).unwrap())),
                    i,
                )
            })
            .collect();
        let unsorted = golden_tree(
            &leaves.iter().map(|l| l.0).collect::<Vec<_>>(),
            golden_keccak,
        );
        leaves.sort();
        let sorted = golden_tree(
            &leaves.iter().map(|l| l.0).collect::<Vec<_>>(),
            golden_keccak,
        );
        for (name, e) in engines() {
            if n > 1000 && !name.starts_with("thread") && name != "avx2" {
                continue;
            }
            let t = MerkleTree::build(kind.clone(), vals.clone(), true, &*e, None).unwrap();
            assert_eq!(t.nodes(), &sorted[..], "{name} n={n} sorted");
            let t = MerkleTree::build(kind.clone(), vals.clone(), false, &*e, None).unwrap();
            assert_eq!(t.nodes(), &unsorted[..], "{name} n={n} unsorted");
            t.validate(&*e).unwrap();
        }
    }
}

#[test]
fn proofs_verify_and_tampered_ones_fail() {
    let e = engine::by_name("scalar").unwrap();
    let kind = LeafKind::standard(&["address", "uint256"]).unwrap();
    for n in [1usize, 2, 5, 16, 37] {
        let vals = values(n, 7);
        let t = MerkleTree::build(kind.clone(), vals.clone(), true, e, None).unwrap();
        for i in 0..n {
            let p = t.proof(i).unwrap();
            assert!(t.verify(Ok(i), &p).unwrap());
            assert_eq!(t.leaf_lookup(&vals[i]).unwrap(), i);
            if let Some(first) = p.first() {
                let mut bad = p.clone();
                bad[0][0] ^= 1;
                assert!(!t.verify(Ok(i), &bad).unwrap(), "{first:?}");
            }
        }
        let idx: Vec<usize> = (0..n).step_by(2).collect();
        let mp = t.multi_proof(&idx).unwrap();
        let leaves: Vec<Result<usize, &Value>> = mp.leaves.iter().map(|&i| Ok(i)).collect();
        assert!(t.verify_multi(&leaves, &mp.proof, &mp.proof_flags).unwrap());
        let empty = t.multi_proof(&[]).unwrap();
        assert_eq!(empty.proof, alloc::vec![t.root()]);
        if n > 1 {
            assert!(t.multi_proof(&[0, 0]).is_err());
        }
    }
}

#[test]
fn bad_input_gives_errors() {
    let e = engine::by_name("scalar").unwrap();
    let kind = LeafKind::standard(&["address", "uint8"]).unwrap();
    let err = MerkleTree::build(kind.clone(), Vec::new(), true, e, None).unwrap_err();
    assert_eq!(err.message, "Expected non-zero number of leaves");
    let v =
        |a: &str, b: &str| Value::Array(alloc::vec![Value::Str(a.into()), Value::Str(b.into())]);
    let err =
        MerkleTree::build(kind.clone(), alloc::vec![v("0x01", "256")], true, e, None).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Abi, "{err}");
    let t = MerkleTree::build(
        kind.clone(),
        alloc::vec![v("0x01", "2"), v("0x02", "3")],
        true,
        e,
        None,
    )
    .unwrap();
    assert_eq!(t.proof(2).unwrap_err().message, "Index out of bounds");
    assert_eq!(
        t.leaf_lookup(&v("0x03", "1")).unwrap_err().message,
        "Leaf is not in tree"
    );
    // Dumps: round trip, a flipped node, a wrong format.
    let d = t.dump_json();
    let back = MerkleTree::load_json(&d, None, e).unwrap();
    assert_eq!(back.dump_json(), d);
    let flipped = d.replacen(&to_hex(&t.root())[2..4], "zz", 1);
    assert!(MerkleTree::load_json(&flipped, None, e).is_err());
    let root = to_hex(&t.root());
    let mut other = t.root();
    other[31] ^= 1;
    let bad = d.replacen(&root, &to_hex(&other), 1);
    assert_eq!(
        MerkleTree::load_json(&bad, None, e).unwrap_err().message,
        "Merkle tree is invalid"
    );
    let wrong = d.replacen("standard-v1", "standard-v2", 1);
    assert_eq!(
        MerkleTree::load_json(&wrong, None, e).unwrap_err().message,
        "Unknown format 'standard-v2'"
    );
    assert!(MerkleTree::load_json("{\"format\":", None, e).is_err());
}

#[test]
fn reused_arrays_and_near_equal_children_give_the_golden_tree() {
    // Leaves that agree in their first eight bytes (and some that are
    // equal), so the pair order is decided past the first word; built
    // into one array reused across sizes, larger and smaller.
    let leaf = |i: usize| {
        let mut h = [0xa5u8; 32];
        h[8 + i % 24] = (i * 37 % 251) as u8;
        h[31] ^= (i / 24) as u8;
        h
    };
    let mut tree = Vec::new();
    for n in [300usize, 5, 1, 2, 5000, 64, 300] {
        let leaves: Vec<Hash> = (0..n).map(|i| leaf(i % 97)).collect();
        let golden = golden_tree(&leaves, byte_keccak);
        for (name, e) in engines() {
            build_nodes_into(&leaves, &mut tree, &*e, &mut |_| {}).unwrap();
            assert_eq!(&tree[..], &golden[..], "{name} n={n} reused");
        }
        assert_eq!(
            build_nodes(&leaves, &engines()[0].1, &mut |_| {}).unwrap(),
            golden
        );
    }
}
