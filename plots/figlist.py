# SPDX-License-Identifier: Apache-2.0
"""plots/figlist.py: which figures the groups of a Run (plots/figdata.py) call for, their output
names, titles and traffic factor; the rules are plots/csvsel.py's (its task check prints them).
Figures are chosen by what the rows hold, never by family name:
  - a group whose rows hold a finite cycles_per_hop_median: a latency ladder (ladder); else
    hops_per_s_median: a chase throughput figure (chase), and where a row holds a finite
    ns_per_hop_median and sm_clock_mhz_median the cycles per hop of one chain (hoptime);
  - else gflops_median with a stated flop_peak_gflops: the arithmetic figures, with
    gbps_median too (memory and arithmetic) a GFLOP/s figure per FMAs-per-float A (flops-fmas)
    and the intensity figure (intensity), else a GFLOP/s figure per chain count U (flops), one
    per element size (vec_bytes);
  - else the Volkov figures (occupancy, inflight), and where the rows hold two or more
    block_threads values the block figure (block): one (unroll, vec_bytes), one curve per block
    size;
  - a group whose variants keep stages in shared memory (staged: every name has a stages axis
    s) draws, in place of the occupancy and block figures, which would merge its stage counts,
    a curve per variant (stages), a panel per block size; an arithmetic group without GB/s
    whose variants name an N (panelled: every name has an axis n, so that several variants share
    an unroll) draws, in place of the flops figure, a curve per variant against blocks per SM
    (warpgroups), a panel per N. refs() gives the reference lines of these two figures.
Where a group holds several block sizes every other figure draws one of them (kept_block: 128
when present, else the smallest) and says which in its title.
"""
import collections
import sys

import figspec
import occcsv

BLANKS = figspec.BLANKS


def clean(s):
    return s.replace("\t", " ").replace("\r", " ").replace("\n", " ")


def sort_key(text):
    """Numbers by value, before other text; other text by itself."""
    return (0, occcsv.number(text), "") if occcsv.is_num(text) else (1, 0.0, text)


def factor(run, g, lever, suffix):
    """The CSV's text of the traffic factor when every row agrees on one positive number."""
    texts = [x.lstrip(BLANKS) for lev, x in g.factors if lever is None or lev == lever]
    values = [figspec.value(x) for x in texts]
    if all(v is not None for v in values) and len(set(values)) == 1 and values[0] > 0:
        return texts[0]
    if any(v is not None for v in values):
        print("plots: %s: figure %s: dram_bytes_per_load_byte differs between its rows (%s); "
              "no Little's-law line" % (run.path, suffix, ", ".join(sorted(set(texts)))),
              file=sys.stderr)
    return "-"


def staged(g):
    """A stream group whose variants keep stages in flight: every name has an s axis."""
    return g.type() == "stream" and all(figspec.name_axis(v, "s") is not None
                                         for v in g.variants)


def panelled(g):
    """An arithmetic group without GB/s whose variants name an N: every name has an n axis."""
    return (g.type() == "arith" and not g.bandwidth and
            all(figspec.name_axis(v, "n") is not None for v in g.variants))


def arith_figures(g, base):
    """[(type, name, element size or None)] of an arithmetic group: with GB/s too (memory +
    arithmetic), GFLOP/s per FMAs-per-float curve and the intensity figure; without, GFLOP/s
    per chain count, one figure per element size (vec_bytes: 4 fp32, 8 fp64)."""
    if g.bandwidth:
        return [("flops-fmas", "flops-" + base, None), ("intensity", "intensity-" + base, None)]
    if panelled(g):
        return [("warpgroups", "warpgroups-" + base, None)]
    out = []
    for elem in sorted(g.elems, key=sort_key):
        v = figspec.value(elem) if occcsv.is_num(elem) else None
        name = "fp%d" % (8 * v) if v is not None else clean(elem)
        out.append(("flops", "flops-%s-%s" % (base, name), elem))
    return out


def figures(groups):
    """[(type, group, lever or None, suffix, element size or None)] in the order the groups
    first appear; the element size (vec_bytes text) when the figure is of that size's rows."""
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
            types = [(ty, ty + "-" + base, None) for ty in
                     ("stages" if staged(g) else "occupancy", "inflight")]
        elif kind == "arith":
            types = arith_figures(g, base)
        elif kind == "chase" and g.hop_ns:
            types = [("chase", base, None), ("hoptime", "hoptime-" + base, None)]
        else:
            types = [(kind, base, None)]
        for lever in g.levers if g.per_lever else [None]:
            for ty, name, elem in types:
                figs.append([ty, g, lever, name + ("-" + lever if lever else ""), elem])
        if kind == "stream" and len(g.blocks) > 1 and not staged(g):  # it picks the lever
            figs.append(["block", g, None, "block-" + base, None])
    names = collections.Counter(f[3] for f in figs)
    for f in figs:
        if names[f[3]] > 1:
            f[3] = "-".join([f[0], f[1].kernel, f[1].mode] + ([f[2]] if f[2] else []))
    for f in figs:
        f[3] = "".join(c if c.isalnum() and c.isascii() or c in "_.+-" else "_" for c in f[3])
    return figs


DEFAULT_BLOCK = "128"


def kept_block(blocks):
    """Of block_threads texts, the one a figure drawing one block size keeps: DEFAULT_BLOCK when
    they hold it, else the smallest."""
    return DEFAULT_BLOCK if DEFAULT_BLOCK in blocks else min(blocks, key=sort_key)


def figure_block(ty, g):
    """The block_threads text a figure of type ty of g keeps, None where it keeps every row (g
    holds one block size; the ladder, of one thread; the block figure, a curve per size; the
    stages figure, a panel per size)."""
    return (kept_block(g.blocks) if len(g.blocks) > 1 and
            ty not in ("ladder", "block", "stages") else None)


def bytes_words(text):
    """"4 GiB", "480 MiB", "512 B" of a byte count's text; the text itself where it is no
    whole number of bytes."""
    v = figspec.value(text) if occcsv.is_num(text) else None
    if v is None or v <= 0 or v != int(v):
        return text
    for unit, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if v >= unit:
            return "%g %s" % (round(v / unit, 2), name)
    return "%d B" % v


def context(ty, g):
    """The title's second part: the block size the figure draws and the buffer its rows share
    (none where they differ), e.g. "128-thread blocks · 4 GiB buffers"."""
    words = []
    if ty in ("block", "stages"):
        words.append("block sizes " + ", ".join(sorted(g.blocks, key=sort_key)))
    elif ty != "ladder":
        blocks = "%s-thread blocks" % kept_block(g.blocks)
        if len(g.blocks) > 1:
            blocks += " (of %s)" % ", ".join(sorted(g.blocks, key=sort_key))
        words.append(blocks)
    if len(g.buffers) == 1 and ty not in ("flops", "warpgroups"):
        words.append(bytes_words(g.buffers[0]) + (" footprint" if ty in ("chase", "hoptime")
                                                  else " buffers"))
    return " · ".join(words)


LEVER_WORDS = {"pad": "occupancy set by shared-memory padding",
               "bounds": "occupancy set by register caps"}


def describe(ty, g, lever, suffix):
    """The figure's first title line: what it draws against what, of which kernel and mode (the
    block figure's variant, before this text, is csvsel.py's to add)."""
    who = "%s (%s)" % (g.kernel, g.mode)
    if ty == "block":
        return ": bandwidth against occupancy per block size"
    if ty == "flops":
        return "%s %s: arithmetic throughput against occupancy" % (who, suffix.rsplit("-", 1)[1])
    if ty == "flops-fmas":
        return who + ": FMA throughput against occupancy, per FMAs per loaded float"
    if ty == "intensity":
        return who + ": occupancy needed and best throughput against FLOP per byte"
    if ty == "ladder":
        return who + ": latency of a dependent load against footprint"
    if ty == "stages":
        return who + ": bandwidth against occupancy per S stages × C bytes in flight"
    if ty == "warpgroups":
        return who + ": throughput against warp groups per SM, per N and groups in flight G"
    what = {"occupancy": "bandwidth against occupancy",
            "inflight": "bandwidth against bytes in flight per SM",
            "chase": "dependent loads per second against occupancy",
            "hoptime": "cycles per dependent load of one chain against occupancy"}.get(ty, ty)
    text = "%s: %s" % (who, what)
    if lever is not None:
        text += ", " + LEVER_WORDS.get(lever, "lever " + lever)
    return text


def refs(run):
    """The "ref" lines of a figdata.Run's groups, the reference lines of the stages and
    warpgroups figures (plots/plot picks them, from the same CSV or another of the same GPU):
      ref read KERNEL MODE BEST: a group of Volkov figures that is not staged, whose rows read
        each byte once (dram_bytes_per_load_byte 1; the register path, e.g. reduce); BEST its
        best point's GB/s (the median of the rows there);
      ref arith KERNEL MODE BEST RATE PANELLED: an arithmetic group without GB/s; BEST its best
        point's GFLOP/s (a point of its flops figure), RATE that point's flop_peak_gflops over
        the clock it is computed at, sm_clock_mhz_measured where the kernel measured one, else
        sm_clock_mhz_median (the peak per MHz, which tells the headline rate it is judged
        against), PANELLED 1 where it draws a warpgroups figure, else 0.
    Numbers are written as repr() writes them: the shortest text that reads back as the value."""
    out = []
    for g in run.groups.values():
        if g.type() == "stream" and not staged(g):
            if {figspec.value(t) for _, t in g.factors} != {1.0}:
                continue
            ty, kind, tail = "occupancy", "read", []
        elif g.type() == "arith" and not g.bandwidth:
            ty, kind = "flops", "arith"
        else:
            continue
        points = [p for p in run.points[ty].get((g.kernel, g.mode), {}).values() if p]
        if not points:
            continue
        best = max(points, key=lambda p: p.y.result())
        if kind == "arith":  # the flops spec carries the peak, the watch's and the kernel's clock
            peak, clock, measured = (m.result() for m in best.carry)
            if measured is not None and measured == measured and measured > 0:
                clock = measured  # the clock the row's peak is computed at (wgmma)
            if not peak or not clock:
                continue
            tail = [repr(peak / clock), "1" if panelled(g) else "0"]
        out.append("\t".join(["ref", kind, clean(g.kernel), clean(g.mode),
                              repr(best.y.result())] + tail))
    return out
