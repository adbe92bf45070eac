"""keccakx.merkle and `keccakx merkle` against OpenZeppelin's @openzeppelin/merkle-tree.

The JavaScript library itself (installed by `make test-merkle` with npm into
tests/merkle/node_modules) runs under node through oz_driver.js. Random trees
of 1 to 10^4 values of several type lists, sorted and unsorted, standard and
simple: identical roots, proofs, multiproofs and dumps byte for byte; each
side loads the other's dump; every proof verifies on both sides and a tampered
one fails on both. Bad input: clear errors on both sides.

Environment: KECCAKX_BIN (the CLI; default target/suite/keccakx), NODE (node).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from keccakx.merkle import SimpleMerkleTree, StandardMerkleTree

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BIN = os.environ.get("KECCAKX_BIN", str(ROOT / "target" / "suite" / "keccakx"))
NODE = os.environ.get("NODE", "node")

if not (HERE / "node_modules" / "@openzeppelin" / "merkle-tree").is_dir():
    pytest.exit("tests/merkle/node_modules lacks @openzeppelin/merkle-tree: run `make test-merkle`", 2)


def run_node(cases):
    path = HERE / f".cases-{os.getpid()}.json"
    path.write_text(json.dumps(cases))
    try:
        out = subprocess.run([NODE, str(HERE / "oz_driver.js"), str(path)], check=True, capture_output=True, text=True)
    finally:
        path.unlink()
    return json.loads(out.stdout)


def tamper(h: str) -> str:
    return h[:-1] + format(int(h[-1], 16) ^ 1, "x")


# Value generators per type: several spellings the JavaScript encoder takes.
def gen(t: str, r: random.Random):
    if t.endswith("[]"):
        return [gen(t[:-2], r) for _ in range(r.randint(0, 3))]
    if t.endswith("]"):
        inner, n = t[:-1].rsplit("[", 1)
        return [gen(inner, r) for _ in range(int(n))]
    if t.startswith("("):
        return [gen(x, r) for x in split(t[1:-1])]
    if t == "address":
        h = r.getrandbits(160).to_bytes(20, "big").hex()
        return "0x" + (h.upper() if r.random() < 0.2 else h)
    if t.startswith("uint"):
        bits = int(t[4:] or 256)
        v = r.getrandbits(bits)
        k = r.random()
        if k < 0.2 and v < 2**53:
            return v  # a JSON number
        if k < 0.4:
            return hex(v)
        return str(v)
    if t.startswith("int"):
        bits = int(t[3:] or 256)
        v = r.getrandbits(bits) - 2 ** (bits - 1)
        return v if (abs(v) < 2**53 and r.random() < 0.3) else str(v)
    if t == "bool":
        return r.choice([True, False, "true", "false"])
    if t.startswith("bytes") and t != "bytes":
        n = r.randint(0, int(t[5:]))
        return "0x" + r.randbytes(n).hex()
    if t == "bytes":
        return "0x" + r.randbytes(r.randint(0, 70)).hex()
    if t == "string":
        return "".join(r.choice("ab\"\\\né€😀 ,x\t\x01") for _ in range(r.randint(0, 12)))
    raise ValueError(t)


def split(s: str):
    out, depth, cur = [], 0, ""
    for c in s:
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += c == "("
        depth -= c == ")"
        cur += c
    return out + [cur]


TYPE_LISTS = [
    ["address", "uint256"],
    ["uint8", "int32", "bool", "bytes4", "uint"],
    ["string", "bytes", "address[]"],
    ["(address,uint96)", "bytes32[2]", "int256", "int"],
    ["string[]", "(string,uint256[])[]", "bool[3]"],
]
SIZES = [1, 2, 3, 7, 64, 257, 1000, 10_000]


def ours(tree, indices, multi):
    return {
        "dump": tree.dumps(),
        "root": tree.root,
        "proofs": [tree.get_proof(i) for i in indices],
        "multi": None if multi is None else tree.get_multi_proof(multi),
    }


def make_cases():
    r = random.Random(20260301)
    cases, trees = [], []
    k = 0
    for n in SIZES:
        for types in TYPE_LISTS + [None]:
            k += 1
            # The big sizes only for a few type lists (the JavaScript library
            # takes ~1 ms a value): 10^3 with a tuple, 10^4 the common pair.
            if n >= 1000 and types not in (TYPE_LISTS[0], None) and not (n == 1000 and types == TYPE_LISTS[3]):
                continue
            sort = k % 2 == 0
            if types is None:
                values = ["0x" + r.randbytes(32).hex() for _ in range(n)]
                if n > 2:
                    values[1] = values[0]  # a duplicated leaf
            else:
                values = [[gen(t, r) for t in types] for _ in range(n)]
            idx = sorted(r.sample(range(n), min(n, 12)))
            multi = sorted(r.sample(range(n), min(n, r.randint(0, 6))))
            if types is None and n > 2:
                multi = [i for i in multi if i != 1]  # the duplicate's lookup goes to value 1
            tree = (
                SimpleMerkleTree.of(values, sort_leaves=sort)
                if types is None
                else StandardMerkleTree.of(values, types, sort_leaves=sort)
            )
            cases.append({"types": types, "values": values, "sort": sort, "indices": idx, "multi": multi,
                          "ours": ours(tree, idx, multi)})
            trees.append(tree)
    return cases, trees


CASES, TREES = make_cases()
RESULTS = run_node(CASES)


@pytest.mark.parametrize("k", range(len(CASES)))
def test_same_tree_as_openzeppelin(k):
    c, t, r = CASES[k], TREES[k], RESULTS[k]
    assert "build_error" not in r, r.get("build_error")
    assert t.dumps() == r["dump"]  # byte for byte
    assert t.root == r["root"]
    assert c["ours"]["proofs"] == r["proofs"]
    assert c["ours"]["multi"] == r["multi"]
    assert [t.get_proof(c["values"][i]) for i in c["indices"][:3]] == r["value_proofs"]
    # Their side loads our dump, dumps it identically, verifies our proofs.
    assert "load_error" not in r, r.get("load_error")
    assert r["redump"] == t.dumps()
    assert all(r["ours_verify"])
    assert not any(r["ours_tampered"])
    if c["multi"] is not None and c["ours"]["multi"]["proof"]:
        assert r["ours_multi"] is True
        assert r["ours_multi_tampered"] is False
    # Our side loads their dump and verifies their proofs; tampered ones fail.
    Tree = SimpleMerkleTree if c["types"] is None else StandardMerkleTree
    theirs = Tree.load(r["dump"])
    assert theirs.dumps() == r["dump"]
    for i, p in zip(c["indices"], r["proofs"]):
        assert theirs.verify(i, p)
        args = (r["root"], c["values"][i], p) if c["types"] is None else (r["root"], c["types"], c["values"][i], p)
        assert Tree.verify(*args)
        if p:
            assert not theirs.verify(i, [tamper(p[0])] + p[1:])
    if r["multi"] is not None:
        assert theirs.verify_multi_proof(r["multi"])
        if r["multi"]["proof"]:
            bad = dict(r["multi"], proof=[tamper(r["multi"]["proof"][0])] + r["multi"]["proof"][1:])
            assert not theirs.verify_multi_proof(bad)


def csv_cell(v):
    s = json.dumps(v, ensure_ascii=False) if isinstance(v, list) else ("true" if v is True else "false" if v is False else str(v))
    if any(ch in s for ch in ',"\n\r'):
        s = '"' + s.replace('"', '""') + '"'
    return s


@pytest.mark.parametrize("k", [0, 5, 18, 27, 29, 36])
def test_cli_matches(k, tmp_path):
    """`keccakx merkle build/root/prove/verify` on the same values: JSON input
    gives the library's dump byte for byte; CSV (strings) and JSON agree with
    the Python API built over strings."""
    c, r = CASES[k], RESULTS[k]
    types = c["types"]
    vals = tmp_path / "values.json"
    vals.write_text(json.dumps(c["values"], ensure_ascii=False))
    args = ["--simple"] if types is None else ["--types", ",".join(types)]
    sort = [] if c["sort"] else ["--no-sort"]
    built_proofs = tmp_path / "built-proofs.jsonl"
    dump = subprocess.run([BIN, "merkle", "build", *args, *sort, "--proofs", str(built_proofs), str(vals)], check=True,
                          capture_output=True, text=True).stdout
    assert dump == r["dump"] + "\n"
    tree = tmp_path / "tree.json"
    tree.write_text(r["dump"])
    root = subprocess.run([BIN, "merkle", "root", str(tree)], check=True, capture_output=True, text=True).stdout.strip()
    assert root == r["root"]
    i = c["indices"][-1]
    got = json.loads(subprocess.run([BIN, "merkle", "prove", str(tree), "--index", str(i)], check=True,
                                    capture_output=True, text=True).stdout)
    assert got["proof"] == r["proofs"][-1]
    # Every proof: the CLI's lines, Python's list and file, the library's proofs.
    all_text = subprocess.run([BIN, "merkle", "prove", str(tree), "--all"], check=True, capture_output=True,
                              text=True).stdout
    # `build --proofs` writes, from the tree it built, what `prove --all` prints from the dump.
    assert built_proofs.read_text() == all_text
    lines = all_text.splitlines()
    theirs = (SimpleMerkleTree if types is None else StandardMerkleTree).load(r["dump"])
    every = theirs.get_all_proofs()
    assert [json.loads(x)["proof"] for x in lines] == every
    theirs.write_all_proofs(tmp_path / "proofs.jsonl")
    assert [json.loads(x) for x in (tmp_path / "proofs.jsonl").read_text().splitlines()] == every
    assert [every[j] for j in c["indices"]] == r["proofs"]
    value = json.dumps(c["values"][i], ensure_ascii=False)
    ok = subprocess.run([BIN, "merkle", "verify", "--root", root, *args, "--value", value, "--proof", ",".join(got["proof"])],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout == "OK\n"
    if got["proof"]:
        bad = subprocess.run([BIN, "merkle", "verify", "--root", root, *args, "--value", value, "--proof",
                              ",".join([tamper(got["proof"][0])] + got["proof"][1:])], capture_output=True, text=True)
        assert bad.returncode == 1 and bad.stdout == "FAILED\n"
    # CSV: every scalar cell is a string; the Python API over the same strings.
    csv = tmp_path / "values.csv"
    rows = c["values"] if types is not None else [[v] for v in c["values"]]
    csv.write_text("".join(",".join(csv_cell(x) for x in row) + "\n" for row in rows), encoding="utf-8")
    if types is None or all(t in ("address", "uint256", "int256", "int", "bytes32[2]") or t.startswith("(") for t in types):
        got = subprocess.run([BIN, "merkle", "build", *args, *sort, str(csv)], check=True, capture_output=True, text=True).stdout
        def stringify(v):
            return [stringify(x) for x in v] if isinstance(v, list) else v
        strs = [[stringify(x) if isinstance(x, list) else csv_str(x) for x in row] for row in rows]
        want = (SimpleMerkleTree.of([s[0] for s in strs], sort_leaves=c["sort"]) if types is None
                else StandardMerkleTree.of(strs, types, sort_leaves=c["sort"])).dumps()
        assert got == want + "\n"
        assert json.loads(got)["tree"][0] == r["root"]


def csv_str(x):
    return "true" if x is True else "false" if x is False else str(x)


BAD_DUMPS = [
    ("not json", "{"),
    ("unknown format", '{"format":"standard-v2","leafEncoding":["uint8"],"tree":[],"values":[]}'),
    ("no encoding", '{"format":"standard-v1","tree":[],"values":[]}'),
]


def test_bad_input_both_sides(tmp_path):
    t = StandardMerkleTree.of([["0x01", "1"], ["0x02", "2"], ["0x03", "3"]], ["address", "uint8"])
    d = t.dump()
    # A dump whose tree does not validate: a changed inner node, a value not
    # at its leaf, a value that points at an inner node (proof of a non-leaf).
    broken = []
    x = json.loads(json.dumps(d))
    x["tree"][0] = "0x" + "00" * 32
    broken.append(x)
    x = json.loads(json.dumps(d))
    x["values"][0]["value"][1] = "9"
    broken.append(x)
    x = json.loads(json.dumps(d))
    x["values"][0]["treeIndex"] = 0
    broken.append(x)
    cases = [{"types": ["address", "uint8"], "values": [["0x01", "1"]], "sort": True, "indices": [], "multi": None,
              "ours": {"dump": json.dumps(b), "root": t.root, "proofs": [], "multi": None}} for b in broken]
    # Values the types refuse, and an empty tree: both sides refuse to build.
    refused = [
        (["uint8"], [["256"]]), (["int8"], [["-129"]]), (["address"], [["0x" + "11" * 21]]),
        (["address"], [["1111"]]), (["bool"], [["yes"]]), (["bytes2"], [["0x112233"]]),
        (["uint8"], [["1", "2"]]), (["uint7"], [["1"]]), (["uint8"], []),
    ]
    for types, values in refused:
        cases.append({"types": types, "values": values, "sort": True, "indices": [], "multi": None, "ours": None})
    res = run_node(cases)
    for b, r in zip(broken, res):
        assert "load_error" in r
        with pytest.raises(ValueError, match="Merkle tree"):
            StandardMerkleTree.load(b)
    for (types, values), r in zip(refused, res[len(broken):]):
        assert "build_error" in r, (types, values)
        with pytest.raises(ValueError):
            StandardMerkleTree.of(values, types)
    with pytest.raises(ValueError, match="Expected non-zero number of leaves"):
        SimpleMerkleTree.of([])
    with pytest.raises(ValueError, match="Index out of bounds"):
        t.get_proof(3)
    with pytest.raises(ValueError, match="Leaf is not in tree"):
        t.get_proof(["0x04", "4"])
    with pytest.raises(ValueError, match="Cannot prove duplicated index"):
        t.get_multi_proof([1, 1])
    with pytest.raises(ValueError, match="Leaf values cannot be numbers"):
        SimpleMerkleTree.of([5])
    with pytest.raises(ValueError, match="Invalid multiproof format"):
        t.verify_multi_proof({"leaves": [], "proof": [], "proofFlags": [False]})
    for what, text in BAD_DUMPS:
        with pytest.raises(ValueError):
            StandardMerkleTree.load(text)
    with pytest.raises(ValueError, match="Unknown format"):
        SimpleMerkleTree.load(t.dumps())
    # The CLI: clear messages, status 2 for bad data, 1 for a missing file.
    vals = tmp_path / "v.csv"
    vals.write_text("0x01,256\n")
    p = subprocess.run([BIN, "merkle", "build", "--types", "address,uint8", str(vals)], capture_output=True, text=True)
    assert p.returncode == 2 and "out of range" in p.stderr and p.stdout == ""
    p = subprocess.run([BIN, "merkle", "build", "--types", "address,uint8", str(tmp_path / "nope.csv")], capture_output=True, text=True)
    assert p.returncode == 1 and "nope.csv" in p.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken[0]))
    p = subprocess.run([BIN, "merkle", "root", str(bad)], capture_output=True, text=True)
    assert p.returncode == 2 and "Merkle tree is invalid" in p.stderr


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
