#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/analysis/arith_report.py CSV...: what the arithmetic families' sweeps say, from their
CSVs alone.

fma rows (kernel fma, status ok), per variant (element type x chains U):
  plateau    the best pct_of_flop_peak (GFLOP/s over SMs x FMA lanes/SM/clock x 2 x the point's
             clock) and the occupancy where it is reached;
  knee       the lowest occupancy reaching 90% of the variant's best GFLOP/s;
  latency    the FMA latency the rows below 70% of peak imply, in cycles: an SM sub-partition
             issues at most r warp instructions of the type per cycle (r = lanes per SM / 4 / 32:
             1 for fp32 on sm_86 and later, 1/2 for fp64 on sm_90), and with W resident warps per
             sub-partition holding U independent chains each, at most W x U instructions are in
             flight, so below the plateau rate = W x U / L, i.e. L = W x U / (fraction x r)
             (median over those rows; the fraction counts the FMA pipe only, so loop overhead
             and warp scheduling show up as a slightly longer latency);
  residency  the points whose measured residency (occ_measured_pct) is within 2 points of the
             occupancy API's (occ_achieved_pct), of those with both, and the largest gap.
mixed rows, per A: FLOP per byte, best GB/s (% of memcpy), best GFLOP/s (% of peak), knee, and
the machine balance (largest flop_peak_gflops over roof_memcpy_gbps).
Reads CSV as tools/analysis/fidelity.py does; prints one block per file."""
import os
import statistics
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fidelity import read  # noqa: E402  (metadata and rows of a sweep CSV)

KNEE = 0.9
BELOW = 70.0  # % of peak: the rows that tell the latency
SUBPARTITIONS = 4


def num(row, key):
    try:
        return float(row[key])
    except (KeyError, ValueError):
        return float("nan")


def knee(rows, rate):
    best = max(num(r, rate) for r in rows)
    reach = [num(r, "occ_achieved_pct") for r in rows if num(r, rate) >= KNEE * best]
    return best, min(reach)


def fma_block(meta, rows):
    print("variant          plateau %peak  at occ %  knee occ %  latency cycles (rows)"
          "  residency within 2 pts (largest gap)")
    for name in sorted({r["variant"] for r in rows}, key=lambda v: (v[:8], int(v.split("_u")[1]))):
        vr = [r for r in rows if r["variant"] == name]
        best_row = max(vr, key=lambda r: num(r, "pct_of_flop_peak"))
        _, knee_occ = knee(vr, "gflops_median")
        lat = []
        for r in vr:
            # The lanes the row's peak was computed with: peak / (SMs x 2 x clock).
            lanes = num(r, "flop_peak_gflops") / (num(r, "sm_count") * 2e-3 *
                                                  num(r, "sm_clock_mhz_median"))
            rate = lanes / SUBPARTITIONS / 32.0
            frac = num(r, "pct_of_flop_peak") / 100.0
            if rate > 0 and 0 < frac * 100 < BELOW:
                warps = num(r, "blocks_per_sm") * num(r, "block_threads") / 32 / SUBPARTITIONS
                lat.append(warps * int(r["unroll"]) / (frac * rate))
        latency = "%6.2f (%d)" % (statistics.median(lat), len(lat)) if lat else "     - (0)"
        gaps = [num(r, "occ_measured_pct") - num(r, "occ_achieved_pct") for r in vr]
        gaps = [g for g in gaps if g == g]
        within = sum(abs(g) <= 2.0 for g in gaps)
        worst = max(gaps, key=abs) if gaps else float("nan")
        print("%-16s %13.1f  %8.2f  %10.2f  %-21s %d/%d (%+.1f)"
              % (name, num(best_row, "pct_of_flop_peak"), num(best_row, "occ_achieved_pct"),
                 knee_occ, latency, within, len(gaps), worst))


def mixed_block(meta, rows):
    roof = float(meta.get("roof_memcpy_gbps", "nan"))
    peak = max(num(r, "flop_peak_gflops") for r in rows)
    print("machine balance: %.1f FLOP/B (peak %.0f GFLOP/s / memcpy roof %.0f GB/s)"
          % (peak / roof, peak, roof))
    print("   A  FLOP/B  best GB/s  %memcpy  best GFLOP/s  %peak  knee occ %")
    for a in sorted({int(r["fma_per_element"]) for r in rows}):
        ar = [r for r in rows if int(r["fma_per_element"]) == a]
        gbps, knee_occ = knee(ar, "gbps_median")
        flops = max(num(r, "gflops_median") for r in ar) if a else float("nan")
        pct = max(num(r, "pct_of_flop_peak") for r in ar) if a else float("nan")
        print("%4d  %6.1f  %9.1f  %7.1f  %12.1f  %5.1f  %10.2f"
              % (a, 2.0 * a / 4, gbps, 100 * gbps / roof, flops, pct, knee_occ))


def main(paths):
    for path in paths:
        meta, rows = read(path)
        ok = [r for r in rows if r["status"] == "ok"]
        for kernel in sorted({r["kernel"] for r in ok}):
            kr = [r for r in ok if r["kernel"] == kernel]
            # FMA chains (mode chain), or loads with A FMAs each (several A: fma_per_element)
            block = (fma_block if {r["mode"] for r in kr} == {"chain"} else
                     mixed_block if len({r["fma_per_element"] for r in kr}) > 1 else None)
            if block:
                print("%s: %d ok %s rows, %s" % (path, len(kr), kernel, meta.get("gpu_name", "?")))
                block(meta, kr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
