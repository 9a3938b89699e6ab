#!/usr/bin/env python3
"""tests/test_figdata.py: the plots' aggregation (plots/figdata.py, plots/csvsel.py) on small
made-up inputs: Median is the lower median, exactly, up to MEDIAN_EXACT values and a value of the
stream within the middle quantiles beyond; the rows of one point (curve and x) become one point
with the median y, in every figure's data and in task select, whatever their order in the file;
a row with another x or another lever is its own point; x keeps the CSV's text. Exit 0 passed,
1 failed."""
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "plots"))
import figdata  # noqa: E402

failed = checks = 0


def check(desc, ok):
    global failed, checks
    checks += 1
    if not ok:
        failed += 1
        print("FAIL: " + desc)


def median_of(values):
    m = figdata.Median()
    for v in values:
        m.add(v)
    return m.result()


rng = random.Random(15)
check("empty median is None", median_of([]) is None)
check("median of one", median_of([3.5]) == 3.5)
check("lower median of an even count", median_of([4.0, 1.0, 3.0, 2.0]) == 2.0)
for n in (3, 10, figdata.MEDIAN_EXACT - 1, figdata.MEDIAN_EXACT):
    vals = [rng.random() for _ in range(n)]
    check("exact lower median of %d values" % n, median_of(vals) == sorted(vals)[(n - 1) // 2])
vals = [rng.gauss(100.0, 1.0) for _ in range(100000)]
m = median_of(vals)
s = sorted(vals)
check("remedian of 100000 values is one of them", m in set(vals))
check("remedian of 100000 values lies between the 45th and 55th percentiles",
      s[45000] <= m <= s[55000])
big = figdata.Median()
for v in vals:
    big.add(v)
check("remedian holds a bounded number of values",
      sum(len(level) for level in big.levels) < 3 * figdata.MEDIAN_EXACT)

# --- points from rows: a CSV with one point measured 5 times, shuffled, plus other points -------
FIX = os.path.join(ROOT, "tests", "fixtures", "reduce-synthetic.csv")
with open(FIX, encoding="utf-8") as f:
    lines = f.read().splitlines()
meta = [line for line in lines if line.startswith("#")]
rows = [line for line in lines if line and not line.startswith("#")]
cols = rows[0].split(",")
c = {name: i for i, name in enumerate(cols)}
ok = [r.split(",") for r in rows[1:] if r.split(",")[c["status"]] == "ok"]
one = next(r for r in ok if r[c["unroll"]] == "4" and r[c["vec_bytes"]] == "16")
others = [r for r in ok if r is not one]
repeats = []
for g in ("5", "1", "4", "2", "3"):  # median 3
    r = list(one)
    r[c["gbps_median"]] = g
    repeats.append(r)
capped = list(one)  # the same (curve, x) under another lever: its own point
capped[c["lever"]], capped[c["gbps_median"]] = "bounds", "9"
moved = list(one)  # another x text of the same curve: its own point
moved[c["occ_achieved_pct"]], moved[c["gbps_median"]] = "99.5", "7"
body = others + repeats + [capped, moved]
rng.shuffle(body)
tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "rep.csv")
with open(path, "w", encoding="utf-8") as f:
    f.write("\n".join(meta + [rows[0]] + [",".join(r) for r in body]) + "\n")


def data_rows(text):
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("set_")]


env = dict(os.environ, PLOT_WHERE="kernel=reduce", PLOT_BY="unroll,vec_bytes",
           PLOT_X="occ_achieved_pct", PLOT_Y="gbps_median", PLOT_KEEP="lever")
sel = subprocess.run([sys.executable, os.path.join(ROOT, "plots", "csvsel.py"), "select", path],
                     env=env, capture_output=True, text=True)
check("select exits 0 (%s)" % sel.stderr.strip(), sel.returncode == 0)
got = data_rows(sel.stdout)
x = one[c["occ_achieved_pct"]]
at = [r for r in got if r[2:4] == ["4", "16"] and r[6] == x]
check("the repeated point is one point per lever", sorted(r[8] for r in at) == ["bounds", "pad"])
check("its y is the median of its rows",
      [r[7] for r in at if r[8] == "pad"] == ["3"])
check("the capped row is its own point", [r[7] for r in at if r[8] == "bounds"] == ["9"])
check("another x is another point", [r[7] for r in got if r[2:4] == ["4", "16"] and
                                     r[6] == "99.5"] == ["7"])
check("every other ok row is a point", len(got) == len(others) + 3)
check("x keeps the CSV's text", all(r[6] in {o[c["occ_achieved_pct"]] for o in ok} | {"99.5"}
                                    for r in got))

prefix = os.path.join(tmp, "fig-")
chk = subprocess.run([sys.executable, os.path.join(ROOT, "plots", "csvsel.py"), "check",
                      "--data", prefix, path], capture_output=True, text=True)
check("check --data exits 0 (%s)" % chk.stderr.strip(), chk.returncode == 0)
figs = [line.split("\t") for line in chk.stdout.splitlines() if line.startswith("fig\t")]
check("a point under two levers: a figure per lever, pad first",
      [f[6] for f in figs][:2] == ["occupancy-reduce-pad", "inflight-reduce-pad"])
env["PLOT_WHERE"] = "kernel=reduce\037lever=pad"
sel = subprocess.run([sys.executable, os.path.join(ROOT, "plots", "csvsel.py"), "select", path],
                     env=env, capture_output=True, text=True)
with open(prefix + "1.tsv", encoding="utf-8") as f:
    check("the pad occupancy figure's data is select's of lever pad", f.read() == sel.stdout)

print("%d checks, %d failed" % (checks, failed))
sys.exit(1 if failed else 0)
