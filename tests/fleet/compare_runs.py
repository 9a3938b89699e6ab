#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/fleet/compare_runs.py OLD.csv NEW.csv: are two runs of the same sweep the same measurement?

Matches rows on (kernel, mode, variant, lever, block_threads, occ_target_pct, buffer_bytes for
ladder rows) and prints: rows only in one file, status differences, columns only in one file, and
for the matched ok rows the median and largest relative difference of the headline figure
(gbps_median, or cycles_per_hop_median for latency rows). Exit 0 when the points, statuses and
shared columns agree (figures are reported, not judged: run-to-run noise decides). Python's csv
module reads the files (quoted fields, embedded newlines)."""
import csv
import statistics
import sys


def read(path):
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    rows = list(csv.DictReader(lines))
    return rows, (list(rows[0].keys()) if rows else [])


def key(r):
    ladder = r["mode"].startswith("latency")
    return (r["kernel"], r["mode"], r["variant"], r["lever"], r["block_threads"],
            r["occ_target_pct"], r["buffer_bytes"] if ladder else "")


def figure(r):
    return "cycles_per_hop_median" if r["mode"].startswith("latency") else "gbps_median"


def main(old_path, new_path):
    old, old_cols = read(old_path)
    new, new_cols = read(new_path)
    a = {key(r): r for r in old}
    b = {key(r): r for r in new}
    only_old, only_new = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    status = [(k, a[k]["status"], b[k]["status"]) for k in a if k in b
              and a[k]["status"].split(":")[0] != b[k]["status"].split(":")[0]]
    ratios = []
    for k in a:
        if k in b and a[k]["status"] == "ok" == b[k]["status"]:
            x, y = float(a[k][figure(a[k])]), float(b[k][figure(b[k])])
            if x > 0:
                ratios.append((y / x - 1.0, k))
    print(f"{old_path} -> {new_path}")
    print(f"rows: {len(old)} old, {len(new)} new, {len(set(a) & set(b))} matched, "
          f"{len(only_old)} only old, {len(only_new)} only new")
    for k in only_old[:5]:
        print("  only old:", k)
    for k in only_new[:5]:
        print("  only new:", k)
    print(f"status class differs: {len(status)}")
    for k, s, t in status[:5]:
        print("  ", k, s, "->", t)
    print("columns only old:", sorted(set(old_cols) - set(new_cols)),
          "only new:", sorted(set(new_cols) - set(old_cols)))
    if ratios:
        diffs = sorted(abs(d) for d, _ in ratios)
        worst = max(ratios, key=lambda t: abs(t[0]))
        print(f"{figure(old[0])} new/old - 1 over {len(ratios)} ok rows: median |d| "
              f"{100 * statistics.median(diffs):.2f}%, mean d {100 * statistics.mean(d for d, _ in ratios):+.2f}%, "
              f"largest {100 * worst[0]:+.2f}% at {worst[1][2]} occ {worst[1][5]} {worst[1][6]}")
    return 0 if not (only_old or only_new or status) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
