#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/build/test_fatbin.sh OCCSWEEP RESOURCES_CSV CUOBJDUMP ARCH...: the binary carries SASS for
# sm_90 and for every configured arch, and the build-time resource table lists every variant
# (occsweep --list) for every one of them.
set -u
bin=$1 csv=$2 cuobjdump=$3
shift 3
fail=0
elfs=$("$cuobjdump" --list-elf "$bin")
for a in 90 "$@"; do
    if ! grep -q "\.sm_${a}\.cubin" <<<"$elfs"; then echo "FAILED: no sm_$a cubin in $bin"; fail=1; fi
done
variants=$("$bin" --list)
for a in "$@"; do
    for v in $variants; do
        grep -q "^$v,sm_$a," "$csv" || { echo "FAILED: $v sm_$a missing from $csv"; fail=1; }
    done
done
n=$(wc -l <<<"$variants")
[ $fail -eq 0 ] && echo "sm_90 present; $n variants x $# archs in the resource table"
exit $fail
