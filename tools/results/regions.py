# SPDX-License-Identifier: Apache-2.0
"""tools/results/regions.py: the generated regions of README.md, docs/*.md and results/README.md.

A region is the text between a line `<!-- generated: NAME ARG... -->` and the next line
`<!-- end generated -->`; GENERATORS[NAME](sets, args) makes it from the reference sets
(tools/results/sets.py), so every measured figure the documentation quotes comes from a CSV or
knee report of results/. Markdown shows neither marker. Standard library only."""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sets as setsmod  # noqa: E402
from headline import occcsv  # noqa: E402
from sets import fmt  # noqa: E402

START = re.compile(r"^<!-- generated: ([a-z][a-z0-9-]*)((?: [^ ]+)*) -->$")
END = "<!-- end generated -->"
RESIDENCY_PTS = 2.0   # a point's residency is "held" within 2 points of the API's occupancy
# The runs of the model's agreement rows: those the validation targets name.
AGREEMENT_RUNS = (setsmod.MISSION,
                  "./run_sweep --kernel reduce --quiet",
                  "./run_sweep --kernel reduce --block 128,256,512,1024 --quiet",
                  "./run_sweep --kernel copy --quiet",
                  "./run_sweep --kernel chase --quiet",
                  "./run_sweep --kernel chase --mode thread --quiet")
# The runs of the residency rows: each family's default run, dynamic schedule.
RESIDENCY_RUNS = ("./run_sweep --kernel copy --quiet",
                  "./run_sweep --kernel reduce --quiet",
                  "./run_sweep --kernel chase --quiet",
                  "./run_sweep --kernel chase --mode thread --quiet",
                  "./run_sweep --kernel fma --vec 4,8 --quiet",
                  "./run_sweep --kernel mixed --size 8G --quiet",
                  "./run_sweep --kernel smem --mode stream --quiet",
                  "./run_sweep --kernel mma --mode f16 --quiet",
                  "./run_sweep --kernel async --mode bulk --quiet",
                  "./run_sweep --kernel async --mode cp --quiet",
                  "./run_sweep --kernel wgmma --mode f16 --quiet")


class RegionError(Exception):
    """A marker without its end, or a region no generator makes; str() says where."""


def split(text):
    """[(kind, value)] of text: ("text", str) and ("region", (name, args, body))."""
    out, lines, i = [], text.split("\n"), 0
    plain = []
    while i < len(lines):
        m = START.match(lines[i])
        if not m:
            plain.append(lines[i])
            i += 1
            continue
        try:
            end = lines.index(END, i + 1)
        except ValueError:
            raise RegionError("line %d: '%s' has no '%s'" % (i + 1, lines[i], END)) from None
        out.append(("text", "\n".join(plain + [lines[i]])))
        out.append(("region", (m.group(1), m.group(2).split(), "\n".join(lines[i + 1:end]))))
        plain = [END]
        i = end + 1
    out.append(("text", "\n".join(plain)))
    return out


def outside(text):
    """text with every region's body taken out (the markers stay)."""
    return "\n".join(v for kind, v in split(text) if kind == "text")


def render(text, sets):
    """text with every region made again; raises RegionError or setsmod.Missing."""
    parts = []
    for kind, value in split(text):
        if kind == "text":
            parts.append(value)
            continue
        name, args, _ = value
        if name not in GENERATORS:
            raise RegionError("no generator makes a region named '%s'" % name)
        parts.append(GENERATORS[name](sets, args).rstrip("\n"))
    return "\n".join(parts)


def by_gpu(sets, gpu):
    for s in sets:
        if s.gpu == gpu:
            return s
    raise setsmod.Missing("no reference set results/%s/" % gpu)


def num(text):
    return occcsv.number(text)


def mission_excerpt(sets, args):
    """ARGS: GPU VARIANT...: the first table of the mission run's summary, those variants' lines,
    as occsweep prints it (harness/report/summary_print.c), with the sentence that names the
    GPU and links its set."""
    s = by_gpu(sets, args[0])
    name = s.need(setsmod.MISSION)
    variants = [v for v in s.summary(name)["variants"]
                if v["mode"] != "loaded" and v["plateau"] and v["plateau"]["unit"] == "GB/s"]
    width = max([len("variant")] + [len(v["variant"]) for v in variants])
    lines = ["An excerpt of the mission command's output on an %s (the first table of the "
             "summary;" % s.gpu_name(),
             "the run's CSV is in [results/%s](results/%s/README.md)):" % (s.gpu, s.gpu), "",
             "    %-*s  %6s  %10s  %8s  %8s  %10s" % (width, "variant", "ok", "best GB/s",
                                                     "at occ %", "% memcpy", "knee occ %")]
    for want in args[1:]:
        hits = [v for v in variants if v["variant"] == want]
        if not hits:
            raise setsmod.Missing("results/%s/%s has no variant %s" % (s.gpu, name, want))
        v = hits[0]
        # The knee as the summary prints it: two decimals, "<=" where it is the lowest level run.
        knee = v.get("knee") or {}
        occ = knee.get("measured_occ_pct")
        cell = "%s%.2f" % ("<=" if knee.get("measured_at_lowest_level") else "", occ) \
            if occ is not None else fmt(math.nan)
        lines.append("    %-*s  %6d  %10s  %8s  %8s  %10s" % (
            width, v["variant"], v["rows_ok"], fmt(v["plateau"]["value"]),
            fmt(v["plateau"]["occ_achieved_pct"]), fmt(v["plateau"]["pct_of_roof"]), cell))
    return "\n".join(lines)


def agreement_cell(s, command):
    name = s.run(command)
    line = name and s.knee_line(name, "predicted within 10% of measured")
    if not line:
        return "-"
    m = re.match(r"(\d+) of (\d+)", line)
    return "%s of %s (%s%%)" % (m.group(1), m.group(2), fmt(100.0 * int(m.group(1)) /
                                                            max(1, int(m.group(2)))))


def residency_cell(s, command):
    name = s.run(command)
    if name is None:
        return "-"
    table = s.tables[name]
    diffs = []
    for r in table.dicts():
        if r["status"] != "ok" or r["schedule"] == "static" or \
                math.isfinite(num(r["latency_mean_ns"])):
            continue
        d = num(r["occ_measured_pct"]) - num(r["occ_achieved_pct"])
        if math.isfinite(d):
            diffs.append(d)
    if not diffs:
        return "-"
    held = sum(abs(d) <= RESIDENCY_PTS for d in diffs)
    worst = max(diffs, key=abs)
    return "%s%% of %d, worst %+.1f%s" % (fmt(100.0 * held / len(diffs)), len(diffs), worst,
                                          s.replaced_note(command, name))


def best_cell(s, command, roof_key, roof_name):
    name = s.run(command)
    if name is None:
        return "-"
    best = max((num(r["gbps_median"]) for r in s.tables[name].dicts()
                if r["status"] == "ok" and not math.isfinite(num(r["latency_mean_ns"]))),
               default=math.nan)
    roof = num(s.meta(name, roof_key) or "nan")
    return "%s GB/s, %s%% of %s" % (fmt(best), fmt(100.0 * best / roof), roof_name)


def mixed_cell(s, command):
    """The best % of the FMA peak of each A >= 128 of the mixed run."""
    name = s.run(command)
    if name is None:
        return "-"
    best = {}
    for r in s.tables[name].dicts():
        a = num(r["fma_per_element"])
        if r["status"] == "ok" and a >= 128:
            best[a] = max(best.get(a, -math.inf), num(r["pct_of_flop_peak"]))
    cell = ", ".join("A = %d: %s%%" % (a, fmt(p)) for a, p in sorted(best.items()))
    return cell + s.replaced_note(command, name) if cell else "-"


def validation(sets, args):
    """No ARGS: the validation table of every set: the model's agreement, the residency held,
    the roofs reached and mixed's arithmetic plateau."""
    head = "| check | target | " + " | ".join(s.gpu_name() for s in sets) + " |"
    out = [head, "|---|---|" + "--:|" * len(sets)]

    def row(check, target, cells):
        out.append("| %s | %s | %s |" % (check, target, " | ".join(cells)))
    for command in AGREEMENT_RUNS:
        row("model within 10%%: %s" % setsmod.run_label(command), ">= 95% of natural points",
            [agreement_cell(s, command) for s in sets])
    for command in RESIDENCY_RUNS:
        row("residency within %g points: %s" % (RESIDENCY_PTS, setsmod.run_label(command)),
            ">= 95% of points, none beyond 4", [residency_cell(s, command) for s in sets])
    row("best reduce point", "CUB's `DeviceReduce::Sum`",
        [best_cell(s, "./run_sweep --kernel reduce --quiet", "roof_cub_reduce_gbps", "CUB")
         for s in sets])
    row("best copy point", "`cudaMemcpy`",
        [best_cell(s, "./run_sweep --kernel copy --quiet", "roof_memcpy_gbps", "memcpy")
         for s in sets])
    row("mixed, best % of the FMA peak at A >= 128", ">= 95%",
        [mixed_cell(s, "./run_sweep --kernel mixed --size 8G --quiet") for s in sets])
    return "\n".join(out)


def set_list(sets, args):
    """No ARGS: one line per set: its GPU, its page and the git revision of its CSVs."""
    out = []
    for s in sets:
        revs = sorted({s.meta(n, "git_rev") or "-" for n in s.csvs})
        out.append("- %s: [results/%s](../results/%s/README.md), %d runs at revision %s"
                   % (s.gpu_name(), s.gpu, s.gpu, len(s.csvs),
                      ", ".join("`%s`" % r for r in revs)))
    return "\n".join(out)


def set_table(sets, args):
    """No ARGS (results/README.md): the table of the sets, each linked with its GPU's name."""
    return "\n".join(["| set | GPU |", "|---|---|"] +
                     ["| [%s/README.md](%s/README.md) | %s |" % (s.gpu, s.gpu, s.gpu_name())
                      for s in sets])


GENERATORS = {"mission-excerpt": mission_excerpt, "validation": validation,
              "set-list": set_list, "set-table": set_table}
