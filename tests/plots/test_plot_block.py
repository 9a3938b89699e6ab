#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/plots/test_plot_block.py: runs of several block sizes
(tests/fixtures/reduce-blocks-synthetic.csv, block_threads 64, 128, 256 and 1024 of an auto-lever reduce sweep): the block figure is drawn
for them and not for a run of one block size; its data holds one series per block size, each
the natural (lever pad) rows of one (U, V), by default the one reaching the highest occupancy,
then the best GB/s (named in the title), --unroll/--vec picking another; the other figures keep block 128 (the smallest
where 128 did not run) and say so; --compare keeps one block size; the report's knee table has
a line per (variant, block size) with the knee of that block size's rows. Exit 0 passed, 1
failed (the figures' part skips without gnuplot)."""
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
import report  # noqa: E402

FIX = os.path.join(ROOT, "tests", "fixtures")
BLOCKS = os.path.join(FIX, "reduce-blocks-synthetic.csv")
SINGLE = os.path.join(FIX, "reduce-synthetic.csv")
SEL = os.path.join(ROOT, "plots", "csvsel.py")
T = tempfile.mkdtemp()


def figures(csv, *opts):
    """{type: (fig fields, [data blocks: [{column: text}]])} of csvsel.py check on csv."""
    prefix = os.path.join(T, "d%d-" % len(os.listdir(T)))
    r = subprocess.run([sys.executable, SEL, "check", "--data", prefix] + list(opts) + [csv],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError("csvsel check %s exits %d: %s"
                             % (os.path.basename(csv), r.returncode, r.stderr.strip()[:200]))
    out = {}
    for k, line in enumerate([x for x in r.stdout.splitlines() if x.startswith("fig\t")], 1):
        with open("%s%d.tsv" % (prefix, k), encoding="utf-8") as f:
            blocks = [b.splitlines() for b in f.read().split("\n\n\n")]
        data = [[dict(zip(b[0].split("\t"), row.split("\t"))) for row in b[1:]] for b in blocks]
        out[line.split("\t")[1]] = (line.split("\t"), data)
    return out


t = occcsv.read(BLOCKS)
ok = [{c: t.field(r, c) for c in ("variant", "unroll", "vec_bytes", "lever", "block_threads",
                                  "occ_achieved_pct", "gbps_median")}
      for r in t.rows if t.field(r, "status") == "ok"]
sizes = sorted({int(r["block_threads"]) for r in ok})
pad = [r for r in ok if r["lever"] == "pad"]


def series(rows):
    """{block size: sorted [(occupancy, GB/s)]} of rows."""
    out = {}
    for r in rows:
        out.setdefault(int(r["block_threads"]), []).append(
            (float(r["occ_achieved_pct"]), float(r["gbps_median"])))
    return {b: sorted(p) for b, p in out.items()}


class BlockFigure(unittest.TestCase):
    def test_fixture(self):
        self.assertEqual(sizes, [64, 128, 256, 1024], "the fixture holds four block sizes")

    def test_which_figures_and_block_data(self):
        single = figures(SINGLE)
        self.assertNotIn("block", single, "a run of one block size has no block figure")
        self.assertTrue(all("block" not in f[0][8] for f in single.values()),
                        "... and no block words in its titles")
        figs = figures(BLOCKS)
        self.assertIn("block", figs, "a run of several block sizes has the block figure")
        fields, data = figs["block"]
        self.assertEqual(fields[6], "block-reduce", "its name is block-<kernel>")
        reach = {}
        for r in pad:
            reach[r["variant"]] = max(reach.get(r["variant"], 0), float(r["occ_achieved_pct"]))
        best = max(pad, key=lambda r: (reach[r["variant"]], float(r["gbps_median"])))
        self.assertTrue(fields[8].startswith(best["variant"] + " (widest occupancy range)"),
                        "by default it draws the variant whose natural rows reach the highest "
                        "occupancy, of those the best GB/s, %s, named in the title (%s)"
                        % (best["variant"], fields[8]))
        self.assertEqual([int(b[0]["block_threads"]) for b in data], sizes,
                         "one series per block size")
        drawn = series([r for b in data for r in b])
        want = series([r for r in pad if r["variant"] == best["variant"]])
        self.assertEqual(drawn, want, "each series is that variant's natural rows of its block size")
        # A variant with capped twins draws its natural rows only.
        twin = next(r for r in ok if "_r" in r["variant"])
        base = twin["variant"].split("_r")[0]
        capped = [r for r in ok if r["variant"].startswith(base + "_r")]
        fields, data = figures(BLOCKS, "--unroll", twin["unroll"], "--vec", twin["vec_bytes"])["block"]
        drawn = series([r for b in data for r in b])
        self.assertEqual(drawn, series([r for r in pad if r["variant"] == base]),
                         "%s: its natural rows" % base)
        self.assertLess(max(p[0] for s in drawn.values() for p in s),
                        max(float(r["occ_achieved_pct"]) for r in capped),
                        "... not its capped ones")
        fields, data = figures(BLOCKS, "--unroll", "1", "--vec", "4")["block"]
        self.assertTrue(fields[8].startswith(
            "reduce_u1_v4: bandwidth against occupancy per block size"),
            "--unroll 1 --vec 4 draws reduce_u1_v4 (%s)" % fields[8])
        self.assertEqual(series([r for b in data for r in b]),
                         series([r for r in pad if r["variant"] == "reduce_u1_v4"]),
                         "... its rows")

    def test_other_figures_keep_one_block_size(self):
        figs = figures(BLOCKS)
        for ty in ("occupancy", "inflight"):
            fields, data = figs[ty]
            rows = [r for b in data for r in b]
            self.assertEqual({r["block_threads"] for r in rows}, {"128"},
                             "%s keeps block 128 only" % ty)
            self.assertTrue(fields[9].startswith("128-thread blocks (of 64, 128, 256, 1024)"),
                            "... and its title says so (%s)" % fields[9])
        _, data = figs["occupancy"]
        self.assertGreater(len(data), 1)
        for b in data:
            key = (b[0]["unroll"], b[0]["vec_bytes"], b[0]["lever"])
            rows = [r for r in ok if (r["unroll"], r["vec_bytes"], r["lever"]) == key and
                    r["block_threads"] == "128"]
            self.assertEqual(series(b), series(rows),
                             "occupancy curve u%s v%s %s holds the block-128 rows" % key)
        no128 = os.path.join(T, "no128.csv")
        with open(BLOCKS, encoding="utf-8") as f, open(no128, "w", encoding="utf-8") as g:
            lines = f.read().splitlines(True)
            i_block = next(ln for ln in lines
                           if not ln.startswith("#")).split(",").index("block_threads")
            g.writelines(ln for ln in lines if ln.startswith("#") or
                         ln.split(",")[i_block] != "128")
        fields, data = figures(no128)["occupancy"]
        self.assertTrue(fields[9].startswith("64-thread blocks (of 64, 256, 1024)"),
                        "without block 128 the smallest is kept (%s)" % fields[9])
        self.assertEqual({r["block_threads"] for b in data for r in b}, {"64"})

    def test_knee_per_variant_and_block_size(self):
        run = report.Run(BLOCKS)
        knees, per_block = report.knee_table(run)
        pairs = {(r["variant"], r["block_threads"]) for r in ok}
        self.assertTrue(per_block)
        self.assertEqual(len(knees), len(pairs), "the knee table has a line per (variant, "
                         "block size)")
        self.assertEqual({(k[0].strip("`"), k[4]) for k in knees}, pairs)
        for variant, size in (("reduce_u1_v4", "256"), ("reduce_u4_v16", "1024"),
                              ("reduce_u2_v16", "64")):
            pts = [(float(r["occ_achieved_pct"]), float(r["gbps_median"])) for r in ok
                   if r["variant"] == variant and r["block_threads"] == size]
            top = max(g for _, g in pts)
            knee = min(o for o, g in pts if g >= 0.9 * top)
            line = next((k for k in knees if k[0] == "`%s`" % variant and k[4] == size), None)
            with self.subTest(variant=variant, block=size):
                self.assertIsNotNone(line)
                # A knee at the lowest level run is marked (plots/report.py knee_text).
                want = "%.2f" % knee
                if knee == min(o for o, _ in pts):
                    want = "<=%s (lowest level run)" % want
                self.assertEqual(line[9], want)
                self.assertEqual(line[5], len(pts))
        knees, per_block = report.knee_table(report.Run(SINGLE))
        self.assertFalse(per_block, "a run of one block size has no block column")
        self.assertEqual(len(knees[0]), 13)

    @unittest.skipIf(shutil.which("gnuplot") is None, "gnuplot not found: figures not drawn")
    def test_figures_drawn(self):
        out = os.path.join(T, "fig")
        for csv in (BLOCKS, SINGLE):
            r = subprocess.run([os.path.join(ROOT, "plots", "plot"), "--outdir", out, csv],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, "plots/plot %s: %s"
                             % (os.path.basename(csv), r.stderr.strip()[:200]))
        names = os.listdir(out)
        self.assertLessEqual({"reduce-blocks-synthetic-block-reduce.png",
                              "reduce-blocks-synthetic-block-reduce.svg"}, set(names),
                             "the block figure is drawn, PNG and SVG")
        self.assertFalse([n for n in names if n.startswith("reduce-synthetic-block")],
                         "no block figure for one block size")
        with open(os.path.join(out, "reduce-blocks-synthetic-block-reduce.svg"),
                  encoding="utf-8") as f:
            svg = f.read()
        for b in sizes:
            self.assertIn(">block %d<" % b, svg, "its key names each block size")
        self.assertIn("memcpy roof 4012 GB/s", svg, "... and the roof")

    def test_compare_keeps_one_block_size(self):
        cmp_prefix = os.path.join(T, "cmp")
        r = subprocess.run([sys.executable, SEL, "compare", "--data", cmp_prefix + ".tsv",
                            "--table", cmp_prefix, BLOCKS, SINGLE], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, "compare of a several-block and a one-block run: %s"
                         % r.stderr.strip()[:200])
        with open(cmp_prefix + ".tsv", encoding="utf-8") as f:
            cols = f.readline().rstrip("\n").split("\t")
            rows = [ln.rstrip("\n").split("\t") for ln in f if ln.startswith("1\t")]
        self.assertTrue(rows)
        self.assertEqual({x[cols.index("block_threads")] for x in rows}, {"128"},
                         "compare keeps block 128 of the several-block run")


def tearDownModule():
    shutil.rmtree(T, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
