#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/test_cli_out.sh: occsweep refuses a bad --out before any GPU work.
# Usage: test_cli_out.sh PATH/TO/occsweep
# Real runs (no --dry-run: dry runs write nothing and do not check --out): device nodes, a FIFO,
# a socket, a directory and a path under a file are refused with exit 2 and one stderr line,
# --force or not, before the device is opened, so on a machine without a GPU the exit is 2, not 3
# (no usable device). Every device node is left a device node. A value that looks like an option
# ("--out --force") is a usage error too. No run here reaches the GPU: each is refused first.
# Prints one line per failed check and "N checks, M failed"; exits 0 (all passed) or 1.
set -u

. "$(dirname "$0")/cli_lib.sh"

# refused WANT ARGS...: exit 2, nothing on stdout, one stderr line holding WANT, no file made.
refused() {
    local want=$1
    shift
    { (cd "$cwd" && exec "$BIN" --quiet "$@") >"$out" 2>"$err"; } 2>/dev/null
    rc=$?
    check "$(cmdline --quiet "$@")" "$(refusal_problem "$want")"
}

mkfifo "$work/fifo.csv"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$work/sock.csv"
mkdir "$work/dir.csv"
echo x >"$work/file"
not_regular="(the output must be a regular file or a new path)"
for force in "" --force; do
    for dev in /dev/null /dev/full /dev/zero; do
        refused "--out $dev: is a character device $not_regular" --out "$dev" $force
    done
    refused "fifo.csv: is a FIFO $not_regular" --out "$work/fifo.csv" $force
    refused "sock.csv: is a socket $not_regular" --out "$work/sock.csv" $force
    refused "dir.csv: is a directory $not_regular" --out "$work/dir.csv" $force
    refused "file/out.csv: a parent of it is not a directory" --out "$work/file/out.csv" $force
    refused "file/a/b.csv: a parent of it is not a directory" --out "$work/file/a/b.csv" $force
done
for dev in /dev/null /dev/full /dev/zero; do
    check "$dev is still a character device" "$([ -c "$dev" ] || echo "it is not")"
done
check "the FIFO is still a FIFO" "$([ -p "$work/fifo.csv" ] || echo "it is not")"
refused "file: exists; use --force" --out "$work/file"
refused "--out: '--force' looks like an option, not a value (accepted: " --out --force
refused "--out: '--force' looks like an option, not a value (accepted: " --out=--force
refused "--out: '-h' looks like an option, not a value (accepted: " --out -h
check "no file named --force" "$([ ! -e "$cwd/--force" ] || echo "created one")"
# A 100 KB --out: the message quotes a prefix and still ends with the reason.
long=$(head -c 102400 /dev/zero | tr '\0' a)
refused "...: File name too long $not_regular" --out "$work/file/$long" --force

echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
