# SPDX-License-Identifier: Apache-2.0
# tests/build/wrapper_lib.sh: sourced by the set-up wrapper's tests. A scratch copy of the source
# tree (tracked and untracked-but-not-ignored files) in a temp dir removed on exit, and an
# environment that builds it for sm_90 only, without PTX and the example plugins (the smallest
# build that runs the wrapper's paths: about 40 s on an idle 2-core machine), in its own build/.
occ_test_src=${OCC_SOURCE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
occ_test_tmp=$(mktemp -d)
trap 'chmod -R u+w "$occ_test_tmp" 2>/dev/null; rm -rf "$occ_test_tmp"' EXIT
unset OCC_ROOT OCC_BUILD
export OCC_MESON_ARGS="-Dgpu_archs=90 -Dgpu_ptx= -Dplugin_examples=false"

# meson as the wrapper finds it (bench/setup.sh), for a test that configures a tree itself.
occ_test_meson() { (. "$occ_test_src/bench/setup.sh" && occ_find_meson && meson "$@"); }

# scratch_copy DIR: the source tree's files, copied to DIR (outside git: all but build/).
scratch_copy() {
    mkdir -p "$1"
    if git -C "$occ_test_src" rev-parse --git-dir >/dev/null 2>&1; then
        # --ignore-failed-read: a tracked file deleted in the work tree is left out, not an error.
        (cd "$occ_test_src" && git ls-files -z --cached --others --exclude-standard |
            tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$1"
    else
        tar -C "$occ_test_src" --exclude=./build -cf - . | tar -xf - -C "$1"
    fi
    [ -x "$1/run_sweep" ] || { echo "cannot copy $occ_test_src to $1"; exit 99; }
}

# A dry-run sweep: no GPU needed; prints "plan for sm_90: N points".
sweep_args=(--dry-run --arch sm_90 --occ 50)
