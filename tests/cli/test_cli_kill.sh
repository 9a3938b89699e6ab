#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_cli_kill.sh PATH/TO/occsweep: no measured row is lost after a kill (fake device,
# OCC_FAKE_DEVICES, --dry-run; no GPU). A run slowed by OCC_FAKE_POINT_MS is SIGKILLed once N rows
# are in OUT.partial; the same command again (with --force too) is refused with one line and leaves
# the .partial as it was; its advice, followed literally (`mv X.partial X`, then the command with
# `--resume X` in place of `--out X`), ends with every killed run's row byte for byte plus the
# rest: the rows of an uninterrupted run, nothing twice, no .partial left. Then the input bound:
# a sparse 5 GiB file given to --resume or --recompute is refused with one line (exit 2), unread.
# Prints one line per failed check and "N checks, M failed"; exits 0 (all passed) or 1.
set -u

. "$(dirname "$0")/../lib/cli_lib.sh"

export OCC_FAKE_DEVICES=sm_90
SWEEP=(--dry-run --quiet --kernel copy --unroll 1,4 --vec 16 --occ 12.5..100)
N=5
run() { run_bin "$@"; }
data_rows() { grep -v '^#' "$1" | tail -n +2; }

# The rows of an uninterrupted run, for the comparison at the end.
run "${SWEEP[@]}" --out ref.csv
check "uninterrupted run: exit 0" "$([ "$rc" -eq 0 ] || head -n 2 "$err")"
total=$(data_rows "$cwd/ref.csv" | wc -l)
check "uninterrupted run: more than $((2 * N)) rows" "$([ "$total" -gt $((2 * N)) ] || echo "$total")"
mv "$cwd/ref.csv" "$work/ref.csv"

# The run killed after N rows (300 ms a point: the rest of the run, about 25 points, takes
# seconds, so a poll that lags on a busy machine still kills it before it ends).
(cd "$cwd" && OCC_FAKE_POINT_MS=300 exec "$BIN" "${SWEEP[@]}" --out k.csv) >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do
    [ -f "$cwd/k.csv.partial" ] && [ "$(data_rows "$cwd/k.csv.partial" | wc -l)" -ge $N ] && break
    sleep 0.05
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
cp "$cwd/k.csv.partial" "$work/killed.partial"
kept=$(data_rows "$work/killed.partial" | wc -l)
check "killed run: at least $N rows in k.csv.partial, fewer than all" \
    "$([ "$kept" -ge $N ] && [ "$kept" -lt "$total" ] || echo "$kept of $total")"

# The same command again, then with --force: refused, the .partial untouched.
for force in "" --force; do
    run "${SWEEP[@]}" --out k.csv $force
    check "rerun $force: exit 2, one stderr line" \
        "$([ "$rc" -eq 2 ] && [ "$(lines "$err")" -eq 1 ] || echo "exit $rc: $(head -n 3 "$err")")"
    check "rerun $force: k.csv.partial unchanged" \
        "$(cmp -s "$cwd/k.csv.partial" "$work/killed.partial" || echo "it changed")"
done

# The advice, followed literally.
advice=$(sed -n 's/.*to keep them: \(mv [^ ]* [^ ]*\) and run again with --resume \([^;]*\);.*/\1|\2/p' "$err")
check "the refusal says how to keep the rows" "$([ -n "$advice" ] || cat "$err")"
move=${advice%%|*} resume=${advice#*|}
(cd "$cwd" && $move)
run "${SWEEP[@]}" --resume "$resume"
check "resume: exit 0" "$([ "$rc" -eq 0 ] || head -n 3 "$err")"
final=$cwd/$resume
check "resume: no .partial left" "$([ ! -e "$final.partial" ] || echo "$final.partial exists")"
missing=$(data_rows "$work/killed.partial" | grep -vxFf <(data_rows "$final") | head -n 1)
check "every killed run's row kept byte for byte" "$([ -z "$missing" ] || echo "lost: $missing")"
check "the killed run's rows first, in their order" \
    "$(cmp -s <(data_rows "$work/killed.partial") <(data_rows "$final" | head -n "$kept") ||
       echo "the first $kept rows differ")"
check "the rows of an uninterrupted run, each once" \
    "$(cmp -s <(data_rows "$work/ref.csv" | sort) <(data_rows "$final" | sort) ||
       echo "$(data_rows "$final" | wc -l) rows, want $total")"
check "resumed file: end_status complete" \
    "$(grep -q '^# end_status=complete' "$final" || tail -n 1 "$final")"

mv "$final" "$work/resumed.csv"

# Inputs of more than 4 GiB: refused before a byte is read (sparse: no disk used).
truncate -s 5G "$work/huge.csv"
want="is 5368709120 bytes, more than the 4 GiB an input CSV may hold"
for option in --resume --recompute; do
    args=("${SWEEP[@]}" --resume "$work/huge.csv")
    [ "$option" = --recompute ] && args=(--recompute "$work/huge.csv")
    (cd "$cwd" && exec timeout 60 "$BIN" "${args[@]}") >"$out" 2>"$err"
    rc=$?
    check "$option of a 5 GiB file" "$(refusal_problem "$option $work/huge.csv: $want")"
done

echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
