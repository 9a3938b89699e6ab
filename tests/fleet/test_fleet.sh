#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/fleet/test_fleet.sh OCCSWEEP OCCFLEET: --device LIST|all on a fake device list
# (OCC_FAKE_DEVICES, --dry-run), no GPU needed: which workers a list starts, the refusals, one CSV
# per GPU with its UUID and PCI bus id in the name and metadata, the same rows as a single-device
# run, a worker killed mid-run (its finished rows kept, the others complete, exit 1), SIGINT,
# SIGTERM or SIGHUP to the supervisor (every worker stops and keeps its rows), and the fleet
# summary naming the slow GPU and comparing only the sweep's variants (the load levels, the
# model's inputs, counted in one line).
set -u
[ $# -eq 2 ] && [ -x "$2" ] || { echo "usage: $0 OCCSWEEP OCCFLEET" >&2; exit 99; }
FLEET=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
. "$(dirname "$0")/../lib/cli_lib.sh" "$1"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SWEEP=(--dry-run --kernel reduce --unroll 1,4 --vec 16 --occ 25..100)
export OCC_FAKE_DEVICES=sm_90,sm_90,sm_90:0.8,sm_80
# The fake GPUs plan from the build's resource table: a build without sm_90 or sm_80 code
# (-Dgpu_archs=90 for one GPU) cannot stand in for them.
for a in sm_90 sm_80; do
    if ! OCC_FAKE_DEVICES= "$BIN" --dry-run --arch "$a" --kernel reduce --unroll 1 --vec 16 --occ 50 \
        >/dev/null 2>&1; then
        echo "SKIP: this build has no $a code, which the fake device list needs"
        exit 77
    fi
done

run() { (cd "$cwd" && "$BIN" "$@" >"$out" 2>"$err"); rc=$?; }
csvs() { find "$1" -name '*.csv' | sort; }
n_ok() { grep -c ',ok$' "$1"; }

# Which devices a list selects: one CSV per listed index, named by index, PCI id and UUID.
for spec in "all:0 1 2 3" "0,2:0 2" "1..3:1 2 3" "3,0:3 0"; do
    list=${spec%%:*} want=${spec#*:} d=$work/list-${list//[.,]/_}
    run "${SWEEP[@]}" --quiet --device "$list" --out "$d/r.csv"
    got=$(for c in $(csvs "$d"); do basename "$c" | sed 's/^r-gpu\([0-9]*\)-.*/\1/'; done | sort | xargs)
    check "--device $list: exit 0" "$([ "$rc" -eq 0 ] || head -n 3 "$err")"
    check "--device $list: one CSV per listed GPU" \
        "$([ "$got" = "$(echo "$want" | tr ' ' '\n' | sort | xargs)" ] || echo "got gpus '$got'")"
done
c=$(csvs "$work/list-0_2" | tail -n 1)
check "CSV name carries the PCI bus id and UUID" \
    "$(basename "$c" | grep -qx 'r-gpu2-0000\.03\.00\.0-fa4e0002\.csv' || basename "$c")"
check "CSV metadata carries gpu_uuid, pci_bus_id and gpu_index" \
    "$(grep -q '^# gpu_uuid=GPU-fa4e0002-0000-0000-0000-000000000000$' "$c" &&
       grep -q '^# pci_bus_id=0000:03:00.0$' "$c" && grep -q '^# gpu_index=2$' "$c" || head -n 8 "$c")"
check "a worker's log beside its CSV" "$([ -s "${c%.csv}.log" ] || echo "no ${c%.csv}.log")"

# Refusals: one line, documented exit code, no worker started.
refused() { # WANT_RC WANT_TEXT ARGS...
    local want_rc=$1 want=$2
    shift 2
    run "$@"
    check "refused $(cmdline "$@" | head -c 120)" \
        "$([ "$rc" -eq "$want_rc" ] && [ "$(lines "$err")" -eq 1 ] && grep -q -- "$want" "$err" &&
           [ -z "$(find "$cwd" -mindepth 1)" ] || echo "exit $rc: $(head -n 2 "$err")")"
}
refused 3 "--device 4: only 4 device(s) present" "${SWEEP[@]}" --device 0,4
refused 3 "--device 7: only 4 device(s) present" "${SWEEP[@]}" --device 7
refused 2 "'0,x' has a non-integer element" "${SWEEP[@]}" --device 0,x
refused 2 "has a reversed range" "${SWEEP[@]}" --device 3..1
refused 2 "'Al' is not an integer" "${SWEEP[@]}" --device Al
refused 2 "--resume takes one GPU's CSV" "${SWEEP[@]}" --device all --resume "$c"
OCC_FAKE_DEVICES=sm_90,sm_12 refused 2 "entry 2 'sm_12' is not ARCH" "${SWEEP[@]}" --device all
OCC_FAKE_DEVICES=sm_90:0 refused 2 "entry 1 'sm_90:0' is not ARCH" "${SWEEP[@]}" --device all
# The list's bound is a --device list's (16): 17 entries are refused before any worker starts.
seventeen=$(printf 'sm_90,%.0s' $(seq 16))sm_90
OCC_FAKE_DEVICES=$seventeen refused 2 "OCC_FAKE_DEVICES: more than 16 entries" "${SWEEP[@]}" \
    --device all
OCC_FAKE_DEVICES=$seventeen refused 2 "OCC_FAKE_DEVICES: more than 16 entries" "${SWEEP[@]}" \
    --device 0 --out "$cwd/one.csv"
refused 2 "OCC_FAKE_DEVICES needs --dry-run" --kernel reduce --device all
touch "$cwd/taken-gpu0-0000.01.00.0-fa4e0000.csv"
run "${SWEEP[@]}" --device all --out taken.csv
check "a worker's CSV that exists: refused before any worker starts (exit 2)" \
    "$([ "$rc" -eq 2 ] && grep -q 'taken-gpu0-0000.01.00.0-fa4e0000.csv: exists; use --force' "$err" &&
       [ "$(find "$cwd" -mindepth 1 | wc -l)" -eq 1 ] || echo "exit $rc: $(head -n 2 "$err")")"
rm -f "$cwd/taken-gpu0-0000.01.00.0-fa4e0000.csv"
# A fake run resumes only a CSV of its own kind of GPU (its cc and name, as a real run).
refused 2 "measured on compute capability '9.0', this run's is '8.0'" "${SWEEP[@]}" --device 3 \
    --resume "$c"

# --out DIR/: the default names in DIR.
run "${SWEEP[@]}" --quiet --device 0,1 --out "$work/dir/"
check "--out DIR/: the default names in DIR" \
    "$(ls "$work/dir" | grep -c '^reduce-[0-9]\{8\}T[0-9]\{6\}Z-gpu[01]-0000\.0[12]\.00\.0-fa4e000[01]\.csv$' |
       grep -qx 2 || ls "$work/dir")"
# No GPU and no fake list: one line, exit 3 (only where there is no GPU to run on for real).
if ! command -v nvidia-smi >/dev/null 2>&1; then
    OCC_FAKE_DEVICES='' refused 3 "no usable CUDA device (listing the devices)" --kernel reduce --device all
fi

# The same rows as a single-device run (the figures of a fake GPU are a function of its plan).
run "${SWEEP[@]}" --quiet --device 0 --out "$work/single.csv"
check "--device 0 (one device): a plain run" "$([ "$rc" -eq 0 ] && [ -f "$work/single.csv" ] || head -n 2 "$err")"
gpu0=$(csvs "$work/list-all" | head -n 1)
check "--device all's gpu0 rows = the plain run's" \
    "$(python3 "$SRC/tests/fleet/compare_runs.py" "$work/single.csv" "$gpu0" >"$work/cmp" 2>&1 || cat "$work/cmp")"
check "... the same row set" \
    "$(diff <(grep -v '^#' "$work/single.csv") <(grep -v '^#' "$gpu0") | head -n 4)"

# The fleet summary: the 0.8 GPU of the three sm_90 is named, the sm_80 has no siblings.
run "${SWEEP[@]}" --quiet --device all --out "$work/sum/r.csv"
check "summary names gpu2 as the outlier" \
    "$(grep -q '^outlier: reduce_u4_v16 on gpu2 0000:03:00.0 (Fake sm_90): plateau 2400.0 GB/s, -20.00%' "$out" || cat "$out")"
check "summary names no other GPU" "$(grep '^outlier:' "$out" | grep -v ' gpu2 ')"
check "summary: spread per model" \
    "$(grep -q '^spread reduce_u4_v16 on Fake sm_90: 20.00% over 3 runs' "$out" || grep spread "$out")"
# The load levels (kernel chase, mode loaded: the model's inputs) stay in the CSVs, only counted
# (a fake device skips them; tests/unit/test_fleet.c has them measured, with GB/s).
levels=$(grep -v '^#' "$(csvs "$work/sum" | head -n 1)" | grep -c ',chase,loaded,loaded_')
check "summary: the load levels are in the CSVs" "$([ "$levels" -gt 0 ] || echo "$levels levels")"
check "summary: no load level compared" "$(grep 'loaded_' "$out")"
check "summary: one line counts the load levels" \
    "$(grep -qx "model inputs: $levels load levels per run (kernel chase, mode loaded), in the runs' CSVs, not compared here" "$out" ||
       grep -i 'model inputs' "$out" || echo "no model inputs line")"
"$FLEET" $(csvs "$work/sum") >"$work/fleet.txt" 2>&1
check "occfleet over the CSVs: the same outlier, labelled by host" \
    "$(grep -q "^outlier: reduce_u4_v16 on $(hostname) gpu2 0000:03:00.0 " "$work/fleet.txt" || cat "$work/fleet.txt")"
check "occfleet: no load level compared, one line counts them" \
    "$(! grep 'loaded_' "$work/fleet.txt" && grep -q "^model inputs: $levels load levels per run" "$work/fleet.txt" ||
       cat "$work/fleet.txt")"
# Two runs of one GPU (the same file twice, under two names): labelled apart by file name,
# counted as one GPU.
first=$(csvs "$work/sum" | head -n 1)
cp "$first" "$work/again.csv"
"$FLEET" "$first" "$work/again.csv" >"$work/fleet2.txt" 2>&1
check "occfleet: two runs of one GPU told apart by file name, counted as one GPU" \
    "$(grep -q " gpu0 0000:01:00.0 $(basename "$first") " "$work/fleet2.txt" &&
       grep -q " gpu0 0000:01:00.0 again.csv " "$work/fleet2.txt" &&
       grep -q '^fleet: 2 run(s) on 1 GPU(s), ' "$work/fleet2.txt" || cat "$work/fleet2.txt")"
if command -v gnuplot >/dev/null 2>&1; then
    "$SRC/plots/plot" --compare --out "$work/cmp-fig" $(csvs "$work/sum") >"$work/plot.txt" 2>&1
    check "compare figure over the per-GPU CSVs: one curve label per GPU, by PCI bus id" \
        "$(for p in 01 02 03; do
               grep -q "Fake sm_90 0000:$p:00.0" "$work/cmp-fig.svg" 2>/dev/null ||
                   echo "no label for $p: $(tail -n 2 "$work/plot.txt")"
           done)"
fi
"$FLEET" "$work/cmp" >/dev/null 2>"$work/fleet.err"
check "occfleet refuses a file that is no sweep CSV (exit 2)" "$([ $? -eq 2 ] || cat "$work/fleet.err")"

# start_slow DIR: a fleet of 4 fake GPUs at 150 ms a point, in the background ($fleet_pid).
start_slow() {
    (cd "$cwd" && OCC_FAKE_POINT_MS=150 exec "$BIN" "${SWEEP[@]}" --device all --out "$1/r.csv" \
        >"$out" 2>"$err") &
    fleet_pid=$!
    for _ in $(seq 100); do [ "$(grep -c ' pid ' "$err" 2>/dev/null)" -eq 4 ] && break; sleep 0.05; done
}
worker_pid() { sed -n "s/^occsweep: worker gpu$1 .* pid \([0-9]*\) .*/\1/p" "$err"; }
total=$(grep -vc '^#' "$gpu0"); total=$((total - 1))

# A worker killed outright: its finished rows stay, the others complete, exit status 1.
start_slow "$work/kill"
sleep 1
kill -KILL "$(worker_pid 1)"
wait "$fleet_pid"; rc=$?
check "a worker killed: the fleet exits 1" "$([ "$rc" -eq 1 ] || echo "exit $rc: $(tail -n 3 "$err")")"
k=$(csvs "$work/kill" | sed -n 2p)
rows=$(grep -vc '^#' "$k" 2>/dev/null); rows=$((rows - 1))
check "the killed worker's CSV holds its finished rows" \
    "$([ "$rows" -gt 0 ] && [ "$rows" -lt "$total" ] || echo "$rows of $total rows in '$k'")"
check "... closed with end_status=killed" "$(grep -q '^# end_status=killed by signal 9' "$k" || tail -n 1 "$k")"
check "... and no .partial left" "$(find "$work/kill" -name '*.partial')"
for c in $(csvs "$work/kill" | sed 2d); do
    check "the others finished: $(basename "$c")" \
        "$(grep -q '^# end_status=complete after' "$c" || tail -n 1 "$c")"
done
check "the report names the killed worker" "$(grep -q '^  gpu1 .*exit 1, killed by signal' "$out" || cat "$out")"

# SIGINT, SIGTERM or SIGHUP to the supervisor reaches every worker; each keeps its rows (SIGHUP
# ended the supervisor alone, without its report, the workers running on).
for sig in INT TERM HUP; do
    start_slow "$work/$sig"
    sleep 1
    kill -"$sig" "$fleet_pid"
    wait "$fleet_pid"; rc=$?
    check "SIG$sig: the fleet exits 1" "$([ "$rc" -eq 1 ] || echo "exit $rc")"
    n=0
    for c in $(csvs "$work/$sig"); do
        n=$((n + 1))
        check "SIG$sig: $(basename "$c") interrupted with rows kept" \
            "$(grep -q '^# end_status=interrupted after [1-9][0-9]* of' "$c" || tail -n 1 "$c")"
    done
    check "SIG$sig: every worker left its CSV" "$([ "$n" -eq 4 ] || echo "$n CSVs")"
    check "SIG$sig: the report names every worker" "$([ "$(grep -c '^  gpu[0-3] ' "$out")" -eq 4 ] || cat "$out")"
done

# A worker's log is a file of the fleet's own: a symbolic link where it would go is never
# written through, an existing log is replaced only with --force, and names too long for the
# workers' buffers are refused before anything is made (cut names gave two workers one file).
d=$work/logs
mkdir -p "$d"
echo "the user's file" >"$work/precious"
ln -s "$work/precious" "$d/l-gpu0-0000.01.00.0-fa4e0000.log"
run "${SWEEP[@]}" --quiet --device 0,1 --out "$d/l.csv"
check "a log path that is a symbolic link: refused, exit 2" \
    "$([ "$rc" -eq 2 ] && [ "$(cat "$work/precious")" = "the user's file" ] || echo "exit $rc, precious: $(cat "$work/precious")")"
run "${SWEEP[@]}" --quiet --device 0,1 --out "$d/l.csv" --force
check "a log path that is a symbolic link: with --force the link is not followed either" \
    "$([ "$(cat "$work/precious")" = "the user's file" ] || echo "precious now: $(head -c 80 "$work/precious")")"
rm -f "$d"/*
echo old >"$d/m-gpu0-0000.01.00.0-fa4e0000.log"
run "${SWEEP[@]}" --quiet --device 0,1 --out "$d/m.csv"
check "an existing log without --force: refused, exit 2, kept" \
    "$([ "$rc" -eq 2 ] && [ "$(cat "$d/m-gpu0-0000.01.00.0-fa4e0000.log")" = old ] || echo "exit $rc")"
seg=$(printf 'n%.0s' $(seq 200))
long=$work/long/$seg/$seg/$seg/$seg/${seg:0:190}
run "${SWEEP[@]}" --quiet --device 0,1 --out "$long.csv"
check "worker names past the buffers: refused with exit 2 and one line, nothing made" \
    "$([ "$rc" -eq 2 ] && [ "$(grep -c . "$err")" -eq 1 ] && [ ! -e "$work/long" ] || { echo "exit $rc"; head -n 3 "$err"; })"

# occfleet reads only regular files within the input bound: a FIFO (which would block), a device
# (which feeds without end) and a sparse file over 4 GiB are refused at once, exit 2, one line.
mkfifo "$work/fifo.csv"
truncate -s 5G "$work/sparse.csv"
for input in "$work/fifo.csv" /dev/zero "$work/sparse.csv"; do
    said=$(timeout 20 "$FLEET" "$input" 2>&1); rc=$?
    check "occfleet $(basename "$input"): refused with exit 2 and one line" \
        "$([ "$rc" -eq 2 ] && [ "$(echo "$said" | grep -c .)" -eq 1 ] || echo "exit $rc: $(echo "$said" | head -c 200)")"
done
rm -f "$work/fifo.csv" "$work/sparse.csv"
# Its table to a full device: exit 1, one line (it was exit 0).
c=$(csvs "$work/list-0_2" | head -n 1)
said=$("$FLEET" "$c" 2>&1 >/dev/full); rc=$?
check "occfleet >/dev/full: exit 1 and one line" \
    "$([ "$rc" -eq 1 ] && [ "$(echo "$said" | grep -c .)" -eq 1 ] || echo "exit $rc: $said")"

echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
