#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/sanitize.sh BUILD_DIR OUT_DIR: NVIDIA compute-sanitizer over every kernel variant, on
# the GPU machine. Tools: memcheck, racecheck, then initcheck where it works. Each tool runs:
#   copy, reduce      --lever both: every natural variant and the twin of the register ladder
#                     the bounds lever takes, at 25% (both levers reach it; the twin with the
#                     most registers, padded) and 100% (_r32 or _r40; natural ones may be skip
#                     rows); test_gpu_kernels runs every twin
#   chase-warp        every K at 6.25% (1 block/SM): 8M holds >= 8 lines per chain for K=8;
#                     K=1,2 also at 25%
#   chase-thread      every K at 6.25%: 48M of 32-byte lines holds >= 8 lines per chain for K=8
#   chase-latency     the latency ladder over 4K..64K
#   test_gpu_kernels, test_gpu_chase   (OCC_REQUIRE_GPU=1: a skip is a failure)
# One sample per point (--max-time 0.001 --min-samples 1): sanitizing needs each launch once, not
# a converged median. API errors are left to the programs (--report-api-errors no): one that
# matters ends the program with a non-zero exit, which fails the run; the counts are the kernels'.
# A run's whole output goes to OUT_DIR/<tool>-<name>.log, its CSV to OUT_DIR/csv/; one line per
# run on stdout, e.g. "memcheck copy: 0 errors (31 s)", counted from the tool's "ERROR SUMMARY:
# N errors" (racecheck: "RACECHECK SUMMARY ... (N errors, M warnings)"; warnings are shown, and
# do not fail a run). Exit 0: every run finished with 0 errors and exit status 0. 1: a run
# reported errors, exited non-zero, printed no summary or timed out. 2: usage.
# Environment: COMPUTE_SANITIZER (the binary; default: PATH, then /usr/local/cuda/bin),
# OCC_SANITIZE_TOOLS (default "memcheck racecheck initcheck"), OCC_SANITIZE_TIMEOUT_S (per run,
# default 150), OCC_SANITIZE_PARALLEL (default 1: the tools run side by side, each its runs in
# turn; only when the GPU's compute mode is Default, as other modes refuse a second process).
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD_DIR OUT_DIR (got $# arguments)" >&2
    exit 2
fi
if [ ! -d "$1" ]; then
    echo "sanitize: BUILD_DIR '$1' is not a directory" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
mkdir -p "$2/csv" || exit 2
out=$(cd "$2" && pwd)

sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer)}
sanitizer=${sanitizer:-/usr/local/cuda/bin/compute-sanitizer}
if [ ! -x "$sanitizer" ]; then
    echo "sanitize: no compute-sanitizer on PATH or in /usr/local/cuda/bin (set COMPUTE_SANITIZER)"
    exit 1
fi
tools=${OCC_SANITIZE_TOOLS:-memcheck racecheck initcheck}
limit_s=${OCC_SANITIZE_TIMEOUT_S:-150}
parallel=${OCC_SANITIZE_PARALLEL:-1}
compute_mode=$(nvidia-smi --query-gpu=compute_mode --format=csv,noheader 2>/dev/null | head -n 1)
[ "$compute_mode" = Default ] || parallel=0
error_rc=86 # what compute-sanitizer exits with when it found errors; no occsweep program uses it
runs="copy reduce chase-warp chase-thread chase-latency test_gpu_kernels test_gpu_chase"

echo "sanitize: $("$sanitizer" --version 2>&1 | grep -m 1 -i version)"
echo "sanitize: tools '$tools', $(echo "$runs" | wc -w) runs each, parallel=$parallel" \
    "(compute mode '${compute_mode:-unknown}'), logs in $out"

# Sets cmd to the command of run NAME under TOOL. Commas in --occ values are meant literally:
# shellcheck disable=SC2054
command_for() {
    local bin=$build/bench/occsweep csv=$out/csv/$1-$2.csv
    local quick=(--lever both --max-time 0.001 --min-samples 1 --quiet --force --out "$csv")
    case $2 in
    copy) cmd=("$bin" --kernel copy --occ 25,100 --size 4M "${quick[@]}") ;;
    reduce) cmd=("$bin" --kernel reduce --occ 25,100 --size 4M "${quick[@]}") ;;
    chase-warp) cmd=("$bin" --kernel chase --mode warp --occ 6.25,25 --size 8M "${quick[@]}") ;;
    chase-thread) cmd=("$bin" --kernel chase --mode thread --occ 6.25 --size 48M "${quick[@]}") ;;
    chase-latency)
        cmd=("$bin" --kernel chase --mode latency --footprint 4K..64K --quiet --force
             --out "$csv") ;;
    *) cmd=("$build/tests/gpu/$2") ;;
    esac
}

# Prints "ERRORS WARNINGS" summed over every summary line of the log, or nothing without one.
summary_counts() {
    local race='RACECHECK SUMMARY: [0-9]* hazards\{0,1\} displayed'
    race+=' (\([0-9]*\) errors\{0,1\}, \([0-9]*\) warnings\{0,1\})'
    if [ "$2" = racecheck ] && grep -q 'RACECHECK SUMMARY:' "$1"; then
        sed -n "s/.*$race.*/\1 \2/p" "$1"
    else
        sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors\{0,1\}.*/\1 0/p' "$1"
    fi | awk '{e += $1; w += $2; n++} END {if (n) print e, w}'
}

# run_one TOOL NAME [PROBE]: one sanitized run and its line. Returns 0 (clean) or 1 (failed); with
# PROBE set, 2 when the tool printed no summary at all (initcheck's "does not work here").
run_one() {
    local tool=$1 name=$2 probe=${3:-} log=$out/$1-$2.log start rc secs counts errors warnings
    local note=""
    command_for "$tool" "$name"
    if [ ! -x "${cmd[0]}" ]; then
        echo "$tool $name: FAILED: ${cmd[0]} is not an executable (build it first)"
        return 1
    fi
    rm -f "$out/csv/$tool-$name.csv"
    start=$(date +%s)
    # In the background so that a signal to this script can reach it (see stop_all).
    OCC_REQUIRE_GPU=1 timeout -k 15 "$limit_s" "$sanitizer" --tool "$tool" \
        --error-exitcode "$error_rc" --report-api-errors no "${cmd[@]}" >"$log" 2>&1 &
    echo $! >"$out/.running-$tool"
    wait $!
    rc=$?
    rm -f "$out/.running-$tool"
    secs=$(($(date +%s) - start))
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        echo "$tool $name: FAILED: timed out or killed at $secs s (limit $limit_s s:" \
            "OCC_SANITIZE_TIMEOUT_S); see $log"
        return 1
    fi
    counts=$(summary_counts "$log" "$tool")
    if [ -z "$counts" ] && [ -n "$probe" ]; then
        echo "$tool $name: no summary from the tool (exit $rc): $tool does not work here;" \
            "its runs are skipped; see $log"
        return 2
    fi
    if [ -z "$counts" ]; then
        echo "$tool $name: FAILED: no summary line from the tool (exit $rc, $secs s); see $log"
        return 1
    fi
    read -r errors warnings <<<"$counts"
    [ "$tool" = racecheck ] && note=", $warnings warnings"
    if [ "$errors" -ne 0 ]; then
        echo "$tool $name: $errors errors$note ($secs s) FAILED; see $log"
        return 1
    fi
    if [ $rc -ne 0 ]; then
        echo "$tool $name: 0 errors$note ($secs s) FAILED: the program exited $rc; see $log"
        return 1
    fi
    echo "$tool $name: 0 errors$note ($secs s)"
}

# run_tool TOOL: every run under TOOL; exit status = failed runs. initcheck is optional: a first
# run without any summary means the tool cannot run here, and its other runs are skipped.
run_tool() {
    local tool=$1 failed=0 probe="" rc
    [ "$tool" = initcheck ] && probe=1
    for name in $runs; do
        run_one "$tool" "$name" $probe
        rc=$?
        [ $rc -eq 2 ] && return 0
        [ $rc -ne 0 ] && failed=$((failed + 1))
        probe=""
    done
    return $failed
}

# Ctrl-C or TERM: end the tool loops, then the sanitized runs this script started (timeout passes
# the signal on to compute-sanitizer and the program).
pids=()
stop_all() {
    local f
    for f in "${pids[@]}"; do
        kill -TERM "$f" 2>/dev/null # first, so that no loop starts another run
    done
    for f in "$out"/.running-*; do
        [ -f "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null
    done
    rm -f "$out"/.running-*
    echo "sanitize: interrupted"
    exit 1
}
trap stop_all INT TERM

t0=$(date +%s)
failed=0
if [ "$parallel" = 1 ]; then
    for tool in $tools; do
        run_tool "$tool" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do
        wait "$pid"
        failed=$((failed + $?))
    done
else
    for tool in $tools; do
        run_tool "$tool"
        failed=$((failed + $?))
    done
fi
rm -f "$out"/.running-*
echo "sanitize: $failed failed run(s) in $(($(date +%s) - t0)) s"
[ $failed -eq 0 ]
