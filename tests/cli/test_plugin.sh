#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_plugin.sh OCCSWEEP ARCH SAXPY STENCIL FAULTY FAULTY_SM80: plugins built by nvcc,
# on CPU. The example plugins' plans for ARCH (--dry-run --arch: registers and shared memory read
# from their own cubins) hold every registered variant at every level, the stencil's own shared
# memory taken off its padding and limiting its largest tile (the skip says so); --list shows
# their variants; a plugin CSV (fake device rows) gets its figures where gnuplot is; refused with
# exit 2 and one line: a plugin without code for ARCH, and a cuobjdump report whose register
# count is no number (OCC_CUOBJDUMP: the real one, wrapped; it read as 0 registers). The
# loader's other refusals: test_plugin_stubs.sh.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") arch=$2 saxpy=$3 stencil=$4 faulty=$5 faulty_sm80=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if ! eval "$1"; then echo "FAILED: $2"; fail=1; fi; }

# SAXPY: 4 variants x the 15 levels of 12.5..100 with 128-thread blocks, each planned (regs
# from the cubin) or a skip with the limit that forbids it.
"$bin" --dry-run --arch "$arch" --plugin "$saxpy" --occ 12.5..100 --no-loaded >"$tmp/saxpy" 2>&1
check '[ $? -eq 0 ]' "saxpy dry run: $(head -c 300 "$tmp/saxpy")"
check 'grep -q "^plan for $arch: 60 points" "$tmp/saxpy"' "saxpy: 60 points ($(head -n 1 "$tmp/saxpy"))"
for v in 1 2 4 8; do
    n=$(grep -c "^saxpy_ilp$v " "$tmp/saxpy")
    check '[ "$n" -eq 15 ]' "saxpy_ilp$v: 15 points, got $n"
done
bad=$(grep '^saxpy_' "$tmp/saxpy" | grep -v 'skip: [a-z]* .*allow only' |
    awk '{for (i = 1; i < NF; i++) if ($i == "regs") r = $(i + 1); if (!(r > 0)) print}' | wc -l)
check '[ "$bad" -eq 0 ]' "$bad saxpy lines without registers or a skip reason"

# Stencil: its tile's (T + 2)^2 floats are its own dynamic shared memory: at one level the
# 64 x 64 tile (17424 B) gets 16128 B less padding than the 16 x 16 one (1296 B); at 100% the
# 64 tile is refused by shared memory (12 blocks/SM at most on sm_90).
"$bin" --dry-run --arch "$arch" --plugin "$stencil" --occ 25,100 >"$tmp/stencil" 2>&1
check '[ $? -eq 0 ]' "stencil dry run: $(head -c 300 "$tmp/stencil")"
pad() { awk -v v="$1" -v o="$2" '$1 == v && $5 == o {for (i = 1; i < NF; i++) if ($i == "pad") print $(i + 1)}' "$tmp/stencil"; }
p16=$(pad stencil_t16_l2 25.00%) p64=$(pad stencil_t64_l8 25.00%)
check '[ -n "$p16" ] && [ -n "$p64" ] && [ $((p16 - p64)) -eq 16128 ]' \
    "stencil pads at 25%: t16 ${p16:-none}, t64 ${p64:-none} (want 16128 B apart)"
check 'grep -q "^stencil_t64_l8 .*100.00%  skip: its own shared memory allows only 12 blocks/SM" "$tmp/stencil"' \
    "stencil_t64_l8 at 100%: a shared-memory skip ($(grep '^stencil_t64_l8.*100.00' "$tmp/stencil"))"

# Built-in kernels and a plugin together; the plugin's variants in --list.
"$bin" --dry-run --arch "$arch" --plugin "$saxpy" --kernel copy,saxpy --unroll 4 --vec 16 --occ 50 >"$tmp/both" 2>&1
check '[ $? -eq 0 ] && [ "$(grep -c "^copy_u4_v16 \|^saxpy_ilp2 " "$tmp/both")" -eq 2 ] &&
    [ "$(grep -c "^copy_\|^saxpy_" "$tmp/both")" -eq 2 ]' \
    "--kernel copy,saxpy --unroll 4: copy_u4_v16 and saxpy_ilp2 (4 loads in flight): $(cat "$tmp/both")"
"$bin" --list --plugin "$faulty" >"$tmp/list" 2>&1
check '[ $? -eq 0 ] && [ "$(tail -n 3 "$tmp/list" | tr "\n" " ")" = "faulty_ok faulty_wrong faulty_crash " ]' \
    "--list --plugin: the plugin's variants last ($(tail -n 3 "$tmp/list" | tr '\n' ' '))"

# The figures of a plugin's CSV (a fake device's rows: OCC_FAKE_DEVICES), where gnuplot is.
if command -v gnuplot >/dev/null && [ -n "${OCC_SOURCE_ROOT:-}" ]; then
    OCC_FAKE_DEVICES=$arch "$bin" --dry-run --plugin "$saxpy" --occ 25..100 --device all \
        --out "$tmp/fake.csv" >"$tmp/fake.out" 2>&1
    csv=$(ls "$tmp"/fake-gpu0-*.csv 2>/dev/null | head -n 1)
    (cd "$tmp" && "$OCC_SOURCE_ROOT/plots/plot" "$csv") >"$tmp/plot.out" 2>&1
    check '[ -s "${csv%.csv}-occupancy-saxpy.png" ] && [ -s "${csv%.csv}-inflight-saxpy.png" ]' \
        "figures of a plugin CSV: $(tail -n 3 "$tmp/plot.out") $(tail -n 2 "$tmp/fake.out")"
fi

# Refusals: exit 2, one line naming the file and the fault (test_plugin_stubs.sh has the rest).
# refused PATTERN ARGS...: a dry run for ARCH with ARGS refused so.
refused() {
    "$bin" --dry-run --arch "$arch" "${@:2}" >"$tmp/out" 2>"$tmp/err"
    local rc=$? want=$1
    check '[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$want" "$tmp/err"' \
        "${*:2} -> exit $rc: $(head -c 300 "$tmp/err") (want: $want)"
}
if [ "$arch" != sm_80 ]; then
    refused "plugin $faulty_sm80 has no code for $arch (cuobjdump): rebuild it with -arch=$arch" \
        --plugin "$faulty_sm80"
fi
# A cuobjdump (the build's, wrapped) whose report gives the registers as 'abc': refused.
real=${OCC_CUOBJDUMP:?set OCC_CUOBJDUMP to the build\'s cuobjdump (meson test does)}
printf '#!/bin/sh\n"%s" "$@" | sed "s/REG:[0-9]*/REG:abc/"\n' "$real" >"$tmp/abc-cuobjdump"
chmod +x "$tmp/abc-cuobjdump"
OCC_CUOBJDUMP=$tmp/abc-cuobjdump refused \
    "variant saxpy_ilp[0-9]*: $tmp/abc-cuobjdump -res-usage gives kernel .* on $arch 'REG:abc', not a whole number" \
    --plugin "$saxpy"
exit $fail
