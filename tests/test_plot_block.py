#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/test_plot_block.py: runs of several block sizes
(tests/fixtures/reduce-blocks-synthetic.csv, block_threads 64, 128, 256 and 1024 of an auto-lever reduce sweep): the block figure is drawn
for them and not for a run of one block size; its data holds one series per block size, each
the natural (lever pad) rows of one (U, V), by default the one with the best GB/s (named in
the title), --unroll/--vec picking another; the other figures keep block 128 (the smallest
where 128 did not run) and say so; --compare keeps one block size; the report's knee table has
a line per (variant, block size) with the knee of that block size's rows. Exit 0 passed, 1
failed (the figures' part skips without gnuplot)."""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "plots"))
import occcsv  # noqa: E402
import report  # noqa: E402
from pycheck import check, finish  # noqa: E402

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
    check("csvsel check %s exits 0 (%s)" % (os.path.basename(csv), r.stderr.strip()[:200]),
          r.returncode == 0)
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
check("the fixture holds four block sizes", sizes == [64, 128, 256, 1024])


def series(rows):
    """{block size: sorted [(occupancy, GB/s)]} of rows."""
    out = {}
    for r in rows:
        out.setdefault(int(r["block_threads"]), []).append(
            (float(r["occ_achieved_pct"]), float(r["gbps_median"])))
    return {b: sorted(p) for b, p in out.items()}


# --- which figures, and the block figure's data ----------------------------------------------
single = figures(SINGLE)
check("a run of one block size has no block figure", "block" not in single)
check("... and no block words in its titles", all("block" not in f[0][8] for f in single.values()))
figs = figures(BLOCKS)
check("a run of several block sizes has the block figure", "block" in figs)
fields, data = figs["block"]
check("its name is block-<kernel>", fields[6] == "block-reduce")
pad = [r for r in ok if r["lever"] == "pad"]
best = max(pad, key=lambda r: float(r["gbps_median"]))
check("by default it draws the variant with the best natural GB/s, %s, named in the title (%s)"
      % (best["variant"], fields[8]), fields[8].startswith(best["variant"] + " (best GB/s)"))
check("one series per block size", [int(b[0]["block_threads"]) for b in data] == sizes)
drawn = series([r for b in data for r in b])
want = series([r for r in pad if r["variant"] == best["variant"]])
check("each series is that variant's natural rows of its block size", drawn == want)
capped = [r for r in ok if r["variant"].startswith(best["variant"] + "_r")]
check("the fixture has capped rows of that variant, not drawn", capped and
      max(p[0] for s in drawn.values() for p in s) < max(float(r["occ_achieved_pct"])
                                                       for r in capped))
fields, data = figures(BLOCKS, "--unroll", "1", "--vec", "4")["block"]
check("--unroll 1 --vec 4 draws reduce_u1_v4 (%s)" % fields[8],
      fields[8].startswith("reduce_u1_v4: bandwidth against occupancy per block size"))
check("... its rows", series([r for b in data for r in b]) ==
      series([r for r in pad if r["variant"] == "reduce_u1_v4"]))

# --- the other figures keep one block size --------------------------------------------------
for ty in ("occupancy", "inflight"):
    fields, data = figs[ty]
    rows = [r for b in data for r in b]
    check("%s keeps block 128 only" % ty, {r["block_threads"] for r in rows} == {"128"})
    check("... and its title says so (%s)" % fields[9],
          fields[9].startswith("128-thread blocks (of 64, 128, 256, 1024)"))
_, data = figs["occupancy"]
for b in data:
    key = (b[0]["unroll"], b[0]["vec_bytes"], b[0]["lever"])
    rows = [r for r in ok if (r["unroll"], r["vec_bytes"], r["lever"]) == key and
            r["block_threads"] == "128"]
    if series(b) != series(rows):
        check("occupancy curve u%s v%s %s holds the block-128 rows" % key, False)
        break
else:
    check("every occupancy curve holds exactly its block-128 rows", len(data) > 1)
no128 = os.path.join(T, "no128.csv")
with open(BLOCKS, encoding="utf-8") as f, open(no128, "w", encoding="utf-8") as g:
    lines = f.read().splitlines(True)
    i_block = next(ln for ln in lines if not ln.startswith("#")).split(",").index("block_threads")
    g.writelines(ln for ln in lines if ln.startswith("#") or
                 ln.split(",")[i_block] != "128")
fields, data = figures(no128)["occupancy"]
check("without block 128 the smallest is kept (%s)" % fields[9],
      fields[9].startswith("64-thread blocks (of 64, 256, 1024)") and
      {r["block_threads"] for b in data for r in b} == {"64"})

# --- knee per (variant, block size) -----------------------------------------------------------
run = report.Run(BLOCKS)
knees, per_block = report.knee_table(run)
pairs = {(r["variant"], r["block_threads"]) for r in ok}
check("the knee table has a line per (variant, block size)",
      per_block and len(knees) == len(pairs) and
      {(k[0].strip("`"), k[4]) for k in knees} == pairs)
for variant, size in (("reduce_u1_v4", "256"), ("reduce_u4_v16", "1024"), ("reduce_u2_v16", "64")):
    pts = [(float(r["occ_achieved_pct"]), float(r["gbps_median"])) for r in ok
           if r["variant"] == variant and r["block_threads"] == size]
    top = max(g for _, g in pts)
    knee = min(o for o, g in pts if g >= 0.9 * top)
    line = next((k for k in knees if k[0] == "`%s`" % variant and k[4] == size), None)
    check("%s at block %s: knee %.2f, %d points (%s)" % (variant, size, knee, len(pts), line),
          line is not None and line[9] == "%.2f" % knee and line[5] == len(pts))
knees, per_block = report.knee_table(report.Run(SINGLE))
check("a run of one block size has no block column", not per_block and len(knees[0]) == 13)

# --- the figures themselves ------------------------------------------------------------------
if shutil.which("gnuplot") is None:
    print("SKIP: gnuplot not found: figures not drawn")
else:
    out = os.path.join(T, "fig")
    for csv in (BLOCKS, SINGLE):
        r = subprocess.run([os.path.join(ROOT, "plots", "plot"), "--outdir", out, csv],
                           capture_output=True, text=True)
        check("plots/plot %s exits 0 (%s)" % (os.path.basename(csv), r.stderr.strip()[:200]),
              r.returncode == 0)
    names = os.listdir(out)
    check("the block figure is drawn, PNG and SVG",
          {"reduce-blocks-synthetic-block-reduce.png",
           "reduce-blocks-synthetic-block-reduce.svg"} <= set(names))
    check("no block figure for one block size",
          not [n for n in names if n.startswith("reduce-synthetic-block")])
    with open(os.path.join(out, "reduce-blocks-synthetic-block-reduce.svg"),
              encoding="utf-8") as f:
        svg = f.read()
    check("its key names each block size and the roof",
          all(">block %d<" % b in svg for b in sizes) and "memcpy roof 4012 GB/s" in svg)

cmp_prefix = os.path.join(T, "cmp")
r = subprocess.run([sys.executable, SEL, "compare", "--data", cmp_prefix + ".tsv", "--table",
                    cmp_prefix, BLOCKS, SINGLE], capture_output=True, text=True)
check("compare of a several-block and a one-block run exits 0 (%s)" % r.stderr.strip()[:200],
      r.returncode == 0)
with open(cmp_prefix + ".tsv", encoding="utf-8") as f:
    cols = f.readline().rstrip("\n").split("\t")
    rows = [ln.rstrip("\n").split("\t") for ln in f if ln.startswith("1\t")]
check("compare keeps block 128 of the several-block run",
      rows and {x[cols.index("block_threads")] for x in rows} == {"128"})
shutil.rmtree(T)
finish()
