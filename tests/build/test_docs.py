#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/build/test_docs.py SRCDIR OCCSWEEP: the user documentation against tree and program.

  size     README.md has at most 200 lines
  options  every option README.md and docs/*.md name is one of the option table (the names
           `OCCSWEEP --help` prints): a code span that starts with --name, and every --name of a
           code span or code-block line that starts with run_sweep, ./run_sweep, occsweep or
           build*/bench/occsweep (spans of other commands, like plots/plot or ncu, are theirs)
  links    every relative link and image of README.md and docs/*.md names a file of the tree,
           and a #anchor into a markdown file names one of its headings
  schedule the text of --schedule static in --help, in the man page (--help-man) and in
           docs/usage.md is one phrase, and says "contiguous" (each block does one contiguous
           share of the buffer)
  outside  no file of the tree cites documents outside it (the names are spelled in pieces
           below so that this file does not match itself)
  revision README.md holds no git revision (7 to 40 hex digits, a letter and a digit among them)

Standard library only. Prints one line per failed check and "N checks, M failed"; exits 0 when
every check passed, else 1."""
import os
import re
import subprocess
import sys

MAX_README_LINES = 200
OUTSIDE = ("DOMAIN" + ".md", "STYLE" + ".md", ".." + "/shared")
COMMANDS = re.compile(r"^(?:\S*/)?(?:run_sweep|occsweep)\b")
OPTION = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*)")
REVISION = re.compile(r"\b[0-9a-f]{7,40}\b")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")

failures = []
checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def doc_files(root):
    docs = os.path.join(root, "docs")
    names = sorted(n for n in os.listdir(docs) if n.endswith(".md")) if os.path.isdir(docs) else []
    return [os.path.join(root, "README.md")] + [os.path.join(docs, n) for n in names]


def split_code(text):
    """(code-block lines, prose) of a markdown text: fenced blocks, and indented blocks (lines
    of 4 spaces or more after a blank line or another such line), are code; code lines are blank
    in the prose, so that line numbers and paragraphs stay."""
    code, prose = [], []
    fenced = in_block = False
    prev_blank = True
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            prose.append("")
        elif fenced or (line.startswith("    ") and (prev_blank or in_block)):
            in_block = not fenced
            code.append(line.strip())
            prose.append("")
        else:
            in_block = in_block and line.strip() == ""
            prose.append(line)
        prev_blank = line.strip() == ""
    return code, "\n".join(prose)


def code_spans(prose):
    """The code spans of prose, whitespace folded (a span may run over a line break)."""
    return [" ".join(m.group(1).split()) for m in re.finditer(r"`([^`]+)`", prose)]


def named_options(text):
    """{option name: where} of the options a markdown text names (see the module's rule)."""
    code, prose = split_code(text)
    found = {}
    for span in code_spans(prose):
        if span.startswith("--") or COMMANDS.match(span):
            for m in OPTION.finditer(span):
                found.setdefault(m.group(1), "`%s`" % span)
    for line in code:
        if COMMANDS.match(line):
            for m in OPTION.finditer(line):
                found.setdefault(m.group(1), line)
    return found


def help_options(helptext):
    return set(re.findall(r"^\s+(?:-\w, )?--([a-z][a-z0-9-]*)", helptext, re.M))


def slug(heading):
    """A heading's anchor, as GitHub makes it."""
    s = heading.strip().lower().replace("`", "")
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    _, prose = split_code(read(path))
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*?)\s*#*$", prose, re.M)}


def check_links(root, path):
    _, prose = split_code(read(path))
    prose = re.sub(r"`[^`]*`", "", prose)
    here = os.path.dirname(path)
    name = os.path.relpath(path, root)
    for m in LINK.finditer(prose):
        target = m.group(1)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue
        file_part, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(here, file_part)) if file_part else path
        inside = os.path.commonpath([os.path.abspath(root), os.path.abspath(dest)]) == \
            os.path.abspath(root)
        check(inside and os.path.exists(dest), "%s: link %s: no such file in the tree" %
              (name, target))
        if anchor and inside and dest.endswith(".md") and os.path.isfile(dest):
            check(anchor in anchors(dest), "%s: link %s: no heading with that anchor" %
                  (name, target))


def schedule_phrase(text):
    """The 'static (...)' phrase of a text, whitespace folded; None when it has none."""
    flat = " ".join(text.split())
    m = re.search(r"static \(([^()]*)\)", flat)
    return m.group(1) if m else None


def option_block(helptext, name):
    """The lines of one option in --help: its head and the indented lines that follow."""
    out, inside = [], False
    for line in helptext.split("\n"):
        if re.match(r"^\s{2}-", line):
            inside = re.match(r"^\s+(?:-\w, )?--%s\b" % re.escape(name), line) is not None
        elif not line.startswith("      "):
            inside = False
        if inside:
            out.append(line)
    return "\n".join(out)


def man_entry(man, name):
    """The text of one option's .TP entry in the man page, roff escapes undone."""
    text = man.replace("\\-", "-").replace("\\e", "\\").replace("\\&", "")
    m = re.search(r"^\.B --%s\b.*?\n(.*?)(?=^\.TP|^\.SH|\Z)" % re.escape(name), text, re.M | re.S)
    return m.group(1).replace(".br\n", " ") if m else ""


def tree_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard"],
                             capture_output=True, text=True, check=True).stdout
        return [f for f in out.split("\n") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(root):
            # Build directories at the root (build, build-90, ...); tests/build is sources.
            dirs[:] = [x for x in dirs if x != ".git" and not (d == root and x.startswith("build"))]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return files


def text_of(path):
    try:
        with open(path, "rb") as f:
            data = f.read(4 << 20)
    except OSError:
        return None
    return None if b"\0" in data[:8192] else data.decode("utf-8", "replace")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 99
    root, binary = sys.argv[1], sys.argv[2]
    readme = os.path.join(root, "README.md")
    helptext = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
    man = subprocess.run([binary, "--help-man"], capture_output=True, text=True).stdout
    table = help_options(helptext)
    check(len(table) > 20, "--help lists the options (%d found)" % len(table))

    n = read(readme).count("\n")
    check(n <= MAX_README_LINES, "README.md has %d lines, more than %d" % (n, MAX_README_LINES))

    for path in doc_files(root):
        name = os.path.relpath(path, root)
        for opt, where in sorted(named_options(read(path)).items()):
            check(opt in table, "%s: --%s is no option of the option table (in %s)" %
                  (name, opt, where))
        check_links(root, path)

    usage = os.path.join(root, "docs", "usage.md")
    helped = schedule_phrase(option_block(helptext, "schedule"))
    manned = schedule_phrase(man_entry(man, "schedule"))
    check(helped is not None and "contiguous" in helped,
          "--help: --schedule static does not say 'contiguous': %r" % helped)
    check(manned == helped,
          "the man page's --schedule static %r differs from --help's %r" % (manned, helped))
    usage_flat = " ".join(read(usage).split()) if os.path.exists(usage) else ""
    check(helped is not None and ("static (%s)" % helped) in usage_flat,
          "docs/usage.md does not give --schedule static as --help does: static (%s)" % helped)

    for rel in tree_files(root):
        text = text_of(os.path.join(root, rel))
        if text is None:
            continue
        for name in OUTSIDE:
            check(name not in text, "%s cites %s, which is outside the tree" % (rel, name))

    for m in REVISION.finditer(read(readme)):
        h = m.group(0)
        if re.search(r"[a-f]", h) and re.search(r"[0-9]", h):
            check(False, "README.md holds a revision-like hash %s" % h)

    print("%d checks, %d failed" % (checks, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
