"""plots/csvsel.py: the plots' pre-filter: reads occsweep CSVs with plots/occcsv.py (what
occ_csv_read accepts, nothing else), says which figures a file's rows call for, and selects the
rows of one figure for gnuplot. Only rows with status "ok" are used, and of those not a row that
holds a finite value beyond 1e15 in a column a figure draws (ABSURD, DRAWN below): check names
each such row on stderr ("plots: FILE:LINE: COLUMN 'TEXT' is beyond 1e+15: row left out of the
figures"), select leaves it out silently. Files are read as a stream: memory does not grow with
their size (select sorts runs of CHUNK_ROWS rows in temporary files and merges them).

    python3 plots/csvsel.py check FILE
        Prints, tab-separated:
          meta KEY VALUE                                        one per metadata key (last wins)
          fig TYPE KERNEL MODE LEVER WHERE SUFFIX FACTOR DESC   one per figure the ok rows call for
        The ok rows are grouped by (kernel, mode); what a group holds decides its figures:
        finite cycles_per_hop_median: a latency ladder (TYPE ladder); else finite
        hops_per_s_median: a chase throughput figure (chase); else finite gflops_median: the
        arithmetic figures, GFLOP/s against occupancy per FMAs-per-float A (flops-fmas) and the
        intensity figure (intensity) when the rows have GB/s too, else GFLOP/s per chain count
        U (flops), one figure per vec_bytes (the element size); else the Volkov figures
        (occupancy and inflight). WHERE is the row filter to pass back to task select; LEVER the
        lever it keeps, or * for all; SUFFIX the part of the output name after "<csvbase>-";
        FACTOR the figure's dram_bytes_per_load_byte as the CSV writes it, when its ok rows agree
        on one positive number, else "-". Names:
          occupancy-K[-M], inflight-K[-M], K[-M]   for kernel K and mode M: the mode part only
                                                   when K has several groups of that figure type
          ladder[-Q]                               Q: the part of the mode after its first '-'
                                                   (latency-cold gives ladder-cold)
          flops-K[-M]-fpN, flops-K[-M],            the arithmetic figures (fpN: N = 8 x
          intensity-K[-M]                          vec_bytes bits per element)
        plus "-<lever>" and a figure per lever when some (kernel, mode, unroll, vec_bytes,
        blocks_per_sm) point was measured under two levers; otherwise one figure holds every
        lever's points. Names that would still coincide become TYPE-K-M[-lever].
    python3 plots/csvsel.py select FILE...   (arguments in the environment, see below)
        Prints the ok rows that pass PLOT_WHERE and hold finite numbers in PLOT_X and PLOT_Y, as
        tab-separated blocks for gnuplot's `index`: one block per file and distinct PLOT_BY
        tuple, sorted by those and then by x; each block starts with its header line and two
        blank lines separate blocks. Columns: set_idx (file number, 1-based), label (the file's
        gpu_name; where names repeat, plus its pci_bus_id, then its host, then its base name), each PLOT_BY
        column, <col>_rank (1-based rank of its value among all selected rows), PLOT_X, PLOT_Y,
        PLOT_NORM (the file's metadata value) when set, the PLOT_KEEP columns.

Numbers are passed on as the CSV's own text (leading blanks dropped), never converted and
printed again. Text fields have tabs, CR and LF replaced by spaces, as the output is one line per
row. Environment: PLOT_WHERE conditions "col=value" joined by \\037; PLOT_BY and PLOT_KEEP
comma-separated column names; PLOT_X, PLOT_Y column names; PLOT_POSITIVE_X=1 drops x <= 0 (log
axes); PLOT_NORM a metadata key that must hold a positive number; PLOT_WHAT names the figure in
messages. Errors: one line "plots: FILE:LINE: what" (or "plots: FILE: what") on stderr, exit 2.
"""
import collections
import heapq
import math
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import occcsv  # noqa: E402

BLANKS = " \t\n\v\f\r"


def fail(msg):
    print("plots: %s" % msg, file=sys.stderr)
    sys.exit(2)


class Scan:
    """One pass over a CSV: meta (last value of each key, in first-seen order) fills as rows
    are taken from rows(), which yields (line, fields) of the ok rows and counts all rows."""

    def __init__(self, path):
        self.path, self.columns = path, occcsv.schema()
        self.index = {name: i for i, (name, _) in enumerate(self.columns)}
        self.meta, self.n_rows, self.n_ok = collections.OrderedDict(), 0, 0

    def rows(self):
        try:
            for kind, *rest in occcsv.records(self.path, self.columns):
                if kind == "meta":
                    self.meta[rest[0][0]] = rest[0][1]
                    continue
                self.n_rows += 1
                if rest[0][self.index["status"]] == "ok":
                    self.n_ok += 1
                    yield rest[1], rest[0]
        except occcsv.CsvError as err:
            fail(err)

    def field(self, row, name):
        return row[self.index[name]]


def clean(s):
    return s.replace("\t", " ").replace("\r", " ").replace("\n", " ")


def finite(text):
    return occcsv.is_num(text) and math.isfinite(occcsv.number(text))


# No measurement comes near 1e15 in a column a figure draws (GB/s, GFLOP/s, %, bytes, cycles, ns,
# loads/s); a larger value overflows gnuplot's axis arithmetic and leaves a blank figure.
ABSURD = 1e15
DRAWN = ("occ_achieved_pct", "occ_measured_pct", "bytes_in_flight_per_sm", "gbps_median",
         "buffer_bytes", "cycles_per_hop_median", "ns_per_hop_median", "hops_per_s_median",
         "gflops_median", "flop_peak_gflops")


def absurd(scan, row):
    """The first drawn column of row holding a finite value beyond ABSURD, or None. The reader
    has checked that these INT and NUM fields are numbers; plain text beyond 1e15 has more than
    15 characters, so only such text, or text with an exponent or in hex, is converted."""
    for name in DRAWN:
        text = scan.field(row, name)
        if (len(text) > 15 or "e" in text or "E" in text or "x" in text or "X" in text) and \
                ABSURD < abs(occcsv.number(text)) < math.inf:
            return name
    return None


class Group:
    """The ok rows of one (kernel, mode): what they hold and which levers measured them."""

    def __init__(self, kernel, mode):
        self.kernel, self.mode = kernel, mode
        self.cycles = self.hops = self.per_lever = self.flops = self.bandwidth = False
        self.elems = []  # vec_bytes values in order: element sizes of pure arithmetic rows
        self.levers, self.lever_of_point = [], {}
        self.factors = collections.OrderedDict()  # (lever, text): the distinct ones, in order

    def add(self, t, row):
        self.cycles |= finite(t.field(row, "cycles_per_hop_median"))
        self.hops |= finite(t.field(row, "hops_per_s_median"))
        self.flops |= finite(t.field(row, "gflops_median"))
        self.bandwidth |= finite(t.field(row, "gbps_median"))
        elem = t.field(row, "vec_bytes").lstrip(BLANKS)
        if elem not in self.elems:
            self.elems.append(elem)
        lever = t.field(row, "lever")
        if lever not in self.levers:
            self.levers.append(lever)
        point = tuple(t.field(row, c) for c in ("unroll", "vec_bytes", "blocks_per_sm"))
        self.per_lever |= self.lever_of_point.setdefault(point, lever) != lever
        self.factors[(lever, t.field(row, "dram_bytes_per_load_byte"))] = None

    def type(self):
        return ("ladder" if self.cycles else "chase" if self.hops else
                "arith" if self.flops else "stream")

    def factor(self, path, lever, suffix):
        """The CSV's text of the traffic factor when every row agrees on one positive number."""
        texts = [x.lstrip(BLANKS) for lev, x in self.factors if lever is None or lev == lever]
        values = {occcsv.number(x) for x in texts}
        if all(finite(x) for x in texts) and len(values) == 1 and min(values) > 0:
            return texts[0]
        if any(finite(x) for x in texts):
            print("plots: %s: figure %s: dram_bytes_per_load_byte differs between its rows (%s); "
                  "no Little's-law line" % (path, suffix, ", ".join(sorted(set(texts)))),
                  file=sys.stderr)
        return "-"


def lever_words(levers):
    levers = [lev for lev in levers if lev != "-"]  # "-": not applicable (csv_columns.h)
    if not levers:
        return ""
    return (", levers " if len(levers) > 1 else ", lever ") + " + ".join(levers)


def arith_figures(g, base):
    """[(type, suffix, extra where)] of an arithmetic group: with GB/s too (memory +
    arithmetic), GFLOP/s per FMAs-per-float curve and the intensity figure; without, GFLOP/s
    per chain count, one figure per element size (vec_bytes: 4 fp32, 8 fp64)."""
    if g.bandwidth:
        return [("flops-fmas", "flops-" + base, ""), ("intensity", "intensity-" + base, "")]
    out = []
    for elem in sorted(g.elems, key=sort_key):
        name = "fp%d" % (8 * occcsv.number(elem)) if finite(elem) else clean(elem)
        out.append(("flops", "flops-%s-%s" % (base, name), "\037vec_bytes=" + clean(elem)))
    return out


def figures(groups):
    """[(type, group, lever or None, suffix, extra where)] in the order the groups first
    appear."""
    kinds = collections.Counter((g.kernel, g.type()) for g in groups.values())
    figs = []
    for g in groups.values():
        kind = g.type()
        if kind == "ladder":
            qualifier = g.mode.partition("-")[2]
            base = "ladder" + ("-" + qualifier if qualifier else "")
        else:
            base = g.kernel + ("-" + g.mode if kinds[(g.kernel, kind)] > 1 else "")
        if kind == "stream":
            types = [(ty, ty + "-" + base, "") for ty in ("occupancy", "inflight")]
        elif kind == "arith":
            types = arith_figures(g, base)
        else:
            types = [(kind, base, "")]
        for lever in g.levers if g.per_lever else [None]:
            for ty, name, extra in types:
                figs.append([ty, g, lever, name + ("-" + lever if lever else ""), extra])
    names = collections.Counter(f[3] for f in figs)
    for f in figs:
        if names[f[3]] > 1:
            f[3] = "-".join([f[0], f[1].kernel, f[1].mode] + ([f[2]] if f[2] else []))
    for f in figs:
        f[3] = "".join(c if c.isalnum() and c.isascii() or c in "_.+-" else "_" for c in f[3])
    return figs


def check(path):
    t = Scan(path)
    groups = collections.OrderedDict()
    for line, row in t.rows():
        name = absurd(t, row)
        if name is not None:
            print("plots: %s:%d: %s '%.40s' is beyond %g: row left out of the figures"
                  % (path, line, name, t.field(row, name), ABSURD), file=sys.stderr)
            continue
        key = (t.field(row, "kernel"), t.field(row, "mode"))
        groups.setdefault(key, Group(*key)).add(t, row)
    if not t.n_rows:
        fail("%s: no data rows after the header" % path)
    if not t.n_ok:
        fail("%s: no ok rows to plot: all %d rows are skip or fail" % (path, t.n_rows))
    if not groups:
        fail("%s: no ok rows to plot: every one holds an absurd value" % path)
    out = []
    for key, value in t.meta.items():
        out.append("meta\t%s\t%s" % (clean(key), clean(value)))
    for ty, g, lever, suffix, extra in figures(groups):
        where = "kernel=%s\037mode=%s" % (clean(g.kernel), clean(g.mode)) + extra
        if lever is not None:
            where += "\037lever=" + clean(lever)
        what = "%s, mode %s" % (g.kernel, g.mode)
        desc = what + ": latency ladder" if ty == "ladder" else what + lever_words(
            [lever] if lever is not None else g.levers)
        if ty == "flops":
            desc = "%s %s: GFLOP/s per chain count U" % (g.kernel, suffix.rsplit("-", 1)[1])
        elif ty == "flops-fmas":
            desc = g.kernel + ": GFLOP/s per A (FMAs per loaded float)"
        elif ty == "intensity":
            desc = g.kernel + ": occupancy needed against FLOP per byte"
        fields = [ty, g.kernel, g.mode, "*" if lever is None else lever, where, suffix,
                  g.factor(path, lever, suffix), desc]
        out.append("\t".join(["fig"] + [clean(f) or "-" for f in fields]))
    print("\n".join(out))


def sort_key(text):
    """Numbers by value, before other text; other text by itself."""
    return (0, occcsv.number(text), "") if occcsv.is_num(text) else (1, 0.0, text)


def env_list(name):
    return [c for c in os.environ.get(name, "").split(",") if c]


# Rows select keeps in memory at once; beyond that, sorted runs go to temporary files and are
# merged, so that memory does not grow with the file.
CHUNK_ROWS = 200000


def record_key(rec):
    """Sort key of a selected row's record "set_idx TAB by... TAB x TAB ...": file, the PLOT_BY
    values (numbers by value), then x by value."""
    parts = rec.split("\t")
    return (int(parts[0]), [sort_key(v) for v in parts[1:record_key.n_by + 1]],
            occcsv.number(parts[record_key.n_by + 1]))


def sorted_records(chunks, last):
    """The records of the spilled runs and of the last (in-memory) run, merged in key order;
    equal keys keep file order (runs are in file order, heapq.merge and sort are stable)."""
    last.sort(key=record_key)
    if not chunks:
        return iter(last)
    runs = []
    for f in chunks:
        f.seek(0)
        runs.append(line.rstrip("\n") for line in f)
    return heapq.merge(*runs, iter(last), key=record_key)


def spill(run):
    f = tempfile.TemporaryFile("w+", encoding="utf-8", errors="surrogateescape")
    run.sort(key=record_key)
    f.write("".join(r + "\n" for r in run))
    return f


def disambiguate(scans):
    """Each file's curve label: its gpu_name; where names repeat (GPUs of one model, the per-GPU
    CSVs of a fleet run) the file's pci_bus_id is added, then its host, and where even those
    repeat (or are missing) its base name."""
    labels = [clean(t.meta.get("gpu_name") or t.path) for t in scans]
    for key in ("pci_bus_id", "host"):
        count = collections.Counter(labels)
        for i, t in enumerate(scans):
            if count[labels[i]] > 1 and t.meta.get(key):
                labels[i] += " %s" % clean(t.meta[key])
    count = collections.Counter(labels)
    for i, t in enumerate(scans):
        if count[labels[i]] > 1:
            base = os.path.basename(t.path)
            labels[i] += " (%s)" % (base[:-4] if base.endswith(".csv") else base)
    return labels


def select(paths):
    env = os.environ
    where = [c.partition("=")[::2] for c in env.get("PLOT_WHERE", "").split("\037") if c]
    by, keep = env_list("PLOT_BY"), env_list("PLOT_KEEP")
    xcol, ycol, norm = env.get("PLOT_X", ""), env.get("PLOT_Y", ""), env.get("PLOT_NORM", "")
    positive_x, what = env.get("PLOT_POSITIVE_X") == "1", env.get("PLOT_WHAT", "selection")
    scans = [Scan(p) for p in paths]
    for name in [c for c, _ in where] + by + keep + [xcol, ycol]:
        if name not in scans[0].index:
            fail("%s: %s names unknown column '%s'" % (paths[0], what, name))
    record_key.n_by = len(by)
    chunks, run = [], []  # records "set_idx TAB by... TAB x TAB y TAB keep..."
    distinct = [set() for _ in by]
    norms = {}
    for set_idx, t in enumerate(scans, 1):
        n = 0
        for _, r in t.rows():
            x, y = t.field(r, xcol).lstrip(BLANKS), t.field(r, ycol).lstrip(BLANKS)
            if any(clean(t.field(r, c)) != v for c, v in where) or not finite(x) or \
                    not finite(y) or (positive_x and occcsv.number(x) <= 0) or absurd(t, r):
                continue
            by_vals = [clean(t.field(r, c)) for c in by]
            for k, v in enumerate(by_vals):
                distinct[k].add(v)
            run.append("\t".join([str(set_idx)] + by_vals + [x, y] +
                                 [clean(t.field(r, c)) for c in keep]))
            n += 1
            if len(run) >= CHUNK_ROWS:
                chunks.append(spill(run))
                run = []
        norm_text = t.meta.get(norm) if norm else ""
        if norm and not (finite(norm_text or "") and occcsv.number(norm_text) > 0):
            fail("%s: metadata %s is missing or not a positive number; cannot normalise"
                 % (t.path, norm))
        norms[set_idx] = norm_text.lstrip(BLANKS)
        if n == 0:
            fail("%s: %s: no ok rows with finite %s and %s" % (t.path, what, xcol, ycol))
    labels = disambiguate(scans)
    ranks = [{v: str(i + 1) for i, v in enumerate(sorted(d, key=sort_key))} for d in distinct]
    head = "\t".join(["set_idx", "label"] + by + [c + "_rank" for c in by] + [xcol, ycol] +
                     ([norm] if norm else []) + keep)
    out, prev, nb = sys.stdout, None, len(by)
    for rec in sorted_records(chunks, run):
        parts = rec.split("\t")
        set_idx, by_vals = int(parts[0]), parts[1:nb + 1]
        if (set_idx, by_vals) != prev:
            out.write("\n\n" + head + "\n" if prev is not None else head + "\n")
            prev = (set_idx, by_vals)
        ranked = [ranks[k][v] for k, v in enumerate(by_vals)]
        out.write("\t".join([parts[0], labels[set_idx - 1]] + by_vals + ranked +
                             parts[nb + 1:nb + 3] + ([norms[set_idx]] if norm else []) +
                             parts[nb + 3:]) + "\n")


def main(argv):
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(encoding="utf-8", errors="surrogateescape")
    if len(argv) >= 3 and argv[1] == "check" and len(argv) == 3:
        check(argv[2])
    elif len(argv) >= 3 and argv[1] == "select":
        select(argv[2:])
    else:
        fail("usage: csvsel.py check FILE | csvsel.py select FILE...")


if __name__ == "__main__":
    main(sys.argv)
