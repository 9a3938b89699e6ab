#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/build/test_results.py SRCDIR CHECK: results/ against its rules (results/README.md).

The reference sets are the files git tracks under results/ when SRCDIR is a git checkout (a
user's own files there, such as a run written with --out results/..., are no part of a set and
are not checked), every file under it otherwise (a copy of the tree).

  readme    tools/results/results_readme.py --check passes on the tree; on a scratch copy of each
            GPU folder it passes unchanged, and exits 1 with one line when a figure of the
            README or a number of a CSV (the row that makes a peak) is changed
  size      results/ holds under 8 MB, beside the GPU folders only README.md and the comparison
            figure (tools/results/compare.py FIGURE), and each GPU folder only its README.md,
            CSVs, knee reports, reports (-report.md) and PNGs (no subfolder, no SVG)
  revision  every CSV of a GPU folder names one git revision (git_rev): a set is one run
  links     every PNG under results/ is linked from README.md or docs/*.md, each GPU folder
            holds exactly the PNGs of results_readme.py's EMBEDDED list, and every relative link
            of README.md, docs/*.md and the results/ pages resolves
  refresh   tools/results/refresh.py on a scratch tree (README.md, docs/, results/) with an
            archive of the set under new stamps, plus the runs of the session's steps plugins and
            ncureport (SESSION_EXTRAS) with the raw Nsight Compute page beside the --ncu run: the
            new set replaces the old, the raw page left out and the --report run's report
            written, the links follow, the page is regenerated and lists them, the set passes the
            size and links checks; archives it must refuse leave the tree as it was (exit 77
            without gnuplot)
Standard library only (unittest). Exit 0 passed, 1 failed, 2 bad usage, 77 refresh without
gnuplot."""
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

sys.dont_write_bytecode = True
ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "."
sys.path.insert(0, os.path.join(ROOT, "tools", "results"))
import compare  # noqa: E402
import results_readme  # noqa: E402
from headline import occcsv  # noqa: E402

GEN = os.path.join(ROOT, "tools", "results", "results_readme.py")
REFRESH = os.path.join(ROOT, "tools", "results", "refresh.py")
RESULTS = os.path.join(ROOT, "results")  # the reference sets as checked (reference_view)
MAX_BYTES = 8 * 1000 * 1000
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
# The runs tools/gpu/h200_session.sh's steps plugins and ncureport add to a set, as fixtures:
# (fixture, kernel, the session's command or None to keep the fixture's): a plugin with a model
# (a fake device's dry run of examples/saxpy), one without (examples/stencil, measured on an H200
# at 126750f) and a --ncu --report run (synthetic).
SESSION_EXTRAS = (("plugin/saxpy-fake-sm90.csv", "saxpy",
                   "./run_sweep --plugin build/examples/libsaxpy.so --quiet"),
                  ("plugin/stencil-h200-126750f.csv", "stencil", None),
                  ("reduce-ncu-synthetic.csv", "reduce", None))
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def run(*args):
    return subprocess.run([sys.executable] + list(args), capture_output=True, text=True)


def tracked_results(root):
    """The paths under root/results/ (relative to it) git tracks, or None when root is not the
    top of a git checkout."""
    try:
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True)
        if top.returncode != 0 or os.path.realpath(top.stdout.strip()) != os.path.realpath(root):
            return None
        r = subprocess.run(["git", "-C", root, "ls-files", "-z", "--", "results"],
                           capture_output=True, text=True)
    except OSError:
        return None
    if r.returncode != 0:
        return None
    return [os.path.relpath(p, "results") for p in r.stdout.split("\0") if p]


def reference_view(root, into):
    """root/results as a folder to check: itself outside git, else a copy under into of the
    files git tracks there (a tracked file deleted from the work tree is left out)."""
    files = tracked_results(root)
    if files is None:
        return os.path.join(root, "results")
    view = os.path.join(into, "results")
    os.makedirs(view)
    for rel in files:
        src = os.path.join(root, "results", rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(view, rel)), exist_ok=True)
            shutil.copyfile(src, os.path.join(view, rel))
    return view


def gpu_dirs(results=None):
    results = RESULTS if results is None else results
    return [os.path.join(results, d) for d in sorted(os.listdir(results))
            if os.path.isdir(os.path.join(results, d))]


def csvs(folder):
    return sorted(n for n in os.listdir(folder) if n.endswith(".csv"))


def bump_peak(folder):
    """Scales the highest gbps_median (else gflops_median) of the folder's first CSV that has
    one by 1.5, in place; the CSV's name, or None."""
    for name in csvs(folder):
        path = os.path.join(folder, name)
        table = occcsv.read(path)
        for column in ("gbps_median", "gflops_median"):
            i = table.index[column]
            ok = [(occcsv.number(r[i]), n) for n, r in enumerate(table.rows)
                  if r[table.index["status"]] == "ok" and occcsv.number(r[i]) > 0]
            if not ok:
                continue
            value, n = max(ok)
            with open(path, encoding="utf-8", newline="") as f:
                lines = f.read().split("\n")
            fields = lines[table.row_lines[n] - 1].split(",")
            fields[i] = "%.10g" % (value * 1.5)
            lines[table.row_lines[n] - 1] = ",".join(fields)
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write("\n".join(lines))
            return name
    return None


def session_extras(stamp, raw):
    """{csv name: bytes} of SESSION_EXTRAS named as a session names them, <kernel>-<stamp>.csv,
    each command replaced where the list gives one; raw: with the --ncu run's raw Nsight Compute
    page beside it (<name>-ncu-raw.csv), as run_sweep --ncu writes it."""
    out = {}
    for fixture, kernel, command in SESSION_EXTRAS:
        with open(os.path.join(FIXTURES, fixture), "rb") as f:
            data = f.read()
        if command:
            data = re.sub(rb"(?m)^# command=.*$", b"# command=" + command.encode(), data, count=1)
        out["%s-%s.csv" % (kernel, stamp)] = data
    if raw:
        with open(os.path.join(FIXTURES, "ncu", "raw-reduce.csv"), "rb") as f:
            out["reduce-%s-ncu-raw.csv" % stamp] = f.read()
    return out


def command_of(data):
    """The metadata command of a CSV's bytes."""
    m = re.search(rb"(?m)^# command=(.*)$", data)
    return m.group(1).decode() if m else ""


def shown(path, root, view):
    """path as the tree names it: results/... for a file of the view."""
    if path.startswith(view + os.sep):
        return os.path.join("results", os.path.relpath(path, view))
    return os.path.relpath(path, root)


def links_of(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"`[^`\n]*`", "", text)
    return [m.group(1) for m in LINK.finditer(text)
            if not re.match(r"^[a-z][a-z0-9+.-]*:", m.group(1))]


def snapshot(tree):
    out = {}
    for d, _, names in os.walk(tree):
        for n in names:
            with open(os.path.join(d, n), "rb") as f:
                out[os.path.relpath(os.path.join(d, n), tree)] = f.read()
    return out


def archive(path, files):
    """A results.tgz of {member name: bytes}."""
    with tarfile.open(path, "w:gz") as tf:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))


class Results(unittest.TestCase):
    def test_readme(self):
        r = run(GEN, "--check", *[f for f in gpu_dirs() if csvs(f)])
        self.assertEqual(r.returncode, 0, "results_readme.py --check on the tree: %s"
                         % (r.stdout.strip() or r.stderr.strip()))
        for folder in gpu_dirs():
            gpu = os.path.basename(folder)
            with tempfile.TemporaryDirectory() as tmp:
                copy = os.path.join(tmp, gpu)
                shutil.copytree(folder, copy)
                r = run(GEN, "--check", copy)
                self.assertEqual(r.returncode, 0,
                                 "%s: --check on an unchanged copy: %s" % (gpu, r.stdout))
                readme = os.path.join(copy, "README.md")
                with open(readme, encoding="utf-8") as f:
                    text = f.read()
                changed = re.sub(r"(\| )(\d+)(\.\d )",
                                 lambda m: m.group(1) + str(int(m.group(2)) + 1) + m.group(3),
                                 text, count=1)
                self.assertTrue(changed != text,
                                "%s: README.md has a headline figure to change" % gpu)
                with open(readme, "w", encoding="utf-8") as f:
                    f.write(changed)
                r = run(GEN, "--check", copy)
                self.assertTrue(r.returncode == 1 and len(r.stdout.splitlines()) == 1 and
                                "README.md" in r.stdout,
                                "%s: --check after a README figure changed: exit %d (want 1), "
                                "%d lines" % (gpu, r.returncode, len(r.stdout.splitlines())))
                with open(readme, "w", encoding="utf-8") as f:
                    f.write(text)
                name = bump_peak(copy)
                self.assertTrue(name is not None, "%s: a CSV with a peak to change" % gpu)
                r = run(GEN, "--check", copy)
                self.assertTrue(r.returncode == 1 and len(r.stdout.splitlines()) == 1,
                                "%s: --check after a peak of %s changed: exit %d (want 1), %d lines"
                                % (gpu, name, r.returncode, len(r.stdout.splitlines())))

    def test_size(self, results=None):
        """results: the results/ folder to check (default RESULTS)."""
        results = results or RESULTS
        total = 0
        for d, _, names in os.walk(results):
            total += sum(os.path.getsize(os.path.join(d, n)) for n in names)
        self.assertTrue(total < MAX_BYTES, "results/ holds %d bytes, under %d" % (total, MAX_BYTES))
        for name in sorted(os.listdir(results)):
            self.assertTrue(name in ("README.md", os.path.basename(compare.FIGURE)) or
                            os.path.isdir(os.path.join(results, name)),
                            "results/%s: a GPU folder, README.md or %s" % (name, compare.FIGURE))
        for folder in gpu_dirs(results):
            for name in sorted(os.listdir(folder)):
                ok = os.path.isfile(os.path.join(folder, name)) and (
                    name == "README.md" or
                    name.endswith((".csv", "-knee.md", "-report.md", ".png")))
                self.assertTrue(ok, "results/%s/%s: only README.md, CSVs, knee reports, reports "
                                "and PNGs belong in a set" % (os.path.basename(folder), name))

    def test_revision(self):
        for folder in gpu_dirs():
            revs = {}
            for name in csvs(folder):
                rev = occcsv.read(os.path.join(folder, name)).meta_get("git_rev") or "(none)"
                revs.setdefault(rev, []).append(name)
            gpu = os.path.basename(folder)
            detail = "; ".join("%s: %d CSVs (%s)" % (rev, len(n), ", ".join(n))
                               for rev, n in sorted(revs.items()))
            self.assertTrue(len(revs) == 1,
                            "results/%s: the CSVs name %d git revisions, a set is one: %s"
                            % (gpu, len(revs), detail))
            print("results/%s: %s" % (gpu, "; ".join("%s (%d CSVs)" % (rev, len(n))
                                                    for rev, n in sorted(revs.items()))))

    def test_links(self, root=ROOT, view=None):
        """view: the reference sets of root/results as checked (default RESULTS for ROOT,
        root/results for another tree); links resolve into it."""
        results = os.path.join(root, "results")
        view = view or (RESULTS if root == ROOT else results)
        docs = [os.path.join(root, "README.md")] + sorted(
            os.path.join(root, "docs", n) for n in os.listdir(os.path.join(root, "docs"))
            if n.endswith(".md"))
        pages = [os.path.join(view, "README.md")] + [
            os.path.join(f, "README.md") for f in gpu_dirs(view)]
        linked = set()
        for path in docs + pages:
            if not os.path.isfile(path):
                self.assertTrue(path not in pages, "%s exists" % shown(path, root, view))
                continue
            for target in links_of(path):
                dest = os.path.normpath(os.path.join(os.path.dirname(path),
                                                     target.partition("#")[0]))
                if dest.startswith(results + os.sep):
                    dest = os.path.join(view, os.path.relpath(dest, results))
                inside = dest.startswith(view + os.sep)
                if path in docs and not inside:
                    continue  # the docs' other links are the docs test's
                self.assertTrue(os.path.exists(dest),
                                "%s: link %s resolves" % (shown(path, root, view), target))
                if path in docs:
                    linked.add(dest)
        for png in sorted(n for n in os.listdir(view) if n.endswith(".png")):
            self.assertTrue(os.path.join(view, png) in linked,
                            "results/%s is linked from README.md or docs/" % png)
        for folder in gpu_dirs(view):
            gpu = os.path.basename(folder)
            pngs = sorted(n for n in os.listdir(folder) if n.endswith(".png"))
            for png in pngs:
                self.assertTrue(os.path.join(folder, png) in linked,
                                "results/%s/%s is linked from README.md or docs/" % (gpu, png))
            commands = {n: occcsv.read(os.path.join(folder, n)).meta_get("command") or ""
                        for n in csvs(folder)}
            wanted = results_readme.embedded_pngs(commands)
            for png, command in wanted:
                self.assertTrue(png is not None, "results/%s: a CSV of '%s', whose figure the "
                                "docs embed" % (gpu, command))
            want = sorted({p for p, _ in wanted if p})
            self.assertTrue(pngs == want,
                            "results/%s: the PNGs are the embedded ones: extra %s, missing %s"
                            % (gpu, sorted(set(pngs) - set(want)), sorted(set(want) - set(pngs))))

    def test_refresh(self):
        folder = gpu_dirs()[0]
        gpu = os.path.basename(folder)
        with tempfile.TemporaryDirectory() as tmp:
            tree = os.path.join(tmp, "tree")
            os.makedirs(tree)
            shutil.copy(os.path.join(ROOT, "README.md"), tree)
            shutil.copytree(os.path.join(ROOT, "docs"), os.path.join(tree, "docs"))
            shutil.copytree(RESULTS, os.path.join(tree, "results"))
            old = [n for n in os.listdir(folder) if n.endswith((".csv", "-knee.md"))]
            stamp = "20990101T000000Z"
            extras = session_extras(stamp, raw=True)
            taken = {command_of(d) for d in extras.values()} - {""}
            # The same runs under new stamps (2026 becomes 2099 in every name), those of the
            # extras' commands, and the set's own plugin and --report runs, replaced by the extras
            # (each with the knee report of the run it replaces, as a session brings one).
            files, stems = {}, set()
            for n in sorted(old, key=lambda n: not n.endswith(".csv")):
                with open(os.path.join(folder, n), "rb") as f:
                    data = f.read()
                if n.endswith(".csv") and (command_of(data) in taken or
                                           re.search(r"--plugin|--report", command_of(data))):
                    stems.add(n[:-len(".csv")])
                if not any(n.startswith(stem + x) for stem in stems for x in (".", "-knee.md")):
                    files["results/%s/%s" % (gpu, n.replace("-2026", "-2099", 1))] = data
                elif n.endswith("-knee.md") and "%s-%s.csv" % (n.split("-20")[0], stamp) in extras:
                    files["results/%s/%s-%s-knee.md" % (gpu, n.split("-20")[0], stamp)] = data
            files.update(("results/%s/%s" % (gpu, n), d) for n, d in extras.items())
            before = snapshot(tree)
            bad = dict(files, **{"results/%s/sub/x.csv" % gpu: b""})
            archive(os.path.join(tmp, "bad.tgz"), bad)
            dup = dict(files, **{"results/%s/%s" % (gpu, csvs(folder)[0].replace("-2026", "-2098")):
                                 files["results/%s/%s" % (gpu, csvs(folder)[0].replace("-2026",
                                                                                       "-2099"))]})
            archive(os.path.join(tmp, "dup.tgz"), dup)
            for name in ("bad.tgz", "dup.tgz"):
                r = run(REFRESH, "--root", tree, os.path.join(tmp, name))
                self.assertTrue(r.returncode == 1 and r.stderr.startswith("refresh: "),
                                "refresh of %s: exit %d (want 1): %s"
                                % (name, r.returncode, r.stderr.strip()))
                self.assertTrue(snapshot(tree) == before,
                                "refresh of %s leaves the tree as it was" % name)
            archive(os.path.join(tmp, "results.tgz"), files)
            r = run(REFRESH, "--root", tree, os.path.join(tmp, "results.tgz"))
            self.assertTrue(r.returncode == 0,
                            "refresh: exit %d: %s" % (r.returncode, r.stderr.strip()))
            new = os.path.join(tree, "results", gpu)
            names = sorted(os.listdir(new))
            self.assertTrue(not any("-2026" in n for n in names),
                            "refresh: no file of the old set is left")
            raw = "reduce-%s-ncu-raw.csv" % stamp
            self.assertTrue(all(m.split("/")[-1] in names for m in files if not m.endswith(raw)),
                            "refresh: every CSV and knee report of the archive is there")
            self.assertTrue(raw not in names and "left out results/%s/%s" % (gpu, raw) in r.stdout,
                            "refresh: the raw Nsight Compute page is left out, with a line")
            report = "reduce-%s-report.md" % stamp
            self.assertTrue([n for n in names if n.endswith("-report.md")] == [report],
                            "refresh: the --report run's report, and no other: %s" % names)
            with open(os.path.join(new, report), encoding="utf-8") as f:
                text = f.read()
            self.assertTrue(text.startswith("# occsweep report: ") and "plots/plot --report "
                            "results/%s/reduce-%s.csv" % (gpu, stamp) in text,
                            "refresh: %s is report.py's page of results/%s/..." % (report, gpu))
            with open(os.path.join(new, "README.md"), encoding="utf-8") as f:
                page = f.read()
            for line in ("- report: [%s](%s)" % (report, report),
                         "- command: `%s`" % SESSION_EXTRAS[0][2], "- Nsight Compute 2025.3.1.0:"):
                self.assertTrue(line in page, "refresh: the set's page says '%s'" % line)
            self.test_size(os.path.join(tree, "results"))
            r = run(GEN, "--check", new)
            self.assertTrue(r.returncode == 0,
                            "refresh: the page agrees with the new set: %s" % r.stdout.strip())
            with open(os.path.join(tree, "README.md"), encoding="utf-8") as f:
                readme = f.read()
            self.assertTrue("results/%s/" % gpu in readme and "-2026" not in
                            " ".join(re.findall(r"results/%s/\S*" % re.escape(gpu), readme)),
                            "refresh: README.md's embedded figure follows the new set")
            self.test_links(tree)

CHECKS = ("readme", "size", "revision", "links", "refresh")

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in CHECKS:
        print("usage: test_results.py SRCDIR %s" % "|".join(CHECKS), file=sys.stderr)
        sys.exit(2)
    if sys.argv[2] == "refresh" and shutil.which(os.environ.get("GNUPLOT", "gnuplot")) is None:
        print("SKIP: no gnuplot (plots/plot draws the embedded figures)")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as view_tmp:
        RESULTS = reference_view(ROOT, view_tmp)
        result = unittest.main(argv=[sys.argv[0], "Results.test_" + sys.argv[2]], exit=False)
    sys.exit(0 if result.result.wasSuccessful() else 1)
