"""The ASIC study's closing part (hw/synth/study_conclusion.py): rankings,
moves and the paper's statements for any subset of measured rows, and the
plot. Synthetic 'ours' figures (the paper's scaled per row) stand in for
results files, so every subset can be tried without synthesis."""

import random
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "synth"))
import paper2009  # noqa: E402
import study_conclusion as sc  # noqa: E402


def points(measured, seed=1, scale=None):
    """One Point per Table 1 row; rows in `measured` get ours = the paper's
    times a random factor (or `scale[name]`)."""
    rng = random.Random(seed)
    out = []
    for r in paper2009.TABLE1:
        if r.name in measured:
            f = scale[r.name] if scale else (rng.uniform(0.3, 0.9), rng.uniform(0.5, 1.8))
            out.append(sc.Point(r.name, r.gbps, r.ge, r.gbps * f[0], r.ge * f[1], "core"))
        else:
            out.append(sc.Point(r.name, r.gbps, r.ge))
    return out


ALL = [r.name for r in paper2009.TABLE1]


def test_every_short_name():
    assert set(sc.SHORT) == set(ALL)


def test_paper_passes_its_own_statements():
    """Each statement, tested on the paper's own Table 1, holds (a check on
    the tests' thresholds)."""
    rows = sc.claims_table(points([]))
    assert len(rows) == len(sc._claims())
    for row in rows:
        paper_col = row.split(" | ")[1]
        assert paper_col.startswith("holds"), row


@pytest.mark.parametrize("count", [0, 1, 2, 3, 7, len(ALL)])
def test_any_subset(count):
    rng = random.Random(count)
    measured = set(rng.sample(ALL, count))
    text = sc.markdown(points(measured), "plot.png")
    assert f"**{count} of the {len(ALL)} rows" in text
    if count >= 2:
        # both rankings list exactly the measured rows
        for title in ("### Ranking by throughput\n", "### Ranking by throughput per area\n"):
            table = text.split(title)[1].split("\n\n")[0].strip()
            names = [line.split(" | ")[0].lstrip("| ") for line in table.splitlines()[2:]]
            assert sorted(names) == sorted(measured)
    else:
        assert "no ranking yet" in text
    if count < len(ALL):
        assert "not yet" in text
    else:
        assert "not yet" not in text


def test_unchanged_order_means_no_moves():
    """Ours = the paper's times one factor for every row: same order, rank
    correlation 1, no moves, every statement holds as in the paper."""
    pts = points(set(ALL), scale={n: (0.5, 1.3) for n in ALL})
    text = sc.markdown(pts)
    assert text.count("Spearman's rank correlation of the two orders: 1.00") == 2
    assert text.count("No row moves") == 2
    assert "does not hold" not in text


def test_a_move_is_reported():
    """SIMD made the fastest: it moves from last to first in throughput."""
    scale = {n: (1.0, 1.0) for n in ALL}
    scale["SIMD-256"] = (40.0, 1.0)
    text = sc.markdown(points(set(ALL), scale=scale))
    ranking = text.split("### Ranking by throughput\n")[1].split("### Ranking by throughput per")[0]
    assert "SIMD 16 → 1 (up 15" in ranking
    assert "First: SIMD" in ranking
    claims = text.split("tested")[-1]
    assert "**does not hold** (slowest:" in claims           # SIMD is no longer the slowest
    assert "**does not hold** (SIMD first" in claims          # nor Keccak the fastest


def test_spearman():
    assert sc.spearman({"a": 1, "b": 2, "c": 3}, {"a": 3, "b": 2, "c": 1}) == -1
    assert sc.spearman({"a": 1, "b": 2}, {"a": 2, "b": 1}) is None


@pytest.mark.parametrize("count", [0, 5, len(ALL)])
def test_plot(tmp_path, count):
    pytest.importorskip("matplotlib")  # `make hw` installs it; the document test above needs none
    out = tmp_path / "p.png"
    sc.plot(points(set(ALL[:count])), out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20000


def test_adder_note():
    """make_study's note on the adder rows: the medians of our clock over the
    paper's per group, and the adder rows that move down; nothing while a
    group has fewer than two measured rows."""
    sys.path.insert(0, str(HERE.parent))
    import cores as registry
    import make_study as ms
    by_row = {c: core for c, (core, _res) in
              ms.primary({c.name: (c, None) for c in registry.KECCAK + registry.STUDY
                          if c.paper}).items()}
    table = {r.name: r for r in paper2009.TABLE1}
    assert set(by_row) == set(table)

    def rows_at(factor, names):
        rows = {}
        for n in names:
            r, c = table[n], by_row[n]
            mhz = r.mhz * factor(n) * r.cycles / c.cycles * r.block_bits / c.block_bits
            rows[n] = (c, {"bare_core": {"asic": {"ge": r.ge, "timing": {
                "fmax_mhz": mhz, "critical_path": {"cells_on_path": 10}}}}})
        return rows

    def half_adders(n):
        return 0.5 if n in ms.ADDER_ROWS else 1.0

    rows = rows_at(half_adders, ALL)
    pts = [sc.Point(n, table[n].gbps, table[n].ge, table[n].gbps * half_adders(n), table[n].ge)
           for n in ALL]
    note = ms.adder_note(rows, pts)
    assert "median 0.50 (" in note and "for the others: median 1.00" in note
    assert "BMW 0.50" in note and "Keccak 1.00" in note
    assert ms.adder_note(rows_at(half_adders, ["SHA-256", "Keccak(-256)", "JH-256"]), pts) == ""
