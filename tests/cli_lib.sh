# tests/cli_lib.sh: sourced by the CLI test scripts (test_cli.sh, test_cli_options.sh) with the
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
