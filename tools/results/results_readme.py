#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/results/results_readme.py [--check] [GPU_DIR...]: writes GPU_DIR/README.md, the list of
the reference set in a results/<gpu>/ folder, from its CSVs (default: every folder of results/
that holds a CSV).

The page names the GPU (from the CSVs' metadata), then per CSV (sorted by name) its command,
git revision, date, points, knee report, report (a --report run's <stem>-report.md), how Nsight
Compute's achieved occupancy compares with the measured residency (a --ncu run), figures and the
headline figures of tools/results/headline.py, each rounded to a fixed number of digits: the
same CSVs give the same bytes. --check writes nothing: it makes each page in memory and, where
the committed one differs (or is missing), prints one line naming the first differing line and
exits 1. Exit 0: written or up to date; 1: --check found a difference; 2: bad usage or a CSV that
occ_csv_read rejects.

EMBEDDED is the one list of the figures the documentation embeds: tools/results/refresh.py draws
these and no other, and the results_links test checks that results/ holds exactly these PNGs.
Standard library only."""
import argparse
import math
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import headline  # noqa: E402
import sets as setsmod  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# The figures the docs embed: (the CSV's metadata command, the figure's name as plots/plot
# names it, <csv stem>-<figure>.png): one of each figure type for docs/figures.md's gallery.
# The commands are those of tools/gpu/h200_session.sh's steps mission, copy, ladder, fma,
# mixed, chase, blocks, levers, smem and mma.
EMBEDDED = (
    ("./run_sweep --kernel reduce --unroll 1,2,4 --occ 25..100", "occupancy-reduce"),
    ("./run_sweep --kernel copy --quiet", "occupancy-copy"),
    ("./run_sweep --kernel copy --quiet", "inflight-copy"),
    ("./run_sweep --kernel copy --quiet", "loaded-latency"),
    ("./run_sweep --kernel reduce --block 128,256,512,1024 --quiet", "block-reduce"),
    ("./run_sweep --kernel reduce,copy --unroll 4,8 --vec 8,16 --lever both --quiet",
     "levers-copy-u8-v16"),
    ("./run_sweep --kernel fma --vec 4,8 --quiet", "flops-fma-fp32"),
    ("./run_sweep --kernel mixed --size 8G --quiet", "flops-mixed"),
    ("./run_sweep --kernel mixed --size 8G --quiet", "intensity-mixed"),
    ("./run_sweep --kernel mma --mode f16 --quiet", "flops-mma-fp32"),
    ("./run_sweep --kernel chase --mode latency --footprint 4K..4G --quiet", "ladder"),
    ("./run_sweep --kernel chase --quiet", "chase"),
    ("./run_sweep --kernel smem --mode chase --quiet", "hoptime-smem"),
    ("./run_sweep --kernel smem --mode stream --quiet", "occupancy-smem"),
)

INTRO = """\
How the headline figures are computed (tools/results/headline.py), from the ok rows of each CSV,
grouped by kernel and mode:

- A sweep's curve is one variant at one lever and block size; its point at an occupancy
  (occ_achieved_pct) is the median of its rows there. Per throughput column the rows hold
  (gbps_median in GB/s, gflops_median in GFLOP/s), the best curve is the one with the highest
  point, its peak. "% of roof" is that point's pct_of_memcpy (GB/s: of the run's cudaMemcpy
  roof) or pct_of_flop_peak (GFLOP/s: of the clock-derived peak). "95% at occ %" is the lowest
  occupancy at which the best curve reaches 95% of its peak.
- Model: over the natural variants (no register cap, no spills), the rows with a
  measured_over_predicted, the number within 10% of the Little's-law prediction and the median
  measured / predicted.
- Latency ladder: the median cycles_per_hop_median and ns_per_hop_median at the smallest and at
  the largest footprint (buffer_bytes).
- Load levels (chase, mode loaded): per traffic, the mean hop latency (latency_mean_ns) of the
  level with the fewest background warps (idle) and of the level that delivered the most GB/s.

Numbers: GB/s, GFLOP/s, ns, cycles and % with one decimal, occupancy with two, ratios with three.
"""


def fmt(value, digits):
    return "n/a" if value is None or not math.isfinite(value) else "%.*f" % (digits, value)


def size_text(n):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d %s" % (n >> shift, unit)
    return "%d B" % n


def gpu_lines(summaries):
    """The GPU table: each key of headline.GPU_KEYS with the values the CSVs give (sorted)."""
    out = ["| metadata | value |", "|---|---|"]
    for key in headline.GPU_KEYS:
        values = sorted({s["meta"].get(key, "-") for s in summaries.values()})
        out.append("| %s | %s |" % (key, ", ".join(values)))
    return out


def revision_lines(summaries):
    revs = {}
    for name, s in summaries.items():
        revs.setdefault(s["meta"].get("git_rev", "-"), []).append(name)
    if len(revs) == 1:
        return ["Git revision of every CSV: `%s`." % next(iter(revs))]
    out = ["The CSVs name %d git revisions:" % len(revs), ""]
    for rev in sorted(revs):
        out.append("- `%s`: %d CSVs" % (rev, len(revs[rev])))
    return out


def group_lines(kernel, mode, fig):
    """The lines of one (kernel, mode): table rows for a sweep, bullets for the others."""
    name = "%s/%s" % (kernel, mode)
    if fig["kind"] == "sweep":
        agree = fig["agreement"]
        model = "-" if agree is None else "%d of %d within 10%%, median %s" % (
            agree[0], agree[1], fmt(agree[2], 3))
        return ["| %s | `%s` (best of %d) | %s %s | %s | %s | %s |"
                % (name, label, curves, fmt(peak, 1), unit,
                   "-" if not math.isfinite(pct) else "%s%% of %s" % (fmt(pct, 1), roof),
                   fmt(reach, 2), model)
                for unit, roof, label, peak, pct, reach, curves in fig["metrics"]]
    if fig["kind"] == "ladder":
        ends = "; ".join("%s: %s cycles, %s ns" % (size_text(size), fmt(cyc, 1), fmt(ns, 1))
                         for size, cyc, ns in fig["ends"])
        return ["- %s: %d footprints; %s" % (name, fig["footprints"], ends)]
    if fig["kind"] == "levels":
        return ["- %s, traffic %s: %d levels, idle %s ns, top %s GB/s at %s ns"
                % (name, traffic, n, fmt(idle, 1), fmt(top, 1), fmt(top_ns, 1))
                for traffic, n, idle, top, top_ns in fig["traffic"]]
    return ["- %s: %d ok rows" % (name, fig["rows"])]


def csv_section(folder, name, s):
    stem = name[:-len(".csv")]
    meta = s["meta"]
    out = ["## [%s](%s)" % (name, name), "",
           "- command: `%s`" % meta.get("command", "-"),
           "- git revision: `%s`" % meta.get("git_rev", "-"),
           "- date (UTC): %s" % meta.get("date_utc", "-"),
           "- points: %d rows, %d ok" % (s["rows"], s["ok"])]
    for label, page in (("knee report", stem + "-knee.md"), ("report", stem + "-report.md")):
        if os.path.isfile(os.path.join(folder, page)):
            out.append("- %s: [%s](%s)" % (label, page, page))
    if s["ncu"]:
        n, mid, worst = s["ncu"]
        out.append("- Nsight Compute %s: %d of %d ok rows profiled; its achieved occupancy minus "
                   "the measured residency (occ_measured_pct): median %s, worst %s points"
                   % (meta.get("ncu_version", "-"), n, s["ok"], fmt(mid, 1), fmt(worst, 1)))
    figs = sorted(n for n in os.listdir(folder)
                  if n.startswith(stem + "-") and n.endswith(".png"))
    if figs:
        out.append("- figures: " + ", ".join("[%s](%s)" % (f[len(stem) + 1:-4], f) for f in figs))
    sweeps, others = [], []
    for kernel, mode, fig in s["groups"]:
        (sweeps if fig["kind"] == "sweep" else others).extend(group_lines(kernel, mode, fig))
    if sweeps:
        out += ["", "| rows | best curve | peak | % of roof | 95% at occ % | model |",
                "|---|---|--:|--:|--:|---|"] + sweeps
    if others:
        out += [""] + others
    return out + [""]


def summaries_of(folder):
    """{csv name: headline.summarize()} of the folder's CSVs, sorted by name."""
    names = sorted(n for n in os.listdir(folder) if n.endswith(".csv"))
    return {n: headline.summarize(os.path.join(folder, n)) for n in names}


def embedded_pngs(commands):
    """The PNG names EMBEDDED asks for, given {csv name: command} of a set: [(png, command)]
    in EMBEDDED order, command the one of the CSV drawn (EMBEDDED's, or the command it replaced
    where the set holds only that: sets.REPLACED); a command without a CSV gives (None,
    EMBEDDED's command)."""
    out = []
    for command, figure in EMBEDDED:
        found = None
        for c in (command, setsmod.REPLACED.get(command)):
            stems = sorted(n[:-len(".csv")] for n, have in commands.items() if c and have == c)
            if stems:
                found = ("%s-%s.png" % (stems[-1], figure), c)
                break
        out.append(found or (None, command))
    return out


def generate(folder):
    """The README.md text of a GPU folder."""
    summaries = summaries_of(folder)
    gpu = os.path.basename(os.path.normpath(folder))
    out = ["# Reference set: results/%s/" % gpu, "",
           "Generated from the CSVs of this folder by `python3 tools/results/results_readme.py "
           "results/%s`; do not edit it by hand (the results_readme test compares it with the "
           "CSVs). [results/README.md](../README.md) explains the layout and the CSV format." % gpu,
           "", "## GPU", ""] + gpu_lines(summaries) + [""] + revision_lines(summaries)
    commands = {n: s["meta"].get("command", "") for n, s in summaries.items()}
    shown = [png for png, _ in embedded_pngs(commands)
             if png and os.path.isfile(os.path.join(folder, png))]
    if shown:
        out += ["", "Figures the documentation embeds: " +
                ", ".join("[%s](%s)" % (p[:-4], p) for p in shown) + "."]
    out += ["", "## The headline figures", "", INTRO.rstrip("\n"), ""]
    for name, s in summaries.items():
        out += csv_section(folder, name, s)
    return "\n".join(out).rstrip("\n") + "\n"


def first_difference(old, new):
    a, b = old.split("\n"), new.split("\n")
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<end of file>"
        y = b[i] if i < len(b) else "<end of file>"
        if x != y:
            n = sum(1 for j in range(max(len(a), len(b)))
                    if (a[j] if j < len(a) else None) != (b[j] if j < len(b) else None))
            return "line %d (%d lines differ): committed '%.60s', from the CSVs '%.60s'" % (
                i + 1, n, x, y)
    return "no difference"


def folders_of(root):
    results = os.path.join(root, "results")
    return [os.path.join(results, d) for d in sorted(os.listdir(results))
            if os.path.isdir(os.path.join(results, d)) and
            any(n.endswith(".csv") for n in os.listdir(os.path.join(results, d)))]


def main(argv):
    p = argparse.ArgumentParser(prog="tools/results/results_readme.py", allow_abbrev=False,
                                description="Writes results/<gpu>/README.md from its CSVs.")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 where a committed page differs")
    p.add_argument("dirs", metavar="GPU_DIR", nargs="*")
    a = p.parse_args(argv)
    check = a.check
    dirs = a.dirs or folders_of(ROOT)
    status = 0
    for folder in dirs:
        path = os.path.join(folder, "README.md")
        try:
            text = generate(folder)
        except (headline.occcsv.CsvError, OSError) as e:
            print("results_readme: %s" % e, file=sys.stderr)
            return 2
        if not check:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            print("wrote %s" % path)
            continue
        try:
            with open(path, encoding="utf-8", newline="") as f:
                old = f.read()
        except OSError:
            old = None
        if old != text:
            why = "missing" if old is None else first_difference(old, text)
            print("results_readme: %s disagrees with its CSVs: %s (run tools/results/"
                  "results_readme.py %s)" % (path, why, folder))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
