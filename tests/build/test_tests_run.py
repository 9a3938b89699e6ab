#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/build/test_tests_run.py SRCDIR: tests/ holds only what meson runs.

A file under tests/ is run when a meson.build of tests/ names it (a test's program or source, a
fixture library's source; the names a foreach builds, such as 'test_' + t + '.c', are expanded),
or when the code of a file that is run names it: a shell script sources it or runs it, a Python
test imports it or joins its name into a path, a C test includes it or opens it. Comments and
docstrings do not count. A data file (not code) is also run when its folder is named in such
code (tests/fixtures: every fixture is read). What is left (a GPU runbook, an analysis script
nothing runs) belongs in tools/; each is named with a FAIL line. Exit 0 when none is left."""
import ast
import io
import os
import re
import sys
import tokenize

sys.dont_write_bytecode = True

CODE = (".c", ".h", ".cu", ".cuh", ".py", ".sh")
# Files meson does not run that belong in tests/ all the same, each with the reason. Every other
# helper (cli_lib.sh, check.h, svgfig.py, fixtures/, data/, ...) is reached from a
# test by the rules above.
HELPERS = {
    "README.md": "the folders and suites, for a reader",
    "fixtures/.gitattributes": "git keeps the fixtures' bytes as written (CRLF line ends included)",
}


def strip_c(text):
    """C/CUDA text without its comments; string literals kept."""
    pat = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', re.S)
    return pat.sub(lambda m: m.group(0) if m.group(0)[0] in "\"'" else " ", text)


def strip_hash(text):
    """Shell or meson text without its # comments (a # that starts a word, outside quotes)."""
    out = []
    for line in text.splitlines():
        quote, keep = None, len(line)
        for i, ch in enumerate(line):
            if quote:
                if ch == quote and line[i - 1] != "\\":
                    quote = None
            elif ch in "'\"":
                quote = ch
            elif ch == "#" and (i == 0 or line[i - 1] in " \t;(") and line[i + 1:i + 2] != "!":
                keep = i
                break
        out.append(line[:keep])
    return "\n".join(out)


def strip_py(text):
    """Python text without comments and docstrings: its imports and its other tokens."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    docs = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            docs.add((body[0].lineno, body[0].col_offset))
    words = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and tok.start in docs):
            continue
        words.append(tok.string)
    return " ".join(words)


def code_of(path):
    """The text of a file that can name others, comments left out; None for data."""
    name = os.path.basename(path)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    if name.endswith((".c", ".h", ".cu", ".cuh")):
        return strip_c(text)
    if name.endswith(".py"):
        return strip_py(text)
    if name.endswith(".sh") or name == "meson.build":
        return strip_hash(text)
    return None


def literals(meson_text):
    """The string literals of a meson.build, with the names its foreach loops build expanded, and
    the folders its subdir() calls enter."""
    text = strip_hash(meson_text)
    subdirs = re.findall(r"\bsubdir\(\s*'([^'\n]+)'\s*\)", text)
    found = set(re.findall(r"'([^'\n]*)'", text))
    for m in re.finditer(r"\bforeach\s+(\w+)\s*:\s*\[", text):
        var, depth, i = m.group(1), 1, m.end()
        while depth and i < len(text):
            depth += {"[": 1, "]": -1}.get(text[i], 0)
            i += 1
        items = re.findall(r"'([^'\n]*)'", text[m.end():i - 1])
        end = text.find("endforeach", i)
        body = text[i:end if end >= 0 else len(text)]
        expr = r"(?:'([^'\n]*)'\s*\+\s*)?\b%s\b(?:\s*\+\s*'([^'\n]*)')?" % re.escape(var)
        for pre, post in re.findall(expr, body):
            found.update(pre + item + post for item in items)
    return found, subdirs


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test_tests_run.py SRCDIR")
    tests = os.path.join(os.path.abspath(sys.argv[1]), "tests")
    files = []
    for d, dirs, names in os.walk(tests):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        files += [os.path.relpath(os.path.join(d, n), tests) for n in sorted(names)]
    why = {}  # file (relative to tests/) -> how meson reaches it

    # Named by a meson.build of tests/ (and the folders its subdir() calls enter).
    why["meson.build"] = "meson reads it"
    builds = ["meson.build"]
    while builds:
        b = builds.pop()
        here = os.path.dirname(b)
        with open(os.path.join(tests, b), encoding="utf-8") as f:
            names, subdirs = literals(f.read())
        for d in subdirs:
            sub = os.path.normpath(os.path.join(here, d, "meson.build"))
            if sub in files and sub not in why:
                why[sub] = "subdir() of tests/" + b
                builds.append(sub)
        for lit in names:
            rel = os.path.normpath(os.path.join(here, lit))
            if rel in files and rel not in why:
                why[rel] = "named in tests/" + b

    # Named by the code of a file that is run, until nothing new is reached (this test's own
    # names, HELPERS among them, do not count).
    todo = list(why)
    while todo:
        src = todo.pop()
        if src == os.path.basename(__file__):
            continue
        code = code_of(os.path.join(tests, src))
        if code is None:
            continue
        for f in files:
            if f in why:
                continue
            base, stem = os.path.basename(f), os.path.splitext(os.path.basename(f))[0]
            hit = re.search(r"(?<![\w.-])%s(?![\w-])" % re.escape(base), code)
            if not hit and f.endswith(".py"):
                hit = re.search(r"\b(?:import|from)\s+%s\b" % re.escape(stem), code)
            folder = os.path.dirname(f)
            if not hit and folder and not f.endswith(CODE) and not base.startswith("."):
                hit = re.search(r"(?:tests/|[\"'])%s(?:[\"'/]|$)" % re.escape(folder), code, re.M)
            if hit:
                why[f] = "named by tests/" + src
                todo.append(f)

    left = [f for f in files if f not in why and f not in HELPERS]
    left += [f for f in HELPERS if f not in files]
    for f in HELPERS:
        if f not in files:
            print("FAIL: tests/%s: listed in HELPERS of %s but not there" % (f, sys.argv[0]))
    for f in left:
        if f not in files:
            continue
        print("FAIL: tests/%s: meson does not run it (not named in a meson.build of tests/, nor by "
              "the code of a test that is run): move it to tools/ or register it" % f)
    if os.environ.get("OCC_VERBOSE"):
        for f in sorted(why):
            print("run: tests/%s (%s)" % (f, why[f]))
    print("%d files under tests/: %d run by meson, %d helpers (%s), %d not run"
          % (len(files), len(why), len([f for f in HELPERS if f in files]), ", ".join(sorted(HELPERS)), len(left)))
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
