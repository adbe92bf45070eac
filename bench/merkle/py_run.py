"""The Python peer of bench/merkle: keccakx.merkle builds the tree over
VALUES.json, takes its root and every value's proof, and writes the dump and
the proofs, as an application would."""
import json
import sys

from keccakx.merkle import StandardMerkleTree

values_path, outdir = sys.argv[1:3]
with open(values_path) as f:
    values = json.load(f)
tree = StandardMerkleTree.of(values, ["address", "uint256"])
root = tree.root
with open(f"{outdir}/tree.json", "w") as f:
    f.write(tree.dumps())
tree.write_all_proofs(f"{outdir}/proofs.jsonl")
print(root)
