#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_cli_interrupt.sh PATH/TO/occsweep: every kind of interruption, during a plain run
# and during a --resume, followed by the advice occsweep prints, ends with every finished row (fake
# device, OCC_FAKE_DEVICES, --dry-run; no GPU). Kinds: SIGKILL, SIGINT, SIGTERM, SIGHUP (once N
# rows are in OUT.partial), the file size limit (ulimit -f) and a full disk (a small tmpfs, where
# this machine lets the test mount one). After each: the advice is read from what occsweep said
# (the interrupted run's last lines, or the refusal of the same command run again) and followed
# literally, over and over until a run ends with exit 0; then the file holds the rows of an
# uninterrupted run, each once, byte for byte (sorted), and every row of the interrupted file.
# Prints one line per failed check and "N checks, M failed"; exits 0 (all passed) or 1.
set -u

. "$(dirname "$0")/../lib/cli_lib.sh"

export OCC_FAKE_DEVICES=sm_90
SWEEP=(--dry-run --quiet --kernel copy --unroll 1,4 --vec 16 --occ 12.5..100)
N=5
data_rows() { grep -v '^#' "$1" | tail -n +2; }

(cd "$cwd" && exec "$BIN" "${SWEEP[@]}" --out ref.csv) >/dev/null 2>&1
total=$(data_rows "$cwd/ref.csv" | wc -l)
check "uninterrupted run: more than $((3 * N)) rows" "$([ "$total" -gt $((3 * N)) ] || echo "$total")"
mv "$cwd/ref.csv" "$work/ref.csv"

# interrupt KIND ARGS...: occsweep ARGS in $cwd, stopped by KIND; its stdout and stderr in
# $work/said. A signal is sent once N new rows are in the .partial (300 ms a point).
interrupt() {
    local kind=$1; shift
    case $kind in
    fsize)
        (cd "$cwd" && ulimit -f 12 && exec "$BIN" "$@") >"$work/said" 2>&1 ;;
    full)
        (cd "$cwd" && exec "$BIN" "$@") >"$work/said" 2>&1 ;;
    *)
        local partial=$1 before=$2; shift 2
        (cd "$cwd" && OCC_FAKE_POINT_MS=300 exec "$BIN" "$@") >"$work/said" 2>&1 &
        local pid=$!
        for _ in $(seq 600); do
            [ -f "$partial" ] && [ "$(data_rows "$partial" | wc -l)" -ge $((before + N)) ] && break
            sleep 0.05
        done
        kill "-$kind" "$pid"
        wait "$pid" 2>/dev/null ;;
    esac
}

# follow ARGS...: runs the interrupted command again (ARGS); while a run is refused with advice
# (its stderr: "to keep them: mv X.partial X and run again with --resume X"), does what it says;
# until a run exits 0 (at most 5 rounds). Empty output when one did.
follow() {
    local round advice move resume args=("$@")
    for round in 1 2 3 4 5; do
        run_bin "${args[@]}"
        [ "$rc" -eq 0 ] && return
        advice=$(sed -n 's/.*to keep them: \(mv [^ ]* [^ ]*\) and run again with --resume \([^;]*\);.*/\1|\2/p' "$err")
        [ -n "$advice" ] || { echo "no advice after exit $rc: $(head -n 2 "$err")"; return; }
        move=${advice%%|*} resume=${advice#*|}
        (cd "$cwd" && $move)
        args=("${SWEEP[@]}" --resume "$resume")
    done
    echo "no exit 0 after 5 rounds: $(head -n 2 "$err")"
}

# final_problem FILE KEPT: empty when FILE holds every row of the reference run once and every
# row of KEPT (the interrupted file's rows).
final_problem() {
    local f=$cwd/$1
    [ -e "$f.partial" ] && { echo "$f.partial left"; return; }
    local missing
    missing=$(grep -vxFf <(data_rows "$f") <(grep -v '^#' "$2" | grep -v '^gpu_name,') | head -n 1)
    [ -z "$missing" ] || { echo "lost: ${missing:0:80}"; return; }
    cmp -s <(data_rows "$work/ref.csv" | sort) <(data_rows "$f" | sort) ||
        echo "$(data_rows "$f" | wc -l) rows, want the $total of an uninterrupted run"
}

# A small file system for the full disk, where it can be mounted; else that kind is left out.
kinds="KILL INT TERM HUP fsize"
fulldir=$work/full
mkdir -p "$fulldir"
if mount -t tmpfs -o size=16k tmpfs "$fulldir" 2>/dev/null; then
    kinds="$kinds full"
    trap 'umount "$fulldir" 2>/dev/null; rm -rf "$work"' EXIT
else
    echo "note: no tmpfs could be mounted here: the full-disk case is left out"
fi

for kind in $kinds; do
    for mode in run resume; do
        rm -rf "${cwd:?}"/* "${cwd:?}"/.[!.]* 2>/dev/null
        file=k.csv
        # An interrupted file to resume from: the first rows of the reference run (N; for a full
        # disk all but N, on a file system with room for half of it again: the disk fills while
        # the kept rows are copied).
        resumed=$N
        [ "$kind" = full ] && resumed=$((total - N))
        { grep '^#' "$work/ref.csv" | grep -v '^# end_status'
          grep -v '^#' "$work/ref.csv" | head -n $((resumed + 1)); } >"$work/resumed.csv"
        if [ "$kind" = full ]; then
            size=16
            [ "$mode" = resume ] && size=$(( ($(stat -c %s "$work/resumed.csv") * 3 / 2 + 4095) / 4096 * 4 ))
            umount "$fulldir" 2>/dev/null
            mount -t tmpfs -o size=${size}k tmpfs "$fulldir" || { check "mount a ${size}k tmpfs" "failed"; continue; }
            cwd_saved=$cwd; cwd=$fulldir
        fi
        if [ "$mode" = resume ]; then
            cp "$work/resumed.csv" "$cwd/$file"
            before=$resumed
            args=("${SWEEP[@]}" --resume "$file")
        else
            before=0
            args=("${SWEEP[@]}" --out "$file")
        fi
        case $kind in
        fsize | full) interrupt "$kind" "${args[@]}" ;;
        *) interrupt "$kind" "$cwd/$file.partial" "$before" "${args[@]}" ;;
        esac
        # What the interrupted run left: the .partial if there is one, else the file.
        if [ -e "$cwd/$file.partial" ]; then cp "$cwd/$file.partial" "$work/kept"
        else cp "$cwd/$file" "$work/kept" 2>/dev/null || : >"$work/kept"; fi
        [ "$mode" = resume ] && cat "$cwd/$file" >>"$work/kept" 2>/dev/null
        kept_rows=$(data_rows "$work/kept" | grep -c .)
        check "$kind during a $mode: whole rows only" \
            "$(awk -F, '!/^#/ && NF != 80 {print "line " NR ": " NF " fields"; exit}' "$work/kept")"
        if [ "$kind" = full ]; then
            # Room again (the user frees space), then the advice.
            mkdir -p "$work/moved"; cp -a "$fulldir"/. "$work/moved/"; cwd=$cwd_saved
            rm -rf "${cwd:?}"/*; cp -a "$work/moved"/. "$cwd/"; rm -rf "$work/moved"
        fi
        # A run that handled its interruption says how to go on ("run again with --resume X"):
        # that command; else the same command again.
        next=$(sed -n 's/.*to measure the rest, run again with --resume \(.*\)$/\1/p' "$work/said")
        [ -z "$next" ] || args=("${SWEEP[@]}" --resume "$next")
        said=$(follow "${args[@]}")
        check "$kind during a $mode: the advice, followed, ends with exit 0" "$said"
        check "$kind during a $mode: every finished row, each once ($kept_rows kept)" \
            "$(final_problem "$file" "$work/kept")"
    done
done

echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
