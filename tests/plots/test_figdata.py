#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/plots/test_figdata.py: the plots' aggregation (plots/figdata.py, plots/csvsel.py) on small
made-up inputs: Median is the lower median, exactly, up to MEDIAN_EXACT values and a value of the
stream within the middle quantiles beyond; the rows of one point (curve and x) become one point
with the median y, in every figure's data and in task select, whatever their order in the file;
a row with another x or another lever is its own point; x keeps the CSV's text; the numeric
comparison of two fixture GPUs (compare --table) holds each common point's values, % of roof,
ratio and noise flag, and the plateaus; a file read in parts by several processes gives what one
pass gives, errors at the same line; a chase group whose rows hold ns_per_hop_median and the SM
clock gets the hop-time figure, one without it does not, and that figure's points are each one's
ns and clock (the medians of the rows holding both), ns x MHz / 1000 its rows' cycles per hop.
Exit 0 passed, 1 failed."""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "plots"))
sys.path.insert(0, os.path.join(ROOT, "tests", "plots"))
import figdata  # noqa: E402
import occcsv  # noqa: E402



def median_of(values):
    m = figdata.Median()
    for v in values:
        m.add(v)
    return m.result()


SEL = os.path.join(ROOT, "plots", "csvsel.py")
TMP = tempfile.mkdtemp()


def data_rows(text):
    """The data lines of csvsel.py output, split at tabs."""
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("set_")]


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


class Aggregation(unittest.TestCase):
    def test_0_median(self):
        # the median of a stream: exact up to MEDIAN_EXACT values, a remedian past that
        rng = random.Random(15)
        self.assertTrue(median_of([]) is None, "empty median is None")
        self.assertTrue(median_of([3.5]) == 3.5, "median of one")
        self.assertTrue(median_of([4.0, 1.0, 3.0, 2.0]) == 2.0, "lower median of an even count")
        for n in (3, 10, figdata.MEDIAN_EXACT - 1, figdata.MEDIAN_EXACT):
            vals = [rng.random() for _ in range(n)]
            self.assertEqual(median_of(vals), sorted(vals)[(n - 1) // 2],
                             "exact lower median of %d values" % n)
        vals = [rng.gauss(100.0, 1.0) for _ in range(100000)]
        m = median_of(vals)
        s = sorted(vals)
        self.assertTrue(m in set(vals), "remedian of 100000 values is one of them")
        self.assertTrue(s[45000] <= m <= s[55000],
                        "remedian of 100000 values lies between the 45th and 55th percentiles")
        big = figdata.Median()
        for v in vals:
            big.add(v)
        self.assertLess(sum(len(level) for level in big.levels), 3 * figdata.MEDIAN_EXACT,
                        "remedian holds a bounded number of values")

    def test_1_points_from_rows_a_csv(self):
        # points from rows: a CSV with one point measured 5 times, shuffled, plus other points
        rng = random.Random(15)
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
        path = os.path.join(TMP, "rep.csv")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(meta + [rows[0]] + [",".join(r) for r in body]) + "\n")

        env = dict(os.environ, PLOT_WHERE="kernel=reduce", PLOT_BY="unroll,vec_bytes,lever",
                   PLOT_X="occ_achieved_pct", PLOT_Y="gbps_median")
        sel = subprocess.run([sys.executable, SEL, "select", path],
                             env=env, capture_output=True, text=True)
        self.assertTrue(sel.returncode == 0, "select exits 0 (%s)" % sel.stderr.strip())
        got = data_rows(sel.stdout)
        x = one[c["occ_achieved_pct"]]
        # set_idx label unroll vec_bytes lever (3 ranks) x y
        at = [r for r in got if r[2:4] == ["4", "16"] and r[8] == x]
        self.assertTrue(sorted(r[4] for r in at) == ["bounds", "pad"],
                        "the repeated point is one point per lever")
        self.assertTrue([r[9] for r in at if r[4] == "pad"] == ["3"],
                        "its y is the median of its rows")
        self.assertTrue([r[9] for r in at if r[4] == "bounds"] == ["9"],
                        "the capped row is its own point")
        self.assertTrue([r[9] for r in got if r[2:4] == ["4", "16"] and
                         r[8] == "99.5"] == ["7"],
                        "another x is another point")
        self.assertTrue(len(got) == len(others) + 3, "every other ok row is a point")
        self.assertTrue(all(r[8] in {o[c["occ_achieved_pct"]] for o in ok} | {"99.5"}
                            for r in got),
                        "x keeps the CSV's text")

        prefix = os.path.join(TMP, "fig-")
        chk = subprocess.run([sys.executable, SEL, "check",
                              "--data", prefix, path], capture_output=True, text=True)
        self.assertTrue(chk.returncode == 0, "check --data exits 0 (%s)" % chk.stderr.strip())
        figs = [line.split("\t") for line in chk.stdout.splitlines() if line.startswith("fig\t")]
        first = next(r[c["lever"]] for r in body if r[c["kernel"]] == "reduce")
        self.assertEqual([f[6] for f in figs][:2],
                         ["occupancy-reduce-" + first, "inflight-reduce-" + first],
                         "a point under two levers: a figure per lever, in the order the levers "
                         "first appear")
        self.assertEqual(sorted(f[6] for f in figs),
                         ["inflight-reduce-bounds", "inflight-reduce-pad",
                          "occupancy-reduce-bounds", "occupancy-reduce-pad"])
        env["PLOT_WHERE"] = "kernel=reduce\037lever=pad"
        # the figure's curves: one block size each
        env["PLOT_BY"] = "unroll,vec_bytes,lever,block_threads"
        env["PLOT_KEEP"] = "reg_cap_per_thread,local_bytes_per_thread"  # the capped curves' labels
        sel = subprocess.run([sys.executable, SEL, "select", path],
                             env=env, capture_output=True, text=True)
        pad_fig = 1 + [f[6] for f in figs].index("occupancy-reduce-pad")
        with open("%s%d.tsv" % (prefix, pad_fig), encoding="utf-8") as f:
            self.assertTrue(f.read() == sel.stdout,
                            "the pad occupancy figure's data is select's of lever pad")

    def test_2_the_numeric_comparison_csvsel_py(self):
        # the numeric comparison (csvsel.py compare --table): two fixture GPUs
        A, B = (os.path.join(ROOT, "tests", "fixtures", n) for n in ("reduce-synthetic.csv",
                                                                     "reduce-gpu-b-synthetic.csv"))
        tab = os.path.join(TMP, "tab")
        cmp_run = subprocess.run([sys.executable, SEL, "compare",
                                  "--data", os.path.join(TMP, "cmp.tsv"), "--table", tab, A, B],
                                 capture_output=True, text=True)
        self.assertTrue(cmp_run.returncode == 0,
                        "compare --table exits 0 (%s)" % cmp_run.stderr.strip())
        ta, tb = occcsv.read(A), occcsv.read(B)

        def ok_points(t):
            return {(t.field(r, "variant"), float(t.field(r, "occ_achieved_pct"))):
                    (float(t.field(r, "gbps_median")), float(t.field(r, "noise_pct")))
                    for r in t.rows if t.field(r, "status") == "ok"}

        pa, pb = ok_points(ta), ok_points(tb)
        common = set(pa) & set(pb)
        with open(tab + ".csv", encoding="utf-8") as f:
            table = [line.rstrip("\n").split(",") for line in f]
        head, body = table[0], table[1:]
        col = {name: i for i, name in enumerate(head)}
        self.assertTrue(len(body) == len(common) > 0,
                        "table: one row per point in both runs (%d)" % len(common))
        roof_a = float(ta.meta_get("roof_memcpy_gbps"))
        good = True
        for r in body:
            a, b = pa[(r[0], float(r[1]))], pb[(r[0], float(r[1]))]
            good &= abs(float(r[col["run1_gbps"]]) - a[0]) < 0.01
            good &= abs(float(r[col["run1_pct_of_roof"]]) - 100 * a[0] / roof_a) < 0.06
            good &= abs(float(r[col["run2_ratio_to_run1"]]) - b[0] / a[0]) < 1e-4
            differs = abs(b[0] / a[0] - 1) * 100 > (a[1] ** 2 + b[1] ** 2) ** 0.5
            good &= r[col["run2_differs"]] == str(int(differs))
        self.assertTrue(good,
                        "table: values, % of roof, ratio and the noise flag agree with the CSVs")
        self.assertTrue("1" in {r[col["run2_differs"]] for r in body},
                        "table: another GPU differs beyond the noise somewhere")
        with open(tab + ".md", encoding="utf-8") as f:
            md = f.read()
        self.assertTrue("Synthetic GPU A" in md and
        "Synthetic GPU B" in md and "knee occ %" in md,
                        "markdown names both GPUs and the knee table")
        knee_lines = [line for line in md.splitlines() if line.startswith("| reduce_u4_v16 |")]
        best_a = max(g for (v, x), (g, n) in pa.items()
                     if v == "reduce_u4_v16" and (v, x) in common)
        self.assertTrue(knee_lines and knee_lines[-1].split(" | ")[1] == "%.1f" % best_a,
                        "markdown: u4_v16's plateau is its best common point")
        # A knee at the lowest common level is marked "<=", any other is not.
        marks = set()
        for v in {v for v, _ in common}:
            line = [x for x in md.splitlines() if x.startswith("| %s |" % v)][-1]
            levels = sorted(x for w, x in common if w == v)
            top = max(pa[(v, x)][0] for x in levels)
            at = next(x for x in levels if pa[(v, x)][0] >= 0.9 * top)
            marks.add(line.split(" | ")[3].startswith("<=") == (at == levels[0]))
        self.assertEqual(marks, {True}, "markdown: '<=' exactly on knees at the lowest level")

    def test_3_a_file_read_in_parts(self):
        # a file read in parts, by several processes, gives what one pass gives
        big = os.path.join(TMP, "big.csv")
        make_big = os.path.join(ROOT, "tests", "plots", "make_big_csv.py")
        subprocess.run([sys.executable, make_big, "1", big], check=True, capture_output=True)

        def summary(path, part_bytes):
            figdata.PART_BYTES = part_bytes
            r = figdata.scan(path, absurd_lines=False)
            pts = sorted((name, g, repr(k), None if p is figdata.LEFT_OUT else
                          (p.x_text, p.rows, p.y.result(), [m.result() for m in p.carry]))
                         for name, tables in r.points.items() for g, points in tables.items()
                         for k, p in points.items())
            groups = [(k, g.levers, g.factors, g.per_lever, g.type())
                      for k, g in r.groups.items()]
            return (list(r.meta.items()), r.n_rows, r.n_ok, pts, groups)

        whole = summary(big, 1 << 40)
        parted = summary(big, 50000)
        self.assertTrue(len(figdata._parts(big)) >= 20, "a 1 MB file in 20 parts")
        self.assertTrue(parted == whole,
                        "parts give the one pass's metadata, counts, groups and points")
        with open(big, encoding="utf-8") as f:
            lines = f.read().split("\n")
        bad_line = len(lines) - 100
        fields = lines[bad_line - 1].split(",")
        c = {name: i for i, (name, _) in enumerate(occcsv.schema())}
        fields[c["gbps_median"]] = "fast"
        lines[bad_line - 1] = ",".join(fields)
        with open(big, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        for part_bytes in (1 << 40, 50000):
            figdata.PART_BYTES = part_bytes
            try:
                figdata.scan(big)
                msg = ""
            except figdata.Error as err:
                msg = str(err)
            self.assertEqual(msg, "%s:%d: column gbps_median: 'fast' is not a number"
                             % (big, bad_line), "an error in the last part names its line")


    def test_4_gflops_without_a_peak(self):
        # GFLOP/s without a stated peak (a plugin's) draws the Volkov figures, not the arithmetic
        # ones
        fma = os.path.join(ROOT, "tests", "fixtures", "fma-synthetic.csv")
        with open(fma, encoding="utf-8") as f:
            lines = f.read().split("\n")
        at = next(i for i, line in enumerate(lines) if line and not line.startswith("#"))
        peak = lines[at].split(",").index("flop_peak_gflops")
        nopeak = os.path.join(TMP, "nopeak.csv")
        with open(nopeak, "w", encoding="utf-8") as f:
            for i, line in enumerate(lines):
                if i > at and line and not line.startswith("#"):
                    fields = line.split(",")
                    fields[peak] = "NaN"
                    line = ",".join(fields)
                f.write(line + ("\n" if i < len(lines) - 1 else ""))
        figdata.PART_BYTES = 1 << 40
        kinds = {g.type() for g in figdata.scan(fma, absurd_lines=False).groups.values()}
        self.assertTrue(kinds == {"arith"}, "the fma fixture is arithmetic (%s)" % kinds)
        kinds = {g.type() for g in figdata.scan(nopeak, absurd_lines=False).groups.values()}
        self.assertTrue(kinds == {"stream"},
                        "... and without flop_peak_gflops it is not (%s)" % kinds)

    def test_5_the_hop_time_figure(self):
        # the hop-time figure: of a chase group whose rows hold ns per hop and the SM clock
        # The warp-chase fixture, each row's clock made its own (1400 + 10 x blocks_per_sm MHz, so
        # that a point's ns meets its own row's clock); the thread rows without
        # ns_per_hop_median, and one warp row (K = 2, 50%) without a clock: that point is left
        # out of the hop-time data alone.
        chase = os.path.join(ROOT, "tests", "fixtures", "chase-warp-synthetic.csv")
        with open(chase, encoding="utf-8") as f:
            lines = f.read().split("\n")
        at = next(i for i, line in enumerate(lines) if line and not line.startswith("#"))
        hc = {name: i for i, name in enumerate(lines[at].split(","))}
        hop_rows, expect = [], {}
        for i, line in enumerate(lines):
            if i <= at or not line or line.startswith("#"):
                continue
            fields = line.split(",")
            fields[hc["sm_clock_mhz_median"]] = str(1400 + 10 * int(fields[hc["blocks_per_sm"]]))
            key = (fields[hc["mode"]], fields[hc["unroll"]], fields[hc["occ_achieved_pct"]])
            if fields[hc["mode"]] == "thread":
                fields[hc["ns_per_hop_median"]] = "NaN"
            elif key[1:] == ("2", "50"):
                fields[hc["sm_clock_mhz_median"]] = "NaN"
            elif fields[hc["status"]] == "ok":
                expect[key[1:]] = (float(fields[hc["ns_per_hop_median"]]) *
                                   float(fields[hc["sm_clock_mhz_median"]]) / 1000)
            hop_rows.append(fields)
            lines[i] = ",".join(fields)
        hop = os.path.join(TMP, "hop.csv")
        with open(hop, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))

        def fig_lines(path, prefix=None):
            r = subprocess.run([sys.executable, SEL, "check"] +
                               (["--data", prefix] if prefix else []) + [path],
                               capture_output=True, text=True)
            self.assertTrue(r.returncode == 0,
                            "check %s exits 0 (%s)" % (os.path.basename(path), r.stderr.strip()))
            return [line.split("\t")[1:] for line in r.stdout.splitlines()
                    if line.startswith("fig\t")]

        figs = fig_lines(chase)
        self.assertEqual([(f[0], f[5]) for f in figs],
                         [("chase", "chase-thread"), ("hoptime", "hoptime-chase-thread"),
                          ("chase", "chase-warp"), ("hoptime", "hoptime-chase-warp")],
                         "warp chase fixture: chase and hoptime figures per mode")
        figs = fig_lines(hop, os.path.join(TMP, "hop-"))
        self.assertEqual([(f[0], f[5]) for f in figs],
                         [("chase", "chase-thread"), ("chase", "chase-warp"),
                          ("hoptime", "hoptime-chase-warp")],
                         "a group without ns_per_hop_median gets only the chase figure")
        self.assertEqual(figs[2][7], "chase (warp): cycles per dependent load of one chain "
                         "against occupancy", "the hop-time figure's title says what it draws")
        with open(os.path.join(TMP, "hop-3.tsv"), encoding="utf-8") as f:
            text = f.read()
        head = text.split("\n")[0].split("\t")
        hx = {name: i for i, name in enumerate(head)}
        got = {(r[hx["unroll"]], r[hx["occ_achieved_pct"]]):
               float(r[hx["ns_per_hop_median"]]) * float(r[hx["sm_clock_mhz_median"]]) / 1000
               for r in data_rows(text)}
        self.assertTrue(head[-2:] == ["ns_per_hop_median", "sm_clock_mhz_median"],
                        "hop-time data: y is ns_per_hop_median, the clock carried beside it")
        self.assertTrue(sorted(got) == sorted(expect) and ("2", "50") not in got,
                        "hop-time data: a point per ok warp row with ns and clock (%d of %d)"
                        % (len(got), len(expect)))
        self.assertTrue(all(abs(got[k] - v) <= 1e-9 * v for k, v in expect.items() if k in got),
                        "hop-time data: ns x MHz / 1000 of each point is its row's cycles per hop")
        env = dict(os.environ, PLOT_WHERE="kernel=chase\037mode=warp",
                   PLOT_BY="unroll,block_threads", PLOT_X="occ_achieved_pct",
                   PLOT_Y="ns_per_hop_median", PLOT_KEEP="sm_clock_mhz_median",
                   PLOT_NEED="sm_clock_mhz_median")
        sel = subprocess.run([sys.executable, SEL, "select", hop],
                             env=env, capture_output=True, text=True)
        self.assertTrue(sel.stdout == text, "the hop-time figure's data is select's with PLOT_NEED")
        del env["PLOT_NEED"]
        sel = subprocess.run([sys.executable, SEL, "select", hop],
                             env=env, capture_output=True, text=True)
        self.assertTrue(len(data_rows(sel.stdout)) == len(got) + 1 and "\tNaN\n" in sel.stdout,
                        "... and without PLOT_NEED the clockless row is a point (with a NaN clock)")
        # Repeated rows of one point: the medians of ns and of the clock over the rows that hold
        # both.
        extra = []
        for ns, mhz in (("100", "1000"), ("300", "3000"), ("200", "2000"), ("150", "NaN")):
            r = list(next(r for r in hop_rows if r[hc["mode"]] == "warp" and
                          r[hc["unroll"]] == "4" and r[hc["occ_achieved_pct"]] == "25"))
            r[hc["ns_per_hop_median"]], r[hc["sm_clock_mhz_median"]] = ns, mhz
            extra.append(",".join(r))
        rep_hop = os.path.join(TMP, "hop-rep.csv")
        with open(rep_hop, "w", encoding="utf-8") as f:
            f.write("\n".join(lines[:at + 1] + [",".join(r) for r in hop_rows if not (
                r[hc["mode"]] == "warp" and r[hc["unroll"]] == "4" and
                r[hc["occ_achieved_pct"]] == "25")] + extra) + "\n")
        fig_lines(rep_hop, os.path.join(TMP, "rep-"))
        with open(os.path.join(TMP, "rep-3.tsv"), encoding="utf-8") as f:
            at25 = [r for r in data_rows(f.read())
                    if (r[hx["unroll"]], r[hx["occ_achieved_pct"]]) == ("4", "25")]
        self.assertTrue([r[-2:] for r in at25] == [["200", "2000"]],
                        "repeated rows: one point, median ns 200 at median clock 2000 "
                        "(400 cycles), the clockless row left out")



if __name__ == "__main__":
    unittest.main()
