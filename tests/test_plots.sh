#!/bin/sh
# tests/test_plots.sh: renders every fixture CSV (tests/fixtures, synthetic data) with plots/plot
# and checks the figures: each expected PNG is a real 1200x800 PNG and each SVG a well-formed SVG
# that carries its title and legend; an auto-lever run is one figure per kernel whose curves run
# through both levers, with open points exactly where the register-capped variant was measured,
# and only a --lever both run gets a figure per lever; rows are selected by column name, only ok
# rows, sorted;
# the 2-GPU comparison renders in both x modes; every malformed CSV and bad command gets exit 2,
# one message naming the file, and leaves no output file behind; a gnuplot that fails half way
# leaves nothing either. Exit 0 all passed, 1 a check failed, 77 no gnuplot here.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PLOT="$ROOT/plots/plot"
FIX="$ROOT/tests/fixtures"
SEP=$(printf '\037')

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "SKIP: gnuplot not found"
    exit 77
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/test_plots.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

checks=0
failed=0

check() { # check DESCRIPTION COMMAND...: counts, and reports a failing command
    desc=$1
    shift
    checks=$((checks + 1))
    if ! "$@"; then
        failed=$((failed + 1))
        echo "FAIL: $desc"
    fi
}

is_png() { # 8-byte PNG signature, IHDR of 1200 x 800 as the style sets, more than 20 KB of image
    [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] &&
        [ "$(od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d",
            (($1 * 256 + $2) * 256 + $3) * 256 + $4, (($5 * 256 + $6) * 256 + $7) * 256 + $8 }')" \
            = 1200x800 ] &&
        [ "$(wc -c <"$1")" -gt 20000 ]
}

is_svg() { # XML that xmllint accepts (when present), an <svg> root, real drawing inside
    grep -q '<svg' "$1" && tail -n 2 "$1" | grep -q '</svg>' &&
        [ "$(wc -c <"$1")" -gt 10000 ] &&
        { ! command -v xmllint >/dev/null 2>&1 || xmllint --noout "$1" 2>/dev/null; }
}

has_text() { # has_text FILE TEXT: the SVG shows TEXT (titles and legends are <text> there)
    grep -qF -- "$2" "$1"
}

no_files_in() { # the directory is absent or empty
    [ ! -d "$1" ] || [ -z "$(ls -A "$1")" ]
}

# --- every figure of every fixture, into one directory ------------------------------------------
OUT="$T/all"
"$PLOT" --outdir "$OUT" "$FIX/reduce-synthetic.csv" "$FIX/copy-synthetic.csv" \
    "$FIX/chase-warp-synthetic.csv" "$FIX/chase-latency-synthetic.csv" \
    "$FIX/reduce-gpu-b-synthetic.csv" "$FIX/reduce-auto-synthetic.csv" >"$T/all.out" \
    2>"$T/all.err"
check "plot all fixtures exits 0" [ $? -eq 0 ]
check "plot all fixtures is silent on stderr (no gnuplot warnings)" [ ! -s "$T/all.err" ]
expected="reduce-synthetic-occupancy-reduce reduce-synthetic-inflight-reduce
copy-synthetic-occupancy-copy-pad copy-synthetic-inflight-copy-pad
copy-synthetic-occupancy-copy-bounds copy-synthetic-inflight-copy-bounds
chase-warp-synthetic-chase-warp chase-warp-synthetic-chase-thread
chase-latency-synthetic-ladder
reduce-gpu-b-synthetic-occupancy-reduce reduce-gpu-b-synthetic-inflight-reduce
reduce-auto-synthetic-occupancy-reduce reduce-auto-synthetic-inflight-reduce"
n_expected=0
for fig in $expected; do
    n_expected=$((n_expected + 2))
    check "$fig.png is a valid PNG" is_png "$OUT/$fig.png"
    check "$fig.svg is a valid SVG" is_svg "$OUT/$fig.svg"
    check "stdout lists $fig.png" grep -qxF "$OUT/$fig.png" "$T/all.out"
done
check "exactly the expected files, nothing else" [ "$(ls "$OUT" | wc -l)" -eq $n_expected ]

svg="$OUT/reduce-synthetic-occupancy-reduce.svg"
check "occupancy title names GPU, kernel, date" \
    has_text "$svg" "Synthetic GPU A — reduce, lever pad — 2025-01-15 [synthetic test data]"
check "occupancy legend has unroll 8" has_text "$svg" "unroll 8"
check "occupancy legend has 16 B loads" has_text "$svg" "16 B loads"
# Roof and peak are key entries (an SVG <title> names each plotted element), not labels that
# could sit on the curves.
check "occupancy names the memcpy roof in the key" has_text "$svg" "<title>memcpy roof 4012 GB/s<"
check "occupancy names the DRAM peak in the key" has_text "$svg" "<title>DRAM peak 4800 GB/s<"
check "inflight names the memcpy roof in the key" \
    has_text "$OUT/reduce-synthetic-inflight-reduce.svg" "<title>memcpy roof 4012 GB/s<"
check "occupancy has the % of roof axis" has_text "$svg" "% of memcpy roof"
check "bounds figure of copy keeps its lever" \
    has_text "$OUT/copy-synthetic-occupancy-copy-bounds.svg" "copy, lever bounds"
check "inflight has byte tics" has_text "$OUT/reduce-synthetic-inflight-reduce.svg" "4 KiB"
check "ladder marks L1" has_text "$OUT/chase-latency-synthetic-ladder.svg" "L1 256 KiB"
check "ladder marks L2" has_text "$OUT/chase-latency-synthetic-ladder.svg" "L2 50 MiB"
check "chase legend names chains per warp" \
    has_text "$OUT/chase-warp-synthetic-chase-warp.svg" "K = 8 chains per warp"
check "chase thread figure is per thread" \
    has_text "$OUT/chase-warp-synthetic-chase-thread.svg" "K = 2 chains per thread"

# --- row selection: by name, ok rows only, sorted within each curve -----------------------------
select_stream() { # select_stream KERNEL CSV: the occupancy data of one kernel
    PLOT_WHERE="kernel=$1" PLOT_BY=unroll,vec_bytes,lever PLOT_X=occ_achieved_pct \
        PLOT_Y=gbps_median PLOT_WHAT=test awk -f "$ROOT/plots/csvsel.awk" -v task=select "$2"
}
data_rows() { # data rows of a selection: neither headers nor block separators
    awk -F '\t' 'NF > 1 && $1 != "set_idx"' "$1" | wc -l
}
select_stream reduce "$FIX/reduce-synthetic.csv" >"$T/sel.tsv"
n_ok=$(grep -c ',ok$' "$FIX/reduce-synthetic.csv")
check "every ok row and nothing else is selected" [ "$(data_rows "$T/sel.tsv")" -eq "$n_ok" ]
check "the reduce fixture has skip rows" [ "$(grep -c ',skip:' "$FIX/reduce-synthetic.csv")" -gt 0 ]
# copy holds a fail row with real numbers in it: only the status keeps it off the figure.
select_stream copy "$FIX/copy-synthetic.csv" >"$T/sel-copy.tsv"
check "fail rows with numbers are not selected" \
    [ "$(data_rows "$T/sel-copy.tsv")" -eq "$(grep -c ',ok$' "$FIX/copy-synthetic.csv")" ]
check "the copy fixture has a fail row" grep -q ',fail:' "$FIX/copy-synthetic.csv"
check "12 curves (unroll 1,2,4,8 x vec 4,8,16)" [ "$(grep -c '^set_idx' "$T/sel.tsv")" -eq 12 ]
check "x ascends within every curve although the fixture rows are shuffled" \
    awk -F '\t' '$1 == "set_idx" { prev = -1; next }
        NF > 1 { if ($9 + 0 < prev) exit 1; prev = $9 + 0 }' "$T/sel.tsv"
check "the fixture rows are shuffled" \
    awk -F ',' '!/^#/ && NR > 20 && $14 != "NaN" { if (p != "" && $14 + 0 < p) found = 1
        p = $14 + 0 } END { exit !found }' "$FIX/reduce-synthetic.csv"
# The same rows with the columns in reverse order must select identically.
awk -F ',' -v OFS=',' '/^#/ { print; next }
    { for (i = NF; i >= 1; i--) printf "%s%s", $i, (i > 1 ? OFS : "\n") }' \
    "$FIX/reduce-synthetic.csv" >"$T/reversed.csv"
select_stream reduce "$T/reversed.csv" >"$T/sel-reversed.tsv"
check "columns are found by name (reversed column order selects the same rows)" \
    cmp -s "$T/sel.tsv" "$T/sel-reversed.tsv"
"$PLOT" --outdir "$T/rev" "$T/reversed.csv" >/dev/null 2>&1
check "reversed-column CSV renders" is_png "$T/rev/reversed-occupancy-reduce.png"

# --- levers: auto is one figure per kernel, both is one per lever ------------------------------
# Point symbols in gnuplot's SVG: pointtype N is drawn as <use xlink:href='#gpPt(N-1)'>, and the
# open square, circle and triangle (4, 6, 8) are gpPt3, gpPt5, gpPt7; lines with id= are the
# symbol definitions, not drawn points.
open_points() {
    grep "xlink:href='#gpPt[357]'" "$1" | grep -vc "id='gpPt"
}
bounds_rows() { # ok rows measured with lever bounds
    grep -c ',bounds,.*,ok$' "$1"
}
AUTO="$FIX/reduce-auto-synthetic.csv"
awk -f "$ROOT/plots/csvsel.awk" -v task=check "$AUTO" >"$T/auto.info"
check "auto run: one occupancy figure for reduce, filtered by kernel only" \
    awk -F '\t' '$1 == "fig" && $2 == "occupancy" { n++
        ok = $3 == "kernel=reduce" && $4 == "occupancy-reduce" } END { exit !(n == 1 && ok) }' \
    "$T/auto.info"
check "auto run: two figures, occupancy and inflight" [ "$(grep -c '^fig' "$T/auto.info")" -eq 2 ]
PLOT_WHERE="kernel=reduce${SEP}unroll=8${SEP}vec_bytes=16" PLOT_BY=unroll,vec_bytes \
    PLOT_X=occ_achieved_pct PLOT_Y=gbps_median PLOT_KEEP=lever PLOT_WHAT=test \
    awk -f "$ROOT/plots/csvsel.awk" -v task=select "$AUTO" >"$T/u8v16.tsv"
check "auto run: the U=8 V=16 curve is one block, pad points then bounds points" \
    [ "$(awk -F '\t' 'NF > 1 && $1 != "set_idx" { s = s " " $NF } END { print s }' \
        "$T/u8v16.tsv" | tr -s ' ' '\n' | uniq | paste -sd, -)" = ",pad,bounds" ]
check "auto run: the U=8 V=16 curve has 16 points" [ "$(data_rows "$T/u8v16.tsv")" -eq 16 ]
auto_svg="$OUT/reduce-auto-synthetic-occupancy-reduce.svg"
check "auto title names both levers" \
    has_text "$auto_svg" "Synthetic GPU A — reduce, levers pad + bounds — 2025-01-15"
check "auto legend explains open points" has_text "$auto_svg" "open: register-capped"
check "auto fixture has bounds rows" [ "$(bounds_rows "$AUTO")" -gt 0 ]
for fig in occupancy inflight; do
    check "auto $fig: one open point per bounds row, plus the legend's" \
        [ "$(open_points "$OUT/reduce-auto-synthetic-$fig-reduce.svg")" -eq \
        $(($(bounds_rows "$AUTO") + 1)) ]
done
check "pad-only run: no open point" \
    [ "$(open_points "$OUT/reduce-synthetic-occupancy-reduce.svg")" -eq 0 ]
check "pad-only run: no open-point legend" \
    sh -c '! grep -qF "open: register-capped" "$1"' sh "$OUT/reduce-synthetic-occupancy-reduce.svg"
check "both run (copy): every point of the bounds figure is open" \
    [ "$(open_points "$OUT/copy-synthetic-occupancy-copy-bounds.svg")" -eq \
    $(($(bounds_rows "$FIX/copy-synthetic.csv") + 1)) ]
check "both run (copy): the pad figure has no open point" \
    [ "$(open_points "$OUT/copy-synthetic-occupancy-copy-pad.svg")" -eq 0 ]
# The auto run with U=8 V=16 measured again under bounds where pad reached: a --lever both run.
awk -F ',' -v OFS=',' '/^#/ { print; next }
    !head { for (i = 1; i <= NF; i++) c[$i] = i; head = 1; print; next }
    { print }
    $c["variant"] == "reduce_u8_v16" && $c["status"] == "ok" {
        $c["variant"] = "reduce_u8_v16_lbfull"; $c["lever"] = "bounds"; print }' \
    "$AUTO" >"$T/reduce-both.csv"
"$PLOT" --outdir "$T/both" "$T/reduce-both.csv" >"$T/both.out" 2>&1
check "both run renders" [ $? -eq 0 ]
for lever in pad bounds; do
    for fig in occupancy inflight; do
        check "both run: $fig figure per lever ($lever)" \
            is_png "$T/both/reduce-both-$fig-reduce-$lever.png"
    done
    check "both run: $lever figure says its lever" \
        has_text "$T/both/reduce-both-occupancy-reduce-$lever.svg" "reduce, lever $lever"
done
check "both run: no figure without a lever part" [ ! -e "$T/both/reduce-both-occupancy-reduce.png" ]
check "both run: four figures, PNG and SVG" [ "$(ls "$T/both" | wc -l)" -eq 8 ]

# --- beside the CSV, optional metadata, the Little's-law line -----------------------------------
mkdir -p "$T/beside"
grep -v '^# l1_bytes=' "$FIX/chase-latency-synthetic.csv" >"$T/beside/no-l1.csv"
"$PLOT" --latency-ns 350 "$T/beside/no-l1.csv" >/dev/null 2>&1
check "without --outdir figures go beside the CSV" is_png "$T/beside/no-l1-ladder.png"
check "without l1_bytes the ladder leaves out the L1 marker" \
    sh -c '! grep -qF "L1 " "$1"' sh "$T/beside/no-l1-ladder.svg"
check "without l1_bytes the ladder keeps the L2 marker" \
    has_text "$T/beside/no-l1-ladder.svg" "L2 50 MiB"
"$PLOT" --outdir "$T/little" --latency-ns 350 "$FIX/reduce-synthetic.csv" >/dev/null 2>&1
check "--latency-ns draws the Little's-law model" \
    has_text "$T/little/reduce-synthetic-inflight-reduce.svg" "Little: 132 SMs, 350 ns"

# --- comparison of two GPUs ---------------------------------------------------------------------
for x in occ inflight; do
    "$PLOT" --compare --x "$x" --out "$T/cmp/reduce-$x" "$FIX/reduce-synthetic.csv" \
        "$FIX/reduce-gpu-b-synthetic.csv" >/dev/null 2>"$T/cmp.err"
    check "compare --x $x exits 0" [ $? -eq 0 ]
    check "compare --x $x PNG" is_png "$T/cmp/reduce-$x.png"
    check "compare --x $x SVG" is_svg "$T/cmp/reduce-$x.svg"
    check "compare --x $x legend names GPU A" has_text "$T/cmp/reduce-$x.svg" "Synthetic GPU A"
    check "compare --x $x legend names GPU B" has_text "$T/cmp/reduce-$x.svg" "Synthetic GPU B"
done
check "compare --x inflight has byte tics" has_text "$T/cmp/reduce-inflight.svg" "16 KiB"
"$PLOT" --compare --unroll 4 --vec 16 --out "$T/cmp/u4v16" "$FIX/reduce-synthetic.csv" \
    "$FIX/reduce-gpu-b-synthetic.csv" >/dev/null 2>&1
check "compare filters name themselves in the title" \
    has_text "$T/cmp/u4v16.svg" "(unroll 4, 16 B loads)"
check "compare filters keep only that curve's legend" \
    sh -c '! grep -qF "unroll 1" "$1"' sh "$T/cmp/u4v16.svg"
"$PLOT" --compare --out "$T/cmp/auto" "$AUTO" "$FIX/reduce-gpu-b-synthetic.csv" >/dev/null \
    2>"$T/cmp-auto.err"
check "compare takes an auto run without --lever" [ $? -eq 0 ]
check "compare marks the auto run's capped points open" \
    [ "$(open_points "$T/cmp/auto.svg")" -eq $(($(bounds_rows "$AUTO") + 1)) ]

# --- failures: exit status, one line naming the file, no output ---------------------------------
expect_failure() { # expect_failure STATUS NEEDLE OUTDIR -- ARGS...: exit STATUS, one stderr line
    status=$1 needle=$2 dir=$3
    shift 4
    "$PLOT" "$@" >"$T/fail.out" 2>"$T/fail.err"
    rc=$?
    check "plot $* exits $status (got $rc)" [ $rc -eq "$status" ]
    check "plot $* says '$needle'" grep -qF -- "$needle" "$T/fail.err"
    check "plot $* prints one line" [ "$(wc -l <"$T/fail.err")" -eq 1 ]
    check "plot $* writes no file" no_files_in "$dir"
}
for case in "no-header:no header line" \
    "missing-columns:missing required columns: gbps_median, status" \
    "no-ok-rows:no ok rows to plot" \
    "nan-values:figure occupancy-reduce: no ok rows with numeric occ_achieved_pct and gbps_median" \
    "metadata-only:no header line" "ragged:line 25 has 20 fields, the header has 49"; do
    name=${case%%:*}
    f="$FIX/malformed-$name.csv"
    expect_failure 2 "plots: $f: ${case#*:}" "$T/bad-$name" -- --outdir "$T/bad-$name" "$f"
done
: >"$T/empty.csv"
expect_failure 2 "plots: $T/empty.csv: empty file" "$T/bad-empty" -- --outdir "$T/bad-empty" \
    "$T/empty.csv"
expect_failure 2 "plots: $T/absent.csv: cannot read the file" "$T/bad-absent" -- \
    --outdir "$T/bad-absent" "$T/absent.csv"
expect_failure 2 "malformed-ragged.csv: line 25" "$T/bad-mixed" -- --outdir "$T/bad-mixed" \
    "$FIX/reduce-synthetic.csv" "$FIX/malformed-ragged.csv"
grep -v '^# roof_memcpy_gbps=' "$FIX/reduce-gpu-b-synthetic.csv" >"$T/no-roof.csv"
expect_failure 2 "plots: $T/no-roof.csv: metadata roof_memcpy_gbps is missing" "$T/bad-cmp" -- \
    --compare --out "$T/bad-cmp/x" "$FIX/reduce-synthetic.csv" "$T/no-roof.csv"
expect_failure 2 "choose one with --lever" "$T/bad-cmp" -- --compare --out "$T/bad-cmp/x" \
    "$FIX/copy-synthetic.csv" "$FIX/copy-synthetic.csv"
expect_failure 2 "no kernel has ok copy/reduce rows in every CSV" "$T/bad-cmp" -- --compare \
    --out "$T/bad-cmp/x" "$FIX/reduce-synthetic.csv" "$FIX/copy-synthetic.csv"
expect_failure 2 "unknown option '--bogus'" "$T/none" -- --bogus "$FIX/reduce-synthetic.csv"
expect_failure 2 "--x 'foo': accepted values are occ and inflight" "$T/none" -- --compare \
    --x foo --out "$T/none/x" "$FIX/reduce-synthetic.csv" "$FIX/reduce-gpu-b-synthetic.csv"
expect_failure 2 "no CSV given" "$T/none" --

# No gnuplot: the one line the issue asks for, exit 2.
GNUPLOT="$T/no-such-gnuplot" "$PLOT" --outdir "$T/nognuplot" "$FIX/reduce-synthetic.csv" \
    >/dev/null 2>"$T/nognuplot.err"
check "missing gnuplot exits 2" [ $? -eq 2 ]
check "missing gnuplot says how to get it" grep -qxF "plots: gnuplot not found; install it \
(apt-get install gnuplot-nox) or copy the CSV to a machine that has it" "$T/nognuplot.err"
check "missing gnuplot writes nothing" no_files_in "$T/nognuplot"

# A gnuplot that fails on the ladder, after the reduce figures were drawn: nothing may appear.
cat >"$T/flaky-gnuplot" <<'EOF'
#!/bin/sh
case "$2" in *ladder.gp) echo "simulated gnuplot failure" >&2; exit 1 ;; esac
exec gnuplot "$@"
EOF
chmod +x "$T/flaky-gnuplot"
GNUPLOT="$T/flaky-gnuplot" "$PLOT" --outdir "$T/flaky" "$FIX/reduce-synthetic.csv" \
    "$FIX/chase-latency-synthetic.csv" >/dev/null 2>"$T/flaky.err"
check "gnuplot failure exits 1" [ $? -eq 1 ]
check "gnuplot failure names file and figure" \
    grep -qF "chase-latency-synthetic.csv: ladder: gnuplot failed: simulated" "$T/flaky.err"
check "gnuplot failure leaves no partial output" no_files_in "$T/flaky"

"$PLOT" --help >"$T/help.out" 2>&1
check "--help exits 0" [ $? -eq 0 ]
check "--help documents --compare" grep -qF -- "--compare" "$T/help.out"

echo "$checks checks, $failed failed"
[ $failed -eq 0 ]
