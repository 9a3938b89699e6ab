#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/async_check.sh: the GPU check of the async and wgmma families (issue 44), for one call
# on a lent H100 or H200 (about 5 minutes, build included). Builds for sm_90 only (its own build
# directory; the wgmma kernels get their sm_90a code), runs the GPU tests the families touch
# (each mode through its family ops at one point, verified; the offline model against the
# occupancy API for every variant at its block size; the build table against the runtime's
# attributes, which also shows the GPU runs the sm_90a code) and the SASS audit, then the sweeps
#   ./run_sweep --kernel async --mode bulk --occ 1.5625,3.125,6.25,9.375,12.5,18.75,25,37.5,50
#   ./run_sweep --kernel async --mode cp --occ 3.125,6.25,12.5,25,50,100
#   ./run_sweep --kernel wgmma --mode f16 --occ 6.25..100
#   ./run_sweep --kernel wgmma --mode bf16 --unroll 2 --occ 6.25,12.5,25,50
#   ./run_sweep --kernel mma --mode f16 --unroll 4,8 --occ 12.5,25,50   (the mma.sync plateau)
# (--max-time 0.2 --quiet) and summarises them: rows per status (every measured row verified:
# no fail:), the bulk and cp best against cub::DeviceReduce of the same run and the bulk best at
# 4 warps per SM, the wgmma and mma.sync best against the dense fp16 headline at the row's clock.
# Writes the CSVs (with their knee reports), the plans, the logs and the build's
# kernel_resources.csv under $OUT (default ./out-async). Exit 1 when the build, a test or a sweep
# fails or a row failed verification.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=$(mkdir -p "${OUT:-out-async}" && cd "${OUT:-out-async}" && pwd)
export OCC_BUILD=${OCC_BUILD:-$PWD/build-sm90}
export OCC_MESON_ARGS=${OCC_MESON_ARGS:--Dgpu_archs=90 -Dgpu_ptx=}
rc=0
start=$SECONDS
# run_sweep builds the program alone; the tests below need the whole build.
{ ./run_sweep --version && ninja -C "$OCC_BUILD"; } >"$OUT/build.log" 2>&1 ||
    { echo "FAIL build (see $OUT/build.log)"; exit 1; }
echo "build: $((SECONDS - start)) s"
tests=(gpu_async gpu_model_vs_api sass_audit unit_audit_sass unit_family_table cli_async)
if (OCC_ROOT=$PWD && . bench/setup.sh && occ_ensure_tools 0 &&
    OCC_REQUIRE_GPU=1 meson test -C "$OCC_BUILD" --no-rebuild --print-errorlogs "${tests[@]}") \
    >"$OUT/tests.log" 2>&1; then
    echo "PASS tests: ${tests[*]}"
else
    echo "FAIL tests (see $OUT/tests.log)"; rc=1
fi
grep -hE '^(async|wgmma)_.*: ' "$OCC_BUILD"/meson-logs/testlog.txt 2>/dev/null | sort -u
grep -h 'points compared' "$OCC_BUILD"/meson-logs/testlog.txt 2>/dev/null | tail -n 1
cp "$OCC_BUILD/kernels/kernel_resources.csv" "$OUT/" 2>/dev/null
echo "tests: $((SECONDS - start)) s"

# sweep NAME ARGS...: one sweep into $OUT/NAME.csv, its plan beside it.
sweep() {
    local name=$1
    shift
    ./run_sweep "$@" --dry-run >"$OUT/$name-plan.txt" 2>&1 || { echo "FAIL $name dry run"; rc=1; }
    ./run_sweep "$@" --max-time 0.2 --quiet --force --out "$OUT/$name.csv" \
        >"$OUT/$name.out" 2>"$OUT/$name.err" || { echo "FAIL $name sweep (see $OUT/$name.err)"; rc=1; }
    echo "$name: $((SECONDS - start)) s"
}
sweep bulk --kernel async --mode bulk --occ 1.5625,3.125,6.25,9.375,12.5,18.75,25,37.5,50
sweep cp --kernel async --mode cp --occ 3.125,6.25,12.5,25,50,100
sweep wgmma-f16 --kernel wgmma --mode f16 --occ 6.25..100
sweep wgmma-bf16 --kernel wgmma --mode bf16 --unroll 2 --occ 6.25,12.5,25,50
sweep mma-f16 --kernel mma --mode f16 --unroll 4,8 --occ 12.5,25,50

python3 - "$OUT" <<'PY' || rc=1
import csv, os, sys
out, bad = sys.argv[1], 0
def read(name):
    path = os.path.join(out, name + ".csv")
    if not os.path.exists(path):
        return {}, []
    lines = open(path).read().splitlines()
    meta = dict(l[2:].split("=", 1) for l in lines if l.startswith("# ") and "=" in l)
    return meta, list(csv.DictReader(l for l in lines if not l.startswith("#")))
def f(r, k):
    try:
        return float(r[k])
    except (KeyError, ValueError):
        return float("nan")
for name in ("bulk", "cp", "wgmma-f16", "wgmma-bf16", "mma-f16"):
    meta, rows = read(name)
    kernel = "mma" if name.startswith("mma") else name.split("-")[0]
    kernel = "async" if kernel in ("bulk", "cp") else kernel
    rows = [r for r in rows if r["kernel"] == kernel]  # not the load levels
    ok = [r for r in rows if r["status"] == "ok"]
    fail = [r for r in rows if r["status"].startswith("fail")]
    skip = len(rows) - len(ok) - len(fail)
    bad += len(fail) + (not ok)
    print("%s %s: %d rows, ok %d, skip %d, fail %d%s" % ("PASS" if ok and not fail else "FAIL",
          name, len(rows), len(ok), skip, len(fail),
          "; first fail: %s %s" % (fail[0]["variant"], fail[0]["status"]) if fail else ""))
    if not ok:
        continue
    if name in ("bulk", "cp"):
        cub = float(meta.get("roof_cub_reduce_gbps", "nan"))
        best = max(ok, key=lambda r: f(r, "gbps_median"))
        print("  best %s %.2f%% occ: %.0f GB/s = %.3fx cub::DeviceReduce (%.0f GB/s)"
              % (best["variant"], f(best, "occ_achieved_pct"), f(best, "gbps_median"),
                 f(best, "gbps_median") / cub, cub))
        wg = [r for r in ok if int(r["blocks_per_sm"]) * int(r["block_threads"]) // 32 <= 5]
        if wg:
            b4 = max(wg, key=lambda r: f(r, "gbps_median"))
            print("  best at <= 5 warps/SM: %s %d blocks/SM: %.0f GB/s = %.3f of the best"
                  % (b4["variant"], int(b4["blocks_per_sm"]), f(b4, "gbps_median"),
                     f(b4, "gbps_median") / f(best, "gbps_median")))
        pred = [f(r, "measured_over_predicted") for r in ok]
        pred = [p for p in pred if p == p]
        if pred:
            within = sum(abs(p - 1) <= 0.10 for p in pred)
            print("  model within 10%%: %d of %d rows" % (within, len(pred)))
    else:
        best = max(ok, key=lambda r: f(r, "gflops_median"))
        clock = f(best, "sm_clock_mhz_measured")
        clock = clock if clock == clock else f(best, "sm_clock_mhz_median")
        print("  best %s %d blocks/SM: %.1f TFLOP/s = %.1f%% of the headline at %.0f MHz"
              % (best["variant"], int(best["blocks_per_sm"]), f(best, "gflops_median") / 1e3,
                 f(best, "pct_of_flop_peak"), clock))
        pcts = sorted(f(r, "pct_of_flop_peak") for r in ok)
        print("  %% of the headline: min %.1f, median %.1f, max %.1f over %d rows"
              % (pcts[0], pcts[len(pcts) // 2], pcts[-1], len(pcts)))
    resid = [abs(f(r, "occ_achieved_pct") - f(r, "occ_measured_pct")) for r in ok]
    resid = [x for x in resid if x == x]
    if resid:
        print("  residency within 2 points of the API: %d of %d rows"
              % (sum(x <= 2 for x in resid), len(resid)))
sys.exit(1 if bad else 0)
PY
echo "total: $((SECONDS - start)) s"
exit "$rc"
