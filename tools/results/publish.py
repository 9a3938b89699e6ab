#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/results/publish.py [--check] [--occsweep PATH] [--root DIR] [RESULTS_TGZ...]: makes
every published figure again from the reference sets of results/ (after a session's runs came
in, or after a model change), in this order:
  0. each RESULTS_TGZ (a session's results.tgz) becomes the set of its results/<gpu>/ by
     tools/results/refresh.py (the embedded figures drawn, links moved; needs gnuplot);
  1. knee reports: each CSV's <stem>-knee.md is what `occsweep --recompute CSV --out` writes
     (none where --recompute has no model for the file: ladder and mixed runs, a plugin without
     a traffic factor); reports: each CSV whose metadata command has --report gets
     <stem>-report.md, the Markdown plots/report.py writes of it (refresh.report_page(); it
     links no figure: the set keeps PNGs only, the page's commands say how to draw them);
  2. results/<gpu>/README.md (tools/results/results_readme.py);
  3. results/compare-mission.png: plots/plot --compare of the sets' mission runs, where two
     sets or more have one (needs gnuplot; without it the figure is left as it is, with a note);
  4. docs/compare.md (tools/results/compare.py);
  5. the generated regions of README.md, results/README.md and docs/*.md
     (tools/results/regions.py).
--check writes nothing: it makes each file in memory and prints one line per file that
differs from it (the figure: one that should exist and does not, or the reverse); exit 1 then.
--occsweep: the program that recomputes (default: $OCCSWEEP, else build/bench/occsweep).
Exit 0 done or up to date; 1 --check found a difference, or refresh.py refused an archive (its
set left as it was); 2 bad usage, no occsweep, a CSV the reader rejects or a figure a region
needs that the sets lack. Standard library only."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402
import refresh  # noqa: E402
import regions  # noqa: E402
import results_readme  # noqa: E402
import sets as setsmod  # noqa: E402
from headline import occcsv  # noqa: E402


class Failure(Exception):
    """Publishing cannot go on; str() says why."""


def recompute_report(occsweep, csv):
    """The knee report `occsweep --recompute csv --out` writes, or None where it has no model
    for the file (exit 2, "no model inputs")."""
    with tempfile.TemporaryDirectory(prefix="occ-publish.") as tmp:
        out = os.path.join(tmp, "knee.md")
        r = subprocess.run([occsweep, "--recompute", csv, "--out", out],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode == 2 and "no model inputs" in r.stderr:
            return None
        if r.returncode != 0 or not os.path.isfile(out):
            raise Failure("occsweep --recompute %s: exit %d: %s"
                          % (csv, r.returncode, r.stderr.strip()))
        with open(out, encoding="utf-8", newline="") as f:
            return f.read()


def read(path):
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except OSError:
        return None


class Publisher:
    def __init__(self, root, occsweep, check):
        self.root, self.occsweep, self.check = root, occsweep, check
        self.differ = []

    def put(self, path, text):
        """Writes text (None: no file) at path, or under --check notes a difference."""
        old = read(path)
        if old == text:
            return
        rel = os.path.relpath(path, self.root)
        if self.check:
            self.differ.append("%s: %s" % (rel, "should not exist" if text is None else
                                           "missing" if old is None else
                                           "differs from what the sets make of it"))
            return
        if text is None:
            os.remove(path)
            print("removed %s" % rel)
            return
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("wrote %s" % rel)

    def reports(self, folder):
        """The knee report of each CSV of the set in folder, and the report of each --report run."""
        for name in sorted(n for n in os.listdir(folder) if n.endswith(".csv")):
            csv, stem = os.path.join(folder, name), name[:-len(".csv")]
            self.put(os.path.join(folder, stem + "-knee.md"), recompute_report(self.occsweep, csv))
            try:
                page = refresh.report_page(self.root, csv) if refresh.wants_report(
                    occcsv.read(csv).meta_get("command")) else None
            except refresh.Refusal as e:
                raise Failure(str(e)) from None
            self.put(os.path.join(folder, stem + "-report.md"), page)

    def figure(self, sets):
        path = os.path.join(self.root, compare.FIGURE)
        runs = [os.path.join(s.folder, s.run(setsmod.MISSION)) for s in sets
                if s.run(setsmod.MISSION)]
        if self.check:
            if (len(runs) > 1) != os.path.isfile(path):
                self.differ.append("%s: %s" % (compare.FIGURE, "missing" if len(runs) > 1 else
                                               "should not exist (fewer than two mission runs)"))
            return
        if len(runs) < 2:
            if os.path.isfile(path):
                os.remove(path)
                print("removed %s" % compare.FIGURE)
            return
        if shutil.which(os.environ.get("GNUPLOT", "gnuplot")) is None:
            print("note: no gnuplot: %s left as it is" % compare.FIGURE)
            return
        with tempfile.TemporaryDirectory(prefix="occ-publish.") as tmp:
            r = subprocess.run([os.path.join(self.root, "plots", "plot"), "--compare", "--out",
                                os.path.join(tmp, "compare")] + runs,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if r.returncode != 0 or not os.path.isfile(os.path.join(tmp, "compare.png")):
                raise Failure("plots/plot --compare: %s" % r.stderr.strip())
            shutil.copyfile(os.path.join(tmp, "compare.png"), path)
        print("drew %s" % compare.FIGURE)

    def docs(self, sets):
        paths = [os.path.join(self.root, "README.md"),
                 os.path.join(self.root, "results", "README.md")] + sorted(
            os.path.join(self.root, "docs", n) for n in os.listdir(os.path.join(self.root, "docs"))
            if n.endswith(".md"))
        for path in paths:
            text = read(path)
            if text is None or os.path.basename(path) == os.path.basename(compare.PAGE):
                continue
            try:
                made = regions.render(text, sets)
            except regions.RegionError as e:
                raise Failure("%s: %s" % (os.path.relpath(path, self.root), e)) from None
            self.put(path, made)

    def run(self):
        folders = setsmod.set_folders(self.root)
        for folder in folders:
            self.reports(folder)
        for folder in folders:
            self.put(os.path.join(folder, "README.md"), results_readme.generate(folder))
        sets = setsmod.sets_of(self.root, self.occsweep)
        self.figure(sets)
        self.put(os.path.join(self.root, compare.PAGE), compare.page(sets, self.root))
        self.docs(sets)
        for line in self.differ:
            print("publish: %s (run tools/results/publish.py)" % line)
        return 1 if self.differ else 0


def main(argv):
    p = argparse.ArgumentParser(prog="tools/results/publish.py", allow_abbrev=False,
                                description="Makes every published figure from results/.")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 where a file differs from what the sets make")
    p.add_argument("--occsweep", metavar="PATH",
                   default=os.environ.get("OCCSWEEP") or
                   os.path.join(setsmod.ROOT, "build", "bench", "occsweep"))
    p.add_argument("--root", metavar="DIR", default=setsmod.ROOT,
                   help="the tree to publish (default: the one this script is in)")
    p.add_argument("archives", metavar="RESULTS_TGZ", nargs="*",
                   help="a session's results.tgz to make its GPU's set first (refresh.py)")
    a = p.parse_args(argv)
    if a.check and a.archives:
        print("publish: --check takes no RESULTS_TGZ (it writes nothing)", file=sys.stderr)
        return 2
    if not os.access(a.occsweep, os.X_OK):
        print("publish: no occsweep at %s (build it, e.g. ./run_sweep --help, or give "
              "--occsweep PATH)" % a.occsweep, file=sys.stderr)
        return 2
    try:
        for tgz in a.archives:
            refresh.refresh(os.path.abspath(a.root), tgz)
        return Publisher(os.path.abspath(a.root), os.path.abspath(a.occsweep), a.check).run()
    except refresh.Refusal as e:
        print("refresh: %s" % e, file=sys.stderr)
        return 1
    except (Failure, setsmod.Missing, occcsv.CsvError, OSError) as e:
        print("publish: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
