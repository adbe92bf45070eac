#!/usr/bin/env python3
"""Code size of every row and form of the 2012 study (its Table III).

  size.py RESULT.json

Builds bench/finalists/size (one exported entry per row and form) for size
(opt-level "s", fat LTO, panic=abort) on each target, links every entry alone
with rust-lld --gc-sections, and counts the bytes of the loadable sections
(.text, .rodata, .data, .ARM.exidx...: the flash footprint) that the entry
pulls in ("total"), and the bytes of the sized symbols (functions and named
tables) of the finalists and keccakx crates among them ("ours"; constants
the compiler turned into anonymous read-only data are only in "total").
Adds "code_size" to RESULT.json.

Targets: thumbv6m-none-eabi (Cortex-M0/M0+, the smallest core Rust builds
for here) and thumbv7em-none-eabihf (Cortex-M4F), no_std, if `rustup target
add` can install their core library; x86_64-unknown-linux-gnu with std (so the
two-thread forms exist and the SIMD forms carry their run-time dispatch).
"""
import glob
import json
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
TARGET_DIR = os.path.join(ROOT, "target", "finalists-size")
ROWS = [("MD5", "md5"), ("SHA-1", "sha1"), ("SHA-256", "sha256"), ("BLAKE-32", "blake256"),
        ("Grøstl-256", "groestl256"), ("JH-256", "jh256"), ("Keccak-256", "keccak256"),
        ("Skein-512-256", "skein512_256"), ("RC5", "rc5")]
BUILDS = [  # (target, cargo features, forms)
    ("thumbv6m-none-eabi", [], ["sequential"]),
    ("thumbv7em-none-eabihf", [], ["sequential"]),
    ("x86_64-unknown-linux-gnu", ["--features", "std"], ["sequential", "parallel", "two_threads"]),
]
RUNTIME = re.compile(r"^<?(core|alloc|std|compiler_builtins)::")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def lld():
    sysroot = run(["rustc", "--print", "sysroot"]).stdout.strip()
    hits = glob.glob(os.path.join(sysroot, "lib", "rustlib", "*", "bin", "rust-lld"))
    return hits[0] if hits else None


def alloc_bytes(path):
    """Sum of SHF_ALLOC, non-NOBITS section sizes of an ELF file (32 or 64 bit, LE)."""
    b = open(path, "rb").read()
    is64 = b[4] == 2
    if is64:
        shoff, = struct.unpack_from("<Q", b, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", b, 0x3A)
    else:
        shoff, = struct.unpack_from("<I", b, 0x20)
        shentsize, shnum = struct.unpack_from("<HH", b, 0x2E)
    total = 0
    for i in range(shnum):
        o = shoff + i * shentsize
        if is64:
            _, typ, flags, _, _, size = struct.unpack_from("<IIQQQQ", b, o)
        else:
            _, typ, flags, _, _, size = struct.unpack_from("<IIIIII", b, o)
        if flags & 2 and typ != 8:  # SHF_ALLOC, not SHT_NOBITS
            total += size
    return total


OURS = re.compile(r"finalists|keccakx|^size_")


def ours_bytes(path):
    """Bytes of the sized symbols (functions, named tables) of our crates."""
    out = run(["nm", "-S", "-C", path]).stdout
    total = 0
    for line in out.splitlines():
        parts = line.split(" ", 3)
        if len(parts) == 4 and OURS.search(parts[3]) and not RUNTIME.search(parts[3]):
            total += int(parts[1], 16)
    return total


def main():
    res_path = sys.argv[1]
    res = json.load(open(res_path))
    linker = lld()
    report = {"method": __doc__.split("\n\n")[1].replace("\n", " "), "targets": {}}
    installed = run(["rustup", "target", "list", "--installed"]).stdout.split()
    for target, feats, forms in BUILDS:
        entry = {"forms": forms}
        if target not in installed:
            r = run(["rustup", "target", "add", target])
            if r.returncode != 0:
                entry["unavailable"] = f"rustup target add {target} failed: {r.stderr.strip()[-300:]}"
                print(f"size: {target}: {entry['unavailable']}", file=sys.stderr)
                report["targets"][target] = entry
                continue
        env = dict(os.environ, CARGO_TARGET_DIR=TARGET_DIR)
        env.pop("RUSTFLAGS", None)
        r = run(["cargo", "build", "--release", "--target", target] + feats, cwd=os.path.join(HERE, "size"), env=env)
        if r.returncode != 0 or linker is None:
            entry["unavailable"] = f"build failed: {r.stderr.strip()[-600:]}" if r.returncode else "rust-lld not found"
            print(f"size: {target}: {entry['unavailable']}", file=sys.stderr)
            report["targets"][target] = entry
            continue
        lib = os.path.join(TARGET_DIR, target, "release", "libfinalists_size.a")
        sizes = {}
        for name, key in ROWS:
            for form in forms:
                sym = f"size_{key}_{form}"
                elf = os.path.join(TARGET_DIR, f"{target}-{sym}.elf")
                r = run([linker, "-flavor", "gnu", "--gc-sections", "-e", sym,
                         "--unresolved-symbols=ignore-all", "-o", elf, lib])
                if r.returncode != 0:
                    print(f"size: {target} {sym}: link failed: {r.stderr[-300:]}", file=sys.stderr)
                    continue
                total, ours = alloc_bytes(elf), ours_bytes(elf)
                sizes.setdefault(name, {})[form.replace("_", "-")] = {"total": total, "ours": ours}
        entry["rustc"] = run(["rustc", "--version"]).stdout.strip()
        entry["sizes"] = sizes
        report["targets"][target] = entry
        print(f"size: {target}: " + ", ".join(f"{n} {v.get('sequential', {}).get('total')}" for n, v in sizes.items()), file=sys.stderr)
    res["code_size"] = report
    json.dump(res, open(res_path, "w"), indent=2, ensure_ascii=False)


if __name__ == "__main__":
    main()
