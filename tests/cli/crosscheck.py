#!/usr/bin/env python3
"""Cross-check `keccakx sum -a X` against other implementations.

Random files (seeded; edge sizes around the rates and KT's 8192-byte chunks,
one above the 64 KiB memory-map threshold) are hashed by the CLI, many files
per call (the parallel path) and one through standard input, and every digest
is compared with:

* Python's hashlib: SHA3-224/256/384/512, SHAKE128/256;
* pycryptodome: Keccak-224/256/384/512, cSHAKE128/256, KMAC128/256,
  TupleHash128/256, TurboSHAKE128/256, KangarooTwelve (KT128);
* functions pycryptodome lacks, built by their definitions from its cSHAKE
  with a function name (its internal `_new`; skipped if absent), TurboSHAKE
  and hashlib's SHAKE: KMACXOF128/256, TupleHashXOF128/256,
  ParallelHash128/256 and their XOFs, KT128 and KT256 (RFC 9861), and cSHAKE
  with N = "KMAC" against pycryptodome's KMAC;
* raw `-a keccak` parameter sets that equal one of the above;
* tree mode LI: the project's independent Python reference tests/tree_li_ref.py.

Anything that cannot be checked with the installed versions is listed.
Exit status 1 on any mismatch.

Usage: crosscheck.py [--bin PATH] [--seed N] [--quick]
"""

import argparse
import hashlib
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))


def left_encode(x):
    b = x.to_bytes(max(1, (x.bit_length() + 7) // 8), "big")
    return bytes([len(b)]) + b


def right_encode(x):
    b = x.to_bytes(max(1, (x.bit_length() + 7) // 8), "big")
    return b + bytes([len(b)])


def bytepad(x, w):
    z = left_encode(w) + x
    return z + b"\0" * (-len(z) % w)


def cshake_n(module, data, n_bytes, function, custom):
    """cSHAKE with a function name N through pycryptodome's internal
    constructor (its public one fixes N = ""); None if it is not there."""
    new = getattr(module, "_new", None)
    if new is None:
        return None
    return new(data, custom, function).read(n_bytes)


def kt_ref(turboshake, cv_len, data, custom, n):
    """RFC 9861 §3 (KT128 / KT256) built on TurboSHAKE (pycryptodome)."""
    def length_encode(x):
        b = x.to_bytes((x.bit_length() + 7) // 8, "big") if x else b""
        return b + bytes([len(b)])

    s = data + custom + length_encode(len(custom))
    if len(s) <= 8192:
        return turboshake.new(domain=0x07, data=s).read(n)
    chunks = [s[i : i + 8192] for i in range(0, len(s), 8192)]
    node = chunks[0] + b"\x03" + b"\0" * 7
    node += b"".join(turboshake.new(domain=0x0B, data=x).read(cv_len) for x in chunks[1:])
    node += length_encode(len(chunks) - 1) + b"\xff\xff"
    return turboshake.new(domain=0x06, data=node).read(n)


def parallelhash_ref(cs, shake, cv_len, data, block, n, custom, xof):
    """SP 800-185 §6.3, built from cSHAKE (pycryptodome) and SHAKE (hashlib):
    the inner cSHAKE(X_i, 2c, "", "") is SHAKE(X_i)."""
    blocks = [data[i : i + block] for i in range(0, len(data), block)]
    z = left_encode(block) + b"".join(shake(x).digest(cv_len) for x in blocks)
    z += right_encode(len(blocks)) + right_encode(0 if xof else n * 8)
    return cshake_n(cs, z, n, b"ParallelHash", custom)


def default_bin():
    if os.environ.get("KECCAKX_BIN"):
        return os.environ["KECCAKX_BIN"]
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    return os.path.join(target, "release", "keccakx")


class Checker:
    def __init__(self, binary, files, datas):
        self.bin = binary
        self.files = files
        self.datas = datas
        self.compared = 0
        self.calls = 0
        self.failures = []
        self.algorithms = set()

    def cli(self, args, files, stdin=None):
        self.calls += 1
        p = subprocess.run(
            [self.bin, "sum"] + args + files,
            input=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        if p.returncode != 0:
            raise RuntimeError("keccakx sum %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr.decode()))
        lines = p.stdout.decode().splitlines()
        return [bytes.fromhex(l.split(" ", 1)[0]) for l in lines]

    def check(self, label, args, ref, algo, max_size=None, stdin=True):
        """Hash every file (up to max_size bytes) with `keccakx sum ARGS` and
        compare with ref(data)."""
        self.algorithms.add(algo)
        picked = [(f, d) for f, d in zip(self.files, self.datas) if max_size is None or len(d) <= max_size]
        got = self.cli(args, [f for f, _ in picked])
        if len(got) != len(picked):
            self.failures.append("%s: %d lines for %d files" % (label, len(got), len(picked)))
            return
        for (f, d), g in zip(picked, got):
            want = ref(d)
            self.compared += 1
            if g != want:
                self.failures.append("%s: %s (%d bytes): keccakx %s, reference %s" % (label, os.path.basename(f), len(d), g.hex(), want.hex()))
        if stdin and picked:
            f, d = picked[-1]
            (g,) = self.cli(args, [], stdin=d)
            self.compared += 1
            if g != ref(d):
                self.failures.append("%s: stdin (%d bytes) differs" % (label, len(d)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=default_bin())
    ap.add_argument("--seed", type=int, default=int(os.environ.get("CROSSCHECK_SEED", "20240805")))
    ap.add_argument("--quick", action="store_true", help="fewer random files")
    a = ap.parse_args()
    if not os.access(a.bin, os.X_OK):
        sys.exit("crosscheck: %s is not an executable (build with `cargo build --release -p keccakx-cli` or pass --bin)" % a.bin)

    rng = random.Random(a.seed)
    sizes = [0, 1, 2, 71, 72, 73, 135, 136, 137, 167, 168, 169, 1000, 8191, 8192, 8193, 16385, 70000]
    sizes += [rng.randrange(0, 20000) for _ in range(2 if a.quick else 6)]
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="keccakx-crosscheck-") as tmp:
        files, datas = [], []
        for i, n in enumerate(sizes):
            d = rng.randbytes(n)
            f = os.path.join(tmp, "f%03d-%d.bin" % (i, n))
            with open(f, "wb") as fh:
                fh.write(d)
            files.append(f)
            datas.append(d)
        c = Checker(a.bin, files, datas)
        skipped = []

        # --- hashlib -------------------------------------------------------
        for bits in (224, 256, 384, 512):
            c.check("sha3-%d" % bits, ["-a", "sha3-%d" % bits], lambda d, b=bits: hashlib.new("sha3_%d" % b, d).digest(), "sha3-%d" % bits)
        for n in (1, 32, 64, 200, 1000):
            c.check("shake128 -l %d" % n, ["-a", "shake128", "-l", str(n)], lambda d, n=n: hashlib.shake_128(d).digest(n), "shake128")
            c.check("shake256 -l %d" % n, ["-a", "shake256", "-l", str(n)], lambda d, n=n: hashlib.shake_256(d).digest(n), "shake256")
        c.check("shake256 default", ["-a", "shake256"], lambda d: hashlib.shake_256(d).digest(64), "shake256")
        # cSHAKE with empty N and S is SHAKE.
        c.check("cshake128 (empty N, S)", ["-a", "cshake128", "-l", "48"], lambda d: hashlib.shake_128(d).digest(48), "cshake128")
        # Raw Keccak[r, c] with the standard suffixes.
        c.check("keccak r=1088 c=512 suffix 0x06", ["-a", "keccak", "--rate", "1088", "--capacity", "512", "--suffix", "0x06"], lambda d: hashlib.sha3_256(d).digest(), "keccak")
        c.check("keccak r=576 suffix 0x06 -l 64", ["-a", "keccak", "--rate", "576", "--suffix", "6", "-l", "64"], lambda d: hashlib.sha3_512(d).digest(), "keccak")
        c.check("keccak c=256 suffix 0x1F -l 77", ["-a", "keccak", "--capacity", "256", "--suffix", "0x1f", "-l", "77"], lambda d: hashlib.shake_128(d).digest(77), "keccak")

        # --- pycryptodome --------------------------------------------------
        try:
            import Crypto
            from Crypto.Hash import keccak as pc_keccak
        except ImportError:
            sys.exit("crosscheck: pycryptodome is not installed (pip install pycryptodome; `make test-cli` does it)")
        print("crosscheck: pycryptodome %s, Python %s" % (".".join(map(str, Crypto.version_info)), sys.version.split()[0]))
        H = __import__("Crypto.Hash", fromlist=["*"])

        def have(name):
            try:
                __import__("Crypto.Hash." + name)
                return getattr(H, name, None) or sys.modules["Crypto.Hash." + name]
            except ImportError:
                skipped.append("%s (not in this pycryptodome)" % name)
                return None

        for bits in (224, 256, 384, 512):
            c.check("keccak-%d" % bits, ["-a", "keccak-%d" % bits], lambda d, b=bits: pc_keccak.new(digest_bits=b, data=d).digest(), "keccak-%d" % bits)
        c.check("keccak r=1088 c=512 (Keccak-256)", ["-a", "keccak", "--rate", "1088", "--capacity", "512"], lambda d: pc_keccak.new(digest_bits=256, data=d).digest(), "keccak")

        for name, cli in (("cSHAKE128", "cshake128"), ("cSHAKE256", "cshake256")):
            m = have(name)
            if m:
                for s, n in ((b"Email Signature", 32), (b"", 100), (b"x" * 200, 7)):
                    args = ["-a", cli, "-l", str(n)] + (["--customization", s.decode()] if s else [])
                    c.check("%s S=%r -l %d" % (cli, s[:16], n), args, lambda d, m=m, s=s, n=n: m.new(data=d, custom=s).read(n), cli)
        # cSHAKE with a function name N: KMAC is cSHAKE with N = "KMAC" over
        # bytepad(encode_string(K), rate) || X || right_encode(L) (SP 800-185 §4.3).
        kmac = have("KMAC128")
        if kmac:
            key = b"function-name key"
            prefix = bytepad(left_encode(len(key) * 8) + key, 168)
            n = 40
            kfiles, kdatas = [], []
            for f, d in zip(files, datas):
                if len(d) <= 20000:
                    kf = f + ".kmac-input"
                    with open(kf, "wb") as fh:
                        fh.write(prefix + d + right_encode(n * 8))
                    kfiles.append(kf)
                    kdatas.append(d)
            got = c.cli(["-a", "cshake128", "--function-name", "KMAC", "--customization", "app", "-l", str(n)], kfiles)
            c.algorithms.add("cshake128")
            for kf, d, g in zip(kfiles, kdatas, got):
                c.compared += 1
                want = kmac.new(key=key, data=d, mac_len=n, custom=b"app").digest()
                if g != want:
                    c.failures.append("cshake128 N=KMAC: %s differs" % os.path.basename(kf))

        for name, cli in (("KMAC128", "kmac128"), ("KMAC256", "kmac256")):
            m = have(name)
            if m:
                key = bytes(range(0x40, 0x60))
                keyfile = os.path.join(tmp, "key.bin")
                with open(keyfile, "wb") as fh:
                    fh.write(key)
                for s, n in ((b"My Tagged Application", 32), (b"", 64), (b"S", 9)):
                    args = ["-a", cli, "-l", str(n), "--key-file", keyfile] + (["--customization", s.decode()] if s else [])
                    c.check("%s S=%r -l %d" % (cli, s, n), args, lambda d, m=m, s=s, n=n: m.new(key=key, data=d, mac_len=n, custom=s).digest(), cli)
                args = ["-a", cli, "--key-hex", key.hex()]
                dl = 32 if cli == "kmac128" else 64
                c.check("%s --key-hex" % cli, args, lambda d, m=m, dl=dl: m.new(key=key, data=d, mac_len=dl).digest(), cli)
        # KMACXOF: cSHAKE(N = "KMAC") ending in right_encode(0).
        for name, cli, rate in (("cSHAKE128", "kmacxof128", 168), ("cSHAKE256", "kmacxof256", 136)):
            cs = have(name)
            key = bytes(range(32))
            if cs and cshake_n(cs, b"", 1, b"KMAC", b"") is not None:
                for s_, n in ((b"", 32), (b"xof app", 100)):
                    args = ["-a", cli, "--key-hex", key.hex(), "-l", str(n)] + (["--customization", s_.decode()] if s_ else [])
                    ref = lambda d, cs=cs, s_=s_, n=n, rate=rate: cshake_n(cs, bytepad(left_encode(256) + key, rate) + d + right_encode(0), n, b"KMAC", s_)
                    c.check("%s S=%r -l %d" % (cli, s_, n), args, ref, cli)
            else:
                skipped.append("%s (this pycryptodome has no cSHAKE with a function name)" % cli)

        for name, cli in (("TupleHash128", "tuplehash128"), ("TupleHash256", "tuplehash256")):
            m = have(name)
            if m:
                for s, n in ((b"", 32), (b"My Tuple App", 64), (b"", 8), (b"z", 100)):
                    args = ["-a", cli, "-l", str(n)] + (["--customization", s.decode()] if s else [])

                    def ref(d, m=m, s=s, n=n):
                        h = m.new(digest_bytes=n, custom=s)
                        h.update(d)  # the whole file is one tuple element
                        return h.digest()

                    c.check("%s S=%r -l %d" % (cli, s, n), args, ref, cli)
        # TupleHashXOF: cSHAKE(N = "TupleHash") over encode_string(X) || right_encode(0).
        for name, cli in (("cSHAKE128", "tuplehashxof128"), ("cSHAKE256", "tuplehashxof256")):
            cs = have(name)
            if cs and cshake_n(cs, b"", 1, b"TupleHash", b"") is not None:
                for s_, n in ((b"", 32), (b"T", 77)):
                    args = ["-a", cli, "-l", str(n)] + (["--customization", s_.decode()] if s_ else [])
                    ref = lambda d, cs=cs, s_=s_, n=n: cshake_n(cs, left_encode(len(d) * 8) + d + right_encode(0), n, b"TupleHash", s_)
                    c.check("%s S=%r -l %d" % (cli, s_, n), args, ref, cli)
            else:
                skipped.append("%s (this pycryptodome has no cSHAKE with a function name)" % cli)
        # ParallelHash and ParallelHashXOF from cSHAKE and hashlib's SHAKE.
        for name, bits, shake, cv in (("cSHAKE128", 128, hashlib.shake_128, 32), ("cSHAKE256", 256, hashlib.shake_256, 64)):
            cs = have(name)
            if not (cs and cshake_n(cs, b"", 1, b"ParallelHash", b"") is not None):
                skipped.append("ParallelHash%d (this pycryptodome has no cSHAKE with a function name)" % bits)
                continue
            for xof in (False, True):
                cli = "parallelhash%s%d" % ("xof" if xof else "", bits)
                for block, s_, n in ((8192, b"", 32), (1000, b"Parallel Data", 64), (1, b"", 20)):
                    args = ["-a", cli, "--block-size", str(block), "-l", str(n)] + (["--customization", s_.decode()] if s_ else [])
                    ref = lambda d, cs=cs, shake=shake, cv=cv, block=block, s_=s_, n=n, xof=xof: parallelhash_ref(cs, shake, cv, d, block, n, s_, xof)
                    c.check("%s B=%d S=%r -l %d" % (cli, block, s_, n), args, ref, cli, max_size=None if block > 1 else 9000)

        for name, cli, rate in (("TurboSHAKE128", "turboshake128", 1344), ("TurboSHAKE256", "turboshake256", 1088)):
            m = have(name)
            if m:
                for dom, n in ((0x1F, 32), (0x01, 64), (0x06, 200), (0x7F, 17)):
                    args = ["-a", cli, "-l", str(n), "--domain", "0x%02x" % dom]
                    c.check("%s D=0x%02x -l %d" % (cli, dom, n), args, lambda d, m=m, dom=dom, n=n: m.new(domain=dom, data=d).read(n), cli)
                # Raw Keccak-p[1600, 12] sponge with the domain byte as suffix.
                args = ["-a", "keccak", "--rate", str(rate), "--rounds", "12", "--suffix", "0x0b", "-l", "40"]
                c.check("keccak r=%d rounds 12 suffix 0x0b" % rate, args, lambda d, m=m: m.new(domain=0x0B, data=d).read(40), "keccak")

        m = have("KangarooTwelve")
        if m:
            for s, n in ((b"", 32), (b"abc", 64), (b"", 1000)):
                args = ["-a", "kt128", "-l", str(n)] + (["--customization", s.decode()] if s else [])
                c.check("kt128 C=%r -l %d" % (s, n), args, lambda d, m=m, s=s, n=n: m.new(data=d, custom=s).read(n), "kt128")
        # KT128 and KT256 from TurboSHAKE by RFC 9861's definition as well.
        for name, cli, cv in (("TurboSHAKE128", "kt128", 32), ("TurboSHAKE256", "kt256", 64)):
            ts = have(name)
            if ts:
                for s_, n in ((b"", cv), (b"custom", 40)):
                    args = ["-a", cli, "-l", str(n)] + (["--customization", s_.decode()] if s_ else [])
                    ref = lambda d, ts=ts, cv=cv, s_=s_, n=n: kt_ref(ts, cv, d, s_, n)
                    c.check("%s (from TurboSHAKE) C=%r -l %d" % (cli, s_, n), args, ref, cli)

        # --- tree mode LI against the independent Python reference ---------
        import tree_li_ref as ref

        tree_cases = [
            ((), {}),
            (("--height", "0"), {"height": 0}),
            (("--degree", "2", "--height", "1", "-l", "64"), {"degree": 2, "height": 1}),
            (("--height", "2", "--block-size", "7", "--prefix", "key"), {"height": 2, "block_size": 7, "prefix": b"key"}),
            (("--degree", "3", "--height", "2", "--rate", "1024", "--prefix-hex", "00ff", "-l", "100"), {"degree": 3, "height": 2, "rate_bits": 1024, "prefix": b"\x00\xff"}),
        ]
        for args, kw in tree_cases:
            n = int(args[args.index("-l") + 1]) if "-l" in args else 32
            p = ref.Params(**kw)
            c.check("tree-li %s" % " ".join(args), ["-a", "tree-li"] + list(args), lambda d, p=p, n=n: ref.tree_li(p, d, n), "tree-li", max_size=9000)

        dt = time.time() - t0
        print("crosscheck: %d digests compared over %d keccakx runs, %d algorithms (%s), seed %d, %.1f s"
              % (c.compared, c.calls, len(c.algorithms), ", ".join(sorted(c.algorithms)), a.seed, dt))
        for s in skipped:
            print("crosscheck: not cross-checked: %s" % s)
        if c.failures:
            for f in c.failures[:50]:
                print("MISMATCH " + f)
            print("crosscheck: %d mismatches" % len(c.failures))
            return 1
        print("crosscheck: all digests agree")
        return 0


if __name__ == "__main__":
    sys.exit(main())
