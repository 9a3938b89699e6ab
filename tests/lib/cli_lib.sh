# SPDX-License-Identifier: Apache-2.0
# tests/lib/cli_lib.sh: sourced by the CLI test scripts (test_cli*.sh) with the
# script's arguments: checks that $1 is the occsweep binary, makes an empty working directory
# (every run starts there, so a stray default CSV shows up) and defines the shared helpers.
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH/TO/occsweep (got '${1:-}')" >&2
    exit 99
fi
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
cwd=$work/cwd
mkdir "$cwd"
out=$work/stdout
err=$work/stderr
n_checks=0
n_failed=0
rc=0

# The command line as a shell would need it, so a failure line can be pasted back.
cmdline() { printf 'occsweep'; printf ' %q' "$@"; }

# check DESCRIPTION PROBLEM: PROBLEM empty = passed.
check() {
    n_checks=$((n_checks + 1))
    if [ -n "$2" ]; then
        n_failed=$((n_failed + 1))
        echo "FAIL: $1: $2"
    fi
}

lines() { awk 'END { print NR }' "$1"; }

# run_bin ARGS...: occsweep ARGS in $cwd, stdout to $out, stderr to $err, its exit status in
# $rc (the shell's own line about a child that died of a signal is dropped).
run_bin() { { (cd "$cwd" && exec "$BIN" "$@") >"$out" 2>"$err"; } 2>/dev/null; rc=$?; }

# refusal_problem WANT: after a run ($rc, $out, $err), empty when it was a refusal: exit 2,
# nothing on stdout, one stderr line holding WANT, no file made in $cwd; else what was wrong.
refusal_problem() {
    local first
    first=$(head -n 1 "$err")
    if [ "$rc" -ne 2 ]; then echo "exit $rc, expected 2: $first"
    elif [ -s "$out" ]; then echo "wrote to stdout: $(head -c 120 "$out")"
    elif [ "$(lines "$err")" -ne 1 ]; then echo "$(lines "$err") stderr lines, expected 1"
    elif [[ $first != "occsweep: "*"$1"* ]]; then echo "message lacks '$1': $first"
    elif [ -n "$(ls -A "$cwd")" ]; then echo "created $(ls -A "$cwd" | head -n 1)"
    fi
}
