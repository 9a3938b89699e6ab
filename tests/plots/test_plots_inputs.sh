#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tests/plots/test_plots_inputs.sh: what plots/plot, plots/report.py, plots/csvsel.py and
# plots/occcsv.py read and write, fed as a careless or hostile user would:
#   - every path they write is never an input (--compare --out a a.csv b.csv), never a directory
#     (a figure name that is one, or a link to one) nor a FIFO, never a hidden name (report.py
#     --out "", DIR/, . or ..): one line on stderr, exit 2, no output written and the inputs
#     untouched; a symbolic link there is replaced, its target untouched;
#   - every input is a regular file of at most 4 GiB (/dev/zero, a FIFO, a 5 GiB sparse file, a
#     FIFO among the report's figures): one line, exit 2, at once;
#   - values outside their physical range (negative GB/s or occupancy, sm_count 0, metadata that
#     is not a number) are refused with one line naming the field, exit 2, never a traceback nor
#     a gnuplot error; invalid UTF-8 in the metadata is reported, exit 0;
#   - a failed write to stdout (/dev/full) is exit 1.
# Exit 0 passed, 1 failed, 77 no gnuplot.
set -u

TEST_NAME=test_plots_inputs
. "$(dirname "$0")/plots_lib.sh"
REPORT="$ROOT/plots/report.py"
CSVSEL="$ROOT/plots/csvsel.py"
OCCCSV="$ROOT/plots/occcsv.py"
A="$FIX/reduce-synthetic.csv"
B="$FIX/reduce-gpu-b-synthetic.csv"

# refused DESC RC ERRFILE [WORD]: the command exited RC = 2 with one stderr line (holding WORD),
# no traceback.
refused() {
    check "$1: exit 2 (got $2)" [ "$2" -eq 2 ]
    check "$1: one line on stderr" [ "$(wc -l <"$3")" -eq 1 ]
    check "$1: no traceback" sh -c '! grep -q "Traceback\|gnuplot failed" "$1"' - "$3"
    [ $# -lt 4 ] || check "$1: the line names $4" grep -qF -- "$4" "$3"
}
# limited CMD...: CMD with 1 GiB of address space and 20 s at most (a reader that reads without
# bound fails instead of eating the machine).
limited() {
    (ulimit -v 1048576; timeout 20 "$@")
}
# set_all FILE COLUMN VALUE: FILE with COLUMN set to VALUE in every data row.
set_all() {
    awk -F ',' -v OFS=',' -v col="$2" -v val="$3" '/^#/ { print; next }
        !head { for (i = 1; i <= NF; i++) if ($i == col) c = i; head = 1; print; next }
        { $c = val; print }' "$1"
}
# set_meta FILE KEY VALUE: FILE with metadata KEY set to VALUE (added when missing).
set_meta() {
    awk -v key="$2" -v val="$3" 'index($0, "# " key "=") == 1 { print "# " key "=" val; done = 1
        next } { print } END { if (!done) print "# " key "=" val }' "$1"
}

# --- what is written: never an input, a link, a directory or a hidden name ---------------------
mkdir -p "$T/w"
cp "$A" "$T/w/a.csv"
cp "$B" "$T/w/b.csv"
sum=$(cksum <"$T/w/a.csv")
(cd "$T/w" && "$PLOT" --compare --out a a.csv b.csv >/dev/null 2>"$T/w/in.err")
refused "--compare --out a a.csv b.csv" $? "$T/w/in.err" a.csv
check "--compare --out a a.csv: a.csv untouched" [ "$(cksum <"$T/w/a.csv")" = "$sum" ]
check "--compare --out a a.csv: no a.png" [ ! -e "$T/w/a.png" ]

mkdir -p "$T/w/link"
echo keep >"$T/w/elsewhere"
ln -s ../elsewhere "$T/w/link/cmp.svg"
"$PLOT" --compare --out "$T/w/link/cmp" "$A" "$B" >/dev/null 2>&1
check "--compare --out P where P.svg is a link: exit 0" [ $? -eq 0 ]
check "P.svg link: the link replaced by the figure" sh -c '[ ! -L "$1" ] && [ -s "$1" ]' - \
    "$T/w/link/cmp.svg"
check "P.svg link: its target untouched" [ "$(cat "$T/w/elsewhere")" = keep ]
mkdir -p "$T/w/ldir/d"
ln -s d "$T/w/ldir/cmp.svg"
"$PLOT" --compare --out "$T/w/ldir/cmp" "$A" "$B" >/dev/null 2>"$T/w/ldir.err"
refused "--compare --out P where P.svg links to a directory" $? "$T/w/ldir.err" cmp.svg
check "P.svg a link to a directory: nothing written" sh -c \
    '[ -z "$(ls -A "$1/d")" ] && [ ! -e "$1/cmp.png" ]' - "$T/w/ldir"

mkdir -p "$T/w/dir/reduce-synthetic-occupancy-reduce.svg"
"$PLOT" --outdir "$T/w/dir" "$A" >"$T/w/dir.out" 2>"$T/w/dir.err"
refused "a figure name that is a directory" $? "$T/w/dir.err" reduce-synthetic-occupancy-reduce.svg
check "figure name a directory: nothing inside it" \
    [ -z "$(ls -A "$T/w/dir/reduce-synthetic-occupancy-reduce.svg")" ]
check "figure name a directory: no other figure written" \
    [ ! -e "$T/w/dir/reduce-synthetic-inflight-reduce.svg" ]
check "figure name a directory: nothing reported as written" [ ! -s "$T/w/dir.out" ]

mkfifo "$T/w/fifo.svg"
"$PLOT" --compare --out "$T/w/fifo" "$A" "$B" >/dev/null 2>"$T/w/fifo.err"
refused "--compare --out P where P.svg is a FIFO" $? "$T/w/fifo.err" fifo.svg

cp "$A" "$T/w/r.html"
sum=$(cksum <"$T/w/r.html")
python3 "$REPORT" --out "$T/w/r" "$T/w/r.html" >/dev/null 2>"$T/w/rin.err"
refused "report.py --out r r.html" $? "$T/w/rin.err" r.html
check "report.py --out r r.html: the input untouched" [ "$(cksum <"$T/w/r.html")" = "$sum" ]
check "report.py --out r r.html: no r.md" [ ! -e "$T/w/r.md" ]
ln -s ../r.html "$T/w/link/rep.md"
python3 "$REPORT" --out "$T/w/link/rep" "$A" >/dev/null 2>&1
check "report.py --out P where P.md links to an input elsewhere: exit 0" [ $? -eq 0 ]
check "report P.md link: the input it named untouched" [ "$(cksum <"$T/w/r.html")" = "$sum" ]
mkdir -p "$T/w/rdir/rep.html"
python3 "$REPORT" --out "$T/w/rdir/rep" "$A" >/dev/null 2>"$T/w/rdir.err"
refused "report.py --out P where P.html is a directory" $? "$T/w/rdir.err" rep.html
check "report P.html a directory: no P.md" [ ! -e "$T/w/rdir/rep.md" ]
mkdir -p "$T/w/hid"
for out in "" "$T/w/hid/" . "$T/w/hid/.."; do
    (cd "$T/w/hid" && python3 "$REPORT" --out "$out" "$A" >/dev/null 2>"$T/w/hid.err")
    refused "report.py --out '$out'" $? "$T/w/hid.err" --out
    check "report.py --out '$out': nothing written" [ -z "$(ls -A "$T/w/hid")" ]
done

# --- what is read: a regular file of at most 4 GiB --------------------------------------------
mkdir -p "$T/r"
mkfifo "$T/r/fifo.csv"
truncate -s 5G "$T/r/sparse.csv"
for input in /dev/zero "$T/r/fifo.csv" "$T/r/sparse.csv"; do
    limited python3 "$REPORT" --out "$T/r/rep" "$input" >/dev/null 2>"$T/r/err"
    refused "report.py $input" $? "$T/r/err" "$input"
    limited python3 "$OCCCSV" "$input" >/dev/null 2>"$T/r/err"
    refused "occcsv.py $input" $? "$T/r/err" "$input"
    limited python3 "$CSVSEL" check "$input" >/dev/null 2>"$T/r/err"
    refused "csvsel.py check $input" $? "$T/r/err" "$input"
    limited "$PLOT" --outdir "$T/r" "$input" >/dev/null 2>"$T/r/err"
    refused "plots/plot $input" $? "$T/r/err" "$input"
    limited "$PLOT" --compare --out "$T/r/cmp" "$A" "$input" >/dev/null 2>"$T/r/err"
    refused "plots/plot --compare A $input" $? "$T/r/err" "$input"
done
check "sparse file: the bound is named" grep -qF "4 GiB" "$T/r/err"
# A FIFO among the figures report.py inlines.
mkdir -p "$T/r/figs"
mkfifo "$T/r/figs/reduce-synthetic-occupancy-reduce.svg"
limited python3 "$REPORT" --out "$T/r/figrep" --figdir "$T/r/figs" "$A" >/dev/null 2>"$T/r/err"
refused "report.py with a FIFO as a figure" $? "$T/r/err" reduce-synthetic-occupancy-reduce.svg

# --- values outside their physical range ------------------------------------------------------
mkdir -p "$T/v"
set_all "$A" gbps_median -5 >"$T/v/neg-gbps.csv"
set_meta "$A" sm_count 0 >"$T/v/tmp.csv"
set_meta "$T/v/tmp.csv" dram_latency_ns 500 >"$T/v/sm0.csv"
set_all "$A" occ_achieved_pct -5 >"$T/v/neg-occ.csv"
set_meta "$A" roof_memcpy_gbps abc >"$T/v/roof-abc.csv"
set_meta "$A" sm_clock_mhz 1e400x >"$T/v/clock-text.csv"
for case in neg-gbps:gbps_median sm0:sm_count neg-occ:occ_achieved_pct \
    roof-abc:roof_memcpy_gbps clock-text:sm_clock_mhz; do
    name=${case%%:*} field=${case#*:}
    python3 "$REPORT" --out "$T/v/$name-report" "$T/v/$name.csv" >/dev/null 2>"$T/v/err"
    refused "report.py $name" $? "$T/v/err" "$field"
    check "report.py $name: nothing written" [ ! -e "$T/v/$name-report.md" ]
    "$PLOT" --report --outdir "$T/v/out-$name" "$T/v/$name.csv" >/dev/null 2>"$T/v/err"
    refused "plots/plot --report $name" $? "$T/v/err" "$field"
done
# Invalid UTF-8 in the metadata is the file's bytes, written as they are.
printf '# gpu_name=Bad \377\376 GPU\n' >"$T/v/utf.csv"
grep -v '^# gpu_name=' "$A" >>"$T/v/utf.csv"
python3 "$REPORT" --out "$T/v/utf-report" "$T/v/utf.csv" >/dev/null 2>"$T/v/err"
check "report.py invalid UTF-8: exit 0" [ $? -eq 0 ]
check "report.py invalid UTF-8: no stderr" [ ! -s "$T/v/err" ]
check "report.py invalid UTF-8: the name's bytes in the report" \
    grep -qF "$(printf 'Bad \377\376 GPU')" "$T/v/utf-report.md"
"$PLOT" --report --outdir "$T/v/out-utf" "$T/v/utf.csv" >/dev/null 2>"$T/v/err"
check "plots/plot --report invalid UTF-8: exit 0" [ $? -eq 0 ]
check "plots/plot --report invalid UTF-8: the report written" [ -s "$T/v/out-utf/utf-report.html" ]

# --- a failed write to stdout is exit 1 -------------------------------------------------------
mkdir -p "$T/s"
"$PLOT" --outdir "$T/s" "$A" >/dev/full 2>"$T/s/err"
rc=$?
check "plots/plot >/dev/full: exit 1 (got $rc)" [ $rc -eq 1 ]
check "plots/plot >/dev/full: one line on stderr" [ "$(wc -l <"$T/s/err")" -eq 1 ]
python3 "$REPORT" --out "$T/s/rep" "$A" >/dev/full 2>"$T/s/err"
rc=$?
check "report.py >/dev/full: exit 1 (got $rc)" [ $rc -eq 1 ]
check "report.py >/dev/full: one line, no traceback" [ "$(wc -l <"$T/s/err")" -eq 1 ]
python3 "$CSVSEL" check "$A" >/dev/full 2>"$T/s/err"
rc=$?
check "csvsel.py check >/dev/full: exit 1 (got $rc)" [ $rc -eq 1 ]
check "csvsel.py check >/dev/full: one line, no traceback" [ "$(wc -l <"$T/s/err")" -eq 1 ]
PLOT_BY=unroll PLOT_X=occ_achieved_pct PLOT_Y=gbps_median python3 "$CSVSEL" select "$A" \
    >/dev/full 2>"$T/s/err"
rc=$?
check "csvsel.py select >/dev/full: exit 1 (got $rc)" [ $rc -eq 1 ]
check "csvsel.py select >/dev/full: one line, no traceback" [ "$(wc -l <"$T/s/err")" -eq 1 ]

echo "$checks checks, $failed failed"
[ "$failed" -eq 0 ]
