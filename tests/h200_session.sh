#!/usr/bin/env bash
# tests/h200_session.sh [STEP...]: what one call on the lent GPU machine runs, in one go: build,
# GPU tests (required to run: OCC_REQUIRE_GPU=1), then the sweeps whose CSVs become reference
# results. Everything worth keeping is copied to $OUT (default ./out). Steps: tests, mission,
# copy, reduce, all (default: all of them).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
steps=${*:-tests mission reduce copy}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv \
    | tee "$OUT/nvidia-smi.txt"
start=$(date +%s)
./run_sweep --version || exit 1
echo "build: $(( $(date +%s) - start )) s"
cp build/kernels/kernel_resources.csv "$OUT/" 2>/dev/null
for s in $steps; do
    case $s in
    tests) OCC_REQUIRE_GPU=1 ./run_tests 2>&1 | tee "$OUT/tests.log" | tail -n 40 ;;
    mission)
        t0=$(date +%s.%N)
        ./run_sweep --kernel reduce --unroll 1,2,4 --occ 25..100 --out "$OUT/mission-reduce.csv" --force
        echo "mission wall: $(echo "$(date +%s.%N) - $t0" | bc) s" ;;
    reduce) ./run_sweep --kernel reduce --quiet --out "$OUT/reduce-full.csv" --force ;;
    copy) ./run_sweep --kernel copy --quiet --out "$OUT/copy-full.csv" --force ;;
    *) echo "unknown step $s" ;;
    esac
done
