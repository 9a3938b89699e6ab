#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/build/test_header_deps.sh BUILD_DIR: the CUDA compile rule writes a depfile, so that editing
# a header a .cu includes (kernels/api.h, vec.cuh, ...) rebuilds it (Debian's meson 1.0 did not).
set -u
rule=$(awk '/^rule cuda_COMPILER/ {p = 1; next} p && /^rule / {p = 0} p' "$1/build.ninja")
if grep -q "depfile" <<<"$rule" && grep -q "deps = gcc" <<<"$rule"; then
    echo "cuda compile rule tracks header dependencies"
    exit 0
fi
echo "FAILED: the cuda compile rule in $1/build.ninja has no depfile:"
echo "$rule"
exit 1
