#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/gpu_check_fleet.sh: the fleet path on a real GPU machine (written for one H200; any
# count of GPUs works). Builds for sm_90 only (OCC_MESON_ARGS, unless set), then runs one small reduce
# sweep (3 occupancy levels, ~10 points, well under a minute of GPU time per run) as
#   plain         ./run_sweep SWEEP
#   device0       ./run_sweep SWEEP --device 0
#   all           ./run_sweep SWEEP --device all    (one worker per GPU, a CSV per GPU)
# and checks that the three give the same rows (tests/fleet/compare_runs.py: same points, statuses
# and columns; and the same (variant, lever, block, occupancy, status) row set), that the --device
# all CSV carries the GPU's UUID and PCI bus id as nvidia-smi reports them (metadata and file name),
# that --device N beyond the GPUs present is refused with exit 3, and that SIGINT to a --device
# all run stops its workers with their finished rows kept (exit 1). Everything goes to $OUT;
# the last line is "gpu_check_fleet: N checks, N failed". Exit 0 when none failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export OCC_MESON_ARGS=${OCC_MESON_ARGS:--Dgpu_archs=90}
SWEEP=(--kernel reduce --unroll 1,4 --vec 16 --occ 25,50,100 --max-time 0.2 --quiet --force)
n_checks=0 n_failed=0
check() {
    n_checks=$((n_checks + 1))
    if [ -n "$2" ]; then n_failed=$((n_failed + 1)); echo "FAIL: $1: $2"; else echo "ok: $1"; fi
}
rowset() { # the points and statuses of a CSV, sorted
    python3 - "$1" <<'PY'
import csv, sys
rows = csv.DictReader(l for l in open(sys.argv[1], newline="") if not l.startswith("#"))
for r in sorted((r["variant"], r["lever"], r["block_threads"], r["occ_target_pct"],
                 r["status"].split(":")[0]) for r in rows):
    print(",".join(r))
PY
}
nvidia-smi --query-gpu=index,name,uuid,pci.bus_id --format=csv,noheader | tee "$OUT/nvidia-smi.txt"
t0=$(date +%s)
./run_sweep --version >"$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
echo "build: $(( $(date +%s) - t0 )) s"

t0=$(date +%s)
./run_sweep "${SWEEP[@]}" --out "$OUT/plain.csv" >"$OUT/plain.out" 2>&1
check "plain run exit 0" "$([ $? -eq 0 ] || tail -n 3 "$OUT/plain.out")"
./run_sweep "${SWEEP[@]}" --device 0 --out "$OUT/device0.csv" >"$OUT/device0.out" 2>&1
check "--device 0 exit 0" "$([ $? -eq 0 ] || tail -n 3 "$OUT/device0.out")"
./run_sweep "${SWEEP[@]}" --device all --out "$OUT/all.csv" >"$OUT/all.out" 2>&1
check "--device all exit 0" "$([ $? -eq 0 ] || tail -n 5 "$OUT/all.out")"
echo "three sweeps: $(( $(date +%s) - t0 )) s"
n_gpus=$(grep -c . "$OUT/nvidia-smi.txt")
mapfile -t per_gpu < <(ls "$OUT"/all-gpu*-*.csv 2>/dev/null)
check "--device all wrote one CSV per GPU ($n_gpus)" \
    "$([ "${#per_gpu[@]}" -eq "$n_gpus" ] || echo "found ${#per_gpu[@]}: ${per_gpu[*]}")"
gpu0=$(ls "$OUT"/all-gpu0-*.csv 2>/dev/null | head -n 1)
for f in "$OUT/device0.csv" "$gpu0"; do
    python3 tests/fleet/compare_runs.py "$OUT/plain.csv" "$f" >"$OUT/compare-$(basename "$f" .csv).txt" 2>&1
    check "compare_runs plain vs $(basename "$f"): same points, statuses, columns" \
        "$([ $? -eq 0 ] || cat "$OUT/compare-$(basename "$f" .csv).txt")"
    check "row set plain = $(basename "$f")" "$(diff <(rowset "$OUT/plain.csv") <(rowset "$f") | head -n 5)"
done
uuid=$(awk -F', ' '$1 == 0 {print $3}' "$OUT/nvidia-smi.txt")
pci=$(awk -F', ' '$1 == 0 {print tolower($4)}' "$OUT/nvidia-smi.txt")
check "gpu0 CSV metadata: gpu_uuid = nvidia-smi's ($uuid)" \
    "$(grep -qx "# gpu_uuid=$uuid" "$gpu0" || grep '^# gpu_uuid' "$gpu0")"
check "gpu0 CSV metadata: pci_bus_id = nvidia-smi's ($pci, domain width aside)" \
    "$(m=$(sed -n 's/^# pci_bus_id=//p' "$gpu0" | tr A-Z a-z); [ -n "$m" ] && [ "${pci: -7}" = "${m: -7}" ] || echo "got '$m'")"
check "gpu0 CSV name carries the PCI bus id and UUID" \
    "$(b=$(basename "$gpu0"); p=$(sed -n 's/^# pci_bus_id=//p' "$gpu0" | tr : .)
       [ "$b" = "all-gpu0-$p-$(echo "${uuid#GPU-}" | cut -c1-8).csv" ] || echo "$b")"
./run_sweep "${SWEEP[@]}" --device "$n_gpus" --out "$OUT/none.csv" >"$OUT/none.out" 2>&1
check "--device $n_gpus (not present) refused with exit 3" \
    "$([ $? -eq 3 ] && grep -q "only $n_gpus" "$OUT/none.out" || cat "$OUT/none.out")"

# SIGINT: a longer sweep, interrupted after 8 s.
t0=$(date +%s)
./run_sweep --kernel reduce --occ 6.25..100 --quiet --force --device all --out "$OUT/int.csv" \
    >"$OUT/int.out" 2>&1 &
pid=$!
sleep 8
kill -INT "$pid"
wait "$pid"; rc=$?
echo "interrupted run: $(( $(date +%s) - t0 )) s"
check "SIGINT: --device all exits 1" "$([ "$rc" -eq 1 ] || echo "exit $rc: $(tail -n 3 "$OUT/int.out")")"
for f in "$OUT"/int-gpu*-*.csv; do
    check "SIGINT: $(basename "$f") interrupted with rows kept" \
        "$(grep -q '^# end_status=interrupted after [1-9][0-9]* of' "$f" || tail -n 1 "$f")"
done
echo "gpu_check_fleet: $n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
