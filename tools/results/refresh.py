#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/results/refresh.py [--root DIR] RESULTS_TGZ: makes the runs of one GPU session the
reference set of their results/<gpu>/ folder.

RESULTS_TGZ is the results.tgz that tools/gpu/h200_session.sh leaves in $OUT: the CSVs and knee
reports of the session, as results/<gpu>/<kernel>-<UTC stamp>.csv and ...-knee.md (a plugin's
run named by its kernel: saxpy-<stamp>.csv). Nsight Compute's raw page of a --ncu run
(<stem>-ncu-raw.csv) is left out of the set: the run's CSV holds the ncu_* values read from it.
For each <gpu> in it, in this order (nothing in the tree changes before step 3):
  1. every CSV is read by plots/occcsv.py (a file occ_csv_read rejects stops the refresh), and
     no two CSVs may share a command (a set is one run per command);
  2. the figures of tools/results/results_readme.py's EMBEDDED list (by the CSV's command) are
     drawn with plots/plot into a temporary folder, and only those PNGs are kept; each run whose
     command asked for --report gets its one-page report, <stem>-report.md, as
     `plots/report.py` writes it of results/<gpu>/<stem>.csv (report_page());
  3. every file of results/<gpu>/ but README.md is deleted (git history keeps the old set),
     and the new CSVs, knee reports, reports and PNGs are put there;
  4. links into results/<gpu>/ in README.md and docs/*.md that named an old file of a command
     are made to name the new file of that command; links that still name no file are listed;
  5. results/<gpu>/README.md is generated again (results_readme.py).
--root DIR: the tree to refresh (default: the one this script is in). Needs gnuplot (plots/plot).
Exit 0 when refreshed, 1 when a step failed (the message says which), 2 on bad usage."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_readme  # noqa: E402
from headline import occcsv  # noqa: E402

MEMBER = re.compile(r"^(?:\./)?results/([a-z0-9][a-z0-9._-]*)/([^/]+(?:\.csv|-knee\.md))$")
NCU_RAW = "-ncu-raw.csv"   # Nsight Compute's raw page beside a --ncu run's CSV (bench/ncu_pass.c)


class Refusal(Exception):
    """A refresh that cannot go on; str() says why."""


def unpack(tgz, stage):
    """{gpu: staging folder stage/results/<gpu>} of the archive's results/<gpu>/ CSVs and knee
    reports; a raw Nsight Compute page is left out, with a line that says so."""
    out = {}
    try:
        tf = tarfile.open(tgz, "r:*")
    except (OSError, tarfile.TarError) as e:
        raise Refusal("%s: %s" % (tgz, e)) from None
    with tf:
        for m in tf.getmembers():
            if m.isdir():
                continue
            match = MEMBER.match(m.name)
            if not match or not m.isfile():
                raise Refusal("%s: %s is not results/<gpu>/<name>.csv or -knee.md" % (tgz, m.name))
            gpu, name = match.groups()
            if name.endswith(NCU_RAW):
                print("left out results/%s/%s: Nsight Compute's raw page (the run's CSV holds its "
                      "ncu_* values)" % (gpu, name))
                continue
            folder = out.setdefault(gpu, os.path.join(stage, "results", gpu))
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, name), "wb") as f:
                f.write(tf.extractfile(m).read())
    if not out:
        raise Refusal("%s: no results/<gpu>/ files" % tgz)
    return out


def commands_of(folder, strict):
    """{csv name: its metadata command} of a folder's CSVs; strict: a CSV occ_csv_read rejects
    stops the refresh (else it is left out)."""
    out = {}
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".csv")):
        try:
            out[name] = occcsv.read(os.path.join(folder, name)).meta_get("command") or ""
        except occcsv.CsvError as e:
            if strict:
                raise Refusal(str(e)) from None
    return out


def check_set(commands):
    seen = {}
    for name, command in commands.items():
        if command in seen:
            raise Refusal("%s and %s share the command '%s': a set holds one run per command; "
                          "leave one out of the archive" % (seen[command], name, command))
        seen[command] = name


def draw(folder, commands, scratch):
    """Draws the EMBEDDED figures of the set in folder into it, with plots/plot."""
    wanted = results_readme.embedded_pngs(commands)
    missing = sorted({c for png, c in wanted if png is None})
    if missing:
        raise Refusal("no CSV of the command%s %s, whose figures the docs embed "
                      "(tools/results/results_readme.py EMBEDDED)"
                      % ("s" if len(missing) > 1 else "", "; ".join(missing)))
    plot = os.path.join(results_readme.ROOT, "plots", "plot")
    by_command = {c: n for n, c in commands.items()}
    drawn = set()
    for png, command in wanted:
        csv = by_command[command]
        if csv not in drawn:
            drawn.add(csv)
            r = subprocess.run([plot, "--outdir", scratch, "--", os.path.join(folder, csv)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if r.returncode != 0:
                raise Refusal("plots/plot %s failed: %s" % (csv, r.stderr.strip()))
        src = os.path.join(scratch, png)
        if not os.path.isfile(src):
            raise Refusal("plots/plot drew no %s" % png)
        shutil.copyfile(src, os.path.join(folder, png))


def wants_report(command):
    """Whether a run's metadata command asked for its one-page report (--report)."""
    return "--report" in (command or "").split()


def report_page(root, csv):
    """The Markdown plots/report.py writes of csv (a path under root, results/<gpu>/<name>.csv),
    run in root with the CSV named relative to it, so that the page's title and commands name
    results/<gpu>/... wherever the tree lies. It links the SVGs beside the CSV: a set holds none
    (its figures are the PNGs of EMBEDDED), so the page links no figure and its commands say how
    to draw them (plots/plot --report CSV)."""
    rel = os.path.relpath(csv, root)
    with tempfile.TemporaryDirectory(prefix="occ-report.") as tmp:
        out = os.path.join(tmp, "page")
        r = subprocess.run([sys.executable, os.path.join(results_readme.ROOT, "plots", "report.py"),
                            "--out", out, "--", rel], cwd=root, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        if r.returncode != 0 or not os.path.isfile(out + ".md"):
            raise Refusal("plots/report.py %s: exit %d: %s" % (rel, r.returncode,
                                                               r.stderr.strip()))
        with open(out + ".md", encoding="utf-8", newline="") as f:
            return f.read()


def write_reports(root, folder, commands):
    """Writes <stem>-report.md beside each CSV of folder (under root) whose command has --report."""
    for name, command in sorted(commands.items()):
        if wants_report(command):
            text = report_page(root, os.path.join(folder, name))
            with open(os.path.join(folder, name[:-len(".csv")] + "-report.md"), "w",
                      encoding="utf-8", newline="\n") as f:
                f.write(text)


def replace_set(folder, staged):
    os.makedirs(folder, exist_ok=True)
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name == "README.md":
            continue
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.remove(path)
    for name in sorted(os.listdir(staged)):
        shutil.copyfile(os.path.join(staged, name), os.path.join(folder, name))


def doc_files(root):
    docs = os.path.join(root, "docs")
    names = sorted(n for n in os.listdir(docs) if n.endswith(".md")) if os.path.isdir(docs) else []
    return [os.path.join(root, "README.md")] + [os.path.join(docs, n) for n in names]


def relink(root, gpu, old, new):
    """Links to an old file of a command name the new file of that command instead."""
    by_command = {c: n[:-len(".csv")] for n, c in new.items()}
    moves = {n[:-len(".csv")]: by_command[c] for n, c in old.items()
             if c in by_command and n[:-len(".csv")] != by_command[c]}
    stale = re.compile(r"results/%s/([^\s()\[\]`'\"]+)" % re.escape(gpu))
    for path in doc_files(root):
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        edited = text
        for a, b in sorted(moves.items()):
            edited = re.sub(r"(?<=%s/)%s(?=[-.])" % (re.escape(gpu), re.escape(a)), b, edited)
        if edited != text:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(edited)
            print("relinked %s" % os.path.relpath(path, root))
        for m in stale.finditer(edited):
            if "*" not in m.group(1) and \
                    not os.path.exists(os.path.join(root, "results", gpu, m.group(1))):
                print("still names no file: %s: results/%s/%s"
                      % (os.path.relpath(path, root), gpu, m.group(1)))


def refresh(root, tgz):
    with tempfile.TemporaryDirectory(prefix="occ-refresh.") as tmp:
        staged = unpack(tgz, os.path.join(tmp, "stage"))
        sets = {}
        for gpu, folder in sorted(staged.items()):
            commands = commands_of(folder, strict=True)
            if not commands:
                raise Refusal("%s: no CSV for results/%s/" % (tgz, gpu))
            check_set(commands)
            scratch = os.path.join(tmp, "figures-" + gpu)
            os.makedirs(scratch)
            draw(folder, commands, scratch)
            write_reports(os.path.join(tmp, "stage"), folder, commands)
            sets[gpu] = commands
        for gpu, commands in sorted(sets.items()):
            dest = os.path.join(root, "results", gpu)
            old = commands_of(dest, strict=False) if os.path.isdir(dest) else {}
            replace_set(dest, staged[gpu])
            relink(root, gpu, old, commands)
            with open(os.path.join(dest, "README.md"), "w", encoding="utf-8", newline="\n") as f:
                f.write(results_readme.generate(dest))
            size = sum(os.path.getsize(os.path.join(dest, n)) for n in os.listdir(dest))
            print("results/%s: %d CSVs, %d files, %.1f MB" % (
                gpu, len(commands), len(os.listdir(dest)), size / 1e6))


def main(argv):
    p = argparse.ArgumentParser(prog="tools/results/refresh.py", allow_abbrev=False,
                                description=__doc__.split("\n\n")[0].split(": ", 1)[1])
    p.add_argument("--root", metavar="DIR", default=results_readme.ROOT,
                   help="the tree to refresh (default: the one this script is in)")
    p.add_argument("tgz", metavar="RESULTS_TGZ")
    a = p.parse_args(argv)
    try:
        refresh(os.path.abspath(a.root), a.tgz)
    except Refusal as e:
        print("refresh: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
