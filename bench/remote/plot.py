#!/usr/bin/env python3
"""Plot bench/remote/bench.py's JSON: rate per peer, per source, with the
bare transfer rate marked. `python3 bench/remote/plot.py FILE.json` writes FILE.png."""
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(path):
    rep = json.loads(Path(path).read_text())
    srcs = rep["sources"]
    fig, axes = plt.subplots(1, len(srcs), figsize=(6 * len(srcs), 4.5), squeeze=False)
    for ax, (name, s) in zip(axes[0], srcs.items()):
        peers = list(s["rate_MBps"])
        rates = [s["rate_MBps"][p] for p in peers]
        colors = ["#888" if p.startswith("curl -o") else "#2a7" if "URL" in p else "#47c" for p in peers]
        ax.barh(range(len(peers)), rates, color=colors)
        ax.set_yticks(range(len(peers)), peers, fontsize=8)
        ax.invert_yaxis()
        ax.axvline(s["rate_MBps"]["curl -o /dev/null"], color="k", ls="--", lw=0.8)
        for i, r in enumerate(rates):
            ax.text(r, i, f" {r:.0f} ({s['ratio_to_bare'][peers[i]]:.2f}x)", va="center", fontsize=7)
        ax.set_xlabel("MB/s (median)")
        ax.set_title(f"{name}: {s['server']}, {s['bytes'] >> 20} MiB", fontsize=9)
    fig.suptitle(f"keccakx sum URL vs the bare transfer (commit {rep['commit']}, {rep['machine']['cores']} cores)",
                 fontsize=10)
    fig.tight_layout()
    out = Path(path).with_suffix(".png")
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1])
