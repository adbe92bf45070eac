#!/usr/bin/env python3
"""Writes docs/reproduction-gpu-2011.md from committed data only.

    python3 bench/tree2011/make_doc.py           # write the page
    python3 bench/tree2011/make_doc.py --check   # compare; exit 1 with a diff if it differs

Inputs (all committed): the CPU run bench/results/tree2011-2026-11-27.json,
the earlier CPU runs (History), the four GPU runs
bench/results/gpu-h200-2026-11-27-run{1..4}.json (.log beside them for the
driver line), and the paper's figures bench/tree2011/paper2011.json. The
tables are plot.py's (the same functions that write the run's .md); every
figure in the prose is computed here from the same data. No plot is drawn:
the page refers to the run's committed .png.
"""
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
import plot  # noqa: E402
import doc_text  # noqa: E402

RESULTS = ROOT / "bench" / "results"
DOC = ROOT / "docs" / "reproduction-gpu-2011.md"
CPU_RUN = RESULTS / "tree2011-2026-11-27.json"
HISTORY = [RESULTS / f"tree2011-{d}.json" for d in ("2026-11-21", "2026-11-21-gather-fix", "2026-11-22")]
GPU_RUNS = {i: RESULTS / f"gpu-h200-2026-11-27-run{i}.json" for i in (1, 2, 3, 4)}
SHOWN = 4            # the GPU run the tables show
SAME_KERNELS = (2, 3, 4)  # the runs with the warp-per-leaf kernel (run 1 had one thread per leaf)
BIG = 50_400_000
RATE = 1024


def load_all():
    d, tree, others = plot.load(CPU_RUN)
    paper = plot.load_paper()
    gpus = {i: plot.load_gpu(p) for i, p in GPU_RUNS.items()}
    raw = {i: json.loads(p.read_text()) for i, p in GPU_RUNS.items()}
    hist = [(p, *plot.load(p)) for p in HISTORY]
    return d, tree, others, paper, gpus, raw, hist


def driver_line(i):
    """The driver line run-on-gpu.sh logged (nvidia-smi: name, driver, memory,
    clock, PCIe generation, PCIe width), or None."""
    log = GPU_RUNS[i].with_suffix(".log")
    if not log.exists():
        return None
    m = re.search(r"^== driver: (.*?);?$", log.read_text(), re.M)
    return m.group(1) if m else None


def main():
    d, tree, others, paper, gpus, raw, hist = load_all()
    ctx = doc_text.Ctx(d=d, tree=tree, others=others, paper=paper, gpus=gpus, raw=raw, hist=hist,
                       shown=SHOWN, same=SAME_KERNELS, big=BIG, rate=RATE,
                       driver=driver_line(SHOWN), cpu_run=CPU_RUN, gpu_runs=GPU_RUNS,
                       tables=plot.table1(d, tree, others, paper, gpus[SHOWN]) + plot.table2(d, paper))
    text = doc_text.page(ctx)
    if "--check" in sys.argv[1:]:
        old = DOC.read_text() if DOC.exists() else ""
        if old == text:
            print(f"{DOC.relative_to(ROOT)}: up to date")
            return 0
        import difflib
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                   "committed", "generated"))
        print(f"{DOC.relative_to(ROOT)} differs from its generator's output: run "
              "python3 bench/tree2011/make_doc.py and commit the result")
        return 1
    DOC.write_text(text)
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
