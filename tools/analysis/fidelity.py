#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/analysis/fidelity.py CSV...: how well a sweep keeps its promises, from its CSV alone
(arith_report.py reads CSVs with its read()).

Per file (rows with status ok of the scheduled streams a library roof measures: a schedule and a
DRAM traffic factor of 2, read + write as cudaMemcpy moves, or 1, read only as cub's reduce):
  residency  share of points whose measured residency (occ_measured_pct) is within 2 points of
             the API's occupancy (occ_achieved_pct), and the lowest measured - API difference;
  dips       per natural variant (lever pad): the largest drop of gbps_median below the running
             maximum over occupancy, before 100%, in % (a curve that bends down);
  roofs      the best gbps_median of each kernel against the run's own library roof of its
             traffic (read only: roof_cub_reduce_gbps; read + write: roof_memcpy_gbps).
Prints one block per file; reads each CSV with plots/occcsv.py."""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots"))
import occcsv  # noqa: E402


def read(path):
    """(metadata {key: value}, rows [{column: text}]) of the CSV at path, read by plots/occcsv.py
    (what occ_csv_read accepts; raises occcsv.CsvError for anything else)."""
    t = occcsv.read(path)
    return t.meta_dict(), t.dicts()


# The library roof of a scheduled stream's traffic, by its dram_bytes_per_load_byte.
ROOF = {"1": "roof_cub_reduce_gbps", "2": "roof_memcpy_gbps"}


def report(path):
    meta, rows = read(path)
    ok = [r for r in rows if r["status"] == "ok" and r["schedule"] != "-" and
          r["dram_bytes_per_load_byte"] in ROOF]
    print(f"{path}: {len(ok)} ok copy/reduce rows, schedule {sorted({r['schedule'] for r in ok})}, "
          f"buffer {sorted({int(r['buffer_bytes']) for r in ok})}")
    if not ok:
        return
    diffs = [float(r["occ_measured_pct"]) - float(r["occ_achieved_pct"]) for r in ok
             if r["occ_measured_pct"] not in ("NaN", "")]
    within = sum(abs(d) <= 2.0 for d in diffs)
    print(f"  residency: {within}/{len(diffs)} = {100.0 * within / max(len(diffs), 1):.1f}% within 2 "
          f"points; lowest {min(diffs):+.1f}; {sum(d < -4 for d in diffs)} more than 4 below")
    worst = []
    for v in sorted({r["variant"] for r in ok if r["lever"] == "pad"}):
        pts = sorted((float(r["occ_achieved_pct"]), float(r["gbps_median"])) for r in ok
                     if r["variant"] == v and r["lever"] == "pad")
        run_max, dip, at = 0.0, 0.0, None
        for occ, g in pts:
            if occ < 100.0 and run_max > 0 and (run_max - g) / run_max > dip:
                dip, at = (run_max - g) / run_max, occ
            run_max = max(run_max, g)
        worst.append((dip, v, at))
    worst.sort(reverse=True)
    print("  dips (natural variants, % below running max before 100%): " +
          ", ".join(f"{v} {100 * d:.1f}% at {a}" for d, v, a in worst[:5]) +
          f"; {sum(d > 0.03 for d, _, _ in worst)} of {len(worst)} over 3%")
    for traffic, key in ROOF.items():
        for k in sorted({r["kernel"] for r in ok if r["dram_bytes_per_load_byte"] == traffic}):
            ks = [r for r in ok if r["kernel"] == k]
            if key not in meta:
                continue
            best = max(ks, key=lambda r: float(r["gbps_median"]))
            roof = float(meta[key])
            print(f"  {k}: best {float(best['gbps_median']):.1f} GB/s ({best['variant']} at "
                  f"{float(best['occ_achieved_pct']):.2f}%) = {float(best['gbps_median']) / roof:.3f}x "
                  f"{key} {roof:.1f}")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        report(p)
