#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/plots/test_plot_content.py: what the figures draw, read back from their SVG
(tests/plots/svgfig.py) for the fixtures: the plot area spans most of the width (the key is not
beside it); curves of equal U x V have different line widths, the wider drawn first; a capped twin
is its own dashed curve with larger open points; a known fixture point sits where the axes put it
and the axis labels are there; the bytes-in-flight axis is labelled past the data and the
Little's-law line, dashed in the key too, ends where it meets the roof at the latency given; the
ladder draws one series, its right axis the left one at the run's clock; the hop-time figure draws
each chase row at its ns x MHz / 1000 cycles per hop; the comparison has one panel per unroll;
--unroll and --vec thin any figure; the arithmetic figures have the key below, a curve per chain
count with a point per occupancy, and --vec picks their element size. Exit 0 passed, 1 failed,
77 no gnuplot."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "tests", "plots"))
sys.path.insert(0, os.path.join(ROOT, "plots"))
import occcsv  # noqa: E402
import svgfig  # noqa: E402

if shutil.which("gnuplot") is None:
    print("SKIP: gnuplot not found")
    sys.exit(77)
FIX = os.path.join(ROOT, "tests", "fixtures")
PLOT = os.path.join(ROOT, "plots", "plot")
T = tempfile.mkdtemp()

def plot(*args):
    r = subprocess.run([PLOT] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError("plots/plot %s exits %d (%s)"
                             % (" ".join(args[-2:]), r.returncode, r.stderr.strip()[:200]))


def ok_rows(name, **where):
    t = occcsv.read(os.path.join(FIX, name))
    rows = [r for r in t.rows if t.field(r, "status") == "ok"]
    return t, [r for r in rows if all(t.field(r, k) == v for k, v in where.items())]


def curve_paths(fig):
    """The data polylines (not key samples, grid or axes): untitled plot elements."""
    return [p for p in fig.paths if p["title"].startswith("gnuplot_plot_") and len(p["points"]) > 2]


out = os.path.join(T, "all")
plot("--outdir", out, "--latency-ns", "350", os.path.join(FIX, "reduce-synthetic.csv"),
     os.path.join(FIX, "reduce-auto-synthetic.csv"),
     os.path.join(FIX, "chase-latency-synthetic.csv"))
occ = svgfig.Figure(os.path.join(out, "reduce-synthetic-occupancy-reduce.svg"))
inf = svgfig.Figure(os.path.join(out, "reduce-synthetic-inflight-reduce.svg"))
auto = svgfig.Figure(os.path.join(out, "reduce-auto-synthetic-occupancy-reduce.svg"))


xt = dict((label, px) for px, label in occ.tick_labels("middle"))
roof = float(occcsv.read(os.path.join(FIX, "reduce-synthetic.csv")).meta_get(
    "roof_memcpy_gbps"))
# The point symbols' colours that are no curve's: the white under each symbol, the key's black.
UNCOLOURED = ("rgb(255, 255, 255)", "rgb(  0,   0,   0)")
# The colours of U x V = 4, 8 and 16 B (style.gp's first three ranks).
rgb = {1: "rgb(  0, 114, 178)", 2: "rgb(213,  94,   0)", 4: "rgb(  0, 158, 115)"}


def tearDownModule():
    shutil.rmtree(T, ignore_errors=True)


class FigureContent(unittest.TestCase):

    def test_01_the_occupancy_axis_from_the(self):
        # the occupancy axis: from the lowest level measured (6.25%), labelled the API's
        self.assertTrue("0" not in xt and "12.5" in xt and
        "100" in xt,
                        "occupancy x axis runs from the lowest level to 100")
        self.assertTrue((xt["100"] - xt["12.5"]) / 1200 >= 0.5,
                        "the data span at least half the width")
        self.assertIn("occupancy, theoretical (occupancy API: resident warps per SM, % of the "
                      "maximum)", occ.texts, "the x label is the theoretical occupancy")
        self.assertTrue(not any("achieved" in t for t in occ.texts), "no label calls it achieved")

    def test_02_a_known_point_where_the(self):
        # a known point where the axes put it
        t, rows = ok_rows("reduce-synthetic.csv", unroll="4", vec_bytes="16")
        row = next(r for r in rows if occcsv.number(t.field(r, "occ_achieved_pct")) == 50)
        gbps = occcsv.number(t.field(row, "gbps_median"))
        px_x = xt["12.5"] + (xt["100"] - xt["12.5"]) * (50 - 12.5) / 87.5
        y_of = svgfig.axis_map(occ.tick_labels("end"))
        near = [m for m in occ.marks
                if abs(m["x"] - px_x) < 1 and abs(y_of(m["y"]) - gbps) < 0.01 * gbps]
        self.assertTrue(len(near) >= 1, "u4_v16 at 50%% (%.0f GB/s) is drawn there" % gbps)
        pct = [(py, label[:-1]) for py, label in occ.tick_labels("start") if label.endswith("%")]
        y2 = svgfig.axis_map(pct)
        self.assertTrue(len(pct) >= 3 and
        all(abs(y2(py) - 100 * y_of(py) / roof) < 0.5 for py, _ in pct),
                        "the right axis is % of the roof")

    def test_03_equal_u_x_v_one(self):
        # equal U x V: one colour, different widths, wider first
        paths = curve_paths(occ)
        # U x V = 8 B (u1_v8, u2_v4) is the second colour, 16 B (u1_v16, u2_v8, u4_v4) the third.
        for slot, n in ((2, 2), (4, 3)):
            widths = {p["width"] for p in paths if p["stroke"] == rgb[slot]}
            self.assertTrue(len(widths) == n,
                            "U x V = %d B: %d curves of one colour in %d widths" % (4 * slot, n, n))
        first_width = [p["width"] for p in paths]
        self.assertTrue(first_width == sorted(first_width, reverse=True),
                        "curves are drawn widest first")

    def test_04_capped_twin_its_own_dashed(self):
        # capped twin: its own dashed curve, larger open points
        apaths = curve_paths(auto)
        dashed = [p for p in apaths if p["dash"]]
        _, capped_rows = ok_rows("reduce-auto-synthetic.csv", lever="bounds")
        self.assertTrue(len(dashed) >= 1, "capped twins are dashed curves")
        self.assertTrue(sum(len(p["points"]) for p in dashed) ==
        len(capped_rows),
                        "no solid curve has a capped point")
        open_pts = [m for m in auto.marks if m["pt"] in (3, 5, 7) and m["color"] not in UNCOLOURED]
        filled = [m for m in auto.marks if m["pt"] in (4, 6, 8) and m["color"] not in UNCOLOURED]
        self.assertTrue(len(open_pts) == len(capped_rows), "one open point per capped row")
        self.assertTrue(min(m["scale"] for m in open_pts) > max(m["scale"] for m in filled),
                        "open points are larger than filled ones")

    def test_05_bytes_in_flight_ticks_past(self):
        # bytes in flight: ticks past the data, the model line
        # The fixture's rows up to 128 KiB in flight: data past the last even power of two.
        with open(os.path.join(FIX, "reduce-synthetic.csv"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        head = next(i for i, line in enumerate(lines) if not line.startswith("#"))
        ib = lines[head].split(",").index("bytes_in_flight_per_sm")
        kept = lines[:head + 1] + [line for line in lines[head + 1:] if line and not
                                   line.startswith("#") and int(line.split(",")[ib]) <= 131072]
        upto = os.path.join(T, "upto128k.csv")
        with open(upto, "w", encoding="utf-8") as f:
            f.write("\n".join(kept) + "\n")
        plot("--outdir", out, upto)
        hi = max(int(line.split(",")[ib]) for line in kept[head + 1:])
        labels = [svgfig.bytes_of(label) for _, label in svgfig.Figure(
            os.path.join(out, "upto128k-inflight-reduce.svg")).tick_labels("middle")]
        self.assertTrue(hi > 65536, "data past 64 KiB (%d B in flight)" % hi)
        self.assertTrue(max(v for v in labels if v) >= hi,
                        "an x label at or past the largest bytes in flight")
        little = [p for p in inf.paths if p["title"].startswith("Little")]
        model = max(little, key=lambda p: len(p["points"]))
        sample = min(little, key=lambda p: len(p["points"]))
        period = sum(float(v) for v in sample["dash"].split(",")) if sample["dash"] else 0
        self.assertTrue(period > 0 and
        sample["points"][-1][0] - sample["points"][0][0] >= 2 * period,
                        "the model's key sample is dashed, two periods long")
        y_inf = svgfig.axis_map(inf.tick_labels("end"))
        on_roof = [pt for pt in model["points"] if abs(y_inf(pt[1]) - roof) < 0.005 * roof]
        self.assertTrue(len(on_roof) <= 1,
                        "the model line ends at the roof (does not run along it)")
        self.assertTrue(all(y_inf(pt[1]) <= roof * 1.005 for pt in model["points"]),
                        "the model line stays at or below the roof")
        # Its slope: 132 SMs / 350 ns, traffic 1: at the line's lower end, y = x * 132 / 350.
        x_px = [(svgfig.bytes_of(label), px) for px, label in inf.tick_labels("middle")]
        x_px = [(v, px) for v, px in x_px if v]
        (v0, p0), (v1, p1) = x_px[0], x_px[-1]


        def x_of(px):
            import math
            return 2 ** (math.log2(v0) + (px - p0) * (math.log2(v1) - math.log2(v0)) / (p1 - p0))


        mid = model["points"][len(model["points"]) // 2]
        self.assertTrue(abs(y_inf(mid[1]) - x_of(mid[0]) * 132 / 350) < 0.02 * y_inf(mid[1]) + 15,
                        "the model line is bytes x SMs / latency (350 ns)")

    def test_06_ladder_one_series_the_right(self):
        # ladder: one series, the right axis is the left at the clock
        lad = svgfig.Figure(os.path.join(out, "chase-latency-synthetic-ladder.svg"))
        tl, lrows = ok_rows("chase-latency-synthetic.csv")
        mhz = float(tl.meta_get("sm_clock_mhz"))
        drawn = [m for m in lad.marks if m["color"] not in UNCOLOURED]
        self.assertTrue(len(lrows) <= len(drawn) <= len(lrows) + 1,
                        "ladder: one series: a point per ok row (and its key's)")
        yc = svgfig.axis_map(lad.tick_labels("end"))
        self.assertTrue(len(lad.tick_labels("start")) >= 3 and
        all(abs(float(label) - yc(py) * 1000 / mhz) < 0.01 * max(1.0, float(label))
        for py, label in lad.tick_labels("start")),
                        "ladder: the right axis reads ns at %g MHz" % mhz)

    def test_07_hop_time_each_chase_row(self):
        # hop time: each chase row's ns x MHz / 1000 where the axes put it
        hop = os.path.join(T, "hop")
        plot("--outdir", hop, os.path.join(FIX, "chase-warp-synthetic.csv"))
        hf = svgfig.Figure(os.path.join(hop, "chase-warp-synthetic-hoptime-chase-warp.svg"))
        th, hrows = ok_rows("chase-warp-synthetic.csv", mode="warp")
        hx = dict((label, px) for px, label in hf.tick_labels("middle"))
        self.assertTrue([label for _, label in hf.tick_labels("middle")][:2] == ["12.5", "25"]
                        and "100" in hx,
                        "hop time: x axis from the lowest level to 100 in steps of 12.5")
        self.assertTrue("cycles per dependent load of one chain" in hf.texts,
                        "hop time: the y label")
        y_hop = svgfig.axis_map(hf.tick_labels("end"))
        placed = 0
        for r in hrows:
            occ_pct = occcsv.number(th.field(r, "occ_achieved_pct"))
            cyc = (occcsv.number(th.field(r, "ns_per_hop_median")) *
                   occcsv.number(th.field(r, "sm_clock_mhz_median")) / 1000)
            px_x = hx["12.5"] + (hx["100"] - hx["12.5"]) * (occ_pct - 12.5) / 87.5
            placed += any(abs(m["x"] - px_x) < 1 and abs(y_hop(m["y"]) - cyc) < 0.01 * cyc
                          for m in hf.marks)
        self.assertTrue(placed == len(hrows) > 0,
                        "hop time: every warp row's cycles per hop is drawn there (%d of %d)"
                        % (placed, len(hrows)))

    def test_08_the_comparison_a_panel_per(self):
        # the comparison: a panel per unroll
        cmp = os.path.join(T, "cmp")
        plot("--compare", "--out", cmp, os.path.join(FIX, "reduce-synthetic.csv"),
             os.path.join(FIX, "reduce-gpu-b-synthetic.csv"))
        cf = svgfig.Figure(cmp + ".svg")
        self.assertTrue(all(cf.texts.count("unroll %d" % u) == 1 for u in (1, 2, 4, 8)) and
                        [label for _, label in cf.tick_labels("end")].count("100") == 4,
                        "compare: one panel per unroll, each with its axis")
        gpu_curves = [p for p in curve_paths(cf) if p["stroke"] in (rgb[1], rgb[2])]
        self.assertTrue(len(gpu_curves) == 2 * len(curve_paths(occ)),
                        "compare: every curve of both GPUs, in colour by GPU (%d)"
                        % len(gpu_curves))

    def test_09_thinning_any_figure(self):
        # thinning any figure
        thin = os.path.join(T, "thin")
        plot("--outdir", thin, "--unroll", "4", "--vec", "16",
             os.path.join(FIX, "reduce-synthetic.csv"))
        th = svgfig.Figure(os.path.join(thin, "reduce-synthetic-occupancy-reduce.svg"))
        _, rows = ok_rows("reduce-synthetic.csv", unroll="4", vec_bytes="16")
        self.assertTrue(len(curve_paths(th)) == 1, "--unroll 4 --vec 16: one curve")
        self.assertTrue("64 B: 4×16" in th.texts and
                        not any(t.startswith("4 B:") for t in th.texts),
                        "--unroll 4 --vec 16: its label names u4_v16 only")
        self.assertTrue(len([m for m in th.marks if m["color"] not in UNCOLOURED]) == len(rows),
                        "--unroll 4 --vec 16: a point per row of that curve")

    def test_10_the_arithmetic_figures_key_below(self):
        # the arithmetic figures: key below, one point per curve and x; --vec picks an element size
        ar = os.path.join(T, "arith")
        plot("--outdir", ar, os.path.join(FIX, "fma-synthetic.csv"),
             os.path.join(FIX, "mixed-synthetic.csv"))
        for name in ("fma-synthetic-flops-fma-fp32", "mixed-synthetic-flops-mixed"):
            fig = svgfig.Figure(os.path.join(ar, name + ".svg"))
            fx = dict((label, px) for px, label in fig.tick_labels("middle"))
            self.assertTrue("12.5" in fx and "100" in fx and (fx["100"] - fx["12.5"]) / 1200 >= 0.6,
                            "%s: the data span at least 60%% of the width" % name)
        fig = svgfig.Figure(os.path.join(ar, "fma-synthetic-flops-fma-fp32.svg"))
        t, rows = ok_rows("fma-synthetic.csv", vec_bytes="4")
        units = sorted({t.field(r, "unroll") for r in rows}, key=int)
        # flops.gp titles its curves (the key's entries are theirs): the polylines named "U = ...".
        chains = [p for p in fig.paths if p["title"].startswith("U = ") and len(p["points"]) > 2]
        self.assertTrue(len(chains) == len(units),
                        "fma fp32: one curve per chain count (%s)" % ",".join(units))
        self.assertTrue(sum(len(p["points"]) for p in chains) ==
                        len({(t.field(r, "unroll"), t.field(r, "occ_achieved_pct")) for r in rows}),
                        "fma fp32: one point per curve and occupancy")
        vec8 = os.path.join(T, "vec8")
        plot("--outdir", vec8, "--vec", "8", os.path.join(FIX, "fma-synthetic.csv"))
        self.assertTrue(sorted(os.listdir(vec8)) == ["fma-synthetic-flops-fma-fp64.png",
                                                     "fma-synthetic-flops-fma-fp64.svg"],
                        "--vec 8 on fma: the fp64 figure only")



if __name__ == "__main__":
    unittest.main()
