#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_cli_estimate.sh: the lines --dry-run prints after its "N points": the estimated
# duration of the run (harness/plan/plan_estimate.h: the typical time and the bound, rounded,
# moved by --max-time and --min-samples) and, for --kernel all, the line saying the latency
# ladder is not part of it and how to run it.
# Usage: test_cli_estimate.sh PATH/TO/occsweep
# Every case gives --arch sm_90, so no GPU is needed.
# Prints one line per failed check and "N checks, M failed"; exits 0 (all passed) or 1.
set -u

. "$(dirname "$0")/../lib/cli_lib.sh"

run() { run_bin --dry-run --arch sm_90 "$@"; }

# estimate_of ARGS...: the dry run's estimate line; empty (and a failed check) when the run did
# not exit 0 with nothing on stderr, "N points" and the estimate right after it.
estimate_of() {
    run "$@"
    local why="" n
    n=$(grep -n -E '^[0-9]+ points$' "$out" | cut -d: -f1)
    if [ "$rc" -ne 0 ]; then why="exit $rc: $(head -n 1 "$err")"
    elif [ -s "$err" ]; then why="stderr: $(head -n 1 "$err")"
    elif [ -z "$n" ]; then why="no 'N points' line"
    elif ! sed -n "$((n + 1))p" "$out" | grep -q '^estimated time'; then
        why="no estimate after line $n: '$(sed -n "$((n + 1))p" "$out")'"
    fi
    check "$(cmdline --dry-run --arch sm_90 "$@"): estimate line" "$why"
    [ -z "$why" ] && sed -n "$((n + 1))p" "$out"
}

# seconds TEXT: the first "about D UNIT" duration of TEXT in seconds ("" when there is none).
seconds() {
    sed -nE 's/.*about ([0-9.]+) (s|min|h)\b.*/\1 \2/p' <<<"$1" |
        awk '{ print $1 * ($2 == "h" ? 3600 : $2 == "min" ? 60 : 1) }'
}
# bound TEXT: the "at most D UNIT" duration of TEXT in seconds.
bound() { seconds "$(sed -nE 's/.*at most ([0-9.]+ (s|min|h)).*/about \1/p' <<<"$1")"; }
# within LO HI S: empty when LO <= S <= HI (seconds), else what S is.
within() {
    awk -v lo="$1" -v hi="$2" -v s="${3:-0}" 'BEGIN { if (s < lo || s > hi) print s " s" }'
}
# below A B: empty when B < A (seconds), else what they are.
below() {
    awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { if (!(b < a)) print b " s, not under " a " s" }'
}
has() { grep -qE -- "$2" <<<"$1" || echo "'$1'"; }
ladder_line() { grep -q '^latency ladder' "$out" && echo "printed"; }

# The mission: 117 points measured in ~7.2 s on an H200; within a factor 2, a bound, rounded.
mission=(--kernel reduce --unroll 1,2,4 --occ 25..100)
line=$(estimate_of "${mission[@]}")
s=$(seconds "$line")
check "mission: about 3.6..14.4 s" "$(within 3.6 14.4 "$s")"
check "mission: the points and the bound" "$(has "$line" \
    '117 points x [0-9.]+ ms\); at most [0-9.]+ (s|min|h) if every point runs to --max-time 0\.5 s')"
check "mission: no fake precision" \
    "$(grep -qE '[0-9]\.[0-9]+ s' <<<"${line%%;*}" && echo "'$line'")"
check "mission: no ladder line" "$(ladder_line)"
# A shorter --max-time, fewer --min-samples: a lower bound, a shorter estimate.
short=$(estimate_of "${mission[@]}" --max-time 0.05)
check "--max-time 0.05 names itself" "$(has "$short" '--max-time 0\.05 s')"
check "--max-time 0.05: a lower bound" "$(below "$(bound "$line")" "$(bound "$short")")"
few=$(estimate_of "${mission[@]}" --min-samples 2 --max-time 0.01)
check "--min-samples 2 --max-time 0.01: shorter" "$(below "$s" "$(seconds "$few")")"

# --kernel all: 961 points (~40 s on an H200), then the ladder's line with the real options.
line=$(estimate_of --kernel all)
check "all: about 20..80 s" "$(within 20 80 "$(seconds "$line")")"
check "all: the ladder line last" "$(has "$(tail -n 1 "$out")" \
    '^latency ladder: .*--kernel chase --mode latency.*--footprint')"
# The options it names are real: --help lists them.
"$BIN" --help >"$work/help" 2>&1
for o in --footprint --kernel --mode --max-time; do
    check "--help lists $o" "$(grep -q -- "^  $o " "$work/help" || echo "not in --help")"
done
# No --kernel is every kernel too; a list of kernels is not.
estimate_of >/dev/null
check "default: the ladder line" "$([ -z "$(ladder_line)" ] && echo "missing")"
estimate_of --kernel copy,reduce --occ 50 >/dev/null
check "a kernel list: no ladder line" "$(ladder_line)"

# The ladder itself: fixed work, which --max-time does not bound; --cold changes its work.
line=$(estimate_of --kernel chase --mode latency)
check "ladder: fixed work" "$(has "$line" '--max-time does not bound it')"
check "ladder: no ladder line" "$(ladder_line)"

echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
