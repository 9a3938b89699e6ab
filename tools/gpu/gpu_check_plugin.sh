#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/gpu_check_plugin.sh DIR: the GPU check of plugins, for one call on the lent
# H200. Builds for sm_90 only (its own build directory) with the example plugins
# (examples/saxpy, examples/stencil) and the test plugins, runs the plugin tests (required to
# run: OCC_REQUIRE_GPU=1), then sweeps both examples as a user would:
#   ./run_sweep --plugin BUILD/examples/libsaxpy.so   --occ 12.5..100 --plot   (60 points)
#   ./run_sweep --plugin BUILD/examples/libstencil.so --occ 12.5..100 --plot   (45 points)
# (with --no-loaded: the plugins' own rows, without the 44 load levels a model-using sweep
# measures first; the --ncu run below keeps them)
# (--max-time 0.25: at most 0.25 s per point, about 30 s for both), a --resume of the SAXPY CSV
# (nothing left to measure) and one --ncu point. Prints PASS/FAIL lines with the figures:
# every measured row verified ok, measured residency within 2 points of the occupancy API, the
# grid policy in the mode column, the knee of each variant (the stencil's among them), the
# model table for SAXPY. Writes the CSVs, knee reports, figures (where gnuplot is) and logs
# under DIR (default ./out/plugin). About 1.5 minutes of GPU time after the build.
set -uo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:-$PWD/out/plugin}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
export OCC_BUILD=${OCC_BUILD:-$PWD/build-sm90}
export OCC_MESON_ARGS=${OCC_MESON_ARGS:--Dgpu_archs=90 -Dgpu_ptx=}
ts=$(date -u +%Y%m%dT%H%M%SZ)
rc=0
pass() { echo "PASS $*"; }
failed() { echo "FAIL $*"; rc=1; }
verdict() { if eval "$1"; then pass "$2"; else failed "$2"; fi; }

./run_sweep --version >"$DIR/build.log" 2>&1 || failed "build: $(tail -n 3 "$DIR/build.log")"
(OCC_ROOT=$PWD && . bench/setup.sh && occ_ensure_tools 0 &&
    OCC_REQUIRE_GPU=1 meson test -C "$OCC_BUILD" --no-rebuild --print-errorlogs \
    gpu_plugin cli_plugin unit_plugin unit_plan) >"$DIR/tests.log" 2>&1
verdict '[ $? -eq 0 ]' "tests gpu_plugin cli_plugin unit_plugin unit_plan: $(grep -E '^(Ok|Fail|Skipped):' "$DIR/tests.log" | tr '\n' ' ')"

# Per CSV: rows measured, rows ok, the largest |measured - API| residency, the modes.
csv_figures() { awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
    $c["status"] ~ /^skip:/ {skip++; next}
    {n++; ok += $c["status"] == "ok"; d = $c["occ_measured_pct"] - $c["occ_achieved_pct"];
     if (d < 0) d = -d; if ($c["occ_measured_pct"] == "") d = 999; if (d > worst) worst = d;
     if ($c["gbps_median"] > best) best = $c["gbps_median"]; modes[$c["mode"]] = 1}
    END {m = ""; for (k in modes) m = m k; printf "%d %d %d %.2f %.1f %s\n", n, ok, skip, worst, best, m}' "$1"; }

for ex in saxpy stencil; do
    csv=$DIR/$ex-$ts.csv
    want_mode=persistent
    t0=$(date +%s)
    ./run_sweep --plugin "$OCC_BUILD/examples/lib$ex.so" --occ 12.5..100 --max-time 0.25 --plot \
        --no-loaded --quiet --out "$csv" >"$DIR/$ex.out" 2>"$DIR/$ex.err"
    src=$?
    echo "$ex: exit $src in $(($(date +%s) - t0)) s; $(tail -n 1 "$DIR/$ex.err")"
    cat "$DIR/$ex.out"
    read -r n ok skip worst best modes < <(csv_figures "$csv" 2>/dev/null || echo 0 0 0 999 0 none)
    verdict '[ $src -eq 0 ] && [ "$n" -gt 0 ] && [ "$ok" -eq "$n" ]' \
        "$ex verification: $ok of $n measured rows ok ($skip skip rows), best $best GB/s"
    verdict 'awk "BEGIN {exit !($worst <= 2)}"' \
        "$ex residency: largest |occ_measured - occ_achieved (API)| = $worst points over $n rows (want <= 2)"
    verdict '[ "$modes" = "$want_mode" ]' "$ex grid policy: mode column '$modes' (want $want_mode)"
    knees=$(awk '/knee occ %/ {t = 1; next} t && /^rows:/ {exit} t && NF >= 6 {printf "%s %s%%; ", $1, $NF}' "$DIR/$ex.out")
    verdict '[ -n "$knees" ] && ! grep -q " -%" <<<"$knees"' "$ex knee (lowest occupancy at 90% of the best GB/s): $knees"
    ls "$DIR/$ex-$ts"*.png >/dev/null 2>&1 && pass "$ex figures: $(cd "$DIR" && ls $ex-$ts*.png | tr '\n' ' ')" ||
        echo "NOTE $ex figures: none (no gnuplot here: plots/plot $csv where gnuplot is)"
done
verdict 'grep -q "^model: " "$DIR/saxpy.out" && [ -f "$DIR/saxpy-$ts-knee.md" ]' \
    "saxpy Little's-law model table and knee report ($(grep '^model: ' "$DIR/saxpy.out"))"

# --resume of the finished SAXPY CSV: nothing left to measure, every row kept.
before=$(grep -vc '^#' "$DIR/saxpy-$ts.csv")
./run_sweep --plugin "$OCC_BUILD/examples/libsaxpy.so" --occ 12.5..100 --max-time 0.25 \
    --no-loaded --resume "$DIR/saxpy-$ts.csv" >"$DIR/resume.out" 2>"$DIR/resume.err"
verdict '[ $? -eq 0 ] && grep -q "0 points to measure" "$DIR/resume.err" && [ "$(grep -vc "^#" "$DIR/saxpy-$ts.csv")" -eq "$before" ]' \
    "saxpy --resume: $(grep resuming "$DIR/resume.err")"

# --ncu on one point (skipped where ncu is absent), after the 44 load levels, which ncu leaves
# unprofiled (their ncu_* columns NaN): the plugin's row is the one judged.
if command -v ncu >/dev/null || [ -x /usr/local/cuda/bin/ncu ]; then
    ./run_sweep --plugin "$OCC_BUILD/examples/libsaxpy.so" --unroll 8 --occ 50 --ncu --quiet \
        --out "$DIR/saxpy-ncu-$ts.csv" >"$DIR/ncu.out" 2>"$DIR/ncu.err"
    occ=$(awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
        $c["mode"] == "persistent" {print $c["ncu_occ_achieved_pct"]}' "$DIR/saxpy-ncu-$ts.csv" 2>/dev/null)
    verdict '[ -n "$occ" ] && awk "BEGIN {exit !($occ > 0)}"' "saxpy --ncu: warps active $occ% at 50% set"
else
    echo "SKIP --ncu: no ncu on this machine"
fi
echo "wrote $DIR"
exit $rc
