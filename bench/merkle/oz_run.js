// The JavaScript peer of bench/merkle: @openzeppelin/merkle-tree builds the
// tree over VALUES.json, takes its root and every value's proof, and writes
// the dump (JSON.stringify) and the proofs, as an application would.
"use strict";
const fs = require("fs");
const { StandardMerkleTree } = require("@openzeppelin/merkle-tree");
const [values, outdir] = process.argv.slice(2);
const v = JSON.parse(fs.readFileSync(values, "utf8"));
const tree = StandardMerkleTree.of(v, ["address", "uint256"]);
const root = tree.root;
fs.writeFileSync(`${outdir}/tree.json`, JSON.stringify(tree.dump()));
// One JSON array per line (a million proofs exceed V8's longest string).
const fd = fs.openSync(`${outdir}/proofs.jsonl`, "w");
let buf = [];
for (let i = 0; i < v.length; i++) {
  buf.push(JSON.stringify(tree.getProof(i)));
  if (buf.length === 4096 || i === v.length - 1) {
    fs.writeSync(fd, buf.join("\n") + "\n");
    buf = [];
  }
}
fs.closeSync(fd);
process.stdout.write(root + "\n");
