#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Concurrent set-up wrappers in one checkout (a scratch copy, sm_90 only): 6 run_sweep at once on
# first use, then 3 rounds of 6 after a touch of a harness source; every run exits 0 and prints its
# plan. A run with nothing changed leaves the binary as it was (build_info.h is regenerated on every
# build but rewritten only when it changes, so nothing relinks). Two run_tests at once, on suites of
# different sizes, each count their own results (the counts meson test itself prints, timeouts
# counted as failed), and name each skipped test with its reason.
set -u
. "$(dirname "$0")/wrapper_lib.sh"
tree=$occ_test_tmp/tree
scratch_copy "$tree"
failures=0

round() {
    local i pids=()
    for i in 1 2 3 4 5 6; do
        "$tree/run_sweep" "${sweep_args[@]}" \
            >"$occ_test_tmp/$1.$i.out" 2>"$occ_test_tmp/$1.$i.err" &
        pids+=($!)
    done
    for i in 1 2 3 4 5 6; do
        if ! wait "${pids[i - 1]}" || ! grep -q '^plan for sm_90: ' "$occ_test_tmp/$1.$i.out"; then
            echo "FAIL: $1, run $i:"; tail -n 6 "$occ_test_tmp/$1.$i.err"
            failures=$((failures + 1))
        fi
    done
    echo "$1: 6 concurrent run_sweep done"
}

round first-use
for r in 1 2 3; do
    touch "$tree/harness/csv/csv_write.c"
    round "touch-$r"
done

bin=$tree/build/bench/occsweep
before=$(stat -c '%i %Y' "$bin")
"$tree/run_sweep" "${sweep_args[@]}" >/dev/null
after=$(stat -c '%i %Y' "$bin")
if [ "$before" != "$after" ]; then
    echo "FAIL: a run with nothing changed replaced the binary ($before -> $after)"
    failures=$((failures + 1))
fi

# run_tests' closing line against the summary meson test prints from its own results.
check_counts() {
    local out=$occ_test_tmp/$1.out
    local want; want=$(awk '/^Ok:/ {p = $2} /^Fail:/ {f += $2} /^Timeout:/ {f += $2}
        /^Skipped:/ {s = $2} END {printf "tests: %d passed, %d failed, %d skipped", p, f, s}' "$out")
    local got; got=$(grep '^tests: ' "$out")
    if ! grep -q '^Ok: *[1-9]' "$out" || [ "$got" != "$want" ]; then
        echo "FAIL: run_tests --suite $1 said '$got'; meson test counted '$want'"
        failures=$((failures + 1))
    elif [ "$(awk '/^Ok:/ {f = 1} f && /^skip: / {n++} END {print n + 0}' "$out")" != \
        "$(awk '/^Skipped:/ {s = $2} END {print s + 0}' "$out")" ]; then
        echo "FAIL: run_tests --suite $1: not one 'skip: NAME: REASON' line per skipped test"
        failures=$((failures + 1))
    else
        echo "run_tests --suite $1: $got"
    fi
}
"$tree/run_tests" --suite unit >"$occ_test_tmp/unit.out" 2>&1 &
unit_pid=$!
"$tree/run_tests" --suite cli >"$occ_test_tmp/cli.out" 2>&1 &
cli_pid=$!
wait "$unit_pid"; wait "$cli_pid"
check_counts unit
check_counts cli

echo "failures: $failures"
[ "$failures" -eq 0 ]
