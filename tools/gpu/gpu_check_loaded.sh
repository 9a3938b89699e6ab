#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/gpu_check_loaded.sh [OUT_DIR]: the GPU check of the loaded-latency model, for one call
# on the lent H200. Builds for sm_90 only (OCC_BUILD, default build-sm90), runs the CPU
# tests of the solver and the knee report, then the default copy, reduce and chase --mode warp
# sweeps (--max-time 0.2), each measuring the load levels (chase/loaded rows) before its points, and one
# copy sweep with --no-loaded (it must say it fell back to the unloaded model). Judges the
# CSVs with tools/analysis/loaded_check.py, which prints the latency levels and PASS/FAIL per
# target:
#   PASS: <csv>: model is the loaded curve (loaded latency L(X): 11 levels, ...)
#   PASS: <csv>: N of M points (>= 90%) predicted within 10%
#   PASS: <csv>: predicted knee within one level of measured for K variants
#   PASS: loaded-latency levels all ok (33 of 33)
#   PASS: idle mean latency ~342 ns vs ladder DRAM ~332 ns (within 5%)
#   PASS: loaded-latency levels: ~0.5 s (set-up + 33 launches; target <= 30 s)
# and checks that a resumed run keeps the copy sweep's levels (no level measured again, the same
# predictions). Writes under OUT_DIR (default ./out-loaded): the CSVs with their -knee.md,
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

# --resume of the finished copy sweep with its last 40 sweep rows removed: the levels are kept
# (none measured again), and the rows measured again are predicted from the same curve.
grep -v '^# end_status' "$OUT/copy.csv" | head -n -40 >"$OUT/copy-resumed.csv"
./run_sweep --kernel copy --max-time 0.2 --resume "$OUT/copy-resumed.csv" >"$LOGS/copy-resumed.out" \
    2>"$LOGS/copy-resumed.err"
say $? "resumed copy sweep ($(grep -o 'resuming.*' "$LOGS/copy-resumed.err" | head -n 1))"
python3 - "$OUT/copy.csv" "$OUT/copy-resumed.csv" <<'EOF'
import sys
sys.path.insert(0, 'tools/analysis')
from loaded_check import read
(_, a), (_, b) = read(sys.argv[1]), read(sys.argv[2])
key = lambda r: (r['variant'], r['lever'], r['occ_target_pct'])
pa = {key(r): r for r in a}
same_levels = all(pa[key(r)]['latency_mean_ns'] == r['latency_mean_ns'] for r in b
                  if r['mode'] == 'loaded')
# A row measured again has its own GB/s; its prediction is the same where it ran at the same
# residency (the model's input), so compare the predictions of the rows kept unchanged too.
same_pred = sum(1 for r in b if r['mode'] != 'loaded' and key(r) in pa and
                r['gbps_predicted'] == pa[key(r)]['gbps_predicted'])
n = sum(1 for r in b if r['mode'] != 'loaded')
print('%s: resumed run kept its %d levels unchanged (%s), %d of %d predictions identical'
      % ('PASS' if same_levels and len(b) == len(a) else 'FAIL',
         sum(1 for r in b if r['mode'] == 'loaded'), same_levels, same_pred, n))
sys.exit(0 if same_levels and len(b) == len(a) else 1)
EOF
say $? "resume keeps the levels (the model's curve comes from the kept rows)"

python3 tools/analysis/loaded_check.py "$OUT/copy.csv" "$OUT/reduce.csv" "$OUT/chase-warp.csv" \
    | tee "$LOGS/loaded.check"
[ "${PIPESTATUS[0]}" = 0 ] || rc=1

if command -v gnuplot >/dev/null 2>&1; then
    plots/plot --outdir "$OUT" "$OUT/copy.csv" "$OUT/reduce.csv" "$OUT/chase-warp.csv" \
        >"$LOGS/plot.log" 2>&1
    say $? "figures in $OUT ($(ls "$OUT" | grep -c '\.png$') PNG)"
fi
echo "loaded check: $([ "$rc" = 0 ] && echo PASS || echo FAIL)"
exit $rc
