#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/gpu_check_ncu.sh: the --ncu and --report check on the lent H200 (one call, needs ncu).
#   1. builds for sm_90 only (build-sm90/, OCC_MESON_ARGS=-Dgpu_archs=90) and runs the CPU tests
#      of this work (unit_ncu, report, install);
#   2. times the mission command with --ncu --report: the budget is 300 s, ncu's pass included;
#   3. checks the CSV: ncu_version/ncu_metrics metadata, every ok row profiled (finite ncu_*),
#      ncu's achieved occupancy next to occsweep's measured residency (summary), exit status 0;
#   4. without ncu (NCU=/nonexistent) a one-point --ncu run exits 0 with one "--ncu:" line;
#   5. keeps ncu's real raw page (<csv>-ncu-raw.csv) as the recorded fixture for
#      tests/fixtures/ncu/ (test_ncu parses every raw-*.csv there).
# Writes $OUT/summary.txt (PASS/FAIL lines, timings), $OUT/reduce-ncu.csv, $OUT/raw-h200-reduce.csv
# (the fixture), $OUT/reduce-ncu-report.md and $OUT/ncu-check.tgz (everything, logs included).
# Exit status: 0 every check passed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/out}
LOGS=$OUT/ncu-logs
mkdir -p "$OUT" "$LOGS"
export OCC_BUILD=${OCC_BUILD:-$PWD/build-sm90} OCC_MESON_ARGS=${OCC_MESON_ARGS:--Dgpu_archs=90}
summary=$OUT/summary.txt
: >"$summary"
failed=0
say() { printf '%s\n' "$*" | tee -a "$summary"; }
verdict() { # NAME CONDITION-STATUS DETAIL
    if [ "$2" -eq 0 ]; then say "PASS $1: $3"; else say "FAIL $1: $3"; failed=1; fi
}

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv \
    >"$LOGS/nvidia-smi.txt" 2>&1
say "ncu: $( (command -v ncu && ncu --version | tail -n 1) 2>&1 | tr '\n' ' ')"
./run_sweep --version >"$LOGS/build.log" 2>&1
verdict build $? "$(head -n 1 "$LOGS/build.log")"
meson test -C "$OCC_BUILD" --no-rebuild unit_ncu report install >"$LOGS/cpu-tests.log" 2>&1
verdict cpu-tests $? "unit_ncu, report, install ($(grep -cE '^ *[0-9]+/[0-9]+ .* OK' "$LOGS/cpu-tests.log") OK)"

csv=$OUT/reduce-ncu.csv
rm -f "$csv" "${csv%.csv}"-*
start=$(date +%s)
{ time ./run_sweep --kernel reduce --unroll 1,2,4 --occ 25..100 --ncu --report --out "$csv" \
    >"$LOGS/mission.out" 2>"$LOGS/mission.err"; } 2>"$LOGS/mission.time"
rc=$?
elapsed=$(( $(date +%s) - start ))
verdict mission-exit "$rc" "exit status $rc; $(grep -- '--ncu:' "$LOGS/mission.err" | tr '\n' ' ')"
[ "$elapsed" -le 300 ]
verdict mission-budget $? "$elapsed s wall for the --ncu --report mission command (budget 300 s): $(tr '\n' ' ' <"$LOGS/mission.time")"

# Every ok row profiled; the metadata names version and metrics; ncu's occupancy beside ours.
python3 - "$csv" >"$LOGS/ncu-columns.txt" 2>&1 <<'EOF'
import math, os, sys
sys.path.insert(0, "plots")
import occcsv
t = occcsv.read(sys.argv[1])
names = [c for c, _ in t.columns]
rows = [dict(zip(names, r)) for r in t.rows if r[names.index("status")] == "ok"]
num = occcsv.number
done = [r for r in rows if not math.isnan(num(r["ncu_occ_achieved_pct"]))]
print("ok rows %d, profiled %d; ncu_version %s; ncu_wall_s %s" % (
    len(rows), len(done), t.meta_get("ncu_version"), t.meta_get("ncu_wall_s")))
print("metrics %s" % t.meta_get("ncu_metrics"))
worst = max((abs(num(r["ncu_occ_achieved_pct"]) - num(r["occ_measured_pct"])), r["variant"],
             r["occ_achieved_pct"]) for r in done) if done else None
print("largest |ncu achieved - measured residency|: %s" % (worst,))
for r in done[:: max(1, len(done) // 12)]:
    print("%-22s occ %6s measured %6.2f ncu %6.2f dram %6.2f%% issue %5.2f%% long_sb %7.2f "
          "not_sel %5.2f" % (r["variant"], r["occ_achieved_pct"], num(r["occ_measured_pct"]),
                             num(r["ncu_occ_achieved_pct"]), num(r["ncu_dram_throughput_pct"]),
                             num(r["ncu_issue_active_pct"]), num(r["ncu_stall_long_scoreboard"]),
                             num(r["ncu_stall_not_selected"])))
sys.exit(0 if rows and len(done) == len(rows) and t.meta_get("ncu_metrics") else 1)
EOF
verdict ncu-columns $? "$(head -n 1 "$LOGS/ncu-columns.txt")"
cat "$LOGS/ncu-columns.txt" >>"$summary"
[ -s "${csv%.csv}-report.md" ] && [ -s "${csv%.csv}-report.html" ] &&
    grep -q '^### Nsight Compute' "${csv%.csv}-report.md"
verdict report $? "$(ls "${csv%.csv}"-report.* 2>/dev/null | tr '\n' ' ')"
cp "${csv%.csv}-ncu-raw.csv" "$OUT/raw-h200-reduce.csv" 2>/dev/null
[ -s "$OUT/raw-h200-reduce.csv" ]
verdict fixture $? "ncu raw page kept as raw-h200-reduce.csv ($(wc -l <"$OUT/raw-h200-reduce.csv" 2>/dev/null) lines)"

NCU=/nonexistent ./run_sweep --kernel reduce --unroll 1 --vec 4 --occ 50 --ncu --quiet \
    --out "$LOGS/no-ncu.csv" >"$LOGS/no-ncu.out" 2>"$LOGS/no-ncu.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(grep -c -- '--ncu:' "$LOGS/no-ncu.err")" -eq 1 ]
verdict no-ncu $? "exit $rc; $(grep -- '--ncu:' "$LOGS/no-ncu.err")"

tar czf "$OUT/ncu-check.tgz" -C "$OUT" ncu-logs "$(basename "$csv")" \
    $(cd "$OUT" && ls "$(basename "${csv%.csv}")"-* 2>/dev/null) 2>/dev/null
say "$( [ $failed = 0 ] && echo 'ALL PASS' || echo 'SOME FAILED')"
exit $failed
