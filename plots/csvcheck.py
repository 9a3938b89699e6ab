# SPDX-License-Identifier: Apache-2.0
"""plots/csvcheck.py: the checks the CSV reader (plots/occcsv.py) makes, as the C reader
(harness/csv/csv_read.c, csv_ranges.c) makes them, and that every reader of the plots uses:

  - open_input(): an input is a regular file (a FIFO is opened without blocking and refused, a
    device refused) of at most MAX_INPUT_BYTES, harness/csv/csv.h OCC_CSV_MAX_INPUT_BYTES;
  - is_int(), is_num(), number(): a field's number as strtoll and strtod take it whole;
  - ranges(), range_error(), meta_error(): the physical range of the values the figures and the
    report compute with, the table of harness/csv/csv_ranges.c (what --recompute checks),
    parsed from it so there is one list, and FIGURE_META, the metadata the figures mark.

Errors are CsvError, whose text is "file:line: what" (or "file: what").
"""
import math
import os
import re
import stat

HERE = os.path.dirname(os.path.abspath(__file__))
RANGES_C = os.path.join(os.path.dirname(HERE), "harness", "csv", "csv_ranges.c")
# The largest input read, as harness/csv/csv.h OCC_CSV_MAX_INPUT_BYTES.
MAX_INPUT_BYTES = 4 << 30

# Characters C's isspace() takes in the C locale: strtoll and strtod skip them in front.
WS = "[ \t\n\v\f\r]*"
INT_RE = re.compile(WS + "[+-]?[0-9]+")
NUM_RE = re.compile(WS + "[+-]?(?:0[xX](?:[0-9a-fA-F]+[.]?[0-9a-fA-F]*|[.][0-9a-fA-F]+)"
                    "(?:[pP][+-]?[0-9]+)?"
                    "|(?:[0-9]+[.]?[0-9]*|[.][0-9]+)(?:[eE][+-]?[0-9]+)?"
                    "|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?"
                    "|[nN][aA][nN](?:[(][0-9A-Za-z_]*[)])?)")
INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1


class CsvError(Exception):
    """A file occ_csv_read would reject; str() is "file:line: what"."""


def open_input(path):
    """The file at path open for binary reading, when it is a regular file of at most
    MAX_INPUT_BYTES (opened without blocking, so a FIFO is refused, not waited on); else CsvError
    "path: why"."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise CsvError("%s: %s" % (path, e.strerror)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            why = "is not a regular file"
        elif st.st_size > MAX_INPUT_BYTES:
            why = "is %d bytes, more than the %d GiB an input may hold" % (
                st.st_size, MAX_INPUT_BYTES >> 30)
        else:
            os.set_blocking(fd, True)
            return os.fdopen(fd, "rb")
    except OSError as e:
        why = e.strerror
    os.close(fd)
    raise CsvError("%s: %s" % (path, why))


def int_value(text):
    """The value of an INT field that strtoll takes whole, or None (out of range included)."""
    if INT_RE.fullmatch(text) is None:
        return None
    t = text.lstrip(" \t\n\v\f\r")
    digits = t.lstrip("+-").lstrip("0") or "0"
    if len(digits) > 19:  # past 64 bits, and past what int() may parse in one go
        return None
    value = int(digits) * (-1 if t[0] == "-" else 1)
    return value if INT_MIN <= value <= INT_MAX else None


def is_int(text):
    return int_value(text) is not None


def is_num(text):
    return NUM_RE.fullmatch(text) is not None


def number(text):
    """The value of an INT or NUM field's text, as a float."""
    t = text.lstrip(" \t\n\v\f\r")
    body = t.lstrip("+-")
    if body[:2] in ("0x", "0X"):
        return float.fromhex(t)
    if body[:3].lower() == "nan":
        return float("nan")
    return float(t)


_RANGES = {}


def ranges(path=RANGES_C):
    """(metadata, columns): {name: (lo, hi, lo_open)} of the table of harness/csv/csv_ranges.c,
    its META keys and its NUM and INT columns: a finite value in [lo, hi] ((lo, hi] where
    lo_open). The metadata the figures mark (FIGURE_META) is added to the first."""
    if path in _RANGES:
        return _RANGES[path]
    with open(path, encoding="utf-8") as f:
        found = re.findall(r'\b(?:META\("(\w+)"|(?:NUM|INT)\((\w+)),\s*([-+.0-9eE]+),'
                           r'\s*([-+.0-9eE]+)(?:,\s*([01]))?\)', f.read())
    if not found:
        raise CsvError("%s: no META/NUM/INT range entries found" % path)
    meta, columns = dict(FIGURE_META), {}
    for key, col, lo, hi, lo_open in found:
        (meta if key else columns)[key or col] = (float(lo), float(hi), lo_open == "1")
    _RANGES[path] = meta, columns
    return meta, columns


# The metadata the figures mark besides the model's inputs: positive numbers where present.
FIGURE_META = {key: (0.0, math.inf, True)
               for key in ("roof_dram_peak_gbps", "sm_clock_mhz", "l1_bytes", "l2_bytes")}


def range_error(name, text, bounds, below_only=False):
    """None when text (a field or metadata value) is a number within bounds (lo, hi, lo_open) or
    NaN (not measured), else "NAME 'TEXT' is not a number in [lo, hi]"; below_only: a value above
    hi passes."""
    value = number(text) if is_num(text) else None
    lo, hi, lo_open = bounds
    if value is not None and (math.isnan(value) or
                              ((value > lo if lo_open else value >= lo) and
                               (below_only or value <= hi))):
        return None
    return "%s '%.40s' is not a number in %s%g, %g]" % (name, text, "(" if lo_open else "[",
                                                         lo, hi)


def meta_error(meta, bounds):
    """The range_error() of the first metadata key of bounds ({key: (lo, hi, lo_open)}) that
    meta ({key: value}) holds out of its range, "metadata " before it; None when none is."""
    for key, b in bounds.items():
        err = key in meta and range_error(key, meta[key], b)
        if err:
            return "metadata " + err
    return None


def check_ranges(table):
    """Raises CsvError "file: metadata KEY ..." or "file:line: COLUMN ..." for the first value
    of table (an occcsv.Table) out of the ranges(): every row, as occ_csv_check_ranges checks."""
    meta_bounds, col_bounds = ranges()
    err = meta_error(table.meta_dict(), meta_bounds)
    if err:
        raise CsvError("%s: %s" % (table.path, err))
    checked = [(table.index[c], c, b) for c, b in col_bounds.items()]
    for row, line in zip(table.rows, table.row_lines):
        for i, name, b in checked:
            err = range_error(name, row[i], b)
            if err:
                raise CsvError("%s:%d: %s" % (table.path, line, err))
