"""The text of docs/reproduction-gpu-2011.md (make_doc.py): every figure is
computed from the committed runs in `Ctx`; nothing measured is typed in."""
from dataclasses import dataclass
from pathlib import Path

import plot

ROOT = Path(__file__).resolve().parent.parent.parent
# AMD family/model (decimal, as /proc/cpuinfo prints them) to the core's name
AMD_CORES = {(25, 17): "Zen 4", (25, 1): "Zen 3", (26, 2): "Zen 5", (26, 17): "Zen 5"}


@dataclass
class Ctx:
    d: dict
    tree: dict
    others: dict
    paper: object
    gpus: dict
    raw: dict
    hist: list
    shown: int
    same: tuple
    big: int
    rate: int
    driver: str
    cpu_run: Path
    gpu_runs: dict
    tables: list


def rel(p):
    return str(Path(p).relative_to(ROOT))


def med(c, params, size, h, eng, src="memory"):
    r = c.tree.get((params, size, h, eng, src))
    return r["median_s"] if r else None


def other(c, alg, size, src="memory"):
    r = c.others.get((alg, size, src))
    return r["median_s"] if r else None


def ms(s):
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def x(v):
    return f"{v:.0f}×" if v >= 99.5 else f"{v:.1f}×"


def span(lo, hi, nd=1):
    """"a–b", or one figure when both round alike."""
    a, b = f"{lo:.{nd}f}", f"{hi:.{nd}f}"
    return a if a == b else f"{a}–{b}"


def gpu_cell(c, run, size, h, key):
    g = c.gpus[run]["rows"].get((size, h, c.rate))
    return g.get(key) if g else None


def host(machine):
    """CPU model with family/model and the core's name where recorded."""
    fms = machine.get("cpu_family_model_stepping")
    if not fms:
        return f"{machine['cpu_model']} (family and model not recorded)"
    fam, mod, _ = (int(v) for v in fms.split("/"))
    core = AMD_CORES.get((fam, mod))
    return f"{machine['cpu_model']} family {fam} model {mod}" + (f" ({core})" if core else "")


def ratios(c, cells):
    """(paper ÷ ours, (size, h)) for each cell with a figure."""
    out = []
    for (size, h), pub in c.paper.gpu.items():
        s = cells(size, h)
        if s:
            out.append((pub / s, (size, h)))
    return out


def cell_name(sh):
    size, h = sh
    return f"{size / 1e6:.1f} MB, H = {h}"


# ---------------------------------------------------------------- sections
def status(c):
    def g(key, name):
        return [(r, sh, name) for r, sh in
                ratios(c, lambda s, h: gpu_cell(c, c.shown, s, h, key) if h else None)]
    cells = g("device_resident_s", "device-resident") + g("host_fed_s", "host-fed")
    lo, hi = min(cells), max(cells)
    h4 = gpu_cell(c, c.shown, c.big, 4, "device_resident_s")
    return (
        f"**Status.** The paper's Table 1 (all 20 GPU cells and its MD5 column) and Table 2 are quoted "
        f"in full below, each cell beside ours with the ratio. The CPU columns are measured on this "
        f"project's 2-core VM (`{rel(c.cpu_run)}`); **the GPU columns are measured on a lent "
        f"{c.gpus[c.shown]['device']}** (run {c.shown} of 2026-11-27, `{rel(c.gpu_runs[c.shown])}`; the "
        f"spread over runs {', '.join(map(str, c.same))} is in \"The GPU columns\"): device-resident, "
        f"host-fed with the copies counted, and the {c.gpus[c.shown]['threads']}-thread CPU of the GPU "
        f"machine, beside MD5 measured in the same run. Every GPU cell with H ≥ 1 is faster than the "
        f"paper's, from {x(lo[0])} ({cell_name(lo[1])}, {lo[2]}) to {x(hi[0])} ({cell_name(hi[1])}, "
        f"{hi[2]}); at H = 0 both \"GPU\" "
        f"columns are hashed on the CPU of the GPU machine (one sponge; marked † in the table). "
        f"{c.big / 1e6:.1f} MB at H = 4 takes {ms(h4)} device-resident (the paper: "
        f"{c.paper.gpu[(c.big, 4)] * 1e3:.0f} ms; the project's target: under 5 ms).\n\n")


def published(c):
    p = c.paper.record
    a1 = p["algorithm1"]
    t2 = c.paper.table2
    rows = sorted(t2)
    cpb = [t2[b]["cycles"] / b for b in rows]
    return (
        "## What the paper published\n\n"
        "P.-L. Cayrel, G. Hoffmann, M. Schneider, *GPU Implementation of the Keccak Hash Function "
        "Family* (2011): `../shared/papers/000_43bb88ee12b1f326.txt`, section 5, Tables 1 and 2 "
        "(the same figures in the second extraction, `002_d3963fc47bac48f4.txt`). The figures are kept "
        "once, as data, in `bench/tree2011/paper2011.json`; every table, the plot and this page read "
        "them from there.\n\n"
        f"- **Table 1**: one file hashed in tree mode LI (degree D = 4, height H = 0..4, so 1..256 "
        f"leaves) with Keccak-f[1600] at r = 1024, c = 576, on an {p['table1']['gpu']}, "
        f"\"{p['table1']['gpu_timing'].split(' (')[0]}\", in seconds; and MD5 of the same files on an "
        f"{p['table1']['md5_cpu']}. For example, {c.big:,} bytes: H = 0 "
        f"{c.paper.gpu[(c.big, 0)]:.3f} s, H = 4 {c.paper.gpu[(c.big, 4)]:.3f} s, MD5 "
        f"{c.paper.md5[c.big]:.3f} s.\n"
        f"- **Table 2**: {p['table2']['implementation']} on the same E8400, r = "
        f"{p['table2']['rate_bits']}, fed {p['table2']['update_bytes']}-byte blocks: "
        + " / ".join(f"{b:,}" for b in rows) + " bytes in "
        + " / ".join(f"{t2[b]['cycles']:,}" for b in rows) + " cycles ("
        + " / ".join(f"{t2[b]['ms']:.3f}" for b in rows) + f" ms): {span(min(cpb), max(cpb))} "
        "cycles a byte at every size.\n"
        f"- Section 6: its 25-threads-per-state permutation kernel (Algorithm 1) takes about "
        f"{a1['us_per_call_24_rounds']} µs a call (24 rounds) \"according to the CUDA profiler\", "
        f"producing more than {a1['bank_conflicts_24_rounds']:,} bank conflicts; the 32-bit version "
        f"about {a1['us_per_call_32bit_version']} µs with ~{a1['bank_conflicts_32bit_version']:,}. "
        f"Section 5: \"{p['c2050']['quote']}\"\n"
        f"- Section 6 also lists what the paper did not do: the batch mode (section 4: \"Due to time "
        f"reasons we did not include the batch mode\"), streams, zero copy, and a conflict-free "
        f"permutation kernel. \"The paper's future work, done\" below puts ours beside each.\n\n")


def how(c):
    m = c.d["machine"]
    tsc = m.get("tsc_hz")
    return (
        "## How we measure\n\n"
        "```sh\nmake bench-tree2011     # writes bench/results/tree2011-<date>.{json,md,png}\n"
        "python3 bench/tree2011/make_doc.py   # this page, from the committed runs\n```\n\n"
        "* Program: `bench/tree2011` (a standalone cargo project: keccakx by path, OpenSSL through "
        "the `openssl` crate); tables and figure: `bench/tree2011/plot.py`, from the run's JSON and "
        "`paper2011.json` only; this page: `bench/tree2011/make_doc.py` (`make test-docs` checks "
        "that the committed page is what the committed data give).\n"
        "* **Table 1, ours**: tree LI exactly as docs/tree-li.md defines it "
        "(`keccakx::tree_li::tree_li_with_engine`), D = 4, B = one rate block (our choice; the "
        "paper does not state B), 32-byte output, with the paper's Keccak[1024, 576] "
        "(`TreeLiParams::paper`) and with SHA3-256's Keccak[1088, 512]. Our node coding "
        "(Sakura-style frame bits, a header in every node, chaining values of c bits) is ours: the "
        "paper gives neither its node coding nor its chaining values' length, so the digests differ "
        "from the paper's and the work per byte may too; the tree's shape (D, H, the leaves' "
        "interleaving) is the paper's. Engines: the scalar engine on one thread, the best SIMD "
        "engine on one thread, and the best engine on every core (keccakx's thread engine); in "
        "memory, and end to end from a file in the page cache (`std::fs::read` into a fresh "
        "buffer, then hash). At H = 0 tree LI is one sponge, which no engine parallelises. Every "
        "engine's digest is checked equal before a case is recorded.\n"
        "* **MD5**: OpenSSL's, on the same bytes, in memory and from the file.\n"
        "* **Table 2, ours**: the sequential sponge Keccak[r = 1024, c = 576] (one core) on the "
        "paper's four sizes, fed in 128-byte updates as the paper did and in one call; SHA3-256 "
        "(keccakx) and MD5 (OpenSSL) beside it. Time, and cycles from the time-stamp counter "
        f"(`RDTSC` around each run; invariant TSC, measured at "
        f"{tsc / 1e9:.3f} GHz). The paper's cycles are its 3.00 GHz clock's, so TSC cycles are the "
        "like measure; a core that boosts above the TSC rate does more core cycles per TSC cycle, "
        "which a VM without performance counters cannot show.\n"
        f"* Statistics: one warm-up, then at least {c.d['settings']['runs']} timed runs per case "
        f"(short cases until {c.d['settings'].get('min_case_s', 0)} s, at most "
        f"{c.d['settings'].get('max_runs', '?')}); medians; all samples, process CPU time, "
        "preemptions and TSC cycles are in the JSON.\n"
        "* Data: deterministic (xorshift64*, fixed seed).\n\n")


def runs_table(c):
    nr = "not recorded"
    o = ["## The runs this page uses\n\n",
         "| run | what | machine | load average before / after | commit |\n|---|---|---|---|---|\n"]
    m = c.d["machine"]
    o.append(f"| `{rel(c.cpu_run)}` | CPU columns, Table 2 | {host(m)}, {m['logical_cpus']} logical "
             f"CPUs, {m['rustc']}, {m['openssl']} | {m['loadavg_before']} / {c.d['loadavg_after']} | "
             f"`{c.d['commit'][:10]}`{' (dirty)' if c.d.get('dirty') else ' (clean)'} |\n")
    for i, p in c.gpu_runs.items():
        b = c.raw[i].get("bench", {})
        dev = b.get("device", {})
        use = ("GPU columns" if i == c.shown else
               "spread of the GPU columns" if i in c.same else "History (one thread per leaf)")
        hst = c.raw[i].get("host") or {}  # recorded by run-on-gpu.sh since these runs
        cpu = (f"{hst['cpu_model']} family {hst.get('family')} model {hst.get('model')}"
               if hst.get("cpu_model") else f"model {nr}")
        o.append(f"| `{rel(p)}` | {use} | {dev.get('name')} ({dev.get('sm_count')} SMs, "
                 f"{dev.get('clock_khz', 0) / 1e6:.2f} GHz, CUDA {dev.get('driver_cuda')}); host CPU: "
                 f"{b.get('cpu', {}).get('threads')} threads, {cpu} | "
                 f"{('— / ' + hst['loadavg_end']) if hst.get('loadavg_end') else nr} | "
                 f"`{str(b.get('commit'))[:10]}` |\n")
    for p, hd, _t, _o in c.hist:
        hm = hd["machine"]
        o.append(f"| `{rel(p)}` | History | {host(hm)}, {hm['logical_cpus']} logical CPUs | "
                 f"{hm['loadavg_before']} / {hd['loadavg_after']} | `{hd['commit'][:10]}` |\n")
    o.append("\nThese GPU runs did not record the GPU machine's CPU model or its load (run-on-gpu.sh "
             "records them in `host` from now on); they have the driver line of their log"
             + (f" (run {c.shown}: \"{c.driver}\": name, driver, memory, clock, PCIe generation and "
                f"width)" if c.driver else "") + ".\n\n")
    return "".join(o)


def results(c):
    m = c.d["machine"]
    stem = c.cpu_run.with_suffix("")
    return ("## Results\n\n"
            f"Machine of the CPU columns: {host(m)}, {m['logical_cpus']} logical CPUs, load average "
            f"{m['loadavg_before']} before and {c.d['loadavg_after']} after the run, commit "
            f"{c.d['commit'][:7]}. Results: `{rel(stem)}.{{json,md,png}}`; the `.md` also has every "
            "engine at every height for both parameter sets, wall against CPU time, and the plain "
            "hashes.\n\n" + "\n".join(c.tables) + "\n"
            f"![tree2011 figure](../{rel(stem)}.png)\n\n"
            "(The figure: seconds against H for each file, both parameter sets, the three engines "
            "and the file end-to-end run, MD5 and SHA3-256 here as horizontal lines, the paper's "
            "GTX 295 cells as stars and its MD5 as a dashed line; bottom: Table 2 in cycles per "
            "byte, the paper's and ours.)\n\n")


def analysis(c):
    big, p = c.big, c.paper
    one = ratios(c, lambda s, h: med(c, "paper", s, h, "simd-1t"))
    two = ratios(c, lambda s, h: med(c, "paper", s, h, "simd-all"))
    fil = ratios(c, lambda s, h: med(c, "paper", s, h, "simd-all", "file"))
    h4_1, h4_2 = med(c, "paper", big, 4, "simd-1t"), med(c, "paper", big, 4, "simd-all")
    h4_f = med(c, "paper", big, 4, "simd-all", "file")
    read = other(c, "read-only", big, "file")
    h0_1, h0_2 = med(c, "paper", big, 0, "simd-1t"), med(c, "paper", big, 0, "simd-all")
    g = c.gpus[c.shown]
    gdev, gcpu = gpu_cell(c, c.shown, big, 4, "device_resident_s"), gpu_cell(c, c.shown, big, 4, "cpu_s")
    mid = [med(c, "paper", big, h, "simd-1t") for h in (2, 3, 4)]
    sc0 = med(c, "paper", big, 0, "scalar-1t")
    sc = [med(c, "paper", big, h, "scalar-1t") for h in (1, 2, 3, 4)]
    md5 = other(c, "md5-openssl", big)
    md5r = [p.md5[s] / other(c, "md5-openssl", s) for s in p.md5]
    t = {a: {r["size"]: r for r in c.d["reference"] if r["algorithm"] == a} for a, _ in plot.TABLE2}

    def cpb(a):
        v = [r["tsc_cycles_median"] / s for s, r in t[a].items()]
        return min(v), max(v)

    def cpb_at(a, s):
        return t[a][s]["tsc_cycles_median"] / s

    upd, call = plot.TABLE2[0][0], plot.TABLE2[1][0]
    sizes = sorted(t[upd])
    tr = [p.table2[s]["ms"] / (t[a][s]["median_s"] * 1e3) for a in (upd, call) for s in sizes]
    ua, ub = cpb(upd), cpb(call)
    rise = [cpb_at(a, sizes[-1]) / cpb_at(a, sizes[0]) - 1 for a in (upd, call)]
    o = ["## Analysis\n\n", f"All figures are from the tables above ({big / 1e6:.1f} MB = {big:,} bytes).\n\n"]
    o.append(
        f"**Every CPU cell beats the paper's GPU cell.** In memory on one core, from {x(min(one)[0])} "
        f"({cell_name(min(one)[1])}: {h4_1:.4f} s against {p.gpu[(big, 4)]:.3f} s) to {x(max(one)[0])}; "
        f"on both cores from {x(min(two)[0])} to {x(max(two)[0])}; end to end from the page cache, "
        f"from {x(min(fil)[0])} ({cell_name(min(fil)[1])}: {h4_f:.4f} s, of which reading the file "
        f"into a fresh buffer takes {read:.3f} s) to {x(max(fil)[0])}. This compares a 2011 GPU with "
        f"a 2020s CPU core, and says nothing about a GPU today; the project's target for today's GPU "
        f"is under 5 ms for {big / 1e6:.1f} MB at H = 4 device-resident (the two-core CPU here: "
        f"{ms(h4_2)}): an {g['device']} takes {ms(gdev)}, and the {g['threads']}-thread CPU beside it "
        f"{ms(gcpu)} (\"The GPU columns\").\n\n")
    o.append(
        f"**Why the paper needed the tree and a CPU needs it less.** On the GPU one sponge runs at one "
        f"thread's speed: H = 0 took {p.gpu[(big, 0)]:.1f} s for {big / 1e6:.1f} MB "
        f"({big / p.gpu[(big, 0)] / 1e6:.1f} MB/s), and the tree bought "
        f"{x(p.gpu[(big, 0)] / p.gpu[(big, 4)])} (H = 0 → H = 4). A CPU core runs one sponge at "
        f"{big / h0_1 / 1e6:.0f} MB/s (H = 0: {h0_1:.4f} s); the tree buys what the SIMD lanes and "
        f"cores add: {x(h0_1 / h4_1)} on one core, {x(h0_2 / h4_2)} on two.\n\n")
    o.append(
        f"**H decides whether the lanes have work.** H = 1 has 4 leaves, H = 2 has 16. On this host "
        f"({big / 1e6:.1f} MB, one core): H = 1 {med(c, 'paper', big, 1, 'simd-1t'):.4f} s, H = 2..4 "
        f"{min(mid):.4f}–{max(mid):.4f} s. The scalar engine gains nothing from the tree: it runs one "
        f"state at a time, so tree LI gathers each leaf's blocks into a buffer before hashing it (a "
        f"copy of the message), and is slower at H ≥ 1 than at H = 0 ({min(sc):.3f}–{max(sc):.3f} s "
        f"against {sc0:.3f} s).\n\n")
    o.append(
        f"**Against MD5.** The paper: \"Keccak-f[1600] with height H = 4 is nearly as fast as MD5\" "
        f"({big / 1e6:.1f} MB: {p.gpu[(big, 4)]:.3f} s against MD5's {p.md5[big]:.3f} s, "
        f"{p.gpu[(big, 4)] / p.md5[big]:.1f}× MD5's time). Here, tree LI at H = 4 takes "
        f"{h4_1 / md5:.2f}× MD5's time on one core ({h4_1:.4f} against {md5:.4f} s) and "
        f"{h4_2 / md5:.2f}× on two. MD5 itself runs {min(md5r):.1f}–{max(md5r):.1f}× faster here than "
        f"on the paper's E8400. Sequential Keccak (H = 0) is {'still slower' if h0_1 > md5 else 'faster'} "
        f"than MD5 on one core ({h0_1:.4f} against {md5:.4f} s).\n\n")
    o.append(
        f"**Table 2: {min(p.table2[s]['cycles'] / s for s in sizes):.1f} cycles a byte then, "
        f"{min(ua[0], ub[0]):.1f}–{max(ua[1], ub[1]):.1f} now.** keccakx's Keccak[1024, 576] takes "
        f"{ua[0]:.1f}–{ua[1]:.1f} TSC cycles a byte in 128-byte updates and {ub[0]:.1f}–{ub[1]:.1f} in "
        f"one call, {min(tr):.1f}–{max(tr):.1f}× less time than the paper's reference code on its "
        f"3 GHz Core 2 (its code was the portable reference, not its optimised one). At "
        f"{sizes[-1] / 1e6:.0f} MB the 128-byte updates cost "
        f"{cpb_at(upd, sizes[-1]) / cpb_at(call, sizes[-1]) - 1:.0%} more than one call "
        f"({cpb_at(upd, sizes[-1]):.2f} against {cpb_at(call, sizes[-1]):.2f} cycles a byte): each "
        f"update is one block, so the fused multi-block absorb loop never runs. From "
        f"{sizes[0] / 1e3:.0f} KB to {sizes[-1] / 1e6:.0f} MB the cost per byte rises by "
        f"{min(rise):.0%}–{max(rise):.0%}. SHA3-256 takes {cpb(plot.TABLE2[2][0])[0]:.1f}–"
        f"{cpb(plot.TABLE2[2][0])[1]:.1f} cycles a byte, OpenSSL's MD5 {cpb(plot.TABLE2[3][0])[0]:.1f}–"
        f"{cpb(plot.TABLE2[3][0])[1]:.1f}.\n\n")
    return "".join(o)


def page(c):
    import doc_gpu
    return "".join([
        "# Reproduction: the 2011 GPU Keccak paper — Tables 1 and 2\n\n",
        "<!-- Generated by bench/tree2011/make_doc.py from the committed runs in bench/results and "
        "bench/tree2011/paper2011.json. Do not edit by hand. -->\n\n",
        "DESIGN.md, \"Reproductions of the source papers\", item 1.\n\n",
        status(c), published(c), how(c), runs_table(c), results(c), analysis(c),
        doc_gpu.gpu_columns(c), doc_gpu.future_work(c), doc_gpu.not_reproduced(c),
        doc_gpu.history(c), doc_gpu.files(c)])
