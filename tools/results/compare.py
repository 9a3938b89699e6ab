# SPDX-License-Identifier: Apache-2.0
"""tools/results/compare.py: docs/compare.md, the reference sets side by side.

page(sets) is the page's text: the GPUs and their roofs, the latency ladder's steps, what
Little's law makes of them (the bytes in flight per SM each roof needs), the mission command's
figure (FIGURE, drawn by plots/plot --compare), and per run of RUNS one table of its knee
report's variants with each set's best rate, share of the roof, measured knee and what the
model says is in flight there. Every number is read from a CSV's metadata or rows or from a
knee report (which the knee test holds equal to `occsweep --recompute`). With one set the page
shows it alone. Standard library only."""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import headline  # noqa: E402
import results_readme  # noqa: E402
import sets as setsmod  # noqa: E402
from results_readme import size_text  # noqa: E402
from sets import fmt  # noqa: E402

PAGE = os.path.join("docs", "compare.md")
FIGURE = os.path.join("results", "compare-mission.png")
# The commands of the runs compared, in page order: the families' default runs, then the example
# plugin with a model (examples/saxpy; the stencil has none, so no knee report to compare).
RUNS = (setsmod.MISSION,
        "./run_sweep --kernel reduce --quiet",
        "./run_sweep --kernel copy --quiet",
        "./run_sweep --kernel chase --quiet",
        "./run_sweep --kernel chase --mode thread --quiet",
        "./run_sweep --kernel fma --vec 4,8 --quiet",
        "./run_sweep --kernel smem --mode chase --quiet",
        "./run_sweep --kernel smem --mode stream --quiet",
        "./run_sweep --kernel mma --mode f16 --quiet",
        "./run_sweep --kernel mma --mode bf16 --quiet",
        "./run_sweep --kernel mma --mode tf32 --quiet",
        "./run_sweep --kernel mma --mode f64 --quiet",
        "./run_sweep --plugin build/examples/libsaxpy.so --quiet")
# (label, metadata key, scale, digits) of the GPU table, from the mission run's metadata.
GPU_ROWS = (("SMs", "sm_count", 1, 0), ("SM clock, MHz", "sm_clock_mhz", 1, 0),
            ("memory clock, MHz", "mem_clock_mhz", 1, 0),
            ("memory bus, bits", "mem_bus_bits", 1, 0), ("L2, MiB", "l2_bytes", 2.0 ** -20, 0),
            ("DRAM peak (attributes), GB/s", "roof_dram_peak_gbps", 1, 1),
            ("`cudaMemcpy` roof, GB/s", "roof_memcpy_gbps", 1, 1),
            ("CUB reduce roof, GB/s", "roof_cub_reduce_gbps", 1, 1))
L2_PROBE_BYTES = 4 << 20   # the ladder's L2 step is read at the largest footprint <= 4 MiB


def number(text):
    try:
        return float(str(text).split()[0])
    except (ValueError, IndexError, TypeError):
        return math.nan


def ratio_cells(values, digits=2):
    """The last value over the first, where there are two sets or more."""
    if len(values) < 2:
        return []
    a, b = values[0], values[-1]
    return ["%sx" % fmt(b / a, digits) if a and math.isfinite(a) and math.isfinite(b) else "-"]


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|---|" + "--:|" * (len(head) - 1)]
    return out + ["| " + " | ".join(r) + " |" for r in rows]


def mission_values(s):
    """{key: float} of the mission run: metadata roofs and the knee report's model figures."""
    name = s.run(setsmod.MISSION)
    if name is None:
        return {}
    out = {key: number(s.meta(name, key)) for _, key, _, _ in GPU_ROWS}
    out["latency_ns"] = number((s.knee_line(name, "unloaded DRAM latency") or "").strip())
    # "- bytes in flight per SM each roof needs (...): ROOF NAME R GB/s: N B[; ...]": the mission
    # run (reduce) has one roof.
    need = re.search(r": ([0-9.]+) B\b", s.knee_line(name, "bytes in flight per SM each roof needs") or "")
    out["need_bytes"] = float(need.group(1)) if need else math.nan
    return out


def ladder_steps(s):
    """[(label, ns, cycles)] of the ladder run: the smallest footprint, the largest at or below
    L2_PROBE_BYTES and the largest."""
    name = s.run(setsmod.LADDER)
    if name is None:
        return []
    rows = [r for r in s.tables[name].dicts() if r["status"] == "ok"]
    sizes = sorted({int(number(r["buffer_bytes"])) for r in rows})
    l2 = max([x for x in sizes if x <= L2_PROBE_BYTES] or sizes[:1])
    out = []
    for label, size in (("L1", sizes[0]), ("L2", l2), ("DRAM", sizes[-1])):
        at = [r for r in rows if int(number(r["buffer_bytes"])) == size]
        out.append(("%s (%s footprint)" % (label, size_text(size)),
                    headline.median([number(r["ns_per_hop_median"]) for r in at]),
                    headline.median([number(r["cycles_per_hop_median"]) for r in at])))
    return out


def gpu_section(sets):
    vals = [mission_values(s) for s in sets]
    head = [""] + [s.gpu_name() for s in sets] + (["ratio"] if len(sets) > 1 else [])
    # The revision that measured each set (the mission run's git_rev; a set is one revision).
    revs = []
    for s in sets:
        name = s.run(setsmod.MISSION)
        revs.append("`%s`" % (s.meta(name, "git_rev") or "?")[:12] if name else "-")
    rows = [["revision of the set"] + revs + ([""] if len(sets) > 1 else [])]
    for label, key, scale, digits in GPU_ROWS:
        v = [x.get(key, math.nan) * scale for x in vals]
        rows.append([label] + [fmt(x, digits) for x in v] + ratio_cells(v))
    v = [x.get("latency_ns", math.nan) for x in vals]
    rows.append(["unloaded DRAM latency (mission run), ns"] + [fmt(x) for x in v] +
                ratio_cells(v))
    v = [x.get("need_bytes", math.nan) for x in vals]
    rows.append(["bytes in flight per SM the roof needs (roof x latency / SMs)"] +
                [fmt(x, 0) for x in v] + ratio_cells(v))
    steps = [ladder_steps(s) for s in sets]
    for i in range(max(len(x) for x in steps)):
        label = next(x[i][0] for x in steps if len(x) > i)
        ns = [x[i][1] if len(x) > i else math.nan for x in steps]
        cyc = [x[i][2] if len(x) > i else math.nan for x in steps]
        rows.append(["latency ladder, %s, ns" % label] + [fmt(x) for x in ns] + ratio_cells(ns))
        rows.append(["latency ladder, %s, cycles" % label] + [fmt(x) for x in cyc] +
                    ratio_cells(cyc))
    out = ["## The GPUs", "", "From the metadata of each set's mission run, its knee report "
           "(the latency the model starts from) and the latency ladder run; ratio: the last "
           "set over the first.", ""] + table(head, rows)
    if len(sets) > 1:
        a, b = vals[0], vals[-1]
        out += ["", "By Little's law a GPU holds its roof R at latency L only with R x L bytes "
                "in flight, R x L / SMs per SM. On the %s the roof is %s and the latency %s "
                "those of the %s, so it needs %s the bytes in flight per SM: a variant needs "
                "about that much more occupancy for the same share of its roof. The knees of "
                "each run below say how much more it took."
                % (sets[-1].gpu_name(), ratio_text(a, b, "roof_memcpy_gbps"),
                   ratio_text(a, b, "latency_ns"), sets[0].gpu_name(),
                   ratio_text(a, b, "need_bytes"))]
    return out


def ratio_text(a, b, key):
    """'1.41x' of b[key] over a[key]."""
    x, y = a.get(key, math.nan), b.get(key, math.nan)
    return "%sx" % fmt(y / x if x and math.isfinite(x) and math.isfinite(y) else math.nan, 2)


def run_cells(row):
    """(best, share of roof or peak, knee, in flight) of one knee-report row, as text."""
    if row is None:
        return ["-"] * 4
    if "best GB/s" in row:
        best, roof = number(row["best GB/s"]), number(row.get("roof GB/s", "nan"))
        return [fmt(best), fmt(100.0 * best / roof), row["knee occ % measured"],
                "%s B/SM" % row["bytes in flight per SM at knee"]]
    return [fmt(number(row["best rate"])), row["% of peak"], row["knee occ % measured"],
            "%s cycles" % row["L cycles"]]


def run_section(sets, command):
    names = [s.run(command) for s in sets]
    reports = [s.knee_rows(n) if n else {} for s, n in zip(sets, names)]
    variants = []
    for rep in reports:
        variants += [v for v in rep if v not in variants]
    if not variants:
        return []
    first = next(r for rep in reports for r in rep.values())
    chain = "best GB/s" not in first
    unit = first.get("unit", "GB/s") if chain else "GB/s"
    cols = ["best %s" % unit, "% of peak" if chain else "% of roof", "knee occ %",
            "L at knee" if chain else "in flight at knee"]
    head = ["variant"] + ["%s %s" % (s.gpu, c) for s in sets for c in cols]
    rows = [["`%s`" % v] + [c for rep in reports for c in run_cells(rep.get(v))]
            for v in variants]
    files = ", ".join("[%s](../results/%s/%s)" % (s.gpu, s.gpu, n[:-4] + "-knee.md")
                      for s, n in zip(sets, names) if n)
    what = ("the chain model's latency L, in SM cycles" if chain else
            "the bytes in flight per SM at the knee, U x V x 32 x warps")
    return ["### %s" % setsmod.run_label(command), "", "`%s`; knee reports: %s. Roof or peak: "
            "the report's own; in flight: %s." % (command, files, what), ""] + \
        table(head, rows) + [""]


def figures_section(sets, root):
    """A table of the figures the documentation embeds (results_readme.EMBEDDED), each set's
    drawing of it side by side: the same figure of the same command on each GPU."""
    pngs = []
    for s in sets:
        commands = {n: s.meta(n, "command") or "" for n in s.csvs}
        pngs.append(dict(((command, figure), (png, used)) for (png, used), (command, figure) in
                         zip(results_readme.embedded_pngs(commands), results_readme.EMBEDDED)))
    rows = []
    for command, figure in results_readme.EMBEDDED:
        cells = []
        for s, have in zip(sets, pngs):
            png, used = have.get((command, figure), (None, command))
            present = png and os.path.isfile(os.path.join(root, "results", s.gpu, png))
            note = "" if setsmod.same_command(used, command) else \
                " (its run of %s)" % setsmod.run_label(used)
            cells.append("[%s](../results/%s/%s)%s" % (s.gpu, s.gpu, png, note) if present
                         else "-")
        rows.append(["`%s`" % figure, "`%s`" % command.replace("./run_sweep ", "")] + cells)
    return (["## The figures of each set", "",
             "Each figure the documentation shows, drawn from each set's run of the same command "
             "([figures.md](figures.md) says how to read each):", ""] +
            table(["figure", "command"] + [s.gpu for s in sets], rows) + [""])


def page(sets, root=setsmod.ROOT):
    gpus = " against ".join(s.gpu_name() for s in sets) or "no set"
    out = ["# The reference sets side by side: %s" % gpus, "",
           "Generated from results/ by `python3 tools/results/publish.py`; do not edit it by "
           "hand (the `publish_docs` test compares it with the sets). Each set is one session on one GPU, one run "
           "per command ([results/README.md](../results/README.md)); the same command gives the "
           "same variants and levels on every GPU, so the runs of a command are compared.", ""]
    if len(sets) < 2:
        out += ["Only %s has a reference set: the columns of a second GPU appear when "
                "results/ holds one." % gpus, ""]
    if not sets:
        return "\n".join(out)
    out += gpu_section(sets) + [""]
    if os.path.isfile(os.path.join(root, FIGURE)):
        out += ["## The mission command on each GPU", "",
                "Each curve in % of its own GPU's `cudaMemcpy` roof, one panel per unroll "
                "(`plots/plot --compare` of the mission runs):", "",
                "![the mission command's curves of each GPU, in %% of each roof](../%s)"
                % FIGURE.replace(os.sep, "/"), ""]
    out += figures_section(sets, root)
    out += ["## Per run", "", "Per variant, each set's best rate and its share of the "
            "roof (or peak) the knee report judges it against, the measured knee (the lowest "
            "occupancy reaching 90% of the best) and what is in flight there.", ""]
    for command in RUNS:
        out += run_section(sets, command)
    return "\n".join(out).rstrip("\n") + "\n"
