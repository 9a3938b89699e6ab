#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/build/test_install.py: `meson install` into a DESTDIR, then the installed tree.

Checks: every file of plots/ (but meson.build) and the schema header are installed; the installed
occsweep prints --version (version and git revision as the build's binary does), --help and a
--dry-run plan identical to the build's binary; it finds the plot scripts relative to itself,
also after the whole tree is moved to another prefix (no source path baked in); bin/occsweep-plot
runs the installed wrapper, bin/occsweep-regress compares a fixture with itself, and the installed
report.py reads a fixture; the man page lists every option of --help with the same head, help
line, accepted values and default, and groff renders it without warnings. Usage:
test_install.py BUILD_DIR SOURCE_DIR BUILD_BINARY."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BUILD, SRC, BUILT = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run(*cmd, **kw):
    return subprocess.run(list(cmd), capture_output=True, text=True, **kw)


def help_options(text):
    """{head: text} of --help: an option starts at "  -"; its lines continue indented."""
    out, head = {}, None
    for line in text.split("\n"):
        m = re.match(r"^  (-\w, )?(--[\w-]+)( \S+)?( {2,}(.*))?$", line)
        if m:
            head = (m.group(1) or "") + m.group(2) + (m.group(3) or "")
            out[head] = m.group(5) or ""
        elif head and line.startswith(" " * 22):
            out[head] += " " + line.strip()
        else:
            head = None
    return {h: " ".join(t.split()) for h, t in out.items()}


def man_options(text):
    """{head: text} of the man page's .TP entries under the two OPTIONS sections."""
    text = text.replace("\\-", "-").replace("\\e", "\\").replace("\\&", "")
    out, head, in_options = {}, None, False
    for line in text.split("\n"):
        if line.startswith(".SH"):
            in_options = "OPTIONS" in line
            head = None
        elif in_options and line.startswith(".B ") and head == "":
            head = line[3:]
            out[head] = ""
        elif line == ".TP":
            head = ""
        elif line == ".br" or not in_options:
            continue
        elif head:
            out[head] += " " + line
    return {h: " ".join(t.split()) for h, t in out.items()}


def test_tree(dest, prefix):
    root = dest + prefix
    binary = os.path.join(root, "bin", "occsweep")
    plots = os.path.join(root, "share", "occsweep", "plots")
    wanted = sorted(f for f in os.listdir(os.path.join(SRC, "plots")) if f != "meson.build")
    got = sorted(os.listdir(plots)) if os.path.isdir(plots) else []
    check(got == wanted, "installed plots/ %s, want %s" % (got, wanted))
    check(os.access(os.path.join(plots, "plot"), os.X_OK), "the installed plot is executable")
    check(os.path.isfile(os.path.join(root, "share", "occsweep", "harness", "csv", "csv_columns.h")),
          "the schema header is installed for occcsv.py")

    mine, theirs = run(binary, "--version"), run(BUILT, "--version")
    lines = mine.stdout.split("\n")
    check(mine.returncode == 0 and lines[0] == theirs.stdout.split("\n")[0] and
          re.match(r"^occsweep \d+\.\d+\.\d+ \(git [^ )]+\)$", lines[0]),
          "installed --version: '%s', the build's '%s'" % (lines[0], theirs.stdout.split("\n")[0]))
    where = lines[1][len("plots: "):] if len(lines) > 1 else ""
    check(os.path.realpath(where) == os.path.realpath(plots),
          "installed binary finds plots at '%s', want %s" % (where, plots))
    for args in (["--help"], ["--dry-run", "--arch", "sm_90", "--kernel", "reduce", "--unroll",
                              "1,2", "--occ", "25..100"]):
        a, b = run(binary, *args), run(BUILT, *args)
        check(a.returncode == 0 and a.stdout == b.stdout and a.stdout,
              "installed %s: exit %d, same output as the build's binary: %s" %
              (" ".join(args), a.returncode, a.stdout == b.stdout))

    link = run(os.path.join(root, "bin", "occsweep-plot"), "--help")
    check(link.returncode == 0 and "Usage:" in link.stdout, "bin/occsweep-plot --help runs")
    work = tempfile.mkdtemp(prefix="occinst.")
    try:
        shutil.copy(os.path.join(SRC, "tests", "fixtures", "reduce-ncu-synthetic.csv"), work)
        csv = os.path.join(work, "reduce-ncu-synthetic.csv")
        reg = run(os.path.join(root, "bin", "occsweep-regress"), csv, csv)
        check(reg.returncode == 0 and "regressions (slower): 0" in reg.stdout,
              "bin/occsweep-regress compares a fixture with itself (%s)" % reg.stderr.strip())
        rep = run(sys.executable, os.path.join(plots, "report.py"), csv)
        check(rep.returncode == 0 and os.path.isfile(csv[:-4] + "-report.html"),
              "installed report.py reads a fixture (%s)" % rep.stderr.strip())
        if shutil.which(os.environ.get("GNUPLOT", "gnuplot")):
            fig = run(os.path.join(root, "bin", "occsweep-plot"), csv)
            check(fig.returncode == 0 and os.path.isfile(csv[:-4] + "-occupancy-reduce.svg"),
                  "installed occsweep-plot draws a fixture (%s)" % fig.stderr.strip())
    finally:
        shutil.rmtree(work)
    return binary


def test_man(dest, prefix):
    man = os.path.join(dest + prefix, "share", "man", "man1", "occsweep.1")
    check(os.path.isfile(man), "the man page is installed")
    if not os.path.isfile(man):
        return
    text = open(man).read()
    helped, manned = help_options(run(BUILT, "--help").stdout), man_options(text)
    check(len(helped) > 20, "--help lists the options (%d)" % len(helped))
    check(sorted(helped) == sorted(manned), "man page options %s, --help options %s" %
          (sorted(set(manned) ^ set(helped)), len(helped)))
    for head in helped:
        check(manned.get(head) == helped[head], "%s: man '%s' vs --help '%s'" %
              (head, manned.get(head), helped[head]))
    if shutil.which("groff"):
        g = run("groff", "-man", "-Tutf8", "-ww", "-z", man)
        check(g.returncode == 0 and not g.stderr.strip(), "groff warns: %s" % g.stderr.strip())


def main():
    dest = tempfile.mkdtemp(prefix="occdest.")
    try:
        env = dict(os.environ, DESTDIR=dest)
        inst = run("meson", "install", "-C", BUILD, "--no-rebuild", "--quiet", env=env)
        if inst.returncode != 0:
            inst = run(sys.executable, "-m", "mesonbuild.mesonmain", "install", "-C", BUILD,
                       "--no-rebuild", "--quiet", env=env)
        check(inst.returncode == 0, "meson install: %s" % inst.stderr.strip()[-300:])
        info = os.path.join(BUILD, "meson-info", "intro-buildoptions.json")
        prefix = [o["value"] for o in json.load(open(info)) if o["name"] == "prefix"][0]
        test_tree(dest, prefix)
        test_man(dest, prefix)
        # The whole tree moved to another prefix: the binary still finds its scripts.
        moved = os.path.join(dest, "elsewhere")
        shutil.move(dest + prefix, moved)
        v = run(os.path.join(moved, "bin", "occsweep"), "--version").stdout.split("\n")
        where = v[1][len("plots: "):] if len(v) > 1 else ""
        check(os.path.realpath(where) == os.path.realpath(
            os.path.join(moved, "share", "occsweep", "plots")),
              "moved tree: plots found at '%s'" % where)
    finally:
        shutil.rmtree(dest)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
