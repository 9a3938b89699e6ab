# SPDX-License-Identifier: Apache-2.0
"""plots/csvsel.py: the plots' pre-filter: reads each occsweep CSV once (plots/figdata.py, through
plots/occcsv.py: what occ_csv_read accepts, nothing else), says which figures its rows call for
(plots/figlist.py) and writes what each figure draws: one point per curve and x, the median of
the ok rows there (rows repeated over runs of a sweep become one point; memory does not grow
with the file), as plots/figout.py writes it. Only rows with status "ok" are used, and of those
not a row that holds a finite value beyond 1e15 in a column a figure draws: check and compare
name each such row on stderr ("plots: FILE:LINE: COLUMN 'TEXT' is beyond 1e+15: row left out of
the figures"), select leaves it out silently.

    python3 plots/csvsel.py check [--data PREFIX] [--levels PREFIX] [--unroll U] [--vec V] FILE
        Prints, tab-separated:
          meta KEY VALUE                                        one per metadata key (last wins)
          fig TYPE KERNEL MODE LEVER WHERE SUFFIX FACTOR DESC   one per figure the ok rows call for
          ref read|arith KERNEL MODE BEST [RATE PANELLED]  the reference lines (figlist.refs())
        and with --data writes figure k's data (below) to PREFIX<k>.tsv (k = 1, 2, ... in the
        order of the fig lines), of the curves with unroll U and vec_bytes V only when given
        (figures whose curves have those columns); with --levels writes the load levels (ok rows
        with a finite latency_mean_ns, latency_max2_ns, latency_max4_ns and latency_max8_ns) of
        each traffic T (read, copy, gather) to PREFIX-T.dat, in file order, one line each of
        gbps_median latency_mean_ns latency_p5_ns latency_p50_ns latency_p95_ns latency_p99_ns
        latency_max2_ns latency_max4_ns latency_max8_ns (tab-separated, the CSV's text; empty
        where the run has no such level): plots/loaded.gp's data. The other ok rows are grouped by (kernel, mode);
        what a group holds decides its figures: finite cycles_per_hop_median: a latency ladder
        (TYPE ladder); else finite hops_per_s_median: a chase throughput figure (chase), and
        where a row holds finite ns_per_hop_median and sm_clock_mhz_median also the cycles per
        hop of one chain (hoptime); else finite gflops_median: the arithmetic figures, GFLOP/s
        against occupancy per FMAs-per-float A (flops-fmas) and the intensity figure
        (intensity) when the rows have GB/s too, else GFLOP/s per chain count U (flops), one
        figure per vec_bytes (the element size; with --vec V only V's); else the Volkov figures
        (occupancy and inflight). WHERE is the row filter that gives the figure's rows to task
        select; LEVER the lever it keeps, or * for all; SUFFIX the part of the output name
        after "<csvbase>-"; FACTOR the figure's dram_bytes_per_load_byte as the CSV writes it,
        when its ok rows agree on one positive number, else "-". Names:
          occupancy-K[-M], inflight-K[-M], K[-M],  for kernel K and mode M: the mode part only
          hoptime-K[-M]                            when K has several groups of that figure type
          ladder[-Q]                               Q: the part of the mode after its first '-'
                                                   (latency-cold gives ladder-cold)
          flops-K[-M]-fpN, flops-K[-M],            the arithmetic figures (fpN: N = 8 x
          intensity-K[-M]                          vec_bytes bits per element)
        plus "-<lever>" and a figure per lever when some (kernel, mode, unroll, vec_bytes,
        blocks_per_sm) point was measured under two levers; otherwise one figure holds every
        lever's points. Names that would still coincide become TYPE-K-M[-lever]. The data of
        each TYPE is task select's output for:
          occupancy  PLOT_BY=unroll,vec_bytes,lever,block_threads PLOT_X=occ_achieved_pct
                     PLOT_Y=gbps_median (a capped twin is its own curve)
          inflight   the same with PLOT_X=bytes_in_flight_per_sm PLOT_POSITIVE_X=1 and
                     gbps_predicted kept (the median of the model's predictions the rows hold)
          ladder     PLOT_BY=variant PLOT_X=buffer_bytes PLOT_Y=cycles_per_hop_median
                     PLOT_KEEP=ns_per_hop_median PLOT_POSITIVE_X=1
          chase      PLOT_BY=unroll,block_threads PLOT_X=occ_achieved_pct PLOT_Y=hops_per_s_median
          hoptime    PLOT_BY=unroll,block_threads PLOT_X=occ_achieved_pct PLOT_Y=ns_per_hop_median
                     PLOT_KEEP=sm_clock_mhz_median PLOT_NEED=sm_clock_mhz_median (the figure
                     draws ns x MHz / 1000: cycles per hop)
          flops      PLOT_BY=unroll,vec_bytes,block_threads PLOT_X=occ_achieved_pct
                     PLOT_Y=gflops_median PLOT_KEEP=flop_peak_gflops, of the figure's vec_bytes
          flops-fmas PLOT_BY=fma_per_element,block_threads, otherwise as flops
          intensity  PLOT_BY=fma_per_element,block_threads PLOT_X=occ_achieved_pct
                     PLOT_Y=gbps_median PLOT_KEEP=gflops_median,flops_per_launch,
                     bytes_per_launch,flop_peak_gflops
          stages     PLOT_BY=variant,block_threads,lever PLOT_X=occ_achieved_pct
                     PLOT_Y=gbps_median PLOT_KEEP=bytes_in_flight_per_sm,blocks_per_sm, every
                     block size, then the columns stages, block_bytes, stage_bytes
                     (figspec.DERIVED); in place of occupancy and block for a group whose
                     variant names all have a stages axis s (figlist.staged)
          warpgroups PLOT_BY=variant,unroll,block_threads,lever PLOT_X=blocks_per_sm
                     PLOT_Y=gflops_median PLOT_KEEP=flop_peak_gflops,sm_clock_mhz_median, then
                     panel (the name's N) and form (its other words); in place of flops for a
                     group whose variant names all have an axis n (figlist.panelled)
          block      PLOT_BY=block_threads PLOT_X=occ_achieved_pct PLOT_Y=gbps_median, of one
                     (unroll, vec_bytes, lever): --unroll U --vec V, else of the curves these
                     keep the one reaching the highest occupancy, then the best GB/s; its lever
                     pad rows, bounds where it has none (LEVER says which). Where a (kernel,
                     mode) holds several block_threads values, a figure of every other type but
                     the ladder keeps one, 128 when present, else the smallest (WHERE names it,
                     DESC says so), and the block figure follows its stream figures (block-K[-M]).
    python3 plots/csvsel.py select FILE...   (arguments in the environment, see below)
        Prints the points of the ok rows that pass PLOT_WHERE and hold finite numbers in PLOT_X,
        PLOT_Y and each PLOT_NEED column, as the blocks plots/figout.py describes, one per file
        and distinct PLOT_BY tuple. A point is one (kernel, mode, lever, PLOT_BY values, text
        PLOT_KEEP values, x value) of a file. Columns: set_idx, label, each PLOT_BY column,
        <col>_rank, PLOT_X, PLOT_Y, PLOT_NORM (the file's metadata value) when set, PLOT_KEEP.
    python3 plots/csvsel.py compare --data FILE [--table PREFIX] [--x occ|inflight] [--kernel K]
                                    [--lever L] [--unroll U] [--vec V] CSV...
        The data of the comparison figure: the occupancy (or inflight) figure data of one
        kernel's points in every CSV, PLOT_NORM=roof_memcpy_gbps, one block per file and
        (unroll, vec_bytes, lever). The kernel is --kernel, else the one kernel every CSV has
        Volkov figures for; each CSV must hold it in one mode, the same in all, and one lever or
        --lever. With --table, also PREFIX.csv and PREFIX.md (plots/comparetab.py). Prints the
        kernel, a tab and 1 when some CSV's synthetic metadata starts with 1 (test data), else 0.

Environment of select: PLOT_WHERE conditions "col=value" (the field's exact text) joined by
\\037; PLOT_BY, PLOT_KEEP and PLOT_NEED (columns a row must hold finite) comma-separated
column names; PLOT_X, PLOT_Y column names; PLOT_POSITIVE_X=1 drops x <= 0 (log axes); PLOT_NORM
a metadata key that must hold a positive number; PLOT_WHAT names the figure in messages.
Errors: one line "plots: FILE:LINE: what" (or "plots: FILE: what") on stderr, exit 2 (a row
below the physical range of one of its values, or metadata the figures mark that is not a
number in its range, included: csvcheck.ranges()); a bad command line: the usage and what is
wrong on stderr, exit 2; a write that failed (stdout included): one line, exit 1.
"""
import argparse
import collections
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import comparetab  # noqa: E402
import csvcheck  # noqa: E402
import figdata  # noqa: E402
import figlist  # noqa: E402
from figlist import clean  # noqa: E402
from figout import fail, labels_of, norm_of, number_text, open_out, write_points  # noqa: E402
import figspec  # noqa: E402
import outfile  # noqa: E402

BLANKS = figspec.BLANKS


def scan(path, specs=figspec.FIGURE_SPECS, absurd_lines=True):
    """The figdata.Run of path; fails on a file the reader refuses, a row below a physical range
    or metadata the figures mark that is not a number in its range (csvcheck.ranges())."""
    try:
        run = figdata.scan(path, specs, absurd_lines)
    except figdata.Error as err:
        fail(err)
    err = csvcheck.meta_error(run.meta, csvcheck.ranges()[0])
    if err:
        fail("%s: %s" % (path, err))
    return run


def require_rows(run):
    if not run.n_rows:
        fail("%s: no data rows after the header" % run.path)
    if not run.n_ok:
        fail("%s: no ok rows to plot: all %d rows are skip or fail" % (run.path, run.n_rows))
    if not run.groups and not run.n_levels:  # load levels alone: plots/plot draws their figure
        fail("%s: no ok rows to plot: every one holds an absurd value" % run.path)


def entries(run, spec, kernel, mode, lever=None, keep_curve=None):
    """(by values, keep values, Point) of the spec's points of (kernel, mode), of one lever when
    given and with curve values keep_curve accepts (a function of the by values) when given."""
    nb = len(spec.by)
    out = []
    for key, p in run.points[spec.name].get((kernel, mode), {}).items():
        if p is figdata.LEFT_OUT or (lever is not None and key[0] != lever):
            continue
        curve = key[1]
        if keep_curve is not None and not keep_curve(curve[:nb]):
            continue
        texts, medians, firsts = iter(curve[nb:]), iter(p.carry), iter(p.first or ())
        keep = []
        for name in spec.keep:
            if name in spec.text_keep:
                keep.append(next(texts))
            elif name in spec.first:
                keep.append(next(firsts).lstrip(BLANKS))
            else:
                m = next(medians).result()
                keep.append("NaN" if m is None else number_text(m))
        out.append((curve[:nb], keep, p))
    return out


def curve_filter(spec, unroll, vec, block=None):
    """A keep_curve function for entries(): by values with unroll, vec_bytes and block_threads
    (where the spec's curves have them) equal to unroll, vec and block when these are given;
    None when nothing is kept out."""
    wants = [(spec.by.index(c), w.lstrip(BLANKS)) for c, w in (("unroll", unroll),
                                                               ("vec_bytes", vec),
                                                               ("block_threads", block))
             if w is not None and c in spec.by]
    if not wants:
        return None
    return lambda by_vals: all(by_vals[i].lstrip(BLANKS) == w for i, w in wants)


# The traffics whose levels plots/loaded.gp draws, in the order it takes them.
LEVEL_TRAFFICS = ("read", "copy", "gather")


def write_levels(run, prefix):
    """PREFIX-T.dat for each of LEVEL_TRAFFICS: the run's drawn load levels of that traffic."""
    for traffic in LEVEL_TRAFFICS:
        with open_out("%s-%s.dat" % (prefix, traffic)) as f:
            for t, texts in run.levels:
                if t == traffic:
                    f.write("\t".join(clean(v) for v in texts) + "\n")


def check(path, prefix, unroll=None, vec=None, levels=None):
    run = scan(path)
    require_rows(run)
    if levels is not None:
        write_levels(run, levels)
    out = []
    for key, value in run.meta.items():
        out.append("meta\t%s\t%s" % (clean(key), clean(value)))
    label = clean(run.meta.get("gpu_name") or path)
    figs = [f for f in figlist.figures(run.groups) if f[4] is None or vec is None or
            f[4] == vec.lstrip(BLANKS)]  # --vec V: of one element size, only V's figure
    for k, (ty, g, lever, suffix, elem) in enumerate(figs, 1):
        where = "kernel=%s\037mode=%s" % (clean(g.kernel), clean(g.mode))
        if elem is not None:
            where += "\037vec_bytes=" + clean(elem)
        desc = figlist.describe(ty, g, lever, suffix)
        if ty == "block":
            spec, ents, lever, words = block_entries(path, suffix, run, g, unroll, vec)
            where += "\037unroll=%s\037vec_bytes=%s" % tuple(clean(v) for v in words[:2])
            desc = "%s_u%s_v%s%s%s%s" % (g.kernel, words[0], words[1],
                                          "_r<cap>" if lever == "bounds" else "",
                                          " " + words[2] if words[2] else "", desc)
        else:
            block = figlist.figure_block(ty, g)
            if block is not None:
                where += "\037block_threads=" + clean(block)
            spec = figspec.SPEC[ty]
            only = curve_filter(spec, unroll, vec if elem is None else elem, block)
            ents = entries(run, spec, g.kernel, g.mode, lever, only)
            if not ents:
                fail("%s: figure %s: no ok rows with finite %s%s"
                     % (path, suffix, spec.finite_words(), "" if only is None else
                        " among the curves kept (--unroll/--vec, block size)"))
        if lever is not None:
            where += "\037lever=" + clean(lever)
        fields = [ty, g.kernel, g.mode, "*" if lever is None else lever, where, suffix,
                  figlist.factor(run, g, lever, suffix), desc, figlist.context(ty, g)]
        out.append("\t".join(["fig"] + [clean(f) or "-" for f in fields]))
        extra, derive = figspec.DERIVED.get(ty, ((), None))
        if derive is not None:
            ents = [(by, keep + derive(g.kernel, g.mode, by, keep), p) for by, keep, p in ents]
        if prefix is not None:
            with open_out("%s%d.tsv" % (prefix, k)) as f:
                write_points(f, spec, [(1, label, None, ents)], extra=extra)
    out += figlist.refs(run)
    print("\n".join(out))


def block_entries(path, suffix, run, g, unroll, vec):
    """(figspec.BLOCK_SPEC, its entries, lever, (unroll, vec_bytes, why)) of g's block figure:
    the occupancy points of one (unroll, vec_bytes), --unroll U --vec V, else of the curves these
    keep the one reaching the highest occupancy at some block size, of those the one holding the
    best GB/s (why: "(widest occupancy range)", else ""); of its natural rows (lever pad), or
    where the kept curves have none its register-capped ones (lever bounds)."""
    spec = figspec.SPEC["occupancy"]
    ents = entries(run, spec, g.kernel, g.mode, None, curve_filter(spec, unroll, vec))
    i_lever, i_block = spec.by.index("lever"), spec.by.index("block_threads")
    natural = [e for e in ents if e[0][i_lever] != "bounds"]
    ents = natural or ents
    if not ents:
        fail("%s: figure %s: no ok rows with finite %s and %s among the curves kept "
             "(--unroll/--vec)" % (path, suffix, spec.x, spec.y))
    reach = {}
    for by, _, p in ents:
        reach[by[:3]] = max(reach.get(by[:3], p.x), p.x)
    best = max(ents, key=lambda e: (reach[e[0][:3]], e[2].y.result()))
    u, v, lever = best[0][:3]
    why = "" if unroll is not None and vec is not None else "(widest occupancy range)"
    kept = [((by[i_block],), keep, p) for by, keep, p in ents if by[:3] == (u, v, lever)]
    return figspec.BLOCK_SPEC, kept, lever, (u, v, why)


def env_list(name):
    return [c for c in os.environ.get(name, "").split(",") if c]


def select(paths):
    env = os.environ
    where = [tuple(c.partition("=")[::2]) for c in env.get("PLOT_WHERE", "").split("\037") if c]
    by, keep, need = env_list("PLOT_BY"), env_list("PLOT_KEEP"), env_list("PLOT_NEED")
    xcol, ycol, norm = env.get("PLOT_X", ""), env.get("PLOT_Y", ""), env.get("PLOT_NORM", "")
    what = env.get("PLOT_WHAT", "selection")
    for name in [c for c, _ in where] + by + keep + need + [xcol, ycol]:
        if name not in figspec.TYPES:
            fail("%s: %s names unknown column '%s'" % (paths[0], what, name))
    spec = figspec.Spec("select", by, xcol, ycol, keep, env.get("PLOT_POSITIVE_X") == "1", where,
                        need=need)
    runs = [scan(p, [spec], absurd_lines=False) for p in paths]
    sets = []
    for set_idx, (run, label) in enumerate(zip(runs, labels_of(runs)), 1):
        ents = [e for kernel, mode in run.points["select"]
                for e in entries(run, spec, kernel, mode)]
        if not ents:
            fail("%s: %s: no ok rows with finite %s" % (run.path, what, spec.finite_words()))
        sets.append((set_idx, label, norm_of(run, norm) if norm else None, ents))
    write_points(sys.stdout, spec, sets, norm or None)


def stream_kernels(run):
    """{kernel: [(mode, lever or None)]} of the run's occupancy figures."""
    out = collections.OrderedDict()
    for ty, g, lever, _, _ in figlist.figures(run.groups):
        if ty == "occupancy":
            out.setdefault(g.kernel, []).append((g.mode, lever))
    return out


def compare_block(runs, kernel, mode):
    """The block_threads text a comparison keeps: None where every run holds one block size,
    else the one figlist.kept_block picks among those every run holds."""
    groups = [r.groups[(kernel, mode)] for r in runs]
    if all(len(g.blocks) == 1 for g in groups):
        return None
    shared = [b for b in groups[0].blocks if all(b in g.blocks for g in groups)]
    if not shared:
        fail("compare %s: the CSVs share no block size (%s)" % (kernel, "; ".join(
            "%s: %s" % (r.path, ",".join(g.blocks)) for r, g in zip(runs, groups))))
    return figlist.kept_block(shared)


def compare(opts, paths):
    specs = figspec.FIGURE_SPECS + ((comparetab.TABLE_SPEC,) if opts.table else ())
    runs = [scan(p, specs) for p in paths]
    for run in runs:
        require_rows(run)
    kernels = [stream_kernels(r) for r in runs]
    kernel = opts.kernel
    if kernel is None:
        shared = sorted(set.intersection(*[set(k) for k in kernels]))
        if not shared:
            fail("no kernel has occupancy figures in every CSV (%s)" % "; ".join(
                "%s: %s" % (r.path, ",".join(sorted(k)) or "none") for r, k in zip(runs, kernels)))
        if len(shared) > 1:
            fail("the CSVs share kernels %s: choose one with --kernel" % ",".join(shared))
        kernel = shared[0]
    mode = None
    for run, k in zip(runs, kernels):
        figs = k.get(kernel)
        if not figs:
            fail("%s: no ok rows for kernel '%s' to compare" % (run.path, kernel))
        modes = sorted({m for m, _ in figs})
        if len(modes) > 1 or mode not in (None, modes[0]):
            fail("%s: kernel %s has occupancy figures in mode %s; --compare takes one mode, "
                 "the same in every CSV" % (run.path, kernel, ",".join(modes)))
        mode = modes[0]
        if opts.lever is None and len(figs) > 1:
            fail("%s: kernel %s has levers %s: choose one with --lever"
                 % (run.path, kernel, ",".join(lev for _, lev in figs)))
    spec = figspec.SPEC["inflight" if opts.x == "inflight" else "occupancy"]

    block = compare_block(runs, kernel, mode)
    keep_curve = curve_filter(spec, opts.unroll, opts.vec, block)
    sets = []
    for set_idx, (run, label) in enumerate(zip(runs, labels_of(runs)), 1):
        ents = entries(run, spec, kernel, mode, opts.lever, keep_curve)
        if not ents:
            fail("%s: compare %s: no ok rows with finite %s and %s"
                 % (run.path, kernel, spec.x, spec.y))
        sets.append((set_idx, label, norm_of(run, "roof_memcpy_gbps"), ents))
    with open_out(opts.data) as f:
        write_points(f, spec, sets, "roof_memcpy_gbps")
    if opts.table and not comparetab.write(
            opts.table, runs, labels_of(runs), kernel, mode, opts.lever,
            curve_filter(comparetab.TABLE_SPEC, opts.unroll, opts.vec, block)):
        fail("compare %s: no (variant, occupancy) point is in every CSV: no table" % kernel)
    synthetic = any((r.meta.get("synthetic") or "").startswith("1") for r in runs)
    print("%s\t%d" % (clean(kernel), synthetic))


def parser():
    p = argparse.ArgumentParser(prog="csvsel.py", allow_abbrev=False,
                                description="The plots' pre-filter of occsweep CSVs.")
    tasks = p.add_subparsers(dest="task", required=True, metavar="TASK")
    c = tasks.add_parser("check", allow_abbrev=False,
                         help="a CSV's metadata, figures and their data")
    c.add_argument("--data", metavar="PREFIX")
    c.add_argument("--levels", metavar="PREFIX")
    c.add_argument("--unroll", metavar="U")
    c.add_argument("--vec", metavar="V")
    c.add_argument("file", metavar="FILE")
    s = tasks.add_parser("select", allow_abbrev=False,
                         help="points chosen by the PLOT_* environment variables")
    s.add_argument("files", metavar="FILE", nargs="+")
    m = tasks.add_parser("compare", allow_abbrev=False, help="several CSVs on one figure")
    m.add_argument("--data", metavar="FILE", required=True)
    for name, meta in (("--table", "PREFIX"), ("--x", "occ|inflight"), ("--kernel", "K"),
                       ("--lever", "L"), ("--unroll", "U"), ("--vec", "V")):
        m.add_argument(name, metavar=meta)
    m.add_argument("files", metavar="CSV", nargs="+")
    return p


def main(argv):
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(encoding="utf-8", errors="surrogateescape")
    p = parser()
    a = p.parse_args(argv[1:])
    if a.task == "check":
        return check(a.file, a.data, a.unroll, a.vec, a.levels)
    if a.task == "select":
        return select(a.files)
    if len(a.files) < 2:
        p.error("compare takes two CSVs or more")
    return compare(a, a.files)


if __name__ == "__main__":
    outfile.run_printing("plots", lambda: main(sys.argv))
