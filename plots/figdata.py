# SPDX-License-Identifier: Apache-2.0
"""plots/figdata.py: one streaming pass over an occsweep CSV that gathers what its figures draw.

scan() reads a file once with plots/occcsv.py (what occ_csv_read accepts, nothing else) and keeps:
  - the metadata (last value of each key), the row counts;
  - the ok load levels (rows with a finite latency_mean_ns), in file order: of those that also
    hold a finite latency_max2_ns, latency_max4_ns and latency_max8_ns, their traffic and the
    texts of LEVEL_COLUMNS (the loaded-latency figure's data, which plots/csvsel.py writes);
  - per (kernel, mode) of the other ok rows a Group: what its rows hold (finite
    cycles_per_hop_median: a latency ladder; else finite hops_per_s_median: a chase throughput
    figure, and where a row holds finite ns_per_hop_median and sm_clock_mhz_median the hop-time
    figure too; else finite gflops_median: the arithmetic figures; else the stream figures) and
    which levers measured which point;
  - per Spec (plots/figspec.py: one kind of figure data, its curve columns, x, y, carried
    values and needed ones) the ok rows that hold what it needs aggregated into Points: one per
    (kernel, mode, lever, curve values, x value), holding the median of y and of each carried
    column over the rows there (the lower median of an even count, so every value is one the
    CSV holds; past MEDIAN_EXACT rows at one point a remedian, see plots/median.py). Rows
    repeated over runs of one sweep become one point each, as drawn.
Memory holds the points, not the rows: it does not grow with the file for any sweep (whose
points are its variants x levels); a file whose figures would hold more than MAX_POINTS points is
refused. A row holding a finite value beyond ABSURD in a drawn column is left out, with one line
on stderr naming its file and line. A file of 64 MiB or more without a quote is read in parts of
PART_BYTES by a pool of processes (one per processor, at most MAX_WORKERS) and the parts merged
in file order: the same metadata, counts, groups, points, messages and errors as one pass, and
the same medians where a point has fewer than MEDIAN_EXACT rows (past that, both are remedians
of its rows, merged in another order).
"""
import collections
import multiprocessing
import operator
import os
import sys

import csvcheck
import occcsv
from figspec import ABSURD, BLANKS, DRAWN, FIGURE_SPECS, absurd, value
from median import MEDIAN_EXACT, Median

# Points (of all specs together) one file may give; no sweep comes near (12 variants x 64 levels x
# 8 block sizes is 6144 per figure), and it bounds the memory of a pass.
MAX_POINTS = 200000

# The columns of a load level the loaded-latency figure draws (plots/loaded.gp), in its order; a
# level is drawn where the mean and the expected slowest of 2, 4 and 8 are finite.
LEVEL_COLUMNS = ("gbps_median", "latency_mean_ns", "latency_p5_ns", "latency_p50_ns",
                 "latency_p95_ns", "latency_p99_ns", "latency_max2_ns", "latency_max4_ns",
                 "latency_max8_ns")
LEVEL_NEED = ("latency_mean_ns", "latency_max2_ns", "latency_max4_ns", "latency_max8_ns")


class Error(Exception):
    """A file that cannot be drawn; str() is the message without the "plots: " prefix."""


class Point:
    """The rows of one point: x as they write it (leading blanks dropped) and its value, the
    medians of y and of the numbers kept, the number of rows."""

    __slots__ = ("x_text", "x", "y", "carry", "rows", "first")

    def __init__(self, x_text, x, n_carry):
        self.x_text, self.x, self.rows = x_text.lstrip(BLANKS), x, 0
        self.y, self.carry = Median(), [Median() for _ in range(n_carry)]
        self.first = None  # the texts of the spec's first columns in the point's first row


class Group:
    """The ok rows of one (kernel, mode): what they hold (cycles, hops, flops, bandwidth: some row
    holds a finite cycles_per_hop_median, hops_per_s_median, gflops_median with the
    flop_peak_gflops its figures draw (GFLOP/s without a stated peak, e.g. a plugin's, draws no
    arithmetic figure), gbps_median; hop_ns: some row holds a finite ns_per_hop_median and a
    finite sm_clock_mhz_median, the hop-time figure's), the levers in the order they first
    appear, per_lever (some (unroll, vec_bytes, blocks_per_sm, block_threads) point was
    measured under two levers), factors, the distinct (lever, dram_bytes_per_load_byte text)
    in the order they appear, elems, the distinct vec_bytes texts (leading blanks dropped; the
    element sizes of arithmetic rows) in that order, and blocks, the distinct block_threads
    texts (leading blanks dropped) in that order, buffers, the distinct buffer_bytes texts
    (leading blanks dropped), for the titles, and variants, the distinct variant names."""

    def __init__(self, kernel, mode):
        self.kernel, self.mode = kernel, mode
        self.cycles = self.hops = self.flops = self.bandwidth = self.hop_ns = False
        # (lever, factor, unroll, vec_bytes, blocks_per_sm, block_threads, buffer_bytes, variant)
        self.seen = {}

    def finish(self):
        self.levers = list(dict.fromkeys(k[0] for k in self.seen))
        self.factors = list(dict.fromkeys(k[:2] for k in self.seen))
        self.elems = list(dict.fromkeys(k[3].lstrip(BLANKS) for k in self.seen))
        self.blocks = list(dict.fromkeys(k[5].lstrip(BLANKS) for k in self.seen))
        self.buffers = list(dict.fromkeys(k[6].lstrip(BLANKS) for k in self.seen))
        self.variants = list(dict.fromkeys(k[7] for k in self.seen))
        lever_of = {}
        self.per_lever = any(lever_of.setdefault(k[2:6], k[0]) != k[0] for k in self.seen)
        del self.seen

    def type(self):
        return ("ladder" if self.cycles else "chase" if self.hops else
                "arith" if self.flops else "stream")


class Run:
    """What scan() kept of one file (see the module's text): meta, n_rows, n_ok, groups
    {(kernel, mode): Group} in the order they appear, and points[spec name][(kernel, mode)]
    {(lever, curve values, x text): Point} (curve values: the spec's by and text keep fields)."""

    def __init__(self, path, columns):
        self.path, self.columns = path, columns
        self.index = {name: i for i, (name, _) in enumerate(columns)}
        self.meta, self.n_rows, self.n_ok = collections.OrderedDict(), 0, 0
        self.n_levels = 0  # ok load-level rows (finite latency_mean_ns), in no group
        self.levels = []  # [(traffic, texts of LEVEL_COLUMNS)] of those drawn (see the module)
        self.groups = collections.OrderedDict()
        self.points, self.n_points = {}, 0

    def new_point(self):
        self.n_points += 1
        if self.n_points > MAX_POINTS:
            raise Error("%s: more than %d distinct points in its figures: not a sweep this tool "
                        "draws" % (self.path, MAX_POINTS))


def _getter(indices):
    """A function giving the tuple of a row's fields at indices."""
    if len(indices) == 1:
        return lambda row, i=indices[0]: (row[i],)
    return operator.itemgetter(*indices) if indices else lambda row: ()


# The value of a point key whose x is not finite (or not positive where it must be).
LEFT_OUT = False


def _feeder(run, spec):
    """A function adding one ok row (its fields, kernel, mode, lever) to the spec's points."""
    ix = run.index
    table = run.points.setdefault(spec.name, {})
    curve = _getter([ix[c] for c in spec.curve])
    wheres = [(ix[c], v) for c, v in spec.where]
    i_need = [ix[c] for c in spec.need]
    i_x, i_y, i_carry = ix[spec.x], ix[spec.y], [ix[c] for c in spec.carry]
    first = _getter([ix[c] for c in spec.first])
    positive, keeps, i_variant = spec.positive_x, spec.keeps, ix["variant"]

    def feed(row, kernel, mode, lever):
        if not keeps(row[i_variant]):
            return
        y = row[i_y]
        if y == "NaN":
            return
        y = value(y)
        if y is None:
            return
        for i, v in wheres:
            if row[i] != v:
                return
        for i in i_need:
            if row[i] == "NaN" or value(row[i]) is None:
                return
        points = table.get((kernel, mode))
        if points is None:
            points = table[(kernel, mode)] = {}
        key = (lever, curve(row), row[i_x])
        p = points.get(key)
        if p is None:
            run.new_point()
            x = value(key[2])
            if x is None or (positive and x <= 0):
                p = points[key] = LEFT_OUT
            else:
                p = points[key] = Point(key[2], x, len(i_carry))
                p.first = first(row)
        if p is LEFT_OUT:
            return
        p.rows += 1
        low = p.y.levels[0]
        low.append(y)
        if len(low) == MEDIAN_EXACT:
            p.y.carry()
        for m, i in zip(p.carry, i_carry):
            t = row[i]
            if t != "NaN":
                v = value(t)
                if v is not None:
                    m.add(v)
    return feed


def _scan_part(path, specs, part):
    """The Run of part (see occcsv.records) of the file, its groups not finished, with absurd:
    [(line, column, text)] of the rows left out; raises Error."""
    columns = occcsv.schema()
    run = Run(path, columns)
    run.absurd = []
    ix = run.index
    feeders = [_feeder(run, spec) for spec in specs]
    i_status, i_kernel, i_mode, i_lever = ix["status"], ix["kernel"], ix["mode"], ix["lever"]
    i_cycles, i_hops = ix["cycles_per_hop_median"], ix["hops_per_s_median"]
    i_ns, i_mhz = ix["ns_per_hop_median"], ix["sm_clock_mhz_median"]
    i_loaded, i_traffic = ix["latency_mean_ns"], ix["traffic"]
    level_texts = operator.itemgetter(*[ix[c] for c in LEVEL_COLUMNS])
    level_need = [ix[c] for c in LEVEL_NEED]
    i_flops, i_gbps, i_peak = ix["gflops_median"], ix["gbps_median"], ix["flop_peak_gflops"]
    seen_key = operator.itemgetter(i_lever, ix["dram_bytes_per_load_byte"], ix["unroll"],
                                   ix["vec_bytes"], ix["blocks_per_sm"], ix["block_threads"],
                                   ix["buffer_bytes"], ix["variant"])
    drawn = operator.itemgetter(*[ix[c] for c in DRAWN])
    # The lower ends of the physical ranges (csvcheck.ranges()): a row below one is refused; one
    # above is drawn, or left out beyond ABSURD like any other.
    lows = [(ix[c], c, b) for c, b in csvcheck.ranges()[1].items()]
    groups, meta = run.groups, run.meta
    try:
        for kind, row, line in occcsv.records(path, columns, part):
            if kind == "meta":
                meta[row[0]] = row[1]
                continue
            run.n_rows += 1
            if row[i_status] != "ok":
                continue
            run.n_ok += 1
            for i, name, b in lows:
                try:
                    v = float(row[i])
                except ValueError:  # hex, nan(chars): the reader's own conversion
                    v = occcsv.number(row[i])
                if v < b[0] or (b[2] and v == b[0]):
                    raise Error("%s:%d: %s" % (path, line, csvcheck.range_error(
                        name, row[i], b, below_only=True)))
            texts = drawn(row)
            joined = "".join(texts)
            # Text beyond 1e15 is longer than 15 characters, or has an exponent, or is hex.
            if "e" in joined or "E" in joined or "x" in joined or "X" in joined or \
                    max(map(len, texts)) > 15:
                name = absurd(texts)
                if name is not None:
                    run.absurd.append((line, name, row[ix[name]]))
                    continue
            if row[i_loaded] != "NaN" and value(row[i_loaded]) is not None:
                run.n_levels += 1
                if all(value(row[i]) is not None for i in level_need):
                    run.new_point()
                    run.levels.append((row[i_traffic], tuple(t.lstrip(BLANKS)
                                                             for t in level_texts(row))))
                continue  # a load level: the loaded-latency figure's, which plots/plot draws
            kernel, mode, lever = row[i_kernel], row[i_mode], row[i_lever]
            g = groups.get((kernel, mode))
            if g is None:
                g = groups[(kernel, mode)] = Group(kernel, mode)
            if not g.cycles and row[i_cycles] != "NaN":
                g.cycles = value(row[i_cycles]) is not None
            if not g.hops and row[i_hops] != "NaN":
                g.hops = value(row[i_hops]) is not None
            if not g.hop_ns and row[i_ns] != "NaN" and row[i_mhz] != "NaN":
                g.hop_ns = value(row[i_ns]) is not None and value(row[i_mhz]) is not None
            if not g.flops and row[i_flops] != "NaN" and row[i_peak] != "NaN":
                g.flops = value(row[i_flops]) is not None and value(row[i_peak]) is not None
            if not g.bandwidth and row[i_gbps] != "NaN":
                g.bandwidth = value(row[i_gbps]) is not None
            g.seen[seen_key(row)] = None
            for feed in feeders:
                feed(row, kernel, mode, lever)
    except occcsv.CsvError as err:
        run.error = str(err)
    except Error as err:
        run.error = str(err)
    return run


def _scan_part_args(args):
    return _scan_part(*args)


# Files of at least 2 parts' bytes that hold no quote are read in parts of PART_BYTES (whole
# lines; a quoted field may hold a line end), by up to MAX_WORKERS processes, and merged in file
# order: the result depends on the file only, not on the number of processors.
PART_BYTES = 32 << 20
MAX_WORKERS = 8


def _parts(path):
    """[(start, end, first_line, header_read)] of the file, or [None]: one sequential pass."""
    try:
        f = csvcheck.open_input(path)
    except csvcheck.CsvError as err:
        raise Error(str(err)) from None
    with f:
        size = os.fstat(f.fileno()).st_size
        if size < 2 * PART_BYTES:
            return [None]
        while True:  # the header: the first line that is not empty, a comment or metadata
            line = f.readline(PART_BYTES)
            if f.tell() >= PART_BYTES or not line.endswith(b"\n"):
                return [None]
            if line[:1] != b"#" and line not in (b"\n", b"\r\n"):
                break
        f.seek(0)
        starts, first_lines = [0], [1]
        cut, pos, n_lf = PART_BYTES, 0, 0  # cut: where to look for the next part's start
        while True:
            block = f.read(8 << 20)
            if not block:
                break
            if b'"' in block:
                return [None]
            while cut is not None and cut < pos + len(block):
                i = block.find(b"\n", cut - pos)
                if i == -1:  # that line ends in a later block
                    cut = pos + len(block)
                    break
                if pos + i + 1 >= size:
                    cut = None
                    break
                starts.append(pos + i + 1)
                first_lines.append(1 + n_lf + block.count(b"\n", 0, i + 1))
                cut = starts[-1] + PART_BYTES
            n_lf += block.count(b"\n")
            pos += len(block)
    ends = starts[1:] + [size]
    return [(start, end, first, k > 0)
            for k, (start, end, first) in enumerate(zip(starts, ends, first_lines))]


def _workers(n_parts):
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_WORKERS, n_parts))


def _merge(run, other):
    for k, v in other.meta.items():
        run.meta[k] = v
    run.n_rows += other.n_rows
    run.n_ok += other.n_ok
    run.n_levels += other.n_levels
    run.levels += other.levels
    for key, g in other.groups.items():
        mine = run.groups.get(key)
        if mine is None:
            run.groups[key] = g
            continue
        mine.cycles |= g.cycles
        mine.hops |= g.hops
        mine.flops |= g.flops
        mine.bandwidth |= g.bandwidth
        mine.hop_ns |= g.hop_ns
        for k in g.seen:
            mine.seen[k] = None
    for name, tables in other.points.items():
        mine_tables = run.points.setdefault(name, {})
        for group, points in tables.items():
            mine = mine_tables.setdefault(group, {})
            for key, p in points.items():
                q = mine.get(key)
                if q is None:
                    mine[key] = p
                    run.new_point()
                elif q is not LEFT_OUT:
                    q.rows += p.rows
                    q.y.merge(p.y)
                    for a, b in zip(q.carry, p.carry):
                        a.merge(b)


def scan(path, specs=FIGURE_SPECS, absurd_lines=True):
    """The Run of the file at path; raises Error where occ_csv_read rejects it. absurd_lines:
    name each row left out for an absurd value on stderr."""
    parts = _parts(path)
    args = [(path, specs, part) for part in parts]
    n = _workers(len(parts))
    if n == 1:
        return _merged(path, map(_scan_part_args, args), absurd_lines)
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    try:
        pool = ctx.Pool(n)
    except (OSError, ImportError):  # no process pool here (no /dev/shm, say): one process
        return _merged(path, map(_scan_part_args, args), absurd_lines)
    with pool:
        # In file order, as each is done: the main process holds one part's points at a time.
        return _merged(path, pool.imap(_scan_part_args, args), absurd_lines)


def _merged(path, results, absurd_lines):
    """The Run of the parts' Runs, in file order; prints their absurd rows; raises Error."""
    run = Run(path, occcsv.schema())
    for part in results:
        if absurd_lines:
            for line, name, text in part.absurd:
                print("plots: %s:%d: %s '%.40s' is beyond %g: row left out of the figures"
                      % (path, line, name, text, ABSURD), file=sys.stderr)
        if getattr(part, "error", None):
            raise Error(part.error)
        _merge(run, part)
    for g in run.groups.values():
        g.finish()
    return run

