#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/gpu_check_block.sh DIR: the GPU check of block size as a sweep axis, for one
# call on the lent H200. Builds for sm_90 only (its own build directory), runs the GPU tests the
# block sizes touch (the offline model against the occupancy API at blocks 128..1024, every
# copy/reduce variant at 1024 threads; OCC_REQUIRE_GPU=1), then the reduce sweep
#   ./run_sweep --kernel reduce --block 128,256,512,1024 --occ 6.25..100 --unroll 1,4,8 --vec 4,16
# (6 variants x 30 levels: 16, 8, 4 and 2 per block size; --max-time 0.2, about 1 minute of GPU
# time) and checks it: PASS when every row is ok or a skip with its reason (no fail: rows, so every
# measured sum verified and the API gave the blocks/SM the model planned), every block size has ok
# rows, and each ok row's blocks_per_sm (the API's) equals the model's for that point in the
# --dry-run plan of the same command. Prints the best GB/s per block size. Writes the CSV, the
# plan, the logs and, where gnuplot is, the figures (plots/plot: blocks-reduce.png, GB/s against
# occupancy, one curve per block size) under DIR (default ./out-block).
set -uo pipefail
cd "$(dirname "$0")/../.."
DIR=$(mkdir -p "${1:-out-block}" && cd "${1:-out-block}" && pwd)
export OCC_BUILD=${OCC_BUILD:-$PWD/build-sm90}
export OCC_MESON_ARGS=${OCC_MESON_ARGS:--Dgpu_archs=90 -Dgpu_ptx=}
rc=0
./run_sweep --version >"$DIR/build.log" 2>&1 || { echo "FAIL build (see $DIR/build.log)"; exit 1; }
if (OCC_ROOT=$PWD && . bench/setup.sh && occ_ensure_tools 0 &&
    OCC_REQUIRE_GPU=1 meson test -C "$OCC_BUILD" --no-rebuild --print-errorlogs \
        gpu_model_vs_api gpu_kernels unit_plan unit_plan_blocks) >"$DIR/tests.log" 2>&1; then
    echo "PASS tests: gpu_model_vs_api gpu_kernels unit_plan unit_plan_blocks"
else
    echo "FAIL tests (see $DIR/tests.log)"; rc=1
fi
grep -h 'points compared' "$OCC_BUILD"/meson-logs/testlog.txt 2>/dev/null | tail -n 1
sweep=(--kernel reduce --block 128,256,512,1024 --occ 6.25..100 --unroll 1,4,8 --vec 4,16)
./run_sweep "${sweep[@]}" --dry-run >"$DIR/plan.txt" 2>&1 || { echo "FAIL dry run"; rc=1; }
grep '^levels ' "$DIR/plan.txt"
csv=$DIR/reduce-blocks.csv
./run_sweep "${sweep[@]}" --max-time 0.2 --quiet --force --out "$csv" >"$DIR/sweep.out" \
    2>"$DIR/sweep.err" || { echo "FAIL sweep (see $DIR/sweep.err)"; rc=1; }
python3 - "$csv" "$DIR/plan.txt" <<'PY' || rc=1
import csv, re, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
plan = {}
for line in open(sys.argv[2]):
    m = re.match(r"(\S+) +block +(\d+) +target +([\d.]+)% +achieved +[\d.]+% +(\d+) blocks/SM", line)
    if m:
        plan[(m[1], int(m[2]), "%.2f" % float(m[3]))] = int(m[4])
bad = [r for r in rows if not (r["status"] == "ok" or r["status"].startswith("skip:"))]
ok = [r for r in rows if r["status"] == "ok"]
miss = [r for r in ok if plan.get((r["variant"], int(r["block_threads"]),
                                   "%.2f" % float(r["occ_target_pct"]))) != int(r["blocks_per_sm"])]
blocks = sorted({int(r["block_threads"]) for r in ok})
print("%s rows: %d, ok %d, skip %d, fail %d" % ("PASS" if not bad and rows else "FAIL", len(rows),
      len(ok), len(rows) - len(ok) - len(bad), len(bad)))
for r in bad[:5]:
    print("  %s block %s %s%%: %s" % (r["variant"], r["block_threads"], r["occ_target_pct"], r["status"]))
print("%s model blocks/SM == API blocks/SM at %d of %d ok points" %
      ("PASS" if ok and not miss else "FAIL", len(ok) - len(miss), len(ok)))
for r in miss[:5]:
    print("  %s block %s %s%%: API %s" % (r["variant"], r["block_threads"], r["occ_target_pct"], r["blocks_per_sm"]))
print("%s block sizes with ok rows: %s" % ("PASS" if blocks == [128, 256, 512, 1024] else "FAIL",
      ",".join(map(str, blocks))))
for b in blocks:
    best = max((r for r in ok if int(r["block_threads"]) == b), key=lambda r: float(r["gbps_median"]))
    print("block %4d: best %.0f GB/s (%s, %s%% occupancy, %s blocks/SM, lever %s)" % (b,
          float(best["gbps_median"]), best["variant"], best["occ_achieved_pct"],
          best["blocks_per_sm"], best["lever"]))
sys.exit(1 if bad or miss or not ok or blocks != [128, 256, 512, 1024] else 0)
PY
if command -v gnuplot >/dev/null; then
    plots/plot "$csv" >"$DIR/plot.log" 2>&1 || { echo "FAIL plots (see $DIR/plot.log)"; rc=1; }
fi
echo "$([ $rc = 0 ] && echo PASS || echo FAIL) gpu_check_block: files under $DIR"
exit $rc
