#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/build/test_docs_commands.py SRCDIR OCCSWEEP OCCFLEET: every command README.md and docs/*.md
show runs as shown, without a GPU.

A command is a line of a code block (indented or fenced; a line ending in a backslash goes on
with the next), or a whole code span of the prose, that starts (after NAME=value settings) with
./run_sweep, run_sweep, occsweep, build/bench/occsweep, build/bench/occfleet, plots/plot,
plots/report.py, python3 plots/NAME.py or bench/slurm/submit; a trailing "# comment" is not part
of it.

  blocks  every command of a code block is run and must exit 0, unless the block follows a line
          <!-- not run: REASON --> (invisible in the rendered page: for a command that needs a
          GPU, Slurm or the user's own files), or <!-- exits N: REASON --> (it must exit N: a
          regression check that finds one). A command that cannot run here and is not marked
          fails, so a block is marked on purpose, never by default.
  spans   a code span is run when it needs no GPU (--dry-run, --calc, --recompute, --list,
          --help, --version, plots/..., occfleet), is a whole command (one of those options but
          --recompute, or a CSV named) and holds no placeholder (an upper-case word such as FILE,
          DIR or N, <...>, or "..."); the others are prose mentions, listed as not run with the
          reason.

Each runs with bash in a scratch copy of the tree (the files git lists), with the program names
replaced by OCCSWEEP and OCCFLEET (run_sweep builds and runs that same binary) and /tmp/ by a
scratch directory; it must end within 300 s. Without gnuplot the plots/plot commands are not
run (one line says so). Prints one line per command (ok, FAIL or not run, and why) and
"N run, M failed, K not run"; exit 0 when none failed."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_docs  # noqa: E402

PROGRAMS = re.compile(r"^((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)(\./run_sweep|run_sweep|occsweep|"
                      r"build/bench/occsweep|build/bench/occfleet|plots/plot|plots/report\.py|"
                      r"python3 plots/\w+\.py|bench/slurm/submit)(\s|$)")
MARKER = re.compile(r"^\s*<!--\s*(not run|exits (\d+)):\s*(.+?)\s*-->\s*$")
GPU_FREE = re.compile(r"(?<![\w-])--(dry-run|calc|recompute|list|help|version|help-man)\b")
# A span is a whole command with one of these options, or a CSV to read.
WHOLE = re.compile(r"(?<![\w-])--(dry-run|calc|list|help|version|help-man)\b")
CSV_OPERAND = re.compile(r"\S\.csv\b")
PLACEHOLDER = re.compile(r"(?<![\w./-])[A-Z][A-Z0-9_]*(\.[a-z]+)?(?![\w=-])|<[^>]*>|\.\.\.")
TIMEOUT_S = 300


def strip_comment(cmd):
    """cmd without a trailing shell comment (a # after a blank, outside quotes)."""
    quote = None
    for i, c in enumerate(cmd):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or cmd[i - 1].isspace()):
            return cmd[:i].rstrip()
    return cmd.rstrip()


def block_marker(line):
    """(reason not to run or None, expected exit status) of the marker line before a block."""
    m = MARKER.match(line)
    if m is None:
        return None, 0
    return (m.group(3), 0) if m.group(1) == "not run" else (None, int(m.group(2)))


def block_commands(text):
    """(command, reason not to run or None, expected exit status) of every command line of
    text's code blocks."""
    out, lines = [], text.split("\n")
    fenced = in_block = False
    prev_blank, marker, last_prose = True, (None, 0), ""
    pending = ""
    for line in lines:
        starts_fence = line.lstrip().startswith("```")
        if starts_fence:
            if not fenced:
                marker = block_marker(last_prose)
            fenced = not fenced
            continue
        code = fenced or (line.startswith("    ") and (prev_blank or in_block))
        if code and not fenced and not in_block:
            marker = block_marker(last_prose)
        if code:
            in_block = not fenced
            text_line = pending + line.strip()
            if text_line.endswith("\\"):
                pending = text_line[:-1] + " "
            else:
                pending = ""
                cmd = strip_comment(text_line)
                if PROGRAMS.match(cmd):
                    out.append((cmd,) + marker)
        else:
            in_block = in_block and line.strip() == ""
            if line.strip():
                last_prose = line
        prev_blank = line.strip() == ""
    return out


def span_commands(text):
    _, prose = test_docs.split_code(text)
    return [s for s in test_docs.code_spans(prose) if PROGRAMS.match(s)]


def span_reason(cmd):
    """Why a code span is not run, or None to run it."""
    program = PROGRAMS.match(cmd).group(2)
    if PLACEHOLDER.search(PROGRAMS.sub("", cmd, count=1)):
        return "a template (placeholder)"
    if program == "bench/slurm/submit":
        return "needs Slurm"
    if "occsweep" in program or "run_sweep" in program:  # the others need no GPU
        if not GPU_FREE.search(cmd):
            return "needs a GPU"
    if not (WHOLE.search(cmd) or CSV_OPERAND.search(cmd)):
        return "names the program or an option, not a whole command"
    return None


def scratch_tree(root, dest):
    for rel in test_docs.tree_files(root):
        src = os.path.join(root, rel)
        if not os.path.isfile(src):
            continue
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, rel))


def shell_form(cmd, occsweep, occfleet, scratch):
    """cmd with the program names and /tmp/ replaced (see the module's text)."""
    m = PROGRAMS.match(cmd)
    program = {"./run_sweep": occsweep, "run_sweep": occsweep, "occsweep": occsweep,
               "build/bench/occsweep": occsweep, "build/bench/occfleet": occfleet}.get(
                   m.group(2), m.group(2))
    # /tmp/ of the docs' own text only: the program's path may lie under /tmp (a clone there).
    return (m.group(1).replace("/tmp/", scratch + "/") + program +
            cmd[m.end(2):].replace("/tmp/", scratch + "/"))


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 99
    root, occsweep, occfleet = (os.path.abspath(a) for a in sys.argv[1:])
    work = tempfile.mkdtemp(prefix="occdocs.")
    tree, scratch = os.path.join(work, "tree"), os.path.join(work, "tmp")
    os.makedirs(scratch)
    gnuplot = shutil.which(os.environ.get("GNUPLOT", "gnuplot")) is not None
    counts = {"run": 0, "failed": 0, "not run": 0}
    try:
        scratch_tree(root, tree)
        for path in test_docs.doc_files(root):
            name = os.path.relpath(path, root)
            text = test_docs.read(path)
            todo = [(c, r, x, "block") for c, r, x in block_commands(text)]
            todo += [(c, span_reason(c), 0, "span") for c in span_commands(text)]
            for cmd, reason, want_rc, kind in todo:
                if reason is None and not gnuplot and cmd.startswith("plots/plot"):
                    reason = "no gnuplot here"
                if reason is not None:
                    counts["not run"] += 1
                    print("not run (%s, %s): %s: %s" % (kind, reason, name, cmd))
                    continue
                counts["run"] += 1
                try:
                    p = subprocess.run(["bash", "-c", shell_form(cmd, occsweep, occfleet,
                                                                 scratch)],
                                       cwd=tree, capture_output=True, text=True,
                                       timeout=TIMEOUT_S, env={**os.environ, "LC_ALL": "C"})
                    rc, why = p.returncode, (p.stderr.strip() or p.stdout.strip())
                except subprocess.TimeoutExpired:
                    rc, why = -1, "no exit within %d s" % TIMEOUT_S
                if rc == want_rc:
                    print("ok: %s: %s" % (name, cmd))
                else:
                    counts["failed"] += 1
                    last = why.splitlines()[-1] if why else ""
                    print("FAIL: %s: %s: exit %d, not %d: %s" % (name, cmd, rc, want_rc, last))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%d run, %d failed, %d not run" % (counts["run"], counts["failed"], counts["not run"]))
    return 1 if counts["failed"] or counts["run"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
