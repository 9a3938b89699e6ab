#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/gpu_check_ladder.sh [OUT_DIR]: the GPU check of the register ladder (--lever),
# for one call on the lent H200. Builds for sm_90 only (its own build directory, so the default
# build is left as it is), runs the GPU tests that cover every _r<cap> twin (gpu_kernels: each
# verified against the host; gpu_model_vs_api: registers and local bytes from
# cudaFuncGetAttributes equal the build's table, the runtime's occupancy the model's) and the CPU
# tests of the ladder, then the sweeps that are the ladder's evidence, each --lever both at every
# level of 128-thread blocks from 25% to 100%, --max-time 0.25:
#   reduce  --unroll 4,8 --vec 8,16   104 points; reduce_u8_v16 is the target: its natural 55
#                                     registers stop at 56.25%, the ladder must reach 100%
#   copy    --unroll 8 --vec 16        26 points
# and judges each CSV with tests/cli/ladder_check.py against the build's kernel_resources.csv:
# per level the pad and bounds GB/s, the twin, its registers and spill bytes, then PASS/FAIL
# lines (reach: bounds ok at every level from the natural limit to 100%; caps; rungs: levels set
# by registers alone; table: registers and local bytes as built). Expected on the H200:
#   PASS: reduce_u8_v16 reach: bounds ok at every level 56.25..100% (8 levels)
#   PASS: reduce_u8_v16 rungs: 3 levels set by registers alone (..._r48 62.5%, ..._r40 75%,
#         ..._r32 100%)
# Writes under OUT_DIR (default ./out-ladder): the CSVs, logs/ (build, tests, each sweep's
# output and its check), and the figures when gnuplot is there (plots/plot: the levers figure
# <csv>-levers-reduce-u8-v16 among them; else draw them where gnuplot is: plots/plot CSV...).
# About 1 minute of GPU time plus the build. Exit 1 when a step or a check failed.
. "$(dirname "$0")/gpu_check_lib.sh" out-ladder "$@"

t0=$(ms)
(OCC_ROOT=$PWD && . bench/setup.sh && occ_ensure_tools 0 &&
    OCC_REQUIRE_GPU=1 meson test -C "$OCC_BUILD" --no-rebuild --print-errorlogs \
    gpu_kernels gpu_model_vs_api sass_audit unit_regcap unit_plan unit_occupancy_vs_cudaocc) \
    >"$LOGS/tests.log" 2>&1
say $? "tests: every twin verified and its resources as built ($(($(ms) - t0)) ms; $(
    grep -E '^(Ok|Fail):' "$LOGS/tests.log" | tr -s ' \n' ' '))"
python3 tests/build/test_sass_audit.py "$OCC_BUILD/kernels/kernel_resources.csv" | grep -E '^spills:' |
    sed 's/^/  /'

sweep() { # sweep NAME ARGS...: one --lever both sweep into OUT/NAME.csv, then its check
    local name=$1 t0
    shift
    t0=$(ms)
    ./run_sweep "$@" --lever both --occ 25..100 --max-time 0.25 --quiet --force \
        --out "$OUT/$name.csv" >"$LOGS/$name.out" 2>"$LOGS/$name.err"
    say $? "sweep $name: $* ($(($(ms) - t0)) ms)"
    tail -n 3 "$LOGS/$name.err"
    python3 tests/cli/ladder_check.py "$OUT/$name.csv" "$OCC_BUILD/kernels/kernel_resources.csv" \
        | tee "$LOGS/$name.check"
    [ "${PIPESTATUS[0]}" = 0 ] || rc=1
}
sweep reduce-ladder --kernel reduce --unroll 4,8 --vec 8,16
sweep copy-ladder --kernel copy --unroll 8 --vec 16

if command -v gnuplot >/dev/null 2>&1; then
    plots/plot --outdir "$OUT" "$OUT/reduce-ladder.csv" "$OUT/copy-ladder.csv" >"$LOGS/plot.log" 2>&1
    say $? "figures in $OUT (the levers figures: $(ls "$OUT" | grep -c 'levers-.*\.png') PNG)"
else
    echo "no gnuplot here: draw the figures with plots/plot $OUT/reduce-ladder.csv $OUT/copy-ladder.csv"
fi
echo "ladder check: $([ "$rc" = 0 ] && echo PASS || echo FAIL)"
exit $rc
