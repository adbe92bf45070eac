"""The GPU half of docs/reproduction-gpu-2011.md (make_doc.py): the GPU
columns with their spread over runs, the paper's future work beside what was
built, what is not reproduced, and the history. Figures from the committed
runs in `doc_text.Ctx` only."""
import statistics

from doc_text import cell_name, gpu_cell, host, ms, rel, x

COLS = [("device_resident_s", "device-resident"), ("host_fed_s", "host-fed"),
        ("cpu_s", "CPU of the GPU machine")]
NOISE = 0.10  # a run-to-run difference above this is reported


def spread(c):
    """Per cell and column: min, median, max over the runs with the same kernels."""
    out = {}
    for (size, h) in sorted(c.paper.gpu):
        for key, _ in COLS:
            v = [gpu_cell(c, r, size, h, key) for r in c.same]
            if all(v):
                out[(size, h, key)] = (min(v), statistics.median(v), max(v), v)
    return out


def gpu_columns(c):
    g, raw = c.gpus[c.shown], c.raw[c.shown]["bench"]
    dev = raw["device"]
    big = c.big
    dr = {h: gpu_cell(c, c.shown, big, h, "device_resident_s") for h in range(5)}
    hf = {h: gpu_cell(c, c.shown, big, h, "host_fed_s") for h in range(5)}
    cpu = {h: gpu_cell(c, c.shown, big, h, "cpu_s") for h in range(5)}
    r1 = {h: gpu_cell(c, 1, big, h, "device_resident_s") for h in (1, 4)}
    gap = {h: hf[h] - dr[h] for h in range(5)}
    leaf = big / 4  # H = 1: one leaf per warp, 4 warps
    per_perm = dr[1] / (leaf / 128)
    md5 = g["md5"].get(big)
    sp = spread(c)
    over = []
    for (size, h, key), (lo, mid, hi, v) in sp.items():
        shown = v[c.same.index(c.shown)]
        others = [w for r, w in zip(c.same, v) if r != c.shown]
        worst = max(abs(shown - w) / min(shown, w) for w in others)
        if worst > NOISE:
            over.append((worst, size, h, key, v))
    wmax = max(over) if over else None
    o = ["## The GPU columns\n\n"]
    o.append(
        f"Measured on an {g['device']} ({dev['sm_count']} SMs, {dev['clock_khz'] / 1e6:.2f} GHz, "
        f"CUDA {dev['driver_cuda']}; the driver line of the run's log: \"{c.driver}\"; "
        f"{g['threads']} host threads), run {c.shown} of 2026-11-27 (commit {str(g['commit'])[:7]}). "
        f"`bench/gpu/run-on-gpu.sh` (as `.gpu/run-on-gpu.sh` on the GPU machine) ran the benchmark's `treeli` section (tree LI at the four sizes × "
        f"H = 0..4, D = 4, r = 1024 and r = 1088; best of 3; every GPU digest checked against the "
        f"CPU's) and the `md5` step (hashlib's MD5 on the same sizes, best of 5, same run); "
        f"`python3 bench/tree2011/plot.py {rel(c.cpu_run)} --gpu {rel(c.gpu_runs[c.shown])}` fills the "
        f"columns above.\n\n")
    o.append(
        f"**Runs {', '.join(map(str, c.same))} differ.** They ran the same kernels on the same kind of "
        f"machine, yet {len(over)} of the {len(sp)} cells of run {c.shown} (20 cells × 3 columns) "
        f"differ by more than {NOISE:.0%} (the larger figure over the smaller) from run {' or '.join(str(r) for r in c.same if r != c.shown)}"
        + (f", up to {wmax[0]:.0%} ({cell_name((wmax[1], wmax[2]))}, "
           f"{dict(COLS)[wmax[3]]}: " + " / ".join(f"{w * 1e3:.1f}" for w in wmax[4]) + " ms in runs "
           + ", ".join(map(str, c.same)) + ")" if wmax else "")
        + f". The tables above show run {c.shown}; the spread of every cell (min – median – max over "
        f"runs {', '.join(map(str, c.same))}, milliseconds):\n\n")
    o.append("| bytes | H | " + " | ".join(f"{n}: min – median – max" for _, n in COLS)
             + f" | run {c.shown} |\n|" + " ---: |" * 6 + "\n")
    for (size, h) in sorted(c.paper.gpu):
        cells = []
        for key, _ in COLS:
            s = sp.get((size, h, key))
            cells.append(f"{s[0] * 1e3:.2f} – {s[1] * 1e3:.2f} – {s[2] * 1e3:.2f}" if s else "—")
        shown = [gpu_cell(c, c.shown, size, h, k) for k, _ in COLS]
        o.append(f"| {size:,} | {h} | " + " | ".join(cells) + " | "
                 + " / ".join(f"{v * 1e3:.2f}" for v in shown) + " |\n")
    o.append("\n")
    o.append(
        f"- **Device-resident** (the message already in GPU memory; the paper's figures are "
        f"CUDA-profiler times, so this is the comparable column): the leaves are gathered on the "
        f"device by 2-D copies and hashed in one launch, one warp per leaf (`BatchKernel::Warp`: the "
        f"warp's 25 lanes hold the state); the inner levels and the final node run on the CPU. "
        f"{big / 1e6:.1f} MB: H = 4 {ms(dr[4])} ({x(c.paper.gpu[(big, 4)] / dr[4])} the paper), "
        f"H = 3 {ms(dr[3])}, H = 2 {ms(dr[2])}, H = 1 {ms(dr[1])}, H = 0 {ms(dr[0])} (read back and "
        f"hashed on the CPU: one sponge on the GPU would be one warp). In run 1, before the warp "
        f"kernel, one thread hashed each leaf: H = 4 took {ms(r1[4])} and H = 1 {ms(r1[1])}.\n")
    o.append(
        f"- **Host-fed** (the message in host memory, copies counted): {big / 1e6:.1f} MB at H = 4 in "
        f"{ms(hf[4])}, {x(c.paper.gpu[(big, 4)] / hf[4])} the paper. The leaves are gathered on the "
        f"host and packed through the pipeline. Host-fed minus device-resident at {big / 1e6:.1f} MB: "
        + ", ".join(f"H = {h} {gap[h] * 1e3:+.1f} ms" for h in range(5))
        + " (at H = 0 both are the CPU's one sponge, read from host memory or read back from the "
        "GPU). After these runs the one-shot tree LI keeps its gather buffer between calls instead "
        "of faulting in a fresh one per call (commit e166ee8); that change was measured on the build "
        "VM only, with no committed data, and the columns above predate it: not re-measured.\n")
    wins = [(s, h) for (s, h) in c.paper.gpu if h and
            gpu_cell(c, c.shown, s, h, "cpu_s") < min(gpu_cell(c, c.shown, s, h, k)
                                                      for k in ("device_resident_s", "host_fed_s"))]
    n_h = sum(1 for (_s, h) in c.paper.gpu if h)
    o.append(
        f"- **The GPU against {g['threads']} CPU threads.** The GPU machine's CPU (keccakx on "
        f"{g['threads']} threads) beats both GPU columns in {len(wins)} of the {n_h} cells with "
        f"H ≥ 1: {ms(cpu[4])} at H = 4, "
        f"{ms(cpu[1])} at H = 1. A tree of 4..256 leaves is 4..256 sponges; one CPU core runs one "
        f"sponge at {big / cpu[0] / 1e9:.2f} GB/s there (H = 0), a GPU warp at "
        f"{leaf / dr[1] / 1e9:.2f} GB/s (H = 1 device-resident: {per_perm * 1e6:.2f} µs per 128-byte "
        f"block, absorb and permutation). The GPU needs thousands of independent sponges to win (KT, "
        f"ParallelHash, batches: docs/gpu.md).\n")
    if md5:
        o.append(
            f"- **MD5** on the GPU machine (hashlib, OpenSSL): {big / 1e6:.1f} MB in {md5:.3f} s, "
            f"{x(c.paper.md5[big] / md5)} faster than the paper's E8400; tree LI at H = 4 on its GPU "
            f"takes {dr[4] / md5:.2f}× MD5's time device-resident, {hf[4] / md5:.2f}× host-fed.\n")
    o.append("\n")
    return "".join(o)


def future_work(c):
    raw = c.raw[c.shown]["bench"]
    a1 = c.paper.record["algorithm1"]
    perms = {p["kernel"]: p for p in raw["permutations"]}
    pk, fast = perms.get("Paper"), perms.get("Fast24")
    batches = raw["sha3_256_batches"]
    dr = {h: gpu_cell(c, c.shown, c.big, h, "device_resident_s") for h in (0, 4)}
    md5 = c.gpus[c.shown]["md5"].get(c.big)

    def batch_line(b):
        auto = next(k for k in b["device_resident"] if k["kernel"] == "Auto")
        return (f"{b['message_bytes']:,} B × {b['messages']:,}: {auto['bytes_per_s'] / 1e9:.0f} GB/s "
                f"({auto['messages_per_s'] / 1e6:,.0f} M messages/s)")

    def fed(b, kind):
        h = next((k for k in b["host_fed"] if k["input"] == kind), None)
        return f"{h['bytes_per_s'] / 1e9:.1f} GB/s ({h['ratio_to_h2d']:.0%} of H2D)" if h else "—"

    copy = raw["copy"]
    b0 = batches[0]
    br = next(k for k in b0["host_fed"] if k["input"] == "Copy")["breakdown"]
    stages = br["pack_s"] + br["h2d_s"] + br["kernel_s"] + br["d2h_s"] + br["drain_s"]
    o = ["## The paper's future work, done\n\n",
         f"What the paper left undone (sections 4 and 6), what keccakx built, and our figure from run "
         f"{c.shown} (`{rel(c.gpu_runs[c.shown])}`; docs/gpu.md has the whole benchmark).\n\n",
         "| the paper | built here | measured (run %d) |\n|---|---|---|\n" % c.shown]
    o.append("| **batch mode** (\"Due to time reasons we did not include the batch mode\") | many "
             "messages per launch, one thread or one warp per message (`GpuHasher::hash_many`, "
             "`hash_strided`, device arrays) | SHA3-256 device-resident, "
             + "; ".join(batch_line(b) for b in batches) + " |\n")
    o.append("| **streams** (copies asynchronous to the kernels) | the host-fed pipeline: pack, H2D "
             "copy, kernel, D2H copy and drain in chunks, three stages round robin on their own "
             "streams | " + f"{b0['message_bytes']} B × {b0['messages']:,} host-fed: "
             f"{fed(b0, 'Copy')}; wall {br['wall_s'] * 1e3:.0f} ms against "
             f"{stages * 1e3:.0f} ms for its stages one after another (pack "
             f"{br['pack_s'] * 1e3:.0f}, H2D {br['h2d_s'] * 1e3:.0f}, kernel "
             f"{br['kernel_s'] * 1e3:.1f}, D2H {br['d2h_s'] * 1e3:.0f}, drain "
             f"{br['drain_s'] * 1e3:.0f} ms); pinned H2D alone {copy['h2d_bytes_per_s'] / 1e9:.1f} "
             "GB/s |\n")
    o.append("| **zero copy** (the GPU reads host memory on demand) | mapped pinned input (`Mapped`) "
             "| " + "; ".join(f"{b['message_bytes']:,} B × {b['messages']:,}: {fed(b, 'Mapped')} "
                              f"(copied: {fed(b, 'Copy')})" for b in batches) + " |\n")
    if pk and fast:
        o.append(
            f"| **Algorithm 1**, about {a1['us_per_call_24_rounds']} µs a call (24 rounds); 32-bit "
            f"version about {a1['us_per_call_32bit_version']} µs | the paper's kernel rebuilt "
            f"(`Paper`: 25 threads per state, state in shared memory) beside ours (`Fast24`: one "
            f"thread per state, state in registers) | `Paper`: "
            f"{pk['seconds'] / pk['iters'] * 1e6:.1f} µs a call on {pk['states']:,} states at once "
            f"({pk['perms_per_s'] / 1e9:.2f} G permutations/s); `Fast24`: "
            f"{fast['seconds'] / fast['iters'] * 1e6:.1f} µs a call on {fast['states']:,} states "
            f"({fast['perms_per_s'] / 1e9:.2f} G/s, {fast['perms_per_s'] / pk['perms_per_s']:.1f}× "
            f"`Paper`). A call on one state, the paper's measure: not measured (the benchmark times "
            f"full waves only); the 32-bit version: not built |\n")
    o.append(
        f"| **a conflict-free permutation kernel** (\"more than {a1['bank_conflicts_24_rounds']:,} "
        f"bank conflicts\" for Algorithm 1, ~{a1['bank_conflicts_32bit_version']:,} for the 32-bit "
        "version) | the fast kernels keep the state in registers: no shared memory, so no bank "
        "conflicts by construction | the bank-conflict count of `Paper`: not measured. It needs "
        "Nsight Compute on a lent GPU (the shared-memory bank-conflict metrics of the `Paper` "
        "kernel); run 4's profile covers the fast kernels only |\n\n")
    o.append(
        f"**The Tesla C2050 remark.** The paper: \"{c.paper.record['c2050']['quote']}\" It gives no "
        f"figures. The analogous statement on the H200: tree LI at H = 4, device-resident, takes "
        f"{dr[4] / md5:.2f}× the time of MD5 on the same machine's CPU ({ms(dr[4])} against "
        f"{ms(md5)} for {c.big / 1e6:.1f} MB), so \"comparable\" understates it; at H = 0 (one "
        f"sponge, on the CPU) Keccak takes {dr[0] / md5:.1f}× MD5's time. The C2050 result itself is "
        f"not reproduced (no Fermi card; below).\n\n")
    return "".join(o)


def not_reproduced(c):
    return (
        "## Not reproduced\n\n"
        "* **The GTX 295 timings themselves.** No such card (nor any 2011 card) is available; "
        "Table 1 is compared with a 2020s GPU and CPU, so the ratios measure fifteen years of "
        "hardware as much as the method.\n"
        "* **The bank-conflict counts** (more than 9,000 for Algorithm 1, ~1,250 for its 32-bit "
        "version). What it would take: Nsight Compute on a lent GPU, profiling the `Paper` kernel "
        "with the shared-memory bank-conflict metrics (left to the GPU work; our own kernels use no "
        "shared memory).\n"
        "* **Algorithm 1's 58 µs and 50 µs per call.** Our `Paper` kernel is timed on full waves of "
        "states, not one state per call, and its 32-bit version is not built. What it would take: a "
        "single-state call timed in the benchmark's permutation section, and the 32-bit kernel.\n"
        "* **The Tesla C2050 result** (\"comparable results between MD5 and the GPU implementation\"): "
        "no Fermi card, and the paper gives no figures; the analogous statement on the H200 is "
        "above.\n"
        "* **The paper's digests.** Its node coding is not published; ours (docs/tree-li.md) differs, "
        "so digests cannot be compared, only times.\n\n")


def history(c):
    big = c.big
    o = ["## History\n\n",
         f"{big / 1e6:.1f} MB, Keccak[1024, 576], seconds (median wall time; CPU time where the run "
         "recorded it), from each committed run:\n\n",
         "| run | host | H = 4, one core | H = 4, all cores | H = 2, one core |\n|---|---|---|---|---|\n"]
    flags_now = set(c.d["machine"].get("cpu_flags_relevant", []))
    inferred = []
    for p, hd, t, _o in c.hist + [(c.cpu_run, c.d, c.tree, c.others)]:
        def cell(h, eng):
            r = t.get(("paper", big, h, eng, "memory"))
            if not r:
                return "—"
            cpu_s = r.get("cpu_median_s")
            return f"{r['median_s']:.4f}" + (f" (CPU {cpu_s:.4f})" if cpu_s else "")
        hm = hd["machine"]
        extra = sorted(set(hm.get("cpu_flags_relevant", [])) - flags_now - {"constant_tsc", "nonstop_tsc"})
        h = host(hm)
        if extra and "cpu_family_model_stepping" not in hm:
            h += "; flags beyond the last run's: " + ", ".join(extra)
            inferred.append(rel(p))
        o.append(f"| `{rel(p)}` ({hd['date'][:10]}, {hd['commit'][:7]}) | {h} | {cell(4, 'simd-1t')} | "
                 f"{cell(4, 'simd-all')} | {cell(2, 'simd-1t')} |\n")
    o.append(
        "\nThe runs before 2026-11-27 did not record the CPU family and model (`/proc/cpuinfo` says "
        "\"AMD EPYC\" alone); their flags include `avx512_vp2intersect` and `avx_vnni`, which the "
        "family 25 model 17 (Zen 4) host of the last run lacks and AMD's Zen 5 has, so they most "
        "likely ran on a Zen 5 host (512-bit AVX-512 datapaths): an inference from the recorded "
        "flags, not a recorded fact. Compare within one run only. What changed between the runs: "
        "the one-shot tree LI stopped gathering every leaf into a fresh buffer (2026-11-21, "
        "gather-fix), then absorbed the message in place with the leaves side by side in the lanes "
        "and split over the threads (2026-11-22; bench/NOTES.md, \"Tree LI in place\"), then gained "
        "the lane groups' windows and prefetch (2026-11-27; bench/NOTES.md, \"Tree LI: many lane "
        "groups\").\n\n")
    return "".join(o)


def files(c):
    return (
        "## Files\n\n"
        "* `bench/tree2011/` — the benchmark (`src/main.rs`), `plot.py` (tables and figure), "
        "`make_doc.py`, `doc_text.py`, `doc_gpu.py` (this page), `paper2011.json` (the published "
        "figures), its own `Cargo.lock`.\n"
        "* `mk/tree2011.mk` — `make bench-tree2011` (in `BENCH_TARGETS`); `mk/docs.mk` — `make "
        "test-docs` (in `make test`: this page regenerated and compared).\n"
        "* `bench/results/tree2011-<date>.{json,md,png}`, `bench/results/gpu-h200-2026-11-27-run*.{json,log}` "
        "— the runs above.\n")
