# SPDX-License-Identifier: Apache-2.0
# tools/gpu/gpu_check_lib.sh DEFAULT_OUT [OUT_DIR]: the start that the GPU checks judging a build
# share (sourced by gpu_check_ladder.sh, gpu_check_loaded.sh and gpu_repeat.sh): cd to the source
# tree, OUT (OUT_DIR, else DEFAULT_OUT, made absolute) and LOGS=$OUT/logs, the build's
# environment (OCC_BUILD, default build-sm90; OCC_MESON_ARGS, default sm_90 only), rc (0 until a
# say fails), say OK TEXT (a PASS or FAIL line), ms (the time in ms), and the first step: the
# build, as a PASS or FAIL line.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=$(mkdir -p "${2:-$1}" && cd "${2:-$1}" && pwd)
LOGS=$OUT/logs
mkdir -p "$LOGS"
export OCC_BUILD=${OCC_BUILD:-$PWD/build-sm90}
export OCC_MESON_ARGS=${OCC_MESON_ARGS:--Dgpu_archs=90 -Dgpu_ptx=}
rc=0
say() { # say OK TEXT: a PASS or FAIL line
    if [ "$1" = 0 ]; then echo "PASS: $2"; else echo "FAIL: $2"; rc=1; fi
}
ms() { echo $(($(date +%s%N) / 1000000)); }

t0=$(ms)
./run_sweep --version >"$LOGS/build.log" 2>&1
say $? "build in $OCC_BUILD ($(($(ms) - t0)) ms; $LOGS/build.log)"
