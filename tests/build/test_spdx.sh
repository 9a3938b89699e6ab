#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/build/test_spdx.sh SRCDIR: every source file the repository tracks (C, CUDA, Python, shell,
# gnuplot, meson, the wrappers) names its licence in its first lines, and LICENSE holds it.
set -u
cd "$1" || exit 99
grep -q "Apache License" LICENSE && grep -q "Version 2.0" LICENSE || { echo "FAIL: LICENSE"; exit 1; }
missing=0 n=0
while IFS= read -r f; do
    case $f in
    results/*) continue ;;
    tests/fixtures/*.py) ;;
    tests/fixtures/*) continue ;;
    *.c | *.h | *.h.in | *.cu | *.cuh | *.py | *.sh | *.gp | *.sbatch | */meson.build | meson.build | \
        meson.options | run_sweep | run_tests | plots/plot | bench/slurm/submit | .ci/run) ;;
    *) continue ;;
    esac
    n=$((n + 1))
    head -n 3 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' || { echo "FAIL: $f"; missing=$((missing + 1)); }
done < <(git ls-files 2>/dev/null || find . -path "./build*" -prune -o -type f -print | sed "s|^\./||")
echo "$n files checked, $missing without an SPDX line"
[ "$missing" -eq 0 ] && [ "$n" -gt 100 ]
