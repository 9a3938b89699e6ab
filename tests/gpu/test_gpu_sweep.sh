#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/gpu/test_gpu_sweep.sh OCCSWEEP: a mini sweep on the GPU produces a complete, valid CSV:
# every planned point a row, every measured row verified ok, metadata with the roof and
# end_status complete, and the file readable back by column name; the latency ladder with each
# chain (addresses, 4- and 8-byte indices) records its chain, run axes and bytes per load; waves,
# out of memory, an interrupted sweep and its resume. What it checks holds on a shared GPU; the
# measured figures (residency, the L1 step) are tests/gpu/test_gpu_figures.sh's, which runs alone.
# Skips (77) without a GPU unless OCC_REQUIRE_GPU=1.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/mini.csv
"$bin" --kernel all --unroll 1,8 --vec 4,16 --fmas 0,64 --occ 25,100 --size 128M --max-time 0.05 \
    --quiet --out "$out" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
. "$(dirname "$0")/gpu_lib.sh"
gpu_absent $rc "$tmp/stderr"
check '[ $rc -eq 0 ]' "exit status $rc (stderr: $(head -c 300 "$tmp/stderr"))"
check '[ -f "$out" ] && [ ! -e "$out.partial" ]' "CSV renamed into place"
# copy and reduce: 2 U x 2 V x 2 levels each; chase (warp): 2 K x 2 levels; auto lever: one
# row each: 20 points; fma: 2 U x fp32 (V 4) x 2 levels; mixed: 2 A x 2 levels; smem (chase): 2 K
# x 2 levels; mma (f16): 2 U x 2 levels: 36 points, after the 44 load levels (chase/loaded) the
# model's curves come from: 80 rows. Then wgmma (f16; sm_90 only): G 1 (the one --unroll value it
# has) x 6 (N, form) x 2 levels, 12 rows, 8 of them skips (the accumulators' registers); on any
# other GPU one skip row for the mode. async (bulk and cp) has no variant of --vec 4 or 16.
rows=$(grep -v '^#' "$out" | tail -n +2 | wc -l)
wg=$(grep -c '^[^#].*,wgmma,f16,' "$out")
if grep -q '^# cc=9\.0$' "$out"; then want_wg=12; else want_wg=1; fi
check '[ "$wg" -eq "$want_wg" ]' "$want_wg wgmma rows, got $wg"
check '[ "$rows" -eq $((80 + want_wg)) ]' "$((80 + want_wg)) rows, got $rows"
check 'grep -q "^# end_status=complete after $rows of $rows points" "$out"' "end_status complete"
check '[ "$(grep -c ",chase,loaded,loaded_\(read\|copy\|gather\|sector\)_w[0-9]*_u[0-9]*,.*,ok$" "$out")" -eq 44 ]' \
    "44 load levels ok"
check 'grep -q "^# roof_memcpy_gbps=[0-9]" "$out"' "roof recorded"
check 'grep -q "^# command=.*--size 128M" "$out"' "command recorded"
# By column name: every status ok, every gbps a positive number (fma: GFLOP/s and % of the
# arithmetic peak instead, mma: against the headline tensor peak; mixed at A = 64: both; smem
# chase: hops/s and ns per hop besides its shared-memory GB/s), blocks/SM matches the level; the one
# exception is u8_v16 at 100%, which no variant reaches (its registers allow 50% and it has no
# capped twin): a skip row saying so; likewise any variant of more than 32 registers a thread
# (mma_f16_u8: 64 warps of it do not fit the register file) at 100%; wgmma: GFLOP/s and % of
# its peak, or a skip row (registers; the mode on a GPU other than sm_90).
bad=$(awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
    $c["variant"] ~ /_u8_v16$/ && $c["occ_target_pct"] == 100 {
        if ($c["status"] !~ /^skip:registers/) print; next }
    $c["status"] ~ /^skip:registers/ && $c["occ_target_pct"] == 100 && $c["regs_per_thread"] > 32 {
        next }
    $c["kernel"] == "fma" || $c["fma_per_element"] > 0 {
        if (!($c["gflops_median"] > 0) || !($c["pct_of_flop_peak"] > 0)) { print; next } }
    $c["kernel"] == "wgmma" {
        if ($c["status"] ~ /^skip:/) next
        if ($c["status"] != "ok" || !($c["gflops_median"] > 0) || !($c["pct_of_flop_peak"] > 0))
            print; next }
    $c["kernel"] == "mma" {
        if ($c["status"] != "ok" || !($c["gflops_median"] > 0) || !($c["pct_of_flop_peak"] > 0))
            print; next }
    $c["kernel"] == "smem" && !($c["hops_per_s_median"] > 0 && $c["ns_per_hop_median"] > 0) {
        print; next }
    $c["kernel"] == "fma" { if ($c["status"] != "ok") print; next }
    $c["status"] != "ok" || !($c["gbps_median"] > 0) || $c["samples"] < 1 ||
    ($c["occ_target_pct"] == 100 && $c["blocks_per_sm"] * $c["block_threads"] / 32 != 64) {print}' "$out" | wc -l)
check '[ "$bad" -eq 0 ]' "$bad rows not ok / without throughput / at the wrong occupancy"
check 'grep -q "best GB/s" "$tmp/stdout"' "summary table printed"
check 'grep -q "best GFLOP/s" "$tmp/stdout"' "arithmetic summary table printed"

# Chase: the latency ladder over a few footprints and a short thread-mode sweep, every row ok.
lad=$tmp/ladder.csv
"$bin" --kernel chase --mode latency --footprint 4K..8M --quiet --out "$lad" >"$tmp/lad.out" 2>&1
check '[ $? -eq 0 ]' "ladder run: $(tail -n 3 "$tmp/lad.out")"
bad=$(awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
    $c["status"] != "ok" || !($c["cycles_per_hop_median"] > 0) || $c["mode"] != "latency" {print}' "$lad" | wc -l)
check '[ "$bad" -eq 0 ] && grep -q "^# l1_bytes=" "$lad"' "$bad ladder rows not ok, or no l1_bytes"
# The default chain stores addresses: recorded as such, 8 bytes per load, no index width.
rows_vec() { awk -F, -v want="$2" '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
    $c["vec_bytes"] != want {n++} END {print n + 0}' "$1"; }
check '[ "$(rows_vec "$lad" 8)" -eq 0 ] && grep -q "^# chase_chain=address$" "$lad" &&
    grep -q "^# axis.chain=address$" "$lad" && ! grep -q "^# axis.index-bytes=\|^# chase_index_bytes=" "$lad"' \
    "address ladder: vec_bytes not 8 in $(rows_vec "$lad" 8) rows, or chain metadata wrong"
idx=$tmp/index.csv
"$bin" --kernel chase --mode latency --chain index --footprint 4K..64K --quiet --out "$idx" >"$tmp/idx.out" 2>&1
check '[ $? -eq 0 ]' "index ladder: $(tail -n 3 "$tmp/idx.out")"
bad=$(awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next} $c["status"] != "ok" {print}' "$idx" | wc -l)
check '[ "$bad" -eq 0 ] && [ "$(rows_vec "$idx" 4)" -eq 0 ] && grep -q "^# chase_chain=index$" "$idx" &&
    grep -q "^# axis.chain=index$" "$idx" && grep -q "^# axis.index-bytes=4$" "$idx" && grep -q "^# chase_index_bytes=4$" "$idx"' \
    "index ladder: $bad rows not ok, vec_bytes not 4 in $(rows_vec "$idx" 4) rows, or chain metadata wrong"
cold=$tmp/cold.csv
"$bin" --kernel chase --mode latency --cold --stride 256 --chain index --index-bytes 8 --footprint 4K..16M --quiet \
    --out "$cold" >"$tmp/cold.out" 2>&1
check '[ $? -eq 0 ]' "cold ladder: $(tail -n 3 "$tmp/cold.out")"
bad=$(awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
    $c["status"] != "ok" || $c["mode"] != "latency-cold" || $c["samples"] != 5 || $c["vec_bytes"] != 8 {print}' "$cold" | wc -l)
check '[ "$bad" -eq 0 ] && grep -q "^# chase_line_bytes=256$" "$cold" && grep -q "^# chase_index_bytes=8$" "$cold" &&
    grep -q "^# chase_chain=index$" "$cold" && grep -q "^# axis.index-bytes=8$" "$cold"' \
    "$bad cold rows not ok, or stride / chain / index width not recorded"

# Several waves: the grid is waves x blocks/SM x SMs, the occupancy still the padding's.
wav=$tmp/waves.csv
"$bin" --kernel reduce --unroll 4 --vec 16 --occ 50 --waves 3 --size 64M --no-loaded --quiet --out "$wav" >/dev/null 2>&1
check '[ $? -eq 0 ]' "--waves 3 run"
bad=$(awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
    $c["status"] != "ok" || $c["grid_blocks"] != 3 * $c["blocks_per_sm"] * $c["sm_count"] {print}' "$wav" | wc -l)
check '[ "$bad" -eq 0 ] && grep -q "^# axis.waves=3$" "$wav"' "--waves 3: grid or metadata wrong"

# Out of device memory: one line naming the size, what is free and the flag; no CSV.
"$bin" --kernel copy --size 100000G --quiet --out "$tmp/oom.csv" >/dev/null 2>"$tmp/oom.err"
orc=$?
check '[ $orc -eq 1 ] && [ "$(wc -l <"$tmp/oom.err")" -eq 1 ] && grep -q "is free; pass a smaller --size" "$tmp/oom.err" && [ ! -e "$tmp/oom.csv" ] && [ ! -e "$tmp/oom.csv.partial" ]' \
    "out of memory: exit $orc, $(head -c 300 "$tmp/oom.err")"

thr=$tmp/thread.csv
"$bin" --kernel chase --mode thread --unroll 1,8 --occ 25,100 --size 1G --max-time 0.05 --quiet \
    --out "$thr" >"$tmp/thr.out" 2>&1
check '[ $? -eq 0 ]' "thread-mode chase: $(tail -n 3 "$tmp/thr.out")"
check '[ "$(grep -c ",chase,thread,chase_thread_k.*,ok$" "$thr")" -eq 4 ]' "4 thread-mode rows ok"

# Interrupted: SIGINT part-way keeps every finished row, says so, and exits 1.
int=$tmp/interrupted.csv
"$bin" --kernel copy,reduce,chase --occ 6.25..100 --size 64M --quiet --out "$int" >/dev/null \
    2>"$tmp/int.err" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
irc=$?
check '[ $irc -eq 1 ]' "interrupted sweep exits 1, got $irc ($(head -c 300 "$tmp/int.err"))"
check 'grep -q "^# end_status=interrupted after [0-9]* of 492 points" "$int"' "end_status says interrupted"
done_rows=$(grep -v '^#' "$int" | tail -n +2 | wc -l)
said=$(sed -n 's/^# end_status=interrupted after \([0-9]*\) of.*/\1/p' "$int")
check '[ "$done_rows" -gt 0 ] && [ "$done_rows" = "$said" ]' "rows kept ($done_rows) = rows said ($said)"

# Resumed: the rest of the points are measured, none twice, and the file holds all 492: the 44
# load levels (kept, not measured again, once they ran) and 448 sweep points (copy and reduce:
# 12 (U, V) x 16 levels each; chase warp: 4 K x 16 levels; the auto lever puts a natural variant
# or its capped twin at each level: one row per (variant pair, level)).
"$bin" --kernel copy,reduce,chase --occ 6.25..100 --size 64M --quiet --resume "$int" >/dev/null \
    2>"$tmp/res.err"
check '[ $? -eq 0 ]' "resume exits 0 ($(head -c 300 "$tmp/res.err"))"
total=$(grep -v '^#' "$int" | tail -n +2 | wc -l)
unique=$(awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
    {print $c["variant"], $c["lever"], $c["occ_target_pct"]}' "$int" | sort -u | wc -l)
check '[ "$total" -eq 492 ] && [ "$unique" -eq 492 ]' "resumed file: $total rows, $unique distinct (want 492)"
check 'grep -q "^# resumed_rows=$done_rows$" "$int"' "resumed_rows=$done_rows recorded"
check 'grep -q "^# end_status=complete" "$int"' "resumed run complete"
[ $fail -eq 0 ] && echo "mini sweep: $rows rows ok; interrupted sweep kept $done_rows rows; resume completed it"
exit $fail
