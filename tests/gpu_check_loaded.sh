#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/gpu_check_loaded.sh [OUT_DIR]: the GPU check of the loaded-latency model (issue 12), for
# one call on the lent H200. Builds for sm_90 only (OCC_BUILD, default build-sm90), runs the CPU
# tests of the solver and the knee report, then the default copy, reduce and chase --mode warp
# sweeps (--max-time 0.2), each measuring its own loaded-latency curve before the points, and one
# copy sweep with --no-loaded (it must say it fell back to the unloaded model). Judges the
# CSVs with tests/loaded_check.py, which prints the latency levels and PASS/FAIL per target:
#   PASS: <csv>: model is the loaded curve (loaded latency L(X): 11 levels, ...)
#   PASS: <csv>: N of M points (>= 90%) predicted within 10%
#   PASS: <csv>: predicted knee within one level of measured for K variants
#   PASS: loaded-latency levels all ok (11)
#   PASS: idle mean latency ~345 ns vs ladder DRAM ~332 ns (within 5%)
#   PASS: loaded-latency sweep wall time ~3 s (target <= 30 s)
# Writes under OUT_DIR (default ./out-loaded): the CSVs with their -knee.md and -loaded.csv,
# logs/, and the figures when gnuplot is there. About 2 minutes of GPU time plus the build. Exit
# 1 when a step or a check failed.
. "$(dirname "$0")/gpu_check_lib.sh" out-loaded "$@"
(OCC_ROOT=$PWD && . bench/setup.sh && occ_ensure_tools 0 &&
    meson test -C "$OCC_BUILD" --no-rebuild --print-errorlogs unit_loaded_model unit_model) \
    >"$LOGS/tests.log" 2>&1
say $? "CPU tests of the solver and the knee report ($LOGS/tests.log)"

sweep() { # sweep NAME ARGS...: one sweep into OUT/NAME.csv
    local name=$1 t0
    shift
    t0=$(ms)
    ./run_sweep "$@" --max-time 0.2 --force --out "$OUT/$name.csv" >"$LOGS/$name.out" \
        2>"$LOGS/$name.err"
    say $? "sweep $name: $* ($(($(ms) - t0)) ms)"
    grep -E '^model' "$LOGS/$name.out" | sed 's/^/  /'
}
sweep copy --kernel copy
sweep reduce --kernel reduce
sweep chase-warp --kernel chase --mode warp
sweep copy-unloaded --kernel copy --unroll 4 --vec 16 --no-loaded
grep -q 'fallback: no loaded-latency curve measured' "$LOGS/copy-unloaded.out" &&
    grep -q '^# model=unloaded DRAM latency' "$OUT/copy-unloaded.csv"
say $? "--no-loaded says it fell back to the unloaded model"

python3 tests/loaded_check.py "$OUT/copy.csv" "$OUT/reduce.csv" "$OUT/chase-warp.csv" \
    | tee "$LOGS/loaded.check"
[ "${PIPESTATUS[0]}" = 0 ] || rc=1

if command -v gnuplot >/dev/null 2>&1; then
    plots/plot --outdir "$OUT" "$OUT/copy.csv" "$OUT/reduce.csv" "$OUT/chase-warp.csv" \
        >"$LOGS/plot.log" 2>&1
    say $? "figures in $OUT ($(ls "$OUT" | grep -c '\.png$') PNG)"
fi
echo "loaded check: $([ "$rc" = 0 ] && echo PASS || echo FAIL)"
exit $rc
