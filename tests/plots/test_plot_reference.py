#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/plots/test_plot_reference.py: every figure of every committed reference CSV
(results/*/*.csv), drawn by plots/plot, read as a report's reader would: gnuplot says nothing on
stderr (no "difficulty fitting plot titles into key"); each SVG has a two-line title, the first
saying what is drawn against what, the second naming the CSV's GPU; occupancy axes are the API's
(theoretical) occupancy, never called "achieved"; the key (the entries of titled plot elements:
their text and sample) lies outside every plot area of the figure, within the image, and takes at
most a quarter of its height. Exit 0 passed, 1 failed, 77 no gnuplot or no reference CSV."""
import glob
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
import svgfig  # noqa: E402

CSVS = sorted(glob.glob(os.path.join(ROOT, "results", "*", "*.csv")))
if shutil.which("gnuplot") is None or not CSVS:
    print("SKIP: gnuplot not found" if CSVS else "SKIP: no reference CSV in results/")
    sys.exit(77)
W, H = 1200, 800

_RECT = re.compile(r"<path stroke='black'\s+d='M([0-9.]+),([0-9.]+) L([0-9.]+),([0-9.]+) "
                   r"L([0-9.]+),([0-9.]+) L([0-9.]+),([0-9.]+) L[0-9.]+,[0-9.]+ Z")
_PLOT = re.compile(r"<g id=\"gnuplot_plot_\d+\" ><title>([^<]*)</title>")
_TEXT_AT = re.compile(r'<g transform="translate\(([-0-9.]+),([-0-9.]+)\)".*font-size="([0-9.]+)"'
                      r'.*text-anchor="(\w+)"')
_TEXT = svgfig._TEXT  # noqa: SLF001 (the same <text> lines svgfig reads)
_FIRST_SEG = re.compile(r"d='M([-0-9.]+),([-0-9.]+) L([-0-9.]+),([-0-9.]+)")


def parse(path):
    """(plot areas [(x0, y0, x1, y1)], key boxes [(x0, y0, x1, y1, title)], title lines, texts)
    of a gnuplot SVG."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    areas, keys, texts = set(), [], []
    entry = None  # [title, boxes so far]: inside a titled plot element, before its sample ends
    at = None
    for line in lines:
        for m in _RECT.finditer(line):
            xs = [float(m.group(i)) for i in (1, 3, 5, 7)]
            ys = [float(m.group(i)) for i in (2, 4, 6, 8)]
            areas.add((min(xs), min(ys), max(xs), max(ys)))
        m = _PLOT.search(line)
        if m:
            entry, since = [m.group(1), []], 0
            keys.append(entry)
            continue
        if entry is not None:
            since += 1
            if since > 6 or "<use xlink:href='#gpPt" in line:  # no text of its own, or a points-only sample
                entry = None
        m = _TEXT_AT.search(line)
        if m:
            at = (float(m.group(1)), float(m.group(2)), float(m.group(3)), m.group(4))
        m = _TEXT.search(line)
        if m:
            text = m.group(1).strip()
            texts.append(text)
            if entry is not None and at is not None and not entry[1]:
                x, y, size, anchor = at
                width = 0.55 * size * len(text)
                x0 = x if anchor == "start" else x - width if anchor == "end" else x - width / 2
                entry[1].append((x0, y - 0.8 * size, x0 + width, y + 0.2 * size))
            at = None
        if entry is not None and len(entry[1]) == 1:
            m = _FIRST_SEG.search(line)
            if m:  # the key sample: the first segment of the element's first path
                x0, y0, x1, y1 = (float(v) for v in m.groups())
                entry[1].append((min(x0, x1), min(y0, y1) - 3, max(x0, x1), max(y0, y1) + 3))
                entry = None
    boxes = [b + (title,) for title, bs in keys for b in bs
             if title and not title.startswith("gnuplot_plot_")]
    return sorted(areas), boxes, texts


def overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def gpu_of(csv):
    """The gpu_name metadata of csv ("" where it has none)."""
    with open(csv, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                break
            if line.startswith("# gpu_name="):
                return line.split("=", 1)[1].strip()
    return ""


class ReferenceFigures(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_every_figure(self):
        for csv in CSVS:
            with self.subTest(csv=os.path.basename(csv)):
                self.check_csv(csv)

    def check_csv(self, csv):
        out = os.path.join(self.tmp, os.path.basename(os.path.dirname(csv)))
        r = subprocess.run([os.path.join(ROOT, "plots", "plot"), "--outdir", out, csv],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.strip(), "", "gnuplot prints nothing on stderr")
        gpu = gpu_of(csv)
        svgs = sorted(p for p in r.stdout.split("\n") if p.endswith(".svg"))
        self.assertTrue(svgs)
        for svg in svgs:
            with self.subTest(figure=os.path.basename(svg)):
                self.check_figure(svg, gpu)

    def check_figure(self, svg, gpu):
        fig = os.path.basename(svg)
        areas, keys, texts = parse(svg)
        self.assertGreaterEqual(len(areas), 1, "a plot area")
        self.assertTrue(any(":" in t and " against " in t for t in texts),
                        "the title says what against what")
        self.assertTrue(any(t.startswith(gpu + " · ") for t in texts),
                        "the title names the GPU (%s)" % gpu)
        self.assertFalse(any(t.startswith("achieved occupancy") for t in texts),
                         "no axis calls the API's occupancy achieved")
        if "-occupancy-" in fig or "-flops-" in fig or "-chase" in fig:
            self.assertTrue(any(t.startswith("occupancy, theoretical") for t in texts),
                            "the occupancy axis is the theoretical one")
        inside = [k[4] for k in keys for a in areas if overlaps(k, a)]
        self.assertEqual(inside, [], "no key entry inside a plot area")
        if keys:
            top, bottom = min(k[1] for k in keys), max(k[3] for k in keys)
            self.assertLessEqual(bottom - top, H / 4,
                                 "the key takes at most a quarter of the height")
            out_of = [k[4] for k in keys if k[0] < 0 or k[2] > W or k[1] < 0 or k[3] > H]
            self.assertEqual(out_of, [], "every key entry within the image")


if __name__ == "__main__":
    unittest.main()
