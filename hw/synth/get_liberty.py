#!/usr/bin/env python3
"""Fetches the OSU 0.18um standard-cell liberty file from Debian's
qflow-tech-osu018 package (apt-get download + dpkg -x, so none of qflow's
dependencies are installed) into hw/synth/lib/osu018_stdcells.lib."""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEST = HERE / "lib" / "osu018_stdcells.lib"


def main():
    if DEST.exists():
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["apt-get", "download", "qflow-tech-osu018"]
        if subprocess.run(cmd, cwd=tmp, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-qq"], check=True)
            subprocess.run(cmd, cwd=tmp, check=True, capture_output=True)
        deb = next(Path(tmp).glob("qflow-tech-osu018*.deb"))
        subprocess.run(["dpkg", "-x", str(deb), "x"], cwd=tmp, check=True)
        lib = next(Path(tmp, "x").rglob("osu018_stdcells.lib"), None)
        if lib is None:
            print("error: osu018_stdcells.lib not found in the package", file=sys.stderr)
            return 1
        DEST.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(lib, DEST)
    print(f"liberty: {DEST}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
