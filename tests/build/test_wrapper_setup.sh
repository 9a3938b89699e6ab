#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The set-up wrapper (bench/setup.sh through run_sweep) on a scratch copy built for sm_90:
#  first use: one line naming the archs, then "occsweep: building: N/T steps" lines, nothing else;
#  a first build stopped by SIGTERM leaves no temp log;
#  gpu_archs=auto: the archs a fake nvidia-smi lists (one GPU, several, none: all archs);
#  (b) meson installed by pip into a directory not on PATH: found there, not installed again;
#  (a) a read-only checkout with a complete build: the built binary runs (a line says so when the
#      sources are newer), no shell error from writing a log into the checkout;
#  (c) a copied checkout (cp -r, build/ included): build/ is set up again for the copy, with one
#      line saying so, and then compiles the copy's sources.
set -u
. "$(dirname "$0")/wrapper_lib.sh"
tree=$occ_test_tmp/a
scratch_copy "$tree"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# sweep NAME [ENV...]: run_sweep's dry run with the given environment; NAME.out and NAME.err.
sweep() {
    local name=$1; shift
    local out=$occ_test_tmp/$name.out err=$occ_test_tmp/$name.err
    env "$@" "$tree/run_sweep" "${sweep_args[@]}" >"$out" 2>"$err"
    local rc=$?
    if [ "$rc" -ne 0 ] || ! grep -q '^plan for sm_90: ' "$out"; then
        fail "$name: run_sweep exited $rc without its plan:"; tail -n 6 "$err"
        return 1
    fi
}

# First use: one line naming the archs (OCC_MESON_ARGS: sm_90), then progress lines only.
sweep first-use OCC_PROGRESS_S=3 || { echo "failures: $failures"; exit 1; }
err=$occ_test_tmp/first-use.err
first=$(head -n 1 "$err")
want="occsweep: first use: building for sm_90 (-Dgpu_archs) in build (log on failure only)"
others=$(tail -n +2 "$err" | grep -cvE '^occsweep: building: [0-9]+/[0-9]+ steps$')
steps=$(grep -cE '^occsweep: building: [0-9]+/[0-9]+ steps$' "$err")
if [ "$first" != "$want" ] || [ "$others" != 0 ] || [ "$steps" -lt 1 ]; then
    fail "first use: want '$want', then 'occsweep: building: N/T steps' lines (every 3 s here):"
    cat "$err"
else
    echo "first use: '$first', $steps progress lines"
fi

# A first build stopped by SIGTERM to its process group (as a terminal or Slurm sends it), in a
# build directory of its own on the same tree: its temp log (TMPDIR/occsweep-build.*) is gone.
# Stopped during its configure step: nothing is compiled.
term_tmp=$occ_test_tmp/term-tmp
mkdir "$term_tmp"
TMPDIR=$term_tmp OCC_BUILD=$occ_test_tmp/term-build setsid "$tree/run_sweep" "${sweep_args[@]}" \
    >"$occ_test_tmp/term.out" 2>&1 &
term_pid=$!
build_logs() { ls "$term_tmp" | grep '^occsweep-build\.'; }
for _ in $(seq 600); do
    [ -z "$(build_logs)" ] && kill -0 "$term_pid" 2>/dev/null || break
    sleep 0.1
done
logs=$(build_logs)
sleep 0.5
kill -TERM -- "-$term_pid" 2>/dev/null
wait "$term_pid"
term_rc=$?
if [ -z "$logs" ]; then
    fail "TERM during the first build: no temp log appeared (exit $term_rc):"; cat "$occ_test_tmp/term.out"
elif [ -n "$(build_logs)" ]; then
    fail "TERM during the first build (exit $term_rc): left $(build_logs | tr '\n' ' ')"
else
    echo "TERM during the first build: exit $term_rc, its temp log $logs removed"
fi
rm -rf "$occ_test_tmp/term-build"

# The archs meson.build detects (gpu_archs=auto) with a fake nvidia-smi: the GPU's, the set of
# several GPUs', every arch when nvidia-smi lists none. Configure only (no build).
mkdir -p "$occ_test_tmp/smi"
cat >"$occ_test_tmp/smi/nvidia-smi" <<'SMI'
#!/bin/sh
[ -n "$FAKE_CAPS" ] || { echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."; exit 9; }
printf '%s\n' $FAKE_CAPS
SMI
chmod +x "$occ_test_tmp/smi/nvidia-smi"
detect() { # detect CAPS WANT: the configure message with nvidia-smi listing CAPS
    local b=$occ_test_tmp/detect-build said
    rm -rf "$b"
    said=$(FAKE_CAPS=$1 PATH=$occ_test_tmp/smi:$PATH occ_test_meson setup "$b" "$tree" \
        -Dplugin_examples=false 2>&1 | sed -n 's/^Message: occsweep: //p')
    if [ "$said" = "$2" ]; then echo "auto archs, nvidia-smi '$1': $said"
    else fail "auto archs, nvidia-smi '$1': '$said', want '$2'"; fi
    rm -rf "$b"
}
detect "9.0" "building for sm_90 (the GPU here), PTX of compute_90"
detect "9.0 8.0 9.0" "building for sm_80 sm_90 (the GPUs here), PTX of compute_90"
detect "" "building for sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 (nvidia-smi lists no GPU; all archs), PTX of compute_120"

# (b) PATH with every directory that holds meson replaced by links to all its other entries.
nomeson_path=
n=0
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    if [ -e "$d/meson" ]; then
        n=$((n + 1)); farm=$occ_test_tmp/path$n; mkdir "$farm"
        for e in "$d"/*; do [ "${e##*/}" = meson ] || ln -s "$e" "$farm/"; done
        d=$farm
    fi
    nomeson_path=${nomeson_path:+$nomeson_path:}$d
done
if ! PATH=$nomeson_path python3 -m mesonbuild.mesonmain --version >/dev/null 2>&1; then
    echo "(b) not applicable: this meson is no Python package the PATH's python3 can run"
elif PATH=$nomeson_path command -v meson >/dev/null; then
    fail "(b): meson still on the test's PATH"
elif sweep meson-off-path PATH="$nomeson_path" PIP_NO_INDEX=1; then
    if grep -q 'installing meson\|meson >= .* needed' "$occ_test_tmp/meson-off-path.err"; then
        fail "(b): meson installed again:"; cat "$occ_test_tmp/meson-off-path.err"
    else
        echo "(b) meson off PATH: found"
    fi
fi

# (a) The checkout read-only: a read-only bind mount in a user namespace (root can write anywhere
# else), or the permission bits for other users.
readonly_sweep() {
    local name=$1
    if [ "$(id -u)" = 0 ]; then
        unshare -rm true 2>/dev/null || { echo "(a) skipped: no user namespaces"; return 2; }
        # sweep appends "$tree/run_sweep" ARGS: the command run once the tree is read-only.
        sweep "$name" unshare -rm bash -c \
            'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"' "$tree"
    else
        chmod -R a-w "$tree"
        sweep "$name"
        local rc=$?
        chmod -R u+w "$tree"
        return $rc
    fi
}
if readonly_sweep read-only; then
    if [ -s "$occ_test_tmp/read-only.err" ] || [ -e "$tree/build-log.txt" ]; then
        fail "(a) read-only, up to date: said something or left a log:"
        cat "$occ_test_tmp/read-only.err"
    else
        echo "(a) read-only, up to date: the binary ran"
    fi
    touch "$tree/harness/csv/csv_write.c"
    if readonly_sweep read-only-stale; then
        if grep -q 'read-only and older than the sources' "$occ_test_tmp/read-only-stale.err"; then
            echo "(a) read-only, sources newer: the binary ran, with a line saying so"
        else
            fail "(a) read-only, sources newer: no line saying so:"
            cat "$occ_test_tmp/read-only-stale.err"
        fi
    fi
fi

# (c) cp -r of the checkout and its build/.
copy=$occ_test_tmp/b
cp -r "$tree" "$copy"
tree=$copy
if sweep copied; then
    err=$occ_test_tmp/copied.err
    said=$(grep -c "was configured for $occ_test_tmp/a; setting it up again for $copy: building for sm_90 " "$err")
    lines=$(grep -cvE '^occsweep: building: [0-9]+/[0-9]+ steps$' "$err")
    configured=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["directories"]["source"])' \
        "$copy/build/meson-info/meson-info.json")
    if [ "$said" != 1 ] || [ "$lines" != 1 ] || [ "$configured" != "$copy" ]; then
        fail "(c) copied checkout: build/ configured for $configured; said:"; cat "$err"
    else
        echo "(c) copied checkout: set up again for the copy, one line"
    fi
fi

echo "failures: $failures"
[ "$failures" -eq 0 ]
