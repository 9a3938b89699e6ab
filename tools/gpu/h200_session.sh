#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/h200_session.sh [STEP...]: what one call on the lent GPU machine runs, in one go: build,
# GPU tests (required to run: OCC_REQUIRE_GPU=1), then the sweeps whose CSVs become reference
# results (written by run_sweep to its default path runs/<gpu>/, then packed into $OUT as
# results/<gpu>/, the folder tools/results/refresh.py makes them the reference set of).
# Steps: tests, mission, reduce, copy, ladder, chase, thread (default: all, in that order), cold,
# fma, mixed (the arithmetic families, as tools/gpu/gpu_check_fma.sh runs them), arith
# (tools/analysis/arith_report.py over this session's CSVs: plateaus, knees, the FMA latency),
# blocks (the default reduce sweep at blocks 128, 256, 512 and 1024), blockcheck
# (tools/gpu/gpu_check_block.sh on this build, into the logs), levers (reduce and copy U 4, 8 x
# V 8, 16 through both levers: the register ladder against padding), leverscheck
# (tools/gpu/gpu_check_ladder.sh on this build), compare (this session's runs against
# results/h200's runs of the same command, by tests/fleet/compare_runs.py), static (copy+reduce with
# --schedule static), big (copy+reduce at --size 4G), fidelity (tools/analysis/fidelity.py over
# this session's CSVs);
# also: fmancu (Nsight Compute on fp32 FMA chains), dips (Nsight Compute's DRAM throughput, bytes
# and warps where the reduce and copy curves bend down, and the block-256 sweeps that halve the
# blocks per SM), sanitize (tools/gpu/sanitize.sh: compute-sanitizer over every kernel), ncu
# (achieved occupancy of a few points from Nsight Compute next to occsweep's own measured
# residency), perf (reduce/copy variants), plugin (tools/gpu/gpu_check_plugin.sh on this build:
# the example plugins' tests and sweeps, into the logs), loaded (tools/gpu/gpu_check_loaded.sh on
# this build: the loaded-latency model's targets, into the logs), gputests (the GPU suite alone:
# OCC_REQUIRE_GPU=1 ./run_tests --suite gpu), smem (the smem family's chase, stream and rw sweeps),
# mma (the mma family, one sweep per input type), async (the async family's bulk and cp modes),
# wgmma (the wgmma family, f16 and bf16), plugins (the example plugins' default sweeps, SAXPY and
# the stencil), ncureport (one --ncu --report run: reduce_u4_v16, 25 to 100%), smemncu (Nsight Compute's shared-memory bank
# conflicts of the smem patterns), agreement (occsweep
# --recompute over this session's CSVs: the model's agreement line of each, into
# logs/agreement.log).
# Writes $OUT (default ./out): results.tgz (the CSVs and knee reports this call wrote under
# runs/<gpu>/, as results/<gpu>/<name>) and logs.tgz, packed again after every step.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/out}
LOGS=$OUT/logs
mkdir -p "$OUT" "$LOGS" runs
steps=${*:-tests mission reduce copy ladder chase thread}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv | tee "$LOGS/nvidia-smi.txt"
ms() { echo $(( $(date +%s%N) / 1000000 )); }
# ncu_points: Nsight Compute's achieved occupancy for a few points, each isolated by its NVTX
# range (two spellings of the range filter are tried), next to the CSV occsweep writes for it.
ncu_points() {
    local k u v o name
    for spec in "reduce 4 16 25" "reduce 4 16 50" "reduce 1 4 100" "copy 2 8 50" "chase 1 4 50"; do
        read -r k u v o <<<"$spec"
        if [ "$k" = chase ]; then name="chase_warp_k$u"; else name="${k}_u${u}_v${v}"; fi
        for filter in "$name occ=$o%/" "occsweep sweep/$name occ=$o%/"; do
            echo "point $name occ=$o% filter '$filter'"
            ncu --clock-control none --nvtx --nvtx-include "$filter" --launch-count 1 \
                --metrics sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active \
                build/bench/occsweep --kernel "$k" --unroll "$u" --vec "$v" --occ "$o" --quiet \
                --max-time 0.05 --min-samples 3 --force --out "$LOGS/ncu-points.csv" 2>&1 | grep -v "^\[" | tail -n 12
            awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
                {print "point occsweep", $c["variant"], "occ api", $c["occ_achieved_pct"], "measured", $c["occ_measured_pct"]}' "$LOGS/ncu-points.csv"
        done
    done
}
# ncu_at KERNEL U V OCC METRICS CSV LABEL: Nsight Compute's METRICS for one sweep point, isolated
# by its NVTX range, each line prefixed "LABEL occ OCC%: ".
ncu_at() {
    ncu --clock-control none --nvtx --nvtx-include "occsweep sweep/$7 occ=$4%/" --launch-count 1 \
        --metrics "$5" build/bench/occsweep --kernel "$1" --unroll "$2" --vec "$3" --occ "$4" \
        --quiet --max-time 0.05 --min-samples 3 --force --out "$6" |
        grep -E "dram__|lts__|gpu__time|sm__|smsp__" | sed "s/^/$7 occ $4%: /"
}
# ncu_dips: for the natural curves that bend down before 100% (reduce_u8_v16 from 25 to 56.25%,
# copy_u8_v4 from 50 to 93.75%), Nsight Compute at the top and at the bent point: the bytes from
# DRAM, the L2 sectors and hit rate, the warps active and DRAM throughput, so that what changed
# is named.
ncu_dips() {
    local spec k u v o m=dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sector_op_read_hit_rate.pct,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
    for spec in "reduce 8 16 25" "reduce 8 16 56.25" "copy 8 4 50" "copy 8 4 93.75"; do
        read -r k u v o <<<"$spec"
        ncu_at "$k" "$u" "$v" "$o" "$m" "$LOGS/dips-$k-$o.csv" "${k}_u${u}_v${v}"
    done
}
# ncu_fma: why one or two fp32 FMA chains stay at 50% / 66% of the peak at full occupancy: issue
# and FMA-pipe activity and the stall reasons of fma_fp32_u1, u2, u4 at 100%.
ncu_fma() {
    local u m=smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_fma.sum,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,sm__warps_active.avg.pct_of_peak_sustained_active
    for u in 1 2 4; do
        ncu_at fma "$u" 4 100 "$m" "$LOGS/fma-u$u.csv" "fma_fp32_u$u"
    done
}
# ncu_smem: shared-memory bank conflicts (and the wavefronts that carry the requests) of the
# smem family's conflict-free patterns: the chase, and the widest read and rw streams.
ncu_smem() {
    local spec mode u v name args m=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
    for spec in "chase 4 0" "stream 4 4" "stream 4 16" "rw 4 4" "rw 4 16"; do
        read -r mode u v <<<"$spec"
        case $mode in
        chase) name=smem_chase_k$u args=() ;;
        stream) name=smem_read_u${u}_v$v args=(--vec "$v") ;;
        rw) name=smem_rw_u${u}_v$v args=(--vec "$v") ;;
        esac
        ncu --clock-control none --nvtx --nvtx-include "occsweep sweep/$name occ=50%/" \
            --launch-count 1 --metrics "$m" build/bench/occsweep --kernel smem --mode "$mode" \
            --unroll "$u" "${args[@]}" --occ 50 --quiet --max-time 0.05 --min-samples 3 --force \
            --out "$LOGS/ncu-$name.csv" | grep -E "l1tex__|smsp__" | sed "s/^/$name occ 50%: /"
    done
}
# Only what this session measured (the CSVs and knee reports written under runs/ after it
# started, named results/<gpu>/... in the archive) and the logs, as two archives (only 8 files
# come back from the machine), made again after every step so that a run cut short still
# returns what it finished.
pack() {
    find runs -newer "$LOGS/nvidia-smi.txt" \( -name '*.csv' -o -name '*-knee.md' \) -print0 |
        tar czf "$OUT/results.tgz" --null -T - --transform 's|^runs/|results/|'
    tar czf "$OUT/logs.tgz" -C "$OUT" logs
}
t0=$(ms)
./run_sweep --version || exit 1
echo "build (first use): $(( $(ms) - t0 )) ms"
for s in $steps; do
    t0=$(ms)
    case $s in
    tests) OCC_REQUIRE_GPU=1 ./run_tests 2>&1 | tee "$LOGS/tests.log" | tail -n 25 ;;
    mission) ./run_sweep --kernel reduce --unroll 1,2,4 --occ 25..100 2>"$LOGS/mission.err" |
        tee "$LOGS/mission.out" | tail -n 40 ;;
    reduce) ./run_sweep --kernel reduce --quiet ;;
    copy) ./run_sweep --kernel copy --quiet ;;
    ladder) ./run_sweep --kernel chase --mode latency --footprint 4K..4G --quiet ;;
    cold) ./run_sweep --kernel chase --mode latency --cold --footprint 4K..4G --quiet ;;
    chase) ./run_sweep --kernel chase --quiet ;;
    thread) ./run_sweep --kernel chase --mode thread --quiet ;;
    fma) ./run_sweep --kernel fma --vec 4,8 --quiet ;;
    mixed) ./run_sweep --kernel mixed --size 8G --quiet ;;
    plugins) ./run_sweep --plugin build/examples/libsaxpy.so --quiet
        ./run_sweep --plugin build/examples/libstencil.so --quiet ;;
    ncureport) ./run_sweep --kernel reduce --unroll 4 --vec 16 --occ 25..100 --ncu --report --quiet ;;
    arith) python3 tools/analysis/arith_report.py $(find runs -newer "$LOGS/nvidia-smi.txt" -name '*.csv' | sort) \
        2>&1 | tee "$LOGS/arith.log" ;;
    blocks) ./run_sweep --kernel reduce --block 128,256,512,1024 --quiet ;;
    blockcheck) OCC_BUILD=$PWD/build tools/gpu/gpu_check_block.sh "$LOGS/block" ;;
    levers) ./run_sweep --kernel reduce,copy --unroll 4,8 --vec 8,16 --lever both --quiet ;;
    leverscheck) OCC_BUILD=$PWD/build tools/gpu/gpu_check_ladder.sh "$LOGS/ladder" 2>&1 | tail -n 40 ;;
    static) ./run_sweep --kernel reduce,copy --schedule static --quiet ;;
    big) ./run_sweep --kernel reduce,copy --size 4G --quiet ;;
    fidelity) python3 tools/analysis/fidelity.py $(find runs -newer "$LOGS/nvidia-smi.txt" -name '*.csv' | sort) \
        2>&1 | tee "$LOGS/fidelity.log" ;;
    sanitize) tools/gpu/sanitize.sh build "$LOGS/sanitize" > "$LOGS/sanitize.log" 2>&1
        echo "sanitize exit $?"; tail -n 30 "$LOGS/sanitize.log" ;;
    dips) ncu_dips 2>&1 | tee "$LOGS/dips.log" | grep -E "occ [0-9.]+%:|==ERROR"
        ./run_sweep --kernel reduce --unroll 2,4 --vec 16 --block 256 --occ 12.5..100 --quiet
        ./run_sweep --kernel copy --unroll 2,4 --vec 8,16 --block 256 --occ 12.5..100 --quiet ;;
    fmancu) ncu_fma 2>&1 | tee "$LOGS/fmancu.log" | grep -E "occ 100%:|==ERROR" ;;
    ncu) ncu_points 2>&1 | tee "$LOGS/ncu.log" | grep -E "^point|warps_active|long_scoreboard|==ERROR|==WARNING" ;;
    compare) # the runs of this session against the reference runs of the same commands
        fresh=$(find runs -newer "$LOGS/nvidia-smi.txt" -name '*.csv')
        for ref in results/h200/*.csv; do
            [ -n "$fresh" ] || break
            cmd=$(grep -m1 '^# command=' "$ref"); cmd=${cmd#\# command=}
            new=$(grep -l -x -F "# command=$cmd" $fresh </dev/null | head -n1)
            [ -n "$new" ] && [ "$new" != "$ref" ] && python3 tests/fleet/compare_runs.py "$ref" "$new"
        done 2>&1 | tee "$LOGS/compare.log" ;;
    perf)
        ./run_sweep --kernel reduce --unroll 4,8 --vec 16 --occ 12.5..62.5 --block 256 --quiet --out "$LOGS/perf-b256.csv" --force | tail -n 8
        ./run_sweep --kernel reduce,copy --unroll 2,4,8 --vec 8,16 --occ 12.5..100 --size 2G --quiet --out "$LOGS/perf-2g.csv" --force | tail -n 20 ;;
    loaded) OCC_BUILD=$PWD/build tools/gpu/gpu_check_loaded.sh "$LOGS/loaded" 2>&1 | tee "$LOGS/loaded.log" |
        grep -E "^(PASS|FAIL)|^loaded check" ;;
    agreement) for csv in $(find runs -newer "$LOGS/nvidia-smi.txt" -name '*.csv' | sort); do
            echo "== $csv $(grep -m1 '^# command=' "$csv")"
            build/bench/occsweep --recompute "$csv" 2>&1 | grep -E "^recomputed|^model agreement|occsweep:"
        done 2>&1 | tee "$LOGS/agreement.log" ;;
    plugin) OCC_BUILD=$PWD/build tools/gpu/gpu_check_plugin.sh "$LOGS/plugin" 2>&1 | tee "$LOGS/plugin.log" |
        grep -E "^(PASS|FAIL|SKIP|NOTE) " ;;
    gputests) OCC_REQUIRE_GPU=1 ./run_tests --suite gpu 2>&1 | tee "$LOGS/gputests.log" | tail -n 25 ;;
    smem) for m in chase stream rw; do ./run_sweep --kernel smem --mode $m --quiet; done ;;
    mma) for m in f16 bf16 tf32 f64; do ./run_sweep --kernel mma --mode $m --quiet; done ;;
    async) for m in bulk cp; do ./run_sweep --kernel async --mode $m --quiet; done ;;
    wgmma) for m in f16 bf16; do ./run_sweep --kernel wgmma --mode $m --quiet; done ;;
    smemncu) ncu_smem 2>&1 | tee "$LOGS/smemncu.log" | grep -E "occ [0-9.]+%:|==ERROR" ;;
    *) echo "unknown step $s" ;;
    esac
    echo "step $s: wall $(( $(ms) - t0 )) ms"
    pack
done
rm -rf "$LOGS"
ls -la "$OUT"
