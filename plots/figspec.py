# SPDX-License-Identifier: Apache-2.0
"""plots/figspec.py: what each figure draws, as plots/figdata.py aggregates it.

A Spec is one kind of figure data: the columns that make a curve, x, y, the values carried
beside y and those a row must hold finite to be drawn; FIGURE_SPECS are those of the figures
plots/plot draws, SPEC the same by name. TYPES gives each column's type (STR, INT or NUM) from
the one schema, harness/csv/csv_columns.h (read by plots/occcsv.py). value() turns a number
field's text into a finite float; absurd() finds a drawn column holding a value no measurement
comes near (beyond ABSURD), whose row is left out. name_axis() and name_words() read a variant
name's axes, which the figures of stages (stages) and of warp groups (warpgroups) draw beside
the columns (DERIVED: the columns they add to their data).
"""
import re

import occcsv

BLANKS = " \t\n\v\f\r"

# No measurement comes near 1e15 in a column a figure draws (GB/s, GFLOP/s, %, bytes, cycles, ns,
# loads/s, MHz); a larger value overflows gnuplot's axis arithmetic and leaves a blank figure.
ABSURD = 1e15
DRAWN = ("occ_achieved_pct", "occ_measured_pct", "bytes_in_flight_per_sm", "gbps_median",
         "buffer_bytes", "cycles_per_hop_median", "ns_per_hop_median", "hops_per_s_median",
         "gflops_median", "flop_peak_gflops", "sm_clock_mhz_median")


def value(text):
    """The finite float of an INT or NUM field's text (the reader has checked its form), or None."""
    try:
        v = float(text)
    except ValueError:  # hex and nan(chars): forms strtod takes and float() does not
        v = occcsv.number(text)
    return v if v - v == 0 else None


def absurd(texts):
    """The first DRAWN column whose text (texts: the row's DRAWN fields, in that order) holds a
    finite value beyond ABSURD, or None."""
    for name, text in zip(DRAWN, texts):
        v = value(text)
        if v is not None and abs(v) > ABSURD:
            return name
    return None


# A variant name is words joined by "_" (docs/design.md: names carry every axis in a fixed order):
# the kernel, often the mode, then its axes, each a letter and a whole number ("s4": 4 stages,
# "n128": N = 128, "c8k": 8 KiB) or a word ("ss", "noswz").
_AXIS = re.compile(r"([a-z])([0-9]+)k?")


def name_axis(variant, letter):
    """The number of the variant name's axis letter ("s" of async_bulk_s4_c8k_w1: 4), or None."""
    for word in variant.split("_")[1:]:
        m = _AXIS.fullmatch(word)
        if m and m.group(1) == letter:
            return int(m.group(2))
    return None


def name_words(variant, kernel, mode):
    """The words of a variant name that are neither its kernel, its mode nor an axis of a letter
    and a number ("ss", "rs noswz" of wgmma_f16_n64_rs_g2_noswz), "" where none."""
    words = variant.split("_")
    words = words[1:] if words[:1] == [kernel] else words
    words = words[1:] if words[:1] == [mode] else words
    return " ".join(w for w in words if not _AXIS.fullmatch(w))


# Column name: STR, INT or NUM.
TYPES = dict(occcsv.schema())


class Spec:
    """One kind of figure data: rows with finite x (and > 0 when positive_x), finite y and a
    finite value in each column of need, whose fields are where's texts ([(column, text)]),
    give a point per (kernel, mode, lever, by values, text keep values, x value); each number
    kept has its own median, NaN where no row there holds a finite one. Text keep values: the
    STR columns of keep and those named in as_text (numbers a point's rows share, such as a
    launch's size: kept as their text, which costs a row less than a median). The columns of
    keep named in first are kept as the text of the point's first row (numbers every row of a
    point holds alike, such as its variant's register cap: no curve of their own, no median).
    named: a letter; only rows whose variant name has that axis (name_axis) are kept."""

    def __init__(self, name, by, x, y, keep=(), positive_x=False, where=(), as_text=(), need=(),
                 first=(), named=None):
        self.named, self._keeps = named, {}
        self.name, self.by, self.x, self.y, self.keep = name, tuple(by), x, y, tuple(keep)
        self.positive_x, self.where, self.need = positive_x, list(where), tuple(need)
        self.first = tuple(k for k in self.keep if k in first)
        self.text_keep = tuple(k for k in self.keep if (TYPES[k] == "STR" or k in as_text) and
                               k not in self.first)
        self.curve = self.by + self.text_keep
        self.carry = tuple(k for k in self.keep if k not in self.text_keep + self.first)

    def keeps(self, variant):
        """Whether the rows of a variant (its name) feed this spec: any, or of named those whose
        name has that axis."""
        k = self._keeps.get(variant)
        if k is None:
            k = self.named is None or name_axis(variant, self.named) is not None
            self._keeps[variant] = k
        return k

    def finite_words(self):
        """The columns a row must hold finite, for messages: "X and Y", or "X, Y and N"."""
        names = [self.x, self.y] + list(self.need)
        return ", ".join(names[:-1]) + " and " + names[-1]


# The data of the figures plots/plot draws, by figure type. Every curve but the ladder's (one
# thread) is of one block_threads: plots/csvsel.py keeps one block size of a figure, and the
# block figure draws the occupancy points one curve per block size.
FIGURE_SPECS = (
    # The cap and spill bytes label the register-capped curves.
    Spec("occupancy", ["unroll", "vec_bytes", "lever", "block_threads"], "occ_achieved_pct",
         "gbps_median", ["reg_cap_per_thread", "local_bytes_per_thread"],
         first=("reg_cap_per_thread", "local_bytes_per_thread")),
    # The model's prediction of each point, as the run computed it (harness/model/model.h): the
    # line plots/inflight.gp draws beside the measured curve.
    Spec("inflight", ["unroll", "vec_bytes", "lever", "block_threads"], "bytes_in_flight_per_sm",
         "gbps_median", ["reg_cap_per_thread", "local_bytes_per_thread", "gbps_predicted"],
         positive_x=True, first=("reg_cap_per_thread", "local_bytes_per_thread")),
    Spec("ladder", ["variant"], "buffer_bytes", "cycles_per_hop_median", ["ns_per_hop_median"],
         positive_x=True),
    Spec("chase", ["unroll", "block_threads"], "occ_achieved_pct", "hops_per_s_median"),
    # Cycles per hop of one chain: plots/hoptime.gp draws ns x MHz / 1000 of each point, the
    # medians of the rows there that hold both (so a point's ns and clock are of the same rows).
    Spec("hoptime", ["unroll", "block_threads"], "occ_achieved_pct", "ns_per_hop_median",
         ["sm_clock_mhz_median"], need=["sm_clock_mhz_median"]),
    # sm_clock_mhz_measured: the clock a row's peak is computed at where the kernel measured it
    # (wgmma), for the peak per MHz of figlist.refs.
    Spec("flops", ["unroll", "vec_bytes", "block_threads"], "occ_achieved_pct", "gflops_median",
         ["flop_peak_gflops", "sm_clock_mhz_median", "sm_clock_mhz_measured"]),
    Spec("flops-fmas", ["fma_per_element", "block_threads"], "occ_achieved_pct", "gflops_median",
         ["flop_peak_gflops", "sm_clock_mhz_median"]),
    # Fed by every row with GB/s (only the end of the pass knows which groups are arithmetic):
    # the launch sizes kept as text and the medians skipping NaN keep that cheap.
    Spec("intensity", ["fma_per_element", "block_threads"], "occ_achieved_pct", "gbps_median",
         ["gflops_median", "flops_per_launch", "bytes_per_launch", "flop_peak_gflops"],
         as_text=("flops_per_launch", "bytes_per_launch")),
)
SPEC = {s.name: s for s in FIGURE_SPECS}
# The figures whose curves are variants with axes that only their names carry. stages: bandwidth
# against occupancy per variant of S stages (name axis s), a panel per block size; the bytes in
# flight per block (bytes_in_flight_per_sm / blocks_per_sm) colour the curve. warpgroups: GFLOP/s
# against blocks per SM per variant, a panel per N (name axis n), colour by unroll (G groups in
# flight), a style per the name's other words (its form).
STAGES_SPEC = Spec("stages", ["variant", "block_threads", "lever"], "occ_achieved_pct",
                   "gbps_median", ["bytes_in_flight_per_sm", "blocks_per_sm"], named="s")
WARPGROUPS_SPEC = Spec("warpgroups", ["variant", "unroll", "block_threads", "lever"],
                       "blocks_per_sm", "gflops_median",
                       ["flop_peak_gflops", "sm_clock_mhz_median"], named="n")
FIGURE_SPECS += (STAGES_SPEC, WARPGROUPS_SPEC)
SPEC.update({STAGES_SPEC.name: STAGES_SPEC, WARPGROUPS_SPEC.name: WARPGROUPS_SPEC})


def _stage_columns(kernel, mode, by, keep):
    """stages (name axis s), block_bytes (bytes in flight per block: the point's bytes in flight
    per SM over its blocks per SM) and stage_bytes (block_bytes / stages) of a stages point."""
    stages = name_axis(by[0], "s")
    inflight, blocks = value(keep[0]), value(keep[1])
    block = inflight / blocks if inflight is not None and blocks else None
    if stages is None or block is None:
        return ["NaN"] * 3
    return [str(stages), "%.10g" % block, "%.10g" % (block / stages)]


def _panel_columns(kernel, mode, by, keep):
    """panel (name axis n) and form (the name's other words, "-" where none) of a warpgroups
    point."""
    n = name_axis(by[0], "n")
    return ["NaN" if n is None else str(n), name_words(by[0], kernel, mode) or "-"]


# Figure type: (the columns added after the kept ones, a function of (kernel, mode, by values,
# kept texts) giving their texts).
DERIVED = {"stages": (("stages", "block_bytes", "stage_bytes"), _stage_columns),
           "warpgroups": (("panel", "form"), _panel_columns)}
# The block figure's data: the occupancy points of one (unroll, vec_bytes), a curve per block
# size (plots/csvsel.py picks them from SPEC["occupancy"]'s points).
BLOCK_SPEC = Spec("block", ["block_threads"], "occ_achieved_pct", "gbps_median")
