#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""plots/report.py: the one-page report of one or several occsweep runs, as Markdown and HTML.

    python3 plots/report.py [--out PREFIX] [--figdir DIR] [--] FILE.csv...

writes PREFIX.md and PREFIX.html (default PREFIX: the first CSV without .csv, plus "-report") and
prints their paths. Per CSV: the GPU and run metadata, the roofs, every figure plots/plot drew for
it (DIR/<csvbase>-*.svg, DIR defaulting to the CSV's directory: the occupancy figure first, then
by FIGURE_ORDER; linked from the Markdown, inlined in the HTML, so the HTML is one
self-contained file), the knee and model table, the residency
table, the Nsight Compute table (when the rows hold ncu_* values), the known limits that applied
(skipped and failed points, samples dropped by the clock watch, points stopped by the time bound
above the noise target, L2-resident points, clock-throttle reasons, an unfinished run, --ncu without
values) and the exact commands (plots/plot with --outdir DIR when DIR is not the CSV's). Every
number is read from the CSV (plots/occcsv.py) or computed from it here with the definitions of the
program's end-of-run report: knee = lowest achieved occupancy reaching 90% of the variant's best
GB/s (of each block size, where the run
has several), on the measurement and on the
Little's-law prediction min(roof, f x bytes in flight per SM x SMs / latency).

Every CSV and figure read is a regular file of at most 4 GiB (csvcheck.open_input), every
value within its physical range (csvcheck.check_ranges: the table --recompute checks);
PREFIX.md and .html are never an input, a directory or another file that is not a regular one,
and PREFIX names a file ("" and DIR/ are refused). Text that is not valid UTF-8 is written as
its bytes.

Exit status: 0 written; 2 bad usage (the usage and what is wrong), a CSV occ_csv_read would
refuse, a value out of range or an output path refused (one line names it); 1 a write that
failed (stdout included).
"""
import argparse
import glob
import math
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csvcheck  # noqa: E402
import occcsv  # noqa: E402
import outfile  # noqa: E402
from reportpage import Page, render_html, render_md  # noqa: E402

KNEE_FRACTION = 0.9
# The figures' kinds (the first word of their names) in the order the page shows them.
FIGURE_ORDER = ["occupancy", "inflight", "block", "levers", "flops", "intensity", "chase",
                "hoptime", "ladder", "loaded", "schedule", "ncu"]
RESIDENCY_TOLERANCE_PTS = 5.0  # bench/run_summary.h OCC_RESIDENCY_TOLERANCE_PTS
NCU_COLUMNS = [("ncu_occ_achieved_pct", "ncu achieved occ %"),
               ("ncu_dram_throughput_pct", "DRAM % of peak"),
               ("ncu_issue_active_pct", "issue active %"),
               ("ncu_stall_long_scoreboard", "long scoreboard"),
               ("ncu_stall_not_selected", "not selected"), ("ncu_stall_wait", "wait"),
               ("ncu_stall_math_throttle", "math throttle")]
RUN_KEYS = [("gpu_name", "GPU"), ("cc", "compute capability"), ("sm_count", "SMs"),
            ("sm_clock_mhz", "SM clock, MHz"), ("mem_clock_mhz", "memory clock, MHz"),
            ("mem_bus_bits", "memory bus, bits"), ("l2_bytes", "L2, bytes"),
            ("max_warps_per_sm", "max warps per SM"), ("driver_version", "driver"),
            ("runtime_version", "runtime"), ("nvcc_version", "nvcc"), ("gencode", "gencode"),
            ("occsweep_version", "occsweep"), ("git_rev", "git revision"),
            ("date_utc", "date (UTC)"), ("buffer_bytes", "buffer, bytes"),
            ("smem_carveout_kib", "shared-memory carveout, KiB"), ("l1_kib", "L1, KiB"),
            ("max_noise_pct", "noise target, %"),
            ("max_time_s", "time bound per point, s"), ("min_samples", "minimum samples"),
            ("nvml_at_start", "NVML at start"), ("end_status", "end status"),
            ("ncu_version", "Nsight Compute")]


class Run:
    """One CSV: its metadata and its rows as {column: text}."""

    def __init__(self, path):
        table = occcsv.read(path)
        csvcheck.check_ranges(table)
        self.path, self.meta = path, dict(table.meta)
        names = [c for c, _ in table.columns]
        self.rows = [dict(zip(names, r)) for r in table.rows]
        self.ok = [r for r in self.rows if r["status"] == "ok"]

    def num(self, row, name):
        return occcsv.number(row[name])

    def meta_num(self, key):
        try:
            return occcsv.number(self.meta[key])
        except (KeyError, ValueError):
            return math.nan


def fmt(x, digits=1):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else "%.*f" % (digits, x)


def predicted(run, r):
    """gbps_predicted as the row has it, else the model on the file's latency and roof."""
    p = run.num(r, "gbps_predicted")
    if not math.isnan(p):
        return p
    lat, roof = run.meta_num("dram_latency_ns"), run.meta_num("roof_memcpy_gbps")
    f, sms = run.num(r, "dram_bytes_per_load_byte"), run.num(r, "sm_count")
    if math.isnan(lat) or math.isnan(f) or lat <= 0:
        return math.nan
    return min(roof, f * run.num(r, "bytes_in_flight_per_sm") * sms / lat)


def knee_of(points, value):
    """Lowest occupancy of points whose value reaches KNEE_FRACTION of their best."""
    vals = [(occ, value(r)) for occ, r in points if not math.isnan(value(r))]
    if not vals:
        return math.nan, None
    best = max(v for _, v in vals)
    occ = min(o for o, v in vals if v >= KNEE_FRACTION * best)
    return occ, next(r for o, r in points if o == occ)


def variant_order(by):
    """The keys of by (variant, or (variant, block size) -> [(occ, row)...]) by kernel, U, V,
    then the key."""
    return sorted(by, key=lambda v: (by[v][0][1]["kernel"], int(by[v][0][1]["unroll"]),
                                     int(by[v][0][1]["vec_bytes"]), v))


def figure_rank(name):
    """The order of the figures on the page: the occupancy figure (the headline) first, then
    the others of FIGURE_ORDER, then any other; by name within a kind."""
    kind = name.split("-")[0]
    return (FIGURE_ORDER.index(kind) if kind in FIGURE_ORDER else len(FIGURE_ORDER), name)


def knee_text(knee, lowest):
    """A measured knee with 2 decimals; at the lowest level the run measured (lowest), marked as
    the program marks it (harness/model/summary.h): the knee may lie lower."""
    if knee == lowest and not math.isnan(knee):
        return "<=%s (lowest level run)" % fmt(knee, 2)
    return fmt(knee, 2)


def knee_table(run):
    """(rows, per_block): the knee table's rows, one per variant, or where the GB/s rows hold
    several block sizes (each has its own levels; per_block True) one per (variant,
    block_threads), with a block column after V."""
    # The load levels (finite latency_mean_ns) are the model's input, drawn in their own figure.
    gbps = [r for r in run.ok if not math.isnan(run.num(r, "gbps_median")) and
            math.isnan(run.num(r, "latency_mean_ns"))]
    per_block = len({run.num(r, "block_threads") for r in gbps}) > 1
    by = {}
    for r in gbps:
        key = (r["variant"], run.num(r, "block_threads")) if per_block else r["variant"]
        by.setdefault(key, []).append((run.num(r, "occ_achieved_pct"), r))
    rows = []
    for key in variant_order(by):
        variant = key[0] if per_block else key
        pts = sorted(by[key], key=lambda p: p[0])
        best = max(pts, key=lambda p: run.num(p[1], "gbps_median"))
        knee, at = knee_of(pts, lambda r: run.num(r, "gbps_median"))
        knee_model, _ = knee_of(pts, lambda r: predicted(run, r))
        misses = [(abs(run.num(r, "gbps_median") / predicted(run, r) - 1) * 100, o)
                  for o, r in pts if predicted(run, r) > 0]
        miss, miss_at = max(misses, key=lambda m: (m[0], -m[1])) if misses else (math.nan,) * 2
        r0 = pts[0][1]
        rows.append(["`%s`" % variant, r0["kernel"], r0["unroll"], r0["vec_bytes"]] +
                    ([r0["block_threads"]] if per_block else []) + [len(pts),
                     fmt(run.num(best[1], "gbps_median")), fmt(best[0], 2),
                     fmt(run.num(best[1], "pct_of_memcpy")), knee_text(knee, pts[0][0]),
                     fmt(knee_model, 2),
                     at["bytes_in_flight_per_sm"] if at else "-", fmt(miss), fmt(miss_at, 2)])
    return rows, per_block


def residency_table(run):
    by = {}
    for r in run.ok:
        if not math.isnan(run.num(r, "occ_measured_pct")):
            by.setdefault(r["variant"], []).append((run.num(r, "occ_achieved_pct"), r))
    rows = []
    for v in variant_order(by):
        d = [(run.num(r, "occ_measured_pct") - occ, run.num(r, "occ_measured_spread_pct"))
             for occ, r in by[v]]
        rows.append(["`%s`" % v, len(d), fmt(max(abs(x) for x, _ in d), 2),
                     fmt(min(x for x, _ in d), 2),
                     sum(abs(x) > RESIDENCY_TOLERANCE_PTS for x, _ in d),
                     fmt(max((s for _, s in d if not math.isnan(s)), default=math.nan), 2)])
    return rows


def ncu_table(run):
    rows = [r for r in run.ok if any(not math.isnan(run.num(r, c)) for c, _ in NCU_COLUMNS)]
    rank = {v: i for i, v in enumerate(variant_order(
        {r["variant"]: [(0, r)] for r in rows}))}
    rows.sort(key=lambda r: (rank[r["variant"]], run.num(r, "occ_achieved_pct")))
    return [["`%s`" % r["variant"], fmt(run.num(r, "occ_achieved_pct"), 2),
             fmt(run.num(r, "occ_measured_pct"), 2)] +
            [fmt(run.num(r, c), 2) for c, _ in NCU_COLUMNS] for r in rows]


def limits(run):
    out = []
    skips = {}
    for r in run.rows:
        if r["status"].startswith("skip"):
            skips[r["status"]] = skips.get(r["status"], 0) + 1
    for why, n in sorted(skips.items()):
        out.append("%d point(s) not run: %s" % (n, why))
    for r in run.rows:
        if r["status"].startswith("fail"):
            out.append("failed: `%s` at %s%% occupancy: %s" % (r["variant"], r["occ_target_pct"],
                                                                r["status"]))
    dropped = [(r, int(run.num(r, "samples_discarded_clock"))) for r in run.ok
               if run.num(r, "samples_discarded_clock") > 0]
    if dropped:
        out.append("%d sample(s) of %d point(s) dropped by the clock watch (SM clock below 90%% "
                   "of the point's median): %s" % (sum(n for _, n in dropped), len(dropped),
                   ", ".join("`%s` at %s%%" % (r["variant"], r["occ_target_pct"])
                             for r, _ in dropped[:6]) + (", ..." if len(dropped) > 6 else "")))
    target = run.meta_num("max_noise_pct")
    noisy = [r for r in run.ok if run.num(r, "noise_pct") > target]
    if noisy:
        out.append("%d point(s) stopped by the time bound above the %g%% noise target (worst "
                   "%.2f%%)" % (len(noisy), target, max(run.num(r, "noise_pct") for r in noisy)))
    resident = [r for r in run.ok if r["l2_resident"] == "1"]
    if resident:
        out.append("%d point(s) touch at most 2 x the L2 size: part may be served from L2" %
                   len(resident))
    for key, when in (("nvml_at_start", "at the start"), ("end_status", "at the end")):
        m = re.search(r"throttle reasons (0x[0-9a-fA-F]+)", run.meta.get(key, ""))
        if m and int(m.group(1), 16) != 0:
            out.append("NVML clock-throttle reasons %s %s (see nvmlClocksEventReasons)" %
                       (m.group(1), when))
    if not run.meta.get("end_status", "").startswith("complete"):
        out.append("the run did not finish: %s" % run.meta.get("end_status", "no end_status"))
    if "--ncu" in run.meta.get("command", "").split() and "ncu_version" not in run.meta:
        out.append("--ncu was asked for but the CSV has no ncu values (see the run's stderr)")
    return out or ["none of the known limits applied"]


def add_run(page, run, figdir, level):
    m = run.meta
    title = "%s — %s" % (m.get("gpu_name", "unknown GPU"), os.path.basename(run.path))
    page.add("h", level, title)
    if m.get("synthetic"):
        page.add("p", "Synthetic test data, not a measurement (synthetic=%s)." % m["synthetic"])
    page.add("h", level + 1, "Run")
    page.add("table", ["key", "value"], [[label, m[k]] for k, label in RUN_KEYS if k in m] +
             [[k, v] for k, v in m.items() if k.startswith("axis.")])
    page.add("h", level + 1, "Roofs")
    roofs = [["cudaMemcpy device to device, GB/s", m.get("roof_memcpy_gbps", "-")],
             ["cub::DeviceReduce::Sum, GB/s", m.get("roof_cub_reduce_gbps", "-")],
             ["DRAM peak (clock x bus x 2), GB/s", m.get("roof_dram_peak_gbps", "-")]]
    lat, roof, sms = (run.meta_num(k) for k in ("dram_latency_ns", "roof_memcpy_gbps",
                                                 "sm_count"))
    if not math.isnan(lat):
        roofs.append(["unloaded DRAM latency, ns", fmt(lat)])
        roofs.append(["bytes in flight per SM the roof needs (roof x latency / SMs)",
                      "%.0f" % (roof * lat / sms)])
    if "model" in m:
        roofs.append(["model of the prediction", m["model"]])
    page.add("table", ["roof", "value"], roofs)
    base = os.path.splitext(os.path.basename(run.path))[0]
    figures = sorted(glob.glob(os.path.join(glob.escape(figdir), glob.escape(base) + "-*.svg")),
                     key=lambda f: figure_rank(os.path.basename(f)[len(base) + 1:-4]))
    page.add("h", level + 1, "Figures")
    if not figures:
        page.add("p", "No figures beside the CSV: draw them with plots/plot (needs gnuplot).")
    for f in figures:
        page.add("figure", os.path.basename(f)[len(base) + 1:-4], f)
    knees, per_block = knee_table(run)
    if knees:
        page.add("h", level + 1, "Knee and model")
        page.add("p", "knee = lowest achieved occupancy reaching %d%% of the variant's best "
                 "GB/s%s, measured and on the Little's-law prediction (<=K: the lowest level "
                 "the run measured, so the knee may lie lower); %% memcpy = best GB/s as a "
                 "percentage of the run's cudaMemcpy device-to-device GB/s, which reads and "
                 "writes every byte (a kernel that only reads can pass 100); worst miss = "
                 "largest |measured / predicted - 1|." % (
                     KNEE_FRACTION * 100, " at that block size" if per_block else ""))
        page.add("table", ["variant", "kernel", "U", "V"] + (["block"] if per_block else []) +
                 ["points", "best GB/s", "at occ %",
                           "% memcpy", "knee occ %", "model knee occ %",
                           "bytes in flight/SM at knee", "worst miss %", "at occ %"], knees)
    res = residency_table(run)
    if res:
        page.add("h", level + 1, "Residency")
        page.add("p", "measured = time-averaged resident warps per SM from the residency probe, "
                 "against the occupancy API's figure (points of %).")
        page.add("table", ["variant", "points", "max |measured - API|", "min measured - API",
                           "off by > %g" % RESIDENCY_TOLERANCE_PTS, "max spread over SMs"], res)
    ncu = ncu_table(run)
    if ncu:
        page.add("h", level + 1, "Nsight Compute")
        page.add("p", "One profiled launch per point (ncu %s, --clock-control none); stalls are "
                 "warps per issued instruction. Metrics: %s." % (m.get("ncu_version", "?"),
                                                                m.get("ncu_metrics", "?")))
        page.add("table", ["variant", "API occ %", "measured occ %"] +
                 [label for _, label in NCU_COLUMNS], ncu)
    page.add("h", level + 1, "Known limits that applied")
    page.add("list", limits(run))
    page.add("h", level + 1, "Commands")
    plot = "plots/plot --report "
    if os.path.abspath(figdir) != os.path.abspath(os.path.dirname(run.path) or "."):
        plot += "--outdir %s " % figdir
    cmds = [m.get("command", "(no command recorded)"), plot + run.path]
    if "ncu_command" in m:
        cmds.append("# ncu: " + m["ncu_command"])
    page.add("code", cmds)


def parser():
    p = argparse.ArgumentParser(prog="plots/report.py", allow_abbrev=False,
                                description="The one-page report (Markdown and HTML) of occsweep "
                                "runs.")
    p.add_argument("--out", metavar="PREFIX", help="write PREFIX.md and PREFIX.html (default: "
                   "the first CSV without .csv, plus -report)")
    p.add_argument("--figdir", metavar="DIR", help="the figures' directory (default: each CSV's)")
    p.add_argument("files", metavar="FILE.csv", nargs="+")
    return p


def main(argv):
    p = parser()
    a = p.parse_args(argv)
    out, figdir, files = a.out, a.figdir, a.files
    if out is None:
        out = os.path.splitext(files[0])[0] + "-report"
    err = outfile.prefix_error(out, (".md", ".html"), files)
    if err:
        print("report: " + err, file=sys.stderr)
        return 2
    page = Page()
    try:
        runs = [Run(f) for f in files]
        title = "occsweep report: " + ", ".join(sorted({r.meta.get("gpu_name", "?") for r in runs}))
        page.add("h", 1, title)
        for run in runs:
            add_run(page, run, figdir or os.path.dirname(run.path) or ".", 2)
        md = render_md(page, os.path.dirname(out) or ".")
        html_text = render_html(page, title)
    except occcsv.CsvError as e:
        print("report: %s" % e, file=sys.stderr)
        return 2
    try:
        outfile.write_whole(out + ".md", md)
        outfile.write_whole(out + ".html", html_text)
    except OSError as e:
        print("report: cannot write %s: %s" % (e.filename or out, e.strerror), file=sys.stderr)
        return 1
    print("%s.md\n%s.html" % (out, out))
    return 0


if __name__ == "__main__":
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="surrogateescape")
    outfile.run_printing("report", lambda: main(sys.argv[1:]))
