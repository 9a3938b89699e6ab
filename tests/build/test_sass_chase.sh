#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/build/test_sass_chase.sh KERNELS_LIB CUOBJDUMP: the latency ladder's address chain is, in
# the machine code of every compiled arch, a chain of loads and nothing else: each LDG takes its
# address from the register the previous LDG loaded, with no IMAD, LEA or SHF in between (the
# index arithmetic the index chain pays on every hop). The 4-byte index kernel, checked the same
# way, must show that arithmetic, so the check can tell the two apart. Skips (77) when cuobjdump
# cannot disassemble (nvdisasm missing: pip install nvidia-cuda-nvdisasm).
set -u
lib=$1 cuobjdump=$2
PATH=$(dirname "$cuobjdump"):$PATH
address='_Z20chase_latency_kernelI10AddressHopyEvT_T0_iiiPxPyS4_'
index4='_Z20chase_latency_kernelI8IndexHopIjEjEvT_T0_iiiPxPyS5_'

# The longest run of dependent LDGs with no IMAD/LEA/SHF between them, per arch that has the
# function (the library's other objects list their archs too): "sm_90 16".
longest_chain() {
    "$cuobjdump" -sass -fun "$1" "$lib" 2>/dev/null | awk '
        function flush() { if (seen) print arch, best; seen = 0 }
        /^[ \t]*arch = / { flush(); arch = $3; best = 0; run = 0; dest = "" }
        /Function : / { seen = 1 }
        seen && /\/\*[0-9a-f]+\*\// {
            line = $0
            sub(/^.*\/\*[0-9a-f]+\*\/[ \t]*/, "", line)
            sub(/^@!?U?P[0-9T]+[ \t]+/, "", line)
            split(line, tok, /[ ,;]+/)
            op = tok[1]
            if (op ~ /^LDG/) {
                addr = line
                sub(/^.*\[/, "", addr)
                sub(/(\.64)?\].*$/, "", addr)
                run = (addr == dest && clean) ? run + 1 : 1
                if (run > best) best = run
                dest = tok[2]
                clean = 1
            } else if (op ~ /^(IMAD|LEA|SHF)/) {
                clean = 0
            } else if (op ~ /^(BRA|EXIT|RET)/) {
                dest = ""
            }
        }
        END { flush() }'
}

if ! "$cuobjdump" -sass -fun "$address" "$lib" >/dev/null 2>&1; then
    echo "cuobjdump cannot disassemble here (nvdisasm missing?): skipped"
    exit 77
fi
fail=0
# expect KERNEL TEST BOUND WHAT: every arch's longest run must pass [ RUN TEST BOUND ].
expect() {
    local runs arch n
    runs=$(longest_chain "$1")
    [ -n "$runs" ] || { echo "FAILED: no SASS for the $4 kernel in $lib"; fail=1; return; }
    while read -r arch n; do
        [ "$n" "$2" "$3" ] && continue
        echo "FAILED: $arch $4: longest run of $n dependent LDGs without IMAD/LEA/SHF between"
        fail=1
    done <<<"$runs"
    echo "$4, longest run of dependent LDGs with nothing between: $(sed 's/ /: /' <<<"$runs" | paste -sd, -)"
}
expect "$address" -ge 8 "address chain"
expect "$index4" -le 1 "4-byte index chain (the control: arithmetic on every hop)"
exit $fail
