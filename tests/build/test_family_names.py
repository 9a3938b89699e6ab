#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/build/test_family_names.py OCCSWEEP: no source outside a family's own files names it.

A family (a line of kernels/families.def) owns its descriptor kernels/families/<name>.h, its
kernels kernels/<name>*.cu and its host files harness/families/family_<name>*.c/.h (the chase
family's experiments among them: family_ladder.c, family_loaded.c, kernels/loaded.cu). Every
other C or Python source under harness/, bench/, plots/, kernels/ and tools/ asks the catalog
(the descriptor's fields) instead of testing a family's name: none of its string literals is

  - a family's kernel name ("mma", "smem", ...),
  - a catalog entry id or CSV variant name of the family ("chase_warp", "mma_f16_u4", as
    `OCCSWEEP --list` prints them and the descriptors' mode entries spell them),
  - a name prefix of the family's variants ("smem_", "mma_f16_").

Prose that mentions a family inside a longer message ("GFLOP/s (fma, mma)") is no such literal.
Neither is a word that means something else in its place: a figure of plots/ (a literal that
names a gnuplot script plots/<literal>.gp, in the Python of plots/ and tools/), and the few words
of OTHER_MEANING below. Files of any family are skipped: a descriptor's modes are words too.
Exits 1 listing every offending literal as path:line: "literal" (family <name>)."""
import io
import os
import re
import subprocess
import sys
import tokenize

ROOT = os.environ.get('OCC_SOURCE_ROOT') or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SCANNED = ('harness', 'bench', 'plots', 'kernels', 'tools')
C_EXT = ('.c', '.h', '.cu', '.cuh')
# The chase family's experiments live beside its throughput kernels: its own files too.
EXTRA_OWN = {'chase': ('kernels/loaded.cu', 'harness/families/family_ladder.c',
                       'harness/families/family_ladder.h', 'harness/families/family_loaded.c'),
             'smem': ('kernels/smem_mma.h', 'kernels/smem_mma_forms.h'),
             'mma': ('kernels/smem_mma.h', 'kernels/smem_mma_forms.h')}

# (path, literal): the same word in another meaning, with what it names there.
OTHER_MEANING = {
    ('harness/cli/options_table.c', 'smem'): 'the --calc option --smem (shared memory per block)',
    ('harness/core/occupancy.c', 'smem'): 'the occupancy limiter (CSV limiter: shared memory)',
    ('harness/model/loaded_levels.c', 'copy'): 'the load levels\' traffic (CSV traffic)',
    ('plots/csvsel.py', 'copy'): 'the load levels\' traffic (CSV traffic)',
}


def families():
    """{kernel name: set of names it owns (ids, variants, prefixes)} from the registry."""
    text = open(os.path.join(ROOT, 'kernels', 'families.def')).read()
    out = {}
    for name in re.findall(r'^#include "families/(\w+)\.h"', text, re.M):
        desc = open(os.path.join(ROOT, 'kernels', 'families', name + '.h')).read()
        kernels = set(re.findall(r'\.kernel = "(\w+)"', desc))
        ids = set(re.findall(r'^\s*M\((\w+),', desc, re.M))
        for k in kernels:
            out.setdefault(k, {'files': name, 'names': {k}})['names'].update(
                i for i in ids if i.startswith(k + '_'))
    return out


def add_variants(fams, occsweep):
    """Adds each variant `occsweep --list` prints to the family its name starts with."""
    listed = subprocess.run([occsweep, '--list'], capture_output=True, text=True, check=True)
    for line in listed.stdout.split():
        for k, f in fams.items():
            if line.startswith(k + '_'):
                f['names'].add(line)
                # every proper prefix ending in '_' that still names the family
                parts = line.split('_')
                for i in range(1, len(parts)):
                    f['names'].add('_'.join(parts[:i]) + '_')


def own(path, fam, files):
    """1 when path (relative to ROOT) is one of family fam's own files."""
    base = os.path.basename(path)
    return (path == 'kernels/families/%s.h' % files or
            (path.startswith('kernels/') and base.startswith(files) and
             base.endswith('.cu')) or
            (path.startswith('harness/families/') and base.startswith('family_' + files)) or
            path in EXTRA_OWN.get(fam, ()))


C_TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def c_literals(text):
    """(line, content) of every string literal of C source text (comments skipped)."""
    for m in C_TOKEN.finditer(text):
        tok = m.group(0)
        if tok.startswith('"'):
            yield text.count('\n', 0, m.start()) + 1, tok[1:-1]


def py_literals(text):
    """(line, content) of every string literal of Python source text (f-string parts too)."""
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type != tokenize.STRING:
            continue
        m = re.match(r'(?is)^([rbuf]*)("""|\'\'\'|"|\')(.*)\2$', tok.string)
        if m:
            yield tok.start[0], m.group(3)


def sources():
    for top in SCANNED:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
            for f in sorted(filenames):
                if f.endswith(C_EXT + ('.py',)):
                    path = os.path.join(dirpath, f)
                    yield os.path.relpath(path, ROOT), path


def figure(rel, lit):
    """1 when lit, in a Python file of plots/ or tools/, names a figure (plots/<lit>.gp)."""
    return (rel.endswith('.py') and rel.startswith(('plots/', 'tools/')) and
            os.path.isfile(os.path.join(ROOT, 'plots', lit + '.gp')))


def offences(fams):
    out = []
    for rel, path in sources():
        if any(own(rel, k, f['files']) for k, f in fams.items()):
            continue
        text = open(path, encoding='utf-8').read()
        lits = py_literals(text) if rel.endswith('.py') else c_literals(text)
        for line, lit in lits:
            for k, f in fams.items():
                if (lit in f['names'] and (rel, lit) not in OTHER_MEANING and
                        not figure(rel, lit)):
                    out.append('%s:%d: "%s" (family %s)' % (rel, line, lit, k))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: test_family_names.py PATH/TO/occsweep')
    fams = families()
    if not fams:
        sys.exit('FAILED: no family read from kernels/families.def')
    add_variants(fams, sys.argv[1])
    bad = offences(fams)
    for b in bad:
        print('FAILED: ' + b)
    print('%d families, %d literals naming a family outside its own files'
          % (len(fams), len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
