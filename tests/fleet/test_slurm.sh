#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/fleet/test_slurm.sh OCCSWEEP OCCFLEET: the Slurm job array for real, on a one-node cluster
# made here: munged, slurmctld and slurmd (Debian's packages) started with a minimal configuration
# in a temporary directory (their own ports, sockets, spool and state; the node declares 2 GPUs as
# GRES on stand-in device nodes), stopped by pid at the end. bench/slurm/submit sends a --dry-run
# sweep on a fake device list (OCC_FAKE_DEVICES) twice: one task per node (a fleet of 3 fake
# GPUs, one slower) and one task per GPU (--per-gpu 2: each task must get a GPU of its own in
# CUDA_VISIBLE_DEVICES); each collect job must find every task with status 0 and its CSVs, and
# the fleet summary must name the slow fake GPU. Exit 77 (skipped) when the daemons are not
# installed and cannot be (./run_tests installs them as root with apt-get) or not run as root.
set -u
[ $# -eq 2 ] && [ -x "$1" ] && [ -x "$2" ] || { echo "usage: $0 OCCSWEEP OCCFLEET" >&2; exit 99; }
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
FLEET=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
PATH=$PATH:/usr/sbin:/sbin
for tool in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "SKIP: $tool not installed (apt-get install slurmctld slurmd slurm-client munge)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: the test cluster's daemons run as root"; exit 77; }
started=$(date +%s)
T=$(mktemp -d /tmp/occ-slurm.XXXXXX) || exit 99
pids=()
stop() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null
    done
    rm -rf "$T"
}
trap stop EXIT
n_checks=0 n_failed=0
check() { n_checks=$((n_checks + 1)); [ -z "$2" ] || { n_failed=$((n_failed + 1)); echo "FAIL: $1: $2"; }; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
logs() { for f in "$T"/*.log; do echo "--- $f"; tail -n 15 "$f"; done; }

# The submit helper's refusals (exit 2, one line, nothing submitted).
for bad in "-- --kernel reduce" "--partition p --nodelist n -- x" "--partition p --per-gpu 0 --" \
    "--bogus" "--partition" "--partition p --partition q --" "--results -x --partition p --" \
    "--partition p -- --out /elsewhere/z.csv" "--partition p -- --device=0" \
    "--partition p -- --kernel reduce --resume r.csv"; do
    # shellcheck disable=SC2086 # each case is a list of arguments
    said=$("$SRC/bench/slurm/submit" $bad 2>&1); rc=$?
    check "submit $bad: refused with exit 2 and one line" \
        "$([ "$rc" -eq 2 ] && [ "$(echo "$said" | grep -c .)" -eq 1 ] || echo "exit $rc: $said")"
done

# Without --results, nothing lands in the caller's working directory or the reference sets: the
# default is runs/slurm-<UTC> of the checkout (a copy of submit in a scratch tree, with stand-in
# sinfo and sbatch that print what a cluster would); the --sbatch list is passed as words, '*'
# unexpanded.
mkdir -p "$T/tree/bench/slurm" "$T/fakebin" "$T/cwd"
cp "$SRC/bench/slurm/submit" "$T/tree/bench/slurm/"
printf '#!/bin/sh\necho fakenode\n' >"$T/fakebin/sinfo"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >>"%s/sbatch-args"\necho 42\n' "$T" >"$T/fakebin/sbatch"
chmod +x "$T/fakebin/sinfo" "$T/fakebin/sbatch"
touch "$T/cwd/x.sbatch"
said=$(cd "$T/cwd" && PATH=$T/fakebin:$PATH "$T/tree/bench/slurm/submit" --partition p \
    --sbatch '*' -- --kernel reduce 2>&1); rc=$?
check "submit without --results: exit 0, results under the checkout's runs/slurm-<UTC>" \
    "$([ "$rc" -eq 0 ] && echo "$said" | grep -q "results $T/tree/runs/slurm-[0-9TZ]*$" || echo "exit $rc: $said")"
check "submit without --results: the working directory is left as it was" \
    "$(left=$(ls -A "$T/cwd"); [ "$left" = x.sbatch ] || echo "it holds: $left")"
check "submit --sbatch '*': passed to sbatch as '*'" \
    "$(grep -qx '[*]' "$T/sbatch-args" || echo "sbatch got: $(grep -v '^--' "$T/sbatch-args" | head -n 3)")"

# munge: its own key, socket and files.
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/results"
chmod 700 "$T/munge"
head -c 1024 /dev/urandom >"$T/munge/munge.key" && chmod 400 "$T/munge/munge.key"
munged --force --foreground --socket="$T/munge/munge.sock" --key-file="$T/munge/munge.key" \
    --pid-file="$T/munge/munged.pid" --seed-file="$T/munge/seed" --log-file="$T/munged.log" \
    >>"$T/munged.log" 2>&1 &
pids+=($!)

host=$(hostname -s)
cat >"$T/slurm.conf" <<CONF
ClusterName=occci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_interval=1
NodeName=occnode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=500 Gres=gpu:2 State=UNKNOWN
PartitionName=occci Nodes=occnode Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
# Two GRES GPUs whose device files are character devices with the numbers of /dev/null and
# /dev/zero (Slurm wants a device; nothing opens them): Slurm counts them and hands them out,
# setting CUDA_VISIBLE_DEVICES; the fake device list stands in for what they would be.
mkdir -p "$T/dev" && mknod "$T/dev/nvidia0" c 1 3 && mknod "$T/dev/nvidia1" c 1 5 ||
    { echo "cannot make the GRES device nodes"; exit 99; }
printf 'NodeName=occnode Name=gpu File=%s/dev/nvidia[0-1]\n' "$T" >"$T/gres.conf"
export SLURM_CONF=$T/slurm.conf
for _ in $(seq 50); do [ -S "$T/munge/munge.sock" ] && break; sleep 0.1; done
slurmctld -D -i -f "$T/slurm.conf" >>"$T/slurmctld.log" 2>&1 &
pids+=($!)
slurmd -D -N occnode -f "$T/slurm.conf" >>"$T/slurmd.log" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 100); do
    sinfo -h -N -o '%N %t' 2>/dev/null | grep -q '^occnode idle' && { up=1; break; }
    sleep 0.2
done
check "the one-node cluster came up (occnode idle)" \
    "$([ -n "$up" ] || { sinfo -h -N -o '%N %t' 2>&1 | head -n 3; logs; })"
[ -n "$up" ] || { echo "$n_checks checks, $n_failed failed"; exit 1; }

# wait_job ID: until the job (and every task of an array) has left the queue.
wait_job() {
    for _ in $(seq 600); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 0.2
    done
    return 1
}

# submit_and_check NAME FAKE_LIST SUBMIT_ARGS...: a dry-run sweep through bench/slurm/submit, then
# the checks of every task's output and of the collect job's.
submit_and_check() {
    local name=$1 fake=$2 res=$T/results/$1
    shift 2
    local said
    said=$(OCC_FAKE_DEVICES=$fake OCC_SWEEP=$BIN OCC_FLEET=$FLEET "$SRC/bench/slurm/submit" \
        "$@" --results "$res" --compare "--kernel reduce" -- \
        --dry-run --quiet --kernel reduce --unroll 1,4 --vec 16 --occ 25..100 2>&1)
    check "$name: submit said which jobs" \
        "$(echo "$said" | grep -q '^array job [0-9]*' || echo "$said")"
    local array collect
    array=$(echo "$said" | sed -n 's/^array job \([0-9]*\).*/\1/p')
    collect=$(echo "$said" | sed -n 's/.*collect job \([0-9]*\).*/\1/p')
    [ -n "$array" ] && [ -n "$collect" ] || return
    check "$name: the array and the collect job finished" \
        "$(wait_job "$array" && wait_job "$collect" || echo "still queued: $(squeue -h 2>&1 | head -n 3)")"
    local tasks=$(( $(grep -c . "$res/nodes.txt") * ${per_gpu:-1} ))
    for ((t = 0; t < tasks; t++)); do
        local d=$res/occnode/task$t
        check "$name: task $t exit status 0" \
            "$([ "$(cat "$d/status" 2>/dev/null)" = 0 ] || echo "status '$(cat "$d/status" 2>&1)'; $(cat "$res"/slurm/occsweep-*_"$t".out 2>&1 | tail -n 5)")"
        local csvs n_rows=""
        csvs=$(find "$d" -name 'sweep-gpu*-*.csv' 2>/dev/null | sort)
        check "$name: task $t wrote $want_gpus per-GPU CSV(s) under node/task" \
            "$([ "$(echo "$csvs" | grep -c .)" -eq "$want_gpus" ] || echo "found: $csvs")"
        for c in $csvs; do
            grep -q '^# end_status=complete' "$c" || n_rows="$n_rows $(basename "$c") not complete;"
            grep -q '^# gpu_uuid=GPU-' "$c" || n_rows="$n_rows $(basename "$c") has no gpu_uuid;"
            [ "$(grep -c '^Fake sm_90,.*,ok$' "$c")" -gt 0 ] || n_rows="$n_rows $(basename "$c") has no ok row;"
        done
        check "$name: task $t's CSVs are complete, with UUIDs and ok rows" "$n_rows"
    done
    check "$name: collect job's tasks.txt lists every task with status 0" \
        "$([ "$(grep -c 'status 0, ' "$res/tasks.txt" 2>/dev/null)" -eq "$tasks" ] || cat "$res/tasks.txt" "$res"/slurm/occsweep-collect-*.out 2>&1 | head -n 8)"
    check "$name: collect job exit 0" \
        "$(sacct_state=$(scontrol show job "$collect" 2>/dev/null | grep -o 'ExitCode=[0-9:]*' | head -n 1)
           [ -z "$sacct_state" ] || [ "$sacct_state" = ExitCode=0:0 ] || echo "$sacct_state")"
    check "$name: fleet summary written" \
        "$(grep -q '^fleet: ' "$res/fleet.txt" 2>/dev/null || echo "no fleet.txt summary line")"
    if command -v gnuplot >/dev/null 2>&1; then
        check "$name: compare figure drawn" \
            "$([ -s "$res/compare.png" ] && [ -s "$res/compare.svg" ] || cat "$res"/slurm/occsweep-collect-*.out 2>&1 | tail -n 5)"
    fi
}

# One task per node: a fleet of three fake GPUs, the third 20% slower.
want_gpus=3 per_gpu=1
submit_and_check per-node sm_90,sm_90,sm_90:0.8 --partition occci
check "per-node: the fleet summary names the slow fake GPU" \
    "$(grep -q "^outlier: reduce_u4_v16 on $(hostname) gpu2 " "$T/results/per-node/fleet.txt" 2>/dev/null ||
       { echo "fleet.txt:"; head -n 12 "$T/results/per-node/fleet.txt" 2>&1; })"
check "per-node: and only it" \
    "$(! grep '^outlier:' "$T/results/per-node/fleet.txt" 2>/dev/null | grep -v ' gpu2 ' || true)"
# One task per GPU (2 GRES GPUs on the node): Slurm runs the two tasks side by side.
want_gpus=1 per_gpu=2
submit_and_check per-gpu sm_90 --nodelist occnode --per-gpu 2
check "per-gpu: each task was given one GPU of its own (CUDA_VISIBLE_DEVICES 0 and 1)" \
    "$(got=$(sed -n 's/^occsweep: task [0-9]* on occnode, CUDA_VISIBLE_DEVICES=//p' \
                 "$T"/results/per-gpu/slurm/occsweep-*_[01].out 2>/dev/null | sort | xargs)
       [ "$got" = "0 1" ] || echo "got '$got'")"

echo "slurm test took $(( $(date +%s) - started )) s"
echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
