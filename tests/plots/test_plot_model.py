#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/plots/test_plot_model.py: the bytes-in-flight figure draws the model's own predictions.

tests/data/h100-reduce-mission-5900278.csv is a run with load levels whose trip spread is 0.70
(not 1: a stream's adjacent lines move together), and whose gbps_predicted column is what the
C model computes from the file (`occsweep --recompute` agrees with it, checked here). The figure
plots/plot draws for it must put a predicted line through every point's prediction: at each
ok reduce row's bytes in flight, the model's gbps_predicted for that row (a curve's point: the
lower median of its rows there), read back from the SVG (tests/plots/svgfig.py) within 1% or 2
pixels. A figure that predicted with a trip spread of 1 through the levels misses 26 of the 117
points, by up to 4%.

Usage: test_plot_model.py PATH/TO/occsweep. Exit 0 passed, 1 failed, 77 no gnuplot."""
import math
import os
import re
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

CSV = os.path.join(ROOT, "tests", "data", "h100-reduce-mission-5900278.csv")
PLOT = os.path.join(ROOT, "plots", "plot")
OCCSWEEP = None
# The strokes of the predictions (plots/inflight.gp): black to grey, dotted.
PREDICTED_STROKES = ("rgb(  0,   0,   0)", "rgb( 68,  68,  68)", "rgb(119, 119, 119)",
                     "rgb(170, 170, 170)")


def expected_points(t):
    """{(unroll, vec, lever, x text): lower median of gbps_predicted} over the ok reduce rows with
    a finite prediction: the points of the figure's predicted lines."""
    per = {}
    for r in t.rows:
        f = lambda c: t.field(r, c)  # noqa: E731
        p = occcsv.number(f("gbps_predicted"))
        if f("status") != "ok" or f("kernel") != "reduce" or not math.isfinite(p):
            continue
        per.setdefault((f("unroll"), f("vec_bytes"), f("lever"), f("bytes_in_flight_per_sm")),
                       []).append(p)
    return {k: sorted(v)[(len(v) - 1) // 2] for k, v in per.items()}


def y_at(points, px):
    """The polyline's y pixel at x pixel px, or None where it does not span px."""
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        lo, hi = min(x0, x1), max(x0, x1)
        if lo - 0.5 <= px <= hi + 0.5:
            return y0 if x1 == x0 else y0 + (y1 - y0) * (px - x0) / (x1 - x0)
    return None


class InflightDrawsTheModel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        r = subprocess.run([PLOT, "--outdir", cls.tmp, CSV], capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError("plots/plot failed: " + r.stderr)
        base = os.path.basename(CSV)[:-4]
        cls.fig = svgfig.Figure(os.path.join(cls.tmp, base + "-inflight-reduce.svg"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_csv_predictions_are_the_models(self):
        r = subprocess.run([OCCSWEEP, "--recompute", CSV], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        m = re.search(r"largest difference from its gbps_predicted ([0-9.e+-]+)%", r.stdout)
        self.assertIsNotNone(m, r.stdout)
        self.assertLess(float(m.group(1)), 0.01)

    def test_trip_spread_is_not_one(self):
        knee = os.path.join(self.tmp, "knee.md")
        r = subprocess.run([OCCSWEEP, "--recompute", CSV, "--out", knee], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(knee, encoding="utf-8") as f:
            m = re.search(r"trip spread of a stream's adjacent lines[^:]*: ([0-9.]+)", f.read())
        self.assertIsNotNone(m)
        self.assertLess(float(m.group(1)), 0.9)

    def test_predicted_points_drawn(self):
        fig = self.fig
        xt = [(px, svgfig.bytes_of(label)) for px, label in fig.tick_labels("middle")]
        xt = [(px, b) for px, b in xt if b]
        (p0, b0), (p1, b1) = xt[0], xt[-1]
        px_of = lambda b: p0 + (p1 - p0) * math.log2(b / b0) / math.log2(b1 / b0)  # noqa: E731
        gbps_of = svgfig.axis_map(fig.tick_labels("end"))
        lines = [p["points"] for p in fig.paths
                 if p["stroke"] in PREDICTED_STROKES and p["dash"] and len(p["points"]) > 2]
        self.assertTrue(lines, "no predicted line drawn")
        points = expected_points(occcsv.read(CSV))
        self.assertGreater(len(points), 50)
        missed = []
        for (u, v, lever, x), want in sorted(points.items()):
            px = px_of(float(x))
            drawn = [gbps_of(y) for y in (y_at(ln, px) for ln in lines) if y is not None]
            tol = max(0.01 * want, abs(gbps_of(0) - gbps_of(2)))
            if not any(abs(d - want) <= tol for d in drawn):
                near = min(drawn, key=lambda d: abs(d - want)) if drawn else float("nan")
                missed.append("u%s v%s %s at %s B: model %.0f GB/s, nearest drawn %.0f"
                              % (u, v, lever, x, want, near))
        self.assertEqual(missed, [], "%d of %d predictions not drawn:\n  %s"
                         % (len(missed), len(points), "\n  ".join(missed)))


if __name__ == "__main__":
    if shutil.which("gnuplot") is None:
        print("SKIP: gnuplot not found")
        sys.exit(77)
    if len(sys.argv) < 2:
        print("usage: test_plot_model.py PATH/TO/occsweep", file=sys.stderr)
        sys.exit(2)
    OCCSWEEP = sys.argv.pop(1)
    unittest.main()
