# SPDX-License-Identifier: Apache-2.0
"""plots/figout.py: how plots/csvsel.py writes what it selected: the figure data gnuplot reads,
the numbers as text, the curve labels and the error line.

write_points() writes tab-separated blocks for gnuplot's `index`: one block per file and
distinct tuple of curve (by) values, sorted by those and then by x; each block starts with its
header line and two blank lines separate blocks. Columns: set_idx (file number, 1-based), label
(labels_of(): the file's gpu_name; where names repeat, plus its pci_bus_id, then its host, then
its base name), each by column, <col>_rank (1-based rank of its value among all points
written), x (as the point's first row writes it), y (the median over the point's rows), the
normalising metadata value when there is one, the kept columns (numbers: their median over the
point's rows that hold one, else NaN), the columns a figure derives (figspec.DERIVED).

Medians are the lower median of an even count, so each is a value the CSV holds; numbers are
written as the C writer writes them (%.10g) where that reads back as the value, else as the
shortest text that does (so the CSV's own text where the C writer wrote it), x as the CSV wrote
it (leading blanks dropped). Text fields have tabs, CR and LF replaced by spaces, as the output
is one line per row. Errors: one line "plots: FILE:LINE: what" (or "plots: FILE: what") on
stderr, exit 2.
"""
import collections
import os
import sys

import figspec
from figlist import clean, sort_key
from occcsv import is_num


def fail(msg):
    print("plots: %s" % msg, file=sys.stderr)
    sys.exit(2)


def number_text(v):
    """v as the C writer writes it (%.10g) where that reads back as v, else the shortest text
    that does."""
    text = "%.10g" % v
    return text if float(text) == v else repr(v)


def write_points(out, spec, sets, norm=None, extra=()):
    """Writes sets [(set_idx, label, norm text, entries)] as tab-separated blocks (see the
    module's text); entries [(by values, keep texts, figdata.Point)] as csvsel.entries() gives
    them, sorted here; extra: the names of columns after the kept ones, whose texts end each
    entry's keep texts (figspec.DERIVED)."""
    distinct = [set() for _ in spec.by]
    for _, _, _, ents in sets:
        for by_vals, _, _ in ents:
            for k, v in enumerate(by_vals):
                distinct[k].add(v)
    ranks = [{v: str(i + 1) for i, v in enumerate(sorted(d, key=sort_key))} for d in distinct]
    head = "\t".join(["set_idx", "label"] + list(spec.by) + [c + "_rank" for c in spec.by] +
                     [spec.x, spec.y] + ([norm] if norm else []) + list(spec.keep) +
                     list(extra)) + "\n"
    first = True
    for set_idx, label, norm_text, ents in sets:
        ents.sort(key=lambda e: ([sort_key(v) for v in e[0]], e[2].x, e[1]))
        prev = None
        for by_vals, keep, p in ents:
            if by_vals != prev:
                out.write(head if first else "\n\n" + head)
                first, prev = False, by_vals
            out.write("\t".join([str(set_idx), label] + [clean(v) for v in by_vals] +
                                [ranks[k][v] for k, v in enumerate(by_vals)] +
                                [p.x_text, number_text(p.y.result())] +
                                ([norm_text] if norm else []) + [clean(v) for v in keep]) + "\n")


def norm_of(run, key):
    """The text of the run's metadata key, a positive number, for the normalising column."""
    text = run.meta.get(key) or ""
    v = figspec.value(text) if is_num(text) else None
    if v is None or v <= 0:
        fail("%s: metadata %s is missing or not a positive number; cannot normalise"
             % (run.path, key))
    return text.lstrip(figspec.BLANKS)


def open_out(path):
    try:
        return open(path, "w", encoding="utf-8", errors="surrogateescape")
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))


def labels_of(runs):
    """Each file's curve label: its gpu_name; where names repeat (GPUs of one model, the per-GPU
    CSVs of a fleet run) the file's pci_bus_id is added, then its host, and where even those
    repeat (or are missing) its base name."""
    labels = [clean(r.meta.get("gpu_name") or r.path) for r in runs]
    for key in ("pci_bus_id", "host"):
        count = collections.Counter(labels)
        for i, r in enumerate(runs):
            if count[labels[i]] > 1 and r.meta.get(key):
                labels[i] += " %s" % clean(r.meta[key])
    count = collections.Counter(labels)
    for i, r in enumerate(runs):
        if count[labels[i]] > 1:
            base = os.path.basename(r.path)
            labels[i] += " (%s)" % (base[:-4] if base.endswith(".csv") else base)
    return labels
