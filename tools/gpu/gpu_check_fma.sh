#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/gpu_check_fma.sh: the GPU check of the arithmetic families, for one call on
# the lent H200: builds for sm_90 only (its own build directory, so the default build is left as
# it is), runs the GPU test of the fma and mixed kernels and that of copy/reduce, whose walk and
# block sum mixed shares (required to run: OCC_REQUIRE_GPU=1), and the CPU tests of the same
# work, then the sweeps whose CSVs are the evidence:
#   fma    ./run_sweep --kernel fma --vec 4,8   U = 1, 2, 4, 8 chains, fp32 and fp64, every
#                                               occupancy level of 128-thread blocks (128 points)
#   mixed  ./run_sweep --kernel mixed --size 8G A = 0 .. 256 FMAs per float (224 points)
# (both with --max-time 0.25: at most 0.25 s per point, 88 s for both in the worst case)
# Writes under $OUT (default ./out): results.tgz (the CSVs and knee reports this call wrote) and
# logs.tgz (build, tests, each sweep's stdout: the summary tables with the knees), packed again
# after every step, so that a call cut short still returns what it finished. About 1 minute of
# GPU time on an H200 (each fma launch is sized to ~4 ms at full occupancy; the mixed sweep reads
# 1 GiB per launch), plus the build. Draw the figures where gnuplot is: plots/plot CSV...
# report: tools/analysis/arith_report.py over this call's CSVs (plateau, knee and the FMA latency
# per variant; per A the knee and the machine balance), into logs/arith_report.log.
# Usage: tools/gpu/gpu_check_fma.sh [STEP...]   steps: build tests fma mixed report (default: all)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/out}
LOGS=$OUT/logs
mkdir -p "$OUT" "$LOGS"
export OCC_BUILD=${OCC_BUILD:-$PWD/build-sm90}
export OCC_MESON_ARGS=${OCC_MESON_ARGS:--Dgpu_archs=90 -Dgpu_ptx=}
steps=${*:-build tests fma mixed report}
touch "$LOGS/start.stamp" # what this call wrote is newer than it
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit \
    --format=csv | tee "$LOGS/nvidia-smi.txt"
ms() { echo $(($(date +%s%N) / 1000000)); }
pack() {
    find results -newer "$LOGS/start.stamp" \( -name '*.csv' -o -name '*-knee.md' \) -print0 |
        tar czf "$OUT/results.tgz" --null -T -
    tar czf "$OUT/logs.tgz" -C "$OUT" logs
}
rc=0
for s in $steps; do
    t0=$(ms)
    case $s in
    build) ./run_sweep --version >"$LOGS/build.log" 2>&1 || rc=1
        tail -n 3 "$LOGS/build.log" ;;
    tests) (OCC_ROOT=$PWD && . bench/setup.sh && occ_ensure_tools 0 &&
            OCC_REQUIRE_GPU=1 meson test -C "$OCC_BUILD" --no-rebuild --print-errorlogs \
            gpu_fma gpu_kernels unit_flops unit_plan unit_summary sass_audit) \
            >"$LOGS/tests.log" 2>&1 || rc=1
        grep -E '^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped):' "$LOGS/tests.log" ;;
    fma) ./run_sweep --kernel fma --vec 4,8 --max-time 0.25 --quiet >"$LOGS/fma.out" \
            2>"$LOGS/fma.err" || rc=1
        cat "$LOGS/fma.out"; tail -n 3 "$LOGS/fma.err" ;;
    mixed) ./run_sweep --kernel mixed --size 8G --max-time 0.25 --quiet >"$LOGS/mixed.out" \
            2>"$LOGS/mixed.err" || rc=1
        cat "$LOGS/mixed.out"; tail -n 3 "$LOGS/mixed.err" ;;
    report) python3 tools/analysis/arith_report.py $(find results -newer "$LOGS/start.stamp" \
            -name '*.csv' | sort) 2>&1 | tee "$LOGS/arith_report.log" ;;
    *) echo "unknown step $s"; rc=2 ;;
    esac
    echo "step $s: $(($(ms) - t0)) ms"
    pack
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv | tee "$LOGS/nvidia-smi-end.txt"
pack
exit $rc
