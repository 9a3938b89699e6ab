# SPDX-License-Identifier: Apache-2.0
# tests/plots/plots_lib.sh: sourced (POSIX sh) by the plot test scripts after they set TEST_NAME:
# the tree's paths, the skip (77) without gnuplot, a temporary directory $T removed at exit, and the
# check counter.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PLOT="$ROOT/plots/plot"
FIX="$ROOT/tests/fixtures"

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "SKIP: gnuplot not found"
    exit 77
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/$TEST_NAME.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

checks=0
failed=0

check() { # check DESCRIPTION COMMAND...: counts, and reports a failing command
    desc=$1
    shift
    checks=$((checks + 1))
    if ! "$@"; then
        failed=$((failed + 1))
        echo "FAIL: $desc"
    fi
}
