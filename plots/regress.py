#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""plots/regress.py: the regression check of two occsweep runs, for CI (docs/methodology.md).

    python3 plots/regress.py [options] OLD.csv NEW.csv     (installed: occsweep-regress)

Matches the rows of the two CSVs point by point and lists the points whose time changed by more
than the two runs' combined noise. A point is what --resume calls one (harness/plan/resume.h):
kernel, mode, variant, lever, block_threads, occ_target_pct and buffer_bytes. Its figure is
time_ms_median, the median time of one launch; its noise is noise_pct, the relative standard
deviation of its samples (100 x stddev / mean). For a point ok in both runs, with a noise figure in
both:

    change %   = 100 x (new time / old time - 1)            (> 0: slower)
    combined % = sqrt(noise_old^2 + noise_new^2)
    the change counts when |change| > K x combined and |change| >= T

with K = --noise-factor (default 2) and T = --threshold-pct (default 1). A slower point that
counts is a regression, a faster one an improvement. A point ok in OLD and not ok (skip or fail)
in NEW is a regression too, the reverse an improvement. A listed point whose SM clock differs by
1% or more says so (sm_clock_mhz_measured, the clock inside the kernel, where the row has it, else
the clock watch's sm_clock_mhz_median). Points without a noise figure (load
levels) are counted, not judged; points only in one run are listed.

Refused (exit 2), each in one line: runs of different GPUs (the rows' gpu_name, cc, sm_count)
unless --any-gpu; runs whose sets of (kernel, mode) differ unless --any-kernel; runs whose
`# axis.<name>` metadata differ (size, waves, schedule, ...) unless --any-axes; a file that holds
a point twice, holds no rows, is not a regular file of at most 4 GiB, is not a CSV occ_csv_read
accepts (a --json summary included: it has no per-point noise), or holds a value out of its
physical range (plots/csvcheck.py).

Exit status: 0 no regression; 1 one or more regressions (or stdout could not be written); 2 bad
usage or an input refused.
"""
import argparse
import math
import os
import sys

sys.dont_write_bytecode = True
# The real folder: installed, bin/occsweep-regress is a link to this file.
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import csvcheck  # noqa: E402
import occcsv  # noqa: E402
import outfile  # noqa: E402

KEY = ("kernel", "mode", "variant", "lever", "block_threads", "occ_target_pct", "buffer_bytes")
GPU = ("gpu_name", "cc", "sm_count")
# The physical range of the two values judged, (lo, hi, lo_open) as csvcheck's table.
TIME_RANGE = (0.0, math.inf, True)
NOISE_RANGE = (0.0, math.inf, False)


class Refused(Exception):
    """An input or a pair of inputs the check does not compare; str() is the one line."""


class Run:
    """One CSV: its metadata, the GPUs and (kernel, mode) pairs of its rows, and its points
    {key: (row dict, line)}."""

    def __init__(self, path):
        try:
            with csvcheck.open_input(path) as f:
                head = f.read(1)
        except csvcheck.CsvError as e:
            raise Refused(str(e)) from None
        if head == b"{":
            raise Refused("%s: a JSON summary; give the run's CSV (the summary holds no per-point "
                          "noise)" % path)
        try:
            table = occcsv.read(path)
            csvcheck.check_ranges(table)
        except csvcheck.CsvError as e:
            raise Refused(str(e)) from None
        if not table.rows:
            raise Refused("%s: holds no rows" % path)
        self.path, self.meta = path, table.meta_dict()
        self.points = {}
        for row, line in zip(table.dicts(), table.row_lines):
            key = point_key(row)
            if key in self.points:
                raise Refused("%s: lines %d and %d are the same point (%s)" % (
                    path, self.points[key][1], line, describe(key)))
            if row["status"] == "ok":
                for name, bounds in (("time_ms_median", TIME_RANGE), ("noise_pct", NOISE_RANGE)):
                    err = csvcheck.range_error(name, row[name], bounds)
                    if err:
                        raise Refused("%s:%d: %s" % (path, line, err))
            self.points[key] = (row, line)
        rows = [r for r, _ in self.points.values()]
        self.gpus = sorted({tuple(r[c] for c in GPU) for r in rows})
        self.kernels = sorted({(r["kernel"], r["mode"]) for r in rows})
        self.axes = {k: v for k, v in self.meta.items() if k.startswith("axis.")}


def point_key(row):
    """The point a row measures: KEY's fields, the numbers as numbers (so "+128" is 128), written
    back as text (occ_target_pct NaN as "NaN")."""
    occ = csvcheck.number(row["occ_target_pct"])
    return tuple(row[c] for c in KEY[:4]) + (
        str(csvcheck.int_value(row["block_threads"])), "NaN" if math.isnan(occ) else "%.6g" % occ,
        str(csvcheck.int_value(row["buffer_bytes"])))


def order(key):
    """The sort key of a point: its texts, block, occupancy and buffer as numbers."""
    occ = float(key[5]) if key[5] != "NaN" else math.inf
    return key[:4] + (int(key[4]), occ, int(key[6]))


def describe(key):
    kernel, mode, variant, lever, block, occ, size = key
    return "%s/%s %s %s block %s%s buffer %s B" % (
        kernel, mode, variant, lever, block, "" if occ == "NaN" else " occ %s%%" % occ, size)


def gpu_names(gpus):
    return "; ".join("%s (cc %s, %s SMs)" % g for g in gpus)


def check_pair(old, new, a):
    """Raises Refused when old and new are runs the options do not let one compare."""
    if old.gpus != new.gpus and not a.any_gpu:
        raise Refused("runs of different GPUs: %s in %s, %s in %s (--any-gpu compares them)" % (
            gpu_names(old.gpus), old.path, gpu_names(new.gpus), new.path))
    if old.kernels != new.kernels and not a.any_kernel:
        raise Refused("runs of different kernels: %s in %s, %s in %s (--any-kernel compares "
                      "them)" % (" ".join("/".join(k) for k in old.kernels), old.path,
                                 " ".join("/".join(k) for k in new.kernels), new.path))
    for k in sorted(set(old.axes) & set(new.axes)):
        if old.axes[k] != new.axes[k] and not a.any_axes:
            raise Refused("runs of different %s: %s in %s, %s in %s (--any-axes compares them)" % (
                k, old.axes[k], old.path, new.axes[k], new.path))


def clock_mhz(row):
    """The SM clock a row ran at: the clock the kernel measured inside itself where the row has
    one (sm_clock_mhz_measured), else the clock watch's median after the samples."""
    inside = csvcheck.number(row["sm_clock_mhz_measured"])
    return inside if inside > 0 else csvcheck.number(row["sm_clock_mhz_median"])


def clocks(a, b):
    """"; SM clock A -> B MHz" when the clocks of two rows differ by 1% or more (a clock-bound
    point's time follows its clock), else ""."""
    ca, cb = clock_mhz(a), clock_mhz(b)
    if ca > 0 and cb > 0 and abs(cb / ca - 1.0) >= 0.01:
        return "; SM clock %.0f -> %.0f MHz" % (ca, cb)
    return ""


def compare(old, new, factor, floor_pct):
    """{"regressions", "improvements": [(key, line text)], "unjudged": count, "only_old",
    "only_new": [key], "matched": count} of the two runs."""
    out = {"regressions": [], "improvements": [], "unjudged": 0, "matched": 0}
    for key in sorted(set(old.points) & set(new.points), key=order):
        out["matched"] += 1
        a, b = old.points[key][0], new.points[key][0]
        ok_a, ok_b = a["status"] == "ok", b["status"] == "ok"
        if ok_a != ok_b:
            what = "status %s -> %s" % (a["status"], b["status"])
            out["regressions" if ok_a else "improvements"].append((key, what))
            continue
        if not ok_a:
            continue
        ta, tb = csvcheck.number(a["time_ms_median"]), csvcheck.number(b["time_ms_median"])
        na, nb = csvcheck.number(a["noise_pct"]), csvcheck.number(b["noise_pct"])
        if math.isnan(ta) or math.isnan(tb) or math.isnan(na) or math.isnan(nb):
            out["unjudged"] += 1
            continue
        change = 100.0 * (tb / ta - 1.0)
        combined = math.hypot(na, nb)
        if abs(change) > factor * combined and abs(change) >= floor_pct:
            what = "%.6g -> %.6g ms  %+.2f%%  (noise %.2f%% and %.2f%%: %g x %.2f%% = %.2f%%)" % (
                ta, tb, change, na, nb, factor, combined, factor * combined)
            out["regressions" if change > 0 else "improvements"].append((key, what + clocks(a, b)))
    out["only_old"] = sorted(set(old.points) - set(new.points), key=order)
    out["only_new"] = sorted(set(new.points) - set(old.points), key=order)
    return out


def report(old, new, r, a):
    print("%s -> %s" % (old.path, new.path))
    if old.gpus == new.gpus:
        print("GPU: %s" % gpu_names(new.gpus))
    else:
        print("GPUs: %s in OLD, %s in NEW" % (gpu_names(old.gpus), gpu_names(new.gpus)))
    print("points: %d matched, %d only in OLD, %d only in NEW; %d matched without a noise figure "
          "(not judged)" % (r["matched"], len(r["only_old"]), len(r["only_new"]), r["unjudged"]))
    print("a change counts above %g x the combined noise and at least %g%%" % (
        a.noise_factor, a.threshold_pct))
    for title, items in (("regressions (slower)", r["regressions"]),
                         ("improvements (faster)", r["improvements"])):
        print("%s: %d" % (title, len(items)))
        for key, what in items:
            print("  %s: %s" % (describe(key), what))
    for title, keys in (("only in OLD", r["only_old"]), ("only in NEW", r["only_new"])):
        for key in keys[:a.list_max]:
            print("%s: %s" % (title, describe(key)))
        if len(keys) > a.list_max:
            print("%s: %d more" % (title, len(keys) - a.list_max))
    if not r["matched"]:
        sizes = [sorted({k[6] for k in run.points}) for run in (old, new)]
        if sizes[0] != sizes[1]:
            print("no point in common: buffer_bytes %s in OLD, %s in NEW (give both runs the "
                  "same --size)" % (" ".join(sizes[0]), " ".join(sizes[1])))


def nonnegative(text):
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not (math.isfinite(v) and v >= 0):
        raise argparse.ArgumentTypeError("'%s' is not a number >= 0" % text)
    return v


def parser():
    p = argparse.ArgumentParser(
        prog="regress", allow_abbrev=False,
        description="Compares two occsweep runs point by point; exit 1 when a point is slower "
        "beyond the runs' combined noise (docs/methodology.md).")
    p.add_argument("--noise-factor", metavar="K", type=nonnegative, default=2.0,
                   help="a change counts above K x sqrt(noise_old^2 + noise_new^2) (default 2)")
    p.add_argument("--threshold-pct", metavar="T", type=nonnegative, default=1.0,
                   help="and when it is at least T %% (default 1)")
    p.add_argument("--any-gpu", action="store_true", help="compare runs of different GPUs")
    p.add_argument("--any-kernel", action="store_true",
                   help="compare runs of different sets of kernels and modes")
    p.add_argument("--any-axes", action="store_true",
                   help="compare runs of different run-wide axes (# axis.* metadata)")
    p.add_argument("--list-max", metavar="N", type=int, default=20,
                   help="points only in one run listed, per run (default 20)")
    p.add_argument("old", metavar="OLD.csv")
    p.add_argument("new", metavar="NEW.csv")
    return p


def main(argv):
    a = parser().parse_args(argv)
    if a.list_max < 0:
        parser().error("--list-max: '%d' is not a number >= 0" % a.list_max)
    try:
        old, new = Run(a.old), Run(a.new)
        check_pair(old, new, a)
    except Refused as e:
        print("regress: %s" % e, file=sys.stderr)
        return 2
    r = compare(old, new, a.noise_factor, a.threshold_pct)
    report(old, new, r, a)
    return 1 if r["regressions"] else 0


if __name__ == "__main__":
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="surrogateescape")
    outfile.run_printing("regress", lambda: main(sys.argv[1:]))
