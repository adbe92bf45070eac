#!/usr/bin/env python3
"""Writes every generated file of hw/rtl/gen/ (nothing else is in it):

  codegen/gen_tops.py          the top of each core in hw/cores.py: the study
                               cores' <algo>_stream.v (hash_stream.v and the
                               core) and the Keccak cores' sha3_<name>.v
  codegen/gen_round.py         the Keccak round, theta, rho-pi-chi-iota and
                               folded-datapath files
  codegen/gen_study_consts.py  the study cores' constant tables and the
                               straight-line Grøstl and JH rounds

`--check` writes nothing and exits 1 when a file in hw/rtl/gen/ is not what
the generators write (edited by hand, stale, missing, or left over); `make
test-hw` runs it.
"""

import argparse
import sys
from pathlib import Path

HW = Path(__file__).resolve().parent
sys.path.insert(0, str(HW))
sys.path.insert(0, str(HW / "codegen"))
import cores  # noqa: E402
import gen_round  # noqa: E402
import gen_study_consts  # noqa: E402
import gen_tops  # noqa: E402

GENERATORS = {"codegen/gen_tops.py": gen_tops.files,
              "codegen/gen_round.py": gen_round.files,
              "codegen/gen_study_consts.py": gen_study_consts.files}


def generated():
    """{file name: (text, generator)} of every generated file."""
    out = {}
    for gen, make in GENERATORS.items():
        for name, text in make().items():
            if name in out:
                raise SystemExit(f"{name} written by both {out[name][1]} and {gen}")
            out[name] = (text, gen)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if a file of hw/rtl/gen differs from the output")
    args = ap.parse_args()
    files = generated()
    have = {p.name for p in cores.GEN.iterdir() if p.is_file()} if cores.GEN.exists() else set()
    if args.check:
        stale = sorted(n for n, (text, _) in files.items()
                       if n not in have or (cores.GEN / n).read_text(encoding="utf-8") != text)
        extra = sorted(have - set(files))
        for n in stale:
            print(f"hw/rtl/gen/{n}: not what hw/{files[n][1]} writes"
                  f"{'' if n in have else ' (missing)'}")
        for n in extra:
            print(f"hw/rtl/gen/{n}: written by no generator (remove it, or move it out of gen/)")
        if stale or extra:
            print("run `python3 hw/generate.py` (and edit hw/cores.py or the generator, "
                  "not the generated file)")
            return 1
        print(f"hw/rtl/gen: {len(files)} generated files up to date")
        return 0
    cores.GEN.mkdir(parents=True, exist_ok=True)
    for n in sorted(have - set(files)):
        (cores.GEN / n).unlink()
    for n, (text, _) in files.items():
        path = cores.GEN / n
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote hw/rtl/gen/{n}")
    cores.rtl_files()  # names stay unique across hw/rtl
    return 0


if __name__ == "__main__":
    sys.exit(main())
