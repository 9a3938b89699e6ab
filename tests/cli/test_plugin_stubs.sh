#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_plugin_stubs.sh OCCSWEEP ARCH STUB1..STUB16: the plugin loader's refusals, on
# shared objects the C compiler builds (plugin_stub.c, one per OCC_STUB case; every build runs
# this, the sanitized one included). Each bad plugin is refused with exit 2 and one line saying
# what is wrong: a missing file, an empty path, a FIFO or a directory, a bare name of a file in
# the current directory, no occ_plugin symbol, occ_plugin as data, a descriptor or variant table
# that cannot be read, another ABI, a NULL field, numbers out of bounds, a bad or reserved name,
# no device code at all (one line, not cuobjdump's own), an abbreviated --plugin, two plugins,
# constructors or an occ_plugin() that end, crash or hang the process (met in the trial load, a
# child process; they ended occsweep with exit 0 and nothing printed, crashed it, hung it), a bad
# OCC_PLUGIN_TIMEOUT_S, and a cuobjdump that never answers (it hung occsweep).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") arch=$2
stub_noentry=$3 stub_abi=$4 stub_null=$5 stub_name=$6 stub_wild=$7 stub_data=$8
stub_wild_variants=$9 stub_loads=${10} stub_dram=${11} stub_all=${12} stub_builtin=${13}
stub_nocode=${14} stub_ctor_exit=${15} stub_ctor_crash=${16} stub_ctor_hang=${17}
stub_entry_exit=${18}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if ! eval "$1"; then echo "FAILED: $2"; fail=1; fi; }

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
mkdir "$tmp/here" && cp "$stub_nocode" "$tmp/here/libocc_here.so" && cd "$tmp/here" || exit 1
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
want="was not loaded (spell the option --plugin in full)" refused --plug "$stub_nocode"
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
want="OCC_PLUGIN_TIMEOUT_S 'soon': want seconds" OCC_PLUGIN_TIMEOUT_S=soon refused --plugin "$stub_nocode"
# A cuobjdump that never answers: stopped at the limit, one line naming it.
printf '#!/bin/sh\nexec sleep 60\n' >"$tmp/hang-cuobjdump" && chmod +x "$tmp/hang-cuobjdump"
start_s=$SECONDS
want="$tmp/hang-cuobjdump -res-usage $stub_nocode: no answer after 1 s, stopped" \
    OCC_PLUGIN_TIMEOUT_S=1 OCC_CUOBJDUMP=$tmp/hang-cuobjdump refused --plugin "$stub_nocode"
check '[ $((SECONDS - start_s)) -lt 30 ]' "the hanging cuobjdump stopped after $((SECONDS - start_s)) s"
# Two plugins: one per run.
want='one plugin per run' refused --plugin "$stub_nocode" --plugin "$stub_nocode"
exit $fail
