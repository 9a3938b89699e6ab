#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/plots/make_big_csv.py: writes a large sweep CSV, for timing plots/plot on big files.

    python3 tests/plots/make_big_csv.py MEGABYTES OUT.csv [TEMPLATE.csv...]

The metadata and header of the first TEMPLATE, then the data rows of every TEMPLATE again and
again, in rounds, until OUT holds at least MEGABYTES x 10^6 bytes (at least one round): round r
repeats each row with its measured values (gbps_median, hops_per_s_median,
cycles_per_hop_median, ns_per_hop_median) scaled by 1 + d_r,
d_r = ((r x 7919 + 100) mod 201 - 100) / 10^4 (within 1%, 0 in round 0), the way repeated runs
of one sweep differ; every other field, the axes and x columns included, is the template's text.
The default templates are the reduce, copy, warp-chase and latency-ladder fixtures
(tests/fixtures), whose rows are about 330 bytes, like a real run's: 1000 MB is about 3 M rows.
Templates must be files the C writer wrote (no quoted fields). Prints "OUT: N rows, B bytes".
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = ["reduce-synthetic.csv", "copy-synthetic.csv", "chase-warp-synthetic.csv",
            "chase-latency-synthetic.csv"]
MEASURED = ("gbps_median", "hops_per_s_median", "cycles_per_hop_median", "ns_per_hop_median")


def template(path):
    """(metadata lines, header line, data rows as lists of fields) of a template CSV."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    meta = [line for line in lines if line.startswith("#")]
    rest = [line for line in lines if line and not line.startswith("#")]
    if any('"' in line for line in rest):
        sys.exit("make_big_csv: %s: quoted fields are not supported in a template" % path)
    return meta, rest[0], [line.split(",") for line in rest[1:]]


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: make_big_csv.py MEGABYTES OUT.csv [TEMPLATE.csv...]")
    target_bytes = int(float(argv[1]) * 1e6)
    paths = argv[3:] or [os.path.join(HERE, "..", "fixtures", name) for name in FIXTURES]
    meta, header, _ = template(paths[0])
    columns = header.split(",")
    measured = [columns.index(name) for name in MEASURED]
    rows = [row for p in paths for row in template(p)[2]]
    head = "\n".join(meta + [header]) + "\n"
    written, n_rows, r = len(head.encode()), 0, 0
    with open(argv[2], "w", encoding="utf-8", newline="\n") as out:
        out.write(head)
        while r == 0 or written < target_bytes:
            scale = 1 + ((r * 7919 + 100) % 201 - 100) / 1e4
            chunk = []
            for row in rows:
                row = list(row)
                for i in measured:
                    if row[i] not in ("NaN", "Inf", "-Inf"):
                        row[i] = "%.10g" % (float(row[i]) * scale)
                chunk.append(",".join(row))
            text = "\n".join(chunk) + "\n"
            out.write(text)
            written += len(text.encode())
            n_rows += len(rows)
            r += 1
    print("%s: %d rows, %d bytes" % (argv[2], n_rows, written))


if __name__ == "__main__":
    main(sys.argv)
