# SPDX-License-Identifier: Apache-2.0
"""plots/occcsv.py: the occsweep CSV file (format in harness/csv/csv.h) read as occ_csv_read
reads it.

The schema (column names and types, in order) is parsed from harness/csv/csv_columns.h, so there
is one list of columns. read() accepts and rejects what occ_csv_read (harness/csv/csv_read.c)
does:
  - '# key=value' lines, anywhere a record may start, are metadata: the key is trimmed of spaces
    and tabs, the value unescaped (backslash-backslash, backslash-n, backslash-r); '#' lines
    without '=' and empty lines (LF or CRLF) are skipped;
  - the first other record is the header and must name the schema's columns in schema order;
  - records are RFC 4180 (csv module, strict): a field may be quoted, with "" for a quote, and then
    hold commas, CR and LF; lines end in LF or CRLF; text after a closing quote is an error;
  - every row has one field per column; an INT field is what strtoll takes whole (optional leading
    white space and sign, decimal digits, within 64 bits), a NUM field what strtod takes whole in
    the C locale (decimal or hex, inf/infinity, nan, nan(chars), any case, optional sign).
Errors are CsvError, whose text is "file:line: what" with the line of the record, as in C.
Field values are kept as the file's text, never converted; number() converts one when needed.
Every file is opened by open_input() (plots/csvcheck.py, with the numbers' grammar): the check
occ_csv_read makes, a regular file of at most 4 GiB.

    python3 plots/occcsv.py [--dump] FILE...
        reads each FILE; prints "FILE: N rows" (--dump: what was read, see dump()) or the error
        on stderr; exit 0, or 2 when any file was rejected or the command line is wrong, 1 when
        stdout cannot be written
"""
import argparse
import csv
import math
import os
import re
import sys

from csvcheck import MAX_INPUT_BYTES, NUM_RE, WS, CsvError, int_value, is_int, is_num, number, \
    open_input

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS_H = os.path.join(os.path.dirname(HERE), "harness", "csv", "csv_columns.h")
_META_ESCAPES = {"\\": "\\", "n": "\n", "r": "\r"}
# csv.reader ends a record at any CR; occ_csv_read only at LF (after an optional CR). A CR that is
# not part of a line end is handed to csv.reader as this code point, which no decoded file holds
# (surrogateescape decoding makes U+DC80..U+DCFF only), and turned back into CR in the fields.
# NUL bytes, which some csv versions refuse, travel the same way; C's fields end at one.
_CR, _NUL = "\ud800", "\ud801"


def schema(path=COLUMNS_H):
    """[(name, type)] of harness/csv/csv_columns.h in column order; type is STR, INT or NUM."""
    with open(path, encoding="utf-8") as f:
        columns = re.findall(r"X\((\w+),\s*(STR|INT|NUM),", f.read())
    if not columns:
        raise CsvError("%s: no X(name, type, doc) column entries found" % path)
    return columns


class Table:
    """A file read by read(): meta is [(key, value)] in file order (values unescaped); rows are
    lists of field texts in schema order; row_lines the line where each row starts."""

    def __init__(self, path, columns):
        self.path, self.columns = path, columns
        self.index = {name: i for i, (name, _) in enumerate(columns)}
        self.meta, self.rows, self.row_lines = [], [], []

    def meta_get(self, key):
        """The value of metadata key (the last one when a key repeats), or None."""
        values = [v for k, v in self.meta if k == key]
        return values[-1] if values else None

    def field(self, row, name):
        return row[self.index[name]]

    def meta_dict(self):
        """{key: value} of the metadata, the last value of a key that repeats."""
        return dict(self.meta)

    def dicts(self):
        """Each row as {column: field text}."""
        names = [name for name, _ in self.columns]
        return [dict(zip(names, row)) for row in self.rows]


class _Lines:
    """The file's lines (each with its LF; the last may lack one), split at LF only and read in
    blocks, for csv.reader and records(): buf holds the lines of the current block, pos the next
    one to take; i counts the lines taken, lf those that ended in LF, last is the last one taken;
    next is the line after them (None at the end)."""

    BLOCK_BYTES = 1 << 20

    def __init__(self, f, path):
        self.f, self.path, self.n_bytes = f, path, 0
        self.i, self.lf, self.last = 0, 0, ""
        self.buf, self.pos, self.rest, self.eof = [], 0, [], False
        self.fill()

    def fill(self):
        """Makes buf[pos] the next line, when there is one."""
        while self.pos >= len(self.buf) and not self.eof:
            data = self.f.read(self.BLOCK_BYTES)
            self.n_bytes += len(data)
            if self.n_bytes > MAX_INPUT_BYTES:  # it grew while read
                raise CsvError("%s: is more than the %d GiB an input may hold"
                               % (self.path, MAX_INPUT_BYTES >> 30))
            cut = data.rfind(b"\n") + 1
            if not data:
                self.eof = True
                tail = b"".join(self.rest)
                lines = [tail.decode("utf-8", "surrogateescape")] if tail else []
            elif not cut:
                self.rest.append(data)
                continue
            else:
                text = b"".join(self.rest + [data[:cut]]).decode("utf-8", "surrogateescape")
                self.rest = [data[cut:]]
                lines = [line + "\n" for line in text.split("\n")[:-1]]
            self.buf, self.pos = lines, 0

    @property
    def next(self):
        return self.buf[self.pos] if self.pos < len(self.buf) else None

    def take(self):
        line = self.buf[self.pos]
        self.pos += 1
        self.i += 1
        self.lf += line.endswith("\n")
        self.last = line
        if self.pos == len(self.buf):
            self.fill()
        return line

    def __iter__(self):
        return self

    def __next__(self):
        if self.next is None:
            raise StopIteration
        line = self.take()
        end = "\r\n" if line.endswith("\r\n") else "\n" if line.endswith("\n") else ""
        return line[:len(line) - len(end)].replace("\r", _CR).replace("\0", _NUL) + end


def _meta_line(line):
    """(key, value) of a '#' line, or None for a comment."""
    line = line.rstrip("\n")
    if line.endswith("\r"):
        line = line[:-1]
    line = line.split("\0", 1)[0]
    key, eq, value = line[1:].partition("=")
    if not eq:
        return None
    return key.strip(" \t"), re.sub(r"\\([\\nr])", lambda m: _META_ESCAPES[m.group(1)], value)


def _check_header(path, line, fields, columns):
    for i, (got, (want, _)) in enumerate(zip(fields, columns)):
        if got != want:
            raise CsvError("%s:%d: wrong header: column %d is '%.40s', expected '%s'"
                           % (path, line, i + 1, got, want))
    if len(fields) != len(columns):
        raise CsvError("%s:%d: wrong header: %d columns, expected %d"
                       % (path, line, len(fields), len(columns)))


def _check_row(path, line, fields, columns):
    if len(fields) != len(columns):
        raise CsvError("%s:%d: %d fields, expected %d" % (path, line, len(fields), len(columns)))
    for text, (name, kind) in zip(fields, columns):
        if kind == "INT" and not is_int(text):
            raise CsvError("%s:%d: column %s: '%.40s' is not an integer" % (path, line, name, text))
        if kind == "NUM" and not is_num(text):
            raise CsvError("%s:%d: column %s: '%.40s' is not a number" % (path, line, name, text))


# Each field as the C writer writes it (harness/csv/csv_write.c: INT %lld, NUM %.10g, NaN, Inf or
# -Inf), in possessive form: a record of such fields is one match, several times faster than the
# full forms.
_WRITER = {"STR": "[^,]*+", "INT": "-?+[0-9]{1,18}+",
           "NUM": "(?>-?+[0-9]++(?>[.][0-9]++)?+(?>e[+-][0-9]++)?+|NaN|-?+Inf)"}


def _row_patterns(columns):
    """Regular expressions for a whole record without quotes, CR or NUL, in the order to try:
    the writer's forms, then every form _check_row accepts except INT fields of 19 significant
    digits (left to _check_row). A record that either matches is one _check_row accepts."""
    full = {"STR": "[^,]*", "INT": WS + "[+-]?0*[0-9]{1,18}", "NUM": NUM_RE.pattern}
    return [re.compile(",".join("(?:%s)" % part[kind] for _, kind in columns))
            for part in (_WRITER, full)]


def _record(path, src, reader):
    """The next record's fields, as occ_csv_read's split_record makes them."""
    start = src.i + 1
    try:
        fields = next(reader)
    except csv.Error as e:
        if "unexpected end of data" in str(e):
            raise CsvError("%s:%d: unterminated quoted field" % (path, start)) from None
        raise CsvError("%s:%d: text after a closing quote (%s)" % (path, src.i, e)) from None
    # A CR just before the end of a file without a final LF ends the record in C, too.
    if src.next is None and src.last.endswith("\r") and fields[-1].endswith(_CR):
        fields[-1] = fields[-1][:-1]
    # C's fields are NUL-terminated strings: a NUL byte ends the value there.
    return [f.split(_NUL, 1)[0].replace(_CR, "\r") for f in fields]


def _plain_rows(path, src, columns, writer, full):
    """The data rows from src.next on that hold no quote, CR or NUL and do not start with '#',
    as records() yields them; stops before the first other line. What csv.reader would make of
    them, without its per-field cost."""
    while src.next is not None:
        buf, pos, lineno = src.buf, src.pos, src.i + 1
        n = len(buf)
        while pos < n:
            line = buf[pos]
            if line[0] == "#" or line == "\n" or line == "\r\n":
                break
            body = line[:-1] if line[-1] == "\n" else line
            body = body[:-1] if body[-1:] == "\r" else body
            if '"' in body or "\r" in body or "\0" in body:
                break
            fields = body.split(",")
            if writer.fullmatch(body) is None and full.fullmatch(body) is None:
                _check_row(path, lineno, fields, columns)
            pos += 1
            yield "row", fields, lineno
            lineno += 1
        taken = pos - src.pos
        src.i += taken
        src.lf += taken - (pos == n and not buf[-1].endswith("\n"))
        if taken:
            src.last = buf[pos - 1]
        src.pos = pos
        if pos < n:
            return
        src.fill()


class _Range:
    """The bytes [start, end) of an open binary file, read as a file."""

    def __init__(self, f, start, end):
        f.seek(start)
        self.f, self.left = f, end - start

    def read(self, n):
        data = self.f.read(min(n, self.left))
        self.left -= len(data)
        return data


def records(path, columns=None, part=None):
    """The file at path read one record at a time: yields ("meta", (key, value), None) for each
    metadata line and ("row", fields, line) for each data row, in file order, in memory that does
    not grow with the file; raises CsvError where occ_csv_read rejects the file.
    part=(start, end, first_line, header_read) reads only the bytes [start, end) of a file that
    holds no quote: start and end at line starts, first_line the number of the line at start,
    header_read whether the header lies before start (else it must lie in the part)."""
    columns = schema() if columns is None else columns
    with open_input(path) as f:
        src = _Lines(f if part is None else _Range(f, part[0], part[1]), path)
        if part is not None:
            src.i = src.lf = part[2] - 1
        reader = csv.reader(src, strict=True)
        writer, full = _row_patterns(columns)
        have_header = part is not None and part[3]
        while src.next is not None:
            line, lineno = src.next, src.i + 1
            if line in ("\n", "\r\n"):
                src.take()
            elif line.startswith("#"):
                kv = _meta_line(src.take())
                if kv is not None:
                    yield "meta", kv, None
            elif not have_header:
                _check_header(path, lineno, _record(path, src, reader), columns)
                have_header = True
            else:
                yield from _plain_rows(path, src, columns, writer, full)
                line, lineno = src.next, src.i + 1
                if line is None or line in ("\n", "\r\n") or line.startswith("#"):
                    continue
                fields = _record(path, src, reader)
                _check_row(path, lineno, fields, columns)
                yield "row", fields, lineno
        if not have_header:
            raise CsvError("%s:%d: no header line" % (path, src.lf + 1))


def read(path, columns=None):
    """The Table of the file at path, or CsvError; columns defaults to schema()."""
    columns = schema() if columns is None else columns
    table = Table(path, columns)
    for kind, item, line in records(path, columns):
        if kind == "meta":
            table.meta.append(item)
        else:
            table.rows.append(item)
            table.row_lines.append(line)
    return table


def _escape(text):
    out = []
    for b in text.encode("utf-8", "surrogateescape"):
        c = chr(b)
        out.append("\\" + {"\\": "\\", "\n": "n", "\r": "r", "\t": "t", "|": "|"}[c]
                   if c in "\\\n\r\t|" else "\\x%02x" % b if b < 0x20 or b == 0x7f else c)
    return "".join(out).encode("latin-1")


def _value(text, kind):
    if kind == "STR":
        return _escape(text)
    if kind == "INT":
        return b"%d" % int_value(text)
    v = number(text)
    return b"NaN" if math.isnan(v) else (b"Inf" if v > 0 else b"-Inf") if math.isinf(v) \
        else b"%.17g" % v


def dump(table):
    """What was read, as bytes: "meta KEY=VALUE" per metadata line, then "row F|F|..." per row;
    STR fields and metadata with backslash, LF, CR, tab and '|' escaped as \\, \\n, \\r, \\t, \\|
    and other control bytes as \\xHH; INT as %d; NUM as %.17g, NaN, Inf or -Inf. The C reader's
    table printed the same way must give the same bytes (tests/unit/test_fixtures.c)."""
    out = [b"meta " + _escape(k) + b"=" + _escape(v) + b"\n" for k, v in table.meta]
    for row in table.rows:
        out.append(b"row " + b"|".join(_value(t, kind) for t, (_, kind) in zip(row, table.columns))
                   + b"\n")
    return b"".join(out)


csv.field_size_limit(1 << 30)  # occ_csv_read has no limit on a field's length

def main(argv):
    p = argparse.ArgumentParser(prog="plots/occcsv.py", allow_abbrev=False,
                                description="Reads occsweep CSV files as occ_csv_read does.")
    p.add_argument("--dump", action="store_true", help="print what was read (see dump())")
    p.add_argument("files", metavar="FILE", nargs="*")
    a = p.parse_args(argv)
    status = 0
    for name in a.files:
        try:
            t = read(name)
        except CsvError as err:
            print(err, file=sys.stderr)
            status = 2
            continue
        sys.stdout.buffer.write(dump(t) if a.dump else b"%s: %d rows\n" % (
            name.encode("utf-8", "surrogateescape"), len(t.rows)))
    return status


if __name__ == "__main__":
    sys.stderr.reconfigure(errors="surrogateescape")
    import outfile  # noqa: E402 (beside this file: the failed-stdout rule)
    outfile.run_printing("occcsv", lambda: main(sys.argv[1:]))
