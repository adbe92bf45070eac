//! The JavaScript library's dump format, as `JSON.stringify(tree.dump())`
//! writes it:
//!
//! ```text
//! {"format":"standard-v1","leafEncoding":["address","uint256"],
//!  "tree":["0x<root>",...],"values":[{"value":[...],"treeIndex":N},...]}
//! {"format":"simple-v1","tree":[...],"values":[{"value":"0x...","treeIndex":N},...]}
//! ```
//!
//! (one line, no spaces). Loading checks the format, then validates the
//! tree as the library's `load` does.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::error::MerkleError;
use super::hash::{parse_hash, push_hex, Hash};
use super::json::{self, write_json, write_str, Value};
use super::tree::{LeafKind, MerkleTree};
use crate::engine::Engine;

impl MerkleTree {
    /// The dump, byte-identical to `JSON.stringify(tree.dump())`.
    pub fn dump_json(&self) -> String {
        let mut s = String::with_capacity(self.tree.len() * 70 + self.values.len() * 80 + 64);
        match &self.kind {
            LeafKind::Standard { encoding, .. } => {
                s.push_str("{\"format\":\"standard-v1\",\"leafEncoding\":[");
                for (i, t) in encoding.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    write_str(t, &mut s);
                }
                s.push_str("],\"tree\":[");
            }
            LeafKind::Simple => s.push_str("{\"format\":\"simple-v1\",\"tree\":["),
        }
        push_hex_list(&self.tree, &mut s);
        s.push_str("],\"values\":[");
        for (i, (v, ti)) in self.values.iter().zip(&self.tree_index).enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"value\":");
            write_json(v, &mut s);
            s.push_str(",\"treeIndex\":");
            s.push_str(&format!("{ti}"));
            s.push('}');
        }
        s.push_str("]}");
        s
    }

    /// Every value's proof as JSON lines, in value order: line `i` is
    /// `["0x...","0x...",...]` (the nodes of `getProof(i)`), written as it
    /// goes (a million proofs of a 2^20-leaf tree are ~1.4 GB of text).
    pub fn write_proofs_jsonl(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.proof_lines(
            |_, proof, line| {
                line.push('[');
                push_hex_list(proof, line);
                line.push_str("]\n");
            },
            |block| w.write_all(block.as_bytes()),
        )
    }

    /// Every value's proof, in value order, as text: `line(i, proof, buf)`
    /// appends value `i`'s line to `buf`; blocks of lines are formed on
    /// all cores and handed to `sink` in order, as they are done (the
    /// text of all proofs is never held at once). A `sink` error stops it.
    pub fn proof_lines<E>(
        &self,
        line: impl Fn(usize, &[Hash], &mut String) + Sync,
        mut sink: impl FnMut(&str) -> Result<(), E>,
    ) -> Result<(), E> {
        use rayon::prelude::*;
        // Values per block and blocks formed at once: ~2 MB of text each.
        const BLOCK: usize = 1024;
        let per_round = BLOCK * 4 * rayon::current_num_threads().max(1);
        let mut blocks: Vec<String> = Vec::new();
        for start in (0..self.len()).step_by(per_round) {
            let end = (start + per_round).min(self.len());
            (start..end)
                .into_par_iter()
                .step_by(BLOCK)
                .map(|a| {
                    let mut s = String::with_capacity(BLOCK * 1500);
                    for i in a..(a + BLOCK).min(end) {
                        let ti = self.tree_index[i];
                        line(
                            i,
                            &super::proof::get_proof(&self.tree, ti).expect("a leaf"),
                            &mut s,
                        );
                    }
                    s
                })
                .collect_into_vec(&mut blocks);
            for b in &blocks {
                sink(b)?;
            }
        }
        Ok(())
    }

    /// Load a dump (JSON text), validating it on `engine`. `expect` names
    /// the format the caller wants (`"standard-v1"` or `"simple-v1"`);
    /// `None` takes either.
    pub fn load_json(
        text: &str,
        expect: Option<&str>,
        engine: &dyn Engine,
    ) -> Result<MerkleTree, MerkleError> {
        Self::load(json::parse(text)?, expect, engine)
    }

    /// [`load_json`](Self::load_json) of a parsed dump.
    pub fn load(
        data: Value,
        expect: Option<&str>,
        engine: &dyn Engine,
    ) -> Result<MerkleTree, MerkleError> {
        let Value::Object(members) = data else {
            return Err(MerkleError::json("a tree dump must be a JSON object"));
        };
        let mut format = None;
        let mut encoding = None;
        let mut tree = None;
        let mut values = None;
        let mut hash = None;
        for (k, v) in members {
            match k.as_str() {
                "format" => format = Some(v),
                "leafEncoding" => encoding = Some(v),
                "tree" => tree = Some(v),
                "values" => values = Some(v),
                "hash" => hash = Some(v),
                _ => {}
            }
        }
        let format = match format {
            Some(Value::Str(f)) => f,
            Some(other) => {
                return Err(MerkleError::arg(format!(
                    "Unknown format '{}'",
                    other.short()
                )))
            }
            None => return Err(MerkleError::arg("Unknown format 'undefined'")),
        };
        if let Some(want) = expect {
            if format != want {
                return Err(MerkleError::arg(format!("Unknown format '{format}'")));
            }
        }
        let kind = match format.as_str() {
            "standard-v1" => {
                let enc = match encoding {
                    Some(Value::Array(ts)) => ts
                        .into_iter()
                        .map(|t| match t {
                            Value::Str(s) => Ok(s),
                            o => Err(MerkleError::json(format!(
                                "leafEncoding: not a type name: {}",
                                o.short()
                            ))),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                    Some(_) => {
                        return Err(MerkleError::json(
                            "leafEncoding must be an array of type names",
                        ))
                    }
                    None => return Err(MerkleError::arg("Expected leaf encoding")),
                };
                LeafKind::standard(&enc)?
            }
            "simple-v1" => {
                if matches!(hash, Some(Value::Str(ref h)) if h == "custom") {
                    return Err(MerkleError::arg(
                        "Data expects a custom node hashing function",
                    ));
                }
                LeafKind::Simple
            }
            _ => return Err(MerkleError::arg(format!("Unknown format '{format}'"))),
        };
        let nodes = match tree {
            Some(Value::Array(ns)) => ns
                .iter()
                .map(|n| match n {
                    Value::Str(s) => parse_hash(s),
                    o => Err(MerkleError::json(format!(
                        "tree: not a node: {}",
                        o.short()
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()?,
            _ => {
                return Err(MerkleError::json(
                    "a tree dump needs \"tree\": an array of nodes",
                ))
            }
        };
        let Some(Value::Array(entries)) = values else {
            return Err(MerkleError::json("a tree dump needs \"values\": an array"));
        };
        let mut vals = Vec::with_capacity(entries.len());
        let mut index = Vec::with_capacity(entries.len());
        for (i, e) in entries.into_iter().enumerate() {
            let bad = || {
                MerkleError::json(format!(
                    "values[{i}] must be {{\"value\": ..., \"treeIndex\": N}}"
                ))
            };
            let Value::Object(m) = e else {
                return Err(bad());
            };
            let mut value = None;
            let mut ti = None;
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("value", v) => value = Some(v),
                    ("treeIndex", Value::Num(n)) => {
                        ti = Some(n.parse::<usize>().map_err(|_| bad())?)
                    }
                    ("treeIndex", _) => return Err(bad()),
                    _ => {}
                }
            }
            vals.push(value.ok_or_else(bad)?);
            index.push(ti.ok_or_else(bad)?);
        }
        MerkleTree::from_parts(kind, nodes, vals, index, engine)
    }
}

/// `"0x...","0x...",...` (no brackets) onto `s`.
pub fn push_hex_list(nodes: &[Hash], s: &mut String) {
    for (i, h) in nodes.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push('"');
        push_hex(h, s);
        s.push('"');
    }
}
