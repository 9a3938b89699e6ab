#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The set-up wrapper (bench/setup.sh through run_sweep) empties only a build directory it made
# itself (the .occ-build marker), never one the user named and filled:
#  (a) OCC_BUILD naming a directory of the user's and a configure that fails: every file stays;
#  (b) OCC_BUILD naming a directory configured for another source tree, without the marker:
#      refused with one line and exit 2, every file stays;
#  (c) a directory the wrapper made and whose configure failed: emptied but for lock and marker.
# No build happens: each configure fails at once (an unknown meson option) or is refused.
set -u
. "$(dirname "$0")/wrapper_lib.sh"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
bad_args="-Dno_such_option=1"

# (a) the user's directory, a failing configure.
v=$occ_test_tmp/v
mkdir -p "$v/keep"
echo mine >"$v/notes.txt"
echo mine >"$v/keep/data.csv"
OCC_BUILD=$v OCC_MESON_ARGS=$bad_args "$occ_test_src/run_sweep" "${sweep_args[@]}" \
    >"$occ_test_tmp/a.out" 2>"$occ_test_tmp/a.err"
rc=$?
[ "$rc" = 1 ] || fail "(a) a failed configure: exit $rc, want 1"
if [ -f "$v/notes.txt" ] && [ -f "$v/keep/data.csv" ]; then
    echo "(a) the user's files survive a failed configure in OCC_BUILD"
else
    fail "(a) the user's files in OCC_BUILD are gone after a failed configure: $(ls -A "$v")"
fi

# (b) a directory configured for another source tree, not made by the wrapper.
w=$occ_test_tmp/w
mkdir -p "$w/meson-info"
printf '{"directories": {"source": "%s"}}\n' "$occ_test_tmp/elsewhere" >"$w/meson-info/meson-info.json"
echo mine >"$w/notes.txt"
OCC_BUILD=$w "$occ_test_src/run_sweep" "${sweep_args[@]}" >"$occ_test_tmp/b.out" 2>"$occ_test_tmp/b.err"
rc=$?
lines=$(wc -l <"$occ_test_tmp/b.err")
if [ "$rc" = 2 ] && [ "$lines" = 1 ] && grep -q 'was not made by occsweep' "$occ_test_tmp/b.err" &&
    [ -f "$w/notes.txt" ] && [ -f "$w/meson-info/meson-info.json" ]; then
    echo "(b) refused: $(cat "$occ_test_tmp/b.err")"
else
    fail "(b) a foreign build directory: exit $rc (want 2), $lines lines, files: $(ls -A "$w")"
    cat "$occ_test_tmp/b.err"
fi

# (c) a directory the wrapper made: a failed configure leaves nothing of meson's behind.
x=$occ_test_tmp/x
OCC_BUILD=$x OCC_MESON_ARGS=$bad_args "$occ_test_src/run_sweep" "${sweep_args[@]}" \
    >"$occ_test_tmp/c.out" 2>"$occ_test_tmp/c.err"
rc=$?
left=$(ls -A "$x" | grep -v '^\.occ-lock' | grep -v '^\.occ-build$')
if [ "$rc" = 1 ] && [ -f "$x/.occ-build" ] && [ -z "$left" ]; then
    echo "(c) the wrapper's own directory is emptied after a failed configure"
else
    fail "(c) exit $rc (want 1), marker $([ -f "$x/.occ-build" ] && echo present || echo missing), left: $left"
fi

echo "failures: $failures"
[ "$failures" = 0 ]
