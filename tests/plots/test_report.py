#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/plots/test_report.py: the one-page report (plots/report.py, plot --report) on fixtures.

The expected numbers are computed here from the fixture CSV with the csv module (not with
plots/occcsv.py, which the report uses), by the definitions the report states: best GB/s and the
knee (lowest achieved occupancy reaching 90% of the best) per variant, the ncu rows, the skipped,
clock-dropped and noisy points; on the reference runs in results/, the knee table must equal
the program's own <csv>-knee.md where the run's predictions are the current model's. With
gnuplot, plots/plot --report must link every SVG it drew from the Markdown and inline each in
the HTML. Usage: test_report.py SOURCE_ROOT [OCCSWEEP]."""
import csv
import glob
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
OCCSWEEP = sys.argv[2] if len(sys.argv) > 2 else None  # the build's occsweep, for --recompute
FIX = os.path.join(ROOT, "tests", "fixtures")
REPORT = os.path.join(ROOT, "plots", "report.py")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def rows_and_meta(path):
    meta, lines = {}, []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("# ") and "=" in line:
                k, v = line[2:].rstrip("\n").split("=", 1)
                meta[k] = v
            else:
                lines.append(line)
    return list(csv.DictReader(lines)), meta


def run_report(*args):
    return subprocess.run([sys.executable, REPORT] + list(args), capture_output=True, text=True)


def table_rows(md, first_header):
    """The rows of the Markdown table whose header starts with first_header, as cell lists."""
    lines = md.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("| " + first_header + " |"):
            out = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                out.append([c.strip() for c in row.strip("|").split(" | ")])
            return out
    return []


def test_ncu_fixture(work):
    csv_path = os.path.join(work, "reduce-ncu-synthetic.csv")
    shutil.copy(os.path.join(FIX, "reduce-ncu-synthetic.csv"), csv_path)
    p = run_report(csv_path)
    check(p.returncode == 0, "report.py on the ncu fixture exits 0 (%s)" % p.stderr.strip())
    md_path = csv_path[:-4] + "-report.md"
    check(p.stdout.split() == [md_path, csv_path[:-4] + "-report.html"],
          "report.py prints the two paths it wrote")
    md = open(md_path).read()
    page = open(csv_path[:-4] + "-report.html").read()
    for section in ("Run", "Roofs", "Figures", "Knee and model", "Residency", "Nsight Compute",
                    "Known limits that applied", "Commands"):
        check("\n### %s\n" % section in md, "section '%s' in the Markdown" % section)
        check("<h3>%s</h3>" % section in page, "section '%s' in the HTML" % section)
    check(page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>"),
          "the HTML is one whole document")
    check("No figures beside the CSV" in md, "no figures: the page says so")

    rows, meta = rows_and_meta(csv_path)
    ok = [r for r in rows if r["status"] == "ok"]
    knees = {r[0].strip("`"): r for r in table_rows(md, "variant | kernel")}
    variants = sorted({r["variant"] for r in ok})
    check(sorted(knees) == variants, "one knee row per variant with ok rows")
    for v in variants:
        pts = sorted((float(r["occ_achieved_pct"]), float(r["gbps_median"]))
                     for r in ok if r["variant"] == v)
        best = max(g for _, g in pts)
        knee = min(o for o, g in pts if g >= 0.9 * best)
        row = knees.get(v, [""] * 13)
        check(row[5] == "%.1f" % best, "%s: best GB/s %s, want %.1f" % (v, row[5], best))
        check(row[8] == "%.2f" % knee, "%s: knee %s, want %.2f" % (v, row[8], knee))
        check(row[4] == str(len(pts)), "%s: %s points, want %d" % (v, row[4], len(pts)))

    profiled = [r for r in ok if not math.isnan(float(r["ncu_occ_achieved_pct"]))]
    ncu = table_rows(md, "variant | API occ %")
    check(len(ncu) == len(profiled) and len(profiled) < len(ok),
          "ncu table: %d rows, want the %d profiled of %d ok" % (len(ncu), len(profiled), len(ok)))
    first = min(profiled, key=lambda r: (r["variant"] != "reduce_u1_v4",
                                         float(r["occ_achieved_pct"])))
    want = ["`%s`" % first["variant"], "%.2f" % float(first["occ_achieved_pct"]),
            "%.2f" % float(first["occ_measured_pct"])] + [
        "%.2f" % float(first[c]) for c in ("ncu_occ_achieved_pct", "ncu_dram_throughput_pct",
                                           "ncu_issue_active_pct", "ncu_stall_long_scoreboard",
                                           "ncu_stall_not_selected", "ncu_stall_wait",
                                           "ncu_stall_math_throttle")]
    check(want in ncu, "ncu table holds %s" % " | ".join(want))
    check(meta["ncu_version"] in md, "the ncu version is named")

    skips = [r for r in rows if r["status"].startswith("skip")]
    dropped = [r for r in ok if int(r["samples_discarded_clock"]) > 0]
    noisy = [r for r in ok if float(r["noise_pct"]) > float(meta["max_noise_pct"])]
    check(skips and "- %d point(s) not run: %s" % (len(skips), skips[0]["status"]) in md,
          "limits: the skipped points")
    check(dropped and "- %d sample(s) of %d point(s) dropped by the clock watch" % (
        sum(int(r["samples_discarded_clock"]) for r in dropped), len(dropped)) in md,
          "limits: the samples the clock watch dropped")
    check(noisy and "- %d point(s) stopped by the time bound" % len(noisy) in md,
          "limits: the points above the noise target")
    check("throttle reasons 0x4 at the end" in md and "at the start" not in md,
          "limits: throttle reasons at the end only")
    check("    " + meta["command"] in md, "commands: the run's command line")


def test_plain_and_several(work):
    a = os.path.join(work, "a.csv")
    b = os.path.join(work, "b.csv")
    shutil.copy(os.path.join(FIX, "reduce-synthetic.csv"), a)
    shutil.copy(os.path.join(FIX, "reduce-gpu-b-synthetic.csv"), b)
    out = os.path.join(work, "both")
    p = run_report("--out", out, a, b)
    check(p.returncode == 0, "report.py on two CSVs exits 0 (%s)" % p.stderr.strip())
    md = open(out + ".md").read()
    check(md.count("\n### Run\n") == 2, "two CSVs: two run sections on one page")
    check("Nsight Compute" not in md.replace("### Known", ""),
          "no ncu values: no Nsight Compute section")
    p = run_report(os.path.join(FIX, "malformed-ragged.csv"))
    check(p.returncode == 2 and p.stderr.count("\n") == 1 and "malformed-ragged.csv:" in p.stderr,
          "a malformed CSV: exit 2 and one line naming it")
    p = run_report("--bogus", a)
    check(p.returncode == 2 and "unrecognized arguments: --bogus" in p.stderr,
          "a bad option: exit 2")
    p = run_report("--out", os.path.join(work, "missing", "r"), a)
    check(p.returncode == 2 and p.stderr.count("\n") == 1 and "does not exist" in p.stderr
          and not os.path.exists(os.path.join(work, "missing")),
          "--out in a missing directory: exit 2, one line, nothing made (%s)" % p.stderr.strip())
    # An --out that is a link: the link is replaced by the page, its target is kept.
    target = os.path.join(work, "target.md")
    with open(target, "w") as f:
        f.write("keep\n")
    os.symlink(target, os.path.join(work, "linked.md"))
    p = run_report("--out", os.path.join(work, "linked"), a)
    check(p.returncode == 0 and open(target).read() == "keep\n"
          and not os.path.islink(os.path.join(work, "linked.md")),
          "--out a link: the link replaced, its target kept (%s)" % p.stderr.strip())


def number(cell):
    """A table cell's number: a knee at the lowest level run ("<=25.00 (lowest level run)",
    marked since the reference runs were written) compares by its value."""
    return cell.replace(" (lowest level run)", "").replace("<=", "")


def test_lowest_knee_figures_commands(work):
    """A knee at the lowest level run is marked; the figures come occupancy first; with
    --figdir, the Commands section names it (--outdir); --help is argparse's."""
    csv_path = os.path.join(work, "low.csv")
    shutil.copy(os.path.join(FIX, "reduce-gpu-b-synthetic.csv"), csv_path)
    figdir = os.path.join(work, "figs")
    os.mkdir(figdir)
    for name in ("ladder", "block-reduce", "inflight-reduce", "occupancy-reduce"):
        with open(os.path.join(figdir, "low-%s.svg" % name), "w") as f:
            f.write('<svg xmlns="http://www.w3.org/2000/svg"></svg>\n')
    p = run_report("--figdir", figdir, csv_path)
    check(p.returncode == 0, "report.py --figdir exits 0 (%s)" % p.stderr.strip())
    md = open(csv_path[:-4] + "-report.md").read()
    order = [n for n in ("occupancy-reduce", "inflight-reduce", "block-reduce", "ladder")
             if "low-%s.svg" % n in md]
    check(order and sorted(order, key=md.index) == order and len(order) == 4,
          "figures in the order occupancy, inflight, block, ladder: %s" %
          sorted(order, key=md.index))
    check("plots/plot --report --outdir %s %s" % (figdir, csv_path) in md,
          "Commands: plots/plot with the --outdir the figures came from")
    rows, _ = rows_and_meta(csv_path)
    ok = [r for r in rows if r["status"] == "ok" and r["gbps_median"] not in ("", "nan")]
    for row in table_rows(md, "variant | kernel"):
        v = row[0].strip("`")
        pts = [(float(r["occ_achieved_pct"]), float(r["gbps_median"])) for r in ok
               if r["variant"] == v]
        best = max(g for _, g in pts)
        knee = min(o for o, g in pts if g >= 0.9 * best)
        want = "%.2f" % knee
        if knee == min(o for o, _ in pts):
            want = "<=%s (lowest level run)" % want
        check(row[8] == want, "%s: knee cell %r, want %r" % (v, row[8], want))
    check(any("lowest level run" in r[8] for r in table_rows(md, "variant | kernel")),
          "the fixture has a knee at its lowest level (the mark is exercised)")
    p = run_report("--help")
    check(p.returncode == 0 and p.stdout.startswith("usage: plots/report.py"),
          "--help: exit 0 and the usage (%s)" % p.stderr.strip())


def stale_predictions_pct(csv_path):
    """How far the CSV's gbps_predicted lies from the current model's (occsweep --recompute's
    "largest difference" line, in %); None without the program or the line."""
    if not OCCSWEEP:
        return None
    p = subprocess.run([OCCSWEEP, "--recompute", csv_path], capture_output=True, text=True)
    m = re.search(r"largest difference from its gbps_predicted ([0-9.e+-]+)%", p.stdout)
    return float(m.group(1)) if m else None


def test_same_as_harness(work):
    """The knee table agrees with the program's own <csv>-knee.md for the reference runs whose
    predictions are the current model's. report.py draws a run's own gbps_predicted; a knee
    report is --recompute's (the current model: test publish_knees), so for a set measured
    under an earlier model the two differ by design and that run is named, not compared."""
    pairs = sorted(glob.glob(os.path.join(ROOT, "results", "*", "*-knee.md")))
    compared = 0
    for knee_md in pairs:
        csv_path = knee_md[:-len("-knee.md")] + ".csv"
        if not os.path.isfile(csv_path):
            continue
        stale = stale_predictions_pct(csv_path)
        if stale is not None and stale > 0.01:
            print("note: %s holds an earlier model's predictions (up to %.3g%% from the current "
                  "model's): its knee table is not compared" % (csv_path, stale))
            continue
        out = os.path.join(work, "ref")
        p = run_report("--out", out, csv_path)
        check(p.returncode == 0, "report.py on %s (%s)" % (csv_path, p.stderr.strip()))
        if p.returncode:
            continue
        # With several block sizes both tables have a block column (after V) and a line per
        # (variant, block size).
        ours = table_rows(open(out + ".md").read(), "variant | kernel")
        b = int(bool(ours) and len(ours[0]) == 14)
        mine = {(r[0], r[4] if b else ""): tuple(number(r[k + b]) for k in (5, 8, 9, 10, 11, 12))
                for r in ours}
        # The Little's-law knee table: the part before the chain section (harness/model/
        # chain_model.h), which plots/report.py does not draw; a report of the chain section
        # alone (a run of fma, smem or mma only) has no knee table to compare.
        md = open(knee_md).read().split("\n## Latency chains")[0]
        if "Little's-law model" not in md:
            continue
        # The knee report's columns by name: a block column where the run has several block
        # sizes, a roof column where each traffic has its own roof.
        head = next((line.strip("|").split(" | ") for line in md.split("\n")
                     if line.startswith("| variant | kernel |")), [])
        head = [h.strip() for h in head]
        col = {name: i for i, name in enumerate(head)}
        cols = ["best GB/s", "knee occ % measured", "knee occ % predicted",
                "bytes in flight per SM at knee", "worst miss %", "at occ %"]
        theirs = {(r[0], r[col["block"]] if "block" in col else ""):
                  tuple(number(r[col[c]]) for c in cols) for r in table_rows(md, "variant | kernel")}
        check(mine == theirs, "%s: knee table differs from %s: %s" % (
            csv_path, knee_md, sorted(set(mine.items()) ^ set(theirs.items()))[:4]))
        compared += 1
    check(compared > 0 or not pairs, "at least one reference run's knee table compared")


def test_with_figures(work):
    if not shutil.which(os.environ.get("GNUPLOT", "gnuplot")):
        print("skip: no gnuplot, plots/plot --report not run")
        return
    csv_path = os.path.join(work, "fig.csv")
    shutil.copy(os.path.join(FIX, "reduce-ncu-synthetic.csv"), csv_path)
    p = subprocess.run([os.path.join(ROOT, "plots", "plot"), "--report", csv_path],
                       capture_output=True, text=True)
    check(p.returncode == 0, "plots/plot --report exits 0 (%s)" % p.stderr.strip())
    svgs = sorted(f for f in os.listdir(work) if f.startswith("fig-") and f.endswith(".svg"))
    md = open(csv_path[:-4] + "-report.md").read()
    page = open(csv_path[:-4] + "-report.html").read()
    check(len(svgs) >= 2, "figures drawn: %s" % svgs)
    for s in svgs:
        check("](%s)" % s in md, "the Markdown links %s" % s)
    check(page.count("<svg") == len(svgs) and "<?xml" not in page and "src=" not in page,
          "the HTML inlines every figure (%d <svg>, want %d) and links none" %
          (page.count("<svg"), len(svgs)))


def main():
    work = tempfile.mkdtemp(prefix="occreport.")
    try:
        test_ncu_fixture(work)
        test_plain_and_several(work)
        test_same_as_harness(work)
        test_lowest_knee_figures_commands(work)
        test_with_figures(work)
    finally:
        shutil.rmtree(work)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
