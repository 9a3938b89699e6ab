#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/build/test_results_order.sh OCCSWEEP: the README's two commands work in either order. In a
# scratch copy of the tree, a run to the default location (a fake device: it writes a CSV and its
# knee report, no GPU), then the results checks of tests/build/test_results.py (readme, size,
# revision, links) on that copy: each passes, so a user's run never lands among the reference
# sets of results/. Then the copy as a git checkout: git ignores the run's CSV, and with a user's
# own files inside results/ (a CSV in a GPU folder, a folder of its own) the checks read only the
# tracked reference files and pass (that part skipped without git).
# Prints one line per failed check and "N checks, M failed"; exits 0 (all passed) or 1.
set -u
occsweep=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/wrapper_lib.sh"
checks=0
failed=0
# check WHAT PROBLEM: a failure when PROBLEM is not empty.
check() {
    checks=$((checks + 1))
    [ -z "$2" ] && return
    failed=$((failed + 1))
    echo "FAIL $1: $2"
}
# results_checks WHEN: the four checks of test_results.py on the scratch tree.
results_checks() {
    local c out
    for c in readme size revision links; do
        out=$(python3 "$occ_test_src/tests/build/test_results.py" "$tree" "$c" 2>&1)
        check "results $c $1" "$([ $? -eq 0 ] || echo "$out" | grep -E 'Error|FAIL|AssertionError' | head -n 3)"
    done
}

tree=$occ_test_tmp/tree
scratch_copy "$tree"
touch "$occ_test_tmp/before"
out=$(cd "$tree" && OCC_FAKE_DEVICES=sm_90 "$occsweep" --dry-run --kernel reduce --unroll 1 --vec 16 \
    --occ 50,100 --quiet 2>&1)
rc=$?
check "a fake run to the default location: exit 0" "$([ $rc -eq 0 ] || echo "exit $rc: $out")"
written=$(cd "$tree" && find . -newer "$occ_test_tmp/before" -name '*.csv' | sort)
check "the run wrote one CSV in the tree" "$([ "$(echo "$written" | grep -c .)" -eq 1 ] ||
    echo "written: '$written'")"
check "the CSV is not under results/" "$(echo "$written" | grep '^\./results/')"
results_checks "after a run to the default location"

if command -v git >/dev/null 2>&1; then
    git -C "$tree" init -q && git -C "$tree" add -A &&
        git -C "$tree" -c user.name=t -c user.email=t@t commit -q -m tree ||
        check "git init of the scratch tree" "failed"
    check "git ignores the run's CSV" "$(echo "$written" | while read -r f; do
        git -C "$tree" check-ignore -q "${f#./}" || echo "$f is not ignored"; done)"
    gpu=$(cd "$tree/results" && ls -d */ | head -n 1)
    cp "$tree/tests/fixtures/reduce-synthetic.csv" "$tree/results/${gpu}mine.csv"
    echo x >"$tree/results/${gpu}mine.svg"
    mkdir -p "$tree/results/mine"
    cp "$tree/tests/fixtures/reduce-synthetic.csv" "$tree/results/mine/reduce.csv"
    results_checks "with a user's own files in results/ of a checkout"
fi
echo "$checks checks, $failed failed"
[ "$failed" -eq 0 ]
