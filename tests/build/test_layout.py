#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/build/test_layout.py SRCDIR: the source tree's shape outside tests/.

  size     no source module over 400 lines: the .c .h .cu .cuh .py .sh .gp files under harness/,
           bench/, kernels/, plots/, examples/, include/ and tools/, their extensionless scripts
           (a #! first line: plots/plot, bench/slurm/submit) and run_sweep, run_tests;
  circles  no include circle between C modules (a module is foo.c, foo.h, foo.cu and foo.cuh of
           one folder; A depends on B when a file of A has #include "..." of a file of B) and no
           import circle between Python modules of one folder (import of a sibling module);
  ranks    the C folders in one order (RANKS: a folder of harness/ is harness/<name>, elsewhere
           the top folder): a file includes only files of its own folder or of a folder ranked
           below it, every folder with C files has a rank, and no include circle between folders;
           harness/README.md's folder table lists the folders of harness/ in that order;
  harness  no .c directly under harness/ (its sources live in its folders), and no folder of
           harness/ (itself included) with more than 30 files.
Prints a FAIL line per finding and a summary; exit 0 when there is none."""
import ast
import os
import re
import sys

sys.dont_write_bytecode = True

MAX_LINES = 400
MAX_FILES = 30
# The C folders, lowest rank first: each includes only folders before it (harness/README.md).
RANKS = ("include", "kernels", "harness/core", "harness/csv", "harness/model", "harness/cli",
         "harness/plan", "harness/report", "harness/gpu", "harness/families", "bench",
         "examples")
DIRS = ("harness", "bench", "kernels", "plots", "examples", "include", "tools")
TOP = ("run_sweep", "run_tests")
EXTS = (".c", ".h", ".cu", ".cuh", ".py", ".sh", ".gp")
C_EXTS = (".c", ".h", ".cu", ".cuh")
failures = []


def fail(text):
    failures.append(text)
    print("FAIL: " + text)


def first_line(path):
    try:
        with open(path, "rb") as f:
            return f.readline().decode("utf-8", "replace")
    except OSError:
        return ""


def sources(root):
    """The source files of DIRS and TOP, relative to root, sorted."""
    out = [t for t in TOP if os.path.isfile(os.path.join(root, t))]
    for top in DIRS:
        for d, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if x != "__pycache__" and not x.startswith("."))
            for n in sorted(names):
                p = os.path.join(d, n)
                if n.endswith(EXTS) or ("." not in n and first_line(p).startswith("#!")):
                    out.append(os.path.relpath(p, root))
    return sorted(out)


def is_python(root, rel):
    return rel.endswith(".py") or ("." not in os.path.basename(rel) and
                                   "python" in first_line(os.path.join(root, rel)))


def check_size(root, files):
    for rel in files:
        with open(os.path.join(root, rel), "rb") as f:
            n = sum(1 for _ in f)
        if n > MAX_LINES:
            fail("%s: %d lines (at most %d a module: split it)" % (rel, n, MAX_LINES))


def c_graph(root, files):
    """Module -> the modules its files include (#include "..."), C and CUDA."""
    c_files = [f for f in files if f.endswith(C_EXTS)]
    by_path = set(c_files)
    graph = {}
    for rel in c_files:
        mod = os.path.splitext(rel)[0]
        graph.setdefault(mod, set())
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
            near = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
            if near in by_path:
                target = near
            else:
                found = [p for p in c_files if p == inc or p.endswith("/" + inc)]
                if not found:
                    continue  # a system, generated (build_info.h) or toolkit header
                same = [p for p in found if p.split("/")[0] == rel.split("/")[0]]
                target = (same or found)[0]
            dep = os.path.splitext(target)[0]
            if dep != mod:
                graph[mod].add(dep)
    return graph


def py_graph(root, files):
    """Python module -> the sibling modules it imports (same folder)."""
    graph = {}
    for rel in files:
        if not is_python(root, rel):
            continue
        d = os.path.dirname(rel)
        mod = os.path.splitext(rel)[0]
        graph.setdefault(mod, set())
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        try:
            tree = ast.parse(text, rel)
        except SyntaxError as e:
            fail("%s: does not parse as Python (%s)" % (rel, e.msg))
            continue
        names = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names += [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.module:
                    names.append(node.module.split(".")[0])
                if node.level:
                    names += [a.name for a in node.names]
        for name in names:
            sib = os.path.join(d, name)
            if sib != mod and (os.path.isfile(os.path.join(root, sib + ".py")) or
                               os.path.isfile(os.path.join(root, sib, "__init__.py"))):
                graph[mod].add(sib)
    return graph


def circles(graph):
    """The strongly connected components of more than one module (Tarjan), each as a cycle."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(cycle_in(graph, set(comp)))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def cycle_in(graph, comp):
    """One cycle through the component's first module: a path back to it, breadth first."""
    start = min(comp)
    prev, todo = {start: None}, [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph.get(v, ())):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in comp and w not in prev:
                prev[w] = v
                todo.append(w)
    return sorted(comp)


def folder_of(mod):
    """The folder a module ranks by: harness/<name> under harness/, else its top folder."""
    parts = mod.split("/")
    return "/".join(parts[:2]) if parts[0] == "harness" and len(parts) > 2 else parts[0]


def check_ranks(root, cg):
    """Every C folder ranked, every include downward (or within the folder), no folder circle;
    harness/README.md's table in rank order. Returns the folder graph."""
    folders = {}
    for mod, deps in cg.items():
        a = folder_of(mod)
        folders.setdefault(a, set())
        for dep in sorted(deps):
            b = folder_of(dep)
            if b == a:
                continue
            folders[a].add(b)
            if a in RANKS and b in RANKS and RANKS.index(b) > RANKS.index(a):
                fail("%s includes %s: %s/ may include only the folders ranked below it (%s), "
                     "not %s/" % (mod, dep, a, ", ".join(RANKS[:RANKS.index(a)]), b))
    for f in sorted(folders):
        if f not in RANKS:
            fail("%s/: a folder of C files with no rank (add it to RANKS in "
                 "tests/build/test_layout.py and to harness/README.md)" % f)
    for cyc in circles(folders):
        fail("folder include circle: %s" % " -> ".join(cyc))
    readme = os.path.join(root, "harness", "README.md")
    if os.path.isfile(readme):
        with open(readme, encoding="utf-8") as f:
            table = re.findall(r"^\|(?: \d+ \|)? `([a-z_]+)/` \|", f.read(), re.M)
            listed = ["harness/" + n for n in table]
        want = [r for r in RANKS if r.startswith("harness/")]
        if listed != want:
            fail("harness/README.md: its folder table lists %s; the ranks are %s" %
                 (", ".join(listed) or "none", ", ".join(want)))
    return folders


def check_harness(root):
    h = os.path.join(root, "harness")
    if not os.path.isdir(h):
        return
    for n in sorted(os.listdir(h)):
        if n.endswith(".c") and os.path.isfile(os.path.join(h, n)):
            fail("harness/%s: a source directly under harness/ (put it in its folder)" % n)
    for d, dirs, names in os.walk(h):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        if len(names) > MAX_FILES:
            fail("%s/: %d files (at most %d a folder)" % (os.path.relpath(d, root), len(names),
                                                         MAX_FILES))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test_layout.py SRCDIR")
    root = os.path.abspath(sys.argv[1])
    files = sources(root)
    check_size(root, files)
    cg, pg = c_graph(root, files), py_graph(root, files)
    for kind, graph in (("include", cg), ("import", pg)):
        for cyc in circles(graph):
            fail("%s circle: %s" % (kind, " -> ".join(cyc)))
    folders = check_ranks(root, cg)
    check_harness(root)
    print("%d source files, %d C modules (%d includes) in %d folders (%d folder "
          "includes), %d Python modules (%d imports): %d findings" %
          (len(files), len(cg), sum(map(len, cg.values())), len(folders),
           sum(map(len, folders.values())), len(pg), sum(map(len, pg.values())), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
