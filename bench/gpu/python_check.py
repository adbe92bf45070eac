"""GPU-machine step of run-on-gpu.sh: the keccakx Python module (built by
bench/gpu/pack.sh, abi3) hashes CuPy arrays and PyTorch CUDA tensors in
place; every result is compared with keccakx on the CPU, then SHA3-256 of
10^6 64-byte rows is timed. Prints one JSON object on the last line; exit
status 1 when a digest differs."""

import json
import sys
import time

import keccakx

CASES = [
    ("sha3_256", {}),
    ("sha3_512", {}),
    ("keccak_256", {}),
    ("shake128", {"digest_size": 100}),
    ("turboshake256", {"digest_size": 64, "domain": 0x23}),
]

result = {"keccakx_backends": keccakx.backends(), "libraries": {}}
ok = True


def check(lib, to_device, to_host, sync):
    global ok
    import numpy as np

    rng = np.random.default_rng(7)
    rec = {"checked": 0, "mismatches": 0}
    for rows, cols in [(1, 0), (33, 135), (1000, 136), (4097, 137), (20000, 64)]:
        host = rng.integers(0, 256, size=(rows, cols), dtype=np.uint8)
        dev = to_device(host)
        for name, params in CASES:
            want = keccakx.hash_many(host, name, **params)
            got = to_host(keccakx.hash_many(dev, name, **params))
            rec["checked"] += 1
            if not np.array_equal(np.asarray(got), want):
                rec["mismatches"] += 1
                ok = False
                print(f"{lib}: MISMATCH {name} rows={rows} cols={cols}", file=sys.stderr)
    n = 1 << 20
    host = rng.integers(0, 256, size=(n, 64), dtype=np.uint8)
    dev = to_device(host)
    keccakx.hash_many(dev, "sha3_256")
    sync()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        keccakx.hash_many(dev, "sha3_256")
        sync()
        best = min(best, time.perf_counter() - t)
    rec["sha3_256_64B_device_bytes_per_s"] = n * 64 / best
    rec["sha3_256_64B_device_messages"] = n
    t = time.perf_counter()
    keccakx.hash_many(host, "sha3_256")
    rec["sha3_256_64B_cpu_bytes_per_s"] = n * 64 / (time.perf_counter() - t)
    # Merkle trees of device leaves (keccakx.merkle.device_tree) against the
    # same leaves built on the host, unsorted (the device keeps leaf order).
    from keccakx.merkle import SimpleMerkleTree, device_tree

    for n in (1, 2, 3, 1000, 65537):
        leaves = rng.integers(0, 256, size=(n, 32), dtype=np.uint8)
        want = SimpleMerkleTree.of(["0x" + r.tobytes().hex() for r in leaves], sort_leaves=False,
                                   backend="cpu")
        root, nodes = device_tree(to_device(leaves), nodes=True)
        rec["checked"] += 1
        if root != want.root or nodes != want.dump()["tree"]:
            rec["mismatches"] += 1
            ok = False
            print(f"{lib}: MISMATCH device_tree n={n}", file=sys.stderr)
    return rec


try:
    import cupy

    result["libraries"]["cupy"] = check(
        "cupy", cupy.asarray, cupy.asnumpy, cupy.cuda.Device().synchronize
    )
    result["libraries"]["cupy"]["version"] = cupy.__version__
except Exception as e:  # a missing or broken library is reported, not fatal
    result["libraries"]["cupy"] = {"error": f"{type(e).__name__}: {e}"}

try:
    import torch

    if not torch.cuda.is_available():
        raise RuntimeError("torch.cuda.is_available() is False")
    result["libraries"]["torch"] = check(
        "torch",
        lambda a: torch.from_numpy(a).cuda(),
        lambda t: t.cpu().numpy(),
        torch.cuda.synchronize,
    )
    result["libraries"]["torch"]["version"] = torch.__version__
except Exception as e:
    result["libraries"]["torch"] = {"error": f"{type(e).__name__}: {e}"}

# Host-fed GPU hashing of host arrays (keccakx.gpu_hash_many): staged,
# registered for the call, and from CuPy's pinned memory (page-locked).
try:
    import numpy as np

    data = np.random.default_rng(9).integers(0, 256, size=(20000, 1000), dtype=np.uint8)
    want = keccakx.hash_many(data, "sha3_256")
    rec = {}
    arrays = [("staged", data, False), ("registered", data, True)]
    try:
        import cupyx

        pinned = cupyx.empty_pinned(data.shape, dtype=np.uint8)
        pinned[...] = data
        arrays.append(("cupy_pinned", pinned, False))
    except Exception as e:
        rec["cupy_pinned_error"] = f"{type(e).__name__}: {e}"
    for label, arr, reg in arrays:
        got, how = keccakx.gpu_hash_many(arr, "sha3_256", register=reg, how=True)
        same = bool(np.array_equal(got, want))
        rec[label] = {"input": how, "matches_cpu": same}
        if not same:
            ok = False
            print(f"gpu_hash_many: MISMATCH {label}", file=sys.stderr)
    result["gpu_hash_many"] = rec
except Exception as e:
    result["gpu_hash_many"] = {"error": f"{type(e).__name__}: {e}"}
    ok = False

result["ok"] = ok
print(json.dumps(result))
sys.exit(0 if ok else 1)
