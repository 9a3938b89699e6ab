# SPDX-License-Identifier: Apache-2.0
"""tools/results/headline.py: the headline figures of one sweep CSV, computed from its rows.

The CSV is read by plots/occcsv.py (what occ_csv_read accepts, nothing else). Only ok rows count.
The rows are grouped by (kernel, mode), and each group is one of:
  - a latency ladder (some row holds a finite cycles_per_hop_median): the latency at the
    smallest and at the largest footprint (buffer_bytes);
  - load levels (a finite latency_mean_ns, the chase/loaded rows): per traffic, the idle level's
    mean hop latency and the level that delivered the most GB/s, with its mean latency;
  - a sweep (a finite occ_achieved_pct): per throughput column it holds (gbps_median, GB/s, with
    pct_of_memcpy; gflops_median, GFLOP/s, with pct_of_flop_peak) the best curve's peak and the
    lowest occupancy reaching 95% of that peak, and, where the rows hold measured_over_predicted,
    the model's agreement over the natural variants (see sweep()).
A run with --ncu adds how Nsight Compute's achieved occupancy compares with the run's measured
residency (see ncu()).
Every number is kept as a float; results_readme.py rounds them when it writes them."""
import collections
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots"))
import occcsv  # noqa: E402

REACH_FRACTION = 0.95   # a curve "reaches its plateau" at 95% of its peak
AGREE_PCT = 10.0        # harness/model/model.h OCC_MODEL_AGREE_PCT: a point within 10%
# (throughput column, unit, column of the same row in % of a roof, what that roof is)
METRICS = (("gbps_median", "GB/s", "pct_of_memcpy", "memcpy"),
           ("gflops_median", "GFLOP/s", "pct_of_flop_peak", "peak"))
GPU_KEYS = ("gpu_name", "cc", "sm_count", "sm_clock_mhz", "mem_clock_mhz", "mem_bus_bits",
            "l2_bytes", "max_warps_per_sm", "driver_version", "runtime_version", "nvcc_version")


class Rows:
    """The ok rows of one (kernel, mode) of a table, each as {column: text}."""

    def __init__(self, kernel, mode):
        self.kernel, self.mode, self.rows = kernel, mode, []

    def num(self, row, name):
        return occcsv.number(row[name])

    def finite(self, name):
        return any(math.isfinite(self.num(r, name)) for r in self.rows)


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


def groups(table):
    """[Rows] of the table's ok rows, sorted by (kernel, mode)."""
    names = [name for name, _ in table.columns]
    out = collections.OrderedDict()
    for row in table.rows:
        r = dict(zip(names, row))
        if r["status"] != "ok":
            continue
        out.setdefault((r["kernel"], r["mode"]), Rows(r["kernel"], r["mode"])).rows.append(r)
    return [out[k] for k in sorted(out)]


def ladder(g):
    """{"kind": "ladder", "ends": [(footprint bytes, cycles, ns)] of the smallest and largest
    footprint}: the median over the rows of each footprint."""
    by = collections.defaultdict(list)
    for r in g.rows:
        by[int(g.num(r, "buffer_bytes"))].append(r)
    ends = []
    for size in sorted({min(by), max(by)}):
        rows = by[size]
        ends.append((size, median([g.num(r, "cycles_per_hop_median") for r in rows]),
                     median([g.num(r, "ns_per_hop_median") for r in rows])))
    return {"kind": "ladder", "footprints": len(by), "ends": ends}


def levels(g):
    """{"kind": "levels", "traffic": [(traffic, levels, idle ns, top GB/s, ns at the top)]}: the
    idle level is the one with the fewest background warps; the top the most GB/s."""
    by = collections.defaultdict(list)
    for r in g.rows:
        by[r["traffic"]].append(r)
    out = []
    for traffic in sorted(by):
        rows = by[traffic]
        idle = min(rows, key=lambda r: (g.num(r, "stream_warps_per_sm"), r["variant"]))
        top = max(rows, key=lambda r: (g.num(r, "gbps_median"), r["variant"]))
        out.append((traffic, len(rows), g.num(idle, "latency_mean_ns"),
                    g.num(top, "gbps_median"), g.num(top, "latency_mean_ns")))
    return {"kind": "levels", "traffic": out}


def curve_label(key, keys):
    """The variant's name, with its lever where the same variant ran with two levers and its
    block size where the group holds several."""
    variant, lever, block = key
    label = variant
    if len({k[1] for k in keys if k[0] == variant and k[2] == block}) > 1:
        label += " (%s)" % lever
    if len({k[2] for k in keys}) > 1:
        label += " at block %s" % block
    return label


def best_curve(g, column, pct_column):
    """(label, peak, % of roof at the peak, lowest occupancy >= 95% of the peak, curves) of the
    curve with the highest peak. A curve is a (variant, lever, block_threads); its point at an
    occupancy (occ_achieved_pct) is the median of its rows there; its peak the highest point."""
    points = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in g.rows:
        v = g.num(r, column)
        if math.isfinite(v):
            key = (r["variant"], r["lever"], r["block_threads"])
            points[key][g.num(r, "occ_achieved_pct")].append((v, g.num(r, pct_column)))
    best = None
    for key in sorted(points):
        curve = {occ: median([v for v, _ in vals]) for occ, vals in points[key].items()}
        peak = max(curve.values())
        if best is None or peak > best[1]:
            at = min(occ for occ, v in curve.items() if v == peak)
            pct = median([p for _, p in points[key][at]])
            reach = min(occ for occ, v in curve.items() if v >= REACH_FRACTION * peak)
            best = (curve_label(key, points), peak, pct, reach)
    return best + (len(points),)


def agreement(g):
    """(points within AGREE_PCT, points, median measured/predicted) over the natural variants'
    rows (every row of the variant with reg_cap_per_thread 0 and local_bytes_per_thread 0) that
    hold a finite measured_over_predicted; None where no row holds one."""
    if not g.finite("measured_over_predicted"):
        return None
    spilled = {r["variant"] for r in g.rows
               if g.num(r, "reg_cap_per_thread") != 0 or g.num(r, "local_bytes_per_thread") > 0}
    ratios = [g.num(r, "measured_over_predicted") for r in g.rows if r["variant"] not in spilled]
    ratios = [x for x in ratios if math.isfinite(x)]
    if not ratios:
        return (0, 0, float("nan"))
    within = sum(abs(x - 1.0) * 100.0 <= AGREE_PCT for x in ratios)
    return (within, len(ratios), median(ratios))


def sweep(g):
    """{"kind": "sweep", "metrics": [(unit, roof, label, peak, pct, reach, curves)],
    "agreement": agreement(g)}."""
    out = []
    for column, unit, pct_column, roof in METRICS:
        if g.finite(column):
            label, peak, pct, reach, curves = best_curve(g, column, pct_column)
            out.append((unit, roof, label, peak, pct, reach, curves))
    return {"kind": "sweep", "metrics": out, "agreement": agreement(g)}


def ncu(table):
    """(ok rows Nsight Compute profiled, median and largest |.| of ncu_occ_achieved_pct -
    occ_measured_pct over those with both), or None where no ok row holds an
    ncu_occ_achieved_pct (a run without --ncu)."""
    if "ncu_occ_achieved_pct" not in table.index:
        return None
    rows = [r for r in table.dicts() if r["status"] == "ok" and
            math.isfinite(occcsv.number(r["ncu_occ_achieved_pct"]))]
    if not rows:
        return None
    diffs = [occcsv.number(r["ncu_occ_achieved_pct"]) - occcsv.number(r["occ_measured_pct"])
             for r in rows]
    diffs = [d for d in diffs if math.isfinite(d)]
    return (len(rows), median(diffs) if diffs else float("nan"),
            max(diffs, key=abs) if diffs else float("nan"))


def summarize(path):
    """{"meta": {key: value}, "rows": rows, "ok": ok rows, "groups": [(kernel, mode, figures)],
    "ncu": ncu(table)} of the CSV at path; raises occcsv.CsvError for a file occ_csv_read
    rejects."""
    table = occcsv.read(path)
    meta = {}
    for k, v in table.meta:
        meta[k] = v
    status = table.index["status"]
    out = []
    for g in groups(table):
        if g.finite("cycles_per_hop_median"):
            fig = ladder(g)
        elif g.finite("latency_mean_ns"):
            fig = levels(g)
        elif g.finite("occ_achieved_pct"):
            fig = sweep(g)
        else:
            fig = {"kind": "other", "rows": len(g.rows)}
        out.append((g.kernel, g.mode, fig))
    return {"meta": meta, "rows": len(table.rows),
            "ok": sum(r[status] == "ok" for r in table.rows), "groups": out, "ncu": ncu(table)}
