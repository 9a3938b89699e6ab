#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/gpu/test_gpu_figures.sh OCCSWEEP: the measured figures the GPU suite judges, apart from the
# plugins' (test_gpu_plugin.sh): the address chain's L1 step is faster than the index chain's, and
# the residency of copy and reduce with the dynamic schedule is within 2 points of the API's
# occupancy at >= 95% of 32 points and never more than 4 points off (docs/validation.md). Runs
# alone (tests/gpu/meson.build: another process's time slice moves both figures), and is short
# enough to repeat 20 times in a row (tools/gpu/gpu_repeat.sh). Skips (77) without a GPU unless
# OCC_REQUIRE_GPU=1.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lad=$tmp/ladder.csv
"$bin" --kernel chase --mode latency --footprint 4K..64K --quiet --out "$lad" >"$tmp/lad.out" 2>&1
rc=$?
. "$(dirname "$0")/gpu_lib.sh"
gpu_absent $rc "$tmp/lad.out"
check '[ $rc -eq 0 ]' "address ladder: $(tail -n 3 "$tmp/lad.out")"
idx=$tmp/index.csv
"$bin" --kernel chase --mode latency --chain index --footprint 4K..64K --quiet --out "$idx" >"$tmp/idx.out" 2>&1
check '[ $? -eq 0 ]' "index ladder: $(tail -n 3 "$tmp/idx.out")"
# The L1 step (4 KiB): the address chain has no index arithmetic on the dependent path.
l1() { awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
    $c["buffer_bytes"] == 4096 {print $c["cycles_per_hop_median"]}' "$1"; }
check 'awk -v a="$(l1 "$lad")" -v i="$(l1 "$idx")" "BEGIN {exit !(a > 0 && a < i)}"' \
    "L1 step: address chain $(l1 "$lad") cycles, index chain $(l1 "$idx"): want the address chain faster"
# Sustained occupancy: with the dynamic schedule (default) and the default buffer, the residency
# measured in the timed launch shape is within 2 points of the API's occupancy at >= 95% of the
# points and never more than 4 points below, the high-parallelism variants included. (reduce sits
# 1.5-1.9 points below at 75-100%: its warps drift up to a few chunks apart, so its blocks end
# less together.)
occ=$tmp/resid.csv
"$bin" --kernel reduce,copy --unroll 2,4 --vec 8,16 --occ 25,50,75,100 --max-time 0.05 --quiet \
    --no-loaded --out "$occ" >/dev/null 2>"$tmp/resid.err"
check '[ $? -eq 0 ]' "residency sweep: $(head -c 300 "$tmp/resid.err")"
off=$(awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
    $c["status"] == "ok" { n++; d = $c["occ_measured_pct"] - $c["occ_achieved_pct"];
        if ($c["schedule"] != "dynamic" || !(d >= -4 && d <= 4)) bad++
        else if (!(d >= -2 && d <= 2)) wide++ }
    END { r = n != 32 ? "rows " n : bad > 0 ? bad " beyond 4 points" : 0
          if (r == 0 && wide > 1) r = wide " of 32 beyond 2 points"
          print r }' "$occ")
check '[ "$off" = 0 ]' "dynamic schedule: residency: $off"

[ $fail -eq 0 ] && echo "L1 step: address chain $(l1 "$lad") cycles, index chain $(l1 "$idx"); residency of 32 points within its promise"
exit $fail
