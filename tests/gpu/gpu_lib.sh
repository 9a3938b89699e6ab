# SPDX-License-Identifier: Apache-2.0
# tests/gpu/gpu_lib.sh: sourced by the GPU test scripts (test_gpu_sweep.sh, test_gpu_figures.sh).
# gpu_absent RC LOG: when RC is occsweep's exit status for "no usable GPU" (3), prints LOG and
# exits the script: 77 (skip), or 1 with OCC_REQUIRE_GPU=1. Otherwise returns. Then fail (0) and
# check CMD MESSAGE: evaluates CMD and, when it fails, prints "FAILED: MESSAGE" and sets fail=1.
gpu_absent() {
    [ "$1" -eq 3 ] || return 0
    cat "$2"
    [ "${OCC_REQUIRE_GPU:-0}" = 1 ] && exit 1
    exit 77
}
fail=0
check() { if ! eval "$1"; then echo "FAILED: $2"; fail=1; fi; }
