#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/plots/test_plot_async.py: the stages and warpgroups figures of real H100 runs, read back
from their SVG (tests/plots/svgfig.py). tests/data holds the runs, unedited, named
<gpu>-<kernel>-<mode>-<revision>.csv: h100-async-bulk-9f5d025.csv and h100-async-cp-9f5d025.csv
(async, modes bulk and cp), h100-wgmma-f16-9f5d025.csv and h100-mma-f16-9f5d025.csv, measured on
an H100 at revision 9f5d025 (each file's command metadata says how), and
h100-reduce-mission-5900278.csv, a reduce sweep of an H100 at revision 5900278.

Checked: plots/plot draws a stages figure (not the occupancy and block figures) for the async
CSVs and a warpgroups figure (not the flops one) for wgmma; a panel per block size (per N) with a
point per variant and level of the CSV; in the stages figure one colour per bytes in flight per
block (S x C) of the CSV; the reference line at the best point's y of the CSV given beside (the
best reduce GB/s, the best mma TFLOP/s), in every panel, the key naming whose rows it is; the same
line from the CSV's own rows when it holds them; no line, and the key saying so, without one; the
report of a run lists the figures. Exit 0 passed, 1 failed, 77 no gnuplot."""
import collections
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
import figspec  # noqa: E402
import occcsv  # noqa: E402
import svgfig  # noqa: E402

if shutil.which("gnuplot") is None:
    print("SKIP: gnuplot not found")
    sys.exit(77)
DATA = os.path.join(ROOT, "tests", "data")
BULK = os.path.join(DATA, "h100-async-bulk-9f5d025.csv")
CP = os.path.join(DATA, "h100-async-cp-9f5d025.csv")
WGMMA = os.path.join(DATA, "h100-wgmma-f16-9f5d025.csv")
MMA = os.path.join(DATA, "h100-mma-f16-9f5d025.csv")
REDUCE = os.path.join(DATA, "h100-reduce-mission-5900278.csv")
PLOT = os.path.join(ROOT, "plots", "plot")
T = tempfile.mkdtemp()
BLACK = "rgb(  0,   0,   0)"
KEY_TOP = 800 * (1 - 0.36)  # the panels' bottom (bmargin at screen 0.36): the key lies below


def tearDownModule():
    shutil.rmtree(T, ignore_errors=True)


def plot(outdir, *csvs, report=False):
    r = subprocess.run([PLOT] + (["--report"] if report else []) + ["--outdir", outdir] +
                       list(csvs), capture_output=True, text=True)
    if r.returncode != 0 or r.stderr:
        raise AssertionError("plots/plot %s: exit %d, stderr %r" % (" ".join(csvs), r.returncode,
                                                                  r.stderr[:300]))
    return r.stdout.split()


def points(path, kernel, x, y, by):
    """{(by values, x text): the lower median of y} of the CSV's ok rows of kernel."""
    t = occcsv.read(path)
    ys = collections.defaultdict(list)
    for r in t.rows:
        if t.field(r, "status") == "ok" and t.field(r, "kernel") == kernel:
            v = occcsv.number(t.field(r, y))
            if v == v:
                ys[(tuple(t.field(r, c) for c in by), t.field(r, x))].append(v)
    return {k: sorted(v)[(len(v) - 1) // 2] for k, v in ys.items()}


def ref_lines(fig):
    """The y pixels of the reference lines drawn in the panels (black, dash-dot, 3 wide)."""
    return [p["points"][0][1] for p in fig.paths
            if p["stroke"] in ("black", BLACK) and p["dash"] and p["width"] == 4.5 and
            p["points"][0][1] < KEY_TOP and len({y for _, y in p["points"]}) == 1]


def y_axis(fig):
    return svgfig.axis_map([(y, label) for y, label in fig.tick_labels("end")])


def data_marks(fig):
    return [m for m in fig.marks if m["color"] != BLACK and m["y"] < KEY_TOP]


class Stages(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.out = plot(os.path.join(T, "s"), BULK, CP, REDUCE)
        cls.bulk = svgfig.Figure(os.path.join(T, "s", "h100-async-bulk-9f5d025-stages-async.svg"))
        cls.cp = svgfig.Figure(os.path.join(T, "s", "h100-async-cp-9f5d025-stages-async.svg"))

    def test_01_figures_chosen(self):
        names = {os.path.basename(p)[:-4] for p in self.out if p.endswith(".svg")}
        for base in ("h100-async-bulk-9f5d025", "h100-async-cp-9f5d025"):
            self.assertIn(base + "-stages-async", names)
            self.assertIn(base + "-inflight-async", names)
            self.assertNotIn(base + "-occupancy-async", names, "stage counts merged by (U, V)")
            self.assertNotIn(base + "-block-async", names)
        self.assertIn("h100-reduce-mission-5900278-occupancy-reduce", names)

    def test_02_a_point_per_variant_and_level_a_panel_per_block(self):
        for fig, path, panels in ((self.bulk, BULK, ("32-thread blocks (1 warp)",
                                                     "160-thread blocks (5 warps)")),
                                  (self.cp, CP, ("32-thread blocks (1 warp)",
                                                 "128-thread blocks (4 warps)"))):
            want = points(path, "async", "occ_achieved_pct", "gbps_median",
                          ("variant", "block_threads"))
            self.assertEqual(len(data_marks(fig)), len(want), path)
            for title in panels:
                self.assertIn(title, fig.texts)
            y_of = y_axis(fig)
            ys = sorted(y_of(m["y"]) for m in data_marks(fig))
            self.assertAlmostEqual(ys[-1], max(want.values()), delta=0.005 * max(want.values()))
            self.assertAlmostEqual(ys[0], min(want.values()), delta=0.005 * max(want.values()))

    def test_03_one_colour_per_bytes_in_flight_per_block(self):
        for fig, path in ((self.bulk, BULK), (self.cp, CP)):
            t = occcsv.read(path)
            block = set()
            for r in t.rows:
                if t.field(r, "status") == "ok" and t.field(r, "kernel") == "async":
                    block.add(occcsv.number(t.field(r, "bytes_in_flight_per_sm")) /
                              occcsv.number(t.field(r, "blocks_per_sm")))
            self.assertEqual(len({m["color"] for m in data_marks(fig)}), len(block), path)
            # bulk: S x C of the name, e.g. async_bulk_s3_c8k_w1 holds 24 KiB a block
            if path == BULK:
                self.assertEqual(block, {figspec.name_axis(v, "s") * figspec.name_axis(v, "c") *
                                         1024 for v in {t.field(r, "variant") for r in t.rows
                                                        if t.field(r, "kernel") == "async" and
                                                        t.field(r, "status") == "ok"}})

    def test_04_reference_line_is_the_best_reduce_point(self):
        best = max(points(REDUCE, "reduce", "occ_achieved_pct", "gbps_median",
                          ("variant", "lever", "block_threads")).values())
        for fig in (self.bulk, self.cp):
            lines = ref_lines(fig)
            self.assertEqual(len(lines), 2, "a line in each of the two panels")
            for y in lines:
                self.assertAlmostEqual(y_axis(fig)(y), best, delta=0.002 * best)
            self.assertIn("register path %.0f GB/s" % best, fig.texts)
            self.assertIn("register path: the best of reduce (stream) of "
                          "h100-reduce-mission-5900278.csv", fig.texts)

    def test_05_reference_of_the_same_run(self):
        # The bulk rows and the reduce rows in one CSV: the line from its own rows.
        both = os.path.join(T, "both.csv")
        with open(BULK) as a, open(REDUCE) as b, open(both, "w") as out:
            out.write(a.read())
            out.writelines(line for line in b if line.startswith("NVIDIA"))
        plot(os.path.join(T, "own"), both)
        fig = svgfig.Figure(os.path.join(T, "own", "both-stages-async.svg"))
        best = max(points(REDUCE, "reduce", "occ_achieved_pct", "gbps_median",
                          ("variant", "lever", "block_threads")).values())
        self.assertEqual([round(y_axis(fig)(y)) for y in ref_lines(fig)], [round(best)] * 2)
        self.assertIn("register path: the best of reduce (stream)", fig.texts)

    def test_06_no_reference(self):
        plot(os.path.join(T, "alone"), BULK)
        fig = svgfig.Figure(os.path.join(T, "alone", "h100-async-bulk-9f5d025-stages-async.svg"))
        self.assertEqual(ref_lines(fig), [])
        self.assertIn("no register-path reference", fig.texts)


class Warpgroups(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.out = plot(os.path.join(T, "w"), WGMMA, MMA, report=True)
        cls.fig = svgfig.Figure(os.path.join(T, "w", "h100-wgmma-f16-9f5d025-warpgroups-wgmma.svg"))

    def test_01_figures_chosen(self):
        names = {os.path.basename(p)[:-4] for p in self.out if p.endswith(".svg")}
        self.assertEqual(names, {"h100-wgmma-f16-9f5d025-warpgroups-wgmma",
                                 "h100-mma-f16-9f5d025-flops-mma-fp32"})

    def test_02_panels_per_n_points_per_variant(self):
        want = points(WGMMA, "wgmma", "blocks_per_sm", "gflops_median", ("variant",))
        for n in (64, 128, 256):
            self.assertIn("N = %d (m64n%dk16)" % (n, n), self.fig.texts)
        self.assertEqual(len(data_marks(self.fig)), len(want))
        y_of = y_axis(self.fig)
        top = max(y_of(m["y"]) for m in data_marks(self.fig))
        self.assertAlmostEqual(top, max(want.values()) / 1e3, delta=0.005 * top)
        # colours: one per G (the unroll column), 1, 2 and 4
        self.assertEqual(len({m["color"] for m in data_marks(self.fig)}), 3)

    def test_03_reference_line_is_the_mma_plateau(self):
        best = max(points(MMA, "mma", "occ_achieved_pct", "gflops_median",
                          ("variant",)).values()) / 1e3
        lines = ref_lines(self.fig)
        self.assertEqual(len(lines), 3, "a line in each of the three panels")
        for y in lines:
            self.assertAlmostEqual(y_axis(self.fig)(y), best, delta=0.002 * best)
        self.assertIn("mma.sync plateau %.1f TFLOP/s" % best, self.fig.texts)
        self.assertIn("mma.sync plateau: the best of mma (f16) of h100-mma-f16-9f5d025.csv",
                      self.fig.texts)

    def test_04_no_reference(self):
        plot(os.path.join(T, "walone"), WGMMA)
        fig = svgfig.Figure(os.path.join(T, "walone",
                                         "h100-wgmma-f16-9f5d025-warpgroups-wgmma.svg"))
        self.assertEqual(ref_lines(fig), [])
        self.assertIn("no mma.sync plateau", fig.texts)

    def test_05_the_report_lists_the_figure(self):
        with open(os.path.join(T, "w", "h100-wgmma-f16-9f5d025-report.md")) as f:
            self.assertIn("warpgroups-wgmma", f.read())


if __name__ == "__main__":
    unittest.main(verbosity=2)
