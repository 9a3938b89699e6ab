#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_cli_recompute.sh: --recompute FILE, the model and knee table of a finished run
# recomputed without a GPU, on a real run's CSV (tests/data/h100-reduce-mission-5900278.csv: an
# unedited copy of a run of the mission command on an H100 at 5900278, git_rev in its metadata):
# the recomputed predictions match what the run wrote (a change to the model that moves the
# predictions shows here, and wants a new reference run), the table and its agreement line, the
# markdown report at --out, and every refusal; and a run of the chain model alone (the smem
# chase, tests/data/h200-smem-chase-20105b5.csv).
# Usage: test_cli_recompute.sh PATH/TO/occsweep   (OCC_SOURCE_ROOT: the source tree)
# Prints one line per failed check and "N checks, M failed"; exits 0 (all passed) or 1.
set -u

. "$(dirname "$0")/../lib/cli_lib.sh"

root=${OCC_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
csv=$root/tests/data/h100-reduce-mission-5900278.csv

run() { run_bin "$@"; }

# rc_is N: empty when the last run exited N, else what it did.
rc_is() { [ "$rc" -eq "$1" ] || echo "exit $rc, expected $1: $(head -n 1 "$err")"; }

# ---- the table, from the file alone ----
run --recompute "$csv"
why=""
[ "$rc" -ne 0 ] && why="exit $rc: $(head -n 1 "$err")"
[ -z "$why" ] && [ -s "$err" ] && why="stderr: $(head -n 1 "$err")"
line=$(grep '^recomputed from ' "$out")
# 117 points with a prediction, each within 1e-4 % of the file's gbps_predicted (its columns
# hold 10 significant digits).
if [ -z "$why" ] && ! [[ $line =~ :\ 117\ rows\ with\ a\ prediction\ in\ the\ file\;\ largest\ difference\ from\ its\ gbps_predicted\ ([0-9.e+-]+)%$ ]]; then
    why="no or wrong recomputed line: $line"
elif [ -z "$why" ] && ! awk -v d="${BASH_REMATCH[1]}" 'BEGIN { exit !(d < 1e-4) }'; then
    why="recomputed predictions differ from the file's by ${BASH_REMATCH[1]}%"
fi
check "$(cmdline --recompute "$csv"): predictions recomputed" "$why"
# What the run itself printed at the end (its closing lines): 117 of 117 within 10%, knees 9
# of 9, reduce_u1_v16's at 43.75% measured and predicted, the read-only roof named.
for want in '^model: loaded latency L\(X\): 11 levels, 354\.3 ns idle' \
    '^reduce_u1_v16 +1 +16 +3107\.5 +43\.75 +43\.75 ' \
    '^model roof: cub::DeviceReduce \(read-only streams\) 3095\.2 GB/s$' \
    '^model agreement, natural variants: within 10% at 117 of 117 \(100%\) points; knee within one occupancy level for 9 of 9 \(100%\) variants$'; do
    check "--recompute output" "$(grep -qE -- "$want" "$out" || echo "no line matches '$want'")"
done
check "--recompute without --out writes nothing" "$(ls -A "$cwd" | head -n 1)"

# ---- the markdown report at --out ----
run --recompute "$csv" --out knee.md
why=""
if [ "$rc" -ne 0 ]; then why="exit $rc: $(head -n 1 "$err")"
elif [ ! -s "$cwd/knee.md" ]; then why="no knee.md"
elif ! grep -q '^wrote knee.md$' "$out"; then why="no 'wrote' line"
elif ! grep -q '^# Knee report: NVIDIA H100 80GB HBM3$' "$cwd/knee.md"; then why="no title naming the GPU"
elif ! grep -q '^- predicted within 10% of measured: 117 of 117 (100%) points$' "$cwd/knee.md"; then
    why="no agreement on points"
elif ! grep -q '^- predicted knee within one occupancy level of the measured: 9 of 9 (100%) variants$' "$cwd/knee.md"; then
    why="no agreement on knees"
elif grep -q 'levels apart)$' "$cwd/knee.md"; then
    why="a knee miss named where none is"
fi
check "$(cmdline --recompute "$csv" --out knee.md)" "$why"
# An existing --out is kept unless --force.
run --recompute "$csv" --out knee.md
check "--out existing" "$(rc_is 2)"
run --recompute "$csv" --out knee.md --force
check "--out existing --force" "$(rc_is 0)"
rm -f "$cwd/knee.md"

# ---- refusals: exit 2, one line, nothing written ----
refused() {
    local want=$1
    shift
    run "$@"
    check "$(cmdline "$@")" "$(refusal_problem "$want")"
}
refused "no-such.csv" --recompute no-such.csv
printf 'not,a,sweep\n1,2,3\n' >"$work/bad.csv"
refused "wrong header" --recompute "$work/bad.csv"
grep -v '^# dram_latency_ns=' "$csv" >"$work/nolatency.csv"
refused "no model inputs" --recompute "$work/nolatency.csv"
awk -F, '/^#/ || !h { print; if (!/^#/) { for (i = 1; i <= NF; i++) c[$i] = i; h = 1 }; next }
    $c["mode"] == "loaded"' "$csv" >"$work/levels-only.csv"
refused "no ok row with a measured GB/s" --recompute "$work/levels-only.csv"
refused "drop --resume" --recompute "$csv" --resume "$csv"
refused "drop --resume, --dry-run" --recompute "$csv" --dry-run
# Not a regular file: a FIFO would block the read, a device feed it without end.
mkfifo "$work/fifo"
refused "is not a regular file" --recompute "$work/fifo"
refused "is not a regular file" --recompute /dev/zero
# --out naming the file read (even through a link), or in a directory that does not exist.
cp "$csv" "$work/run.csv"
ln -s "$work/run.csv" "$work/link.md"
refused "is the file being read" --recompute "$work/run.csv" --out "$work/run.csv" --force
refused "is the file being read" --recompute "$work/run.csv" --out "$work/link.md" --force
check "the file read is kept" "$(cmp -s "$csv" "$work/run.csv" || echo "run.csv changed")"
refused "directory $work/none does not exist" --recompute "$csv" --out "$work/none/k.md"
# A link at --out is replaced with --force, never written through: its target stays as it was.
printf 'keep me\n' >"$work/target.txt"
ln -s "$work/target.txt" "$work/out-link.md"
run --recompute "$csv" --out "$work/out-link.md" --force
why=$(rc_is 0)
[ -z "$why" ] && [ "$(cat "$work/target.txt")" != "keep me" ] && why="wrote through the link"
[ -z "$why" ] && [ -L "$work/out-link.md" ] && why="the link is still there"
[ -z "$why" ] && ! grep -q '^# Knee report' "$work/out-link.md" && why="no report at --out"
[ -z "$why" ] && [ -n "$(ls "$work" | grep 'out-link.md.tmp')" ] && why="a temporary file left"
check "--out a link --force: replaced, its target kept" "$why"

# ---- a run of the chain model alone: tests/data/h200-smem-chase-20105b5.csv, an unedited copy
# of the smem chase on an H200 at revision 20105b5 (results/h200/smem-chase-20261204T034236Z.csv
# there): no Little's-law inputs, the chain section from the rows (harness/model/chain_model.h) ----
chase=$root/tests/data/h200-smem-chase-20105b5.csv
run --recompute "$chase" --out chain.md
why=""
if [ "$rc" -ne 0 ]; then why="exit $rc: $(head -n 1 "$err")"
elif ! grep -q '^recomputed from .*: the chain model alone' "$out"; then why="no chain-model line"
elif ! grep -Eq '^smem_chase_k1 +1 +4 +128 +[0-9.]+ +98\.9 +23\.63 +11\.93 ' "$out"; then
    why="k1: no line with 98.9% of peak, 23.63 cycles, 11.93 ns: $(grep '^smem_chase_k1' "$out")"
elif ! grep -q 'predicted knee within one occupancy level for 4 of 4 variants$' "$out"; then
    why="no agreement line for 4 of 4 variants"
elif ! grep -q '^## Latency chains' "$cwd/chain.md"; then why="chain.md lacks its section"
fi
check "$(cmdline --recompute "$chase" --out chain.md)" "$why"
rm -f "$cwd/chain.md"

# ---- values outside their physical range: refused with exit 2 and one line naming the field ----
# (each a copy of the mission CSV with one value changed; the model would switch off or count
# them otherwise)
edit() { # edit NAME SED-SCRIPT: $work/NAME.csv from the mission CSV
    sed -e "$2" "$csv" >"$work/$1.csv"
}
first_row=$(grep -v '^#' "$csv" | sed -n 2p)
edit latency0 's/^# dram_latency_ns=.*/# dram_latency_ns=0/'
edit latencyneg 's/^# dram_latency_ns=.*/# dram_latency_ns=-300/'
edit latencyhuge 's/^# dram_latency_ns=.*/# dram_latency_ns=1e308/'
edit roof0 's/^# roof_memcpy_gbps=.*/# roof_memcpy_gbps=0/'
edit smtext 's/^# sm_count=.*/# sm_count=many/'
gbps_col=$(grep -v '^#' "$csv" | head -n 1 | tr ',' '\n' | grep -nx gbps_median | cut -d: -f1)
awk -F, -v OFS=, -v c="$gbps_col" '/^#/ {print; next} !h {h = 1; print; next}
    !done && $c != "NaN" {$c = -$c; done = 1} {print}' "$csv" >"$work/gbpsneg.csv"
{ cat "$csv"; echo "$first_row"; } >"$work/duplicate.csv"
for spec in latency0:dram_latency_ns latencyneg:dram_latency_ns latencyhuge:dram_latency_ns \
    roof0:roof_memcpy_gbps smtext:sm_count gbpsneg:gbps_median duplicate:"are the same point"; do
    name=${spec%%:*} want=${spec#*:}
    run --recompute "$work/$name.csv"
    check "--recompute with $name: exit 2, one line naming '$want'" \
        "$([ "$rc" -eq 2 ] && [ "$(lines "$err")" -eq 1 ] && grep -q "$want" "$err" && [ ! -s "$out" ] ||
           echo "exit $rc: $(head -c 200 "$err")$(head -c 100 "$out")")"
done

echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
