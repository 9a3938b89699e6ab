#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/gpu_repeat.sh BUILD_DIR [N] [M] [OUT_DIR]: how often the GPU tests pass, for one call
# on the lent GPU. Brings BUILD_DIR up to date (one not configured yet is set up as
# gpu_check_lib.sh does: sm_90 alone), then runs each GPU test that judges a measured figure
# alone, N times in a row (default 20; meson test NAME; OCC_REQUIRE_GPU=1, so a skip is a
# failure):
#   gpu_plugin   the example plugins' residency within 2 points of the API's
#   gpu_figures  the residency of 32 copy/reduce points, the ladder's L1 step
# then the whole GPU suite M times (default 3: meson test --suite gpu; gpu_figures and
# gpu_plugin alone, the other five side by side). Prints "NAME: K of N passed" per test with the seconds of
# each run, the same per test over the suite runs, and keeps the log of each failing run (the
# failing test's output in it) under OUT_DIR/logs (default ./out-repeat). Exit 1 when a run
# failed.
# Time on the GPU, each test run alone on an H100, before gpu_figures was split out of
# gpu_sweep: gpu_plugin 7.4-8.6 s, gpu_sweep (both parts) 23-24 s, gpu_kernels 17 s, gpu_fma 1 s,
# gpu_chase and gpu_model_vs_api under 0.5 s; the suite about 50 s. gpu_figures is two short
# ladders and a 32-point sweep of --max-time 0.05, a few seconds of the 24 (not yet timed on its
# own): the defaults should take 20 x 8.5 + 20 x (a few) + 3 x 50 s, under 8 minutes; the script
# prints every run's seconds.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: tools/gpu/gpu_repeat.sh BUILD_DIR [N] [M] [OUT_DIR]" >&2; exit 2; }
export OCC_BUILD=$1
runs=${2:-20}
suites=${3:-3}
. "$(dirname "$0")/gpu_check_lib.sh" out-repeat "${4:-}"
OCC_ROOT=$PWD
. bench/setup.sh
occ_ensure_tools 0
export OCC_REQUIRE_GPU=1
mlog=$OCC_BUILD/meson-logs

t0=$(ms)
ninja -C "$OCC_BUILD" >"$LOGS/build-tests.log" 2>&1
say $? "test programs built ($(($(ms) - t0)) ms; $LOGS/build-tests.log)"

# mtest LOGBASE ARGS...: meson test ARGS into LOGS/LOGBASE.log, kept only when it fails.
mtest() {
    local base=$1
    shift
    meson test -C "$OCC_BUILD" --no-rebuild --print-errorlogs --logbase "$base" "$@" \
        >"$LOGS/$base.log" 2>&1
    local st=$?
    [ $st -eq 0 ] && rm -f "$LOGS/$base.log"
    return $st
}

repeat() { # repeat NAME RUNS: NAME alone RUNS times in a row
    local name=$1 n=$2 passed=0 secs="" i t
    for ((i = 1; i <= n; i++)); do
        t=$(ms)
        mtest "repeat-$name-$i" "$name" && passed=$((passed + 1))
        rm -f "$mlog/repeat-$name-$i".*
        secs="$secs $((($(ms) - t + 500) / 1000))"
    done
    echo "$name: $passed of $n passed (seconds a run:$secs)"
    [ "$passed" -eq "$n" ] || rc=1
}
repeat gpu_plugin "$runs"
repeat gpu_figures "$runs"

# The suite M times; each test's result per run from meson's JSON log.
results=$LOGS/suite-results.txt
: >"$results"
for ((j = 1; j <= suites; j++)); do
    t=$(ms)
    mtest "repeat-suite-$j" --suite gpu || rc=1
    [ -f "$mlog/repeat-suite-$j.json" ] && python3 -c 'import json, sys
for line in open(sys.argv[1]):
    if line.strip():
        r = json.loads(line)
        print(r["name"].split(":")[-1], r["result"])' "$mlog/repeat-suite-$j.json" >>"$results"
    rm -f "$mlog/repeat-suite-$j".*
    echo "suite run $j: $((($(ms) - t + 500) / 1000)) s"
done
awk -v m="$suites" '!($1 in n) {order[++k] = $1} {n[$1]++; ok[$1] += $2 == "OK"}
    END {for (i = 1; i <= k; i++) printf "%s: %d of %d passed (suite runs)\n", order[i], ok[order[i]], m}' \
    "$results"
echo "$([ $rc = 0 ] && echo PASS || echo FAIL) gpu_repeat: $(ls "$LOGS"/repeat-*.log 2>/dev/null | wc -l) failing run logs under $LOGS"
exit $rc
