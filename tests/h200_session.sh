#!/usr/bin/env bash
# tests/h200_session.sh [STEP...]: what one call on the lent GPU machine runs, in one go: build,
# GPU tests (required to run: OCC_REQUIRE_GPU=1), then the sweeps whose CSVs become reference
# results (written by run_sweep to its default path results/<gpu>/, then copied to $OUT).
# Steps: tests, mission, reduce, copy, ladder, chase, thread (default: all, in that order).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
steps=${*:-tests mission reduce copy ladder chase thread}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv | tee "$OUT/nvidia-smi.txt"
ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0=$(ms)
./run_sweep --version || exit 1
echo "build (first use): $(( $(ms) - t0 )) ms"
cp build/kernels/kernel_resources.csv "$OUT/" 2>/dev/null
for s in $steps; do
    t0=$(ms)
    case $s in
    tests) OCC_REQUIRE_GPU=1 ./run_tests 2>&1 | tee "$OUT/tests.log" | tail -n 25 ;;
    mission) ./run_sweep --kernel reduce --unroll 1,2,4 --occ 25..100 2>&1 | tail -n 16 ;;
    reduce) ./run_sweep --kernel reduce --quiet ;;
    copy) ./run_sweep --kernel copy --quiet ;;
    ladder) ./run_sweep --kernel chase --mode latency --footprint 4K..4G --quiet ;;
    chase) ./run_sweep --kernel chase --quiet ;;
    thread) ./run_sweep --kernel chase --mode thread --quiet ;;
    *) echo "unknown step $s" ;;
    esac
    echo "step $s: wall $(( $(ms) - t0 )) ms"
done
cp results/*/*.csv "$OUT/" 2>/dev/null
ls -la "$OUT"
