#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/plots/test_plot_layout.py: every figure type drawn without collisions, read back from its
SVG geometry (tests/plots/svglayout.py: text anchors with extents from their font size, the plot
areas from the border paths, the canvas from the viewBox). For the figures of the synthetic
fixtures, of tests/data and of the committed reference CSVs (results/*/*.csv), and --compare
(against occupancy and bytes in flight, as % of the roof and in GB/s, with long run labels):
no text leaves the canvas, every titled curve has its key entry, no key entry overlaps a plot
area, no two texts overlap (an axis label
and the key below it included), and no label inside a plot area is crossed by a drawn line
(curve, roof, marker). Exit 0 passed, 1 failed, 77 no gnuplot."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "tests", "plots"))
import svglayout  # noqa: E402

if shutil.which("gnuplot") is None:
    print("SKIP: gnuplot not found")
    sys.exit(77)
FIX = os.path.join(ROOT, "tests", "fixtures")
DATA = os.path.join(ROOT, "tests", "data")
PLOT = os.path.join(ROOT, "plots", "plot")
# The fixtures that draw figures (every figure type between them), the real runs of tests/data
# and the reference sets.
CSVS = ([os.path.join(FIX, n) for n in ("reduce-synthetic.csv", "reduce-auto-synthetic.csv",
                                        "copy-synthetic.csv", "reduce-blocks-synthetic.csv",
                                        "reduce-ncu-synthetic.csv", "chase-latency-synthetic.csv",
                                        "chase-warp-synthetic.csv", "fma-synthetic.csv",
                                        "mixed-synthetic.csv")] +
        sorted(glob.glob(os.path.join(DATA, "*.csv"))) +
        sorted(glob.glob(os.path.join(ROOT, "results", "*", "*.csv"))))
H100 = os.path.join(DATA, "h100-reduce-mission-5900278.csv")
H200 = os.path.join(DATA, "h200-reduce-mission-3aa2b51.csv")


def plot(*args):
    r = subprocess.run([PLOT] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError("plots/plot %s exits %d (%s)"
                             % (" ".join(args), r.returncode, r.stderr.strip()[:300]))
    return [p for p in r.stdout.split("\n") if p.endswith(".svg")]


def renamed(src, dst, gpu_name):
    """A copy of the CSV src at dst whose gpu_name metadata (and rows) is gpu_name."""
    with open(src, encoding="utf-8") as f:
        text = f.read()
    old = next(line for line in text.split("\n") if line.startswith("# gpu_name="))[11:]
    with open(dst, "w", encoding="utf-8") as f:
        f.write(text.replace(old, gpu_name))
    return dst


class Layout(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def check(self, svg):
        fig = svglayout.Layout(svg)
        self.assertTrue(fig.areas, "%s: a plot area" % os.path.basename(svg))
        problems = (fig.off_canvas() + fig.keys_missing() + fig.keys_in_areas() + fig.text_collisions() +
                    fig.labels_on_lines())
        self.assertEqual(problems, [], os.path.basename(svg))

    def test_every_figure(self):
        for csv in CSVS:
            out = os.path.join(self.tmp, "fig", os.path.basename(os.path.dirname(csv)))
            for svg in plot("--outdir", out, csv):
                with self.subTest(figure=os.path.basename(svg)):
                    self.check(svg)

    def test_compare(self):
        # Long run labels: two copies of one GPU's runs under a long model name.
        name = "NVIDIA H100 80GB HBM3 (the second sample of a long-named model)"
        long_a = renamed(H100, os.path.join(self.tmp, "long-a.csv"), name)
        long_b = renamed(H200, os.path.join(self.tmp, "long-b.csv"), name)
        cases = {"occ": [], "inflight": ["--x", "inflight"], "gbps": ["--y", "gbps"],
                 "inflight-gbps": ["--x", "inflight", "--y", "gbps"]}
        for case, args in cases.items():
            for pair, files in (("two", [H100, H200]), ("long", [long_a, long_b, H200])):
                prefix = os.path.join(self.tmp, "cmp-%s-%s" % (case, pair))
                with self.subTest(compare=case, runs=pair):
                    plot("--compare", *args, "--out", prefix, *files)
                    self.check(prefix + ".svg")


if __name__ == "__main__":
    unittest.main()
