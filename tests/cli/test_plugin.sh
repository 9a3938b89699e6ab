#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_plugin.sh OCCSWEEP ARCH SAXPY STENCIL FAULTY FAULTY_SM80 STUB1..STUB16: plugins on
# CPU. The example plugins' plans for ARCH (--dry-run --arch: registers and shared memory read
# from their own cubins) hold every registered variant at every level, the stencil's own shared
# memory taken off its padding and limiting its largest tile (the skip says so); --list shows
# their variants; a plugin CSV (fake device rows) gets its figures where gnuplot is; and
# each bad plugin is refused with exit 2 and one line saying what is wrong: a missing file, an
# empty path, a bare name of a file in the current directory, no occ_plugin symbol, occ_plugin
# as data, a descriptor or variant table that cannot be read, another ABI, a NULL field, numbers
# out of bounds, a bad or reserved name, no code for ARCH, no device code at all (one line, not
# cuobjdump's own), an abbreviated --plugin, constructors or an occ_plugin() that end, crash or
# hang the process (its trial load in a child), a cuobjdump that hangs or reports a register
# count that is no number (OCC_CUOBJDUMP: the real one, wrapped).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") arch=$2 saxpy=$3 stencil=$4 faulty=$5 faulty_sm80=$6
stub_noentry=$7 stub_abi=$8 stub_null=$9 stub_name=${10} stub_wild=${11} stub_data=${12}
stub_wild_variants=${13} stub_loads=${14} stub_dram=${15} stub_all=${16} stub_builtin=${17}
stub_nocode=${18} stub_ctor_exit=${19} stub_ctor_crash=${20} stub_ctor_hang=${21}
stub_entry_exit=${22}
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

# Refusals: exit 2, one line naming the file and the fault.
refused() { # ARGS... ; the pattern is in $want
    "$bin" --dry-run --arch "$arch" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? lines
    lines=$(wc -l <"$tmp/err")
    check '[ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$want" "$tmp/err"' \
        "$* -> exit $rc, $lines lines: $(head -c 300 "$tmp/err") (want: $want)"
}
want='cannot open shared object file' refused --plugin "$tmp/none.so"
want='--plugin: empty file name' refused --plugin ''
# A FIFO (dlopen would block on it) and a directory: refused before dlopen.
mkfifo "$tmp/fifo.so" && mkdir "$tmp/dir.so"
want='not a regular file' refused --plugin "$tmp/fifo.so"
want='not a regular file' refused --plugin "$tmp/dir.so"
# A name without '/' is looked up on the library path, not here: the refusal says so.
start=$PWD
mkdir "$tmp/here" && cp "$saxpy" "$tmp/here/libocc_here.so" && cd "$tmp/here" || exit 1
want='libocc_here.so: cannot open .*; did you mean ./libocc_here.so?' \
    refused --plugin libocc_here.so
cd "$start" || exit 1
want="plugin $stub_noentry: no symbol occ_plugin (not an occsweep plugin" refused --plugin "$stub_noentry"
want='built for plugin ABI 2, this occsweep takes ABI 1' refused --plugin "$stub_abi"
want='OccPlugin.verify is NULL' refused --plugin "$stub_null"
want="kernel name 'my kernel'" refused --plugin "$stub_name"
# A plugin that lies: a wild descriptor pointer, the descriptor exported as occ_plugin itself, a
# wild variant table (caught, not a crash); numbers that would overflow the rows; reserved names.
want="plugin $stub_wild: occ_plugin() returned an unreadable descriptor (SIGSEGV at 0x1008)" \
    refused --plugin "$stub_wild"
want="plugin $stub_data: occ_plugin is data, not a function" refused --plugin "$stub_data"
want="plugin $stub_wild_variants: occ_plugin()'s descriptor has an unreadable variants table" \
    refused --plugin "$stub_wild_variants"
want='variants\[0\] (stub_v1): loads_in_flight is 2147483647 (want 0..4096)' \
    refused --plugin "$stub_loads"
want='OccPlugin.dram_bytes_per_load_byte is 1e+308 (want 0..16' refused --plugin "$stub_dram"
want="OccPlugin.name 'all' is reserved" refused --plugin "$stub_all"
want="OccPlugin.name 'copy' is a built-in kernel's" refused --plugin "$stub_builtin"
want="was not loaded (spell the option --plugin in full)" refused --plug "$saxpy"
if [ "$arch" != sm_80 ]; then
    want="plugin $faulty_sm80 has no code for $arch (cuobjdump): rebuild it with -arch=$arch"
    refused --plugin "$faulty_sm80"
fi
# A valid plugin without device code: cuobjdump ran and found none; one line says so.
want="plugin $stub_nocode has no code for $arch (cuobjdump: no device code in it): rebuild it with -arch=$arch" \
    refused --plugin "$stub_nocode"
# Constructors that end the process, crash or never return, and an occ_plugin() that ends it:
# each met in the trial load (a child process), one line and exit 2, occsweep unharmed (they made
# --list print nothing with exit 0, crashed it with SIGSEGV, hung it).
want="plugin $stub_ctor_exit: its constructors (run when it is loaded) ended the process in a trial load (exit status 0); not loaded" \
    refused --plugin "$stub_ctor_exit"
want="plugin $stub_ctor_crash: its constructors (run when it is loaded) crashed in a trial load (signal 11," \
    refused --plugin "$stub_ctor_crash"
want="plugin $stub_entry_exit: occ_plugin() ended the process in a trial load (exit status 0)" \
    refused --plugin "$stub_entry_exit"
start_s=$SECONDS
want="plugin $stub_ctor_hang: its constructors (run when it is loaded) did not return within 1 s in a trial load (stopped; OCC_PLUGIN_TIMEOUT_S" \
    OCC_PLUGIN_TIMEOUT_S=1 refused --plugin "$stub_ctor_hang"
check '[ $((SECONDS - start_s)) -lt 30 ]' "the hanging constructor stopped after $((SECONDS - start_s)) s"
"$bin" --list --plugin "$stub_ctor_exit" >"$tmp/out" 2>"$tmp/err"
rc=$?
check '[ $rc -eq 2 ] && grep -q "ended the process in a trial load" "$tmp/err"' \
    "--list --plugin (constructor calls exit(0)): exit $rc, $(head -c 300 "$tmp/err")"
want="OCC_PLUGIN_TIMEOUT_S 'soon': want seconds" OCC_PLUGIN_TIMEOUT_S=soon refused --plugin "$saxpy"
# A cuobjdump that never answers: stopped at the limit, one line naming it. One that reports a
# register count that is no number: refused (it read as 0 registers).
printf '#!/bin/sh\nexec sleep 60\n' >"$tmp/hang-cuobjdump" && chmod +x "$tmp/hang-cuobjdump"
start_s=$SECONDS
want="$tmp/hang-cuobjdump -res-usage $stub_nocode: no answer after 1 s, stopped" \
    OCC_PLUGIN_TIMEOUT_S=1 OCC_CUOBJDUMP=$tmp/hang-cuobjdump refused --plugin "$stub_nocode"
check '[ $((SECONDS - start_s)) -lt 30 ]' "the hanging cuobjdump stopped after $((SECONDS - start_s)) s"
if [ -n "${OCC_CUOBJDUMP:-}" ]; then
    printf '#!/bin/sh\n"%s" "$@" | sed "s/REG:[0-9]*/REG:abc/"\n' "$OCC_CUOBJDUMP" >"$tmp/abc-cuobjdump"
    chmod +x "$tmp/abc-cuobjdump"
    want="variant saxpy_ilp[0-9]*: $tmp/abc-cuobjdump -res-usage gives kernel .* on $arch 'REG:abc', not a whole number" \
        OCC_CUOBJDUMP=$tmp/abc-cuobjdump refused --plugin "$saxpy"
fi
# Two plugins: one per run.
want='one plugin per run' refused --plugin "$saxpy" --plugin "$stencil"
exit $fail
