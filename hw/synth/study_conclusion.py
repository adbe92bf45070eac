"""The closing part of docs/reproduction-asic-2009.md: the 2009 study's
conclusion re-examined on the rows measured here, and its area-throughput
plot (docs/asic-2009-area-throughput.png, like the paper's Figures 16-18).

Input: one Point per row of the paper's Table 1 (hw/synth/paper2009.py),
with our figures where the row has a measured core (results JSON, bare core)
and None where it has not. Everything here is computed from those figures:
it works for any subset of measured rows and is complete once all rows are.
make_study.py builds the points and calls `markdown()` and `plot()`.
"""

from dataclasses import dataclass

# short names for the plot and the prose (Table 1's names carry suffixes)
SHORT = {"BLAKE-32": "BLAKE", "BMW-256": "BMW", "CubeHash16/32-h": "CubeHash",
         "ECHO-256": "ECHO", "Fugue-256": "Fugue", "Grøstl-256": "Grøstl", "Hamsi-256": "Hamsi",
         "JH-256": "JH", "Keccak(-256)": "Keccak", "Luffa-224/256": "Luffa",
         "Shabal-256": "Shabal", "SHAvite-3_256": "SHAvite-3", "SIMD-256": "SIMD",
         "Skein-256-256": "Skein-256", "Skein-512-512": "Skein-512", "SHA-256": "SHA-256"}

# a rank change this large (places, among the measured rows) is called a move
MOVE = 2


@dataclass
class Point:
    name: str                 # the Table 1 row
    paper_gbps: float
    paper_ge: float
    gbps: float = None        # ours (bare core), None when not measured
    ge: float = None
    core: str = None          # our module

    @property
    def short(self):
        return SHORT.get(self.name, self.name)

    @property
    def measured(self):
        return self.gbps is not None and self.ge is not None

    def per_kge(self, ours):
        """Mbit/s per kGE."""
        return (self.gbps * 1e6 / self.ge) if ours else (self.paper_gbps * 1e6 / self.paper_ge)

    def tp(self, ours):
        return self.gbps if ours else self.paper_gbps

    def area(self, ours):
        return self.ge if ours else self.paper_ge


METRICS = [("throughput", "Gbit/s", lambda p, ours: p.tp(ours), 3),
           ("throughput per area", "Mbit/s per kGE", lambda p, ours: p.per_kge(ours), 1)]


def ranks(points, key):
    """{name: rank} by key, highest first (1 = best)."""
    order = sorted(points, key=lambda p: -key(p))
    return {p.name: i + 1 for i, p in enumerate(order)}


def spearman(a, b):
    """Spearman's rank correlation of two {name: rank} maps over the same names
    (no ties: the ranks are positions)."""
    n = len(a)
    if n < 3:
        return None
    d2 = sum((a[k] - b[k]) ** 2 for k in a)
    return 1 - 6 * d2 / (n * (n * n - 1))


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def fmt(v, nd):
    return f"{v:,.{nd}f}"


# ---------------------------------------------------------------- claims
# The paper's section 19 describes its Figure 16 in words. Each statement
# below is a test on (throughput, area) figures: it is checked on the paper's
# own Table 1 (where it must hold: a check on the test) and on ours.
SIMILAR = 1.5      # "similar": within this factor
CONSIDERABLY = 1.5  # "considerably" larger / "a considerable margin": more than this factor


def _claims():
    def fastest(d):
        order = sorted(d, key=lambda n: -d[n][0])
        margin = d[order[0]][0] / d[order[1]][0]
        return order[0] == "Keccak(-256)" and margin > CONSIDERABLY, \
            f"{SHORT[order[0]]} first, {margin:.2f}x the next ({SHORT[order[1]]})"

    def luffa(d):
        order = sorted(d, key=lambda n: -d[n][0])
        second = order[1] == "Luffa-224/256"
        smaller = d["Luffa-224/256"][1] < d["Keccak(-256)"][1]
        return second and smaller, (f"second: {SHORT[order[1]]}; Luffa's area "
                                    f"{d['Luffa-224/256'][1] / d['Keccak(-256)'][1]:.2f}x Keccak's")

    group = ["Grøstl-256", "Hamsi-256", "JH-256", "CubeHash16/32-h"]

    def group_area(d):
        areas = [d[n][1] for n in group]
        spread = max(areas) / min(areas)
        return spread <= SIMILAR, f"largest / smallest area {spread:.2f}"

    def bmw(d):
        tps = [d[n][0] for n in group]
        areas = [d[n][1] for n in group]
        tp_ok = min(tps) / SIMILAR <= d["BMW-256"][0] <= max(tps) * SIMILAR
        area_x = d["BMW-256"][1] / max(areas)
        return tp_ok and area_x > CONSIDERABLY, (
            f"BMW {d['BMW-256'][0]:.2f} Gbit/s against {min(tps):.2f}-{max(tps):.2f}; "
            f"area {area_x:.2f}x the group's largest")

    def fugue_blake(d):
        slow = all(d[n][0] < min(d[g][0] for g in group) for n in ("Fugue-256", "BLAKE-32"))
        small = all(d[n][1] < min(d[g][1] for g in group) for n in ("Fugue-256", "BLAKE-32"))
        return slow and small, ("slower than the whole group: " + ("yes" if slow else "no")
                                + "; smaller: " + ("yes" if small else "no"))

    def simd(d):
        order = sorted(d, key=lambda n: d[n][0])
        return order[0] == "SIMD-256", f"slowest: {SHORT[order[0]]}"

    def sha(d):
        order = sorted(d, key=lambda n: d[n][1])
        by_tp = sorted(d, key=lambda n: -d[n][0])
        rank = by_tp.index("SHA-256") + 1
        low = rank > len(d) * 3 / 4  # "rather at the low end": the slowest quarter
        return order[0] == "SHA-256" and low, (f"smallest: {SHORT[order[0]]}; SHA-256's "
                                               f"throughput {rank} of {len(d)}")

    def median_area(d):
        return median([v[1] for v in d.values()])

    def shabal_shavite_slower(d):
        pair, before = ["Shabal-256", "SHAvite-3_256"], ["Fugue-256", "BLAKE-32"]
        slower = max(d[n][0] for n in pair) < min(d[n][0] for n in before)
        bigger = min(d[n][1] for n in pair) > max(d[n][1] for n in before)
        return slower and bigger, ("slower than Fugue and BLAKE: " + ("yes" if slower else "no")
                                   + "; bigger: " + ("yes" if bigger else "no"))

    def skein512(d):
        pair = ["Shabal-256", "SHAvite-3_256"]
        follows = d["Skein-512-512"][0] < min(d[n][0] for n in pair)
        cost = d["Skein-512-512"][1] / median_area(d)
        return follows and cost > CONSIDERABLY, (
            "slower than Shabal and SHAvite-3: " + ("yes" if follows else "no")
            + f"; area {cost:.2f}x the median row's")

    def echo(d):
        e, s5 = d["ECHO-256"], d["Skein-512-512"]
        tp = max(e[0], s5[0]) / min(e[0], s5[0])
        return tp <= SIMILAR and e[1] > s5[1], (f"throughput ratio to Skein-512 {tp:.2f}; area "
                                                f"{e[1] / s5[1]:.2f}x Skein-512's")

    def skein256(d):
        follows = d["Skein-256-256"][0] < min(d[n][0] for n in ("ECHO-256", "Skein-512-512"))
        size = d["Skein-256-256"][1] / median_area(d)
        moderate = 1 / SIMILAR <= size <= SIMILAR
        return follows and moderate, ("slower than ECHO and Skein-512: " + ("yes" if follows else "no")
                                      + f"; area {size:.2f}x the median row's")

    def shabal_shavite(d):
        a, b = d["Shabal-256"], d["SHAvite-3_256"]
        tp = max(a[0], b[0]) / min(a[0], b[0])
        ar = max(a[1], b[1]) / min(a[1], b[1])
        return tp <= SIMILAR and ar <= SIMILAR, f"throughput ratio {tp:.2f}, area ratio {ar:.2f}"

    # (statement, rows it needs, test); a test sees {row: (Gbit/s, GE)} of
    # exactly the rows it needs, or of all rows where it ranks all of them
    return [
        ("Keccak outperforms all other modules in throughput by a considerable margin", None, fastest),
        ("Luffa is second fastest and more compact than Keccak", None, luffa),
        ("Grøstl, Hamsi, JH and CubeHash have similar area", group, group_area),
        ("BMW reaches a throughput like Grøstl, Hamsi, JH and CubeHash, at a considerably higher "
         "area", group + ["BMW-256"], bmw),
        ("Fugue and BLAKE are slower than Grøstl, Hamsi, JH and CubeHash, but smaller",
         group + ["Fugue-256", "BLAKE-32"], fugue_blake),
        ("Shabal and SHAvite-3 are slower and bigger (than Fugue and BLAKE)",
         ["Shabal-256", "SHAvite-3_256", "Fugue-256", "BLAKE-32"], shabal_shavite_slower),
        ("Shabal and SHAvite-3 achieve similar performance", ["Shabal-256", "SHAvite-3_256"],
         shabal_shavite),
        ("Skein-512 follows next (slower than Shabal and SHAvite-3) with a considerable hardware "
         "cost (area above 1.5x the median row's)", None, skein512),
        ("ECHO achieves similar throughput (to Skein-512), but requires more area",
         ["ECHO-256", "Skein-512-512"], echo),
        ("Skein-256 follows (slower than ECHO and Skein-512) with a moderate size (area within "
         "1.5x of the median row's)", None, skein256),
        ("SIMD is the slowest in the field", None, simd),
        ("SHA-256 has the smallest area and a throughput rather at the low end (in the slowest "
         "quarter)", None, sha),
    ]


def claims_table(points):
    """Markdown rows: statement | in the paper's figures | in ours."""
    by = {p.name: p for p in points}
    everything = [p.name for p in points]
    out = []
    for text, needs, test in _claims():
        rows = needs or everything
        paper = {n: (by[n].paper_gbps, by[n].paper_ge) for n in rows}
        p_ok, p_why = test(paper)
        missing = [SHORT[n] for n in rows if not by[n].measured]
        if missing:
            ours = (f"not yet: needs {', '.join(missing)}" if len(missing) <= 4 else
                    f"not yet: {len(missing)} of the {len(rows)} rows it needs are not measured")
        else:
            o_ok, o_why = test({n: (by[n].gbps, by[n].ge) for n in rows})
            ours = f"{'holds' if o_ok else '**does not hold**'} ({o_why})"
        out.append(f"| {text} | {'holds' if p_ok else 'does not hold'} ({p_why}) | {ours} |\n")
    return out


# ------------------------------------------------------------ the section
def markdown(points, png_name=None):
    """The section's Markdown: rankings, movers, the paper's statements."""
    m = [p for p in points if p.measured]
    o = []
    w = o.append
    w("## The study's conclusion re-examined\n\n")
    w(f"**{len(m)} of the {len(points)} rows of Table 1 {'is' if len(m) == 1 else 'are'} "
      "measured here** (bare cores, the "
      "table above)" + (". " if len(m) == len(points) else
                        "; the rankings below compare the paper and ours on those rows only. ")
      + "Our library and flow differ from the paper's, so absolute figures are not comparable: "
      "what can be compared is the order of the candidates and each one's ratio to the "
      "others'. A row *moves* when its rank among the measured rows changes by "
      f"{MOVE} places or more. *Relative to the median ratio* divides a row's ours / paper "
      "by the median of that ratio over the measured rows, which takes out the flows' overall "
      "offset: above 1 a candidate does better here than the field, below 1 worse.\n\n")
    if png_name:
        w(f"![Area against throughput, the paper's Table 1 and ours]({png_name})\n\n")
        w(f"*`{png_name}` (made by `make hw` from the results JSON): area (kGE) against "
          "throughput (Gbit/s), both logarithmic, as the paper's Figures 16-18; open circles the "
          "paper's rows, filled ours, a line from each paper point to ours; the dotted diagonals "
          "are constant throughput per area. Right: the crowded middle enlarged, as the paper's "
          "Figure 18.*\n\n")
    if len(m) < 2:
        w("Fewer than two rows are measured: no ranking yet.\n\n")
    else:
        for title, unit, key, nd in METRICS:
            pr = ranks(m, lambda p: key(p, False))
            orank = ranks(m, lambda p: key(p, True))
            allr = ranks(points, lambda p: key(p, False))
            ratios = {p.name: key(p, True) / key(p, False) for p in m}
            med = median(list(ratios.values()))
            w(f"### Ranking by {title}\n\n")
            w(f"| row | paper ({unit}) | rank in the paper, all {len(points)} rows | rank in the "
              f"paper, measured rows | ours ({unit}) | our rank | move | ours / paper | "
              f"relative to the median ratio |\n|---|---|---|---|---|---|---|---|---|\n")
            for p in sorted(m, key=lambda p: orank[p.name]):
                mv = pr[p.name] - orank[p.name]
                mvs = f"{mv:+d}" if mv else "0"
                if abs(mv) >= MOVE:
                    mvs = f"**{mvs}**"
                w(f"| {p.name} | {fmt(key(p, False), nd)} | {allr[p.name]} | {pr[p.name]} | "
                  f"{fmt(key(p, True), nd)} | {orank[p.name]} | {mvs} | "
                  f"{ratios[p.name]:.2f} | {ratios[p.name] / med:.2f} |\n")
            rho = spearman(pr, orank)
            movers = sorted((p for p in m if abs(pr[p.name] - orank[p.name]) >= MOVE),
                            key=lambda p: -abs(pr[p.name] - orank[p.name]))
            lead = sorted(m, key=lambda p: -key(p, True))
            plead = sorted(m, key=lambda p: -key(p, False))
            w("\n")
            w(f"Ours over the paper's {title}: median ratio {med:.2f} over the {len(m)} rows "
              f"(from {min(ratios.values()):.2f} for "
              f"{SHORT[min(ratios, key=ratios.get)]} to {max(ratios.values()):.2f} for "
              f"{SHORT[max(ratios, key=ratios.get)]}). ")
            w(f"First: {lead[0].short} ({lead[0].short} / {lead[1].short}: "
              f"{key(lead[0], True) / key(lead[1], True):.2f}x) here, {plead[0].short} "
              f"({plead[0].short} / {plead[1].short}: "
              f"{key(plead[0], False) / key(plead[1], False):.2f}x) in the paper on the same rows. ")
            if rho is not None:
                w(f"Spearman's rank correlation of the two orders: {rho:.2f}. ")
            if movers:
                w("Moves: " + "; ".join(
                    f"{p.short} {pr[p.name]} → {orank[p.name]} ({'up' if orank[p.name] < pr[p.name] else 'down'} "
                    f"{abs(pr[p.name] - orank[p.name])}, {ratios[p.name] / med:.2f}x the median "
                    "ratio)" for p in movers) + ".")
            else:
                w(f"No row moves by {MOVE} places or more.")
            w("\n\n")
    w("### The paper's statements about its Figure 16, tested\n\n")
    w("The paper's section 19 describes its Figure 16 in one paragraph: \"In terms of "
      "throughput, the Keccak implementation outperforms all other modules by a considerable "
      "margin. The Luffa module is second fastest and more compact. The next-best "
      "implementations are those of Grøstl, Hamsi, JH, and CubeHash which all have similar area "
      "requirements. The BMW module achieves similar throughput, but at considerably higher "
      "hardware cost. The implementations of Fugue and BLAKE are a bit slower, but also smaller. "
      "The Shabal and SHAvite-3 modules are slower and bigger and achieve similar performance. "
      "The Skein-512 implementation follows next with a considerable hardware cost. The ECHO "
      "module achieves similar throughput, but requires more area. The Skein-256 module follows "
      "with a moderate size. Our implementation of SIMD is the slowest in the field. The "
      "straight-forward SHA-256 implementation has the smallest area and achieves a throughput "
      "which is rather at the low end of the spectrum.\"\n\n")
    rows = claims_table(points)
    held = sum(r.split(" | ")[-1].startswith("holds") for r in rows)
    w(f"Each of its statements as a test on the figures (\"similar\": within a factor "
      f"{SIMILAR}; \"considerable\": more than a factor {CONSIDERABLY}; where a statement "
      "compares with \"the next\" rows, with the rows named in the sentence before it); the "
      "paper's own Table 1 passes each, which checks the test; ours pass or not once the rows "
      f"they need are measured. In ours, {held} of the {len(rows)} hold.\n\n")
    w("| the paper's statement | in the paper's Table 1 | in ours |\n|---|---|---|\n")
    o.extend(rows)
    w("\n")
    return "".join(o)


# ------------------------------------------------------------------ plot
def _dense_window(values, factor):
    """The interval [v, v * factor] (log scale) holding the most values."""
    best = (0, None)
    for v in values:
        n = sum(1 for x in values if v <= x <= v * factor)
        if n > best[0]:
            best = (n, v)
    return best[1], best[1] * factor


def plot(points, out_png):
    """Area against throughput (log-log), the paper's rows and ours, each
    labelled, a full view and the crowded middle enlarged."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    fig, axes = plt.subplots(1, 2, figsize=(15, 7))
    meas = [p for p in points if p.measured]
    allx = [p.paper_ge / 1e3 for p in points] + [p.ge / 1e3 for p in meas]
    ally = [p.paper_gbps for p in points] + [p.gbps for p in meas]
    full = (min(allx) / 1.6, max(allx) * 1.6, min(ally) / 1.6, max(ally) * 1.6)
    zx = _dense_window(allx, 2.6)
    inside = [(x, y) for x, y in zip(allx, ally) if zx[0] <= x <= zx[1]]
    zy = _dense_window([y for _x, y in inside], 4.0)
    zoom = (zx[0] / 1.08, zx[1] * 1.08, zy[0] / 1.12, zy[1] * 1.12)
    # sixteen dark, distinct colours (tab10, then Dark2)
    palette = list(plt.get_cmap("tab10").colors) + list(plt.get_cmap("Dark2").colors)
    colour = {p.name: palette[i % len(palette)] for i, p in enumerate(points)}
    plain = FuncFormatter(lambda v, _pos: f"{v:g}")
    for ax, (x0, x1, y0, y1), title in (
            (axes[0], full, "all rows"), (axes[1], zoom, "the crowded middle (as the paper's Fig. 18)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        # constant throughput per area: y = k * x (Gbit/s = Mbit/s/kGE * kGE / 1000)
        for k in (3, 10, 30, 100, 300, 1000):
            xs = [x0, x1]
            ax.plot(xs, [k * x / 1e3 for x in xs], ls=":", lw=0.8, color="0.6", zorder=0)
            xl = min(x1 / 1.05, y1 / 1.05 * 1e3 / k)
            if xl > x0 and k * xl / 1e3 > y0:
                ax.text(xl, k * xl / 1e3, f"{k} Mbit/s/kGE", fontsize=7, color="0.45",
                        ha="right", va="bottom", rotation=0)
        for p in points:
            c = colour[p.name]
            px, py = p.paper_ge / 1e3, p.paper_gbps
            ax.scatter([px], [py], s=55, facecolors="none", edgecolors=[c], linewidths=1.5, zorder=3)
            ax.annotate(p.short, (px, py), textcoords="offset points", xytext=(5, 4), fontsize=8,
                        color=c, clip_on=True)
            if p.measured:
                ox, oy = p.ge / 1e3, p.gbps
                ax.plot([px, ox], [py, oy], color=c, lw=0.8, alpha=0.6, zorder=2)
                ax.scatter([ox], [oy], s=55, color=[c], zorder=4)
                ax.annotate(p.short, (ox, oy), textcoords="offset points", xytext=(5, -10),
                            fontsize=8, fontweight="bold", color=c, clip_on=True)
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            axis.set_major_formatter(plain)
            axis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("area (kGE)")
        ax.set_ylabel("throughput (Gbit/s)")
        ax.set_title(title, fontsize=10)
        ax.grid(True, which="major", ls="-", lw=0.3, color="0.85")
    handles = [plt.Line2D([], [], marker="o", ls="", mfc="none", mec="0.3", label="paper (UMC 0.18 µm, Cadence PKS)"),
               plt.Line2D([], [], marker="o", ls="", color="0.3",
                          label=f"ours (OSU 0.18 µm, Yosys/ABC/OpenSTA): {len(meas)} of {len(points)} rows")]
    axes[0].legend(handles=handles, loc="lower right", fontsize=8)
    fig.suptitle("The 2009 ASIC study of the SHA-3 round-two candidates: area against throughput, "
                 "bare cores", fontsize=11)
    fig.tight_layout()
    fig.savefig(out_png, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return out_png
