# SPDX-License-Identifier: Apache-2.0
"""tools/results/sets.py: the reference sets of results/ as the generators read them.

A set is a folder results/<gpu>/ holding CSVs (one run per command), their knee reports and the
one-page reports of the runs that asked for --report.
Set(folder) finds a run by the command of its metadata, reads its knee report (the tables of
harness/report/knee_report.c, as the knee test holds them equal to `occsweep --recompute`) and,
through an occsweep binary, the JSON summary (`--recompute CSV --json`) that holds the figures of
the end-of-run summary. Standard library only."""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headline import occcsv  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# The commands of the runs the generated pages quote, as tools/gpu/h200_session.sh runs them.
MISSION = "./run_sweep --kernel reduce --unroll 1,2,4 --occ 25..100"
LADDER = "./run_sweep --kernel chase --mode latency --footprint 4K..4G --quiet"


def fmt(x, digits=1):
    """x with digits decimals, "-" for None or a value that is not finite."""
    return "-" if x is None or not math.isfinite(x) else "%.*f" % (digits, x)


class Missing(Exception):
    """A run, report or figure a generator needs is not in the set; str() says which."""


def set_folders(root=ROOT):
    """[results/<gpu>/ folder] of every folder of results/ that holds a CSV, sorted by name."""
    results = os.path.join(root, "results")
    if not os.path.isdir(results):
        return []
    return [os.path.join(results, d) for d in sorted(os.listdir(results))
            if os.path.isdir(os.path.join(results, d)) and
            any(n.endswith(".csv") for n in os.listdir(os.path.join(results, d)))]


# A reference command that replaced an older one ({current: older}): a set measured before the
# change holds the older run, which stands for the current one until the set is measured again;
# the pages that show it name the run's own command (run_command).
REPLACED = {
    "./run_sweep --kernel mixed --size 8G --quiet": "./run_sweep --kernel mixed --size 1G --quiet",
}


def same_command(a, b):
    """Two metadata commands name one run: equal once an --out FILE is taken out of each."""
    def plain(c):
        return re.sub(r"\s+--out(?:=|\s+)\S+", "", c or "").strip()
    return plain(a) == plain(b)


def run_label(command):
    """A run named by its options: the command without ./run_sweep and --quiet, in a code
    span, and ", the mission command" after the mission's."""
    opts = re.sub(r"\s+--quiet\b", "", re.sub(r"^\S*run_sweep\s+", "", command)).strip()
    return "`%s`%s" % (opts, ", the mission command" if same_command(command, MISSION) else "")


def markdown_tables(text):
    """[[{header: cell}]] of every pipe table of a markdown text, in order."""
    tables, rows, head = [], None, None
    for line in text.split("\n") + [""]:
        if not line.startswith("|"):
            if rows is not None:
                tables.append(rows)
            rows, head = None, None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if head is None:
            head = cells
        elif rows is None:
            rows = []  # the |---| line
        else:
            rows.append(dict(zip(head, cells)))
    return tables


class Set:
    """One results/<gpu>/ folder."""

    def __init__(self, folder, occsweep=None):
        self.folder = folder
        self.gpu = os.path.basename(os.path.normpath(folder))
        self.occsweep = occsweep
        self.csvs = sorted(n for n in os.listdir(folder) if n.endswith(".csv"))
        self.tables = {n: occcsv.read(os.path.join(folder, n)) for n in self.csvs}
        self._json = {}

    def meta(self, name, key):
        return self.tables[name].meta_get(key)

    def gpu_name(self):
        return self.meta(self.csvs[0], "gpu_name") or self.gpu

    def run(self, command):
        """The CSV name of the run of command (or, where the set has none, of the command it
        replaced: REPLACED), or None."""
        for c in (command, REPLACED.get(command)):
            hits = [n for n in self.csvs if c and same_command(self.meta(n, "command"), c)]
            if hits:
                return hits[-1]
        return None

    def replaced_note(self, command, name):
        """"" where CSV name is a run of command, else " (its run of `OPTIONS`)": the set holds
        the run of the command command replaced (REPLACED), which stands for it."""
        own = self.meta(name, "command") or ""
        return "" if same_command(own, command) else " (its run of %s)" % run_label(own)

    def need(self, command):
        name = self.run(command)
        if name is None:
            raise Missing("results/%s has no run of '%s'" % (self.gpu, command))
        return name

    def knee_text(self, name):
        """The knee report of CSV name, or None where the set has none."""
        path = os.path.join(self.folder, name[:-len(".csv")] + "-knee.md")
        if not os.path.isfile(path):
            return None
        with open(path, encoding="utf-8") as f:
            return f.read()

    def knee_rows(self, name):
        """{variant: row} of the knee report's first table with a variant column (`...` taken
        off), the first row of each variant."""
        text = self.knee_text(name) or ""
        out = {}
        for table in markdown_tables(text):
            if table and "variant" in table[0]:
                for row in table:
                    out.setdefault(row["variant"].strip("`"), row)
                break
        return out

    def knee_line(self, name, prefix):
        """The text after 'prefix' of the knee report's first '- prefix...: value' line."""
        for line in (self.knee_text(name) or "").split("\n"):
            if line.startswith("- " + prefix):
                return line.split(": ", 1)[1] if ": " in line else ""
        return None

    def summary(self, name):
        """The JSON summary `occsweep --recompute CSV --json` writes of CSV name (cached)."""
        if name not in self._json:
            if not self.occsweep:
                raise Missing("no occsweep binary to read the summary of %s" % name)
            with tempfile.TemporaryDirectory(prefix="occ-publish.") as tmp:
                path = os.path.join(tmp, "summary.json")
                r = subprocess.run([self.occsweep, "--recompute", os.path.join(self.folder, name),
                                    "--json", path], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
                if r.returncode != 0:
                    raise Missing("occsweep --recompute %s: %s" % (name, r.stderr.strip()))
                with open(path, encoding="utf-8") as f:
                    self._json[name] = json.load(f)
        return self._json[name]


def sets_of(root=ROOT, occsweep=None):
    return [Set(f, occsweep) for f in set_folders(root)]
