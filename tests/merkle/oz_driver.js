// Drives @openzeppelin/merkle-tree (the reference) for tests/merkle: reads a
// JSON list of cases (path in argv[2]), writes one JSON result per case.
// For each case: the library's own tree over the values (dump text, root,
// proofs, multiproof) and what it makes of keccakx's dump (loads, proofs
// verify, tampered proofs fail).
"use strict";
const fs = require("fs");
const { StandardMerkleTree, SimpleMerkleTree } = require("@openzeppelin/merkle-tree");

function tamper(hex) {
  const last = parseInt(hex.slice(-1), 16) ^ 1;
  return hex.slice(0, -1) + last.toString(16);
}

function attempt(f) {
  try {
    return { ok: f() };
  } catch (e) {
    return { error: String(e.message) };
  }
}

const cases = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = [];
for (const c of cases) {
  const simple = c.types === null;
  const Tree = simple ? SimpleMerkleTree : StandardMerkleTree;
  const r = {};
  const built = attempt(() =>
    simple
      ? SimpleMerkleTree.of(c.values, { sortLeaves: c.sort })
      : StandardMerkleTree.of(c.values, c.types, { sortLeaves: c.sort }),
  );
  if (built.error !== undefined) {
    r.build_error = built.error;
  } else {
    const t = built.ok;
    r.dump = JSON.stringify(t.dump());
    r.root = t.root;
    r.proofs = c.indices.map((i) => t.getProof(i));
    r.multi = c.multi === null ? null : t.getMultiProof(c.multi);
    r.value_proofs = c.indices.slice(0, 3).map((i) => t.getProof(c.values[i]));
  }
  if (c.ours !== null) {
    // keccakx's dump: load (validates), dump again, verify its proofs.
    const loaded = attempt(() => Tree.load(JSON.parse(c.ours.dump)));
    if (loaded.error !== undefined) {
      r.load_error = loaded.error;
    } else {
      const t = loaded.ok;
      r.redump = JSON.stringify(t.dump());
      const verify = (leaf, proof) =>
        simple ? SimpleMerkleTree.verify(c.ours.root, leaf, proof) : StandardMerkleTree.verify(c.ours.root, c.types, leaf, proof);
      r.ours_verify = c.indices.map((i, k) => verify(c.values[i], c.ours.proofs[k]) && t.verify(i, c.ours.proofs[k]));
      r.ours_tampered = c.indices.map((i, k) => {
        const p = c.ours.proofs[k];
        if (p.length === 0) return false;
        return verify(c.values[i], [tamper(p[0]), ...p.slice(1)]);
      });
      if (c.ours.multi !== null) {
        const mp = c.ours.multi;
        r.ours_multi = simple
          ? SimpleMerkleTree.verifyMultiProof(c.ours.root, mp)
          : StandardMerkleTree.verifyMultiProof(c.ours.root, c.types, mp);
        r.ours_multi_tampered =
          mp.proof.length === 0
            ? false
            : attempt(() =>
                simple
                  ? SimpleMerkleTree.verifyMultiProof(c.ours.root, { ...mp, proof: [tamper(mp.proof[0]), ...mp.proof.slice(1)] })
                  : StandardMerkleTree.verifyMultiProof(c.ours.root, c.types, {
                      ...mp,
                      proof: [tamper(mp.proof[0]), ...mp.proof.slice(1)],
                    }),
              ).ok === true;
      }
    }
  }
  out.push(r);
}
process.stdout.write(JSON.stringify(out));
