#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/gpu/async_probe.sh [GIB]: builds tools/gpu/async_probe.cu (the asynchronous-copy and
# wgmma kernels, standalone, sm_90a) in build-async/, counts each kernel's UBLKCP, LDGSTS, HGMMA
# and waits in its SASS, and runs the probe's three parts (bulk, cp, wgmma) on GPU 0, each in its
# own process under a 150 s limit (GIB: the copy buffer, default 4). Writes
# under $OUT (default ./out): build.log, sass_counts.csv, sass.txt.gz, nvidia-smi.txt,
# async_probe.csv (the probe's rows; see the header of async_probe.cu) and async_probe.err.
# Exits 1 when the build fails, the probe fails or times out, or a row fails verification.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-./out}
mkdir -p "$OUT" build-async
export PATH=/usr/local/cuda/bin:$PATH
bin=build-async/async_probe

nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o "$bin" tools/gpu/async_probe.cu \
    kernels/async_copy.cu kernels/wgmma.cu >"$OUT/build.log" 2>&1
build_rc=$?
echo "build: rc=$build_rc ($(wc -l <"$OUT/build.log") lines of compiler output)"
[ "$build_rc" = 0 ] || { cat "$OUT/build.log"; exit 1; }

# Per kernel: the instructions that carry the asynchronous work and its waits.
cuobjdump -sass "$bin" >build-async/sass.txt
gzip -c build-async/sass.txt >"$OUT/sass.txt.gz"
awk -v OFS=, '
    BEGIN { n = split("UBLKCP LDGSTS LDGDEPBAR DEPBAR HGMMA WARPGROUP.ARRIVE WARPGROUP.DEPBAR " \
                      "SYNCS.ARRIVE SYNCS.PHASECHK LDS LDL STL", ins, " ")
            printf "kernel"; for (i = 1; i <= n; i++) printf ",%s", ins[i]; print "" }
    function flush() { if (k != "") { printf "%s", k; for (i = 1; i <= n; i++) printf ",%d", c[i]; print "" } }
    /Function : / { flush(); k = $NF; for (i = 1; i <= n; i++) c[i] = 0; next }
    k != "" && /\/\*[0-9a-f]+\*\// {
        op = $2; if (op ~ /^@/) op = $3
        for (i = 1; i <= n; i++) if (index(op, ins[i]) == 1) c[i]++
    }
    END { flush() }' build-async/sass.txt >"$OUT/sass_counts.csv"
echo "sass: $(($(wc -l <"$OUT/sass_counts.csv") - 1)) kernels in $OUT/sass_counts.csv"

nvidia-smi -q -d CLOCK,PERFORMANCE >"$OUT/nvidia-smi.txt" 2>&1

# One process per part, each under its own time limit: a part that hangs or faults (a trap, a
# sticky error) cannot take the others with it.
probe_rc=0
: >"$OUT/async_probe.csv"
: >"$OUT/async_probe.err"
for part in bulk cp wgmma; do
    timeout 150 "$bin" "${1:-4}" "$part" >>"$OUT/async_probe.csv" 2>>"$OUT/async_probe.err"
    rc=$?
    echo "part $part: rc=$rc"
    [ "$rc" = 0 ] || probe_rc=$rc
done
echo "probe: rc=$probe_rc, $(grep -c ',ok$' "$OUT/async_probe.csv") rows ok," \
    "$(grep -c ',FAIL$' "$OUT/async_probe.csv") FAIL, $(grep -c ',skip:' "$OUT/async_probe.csv") skipped"
grep '^roof' "$OUT/async_probe.csv"
cat "$OUT/async_probe.err"
[ "$probe_rc" = 0 ] && ! grep -q ',FAIL$' "$OUT/async_probe.csv"
