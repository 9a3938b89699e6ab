#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/build/test_new_family.sh PYTHON: the recipe of docs/design.md ("Adding a family") is all it
# takes. In a copy of the tracked tree it adds the fixture family of tests/fixtures/family/ (fill:
# U stores per thread, no load) by exactly the recipe's places:
#   kernels/families/fill.h          its descriptor (fixtures/family/fill.h)
#   kernels/fill.cu                  its kernels (fixtures/family/fill.cu)
#   harness/families/family_fill.c   its host side (fixtures/family/family_fill.c)
#   kernels/families.def             one registry line
# then configures it (-Dgpu_archs=90 -Dplugin_examples=false), builds occsweep and the family
# table test, and checks: --list lists fill_u1, fill_u2 and fill_u4; --dry-run --arch sm_90
# --kernel fill plans every occupancy level of each; the family table test (options, ops, slots,
# resource rows, the descriptor's SASS promise) and tests/build/test_family_names.py pass on the
# copy.
# Exit 77 (skip) outside a git checkout (the copy is git ls-files); slow: it builds every kernel.
set -u
py=$(command -v "${1:-python3}") || { echo "FAIL: no ${1:-python3}"; exit 99; }
src=$(cd "$(dirname "$0")/../.." && pwd)
fx=$src/tests/fixtures/family
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || { echo "SKIP: not a git checkout"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/occ-newfam.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
(cd "$src" && git ls-files -z | grep -zv '^results/' | xargs -0 tar -cf - 2>/dev/null) |
    tar -xf - -C "$tmp/src" || { echo "FAIL: copying the tree"; exit 99; }
cp "$fx/fill.h" "$tmp/src/kernels/families/fill.h"
cp "$fx/fill.cu" "$tmp/src/kernels/fill.cu"
cp "$fx/family_fill.c" "$tmp/src/harness/families/family_fill.c"
echo '#include "families/fill.h"' >> "$tmp/src/kernels/families.def"

fail=0
check() { # check WHAT WHY: WHY empty is a pass
    if [ -z "$2" ]; then echo "ok: $1"; else echo "FAIL: $1: $2"; fail=1; fi
}
if ! meson setup "$tmp/build" "$tmp/src" -Dgpu_archs=90 -Dplugin_examples=false \
        >"$tmp/setup.log" 2>&1; then
    tail -n 20 "$tmp/setup.log"; echo "FAIL: meson setup of the tree with the new family"; exit 1
fi
if ! ninja -C "$tmp/build" bench/occsweep tests/unit/test_family_table >"$tmp/build.log" 2>&1; then
    grep -E 'error|FAILED' "$tmp/build.log" | head -n 20
    echo "FAIL: building occsweep with the new family"; exit 1
fi
occ=$tmp/build/bench/occsweep
list=$("$occ" --list 2>&1)
missing=""
for v in fill_u1 fill_u2 fill_u4; do
    grep -qx "$v" <<<"$list" || missing="$missing $v"
done
check "--list lists the new family's variants" "${missing:+missing:$missing}"
plan=$("$occ" --dry-run --arch sm_90 --kernel fill 2>&1); rc=$?
why=""
[ $rc -eq 0 ] || why="exit $rc: $(head -n 3 <<<"$plan")"
for v in fill_u1 fill_u2 fill_u4; do
    n=$(grep -c "^$v .*achieved 100.00%" <<<"$plan")
    [ "$n" -ge 1 ] || why="$why; $v not planned at 100% occupancy"
done
levels=$(grep -c '^fill_u' <<<"$plan")
[ "$levels" -eq 48 ] || why="$why; $levels fill points, want 3 variants x 16 levels"
check "--dry-run --arch sm_90 --kernel fill plans its points" "${why#; }"
out=$("$tmp/build/tests/unit/test_family_table" "$py" "$tmp/src/tests/build/test_sass_audit.py" 90 \
    2>&1)
check "the family table test on the tree with the new family" \
    "$([ $? -eq 0 ] || grep FAILED <<<"$out" | head -n 5)"
out=$(OCC_SOURCE_ROOT=$tmp/src "$py" "$tmp/src/tests/build/test_family_names.py" "$occ" 2>&1)
check "no family named outside its own files" "$([ $? -eq 0 ] || tail -n 5 <<<"$out")"
exit $fail
