#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/build/test_publish.py SRCDIR OCCSWEEP CHECK: every published figure is the one
tools/results/publish.py makes of the reference sets (results/README.md, "Publishing").

  docs      publish.py --check passes on the tree (knee reports, set pages, docs/compare.md, the
            comparison figure's presence, the generated regions of README.md and docs/*.md); on
            a scratch copy one number changed in README.md's mission excerpt, in docs/compare.md
            or in a CSV's best row makes it exit 1 with lines naming what differs
  knees     each CSV of each set: its knee report is byte for byte what `OCCSWEEP --recompute
            CSV --out` writes, and a CSV --recompute has no model for has none; a scratch copy
            with one number of one report changed is caught by publish.py --check
  typed     README.md and docs/validation.md hold their generated regions, and outside them no
            measured figure (a number with GB/s, GFLOP/s, TFLOP/s, ns, cycles, MHz or B/SM, a
            percentage with decimals, "N of M", three decimals in a row as in a table)
  commands  every CSV of a set names its command (./run_sweep ...) and revision in its metadata,
            no two CSVs of a set share a command, and the set's page names each command
  twosets   on a scratch tree with a second set (tests/data/h100-reduce-mission-5900278.csv as
            its mission run, with the runs of the session's steps plugins and ncureport:
            test_results.SESSION_EXTRAS), publish.py writes the comparison with both GPUs and
            their ratios (the plugin's run beside a set without one), the knee reports (none
            for the plugin without a model), the --report run's report (plots/report.py's page)
            and the set's page listing them (and the figure, with gnuplot), then --check passes,
            and a copy with one number of the report changed is caught
  estimate  the constants of --dry-run's estimate (launch_ms of the descriptors, the hop times
            of harness/plan/plan_estimate.c) are within tools/results/estimate_fit.py's
            TOLERANCE of its fit from the calibration set
Standard library only (unittest). Exit 0 passed, 1 failed, 2 bad usage."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "."
OCCSWEEP = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else ""
sys.path.insert(0, os.path.join(ROOT, "tools", "results"))
import compare  # noqa: E402
import estimate_fit  # noqa: E402
import publish  # noqa: E402
import regions  # noqa: E402
import sets as setsmod  # noqa: E402
import test_results  # noqa: E402

PUBLISH = os.path.join(ROOT, "tools", "results", "publish.py")
# The documents whose measured figures are all in generated regions, and the regions each holds.
CONVERTED = {"README.md": ["mission-excerpt"], "docs/validation.md": ["set-list", "validation"]}
MEASURED = re.compile(r"\d[\d.,]*\s?(?:GB/s|GFLOP/s|TFLOP/s|ns\b|cycles\b|MHz\b|B/SM)"
                      r"|\d+\.\d+\s?%|\b\d+ of \d+\b|(?:\d+\.\d+\s+){2}\d+\.\d+")
# What the tree copy needs: the pages, the sets, the generators, the CSV schema, the plots.
TREE = ("README.md", "docs", "results", "tools", "plots", os.path.join("harness", "csv"))


def run_publish(root, *args):
    return subprocess.run([sys.executable, os.path.join(root, "tools", "results", "publish.py"),
                           "--occsweep", OCCSWEEP] + list(args),
                          capture_output=True, text=True)


def copy_tree(tmp):
    tree = os.path.join(tmp, "tree")
    for part in TREE:
        src, dst = os.path.join(ROOT, part), os.path.join(tree, part)
        if os.path.isdir(src):
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(src, dst)
    return tree


def edit(path, pattern, count=1):
    """Adds 1 to the integer part of the first match of pattern (a group 1 of digits) in the
    file; the old text."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    changed = re.sub(pattern, lambda m: m.group(0).replace(
        m.group(1), str(int(m.group(1)) + 1), 1), text, count=count)
    assert changed != text, "%s: nothing matched %s" % (path, pattern)
    with open(path, "w", encoding="utf-8") as f:
        f.write(changed)
    return text


def restore(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


class Publish(unittest.TestCase):
    def check_caught(self, tree, what, rel):
        r = run_publish(tree, "--check")
        self.assertTrue(r.returncode == 1 and "publish: %s:" % rel in r.stdout,
                        "publish.py --check after %s: exit %d (want 1), naming %s: %s"
                        % (what, r.returncode, rel, r.stdout.strip() or r.stderr.strip()))

    def test_docs(self):
        r = run_publish(ROOT, "--check")
        self.assertEqual(r.returncode, 0, "publish.py --check on the tree: %s"
                         % (r.stdout.strip() or r.stderr.strip()))
        with tempfile.TemporaryDirectory() as tmp:
            tree = copy_tree(tmp)
            r = run_publish(tree, "--check")
            self.assertEqual(r.returncode, 0, "--check on an unchanged copy: %s" % r.stdout)
            readme = os.path.join(tree, "README.md")
            old = edit(readme, r"(?m)^    reduce_\S+ +\d+ +(\d+)\.\d")
            self.check_caught(tree, "a figure of the mission excerpt changed", "README.md")
            restore(readme, old)
            page = os.path.join(tree, compare.PAGE)
            old = edit(page, r"\| `[^`]+` \| (\d+)\.\d")
            self.check_caught(tree, "a figure of docs/compare.md changed", compare.PAGE)
            restore(page, old)
            s = setsmod.sets_of(tree)[0]
            name = s.need(setsmod.MISSION)
            csv = os.path.join(s.folder, name)
            with open(csv, encoding="utf-8", newline="") as f:
                text = f.read()
            table = s.tables[name]
            i = table.index["gbps_median"]
            ok = [(float(row[i]), n) for n, row in enumerate(table.rows)
                  if row[table.index["status"]] == "ok" and row[table.index["kernel"]] == "reduce"]
            _, n = max(ok)
            lines = text.split("\n")
            fields = lines[table.row_lines[n] - 1].split(",")
            fields[i] = "%.10g" % (float(fields[i]) * 1.5)
            lines[table.row_lines[n] - 1] = ",".join(fields)
            restore(csv, "\n".join(lines))
            self.check_caught(tree, "the best row of %s changed" % name, "README.md")

    def test_knees(self):
        for s in setsmod.sets_of(ROOT):
            for name in s.csvs:
                want = publish.recompute_report(OCCSWEEP, os.path.join(s.folder, name))
                have = s.knee_text(name)
                report = "results/%s/%s-knee.md" % (s.gpu, name[:-len(".csv")])
                self.assertTrue(want == have, "%s: %s" % (report, "missing" if have is None else
                                                        "should not exist" if want is None else
                                                        "differs from occsweep --recompute"))
        with tempfile.TemporaryDirectory() as tmp:
            tree = copy_tree(tmp)
            s = setsmod.sets_of(tree)[0]
            name = next(n for n in s.csvs if s.knee_text(n))
            path = os.path.join(s.folder, name[:-len(".csv")] + "-knee.md")
            edit(path, r"\| `[^`]+` \|[^\n]*?\| (\d+)\.\d+ \|")
            self.check_caught(tree, "a number of %s changed" % os.path.basename(path),
                              os.path.relpath(path, tree))

    def test_typed(self):
        self.assertTrue(MEASURED.search("    reduce_u1_v4  13  2633.6  100.0  61.3  93.8") and
                        MEASURED.search("top 4041.3 GB/s at 1210.7 ns"),
                        "the measured-figure pattern finds the figures of a run")
        for rel, names in CONVERTED.items():
            with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
                text = f.read()
            found = [v[0] for kind, v in regions.split(text) if kind == "region"]
            for name in names:
                self.assertTrue(name in found, "%s holds a '%s' region" % (rel, name))
            for n, line in enumerate(regions.outside(text).split("\n"), 1):
                m = MEASURED.search(line)
                self.assertTrue(m is None, "%s: '%s' outside the generated regions: a measured "
                                "figure is generated (tools/results/regions.py)"
                                % (rel, m and m.group(0)))

    def test_commands(self):
        for s in setsmod.sets_of(ROOT):
            with open(os.path.join(s.folder, "README.md"), encoding="utf-8") as f:
                page = f.read()
            seen = {}
            for name in s.csvs:
                command, rev = s.meta(name, "command") or "", s.meta(name, "git_rev") or ""
                where = "results/%s/%s" % (s.gpu, name)
                self.assertTrue(command.startswith("./run_sweep "),
                                "%s: metadata command is a ./run_sweep line: '%s'"
                                % (where, command))
                self.assertTrue(re.fullmatch(r"[0-9a-f]{7,40}", rev),
                                "%s: metadata git_rev is a revision: '%s'" % (where, rev))
                self.assertTrue(command not in seen, "%s and %s share the command '%s'"
                                % (seen.get(command), name, command))
                seen[command] = name
                self.assertTrue("- command: `%s`" % command in page,
                                "results/%s/README.md names the command of %s" % (s.gpu, name))

    def test_twosets(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = copy_tree(tmp)
            h100 = os.path.join(tree, "results", "h100")
            shutil.rmtree(h100, ignore_errors=True)  # the stand-in replaces a committed set
            os.makedirs(h100)
            shutil.copy(os.path.join(ROOT, "tests", "data", "h100-reduce-mission-5900278.csv"),
                        os.path.join(h100, "reduce-20990101T000000Z.csv"))
            for name, data in test_results.session_extras("20990102T000000Z", raw=False).items():
                with open(os.path.join(h100, name), "wb") as f:
                    f.write(data)
            r = run_publish(tree)
            self.assertEqual(r.returncode, 0, "publish.py with a second set: %s" % r.stderr)
            with open(os.path.join(tree, compare.PAGE), encoding="utf-8") as f:
                page = f.read()
            names = [s.gpu_name() for s in setsmod.sets_of(tree)]
            self.assertTrue(len(names) == 2 and all(n in page.split("\n")[0] for n in names),
                            "docs/compare.md names both GPUs: %s" % page.split("\n")[0])
            self.assertTrue(re.search(r"\| `cudaMemcpy` roof, GB/s \| [\d.]+ \| [\d.]+ \| "
                                      r"[\d.]+x \|", page), "the roofs side by side, a ratio")
            self.assertTrue(re.search(r"\| `reduce_u1_v4` \| [\d.]+ \|( [^|]+ \|){3} [\d.]+ \|",
                                      page), "the mission variants side by side")
            self.assertTrue(re.search(r"### `--plugin build/examples/libsaxpy.so`\n(.*\n)*"
                                      r"\| `saxpy_ilp1` \|( [^|-][^|]* \|){4}( - \|){4}\n", page),
                            "the plugin's run of one set beside the other's '-'")
            self.extras(tree, h100)
            figure = os.path.join(tree, compare.FIGURE)
            gnuplot = shutil.which(os.environ.get("GNUPLOT", "gnuplot"))
            self.assertTrue(os.path.isfile(figure) or gnuplot is None,
                            "the comparison figure is drawn where gnuplot is")
            if os.path.isfile(figure):
                self.assertTrue("](../%s)" % compare.FIGURE in page, "the page shows the figure")
                r = run_publish(tree, "--check")
                self.assertEqual(r.returncode, 0, "--check after publishing: %s" % r.stdout)
            report = os.path.join(h100, "reduce-20990102T000000Z-report.md")
            edit(report, r"\| `reduce_u4_v16` \| reduce \| 4 \| 16 \| \d+ \| (\d+)\.\d")
            self.check_caught(tree, "a number of the report changed",
                              os.path.relpath(report, tree))

    def extras(self, tree, folder):
        """The set in folder after publish.py, with test_results.SESSION_EXTRAS at stamp
        20990102T000000Z: their knee reports, the --report run's report and the set's page."""
        stamp, gpu = "20990102T000000Z", os.path.basename(folder)
        for kernel, knee in (("saxpy", True), ("stencil", False), ("reduce", True)):
            path = os.path.join(folder, "%s-%s-knee.md" % (kernel, stamp))
            self.assertTrue(os.path.isfile(path) == knee, "%s: %s" % (
                os.path.basename(path), "missing" if knee else "should not exist (no model)"))
        reports = sorted(n for n in os.listdir(folder) if n.endswith("-report.md"))
        report = "reduce-%s-report.md" % stamp
        self.assertTrue(reports == [report], "the report of the --report run only: %s" % reports)
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([sys.executable, os.path.join(ROOT, "plots", "report.py"), "--out",
                                os.path.join(tmp, "page"), "--",
                                "results/%s/reduce-%s.csv" % (gpu, stamp)],
                               cwd=tree, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, "plots/report.py: %s" % r.stderr)
            with open(os.path.join(tmp, "page.md"), encoding="utf-8") as f:
                want = f.read()
        with open(os.path.join(folder, report), encoding="utf-8") as f:
            self.assertTrue(f.read() == want and "### Nsight Compute" in want,
                            "%s is what plots/report.py writes of its CSV" % report)
        with open(os.path.join(folder, "README.md"), encoding="utf-8") as f:
            page = f.read()
        for line in ("- report: [%s](%s)" % (report, report),
                     "- command: `%s`" % test_results.SESSION_EXTRAS[0][2],
                     "- Nsight Compute 2025.3.1.0: "):
            self.assertTrue(line in page, "results/%s/README.md says '%s'" % (gpu, line))


    def test_estimate(self):
        folder = os.path.join(ROOT, "results", estimate_fit.CALIBRATION_SET)
        self.assertTrue(os.path.isdir(folder), "the calibration set %s exists"
                        % os.path.relpath(folder, ROOT))
        rows = estimate_fit.fits(folder, ROOT)
        names = [r[0] for r in rows]
        self.assertTrue(all(h in names for h in estimate_fit.HOPS) and
                        any(n.endswith("launch_ms") for n in names),
                        "the set fits the hops and some launch_ms: %s" % names)
        for name, code, fit, ratio in rows:
            self.assertTrue(estimate_fit.within(ratio),
                            "%s: the code's %g against %.3g fitted from %s, ratio %.2f beyond "
                            "%g%%: refit (tools/results/estimate_fit.py)"
                            % (name, code, fit, os.path.relpath(folder, ROOT), ratio,
                               100 * estimate_fit.TOLERANCE))


CHECKS = ("docs", "knees", "typed", "commands", "twosets", "estimate")

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[3] not in CHECKS:
        print("usage: test_publish.py SRCDIR OCCSWEEP %s" % "|".join(CHECKS), file=sys.stderr)
        sys.exit(2)
    unittest.main(argv=[sys.argv[0], "Publish.test_" + sys.argv[3]])
