#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/plots/test_plots.sh: renders every fixture CSV (tests/fixtures, synthetic data) with
# plots/plot and checks the figures: valid 1200x800 PNGs and well-formed SVGs with their titles and
# legends, one point drawn per ok row (also where strings hold commas, quotes and line breaks);
# figure types follow from what the rows hold, not from kernel names (the hop-time figure where
# chase rows hold ns per hop and the clock, none where they do not); the Little's-law line counts
# bytes in flight dram_bytes_per_load_byte times; auto-lever runs are one figure per kernel with
# open points where the register-capped variant ran, --lever both runs one per lever; only ok
# rows are selected, sorted, as the CSV's own text; the 2-GPU comparison renders in both x
# modes; every malformed CSV and bad command exits 2 with one line naming the file (and line)
# and writes nothing, nor does a gnuplot that fails half way. Exit 0 passed, 1 failed, 77 no
# gnuplot.
set -u

TEST_NAME=test_plots
. "$(dirname "$0")/plots_lib.sh"
SEL="$ROOT/plots/csvsel.py"
SEP=$(printf '\037')

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

# Point symbols in gnuplot's SVG: pointtype N is drawn as <use xlink:href='#gpPt(N-1)'
# transform=...>; the lines with id= are the symbol definitions, not drawn points.
drawn_points() { # drawn_points SVG [N]: points (of symbol gpPtN) in colour: not the key's black
    grep "<use xlink:href='#gpPt${2:-[0-9]*}' transform=" "$1" | grep -v "rgb(255, 255, 255)" |
        grep -vc "rgb(  0,   0,   0)" # white points only mask the lines under open ones
}
count_rows() { # count_rows CSV AWK-CONDITION: rows, as plots/occcsv.py reads them, for which the
    # condition on v["column"] holds (fixtures only: no '|' in their strings)
    python3 "$ROOT/plots/occcsv.py" --dump "$1" | awk -F '|' -v names="$(grep -v '^#' "$1" |
        head -n 1 | tr -d '\r')" 'BEGIN { n = split(names, c, ",") }
        /^row / { sub(/^row /, ""); for (i = 1; i <= n; i++) v[c[i]] = $i; k += ('"$2"') }
        END { print k + 0 }'
}
ok='v["status"] == "ok"'
set_column() { # set_column CSV COLUMN TEXT: CSV (no quoted fields) with COLUMN set to TEXT
    awk -F ',' -v OFS=',' -v name="$2" -v text="$3" '/^#/ { print; next }
        !head { for (i = 1; i <= NF; i++) if ($i == name) c = i; head = 1; print; next }
        { $c = text; print }' "$1"
}

# --- every figure of every fixture, into one directory ------------------------------------------
OUT="$T/all"
"$PLOT" --outdir "$OUT" "$FIX/reduce-synthetic.csv" "$FIX/copy-synthetic.csv" \
    "$FIX/chase-warp-synthetic.csv" "$FIX/chase-latency-synthetic.csv" \
    "$FIX/reduce-gpu-b-synthetic.csv" "$FIX/reduce-auto-synthetic.csv" \
    "$FIX/reduce-quoted-synthetic.csv" >"$T/all.out" 2>"$T/all.err"
check "plot all fixtures exits 0" [ $? -eq 0 ]
check "plot all fixtures is silent on stderr (no gnuplot warnings)" [ ! -s "$T/all.err" ]
expected="reduce-synthetic-occupancy-reduce reduce-synthetic-inflight-reduce
copy-synthetic-occupancy-copy-pad copy-synthetic-inflight-copy-pad
copy-synthetic-occupancy-copy-bounds copy-synthetic-levers-copy-u8-v16
copy-synthetic-inflight-copy-bounds
chase-warp-synthetic-chase-warp chase-warp-synthetic-hoptime-chase-warp
chase-warp-synthetic-chase-thread chase-warp-synthetic-hoptime-chase-thread
chase-latency-synthetic-ladder
reduce-gpu-b-synthetic-occupancy-reduce reduce-gpu-b-synthetic-inflight-reduce
reduce-auto-synthetic-occupancy-reduce reduce-auto-synthetic-inflight-reduce
reduce-quoted-synthetic-occupancy-reduce reduce-quoted-synthetic-inflight-reduce"
n_expected=0
for fig in $expected; do
    n_expected=$((n_expected + 2))
    check "$fig.png is a valid PNG" is_png "$OUT/$fig.png"
    check "$fig.svg is a valid SVG" is_svg "$OUT/$fig.svg"
    check "stdout lists $fig.png" grep -qxF "$OUT/$fig.png" "$T/all.out"
done
check "exactly the expected files, nothing else" [ "$(ls "$OUT" | wc -l)" -eq $n_expected ]

svg="$OUT/reduce-synthetic-occupancy-reduce.svg"

# --- a --ncu run: stall reasons of one variant and ncu's achieved occupancy ---------------------
NC="$T/ncu"
"$PLOT" --outdir "$NC" --unroll 4 --vec 16 "$FIX/reduce-ncu-synthetic.csv" >"$T/ncu.out" 2>"$T/ncu.err"
check "plot the --ncu fixture exits 0, silent on stderr" [ $? -eq 0 ] && [ ! -s "$T/ncu.err" ]
nsvg="$NC/reduce-ncu-synthetic-ncu.svg"
check "ncu figure: a valid PNG and SVG" is_png "$NC/reduce-ncu-synthetic-ncu.png" && is_svg "$nsvg"
check "ncu figure: names the picked variant" has_text "$nsvg" "reduce_u4_v16"
check "ncu figure: the four stall reasons and both occupancies" has_text "$nsvg" "long scoreboard" &&
    has_text "$nsvg" "math-pipe throttle" && has_text "$nsvg" "Nsight Compute achieved" &&
    has_text "$nsvg" "occsweep measured residency"
n_u4=$(count_rows "$FIX/reduce-ncu-synthetic.csv" "$ok && v[\"variant\"] == \"reduce_u4_v16\"")
# --unroll 4 --vec 16 keep that variant in both panels: 4 stall curves and 2 occupancies of
# each of its rows, a key point per curve (6).
check "ncu figure: the points drawn" [ "$(drawn_points "$nsvg")" -eq $((6 * n_u4 + 6)) ]
check "ncu figure: the bottom key says which variants" has_text "$nsvg" "unroll 4 vec 16"

# --- the arithmetic families: GFLOP/s per chain count and type; the intensity figure ------------
AR="$T/arith"
"$PLOT" --outdir "$AR" "$FIX/fma-synthetic.csv" "$FIX/mixed-synthetic.csv" >"$T/arith.out" \
    2>"$T/arith.err"
check "plot the arithmetic fixtures exits 0, silent on stderr" \
    [ $? -eq 0 ] && [ ! -s "$T/arith.err" ]
for fig in fma-synthetic-flops-fma-fp32 fma-synthetic-flops-fma-fp64 mixed-synthetic-flops-mixed \
    mixed-synthetic-intensity-mixed; do
    check "$fig.png is a valid PNG" is_png "$AR/$fig.png"
    check "$fig.svg is a valid SVG" is_svg "$AR/$fig.svg"
done
check "arithmetic: exactly the expected files" [ "$(ls "$AR" | wc -l)" -eq 8 ]
for t in 32 64; do
    # One point per ok row of the type, plus one per key entry (U = 1, 2, 4, 8).
    check "fma fp$t: one point per ok row" [ "$(drawn_points "$AR/fma-synthetic-flops-fma-fp$t.svg")" \
        -eq $(($(count_rows "$FIX/fma-synthetic.csv" "$ok && v[\"vec_bytes\"] == $t / 8") + 4)) ]
done
check "fma legend names the chains" has_text "$AR/fma-synthetic-flops-fma-fp32.svg" "U = 8 chains"
check "fma fp32 names its clock-derived peak" \
    has_text "$AR/fma-synthetic-flops-fma-fp32.svg" ">peak 66.9 TFLOP/s at "
check "fma fp64 names its peak, half the fp32 one" \
    has_text "$AR/fma-synthetic-flops-fma-fp64.svg" ">peak 33.5 TFLOP/s at "
check "fma has the % of peak axis, at the measured clock" \
    has_text "$AR/fma-synthetic-flops-fma-fp32.svg" "% of the peak at "
check "fma title names its quantity, not GFLOP/s over a TFLOP/s axis" \
    sh -c '! grep -qF "GFLOP/s" "$1"' sh "$AR/fma-synthetic-flops-fma-fp32.svg"
check "mixed legend names A" has_text "$AR/mixed-synthetic-flops-mixed.svg" "A = 256<" &&
    has_text "$AR/mixed-synthetic-flops-mixed.svg" "A: FMAs per loaded float"
check "intensity marks the balance (peak / memcpy roof)" \
    has_text "$AR/mixed-synthetic-intensity-mixed.svg" "balance 16.7 FLOP/B"
# Per A: the knee, % of roof and (A > 0) % of peak; one point each per key entry.
n_a=$(count_rows "$FIX/mixed-synthetic.csv" "$ok && v[\"blocks_per_sm\"] == 1")
check "intensity: three points per A (two for A = 0)" \
    [ "$(drawn_points "$AR/mixed-synthetic-intensity-mixed.svg")" -eq $((3 * n_a - 1 + 2)) ]
check "occupancy title says what it draws" \
    has_text "$svg" "reduce (stream): bandwidth against occupancy<"
check "occupancy title names GPU, block size, buffer, date" \
    has_text "$svg" ">Synthetic GPU A · 128-thread blocks · "
check "occupancy title: the date, synthetic" has_text "$svg" "· 2025-01-15 [synthetic test"
check "occupancy labels the group of U x V = 128 B" has_text "$svg" ">128 B: 8×16<"
check "occupancy labels the group of U x V = 16 B, its members by U" has_text "$svg" ">16 B: 1×16 2×8 4×4<"
check "occupancy legend has 16 B loads" has_text "$svg" "V = 16 B loads"
# Roof and peak are key entries (an SVG <title> names each plotted element), not labels that
# could sit on the curves.
check "occupancy names the memcpy roof in the key" has_text "$svg" "<title>memcpy roof 4012 GB/s<"
check "occupancy names the DRAM peak in the key" has_text "$svg" "<title>DRAM peak 4800 GB/s<"
check "inflight names the memcpy roof in the key" \
    has_text "$OUT/reduce-synthetic-inflight-reduce.svg" "<title>memcpy roof 4012 GB/s<"
check "occupancy has the % of roof axis" has_text "$svg" "% of memcpy roof"
check "bounds figure of copy keeps its lever" \
    has_text "$OUT/copy-synthetic-occupancy-copy-bounds.svg" "copy (stream): bandwidth against occupancy, occupancy set by register caps"
check "inflight has byte tics" has_text "$OUT/reduce-synthetic-inflight-reduce.svg" "4 KiB"
check "ladder marks L1 (no l1_kib: the combined SRAM, so named)" \
    has_text "$OUT/chase-latency-synthetic-ladder.svg" "L1/shared SRAM 256 KiB (L1 at most)"
check "ladder names the far L2 partition" \
    has_text "$OUT/chase-latency-synthetic-ladder.svg" "far L2 partition"
# The schedule figure (drawn by hand for reports): one variant's rows, one curve per schedule.
PLOT_WHERE="variant=reduce_u4_v16" PLOT_BY=schedule PLOT_X=occ_achieved_pct PLOT_Y=gbps_median \
    PLOT_KEEP=occ_measured_pct python3 "$SEL" select "$FIX/reduce-synthetic.csv" >"$T/sched.tsv"
gnuplot -c "$ROOT/plots/schedule.gp" "$T/sched.tsv" "$T/sched" "schedules" 2>"$T/sched.err"
check "schedule figure renders" is_png "$T/sched.png"
check "schedule figure names the schedule and the agreement line" \
    sh -c "grep -q '<title>dynamic<' '$T/sched.svg' && grep -q 'measured = API' '$T/sched.svg'"
check "schedule SVG has both panels (bandwidth and residency)" \
    sh -c "grep -q 'median bandwidth (GB/s)' '$T/sched.svg' && grep -q 'measured residency' '$T/sched.svg'"
check "ladder marks L2" has_text "$OUT/chase-latency-synthetic-ladder.svg" "L2 50 MiB"
check "chase legend names chains per warp" \
    has_text "$OUT/chase-warp-synthetic-chase-warp.svg" "K = 8 chains per warp"
check "chase thread figure is per thread" \
    has_text "$OUT/chase-warp-synthetic-chase-thread.svg" "K = 2 chains per thread"
check "hop-time legend names chains per warp" \
    has_text "$OUT/chase-warp-synthetic-hoptime-chase-warp.svg" "K = 8 chains per warp"
check "hop-time thread figure is per thread" \
    has_text "$OUT/chase-warp-synthetic-hoptime-chase-thread.svg" "K = 2 chains per thread"
check "hop-time figure: cycles per load of one chain, its title says so" has_text \
    "$OUT/chase-warp-synthetic-hoptime-chase-warp.svg" "cycles per dependent load of one chain" &&
    has_text "$OUT/chase-warp-synthetic-hoptime-chase-warp.svg" \
    "chase (warp): cycles per dependent load of one chain against occupancy"

# --- what is drawn: one point per ok row -------------------------------------------------------
for f in reduce-synthetic copy-synthetic reduce-auto-synthetic; do
    for fig in occupancy inflight; do
        n=0
        for one in "$OUT/$f-$fig"-*.svg; do n=$((n + $(drawn_points "$one"))); done
        check "$f $fig: one point per ok row" [ $n -eq "$(count_rows "$FIX/$f.csv" "$ok")" ]
    done
done
# Chase and ladder curves carry their titles: each key entry adds a point of its curve's colour
# (one per chain count K, whose blocks_per_sm = 1 row is ok; cycles and ns of the ladder).
for m in warp thread; do
    for fig in chase hoptime-chase; do
        check "$fig $m: one point per ok row" \
            [ "$(drawn_points "$OUT/chase-warp-synthetic-$fig-$m.svg")" -eq "$(count_rows \
            "$FIX/chase-warp-synthetic.csv" \
            "$ok && v[\"mode\"] == \"$m\" ? 1 + (v[\"blocks_per_sm\"] == 1) : 0")" ]
    done
done
check "ladder: one series, a point for every ok row and the key's" [ "$(drawn_points \
    "$OUT/chase-latency-synthetic-ladder.svg")" -eq \
    $(($(count_rows "$FIX/chase-latency-synthetic.csv" "$ok") + 1)) ]

# --- strings that need quoting: commas, quotes, line breaks, CRLF line ends ----------------------
Q="$FIX/reduce-quoted-synthetic.csv"
qsvg="$OUT/reduce-quoted-synthetic-occupancy-reduce.svg"
# (tests/unit/test_fixtures.c checks what both readers read in it.)
check "the quoted fixture has CRLF line ends" [ "$(grep -c "$(printf '\r')\$" "$Q")" -gt 30 ]
check "the quoted fixture has a GPU name over two lines" \
    grep -qxF '"Synthetic GPU ""Q"", rev. 2' "$Q"
check "quoted fixture: title shows the unescaped GPU name" \
    has_text "$qsvg" 'Synthetic GPU "Q", rev. 2 second line · 128-thread blocks'
# 8 B loads are squares (gpPt4), 16 B triangles (gpPt8), see vec_pt in style.gp.
for vec_pt in 8:4 16:8; do
    check "quoted fixture: one point per ok row with ${vec_pt%%:*} B loads" \
        [ "$(drawn_points "$qsvg" "${vec_pt#*:}")" -eq \
        "$(count_rows "$Q" "$ok"' && v["vec_bytes"] == '"${vec_pt%%:*}")" ]
done
check "quoted fixture: the fail row is not drawn" \
    [ "$(drawn_points "$qsvg")" -eq "$(count_rows "$Q" "$ok")" ]
check "quoted fixture: 32 rows read, 31 ok" \
    [ "$(count_rows "$Q" 1)/$(count_rows "$Q" "$ok")" = 32/31 ]

# --- row selection: ok rows only, sorted within each curve, the CSV's own text ----------------
select_stream() { # select_stream KERNEL CSV: the occupancy data of one kernel
    PLOT_WHERE="kernel=$1" PLOT_BY=unroll,vec_bytes,lever PLOT_X=occ_achieved_pct \
        PLOT_Y=gbps_median PLOT_WHAT=test python3 "$SEL" select "$2"
}
data_rows() { # data rows of a selection: neither headers nor block separators
    awk -F '\t' 'NF > 1 && $1 != "set_idx"' "$1" | wc -l
}
select_stream reduce "$FIX/reduce-synthetic.csv" >"$T/sel.tsv"
n_ok=$(count_rows "$FIX/reduce-synthetic.csv" "$ok")
check "every ok row and nothing else (there are skip rows) is selected" [ "$(data_rows \
    "$T/sel.tsv")" -eq "$n_ok" -a "$n_ok" -lt "$(count_rows "$FIX/reduce-synthetic.csv" 1)" ]
# copy holds a fail row with real numbers in it: only the status keeps it off the figure.
select_stream copy "$FIX/copy-synthetic.csv" >"$T/sel-copy.tsv"
check "fail rows with numbers are not selected" [ "$(data_rows "$T/sel-copy.tsv")" -eq \
    "$(count_rows "$FIX/copy-synthetic.csv" "$ok")" -a "$(count_rows "$FIX/copy-synthetic.csv" \
    'v["status"] ~ /^fail:/ && v["gbps_median"] != "NaN"')" -eq 1 ]
check "12 curves (unroll 1,2,4,8 x vec 4,8,16)" [ "$(grep -c '^set_idx' "$T/sel.tsv")" -eq 12 ]
check "x ascends within every curve although the fixture rows are shuffled" \
    awk -F '\t' '$1 == "set_idx" { prev = -1; next }
        NF > 1 { if ($9 + 0 < prev) exit 1; prev = $9 + 0 }' "$T/sel.tsv"
check "the fixture rows are shuffled" \
    awk -F ',' '!/^#/ && NR > 20 && $14 != "NaN" { if (p != "" && $14 + 0 < p) found = 1
        p = $14 + 0 } END { exit !found }' "$FIX/reduce-synthetic.csv"
# Numbers reach gnuplot as the CSV wrote them: 100 written as 1.0e2 stays 1.0e2.
set_column "$FIX/reduce-synthetic.csv" occ_achieved_pct 1.0e2 >"$T/exp.csv"
select_stream reduce "$T/exp.csv" >"$T/sel-exp.tsv"
check "x is the CSV's own text" [ "$(awk -F '\t' 'NF > 1 && $1 != "set_idx" && $9 != "1.0e2"' \
    "$T/sel-exp.tsv" | wc -l)" -eq 0 ]
check "y is the CSV's own text (the same (x, y) pairs as the ok rows)" [ "$(awk -F '\t' \
    'NF > 1 && $1 != "set_idx" { print $9 "," $10 }' "$T/sel.tsv" | sort)" = "$(awk -F , '/^#/ {
    next } !h { for (h = 1; h <= NF; h++) c[$h] = h; next } $NF == "ok" {
    print $c["occ_achieved_pct"] "," $c["gbps_median"] }' "$FIX/reduce-synthetic.csv" | sort)" ]

# --- the figure type follows from the rows, not from kernel names ------------------------------
mkdir -p "$T/names"
set_column "$FIX/chase-warp-synthetic.csv" kernel hopper >"$T/names/hopper-tp.csv"
set_column "$FIX/chase-latency-synthetic.csv" kernel hopper >"$T/names/hopper-lat.csv"
set_column "$FIX/chase-latency-synthetic.csv" mode lat-cold >"$T/names/cold.csv"
set_column "$FIX/copy-synthetic.csv" kernel dup >"$T/names/dup.csv"
set_column "$T/names/hopper-tp.csv" ns_per_hop_median NaN >"$T/names/no-ns.csv"
"$PLOT" --outdir "$T/names/out" "$T/names/hopper-tp.csv" "$T/names/hopper-lat.csv" \
    "$T/names/cold.csv" "$T/names/dup.csv" "$T/names/no-ns.csv" >/dev/null 2>&1
check "renamed kernels: the figures that the rows call for, under the new names" [ "$(ls \
    "$T/names/out" | grep png$ | tr '\n' ' ')" = "cold-ladder-cold.png dup-inflight-dup-bounds.png \
dup-inflight-dup-pad.png dup-levers-dup-u8-v16.png dup-occupancy-dup-bounds.png \
dup-occupancy-dup-pad.png hopper-lat-ladder.png hopper-tp-hopper-thread.png hopper-tp-hopper-warp.png \
hopper-tp-hoptime-hopper-thread.png hopper-tp-hoptime-hopper-warp.png no-ns-hopper-thread.png \
no-ns-hopper-warp.png " ]
check "hops without cycles: the throughput figure" \
    has_text "$T/names/out/hopper-tp-hopper-warp.svg" "K = 8 chains per warp"
check "hops with ns per hop and the clock: the hop-time figure" \
    has_text "$T/names/out/hopper-tp-hoptime-hopper-warp.svg" "K = 8 chains per warp"

# --- the Little's-law line: bytes in flight counted dram_bytes_per_load_byte times --------------
little_y() { # GB/s (on the figure's left axis) of the first point of the Little's-law line in an SVG
    python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import svgfig
f = svgfig.Figure(sys.argv[2])
p = max((p for p in f.paths if p["title"].startswith("Little")), key=lambda p: len(p["points"]))
print("%.2f" % svgfig.axis_map(f.tick_labels("end"))(p["points"][0][1]))' "$ROOT/tests/plots" "$1"
}
L="$T/little" L350="$T/little/350" L700="$T/little/700"
mkdir -p "$L"
set_column "$FIX/reduce-synthetic.csv" dram_bytes_per_load_byte 2 >"$L/twice.csv"
set_column "$FIX/copy-synthetic.csv" dram_bytes_per_load_byte 1 >"$L/copy-once.csv"
set_column "$FIX/reduce-synthetic.csv" dram_bytes_per_load_byte NaN >"$L/none.csv"
"$PLOT" --outdir "$L350" --latency-ns 350 "$FIX/reduce-synthetic.csv" "$FIX/copy-synthetic.csv" \
    "$L/twice.csv" "$L/copy-once.csv" "$L/none.csv" >/dev/null 2>&1
"$PLOT" --outdir "$L700" --latency-ns 700 "$FIX/reduce-synthetic.csv" "$L/twice.csv" >/dev/null
check "--latency-ns draws the Little's-law model" \
    has_text "$L350/reduce-synthetic-inflight-reduce.svg" "<title>Little: 132 SMs, 350 ns</title>"
check "copy rows (factor 2) count their bytes twice" \
    has_text "$L350/copy-synthetic-inflight-copy-pad.svg" "Little: 132 SMs, 350 ns, ×2"
check "copy rows with factor 1 do not" \
    has_text "$L350/copy-once-inflight-copy-pad.svg" "<title>Little: 132 SMs, 350 ns</title>"
check "reduce rows with factor 2 do" \
    has_text "$L350/twice-inflight-reduce.svg" "Little: 132 SMs, 350 ns, ×2"
check "factor NaN: no model line" \
    sh -c '! grep -qF "Little" "$1"' sh "$L350/none-inflight-reduce.svg"
# At the left edge the line is factor x bytes x SMs / latency: factor 2 at 700 ns starts where
# factor 1 at 350 ns does, and higher than factor 1 at 700 ns.
y1=$(little_y "$L350/reduce-synthetic-inflight-reduce.svg")
y2=$(little_y "$L700/twice-inflight-reduce.svg")
check "the model line is drawn" [ -n "$y1" ]
# (within 1 GB/s: the two figures' plot areas differ in height, the factor-1 one having the
# cub::DeviceReduce roof in its key, so the SVG's coordinates round differently)
check "factor 2 at 700 ns starts at the height of factor 1 at 350 ns ($y2 vs $y1)" \
    awk -v a="$y2" -v b="$y1" 'BEGIN { d = a - b; exit !(a != "" && d <= 1 && d >= -1) }'
y3=$(little_y "$L700/reduce-synthetic-inflight-reduce.svg")
check "factor 2 at 700 ns starts higher than factor 1 at 700 ns" \
    awk -v a="$y2" -v b="$y3" 'BEGIN { exit !(a + 0 > b + 0) }'

# --- levers: auto is one figure per kernel, both is one per lever ------------------------------
# The open square, circle and triangle (pointtypes 4, 6, 8) are gpPt3, gpPt5, gpPt7.
open_points() {
    grep "xlink:href='#gpPt[357]'" "$1" | grep -vc "id='gpPt"
}
bounds_rows() { # ok rows measured with lever bounds
    count_rows "$1" "$ok"' && v["lever"] == "bounds"'
}
AUTO="$FIX/reduce-auto-synthetic.csv"
python3 "$SEL" check "$AUTO" >"$T/auto.info"
check "auto run: one occupancy figure for reduce, of every lever" \
    awk -F '\t' '$1 == "fig" && $2 == "occupancy" { n++
        ok = $3 == "reduce" && $5 == "*" && $7 == "occupancy-reduce" }
        END { exit !(n == 1 && ok) }' \
    "$T/auto.info"
check "auto run: two figures, occupancy and inflight" [ "$(grep -c '^fig' "$T/auto.info")" -eq 2 ]
PLOT_WHERE="kernel=reduce${SEP}unroll=8${SEP}vec_bytes=16" PLOT_BY=unroll,vec_bytes \
    PLOT_X=occ_achieved_pct PLOT_Y=gbps_median PLOT_KEEP=lever PLOT_WHAT=test \
    python3 "$SEL" select "$AUTO" >"$T/u8v16.tsv"
check "auto run: the U=8 V=16 curve is one block, pad points then bounds points" \
    [ "$(awk -F '\t' 'NF > 1 && $1 != "set_idx" { s = s " " $NF } END { print s }' \
        "$T/u8v16.tsv" | tr -s ' ' '\n' | uniq | paste -sd, -)" = ",pad,bounds" ]
check "auto run: the U=8 V=16 curve has 16 points" [ "$(data_rows "$T/u8v16.tsv")" -eq 16 ]
auto_svg="$OUT/reduce-auto-synthetic-occupancy-reduce.svg"
check "auto legend explains the capped twin" has_text "$auto_svg" "register-capped (dashed, open)"
check "auto: the capped points labelled with cap and spill" has_text "$auto_svg" " B spill<"
check "auto fixture has bounds rows" [ "$(bounds_rows "$AUTO")" -gt 0 ]
for fig in occupancy inflight; do
    check "auto $fig: one open point per bounds row, plus the legend's" \
        [ "$(open_points "$OUT/reduce-auto-synthetic-$fig-reduce.svg")" -eq \
        $(($(bounds_rows "$AUTO") + 1)) ]
done
check "pad-only run: no open point" \
    [ "$(open_points "$OUT/reduce-synthetic-occupancy-reduce.svg")" -eq 0 ]
check "pad-only run: no open-point legend" \
    sh -c '! grep -qF "register-capped" "$1"' sh "$OUT/reduce-synthetic-occupancy-reduce.svg"
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
        $c["variant"] = "reduce_u8_v16_r32"; $c["lever"] = "bounds"; print }' \
    "$AUTO" >"$T/reduce-both.csv"
"$PLOT" --outdir "$T/both" "$T/reduce-both.csv" >"$T/both.out" 2>&1
check "both run renders" [ $? -eq 0 ]
for lever in pad bounds; do
    for fig in occupancy inflight; do
        check "both run: $fig figure per lever ($lever)" \
            is_png "$T/both/reduce-both-$fig-reduce-$lever.png"
    done
    check "both run: $lever figure says its lever" \
        has_text "$T/both/reduce-both-occupancy-reduce-$lever.svg" "occupancy set by"
done
check "both run: no figure without a lever part" [ ! -e "$T/both/reduce-both-occupancy-reduce.png" ]
check "both run: four figures and the levers figure, PNG and SVG" \
    [ "$(ls "$T/both" | wc -l)" -eq 10 ]

# --- the levers figure: one (U, V) through each lever, capped points labelled with spill bytes --
lsvg="$OUT/copy-synthetic-levers-copy-u8-v16.svg"
lever_rows() { # lever_rows LEVER: ok rows of copy_u8_v16 (or its twins) under LEVER
    count_rows "$FIX/copy-synthetic.csv" "$ok"' && v["unroll"] == 8 && v["vec_bytes"] == 16 &&
        v["lever"] == "'"$1"'"'
}
label_rows() { # label_rows CAP SPILL: bounds rows of copy U=8 V=16 at that cap and spill
    count_rows "$FIX/copy-synthetic.csv" "$ok"' && v["unroll"] == 8 && v["vec_bytes"] == 16 &&
        v["reg_cap_per_thread"] == '"$1"' && v["local_bytes_per_thread"] == '"$2"
}
check "levers figure: rows of both levers in the fixture" \
    [ "$(lever_rows bounds)" -gt 0 ] && [ "$(lever_rows pad)" -gt 0 ]
check "levers figure: both levers in the key" \
    has_text "$lsvg" "bounds: register cap" && has_text "$lsvg" "pad: natural registers"
check "levers figure: title names U and V" has_text "$lsvg" \
    "copy (stream) u8 v16: bandwidth against occupancy through each lever"
for cap_spill in "40 32" "32 64"; do
    set -- $cap_spill
    check "levers figure: one label 'r$1: $2 B' per bounds row at that cap" \
        [ "$(grep -cF ">r$1: $2 B<" "$lsvg")" -eq "$(label_rows "$1" "$2")" ] &&
        [ "$(label_rows "$1" "$2")" -gt 0 ]
done
check "levers figure: no label on a pad point" \
    [ "$(grep -c '>r[0-9]*: [0-9]* B<' "$lsvg")" -eq "$(lever_rows bounds)" ]
check "levers figure: one open point per bounds row, plus the key's" \
    [ "$(open_points "$lsvg")" -eq $(($(lever_rows bounds) + 1)) ]
check "a pad-only run has no levers figure" sh -c '! ls "$1"/reduce-synthetic-levers-* 2>/dev/null' \
    sh "$OUT"

# --- beside the CSV, optional metadata ----------------------------------------------------------
mkdir -p "$T/beside"
grep -v '^# l1_bytes=' "$FIX/chase-latency-synthetic.csv" >"$T/beside/no-l1.csv"
"$PLOT" --latency-ns 350 "$T/beside/no-l1.csv" >/dev/null 2>&1
check "without --outdir figures go beside the CSV" is_png "$T/beside/no-l1-ladder.png"
check "without l1_bytes the ladder leaves out the L1 marker" \
    sh -c '! grep -qF "L1 " "$1"' sh "$T/beside/no-l1-ladder.svg"
check "without l1_bytes the ladder keeps the L2 marker" \
    has_text "$T/beside/no-l1-ladder.svg" "L2 50 MiB"

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
check "compare --x inflight has byte tics" has_text "$T/cmp/reduce-inflight.svg" "4 KiB<"
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
    [ "$(open_points "$T/cmp/auto.svg")" -ge "$(bounds_rows "$AUTO")" ]

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
# Positions in the schema, so that a new column does not break the expected messages.
columns() { grep -E '^ +X\([a-z0-9_]+,' "$ROOT/harness/csv/csv_columns.h" | sed 's/^ *X(//; s/,.*//'; }
col() { columns | grep -nx "$1" | cut -d: -f1; }
n_cols=$(grep -cE '^ *X\([a-z0-9_]+,' "$ROOT/harness/csv/csv_columns.h")
# NAME|MESSAGE: what plots/plot says after "plots: <file>" (the reader's "file:line: what").
for case in "no-header|:15: wrong header: column 1 is 'Synthetic GPU A', expected 'gpu_name'" \
    "missing-columns|:15: wrong header: column $(col gbps_median) is 'gbps_max', expected 'gbps_median'" \
    "wrong-header|:15: wrong header: column 7 is 'vec_bytes', expected 'unroll'" \
    "metadata-only|:15: no header line" "ragged|:23: 20 fields, expected $n_cols" \
    "int-nan|:23: column blocks_per_sm: 'NaN' is not an integer" \
    "num-text|:27: column gbps_median: 'fast' is not a number" \
    "unterminated-quote|:27: unterminated quoted field" \
    "after-quote|:26: text after a closing quote" \
    "no-ok-rows|: no ok rows to plot: all 12 rows are skip or fail" \
    "nan-values|: figure occupancy-reduce: no ok rows with finite occ_achieved_pct and gbps_"; do
    name=${case%%|*}
    f="$FIX/malformed-$name.csv"
    expect_failure 2 "plots: $f${case#*|}" "$T/bad-$name" -- --outdir "$T/bad-$name" "$f"
done
# A file of the schema before dram_bytes_per_load_byte: rejected, as occ_csv_read rejects it.
awk -F ',' -v OFS=',' '/^#/ { print; next } !c { for (i = 1; i <= NF; i++)
    if ($i == "dram_bytes_per_load_byte") c = i } { $c = ""; sub(",,", ","); print }' \
    "$FIX/reduce-synthetic.csv" >"$T/old-schema.csv"
expect_failure 2 "plots: $T/old-schema.csv:15: wrong header: column $(col dram_bytes_per_load_byte) is '$(columns | sed -n "$(( $(col dram_bytes_per_load_byte) + 1 ))p")'" \
    "$T/bad-old" -- --outdir "$T/bad-old" "$T/old-schema.csv"
: >"$T/empty.csv"
expect_failure 2 "plots: $T/empty.csv: empty file" "$T/bad-empty" -- --outdir "$T/bad-empty" \
    "$T/empty.csv"
expect_failure 2 "plots: $T/absent.csv: cannot read the file" "$T/bad-absent" -- \
    --outdir "$T/bad-absent" "$T/absent.csv"
expect_failure 2 "malformed-ragged.csv:23:" "$T/bad-mixed" -- --outdir "$T/bad-mixed" \
    "$FIX/reduce-synthetic.csv" "$FIX/malformed-ragged.csv"
grep -v '^# roof_memcpy_gbps=' "$FIX/reduce-gpu-b-synthetic.csv" >"$T/no-roof.csv"
expect_failure 2 "plots: $T/no-roof.csv: metadata roof_memcpy_gbps is missing" "$T/bad-cmp" -- \
    --compare --out "$T/bad-cmp/x" "$FIX/reduce-synthetic.csv" "$T/no-roof.csv"
expect_failure 2 "choose one with --lever" "$T/bad-cmp" -- --compare --out "$T/bad-cmp/x" \
    "$FIX/copy-synthetic.csv" "$FIX/copy-synthetic.csv"
expect_failure 2 "no kernel has occupancy figures in every CSV" "$T/bad-cmp" -- --compare \
    --out "$T/bad-cmp/x" "$FIX/reduce-synthetic.csv" "$FIX/copy-synthetic.csv"
expect_failure 2 "unknown option '--bogus'" "$T/none" -- --bogus "$FIX/reduce-synthetic.csv"
expect_failure 2 "--x 'foo': accepted values are occ and inflight" "$T/none" -- --compare \
    --x foo --out "$T/none/x" "$FIX/reduce-synthetic.csv" "$FIX/reduce-gpu-b-synthetic.csv"
expect_failure 2 "no CSV given" "$T/none" --

# No gnuplot: one line saying how to get it, exit 2.
GNUPLOT="$T/no-such-gnuplot" "$PLOT" --outdir "$T/nognuplot" "$FIX/reduce-synthetic.csv" \
    >/dev/null 2>"$T/nognuplot.err"
check "missing gnuplot exits 2" [ $? -eq 2 ]
check "missing gnuplot says how to get it" grep -qxF "plots: gnuplot not found; install it \
(apt-get install gnuplot-nox) or copy the CSV to a machine that has it" "$T/nognuplot.err"
check "missing gnuplot writes nothing" no_files_in "$T/nognuplot"

PYTHON="$T/no-such-python" "$PLOT" --outdir "$T/nopython" "$FIX/reduce-synthetic.csv" \
    >/dev/null 2>"$T/nopython.err"
check "missing python3 exits 2" [ $? -eq 2 ]
check "missing python3 says so, and only that" grep -qxF "plots: python3 not found: the CSV \
reader plots/csvsel.py needs Python 3 (set PYTHON to use another)" "$T/nopython.err"
check "missing python3 writes nothing" no_files_in "$T/nopython"

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

# The load levels among a CSV's rows (chase/loaded, as a sweep with the loaded model writes them
# first): their figure, and on the bytes-in-flight figure the predictions the run's model wrote
# (gbps_predicted: here 90% of each ok row's GB/s); a fail level stays out of the levels' figure,
# --latency-ns drops both. Each level below (traffic, warps, U, GB/s, mean, p5, p50, p95, p99 ns,
# status; the expected slowest of 2, 4 and 8 hops are mean + 40, 80, 120 ns) becomes a full row
# of the schema, inserted after the header.
mkdir -p "$T/loaded"
sed '/^# roof_memcpy_gbps=/a # dram_latency_ns=332.0' "$FIX/copy-synthetic.csv" >"$T/loaded/copy.csv"
python3 - "$T/loaded/copy.csv" "$ROOT/plots" <<'EOF'
import sys
sys.path.insert(0, sys.argv[2])
import occcsv
levels = """read 0 1 9.5 345.0 330.0 343.0 362.0 380.0 ok
read 2 1 830.0 360.0 332.0 352.0 400.0 470.0 ok
read 4 2 2800.0 430.0 340.0 410.0 560.0 720.0 ok
read 8 4 3900.0 640.0 380.0 620.0 900.0 1100.0 ok
read 16 4 3990.0 9950.0 450.0 930.0 1400.0 1700.0 fail:probe_3_ended_off_its_walk
copy 0 1 9.5 346.0 330.0 343.0 362.0 380.0 ok
copy 4 2 2500.0 520.0 360.0 500.0 700.0 900.0 ok
copy 16 4 3700.0 1100.0 500.0 1000.0 2000.0 2600.0 ok
gather 0 4 9.5 350.0 331.0 344.0 364.0 385.0 ok
gather 8 16 3400.0 900.0 420.0 850.0 1500.0 2000.0 ok"""
cols = occcsv.schema()
rows = []
for line in levels.splitlines():
    t, w, u, gbps, mean, p5, p50, p95, p99, status = line.split()
    v = {"kernel": "chase", "mode": "loaded", "variant": "loaded_%s_w%02d_u%s" % (t, int(w), u),
         "traffic": t, "stream_warps_per_sm": w, "unroll": u, "gbps_median": gbps,
         "latency_mean_ns": mean, "latency_p5_ns": p5, "latency_p50_ns": p50,
         "latency_p95_ns": p95, "latency_p99_ns": p99, "status": status.replace("_", " "),
         "sm_count": "132", "block_threads": "32", "blocks_per_sm": "1"}
    for k, extra in ((2, 40), (4, 80), (8, 120)):
        v["latency_max%d_ns" % k] = str(float(mean) + extra)
    rows.append(",".join(v.get(n, "-" if ty == "STR" else "0" if ty == "INT" else "NaN")
                         for n, ty in cols))
text = open(sys.argv[1]).read().split("\n")
at = next(i for i, l in enumerate(text) if l and not l.startswith("#")) + 1
names = [n for n, _ in cols]
i_gbps, i_pred, i_status = (names.index(n) for n in ("gbps_median", "gbps_predicted", "status"))
for i in range(at, len(text)):  # the fixture quotes no field: its lines split at each comma
    f = text[i].split(",")
    if len(f) == len(names) and f[i_status] == "ok":
        f[i_pred] = "%.1f" % (0.9 * float(f[i_gbps]))
        text[i] = ",".join(f)
open(sys.argv[1], "w").write("\n".join(text[:at] + rows + text[at:]))
EOF
"$PLOT" "$T/loaded/copy.csv" >/dev/null 2>"$T/loaded.err"
check "loaded levels: plot exits 0" [ $? -eq 0 ]
check "loaded levels: the latency figure" is_svg "$T/loaded/copy-loaded-latency.svg"
check "loaded levels: the latency figure as PNG" is_png "$T/loaded/copy-loaded-latency.png"
check "loaded levels: the percentile band named" has_text \
    "$T/loaded/copy-loaded-latency.svg" "p5 .. p95"
check "loaded levels: the read + write curve drawn" has_text \
    "$T/loaded/copy-loaded-latency.svg" "mean, read + write (copy) traffic"
check "loaded levels: the random-line curve drawn" has_text \
    "$T/loaded/copy-loaded-latency.svg" "mean, random lines (gather) traffic"
check "loaded levels: the unloaded latency and the roof named" has_text \
    "$T/loaded/copy-loaded-latency.svg" "unloaded (ladder) 332 ns"
check "loaded levels: the roof marked" has_text "$T/loaded/copy-loaded-latency.svg" \
    "memcpy roof 4012 GB/s"
check "loaded levels: the fail level is not drawn (no 9000 ns tic)" \
    bash -c "! grep -qE '> *(9|10)000 *<' '$T/loaded/copy-loaded-latency.svg'"
check "loaded levels: predicted curve on the bytes-in-flight figure" has_text \
    "$T/loaded/copy-inflight-copy-pad.svg" "predicted: loaded latency L(X)"
check "loaded levels: the predictions drawn in a style of their own (dotted)" bash -c \
    "grep -A10 '<title>predicted: loaded latency' '$T/loaded/copy-inflight-copy-pad.svg' | grep -q \"stroke='rgb(  0,   0,   0)' stroke-dasharray\""
# The model's roof by traffic: read-only rows are predicted up to the run's cub::DeviceReduce
# roof (a second roof line), copy rows up to the memcpy roof (no second line).
"$PLOT" --outdir "$T/cubroof" "$FIX/reduce-synthetic.csv" >/dev/null 2>&1
check "read-only rows: the cub::DeviceReduce roof drawn on the bytes-in-flight figure" \
    bash -c "grep -lF 'cub roof 3732 GB/s' '$T'/cubroof/*inflight*.svg | grep -q ."
check "copy rows: no second roof" bash -c "! grep -qF 'cub roof' '$T/loaded/copy-inflight-copy-pad.svg'"

# A run of the levels alone (--kernel chase --mode loaded): their figure and nothing else.
awk -F, '/^#/ { print; next } !h { print; h = 1; next } $4 == "chase"' "$T/loaded/copy.csv" \
    >"$T/loaded/levels.csv"
"$PLOT" "$T/loaded/levels.csv" >/dev/null 2>"$T/levels.err"
check "load levels alone: plot exits 0 ($(head -c 200 "$T/levels.err"))" [ $? -eq 0 ]
check "load levels alone: the latency figure, no other" bash -c "[ -s '$T/loaded/levels-loaded-latency.svg' ] &&
    [ \$(ls '$T/loaded' | grep -c '^levels-.*\.svg\$') -eq 1 ]"
"$PLOT" --latency-ns 400 --outdir "$T/loaded-unl" "$T/loaded/copy.csv" >/dev/null 2>&1
check "loaded levels: --latency-ns draws neither" bash -c "[ ! -e '$T/loaded-unl/copy-loaded-latency.svg' ] &&
    ! grep -qF 'predicted: loaded latency' '$T/loaded-unl/copy-inflight-copy-pad.svg'"

"$PLOT" --help >"$T/help.out" 2>&1
check "--help exits 0" [ $? -eq 0 ]
check "--help documents --compare" grep -qF -- "--compare" "$T/help.out"

echo "$checks checks, $failed failed"
[ $failed -eq 0 ]
