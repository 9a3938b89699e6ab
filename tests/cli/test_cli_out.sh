#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_cli_out.sh: occsweep refuses a bad --out before any GPU work.
# Usage: test_cli_out.sh PATH/TO/occsweep
# Real runs (no --dry-run: dry runs write nothing and do not check --out): device nodes, a FIFO,
# a socket, a directory and a path under a file are refused with exit 2 and one stderr line,
# --force or not, before the device is opened, so on a machine without a GPU the exit is 2, not 3
# (no usable device). Every device node is left a device node. A value that looks like an option
# ("--out --force") is a usage error too. No run here reaches the GPU: each is refused first.
# Fake device runs (OCC_FAKE_DEVICES) write: --out NEWDIR/ is refused with nothing created, a
# relative path under a missing directory is written, a write failure (ulimit -f) says FAILED and
# exits 1, and 8 runs at once on one --out --force each finish or refuse with one line, leaving a
# file that parses.
# Prints one line per failed check and "N checks, M failed"; exits 0 (all passed) or 1.
set -u

. "$(dirname "$0")/../lib/cli_lib.sh"

# refused WANT ARGS...: exit 2, nothing on stdout, one stderr line holding WANT, no file made.
refused() {
    local want=$1
    shift
    run_bin --quiet "$@"
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
refused "...: the name is too long (at most" --out "$work/file/$long" --force

# Fake device runs (OCC_FAKE_DEVICES, --dry-run: they write a CSV, no GPU).
FAKE=(--dry-run --kernel copy --unroll 1,4 --vec 16 --occ 12.5..100)
# A missing directory named with a trailing '/': refused before anything is created.
OCC_FAKE_DEVICES=sm_90 refused "newdir/: ends in '/', a directory's name" "${FAKE[@]}" --out newdir/
# A relative path under a missing directory: the directory is made, as for an absolute path.
OCC_FAKE_DEVICES=sm_90 run_bin --quiet "${FAKE[@]}" --out sub/x.csv
check "--out sub/x.csv (sub missing): written" \
    "$([ "$rc" -eq 0 ] && [ -s "$cwd/sub/x.csv" ] || echo "exit $rc: $(head -n 2 "$err")")"
rm -rf "$cwd/sub"

# A write that fails (ulimit -f 16: 8 KiB, SIGXFSZ ignored so write() says EFBIG): no "wrote"
# line, a FAILED line naming the file, one stderr line naming the .partial that keeps the rows,
# exit 1.
(cd "$cwd" && trap '' XFSZ && ulimit -f 16 &&
    OCC_FAKE_DEVICES=sm_90 exec "$BIN" --quiet "${FAKE[@]}" --out big.csv) >"$out" 2>"$err"
rc=$?
check "a failed write: exit 1, FAILED on stdout, one stderr line naming big.csv.partial" \
    "$([ "$rc" -eq 1 ] && grep -q '^FAILED to write big.csv (' "$out" && ! grep -q '^wrote' "$out" &&
       [ "$(lines "$err")" -eq 1 ] &&
       grep -q '^occsweep: writing big.csv failed; the rows written are in big.csv.partial$' "$err" &&
       [ -s "$cwd/big.csv.partial" ] && [ ! -e "$cwd/big.csv" ] ||
       echo "exit $rc: $(head -n 2 "$out") / $(head -n 2 "$err")")"
rm -f "$cwd/big.csv.partial"

# Eight runs at once on one --out with --force (5 ms a point, so they overlap): each finishes
# (exit 0) or is refused with one line (exit 2); the file left parses and no .partial is left.
pids=()
for i in 1 2 3 4 5 6 7 8; do
    (cd "$cwd" && OCC_FAKE_DEVICES=sm_90 OCC_FAKE_POINT_MS=5 exec "$BIN" --quiet "${FAKE[@]}" \
        --out same.csv --force) >"$work/c$i.out" 2>"$work/c$i.err" &
    pids+=($!)
done
finished=0
for i in 1 2 3 4 5 6 7 8; do
    wait "${pids[i - 1]}"
    rc=$?
    [ "$rc" -eq 0 ] && finished=$((finished + 1))
    check "concurrent run $i: exit 0, or 2 with one line" \
        "$([ "$rc" -eq 0 ] || { [ "$rc" -eq 2 ] && [ "$(lines "$work/c$i.err")" -eq 1 ]; } ||
           echo "exit $rc: $(head -n 3 "$work/c$i.err")")"
done
check "concurrent runs: at least one finished" "$([ "$finished" -ge 1 ] || echo none)"
"$BIN" --recompute "$cwd/same.csv" >"$out" 2>"$err"
rc=$?
check "concurrent runs: the file left parses (--recompute)" \
    "$([ "$rc" -eq 0 ] || echo "exit $rc: $(head -n 2 "$err")")"
check "concurrent runs: no .partial left" "$([ ! -e "$cwd/same.csv.partial" ] || echo "one is")"

# Output that cannot be written is a failure: stdout on a full device (/dev/full) is exit 1 with
# one stderr line, for every command that prints (it was exit 0).
root=${OCC_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
for args in "--dry-run --arch sm_90 --kernel reduce" "--list" "--help" \
    "--recompute $root/tests/data/h100-reduce-mission-5900278.csv" \
    "--calc --arch sm_90 --block 256 --regs 40 --smem 16K"; do
    # shellcheck disable=SC2086 # each case is a list of arguments
    { (cd "$cwd" && exec "$BIN" $args) >/dev/full 2>"$err"; } 2>/dev/null; rc=$?
    check "occsweep $args >/dev/full: exit 1, one line saying the output failed" \
        "$([ "$rc" -eq 1 ] && [ "$(lines "$err")" -eq 1 ] && grep -q 'writing the output failed' "$err" ||
           echo "exit $rc: $(head -n 2 "$err")")"
done
rm -f "$cwd/full.csv"
{ (cd "$cwd" && OCC_FAKE_DEVICES=sm_90 exec "$BIN" --quiet "${FAKE[@]}" --out full.csv) >/dev/full 2>"$err"; } 2>/dev/null; rc=$?
check "a fake run's 'wrote' line to /dev/full: exit 1, the CSV complete all the same" \
    "$([ "$rc" -eq 1 ] && grep -q '^# end_status=complete' "$cwd/full.csv" || echo "exit $rc: $(head -n 2 "$err")")"

# A leftover OCC_NCU_PASS (the --ncu child's marker) in the environment: refused with one line,
# nothing written, the file it names untouched (it silently dropped --out, --resume and --json).
echo "the user's notes" >"$work/notes.tsv"
for leftover in "$work/gone/manifest.tsv" "$work/notes.tsv"; do
    { (cd "$cwd" && OCC_NCU_PASS=$leftover OCC_FAKE_DEVICES=sm_90 exec "$BIN" --quiet "${FAKE[@]}" \
        --out ncu.csv) >"$out" 2>"$err"; } 2>/dev/null; rc=$?
    check "OCC_NCU_PASS=$leftover left in the environment: exit 2, one line, nothing written" \
        "$([ "$rc" -eq 2 ] && [ "$(lines "$err")" -eq 1 ] && grep -q 'unset OCC_NCU_PASS' "$err" &&
           [ ! -e "$cwd/ncu.csv" ] && [ "$(cat "$work/notes.tsv")" = "the user's notes" ] ||
           echo "exit $rc: $(head -n 2 "$err")")"
done

# An --out name the file system would refuse (250 bytes, under a missing directory): refused before
# the directory is made (it was left behind, empty).
long=$(printf 'a%.0s' $(seq 250))
{ (cd "$work/dry" 2>/dev/null || mkdir -p "$work/dry" && cd "$work/dry" && OCC_FAKE_DEVICES=sm_90 exec "$BIN" --quiet "${FAKE[@]}" --out "newdir/$long.csv") >"$out" 2>"$err"; } 2>/dev/null; rc=$?
check "--out with a 250-byte file name under a missing directory: exit 2, one line, no directory made" \
    "$([ "$rc" -eq 2 ] && [ "$(lines "$err")" -eq 1 ] && [ ! -e "$work/dry/newdir" ] || echo "exit $rc: $(head -c 150 "$err")")"

# A dry run (no fake devices) writes nothing: an output option there is refused, not ignored.
for opt in "--out x.csv" --plot --report --ncu; do
    # shellcheck disable=SC2086 # the option and its value
    { (cd "$work/dry" && exec "$BIN" --dry-run --arch sm_90 --kernel reduce $opt) >"$out" 2>"$err"; } 2>/dev/null; rc=$?
    check "--dry-run $opt: refused with exit 2 and one line, nothing written" \
        "$([ "$rc" -eq 2 ] && [ "$(lines "$err")" -eq 1 ] && [ -z "$(ls -A "$work/dry")" ] || echo "exit $rc: $(head -n 2 "$err")")"
done

echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
